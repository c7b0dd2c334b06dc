"""The figure and the HTML report of ``wkappa plan`` (``--plot``, ``--report``): what n = 2
.. 2 x the planned n deliver by the plan's formula, and over a normal approximation's curve
the same share in simulated studies of wkappa's own test and interval; and what the plans of
kappa, ICC and CCC take alike from the options (:func:`hypothesis_options`,
:func:`subjects_plan`)."""

from __future__ import annotations

import argparse
import base64
import io
import math
from collections.abc import Callable
from typing import Any, TypeVar

from .._core import import_optional
from .._stats import DECIMALS, KappaPlan, level_percent, probability_text
from ..exceptions import WkappaError
from .options import in_options, option_names
from .written import write_text

__all__ = [
    "NAMES",
    "POINT_STUDIES",
    "Curve",
    "Simulated",
    "checked_share",
    "curve_field",
    "evenly_picked",
    "figure_bytes",
    "hypothesis_options",
    "subjects_plan",
    "write_report",
]

# The library's parameter names, as this command spells them.
NAMES = option_names(
    "kappa1 kappa0 icc1 icc0 form marginals table power alpha ci_width lower_limit assurance "
    "coefficient "
    "method alternative n weights confidence_level:--ci n_raters:--raters "
    "n_simulations:--simulations rng:--seed"
)

# n, what each n delivers, how it was computed, and the simulated points drawn over a
# formula's curve (``_simulated_points`` of ``wkappa._cli.plan``; None where none are).
Curve = tuple[list[int], list[KappaPlan], str, "Simulated | None"]

# The simulated points over a formula's curve: their n and what each delivers.
Simulated = tuple[list[int], list[KappaPlan]]

# Simulated studies per point drawn over a formula's curve (a Monte Carlo SE of at most
# 0.016 for a share).
POINT_STUDIES = 1000

# Points of the curve shown in the report's table (and simulated over a formula's curve).
TABLE_POINTS = 12

Plan = TypeVar("Plan")


def hypothesis_options(args: argparse.Namespace, null: str) -> dict[str, Any]:
    """The test's options given (the keyword ``null`` of its null value, ``alpha``,
    ``alternative``): the library's defaults stand for the others, and its refusal where an
    interval goal, which runs no test, is given one."""
    return {
        name: getattr(args, name)
        for name in (null, "alpha", "alternative")
        if getattr(args, name) is not None
    }


def subjects_plan(
    args: argparse.Namespace,
    options: dict[str, Any],
    power: Callable[..., Plan],
    sample_size: Callable[..., Plan],
) -> Plan:
    """The ICC or CCC plan of the options: with ``--n``, what n subjects deliver by
    ``power`` (``--ci-width W``: the probability that the interval is at most W wide), else
    the n of the goal by ``sample_size``."""
    if args.n is not None:
        if args.assurance is not None or args.power is not None:
            raise WkappaError(
                "--n reports what n subjects deliver: drop --power / --assurance (--ci-width "
                "W reports the probability that the interval is at most W wide)."
            )
        return power(args.n, ci_width=args.ci_width, **options)
    return sample_size(
        power=args.power, ci_width=args.ci_width, assurance=args.assurance, **options
    )


def evenly_picked(values: list[Any]) -> list[Any]:
    """About :data:`TABLE_POINTS` of the curve's ``values``, evenly spaced."""
    return values[:: max(1, len(values) // TABLE_POINTS)]


def checked_share(plan: KappaPlan) -> float | None:
    """The simulated check's share at the planned n of what the curve shows, or None."""
    field = curve_field(plan)[0]
    share = plan.simulated_power if field == "power" else plan.simulated_assurance
    return None if field == "expected_width" or share != share else share


def figure_bytes(
    plan: KappaPlan,
    sizes: list[int],
    curve: list[KappaPlan],
    method: str,
    simulated: Simulated | None,
    file_format: str = "png",
) -> bytes:
    """The power (the expected width for the ``ci_width`` goal, the probability of clearing
    the lower limit for the ``lower_limit`` goal) against n, as PNG (or ``file_format``)
    bytes; over a formula's curve, the simulated points with their Monte Carlo error bars."""
    import_optional("matplotlib", "plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    field, target, label = curve_field(plan)
    values = [getattr(c, field) for c in curve]
    figure, axes = plt.subplots(figsize=(6, 4))
    formula = f"{method} (normal approximation)" if simulated is not None else method
    axes.plot(sizes, values, label=formula)
    if simulated is not None:
        points, outcomes = simulated
        shares = [getattr(c, field) for c in outcomes]
        errors = [1.96 * math.sqrt(p * (1.0 - p) / POINT_STUDIES) for p in shares]
        axes.errorbar(
            points, shares, yerr=errors, fmt="o", color="C1", markersize=4, capsize=2,
            label=f"simulated, {POINT_STUDIES:,} studies per n (95% MC band)",
        )  # fmt: skip
        checked = checked_share(plan)
        if checked is not None:
            axes.errorbar(
                [plan.n], [checked], fmt="s", color="C1", markersize=5, capsize=2,
                yerr=[1.96 * math.sqrt(checked * (1.0 - checked) / plan.check_simulations)],
                label=f"the plan's check, {plan.check_simulations:,} studies",
            )  # fmt: skip
    mark = getattr(plan, field)
    axes.scatter([plan.n], [mark], color="C3", zorder=3, label=f"planned n = {plan.n:,}")
    if target is not None:
        axes.axhline(target, color="grey", linestyle="--", linewidth=1)
    axes.set_xlabel("items (n)")
    axes.set_ylabel(label)
    null = "" if plan.kappa0 is None else f", kappa0 = {plan.kappa0:g}"
    axes.set_title(f"kappa1 = {plan.kappa1:.3g}{null}, {plan.weights}")
    axes.legend()
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format=file_format, dpi=120)
    plt.close(figure)
    return buffer.getvalue()


def curve_field(plan: KappaPlan) -> tuple[str, float | None, str]:
    """What the curve shows for the plan's goal: the plan's field, its target, its label."""
    if plan.goal == "ci_width":
        level = level_percent(plan.confidence_level)
        label = f"expected width of the {level} {plan.width_interval} interval"
        return "expected_width", plan.ci_width, label
    if plan.goal == "lower_limit":
        return "assurance", plan.target_assurance, f"P(lower limit > {plan.lower_limit:g})"
    return "power", plan.target_power, "power"


def _value(number: float | None, digits: str = ".4g") -> str:
    return "" if number is None or number != number else format(number, digits)


def _probability(number: float | None, target: float | None = None) -> str:
    """A power or assurance in the report's tables (:func:`probability_text`); empty when
    the plan has none."""
    return "" if number is None or number != number else probability_text(number, target)


def _simulated_share(share: float, target: float | None) -> str:
    """A simulated share in the report's table: every study or none as the count (``1,000/
    1,000``: a share of 1 is no power of 1), else as a probability."""
    if share in (0.0, 1.0):
        return f"{round(share * POINT_STUDIES):,}/{POINT_STUDIES:,}"
    return _probability(share, target)


def _checked(plan: KappaPlan, share: str) -> str:
    """The simulated check of the plan's power or assurance, in the command's words
    (:meth:`KappaPlan.approximation_check`), after a space."""
    text = plan.approximation_check(share)
    return f" {in_options(text, NAMES)}" if text else ""


def write_report(plan: KappaPlan, curve_of_n: Curve, args: argparse.Namespace) -> None:
    """``--report``: the plan in words and numbers and the curve as a table and a figure (the
    plan's warnings, shown on stderr, are in the page's "Warnings" section)."""
    from .methods import plan_methods
    from .provenance import Provenance, methods_html, references_html
    from .report import cells_table, escape, html_page

    heading = f"Study plan: n = {plan.n:,} items"
    sentence, cited = plan_methods(plan, Provenance.of(args))
    goal = {
        "power": f"power >= {_value(plan.target_power, 'g')}",
        "ci_width": plan.goal_text,
        "lower_limit": f"P(lower limit > {_value(plan.lower_limit, 'g')}) >= "
        f"{_value(plan.target_assurance, 'g')}",
        "n": "n given",
    }[plan.goal]
    rows = [
        ["items (n)", f"{plan.n:,}"],
        ["goal", goal],
        ["method", plan.method],
        ["anticipated kappa1", _value(plan.kappa1)],
        [f"expected width of the {level_percent(plan.confidence_level)} "
         f"{plan.width_interval} interval",
         _value(plan.expected_width, f".{DECIMALS}f")],
        ["weights", plan.weights],
        ["raters", str(plan.n_raters)],
        ["categories (K)", str(plan.table.shape[0])],
    ]  # fmt: skip
    if plan.kappa0 is not None:  # the interval goals run no test
        rows[4:4] = [
            ["kappa0 (H0)", f"{_value(plan.kappa0, 'g')} ({plan.alternative}, alpha "
             f"{_value(plan.alpha, 'g')})"],
            ["power", _probability(plan.power, plan.target_power) + _checked(plan, "power")],
        ]  # fmt: skip
    if plan.coefficient is not None:
        rows.append(["coefficient", plan.coefficient])
    if plan.lower_limit is not None:
        limit = f"{level_percent(plan.confidence_level)} {plan.limit_interval} interval"
        rows.append(
            [
                f"P(lower limit of the {limit} > {plan.lower_limit:g})",
                _probability(plan.assurance, plan.target_assurance) + _checked(plan, "assurance"),
            ]
        )
    if plan.method == "simulation":
        rows.append(["simulated studies per n", f"{plan.n_simulations:,}"])
        if plan.monte_carlo_error == plan.monte_carlo_error:  # nan for the width goal
            share = "P(lower limit)" if plan.goal == "lower_limit" else "power"
            rows.append([f"Monte Carlo SE of the {share}", _value(plan.monte_carlo_error, ".3f")])
    body = [
        f'<p class="meta">{escape(plan.explain().splitlines()[1].strip())}</p>',
        methods_html(sentence),
        "<h2>The plan</h2>",
        cells_table(["", "value"], rows),
    ]
    sizes, curve, method, simulated = curve_of_n
    try:
        png = figure_bytes(plan, sizes, curve, method, simulated)
    except ImportError:
        body.append('<p class="note">The figure needs matplotlib: pip install "wkappa[plot]".</p>')
    else:
        encoded = base64.b64encode(png).decode("ascii")
        shown = curve_field(plan)[2]
        body += [
            f"<h2>{escape(shown[0].upper() + shown[1:])} against n</h2>",
            f'<img alt="{escape(shown)} against n" src="data:image/png;base64,{encoded}">',
        ]
    if plan.method == "simulation" and method == "asymptotic":
        body.append(
            '<p class="note">The curve is the asymptotic formula\'s; the planned n is the '
            "simulation's.</p>"
        )
    picked = evenly_picked(curve)
    field, target, shown = curve_field(plan)
    by_n = {} if simulated is None else dict(zip(*simulated, strict=True))
    columns = ["items (n)"]
    if plan.kappa0 is not None:
        columns.append("power")
    if plan.goal == "lower_limit":
        columns.append(f"P(lower limit > {plan.lower_limit:g})")
    if by_n:
        columns.append(f"simulated {'power' if field == 'power' else columns[-1]}")
    columns.append(f"expected {level_percent(plan.confidence_level)} width")
    table_rows = []
    for c in picked:
        row = [f"{c.n:,}"]
        if plan.kappa0 is not None:
            row.append(_probability(c.power, plan.target_power))
        if plan.goal == "lower_limit":
            row.append(_probability(c.assurance, plan.target_assurance))
        if by_n:
            row.append(_simulated_share(getattr(by_n[c.n], field), target))
        table_rows.append([*row, _value(c.expected_width, f".{DECIMALS}f")])
    body.append(cells_table(columns, table_rows))
    body.append(f'<p class="note">{escape(_curve_note(plan, method, curve, by_n))}</p>')
    if cited:
        body.append(references_html(cited))
    write_text(args.report, html_page("plan", heading, body, args), "--report")


def _curve_note(
    plan: KappaPlan, method: str, curve: list[KappaPlan], simulated: dict[int, KappaPlan]
) -> str:
    """What the curve and the table under it are: the formula's share at each n and, where
    they are drawn, the simulated points, with how far below the formula they fall."""
    if not simulated:
        return f"Curve: method {method}."
    field = curve_field(plan)[0]
    share = "power" if field == "power" else "chance of clearing the lower limit"
    what = (
        f"wkappa's test rejected kappa0 = {plan.kappa0:g}"
        if field == "power"
        else f"the lower limit of the score interval cleared {plan.lower_limit:g}"
    )
    text = (
        f"Curve, and the {share} in the table: the normal approximation (method {method}) at "
        f"each n. Points, and the simulated column: the share of {POINT_STUDIES:,} studies "
        f"simulated from the anticipated table in which {what} (a Monte Carlo SE of at most "
        f"{0.5 / math.sqrt(POINT_STUDIES):.3f})."
    )
    formula = {c.n: getattr(c, field) for c in curve}
    if plan.method == method:  # the planned n's own share is the formula's
        formula[plan.n] = getattr(plan, field)
    gaps = []  # how far below the formula's share a simulated one falls, beyond its noise
    for n, outcome in simulated.items():
        found = getattr(outcome, field)
        noise = 1.96 * math.sqrt(found * (1.0 - found) / POINT_STUDIES)
        if n in formula and formula[n] - found > noise:
            gaps.append((formula[n] - found, n))
    worst = max(gaps, default=None)
    if worst is not None:
        text += (
            f" The simulated {share} falls up to {worst[0]:.2f} below the formula's (at n = "
            f"{worst[1]:,}): where they differ, the simulated share is what a study of that "
            "size delivers."
        )
    return text
