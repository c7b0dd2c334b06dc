"""``wkappa plan --coefficient icc``: the ICC plan of the command's options and how it was
computed (``--explain``)."""

from __future__ import annotations

import argparse
from typing import Any

from .._stats import (
    DECIMALS,
    ICCPlan,
    icc_power,
    icc_sample_size,
    level_percent,
    number_text,
    probability_phrase,
    probability_text,
)
from ..exceptions import WkappaError
from .plan_report import hypothesis_options, subjects_plan

__all__ = ["icc_computation", "icc_plan"]


def icc_plan(args: argparse.Namespace) -> ICCPlan:
    """The ICC plan of ``--coefficient icc`` (the kappa options already refused)."""
    if args.icc1 is None:
        raise WkappaError(
            "--coefficient icc needs --icc1, the anticipated ICC (e.g. --icc1 0.8 --icc0 0.6)."
        )
    options: dict[str, Any] = {
        "icc1": args.icc1,
        "n_raters": args.raters,
        "form": "1,1" if args.form is None else args.form,
        "confidence_level": args.ci,
        "method": "exact" if args.method is None else args.method,
        "lower_limit": args.lower_limit,
        **hypothesis_options(args, "icc0"),
    }
    return subjects_plan(args, options, icc_power, icc_sample_size)


def icc_computation(plan: ICCPlan) -> str:
    """``--explain`` of an ICC plan: the model's F ratio and the formula of ``--method``."""
    k, n = plan.n_raters, plan.n
    lines = [
        "How the plan was computed:",
        f"  with theta(rho) = (1 + (k-1) rho) / (1 - rho) and k = {k}, the ratio F of the mean "
        f"squares between subjects and of error, over theta(ICC), has an F distribution with "
        f"{plan.df1:,} and {plan.df2:,} degrees of freedom at n = {n:,}"
        + (" (the mean-of-k ICC is stepped down to one rater's first)." if "k" in plan.form
           else "."),
    ]  # fmt: skip
    if plan.method == "exact":
        if plan.icc0 is not None:
            lines.append(
                "  exact: power = "
                + {"greater": "P(F > C0 f_(1-alpha))", "less": "P(F < C0 f_alpha)"}.get(
                    str(plan.alternative), "P(F > C0 f_(1-alpha/2)) + P(F < C0 f_(alpha/2))"
                )
                + " with C0 = theta(icc0) / theta(icc1) and f_p the F quantiles: "
                + f"{probability_phrase('power', plan.power)}."
            )
        if plan.lower_limit is not None:
            lines.append(
                f"  the lower limit clears {plan.lower_limit:g} exactly when the test of ICC = "
                f"{plan.lower_limit:g} at one-sided (1 - level)/2 rejects: "
                f"{probability_phrase('P(lower limit > L)', plan.assurance)}."
            )
        if plan.ci_width is not None:
            where = "above one value" if "k" in plan.form else "outside the roots of a quadratic"
            chance = probability_phrase(f"P(width <= {plan.ci_width:g})", plan.assurance)
            lines.append(f"  the width, a function of F, is at most W for F {where}: {chance}.")
        lines.append(
            f"  the expected width of the {level_percent(plan.confidence_level)} F interval is "
            "its mean over the F distribution of the ratio"
            + ("" if plan.goal == "n" else f"; n = {n:,} is the smallest meeting the goal")
            + "."
        )
        return "\n".join(lines)
    lines += _icc_closed_forms(plan)
    return "\n".join(lines)


def _icc_closed_forms(plan: ICCPlan) -> list[str]:
    """``--explain`` of ``--method approximate``: the closed form of the goal with its inputs
    (Walter et al.'s for the test and the lower limit, Bonett's for the width) or, with
    ``--n``, what those formulas give that n."""
    from statistics import NormalDist

    z, k, n, rho = NormalDist().inv_cdf, plan.n_raters, plan.n, plan.icc1
    z_level = z(0.5 + plan.confidence_level / 2)
    bonett_extra = ", plus 5 rho (k = 2, rho >= 0.7)" if k == 2 and rho >= 0.7 else ""
    two = plan.alternative == "two-sided"
    za_name = "z_(1-alpha/2)" if two else "z_(1-alpha)"
    if plan.goal == "ci_width" and plan.ci_width is not None:
        return [
            f"  Bonett (2002): n = 1 + 8 z^2 (1 - rho)^2 (1 + (k-1) rho)^2 / (k (k-1) w^2) with "
            f"z = {z_level:.4f}, rho = {rho:g}, w = {plan.ci_width:g}{bonett_extra}, rounded up: "
            f"n = {n:,}."
        ]
    if plan.goal == "lower_limit" and plan.target_assurance is not None:
        return [
            "  the lower limit clears L exactly when the test of ICC = L at one-sided "
            "(1 - level)/2 rejects; Walter, Eliasziw & Donner (1998) for that test: n = 1 + 2 "
            "(z_((1+level)/2) + z_assurance)^2 k / ((ln C_L)^2 (k - 1)) with C_L = theta(L) / "
            f"theta(icc1), L = {plan.lower_limit:g}, z_((1+level)/2) = {z_level:.4f}, "
            f"z_assurance = {z(plan.target_assurance):.4f}, rounded up: n = {n:,}."
        ]
    if plan.goal == "power" and plan.alpha is not None and plan.target_power is not None:
        za = z(1 - plan.alpha / (2 if two else 1))
        return [
            f"  Walter, Eliasziw & Donner (1998): n = 1 + 2 ({za_name} + z_power)^2 k / ((ln "
            f"C0)^2 (k - 1)) with C0 = theta(icc0) / theta(icc1), {za_name} = {za:.4f}, "
            f"z_power = {z(plan.target_power):.4f}, rounded up: n = {n:,}; the formula's "
            f"power at n: {probability_text(plan.power)}."
        ]
    lines = []
    if plan.icc0 is not None:
        gap = {"greater": "-ln C0", "less": "ln C0"}.get(str(plan.alternative), "|ln C0|")
        lines.append(
            f"  Walter, Eliasziw & Donner (1998): power = Phi(sqrt((n-1)(k-1) / (2k)) {gap} - "
            f"{za_name}) with C0 = theta(icc0) / theta(icc1) and n = {n:,}: "
            f"{probability_phrase('power', plan.power)}."
        )
    if plan.lower_limit is not None:
        lines.append(
            f"  the same formula for the test of ICC = L = {plan.lower_limit:g} at one-sided "
            f"(1 - level)/2: {probability_phrase('P(lower limit > L)', plan.assurance)}."
        )
    lines.append(
        f"  Bonett (2002) solved for the width at n = {n:,}{bonett_extra.replace('plus', 'less')}: "
        f"expected width {number_text(plan.expected_width, f'.{DECIMALS}f')}."
    )
    return lines
