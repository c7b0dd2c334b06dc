"""The range of kappa that tables with given margins allow, and the warning of a test of a
``kappa0`` outside the range of the observed margins (of one table, or once for the groups
of several)."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator, Sequence

import numpy as np

from .._core import warn_at_caller
from .kappa_warnings import groups_text

__all__ = [
    "kappa_reach",
    "outside_reach",
    "reach_warning_ignored",
    "warn_groups_out_of_reach",
    "warn_kappa0_out_of_reach",
]

# Above this many categories a weight matrix without a closed form is not checked (the
# linear program grows as K**4).
_PROGRAM_CATEGORIES = 12
# kappa0 this close to an end of the range counts as inside it (float rounding).
_TOLERANCE = 1e-9
# The groups whose range a grouped warning lists (as many as it names).
_LISTED = 5


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


def outside_reach(
    table: np.ndarray, weights: np.ndarray, kappa0: float
) -> tuple[float, float] | None:
    """The range of :func:`kappa_reach` when ``kappa0`` lies outside it, else None (0 always
    lies inside it)."""
    if kappa0 == 0.0:
        return None
    reach = kappa_reach(table, weights)
    if reach is None:
        return None
    least, most = reach
    if least - _TOLERANCE <= kappa0 <= most + _TOLERANCE:
        return None
    return reach


def _reach_message(kappa0: float, ranges: str, several: bool = False) -> str:
    """The warning of a ``kappa0`` outside the range(s) ``ranges`` ("-0.5 to 0.3")."""
    return (
        f"`kappa0` = {kappa0:g} is outside the kappas that tables with the observed margins "
        f"allow under these weights ({ranges}): a population with these margins cannot have "
        f"kappa {kappa0:g}, so the test rejects H0 for the margins as much as for the "
        f"agreement. Hint: test a kappa0 inside {'those ranges' if several else 'that range'}."
    )


def warn_kappa0_out_of_reach(table: np.ndarray, weights: np.ndarray, kappa0: float) -> None:
    """Warn at the caller when ``kappa0`` lies outside the range of kappa that tables with the
    observed margins allow (0 always lies inside it)."""
    reach = outside_reach(table, weights, kappa0)
    if reach is not None:
        warn_at_caller(_reach_message(kappa0, _span(*reach)), UserWarning)


def warn_groups_out_of_reach(
    tables: Sequence[np.ndarray],
    weights: np.ndarray,
    kappa0: float,
    names: Sequence[str],
    option: str = "",
) -> None:
    """The warning of :func:`warn_kappa0_out_of_reach` once for some groups of several (the
    ``tables`` of those whose kappa is defined, ``names`` as shown), naming each group whose
    margins cannot reach ``kappa0``, with its range, after ``option`` (the grouping as the
    caller spells it: "by='prompt'")."""
    if kappa0 == 0.0:
        return
    found = [
        (name, reach)
        for table, name in zip(tables, names, strict=True)
        if (reach := outside_reach(table, weights, kappa0)) is not None
    ]
    if not found:
        return
    which = groups_text([name for name, _ in found], option)
    if len(found) == 1:
        message = _reach_message(kappa0, _span(*found[0][1]))
    else:
        ranges = "; ".join(f"{name}: {_span(*reach)}" for name, reach in found[:_LISTED])
        more = len(found) - _LISTED
        message = _reach_message(kappa0, ranges + (f"; {more} more" if more > 0 else ""), True)
    warn_at_caller(f"{which}: {message}", UserWarning)


def _span(least: float, most: float) -> str:
    return f"{least:.4g} to {most:.4g}"


@contextlib.contextmanager
def reach_warning_ignored() -> Iterator[None]:
    """Leave out the warning of :func:`warn_kappa0_out_of_reach` (a group's, which
    :func:`warn_groups_out_of_reach` gives once for all the groups)."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", r"`kappa0` = \S+ is outside the kappas that tables with", UserWarning
        )
        yield
