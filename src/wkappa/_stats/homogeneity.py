"""Tests of equal kappas across strata besides SAS's chi-square: Donner, Eliasziw & Klar's
(1996) goodness-of-fit test for binary ratings (``homogeneity='goodness-of-fit'``) and the
bootstrap of the chi-square on Fisher-z transformed kappas for any K
(``homogeneity='bootstrap'``)."""

from __future__ import annotations

import math
from typing import Any, Literal, NamedTuple

import numpy as np

from .._core import check_choice, kappas, variances
from ..exceptions import WkappaError
from .bootstrap import chunk_sizes
from .bootstrap_method import BootstrapMethod, make_rng

__all__ = [
    "BootstrapHomogeneity",
    "GoodnessOfFit",
    "HomogeneityTest",
    "bootstrap_homogeneity",
    "check_goodness_of_fit",
    "check_homogeneity",
    "fisher_z_chi_square",
    "goodness_of_fit_homogeneity",
]

HomogeneityTest = Literal["asymptotic", "goodness-of-fit", "bootstrap"]


class GoodnessOfFit(NamedTuple):
    """The goodness-of-fit chi-square of equal kappas, its df and the common kappa it fits."""

    statistic: float
    df: int
    common_kappa: float


class BootstrapHomogeneity(NamedTuple):
    """The Fisher-z chi-square of equal kappas, its bootstrap p-value and the replicates used."""

    statistic: float
    pvalue: float
    n_resamples: int


def check_homogeneity(homogeneity: object) -> tuple[HomogeneityTest, BootstrapMethod | None]:
    """Validate ``homogeneity=``: 'asymptotic' (SAS's chi-square), 'goodness-of-fit',
    'bootstrap' or a :class:`BootstrapMethod` (the bootstrap with its replicates and seed)."""
    if isinstance(homogeneity, BootstrapMethod):
        if homogeneity.method != "percentile":
            raise WkappaError(
                "homogeneity=BootstrapMethod(...) sets the bootstrap test's `n_resamples` and "
                f"`rng`; its `method` must stay 'percentile'; got {homogeneity.method!r}."
            )
        return "bootstrap", homogeneity
    name = check_choice(
        homogeneity,
        "homogeneity",
        ("asymptotic", "goodness-of-fit", "bootstrap"),
        listed="'asymptotic' (SAS's chi-square of equal kappas), 'goodness-of-fit' (Donner, "
        "Eliasziw & Klar 1996, binary ratings) or 'bootstrap' (the Fisher-z chi-square with "
        "a bootstrap p-value; wk.BootstrapMethod(n_resamples, rng=...) sets its replicates "
        "and seed)",
    )
    if name == "bootstrap":
        return "bootstrap", BootstrapMethod()
    return name, None


def fisher_z_chi_square(kappa: np.ndarray, variance: np.ndarray, centre: Any = 0.0) -> Any:
    """``sum_h (z_h - zbar)^2 / V_h`` over the last axis, with ``z_h = atanh(kappa_h) -
    centre_h``, ``V_h = variance_h / (1 - kappa_h^2)^2`` (the delta method) and ``zbar``
    the inverse-V weighted mean of the z_h."""
    z = np.arctanh(kappa) - centre
    inverse = (1.0 - kappa * kappa) ** 2 / variance
    mean = np.sum(inverse * z, axis=-1, keepdims=True) / np.sum(inverse, axis=-1, keepdims=True)
    return np.sum(inverse * (z - mean) ** 2, axis=-1)


def bootstrap_homogeneity(
    tables: np.ndarray, weights: np.ndarray, how: BootstrapMethod
) -> BootstrapHomogeneity:
    """The Fisher-z chi-square of equal kappas and its studentised bootstrap p-value.

    ``tables`` is the (S, K, K) stack of the strata used (kappa defined, variance > 0),
    ``weights`` the disagreement weights W. With each stratum's kappa, its Fleiss-Cohen-
    Everitt variance and ``z_h = atanh(kappa_h)``, the statistic is
    ``Q_z = sum_h (z_h - zbar)^2 / V_h`` (:func:`fisher_z_chi_square`). Each replicate
    redraws every stratum's table (multinomial over its cells, as the table bootstrap) and
    computes ``Q*`` from ``z*_h - z_h`` and the replicate's own variances: the spread of the
    strata's z about their own estimates, which is the null distribution of ``Q_z`` when
    the kappas are equal. ``p = (1 + #{Q* >= Q_z}) / (1 + B')`` over the B' replicates with
    every kappa defined, inside (-1, 1) and with a positive variance. nan below two strata or
    where a stratum's kappa is -1 or 1.
    """
    count = tables.shape[0]
    kappa = np.asarray(kappas(tables, weights), dtype=np.float64)
    variance = np.asarray(variances(tables, weights, kappa)[0], dtype=np.float64)
    if count < 2 or not np.all(np.abs(kappa) < 1.0):
        return BootstrapHomogeneity(math.nan, math.nan, 0)
    observed = float(fisher_z_chi_square(kappa, variance))
    rng = make_rng(how.rng)
    flat = tables.reshape(count, -1).astype(np.float64)
    sizes = [round(float(row.sum())) for row in flat]
    probabilities = flat / flat.sum(axis=1, keepdims=True)
    exceed = defined = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        for size in chunk_sizes(how.n_resamples, flat.size):
            drawn = np.stack(
                [
                    rng.multinomial(n, prob, size=size)
                    for n, prob in zip(sizes, probabilities, strict=True)
                ],
                axis=1,
            ).reshape(size, *tables.shape)
            replicate = np.asarray(kappas(drawn, weights), dtype=np.float64)
            spread = np.asarray(variances(drawn, weights, replicate)[0], dtype=np.float64)
            ok = np.all((np.abs(replicate) < 1.0) & (spread > 0.0), axis=1)
            values = fisher_z_chi_square(replicate[ok], spread[ok], np.arctanh(kappa))
            exceed += int(np.sum(values >= observed))
            defined += int(ok.sum())
    pvalue = (1 + exceed) / (1 + defined) if defined else math.nan
    return BootstrapHomogeneity(observed, pvalue, defined)


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
