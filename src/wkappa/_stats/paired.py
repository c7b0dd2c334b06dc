"""Paired comparison of two predictors' kappas against one truth (``paired_kappa_test``).

Every item has a triple (truth, prediction A, prediction B); the K x K x K table of triples is
the sufficient statistic of the paired design. Resampling items is a multinomial draw over
its non-empty cells, and each replicate gives both kappas at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    Alternative,
    Column,
    EncodedRatings,
    NanPolicy,
    WeightsLike,
    check_alternative,
    check_pair_lengths,
    check_table,
    check_table_nan_policy,
    check_table_size,
    check_weights,
    encode_ratings,
    missing_rows,
    needs_order,
    to_column,
)
from ..exceptions import WkappaError
from . import bootstrap
from .bootstrap_method import SeedLike, check_resamples
from .cluster import read_groups
from .frequencies import CUBE_COUNTS, PAIRED_WEIGHTS, Frequencies, check_frequencies
from .paired_bootstrap import Settings, cells_test, cluster_bootstrap, triple_cells
from .results import PairedKappaResult, check_confidence_level, check_table_labels

__all__ = [
    "paired_kappa_test",
    "paired_kappa_test_from_cells",
    "paired_kappa_test_from_cluster_tables",
    "paired_kappa_test_from_table",
    "weighted_paired_test",
]

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
    sample_weight: Any,
) -> tuple[EncodedRatings, EncodedRatings]:
    """Both predictions against the truth on one set of categories, each with the items'
    ``sample_weight`` (checked as every sample weight is; dropped with their items)."""
    y_true, y_pred_a, y_pred_b = columns

    def encode(pred: Column, name: str, lo: Any, hi: Any) -> EncodedRatings:
        with _Renamed(name):
            encoded = encode_ratings(
                y_true,
                pred,
                labels=labels,
                min_rating=lo,
                max_rating=hi,
                sample_weight=sample_weight,
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


def paired_kappa_test(
    y_true: npt.ArrayLike,
    y_pred_a: npt.ArrayLike,
    y_pred_b: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
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
    sample_weight : array-like of shape (n,), optional
        Non-negative frequency weights of the items, as in :func:`~wkappa.kappa_test`: an
        item of weight 3 counts as three items, and ``n`` is the total weight. Without
        ``cluster`` the weighted counts of the (truth, A, B) triples must be whole numbers
        (see Notes); with ``cluster`` any non-negative weights are accepted.
    nan_policy : {'raise', 'omit'}, default 'raise'
        A missing rating (NaN, None, pandas NA) in any of the three columns: 'raise' refuses
        it, 'omit' drops the item (its truth and both predictions), so both kappas are
        computed on the same items. 'propagate' is not meaningful for a test result and
        raises, as in :func:`~wkappa.kappa_test`.
    n_resamples : int, default 9999
        Bootstrap replicates B. The item bootstrap needs at least 3 items: on 1 or 2 (2 have
        only 3 distinct resamples) the interval and the p-value are nan, with an
        :class:`~wkappa.exceptions.UndefinedKappaWarning`.
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

    Raises
    ------
    WkappaError
        Without ``cluster``, if the weighted counts of ``sample_weight`` are not whole
        numbers (see Notes).

    Notes
    -----
    **Sample weights.** Without ``cluster``, ``sample_weight`` holds frequency weights (SAS's
    WEIGHT statement, Stata's ``fweight``): the test is that of the expanded data, each item
    repeated as often as its weight says. The bootstrap draws ``n`` (the total weight) items
    over the cells of the weighted table of triples, which are those of the expanded data, so
    with the same seed the weighted and the expanded items give the same result, bit for bit
    (kappas, replicates, interval and p-value). Weights that are not whole numbers would
    claim a sample size the data do not have and are refused (the weighted count of each
    triple must be a whole number). With ``cluster``, the bootstrap resamples whole clusters
    and each replicate's kappas are ratios of weighted sums, which do not change when every
    weight is multiplied by the same number: any non-negative weights are accepted
    (probability or importance weights); ``cluster=np.arange(n)`` (one cluster per item)
    resamples the weighted items themselves.

    The items are resampled, not the two tables separately: a multinomial draw of n over the
    non-empty cells of the K x K x K table of (truth, A, B), so both kappas of a replicate come
    from the same resampled items and their correlation is kept. The cost is
    O(B m K) for m <= min(n, K³) non-empty cells, whatever n is.

    The interval is the expanded percentile interval of Hesterberg (2015): the bootstrap
    quantiles at ``Phi(± sqrt(n / (n - 1)) t_{n-1,(1+gamma)/2})`` instead of
    ``(1 ± gamma) / 2``. The plain percentile interval covered the true difference only
    90-93% of the time at n = 30 in the coverage study of BENCHMARKS.md; the expanded one
    92-97%, and both tend to the same interval as n grows. The p-value inverts the expanded
    interval on its own quantiles: 0 lies outside the level ``1 - alpha`` interval exactly
    when ``pvalue < alpha`` (for alpha above the smallest p-value B resamples resolve).
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

    Frequency weights give the test of the items repeated:

    >>> count = rng.integers(1, 4, 500)
    >>> weighted = wk.paired_kappa_test(truth, good, noisy, sample_weight=count, rng=1)
    >>> expanded = wk.paired_kappa_test(
    ...     np.repeat(truth, count), np.repeat(good, count), np.repeat(noisy, count), rng=1
    ... )
    >>> weighted.n, weighted.to_dict() == expanded.to_dict()
    (1010, True)
    """
    return weighted_paired_test(
        y_true,
        y_pred_a,
        y_pred_b,
        PAIRED_WEIGHTS,
        weights=weights,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=sample_weight,
        nan_policy=nan_policy,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        cluster=cluster,
        alternative=alternative,
    )


def weighted_paired_test(
    y_true: Any,
    y_pred_a: Any,
    y_pred_b: Any,
    frequencies: Frequencies,
    *,
    weights: WeightsLike,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    sample_weight: Any,
    nan_policy: NanPolicy,
    n_resamples: int,
    confidence_level: float,
    rng: SeedLike,
    cluster: Any,
    alternative: Alternative,
) -> PairedKappaResult:
    """:func:`paired_kappa_test`, refusing weighted counts that are not whole numbers with the
    message of ``frequencies`` (which names where the weights come from and the fix)."""
    checked = check_weights(weights)
    level = check_confidence_level(confidence_level)
    resamples = check_resamples(n_resamples)
    sided = check_alternative(alternative)
    policy = check_table_nan_policy(nan_policy, "a test result")
    ordered = needs_order(checked)
    columns, missing = _read_triples(y_true, y_pred_a, y_pred_b, policy)
    if cluster is not None:  # a missing id is refused before any item is dropped
        codes, names = read_groups(cluster, len(columns[0].values), "cluster")
    bounds = (min_rating, max_rating)
    first, second = _encode_pair(columns, labels, bounds, ordered, sample_weight)
    k = first.n_categories
    check_table_size(k)
    settings = Settings(checked, tuple(first.labels), level, resamples, rng, sided)
    if cluster is not None:
        if missing is not None:  # the clusters of the items left, numbered again
            used, codes = np.unique(codes[~missing], return_inverse=True)
            codes, names = codes.reshape(-1).astype(np.intp), tuple(names[int(i)] for i in used)
        return _clustered_paired_test(first, second, codes, len(names), settings)
    index = (first.true_index, first.pred_index, second.pred_index)
    cells = triple_cells(*index, k, first.sample_weight, frequencies)
    return cells_test(cells, k, settings)


def _clustered_paired_test(
    first: EncodedRatings,
    second: EncodedRatings,
    codes: np.ndarray,
    n_clusters: int,
    settings: Settings,
) -> PairedKappaResult:
    """The paired bootstrap resampling clusters, from the items' cluster codes (and weights,
    summed into the per-cluster tables)."""
    k = first.n_categories
    size = n_clusters * k * k

    def tables(encoded: EncodedRatings) -> np.ndarray:
        flat = (codes * k + encoded.true_index) * k + encoded.pred_index
        counts = np.bincount(flat, weights=encoded.sample_weight, minlength=size)
        if counts.dtype.kind == "f" and np.array_equal(counts, np.rint(counts)):
            counts = counts.astype(np.int64)  # whole weights: the tables of the items repeated
        return counts.reshape(n_clusters, k, k)

    tables_a, tables_b = tables(first), tables(second)
    if first.sample_weight is not None:  # a cluster of total weight 0 has no item to draw
        used = tables_a.sum(axis=(1, 2)) > 0
        tables_a, tables_b = tables_a[used], tables_b[used]
    return cluster_bootstrap(tables_a, tables_b, settings)


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
    settings = Settings(
        check_weights(weights),
        tuple(labels),
        check_confidence_level(confidence_level),
        check_resamples(n_resamples),
        rng,
        check_alternative(alternative),
    )
    return cluster_bootstrap(np.asarray(tables_a), np.asarray(tables_b), settings)


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
    return cells_test(cells, k, Settings(checked, names, level, resamples, rng, sided))


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
    frequencies: Frequencies = CUBE_COUNTS,
) -> PairedKappaResult:
    """:func:`paired_kappa_test_from_table` of a table given by m (truth, A, B) cells.

    ``true_index``, ``a_index``, ``b_index`` (m,) are category indices in ``0..k-1`` and
    ``counts`` (m,) their non-negative integer counts, or float frequency weights whose sums
    per cell must be whole numbers (else the error of ``frequencies``). The K x K x K table is
    never allocated when K³ is large, and the result equals that of the dense table.
    """
    checked = check_weights(weights)
    level = check_confidence_level(confidence_level)
    resamples = check_resamples(n_resamples)
    sided = check_alternative(alternative)
    check_table_size(k)
    names = check_table_labels(labels, k, ndim=3)
    cells = triple_cells(true_index, a_index, b_index, k, counts, frequencies)
    return cells_test(cells, k, Settings(checked, names, level, resamples, rng, sided))
