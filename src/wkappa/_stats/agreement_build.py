"""Build an :class:`~wkappa.AgreementResult` from the compact state: the point estimate,
Gwet's linearised standard error and the p-value; the inference options' checks."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import (
    Alternative,
    Linearized,
    check_alternative,
    check_zero_division,
    format_value,
    linearized_terms,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from .agreement_result import COEFFICIENT_NAMES, AgreementResult
from .agreement_state import State, point_estimate, state_from_rows
from .bootstrap import all_alike
from .intervals import warn_undefined_inference
from .pvalues import tail_pvalue, wald_statistic

__all__ = [
    "agreement_pvalue",
    "build_agreement",
    "check_inference",
    "check_population",
    "linearized_standard_error",
    "propagated_agreement",
    "result_from_rows",
    "undefined_agreement",
]


def check_population(population_size: Any) -> int | None:
    if population_size is None:
        return None
    if isinstance(population_size, (float, np.floating)) and population_size == math.inf:
        return None  # irrCAC's default N = Inf: an infinite population, no correction
    if (
        isinstance(population_size, bool)
        or not isinstance(population_size, (int, np.integer, float))
        or not (float(population_size) >= 1 and float(population_size) == int(population_size))
    ):
        raise WkappaError(
            "`population_size` must be a positive whole number (the N of the finite-population "
            f"correction), or None / inf for no correction; got {format_value(population_size)}."
        )
    return int(population_size)


def check_inference(
    zero_division: Any, population_size: Any, alternative: Any
) -> tuple[Any, int | None, Alternative]:
    """The checked ``zero_division``, ``population_size`` and ``alternative``."""
    return (
        check_zero_division(zero_division),
        check_population(population_size),
        check_alternative(alternative),
    )


def undefined_agreement(zero_division: Any, coefficient: str) -> float:
    """What an undefined coefficient returns under ``zero_division`` (the warning points at
    the caller's line)."""
    message = (
        f"{COEFFICIENT_NAMES[coefficient]} is undefined: the chance disagreement 1 - pe is "
        "zero (for example every rating is in one category, or there is a single category)."
    )
    if zero_division == "raise":
        raise WkappaError(message + " Hint: zero_division='warn' returns nan.")
    if zero_division == "warn":
        warn_at_caller(message + " Returning nan.", UndefinedKappaWarning)
        return math.nan
    return float(zero_division)


def agreement_pvalue(
    statistic: float, se: float, df: int, alternative: str, kappa0: float = 0.0
) -> float:
    """P-value of H0: coefficient = kappa0 from ``(statistic - kappa0) / se`` and Student's t
    with ``df`` degrees of freedom (irrCAC's at 0; the two-rater tests use the normal
    distribution)."""
    if df < 1:
        return math.nan
    return tail_pvalue(wald_statistic(statistic, kappa0, se), alternative, df)


def linearized_standard_error(linear: Linearized, population_size: int | None = None) -> float:
    """Gwet's standard error from the linearised terms:
    ``sqrt((1 - f) sum_i (x_i - centre)² / (n (n - 1)))`` (nan below two items)."""
    used = linear.multiplicity.astype(np.float64)
    n_used = float(used.sum())
    if n_used < 2:
        return math.nan
    fraction = 0.0 if population_size is None else linear.n_items / population_size
    spread = float((used * (linear.terms - linear.centre) ** 2).sum())  # no BLAS: see weighted_sums
    return math.sqrt(max(0.0, (1.0 - fraction) * spread / (n_used * (n_used - 1.0))))


def _why_undefined(n_items: int, paired: int, alike: bool = False) -> str:
    """Why Gwet's standard error of ``n_items`` items (``paired`` of them in its sum) is nan
    (``alike``: every item's linearised term is the same)."""
    if alike:
        return (
            f"every one of the {paired} items adds the same term to Gwet's variance (for "
            "example, every item is rated alike), so its standard error is 0"
        )
    if n_items < 2:
        return "the standard error needs at least 2 items, and a single item is rated"
    if paired < 2:
        return (
            "the standard error needs at least 2 items with two or more ratings, and "
            f"{paired} of the {n_items} items has them"
        )
    return "the items' linearised terms are not finite"


def build_agreement(
    coefficient: str,
    weights_label: str,
    matrix: np.ndarray,
    labels: Sequence[Any],
    state: State,
    n_raters: int,
    n_ratings: int,
    zero_division: Any,
    population_size: int | None,
    alternative: Alternative,
    kappa0: float = 0.0,
) -> AgreementResult:
    """The result of a coefficient on a compact state."""
    n_items = int(state.multiplicity.sum())
    if population_size is not None and population_size < n_items:
        raise WkappaError(
            f"`population_size` = {population_size} is smaller than the {n_items} items "
            "rated; it is the number of items in the population the sample was drawn from."
        )
    estimate, statistic = point_estimate(coefficient, matrix, state, n_raters)
    se = math.nan
    alike = False
    if math.isnan(statistic):
        statistic = undefined_agreement(zero_division, coefficient)
    else:
        paired = n_items
        if n_items >= 2:
            linear = linearized_terms(
                coefficient,
                state.features,
                state.multiplicity,
                matrix,
                estimate,
                state.patterns,
                state.rows,
            )
            se = linearized_standard_error(linear, population_size)
            paired = int(linear.multiplicity.sum())
            # Items whose linearised terms are all alike show no spread to estimate the
            # variance from: their 0 measures nothing. Perfect agreement keeps its exact 0
            # (every term is 1), as group_agreement does.
            terms = linear.terms[linear.multiplicity > 0]
            alike = statistic < 1.0 - 1e-12 and all_alike(terms) and not math.isnan(se)
            if alike:
                se = math.nan
        if math.isnan(se):
            warn_undefined_inference(
                COEFFICIENT_NAMES[coefficient], _why_undefined(n_items, paired, alike)
            )
    pvalue = agreement_pvalue(statistic, se, n_items - 1, alternative, kappa0)
    return AgreementResult(
        statistic=statistic,
        coefficient=coefficient,
        weights=weights_label,
        weight_matrix=matrix,
        labels=tuple(labels),
        percent_agreement=float(estimate.percent_agreement[0]),
        chance_agreement=float(estimate.chance_agreement[0]),
        n_items=n_items,
        n_raters=n_raters,
        n_ratings=n_ratings,
        standard_error=se,
        pvalue=pvalue,
        alternative=alternative,
        population_size=population_size,
        _state=state,
        kappa0=kappa0,
    )


def result_from_rows(
    name: str,
    label: str,
    matrix: np.ndarray,
    rows: np.ndarray,
    multiplicity: np.ndarray,
    categories: Sequence[Any],
    n_ratings: int,
    zero: Any,
    population: int | None,
    side: Alternative,
    kappa0: float = 0.0,
) -> AgreementResult:
    """A coefficient from the distinct rating rows (kept in the result for the rater
    diagnostics)."""
    if name == "conger":
        # A rater column without ratings stays (n_raters, pairwise() and
        # leave_one_rater_out() follow the input's columns) but takes no part in pe.
        rated = ((rows >= 0) & (multiplicity[:, None] > 0)).any(axis=0)
        if np.count_nonzero(rated) < 2:
            raise WkappaError("Conger's kappa needs at least two raters with ratings.")
    state = state_from_rows(name, matrix, rows, multiplicity, len(categories))
    return build_agreement(
        name,
        label,
        matrix,
        categories,
        state,
        rows.shape[1],
        n_ratings,
        zero,
        population,
        side,
        kappa0,
    )


def propagated_agreement(
    coefficient: str, weights: Any, alternative: Alternative
) -> AgreementResult:
    """The all-nan result of ``nan_policy='propagate'`` with a missing rating."""
    nan = math.nan
    return AgreementResult(
        nan,
        coefficient,
        weights if isinstance(weights, str) else "custom",
        np.zeros((0, 0)),
        (),
        nan,
        nan,
        0,
        0,
        0,
        nan,
        nan,
        alternative,
        None,
        State(np.zeros((0, 1)), np.zeros(0, dtype=np.int64), np.zeros((0, 0)), None, None),
    )
