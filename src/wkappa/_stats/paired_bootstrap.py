"""The paired bootstrap of two predictions' kappas (``paired_kappa_test`` and its table,
cell and cluster forms): the non-empty cells of the K x K x K table of (truth, A, B) or the
per-cluster tables of A and B, the replicates of kappa_a - kappa_b drawn from them, and the
comparison's p-value.

Resampling items is a multinomial draw over the non-empty cells of the table of triples;
resampling clusters, a multinomial draw over the clusters. Each replicate gives both kappas at
once, from the same resampled items.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .._core import (
    UNDEFINED_REASON,
    Alternative,
    cell_kappas,
    integer_weights,
    kappa_from_table,
    kappas,
    weight_matrix,
    weights_name,
)
from ..exceptions import WkappaError
from . import bootstrap
from .bootstrap import expanded_pvalue, smallest_pvalue, zero_crossings
from .bootstrap_method import SeedLike, make_rng
from .cluster import warn_few_clusters
from .frequencies import CUBE_COUNTS, Frequencies, check_frequencies
from .kappa_warnings import warn_undefined
from .resampling import DrawSums
from .results import PairedKappaResult

__all__ = [
    "DENSE_CUBE_CELLS",
    "Settings",
    "cells_test",
    "cluster_bootstrap",
    "comparison",
    "comparison_pvalue",
    "triple_cells",
]

# Count triples with a dense bincount up to this many cells, sparsely (np.unique) above.
DENSE_CUBE_CELLS = 2**22


def triple_cells(
    true: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    k: int,
    counts: np.ndarray | None = None,
    frequencies: Frequencies = CUBE_COUNTS,
) -> bootstrap.Cells:
    """The non-empty cells of the K x K x K table of (truth, A, B), in C order.

    ``counts`` repeat each triple (the same triple may occur more than once): row counts, or
    frequency weights whose cell sums must be whole numbers (else the error of
    ``frequencies``, which names what holds them); the cells hold those whole numbers, so
    weights and the same items repeated give the same cells and the same draws.
    """
    code = (true.astype(np.int64) * k + a) * k + b
    if k**3 <= DENSE_CUBE_CELLS:
        summed = np.bincount(code, weights=counts, minlength=k**3)
        cells = np.flatnonzero(summed)
        summed = summed[cells]
    else:
        cells, inverse = np.unique(code, return_inverse=True)
        summed = np.bincount(inverse.ravel(), weights=counts)
        cells, summed = cells[summed > 0], summed[summed > 0]
    if counts is not None and counts.dtype.kind == "f":
        check_frequencies(summed, frequencies)
        summed = np.rint(summed)
    coords = (cells // (k * k), (cells // k) % k, cells % k)
    # Integer counts below 2**53 are exact in float64.
    return bootstrap.Cells(summed.astype(np.float64), coords, round(float(summed.sum())))


class Settings(NamedTuple):
    """The checked options of one paired test."""

    weights: str | np.ndarray
    labels: tuple[Any, ...]
    level: float
    n_resamples: int
    rng: SeedLike
    alternative: Alternative


def comparison(
    table_a: np.ndarray,
    table_b: np.ndarray,
    settings: Settings,
    differences: Callable[[np.random.Generator], np.ndarray],
    n_clusters: int | None = None,
) -> PairedKappaResult:
    """Both kappas from the (K, K) tables of A and B, then the comparison from the bootstrap
    replicates of kappa_a - kappa_b that ``differences(generator)`` draws (of items, or of
    clusters when ``n_clusters`` is given: the p-value's expansion uses their number); the
    nan comparison, with its warning, when either kappa is undefined; a nan interval and
    p-value, with its warning, on fewer than ``bootstrap.MIN_ITEMS`` items."""
    weights, labels, level, n_resamples, rng, alternative = settings
    statistic_a = kappa_from_table(table_a, weights=weights, zero_division=math.nan)
    statistic_b = kappa_from_table(table_b, weights=weights, zero_division=math.nan)
    total = table_a.sum()
    n: int | float = int(total) if table_a.dtype.kind in "iu" else float(total)
    if math.isnan(statistic_a - statistic_b):
        warn_undefined(
            f"Kappa is undefined for at least one prediction against the truth: "
            f"{UNDEFINED_REASON}. The comparison is nan."
        )
        replicates = np.full(n_resamples, math.nan)
        pvalue = math.nan
    elif n_clusters is None and (few := bootstrap.too_few_items(n, n_resamples)) is not None:
        replicates, pvalue = few, math.nan
    else:
        replicates = differences(make_rng(rng))
        defined, _ = bootstrap.drop_undefined(replicates)
        units = n if n_clusters is None else n_clusters
        pvalue = comparison_pvalue(defined, units, alternative)
    return PairedKappaResult(
        statistic_a=statistic_a,
        statistic_b=statistic_b,
        difference=statistic_a - statistic_b,
        pvalue=pvalue,
        n=n,
        labels=labels,
        weights=weights_name(weights),
        confidence_level=level,
        n_resamples=replicates.size,
        _differences=replicates,
        n_clusters=n_clusters,
        alternative=alternative,
    )


def comparison_pvalue(differences: np.ndarray, n: float, alternative: Alternative) -> float:
    """P-value of H0: difference = 0, the expanded percentile interval of the defined
    bootstrap ``differences`` (:func:`~wkappa._stats.bootstrap.expanded_interval`, for ``n``
    items or clusters) inverted: the smallest alpha at which the interval of level
    ``1 - alpha``, two-sided or one-sided as ``alternative``, excludes 0.

    So the test and the interval agree by construction: at every level the interval excludes
    0 exactly when ``pvalue < 1 - level``. The crossing is that of the interval's own
    quantiles (:func:`~wkappa._stats.bootstrap.zero_crossings`): tail ``u`` of the percentile
    interval, level ``1 - 2u``, is the expanded interval's at the level whose alpha is
    :func:`~wkappa._stats.bootstrap.expanded_pvalue` of ``2u``. One-sided ('greater': H1
    difference > 0) the p-value is half the two-sided one of the tail that counts against
    H1, as a one-sided interval at level gamma is the matching limit of the two-sided
    interval at ``2 gamma - 1``; past the median (most differences against H1) it is one
    minus half that of the other side. The p-value is not reported below the resolution of
    B defined differences, :func:`~wkappa._stats.bootstrap.smallest_pvalue` (``2 / (B + 1)``
    expanded): beyond that level the B differences cannot place a limit. nan without
    defined differences.
    """
    b = differences.size
    if b == 0:
        return math.nan
    below, above = zero_crossings(differences)
    floor = smallest_pvalue(b, n, alternative)
    if alternative == "two-sided":
        return max(floor, expanded_pvalue(min(1.0, 2.0 * min(below, 1.0 - above)), n))
    tail = below if alternative == "greater" else 1.0 - above
    half = max(floor, expanded_pvalue(2.0 * min(tail, 1.0 - tail), n) / 2.0)
    return half if tail <= 0.5 else 1.0 - half


def cluster_bootstrap(
    tables_a: np.ndarray, tables_b: np.ndarray, settings: Settings
) -> PairedKappaResult:
    """The paired bootstrap resampling clusters: per-cluster tables of A and B (G, K, K),
    replicates ``m @ tables`` with ``m ~ Multinomial(G, 1/G)``."""
    n_clusters, k = tables_a.shape[0], tables_a.shape[-1]
    if n_clusters < 2:
        raise WkappaError(
            f"`cluster` must have at least 2 clusters; got {n_clusters}. Hint: without "
            "clustering, leave `cluster` out."
        )
    warn_few_clusters(n_clusters, resampled=True)
    matrix = weight_matrix(settings.weights, k)
    flat_a, flat_b = tables_a.reshape(n_clusters, k * k), tables_b.reshape(n_clusters, k * k)
    probabilities = np.full(n_clusters, 1.0 / n_clusters)
    # Sums of the drawn clusters' tables, the same on every CPU.
    sums_a, sums_b = DrawSums(flat_a, n_clusters), DrawSums(flat_b, n_clusters)

    def differences(generator: np.random.Generator) -> np.ndarray:
        parts = []
        for chunk in bootstrap.chunk_sizes(settings.n_resamples, n_clusters + 2 * k * k):
            draws = generator.multinomial(n_clusters, probabilities, size=chunk)
            draws = draws.astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                kappa_a = kappas(sums_a(draws).reshape(chunk, k, k), matrix)
                kappa_b = kappas(sums_b(draws).reshape(chunk, k, k), matrix)
            parts.append(np.asarray(kappa_a, np.float64) - np.asarray(kappa_b, np.float64))
        return np.concatenate(parts)

    table_a, table_b = tables_a.sum(axis=0), tables_b.sum(axis=0)
    return comparison(table_a, table_b, settings, differences, n_clusters)


def cells_test(cells: bootstrap.Cells, k: int, settings: Settings) -> PairedKappaResult:
    """Both kappas from the non-empty (truth, A, B) cells, then the paired bootstrap."""
    matrix = weight_matrix(settings.weights, k)
    integer = integer_weights(matrix, k)
    truth, pred_a, pred_b = cells.coords
    integral = bool(np.all(cells.counts == np.round(cells.counts)))

    def table(pred: np.ndarray) -> np.ndarray:
        counts = np.zeros((k, k), dtype=np.int64 if integral else np.float64)
        np.add.at(counts, (truth, pred), cells.counts.astype(counts.dtype))
        return counts

    def differences(generator: np.random.Generator) -> np.ndarray:
        parts = []
        for size in bootstrap.chunk_sizes(settings.n_resamples, truth.size):
            replicates = bootstrap.draw(cells, size, generator)
            parts.append(
                cell_kappas(replicates, truth, pred_a, matrix, integer)
                - cell_kappas(replicates, truth, pred_b, matrix, integer)
            )
        return np.concatenate(parts)

    return comparison(table(pred_a), table(pred_b), settings, differences)
