"""Study planning: kappa_sample_size and kappa_power.

Published sample sizes (tests/published.py names each source), kappaSize's goodness-of-fit
formulas re-derived independently (scipy's noncentral chi-square for the noncentrality), the
linear programs against scipy.optimize.linprog, properties (n falls as kappa1 - kappa0 grows,
power rises with n) and bad input. Simulation checks of the promised power and width are in
test_planning_simulation.py.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from published import (
    KAPPASIZE_PRINTOUTS,
    LOWER_LIMIT_PRINTOUTS,
    PLAN_PRINTOUTS,
    PRESIZE_PRINTOUTS,
    LowerLimitPrintout,
    PlanPrintout,
)
from wkappa._core import weight_matrix
from wkappa._stats.planning_models import (
    agreement_extremes,
    linear_program,
    max_variance,
    model_table,
    spread,
)
from wkappa.exceptions import PlanApproximationWarning, WkappaError

pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize("printout", PLAN_PRINTOUTS, ids=lambda p: str(p.n))
def test_published_sample_sizes(printout: PlanPrintout) -> None:
    plan = wk.kappa_sample_size(**printout.call)  # type: ignore[arg-type]
    assert plan.n == printout.n, printout.source


@pytest.mark.parametrize(
    "printout",
    KAPPASIZE_PRINTOUTS + PRESIZE_PRINTOUTS,
    ids=lambda p: f"{p.source.split()[0]}-{p.n}",
)
def test_kappasize_and_presize_printed_sample_sizes(printout: PlanPrintout) -> None:
    """The n printed by kappaSize's Power*/CI* functions and presize's prec_kappa."""
    plan = wk.kappa_sample_size(**printout.call)  # type: ignore[arg-type]
    assert plan.n == printout.n, printout.source
    # One item fewer misses the goal: the printed n is the smallest, not just a sufficient one
    # (Width plans: n equal to the printed one is the check; kappa_power has no width goal.)
    if "ci_width" not in printout.call:
        options = {key: value for key, value in printout.call.items() if key != "power"}
        fewer = wk.kappa_power(printout.n - 1, **options)  # type: ignore[arg-type]
        if "lower_limit" in printout.call:
            assert fewer.assurance < 0.5
        else:
            assert fewer.power < printout.call.get("power", 0.8)  # type: ignore[operator]


@pytest.mark.parametrize("printout", LOWER_LIMIT_PRINTOUTS, ids=lambda p: str(p.lower))
def test_kappasize_printed_lower_limits(printout: LowerLimitPrintout) -> None:
    """kappaSize's FixedN* (and presize's prec_kappa(n=...)) expected lower limit: the
    printed value floored to 0.001 is cleared with assurance 0.5, the next 0.001 is not."""
    options = {
        **printout.call,
        "method": "goodness-of-fit",
        "weights": "unweighted",
        "confidence_level": 0.90,
    }
    n = options.pop("n")
    at = wk.kappa_power(n, lower_limit=printout.lower, **options)  # type: ignore[arg-type]
    above = wk.kappa_power(n, lower_limit=printout.lower + 0.001, **options)  # type: ignore[arg-type]
    assert at.assurance >= 0.5 > above.assurance, printout.source


# --------------------------------------------------------------------------- kappaSize


def _binary_cells(kappa: float, p: float, raters: int) -> list[float]:
    """kappaSize's PowerBinary cell probabilities, as printed in its source for R = 2, 3."""
    if raters == 2:
        return [(1 - p) ** 2 + kappa * p * (1 - p), 2 * (1 - kappa) * p * (1 - p),
                p**2 + kappa * p * (1 - p)]  # fmt: skip
    assert raters == 3
    return [
        (1 - p) ** 3 + p * kappa * ((1 - p) ** 2 + (1 - p)),
        3 * p * (1 - kappa) * (1 - p) ** 2,
        3 * p**2 * (1 - p) * (1 - kappa),
        p**3 + kappa * p * (1 - p**2),
    ]


def _three_cells(kappa: float, props: list[float], raters: int) -> list[float]:
    """kappaSize's Power3Cats cells: all raters in category i, and the rest."""
    if raters == 2:
        agree = [q * q * (-(-q - kappa + kappa * q) / q) for q in props]
    else:
        assert raters == 3
        agree = [
            q**3
            * ((q**2 + 3 * kappa * q - 2 * kappa * q**2 + 2 * kappa**2 - 3 * kappa**2 * q
                + kappa**2 * q**2) / q**2)
            / (1 + kappa)
            for q in props
        ]  # fmt: skip
    return [1 - sum(agree), *agree]


def _kappasize_n(cells1: list[float], cells0: list[float], alpha: float, power: float) -> int:
    ncx2 = pytest.importorskip("scipy.stats").ncx2
    chi2 = pytest.importorskip("scipy.stats").chi2
    from scipy.optimize import brentq

    critical = chi2.ppf(1 - alpha, 1)
    lam = brentq(lambda x: ncx2.cdf(critical, 1, x) - (1 - power), 1e-6, 100)
    distance = sum((a - b) ** 2 / b for a, b in zip(cells1, cells0, strict=True))
    return math.ceil(lam / distance)


@pytest.mark.parametrize("raters", [2, 3])
@pytest.mark.parametrize(
    ("kappa0", "kappa1", "prevalence"), [(0.4, 0.6, 0.3), (0.2, 0.5, 0.1), (0.6, 0.8, 0.5)]
)
def test_goodness_of_fit_binary_is_kappasize(
    raters: int, kappa0: float, kappa1: float, prevalence: float
) -> None:
    """PowerBinary(kappa0, kappa1, props, raters) (its example: 0.4, 0.6, 0.30)."""
    expected = _kappasize_n(
        _binary_cells(kappa1, prevalence, raters),
        _binary_cells(kappa0, prevalence, raters),
        0.05,
        0.8,
    )
    plan = wk.kappa_sample_size(
        kappa1=kappa1,
        kappa0=kappa0,
        marginals=[1 - prevalence, prevalence],
        weights="unweighted",
        alternative="two-sided",
        method="goodness-of-fit",
        n_raters=raters,
    )
    assert plan.n == expected
    assert 0.8 <= plan.power < 0.81


@pytest.mark.parametrize("raters", [2, 3])
def test_goodness_of_fit_three_categories_is_kappasize(raters: int) -> None:
    """Power3Cats(0.4, 0.6, c(0.30, 0.60, 0.10)), its example."""
    props = [0.3, 0.6, 0.1]
    expected = _kappasize_n(
        _three_cells(0.6, props, raters), _three_cells(0.4, props, raters), 0.05, 0.8
    )
    plan = wk.kappa_sample_size(
        kappa1=0.6,
        kappa0=0.4,
        marginals=props,
        weights="unweighted",
        alternative="two-sided",
        method="goodness-of-fit",
        n_raters=raters,
    )
    assert plan.n == expected


def test_goodness_of_fit_lower_limit_is_cibinary() -> None:
    """CIBinary(kappa0 = 0.4, kappaL = 0.3, props = 0.3, alpha = 0.05), one-sided: the n
    whose goodness-of-fit statistic of 0.3 against 0.4 reaches chi2_{1 - 2 alpha}."""
    chi2 = pytest.importorskip("scipy.stats").chi2
    cells1, cells_l = _binary_cells(0.4, 0.3, 2), _binary_cells(0.3, 0.3, 2)
    distance = sum((a - b) ** 2 / b for a, b in zip(cells1, cells_l, strict=True))
    expected = math.ceil(chi2.ppf(0.9, 1) / distance)
    plan = wk.kappa_sample_size(
        kappa1=0.4,
        lower_limit=0.3,
        marginals=[0.7, 0.3],
        weights="unweighted",
        method="goodness-of-fit",
        confidence_level=0.9,
    )
    assert plan.n == expected
    assert plan.assurance == pytest.approx(0.5, abs=0.02)


# --------------------------------------------------------------------------- linear programs


@settings(max_examples=examples(40), deadline=None)
@given(
    k=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    weights=st.sampled_from(["quadratic", "linear", "unweighted", "custom"]),
)
def test_linear_programs_match_scipy(k: int, seed: int, weights: str) -> None:
    linprog = pytest.importorskip("scipy.optimize").linprog
    rng = np.random.default_rng(seed)
    rows, cols = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
    if weights == "custom":
        w = rng.uniform(0.1, 2.0, (k, k))
        np.fill_diagonal(w, 0.0)
    else:
        w = weight_matrix(weights, k)
    most, least = agreement_extremes(rows, cols, w)
    a_eq = np.zeros((2 * k, k * k))
    for i in range(k):
        a_eq[i, i * k : (i + 1) * k] = 1
        a_eq[k + i, i::k] = 1
    b_eq = np.concatenate([rows, cols])
    low = linprog(w.ravel(), A_eq=a_eq, b_eq=b_eq, bounds=(0, None))
    high = linprog(-w.ravel(), A_eq=a_eq, b_eq=b_eq, bounds=(0, None))
    assert (w * most).sum() == pytest.approx(low.fun, abs=1e-9)
    assert (w * least).sum() == pytest.approx(-high.fun, abs=1e-9)
    np.testing.assert_allclose(most.sum(axis=1), rows, atol=1e-9)
    # The variance-maximising table: scipy's optimum equals ours.
    d_e = float(rows @ w @ cols)
    kappa = 0.5 * (1 - (w * most).sum() / d_e)
    w_row, w_col = w @ cols, rows @ w
    influence = w - (1 - kappa) * (w_row[:, None] + w_col[None, :])
    a_var = np.vstack([a_eq, w.ravel()])
    b_var = np.concatenate([b_eq, [(1 - kappa) * d_e]])
    best = linprog(-(influence**2).ravel(), A_eq=a_var, b_eq=b_var, bounds=(0, None))
    expected = (-best.fun - ((1 - kappa) * d_e) ** 2) / d_e**2
    assert max_variance(rows, cols, w, kappa) == pytest.approx(expected, rel=1e-7, abs=1e-12)
    # ... and no table with these margins and kappa has a larger variance.
    table = model_table(rows, cols, w, kappa)
    assert spread(table, w) <= max_variance(rows, cols, w, kappa) + 1e-12


def test_linear_program_reports_infeasible() -> None:
    assert linear_program(np.ones(2), np.array([[1.0, 1.0]]), np.array([-1.0])) is None


def test_model_table_has_the_margins_and_kappa() -> None:
    rows, cols = np.array([0.2, 0.5, 0.3]), np.array([0.3, 0.4, 0.3])
    for name in ("quadratic", "linear", "unweighted"):
        w = weight_matrix(name, 3)
        for kappa in (-0.2, 0.0, 0.4, 0.7):
            table = model_table(rows, cols, w, kappa)
            assert wk.kappa_from_table(table, weights=w) == pytest.approx(kappa, abs=1e-12)
            np.testing.assert_allclose(table.sum(axis=1), rows, atol=1e-12)
            np.testing.assert_allclose(table.sum(axis=0), cols, atol=1e-12)
            assert (table >= -1e-15).all()


# --------------------------------------------------------------------------- properties


@settings(max_examples=examples(40), deadline=None)
@given(
    kappa0=st.floats(0.0, 0.5),
    gap=st.floats(0.05, 0.3),
    more=st.floats(0.01, 0.15),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
    method=st.sampled_from(["asymptotic", "max-variance", "goodness-of-fit"]),
)
def test_n_falls_as_the_difference_grows(
    kappa0: float, gap: float, more: float, weights: str, method: str
) -> None:
    marginals = [0.15, 0.35, 0.3, 0.2]
    if method == "goodness-of-fit":  # a plan for unweighted kappa only
        weights = "unweighted"
    with warnings.catch_warnings():  # the formulas' property, in range of the approximation or not
        warnings.filterwarnings("ignore", "method='goodness-of-fit' is outside", UserWarning)
        near = wk.kappa_sample_size(
            kappa1=kappa0 + gap, kappa0=kappa0, marginals=marginals, weights=weights, method=method
        )
        far = wk.kappa_sample_size(
            kappa1=min(kappa0 + gap + more, 0.95),
            kappa0=kappa0,
            marginals=marginals,
            weights=weights,
            method=method,
        )
    assert far.n <= near.n
    assert near.power >= 0.8 and far.power >= 0.8


@settings(max_examples=examples(40), deadline=None)
@given(
    n=st.integers(5, 400),
    step=st.integers(1, 200),
    method=st.sampled_from(["asymptotic", "max-variance", "goodness-of-fit"]),
    alternative=st.sampled_from(["greater", "two-sided"]),
)
def test_power_rises_with_n(n: int, step: int, method: str, alternative: str) -> None:
    options = {
        "kappa1": 0.7,
        "kappa0": 0.5,
        "marginals": [0.3, 0.4, 0.3],
        "weights": "unweighted" if method == "goodness-of-fit" else "linear",
        "method": method,
        "alternative": alternative,
    }
    with warnings.catch_warnings():  # a sparse category warns (test_planning_small_n.py)
        warnings.simplefilter("ignore", PlanApproximationWarning)
        small = wk.kappa_power(n, **options)  # type: ignore[arg-type]
        large = wk.kappa_power(n + step, **options)  # type: ignore[arg-type]
    assert large.power >= small.power
    assert large.expected_width <= small.expected_width


def test_sample_size_is_the_smallest_n_with_the_power() -> None:
    for weights in ("quadratic", "linear", "unweighted"):
        plan = wk.kappa_sample_size(
            kappa1=0.75, kappa0=0.5, marginals=[0.1, 0.2, 0.4, 0.2, 0.1], weights=weights
        )
        options = {"kappa1": 0.75, "kappa0": 0.5, "marginals": [0.1, 0.2, 0.4, 0.2, 0.1]}
        assert wk.kappa_power(plan.n, weights=weights, **options).power >= 0.8  # type: ignore[arg-type]
        assert wk.kappa_power(plan.n - 1, weights=weights, **options).power < 0.8  # type: ignore[arg-type]


def test_precision_plans() -> None:
    marginals = [0.1, 0.2, 0.4, 0.2, 0.1]
    plan = wk.kappa_sample_size(kappa1=0.8, marginals=marginals, ci_width=0.2)
    assert plan.expected_width <= 0.2
    assert wk.kappa_power(plan.n - 1, kappa1=0.8, marginals=marginals).expected_width > 0.2
    limit = wk.kappa_sample_size(kappa1=0.8, marginals=marginals, lower_limit=0.6, assurance=0.9)
    assert limit.assurance >= 0.9 and limit.goal == "lower_limit"
    # The lower limit plan is the power plan of the test of kappa0 = lower_limit at
    # alpha = (1 - level) / 2 with power = assurance.
    same = wk.kappa_sample_size(kappa1=0.8, kappa0=0.6, marginals=marginals, alpha=0.025, power=0.9)
    assert same.n == limit.n


def test_table_and_pilot_counts() -> None:
    probabilities = np.array([[0.3, 0.05, 0.0], [0.05, 0.3, 0.05], [0.0, 0.05, 0.2]])
    counts = (probabilities * 200).round().astype(int)
    by_p = wk.kappa_sample_size(table=probabilities, kappa0=0.5)
    by_counts = wk.kappa_sample_size(table=counts, kappa0=0.5)
    assert by_p.n == by_counts.n
    assert by_p.kappa1 == pytest.approx(wk.kappa_from_table(probabilities))
    moved = wk.kappa_sample_size(table=counts, kappa1=0.7, kappa0=0.5)
    assert moved.kappa1 == pytest.approx(0.7, abs=1e-9)
    higher = wk.kappa_sample_size(table=counts, kappa1=0.95, kappa0=0.5)
    assert higher.kappa1 == pytest.approx(0.95, abs=1e-9)


def test_result_object() -> None:
    plan = wk.kappa_sample_size(kappa1=0.7, kappa0=0.4, marginals=[0.3, 0.7])
    data = json.loads(json.dumps(plan.to_dict()))
    assert data["n"] == plan.n and data["method"] == "asymptotic"
    assert data["ci_width"] is None and data["table"][0][0] == pytest.approx(plan.table[0, 0])
    assert repr(plan).startswith(f"KappaPlan(n={plan.n}, power=")
    with pytest.raises(ValueError):
        plan.table[0, 0] = 1.0
    with pytest.raises(AttributeError):
        plan.n = 3  # type: ignore[misc]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"table": [[0.5, 0.2], [0.2, 0.2]]}, "sum to 1"),
        ({"marginals": [0.5, 0.6], "kappa1": 0.5}, "sum to 1"),
        ({"marginals": [[0.9, 0.1], [0.1, 0.9]], "kappa1": 0.5}, "outside what these marginals"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "power": 0.03}, "above `alpha`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "power": 1.0}, "power"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "ci_width": -0.1}, "ci_width"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "lower_limit": 0.6}, "below the anticipated"),
        (
            {"marginals": [0.5, 0.5], "kappa1": 0.5, "kappa0": 0.5},
            "`kappa1` and `kappa0` are both 0.5",
        ),
        ({"marginals": [0.5, 0.5], "kappa1": 0.3, "kappa0": 0.5}, "alternative='less'"),
        ({"marginals": [0.5, 0.5]}, "kappa1"),
        ({"kappa1": 0.5}, "exactly one"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "method": "exact"}, "method"),
        ({"marginals": [0.5, 0.5], "kappa1": 1.2}, "kappa1"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "n_raters": 3}, "simulation"),
        ({"table": [[0.5, 0.1], [0.1, 0.3]], "method": "goodness-of-fit"}, "shared"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "assurance": 0.9}, "lower_limit"),
        # odd inputs: strings, nan, 0-d arrays, empty, ragged, degenerate populations
        ({"marginals": [0.5, 0.5], "kappa1": "0.5"}, "`kappa1`"),
        ({"marginals": [0.5, 0.5], "kappa1": float("nan")}, "`kappa1`"),
        ({"marginals": [0.5, 0.5], "kappa1": np.array(0.5)}, "`kappa1`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "power": float("nan")}, "`power`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "alpha": -0.1}, "`alpha`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "ci_width": "0.2"}, "`ci_width`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "lower_limit": float("nan")}, "`lower_limit`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "confidence_level": 95}, "confidence_level"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "n_raters": "3"}, "`n_raters`"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "coefficient": 3}, "`coefficient`"),
        ({"marginals": "abc", "kappa1": 0.5}, "`marginals`"),
        ({"marginals": [], "kappa1": 0.5}, "`marginals`"),
        ({"marginals": np.array(0.5), "kappa1": 0.5}, "`marginals`"),
        ({"marginals": [np.nan, 1.0], "kappa1": 0.5}, "`marginals`"),
        ({"marginals": [-0.5, 1.5], "kappa1": 0.5}, "`marginals`"),
        ({"marginals": [[0.5, 0.5], [0.2, 0.3, 0.5]], "kappa1": 0.5}, "`marginals`"),
        ({"marginals": [1.0, 0.0], "kappa1": 0.5}, "one and the same category"),
        ({"table": "x"}, "`table`"),
        ({"table": np.array(3.0)}, "`table`"),
        ({"table": []}, "`table`"),
        ({"table": [[np.nan, 1], [1, 1]]}, "`table`"),
        ({"table": [[5, 0], [0, 0]]}, "undefined"),
        ({"table": [[5, 0], [0, 5]]}, "agrees perfectly"),
        ({"marginals": [0.5, 0.5], "kappa1": 0.5, "weights": "cubic"}, "`weights`"),
        (
            {
                "marginals": [0.5, 0.5],
                "kappa1": 0.5,
                "weights": "cubic",
                "n_raters": 3,
                "method": "goodness-of-fit",
            },
            "`weights`",
        ),
        (
            {"marginals": [0.5, 0.5], "kappa1": 0.5, "method": "simulation", "rng": "a"},
            "`rng`",
        ),
        (
            {
                "marginals": [0.5, 0.5],
                "kappa1": 0.5,
                "method": "simulation",
                "n_simulations": "100",
            },
            "`n_simulations`",
        ),
    ],
)
def test_bad_input(options: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.kappa_sample_size(**options)  # type: ignore[arg-type]


def test_bad_n() -> None:
    for bad in (1, 0, 2.5, "10", True, float("nan"), np.array(10), None):
        with pytest.raises(WkappaError, match="`n`"):
            wk.kappa_power(bad, kappa1=0.5, marginals=[0.5, 0.5])  # type: ignore[arg-type]
    # A simulated study of 10**30 items: numpy's multinomial raised a raw OverflowError.
    with pytest.raises(WkappaError, match="is too large to simulate"):
        wk.kappa_power(10**30, kappa1=0.5, marginals=[0.5, 0.5], method="simulation")
    assert wk.kappa_power(10**30, kappa1=0.5, marginals=[0.5, 0.5]).power == 1.0


@pytest.mark.parametrize(
    ("call", "cell"),
    [
        ({"n_raters": 3, "marginals": [0.3, 0.7]}, "'all 3 raters give the first category'"),
        ({"marginals": [0.05, 0.95]}, "'all 2 raters give the first category'"),
        (
            {"n_raters": 4, "marginals": [0.2, 0.3, 0.5], "weights": "unweighted"},
            "'all 4 raters give category 1'",
        ),
    ],
)
def test_goodness_of_fit_warns_outside_its_approximation(
    call: dict[str, object], cell: str
) -> None:
    """kappa0 = 0 with several raters or a rare category: the chi-square noncentrality
    promised 0.8 power at n = 2-18 items where wkappa's test delivers 0.02-0.69
    (benchmarks/planning_gof_range.py); the plan now says so."""
    options = {"kappa1": 0.6, "method": "goodness-of-fit", **call}
    with pytest.warns(UserWarning, match=rf"outside the range.*{cell}.*method='simulation'"):
        wk.kappa_sample_size(**options)  # type: ignore[arg-type]
    with pytest.warns(UserWarning, match="outside the range"):
        wk.kappa_power(30, **options)  # type: ignore[arg-type]


def test_goodness_of_fit_within_its_range_is_quiet() -> None:
    """Balanced two-rater plans, and every kappaSize printout (filterwarnings=error)."""
    wk.kappa_sample_size(kappa1=0.6, marginals=[0.3, 0.7], method="goodness-of-fit")
    wk.kappa_sample_size(kappa1=0.6, kappa0=0.4, marginals=[0.3, 0.7], n_raters=5,
                         method="goodness-of-fit")  # fmt: skip


def test_explain_names_the_coefficient() -> None:
    fleiss = wk.kappa_sample_size(
        kappa1=0.6, kappa0=0.4, marginals=[0.3, 0.7], n_raters=3, method="goodness-of-fit"
    )
    assert "(Fleiss' kappa, quadratic weights, K = 2)" in fleiss.explain()


def test_an_all_zero_table_is_named() -> None:
    with pytest.raises(WkappaError, match="`table` is all zeros"):
        wk.kappa_sample_size(table=[[0, 0], [0, 0]])


def test_one_list_per_rater_for_several_raters_is_pointed_to_a_shared_list() -> None:
    with pytest.raises(WkappaError, match=r"3 lists, one per rater\?.*mean, \[0\.25, 0\.75\]"):
        wk.kappa_sample_size(
            kappa1=0.6,
            marginals=[[0.2, 0.8], [0.3, 0.7], [0.25, 0.75]],
            n_raters=3,
            method="goodness-of-fit",
        )


def test_n_simulations_without_the_simulation_method_is_refused() -> None:
    """It was silently ignored: a plan 'with 500 simulations' that simulated nothing."""
    with pytest.raises(WkappaError, match="`n_simulations` goes with method='simulation'"):
        wk.kappa_sample_size(kappa1=0.6, marginals=[0.3, 0.7], n_simulations=500)
    with pytest.raises(WkappaError, match="`rng` goes with method='simulation'"):
        wk.kappa_power(50, kappa1=0.6, marginals=[0.3, 0.7], method="asymptotic", rng=0)


# --------------------------------------------------------------------------- alpha and width


@pytest.mark.parametrize("alternative", ["greater", "less"])
@pytest.mark.parametrize("alpha", [0.5, 0.6, 0.95])
def test_one_sided_alpha_from_one_half_is_refused(alternative: str, alpha: float) -> None:
    """A one-sided test of size >= 0.5 has its critical value on kappa0's own side (the rule
    of a one-sided interval's confidence_level, which must be above 0.5); it was accepted."""
    kappa1 = 0.7 if alternative == "greater" else 0.2
    options = {"kappa1": kappa1, "kappa0": 0.4, "marginals": [0.5, 0.5]}
    with pytest.raises(WkappaError, match=r"`alpha` must be below 0\.5 for a one-sided test"):
        wk.kappa_sample_size(**options, alpha=alpha, alternative=alternative)
    with pytest.raises(WkappaError, match="`alpha`"):
        wk.kappa_power(30, **options, alpha=alpha, alternative=alternative)


def test_two_sided_alpha_above_one_half_is_a_test_of_that_size() -> None:
    """Two-sided, every alpha in (0, 1) is a test (statsmodels and pwr accept it too): its
    power is the normal formula's, P(|Z| > z_{1 - alpha/2}) under H1."""
    stats = pytest.importorskip("scipy.stats")
    marginals, kappa1, n = [0.5, 0.5], 0.5, 20
    plan = wk.kappa_power(n, kappa1=kappa1, marginals=marginals, alpha=0.6, alternative="two-sided")
    sd0, sd1 = plan.standard_deviation_null, plan.standard_deviation
    z = stats.norm.ppf(1 - 0.3)
    shift = kappa1 * math.sqrt(n)
    expected = stats.norm.cdf((shift - z * sd0) / sd1) + stats.norm.cdf((-shift - z * sd0) / sd1)
    assert plan.power == pytest.approx(expected, rel=1e-9)


def test_cli_plan_refuses_a_one_sided_alpha_in_cli_words(capsys) -> None:
    from wkappa._cli.app import main

    code = main(["plan", "--kappa1", "0.5", "--marginals", "0.5,0.5", "--alpha", "0.6"])
    err = capsys.readouterr().err
    assert code == 2 and "--alpha must be below 0.5" in err and "`alpha`" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("n", [2, 3, 10, 50])
def test_expected_width_is_the_width_confidence_interval_reports(n: int) -> None:
    """The asymptotic plan's expected width is the width of the asymptotic interval of the
    anticipated table (n times its probabilities), 2 z SE, which is not clipped to kappa's
    range: above 2 on two or three items. That table is not one of counts, so
    kappa_test_from_table refuses it; the width comes from the same variance."""
    from wkappa._core import norm_ppf, variances, weight_matrix

    with warnings.catch_warnings():  # two or three items: the power check warns
        warnings.simplefilter("ignore", PlanApproximationWarning)
        plan = wk.kappa_power(n, kappa1=0.5, marginals=[0.3, 0.7], weights="unweighted")
    table = np.asarray(plan.table) * n
    kappa = wk.kappa_from_table(table, weights="unweighted")
    variance, _ = variances(table, weight_matrix("unweighted", 2), kappa)
    width = 2.0 * norm_ppf(0.975) * float(np.sqrt(variance))
    assert plan.expected_width == pytest.approx(width, rel=1e-12)
    with pytest.raises(wk.WkappaError, match="`table` must give whole-number counts"):
        wk.kappa_test_from_table(table, weights="unweighted")
    assert (plan.expected_width > 2.0) == (n <= 3)
    gof = wk.kappa_power(n, kappa1=0.5, marginals=[0.3, 0.7], method="goodness-of-fit")
    assert 0.0 < gof.expected_width < 1.0  # its limits lie in [0, 1)


def _documented_coefficients() -> list[str]:
    doc = wk.kappa_sample_size.__doc__ or ""
    found = re.search(r"coefficient : \{([^}]*)\}, optional", doc)
    assert found is not None, "kappa_sample_size documents `coefficient` as a set of names"
    return re.findall(r"'(\w+)'", found.group(1))


def test_documented_coefficients_are_exactly_the_accepted_ones() -> None:
    documented = _documented_coefficients()
    assert set(documented) >= {"cohen", "percent"}
    for name in documented:
        plan = wk.kappa_power(
            30,
            kappa1=0.6,
            marginals=[0.3, 0.7],
            weights="unweighted",
            coefficient=name,
            method="simulation",
            n_simulations=100,
            rng=0,
        )
        assert plan.coefficient == (None if name == "cohen" else name)
    with pytest.raises(WkappaError, match=r"^`coefficient` must be ") as refused:
        wk.kappa_sample_size(kappa1=0.6, marginals=[0.3, 0.7], coefficient="xyz")
    listed = re.findall(r"'(\w+)'", str(refused.value).split("; got")[0])
    assert listed == documented


def _binary_gof_distance(p: float, anticipated: float, limit: float) -> float:
    """Donner & Eliasziw's per-item noncentrality of two raters, two categories: the cells
    'both give the first category', 'they differ', 'both give the second' (kappaSize)."""

    def cells(kappa: float) -> np.ndarray:
        q = 1.0 - p
        return np.array([p * p + kappa * p * q, 2 * p * q * (1 - kappa), q * q + kappa * p * q])

    return float(((cells(anticipated) - cells(limit)) ** 2 / cells(limit)).sum())


def _gof_limits_within(p: float, kappa1: float, half: float, n: int, level: float) -> bool:
    """Both expected goodness-of-fit limits within kappa1 -/+ half at n items: each limit is
    the kappa whose statistic against kappa1 reaches the critical value, so it lies within
    the bound when the bound's statistic reaches it (a bound outside [0, 1] holds always)."""
    critical = NormalDist().inv_cdf(0.5 + level / 2) ** 2
    bounds = [b for b in (kappa1 - half, kappa1 + half) if 0.0 < b < 1.0]
    return all(n * _binary_gof_distance(p, kappa1, b) >= critical for b in bounds)


@pytest.mark.parametrize(
    ("kappa1", "width", "p", "published"),
    [(0.4, 0.2, 0.3, 397), (0.3472, 0.3, 0.3, None), (0.6, 0.25, 0.2, None), (0.9, 0.3, 0.4, None)],
)
def test_goodness_of_fit_width_goal_is_both_limits_within_half_width(
    kappa1: float, width: float, p: float, published: int | None
) -> None:
    """The goodness-of-fit ci_width plan is the smallest n whose expected limits both lie
    within kappa1 -/+ W/2 (kappaSize's CIBinary: 397 for its example), and says so: that is
    stricter than an expected width <= W, which fewer items already give."""
    kw = {"kappa1": kappa1, "marginals": [p, 1 - p], "weights": "unweighted"}
    plan = wk.kappa_sample_size(ci_width=width, method="goodness-of-fit", **kw)
    if published is not None:
        assert plan.n == published
    assert _gof_limits_within(p, kappa1, width / 2, plan.n, 0.95)
    assert not _gof_limits_within(p, kappa1, width / 2, plan.n - 1, 0.95)
    assert plan.expected_width <= width
    half = f"{width / 2:g}"
    assert plan.goal_text.startswith(f"both 95% limits within kappa1 ± {half}")
    assert f"(wanted: both 95% limits within kappa1 ± {half}" in plan.explain()
    assert f"goal='limits within kappa1±{half}'" in repr(plan)
    assert "wanted <=" not in plan.explain()
    # The asymptotic plan's goal is the width itself.
    asymptotic = wk.kappa_sample_size(ci_width=width, **kw)
    assert asymptotic.goal_text == f"expected 95% interval width <= {width:g}"
    assert f"(wanted <= {width:g})" in asymptotic.explain()


def test_goodness_of_fit_cibinary_example_meets_the_width_earlier() -> None:
    """Why the goal must be named: at kappa1 = 0.4, W = 0.2 a width <= 0.2 alone takes 368
    items, not CIBinary's 397."""
    kw = {"kappa1": 0.4, "marginals": [0.3, 0.7], "weights": "unweighted"}
    assert wk.kappa_power(368, method="goodness-of-fit", **kw).expected_width <= 0.2
    assert wk.kappa_power(367, method="goodness-of-fit", **kw).expected_width > 0.2


@pytest.mark.parametrize("kappa1", [None, 0.7])
def test_a_table_without_chance_disagreement_is_refused_naming_table_and_the_fix(
    kappa1: float | None,
) -> None:
    """Both raters in one category: the message named neither the cause nor the fix."""
    with pytest.raises(WkappaError, match=r"^`table`'s kappa is undefined: its chance .* Hint: "):
        wk.kappa_sample_size(table=[[10, 0], [0, 0]], kappa1=kappa1)


def test_a_weight_matrix_of_the_wrong_size_names_the_population() -> None:
    """The error said "Hint: pass labels= to fix the categories", an option the planner does
    not have."""
    with pytest.raises(WkappaError, match=r"population \(`marginals` or `table`\) has K = 2") as e:
        wk.kappa_sample_size(kappa1=0.6, marginals=[0.3, 0.7], weights=np.zeros((3, 3)))
    assert "labels=" not in str(e.value) and "Hint: give a 2 x 2 matrix." in str(e.value)


def test_per_rater_marginals_with_several_raters_are_named_as_given() -> None:
    """The refusal said "instead of `table=`" to a caller who gave per-rater marginals."""
    with pytest.raises(WkappaError, match="instead of one list of `marginals` per rater") as e:
        wk.kappa_sample_size(
            kappa1=0.6, marginals=[[0.3, 0.7], [0.4, 0.6]], n_raters=3, method="simulation"
        )
    assert "table" not in str(e.value)
