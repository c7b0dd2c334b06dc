"""The sufficient statistic of the intraclass correlations: two-way ANOVA sums of squares.

Every ICC form (McGraw & Wong 1996) is a function of the between-target, between-rater and
residual sums of squares of the complete targets x raters table, so one pass over the ratings
serves all six, for any number of features at once. Small inputs use numpy; from
:data:`NUMBA_FROM` ratings on, the lazily imported numba kernel
:func:`wkappa._core.kernels.numba_icc.anova_sums` (compiled on first use, cached on disk).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["NUMBA_FROM", "AnovaSums", "anova_sums", "plain_anova_sums"]

# Below this many ratings numpy is as fast as the kernel and needs no compilation.
NUMBA_FROM = 1 << 16


@dataclass(frozen=True)
class AnovaSums:
    """Two-way ANOVA sums of squares of a complete (n, k) table, per feature.

    Attributes
    ----------
    n_targets, n_raters : int
    grand_mean, ss_targets, ss_raters, ss_error : ndarray of shape (features,)
        ``SS_targets = k sum_i (xbar_i. - xbar)²``, ``SS_raters = n sum_j (xbar_.j - xbar)²``,
        ``SS_error = sum_ij (x_ij - xbar_i. - xbar_.j + xbar)²``; the within-target sum of
        squares of the one-way model is ``SS_raters + SS_error``.
    """

    n_targets: int
    n_raters: int
    grand_mean: np.ndarray
    ss_targets: np.ndarray
    ss_raters: np.ndarray
    ss_error: np.ndarray


def _numpy_sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n, k = x.shape[:2]
    column = x.mean(axis=0)  # (k, F)
    grand = column.mean(axis=0)
    centred = x - column[None, :, :]
    row = centred.mean(axis=1)  # (n, F)
    ss_targets = k * np.einsum("if,if->f", row, row)
    residual = centred - row[:, None, :]
    ss_error = np.einsum("ijf,ijf->f", residual, residual)
    ss_raters = n * ((column - grand) ** 2).sum(axis=0)
    return grand, ss_targets, ss_raters, ss_error


def anova_sums(values: np.ndarray) -> AnovaSums:
    """The ANOVA sums of a complete float64 array of shape (n, k) or (n, k, features)."""
    n, k = values.shape[:2]
    if values.ndim == 2 and values.size >= NUMBA_FROM:
        from .kernels import numba_icc

        sums = numba_icc.anova_sums_2d(np.asarray(values, dtype=np.float64))
        grand_2d, ss_t, ss_r, ss_e = (np.array([value]) for value in sums)
        return AnovaSums(n, k, grand_2d, ss_t, ss_r, ss_e)
    x = values if values.ndim == 3 else values[:, :, None]
    x = np.ascontiguousarray(x, dtype=np.float64)
    if x.size >= NUMBA_FROM:
        from .kernels import numba_icc

        grand, ss_targets, ss_raters, ss_error = numba_icc.anova_sums(x)
    else:
        grand, ss_targets, ss_raters, ss_error = _numpy_sums(x)
    return AnovaSums(n, k, grand, ss_targets, ss_raters, ss_error)


def plain_anova_sums(ratings: Any) -> AnovaSums | None:
    """The sums of a large 2-D float64 numpy array straight from the compiled pass, or None.

    The pass's column sums are finite exactly when every rating is (a NaN or inf anywhere
    makes its column's sum NaN or inf), so the caller needs no reading pass of its own over
    the ratings; anything else (other types, small tables, a NaN, an inf, a sum beyond the
    float range) returns None for the caller's general route, which answers as before.
    """
    if not (
        type(ratings) is np.ndarray
        and ratings.dtype == np.float64
        and ratings.ndim == 2
        and ratings.shape[0] >= 2
        and ratings.shape[1] >= 2
        and ratings.size >= NUMBA_FROM
    ):
        return None
    sums = anova_sums(ratings)
    return sums if np.isfinite(sums.grand_mean[0]) else None
