"""The result of kappa across strata: each stratum's kappa, the overall kappa (SAS's
inverse-variance pooling or the pairs pooling) with its interval and test, and the test of
equal kappas, with their explanation, repr and JSON summary."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._core import Alternative, check_choice, format_value, norm_ppf, t_ppf, warn_at_caller
from ..exceptions import PerfectAgreementWarning, UndefinedKappaWarning
from .cluster import describe_groups
from .frozen_arrays import readonly
from .homogeneity import HomogeneityTest, goodness_of_fit_homogeneity
from .intervals import (
    KAPPA_RANGE,
    ConfidenceInterval,
    check_only_method,
    estimate_repr,
    level_text,
    sided,
)
from .json_values import json_fields, json_value
from .kappa_warnings import groups_text, warn_perfect_agreement
from .results import KappaResult
from .text_values import df_text, interpretation, interval_text, number_text, statistic_text

__all__ = ["POOLINGS", "Pooling", "StratifiedKappaResult", "check_pooling"]

Pooling = Literal["inverse-variance", "pairs"]
POOLINGS: tuple[Pooling, ...] = ("inverse-variance", "pairs")

_STRATIFIED_FIELDS = (  # the keys of to_dict(), in order
    "statistic standard_error confidence_interval pvalue kappa0 test_df pooling alternative "
    "homogeneity_statistic "
    "homogeneity_df homogeneity_pvalue homogeneity homogeneity_n_resamples n labels weights "
    "interpretation strata"
)


def check_pooling(pooling: object) -> Pooling:
    """Validate ``pooling=``: 'inverse-variance' (SAS's) or 'pairs'."""
    return check_choice(  # type: ignore[no-any-return]
        pooling,
        "pooling",
        POOLINGS,
        listed="'inverse-variance' (SAS's overall kappa, each stratum weighted by 1 / its "
        "variance) or 'pairs' (each stratum weighted by its number of pairs)",
    )


@dataclass(frozen=True, eq=False, repr=False)
class StratifiedKappaResult:
    """Kappa in each stratum, the overall kappa across strata and the test of equal kappas.

    Made by :func:`~wkappa.stratified_kappa_test`.

    Attributes
    ----------
    statistic : float
        Overall kappa, as ``pooling`` says: the inverse-variance weighted mean of the strata's
        kappas (SAS's "Overall Kappa" / "Overall Weighted Kappa"), or their mean weighted by
        their numbers of pairs.
    standard_error : float
        Its standard error: ``1 / sqrt(sum_h 1 / Var_h)``, or
        ``sqrt(sum_h n_h^2 Var_h) / N`` (Notes).
    homogeneity_statistic : float
        Chi-square statistic of H0: equal kappas in every stratum (of the test named by
        ``homogeneity``).
    homogeneity_df : int
        Its degrees of freedom: the strata used minus 1 (for 'goodness-of-fit': the strata
        rated in both categories minus 1).
    homogeneity_pvalue : float
        Upper tail of the chi-square distribution (nan with fewer than 2 strata used, with
        an UndefinedKappaWarning).
    strata : tuple
        The stratum ids, in order.
    results : tuple of KappaResult
        One result per stratum, in the order of ``strata``.
    used : tuple of bool
        Whether each stratum enters the overall kappa: a defined kappa with a positive
        standard error for 'inverse-variance' (SAS's test of equal kappas uses the same
        strata), a defined kappa and standard error (0 included) for 'pairs'.
    n : int or float
        Number of pairs over all strata.
    labels : tuple
        The K categories, shared by every stratum.
    weights : str
        'quadratic', 'linear', 'unweighted' or 'custom'.
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W (read-only).
    alternative : {'two-sided', 'greater', 'less'}
        The ``alternative`` of the tests of ``kappa0``: the side of
        :meth:`confidence_interval` (the overall kappa's), of ``pvalue`` and of each
        stratum's p-value and interval; the test of equal kappas does not depend on it.
    homogeneity : {'asymptotic', 'goodness-of-fit', 'bootstrap'}
        The test of equal kappas: SAS's chi-square (below), Donner, Eliasziw & Klar's
        goodness-of-fit test for binary ratings, or the bootstrap of the chi-square on
        Fisher-z transformed kappas.
    homogeneity_n_resamples : int
        For 'bootstrap': the replicates behind the p-value (those with every stratum's
        kappa defined); 0 for the other tests.
    pooling : {'inverse-variance', 'pairs'}
        How the strata's kappas make the overall kappa (Notes).
    pvalue : float
        P-value of H0: overall kappa = ``kappa0`` against ``alternative`` (SAS prints
        none): the overall kappa less ``kappa0`` over ``sqrt(sum_h w_h^2 Var0_h)``, with
        ``w_h`` the pooling's weights (summing to 1) and ``Var0_h`` the variance each
        stratum's own test uses (its variance under kappa = ``kappa0``; the cluster-robust
        one with ``cluster``), referred to the normal distribution, or to t with
        ``test_df`` degrees of freedom.
    kappa0 : float
        The kappa of H0 of ``pvalue`` and of each stratum's test (0 unless given).
    test_df : int or None
        Degrees of freedom of the t distribution of the overall kappa's interval and test:
        ``sum_h G_h - S`` (the clusters less the strata used) for the pairs pooling with
        ``cluster``; None (the normal distribution) otherwise.

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
    and ``used`` marks it (the pairs pooling keeps a stratum whose standard error is 0 in
    the overall kappa).

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

    ``pooling='pairs'`` weights each stratum used by its number of pairs ``n_h`` (the sum of
    its sample weights), fixed by the design rather than estimated from the ratings, out of
    ``N = sum_h n_h`` over the strata used:

    .. math::

        \\hat\\kappa_{\\text{pairs}} = \\sum_h \\frac{n_h}{N} \\kappa_h, \\qquad
        \\operatorname{SE} = \\frac{1}{N} \\Big(\\sum_h n_h^2 \\operatorname{Var}_h\\Big)^{1/2}

    with ``Var_h`` each stratum's squared standard error (cluster-robust with ``cluster``).
    Its interval is ``statistic ± q * standard_error`` with ``q`` the normal quantile, or
    with ``cluster`` the t quantile on ``sum_h G_h - S`` degrees of freedom (the clusters less
    the strata used, as for a stratified cluster sample); with one stratum it is that
    stratum's :func:`~wkappa.kappa_test` result. SAS's inverse-variance weights are
    estimated from the same ratings as the kappas they weight (a stratum whose kappa comes
    out high tends to get a small variance and a large weight), so its overall kappa leans
    towards the high kappas and its standard error is too small where the variances are
    noisy, as cluster-robust ones are with few clusters per stratum; the pairs' weights do
    not move with the kappas (coverage of both: the user guide's "Clustered and stratified
    designs" page). The test of equal kappas is the same whatever ``pooling``.

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
    pooling: Pooling = "inverse-variance"
    pvalue: float = math.nan
    test_df: int | None = None
    kappa0: float = 0.0

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
        """Interval for the overall kappa: ``statistic ± q * standard_error``.

        ``q`` is the normal quantile (as SAS), or the t quantile on ``test_df`` degrees of
        freedom for the pairs pooling with clusters.

        One-sided as ``alternative``: ``(low, 1)`` for 'greater', ``(-inf, high)`` for
        'less', the limit that of the two-sided interval at level ``2 * confidence_level - 1``.

        Parameters
        ----------
        confidence_level : float, default 0.95
            Nominal coverage, strictly between 0 and 1 (above 0.5 for a one-sided interval).
        method : {'asymptotic'}
            The only method: the Wald interval above.

        Returns
        -------
        ConfidenceInterval
        """
        check_only_method(
            method,
            "asymptotic",
            "the overall kappa across strata",
            "Hint: each stratum's result has the other methods, "
            "e.g. result.results[0].confidence_interval(method='score').",
        )

        def two_sided(level: float) -> ConfidenceInterval:
            quantile = (
                norm_ppf(0.5 + level / 2.0)
                if self.test_df is None
                else t_ppf(0.5 + level / 2.0, float(self.test_df))
            )
            half = quantile * self.standard_error
            if half == 0.0 and self.statistic < 1.0 - 1e-12:  # (see below)
                return ConfidenceInterval(math.nan, math.nan, level)
            return ConfidenceInterval(self.statistic - half, self.statistic + half, level)

        interval = sided(two_sided, confidence_level, self.alternative, KAPPA_RANGE)
        if self.standard_error == 0.0 and self.statistic < 1.0 - 1e-12:
            # As a stratum's own interval: a standard error of 0 below perfect agreement (every
            # stratum's pairs in one cell of its table, say a constant rater) measures nothing.
            warn_at_caller(
                "The overall kappa's interval is undefined: its standard error is 0 at kappa "
                f"= {self.statistic:g}, as when every stratum's pairs fall in one cell of its "
                "table, which measures nothing. Returning (nan, nan). Hint: rate more pairs.",
                UndefinedKappaWarning,
            )
        return interval

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the per-stratum summaries; one
        :class:`~wkappa.exceptions.PerfectAgreementWarning` names the strata whose
        'asymptotic' interval is [1, 1] (each stratum's own ``to_dict`` would warn without
        naming it)."""
        strata, perfect = [], []
        for name, used, result in zip(self.strata, self.used, self.results, strict=True):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", PerfectAgreementWarning)
                summary = result.to_dict(confidence_level)
            for warning in caught:  # the others as they were given
                if issubclass(warning.category, PerfectAgreementWarning):
                    perfect += [] if format_value(name) in perfect else [format_value(name)]
                else:
                    warnings.warn_explicit(
                        warning.message, warning.category, warning.filename, warning.lineno
                    )
            strata.append({"stratum": json_value(name), "used": used, **summary})
        if perfect:
            warn_perfect_agreement(groups_text(perfect, nouns=("stratum", "strata")))
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
        pairs = self.pooling == "pairs"
        weights = [
            (float(r.n) if pairs else 1.0 / r.standard_error**2) if used else 0.0
            for r, used in zip(self.results, self.used, strict=True)
        ]
        total = sum(weights)
        clustered = self._clustered
        error = (
            "cluster-robust standard error over its G clusters (ASE)"
            if clustered
            else "standard error (ASE)"
        )
        lines = [
            f"Kappa in {len(self.strata)} strata (weights = {self.weights!r}, "
            f"K = {len(self.labels)}, n = {self.n:g}), "
            + (
                "weighted by their numbers of pairs (pooling='pairs'):"
                if pairs
                else "combined as SAS PROC FREQ does (pooling='inverse-variance'):"
            ),
            f"  stratum: n, kappa, {error}, share of the overall weight "
            + ("n_h" if pairs else "1/ASE^2"),
        ]
        for name, result, used, weight in zip(
            self.strata, self.results, self.used, weights, strict=True
        ):
            share = f"{weight / total:.1%}" if used and total > 0 else "not used"
            clusters = f", G = {result.n_clusters}" if clustered else ""
            lines.append(
                f"  {name!r}: n = {result.n:g}{clusters}, kappa = "
                f"{number_text(result.statistic)}, ASE = {number_text(result.standard_error)}, "
                f"{share}"
            )
        ci = self.confidence_interval(confidence_level, method=method)
        mean, spread = (
            ("sum(n_h kappa_h) / sum(n_h)", "sqrt(sum(n_h^2 ASE_h^2)) / sum(n_h)")
            if pairs
            else ("sum(kappa_h / ASE_h^2) / sum(1 / ASE_h^2)", "1 / sqrt(sum(1 / ASE_h^2))")
        )
        on = "normal" if self.test_df is None else f"t with {df_text(self.test_df)} df"
        lines += [
            f"Overall kappa = {mean} = "
            f"{number_text(self.statistic)} ({self.interpretation}, Landis & Koch)",
            f"  standard error = {spread} = {number_text(self.standard_error)}, "
            f"{level_text(ci, self.alternative)}CI {interval_text(ci.low, ci.high)} ({on})",
            f"  test of H0 overall kappa = {self.kappa0:g} ({self.alternative}, with each "
            + (
                "stratum's cluster-robust variance"
                if clustered
                else f"stratum's variance under kappa = {self.kappa0:g}"
            )
            + f"): p = {number_text(self.pvalue)}",
            self._homogeneity_line(),
        ]
        if clustered and not pairs:
            lines.append(
                "  (with clusters the inverse-variance weights follow the noisy cluster-robust "
                "variances and the interval is too narrow; pooling='pairs' keeps its coverage)"
            )
        if not all(self.used):
            left = [name for name, used in zip(self.strata, self.used, strict=True) if not used]
            why = "undefined kappa or a standard error of 0" + (
                " or undefined, a single cluster" if clustered else ""
            )
            lines.append(f"  Left out ({why}): {describe_groups(left)}")
        if len(self.used) and self.homogeneity_pvalue < 0.05:
            lines.append(
                "  The strata's kappas differ (p < 0.05): report them per stratum rather than "
                "one overall kappa."
            )
        return "\n".join(lines)

    @property
    def _clustered(self) -> bool:
        """Whether the strata's standard errors are cluster-robust (``cluster=``)."""
        return any(result.n_clusters is not None for result in self.results)

    def _homogeneity_line(self) -> str:
        centre = "overall" if self.pooling == "inverse-variance" else "inverse-variance mean"
        tail = (
            f"{statistic_text(self.homogeneity_statistic, '.6g')}, chi-square with "
            f"{df_text(self.homogeneity_df)} df, "
            f"p = {number_text(self.homogeneity_pvalue)}"
        )
        if self.homogeneity == "asymptotic" and self._clustered:
            return (
                f"Test of equal kappas: Q = sum((kappa_h - {centre})^2 / ASE_h^2) = {tail}\n"
                "  (ASE_h cluster-robust; the goodness-of-fit and bootstrap tests take the "
                "pairs as independent)"
            )
        if self.homogeneity == "asymptotic":
            better = "'goodness-of-fit'" if len(self.labels) == 2 else "'bootstrap'"
            return (
                f"Test of equal kappas: Q = sum((kappa_h - {centre})^2 / ASE_h^2) = {tail}\n"
                "  (SAS's test rejects 6-9% of the time at 5% with 30-100 pairs per stratum; "
                f"homogeneity={better} keeps its size)"
            )
        if self.homogeneity == "bootstrap":
            return (
                "Test of equal kappas (Fisher z, bootstrap): Q_z = sum((z_h - mean z)^2 / V_h) "
                "with z_h = atanh(kappa_h), V_h = ASE_h^2 / (1 - kappa_h^2)^2 = "
                f"{statistic_text(self.homogeneity_statistic, '.6g')} "
                f"({df_text(self.homogeneity_df)} df); p = share of "
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
        with warnings.catch_warnings():  # a repr does not warn
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            estimate = estimate_repr(self)
        return (
            f"StratifiedKappaResult({estimate}, pvalue={self.pvalue:.6g}, "
            + (f"kappa0={self.kappa0:g}, " if self.kappa0 else "")
            + ("" if self.pooling == "inverse-variance" else f"pooling={self.pooling!r}, ")
            + f"homogeneity_statistic={self.homogeneity_statistic:.6g}, "
            + ("" if self.homogeneity == "asymptotic" else f"homogeneity={self.homogeneity!r}, ")
            + f"homogeneity_df={self.homogeneity_df}, "
            f"homogeneity_pvalue={self.homogeneity_pvalue:.6g}, strata={len(self.strata)}, "
            f"n={self.n:g}, K={len(self.labels)}, weights={self.weights!r})"
        )
