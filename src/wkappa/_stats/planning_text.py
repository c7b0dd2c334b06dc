"""A study plan in words: its goal, its ``explain()`` and its repr, and what the simulated
check of a large-sample plan says of the power or assurance the formula states."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

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

__all__ = ["CHECK_SHORTFALL", "approximation_text", "explain_plan", "plan_goal_text", "plan_repr"]

# A large-sample plan's simulated check counts against it (it warns, and its text states the
# simulated share) when the share falls more than this below the power or assurance stated.
CHECK_SHORTFALL = 0.05


def plan_goal_text(plan: KappaPlan) -> str:
    """The goal ``n`` was chosen for, in words (``KappaPlan.goal_text``)."""
    level = level_percent(plan.confidence_level)
    if plan.goal == "power":
        return f"power >= {plan.target_power:g}"
    if plan.goal == "lower_limit":
        return f"P(lower limit > {plan.lower_limit:g}) >= {plan.target_assurance:g}"
    if plan.goal != "ci_width" or plan.ci_width is None:
        return "n given"
    if plan.method != "goodness-of-fit":
        return f"expected {level} interval width <= {plan.ci_width:g}"
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
        f"Study plan ({plan.method}): n = {plan.n:,} items rated by {plan.n_raters} raters",
        f"  anticipated kappa1 = {plan.kappa1:.4g} ({who}, {weights}, K = {plan.table.shape[0]})",
        f"  expected width of the {level_percent(plan.confidence_level)} "
        f"{plan.width_interval} interval: "
        f"{number_text(plan.expected_width, f'.{DECIMALS}f')}" + wanted,
    ]
    if test is not None:
        lines.insert(
            2,
            f"  {test}: power {probability_text(plan.power, plan.target_power)}"
            + (f" (wanted {plan.target_power:g})" if plan.target_power is not None else "")
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
            "  "
            + probability_phrase(
                f"P(lower limit of the {level_percent(plan.confidence_level)} "
                f"{plan.limit_interval} interval > {plan.lower_limit:g})",
                plan.assurance,
                plan.target_assurance if plan.goal == "lower_limit" else None,
            )
            + (f" (wanted {plan.target_assurance:g})" if plan.goal == "lower_limit" else "")
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
    if plan.goal == "power":
        goal = f"power>={plan.target_power:g}"
    elif plan.goal == "ci_width" and plan.method == "goodness-of-fit" and plan.ci_width:
        goal = f"limits within kappa1±{plan.ci_width / 2.0:g}"
    elif plan.goal == "ci_width":
        goal = f"ci_width<={plan.ci_width:g}"
    elif plan.goal == "lower_limit":
        goal = f"P(lower limit>{plan.lower_limit:g})>={plan.target_assurance:g}"
    else:
        goal = "n given"
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
    test = (
        ""
        if plan.kappa0 is None
        else f"kappa0={plan.kappa0:g}, alternative={plan.alternative!r}, alpha={plan.alpha:g}, "
    )
    return (
        f"KappaPlan(n={plan.n}, {delivers}"
        f"expected_width={plan.expected_width:.4g}, goal={goal!r}, "
        f"method={plan.method!r}, kappa1={plan.kappa1:g}, {test}"
        f"K={plan.table.shape[0]}, weights={plan.weights!r}, n_raters={plan.n_raters}"
        f"{extra})"
    )
