"""Rater and category diagnostics of several raters: per category, pairwise two-rater kappas
and leave one rater out (the methods of :class:`~wkappa.AgreementResult`)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import coefficient_from_sums, conger_features, features, kappa_from_table
from ..exceptions import WkappaError
from .agreement_state import State, point_estimate, state_from_rows

__all__ = ["leave_one_rater_out", "need_rows", "pairwise", "per_category"]


def need_rows(state: State, what: str) -> tuple[np.ndarray, np.ndarray]:
    """The distinct code rows and their multiplicities, or an error: a result made from
    counts has none."""
    rows, multiplicity = state.rows, state.row_multiplicity
    if rows is None or multiplicity is None:
        raise WkappaError(
            f"{what} needs to know which rater gave which rating; this result was made "
            "from counts. Hint: use wkappa.agreement with the items x raters ratings."
        )
    return rows, multiplicity


def per_category(
    coefficient: str,
    labels: Sequence[Any],
    n_raters: int,
    state: State,
) -> dict[Any, float]:
    """The coefficient (unweighted) of each category against all the others collapsed."""
    binary = 1.0 - np.eye(2)
    out: dict[Any, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for index, label in enumerate(labels):
            if coefficient == "conger":
                codes, counts = need_rows(state, "per_category() of Conger's kappa")
                collapsed = np.where(codes < 0, -1, (codes == index).astype(np.int64))
                sums = counts.astype(np.float64) @ conger_features(collapsed, 2, binary)
            else:
                hits = state.patterns[:, index]
                two = np.column_stack([hits, state.patterns.sum(axis=1) - hits])
                sums = state.multiplicity.astype(np.float64) @ features(two, binary)
            value = coefficient_from_sums(coefficient, sums[None, :], binary, n_raters)
            out[label] = float(value.statistic[0])
    return out


def pairwise(rows: np.ndarray, multiplicity: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The R x R matrix of two-rater weighted kappas over the items both raters rated (nan
    where undefined; diagonal 1, nan for a rater without ratings), each from its integer
    K x K table by the two-rater statistic (:func:`wkappa.kappa_from_table`): exact for the
    named weights. A weight matrix that is not symmetric acts through ``(W + W') / 2``, as in
    every several-raters coefficient (each pair of ratings counts in both orders): the
    entry is then the same whichever rater of the pair comes first."""
    n_raters = rows.shape[1]
    k = weights.shape[0]
    if not np.array_equal(weights, weights.T):
        weights = (weights + weights.T) / 2.0
    rated = ((rows >= 0) & (multiplicity[:, None] > 0)).any(axis=0)
    out = np.diag(np.where(rated, 1.0, math.nan))
    for g in range(n_raters):
        for h in range(g + 1, n_raters):
            both = (rows[:, g] >= 0) & (rows[:, h] >= 0)
            cells = rows[both, g] * k + rows[both, h]
            table = np.bincount(cells, weights=multiplicity[both], minlength=k * k)
            counts = np.rint(table).astype(np.int64).reshape(k, k)
            if counts.sum() == 0:
                out[g, h] = out[h, g] = math.nan
                continue
            value = kappa_from_table(counts, weights=weights, zero_division=math.nan)
            out[g, h] = out[h, g] = value
    return out


def leave_one_rater_out(
    coefficient: str, matrix: np.ndarray, rows: np.ndarray, multiplicity: np.ndarray
) -> np.ndarray:
    """The coefficient without each rater in turn (nan where it is then undefined)."""
    n_raters = rows.shape[1]
    k = matrix.shape[0]
    out = np.full(n_raters, math.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for g in range(n_raters):
            rest = np.delete(rows, g, axis=1)
            rated = (rest >= 0).any(axis=0)
            if np.count_nonzero(rated) < 2:
                continue
            keep = (rest >= 0).any(axis=1)
            state = state_from_rows(coefficient, matrix, rest[keep], multiplicity[keep], k)
            try:
                _, value = point_estimate(coefficient, matrix, state, rest.shape[1])
            except WkappaError:
                continue
            out[g] = value
    return out
