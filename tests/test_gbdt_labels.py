"""wkappa.gbdt: labels the metric cannot score are refused in the caller's words, and a kappa
CatBoost cannot record is refused with the fix, in real LightGBM, XGBoost and CatBoost calls.

Each case was a message about the ``y_true`` of ``weighted_kappa`` (a parameter no GBDT user
passes, with no word of the metric's ``min_rating`` / ``max_rating``), or, in CatBoost,
"JSON writer: invalid float value: nan" from inside the library.
"""

from __future__ import annotations

import re
from typing import Any

import catboost as cb
import lightgbm as lgb
import numpy as np
import pandas as pd
import pytest
import xgboost as xgb

import wkappa as wk
from lightgbm_eval import HAS_EVAL_X, eval_sets
from wkappa.exceptions import WkappaError
from wkappa.gbdt import CatBoostMetric, lightgbm_metric, xgboost_metric

pytestmark = [
    pytest.mark.integration,  # real training calls
]

RNG = np.random.default_rng(5)
X = RNG.normal(size=(90, 3))
Y = np.clip(np.rint(1.5 * X[:, 0] + 3.5), 1, 6)  # essay scores 1..6
assert set(Y) == {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
CB = {"iterations": 2, "verbose": False, "allow_writing_files": False, "thread_count": 1}
LGB = {"verbose": -1, "metric": "None", "num_threads": 1}


def _lightgbm_native(metric: Any, y: np.ndarray = Y) -> Any:
    train = lgb.Dataset(X, y)
    valid = lgb.Dataset(X, y, reference=train)
    return lgb.train({"objective": "regression", **LGB}, train, 2, [valid], feval=metric)


def _lightgbm_sklearn(metric: Any, y: np.ndarray = Y) -> Any:
    model = lgb.LGBMRegressor(n_estimators=2, **LGB)
    return model.fit(X, y, **eval_sets((X, y)), eval_metric=metric)


def _xgboost_native(metric: Any, y: np.ndarray = Y) -> Any:
    data = xgb.DMatrix(X, y)
    return xgb.train({"nthread": 1}, data, 2, evals=[(data, "v")], custom_metric=metric)


def _xgboost_sklearn(metric: Any, y: np.ndarray = Y) -> Any:
    model = xgb.XGBRegressor(n_estimators=2, n_jobs=1, eval_metric=metric)
    return model.fit(X, y, eval_set=[(X, y)], verbose=False)


def _catboost(metric: Any, y: np.ndarray = Y) -> Any:
    return cb.CatBoostRegressor(eval_metric=metric, **CB).fit(X, y, eval_set=(X, y))


TRAININGS = [
    (_lightgbm_native, lightgbm_metric, WkappaError),
    (_lightgbm_sklearn, lightgbm_metric, WkappaError),
    (_xgboost_native, xgboost_metric, WkappaError),
    (_xgboost_sklearn, xgboost_metric, WkappaError),
    (_catboost, CatBoostMetric, cb.CatBoostError),  # CatBoost wraps the metric's error
]


@pytest.mark.parametrize(("train", "build", "error"), TRAININGS)
@pytest.mark.parametrize(
    ("options", "scale"),
    [
        ({"min_rating": 0, "max_rating": 4}, r"0\.\.4 \(min_rating = 0 and max_rating = 4"),
        ({"max_rating": 5}, r"1\.\.5 \(max_rating = 5"),
        ({"min_rating": 2}, r"2\.\.6 \(min_rating = 2"),
    ],
)
def test_labels_outside_the_given_scale_name_the_options(
    train: Any, build: Any, error: type, options: dict[str, int], scale: str
) -> None:
    """Grades 1..6 with a 0-based scale 0..4 (or one end wrong) given to the metric: the error
    names the metric's options and the scale the labels need, not weighted_kappa's y_true."""
    name = build.__name__ + "()" if build is not CatBoostMetric else "CatBoostMetric()"
    end = "6" if "max_rating" in options else "1"
    match = (
        rf"The labels reach {end}, outside the grade scale {scale} given to "
        rf"{re.escape(name)}\)\. Hint: min_rating and max_rating are the lowest and highest "
        r"grade of the whole scale; these labels need min_rating <= 1 and max_rating >= 6\."
    )
    with pytest.raises(error, match=match):
        train(build(**options))
    train(build(min_rating=1, max_rating=6))  # the whole scale trains


@pytest.mark.parametrize(
    ("train", "build", "error", "name"),
    [
        (*TRAININGS[0], r"the eval dataset's labels \(get_label\(\)\)"),
        (*TRAININGS[1], "`y_true`"),
        (*TRAININGS[2], r"the eval dataset's labels \(get_label\(\)\)"),
        (*TRAININGS[4], "`target`"),
    ],
)
def test_a_rescaled_target_is_named_as_a_label(
    train: Any, build: Any, error: type, name: str
) -> None:
    """A model trained on y / 6 hands the metric fractional labels: the error says that the
    labels, in the library's words, are not grades (it said "`y_true` contains the non-integer
    rating", with a hint about predictions)."""
    with pytest.raises(error, match=rf"Row 0 of {name} is [0-9.]+, a non-integer label; .*y / 4"):
        train(build(), Y / 6)


def test_a_fractional_class_index_is_a_non_integer_label() -> None:
    with pytest.raises(WkappaError, match=r"^Row 1 of `y_true` is 1\.5, a non-integer label"):
        lightgbm_metric()(np.array([0, 1.5]), np.eye(2), None)


def test_catboost_refuses_an_undefined_kappa_with_the_fix() -> None:
    """A one-grade eval_set (a fold with a single class) whose predictions round to that grade:
    kappa is undefined, and CatBoost failed on the NaN with "JSON writer: invalid float value"."""
    one_grade = np.full(len(Y), 3.0)
    model = cb.CatBoostRegressor(eval_metric=CatBoostMetric(), **CB)
    with (
        pytest.warns(wk.UndefinedKappaWarning),
        pytest.warns(UserWarning, match="clipped"),
        pytest.raises(cb.CatBoostError, match=r"Kappa is undefined .* zero_division=0\.0 to Cat"),
    ):
        model.fit(X, Y, eval_set=(X, one_grade))
    model = cb.CatBoostRegressor(eval_metric=CatBoostMetric(zero_division=0.0), **CB)
    with pytest.warns(UserWarning, match="clipped"):
        model.fit(X, Y, eval_set=(X, one_grade))
    assert model.get_evals_result()["validation"]["CatBoostMetric"] == [0.0, 0.0]

    class QWK(CatBoostMetric):
        """CatBoostMetric under another name."""

    with (
        pytest.warns(wk.UndefinedKappaWarning),
        pytest.raises(WkappaError, match=r"^Kappa is undefined .*zero_division=0\.0 to QWK\(\)"),
    ):
        QWK().evaluate([np.array([3.0, 3.0])], np.array([3.0, 3.0]), None)


GRADES = ["none", "mild", "moderate", "severe"]  # retinopathy grades, in their order
TEXT = np.array(GRADES)[np.clip(np.rint(X[:, 0] + 1.5), 0, 3).astype(int)]
TEXT_ERROR = (
    r"{model} was fitted on the text classes \['mild', 'moderate', 'none', 'severe'\], which "
    r"it sorts as text .* take 'mild' and 'severe' to be 3 grades apart\. Hint: map the "
    r"classes to integer grades in their order before fitting"
)


# LightGBM 4.7's LGBMClassifier label-encodes the deprecated eval_set but hands eval_y to the
# metric as given (lightgbm-org/LightGBM#7400): text classes reach the metric only by eval_set.
@pytest.mark.filterwarnings("ignore:The argument 'eval_set' is deprecated")
def test_text_classes_sorted_by_lightgbm_are_refused_for_weighted_kappa() -> None:
    """LGBMClassifier sorts text classes ('mild' < 'moderate' < 'none' < 'severe', an ordered
    pandas Categorical too) and hands the metric those positions: QWK of that order is
    another number than the grades', and it was returned without a word."""
    model = lgb.LGBMClassifier(n_estimators=3, min_child_samples=5, **LGB)
    ordered = pd.Series(pd.Categorical(TEXT, categories=GRADES, ordered=True))
    for y in (TEXT, ordered):
        with pytest.raises(WkappaError, match="^" + TEXT_ERROR.format(model="LGBMClassifier")):
            model.fit(X, y, eval_set=[(X, y)], eval_metric=lightgbm_metric())
    # Integer grades in their order train; the history is the QWK of the predicted classes.
    grades = np.array([GRADES.index(grade) for grade in TEXT])
    model.fit(X, grades, **eval_sets((X, grades)), eval_metric=lightgbm_metric())
    predicted = model.predict(X)
    right = wk.qwk(grades, predicted, labels=range(4))
    (history,) = model.evals_result_.values()  # "training" by eval_set, "valid_0" by eval_X
    assert history["qwk"][-1] == right
    position = {grade: i for i, grade in enumerate(sorted(GRADES))}  # LightGBM's order
    as_text = [[position[GRADES[g]] for g in column] for column in (grades, predicted)]
    assert abs(wk.qwk(*as_text, labels=range(4)) - right) > 0.01  # what it would have said
    # Unweighted kappa does not depend on the order.
    model.fit(X, TEXT, eval_set=[(X, TEXT)], eval_metric=lightgbm_metric(weights="unweighted"))
    assert model.evals_result_["training"]["kappa"][-1] == wk.weighted_kappa(
        TEXT, model.predict(X), weights="unweighted"
    )


def test_text_classes_sorted_by_catboost_are_refused_unless_class_names_order_them() -> None:
    params = {**CB, "eval_metric": CatBoostMetric()}
    with pytest.raises(cb.CatBoostError, match=TEXT_ERROR.format(model="CatBoostClassifier")):
        cb.CatBoostClassifier(**params).fit(X, TEXT, eval_set=(X, TEXT))
    with pytest.raises(cb.CatBoostError, match=r"or give CatBoost their order, class_names="):
        cb.CatBoostClassifier(**params).fit(cb.Pool(X, TEXT), eval_set=(X, TEXT))
    model = cb.CatBoostClassifier(**params, class_names=GRADES).fit(X, TEXT, eval_set=(X, TEXT))
    assert model.classes_.tolist() == GRADES
    expected = wk.qwk(TEXT, model.predict(X).ravel(), labels=GRADES)
    assert model.get_evals_result()["validation"]["CatBoostMetric"][-1] == pytest.approx(expected)
    integer = cb.CatBoostClassifier(**params).fit(X, np.array([1, 2, 3, 4])[np.arange(90) % 4])
    assert integer.classes_.tolist() == [1, 2, 3, 4]  # numbers keep their order: no error


@pytest.mark.parametrize(
    ("model", "loss"),
    [
        (lambda **kw: cb.CatBoostClassifier(**CB, **kw), "Logloss"),  # the default
        (lambda **kw: cb.CatBoostClassifier(**CB, loss_function="Logloss", **kw), "Logloss"),
        (lambda **kw: cb.CatBoost({**CB, "loss_function": "CrossEntropy", **kw}), "CrossEntropy"),
    ],
)
def test_catboost_logits_are_refused_unless_cut_at_zero(model: Any, loss: str) -> None:
    """A binary CatBoostClassifier hands the metric logits: rounded, a logit of 0.3 was class 0
    (its probability is above 0.5), and the history held the kappa of those wrong classes
    beside a clipping warning that misled."""
    binary = (X[:, 0] + RNG.normal(0, 0.5, len(X)) > 0.3).astype(int)
    with pytest.raises(
        cb.CatBoostError,
        match=rf"logits with loss_function='{loss}' .*"
        r"Hint: pass thresholds=\[0\.0\] to CatBoostMetric\(\)",
    ):
        model(eval_metric=CatBoostMetric()).fit(X, binary, eval_set=(X, binary))
    fitted = model(eval_metric=CatBoostMetric(thresholds=[0.0]), use_best_model=False)
    fitted.fit(X, binary, eval_set=(X, binary))
    logits = fitted.predict(X, prediction_type="RawFormulaVal")
    expected = wk.qwk(binary, (logits > 0).astype(int), labels=[0, 1])
    assert fitted.get_evals_result()["validation"]["CatBoostMetric"][-1] == pytest.approx(expected)


def test_catboost_regression_outputs_are_still_rounded() -> None:
    model = cb.CatBoostRegressor(eval_metric=CatBoostMetric(min_rating=1, max_rating=6), **CB)
    model.set_params(use_best_model=False).fit(X, Y, eval_set=(X, Y))
    expected = wk.qwk(Y, np.clip(np.rint(model.predict(X)), 1, 6), min_rating=1, max_rating=6)
    assert model.get_evals_result()["validation"]["CatBoostMetric"][-1] == pytest.approx(expected)


def test_xgboost_logitraw_margins_are_refused_unless_cut_at_zero() -> None:
    """objective='binary:logitraw' hands the metric margins: rounded, a margin of 0.3 was
    class 0 (its probability is above 0.5), and the history held the kappa of wrong classes."""
    binary = (X[:, 0] + RNG.normal(0, 0.5, len(X)) > 0.3).astype(int)
    data = xgb.DMatrix(X, binary)
    params = {"objective": "binary:logitraw", "nthread": 1}
    hint = r"margins \(logits\) with objective='binary:logitraw'.*thresholds=\[0\.0\] to xgb"
    with pytest.raises(WkappaError, match=hint):
        xgb.train(params, data, 3, evals=[(data, "v")], custom_metric=xgboost_metric())
    model = xgb.XGBClassifier(n_estimators=3, objective="binary:logitraw", n_jobs=1)
    with pytest.raises(WkappaError, match=hint):
        model.set_params(eval_metric=xgboost_metric()).fit(X, binary, eval_set=[(X, binary)])
    history: dict[str, Any] = {}
    metric = xgboost_metric(thresholds=[0.0])
    booster = xgb.train(
        params, data, 3, evals=[(data, "v")], custom_metric=metric, evals_result=history
    )
    margins = booster.predict(data, output_margin=True)
    expected = wk.qwk(binary, (margins > 0).astype(int), labels=[0, 1])
    assert history["v"]["qwk"][-1] == pytest.approx(expected, abs=1e-6)
    probabilities = xgb.train({**params, "objective": "binary:logistic"}, data, 3)  # rounded
    assert xgboost_metric()(binary, probabilities.predict(data)) == wk.qwk(
        binary, np.rint(probabilities.predict(data)).astype(int), labels=[0, 1]
    )


UNENCODED = r"^LGBMClassifier was fitted on the classes \[1\.0, 2\.0, .*LightGBM#7400.* y - 1"


@pytest.mark.skipif(not HAS_EVAL_X, reason="LightGBM < 4.7 has no eval_X / eval_y")
def test_lightgbm_classifier_eval_y_left_unencoded_is_refused() -> None:
    """LGBMClassifier encodes grades 1..6 as class indices 0..5 for training and eval_set,
    but hands eval_y to the metric as given (lightgbm-org/LightGBM#7400): on a fold without
    grade 6 the history held the QWK of class indices against grades, far below the model's
    own, without a word, and early stopping followed it."""
    fold = Y < 6
    model = lgb.LGBMClassifier(n_estimators=3, min_child_samples=5, **LGB)
    for eval_y in (Y[fold], (Y[fold],)):
        eval_x = X[fold] if not isinstance(eval_y, tuple) else (X[fold],)
        with pytest.raises(WkappaError, match=UNENCODED):
            model.fit(X, Y, eval_X=eval_x, eval_y=eval_y, eval_metric=lightgbm_metric())
    # The fix the message gives: encode the grades (here y - 1) for y and eval_y.
    model.fit(X, Y - 1, eval_X=(X[fold],), eval_y=(Y[fold] - 1,), eval_metric=lightgbm_metric())
    expected = wk.qwk(Y[fold] - 1, model.predict(X[fold]), labels=range(6))
    assert model.evals_result_["valid_0"]["qwk"][-1] == expected
    # Classes already 0..K-1, or the deprecated eval_set (which LightGBM encodes), pass.
    with pytest.warns(FutureWarning, match="'eval_set' is deprecated"):
        model.fit(X, Y, eval_set=[(X[fold], Y[fold])], eval_metric=lightgbm_metric())
    assert model.evals_result_["valid_0"]["qwk"][-1] == wk.qwk(
        Y[fold], model.predict(X[fold]), labels=range(1, 7)
    )
