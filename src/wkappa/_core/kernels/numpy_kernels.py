"""Vectorised numpy counting kernels (no Python loop over the data)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..statistic import INT64_SAFE

__all__ = ["QuadraticSums", "count_table", "quadratic_sums", "weighted_quadratic_sums"]


@dataclass(frozen=True)
class QuadraticSums:
    """The sufficient statistic of quadratic weighted kappa.

    With category indices ``a_k`` (rater A) and ``b_k`` (rater B), pair weights ``w_k``
    (1 without sample weights) and a centre ``c``: ``total = Σw``, ``sum_true = Σw·(a-c)``,
    ``sum_pred = Σw·(b-c)``, ``sum_true_sq = Σw·(a-c)²``, ``sum_pred_sq = Σw·(b-c)²``,
    ``sum_cross = Σw·(a-c)·(b-c)``. QWK is translation invariant, so any ``c`` gives the same
    kappa. Python ints (exact, ``c = 0`` or another integer shift) without sample weights;
    floats with them, centred on the midpoint of the two weighted means so that the final
    formula does not cancel (see :func:`weighted_quadratic_sums`).
    """

    total: int | float
    sum_true: int | float
    sum_pred: int | float
    sum_true_sq: int | float
    sum_pred_sq: int | float
    sum_cross: int | float
    centre: float = 0.0

    def recentred(self, centre: float) -> QuadraticSums:
        """The same statistic about another centre (exact for integer sums and shifts)."""
        d = self.centre - centre
        if d == 0:
            return self
        n, sa, sb = self.total, self.sum_true, self.sum_pred
        return QuadraticSums(
            n,
            sa + n * d,
            sb + n * d,
            self.sum_true_sq + 2 * d * sa + n * d * d,
            self.sum_pred_sq + 2 * d * sb + n * d * d,
            self.sum_cross + d * (sa + sb) + n * d * d,
            centre,
        )

    def __add__(self, other: QuadraticSums) -> QuadraticSums:
        left, right = self, other
        if self.centre != other.centre:
            weight = self.total + other.total
            centre = (
                (self.total * self.centre + other.total * other.centre) / weight if weight else 0.0
            )
            left, right = self.recentred(centre), other.recentred(centre)
        return QuadraticSums(
            left.total + right.total,
            left.sum_true + right.sum_true,
            left.sum_pred + right.sum_pred,
            left.sum_true_sq + right.sum_true_sq,
            left.sum_pred_sq + right.sum_pred_sq,
            left.sum_cross + right.sum_cross,
            left.centre,
        )


def weighted_quadratic_sums(
    true_values: np.ndarray, pred_values: np.ndarray, sample_weight: np.ndarray
) -> QuadraticSums:
    """:class:`QuadraticSums` of sample-weighted ratings, computed so that nothing cancels.

    Two passes. The first finds ``Σw``, ``Σw·a``, ``Σw·b`` and the centre ``c``, the midpoint
    of the two weighted means; the second sums about ``c``. Then ``Σw·(a-c) = -Σw·(b-c)`` up to
    rounding, and the denominator of :func:`~wkappa._core.statistic.kappa_from_sums`,
    ``W·(Σw(a-c)² + Σw(b-c)²) - 2·Σw(a-c)·Σw(b-c)``, is a sum of non-negative terms: no
    catastrophic cancellation, whatever the offset of the ratings (the raw five sums lose
    every digit when the offset is large against the spread). The weights are first scaled by
    a power of two (exact) so that their maximum is in [0.5, 1): kappa does not depend on
    their scale, and no sum overflows or underflows.

    ``true_values`` and ``pred_values`` are integer or integral float ratings (any common
    shift); zero-weight pairs add exactly nothing.
    """
    w = np.asarray(sample_weight, dtype=np.float64)
    top = float(w.max()) if w.size else 0.0
    if top > 0.0:
        w = np.ldexp(w, -int(np.frexp(top)[1]))
    if true_values.dtype.kind in "bu":  # unsigned differences would wrap around
        true_values = true_values.astype(np.int64)
        pred_values = pred_values.astype(np.int64)
    shift = true_values[0] if true_values.size else 0
    a = (true_values - shift).astype(np.float64)  # exact: integer differences below 2**53
    b = (pred_values - shift).astype(np.float64)
    total = float(w.sum())
    if total == 0.0:
        return QuadraticSums(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    centre = float((w * a).sum() + (w * b).sum()) / (2.0 * total)
    da = a - centre
    db = b - centre
    wa = w * da
    wb = w * db
    return QuadraticSums(
        total,
        float(wa.sum()),
        float(wb.sum()),
        float((wa * da).sum()),
        float((wb * db).sum()),
        float((wa * db).sum()),
        centre + float(shift),
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
        return weighted_quadratic_sums(true_index, pred_index, sample_weight)
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
