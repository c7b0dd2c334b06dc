"""CCC study planning: ccc_sample_size and ccc_power.

No published sample size of this plan was found in a source that could be read (PASS's and
Genstat's CCC planners' worked examples could not be read in full). Instead: Lin's
variance written independently (epiR's form) and against a Monte Carlo estimate of
var(atanh(ccc_hat)) from wk.ccc; the plan's standard error equal to the one wk.ccc reports
for data with the design's moments; the power, width and assurance against scipy; the
closed form of a correlation's Fisher-z sample size where the design reduces to it; the
planned n the smallest meeting the goal; monotonicity; bad input.
"""

from __future__ import annotations

import json
import math
import pickle
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, stats

import wkappa as wk
from budget import examples
from wkappa._stats.concordance import lin_z_variance
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")


def _epir_variance(rho: float, r: float, u: float) -> float:
    """Lin's (1989, 2000) variance of atanh(ccc_hat) times n - 2, as epiR::epi.ccc writes it
    (rho³ / r and rho⁴ / r², not wkappa's C_b form)."""
    one = 1 - rho**2
    return (
        (1 - r**2) * rho**2 / (one * r**2)
        + 2 * rho**3 * (1 - rho) * u**2 / (r * one**2)
        - rho**4 * u**4 / (2 * r**2 * one**2)
    )


def _covariance(plan: wk.CCCPlan) -> tuple[np.ndarray, np.ndarray]:
    """Means and covariance of the plan's bivariate normal: sigma1 sigma2 = 1, so the
    location shift is the means' difference."""
    s1, s2 = math.sqrt(plan.scale_shift), 1 / math.sqrt(plan.scale_shift)
    r = plan.pearson
    cov = np.array([[s1 * s1, r * s1 * s2], [r * s1 * s2, s2 * s2]])
    return np.array([plan.location_shift, 0.0]), cov


def _design(pearson: float, u: float, v: float) -> tuple[float, float]:
    """(ccc, C_b) of a bivariate design."""
    c_b = 2 / (v + 1 / v + u * u)
    return pearson * c_b, c_b


# ------------------------------------------------------------------------ the variance


@settings(max_examples=examples(80), deadline=None)
@given(r=st.floats(0.05, 0.995), u=st.floats(0.0, 2.0), v=st.floats(1.0, 4.0))
def test_variance_is_lins_and_at_most_the_unbiased_ones(r: float, u: float, v: float) -> None:
    rho, c_b = _design(r, u, v)
    assume(rho > 0.01 and r < 0.999)
    plan = wk.ccc_power(50, ccc1=rho, pearson=r, location_shift=u)
    assert plan.scale_shift == pytest.approx(v, rel=1e-6, abs=1e-6)
    assert plan.bias_correction == pytest.approx(c_b, rel=1e-12)
    variance = _epir_variance(rho, r, u)
    assert lin_z_variance(rho, r, c_b, u) == pytest.approx(variance, rel=1e-9, abs=1e-12)
    assert plan.standard_error_z == pytest.approx(math.sqrt(variance / 48), rel=1e-9)
    # No systematic difference (u = 0, v = 1, r = ccc) has the largest variance: 1.
    assert 0 < variance <= 1 + 1e-12


@pytest.mark.parametrize(
    "shape",
    [
        {},
        {"pearson": 0.95, "scale_shift": 1.0},
        {"location_shift": 0.3, "scale_shift": 1.4},
    ],
    ids=["no-bias", "location", "location-and-scale"],
)
def test_variance_against_monte_carlo_of_wk_ccc(shape: dict[str, float]) -> None:
    """The SD of atanh(wk.ccc(...).statistic) over 2,000 simulated studies of 150 subjects
    matches the plan's standard error within 6% (the SD's own Monte Carlo error is 1.6%)."""
    n, studies = 150, 2000
    plan = wk.ccc_power(n, ccc1=0.85, **shape)  # type: ignore[arg-type]
    mean, cov = _covariance(plan)
    rng = np.random.default_rng(20261128)
    data = rng.multivariate_normal(mean, cov, size=(studies, n))
    z = [math.atanh(wk.ccc(d[:, 0], d[:, 1]).statistic) for d in data]
    assert np.std(z) == pytest.approx(plan.standard_error_z, rel=0.06)


@pytest.mark.parametrize(
    ("n", "shape"),
    [
        (12, {}),
        (40, {"pearson": 0.93, "location_shift": 0.25}),
        (200, {"bias_correction": 0.95, "scale_shift": 1.3}),
        (25, {"location_shift": 0.4, "scale_shift": 1.2}),
    ],
)
def test_plan_is_what_wk_ccc_reports_for_data_with_the_designs_moments(
    n: int, shape: dict[str, float]
) -> None:
    """Data whose 1/n moments are exactly the design's: wk.ccc's statistic, Pearson r, C_b
    and standard error of Fisher's z are the plan's, and its interval's lower limit is
    tanh(atanh(ccc1) - q SE)."""
    plan = wk.ccc_power(n, ccc1=0.88, **shape)  # type: ignore[arg-type]
    rng = np.random.default_rng(n)
    raw = rng.normal(size=(n, 2))
    raw -= raw.mean(axis=0)
    whitened = raw @ np.linalg.inv(np.linalg.cholesky(raw.T @ raw / n)).T
    mean, cov = _covariance(plan)
    data = whitened @ np.linalg.cholesky(cov).T + mean
    result = wk.ccc(data[:, 0], data[:, 1])
    assert result.statistic == pytest.approx(0.88, rel=1e-10)
    assert result.pearson == pytest.approx(plan.pearson, rel=1e-10)
    assert result.bias_correction == pytest.approx(plan.bias_correction, rel=1e-10)
    assert result.standard_error_z == pytest.approx(plan.standard_error_z, rel=1e-9)
    low, high = result.confidence_interval(0.95)
    q = stats.norm.ppf(0.975)
    assert low == pytest.approx(math.tanh(math.atanh(0.88) - q * plan.standard_error_z))
    assert high - low > 0


# --------------------------------------------------------------- power, width, assurance


def test_no_bias_plan_is_the_correlations_closed_form() -> None:
    """Without a systematic difference the variance is 1 / (n - 2): the one-sided plan is
    n = 2 + ((z_{1-alpha} + z_power) / (atanh(ccc1) - atanh(ccc0)))², rounded up."""
    z = stats.norm.ppf
    for ccc1, ccc0, power, alpha in ((0.95, 0.9, 0.8, 0.05), (0.8, 0.6, 0.9, 0.025)):
        expected = 2 + ((z(1 - alpha) + z(power)) / (math.atanh(ccc1) - math.atanh(ccc0))) ** 2
        plan = wk.ccc_sample_size(ccc1=ccc1, ccc0=ccc0, power=power, alpha=alpha)
        assert plan.n == math.ceil(expected)


@settings(max_examples=examples(60), deadline=None)
@given(
    n=st.integers(3, 2000),
    ccc1=st.floats(0.05, 0.99),
    ccc0=st.floats(-0.5, 0.98),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
    alternative=st.sampled_from(["greater", "less", "two-sided"]),
    pearson_gap=st.floats(0.0, 1.0),
)
def test_power_matches_scipy(
    n: int, ccc1: float, ccc0: float, alpha: float, alternative: str, pearson_gap: float
) -> None:
    r = ccc1 + (0.999 - ccc1) * pearson_gap * 0.5
    plan = wk.ccc_power(n, ccc1=ccc1, ccc0=ccc0, pearson=r, scale_shift=1.0,
                        alpha=alpha, alternative=alternative)  # fmt: skip
    se = math.sqrt(_epir_variance(ccc1, r, plan.location_shift) / (n - 2))
    dist = stats.norm(math.atanh(ccc1), se)
    z0 = math.atanh(ccc0)
    if alternative == "greater":
        expected = dist.sf(z0 + stats.norm.ppf(1 - alpha) * se)
    elif alternative == "less":
        expected = dist.cdf(z0 - stats.norm.ppf(1 - alpha) * se)
    else:
        q = stats.norm.ppf(1 - alpha / 2)
        expected = dist.sf(z0 + q * se) + dist.cdf(z0 - q * se)
    assert plan.power == pytest.approx(expected, rel=1e-7, abs=1e-12)


@pytest.mark.parametrize(
    ("n", "ccc1", "level"), [(5, 0.5, 0.95), (40, 0.9, 0.9), (300, 0.97, 0.99)]
)
def test_width_and_its_assurance_match_scipy(n: int, ccc1: float, level: float) -> None:
    """E[tanh(Z + h) - tanh(Z - h)] by scipy's quad; P(width <= w) from the two roots of
    width(z) = w found by brentq on each side of the width's peak at z = 0."""
    plan = wk.ccc_power(n, ccc1=ccc1, confidence_level=level)
    se = plan.standard_error_z
    h = stats.norm.ppf(0.5 + level / 2) * se
    dist = stats.norm(math.atanh(ccc1), se)

    def width(z: float) -> float:
        return math.tanh(z + h) - math.tanh(z - h)

    lo, hi = dist.ppf(1e-12), dist.ppf(1 - 1e-12)
    mean, _ = integrate.quad(lambda z: width(z) * dist.pdf(z), lo, hi, limit=200, epsabs=1e-13)
    assert plan.expected_width == pytest.approx(mean, rel=1e-7)
    asked = plan.expected_width
    edge = optimize.brentq(lambda z: width(z) - asked, 0.0, 50.0)
    expected = dist.sf(edge) + dist.cdf(-edge)
    chance = wk.ccc_power(n, ccc1=ccc1, confidence_level=level, ci_width=asked).assurance
    assert chance == pytest.approx(expected, rel=1e-9)
    # A width above the peak's: every interval is narrower.
    assert wk.ccc_power(n, ccc1=ccc1, confidence_level=level,
                        ci_width=min(1.999, width(0.0) * 1.01)).assurance == 1.0  # fmt: skip


def test_lower_limit_assurance() -> None:
    plan = wk.ccc_power(60, ccc1=0.9, lower_limit=0.8, confidence_level=0.9)
    se = plan.standard_error_z
    expected = stats.norm.sf(math.atanh(0.8) + stats.norm.ppf(0.95) * se, math.atanh(0.9), se)
    assert plan.assurance == pytest.approx(expected, rel=1e-9)
    assert plan.target_assurance == 0.5 and plan.goal == "n"


def test_the_power_of_a_null_ccc1_is_the_size() -> None:
    for alternative in ("greater", "less", "two-sided"):
        plan = wk.ccc_power(30, ccc1=0.8, ccc0=0.8, alternative=alternative)
        assert plan.power == pytest.approx(0.05, rel=1e-9)


# ----------------------------------------------------------------------------- properties

_SHAPES = st.sampled_from(
    [
        {},
        {"pearson": 1.0, "scale_shift": 1.0},  # pearson filled in below
        {"location_shift": 0.3, "scale_shift": 1.2},
        {"bias_correction": 1.0, "location_shift": 0.0},  # C_b filled in below
    ]
)


def _shape(shape: dict[str, float], ccc1: float) -> dict[str, float]:
    """A valid shape for ccc1: Pearson r and C_b halfway between ccc1 and their bound."""
    out = dict(shape)
    if "pearson" in out:
        out["pearson"] = (ccc1 + 0.999) / 2
    if "bias_correction" in out:
        out["bias_correction"] = (ccc1 + 1.0) / 2
    return out


@settings(max_examples=examples(40), deadline=None)
@given(
    ccc0=st.floats(0.0, 0.9),
    gap=st.floats(0.03, 0.3),
    power=st.floats(0.6, 0.95),
    alternative=st.sampled_from(["greater", "two-sided"]),
    shape=_SHAPES,
)
def test_sample_size_is_the_smallest_reaching_the_power(
    ccc0: float, gap: float, power: float, alternative: str, shape: dict[str, float]
) -> None:
    ccc1 = min(ccc0 + gap, 0.97)
    shape = _shape(shape, ccc1)
    if "location_shift" in shape and "scale_shift" in shape:
        assume(ccc1 / _design(1, 0.3, 1.2)[1] < 1)
    options = dict(ccc1=ccc1, ccc0=ccc0, alternative=alternative, **shape)
    plan = wk.ccc_sample_size(power=power, **options)  # type: ignore[arg-type]
    assert plan.power >= power
    if plan.n > 3:
        assert wk.ccc_power(plan.n - 1, **options).power < power  # type: ignore[arg-type]


@settings(max_examples=examples(30), deadline=None)
@given(
    ccc1=st.floats(0.1, 0.98),
    width=st.floats(0.02, 0.8),
    assurance=st.sampled_from([None, 0.6, 0.9]),
    level=st.sampled_from([0.9, 0.95]),
)
def test_width_plan_is_the_smallest_meeting_the_width(
    ccc1: float, width: float, assurance: float | None, level: float
) -> None:
    plan = wk.ccc_sample_size(ccc1=ccc1, ci_width=width, assurance=assurance,
                              confidence_level=level)  # fmt: skip
    fewer = wk.ccc_power(max(plan.n - 1, 3), ccc1=ccc1, ci_width=width, confidence_level=level)
    if assurance is None:
        assert plan.expected_width <= width
        assert plan.n == 3 or fewer.expected_width > width
    else:
        assert plan.assurance >= assurance
        assert plan.n == 3 or fewer.assurance < assurance


@settings(max_examples=examples(30), deadline=None)
@given(ccc1=st.floats(0.3, 0.98), below=st.floats(0.02, 0.5), assurance=st.floats(0.5, 0.95))
def test_lower_limit_plan_is_the_smallest_meeting_the_assurance(
    ccc1: float, below: float, assurance: float
) -> None:
    limit = ccc1 - below
    plan = wk.ccc_sample_size(ccc1=ccc1, lower_limit=limit, assurance=assurance)
    assert plan.assurance >= assurance
    if plan.n > 3:
        assert wk.ccc_power(plan.n - 1, ccc1=ccc1, lower_limit=limit).assurance < assurance


@settings(max_examples=examples(30), deadline=None)
@given(ccc1=st.floats(0.2, 0.97), shape=_SHAPES, n=st.integers(3, 500))
def test_monotone_in_n_and_in_ccc1(ccc1: float, shape: dict[str, float], n: int) -> None:
    """More subjects: more power, a narrower interval, a likelier lower limit; a larger ccc1
    (the same shape) is easier to tell from ccc0."""
    shape = _shape(shape, ccc1)
    if "location_shift" in shape and "scale_shift" in shape:
        assume(ccc1 / _design(1, 0.3, 1.2)[1] < 0.999)
    here = wk.ccc_power(n, ccc1=ccc1, ccc0=0.1, lower_limit=ccc1 / 2, **shape)  # type: ignore[arg-type]
    more = wk.ccc_power(n + 1, ccc1=ccc1, ccc0=0.1, lower_limit=ccc1 / 2, **shape)  # type: ignore[arg-type]
    assert _rises(here.power, more.power)
    assert _rises(here.assurance, more.assurance)
    assert more.expected_width < here.expected_width
    if not shape:
        higher = wk.ccc_power(n, ccc1=min(ccc1 + 0.02, 0.99), ccc0=0.1)
        assert _rises(here.power, higher.power)


def _rises(before: float, after: float) -> bool:
    """``after`` above ``before``, or both equal within a rounding of 1 (a power past
    1 - 1e-9, where the normal tail is below the floats' spacing near 1)."""
    return after > before or (after == before and before > 1.0 - 1e-9)


def test_a_systematic_difference_needs_fewer_subjects_for_the_same_ccc() -> None:
    """For a given CCC, no systematic difference has the largest variance of Fisher's z."""
    plain = wk.ccc_sample_size(ccc1=0.9, ccc0=0.8)
    for shape in ({"pearson": 0.95, "scale_shift": 1}, {"pearson": 0.95, "location_shift": 0}):
        assert wk.ccc_sample_size(ccc1=0.9, ccc0=0.8, **shape).n < plain.n  # type: ignore[arg-type]


def test_the_same_design_by_any_two_shape_keywords() -> None:
    first = wk.ccc_power(60, ccc1=0.9, ccc0=0.8, pearson=0.95, location_shift=0.2)
    for shape in (
        {"pearson": 0.95, "scale_shift": first.scale_shift},
        {"bias_correction": 0.9 / 0.95, "location_shift": 0.2},
        {"location_shift": -0.2, "scale_shift": 1 / first.scale_shift},
    ):
        other = wk.ccc_power(60, ccc1=0.9, ccc0=0.8, **shape)  # type: ignore[arg-type]
        assert other.power == pytest.approx(first.power, rel=1e-9)
        assert other.pearson == pytest.approx(0.95, rel=1e-9)
        assert other.location_shift == pytest.approx(0.2, rel=1e-9)


# --------------------------------------------------------------- the plan against wkappa.ccc


def test_power_holds_in_studies_analysed_by_ccc() -> None:
    """2,000 bivariate-normal studies of the planned n analysed by wk.ccc: the rejection rate
    is within 0.035 of the promised power (Monte Carlo SE 0.009; the delta method's own
    error is measured by benchmarks/ccc_planning_study.py)."""
    plan = wk.ccc_sample_size(ccc1=0.8, ccc0=0.6, pearson=0.85, scale_shift=1.2)
    mean, cov = _covariance(plan)
    rng = np.random.default_rng(7)
    data = rng.multivariate_normal(mean, cov, size=(2000, plan.n))
    pvalues = [wk.ccc(d[:, 0], d[:, 1], ccc0=0.6, alternative="greater").pvalue for d in data]
    assert abs(np.mean(np.array(pvalues) < 0.05) - plan.power) < 0.035


# ------------------------------------------------------------------------- the result object


def test_result_conventions() -> None:
    plan = wk.ccc_sample_size(ccc1=0.95, ccc0=0.9)
    assert isinstance(plan, wk.CCCPlan) and type(plan).__module__ == "wkappa"
    assert pickle.loads(pickle.dumps(plan)).to_dict() == plan.to_dict()
    data = plan.to_dict()
    json.dumps(data)
    assert data["n"] == plan.n == 50 and data["goal"] == "power" and data["assurance"] is None
    assert data["pearson"] == 0.95 and data["location_shift"] == 0.0
    assert repr(plan).startswith("CCCPlan(n=50, power=0.8013, expected_width=")
    text = plan.explain()
    assert text.splitlines()[0] == "CCC study plan (lin): n = 50 subjects measured by 2 methods"
    assert "H0: CCC = 0.9 (greater, alpha = 0.05): power 0.801 (wanted 0.8)" in text
    assert "Lin's standard error of Fisher's z at n = 50" in text
    assert plan.goal_text == "power >= 0.8"
    with pytest.raises(AttributeError):
        plan.n = 3  # type: ignore[misc]


def test_interval_goals_report_no_test() -> None:
    plan = wk.ccc_sample_size(ccc1=0.9, ci_width=0.1)
    assert plan.goal == "ci_width" and plan.ccc0 is None and plan.alpha is None
    assert math.isnan(plan.power) and "power" not in repr(plan)
    assert "H0" not in plan.explain() and "(wanted <= 0.1)" in plan.explain()
    assert plan.to_dict()["power"] is None
    sure = wk.ccc_sample_size(ccc1=0.9, ci_width=0.1, assurance=0.9)
    assert sure.goal_text == "P(95% interval width <= 0.1) >= 0.9"
    assert "goal='P(width<=0.1)>=0.9'" in repr(sure)
    assert "P(width of the 95% interval <= 0.1) = 0.905 (wanted 0.9)" in sure.explain()
    limit = wk.ccc_sample_size(ccc1=0.9, lower_limit=0.8)
    assert limit.goal_text == "P(lower limit > 0.8) >= 0.5"
    assert "P(lower limit of the 95% interval > 0.8)" in limit.explain()


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"ccc1": 1.0}, r"`ccc1` must be in \(0, 1\)"),
        ({"ccc1": -0.2}, r"`ccc1` must be in \(0, 1\)"),
        ({"ccc1": 0.8, "ccc0": -1.0}, r"`ccc0` must be in \(-1, 1\)"),
        ({"ccc1": 0.8, "ccc0": 0.8}, r"`ccc1` and `ccc0` are both 0\.8"),
        ({"ccc1": 0.5, "ccc0": 0.6}, r"alternative='greater', `ccc1` \(0\.5\) must be above"),
        (
            {"ccc1": 0.8, "pearson": 0.9},
            r"`pearson=` alone leaves the design open.*"
            r"`location_shift=` or `scale_shift=`",
        ),
        ({"ccc1": 0.8, "location_shift": 0.1}, r"`location_shift=` alone .*`scale_shift=`"),
        ({"ccc1": 0.8, "scale_shift": 1.1}, r"`scale_shift=` alone .*`location_shift=`"),
        ({"ccc1": 0.8, "pearson": 0.9, "bias_correction": 0.9}, r"over-determine.*one of"),
        (
            {"ccc1": 0.8, "pearson": 0.9, "location_shift": 0.1, "scale_shift": 1.0},
            r"`pearson=`, `location_shift=`, `scale_shift=` over-determine",
        ),
        ({"ccc1": 0.8, "pearson": 0.7, "scale_shift": 1}, r"`pearson` must be at least `ccc1`"),
        ({"ccc1": 0.8, "pearson": 1.0, "scale_shift": 1}, r"`pearson` must be .*below 1"),
        ({"ccc1": 0.8, "bias_correction": 0.8, "scale_shift": 1}, r"`bias_correction` must"),
        ({"ccc1": 0.8, "pearson": 0.81, "scale_shift": 3}, r"scale_shift=3 alone lowers C_b"),
        ({"ccc1": 0.8, "pearson": 0.81, "location_shift": 1}, r"location_shift=1 alone lowers"),
        (
            {"ccc1": 0.9, "location_shift": 0.5, "scale_shift": 1},
            r"needs Pearson's r .* not below",
        ),
        ({"ccc1": 0.8, "scale_shift": 0, "pearson": 0.9}, r"`scale_shift` .* must be above 0"),
        ({"ccc1": 0.8, "location_shift": math.inf, "pearson": 0.9}, r"`location_shift` must be"),
        ({"ccc1": 0.8, "power": 1.0}, r"`power` must be strictly between 0 and 1"),
        ({"ccc1": 0.8, "power": 0.04}, r"`power` must be above `alpha`"),
        ({"ccc1": 0.8, "alpha": 0.6}, r"`alpha` must be below 0\.5 for a one-sided test"),
        ({"ccc1": 0.8, "ci_width": 2.0}, r"`ci_width` must be above 0 and below 2"),
        ({"ccc1": 0.8, "ci_width": 0.2, "power": 0.9}, r"`power=` is an option of the test"),
        ({"ccc1": 0.8, "ci_width": 0.2, "ccc0": 0.5}, r"`ccc0=` is an option of the test"),
        ({"ccc1": 0.8, "ci_width": 0.2, "lower_limit": 0.5}, r"at most one of `ci_width="),
        ({"ccc1": 0.8, "lower_limit": 0.9}, r"`lower_limit` = 0\.9 must be below `ccc1`"),
        ({"ccc1": 0.8, "assurance": 0.9}, r"`assurance=` goes with `lower_limit=`"),
        ({"ccc1": 0.8, "method": "exact"}, r"`method`"),
        ({"ccc1": 0.6, "ccc0": 0.5999999}, r"No study of up to 1,000,000 subjects .*Hint"),
    ],
)
def test_bad_input(options: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.ccc_sample_size(**options)  # type: ignore[arg-type]


def test_bad_n() -> None:
    with pytest.raises(WkappaError, match=r"`n` must be an integer >= 3 \(subjects"):
        wk.ccc_power(2, ccc1=0.8)


def test_the_study_script_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/ccc_planning_study.py, whose table docs/reference/ccc-planning.md quotes."""
    import runpy
    from pathlib import Path

    benchmarks = Path(__file__).parents[1] / "benchmarks"
    monkeypatch.syspath_prepend(str(benchmarks))
    found = runpy.run_path(str(benchmarks / "ccc_planning_study.py"), run_name="study_under_test")
    assert callable(found["main"]) and callable(found["simulate"])


# ------------------------------------------------------------------ wkappa plan --coefficient ccc

_CCC = ["plan", "--coefficient", "ccc"]


def test_cli_text_and_json_match_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    from wkappa._cli.app import main

    args = [*_CCC, "--ccc1", "0.95", "--ccc0", "0.9", "--location-shift", "0.2",
            "--scale-shift", "1"]  # fmt: skip
    expected = wk.ccc_sample_size(ccc1=0.95, ccc0=0.9, location_shift=0.2, scale_shift=1)
    assert main(args) == 0
    assert capsys.readouterr().out.strip() == expected.explain()
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data.pop("schema") == "wkappa.ccc-plan/1"
    assert data == expected.to_dict()
    assert main([*args, "--explain"]) == 0
    text = capsys.readouterr().out
    assert "How the plan was computed:" in text and "a standard error of 0.1431 at n = 46" in text


def test_cli_every_option_reaches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    from wkappa._cli.app import main

    args = [*_CCC, "--ccc1", "0.9", "--ccc0", "0.7", "--pearson", "0.95",
            "--scale-shift", "1.2", "--power", "0.9", "--alpha", "0.01",
            "--alternative", "two-sided", "--method", "lin", "--format", "json"]  # fmt: skip
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    expected = wk.ccc_sample_size(ccc1=0.9, ccc0=0.7, pearson=0.95, scale_shift=1.2, power=0.9,
                                  alpha=0.01, alternative="two-sided")  # fmt: skip
    assert data["n"] == expected.n and data["pearson"] == 0.95 and data["alpha"] == 0.01
    assert main([*_CCC, "--ccc1", "0.9", "--bias-correction", "0.95", "--location-shift",
                 "0.1", "--format", "json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["bias_correction"] == pytest.approx(0.95)


def test_cli_interval_goals_and_given_n(capsys: pytest.CaptureFixture[str]) -> None:
    from wkappa._cli.app import main

    assert main([*_CCC, "--ccc1", "0.9", "--ci-width", "0.1", "--ci", "0.9"]) == 0
    text = capsys.readouterr().out
    expected = wk.ccc_sample_size(ccc1=0.9, ci_width=0.1, confidence_level=0.9)
    assert f"n = {expected.n} subjects" in text and "H0" not in text
    assert main([*_CCC, "--ccc1", "0.9", "--lower-limit", "0.8", "--assurance", "0.8"]) == 0
    limit = wk.ccc_sample_size(ccc1=0.9, lower_limit=0.8, assurance=0.8)
    assert f"n = {limit.n} subjects" in capsys.readouterr().out
    assert main([*_CCC, "--ccc1", "0.9", "--ci-width", "0.1", "--assurance", "0.9"]) == 0
    assert "P(width of the 95% interval <= 0.1) = 0.905" in capsys.readouterr().out
    assert main([*_CCC, "--ccc1", "0.9", "--ci-width", "0.1", "--n", "40"]) == 0
    at_40 = wk.ccc_power(40, ccc1=0.9, ci_width=0.1)
    assert f"P(width of the 95% interval <= 0.1) = {at_40.assurance:.3f}" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        ([], r"--coefficient ccc needs --ccc1"),
        (["--ccc1", "0.9", "--pearson", "0.95"], r"--pearson alone leaves the design open"),
        (["--ccc1", "0.9", "--kappa1", "0.6"], r"--kappa1 is not an option of --coefficient"),
        (["--ccc1", "0.9", "--icc1", "0.6"], r"--icc1 is not an option of --coefficient ccc"),
        (["--ccc1", "0.9", "--raters", "3"], r"two methods .*--raters 3"),
        (["--ccc1", "0.9", "--method", "exact"], r"--method exact does not plan a CCC"),
        (["--ccc1", "0.9", "--plot", "x.png"], r"--plot draws the curve of a kappa plan"),
        (["--ccc1", "0.9", "--n", "30", "--power", "0.9"], r"--n reports what n subjects"),
        (["--ccc1", "0.9", "--ci-width", "0.1", "--ccc0", "0.5"], r"--ccc0 is an option"),
        (["--ccc1", "0.9", "--ccc0", "0.95"], r"--ccc1 \(0\.9\) must be above --ccc0"),
    ],
)
def test_cli_errors_in_the_commands_words(
    extra: list[str], match: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from wkappa._cli.app import main

    assert main([*_CCC, *extra]) == 2
    error = capsys.readouterr().err
    assert re.search(match, error), error
    assert "`" not in error and "ccc1=" not in error and "location_shift" not in error


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["plan", "--kappa1", "0.6", "--marginals", "0.5,0.5", "--ccc1", "0.9"],
         r"--ccc1 goes with --coefficient ccc"),
        (["plan", "--coefficient", "icc", "--icc1", "0.8", "--location-shift", "0.1"],
         r"--location-shift goes with --coefficient ccc .*not with a plan of an ICC"),
        (["plan", "--coefficient", "icc", "--icc1", "0.8", "--method", "lin"],
         r"--method lin plans Lin's CCC"),
        (["plan", "--kappa1", "0.6", "--marginals", "0.5,0.5", "--method", "lin"],
         r"--method lin plans Lin's CCC"),
    ],
)  # fmt: skip
def test_cli_ccc_options_refused_elsewhere(
    args: list[str], match: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from wkappa._cli.app import main

    assert main(args) == 2
    error = capsys.readouterr().err
    assert re.search(match, error), error
