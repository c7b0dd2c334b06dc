"""Agreement among several raters: :func:`agreement`, :func:`agreement_from_counts`,
:func:`krippendorff_alpha` and :class:`AgreementResult`.

The coefficients and Gwet's linearised variance are in :mod:`wkappa._core.agreement`; this
module validates the options, builds the compact state (distinct count patterns, or distinct
rating rows for Conger) and does the inference.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._core import (
    COEFFICIENTS,
    GWET_WEIGHTS,
    INT64_SAFE,
    KRIPPENDORFF_LEVELS,
    Alternative,
    Estimate,
    aggregate_patterns,
    category_values,
    check_alternative,
    check_choice,
    check_labels,
    check_nan_policy,
    check_rating_bounds,
    check_weights,
    check_zero_division,
    coefficient_from_sums,
    conger_exact,
    conger_features,
    distinct_rows,
    encode_rating_matrix,
    fast_rows,
    features,
    format_value,
    gwet_weights,
    integer_weights,
    krippendorff_metric,
    linearized_terms,
    patterns_from_counts,
    rows_to_counts,
    t_ppf,
    t_sf,
    warn_at_caller,
    weight_matrix,
    weights_name,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from . import bootstrap
from .intervals import (
    BootstrapMethod,
    ConfidenceInterval,
    check_confidence_level,
    json_float,
    json_label,
    make_rng,
)

__all__ = [
    "AgreementResult",
    "agreement",
    "agreement_from_counts",
    "agreement_from_rows",
    "krippendorff_alpha",
    "rating_categories",
]

_NAMES = {
    "fleiss": "Fleiss' kappa",
    "conger": "Conger's kappa",
    "gwet": "Gwet's AC1",
    "brennan_prediger": "Brennan-Prediger coefficient",
    "krippendorff": "Krippendorff's alpha",
    "percent": "percent agreement",
}
# Bootstrap replicates are reduced in chunks of about this many matrix cells.
_CHUNK_CELLS = 2_000_000


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array


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
        'unweighted', 'quadratic', 'linear', 'custom', or for :func:`krippendorff_alpha` the
        level ('nominal', 'ordinal', 'interval', 'ratio').
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
        P-value of H0: coefficient = 0 against ``alternative``, from ``statistic /
        standard_error`` and Student's t with ``n_items - 1`` degrees of freedom. irrCAC
        prints the one-sided ``alternative='greater'`` value.
    alternative : {'two-sided', 'greater', 'less'}
    population_size : int or None
        N of the finite-population correction ``1 - n_items / N``.
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
    _features: np.ndarray = field(repr=False)
    _multiplicity: np.ndarray = field(repr=False)
    _patterns: np.ndarray | None = field(default=None, repr=False)
    _rows: np.ndarray | None = field(default=None, repr=False)
    _row_multiplicity: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "weight_matrix", _readonly(self.weight_matrix))

    @property
    def degrees_of_freedom(self) -> int:
        """``n_items - 1``: the t distribution of the p-value and the interval."""
        return self.n_items - 1

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: Literal["asymptotic", "jackknife", "bootstrap", "percentile", "bca"]
        | BootstrapMethod = "asymptotic",
    ) -> ConfidenceInterval:
        """A two-sided confidence interval for the coefficient.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {'asymptotic', 'jackknife', 'bootstrap', 'percentile', 'bca'} or BootstrapMethod
            'asymptotic' (irrCAC's): ``statistic ± t(n-1) * standard_error``, the upper end
            capped at 1 (the two-rater :meth:`KappaResult.confidence_interval` is the normal
            interval of SAS and statsmodels instead). 'jackknife': the same with the
            leave-one-item-out jackknife standard error. Bootstrap methods resample items
            (a multinomial draw over the distinct count patterns, or rating rows for
            Conger's kappa), percentile or BCa.

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
        level = check_confidence_level(confidence_level)
        how = _check_interval_method(method)
        df = self.degrees_of_freedom
        if how in ("asymptotic", "jackknife"):
            se = self.standard_error if how == "asymptotic" else self._jackknife_se()
            if math.isnan(self.statistic) or math.isnan(se) or df < 1:
                return ConfidenceInterval(math.nan, math.nan, level, how)
            half = t_ppf(0.5 + level / 2.0, df) * se
            return ConfidenceInterval(
                self.statistic - half, min(1.0, self.statistic + half), level, how
            )
        assert isinstance(how, BootstrapMethod)
        if math.isnan(self.statistic) or self.n_items < 2:  # one item: no sampling variation
            return ConfidenceInterval(
                math.nan, math.nan, level, how.method, how.n_resamples, how.n_resamples
            )
        values = self._bootstrap(how.n_resamples, make_rng(how.rng))
        values, dropped = bootstrap.drop_undefined(values)
        if values.size == 0:
            return ConfidenceInterval(
                math.nan, math.nan, level, how.method, how.n_resamples, dropped
            )
        if how.method == "bca":
            jack, counts = self._jackknife_values()
            low, high = bootstrap.bca_interval(values, self.statistic, jack, counts, level)
        else:
            low, high = bootstrap.percentile_interval(values, level)
        return ConfidenceInterval(low, high, level, how.method, how.n_resamples, dropped)

    # ------------------------------------------------------------------ resampling

    def _estimate(self, sums: np.ndarray) -> np.ndarray:
        return coefficient_from_sums(
            self.coefficient, sums, self.weight_matrix, self.n_raters
        ).statistic

    def _jackknife_values(self) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-item-out coefficients of each distinct pattern, and multiplicities."""
        total = self._multiplicity.astype(np.float64) @ self._features
        values = np.empty(len(self._features))
        step = max(1, _CHUNK_CELLS // max(self._features.shape[1], 1))
        for start in range(0, len(values), step):
            part = total[None, :] - self._features[start : start + step]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                values[start : start + step] = self._estimate(part)
        return values, self._multiplicity.astype(np.float64)

    def _jackknife_se(self) -> float:
        values, counts = self._jackknife_values()
        if np.isnan(values).any() or self.n_items < 2:
            return math.nan
        n = counts.sum()
        mean = float(counts @ values) / n
        fraction = 0.0 if self.population_size is None else self.n_items / self.population_size
        return math.sqrt((1.0 - fraction) * (n - 1) / n * float(counts @ (values - mean) ** 2))

    def _bootstrap(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        counts = self._multiplicity.astype(np.float64)
        n = int(self._multiplicity.sum())
        probabilities = counts / counts.sum()
        m = len(counts)
        out = np.empty(n_resamples)
        step = max(1, _CHUNK_CELLS // max(m, self._features.shape[1], 1))
        for start in range(0, n_resamples, step):
            size = min(step, n_resamples - start)
            draws = rng.multinomial(n, probabilities, size=size).astype(np.float64)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                out[start : start + size] = self._estimate(draws @ self._features)
        return out

    # ------------------------------------------------------------------ rater diagnostics

    def _need_rows(self, what: str) -> tuple[np.ndarray, np.ndarray]:
        if self._rows is None or self._row_multiplicity is None:
            raise WkappaError(
                f"{what} needs to know which rater gave which rating; this result was made "
                "from counts. Hint: use wkappa.agreement with the items x raters ratings."
            )
        return self._rows, self._row_multiplicity

    def per_category(self) -> dict[Any, float]:
        """The coefficient of each category against all the others.

        The ratings are collapsed to two categories, k and not-k, and the same coefficient
        (unweighted) is computed; for ``coefficient='fleiss'`` these are Fleiss' (1971)
        per-category kappas ``1 - sum_i r_ik (r_i - r_ik) / (n r (r - 1) p_k (1 - p_k))``
        (complete data). Undefined values (a category never or always used) are nan.

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
        binary = 1.0 - np.eye(2)
        out: dict[Any, float] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for index, label in enumerate(self.labels):
                if self.coefficient == "conger":
                    rows, multiplicity = self._need_rows("per_category() of Conger's kappa")
                    collapsed = np.where(rows < 0, -1, (rows == index).astype(np.int64))
                    sums = multiplicity.astype(np.float64) @ conger_features(collapsed, 2, binary)
                else:
                    assert self._patterns is not None
                    hits = self._patterns[:, index]
                    two = np.column_stack([hits, self._patterns.sum(axis=1) - hits])
                    sums = self._multiplicity.astype(np.float64) @ features(two, binary)
                value = coefficient_from_sums(
                    self.coefficient, sums[None, :], binary, self.n_raters
                ).statistic[0]
                out[label] = float(value)
        return out

    def pairwise(self) -> np.ndarray:
        """The R x R matrix of two-rater weighted kappas (Cohen's, with this result's
        weights) over the items both raters rated; the diagonal is 1.

        Light's kappa (Light 1971) is the mean of the off-diagonal entries:
        ``m[np.triu_indices(len(m), 1)].mean()``. A pair with an undefined kappa (no common
        item, or ``1 - pe = 0``) is nan.

        Returns
        -------
        ndarray of shape (R, R)
        """
        rows, multiplicity = self._need_rows("pairwise()")
        n_raters = rows.shape[1]
        k = len(self.labels)
        weights = self.weight_matrix
        out = np.eye(n_raters)
        for g in range(n_raters):
            for h in range(g + 1, n_raters):
                both = (rows[:, g] >= 0) & (rows[:, h] >= 0)
                cells = rows[both, g] * k + rows[both, h]
                table = np.bincount(cells, weights=multiplicity[both], minlength=k * k)
                observed = float(np.sum(weights.ravel() * table))
                n = float(table.sum())
                table2 = table.reshape(k, k)
                expected = float(table2.sum(axis=1) @ weights @ table2.sum(axis=0))
                value = 1.0 - n * observed / expected if expected > 0 and n > 0 else math.nan
                out[g, h] = out[h, g] = value
        return out

    def leave_one_rater_out(self) -> np.ndarray:
        """The coefficient recomputed without each rater in turn, shape (R,).

        A rater whose removal raises the coefficient most agrees least with the rest. Values
        that are undefined without the rater (fewer than two raters left, no item rated
        twice) are nan.
        """
        rows, multiplicity = self._need_rows("leave_one_rater_out()")
        n_raters = rows.shape[1]
        out = np.full(n_raters, math.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for g in range(n_raters):
                rest = np.delete(rows, g, axis=1)
                if rest.shape[1] < 2:
                    continue
                try:
                    result = _from_rows(
                        self.coefficient, self.weights, self.weight_matrix, rest, multiplicity,
                        self.labels, int(np.count_nonzero(rest >= 0)), math.nan, None,
                        self.alternative,
                    )  # fmt: skip
                except WkappaError:
                    continue
                out[g] = result.statistic
        return out

    # ------------------------------------------------------------------ reports

    @property
    def name(self) -> str:
        """The coefficient's name ('Gwet's AC2' for weighted AC)."""
        if self.coefficient == "gwet" and self.weights != "unweighted":
            return "Gwet's AC2"
        return _NAMES[self.coefficient]

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the asymptotic interval."""
        return {
            "coefficient": self.coefficient,
            "name": self.name,
            "statistic": json_float(self.statistic),
            "standard_error": json_float(self.standard_error),
            "pvalue": json_float(self.pvalue),
            "alternative": self.alternative,
            "percent_agreement": json_float(self.percent_agreement),
            "chance_agreement": json_float(self.chance_agreement),
            "n_items": self.n_items,
            "n_raters": self.n_raters,
            "n_ratings": self.n_ratings,
            "population_size": self.population_size,
            "labels": [json_label(label) for label in self.labels],
            "weights": self.weights,
            "weight_matrix": self.weight_matrix.tolist(),
            "confidence_interval": self.confidence_interval(confidence_level).to_dict(),
        }

    def explain(self) -> str:
        """The computation in words and numbers: pa, pe, the coefficient and its interval."""
        ci = self.confidence_interval()
        lines = [
            f"{self.name} ({self.weights} weights), {self.n_items} items, "
            f"{self.n_raters} raters, {self.n_ratings} ratings, K = {len(self.labels)} "
            f"categories {format_value(list(self.labels))}",
            f"observed agreement   pa = {self.percent_agreement:.6g}"
            "  (mean over items with two ratings or more of the share of agreeing rater "
            "pairs, weighted by A = 1 - W)",
            f"chance agreement     pe = {self.chance_agreement:.6g}  ({_CHANCE[self.coefficient]})",
            f"coefficient  (pa - pe) / (1 - pe) = {self.statistic:.6g}",
            f"standard error {self.standard_error:.6g} (Gwet's linearisation"
            + (
                f", finite-population corrected for N = {self.population_size})"
                if self.population_size
                else ")"
            ),
            f"95% interval [{ci.low:.6g}, {ci.high:.6g}] (estimate ± t({self.degrees_of_freedom})"
            " x SE, upper end capped at 1)",
            f"p-value {self.pvalue:.6g} ({self.alternative}, H0: coefficient = 0)",
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        low, high = self.confidence_interval()
        return (
            f"AgreementResult(coefficient={self.coefficient!r}, statistic={self.statistic:.6g}, "
            f"standard_error={self.standard_error:.6g}, 95% CI=[{low:.6g}, {high:.6g}], "
            f"pvalue={self.pvalue:.6g}, alternative={self.alternative!r}, "
            f"percent_agreement={self.percent_agreement:.6g}, "
            f"chance_agreement={self.chance_agreement:.6g}, n_items={self.n_items}, "
            f"n_raters={self.n_raters}, n_ratings={self.n_ratings}, K={len(self.labels)}, "
            f"weights={self.weights!r})"
        )


_CHANCE = {
    "fleiss": "sum_kl A_kl pi_k pi_l, pi_k = mean over items of r_ik / r_i",
    "conger": "sum_kl A_kl (pbar_k pbar_l - s2_kl / R) from each rater's category shares",
    "gwet": "sum(A) / (K (K - 1)) * sum_k pi_k (1 - pi_k)",
    "brennan_prediger": "sum(A) / K^2",
    "krippendorff": "sum_kl A_kl pi_k pi_l over the pairable ratings",
    "percent": "none",
}


def _check_interval_method(method: Any) -> str | BootstrapMethod:
    if isinstance(method, BootstrapMethod):
        return method
    if method in ("asymptotic", "jackknife"):
        return str(method)
    if method == "bootstrap":
        return BootstrapMethod()
    if method in ("percentile", "bca"):
        return BootstrapMethod(method=method)
    raise WkappaError(
        "`method` must be 'asymptotic', 'jackknife', 'bootstrap' or a BootstrapMethod(...); "
        f"got {format_value(method)}."
    )


# --------------------------------------------------------------------------- option checks


def _check_population(population_size: Any) -> int | None:
    if population_size is None:
        return None
    if isinstance(population_size, (float, np.floating)) and population_size == math.inf:
        return None  # irrCAC's default N = Inf: an infinite population, no correction
    if (
        isinstance(population_size, bool)
        or not isinstance(population_size, (int, np.integer, float))
        or not (float(population_size) >= 1 and float(population_size) == int(population_size))
    ):
        raise WkappaError(
            "`population_size` must be a positive whole number (the N of the finite-population "
            f"correction), or None / inf for no correction; got {format_value(population_size)}."
        )
    return int(population_size)


def _check_inference(
    zero_division: Any, population_size: Any, alternative: Any
) -> tuple[Any, int | None, Alternative]:
    """The checked ``zero_division``, ``population_size`` and ``alternative``."""
    return (
        check_zero_division(zero_division),
        _check_population(population_size),
        check_alternative(alternative),
    )


def _ordered(weights: Any) -> bool:
    """Whether checked weights need ordered categories (every weighting but 'unweighted')."""
    return not (isinstance(weights, str) and weights == "unweighted")


def _check_weights_named(weights: Any) -> Any:
    """The library's weights, or one of Gwet's named weights (kept as the name)."""
    if isinstance(weights, str) and weights in GWET_WEIGHTS:
        return weights
    if isinstance(weights, str) and weights not in ("unweighted", "quadratic", "linear"):
        names = ", ".join(
            repr(name) for name in ("unweighted", "quadratic", "linear", *GWET_WEIGHTS)
        )
        raise WkappaError(
            f"`weights` must be one of {names} or a (K, K) matrix of disagreement weights; "
            f"got {format_value(weights)}."
        )
    return check_weights(weights)


def _checked_matrix(
    weights: Any, k: int, coefficient: str, labels: Sequence[Any] | None = None
) -> tuple[str, np.ndarray]:
    if isinstance(weights, str) and weights in GWET_WEIGHTS:
        values = category_values(labels if labels is not None else range(1, k + 1))
        if weights == "ratio" and (values <= 0).any():
            raise WkappaError(
                "weights='ratio' needs positive category values (Gwet's ratio weights divide "
                "by x_k + x_l). Hint: pass labels= with positive numbers."
            )
        return weights, gwet_weights(weights, values)
    checked = check_weights(weights)
    matrix = weight_matrix(checked, k).astype(np.float64)
    if np.any(np.diag(matrix) != 0):
        raise WkappaError(
            "`weights` must have a zero diagonal for several raters (two equal ratings are "
            "full agreement). Hint: agreement weights A convert to disagreement weights as "
            "1 - A."
        )
    if coefficient in ("gwet", "percent") and matrix.max() > 1:
        raise WkappaError(
            f"`weights` for coefficient={coefficient!r} must lie in [0, 1]: Gwet's agreement "
            "weights are 1 - W and this coefficient changes when W is rescaled. Hint: divide "
            "the matrix by its largest entry."
        )
    return weights_name(checked), matrix


# --------------------------------------------------------------------------- building


def _undefined(zero_division: Any, coefficient: str) -> float:
    message = (
        f"{_NAMES[coefficient]} is undefined: the chance disagreement 1 - pe is zero (for "
        "example every rating is in one category, or there is a single category)."
    )
    if zero_division == "raise":
        raise WkappaError(message + " Hint: zero_division='warn' returns nan.")
    if zero_division == "warn":
        warn_at_caller(message + " Returning nan.", UndefinedKappaWarning)
        return math.nan
    return float(zero_division)


def _pvalue(statistic: float, se: float, df: int, alternative: str) -> float:
    if math.isnan(statistic) or math.isnan(se) or df < 1:
        return math.nan
    if se == 0:
        if statistic == 0:
            return math.nan
        t = math.copysign(math.inf, statistic)
    else:
        t = statistic / se
    if alternative == "greater":
        return t_sf(t, df)
    if alternative == "less":
        return t_sf(-t, df)
    return min(1.0, 2.0 * t_sf(abs(t), df))


def _build(
    coefficient: str,
    weights_label: str,
    matrix: np.ndarray,
    labels: Sequence[Any],
    feature_rows: np.ndarray,
    multiplicity: np.ndarray,
    n_raters: int,
    n_ratings: int,
    zero_division: Any,
    population_size: int | None,
    alternative: Alternative,
    patterns: np.ndarray | None,
    rows: np.ndarray | None,
    row_multiplicity: np.ndarray | None = None,
) -> AgreementResult:
    w = multiplicity.astype(np.float64)
    sums = (w @ feature_rows)[None, :]
    n_items = int(multiplicity.sum())
    if population_size is not None and population_size < n_items:
        raise WkappaError(
            f"`population_size` = {population_size} is smaller than the {n_items} items "
            "rated; it is the number of items in the population the sample was drawn from."
        )
    if sums[0, 1] == 0:
        raise WkappaError(
            "No item has two ratings or more, so no pair of raters can agree or disagree. "
            "Hint: agreement needs items rated by at least two raters."
        )
    estimate: Estimate = coefficient_from_sums(coefficient, sums, matrix, n_raters)
    statistic = float(estimate.statistic[0])
    if coefficient == "conger" and rows is not None:
        # Exact rational arithmetic (named weights in int64); the float value stays for the
        # standard error and the resampling intervals.
        integer = integer_weights(matrix, len(labels))
        assert patterns is not None
        merged, merged_counts = aggregate_patterns(patterns, multiplicity)
        exact = conger_exact(rows, multiplicity, merged, merged_counts, matrix, integer)
        if exact is not None:
            statistic = exact
    se = math.nan
    if math.isnan(statistic):
        statistic = _undefined(zero_division, coefficient)
    elif n_items >= 2:
        linear = linearized_terms(
            coefficient, feature_rows, multiplicity, matrix, estimate, patterns, rows
        )
        used = linear.multiplicity.astype(np.float64)
        n_used = float(used.sum())
        fraction = 0.0 if population_size is None else linear.n_items / population_size
        if n_used >= 2:
            spread = float(used @ (linear.terms - linear.centre) ** 2)
            se = math.sqrt(max(0.0, (1.0 - fraction) * spread / (n_used * (n_used - 1.0))))
    pvalue = _pvalue(statistic, se, n_items - 1, alternative)
    return AgreementResult(
        statistic=statistic,
        coefficient=coefficient,
        weights=weights_label,
        weight_matrix=matrix,
        labels=tuple(labels),
        percent_agreement=float(estimate.percent_agreement[0]),
        chance_agreement=float(estimate.chance_agreement[0]),
        n_items=n_items,
        n_raters=n_raters,
        n_ratings=n_ratings,
        standard_error=se,
        pvalue=pvalue,
        alternative=alternative,
        population_size=population_size,
        _features=feature_rows,
        _multiplicity=multiplicity,
        _patterns=patterns,
        _rows=rows,
        _row_multiplicity=multiplicity if row_multiplicity is None else row_multiplicity,
    )


def _propagated(coefficient: str, weights: Any, alternative: Alternative) -> AgreementResult:
    nan = math.nan
    return AgreementResult(
        nan,
        coefficient,
        weights if isinstance(weights, str) else "custom",
        np.zeros((0, 0)),
        (),
        nan,
        nan,
        0,
        0,
        0,
        nan,
        nan,
        alternative,
        None,
        np.zeros((0, 1)),
        np.zeros(0, dtype=np.int64),
    )


def agreement(
    ratings: Any,
    *,
    coefficient: str = "fleiss",
    weights: Any = "unweighted",
    labels: Any = None,
    min_rating: Any = None,
    max_rating: Any = None,
    nan_policy: str = "omit",
    zero_division: Any = "warn",
    population_size: int | None = None,
    alternative: Alternative = "two-sided",
) -> AgreementResult:
    """Chance-corrected agreement of several raters (Fleiss, Conger, Gwet, Brennan-Prediger,
    Krippendorff, percent agreement), weighted, with missing ratings.

    Parameters
    ----------
    ratings : array-like of shape (n_items, n_raters) or DataFrame
        Rows are items, columns raters (a 2-D array, a list of rows, or a pandas / polars
        DataFrame of the rating columns). Missing ratings are NaN / None / null.
    coefficient : {'fleiss', 'conger', 'gwet', 'brennan_prediger', 'krippendorff', 'percent'}
        Fleiss' kappa (Fleiss 1971, generalised to weights and missing ratings by Gwet),
        Conger's kappa (Conger 1980; Cohen's kappa for two raters), Gwet's AC1 (AC2 when
        weighted), Brennan & Prediger (1981), Krippendorff's alpha with the weights as its
        metric, or the percent agreement ``pa``.
    weights : str or array of shape (K, K)
        Disagreement weights W (zero diagonal): 'unweighted', 'quadratic', 'linear' as in
        :func:`~wkappa.weighted_kappa`, Gwet's 'ordinal', 'radical', 'ratio', 'circular',
        'bipolar' (irrCAC's, on the category values; see
        ``gwet_weights`` in ``wkappa._core.weights``), or a matrix. Gwet's (and irrCAC's)
        agreement weights are ``A = 1 - W``: pass ``1 - A`` for a matrix of agreement
        weights. Every pair of ratings counts in both orders, so a matrix that is not
        symmetric acts through its symmetric part ``(W + W') / 2``.
    labels : sequence, optional
        The K categories in order; required for strings with weighted coefficients.
    min_rating, max_rating : int, optional
        Bounds of the integer categories (default: the lowest and highest rating).
    nan_policy : {'omit', 'raise', 'propagate'}, default 'omit'
        'omit' uses every rating there is (see Notes); 'raise' refuses a missing rating;
        'propagate' returns a nan result when one is missing.
    zero_division : 'warn', 'raise' or float, default 'warn'
        What an undefined coefficient (``1 - pe = 0``) returns.
    population_size : int, optional
        The number N of items in the population, for the finite-population correction
        ``1 - n/N`` of the variance (irrCAC's ``N``). None or ``float("inf")`` (irrCAC's
        default): an infinite population.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Of the p-value of H0: coefficient = 0; irrCAC reports 'greater'.

    Returns
    -------
    AgreementResult

    Notes
    -----
    **Missing ratings** (as Gwet's irrCAC): items with no rating are dropped; items with a
    single rating count in the category prevalences ``pi_k = mean_i r_ik / r_i`` (and in n,
    the standard error's item count) but not in the observed agreement, which averages over
    the items with two ratings or more. Krippendorff's alpha uses only the items with two
    ratings or more (his pairable values). Columns are raters; a rater may skip items.

    **Categories.** K is the number of categories as the library defines them (every integer
    from the lowest to the highest rating, or ``labels``). Gwet's AC1/AC2 and Brennan-Prediger
    depend on K through their chance agreement; irrCAC uses the categories observed unless
    ``categ.labels`` is given, so pass ``labels`` to match it when a category in the range is
    never used.

    **Formulas.** See the module ``wkappa._core.agreement``; the standard error is Gwet's
    linearisation (Gwet 2008, *Br. J. Math. Stat. Psychol.* 61: 29-48; Gwet 2014,
    *Handbook of Inter-Rater Reliability*, 4th ed.), as in irrCAC.

    Examples
    --------
    >>> import numpy as np
    >>> import wkappa as wk
    >>> nan = np.nan  # irrCAC's cac.raw4raters: 12 items, 4 raters, missing ratings
    >>> ratings = [[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...            [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [nan, 5, 5, 5],
    ...            [nan, nan, 1, 1], [nan, nan, 3, nan]]
    >>> result = wk.agreement(ratings, coefficient="fleiss")
    >>> round(result.statistic, 5), round(result.standard_error, 5), result.n_items
    (0.76117, 0.15302, 12)
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), high
    (0.424, 1.0)
    >>> round(wk.agreement(ratings, coefficient="gwet").statistic, 5)
    0.77544
    """
    name = check_choice(coefficient, "coefficient", COEFFICIENTS)
    policy = check_nan_policy(nan_policy)
    zero, population, side = _check_inference(zero_division, population_size, alternative)
    checked = _check_weights_named(weights)
    read = _rating_rows(ratings, labels, min_rating, max_rating, _ordered(checked), policy)
    if read is None:
        return _propagated(name, weights, side)
    rows, multiplicity, categories, n_ratings = read
    label, matrix = _checked_matrix(checked, len(categories), name, categories)
    return _from_rows(
        name, label, matrix, rows, multiplicity, categories, n_ratings, zero, population, side
    )


def _rating_rows(
    ratings: Any,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    ordered: bool,
    policy: str,
) -> tuple[np.ndarray, np.ndarray, Sequence[Any], int] | None:
    """The distinct rows of category codes (-1 = missing), their multiplicities, the
    categories and the number of ratings; None for a missing rating under 'propagate'."""
    if labels is None:
        lo, hi = check_rating_bounds(min_rating, max_rating)
        fast = fast_rows(ratings, lo, hi, policy)  # type: ignore[arg-type]
        if fast is not None:
            return fast
    encoded = _encoded(ratings, labels, min_rating, max_rating, ordered, policy)
    if encoded is None:
        return None
    codes, categories = encoded
    rows, multiplicity = distinct_rows(codes)
    return rows, multiplicity, categories, int(np.count_nonzero(codes >= 0))


def _encoded(
    ratings: Any, labels: Any, min_rating: Any, max_rating: Any, ordered: bool, policy: str
) -> tuple[np.ndarray, Sequence[Any]] | None:
    """The category codes of the ratings (-1 = missing) and the categories; None for a
    missing rating under 'propagate'."""
    encoded = encode_rating_matrix(
        ratings,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        ordered=ordered,
        nan_policy=policy,  # type: ignore[arg-type]
    )
    return None if encoded is None else (encoded.codes, encoded.labels)


def _from_rows(
    name: str,
    label: str,
    matrix: np.ndarray,
    rows: np.ndarray,
    multiplicity: np.ndarray,
    categories: Sequence[Any],
    n_ratings: int,
    zero: Any,
    population: int | None,
    side: Alternative,
) -> AgreementResult:
    """A coefficient from the distinct rating rows (kept in the result for the rater
    diagnostics)."""
    k = len(categories)
    if name == "conger":
        # A rater column without ratings stays (n_raters, pairwise() and
        # leave_one_rater_out() follow the input's columns) but takes no part in pe.
        rated = ((rows >= 0) & (multiplicity[:, None] > 0)).any(axis=0)
        if np.count_nonzero(rated) < 2:
            raise WkappaError("Conger's kappa needs at least two raters with ratings.")
        return _build(
            name, label, matrix, categories, conger_features(rows, k, matrix), multiplicity,
            rows.shape[1], n_ratings, zero, population, side, rows_to_counts(rows, k), rows,
        )  # fmt: skip
    patterns, counts = aggregate_patterns(rows_to_counts(rows, k), multiplicity)
    return _build(
        name, label, matrix, categories, features(patterns, matrix), counts, rows.shape[1],
        n_ratings, zero, population, side, patterns, rows, multiplicity,
    )  # fmt: skip


def _read_counts(counts: Any) -> np.ndarray:
    try:
        array = np.asarray(counts)
    except ValueError:
        raise WkappaError("`counts` could not be read as a 2-D array.") from None
    if array.ndim != 2 or array.shape[1] == 0:
        raise WkappaError(f"`counts` must be 2-D (items x categories); got shape {array.shape}.")
    if array.dtype.kind not in "biuf":
        raise WkappaError("`counts` must be numeric: how many raters put item i in category k.")
    if array.dtype.kind == "f":
        if not np.isfinite(array).all() or (array != np.floor(array)).any():
            raise WkappaError("`counts` must be whole numbers (no NaN, inf or fractions).")
    if (array < 0).any():
        raise WkappaError("`counts` must be non-negative.")
    if array.size and array.dtype.kind != "b":
        # Every row total (and each count) must stay below 2**62, where int64 sums are exact.
        largest = int(array.max())
        if largest * array.shape[1] >= INT64_SAFE:
            totals = array.astype(object).sum(axis=1) if largest < INT64_SAFE else [largest]
            if max(int(total) for total in totals) >= INT64_SAFE:
                raise WkappaError(
                    "`counts` has a row total too large to handle exactly (>= 2**62 ratings "
                    "of one item)."
                )
    return array.astype(np.int64)


def agreement_from_counts(
    counts: Any,
    *,
    coefficient: str = "fleiss",
    weights: Any = "unweighted",
    labels: Any = None,
    zero_division: Any = "warn",
    population_size: int | None = None,
    alternative: Alternative = "two-sided",
) -> AgreementResult:
    """Agreement from an items x categories count matrix (raters per item and category).

    Parameters
    ----------
    counts : array-like of shape (n_items, K)
        ``counts[i, k]``: how many raters put item i in category k. Rows may have different
        totals (missing ratings); rows of zeros are dropped.
    coefficient : {'fleiss', 'gwet', 'brennan_prediger', 'krippendorff', 'percent'}
        Conger's kappa needs to know which rater gave which rating: use
        :func:`~wkappa.agreement` with the ratings.
    weights, zero_division, population_size, alternative
        As in :func:`~wkappa.agreement`.
    labels : sequence of K categories, optional
        Names of the columns (default ``0..K-1``).

    Returns
    -------
    AgreementResult
        ``n_raters`` is the largest row total.

    Examples
    --------
    >>> import wkappa as wk
    >>> counts = [[3, 0, 0], [0, 3, 0], [1, 1, 1], [0, 0, 3], [0, 2, 0], [2, 1, 0]]
    >>> round(wk.agreement_from_counts(counts).statistic, 4)
    0.5673
    """
    name = check_choice(coefficient, "coefficient", COEFFICIENTS)
    if name == "conger":
        raise WkappaError(
            "Conger's kappa cannot be computed from counts: it needs to know which rater gave "
            "which rating. Hint: pass the items x raters ratings to wkappa.agreement, or use "
            "coefficient='fleiss'."
        )
    zero, population, side = _check_inference(zero_division, population_size, alternative)
    array = _read_counts(counts)
    k = array.shape[1]
    if labels is None:
        names: tuple[Any, ...] = tuple(range(k))
    else:
        names = tuple(check_labels(labels).tolist())
        if len(names) != k:
            raise WkappaError(
                f"`labels` has {len(names)} categories but `counts` has K = {k} columns."
            )
    label, matrix = _checked_matrix(_check_weights_named(weights), k, name, names)
    patterns, multiplicity = patterns_from_counts(array)
    if multiplicity.size == 0:
        raise WkappaError("`counts` has no ratings at all: every row is zero.")
    n_raters = int(patterns.sum(axis=1).max())
    # Exact: the sum can pass 2**63 even when every row total is below 2**62.
    n_ratings = int(multiplicity.astype(object) @ patterns.sum(axis=1).astype(object))
    return _build(
        name, label, matrix, names, features(patterns, matrix), multiplicity, n_raters,
        n_ratings, zero, population, side, patterns, None,
    )  # fmt: skip


def krippendorff_alpha(
    ratings: Any,
    *,
    level: str = "nominal",
    labels: Any = None,
    min_rating: Any = None,
    max_rating: Any = None,
    nan_policy: str = "omit",
    zero_division: Any = "warn",
    population_size: int | None = None,
    alternative: Alternative = "two-sided",
) -> AgreementResult:
    """Krippendorff's alpha with his own metrics, and Gwet's standard error.

    Parameters
    ----------
    ratings : array-like of shape (n_items, n_raters) or DataFrame
        Rows are items (Krippendorff's units), columns raters (coders); missing = NaN/None.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}, default 'nominal'
        The difference function ``delta_ck``: nominal ``[c != k]``; ordinal Krippendorff's
        rank-based ``(sum_{g=c}^{k} n_g - (n_c + n_k)/2)²`` from the pairable ratings'
        category counts ``n_g`` (unlike Gwet's 'ordinal' weights, it depends on how often each
        category is used); interval ``(v_c - v_k)²``; ratio ``((v_c - v_k)/(v_c + v_k))²``
        on the category values ``v`` (numbers: the integer range or numeric ``labels``).
    labels, min_rating, max_rating, nan_policy, zero_division, population_size, alternative
        As in :func:`~wkappa.agreement`.

    Returns
    -------
    AgreementResult
        ``coefficient='krippendorff'``, ``weights`` the level, ``weight_matrix`` the metric
        scaled to a largest entry of 1 (alpha does not change when delta is rescaled).

    Notes
    -----
    ``alpha = 1 - (N - 1) sum_u [sum_ck r_uc r_uk delta_ck / (m_u - 1)] / sum_ck n_c n_k
    delta_ck`` over the units with ``m_u >= 2`` ratings, N of them pairable ratings. Interval
    alpha equals ``agreement(..., coefficient='krippendorff', weights='quadratic')`` on
    integer ratings. The ordinal metric is computed once from the data; the standard error and
    the resampling intervals hold it fixed.

    Examples
    --------
    Krippendorff's reliability data (Krippendorff 2011, "Computing Krippendorff's
    alpha-reliability"; 4 coders x 12 units, with missing values):

    >>> import numpy as np
    >>> import wkappa as wk
    >>> nan = np.nan
    >>> coders = [
    ...     [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ... ]
    >>> ratings = np.array(coders).T
    >>> round(wk.krippendorff_alpha(ratings, level="nominal").statistic, 3)
    0.743
    >>> round(wk.krippendorff_alpha(ratings, level="interval").statistic, 3)
    0.849
    """
    check_choice(level, "level", KRIPPENDORFF_LEVELS)
    policy = check_nan_policy(nan_policy)
    zero, population, side = _check_inference(zero_division, population_size, alternative)
    read = _rating_rows(ratings, labels, min_rating, max_rating, level != "nominal", policy)
    if read is None:
        return _propagated("krippendorff", "unweighted", side)
    rows, multiplicity, categories, n_ratings = read
    k = len(categories)
    patterns, counts = aggregate_patterns(rows_to_counts(rows, k), multiplicity)
    pairable = patterns.sum(axis=1) >= 2
    matrix = krippendorff_metric(level, categories, counts[pairable] @ patterns[pairable])
    return _build(
        "krippendorff", level, matrix, categories, features(patterns, matrix), counts,
        rows.shape[1], n_ratings, zero, population, side, patterns, rows, multiplicity,
    )  # fmt: skip


def rating_categories(ratings: Any, *, weights: Any = "unweighted") -> Sequence[Any]:
    """The categories :func:`agreement` uses for ``ratings`` without ``labels``: the
    integer range, or an ordered categorical's categories, or (unweighted) the sorted
    values."""
    checked = _check_weights_named(weights)
    encoded = encode_rating_matrix(ratings, ordered=_ordered(checked), nan_policy="omit")
    assert encoded is not None
    return encoded.labels


def agreement_from_rows(
    rows: Any,
    multiplicity: Any,
    *,
    coefficient: str = "fleiss",
    weights: Any = "unweighted",
    labels: Any = None,
    min_rating: Any = None,
    max_rating: Any = None,
    nan_policy: str = "omit",
    zero_division: Any = "warn",
    population_size: int | None = None,
    alternative: Alternative = "two-sided",
) -> AgreementResult:
    """:func:`agreement` of distinct rating rows with their multiplicities (how many items
    have each row), as a data engine's ``group_by`` over the rater columns returns them.

    Parameters
    ----------
    rows : array-like of shape (m, R)
        Distinct rows of ratings (missing = NaN / None).
    multiplicity : array-like of shape (m,)
        Positive integer counts.
    coefficient, weights, labels, min_rating, max_rating, nan_policy, zero_division,
    population_size, alternative
        As in :func:`agreement`.

    Returns
    -------
    AgreementResult
        The same as :func:`agreement` of the rows repeated by their multiplicities.
    """
    name = check_choice(coefficient, "coefficient", COEFFICIENTS)
    policy = check_nan_policy(nan_policy)
    zero, population, side = _check_inference(zero_division, population_size, alternative)
    checked = _check_weights_named(weights)
    counts = np.asarray(multiplicity)
    if counts.ndim != 1 or counts.dtype.kind not in "iu" or (counts < 0).any():
        raise WkappaError("`multiplicity` must be a 1-D array of non-negative integer counts.")
    encoded = _encoded(rows, labels, min_rating, max_rating, _ordered(checked), policy)
    if encoded is None:
        return _propagated(name, weights, side)
    codes, categories = encoded
    if len(counts) != len(codes):
        raise WkappaError(
            f"`multiplicity` has {len(counts)} counts for {len(codes)} rows; they must match."
        )
    keep = (counts > 0) & (codes >= 0).any(axis=1)
    codes, counts = codes[keep], counts[keep].astype(np.int64)
    n_ratings = int(counts @ (codes >= 0).sum(axis=1))
    label, matrix = _checked_matrix(checked, len(categories), name, categories)
    return _from_rows(
        name, label, matrix, codes, counts, categories, n_ratings, zero, population, side
    )
