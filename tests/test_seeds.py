"""The numbers printed in the seed notes (../shared/seeds/) come out of wkappa.

Each test names its seed file. Where a seed prints a float that went through float rounding,
wkappa is held to that number within 1e-15 and, more tightly, to the exact rational value of
the Fraction reference, correctly rounded. The seeds' own implementations are reproduced
verbatim (as far as they run without their notebooks) and cross-checked on random data.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

import wkappa as wk
from reference import reference_kappa
from wkappa._core.weights import weight_matrix

SEED_000_ACTUALS = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
SEED_000_PREDS = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]


def test_seed_000_worked_example() -> None:
    """000_1d8d419f6602d0eb.txt, In [23]-[27]: weighted kappa 0.31818181818181823."""
    actuals = np.array(SEED_000_ACTUALS)
    preds = np.array(SEED_000_PREDS)
    value = wk.qwk(actuals, preds)
    assert value == pytest.approx(0.31818181818181823, abs=1e-15)
    assert value == float(Fraction(7, 22))  # exact: 7/22, correctly rounded
    # Step 1, matrix O.
    table = wk.confusion_table(actuals, preds)
    assert table.tolist() == [
        [1, 0, 0, 0, 0],
        [0, 3, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 1, 0, 0, 0],
        [2, 0, 0, 0, 2],
    ]
    # Step 2, the weights matrix as printed (In [25]).
    printed_w = [
        [0.0, 0.0625, 0.25, 0.5625, 1.0],
        [0.0625, 0.0, 0.0625, 0.25, 0.5625],
        [0.25, 0.0625, 0.0, 0.0625, 0.25],
        [0.5625, 0.25, 0.0625, 0.0, 0.0625],
        [1.0, 0.5625, 0.25, 0.0625, 0.0],
    ]
    assert weight_matrix("quadratic", 5).tolist() == printed_w
    # Step 3, the (unnormalised) expected matrix as printed (In [26]).
    assert np.outer(table.sum(axis=1), table.sum(axis=0)).tolist() == [
        [3, 4, 1, 0, 2],
        [9, 12, 3, 0, 6],
        [3, 4, 1, 0, 2],
        [3, 4, 1, 0, 2],
        [12, 16, 4, 0, 8],
    ]
    assert wk.kappa_from_table(table) == value


def _seed_000_random() -> tuple[np.ndarray, np.ndarray]:
    np.random.seed(2020)
    actuals = np.random.randint(0, 4, 10000)
    preds = np.random.randint(0, 4, 10000)
    return actuals, preds


def test_seed_000_random_10000() -> None:
    """000_1d8d419f6602d0eb.txt, In [67]-[68]: np.random.seed(2020), qwk = 0.010146537647530596
    (scikit-learn; the afajohn numpy method prints 0.010146537647530707, cpmp's numba one
    0.010146537647530596). The exact value is 5288/521163 = 0.010146537647530618..."""
    actuals, preds = _seed_000_random()
    value = wk.qwk(actuals, preds)
    assert value == pytest.approx(0.010146537647530596, abs=1e-15)
    exact = reference_kappa(actuals.tolist(), preds.tolist(), 4)
    assert exact == Fraction(5288, 521163)
    assert value == float(exact)
    assert wk.qwk(actuals, preds, sample_weight=np.ones(10000)) == pytest.approx(value, abs=1e-15)


def _seed_000_quad_kappa(act: np.ndarray, pred: np.ndarray, n: int = 4) -> float:
    """000_1d8d419f6602d0eb.txt, In [64]: the "afajohn" numpy method, as printed."""
    o = confusion_matrix(act, pred)
    o = np.divide(o, np.sum(o))
    w = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            w[i][j] = ((i - j) ** 2) / ((n - 1) ** 2)
    act_hist = np.histogram(act, bins=n, range=(0, n - 1))[0]
    prd_hist = np.histogram(pred, bins=n, range=(0, n - 1))[0]
    e = np.outer(act_hist, prd_hist)
    e = np.divide(e, np.sum(e))
    return float(1 - np.divide(np.sum(np.multiply(w, o)), np.sum(np.multiply(w, e))))


def _seed_000_qwk3(a1: np.ndarray, a2: np.ndarray, max_rat: int = 3) -> float:
    """000_1d8d419f6602d0eb.txt, In [63]: the "cpmp" method, without @jit."""
    hist1 = np.bincount(a1, minlength=max_rat + 1).astype(float)
    hist2 = np.bincount(a2, minlength=max_rat + 1).astype(float)
    o = float(np.sum((a1 - a2) ** 2))
    index = np.arange(max_rat + 1)
    e = float(np.sum(np.outer(hist1, hist2) * (index[:, None] - index[None, :]) ** 2))
    return 1 - o / (e / a1.shape[0])


def test_seed_000_three_implementations_agree_with_wkappa() -> None:
    """000_1d8d419f6602d0eb.txt: scikit-learn, afajohn's numpy and cpmp's numba method."""
    actuals, preds = _seed_000_random()
    assert _seed_000_quad_kappa(actuals, preds) == pytest.approx(0.010146537647530707, abs=1e-18)
    assert _seed_000_qwk3(actuals, preds) == pytest.approx(0.010146537647530596, abs=1e-15)
    rng = np.random.default_rng(0)
    for _ in range(20):
        k = int(rng.integers(2, 9))
        a = rng.integers(0, k, 500)
        b = np.where(rng.random(500) < 0.5, a, rng.integers(0, k, 500))
        a[0], b[1] = 0, k - 1  # every category from 0 to k-1 in range, as the seeds assume
        value = wk.qwk(a, b)
        assert value == pytest.approx(_seed_000_qwk3(a, b, k - 1), abs=1e-12)
        assert value == pytest.approx(
            cohen_kappa_score(a, b, weights="quadratic", labels=list(range(k))), abs=1e-12
        )


def _seed_002_qdk(actual: np.ndarray, preds: np.ndarray, n_classes: int) -> float:
    """002_f7348f4c5e01b148.txt: ``qdk``, as printed."""
    conf = confusion_matrix(actual, preds, labels=np.linspace(0, n_classes - 1, n_classes))
    weights = np.zeros((n_classes, n_classes))
    for i in range(n_classes):
        for j in range(n_classes):
            weights[i][j] = ((i - j) ** 2) / ((n_classes - 1) ** 2)
    actual_hist = np.histogram(actual, bins=n_classes, range=(0, n_classes - 1))
    pred_hist = np.histogram(preds, bins=n_classes, range=(0, n_classes - 1))
    expected = np.outer(actual_hist[0], pred_hist[0])
    expected = expected / expected.sum()
    conf = conf / conf.sum()
    return float(1 - (np.sum(np.multiply(weights, conf)) / np.sum(np.multiply(weights, expected))))


def test_seed_002_qdk_agrees_with_wkappa() -> None:
    """002_f7348f4c5e01b148.txt: the qdk function counts classes 0..n_classes-1, like
    wkappa with min_rating=0, max_rating=n_classes-1 (an unused class still counts)."""
    rng = np.random.default_rng(2)
    for _ in range(20):
        k = int(rng.integers(3, 9))
        a = rng.integers(0, k - 1, 300)  # class k-1 never used by the truth
        b = np.clip(a + rng.integers(-1, 2, 300), 0, k - 1)
        expected = _seed_002_qdk(a, b, k)
        assert wk.qwk(a, b, min_rating=0, max_rating=k - 1) == pytest.approx(expected, abs=1e-12)


def _seed_003_quadratic_weighted_kappa(
    rater_a: list[int],
    rater_b: list[int],
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> float:
    """003_d30b4768e9ecef6c.txt: the Kaggle reference code (ml_metrics), as printed."""
    a = np.array(rater_a, dtype=int)
    b = np.array(rater_b, dtype=int)
    if min_rating is None:
        min_rating = min(min(a), min(b))
    if max_rating is None:
        max_rating = max(max(a), max(b))
    num_ratings = int(max_rating - min_rating + 1)
    conf_mat = [[0] * num_ratings for _ in range(num_ratings)]
    for x, y in zip(a, b, strict=True):
        conf_mat[x - min_rating][y - min_rating] += 1
    hist_a = [0] * num_ratings
    hist_b = [0] * num_ratings
    for r in a:
        hist_a[r - min_rating] += 1
    for r in b:
        hist_b[r - min_rating] += 1
    num_scored_items = float(len(a))
    numerator = 0.0
    denominator = 0.0
    for i in range(num_ratings):
        for j in range(num_ratings):
            expected_count = hist_a[i] * hist_b[j] / num_scored_items
            d = pow(i - j, 2.0) / pow(num_ratings - 1, 2.0)
            numerator += d * conf_mat[i][j] / num_scored_items
            denominator += d * expected_count / num_scored_items
    return 1.0 - numerator / denominator


def test_seed_003_twenty_pairs() -> None:
    """003_d30b4768e9ecef6c.txt: the Kaggle reference code run on its 20 pairs (171/196)."""
    rater_a = [0, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3]
    rater_b = [2, 3, 4, 5, 2, 3, 2, 0, 2, 4, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3]
    value = wk.qwk(rater_a, rater_b)
    assert value == pytest.approx(0.8724489795918368, abs=1e-15)
    assert value == float(Fraction(171, 196))
    assert _seed_003_quadratic_weighted_kappa(rater_a, rater_b) == pytest.approx(value, abs=1e-15)


def test_seed_003_kaggle_reference_agrees_with_wkappa_including_gaps() -> None:
    """003_d30b4768e9ecef6c.txt: the Kaggle definition counts every integer between
    min_rating and max_rating, used or not; so does wkappa."""
    rng = np.random.default_rng(3)
    for _ in range(30):
        grades = np.sort(rng.choice(np.arange(-3, 9), int(rng.integers(2, 6)), replace=False))
        a = rng.choice(grades, 60).tolist()
        b = rng.choice(grades, 60).tolist()
        lo, hi = min(a + b) - int(rng.integers(0, 2)), max(a + b) + int(rng.integers(0, 2))
        expected = _seed_003_quadratic_weighted_kappa(a, b, lo, hi)
        assert wk.qwk(a, b, min_rating=lo, max_rating=hi) == pytest.approx(expected, abs=1e-12)
        assert wk.qwk(a, b) == pytest.approx(_seed_003_quadratic_weighted_kappa(a, b), abs=1e-12)


def test_seed_004_worked_example() -> None:
    """004_b80c8b947a407e29.txt: actuals/preds of its step-by-step section (printed without
    output); the steps give 20/39, the same as cohen_kappa_score(preds, actuals)."""
    actuals = np.array([0, 0, 4, 3, 2, 4, 1, 1, 2, 1])
    preds = np.array([0, 2, 3, 0, 0, 4, 1, 1, 3, 1])
    value = wk.qwk(preds, actuals)
    assert value == float(Fraction(20, 39))
    assert value == pytest.approx(cohen_kappa_score(preds, actuals, weights="quadratic"), abs=1e-15)
    assert wk.qwk(actuals, preds) == value  # symmetric weights: the order of raters is moot


def test_seed_004_imbalanced_examples() -> None:
    """004_b80c8b947a407e29.txt: 100,000 zeros and 10 ones; kappa 0, then "0.18"."""
    actuals = np.concatenate([np.zeros(100000), np.ones(10)])
    preds = np.concatenate([np.zeros(100010)])
    # All predictions 0: sum(W*O) = sum(W*E) = 10 * 100010 / 100010, so kappa is exactly 0.
    assert wk.qwk(preds, actuals) == 0.0
    assert cohen_kappa_score(preds, actuals, weights="quadratic") == 0.0
    preds = np.concatenate([np.zeros(100009), np.ones(1)])
    value = wk.qwk(preds, actuals)
    # O = [[100000, 9], [0, 1]]: kappa = 2 (n*1 - 1*10) / (n*11 - 2*10) = 20000/110009.
    exact = Fraction(20000, 110009)
    assert reference_kappa(preds.astype(int).tolist(), actuals.astype(int).tolist(), 2) == exact
    assert value == float(exact) == 0.18180330700215436
    assert value == pytest.approx(cohen_kappa_score(preds, actuals, weights="quadratic"), abs=1e-15)
    assert round(value, 2) == 0.18  # as the notes print it
