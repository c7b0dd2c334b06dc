"""The one p-value of a normal or Student-t statistic (``wkappa._stats.pvalues``), against
scipy.stats, and the tests that take their p-value from it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa._stats.pvalues import tail_pvalue

scipy_stats = pytest.importorskip("scipy.stats")

finite = st.floats(-40.0, 40.0, allow_nan=False)
dfs = st.one_of(st.none(), st.floats(1.0, 500.0))


def _scipy(statistic: float, alternative: str, df: float | None) -> float:
    dist = scipy_stats.norm if df is None else scipy_stats.t(df)
    if alternative == "greater":
        return float(dist.sf(statistic))
    if alternative == "less":
        return float(dist.cdf(statistic))
    return min(1.0, 2.0 * float(dist.sf(abs(statistic))))


@settings(max_examples=200, deadline=None)
@given(finite, st.sampled_from(["two-sided", "greater", "less"]), dfs)
def test_matches_scipy(statistic: float, alternative: str, df: float | None) -> None:
    expected = _scipy(statistic, alternative, df)
    # scipy's t tail goes through the incomplete beta function of df / (df + t**2), which
    # loses t**2 below df * 2**-52: near the centre (p above 0.1) it is good to about 1e-8
    # (p = 0.99999999051 for t = 1e-8, df = 1, where the exact value is 0.99999999363; see
    # test_cauchy_tails_are_exact). Small p-values are compared to 1e-9 relative.
    near_centre = df is not None and expected > 0.1
    tolerance = 1e-8 if near_centre else 1e-300
    assert tail_pvalue(statistic, alternative, df) == pytest.approx(
        expected, rel=1e-9, abs=tolerance
    )


@pytest.mark.parametrize("t", [1e-12, 1e-8, 1e-4, 0.5, 3.0, 40.0])
def test_cauchy_tails_are_exact(t: float) -> None:
    """t with 1 df is the Cauchy distribution: two-sided p = 1 - 2 atan(|t|) / pi."""
    exact = 1.0 - 2.0 * math.atan(t) / math.pi
    assert tail_pvalue(t, "two-sided", 1.0) == pytest.approx(exact, rel=1e-12)
    assert tail_pvalue(-t, "greater", 1.0) == pytest.approx(1.0 - exact / 2.0, rel=1e-12)


@pytest.mark.parametrize("df", [None, 7.0])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_nan_statistic_gives_nan_not_one(alternative: str, df: float | None) -> None:
    # min(1.0, nan) is 1.0 in Python: a nan statistic must not become p = 1.
    assert math.isnan(tail_pvalue(math.nan, alternative, df))


@pytest.mark.parametrize("df", [None, 3.0])
def test_infinite_statistic(df: float | None) -> None:
    assert tail_pvalue(math.inf, "greater", df) == 0.0
    assert tail_pvalue(math.inf, "less", df) == 1.0
    assert tail_pvalue(-math.inf, "two-sided", df) == 0.0


def test_two_sided_is_twice_the_smaller_tail() -> None:
    for z in np.linspace(-5, 5, 41):
        for df in (None, 4.0):
            smaller = min(tail_pvalue(z, "greater", df), tail_pvalue(z, "less", df))
            assert tail_pvalue(z, "two-sided", df) == min(1.0, 2.0 * smaller)


def test_tests_agree_on_the_pvalue_of_their_statistic() -> None:
    """kappa_test (normal), agreement (t with n - 1), stratified strata (normal) and CCC (t
    with n - 1 for several raters, normal for Lin's) all report tail_pvalue of their
    statistic."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, 80)
    b = np.clip(a + rng.integers(-1, 2, 80), 0, 3)
    result = wk.kappa_test(a, b, alternative="greater")
    assert result.pvalue == tail_pvalue(result.test_statistic, "greater")
    ratings = np.column_stack([a, b, np.clip(b + rng.integers(-1, 2, 80), 0, 3)])
    several = wk.agreement(ratings, coefficient="fleiss", alternative="less")
    t = several.statistic / several.standard_error
    assert several.pvalue == tail_pvalue(t, "less", several.n_items - 1)
    strata = wk.stratified_kappa_test(a, b, strata=np.arange(80) % 2)
    for stratum in strata.results:
        assert stratum.pvalue == tail_pvalue(stratum.test_statistic, "two-sided")
