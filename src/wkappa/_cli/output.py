"""Output of the command line shared by every command: aligned text tables, numbers and
intervals in text, row counts, JSON documents with a schema, CSV."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._stats import (
    DECIMALS,
    bound_text,
    df_text,
    interpretation,
    interval_text,
    level_percent,
    number_text,
    one_sided,
    pvalue_text,
    reliability_band,
    statistic_text,
)
from .json_text import json_text
from .labels import label_text

# The intervals computed from the table alone; the others are bootstrap methods.
TABLE_INTERVALS = ("asymptotic", "score", "fisher-z")

# The decimals of the kappa that fitted thresholds reach, in the text output and the report.
THRESHOLD_KAPPA_DECIMALS = 6

# How a score on a threshold is graded (the thresholds' text output, report and methods).
ON_A_THRESHOLD = "a score equal to a threshold gets the lower grade"

__all__ = [
    "ON_A_THRESHOLD",
    "ROW_FIELDS",
    "TABLE_INTERVALS",
    "THRESHOLD_KAPPA_DECIMALS",
    "RowCount",
    "band",
    "band_source",
    "blank_lines_text",
    "bootstrap_pvalue",
    "categories_line",
    "ci_label",
    "coefficient_band",
    "csv_field",
    "format_bound",
    "format_interval",
    "format_number",
    "format_pvalue",
    "infinite_statistic_note",
    "labels_field",
    "null_hypothesis",
    "render_rows",
    "render_table",
    "sided_method",
    "to_csv",
    "to_json",
    "weights_text",
    "whole_counts",
]


MISSING_REASON = "a missing rating (--nan-policy omit)"

# The row counts' fields, in this order in JSON and as the last columns of a CSV (before
# ``n_clusters``): the file's rows, the same on every CSV row.
ROW_FIELDS = ("rows_read", "rows_used", "rows_dropped", "dropped_because")


@dataclass(frozen=True)
class RowCount:
    """How many rows a command read, used and dropped, and why (every output states it)."""

    read: int
    dropped: int = 0
    reason: str = MISSING_REASON
    blank: Sequence[int] = ()  # the blank lines skipped, by the rows they would have been

    @property
    def used(self) -> int:
        return self.read - self.dropped

    def text(self) -> str:
        """``300 read, 286 used, 14 dropped: a missing rating (--nan-policy omit)``, then
        ``; 1 blank line skipped (row 7)`` if the file has blank lines (not rows)."""
        if not self.dropped:
            counted = f"{self.read:,} read, all used"
        else:
            counted = f"{self.read:,} read, {self.used:,} used, {self.dropped:,} dropped: "
            counted += self.reason
        return f"{counted}; {blank_lines_text(self.blank)}" if self.blank else counted

    def values(self) -> list[Any]:
        """The values of :data:`ROW_FIELDS` (the reason None when nothing was dropped)."""
        return [self.read, self.used, self.dropped, self.reason if self.dropped else None]

    def to_dict(self) -> dict[str, Any]:
        return dict(zip(ROW_FIELDS, self.values(), strict=True))


def blank_lines_text(rows: Sequence[int]) -> str:
    """What a file's blank lines were: ``1 blank line skipped (row 7)``, by the data rows
    they would have been (the first three named).

    Examples
    --------
    >>> blank_lines_text([7])
    '1 blank line skipped (row 7)'
    >>> blank_lines_text([1, 4, 5, 9])
    '4 blank lines skipped (rows 1, 4, 5, ...)'
    """
    lines = "1 blank line" if len(rows) == 1 else f"{len(rows):,} blank lines"
    shown = ", ".join(str(row) for row in rows[:3]) + (", ..." * (len(rows) > 3))
    return f"{lines} skipped (row{'s' * (len(rows) > 1)} {shown})"


def categories_line(labels: Sequence[Any], noun: str = "categories") -> str:
    """``K = 4 categories: none, mild, moderate, severe`` (the order used); ``K = 1 category``."""
    if len(labels) == 1:
        noun = {"categories": "category", "grades": "grade"}.get(noun, noun)
    return f"K = {len(labels)} {noun}: {', '.join(label_text(v) for v in labels)}"


def to_json(document: dict[str, Any], *, schema: str) -> str:
    """A command's JSON document: ``"schema": schema`` first (``"wkappa.COMMAND/VERSION"``,
    the version raised when a field changes meaning or goes), then ``document``. Strict JSON
    (nan and infinities become null), indented, each list of scalars (a table row, the
    labels, an interval) on one line."""
    return json_text({"schema": schema, **document})


def band(statistic: float, pattern: str) -> str:
    """The Landis & Koch band of a defined ``statistic`` written into ``pattern`` (``"{}
    agreement"``); nothing for an undefined one (it would read "undefined agreement")."""
    return "" if math.isnan(statistic) else pattern.format(interpretation(statistic))


def band_source(coefficient: str) -> str:
    """Whose bands grade a coefficient of several raters: Krippendorff's reliability guideline
    his alpha, Landis & Koch's the chance-corrected coefficients; none (``""``) percent
    agreement, as bands grade agreement beyond chance."""
    if coefficient == "percent":
        return ""
    return "Krippendorff" if coefficient == "krippendorff" else "Landis & Koch"


def coefficient_band(statistic: float, coefficient: str) -> str:
    """The band of a coefficient of several raters after :func:`band_source`; ``""`` where
    it has none or the value is undefined."""
    source = band_source(coefficient)
    if not source or math.isnan(statistic):
        return ""
    return reliability_band(statistic) if source == "Krippendorff" else interpretation(statistic)


def weights_text(weights: str) -> str:
    """``quadratic weights``, ``linear weights``, but ``unweighted`` (not "unweighted
    weights")."""
    return weights if weights == "unweighted" else f"{weights} weights"


def null_hypothesis(name: str, result: Any) -> str:
    """``H0: kappa = 0, two-sided``: the test's null value (``--kappa0``) and alternative."""
    return f"H0: {name} = {result.kappa0:g}, {result.alternative}"


def count_value(n: float) -> int | float:
    """The number of pairs ``n`` for JSON and CSV: an int when whole (a sum of weights may
    not be)."""
    return int(n) if float(n).is_integer() else float(n)


def whole_counts(table: np.ndarray) -> bool:
    """Whether a table holds whole counts, printed as integers: counted pairs, or the sums of
    whole frequency weights (``--weight-col``), which are floats."""
    if table.dtype.kind in "iu":
        return True
    return bool(np.all(np.isfinite(table)) and np.all(table == np.round(table)))


def format_count(n: float) -> str:
    """The number of pairs ``n`` as text: digits with thousands separators, as every count in
    text, never an exponent (1,000,000, 2.5; a sum of weights to six decimals)."""
    value = count_value(n)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6f}".rstrip("0").rstrip(".")


def format_df(df: float) -> str:
    """Degrees of freedom as text: ``t(1499)``, plain digits (APA style), unlike a count
    (:func:`format_count`), which carries thousands separators; the rule of
    :func:`wkappa._stats.df_text`, which the results' ``explain()`` follows too."""
    return df_text(df)


def format_number(value: float, digits: int = DECIMALS) -> str:
    """A float with ``digits`` decimals (by default those of every coefficient, standard
    error, proportion, difference and interval limit in text); ``undefined`` for nan (the rule
    of the results' ``explain()``)."""
    return number_text(value, f".{digits}f")


def infinite_statistic_note(name: str, value: float) -> str | None:
    """The line under an output whose test statistic ``name`` (``z``, ``t``) is infinite,
    saying why; None when it is finite or undefined.

    >>> infinite_statistic_note("t", float("inf"))
    't = ∞: (kappa - kappa0) / SE with a standard error of 0 (as with perfect agreement).'
    >>> infinite_statistic_note("z", 1.5) is None
    True
    """
    if not math.isinf(value):
        return None
    return (
        f"{name} = {statistic_text(value)}: (kappa - kappa0) / SE with a standard error "
        "of 0 (as with perfect agreement)."
    )


def format_interval(
    low: float,
    high: float,
    digits: int = DECIMALS,
    number: Callable[[float, int], str] | None = None,
) -> str:
    """``[low, high]`` with ``digits`` decimals (or as ``number`` formats them); ``undefined``
    when an end is nan."""
    shown = number or format_number
    return interval_text(low, high, lambda value: shown(value, digits))


def format_bound(
    low: float,
    high: float,
    alternative: str,
    digits: int = DECIMALS,
    number: Callable[[float, int], str] | None = None,
) -> str:
    """An interval as reports and methods sentences write it (:func:`wkappa._stats.bound_text`):
    ``[low, high]`` when two-sided, the one-sided interval's bound alone, with ``digits``
    decimals (or as ``number`` formats them)."""
    shown = number or format_number
    return bound_text(low, high, alternative, lambda value: shown(value, digits))


def format_pvalue(value: float) -> str:
    """A p-value in a text table or report: APA style (``0.012``, ``< 0.001``), the rule of
    :func:`wkappa._stats.pvalue_text`; JSON and CSV keep the full value."""
    return pvalue_text(value)


def bootstrap_pvalue(
    value: float, n_resamples: int, units: float, alternative: str, n_clusters: int | None
) -> tuple[str, str]:
    """A bootstrap p-value and its note: at the smallest value ``n_resamples`` differences
    of ``units`` items (or ``n_clusters`` clusters) can show, ``<= floor`` (``< 0.001``
    below 0.001) and what sets that bound (with clusters, what ten times the resamples would
    show where that reads differently: with few clusters the clusters set most of it);
    elsewhere the p-value and no note (``undefined`` for nan: no bound holds where the
    comparison itself is undefined)."""
    from .._stats import smallest_pvalue

    floor = smallest_pvalue(n_resamples, units, alternative)
    if value > floor or math.isnan(value):
        return format_pvalue(value), ""
    shown = pvalue_text(floor, bound=True)
    note = f"at the smallest p-value {n_resamples:,} resamples can show"
    if n_clusters is not None:
        note = (
            f"at the smallest p-value {n_resamples:,} resamples of {format_count(n_clusters)} "
            "clusters can show"
        )
        more = 10 * (n_resamples + 1) - 1
        lower = format_pvalue(smallest_pvalue(more, units, alternative))
        if lower != shown:  # both '< 0.001': the parenthesis would say nothing
            note += f" ({more:,} would show {lower})"
    return shown, note


def render_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    indent: int = 2,
    left: Sequence[int] = (0,),
) -> str:
    """Columns padded to their widest cell; the ``left`` columns left-aligned, others right."""
    return render_rows([header, *rows], indent, left)


def render_rows(rows: Sequence[Sequence[str]], indent: int = 2, left: Sequence[int] = (0,)) -> str:
    """:func:`render_table` without a header: the rows of a summary (label, value, note)."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            str(cell).ljust(w) if i in left else str(cell).rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append(" " * indent + "  ".join(cells).rstrip())
    return "\n".join(lines)


def ci_label(level: float, alternative: str) -> str:
    """The heading of an interval's column: '95% CI', or '95% one-sided CI'."""
    return f"{level_percent(level)} {one_sided(alternative)}CI"


def sided_method(method: str, alternative: str) -> str:
    """An interval's method as the text tables print it beside the interval: after its side
    when one-sided ("one-sided, asymptotic"), so that the interval's label keeps its column."""
    return method if alternative == "two-sided" else f"one-sided, {method}"


def csv_field(value: Any) -> str:
    """One CSV field: a float in full precision (``repr``, read back bit for bit), an
    undefined value (nan, None) as an empty field, which pandas, R's ``read.csv`` and
    spreadsheets read as missing in a numeric column; ints and text as they are."""
    if value is None:
        return ""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return "" if math.isnan(value) else repr(value)
    return str(value)


def labels_field(labels: Sequence[Any]) -> str:
    """The categories in one CSV field, separated by ``|``: a ``|`` or ``\\`` inside a label
    is escaped with a backslash (``a\\|b`` is the one label ``a|b``), so the field splits
    back into the labels; the CSV writer quotes a field with a comma."""
    return "|".join(label_text(v).replace("\\", "\\\\").replace("|", "\\|") for v in labels)


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The CSV document of a command (``--format csv``): the header, then one line per row,
    each field written by :func:`csv_field`; no newline at the end."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([csv_field(value) for value in row] for row in rows)
    return buffer.getvalue().rstrip("\n")
