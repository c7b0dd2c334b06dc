"""wkappa.sklearn: kappa scorers and OrdinalThresholdRegressor with real scikit-learn models."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone, is_classifier
from sklearn.exceptions import DataConversionWarning
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

import wkappa as wk
from wkappa.sklearn import OrdinalThresholdRegressor, make_kappa_scorer, qwk_scorer

# Estimator checks that do not apply to an ordinal model, and why.
EXPECTED_FAILED_CHECKS = {
    "check_classifiers_train": (
        "asks for accuracy > 0.83 on make_blobs, whose classes have no order along any "
        "direction, so no monotone cut of a regression output can separate them"
    ),
    "check_classifiers_classes": (
        "uses unordered string classes; ordinal grades need labels=[...] for their order, "
        "which wkappa refuses to guess"
    ),
    "check_complex_data": (
        "complex y is refused by wkappa's own validation, whose message names the dtype "
        "rather than scikit-learn's 'Complex data not supported'"
    ),
}


def _synthetic(seed: int, n: int = 4000) -> tuple[np.ndarray, np.ndarray]:
    """Ordinal grades cut from a noisy linear latent score at uneven points (skewed classes)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    latent = X @ np.array([1.0, 0.7, 0.5, 0.0, 0.0]) + rng.normal(0, 0.8, n)
    return X, np.digitize(latent, [-1.8, -0.9, 0.6, 2.0])


@parametrize_with_checks(
    [OrdinalThresholdRegressor(LinearRegression(), cv=3)],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_estimator_checks(estimator, check) -> None:
    check(estimator)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_held_out_kappa_beats_plain_rounding(seed: int) -> None:
    X, y = _synthetic(seed)
    train, test = slice(0, 2000), slice(2000, None)
    model = OrdinalThresholdRegressor(Ridge(), cv=5).fit(X[train], y[train])
    plain = Ridge().fit(X[train], y[train])
    rounded = np.clip(np.rint(plain.predict(X[test])), 0, 4).astype(int)
    held_out = model.score(X[test], y[test])
    assert held_out == wk.qwk(y[test], model.predict(X[test]), labels=model.classes_)
    assert held_out > wk.qwk(y[test], rounded, labels=range(5)) + 0.01
    # The thresholds were fitted on out-of-fold predictions, not on the refitted model's.
    assert model.oof_predictions_.shape == (2000,)
    assert model.oof_score_ == model.threshold_result_.statistic


def test_integer_cv_is_stratified_so_sorted_data_works() -> None:
    X, y = _synthetic(8, n=2000)
    order = np.argsort(y, kind="stable")  # grades sorted, as files often are
    train, test = order[::2], order[1::2]
    model = OrdinalThresholdRegressor(Ridge(), cv=5).fit(X[train], y[train])
    shuffled = OrdinalThresholdRegressor(Ridge(), cv=KFold(5, shuffle=True, random_state=0))
    shuffled.fit(X[train], y[train])
    assert model.score(X[test], y[test]) == pytest.approx(
        shuffled.score(X[test], y[test]), abs=0.01
    )


def test_clone_pickle_and_fitted_attributes() -> None:
    X, y = _synthetic(3, n=600)
    model = OrdinalThresholdRegressor(Ridge(alpha=2.0), cv=KFold(4), weights="linear")
    assert is_classifier(model)
    cloned = clone(model)
    assert cloned.get_params()["estimator__alpha"] == 2.0
    assert cloned.weights == "linear"
    model.fit(X, y)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.predict(X), model.predict(X))
    np.testing.assert_array_equal(restored.thresholds_, model.thresholds_)
    assert model.n_features_in_ == 5
    assert model.thresholds_.shape == (4,)
    assert model.score(X, y) == wk.weighted_kappa(y, model.predict(X), weights="linear")


def test_pipeline_and_grid_search() -> None:
    X, y = _synthetic(4, n=800)
    pipe = make_pipeline(StandardScaler(), OrdinalThresholdRegressor(Ridge(), cv=3))
    search = GridSearchCV(
        pipe,
        {"ordinalthresholdregressor__estimator__alpha": [0.1, 100.0]},
        cv=3,
        scoring=qwk_scorer,
        error_score="raise",
    )
    search.fit(X, y)
    assert search.best_params_ == {"ordinalthresholdregressor__estimator__alpha": 0.1}
    assert -1 <= search.best_score_ <= 1
    # Default scoring is the estimator's own score: kappa with its weights.
    default = GridSearchCV(
        OrdinalThresholdRegressor(Ridge(), cv=3),
        {"weights": ["quadratic", "linear"]},
        cv=3,
        error_score="raise",
    ).fit(X, y)
    assert set(default.cv_results_["param_weights"]) == {"quadratic", "linear"}


def test_string_grades_with_labels() -> None:
    X, y = _synthetic(5, n=600)
    names = np.array(["none", "mild", "moderate", "severe", "critical"])
    model = OrdinalThresholdRegressor(Ridge(), cv=3, labels=list(names)).fit(X, names[y])
    assert model.classes_.tolist() == list(names)
    predicted = model.predict(X)
    assert set(predicted.tolist()) <= set(names.tolist())
    assert model.score(X, names[y]) == wk.qwk(names[y], predicted, labels=list(names))
    numeric = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, y)
    np.testing.assert_array_equal(predicted, names[numeric.predict(X)])
    with pytest.raises(wk.WkappaError, match="labels="):
        OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, names[y])


def test_sample_weight_is_used() -> None:
    X, y = _synthetic(6, n=600)
    ones = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, y, sample_weight=np.ones(600))
    plain = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, y)
    np.testing.assert_allclose(ones.thresholds_, plain.thresholds_)
    weight = np.where(y == 4, 20.0, 1.0)
    heavy = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X, y, sample_weight=weight)
    assert not np.array_equal(heavy.thresholds_, plain.thresholds_)


def test_fit_errors() -> None:
    X = np.arange(20.0).reshape(10, 2)
    with pytest.raises(wk.WkappaError, match="continuous target"):
        OrdinalThresholdRegressor(Ridge()).fit(X, np.linspace(0, 1, 10))
    with pytest.raises(wk.WkappaError, match="at least two classes"):
        OrdinalThresholdRegressor(Ridge()).fit(X, np.ones(10, dtype=int))
    with pytest.raises(wk.WkappaError, match="`weights` must be one of"):
        OrdinalThresholdRegressor(Ridge(), weights="cubic").fit(X, np.arange(10) % 3)


def test_scorers() -> None:
    X, y = _synthetic(7, n=600)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    manual = []
    for train, test in KFold(3).split(X):
        fitted = clone(tree).fit(X[train], y[train])
        manual.append(wk.qwk(y[test], fitted.predict(X[test])))
    # cross_val_score stratifies classifier folds; recompute with the same splitter.
    scores = cross_val_score(tree, X, y, scoring=qwk_scorer, cv=KFold(3))
    np.testing.assert_array_equal(scores, manual)
    custom = np.abs(np.subtract.outer(np.arange(5), np.arange(5))) ** 1.5
    scorer = make_kappa_scorer(custom, labels=range(5))
    fitted = clone(tree).fit(X, y)
    assert scorer(fitted, X, y) == wk.weighted_kappa(
        y, fitted.predict(X), weights=custom, labels=range(5)
    )
    with pytest.raises(wk.WkappaError, match="non-integer"):
        cross_val_score(Ridge(), X, y, scoring=qwk_scorer, cv=3, error_score="raise")
    with pytest.raises(wk.WkappaError, match="`weights`"):
        make_kappa_scorer("cubic")


def test_import_is_lazy_and_missing_extra_is_explained() -> None:
    code = "import sys, wkappa; assert 'sklearn' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "try:\n    import wkappa.sklearn\nexcept ImportError as e:\n"
        "    assert \"pip install 'wkappa[sklearn]'\" in str(e), e\nelse:\n    raise SystemExit(1)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


class _NanAtRowZero(Ridge):
    """A regressor whose prediction for the first row it is asked about is NaN."""

    def predict(self, X):  # type: ignore[no-untyped-def]
        predicted = super().predict(X)
        predicted[0] = np.nan
        return predicted


def test_fit_and_predict_errors_name_the_callers_parameters() -> None:
    X, y = _synthetic(9, n=300)
    with pytest.raises(wk.WkappaError, match=r"^`y` has a missing rating .* position 3;") as info:
        OrdinalThresholdRegressor(Ridge()).fit(X, np.where(np.arange(300) == 3, np.nan, y))
    assert "nan_policy" not in str(info.value)
    with pytest.raises(
        wk.WkappaError, match=r"^`y` must contain at least two classes.*one class, 2:"
    ):
        OrdinalThresholdRegressor(Ridge()).fit(X, np.full(300, 2))
    with pytest.raises(wk.WkappaError, match=r"at least two classes.*one class, 4:"):
        OrdinalThresholdRegressor(Ridge()).fit(X, y, sample_weight=(y == 4).astype(float))
    with pytest.raises(wk.WkappaError, match=r"_NanAtRowZero returned nan as the out-of-fold"):
        OrdinalThresholdRegressor(_NanAtRowZero()).fit(X, y)
    model = OrdinalThresholdRegressor(Ridge()).fit(X, y)
    model.estimator_ = _NanAtRowZero().fit(X, y)
    with pytest.raises(wk.WkappaError, match=r"returned nan as the prediction for row 0 of `X`"):
        model.predict(X[:5])


def test_sample_weight_needs_a_regressor_that_takes_it() -> None:
    from sklearn.neighbors import KNeighborsRegressor

    X, y = _synthetic(10, n=300)
    with pytest.raises(wk.WkappaError, match=r"KNeighborsRegressor\.fit has no sample_weight"):
        OrdinalThresholdRegressor(KNeighborsRegressor()).fit(X, y, sample_weight=np.ones(300))
    with pytest.raises(wk.WkappaError, match=r"takes `sample_weight` and `groups` only; got `eval"):
        OrdinalThresholdRegressor(Ridge()).fit(X, y, eval_set=[(X, y)])


def test_groups_reach_a_group_splitter() -> None:
    from sklearn.model_selection import GroupKFold, cross_val_predict

    X, y = _synthetic(11, n=400)
    groups = np.arange(400) % 23
    model = OrdinalThresholdRegressor(Ridge(), cv=GroupKFold(4)).fit(X, y, groups=groups)
    expected = cross_val_predict(Ridge(), X, y.astype(float), cv=GroupKFold(4), groups=groups)
    np.testing.assert_array_equal(model.oof_predictions_, expected)


def test_metadata_routing_sends_sample_weight_where_requested() -> None:
    import sklearn
    from sklearn.model_selection import GroupKFold, cross_val_predict

    X, y = _synthetic(12, n=400)
    weight = np.random.default_rng(0).integers(1, 4, 400).astype(float)
    groups = np.arange(400) % 17
    plain = OrdinalThresholdRegressor(Ridge(), cv=GroupKFold(4)).fit(
        X, y, sample_weight=weight, groups=groups
    )
    with sklearn.config_context(enable_metadata_routing=True):
        requested = OrdinalThresholdRegressor(
            Ridge().set_fit_request(sample_weight=True), cv=GroupKFold(4)
        ).fit(X, y, sample_weight=weight, groups=groups)
        # Declined by the regressor: every fold and the refit unweighted, thresholds weighted.
        declined = OrdinalThresholdRegressor(
            Ridge().set_fit_request(sample_weight=False), cv=GroupKFold(4)
        ).fit(X, y, sample_weight=weight, groups=groups)
    np.testing.assert_array_equal(requested.thresholds_, plain.thresholds_)
    np.testing.assert_array_equal(requested.estimator_.coef_, plain.estimator_.coef_)
    unweighted = cross_val_predict(Ridge(), X, y.astype(float), cv=GroupKFold(4), groups=groups)
    np.testing.assert_array_equal(declined.oof_predictions_, unweighted)
    np.testing.assert_array_equal(declined.estimator_.coef_, Ridge().fit(X, y).coef_)
    expected = wk.optimize_thresholds(
        y, unweighted, min_rating=0, max_rating=4, sample_weight=weight
    )
    np.testing.assert_array_equal(declined.thresholds_, expected.thresholds)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"min_rating": 4, "max_rating": 1}, r"`min_rating` \(4\) must not exceed"),
        ({"labels": [0, 0, 1]}, "labels"),
        ({"labels": [0, 1], "min_rating": 0}, "either `labels` or `min_rating`"),
        ({"weights": 1 - np.eye(3), "labels": range(5)}, r"shape \(3, 3\).*K = 5"),
        ({"weights": 1 - np.eye(3), "min_rating": 1, "max_rating": 4}, r"K = 4"),
    ],
)
def test_kappa_scorer_options_are_checked_when_it_is_built(kwargs, match: str) -> None:
    # Checked later, each fold's scoring would fail and GridSearchCV would report NaN scores.
    with pytest.raises(wk.WkappaError, match=match):
        make_kappa_scorer(**kwargs)


def test_a_weight_matrix_of_the_wrong_shape_fails_before_the_folds() -> None:
    class Refuses(Ridge):
        def fit(self, X, y, sample_weight=None):  # type: ignore[no-untyped-def]
            raise AssertionError("no fold should be fitted")

    X, y = _synthetic(13, n=200)
    with pytest.raises(wk.WkappaError, match=r"shape \(3, 3\) but there are K = 5"):
        OrdinalThresholdRegressor(Refuses(), weights=1 - np.eye(3)).fit(X, y)


def test_grades_outside_the_labels_are_named_as_y_in_fit_and_score() -> None:
    X, y = _synthetic(14, n=300)
    with pytest.raises(wk.WkappaError, match=r"^`y` contains 4, which is not in `labels`"):
        OrdinalThresholdRegressor(Ridge(), labels=[0, 1, 2, 3]).fit(X, y)
    model = OrdinalThresholdRegressor(Ridge(), labels=range(5)).fit(X, y)
    with pytest.raises(wk.WkappaError, match=r"^`y` contains 7, which is not in `labels`"):
        model.score(X, np.where(np.arange(300) == 5, 7, y))
    with pytest.raises(wk.WkappaError, match=r"^`y` has a missing rating .* position 2;"):
        model.score(X, np.where(np.arange(300) == 2, np.nan, y))


def test_one_hot_grades_are_refused_with_the_argmax_hint_in_fit_and_score() -> None:
    """One-hot targets (N, K) got the hint for a column vector, ".ravel()", which would mix
    the classes' columns up."""
    pd = pytest.importorskip("pandas")
    X, y = _synthetic(15, n=300)
    onehot = np.eye(5)[y]
    hint = r"^`y` must hold one grade per row; got shape \(300, 5\), .*y\.argmax\(axis=1\)"
    with pytest.raises(wk.WkappaError, match=hint):
        OrdinalThresholdRegressor(Ridge()).fit(X, onehot)
    with pytest.raises(wk.WkappaError, match=hint):
        OrdinalThresholdRegressor(Ridge()).fit(X, pd.DataFrame(onehot))
    model = OrdinalThresholdRegressor(Ridge()).fit(X, y)
    for labels in (None, range(5)):
        with pytest.raises(wk.WkappaError, match=hint):
            clone(model).set_params(labels=labels).fit(X, y).score(X, onehot)
    assert model.score(X, onehot.argmax(axis=1)) == model.score(X, y)
    with pytest.warns(DataConversionWarning, match="column-vector y"):  # its grades
        column = OrdinalThresholdRegressor(Ridge()).fit(X, y[:, None])
    assert np.array_equal(column.thresholds_, model.thresholds_)


def test_score_counts_a_grade_the_training_rows_lacked() -> None:
    # A rare end grade (one row) is missing from the training rows of one fold: score() and
    # qwk_scorer both give that fold a kappa on the grades 0..5, in and out of GridSearchCV.
    X, y = _synthetic(15, n=300)
    y = y.copy()
    y[np.argmax(X[:, 0])] = 5
    rare = y == 5
    model = OrdinalThresholdRegressor(Ridge(), cv=3).fit(X[~rare], y[~rare])
    assert model.classes_.tolist() == [0, 1, 2, 3, 4]
    predicted = model.predict(X)
    for grades in (y, y.astype(float), y + 0, list(y)):
        assert model.score(X, grades) == wk.qwk(y, predicted, min_rating=0, max_rating=5)
    assert model.score(X, y) == qwk_scorer(model, X, y)
    weight = np.linspace(0.5, 2.0, 300)
    assert model.score(X, y, sample_weight=weight) == wk.qwk(
        y, predicted, min_rating=0, max_rating=5, sample_weight=weight
    )
    folds = cross_val_score(OrdinalThresholdRegressor(Ridge(), cv=3), X, y, cv=KFold(3))
    assert np.isfinite(folds).all()
    np.testing.assert_array_equal(
        folds,
        cross_val_score(
            OrdinalThresholdRegressor(Ridge(), cv=3), X, y, cv=KFold(3), scoring=qwk_scorer
        ),
    )


class _ColumnPredictions(DecisionTreeClassifier):  # type: ignore[misc]
    """Predicts an (n, 1) column of grades, as CatBoostClassifier.predict does."""

    def predict(self, X):  # type: ignore[no-untyped-def]
        return super().predict(X).reshape(-1, 1)


def test_scorers_read_a_column_of_predictions_as_its_grades() -> None:
    # CatBoostClassifier.predict returns shape (n, 1): every fold of qwk_scorer failed
    # ("`y_pred` must be 1-D") and a search scored each candidate nan; scikit-learn's own
    # cohen_kappa_score reads the column as its n grades.
    from sklearn.metrics import cohen_kappa_score, make_scorer

    X, y = _synthetic(16, n=600)
    model = _ColumnPredictions(max_depth=3, random_state=0)
    reference = make_scorer(cohen_kappa_score, weights="quadratic", labels=range(5))
    scores = cross_val_score(model, X, y, scoring=qwk_scorer, cv=3, error_score="raise")
    np.testing.assert_allclose(scores, cross_val_score(model, X, y, scoring=reference, cv=3))
    fitted = clone(model).fit(X, y)
    assert make_kappa_scorer("linear", labels=range(5))(fitted, X, y[:, None]) == wk.weighted_kappa(
        y, fitted.predict(X).ravel(), weights="linear", labels=range(5)
    )
    cb = pytest.importorskip("catboost")
    boosted = cb.CatBoostClassifier(iterations=20, depth=3, verbose=0, thread_count=1)
    search = GridSearchCV(boosted, {"depth": [2, 3]}, scoring=qwk_scorer, cv=3, error_score="raise")
    assert np.isfinite(search.fit(X, y + 1).cv_results_["mean_test_score"]).all()


def test_a_generator_of_splits_survives_metadata_routing() -> None:
    import sklearn
    from sklearn.model_selection import GroupKFold

    X, y = _synthetic(15, n=300)
    groups = np.arange(300) % 11
    plain = OrdinalThresholdRegressor(Ridge(), cv=GroupKFold(3).split(X, y, groups)).fit(X, y)
    with sklearn.config_context(enable_metadata_routing=True):
        routed = OrdinalThresholdRegressor(Ridge(), cv=GroupKFold(3).split(X, y, groups))
        routed.fit(X, y)
    np.testing.assert_array_equal(routed.thresholds_, plain.thresholds_)


def test_in_sample_cut_points_spread_wider_than_out_of_fold_as_documented() -> None:
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.model_selection import cross_val_predict
    from threadpoolctl import threadpool_limits

    X, y = _synthetic(16, n=1500)
    model = HistGradientBoostingRegressor(max_iter=100, random_state=0)
    # One OpenMP thread: the test workers already fill the cores, and OpenMP threads that
    # wait for a busy core spin instead of sleeping.
    with threadpool_limits(limits=1, user_api="openmp"):
        own = wk.optimize_thresholds(y, clone(model).fit(X, y).predict(X), labels=range(5))
        oof = wk.optimize_thresholds(y, cross_val_predict(model, X, y, cv=5), labels=range(5))
    assert own.thresholds[-1] - own.thresholds[0] > oof.thresholds[-1] - oof.thresholds[0]
    assert "spread too far apart" in " ".join(OrdinalThresholdRegressor.__doc__.split())


def test_threshold_result_speaks_in_the_grades_of_predict() -> None:
    X, y = _synthetic(17, n=400)
    names = np.array(["none", "mild", "moderate", "severe", "critical"])
    for grades, labels in ((y + 1, None), (names[y], list(names))):
        model = OrdinalThresholdRegressor(Ridge(), cv=3, labels=labels).fit(X, grades)
        result = model.threshold_result_
        assert result.labels == tuple(model.classes_.tolist())
        scores = model.estimator_.predict(X)
        np.testing.assert_array_equal(result.predict(scores), model.predict(X))
        assert f"grade {model.classes_.tolist()[0]!r}:" in result.explain()


def test_kappa_scorer_zero_division_scores_an_undefined_fold() -> None:
    import warnings

    X = np.arange(12.0).reshape(-1, 1)
    y = np.array([0, 1, 2] * 4)
    constant = DecisionTreeClassifier(max_depth=1).fit(X, np.zeros(12, dtype=int))
    with pytest.warns(wk.UndefinedKappaWarning):
        assert np.isnan(make_kappa_scorer()(constant, X, np.zeros(12, dtype=int)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert make_kappa_scorer(zero_division=0.0)(constant, X, np.zeros(12, dtype=int)) == 0.0
    assert make_kappa_scorer(zero_division=0.0)(constant, X, y) == wk.qwk(y, np.zeros(12, int))
    with pytest.raises(wk.WkappaError, match="`zero_division` must be"):
        make_kappa_scorer(zero_division=2)
    assert "zero_division" not in repr(qwk_scorer)


def test_folds_fitted_in_parallel_give_the_same_thresholds() -> None:
    X, y = _synthetic(18, n=600)
    serial = OrdinalThresholdRegressor(Ridge(), cv=4).fit(X, y)
    parallel = OrdinalThresholdRegressor(Ridge(), cv=4, n_jobs=2).fit(X, y)
    assert clone(parallel).get_params()["n_jobs"] == 2
    np.testing.assert_array_equal(parallel.oof_predictions_, serial.oof_predictions_)
    np.testing.assert_array_equal(parallel.thresholds_, serial.thresholds_)


@pytest.mark.parametrize(
    ("estimator", "cv", "rows", "message"),
    [
        (None, 3, 60, r"`estimator` must be a scikit-learn regressor .* got None"),
        ("ridge", 3, 60, r"`estimator` must be a scikit-learn regressor .* got 'ridge'"),
        # a classifier's predict gives classes: it was fitted and its classes cut as scores
        (
            LogisticRegression(),
            3,
            60,
            r"`estimator` must be a regressor; got the classifier LogisticRegression, whose "
            r"predict returns classes.*Hint: pass a regressor",
        ),
        (Ridge(), "five", 60, r"`cv` cannot split the 60 rows: .*Got five\. Hint"),
        (Ridge(), 1, 60, r"`cv` cannot split the 60 rows: .*n_splits=1"),
        (Ridge(), 100, 60, r"`cv` cannot split the 60 rows: .*n_splits=100"),
        (Ridge(), 3, 50, r"`X` and `y` must have one row per item: .*\[50, 60\]"),
    ],
)
def test_fit_names_the_parameter_at_fault(estimator, cv, rows, message) -> None:
    X = np.random.default_rng(0).normal(size=(60, 2))
    y = np.arange(60) % 3
    with pytest.raises(wk.WkappaError, match=message):
        OrdinalThresholdRegressor(estimator, cv=cv).fit(X[:rows], y)


def test_fit_refuses_features_that_are_not_an_array() -> None:
    with pytest.raises(wk.WkappaError, match=r"`X` must be an array-like of features.*int"):
        OrdinalThresholdRegressor(Ridge(), cv=3).fit(3, np.arange(60) % 3)


def test_a_scorer_without_labels_refuses_text_grades_naming_its_own_option() -> None:
    """Text grades got weighted_kappa's "pass labels=[...]", an argument of a function the
    scorer's user never calls."""
    pd = pytest.importorskip("pandas")
    X = np.arange(60.0).reshape(-1, 1)
    grades = np.array(["none", "mild", "severe"])[np.arange(60) // 20]
    model = DecisionTreeClassifier(random_state=0).fit(X, grades)
    hint = r"^The grades are text \(\['mild', 'none', 'severe'\]\), .*make_kappa_scorer\(labels="
    for y in (grades, grades.astype(object), pd.Series(pd.Categorical(grades))):
        with pytest.raises(wk.WkappaError, match=hint):
            qwk_scorer(model, X, y)
    ordered = make_kappa_scorer(labels=["none", "mild", "severe"])
    assert ordered(model, X, grades) == 1.0
    assert make_kappa_scorer("unweighted")(model, X, grades) == 1.0
    order = ["none", "mild", "severe"]
    in_order = pd.Series(pd.Categorical(grades, categories=order, ordered=True))
    assert qwk_scorer(model, X, in_order) == 1.0  # an ordered categorical gives the order
