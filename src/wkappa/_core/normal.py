"""The standard normal and Student t distributions without scipy: tails and quantiles."""

from __future__ import annotations

import functools
import math
from typing import Any

__all__ = ["norm_cdf", "norm_ppf", "norm_sf", "t_ppf", "t_sf"]


@functools.cache
def _standard() -> Any:
    # statistics (with fractions, decimal and random) costs ~5 ms: imported on first use,
    # not by `import wkappa`.
    from statistics import NormalDist

    return NormalDist()


def norm_sf(z: float) -> float:
    """``P(Z > z)``, accurate far into the upper tail (``erfc``, not ``1 - cdf``)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def norm_cdf(z: float) -> float:
    """``P(Z <= z)``, accurate far into the lower tail."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def norm_ppf(p: float) -> float:
    """The quantile ``z`` with ``P(Z <= z) = p`` for ``0 < p < 1`` (Wichura's AS 241)."""
    return float(_standard().inv_cdf(p))


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz), for
    ``x < (a + 1) / (a + b + 2)`` where it converges fast."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-16:
            break
    return fraction


def _beta_inc(x: float, y: float, a: float, b: float) -> float:
    """The regularised incomplete beta function ``I_x(a, b)``, given both ``x`` and
    ``y = 1 - x`` (each exact where it is small)."""
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(y, b, a) / b


@functools.lru_cache(maxsize=256)
def t_ppf(p: float, df: float) -> float:
    """The quantile ``t`` with ``P(T <= t) = p`` of Student's t with ``df > 0`` degrees of
    freedom (real ``df`` allowed).

    ``P(T > t) = I_x(df / 2, 1 / 2) / 2`` with ``x = df / (df + t²)`` for ``t >= 0``
    (Abramowitz & Stegun 26.7.1 and 26.5.27); the quantile solves it for ``x`` by bisection
    (``I_x`` is increasing in ``x``), then ``t = sqrt(df (1 - x) / x)``. Above ``df = 1e4``
    the Cornish-Fisher expansion in ``1 / df`` (Abramowitz & Stegun 26.7.5) is exact to
    rounding instead.
    """
    if not 0.0 < p < 1.0 or not df > 0.0:
        return math.nan
    if p == 0.5:
        return 0.0
    if df > 1e4:
        return _t_ppf_expansion(p, df)
    tail = min(p, 1.0 - p)  # P(|T| > t) = 2 * tail
    # Bisection on x = df / (df + t²) where x is small (few degrees of freedom), on
    # y = 1 - x = t² / (df + t²) where it is close to 1, keeping t's relative precision.
    on_y = df > 50.0
    low, high = 0.0, 1.0
    for _ in range(1100):
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        x, y = (1.0 - middle, middle) if on_y else (middle, 1.0 - middle)
        if _beta_inc(x, y, 0.5 * df, 0.5) < 2.0 * tail:
            low, high = (low, middle) if on_y else (middle, high)
        else:
            low, high = (middle, high) if on_y else (low, middle)
    middle = 0.5 * (low + high)
    x, y = (1.0 - middle, middle) if on_y else (middle, 1.0 - middle)
    t = math.sqrt(df * y / x)
    return t if p > 0.5 else -t


def _t_ppf_expansion(p: float, df: float) -> float:
    """Abramowitz & Stegun 26.7.5: the t quantile as the normal one plus powers of 1/df."""
    return _t_from_z(norm_ppf(p), df)


def _t_from_z(z: float, df: float) -> float:
    """The t quantile at the probability of the normal deviate z (Cornish-Fisher in 1/df)."""
    z2 = z * z
    terms = (
        z * (z2 + 1.0) / 4.0,
        z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0,
        z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0,
        z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0,
    )
    return z + sum(term / df ** (power + 1) for power, term in enumerate(terms))


def t_sf(t: float, df: float) -> float:
    """``P(T > t)`` of Student's t with ``df > 0`` degrees of freedom.

    ``I_x(df / 2, 1 / 2) / 2`` with ``x = df / (df + t²)`` for ``t >= 0`` (Abramowitz &
    Stegun 26.7.1); above ``df = 1e4`` the normal tail of the deviate whose expansion in
    :func:`t_ppf` is t (found by bisection).
    """
    if not df > 0.0 or math.isnan(t):
        return math.nan
    if t < 0.0:
        return 1.0 - t_sf(-t, df)
    if df > 1e4:
        low, high = 0.0, t  # the normal deviate z of the same probability: 0 <= z <= t
        for _ in range(200):
            middle = 0.5 * (low + high)
            if middle in (low, high):
                break
            if _t_from_z(middle, df) < t:
                low = middle
            else:
                high = middle
        return norm_sf(0.5 * (low + high))
    square = t * t
    return 0.5 * _beta_inc(df / (df + square), square / (df + square), 0.5 * df, 0.5)
