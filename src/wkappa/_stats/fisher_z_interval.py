"""The small-sample (Fisher-z) interval of a kappa: half a pair of chance agreement, Fisher's
z scale and Student's t quantile."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core import kappas, t_ppf, variances

__all__ = ["fisher_z_limits"]

# The half pair of chance agreement added by the Fisher-z interval.
PSEUDO_PAIRS = 0.5


def fisher_z_limits(
    tables: np.ndarray, weights: np.ndarray, confidence_level: float, kappa: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """The small-sample (Fisher-z) interval of each table's kappa.

    Parameters
    ----------
    tables : ndarray of shape (..., K, K)
        Counts O (integer or weighted), any number of leading axes.
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    confidence_level : float
        Nominal coverage.
    kappa : float or ndarray of shape (...), optional
        The kappa of each table as the caller reports it (computed if omitted); the interval
        always contains it.

    Returns
    -------
    low, high : ndarray of shape (...)
        nan where kappa is undefined, where ``n <= 1`` or where the adjusted kappa is
        outside (-1, 1).

    Notes
    -----
    Three changes to the large-sample (Wald) interval, each aimed at one cause of its
    undercoverage in small samples:

    1. **Half a pair of chance agreement.** With ``n`` pairs and the independence table
       ``E = outer(row sums, column sums) / n``, the table ``O + E / (2 n)`` has the same
       margins and the shrunken kappa ``kappa_s = kappa * n / (n + 1/2)``; its
       Fleiss-Cohen-Everitt (1969) standard error ``s`` (with ``n + 1/2`` pairs) is positive
       even when every pair agrees, in the spirit of the pseudo-counts of Agresti & Coull
       (1998) for a binomial proportion.
    2. **Fisher's z scale.** ``z = atanh(kappa_s)`` with the delta-method standard error
       ``s / (1 - kappa_s²)`` (Fisher 1921; used for agreement coefficients by Lin 1989),
       which keeps the interval inside (-1, 1) and makes it asymmetric near 1.
    3. **Student's t quantile** with ``n - 1`` degrees of freedom instead of the normal one.

    .. math::

        [\\tanh(z - t_{n-1, (1+\\gamma)/2} \\, s / (1 - \\kappa_s^2)),\\;
         \\tanh(z + t_{n-1, (1+\\gamma)/2} \\, s / (1 - \\kappa_s^2))]

    widened where needed to contain the estimate kappa itself (e.g. kappa = 1).
    The amount of smoothing (half a pair) and the t quantile were chosen by the coverage
    study in ``benchmarks/coverage_study.py`` (see BENCHMARKS.md).
    """
    counts = np.asarray(tables, dtype=np.float64)
    n = counts.sum(axis=(-2, -1))
    if kappa is None:
        kappa = kappas(counts, weights)
    kappa = np.asarray(kappa, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rows, cols = counts.sum(axis=-1), counts.sum(axis=-2)
        total = n[..., None, None]
        smoothed = counts + PSEUDO_PAIRS * rows[..., :, None] * cols[..., None, :] / total**2
        kappa_s = np.asarray(kappas(smoothed, weights), dtype=np.float64)
        variance, _ = variances(smoothed, weights, kappa_s)
        se = np.sqrt(variance)
        quantile = _t_quantiles(0.5 + confidence_level / 2.0, n - 1.0)
        center = np.arctanh(kappa_s)
        half = quantile * se / (1.0 - kappa_s**2)
        low = np.fmin(np.tanh(center - half), kappa)
        high = np.fmax(np.tanh(center + half), kappa)
    bad = np.isnan(kappa) | ~(n > 1.0) | ~(np.abs(kappa_s) < 1.0) | np.isnan(se)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


def _t_quantiles(p: float, df: np.ndarray) -> np.ndarray:
    """``t_ppf(p, df)`` for an array of degrees of freedom (one call per distinct value)."""
    df = np.asarray(df, dtype=np.float64)
    values, inverse = np.unique(df, return_inverse=True)
    quantiles = np.array([t_ppf(p, float(v)) if v > 0 else math.nan for v in values])
    return quantiles[inverse].reshape(df.shape)
