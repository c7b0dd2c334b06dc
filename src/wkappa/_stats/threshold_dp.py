"""Numba kernel of the exact threshold search: a monotone assignment DP over tie-blocks.

Imported only by :func:`wkappa.optimize_thresholds`, so ``import wkappa`` never imports numba.

The kernel is generic in its number type: with int64 arrays and scalars it runs in exact
integer arithmetic (the caller checks that nothing can overflow), with float64 ones in floating
point. numba compiles one specialisation per type and caches both on disk.
"""

from __future__ import annotations

import numpy as np

from .._core import locked_njit

__all__ = ["assignment_table", "monotone_assignment", "quantile_classes"]


@locked_njit(cache=True, nogil=True)
def _monotone_dp(starts, truth, weight, matrix, expected, lam_num, lam_den, choice):  # type: ignore[no-untyped-def]
    n_blocks = starts.shape[0] - 1
    k = matrix.shape[0]
    zero = matrix[0, 0] - matrix[0, 0]
    best = np.zeros(k, dtype=matrix.dtype)  # best[j]: min cost of blocks < b, last class <= j
    observed = np.zeros(k, dtype=matrix.dtype)
    for b in range(n_blocks):
        for j in range(k):
            observed[j] = zero
        block_weight = zero
        for item in range(starts[b], starts[b + 1]):
            w = weight[item]
            row = truth[item]
            block_weight += w
            for j in range(k):
                observed[j] += w * matrix[row, j]
        # Cost of class j for block b plus the best cost of the earlier blocks ending in a
        # class <= j, then a running minimum over j (ties go to the lower class).
        running = zero
        arg = 0
        for j in range(k):
            value = lam_den * observed[j] - lam_num * expected[j] * block_weight + best[j]
            if j == 0 or value < running:
                running = value
                arg = j
            best[j] = running
            choice[b, j] = arg
    classes = np.empty(n_blocks, dtype=np.int64)
    current = k - 1
    for b in range(n_blocks - 1, -1, -1):
        current = choice[b, current]
        classes[b] = current
    return classes


def monotone_assignment(
    starts: np.ndarray,
    truth: np.ndarray,
    weight: np.ndarray,
    matrix: np.ndarray,
    expected: np.ndarray,
    lam_num: int | float,
    lam_den: int | float,
) -> np.ndarray:
    """The non-decreasing class per tie-block minimising ``Σ_k w_k (λd·W[t_k, c_k] − λn·u[c_k])``.

    Parameters
    ----------
    starts : ndarray of shape (B + 1,), int64
        Block b holds the sorted items ``starts[b]:starts[b + 1]``.
    truth : ndarray of shape (n,), int64
        True category index of each item, in score order.
    weight : ndarray of shape (n,), int64 or float64
        Weight of each item (ones without sample weights).
    matrix : ndarray of shape (K, K), same dtype as ``weight``
        Disagreement weights ``W``.
    expected : ndarray of shape (K,), same dtype
        ``u[j] = Σ_i W[i, j] r_i`` with r the weighted counts of the true classes.
    lam_num, lam_den : int or float
        The Dinkelbach parameter as a fraction ``λ = lam_num / lam_den``.

    Returns
    -------
    ndarray of shape (B,), int64
        The class of each block, non-decreasing; ties go to the lowest classes.

    Notes
    -----
    With ``g_b(j)`` the least cost of blocks ``0..b`` whose last class is at most j,
    ``g_b(j) = min(g_b(j - 1), cost_b(j) + g_{b-1}(j))``: O(n·K) time, O(B·K) memory for
    the back pointers (uint8 when K <= 256).
    """
    k = matrix.shape[0]
    dtype = np.uint8 if k <= 256 else np.int32
    choice = np.empty((len(starts) - 1, k), dtype=dtype)
    kind = matrix.dtype.type
    classes: np.ndarray = _monotone_dp(
        starts, truth, weight, matrix, expected, kind(lam_num), kind(lam_den), choice
    )
    return classes


@locked_njit(cache=True, nogil=True)
def _assignment_table(starts, truth, weight, classes, k):  # type: ignore[no-untyped-def]
    table = np.zeros((k, k), dtype=weight.dtype)
    for b in range(classes.shape[0]):
        c = classes[b]
        for item in range(starts[b], starts[b + 1]):
            table[truth[item], c] += weight[item]
    return table


@locked_njit(cache=True, nogil=True)
def _quantile_classes(starts, weight, boundaries):  # type: ignore[no-untyped-def]
    n_blocks = starts.shape[0] - 1
    classes = np.empty(n_blocks, dtype=np.int64)
    position = 0.0
    c = 0
    for b in range(n_blocks):
        middle = position + weight[starts[b]] / 2
        while c < boundaries.shape[0] and boundaries[c] <= middle:
            c += 1
        classes[b] = c
        for item in range(starts[b], starts[b + 1]):
            position += weight[item]
    return classes


def assignment_table(
    starts: np.ndarray, truth: np.ndarray, weight: np.ndarray, classes: np.ndarray, k: int
) -> np.ndarray:
    """The K x K table (true class, assigned class) of a per-block assignment.

    ``weight`` is int64 or float64; the table has its dtype.
    """
    table: np.ndarray = _assignment_table(starts, truth, weight, classes, k)
    return table


def quantile_classes(
    starts: np.ndarray, weight: np.ndarray, truth_counts: np.ndarray
) -> np.ndarray:
    """A starting assignment: classes in the proportions of the truth along the scores.

    Block b gets the class whose cumulative share of the truth contains the middle of its
    first item (so the classes are non-decreasing).
    """
    boundaries = np.cumsum(truth_counts.astype(np.float64))[:-1]
    classes: np.ndarray = _quantile_classes(starts, weight.astype(np.float64), boundaries)
    return classes
