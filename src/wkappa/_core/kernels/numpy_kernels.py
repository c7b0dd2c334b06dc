"""Vectorised numpy counting kernels (no Python loop over the data)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..statistic import INT64_SAFE

__all__ = ["QuadraticSums", "count_table", "quadratic_sums"]


@dataclass(frozen=True)
class QuadraticSums:
    """The sufficient statistic of quadratic weighted kappa.

    With category indices ``a_k`` (rater A) and ``b_k`` (rater B) and pair weights ``w_k``
    (1 without sample weights): ``total = Σw``, ``sum_true = Σw·a``, ``sum_pred = Σw·b``,
    ``sum_true_sq = Σw·a²``, ``sum_pred_sq = Σw·b²``, ``sum_cross = Σw·a·b``.
    Python ints (exact) without sample weights, floats with them.
    """

    total: int | float
    sum_true: int | float
    sum_pred: int | float
    sum_true_sq: int | float
    sum_pred_sq: int | float
    sum_cross: int | float

    def __add__(self, other: QuadraticSums) -> QuadraticSums:
        return QuadraticSums(
            self.total + other.total,
            self.sum_true + other.sum_true,
            self.sum_pred + other.sum_pred,
            self.sum_true_sq + other.sum_true_sq,
            self.sum_pred_sq + other.sum_pred_sq,
            self.sum_cross + other.sum_cross,
        )


def _exact_sum(values: np.ndarray, largest_term: int) -> int:
    """Σ values as a Python int, summing int64 chunks small enough never to overflow.

    A chunk of m terms each at most ``largest_term`` in magnitude sums to at most
    ``m * largest_term <= 2**62 < 2**63``, so no chunk overflows; chunks are added as Python
    ints, which do not overflow at all.
    """
    if largest_term == 0 or values.size == 0:
        return 0
    chunk = max(1, INT64_SAFE // largest_term)
    return sum(int(values[i : i + chunk].sum()) for i in range(0, values.size, chunk))


def quadratic_sums(
    true_index: np.ndarray, pred_index: np.ndarray, sample_weight: np.ndarray | None = None
) -> QuadraticSums:
    """The five sums of :class:`QuadraticSums` for category indices (int64, ``>= 0``)."""
    if sample_weight is not None:
        a = true_index.astype(np.float64)
        b = pred_index.astype(np.float64)
        w = sample_weight
        wa = w * a
        wb = w * b
        return QuadraticSums(
            float(w.sum()),
            float(wa.sum()),
            float(wb.sum()),
            float(np.dot(wa, a)),
            float(np.dot(wb, b)),
            float(np.dot(wa, b)),
        )
    n = int(true_index.size)
    top = int(max(true_index.max(), pred_index.max())) if n else 0
    if top * top >= INT64_SAFE:  # squares alone overflow int64: exact Python ints
        a_obj = true_index.astype(object)
        b_obj = pred_index.astype(object)
        return QuadraticSums(
            n,
            int(a_obj.sum()),
            int(b_obj.sum()),
            int((a_obj * a_obj).sum()),
            int((b_obj * b_obj).sum()),
            int((a_obj * b_obj).sum()),
        )
    a, b = true_index, pred_index
    return QuadraticSums(
        n,
        _exact_sum(a, top),
        _exact_sum(b, top),
        _exact_sum(a * a, top * top),
        _exact_sum(b * b, top * top),
        _exact_sum(a * b, top * top),
    )


def count_table(
    true_index: np.ndarray,
    pred_index: np.ndarray,
    n_categories: int,
    sample_weight: np.ndarray | None = None,
) -> np.ndarray:
    """The (K, K) table of counts: rows are rater A's category, columns rater B's.

    int64 without sample weights, float64 (weighted counts) with them.
    """
    k = n_categories
    cell = true_index * k + pred_index
    counts = np.bincount(cell, weights=sample_weight, minlength=k * k)
    if sample_weight is None:
        counts = counts.astype(np.int64, copy=False)
    return counts.reshape(k, k)
