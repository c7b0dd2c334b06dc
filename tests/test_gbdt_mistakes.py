"""wkappa.gbdt: a metric given to the wrong library, or its class given uncalled, is refused
with the fix, in real LightGBM, XGBoost and CatBoost training calls.

Each case was the library's raw error (a TypeError about arguments, a missing attribute, a
CatBoost traceback about ``self``), or nothing at all: LightGBM's scikit-learn API ignores an
``eval_metric`` it cannot call, so ``eval_metric=CatBoostMetric()`` trained without a metric.
"""

from __future__ import annotations

from typing import Any

import catboost as cb
import lightgbm as lgb
import numpy as np
import pytest
import xgboost as xgb

import wkappa as wk
from wkappa.exceptions import WkappaError
from wkappa.gbdt import CatBoostMetric, lightgbm_metric, qwk_objective, xgboost_metric

pytestmark = [
    pytest.mark.integration,  # real training calls
    pytest.mark.filterwarnings("ignore:The argument 'eval_set' is deprecated"),  # LightGBM 4.7
]

RNG = np.random.default_rng(0)
X = RNG.normal(size=(120, 3))
Y = np.clip(np.rint(X[:, 0] + 2), 0, 4)
CB = {"iterations": 2, "verbose": False, "allow_writing_files": False, "thread_count": 1}
LGB = {"verbose": -1, "metric": "None", "num_threads": 1}


class QWK(CatBoostMetric):
    """CatBoostMetric under another name."""


@pytest.mark.parametrize("metric_class", [CatBoostMetric, QWK])
def test_catboost_given_the_metric_class_uncalled_names_the_fix(metric_class: type) -> None:
    name = metric_class.__name__
    model = cb.CatBoostRegressor(eval_metric=metric_class, **CB)
    # CatBoost wraps the metric's error in its own, with the traceback's text
    with pytest.raises(cb.CatBoostError, match=rf"`{name}` is the metric's class.*{name}\(\)"):
        model.fit(X, Y, eval_set=(X, Y))
    metric = metric_class(min_rating=0, max_rating=4)  # the methods still work on the class
    assert metric_class.is_max_optimal(metric) is True
    assert metric_class.evaluate(metric, [Y], Y, None) == (1.0, 1.0)
    with pytest.raises(WkappaError, match=rf"^`{name}` is the metric's class"):
        metric_class.evaluate([Y], Y, None)


CATBOOST_CALLED = r"^CatBoostMetric\(\) is CatBoost's eval metric, .*Hint: pass lightgbm_metric"


def _lightgbm_sklearn(metric: Any) -> Any:
    return lgb.LGBMRegressor(n_estimators=2, **LGB).fit(X, Y, eval_set=[(X, Y)], eval_metric=metric)


def _lightgbm_native(metric: Any) -> Any:
    data = lgb.Dataset(X, Y)
    return lgb.train(LGB, data, 2, valid_sets=[lgb.Dataset(X, Y, reference=data)], feval=metric)


def _xgboost_sklearn(metric: Any) -> Any:
    model = xgb.XGBRegressor(n_estimators=2, nthread=1, eval_metric=metric)
    return model.fit(X, Y, eval_set=[(X, Y)], verbose=False)


def _xgboost_native(metric: Any) -> Any:
    data = xgb.DMatrix(X, Y)
    return xgb.train(
        {"nthread": 1}, data, 2, evals=[(data, "v")], custom_metric=metric, verbose_eval=False
    )


@pytest.mark.parametrize(
    ("train", "metric", "match"),
    [
        (_lightgbm_sklearn, CatBoostMetric(), CATBOOST_CALLED),
        (_lightgbm_native, CatBoostMetric(), CATBOOST_CALLED),
        (_xgboost_sklearn, CatBoostMetric(), CATBOOST_CALLED),
        (_xgboost_native, CatBoostMetric(), CATBOOST_CALLED),
        (
            _lightgbm_sklearn,
            xgboost_metric(),
            r"^xgboost_metric\(\) is XGBoost's eval metric, but it was called with 4 .*"
            r"Hint: pass lightgbm_metric\(\)",
        ),
        (
            _lightgbm_native,
            xgboost_metric(),
            r"^xgboost_metric\(\) is XGBoost's eval metric, but LightGBM called it with a "
            r"Dataset\. Hint: pass lightgbm_metric\(\)",
        ),
        (
            _xgboost_native,
            lightgbm_metric(),
            r"^lightgbm_metric\(\) is LightGBM's eval metric, but XGBoost called it with a "
            r"DMatrix\. Hint: pass xgboost_metric\(\)",
        ),
    ],
)
def test_a_metric_given_to_another_library_names_the_right_one(
    train: Any, metric: Any, match: str
) -> None:
    with pytest.raises(WkappaError, match=match):
        train(metric)


def test_the_metrics_still_take_their_own_calls() -> None:
    weight = np.linspace(0.5, 2.0, len(Y))
    metric = xgboost_metric(min_rating=0, max_rating=4)
    value = wk.qwk(Y, Y, sample_weight=weight)
    assert metric(Y, Y, weight) == metric(Y, Y, sample_weight=weight) == value
    assert _xgboost_native(metric).num_boosted_rounds() == 2
    assert _lightgbm_native(lightgbm_metric(min_rating=0, max_rating=4)).num_trees() == 2
    model = _lightgbm_sklearn(lightgbm_metric(min_rating=0, max_rating=4))
    assert len(model.evals_result_["training"]["qwk"]) == 2


def test_the_libraries_refuse_these_themselves_as_documented() -> None:
    # LightGBM's scikit-learn API counts a callable's parameters before calling it, so it
    # refuses lightgbm_metric (uncalled: six keyword options) and qwk_objective (none) with
    # its own TypeError, and XGBoost reads a list as metric names: wkappa never sees them,
    # and the docs quote the libraries' errors with the fix.
    with pytest.raises(TypeError, match=r"should have 2, 3 or 4 arguments, got 6"):
        _lightgbm_sklearn(lightgbm_metric)
    model = lgb.LGBMRegressor(n_estimators=2, objective=qwk_objective, **LGB)
    with pytest.raises(TypeError, match=r"objective function should have .*, got 0"):
        model.fit(X, Y)
    with pytest.raises(xgb.core.XGBoostError, match=r"Unknown metric function XGBoostMetric"):
        _xgboost_sklearn([xgboost_metric()])
