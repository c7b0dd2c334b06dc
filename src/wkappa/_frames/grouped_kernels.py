"""Numba kernels for a (G, K, K) stack of confusion tables (kappa_by_group), imported lazily.

Each row has a group code ``key - key_lo`` in ``0..S-1`` (S possible key combinations, of which
G occur) and two ratings. One pass adds every row to cell ``(a - lo) * K + (b - lo)`` of its
group's table; a single integer key column is read as it is (no code array is built), after
one :func:`key_range` pass. The caller has already checked that every rating is an integer in
``lo .. lo + K - 1`` (the fused range pass of :mod:`wkappa._core.fused`, or the strict encoder
with ``lo = 0``) -- or, in the checked variant, only guessed both ranges, which the counting
pass then checks row by row.

In parallel the rows are cut into :data:`BLOCKS` fixed blocks, each counted into a private
table, and the tables are added in block order. Counts are int64 (exact); weighted sums are
float64 and, thanks to the fixed blocks, the same for any thread count. With weights the
kernel also marks which codes occur (a group whose weights are all 0 still exists).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._core import locked_njit

__all__ = ["BLOCKS", "grouped_tables", "key_range"]


# Blocks counted into private tables when parallel; a fixed number, so weighted sums are added
# in the same order whatever the thread count.
BLOCKS = 8
# Above this many cells (groups x K x K) one table is counted serially: private copies per
# block would cost more memory than the pass saves.
PARALLEL_MAX_CELLS = 1 << 20
_INT32_ROWS = 2**31 - 1


@locked_njit(cache=True, nogil=True)
def _count_block(keys, key_lo, a, b, lo, k, cells, tables):  # type: ignore[no-untyped-def]
    # keys, a, b: slices indexed from 0 (no negative-index wraparound check per load)
    one = tables.dtype.type(1)
    for j in range(keys.shape[0]):
        g = np.int64(keys[j]) - key_lo
        tables[g * cells + (np.int64(a[j]) - lo) * k + (np.int64(b[j]) - lo)] += one


@locked_njit(cache=True, nogil=True)
def _weighted_block(keys, key_lo, a, b, w, lo, k, cells, tables, present):  # type: ignore[no-untyped-def]
    for j in range(keys.shape[0]):
        g = np.int64(keys[j]) - key_lo
        present[g] = 1  # a group whose weights are all 0 still exists
        tables[g * cells + (np.int64(a[j]) - lo) * k + (np.int64(b[j]) - lo)] += w[j]


@locked_njit(cache=True, nogil=True, parallel=True)
def _run_parallel(keys, key_lo, a, b, w, lo, k, cells, block_len, tables, present):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        if w.shape[0] > 0:
            _weighted_block(
                keys[block], key_lo, a[block], b[block], w[block], lo, k, cells, tables[blk],
                present[blk],
            )  # fmt: skip
        else:
            _count_block(keys[block], key_lo, a[block], b[block], lo, k, cells, tables[blk])


@locked_njit(cache=True, nogil=True)
def _run_serial(keys, key_lo, a, b, w, lo, k, cells, block_len, tables, present):  # type: ignore[no-untyped-def]
    if w.shape[0] > 0:
        _weighted_block(keys, key_lo, a, b, w, lo, k, cells, tables[0], present[0])
    else:
        _count_block(keys, key_lo, a, b, lo, k, cells, tables[0])


@locked_njit(cache=True, nogil=True)
def _checked_block(keys, key_lo, n_codes, a, b, lo, k, tables, misses):  # type: ignore[no-untyped-def]
    """:func:`_count_block` when the key and rating ranges are only guesses: a row outside
    them is not counted but tallied in ``misses`` (unsigned ``x < n`` tests both ends)."""
    one = tables.dtype.type(1)
    codes = np.uint64(n_codes)
    uk = np.uint64(k)
    cells = uk * uk
    n_miss = 0
    for j in range(keys.shape[0]):
        g = np.uint64(np.int64(keys[j]) - key_lo)
        ca = np.uint64(np.int64(a[j]) - lo)
        cb = np.uint64(np.int64(b[j]) - lo)
        if (g < codes) & (ca < uk) & (cb < uk):
            tables[g * cells + ca * uk + cb] += one
        else:
            n_miss += 1
    misses[0] = n_miss


@locked_njit(cache=True, nogil=True, parallel=True)
def _checked_parallel(keys, key_lo, n_codes, a, b, lo, k, block_len, tables, misses):  # type: ignore[no-untyped-def]
    for blk in prange(tables.shape[0]):
        block = slice(blk * block_len, (blk + 1) * block_len)
        _checked_block(
            keys[block], key_lo, n_codes, a[block], b[block], lo, k, tables[blk],
            misses[blk : blk + 1],
        )  # fmt: skip


@locked_njit(cache=True, nogil=True)
def _checked_serial(keys, key_lo, n_codes, a, b, lo, k, block_len, tables, misses):  # type: ignore[no-untyped-def]
    _checked_block(keys, key_lo, n_codes, a, b, lo, k, tables[0], misses[0:1])


@locked_njit(cache=True, nogil=True)
def _range_block(keys, out):  # type: ignore[no-untyped-def]
    # a slice indexed from 0: the min/max reduction vectorises
    lo = np.int64(keys[0])
    hi = lo
    for j in range(keys.shape[0]):
        v = np.int64(keys[j])
        lo = min(lo, v)
        hi = max(hi, v)
    out[0] = lo
    out[1] = hi


@locked_njit(cache=True, nogil=True, parallel=True)
def _range_parallel(keys, block_len, out):  # type: ignore[no-untyped-def]
    n = keys.shape[0]
    for blk in prange(out.shape[0]):
        start = blk * block_len
        if start < n:
            _range_block(keys[start : start + block_len], out[blk])


def key_range(keys: np.ndarray, parallel: bool) -> tuple[int, int]:
    """``(min, max)`` of a non-empty integer key column (int8..int64, uint8..uint32) in one pass.

    In parallel each of :data:`BLOCKS` blocks finds its own range (a ``prange`` min/max
    reduction was far slower); the ranges are merged here.
    """
    n = keys.shape[0]
    n_blocks = BLOCKS if parallel else 1
    block_len = -(-n // n_blocks)
    out = np.zeros((n_blocks, 2), dtype=np.int64)
    if n_blocks > 1:
        _range_parallel(keys, block_len, out)
    else:
        _range_block(keys, out[0])
    used = out[: -(-n // block_len)]
    return int(used[:, 0].min()), int(used[:, 1].max())


def grouped_tables(
    keys: np.ndarray,
    key_lo: int,
    a: np.ndarray,
    b: np.ndarray,
    w: np.ndarray | None,
    lo: int,
    k: int,
    n_codes: int,
    parallel: bool,
    *,
    checked: bool = False,
) -> tuple[np.ndarray, np.ndarray] | None:
    """The (S, K, K) tables of pairs ``(a - lo, b - lo)`` by group code ``keys - key_lo``.

    Returns the tables (int64 counts, or float64 sums of the already checked weights ``w``)
    and a bool array of shape (S,): which codes occur. With ``checked`` (counts only) the
    ranges are guesses: a row outside them is not counted, and the result is None if there
    was one.
    """
    cells = k * k
    n = keys.shape[0]
    n_blocks = BLOCKS if parallel and n_codes * cells <= PARALLEL_MAX_CELLS else 1
    block_len = -(-n // n_blocks) if n else 0
    # int32 block tables for counts (half the cache footprint) when a block cannot overflow
    small = block_len < _INT32_ROWS
    dtype = np.float64 if w is not None else np.int32 if small else np.int64
    tables = np.zeros((n_blocks, n_codes * cells), dtype=dtype)
    present = np.zeros((n_blocks, n_codes if w is not None else 0), dtype=np.uint8)
    weights = np.zeros(0, dtype=np.float64) if w is None else w
    if checked:
        misses = np.zeros(n_blocks, dtype=np.int64)
        (_checked_parallel if n_blocks > 1 else _checked_serial)(
            keys, np.int64(key_lo), np.int64(n_codes), a, b, np.int64(lo), np.int64(k),
            block_len, tables, misses,
        )  # fmt: skip
        if misses.any():
            return None
    else:
        (_run_parallel if n_blocks > 1 else _run_serial)(
            keys, np.int64(key_lo), a, b, weights, np.int64(lo), np.int64(k),
            np.int64(cells), block_len, tables, present,
        )  # fmt: skip
    total = tables[0].astype(np.int64 if w is None else np.float64)
    for blk in range(1, n_blocks):  # a fixed order: the same sums for any thread count
        total += tables[blk]
    tables_gkk = total.reshape(n_codes, k, k)
    if w is None:  # every row is counted: a group occurs if its table is not empty
        occurs: np.ndarray = tables_gkk.sum(axis=(1, 2)) > 0
    else:
        occurs = np.asarray(present.any(axis=0))
    return tables_gkk, occurs
