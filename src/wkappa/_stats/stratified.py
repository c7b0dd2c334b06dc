"""Kappa across strata, as SAS PROC FREQ computes it: the per-stratum kappas, their
inverse-variance weighted overall kappa with its standard error and interval, and the
chi-square test of equal kappas (``stratified_kappa_test``), or Donner, Eliasziw & Klar's
goodness-of-fit test for binary ratings."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

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
    norm_ppf,
    warn_at_caller,
    weight_matrix,
    weights_name,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from .bootstrap_method import BootstrapMethod
from .cluster import describe_groups, encode_grouped, group_tables
from .frozen_arrays import readonly
from .group_results import kappa_results
from .homogeneity import (
    HomogeneityTest,
    bootstrap_homogeneity,
    check_goodness_of_fit,
    check_homogeneity,
    goodness_of_fit_homogeneity,
)
from .intervals import KAPPA_RANGE, ConfidenceInterval, estimate_repr, level_text, sided
from .json_values import json_fields, json_value
from .pvalues import chi2_sf
from .results import KappaResult, check_table_labels
from .text_values import interpretation, interval_text, number_text

__all__ = [
    "StratifiedKappaResult",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
]

_STRATIFIED_FIELDS = (  # the keys of to_dict(), in order
    "statistic standard_error confidence_interval alternative homogeneity_statistic "
    "homogeneity_df homogeneity_pvalue homogeneity homogeneity_n_resamples n labels weights "
    "interpretation strata"
)


@dataclass(frozen=True, eq=False, repr=False)
class StratifiedKappaResult:
    """Kappa in each stratum, the overall kappa across strata and the test of equal kappas.

    Made by :func:`~wkappa.stratified_kappa_test`.

    Attributes
    ----------
    statistic : float
        Overall kappa: the inverse-variance weighted mean of the strata's kappas (SAS's
        "Overall Kappa" / "Overall Weighted Kappa").
    standard_error : float
        Its standard error, ``1 / sqrt(sum_h 1 / Var_h)``.
    homogeneity_statistic : float
        Chi-square statistic of H0: equal kappas in every stratum (of the test named by
        ``homogeneity``).
    homogeneity_df : int
        Its degrees of freedom: the strata used minus 1 (for 'goodness-of-fit': the strata
        rated in both categories minus 1).
    homogeneity_pvalue : float
        Upper tail of the chi-square distribution (nan with fewer than 2 strata used).
    strata : tuple
        The stratum ids, in order.
    results : tuple of KappaResult
        One result per stratum, in the order of ``strata``.
    used : tuple of bool
        Whether each stratum enters the overall kappa (a defined kappa with a positive
        standard error).
    n : int or float
        Number of pairs over all strata.
    labels : tuple
        The K categories, shared by every stratum.
    weights : str
        'quadratic', 'linear', 'unweighted' or 'custom'.
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W (read-only).
    alternative : {'two-sided', 'greater', 'less'}
        The ``alternative`` of the test: the side of :meth:`confidence_interval` and of
        each stratum's p-value.
    homogeneity : {'asymptotic', 'goodness-of-fit', 'bootstrap'}
        The test of equal kappas: SAS's chi-square (below), Donner, Eliasziw & Klar's
        goodness-of-fit test for binary ratings, or the bootstrap of the chi-square on
        Fisher-z transformed kappas.
    homogeneity_n_resamples : int
        For 'bootstrap': the replicates behind the p-value (those with every stratum's
        kappa defined); 0 for the other tests.

    Notes
    -----
    With ``kappa_h`` and ``Var_h`` (the squared Fleiss-Cohen-Everitt standard error, SAS's
    ASE) of stratum h, SAS PROC FREQ (Details: "Overall Kappa Coefficient", "Tests for Equal
    Kappa Coefficients") computes

    .. math::

        \\hat\\kappa = \\frac{\\sum_h \\kappa_h / \\operatorname{Var}_h}
        {\\sum_h 1 / \\operatorname{Var}_h}, \\qquad
        \\operatorname{SE}(\\hat\\kappa) = \\Big(\\sum_h 1 / \\operatorname{Var}_h\\Big)^{-1/2},
        \\qquad
        Q = \\sum_h \\frac{(\\kappa_h - \\hat\\kappa)^2}{\\operatorname{Var}_h}
        \\sim \\chi^2_{q - 1}

    under H0 (Fleiss 1981). The test is somewhat liberal in small strata: in simulation
    (``benchmarks/cluster_study.py --strata``) the 5% test rejected 5.4-6.5% of the time from
    200 pairs per stratum and 7-9% with 50-100 pairs per stratum. A stratum whose kappa is
    undefined or whose standard error is 0 (every pair agrees) has no inverse-variance
    weight: it is left out of both, with an :class:`~wkappa.exceptions.UndefinedKappaWarning`,
    and ``used`` marks it.

    ``homogeneity='goodness-of-fit'`` (binary ratings, counted pairs) is the test of
    :cite:t:`donner1996`; in the same simulation it rejected 4.9-6.1% of the time from 30
    pairs per stratum (SAS's test 4.9-8.4% there). It fits the common
    correlation model: with prevalence ``p_h = (2 b_h + d_h) / (2 n_h)`` from the ``b_h``
    pairs rated 1 by both, the ``d_h`` discordant pairs and the ``a_h`` rated 0 by both
    (``q_h = 1 - p_h``),

    .. math::

        \\hat\\kappa_0 = 1 - \\frac{\\sum_h d_h}{2 \\sum_h n_h p_h q_h}, \\qquad
        X^2 = \\sum_h \\Big[\\frac{(b_h - n_h (p_h^2 + p_h q_h \\hat\\kappa_0))^2}
        {n_h (p_h^2 + p_h q_h \\hat\\kappa_0)}
        + \\frac{(d_h - 2 n_h p_h q_h (1 - \\hat\\kappa_0))^2}{2 n_h p_h q_h (1 - \\hat\\kappa_0)}
        + \\frac{(a_h - n_h (q_h^2 + p_h q_h \\hat\\kappa_0))^2}
        {n_h (q_h^2 + p_h q_h \\hat\\kappa_0)}\\Big]

    chi-square with (strata with ``0 < p_h < 1``) - 1 df. It tests equal *intraclass*
    kappas (the two raters share the prevalence ``p_h``), which are Cohen's kappas where the
    raters' margins agree; the overall kappa and its interval stay SAS's. It is nan (with a
    df of 0) below two such strata, or where the fitted common kappa lies below what a
    stratum's prevalence allows.

    ``homogeneity='bootstrap'`` (any K and weights) computes SAS's chi-square on the Fisher-z
    scale, which weakens the link between a stratum's kappa and its weight, and takes its
    p-value from the table bootstrap instead of the chi-square distribution: with
    ``z_h = atanh(kappa_h)`` and ``V_h = Var_h / (1 - kappa_h^2)^2``,

    .. math::

        Q_z = \\sum_h \\frac{(z_h - \\bar z)^2}{V_h}, \\qquad
        p = \\frac{1 + \\#\\{b: Q^*_b \\ge Q_z\\}}{1 + B}

    where ``zbar`` is the inverse-V weighted mean and ``Q*_b`` is the same statistic of
    ``z*_h - z_h`` with the variances of replicate b, each stratum's table redrawn
    (multinomial over its cells). Replicates with an undefined kappa, a kappa of -1 or 1 or
    a variance of 0 are left out of B. In simulation (``benchmarks/cluster_study.py
    --strata``) it rejected 4-5% of the time where SAS's test rejected 6-9% (K = 4, 50-200
    pairs per stratum, three or five strata). ``homogeneity_statistic`` is ``Q_z``; it is nan
    where a stratum's kappa is -1 or 1.

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.stratified_kappa_test_from_tables(
    ...     [[[6, 16], [2, 4]], [[2, 4], [6, 6]]], weights="unweighted", strata=["F", "U"]
    ... )
    >>> round(result.statistic, 4), round(result.standard_error, 4)
    (-0.0588, 0.1034)
    >>> round(result.homogeneity_statistic, 4), round(result.homogeneity_pvalue, 4)
    (0.2314, 0.6305)
    >>> round(result["F"].statistic, 4)
    -0.0328
    """

    statistic: float
    standard_error: float
    homogeneity_statistic: float
    homogeneity_df: int
    homogeneity_pvalue: float
    strata: tuple[Any, ...]
    results: tuple[KappaResult, ...]
    used: tuple[bool, ...]
    n: int | float
    labels: tuple[Any, ...]
    weights: str
    weight_matrix: np.ndarray = field(repr=False)
    alternative: Alternative = "two-sided"
    homogeneity: HomogeneityTest = "asymptotic"
    homogeneity_n_resamples: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "weight_matrix", readonly(self.weight_matrix))

    def __getitem__(self, stratum: Any) -> KappaResult:
        """The result of one stratum, by its id."""
        for name, result in zip(self.strata, self.results, strict=True):
            if name == stratum:
                return result
        raise KeyError(
            f"{format_value(stratum)} is not a stratum; the strata are "
            f"{describe_groups(self.strata)}."
        )

    @property
    def interpretation(self) -> str:
        """Landis & Koch (1977) band of the overall kappa."""
        return interpretation(self.statistic)

    def confidence_interval(
        self, confidence_level: float = 0.95, *, method: Literal["asymptotic"] = "asymptotic"
    ) -> ConfidenceInterval:
        """Interval for the overall kappa: ``statistic ± z * standard_error`` (as SAS).

        One-sided as ``alternative``: ``(low, 1)`` for 'greater', ``(-inf, high)`` for
        'less', the limit that of the two-sided interval at level ``2 * confidence_level - 1``.

        Parameters
        ----------
        confidence_level : float, default 0.95
            Nominal coverage, strictly between 0 and 1 (above 0.5 for a one-sided interval).
        method : {'asymptotic'}
            The only method: the normal interval SAS prints.

        Returns
        -------
        ConfidenceInterval
        """
        if method != "asymptotic":
            raise WkappaError(
                "`method` must be 'asymptotic' for the overall kappa across strata; got "
                f"{format_value(method)}. Hint: each stratum's result has the other methods, "
                "e.g. result.results[0].confidence_interval(method='score')."
            )

        def two_sided(level: float) -> ConfidenceInterval:
            half = norm_ppf(0.5 + level / 2.0) * self.standard_error
            return ConfidenceInterval(self.statistic - half, self.statistic + half, level)

        return sided(two_sided, confidence_level, self.alternative, KAPPA_RANGE)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the per-stratum summaries."""
        strata = [
            {"stratum": json_value(name), "used": used, **result.to_dict(confidence_level)}
            for name, used, result in zip(self.strata, self.used, self.results, strict=True)
        ]
        return json_fields(
            self,
            _STRATIFIED_FIELDS,
            confidence_interval=self.confidence_interval(confidence_level),
            strata=strata,
        )

    def explain(
        self, confidence_level: float = 0.95, *, method: Literal["asymptotic"] = "asymptotic"
    ) -> str:
        """Each stratum's kappa and weight, the overall kappa and the test of equal kappas.

        Parameters
        ----------
        confidence_level, method : float, {'asymptotic'}
            Of the overall kappa's interval, as :meth:`confidence_interval` takes them.

        Returns
        -------
        str
            Each stratum's n, kappa, standard error and share of the weight, the overall
            kappa with its interval, and the test of equal kappas.
        """
        inverse = [
            1.0 / r.standard_error**2 if used else 0.0
            for r, used in zip(self.results, self.used, strict=True)
        ]
        total = sum(inverse)
        lines = [
            f"Kappa in {len(self.strata)} strata (weights = {self.weights!r}, "
            f"K = {len(self.labels)}, n = {self.n:g}), combined as SAS PROC FREQ does:",
            "  stratum: n, kappa, standard error (ASE), share of the overall weight 1/ASE^2",
        ]
        for name, result, used, weight in zip(
            self.strata, self.results, self.used, inverse, strict=True
        ):
            share = f"{weight / total:.1%}" if used and total > 0 else "not used"
            lines.append(
                f"  {name!r}: n = {result.n:g}, kappa = {number_text(result.statistic)}, "
                f"ASE = {number_text(result.standard_error)}, {share}"
            )
        ci = self.confidence_interval(confidence_level, method=method)
        lines += [
            "Overall kappa = sum(kappa_h / ASE_h^2) / sum(1 / ASE_h^2) = "
            f"{number_text(self.statistic)} ({self.interpretation}, Landis & Koch)",
            f"  standard error = 1 / sqrt(sum(1 / ASE_h^2)) = {number_text(self.standard_error)}, "
            f"{level_text(ci, self.alternative)}CI {interval_text(ci.low, ci.high)}",
            self._homogeneity_line(),
        ]
        if not all(self.used):
            left = [name for name, used in zip(self.strata, self.used, strict=True) if not used]
            lines.append(
                f"  Left out (undefined kappa or a standard error of 0): {describe_groups(left)}"
            )
        if len(self.used) and self.homogeneity_pvalue < 0.05:
            lines.append(
                "  The strata's kappas differ (p < 0.05): report them per stratum rather than "
                "one overall kappa."
            )
        return "\n".join(lines)

    def _homogeneity_line(self) -> str:
        tail = (
            f"{number_text(self.homogeneity_statistic)}, chi-square with {self.homogeneity_df} df, "
            f"p = {number_text(self.homogeneity_pvalue)}"
        )
        if self.homogeneity == "asymptotic":
            better = "'goodness-of-fit'" if len(self.labels) == 2 else "'bootstrap'"
            return (
                f"Test of equal kappas: Q = sum((kappa_h - overall)^2 / ASE_h^2) = {tail}\n"
                "  (SAS's test rejects 6-9% of the time at 5% with 30-100 pairs per stratum; "
                f"homogeneity={better} keeps its size)"
            )
        if self.homogeneity == "bootstrap":
            return (
                "Test of equal kappas (Fisher z, bootstrap): Q_z = sum((z_h - mean z)^2 / V_h) "
                "with z_h = atanh(kappa_h), V_h = ASE_h^2 / (1 - kappa_h^2)^2 = "
                f"{number_text(self.homogeneity_statistic)} ({self.homogeneity_df}"
                " df); p = share of "
                f"{self.homogeneity_n_resamples} table-bootstrap replicates whose Q_z of "
                f"z*_h - z_h is at least as large = {number_text(self.homogeneity_pvalue)}"
            )
        common = goodness_of_fit_homogeneity(np.stack([r.table for r in self.results]))
        return (
            "Test of equal kappas (goodness of fit, Donner, Eliasziw & Klar 1996): observed "
            "against expected counts of (1, 1), discordant and (0, 0) pairs under one "
            f"intraclass kappa {number_text(common.common_kappa)} and each stratum's prevalence: "
            f"X^2 = {tail}"
        )

    def __repr__(self) -> str:
        return (
            f"StratifiedKappaResult({estimate_repr(self)}, "
            f"homogeneity_statistic={self.homogeneity_statistic:.6g}, "
            + ("" if self.homogeneity == "asymptotic" else f"homogeneity={self.homogeneity!r}, ")
            + f"homogeneity_df={self.homogeneity_df}, "
            f"homogeneity_pvalue={self.homogeneity_pvalue:.6g}, strata={len(self.strata)}, "
            f"n={self.n:g}, K={len(self.labels)}, weights={self.weights!r})"
        )


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


def build_stratified(
    tables: np.ndarray,
    weights: str | np.ndarray,
    labels: tuple[Any, ...],
    strata: tuple[Any, ...],
    alternative: Alternative,
    homogeneity: HomogeneityTest = "asymptotic",
    weighted: bool = False,
    how: BootstrapMethod | None = None,
) -> StratifiedKappaResult:
    """The result of a checked (S, K, K) stack of tables (``weighted``: from sample_weight;
    ``how``: the bootstrap's replicates and seed for ``homogeneity='bootstrap'``)."""
    k = tables.shape[-1]
    matrix = weight_matrix(weights, k)
    if homogeneity == "goodness-of-fit":
        check_goodness_of_fit(tables, matrix, weighted)
    with warnings.catch_warnings():  # one warning below names every stratum left out
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        results = kappa_results(tables, weights, labels, alternative, 0.0)
    used = tuple(
        math.isfinite(r.statistic) and math.isfinite(r.standard_error) and r.standard_error > 0
        for r in results
    )
    if not all(used):
        left = [s for s, u in zip(strata, used, strict=True) if not u]
        test = (
            " (the goodness-of-fit test of equal kappas keeps every stratum rated in both "
            "categories)"
            if homogeneity == "goodness-of-fit"
            else " and the test of equal kappas"
        )
        warn_at_caller(
            f"{len(left)} of {len(strata)} strata ({describe_groups(left)}) have an undefined "
            "kappa or a standard error of 0 (every pair agrees) and are left out of the overall "
            f"kappa{test}.",
            UndefinedKappaWarning,
        )
    kept = [r for r, u in zip(results, used, strict=True) if u]
    overall, variance, q, df = combine_strata(
        np.array([r.statistic for r in kept]), np.array([r.standard_error**2 for r in kept])
    )
    pvalue = chi2_sf(q, df) if df > 0 else math.nan
    resamples = 0
    if homogeneity == "goodness-of-fit":
        q, df, _ = goodness_of_fit_homogeneity(tables)
        pvalue = chi2_sf(q, df) if df > 0 else math.nan
    elif homogeneity == "bootstrap":
        q, pvalue, resamples = bootstrap_homogeneity(
            tables[np.array(used, dtype=bool)], matrix, how or BootstrapMethod()
        )
    n: int | float = exact_total(tables) if tables.dtype.kind in "iu" else float(tables.sum())
    return StratifiedKappaResult(
        statistic=overall,
        standard_error=math.sqrt(variance) if math.isfinite(variance) else math.nan,
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
    )


def stratified_kappa_test_from_tables(
    tables: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: Sequence[Any] | None = None,
    strata: Sequence[Any] | None = None,
    alternative: Alternative = "two-sided",
    homogeneity: HomogeneityTest | BootstrapMethod = "asymptotic",
) -> StratifiedKappaResult:
    """Kappa across strata from one K x K table per stratum.

    Parameters
    ----------
    tables : array-like
        Shape (S, K, K): the non-negative (weighted) counts of each of the S strata; rows
        rater A, columns rater B.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights W (``W = 1 - A`` for SAS's agreement weights A).
    labels : sequence of K categories, optional
        Names of the rows/columns (default ``0..K-1``).
    strata : sequence, optional
        The S names of the strata (default ``0..S-1``).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Alternative of each stratum's test of kappa = 0.
    homogeneity : {'asymptotic', 'goodness-of-fit', 'bootstrap'} or BootstrapMethod
        The test of equal kappas, as in :func:`~wkappa.stratified_kappa_test`.

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
    """
    checked_weights = check_weights(weights)
    alternative = check_alternative(alternative)
    test, how = check_homogeneity(homogeneity)
    try:
        stack = np.asarray(tables)
    except ValueError:  # ragged nested lists
        stack = np.empty(0)
    if stack.ndim != 3 or len(stack) == 0:
        raise WkappaError(
            "`tables` must be a non-empty stack of S tables of one shape (S, K, K); got "
            f"{format_value(tables)}."
        )
    checked = np.stack([check_table(table, f"tables[{h}]") for h, table in enumerate(stack)])
    check_table_size(checked.shape[-1])
    names = check_table_labels(labels, checked.shape[-1])
    ids = tuple(range(len(checked))) if strata is None else _stratum_ids(strata, len(checked))
    return build_stratified(checked, checked_weights, names, ids, alternative, test, how=how)


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
        union over strata, or ``labels``), as SAS does for an n-way table.
    nan_policy : {'raise', 'omit'}, default 'raise'
        'omit' drops pairs with a missing rating.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Alternative of each stratum's test of kappa = 0.
    homogeneity : {'asymptotic', 'goodness-of-fit', 'bootstrap'} or BootstrapMethod, \
default 'asymptotic'
        The test of equal kappas: SAS's chi-square; Donner, Eliasziw & Klar's (1996)
        goodness-of-fit test, for binary ratings (K = 2) counted without ``sample_weight``
        (elsewhere it raises a :class:`~wkappa.exceptions.WkappaError`); or 'bootstrap', the
        chi-square on Fisher-z kappas with a table-bootstrap p-value, for any K
        (recommended for K > 2, where SAS's test rejects too often; formulas in the Notes
        of :class:`StratifiedKappaResult`). ``wk.BootstrapMethod(n_resamples, rng=seed)``
        chooses the bootstrap with its replicates (default 9999) and seed.

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
    chi-square with q - 1 df. The goodness-of-fit and bootstrap tests, and how strata with
    an undefined kappa are treated, are in the Notes of :class:`StratifiedKappaResult`.

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
    """
    checked_weights = check_weights(weights)
    alternative = check_alternative(alternative)
    test, how = check_homogeneity(homogeneity)
    policy = check_table_nan_policy(nan_policy, "a stratified result")
    grouped = encode_grouped(
        y_true,
        y_pred,
        strata,
        "strata",
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=sample_weight,
        nan_policy=policy,
        ordered=needs_order(checked_weights),
    )
    tables = group_tables(grouped)
    return build_stratified(
        tables,
        checked_weights,
        tuple(grouped.encoded.labels),
        grouped.names,
        alternative,
        test,
        weighted=sample_weight is not None,
        how=how,
    )
