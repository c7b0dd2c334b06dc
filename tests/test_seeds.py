"""The numbers printed in the seed notes (../shared/seeds/) come out of wkappa."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk


def test_seed_000_worked_example() -> None:
    """000_1d8d419f6602d0eb.txt, In [23]-[27]: weighted kappa 0.31818181818181823."""
    actuals = np.array([4, 4, 3, 4, 4, 0, 1, 1, 2, 1])
    preds = np.array([0, 4, 1, 0, 4, 0, 1, 1, 2, 1])
    assert wk.qwk(actuals, preds) == pytest.approx(0.31818181818181823, abs=1e-15)
    assert wk.confusion_table(actuals, preds).tolist() == [
        [1, 0, 0, 0, 0],
        [0, 3, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 1, 0, 0, 0],
        [2, 0, 0, 0, 2],
    ]


def test_seed_000_random_10000() -> None:
    """000_1d8d419f6602d0eb.txt, In [67]-[68]: np.random.seed(2020), qwk = 0.010146537647530596."""
    np.random.seed(2020)
    actuals = np.random.randint(0, 4, 10000)
    preds = np.random.randint(0, 4, 10000)
    assert wk.qwk(actuals, preds) == pytest.approx(0.010146537647530596, abs=1e-15)


def test_seed_003_twenty_pairs() -> None:
    """003_d30b4768e9ecef6c.txt: the Kaggle reference code run on its 20 pairs."""
    rater_a = [0, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3]
    rater_b = [2, 3, 4, 5, 2, 3, 2, 0, 2, 4, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3]
    assert wk.qwk(rater_a, rater_b) == pytest.approx(0.8724489795918368, abs=1e-15)


def test_seed_004_imbalanced_examples() -> None:
    """004_b80c8b947a407e29.txt: 100,000 zeros and 10 ones; kappa 0, then about 0.18."""
    actuals = np.concatenate([np.zeros(100000), np.ones(10)])
    assert wk.qwk(np.zeros(100010), actuals) == 0.0
    preds = np.concatenate([np.zeros(100009), np.ones(1)])
    value = wk.qwk(preds, actuals)
    assert value == pytest.approx(0.18180, abs=5e-5)
