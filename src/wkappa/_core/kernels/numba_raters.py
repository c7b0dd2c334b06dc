"""numba kernels for several raters: scan and count an items x raters matrix (imported lazily).

Two passes over the raw ratings (any integer or float dtype, any memory layout):

* :func:`scan` — lowest and highest rating, missing (NaN) count and the first rating that is not
  a whole finite number;
* :func:`count` — each item's count pattern as one integer ``sum_k r_ik (R+1)^k`` (adding a
  rating in category k adds ``(R+1)^k``), histogrammed densely or returned per item, and the
  rater x category counts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["count", "scan"]


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def count(x, lo, k, powers, dense_size, codes):  # type: ignore[no-untyped-def]
    """Pattern codes of the items and the (R, K) rater x category counts.

    With ``dense_size > 0`` the codes are histogrammed into an array of that length (returned);
    otherwise each item's code is written to ``codes`` and an empty histogram is returned.
    """
    n, r = x.shape
    raters = np.zeros((r, k), dtype=np.int64)
    hist = np.zeros(max(dense_size, 1), dtype=np.int64)
    for i in range(n):
        code = 0
        for g in range(r):
            v = np.float64(x[i, g])
            if v != v:
                continue
            c = np.int64(v) - lo
            code += powers[c]
            raters[g, c] += 1
        if dense_size > 0:
            hist[code] += 1
        else:
            codes[i] = code
    return hist, raters
