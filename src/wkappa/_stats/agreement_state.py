"""The compact state of several raters' ratings and the point estimate from it.

Every coefficient is a function of sums over items of per-item features
(:mod:`wkappa._core.agreement`); the state keeps the distinct count patterns with their
multiplicities (and, for the rater diagnostics and Conger's kappa, the distinct rows of
category codes). Used by the results' builder and by the rater diagnostics, which recompute
a coefficient without one rater.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._core import (
    Estimate,
    aggregate_patterns,
    coefficient_from_sums,
    conger_exact,
    conger_features,
    features,
    integer_weights,
    rows_to_counts,
    weighted_sums,
)
from ..exceptions import WkappaError

__all__ = ["State", "point_estimate", "state_from_rows"]


class State(NamedTuple):
    """Distinct items with their per-item features.

    Attributes
    ----------
    features : ndarray of shape (m, p)
        Per-item features (:func:`~wkappa._core.agreement.features`, or
        :func:`~wkappa._core.agreement.conger_features` of the rows for Conger's kappa).
    multiplicity : ndarray of shape (m,), int64
        How many items each feature row stands for.
    patterns : ndarray of shape (m, K), int64
        The items x categories count rows of the feature rows.
    rows : ndarray of shape (m', R), int64, or None
        The distinct rows of category codes (``-1`` = missing); None for counts input.
    row_multiplicity : ndarray of shape (m',), int64, or None
    """

    features: np.ndarray
    multiplicity: np.ndarray
    patterns: np.ndarray
    rows: np.ndarray | None
    row_multiplicity: np.ndarray | None


def state_from_rows(
    coefficient: str, matrix: np.ndarray, rows: np.ndarray, multiplicity: np.ndarray, k: int
) -> State:
    """The state of distinct code rows: per row for Conger's kappa (it needs to know which
    rater gave which rating), per distinct count pattern for the other coefficients."""
    if coefficient == "conger":
        counts = rows_to_counts(rows, k)
        return State(conger_features(rows, k, matrix), multiplicity, counts, rows, multiplicity)
    patterns, counts = aggregate_patterns(rows_to_counts(rows, k), multiplicity)
    return State(features(patterns, matrix), counts, patterns, rows, multiplicity)


def point_estimate(
    coefficient: str, matrix: np.ndarray, state: State, n_raters: int
) -> tuple[Estimate, float]:
    """The estimate (pa, pe, ...) and the coefficient: Conger's in exact rational arithmetic
    where it applies (so that two complete raters give :func:`wkappa.weighted_kappa` bit for
    bit), else the float value; nan when undefined."""
    sums = weighted_sums(state.multiplicity, state.features)[None, :]
    if sums[0, 1] == 0:
        raise WkappaError(
            "No item has two ratings or more, so no pair of raters can agree or disagree. "
            "Hint: agreement needs items rated by at least two raters."
        )
    estimate = coefficient_from_sums(coefficient, sums, matrix, n_raters)
    statistic = float(estimate.statistic[0])
    if coefficient == "conger" and state.rows is not None:
        # Exact rational arithmetic (named weights in int64); the float value stays for the
        # standard error and the resampling intervals.
        integer = integer_weights(matrix, matrix.shape[0])
        merged, merged_counts = aggregate_patterns(state.patterns, state.multiplicity)
        exact = conger_exact(state.rows, state.multiplicity, merged, merged_counts, matrix, integer)
        if exact is not None:
            statistic = exact
    return estimate, statistic
