"""Cross-checks against scikit-learn's ``cohen_kappa_score``, and where the two differ (gaps)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import wkappa as wk

SKLEARN_WEIGHTS = {"quadratic": "quadratic", "linear": "linear", "unweighted": None}

GAP_TRUE = [0, 0, 0, 1, 1, 1, 3, 3, 3, 3]
GAP_PRED = [0, 0, 1, 0, 1, 1, 1, 3, 3, 3]


@pytest.mark.parametrize("weights", sorted(SKLEARN_WEIGHTS))
@pytest.mark.parametrize("with_sample_weight", [False, True])
def test_agrees_with_sklearn_given_all_labels(weights: str, with_sample_weight: bool) -> None:
    """With ``labels=range(K)`` scikit-learn uses every category, and the two agree."""
    rng = np.random.default_rng(20261122)
    for _ in range(40):
        k = int(rng.integers(2, 13))
        n = int(rng.integers(5, 400))
        y_true = rng.integers(0, k, n)
        noise = rng.integers(-2, 3, n) * (rng.random(n) < 0.5)
        y_pred = np.clip(y_true + noise, 0, k - 1)
        sample_weight = rng.uniform(0.0, 5.0, n) if with_sample_weight else None
        expected = cohen_kappa_score(
            y_true,
            y_pred,
            labels=list(range(k)),
            weights=SKLEARN_WEIGHTS[weights],
            sample_weight=sample_weight,
        )
        assert np.isfinite(expected)
        value = wk.weighted_kappa(
            y_true,
            y_pred,
            weights=weights,
            min_rating=0,
            max_rating=k - 1,
            sample_weight=sample_weight,
        )
        assert value == pytest.approx(expected, abs=1e-12, rel=0)


@pytest.mark.parametrize("weights", sorted(SKLEARN_WEIGHTS))
def test_labels_of_observed_values_reproduce_sklearn(weights: str) -> None:
    """Without labels scikit-learn keeps only the observed values; wkappa does that with
    ``labels=sorted(set(y_true) | set(y_pred))``."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        grades = np.sort(rng.choice(20, int(rng.integers(2, 8)), replace=False))
        y_true = rng.choice(grades, 100)
        y_pred = rng.choice(grades, 100)
        expected = cohen_kappa_score(y_true, y_pred, weights=SKLEARN_WEIGHTS[weights])
        labels = sorted(set(y_true.tolist()) | set(y_pred.tolist()))
        value = wk.weighted_kappa(y_true, y_pred, weights=weights, labels=labels)
        assert value == pytest.approx(expected, abs=1e-12, rel=0)


def test_gap_example_kaggle_versus_sklearn() -> None:
    """The gap example (README, docs/how-to/sklearn-kaggle.md): ratings {0, 1, 3}. wkappa
    counts the unused grade 2 (K = 4, Kaggle's 25/31); scikit-learn without labels weights by
    position (10/13)."""
    assert wk.qwk(GAP_TRUE, GAP_PRED) == 0.8064516129032258 == 25 / 31
    sklearn_default = cohen_kappa_score(GAP_TRUE, GAP_PRED, weights="quadratic")
    assert sklearn_default == pytest.approx(10 / 13, abs=1e-15)
    assert sklearn_default == pytest.approx(0.7692307692307693, abs=1e-15)
    assert wk.qwk(GAP_TRUE, GAP_PRED) != pytest.approx(sklearn_default, abs=1e-3)
    # labels= bridges the two in both directions.
    assert wk.qwk(GAP_TRUE, GAP_PRED, labels=[0, 1, 3]) == pytest.approx(sklearn_default, abs=1e-15)
    assert wk.qwk(GAP_TRUE, GAP_PRED, labels=[0, 1, 3]) == 10 / 13
    assert cohen_kappa_score(
        GAP_TRUE, GAP_PRED, weights="quadratic", labels=list(range(4))
    ) == pytest.approx(wk.qwk(GAP_TRUE, GAP_PRED), abs=1e-15)


def test_sklearn_sorts_strings_alphabetically_but_labels_fix_the_order() -> None:
    """Ordinal strings: scikit-learn's alphabetical order (high < low < mid) is not the grade
    order; wkappa refuses to guess and takes labels=, which scikit-learn also accepts."""
    y_true = ["low", "low", "mid", "mid", "high", "high", "mid"]
    y_pred = ["low", "mid", "mid", "high", "high", "mid", "low"]
    order = ["low", "mid", "high"]
    with pytest.raises(wk.WkappaError, match="labels"):
        wk.qwk(y_true, y_pred)
    right = wk.qwk(y_true, y_pred, labels=order)
    assert right == pytest.approx(
        cohen_kappa_score(y_true, y_pred, weights="quadratic", labels=order), abs=1e-15
    )
    alphabetical = cohen_kappa_score(y_true, y_pred, weights="quadratic")
    assert alphabetical == pytest.approx(wk.qwk(y_true, y_pred, labels=sorted(order)), abs=1e-15)
    assert abs(right - alphabetical) > 0.1
