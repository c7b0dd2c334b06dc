"""Paired comparison of two predictors' kappas against one truth (``paired_kappa_test``).

Every item has a triple (truth, prediction A, prediction B); the K x K x K table of triples is
the sufficient statistic of the paired design. Resampling items is a multinomial draw over
its non-empty cells, and each replicate gives both kappas at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._core import (
    Alternative,
    Column,
    EncodedRatings,
    NanPolicy,
    WeightsLike,
    cell_kappas,
    check_alternative,
    check_pair_lengths,
    check_table,
    check_table_nan_policy,
    check_table_size,
    check_weights,
    encode_ratings,
    integer_weights,
    kappa_from_table,
    kappas,
    missing_rows,
    needs_order,
    to_column,
    weight_matrix,
    weights_name,
)
from ..exceptions import WkappaError
from . import bootstrap
from .bootstrap import expanded_pvalue
from .bootstrap_method import SeedLike, check_resamples, make_rng
from .cluster import read_groups, warn_few_clusters
from .frequencies import CUBE_COUNTS, check_frequencies
from .resampling import DrawSums
from .results import (
    PairedKappaResult,
    check_confidence_level,
    check_table_labels,
    warn_undefined,
)

__all__ = [
    "DENSE_CUBE_CELLS",
    "paired_kappa_test",
    "paired_kappa_test_from_cells",
    "paired_kappa_test_from_cluster_tables",
    "paired_kappa_test_from_table",
    "paired_pvalue",
]

# Count triples with a dense bincount up to this many cells, sparsely (np.unique) above.
DENSE_CUBE_CELLS = 2**22

_CUBE_HINT = (
    "Hint: table[t, a, b] counts the items with truth t, prediction A a and prediction B b, "
    "e.g. np.add.at(table, (truth, a, b), 1) on a zero (K, K, K) array of category indices."
)


class _Renamed:
    """Re-raise a core error about ``y_pred`` (the core's name of a second column) naming
    the paired test's ``y_pred_a`` or ``y_pred_b`` instead."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if isinstance(error, WkappaError):
            raise type(error)(str(error).replace("`y_pred`", f"`{self.name}`")) from None


def _read_triples(
    y_true: Any, y_pred_a: Any, y_pred_b: Any, nan_policy: NanPolicy
) -> tuple[tuple[Column, Column, Column], np.ndarray | None]:
    """The three columns, read as every rating column is, and where an item misses a rating
    (None when none does). The rule of a missing rating is that of two raters on the three
    columns together: 'raise' names the first missing one; for 'omit' each column is marked
    missing wherever any is, so that encoding each pair drops the same items."""
    true = to_column(y_true, "y_true")
    columns = [true]
    for pred, name in ((y_pred_a, "y_pred_a"), (y_pred_b, "y_pred_b")):
        column = to_column(pred, name)
        with _Renamed(name):
            check_pair_lengths(len(true.values), len(column.values))
        columns.append(column)
    named = list(zip(("y_true", "y_pred_a", "y_pred_b"), columns, strict=True))
    missing = missing_rows(
        named, nan_policy, omit="drops the items missing any of the three ratings", propagate=False
    )
    if missing is not None:
        columns = [Column(c.values, missing, c.categories, c.ordered) for c in columns]
    return (columns[0], columns[1], columns[2]), missing


def _encode_pair(
    columns: tuple[Column, Column, Column],
    labels: Any,
    bounds: tuple[Any, Any],
    ordered: bool,
) -> tuple[EncodedRatings, EncodedRatings]:
    y_true, y_pred_a, y_pred_b = columns

    def encode(pred: Column, name: str, lo: Any, hi: Any) -> EncodedRatings:
        with _Renamed(name):
            encoded = encode_ratings(
                y_true,
                pred,
                labels=labels,
                min_rating=lo,
                max_rating=hi,
                nan_policy="omit",  # only where _read_triples marked an item missing
                ordered=ordered,
            )
        assert encoded is not None
        return encoded

    first = encode(y_pred_a, "y_pred_a", *bounds)
    second = encode(y_pred_b, "y_pred_b", *bounds)
    if tuple(first.labels) == tuple(second.labels):
        return first, second
    if labels is None and isinstance(first.labels, range) and isinstance(second.labels, range):
        lo = min(first.labels.start, second.labels.start)
        hi = max(first.labels.stop, second.labels.stop) - 1
        return encode(y_pred_a, "y_pred_a", lo, hi), encode(y_pred_b, "y_pred_b", lo, hi)
    raise WkappaError(
        "`y_pred_a` and `y_pred_b` lead to different categories "
        f"({list(first.labels)[:8]} vs {list(second.labels)[:8]}). "
        "Hint: pass labels= with every category."
    )


def _triples(
    true: np.ndarray, a: np.ndarray, b: np.ndarray, k: int, counts: np.ndarray | None = None
) -> bootstrap.Cells:
    """The non-empty cells of the K x K x K table of (truth, A, B), in C order.

    ``counts`` (integers) repeat each triple; the same triple may occur more than once.
    """
    code = (true.astype(np.int64) * k + a) * k + b
    if k**3 <= DENSE_CUBE_CELLS:
        summed = np.bincount(code, weights=counts, minlength=k**3)
        cells = np.flatnonzero(summed)
        summed = summed[cells]
    else:
        cells, inverse = np.unique(code, return_inverse=True)
        summed = np.bincount(inverse.ravel(), weights=counts)
        cells, summed = cells[summed > 0], summed[summed > 0]
    coords = (cells // (k * k), (cells // k) % k, cells % k)
    # Integer counts below 2**53 are exact in float64.
    return bootstrap.Cells(summed.astype(np.float64), coords, round(float(summed.sum())))


class _Settings(NamedTuple):
    """The checked options of one paired test."""

    weights: str | np.ndarray
    labels: tuple[Any, ...]
    level: float
    n_resamples: int
    rng: SeedLike
    alternative: Alternative


def _comparison(
    table_a: np.ndarray,
    table_b: np.ndarray,
    settings: _Settings,
    differences: Callable[[np.random.Generator], np.ndarray],
    n_clusters: int | None = None,
) -> PairedKappaResult:
    """Both kappas from the (K, K) tables of A and B, then the comparison from the bootstrap
    replicates of kappa_a - kappa_b that ``differences(generator)`` draws (of items, or of
    clusters when ``n_clusters`` is given: the p-value's expansion uses their number); the
    nan comparison, with its warning, when either kappa is undefined."""
    weights, labels, level, n_resamples, rng, alternative = settings
    statistic_a = kappa_from_table(table_a, weights=weights, zero_division=math.nan)
    statistic_b = kappa_from_table(table_b, weights=weights, zero_division=math.nan)
    total = table_a.sum()
    n: int | float = int(total) if table_a.dtype.kind in "iu" else float(total)
    if math.isnan(statistic_a - statistic_b):
        warn_undefined(
            "Kappa is undefined for at least one prediction (sum(W*E) == 0): the comparison is nan."
        )
        replicates = np.full(n_resamples, math.nan)
        pvalue = math.nan
    else:
        replicates = differences(make_rng(rng))
        defined, _ = bootstrap.drop_undefined(replicates)
        units = n if n_clusters is None else n_clusters
        pvalue = comparison_pvalue(defined, units, alternative)
    return PairedKappaResult(
        statistic_a=statistic_a,
        statistic_b=statistic_b,
        difference=statistic_a - statistic_b,
        pvalue=pvalue,
        n=n,
        labels=labels,
        weights=weights_name(weights),
        confidence_level=level,
        n_resamples=replicates.size,
        _differences=replicates,
        n_clusters=n_clusters,
        alternative=alternative,
    )


def comparison_pvalue(differences: np.ndarray, n: float, alternative: Alternative) -> float:
    """P-value of H0: difference = 0 dual to the expanded percentile interval of the
    defined bootstrap differences, two-sided or one-sided as ``alternative``.

    Two-sided: :func:`expanded_pvalue` of :func:`paired_pvalue`. One-sided ('greater': H1
    difference > 0) the p-value is half the two-sided one of the tail that counts against H1
    (``1 + #(d* <= 0)`` for 'greater'), as the one-sided interval at level gamma is the
    matching limit of the two-sided interval at level ``2 gamma - 1``; when the bootstrap
    differences lie mostly on the other side it is one minus half the other tail's.
    nan without defined differences.
    """
    b = differences.size
    if b == 0:
        return math.nan
    if alternative == "two-sided":
        return expanded_pvalue(paired_pvalue(differences), n)
    below = 1 + int(np.count_nonzero(differences <= 0))
    above = 1 + int(np.count_nonzero(differences >= 0))
    against, toward = (below, above) if alternative == "greater" else (above, below)
    if against <= toward:
        return expanded_pvalue(min(1.0, 2.0 * against / (b + 1)), n) / 2.0
    return 1.0 - expanded_pvalue(min(1.0, 2.0 * toward / (b + 1)), n) / 2.0


def paired_pvalue(differences: np.ndarray) -> float:
    """Two-sided bootstrap p-value of H0: difference = 0, by inverting the percentile interval.

    ``p = min(1, 2 * min(1 + #(d* <= 0), 1 + #(d* >= 0)) / (B + 1))`` (Davison & Hinkley
    1997, eq. 4.11, on both tails): the smallest ``alpha`` at which the level ``1 - alpha``
    percentile interval of the B bootstrap differences ``d*`` excludes 0.
    """
    b = differences.size
    below = 1 + int(np.count_nonzero(differences <= 0))
    above = 1 + int(np.count_nonzero(differences >= 0))
    return min(1.0, 2.0 * min(below, above) / (b + 1))


def paired_kappa_test(
    y_true: npt.ArrayLike,
    y_pred_a: npt.ArrayLike,
    y_pred_b: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "raise",
    n_resamples: int = 9999,
    confidence_level: float = 0.95,
    rng: SeedLike = None,
    cluster: npt.ArrayLike | None = None,
    alternative: Alternative = "two-sided",
) -> PairedKappaResult:
    """Compare two predictions' kappas against the same truth with a paired bootstrap.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The reference ratings (rows of both tables).
    y_pred_a, y_pred_b : array-like of shape (n,)
        Two predictions of the same n items.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights, as in :func:`~wkappa.weighted_kappa`.
    labels : sequence of K categories, optional
        The categories in order; by default every integer from ``min_rating`` to
        ``max_rating``.
    min_rating, max_rating : int, optional
        Bounds of the integer categories, as in :func:`~wkappa.weighted_kappa`; by default
        the smallest and the largest rating over all three columns.
    nan_policy : {'raise', 'omit'}, default 'raise'
        A missing rating (NaN, None, pandas NA) in any of the three columns: 'raise' refuses
        it, 'omit' drops the item (its truth and both predictions), so both kappas are
        computed on the same items. 'propagate' is not meaningful for a test result and
        raises, as in :func:`~wkappa.kappa_test`.
    n_resamples : int, default 9999
        Bootstrap replicates B.
    confidence_level : float, default 0.95
        Default level of the result's :meth:`~wkappa.PairedKappaResult.confidence_interval`.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Seed or generator (:func:`numpy.random.default_rng`); the same seed gives the same
        result.
    cluster : array-like of shape (n,), optional
        The cluster of each item (patient, scan, task): the bootstrap then resamples whole
        clusters, keeping each cluster's items (and both predictions) together, and the
        expanded interval uses G clusters instead of n items. At least 2 clusters, no
        missing ids (items dropped by ``nan_policy='omit'`` drop their ids too).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        H1 of the p-value: the kappas differ, A's is greater (``difference > 0``) or A's is
        less. The result's interval follows it (one-sided with 'greater'/'less').

    Returns
    -------
    PairedKappaResult
        ``statistic_a``, ``statistic_b``, ``difference = statistic_a - statistic_b``, its
        expanded percentile ``confidence_interval`` and the ``pvalue`` (against ``alternative``).

    Notes
    -----
    The items are resampled, not the two tables separately: a multinomial draw of n over the
    non-empty cells of the K x K x K table of (truth, A, B), so both kappas of a replicate come
    from the same resampled items and their correlation is kept. The cost is
    O(B m K) for m <= min(n, K³) non-empty cells, whatever n is.

    The interval is the expanded percentile interval of Hesterberg (2015): the bootstrap
    quantiles at ``Phi(± sqrt(n / (n - 1)) t_{n-1,(1+gamma)/2})`` instead of
    ``(1 ± gamma) / 2``. The plain percentile interval covered the true difference only
    90-93% of the time at n = 30 in the coverage study of BENCHMARKS.md; the expanded one
    92-97%, and both tend to the same interval as n grows. The p-value inverts the expanded
    interval: 0 lies outside the level ``1 - alpha`` interval about when ``pvalue < alpha``.
    Replicates where either kappa is undefined are dropped and
    counted in ``confidence_interval().n_undefined`` (a warning above 1%).

    Examples
    --------
    >>> import numpy as np
    >>> import wkappa as wk
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 5, 500)
    >>> good = np.clip(truth + rng.integers(-1, 2, 500), 0, 4)
    >>> noisy = np.clip(truth + rng.integers(-2, 3, 500), 0, 4)
    >>> result = wk.paired_kappa_test(truth, good, noisy, n_resamples=2000, rng=1)
    >>> round(result.difference, 3), result.pvalue < 0.002
    (0.192, True)
    >>> low, high = result.confidence_interval()
    >>> bool(0 < low < result.difference < high)
    True
    """
    checked = check_weights(weights)
    level = check_confidence_level(confidence_level)
    resamples = check_resamples(n_resamples)
    sided = check_alternative(alternative)
    policy = check_table_nan_policy(nan_policy, "a test result")
    ordered = needs_order(checked)
    columns, missing = _read_triples(y_true, y_pred_a, y_pred_b, policy)
    if cluster is not None:  # a missing id is refused before any item is dropped
        codes, names = read_groups(cluster, len(columns[0].values), "cluster")
    first, second = _encode_pair(columns, labels, (min_rating, max_rating), ordered)
    k = first.n_categories
    check_table_size(k)
    settings = _Settings(checked, tuple(first.labels), level, resamples, rng, sided)
    if cluster is not None:
        if missing is not None:  # the clusters of the items left, numbered again
            used, codes = np.unique(codes[~missing], return_inverse=True)
            codes, names = codes.reshape(-1).astype(np.intp), tuple(names[int(i)] for i in used)
        return _clustered_paired_test(first, second, codes, len(names), settings)
    cells = _triples(first.true_index, first.pred_index, second.pred_index, k)
    return _paired_test(cells, k, settings)


def _clustered_paired_test(
    first: EncodedRatings,
    second: EncodedRatings,
    codes: np.ndarray,
    n_clusters: int,
    settings: _Settings,
) -> PairedKappaResult:
    """The paired bootstrap resampling clusters, from the items' cluster codes."""
    k = first.n_categories
    size = n_clusters * k * k

    def tables(encoded: EncodedRatings) -> np.ndarray:
        flat = (codes * k + encoded.true_index) * k + encoded.pred_index
        return np.bincount(flat, minlength=size).reshape(n_clusters, k, k)

    return _cluster_bootstrap(tables(first), tables(second), settings)


def paired_kappa_test_from_cluster_tables(
    tables_a: np.ndarray,
    tables_b: np.ndarray,
    *,
    weights: WeightsLike = "quadratic",
    labels: Sequence[Any],
    n_resamples: int = 9999,
    confidence_level: float = 0.95,
    rng: SeedLike = None,
    alternative: Alternative = "two-sided",
) -> PairedKappaResult:
    """:func:`paired_kappa_test` with ``cluster`` from the per-cluster tables of both
    predictions, (G, K, K) each (rows: the truth; integer counts of items; every cluster
    with items, in the order of the clusters' ids): the same result for a seed, without one
    entry per item (the command line's ``wkappa compare --cluster``)."""
    settings = _Settings(
        check_weights(weights),
        tuple(labels),
        check_confidence_level(confidence_level),
        check_resamples(n_resamples),
        rng,
        check_alternative(alternative),
    )
    return _cluster_bootstrap(np.asarray(tables_a), np.asarray(tables_b), settings)


def _cluster_bootstrap(
    tables_a: np.ndarray, tables_b: np.ndarray, settings: _Settings
) -> PairedKappaResult:
    """The paired bootstrap resampling clusters: per-cluster tables of A and B (G, K, K),
    replicates ``m @ tables`` with ``m ~ Multinomial(G, 1/G)``."""
    n_clusters, k = tables_a.shape[0], tables_a.shape[-1]
    if n_clusters < 2:
        raise WkappaError(
            f"`cluster` must have at least 2 clusters; got {n_clusters}. Hint: without "
            "clustering, leave `cluster` out."
        )
    warn_few_clusters(n_clusters, resampled=True)
    matrix = weight_matrix(settings.weights, k)
    flat_a, flat_b = tables_a.reshape(n_clusters, k * k), tables_b.reshape(n_clusters, k * k)
    probabilities = np.full(n_clusters, 1.0 / n_clusters)
    # Sums of the drawn clusters' tables, the same on every CPU.
    sums_a, sums_b = DrawSums(flat_a, n_clusters), DrawSums(flat_b, n_clusters)

    def differences(generator: np.random.Generator) -> np.ndarray:
        parts = []
        for chunk in bootstrap.chunk_sizes(settings.n_resamples, n_clusters + 2 * k * k):
            draws = generator.multinomial(n_clusters, probabilities, size=chunk)
            draws = draws.astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                kappa_a = kappas(sums_a(draws).reshape(chunk, k, k), matrix)
                kappa_b = kappas(sums_b(draws).reshape(chunk, k, k), matrix)
            parts.append(np.asarray(kappa_a, np.float64) - np.asarray(kappa_b, np.float64))
        return np.concatenate(parts)

    table_a, table_b = tables_a.sum(axis=0), tables_b.sum(axis=0)
    return _comparison(table_a, table_b, settings, differences, n_clusters)


def paired_kappa_test_from_table(
    table: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: Sequence[Any] | None = None,
    n_resamples: int = 9999,
    confidence_level: float = 0.95,
    rng: SeedLike = None,
    alternative: Alternative = "two-sided",
) -> PairedKappaResult:
    """Paired bootstrap comparison of two predictions from their K x K x K table of counts.

    The same test as :func:`paired_kappa_test`, from the sufficient statistic instead of the
    items: with the same cells and the same seed the result is identical. Use it when the
    triples were counted elsewhere (a database ``GROUP BY``, a streaming pass, the command
    line's ``wkappa compare``), or for weighted items.

    Parameters
    ----------
    table : array-like of shape (K, K, K)
        ``table[t, a, b]`` counts the items with truth (rater) category t, prediction A
        category a and prediction B category b: non-negative whole-number counts (float
        cells must be whole numbers), since each replicate draws ``table.sum()`` items.
    labels : sequence of K categories, optional
        Names of the categories, in the order of the table's axes (default ``0..K-1``).
    weights, n_resamples, confidence_level, rng, alternative
        As in :func:`paired_kappa_test`.

    Returns
    -------
    PairedKappaResult
        ``statistic_a`` (kappa of the (K, K) table ``table.sum(axis=2)``), ``statistic_b``
        (of ``table.sum(axis=1)``), ``difference = statistic_a - statistic_b``, its
        expanded percentile ``confidence_interval``, the ``pvalue`` against ``alternative``,
        ``n = table.sum()``.

    Raises
    ------
    WkappaError
        If ``table`` is not a non-empty (K, K, K) array of non-negative whole-number counts,
        or ``labels`` does not have K entries.

    Notes
    -----
    With ``O_A[t, a] = sum_b table[t, a, b]`` and ``O_B[t, b] = sum_a table[t, a, b]``,
    ``kappa_X = 1 - sum(W * O_X) / sum(W * E_X)`` with ``E_X = outer(rows, cols) / n``. Each
    replicate is one multinomial draw of n items over the m <= K³ non-empty cells of
    ``table``, giving both kappas of the same resampled items; the cost is O(B m K), whatever
    n is. Replicates where either kappa is undefined are dropped and counted in
    ``confidence_interval().n_undefined``. The interval and the p-value are those of
    :func:`paired_kappa_test`.

    Examples
    --------
    >>> import numpy as np
    >>> import wkappa as wk
    >>> truth = np.array([0, 1, 2, 1, 0, 2, 2, 1])
    >>> a = np.array([0, 1, 2, 1, 0, 2, 1, 1])
    >>> b = np.array([0, 2, 2, 0, 0, 1, 1, 1])
    >>> table = np.zeros((3, 3, 3), dtype=np.int64)
    >>> np.add.at(table, (truth, a, b), 1)
    >>> result = wk.paired_kappa_test_from_table(table, n_resamples=999, rng=0)
    >>> direct = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=0)
    >>> result.to_dict() == direct.to_dict()
    True
    >>> round(result.statistic_a, 4), round(result.statistic_b, 4), result.n
    (0.8889, 0.6098, 8)
    """
    checked = check_weights(weights)
    level = check_confidence_level(confidence_level)
    resamples = check_resamples(n_resamples)
    sided = check_alternative(alternative)
    cube = check_table(table, ndim=3, hint=_CUBE_HINT)
    k = cube.shape[0]
    check_table_size(k)
    names = check_table_labels(labels, k, ndim=3)
    check_frequencies(cube, CUBE_COUNTS)
    cells = bootstrap.nonzero_cells(cube)
    return _paired_test(cells, k, _Settings(checked, names, level, resamples, rng, sided))


def paired_kappa_test_from_cells(
    true_index: np.ndarray,
    a_index: np.ndarray,
    b_index: np.ndarray,
    counts: np.ndarray,
    k: int,
    *,
    weights: WeightsLike = "quadratic",
    labels: Sequence[Any] | None = None,
    n_resamples: int = 9999,
    confidence_level: float = 0.95,
    rng: SeedLike = None,
    alternative: Alternative = "two-sided",
) -> PairedKappaResult:
    """:func:`paired_kappa_test_from_table` of a table given by m (truth, A, B) cells.

    ``true_index``, ``a_index``, ``b_index`` (m,) are category indices in ``0..k-1`` and
    ``counts`` (m,) their non-negative integer counts. The K x K x K table is never allocated
    when K³ is large, and the result equals that of the dense table.
    """
    checked = check_weights(weights)
    level = check_confidence_level(confidence_level)
    resamples = check_resamples(n_resamples)
    sided = check_alternative(alternative)
    check_table_size(k)
    names = check_table_labels(labels, k, ndim=3)
    cells = _triples(true_index, a_index, b_index, k, counts)
    return _paired_test(cells, k, _Settings(checked, names, level, resamples, rng, sided))


def _paired_test(cells: bootstrap.Cells, k: int, settings: _Settings) -> PairedKappaResult:
    """Both kappas from the non-empty (truth, A, B) cells, then the paired bootstrap."""
    matrix = weight_matrix(settings.weights, k)
    integer = integer_weights(matrix, k)
    truth, pred_a, pred_b = cells.coords
    integral = bool(np.all(cells.counts == np.round(cells.counts)))

    def table(pred: np.ndarray) -> np.ndarray:
        counts = np.zeros((k, k), dtype=np.int64 if integral else np.float64)
        np.add.at(counts, (truth, pred), cells.counts.astype(counts.dtype))
        return counts

    def differences(generator: np.random.Generator) -> np.ndarray:
        parts = []
        for size in bootstrap.chunk_sizes(settings.n_resamples, truth.size):
            replicates = bootstrap.draw(cells, size, generator)
            parts.append(
                cell_kappas(replicates, truth, pred_a, matrix, integer)
                - cell_kappas(replicates, truth, pred_b, matrix, integer)
            )
        return np.concatenate(parts)

    return _comparison(table(pred_a), table(pred_b), settings, differences)
