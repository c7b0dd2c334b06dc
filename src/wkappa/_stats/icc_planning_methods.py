"""What an ICC reliability study of n subjects delivers, exactly (the F distribution) and by
the published approximations.

Every function takes the single-rater ICC ``rho`` of the one-way or two-way model (an
average-measure ICC is converted by the caller: its F test is the single-rater one) through
``theta(rho) = (1 + (k-1) rho) / (1 - rho)``, the expected ratio of the mean squares
(between subjects over error): the observed ratio over ``theta`` has an F distribution with
``d1 = n - 1`` and ``d2`` degrees of freedom (``n (k-1)`` one-way, ``(n-1)(k-1)`` two-way).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._core import f_cdf, f_ppf, f_sf, norm_cdf, norm_ppf

__all__ = [
    "approximate_n_power",
    "approximate_n_width",
    "approximate_power",
    "approximate_width",
    "degrees_of_freedom",
    "exact_power",
    "exact_width",
    "exact_width_assurance",
    "theta",
]

# Points of the trapezoidal rule over log X, X ~ F(d1, d2), for the expected width of a
# single-rater interval (a smooth integrand with exponentially decaying tails).
_POINTS = 4001


def _f_expectation(function: Callable[[np.ndarray], np.ndarray], d1: int, d2: int) -> float:
    """``E[function(X)]`` for ``X ~ F(d1, d2)``, by the trapezoidal rule in ``t = log X``.

    The density of t is proportional to ``exp(a t) / (1 + (d1/d2) e^t)^(a+b)`` with
    ``a = d1/2``, ``b = d2/2``: log-concave, with its mode at 0 and tails falling like
    ``exp(a t)`` and ``exp(-b t)``. The grid spans 40/a (40/b) plus 10 standard deviations
    of log F on each side, past which the density is below ``e^-40`` of its peak, and the
    weights are normalised by their own sum (no beta function needed); for a smooth
    integrand with such tails the rule converges exponentially.
    """
    a, b = d1 / 2.0, d2 / 2.0
    spread = 10.0 * math.sqrt(2.0 / d1 + 2.0 / d2)
    t = np.linspace(-(40.0 / a + spread), 40.0 / b + spread, _POINTS)
    log_weight = a * t - (a + b) * np.logaddexp(0.0, math.log(d1 / d2) + t)
    weight = np.exp(log_weight - log_weight.max())
    return float(np.dot(weight, function(np.exp(t))) / weight.sum())


def theta(rho: float, k: int) -> float:
    """``(1 + (k-1) rho) / (1 - rho)``: the expected mean-square ratio at the ICC rho."""
    return (1.0 + (k - 1) * rho) / (1.0 - rho)


def degrees_of_freedom(n: int, k: int, two_way: bool) -> tuple[int, int]:
    """The F test's degrees of freedom: ``n - 1`` and ``n (k-1)`` (one-way) or
    ``(n-1)(k-1)`` (two-way)."""
    return n - 1, (n - 1) * (k - 1) if two_way else n * (k - 1)


def _q(p: float, d1: int, d2: int) -> float:
    return float(f_ppf(p, d1, d2))


def exact_power(
    rho1: float, rho0: float, k: int, n: int, two_way: bool, alpha: float, alternative: str
) -> float:
    """Power of the F test of ``ICC = rho0`` when the ICC is ``rho1`` (Donner & Eliasziw
    1987; Walter, Eliasziw & Donner 1998): with ``C0 = theta(rho0) / theta(rho1)``,
    ``P(F > C0 f_{1-alpha})`` for 'greater', ``P(F < C0 f_alpha)`` for 'less', both tails at
    alpha / 2 for 'two-sided'."""
    d1, d2 = degrees_of_freedom(n, k, two_way)
    c0 = theta(rho0, k) / theta(rho1, k)
    if alternative == "greater":
        return float(f_sf(c0 * _q(1.0 - alpha, d1, d2), d1, d2))
    if alternative == "less":
        return float(f_cdf(c0 * _q(alpha, d1, d2), d1, d2))
    upper = float(f_sf(c0 * _q(1.0 - alpha / 2.0, d1, d2), d1, d2))
    return upper + float(f_cdf(c0 * _q(alpha / 2.0, d1, d2), d1, d2))


def exact_width(rho1: float, k: int, n: int, two_way: bool, level: float, average: bool) -> float:
    """Expected width of the exact F interval at ``level`` (Shrout & Fleiss 1979; McGraw &
    Wong 1996, Table 7), as :func:`~wkappa.icc` computes it from the observed ratio
    ``F = theta(rho1) X``, ``X ~ F(d1, d2)``.

    With ``fU``, ``fL`` the upper and lower quantiles of ``F(d1, d2)`` the single-rater limits
    are ``1 - k / (F / fU + k - 1)`` and ``1 - k / (F / fL + k - 1)``: the width is bounded
    and smooth, and its mean is integrated numerically (:func:`_f_expectation`). The
    average-measure limits ``1 - fU / F`` and ``1 - fL / F`` are ``(fU - fL) / F`` apart,
    whose mean is ``(fU - fL) / theta * d1 / (d1 - 2)`` (``E[1/X]`` of the F distribution,
    infinite for ``d1 <= 2``).
    """
    d1, d2 = degrees_of_freedom(n, k, two_way)
    tail = (1.0 - level) / 2.0
    upper, lower = _q(1.0 - tail, d1, d2), _q(tail, d1, d2)
    scale = theta(rho1, k)
    if average:
        if d1 <= 2:
            return math.inf
        return (upper - lower) / scale * d1 / (d1 - 2.0)

    def width(x: np.ndarray) -> np.ndarray:
        ratio = scale * x
        out: np.ndarray = k / (ratio / upper + k - 1.0) - k / (ratio / lower + k - 1.0)
        return out

    return _f_expectation(width, d1, d2)


def exact_width_assurance(
    rho1: float, k: int, n: int, two_way: bool, level: float, average: bool, width: float
) -> float:
    """Probability that the exact interval at ``level`` is at most ``width`` wide (the
    assurance of Zou 2012's precision goal), from the F distribution of the observed ratio.

    The average-measure width ``(fU - fL) / F`` is at most w exactly when
    ``F >= (fU - fL) / w``. The single-rater width ``k / (a F + c) - k / (b F + c)``
    (``a = 1/fU < b = 1/fL``, ``c = k - 1``) is 0 at F = 0, rises to its one maximum at
    ``F = c sqrt(fU fL)`` and falls back to 0: it equals w where
    ``w a b F^2 + (w c (a + b) - k (b - a)) F + w c^2 = 0``, so it is at most w for F below
    the smaller root or above the larger (everywhere when the roots are not real and
    positive: the width never reaches w).
    """
    d1, d2 = degrees_of_freedom(n, k, two_way)
    tail = (1.0 - level) / 2.0
    upper, lower = _q(1.0 - tail, d1, d2), _q(tail, d1, d2)
    scale = theta(rho1, k)
    if average:
        return float(f_sf((upper - lower) / width / scale, d1, d2))
    a, b, c = 1.0 / upper, 1.0 / lower, k - 1.0
    quad = width * a * b
    linear = width * c * (a + b) - k * (b - a)
    constant = width * c * c
    discriminant = linear * linear - 4.0 * quad * constant
    if linear >= 0.0 or discriminant <= 0.0:
        return 1.0
    root = (-linear + math.sqrt(discriminant)) / 2.0  # stable: the larger root is root / quad
    below, above = constant / root, root / quad
    return float(f_cdf(below / scale, d1, d2)) + float(f_sf(above / scale, d1, d2))


def _walter_gap(rho1: float, rho0: float, k: int) -> float:
    """``ln(theta(rho1) / theta(rho0))`` (``-ln C0``): the shift of ln F under H1."""
    return math.log(theta(rho1, k) / theta(rho0, k))


def approximate_power(
    rho1: float, rho0: float, k: int, n: int, alpha: float, alternative: str
) -> float:
    """Walter, Eliasziw & Donner's (1998) normal approximation of the power: ln F has
    variance about ``2k / ((n-1)(k-1))``, so the power is
    ``Phi(sqrt((n-1)(k-1) / (2k)) |ln C0| - z)`` with ``z = z_{1-alpha}`` one-sided (the
    signed gap: below alpha on the wrong side) and ``z_{1-alpha/2}`` two-sided (the far
    tail left out, as their formula does)."""
    scale = math.sqrt((n - 1) * (k - 1) / (2.0 * k))
    gap = _walter_gap(rho1, rho0, k)
    if alternative == "two-sided":
        return norm_cdf(scale * abs(gap) - norm_ppf(1.0 - alpha / 2.0))
    sign = 1.0 if alternative == "greater" else -1.0
    return norm_cdf(scale * sign * gap - norm_ppf(1.0 - alpha))


def approximate_n_power(
    rho1: float, rho0: float, k: int, alpha: float, alternative: str, power: float
) -> float:
    """Walter, Eliasziw & Donner's (1998) closed form
    ``n = 1 + 2 (z_alpha + z_beta)^2 k / ((ln C0)^2 (k-1))``, unrounded. A ``power`` at most
    ``alpha`` (an assurance below ``(1 - level) / 2``) has ``z_alpha + z_beta <= 0``: every
    n reaches it, and the formula's square would not say so, so that sum counts as 0."""
    z = norm_ppf(1.0 - (alpha / 2.0 if alternative == "two-sided" else alpha))
    gap = _walter_gap(rho1, rho0, k)
    return 1.0 + 2.0 * max(0.0, z + norm_ppf(power)) ** 2 * k / (gap**2 * (k - 1))


def _bonett_extra(rho: float, k: int) -> float:
    """Bonett's (2002) correction for two raters and a high ICC: 5 rho more subjects."""
    return 5.0 * rho if k == 2 and rho >= 0.7 else 0.0


def approximate_n_width(rho: float, k: int, width: float, level: float) -> float:
    """Bonett's (2002) ``n = 1 + 8 z^2 (1-rho)^2 (1 + (k-1) rho)^2 / (k (k-1) w^2)``, plus
    ``5 rho`` for k = 2 and rho >= 0.7 (his correction), unrounded."""
    z = norm_ppf(0.5 + level / 2.0)
    spread = (1.0 - rho) * (1.0 + (k - 1) * rho)
    return 1.0 + 8.0 * z**2 * spread**2 / (k * (k - 1) * width**2) + _bonett_extra(rho, k)


def approximate_width(rho: float, k: int, n: int, level: float) -> float:
    """The width Bonett's formula gives n subjects (the formula solved for w, with n less
    his correction; infinite where that leaves at most one subject)."""
    effective = n - _bonett_extra(rho, k)
    if effective <= 1.0:
        return math.inf
    z = norm_ppf(0.5 + level / 2.0)
    spread = (1.0 - rho) * (1.0 + (k - 1) * rho)
    return math.sqrt(8.0) * z * spread / math.sqrt(k * (k - 1) * (effective - 1.0))
