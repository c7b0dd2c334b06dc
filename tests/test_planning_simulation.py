"""The plans keep their promises: the planned n, run through wkappa's own test and interval
on fresh simulated studies (not the planner's draws), delivers the promised power and width.
Properties of the simulation method (two and three raters): the planned n falls as kappa1 -
kappa0 grows, the simulated power rises (and the expected width falls) with n.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

pytestmark = pytest.mark.slow

# Anticipated populations: K = 2, 3, 5 (the model table of these shared marginals).
DESIGNS = [
    ([0.3, 0.7], "unweighted", 0.75, 0.5),
    ([0.2, 0.5, 0.3], "linear", 0.75, 0.5),
    ([0.2, 0.5, 0.3], "quadratic", 0.8, 0.6),
    ([0.1, 0.2, 0.4, 0.2, 0.1], "quadratic", 0.8, 0.6),
    ([0.1, 0.2, 0.4, 0.2, 0.1], "linear", 0.7, 0.5),
]
CHECKS = 1500  # fresh studies per check: Monte Carlo SE of a power of 0.8 is 0.010


def _own_test_power(plan: wk.KappaPlan, rng: np.random.Generator) -> tuple[float, float]:
    """Rejection rate of wk.kappa_test_from_table (nan for a plan without a test: the
    interval goals) and mean score-interval width."""
    k = plan.table.shape[0]
    tables = rng.multinomial(plan.n, plan.table.ravel(), size=CHECKS).reshape(-1, k, k)
    rejected, widths = 0, []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        for table in tables:
            if plan.kappa0 is not None:
                result = wk.kappa_test_from_table(
                    table,
                    weights=plan.weight_matrix,
                    kappa0=plan.kappa0,
                    alternative=plan.alternative,  # type: ignore[arg-type]
                )
                assert plan.alpha is not None
                rejected += bool(result.pvalue < plan.alpha)
            elif len(widths) >= 300:
                break
            if len(widths) < 300:
                # The plan's width is the two-sided interval's (a one-sided test's result
                # gives the one-sided interval).
                two_sided = wk.kappa_test_from_table(table, weights=plan.weight_matrix)
                low, high = two_sided.confidence_interval(method="score")
                widths.append(high - low)
    power = rejected / CHECKS if plan.kappa0 is not None else float("nan")
    return power, float(np.nanmean(widths))


@pytest.mark.parametrize(("marginals", "weights", "kappa1", "kappa0"), DESIGNS)
def test_simulation_plan_delivers_its_power(
    marginals: list[float], weights: str, kappa1: float, kappa0: float
) -> None:
    plan = wk.kappa_sample_size(
        kappa1=kappa1,
        kappa0=kappa0,
        marginals=marginals,
        weights=weights,
        method="simulation",
        n_simulations=4000,
        rng=7,
    )
    power, width = _own_test_power(plan, np.random.default_rng(99))
    assert 0.76 <= power <= 0.86, (plan, power)
    assert abs(width - plan.expected_width) <= 0.05 * plan.expected_width + 0.005


@pytest.mark.parametrize(("marginals", "weights", "kappa1", "kappa0"), DESIGNS)
def test_asymptotic_plan_power(
    marginals: list[float], weights: str, kappa1: float, kappa0: float
) -> None:
    """The large-sample plan's n, checked the same way: its error is documented in
    docs/reference/planning-methods.md (BENCHMARKS.md, "Study planning")."""
    plan = wk.kappa_sample_size(kappa1=kappa1, kappa0=kappa0, marginals=marginals, weights=weights)
    power, _ = _own_test_power(plan, np.random.default_rng(5))
    assert 0.70 <= power <= 0.90, (plan, power)


@pytest.mark.parametrize("weights", ["quadratic", "linear"])
def test_simulation_width_plan(weights: str) -> None:
    plan = wk.kappa_sample_size(
        kappa1=0.8,
        marginals=[0.2, 0.5, 0.3],
        weights=weights,
        ci_width=0.25,
        method="simulation",
        n_simulations=2000,
        rng=3,
    )
    _, width = _own_test_power(plan, np.random.default_rng(11))
    assert width == pytest.approx(0.25, abs=0.015)


def test_several_raters_by_simulation() -> None:
    plan = wk.kappa_sample_size(
        kappa1=0.7,
        kappa0=0.4,
        marginals=[0.3, 0.7],
        weights="unweighted",
        n_raters=3,
        coefficient="fleiss",
        method="simulation",
        n_simulations=400,
        rng=1,
    )
    gof = wk.kappa_sample_size(
        kappa1=0.7,
        kappa0=0.4,
        marginals=[0.3, 0.7],
        weights="unweighted",
        n_raters=3,
        method="goodness-of-fit",
    )
    assert plan.coefficient == "fleiss" and plan.n_raters == 3
    assert 0.5 * gof.n <= plan.n <= 2.0 * gof.n
    assert plan.power >= 0.8


@pytest.mark.parametrize("coefficient", ["gwet", "brennan_prediger"])
def test_kappa1_is_the_coefficients_value(coefficient: str) -> None:
    """For coefficients with their own chance term, kappa1 is the coefficient's population
    value: a large sample from the planned model has that value."""
    pi = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
    plan = wk.kappa_power(
        60,
        kappa1=0.7,
        kappa0=0.5,
        marginals=pi,
        weights="quadratic",
        n_raters=3,
        coefficient=coefficient,
        method="simulation",
        n_simulations=100,
        rng=1,
    )
    assert 0.0 < plan.model_kappa < 0.7
    rng = np.random.default_rng(5)
    items = 100_000
    together = rng.random(items) < plan.model_kappa
    ratings = rng.choice(5, size=(items, 3), p=pi)
    ratings[together] = rng.choice(5, size=items, p=pi)[together, None]
    counts = np.zeros((items, 5), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(items), 3), ratings.ravel()), 1)
    value = wk.agreement_from_counts(counts, coefficient=coefficient, weights="quadratic")
    assert value.statistic == pytest.approx(0.7, abs=0.01)


# ------------------------------------------------------------------ properties (by simulation)
# Each simulated power carries Monte Carlo error (SE sqrt(p (1 - p) / B)); the properties are
# asked of values far enough apart that the error cannot reverse them, with a tolerance of
# four standard errors of the difference where the two may coincide (both near 1).

_MARGINS = st.sampled_from([[0.3, 0.7], [0.2, 0.5, 0.3], [0.1, 0.2, 0.4, 0.2, 0.1]])
_WEIGHTS = st.sampled_from(["unweighted", "linear", "quadratic"])


@settings(max_examples=examples(8), deadline=None)
@given(
    marginals=_MARGINS,
    weights=_WEIGHTS,
    kappa0=st.sampled_from([0.0, 0.3, 0.5]),
    gap=st.floats(0.15, 0.25),
    coefficient=st.sampled_from([None, None, "fleiss", "conger"]),
    seed=st.integers(0, 2**16),
)
def test_simulated_n_falls_as_the_gap_grows(
    marginals: list[float],
    weights: str,
    kappa0: float,
    gap: float,
    coefficient: str | None,
    seed: int,
) -> None:
    options = {
        "kappa0": kappa0,
        "marginals": marginals,
        "weights": weights,
        "method": "simulation",
        "n_simulations": 300,
        "rng": seed,
    }
    if coefficient is not None:
        options.update(n_raters=3, coefficient=coefficient)
    near = wk.kappa_sample_size(kappa1=kappa0 + gap, **options)  # type: ignore[arg-type]
    far = wk.kappa_sample_size(kappa1=min(kappa0 + gap + 0.15, 0.95), **options)  # type: ignore[arg-type]
    assert far.n < near.n


@settings(max_examples=examples(12), deadline=None)
@given(
    marginals=_MARGINS,
    weights=_WEIGHTS,
    kappa1=st.floats(0.5, 0.85),
    n=st.integers(10, 80),
    coefficient=st.sampled_from([None, None, "fleiss", "conger"]),
    seed=st.integers(0, 2**16),
)
def test_simulated_power_rises_with_n(
    marginals: list[float],
    weights: str,
    kappa1: float,
    n: int,
    coefficient: str | None,
    seed: int,
) -> None:
    options = {
        "kappa1": kappa1,
        "kappa0": kappa1 - 0.25,
        "marginals": marginals,
        "weights": weights,
        "method": "simulation",
        "n_simulations": 400,
        "rng": seed,
    }
    if coefficient is not None:
        options.update(n_raters=3, coefficient=coefficient)
    small = wk.kappa_power(n, **options)  # type: ignore[arg-type]
    large = wk.kappa_power(2 * n + 20, **options)  # type: ignore[arg-type]
    spread = math.sqrt(
        (small.power * (1 - small.power) + large.power * (1 - large.power)) / 400 + 1e-4
    )
    assert large.power >= small.power - 4 * spread
    assert large.power > small.power or large.power >= 0.99
    assert large.expected_width < small.expected_width


def test_an_unknown_coefficient_is_refused_by_name() -> None:
    """method='simulation' with coefficient='foo' was a raw `ValueError: foo` (wkappa plan
    --coefficient foo: an internal error, exit 1)."""
    with pytest.raises(WkappaError, match="`coefficient` must be 'cohen', 'fleiss'"):
        wk.kappa_sample_size(
            kappa1=0.6, marginals=[0.3, 0.7], n_raters=3, coefficient="foo", method="simulation"
        )
