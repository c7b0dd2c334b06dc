"""wkappa.gbdt: the grade range of one-output-per-row metrics when min_rating / max_rating are
not given (the evaluated labels' range), on a cross-validation fold that lacks the top grade.

Clipping the rounded predictions to the fold's labels scores a prediction of the missing grade
as the fold's highest grade, so the fold's kappa came out too high without a word; the metric
now warns once, naming the options that fix it.
"""

from __future__ import annotations

import warnings

import lightgbm as lgb
import numpy as np
import pytest
import xgboost as xgb

import wkappa as wk
from wkappa.gbdt import CatBoostMetric, lightgbm_metric, xgboost_metric

pytestmark = pytest.mark.integration  # real training runs

CLIPPED = r"^Predictions round to grades above 0\.\.3, the evaluated labels' range"


def _fold() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Training rows with grades 0..4 and a validation fold whose grades are 0..3 only."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(600, 4))
    y = np.clip(np.rint(x[:, 0] + 0.5 * x[:, 1] + 2 + rng.normal(0, 0.4, 600)), 0, 4)
    fold = np.flatnonzero(y < 4)[:150]  # the fold drew none of the rare top grade
    train = np.setdiff1d(np.arange(600), fold)
    return x[train], y[train], x[fold], y[fold]


X, Y, XV, YV = _fold()


def test_a_fold_without_the_top_grade_warns_once_and_the_scale_fixes_it() -> None:
    assert set(YV) == {0.0, 1.0, 2.0, 3.0} and 4.0 in set(Y)
    params = {"objective": "regression", "metric": "None", "verbose": -1, "num_threads": 1}
    params["learning_rate"] = 0.2
    histories: dict[str, dict[str, dict[str, list[float]]]] = {}
    records = []
    for key, metric in (
        ("default", lightgbm_metric()),
        ("scale", lightgbm_metric(max_rating=4, min_rating=0)),
    ):
        histories[key] = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")  # Python's own: once per text and place
            booster = lgb.train(
                params,
                lgb.Dataset(X, Y),
                60,
                valid_sets=[lgb.Dataset(XV, YV)],
                valid_names=["fold"],
                feval=metric,
                callbacks=[lgb.record_evaluation(histories[key])],
            )
        records.append([str(w.message) for w in caught if w.category is UserWarning])
    default, scale = (histories[key]["fold"]["qwk"] for key in ("default", "scale"))
    # The default scores the fold with predictions of 4 clipped to 3, as a warning says once
    # (60 rounds); with the scale given they count as the grade 4 they are, silently.
    assert len(records[0]) == 1 and not records[1]
    assert records[0][0].startswith(CLIPPED[1:].replace("\\", ""))
    assert "Hint: pass min_rating= and max_rating= to lightgbm_metric()" in records[0][0]
    last = booster.predict(XV)
    assert scale[-1] == pytest.approx(wk.qwk(YV, np.clip(np.rint(last), 0, 4)), abs=1e-12)
    inflated = wk.qwk(YV, np.clip(np.rint(last), 0, 3))
    assert default[-1] == pytest.approx(inflated, abs=1e-12)
    assert (np.rint(last) == 4).sum() >= 5 and default[-1] > scale[-1] + 0.005


def test_only_the_side_taken_from_the_labels_is_checked() -> None:
    labels, preds = np.array([0.0, 1.0, 2.0, 3.0]), np.array([0.1, 1.0, 2.0, 4.2])
    with pytest.warns(UserWarning, match=CLIPPED + r".*Hint: pass max_rating= to xgboost"):
        low_given = xgboost_metric(min_rating=0)(labels, preds)
    assert low_given == wk.qwk(labels, [0, 1, 2, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        top_given = xgboost_metric(max_rating=4)(labels, preds)  # 0.1 rounds into 0..4
        assert top_given == wk.qwk(labels, [0, 1, 2, 4])
        # thresholds and class scores make grades that are never clipped
        assert lightgbm_metric(thresholds=[0.5, 1.5, 2.5])(labels, preds)[1] == low_given
        assert CatBoostMetric().evaluate([[0.0, 1.0], [1.0, 0.0]], [1, 0], None)[0] == 1.0
    with pytest.warns(UserWarning, match=r"below 1\.\.3.*to QWK\(\), the lowest"):
        QWK().evaluate([np.array([0.2, 2.0, 3.0])], np.array([1.0, 2.0, 3.0]), None)


class QWK(CatBoostMetric):
    """CatBoostMetric renamed: the hint names the class the user built."""


def test_xgboost_softmax_classes_missing_from_a_fold_warn() -> None:
    # multi:softmax hands the metric one class index per row: a class the fold lacks was
    # clipped into the fold's range, as the docs warned, and now the metric says so too.
    params = {"objective": "multi:softmax", "num_class": 5, "nthread": 1, "seed": 0}
    metric = xgboost_metric()
    with pytest.warns(UserWarning, match=CLIPPED):
        xgb.train(
            params,
            xgb.DMatrix(X, Y),
            10,
            evals=[(xgb.DMatrix(XV, YV), "fold")],
            custom_metric=metric,
            verbose_eval=False,
        )
