"""The table bootstrap: resample the K x K (or K x K x K) table, never the n pairs.

Drawing n pairs with replacement is a multinomial draw of n over the table's cells with
probabilities ``O / n``. Only the m non-empty cells can be drawn, so B replicates are a (B, m)
multinomial array, and every replicate's kappa is a few sums over them: O(B K²), whatever n.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .._core import (
    cell_kappas,
    exact_total,
    integer_weights,
    norm_cdf,
    norm_ppf,
    t_ppf,
    t_sf,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from .intervals import ConfidenceInterval

__all__ = [
    "MIN_ITEMS",
    "BootstrapOutcome",
    "Cells",
    "all_alike",
    "bca_interval",
    "chunk_sizes",
    "draw",
    "drop_undefined",
    "expanded_interval",
    "expanded_level",
    "expanded_pvalue",
    "jackknife",
    "no_spread",
    "nonzero_cells",
    "percentile_interval",
    "replicate_interval",
    "replicate_kappas",
    "smallest_pvalue",
    "table_interval",
    "too_few_items",
    "zero_crossings",
]

# Replicates are drawn and reduced in chunks of about this many cells (a few tens of MiB).
_CHUNK_CELLS = 2_000_000
# Dropping more than this share of undefined replicates earns a warning.
_UNDEFINED_SHARE = 0.01
# The fewest items an item bootstrap draws from, for one coefficient (kappa_test, agreement,
# group_agreement) as for a difference (paired_kappa_test, rater_vs_panel). With 1 item every
# resample is that item; with 2 there are 3 distinct resamples, two of them one item twice
# (where a chance-corrected coefficient is undefined or 0), so a percentile interval is the
# estimate itself or the range of at most 3 values at any level, and the expanded level (t
# with 1 degree of freedom) reaches the replicates' extremes. 3 items have 10 distinct
# resamples. A cluster bootstrap brings whole clusters of items: it needs 2 clusters and warns
# below 8 (cluster.py).
MIN_ITEMS = 3


class Cells(NamedTuple):
    """The non-empty cells of a table: counts and their coordinates."""

    counts: np.ndarray  # (m,) float64
    coords: tuple[np.ndarray, ...]  # one (m,) int array per axis
    n_draw: int  # pairs per replicate


class BootstrapOutcome(NamedTuple):
    low: float
    high: float
    n_undefined: int


def nonzero_cells(table: np.ndarray) -> Cells:
    """The cells with a positive count; ``n_draw`` is the total rounded to an integer.

    A non-integer (weighted) table is read as frequency weights: replicates draw
    ``round(sum)`` pairs with probabilities proportional to the cell weights.
    """
    index = np.nonzero(table > 0)
    counts = table[index].astype(np.float64)
    total = float(counts.sum())
    n_draw = exact_total(table) if table.dtype.kind in "iu" else round(total)
    if n_draw > np.iinfo(np.int64).max:
        raise WkappaError(
            f"The table's {n_draw:.3g} pairs are too many to resample (a bootstrap replicate "
            "draws at most 2**63 - 1 pairs). Hint: use the asymptotic interval."
        )
    return Cells(counts, index, n_draw)


def draw(cells: Cells, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """B multinomial replicates of the non-empty cells, shape (B, m), float64."""
    probabilities = cells.counts / cells.counts.sum()
    return rng.multinomial(cells.n_draw, probabilities, size=n_resamples).astype(np.float64)


def chunk_sizes(n_resamples: int, cells_per_replicate: int) -> list[int]:
    size = max(1, _CHUNK_CELLS // max(cells_per_replicate, 1))
    return [min(size, n_resamples - start) for start in range(0, n_resamples, size)]


def replicate_kappas(
    table: np.ndarray, weights: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """B bootstrap kappas of a K x K table, shape (B,), nan where undefined."""
    cells = nonzero_cells(table)
    rows, cols = cells.coords
    integer = integer_weights(weights, weights.shape[0])
    parts = [
        cell_kappas(draw(cells, size, rng), rows, cols, weights, integer)
        for size in chunk_sizes(n_resamples, rows.size)
    ]
    return np.concatenate(parts)


def jackknife(table: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out kappas of the non-empty cells and their multiplicities.

    Deleting one pair from cell (i, j) changes n, sum(W*O), one row sum and one column sum,
    so every leave-one-out kappa is O(1) from the table's sums: K² values, weighted by the
    counts, instead of n. A weighted table drops ``min(1, O_ij)`` from the cell.

    Returns
    -------
    values, counts : ndarray of shape (m,)
        Leave-one-out kappas (nan where undefined) and the cells' counts.
    """
    counts = table.astype(np.float64)
    rows, cols = np.nonzero(counts > 0)
    cell = counts[rows, cols]
    drop = np.minimum(cell, 1.0)
    n = counts.sum()
    row_sums, col_sums = counts.sum(axis=1), counts.sum(axis=0)
    # Elementwise products summed along fixed axes, not matrix products: BLAS kernels round
    # differently on different CPUs.
    sum_observed = float(np.sum(weights * counts))
    weighted_cols = (weights * col_sums[None, :]).sum(axis=1)  # (W c)_i
    weighted_rows = (row_sums[:, None] * weights).sum(axis=0)  # (r^T W)_j
    sum_expected = float((row_sums * weighted_cols).sum())
    w_cell = weights[rows, cols]
    n_left = n - drop
    observed = sum_observed - drop * w_cell
    expected = (
        sum_expected - drop * weighted_cols[rows] - drop * weighted_rows[cols] + drop**2 * w_cell
    )
    # Cancellation leaves rounding noise where the exact value is 0.
    defined = (expected > 1e-12 * max(sum_expected, 1.0)) & (n_left > 0)
    values = np.full(cell.shape, np.nan)
    np.divide(n_left * observed, expected, out=values, where=defined)
    np.subtract(1.0, values, out=values, where=defined)
    return values, cell


def percentile_interval(values: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """The (1 - level)/2 and (1 + level)/2 quantiles (linear interpolation)."""
    tail = (1.0 - confidence_level) / 2.0
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)


def zero_crossings(values: np.ndarray) -> tuple[float, float]:
    """Where the quantile function of :func:`percentile_interval` crosses 0: ``(below,
    above)``, ``below`` the largest probability ``u`` whose quantile is at most 0 and
    ``above`` the smallest whose quantile is at least 0 (0 and 1 where there is none).

    With the B sorted values ``x`` the linear-interpolation quantile at ``u`` lies at the
    position ``u (B - 1)``; between ``x[j] <= 0 < x[j + 1]`` it reaches 0 at
    ``j - x[j] / (x[j + 1] - x[j])``. The lower limit of the interval of tail ``u`` is above 0
    exactly when ``u > below``, the upper limit below 0 exactly when ``u > 1 - above``.
    """
    x = np.sort(values)
    size = x.size

    def crossing(count: int) -> float:  # the crossing after the first `count` values
        if count in (0, size):
            return 0.0 if count == 0 else 1.0
        left, right = float(x[count - 1]), float(x[count])
        return (count - 1 - left / (right - left)) / (size - 1)

    return crossing(int(np.count_nonzero(x <= 0))), crossing(int(np.count_nonzero(x < 0)))


def bca_interval(
    values: np.ndarray,
    statistic: float,
    jack_values: np.ndarray,
    jack_counts: np.ndarray,
    confidence_level: float,
) -> tuple[float, float]:
    """Efron's bias-corrected and accelerated interval.

    Notes
    -----
    Bias correction ``z0 = Phi^-1(P*(kappa* < kappa) + P*(kappa* = kappa) / 2)`` (ties split,
    as bootstrap kappas are discrete for small n); acceleration from the jackknife values
    ``t_c`` with multiplicities ``w_c``:
    ``a = sum w (tbar - t)³ / (6 (sum w (tbar - t)²)^(3/2))``. The interval is the
    ``Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q)))`` quantiles for ``z_q`` at both tails.
    """
    below = np.count_nonzero(values < statistic) + 0.5 * np.count_nonzero(values == statistic)
    share = below / values.size
    if not 0.0 < share < 1.0:
        warn_at_caller(
            "The BCa interval is undefined: every bootstrap kappa lies on one side of the "
            "statistic. Returning nan. Hint: use method='percentile'.",
            UndefinedKappaWarning,
        )
        return math.nan, math.nan
    z0 = norm_ppf(share)
    keep = ~np.isnan(jack_values)
    acceleration = 0.0
    if keep.sum() > 1:
        weight = jack_counts[keep]
        deviation = np.average(jack_values[keep], weights=weight) - jack_values[keep]
        spread = float(np.sum(weight * deviation**2))
        if spread > 0:
            acceleration = float(np.sum(weight * deviation**3)) / (6.0 * spread**1.5)
    tail = (1.0 - confidence_level) / 2.0
    quantiles = []
    for z_q in (norm_ppf(tail), norm_ppf(1.0 - tail)):
        shifted = z0 + z_q
        quantiles.append(norm_cdf(z0 + shifted / (1.0 - acceleration * shifted)))
    low, high = np.quantile(values, quantiles)
    return float(low), float(high)


def drop_undefined(values: np.ndarray, statistic: str = "kappa") -> tuple[np.ndarray, int]:
    """The defined replicates and how many were dropped (warns above 1%, naming the
    replicated ``statistic``)."""
    defined = values[~np.isnan(values)]
    dropped = values.size - defined.size
    if dropped > _UNDEFINED_SHARE * values.size:
        warn_at_caller(
            f"{dropped} of {values.size} bootstrap replicates have an undefined {statistic} and "
            f"were dropped; the interval is conditional on a defined {statistic}.",
            UndefinedKappaWarning,
        )
    return defined, dropped


def all_alike(values: np.ndarray) -> bool:
    """Whether ``values`` are one and the same up to rounding (relative ``1e-12``): units (items,
    leave-one-outs, resamples) that show no spread to estimate a variance from. False when
    there are none or one is not finite."""
    if values.size == 0 or not np.all(np.isfinite(values)):
        return False
    return float(np.ptp(values)) <= 1e-12 * max(1.0, float(np.max(np.abs(values))))


def no_spread(values: np.ndarray, statistic: str = "kappa") -> bool:
    """Whether the defined bootstrap ``values`` are all the same (up to rounding) below
    perfect agreement, warning at the caller when so: every resample gave one value, and an
    interval of zero width would claim a certainty the data do not give. Replicates all 1
    are perfect agreement, kept as [1, 1]. (A paired difference keeps its [0, 0]: two
    predictions that agree on every item differ by exactly 0 on every resample.)"""
    defined = values[~np.isnan(values)]
    if not all_alike(defined) or float(defined[0]) >= 1.0 - 1e-12:
        return False
    warn_at_caller(
        f"The bootstrap interval is undefined: every resample gives the same {statistic} "
        f"({float(defined[0]):.6g}), as when every item is rated alike, so the resamples "
        "show no spread. Returning nan. Hint: rate more items.",
        UndefinedKappaWarning,
    )
    return True


def replicate_interval(
    values: np.ndarray,
    bca_inputs: Callable[[], tuple[float, np.ndarray, np.ndarray]],
    confidence_level: float,
    method: str,
) -> BootstrapOutcome:
    """Percentile or BCa interval from bootstrap replicates of a statistic (nan where
    undefined: dropped and counted). ``bca_inputs()`` gives BCa's centre, the jackknife
    values and their multiplicities; it is called for 'bca' only."""
    if no_spread(values):
        return BootstrapOutcome(math.nan, math.nan, int(np.isnan(values).sum()))
    values, dropped = drop_undefined(values)
    if values.size == 0:
        return BootstrapOutcome(math.nan, math.nan, dropped)
    if method == "bca":
        center, jack_values, jack_counts = bca_inputs()
        low, high = bca_interval(values, center, jack_values, jack_counts, confidence_level)
    else:
        low, high = percentile_interval(values, confidence_level)
    return BootstrapOutcome(low, high, dropped)


def table_interval(
    table: np.ndarray,
    weights: np.ndarray,
    statistic: float,
    confidence_level: float,
    n_resamples: int,
    method: str,
    rng: np.random.Generator,
) -> BootstrapOutcome:
    """Percentile or BCa bootstrap interval of a K x K table's kappa."""

    def bca_inputs() -> tuple[float, np.ndarray, np.ndarray]:
        # The statistic in the replicates' own arithmetic, so that a replicate equal to the
        # data counts as a tie, not as 1 ulp above or below.
        cells = nonzero_cells(table)
        rows, cols = cells.coords
        integer = integer_weights(weights, weights.shape[0])
        same = cell_kappas(cells.counts[None, :], rows, cols, weights, integer)[0]
        jack_values, jack_counts = jackknife(table, weights)
        return (float(same) if math.isfinite(same) else statistic), jack_values, jack_counts

    values = replicate_kappas(table, weights, n_resamples, rng)
    return replicate_interval(values, bca_inputs, confidence_level, method)


def _stretch(n: float) -> float:
    return math.sqrt(n / (n - 1.0))


def expanded_level(confidence_level: float, n: float) -> float:
    """The level of the percentile interval that gives the expanded percentile interval.

    Hesterberg (2015, "What teachers should know about the bootstrap: resampling in the
    undergraduate statistics curriculum", The American Statistician 69(4): 371-386): the
    percentile interval is too narrow in small samples
    by about ``sqrt((n - 1) / n)`` and by using normal instead of t quantiles; the expanded
    interval takes the bootstrap quantiles at ``Phi(± sqrt(n / (n - 1)) t_{n-1,(1+gamma)/2})``
    instead of ``(1 ± gamma) / 2``. The level returned is ``2 Phi(...) - 1``; it tends to
    ``confidence_level`` as n grows. For ``n <= 1`` the level is unchanged.
    """
    if not n > 1.0:
        return confidence_level
    stretched = _stretch(n) * t_ppf(0.5 + confidence_level / 2.0, n - 1.0)
    return 2.0 * norm_cdf(stretched) - 1.0


def expanded_pvalue(percentile_pvalue: float, n: float) -> float:
    """The p-value dual to the expanded percentile interval: the smallest alpha whose level
    ``1 - alpha`` expanded interval excludes 0, given the percentile interval's (the level
    ``1 - p`` at which it reaches 0):
    ``alpha = 2 P(T_{n-1} > Phi^-1(1 - p / 2) / sqrt(n / (n - 1)))``.
    """
    if not n > 1.0 or not 0.0 < percentile_pvalue < 1.0:
        return percentile_pvalue
    deviate = norm_ppf(1.0 - percentile_pvalue / 2.0) / _stretch(n)
    return min(1.0, 2.0 * t_sf(deviate, n - 1.0))


def smallest_pvalue(n_resamples: int, n: float, alternative: str) -> float:
    """The smallest p-value of a bootstrap difference (``comparison_pvalue`` of the paired
    test and the panel comparison) with ``n_resamples`` differences, none of them against H1
    (the count 1 + 0): what a report can state as "p <= this" rather than a p-value the
    resamples cannot resolve."""
    two_sided = expanded_pvalue(2.0 / (n_resamples + 1), n)
    return two_sided if alternative == "two-sided" else two_sided / 2.0


def too_few_items(n: float, n_resamples: int, *, pvalue: bool = True) -> np.ndarray | None:
    """The item bootstrap on fewer than :data:`MIN_ITEMS` items: its ``n_resamples``
    replicates, all nan (so the interval, and the p-value if ``pvalue``, are nan), with a
    warning at the caller; None when there are enough items to draw from."""
    if n >= MIN_ITEMS:
        return None
    items = f"{n:g} item" + ("" if n == 1 else "s")
    resamples = math.comb(2 * int(n) - 1, int(n)) if n >= 1 else 0
    subject = "interval and p-value need" if pvalue else "interval needs"
    warn_at_caller(
        f"The bootstrap {subject} at least {MIN_ITEMS} items, and there "
        f"{'is' if n == 1 else 'are'} {items}: their bootstrap has only {resamples} distinct "
        f"resample{'' if resamples == 1 else 's'}. Returning nan for "
        f"{'them' if pvalue else 'it'}. Hint: rate more items.",
        UndefinedKappaWarning,
    )
    return np.full(n_resamples, math.nan)


def expanded_interval(
    differences: np.ndarray, difference: float, level: float, n: float, n_resamples: int
) -> ConfidenceInterval:
    """The two-sided expanded percentile interval of ``n_resamples`` bootstrap
    ``differences`` (nan ones dropped and counted) around ``difference``, for ``n`` items or
    clusters."""
    defined = differences[~np.isnan(differences)]
    dropped = differences.size - defined.size
    if defined.size == 0 or math.isnan(difference):
        low = high = math.nan
    elif all_alike(defined) and float(np.max(np.abs(defined))) > 0.0:
        # Every resample gives one difference, not 0 (0 on every resample is two predictions
        # that agree on every item, kept as [0, 0]): no spread to measure, as no_spread says.
        warn_at_caller(
            "The bootstrap interval of the difference is undefined: every resample gives the "
            f"same difference ({float(defined[0]):.6g}), as when each prediction rates every "
            "item alike or agrees perfectly, so the resamples show no spread. Returning nan. "
            "Hint: rate more items.",
            UndefinedKappaWarning,
        )
        low = high = math.nan
    else:
        low, high = percentile_interval(defined, expanded_level(level, n))
    return ConfidenceInterval(low, high, level, "expanded-percentile", n_resamples, dropped)
