"""The numbers of ``wkappa thresholds`` as its text output and its HTML report (``--report``)
show them: the cut points between grades, the kappa they reach and how the optimum was found
(the same digits in both), and the report's page with the methods sentence."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import numpy as np

from .labels import label_text
from .methods import thresholds_methods
from .output import (
    ON_A_THRESHOLD,
    THRESHOLD_KAPPA_DECIMALS,
    RowCount,
    categories_line,
    format_count,
    format_number,
    weights_text,
)
from .provenance import Provenance, methods_html, references_html
from .report import cells_table, escape, headline_html, html_page, tables_html
from .written import write_text

__all__ = [
    "THRESHOLD_HEADER",
    "Fitted",
    "graded_result",
    "optimum_text",
    "threshold_rows",
    "write_thresholds_report",
]

# The columns of threshold_rows.
THRESHOLD_HEADER = ("between grades", "threshold")


@dataclass(frozen=True)
class Fitted:
    """What ``wkappa thresholds`` found: the file's name, the rows read and used, the fit
    and the table of the truth against the grades it gives (:func:`graded_result`)."""

    name: str
    rows: RowCount
    result: Any  # ThresholdResult
    graded: Any  # KappaResult


def graded_result(fit: Any, truth: Any, scores: np.ndarray, counts: np.ndarray) -> Any:
    """The KappaResult of the truth against the grades ``fit`` gives the scores, from the
    distinct (truth, score) rows the fit used and their ``counts``: its table is the one
    whose kappa the fit maximised."""
    from .._core import confusion_table
    from .._stats import kappa_test_from_table

    labels = list(fit.labels)
    grades = fit.predict(scores)
    table = confusion_table(truth, grades, labels=labels, sample_weight=counts)
    whole = np.rint(table).astype(np.int64)  # sums of row counts: whole numbers
    return kappa_test_from_table(whole, weights=fit.weights, labels=labels)


def threshold_rows(result: Any) -> list[list[str]]:
    """One row per cut point: the two grades it separates and the threshold, in its shortest
    spelling that reads back as the same float (a score equal to the printed number gets the
    grade the fit gives it; six digits could print 1.7091 for 1.7090999999999998)."""
    labels = [label_text(v) for v in result.labels]
    return [
        [f"{labels[i]} | {labels[i + 1]}", repr(float(t))] for i, t in enumerate(result.thresholds)
    ]


def optimum_text(result: Any) -> str:
    """How far the optimum is proved, and in how many Dinkelbach iterations."""
    proof = "proven optimal" if result.exact else "optimal up to float rounding"
    n = result.n_iter
    return f"{proof}, {n} Dinkelbach iteration{'' if n == 1 else 's'}"


def write_thresholds_report(path: str, fitted: Fitted, args: argparse.Namespace) -> None:
    """Write the HTML report of a ``thresholds`` run to ``path``: the cut points, the kappa
    they reach, what was optimised and how, the methods sentence to paste, the references,
    the run's warnings and the command line (``args``: the run's options)."""
    provenance = Provenance.of(args)
    sentence, cited = thresholds_methods(fitted, args, provenance)
    result = fitted.result
    body = [
        f'<p class="meta">truth <b>{escape(args.true)}</b> &middot; score <b>'
        f"{escape(args.score)}</b> &middot; {escape(weights_text(result.weights))} &middot; "
        f"made by {escape(provenance.software)}, {escape(provenance.stamp)}</p>",
        f'<p class="meta">{escape(categories_line(result.labels, "grades"))}</p>',
        f'<p class="meta rows">file rows: {escape(fitted.rows.text())}</p>',
        headline_html(
            [
                (
                    "kappa reached",
                    format_number(result.statistic, THRESHOLD_KAPPA_DECIMALS),
                    weights_text(result.weights),
                ),
                ("thresholds", f"{len(result.thresholds)}", f"K = {len(result.labels)} grades"),
                ("optimum", "global", optimum_text(result)),
                ("n", format_count(fitted.rows.used), "items the thresholds were fitted on"),
            ]
        ),
        methods_html(sentence),
        "<h2>Thresholds</h2>",
        cells_table(THRESHOLD_HEADER, threshold_rows(result)),
        f'<p class="note">{escape(ON_A_THRESHOLD.capitalize())}; equal thresholds leave the '
        "grade between them empty. The kappa is that of the items the thresholds were fitted "
        "on: the largest any cut points reach there, so higher than the kappa to expect on new "
        "data; report kappa on held-out data (--apply). If these scores are not out-of-fold "
        "predictions, fit the thresholds on out-of-fold ones: a model's scores of its own "
        "training rows flatter them more.</p>",
        "<h2>Truth against the grades</h2>",
        f'<p class="note">The table whose kappa the thresholds maximise: each item\'s truth '
        f"({escape(args.true)}) against the grade its score ({escape(args.score)}) gets; "
        "kappa = 1 - sum(W*O) / sum(W*E) of this table = "
        f"{format_number(fitted.graded.statistic, THRESHOLD_KAPPA_DECIMALS)}.</p>",
        tables_html(fitted.graded, "the graded scores", args.true, f"grade from {args.score}"),
        references_html(cited),
    ]
    heading = f"Kappa-optimal thresholds: {fitted.name}"
    write_text(path, html_page(fitted.name, heading, body, args), "--report")
