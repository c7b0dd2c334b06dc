"""Coverage of the 95% intervals by simulation (slow): n = 200 ratings from a known K x K
(or K x K x K) distribution, intervals must cover the true kappa (or the true difference of
two kappas) between 93% and 97% of the time.

The number of simulated data sets (4,000 for the asymptotic interval, 2,000 for the bootstrap
ones, at least the 1,000 asked for) keeps the Monte Carlo error of a coverage near 0.94-0.95
at about 0.004-0.005, so the 93% floor is not hit by chance. At n = 200 the asymptotic QWK
interval covers about 94% (slightly anti-conservative, as expected of a Wald interval).
"""

from __future__ import annotations

import warnings

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
        low, high = result.confidence_interval()
        covered += low <= true_difference <= high
    assert 0.93 <= covered / N_DATASETS <= 0.97, covered


# --------------------------------------------------------------------------- small samples

SMALL_REPLICATIONS = 4000  # Monte Carlo SE of a coverage near 0.95: sqrt(.95 * .05 / 4000) = 0.0034


def _prevalence(k: int, skewed: bool) -> np.ndarray:
    shares = 0.6 ** np.arange(k) if skewed else np.ones(k)
    return shares / shares.sum()


def _chance_mixture(k: int, skewed: bool, kappa: float) -> np.ndarray:
    """(1 - kappa) r r' + kappa diag(r): its kappa is `kappa` for every weight matrix."""
    r = _prevalence(k, skewed)
    return (1 - kappa) * np.outer(r, r) + kappa * np.diag(r)


def _ordinal_noise(k: int, skewed: bool, kappa: float, weights: str) -> np.ndarray:
    """Rater B = rater A plus discretised normal noise, its spread solved for `kappa`."""
    r = _prevalence(k, skewed)
    steps = np.arange(k)

    def joint(spread: float) -> np.ndarray:
        conditional = np.exp(-0.5 * ((steps[None, :] - steps[:, None]) / spread) ** 2)
        return r[:, None] * conditional / conditional.sum(axis=1, keepdims=True)

    low, high = 1e-3, 1e3
    for _ in range(100):
        middle = float(np.sqrt(low * high))
        low, high = (middle, high) if _kappa_of(joint(middle), weights) > kappa else (low, middle)
    return joint(low)


def _kappa_of(joint: np.ndarray, weights: str) -> float:
    k = joint.shape[0]
    matrix = wk.kappa_test_from_table(np.ones((k, k)), weights=weights).weight_matrix
    rows, cols = joint.sum(axis=1), joint.sum(axis=0)
    return float(1 - np.sum(matrix * joint) / (rows @ matrix @ cols))


# Balanced and skewed prevalence, K = 2 and 5, from the design grid of
# benchmarks/coverage_study.py (the skewed K = 5 table with kappa 0.95 is where the asymptotic
# interval covers about half the time at n = 30).
SMALL_SAMPLE_TABLES = {
    "K=2 skewed chance 0.8": (_chance_mixture(2, True, 0.8), "unweighted"),
    "K=2 balanced ordinal 0.4": (_ordinal_noise(2, False, 0.4, "unweighted"), "unweighted"),
    "K=5 balanced chance 0.4": (_chance_mixture(5, False, 0.4), "quadratic"),
    "K=5 skewed chance 0.95": (_chance_mixture(5, True, 0.95), "quadratic"),
    "K=5 skewed ordinal 0.8": (_ordinal_noise(5, True, 0.8, "quadratic"), "quadratic"),
}
# The issue's example (skewed prevalence, K = 5, quadratic, kappa 0.34), where 'fisher-z'
# covers about 0.925, and its ordinal twin, where 'score' is conservative at n = 30 (0.9795
# with these draws: mixing with chance adds distant disagreements that an ordinal table does
# not have; BENCHMARKS.md, "Ordinal tables: conservative", shows why that path is kept).
ISSUE_TABLES = {
    "K=5 skewed chance 0.34": (_chance_mixture(5, True, 0.34), "quadratic"),
    "K=5 skewed ordinal 0.34": (_ordinal_noise(5, True, 0.34, "quadratic"), "quadratic"),
}


def _simulate(name: str, n_items: int, methods: tuple[str, ...]) -> dict[str, float]:
    """Coverage of each method over SMALL_REPLICATIONS tables drawn from the population.

    The limits are computed for the whole stack at once by the functions behind
    ``KappaResult.confidence_interval``; a few replicates are checked against that public
    method one by one.
    """
    from wkappa._frames import group_statistics
    from wkappa._stats import fisher_z_limits, score_limits

    joint, weights = {**SMALL_SAMPLE_TABLES, **ISSUE_TABLES}[name]
    k = joint.shape[0]
    true_kappa = _kappa_of(joint, weights)
    matrix = np.asarray(wk.kappa_test_from_table(np.ones((k, k)), weights=weights).weight_matrix)
    rng = np.random.default_rng([n_items, k, int(1000 * true_kappa)])
    tables = rng.multinomial(n_items, joint.ravel(), size=SMALL_REPLICATIONS).reshape(-1, k, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wald = group_statistics(tables, weights, matrix, 0.95)
        limits = {
            "asymptotic": (wald.ci_low, wald.ci_high),
            "fisher-z": fisher_z_limits(tables, matrix, 0.95),
            "score": score_limits(tables, matrix, 0.95),
        }
    defined = ~np.isnan(wald.kappa)
    assert defined.mean() >= 0.99
    for index in np.flatnonzero(defined)[:5]:
        result = wk.kappa_test_from_table(tables[index], weights=weights)
        for method in methods:
            with warnings.catch_warnings():  # a table without disagreement: [1, 1], warned
                warnings.simplefilter("ignore", wk.PerfectAgreementWarning)
                low, high = result.confidence_interval(method=method)  # type: ignore[arg-type]
            np.testing.assert_allclose(
                [low, high], [limits[method][0][index], limits[method][1][index]], rtol=1e-12
            )
    coverage = {}
    for method in methods:
        low, high = limits[method]
        coverage[method] = float(np.mean((low <= true_kappa) & (true_kappa <= high), where=defined))
    return coverage


@pytest.mark.parametrize("n_items", [30, 50])
@pytest.mark.parametrize("name", list(SMALL_SAMPLE_TABLES) + list(ISSUE_TABLES))
def test_score_keeps_its_level_at_small_n(name: str, n_items: int) -> None:
    coverage = _simulate(name, n_items, ("score", "asymptotic"))
    high = 0.985 if name == "K=5 skewed ordinal 0.34" and n_items == 30 else 0.97
    assert 0.93 <= coverage["score"] <= high, (name, n_items, coverage)
    if name == "K=5 skewed chance 0.95":  # the case the method is for
        assert coverage["asymptotic"] < 0.75, coverage


@pytest.mark.parametrize("n_items", [30, 50])
@pytest.mark.parametrize("name", list(SMALL_SAMPLE_TABLES))
def test_fisher_z_keeps_its_level_at_small_n(name: str, n_items: int) -> None:
    coverage = _simulate(name, n_items, ("fisher-z",))
    assert 0.93 <= coverage["fisher-z"] <= 0.97, (name, n_items, coverage)
