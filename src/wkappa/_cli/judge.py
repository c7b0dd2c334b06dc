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
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import COEFFICIENTS, is_missing_scalar, known_raters
from .._stats import (
    base_rate_indices,
    pooled_base_rate_indices,
    rater_vs_panel,
    rating_categories,
    specific_agreement,
)
from ..exceptions import WkappaError
from . import options
from .clusters import (
    add_cluster,
    cluster_ids,
)
from .ids import ITEM_LAYOUT
from .judge_output import judge_json, judge_text, write_judge_report
from .labels import all_missing, parse_labels
from .lists import split_list
from .output import (
    RowCount,
)
from .rater_files import count_raters_long, count_raters_wide, pivot_raters_long
from .tables import (
    CountedFile,
    rater_rating_error,
    refuse_unrated,
)

__all__ = ["add_judge_parser", "run_judge"]

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
    options.add_layout(judge, "wide: the panel's columns", ITEM_LAYOUT)
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
        item_ids=True,
    )
    source = open_file(args)
    labels = options.split_names(args.labels, "--labels") if args.labels else None
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
        named = {"--candidate": args.candidate, **{f"--raters ({n})": n for n in panel}}
        counts, dropped, file = count_raters_wide(source, args, read_as, named, labels, _OMIT)
        read = int(counts[COUNT].sum())
        counts = counts.filter(~all_missing(counts, keys))
        rows = RowCount(read, dropped, "no rating at all", source.skipped)
    else:
        counts, dropped, file = count_raters_long(source, args, labels, _OMIT)
        read = int(counts[COUNT].sum())
        counts, raters = pivot_raters_long(source, file, counts, args)
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
        rows = RowCount(read, dropped, "a missing rating", source.skipped)
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


def run_judge(args: argparse.Namespace) -> int:
    """Judge the candidate against the panel, print the result, optionally write the report."""
    options.check_resamples(args)
    ratings, label_counts, keys = _read(args)
    unrated = [
        name
        for name, column in zip(ratings.panel, ratings.matrix[:, 1:].T, strict=True)
        if all(value is None or value != value for value in column)
    ]
    args.unrated = unrated  # the methods sentence names them too
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
