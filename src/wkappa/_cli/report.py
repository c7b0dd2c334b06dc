"""``wkappa score --report out.html`` and ``wkappa agree --report out.html``: one
self-contained HTML file; the page, tables and headline the other commands' reports are built
with (:func:`html_page`, :func:`cells_table`, :func:`headline_html`).

Inline CSS, the numbers as HTML tables and the heatmaps of :meth:`KappaResult.plot` as base64
PNG ``data:`` URIs: the file opens offline, can be mailed, and needs no other file. A tiny
inline script records, once the page has loaded, each image's natural width in
``data-loaded-widths`` on ``<body>`` and whether the page is wider than the window
(``data-overflow``: a wide table scrolls inside itself instead), for the browser test.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import import_optional
from .._stats import bound_name, p_phrase, statistic_text
from .labels import label_text
from .methods import (
    agreement_methods,
    agreement_table_references,
    pairwise_weights,
    score_methods,
    weights_label,
)
from .options import image_format
from .output import (
    TABLE_INTERVALS,
    RowCount,
    band,
    categories_line,
    format_bound,
    format_count,
    format_df,
    format_number,
    format_pvalue,
    infinite_statistic_note,
    null_hypothesis,
    weights_text,
    whole_counts,
)
from .provenance import Provenance, methods_html, references_html, resampling_words
from .score_output import Scored, ScoreRun, group_rows, statistic_name, summary_lines
from .written import write_bytes, write_text

__all__ = [
    "MAX_GROUP_SECTIONS",
    "Coefficient",
    "cells_table",
    "escape",
    "headline_html",
    "heatmap_png",
    "heatmap_range",
    "html_page",
    "pairwise_png",
    "save_pairwise_plot",
    "save_plot",
    "tables_html",
    "write_agreement_report",
    "write_report",
]

# Each group section draws a figure (about a second); past this many, the table suffices.
MAX_GROUP_SECTIONS = 12

_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330;
       max-width: 1100px; margin: 2em auto; padding: 0 1.2em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 2em; }
.meta { color: #5a6270; margin-top: 0; }
.headline { display: flex; gap: 1.8em; flex-wrap: wrap; background: #f3f6fb;
            border: 1px solid #d8e0ec; border-radius: 8px; padding: 1em 1.4em; }
.headline div { min-width: 8em; } .headline .value { font-size: 1.6em; font-weight: 600; }
.headline .label { color: #5a6270; font-size: 0.85em; text-transform: uppercase; }
table { border-collapse: collapse; margin: 0.6em 0; font-variant-numeric: tabular-nums;
        display: block; max-width: 100%; overflow-x: auto; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #e3e7ee; text-align: right; }
th:first-child, td:first-child { text-align: left; } th { background: #f3f6fb; }
img { max-width: 100%; height: auto; border: 1px solid #e3e7ee; border-radius: 4px; }
.note { color: #5a6270; font-size: 0.9em; }
.pair { display: flex; gap: 3em; flex-wrap: wrap; } h3 { font-size: 1em; margin-bottom: 0; }
.pair > div { min-width: 0; max-width: 100%; }
table.groups td:last-child { text-align: left; }
.methods { background: #fbfaf3; border: 1px solid #e6e0c4; border-radius: 6px;
           padding: 0.8em 1.1em; }
pre.command { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f6fb;
              border: 1px solid #d8e0ec; border-radius: 6px; padding: 0.6em 0.9em;
              font-size: 0.9em; }
pre.command .word { white-space: nowrap; }
.references { font-size: 0.9em; padding-left: 1.4em; } .references li { margin: 0.2em 0; }
.warnings { background: #fdf4ec; border: 1px solid #ecc9a8; border-radius: 6px;
            padding: 0.2em 1.1em; margin: 1em 0; }
.warnings h2 { margin-top: 0.6em; } .warnings li { margin: 0.3em 0; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10.5pt; color: #000; }
  h2, h3 { break-after: avoid; }
  table, img, .headline, .methods, pre, .warnings { break-inside: avoid; }
  .headline, th, .methods, pre.command, .warnings { background: none; }
  img { max-width: 100%; border: none; }
  table { display: table; overflow: visible; font-size: 9pt; }
}
"""

_SCRIPT = """
window.addEventListener("load", function () {
  var widths = Array.prototype.map.call(document.images, function (im) {
    return im.naturalWidth;
  });
  document.body.setAttribute("data-loaded-widths", widths.join(","));
  var page = document.documentElement;
  document.body.setAttribute("data-overflow", String(page.scrollWidth > page.clientWidth));
});
"""


def _figure_of(axes: Any) -> Any:
    first = np.ravel(np.asarray(axes, dtype=object))[0]
    return first.figure


def heatmap_png(
    result: Any, rater_names: tuple[str, str] | None = None, file_format: str = "png"
) -> bytes:
    """The PNG of ``result.plot()`` (matplotlib, Agg backend, no display needed); the axes
    are labelled with ``rater_names`` (the file's column names)."""
    matplotlib = import_optional("matplotlib", "plot")
    matplotlib.use("Agg", force=False)
    pyplot = import_optional("matplotlib.pyplot", "plot")
    figure = _figure_of(result.plot(rater_names=rater_names))
    try:
        buffer = io.BytesIO()
        figure.savefig(buffer, format=file_format, dpi=96, bbox_inches="tight")
        return buffer.getvalue()
    finally:
        pyplot.close(figure)


def save_plot(result: Any, path: str, rater_names: tuple[str, str] | None = None) -> None:
    """``--plot out.png`` (or .pdf, .svg): the heatmaps of O, E and W*(O-E)."""
    write_bytes(path, heatmap_png(result, rater_names, image_format(path)), "--plot")


def _e(value: Any) -> str:
    return html.escape(str(value))


def _matrix_html(table: np.ndarray, labels: Sequence[Any], integer: bool) -> str:
    names = [label_text(v) for v in labels]

    def cell(value: float) -> str:
        return format_count(value) if integer else f"{value:,.2f}"

    head = "".join(f"<th>{_e(n)}</th>" for n in names)
    rows = [
        f"<tr><th>{_e(names[i])}</th>{''.join(f'<td>{cell(v)}</td>' for v in table[i])}"
        f"<td>{cell(table[i].sum())}</td></tr>"
        for i in range(table.shape[0])
    ]
    totals = "".join(f"<td>{cell(v)}</td>" for v in table.sum(axis=0))
    rows.append(f"<tr><th>total</th>{totals}<td>{cell(table.sum())}</td></tr>")
    return f"<table><tr><th></th>{head}<th>total</th></tr>{''.join(rows)}</table>"


def _headline(scored: Scored, args: argparse.Namespace) -> str:
    result = scored.result
    level = bound_name(scored.level, result.alternative, short=True)
    test, p = statistic_name(result), p_phrase(result.pvalue)
    if result.n_clusters is not None:  # the Wald test on t with G - 1 df
        p = f"{p}, on t({format_df(result.n_clusters - 1)})"
    items = [
        ("kappa", format_number(result.statistic), band(result.statistic, "{} agreement")),
        (
            level,
            format_bound(scored.low, scored.high, result.alternative),
            _method_note(scored, args),
        ),
        ("standard error", format_number(result.standard_error), _robust(result)),
        (test, statistic_text(result.test_statistic), p),
        ("n", format_count(result.n), f"K = {len(result.labels)}, {weights_text(result.weights)}"),
    ]
    return headline_html(items)


def _method_note(scored: Any, args: argparse.Namespace) -> str:
    """The interval's method under it; for a bootstrap, the resamples and the seed."""
    if scored.method in TABLE_INTERVALS or not getattr(args, "bootstrap", None):
        return str(scored.method)
    cluster = "cluster " if getattr(args, "cluster", None) else ""
    resamples = resampling_words(args.bootstrap, getattr(args, "seed", None))
    return f"{cluster}bootstrap ({scored.method}), {resamples}"


def headline_html(items: Sequence[tuple[str, str, str]]) -> str:
    """The boxed headline: (label, value, note) per cell (escaped)."""
    cells = "".join(
        f'<div><div class="label">{_e(a)}</div><div class="value">{_e(b)}</div>'
        f'<div class="note">{_e(c)}</div></div>'
        for a, b, c in items
    )
    return f'<div class="headline">{cells}</div>'


def _robust(result: Any) -> str:
    """What the standard error is, with ``--cluster``: cluster-robust over G clusters."""
    clusters = result.n_clusters
    return "" if clusters is None else f"cluster-robust, {format_count(clusters)} clusters"


def _infinite_note(results: Sequence[Any]) -> list[str]:
    """The line that says why a test statistic shown is ``∞`` (the first of ``results`` with
    one), as the text output prints it under its table; none when every one is finite."""
    notes = [infinite_statistic_note(statistic_name(r), r.test_statistic) for r in results]
    return [f'<p class="note">{_e(note)}</p>' for note in notes if note][:1]


def _section(title: str, scored: Scored, true: str, pred: str, args: argparse.Namespace) -> str:
    return "\n".join(
        [
            f"<h2>{_e(title)}</h2>",
            _headline(scored, args),
            *_infinite_note([scored.result]),
            tables_html(scored.result, title, true, pred),
        ]
    )


def tables_html(result: Any, title: str, true: str, pred: str) -> str:
    """The observed table O and the expected table E of a KappaResult side by side (rows:
    ``true``, columns: ``pred``), then the heatmaps of O, E and W*(O-E) as an inline PNG
    (with matplotlib; a note saying how to get them without it)."""
    table = np.asarray(result.table)
    integer = whole_counts(table)
    if _has_matplotlib():
        png = base64.b64encode(heatmap_png(result, (true, pred))).decode("ascii")
        image = (
            f'<img alt="heatmaps of O, E and W*(O-E) for {_e(title)}" '
            f'src="data:image/png;base64,{png}">'
        )
    else:  # the `plot` extra only adds the heatmaps; the numbers are all here without it
        image = '<p class="note">Heatmaps need matplotlib: pip install "wkappa[plot]".</p>'
    return "\n".join(
        [
            '<div class="pair"><div>',
            "<h3>Observed O</h3>",
            f'<p class="note">rows: {_e(true)}, columns: {_e(pred)}</p>',
            _matrix_html(table, result.labels, integer),
            "</div><div>",
            "<h3>Expected E</h3>",
            '<p class="note">outer(row totals, column totals) / n</p>',
            _matrix_html(np.asarray(result.expected_table), result.labels, False),
            "</div></div>",
            image,
        ]
    )


def _has_matplotlib() -> bool:
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def _group_table(by: str, groups: Sequence[tuple[Any, Scored]], overall: Scored) -> str:
    alternative = overall.result.alternative
    level = bound_name(overall.level, alternative, short=True)
    head = "".join(
        f"<th>{_e(h)}</th>"
        for h in (by, "n", "kappa", "SE", level, statistic_name(overall.result), "p",
                  "interpretation")
    )  # fmt: skip
    rows = [
        "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in cells) + "</tr>"
        for cells in group_rows([*groups, ("(all)", overall)], alternative)
    ]
    return f'<table class="groups"><tr>{head}</tr>{"".join(rows)}</table>'


def write_report(path: str, run: ScoreRun, args: argparse.Namespace) -> None:
    """Write the HTML report of a ``score`` run to ``path`` (``args``: the run's options, for
    the command line, the seed and the methods sentence)."""
    provenance = Provenance.of(args)
    sentence, cited = score_methods(run, args, provenance)
    name, true, pred, overall, groups = (
        run.name, run.true, run.pred, run.overall, run.groups
    )  # fmt: skip
    by = None if run.by is None else run.by
    result = overall.result
    parts = [
        *_head(name, f"Weighted kappa: {name}"),
        f'<p class="meta">rows (rater A) <b>{_e(true)}</b>, columns (rater B) <b>{_e(pred)}</b>'
        f" &middot; {_e(weights_text(result.weights))} &middot; {_made(provenance)}</p>",
        f'<p class="meta">{_e(categories_line(result.labels))}</p>',
        *(
            [f'<p class="meta rows">file rows: {_e(run.rows.text())}</p>']
            if run.rows is not None
            else []
        ),
        methods_html(sentence),
        _section("All rows", overall, true, pred, args),
    ]
    if by is not None:
        parts += [f"<h2>By {_e(by)}</h2>", _group_table(by, groups, overall)]
        parts += _infinite_note([scored.result for _, scored in groups])
        # the pooled kappa and the test of equal kappas (or why not), as the console prints them
        summary = summary_lines(run, "report")
        parts += [f'<p class="across">{_e(line.strip())}</p>' for line in summary]
        shown = groups[:MAX_GROUP_SECTIONS]
        parts += [_section(f"{by} = {label_text(v)}", s, true, pred, args) for v, s in shown]
        if len(groups) > len(shown):
            parts.append(
                f'<p class="note">Heatmaps of the first {len(shown)} of {len(groups)} groups '
                "only; the table above has them all.</p>"
            )
    inference = (
        "standard error of Fleiss, Cohen &amp; Everitt (1969); z and p test kappa = "
        f"{result.kappa0:g} with the standard error under the null hypothesis"
        if run.cluster is None
        else f"standard error cluster-robust over the clusters of {_e(run.cluster)} (the "
        f"delta-method sandwich); t and p test kappa = {result.kappa0:g} with it (the Wald "
        "test), on t with G - 1 df"
    )
    parts += [
        f'<p class="note">kappa = 1 - sum(W*O) / sum(W*E); {inference}; interpretation '
        "after Landis &amp; Koch (1977). Heatmaps: O, E and the agreement lost per cell, "
        "W*(O-E)/n.</p>",
        references_html([*cited, "landis1977"]),
        provenance.html(),
        *_tail(),
    ]
    write_text(path, _page(parts, args), "--report")


def _made(provenance: Provenance) -> str:
    return f"made by {_e(provenance.software)}, {_e(provenance.stamp)}"


def _head(name: str, heading: str) -> list[str]:
    """The page up to its first heading (inline CSS)."""
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>wkappa report: {_e(name)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(heading)}</h1>",
    ]


def _page(parts: Sequence[str], args: argparse.Namespace) -> str:
    """The page of ``parts`` (from :func:`_head` on) with the run's warnings, as stderr showed
    them (``args.warned``, kept by the command line's warning hook), in a "Warnings" section
    right under the heading and its lines of what was compared, and its notes
    (``args.noted``, kept by :func:`options.note`) in a "Notes" section after it; no section
    without any."""
    warned = getattr(args, "warned", None) or []
    noted = getattr(args, "noted", None) or []
    parts = list(parts)
    at = next(i for i, part in enumerate(parts) if part.startswith("<h1>")) + 1
    while at < len(parts) and parts[at].startswith('<p class="meta'):
        at += 1
    # The notes (caveats on a number, such as an interval past kappa's bounds), then the
    # warnings above them: each section only when the run printed any.
    for title, lines in (("Notes", noted), ("Warnings", warned)):
        if lines:
            items = "".join(f"<li>{_e(text)}</li>" for text in lines)
            parts.insert(
                at,
                f'<section class="warnings"><h2>{title}</h2><p class="note">As the run '
                f"printed them on stderr:</p><ul>{items}</ul></section>",
            )
    return "\n".join(parts)


def _tail() -> list[str]:
    return [f"<script>{_SCRIPT}</script>", "</body></html>"]


def _cells_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


# ----------------------------------------------------------------- several raters (agree)


@dataclass(frozen=True)
class Coefficient:
    """One coefficient of an ``agree`` run with the interval asked for; ``error`` when it
    could not be computed on these data (then ``result`` is None)."""

    result: Any  # AgreementResult or None
    low: float
    high: float
    level: float
    method: str
    error: str = ""


def heatmap_range(matrix: np.ndarray, minimum_span: float = 0.1) -> tuple[float, float]:
    """The colour range of a pairwise heatmap: the off-diagonal values' range rounded out to
    0.05, at least ``minimum_span`` wide, within [-1, 1]."""
    values = np.asarray(matrix, dtype=np.float64)
    off = values[~np.eye(values.shape[0], dtype=bool)]
    off = off[np.isfinite(off)]
    if off.size == 0:
        return -1.0, 1.0
    low, high = math.floor(off.min() * 20) / 20, math.ceil(off.max() * 20) / 20
    if high - low < minimum_span:
        centre = (high + low) / 2
        low, high = centre - minimum_span / 2, centre + minimum_span / 2
    if high > 1.0:
        low, high = low - (high - 1.0), 1.0
    return max(low, -1.0), min(high, 1.0)


def pairwise_png(
    matrix: np.ndarray, raters: Sequence[str], title: str, file_format: str = "png"
) -> bytes:
    """A heatmap of the R x R pairwise two-rater kappas (matplotlib, Agg backend)."""
    matplotlib = import_optional("matplotlib", "plot")
    matplotlib.use("Agg", force=False)
    pyplot = import_optional("matplotlib.pyplot", "plot")
    size = 1.2 + 0.55 * len(raters)
    figure, axes = pyplot.subplots(figsize=(size + 1.2, size))
    try:
        # The colour scale spans the pairs' own range (the diagonal, 1 by definition, left
        # out), at least 0.1 wide: kappas of 0.80-0.87 must not look identical on -1..1.
        shown = np.ma.masked_invalid(np.where(np.eye(len(raters), dtype=bool), np.nan, matrix))
        low, high = heatmap_range(matrix)
        image = axes.imshow(shown, vmin=low, vmax=high, cmap="viridis")
        axes.set_xticks(range(len(raters)), [str(r) for r in raters], rotation=45, ha="right")
        axes.set_yticks(range(len(raters)), [str(r) for r in raters])
        if len(raters) <= 12:
            middle = (low + high) / 2
            for g in range(len(raters)):
                for h in range(len(raters)):
                    value = matrix[g, h]
                    text = "undef." if np.isnan(value) else f"{value:.2f}"
                    colour = "black" if g == h or np.nan_to_num(value) > middle else "white"
                    axes.text(h, g, text, ha="center", va="center", fontsize=8, color=colour)
        axes.set_title(title)
        figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
        buffer = io.BytesIO()
        figure.savefig(buffer, format=file_format, dpi=96, bbox_inches="tight")
        return buffer.getvalue()
    finally:
        pyplot.close(figure)


def save_pairwise_plot(matrix: np.ndarray, raters: Sequence[str], path: str, title: str) -> None:
    """``agree --plot out.png`` (or .pdf, .svg): the heatmap of the pairwise two-rater
    kappas."""
    write_bytes(path, pairwise_png(matrix, raters, title, image_format(path)), "--plot")


def _agreement_headline(chosen: Coefficient, args: argparse.Namespace) -> str:
    result = chosen.result
    cluster = getattr(args, "cluster", None)
    error = "Gwet's linearisation" if cluster is None else f"cluster-robust ({cluster})"
    level = bound_name(chosen.level, result.alternative, short=True)
    items = [
        (result.name, format_number(result.statistic), weights_label(result)),
        (
            level,
            format_bound(chosen.low, chosen.high, result.alternative),
            _method_note(chosen, args),
        ),
        ("standard error", format_number(result.standard_error), error),
        ("p-value", format_pvalue(result.pvalue), null_hypothesis("coefficient", result)),
        (
            "items",
            f"{result.n_items:,}",
            f"{result.n_raters} raters, {result.n_ratings:,} ratings, K = {len(result.labels)}",
        ),
    ]
    return headline_html(items)


def _coefficient_rows(coefficients: Sequence[Coefficient], weights: bool) -> list[list[str]]:
    """The table of every coefficient; ``weights``: a column with each one's weights (with
    ``--level``, alpha's metric differs from the others' weights)."""
    rows = []
    for c in coefficients:
        r = c.result
        if r is None:
            rows.append([c.method, *[""] * (6 if weights else 5), c.error])
            continue
        rows.append(
            [
                r.name,
                *([weights_label(r)] if weights else []),
                format_number(r.statistic),
                format_number(r.standard_error),
                format_bound(c.low, c.high, r.alternative),
                format_pvalue(r.pvalue),
                format_number(r.percent_agreement),
                format_number(r.chance_agreement),
            ]
        )
    return rows


def _levels_note(result: Any) -> list[str]:
    """With ``--level``: why the other coefficients of the table are unweighted (the
    nominal metric is unweighted too)."""
    if result.level in (None, "nominal"):
        return []
    return [
        f'<p class="note">Krippendorff\'s alpha with his {_e(result.level)} metric (--level '
        f"{_e(result.level)}); the other coefficients unweighted, as --level sets alpha's "
        "metric only. Their weighted versions take --weights instead of --level (Gwet's "
        "weights: his ordinal weights are not Krippendorff's ordinal metric).</p>"
    ]


def write_agreement_report(
    path: str,
    name: str,
    raters: Sequence[str],
    chosen: Coefficient,
    coefficients: Sequence[Coefficient],
    rows: RowCount,
    args: argparse.Namespace,
) -> None:
    """Write the HTML report of an ``agree`` run to ``path``: the chosen coefficient, every
    coefficient on the same ratings, the per-category coefficients, the pairwise two-rater
    kappas (with their heatmap when matplotlib is installed) and leave-one-rater-out;
    ``args``: the run's options (the command line, the seed, the methods sentence)."""
    result = chosen.result
    provenance = Provenance.of(args)
    sentence, cited = agreement_methods(chosen, list(map(str, raters)), rows, args, provenance)
    level = bound_name(chosen.level, result.alternative, short=True)
    parts = [
        *_head(name, f"Agreement of several raters: {name}"),
        f'<p class="meta">raters <b>{_e(", ".join(map(str, raters)))}</b> &middot; '
        f"{_e(weights_label(result))} &middot; {_made(provenance)}</p>",
        f'<p class="meta">{_e(categories_line(result.labels))}</p>',
        f'<p class="meta rows">file rows: {_e(rows.text())}</p>',
        _agreement_headline(chosen, args),
        methods_html(sentence),
        "<h2>Every coefficient on these ratings</h2>",
        *_levels_note(result),
        _cells_table(
            ["coefficient", *(["weights"] if result.level else []), "value", "SE", level, "p",
             "pa", "pe"],
            _coefficient_rows(coefficients, result.level is not None),
        ),
    ]  # fmt: skip
    categories = result.per_category()
    parts += [
        "<h2>Per category</h2>",
        f'<p class="note">{_e(result.name)} (unweighted) of each category against all the '
        "others.</p>",
        _cells_table(
            ["category", result.name],
            [[label_text(k), format_number(v)] for k, v in categories.items()],
        ),
    ]
    matrix = result.pairwise()
    names = [str(r) for r in raters]
    upper = matrix[np.triu_indices(len(names), 1)]
    light = float(np.nanmean(upper)) if np.isfinite(upper).any() else float("nan")
    parts += [
        "<h2>Pairs of raters</h2>",
        f'<p class="note">{html.escape(pairwise_weights(result), quote=False)} of each pair '
        f"over the items both rated; Light's kappa (their mean) = {format_number(light)}.</p>",
        _cells_table(
            ["", *names],
            [[n, *(format_number(v) for v in row)] for n, row in zip(names, matrix, strict=True)],
        ),
    ]
    if _has_matplotlib():
        png = pairwise_png(matrix, names, "pairwise kappa")
        parts.append(
            '<img alt="heatmap of the pairwise kappas" '
            f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'
        )
    else:
        parts.append(
            '<p class="note">The heatmap needs matplotlib: pip install "wkappa[plot]".</p>'
        )
    without = result.leave_one_rater_out()
    # t on G - 1 df over the clusters of --cluster, n - 1 over the items
    df = "n - 1" if getattr(args, "cluster", None) is None else "G - 1"
    parts += [
        "<h2>Leave one rater out</h2>",
        f'<p class="note">{_e(result.name)} without each rater; a rise means that rater agrees '
        "less than the others.</p>",
        _cells_table(
            ["rater left out", result.name, "change"],
            [
                [n, format_number(v), format_number(v - result.statistic)]
                for n, v in zip(names, without, strict=True)
            ],
        ),
        '<p class="note">Coefficients (pa - pe) / (1 - pe) with Gwet\'s (2014) definitions of pa '
        "and pe and his linearised standard errors (as R's irrCAC); the asymptotic interval is "
        f"estimate &plusmn; t({df}) &times; SE, its upper end capped at 1. In the table of every "
        f"coefficient, each interval is the one asked for ({_e(chosen.method)}).</p>",
        references_html(
            [*cited, *agreement_table_references(result, (c.result for c in coefficients))]
        ),
        provenance.html(),
        *_tail(),
    ]
    write_text(path, _page(parts, args), "--report")


# ----------------------------------------------------------------- shared by other commands


def html_page(name: str, heading: str, body: Sequence[str], args: argparse.Namespace) -> str:
    """A self-contained report page (the inline CSS and script of the others) with the run's
    warnings under its heading (when it had any), ending with the command line of the run
    (``args``), the software's version and the date."""
    return _page([*_head(name, heading), *body, Provenance.of(args).html(), *_tail()], args)


def cells_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table of text cells (escaped)."""
    return _cells_table(header, rows)


def escape(value: Any) -> str:
    """HTML-escaped text."""
    return _e(value)
