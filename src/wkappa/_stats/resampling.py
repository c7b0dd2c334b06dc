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

from .._core import weighted_sums

__all__ = [
    "CHUNK_CELLS",
    "DrawSums",
    "jackknife_se",
    "jackknife_values",
    "multinomial_replicates",
]

# Replicates are reduced in chunks of about this many matrix cells.
CHUNK_CELLS = 2_000_000


class DrawSums:
    """``draws @ values`` for whole, non-negative draws whose rows sum to at most ``total``,
    the same on every CPU.

    BLAS adds a matrix product's terms in an order that depends on the CPU's kernel, which
    matters only when the sums round. So ``values`` (m, p) is split into slices whose entries
    are whole multiples of a power of two per column, with few enough bits that every partial
    sum of ``draws @ slice`` is held exactly in float64 (it is at most ``total`` times the
    column's largest entry): each slice's product is then exact in any order, and the slices'
    products are added from the largest down. Whole values need one slice, other floats two
    or three.

    Examples
    --------
    >>> import numpy as np
    >>> sums = DrawSums(np.array([[0.1, 2.0], [0.2, 3.0]]), total=3)
    >>> sums(np.array([[1.0, 2.0], [3.0, 0.0]])).tolist()
    [[0.5, 8.0], [0.30000000000000004, 6.0]]
    """

    def __init__(self, values: np.ndarray, total: int) -> None:
        values = np.asarray(values, dtype=np.float64)
        self._shape = values.shape
        self._slices: list[tuple[np.ndarray, np.ndarray]] = []
        # sum |m_g x_g| <= total * 2**bits <= 2**52: every partial sum is a whole number.
        bits = 52 - max(int(total), 1).bit_length()
        self._plain: np.ndarray | None = None
        if bits < 8 or not np.isfinite(values).all():
            self._plain = values  # astronomically many draws, or nan/inf results anyway
            return
        rest = values
        while rest.size:  # until the remainder is 0 (an empty array has no slices)
            top = np.abs(rest).max(axis=0)
            if not top.any():
                break
            exponent = np.frexp(top)[1] - bits  # every |entry| < 2**(exponent + bits)
            scaled = np.round(np.ldexp(rest, -exponent))  # whole, |.| <= 2**bits
            rest = rest - np.ldexp(scaled, exponent)  # exact: the rounding's remainder
            self._slices.append((scaled, exponent))

    def __call__(self, draws: np.ndarray) -> np.ndarray:
        draws = np.asarray(draws, dtype=np.float64)
        if self._plain is not None:  # fixed-order elementwise sums
            plain: np.ndarray = (draws[:, :, None] * self._plain[None]).sum(axis=1)
            return plain
        out = np.zeros((draws.shape[0], self._shape[1]))
        for scaled, exponent in self._slices:
            out += np.ldexp(draws @ scaled, exponent)  # each product exact
        return out


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
    total = weighted_sums(multiplicity, features)  # the point estimate's sums
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
    mean = float((counts * values).sum()) / n
    spread = float((counts * (values - mean) ** 2).sum())
    return math.sqrt((1.0 - fraction) * (n - 1) / n * spread)
