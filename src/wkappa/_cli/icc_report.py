"""The numbers of ``wkappa icc`` as its text table and its HTML report (``--report``) show
them: one row per form (the same digits in both), the ANOVA table, the methods sentence."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any

from .._stats import (
    DECIMALS,
    bound_name,
    disagreement_note,
    icc_limits,
    number_text,
    p_phrase,
    statistic_text,
)
from .io import file_name
from .methods import dropped_clause, interval_clause
from .output import (
    RowCount,
    ci_label,
    format_bound,
    format_df,
    format_interval,
    format_pvalue,
)
from .provenance import Provenance, interval_words, methods_html, references_html
from .report import cells_table, escape, headline_html, html_page
from .written import write_text

__all__ = [
    "FORM_HEADER",
    "INFINITE_F",
    "NO_RATING",
    "concordance_line",
    "count_text",
    "form_cells",
    "icc_number",
    "infinite_f",
    "interval_heading",
    "method_text",
    "omitted_text",
    "write_icc_report",
]

# The columns of form_cells (the interval's heading goes between ICC and F).
FORM_HEADER = ("form", "S&F", "ICC", "F", "df1", "df2", "p")


def concordance_line(
    result: Any, args: argparse.Namespace, propagated: bool, *, report: bool = False
) -> str:
    """The CCC's line: Lin's (two raters) or the overall one, with its interval at ``--ci``,
    one-sided with ``--alternative`` as the ICCs' (the result is ``wk.ccc(...,
    alternative=...)``'s); the text output's ``[low, high]`` under the heading of the ICCs'
    interval or, with ``report``, a one-sided interval as its bound, as the report and the
    methods sentence write one. ``propagated``: a rating is missing under ``--nan-policy
    propagate``, so the CCC is undefined."""
    name = "Lin's CCC" if result.n_raters == 2 else "overall CCC"
    estimate = icc_number(result.statistic)
    if propagated:
        return f"{name} {estimate} (--nan-policy propagate: some ratings are missing)"
    ci = result.confidence_interval(args.ci)
    if report and args.alternative != "two-sided":
        bound = format_bound(ci.low, ci.high, args.alternative, number=icc_number)
        interval = f"{bound_name(args.ci, args.alternative)} {bound}"
    else:
        limits = format_interval(ci.low, ci.high, number=icc_number)
        interval = f"{ci_label(args.ci, args.alternative)} {limits}"
    line = (
        f"{name} {estimate}, {interval} ({result.interval_method}) on "
        f"{result.n_items:,} complete items"
    )
    if result.n_items_omitted:
        line += f" ({result.n_items_omitted:,} with a missing rating left out)"
    return line


def icc_number(value: float, digits: int = DECIMALS) -> str:
    """An ICC or a limit: ``digits`` decimals, those of every coefficient in text (scientific
    below 10**-digits, never 0.0000)."""
    tiny = value != 0 and abs(value) < 10 ** (-digits)  # False for nan
    return number_text(value, ".2e" if tiny else f".{digits}f")


def interval_heading(level: float, alternative: str) -> str:
    """``95% CI`` or ``95% one-sided CI``: the interval column's heading, as every command's."""
    return ci_label(level, alternative)


# Under a table or sentence whose F is infinite: why, and what it means for the test.
INFINITE_F = "F = ∞: the error mean square is 0 (no error variance)"


def infinite_f(results: dict[str, Any], forms: Sequence[str]) -> bool:
    """Whether the F statistic of one of ``forms`` is infinite."""
    return any(math.isinf(float(results[form].f_statistic)) for form in forms)


def form_cells(result: Any, ci: Any, alternative: str | None = None) -> list[str]:
    """One form's row: name, Shrout & Fleiss's name, ICC, interval, F, df1, df2, p; with
    ``alternative`` (the report's rows), a one-sided interval as its bound alone."""
    interval = (
        format_interval(ci.low, ci.high, number=icc_number)
        if alternative is None
        else format_bound(ci.low, ci.high, alternative, number=icc_number)
    )
    return [
        result.name,
        result.shrout_fleiss,
        icc_number(result.statistic),
        interval,
        statistic_text(result.f_statistic),
        format_df(result.df1),
        format_df(result.df2),
        format_pvalue(result.pvalue),
    ]


def method_text(method: str) -> str:
    """How the mean squares were estimated, in the words of the text output."""
    if method == "anova":
        return "two-way ANOVA"
    if method == "none":  # nothing estimated
        return "a rating is missing, so every ICC is undefined (--nan-policy propagate)"
    return "REML variance components (an item with a missing rating keeps its other ratings)"


def _anova_rows(results: dict[str, Any], first: Any) -> list[list[str]]:
    """Source, df, sum of squares, mean square of the ``first`` form's model: between items
    (of the one-way model for the '1,.' forms), between raters, residual and within items;
    with every form and REML, also the other model's between-items line where it differs."""
    one_way = first.form.startswith("1")
    rows = [
        (f"between items{', one-way model' if one_way else ''} (MSR)", first.df_items,
         first.ms_items),
        ("between raters (MSC)", first.df_raters, first.ms_raters),
        ("residual (MSE)", first.df_error, first.ms_error),
        ("within items, one-way model (MSW)", first.df_within, first.ms_within),
    ]  # fmt: skip
    other = results.get("A,1" if one_way else "1,1")
    if other is not None and number_text(other.ms_items) != number_text(first.ms_items):
        name = "between items" + ("" if one_way else ", one-way model") + " (MSR)"
        rows.insert(1, (name, other.df_items, other.ms_items))
    spec = _decimals([ms for _, _, ms in rows])
    return [
        [name, format_df(df), number_text(df * ms, spec), number_text(ms, spec)]
        for name, df, ms in rows
    ]


def _decimals(values: Sequence[float]) -> str:
    """One fixed number of decimals for a column: four significant digits of its smallest
    non-zero value (at most 8 decimals)."""
    finite = [abs(v) for v in values if v == v and v not in (0.0, math.inf)]
    if not finite:
        return ".4f"
    return f".{min(8, max(0, 3 - math.floor(math.log10(min(finite)))))}f"


def _methods(
    args: argparse.Namespace,
    forms: Sequence[str],
    results: dict[str, Any],
    intervals: dict[str, Any],
    provenance: Provenance,
    rows: RowCount,
) -> tuple[str, list[str]]:
    """The methods sentence and the references it cites."""
    first = results[forms[0]]
    level = bound_name(args.ci, args.alternative)
    words, cited = interval_words("F")
    if len(forms) == 1:
        ci = intervals[forms[0]]
        what = (
            f"the intraclass correlation {first.name} of McGraw and Wong (1996) "
            f"({first.shrout_fleiss} of Shrout and Fleiss (1979): {first.description})"
        )
        found = (
            f" {first.name} = {icc_number(first.statistic)}, {level} "
            f"{format_bound(ci.low, ci.high, args.alternative, number=icc_number)}, "
            f"F({format_df(first.df1)}, {format_df(first.df2)}) = "
            f"{statistic_text(first.f_statistic)}, {p_phrase(first.pvalue)}"
            + (" (the error mean square is 0)." if infinite_f(results, forms[:1]) else ".")
        )
    else:
        what = (
            "the intraclass correlations of McGraw and Wong (1996) (the six forms; the names "
            "of Shrout and Fleiss (1979) beside them)"
        )
        found = ""
    ratings = f"{count_text(first.n_ratings)} ratings"
    if first.method == "reml":
        ratings += (
            "; items with a missing rating keep their other ratings: REML variance "
            "components, Patterson and Thompson 1971"
        )
        cited = (*cited, "patterson1971")
    dropped = dropped_clause(rows)
    omitted = first.n_items_omitted
    if omitted and not (rows.dropped == omitted and rows.reason == NO_RATING):
        # (a wide file's rows of those items are the rows the clause says were left out)
        dropped = omitted_text(omitted).replace(" (", "; ", 1).rstrip(")") + dropped
    each = "The" if len(forms) == 1 else "Each form's"
    limits = (
        icc_limits(first.form, first.method)
        if len(forms) == 1 or first.method == "reml"
        else "exact F limits for the one-way and consistency forms, approximate F limits "
        "with Satterthwaite's df for absolute agreement"
    )
    sentence = (
        f"Inter-rater reliability was estimated with {what} from {first.n_items:,} items rated "
        f"by {first.n_raters} raters ({ratings}{dropped}). {each} "
        f"{interval_clause(level, words, args.alternative)} "
        f"({limits}); the p-value is that of the "
        f"{first.test_text}. "
        f"Computed with {provenance.software} on {provenance.date}.{found}"
    )
    if first.method == "none":
        sentence += f" {_UNDEFINED_METHODS}"
    return sentence, ["mcgraw1996", "shrout1979", *cited]


def _concordance_sentence(line: str, key: str) -> str:
    """The CCC that the report shows, in the methods sentence: which coefficient (``key``,
    its reference) and its line of the text output (estimate, interval, items)."""
    what = (
        "Lin's concordance correlation coefficient (Lin 1989; its standard error as corrected "
        "in Lin 2000)"
        if key == "lin1989"
        else "the overall concordance correlation coefficient (Barnhart, Haber and Song 2002)"
    )
    return f"Agreement was also summarised by {what}: {line}."


def _source(method: str) -> str:
    if method == "reml":
        return (
            "the REML variance components (items with a missing rating kept), as expected "
            "mean squares"
        )
    return method_text(method)


# Why `wkappa icc` drops a wide file's row: its item has no rating at all.
NO_RATING = "no rating at all"


# Why every value is undefined under --nan-policy propagate, and the way out.
_UNDEFINED = (
    "Every ICC is undefined: a rating is missing and --nan-policy propagate leaves every value "
    "undefined (--nan-policy omit, the default, uses every rating by REML)."
)


# The same, in a paper's words (no option names): the methods sentence's last one.
_UNDEFINED_METHODS = (
    "Every ICC is undefined: at least one rating is missing, and the analysis was set to give "
    "undefined values when a rating is missing (rather than use the ratings there are)."
)


def omitted_text(omitted: int) -> str:
    """`` (2 items without any rating left out)`` after a count of items; nothing for 0."""
    if not omitted:
        return ""
    return f" ({omitted:,} {'item' if omitted == 1 else 'items'} without any rating left out)"


def count_text(value: float) -> str:
    """A count of ratings with thousands separators (``1,200``); ``undefined`` for nan."""
    return f"{int(value):,}" if value == value else "undefined"


def write_icc_report(
    args: argparse.Namespace,
    raters: Sequence[str],
    rows: RowCount,
    forms: Sequence[str],
    results: dict[str, Any],
    intervals: dict[str, Any],
    concordance: tuple[str, Any] | None,
) -> None:
    """Write the HTML report of an ``icc`` run to ``args.report``: the forms asked for with
    their intervals and F tests, the ANOVA table, Lin's CCC, what was dropped, the methods
    sentence, the command line and the references. ``concordance``: the CCC's line of the
    text output and its references' key, or None."""
    provenance = Provenance.of(args)
    first = results[forms[0]]
    heading = bound_name(args.ci, args.alternative, short=True)
    sentence, cited = _methods(args, forms, results, intervals, provenance, rows)
    if concordance is not None and "--nan-policy" not in concordance[0]:
        sentence += f" {_concordance_sentence(*concordance)}"  # (propagate: undefined)
    ci = intervals[forms[0]]
    body = [
        f'<p class="meta">raters <b>{escape(", ".join(raters))}</b> &middot; '
        f"{escape(provenance.software)}, {escape(provenance.stamp)}</p>",
        f'<p class="meta rows">file rows: {escape(rows.text())}</p>',
        headline_html(
            [
                (first.name, icc_number(first.statistic), first.description),
                (
                    heading,
                    format_bound(ci.low, ci.high, args.alternative, number=icc_number),
                    icc_limits(first.form, first.method),
                ),
                (
                    "F test",
                    f"F = {statistic_text(first.f_statistic)}",
                    f"df {format_df(first.df1)}, {format_df(first.df2)}; {p_phrase(first.pvalue)}",
                ),
                (
                    "items",
                    f"{first.n_items:,}",
                    f"k = {first.n_raters} raters, {count_text(first.n_ratings)} ratings"
                    + omitted_text(first.n_items_omitted).replace(" (", "; ", 1).rstrip(")"),
                ),
            ]
        ),
        methods_html(sentence),
        "<h2>Intraclass correlations</h2>",
        cells_table(
            [*FORM_HEADER[:3], heading, *FORM_HEADER[3:]],
            [form_cells(results[form], intervals[form], args.alternative) for form in forms],
        ),
        f'<p class="note">S&amp;F: the name of Shrout &amp; Fleiss (1979). p: the '
        f"{escape(results[forms[0]].test_text)}. 1 = one-way, A = absolute "
        "agreement, C = consistency; ,1 one rater, ,k the mean of the k raters. "
        f"{'; '.join(escape(f'{results[f].name}: {results[f].description}') for f in forms)}."
        + (f" {escape(INFINITE_F)}." if infinite_f(results, forms) else "")
        + "</p>",
        *(
            f'<p class="note">{escape(f"{results[form].name}: {split}.")}</p>'
            for form in forms
            if (split := disagreement_note(results[form], intervals[form])) is not None
        ),
        "<h2>Analysis of variance</h2>",
        *(
            [f'<p class="note">{escape(_UNDEFINED)}</p>']
            if first.method == "none"
            else [
                f'<p class="note">{first.n_items:,} items'
                f"{escape(omitted_text(first.n_items_omitted))} &times; {first.n_raters} "
                f"raters; mean squares from {escape(_source(first.method))}.</p>",
                cells_table(
                    ["source", "df", "sum of squares", "mean square"], _anova_rows(results, first)
                ),
            ]
        ),
    ]
    if concordance is not None:
        line, key = concordance
        source = "Lin (1989, 2000)" if key == "lin1989" else "Barnhart, Haber and Song (2002)"
        body += ["<h2>Concordance</h2>", f'<p class="note">{escape(line)}; {source}.</p>']
        cited += [key, "lin2000"] if key == "lin1989" else [key]
    body.append(references_html(cited))
    name = file_name(args.file)
    page = html_page(name, f"Intraclass correlation: {name}", body, args)
    write_text(args.report, page, "--report")
