"""Donner, Eliasziw & Klar's (1996) goodness-of-fit test of equal kappas across strata, for
binary ratings by two raters (``stratified_kappa_test(..., homogeneity='goodness-of-fit')``)."""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

import numpy as np

from .._core import format_value
from ..exceptions import WkappaError

__all__ = [
    "GoodnessOfFit",
    "HomogeneityTest",
    "check_goodness_of_fit",
    "check_homogeneity",
    "goodness_of_fit_homogeneity",
]

HomogeneityTest = Literal["asymptotic", "goodness-of-fit"]


class GoodnessOfFit(NamedTuple):
    """The goodness-of-fit chi-square of equal kappas, its df and the common kappa it fits."""

    statistic: float
    df: int
    common_kappa: float


def check_homogeneity(homogeneity: object) -> HomogeneityTest:
    """Validate ``homogeneity=``: 'asymptotic' (SAS's chi-square) or 'goodness-of-fit'."""
    if homogeneity == "asymptotic" or homogeneity == "goodness-of-fit":
        return homogeneity  # type: ignore[return-value]
    raise WkappaError(
        "`homogeneity` must be 'asymptotic' (SAS's chi-square of equal kappas) or "
        f"'goodness-of-fit' (Donner, Eliasziw & Klar 1996); got {format_value(homogeneity)}."
    )


def check_goodness_of_fit(tables: np.ndarray, matrix: np.ndarray, weighted: bool) -> None:
    """Refuse the goodness-of-fit test where it does not apply: its model is two binary
    ratings of each item, counted (not weighted) pairs, and the unweighted kappa."""
    hint = "Hint: use homogeneity='asymptotic' (SAS's test), which has no such restriction."
    if tables.shape[-1] != 2:
        raise WkappaError(
            "homogeneity='goodness-of-fit' applies to two categories (binary ratings); got "
            f"K = {tables.shape[-1]}. {hint}"
        )
    symmetric = matrix[0, 0] == 0 and matrix[1, 1] == 0 and matrix[0, 1] == matrix[1, 0] > 0
    if not symmetric:
        raise WkappaError(
            "homogeneity='goodness-of-fit' tests equal unweighted kappas; `weights` must give "
            "0 on the diagonal and the same positive weight to both disagreements (any of "
            f"'quadratic', 'linear', 'unweighted' at K = 2). {hint}"
        )
    if weighted or not np.array_equal(tables, np.round(tables)):
        raise WkappaError(
            "homogeneity='goodness-of-fit' compares counts of pairs with their expected "
            "counts; it takes no `sample_weight` (tables must hold whole counts). " + hint
        )


def goodness_of_fit_homogeneity(tables: np.ndarray) -> GoodnessOfFit:
    """Donner, Eliasziw & Klar's (1996) chi-square of H0: equal kappas in every stratum.

    ``tables`` is a checked (S, 2, 2) stack of counts. In stratum h with n_h pairs, both
    ratings are 1 in ``b_h`` pairs, differ in ``d_h`` and are both 0 in ``a_h``; the common
    correlation model (Bloch & Kraemer 1989) with prevalence
    ``p_h = (2 b_h + d_h) / (2 n_h)`` and kappa k gives the cell probabilities
    ``p_h^2 + p_h q_h k``, ``2 p_h q_h (1 - k)`` and ``q_h^2 + p_h q_h k`` (``q_h = 1 - p_h``).
    Under H0, k is estimated by ``1 - sum_h d_h / (2 sum_h n_h p_h q_h)`` (the stratum
    intraclass kappas weighted by ``n_h p_h q_h``), and
    ``X^2 = sum_h sum_cells (observed - expected)^2 / expected`` is chi-square with (strata
    with 0 < p_h < 1) - 1 df. Strata rated all in one category fit exactly and carry no df.
    Statistic nan (df 0) with fewer than two such strata, or where the common kappa lies
    below what a stratum's prevalence allows (a negative expected count).
    """
    counts = tables.astype(np.float64)
    both_zero, both_one = counts[:, 0, 0], counts[:, 1, 1]
    discordant = counts[:, 0, 1] + counts[:, 1, 0]
    n = both_zero + discordant + both_one
    informative = (2.0 * both_one + discordant > 0) & (2.0 * both_zero + discordant > 0)
    if not informative.any():
        return GoodnessOfFit(math.nan, 0, math.nan)
    n, a, d, b = (x[informative] for x in (n, both_zero, discordant, both_one))
    p = (2.0 * b + d) / (2.0 * n)
    q = 1.0 - p
    common = 1.0 - float(d.sum()) / (2.0 * float(np.sum(n * p * q)))
    df = int(informative.sum()) - 1
    observed = np.stack([b, d, a])
    expected = np.stack(
        [
            n * (p * p + p * q * common),
            2.0 * n * p * q * (1.0 - common),
            n * (q * q + p * q * common),
        ]
    )
    if df < 1 or (expected < -1e-12 * n).any():
        return GoodnessOfFit(math.nan, df, common)
    # A common kappa at a stratum's bound leaves an expected count of 0 up to rounding.
    expected = np.maximum(expected, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(observed == expected, 0.0, (observed - expected) ** 2 / expected)
    return GoodnessOfFit(float(terms.sum()), df, common)
