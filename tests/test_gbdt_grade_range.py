"""wkappa.gbdt: the grade range of one-output-per-row metrics when min_rating / max_rating are
not given (the evaluated labels' range), on a cross-validation fold that lacks the top grade.

Clipping the rounded predictions to the fold's labels scores a prediction of the missing grade
as the fold's highest grade, so the fold's kappa came out too high without a word; the metric
now warns once, naming the options that fix it.
"""

from __future__ import annotations

import warnings
from typing import Any

import catboost as cb
import lightgbm as lgb
import numpy as np
import pytest
import xgboost as xgb

import wkappa as wk
from lightgbm_eval import eval_sets
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


# The clipping is right when the grade scale ends where the evaluated labels do: the metric
# stays silent when the other data it scored (the training set) end there too, warns with the
# grade they reach when they reach further, and says it cannot tell when it scored no other
# labels. Before, it warned whenever a rounded prediction passed an end of the labels' range,
# even on a fold with every grade.

UNKNOWN = r"this metric has scored no other labels \(such as the training set's\)"
FURTHER = r"other data this metric scored \(such as the training set\) reach grade 4"
SCALE = np.array([0.0, 1.0, 2.0, 3.0, 4.0] * 4)
OVERSHOOT = SCALE + 0.9  # the top grade's rows round to 5


def _silent(call: Any) -> Any:
    """``call()``, with any warning of wkappa's an error (the libraries' deprecation notices
    are theirs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        return call()


def test_a_fold_with_the_training_range_is_clipped_silently() -> None:
    metric = xgboost_metric()
    _silent(lambda: metric(SCALE, SCALE))  # the training labels, 0..4
    fold = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 2.0])
    value = _silent(lambda: metric(fold, fold + 0.9))
    assert value == wk.qwk(fold, np.clip(np.rint(fold + 0.9), 0, 4))
    assert _silent(lambda: metric(SCALE, OVERSHOOT)) == metric(SCALE, OVERSHOOT)


def test_a_fold_short_of_the_training_range_warns_with_the_grade_it_lacks() -> None:
    metric = lightgbm_metric()
    _silent(lambda: metric(SCALE, SCALE))
    fold = np.array([0.0, 1.0, 2.0, 3.0, 3.0])
    with pytest.warns(UserWarning, match=CLIPPED + ".*" + FURTHER + r".*Hint: pass min_rating"):
        metric(fold, fold + 0.9)
    low = np.array([1.0, 2.0, 4.0])  # the fold lacks grade 0, and the predictions reach it
    with pytest.warns(UserWarning, match=r"below 1\..4.*reach grade 0, so the evaluated"):
        metric(low, low - 0.9)


def test_with_no_other_labels_the_metric_says_it_cannot_tell() -> None:
    metric = CatBoostMetric()
    for _ in range(2):  # the same data scored again is not other data
        with pytest.warns(UserWarning, match=r"above 0\.\.4.*" + UNKNOWN):
            metric.evaluate([OVERSHOOT], SCALE, None)


SKLEARN_LGB = {"metric": "None", "verbose": -1, "n_jobs": 1}


def _overshooting_fold() -> tuple[np.ndarray, np.ndarray]:
    """A fold holding every grade 0..4 of the training labels."""
    rows = np.concatenate([np.flatnonzero(Y == grade)[:6] for grade in range(5)])
    return X[rows], Y[rows]


def test_real_training_on_a_fold_with_every_grade_clips_silently() -> None:
    xf, yf = _overshooting_fold()
    shift = np.full(len(yf), 1.5)  # a start score that sends the top grades past 4
    params = {"objective": "regression", "metric": "None", "verbose": -1, "num_threads": 1}
    params["learning_rate"] = 0.5
    history: dict[str, dict[str, list[float]]] = {}
    booster = _silent(
        lambda: lgb.train(
            params,
            lgb.Dataset(X, Y),
            5,
            valid_sets=[lgb.Dataset(xf, yf, init_score=shift)],
            valid_names=["fold"],
            feval=lightgbm_metric(),
            callbacks=[lgb.record_evaluation(history)],
        )
    )
    scores = booster.predict(xf) + shift
    assert np.rint(scores).max() > 4
    # LightGBM's scikit-learn API hands the metric the labels alone; the metric reads the
    # training set from the Dataset its wrapper evaluates
    model = lgb.LGBMRegressor(n_estimators=5, learning_rate=0.5, **SKLEARN_LGB)
    _silent(
        lambda: model.fit(
            X,
            Y,
            **eval_sets((xf, yf)),
            eval_init_score=[shift],
            eval_metric=lightgbm_metric(),
        )
    )
    assert model.evals_result_["valid_0"]["qwk"][-1] == history["fold"]["qwk"][-1]
    assert history["fold"]["qwk"][-1] == pytest.approx(
        wk.qwk(yf, np.clip(np.rint(scores), 0, 4)), abs=1e-12
    )
    # XGBoost with the training data among evals (scored first), and CatBoost, which scores
    # the learning set first at every iteration
    dtrain, dfold = xgb.DMatrix(X, Y), xgb.DMatrix(xf, yf, base_margin=shift + 2)
    xgboost = _silent(
        lambda: xgb.train(
            {"nthread": 1, "seed": 0},
            dtrain,
            5,
            evals=[(dtrain, "train"), (dfold, "fold")],
            custom_metric=xgboost_metric(),
            verbose_eval=False,
        )
    )
    assert np.rint(xgboost.predict(dfold)).max() > 4
    # XGBoost's scikit-learn API, without the training data among eval_set: the metric reads
    # the training labels of the xgboost.train call that fit makes
    regressor = xgb.XGBRegressor(n_estimators=5, nthread=1, eval_metric=xgboost_metric())
    _silent(
        lambda: regressor.fit(
            X, Y, eval_set=[(xf, yf)], base_margin_eval_set=[shift + 2], verbose=False
        )
    )
    assert np.rint(regressor.predict(xf, base_margin=shift + 2)).max() > 4
    model = cb.CatBoostRegressor(
        iterations=5,
        eval_metric=CatBoostMetric(),
        verbose=False,
        allow_writing_files=False,
        thread_count=1,
    )
    start = float(Y.mean())
    train, fold = (
        cb.Pool(X, Y, baseline=np.full(len(Y), start)),
        cb.Pool(xf, yf, baseline=shift + start),
    )
    _silent(lambda: model.fit(train, eval_set=fold))
    assert np.rint(model.predict(xf) + shift + start).max() > 4


def test_real_training_on_a_fold_without_the_top_grade_names_the_training_grade() -> None:
    model = lgb.LGBMRegressor(n_estimators=60, learning_rate=0.2, **SKLEARN_LGB)
    with pytest.warns(UserWarning, match=CLIPPED + ".*" + FURTHER):
        model.fit(X, Y, **eval_sets((XV, YV)), eval_metric=lightgbm_metric())
    regressor = xgb.XGBRegressor(n_estimators=60, nthread=1, eval_metric=xgboost_metric())
    with pytest.warns(UserWarning, match=CLIPPED + ".*" + FURTHER):
        regressor.fit(X, Y, eval_set=[(XV, YV)], verbose=False)
    catboost = cb.CatBoostRegressor(
        iterations=30,
        learning_rate=0.3,
        eval_metric=CatBoostMetric(),
        verbose=False,
        allow_writing_files=False,
        thread_count=1,
    )
    with pytest.warns(UserWarning, match=CLIPPED + ".*" + FURTHER):
        catboost.fit(X, Y, eval_set=(XV, YV))
