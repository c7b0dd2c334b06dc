"""The exact search behind :func:`wkappa.optimize_thresholds`: Dinkelbach over monotone DPs.

With the truth fixed (true index ``t_k``, weight ``w_k``) and class ``c_k`` assigned to item k,

    N(c) = Σ_k w_k W[t_k, c_k],   D(c) = Σ_k w_k u[c_k],   u[j] = Σ_i W[i, j] r_i,

where ``r_i`` is the weight of true class i and ``T = Σ w``; then ``kappa = 1 - T·N/D``.
Maximising kappa is minimising the ratio N/D. Dinkelbach: from ``λ = N(c)/D(c)`` find the
monotone assignment minimising ``N - λD`` (a separable sum, so a DP over tie-blocks x K), and
repeat while the ratio strictly decreases. Both N and D scale with W, so any positive multiple
of W gives the same ratio: quadratic, linear and unweighted weights are run as the integer
matrices ``(i-j)²``, ``|i-j|`` and ``[i != j]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import warn_at_caller, weight_matrix
from ..exceptions import WkappaError

__all__ = ["DinkelbachSearch", "SortedProblem", "sort_problem", "thresholds_of"]

MAX_ITER = 200
_INT_SAFE = 2**62  # int64 DP values stay below this bound
_FLOAT_EXACT = 2**53  # integer sums of float64 values are exact below this bound


@dataclass(frozen=True)
class SortedProblem:
    """The data in score order, grouped into tie-blocks."""

    starts: np.ndarray  # (B + 1,) int64: block b is starts[b]:starts[b + 1]
    values: np.ndarray  # (B,) the distinct scores, increasing
    truth: np.ndarray  # (n,) int64 true index, in score order
    weight: np.ndarray | None  # (n,) float64 sample weight, in score order
    order: np.ndarray  # (n,) the sort permutation


def sort_problem(scores: np.ndarray, truth: np.ndarray, weight: np.ndarray | None) -> SortedProblem:
    """Sort by score (the one O(n log n) step) and find the tie-blocks."""
    order = np.argsort(scores)
    sorted_scores = scores[order]
    new_block = np.empty(len(scores), dtype=bool)
    new_block[0] = True
    np.not_equal(sorted_scores[1:], sorted_scores[:-1], out=new_block[1:])
    starts = np.append(np.flatnonzero(new_block), len(scores)).astype(np.int64)
    return SortedProblem(
        starts,
        sorted_scores[starts[:-1]],
        truth[order],
        None if weight is None else weight[order],
        order,
    )


def _integer_weights(checked: str | np.ndarray, k: int) -> np.ndarray | None:
    """An int64 matrix proportional to W, or None if W is not integral."""
    if isinstance(checked, str):
        index = np.arange(k, dtype=np.int64)
        distance = np.abs(index[:, None] - index[None, :])
        integral: np.ndarray
        if checked == "quadratic":
            integral = distance * distance
        elif checked == "linear":
            integral = distance
        else:
            integral = (distance > 0).astype(np.int64)
        return integral
    if np.all(checked == np.floor(checked)) and checked.max() < 2**31:
        return np.asarray(checked, dtype=np.int64)
    return None


def _integer_sample_weight(weight: np.ndarray | None, n: int) -> np.ndarray | None:
    if weight is None:
        return np.ones(n, dtype=np.int64)
    if np.all(weight == np.floor(weight)) and weight.sum() < _FLOAT_EXACT:
        return weight.astype(np.int64)
    return None


class DinkelbachSearch:
    """The optimal monotone assignment; exact integer arithmetic where the weights allow it.

    Attributes
    ----------
    integral_counts : bool
        Whether the (weighted) counts are integers, so tables are exact int64.
    exact : bool
        Whether N and D are exact integers too (integral W), so the stopping test is exact.
    """

    def __init__(self, problem: SortedProblem, checked: str | np.ndarray, k: int) -> None:
        self.problem = problem
        self.k = k
        n = len(problem.truth)
        float_matrix = np.asarray(weight_matrix(checked, k), dtype=np.float64)  # checks shape
        int_matrix = _integer_weights(checked, k)
        int_weight = _integer_sample_weight(problem.weight, n)
        self.integral_counts = int_weight is not None
        self.exact = int_matrix is not None and int_weight is not None
        float_weight = np.ones(n) if problem.weight is None else problem.weight
        self.count_weight = int_weight if int_weight is not None else float_weight
        self.float_weight = float_weight
        self.int_weight = int_weight
        self.int_matrix = int_matrix
        truth_counts = np.bincount(problem.truth, weights=self.count_weight, minlength=k)
        if self.integral_counts:
            truth_counts = truth_counts.astype(np.int64)
        self.truth_counts = truth_counts
        if self.exact:
            assert int_matrix is not None
            self.matrix: np.ndarray = int_matrix.astype(object)
            self.expected: np.ndarray = self.matrix.T.dot(truth_counts.astype(object))
            self.float_matrix = int_matrix.astype(np.float64)
        else:
            self.float_matrix = float_matrix
            self.matrix = self.float_matrix
            self.expected = self.float_matrix.T @ truth_counts.astype(np.float64)
        self.float_expected = np.array([float(x) for x in self.expected])
        self._check_defined()

    def _check_defined(self) -> None:
        counts = self.truth_counts
        if np.count_nonzero(counts) < 2:
            present = [i for i in range(self.k) if counts[i] > 0]
            raise WkappaError(
                "`y_true` must contain at least two classes (grades with positive weight) "
                f"to fit thresholds; got only grade index {present}. A single class makes "
                "kappa 0 or undefined for every assignment."
            )
        if max(self.expected) <= 0:
            raise WkappaError(
                "Kappa is undefined for every assignment: `weights` is zero on every column a "
                "true grade can reach (sum(W*E) == 0)."
            )

    def table(self, classes: np.ndarray) -> np.ndarray:
        """The K x K table of a per-block assignment (int64 when counts are integral)."""
        from .threshold_dp import assignment_table

        p = self.problem
        return assignment_table(p.starts, p.truth, self.count_weight, classes, self.k)

    def ratio_terms(self, table: np.ndarray) -> tuple[Any, Any]:
        """(N, D) of a table: Python ints when exact, floats otherwise."""
        columns = table.sum(axis=0)
        if self.exact:
            observed = int((self.matrix * table.astype(object)).sum())
            expected = int(self.expected.dot(columns.astype(object)))
            return observed, expected
        return float(np.sum(self.matrix * table)), float(self.expected @ columns)

    def _better(self, new: tuple[Any, Any], old: tuple[Any, Any]) -> bool:
        """Whether N_new / D_new < N_old / D_old (D_new > 0), exactly for ints."""
        if new[1] <= 0:
            return False
        if self.exact:
            return bool(new[0] * old[1] < old[0] * new[1])
        return bool(new[0] / new[1] < old[0] / old[1])

    def _solve(self, terms: tuple[Any, Any]) -> tuple[np.ndarray, bool]:
        """The DP for λ = N/D: in int64 when nothing can overflow, else in float64."""
        from .threshold_dp import monotone_assignment

        p = self.problem
        if self.exact:
            assert self.int_matrix is not None and self.int_weight is not None
            g = math.gcd(terms[0], terms[1])
            num, den = terms[0] // g, terms[1] // g
            total = int(self.truth_counts.sum())
            top_weight = int(self.int_matrix.max())
            top_expected = int(max(self.expected))
            # |DP value| <= Σ_k w_k (den·W + num·u) over the items.
            if (den * top_weight + num * top_expected) * total < _INT_SAFE:
                expected = np.array(self.expected.tolist(), dtype=np.int64)
                classes = monotone_assignment(
                    p.starts, p.truth, self.int_weight, self.int_matrix, expected, num, den
                )
                return classes, True
        lam = float(terms[0]) / float(terms[1])
        classes = monotone_assignment(
            p.starts,
            p.truth,
            self.float_weight,
            self.float_matrix,
            self.float_expected,
            lam,
            1.0,
        )
        return classes, False

    def run(self) -> tuple[np.ndarray, np.ndarray, int, bool]:
        """Optimal per-block classes, their table, the number of DPs solved, exactness."""
        from .threshold_dp import quantile_classes

        p = self.problem
        classes = quantile_classes(p.starts, self.float_weight, self.truth_counts)
        table = self.table(classes)
        current = self.ratio_terms(table)
        if current[1] <= 0:
            best_class = int(np.argmax(self.float_expected))
            classes = np.full(len(p.values), best_class, dtype=np.int64)
            table = self.table(classes)
            current = self.ratio_terms(table)
        n_iter = 0
        exact_dp = True
        while current[0] > 0:  # N == 0 is perfect agreement: nothing can beat it
            if n_iter == MAX_ITER:
                warn_at_caller(
                    f"optimize_thresholds stopped after {MAX_ITER} iterations without "
                    "converging; the thresholds may not be optimal.",
                    RuntimeWarning,
                )
                break
            candidate, exact_dp = self._solve(current)
            n_iter += 1
            candidate_table = self.table(candidate)
            terms = self.ratio_terms(candidate_table)
            if not self._better(terms, current):
                break
            classes, table, current = candidate, candidate_table, terms
        return classes, table, n_iter, self.exact and exact_dp


def thresholds_of(classes: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """Cut points reproducing a per-block assignment with the ``(t_{i-1}, t_i]`` convention.

    Threshold i separates classes <= i from classes > i. It lies midway between the last
    score of a class <= i and the first of a class > i, nudged so that ``a <= t < b`` also
    between adjacent floats; half a gap below the lowest score (strictly below it) when every
    item is above class i, and half a gap above the highest score when none is. Each cut is
    then written with at most 15 significant digits where that keeps it on the same side of
    every score.
    """
    n_blocks = len(values)
    first_above = np.searchsorted(classes, np.arange(k - 1), side="right")
    first, last = float(values[0]), float(values[-1])
    # Half a gap outside the scores (Python floats: overflow gives inf, never a warning).
    gap_low = float(values[1]) / 2 - first / 2 if n_blocks > 1 else 0.5
    gap_high = last / 2 - float(values[-2]) / 2 if n_blocks > 1 else 0.5
    low = first - gap_low
    if not (math.isfinite(low) and low < first):
        low = float(np.nextafter(first, -np.inf))
        if not math.isfinite(low):
            raise WkappaError(
                "`y_score` reaches the most negative float64, so no finite threshold lies "
                "below it. Hint: rescale the scores."
            )
    high = last + gap_high
    if not (math.isfinite(high) and high >= last):
        high = last
    inner = np.clip(first_above, 1, max(n_blocks - 1, 1))
    below = values[inner - 1]
    above = values[np.minimum(inner, n_blocks - 1)]
    with np.errstate(over="ignore"):
        middle = (below + above) * 0.5
        overflow = ~np.isfinite(middle)
        middle[overflow] = below[overflow] * 0.5 + above[overflow] * 0.5
    # Between adjacent floats the midpoint rounds to one of them; a <= t < b is what matters.
    outside = ~((below <= middle) & (middle < above))
    middle[outside] = below[outside]
    thresholds: np.ndarray = np.where(
        first_above == 0, low, np.where(first_above == n_blocks, high, middle)
    ).astype(np.float64)
    # What each cut must keep: below the lowest score, at or above the highest, or a <= t < b.
    floor = np.where(first_above == 0, -np.inf, np.where(first_above == n_blocks, last, below))
    ceiling = np.where(first_above == 0, first, np.where(first_above == n_blocks, np.inf, above))
    return _readable(thresholds, floor, ceiling)


def _readable(thresholds: np.ndarray, floor: np.ndarray, ceiling: np.ndarray) -> np.ndarray:
    """Each cut rounded to 15 significant digits where it still satisfies
    ``floor <= t < ceiling``: a midpoint such as 1.7090999999999998 reads 1.7091, moves by
    less than 5e-15 of itself and grades every fitted score as before."""
    rounded = np.array([float(f"{t:.15g}") for t in thresholds.tolist()], dtype=np.float64)
    keep = (floor <= rounded) & (rounded < ceiling)
    return np.where(keep, rounded, thresholds)
