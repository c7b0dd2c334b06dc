"""Kappa-optimal thresholds, fitted honestly: out-of-fold, exact, on any score scale.

Run: ``.venv/bin/python examples/thresholds_oof.py`` (about a minute on 2 cores).

1. A regressor trained on ordinal grades, scored on a held-out half by quadratic weighted
   kappa, with its outputs turned into grades four ways: plain rounding; thresholds fitted on
   the model's predictions for its own training data (in-sample); thresholds fitted on
   out-of-fold predictions (``OrdinalThresholdRegressor``); and the Kaggle OptimizedRounder
   pattern on the same out-of-fold predictions.
2. What OptimizedRounder does when the scores are not on the label scale (here in [0, 1]).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import scipy.optimize
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import cross_val_predict
from threadpoolctl import threadpool_limits

import wkappa as wk
from wkappa.sklearn import OrdinalThresholdRegressor

K = 5


def optimized_rounder(score: np.ndarray, y: np.ndarray, start: list[float]) -> tuple:
    """The Kaggle OptimizedRounder pattern: Nelder-Mead over cut points, pd.cut, sklearn QWK."""

    def loss(coef: np.ndarray) -> float:
        cut = pd.cut(score, [-np.inf, *np.sort(coef), np.inf], labels=range(K))
        return -cohen_kappa_score(y, cut, weights="quadratic")

    result = scipy.optimize.minimize(partial(loss), start, method="nelder-mead")
    return np.sort(result.x), result


def dataset(skewed: bool, seed: int = 0, n: int = 6000) -> tuple[np.ndarray, np.ndarray]:
    """Grades cut from a noisy non-linear latent score: balanced or skewed classes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 8))
    latent = X[:, 0] + 0.8 * X[:, 1] + 0.5 * np.sin(2 * X[:, 2]) + 0.4 * X[:, 3] * X[:, 4]
    latent += rng.normal(0, 0.7, n)
    shares = [0.45, 0.25, 0.15, 0.1] if skewed else [0.2, 0.2, 0.2, 0.2]
    cuts = np.quantile(latent, np.cumsum(shares))
    return X, np.digitize(latent, cuts)


def _columns(values: list[float]) -> str:
    widths = (9, 10, 13, 9)
    return " ".join(f"{value:>{width}.4f}" for value, width in zip(values, widths, strict=True))


def held_out_comparison(seeds: range = range(3)) -> None:
    print("1. Held-out QWK of one regressor, four ways to turn its outputs into grades")
    print(f"{'classes':<9} {'seed':>4} {'rounding':>9} {'in-sample':>10} {'OOF (wkappa)':>13} "
          f"{'OOF (OR)':>9}")  # fmt: skip
    for skewed in (False, True):
        rows = []
        for seed in seeds:
            X, y = dataset(skewed, seed)
            train, test = slice(0, 3000), slice(3000, None)
            regressor = HistGradientBoostingRegressor(max_iter=200, random_state=seed)
            model = OrdinalThresholdRegressor(regressor, cv=5).fit(X[train], y[train])
            test_score = model.estimator_.predict(X[test])
            in_sample = wk.optimize_thresholds(y[train], model.estimator_.predict(X[train]))
            rounder_cuts, _ = optimized_rounder(
                model.oof_predictions_, y[train], [0.5, 1.5, 2.5, 3.5]
            )
            row = [
                np.clip(np.rint(test_score), 0, K - 1),
                in_sample.predict(test_score),
                model.predict(X[test]),
                wk.apply_thresholds(test_score, rounder_cuts),
            ]
            rows.append([wk.qwk(y[test], pred, labels=range(K)) for pred in row])
            name = "skewed" if skewed else "balanced"
            print(f"{name:<9} {seed:>4} {_columns(rows[-1])}")
        mean = np.mean(rows, axis=0)
        print(f"{'':<9} {'mean':>4} {_columns(mean)}")
        print(f"{'':<9} last seed: in-sample thresholds   {np.round(in_sample.thresholds, 2)}")
        print(f"{'':<9}            out-of-fold thresholds {np.round(model.thresholds_, 2)}")


def off_scale() -> None:
    print("\n2. Scores in [0, 1] (a model trained on y / 4): OptimizedRounder's default start")
    X, y = dataset(skewed=True)
    score = cross_val_predict(
        HistGradientBoostingRegressor(max_iter=200, random_state=0), X, y / (K - 1), cv=5
    )
    cuts, result = optimized_rounder(score, y, [0.5, 1.5, 2.5, 3.5])
    print(f"   scipy says success={result.success}, {result.message!r}, nfev={result.nfev}")
    print(f"   its thresholds {np.round(cuts, 3)}")
    print(f"   QWK {wk.qwk(y, wk.apply_thresholds(score, cuts), labels=range(K)):.4f}")
    start = [0.125, 0.375, 0.625, 0.875]
    cuts, result = optimized_rounder(score, y, start)
    print(f"   started on the right scale {start}: success={result.success}")
    print(f"   its thresholds {np.round(cuts, 3)}")
    print(f"   QWK {wk.qwk(y, wk.apply_thresholds(score, cuts), labels=range(K)):.4f}")
    exact = wk.optimize_thresholds(y, score)
    print(f"   wkappa.optimize_thresholds: thresholds {np.round(exact.thresholds, 3)}")
    print(f"   QWK {exact.statistic:.4f} (global optimum, {exact.n_iter} iterations)")


if __name__ == "__main__":
    with threadpool_limits(1):  # the machine is shared: one OpenMP thread per model
        held_out_comparison()
        off_scale()
