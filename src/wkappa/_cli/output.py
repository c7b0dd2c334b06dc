"""Output of the command line: aligned text tables, JSON with a stable schema, CSV.

JSON schema of ``wkappa score --format json`` (``"schema": "wkappa.score/1"``); every float is
a number or ``null`` (undefined):

``file``, ``true``, ``pred``, ``weight_column`` (or null), ``omitted_rows``, ``rows_read``,
``rows_used``, ``rows_dropped`` and ``dropped_because`` (or null), then the fields of
one *summary*: ``statistic``, ``standard_error``, ``standard_error_null``, ``zscore``,
``pvalue``, ``kappa0`` (the null value of the test, ``--kappa0``), ``alternative``
(``--alternative``: the side of the test and the interval), ``confidence_interval``
(an object: ``low``, ``high``, ``confidence_level``,
``method``: ``asymptotic``, ``score``, ``fisher-z``, ``percentile`` or ``bca``,
``n_resamples`` and ``n_undefined`` (the bootstrap's; 0 for the others), as in
``wkappa compare`` and the result objects' ``to_dict()``; schema 1 had a ``[low, high]``
list and the level and method beside it), ``n``, ``interpretation``,
``n_categories`` (K), ``labels`` (the K categories in the order used), ``weights``,
``table`` (O, K x K, rows = ``true``) and ``expected_table`` (E);
with ``--by COL``, also ``by`` (the column) and ``groups``: a list of summaries, each with
``group`` (the value), and ``across_groups``: the inverse-variance weighted summary of the
groups with a value, with ``n_missing_left_out`` (the pairs of the ``(missing)`` group, rows
without a ``--by`` value, left out of it and of its test of equal kappas; 0 without one). With
``--cluster COL``, also ``cluster`` (the column) and, in every
summary, ``n_clusters`` (G: the standard error is cluster-robust over them); ``across_groups``
is then left out: it assumes independent pairs.
"""

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
    STATISTIC_DECIMALS,
    KappaResult,
    bound_text,
    interpretation,
    interval_text,
    json_fields,
    json_value,
    level_percent,
    number_text,
    one_sided,
    p_phrase,
    pvalue_text,
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
    "ScoreRun",
    "Scored",
    "band",
    "bootstrap_pvalue",
    "categories_line",
    "ci_label",
    "csv_field",
    "format_bound",
    "format_interval",
    "format_number",
    "format_pvalue",
    "labels_field",
    "null_hypothesis",
    "render_rows",
    "render_table",
    "score_csv",
    "score_json",
    "score_text",
    "sided_method",
    "statistic_column",
    "statistic_name",
    "summary",
    "to_csv",
    "to_json",
    "weights_text",
    "whole_counts",
]

SCHEMA = "wkappa.score/1"


@dataclass(frozen=True)
class Scored:
    """One KappaResult with the interval the user asked for."""

    result: Any  # KappaResult
    low: float
    high: float
    level: float
    method: str
    n_resamples: int = 0  # the bootstrap's (0: an interval from the table)
    n_undefined: int = 0


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

    @property
    def used(self) -> int:
        return self.read - self.dropped

    def text(self) -> str:
        """``300 read, 286 used, 14 dropped: a missing rating (--nan-policy omit)``."""
        if not self.dropped:
            return f"{self.read:,} read, all used"
        return f"{self.read:,} read, {self.used:,} used, {self.dropped:,} dropped: {self.reason}"

    def values(self) -> list[Any]:
        """The values of :data:`ROW_FIELDS` (the reason None when nothing was dropped)."""
        return [self.read, self.used, self.dropped, self.reason if self.dropped else None]

    def to_dict(self) -> dict[str, Any]:
        return dict(zip(ROW_FIELDS, self.values(), strict=True))


def categories_line(labels: Sequence[Any], noun: str = "categories") -> str:
    """``K = 4 categories: none, mild, moderate, severe`` (the order used); ``K = 1 category``."""
    if len(labels) == 1:
        noun = {"categories": "category", "grades": "grade"}.get(noun, noun)
    return f"K = {len(labels)} {noun}: {', '.join(label_text(v) for v in labels)}"


@dataclass(frozen=True)
class ScoreRun:
    """What one ``wkappa score`` run found, for each of its outputs."""

    name: str  # the file
    true: str  # the column of rater A
    pred: str  # the column of rater B
    overall: Scored
    groups: Sequence[tuple[Any, Scored]]  # (value of --by, its result)
    by: str | None
    weight_column: str | None
    omitted: int  # rows dropped for a missing rating
    rows: RowCount | None = None  # rows read / used / dropped
    cluster: str | None = None  # the --cluster column


def to_json(document: dict[str, Any], *, schema: str) -> str:
    """A command's JSON document: ``"schema": schema`` first (``"wkappa.COMMAND/VERSION"``,
    the version raised when a field changes meaning or goes), then ``document``. Strict JSON
    (nan and infinities become null), indented, each list of scalars (a table row, the
    labels, an interval) on one line."""
    return json_text({"schema": schema, **document})


def _whole(table: np.ndarray) -> Any:
    return table.astype(np.int64) if table.dtype.kind in "iu" else table


def summary(scored: Scored) -> dict[str, Any]:
    """The JSON fields of one result (see the module docstring)."""
    result = scored.result
    n = result.n
    return {
        "statistic": result.statistic,
        "standard_error": result.standard_error,
        "standard_error_null": result.standard_error_null,
        "zscore": result.zscore,
        "pvalue": result.pvalue,
        "kappa0": result.kappa0,
        "alternative": result.alternative,
        "confidence_interval": {
            "low": scored.low,
            "high": scored.high,
            "confidence_level": scored.level,
            "method": scored.method,
            "n_resamples": scored.n_resamples,
            "n_undefined": scored.n_undefined,
        },
        "n": count_value(n),
        **({} if result.n_clusters is None else {"n_clusters": result.n_clusters}),
        "interpretation": result.interpretation,
        "n_categories": len(result.labels),
        "labels": list(result.labels),
        "weights": result.weights,
        "table": _whole(np.asarray(result.table)),
        "expected_table": np.asarray(result.expected_table),
    }


def band(statistic: float, pattern: str) -> str:
    """The Landis & Koch band of a defined ``statistic`` written into ``pattern`` (``"{}
    agreement"``); nothing for an undefined one (it would read "undefined agreement")."""
    return "" if math.isnan(statistic) else pattern.format(interpretation(statistic))


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


def format_number(value: float, digits: int = DECIMALS) -> str:
    """A float with ``digits`` decimals (by default those of every coefficient, standard
    error, proportion, difference and interval limit in text); ``undefined`` for nan (the rule
    of the results' ``explain()``)."""
    return number_text(value, f".{digits}f")


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


def _matrix(table: np.ndarray, labels: Sequence[Any], digits: int | None) -> str:
    names = [label_text(v) for v in labels]

    def cell(value: float) -> str:  # counts (and their totals) with thousands separators
        if digits is None and float(value).is_integer():
            return format_count(value)
        return f"{value:,.{digits if digits is not None else 2}f}"

    rows = [
        [names[i], *(cell(v) for v in table[i]), cell(table[i].sum())]
        for i in range(table.shape[0])
    ]
    rows.append(["total", *(cell(v) for v in table.sum(axis=0)), cell(table.sum())])
    return render_table(["", *names, "total"], rows)


def ci_label(level: float, alternative: str) -> str:
    """The heading of an interval's column: '95% CI', or '95% one-sided CI'."""
    return f"{level_percent(level)} {one_sided(alternative)}CI"


def sided_method(method: str, alternative: str) -> str:
    """An interval's method as the text tables print it beside the interval: after its side
    when one-sided ("one-sided, asymptotic"), so that the interval's label keeps its column."""
    return method if alternative == "two-sided" else f"one-sided, {method}"


def _ci_name(scored: Scored) -> str:
    method = scored.method
    if method not in TABLE_INTERVALS:  # which bootstrap, and how many resamples
        kind = "bootstrap" if scored.result.n_clusters is None else "cluster bootstrap"
        method = f"{kind}, {method}, {scored.n_resamples:,} resamples"
    return sided_method(method, scored.result.alternative)


def statistic_name(result: KappaResult) -> str:
    """The test statistic's name: ``(kappa - kappa0) / SE`` is ``t`` where its p-value is
    referred to t(G - 1) (the cluster-robust SE over G clusters), ``z`` otherwise."""
    return "z" if result.n_clusters is None else "t"


def statistic_column(result: KappaResult) -> str:
    """The CSV column of the test statistic, named by what it holds: ``zscore`` (the JSON
    field's name), ``t`` where :func:`statistic_name` heads it t (with ``--cluster``)."""
    return "zscore" if statistic_name(result) == "z" else statistic_name(result)


def _result_lines(scored: Scored) -> str:
    result = scored.result
    pct = f"{level_percent(scored.level)} CI"
    n = result.n
    null_se = f"null SE {format_number(result.standard_error_null)}"
    robust = ""
    if result.n_clusters is not None:  # the Wald test with the cluster-robust SE, on t(G - 1)
        robust = f"cluster-robust over {format_count(result.n_clusters)} clusters"
        null_se = f"the same SE; p from t with {format_count(result.n_clusters - 1)} df"
    rows = [
        ["kappa", format_number(result.statistic), band(result.statistic, "{} agreement")],
        ["standard error", format_number(result.standard_error), robust],
        [pct, format_interval(scored.low, scored.high), _ci_name(scored)],
        [statistic_name(result), format_number(result.zscore, STATISTIC_DECIMALS), null_se],
        ["p-value", format_pvalue(result.pvalue), null_hypothesis("kappa", result)],
        ["n", format_count(n), ""],
    ]
    return render_rows(rows, left=(0, 1, 2))


def group_rows(
    groups: Sequence[tuple[Any, Scored]], alternative: str | None = None
) -> list[list[str]]:
    """One row per group for the ``--by`` table; with ``alternative`` (the report's rows), a
    one-sided interval as its bound alone."""
    rows = []
    for value, scored in groups:
        result = scored.result
        n = result.n
        rows.append(
            [
                label_text(value),
                format_count(n),
                format_number(result.statistic),
                format_number(result.standard_error),
                format_interval(scored.low, scored.high)
                if alternative is None
                else format_bound(scored.low, scored.high, alternative),
                format_number(result.zscore, STATISTIC_DECIMALS),
                format_pvalue(result.pvalue),
                result.interpretation,
            ]
        )
    return rows


def missing_group(groups: Sequence[tuple[Any, Scored]]) -> Scored | None:
    """The ``(missing)`` group of ``--by``, the rows without a value (null), if there is one:
    rows of unknown strata, not a stratum, so it is left out of the pooled kappa and the test
    of equal kappas (:func:`across_groups`); the per-group table keeps it. A float NaN is a
    value of its own (``nan`` in the table), not this group."""
    for value, scored in groups:
        if value is None:
            return scored
    return None


def across_groups(groups: Sequence[tuple[Any, Scored]], homogeneity: str = "asymptotic") -> Any:
    """The groups with a value as strata (:func:`missing_group` is not one): SAS's overall
    kappa and test of equal kappas (None below 2)."""
    missing = missing_group(groups)
    groups = [(value, scored) for value, scored in groups if scored is not missing]
    if len(groups) < 2:
        return None
    import warnings

    from .._stats import stratified_kappa_test_from_tables
    from ..exceptions import UndefinedKappaWarning

    first = groups[0][1].result
    tables = np.stack([np.asarray(scored.result.table) for _, scored in groups])
    with warnings.catch_warnings():  # the summary line says which groups were left out
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        return stratified_kappa_test_from_tables(
            tables,
            weights=first.weight_matrix,
            labels=first.labels,
            strata=[value for value, _ in groups],
            homogeneity=homogeneity,  # type: ignore[arg-type]
        )


def goodness_of_fit(groups: Sequence[tuple[Any, Scored]], combined: Any) -> Any:
    """Donner, Eliasziw & Klar's test of equal kappas where it applies (two categories,
    counted pairs, both disagreements weighted alike), else None."""
    w = combined.weight_matrix
    tables = np.stack([r.table for r in combined.results])
    binary = tables.shape[-1] == 2 and tables.dtype.kind in "iu"
    if not (binary and w[0, 0] == w[1, 1] == 0 and w[0, 1] == w[1, 0] > 0):
        return None
    return across_groups(groups, "goodness-of-fit")


def across_groups_lines(groups: Sequence[tuple[Any, Scored]], by: str, level: float) -> list[str]:
    """The summary line under the ``--by`` table (nothing for fewer than 2 groups)."""
    combined = across_groups(groups)
    if combined is None:
        return []
    low, high = combined.confidence_interval(level)
    lines = [
        f"Across {by} (inverse-variance weighted, as SAS PROC FREQ): kappa "
        f"{format_number(combined.statistic)}, SE {format_number(combined.standard_error)}, "
        f"{level_percent(level)} CI {format_interval(low, high)}; equal kappas: chi-square "
        f"{format_number(combined.homogeneity_statistic, STATISTIC_DECIMALS)}, "
        f"df {combined.homogeneity_df}, {p_phrase(combined.homogeneity_pvalue)}"
    ]
    fit = goodness_of_fit(groups, combined)
    if fit is not None:
        lines[0] += (
            f"; goodness of fit {format_number(fit.homogeneity_statistic, STATISTIC_DECIMALS)}, "
            f"df {fit.homogeneity_df}, "
            f"{p_phrase(fit.homogeneity_pvalue)}"
        )
    left = [
        label_text(v) for v, used in zip(combined.strata, combined.used, strict=True) if not used
    ]
    if left:
        lines.append(f"  (left out, undefined kappa or SE 0: {', '.join(left)})")
    missing = missing_group(groups)
    if missing is not None:
        lines.append(f"  {missing_note(missing, by)}")
    return lines


def missing_note(missing: Scored, by: str) -> str:
    """The note under the pooled kappa (text and report) when the ``(missing)`` group was
    left out of it and of the test of equal kappas."""
    return (
        f"(left out, no {by} value, its stratum unknown: (missing), "
        f"{format_count(missing.result.n)} pairs)"
    )


def score_text(run: ScoreRun) -> str:
    """The human-readable report of ``wkappa score``."""
    name, true, pred, overall, groups, by = (
        run.name, run.true, run.pred, run.overall, run.groups, run.by
    )  # fmt: skip
    result = overall.result
    lines = [
        f"wkappa score: {name}",
        f"  rows (rater A)     {true}",
        f"  columns (rater B)  {pred}",
        f"  weights            {result.weights}; {categories_line(result.labels)}",
    ]
    if run.weight_column:
        lines.append(f"  sample weights     {run.weight_column}")
    if run.cluster:
        lines.append(f"  clusters           {run.cluster} (G = {format_count(result.n_clusters)})")
    if run.rows is not None:
        lines.append(f"  file rows          {run.rows.text()}")
    elif run.omitted:
        lines.append(f"  omitted            {run.omitted} rows with a missing rating")
    lines += ["", _result_lines(overall), ""]
    if by is not None:
        level = ci_label(overall.level, result.alternative)
        header = [by, "n", "kappa", "SE", level, statistic_name(result), "p", "interpretation"]
        rows = group_rows([*groups, ("(all)", overall)])
        lines += [f"By {by}:", render_table(header, rows, left=(0, 7))]
        if run.cluster:
            lines += [f"(No summary across {by} with --cluster: it assumes independent pairs.)"]
        else:
            lines += across_groups_lines(groups, by, overall.level)
        lines += [""]
    table = np.asarray(result.table)
    digits = None if whole_counts(table) else 2
    lines += [
        f"Observed O (rows: {true}, columns: {pred})",
        _matrix(table, result.labels, digits),
        "",
        "Expected E = outer(row totals, column totals) / n",
        _matrix(np.asarray(result.expected_table), result.labels, 2),
    ]
    return "\n".join(lines)


def score_json(run: ScoreRun) -> str:
    """The JSON document of ``wkappa score`` (schema in the module docstring)."""
    document: dict[str, Any] = {
        "file": run.name,
        "true": run.true,
        "pred": run.pred,
        "weight_column": run.weight_column,
        "omitted_rows": run.omitted,
        **(run.rows.to_dict() if run.rows is not None else {}),
        **({"cluster": run.cluster} if run.cluster else {}),
        **summary(run.overall),
    }
    if run.by is not None:
        document["by"] = run.by
        document["groups"] = [{"group": value, **summary(s)} for value, s in run.groups]
        combined = None if run.cluster else across_groups(run.groups)
        if combined is not None:
            # The fields of combined.to_dict(level) without its strata (a summary per group)
            document["across_groups"] = json_fields(
                combined,
                "statistic standard_error confidence_interval homogeneity_statistic "
                "homogeneity_df homogeneity_pvalue",
                confidence_interval=combined.confidence_interval(run.overall.level),
            )
            missing = missing_group(run.groups)  # left out: the pairs of unknown strata
            left_out = 0 if missing is None else count_value(missing.result.n)
            document["across_groups"]["n_missing_left_out"] = left_out
            fit = goodness_of_fit(run.groups, combined)
            if fit is not None:
                document["across_groups"]["goodness_of_fit"] = {
                    key: json_value(getattr(fit, f"homogeneity_{key}"))
                    for key in ("statistic", "df", "pvalue")
                }
    return to_json(document, schema=SCHEMA)


# The interval's level and method, the test's null value and alternative and the weights are
# columns too: a row pasted into a paper's table says what its numbers are.
CSV_FIELDS = (
    "n",
    "statistic",
    "standard_error",
    "ci_low",
    "ci_high",
    "confidence_level",
    "ci_method",
    "zscore",
    "pvalue",
    "alternative",
    "kappa0",
    "interpretation",
    "weights",
    "n_categories",
    "labels",
)


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


def score_csv(run: ScoreRun) -> str:
    """One CSV row per group (and ``(all)``), or a single row without ``--by``, the test
    statistic's column named by what it holds (:func:`statistic_column`); every row
    ends with the file's row counts (:data:`ROW_FIELDS`), then ``n_clusters`` with
    ``--cluster``."""
    overall, groups, by = run.overall, run.groups, run.by
    everything = [*groups, ("(all)", overall)] if by else [(None, overall)]
    rows = []
    for value, scored in everything:
        result = scored.result
        fields = [
            count_value(result.n),
            result.statistic,
            result.standard_error,
            scored.low,
            scored.high,
            scored.level,
            scored.method,
            result.zscore,
            result.pvalue,
            result.alternative,
            result.kappa0,
            result.interpretation,
            result.weights,
            len(result.labels),
            labels_field(result.labels),
        ]
        clusters = [result.n_clusters] if run.cluster else []
        counted = run.rows.values() if run.rows is not None else []
        rows.append([*([label_text(value)] if by else []), *fields, *counted, *clusters])
    header = [
        *([by] if by else []),
        *(statistic_column(overall.result) if f == "zscore" else f for f in CSV_FIELDS),
        *(ROW_FIELDS if run.rows is not None else ()),
        *(["n_clusters"] if run.cluster else []),
    ]
    return to_csv(header, rows)
