"""The four planning methods: the sample size and what a given n delivers."""

from __future__ import annotations

import math

import numpy as np

from .._core import norm_cdf, norm_ppf, warn_at_caller
from ..exceptions import PlanApproximationWarning, WkappaError
from .planning_checks import goal_fields
from .planning_models import (
    goodness_of_fit_cells,
    max_variance,
    noncentrality_one_df,
    null_spread,
    spread,
)
from .planning_result import KappaPlan, PlanDesign
from .planning_search import MAX_N, search_n
from .planning_simulation import (
    SimulatedStudies,
    StudyQuestion,
    simulate_several,
    simulate_two_raters,
    study_rng,
)
from .planning_text import CHECK_SHORTFALL

__all__ = ["make_plan"]


def _z(p: float) -> float:
    return norm_ppf(p)


def _normal_power(design: PlanDesign, n: float) -> float:
    """Power of the large-sample test with per-item SDs sd0 (under H0) and sd1 (under H1)."""
    delta = design.kappa1 - design.kappa0
    if delta == 0.0:
        return math.nan
    root, sd0, sd1 = math.sqrt(n), design.sd0, design.sd1
    if design.alternative == "two-sided":
        z = _z(1.0 - design.alpha / 2.0)
        return norm_cdf((delta * root - z * sd0) / sd1) + norm_cdf((-delta * root - z * sd0) / sd1)
    sign = 1.0 if design.alternative == "greater" else -1.0
    return norm_cdf((sign * delta * root - _z(1.0 - design.alpha) * sd0) / sd1)


def _normal_assurance(design: PlanDesign, n: float) -> float:
    if design.lower_limit is None:
        return math.nan
    z = _z(0.5 + design.confidence_level / 2.0)
    gap = design.kappa1 - design.lower_limit
    return norm_cdf((gap * math.sqrt(n) - z * design.sd_lower) / design.sd1)


def _normal_width(design: PlanDesign, n: float) -> float:
    return 2.0 * _z(0.5 + design.confidence_level / 2.0) * design.sd1 / math.sqrt(n)


def _ceil(value: float) -> int:
    """Round a sample size up (tolerating float noise just above an integer)."""
    return max(2, math.ceil(value - 1e-9))


def _normal_n(design: PlanDesign) -> int:
    z_level = _z(0.5 + design.confidence_level / 2.0)
    if design.ci_width is not None:
        return _ceil((2.0 * z_level * design.sd1 / design.ci_width) ** 2)
    if design.lower_limit is not None:
        assert design.assurance is not None
        gap = design.kappa1 - design.lower_limit
        return _ceil(((z_level * design.sd_lower + _z(design.assurance) * design.sd1) / gap) ** 2)
    assert design.power is not None
    two = design.alternative == "two-sided"
    z = _z(1.0 - design.alpha / (2.0 if two else 1.0))
    delta = abs(design.kappa1 - design.kappa0)
    n = _ceil(((z * design.sd0 + _z(design.power) * design.sd1) / delta) ** 2)
    # The far tail of a two-sided test only adds power: the smallest n may be a little lower.
    while n > 2 and _normal_power(design, n - 1) >= design.power:
        n -= 1
    return n


def _prepare_normal(design: PlanDesign) -> None:
    """The per-item standard deviations of the 'asymptotic' and 'max-variance' methods."""
    p, w = design.p, design.weights
    if design.method == "asymptotic":
        design.sd1 = math.sqrt(spread(p, w))
        if not design.sd1 > 0.0:  # every study would show the same kappa
            raise WkappaError(
                f"The anticipated table has a kappa of {design.kappa1:.4g} with a standard "
                "deviation of 0 (every pair disagrees as far as these marginals allow): every "
                "study would show that kappa, and the large-sample formulas divide by that "
                "standard deviation. Hint: give `kappa1` above the smallest kappa these "
                "marginals allow, or a pilot `table=` with some agreement."
            )
        if design.tested:
            design.sd0 = math.sqrt(null_spread(p, w, design.kappa0))
        if design.lower_limit is not None:
            design.sd_lower = math.sqrt(null_spread(p, w, design.lower_limit))
        return
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    design.sd1 = math.sqrt(max_variance(rows, cols, w, design.kappa1))
    if design.tested:
        design.sd0 = math.sqrt(max_variance(rows, cols, w, design.kappa0))
    if design.lower_limit is not None:
        design.sd_lower = math.sqrt(max_variance(rows, cols, w, design.lower_limit))
    used = [design.sd1, design.sd0 if design.tested else design.sd1]
    if design.lower_limit is not None:
        used.append(design.sd_lower)
    if min(used) <= 0.0:
        raise WkappaError(
            "The largest variance with these marginals is 0 (kappa1 or kappa0 at the end "
            "of what they allow). Hint: move kappa1 / kappa0 inside the allowed range."
        )


# The large-sample plans check their normal approximation by simulation where a category is
# sparse at the planned n (fewer expected ratings than this in the rarest category), and warn
# when wkappa's test (or the lower limit) meets the goal in a share of the simulated studies
# more than CHECK_SHORTFALL below it: benchmarks/planning_small_n.py.
SMALL_CATEGORY_RATINGS = 15.0
_CHECK_STUDIES = 2000
_CHECK_SEED = 20261128


def _check_small_sample(
    design: PlanDesign, n: int, stated: dict[str, float] | None
) -> tuple[float, float, int]:
    """Check a large-sample plan's n in simulated studies where a category is sparse (a small
    n, where kappa is skewed or, all pairs in one category, undefined) and warn when it misses
    its goal. ``stated``: with a given n (``kappa_power``), the power and assurance the formula
    reports, which the simulated shares are held to instead of the goal.

    Returns the simulated power and assurance (nan where the plan has none) and the number of
    simulated studies (nan, nan, 0 where no check runs)."""
    unchecked = (math.nan, math.nan, 0)
    if design.ci_width is not None and stated is None:
        return unchecked
    rows, cols = design.p.sum(axis=1), design.p.sum(axis=0)
    rarest = n * float(min(rows.min(), cols.min()))
    if rarest >= SMALL_CATEGORY_RATINGS:
        return unchecked
    question = StudyQuestion(
        design.kappa0, design.alternative, design.alpha, design.lower_limit,
        design.confidence_level, _CHECK_STUDIES, want_width=False,
    )  # fmt: skip
    rng = np.random.default_rng(_CHECK_SEED)
    outcome = simulate_two_raters(design.p, design.weights, n, question, rng)
    tested = design.tested and design.kappa1 != design.kappa0
    checked = (
        float(outcome.power) if tested else math.nan,
        float(outcome.assurance) if design.lower_limit is not None else math.nan,
        _CHECK_STUDIES,
    )
    limit = f"the lower limit of the score interval cleared {design.lower_limit}"
    test = f"wkappa's test rejected kappa0 = {design.kappa0:g}"
    if stated is None:  # a planned n, held to its goal
        if design.lower_limit is not None:
            assert design.assurance is not None
            checks = [(limit, outcome.assurance, design.assurance, "assurance")]
        else:
            assert design.power is not None
            checks = [(test, outcome.power, design.power, "power")]
        said, fix = "was asked", "plan with method='simulation', whose n meets the goal in"
    else:
        checks = [(test, outcome.power, stated["power"], "power")]
        if design.lower_limit is not None:
            checks.append((limit, outcome.assurance, stated["assurance"], "assurance"))
        said = "is what the formula states"
        fix = "use method='simulation', which counts these shares in"
    for what, simulated, wanted, name in checks:
        if not simulated < wanted - CHECK_SHORTFALL:  # also when the stated value is nan
            continue
        warn_at_caller(
            f"method='{design.method}' relies on the normal approximation of kappa, which is "
            f"poor at n = {n} with {rarest:.2g} expected ratings in the rarest category: {what} "
            f"in {simulated:.2f} of {_CHECK_STUDIES:,} studies simulated from the anticipated "
            f"table, where {name} {wanted:.3g} {said}. Hint: {fix} simulated studies of wkappa's "
            "own test.",
            PlanApproximationWarning,
        )
        break
    return checked


def _gof_cells(design: PlanDesign, kappa: float) -> np.ndarray:
    assert design.pi is not None
    cells = goodness_of_fit_cells(design.pi, kappa, design.n_raters)
    if np.any(cells <= 0.0):
        raise WkappaError(
            f"The goodness-of-fit model has an empty cell at kappa = {kappa:g} (a category "
            "probability of 0, or kappa at 1). Hint: drop empty categories from `marginals`."
        )
    return cells


def _gof_distance(design: PlanDesign, anticipated: float, hypothesised: float) -> float:
    """Donner & Eliasziw's per-item chi-square noncentrality sum((P1 - P0)² / P0)."""
    p1, p0 = _gof_cells(design, anticipated), _gof_cells(design, hypothesised)
    return float(((p1 - p0) ** 2 / p0).sum())


# Where Donner & Eliasziw's noncentrality stops describing the test: a cell more than this
# many times as likely under kappa1 as under kappa0. benchmarks/planning_gof_range.py: every
# plan of its grid past it delivered 0.02-0.69 power of a promised 0.8 (wkappa's test, 1,000
# simulated studies each); the published kappaSize examples reach 2.73.
GOF_CELL_RATIO = 3.0


def _gof_cell_name(design: PlanDesign, cell: int) -> str:
    assert design.pi is not None
    raters = design.n_raters
    if design.pi.size == 2:  # cell c: c raters give the second category
        if cell in (0, raters):
            return f"all {raters} raters give the {'first' if cell == 0 else 'second'} category"
        return f"{cell} of the {raters} raters give the second category"
    if cell < design.pi.size:
        return f"all {raters} raters give category {cell + 1}"
    return "the raters disagree"


def _warn_gof_range(design: PlanDesign) -> None:
    """Warn when the plan of the test of kappa0 leaves the range of its chi-square
    approximation (kappa0 near 0 with a rare category, or several raters)."""
    if design.kappa1 == design.kappa0 or design.ci_width is not None:
        return
    if design.lower_limit is not None:
        return
    ratio = _gof_cells(design, design.kappa1) / _gof_cells(design, design.kappa0)
    cell = int(np.argmax(ratio))
    if ratio[cell] <= GOF_CELL_RATIO:
        return
    warn_at_caller(
        "method='goodness-of-fit' is outside the range of its chi-square approximation: "
        f"'{_gof_cell_name(design, cell)}' is {ratio[cell]:.3g} times as likely under "
        f"kappa1 = {design.kappa1:g} as under kappa0 = {design.kappa0:g}, so its n and power "
        "are too optimistic (such plans delivered 0.02-0.69 power where 0.8 was asked, in "
        "benchmarks/planning_gof_range.py). Hint: plan with method='simulation' (or "
        "method='asymptotic' for two raters); the formulas are meant for kappa0 well above 0.",
        PlanApproximationWarning,
    )


def _gof_power(design: PlanDesign, n: float) -> float:
    if design.kappa1 == design.kappa0:
        return math.nan
    root = math.sqrt(n * _gof_distance(design, design.kappa1, design.kappa0))
    if design.alternative == "two-sided":
        z = _z(1.0 - design.alpha / 2.0)
        return norm_cdf(root - z) + norm_cdf(-root - z)
    right = (design.kappa1 > design.kappa0) == (design.alternative == "greater")
    return norm_cdf((root if right else -root) - _z(1.0 - design.alpha))


def _gof_limit(design: PlanDesign, n: float, upper: bool) -> float:
    """The kappa whose goodness-of-fit statistic against kappa1 equals the critical value
    at n: the expected limit of the interval (Donner & Rotondi 2010)."""
    critical = _z(0.5 + design.confidence_level / 2.0) ** 2
    low, high = (design.kappa1, 1.0 - 1e-9) if upper else (0.0, design.kappa1)
    if not upper and n * _gof_distance(design, design.kappa1, 1e-12) < critical:
        return 0.0
    for _ in range(60):
        middle = 0.5 * (low + high)
        far = n * _gof_distance(design, design.kappa1, middle) >= critical
        if far == upper:
            high = middle
        else:
            low = middle
    return 0.5 * (low + high)


def _gof_n(design: PlanDesign) -> int:
    z_level = _z(0.5 + design.confidence_level / 2.0)
    if design.ci_width is not None:
        half = design.ci_width / 2.0
        needs = []
        for limit in (design.kappa1 - half, design.kappa1 + half):
            if 0.0 < limit < 1.0:
                needs.append(z_level**2 / _gof_distance(design, design.kappa1, limit))
        if not needs:
            raise WkappaError("`ci_width` is wider than the range of kappa around kappa1.")
        return _ceil(max(needs))
    if design.lower_limit is not None:
        assert design.assurance is not None
        distance = _gof_distance(design, design.kappa1, design.lower_limit)
        return _ceil((z_level + _z(design.assurance)) ** 2 / distance)
    assert design.power is not None
    two = design.alternative == "two-sided"
    lam = noncentrality_one_df(design.alpha, design.power, two_sided=two)
    return _ceil(lam / _gof_distance(design, design.kappa1, design.kappa0))


def _simulate(design: PlanDesign, n: int, *, want_width: bool = True) -> SimulatedStudies:
    cached = design.cache.get(n)
    if cached is not None and (not want_width or not math.isnan(cached.expected_width)):
        return cached
    assert design.seed is not None
    rng = study_rng(design.seed, n)
    # The design's test, limit and level, asked of each simulated study.
    question = StudyQuestion(
        design.kappa0, design.alternative, design.alpha, design.lower_limit,
        design.confidence_level, design.n_simulations, want_width,
    )  # fmt: skip
    if design.coefficient is None:
        outcome = simulate_two_raters(design.p, design.weights, n, question, rng)
    else:
        assert design.pi is not None
        outcome = simulate_several(
            design.pi,
            design.model_kappa,
            n,
            question,
            rng,
            n_raters=design.n_raters,
            coefficient=design.coefficient,
            weights=design.weights_option,
        )
    design.cache[n] = outcome
    return outcome


def _refined_guess(design: PlanDesign, pilot: int) -> int:
    """The n the normal approximation predicts from the simulation at ``pilot``: the width
    falls as 1 / sqrt(n); the power (and the assurance) is ``Phi(c sqrt(n) - z)``, with c
    solved from the simulated value."""
    outcome = _simulate(design, pilot, want_width=design.ci_width is not None)
    if design.ci_width is not None:
        width = outcome.expected_width
        if not (math.isfinite(width) and width > 0.0):
            return pilot
        return max(2, math.ceil(pilot * (width / design.ci_width) ** 2))
    if design.lower_limit is not None:
        assert design.assurance is not None
        z, reached, wanted = (
            _z(0.5 + design.confidence_level / 2.0),
            outcome.assurance,
            design.assurance,
        )
    else:
        assert design.power is not None
        two = design.alternative == "two-sided"
        z, reached, wanted = (
            _z(1.0 - design.alpha / (2.0 if two else 1.0)),
            outcome.power,
            design.power,
        )
    reached = min(max(reached, 0.02), 0.98)
    slope = (_z(reached) + z) / math.sqrt(pilot)
    if slope <= 0.0:
        return pilot * 2
    return min(MAX_N, max(2, math.ceil(((_z(wanted) + z) / slope) ** 2)))


def _simulation_n(design: PlanDesign) -> int:
    guess = 30
    if design.coefficient is None:
        normal = PlanDesign(**{**design.__dict__, "method": "asymptotic", "cache": {}})
        try:
            _prepare_normal(normal)
            guess = _normal_n(normal)
        except (WkappaError, ValueError, ZeroDivisionError):  # pragma: no cover - a guess
            guess = 30
    elif design.power is not None and design.model_kappa < 1.0:
        # Several raters: start from the goodness-of-fit n of the model's kappas.
        model = design.model_kappa
        chance = (design.kappa1 - model) / (1.0 - model)
        null = max((design.kappa0 - chance) / (1.0 - chance), 0.0)
        closed = PlanDesign(
            **{**design.__dict__, "method": "goodness-of-fit", "kappa1": model,
               "kappa0": null, "cache": {}}
        )  # fmt: skip
        try:
            guess = _gof_n(closed)
        except (WkappaError, ValueError, ZeroDivisionError):
            guess = 30
    minimum = 2 if design.coefficient is None else 3
    step = None
    if design.coefficient is not None:
        # Several raters cost ~1 ms per simulated study: move the closed-form guess to where
        # the normal approximation puts the goal, given the simulation at the guess, and
        # search in small steps around it.
        guess = _refined_guess(design, max(guess, minimum))
        step = max(1, guess // 20)

    def meets(n: int) -> bool:
        if design.ci_width is not None:
            width = _simulate(design, n).expected_width
            return math.isfinite(width) and width <= design.ci_width
        outcome = _simulate(design, n, want_width=False)
        if design.lower_limit is not None:
            assert design.assurance is not None
            return outcome.assurance >= design.assurance
        assert design.power is not None
        return outcome.power >= design.power

    refusal = (
        f"No study of at most {MAX_N:,} items meets the goal by simulation. Hint: check that "
        "kappa1 is far enough from kappa0 (or the width not too small)."
    )
    return search_n(meets, guess, refusal=refusal, min_n=minimum, step=step)


def make_plan(design: PlanDesign, n: int | None) -> KappaPlan:
    check: tuple[float, float, int] = (math.nan, math.nan, 0)  # the simulated check
    if design.method in ("asymptotic", "max-variance"):
        _prepare_normal(design)
        size = _normal_n(design) if n is None else n
        power = _normal_power(design, size)
        assurance = _normal_assurance(design, size)
        if design.coefficient is None:
            given = None if n is None else {"power": power, "assurance": assurance}
            check = _check_small_sample(design, size, given)
        width = _normal_width(design, size)
        mc_error = 0.0
    elif design.method == "goodness-of-fit":
        _warn_gof_range(design)
        size = _gof_n(design) if n is None else n
        power = _gof_power(design, size)
        assurance = math.nan
        if design.lower_limit is not None:
            z = _z(0.5 + design.confidence_level / 2.0)
            root = math.sqrt(size * _gof_distance(design, design.kappa1, design.lower_limit))
            assurance = norm_cdf(root - z)
        width = _gof_limit(design, size, True) - _gof_limit(design, size, False)
        mc_error = 0.0
    else:
        size = _simulation_n(design) if n is None else n
        outcome = _simulate(design, size)
        power = outcome.power if design.kappa1 != design.kappa0 else math.nan
        assurance, width = outcome.assurance, outcome.expected_width
        # The Monte Carlo error of the share the goal is about (the power; the assurance of
        # a lower_limit goal; none for a width goal, whose mean width is not a share).
        goal_is_limit = design.lower_limit is not None and n is None
        share = outcome.assurance if goal_is_limit else outcome.power
        mc_error = (
            math.nan
            if design.ci_width is not None
            else math.sqrt(max(share * (1.0 - share), 1e-12) / outcome.n_simulations)
        )
    if not design.tested:  # an interval goal: no test, no power
        power = math.nan
    goal = (
        "n"
        if n is not None
        else (
            "ci_width"
            if design.ci_width is not None
            else ("lower_limit" if design.lower_limit is not None else "power")
        )
    )
    return KappaPlan(
        n=int(size),
        power=float(power),
        expected_width=float(width),
        assurance=float(assurance),
        goal=goal,
        method=design.method,
        kappa1=design.kappa1,
        kappa0=design.kappa0 if design.tested else None,
        **goal_fields(design),
        weights=design.weights_label,
        n_raters=design.n_raters,
        coefficient=design.coefficient,
        standard_deviation=design.sd1,
        standard_deviation_null=design.sd0,
        n_simulations=design.n_simulations,
        monte_carlo_error=mc_error,
        model_kappa=design.model_kappa,
        simulated_power=check[0],
        simulated_assurance=check[1],
        check_simulations=check[2],
        table=design.p,
        weight_matrix=design.weights,
    )
