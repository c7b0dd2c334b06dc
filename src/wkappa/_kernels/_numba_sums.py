"""Fused one-pass numba kernels for quadratic weighted kappa (design §4).

Imported lazily (by :mod:`wkappa._fastpath`), never by ``import wkappa``: importing this module
imports numba, and each kernel is compiled on its first call for the dtypes it meets
(``cache=True`` keeps the machine code in ``__pycache__`` for later processes).

One pass over both rating arrays yields, per block of the data: the minimum and maximum of each
array (range check), a count of bad entries (NaN, non-integer floats, bad sample weights) and
the five sums ``Σd_a, Σd_b, Σd_a², Σd_b², Σd_a·d_b`` of the *shifted* ratings ``d = x - s``.
QWK is translation invariant, so any shift ``s`` shared by both raters gives the same kappa;
shifting by the first rating keeps the numbers small.

Determinism
-----------
The data are cut into :data:`N_BLOCKS` contiguous blocks of whole :data:`CHUNK`-sized chunks.
The cut depends on n only, never on the thread count; a block is summed by one thread in
order, so every result (integer or float) is the same for the serial and the parallel driver
and for any ``numba.set_num_threads``.

Overflow bound (integer sums)
-----------------------------
Let ``R = max - min`` over both arrays, so ``|d| <= R``. Within a chunk of at most
``CHUNK = 2**14`` elements, with ``R <= MAX_INT_RANGE = 2**24``, every term ``d²`` or
``d_a·d_b`` is at most ``2**48`` and the chunk sum at most ``2**62 < 2**63``: int64 chunk sums
are exact. Chunk sums are added into a block accumulator split as ``hi * 2**32 + lo`` with
``0 <= lo < 2**32``: adding ``|v| < 2**62`` to ``lo`` cannot overflow, and the carry
``lo >> 32`` moved into ``hi`` is below ``2**30`` per chunk, so ``hi`` stays below ``2**63``
for fewer than ``2**33`` chunks (``2**47`` ratings, far more than fits in memory). The caller
adds the ``hi`` and ``lo`` columns as Python ints. If ``R`` turns out larger than the bound,
the sums may have wrapped; the caller sees ``R`` and discards them (exact slow path).

Integer kernels take a faster lane when they can. 8-bit and bool ratings have ``|d| <= 255``,
so ``d² <= 65025`` and a chunk sums at most ``2**14 * 65025 < 2**31``: int32 lanes are exact.
Wider integers first try each chunk with ``d`` truncated to int32 and float64 sums, which are
exact when every ``|d| < HALF = 2**19`` (partial sums below ``2**14 * 2**38 = 2**52 < 2**53``);
the pass checks that bound (an OR of ``d + HALF`` over the chunk) and redoes a chunk that
breaks it in exact int64 from cache.

For float inputs the chunk sums are accumulated in float64 and are exact while every partial
sum stays below ``2**53``: the pass counts any rating with ``|x - s| >= HALF`` as bad (the
caller then declines; this also bounds ``R <= MAX_FLOAT_RANGE = 2**19 - 1``), so a chunk sum
is below ``2**14 * 2**38 = 2**52``. Chunk sums are converted to int64 and carried as above.
``fastmath`` is limited to reassociation and contraction, which cannot change a sum of
integers below ``2**53``, and keeps NaN/inf semantics for the checks.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = [
    "CHUNK",
    "MAX_FLOAT_RANGE",
    "MAX_INT_RANGE",
    "N_BLOCKS",
    "float_sums",
    "int_sums",
    "weighted_sums",
]

CHUNK = 1 << 14
N_BLOCKS = 64
MAX_INT_RANGE = 1 << 24
MAX_FLOAT_RANGE = (1 << 19) - 1
_LOW_MASK = (1 << 32) - 1
# Ratings within HALF of the shift take the int32 / float64 fast lane (see _wide_fast_chunk).
_HALF = 1 << 19
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True)
def _carry(acc, j, value):  # type: ignore[no-untyped-def]
    """acc[j + 5] * 1 + acc[j] * 2**32 += value, keeping 0 <= acc[j + 5] < 2**32."""
    low = acc[j + 5] + value
    acc[j] += low >> 32
    acc[j + 5] = low & _LOW_MASK


@njit(cache=True, nogil=True, fastmath=_FAST)
def _wide_fast_chunk(a, b, c0, c1, s):  # type: ignore[no-untyped-def]
    """One chunk of 16- to 64-bit ratings in int32 lanes and float64 sums.

    Valid only if every ``d = x - s`` is in ``[-HALF, HALF)``, which the returned flag tells:
    then the int32 truncation is exact and every float64 partial sum is an integer below
    ``CHUNK * HALF**2 = 2**52``, exact in any order of addition.
    """
    over = np.int64(0)
    amin = amax = np.int32(np.int64(a[c0]) - s)
    bmin = bmax = np.int32(np.int64(b[c0]) - s)
    sa = sb = saa = sbb = sab = 0.0
    for i in range(c0, c1):
        dx = np.int64(a[i]) - s
        dy = np.int64(b[i]) - s
        over |= (dx + _HALF) | (dy + _HALF)  # in [0, 2*HALF) for every i iff all in range
        x = np.int32(dx)
        y = np.int32(dy)
        amin = min(amin, x)
        amax = max(amax, x)
        bmin = min(bmin, y)
        bmax = max(bmax, y)
        fx = np.float64(x)
        fy = np.float64(y)
        sa += fx
        sb += fy
        saa += fx * fx
        sbb += fy * fy
        sab += fx * fy
    ok = over >= 0 and over < 2 * _HALF
    return (
        ok,
        s + amin,
        s + amax,
        s + bmin,
        s + bmax,
        np.int64(sa) if ok else np.int64(0),
        np.int64(sb) if ok else np.int64(0),
        np.int64(saa) if ok else np.int64(0),
        np.int64(sbb) if ok else np.int64(0),
        np.int64(sab) if ok else np.int64(0),
    )


@njit(cache=True, nogil=True)
def _wide_exact_chunk(a, b, c0, c1, s):  # type: ignore[no-untyped-def]
    """One chunk in int64: exact while the range is at most MAX_INT_RANGE (module notes)."""
    amin = amax = a[c0]
    bmin = bmax = b[c0]
    sa = sb = saa = sbb = sab = np.int64(0)
    for i in range(c0, c1):
        x = a[i]
        y = b[i]
        amin = min(amin, x)
        amax = max(amax, x)
        bmin = min(bmin, y)
        bmax = max(bmax, y)
        dx = np.int64(x) - s
        dy = np.int64(y) - s
        sa += dx
        sb += dy
        saa += dx * dx
        sbb += dy * dy
        sab += dx * dy
    return (
        np.int64(amin),
        np.int64(amax),
        np.int64(bmin),
        np.int64(bmax),
        sa,
        sb,
        saa,
        sbb,
        sab,
    )


@njit(cache=True, nogil=True)
def _wide_block(a, b, start, stop, s, out):  # type: ignore[no-untyped-def]
    out[:] = 0
    out[10] = out[11] = np.int64(a[start])
    out[12] = out[13] = np.int64(b[start])
    for c0 in range(start, stop, CHUNK):
        c1 = min(c0 + CHUNK, stop)
        r = _wide_fast_chunk(a, b, c0, c1, s)
        if r[0]:
            xmin, xmax, ymin, ymax, sa, sb, saa, sbb, sab = r[1:]
        else:  # a rating far from s: redo this chunk (from cache) in exact int64
            xmin, xmax, ymin, ymax, sa, sb, saa, sbb, sab = _wide_exact_chunk(a, b, c0, c1, s)
        out[10] = min(out[10], xmin)
        out[11] = max(out[11], xmax)
        out[12] = min(out[12], ymin)
        out[13] = max(out[13], ymax)
        _carry(out, 0, sa)
        _carry(out, 1, sb)
        _carry(out, 2, saa)
        _carry(out, 3, sbb)
        _carry(out, 4, sab)


@njit(cache=True, nogil=True)
def _small_block(a, b, start, stop, s, out):  # type: ignore[no-untyped-def]
    """8-bit and bool ratings: |d| <= 255, so d² <= 65025 and a chunk sum of at most
    ``2**14 * 65025 < 2**31`` terms fits int32 lanes exactly."""
    out[:] = 0
    s32 = np.int32(s)
    amin = amax = np.int32(a[start])
    bmin = bmax = np.int32(b[start])
    for c0 in range(start, stop, CHUNK):
        c1 = min(c0 + CHUNK, stop)
        sa = sb = saa = sbb = sab = np.int32(0)
        for i in range(c0, c1):
            x = np.int32(a[i])
            y = np.int32(b[i])
            amin = min(amin, x)
            amax = max(amax, x)
            bmin = min(bmin, y)
            bmax = max(bmax, y)
            dx = np.int32(x - s32)
            dy = np.int32(y - s32)
            sa = np.int32(sa + dx)
            sb = np.int32(sb + dy)
            saa = np.int32(saa + np.int32(dx * dx))
            sbb = np.int32(sbb + np.int32(dy * dy))
            sab = np.int32(sab + np.int32(dx * dy))
        _carry(out, 0, np.int64(sa))
        _carry(out, 1, np.int64(sb))
        _carry(out, 2, np.int64(saa))
        _carry(out, 3, np.int64(sbb))
        _carry(out, 4, np.int64(sab))
    out[10] = amin
    out[11] = amax
    out[12] = bmin
    out[13] = bmax


@njit(cache=True, nogil=True)
def _merge(out):  # type: ignore[no-untyped-def]
    """Totals over blocks: (min_a, max_a, min_b, max_b, hi0..hi4, lo0..lo4)."""
    # |Σ hi| < 2**63 and Σ lo < N_BLOCKS * 2**32 (see the module's overflow bound).
    total = out.sum(axis=0)
    return (
        out[:, 10].min(),
        out[:, 11].max(),
        out[:, 12].min(),
        out[:, 13].max(),
        total[0],
        total[1],
        total[2],
        total[3],
        total[4],
        total[5],
        total[6],
        total[7],
        total[8],
        total[9],
    )


@njit(cache=True, nogil=True)
def _wide_serial(a, b, s, block_len, n_blocks):  # type: ignore[no-untyped-def]
    out = np.empty((n_blocks, 14), dtype=np.int64)
    for k in range(n_blocks):
        _wide_block(a, b, k * block_len, min((k + 1) * block_len, a.shape[0]), s, out[k])
    return _merge(out)


@njit(cache=True, nogil=True, parallel=True)
def _wide_parallel(a, b, s, block_len, n_blocks):  # type: ignore[no-untyped-def]
    out = np.empty((n_blocks, 14), dtype=np.int64)
    for k in prange(n_blocks):
        _wide_block(a, b, k * block_len, min((k + 1) * block_len, a.shape[0]), s, out[k])
    return _merge(out)


@njit(cache=True, nogil=True)
def _small_serial(a, b, s, block_len, n_blocks):  # type: ignore[no-untyped-def]
    out = np.empty((n_blocks, 14), dtype=np.int64)
    for k in range(n_blocks):
        _small_block(a, b, k * block_len, min((k + 1) * block_len, a.shape[0]), s, out[k])
    return _merge(out)


@njit(cache=True, nogil=True, parallel=True)
def _small_parallel(a, b, s, block_len, n_blocks):  # type: ignore[no-untyped-def]
    out = np.empty((n_blocks, 14), dtype=np.int64)
    for k in prange(n_blocks):
        _small_block(a, b, k * block_len, min((k + 1) * block_len, a.shape[0]), s, out[k])
    return _merge(out)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _float_chunk(a, b, c0, c1, s):  # type: ignore[no-untyped-def]
    """One chunk of float (or mixed) ratings: (bad count, extremes of d, five float sums).

    A rating is bad if it is NaN or not an integer, or if ``|x - s| >= HALF`` (which also
    catches inf): such a d is replaced by 0 before the int32 conversion, so the conversion is
    always in range, and the caller declines the whole pass.
    """
    n_bad = 0
    amin = amax = bmin = bmax = np.int32(0)
    sa = sb = saa = sbb = sab = 0.0
    for i in range(c0, c1):
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
        amin = min(amin, ix)
        amax = max(amax, ix)
        bmin = min(bmin, iy)
        bmax = max(bmax, iy)
        sa += dx
        sb += dy
        saa += dx * dx
        sbb += dy * dy
        sab += dx * dy
    return n_bad, amin, amax, bmin, bmax, sa, sb, saa, sbb, sab


@njit(cache=True, nogil=True)
def _float_block(a, b, start, stop, s, sums, ext, bad):  # type: ignore[no-untyped-def]
    """Float ratings, exact when every ``|x - s| < HALF``.

    The extremes of d start at 0, the d of ``s = a[0]``: a rating of the data, so the extremes
    over *both* arrays, the only ones the caller uses, are exact.
    """
    acc = np.zeros(10, dtype=np.int64)
    amin = amax = bmin = bmax = np.int64(0)
    n_bad = 0
    for c0 in range(start, stop, CHUNK):
        r = _float_chunk(a, b, c0, min(c0 + CHUNK, stop), s)
        n_bad += r[0]
        amin = min(amin, np.int64(r[1]))
        amax = max(amax, np.int64(r[2]))
        bmin = min(bmin, np.int64(r[3]))
        bmax = max(bmax, np.int64(r[4]))
        if r[0] == 0:
            _carry(acc, 0, np.int64(r[5]))
            _carry(acc, 1, np.int64(r[6]))
            _carry(acc, 2, np.int64(r[7]))
            _carry(acc, 3, np.int64(r[8]))
            _carry(acc, 4, np.int64(r[9]))
    sums[:] = acc
    ext[0] = s + amin
    ext[1] = s + amax
    ext[2] = s + bmin
    ext[3] = s + bmax
    bad[0] = n_bad


@njit(cache=True, nogil=True, fastmath=_FAST)
def _weighted_block(a, b, w, start, stop, s, sums, ext, bad):  # type: ignore[no-untyped-def]
    amin = amax = np.float64(a[start])
    bmin = bmax = np.float64(b[start])
    t0 = t1 = t2 = t3 = t4 = t5 = 0.0
    n_bad = 0
    for c0 in range(start, stop, CHUNK):
        c1 = min(c0 + CHUNK, stop)
        sw = swa = swb = swaa = swbb = swab = 0.0
        for i in range(c0, c1):
            x = np.float64(a[i])
            y = np.float64(b[i])
            v = np.float64(w[i])
            # a weight must be finite and >= 0: NaN fails both comparisons.
            n_bad += (x != np.floor(x)) + (y != np.floor(y)) + (not (v >= 0.0 and v < np.inf))
            amin = min(amin, x)
            amax = max(amax, x)
            bmin = min(bmin, y)
            bmax = max(bmax, y)
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
    ext[0] = amin
    ext[1] = amax
    ext[2] = bmin
    ext[3] = bmax
    bad[0] = n_bad


@njit(cache=True, nogil=True)
def _float_serial(a, b, s, block_len, sums, ext, bad):  # type: ignore[no-untyped-def]
    n = a.shape[0]
    for k in range(sums.shape[0]):
        start = k * block_len
        stop = min(start + block_len, n)
        if start < stop:
            _float_block(a, b, start, stop, s, sums[k], ext[k], bad[k : k + 1])


@njit(cache=True, nogil=True, parallel=True)
def _float_parallel(a, b, s, block_len, sums, ext, bad):  # type: ignore[no-untyped-def]
    n = a.shape[0]
    for k in prange(sums.shape[0]):
        start = k * block_len
        stop = min(start + block_len, n)
        if start < stop:
            _float_block(a, b, start, stop, s, sums[k], ext[k], bad[k : k + 1])


@njit(cache=True, nogil=True)
def _weighted_serial(a, b, w, s, block_len, sums, ext, bad):  # type: ignore[no-untyped-def]
    n = a.shape[0]
    for k in range(sums.shape[0]):
        start = k * block_len
        stop = min(start + block_len, n)
        if start < stop:
            _weighted_block(a, b, w, start, stop, s, sums[k], ext[k], bad[k : k + 1])


@njit(cache=True, nogil=True, parallel=True)
def _weighted_parallel(a, b, w, s, block_len, sums, ext, bad):  # type: ignore[no-untyped-def]
    n = a.shape[0]
    for k in prange(sums.shape[0]):
        start = k * block_len
        stop = min(start + block_len, n)
        if start < stop:
            _weighted_block(a, b, w, start, stop, s, sums[k], ext[k], bad[k : k + 1])


def block_layout(n: int) -> tuple[int, int]:
    """(number of blocks used, elements per block): whole chunks, independent of threads."""
    n_chunks = -(-n // CHUNK)
    chunks_per_block = -(-n_chunks // N_BLOCKS)
    block_len = chunks_per_block * CHUNK
    return -(-n // block_len), block_len


def _exact_totals(sums: np.ndarray) -> list[int]:
    """Σ over blocks of ``hi * 2**32 + lo`` per sum, as exact Python ints."""
    # |Σ hi| < 2**63 and Σ lo < N_BLOCKS * 2**32 (see the module's overflow bound).
    hi = sums[:, :5].sum(axis=0)
    lo = sums[:, 5:].sum(axis=0)
    return [(int(h) << 32) + int(v) for h, v in zip(hi.tolist(), lo.tolist(), strict=True)]


def int_sums(
    a: np.ndarray, b: np.ndarray, parallel: bool
) -> tuple[list[int], tuple[int, int, int, int]]:
    """Five exact shifted sums and ``(min_a, max_a, min_b, max_b)`` of two integer arrays.

    ``a`` and ``b`` are 1-D, C-contiguous, of equal length n >= 1 and one integer or bool
    dtype; uint64 values must be below ``2**63`` (the caller checks). The sums are of
    ``x - a[0]``; they are exact only if ``max - min`` over both arrays is at most
    :data:`MAX_INT_RANGE`, which the caller must check.
    """
    n_blocks, block_len = block_layout(a.shape[0])
    small = a.dtype.itemsize == 1
    if small:
        driver = _small_parallel if parallel else _small_serial
    else:
        driver = _wide_parallel if parallel else _wide_serial
    r = driver(a, b, np.int64(a[0]), block_len, n_blocks)
    sums = [(int(r[4 + j]) << 32) + int(r[9 + j]) for j in range(5)]
    return sums, (int(r[0]), int(r[1]), int(r[2]), int(r[3]))


def float_sums(
    a: np.ndarray, b: np.ndarray, parallel: bool
) -> tuple[list[int], tuple[float, float, float, float], int]:
    """Like :func:`int_sums` for arrays of which at least one is float; also a bad count.

    The bad count is the number of NaN or non-integer entries (plus chunks whose float sums
    left the exact range); the sums are meaningful only if it is 0 and ``max - min`` is at
    most :data:`MAX_FLOAT_RANGE`.
    """
    n_blocks, block_len = block_layout(a.shape[0])
    sums = np.empty((n_blocks, 10), dtype=np.int64)
    ext = np.empty((n_blocks, 4), dtype=np.float64)
    bad = np.zeros(n_blocks, dtype=np.int64)
    s = np.float64(a[0])
    if not np.isfinite(s):
        s = np.float64(0.0)
    (_float_parallel if parallel else _float_serial)(a, b, s, block_len, sums, ext, bad)
    extremes = (
        float(ext[:, 0].min()),
        float(ext[:, 1].max()),
        float(ext[:, 2].min()),
        float(ext[:, 3].max()),
    )
    return _exact_totals(sums), extremes, int(bad.sum())


def weighted_sums(
    a: np.ndarray, b: np.ndarray, w: np.ndarray, parallel: bool
) -> tuple[list[float], tuple[float, float, float, float], int]:
    """Sample-weighted sums ``Σw, Σw·d_a, Σw·d_b, Σw·d_a², Σw·d_b², Σw·d_a·d_b`` (float64).

    Ratings may be any integer, bool or float dtype, weights any real dtype (each element is
    converted to float64 on the fly). The bad count covers NaN / non-integer ratings and
    negative, NaN or infinite weights.

    Precision: each chunk of :data:`CHUNK` pairs is summed in float64, chunks are added within
    a block and the :data:`N_BLOCKS` block totals in order, so the rounding error of a sum is
    about ``(CHUNK + n / CHUNK) * 2**-53`` relative to the sum of absolute terms: around
    ``1e-12`` for n = 1e8. The order is fixed by n alone, so results do not depend on the
    thread count.
    """
    n_blocks, block_len = block_layout(a.shape[0])
    sums = np.empty((n_blocks, 6), dtype=np.float64)
    ext = np.empty((n_blocks, 4), dtype=np.float64)
    bad = np.zeros(n_blocks, dtype=np.int64)
    s = np.float64(a[0])
    if not np.isfinite(s):
        s = np.float64(0.0)
    (_weighted_parallel if parallel else _weighted_serial)(a, b, w, s, block_len, sums, ext, bad)
    totals = [float(v) for v in sums.sum(axis=0).tolist()]
    extremes = (
        float(ext[:, 0].min()),
        float(ext[:, 1].max()),
        float(ext[:, 2].min()),
        float(ext[:, 3].max()),
    )
    return totals, extremes, int(bad.sum())
