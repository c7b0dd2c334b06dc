"""Lin's concordance correlation coefficient (CCC), for two raters and overall for several.

Two raters (Lin 1989), with 1/n moments:
``rho_c = 2 s_xy / (s_x² + s_y² + (xbar - ybar)²)``, the Pearson correlation times the bias
correction ``C_b``. Lin's interval and test work on Fisher's z, ``atanh(rho_c)``, with his
delta-method variance (the 'z-transform' method of R's epiR::epi.ccc):

``var(z) = [(1-r²) rho_c² / ((1-rho_c²) r²) + 2 rho_c³ (1-rho_c) u² / (r (1-rho_c²)²)
- rho_c⁴ u⁴ / (2 r² (1-rho_c²)²)] / (n - 2)``, ``u = (xbar - ybar) / (s_x s_y)^(1/2)``.

Several raters: the overall CCC of Lin (1989, §5), Barnhart, Haber & Song (2002) and King &
Chinchilli (2001), ``2 sum_{j<l} s_jl / ((k-1) sum_j s_j² + sum_{j<l} (xbar_j - xbar_l)²)``,
with a jackknife interval on Fisher's z (leave-one-target-out, computed from the sums in
O(n k²)). For integer ratings the two-rater CCC is exactly the quadratic weighted kappa with
the categories every integer from the smallest to the largest rating.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    Alternative,
    NanPolicy,
    centred_integers,
    check_alternative,
    check_choice,
    norm_ppf,
    rater_names,
    read_numeric_pair,
    read_numeric_ratings,
    real_number,
    scaled_ratings,
    t_ppf,
    warn_at_caller,
)
from ..exceptions import UndefinedReliabilityWarning, WkappaError
from .intervals import (
    CORRELATION_RANGE,
    ConfidenceInterval,
    check_only_method,
    interval_repr,
    level_text,
    sided,
)
from .json_values import json_fields
from .pvalues import tail_pvalue
from .text_values import interval_text, number_text

__all__ = ["CCCResult", "ccc", "lin_z_variance"]

_CCC_FIELDS = (  # the keys of to_dict(), in order
    "statistic pearson bias_correction means variances n_items n_raters n_items_omitted "
    "pvalue ccc0 alternative standard_error_z method confidence_interval"
)


@dataclass(frozen=True, eq=False, repr=False)
class CCCResult:
    """Lin's concordance correlation coefficient with its interval and test.

    Made by :func:`~wkappa.ccc`.

    Attributes
    ----------
    statistic : float
        The CCC (overall CCC for more than two raters).
    pearson : float
        Pearson's correlation (two raters; for several, the mean pairwise correlation).
    bias_correction : float
        ``C_b = statistic / pearson``: 1 when the raters share means and variances.
    means, variances : tuple of float
        Each rater's mean and 1/n variance.
    n_items : int
        Items used (pairs for two raters), as ``AgreementResult.n_items`` and
        ``ICCResult.n_items``; under ``nan_policy='propagate'`` with a missing value, the
        items given.
    n_raters : int
    n_items_omitted : int
        Items (pairs) left out under ``nan_policy='omit'`` for a missing value (0 under
        'raise' and 'propagate'): ``n_items + n_items_omitted`` items were given.
    pvalue : float
        Test of ``CCC = ccc0`` on Fisher's z against ``alternative``.
    ccc0 : float
    alternative : str
    standard_error_z : float
        Standard error of ``atanh(statistic)``.
    method : str
        'lin' (two raters: Lin's delta method) or 'jackknife' (several raters).

    Examples
    --------
    A new device against the reference on six subjects:

    >>> import wkappa as wk
    >>> device = [2.1, 3.4, 1.9, 5.0, 4.2, 3.3]
    >>> reference = [2.0, 3.9, 2.2, 4.6, 4.4, 3.0]
    >>> result = wk.ccc(device, reference)
    >>> round(result.statistic, 4), round(result.pearson, 4), round(result.bias_correction, 4)
    (0.9521, 0.9546, 0.9974)
    >>> result.method, [round(x, 4) for x in result.confidence_interval(0.95)]
    ('lin', [0.7146, 0.9928])
    """

    statistic: float
    pearson: float
    bias_correction: float
    means: tuple[float, ...]
    variances: tuple[float, ...]
    n_items: int
    n_raters: int
    n_items_omitted: int
    pvalue: float
    ccc0: float
    alternative: Alternative
    standard_error_z: float
    method: str
    # Fisher's z of the statistic from the sums, ``atanh = (1/2) log((2 N + D) / D)`` with
    # ``D = sum_{j<l} mean (x_j - x_l)²`` the denominator minus the numerator ``N``: it keeps
    # its digits where the statistic is a rounding away from 1 (nan: from the statistic).
    _fisher_z: float = field(default=math.nan, repr=False, compare=False)

    def _z(self) -> float:
        return self._fisher_z if not math.isnan(self._fisher_z) else math.atanh(self.statistic)

    def confidence_interval(
        self, confidence_level: float = 0.95, *, method: str | None = None
    ) -> ConfidenceInterval:
        """``tanh(atanh(rho_c) -/+ z_{1-a/2} SE_z)`` (normal quantile for Lin's method, t with
        n-1 df for the jackknife); one-sided for one-sided alternatives: ``(low, 1)`` for
        'greater', ``(-1, high)`` for 'less' (the CCC lies in [-1, 1]), the limit that of the
        two-sided interval at level ``2 * confidence_level - 1``. Perfect agreement
        (``statistic`` 1, Fisher's z infinite) gives ``(1, 1)``, the limit of the interval as
        the ratings approach it. ``method`` (the keyword every result's
        ``confidence_interval`` takes) is None or the result's ``method``."""
        if method is not None:
            check_only_method(method, self.method, "the standard error of this CCC")

        def two_sided(level: float) -> ConfidenceInterval:
            tail = (1.0 - level) / 2.0
            if self.method == "lin":
                quantile = norm_ppf(1.0 - tail)
            else:
                quantile = t_ppf(1.0 - tail, self.n_items - 1)
            low = high = math.nan
            if math.isfinite(self.standard_error_z) and (
                abs(self.statistic) < 1.0 or math.isfinite(self._fisher_z)
            ):
                z = self._z()
                low = math.tanh(z - quantile * self.standard_error_z)
                high = math.tanh(z + quantile * self.standard_error_z)
            elif _perfect(self.statistic, self.n_items):
                low = high = 1.0
            return ConfidenceInterval(low, high, confidence_level=level, method=self.method)

        return sided(two_sided, confidence_level, self.alternative, CORRELATION_RANGE)

    @property
    def interval_method(self) -> str:
        """How :meth:`confidence_interval` is computed, in words: Lin's delta-method standard
        error of Fisher's z with a normal quantile (two raters), or the jackknife's with a t
        quantile on ``n_items - 1`` df (several raters).

        Examples
        --------
        >>> import wkappa as wk
        >>> wk.ccc([2.1, 3.4, 1.9, 5.0], [2.0, 3.9, 2.2, 4.6]).interval_method
        "Lin's delta-method SE of Fisher's z, normal quantile"
        >>> wk.ccc([[1, 2, 2], [3, 3, 4], [5, 4, 5], [2, 2, 1]]).interval_method
        "jackknife SE of Fisher's z, t(3) quantile"
        """
        if self.method == "lin":
            return "Lin's delta-method SE of Fisher's z, normal quantile"
        return f"jackknife SE of Fisher's z, t({self.n_items - 1}) quantile"

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the interval."""
        ci = self.confidence_interval(confidence_level)
        return json_fields(self, _CCC_FIELDS, confidence_interval=ci)

    def explain(self, confidence_level: float = 0.95, *, method: str | None = None) -> str:
        """The computation in words and numbers.

        Parameters
        ----------
        confidence_level, method : float, str or None
            Passed to :meth:`confidence_interval` (the method, if given, must be the result's
            own); the explanation prints that Fisher-z interval.

        Returns
        -------
        str
            The moments, the formula, Pearson's r times the bias correction, the interval
            and the p-value.
        """
        ci = self.confidence_interval(confidence_level, method=method)
        means = ", ".join(number_text(m) for m in self.means)
        variances = ", ".join(number_text(v) for v in self.variances)
        same = "every value is the same" if not np.any(self.variances) else None
        formula = (
            "2 s_xy / (s_x² + s_y² + (xbar - ybar)²)"
            if self.n_raters == 2
            else "2 sum_{j<l} s_jl / ((k-1) sum_j s_j² + sum_{j<l} (xbar_j - xbar_l)²)"
        )
        interval = self.interval_method
        name = (
            "Lin's concordance correlation"
            if self.n_raters == 2
            else "Overall concordance correlation (Barnhart, Haber & Song 2002)"
        )
        omitted = ""
        if self.n_items_omitted:
            items = "item" if self.n_items_omitted == 1 else "items"
            omitted = f" ({self.n_items_omitted} {items} with a missing value left out)"
        return "\n".join(
            [
                f"{name}, {self.n_items} items{omitted} x {self.n_raters} raters (1/n moments)",
                f"means [{means}], variances [{variances}]",
                f"CCC = {formula} = {number_text(self.statistic, reason=same)}",
                f"= {'Pearson r' if self.n_raters == 2 else 'mean pairwise Pearson r'} "
                f"{number_text(self.pearson)}"
                f" x bias correction C_b {number_text(self.bias_correction)}",
                f"{level_text(ci, self.alternative)}interval {interval_text(ci.low, ci.high)}"
                f" ({interval})",
                f"p-value {number_text(self.pvalue)} ({self.alternative}, H0: CCC = {self.ccc0:g})",
            ]
        )

    def __repr__(self) -> str:
        ci = interval_repr(self.confidence_interval(), self.alternative)
        return (
            f"CCCResult(statistic={self.statistic:.6g}, {ci}, "
            f"pvalue={self.pvalue:.6g}, pearson={self.pearson:.6g}, "
            f"bias_correction={self.bias_correction:.6g}, n_items={self.n_items}, "
            f"n_raters={self.n_raters}"
            + (f", n_items_omitted={self.n_items_omitted}" if self.n_items_omitted else "")
            + f", method={self.method!r})"
        )


def _moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Means and the 1/n covariance matrix of the columns of x (two passes: centred)."""
    means = x.mean(axis=0)
    centred = x - means
    cov = centred.T @ centred / x.shape[0]
    return means, cov


def _overall(x: np.ndarray, cov: np.ndarray) -> tuple[float, float]:
    """(numerator, rest) of the overall CCC ``N / (N + D)``: ``N = 2 sum_{j<l} s_jl`` and
    ``D = (k - 1) sum_j s_j² - 2 sum_{j<l} s_jl + sum_{j<l} (xbar_j - xbar_l)² =
    sum_{j<l} mean_i (x_ij - x_il)²`` taken from the raters' differences themselves: where
    targets differ far more than raters, ``D`` as the rest of the sums lost its digits
    (targets 1e8 apart: 1 - CCC wrong in its first digit, Fisher's z infinite)."""
    k = x.shape[1]
    upper = np.triu_indices(k, 1)
    numerator = 2.0 * float(cov[upper].sum())
    return numerator, float(_pair_squares(x).sum()) / x.shape[0]


def _pearson_complement(x: np.ndarray, variances: np.ndarray) -> float:
    """``1 - r`` of two raters from their difference ``d`` and sum ``t``: ``(s_d² -
    (s_x - s_y)²) / (2 s_x s_y)`` with ``s_x - s_y = cov(d, t) / (s_x + s_y)``, which keeps
    its digits where ``r`` is a rounding away from 1."""
    d = x[:, 0] - x[:, 1]
    d = d - d.mean()
    t = x[:, 0] + x[:, 1]
    t = t - t.mean()
    s_x, s_y = np.sqrt(variances)
    gap = float(d @ t) / len(d) / (s_x + s_y)
    return float((float(d @ d) / len(d) - gap * gap) / (2.0 * s_x * s_y))


def _pair_squares(x: np.ndarray) -> np.ndarray:
    """Per target, ``sum_{j<l} (x_ij - x_il)²``."""
    upper = np.triu_indices(x.shape[1], 1)
    differences = x[:, upper[0]] - x[:, upper[1]]
    found: np.ndarray = np.einsum("ip,ip->i", differences, differences)
    return found


def _fisher_z(numerator: Any, rest: Any) -> Any:
    """``atanh(N / (N + D))`` as ``(1/2) log1p(2 N / D)`` (scalars or arrays): no digit of
    ``1 - CCC = D / (N + D)`` is lost; nan where the CCC is ±1 or undefined."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = 0.5 * np.log1p(2.0 * np.asarray(numerator) / rest)
        return np.where((rest > 0) & (2.0 * np.asarray(numerator) > -rest), z, np.nan)[()]


def _perfect(statistic: float, n: int) -> bool:
    """Perfect agreement on three items or more: the interval is (1, 1), the test rejects
    every ``ccc0`` below 1."""
    return statistic == 1.0 and n >= 3


def lin_z_variance(
    rho: float,
    r: float,
    c_b: float,
    u: float,
    complement: float | None = None,
    r_complement: float | None = None,
) -> float:
    """Lin's (1989; corrected 2000) delta-method variance of Fisher's ``z = atanh(rho_c_hat)``,
    times ``n - 2``, written with ``rho / r = C_b`` so that it is defined at ``r = 0`` too:

    ``(1 - r²) C_b² / (1 - rho²) + 2 rho² C_b (1 - rho) u² / (1 - rho²)²
    - rho² C_b² u⁴ / (2 (1 - rho²)²)``

    with ``rho`` the CCC, ``r`` Pearson's correlation, ``C_b`` the bias-correction factor and
    ``u`` the location shift. ``complement`` (``1 - rho``) and ``r_complement`` (``1 - r``)
    may be given more precisely than ``1 - rho`` would compute them near 1. Without a
    systematic difference (``u = 0``, ``C_b = 1``) it is 1, Fisher's variance of a
    correlation's z. :func:`~wkappa.ccc` divides it by ``n - 2``;
    :func:`~wkappa.ccc_sample_size` plans with it.

    >>> lin_z_variance(0.9, 0.9, 1.0, 0.0)
    1.0
    >>> round(lin_z_variance(0.9, 0.95, 0.9 / 0.95, 0.0), 4)
    0.4606
    """
    complement = 1.0 - rho if complement is None else complement
    r_complement = 1.0 - r if r_complement is None else r_complement
    one = complement * (1.0 + rho)  # 1 - rho²
    return (
        r_complement * (1.0 + r) * c_b * c_b / one
        + 2.0 * rho * rho * c_b * complement * u * u / (one * one)
        - rho * rho * c_b * c_b * u**4 / (2.0 * one * one)
    )


def _lin_se_z(
    rho: float, r: float, c_b: float, u: float, n: int, complement: float, r_complement: float
) -> tuple[float, str | None]:
    """Lin's delta-method SE of Fisher's z, written with ``rho / r = C_b`` so that it is
    defined at ``r = 0`` too (where ``rho = 0``); or nan and why."""
    if n <= 2:
        return math.nan, _TOO_FEW.format(n=n, what="Lin's variance divides by n - 2")
    if not math.isfinite(u):
        return math.nan, "one rater gives every item the same value (Pearson's r is undefined)"
    if complement == 0.0:
        return math.nan, None  # perfect agreement: the limits are 1 (see _perfect)
    if rho == -1.0:
        return math.nan, "the CCC is -1, where Lin's variance of Fisher's z is unbounded"
    # 1 - rho = D / (N + D) (see _overall), 1 - r as precise as the sums give it
    variance = lin_z_variance(rho, r, c_b, u, complement, r_complement) / (n - 2)
    if variance >= 0:
        return math.sqrt(variance), None
    return math.nan, f"Lin's variance of Fisher's z comes out negative ({variance:.3g})"


_TOO_FEW = "there are {n} items; the interval and the test need three or more ({what})"


def _jackknife_se_z(x: np.ndarray, statistic: float) -> tuple[float, str | None]:
    """Leave-one-target-out SE of atanh(overall CCC), from the sums (no refit per target);
    or nan and why."""
    n, k = x.shape
    if n <= 2:
        return math.nan, _TOO_FEW.format(n=n, what="the jackknife leaves one item out")
    pairs = _pair_squares(x)
    total_pairs = float(pairs.sum())
    if total_pairs == 0.0:
        return math.nan, None  # perfect agreement: the limits are 1 (see _perfect)
    centre = x.mean(axis=0)
    y = x - centre
    total = y.sum(axis=0)
    cross = y.T @ y
    m = n - 1
    sums = total[None, :] - y  # (n, k): column sums without target i
    means = sums / m
    cross_i = cross[None, :, :] - y[:, :, None] * y[:, None, :]
    cov = cross_i / m - means[:, :, None] * means[:, None, :]
    upper = np.triu_indices(k, 1)
    numerator = 2.0 * cov[:, upper[0], upper[1]].sum(axis=1)
    # D without target i, from the raters' differences (see _overall)
    rest = (total_pairs - pairs) / m
    z = _fisher_z(numerator, rest)
    if not np.all(np.isfinite(z)):
        return math.nan, (
            "leaving one item out gives a CCC of ±1 or an undefined one, where Fisher's z "
            "is infinite"
        )
    if np.ptp(z) == 0.0:  # every rater constant, say: a spread of 0 is no estimate
        return math.nan, (
            f"leaving any one item out gives the same CCC ({statistic:.4g}; every rater "
            "gives every item the same value, for one), so the jackknife's standard error is 0"
        )
    return float(math.sqrt((n - 1) / n * float(((z - z.mean()) ** 2).sum()))), None


def _check_ccc0(ccc0: Any) -> float:
    value = real_number(ccc0, "ccc0", "a number in (-1, 1)")
    if not -1.0 < value < 1.0:
        raise WkappaError(f"`ccc0` must be in (-1, 1); got {value!r}.")
    return value


def ccc(
    x: npt.ArrayLike,
    y: npt.ArrayLike | None = None,
    *,
    ccc0: float = 0.0,
    alternative: Alternative = "two-sided",
    nan_policy: NanPolicy = "raise",
) -> CCCResult:
    """Lin's concordance correlation coefficient of two raters, or overall of several.

    Parameters
    ----------
    x : array-like of shape (n,) or (n, k)
        The first rater's values; or, with ``y`` None, an items x raters matrix (numpy,
        lists, pandas or polars DataFrame) for the overall CCC of k raters.
    y : array-like of shape (n,), optional
        The second rater's values.
    ccc0 : float, default 0.0
        Null value of the test (on Fisher's z), in (-1, 1).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
    nan_policy : {'raise', 'omit', 'propagate'}, default 'raise'
        'omit' drops items with a missing value (counted in
        ``n_items_omitted``); 'propagate' returns nan.

    Returns
    -------
    CCCResult

    Warns
    -----
    wkappa.exceptions.UndefinedReliabilityWarning
        When every value is the same (the denominator is 0): nan. When the CCC is defined but
        its interval and test are not (two items; a rater who gives every item the same
        value; CCC = -1; several raters: a leave-one-item-out CCC of ±1): nan for them.

    Notes
    -----
    With 1/n moments, ``CCC = 2 s_xy / (s_x² + s_y² + (xbar - ybar)²)`` (Lin 1989,
    Biometrics 45: 255-268). The interval is Lin's: Fisher's z with his delta-method
    variance on n - 2, as R's ``epiR::epi.ccc(ci = "z-transform")``. For several raters the
    overall CCC (Barnhart, Haber & Song 2002) with a jackknife interval on Fisher's z.

    Perfect agreement (CCC = 1, Fisher's z infinite) gives the interval (1, 1) and the
    p-value 0 against every ``ccc0`` below 1 (1 for ``alternative='less'``): their limits as
    the ratings approach it. Lin's variance is computed with ``rho_c / r = C_b``, so it is
    defined at ``r = 0``.

    For integer ratings, ``wk.qwk(a, b) == wk.ccc(a, b).statistic`` (up to rounding) when the
    categories are every integer from the smallest to the largest rating (wkappa's default):
    both are ``1 - n sum (a-b)² / sum_ij (a_i - b_j)²``. With ``labels=`` that skip values, or
    scikit-learn's observed-labels-only convention, they differ.

    Examples
    --------
    >>> import wkappa as wk
    >>> a = [1, 2, 3, 3, 4, 5, 5, 2]
    >>> b = [1, 2, 2, 3, 5, 5, 4, 3]
    >>> result = wk.ccc(a, b)
    >>> round(result.statistic, 6), round(wk.qwk(a, b), 6)
    (0.865546, 0.865546)
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), round(high, 3)
    (0.474, 0.971)
    """
    null = _check_ccc0(ccc0)
    alt = check_alternative(alternative)
    policy = check_choice(nan_policy, "nan_policy", ("raise", "omit", "propagate"))
    exact = centred_integers(x) if y is None else centred_integers(x, y)
    low = omitted = 0
    names = None
    if exact is not None:  # integers beyond 2**53: their differences, exactly
        x, low, names = exact.arrays[0], exact.low, exact.names[0]
        y = exact.arrays[1] if y is not None else None
    if y is None:
        read = read_numeric_ratings(
            x,
            nan_policy=policy,
            name="x",
            allow_features=False,
            omit="drops incomplete items",
            function="ccc",
            column_names=names,
        )
        matrix = read.values
        if read.n_missing:
            rows = ~np.isnan(matrix).any(axis=1)
            if policy == "propagate":
                return _propagated(matrix.shape, null, alt)
            empty = np.flatnonzero(np.isnan(matrix).all(axis=0))
            if empty.size:  # 'omit' would drop every item
                rater = rater_names(read.rater_names, matrix.shape[1])[int(empty[0])]
                raise WkappaError(
                    f"`x` has no rating at all from {rater}, so no item is complete. "
                    "Hint: drop raters (columns) without any rating."
                )
            matrix, omitted = matrix[rows], int((~rows).sum())
    else:
        # 'omit' drops the pairs here, to count them
        read_policy = "propagate" if policy == "omit" else policy
        first, second = read_numeric_pair(x, y, nan_policy=read_policy)  # type: ignore[arg-type]
        kept = ~(np.isnan(first) | np.isnan(second))
        if policy == "omit":
            first, second, omitted = first[kept], second[kept], int((~kept).sum())
        elif not kept.all():
            return _propagated((len(first), 2), null, alt)
        matrix = np.column_stack([first, second])
    n, k = matrix.shape
    if n < 2:
        raise WkappaError(f"The CCC needs at least two complete items; got {n}.")
    # Centred on one rating and scaled by a power of two (the CCC does not change): no
    # square overflows near 1e308, no digit is lost far from zero (2**62 + small spreads).
    scaled = scaled_ratings(matrix)
    matrix = scaled.values
    means, cov = _moments(matrix)
    numerator, rest = _overall(matrix, cov)
    denominator = numerator + rest
    variances = np.diag(cov)
    if denominator == 0.0:
        warn_at_caller(
            "The concordance correlation is undefined: every value is the same. Returning nan.",
            UndefinedReliabilityWarning,
        )
        statistic = math.nan
    else:
        statistic = numerator / denominator
    upper = np.triu_indices(k, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        correlations = cov / np.sqrt(np.outer(variances, variances))
    pearson = float(np.mean(correlations[upper]))
    bias = statistic / pearson if pearson != 0 and math.isfinite(pearson) else math.nan
    why: str | None = None
    if k == 2:
        scale = (variances[0] * variances[1]) ** 0.25
        gap = float((matrix[:, 1] - matrix[:, 0]).mean())  # (the means' difference, as such)
        u = gap / scale if scale > 0 else math.inf
        if math.isfinite(statistic) and scale > 0:
            # C_b = 2 s_x s_y / (s_x² + s_y² + (xbar - ybar)²), defined at r = 0 as well.
            bias = float(2.0 * scale * scale / denominator)
        complement = rest / denominator if denominator else math.nan
        r_complement = _pearson_complement(matrix, variances) if scale > 0 else math.nan
        se_z, why = _lin_se_z(statistic, pearson, bias, u, n, complement, r_complement)
        method = "lin"
    else:
        se_z, why = _jackknife_se_z(matrix, statistic)
        method = "jackknife"
    if why is not None and math.isfinite(statistic):
        warn_at_caller(
            f"The CCC's interval and p-value are undefined: {why}. Returning nan for them.",
            UndefinedReliabilityWarning,
        )
    fisher_z = float(_fisher_z(numerator, rest)) if math.isfinite(statistic) else math.nan
    pvalue = _pvalue(statistic, fisher_z, null, se_z, alt, method, n)
    return CCCResult(
        statistic=statistic,
        pearson=pearson,
        bias_correction=bias,
        means=tuple(low + float(m) for m in scaled.shift + scaled.unit * means),
        variances=tuple(float(v) for v in _in_rating_units(variances, scaled.unit)),
        n_items=n,
        n_raters=k,
        n_items_omitted=omitted,
        pvalue=pvalue,
        ccc0=null,
        alternative=alt,
        standard_error_z=se_z,
        method=method,
        _fisher_z=fisher_z,
    )


def _in_rating_units(variances: np.ndarray, unit: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # inf: beyond the float range
        return np.asarray(variances * unit * unit)


def _pvalue(
    statistic: float, fisher_z: float, null: float, se_z: float, alt: str, method: str, n: int
) -> float:
    df = None if method == "lin" else n - 1
    finite = math.isfinite(fisher_z) or abs(statistic) < 1.0
    if _perfect(statistic, n) and not finite:  # Fisher's z is +inf: beyond every quantile
        return tail_pvalue(math.inf, alt, df)
    if not (math.isfinite(se_z) and se_z > 0 and finite):
        return math.nan
    z = fisher_z if math.isfinite(fisher_z) else math.atanh(statistic)
    return tail_pvalue((z - math.atanh(null)) / se_z, alt, df)


def _propagated(shape: tuple[int, int], null: float, alt: Alternative) -> CCCResult:
    """The nan result of ``nan_policy='propagate'``, counting the items given."""
    nan = math.nan
    n, k = shape
    return CCCResult(
        statistic=nan,
        pearson=nan,
        bias_correction=nan,
        means=(nan,) * k,
        variances=(nan,) * k,
        n_items=n,
        n_raters=k,
        n_items_omitted=0,
        pvalue=nan,
        ccc0=null,
        alternative=alt,
        standard_error_z=nan,
        method="lin" if k == 2 else "jackknife",
    )
