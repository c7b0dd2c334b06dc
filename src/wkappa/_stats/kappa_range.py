"""The range of kappa that tables with given margins allow, and the warning of a test of a
``kappa0`` outside the range of the observed margins."""

from __future__ import annotations

import numpy as np

from .._core import warn_at_caller

__all__ = ["kappa_reach", "warn_kappa0_out_of_reach"]

# Above this many categories a weight matrix without a closed form is not checked (the
# linear program grows as K**4).
_PROGRAM_CATEGORIES = 12
# kappa0 this close to an end of the range counts as inside it (float rounding).
_TOLERANCE = 1e-9


def _corner(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The north-west corner coupling of the margins: the table with margins ``rows``,
    ``cols`` that puts mass on cells ``(i, j)`` with i and j rising together."""
    table = np.zeros((rows.size, cols.size))
    left_rows, left_cols = rows.astype(np.float64), cols.astype(np.float64)
    i = j = 0
    while i < rows.size and j < cols.size:
        mass = min(left_rows[i], left_cols[j])
        table[i, j] += mass
        left_rows[i] -= mass
        left_cols[j] -= mass
        if left_rows[i] <= left_cols[j]:
            i += 1
        else:
            j += 1
    return table


def _monge(weights: np.ndarray) -> bool:
    """Whether ``W[i, j] + W[i+1, j+1] <= W[i, j+1] + W[i+1, j]`` everywhere (a Monge
    matrix: the quadratic and linear weights, any convex function of ``i - j``)."""
    adjacent = weights[:-1, :-1] + weights[1:, 1:] - weights[:-1, 1:] - weights[1:, :-1]
    return bool(np.all(adjacent <= 1e-12))


def kappa_reach(table: np.ndarray, weights: np.ndarray) -> tuple[float, float] | None:
    """The least and the largest kappa of a table with the margins of ``table`` under the
    disagreement weights ``weights``; None where they are not computed (a weight matrix of
    more than 12 categories that is neither Monge nor the unweighted one).

    The extremes are transport problems: kappa is ``1 - sum(W P) / D_e`` and every table with
    these margins has the same ``D_e``. Unweighted, the agreement ranges from
    ``max(0, max_i (r_i + c_i) - 1)`` to ``sum_i min(r_i, c_i)``; for a Monge matrix (the
    quadratic and linear weights) the least disagreement is that of the north-west corner
    coupling (categories rising together) and the most that of the coupling with the columns
    reversed; otherwise a linear program (that of the study planner).
    """
    counts = np.asarray(table, dtype=np.float64)
    p = counts / counts.sum()
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    expected = float(rows @ weights @ cols)
    k = rows.size
    unweighted = np.array_equal(weights, 1.0 - np.eye(k))
    if unweighted:
        agree_most = float(np.minimum(rows, cols).sum())
        agree_least = max(0.0, float(np.max(rows + cols)) - 1.0)
        least_cost, most_cost = 1.0 - agree_most, 1.0 - agree_least
    elif _monge(weights):
        least_cost = float((_corner(rows, cols) * weights).sum())
        most_cost = float((_corner(rows, cols[::-1])[:, ::-1] * weights).sum())
    elif k <= _PROGRAM_CATEGORIES:
        # (planning loads on first use, not with ``import wkappa``)
        from .planning_models import agreement_extremes

        most, least = agreement_extremes(rows, cols, weights)
        least_cost, most_cost = float((most * weights).sum()), float((least * weights).sum())
    else:
        return None
    return 1.0 - most_cost / expected, 1.0 - least_cost / expected


def warn_kappa0_out_of_reach(table: np.ndarray, weights: np.ndarray, kappa0: float) -> None:
    """Warn at the caller when ``kappa0`` lies outside the range of kappa that tables with the
    observed margins allow (0 always lies inside it)."""
    if kappa0 == 0.0:
        return
    reach = kappa_reach(table, weights)
    if reach is None:
        return
    least, most = reach
    if least - _TOLERANCE <= kappa0 <= most + _TOLERANCE:
        return
    warn_at_caller(
        f"`kappa0` = {kappa0:g} is outside the kappas that tables with the observed margins "
        f"allow under these weights ({least:.4g} to {most:.4g}): a population with these "
        f"margins cannot have kappa {kappa0:g}, so the test rejects H0 for the margins as much "
        "as for the agreement. Hint: test a kappa0 inside that range.",
        UserWarning,
    )
