"""The several-raters simulation planner scores whole stacks of simulated studies at once;
each study must get exactly what wk.agreement reports for it, and the planner's decision
(kappa0 outside the asymptotic interval) must be the one that result's interval makes.
Also: the search over n finds the smallest n of a monotone goal from any guess.
"""

from __future__ import annotations

import itertools
import math
import time
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from wkappa._core import agreement_weight_matrix, check_agreement_weights
from wkappa._stats.planning_search import search_n
from wkappa._stats.planning_simulation import (
    PatternModel,
    StudyQuestion,
    draw_ratings,
    score_patterns,
    score_several,
    simulate_several,
)
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

PI = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]


def _one_study(ratings: np.ndarray, coefficient: str, weights: str) -> wk.AgreementResult:
    k = PI.size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        if coefficient == "conger":
            return wk.agreement(
                ratings, coefficient=coefficient, weights=weights, labels=list(range(k))
            )
        counts = np.stack([np.bincount(row, minlength=k) for row in ratings])
        return wk.agreement_from_counts(counts, coefficient=coefficient, weights=weights)


@pytest.mark.parametrize("weights", ["unweighted", "quadratic", "linear"])
@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_score_several_is_agreement(coefficient: str, weights: str) -> None:
    rng = np.random.default_rng(7)
    ratings = draw_ratings(PI, 0.5, (8, 12, 3), rng)
    _, matrix = agreement_weight_matrix(
        check_agreement_weights(weights), PI.size, coefficient, tuple(range(PI.size))
    )
    statistic, se = score_several(ratings, PI.size, coefficient, matrix)
    for j in range(len(ratings)):
        result = _one_study(ratings[j], coefficient, weights)
        assert statistic[j] == pytest.approx(result.statistic, abs=1e-12)
        assert se[j] == pytest.approx(result.standard_error, abs=1e-12)


def test_draw_ratings_follows_the_model() -> None:
    """With probability kappa1 all raters agree on a category drawn from pi."""
    ratings = draw_ratings(PI, 0.6, (1, 40_000, 3), np.random.default_rng(1))[0]
    all_same = np.mean((ratings == ratings[:, :1]).all(axis=1))
    independent_same = float(np.sum(PI**3))
    assert all_same == pytest.approx(0.6 + 0.4 * independent_same, abs=0.01)
    shares = np.bincount(ratings.ravel(), minlength=PI.size) / ratings.size
    np.testing.assert_allclose(shares, PI, atol=0.01)


@pytest.mark.parametrize(
    ("coefficient", "alternative", "kappa0"),
    [
        ("fleiss", "greater", 0.3),
        ("conger", "two-sided", 0.3),
        ("gwet", "less", 0.8),
        ("krippendorff", "greater", 0.0),
    ],
)
def test_simulated_decisions_are_agreements_own(
    coefficient: str, alternative: str, kappa0: float
) -> None:
    """Power, assurance and mean width of simulate_several on 60 studies equal the rates
    of wk.agreement's own intervals on the same 60 draws."""
    n, raters, seed = 15, 3, 11
    question = StudyQuestion(
        kappa0=kappa0,
        alternative=alternative,  # type: ignore[arg-type]
        alpha=0.05,
        lower_limit=0.2,
        confidence_level=0.9,
        n_simulations=60,
    )
    outcome = simulate_several(
        PI,
        0.55,
        n,
        question,
        np.random.default_rng(seed),
        n_raters=raters,
        coefficient=coefficient,
        weights="quadratic",
    )
    ratings = draw_ratings(PI, 0.55, (60, n, raters), np.random.default_rng(seed))
    level = 0.95 if alternative == "two-sided" else 0.90
    rejected = cleared = 0
    widths = []
    for study in ratings:
        result = _one_study(study, coefficient, "quadratic")
        if not math.isfinite(result.statistic):
            continue
        low, high = result.confidence_interval(level)
        if alternative == "greater":
            rejected += low > kappa0
        elif alternative == "less":
            rejected += high < kappa0
        else:
            rejected += low > kappa0 or high < kappa0
        low90, high90 = result.confidence_interval(0.9)
        cleared += low90 > 0.2
        widths.append(high90 - low90)
    assert outcome.power == rejected / 60
    assert outcome.assurance == cleared / 60
    assert outcome.expected_width == pytest.approx(float(np.mean(widths)), abs=1e-12)
    assert 0.0 < outcome.power < 1.0 or coefficient == "gwet"


@settings(max_examples=examples(200), deadline=None)
@given(
    answer=st.integers(2, 3000),
    guess=st.integers(2, 3000),
    step=st.one_of(st.none(), st.integers(1, 200)),
)
def test_search_n_finds_the_smallest(answer: int, guess: int, step: int | None) -> None:
    asked: list[int] = []

    def meets(n: int) -> bool:
        asked.append(n)
        return n >= answer

    assert search_n(meets, guess, refusal="unmet", step=step) == answer
    assert len(asked) < 60


@given(
    answer=st.integers(2, 101),
    guess=st.integers(2, 200),
    step=st.one_of(st.none(), st.integers(1, 30)),
)
def test_search_n_stops_at_max_n(answer: int, guess: int, step: int | None) -> None:
    def meets(n: int) -> bool:
        assert 2 <= n <= 100
        return n >= answer

    if answer > 100:
        with pytest.raises(WkappaError, match=r"^unmet: relax the goal$"):
            search_n(meets, guess, refusal="unmet: relax the goal", max_n=100, step=step)
    else:
        assert search_n(meets, guess, refusal="unmet", max_n=100, step=step) == answer


def test_several_raters_plan_is_reproducible_and_near_its_power() -> None:
    kwargs = {
        "kappa1": 0.7,
        "kappa0": 0.4,
        "marginals": [0.3, 0.7],
        "weights": "unweighted",
        "n_raters": 3,
        "coefficient": "conger",
        "method": "simulation",
        "n_simulations": 300,
        "rng": 5,
    }
    plan = wk.kappa_sample_size(**kwargs)  # type: ignore[arg-type]
    assert wk.kappa_sample_size(**kwargs).n == plan.n  # type: ignore[arg-type]
    assert plan.power >= 0.8
    fewer = wk.kappa_power(plan.n - 1, **kwargs)  # type: ignore[arg-type]
    assert fewer.power < 0.8


# ----------------------------------------------------------------- large studies: pattern tables


@pytest.mark.parametrize("conger", [False, True])
@pytest.mark.parametrize("n_raters", [2, 3, 4])
def test_pattern_probabilities_are_the_models(conger: bool, n_raters: int) -> None:
    """Each pattern's probability equals the common-kappa model's, summed in exact rational
    arithmetic over every code row (R-tuple) with that pattern."""
    pi = [Fraction(1, 10), Fraction(3, 10), Fraction(6, 10)]
    kappa1 = Fraction(2, 5)
    model = PatternModel.of(np.array([float(p) for p in pi]), float(kappa1), n_raters, conger)
    exact: dict[tuple[int, ...], Fraction] = {}
    for row in itertools.product(range(3), repeat=n_raters):
        chance = math.prod((pi[c] for c in row), start=Fraction(1))
        value = (1 - kappa1) * chance + (kappa1 * pi[row[0]] if len(set(row)) == 1 else 0)
        key = row if conger else tuple(np.bincount(row, minlength=3))
        exact[key] = exact.get(key, Fraction(0)) + value
    got = {
        tuple(row if conger else counts): p
        for row, counts, p in zip(model.rows, model.counts, model.probability, strict=True)
    }
    assert set(got) == set(exact)
    for key, value in exact.items():
        assert got[key] == pytest.approx(float(value), rel=1e-13)
    assert len(model.probability) == PatternModel.size(3, n_raters, conger)


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_a_pattern_table_scores_as_its_items(coefficient: str) -> None:
    """A study given as its table of patterns gets the coefficient and standard error of
    the same study item by item (score_several, itself wk.agreement's)."""
    conger = coefficient == "conger"
    model = PatternModel.of(PI, 0.5, 3, conger)
    ratings = draw_ratings(PI, 0.5, (6, 40, 3), np.random.default_rng(3))
    index = {tuple(row): p for p, row in enumerate(model.rows if conger else model.counts)}
    multiplicity = np.zeros((6, len(model.probability)), dtype=np.int64)
    for j, study in enumerate(ratings):
        for row in study:
            key = tuple(row) if conger else tuple(np.bincount(row, minlength=PI.size))
            multiplicity[j, index[key]] += 1
    _, matrix = agreement_weight_matrix(
        check_agreement_weights("quadratic"), PI.size, coefficient, tuple(range(PI.size))
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        want = score_several(ratings, PI.size, coefficient, matrix)
        got = score_patterns(model, multiplicity, coefficient, matrix)
    np.testing.assert_allclose(got[0], want[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1], want[1], rtol=0, atol=1e-12)


@pytest.mark.slow
def test_pattern_route_draws_what_the_item_route_draws() -> None:
    """The same studies (n = 40, three raters) simulated both ways: the distributions of
    the statistic and of its standard error agree (two-sample KS tests)."""
    stats = pytest.importorskip("scipy.stats")
    pi, kappa1, n, b = np.array([0.2, 0.3, 0.5]), 0.5, 40, 3000
    model = PatternModel.of(pi, kappa1, 3, conger=False)
    _, matrix = agreement_weight_matrix(
        check_agreement_weights("quadratic"), 3, "fleiss", (0, 1, 2)
    )
    items = score_several(draw_ratings(pi, kappa1, (b, n, 3), np.random.default_rng(1)), 3,
                          "fleiss", matrix)  # fmt: skip
    multiplicity = np.random.default_rng(2).multinomial(n, model.probability, size=b)
    tables = score_patterns(model, multiplicity, "fleiss", matrix)
    for old, new in zip(items, tables, strict=True):
        assert stats.ks_2samp(old, new).pvalue > 1e-3
        assert np.mean(new) == pytest.approx(np.mean(old), abs=4 * np.std(old) / math.sqrt(b))


def test_power_of_a_billion_items_is_quick() -> None:
    """Before: one study of 10**9 items drew 3 x 10**9 ratings (minutes, gigabytes). Now its
    cost does not depend on n, and the interval shrinks as 1 / sqrt(n)."""
    options = {"kappa1": 0.6, "kappa0": 0.599, "marginals": [0.2, 0.3, 0.5], "n_raters": 3,
               "method": "simulation", "n_simulations": 200, "rng": 1}  # fmt: skip
    for coefficient in ("fleiss", "conger"):
        start = time.perf_counter()
        huge = wk.kappa_power(10**9, coefficient=coefficient, **options)  # type: ignore[arg-type]
        assert time.perf_counter() - start < 20.0
        large = wk.kappa_power(10**6, coefficient=coefficient, **options)  # type: ignore[arg-type]
        assert huge.power == 1.0
        assert huge.expected_width * math.sqrt(1000) == pytest.approx(
            large.expected_width, rel=0.01
        )


def test_too_many_patterns_and_items_is_refused() -> None:
    """Conger's kappa of 12 raters has 5**12 code rows: a study of 10**7 items can be drawn
    only item by item, which would take 1.2 x 10**11 ratings."""
    with pytest.raises(WkappaError, match=r"`n_raters` = 12 .* method='asymptotic'"):
        wk.kappa_power(10**7, kappa1=0.6, marginals=PI, n_raters=12, coefficient="conger",
                       method="simulation", n_simulations=100)  # fmt: skip


@pytest.mark.parametrize(
    ("options", "who"),
    [
        ({"n_raters": 3, "method": "simulation", "n_simulations": 200, "rng": 0}, "n_raters=3"),
        ({"coefficient": "gwet", "method": "simulation", "n_simulations": 200, "rng": 0},
         "coefficient='gwet'"),
        ({"method": "goodness-of-fit"}, "method='goodness-of-fit'"),
    ],
)  # fmt: skip
def test_a_table_for_the_common_kappa_model_names_what_asked_for_it(options, who) -> None:
    # It said "Several raters and method='goodness-of-fit' use the common-kappa model" to a
    # caller who had asked for method='simulation'.
    with pytest.raises(WkappaError, match="common-kappa model") as info:
        wk.kappa_power(50, table=[[0.3, 0.1], [0.15, 0.45]], **options)
    message = str(info.value)
    assert message.startswith(who) and "instead of `table=`" in message, message
    if "goodness" not in who:
        assert "goodness-of-fit" not in message, message


def test_a_several_raters_goodness_of_fit_plan_says_whose_power_it_states() -> None:
    """Three raters, prevalence 0.5, kappa0 = 0 -> 0.6: the formula states 0.816 for 6 items,
    the power of its chi-square test of the model's cells; wkappa's test of Fleiss' kappa
    has far less there (benchmarks/planning_gof_range.py), below the ratio that warns."""
    design = {"kappa1": 0.6, "kappa0": 0.0, "marginals": [0.5, 0.5], "weights": "unweighted"}
    plan = wk.kappa_sample_size(**design, n_raters=3, method="goodness-of-fit")  # type: ignore[arg-type]
    assert plan.n == 6
    assert "power of the goodness-of-fit chi-square test" in plan.explain()
    assert "'simulation' method" in plan.explain()
    two = wk.kappa_sample_size(**design, method="goodness-of-fit")  # type: ignore[arg-type]
    assert "chi-square test" not in two.explain()
