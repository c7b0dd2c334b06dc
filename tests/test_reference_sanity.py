"""The Fraction reference itself is right: hand-computed values and an independent peer.

The property tests trust tests/reference.py as the oracle, so it is checked here against
numbers worked out by hand and against scikit-learn, which shares none of its code.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from reference import (
    reference_kappa,
    reference_kappa_from_table,
    reference_table,
    reference_weights,
)


def test_reference_reproduces_seed_000() -> None:
    actuals = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
    preds = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]
    assert reference_kappa(actuals, preds, 5, "quadratic") == Fraction(7, 22)


def test_reference_on_the_gap_example() -> None:
    """Categories 0..3 give Kaggle's 25/31; scikit-learn's positions {0: 0, 1: 1, 3: 2}, 10/13."""
    y_true = [0, 0, 0, 1, 1, 1, 3, 3, 3, 3]
    y_pred = [0, 0, 1, 0, 1, 1, 1, 3, 3, 3]
    assert reference_kappa(y_true, y_pred, 4, "quadratic") == Fraction(25, 31)
    positions = {0: 0, 1: 1, 3: 2}
    assert reference_kappa(
        [positions[v] for v in y_true], [positions[v] for v in y_pred], 3, "quadratic"
    ) == Fraction(10, 13)


def test_reference_on_hand_computed_tables() -> None:
    # [[10, 2], [3, 5]]: p_o = 15/20, p_e = (12*13 + 8*7)/400 = 212/400, kappa = 88/188.
    assert reference_kappa_from_table([[10, 2], [3, 5]], "unweighted") == Fraction(22, 47)
    # With K = 2 all three named weights are the same matrix.
    assert reference_kappa_from_table([[10, 2], [3, 5]], "linear") == Fraction(22, 47)
    # Perfect agreement is 1; one category only is undefined (None).
    assert reference_kappa_from_table([[3, 0], [0, 4]], "quadratic") == 1
    assert reference_kappa_from_table([[3, 0], [0, 0]], "quadratic") is None
    assert reference_kappa_from_table([[0, 0], [0, 0]], "linear") is None
    # Sample weights are weighted counts; the weights are as design §2 defines them.
    assert reference_table([0, 1, 1], [1, 1, 0], 2, [2, 0.5, 3]) == [
        [0, 2],
        [3, Fraction(1, 2)],
    ]
    assert reference_weights("quadratic", 3)[0] == [0, Fraction(1, 4), 1]
    assert reference_weights("linear", 3)[0] == [0, Fraction(1, 2), 1]
    assert reference_weights("unweighted", 3)[0] == [0, 1, 1]


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_reference_agrees_with_sklearn(weights: str) -> None:
    rng = np.random.default_rng(11)
    for _ in range(25):
        k = int(rng.integers(2, 9))
        a = rng.integers(0, k, 60)
        b = np.where(rng.random(60) < 0.5, a, rng.integers(0, k, 60))
        w = rng.integers(0, 4, 60)
        expected = cohen_kappa_score(
            a,
            b,
            labels=list(range(k)),
            weights=None if weights == "unweighted" else weights,
            sample_weight=w,
        )
        value = reference_kappa(a.tolist(), b.tolist(), k, weights, w.tolist())
        if value is None:
            assert np.isnan(expected)
        else:
            assert float(value) == pytest.approx(expected, abs=1e-12)
