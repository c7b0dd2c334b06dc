"""The final math: kappa and its large-sample variances from count tables or the QWK sums.

Everything here is O(K²) (or O(1) for the sums) and batched over stacks of tables of shape
``(..., K, K)``: the core's point estimates, :func:`wkappa.frames.kappa_by_group`, the table
bootstrap and :func:`wkappa.kappa_test` all call these functions. Undefined values are nan;
the caller applies the ``zero_division`` rule. This module imports nothing else of the
package.

Exactness. Integer counts with named weights (integer matrices ``D`` with ``W = D / scale``)
give exact integer numerators and denominators, finished with one correctly rounded division.
Anything else works with proportions ``P = O / n``, whose terms are all non-negative, so
nothing cancels and huge or tiny counts neither overflow nor underflow.
"""

from __future__ import annotations

import operator
from itertools import chain
from typing import Any

import numpy as np

__all__ = [
    "INT64_SAFE",
    "cell_kappas",
    "kappa_from_sums",
    "kappas",
    "table_sums",
    "variances",
]

# The one bound for exact int64 arithmetic: a sum of terms whose total stays below it
# cannot overflow int64, whatever the order of the additions.
INT64_SAFE = 2**62
# Tables up to this K are finished with Python ints (exact at any size, and cheaper than
# numpy calls for a few dozen cells).
_PYTHON_K = 8
# Float (sample-weighted) QWK sums: a denominator below this fraction of its scale is zero
# up to rounding (see kappa_from_sums).
_FLOAT_SUMS_TOLERANCE = 2.0**-40


def kappa_from_sums(
    total: Any, sum_true: Any, sum_pred: Any, sum_true_sq: Any, sum_pred_sq: Any, sum_cross: Any
) -> float:
    """Quadratic weighted kappa from the five sums; nan when it is undefined.

    Notes
    -----
    With category indices a, b and n pairs,

    .. math::

        \\kappa = 1 - \\frac{n \\sum (a - b)^2}{\\sum_i \\sum_j (a_i - b_j)^2}
               = \\frac{2 (n \\sum ab - \\sum a \\sum b)}
                       {n (\\sum a^2 + \\sum b^2) - 2 \\sum a \\sum b}.

    With integer sums both numerator and denominator are exact Python ints and the one
    division is correctly rounded. With float (sample-weighted) sums the denominator is a
    difference of rounded products: when it is below ``2**-40`` of ``n (Σa² + Σb²)`` it is
    zero up to rounding (for example every pair in one category, whose float sums need not
    cancel exactly) and kappa is reported as undefined rather than as a number made of
    rounding errors.
    """
    n = total
    numerator = 2 * (n * sum_cross - sum_true * sum_pred)
    scale = n * (sum_true_sq + sum_pred_sq)
    denominator = scale - 2 * sum_true * sum_pred
    exact = type(scale) is int and type(sum_true) is int and type(sum_pred) is int
    tolerance = 0 if exact else _FLOAT_SUMS_TOLERANCE * scale
    if denominator <= tolerance or n <= 0:
        return float("nan")
    return float(numerator / denominator)


def table_sums(table: np.ndarray) -> tuple[int, int, int, int, int, int] | None:
    """The five QWK sums of an integer (K, K) table, exactly, or None if int64 could overflow.

    Returns ``(n, Σa, Σb, Σa², Σb², Σab)`` over the pairs the table counts, a and b being the
    row and column indices.
    """
    if table.dtype.kind not in "iu":
        return None
    k = table.shape[0]
    if table.size == 0 or int(table.max()) * table.size * max(k - 1, 1) ** 2 >= INT64_SAFE:
        return None  # the int64 sums below could overflow: the float path decides
    n = int(table.sum())
    index = np.arange(k, dtype=np.int64)
    rows = table.sum(axis=1)
    cols = table.sum(axis=0)
    return (
        n,
        int(rows @ index),
        int(cols @ index),
        int(rows @ (index * index)),
        int(cols @ (index * index)),
        int(index @ table @ index),
    )


def _whole(tables: np.ndarray) -> bool:
    """Integer counts, or weighted counts that happen to be whole (integer sample weights)."""
    if tables.dtype.kind in "iu":
        return True
    with np.errstate(over="ignore"):
        total = float(tables.sum())
    return tables.dtype.kind == "f" and total < 2.0**53 and bool(np.all(tables == np.floor(tables)))


def kappas(
    tables: np.ndarray, weights: np.ndarray | None, integer: np.ndarray | None = None
) -> Any:
    """Kappa of each table in a stack: ``1 - sum(W*O) / sum(W*E)``, nan where undefined.

    Parameters
    ----------
    tables : ndarray of shape (..., K, K)
        Non-negative counts (int64) or weighted counts (float64); rows are rater A.
    weights : ndarray of shape (K, K) or None
        Disagreement weights W; None when ``integer`` is given (kappa does not change when
        W is scaled, so ``integer`` serves as W).
    integer : ndarray of shape (K, K), int64, optional
        Integer weights D with ``W = D / scale`` (see
        :func:`wkappa._core.weights.integer_weights`); with whole counts they make the
        result exact.

    Returns
    -------
    float or ndarray of shape (...)
        A float for one (K, K) table.

    Notes
    -----
    With whole counts and integer weights, ``kappa = (r' D c - n sum(D*O)) / (r' D c)``: exact
    Python ints, one correctly rounded division. Otherwise, with proportions ``P = O / n``
    and their margins p, q, ``kappa = 1 - sum(W*P) / (p' W q)``.
    """
    if tables.ndim == 2 and integer is not None and tables.dtype.kind in "iu":
        exact = _integer_kappa(tables, integer)  # one table of counts: the common call
        if exact is not None:
            return exact
    if weights is None:
        assert integer is not None, "weights or integer weights are needed"
        matrix = integer.astype(np.float64)
    else:
        matrix = weights
    single = tables.ndim == 2
    stack = tables[None] if single else tables.reshape(-1, *tables.shape[-2:])
    # In float64: an int64 sum past 2**63 would wrap around and pass the bound below.
    with np.errstate(over="ignore"):  # inf (huge weighted counts) just fails the bound
        n_max = float(stack.sum(axis=(1, 2), dtype=np.float64).max()) if stack.size else 0.0
    if (
        integer is not None
        and stack.size
        and _whole(stack)
        and n_max * float(integer.max()) < INT64_SAFE
    ):
        values = _integer_kappas(stack.astype(np.int64, copy=False), integer)
    else:
        values = _float_kappas(stack.astype(np.float64, copy=False), matrix)
    if single:
        return float(values[0])
    return values.reshape(tables.shape[:-2])


def _integer_kappa(table: np.ndarray, integer: np.ndarray) -> float | None:
    """Exact kappa of one int64 table, or None if int64 sums could overflow."""
    k = table.shape[0]
    if k <= _PYTHON_K:  # a few dozen cells: Python ints cost less than numpy calls
        cells = table.tolist()
        d = integer.tolist()
        rows = list(map(sum, cells))
        cols = list(map(sum, zip(*cells, strict=True)))
        n = sum(rows)
        observed = sum(map(operator.mul, chain.from_iterable(d), chain.from_iterable(cells)))
        weighted_cols = [sum(map(operator.mul, dr, cols)) for dr in d]
    else:
        row_sums = table.sum(axis=1)
        n = int(row_sums.sum())
        if n * int(integer[0, -1]) >= INT64_SAFE:  # D's largest entry is its corner
            return None
        rows = row_sums.tolist()
        observed = int(np.vdot(integer, table))
        weighted_cols = (integer @ table.sum(axis=0)).tolist()
    expected = sum(map(operator.mul, rows, weighted_cols))
    return (expected - n * observed) / expected if expected > 0 else float("nan")


def _integer_kappas(stack: np.ndarray, integer: np.ndarray) -> np.ndarray:
    n = stack.sum(axis=(1, 2)).tolist()
    observed = np.einsum("gij,ij->g", stack, integer).tolist()
    weighted_cols = np.einsum("ij,gj->gi", integer, stack.sum(axis=1)).tolist()
    rows = stack.sum(axis=2).tolist()
    out = np.empty(len(n))
    for g, (m, o, r, w) in enumerate(zip(n, observed, rows, weighted_cols, strict=True)):
        expected = sum(x * y for x, y in zip(r, w, strict=True))  # Python ints: exact
        out[g] = (expected - m * o) / expected if expected > 0 else np.nan
    return out


def unit_scale(values: np.ndarray) -> np.ndarray:
    """``values`` (non-negative, finite) times the power of two that brings their maximum
    into [0.5, 1): exact, and kappa and its variances do not depend on the scale of the
    counts or of the weights, while their sums and products then neither overflow nor
    underflow."""
    array = np.asarray(values, dtype=np.float64)
    top = float(array.max()) if array.size else 0.0
    if top == 0.0 or not np.isfinite(top):
        return array
    scaled: np.ndarray = np.ldexp(array, -int(np.frexp(top)[1]))
    return scaled


def _weighted(weights: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``W v`` for each row v of ``vectors`` (G, K), as elementwise products summed along
    the contiguous last axis.

    Neither a matrix product (BLAS rounds differently for a stack and for one row, and on
    different CPUs) nor ``einsum`` (which splits sums of more than 8192 terms by the
    stack's shape): the sums of this module round the same for a table alone and in a
    stack, in any memory layout.
    """
    out: np.ndarray = (weights[None] * vectors[:, None, :]).sum(axis=2)
    return out


def _float_kappas(stack: np.ndarray, weights: np.ndarray) -> np.ndarray:
    stack = np.ascontiguousarray(unit_scale(stack))
    weights = unit_scale(weights)
    n = stack.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = stack / n[:, None, None]
        observed = (p * weights[None]).sum(axis=(1, 2))
        expected = (p.sum(axis=2) * _weighted(weights, p.sum(axis=1))).sum(axis=1)
        values: np.ndarray = np.where((expected > 0) & (n > 0), 1.0 - observed / expected, np.nan)
    return values


def _one_hot(index: np.ndarray, k: int) -> np.ndarray:
    hot = np.zeros((index.size, k))
    hot[np.arange(index.size), index] = 1.0
    return hot


def cell_kappas(
    replicates: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    weights: np.ndarray,
    integer: np.ndarray | None = None,
) -> np.ndarray:
    """Kappa of each of B tables given by their counts in m shared cells; nan where undefined.

    The table bootstrap's form: every replicate of a table has its counts in the same
    non-empty cells, so B replicates are a (B, m) array.

    Parameters
    ----------
    replicates : ndarray of shape (B, m)
        Counts of the m cells (i_c, j_c) in each replicate.
    rows, cols : ndarray of shape (m,)
        The row and column index of each cell.
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    integer : ndarray of shape (K, K), int64, optional
        Integer weights D with ``W = D / scale`` (see
        :func:`wkappa._core.weights.integer_weights`).

    Returns
    -------
    ndarray of shape (B,)
        ``1 - n * sum(W*O) / (r^T W c)`` per replicate.

    Notes
    -----
    The result does not depend on the CPU. With whole counts and integer weights whose sums
    stay below 2**53, every sum is a whole number held exactly in float64, so the matrix
    products are exact whatever order BLAS adds in, and each kappa is
    ``(r' D c - n sum(D*O)) / (r' D c)`` with one rounding. Otherwise the sums are
    elementwise products summed along fixed axes (BLAS kernels round differently on
    different CPUs).
    """
    k = weights.shape[0]
    n = replicates.sum(axis=1)
    if integer is not None and _exact_products(replicates, n, integer):
        d = integer.astype(np.float64)
        observed = n * (replicates @ d[rows, cols])
        expected = np.einsum(
            "bi,bi->b", (replicates @ _one_hot(rows, k)) @ d, replicates @ _one_hot(cols, k)
        )
        defined = (expected > 0) & (n > 0)
        kappa = np.full(n.shape, np.nan)
        np.divide(expected - observed, expected, out=kappa, where=defined)
        return kappa
    observed = (replicates * weights[rows, cols]).sum(axis=1)
    tables = np.zeros((len(replicates), k * k))
    flat = rows * k + cols
    if flat.size and np.all(flat[1:] > flat[:-1]):  # distinct cells (a table's, in order)
        tables[:, flat] = replicates
    else:  # counts of the same cell (several per cell) added left to right
        order = np.argsort(flat, kind="stable")
        cells, starts = np.unique(flat[order], return_index=True)
        tables[:, cells] = np.add.reduceat(replicates[:, order], starts, axis=1)
    row_sums = tables.reshape(-1, k, k).sum(axis=2)
    col_sums = tables.reshape(-1, k, k).sum(axis=1)
    expected = (row_sums * _weighted(weights, col_sums)).sum(axis=1)
    defined = (expected > 0) & (n > 0)
    kappa = np.full(n.shape, np.nan)
    np.divide(n * observed, expected, out=kappa, where=defined)
    np.subtract(1.0, kappa, out=kappa, where=defined)
    return kappa


def _exact_products(replicates: np.ndarray, n: np.ndarray, integer: np.ndarray) -> bool:
    """Whether the replicates are whole counts whose integer-weighted sums (at most
    ``n² max(D)``, non-negative terms) are whole numbers below 2**53: exact in float64."""
    if not replicates.size:
        return False
    top = float(n.max())
    if not top**2 * max(float(integer.max()), 1.0) < 2.0**53:
        return False
    return bool(np.array_equal(replicates, np.floor(replicates)))


def variances(tables: np.ndarray, weights: np.ndarray, kappa: Any) -> tuple[Any, Any]:
    """Large-sample variances of kappa, non-null and under independence, for each table.

    Parameters
    ----------
    tables : ndarray of shape (..., K, K)
        Counts O (nan results where ``n = 0`` or ``sum(W*E) = 0``).
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    kappa : float or ndarray of shape (...)
        The kappa of each table (:func:`kappas`).

    Returns
    -------
    variance, variance_null : float or ndarray of shape (...)

    Notes
    -----
    The delta-method (multinomial) variance of ``kappa = 1 - sum(W p) / D_e`` with
    ``p = O / n`` and ``D_e = r^T W c``, and the variance under independence (``p_ij = r_i
    c_j``), as written out in the Notes of :func:`wkappa.kappa_test` (with agreement weights
    ``A = 1 - W``, the formulas of Fleiss, Cohen & Everitt (1969) used by SAS PROC FREQ and
    statsmodels). Both brackets there are computed as centred sums of squares, so they are
    never negative.
    """
    single = tables.ndim == 2
    # C order: a sum rounds by the memory layout.
    original = np.ascontiguousarray(tables).reshape(-1, *tables.shape[-2:])
    with np.errstate(over="ignore"):
        n = original.sum(axis=(1, 2), dtype=np.float64)  # the sample size, unscaled
    stack = unit_scale(original)  # proportions from scaled counts: no overflow
    weights = unit_scale(weights)
    k_values = np.asarray(kappa, dtype=np.float64).reshape(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = stack / stack.sum(axis=(1, 2))[:, None, None]
        row, col = p.sum(axis=2), p.sum(axis=1)
        w_row = _weighted(weights, col)
        w_col = _weighted(np.ascontiguousarray(weights.T), row)
        d_e = (row * w_row).sum(axis=1)
        influence = weights[None] - (1.0 - k_values)[:, None, None] * (
            w_row[:, :, None] + w_col[:, None, :]
        )
        expected = row[:, :, None] * col[:, None, :]
        null_influence = weights[None] - w_row[:, :, None] - w_col[:, None, :]
        # Divided one factor at a time: n * D_e² could overflow or underflow on its own.
        variance = _centred_square_mean(p, influence) / d_e / d_e / n
        variance_null = _centred_square_mean(expected, null_influence) / d_e / d_e / n
    if single:
        return float(variance[0]), float(variance_null[0])
    return variance.reshape(tables.shape[:-2]), variance_null.reshape(tables.shape[:-2])


def _centred_square_mean(p: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per table ``sum p (x - mean)²``; exactly 0 when it is only rounding noise.

    Centring first leaves an error of order eps² sum p x², so anything below 1e-24 of that
    is a zero variance (all mass on cells with one value, e.g. n = 1).
    """
    mean = (p * values).sum(axis=(1, 2))
    centred = values - mean[:, None, None]
    spread = (p * (centred * centred)).sum(axis=(1, 2))
    scale = (p * (values * values)).sum(axis=(1, 2))
    cleaned: np.ndarray = np.where(spread <= 1e-24 * scale, 0.0, spread)
    return cleaned
