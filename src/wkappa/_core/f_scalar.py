"""Snedecor's F distribution on one value at a time, in Python floats and :mod:`math` only.

These functions are the single source of two implementations: :mod:`wkappa._core.f_distribution`
calls them as they are for small degrees of freedom, and
:mod:`wkappa._core.kernels.numba_icc` compiles the very same functions (numba's
``register_jitable``) for the df of large studies, where the continued fraction needs hundreds
to thousands of terms. The formulas are described in :mod:`wkappa._core.f_distribution`.
"""

from __future__ import annotations

import math

__all__ = [
    "EPS",
    "LOG_2PI_HALF",
    "MAX_TERMS",
    "STIRLING_FROM",
    "TINY",
    "beta_fraction",
    "beta_lower_scalar",
    "gamma_ratio_scalar",
    "log_front_scalar",
    "quantile_scalar",
    "stirling_scalar",
    "tail_scalar",
]

TINY = 1e-300
EPS = 1e-16
MAX_TERMS = 20_000
LOG_2PI_HALF = 0.5 * math.log(2.0 * math.pi)
STIRLING_FROM = 10.0


def beta_fraction(a: float, b: float, y: float) -> float:
    """The continued fraction of one entry (modified Lentz), in Python floats; the same
    function is compiled by :mod:`wkappa._core.kernels.numba_icc` for large df."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * y / qap
    d = 1.0 / (d if abs(d) >= TINY else TINY)
    h = d
    for m in range(1, MAX_TERMS):
        m2 = 2 * m
        aa = m * (b - m) * y / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) >= TINY else TINY)
        c = 1.0 + aa / c
        c = c if abs(c) >= TINY else TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * y / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) >= TINY else TINY)
        c = 1.0 + aa / c
        c = c if abs(c) >= TINY else TINY
        step = d * c
        h *= step
        if abs(step - 1.0) < EPS:
            break
    return h


def log_front_scalar(a: float, b: float, y: float) -> float:
    """The log prefactor ``log(y^a (1-y)^b / B(a, b))`` of one entry (-inf at y = 0 or 1)."""
    if not 0.0 < y < 1.0:
        return -math.inf
    powers = a * math.log(y) + b * math.log1p(-y)
    big_a, big_b = a >= STIRLING_FROM, b >= STIRLING_FROM
    if big_a and big_b:
        s = a + b
        p = a / s
        # log(y / p) and log((1 - y) / (1 - p)): log1p near a ratio of 1; below 1/2 a
        # difference of logs (there (y - p) / p may round to -1: log1p's domain error).
        up, down = (y - p) / p, (p - y) / (1.0 - p)
        log_up = math.log1p(up) if up > -0.5 else math.log(y) - math.log(p)
        log_down = math.log1p(down) if down > -0.5 else math.log1p(-y) - math.log1p(-p)
        return (
            a * log_up
            + b * log_down
            + 0.5 * (math.log(a) + math.log(b) - math.log(s))
            - LOG_2PI_HALF
            + stirling_scalar(s)
            - stirling_scalar(a)
            - stirling_scalar(b)
        )
    if big_b:
        return gamma_ratio_scalar(a, b) - math.lgamma(a) + powers
    if big_a:
        return gamma_ratio_scalar(b, a) - math.lgamma(b) + powers
    return math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + powers


def stirling_scalar(x: float) -> float:
    """The Stirling series' correction to ``log Gamma(x)`` of one value."""
    inv = 1.0 / x
    inv2 = inv * inv
    return inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 / 1680.0)))


def gamma_ratio_scalar(a: float, b: float) -> float:
    """``log Gamma(a + b) - log Gamma(b)`` for large b, of one pair."""
    s = a + b
    return (
        (b - 0.5) * math.log1p(a / b)
        + a * math.log(s)
        - a
        + stirling_scalar(s)
        - stirling_scalar(b)
    )


def beta_lower_scalar(a: float, b: float, y: float, y_c: float) -> float:
    """The regularised incomplete beta ``I_y(a, b)`` of one entry."""
    if y < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front_scalar(a, b, y)) * beta_fraction(a, b, y) / a
    return 1.0 - math.exp(log_front_scalar(b, a, y_c)) * beta_fraction(b, a, y_c) / b


def tail_scalar(x: float, d1: float, d2: float, upper: bool) -> float:
    """``P(F > x)`` (upper) or ``P(F <= x)`` of one entry."""
    if math.isnan(x) or math.isnan(d1) or math.isnan(d2) or d1 <= 0 or d2 <= 0:
        return math.nan
    if x <= 0:
        return 1.0 if upper else 0.0
    if math.isinf(x):
        return 0.0 if upper else 1.0
    y = d1 * x / (d1 * x + d2)
    y_c = d2 / (d1 * x + d2)
    if y <= 0.0 or y_c <= 0.0:  # beyond double precision: the far tails
        return (0.0 if upper else 1.0) if y_c <= 0.0 else (1.0 if upper else 0.0)
    if upper:
        return beta_lower_scalar(d2 / 2.0, d1 / 2.0, y_c, y)
    return beta_lower_scalar(d1 / 2.0, d2 / 2.0, y, y_c)


def quantile_scalar(p: float, d1: float, d2: float, z_norm: float) -> float:
    """The F quantile of one entry, 0 < p < 1 and positive df (at most 1e15), given the
    normal quantile ``z_norm`` of ``p`` for Paulson's starting point."""
    upper = p > 0.5
    target = 1.0 - p if upper else p
    a1, a2 = 2.0 / (9.0 * d1), 2.0 / (9.0 * d2)
    spread = (1.0 - a1) ** 2 * a2 + (1.0 - a2) ** 2 * a1 - z_norm**2 * a1 * a2
    denominator = (1.0 - a2) ** 2 - z_norm**2 * a2
    root = math.nan
    if denominator != 0:
        root = ((1.0 - a1) * (1.0 - a2) + z_norm * math.sqrt(max(0.0, spread))) / denominator
    z = 3.0 * math.log(root) if math.isfinite(root) and root > 0 else 0.0
    z = min(max(z, -599.0), 599.0)
    low, high = -600.0, 600.0
    for _ in range(100):
        x = math.exp(z)
        value = tail_scalar(x, d1, d2, upper)
        if value == target:
            break
        too_far = math.isnan(value) or (value < target if upper else value > target)
        if too_far:
            high = z
        else:
            low = z
        slope = math.exp(log_front_scalar(d1 / 2.0, d2 / 2.0, d1 * x / (d1 * x + d2)))
        slope = -slope if upper else slope
        newton = z - (value - target) / slope if slope != 0 else math.nan
        new_z = newton if math.isfinite(newton) and low <= newton <= high else 0.5 * (low + high)
        done = abs(new_z - z) <= 1e-14 * max(1.0, abs(z))
        z = new_z
        if done:
            break
    if z >= 599.0:
        return math.inf
    if z <= -599.0:
        return 0.0
    return math.exp(z)
