"""Squared error vs the smooth QWK objective for LightGBM and XGBoost regression.

Run: ``.venv/bin/python examples/gbdt_qwk_objective.py [n_seeds]``. Synthetic 6-grade ordinal
data; the same booster settings and number of rounds for both objectives; held-out QWK of the
scores rounded to grades, and of the scores cut with thresholds optimised on a validation set.
The test suite runs one seed of this (tests/test_gbdt_objective.py); the README quotes the table.
"""

from __future__ import annotations

import statistics
import sys
from typing import Any

import lightgbm as lgb
import numpy as np
import xgboost as xgb

import wkappa as wk
from wkappa.gbdt import qwk_objective

LO, HI = 0, 5
ROUNDS = 300


def ordinal_data(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Eight features, grades 0..5 cut from a noisy, partly non-linear latent score."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 8))
    latent = x[:, 0] + 0.6 * x[:, 1] - 0.4 * x[:, 2] * x[:, 3] + 0.3 * np.sin(2 * x[:, 4])
    latent += 0.9 * rng.normal(size=n)
    return x, np.digitize(latent, [-1.6, -0.6, 0.2, 0.9, 1.7]).astype(np.float64)


def fit_predict(library: str, objective: str, seed: int) -> tuple[np.ndarray, ...]:
    """Scores for the validation and test sets after training on the training set."""
    x, y = ordinal_data(seed, 3000)
    x_valid, _ = ordinal_data(seed + 50, 2000)
    x_test, _ = ordinal_data(seed + 99, 3000)
    smooth = objective == "qwk"
    start = float(y.mean())
    if library == "lightgbm":
        params: dict[str, Any] = {
            "objective": qwk_objective() if smooth else "regression",
            "learning_rate": 0.05,
            "num_leaves": 15,
            "num_threads": 1,
            "verbose": -1,
            "seed": seed,
        }
        init = np.full(len(y), start) if smooth else None
        booster = lgb.train(params, lgb.Dataset(x, y, init_score=init), ROUNDS)
        offset = start if smooth else 0.0
        return booster.predict(x_valid) + offset, booster.predict(x_test) + offset
    model = xgb.XGBRegressor(
        objective=qwk_objective() if smooth else "reg:squarederror",
        base_score=start,
        n_estimators=ROUNDS,
        learning_rate=0.05,
        max_depth=4,
        n_jobs=1,
        random_state=seed,
    )
    model.fit(x, y)
    return model.predict(x_valid), model.predict(x_test)


def held_out_qwk(library: str, objective: str, seed: int) -> tuple[float, float]:
    """(rounded, thresholded) test QWK."""
    _, y_valid = ordinal_data(seed + 50, 2000)
    _, y_test = ordinal_data(seed + 99, 3000)
    valid, test = fit_predict(library, objective, seed)
    rounded = wk.qwk(y_test, np.clip(np.rint(test), LO, HI), min_rating=LO, max_rating=HI)
    cut = wk.optimize_thresholds(y_valid, valid, min_rating=LO, max_rating=HI)
    thresholded = wk.qwk(y_test, cut.predict(test), min_rating=LO, max_rating=HI)
    return rounded, thresholded


def main(n_seeds: int = 5) -> None:
    print(f"held-out QWK, {n_seeds} seeds, {ROUNDS} rounds, learning rate 0.05")
    print(f"{'library':<10}{'objective':<15}{'rounded':>9}{'thresholds':>12}")
    for library in ("lightgbm", "xgboost"):
        for objective in ("squared error", "qwk"):
            runs = [held_out_qwk(library, objective, seed) for seed in range(n_seeds)]
            rounded = statistics.mean(r for r, _ in runs)
            thresholded = statistics.mean(t for _, t in runs)
            print(f"{library:<10}{objective:<15}{rounded:9.3f}{thresholded:12.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
