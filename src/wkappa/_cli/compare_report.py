"""The numbers of ``wkappa compare`` as its text table and its HTML report (``--report``)
show them: the two kappas, their difference, its paired-bootstrap interval and p-value (the
same digits in both), and the report's page with the methods sentence."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._stats import bound_name, level_percent
from .methods import compare_methods
from .output import (
    RowCount,
    bootstrap_pvalue,
    categories_line,
    format_bound,
    format_count,
    format_interval,
    format_number,
    sided_method,
    weights_text,
)
from .provenance import Provenance, methods_html, references_html, resampling_words
from .report import cells_table, escape, headline_html, html_page
from .written import write_text

__all__ = ["Compared", "compare_rows", "write_compare_report"]


@dataclass(frozen=True)
class Compared:
    """What ``wkappa compare`` found: the file's name, its three columns, the rows read and
    used, the categories of both kappas, the paired result and its interval at ``--ci``."""

    name: str
    true: str
    pred_a: str
    pred_b: str
    rows: RowCount
    labels: Sequence[Any]
    result: Any  # PairedKappaResult
    ci: Any  # its ConfidenceInterval

    @property
    def bootstrap(self) -> str:
        """Which bootstrap: of the items, or of whole clusters (``--cluster``)."""
        cluster = "" if self.result.n_clusters is None else "cluster "
        return f"paired {cluster}bootstrap"

    def pvalue(self) -> tuple[str, str]:
        """The p-value as the table writes it and its note (at the smallest p-value the
        resamples show, the bound ``<= x`` and what sets it)."""
        result = self.result
        units = result.n if result.n_clusters is None else result.n_clusters
        return bootstrap_pvalue(
            result.pvalue, result.n_resamples, units, result.alternative, result.n_clusters
        )


def compare_rows(compared: Compared, report: bool = False) -> list[list[str]]:
    """The rows (label, value, note) of the text output: both kappas, A - B, its interval
    and p; in the ``report``, a one-sided interval named and written as its bound alone."""
    result, ci = compared.result, compared.ci
    alternative = result.alternative
    level, interval = f"{level_percent(ci.confidence_level)} CI", format_interval(ci.low, ci.high)
    if report:
        level = bound_name(ci.confidence_level, alternative, short=True)
        interval = format_bound(ci.low, ci.high, alternative)
    sided = "" if alternative == "two-sided" else f", {alternative}"
    method = f"{compared.bootstrap}, {result.n_resamples:,} resamples"
    return [
        [f"A = {compared.pred_a}", format_number(result.statistic_a), "kappa"],
        [f"B = {compared.pred_b}", format_number(result.statistic_b), "kappa"],
        ["A - B", format_number(result.difference), ""],
        [f"{level} of A - B", interval, sided_method(method, alternative)],
        [f"p-value (H0: A = B{sided})", *compared.pvalue()],
    ]


def _headline(compared: Compared, args: argparse.Namespace) -> str:
    result, ci = compared.result, compared.ci
    p_text, p_note = compared.pvalue()
    units = f"K = {len(compared.labels)}, {weights_text(result.weights)}"
    if result.n_clusters is not None:
        units = f"{result.n_clusters:,} clusters of {args.cluster}; {units}"
    resamples = resampling_words(result.n_resamples, getattr(args, "seed", None))
    return headline_html(
        [
            ("kappa of A", format_number(result.statistic_a), compared.pred_a),
            ("kappa of B", format_number(result.statistic_b), compared.pred_b),
            ("A - B", format_number(result.difference), "difference of the kappas"),
            (
                f"{bound_name(ci.confidence_level, result.alternative, short=True)} of A - B",
                format_bound(ci.low, ci.high, result.alternative),
                f"{compared.bootstrap}, {resamples}",
            ),
            ("p-value", p_text, p_note or f"H0: A = B, {result.alternative}"),
            ("n", format_count(result.n), units),
        ]
    )


def write_compare_report(path: str, compared: Compared, args: argparse.Namespace) -> None:
    """Write the HTML report of a ``compare`` run to ``path``: both kappas, their difference
    with its interval and p-value, the methods sentence to paste, the references, the run's
    warnings and the command line (``args``: the run's options)."""
    provenance = Provenance.of(args)
    sentence, cited = compare_methods(compared, args, provenance)
    result = compared.result
    clusters = (
        []
        if result.n_clusters is None
        else [
            f'<p class="meta">clusters <b>{escape(args.cluster)}</b> (G = '
            f"{result.n_clusters:,}), resampled whole</p>"
        ]
    )
    body = [
        f'<p class="meta">truth <b>{escape(compared.true)}</b> &middot; A <b>'
        f"{escape(compared.pred_a)}</b> &middot; B <b>{escape(compared.pred_b)}</b> &middot; "
        f"{escape(weights_text(result.weights))} &middot; made by "
        f"{escape(provenance.software)}, {escape(provenance.stamp)}</p>",
        f'<p class="meta">{escape(categories_line(compared.labels))}</p>',
        f'<p class="meta rows">file rows: {escape(compared.rows.text())}</p>',
        *clusters,
        _headline(compared, args),
        methods_html(sentence),
        "<h2>Two predictions against one truth</h2>",
        cells_table(["", "value", ""], compare_rows(compared, report=True)),
        '<p class="note">kappa = 1 - sum(W*O) / sum(W*E) of each prediction against the truth, '
        "on the same items and categories; the interval is the expanded percentile interval "
        "of the bootstrap differences A - B, and the p-value inverts it.</p>",
        references_html(cited),
    ]
    heading = f"Paired comparison of two predictions: {compared.name}"
    write_text(path, html_page(compared.name, heading, body, args), "--report")
