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
from lightgbm_eval import eval_sets
from wkappa.exceptions import WkappaError
from wkappa.gbdt import CatBoostMetric, lightgbm_metric, qwk_objective, xgboost_metric

pytestmark = [
    pytest.mark.integration,  # real training calls
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
    return lgb.LGBMRegressor(n_estimators=2, **LGB).fit(
        X, Y, **eval_sets((X, Y)), eval_metric=metric
    )


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


# Every wkappa object in every slot of every library it does not belong in: (library, API,
# metric/objective) x (the three metrics, the objective, called or not). Each was a raw
# library error (LightGBM and XGBoost unpacking a metric's result as gradients, an
# AttributeError for __name__ or is_max_optimal, a TypeError from a class's __init__), or a
# stale one: CatBoost reported the previous training's error for a function it could not use.


def _lightgbm_objective(objective: Any) -> Any:
    return lgb.train({**LGB, "objective": objective}, lgb.Dataset(X, Y), 2)


def _lightgbm_sklearn_objective(objective: Any) -> Any:
    return lgb.LGBMRegressor(n_estimators=2, objective=objective, **LGB).fit(X, Y)


def _xgboost_objective(objective: Any) -> Any:
    return xgb.train({"nthread": 1}, xgb.DMatrix(X, Y), 2, obj=objective)


def _xgboost_sklearn_objective(objective: Any) -> Any:
    return xgb.XGBRegressor(n_estimators=2, nthread=1, objective=objective).fit(X, Y)


def _catboost_metric(metric: Any) -> Any:
    return cb.CatBoostRegressor(eval_metric=metric, **CB).fit(X, Y, eval_set=(X, Y))


def _catboost_objective(objective: Any) -> Any:
    model = cb.CatBoostRegressor(loss_function=objective, eval_metric=CatBoostMetric(), **CB)
    return model.fit(X, Y)


AS_OBJECTIVE = r"^{} is an eval metric, but {} called it as the objective\. Hint: pass {} as"
LGB_METRIC = "lightgbm_metric\\(\\)"
XGB_METRIC = "xgboost_metric\\(\\)"
OBJECTIVE_AS_METRIC = r"^qwk_objective\(\) is an objective, but {} called it as the eval metric"
UNCALLED = r"^`{}` builds .* takes keyword options only; it was called with 2 positional"
IN_CATBOOST = r"{} is {}'s eval metric, but CatBoost was given it\. Hint: pass eval_metric=Cat"
FACTORY_IN_CATBOOST = r"`{}` builds .*, and CatBoost was given it\. Hint: pass eval_metric=Cat"
CLASS_CALLED = r"^CatBoostMetric takes keyword options only; it was called with 2 positional"
LIBRARY_SLOTS = [
    _lightgbm_native,
    _lightgbm_sklearn,
    _lightgbm_objective,
    _lightgbm_sklearn_objective,
    _xgboost_native,
    _xgboost_sklearn,
    _xgboost_objective,
    _xgboost_sklearn_objective,
]


@pytest.mark.parametrize(
    ("train", "thing", "match"),
    [
        (_lightgbm_objective, lightgbm_metric(), AS_OBJECTIVE.format(LGB_METRIC, "LightGBM", "it")),
        (
            _lightgbm_sklearn_objective,
            lightgbm_metric(),
            AS_OBJECTIVE.format(LGB_METRIC, "LightGBM", "it"),
        ),
        (
            _lightgbm_objective,
            xgboost_metric(),
            AS_OBJECTIVE.format(XGB_METRIC, "LightGBM", LGB_METRIC + r" \(with the same options\)"),
        ),
        (_xgboost_objective, xgboost_metric(), AS_OBJECTIVE.format(XGB_METRIC, "XGBoost", "it")),
        (
            _xgboost_sklearn_objective,
            xgboost_metric(),
            AS_OBJECTIVE.format(XGB_METRIC, "XGBoost", "it"),
        ),
        (
            _xgboost_sklearn_objective,
            lightgbm_metric(),
            AS_OBJECTIVE.format(LGB_METRIC, "XGBoost", XGB_METRIC + r" \(with the same options\)"),
        ),
        (
            _xgboost_objective,
            lightgbm_metric(),
            AS_OBJECTIVE.format(LGB_METRIC, "XGBoost", XGB_METRIC + r" \(with the same options\)"),
        ),
        (
            _xgboost_sklearn,
            lightgbm_metric(),
            r"^lightgbm_metric\(\) is LightGBM's eval metric, but XGBoost called it\. Hint: "
            r"pass xgboost_metric\(\)",
        ),
        (_lightgbm_native, qwk_objective(), OBJECTIVE_AS_METRIC.format("LightGBM")),
        (_lightgbm_sklearn, qwk_objective(), OBJECTIVE_AS_METRIC.format("LightGBM")),
        (_xgboost_native, qwk_objective(), OBJECTIVE_AS_METRIC.format("XGBoost")),
        (_xgboost_sklearn, qwk_objective(), OBJECTIVE_AS_METRIC.format("XGBoost")),
        (_lightgbm_objective, CatBoostMetric(), CATBOOST_CALLED),
        (_xgboost_sklearn_objective, CatBoostMetric(), CATBOOST_CALLED),
    ]
    + [
        (train, CatBoostMetric, CLASS_CALLED)
        for train in LIBRARY_SLOTS
        if train not in (_lightgbm_sklearn, _lightgbm_sklearn_objective)
    ]
    + [
        (train, factory, UNCALLED.format(factory.__name__))
        for train in LIBRARY_SLOTS
        if train not in (_lightgbm_sklearn, _lightgbm_sklearn_objective)
        for factory in (lightgbm_metric, xgboost_metric, qwk_objective)
    ],
)
def test_each_object_in_a_wrong_slot_names_the_fix(train: Any, thing: Any, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        train(thing)


@pytest.mark.parametrize(
    ("train", "thing", "match"),
    [
        (_catboost_metric, lightgbm_metric(), IN_CATBOOST.format(LGB_METRIC, "LightGBM")),
        (_catboost_metric, xgboost_metric(), IN_CATBOOST.format(XGB_METRIC, "XGBoost")),
        (_catboost_objective, lightgbm_metric(), IN_CATBOOST.format(LGB_METRIC, "LightGBM")),
        (
            _catboost_metric,
            qwk_objective(),
            r"qwk_objective\(\) is an objective for LightGBM and XGBoost, but CatBoost called",
        ),
        (_catboost_objective, qwk_objective(), r"The smooth QWK objective needs the whole"),
        (
            _catboost_objective,
            CatBoostMetric(),
            r"CatBoostMetric\(\) is an eval metric, but CatBoost called it as the loss function",
        ),
        (_catboost_objective, CatBoostMetric, r"`CatBoostMetric` is the metric's class"),
    ]
    + [
        (train, factory, FACTORY_IN_CATBOOST.format(factory.__name__))
        for train in (_catboost_metric, _catboost_objective)
        for factory in (lightgbm_metric, xgboost_metric, qwk_objective)
    ],
)
def test_each_object_catboost_cannot_use_names_the_fix(train: Any, thing: Any, match: str) -> None:
    # CatBoost wraps the error in its own, with the traceback's text
    with pytest.raises(cb.CatBoostError, match=r"WkappaError: " + match):
        train(thing)


def test_the_classes_build_as_their_factories_do_and_refuse_positional_options() -> None:
    import inspect

    from wkappa.gbdt import LightGBMMetric, XGBoostMetric

    assert LightGBMMetric(max_rating=4)(Y, Y) == lightgbm_metric(max_rating=4)(Y, Y)
    assert XGBoostMetric()(Y, Y) == xgboost_metric()(Y, Y) == 1.0
    for cls in (LightGBMMetric, XGBoostMetric, CatBoostMetric):
        assert list(inspect.signature(cls).parameters)[:3] == [
            "weights",
            "min_rating",
            "max_rating",
        ]
    with pytest.raises(
        WkappaError,
        match=r"^LightGBMMetric takes keyword options only.*"
        r"Hint: pass lightgbm_metric\(\) \(called, with any options, such as "
        r"min_rating=0, max_rating=4\)",
    ):
        LightGBMMetric(0, 4)
    with pytest.raises(
        WkappaError,
        match=r"^`lightgbm_metric` builds LightGBM's eval metric "
        r"and takes keyword options only",
    ):
        lightgbm_metric(0, 4)  # type: ignore[misc]
