"""``wkappa compare``: two predictions' kappas against one truth, paired.

The distinct (truth, A, B) triples are counted in polars' streaming engine and bootstrapped
as their K x K x K table (:func:`wkappa._stats.paired_kappa_test_from_cells`), never one
entry per row. With ``--cluster`` the triples keep their cluster, and the bootstrap resamples
whole clusters from the per-cluster tables of A and of B, as
``wkappa.paired_kappa_test(..., cluster=...)`` does on the same rows. ``--weight-col`` sums
each triple's sample weights (exactly), which then count as
``wkappa.paired_kappa_test(..., sample_weight=...)`` counts them. Text, JSON and an HTML
report (:mod:`.compare_report`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import encode_ratings
from .._stats import Frequencies
from ..exceptions import WkappaError
from . import options, output
from .clusters import (
    add_cluster,
    check_cluster_column,
    cluster_codes,
    cluster_keys,
    refuse_missing_ids,
    stacked_tables,
    too_few_clusters,
)
from .compare_report import Compared, compare_rows, write_compare_report
from .io import COUNT, WEIGHT, count_keys, open_file
from .labels import Spelling, drop_missing, parse_labels, text_labels, tidy_labels
from .tables import build_tables

__all__ = ["add_compare_parser", "run_compare"]

_SUMMARY = "two predictions against one truth (paired)"
_DESCRIPTION = "Paired comparison of the kappas of two predictions."
# The fix offered when --weight-col gives non-integer weighted counts without --cluster.
_WEIGHTS = Frequencies(
    "--weight-col",
    "Hint: use a column of whole-number weights (counts), or add --cluster COL with a column "
    "of ids (a row id gives one cluster per row) for the cluster bootstrap, which does not "
    "depend on the scale of the weights.",
)


def add_compare_parser(sub: Any) -> None:
    """Register ``compare`` on the sub-command parser."""
    parser = options.add_command(sub, "compare", _SUMMARY, _DESCRIPTION, run_compare)
    options.add_two_columns(parser, "--pred", "a prediction column; give it twice", action="append")
    options.add_weight_col(parser)
    options.add_ci(parser)
    options.add_resamples(parser, 9999, "bootstrap resamples (default: 9999)")
    add_cluster(parser, "the paired bootstrap resamples whole clusters")
    options.add_alternative(parser, "of the p-value and the interval of A - B (default: two-sided)")
    options.add_format(parser, "text", "json")
    options.add_explain(parser)
    options.add_report(
        parser,
        "write a self-contained HTML report: both kappas, their difference with its interval "
        "and p-value, the methods sentence to paste, the command line",
    )
    options.add_common(parser)


def run_compare(args: argparse.Namespace) -> int:
    """Paired bootstrap comparison of two prediction columns against one truth."""
    if len(args.pred) != 2:
        raise WkappaError(f"compare needs --pred exactly twice; got {len(args.pred)}.")
    pred_a, pred_b = args.pred
    options.check_resamples(args)
    options.note_same_column(args, [("--true", args.true), ("--pred", pred_a), ("--pred", pred_b)])
    cluster, named = cluster_keys(args)
    roles = {args.true: "--true", pred_a: "--pred", pred_b: "--pred"}
    if args.weight_col is not None:
        roles[args.weight_col] = "--weight-col"
    check_cluster_column(args.cluster, roles)
    source = open_file(args)
    columns = {"--true": args.true, "--pred": pred_a, "--pred ": pred_b}
    columns.update(named)
    if args.weight_col is not None:
        columns["--weight-col"] = args.weight_col
    keys = list(dict.fromkeys([args.true, pred_a, pred_b]))
    frame, counts = count_keys(
        source,
        [*keys, *cluster],
        options=columns,
        weight=args.weight_col,
        text=[*(keys if args.labels else []), *cluster],
        progress=options.progress_wanted(args),
    )
    # All three columns at once: 'Mild' in one prediction and 'mild' in the other is refused.
    counts = tidy_labels(source, frame, counts, keys, text_labels(args.labels), Spelling.of(args))
    omitted = 0
    read = int(counts[COUNT].sum())
    if args.cluster:  # a row dropped for a missing rating needs no id, as in Python
        rated = keys if args.nan_policy == "omit" else []
        refuse_missing_ids((source, frame), counts, args.cluster, "row", rated)
    if args.nan_policy == "omit":  # an item is compared only with all three ratings
        counts, omitted = drop_missing(counts, keys, source)
    labels = parse_labels(args.labels, counts, keys)
    common = {
        "source": source,
        "frame": frame,
        "by": None,
        "weighted": args.weight_col is not None,
        "labels": labels,
        "min_rating": args.min_rating,
        "max_rating": args.max_rating,
        "ordered": args.weights != "unweighted",
        "nan_policy": args.nan_policy,
    }
    # Each prediction goes through the checks (and row look-ups) of `score`; the union of
    # their categories is then the one category list of both kappas.
    found = [
        build_tables(counts=counts, true=args.true, pred=c, **common) for c in (pred_a, pred_b)
    ]
    shared = _shared_labels(labels, [f.labels for f in found])
    result = _paired_from_counts(
        counts,
        [args.true, pred_a, pred_b],
        shared,
        args.cluster,
        args.weight_col is not None,
        weights=args.weights,
        n_resamples=args.bootstrap,
        confidence_level=args.ci,
        rng=args.seed,
        alternative=args.alternative,
    )
    options.warn_few_resamples(args)
    rows = output.RowCount(read, omitted, blank=source.skipped)
    if args.format == "json":
        document = {
            "file": source.name,
            "true": args.true,
            "pred_a": pred_a,
            "pred_b": pred_b,
            "weight_column": args.weight_col,
            "omitted_rows": omitted,
            **rows.to_dict(),
            **({"cluster": args.cluster} if args.cluster else {}),
            **result.to_dict(),
            "n_categories": len(shared),
            "labels": shared,
        }
        print(output.to_json(document, schema="wkappa.compare/1"))
    compared = Compared(
        source.name, args.true, pred_a, pred_b, rows, shared, result, result.confidence_interval()
    )
    if args.format == "text":
        print(
            f"wkappa compare: {source.name}  (truth {args.true}, "
            f"n = {output.format_count(result.n)}, {output.weights_text(result.weights)})"
        )
        print(f"  {output.categories_line(shared)}")
        print(f"  file rows {rows.text()}")
        if args.weight_col:
            print(f"  sample weights  {args.weight_col}")
        if args.cluster:
            clusters = output.format_count(result.n_clusters)
            print(f"  clusters  {args.cluster} (G = {clusters}), resampled whole")
        print(output.render_rows(compare_rows(compared), left=(0, 2)))
        if args.explain:
            print()
            print(options.explained(result))
    if args.report:
        write_compare_report(args.report, compared, args)
        options.note(args, f"wrote {args.report}")
    return 0


def _paired_from_counts(
    counts: Any,
    columns: Sequence[str],
    shared: Sequence[Any],
    cluster: str | None,
    weighted: bool,
    **test_options: Any,
) -> Any:
    """The paired test from the counted distinct (truth, A, B[, cluster]) rows (``weighted``:
    their summed ``--weight-col`` weights count, else their rows).

    Never one entry per row: :func:`paired_kappa_test_from_cells` counts the cells in a
    dense K³ array up to ``DENSE_CUBE_CELLS`` cells and sparsely above, the cells and their
    order those of ``paired_kappa_test_from_table`` (the same result for a seed). With
    ``cluster``, the (G, K, K) tables of A and of B per cluster go to the cluster bootstrap
    of ``paired_kappa_test(..., cluster=...)`` (with weights: the clusters of positive total
    weight, their tables whole numbers where the weights sum to whole numbers, as there).
    """
    from .._stats import paired_kappa_test_from_cells, paired_kappa_test_from_cluster_tables

    index = []
    for column in columns:
        encoded = encode_ratings(counts[column], counts[column], labels=shared, ordered=False)
        assert encoded is not None
        index.append(encoded.true_index.astype(np.int64))
    repeat = counts[COUNT].to_numpy().astype(np.int64)
    frequency = counts[WEIGHT].to_numpy().astype(np.float64) if weighted else repeat
    if cluster is not None:
        codes, ids = cluster_codes(counts[cluster], cluster, unit="row")
        n_clusters = len(ids)
        k = len(shared)
        a, b = (
            stacked_tables(codes, n_clusters, index[0], pred, k, frequency) for pred in index[1:]
        )
        used = a.sum(axis=(1, 2)) > 0  # a cluster of total weight 0 has no item to draw
        a, b = a[used], b[used]
        if int(used.sum()) < 2:
            raise too_few_clusters(cluster, int(used.sum()))
        a, b = (_whole(tables, weighted) for tables in (a, b))
        return paired_kappa_test_from_cluster_tables(a, b, labels=shared, **test_options)
    return paired_kappa_test_from_cells(
        index[0], index[1], index[2], frequency, len(shared), **test_options, frequencies=_WEIGHTS
    )


def _whole(tables: np.ndarray, weighted: bool) -> np.ndarray:
    """Counted tables as int64, and summed weights too where they are all whole numbers."""
    if weighted and not np.array_equal(tables, np.rint(tables)):
        return tables
    whole: np.ndarray = np.rint(tables).astype(np.int64)
    return whole


def _shared_labels(labels: list[Any] | None, found: list[Sequence[Any]]) -> list[Any]:
    """The categories of both comparisons: the given labels, else the union of what was found."""
    if labels is not None:
        return labels
    ranges = [f for f in found if isinstance(f, range)]
    if len(ranges) == len(found):
        return list(range(min(r.start for r in ranges), max(r.stop for r in ranges)))
    return sorted(set().union(*found))
