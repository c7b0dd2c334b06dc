"""``wkappa plan --coefficient ccc``: the plan of a method-comparison study analysed by Lin's
CCC, from the command's options, and how it was computed (``--explain``)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from .._stats import CCCPlan, ccc_power, ccc_sample_size, level_percent, probability_phrase
from ..exceptions import WkappaError
from .options import option_names
from .plan_report import NAMES, hypothesis_options, subjects_plan

__all__ = ["CCC_NAMES", "CCC_ONLY", "add_ccc_options", "ccc_computation", "ccc_plan"]

# The options of a CCC plan, refused with the others: (attribute, option).
CCC_ONLY = (("ccc1", "--ccc1"), ("ccc0", "--ccc0"), ("pearson", "--pearson"),
            ("bias_correction", "--bias-correction"), ("location_shift", "--location-shift"),
            ("scale_shift", "--scale-shift"))  # fmt: skip
# The library's parameter names, as this command spells them (the plan's and the CCC's).
CCC_NAMES = (*NAMES, *option_names("ccc1 ccc0 pearson bias_correction location_shift scale_shift"))


def add_ccc_options(plan: argparse.ArgumentParser) -> None:
    """The options of ``--coefficient ccc`` on the ``plan`` parser."""
    plan.add_argument("--ccc1", type=float, help="with --coefficient ccc: the anticipated CCC")
    plan.add_argument(
        "--ccc0",
        type=float,
        help="with --coefficient ccc: the CCC under H0 (default: 0; the test's goal only)",
    )
    for option, what in (
        ("--pearson", "Pearson's r of the two methods"),
        ("--bias-correction", "Lin's C_b = ccc1 / r (instead of --pearson)"),
        ("--location-shift", "Lin's u = (mu1 - mu2) / sqrt(sigma1 sigma2)"),
        ("--scale-shift", "Lin's v = sigma1 / sigma2"),
    ):
        plan.add_argument(
            option,
            type=float,
            help=f"with --coefficient ccc: {what}; give two of --pearson (or "
            "--bias-correction), --location-shift, --scale-shift, or none (no systematic "
            "difference)",
        )


def refuse_ccc_options(args: argparse.Namespace, coefficient: str) -> None:
    """Refuse the options of a CCC plan given to a kappa or ICC plan (``coefficient`` names
    it as the message says it)."""
    for name, option in CCC_ONLY:
        if getattr(args, name) is not None:
            raise WkappaError(
                f"{option} goes with --coefficient ccc (a method-comparison study analysed by "
                f"Lin's CCC), not with a plan of {coefficient}. Hint: add --coefficient ccc, "
                f"or drop {option}."
            )


def ccc_plan(args: argparse.Namespace, kappa_only: tuple[tuple[str, str], ...]) -> CCCPlan:
    """The CCC plan of ``--coefficient ccc``, after refusing the options of kappa
    (``kappa_only``) and ICC plans and what a CCC plan does not take."""
    for name, option in (*kappa_only, ("icc1", "--icc1"), ("icc0", "--icc0"), ("form", "--form")):
        if getattr(args, name) is not None:
            raise WkappaError(
                f"{option} is not an option of --coefficient ccc, which plans Lin's CCC of two "
                f"methods. Hint: drop {option} (the CCC plan takes --ccc1, --ccc0 and the "
                "design's --pearson, --bias-correction, --location-shift, --scale-shift)."
            )
    for option in ("plot", "report"):
        if getattr(args, option) is not None:
            raise WkappaError(
                f"--{option} draws the curve of a kappa plan; a CCC plan has none. Hint: drop "
                f"--{option}, and ask --n for what a given number of subjects delivers."
            )
    if args.raters != 2:
        raise WkappaError(
            f"--coefficient ccc plans Lin's CCC of two methods (raters); got --raters "
            f"{args.raters}. Hint: drop --raters."
        )
    if args.method not in (None, "lin"):
        raise WkappaError(
            f"--method {args.method} does not plan a CCC; --coefficient ccc takes --method lin "
            "(the default: Lin's delta-method variance of Fisher's z)."
        )
    if args.ccc1 is None:
        raise WkappaError(
            "--coefficient ccc needs --ccc1, the anticipated CCC (e.g. --ccc1 0.95 --ccc0 0.9)."
        )
    options: dict[str, Any] = {
        "ccc1": args.ccc1,
        "pearson": args.pearson,
        "bias_correction": args.bias_correction,
        "location_shift": args.location_shift,
        "scale_shift": args.scale_shift,
        "confidence_level": args.ci,
        "lower_limit": args.lower_limit,
        **hypothesis_options(args, "ccc0"),
    }
    return subjects_plan(args, options, ccc_power, ccc_sample_size)


def ccc_computation(plan: CCCPlan) -> str:
    """``--explain`` of a CCC plan: Lin's variance at the design and the formula of the goal."""
    se, z1 = plan.standard_error_z, math.atanh(plan.ccc1)
    level = level_percent(plan.confidence_level)
    lines = [
        "How the plan was computed:",
        f"  Lin's (1989, 2000) variance of z = atanh(CCC) at r = {plan.pearson:.4g}, "
        f"u = {plan.location_shift:.4g} (C_b = {plan.bias_correction:.4g}, v = "
        f"{plan.scale_shift:.4g}): [(1-r²) rho² / ((1-rho²) r²) + 2 rho³ (1-rho) u² / (r "
        f"(1-rho²)²) - rho⁴ u⁴ / (2 r² (1-rho²)²)] / (n - 2), a standard error of {se:.4f} at "
        f"n = {plan.n:,}; z is taken as normal around atanh(ccc1) = {z1:.4f}.",
    ]
    if plan.ccc0 is not None:
        gap = "|atanh(ccc1) - atanh(ccc0)|"
        quantile = "z_(1-alpha/2), both tails" if plan.alternative == "two-sided" else "z_(1-alpha)"
        lines.append(
            f"  power = Phi({gap} / SE - {quantile}) with ccc0 = {plan.ccc0:g}: "
            f"{probability_phrase('power', plan.power)}."
        )
    if plan.lower_limit is not None:
        lines.append(
            f"  the lower limit tanh(z - q SE) of the {level} interval (q = z_((1+level)/2)) "
            f"clears L = {plan.lower_limit:g} when z > atanh(L) + q SE: "
            f"{probability_phrase('P(lower limit > L)', plan.assurance)}."
        )
    if plan.ci_width is not None:
        chance = probability_phrase(f"P(width <= {plan.ci_width:g})", plan.assurance)
        lines.append(
            "  the width 2 sinh(2h) / (cosh(2z) + cosh(2h)), h = q SE, is at most W when "
            f"|z| >= acosh(2 sinh(2h) / W - cosh(2h)) / 2: {chance}."
        )
    lines.append(
        f"  the expected width of the {level} interval is its mean over z (Gauss-Hermite)"
        + ("" if plan.goal == "n" else f"; n = {plan.n:,} is the smallest meeting the goal")
        + "."
    )
    return "\n".join(lines)
