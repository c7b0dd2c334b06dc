"""``wkappa judge``: does a candidate rater (an LLM judge, a model, a trainee) agree with a
panel as well as the panel's members agree with each other?

Built on :func:`wkappa.rater_vs_panel` (the difference of mean pairwise agreements with its
item-bootstrap interval and p-value), with the candidate against each member, the pairwise
matrix, per-category (specific) agreement and the base-rate diagnostics that explain a low
kappa with high raw agreement (prevalence and bias indices, PABAK; Byrt, Bishop & Carlin 1993,
generalised to K categories in :mod:`wkappa._stats.base_rates`). Wide files (one column per
rater) and long exports (one row per rating) alike; text, JSON and an HTML report.
"""

from __future__ import annotations

import argparse
import base64
import math
import shlex
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import COEFFICIENTS, is_missing_scalar, known_raters
from .._stats import (
    COEFFICIENT_NAMES,
    base_rate_indices,
    bound_name,
    level_percent,
    pooled_base_rate_indices,
    rater_vs_panel,
    rating_categories,
    specific_agreement,
)
from ..exceptions import WkappaError
from . import options
from .clusters import (
    add_cluster,
    check_cluster_column,
    cluster_ids,
    cluster_keys,
    pivot_with_clusters,
    refuse_missing_ids,
)
from .labels import all_missing, label_text, parse_labels
from .lists import split_list
from .output import (
    RowCount,
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
from .tables import (
    CountedFile,
    count_long,
    count_wide,
    rater_rating_error,
    refuse_missing,
    refuse_unrated,
)
from .written import write_text

__all__ = ["add_judge_parser", "run_judge"]

# The several-raters names, except that Conger's kappa of two raters is Cohen's.
_NAMES = {**COEFFICIENT_NAMES, "conger": "Cohen's kappa", "gwet": "Gwet's AC1/AC2"}

_SUMMARY = "a candidate rater (LLM judge) against a panel of raters"
_DESCRIPTION = (
    "Does the candidate (--candidate) agree with the panel as well as the panel's "
    "members agree with each other? Wide files: --raters lists the panel's columns; "
    "long exports: --item, --rater, --rating, and --candidate names the candidate's "
    "rater id."
)


def add_judge_parser(sub: Any) -> None:
    """Register ``judge`` on the sub-command parser."""
    judge = options.add_command(sub, "judge", _SUMMARY, _DESCRIPTION, run_judge)
    options.add_file(judge)
    judge.add_argument(
        "--candidate", required=True, metavar="NAME", help="the candidate's column / rater id"
    )
    options.add_layout(judge, "wide: the panel's columns")
    judge.add_argument(
        "--coefficient",
        choices=COEFFICIENTS,
        default="conger",
        help="two-rater coefficient of every pair (default: conger, Cohen's kappa of a pair)",
    )
    judge.add_argument(
        "--weights",
        choices=("unweighted", "quadratic", "linear"),
        default="unweighted",
        help="disagreement weights (default: unweighted)",
    )
    options.add_labels(judge, bounds=False)
    options.add_nan_policy(
        judge,
        ("omit", "raise"),
        "omit",
        "a missing rating: each pair of raters uses the items both rated (omit; default) "
        "or it is an error (raise)",
    )
    options.add_spelling(judge)
    options.add_ci(judge)
    options.add_resamples(
        judge, 9999, "item-bootstrap resamples of the difference (default: 9999, as compare)"
    )
    add_cluster(judge, "the bootstrap resamples whole clusters")
    options.add_alternative(
        judge, "of the p-value and the interval of the difference (default: two-sided)"
    )
    options.add_format(judge, "text", "json")
    options.add_explain(judge)
    options.add_report(judge, "write a self-contained HTML report")
    options.add_common(judge)


@dataclass(frozen=True)
class Ratings:
    """The file's ratings as items x raters (candidate first), with what was read."""

    name: str
    candidate: str
    panel: list[str]
    matrix: np.ndarray  # (items, 1 + P): candidate, then the members; missing None / NaN
    rows: RowCount
    layout: str
    file: CountedFile  # the counted file, to name a refused rating's row
    # The same items as a polars frame (the file's dtypes), which the library reads: its
    # messages name a rater by its column.
    frame: Any
    clusters: np.ndarray | None = None  # each item's --cluster id


def _column(series: Any) -> np.ndarray:
    values = series.to_numpy()
    return values if values.dtype.kind in "fiub" else np.asarray(series.to_list(), dtype=object)


def _read(args: argparse.Namespace) -> tuple[Ratings, Any, list[str]]:
    """The file's items (wide: its distinct rows; long: the distinct rows of the one pivot of
    ``agree`` and ``frames``), each repeated as often as it occurs."""
    from .io import COUNT, open_file, polars

    pl = polars()
    wide = options.chosen_layout(
        args,
        raters="the panel's columns; --candidate is one more column",
        ratings="one row per rating; --candidate is a rater id",
    )
    source = open_file(args)
    labels = options.split_names(args.labels, "--labels") if args.labels else None
    _, extra = cluster_keys(args)
    if wide:
        given = split_list(args.raters, strip=False)
        if all(name.strip() for name in given):  # an empty name: split_names says so
            if len(others := [name for name in given if name != args.candidate]) < 2:
                raise _small_panel(args, "--raters", others)
        panel = options.split_names(args.raters, "--raters")
        if args.candidate in panel:  # one --raters list for agree and judge: noted, not refused
            panel = [name for name in panel if name != args.candidate]
            options.later_note(
                args,
                f"--candidate {args.candidate} is also in --raters {args.raters}: it is judged "
                f"against the others, a panel of {len(panel)} ({', '.join(panel)}).",
            )
        if len(panel) < 2:
            raise _small_panel(args, "--raters", panel)
        keys = [args.candidate, *panel]
        read_as = {args.candidate: "--candidate", **dict.fromkeys(panel, "--raters")}
        check_cluster_column(args.cluster, read_as)
        named = {"--candidate": args.candidate, **{f"--raters ({n})": n for n in panel}}
        counts, dropped, file = count_wide(source, args, keys, named, labels, extra)
        read = int(counts[COUNT].sum())
        if args.cluster:  # an item without any rating is dropped: it needs no id
            where = (source, file.frame)
            refuse_missing_ids(where, counts, args.cluster, "item", keys, every=False)
        if args.nan_policy == "raise":
            refuse_missing(file, keys, _OMIT)
        counts = counts.filter(~all_missing(counts, keys))
        rows = RowCount(read, dropped, "no rating at all")
    else:
        check_cluster_column(
            args.cluster,
            {args.rater: "--rater", args.rating: "--rating"},
            item=(args.item, "--item"),
        )
        counts, dropped, file = count_long(source, args, labels, extra)
        read = int(counts[COUNT].sum())
        if args.cluster:  # a row without its rating is dropped: it needs no id
            where = (source, file.frame)
            refuse_missing_ids(where, counts, args.cluster, "item", [args.rating])
        if args.nan_policy == "raise":
            refuse_missing(file, [args.rating], _OMIT)
        counts, raters = pivot_with_clusters(counts, args, source.name)
        if args.candidate not in raters:
            shown = ", ".join(repr(r) for r in raters[:12])
            close = [r for r in raters if r.strip().lower() == args.candidate.strip().lower()]
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise WkappaError(
                f"--candidate {args.candidate!r} is not a rater in column {args.rater!r}.{hint} "
                f"Its raters: {shown}."
            )
        panel = [r for r in raters if r != args.candidate]
        if len(panel) < 2:
            raise _small_panel(args, f"the file (column {args.rater!r})", panel)
        keys = [args.candidate, *panel]
        if args.nan_policy == "raise":
            refuse_unrated(counts, keys, source.name, _OMIT)
        rows = RowCount(read, dropped, "a missing rating")
    multiplicity = counts[COUNT].to_numpy().astype(np.int64)
    matrix = np.column_stack([np.repeat(_column(counts[k]), multiplicity) for k in keys]).astype(
        object if any(counts.schema[k] == pl.String for k in keys) else np.float64
    )
    items = counts.select(keys)[np.repeat(np.arange(counts.height), multiplicity)]
    ids = None
    if args.cluster:
        ids = np.repeat(cluster_ids(counts[args.cluster], args.cluster, "item"), multiplicity)
    layout = "wide" if wide else "long"
    ratings = Ratings(source.name, args.candidate, panel, matrix, rows, layout, file, items, ids)
    return ratings, counts, keys


def _small_panel(args: argparse.Namespace, where: str, panel: Sequence[str]) -> WkappaError:
    """The refusal of a panel of fewer than two members besides ``--candidate`` (``where``
    names the option or column that gives the panel), saying why and what to use instead:
    ``score`` against the one member, if there is one."""
    reference = shlex.quote(panel[0]) if len(panel) == 1 else "REFERENCE"
    columns = f"--true {reference} --pred {shlex.quote(args.candidate)}"
    score = (
        f"wkappa score {shlex.quote(args.file)} {columns}"
        if args.raters is not None
        else f"wkappa score on the ratings written one column per rater ({columns})"
    )
    return WkappaError(
        f"{where} gives the panel {len(panel)} member{'' if len(panel) == 1 else 's'} "
        f"besides --candidate {args.candidate}: judge compares the candidate's agreement with "
        "the panel to the agreement among the panel's members, which needs two or more. Hint: "
        "name two or more panel members; to score the candidate against one reference rater, "
        f"use {score} (wkappa compare adds a second --pred to compare two raters against it)."
    )


# What --nan-policy omit does, in the hint of a missing rating under --nan-policy raise.
_OMIT = "uses, for each pair of raters, the items both rated"


def _present(values: np.ndarray) -> np.ndarray:
    if values.dtype == object:
        return np.array([not is_missing_scalar(v) for v in values])
    present: np.ndarray = ~np.isnan(values.astype(np.float64))
    return present


def _pair_table(a: np.ndarray, b: np.ndarray, labels: Sequence[Any]) -> np.ndarray:
    from .._core import confusion_table

    both = _present(a) & _present(b)
    if not both.any():
        return np.zeros((len(labels), len(labels)), dtype=np.int64)
    return np.asarray(confusion_table(a[both], b[both], labels=labels))


@dataclass(frozen=True)
class Judged:
    ratings: Ratings
    result: Any  # PanelComparison
    ci: Any  # its ConfidenceInterval at --ci
    labels: Sequence[Any]
    names: list[str]  # candidate, then the members
    matrix: np.ndarray  # (1 + P) x (1 + P) pairwise coefficients
    per_member: list[dict[str, float]]  # base-rate indices of (candidate, member j)
    panel_pooled: dict[str, float]  # base-rate indices of the members' pairs, pooled
    specific_candidate: np.ndarray  # per category, candidate vs members (pooled)
    specific_panel: np.ndarray  # per category, members vs members (pooled)
    share_candidate: np.ndarray
    share_panel: np.ndarray
    ratings_per_rater: list[int]
    n_resamples: int


def judge(ratings: Ratings, args: argparse.Namespace, label_counts: Any, keys: list[str]) -> Judged:
    """Everything ``wkappa judge`` reports."""
    given = parse_labels(args.labels, label_counts, keys)
    candidate, panel = ratings.matrix[:, 0], ratings.matrix[:, 1:]
    try:
        items = known_raters(ratings.frame)
        labels = given or list(rating_categories(items, weights=args.weights))
        result = rater_vs_panel(
            known_raters(ratings.frame.select(ratings.panel)),
            ratings.frame[ratings.candidate],
            coefficient=args.coefficient,
            weights=args.weights,
            labels=labels,
            nan_policy=args.nan_policy,
            n_resamples=args.bootstrap,
            rng=args.seed,
            alternative=args.alternative,
            cluster=ratings.clusters,
        )
    except WkappaError as exc:
        raise rater_rating_error(ratings.file, exc, given) from None
    options.warn_few_resamples(args)
    size = 1 + len(ratings.panel)
    rated = [int(_present(ratings.matrix[:, g]).sum()) for g in range(size)]
    matrix = np.ones((size, size))
    matrix[1:, 1:] = np.asarray(result.member_pairs)
    matrix[0, 1:] = matrix[1:, 0] = np.asarray(result.candidate_vs_members)
    # A rater without any rating agrees with no one, itself included: nan, as pairwise() has it.
    matrix[np.diag_indices(size)] = np.where(np.asarray(rated) > 0, 1.0, np.nan)
    k = len(labels)
    versus = [_pair_table(candidate, panel[:, j], labels) for j in range(panel.shape[1])]
    judged = np.sum(versus, axis=0) if versus else np.zeros((k, k))
    among = [
        _pair_table(panel[:, j], panel[:, h], labels)
        for j in range(panel.shape[1])
        for h in range(j + 1, panel.shape[1])
    ]
    pooled = np.sum(among, axis=0) if among else np.zeros((k, k))
    total_j = judged.sum()
    return Judged(
        ratings=ratings,
        result=result,
        ci=result.confidence_interval(args.ci),
        labels=labels,
        names=[ratings.candidate, *ratings.panel],
        matrix=matrix,
        per_member=[base_rate_indices(t) for t in versus],
        panel_pooled=pooled_base_rate_indices(among),
        specific_candidate=specific_agreement(judged),
        specific_panel=specific_agreement(pooled + pooled.T),
        share_candidate=judged.sum(axis=1) / total_j if total_j else np.full(k, np.nan),
        share_panel=judged.sum(axis=0) / total_j if total_j else np.full(k, np.nan),
        ratings_per_rater=rated,
        n_resamples=args.bootstrap,
    )


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


def _coefficient_name(args: argparse.Namespace) -> str:
    return f"{_NAMES[args.coefficient]}, {weights_text(args.weights)}"


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
        f"  coefficient   {_coefficient_name(args)}; {categories_line(judged.labels)}",
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
        f"Pairwise {_NAMES[args.coefficient]} (candidate first):",
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
    sentence, cited = judge_methods(judged, _coefficient_name(args), args, Provenance.of(args))
    body = [
        f'<p class="meta">candidate <b>{escape(r.candidate)}</b> &middot; panel '
        f"{escape(', '.join(r.panel))} &middot; {escape(_coefficient_name(args))}</p>",
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
        png = pairwise_png(judged.matrix, judged.names, f"pairwise {_NAMES[args.coefficient]}")
    except ImportError:
        body.append('<p class="note">The heatmap needs matplotlib: pip install "wkappa[plot]".</p>')
    else:
        encoded = base64.b64encode(png).decode("ascii")
        body.append(f'<img alt="pairwise heatmap" src="data:image/png;base64,{encoded}">')
    bands = band_source(judged.result.coefficient)
    body.append(references_html([*cited, *(["landis1977"] if bands == "Landis & Koch" else [])]))
    page = html_page(r.name, f"LLM judge / candidate vs panel: {r.name}", body, args)
    write_text(path, page, "--report")


def run_judge(args: argparse.Namespace) -> int:
    """Judge the candidate against the panel, print the result, optionally write the report."""
    options.check_resamples(args)
    ratings, label_counts, keys = _read(args)
    unrated = [
        name
        for name, column in zip(ratings.panel, ratings.matrix[:, 1:].T, strict=True)
        if all(value is None or value != value for value in column)
    ]
    options.warn_unrated(args, unrated, "panel's members")
    judged = judge(ratings, args, label_counts, keys)
    print(judge_json(judged, args) if args.format == "json" else judge_text(judged, args))
    if args.explain:
        print()
        print(options.explained(judged.result, args.ci))
    if args.report:
        write_judge_report(args.report, judged, args)
        options.note(args, f"wrote {args.report}")
    return 0
