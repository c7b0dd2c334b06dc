"""Snedecor's F distribution without scipy: tails and quantiles, vectorised over numpy arrays.

The intraclass correlations test and bound their estimates with F quantiles whose degrees of
freedom differ from one feature to the next (McGraw & Wong's approximate df for absolute
agreement), so every function here takes arrays and broadcasts.

With ``y = d1 x / (d1 x + d2)``, ``P(F <= x) = I_y(d1/2, d2/2)`` and
``P(F > x) = I_{1-y}(d2/2, d1/2)``, the regularised incomplete beta function, evaluated by its
continued fraction (modified Lentz, Numerical Recipes §6.4) on the side where it converges
(``y < (a+1)/(a+b+2)``) and by the reflection ``I_y(a, b) = 1 - I_{1-y}(b, a)`` on the other.
The prefactor ``y^a (1-y)^b / B(a, b)`` is computed as a sum of logarithms in which, for large
``a`` and ``b``, the leading Stirling terms cancel analytically (``a log(y (a+b) / a) + ...``
plus the Stirling corrections), so that it keeps its digits at the df of 10^5-10^6 that
large studies give. Quantiles: safeguarded Newton iterations on ``log x`` inside a bisection
bracket, started from the Paulson (Wilson-Hilferty) normal approximation.

At large df (``d1 + d2 >= 10,000``) the scalar functions run compiled
(:mod:`wkappa._core.kernels.numba_icc`, the same source). Compiling them costs seconds, so
the first such call of a process asks :func:`wkappa._core.warmup.ready`: until the kernels
are compiled (in a child process, then loaded from numba's cache by a background thread) the
Python functions answer -- the same formulas, milliseconds per ICC.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import warmup
from .f_scalar import (
    EPS,
    LOG_2PI_HALF,
    MAX_TERMS,
    STIRLING_FROM,
    TINY,
    beta_fraction,
    quantile_scalar,
    tail_scalar,
)
from .normal import norm_ppf

__all__ = ["f_cdf", "f_ppf", "f_sf"]


_lgamma = np.vectorize(math.lgamma, otypes=[np.float64])


def _stirling_correction(x: np.ndarray) -> np.ndarray:
    """``lgamma(x) - ((x - 1/2) log x - x + log(2 pi)/2)`` for x >= 10 (error < 1e-17)."""
    inv = 1.0 / x
    inv2 = inv * inv
    return inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 * (1.0 / 1680.0))))


def _log_gamma_ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``lgamma(a + b) - lgamma(b)`` for b >= 10 without the cancellation of two large
    lgammas: ``(b - 1/2) log1p(a/b) + a log(a + b) - a`` plus the Stirling corrections."""
    s = a + b
    out: np.ndarray = (
        (b - 0.5) * np.log1p(a / b)
        + a * np.log(s)
        - a
        + _stirling_correction(s)
        - _stirling_correction(b)
    )
    return out


def _log_front(a: np.ndarray, b: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``log(y^a (1-y)^b / B(a, b))`` for 0 < y < 1."""
    out = np.empty_like(y)
    big_a, big_b = a >= STIRLING_FROM, b >= STIRLING_FROM
    with np.errstate(divide="ignore"):
        powers = a * np.log(y) + b * np.log1p(-y)
    small = ~big_a & ~big_b
    if small.any():
        a_s, b_s = a[small], b[small]
        out[small] = _lgamma(a_s + b_s) - _lgamma(a_s) - _lgamma(b_s) + powers[small]
    only_b = ~big_a & big_b
    if only_b.any():
        a_o, b_o = a[only_b], b[only_b]
        out[only_b] = _log_gamma_ratio(a_o, b_o) - _lgamma(a_o) + powers[only_b]
    only_a = big_a & ~big_b
    if only_a.any():
        a_o, b_o = a[only_a], b[only_a]
        out[only_a] = _log_gamma_ratio(b_o, a_o) - _lgamma(b_o) + powers[only_a]
    large = big_a & big_b
    if large.any():
        a_l, b_l, y_l = a[large], b[large], y[large]
        s = a_l + b_l
        # a log(y s / a) + b log((1-y) s / b), each via log1p of a relative deviation.
        p = a_l / s
        term_a = a_l * np.log1p((y_l - p) / p)
        term_b = b_l * np.log1p((p - y_l) / (1.0 - p))
        out[large] = (
            term_a
            + term_b
            + 0.5 * (np.log(a_l) + np.log(b_l) - np.log(s))
            - LOG_2PI_HALF
            + _stirling_correction(s)
            - _stirling_correction(a_l)
            - _stirling_correction(b_l)
        )
    return out


def compile_kernels() -> None:
    """Compile (or load from numba's on-disk cache) the compiled F functions, with the
    argument types every call passes: what :mod:`wkappa._core.warmup` replays for them."""
    from .kernels import numba_icc

    numba_icc.beta_fraction(5000.0, 5000.0, 0.5)
    numba_icc.tail(1.0, 1.0e4, 1.0e4, True)
    numba_icc.quantile(0.975, 1.0e4, 1.0e4, 1.959963984540054)


def _kernels_ready() -> bool:
    """Whether the compiled F functions may run now (else the Python ones answer while a
    child process compiles them; ``WKAPPA_COMPILE=wait`` compiles in the caller's thread)."""
    return warmup.ready("F distribution", compile_kernels, (), 0)


def _fraction(a: float, b: float, y: float) -> float:
    """:func:`beta_fraction`, compiled from ``a + b`` = :data:`_COMPILED_FROM` on (df that
    only data large enough to use the compiled ANOVA pass give)."""
    if a + b >= _COMPILED_FROM and _kernels_ready():
        from .kernels import numba_icc

        return float(numba_icc.beta_fraction(a, b, y))
    return beta_fraction(a, b, y)


# From this a + b (half the sum of the df) on, the compiled continued fraction.
_COMPILED_FROM = 5000.0

# Up to this many entries the continued fraction runs entry by entry in Python floats.
_SCALAR_UP_TO = 8


def _continued_fraction(a: np.ndarray, b: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The incomplete beta continued fraction (Lentz), all entries at once."""
    if y.size <= _SCALAR_UP_TO:
        return np.array(
            [_fraction(float(p), float(q), float(v)) for p, q, v in zip(a, b, y, strict=True)],
            dtype=np.float64,
        )
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(y)
    d = 1.0 - qab * y / qap
    d = 1.0 / np.where(np.abs(d) < TINY, TINY, d)
    h = d.copy()
    active = np.ones(y.shape, dtype=bool)
    for m in range(1, MAX_TERMS):
        m2 = 2 * m
        aa = m * (b - m) * y / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < TINY, TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < TINY, TINY, c)
        h = np.where(active, h * d * c, h)
        aa = -(a + m) * (qab + m) * y / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < TINY, TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < TINY, TINY, c)
        step = d * c
        h = np.where(active, h * step, h)
        active &= np.abs(step - 1.0) >= EPS
        if not active.any():
            break
    result: np.ndarray = h
    return result


def _beta_lower(a: np.ndarray, b: np.ndarray, y: np.ndarray, y_c: np.ndarray) -> np.ndarray:
    """``I_y(a, b)`` for arrays of equal shape, 0 < y < 1, given ``y_c = 1 - y`` computed
    without cancellation."""
    out = np.empty_like(y)
    direct = y < (a + 1.0) / (a + b + 2.0)
    if direct.any():
        a_d, b_d, y_d = a[direct], b[direct], y[direct]
        out[direct] = np.exp(_log_front(a_d, b_d, y_d)) * _continued_fraction(a_d, b_d, y_d) / a_d
    flip = ~direct
    if flip.any():
        a_f, b_f, y_f = b[flip], a[flip], y_c[flip]
        out[flip] = (
            1.0 - np.exp(_log_front(a_f, b_f, y_f)) * _continued_fraction(a_f, b_f, y_f) / a_f
        )
    return out


def _single(*values: object) -> tuple[tuple[float, ...], tuple[int, ...]] | None:
    """The values as floats, with the shape of the answer, when each is a number, a 0-d or
    a one-element array (shape () when none is a one-element array, else (1,)); else None."""
    out = []
    shape: tuple[int, ...] = ()
    for value in values:
        if isinstance(value, (float, int)):  # np.float64 is a float
            out.append(float(value))
        elif isinstance(value, np.ndarray) and value.size == 1 and value.ndim <= 1:
            out.append(float(value.reshape(-1)[0]))
            shape = shape or value.shape
        else:
            return None
    return tuple(out), shape


def _tails(x: np.ndarray, d1: np.ndarray, d2: np.ndarray, upper: bool) -> np.ndarray:
    single = _single(x, d1, d2)
    if single is not None:  # one table's test: one tail
        (x_1, d1_1, d2_1), shape = single
        return np.full(shape, _tail(x_1, d1_1, d2_1, upper))
    x, d1, d2 = np.broadcast_arrays(
        np.asarray(x, dtype=np.float64),
        np.asarray(d1, dtype=np.float64),
        np.asarray(d2, dtype=np.float64),
    )
    if x.size <= _SCALAR_UP_TO:
        flat = [
            _tail(float(p), float(q), float(r), upper)
            for p, q, r in zip(x.ravel(), d1.ravel(), d2.ravel(), strict=True)
        ]
        return np.array(flat, dtype=np.float64).reshape(x.shape)
    out = np.full(x.shape, np.nan)
    valid = ~(np.isnan(x) | np.isnan(d1) | np.isnan(d2)) & (d1 > 0) & (d2 > 0)
    zero = valid & (x <= 0)
    inf = valid & np.isinf(x) & (x > 0)
    out[zero] = 1.0 if upper else 0.0
    out[inf] = 0.0 if upper else 1.0
    body = valid & ~zero & ~inf
    if body.any():
        xb, a1, a2 = x[body], d1[body], d2[body]
        # y and 1 - y from the ratio, each without cancellation.
        y = a1 * xb / (a1 * xb + a2)
        one_minus_y = a2 / (a1 * xb + a2)
        if upper:
            out[body] = _beta_lower(a2 / 2.0, a1 / 2.0, one_minus_y, y)
        else:
            out[body] = _beta_lower(a1 / 2.0, a2 / 2.0, y, one_minus_y)
    return out


def _compiled(d1: float, d2: float) -> bool:
    """Whether the df are large enough for the compiled scalar functions, and they are
    ready."""
    return d1 + d2 >= 2.0 * _COMPILED_FROM and _kernels_ready()


def _tail(x: float, d1: float, d2: float, upper: bool) -> float:
    """:func:`tail_scalar`, compiled for large df."""
    if _compiled(d1, d2):
        from .kernels import numba_icc

        return float(numba_icc.tail(x, d1, d2, upper))
    return tail_scalar(x, d1, d2, upper)


@functools.lru_cache(maxsize=1024)
def _ppf_scalar(p: float, d1: float, d2: float) -> float:
    """:func:`quantile_scalar` of one quantile (nan outside its domain), compiled for large
    df."""
    if not (0.0 < p < 1.0 and d1 > 0 and d2 > 0):
        return math.nan
    d1, d2 = min(d1, 1e15), min(d2, 1e15)
    z_norm = norm_ppf(p)
    if _compiled(d1, d2):
        from .kernels import numba_icc

        return float(numba_icc.quantile(p, d1, d2, z_norm))
    return quantile_scalar(p, d1, d2, z_norm)


def f_sf(x: object, d1: object, d2: object) -> np.ndarray:
    """``P(F > x)`` for F with (d1, d2) degrees of freedom, broadcast over arrays.

    nan (or non-positive df) gives nan; accurate to relative rounding in the upper tail.
    """
    return _tails(x, d1, d2, upper=True)  # type: ignore[arg-type]


def f_cdf(x: object, d1: object, d2: object) -> np.ndarray:
    """``P(F <= x)`` for F with (d1, d2) degrees of freedom, broadcast over arrays."""
    return _tails(x, d1, d2, upper=False)  # type: ignore[arg-type]


def _density_log(x: np.ndarray, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """``log(x f(x))``, the density of ``log F`` at ``log x``."""
    a, b = d1 / 2.0, d2 / 2.0
    y = d1 * x / (d1 * x + d2)
    return _log_front(a, b, y)


def f_ppf(p: object, d1: object, d2: object) -> np.ndarray:
    """The quantile ``x`` with ``P(F <= x) = p`` (0 < p < 1), broadcast over arrays.

    Degrees of freedom may be non-integer (McGraw & Wong's approximate df) or ``inf``.
    """
    single = _single(p, d1, d2)
    if single is not None:  # one table's limit: one quantile
        (p_1, d1_1, d2_1), shape = single
        return np.full(shape, _ppf_scalar(p_1, d1_1, d2_1))
    p_a, d1_a, d2_a = np.broadcast_arrays(
        np.asarray(p, dtype=np.float64),
        np.asarray(d1, dtype=np.float64),
        np.asarray(d2, dtype=np.float64),
    )
    shape = p_a.shape
    p_a, d1_a, d2_a = p_a.ravel(), d1_a.ravel(), d2_a.ravel()
    if p_a.size <= _SCALAR_UP_TO:
        flat = [
            _ppf_scalar(float(p), float(q), float(r))
            for p, q, r in zip(p_a, d1_a, d2_a, strict=True)
        ]
        return np.array(flat, dtype=np.float64).reshape(shape)
    out = np.full(p_a.shape, np.nan)
    valid = (p_a > 0) & (p_a < 1) & (d1_a > 0) & (d2_a > 0)
    # Infinite df: the F quantile is a scaled chi-square quantile; replace inf by a df so
    # large that the difference is below rounding.
    d1_a = np.where(np.isinf(d1_a), 1e15, d1_a)
    d2_a = np.where(np.isinf(d2_a), 1e15, d2_a)
    if valid.any():
        out[valid] = _solve(p_a[valid], d1_a[valid], d2_a[valid])
    return out.reshape(shape)


def _solve(p: np.ndarray, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
    # Solve in z = log x for whichever tail is smaller (keeps relative accuracy in both tails).
    upper = p > 0.5
    target = np.where(upper, 1.0 - p, p)
    # Paulson's normal approximation of the cube root of F as the starting point.
    z_norm = np.array([norm_ppf(float(q)) for q in p])
    a1, a2 = 2.0 / (9.0 * d1), 2.0 / (9.0 * d2)
    spread = (1.0 - a1) ** 2 * a2 + (1.0 - a2) ** 2 * a1 - z_norm**2 * a1 * a2
    with np.errstate(invalid="ignore", divide="ignore"):
        root = ((1.0 - a1) * (1.0 - a2) + z_norm * np.sqrt(np.maximum(0.0, spread))) / (
            (1.0 - a2) ** 2 - z_norm**2 * a2
        )
    start = np.where(np.isfinite(root) & (root > 0), 3.0 * np.log(np.abs(root) + 1e-300), 0.0)
    # |log x| <= 600 keeps d1 x finite for any df up to 1e15.
    z = np.clip(start, -599.0, 599.0)
    low = np.full(p.shape, -600.0)
    high = np.full(p.shape, 600.0)

    for _ in range(100):
        x = np.exp(z)
        value = np.empty_like(z)
        if upper.any():
            value[upper] = _tails(x[upper], d1[upper], d2[upper], upper=True)
        if (~upper).any():
            value[~upper] = _tails(x[~upper], d1[~upper], d2[~upper], upper=False)
        # In z the upper tail decreases, the lower tail increases.
        too_far = np.where(upper, value < target, value > target) | np.isnan(value)
        high = np.where(too_far, z, high)
        low = np.where(too_far, low, z)
        slope = np.exp(_density_log(x, d1, d2))
        slope = np.where(upper, -slope, slope)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            newton = z - (value - target) / slope
        inside = np.isfinite(newton) & (newton >= low) & (newton <= high)
        new_z = np.where(inside, newton, 0.5 * (low + high))
        new_z = np.where(value == target, z, new_z)
        done = (np.abs(new_z - z) <= 1e-14 * np.maximum(1.0, np.abs(z))) | (value == target)
        z = new_z
        if done.all():
            break
    # A quantile beyond e^+-599 (df far below 1) is not representable: inf or 0.
    return np.where(z >= 599.0, np.inf, np.where(z <= -599.0, 0.0, np.exp(z)))
