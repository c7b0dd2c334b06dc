"""Every item bootstrap on 1 or 2 items: its interval (and p-value) is nan, with one warning
pointing at the caller's line. For a difference (paired_kappa_test, rater_vs_panel) 2 items
gave the estimate itself ([d, d], the two resamples of one item twice left the coefficients
undefined) or the range of 3 values, and one item gave p = 0.01; for one coefficient
(kappa_test, agreement, group_agreement) 2 items gave the range of its 3 resamples' values,
and one pair of kappa_test the interval [kappa, kappa]."""

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


BOOTSTRAPS = [
    "bootstrap",
    "bca",
    wk.BootstrapMethod(method="percentile", n_resamples=199, rng=0),
    wk.BootstrapMethod(method="bca", n_resamples=199, rng=0),
]
SINGLE = {
    "kappa_test": lambda n: wk.kappa_test([1, 2, 3][:n], [1, 3, 3][:n], labels=[1, 2, 3]),
    "kappa_test_one_sided": lambda n: wk.kappa_test(
        [1, 2, 3][:n], [1, 3, 3][:n], labels=[1, 2, 3], alternative="greater"
    ),
    "agreement": lambda n: wk.agreement(
        [[1, 2, 2], [3, 3, 1], [2, 2, 2]][:n], coefficient="conger"
    ),
    "group_agreement": lambda n: wk.group_agreement(
        [[1, 2, 2], [3, 3, 1], [2, 2, 2]][:n], [[1, 1, 2], [2, 2, 2], [3, 3, 3]][:n]
    ),
}


def _quiet(call):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():  # the result's own warnings are not under test
        warnings.simplefilter("ignore")
        return call()


@pytest.mark.parametrize("method", BOOTSTRAPS, ids=str)
@pytest.mark.parametrize("entry", sorted(SINGLE))
def test_one_coefficient_on_two_items_has_no_bootstrap_interval(entry: str, method) -> None:  # type: ignore[no-untyped-def]
    result = _quiet(lambda: SINGLE[entry](2))
    assert not math.isnan(result.statistic)
    ci, message = _only_warning(lambda: result.confidence_interval(method=method))
    assert math.isnan(ci.low) and math.isnan(ci.high)
    assert (ci.n_resamples, ci.n_undefined) == (0, 0)  # nothing was drawn
    assert message.startswith("The bootstrap interval needs at least 3 items, and there are 2")
    assert "3 distinct resamples. Returning nan for it." in message
    text, _ = _only_warning(lambda: result.explain(method=method))
    assert "bootstrap, too few items to resample" in text


@pytest.mark.parametrize("entry", sorted(SINGLE))
def test_one_coefficient_on_three_items_is_resampled(entry: str) -> None:
    result = _quiet(lambda: SINGLE[entry](3))
    ci = _quiet(lambda: result.confidence_interval(method=BOOTSTRAPS[2]))
    assert ci.low < ci.high and ci.n_resamples == 199


def test_one_pair_has_no_bootstrap_interval() -> None:
    """It was [kappa, kappa]: every resample is the one pair. The one warning, when the
    result is built, says that every interval of a single pair is nan."""
    result, message = _only_warning(lambda: wk.kappa_test([1], [2], labels=[1, 2, 3]))
    assert "every interval are undefined for a single pair" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = result.confidence_interval(method="bootstrap")
    assert math.isnan(ci.low) and math.isnan(ci.high)


def test_clustered_kappa_keeps_its_cluster_rule() -> None:
    truth = [1, 2, 3, 1, 2, 3, 2, 2]
    result = _quiet(
        lambda: wk.kappa_test(truth, [1, 2, 3, 2, 2, 3, 1, 2], cluster=[0, 0, 1, 1, 2, 2, 3, 3])
    )
    ci = _quiet(lambda: result.confidence_interval(method=BOOTSTRAPS[2]))
    assert ci.n_resamples == 199
