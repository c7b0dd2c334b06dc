"""numba kernels for several raters: scan and count an items x raters matrix (imported lazily).

On the raw ratings (any integer or float dtype, any memory layout):

* :func:`rows_in_range` — one pass that checks every rating and codes each item's row of
  ratings as one integer (base K+1, a digit per rater, 0 for a missing rating), histogrammed
  densely or returned per item; it stops at a rating outside the range it was given;
* :func:`rows_in_range_chunked` — the same for a C-ordered float matrix and a dense
  histogram, in blocks of rows: first a branch-free loop over the block's ratings (which
  LLVM vectorises) turns each rating into its weighted digit and flags any that is not a
  whole number in range, then the digits are summed per row and histogrammed; a block with a
  flagged rating is recoded by the per-rating loop, which names the first bad rating;
  :func:`rows_in_range_columns` does the same for an F-ordered matrix, rater by rater;
* :func:`label_positions` — each rating's position in a list of numeric labels (a binary
  search among the sorted labels), for labels that are not a short run of integers;
* :func:`scan` — lowest and highest rating, missing (NaN) count and the first rating that is not
  a whole finite number, for when the range guessed from the first rows was too narrow.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..compile_lock import locked_njit

__all__ = [
    "label_positions",
    "rows_in_range",
    "rows_in_range_chunked",
    "rows_in_range_columns",
    "rows_in_range_parallel",
    "scan",
]


@locked_njit(cache=True, nogil=True)
def scan(x):  # type: ignore[no-untyped-def]
    """(lo, hi, n_missing, first_bad) of a float or integer (n, R) matrix; first_bad is the
    flat index of the first non-finite or non-integer rating, or -1."""
    n, r = x.shape
    lo = np.inf
    hi = -np.inf
    missing = 0
    for i in range(n):
        for g in range(r):
            v = np.float64(x[i, g])
            if v != v:
                missing += 1
                continue
            if v - np.floor(v) != 0.0 or v == np.inf or v == -np.inf:
                return lo, hi, missing, i * r + g
            if v < lo:
                lo = v
            if v > hi:
                hi = v
    return lo, hi, missing, -1


@locked_njit(cache=True, nogil=True)
def rows_in_range(x, lo, k, powers, dense_size, codes):  # type: ignore[no-untyped-def]
    """One pass: check every rating and code each item's row, assuming every rating lies in
    ``lo .. lo + k - 1``.

    The code of a row is ``sum_g (c_ig + 1) (K+1)^g`` (``c_ig + 1 = 0`` for a missing rating):
    histogrammed densely when ``dense_size > 0``, else written to ``codes``. Returns
    ``(hist, n_missing, status, where)``: status 0 when done; 1 when a rating falls outside
    the assumed range (coding stopped; the caller scans for the range and codes again); 2
    when the rating at flat index ``where`` is not a whole finite number.
    """
    hist = np.zeros(max(dense_size, 1), dtype=np.int64)
    missing, status, where = _code_block(
        x, 0, x.shape[0], lo, k, powers, dense_size > 0, hist, codes
    )
    return hist, missing, status, where


@locked_njit(cache=True, nogil=True)
def _code_block(x, start, stop, lo, k, powers, dense, hist, codes):  # type: ignore[no-untyped-def]
    """:func:`rows_in_range` on rows ``start:stop``: each row's code counted in ``hist`` when
    ``dense``, else written to ``codes``; returns ``(n_missing, status, where)``."""
    r = x.shape[1]
    missing = 0
    top = np.float64(lo + k - 1)
    bottom = np.float64(lo)
    for i in range(start, stop):
        code = 0
        for g in range(r):
            v = np.float64(x[i, g])
            if v != v:
                missing += 1
                continue
            if not (bottom <= v <= top):
                if v == np.inf or v == -np.inf:
                    return missing, 2, i * r + g
                return missing, 1, i * r + g
            c = np.int64(v)
            if np.float64(c) != v:
                return missing, 2, i * r + g
            code += (c - lo + 1) * powers[g]
        if dense:
            hist[code] += 1
        else:
            codes[i] = code
    return missing, 0, -1


@locked_njit(cache=True, nogil=True)
def _block_outputs(n_blocks, dense_size):  # type: ignore[no-untyped-def]
    """The per-block outputs of :func:`rows_in_range_parallel`, allocated outside its parallel
    body: there numba would turn each fill into a parallel loop of its own, which
    ``parallel_chunksize(1)`` (see ``fused.parallel_section``) hands out one element at a time."""
    hists = np.zeros((n_blocks, dense_size), dtype=np.int64)
    missing = np.zeros(n_blocks, dtype=np.int64)
    status = np.zeros(n_blocks, dtype=np.int64)
    where = np.full(n_blocks, -1, dtype=np.int64)
    return hists, missing, status, where, np.zeros(0, dtype=np.int64)


@locked_njit(cache=True, nogil=True, parallel=True)
def rows_in_range_parallel(x, lo, k, powers, dense_size, n_blocks, mode, flat, columns):  # type: ignore[no-untyped-def]
    """:func:`rows_in_range` (dense histogram only) over ``n_blocks`` row blocks in parallel,
    each into its own histogram row: per rating (``mode`` 0), or by the block loops of
    :func:`rows_in_range_chunked` (1: ``flat`` is ``x.ravel()`` of a C-ordered ``x``) or
    :func:`rows_in_range_columns` (2: ``columns`` is ``x.T`` of an F-ordered ``x``); returns
    ``(hists, missing, status, where)`` per block."""
    n = x.shape[0]
    hists, missing, status, where, no_codes = _block_outputs(n_blocks, dense_size)
    size = (n + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        start = b * size
        stop = min(n, start + size)
        if mode == 1:
            m, s, w = _code_chunks(x, flat, start, stop, lo, k, powers, hists[b])
        elif mode == 2:
            m, s, w = _code_columns(x, columns, start, stop, lo, k, powers, hists[b])
        else:
            m, s, w = _code_block(x, start, stop, lo, k, powers, True, hists[b], no_codes)
        missing[b] = m
        status[b] = s
        where[b] = w
    return hists, missing, status, where


# Rows per block of the block-wise passes: their buffers (R int32 per row) stay in L1/L2.
_CHUNK_ROWS = 1024


@locked_njit(cache=True, nogil=True)
def rows_in_range_chunked(x, flat, lo, k, powers, dense_size):  # type: ignore[no-untyped-def]
    """:func:`rows_in_range` for a C-ordered float matrix (``flat`` its ``ravel()`` view)
    into a dense histogram of at most 2**31 codes; returns ``(hist, n_missing, status,
    where)`` as it does."""
    hist = np.zeros(dense_size, dtype=np.int64)
    missing, status, where = _code_chunks(x, flat, 0, x.shape[0], lo, k, powers, hist)
    return hist, missing, status, where


@locked_njit(cache=True, nogil=True)
def rows_in_range_columns(x, columns, lo, k, powers, dense_size):  # type: ignore[no-untyped-def]
    """:func:`rows_in_range_chunked` for an F-ordered float matrix (``columns`` its ``x.T``,
    C-ordered: one rater's ratings contiguous)."""
    hist = np.zeros(dense_size, dtype=np.int64)
    missing, status, where = _code_columns(x, columns, 0, x.shape[0], lo, k, powers, hist)
    return hist, missing, status, where


@locked_njit(cache=True, nogil=True, inline="always")
def _digit(v, shift, top):  # type: ignore[no-untyped-def]
    """``(digit, bad, missing)`` of one rating, without branches: the digit ``v - lo + 1``
    (0 for a missing rating); bad when v is neither missing nor a whole number in range."""
    nan = v != v
    d = v - shift
    inside = (d >= 1.0) & (d <= top)  # False for NaN and +-inf
    whole = d if inside else 0.0
    c = np.int32(whole)
    bad = np.int32(inside & (np.float64(c) != whole)) | np.int32(not (inside | nan))
    return c, bad, np.int32(nan)


@locked_njit(cache=True, nogil=True)
def _code_chunks(x, flat, start, stop, lo, k, powers, hist):  # type: ignore[no-untyped-def]
    """Rows ``start:stop`` of a C-ordered float matrix, block by block: returns
    ``(n_missing, status, where)`` as :func:`_code_block` does."""
    r = x.shape[1]
    digits = np.empty(_CHUNK_ROWS * r, dtype=np.int32)
    place = np.empty(_CHUNK_ROWS * r, dtype=np.int32)
    for j in range(_CHUNK_ROWS * r):
        place[j] = powers[j % r]
    row = np.empty(_CHUNK_ROWS, dtype=np.int32)
    no_codes = np.zeros(0, dtype=np.int64)
    # A rating v in range gives d = v - lo + 1 in 1..k; a missing one the digit 0.
    shift = np.float64(lo) - 1.0
    top = np.float64(k)
    missing = 0
    for first in range(start, stop, _CHUNK_ROWS):
        last = min(stop, first + _CHUNK_ROWS)
        rows = last - first
        offset = first * r
        bad = np.int32(0)
        absent = np.int32(0)
        for j in range(rows * r):
            c, wrong, nan = _digit(np.float64(flat[offset + j]), shift, top)
            bad |= wrong
            absent += nan
            digits[j] = c * place[j]
        if bad:  # the per-rating loop finds the first bad rating and its kind
            m, s, w = _code_block(x, first, last, lo, k, powers, True, hist, no_codes)
            return missing + m, s, w
        missing += absent
        for i in range(rows):
            row[i] = digits[i * r]
        for g in range(1, r):
            for i in range(rows):
                row[i] += digits[i * r + g]
        for i in range(rows):
            hist[row[i]] += 1
    return missing, 0, -1


@locked_njit(cache=True, nogil=True)
def _code_columns(x, columns, start, stop, lo, k, powers, hist):  # type: ignore[no-untyped-def]
    """:func:`_code_chunks` for an F-ordered matrix: each block's rows are summed rater by
    rater along the contiguous columns."""
    r = columns.shape[0]
    row = np.empty(_CHUNK_ROWS, dtype=np.int32)
    no_codes = np.zeros(0, dtype=np.int64)
    shift = np.float64(lo) - 1.0
    top = np.float64(k)
    missing = 0
    for first in range(start, stop, _CHUNK_ROWS):
        last = min(stop, first + _CHUNK_ROWS)
        rows = last - first
        bad = np.int32(0)
        absent = np.int32(0)
        row[:rows] = 0
        for g in range(r):
            place = np.int32(powers[g])
            column = columns[g]
            for i in range(rows):
                c, wrong, nan = _digit(np.float64(column[first + i]), shift, top)
                bad |= wrong
                absent += nan
                row[i] += c * place
        if bad:
            m, s, w = _code_block(x, first, last, lo, k, powers, True, hist, no_codes)
            return missing + m, s, w
        missing += absent
        for i in range(rows):
            hist[row[i]] += 1
    return missing, 0, -1


@locked_njit(cache=True, nogil=True)
def label_positions(x, sorted_labels, order, out, by_column):  # type: ignore[no-untyped-def]
    """``out[i, g]`` = the position in ``labels`` of the rating ``x[i, g]`` (``order[j]``
    for its place j among the ``sorted_labels``: the number of labels below it, counted
    without branches), NaN where it is missing; returns the flat index (row-major) of the
    first rating found that is not a label, or -1. ``by_column`` walks rater by rater
    (F-ordered ``x``)."""
    n, r = x.shape
    k = sorted_labels.shape[0]
    outer = r if by_column else n
    inner = n if by_column else r
    for a in range(outer):
        for b in range(inner):
            i = b if by_column else a
            g = a if by_column else b
            v = np.float64(x[i, g])
            if v != v:
                out[i, g] = np.nan
                continue
            below = 0
            for j in range(k):
                below += sorted_labels[j] < v
            if below == k or sorted_labels[below] != v:
                return i * r + g
            out[i, g] = order[below]
    return -1
