"""Student's t distribution without scipy: tail probability and quantile.

The several-raters inference follows Gwet's irrCAC, which uses t with ``n - 1`` degrees of
freedom for the p-value and the interval. The distribution function is the regularised
incomplete beta function ``I_x(df/2, 1/2)`` with ``x = df / (df + t²)``, i.e. the upper tail
of F(1, df) at t², evaluated by :func:`wkappa._core.f_scalar.tail_scalar` (the continued
fraction of Numerical Recipes, modified Lentz); the quantile inverts it by bisection refined
with Newton steps. Above ``df = 1e4`` (where ``lgamma`` differences lose digits) both
use the Cornish-Fisher expansion of the quantile in ``1 / df`` (Abramowitz & Stegun 26.7.5),
exact to rounding there.
"""

from __future__ import annotations

import functools
import math

from .f_scalar import tail_scalar
from .normal import norm_ppf, norm_sf

__all__ = ["t_ppf", "t_sf"]

_EXPANSION_DF = 1e4


def _t_from_z(z: float, df: float) -> float:
    """The t quantile at the probability of the normal deviate z: Abramowitz & Stegun 26.7.5."""
    z2 = z * z
    terms = (
        z * (z2 + 1.0) / 4.0,
        z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0,
        z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0,
        z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0,
    )
    return z + sum(term / df ** (power + 1) for power, term in enumerate(terms))


def t_sf(t: float, df: float) -> float:
    """``P(T > t)`` for Student's t with ``df`` degrees of freedom (normal for df = inf).

    Parameters
    ----------
    t : float
        The statistic; nan gives nan.
    df : float
        Degrees of freedom, positive.

    Returns
    -------
    float
    """
    if math.isnan(t) or math.isnan(df) or df <= 0:
        return math.nan
    if math.isinf(df):
        return norm_sf(t)
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    if df > _EXPANSION_DF:
        # The normal deviate whose expanded t quantile is |t| (0 <= z <= |t|), by bisection.
        low, high = 0.0, abs(t)
        for _ in range(200):
            mid = 0.5 * (low + high)
            if mid in (low, high):
                break
            low, high = (mid, high) if _t_from_z(mid, df) < abs(t) else (low, mid)
        upper = norm_sf(0.5 * (low + high))
        return upper if t >= 0 else 1.0 - upper
    # P(|T| > |t|) = P(F(1, df) > t²) = I_{df / (df + t²)}(df/2, 1/2).
    tail = 0.5 * tail_scalar(t * t, 1.0, df, True)
    return tail if t >= 0 else 1.0 - tail


def _t_pdf(t: float, df: float) -> float:
    log_density = (
        math.lgamma((df + 1.0) / 2.0)
        - math.lgamma(df / 2.0)
        - 0.5 * math.log(df * math.pi)
        - (df + 1.0) / 2.0 * math.log1p(t * t / df)
    )
    return math.exp(log_density)


# Intervals ask for the same few quantiles over and over (a simulated study plan, one per
# simulated study): remembered, since each costs ~15 ms of continued fractions.
@functools.lru_cache(maxsize=1024)
def t_ppf(p: float, df: float) -> float:
    """The quantile ``t`` with ``P(T <= t) = p`` for ``0 < p < 1``.

    Parameters
    ----------
    p : float
        Probability strictly between 0 and 1.
    df : float
        Degrees of freedom, positive.

    Returns
    -------
    float
    """
    if math.isnan(p) or math.isnan(df) or df <= 0 or not 0.0 < p < 1.0:
        return math.nan
    if math.isinf(df):
        return norm_ppf(p)
    if p == 0.5:
        return 0.0
    if df > _EXPANSION_DF:
        return _t_from_z(norm_ppf(p), df)
    if p < 0.5:
        return -_upper_quantile(p, df)
    return _upper_quantile(1.0 - p, df)


def _upper_quantile(target: float, df: float) -> float:
    """The t > 0 with ``P(T > t) = target`` for ``0 < target < 1/2``."""
    # Bracket the root, then bisect and polish with Newton steps.
    low, high = 0.0, max(1.0, -norm_ppf(target))
    while t_sf(high, df) > target:
        low, high = high, high * 2.0
        if high > 1e300:
            return math.inf
    for _ in range(200):
        mid = 0.5 * (low + high)
        if t_sf(mid, df) > target:
            low = mid
        else:
            high = mid
        if high - low <= 1e-12 * max(1.0, high):
            break
    t = 0.5 * (low + high)
    for _ in range(3):
        density = _t_pdf(t, df)
        if density <= 0:
            break
        step = (t_sf(t, df) - target) / density
        t += step
        if abs(step) <= 1e-15 * max(1.0, abs(t)):
            break
    return t
