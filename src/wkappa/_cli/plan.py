"""``wkappa plan``: how many items to rate (sample size, power and precision of kappa)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._core import import_optional
from .._stats import KappaPlan, kappa_power, kappa_sample_size
from ..exceptions import WkappaError

__all__ = ["add_plan_parser", "run_plan"]

# The library's parameter names, as this command spells them.
_NAMES = (
    ("`kappa1`", "--kappa1"),
    ("`kappa0`", "--kappa0"),
    ("kappa1=", "--kappa1 "),
    ("`marginals=`", "--marginals"),
    ("`marginals`", "--marginals"),
    ("`table=`", "--table"),
    ("`table`", "--table"),
    ("`power`", "--power"),
    ("`alpha`", "--alpha"),
    ("`ci_width=`", "--ci-width"),
    ("`ci_width`", "--ci-width"),
    ("`lower_limit=`", "--lower-limit"),
    ("`lower_limit`", "--lower-limit"),
    ("`assurance=`", "--assurance"),
    ("`assurance`", "--assurance"),
    ("`confidence_level`", "--ci"),
    ("`n_raters`", "--raters"),
    ("n_raters=", "--raters "),
    ("`n_simulations`", "--simulations"),
    ("`coefficient`", "--coefficient"),
    ("coefficient=", "--coefficient "),
    ("method=", "--method "),
    ("`method`", "--method"),
    ("alternative=", "--alternative "),
    ("`n`", "--n"),
    ("`weights`", "--weights"),
)


def add_plan_parser(sub: Any, common: Any) -> None:
    """Register ``plan`` on the sub-command parser; ``common`` adds --quiet/--debug."""
    plan = sub.add_parser(
        "plan",
        help="how many items to rate: sample size, power, interval width",
        description=(
            "Sample size of an agreement study (or, with --n, what n items deliver): the "
            "power of the test of kappa = --kappa0 when kappa is --kappa1, or the expected "
            "width / lower limit of the interval. The population is --marginals (shared, or "
            "'A;B' per rater) with --kappa1, or an anticipated --table."
        ),
    )
    plan.add_argument("--kappa1", type=float, help="the anticipated kappa")
    plan.add_argument("--kappa0", type=float, default=0.0, help="kappa under H0 (default: 0)")
    plan.add_argument(
        "--marginals",
        metavar="P1,P2,...",
        help="category probabilities shared by the raters, or 'A1,A2;B1,B2' one per rater",
    )
    plan.add_argument(
        "--table",
        metavar="R1C1,R1C2;R2C1,...",
        help="anticipated table: probabilities or pilot counts, rows separated by ';'",
    )
    plan.add_argument(
        "--weights",
        default="quadratic",
        help="quadratic, linear, unweighted (several raters: any weights of wkappa agree)",
    )
    plan.add_argument("--power", type=float, default=0.8, help="power wanted (default: 0.8)")
    plan.add_argument("--alpha", type=float, default=0.05, help="size of the test (0.05)")
    plan.add_argument(
        "--alternative",
        choices=("greater", "less", "two-sided"),
        default="greater",
        help="alternative of the test (default: greater)",
    )
    plan.add_argument("--ci-width", type=float, metavar="W", help="plan for this CI width")
    plan.add_argument(
        "--lower-limit", type=float, metavar="L", help="plan for the CI's lower limit to exceed L"
    )
    plan.add_argument(
        "--assurance", type=float, help="with --lower-limit: probability it does (0.5)"
    )
    plan.add_argument("--ci", type=float, default=0.95, metavar="LEVEL", help="CI level (0.95)")
    plan.add_argument("--raters", type=int, default=2, metavar="R", help="raters per item (2)")
    plan.add_argument(
        "--coefficient",
        help="several raters: fleiss, conger, gwet, brennan_prediger, krippendorff",
    )
    plan.add_argument(
        "--method",
        choices=("asymptotic", "goodness-of-fit", "max-variance", "simulation"),
        default="asymptotic",
        help="(default: asymptotic)",
    )
    plan.add_argument("--simulations", type=int, metavar="B", help="simulated studies per n")
    plan.add_argument("--seed", type=int, help="random seed of the simulation")
    plan.add_argument("--n", type=int, help="report what N items deliver instead")
    plan.add_argument(
        "--format", choices=("text", "json"), default="text", help="output (default: text)"
    )
    plan.add_argument("--plot", metavar="OUT.png", help="save power (or interval width) against n")
    common(plan)
    plan.set_defaults(func=run_plan)


def _numbers(text: str, option: str) -> list[float]:
    try:
        return [float(part) for part in text.split(",")]
    except ValueError:
        raise WkappaError(f"{option} must be comma-separated numbers; got {text!r}.") from None


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {
        "kappa1": args.kappa1,
        "kappa0": args.kappa0,
        "weights": args.weights,
        "alpha": args.alpha,
        "alternative": args.alternative,
        "confidence_level": args.ci,
        "n_raters": args.raters,
        "coefficient": args.coefficient,
        "method": args.method,
        "n_simulations": args.simulations,
        "rng": args.seed,
        "lower_limit": args.lower_limit,
    }
    if args.marginals is not None:
        rows = [_numbers(part, "--marginals") for part in args.marginals.split(";")]
        options["marginals"] = rows[0] if len(rows) == 1 else rows
    if args.table is not None:
        table = [_numbers(part, "--table") for part in args.table.split(";")]
        if any(len(row) != len(table) for row in table):
            raise WkappaError(f"--table must be K rows of K numbers; got {args.table!r}.")
        options["table"] = table
    return options


def _make(args: argparse.Namespace) -> KappaPlan:
    options = _options(args)
    if args.n is not None:
        if args.ci_width is not None or args.assurance is not None:
            raise WkappaError("--n reports what n items deliver: drop --ci-width / --assurance.")
        return kappa_power(args.n, **options)
    return kappa_sample_size(
        power=args.power, ci_width=args.ci_width, assurance=args.assurance, **options
    )


def _plot(plan: KappaPlan, args: argparse.Namespace, path: str) -> None:
    import_optional("matplotlib", "plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    options = _options(args)
    if plan.method == "simulation":
        options.update(method="asymptotic", n_simulations=None, rng=None)
    top = max(2 * plan.n, 20)
    sizes = sorted({max(2, round(top * i / 60)) for i in range(1, 61)})
    curve = [kappa_power(n, **options) for n in sizes]
    width_goal = plan.goal == "ci_width"
    values = [c.expected_width if width_goal else c.power for c in curve]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(sizes, values, label=f"{options['method']}")
    mark = plan.expected_width if width_goal else plan.power
    axes.scatter([plan.n], [mark], color="C3", zorder=3, label=f"planned n = {plan.n}")
    target = plan.ci_width if width_goal else plan.target_power
    if target is not None:
        axes.axhline(target, color="grey", linestyle="--", linewidth=1)
    axes.set_xlabel("items (n)")
    axes.set_ylabel(
        f"expected width of the {plan.confidence_level:.0%} interval" if width_goal else "power"
    )
    axes.set_title(f"kappa1 = {plan.kappa1:.3g}, kappa0 = {plan.kappa0:g}, {plan.weights}")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _cli_message(exc: WkappaError) -> str:
    text = " ".join(str(exc).split())
    for name, option in _NAMES:
        text = text.replace(name, option)
    return text


def run_plan(args: argparse.Namespace) -> int:
    """Run ``wkappa plan``; returns the exit code."""
    try:
        plan = _make(args)
        if args.plot:
            _plot(plan, args, args.plot)
    except WkappaError as exc:
        raise WkappaError(_cli_message(exc)) from None
    if args.format == "json":
        json.dump(plan.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(plan.explain())
    return 0
