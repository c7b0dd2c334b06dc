"""Missing ratings (nan_policy) of the comparisons: paired_kappa_test (and its integer bounds,
min_rating/max_rating) and rater_vs_panel, arrays and frames."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import FewClustersWarning, UndefinedKappaWarning, WkappaError

pytestmark = pytest.mark.filterwarnings("error")

TRUTH = [1, 2, None, 1, 3, 2, 3, 1, 2, 3, 1, 2]
PRED_A = [1, 2, 3, 1, 3, 1, 3, 2, 2, None, 1, 3]
PRED_B = [1, 2, 2, 1, None, 2, 3, 3, 2, 3, 2, 2]
COMPLETE = [0, 1, 3, 5, 6, 7, 8, 10, 11]  # the items with all three ratings


def _at(values: list[object], rows: list[int]) -> list[object]:
    return [values[i] for i in rows]


@pytest.mark.parametrize(("column", "position"), [("y_true", 2), ("y_pred_a", 9), ("y_pred_b", 4)])
def test_raise_names_the_first_missing_rating_and_a_policy_that_exists(
    column: str, position: int
) -> None:
    columns = {"y_true": [1, 2, 3, 1, 2, 3, 1, 2, 3, 1]}
    columns["y_pred_a"] = list(columns["y_true"])
    columns["y_pred_b"] = list(columns["y_true"])
    columns[column][position] = None
    with pytest.raises(WkappaError) as caught:
        wk.paired_kappa_test(*columns.values())
    message = str(caught.value)
    assert f"`{column}` has a missing rating" in message and f"position {position}" in message
    assert "nan_policy='omit'" in message and "propagate" not in message


def test_omit_drops_the_items_missing_any_rating() -> None:
    options = {"n_resamples": 199, "rng": 3, "weights": "linear"}
    omitted = wk.paired_kappa_test(TRUTH, PRED_A, PRED_B, nan_policy="omit", **options)
    complete = wk.paired_kappa_test(
        _at(TRUTH, COMPLETE), _at(PRED_A, COMPLETE), _at(PRED_B, COMPLETE), **options
    )
    assert omitted.to_dict() == complete.to_dict() and omitted.n == len(COMPLETE)


def test_omit_with_nan_and_pandas_na() -> None:
    pd = pytest.importorskip("pandas")
    options = {"n_resamples": 99, "rng": 0}
    truth = np.array([np.nan if v is None else v for v in TRUTH])
    pred_a = pd.Series(PRED_A, dtype="Int64")
    omitted = wk.paired_kappa_test(truth, pred_a, PRED_B, nan_policy="omit", **options)
    complete = wk.paired_kappa_test(
        _at(TRUTH, COMPLETE), _at(PRED_A, COMPLETE), _at(PRED_B, COMPLETE), **options
    )
    assert omitted.to_dict() == complete.to_dict()


def test_omit_with_strings() -> None:
    names = {1: "lo", 2: "mid", 3: "hi"}

    def text(values: list[object]) -> list[object]:
        return [None if v is None else names[v] for v in values]  # type: ignore[index]

    options = {"n_resamples": 99, "rng": 0, "labels": ["lo", "mid", "hi"]}
    omitted = wk.paired_kappa_test(
        text(TRUTH), text(PRED_A), text(PRED_B), nan_policy="omit", **options
    )
    complete = wk.paired_kappa_test(
        *(_at(text(v), COMPLETE) for v in (TRUTH, PRED_A, PRED_B)), **options
    )
    assert omitted.to_dict() == complete.to_dict()


def test_omit_with_cluster_drops_the_items_and_their_ids() -> None:
    cluster = ["p", "p", "q", "q", "r", "r", "s", "s", "t", "t", "u", "u"]
    options = {"n_resamples": 99, "rng": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewClustersWarning)
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # replicates of few items
        omitted = wk.paired_kappa_test(
            TRUTH, PRED_A, PRED_B, nan_policy="omit", cluster=cluster, **options
        )
        complete = wk.paired_kappa_test(
            *(_at(v, COMPLETE) for v in (TRUTH, PRED_A, PRED_B)),
            cluster=_at(cluster, COMPLETE),  # type: ignore[arg-type]
            **options,
        )
    assert omitted.to_dict() == complete.to_dict() and omitted.n_clusters == 6


def test_omit_of_every_item_is_undefined() -> None:
    with pytest.warns(UndefinedKappaWarning, match="undefined"):
        result = wk.paired_kappa_test(
            [None, 1], [1, None], [1, 1], nan_policy="omit", n_resamples=9
        )
    assert math.isnan(result.difference) and result.n == 0


def test_propagate_and_bad_policies_are_refused() -> None:
    with pytest.raises(WkappaError, match="'propagate' has no meaning for a test result"):
        wk.paired_kappa_test([1, 2], [1, 2], [1, 2], nan_policy="propagate")
    with pytest.raises(WkappaError, match="nan_policy"):
        wk.paired_kappa_test([1, 2], [1, 2], [1, 2], nan_policy="drop")  # type: ignore[arg-type]


def test_min_and_max_rating_fix_the_categories() -> None:
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 4, 200)
    a, b = np.clip(truth + rng.integers(-1, 2, (2, 200)), 1, 3)
    result = wk.paired_kappa_test(
        truth, a, b, min_rating=0, max_rating=5, weights="linear", n_resamples=99, rng=0
    )
    assert result.labels == (0, 1, 2, 3, 4, 5)
    bounds = {"min_rating": 0, "max_rating": 5, "weights": "linear"}
    assert result.statistic_a == wk.weighted_kappa(truth, a, **bounds)  # type: ignore[arg-type]
    assert result.statistic_b == wk.weighted_kappa(truth, b, **bounds)  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match=r"`y_pred_b` contains the rating 3, above `max_rating`"):
        wk.paired_kappa_test(np.minimum(truth, 2), np.minimum(a, 2), b, max_rating=2)
    with pytest.raises(WkappaError, match="min_rating"):
        wk.paired_kappa_test(truth, a, b, min_rating=3, max_rating=1)


PANEL = [[1, 2, 1], [2, 2, 2], [1, 1, 2], [2, 1, 2], [1, 2, 2], [2, 2, 1], [1, 1, 1], [2, 2, 2]]
CANDIDATE = [1, 2, 2, 1, 1, 2, 1, 2]


def test_panel_raise_names_the_candidate_or_the_member() -> None:
    candidate = [1, None, 2, 1, 1, 2, 1, 2]
    with pytest.raises(WkappaError) as caught:
        wk.rater_vs_panel(PANEL, candidate, nan_policy="raise")
    message = str(caught.value)
    assert "`candidate` has a missing rating" in message and "position 1" in message
    assert "nan_policy='omit'" in message and "propagate" not in message
    panel = [list(row) for row in PANEL]
    panel[3][1] = None
    with pytest.raises(WkappaError) as caught:
        wk.rater_vs_panel(panel, CANDIDATE, nan_policy="raise", cluster=[0, 0, 1, 1, 2, 2, 3, 3])
    message = str(caught.value)
    assert "`ratings` has a missing rating" in message and "item 3, rater 1" in message
    assert "propagate" not in message


def test_panel_omit_is_the_default_and_complete_ratings_pass_raise() -> None:
    candidate = [1, None, 2, 1, 1, 2, 1, 2]
    options = {"n_resamples": 99, "rng": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # replicates of few items
        default = wk.rater_vs_panel(PANEL, candidate, **options)
        omitted = wk.rater_vs_panel(PANEL, candidate, nan_policy="omit", **options)
        complete = wk.rater_vs_panel(PANEL, CANDIDATE, **options)
        raised = wk.rater_vs_panel(PANEL, CANDIDATE, nan_policy="raise", **options)
    assert default.to_dict() == omitted.to_dict()
    assert complete.to_dict() == raised.to_dict()


def test_panel_propagate_is_refused() -> None:
    with pytest.raises(WkappaError, match="'propagate' has no meaning for a comparison result"):
        wk.rater_vs_panel(PANEL, CANDIDATE, nan_policy="propagate")


def test_frames_panel_nan_policy(frame_library: Any) -> None:
    from wkappa import frames

    columns = {name: [row[g] for row in PANEL] for g, name in enumerate("abc")}
    columns["judge"] = [1, None, 2, 1, 1, 2, 1, 2]
    frame = frame_library.frame(columns)
    options = {"candidate": "judge", "raters": ["a", "b", "c"], "n_resamples": 99, "rng": 0}
    with pytest.raises(WkappaError) as caught:
        frames.rater_vs_panel(frame, nan_policy="raise", **options)
    message = str(caught.value)
    assert "missing rating" in message and "'judge'" in message and "propagate" not in message
    with pytest.raises(WkappaError, match="'propagate' has no meaning"):
        frames.rater_vs_panel(frame, nan_policy="propagate", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        omitted = frames.rater_vs_panel(frame, nan_policy="omit", **options)
        arrays = wk.rater_vs_panel(PANEL, columns["judge"], n_resamples=99, rng=0)
    assert omitted.to_dict() == arrays.to_dict()
