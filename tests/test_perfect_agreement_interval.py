"""Kappa = 1 (no pair disagrees): the default 'asymptotic' interval is [1, 1] (a standard
error of 0, as SAS, statsmodels and R's irr give it), a certainty 20 pairs cannot give. It
still returns [1, 1], now with a warning that points to method='score', whose lower limit is
below 1; the repr stays quiet."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import wkappa as wk

pytestmark = pytest.mark.filterwarnings("error")

PERFECT = np.diag([8, 7, 5])  # 20 pairs, no disagreement
HINT = r"The '{}' interval is \[1, 1\]: kappa is 1 .* Hint: method='score' gives an interval"


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_the_default_interval_at_kappa_one_warns_and_points_to_score(weights: str) -> None:
    result = wk.kappa_test_from_table(PERFECT, weights=weights)
    assert result.statistic == 1.0 and result.standard_error == 0.0
    with pytest.warns(wk.PerfectAgreementWarning, match=HINT.format("asymptotic")):
        ci = result.confidence_interval()
    assert (ci.low, ci.high) == (1.0, 1.0)  # kept: SAS's and statsmodels' interval
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        score = result.confidence_interval(method="score")
        fisher = result.confidence_interval(method="fisher-z")
    assert 0.0 < score.low < 0.9 and score.high == 1.0
    assert fisher.low < 0.9 and fisher.high == 1.0


def test_one_sided_intervals_warn_too_and_the_bootstrap_is_documented() -> None:
    """The bootstrap's [1, 1] (every resample agrees perfectly) is not warned about: the
    small-samples guide says so, and its other warnings (undefined replicates) come first."""
    greater = wk.kappa_test_from_table(PERFECT, alternative="greater")
    with pytest.warns(wk.PerfectAgreementWarning, match=HINT.format("asymptotic")):
        assert tuple(greater.confidence_interval()) == (1.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = wk.kappa_test_from_table(PERFECT).confidence_interval(
            method=wk.BootstrapMethod(99, rng=0)
        )
    assert (ci.low, ci.high) == (1.0, 1.0)


def test_every_entry_point_warns_and_the_repr_does_not() -> None:
    truth = np.repeat([0, 1, 2], [8, 7, 5])
    results = [
        wk.kappa_test(truth, truth),
        wk.KappaAccumulator([0, 1, 2]).update(truth, truth).result(),
    ]
    for result in results:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert "CI=[1, 1]" in repr(result)
        with pytest.warns(wk.PerfectAgreementWarning, match=HINT.format("asymptotic")):
            result.to_dict()


def test_below_one_nothing_changes() -> None:
    table = PERFECT.copy()
    table[0, 1] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = wk.kappa_test_from_table(table).confidence_interval()
    assert ci.low < ci.high
