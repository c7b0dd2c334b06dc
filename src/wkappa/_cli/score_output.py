"""The outputs of ``wkappa score``: its text, JSON and CSV, with ``--by`` groups.

JSON schema of ``wkappa score --format json`` (``"schema": "wkappa.score/2"``); every float is
a number or ``null`` (undefined):

``file``, ``true``, ``pred``, ``weight_column`` (or null), ``omitted_rows``, ``rows_read``,
``rows_used``, ``rows_dropped`` and ``dropped_because`` (or null), then the fields of
one *summary*: ``statistic``, ``standard_error``, ``standard_error_null``, ``test_statistic``
(``(statistic - kappa0) / standard_error_null``), ``test_distribution`` (what ``pvalue``
refers it to: ``normal``, a z statistic; ``t`` with ``--cluster``, the Wald t), ``test_df``
(G - 1 with ``--cluster``, else ``null``), ``pvalue``, ``kappa0`` (the null value of the test,
``--kappa0``), ``alternative``
(``--alternative``: the side of the test and the interval), ``confidence_interval``
(an object: ``low``, ``high``, ``confidence_level``,
``method``: ``asymptotic``, ``score``, ``fisher-z``, ``percentile`` or ``bca``,
``n_resamples`` and ``n_undefined`` (the bootstrap's; 0 for the others), as in
``wkappa compare`` and the result objects' ``to_dict()``), ``n``, ``interpretation``,
``n_categories`` (K), ``labels`` (the K categories in the order used), ``weights``,
``table`` (O, K x K, rows = ``true``) and ``expected_table`` (E);
with ``--by COL``, also ``by`` (the column) and ``groups``: a list of summaries, each with
``group`` (the value), and ``across_groups``: the summary of the groups with a value,
with ``pvalue`` (of H0: the pooled kappa = ``kappa0``, ``--kappa0``, on ``--alternative``),
``test_df`` (t's degrees of freedom of its interval and test, the clusters less the groups
with ``--cluster --pooling pairs``; null: normal), ``pooling`` (``--pooling``:
``inverse-variance``, SAS's weights and the default, or ``pairs``, each group weighted by
its pairs) and ``n_missing_left_out`` (the pairs of the
``(missing)`` group, rows without a ``--by`` value, left out of it and of its test of equal
kappas; 0 without one). With
``--cluster COL``, also ``cluster`` (the column) and, in every
summary, ``n_clusters`` (G: the standard error is cluster-robust over them); ``across_groups``
then weights each group by its cluster-robust variance, and is left out when a cluster has
rows in two groups (the groups are then not independent samples).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._stats import (
    KappaResult,
    bound_name,
    json_fields,
    json_value,
    level_percent,
    p_phrase,
    statistic_text,
)
from .labels import label_text
from .output import (
    ROW_FIELDS,
    TABLE_INTERVALS,
    RowCount,
    band,
    categories_line,
    ci_label,
    count_value,
    format_bound,
    format_count,
    format_df,
    format_interval,
    format_number,
    format_pvalue,
    infinite_statistic_note,
    labels_field,
    null_hypothesis,
    render_rows,
    render_table,
    sided_method,
    to_csv,
    to_json,
    whole_counts,
)

__all__ = [
    "ScoreRun",
    "Scored",
    "across_groups",
    "group_rows",
    "missing_group",
    "pooled",
    "pooled_interval",
    "score_csv",
    "score_json",
    "score_text",
    "statistic_name",
    "summary",
    "summary_lines",
]


SCHEMA = "wkappa.score/2"


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
    spanning: tuple[Any, Any, Any] | None = None  # a cluster in two groups, and the two
    pooling: str = "inverse-variance"  # the --pooling of the summary across the groups


def pooled(run: ScoreRun, homogeneity: str = "asymptotic") -> Any:
    """The summary across the ``--by`` groups (:func:`across_groups`), None where there is
    none: fewer than 2 groups, or a cluster with rows in two groups."""
    if run.spanning is not None:
        return None
    clustered = run.cluster is not None
    return across_groups(run.groups, homogeneity, clustered=clustered, pooling=run.pooling)


def summary_lines(run: ScoreRun, written: str = "console") -> list[str]:
    """What stands under the ``--by`` table: the summary across the groups
    (:func:`across_groups_lines`), or why there is none."""
    assert run.by is not None
    if run.spanning is None:
        return across_groups_lines(run, written)
    cluster, one, other = (label_text(value) for value in run.spanning)
    return [
        f"(No summary across {run.by}: cluster {cluster!r} of {run.cluster} has rows in "
        f"{run.by} {one!r} and {other!r}; pooling needs independent groups, each cluster "
        "within one group.)"
    ]


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
        "test_statistic": result.test_statistic,
        "test_distribution": result.test_distribution,
        "test_df": result.test_df,
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


def _result_lines(scored: Scored) -> str:
    result = scored.result
    pct = f"{level_percent(scored.level)} CI"
    n = result.n
    null_se = f"null SE {format_number(result.standard_error_null)}"
    robust = ""
    if result.n_clusters is not None:  # the Wald test with the cluster-robust SE, on t(G - 1)
        robust = f"cluster-robust over {format_count(result.n_clusters)} clusters"
        null_se = f"the same SE; p from t with {format_df(result.n_clusters - 1)} df"
    rows = [
        ["kappa", format_number(result.statistic), band(result.statistic, "{} agreement")],
        ["standard error", format_number(result.standard_error), robust],
        [pct, format_interval(scored.low, scored.high), _ci_name(scored)],
        [statistic_name(result), statistic_text(result.test_statistic), null_se],
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
                statistic_text(result.test_statistic),
                format_pvalue(result.pvalue),
                result.interpretation,
            ]
        )
    return rows


def missing_group(groups: Sequence[tuple[Any, Scored]]) -> Scored | None:
    """The ``(missing)`` group of ``--by``, the rows without a value (null, or NaN in a float
    column), if there is one: rows of unknown strata, not a stratum, so it is left out of the
    pooled kappa and the test of equal kappas (:func:`across_groups`); the per-group table
    keeps it."""
    for value, scored in groups:
        if value is None:
            return scored
    return None


def across_groups(
    groups: Sequence[tuple[Any, Scored]],
    homogeneity: str = "asymptotic",
    clustered: bool = False,
    pooling: str = "inverse-variance",
) -> Any:
    """The groups with a value as strata (:func:`missing_group` is not one): the overall
    kappa that ``pooling`` weights (``--pooling``: SAS's inverse-variance weights, or each
    group's pairs) and SAS's test of equal kappas (None below 2); ``clustered``, with each
    group's cluster-robust variance, as ``wkappa.stratified_kappa_test(..., cluster=...,
    pooling=...)`` (the caller has checked that each cluster lies within one group)."""
    missing = missing_group(groups)
    groups = [(value, scored) for value, scored in groups if scored is not missing]
    if len(groups) < 2:
        return None
    import warnings

    from .._stats import build_stratified, stratified_kappa_test_from_tables
    from ..exceptions import UndefinedKappaWarning

    first = groups[0][1].result
    tables = np.stack([np.asarray(scored.result.table) for _, scored in groups])
    with warnings.catch_warnings():  # the summary line says which groups were left out
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        # each group's test of --kappa0 warned already where its margins cannot reach it
        warnings.filterwarnings("ignore", r".*`kappa0` = \S+ is outside the kappas", UserWarning)
        if clustered:
            return build_stratified(
                tables,
                first.weight_matrix,
                tuple(first.labels),
                tuple(value for value, _ in groups),
                first.alternative,
                results=[scored.result for _, scored in groups],
                pooling=pooling,  # type: ignore[arg-type]
                kappa0=first.kappa0,
            )
        return stratified_kappa_test_from_tables(
            tables,
            weights=first.weight_matrix,
            labels=first.labels,
            strata=[value for value, _ in groups],
            alternative=first.alternative,
            homogeneity=homogeneity,  # type: ignore[arg-type]
            pooling=pooling,  # type: ignore[arg-type]
            kappa0=first.kappa0,
        )


def pooled_interval(combined: Any, level: float, written: str) -> str:
    """The pooled kappa's interval on the run's side, ``written`` for the ``console``
    (``95% CI [low, high]``, ``95% one-sided CI [low, ∞]``), a ``report`` table's line
    (``95% CI [low, high]`` or ``one-sided 95% lower bound low``) or a methods ``sentence``
    (``95% confidence interval [low, high]`` or the bound)."""
    low, high = combined.confidence_interval(level)
    side = combined.alternative
    if written == "console":
        return f"{ci_label(level, side)} {format_interval(low, high)}"
    return f"{bound_name(level, side, written == 'report')} {format_bound(low, high, side)}"


def goodness_of_fit(groups: Sequence[tuple[Any, Scored]], combined: Any) -> Any:
    """Donner, Eliasziw & Klar's test of equal kappas where it applies (two categories,
    counted pairs, both disagreements weighted alike, independent pairs), else None."""
    if any(result.n_clusters is not None for result in combined.results):
        return None
    w = combined.weight_matrix
    tables = np.stack([r.table for r in combined.results])
    binary = tables.shape[-1] == 2 and tables.dtype.kind in "iu"
    if not (binary and w[0, 0] == w[1, 1] == 0 and w[0, 1] == w[1, 0] > 0):
        return None
    return across_groups(groups, "goodness-of-fit")


def across_groups_lines(run: ScoreRun, written: str = "console") -> list[str]:
    """The summary line under the ``--by`` table (nothing for fewer than 2 groups), its
    interval ``written`` for the console or a report (:func:`pooled_interval`)."""
    groups, by, level = run.groups, run.by, run.overall.level
    assert by is not None
    combined = pooled(run)
    if combined is None:
        return []
    variance = ", with each group's cluster-robust variance" if run.cluster else ""
    pairs = run.pooling == "pairs"
    weighted = (
        "weighted by each group's pairs" if pairs else "inverse-variance weighted, as SAS PROC FREQ"
    )
    if combined.test_df is not None:  # the pairs pooling of clustered groups
        variance += f"; t with {format_df(combined.test_df)} df"
    lines = [
        f"Across {by} ({weighted}{variance}): kappa "
        f"{format_number(combined.statistic)}, SE {format_number(combined.standard_error)}, "
        f"{pooled_interval(combined, level, written)}; equal kappas: chi-square "
        f"{statistic_text(combined.homogeneity_statistic)}, "
        f"df {format_df(combined.homogeneity_df)}, {p_phrase(combined.homogeneity_pvalue)}"
    ]
    fit = goodness_of_fit(groups, combined)
    if fit is not None:
        lines[0] += (
            f"; goodness of fit {statistic_text(fit.homogeneity_statistic)}, "
            f"df {format_df(fit.homogeneity_df)}, "
            f"{p_phrase(fit.homogeneity_pvalue)}"
        )
    left = [
        label_text(v) for v, used in zip(combined.strata, combined.used, strict=True) if not used
    ]
    if left:
        why = "undefined kappa" if pairs else "undefined kappa, SE 0"
        why = f"{why} or a single cluster" if run.cluster else why.replace(", ", " or ")
        lines.append(f"  (left out, {why}: {', '.join(left)})")
    untested = [  # kept by the pairs pooling, but SAS's test weights a group by 1 / Var
        label_text(v)
        for v, used, result in zip(combined.strata, combined.used, combined.results, strict=True)
        if used and not result.standard_error > 0
    ]
    if untested:
        lines.append(f"  (left out of the test of equal kappas, SE 0: {', '.join(untested)})")
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
    name, true, pred, overall, groups = (
        run.name, run.true, run.pred, run.overall, run.groups
    )  # fmt: skip
    by = run.by
    result = overall.result
    name_of_test = statistic_name(result)
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
    overall_note = infinite_statistic_note(name_of_test, result.test_statistic)
    lines += ["", _result_lines(overall), *([overall_note] if overall_note else []), ""]
    if by is not None:
        level = ci_label(overall.level, result.alternative)
        header = [by, "n", "kappa", "SE", level, name_of_test, "p", "interpretation"]
        rows = group_rows([*groups, ("(all)", overall)])
        lines += [f"By {by}:", render_table(header, rows, left=(0, 7))]
        notes = [infinite_statistic_note(name_of_test, s.result.test_statistic) for _, s in groups]
        lines += [next(note for note in notes if note)] if any(notes) else []
        lines += summary_lines(run)
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
        combined = pooled(run)
        if combined is not None:
            # The fields of combined.to_dict(level) without its strata (a summary per group)
            document["across_groups"] = json_fields(
                combined,
                "statistic standard_error confidence_interval pvalue kappa0 test_df pooling "
                "homogeneity_statistic homogeneity_df homogeneity_pvalue",
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
    "test_statistic",
    "test_distribution",
    "test_df",
    "pvalue",
    "alternative",
    "kappa0",
    "interpretation",
    "weights",
    "n_categories",
    "labels",
)


def score_csv(run: ScoreRun) -> str:
    """One CSV row per group (and ``(all)``), or a single row without ``--by``, the test
    statistic's distribution and df beside it (as in the JSON); every row
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
            result.test_statistic,
            result.test_distribution,
            result.test_df,
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
        *CSV_FIELDS,
        *(ROW_FIELDS if run.rows is not None else ()),
        *(["n_clusters"] if run.cluster else []),
    ]
    return to_csv(header, rows)
