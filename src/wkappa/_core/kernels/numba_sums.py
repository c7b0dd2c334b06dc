"""Fused one-pass numba kernels for quadratic weighted kappa.

Imported lazily (by :mod:`wkappa._core.fused`), never by ``import wkappa``: importing this module
imports numba, and each kernel is compiled on its first call for the dtypes it meets
(``cache=True`` keeps the machine code in ``__pycache__`` for later processes).

One pass over both rating arrays yields the minimum and maximum over both (range check), for
float input a count of bad entries (NaN, non-integer, too far out), and the five sums
``Σd_a, Σd_b, Σd_a², Σd_b², Σd_a·d_b`` of the *shifted* ratings ``d = x - s``. QWK is
translation invariant, so any shift ``s`` shared by both raters gives the same kappa.

Speed
-----
Every inner loop runs over array *slices* indexed from 0. Indexing with ``range(start, stop)``
instead makes numba keep its negative-index wraparound select on every load, which stops LLVM
from vectorising the loop.
16- to 64-bit ratings are summed in int64 lanes with ``d`` masked to 32 bits, so the squares
and products are unsigned 32 x 32 -> 64-bit vector multiplies (AVX2 has no 64-bit multiply);
8-bit and bool ratings use int32 lanes, eight to a 256-bit register.

Overflow bound (integer sums)
-----------------------------
Within a chunk of at most ``CHUNK = 2**14`` pairs, with every ``0 <= d <= MAX_INT_RANGE =
2**24``, every term ``d²`` or ``d_a·d_b`` is at most ``2**48`` and the chunk sum at most
``2**62 < 2**63``: int64 chunk sums are exact (and the 32-bit masking changes no ``d``). The
first pass shifts by ``s = a[0] - 2**23``, so it is exact whenever every rating lies within
``2**23`` of ``a[0]`` -- always when ``max - min <= 2**23``; the min/max of the pass tell, and
a range up to ``MAX_INT_RANGE`` that missed the window gets a second pass shifted by the
minimum. A wider range is left to the strict path (exact Python integers).

Chunk sums are added into accumulators split as ``hi * 2**32 + lo`` with ``0 <= lo < 2**32``:
adding ``|v| < 2**62`` to ``lo`` cannot overflow, and the carry ``lo >> 32`` moved into ``hi``
is below ``2**30`` per chunk, so ``hi`` -- also summed over blocks -- stays below ``2**63`` for
fewer than ``2**33`` chunks (``2**47`` ratings, far more than fits in memory); ``lo`` summed
over at most :data:`N_BLOCKS` blocks stays below ``2**38``. The Python caller forms
``(hi << 32) + lo`` as exact ints. 8-bit ratings have ``|d| <= 255`` (``s = a[0]``), so a
chunk sums at most ``2**14 * 65025 < 2**31``: their int32 lanes are exact.

For float inputs the chunk sums are accumulated in float64 and are exact while every partial
sum stays below ``2**53``: the pass counts any rating with ``|x - s| >= HALF = 2**19`` as bad
(the caller then declines; this also catches inf), so a chunk sum is below
``2**14 * 2**38 = 2**52``. Chunk sums are converted to int64 and carried as above.
``fastmath`` is limited to reassociation and contraction, which cannot change a sum of
integers below ``2**53``, and keeps NaN/inf semantics for the checks.

Determinism
-----------
Integer results are exact, so they are the same for the serial and the parallel driver and for
any thread count. Float sums (the sample-weighted kernel) use :data:`N_BLOCKS` contiguous
blocks of whole chunks, a cut that depends on n only; a block is summed by one thread in order
and the blocks are added in order, so those results too are bit-for-bit the same for any
``numba.set_num_threads``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ..compile_lock import locked_njit
from ..warmup import FAST_MIN, PARALLEL_MIN

__all__ = [
    "CHUNK",
    "MAX_FLOAT_RANGE",
    "MAX_INT_RANGE",
    "N_BLOCKS",
    "block_layout",
    "exact_totals",
    "float_sums",
    "int_sums_parallel",
    "int_sums_serial",
    "qwk_serial",
    "weighted_sums",
]

CHUNK = 1 << 14
N_BLOCKS = 64
MAX_INT_RANGE = 1 << 24
MAX_FLOAT_RANGE = (1 << 19) - 1
_LOW_MASK = (1 << 32) - 1
_HALF_RANGE = MAX_INT_RANGE // 2
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
# Float ratings within HALF of the shift are summed exactly in float64 (see _float_chunk).
_HALF = 1 << 19
_FAST = {"reassoc", "contract"}
# qwk_serial finishes kappa itself while n * (max - min) stays below 2**31 (see there).
_FINISH_SPAN = (1 << 31) - 1
_FLOAT_INT = 1 << 53
# Ratings this large are left to the strict path (the callers' bound, INT64_SAFE).
_HUGE = 1 << 62


@locked_njit(cache=True, nogil=True)
def _carry(acc, j, value):  # type: ignore[no-untyped-def]
    """acc[j] * 2**32 + acc[j + 5] += value, keeping 0 <= acc[j + 5] < 2**32."""
    low = acc[j + 5] + value
    acc[j] += low >> 32
    acc[j + 5] = low & _LOW_MASK


@locked_njit(cache=True, nogil=True)
def _wide_chunk(a, b, s):  # type: ignore[no-untyped-def]
    """(min, max, Σd_a, Σd_b, Σd_a², Σd_b², Σd_a·d_b) of one chunk of 16- to 64-bit ratings.

    ``d = (x - s) mod 2**32``: equal to ``x - s`` when ``s <= x <= s + MAX_INT_RANGE``, which
    the caller checks on the extremes. Masking to 32 bits lets the products run as unsigned
    32 x 32 -> 64-bit vector multiplies (AVX2 has no 64-bit one). ``a`` and ``b`` are slices
    indexed from 0, so the loop has no negative-index wraparound and vectorises.
    """
    lo = hi = np.int64(a[0])
    sa = sb = saa = sbb = sab = np.int64(0)
    for i in range(a.shape[0]):
        x = np.int64(a[i])
        y = np.int64(b[i])
        lo = min(lo, min(x, y))
        hi = max(hi, max(x, y))
        dx = (x - s) & _LOW_MASK
        dy = (y - s) & _LOW_MASK
        sa += dx
        sb += dy
        saa += dx * dx
        sbb += dy * dy
        sab += dx * dy
    return lo, hi, sa, sb, saa, sbb, sab


@locked_njit(cache=True, nogil=True)
def _narrow_chunk(a, b, s):  # type: ignore[no-untyped-def]
    """:func:`_wide_chunk` for 8-bit and bool ratings in int32 lanes (always exact).

    ``|d| <= 255``, so ``d² <= 65025`` and a chunk sum is at most ``2**14 * 65025 < 2**31``.
    """
    s32 = np.int32(s)
    lo = hi = np.int32(a[0])
    sa = sb = saa = sbb = sab = np.int32(0)
    for i in range(a.shape[0]):
        x = np.int32(a[i])
        y = np.int32(b[i])
        lo = min(lo, min(x, y))
        hi = max(hi, max(x, y))
        dx = np.int32(x - s32)
        dy = np.int32(y - s32)
        sa = np.int32(sa + dx)
        sb = np.int32(sb + dy)
        saa = np.int32(saa + np.int32(dx * dx))
        sbb = np.int32(sbb + np.int32(dy * dy))
        sab = np.int32(sab + np.int32(dx * dy))
    return (
        np.int64(lo),
        np.int64(hi),
        np.int64(sa),
        np.int64(sb),
        np.int64(saa),
        np.int64(sbb),
        np.int64(sab),
    )


@locked_njit(cache=True, nogil=True)
def _add_carry(hi, lo, value):  # type: ignore[no-untyped-def]
    """``hi * 2**32 + lo + value`` as a new ``(hi, lo)`` with ``0 <= lo < 2**32``."""
    low = lo + value
    return hi + (low >> 32), low & _LOW_MASK


@locked_njit(cache=True, nogil=True)
def _int_pass(a, b, s, narrow):  # type: ignore[no-untyped-def]
    """``(min, max, hi0..hi4, lo0..lo4)`` of integer ratings shifted by ``s``, chunk by chunk.

    Sum j is ``hi_j * 2**32 + lo_j``. Scalars only, nothing allocated: a small input costs
    one call and no array boxing. An empty block gives ``min > max`` and zero sums.
    """
    lo = np.int64(_INT64_MAX)
    hi = np.int64(_INT64_MIN)
    h0 = h1 = h2 = h3 = h4 = l0 = l1 = l2 = l3 = l4 = np.int64(0)
    for c0 in range(0, a.shape[0], CHUNK):
        xa = a[c0 : c0 + CHUNK]
        xb = b[c0 : c0 + CHUNK]
        r = _narrow_chunk(xa, xb, s) if narrow else _wide_chunk(xa, xb, s)
        lo = min(lo, r[0])
        hi = max(hi, r[1])
        h0, l0 = _add_carry(h0, l0, r[2])
        h1, l1 = _add_carry(h1, l1, r[3])
        h2, l2 = _add_carry(h2, l2, r[4])
        h3, l3 = _add_carry(h3, l3, r[5])
        h4, l4 = _add_carry(h4, l4, r[6])
    return lo, hi, h0, h1, h2, h3, h4, l0, l1, l2, l3, l4


@locked_njit(cache=True, nogil=True)
def _first_shift(a):  # type: ignore[no-untyped-def]
    """The shift of the first pass: ``a[0]`` for 8-bit ratings, else ``a[0] - MAX_INT_RANGE / 2``
    (saturated at the int64 minimum), which puts every rating within half the bound of
    ``a[0]`` inside the exact window ``s .. s + MAX_INT_RANGE``."""
    x = np.int64(a[0])
    if a.itemsize == 1:
        return x
    return x - _HALF_RANGE if x >= _INT64_MIN + _HALF_RANGE else _INT64_MIN


@locked_njit(cache=True, nogil=True)
def _within(lo, hi, s):  # type: ignore[no-untyped-def]
    """``s <= lo <= hi <= s + MAX_INT_RANGE``, without overflow (unsigned difference)."""
    return s <= lo and np.uint64(hi) - np.uint64(s) <= MAX_INT_RANGE


@locked_njit(cache=True, nogil=True)
def int_sums_serial(a, b):  # type: ignore[no-untyped-def]
    """``(exact, min, max, hi0..hi4, lo0..lo4)`` of two integer arrays, serially.

    The sums are exact (``exact`` is True) when ``max - min <= MAX_INT_RANGE``: one pass
    when every rating is in the first window (:func:`_first_shift`), else a second pass
    shifted by the minimum.
    """
    narrow = a.itemsize == 1
    s = _first_shift(a)
    r = _int_pass(a, b, s, narrow)
    if narrow or _within(r[0], r[1], s):
        return (True, *r)
    if not _within(r[0], r[1], r[0]):
        return (False, *r)
    return (True, *_int_pass(a, b, r[0], narrow))


@locked_njit(cache=True, nogil=True)
def qwk_serial(a, b):  # type: ignore[no-untyped-def]
    """Quadratic weighted kappa of two integer arrays of one dtype in one call, or ``inf``.

    The sums pass of :func:`int_sums_serial`, then the kappa itself: nothing but one float
    crosses into Python (the small-input route, where every object and frame costs about
    as much as the pass). Returns kappa, correctly rounded; nan when it is undefined
    (``den = 0``); ``inf`` when a longer route must answer: ``len(b) != len(a)``, fewer than
    :data:`~wkappa._core.warmup.FAST_MIN` or from :data:`~wkappa._core.warmup.PARALLEL_MIN`
    pairs on (the parallel kernels), a
    rating within ``2**62`` of the int64 limits, or ``n (max - min) >= 2**31``.

    Exactness: the sums of ``d = x - s`` are ``hi * 2**32 + lo``; taken modulo ``2**64``
    (int64 arithmetic wraps), re-centred on the minimum ``c`` they give the sums of
    ``x - c`` in ``0 .. R = max - min``, which fit int64, so they are exact. With
    ``n R < 2**31`` every product below is under ``2**62``, so

    ``num = 2 (n Σab - Σa Σb)`` and ``den = n (Σa² + Σb²) - 2 Σa Σb``

    are exact int64 values, the same integers for any shift (QWK is translation invariant)
    as :func:`wkappa._core.statistic.kappa_from_sums` forms. When both are at most ``2**53``
    in magnitude they are exact in float64 and one IEEE division is correctly rounded, as
    Python's ``int / int``; else ``inf``.
    """
    n = a.shape[0]
    if not FAST_MIN <= n < PARALLEL_MIN or b.shape[0] != n:
        return np.inf
    narrow = a.itemsize == 1
    s = _first_shift(a)
    r = _int_pass(a, b, s, narrow)
    low, high = r[0], r[1]
    if not (narrow or _within(low, high, s)) or low <= -_HUGE or high >= _HUGE:
        return np.inf
    if high - low > _FINISH_SPAN // n:
        return np.inf
    t = low - s
    nt = n * t
    ntt = nt * t
    ta = (r[2] << 32) + r[7]
    tb = (r[3] << 32) + r[8]
    sum_a = ta - nt
    sum_b = tb - nt
    sum_aa = (r[4] << 32) + r[9] - 2 * t * ta + ntt
    sum_bb = (r[5] << 32) + r[10] - 2 * t * tb + ntt
    sum_ab = (r[6] << 32) + r[11] - t * (ta + tb) + ntt
    num = 2 * (n * sum_ab - sum_a * sum_b)
    den = n * (sum_aa + sum_bb) - 2 * sum_a * sum_b
    if den <= 0:
        return np.nan
    if num > _FLOAT_INT or num < -_FLOAT_INT or den > _FLOAT_INT:
        return np.inf
    return np.float64(num) / np.float64(den)


@locked_njit(cache=True, nogil=True, parallel=True)
def _int_blocks(a, b, s, block_len, n_blocks):  # type: ignore[no-untyped-def]
    """:func:`_int_pass` over blocks in parallel, merged."""
    narrow = a.itemsize == 1
    out = np.empty((n_blocks, 12), dtype=np.int64)
    for k in prange(n_blocks):
        block = slice(k * block_len, (k + 1) * block_len)
        r = _int_pass(a[block], b[block], s, narrow)
        for j in range(12):
            out[k, j] = r[j]
    return _merge(out)


@locked_njit(cache=True, nogil=True)
def _merge(out):  # type: ignore[no-untyped-def]
    """Block rows ``(min, max, hi0..hi4, lo0..lo4)`` merged into one such tuple (serial: array
    expressions in a ``parallel=True`` function would each become a parfor to compile)."""
    lo = out[0, 0]
    hi = out[0, 1]
    t = np.zeros(10, dtype=np.int64)
    for k in range(out.shape[0]):
        lo = min(lo, out[k, 0])
        hi = max(hi, out[k, 1])
        # |Σ hi| < 2**63 and Σ lo < N_BLOCKS * 2**32 (see the module's overflow bound).
        for j in range(10):
            t[j] += out[k, 2 + j]
    return lo, hi, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]


@locked_njit(cache=True, nogil=True)
def int_sums_parallel(a, b, n_blocks, block_len):  # type: ignore[no-untyped-def]
    """:func:`int_sums_serial` with each pass cut into blocks run by the threads."""
    s = _first_shift(a)
    r = _int_blocks(a, b, s, block_len, n_blocks)
    if a.itemsize == 1 or _within(r[0], r[1], s):
        return (True, *r)
    if not _within(r[0], r[1], r[0]):
        return (False, *r)
    return (True, *_int_blocks(a, b, r[0], block_len, n_blocks))


@locked_njit(cache=True, nogil=True, fastmath=_FAST)
def _float_chunk(a, b, s):  # type: ignore[no-untyped-def]
    """One chunk of float (or mixed) ratings: (bad count, extremes of d, five float sums).

    A rating is bad if it is NaN or not an integer, or if ``|x - s| >= HALF`` (which also
    catches inf): such a d is replaced by 0 before the int32 conversion, so the conversion is
    always in range, and the caller declines the whole pass.
    """
    n_bad = 0
    lo = hi = np.int32(0)
    sa = sb = saa = sbb = sab = 0.0
    for i in range(a.shape[0]):
        x = np.float64(a[i])
        y = np.float64(b[i])
        dx = x - s
        dy = y - s
        near_x = abs(dx) < _HALF
        near_y = abs(dy) < _HALF
        n_bad += (x != np.floor(x)) + (y != np.floor(y)) + (not near_x) + (not near_y)
        dx = dx if near_x else 0.0
        dy = dy if near_y else 0.0
        ix = np.int32(dx)
        iy = np.int32(dy)
        lo = min(lo, min(ix, iy))
        hi = max(hi, max(ix, iy))
        sa += dx
        sb += dy
        saa += dx * dx
        sbb += dy * dy
        sab += dx * dy
    return n_bad, lo, hi, sa, sb, saa, sbb, sab


@locked_njit(cache=True, nogil=True)
def _float_block(a, b, s, out):  # type: ignore[no-untyped-def]
    """Float ratings, exact when every ``|x - s| < HALF``: ``out`` as in :func:`_int_block`
    plus the bad count in ``out[12]``.

    The extremes of d start at 0, the d of ``s = a[0]``: a rating of the data, so the extremes
    are those of the ratings.
    """
    out[:] = 0
    for c0 in range(0, a.shape[0], CHUNK):
        r = _float_chunk(a[c0 : c0 + CHUNK], b[c0 : c0 + CHUNK], s)
        out[12] += r[0]
        out[10] = min(out[10], np.int64(r[1]))
        out[11] = max(out[11], np.int64(r[2]))
        if r[0] == 0:
            _carry(out, 0, np.int64(r[3]))
            _carry(out, 1, np.int64(r[4]))
            _carry(out, 2, np.int64(r[5]))
            _carry(out, 3, np.int64(r[6]))
            _carry(out, 4, np.int64(r[7]))


@locked_njit(cache=True, nogil=True, fastmath=_FAST)
def _weighted_block(a, b, w, s, sums, ext, bad):  # type: ignore[no-untyped-def]
    lo = np.inf
    hi = -np.inf
    t0 = t1 = t2 = t3 = t4 = t5 = 0.0
    n_bad = 0
    for c0 in range(0, a.shape[0], CHUNK):
        xa = a[c0 : c0 + CHUNK]
        xb = b[c0 : c0 + CHUNK]
        xw = w[c0 : c0 + CHUNK]
        sw = swa = swb = swaa = swbb = swab = 0.0
        for i in range(xa.shape[0]):
            x = np.float64(xa[i])
            y = np.float64(xb[i])
            v = np.float64(xw[i])
            # a weight must be finite and >= 0: NaN fails both comparisons.
            n_bad += (x != np.floor(x)) + (y != np.floor(y)) + (not (v >= 0.0 and v < np.inf))
            lo = min(lo, min(x, y))
            hi = max(hi, max(x, y))
            dx = x - s
            dy = y - s
            wx = v * dx
            wy = v * dy
            sw += v
            swa += wx
            swb += wy
            swaa += wx * dx
            swbb += wy * dy
            swab += wx * dy
        t0 += sw
        t1 += swa
        t2 += swb
        t3 += swaa
        t4 += swbb
        t5 += swab
    sums[0] = t0
    sums[1] = t1
    sums[2] = t2
    sums[3] = t3
    sums[4] = t4
    sums[5] = t5
    ext[0] = lo
    ext[1] = hi
    bad[0] = n_bad


@locked_njit(cache=True, nogil=True)
def _float_serial(a, b, s, block_len, out):  # type: ignore[no-untyped-def]
    for k in range(out.shape[0]):
        start = k * block_len
        _float_block(a[start : start + block_len], b[start : start + block_len], s, out[k])


@locked_njit(cache=True, nogil=True, parallel=True)
def _float_parallel(a, b, s, block_len, out):  # type: ignore[no-untyped-def]
    for k in prange(out.shape[0]):
        start = k * block_len
        _float_block(a[start : start + block_len], b[start : start + block_len], s, out[k])


@locked_njit(cache=True, nogil=True)
def _weighted_serial(a, b, w, s, block_len, sums, ext, bad):  # type: ignore[no-untyped-def]
    for k in range(sums.shape[0]):
        block = slice(k * block_len, (k + 1) * block_len)
        _weighted_block(a[block], b[block], w[block], s, sums[k], ext[k], bad[k : k + 1])


@locked_njit(cache=True, nogil=True, parallel=True)
def _weighted_parallel(a, b, w, s, block_len, sums, ext, bad):  # type: ignore[no-untyped-def]
    for k in prange(sums.shape[0]):
        block = slice(k * block_len, (k + 1) * block_len)
        _weighted_block(a[block], b[block], w[block], s, sums[k], ext[k], bad[k : k + 1])


def block_layout(n: int) -> tuple[int, int]:
    """(number of blocks used, elements per block): whole chunks, independent of threads."""
    n_chunks = -(-n // CHUNK)
    chunks_per_block = -(-n_chunks // N_BLOCKS)
    block_len = chunks_per_block * CHUNK
    return -(-n // block_len), block_len


def exact_totals(r: tuple[Any, ...]) -> tuple[int, int, int, int, int] | None:
    """The five sums ``hi * 2**32 + lo`` as Python ints from a kernel's result tuple
    ``(exact, min, max, hi0..hi4, lo0..lo4)``, or None if not exact."""
    if not r[0]:
        return None
    return ((r[3] << 32) + r[8], (r[4] << 32) + r[9], (r[5] << 32) + r[10],
            (r[6] << 32) + r[11], (r[7] << 32) + r[12])  # fmt: skip


def float_sums(
    a: np.ndarray, b: np.ndarray, parallel: bool
) -> tuple[tuple[int, int, int, int, int] | None, float, float]:
    """Five exact shifted sums (as :func:`exact_totals` gives them) and the (min, max) over
    both of two arrays of which at least one is float.

    The sums are None if a rating is NaN or not an integer, or if one lies ``2**19`` or more
    from ``a[0]``; then the extremes are not meaningful either. Otherwise they are exact.
    """
    n_blocks, block_len = block_layout(a.shape[0])
    out = np.empty((n_blocks, 13), dtype=np.int64)
    s = np.float64(a[0])
    if not np.isfinite(s):
        s = np.float64(0.0)
    (_float_parallel if parallel else _float_serial)(a, b, s, block_len, out)
    if out[:, 12].any():
        return None, 0.0, 0.0
    # |Σ hi| < 2**63 and Σ lo < N_BLOCKS * 2**32 (see the module's overflow bound).
    hi_lo = out[:, :10].sum(axis=0).tolist()
    lo = float(s) + float(out[:, 10].min())
    hi = float(s) + float(out[:, 11].max())
    return exact_totals((True, lo, hi, *hi_lo)), lo, hi


def weighted_sums(
    a: np.ndarray, b: np.ndarray, w: np.ndarray, parallel: bool
) -> tuple[list[float], tuple[float, float], int]:
    """Sample-weighted sums ``Σw, Σw·d_a, Σw·d_b, Σw·d_a², Σw·d_b², Σw·d_a·d_b`` (float64).

    Ratings may be any integer, bool or float dtype, weights any real dtype (each element is
    converted to float64 on the fly). Also returns the (min, max) rating over both arrays and a
    bad count: NaN / non-integer ratings and negative, NaN or infinite weights.

    Precision: each chunk of :data:`CHUNK` pairs is summed in float64, chunks are added within
    a block and the :data:`N_BLOCKS` block totals in order, so the rounding error of a sum is
    about ``(CHUNK + n / CHUNK) * 2**-53`` relative to the sum of absolute terms: around
    ``1e-12`` for n = 1e8. The order is fixed by n alone, so results do not depend on the
    thread count.
    """
    n_blocks, block_len = block_layout(a.shape[0])
    sums = np.empty((n_blocks, 6), dtype=np.float64)
    ext = np.empty((n_blocks, 2), dtype=np.float64)
    bad = np.zeros(n_blocks, dtype=np.int64)
    s = np.float64(a[0])
    if not np.isfinite(s):
        s = np.float64(0.0)
    (_weighted_parallel if parallel else _weighted_serial)(a, b, w, s, block_len, sums, ext, bad)
    totals = [float(v) for v in sums.sum(axis=0).tolist()]
    return totals, (float(ext[:, 0].min()), float(ext[:, 1].max())), int(bad.sum())
