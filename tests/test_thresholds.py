"""optimize_thresholds / apply_thresholds / ThresholdResult: API, edge cases and errors."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples


def _kappa_of(result: wk.ThresholdResult, y_true, y_score, **kwargs) -> float:
    kwargs.setdefault("weights", result.weights)
    return wk.weighted_kappa(y_true, result.predict(y_score), labels=result.labels, **kwargs)


# --------------------------------------------------------------------------- basics


def test_docstring_example_and_to_dict() -> None:
    y_true = [0, 0, 1, 1, 2, 2, 3, 3]
    y_score = [0.1, 0.3, 0.2, 0.6, 0.5, 0.9, 0.8, 1.4]
    result = wk.optimize_thresholds(y_true, y_score)
    assert result.labels == (0, 1, 2, 3)
    assert result.predict(y_score).dtype == np.int64
    assert _kappa_of(result, y_true, y_score) == result.statistic
    data = json.loads(json.dumps(result.to_dict()))
    assert data["thresholds"] == result.thresholds.tolist()
    assert data["statistic"] == result.statistic
    assert data["labels"] == [0, 1, 2, 3]
    assert data["weights"] == "quadratic"
    assert data["n_iter"] == result.n_iter >= 1
    assert data["exact"] is True
    assert pickle.loads(pickle.dumps(result)).statistic == result.statistic


def test_thresholds_are_read_only() -> None:
    result = wk.optimize_thresholds([0, 1, 2], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError):
        result.thresholds[0] = 5.0


def test_perfectly_separable_reaches_one() -> None:
    result = wk.optimize_thresholds([2, 0, 1, 0, 2], [9.0, -3.0, 4.0, -2.0, 8.5])
    assert result.statistic == 1.0
    np.testing.assert_array_equal(result.thresholds, [1.0, 6.25])
    np.testing.assert_array_equal(result.predict([-10, 1.0, 1.1, 6.25, 7]), [0, 0, 1, 1, 2])


def test_beats_or_equals_plain_rounding() -> None:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, size=3000)
    y_score = y_true + rng.normal(0, 1.2, size=3000) - 0.4
    for weights in ("quadratic", "linear", "unweighted"):
        result = wk.optimize_thresholds(y_true, y_score, weights=weights)
        rounded = np.clip(np.rint(y_score), 0, 4).astype(int)
        assert result.statistic > wk.weighted_kappa(y_true, rounded, weights=weights)
        assert _kappa_of(result, y_true, y_score) == result.statistic
        assert result.exact


def test_scores_of_any_dtype_give_the_same_thresholds() -> None:
    y_true = np.array([0, 0, 1, 1, 2, 2, 1, 0])
    base = np.array([0.5, 1.0, 1.5, 2.0, 3.0, 2.5, 1.25, 0.75])
    expected = wk.optimize_thresholds(y_true, base)
    for dtype in (np.float16, np.float32, np.float64, np.longdouble):
        got = wk.optimize_thresholds(y_true, base.astype(dtype))
        np.testing.assert_array_equal(got.thresholds, expected.thresholds)
    ints = wk.optimize_thresholds(y_true, (base * 4).astype(np.int32))
    assert ints.statistic == expected.statistic
    np.testing.assert_array_equal(ints.thresholds, expected.thresholds * 4)


def test_string_labels_and_pandas_input() -> None:
    grades = ["low", "mid", "high"]
    y_true = pd.Series(["low", "mid", "high", "mid", "low", "high"])
    y_score = pd.Series([0.1, 0.5, 0.9, 0.45, 0.2, 0.95], dtype="float32")
    result = wk.optimize_thresholds(y_true, y_score, labels=grades)
    assert result.labels == ("low", "mid", "high")
    predicted = result.predict(y_score)
    assert predicted.tolist() == ["low", "mid", "high", "mid", "low", "high"]
    assert result.statistic == 1.0
    assert result.to_dict()["labels"] == grades
    with pytest.raises(wk.WkappaError, match="labels="):
        wk.optimize_thresholds(y_true, y_score)


def test_ordered_categorical_truth() -> None:
    y_true = pd.Categorical(["b", "a", "c", "b"], categories=["c", "b", "a"], ordered=True)
    result = wk.optimize_thresholds(y_true, [1.0, 2.0, 0.0, 1.1])
    assert result.labels == ("c", "b", "a")
    assert result.predict([1.0, 2.0, 0.0, 1.1]).tolist() == ["b", "a", "c", "b"]


def test_min_max_rating_add_grades_that_stay_empty() -> None:
    result = wk.optimize_thresholds([1, 2, 1, 2], [0.1, 0.9, 0.2, 0.8], min_rating=0, max_rating=4)
    assert result.labels == (0, 1, 2, 3, 4)
    assert result.statistic == 1.0
    predicted = result.predict([0.1, 0.9, 0.2, 0.8])
    assert predicted.tolist() == [1, 2, 1, 2]
    # Classes 0, 3 and 4 are empty: their thresholds sit outside the scores.
    t = result.thresholds
    assert t[0] < 0.1 and t[2] >= 0.9 and t[2] == t[3]


# --------------------------------------------------------------------------- degenerate data


def test_k_equals_two() -> None:
    result = wk.optimize_thresholds([0, 1, 0, 1, 1], [0.3, 0.6, 0.2, 0.1, 0.9])
    assert result.thresholds.shape == (1,)
    assert _kappa_of(result, [0, 1, 0, 1, 1], [0.3, 0.6, 0.2, 0.1, 0.9]) == result.statistic


def test_all_scores_tied_give_kappa_zero() -> None:
    y_true = [0, 1, 2, 1]
    result = wk.optimize_thresholds(y_true, [0.5] * 4)
    assert result.statistic == 0.0
    predicted = result.predict([0.5] * 4)
    assert len(set(predicted.tolist())) == 1
    assert np.all(np.isfinite(result.thresholds))


def test_equal_thresholds_when_a_class_is_left_empty() -> None:
    # Found by random search: the optimum predicts no grade 1 although y_true has three.
    y_true = [1, 1, 1, 2, 0, 2, 2, 0]
    y_score = [0.75, 1.5, 1.0, 0.0, 1.5, 1.25, 1.5, 0.25]
    result = wk.optimize_thresholds(y_true, y_score)
    np.testing.assert_array_equal(result.thresholds, [1.125, 1.125])
    assert 1 not in result.predict(y_score).tolist()
    assert _kappa_of(result, y_true, y_score) == result.statistic


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (1.0, np.nextafter(1.0, 2.0)),  # midpoint rounds down to a
        (np.nextafter(1.0, 2.0), np.nextafter(np.nextafter(1.0, 2.0), 2.0)),  # rounds up to b
        (-5e-324, 5e-324),  # subnormals
        (-1.7e308, 1.7e308),  # the sum overflows
        (1e300, np.nextafter(1e300, np.inf)),
    ],
)
def test_adjacent_floats_are_separated_exactly(a: float, b: float) -> None:
    y_score = np.array([a, b, a, b])
    result = wk.optimize_thresholds([0, 1, 0, 1], y_score)
    assert result.statistic == 1.0
    (threshold,) = result.thresholds
    assert a <= threshold < b
    assert result.predict(y_score).tolist() == [0, 1, 0, 1]


def test_cut_points_read_as_written_when_the_gap_allows() -> None:
    # The float midpoint of 1.7082 and 1.71 is 1.7090999999999998; 1.7091 separates the
    # scores the same way, so that is the cut reported (and printed by the CLI).
    result = wk.optimize_thresholds([0, 1, 2], [1.7082, 1.71, 2.3])
    assert repr(float(result.thresholds[0])) == "1.7091"
    assert (1.7082 + 1.71) * 0.5 != 1.7091
    # Where no shorter decimal fits between adjacent floats, the exact cut stays.
    a = 0.1 + 0.2  # 0.30000000000000004
    b = float(np.nextafter(a, 1.0))
    (cut,) = wk.optimize_thresholds([0, 1], [a, b]).thresholds
    assert a <= cut < b


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=30, unique=True))
@settings(max_examples=examples(200), deadline=None)
def test_readable_cut_points_grade_every_score_as_the_optimum(scores: list[float]) -> None:
    y_score = np.array(scores)
    y_true = np.argsort(np.argsort(y_score)) % 3  # three grades, not monotone in the score
    if len(set(y_true.tolist())) < 2:
        return
    result = wk.optimize_thresholds(y_true, y_score, labels=[0, 1, 2])
    assert _kappa_of(result, y_true, y_score) == result.statistic
    sides = np.sort(y_score)
    for t in result.thresholds.tolist():
        short = float(f"{t:.15g}")
        # Either the cut is its own 15-digit rounding, or that rounding would cross a score.
        assert short == t or np.searchsorted(sides, short, side="right") != np.searchsorted(
            sides, t, side="right"
        )


def test_empty_lowest_class_at_extreme_scores() -> None:
    # Grade 0 exists but the best assignment leaves it empty; thresholds stay finite.
    y_true = [0, 1, 1, 1, 2, 2]
    y_score = [1e308, -1e308, -1e308, -1e308, 1.7e308, 1.7e308]
    result = wk.optimize_thresholds(y_true, y_score, weights="unweighted")
    assert np.all(np.isfinite(result.thresholds))
    assert _kappa_of(result, y_true, y_score, weights="unweighted") == result.statistic


def test_sample_weights_zero_drop_items() -> None:
    y_true = np.array([0, 1, 2, 2, 0])
    y_score = np.array([0.1, 0.5, 0.9, 0.05, 0.95])
    weight = np.array([1, 1, 1, 0, 0])
    result = wk.optimize_thresholds(y_true, y_score, sample_weight=weight)
    assert result.statistic == 1.0
    assert _kappa_of(result, y_true, y_score, sample_weight=weight) == 1.0


def test_float_sample_weights_and_custom_weights_are_not_exact() -> None:
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 4, size=200)
    y_score = y_true + rng.normal(size=200)
    weight = rng.uniform(0.5, 2.0, size=200)
    result = wk.optimize_thresholds(y_true, y_score, sample_weight=weight)
    assert not result.exact
    assert _kappa_of(result, y_true, y_score, sample_weight=weight) == result.statistic
    custom = np.sqrt(np.abs(np.subtract.outer(np.arange(4), np.arange(4))))
    result = wk.optimize_thresholds(y_true, y_score, weights=custom)
    assert result.weights == "custom" and not result.exact
    assert _kappa_of(result, y_true, y_score, weights=custom) == result.statistic
    integral = wk.optimize_thresholds(y_true, y_score, weights=np.abs(custom**2).round())
    assert integral.exact


def test_nan_policy_omit() -> None:
    y_true = np.array([0.0, 1.0, np.nan, 2.0, 1.0, 0.0])
    y_score = np.array([0.1, 0.5, 0.7, np.nan, 0.6, 0.2])
    result = wk.optimize_thresholds(y_true, y_score, nan_policy="omit", max_rating=2)
    kept = [0, 1, 4, 5]
    direct = wk.optimize_thresholds(y_true[kept], y_score[kept], max_rating=2)
    assert result.statistic == direct.statistic
    np.testing.assert_array_equal(result.thresholds, direct.thresholds)


# --------------------------------------------------------------------------- apply_thresholds


def test_apply_thresholds_convention_and_labels() -> None:
    thresholds = [0.5, 0.5, 2.0]
    scores = [-np.inf, 0.5, np.nextafter(0.5, 1), 2.0, 2.5, np.inf]
    np.testing.assert_array_equal(wk.apply_thresholds(scores, thresholds), [0, 0, 2, 2, 3, 3])
    labelled = wk.apply_thresholds(scores, thresholds, labels=["a", "b", "c", "d"])
    assert labelled.tolist() == ["a", "a", "c", "c", "d", "d"]
    # The same convention as pandas.cut with right-closed bins.
    edges = [-np.inf, 0.5, 1.0, 2.0, np.inf]
    finite = [0.2, 0.5, 0.7, 1.0, 2.0, 3.0]
    cut = pd.cut(finite, edges, labels=False)
    np.testing.assert_array_equal(wk.apply_thresholds(finite, edges[1:-1]), cut)


@pytest.mark.parametrize(
    ("thresholds", "match"),
    [
        ([1.0, np.inf], "finite"),
        ([np.nan, 1.0], "finite"),
        ([2.0, 1.0], r"non-decreasing; thresholds\[0\] = 2.0"),
        ([], "non-empty"),
        ([[1.0, 2.0]], "non-empty 1-D"),
        ("abc", "sequence of numbers"),
    ],
)
def test_apply_thresholds_bad_thresholds(thresholds, match: str) -> None:
    with pytest.raises(wk.WkappaError, match=match):
        wk.apply_thresholds([0.0, 1.0], thresholds)


def test_apply_thresholds_bad_scores_and_labels() -> None:
    with pytest.raises(wk.WkappaError, match=r"y_score.*missing.*position 1"):
        wk.apply_thresholds([0.0, np.nan], [0.5])
    with pytest.raises(wk.WkappaError, match="real-valued scores"):
        wk.apply_thresholds(["a", "b"], [0.5])
    with pytest.raises(wk.WkappaError, match="len\\(thresholds\\) \\+ 1 = 2"):
        wk.apply_thresholds([0.0], [0.5], labels=[0, 1, 2])


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("y_true", "y_score", "kwargs", "match"),
    [
        ([0, 1, 2], [0.1, np.nan, 0.3], {}, r"`y_score` has a missing value.*position 1.*omit"),
        ([0, None, 2], [0.1, 0.2, 0.3], {}, r"`y_true` has a missing value.*position 1"),
        ([0, 1, 2], [0.1, np.inf, 0.3], {}, r"`y_score` contains inf at position 1"),
        ([1, 1, 1], [0.1, 0.2, 0.3], {}, "at least two classes"),
        ([0, 1], [0.1, 0.2], {"sample_weight": [0, 1]}, "at least two classes"),
        ([0, 1, 2], [0.1, 0.2], {}, "same length; got 3 and 2"),
        ([], [], {}, "empty"),
        ([0, 1], [0.1, 0.2], {"nan_policy": "propagate"}, "propagate"),
        ([0, 1], [0.1, 0.2], {"nan_policy": "ignore"}, "nan_policy"),
        ([0, 1], [0.1, 0.2], {"weights": "quadratc"}, "`weights` must be one of"),
        ([0, 1], [0.1, 0.2], {"weights": np.zeros((2, 2))}, "undefined for every assignment"),
        ([0, 1], [0.1, 0.2], {"weights": 1 - np.eye(3)}, r"shape \(3, 3\)"),
        ([0, 1.5], [0.1, 0.2], {}, "non-integer rating 1.5"),
        ([0, 1], ["a", "b"], {}, "real-valued scores"),
        ([0, 1], [0.1, 0.2], {"sample_weight": [1, -1]}, "non-negative"),
        ([0, 3], [0.1, 0.2], {"labels": [0, 1]}, "not in `labels`"),
        ([0, 1], [[0.1, 0.2]], {}, "same length|1-D"),
    ],
)
def test_optimize_thresholds_errors(y_true, y_score, kwargs, match: str) -> None:
    with pytest.raises(wk.WkappaError, match=match):
        wk.optimize_thresholds(y_true, y_score, **kwargs)


def test_nan_in_predict_raises() -> None:
    result = wk.optimize_thresholds([0, 1], [0.0, 1.0])
    with pytest.raises(wk.WkappaError, match="missing"):
        result.predict([0.5, np.nan])


@pytest.mark.integration  # a fresh interpreter
def test_import_wkappa_does_not_import_numba_until_used() -> None:
    code = (
        "import sys, wkappa; assert 'numba' not in sys.modules; "
        "wkappa.optimize_thresholds([0, 1, 0, 1], [0.0, 1.0, 2.0, 3.0]); "
        "assert 'numba' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=examples(200), deadline=None)
@given(
    base=st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False),
    steps=st.lists(st.integers(0, 6), min_size=2, max_size=12),
    truth=st.lists(st.integers(0, 3), min_size=12, max_size=12),
)
def test_predict_reproduces_the_fit_between_adjacent_floats(
    base: float, steps: list[int], truth: list[int]
) -> None:
    """Scores a few ulps apart: the thresholds still separate them exactly as fitted."""
    scores = np.array([base] * len(steps))
    for i, step in enumerate(steps):
        for _ in range(step):
            scores[i] = np.nextafter(scores[i], np.inf)
    y_true = np.array(truth[: len(steps)])
    if len(set(y_true.tolist())) < 2:
        return
    result = wk.optimize_thresholds(y_true, scores, min_rating=0, max_rating=3)
    assert np.all(np.isfinite(result.thresholds))
    predicted = result.predict(scores)
    assert _kappa_of(result, y_true, scores) == result.statistic
    # The assignment is monotone in the score and ties share a grade.
    order = np.argsort(scores, kind="stable")
    assert np.all(np.diff(predicted[order]) >= 0)


@settings(max_examples=examples(200), deadline=None)
@given(
    thresholds=st.lists(st.sampled_from([-1.0, 0.0, 0.5, 2.0]), min_size=1, max_size=5),
    scores=st.lists(st.sampled_from([-2.0, -1.0, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0]), max_size=20),
)
def test_apply_thresholds_counts_thresholds_strictly_below(
    thresholds: list[float], scores: list[float]
) -> None:
    cut = np.sort(thresholds)
    got = wk.apply_thresholds(np.array(scores, dtype=float), cut)
    expected = [sum(t < s for t in cut) for s in scores]
    np.testing.assert_array_equal(got, expected)


def test_explain_says_new_data_is_expected_lower_not_always_lower() -> None:
    # The optimum on the fitted data overstates kappa on new data on average only: here the
    # held-out half scores higher than the fitted half's optimum.
    rng = np.random.default_rng(0)
    for _ in range(100):
        y = rng.integers(0, 5, 400)
        score = y + rng.normal(0, 1, 400)
        fit = wk.optimize_thresholds(y[:200], score[:200], min_rating=0, max_rating=4)
        if wk.qwk(y[200:], fit.predict(score[200:]), labels=range(5)) > fit.statistic:
            break
    else:
        pytest.fail("no split where new data scores higher")
    assert "so higher than the kappa to expect on new data" in " ".join(fit.explain().split())


def test_class_probabilities_as_scores_get_the_expected_grade_hint() -> None:
    y_true = [0, 0, 1, 1, 2, 2]
    probs = np.random.default_rng(0).dirichlet(np.ones(3), size=6)
    fit = wk.optimize_thresholds(y_true, probs @ np.arange(3))
    pattern = r"^`y_score` must be 1-D; got shape \(6, 3\).*proba @ np.arange\(3\)"
    for call in (
        lambda: wk.optimize_thresholds(y_true, probs),
        lambda: wk.apply_thresholds(probs, [0.5, 1.5]),
        lambda: fit.predict(probs),
    ):
        with pytest.raises(wk.WkappaError, match=pattern) as info:
            call()
        assert "ravel" not in str(info.value)


def test_too_many_grades_get_a_hint_that_applies_to_thresholds() -> None:
    # weights='quadratic' is the default here and thresholds need K columns whatever the weights.
    with pytest.raises(wk.WkappaError, match=r"K = 1000001 .*narrower min_rating") as info:
        wk.optimize_thresholds([0, 1, 2], [0.1, 0.5, 0.9], max_rating=10**6)
    assert "weights='quadratic'" not in str(info.value)


def test_unordered_grades_are_refused_without_offering_unweighted_kappa() -> None:
    # The thresholds' grades are ordered with any weights: unweighted does not help.
    import pandas as pd

    pytest.importorskip("sklearn")
    from sklearn.linear_model import Ridge

    from wkappa.sklearn import OrdinalThresholdRegressor

    truth = ["a", "b", "a", "c", "b", "c"]
    unordered = pd.Categorical(truth)
    scores = [0.1, 0.5, 0.2, 0.9, 0.4, 0.8]
    pattern = r"^Thresholds, which cut scores into ordered grades with any weights, need ordered"
    for call in (
        lambda: wk.optimize_thresholds(truth, scores, weights="unweighted"),
        lambda: wk.optimize_thresholds(unordered, scores),
        lambda: OrdinalThresholdRegressor(Ridge(), cv=2).fit(np.c_[scores], truth),
    ):
        with pytest.raises(wk.WkappaError, match=pattern) as info:
            call()
        assert "unweighted" not in str(info.value) and str(info.value).endswith("polars Enum).")
    with pytest.raises(wk.WkappaError, match="unweighted kappa accepts them as they are"):
        wk.qwk(truth, truth)


def test_a_threshold_result_given_as_thresholds_gets_the_fix() -> None:
    # The result itself where its cut points belong: "must be a 1-D sequence of numbers;
    # got ThresholdResult(...)", with no word of result.thresholds or result.predict.
    fit = wk.optimize_thresholds([1, 2, 3, 1, 2, 3], [0.1, 0.5, 0.9, 0.2, 0.4, 1.0])
    with pytest.raises(
        wk.WkappaError,
        match=r"^`thresholds` .* got a ThresholdResult\. Hint: .*\.predict\(y_score\).*"
        r"\.thresholds",
    ):
        wk.apply_thresholds([0.3], fit)  # type: ignore[arg-type]
    from wkappa.gbdt import lightgbm_metric

    with pytest.raises(
        wk.WkappaError, match=r"got a ThresholdResult\. Hint: .*result\.thresholds, min_rating=1"
    ):
        lightgbm_metric(thresholds=fit)  # type: ignore[arg-type]
