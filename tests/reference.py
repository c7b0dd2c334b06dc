"""An exact reference implementation of design §2 with fractions.Fraction (tests only).

Straight from the definitions, with no cleverness: the K x K table O, the disagreement
weights W, E = outer(row sums, column sums) / n and kappa = 1 - sum(W*O) / sum(W*E),
all in exact rational arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

Number = int | Fraction


def reference_weights(kind: str | Sequence[Sequence[Any]], k: int) -> list[list[Fraction]]:
    """Disagreement weights as Fractions: 'quadratic', 'linear', 'unweighted' or a matrix."""
    if not isinstance(kind, str):
        return [[Fraction(float(kind[i][j])) for j in range(k)] for i in range(k)]
    scale = max(k - 1, 1)
    if kind == "quadratic":
        return [[Fraction((i - j) ** 2, scale**2) for j in range(k)] for i in range(k)]
    if kind == "linear":
        return [[Fraction(abs(i - j), scale) for j in range(k)] for i in range(k)]
    if kind == "unweighted":
        return [[Fraction(int(i != j)) for j in range(k)] for i in range(k)]
    raise ValueError(kind)


def reference_table(
    true_index: Sequence[int],
    pred_index: Sequence[int],
    k: int,
    sample_weight: Sequence[Any] | None = None,
) -> list[list[Fraction]]:
    """O[i][j] = total weight of the pairs with true index i and predicted index j."""
    table = [[Fraction(0)] * k for _ in range(k)]
    weights = [1] * len(true_index) if sample_weight is None else sample_weight
    for a, b, w in zip(true_index, pred_index, weights, strict=True):
        table[a][b] += Fraction(float(w)) if not isinstance(w, int) else Fraction(w)
    return table


def reference_kappa_from_table(
    table: Sequence[Sequence[Any]], weights: str | Sequence[Sequence[Any]]
) -> Fraction | None:
    """Exact kappa of a table, or None when sum(W*E) == 0 (undefined)."""
    k = len(table)
    o = [
        [Fraction(x) if isinstance(x, (int, Fraction)) else Fraction(float(x)) for x in row]
        for row in table
    ]
    w = reference_weights(weights, k)
    n = sum(sum(row) for row in o)
    if n == 0:
        return None
    rows = [sum(o[i]) for i in range(k)]
    cols = [sum(o[i][j] for i in range(k)) for j in range(k)]
    observed = sum(w[i][j] * o[i][j] for i in range(k) for j in range(k))
    expected = sum(w[i][j] * rows[i] * cols[j] / n for i in range(k) for j in range(k))
    if expected == 0:
        return None
    return 1 - observed / expected


def reference_kappa(
    true_index: Sequence[int],
    pred_index: Sequence[int],
    k: int,
    weights: str | Sequence[Sequence[Any]] = "quadratic",
    sample_weight: Sequence[Any] | None = None,
) -> Fraction | None:
    """Exact weighted kappa of category indices in 0..k-1 (None when undefined)."""
    table = reference_table(true_index, pred_index, k, sample_weight)
    return reference_kappa_from_table(table, weights)


def reference_qwk_pairs(
    true_values: Sequence[int],
    pred_values: Sequence[int],
    sample_weight: Sequence[Any] | None = None,
) -> Fraction | None:
    """Exact QWK of integer ratings without a table (any K), None when undefined.

    From the definition with ``E = outer(r, c) / n``: with quadratic weights, ``sum(W*O) =
    Σ w_k (a_k - b_k)²`` and ``sum(W*E) = Σ_i Σ_j w_i w_j (a_i - b_j)² / n`` (the common
    factor ``1/(K-1)²`` cancels), summed pair by pair over all n² pairs.
    """
    weights = [
        Fraction(w) if isinstance(w, int) else Fraction(float(w))
        for w in (sample_weight if sample_weight is not None else [1] * len(true_values))
    ]
    n = sum(weights)
    if n == 0:
        return None
    observed = sum(
        w * (a - b) ** 2 for a, b, w in zip(true_values, pred_values, weights, strict=True)
    )
    expected = (
        sum(
            wi * wj * (a - b) ** 2
            for a, wi in zip(true_values, weights, strict=True)
            for b, wj in zip(pred_values, weights, strict=True)
        )
        / n
    )
    if expected == 0:
        return None
    return 1 - observed / expected


def reference_influence(
    p: list[list[Fraction]], w: list[list[Fraction]]
) -> tuple[Fraction, list[list[Fraction]]] | None:
    """Kappa of an exact proportion table p under weights w and the influence of one pair in
    each cell, ``IF_ij = -(h_ij - sum(p h)) / D_e`` with ``h_ij = W_ij - (1 - kappa)(w_i + v_j)``
    (``sum(p IF²) / n`` is the Fleiss-Cohen-Everitt variance); None where kappa is undefined."""
    k = len(p)
    r = [sum(p[i]) for i in range(k)]
    c = [sum(p[i][j] for i in range(k)) for j in range(k)]
    wr = [sum(w[i][j] * c[j] for j in range(k)) for i in range(k)]
    wc = [sum(r[i] * w[i][j] for i in range(k)) for j in range(k)]
    d_e = sum(r[i] * wr[i] for i in range(k))
    if d_e == 0:
        return None
    kappa = 1 - sum(w[i][j] * p[i][j] for i in range(k) for j in range(k)) / d_e
    h = [[w[i][j] - (1 - kappa) * (wr[i] + wc[j]) for j in range(k)] for i in range(k)]
    mean = sum(p[i][j] * h[i][j] for i in range(k) for j in range(k))
    return kappa, [[-(h[i][j] - mean) / d_e for j in range(k)] for i in range(k)]


def reference_variances(
    table: list[list[int]], weights: str | Sequence[Sequence[Any]]
) -> tuple[Fraction, Fraction]:
    """SAS PROC FREQ's documented formulas in agreement weights w = 1 - W, exactly."""
    k = len(table)
    w = [[1 - x for x in row] for row in reference_weights(weights, k)]
    n = sum(map(sum, table))
    p = [[Fraction(table[i][j], n) for j in range(k)] for i in range(k)]
    row = [sum(p[i]) for i in range(k)]
    col = [sum(p[i][j] for i in range(k)) for j in range(k)]
    po = sum(w[i][j] * p[i][j] for i in range(k) for j in range(k))
    pe = sum(w[i][j] * row[i] * col[j] for i in range(k) for j in range(k))
    kappa = (po - pe) / (1 - pe)
    wbar_row = [sum(col[j] * w[i][j] for j in range(k)) for i in range(k)]
    wbar_col = [sum(row[i] * w[i][j] for i in range(k)) for j in range(k)]
    a = sum(
        p[i][j] * (w[i][j] - (wbar_row[i] + wbar_col[j]) * (1 - kappa)) ** 2
        for i in range(k)
        for j in range(k)
    )
    variance = (a - (kappa - pe * (1 - kappa)) ** 2) / ((1 - pe) ** 2 * n)
    b = sum(
        row[i] * col[j] * (w[i][j] - (wbar_row[i] + wbar_col[j])) ** 2
        for i in range(k)
        for j in range(k)
    )
    variance_null = (b - pe**2) / ((1 - pe) ** 2 * n)
    return variance, variance_null
