"""ICC study planning: icc_sample_size and icc_power.

Published sample sizes (tests/published.py names each source: R ICC.Sample.Size for Walter,
Eliasziw & Donner's closed form, Bonett's worked example and R presize for his width
formula); the exact power, assurance and expected width against an independent computation
with scipy.stats.f and scipy.integrate; the planned n is the smallest meeting the goal;
power rises with n and with icc1 - icc0; the promised power and width hold in studies
simulated from the random-effects model and analysed by wkappa.icc; bad input.
"""

from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

import wkappa as wk
from budget import examples
from published import ICC_PLAN_PRINTOUTS, PRESIZE_ICC_WIDTH, PlanPrintout
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")


def _theta(rho: float, k: int) -> float:
    return (1 + (k - 1) * rho) / (1 - rho)


def _dfs(n: int, k: int, form: str) -> tuple[int, int]:
    return n - 1, (n - 1) * (k - 1) if form[0] == "C" else n * (k - 1)


def _single(value: float, k: int, form: str) -> float:
    return value / (k - (k - 1) * value) if form[2] == "k" else value


def _scipy_power(
    n: int, k: int, icc1: float, icc0: float, alpha: float, alternative: str, form: str
) -> float:
    """The F test's power, written independently: the test statistic F_obs / theta(rho0)
    with F_obs = theta(rho1) X, X ~ F(d1, d2)."""
    d1, d2 = _dfs(n, k, form)
    r1, r0 = _single(icc1, k, form), _single(icc0, k, form)
    shift = _theta(r1, k) / _theta(r0, k)  # test statistic = shift * X
    dist = stats.f(d1, d2)
    if alternative == "greater":
        return float(dist.sf(dist.ppf(1 - alpha) / shift))
    if alternative == "less":
        return float(dist.cdf(dist.ppf(alpha) / shift))
    return float(dist.sf(dist.ppf(1 - alpha / 2) / shift) + dist.cdf(dist.ppf(alpha / 2) / shift))


def _scipy_width(n: int, k: int, icc1: float, level: float, form: str) -> float:
    """E[high - low] of the exact F interval (the limits as McGraw & Wong's Table 7 writes
    them), integrated against scipy's F density."""
    d1, d2 = _dfs(n, k, form)
    scale = _theta(_single(icc1, k, form), k)
    fu = stats.f.ppf((1 + level) / 2, d1, d2)
    fl = stats.f.ppf((1 - level) / 2, d1, d2)

    def width(x: float) -> float:
        f_obs = scale * x
        f_low, f_high = f_obs / fu, f_obs / fl
        if form[2] == "k":
            return (1 - 1 / f_high) - (1 - 1 / f_low)
        return (f_high - 1) / (f_high + k - 1) - (f_low - 1) / (f_low + k - 1)

    value, _ = integrate.quad(lambda x: width(x) * stats.f.pdf(x, d1, d2), 0, np.inf, limit=400)
    return float(value)


# ------------------------------------------------------------------------- published values


@pytest.mark.parametrize("printout", ICC_PLAN_PRINTOUTS, ids=lambda p: str(p.n))
def test_published_sample_sizes(printout: PlanPrintout) -> None:
    plan = wk.icc_sample_size(**printout.call)  # type: ignore[arg-type]
    assert plan.n == printout.n, printout.source


def test_presize_width_at_a_given_n() -> None:
    call, n, width = PRESIZE_ICC_WIDTH
    plan = wk.icc_power(n, **call)  # type: ignore[arg-type]
    assert plan.expected_width == pytest.approx(width, abs=5e-8)


def test_walter_closed_form() -> None:
    """method='approximate' is Walter et al.'s formula, rounded up (two-sided: z_{1-alpha/2})."""
    z = stats.norm.ppf
    for k, r1, r0, alternative in ((2, 0.9, 0.7, "two-sided"), (5, 0.6, 0.4, "greater")):
        c0 = (1 + k * r0 / (1 - r0)) / (1 + k * r1 / (1 - r1))
        za = z(1 - 0.05 / 2) if alternative == "two-sided" else z(0.95)
        n = 1 + 2 * (za + z(0.9)) ** 2 * k / (math.log(c0) ** 2 * (k - 1))
        plan = wk.icc_sample_size(
            icc1=r1, icc0=r0, n_raters=k, power=0.9, alternative=alternative,
            method="approximate",
        )  # fmt: skip
        assert plan.n == math.ceil(n)


# ---------------------------------------------------------------- exactness against scipy


@settings(max_examples=examples(60), deadline=None)
@given(
    n=st.integers(2, 400),
    k=st.integers(2, 8),
    icc0=st.floats(0.0, 0.95),
    icc1=st.floats(-0.2, 0.98),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
    alternative=st.sampled_from(["greater", "less", "two-sided"]),
    form=st.sampled_from(["1,1", "C,1", "1,k", "C,k"]),
)
def test_exact_power_matches_scipy(
    n: int, k: int, icc0: float, icc1: float, alpha: float, alternative: str, form: str
) -> None:
    if form[2] == "1":
        icc1 = max(icc1, -1 / (k - 1) + 0.01)
    plan = wk.icc_power(
        n, icc1=icc1, icc0=icc0, n_raters=k, alpha=alpha, alternative=alternative, form=form
    )
    expected = _scipy_power(n, k, icc1, icc0, alpha, alternative, form)
    assert plan.power == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert (plan.df1, plan.df2) == _dfs(n, k, form)


@pytest.mark.parametrize("form", ["1,1", "C,1", "1,k", "C,k"])
@pytest.mark.parametrize(("n", "k", "icc1"), [(5, 2, 0.3), (26, 3, 0.8), (120, 4, 0.95)])
def test_exact_width_matches_scipy_integral(form: str, n: int, k: int, icc1: float) -> None:
    plan = wk.icc_power(n, icc1=icc1, n_raters=k, form=form, confidence_level=0.9)
    assert plan.expected_width == pytest.approx(_scipy_width(n, k, icc1, 0.9, form), rel=1e-7)


def test_average_forms_have_no_mean_width_with_three_subjects() -> None:
    assert wk.icc_power(3, icc1=0.8, n_raters=3, form="C,k").expected_width == math.inf
    assert math.isfinite(wk.icc_power(4, icc1=0.8, n_raters=3, form="C,k").expected_width)


def test_assurance_is_the_chance_the_exact_lower_limit_clears() -> None:
    """P(lower limit > L), with the lower limit (F/fU - 1) / (F/fU + k - 1) over F's law."""
    n, k, icc1, limit, level = 40, 3, 0.8, 0.6, 0.95
    plan = wk.icc_power(n, icc1=icc1, n_raters=k, lower_limit=limit, confidence_level=level)
    d1, d2 = _dfs(n, k, "1,1")
    fu = stats.f.ppf((1 + level) / 2, d1, d2)
    # lower limit > L  <=>  F_obs > fU theta(L)
    expected = stats.f.sf(fu * _theta(limit, k) / _theta(icc1, k), d1, d2)
    assert plan.assurance == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("form", ["1,1", "C,1", "C,k"])
@pytest.mark.parametrize(("n", "k", "icc1", "width"), [(21, 4, 0.85, 0.2), (60, 2, 0.5, 0.4)])
def test_width_assurance_matches_an_independent_computation(
    form: str, n: int, k: int, icc1: float, width: float
) -> None:
    """P(width <= w): the F values where the width crosses w found by brentq on each side of
    the width's maximum (a grid search), their probabilities from scipy.stats.f."""
    from scipy.optimize import brentq

    if form == "C,k":
        width = width / 2
    d1, d2 = _dfs(n, k, form)
    scale = _theta(_single(icc1, k, form), k)
    fu, fl = stats.f.ppf(0.975, d1, d2), stats.f.ppf(0.025, d1, d2)

    def wide(f_obs: float) -> float:
        low, high = f_obs / fu, f_obs / fl
        if form[2] == "k":
            return (1 - 1 / high) - (1 - 1 / low) - width
        return (high - 1) / (high + k - 1) - (low - 1) / (low + k - 1) - width

    grid = np.exp(np.linspace(-12, 12, 20001))
    values = np.array([wide(x) for x in grid])
    peak = grid[int(np.argmax(values))]
    if form[2] == "k":  # falls from +inf: at most w above one root
        expected = stats.f.sf(brentq(wide, 1e-12, 1e12) / scale, d1, d2)
    elif values.max() <= 0:
        expected = 1.0
    else:
        below, above = brentq(wide, 1e-12, peak), brentq(wide, peak, 1e12)
        expected = stats.f.cdf(below / scale, d1, d2) + stats.f.sf(above / scale, d1, d2)
    plan = wk.icc_power(n, icc1=icc1, n_raters=k, form=form, ci_width=width)
    assert plan.assurance == pytest.approx(expected, rel=1e-8)


def test_width_assurance_plan_is_the_smallest_meeting_it() -> None:
    plan = wk.icc_sample_size(icc1=0.85, n_raters=4, ci_width=0.2, assurance=0.8)
    assert plan.goal_text == "P(95% interval width <= 0.2) >= 0.8"
    assert plan.assurance >= 0.8 > wk.icc_power(plan.n - 1, icc1=0.85, n_raters=4,
                                                ci_width=0.2).assurance  # fmt: skip
    expected = wk.icc_sample_size(icc1=0.85, n_raters=4, ci_width=0.2)
    assert plan.n > expected.n and 0.4 < expected.assurance < 0.7
    assert "P(width of the 95% interval <= 0.2) = 0.815 (wanted 0.8)" in plan.explain()


def test_average_forms_test_is_the_single_rater_test() -> None:
    """ICC(C,k) = k r / (1 + (k-1) r): the same F test, so the same power and n."""
    k, r1, r0 = 4, 0.6, 0.3
    step_up = lambda r: k * r / (1 + (k - 1) * r)  # noqa: E731
    single = wk.icc_sample_size(icc1=r1, icc0=r0, n_raters=k, form="C,1")
    average = wk.icc_sample_size(icc1=step_up(r1), icc0=step_up(r0), n_raters=k, form="C,k")
    assert average.n == single.n
    assert average.power == pytest.approx(single.power, rel=1e-12)


def test_the_power_of_a_null_icc1_is_the_size() -> None:
    for alternative in ("greater", "less", "two-sided"):
        plan = wk.icc_power(30, icc1=0.5, icc0=0.5, n_raters=3, alternative=alternative)
        assert plan.power == pytest.approx(0.05, rel=1e-9)


# ----------------------------------------------------------------------------- properties


@settings(max_examples=examples(40), deadline=None)
@given(
    k=st.integers(2, 6),
    icc0=st.floats(0.0, 0.8),
    gap=st.floats(0.05, 0.4),
    power=st.floats(0.6, 0.95),
    alternative=st.sampled_from(["greater", "two-sided"]),
    form=st.sampled_from(["1,1", "C,1"]),
)
def test_sample_size_is_the_smallest_reaching_the_power(
    k: int, icc0: float, gap: float, power: float, alternative: str, form: str
) -> None:
    icc1 = min(icc0 + gap, 0.97)
    options = dict(icc1=icc1, icc0=icc0, n_raters=k, alternative=alternative, form=form)
    plan = wk.icc_sample_size(power=power, **options)  # type: ignore[arg-type]
    assert plan.power >= power
    if plan.n > 2:
        assert wk.icc_power(plan.n - 1, **options).power < power  # type: ignore[arg-type]


@settings(max_examples=examples(30), deadline=None)
@given(
    k=st.integers(2, 6),
    icc1=st.floats(0.0, 0.95),
    width=st.floats(0.05, 0.6),
    form=st.sampled_from(["1,1", "C,1", "C,k"]),
)
def test_width_plan_is_the_smallest_meeting_the_width(
    k: int, icc1: float, width: float, form: str
) -> None:
    plan = wk.icc_sample_size(icc1=icc1, n_raters=k, ci_width=width, form=form)
    assert plan.expected_width <= width
    if plan.n > 2:
        fewer = wk.icc_power(plan.n - 1, icc1=icc1, n_raters=k, form=form)
        assert fewer.expected_width > width


def test_lower_limit_plan_is_the_smallest_meeting_the_assurance() -> None:
    plan = wk.icc_sample_size(icc1=0.85, n_raters=2, lower_limit=0.7, assurance=0.8)
    assert plan.assurance >= 0.8
    fewer = wk.icc_power(plan.n - 1, icc1=0.85, n_raters=2, lower_limit=0.7)
    assert fewer.assurance < 0.8


def test_power_rises_with_n_and_with_the_gap() -> None:
    powers = [wk.icc_power(n, icc1=0.8, icc0=0.6, n_raters=3).power for n in range(2, 120)]
    assert np.all(np.diff(powers) > 0)
    gaps = [wk.icc_power(30, icc1=0.6 + g, icc0=0.6, n_raters=3).power for g in
            np.linspace(0.0, 0.35, 30)]  # fmt: skip
    assert np.all(np.diff(gaps) > 0)
    widths = [wk.icc_power(n, icc1=0.7, n_raters=3).expected_width for n in range(3, 100)]
    assert np.all(np.diff(widths) < 0)


def test_more_raters_need_fewer_subjects() -> None:
    sizes = [wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=k).n for k in (2, 3, 5, 10)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]


def test_exact_and_approximate_agree_roughly() -> None:
    for k in (2, 3, 6):
        exact = wk.icc_sample_size(icc1=0.75, icc0=0.5, n_raters=k)
        approximate = wk.icc_sample_size(icc1=0.75, icc0=0.5, n_raters=k, method="approximate")
        assert abs(exact.n - approximate.n) <= max(2, 0.1 * exact.n)


# --------------------------------------------------------------- the plan against wkappa.icc


@pytest.mark.parametrize("form", ["1,1", "C,1"])
def test_promises_hold_in_studies_analysed_by_icc(form: str) -> None:
    """Studies of the planned n simulated from the random-effects model (raters' offsets in
    the two-way model) and analysed by wk.icc: rejection rate and mean interval width as
    promised, within 4 Monte Carlo standard errors."""
    k, icc1, icc0, studies = 3, 0.8, 0.6, 4000
    plan = wk.icc_sample_size(icc1=icc1, icc0=icc0, n_raters=k, form=form)
    rng = np.random.default_rng(20261128)
    subjects = rng.normal(size=(plan.n, 1, studies)) * math.sqrt(icc1)
    errors = rng.normal(size=(plan.n, k, studies)) * math.sqrt(1 - icc1)
    raters = rng.normal(size=(1, k, studies)) if form == "C,1" else 0.0
    ratings = subjects + errors + raters
    tested = wk.icc(ratings, form=form, icc0=icc0, alternative="greater")
    rejected = float(np.mean(tested.pvalue < 0.05))
    assert abs(rejected - plan.power) < 4 * math.sqrt(plan.power * (1 - plan.power) / studies)
    interval = wk.icc(ratings, form=form).confidence_interval()
    widths = interval.high - interval.low
    assert abs(widths.mean() - plan.expected_width) < 4 * widths.std() / math.sqrt(studies)
    # The probability that the interval is at most as wide as at the plan's expected width.
    shares = wk.icc_power(plan.n, icc1=icc1, n_raters=k, form=form,
                          ci_width=plan.expected_width).assurance  # fmt: skip
    narrow = float(np.mean(widths <= plan.expected_width))
    assert abs(narrow - shares) < 4 * math.sqrt(shares * (1 - shares) / studies)


# ------------------------------------------------------------------------- the result object


def test_result_conventions() -> None:
    plan = wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=3)
    assert isinstance(plan, wk.ICCPlan) and type(plan).__module__ == "wkappa"
    assert pickle.loads(pickle.dumps(plan)).to_dict() == plan.to_dict()
    data = plan.to_dict()
    json.dumps(data)
    assert data["n"] == plan.n and data["goal"] == "power" and data["assurance"] is None
    assert repr(plan).startswith(f"ICCPlan(n={plan.n}, power=")
    text = plan.explain()
    assert "H0: ICC = 0.6 (greater, alpha = 0.05): power" in text
    assert f"F test and interval with {plan.n - 1} and {plan.n * 2} degrees of freedom" in text
    with pytest.raises(AttributeError):
        plan.n = 3  # type: ignore[misc]


def test_interval_goals_report_no_test() -> None:
    plan = wk.icc_sample_size(icc1=0.8, n_raters=3, ci_width=0.2)
    assert plan.goal == "ci_width" and plan.icc0 is None and plan.alpha is None
    assert math.isnan(plan.power) and "power" not in repr(plan)
    assert "H0" not in plan.explain() and "(wanted <= 0.2)" in plan.explain()
    assert plan.to_dict()["power"] is None
    limit = wk.icc_sample_size(icc1=0.8, n_raters=3, lower_limit=0.6)
    assert limit.goal_text == "P(lower limit > 0.6) >= 0.5"
    assert "P(lower limit of the 95% interval > 0.6)" in limit.explain()


def test_form_spellings() -> None:
    assert wk.icc_sample_size(icc1=0.8, icc0=0.6, form="ICC3").form == "C,1"
    assert wk.icc_sample_size(icc1=0.8, icc0=0.6, form="icc(1,k)").form == "1,k"


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"icc1": 1.0}, r"`icc1` must be in \(-1/\(k-1\), 1\)"),
        ({"icc1": -0.6, "n_raters": 3}, r"`icc1` must be in .*\(-0\.5, 1\) for k = 3"),
        ({"icc1": 0.8, "icc0": -0.1}, r"`icc0` must be in \[0, 1\)"),
        ({"icc1": 0.8, "icc0": 0.8}, r"`icc1` and `icc0` are both 0\.8"),
        ({"icc1": 0.5, "icc0": 0.6}, r"alternative='greater', `icc1` \(0\.5\) must be above"),
        ({"icc1": 0.8, "n_raters": 1}, r"`n_raters` must be an integer >= 2"),
        ({"icc1": 0.8, "power": 1.0}, r"`power` must be strictly between 0 and 1"),
        ({"icc1": 0.8, "power": 0.04}, r"`power` must be above `alpha`"),
        ({"icc1": 0.8, "alpha": 0.0}, r"`alpha` must be strictly between 0 and 1"),
        ({"icc1": 0.8, "alpha": 0.6}, r"`alpha` must be below 0\.5 for a one-sided test"),
        ({"icc1": 0.8, "ci_width": 2.0}, r"`ci_width` must be above 0 and below 2"),
        ({"icc1": 0.8, "ci_width": 0.0}, r"`ci_width` must be above 0"),
        ({"icc1": 0.8, "ci_width": 0.2, "power": 0.9}, r"`power=` is an option of the test"),
        ({"icc1": 0.8, "ci_width": 0.2, "icc0": 0.5}, r"`icc0=` is an option of the test"),
        ({"icc1": 0.8, "ci_width": 0.2, "lower_limit": 0.5}, r"at most one of `ci_width="),
        ({"icc1": 0.8, "lower_limit": 0.9}, r"`lower_limit` = 0\.9 must be below `icc1`"),
        ({"icc1": 0.8, "assurance": 0.9}, r"`assurance=` goes with `lower_limit=`"),
        (
            {"icc1": 0.8, "ci_width": 0.2, "assurance": 0.8, "method": "approximate"},
            r"planned by method='exact'",
        ),
        ({"icc1": 0.8, "form": "A,1"}, r"form='A,1' .*no exact F test.*form='C,1'"),
        ({"icc1": 0.8, "form": "ICC2k"}, r"form='A,k' .*form='C,k'"),
        ({"icc1": 0.8, "form": "x"}, r"`form`"),
        ({"icc1": 0.8, "form": "C,k", "method": "approximate"}, r"method='exact'"),
        ({"icc1": 0.8, "method": "simulation"}, r"`method`"),
        ({"icc1": 0.6, "icc0": 0.5999999}, r"No study of up to 1,000,000 subjects"),
    ],
)
def test_bad_input(options: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.icc_sample_size(**options)  # type: ignore[arg-type]


def test_bad_n() -> None:
    with pytest.raises(WkappaError, match=r"`n` must be an integer >= 2 \(subjects\)"):
        wk.icc_power(1, icc1=0.8)
