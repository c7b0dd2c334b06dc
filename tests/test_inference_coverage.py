"""Coverage of the 95% intervals by simulation (slow): n = 200 ratings from a known K x K
(or K x K x K) distribution, intervals must cover the true kappa (or the true difference of
two kappas) between 93% and 97% of the time.

The number of simulated data sets (4,000 for the asymptotic interval, 2,000 for the bootstrap
ones, at least the 1,000 asked for) keeps the Monte Carlo error of a coverage near 0.94-0.95
at about 0.004-0.005, so the 93% floor is not hit by chance. At n = 200 the asymptotic QWK
interval covers about 94% (slightly anti-conservative, as expected of a Wald interval).
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error")]

N_ITEMS = 200
N_ASYMPTOTIC = 4000
N_DATASETS = 2000
N_RESAMPLES = 999
K = 4


def _population_kappa(joint: np.ndarray, weights: str) -> float:
    matrix = wk.kappa_test_from_table(np.ones((K, K)), weights=weights).weight_matrix
    rows, cols = joint.sum(axis=1), joint.sum(axis=0)
    return float(1 - np.sum(matrix * joint) / (rows @ matrix @ cols))


def _rater(agreement: float) -> np.ndarray:
    """P(prediction = j | truth = i): the truth with prob. `agreement`, else a neighbour or
    anything."""
    conditional = np.full((K, K), (1 - agreement) * 0.25 / K)
    for i in range(K):
        conditional[i, i] += agreement
        neighbours = [j for j in (i - 1, i + 1) if 0 <= j < K]
        for j in neighbours:
            conditional[i, j] += (1 - agreement) * 0.75 / len(neighbours)
    return conditional / conditional.sum(axis=1, keepdims=True)


TRUTH = np.array([0.2, 0.3, 0.3, 0.2])


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_coverage_of_asymptotic_and_percentile_intervals(weights: str) -> None:
    joint = TRUTH[:, None] * _rater(0.3)
    true_kappa = _population_kappa(joint, weights)
    rng = np.random.default_rng(2024)
    tables = rng.multinomial(N_ITEMS, joint.ravel(), size=N_ASYMPTOTIC).reshape(-1, K, K)
    covered_asymptotic = covered_bootstrap = 0
    for seed, table in enumerate(tables):
        result = wk.kappa_test_from_table(table, weights=weights)
        low, high = result.confidence_interval(0.95)
        covered_asymptotic += low <= true_kappa <= high
        if weights == "quadratic" and seed < N_DATASETS:
            method = wk.BootstrapMethod(N_RESAMPLES, "percentile", rng=seed)
            low, high = result.confidence_interval(0.95, method=method)
            covered_bootstrap += low <= true_kappa <= high
    assert 0.93 <= covered_asymptotic / N_ASYMPTOTIC <= 0.97, covered_asymptotic
    if weights == "quadratic":
        assert 0.93 <= covered_bootstrap / N_DATASETS <= 0.97, covered_bootstrap


def test_coverage_of_the_paired_difference() -> None:
    cube = TRUTH[:, None, None] * _rater(0.6)[:, :, None] * _rater(0.45)[:, None, :]
    true_difference = _population_kappa(cube.sum(axis=2), "quadratic") - _population_kappa(
        cube.sum(axis=1), "quadratic"
    )
    rng = np.random.default_rng(7)
    cells = np.array(np.unravel_index(np.arange(K**3), (K, K, K)))
    covered = 0
    for seed, counts in enumerate(rng.multinomial(N_ITEMS, cube.ravel(), size=N_DATASETS)):
        truth, a, b = np.repeat(cells, counts, axis=1)
        result = wk.paired_kappa_test(
            truth, a, b, labels=range(K), n_resamples=N_RESAMPLES, rng=seed
        )
        low, high = result.confidence_interval
        covered += low <= true_difference <= high
    assert 0.93 <= covered / N_DATASETS <= 0.97, covered
