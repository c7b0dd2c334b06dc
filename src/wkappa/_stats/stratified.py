"""Kappa across strata, as SAS PROC FREQ computes it (``stratified_kappa_test`` and
``stratified_kappa_test_from_tables``): the checks of their input, the per-stratum kappas,
their overall kappa (SAS's inverse-variance weighted mean, or the mean weighted by the
strata's pairs, ``pooling=``) with its standard error and test, and the chi-square
test of equal kappas or the test ``homogeneity=`` chooses (``homogeneity.py``). The result,
its interval and its explanation are :class:`StratifiedKappaResult` (``stratified_result.py``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    Alternative,
    NanPolicy,
    WeightsLike,
    check_alternative,
    check_table,
    check_table_nan_policy,
    check_table_size,
    check_weights,
    exact_total,
    format_value,
    needs_order,
    warn_at_caller,
    weight_matrix,
    weights_name,
)
from ..exceptions import FewClustersWarning, UndefinedKappaWarning, WkappaError
from .bootstrap_method import BootstrapMethod
from .cluster import (
    Grouped,
    describe_groups,
    encode_grouped,
    group_tables,
    warn_few_clusters,
)
from .frequencies import STRATA_TABLES, STRATA_WEIGHTS, check_frequencies
from .group_results import kappa_results
from .homogeneity import (
    HomogeneityTest,
    bootstrap_homogeneity,
    check_goodness_of_fit,
    check_homogeneity,
    goodness_of_fit_homogeneity,
)
from .inference import check_kappa0, cluster_robust
from .pvalues import chi2_sf, tail_pvalue, wald_statistic
from .results import KappaResult, check_table_labels
from .stratified_result import Pooling, StratifiedKappaResult, check_pooling

__all__ = [
    "build_stratified",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
]


def combine_strata(kappa: np.ndarray, variance: np.ndarray) -> tuple[float, float, float, int]:
    """SAS's overall kappa, its variance, the chi-square of equal kappas and its df.

    ``kappa`` and ``variance`` are (S,) arrays of the strata used (finite, variance > 0).
    """
    inverse = 1.0 / variance
    total = float(inverse.sum())
    if kappa.size == 0:
        return math.nan, math.nan, math.nan, 0
    overall = float(np.sum(inverse * kappa)) / total
    q = float(np.sum(inverse * (kappa - overall) ** 2))
    df = kappa.size - 1
    return overall, 1.0 / total, (q if df > 0 else math.nan), df


def pool_strata(
    kept: Sequence[KappaResult], pooling: Pooling, alternative: Alternative, kappa0: float = 0.0
) -> tuple[float, float, float, int | None]:
    """The overall kappa of the strata used, its standard error, the p-value of H0: overall
    kappa = ``kappa0`` and the t distribution's df (None: normal), as ``pooling`` weights them.

    With weights ``w_h`` summing to 1 (``1/Var_h`` or ``n_h``, normalised), the test divides
    the overall kappa less ``kappa0`` by ``sqrt(sum w_h^2 Var0_h)``, each stratum's null
    variance (its ``standard_error_null`` under kappa = ``kappa0``: the cluster-robust one
    with clusters). The pairs pooling with clusters refers its interval and test to t on
    ``sum G_h - S`` df.
    """
    if not kept:
        return math.nan, math.nan, math.nan, None
    kappa = np.array([r.statistic for r in kept])
    variance = np.array([r.standard_error**2 for r in kept])
    null = np.array([r.standard_error_null**2 for r in kept])
    df: int | None = None
    if pooling == "pairs":
        share = np.array([float(r.n) for r in kept])
        share = share / share.sum()
        overall = float(share @ kappa)
        se = math.sqrt(float(share**2 @ variance))
        if all(r.n_clusters is not None for r in kept):
            df = sum(int(r.n_clusters or 0) for r in kept) - len(kept)
    else:
        overall, overall_variance, _, _ = combine_strata(kappa, variance)
        se = math.sqrt(overall_variance)
        share = (1.0 / variance) / float(np.sum(1.0 / variance))
    statistic = wald_statistic(overall, kappa0, math.sqrt(float(share**2 @ null)))
    return overall, se, tail_pvalue(statistic, alternative, None if df is None else float(df)), df


def build_stratified(
    tables: np.ndarray,
    weights: str | np.ndarray,
    labels: tuple[Any, ...],
    strata: tuple[Any, ...],
    alternative: Alternative,
    homogeneity: HomogeneityTest = "asymptotic",
    weighted: bool = False,
    how: BootstrapMethod | None = None,
    results: Sequence[KappaResult] | None = None,
    pooling: Pooling = "inverse-variance",
    kappa0: float = 0.0,
) -> StratifiedKappaResult:
    """The result of a checked (S, K, K) stack of tables (``weighted``: from sample_weight;
    ``how``: the bootstrap's replicates and seed for ``homogeneity='bootstrap'``; ``results``:
    the strata's results when not those of their tables alone, the cluster-robust ones;
    ``pooling``: the overall kappa's weights; ``kappa0``: the checked kappa of H0 of the
    strata's tests and the overall one)."""
    if tables.shape[0] == 0:  # (an empty input is refused where it enters)
        raise WkappaError(
            "No pair is left to score: nan_policy='omit' left out every pair, each with a "
            "missing rating in `y_true` or `y_pred`. Hint: check those columns."
        )
    k = tables.shape[-1]
    matrix = weight_matrix(weights, k)
    if homogeneity == "goodness-of-fit":
        check_goodness_of_fit(tables, matrix, weighted)
    if results is None:
        with warnings.catch_warnings():  # one warning below names every stratum left out
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            results = kappa_results(tables, weights, labels, alternative, kappa0)
    defined = tuple(math.isfinite(r.statistic) and math.isfinite(r.standard_error) for r in results)
    positive = tuple(d and r.standard_error > 0 for d, r in zip(defined, results, strict=True))
    # SAS's test (and its overall kappa) needs 1 / Var_h; the pairs pooling keeps a stratum
    # whose standard error is 0 (every pair agrees, kappa 1) in the overall kappa.
    used = defined if pooling == "pairs" else positive
    if not all(positive):
        _warn_left_out(strata, results, used, positive, homogeneity)
    elif len(strata) == 1:
        warn_at_caller(
            "The test of equal kappas needs 2 strata or more, and there is 1 stratum "
            f"({describe_groups(list(strata))}): homogeneity_statistic and homogeneity_pvalue "
            "are nan. Hint: pass `strata` with 2 values or more, or use kappa_test for one "
            "table.",
            UndefinedKappaWarning,
        )
    tested = [r for r, u in zip(results, positive, strict=True) if u]
    _, _, q, df = combine_strata(  # SAS's test of equal kappas, whatever the pooling
        np.array([r.statistic for r in tested]), np.array([r.standard_error**2 for r in tested])
    )
    overall, se, overall_pvalue, test_df = pool_strata(
        [r for r, u in zip(results, used, strict=True) if u], pooling, alternative, kappa0
    )
    pvalue = chi2_sf(q, df) if df > 0 else math.nan
    resamples = 0
    if homogeneity == "goodness-of-fit":
        q, df, _ = goodness_of_fit_homogeneity(tables)
        pvalue = chi2_sf(q, df) if df > 0 else math.nan
    elif homogeneity == "bootstrap":
        q, pvalue, resamples = bootstrap_homogeneity(
            tables[np.array(positive, dtype=bool)], matrix, how or BootstrapMethod()
        )
    n: int | float = exact_total(tables) if tables.dtype.kind in "iu" else float(tables.sum())
    return StratifiedKappaResult(
        statistic=overall,
        standard_error=se,
        homogeneity_statistic=q,
        homogeneity_df=df,
        homogeneity_pvalue=pvalue,
        strata=strata,
        results=tuple(results),
        used=used,
        n=n,
        labels=labels,
        weights=weights_name(weights),
        weight_matrix=matrix,
        alternative=alternative,
        homogeneity=homogeneity,
        homogeneity_n_resamples=resamples,
        pooling=pooling,
        pvalue=overall_pvalue,
        test_df=test_df,
        kappa0=kappa0,
    )


def _warn_left_out(
    strata: tuple[Any, ...],
    results: Sequence[KappaResult],
    used: tuple[bool, ...],
    positive: tuple[bool, ...],
    homogeneity: HomogeneityTest,
) -> None:
    """One UndefinedKappaWarning naming the strata left out of the overall kappa (``used``)
    and of SAS's test of equal kappas (``positive``: a positive standard error), and one
    naming those the pairs pooling keeps but the test leaves out (a standard error of 0)."""
    test = (
        " (the goodness-of-fit test of equal kappas keeps every stratum rated in both categories)"
        if homogeneity == "goodness-of-fit"
        else " and the test of equal kappas"
    )
    single = any(r.n_clusters is not None for r in results)  # clustered: one cluster
    why = "every pair agrees, or a single cluster" if single else "every pair agrees"
    left = [s for s, u in zip(strata, used, strict=True) if not u]
    if left:
        error = "or a standard error of 0" if used == positive else "or standard error"
        warn_at_caller(
            f"{len(left)} of {len(strata)} strata ({describe_groups(left)}) have an undefined "
            f"kappa {error} ({why}) and are left out of the overall kappa{test}.",
            UndefinedKappaWarning,
        )
    kept = [s for s, u, w in zip(strata, used, positive, strict=True) if u and not w]
    if kept and homogeneity != "goodness-of-fit":
        warn_at_caller(
            f"{len(kept)} of {len(strata)} strata ({describe_groups(kept)}) have a standard "
            "error of 0 (every pair agrees) and are left out of the test of equal kappas, "
            "which weights each stratum by 1 / its variance; the pairs pooling keeps them in "
            "the overall kappa.",
            UndefinedKappaWarning,
        )


def stratified_kappa_test_from_tables(
    tables: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: Sequence[Any] | None = None,
    strata: Sequence[Any] | None = None,
    alternative: Alternative = "two-sided",
    homogeneity: HomogeneityTest | BootstrapMethod = "asymptotic",
    pooling: Pooling = "inverse-variance",
    kappa0: float = 0.0,
) -> StratifiedKappaResult:
    """Kappa across strata from one K x K table per stratum.

    Parameters
    ----------
    tables : array-like
        Shape (S, K, K): the non-negative whole-number counts of each of the S strata; rows
        rater A, columns rater B. Float cells must be whole numbers (the standard errors
        take each table's sum as its number of independent pairs).
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights W (``W = 1 - A`` for SAS's agreement weights A).
    labels : sequence of K categories, optional
        Names of the rows/columns (default ``0..K-1``).
    strata : sequence, optional
        The S names of the strata (default ``0..S-1``).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        As in :func:`~wkappa.stratified_kappa_test`: the side of each stratum's test and
        interval and of the overall kappa's interval.
    homogeneity : {'asymptotic', 'goodness-of-fit', 'bootstrap'} or BootstrapMethod
        The test of equal kappas, as in :func:`~wkappa.stratified_kappa_test`.
    pooling : {'inverse-variance', 'pairs'}, default 'inverse-variance'
        The overall kappa, as in :func:`~wkappa.stratified_kappa_test`: SAS's
        inverse-variance weighted mean of the strata's kappas, or their mean weighted by
        the tables' sums.
    kappa0 : float, default 0
        The kappa of H0 of each stratum's test and of the overall kappa's, as in
        :func:`~wkappa.stratified_kappa_test`.

    Returns
    -------
    StratifiedKappaResult

    Examples
    --------
    >>> import wkappa as wk
    >>> tables = [[[20, 5], [4, 15]], [[30, 2], [6, 10]]]
    >>> result = wk.stratified_kappa_test_from_tables(tables, weights="unweighted")
    >>> round(result.statistic, 4), round(result.homogeneity_pvalue, 3)
    (0.5928, 0.935)
    >>> pairs = wk.stratified_kappa_test_from_tables(tables, weights="unweighted", pooling="pairs")
    >>> round(pairs.statistic, 4), round(pairs.standard_error, 4)
    (0.5932, 0.0877)
    """
    checked_weights = check_weights(weights)
    alternative = check_alternative(alternative)
    test, how = check_homogeneity(homogeneity)
    pooled = check_pooling(pooling)
    null_value = check_kappa0(kappa0)
    try:
        stack = np.asarray(tables)
    except ValueError:  # ragged nested lists
        stack = np.empty(0)
    if stack.ndim != 3 or len(stack) == 0:
        raise WkappaError(
            "`tables` must be a non-empty stack of S tables of one shape (S, K, K); got "
            f"{format_value(tables)}."
            + (
                " Hint: that is one K x K table; the strata's tables go in one list, "
                "[table_1, table_2, ...] (one stratum: wk.kappa_test_from_table)."
                if stack.ndim == 2
                else ""
            )
        )
    checked = np.stack([check_table(table, f"tables[{h}]") for h, table in enumerate(stack)])
    check_table_size(checked.shape[-1])
    names = check_table_labels(labels, checked.shape[-1])
    ids = tuple(range(len(checked))) if strata is None else _stratum_ids(strata, len(checked))
    check_frequencies(checked, STRATA_TABLES)
    return build_stratified(
        checked, checked_weights, names, ids, alternative, test, how=how, pooling=pooled,
        kappa0=null_value,
    )  # fmt: skip


def _stratum_ids(strata: Any, n_tables: int) -> tuple[Any, ...]:
    """The S distinct ids of ``strata=`` (a sequence or a 1-D array)."""
    if isinstance(strata, (str, bytes)) or np.ndim(strata) != 1:
        raise WkappaError(
            f"`strata` must be a sequence of {n_tables} ids, one per table; got "
            f"{format_value(strata)}."
        )
    ids = tuple(np.asarray(strata).tolist()) if isinstance(strata, np.ndarray) else tuple(strata)
    if len(ids) != n_tables:
        raise WkappaError(
            f"`strata` has {len(ids)} ids but `tables` holds {n_tables} tables. "
            "Hint: give one id per table."
        )
    if len(set(ids)) != len(ids):
        raise WkappaError(
            "`strata` must name each table once; got repeated ids. Hint: add the tables of "
            "one stratum together first."
        )
    return ids


def stratified_kappa_test(
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
    *,
    strata: npt.ArrayLike,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
    nan_policy: NanPolicy = "raise",
    alternative: Alternative = "two-sided",
    homogeneity: HomogeneityTest | BootstrapMethod = "asymptotic",
    cluster: npt.ArrayLike | None = None,
    pooling: Pooling | None = None,
    kappa0: float = 0.0,
) -> StratifiedKappaResult:
    """Weighted kappa in each stratum, the overall kappa across strata (as SAS PROC FREQ) and
    the test of equal kappas.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Ratings of rater A and rater B.
    strata : array-like of shape (n,)
        The stratum of each pair (site, reader pair, prompt family...); any hashable ids,
        no missing values.
    weights, labels, min_rating, max_rating, sample_weight
        As in :func:`~wkappa.weighted_kappa`. Every stratum uses the same K categories (the
        union over strata, or ``labels``), as SAS does for an n-way table. Sample weights are
        frequency weights, as in :func:`~wkappa.kappa_test` without ``cluster``: their
        weighted counts must be whole numbers.
    nan_policy : {'raise', 'omit'}, default 'raise'
        'omit' drops pairs with a missing rating. 'propagate' is refused (a stratified
        result cannot be nan), as by :func:`~wkappa.kappa_test`.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        The side of each stratum's test of kappa = 0 (its p-value and interval) and of the
        overall kappa's interval: 'greater' makes ``result.confidence_interval()``
        ``(low, 1)``, 'less' ``(-inf, high)``, the limit that of the two-sided interval at
        ``2 * confidence_level - 1``, and of the overall kappa's test of kappa = 0
        (``result.pvalue``; SAS prints none). The test of equal kappas (``homogeneity``) is
        the same whatever ``alternative``.
    homogeneity : {'asymptotic', 'goodness-of-fit', 'bootstrap'} or BootstrapMethod, \
default 'asymptotic'
        The test of equal kappas: SAS's chi-square; Donner, Eliasziw & Klar's (1996)
        goodness-of-fit test, for binary ratings (K = 2) counted without ``sample_weight``
        (elsewhere it raises a :class:`~wkappa.exceptions.WkappaError`); or 'bootstrap', the
        chi-square on Fisher-z kappas with a table-bootstrap p-value, for any K
        (recommended for K > 2, where SAS's test rejects too often; formulas in the Notes
        of :class:`StratifiedKappaResult`). ``wk.BootstrapMethod(n_resamples, rng=seed)``
        chooses the bootstrap with its replicates (default 9999) and seed.
    cluster : array-like of shape (n,), optional
        The cluster of each pair (the patient of two eyes, the scan of several lesions),
        nested in the strata: each stratum's kappa gets the cluster-robust standard error of
        :func:`~wkappa.kappa_test` with ``cluster`` over its own clusters (t with G_h - 1
        degrees of freedom for its test and interval), and those variances make the overall
        kappa's standard error (and its weights for 'inverse-variance') and weight SAS's
        test of equal kappas. A cluster in two strata is refused, as
        are the goodness-of-fit and bootstrap tests of equal kappas (they take the pairs as
        independent); a stratum with a single cluster has no standard error and is left
        out. Sample weights need not be whole numbers then. Pass ``pooling`` with it:
        SAS's inverse-variance overall interval is too narrow with clustered strata.
    pooling : {'inverse-variance', 'pairs'}, optional
        How the strata's kappas make the overall kappa. 'inverse-variance' (what None
        means) is SAS's: each stratum weighted by ``1 / Var_h``. 'pairs' weights each
        stratum by its number of pairs ``n_h`` (its sum of sample weights), weights fixed
        by the design and not estimated from the ratings, with standard error
        ``sqrt(sum_h n_h^2 Var_h) / N`` and, with ``cluster``, t on ``sum_h G_h - S``
        degrees of freedom (formulas in the Notes). With ``cluster`` and ``pooling``
        not given, a ``UserWarning`` says that the inverse-variance interval is too
        narrow there and that 'pairs' keeps its coverage; ``pooling='inverse-variance'``
        keeps SAS's overall kappa without the warning.
    kappa0 : float, default 0
        The kappa of H0 (a finite number below 1) of each stratum's test, as in
        :func:`~wkappa.kappa_test`, and of the overall kappa's (``result.pvalue``): e.g.
        ``kappa0=0.6, alternative='greater'`` to show agreement better than "moderate"
        across the sites. Each stratum's null variance is then the one of its test of
        ``kappa0`` (the cluster-robust one with ``cluster``).

    Returns
    -------
    StratifiedKappaResult
        Per-stratum :class:`~wkappa.KappaResult` objects, the overall kappa with its
        standard error and :meth:`~StratifiedKappaResult.confidence_interval`, and the
        chi-square test of equal kappas (formulas in its Notes).

    Notes
    -----
    SAS's overall kappa is the inverse-variance weighted mean of the q strata's kappas,
    ``sum_h(kappa_h / Var_h) / sum_h(1 / Var_h)`` with ``Var_h`` the square of stratum h's
    Fleiss-Cohen-Everitt standard error; its standard error is ``sum_h(1 / Var_h) ** -0.5``,
    and the test of equal kappas refers ``Q = sum_h (kappa_h - overall)² / Var_h`` to
    chi-square with q - 1 df (with SAS's overall kappa whatever ``pooling``). The pairs
    pooling, with weights ``n_h / N`` (``N = sum_h n_h`` over the strata used), is

    .. math::

        \\hat\\kappa_{\\text{pairs}} = \\sum_h \\frac{n_h}{N} \\kappa_h, \\qquad
        \\operatorname{SE} = \\frac{1}{N} \\Big(\\sum_h n_h^2 \\operatorname{Var}_h\\Big)^{1/2},

    the Wald interval ``statistic ± q * SE`` (``q`` normal, or t on ``sum_h G_h - S`` df
    with ``cluster``). With one stratum it is that stratum's :func:`~wkappa.kappa_test`.
    ``result.pvalue`` tests H0: overall kappa = 0 with each stratum's null variance (Notes
    of :class:`StratifiedKappaResult`). The goodness-of-fit and bootstrap tests, and how
    strata with an undefined kappa are treated (left out of both poolings; a stratum whose
    standard error is 0 is left out of SAS's but kept by the pairs pooling), are in the
    Notes of :class:`StratifiedKappaResult`.

    Examples
    --------
    >>> import wkappa as wk
    >>> y_true = [0, 1, 2, 2, 1, 0, 2, 1, 0, 1, 2, 2]
    >>> y_pred = [0, 1, 2, 1, 1, 0, 2, 2, 0, 1, 2, 1]
    >>> site = ["a"] * 6 + ["b"] * 6
    >>> result = wk.stratified_kappa_test(y_true, y_pred, strata=site)
    >>> result.strata, round(result["a"].statistic, 4), round(result.statistic, 4)
    (('a', 'b'), 0.8571, 0.821)
    >>> result.homogeneity_df
    1
    >>> pairs = wk.stratified_kappa_test(y_true, y_pred, strata=site, pooling="pairs")
    >>> round(pairs.statistic, 4), round(pairs.standard_error, 4)
    (0.7786, 0.1397)
    """
    checked_weights = check_weights(weights)
    alternative = check_alternative(alternative)
    test, how = check_homogeneity(homogeneity)
    pooled = "inverse-variance" if pooling is None else check_pooling(pooling)
    null_value = check_kappa0(kappa0)
    if cluster is not None and test != "asymptotic":
        raise WkappaError(
            f"homogeneity={test!r} takes the pairs as independent and cannot be used with "
            "`cluster`. Hint: homogeneity='asymptotic' (SAS's chi-square of equal kappas, "
            "weighted by each stratum's cluster-robust variance)."
        )
    policy = check_table_nan_policy(nan_policy, "a stratified result")
    options: dict[str, Any] = {
        "labels": labels, "min_rating": min_rating, "max_rating": max_rating,
        "sample_weight": sample_weight, "nan_policy": policy,
        "ordered": needs_order(checked_weights), "propagate": False,
    }  # fmt: skip
    grouped = encode_grouped(y_true, y_pred, strata, "strata", **options)
    tables = group_tables(grouped)
    results = None
    if cluster is None:
        check_frequencies(tables, STRATA_WEIGHTS)
    else:
        clustered = encode_grouped(y_true, y_pred, cluster, "cluster", **options)
        results = _clustered_results(
            grouped, clustered, tables, checked_weights, alternative, null_value
        )
        if pooling is None:
            warn_at_caller(
                "With `cluster`, the overall kappa's inverse-variance weights (SAS's) follow "
                "the noisy cluster-robust variances of the strata, and its interval is too "
                "narrow unless every stratum has many clusters. Hint: pooling='pairs' weights "
                "the strata by their pairs and keeps its coverage; "
                "pooling='inverse-variance' keeps SAS's without this warning.",
                UserWarning,
            )
    return build_stratified(
        tables,
        checked_weights,
        tuple(grouped.encoded.labels),
        grouped.names,
        alternative,
        test,
        weighted=sample_weight is not None,
        how=how,
        results=results,
        pooling=pooled,
        kappa0=null_value,
    )


def _clustered_results(
    grouped: Grouped,
    clustered: Grouped,
    tables: np.ndarray,
    weights: str | np.ndarray,
    alternative: Alternative,
    kappa0: float,
) -> list[KappaResult]:
    """Each stratum's result with the cluster-robust standard error over its own clusters
    and its t test of ``kappa0`` (``grouped``: the pairs by stratum, ``clustered``: the same
    pairs by cluster, nested in the strata); one FewClustersWarning naming the strata with 2
    to 7 clusters."""
    strata, clusters, cluster_names = grouped.codes, clustered.codes, clustered.names
    cluster_tables = group_tables(clustered)
    home = np.full(len(cluster_names), -1, dtype=np.intp)
    home[clusters] = strata
    crossing = np.flatnonzero(home[clusters] != strata)
    if crossing.size:
        pair = int(crossing[0])
        other = grouped.names[int(home[clusters[pair]])]
        raise WkappaError(
            f"`cluster` {cluster_names[int(clusters[pair])]!r} has pairs in two strata "
            f"({other!r} and {grouped.names[int(strata[pair])]!r}): the strata must be "
            "independent, so each cluster must lie within one stratum. Hint: give such a "
            "cluster's pairs one stratum, or combine the strata it spans."
        )
    labels = tuple(grouped.encoded.labels)
    with warnings.catch_warnings():  # one warning below names every stratum left out
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        bases = kappa_results(tables, weights, labels, alternative, kappa0)
    results, counts = [], []
    for h, base in enumerate(bases):
        own = cluster_tables[home == h]
        with warnings.catch_warnings():  # one warning below, naming the strata
            warnings.simplefilter("ignore", FewClustersWarning)
            result = cluster_robust(base, own)
        results.append(result)
        counts.append(int(result.n_clusters or 0))
    warn_few_clusters(counts, names=[str(name) for name in grouped.names])
    return results
