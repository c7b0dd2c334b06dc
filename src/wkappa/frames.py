"""Weighted kappa of two rating columns of a data frame, counted where the data lives.

One code path (through `narwhals <https://narwhals-dev.github.io/narwhals/>`_) serves pandas,
polars (``DataFrame`` and ``LazyFrame``, including ``scan_parquet`` / ``scan_csv``), pyarrow
``Table``, DuckDB relations, Dask DataFrames and PySpark DataFrames. Needs the ``frames``
extra (``pip install 'wkappa[frames]'``); this module is imported only on request.

How it counts
-------------
Kappa needs only the K x K table of counts. On a lazy or distributed engine (polars lazy,
DuckDB, Dask, Spark) and for string or categorical columns, the engine runs one
``group_by([y_true, y_pred]).agg(len)``; only the distinct (y_true, y_pred, count) rows come
back, and the core encodes those few values — so labels, the integer range, the order of an
ordered categorical / polars ``Enum`` / DuckDB ``ENUM`` and missing values follow exactly the
rules of :func:`wkappa.weighted_kappa`. An in-memory (eager) frame with numeric or ordered
categorical columns is already in this process: its columns go straight to the core kernels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import (
    NanPolicy,
    Request,
    WeightsLike,
    ZeroDivision,
    check_alternative,
    check_nan_policy,
    check_table_nan_policy,
    check_weights,
    check_zero_division,
    weight_matrix,
)
from ._frame_correlations import ccc, icc, icc_all
from ._frame_paired import paired_kappa_test
from ._frame_raters import agreement, krippendorff_alpha, rater_vs_panel
from ._frames import (
    check_by,
    check_group_options,
    clustered_group_columns,
    frame_input,
    frame_kappa,
    frame_table,
    group_columns,
    group_names,
    group_statistics,
    names_as_keywords,
    no_empty_table,
    result_frame,
    tables_of_groups,
)
from ._stats import Alternative, KappaResult

__all__ = [
    "agreement",
    "ccc",
    "confusion_table",
    "icc",
    "icc_all",
    "kappa_by_group",
    "kappa_test",
    "krippendorff_alpha",
    "paired_kappa_test",
    "rater_vs_panel",
    "weighted_kappa",
]


@names_as_keywords
def weighted_kappa(
    df: Any,
    *,
    y_true: str,
    y_pred: str,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: str | None = None,
    nan_policy: NanPolicy = "raise",
    zero_division: ZeroDivision = "warn",
) -> float:
    """Cohen's weighted kappa between two rating columns of a data frame.

    Parameters
    ----------
    df : data frame
        A pandas, polars (eager or lazy), pyarrow, DuckDB, Dask or PySpark frame.
    y_true, y_pred : str
        Names of rater A's (rows of the table) and rater B's (columns) rating columns.
    weights, labels, min_rating, max_rating, nan_policy, zero_division
        As in :func:`wkappa.weighted_kappa`. Without ``labels``, an ordered categorical
        column (pandas ordered ``Categorical``, polars ``Enum``, DuckDB ``ENUM``) gives the
        category order.
    sample_weight : str, optional
        Name of a column of non-negative finite pair weights.

    Returns
    -------
    float
        ``kappa = 1 - sum(W*O) / sum(W*E)``, exactly what :func:`wkappa.weighted_kappa`
        returns for the same ratings.

    Notes
    -----
    A lazy engine runs ``group_by([y_true, y_pred]).agg(len)`` (and the weight sums), so
    only the distinct pairs leave the engine: memory is O(distinct pairs), not O(rows).
    Nulls (and NaN) are missing ratings, handled by ``nan_policy``.

    Examples
    --------
    >>> import pandas as pd
    >>> from wkappa import frames
    >>> df = pd.DataFrame({"grade": [4, 4, 3, 4, 4, 0, 1, 1, 2, 1],
    ...                    "model": [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]})
    >>> frames.weighted_kappa(df, y_true="grade", y_pred="model")
    0.3181818181818182
    """
    checked_weights = check_weights(weights)
    policy = check_nan_policy(nan_policy)
    request = Request.for_weights(
        checked_weights, labels, min_rating, max_rating, sample_weight, policy, sums=True
    )
    return frame_kappa(
        df, y_true, y_pred, request, checked_weights, check_zero_division(zero_division)
    )


@names_as_keywords
def confusion_table(
    df: Any,
    *,
    y_true: str,
    y_pred: str,
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: str | None = None,
    nan_policy: NanPolicy = "raise",
) -> np.ndarray:
    """The K x K table O of (weighted) counts of two rating columns.

    Parameters are those of :func:`weighted_kappa`; ``nan_policy='propagate'`` raises.

    Returns
    -------
    ndarray of shape (K, K)
        int64 counts (float64 weight sums with ``sample_weight``); rows ``y_true``.

    Examples
    --------
    >>> import pandas as pd
    >>> from wkappa import frames
    >>> df = pd.DataFrame({"a": ["lo", "hi", "hi"], "b": ["lo", "lo", "hi"]})
    >>> frames.confusion_table(df, y_true="a", y_pred="b", labels=["lo", "hi"])
    array([[1, 0],
           [1, 1]])
    """
    policy = check_table_nan_policy(nan_policy, "a table")
    # ordered: as wk.confusion_table, strings need labels=
    request = Request(
        labels, min_rating, max_rating, sample_weight, policy, ordered=True, propagate=False
    )
    counted = frame_table(df, y_true, y_pred, request)
    assert counted is not None and isinstance(counted[0], np.ndarray)
    return counted[0]


@names_as_keywords
def kappa_test(
    df: Any,
    *,
    y_true: str,
    y_pred: str,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: str | None = None,
    nan_policy: NanPolicy = "raise",
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: str | None = None,
) -> KappaResult:
    """Weighted kappa of two rating columns with standard errors, test and intervals.

    Parameters are those of :func:`weighted_kappa` (``nan_policy='propagate'`` raises),
    ``alternative`` and ``kappa0`` of :func:`wkappa.kappa_test`; ``cluster`` names a column
    of cluster ids (patient, scan, task): the standard error is then cluster-robust over its
    clusters, as ``wkappa.kappa_test(..., cluster=...)`` (the per-cluster tables are counted
    by one ``group_by`` in the engine). As there, the ``sample_weight`` column holds
    frequency weights whose weighted counts must be whole numbers unless ``cluster`` is
    given (the cluster-robust standard error accepts any non-negative weights).

    Returns
    -------
    KappaResult
        The same as ``wkappa.kappa_test`` on the columns' values.

    Examples
    --------
    >>> import pandas as pd
    >>> from wkappa import frames
    >>> df = pd.DataFrame({"grade": [4, 4, 3, 4, 4, 0, 1, 1, 2, 1],
    ...                    "model": [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]})
    >>> result = frames.kappa_test(df, y_true="grade", y_pred="model")
    >>> round(result.statistic, 4), round(result.standard_error, 4)
    (0.3182, 0.2825)
    """
    from ._stats import FRAME_WEIGHTS, check_frequencies, kappa_test_from_table

    checked_weights = check_weights(weights)
    policy = check_table_nan_policy(nan_policy, "a test result")
    request = Request.for_weights(
        checked_weights, labels, min_rating, max_rating, sample_weight, policy
    )._replace(propagate=False)
    if cluster is not None:
        # As wkappa.kappa_test checks them (the table route checks them itself).
        from ._stats import check_kappa0

        return _clustered_kappa_test(
            df, y_true, y_pred, sample_weight, cluster, request, checked_weights,
            check_alternative(alternative), check_kappa0(kappa0),
        )  # fmt: skip
    counted = frame_table(df, y_true, y_pred, request)
    assert counted is not None
    table, names = counted
    assert isinstance(table, np.ndarray)
    check_frequencies(table, FRAME_WEIGHTS)
    return kappa_test_from_table(
        no_empty_table(table),
        weights=checked_weights,
        labels=list(names) if table.size else None,
        alternative=alternative,
        kappa0=kappa0,
    )


def _clustered_kappa_test(
    df: Any,
    y_true: str,
    y_pred: str,
    sample_weight: str | None,
    cluster: str,
    request: Request,
    weights: str | np.ndarray,
    alternative: Alternative,
    kappa0: float,
) -> KappaResult:
    """kappa_test of the per-cluster tables (counted by cluster in the engine: one pass over
    a lazy frame, which gives the categories too)."""
    from ._stats import kappa_result

    data = frame_input(df, y_true, y_pred, sample_weight, (), cluster)
    grouped, _ = tables_of_groups(data, y_true, y_pred, [cluster], request, cluster=cluster)
    names = grouped.labels
    if names is None:  # counted in this process: the categories of the whole table
        counted = frame_table(data, y_true, y_pred, request)
        assert counted is not None
        names = counted[1]
    tables = grouped.tables
    if len(names) != tables.shape[-1]:  # no pair left: the tables are (G, 1, 1) placeholders
        names = list(range(tables.shape[-1]))
    return kappa_result(tables, weights, tuple(names), alternative, kappa0)


# --------------------------------------------------------------------------- by group


@names_as_keywords
def kappa_by_group(
    df: Any,
    *,
    y_true: str,
    y_pred: str,
    by: str | Sequence[str],
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: str | None = None,
    nan_policy: NanPolicy = "raise",
    zero_division: ZeroDivision = "warn",
    confidence_level: float = 0.95,
    method: str = "asymptotic",
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: str | None = None,
) -> Any:
    """Kappa, its standard error, a confidence interval and a test for every group of rows.

    Parameters
    ----------
    df, y_true, y_pred, weights, labels, min_rating, max_rating, sample_weight
        As in :func:`weighted_kappa`; without ``cluster``, the standard errors and intervals
        read ``sample_weight`` as frequency weights, whose weighted counts must be whole
        numbers (as :func:`wkappa.kappa_test`).
    by : str or sequence of str
        The grouping column(s), for example the essay prompt. A missing key (None, NaN,
        null) is a group of its own, as in SQL's and polars' GROUP BY and in
        :func:`agreement`'s ``by``.
    nan_policy : {'raise', 'omit', 'propagate'}, default 'raise'
        'propagate' makes the statistics of the groups with a missing rating nan.
    zero_division : {'warn', 'raise'} or float, default 'warn'
        What the kappa of a group where it is undefined is ('warn': nan and one warning
        naming how many groups).
    confidence_level : float, default 0.95
        Level of the interval.
    method : {'asymptotic', 'score', 'fisher-z'}, default 'asymptotic'
        'asymptotic': ``kappa ± z * standard_error``; 'score' (recommended for groups of
        fewer than 100 pairs) and 'fisher-z': the small-sample intervals of
        :meth:`KappaResult.confidence_interval <wkappa.KappaResult.confidence_interval>`.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        The alternative of each group's test of ``kappa = kappa0``, and the side of its
        interval: 'greater' gives ``(ci_low, 1)`` with ``ci_low`` the one-sided limit at
        ``confidence_level``, 'less' ``(-inf, ci_high)``, as
        :meth:`KappaResult.confidence_interval <wkappa.KappaResult.confidence_interval>`.
    kappa0 : float, default 0.0
        The kappa of the null hypothesis of each group's test (below 1).
    cluster : str, optional
        A column of cluster ids (patient, scan, task) within the groups: each group's
        standard error is then cluster-robust over its clusters, its interval is
        ``kappa ± t(G - 1) * standard_error`` and its test is on t with ``G - 1``
        degrees of freedom, as ``wk.kappa_test(..., cluster=...)`` (``method`` must be
        'asymptotic'); the result gains a column ``n_clusters``.

    Returns
    -------
    data frame of the caller's library
        One row per group, sorted by the keys: the ``by`` columns, ``n`` (pairs, or total
        weight), ``kappa``, ``standard_error`` (Fleiss-Cohen-Everitt), ``ci_low``,
        ``ci_high`` (the ``method`` interval), ``test_statistic`` and ``pvalue`` (each the
        group's :func:`wkappa.kappa_test`: z with the standard error under H0, or t with
        ``cluster``). A lazy input (polars LazyFrame, DuckDB, Dask, Spark) gives a lazy
        frame of its library over the small result.

    Notes
    -----
    A lazy engine (and any frame with string or unordered categorical ratings, or keys it
    cannot code) runs one ``group_by([*by, y_true, y_pred]).agg(len)``. An in-memory frame
    with numeric (or ordered categorical) ratings of at least a few thousand rows is counted
    in this process instead: the keys become integer codes (pandas ``factorize``, or the
    integer itself), and one numba pass fills all the (G, K, K) tables. All groups are
    scored on the same categories: ``labels``, the categorical order, or the integer range
    of the whole frame. For the built-in weights this gives each group exactly the kappa of
    :func:`wkappa.weighted_kappa` on that group's rows alone: empty outer categories add
    nothing to ``sum(W*O)`` or ``sum(W*E)`` and the ``(K - 1)`` scale cancels.

    The Fisher-z average over groups (ASAP's "mean QWK") is one more line:
    ``wk.mean_kappa(result["kappa"])``.

    Examples
    --------
    >>> import pandas as pd
    >>> import wkappa as wk
    >>> from wkappa import frames
    >>> df = pd.DataFrame({"prompt": [1, 1, 1, 1, 2, 2, 2, 2],
    ...                    "grade": [0, 1, 2, 3, 1, 2, 3, 3],
    ...                    "model": [0, 1, 3, 3, 1, 3, 2, 3]})
    >>> result = frames.kappa_by_group(df, y_true="grade", y_pred="model", by="prompt")
    >>> result[["prompt", "n", "kappa"]]
       prompt  n     kappa
    0       1  4  0.916667
    1       2  4  0.636364
    >>> round(wk.mean_kappa(result["kappa"]), 6)
    0.821005
    """
    from ._stats import (
        FRAME_WEIGHTS,
        KAPPA_RANGE,
        check_confidence_level,
        check_frequencies,
        check_kappa0,
        cluster_tests,
        cluster_variance,
        collapsed_groups,
        fisher_z_limits,
        score_limits,
        sided_limits,
        table_tests,
        two_sided_level,
        warn_cluster_groups,
        warn_few_clusters,
        warn_undefined_intervals,
    )

    checked_weights = check_weights(weights)
    zero_division = check_zero_division(zero_division)
    policy = check_nan_policy(nan_policy)
    alternative = check_alternative(alternative)
    kappa0 = check_kappa0(kappa0)
    level = check_confidence_level(confidence_level)
    at = two_sided_level(level, alternative)  # the two-sided interval giving the limits
    keys = check_by(by)
    check_group_options(method, cluster, keys)
    data = frame_input(df, y_true, y_pred, sample_weight, keys, cluster)
    request = Request.for_weights(
        checked_weights, labels, min_rating, max_rating, sample_weight, policy
    )
    counted_keys = keys if cluster is None else [*keys, cluster]
    grouped, backend = tables_of_groups(
        data, y_true, y_pred, counted_keys, request, cluster=cluster
    )
    integer = sample_weight is None
    matrix = weight_matrix(checked_weights, grouped.tables.shape[-1])
    if cluster is not None:
        clustered, group_rows, sums = clustered_group_columns(
            grouped, matrix, at, integer, cluster_variance
        )
        counts = clustered.pop("n_clusters")
        warn_few_clusters(counts[0] if len(counts) == 1 else counts)
        shown = group_names(keys, group_rows)
        low, high = collapsed_groups(
            "asymptotic", clustered["kappa"], clustered["ci_low"], clustered["ci_high"], *shown
        )
        low, high = sided_limits(low, high, alternative, KAPPA_RANGE)
        clustered["ci_low"], clustered["ci_high"] = low.tolist(), high.tolist()
        t_statistic, t_pvalue = cluster_tests(
            clustered["kappa"], clustered["standard_error"], counts, alternative, kappa0
        )
        warn_cluster_groups(
            sums,
            matrix,
            clustered["kappa"],
            counts,
            t_pvalue,
            kappa0,
            shown,
            f"cluster={cluster!r}",
        )
        clustered["test_statistic"], clustered["pvalue"] = t_statistic, t_pvalue
        clustered["n_clusters"] = counts
        return result_frame(data, backend, keys, group_rows, clustered)
    names = [str(dict(zip(keys, row, strict=True))) for row in grouped.key_rows]
    check_frequencies(grouped.tables, FRAME_WEIGHTS, groups=names)
    computed = group_statistics(grouped.tables, checked_weights, matrix, at)
    ci_low, ci_high = computed.ci_low, computed.ci_high
    shown = group_names(keys, grouped.key_rows)
    if method in ("fisher-z", "score"):
        limits_of = fisher_z_limits if method == "fisher-z" else score_limits
        ci_low, ci_high = limits_of(grouped.tables, matrix, at, computed.kappa)
        sizes = grouped.tables.sum(axis=(-2, -1))
        warn_undefined_intervals(method, computed.kappa, ci_low, ci_high, sizes, *shown)
    refused = zero_division == "raise" and (np.isnan(computed.kappa) & ~grouped.stale).any()
    if not refused:  # (group_columns raises for the undefined kappa first)
        ci_low, ci_high = collapsed_groups(method, computed.kappa, ci_low, ci_high, *shown)
    ci_low, ci_high = sided_limits(ci_low, ci_high, alternative, KAPPA_RANGE)
    limits = (computed.standard_error, ci_low, ci_high)
    stats = group_columns(grouped, keys, computed.kappa, limits, zero_division, integer)
    statistic, pvalue = table_tests(grouped.tables, checked_weights, alternative, kappa0, *shown)
    stats["test_statistic"] = np.where(grouped.stale, np.nan, statistic).tolist()
    stats["pvalue"] = np.where(grouped.stale, np.nan, pvalue).tolist()
    return result_frame(data, backend, keys, grouped.key_rows, stats)
