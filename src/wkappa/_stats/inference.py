"""Kappa with standard errors and tests: ``kappa_test``, ``kappa_test_from_table``,
``paired_kappa_test`` and ``mean_kappa``."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    Alternative,
    NanPolicy,
    Request,
    WeightsLike,
    check_alternative,
    check_table,
    check_table_nan_policy,
    check_table_size,
    check_weights,
    count_pairs,
    exact_total,
    kappa_from_table,
    needs_order,
    real_number,
    variances,
    weight_matrix,
    weights_name,
)
from ..exceptions import WkappaError
from .cluster import (
    check_clusters,
    cluster_variance,
    encode_grouped,
    group_tables,
    warn_few_clusters,
)
from .frequencies import RATING_WEIGHTS, TABLE_COUNTS, check_frequencies
from .kappa_range import warn_kappa0_out_of_reach
from .kappa_warnings import warn_undefined_kappa, warn_untestable
from .mean import mean_kappa
from .paired import paired_kappa_test
from .pvalues import tail_pvalue, wald_statistic
from .results import KappaResult, check_table_labels
from .score_interval import hypothesis_variances

__all__ = [
    "cluster_robust",
    "kappa_result",
    "kappa_test",
    "kappa_test_from_table",
    "mean_kappa",
    "paired_kappa_test",
]


def check_kappa0(kappa0: Any) -> float:
    """Validate the hypothesised kappa of a test: a finite real number below 1."""
    value = real_number(kappa0, "kappa0", "a number below 1 (the kappa of H0)")
    if not (math.isfinite(value) and value < 1.0):
        raise WkappaError(
            f"`kappa0` must be a finite number below 1 (the kappa of H0); got {value!r}. "
            "Hint: kappa = 1 (perfect agreement) is rejected by any disagreeing pair."
        )
    return value


def null_standard_error(
    table: np.ndarray, matrix: np.ndarray, kappa0: float, variance_null: float
) -> float:
    """The standard error of kappa under ``H0: kappa = kappa0`` (see kappa_test_from_table)."""
    if kappa0 == 0.0:
        return math.sqrt(variance_null)
    return math.sqrt(float(hypothesis_variances(table, matrix, kappa0)))


def kappa_result(
    table: np.ndarray,
    weights: str | np.ndarray,
    labels: tuple[Any, ...],
    alternative: Alternative,
    kappa0: float = 0.0,
) -> KappaResult:
    """A KappaResult from a checked (K, K) table, checked weights and a checked kappa0 (one
    warning at most); from G per-cluster tables (G, K, K), that of the summed table with the
    cluster-robust standard error (the Wald test with it)."""
    if table.ndim == 3:
        if table.shape[-1] == 0:  # string ratings, no pair left: no category known
            return kappa_result(np.zeros((1, 1)), weights, (0,), alternative, kappa0)
        # No pair left (nan_policy='omit'): undefined, as unclustered.
        clustered = bool(table.sum() > 0)
        if clustered:
            check_clusters(table)
        base = kappa_result(table.sum(axis=0), weights, labels, alternative, kappa0)
        return cluster_robust(base, table) if clustered else base
    k = table.shape[0]
    matrix = weight_matrix(weights, k)
    with np.errstate(over="ignore"):  # a total weight past 1.8e308 is inf, as it is
        n: int | float = exact_total(table) if table.dtype.kind in "iu" else float(table.sum())
    statistic = kappa_from_table(table, weights=weights, zero_division=math.nan)
    se = se_null = zscore = pvalue = math.nan
    if math.isnan(statistic):
        warn_undefined_kappa()
    else:
        warn_kappa0_out_of_reach(table, matrix, kappa0)
        variance, variance_null = variances(table, matrix, statistic)
        se = math.sqrt(variance)
        se_null = null_standard_error(table, matrix, kappa0, variance_null)
        if se_null > 0:
            zscore = (statistic - kappa0) / se_null
            pvalue = tail_pvalue(zscore, alternative)
        else:
            warn_untestable(kappa0, single_pair=n == 1)
    return KappaResult(
        statistic=statistic,
        standard_error=se,
        standard_error_null=se_null,
        test_statistic=zscore,
        pvalue=pvalue,
        n=n,
        alternative=alternative,
        labels=labels,
        weights=weights_name(weights),
        weight_matrix=matrix,
        table=table,
        kappa0=kappa0,
    )


def cluster_robust(base: KappaResult, tables: np.ndarray) -> KappaResult:
    """``base`` (the result of the summed table) with the cluster-robust standard error of its
    G per-cluster tables (G, K, K) and the Wald test with it (t with G - 1 degrees of freedom;
    a FewClustersWarning below ``MIN_CLUSTERS``); with a single cluster these are nan
    (``wkappa score --by`` shows such a group so, as ``frames.kappa_by_group`` does)."""
    _, variance, n_clusters = cluster_variance(tables, base.weight_matrix)
    warn_few_clusters(n_clusters)
    se = math.sqrt(variance) if math.isfinite(variance) else math.nan
    t_statistic = wald_statistic(base.statistic, base.kappa0, se)  # t with G - 1 df
    return dataclasses.replace(
        base,
        standard_error=se,
        standard_error_null=se,
        test_statistic=t_statistic,
        pvalue=tail_pvalue(t_statistic, base.alternative, n_clusters - 1.0),
        n_clusters=n_clusters,
        cluster_tables=tables,
    )


def kappa_test_from_table(
    table: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: Sequence[Any] | None = None,
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
) -> KappaResult:
    """Weighted kappa of a K x K table with standard errors, z-test and intervals.

    Parameters
    ----------
    table : array-like of shape (K, K)
        Non-negative whole-number counts; rows rater A (``y_true``), columns rater B. Float
        cells are allowed when they are whole numbers: the standard errors, tests and
        intervals take ``n = table.sum()`` as the number of independent pairs (frequency
        weights, as SAS's WEIGHT statement), so a table of proportions or other non-integer
        weighted counts is refused (use :func:`~wkappa.kappa_from_table` for the point
        estimate, or :func:`~wkappa.kappa_test` with ``sample_weight`` and ``cluster``).
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights W (zero diagonal). Agreement weights A (SAS, Fleiss-Cohen-Everitt,
        statsmodels' internal ``w``) convert as ``W = 1 - A``.
    labels : sequence of K categories, optional
        Names of the rows/columns (default ``0..K-1``).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Alternative of the test of H0: kappa = kappa0.
    kappa0 : float, default 0
        The kappa of the null hypothesis (a finite number below 1), e.g. 0.6 to show that
        agreement is better than "moderate" with ``alternative='greater'``.

    Returns
    -------
    KappaResult

    Raises
    ------
    WkappaError
        If ``table`` is not a (K, K) array of non-negative finite whole-number counts.

    Warns
    -----
    UndefinedKappaWarning
        If kappa is undefined (``sum(W*E) == 0``: empty table, one category used by both
        raters); everything is then nan. Also if the null standard error is 0 (n = 1).

    Notes
    -----
    ``standard_error`` is the large-sample non-null standard error of Fleiss, Cohen & Everitt
    (1969) (SAS's "ASE"), ``standard_error_null`` the one under H0: kappa = ``kappa0``;
    ``test_statistic = (statistic - kappa0) / standard_error_null`` (a z statistic) and
    ``pvalue`` come from the normal distribution (``test_distribution`` is ``'normal'``).

    **Which standard error the test uses.** A test's standard error is evaluated under its
    null hypothesis, so that the p-value is calibrated when H0 holds:

    * ``kappa0 = 0`` (the default): the variance under independence of the raters with the
      observed margins (Fleiss, Cohen & Everitt 1969; the test of SAS PROC FREQ, Stata
      ``kap`` and statsmodels).
    * ``kappa0 != 0``: the Fleiss-Cohen-Everitt variance of the table with kappa ``kappa0``
      next to the observed one, on the path the 'score' interval uses (towards chance and
      disagreement when ``kappa0`` is below the estimate, towards perfect agreement when it
      is above; see :meth:`wkappa.KappaResult.confidence_interval`). The two-sided test therefore
      rejects at level ``1 - c`` exactly the ``kappa0`` outside the 'score' interval of level
      ``c``, and at ``kappa0 = 0`` it is the independence test above. This is the score
      principle Donner & Eliasziw (1992) use for two categories, where the variance is
      evaluated at the hypothesised kappa with the observed margins. Fleiss, Levin & Paik
      (2003, ch. 18) instead divide by the non-null standard error at the estimate (a Wald
      test); that z is ``(statistic - kappa0) / standard_error``, which rejects too often in
      small samples when the estimate is near 1 (its standard error shrinks towards 0).

    With ``p = O / n``, row and column proportions ``r``, ``c``, ``w_i = (W c)_i``,
    ``v_j = (r^T W)_j`` and ``D_e = r^T W c``, kappa ``= 1 - sum(W p) / D_e`` has the
    delta-method (multinomial) variance

    .. math::

        \\operatorname{Var}(\\hat\\kappa) = \\frac{1}{n D_e^2}
        \\Big[\\sum_{ij} p_{ij} \\big(W_{ij} - (1-\\kappa)(w_i + v_j)\\big)^2
        - (1-\\kappa)^2\\Big],

    and under independence (``p_ij = r_i c_j``, kappa = 0)

    .. math::

        \\operatorname{Var}_0(\\hat\\kappa) = \\frac{1}{n D_e^2}
        \\Big[\\sum_{ij} r_i c_j \\big(W_{ij} - w_i - v_j\\big)^2 - D_e^2\\Big].

    With agreement weights ``A = 1 - W`` these are the formulas of Fleiss, Cohen & Everitt
    (1969) used by SAS PROC FREQ and statsmodels.

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
    >>> round(result.statistic, 4), round(result.standard_error, 4), result.interpretation
    (0.5858, 0.1229, 'moderate')
    >>> round(result.test_statistic, 3), round(result.pvalue, 6)
    (3.89, 0.0001)
    """
    checked_weights = check_weights(weights)
    alternative = check_alternative(alternative)
    array = check_table(table)
    check_table_size(array.shape[0])
    names = check_table_labels(labels, array.shape[0])
    null_value = check_kappa0(kappa0)
    check_frequencies(array, TABLE_COUNTS)
    return kappa_result(array, checked_weights, names, alternative, null_value)


def kappa_test(
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
    nan_policy: NanPolicy = "raise",
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: npt.ArrayLike | None = None,
) -> KappaResult:
    """Weighted kappa of two raters with standard errors, z-test and intervals.

    Parameters
    ----------
    y_true, y_pred, weights, labels, min_rating, max_rating, sample_weight
        As in :func:`~wkappa.weighted_kappa`, except that without ``cluster`` the sample
        weights are frequency weights and must be whole numbers (see Notes).
    nan_policy : {'raise', 'omit'}, default 'raise'
        'propagate' is not meaningful for a result object and raises.
    alternative, kappa0 : {'two-sided', 'greater', 'less'}, float
        The test of H0: kappa = kappa0, as in :func:`kappa_test_from_table` (defaults
        'two-sided' and 0).
    cluster : array-like of shape (n,), optional
        The cluster of each pair (patient for two eyes, scan for several lesions, task for
        several prompts): pairs in one cluster are not independent. The point estimate does
        not change; the standard error becomes cluster-robust (see Notes) and the bootstrap
        resamples whole clusters. Any hashable ids (one per pair: join the parts of a
        composite id into one key), at least 2 clusters; no missing id, except for a pair
        that ``nan_policy='omit'`` drops.

    Returns
    -------
    KappaResult
        Holds the K x K table and the weight matrix, never the ratings (with ``cluster``,
        also the G per-cluster tables).

    Raises
    ------
    WkappaError
        Without ``cluster``, if the weighted counts of ``sample_weight`` are not whole
        numbers (see Notes).

    Notes
    -----
    **Sample weights.** Without ``cluster``, ``sample_weight`` holds frequency weights (SAS's
    WEIGHT statement, Stata's ``fweight``): a weight of 3 counts the pair three times and
    ``n`` is the total weight. The standard errors shrink as ``1 / sqrt(n)``, so the same
    weights divided by their sum would claim a sample of one pair; non-integer weighted
    counts therefore raise a :class:`~wkappa.exceptions.WkappaError`. With ``cluster``, any
    non-negative weights are accepted (probability or importance weights, which Stata
    allows only with a robust variance): the cluster-robust variance below does not change
    when every weight is multiplied by the same number. ``cluster=np.arange(n)`` (one
    cluster per pair) gives the sandwich standard error of independent weighted pairs. The
    point estimate is the same either way.

    **Clustered pairs.** With ``cluster``, ``standard_error`` is the delta-method sandwich
    over the G clusters (Obuchowski 1998; Yang & Zhou 2014; Vanbelle 2017): with the
    influence ``IF_ij`` of one pair in cell (i, j) (the derivative of kappa, whose
    ``sum(p IF²) / n`` is the Fleiss-Cohen-Everitt variance) and the cluster totals
    ``U_g = sum_ij O_gij IF_ij``,

    .. math::

        \\widehat{\\operatorname{Var}}_{cl}(\\hat\\kappa)
        = \\frac{G}{G - 1} \\, \\frac{1}{n^2} \\sum_g U_g^2 .

    With m pairs, one per cluster, and ``w_k`` the weight of pair k (1 without
    ``sample_weight``), it is ``m / (m - 1) * sum_k w_k² IF_k² / (sum_k w_k)²``. For unit
    weights that is the ordinary (Fleiss-Cohen-Everitt) variance times ``m / (m - 1)``; so
    is it for integer frequency weights expanded into repeated rows, each row its own
    cluster (then m is the total weight). Unexpanded weights are not the same: the
    frequency-weight variance ``sum_k w_k IF_k² / (sum_k w_k)²`` of the unclustered test
    counts a pair of weight 10 as ten independent pairs, so for weights all equal to c it
    is the one-cluster-per-pair variance divided by ``c m / (m - 1)``.
    ``standard_error_null`` is the same cluster-robust standard error, so ``test_statistic``
    is the Wald statistic ``(statistic - kappa0) / standard_error``, referred to Student's t
    with G - 1 degrees of freedom (``test_distribution`` ``'t'``, ``test_df`` G - 1; as
    Stata's ``vce(cluster)``); ``confidence_interval`` offers
    'asymptotic' (``statistic ± t_{G-1} standard_error``) and the cluster bootstrap
    ('bootstrap', 'bca' or :class:`~wkappa.BootstrapMethod`), not 'score' or 'fisher-z'.
    :func:`kappa_test_from_table` takes no ``cluster``: a table no longer knows which pairs
    belong together.

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_test([4, 4, 3, 4, 4, 0, 1, 1, 2, 1], [0, 4, 1, 0, 4, 0, 1, 1, 2, 1])
    >>> result.statistic
    0.3181818181818182
    >>> ci = result.confidence_interval(0.95)
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.2355, 0.8718)
    """
    checked_weights = check_weights(weights)
    alternative = check_alternative(alternative)
    null_value = check_kappa0(kappa0)
    if cluster is not None:
        grouped = encode_grouped(
            y_true,
            y_pred,
            cluster,
            "cluster",
            labels=labels,
            min_rating=min_rating,
            max_rating=max_rating,
            sample_weight=sample_weight,
            nan_policy=check_table_nan_policy(nan_policy, "a test result"),
            ordered=needs_order(checked_weights),
            propagate=False,
        )
        return kappa_result(
            group_tables(grouped),
            checked_weights,
            tuple(grouped.encoded.labels),
            alternative,
            null_value,
        )
    request = Request(
        labels,
        min_rating,
        max_rating,
        sample_weight,
        check_table_nan_policy(nan_policy, "a test result"),
        ordered=needs_order(checked_weights),
        propagate=False,
    )
    counted = count_pairs(y_true, y_pred, request)
    assert counted.table is not None and counted.labels is not None
    table, names = counted.table, tuple(counted.labels)
    if table.shape[0] == 0:
        # nan_policy='omit' dropped every pair of string ratings, so no category is known:
        # kappa is undefined (nan with an UndefinedKappaWarning), as for numeric ratings,
        # wkappa.weighted_kappa and wkappa.frames.kappa_test.
        table, names = np.zeros((1, 1), dtype=table.dtype), (0,)
    check_frequencies(table, RATING_WEIGHTS)
    return kappa_result(table, checked_weights, names, alternative, null_value)
