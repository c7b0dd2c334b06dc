"""The result of several raters' agreement: :class:`AgreementResult` (made by
:mod:`wkappa._stats.agreement_build`), its intervals and diagnostics."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._core import (
    Alternative,
    check_choice,
    coefficient_from_sums,
    format_value,
    t_ppf,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from . import bootstrap
from .agreement_diagnostics import leave_one_rater_out, need_rows, pairwise, per_category
from .agreement_state import State
from .bootstrap_method import BootstrapMethod, make_rng
from .chance_mixture import mixture_disagreement_variance
from .frozen_arrays import readonly
from .intervals import (
    KAPPA_RANGE,
    PROPORTION_RANGE,
    ConfidenceInterval,
    estimate_repr,
    is_resampled,
    level_text,
    resampled_text,
    sided,
)
from .json_values import json_fields
from .resampling import DrawSums, jackknife_se, jackknife_values, multinomial_replicates
from .text_values import df_text, interval_text, number_text

__all__ = [
    "COEFFICIENT_NAMES",
    "AgreementIntervalMethod",
    "AgreementResult",
    "check_interval_method",
    "fisher_z",
]

# The methods of AgreementResult.confidence_interval (and so of its explain).
AgreementIntervalMethod = (
    Literal[
        "asymptotic",
        "fisher-z",
        "fisher-z-adjusted",
        "fisher-z-jackknife",
        "jackknife",
        "bootstrap",
        "percentile",
        "bca",
    ]
    | BootstrapMethod
)

_AGREEMENT_FIELDS = (  # the keys of to_dict(), in order
    "coefficient name statistic standard_error pvalue alternative kappa0 "
    "percent_agreement chance_agreement n_items n_raters n_ratings population_size "
    "n_clusters? labels weights level weight_matrix confidence_interval"
)

COEFFICIENT_NAMES = {
    "fleiss": "Fleiss' kappa",
    "conger": "Conger's kappa",
    "gwet": "Gwet's AC1",
    "brennan_prediger": "Brennan-Prediger coefficient",
    "krippendorff": "Krippendorff's alpha",
    "percent": "percent agreement",
}


@dataclass(frozen=True, eq=False, repr=False)
class AgreementResult:
    """An agreement coefficient of several raters with Gwet's standard error.

    Made by :func:`~wkappa.agreement`, :func:`~wkappa.agreement_from_counts` and
    :func:`~wkappa.krippendorff_alpha`. It keeps the distinct items x categories count
    patterns with their multiplicities (for Conger's kappa the distinct rating rows), never
    the ratings.

    Attributes
    ----------
    statistic : float
        The coefficient ``(pa - pe) / (1 - pe)`` (nan, or ``zero_division``, when undefined).
    coefficient : str
        'fleiss', 'conger', 'gwet', 'brennan_prediger', 'krippendorff' or 'percent'.
    weights : str
        'unweighted', 'quadratic', 'linear', a Gwet weight name or 'custom' (a matrix; for
        :func:`~wkappa.krippendorff_alpha` at a level other than 'nominal', its metric).
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W (Gwet's agreement weights are ``1 - W``).
    labels : tuple
        The K categories in order.
    percent_agreement : float
        Observed (weighted) agreement ``pa``.
    chance_agreement : float
        Chance agreement ``pe`` of the coefficient.
    n_items, n_raters, n_ratings : int
        Items with at least one rating, rater columns, ratings.
    standard_error : float
        Gwet's linearised standard error (finite-population corrected when
        ``population_size`` is given).
    pvalue : float
        P-value of H0: coefficient = ``kappa0`` against ``alternative``, from
        ``(statistic - kappa0) / standard_error`` and Student's t with ``n_items - 1``
        degrees of freedom (irrCAC's test at 0; the standard error is the one at the
        estimate, so the test is dual to the asymptotic interval). irrCAC prints the
        one-sided ``alternative='greater'`` value.
    alternative : {'two-sided', 'greater', 'less'}
    population_size : int or None
        N of the finite-population correction ``1 - n_items / N``.
    kappa0 : float
        The coefficient's value under H0 (default 0).
    n_clusters : int or None
        With ``agreement(..., cluster=ids)``: the number of clusters G the standard error is
        robust over (the p-value and the interval then use t with G - 1 degrees of freedom).
    level : {'nominal', 'ordinal', 'interval', 'ratio'} or None
        Krippendorff's level of measurement given to :func:`~wkappa.krippendorff_alpha`
        (None for the other functions, whose ``weights`` say it).

    Examples
    --------
    >>> import wkappa as wk
    >>> ratings = [[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, 1], [3, 3, 2]]  # 5 items x 3 raters
    >>> result = wk.agreement(ratings, coefficient="gwet")
    >>> round(result.statistic, 4), round(result.standard_error, 4), result.n_items
    (0.404, 0.2525, 5)
    >>> round(result.percent_agreement, 4), round(result.chance_agreement, 4)
    (0.6, 0.3289)
    >>> [round(x, 4) for x in result.confidence_interval(0.95)]
    [-0.297, 1.0]
    """

    statistic: float
    coefficient: str
    weights: str
    weight_matrix: np.ndarray = field(repr=False)
    labels: tuple[Any, ...]
    percent_agreement: float
    chance_agreement: float
    n_items: int
    n_raters: int
    n_ratings: int
    standard_error: float
    pvalue: float
    alternative: Alternative
    population_size: int | None
    _state: State = field(repr=False)
    kappa0: float = 0.0
    n_clusters: int | None = None
    _cluster_sums: np.ndarray | None = field(default=None, repr=False)
    level: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "weight_matrix", readonly(self.weight_matrix))

    # A pickle names only public classes: the private state travels as a plain tuple.
    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_state": tuple(self._state)}

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields, _state=State(*fields["_state"]))

    @property
    def degrees_of_freedom(self) -> int:
        """``n_items - 1`` (``n_clusters - 1`` with clusters): the t distribution of the
        p-value and the interval."""
        return self.n_items - 1 if self.n_clusters is None else self.n_clusters - 1

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: AgreementIntervalMethod = "asymptotic",
    ) -> ConfidenceInterval:
        """A confidence interval for the coefficient, two-sided or one-sided as ``alternative``.

        With ``alternative='greater'`` the interval is ``(low, 1)``, ``low`` the one-sided
        lower limit at ``confidence_level``; with 'less' it is ``(lower bound, high)``: -inf
        (the coefficients are at most 1 but have no lower bound common to every weight
        matrix), 0 for ``coefficient='percent'``. For every method the one-sided limit is the
        matching limit of the two-sided interval at level ``2 * confidence_level - 1``.
        irrCAC prints the two-sided interval next to the one-sided p-value: compute the
        result with ``alternative='two-sided'`` for that interval.

        Parameters
        ----------
        confidence_level : float, default 0.95
            Above 0.5 for a one-sided interval.
        method : str or BootstrapMethod, default 'asymptotic'
            One of 'asymptotic', 'fisher-z', 'fisher-z-adjusted', 'fisher-z-jackknife',
            'jackknife', 'bootstrap', 'percentile', 'bca'.
            'asymptotic' (irrCAC's): ``statistic ± t(n-1) * standard_error``, the upper end
            capped at 1 (the two-rater :meth:`KappaResult.confidence_interval` is the normal
            interval of SAS and statsmodels instead). 'fisher-z': the same on Fisher's z
            scale, ``tanh(atanh(c) ± t(n-1) * standard_error / (1 - c²))`` (the delta
            method; asymmetric about c, inside (-1, 1)). 'jackknife': the asymptotic
            interval with the leave-one-item-out jackknife standard error.
            'fisher-z-jackknife': Fisher's z with the jackknife standard error.
            'fisher-z-adjusted': Fisher's z with ``se² + q² (n / n2)² V / ((1 - pe)² n (n -
            1))`` (times ``1 - n / N`` with ``population_size``), as if ``q²`` pseudo-items
            (``q`` the t quantile; Agresti and Coull's number) of the chance-mixture model
            joined the items' spread: each item is rated at random from the prevalence with
            probability ``theta = D_o / D``, else in full agreement, and V is that model's
            variance of an item's disagreement (``n2`` items with two ratings or more,
            ``D_o`` the observed and ``D`` the chance disagreement). The model knows the
            large (quadratic-weighted) disagreements that a small sample may lack, which is
            when the plain SE is too small; not with ``cluster=``.
            Below 200 items (or clusters) the small-panel study
            (``benchmarks/small_panel_study.py``: raters 3-8, K 2-6, 0-30% missing)
            recommends 'fisher-z-jackknife' for unweighted coefficients (inside 93-97%
            coverage in 93% of its designs at n = 30, 96% at n = 50; asymptotic 92% and 88%)
            and 'fisher-z-adjusted' for weighted ones (68% and 76%, with 0% and 3% below 93%;
            'fisher-z' 34% and 42%, asymptotic 26% and 32%); on clusters 'fisher-z' for
            weighted ones. See the designs guide for the designs outside the band.
            Bootstrap methods resample items (a multinomial draw over the distinct count
            patterns, or rating rows for Conger's kappa), percentile or BCa. With
            ``cluster=`` every method works on clusters: t(G-1), the leave-one-cluster-out
            jackknife, and bootstrap replicates that draw whole clusters.

        Returns
        -------
        ConfidenceInterval

        Examples
        --------
        >>> import wkappa as wk
        >>> ratings = [[1, 1, 1], [2, 2, 2], [1, 2, 3], [3, 3, 3], [2, 2, None], [1, 1, 2]]
        >>> result = wk.agreement(ratings, coefficient="fleiss")
        >>> low, high = result.confidence_interval()
        >>> round(low, 4), high
        (-0.156, 1.0)
        """
        how = check_interval_method(method)
        bounds = PROPORTION_RANGE if self.coefficient == "percent" else KAPPA_RANGE
        return sided(
            lambda level: self._two_sided(level, how), confidence_level, self.alternative, bounds
        )

    def _two_sided(self, level: float, how: str | BootstrapMethod) -> ConfidenceInterval:
        df = self.degrees_of_freedom
        if isinstance(how, str):
            jackknife = how in ("jackknife", "fisher-z-jackknife")
            se = self._jackknife_se() if jackknife else self.standard_error
            if math.isnan(self.statistic) or math.isnan(se) or df < 1:
                if jackknife and math.isnan(se) and not math.isnan(self.standard_error):
                    warn_at_caller(  # (a nan standard_error warned when the result was built)
                        f"The {how!r} interval is undefined: leaving any one "
                        f"{self._units_name()[:-1]} out gives the same coefficient, so the "
                        "jackknife's standard error is 0. Returning (nan, nan). Hint: rate "
                        "more items, or use method='asymptotic'.",
                        UndefinedKappaWarning,
                    )
                return ConfidenceInterval(math.nan, math.nan, level, how)
            quantile = t_ppf(0.5 + level / 2.0, df)
            if how == "fisher-z-adjusted":
                se = self._adjusted_se(quantile)
            if how.startswith("fisher-z"):
                return ConfidenceInterval(*fisher_z(self.statistic, se, quantile), level, how)
            half = quantile * se
            return ConfidenceInterval(
                self.statistic - half, min(1.0, self.statistic + half), level, how
            )
        assert isinstance(how, BootstrapMethod)
        # One item or cluster: no sampling variation (as the result warned when it was built).
        if math.isnan(self.statistic) or df < 1:
            return ConfidenceInterval(
                math.nan, math.nan, level, how.method, how.n_resamples, how.n_resamples
            )
        if (
            self._cluster_sums is None
            and bootstrap.too_few_items(self.n_items, how.n_resamples, pvalue=False) is not None
        ):  # nothing drawn
            return ConfidenceInterval(math.nan, math.nan, level, how.method)
        outcome = bootstrap.replicate_interval(
            self._bootstrap(how.n_resamples, make_rng(how.rng)),
            lambda: (self.statistic, *self._jackknife_values()),
            level,
            how.method,
        )
        return ConfidenceInterval(*outcome[:2], level, how.method, how.n_resamples, outcome[2])

    def _adjusted_se(self, quantile: float) -> float:
        """Gwet's SE with ``quantile²`` pseudo-items of the chance-mixture model added to
        the items' spread: ``se² + q² (n / n2)² V / ((1 - pe)² n (n - 1)) (1 - f)``."""
        if self.n_clusters is not None:
            raise WkappaError(
                "method='fisher-z-adjusted' is not available with `cluster`: its pseudo-items "
                "are single items, not clusters. Hint: use method='fisher-z' or a bootstrap."
            )
        n = float(self.n_items)
        state = self._state
        n2 = float((state.multiplicity * state.features[:, 1]).sum())
        variance = mixture_disagreement_variance(
            state.patterns, state.multiplicity, self.weight_matrix
        )
        fraction = 0.0 if self.population_size is None else n / self.population_size
        spread = quantile**2 * (n / n2) ** 2 * variance / (1.0 - self.chance_agreement) ** 2
        return math.sqrt(self.standard_error**2 + (1.0 - fraction) * spread / (n * (n - 1.0)))

    # ------------------------------------------------------------------ resampling

    def _estimate(self, sums: np.ndarray) -> np.ndarray:
        return coefficient_from_sums(
            self.coefficient, sums, self.weight_matrix, self.n_raters
        ).statistic

    def _units(self) -> tuple[np.ndarray, np.ndarray]:
        """What resampling draws: the distinct patterns and their multiplicities, or with
        clusters each cluster's feature sums (once each)."""
        if self._cluster_sums is not None:
            return self._cluster_sums, np.ones(len(self._cluster_sums), dtype=np.int64)
        return self._state.features, self._state.multiplicity

    def _jackknife_values(self) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-out coefficients of each resampling unit (distinct pattern, or
        cluster), and multiplicities."""
        return jackknife_values(*self._units(), self._estimate)

    def _jackknife_se(self) -> float:
        """The jackknife standard error; nan when every leave-one-out coefficient is the same
        (up to rounding) below perfect agreement: the units show no spread to estimate it
        from."""
        fraction = 0.0 if self.population_size is None else self.n_items / self.population_size
        values, counts = self._jackknife_values()
        if self.statistic < 1.0 - 1e-12 and bootstrap.all_alike(values[counts > 0]):
            return math.nan
        return jackknife_se(values, counts, fraction)

    def _bootstrap(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        units, multiplicity = self._units()
        sums = DrawSums(units, int(multiplicity.sum()))  # the same on every CPU
        return multinomial_replicates(
            rng,
            multiplicity,
            n_resamples,
            lambda draws: self._estimate(sums(draws)),
            units.shape[1],
        )

    # ------------------------------------------------------------------ rater diagnostics

    def per_category(self) -> dict[Any, float]:
        """The coefficient of each category against all the others.

        The ratings are collapsed to two categories, k and not-k, and the same coefficient
        (unweighted) is computed; for ``coefficient='fleiss'`` these are Fleiss' (1971)
        per-category kappas ``1 - sum_i r_ik (r_i - r_ik) / (n r (r - 1) p_k (1 - p_k))``
        (complete data). Undefined values (a category never or always used) are nan, and
        all are nan for a result of ``nan_policy='propagate'`` that met a missing rating.

        Returns
        -------
        dict
            ``{label: coefficient}`` in the order of ``labels``.

        Examples
        --------
        >>> import wkappa as wk
        >>> ratings = [[1, 1, 1], [2, 2, 2], [1, 2, 2], [3, 3, 3], [2, 2, 3], [1, 1, 2]]
        >>> {k: round(v, 4) for k, v in wk.agreement(ratings).per_category().items()}
        {1: 0.5, 2: 0.325, 3: 0.6786}
        """
        if self._keeps_no_item():
            return dict.fromkeys(self.labels, math.nan)
        return per_category(self.coefficient, self.labels, self.n_raters, self._state)

    def pairwise(self) -> np.ndarray:
        """The R x R matrix of two-rater weighted kappas (Cohen's, with this result's
        weights) over the items both raters rated; the diagonal is 1 (nan for a rater
        column without ratings, whose row is nan). A weight matrix that is not symmetric
        acts through ``(W + W') / 2``, as in the coefficient, so the matrix is symmetric.

        Each entry is :func:`~wkappa.weighted_kappa` of the two raters' common items (the
        same exact computation, from the pair's table). Light's kappa (Light 1971) is the
        mean of the off-diagonal entries: ``m[np.triu_indices(len(m), 1)].mean()``. A pair
        with an undefined kappa (no common item, or ``1 - pe = 0``) is nan; every entry is
        nan for a result of ``nan_policy='propagate'`` that met a missing rating.

        Returns
        -------
        ndarray of shape (R, R)
        """
        if self._keeps_no_item():
            return np.full((self.n_raters, self.n_raters), math.nan)
        rows, multiplicity = need_rows(self._state, "pairwise()")
        return pairwise(rows, multiplicity, self.weight_matrix)

    def leave_one_rater_out(self) -> np.ndarray:
        """The coefficient recomputed without each rater in turn, shape (R,).

        A rater whose removal raises the coefficient most agrees least with the rest. Values
        that are undefined without the rater (fewer than two raters left, no item rated
        twice) are nan, and all are for a result of ``nan_policy='propagate'`` that met a
        missing rating.
        """
        if self._keeps_no_item():
            return np.full(self.n_raters, math.nan)
        rows, multiplicity = need_rows(self._state, "leave_one_rater_out()")
        return leave_one_rater_out(self.coefficient, self.weight_matrix, rows, multiplicity)

    def _keeps_no_item(self) -> bool:
        """A result that keeps no item (``nan_policy='propagate'`` met a missing rating):
        its diagnostics are nan, as the coefficient is."""
        return len(self._state.multiplicity) == 0

    # ------------------------------------------------------------------ reports

    @property
    def name(self) -> str:
        """The coefficient's name ('Gwet's AC2' for weighted AC)."""
        if self.coefficient == "gwet" and self.weights != "unweighted":
            return "Gwet's AC2"
        return COEFFICIENT_NAMES[self.coefficient]

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the asymptotic interval."""
        ci = self.confidence_interval(confidence_level)
        return json_fields(self, _AGREEMENT_FIELDS, confidence_interval=ci)

    @property
    def scale(self) -> str:
        """'quadratic weights' and so on ('unweighted' alone), or Krippendorff's 'interval
        level'."""
        if self.level is not None:
            return f"{self.level} level"
        return "unweighted" if self.weights == "unweighted" else f"{self.weights} weights"

    def explain(
        self, confidence_level: float = 0.95, *, method: AgreementIntervalMethod = "asymptotic"
    ) -> str:
        """The computation in words and numbers: pa, pe, the coefficient and its interval.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : str or BootstrapMethod, default 'asymptotic'
            The arguments of :meth:`confidence_interval`; the explanation says how that
            interval is computed.

        Returns
        -------
        str
            The coefficient, pa, pe, the standard error, the interval, the p-value and, below
            200 items (or clusters) with the asymptotic or jackknife interval, the
            small-sample interval the small-panel study recommends.

        Examples
        --------
        >>> import wkappa as wk
        >>> ratings = [[1, 1, 1], [2, 2, 2], [1, 2, 3], [3, 3, 3], [2, 2, None], [1, 1, 2]]
        >>> result = wk.agreement(ratings, coefficient="fleiss")
        >>> print(result.explain(0.9, method="jackknife").splitlines()[5])
        ... # doctest: +NORMALIZE_WHITESPACE
        90% interval [-0.0608321, 1] (estimate ± t(5) x the jackknife SE, upper end
        capped at 1)
        """
        ci = self.confidence_interval(confidence_level, method=method)
        undefined = "the chance disagreement 1 - pe is 0" if self.chance_agreement == 1 else None
        lines = [
            f"{self.name} ({self.scale}), {self.n_items} items, "
            f"{self.n_raters} raters, {self.n_ratings} ratings, K = {len(self.labels)} "
            f"categories {format_value(list(self.labels))}",
            f"observed agreement   pa = {number_text(self.percent_agreement)}"
            + (
                "  ((1 - e) pa' + e: pa' the mean over items with two ratings or more of the "
                "share of agreeing rater pairs, weighted by A = 1 - W and by each item's "
                "ratings r_i / mean r; e = 1 / the number of those items' ratings)"
                if self.coefficient == "krippendorff"
                else "  (mean over items with two ratings or more of the share of agreeing "
                "rater pairs, weighted by A = 1 - W)"
            ),
            f"chance agreement     pe = {number_text(self.chance_agreement)}"
            f"  ({_CHANCE[self.coefficient]})",
            f"coefficient  (pa - pe) / (1 - pe) = {number_text(self.statistic, reason=undefined)}",
            f"standard error {number_text(self.standard_error)} (Gwet's linearisation"
            + (
                f", cluster-robust over {self.n_clusters} clusters"
                if self.n_clusters is not None
                else ""
            )
            + (
                f", finite-population corrected for N = {self.population_size})"
                if self.population_size
                else ")"
            ),
            f"{level_text(ci, self.alternative)}interval {interval_text(ci.low, ci.high)} "
            f"({self._interval_words(ci)})",
            f"p-value {number_text(self.pvalue)} "
            f"({self.alternative}, H0: coefficient = {self.kappa0:g})",
        ]
        if self._small() and ci.method in ("asymptotic", "jackknife"):
            better = self._recommended()
            small = self.confidence_interval(ci.confidence_level, method=better)
            lines.append(
                f"small sample ({self.degrees_of_freedom + 1} {self._units_name()} < 200): "
                f"confidence_interval(method={better!r}) is recommended, "
                f"{interval_text(small.low, small.high)} ({_REASON[better]}; coverage closer to "
                "the level in the user guide's simulation: Clustered and stratified designs, "
                "Small panels of several raters)"
            )
        return "\n".join(lines)

    def _interval_words(self, ci: ConfidenceInterval) -> str:
        """How the interval ``ci`` is computed, in words."""
        if is_resampled(ci):
            redrawn = f", {self._units_name()} redrawn" if ci.n_resamples else ""
            return resampled_text(ci) + redrawn
        df = df_text(self.degrees_of_freedom)
        if ci.method.startswith("fisher-z"):
            return f"{_REASON[ci.method]}, t({df}) quantile"
        se = "the jackknife SE" if ci.method == "jackknife" else "SE"
        if self.alternative == "two-sided":
            return f"estimate ± t({df}) x {se}, upper end capped at 1"
        sign = "-" if self.alternative == "greater" else "+"
        return (
            f"estimate {sign} t({df}) x {se} with the one-sided quantile; the other end is the "
            "coefficient's bound"
        )

    def _small(self) -> bool:
        return 1 <= self.degrees_of_freedom < 199 and not math.isnan(self.statistic)

    def _recommended(self) -> Literal["fisher-z", "fisher-z-adjusted", "fisher-z-jackknife"]:
        """The small-sample interval of the small-panel study: Fisher's z with the jackknife
        SE for unweighted coefficients, with the chance-mixture adjusted SE for weighted
        ones (with the linearised SE when clustered: the adjustment is per item)."""
        off = ~np.eye(len(self.weight_matrix), dtype=bool)
        if bool(np.all(self.weight_matrix[off] == 1.0)):
            return "fisher-z-jackknife"
        return "fisher-z-adjusted" if self.n_clusters is None else "fisher-z"

    def _units_name(self) -> str:
        return "items" if self.n_clusters is None else "clusters"

    def __repr__(self) -> str:
        return (
            f"AgreementResult(coefficient={self.coefficient!r}, {estimate_repr(self)}, "
            f"pvalue={self.pvalue:.6g}, alternative={self.alternative!r}, "
            f"percent_agreement={self.percent_agreement:.6g}, "
            f"chance_agreement={self.chance_agreement:.6g}, n_items={self.n_items}, "
            f"n_raters={self.n_raters}, n_ratings={self.n_ratings}, K={len(self.labels)}, "
            f"weights={self.weights!r}"
            + ("" if self.level is None else f", level={self.level!r}")
            + (
                ""
                if self.n_clusters is None
                else f", cluster-robust over {self.n_clusters} clusters"
            )
            + (
                f", {self._units_name()} < 200: method={self._recommended()!r} recommended"
                if self._small()
                else ""
            )
            + ")"
        )


_REASON = {
    "fisher-z": "Fisher's z with the linearised SE",
    "fisher-z-jackknife": "Fisher's z with the jackknife SE",
    "fisher-z-adjusted": "Fisher's z with the SE adjusted by pseudo-items of the "
    "chance-mixture model, which knows the large disagreements a small sample lacks",
}

_CHANCE = {
    "fleiss": "sum_kl A_kl pi_k pi_l, pi_k = mean over items of r_ik / r_i",
    "conger": "sum_kl A_kl (pbar_k pbar_l - s2_kl / R) from each rater's category shares",
    "gwet": "sum(A) / (K (K - 1)) * sum_k pi_k (1 - pi_k)",
    "brennan_prediger": "sum(A) / K^2",
    "krippendorff": "sum_kl A_kl pi_k pi_l over the pairable ratings",
    "percent": "none",
}


def fisher_z(statistic: float, se: float, quantile: float) -> tuple[float, float]:
    """``tanh(atanh(c) ± quantile * se / (1 - c²))``: [1, 1] at c = 1, nan at c <= -1."""
    if statistic >= 1.0:
        return 1.0, 1.0
    if statistic <= -1.0:
        return math.nan, math.nan
    z = math.atanh(statistic)
    half = quantile * se / (1.0 - statistic * statistic)
    return math.tanh(z - half), math.tanh(z + half)


AGREEMENT_INTERVALS = (  # the methods of AgreementResult.confidence_interval besides bootstrap
    "asymptotic",
    "fisher-z",
    "fisher-z-adjusted",
    "fisher-z-jackknife",
    "jackknife",
)


def check_interval_method(method: Any) -> str | BootstrapMethod:
    """A several-raters interval method: 'asymptotic', 'fisher-z', 'jackknife' or a
    BootstrapMethod."""
    if isinstance(method, BootstrapMethod):
        return method
    name = check_choice(
        method,
        "method",
        (*AGREEMENT_INTERVALS, "bootstrap", "percentile", "bca"),
        listed="'asymptotic', 'fisher-z', 'fisher-z-adjusted', 'fisher-z-jackknife', "
        "'jackknife', 'bootstrap', 'percentile', 'bca' or a BootstrapMethod(...)",
    )
    if name == "bootstrap":
        return BootstrapMethod()
    if name in ("percentile", "bca"):
        return BootstrapMethod(method=name)
    return str(name)
