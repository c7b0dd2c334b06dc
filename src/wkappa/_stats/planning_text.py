"""A study plan in words: its goal, its ``explain()`` and its repr, and what the simulated
check of a large-sample plan says of the power or assurance the formula states. The goal's
words, the lines of ``explain()`` and the parts of the repr that kappa, ICC and CCC plans
share are written here for all of them."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..exceptions import WkappaError
from .agreement_result import COEFFICIENT_NAMES
from .text_values import (
    DECIMALS,
    level_percent,
    number_text,
    probability_phrase,
    probability_text,
)

if TYPE_CHECKING:
    from .planning_result import KappaPlan

__all__ = [
    "CHECK_SHORTFALL",
    "PlanGoal",
    "approximation_text",
    "chance_line",
    "explain_plan",
    "given_text",
    "goal_lines",
    "goal_repr",
    "goal_text",
    "heading",
    "hypothesis_repr",
    "outcome_repr",
    "plan_goal_text",
    "plan_repr",
    "power_line",
    "width_line",
    "width_wanted",
]

# A large-sample plan's simulated check counts against it (it warns, and its text states the
# simulated share) when the share falls more than this below the power or assurance stated.
CHECK_SHORTFALL = 0.05


class PlanGoal(Protocol):
    """What the words of a plan's goal read of it (``KappaPlan``, ``ICCPlan``, ``CCCPlan``)."""

    @property
    def goal(self) -> str: ...
    @property
    def target_power(self) -> float | None: ...
    @property
    def ci_width(self) -> float | None: ...
    @property
    def lower_limit(self) -> float | None: ...
    @property
    def target_assurance(self) -> float | None: ...
    @property
    def confidence_level(self) -> float: ...


class PlanOutcome(PlanGoal, Protocol):
    """What the lines of a plan's goal and what it delivers read of it (``ICCPlan``,
    ``CCCPlan``): the goal, the test's options and the power and assurance at ``n``."""

    @property
    def power(self) -> float: ...
    @property
    def assurance(self) -> float: ...
    @property
    def alternative(self) -> str | None: ...
    @property
    def alpha(self) -> float | None: ...


def _short(value: float | None) -> str:
    return format(value, "g")


def given_text(value: float | None) -> str:
    """A value of a plan's inputs as given: ``format(value, 'g')`` unless that rounds it (an
    anticipated CCC of 0.9999999 is not written 1), then its shortest exact form; "None" for
    an input the plan's goal has not.

    >>> given_text(0.95), given_text(0.9999999), given_text(None)
    ('0.95', '0.9999999', 'None')
    """
    if value is None:
        return "None"
    short = format(value, "g")
    return short if float(short) == value else repr(float(value))


def goal_text(plan: PlanGoal, given: Callable[[float | None], str] = _short) -> str:
    """The goal ``n`` was chosen for, in words (``goal_text`` of a plan): the power, the
    chance of clearing the lower limit, the expected width; ``given`` writes the goal's
    values (``format(value, 'g')``).

    Examples
    --------
    >>> import wkappa as wk
    >>> plan = wk.kappa_sample_size(kappa1=0.8, lower_limit=0.6, marginals=[0.5, 0.5])
    >>> goal_text(plan), goal_repr(plan)
    ('P(lower limit > 0.6) >= 0.5', 'P(lower limit>0.6)>=0.5')
    """
    if plan.goal == "power":
        return f"power >= {plan.target_power:g}"
    if plan.goal == "lower_limit":
        return f"P(lower limit > {given(plan.lower_limit)}) >= {plan.target_assurance:g}"
    if plan.goal == "ci_width":
        level = level_percent(plan.confidence_level)
        width = given(plan.ci_width)
        if plan.target_assurance is not None:  # the width itself, with that probability
            return f"P({level} interval width <= {width}) >= {plan.target_assurance:g}"
        return f"expected {level} interval width <= {width}"
    return "n given"


def goal_repr(plan: PlanGoal, given: Callable[[float | None], str] = _short) -> str:
    """The goal as a plan's repr shows it: :func:`goal_text` in short."""
    if plan.goal == "power":
        return f"power>={plan.target_power:g}"
    if plan.goal == "lower_limit":
        return f"P(lower limit>{given(plan.lower_limit)})>={plan.target_assurance:g}"
    if plan.goal == "ci_width" and plan.target_assurance is not None:
        return f"P(width<={given(plan.ci_width)})>={plan.target_assurance:g}"
    if plan.goal == "ci_width":
        return f"ci_width<={given(plan.ci_width)}"
    return "n given"


def heading(title: str, method: str, n: int, units: str, by: str) -> str:
    """The first line of a plan's ``explain()``: what was planned, by which method, and
    ``by`` whom each of the ``units`` is rated or measured ("rated by 3 raters")."""
    return f"{title} ({method}): n = {n:,} {units} {by}"


def power_line(test: str, power: float, target_power: float | None) -> str:
    """The line of ``explain()`` giving the power of ``test`` (and the power wanted)."""
    wanted = "" if target_power is None else f" (wanted {target_power:g})"
    return f"  {test}: power {probability_text(power, target_power)}{wanted}"


def chance_line(what: str, value: float, target: float | None) -> str:
    """A line of ``explain()`` giving the probability of ``what`` (and the one wanted, where
    it is the goal's)."""
    wanted = "" if target is None else f" (wanted {target:g})"
    return "  " + probability_phrase(what, value, target) + wanted


def width_line(level: float, interval: str, width: float, wanted: str) -> str:
    """The line of ``explain()`` giving the expected width of the ``interval`` at ``level``
    (and ``wanted``, the goal's width in words)."""
    expected = number_text(width, f".{DECIMALS}f")
    return f"  expected width of the {level_percent(level)} {interval} interval: {expected}{wanted}"


def goal_lines(plan: PlanOutcome, statistic: str, null: float | None) -> list[str]:
    """The lines of ``explain()`` after the anticipated value (ICC and CCC plans): the test
    of H0: ``statistic`` = ``null`` and its power (None: the plan runs no test), the chance
    that the lower limit clears ``lower_limit`` and, with the probability of the width
    computed, that the interval is at most ``ci_width`` wide."""
    level = level_percent(plan.confidence_level)
    lines = []
    if null is not None:
        test = f"H0: {statistic} = {given_text(null)} ({plan.alternative}, alpha = {plan.alpha:g})"
        lines.append(power_line(test, plan.power, plan.target_power))
    if plan.lower_limit is not None:
        lines.append(
            chance_line(
                f"P(lower limit of the {level} interval > {given_text(plan.lower_limit)})",
                plan.assurance,
                plan.target_assurance if plan.goal == "lower_limit" else None,
            )
        )
    if plan.ci_width is not None and not math.isnan(plan.assurance):
        lines.append(
            chance_line(
                f"P(width of the {level} interval <= {given_text(plan.ci_width)})",
                plan.assurance,
                plan.target_assurance if plan.goal == "ci_width" else None,
            )
        )
    return lines


def width_wanted(plan: PlanGoal) -> str:
    """The expected width the goal asks for, as :func:`width_line` adds it (``wanted``):
    empty unless the goal is the expected width (not its probability)."""
    if plan.goal == "ci_width" and plan.target_assurance is None:
        return f" (wanted <= {given_text(plan.ci_width)})"
    return ""


def outcome_repr(plan: PlanOutcome, tested: bool) -> str:
    """What an ICC or CCC plan delivers, as its repr shows it: the power where it runs its
    test (``tested``), the assurance where it has one."""
    delivers = f"power={plan.power:.4g}, " if tested else ""
    if not math.isnan(plan.assurance):
        delivers += f"assurance={plan.assurance:.4g}, "
    return delivers


def hypothesis_repr(
    plan: PlanOutcome,
    name: str,
    null: float | None,
    given: Callable[[float | None], str] = _short,
) -> str:
    """The test's options as a plan's repr shows them, its null value as ``name``: empty
    for the interval goals, which run no test (``null`` None)."""
    if null is None:
        return ""
    return f"{name}={given(null)}, alternative={plan.alternative!r}, alpha={plan.alpha:g}, "


def plan_goal_text(plan: KappaPlan) -> str:
    """The goal ``n`` was chosen for, in words (``KappaPlan.goal_text``): goodness-of-fit's
    width goal bounds each limit."""
    if plan.goal != "ci_width" or plan.ci_width is None or plan.method != "goodness-of-fit":
        return goal_text(plan)
    level = level_percent(plan.confidence_level)
    half = plan.ci_width / 2.0
    low, high = max(plan.kappa1 - half, 0.0), min(plan.kappa1 + half, 1.0)
    return f"both {level} limits within kappa1 ± {half:g}, i.e. in {low:.4g} to {high:.4g}"


def approximation_text(plan: KappaPlan, share: str) -> str:
    """What the simulated check says of the plan's ``share`` (``KappaPlan.approximation_check``)."""
    if share not in ("power", "assurance"):
        raise WkappaError(f"`share` must be 'power' or 'assurance'; got {share!r}.")
    stated, simulated, wanted, what = (
        (plan.power, plan.simulated_power, plan.target_power, "wkappa's test")
        if share == "power"
        else (
            plan.assurance,
            plan.simulated_assurance,
            plan.target_assurance,
            "the score interval",
        )
    )
    if not simulated < stated - CHECK_SHORTFALL:  # nan: no check, or no such share
        return ""
    text = (
        f" by the normal approximation; {simulated:.2f} in {plan.check_simulations:,} "
        f"simulated studies of {what}"
    )
    if plan.goal == "n":
        return text + ": compute it with method='simulation'"
    if wanted is not None and simulated < wanted:
        text += f", below the {wanted:g} asked"
    return text + ": plan with method='simulation'"


def explain_plan(plan: KappaPlan) -> str:
    """The plan in words (``KappaPlan.explain``)."""
    test = None
    if plan.kappa0 is not None:
        test = (
            f"H0: kappa = {plan.kappa0:g} ({plan.alternative}, alpha = {plan.alpha:g})"
            if not math.isnan(plan.power)
            else "no test (kappa1 = kappa0)"
        )
    if plan.coefficient is None:
        who = "Cohen's kappa"
    elif plan.coefficient == "gwet" and plan.weights != "unweighted":
        who = "Gwet's AC2"
    else:
        who = COEFFICIENT_NAMES.get(plan.coefficient, plan.coefficient)
    weights = "unweighted" if plan.weights == "unweighted" else f"{plan.weights} weights"
    wanted = "" if plan.ci_width is None else f" (wanted <= {plan.ci_width:g})"
    if plan.goal == "ci_width" and plan.method == "goodness-of-fit":
        wanted = f" (wanted: {plan.goal_text})"  # each limit, not the width
    lines = [
        heading("Study plan", plan.method, plan.n, "items", f"rated by {plan.n_raters} raters"),
        f"  anticipated kappa1 = {plan.kappa1:.4g} ({who}, {weights}, K = {plan.table.shape[0]})",
        width_line(plan.confidence_level, plan.width_interval, plan.expected_width, wanted),
    ]
    if test is not None:
        lines.insert(
            2,
            power_line(test, plan.power, plan.target_power)
            + plan.approximation_check("power").replace("; ", ";\n    ", 1),
        )
    if test is not None and plan.method == "goodness-of-fit" and plan.n_raters > 2:
        lines.append(
            "  that is the power of the goodness-of-fit chi-square test of the model's "
            "cells; wkappa's test of Fleiss' kappa can have less with several raters: "
            "check the n with the 'simulation' method"
        )
    if plan.lower_limit is not None:
        lines.append(
            chance_line(
                f"P(lower limit of the {level_percent(plan.confidence_level)} "
                f"{plan.limit_interval} interval > {plan.lower_limit:g})",
                plan.assurance,
                plan.target_assurance if plan.goal == "lower_limit" else None,
            )
            + plan.approximation_check("assurance").replace("; ", ";\n    ", 1)
        )
    if plan.method == "simulation":
        share = "assurance" if plan.goal == "lower_limit" else "power"
        lines.append(
            f"  {plan.n_simulations:,} simulated studies per n"
            + (
                ""
                if math.isnan(plan.monte_carlo_error)
                else f"; Monte Carlo SE of the {share} {plan.monte_carlo_error:.3f}"
            )
        )
    return "\n".join(lines)


def plan_repr(plan: KappaPlan) -> str:
    """The plan's repr: what the goal uses and what the plan delivers."""
    goal = goal_repr(plan)
    if plan.goal == "ci_width" and plan.method == "goodness-of-fit" and plan.ci_width:
        goal = f"limits within kappa1±{plan.ci_width / 2.0:g}"
    extra = (
        f", n_simulations={plan.n_simulations}"
        + ("" if math.isnan(plan.monte_carlo_error) else f", mc_error={plan.monte_carlo_error:.2g}")
        if plan.method == "simulation"
        else ""
    )
    # Only what the goal uses: the interval goals run no test (no power, no kappa0).
    delivers = "" if plan.kappa0 is None else f"power={plan.power:.4g}, "
    if plan.approximation_check("power"):
        delivers += f"simulated_power={plan.simulated_power:.2f}, "
    if plan.lower_limit is not None:
        delivers += f"assurance={plan.assurance:.4g}, "
        if plan.approximation_check("assurance"):
            delivers += f"simulated_assurance={plan.simulated_assurance:.2f}, "
    test = hypothesis_repr(plan, "kappa0", plan.kappa0)
    return (
        f"KappaPlan(n={plan.n}, {delivers}"
        f"expected_width={plan.expected_width:.4g}, goal={goal!r}, "
        f"method={plan.method!r}, kappa1={plan.kappa1:g}, {test}"
        f"K={plan.table.shape[0]}, weights={plan.weights!r}, n_raters={plan.n_raters}"
        f"{extra})"
    )
