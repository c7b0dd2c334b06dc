"""The outputs of ``wkappa judge``: its text, JSON and HTML report of a :class:`Judged`
comparison of a candidate rater with a panel (made by :func:`wkappa._cli.judge.judge`)."""

from __future__ import annotations

import argparse
import base64
import math
import textwrap
from typing import TYPE_CHECKING, Any

from .._stats import bound_name, level_percent
from .labels import label_text
from .output import (
    band_source,
    bootstrap_pvalue,
    categories_line,
    coefficient_band,
    format_bound,
    format_count,
    format_interval,
    format_number,
    render_rows,
    render_table,
    sided_method,
    to_json,
    weights_text,
)
from .written import write_text

if TYPE_CHECKING:
    from .judge import Judged

__all__ = ["judge_json", "judge_text", "write_judge_report"]


def _reading(judged: Judged, report: bool = False) -> str:
    """What the interval of the difference shows; in the ``report``, a one-sided interval
    named by its bound, as the report's table names it."""
    ci, alternative = judged.ci, judged.result.alternative
    interval = f"{level_percent(ci.confidence_level)} CI"
    contains = f"{interval} contains 0"
    if report and alternative != "two-sided":
        interval = bound_name(ci.confidence_level, alternative, short=True)
        contains = f"{interval} {'at or below' if alternative == 'greater' else 'at or above'} 0"
    if math.isnan(ci.low) or math.isnan(ci.high):
        return "undefined on these ratings"
    if ci.high < 0:
        return (
            "the candidate agrees with the members less than they agree with each other "
            f"({interval} below 0)"
        )
    if ci.low > 0:
        return (
            "the candidate agrees with the members more than they agree with each other "
            f"({interval} above 0)"
        )
    if math.isinf(ci.low):  # --alternative less: no lower end to hold against a margin
        return f"no difference shown ({contains})"
    return (
        f"no difference shown ({contains});\n    for non-inferiority by a margin d, "
        f"check that the lower end {format_number(ci.low)} is above -d"
    )


def _pvalue(judged: Judged) -> tuple[str, str]:
    result = judged.result
    units = result.n_items if result.n_clusters is None else result.n_clusters
    text, note = bootstrap_pvalue(
        float(result.pvalue), judged.n_resamples, units, result.alternative, result.n_clusters
    )
    return text, note or f"{_bootstrap(result)}, {result.alternative}"


def _bootstrap(result: Any) -> str:
    """Which bootstrap: of the items, or of whole clusters (``--cluster``)."""
    return "item bootstrap" if result.n_clusters is None else "cluster bootstrap"


def _coefficient_name(judged: Judged, args: argparse.Namespace) -> str:
    """The two-rater coefficient (Cohen's kappa, Gwet's AC1 or AC2, ...) and its weights."""
    return f"{judged.result.name}, {weights_text(args.weights)}"


def _band(judged: Judged, value: float) -> str:
    """The interpretation column: the band of a coefficient as :func:`_bands_note` names it."""
    return coefficient_band(float(value), judged.result.coefficient)


def _bands_note(judged: Judged) -> str:
    """Whose bands the interpretation column gives (empty where it gives none)."""
    source = band_source(judged.result.coefficient)
    if source == "Krippendorff":
        return (
            "Interpretation after Krippendorff (2019): rely on alpha >= 0.800; from 0.667 to "
            "0.800, draw tentative conclusions only."
        )
    return f"Interpretation: {source} (1977) bands." if source else ""


def _member_rows(judged: Judged) -> list[list[str]]:
    rows = []
    for j, member in enumerate(judged.ratings.panel):
        value = float(judged.result.candidate_vs_members[j])
        d = judged.per_member[j]
        rows.append(
            [
                member,
                format_number(value),
                _band(judged, value),
                *(format_number(d[key]) for key in _INDICES),
            ]
        )
    d = judged.panel_pooled
    rows.append(
        [
            "members vs members (pooled)",
            format_number(judged.result.panel_agreement),
            _band(judged, judged.result.panel_agreement),
            *(format_number(d[key]) for key in _INDICES),
        ]
    )
    return rows


_INDICES = ("observed_agreement", "kappa", "pabak", "prevalence_index", "bias_index")
_INDEX_HEADER = ["p_o", "kappa (unw.)", "PABAK", "prevalence", "bias"]


def _category_rows(judged: Judged) -> list[list[str]]:
    return [
        [
            label_text(label),
            format_number(judged.share_candidate[k]),
            format_number(judged.share_panel[k]),
            format_number(judged.specific_candidate[k]),
            format_number(judged.specific_panel[k]),
        ]
        for k, label in enumerate(judged.labels)
    ]


_CATEGORY_HEADER = [
    "category",
    "candidate share",
    "members share",
    "candidate-members",
    "members-members",
]


def _matrix_rows(judged: Judged) -> list[list[str]]:
    return [
        [name, *(format_number(v) for v in judged.matrix[g])] for g, name in enumerate(judged.names)
    ]


def _summary_rows(judged: Judged, pvalue: str, report: bool = False) -> list[list[str]]:
    """The candidate against the panel: both means, the difference, its interval and p
    (in the ``report``, a one-sided interval as its bound alone)."""
    result, ci = judged.result, judged.ci
    level, interval = f"{level_percent(ci.confidence_level)} CI", format_interval(ci.low, ci.high)
    if report:
        level = bound_name(ci.confidence_level, result.alternative, short=True)
        interval = format_bound(ci.low, ci.high, result.alternative)
    p_text, p_note = _pvalue(judged)
    return [
        [
            "candidate vs members (mean)",
            format_number(result.candidate_agreement),
            _band(judged, result.candidate_agreement),
        ],
        [
            "members vs members (mean)",
            format_number(result.panel_agreement),
            _band(judged, result.panel_agreement),
        ],
        ["difference", format_number(result.difference), ""],
        [
            level,
            interval,
            sided_method(
                f"{_bootstrap(result)}, {judged.n_resamples:,} resamples", result.alternative
            ),
        ],
        [pvalue, p_text, p_note],
    ]


def judge_text(judged: Judged, args: argparse.Namespace) -> str:
    r, result = judged.ratings, judged.result
    per_rater = ", ".join(
        f"{n} {c:,}" for n, c in zip(judged.names, judged.ratings_per_rater, strict=True)
    )
    lines = [
        f"wkappa judge: {r.name}  ({r.layout} layout)",
        f"  candidate     {r.candidate}",
        f"  panel         {', '.join(r.panel)} ({len(r.panel)} members)",
        f"  coefficient   {_coefficient_name(judged, args)}; {categories_line(judged.labels)}",
        f"  file rows     {r.rows.text()}",
        f"  items         {result.n_items:,}; ratings per rater: {per_rater}",
        *(
            []
            if result.n_clusters is None
            else [
                f"  clusters      {args.cluster} (G = {format_count(result.n_clusters)}), "
                "resampled whole"
            ]
        ),
        "",
        "Does the candidate agree with the panel as well as the members agree with each other?",
    ]
    lines.append(render_rows(_summary_rows(judged, "p-value (H0: no difference)"), left=(0, 2)))
    lines += [f"  reading: {_reading(judged)}", ""]
    lines += [
        "Candidate vs each member, with the base rates behind kappa (Byrt, Bishop & Carlin 1993):",
        render_table(
            ["member", "coefficient", "interpretation", *_INDEX_HEADER],
            _member_rows(judged),
            left=(0, 2),
        ),
        "  p_o: observed agreement; PABAK = (K p_o - 1)/(K - 1); prevalence index: how unequal the",
        "  categories' shares are (0 equal, 1 one category); bias index: how differently the two",
        "  raters use the categories. A low kappa with a high p_o and PABAK comes from prevalence.",
        "  Members vs members: the coefficient is the mean over their pairs (as above); p_o to",
        "  bias are of their pairs' tables pooled, so its kappa (unw.) may differ from the mean.",
        *textwrap.wrap(_bands_note(judged), 92, initial_indent="  ", subsequent_indent="  "),
        "",
        "Per category: shares of ratings and specific agreement 2 n_kk / (n_k. + n_.k):",
        render_table(_CATEGORY_HEADER, _category_rows(judged)),
        "",
        f"Pairwise {judged.result.name} (candidate first):",
        render_table(["", *judged.names], _matrix_rows(judged)),
    ]
    return "\n".join(lines)


def judge_json(judged: Judged, args: argparse.Namespace) -> str:
    r, result = judged.ratings, judged.result
    document = {
        "file": r.name,
        "layout": r.layout,
        "candidate": r.candidate,
        "panel": r.panel,
        **r.rows.to_dict(),
        "n_items": int(result.n_items),
        **({} if args.cluster is None else {"cluster": args.cluster}),
        **({} if result.n_clusters is None else {"n_clusters": result.n_clusters}),
        "ratings_per_rater": dict(zip(judged.names, judged.ratings_per_rater, strict=True)),
        "coefficient": args.coefficient,
        "weights": args.weights,
        "n_categories": len(judged.labels),
        "labels": list(judged.labels),
        "candidate_agreement": result.candidate_agreement,
        "panel_agreement": result.panel_agreement,
        "difference": result.difference,
        "confidence_interval": judged.ci.to_dict(),  # as the result's to_dict() has it
        "pvalue": result.pvalue,
        "alternative": result.alternative,
        "n_resamples": judged.n_resamples,
        "members": [
            {
                "member": m,
                "coefficient": float(result.candidate_vs_members[j]),
                **judged.per_member[j],
            }
            for j, m in enumerate(r.panel)
        ],
        "members_pooled": {"coefficient": result.panel_agreement, **judged.panel_pooled},
        "categories": [
            {
                "category": label,
                "candidate_share": judged.share_candidate[k],
                "members_share": judged.share_panel[k],
                "specific_agreement_candidate": judged.specific_candidate[k],
                "specific_agreement_members": judged.specific_panel[k],
            }
            for k, label in enumerate(judged.labels)
        ],
        "raters": judged.names,
        "pairwise": judged.matrix,
    }
    return to_json(document, schema="wkappa.judge/1")


def write_judge_report(path: str, judged: Judged, args: argparse.Namespace) -> None:
    from .methods import judge_methods
    from .provenance import Provenance, methods_html, references_html
    from .report import cells_table, escape, html_page, pairwise_png

    r, result = judged.ratings, judged.result
    sentence, cited = judge_methods(
        judged, _coefficient_name(judged, args), args, Provenance.of(args)
    )
    body = [
        f'<p class="meta">candidate <b>{escape(r.candidate)}</b> &middot; panel '
        f"{escape(', '.join(r.panel))} &middot; {escape(_coefficient_name(judged, args))}</p>",
        f'<p class="meta">{escape(categories_line(judged.labels))}</p>',
        f'<p class="meta rows">file rows: {escape(r.rows.text())}; items: {result.n_items:,}</p>',
        methods_html(sentence),
        "<h2>Candidate against the panel</h2>",
        cells_table(["", "value", ""], _summary_rows(judged, "p-value", report=True)),
        f'<p class="note">{escape(_reading(judged, report=True))}</p>',
        "<h2>Candidate vs each member: base rates</h2>",
        cells_table(
            ["member", "coefficient", "interpretation", *_INDEX_HEADER], _member_rows(judged)
        ),
        '<p class="note">PABAK = (K p_o - 1)/(K - 1); prevalence and bias indices after Byrt, '
        "Bishop &amp; Carlin (1993), generalised to K categories. A low kappa with high p_o and "
        f"PABAK is the prevalence effect, not disagreement. {escape(_bands_note(judged))}</p>",
        "<h2>Per category</h2>",
        cells_table(_CATEGORY_HEADER, _category_rows(judged)),
        "<h2>Pairwise agreement</h2>",
        cells_table(["", *judged.names], _matrix_rows(judged)),
    ]
    try:
        png = pairwise_png(judged.matrix, judged.names, f"pairwise {judged.result.name}")
    except ImportError:
        body.append('<p class="note">The heatmap needs matplotlib: pip install "wkappa[plot]".</p>')
    else:
        encoded = base64.b64encode(png).decode("ascii")
        body.append(f'<img alt="pairwise heatmap" src="data:image/png;base64,{encoded}">')
    bands = band_source(judged.result.coefficient)
    bands_cited = ["landis1977"] if bands == "Landis & Koch" else []
    body.append(references_html([*cited, "byrt1993", *bands_cited]))  # byrt1993: base rates
    page = html_page(r.name, f"LLM judge / candidate vs panel: {r.name}", body, args)
    write_text(path, page, "--report")
