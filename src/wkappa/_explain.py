"""The seed notes' story of a kappa: O, W, E, numerator, denominator, kappa, as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["explain_table"]


def _matrix(name: str, matrix: np.ndarray) -> str:
    with np.printoptions(precision=4, suppress=True, linewidth=100):
        return f"{name}\n{matrix}"


def explain_table(
    table: np.ndarray, weight_matrix: np.ndarray, labels: Sequence[Any] | None = None
) -> str:
    """Explain ``kappa = 1 - sum(W*O) / sum(W*E)`` step by step.

    Parameters
    ----------
    table : ndarray of shape (K, K)
        Counts O (rows rater A, columns rater B).
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W.
    labels : sequence of K categories, optional
        Printed as the category order.

    Returns
    -------
    str
        The steps of the seed notes: O (counts), W, E = outer(row sums, column sums) (as the
        notes print it, before normalising), both normalised to sum 1, the numerator
        ``sum(W*O)``, the denominator ``sum(W*E)`` and kappa, then the cells that lose the
        most agreement, ``W * (O - E)``.
    """
    counts = np.asarray(table, dtype=np.float64)
    rows, cols = counts.sum(axis=1), counts.sum(axis=0)
    n = counts.sum()
    outer = np.outer(rows, cols)
    observed = counts / n if n else counts
    expected = outer / outer.sum() if outer.sum() else outer
    numerator = float(np.sum(weight_matrix * observed))
    denominator = float(np.sum(weight_matrix * expected))
    kappa = 1 - numerator / denominator if denominator else float("nan")
    lines = []
    if labels is not None:
        lines.append(f"Categories (K = {len(labels)}): {list(labels)}")
    lines += [
        "Step 1 - the confusion matrix O (rows: rater A / y_true, columns: rater B / y_pred)",
        _matrix("Matrix O:", np.asarray(table)),
        "Step 2 - the disagreement weights W",
        _matrix("weights matrix:", weight_matrix),
        "Step 3 - the expected matrix E = outer(row sums of O, column sums of O)",
        _matrix("Expected matrix:", outer),
        "Step 4 - normalise O and E to sum 1; kappa = 1 - sum(W*O) / sum(W*E)",
        f"numerator   sum(W*O) = {numerator!r}",
        f"denominator sum(W*E) = {denominator!r}",
        f"weighted kappa       = {kappa!r}",
    ]
    contribution = weight_matrix * (observed - expected)
    order = np.argsort(contribution, axis=None)[::-1]
    worst = [divmod(int(i), counts.shape[1]) for i in order[:3] if contribution.flat[i] > 0]
    if worst:
        names = list(labels) if labels is not None else list(range(counts.shape[0]))
        lines.append("Cells losing the most agreement, W*(O-E) normalised:")
        for i, j in worst:
            cell = float(counts[i, j])
            shown = int(cell) if cell.is_integer() else cell
            lines.append(
                f"  A={names[i]!r}, B={names[j]!r}: {contribution[i, j]:+.4f} (observed {shown})"
            )
    return "\n".join(lines)
