"""Coverage of the small-sample intervals of several raters (slow; fixed seeds).

Two designs of ``benchmarks/small_panel_study.py`` at n = 30 items (4 raters, K = 4, skewed
prevalence, 10% missing, rater accuracy 0.5; the same ratings model): the interval that
``explain()`` recommends there covers 93-97% (the study's full grid is in BENCHMARKS.md).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import wkappa as wk

pytestmark = pytest.mark.slow


def sample(rng: np.random.Generator, n: int) -> np.ndarray:
    prevalence = 0.6 ** np.arange(4)
    prevalence /= prevalence.sum()
    grade = rng.choice(4, size=n, p=prevalence)[:, None]
    wrong = rng.random((n, 4)) >= 0.5
    step = np.clip(grade + rng.choice([-1, 1], size=(n, 4)), 0, 3)
    other = rng.choice(4, size=(n, 4), p=prevalence)
    codes = np.where(wrong, np.where(rng.random((n, 4)) < 0.5, step, other), grade)
    ratings = codes.astype(float)
    ratings[rng.random((n, 4)) < 0.1] = np.nan
    return ratings


@pytest.mark.parametrize(
    ("coefficient", "weights", "method"),
    [("fleiss", "unweighted", "fisher-z-jackknife"), ("gwet", "quadratic", "fisher-z")],
)
def test_recommended_interval_covers_at_30_items(coefficient, weights, method):
    rng = np.random.default_rng(27)
    options = {"coefficient": coefficient, "weights": weights, "min_rating": 0, "max_rating": 3}
    truth = wk.agreement(sample(rng, 400_000), **options).statistic
    covered, replications = 0, 500
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(replications):
            result = wk.agreement(sample(rng, 30), **options)
            assert f"method={method!r} recommended" in repr(result)
            low, high = result.confidence_interval(method=method)
            covered += low <= truth <= high
    assert 0.93 <= covered / replications <= 0.97, covered / replications
