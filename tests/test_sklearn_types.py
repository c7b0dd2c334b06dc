"""wkappa.sklearn: the type of OrdinalThresholdRegressor's classes_ and predictions, and what
the kappa scorers show as their repr."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, cross_val_score

import wkappa as wk
from wkappa.sklearn import OrdinalThresholdRegressor, make_kappa_scorer, qwk_scorer

X = np.arange(90.0).reshape(-1, 1)
GRADES = np.repeat([1, 2, 3], 30)


@pytest.mark.parametrize(
    "y",
    [
        GRADES.astype(np.float64),
        GRADES.astype(np.float32),
        GRADES.astype(np.int32),
        GRADES.astype(np.uint8),
        GRADES > 1,
        pd.Series(GRADES.astype(np.float64)),
    ],
    ids=["float64", "float32", "int32", "uint8", "bool", "float Series"],
)
def test_classes_and_predictions_keep_the_type_of_y(y: Any) -> None:
    # Float grades [1.0, 2.0, 3.0] gave integer classes_ and predictions: scikit-learn's
    # classifiers keep y's type (LogisticRegression here), and code comparing predictions
    # with y, or writing them to a submission file, saw int64 where it gave floats.
    model = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, y)
    expected = LogisticRegression().fit(X, y).classes_
    assert model.classes_.dtype == expected.dtype
    np.testing.assert_array_equal(model.classes_, expected)
    predicted = model.predict(X)
    assert predicted.dtype == expected.dtype
    assert model.threshold_result_.labels == tuple(expected.tolist())
    assert model.score(X, y) == wk.qwk(np.asarray(y), predicted)


def test_a_list_of_float_grades_gives_float_classes() -> None:
    model = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, GRADES.astype(float).tolist())
    assert model.classes_.dtype == np.float64 and model.predict(X).dtype == np.float64


def test_float_grades_score_a_grade_the_training_rows_lacked() -> None:
    # score() counts a grade missing from the training rows on the range of classes_ and y,
    # as for integer grades; float classes_ went to the labels= path and refused it.
    model = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, GRADES.astype(float))
    y = np.where(np.arange(90) == 89, 4.0, GRADES.astype(float))
    predicted = model.predict(X)
    assert model.score(X, y) == wk.qwk(y, predicted, min_rating=1, max_rating=4)


def test_text_and_categorical_grades_are_unchanged() -> None:
    text = np.array(["lo", "mid", "hi"])[GRADES - 1]
    model = OrdinalThresholdRegressor(Ridge(), cv=3, labels=["lo", "mid", "hi"]).fit(X, text)
    assert model.classes_.tolist() == ["lo", "mid", "hi"] and model.predict(X).dtype.kind == "U"
    ordered = pd.Series(pd.Categorical(text, categories=["lo", "mid", "hi"], ordered=True))
    model = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, ordered)
    assert model.classes_.tolist() == ["lo", "mid", "hi"]


def test_scorer_repr_is_the_call_that_builds_it() -> None:
    # The repr was scikit-learn's "make_scorer(_kappa_of_grades, ..., weights=quadratic,
    # labels=None, ...)", naming a private function: GridSearchCV's repr and logs showed it.
    assert repr(qwk_scorer) == "make_kappa_scorer(weights='quadratic')"
    scorer = make_kappa_scorer("linear", labels=[1, 2, 3], zero_division=0.0)
    text = "make_kappa_scorer(weights='linear', labels=[1, 2, 3], zero_division=0.0)"
    assert repr(scorer) == text
    matrix = make_kappa_scorer([[0, 1], [1, 0]], min_rating=0, max_rating=1)
    assert repr(matrix) == (
        "make_kappa_scorer(weights=[[0.0, 1.0], [1.0, 0.0]], min_rating=0, max_rating=1)"
    )
    rebuilt = eval(text, {"make_kappa_scorer": make_kappa_scorer})
    assert repr(rebuilt) == text
    for same in (pickle.loads(pickle.dumps(scorer)), copy.deepcopy(scorer)):
        assert repr(same) == text
    search = GridSearchCV(OrdinalThresholdRegressor(Ridge()), {"cv": [3]}, scoring=qwk_scorer)
    assert "scoring=make_kappa_scorer(weights='quadratic')" in repr(search)
    assert "_kappa_of_grades" not in repr(search)


def test_the_scorers_still_score_and_route_weights() -> None:
    model = OrdinalThresholdRegressor(Ridge(), cv=3)
    scores = cross_val_score(model, X, GRADES, cv=3, scoring=qwk_scorer)
    assert np.isfinite(scores).all()
    weight = np.linspace(0.5, 2.0, 90)
    fitted = model.fit(X, GRADES)
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_kappa_scorer().set_score_request(sample_weight=True)
        assert repr(scorer) == "make_kappa_scorer(weights='quadratic')"
        value = scorer(fitted, X, GRADES, sample_weight=weight)
    assert value == wk.qwk(GRADES, fitted.predict(X), sample_weight=weight)
