"""The last step of the intraclass correlations' ANOVA sums, shared by the numpy route
(:mod:`wkappa._core.icc_sums`) and the numba kernel (:mod:`wkappa._core.kernels.numba_icc`,
which compiles this very function), so both finish the sums alike."""

from __future__ import annotations

import numpy as np

__all__ = ["finish_sums"]


def finish_sums(
    n: int,
    k: int,
    raters: np.ndarray,
    column_q: np.ndarray,
    total_m: np.ndarray,
    squares: np.ndarray,
    target_sum: np.ndarray,
    target_squares: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(SS targets, SS raters, SS error), each of shape (F,), from the second pass's moments
    (numpy, and compiled as :func:`wkappa._core.kernels.numba_icc.finish_sums`).

    The second pass has each rating minus its first estimates ``q_ij = x_ij - r_i - c_j +
    g`` (``r_i`` the target's mean, ``c_j`` the rater's, ``g`` the grand mean; the larger
    effects subtracted first, so that the rounding is relative to the smaller ones and the
    residual) and ``m_i`` the row mean of ``q_ij``: ``column_q`` the (k, F) column sums of
    ``q_ij``, ``total_m`` the sum of ``m_i``, ``squares`` the sum of ``(q_ij - m_i)²``,
    ``target_sum`` and ``target_squares`` the sum and the sum of squares of the targets'
    effects ``r_i - g + m_i``. The first estimates ``raters`` (k, F), ``c_j - g``, are
    rounded relative to the ratings' size; what they missed, ``s_j``, is the column mean of
    ``q_ij - m_i``, a correction of the order of that rounding: ``SS_error = squares -
    n sum_j s_j²`` (no large sum is subtracted from another) and the raters' effects are
    ``c_j - g + s_j``.
    """
    missed = (column_q - total_m) / n
    missed = missed - missed.sum(axis=0) / k
    ss_error = squares - n * (missed * missed).sum(axis=0)
    effects = raters + missed
    effects = effects - effects.sum(axis=0) / k
    ss_targets = k * (target_squares - target_sum * (target_sum / n))
    # sums of squares: a rounding below 0 of an exact 0 is 0 (nan stays nan)
    return (
        np.where(ss_targets < 0.0, 0.0, ss_targets),
        n * (effects * effects).sum(axis=0),
        np.where(ss_error < 0.0, 0.0, ss_error),
    )
