"""The item bootstrap of a difference (paired_kappa_test, rater_vs_panel) on 1 or 2 items:
its interval and p-value are nan, with one warning pointing at the caller's line. With 2 items
the interval was the estimate itself ([d, d], the two resamples of one item twice left the
coefficients undefined) or the range of 3 values, and one item gave p = 0.01."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning

PANEL = [[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, 1]]
CANDIDATE = [1, 2, 3, 1]


def _only_warning(call):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    assert [w.category for w in caught] == [UndefinedKappaWarning], [str(w.message) for w in caught]
    assert caught[0].filename == __file__  # points at the caller's line
    return result, str(caught[0].message)


@pytest.mark.parametrize("coefficient", ["conger", "percent", "gwet", "fleiss"])
def test_panel_of_two_items_has_no_interval(coefficient: str) -> None:
    result, message = _only_warning(
        lambda: wk.rater_vs_panel(
            PANEL[:2], CANDIDATE[:2], coefficient=coefficient, n_resamples=199, rng=0
        )
    )
    assert "need at least 3 items, and there are 2 items" in message
    assert "3 distinct resamples" in message and "Hint: rate more items." in message
    assert not math.isnan(result.difference)  # the estimate stays
    ci = result.confidence_interval()
    assert math.isnan(ci.low) and math.isnan(ci.high) and math.isnan(result.pvalue)
    assert result.to_dict()["pvalue"] is None
    assert "interval undefined" in result.explain()


def test_panel_of_one_item_has_no_interval_whatever_the_coefficient() -> None:
    result, message = _only_warning(
        lambda: wk.rater_vs_panel(
            PANEL[:1], CANDIDATE[:1], coefficient="percent", n_resamples=199, rng=0
        )
    )
    assert "there is 1 item: their bootstrap has only 1 distinct resample." in message
    assert math.isnan(result.pvalue)  # it was 0.01: one item "significant"
    assert math.isnan(result.confidence_interval().low)


def test_three_items_are_resampled() -> None:
    result = wk.rater_vs_panel(PANEL[:3], CANDIDATE[:3], coefficient="percent", rng=0)
    ci = result.confidence_interval()
    assert ci.low < ci.high and 0 < result.pvalue <= 1


def test_paired_test_on_two_items_has_no_interval() -> None:
    result, message = _only_warning(
        lambda: wk.paired_kappa_test([0, 1], [0, 1], [1, 1], n_resamples=99, rng=0)
    )
    assert "there are 2 items" in message
    assert result.difference == 1.0  # both kappas are defined
    assert math.isnan(result.pvalue) and math.isnan(result.confidence_interval().high)
    text = result.explain()
    assert "Too few items to resample" in text and "Nothing to compare" not in text
    assert "left a kappa undefined" not in text


def test_two_clusters_are_still_resampled() -> None:
    """Clusters keep their rule (2 at least, a FewClustersWarning below 8): a cluster
    brings its items."""
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 40)
    a = np.where(rng.random(40) < 0.8, truth, rng.integers(0, 3, 40))
    b = np.where(rng.random(40) < 0.6, truth, rng.integers(0, 3, 40))
    with pytest.warns(wk.FewClustersWarning):
        result = wk.paired_kappa_test(truth, a, b, cluster=np.repeat([0, 1], 20), rng=0)
    assert not math.isnan(result.pvalue)
