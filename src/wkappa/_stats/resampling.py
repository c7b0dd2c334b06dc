"""Item resampling over distinct rows: the chunked multinomial bootstrap and the
leave-one-item-out jackknife of statistics that are functions of sums over items.

n items in m distinct rows with multiplicities ``c``: a bootstrap replicate draws n items
with replacement, which is a multinomial draw of the rows' counts (B x m, never n); a
statistic of sums over items is then a function of ``counts @ features``. Used by
:class:`~wkappa.AgreementResult` and :func:`~wkappa.rater_vs_panel`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np

__all__ = ["CHUNK_CELLS", "jackknife_se", "jackknife_values", "multinomial_replicates"]

# Replicates are reduced in chunks of about this many matrix cells.
CHUNK_CELLS = 2_000_000


def multinomial_replicates(
    rng: np.random.Generator,
    multiplicity: np.ndarray,
    n_resamples: int,
    statistic: Callable[[np.ndarray], np.ndarray],
    width: int = 1,
) -> np.ndarray:
    """``statistic`` of ``n_resamples`` item-bootstrap replicates.

    Parameters
    ----------
    rng : Generator
    multiplicity : ndarray of shape (m,)
        How many items each distinct row stands for.
    n_resamples : int
    statistic : callable
        Maps a (B, m) float array of resampled multiplicities to B values (RuntimeWarnings
        of undefined replicates are silenced; they are nan).
    width : int
        Columns the statistic reads per row (sets the chunk size with ``m``).

    Returns
    -------
    ndarray of shape (n_resamples,)
    """
    counts = multiplicity.astype(np.float64)
    n = int(multiplicity.sum())
    probabilities = counts / counts.sum()
    out = np.empty(n_resamples)
    step = max(1, CHUNK_CELLS // max(len(counts), width, 1))
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        draws = rng.multinomial(n, probabilities, size=size).astype(np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out[start : start + size] = statistic(draws)
    return out


def jackknife_values(
    features: np.ndarray,
    multiplicity: np.ndarray,
    estimate: Callable[[np.ndarray], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The statistic without one item of each distinct row (``estimate`` of the feature sums
    minus that row's features), and the rows' multiplicities as float64."""
    total = multiplicity.astype(np.float64) @ features
    values = np.empty(len(features))
    step = max(1, CHUNK_CELLS // max(features.shape[1], 1))
    for start in range(0, len(values), step):
        part = total[None, :] - features[start : start + step]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            values[start : start + step] = estimate(part)
    return values, multiplicity.astype(np.float64)


def jackknife_se(values: np.ndarray, counts: np.ndarray, fraction: float = 0.0) -> float:
    """The jackknife standard error ``sqrt((1 - f) (n - 1) / n sum (t_i - tbar)²)`` over the
    n items (rows weighted by ``counts``); nan when a value is undefined or n < 2."""
    n = float(counts.sum())
    if np.isnan(values).any() or n < 2:
        return math.nan
    mean = float(counts @ values) / n
    return math.sqrt((1.0 - fraction) * (n - 1) / n * float(counts @ (values - mean) ** 2))
