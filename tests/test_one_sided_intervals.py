"""Intervals honour ``alternative`` on every result, for every method, as scipy.stats does.

'greater' gives (one-sided lower limit at the level, the coefficient's upper bound), 'less'
(the lower bound, one-sided upper limit). The one-sided limit at level gamma is the matching
limit of the two-sided interval at level 2 gamma - 1; the direct formulas (normal, t, Lin's z,
bootstrap quantile) are checked independently below.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import WkappaError

stats = pytest.importorskip("scipy.stats")

_RNG = np.random.default_rng(7)
TRUTH = _RNG.integers(0, 4, 80)
PRED = np.clip(TRUTH + _RNG.integers(-1, 2, 80), 0, 3)
OTHER = np.clip(TRUTH + _RNG.integers(-2, 3, 80), 0, 3)
RATINGS = np.column_stack([TRUTH, PRED, OTHER, np.clip(PRED + _RNG.integers(-1, 2, 80), 0, 3)])
CLUSTERS = np.repeat(np.arange(20), 4)
CONTINUOUS = np.column_stack([TRUTH + _RNG.normal(0, 0.5, 80), PRED + _RNG.normal(0, 0.5, 80)])


def _boot(kind: str) -> wk.BootstrapMethod:
    return wk.BootstrapMethod(199, method=kind, rng=3)  # type: ignore[arg-type]


def _kappa(alternative: str) -> Any:
    return wk.kappa_test(TRUTH, PRED, alternative=alternative)


def _clustered(alternative: str) -> Any:
    return wk.kappa_test(TRUTH, PRED, cluster=CLUSTERS, alternative=alternative)


def _agreement(alternative: str) -> Any:
    return wk.agreement(RATINGS, coefficient="fleiss", alternative=alternative)


def _percent(alternative: str) -> Any:
    return wk.agreement(RATINGS, coefficient="percent", alternative=alternative)


def _paired(alternative: str) -> Any:
    result = wk.paired_kappa_test(TRUTH, PRED, OTHER, n_resamples=199, rng=1)
    return dataclasses.replace(result, alternative=alternative)


def _panel(alternative: str) -> Any:
    result = wk.rater_vs_panel(RATINGS[:, :3], RATINGS[:, 3], n_resamples=199, rng=1)
    return dataclasses.replace(result, alternative=alternative)


def _stratified(alternative: str) -> Any:
    strata = np.arange(80) % 2
    return wk.stratified_kappa_test(TRUTH, PRED, strata=strata, alternative=alternative)


def _ccc(alternative: str) -> Any:
    return wk.ccc(CONTINUOUS[:, 0], CONTINUOUS[:, 1], alternative=alternative)


def _ccc_several(alternative: str) -> Any:
    return wk.ccc(np.column_stack([CONTINUOUS, TRUTH]), alternative=alternative)


def _icc(alternative: str) -> Any:
    return wk.icc(CONTINUOUS, form="A,1", alternative=alternative)


def _icc_consistency(alternative: str) -> Any:
    return wk.icc(CONTINUOUS, form="C,k", alternative=alternative)


# (result maker, method keyword or None, the coefficient's (lower, upper) bound)
CASES: dict[str, tuple[Callable[[str], Any], Any, tuple[float, float]]] = {
    "kappa-asymptotic": (_kappa, "asymptotic", (-math.inf, 1.0)),
    "kappa-score": (_kappa, "score", (-math.inf, 1.0)),
    "kappa-fisher-z": (_kappa, "fisher-z", (-math.inf, 1.0)),
    "kappa-percentile": (_kappa, _boot("percentile"), (-math.inf, 1.0)),
    "kappa-bca": (_kappa, _boot("bca"), (-math.inf, 1.0)),
    "kappa-cluster-t": (_clustered, "asymptotic", (-math.inf, 1.0)),
    "kappa-cluster-bootstrap": (_clustered, _boot("percentile"), (-math.inf, 1.0)),
    "agreement-asymptotic": (_agreement, "asymptotic", (-math.inf, 1.0)),
    "agreement-jackknife": (_agreement, "jackknife", (-math.inf, 1.0)),
    "agreement-percentile": (_agreement, _boot("percentile"), (-math.inf, 1.0)),
    "agreement-bca": (_agreement, _boot("bca"), (-math.inf, 1.0)),
    "percent-asymptotic": (_percent, "asymptotic", (0.0, 1.0)),
    "paired-expanded": (_paired, None, (-math.inf, math.inf)),
    "panel-expanded": (_panel, None, (-math.inf, math.inf)),
    "stratified-asymptotic": (_stratified, "asymptotic", (-math.inf, 1.0)),
    "ccc-lin": (_ccc, None, (-1.0, 1.0)),
    "ccc-jackknife": (_ccc_several, None, (-1.0, 1.0)),
    "icc-absolute-F": (_icc, None, (-math.inf, 1.0)),
    "icc-consistency-F": (_icc_consistency, None, (-math.inf, 1.0)),
}

_RESULTS: dict[tuple[str, str], Any] = {}


def _result(name: str, alternative: str) -> Any:
    if (name, alternative) not in _RESULTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _RESULTS[name, alternative] = CASES[name][0](alternative)
    return _RESULTS[name, alternative]


def _interval(result: Any, level: float, method: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method is None:
            return result.confidence_interval(level)
        return result.confidence_interval(level, method=method)


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=4, deadline=None)
@given(level=st.floats(0.55, 0.99), greater=st.booleans())
def test_one_sided_limit_is_the_two_sided_limit_at_twice_the_level_minus_one(
    name: str, level: float, greater: bool
) -> None:
    _, method, (lower, upper) = CASES[name]
    alternative = "greater" if greater else "less"
    one = _interval(_result(name, alternative), level, method)
    two = _interval(_result(name, "two-sided"), 2 * level - 1, method)
    wide = _interval(_result(name, "two-sided"), level, method)
    assert one.confidence_level == level and one.method == two.method
    if greater:
        assert (one.low, one.high) == (two.low, upper)
        assert one.low <= two.high and one.low >= wide.low
    else:
        assert (one.low, one.high) == (lower, two.high)
        assert one.high <= wide.high
    assert one.n_resamples == two.n_resamples


@pytest.mark.parametrize("name", sorted(CASES))
def test_two_sided_intervals_are_unchanged_by_the_rule(name: str) -> None:
    """The default (two-sided) interval is the method's own two-sided one."""
    _, method, _ = CASES[name]
    result = _result(name, "two-sided")
    ci = _interval(result, 0.9, method)
    assert ci.confidence_level == 0.9
    assert ci.low < ci.high


def test_one_sided_asymptotic_limits_are_the_textbook_formulas() -> None:
    level = 0.95
    kappa = _kappa("greater")
    low, high = kappa.confidence_interval(level)
    assert low == pytest.approx(kappa.statistic - stats.norm.ppf(level) * kappa.standard_error)
    assert high == 1.0
    kappa_less = _kappa("less")
    low, high = kappa_less.confidence_interval(level)
    assert low == -math.inf
    assert high == pytest.approx(kappa.statistic + stats.norm.ppf(level) * kappa.standard_error)

    fleiss = _agreement("greater")
    df = fleiss.n_items - 1
    low, high = fleiss.confidence_interval(level)
    assert low == pytest.approx(fleiss.statistic - stats.t.ppf(level, df) * fleiss.standard_error)
    assert high == 1.0

    ccc = _ccc("less")
    low, high = ccc.confidence_interval(level)
    z = math.atanh(ccc.statistic) + stats.norm.ppf(level) * ccc.standard_error_z
    assert (low, high) == (-1.0, pytest.approx(math.tanh(z)))


def test_one_sided_bootstrap_limit_is_the_lower_quantile() -> None:
    """A seeded percentile bootstrap: the one-sided 90% lower limit is the 10% quantile of
    the same replicates (the two-sided 80% interval's lower end)."""
    greater = _kappa("greater").confidence_interval(0.9, method=_boot("percentile"))
    two = _kappa("two-sided").confidence_interval(0.8, method=_boot("percentile"))
    other = _kappa("two-sided").confidence_interval(0.9, method=_boot("percentile"))
    assert greater.low == two.low and greater.low > other.low and greater.high == 1.0


@pytest.mark.parametrize("name", ["kappa-asymptotic", "agreement-asymptotic", "ccc-lin"])
@pytest.mark.parametrize("level", [0.5, 0.3])
def test_one_sided_needs_a_level_above_one_half(name: str, level: float) -> None:
    _, method, _ = CASES[name]
    with pytest.raises(WkappaError, match=r"`confidence_level` must be above 0\.5"):
        _interval(_result(name, "greater"), level, method)
    assert _interval(_result(name, "two-sided"), level, method).confidence_level == level


def test_an_undefined_coefficient_has_no_one_sided_interval() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = wk.kappa_test([1, 1, 1], [1, 1, 1], alternative="greater")
        low, high = result.confidence_interval()
    assert math.isnan(low) and math.isnan(high)


def test_icc_batch_one_sided_intervals_are_arrays() -> None:
    batch = np.stack([CONTINUOUS, CONTINUOUS[::-1] ** 2], axis=-1)
    greater = wk.icc(batch, form="A,1", alternative="greater").confidence_interval(0.9)
    two = wk.icc(batch, form="A,1").confidence_interval(0.8)
    np.testing.assert_array_equal(greater.low, two.low)
    np.testing.assert_array_equal(greater.high, np.ones(2))


@pytest.mark.parametrize(
    ("name", "only"),
    [
        ("paired-expanded", "expanded-percentile"),
        ("panel-expanded", "expanded-percentile"),
        ("ccc-lin", "lin"),
        ("ccc-jackknife", "jackknife"),
        ("icc-absolute-F", "F"),
    ],
)
def test_single_method_results_take_the_method_keyword(name: str, only: str) -> None:
    """Every result's confidence_interval takes method=; these have one method each."""
    result = _result(name, "two-sided")
    named = result.confidence_interval(0.9, method=only)
    default = result.confidence_interval(0.9)
    assert (named.low, named.high, named.method) == (default.low, default.high, default.method)
    bads: list[Any] = ["percentile", 1] if name.startswith("ccc") else ["percentile", None, 1]
    for bad in bads:
        with pytest.raises(WkappaError, match=f"`method` must be '{only}'"):
            result.confidence_interval(0.9, method=bad)


@pytest.mark.parametrize("name", sorted(CASES))
def test_repr_and_explain_say_one_sided(name: str) -> None:
    # Before: '95% CI=[0.77, 1]' in the repr and explain() of a 'greater' result.
    for alternative in ("greater", "less"):
        result = _result(name, alternative)
        assert "one-sided CI=[" in repr(result)
        if hasattr(result, "explain"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                text = result.explain()
            assert "one-sided CI [" in text or "one-sided interval [" in text
    two_sided = _result(name, "two-sided")
    assert "one-sided" not in repr(two_sided)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_agreement_explain_describes_the_one_sided_interval(alternative: str) -> None:
    ratings = [[1, 1, 2], [2, 2, 2], [1, 2, 3], [3, 3, 3], [2, 2, 1], [1, 1, 1]] * 5
    text = wk.agreement(ratings, coefficient="fleiss", alternative=alternative).explain()
    line = next(row for row in text.splitlines() if "interval" in row and "95%" in row)
    assert "±" not in line
    assert ("estimate - t(" if alternative == "greater" else "estimate + t(") in line
    two = wk.agreement(ratings, coefficient="fleiss").explain()
    assert "estimate ± t(" in two


def test_the_docs_table_of_open_ends_lists_every_result_with_an_interval() -> None:
    """inference.md's table of one-sided open ends names each public result class that has
    a confidence_interval, and the example behind 'no lower bound' holds."""
    page = Path(__file__).resolve().parents[1] / "docs" / "user-guide" / "inference.md"
    text = page.read_text(encoding="utf-8")
    table = text[text.index("| Result | 'greater' upper end") :].split("\n\n", 1)[0]
    results = [
        name
        for name in wk.__all__
        if name.endswith(("Result", "Comparison"))
        and inspect.isclass(getattr(wk, name))
        and hasattr(getattr(wk, name), "confidence_interval")
    ]
    assert len(results) >= 8
    for name in results:
        assert f"`{name}`" in table, name
    weights = np.full((4, 4), 0.01)
    np.fill_diagonal(weights, 0.0)
    weights[0, 1] = weights[1, 0] = weights[2, 3] = weights[3, 2] = 1.0
    table_below = np.zeros((4, 4))
    table_below[0, 1] = table_below[1, 0] = table_below[2, 3] = table_below[3, 2] = 5
    assert round(wk.kappa_from_table(table_below, weights=weights), 2) == -2.92
    uncapped = wk.kappa_test_from_table([[10, 1], [0, 9]]).confidence_interval()
    assert (round(uncapped.low, 4), round(uncapped.high, 4)) == (0.7099, 1.0901)
    score = wk.kappa_test_from_table([[10, 1], [0, 9]]).confidence_interval(method="score")
    assert (round(score.low, 4), round(score.high, 4)) == (0.5303, 0.9823)
