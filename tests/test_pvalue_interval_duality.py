"""The bootstrap p-value of a difference and its interval agree by construction
(``rater_vs_panel``, ``paired_kappa_test``): at every level the interval excludes 0 exactly
when ``pvalue < 1 - level``, for the three alternatives, down to the p-value's resolution.
The p-value counted replicates with a +1 correction while the interval interpolated
quantiles, so near a level the two could disagree (p = 0.052 beside an interval excluding 0)."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa._stats.bootstrap import smallest_pvalue, zero_crossings
from wkappa._stats.paired_bootstrap import comparison_pvalue

pytestmark = pytest.mark.filterwarnings("error")

ALPHAS = np.linspace(0.005, 0.6, 120)


def _noisy(rng: np.random.Generator, truth: np.ndarray, accuracy: float) -> np.ndarray:
    return np.where(rng.random(truth.size) < accuracy, truth, rng.integers(0, 4, truth.size))


def _check(result: object, alternative: str) -> int:
    """The agreement of ``result``'s p-value with its intervals at every alpha of the grid
    above the p-value's resolution; the number of alphas where 0 is excluded."""
    pvalue = result.pvalue  # type: ignore[attr-defined]
    units = getattr(result, "n_items", None) or result.n  # type: ignore[attr-defined]
    floor = smallest_pvalue(result.n_resamples, units, alternative)  # type: ignore[attr-defined]
    excluded = 0
    for alpha in ALPHAS:
        if alpha <= floor or (alternative != "two-sided" and alpha >= 0.5):
            continue
        if abs(pvalue - alpha) < 1e-9:
            continue
        ci = result.confidence_interval(1 - alpha)  # type: ignore[attr-defined]
        excludes = bool(ci.low > 0 or ci.high < 0)
        assert excludes == (pvalue < alpha), (alternative, alpha, pvalue, ci)
        excluded += excludes
    return excluded


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_panel_pvalue_and_interval_agree_at_every_level(alternative: str) -> None:
    excluded = both = 0
    for seed in range(24):
        rng = np.random.default_rng(seed)
        n = 40 + 20 * (seed % 3)
        truth = rng.integers(0, 4, n)
        panel = np.column_stack([_noisy(rng, truth, 0.7) for _ in range(3)])
        candidate = _noisy(rng, truth, 0.6 + 0.01 * seed)
        result = wk.rater_vs_panel(
            panel, candidate, n_resamples=499, rng=seed, alternative=alternative
        )
        found = _check(result, alternative)
        excluded += found
        both += 0 < found < len(ALPHAS)  # (the levels on both sides of the p-value)
    assert excluded > 0 and both >= 5


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_paired_pvalue_and_interval_agree_at_every_level(alternative: str) -> None:
    both = 0
    for seed in range(24):
        rng = np.random.default_rng(seed)
        truth = rng.integers(0, 4, 60)
        a, b = _noisy(rng, truth, 0.7), _noisy(rng, truth, 0.62 + 0.008 * seed)
        result = wk.paired_kappa_test(
            truth, a, b, n_resamples=499, rng=seed, alternative=alternative
        )
        found = _check(result, alternative)
        both += 0 < found < len(ALPHAS)
    assert both >= 5


def test_zero_crossings_follow_the_interpolated_quantiles() -> None:
    values = np.array([-0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])  # 0 at position 2
    assert zero_crossings(values) == (pytest.approx(2 / 8), pytest.approx(2 / 8))
    below, above = zero_crossings(np.array([-0.3, -0.1, 0.3, 0.5]))  # 0 at position 1.25
    assert below == above == pytest.approx(1.25 / 3)
    assert np.quantile(np.array([-0.3, -0.1, 0.3, 0.5]), below) == pytest.approx(0.0, abs=1e-15)
    flat = np.array([-1.0, 0.0, 0.0, 0.0, 2.0])  # the quantile is 0 on [1/4, 3/4]
    assert zero_crossings(flat) == (pytest.approx(0.75), pytest.approx(0.25))
    assert zero_crossings(np.full(5, 0.3)) == (0.0, 0.0)
    assert zero_crossings(np.full(5, -0.3)) == (1.0, 1.0)
    assert zero_crossings(np.zeros(5)) == (1.0, 0.0)


def test_pvalue_formula_and_its_resolution() -> None:
    values = np.array([-0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    n = 1e12  # (no expansion)
    assert comparison_pvalue(values, n, "two-sided") == pytest.approx(2 * 2 / 8, rel=1e-6)
    assert comparison_pvalue(values, n, "greater") == pytest.approx(2 / 8, rel=1e-6)
    assert comparison_pvalue(values, n, "less") == pytest.approx(1 - 2 / 8, rel=1e-6)
    # Every difference on one side: the smallest p-value 9 replicates resolve, not 0.
    assert comparison_pvalue(np.full(9, 0.3), n, "two-sided") == pytest.approx(0.2, rel=1e-6)
    assert comparison_pvalue(np.full(9, 0.3), n, "greater") == pytest.approx(0.1, rel=1e-6)
    assert comparison_pvalue(np.full(9, 0.3), n, "less") == pytest.approx(0.9, rel=1e-6)
    assert comparison_pvalue(np.zeros(9), n, "two-sided") == 1.0
    assert np.isnan(comparison_pvalue(np.array([]), n, "two-sided"))
