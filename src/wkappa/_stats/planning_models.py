"""The anticipated population of a planned agreement study, and the pieces of the planning
methods that need no simulation: the model table with a given kappa, the variances of the
large-sample test, a small linear-programming solver (variance-maximising and
agreement-maximising tables) and the goodness-of-fit cell probabilities of Donner & Eliasziw.

Everything works on proportion tables ``P`` (K x K, sum 1) and disagreement weights ``W``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core import float_array, norm_cdf, norm_ppf, real_number
from ..exceptions import WkappaError
from .cluster import influence_table
from .score_interval import hypothesis_variances

__all__ = [
    "agreement_extremes",
    "check_attainable_null",
    "check_marginals",
    "check_probability",
    "goodness_of_fit_cells",
    "linear_program",
    "max_variance",
    "model_table",
    "noncentrality_one_df",
    "null_spread",
    "population_table",
    "spread",
    "table_kappa_value",
]

# Probabilities must sum to 1 within this (a pilot table of counts is normalised instead).
_SUM_TOLERANCE = 1e-6
# The simplex solver's tolerance on reduced costs and pivots.
_LP_TOLERANCE = 1e-11


def check_probability(value: Any, name: str, *, low: float = 0.0, high: float = 1.0) -> float:
    """A real number strictly between ``low`` and ``high`` (a probability-like option)."""
    number = real_number(value, name, f"a number in ({low:g}, {high:g})")
    if not (math.isfinite(number) and low < number < high):
        hint = ""
        if (low, high) == (0.0, 1.0) and 1.0 < number < 100.0:  # a percentage
            hint = f" Hint: {number:g}% is {name}={number / 100:g}."
        raise WkappaError(
            f"`{name}` must be strictly between {low:g} and {high:g}; got {number!r}.{hint}"
        )
    return number


def table_kappa_value(p: np.ndarray, weights: np.ndarray) -> float:
    """Kappa of one proportion table (nan when ``sum(W*E) = 0``)."""
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    expected = float(rows @ weights @ cols)
    if expected <= 0.0:
        return math.nan
    return 1.0 - float((weights * p).sum()) / expected


def spread(p: np.ndarray, weights: np.ndarray) -> float:
    """``n * Var(kappa) = sum(p IF²)`` at the proportion table p (Fleiss-Cohen-Everitt,
    non-null; the influence ``IF`` of :func:`influence_table`)."""
    _, influence = influence_table(p, weights)
    return float((p * influence**2).sum())


def null_spread(p: np.ndarray, weights: np.ndarray, kappa0: float) -> float:
    """``n * Var0``: the variance wkappa's test of ``kappa = kappa0`` uses at the table p.

    At ``kappa0 = 0`` the independence table of p's margins (Fleiss-Cohen-Everitt's null
    variance); otherwise the table with kappa ``kappa0`` on the score interval's path
    through p (see :func:`wkappa.kappa_test_from_table`).
    """
    if kappa0 == 0.0:
        rows, cols = p.sum(axis=1), p.sum(axis=0)
        return spread(np.outer(rows, cols), weights)
    return float(hypothesis_variances(p, weights, kappa0))


def linear_program(
    objective: np.ndarray, a_eq: np.ndarray, b_eq: np.ndarray
) -> tuple[np.ndarray, float] | None:
    """Maximise ``objective @ x`` subject to ``a_eq @ x = b_eq``, ``x >= 0``.

    A dense two-phase simplex with Bland's rule (no cycling), for the small programs of
    planning (K² variables, 2K + 1 constraints). Returns ``(x, value)``, or None when the
    constraints have no solution. The problem must be bounded (it is here: x lies in the
    simplex of proportion tables).
    """
    a = np.array(a_eq, dtype=np.float64)
    b = np.array(b_eq, dtype=np.float64)
    negative = b < 0
    a[negative] *= -1.0
    b[negative] *= -1.0
    m, n_var = a.shape
    tableau = np.zeros((m + 1, n_var + m + 1))
    tableau[:m, :n_var] = a
    tableau[:m, n_var : n_var + m] = np.eye(m)
    tableau[:m, -1] = b
    basis = list(range(n_var, n_var + m))
    # Phase 1: maximise -sum(artificials); reduced costs of the starting basis.
    tableau[m, :] = -tableau[:m, :].sum(axis=0)
    tableau[m, n_var : n_var + m] = 0.0
    _simplex(tableau, basis, n_var + m)
    if tableau[m, -1] < -1e-9:
        return None
    # Drive the artificial variables out of the basis (or drop their redundant rows).
    keep = []
    for row in range(m):
        if basis[row] < n_var:
            keep.append(row)
            continue
        candidates = np.flatnonzero(np.abs(tableau[row, :n_var]) > 1e-9)
        if candidates.size:
            _pivot(tableau, basis, row, int(candidates[0]))
            keep.append(row)
    rows = [*keep, m]
    tableau = np.concatenate([tableau[rows, :n_var], tableau[rows, -1:]], axis=1)
    basis = [basis[row] for row in keep]
    m = len(keep)
    # Phase 2: the real objective's reduced costs with respect to the current basis.
    tableau[m, :] = 0.0
    tableau[m, :n_var] = -np.asarray(objective, dtype=np.float64)
    for row, column in enumerate(basis):
        tableau[m, :] -= tableau[m, column] * tableau[row, :]
    _simplex(tableau, basis, n_var)
    x = np.zeros(n_var)
    for row, column in enumerate(basis):
        x[column] = tableau[row, -1]
    return x, float(np.asarray(objective) @ x)


def _simplex(tableau: np.ndarray, basis: list[int], n_columns: int) -> None:
    m = tableau.shape[0] - 1
    for _ in range(50_000):
        costs = tableau[m, :n_columns]
        entering = np.flatnonzero(costs < -_LP_TOLERANCE)
        if entering.size == 0:
            return
        column = int(entering[0])
        pivots = tableau[:m, column]
        ratios = np.full(m, np.inf)
        positive = pivots > _LP_TOLERANCE
        ratios[positive] = tableau[:m, -1][positive] / pivots[positive]
        best = ratios.min()
        if not np.isfinite(best):
            raise WkappaError("internal error: unbounded planning program")  # pragma: no cover
        ties = np.flatnonzero(ratios <= best + 1e-14)
        row = int(min(ties, key=lambda r: basis[r]))
        _pivot(tableau, basis, row, column)
    raise WkappaError("internal error: the planning program did not converge")  # pragma: no cover


def _pivot(tableau: np.ndarray, basis: list[int], row: int, column: int) -> None:
    tableau[row, :] /= tableau[row, column]
    others = np.arange(tableau.shape[0]) != row
    tableau[others, :] -= np.outer(tableau[others, column], tableau[row, :])
    basis[row] = column


def _margin_constraints(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = rows.size
    a = np.zeros((2 * k, k * k))
    for i in range(k):
        a[i, i * k : (i + 1) * k] = 1.0  # row sums (row-major cells)
        a[k + i, i::k] = 1.0  # column sums
    return a, np.concatenate([rows, cols])


def agreement_extremes(
    rows: np.ndarray, cols: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The tables with margins ``rows``, ``cols`` of least and of most weighted disagreement
    ``sum(W*P)`` (the largest and the smallest kappa these margins allow under W)."""
    k = rows.size
    a, b = _margin_constraints(rows, cols)
    best = linear_program(-weights.ravel(), a, b)
    worst = linear_program(weights.ravel(), a, b)
    assert best is not None and worst is not None
    return (
        np.clip(best[0], 0.0, None).reshape(k, k),
        np.clip(worst[0], 0.0, None).reshape(k, k),
    )


def check_attainable_null(p: np.ndarray, weights: np.ndarray, kappa0: float) -> None:
    """Refuse a ``kappa0`` outside the kappas a table with p's margins can have under
    ``weights`` (as :func:`model_table` refuses such a ``kappa1``): no population has it, so
    the test of it has no null table, and the formulas would plan for one that is not there
    (an n of 2 for kappa0 = -0.8 with margins 0.3/0.7, whose least kappa is -0.43)."""
    most, least = agreement_extremes(p.sum(axis=1), p.sum(axis=0), weights)
    low, high = table_kappa_value(least, weights), table_kappa_value(most, weights)
    if low - 1e-12 <= kappa0 <= high + 1e-12:
        return
    side = "smallest" if kappa0 < low else "largest"
    raise WkappaError(
        f"`kappa0` = {kappa0:g} is outside what these marginals allow: the {side} kappa of a "
        f"table with them under these weights is {low if kappa0 < low else high:.6g}, so no "
        f"population has kappa {kappa0:g} to test. Hint: choose `kappa0` between "
        f"{low:.4g} and {high:.4g}."
    )


def model_table(
    rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, kappa: float
) -> np.ndarray:
    """The anticipated table with margins ``rows``, ``cols`` and kappa ``kappa``.

    The mixture ``(1 - s) r c' + s M`` of chance with the table ``M`` of these margins
    that agrees most under W (kappa > 0) or least (kappa < 0), with ``s = kappa /
    kappa(M)``. With one shared marginal ``pi`` and any weights, M is ``diag(pi)`` and the
    model is the common-kappa model of Fleiss (1971) and Donner & Eliasziw (1992),
    ``P = (1 - kappa) pi pi' + kappa diag(pi)``; with two categories it is the only table
    with these margins and this kappa (Cantor 1996).
    """
    chance = np.outer(rows, cols)
    if kappa == 0.0:
        return chance
    most, least = agreement_extremes(rows, cols, weights)
    extreme = most if kappa > 0 else least
    reach = table_kappa_value(extreme, weights)
    if not (kappa / reach <= 1.0 + 1e-12):
        side = "largest" if kappa > 0 else "smallest"
        raise WkappaError(
            f"`kappa1` = {kappa:g} is outside what these marginals allow: the {side} kappa "
            f"of a table with them under these weights is {reach:.6g}. Hint: choose `kappa1` "
            f"between {table_kappa_value(least, weights):.4g} and "
            f"{table_kappa_value(most, weights):.4g}, or give the anticipated `table=`."
        )
    share = min(kappa / reach, 1.0)
    table: np.ndarray = (1.0 - share) * chance + share * extreme
    return table


def population_table(
    table: Any, marginals: Any, kappa1: float | None, weights_for: Any
) -> tuple[np.ndarray, np.ndarray]:
    """The anticipated proportion table and W from ``table=`` or ``marginals=`` + ``kappa1``.

    ``weights_for(k)`` gives the K x K weight matrix.
    """
    if (table is None) == (marginals is None):
        raise WkappaError(
            "Give the anticipated population as exactly one of `table=` (a K x K table of "
            "probabilities or pilot counts) and `marginals=` (with `kappa1=`)."
        )
    if table is not None:
        p = _check_table(table)
        weights = weights_for(p.shape[0])
        if math.isnan(table_kappa_value(p, weights)):
            raise WkappaError(
                "`table`'s kappa is undefined: its chance disagreement is 0 (both raters put every "
                "rating in one category). Hint: anticipate at least two categories in use, in "
                "`table` or as `marginals=` with `kappa1=`."
            )
        if kappa1 is not None:
            p = _move_to_kappa(p, weights, kappa1)
        return p, weights
    rows, cols = check_marginals(marginals)
    if kappa1 is None:
        raise WkappaError("`marginals=` needs `kappa1=`, the anticipated kappa (e.g. kappa1=0.7).")
    weights = weights_for(rows.size)
    if math.isnan(table_kappa_value(np.outer(rows, cols), weights)):
        raise WkappaError(
            "`marginals` put every rating in one and the same category, where kappa is "
            "undefined. Hint: give at least two categories a positive probability."
        )
    return model_table(rows, cols, weights, kappa1), weights


def _check_table(table: Any) -> np.ndarray:
    array = float_array(table, "`table` must be a K x K array of probabilities or counts")
    if array.ndim != 2 or array.shape[0] != array.shape[1] or array.shape[0] < 2:
        raise WkappaError(
            f"`table` must be a square K x K array with K >= 2; got shape {array.shape}."
        )
    if not np.isfinite(array).all() or (array < 0).any():
        raise WkappaError("`table` must hold finite non-negative probabilities or counts.")
    total = float(array.sum())
    if total == 0.0:
        raise WkappaError(
            "`table` is all zeros: no anticipated ratings. Hint: give the cell probabilities "
            "or a pilot table of counts."
        )
    counts = bool(np.all(array == np.round(array))) and total > 1.0
    if counts:
        return array / total
    if abs(total - 1.0) > _SUM_TOLERANCE:
        raise WkappaError(
            f"`table` probabilities must sum to 1; they sum to {total:.6g}. Hint: give a "
            "pilot table as integer counts (it is normalised), or divide by its sum."
        )
    return array / total


def check_marginals(marginals: Any) -> tuple[np.ndarray, np.ndarray]:
    array = float_array(
        marginals,
        "`marginals` must be one list of K category probabilities (shared by the raters) "
        "or two (one per rater)",
    )
    shared = array.ndim == 1
    if shared:
        array = np.stack([array, array])
    if array.ndim != 2 or array.shape[0] != 2 or array.shape[1] < 2:
        hint = ""
        if array.ndim == 2 and array.shape[0] > 2 and array.shape[1] >= 2:
            mean = ", ".join(f"{value:.4g}" for value in array.mean(axis=0))
            hint = (
                f" Hint: {array.shape[0]} lists, one per rater? Several raters are planned "
                "with the common-kappa model, one list shared by every rater: for instance "
                f"their mean, [{mean}]."
            )
        raise WkappaError(
            "`marginals` must be one list of K >= 2 category probabilities (shared by the "
            f"raters) or two lists (one per rater); got shape {np.shape(marginals)}.{hint}"
        )
    if not np.isfinite(array).all() or (array < 0).any():
        raise WkappaError("`marginals` must be finite non-negative probabilities.")
    totals = array.sum(axis=1)
    if np.any(np.abs(totals - 1.0) > _SUM_TOLERANCE):
        if shared:  # one list for both raters: one sum, not the same sum twice
            where = f"; it sums to {totals[0]:.6g}"
            if totals[0] > 1.0 and np.all(array[0] == np.round(array[0])):  # % or counts
                shares = ", ".join(f"{value:.4g}" for value in array[0] / totals[0])
                where += f". Hint: give proportions; divided by their sum they are {shares}"
        else:
            where = f" (each rater's); they sum to {totals[0]:.6g}, {totals[1]:.6g}"
        raise WkappaError(f"`marginals` must sum to 1{where}.")
    array = array / totals[:, None]
    return array[0], array[1]


def _move_to_kappa(p: np.ndarray, weights: np.ndarray, kappa1: float) -> np.ndarray:
    """The table with kappa ``kappa1`` on the score path through the pilot table p."""
    own = table_kappa_value(p, weights)
    if kappa1 >= 1.0:
        raise WkappaError(f"`kappa1` must be below 1; got {kappa1!r}.")
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    chance = np.outer(rows, cols)
    if kappa1 == own:
        return p
    if own != 0.0 and 0.0 <= kappa1 / own <= 1.0:
        s = 1.0 - kappa1 / own  # the chance segment is linear in kappa
        moved: np.ndarray = (1.0 - s) * p + s * chance
        return moved
    # Towards perfect agreement (kappa1 above) or disagreement (below): bisect on the segment.
    target = (
        np.diag((rows + cols) / 2.0)
        if kappa1 > own
        else chance * weights / float((chance * weights).sum())
    )
    reach = table_kappa_value(target, weights)
    if (kappa1 - own) * (reach - kappa1) < 0:
        raise WkappaError(
            f"`kappa1` = {kappa1:g} cannot be reached from the pilot `table` (kappa "
            f"{own:.4g}); the path towards {'agreement' if kappa1 > own else 'disagreement'} "
            f"ends at {reach:.4g}."
        )
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = 0.5 * (low + high)
        value = table_kappa_value((1 - middle) * p + middle * target, weights)
        if (value - kappa1) * (reach - own) >= 0:
            high = middle
        else:
            low = middle
    moved = (1.0 - high) * p + high * target
    return moved


def max_variance(rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, kappa: float) -> float:
    """The largest ``n * Var(kappa)`` over tables with these margins and this kappa.

    With margins and kappa fixed, the Fleiss-Cohen-Everitt influence values
    ``W_ij - (1 - kappa)(w_i + v_j)`` are fixed, so the variance is linear in the table:
    a linear program (Flack et al. 1988 for unweighted kappa; here any W).
    """
    w_row, w_col = weights @ cols, rows @ weights
    d_e = float(rows @ w_row)
    influence = weights - (1.0 - kappa) * (w_row[:, None] + w_col[None, :])
    a, b = _margin_constraints(rows, cols)
    a = np.vstack([a, weights.ravel()[None, :]])
    b = np.concatenate([b, [(1.0 - kappa) * d_e]])
    solved = linear_program((influence**2).ravel(), a, b)
    if solved is None:
        raise WkappaError(
            f"No table with these marginals has kappa {kappa:g} under these weights. "
            "Hint: check kappa0 and kappa1 against the marginals."
        )
    return max((solved[1] - ((1.0 - kappa) * d_e) ** 2) / d_e / d_e, 0.0)


def goodness_of_fit_cells(pi: np.ndarray, kappa: float, n_raters: int) -> np.ndarray:
    """Cell probabilities of the goodness-of-fit statistic of Donner & Eliasziw (1992).

    Two categories: the number of raters (0..R) who give the second category, under the
    common-kappa model (with probability kappa all R raters give one category drawn from
    pi, otherwise independent draws), as kappaSize's PowerBinary and CIBinary. Three or
    more categories: "all R raters give category i" for each i (Dirichlet-multinomial with
    intraclass correlation kappa, as kappaSize's Power3Cats ... Power5Cats) and one cell for
    every other pattern. With R = 2 both are the model table's agreement cells.
    """
    if pi.size == 2:
        p = float(pi[1])
        counts = np.arange(n_raters + 1)
        binomial = np.array([math.comb(n_raters, int(c)) for c in counts], dtype=np.float64)
        independent = binomial * p**counts * (1.0 - p) ** (n_raters - counts)
        together = np.zeros(n_raters + 1)
        together[0], together[-1] = 1.0 - p, p
        cells: np.ndarray = (1.0 - kappa) * independent + kappa * together
        return cells
    agree = np.ones(pi.size)
    for j in range(n_raters):
        agree *= (pi * (1.0 - kappa) + j * kappa) / ((1.0 - kappa) + j * kappa)
    return np.concatenate([agree, [1.0 - agree.sum()]])


def noncentrality_one_df(alpha: float, power: float, *, two_sided: bool) -> float:
    """The noncentrality ``lambda`` of a 1-df chi-square test of size alpha with this power.

    Two-sided: ``P(chi2_1(lambda) > z²) = power`` with ``z = z_{1-alpha/2}``, i.e.
    ``Phi(sqrt(lambda) - z) + Phi(-sqrt(lambda) - z) = power`` (solved by bisection);
    one-sided: ``(z_{1-alpha} + z_power)²``.
    """
    if not two_sided:
        return (norm_ppf(1.0 - alpha) + norm_ppf(power)) ** 2
    z = norm_ppf(1.0 - alpha / 2.0)
    low, high = 0.0, (z + norm_ppf(power) + 1.0) ** 2 + 1.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        root = math.sqrt(middle)
        achieved = norm_cdf(root - z) + norm_cdf(-root - z)
        if achieved < power:
            low = middle
        else:
            high = middle
    return high
