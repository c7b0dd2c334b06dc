"""``explain(confidence_level, *, method=...)`` describes exactly the interval
``confidence_interval(confidence_level, method=...)`` returns, on every result with an
interval: the level and the two limits printed in the explanation are read back and compared
with the interval's (to the six significant digits the text prints)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk

# "90% CI [low, high]" or "99% one-sided interval [low, high]": the first interval shown.
_SHOWN = re.compile(r"(\d+(?:\.\d+)?)% (?:one-sided )?(?:CI|interval) \[([^,\]]+), ([^\]]+)\]")
_LEVELS = (0.9, 0.99)


def _shown(text: str) -> tuple[float, float, float]:
    """The level and limits of the first interval the explanation prints."""
    found = _SHOWN.search(text)
    assert found is not None, text
    return float(found[1]) / 100, float(found[2]), float(found[3])


def _printed(value: float) -> float:
    """A limit as the explanation prints it: six significant digits."""
    return float(format(value, ".6g"))


def _check(result: Any, level: float | None, method: Any) -> str:
    ci = result.confidence_interval(level, method=method)
    text = result.explain(level, method=method)
    shown = (ci.confidence_level, _printed(ci.low), _printed(ci.high))
    assert _shown(text) == shown, text
    assert level is None or ci.confidence_level == level
    return text


@pytest.fixture(scope="module")
def ratings() -> np.ndarray:
    rng = np.random.default_rng(20261127)
    truth = rng.integers(0, 4, 60)
    return np.column_stack(
        [np.clip(truth + rng.integers(-1, 2, 60), 0, 3) for _ in range(4)] + [truth]
    )


def _bootstraps() -> list[wk.BootstrapMethod]:
    return [wk.BootstrapMethod(199, method=name, rng=3) for name in ("percentile", "bca")]


_KAPPA_METHODS = ["asymptotic", "score", "fisher-z", *_bootstraps()]
_AGREEMENT_METHODS = [
    "asymptotic", "fisher-z", "fisher-z-adjusted", "fisher-z-jackknife", "jackknife",
    *_bootstraps(),
]  # fmt: skip


@pytest.mark.parametrize("level", _LEVELS)
@pytest.mark.parametrize("method", _KAPPA_METHODS, ids=str)
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_kappa_result(ratings, level, method, alternative) -> None:
    result = wk.kappa_test(ratings[:, 0], ratings[:, -1], alternative=alternative)
    text = _check(result, level, method)
    if method in ("score", "fisher-z"):
        assert f"({method}" in text.replace("Fisher-z", "fisher-z")
    if isinstance(method, wk.BootstrapMethod):
        assert f"{method.method if method.method == 'percentile' else 'BCa'} bootstrap" in text


@pytest.mark.parametrize("level", _LEVELS)
@pytest.mark.parametrize("method", ["asymptotic", *_bootstraps()], ids=str)
def test_clustered_kappa_result(ratings, level, method) -> None:
    clusters = np.repeat(np.arange(20), 3)
    result = wk.kappa_test(ratings[:, 0], ratings[:, -1], cluster=clusters)
    text = _check(result, level, method)
    assert ("whole clusters redrawn" in text) == isinstance(method, wk.BootstrapMethod)
    # The few-clusters advice is about the large-sample interval only.
    assert ("Few clusters" in text) == (method == "asymptotic")


def test_kappa_small_sample_advice_at_the_level() -> None:
    result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
    text = result.explain(0.9)
    assert "less than 90% of the time" in text
    low, high = result.confidence_interval(0.9, method="score")
    assert f"keeps its level at small n: 90% CI [{low:.6g}, {high:.6g}]" in text
    # Asked for the score interval, the explanation shows it and gives no advice.
    assert "Small sample" not in result.explain(0.9, method="score")


@pytest.mark.parametrize("level", _LEVELS)
@pytest.mark.parametrize("method", _AGREEMENT_METHODS, ids=str)
@pytest.mark.parametrize("coefficient", ["fleiss", "gwet"])
def test_agreement_result(ratings, level, method, coefficient) -> None:
    result = wk.agreement(ratings[:, :4], coefficient=coefficient, weights="quadratic")
    text = _check(result, level, method)
    words = {"jackknife": "jackknife SE", "fisher-z-adjusted": "adjusted", "fisher-z": "Fisher"}
    for name, said in words.items():
        if method == name:
            assert said in text.splitlines()[5], text
    # The small-sample advice follows the asymptotic and jackknife intervals, at the level.
    advised = method in ("asymptotic", "jackknife")
    assert ("is recommended" in text) == advised
    if advised:
        better = wk.agreement(ratings[:, :4], coefficient=coefficient, weights="quadratic")
        low, high = better.confidence_interval(level, method="fisher-z-adjusted")
        assert f"is recommended, [{low:.6g}, {high:.6g}]" in text


@pytest.mark.parametrize("level", _LEVELS)
def test_agreement_one_sided(ratings, level) -> None:
    result = wk.agreement(ratings[:, :4], alternative="greater")
    assert "one-sided" in _check(result, level, "asymptotic")


@pytest.mark.parametrize("level", _LEVELS)
@pytest.mark.parametrize("form", ["1,1", "C,k", "A,1"])
def test_icc_result(ratings, level, form) -> None:
    _check(wk.icc(ratings.astype(float), form=form), level, "F")


@pytest.mark.parametrize("level", _LEVELS)
@pytest.mark.parametrize("raters", [2, 4])
def test_ccc_result(ratings, level, raters) -> None:
    result = wk.ccc(ratings[:, :raters].astype(float))
    _check(result, level, None)
    _check(result, level, result.method)


@pytest.mark.parametrize("level", _LEVELS)
def test_panel_comparison(ratings, level) -> None:
    result = wk.rater_vs_panel(ratings[:, :4], ratings[:, 4], n_resamples=199, rng=0)
    _check(result, level, "expanded-percentile")


@pytest.mark.parametrize("level", _LEVELS)
def test_stratified_result(ratings, level) -> None:
    strata = np.repeat(["a", "b", "c"], 20)
    result = wk.stratified_kappa_test(ratings[:, 0], ratings[:, -1], strata=strata)
    _check(result, level, "asymptotic")


@pytest.mark.parametrize("level", _LEVELS)
@pytest.mark.parametrize("method", ["jackknife-t", *_bootstraps()], ids=str)
def test_group_agreement_result(ratings, level, method) -> None:
    result = wk.group_agreement(ratings[:, :2], ratings[:, 2:4])
    text = _check(result, level, method)
    assert ("items redrawn" in text) == isinstance(method, wk.BootstrapMethod)


@pytest.mark.parametrize("level", [*_LEVELS, None])
def test_paired_result(ratings, level) -> None:
    result = wk.paired_kappa_test(
        ratings[:, -1], ratings[:, 0], ratings[:, 1], n_resamples=199, rng=0,
        confidence_level=0.8,
    )  # fmt: skip
    text = _check(result, level, "expanded-percentile")
    # The reading of the p-value is at the level shown (None: the stored 80%).
    alpha = 1 - (0.8 if level is None else level)
    assert f"at the {alpha * 100:g}% level" in text
    assert _shown(text)[0] == (0.8 if level is None else level)


def test_explain_takes_the_signature_of_confidence_interval() -> None:
    """Every result with an interval: explain's parameters are confidence_interval's, with
    the same defaults; the results without one keep explain()."""
    with_interval = [
        wk.KappaResult, wk.AgreementResult, wk.ICCResult, wk.CCCResult, wk.PanelComparison,
        wk.StratifiedKappaResult, wk.GroupAgreementResult, wk.PairedKappaResult,
    ]  # fmt: skip
    for cls in with_interval:
        ours: Callable[..., Any] = cls.explain
        theirs: Callable[..., Any] = cls.confidence_interval
        assert inspect.signature(ours).parameters == inspect.signature(theirs).parameters, cls
    for cls in (wk.ThresholdResult, wk.KappaPlan):
        assert list(inspect.signature(cls.explain).parameters) == ["self"]


def test_a_level_not_shown_rounded() -> None:
    """97.5% is printed as 97.5%, not a rounded 98%."""
    result = wk.kappa_test_from_table([[30, 5, 1], [4, 25, 6], [1, 5, 30]])
    assert _shown(result.explain(0.975))[0] == 0.975


def test_a_bad_level_is_refused_as_by_confidence_interval() -> None:
    result = wk.kappa_test_from_table([[30, 5, 1], [4, 25, 6], [1, 5, 30]])
    with pytest.raises(wk.WkappaError, match="confidence_level"):
        result.explain(95)


def test_the_repr_of_a_stored_level_is_not_rounded(ratings) -> None:
    result = wk.paired_kappa_test(
        ratings[:, -1], ratings[:, 0], ratings[:, 1], n_resamples=99, rng=0,
        confidence_level=0.975,
    )  # fmt: skip
    assert "97.5% CI=[" in repr(result)
