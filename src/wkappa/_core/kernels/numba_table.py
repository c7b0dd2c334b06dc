"""Parallel numba confusion-table kernels, imported lazily.

Each block of the data is counted by one thread into its own private table, so threads never
share a cache line. For small K a block keeps several interleaved sub-tables (pair i goes to
sub-table ``i % 4``): consecutive pairs that hit the same cell then update different memory,
which avoids the store-to-load forwarding stall of ``t[c] += 1; t[c] += 1``. The private
tables are added at the end.

Ratings are counted from the raw arrays (any integer, bool or float dtype, converted per
element), with cell ``(a - lo) * K + (b - lo)``: the caller has already checked, in the fused
range pass, that every rating is an integer in ``lo .. lo + K - 1``.

Unweighted counts are integers, so the result is the same for any split and thread count.
Weighted counts (float64) use a fixed number of blocks, :data:`WEIGHTED_BLOCKS`, independent of
the thread count, summed in order, so they too are identical for any thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..compile_lock import locked_njit
from ..warmup import FAST_MIN, PARALLEL_MIN

__all__ = [
    "WEIGHTED_BLOCKS",
    "guess_range",
    "guessed_serial",
    "serial_table_kappa",
    "table_counts",
    "table_counts_guessed",
    "table_weighted",
]

WEIGHTED_BLOCKS = 8
# Above this many cells per private table, count serially into one table (memory, and a large
# table gains little from splitting anyway).
_PARALLEL_MAX_CELLS = 1 << 18
_SUBTABLE_MAX_K = 16
_SMALL_TABLE_CELLS = 1 << 14
# Pairs whose cells _checked_cells_block computes before it counts them (a 2 KB buffer).
_PIECE = 1 << 11


@locked_njit(cache=True, nogil=True)
def _count_block(a, b, lo, k, tables):  # type: ignore[no-untyped-def]
    """Count one block (``a``, ``b``: slices indexed from 0, so no negative-index checks)."""
    stop = a.shape[0]
    if tables.shape[0] == 4:
        i = 0
        while i + 4 <= stop:
            tables[0, (np.int64(a[i]) - lo) * k + (np.int64(b[i]) - lo)] += 1
            tables[1, (np.int64(a[i + 1]) - lo) * k + (np.int64(b[i + 1]) - lo)] += 1
            tables[2, (np.int64(a[i + 2]) - lo) * k + (np.int64(b[i + 2]) - lo)] += 1
            tables[3, (np.int64(a[i + 3]) - lo) * k + (np.int64(b[i + 3]) - lo)] += 1
            i += 4
        for j in range(i, stop):
            tables[0, (np.int64(a[j]) - lo) * k + (np.int64(b[j]) - lo)] += 1
    else:
        for j in range(stop):
            tables[0, (np.int64(a[j]) - lo) * k + (np.int64(b[j]) - lo)] += 1


@locked_njit(cache=True, nogil=True, parallel=True)
def _count_parallel(a, b, lo, k, block_len, tables):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        _count_block(a[block], b[block], lo, k, tables[blk])


@locked_njit(cache=True, nogil=True)
def _count_serial(a, b, lo, k, tables):  # type: ignore[no-untyped-def]
    _count_block(a, b, lo, k, tables[0])


@locked_njit(cache=True, nogil=True)
def _checked_block(a, b, lo, k, tables, misses):  # type: ignore[no-untyped-def]
    """Count integer ratings whose range is only a guess: a rating outside ``lo..lo+K-1`` is
    not counted but tallied in ``misses`` (the caller then takes the two-pass route)."""
    mask = tables.shape[0] - 1  # 1 or 4 sub-tables
    n_miss = 0
    for j in range(a.shape[0]):
        ca = np.int64(a[j]) - lo
        cb = np.int64(b[j]) - lo
        if ca < 0 or ca >= k or cb < 0 or cb >= k:
            n_miss += 1
        else:
            tables[j & mask, ca * k + cb] += 1
    misses[0] = n_miss


@locked_njit(cache=True, nogil=True)
def _checked_cells_block(a, b, lo, k, tables, misses):  # type: ignore[no-untyped-def]
    """:func:`_checked_block` for ``K <= 16`` (four sub-tables of at most 256 cells), in two
    loops per piece of :data:`_PIECE` pairs.

    The first computes the cells into a byte buffer and the largest of ``a - lo`` and ``b - lo``
    taken unsigned (a rating below ``lo`` wraps to a huge value); it has no stores to the
    tables, so it vectorises. When that largest is below K, every pair of the piece is in range
    and the second loop adds the cells to the sub-tables in turn (pair j to sub-table
    ``j % 4``); else the piece's out-of-range pairs are tallied in ``misses`` and nothing of it
    is counted (the caller discards the tables when anything is tallied).
    """
    uk = np.uint64(k)
    cells = np.empty(_PIECE, dtype=np.uint8)
    t0 = tables[0]
    t1 = tables[1]
    t2 = tables[2]
    t3 = tables[3]
    n_miss = 0
    for start in range(0, a.shape[0], _PIECE):
        xa = a[start : start + _PIECE]
        xb = b[start : start + _PIECE]
        m = xa.shape[0]
        top = np.uint64(0)
        for j in range(m):
            ca = np.uint64(np.int64(xa[j]) - lo)
            cb = np.uint64(np.int64(xb[j]) - lo)
            top = max(top, max(ca, cb))
            cells[j] = np.uint8(ca * uk + cb)
        if top >= uk:
            for j in range(m):
                ca = np.uint64(np.int64(xa[j]) - lo)
                cb = np.uint64(np.int64(xb[j]) - lo)
                n_miss += max(ca, cb) >= uk
            continue
        j = 0
        while j + 4 <= m:
            t0[cells[j]] += 1
            t1[cells[j + 1]] += 1
            t2[cells[j + 2]] += 1
            t3[cells[j + 3]] += 1
            j += 4
        for i in range(j, m):
            t0[cells[i]] += 1
    misses[0] = n_miss


@locked_njit(cache=True, nogil=True, parallel=True)
def _cells_parallel(a, b, lo, k, block_len, tables, misses):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        _checked_cells_block(a[block], b[block], lo, k, tables[blk], misses[blk : blk + 1])


@locked_njit(cache=True, nogil=True, parallel=True)
def _checked_parallel(a, b, lo, k, block_len, tables, misses):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        _checked_block(a[block], b[block], lo, k, tables[blk], misses[blk : blk + 1])


@locked_njit(cache=True, nogil=True)
def _checked_serial(a, b, lo, k, n_sub, check):  # type: ignore[no-untyped-def]
    """The summed table and the miss count in one call (small inputs: no numpy overhead);
    ``check=False`` when every rating is known to be within ``lo..lo+K-1``."""
    tables = np.zeros((n_sub, k * k), dtype=np.int64)
    misses = np.zeros(1, dtype=np.int64)
    if check:
        _checked_block(a, b, lo, k, tables, misses)
    else:
        _count_block(a, b, lo, k, tables)
    total = tables[0].copy()
    for sub in range(1, n_sub):
        total += tables[sub]
    return total, misses[0]


@locked_njit(cache=True, nogil=True)
def guess_range(a, b, m):  # type: ignore[no-untyped-def]
    """(min, max) over the first ``m`` >= 1 ratings of both arrays, in their dtype."""
    lo = min(a[0], b[0])
    hi = max(a[0], b[0])
    for j in range(m):
        x = a[j]
        y = b[j]
        if x < lo:
            lo = x
        if x > hi:
            hi = x
        if y < lo:
            lo = y
        if y > hi:
            hi = y
    return lo, hi


@locked_njit(cache=True, nogil=True)
def guessed_serial(a, b, m, max_k, huge):  # type: ignore[no-untyped-def]
    """Small inputs in one call: range guess and checked table.

    For signed or narrow unsigned integer ratings. Returns ``(lo, hi, table, misses)``: the
    (min, max) of the first ``m`` pairs of both arrays, the flat (K*K,) counts with
    ``K = hi - lo + 1`` and the number of ratings outside ``lo..hi`` (-1 and nothing counted
    when ``|lo|`` or ``|hi|`` reaches ``huge`` or K exceeds ``max_k``). One dispatch instead of
    two: after other code has run, each call into numba costs several microseconds on its own.
    """
    first, last = guess_range(a, b, m)
    lo = np.int64(first)
    hi = np.int64(last)
    if lo <= -huge or hi >= huge or hi - lo + 1 > max_k:
        return lo, hi, np.zeros(0, dtype=np.int64), np.int64(-1)
    k = hi - lo + 1
    n_sub = 4 if k <= _SUBTABLE_MAX_K else 1
    # When the guess read every pair, each rating is within lo..hi: nothing to check.
    total, n_miss = _checked_serial(a, b, lo, k, n_sub, m < a.shape[0])
    return lo, hi, total, n_miss


@locked_njit(cache=True, nogil=True)
def _weighted_block(a, b, w, lo, k, tables, bad):  # type: ignore[no-untyped-def]
    n_bad = 0
    mask = tables.shape[0] - 1  # 1 or 4 sub-tables
    for j in range(a.shape[0]):
        v = np.float64(w[j])
        # a weight must be finite and >= 0 (NaN fails both comparisons)
        n_bad += not (v >= 0.0 and v < np.inf)
        tables[j & mask, (np.int64(a[j]) - lo) * k + (np.int64(b[j]) - lo)] += v
    bad[0] = n_bad


@locked_njit(cache=True, nogil=True, inline="always")
def _weighted_checked_pair(a, b, w, j, lo, k, mask, cells, flat):  # type: ignore[no-untyped-def]
    """Add pair ``j`` to sub-table ``j & mask``; 1 if it is not counted (bad weight or a
    rating outside ``lo..lo+K-1``: unsigned ``c < K`` tests both ends), else 0."""
    v = np.float64(w[j])
    ca = np.uint64(np.int64(a[j]) - lo)
    cb = np.uint64(np.int64(b[j]) - lo)
    uk = np.uint64(k)
    if (ca < uk) & (cb < uk) & (v >= 0.0) & (v < np.inf):  # NaN fails both weight tests
        flat[np.uint64((j & mask) * cells) + ca * uk + cb] += v
        return 0
    return 1


@locked_njit(cache=True, nogil=True)
def _weighted_checked_block(a, b, w, lo, k, tables, bad):  # type: ignore[no-untyped-def]
    """:func:`_weighted_block` with the range unchecked: a rating outside ``lo..lo+K-1`` is
    not counted but tallied in ``bad`` with the bad weights. Counted pairs are added exactly as
    :func:`_weighted_block` adds them (pair j to sub-table ``j & mask``, in order), so with
    nothing tallied the tables are the same. Unrolled by four: independent pairs in flight."""
    n_bad = 0
    mask = tables.shape[0] - 1
    cells = k * k
    flat = tables.reshape(-1)
    stop = a.shape[0]
    j = 0
    while j + 4 <= stop:
        n_bad += _weighted_checked_pair(a, b, w, j, lo, k, mask, cells, flat)
        n_bad += _weighted_checked_pair(a, b, w, j + 1, lo, k, mask, cells, flat)
        n_bad += _weighted_checked_pair(a, b, w, j + 2, lo, k, mask, cells, flat)
        n_bad += _weighted_checked_pair(a, b, w, j + 3, lo, k, mask, cells, flat)
        j += 4
    for i in range(j, stop):
        n_bad += _weighted_checked_pair(a, b, w, i, lo, k, mask, cells, flat)
    bad[0] = n_bad


@locked_njit(cache=True, nogil=True, parallel=True)
def _weighted_checked_parallel(a, b, w, lo, k, block_len, tables, bad):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        blk_bad = bad[blk : blk + 1]
        _weighted_checked_block(a[block], b[block], w[block], lo, k, tables[blk], blk_bad)


@locked_njit(cache=True, nogil=True)
def _weighted_checked_serial(a, b, w, lo, k, block_len, tables, bad):  # type: ignore[no-untyped-def]
    for blk in range(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        blk_bad = bad[blk : blk + 1]
        _weighted_checked_block(a[block], b[block], w[block], lo, k, tables[blk], blk_bad)


@locked_njit(cache=True, nogil=True, parallel=True)
def _weighted_parallel(a, b, w, lo, k, block_len, tables, bad):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        _weighted_block(a[block], b[block], w[block], lo, k, tables[blk], bad[blk : blk + 1])


@locked_njit(cache=True, nogil=True)
def _weighted_serial(a, b, w, lo, k, block_len, tables, bad):  # type: ignore[no-untyped-def]
    for blk in range(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        _weighted_block(a[block], b[block], w[block], lo, k, tables[blk], bad[blk : blk + 1])


def _layout(n: int, k: int, parallel: bool, n_threads: int) -> tuple[int, int, int]:
    """(sub-tables per block, blocks, pairs per block) of a count; one block: serial.

    Small tables get more blocks than threads, handed out dynamically, so a thread that loses
    its core for a while (a shared machine) holds up one block, not half the data.
    """
    cells = k * k
    n_sub = 4 if k <= _SUBTABLE_MAX_K else 1
    if not (parallel and cells <= _PARALLEL_MAX_CELLS and n_threads > 1):
        return n_sub, 1, n
    n_blocks = 4 * n_threads if cells * n_sub <= _SMALL_TABLE_CELLS else n_threads
    return n_sub, n_blocks, -(-n // n_blocks)


def table_counts(
    a: np.ndarray, b: np.ndarray, lo: int, k: int, parallel: bool, n_threads: int
) -> np.ndarray:
    """The (K, K) int64 table of pairs ``(a - lo, b - lo)``; every rating must be in range."""
    n_sub, n_blocks, block_len = _layout(a.shape[0], k, parallel, n_threads)
    tables = np.zeros((n_blocks, n_sub, k * k), dtype=np.int64)
    if n_blocks > 1:
        _count_parallel(a, b, np.int64(lo), np.int64(k), block_len, tables)
    else:
        _count_serial(a, b, np.int64(lo), np.int64(k), tables)
    total: np.ndarray = tables.sum(axis=(0, 1))
    return total.reshape(k, k)


def table_counts_guessed(
    a: np.ndarray, b: np.ndarray, lo: int, k: int, parallel: bool, n_threads: int
) -> np.ndarray | None:
    """Like :func:`table_counts` for integer ratings in one pass, with the range unchecked.

    Returns None if any rating falls outside ``lo .. lo + K - 1`` (nothing is counted for it),
    so a guessed range that is right costs one pass and a wrong one is detected.
    """
    n = a.shape[0]
    n_sub, n_blocks, block_len = _layout(n, k, parallel, n_threads)
    # K <= 16 (see _checked_cells_block); 8- and 16-bit ratings count as fast in one loop.
    cells = n_sub == 4 and n >= PARALLEL_MIN and a.dtype.itemsize >= 4
    if n_blocks == 1 and not cells:
        serial, n_miss = _checked_serial(a, b, np.int64(lo), np.int64(k), n_sub, True)
        return None if n_miss else np.asarray(serial).reshape(k, k)
    tables = np.zeros((n_blocks, n_sub, k * k), dtype=np.int64)
    misses = np.zeros(n_blocks, dtype=np.int64)
    if cells and n_blocks == 1:
        _checked_cells_block(a, b, np.int64(lo), np.int64(k), tables[0], misses)
    else:
        driver = _cells_parallel if cells else _checked_parallel
        driver(a, b, np.int64(lo), np.int64(k), block_len, tables, misses)
    if misses.any():
        return None
    total: np.ndarray = tables.sum(axis=(0, 1))
    return total.reshape(k, k)


def table_weighted(
    a: np.ndarray,
    b: np.ndarray,
    w: np.ndarray,
    lo: int,
    k: int,
    parallel: bool,
    *,
    checked: bool = False,
) -> np.ndarray | None:
    """The (K, K) float64 table of summed weights ``w`` of pairs ``(a - lo, b - lo)``.

    None if a weight is negative, NaN or infinite (checked in the same pass), or, with
    ``checked``, if a rating is outside ``lo .. lo + K - 1``.

    The data are cut into :data:`WEIGHTED_BLOCKS` fixed blocks (fewer for a large table) whose
    tables are summed in order, so the result does not depend on the thread count.
    """
    n = a.shape[0]
    cells = k * k
    n_blocks = WEIGHTED_BLOCKS if cells <= _PARALLEL_MAX_CELLS else 1
    n_sub = 4 if k <= _SUBTABLE_MAX_K else 1  # pair j adds to sub-table j & 3
    block_len = -(-n // n_blocks)
    tables = np.zeros((n_blocks, n_sub, cells), dtype=np.float64)
    if checked:
        driver = (
            _weighted_checked_parallel if parallel and n_blocks > 1 else _weighted_checked_serial
        )
    else:
        driver = _weighted_parallel if parallel and n_blocks > 1 else _weighted_serial
    bad = np.zeros(n_blocks, dtype=np.int64)
    driver(a, b, w, np.int64(lo), np.int64(k), block_len, tables, bad)
    if bad.any():
        return None
    total = np.zeros(cells, dtype=np.float64)
    for blk in range(n_blocks):  # a fixed order: the same sums for any thread count
        for sub in range(n_sub):
            total += tables[blk, sub]
    result: np.ndarray = total.reshape(k, k)
    return result


@locked_njit(cache=True, nogil=True)
def serial_table_kappa(a, b, m, max_k, huge, linear):  # type: ignore[no-untyped-def]
    """Linear (``linear``) or unweighted kappa of small inputs in one call: :func:`guessed_serial`
    and the kappa, so that only one float crosses into Python.

    With ``D = |i - j|`` (linear) or ``[i != j]``, ``observed = sum(D * O)`` and ``expected =
    r' D c`` (r, c the row and column sums of the table O), kappa is ``(expected - n *
    observed) / expected``. Both terms are exact int64 values below ``2**48`` for ``n <
    PARALLEL_MIN = 2**17`` pairs and ``K <= max_k <= 2**13`` (``expected <= n² (K - 1)``), so
    they are exact in float64 and the one division is correctly rounded, as Python's ``int /
    int``. Returns kappa, nan when it is undefined (``expected = 0``), or ``inf`` when a longer
    route must answer: ``len(b) != len(a)``, fewer than ``FAST_MIN`` or from
    ``PARALLEL_MIN`` pairs on, a rating outside the guessed range, or an unusable range.
    """
    n = a.shape[0]
    if not FAST_MIN <= n < PARALLEL_MIN or b.shape[0] != n:
        return np.inf
    lo, hi, total, misses = guessed_serial(a, b, min(m, n), max_k, huge)
    if misses != 0:
        return np.inf
    k = hi - lo + 1
    rows = np.zeros(k, dtype=np.int64)
    cols = np.zeros(k, dtype=np.int64)
    observed = np.int64(0)
    for i in range(k):
        for j in range(k):
            count = total[i * k + j]
            rows[i] += count
            cols[j] += count
            d = abs(i - j) if linear else np.int64(i != j)
            observed += d * count
    expected = np.int64(0)
    for i in range(k):
        weighted = np.int64(0)
        for j in range(k):
            d = abs(i - j) if linear else np.int64(i != j)
            weighted += d * cols[j]
        expected += rows[i] * weighted
    if expected <= 0:
        return np.nan
    return np.float64(expected - n * observed) / np.float64(expected)
