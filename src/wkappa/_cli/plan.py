"""``wkappa plan``: how many items to rate (sample size, power and precision of kappa, and
with ``--coefficient icc`` of an intraclass correlation, whose plan ``plan_icc`` makes, or
with ``--coefficient ccc`` of Lin's CCC, whose plan ``plan_ccc`` makes)."""

from __future__ import annotations

import argparse
import math
import re
import warnings
from collections.abc import Callable
from typing import Any

from .._stats import (
    CCCPlan,
    ICCPlan,
    KappaPlan,
    kappa_power,
    kappa_sample_size,
    level_percent,
    probability_phrase,
    probability_text,
)
from ..exceptions import WkappaError
from .options import (
    add_ci,
    add_command,
    add_common,
    add_explain,
    add_format,
    add_plot,
    add_report,
    explained,
    image_format,
    in_options,
    later_note,
    note,
)
from .output import to_json
from .plan_ccc import (
    CCC_NAMES,
    add_ccc_options,
    ccc_computation,
    ccc_plan,
    refuse_ccc_options,
)
from .plan_icc import icc_computation, icc_plan
from .plan_report import (
    NAMES,
    POINT_STUDIES,
    Curve,
    Simulated,
    checked_share,
    curve_field,
    evenly_picked,
    figure_bytes,
    hypothesis_options,
    write_report,
)
from .written import write_bytes

__all__ = ["add_plan_parser", "run_plan"]


def add_plan_parser(sub: Any) -> None:
    """Register ``plan`` on the sub-command parser."""
    plan = add_command(
        sub,
        "plan",
        "how many items to rate: sample size, power, interval width",
        (
            "Sample size of an agreement study (or, with --n, what n items deliver): the "
            "power of the test of kappa = --kappa0 when kappa is --kappa1, or the expected "
            "width / lower limit of the interval. The population is --marginals (shared, or "
            "'A;B' per rater) with --kappa1, or an anticipated --table. With --coefficient "
            "icc: the subjects of an ICC reliability study of --raters raters, for the F test "
            "of ICC = --icc0 when the ICC is --icc1 (or the interval's width / lower limit). "
            "With --coefficient ccc: the subjects of a method comparison analysed by Lin's "
            "CCC, for the test of CCC = --ccc0 when the CCC is --ccc1 (or the interval's)."
        ),
        run_plan,
    )
    plan.add_argument(
        "--kappa1",
        type=float,
        help="the anticipated kappa (with --table: the table is moved to this kappa)",
    )
    plan.add_argument(
        "--kappa0", type=float, help="kappa under H0 (default: 0; the test's goal only)"
    )
    plan.add_argument(
        "--icc1", type=float, help="with --coefficient icc: the anticipated ICC of --form"
    )
    plan.add_argument(
        "--icc0",
        type=float,
        help="with --coefficient icc: the ICC under H0 (default: 0; the test's goal only)",
    )
    plan.add_argument(
        "--form",
        help="with --coefficient icc: the ICC planned for, 1,1 (default), C,1, 1,k or C,k "
        "(McGraw & Wong; or ICC1, ICC3, ICC1k, ICC3k)",
    )
    add_ccc_options(plan)
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
        help="quadratic, linear, unweighted; with --coefficient or 3 or more --raters, any "
        "weights of wkappa agree (Gwet's ordinal, radical, ratio, circular, bipolar: with "
        "--method simulation) (default: quadratic)",
    )
    plan.add_argument("--power", type=float, help="power wanted (default: 0.8)")
    plan.add_argument("--alpha", type=float, help="size of the test (default: 0.05)")
    plan.add_argument(
        "--alternative",
        choices=("greater", "less", "two-sided"),
        help="alternative of the test (default: greater)",
    )
    plan.add_argument("--ci-width", type=float, metavar="W", help="plan for this CI width")
    plan.add_argument(
        "--lower-limit", type=float, metavar="L", help="plan for the CI's lower limit to exceed L"
    )
    plan.add_argument(
        "--assurance",
        type=float,
        help="with --lower-limit: probability it does (default: 0.5); with --coefficient icc "
        "or ccc and --ci-width: probability that the interval is at most W wide",
    )
    add_ci(plan)
    plan.add_argument(
        "--raters", type=int, default=2, metavar="R", help="raters per item (default: 2)"
    )
    plan.add_argument(
        "--coefficient",
        help="cohen (two raters), fleiss, conger, gwet, brennan_prediger, krippendorff or "
        "percent (default: Cohen's kappa for two raters, fleiss for more); icc plans an "
        "intraclass correlation of numeric ratings (--icc1, --icc0, --form), ccc Lin's "
        "concordance correlation of two methods (--ccc1, --ccc0, --pearson ...)",
    )
    plan.add_argument(
        "--method",
        choices=(*_KAPPA_METHODS, *_ICC_METHODS, "lin"),
        help="how n is computed: asymptotic (the default), goodness-of-fit, max-variance or "
        "simulation for kappa; exact (the default) or approximate with --coefficient icc; "
        "lin (the default and only one) with --coefficient ccc",
    )
    plan.add_argument(
        "--simulations",
        type=int,
        metavar="B",
        help="with --method simulation: simulated studies per n "
        "(default: 10000 for two raters, 1000 for more)",
    )
    plan.add_argument("--seed", type=int, help="random seed of the simulation")
    plan.add_argument("--n", type=int, help="report what N items deliver instead")
    add_format(plan, "text", "json")
    add_explain(plan)
    add_plot(plan, "save power (or interval width) against n")
    add_report(plan, "write a self-contained HTML report: the plan, and power (or width) against n")
    add_common(plan)


_KAPPA_METHODS = ("asymptotic", "goodness-of-fit", "max-variance", "simulation")
_ICC_METHODS = ("exact", "approximate")
# Options of one kind of plan, refused with the other: (attribute, option).
_KAPPA_ONLY = (("kappa1", "--kappa1"), ("kappa0", "--kappa0"), ("marginals", "--marginals"),
               ("table", "--table"), ("weights", "--weights"), ("simulations", "--simulations"),
               ("seed", "--seed"))  # fmt: skip
_ICC_ONLY = (("icc1", "--icc1"), ("icc0", "--icc0"), ("form", "--form"))


def _numbers(text: str, option: str) -> list[float]:
    try:
        return [float(part) for part in text.split(",")]
    except ValueError:
        raise WkappaError(f"{option} must be comma-separated numbers; got {text!r}.") from None


def _refuse_decimal_commas(text: str) -> None:
    """--marginals written with decimal commas (``0,2;0,3;0,5``) read as lists ``0, 2``,
    ``0, 3``, ... of impossible probabilities: refused with the spelling meant."""
    parts = [part.strip() for part in text.split(";")]
    if len(parts) > 1 and all(re.fullmatch(r"0,\d+", part) for part in parts):
        meant = ",".join(part.replace(",", ".") for part in parts)
        raise WkappaError(
            f"--marginals {text!r} reads as {len(parts)} lists of two numbers, 0 and a whole "
            f"number, which are not probabilities: decimal commas? Hint: write decimal points, "
            f"commas between the categories: --marginals {meant}."
        )


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {
        "kappa1": args.kappa1,
        "weights": "quadratic" if args.weights is None else args.weights,
        "confidence_level": args.ci,
        "n_raters": args.raters,
        "coefficient": args.coefficient,
        "method": "asymptotic" if args.method is None else args.method,
        "n_simulations": args.simulations,
        "rng": args.seed,
        "lower_limit": args.lower_limit,
        **hypothesis_options(args, "kappa0"),
    }
    if args.marginals is not None:
        _refuse_decimal_commas(args.marginals)
        rows = [_numbers(part, "--marginals") for part in args.marginals.split(";")]
        if any(len(row) != len(rows[0]) or len(row) < 2 for row in rows):
            raise WkappaError(
                "--marginals must be one list of K >= 2 category probabilities (shared by the "
                f"raters) or two such lists separated by ';' (one per rater); got "
                f"{args.marginals!r}."
            )
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
        if args.ci_width is not None or args.assurance is not None or args.power is not None:
            raise WkappaError(
                "--n reports what n items deliver: drop --power / --ci-width / --assurance."
            )
        return kappa_power(args.n, **options)
    return kappa_sample_size(
        power=args.power,
        ci_width=args.ci_width,
        assurance=args.assurance,
        **options,
    )


def _curve(plan: KappaPlan, args: argparse.Namespace) -> Curve:
    """What n = 2 .. 2 x the planned n deliver: 60 points of the plan's formula; for a
    simulation plan of two raters the asymptotic formula's (a simulated curve would take a
    minute), of several raters 15 points simulated with 200 studies each."""
    options = _options(args)
    points = 60
    if plan.method == "simulation" and plan.n_raters == 2 and plan.coefficient is None:
        options.update(method="asymptotic", n_simulations=None, rng=None)
    elif plan.method == "simulation":
        points = 15
        options.update(n_simulations=200, rng=0 if args.seed is None else args.seed)
    top = max(2 * plan.n, 20)
    least = 2 if plan.n_raters == 2 and plan.coefficient is None else 3
    sizes = sorted({max(least, round(top * i / points)) for i in range(1, points + 1)})
    method = str(options["method"])
    if plan.method == "simulation" and method == "simulation":
        method = "simulation, 200 studies per n"
    simulated = _simulated_points(plan, args, method, evenly_picked(sizes))
    return sizes, [kappa_power(n, **options) for n in sizes], method, simulated


def _simulated_points(
    plan: KappaPlan, args: argparse.Namespace, method: str, sizes: list[int]
) -> Simulated | None:
    """Where the curve is the normal approximation's (two raters, the power or the chance of
    clearing a lower limit), the same share at ``sizes`` (and the planned n) in simulated
    studies of wkappa's own test and score interval: at a small n, or with a sparse
    category, the formula's share can be far above what a study delivers (the simulated
    check of the plan says so at the planned n alone). None for a simulated curve, the
    goodness-of-fit test's (another test) and the expected width (not a share)."""
    field = curve_field(plan)[0]
    if method not in ("asymptotic", "max-variance") or field == "expected_width":
        return None
    if field == "power" and abs(plan.kappa1 - (plan.kappa0 or 0.0)) < 1e-9:  # no power: the size
        return None
    options = _options(args)
    seed = 0 if args.seed is None else args.seed
    options.update(method="simulation", n_simulations=POINT_STUDIES, rng=seed)
    # the planned n's own simulated check, where one ran, is drawn instead (figure_bytes)
    points = sorted({*sizes} if checked_share(plan) is not None else {*sizes, plan.n})
    return points, [kappa_power(n, **options) for n in points]


def run_plan(args: argparse.Namespace) -> int:
    """Run ``wkappa plan``; returns the exit code."""
    if args.coefficient == "ccc":
        try:
            ccc = ccc_plan(args, _KAPPA_ONLY)
        except WkappaError as exc:
            raise WkappaError(in_options(str(exc), CCC_NAMES)) from None
        return _print_plan(ccc, args, "wkappa.ccc-plan/1", lambda: ccc_computation(ccc))
    if args.coefficient == "icc":
        try:
            refuse_ccc_options(args, "an ICC")
            _refuse_kappa_options(args)
            icc = icc_plan(args)
        except WkappaError as exc:
            raise WkappaError(in_options(str(exc), NAMES)) from None
        return _print_plan(icc, args, "wkappa.icc-plan/1", lambda: icc_computation(icc))
    _refuse_icc_options(args)
    refuse_ccc_options(args, "kappa")
    if args.table is not None and args.kappa1 is not None:
        later_note(
            args,
            f"--kappa1 {args.kappa1:g} moves --table to kappa {args.kappa1:g} (mixed with chance "
            "below the table's kappa, with perfect agreement above); drop --kappa1 to plan "
            "with the table as it is.",
        )
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plan = _make(args)
        # Each warning once, in the command's words and of its own class.
        cautions = {in_options(str(w.message), NAMES): w.category for w in caught}
        for text, category in cautions.items():
            warnings.warn(text, category, stacklevel=1)
        if args.plot or args.report:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the plan's own warning is shown above
                curve = _curve(plan, args)
            if args.plot:
                figure = figure_bytes(plan, *curve, image_format(args.plot))
                write_bytes(args.plot, figure, "--plot")
                note(args, f"wrote {args.plot}")
            if args.report:
                write_report(plan, curve, args)
                note(args, f"wrote {args.report}")
    except WkappaError as exc:
        raise WkappaError(in_options(str(exc), NAMES)) from None
    return _print_plan(plan, args, "wkappa.plan/1", lambda: _computation(plan))


def _refuse_icc_options(args: argparse.Namespace) -> None:
    """Refuse the options of an ICC plan given to a kappa plan."""
    for name, option in _ICC_ONLY:
        if getattr(args, name) is not None:
            raise WkappaError(
                f"{option} goes with --coefficient icc (a study of an intraclass correlation). "
                "Hint: add --coefficient icc, or plan kappa with --kappa1 and --marginals."
            )
    if args.method == "lin":
        raise WkappaError(
            "--method lin plans Lin's CCC (with --coefficient ccc); a kappa plan takes "
            "--method asymptotic (the default), goodness-of-fit, max-variance or simulation."
        )
    if args.method in _ICC_METHODS:
        raise WkappaError(
            f"--method {args.method} plans an ICC (with --coefficient icc); a kappa plan takes "
            "--method asymptotic (the default), goodness-of-fit, max-variance or simulation."
        )


def _refuse_kappa_options(args: argparse.Namespace) -> None:
    """Refuse the options of a kappa plan given to ``--coefficient icc``."""
    for name, option in _KAPPA_ONLY:
        if getattr(args, name) is not None:
            raise WkappaError(
                f"{option} is an option of a kappa plan; --coefficient icc plans an intraclass "
                f"correlation. Hint: drop {option} (the ICC plan takes --icc1, --icc0, --form)."
            )
    for option in ("plot", "report"):
        if getattr(args, option) is not None:
            raise WkappaError(
                f"--{option} draws the curve of a kappa plan; an ICC plan has none. Hint: drop "
                f"--{option}, and ask --n for what a given number of subjects delivers."
            )
    if args.method in (*_KAPPA_METHODS, "lin"):
        planned = "Lin's CCC (with --coefficient ccc)" if args.method == "lin" else "kappa"
        raise WkappaError(
            f"--method {args.method} plans {planned}; --coefficient icc takes --method exact (the "
            "default: the F distribution) or --method approximate (Walter et al. 1998, "
            "Bonett 2002)."
        )


def _print_plan(
    plan: KappaPlan | ICCPlan | CCCPlan,
    args: argparse.Namespace,
    schema: str,
    computation: Callable[[], str],
) -> int:
    """Print the plan: in words (with ``--explain``, ``computation()``: how it was computed)
    or as JSON of ``schema``."""
    if args.format == "json":
        print(to_json(plan.to_dict(), schema=schema))
    else:
        print(explained(plan, columns={"method": "--method"}))
        if args.explain:
            print()
            print(computation())
    return 0


def _computation(plan: KappaPlan) -> str:
    """``--explain``: how n (or, with ``--n``, the power) was computed, the formula of the
    plan's ``--method`` with its inputs, and the simulated check of its normal approximation
    where one ran (``check_simulations``)."""
    text = _formula(plan)
    if not plan.check_simulations:
        return text
    shares = []
    if plan.simulated_power == plan.simulated_power:
        shares.append(f"wkappa's test rejected in {plan.simulated_power:.4f} of them")
    if plan.simulated_assurance == plan.simulated_assurance:
        shares.append(
            f"the lower limit of the score interval cleared {plan.lower_limit:g} in "
            f"{plan.simulated_assurance:.4f}"
        )
    if not shares:
        return text
    return (
        f"{text}\n  a category is sparse at n = {plan.n:,} (the rarest expects fewer than 15 "
        f"ratings), so the normal approximation was checked on {plan.check_simulations:,} "
        f"studies simulated from P: {' and '.join(shares)}."
    )


def _formula(plan: KappaPlan) -> str:
    """The formula of the plan's ``--method`` with its inputs (:func:`_computation`)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    two = plan.alternative == "two-sided"
    k = plan.table.shape[0]
    weights = plan.weights if plan.weights == "unweighted" else f"{plan.weights} weights"
    sigmas = [
        f"sigma_{which} = {value:.4f} at {where}"
        for which, value, where in (
            ("1", plan.standard_deviation, "P"),
            ("0", plan.standard_deviation_null, "the H0 table"),
        )
        if value == value  # nan: the method uses no such standard deviation
    ]
    spread = (
        f"; the per-item standard deviation of kappa is {' and '.join(sigmas)}" if sigmas else ""
    )
    lines = [
        "How the plan was computed:",
        f"  the population table P ({k} x {k}, {weights}) has kappa {plan.model_kappa:.4f}"
        f"{spread}.",
    ]
    if plan.method in ("asymptotic", "max-variance"):
        if plan.method == "max-variance":
            lines.append(
                "  max-variance: sigma_0 and sigma_1 are the largest of any table with P's "
                "margins and kappa (a linear program), the worst pattern of disagreement."
            )
        if plan.goal == "ci_width":
            zc = z((1 + plan.confidence_level) / 2)
            lines.append(
                f"  n = (2 z sigma_1 / width)^2 = (2 x {zc:.4f} x "
                f"{plan.standard_deviation:.4f} / {plan.ci_width:g})^2, rounded up: "
                f"n = {plan.n:,}."
            )
            return "\n".join(lines)
        alpha = plan.alpha if plan.alpha is not None else 1 - plan.confidence_level
        kappa0 = float(plan.kappa0 if plan.kappa0 is not None else plan.lower_limit or 0.0)
        power = plan.target_power if plan.goal == "power" else plan.target_assurance
        za = z(1 - alpha / 2) if two or plan.kappa0 is None else z(1 - alpha)
        za_name = "z_(1-alpha/2)" if two else "z_(1-alpha)"
        if plan.kappa0 is None:
            za_name = "z_((1+level)/2)"
        if plan.goal == "n" or power is None:
            lines.append(
                f"  power = Phi((sqrt(n) |kappa1 - kappa0| - {za_name} sigma_0) / sigma_1) "
                f"with n = {plan.n:,}, kappa1 = {plan.kappa1:g}, kappa0 = {kappa0:g}, "
                f"{za_name} = {za:.4f}: {probability_phrase('power', plan.power)}."
            )
            return "\n".join(lines)
        zp = z(power)
        if plan.kappa0 is None:  # sigma_0 is that of the table whose kappa is the limit
            lines.append(
                f"  the lower limit of the {level_percent(plan.confidence_level)} score interval "
                f"clears L = {kappa0:g} exactly when the test of H0: kappa = L rejects, so n is "
                f"the test's: n = (({za_name} sigma_0 + z_assurance sigma_1) / (kappa1 - L))^2 "
                f"with {za_name} = {za:.4f}, z_assurance = {zp:.4f}, sigma_0 at the table of "
                f"kappa L, rounded up: n = {plan.n:,}."
            )
            return "\n".join(lines)
        exact = ((za * plan.standard_deviation_null + zp * plan.standard_deviation)
                 / (plan.kappa1 - kappa0)) ** 2  # fmt: skip
        lines.append(
            f"  n = (({za_name} sigma_0 + z_power sigma_1) / (kappa1 - kappa0))^2 = "
            f"(({za:.4f} x {plan.standard_deviation_null:.4f} + {zp:.4f} x "
            f"{plan.standard_deviation:.4f}) / ({plan.kappa1:g} - {kappa0:g}))^2 = "
            f"{exact:.2f}, rounded up: n = {plan.n:,}."
        )
    elif plan.method == "goodness-of-fit" and plan.goal == "ci_width" and plan.ci_width:
        lines.append(
            "  goodness-of-fit (kappaSize's CI functions): an expected limit is the kappa whose "
            "chi-square statistic against kappa1, n sum_j (P_j(kappa1) - P_j(limit))^2 / "
            "P_j(limit), reaches z_((1+level)/2)^2; n is the smallest putting both limits "
            f"within kappa1 ± {plan.ci_width / 2:g} (the wider side decides): n = {plan.n:,}."
        )
    elif plan.method == "goodness-of-fit" and plan.goal == "lower_limit":
        zc, zp = z((1 + plan.confidence_level) / 2), z(float(plan.target_assurance or 0.5))
        lines.append(
            "  goodness-of-fit (Donner & Eliasziw 1992): the lower limit clears L = "
            f"{plan.lower_limit:g} with probability {plan.target_assurance:g} when the "
            "chi-square statistic of kappa1 against L, n sum_j (P_j(kappa1) - P_j(L))^2 / "
            f"P_j(L), reaches (z_((1+level)/2) + z_assurance)^2 with z_((1+level)/2) = "
            f"{zc:.4f}, z_assurance = {zp:.4f}, P_j the probabilities of the cells 'all "
            "raters agree on category j' and 'they disagree'; rounded up: "
            f"n = {plan.n:,}."
        )
    elif plan.method == "goodness-of-fit" and plan.goal == "n":
        if plan.lower_limit is not None:
            against = f"L = {plan.lower_limit:g}"
            delivers = probability_phrase("P(lower limit > L)", plan.assurance)
        else:
            against = f"kappa0 = {plan.kappa0:g}"
            delivers = f"power {probability_text(plan.power)}"
        lines.append(
            "  goodness-of-fit (Donner & Eliasziw 1992): the 1-df chi-square statistic of "
            f"kappa1 against {against} on the probabilities P_j of the cells 'all raters "
            f"agree on category j' and 'they disagree', with the n = {plan.n:,} items given: "
            f"{delivers}."
        )
    elif plan.method == "goodness-of-fit":
        lines.append(
            "  goodness-of-fit (Donner & Eliasziw 1992): n = lambda / sum_j (P_j(kappa1) - "
            "P_j(kappa0))^2 / P_j(kappa0), with P_j the probabilities of the cells 'all raters "
            "agree on category j' and 'they disagree', and lambda the noncentrality of a 1-df "
            f"chi-square test of size {plan.alpha if plan.alpha is not None else '-'} with "
            f"power {plan.target_power if plan.target_power is not None else '-'}: "
            f"n = {plan.n:,}."
        )
    else:
        analysis = {
            "power": "wkappa's test of kappa0",
            "lower_limit": f"the lower limit of the {plan.limit_interval} interval",
            "ci_width": f"the width of the {plan.width_interval} interval",
        }.get(plan.goal, "wkappa's test and interval")
        reaches = (
            "mean width meets the goal"  # a mean, not a share: no Monte Carlo SE of a share
            if plan.goal == "ci_width"
            else "share of successes reaches the goal"
        )
        error = (
            ""
            if math.isnan(plan.monte_carlo_error)
            else f" (Monte Carlo SE {plan.monte_carlo_error:.3f})"
        )
        lines.append(
            f"  simulation: {plan.n_simulations:,} studies of n items drawn from P for each n "
            f"tried; each is analysed as the real study will be ({analysis}), and n is the "
            f"smallest whose {reaches}: n = {plan.n:,}{error}."
        )
    return "\n".join(lines)
