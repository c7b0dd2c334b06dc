"""Coverage of the several-raters intervals in simulation (slow; fixed seeds).

Items have a latent grade (skewed prevalence over 4 categories); each of 4 raters reports it
correctly with probability 0.7, else a grade one step away, and 10% of the ratings are
missing. The true value is the coefficient of 2,000,000 items from the same model (the
limit the estimator converges to); 1,000 samples of 150 items each give the coverage of the
95% asymptotic interval (estimate ± t(n-1) SE, Gwet's linearised SE, as irrCAC).
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk

pytestmark = pytest.mark.slow


def sample(rng: np.random.Generator, n: int) -> np.ndarray:
    grade = rng.choice(4, size=n, p=[0.1, 0.2, 0.3, 0.4])
    step = rng.choice([-1, 1], size=(n, 4))
    wrong = rng.random((n, 4)) >= 0.7
    ratings = np.clip(grade[:, None] + wrong * step, 0, 3).astype(float)
    ratings[rng.random((n, 4)) < 0.1] = np.nan
    return ratings


@pytest.mark.parametrize(
    ("coefficient", "weights"), [("fleiss", "unweighted"), ("gwet", "quadratic")]
)
def test_asymptotic_interval_covers_95_percent(coefficient, weights):
    rng = np.random.default_rng(2024)
    truth = wk.agreement(
        sample(rng, 2_000_000), coefficient=coefficient, weights=weights, min_rating=0,
        max_rating=3,
    ).statistic  # fmt: skip
    covered = 0
    replications = 1000
    for _ in range(replications):
        result = wk.agreement(
            sample(rng, 150), coefficient=coefficient, weights=weights, min_rating=0,
            max_rating=3,
        )  # fmt: skip
        low, high = result.confidence_interval(0.95)
        covered += low <= truth <= high
    assert 0.93 <= covered / replications <= 0.97, covered / replications
