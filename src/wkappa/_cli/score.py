"""``wkappa score``: weighted kappa of two columns of a file, with its standard error,
interval, test and tables; ``--by`` scores each group, ``--cluster`` makes them cluster-robust;
text, JSON or CSV, ``--explain`` (with ``--by``, each group's too), an HTML report and heatmaps.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import shlex
import warnings
from typing import Any

from ..exceptions import FewClustersWarning, UndefinedKappaWarning, WkappaError
from . import options
from .clusters import add_cluster

__all__ = ["add_score_parser", "run_score"]

_SUMMARY = "kappa of two columns, with SE, CI, test and tables"
_DESCRIPTION = "Weighted kappa of two rating columns of a file."
# ``--explain`` with ``--by`` explains every group's kappa after the overall one; more groups
# than this (some 50 lines each) would be unreadable: they are refused once the file is
# read, before any kappa is computed or anything printed.
EXPLAINED_GROUPS = 20
# The fix offered when --weight-col gives non-integer weighted counts without --cluster.
_WEIGHT_HINT = (
    "Hint: use a column of whole-number weights (counts), or add --cluster COL with a column "
    "of ids (a row id gives one cluster per row) for the cluster-robust standard error, which "
    "does not depend on the scale of the weights; the kappa alone takes any non-negative "
    "weights (wkappa.weighted_kappa in Python)."
)


def add_score_parser(sub: Any) -> None:
    """Register ``score`` on the sub-command parser."""
    score = options.add_command(sub, "score", _SUMMARY, _DESCRIPTION, run_score)
    options.add_two_columns(
        score, "--pred", "column of rater B / the prediction (columns of the table)"
    )
    options.add_weight_col(score)
    score.add_argument("--by", metavar="COL", help="also score each value of this column")
    add_cluster(
        score,
        "a cluster-robust standard error, interval and test over the clusters (with --by, "
        "each group's over its own clusters)",
    )
    score.add_argument(
        "--pooling",
        choices=("inverse-variance", "pairs"),
        help="the overall kappa across the --by groups: inverse-variance (SAS PROC FREQ's "
        "weights, 1 / each group's variance) or pairs (each group's number of pairs; its "
        "interval keeps its level with --cluster) (default: inverse-variance)",
    )
    _add_interval_options(score)
    options.add_kappa0(score)
    options.add_alternative(score, "of the p-value and the interval (default: two-sided)")
    options.add_explain(score)
    options.add_format(score, "text", "json", "csv")
    options.add_report(score, "write a self-contained HTML report with heatmaps")
    options.add_plot(score, "save the heatmaps of O, E and W*(O-E)")
    options.add_common(score)


def _add_interval_options(parser: argparse.ArgumentParser) -> None:
    """``--ci``, ``--ci-method``, ``--bootstrap`` with ``--seed``, and ``--bootstrap-method``."""
    options.add_ci(parser)
    parser.add_argument(
        "--ci-method",
        choices=("asymptotic", "score", "fisher-z"),
        default="asymptotic",
        help="interval without bootstrap: asymptotic (Wald, as SAS), score (holds its level "
        "for small n, e.g. under 100 pairs) or fisher-z (default: asymptotic)",
    )
    options.add_resamples(
        parser, 0, "bootstrap the interval with N resamples (default: no bootstrap, --ci-method)"
    )
    parser.add_argument(
        "--bootstrap-method",
        choices=("percentile", "bca"),
        help="bootstrap interval, with --bootstrap N (default: percentile)",
    )


def _column_options(**columns: str | None) -> dict[str, str]:
    return {f"--{k.replace('_', '-')}": v for k, v in columns.items() if v is not None}


def _interval(result: Any, args: argparse.Namespace, method: Any) -> Any:
    from . import score_output

    ci = result.confidence_interval(args.ci, method=method)
    interval = (float(ci.low), float(ci.high), float(args.ci), ci.method)
    return score_output.Scored(result, *interval, ci.n_resamples, ci.n_undefined)


def _group_intervals(found: list[tuple[Any, Any]], args: argparse.Namespace, method: Any) -> Any:
    """The interval of each group's result: the score intervals of all groups from one search
    over their stack (each bit for bit its result's own), the others one by one."""
    from .._stats import score_intervals, warn_undefined_intervals
    from . import score_output
    from .labels import label_text

    options.warn_few_resamples(args)
    names = [repr(label_text(value)) for value, _ in found]
    named = (names, _by_option(args.by)) if args.by else ((), "")
    if method == "fisher-z" and not args.cluster:  # one warning for all groups, not one each
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            scored = [_interval(result, args, method) for _, result in found]
        warn_undefined_intervals(
            "fisher-z",
            [one.result.statistic for one in scored],
            [one.low for one in scored],
            [one.high for one in scored],
            [one.result.n for one in scored],
            *named,
        )
        return scored
    if method != "score" or args.cluster:
        return _each_group(args, found, lambda result: _interval(result, args, method))
    intervals = score_intervals([result for _, result in found], args.ci, *named)
    return [
        score_output.Scored(result, ci.low, ci.high, float(args.ci), ci.method)
        for (_, result), ci in zip(found, intervals, strict=True)
    ]


def run_score(args: argparse.Namespace) -> int:
    """Score two columns of a file (``--by`` per group, ``--cluster`` cluster-robust) and
    print the result; optionally write the HTML report and the heatmaps."""
    from .._stats import (
        Frequencies,
        check_frequencies,
        check_kappa0,
        kappa_result,
        kappa_test_from_table,
    )
    from . import output, score_output
    from .io import count_keys, open_file
    from .labels import Spelling, label_text, parse_labels
    from .tables import build_tables, shifted_scale

    _check_cluster(args)
    _check_pooling(args)
    options.check_one_interval(args, "drop one (--bootstrap-method chooses the bootstrap interval)")
    options.check_resamples(args, "999")
    options.note_same_column(args, [("--true", args.true), ("--pred", args.pred)])
    method = options.interval_method(args)  # one seed: the table's interval is the explanation's
    source = open_file(args)
    group_columns = [name for name in (args.by, args.cluster) if name]
    keys = [args.true, args.pred, *group_columns]
    named = _column_options(
        true=args.true, pred=args.pred, by=args.by, cluster=args.cluster, weight_col=args.weight_col
    )
    text = [*group_columns, *([args.true, args.pred] if args.labels else [])]
    frame, counts = count_keys(
        source,
        keys,
        options=named,
        weight=args.weight_col,
        text=text,
        progress=options.progress_wanted(args),
    )
    tables = build_tables(
        source,
        frame,
        counts,
        true=args.true,
        pred=args.pred,
        by=args.by,
        weighted=args.weight_col is not None,
        labels=parse_labels(args.labels, counts, [args.true, args.pred]),
        min_rating=args.min_rating,
        max_rating=args.max_rating,
        ordered=args.weights != "unweighted",
        nan_policy=args.nan_policy,
        spelling=Spelling.of(args),
        cluster=args.cluster,
    )
    _check_explained_groups(args, len(tables.groups))

    shifted = shifted_scale(tables, args.true, args.pred)
    if shifted is not None and args.labels is None and args.min_rating is None:
        options.note(args, shifted)

    labels = tuple(tables.labels)
    if tables.clusters is None:  # frequency weights, as wkappa.kappa_test without cluster=
        refusal = Frequencies("--weight-col", _WEIGHT_HINT)
        check_frequencies(tables.overall, refusal, labels)
        if tables.group_stack is not None:
            names = [f"{label_text(value)!r} ({_by_option(args.by)})" for value, _ in tables.groups]
            check_frequencies(tables.group_stack, refusal, labels, names)
    if tables.clusters is not None:  # the cluster-robust test of wkappa.kappa_test(cluster=...)
        kappa0 = check_kappa0(args.kappa0)
        result = kappa_result(tables.clusters, args.weights, labels, args.alternative, kappa0)
        _note_single_pair_clusters(args, tables.clusters)
    else:
        result = kappa_test_from_table(
            tables.overall,
            weights=args.weights,
            labels=tables.labels,
            kappa0=args.kappa0,
            alternative=args.alternative,
        )
    overall = _interval(result, args, method)
    groups = []
    found = _group_results(args, tables, labels, overall.result.kappa0)
    for (value, group_result), group in zip(
        found, _group_intervals(found, args, method), strict=True
    ):
        if group_result.n_clusters == 1:  # a (cluster) bootstrap of one cluster is no interval
            group = dataclasses.replace(group, low=math.nan, high=math.nan)
        groups.append((value, group))
    _note_wald_past_bounds(args, [*groups, ("(all)" if args.by else "", overall)])
    read = output.RowCount(tables.read, tables.omitted, blank=source.skipped)
    run = score_output.ScoreRun(
        source.name, args.true, args.pred, overall, groups, args.by, args.weight_col,
        tables.omitted, read, args.cluster, tables.spanning, args.pooling or "inverse-variance",
    )  # fmt: skip
    _note_pooling(args, run)
    if args.format == "json":
        print(score_output.score_json(run))
    elif args.format == "csv":
        print(score_output.score_csv(run))
    else:
        print(score_output.score_text(run))
        if args.explain:
            print()
            print(_explanations(args, overall, groups, method))
    if args.report:
        from .report import write_report

        write_report(args.report, run, args)
        options.note(args, f"wrote {args.report}")
    if args.plot:
        from .report import save_plot

        save_plot(overall.result, args.plot, (args.true, args.pred))
        options.note(args, f"wrote {args.plot}")
    return 0


def _check_explained_groups(args: argparse.Namespace, n_groups: int) -> None:
    """Refuse ``--explain`` with more ``--by`` groups than :data:`EXPLAINED_GROUPS`."""
    if not (args.explain and args.by) or n_groups <= EXPLAINED_GROUPS:
        return
    raise WkappaError(
        f"--explain with --by explains each group's kappa, and {_by_option(args.by)} has "
        f"{n_groups:,} "
        f"groups: at most {EXPLAINED_GROUPS} are explained (some 50 lines each). Hint: drop "
        "--explain (the table has each group's kappa, standard error and interval), or run "
        "--explain without --by on a file of the rows of the groups you want explained."
    )


def _explanations(
    args: argparse.Namespace, overall: Any, groups: list[tuple[Any, Any]], method: Any
) -> str:
    """What ``--explain`` prints: the overall result's explanation; with ``--by``, under the
    heading "All pairs:", then each group's under "--by COL = VALUE:", in the table's order.
    Each explains the table's interval (``args.ci`` and ``method``)."""
    from .labels import label_text

    columns = {"y_true": f"--true column {args.true!r}", "y_pred": f"--pred column {args.pred!r}"}

    def explained(result: Any, interval: Any = method) -> str:
        return options.explained(result, args.ci, method=interval, columns=columns)

    if not args.by:
        return explained(overall.result)
    blocks = [f"All pairs:\n{explained(overall.result)}"]
    for value, group in groups:
        # A group of a single cluster has no interval (its row says undefined, see run_score):
        # the asymptotic one, undefined too, rather than a bootstrap of its one cluster.
        lone = group.result.n_clusters == 1
        text = explained(group.result, "asymptotic" if lone else method)
        blocks.append(f"{_by_option(args.by)} = {label_text(value)}:\n{text}")
    return "\n\n".join(blocks)


def _group_results(
    args: argparse.Namespace, tables: Any, labels: tuple[Any, ...], kappa0: float
) -> list[tuple[Any, Any]]:
    """The KappaResult of each ``--by`` group, with the categories and the checked ``kappa0``
    of the overall result (which checked the options).

    Without ``--cluster``, all groups at once from the (G, K, K) stack: each result is bit for
    bit that of its table alone. With it, each group's standard error is cluster-robust over
    its own clusters; a group with a single cluster has an undefined standard error, interval
    and test (its kappa is defined), as in ``frames.kappa_by_group(..., cluster=...)``, and
    one note names such groups. A ``--kappa0`` outside the range of some groups' margins
    gets one warning naming them."""
    from .._stats import warn_results_out_of_reach
    from .labels import label_text

    results = _results_of_groups(args, tables, labels, kappa0)
    names = [repr(label_text(value)) for value, _ in results]
    warn_results_out_of_reach([result for _, result in results], names, _by_option(args.by))
    return results


def _results_of_groups(
    args: argparse.Namespace, tables: Any, labels: tuple[Any, ...], kappa0: float
) -> list[tuple[Any, Any]]:
    """The results of :func:`_group_results`, with their warnings but for that of a
    ``--kappa0`` outside a group's range."""
    from .._stats import (
        cluster_robust,
        kappa_result,
        kappa_results,
        reach_warning_ignored,
        warn_few_clusters,
        warn_single_cluster_groups,
    )
    from .labels import label_text

    values = [value for value, _ in tables.groups]
    taken = [v for v in values if v is not None and label_text(v) in ("(all)", "(missing)")]
    if taken:  # the output's names of the overall row and of a missing --by value
        raise WkappaError(
            f"{_by_option(args.by)} has a group named {label_text(taken[0])!r}, which the "
            "output uses "
            "for the overall row ('(all)') and the rows without a group ('(missing)'). Hint: "
            "rename that group in the file."
        )

    def alone(table: Any) -> Any:
        with reach_warning_ignored():  # (given once for all the groups)
            return kappa_result(table, args.weights, labels, args.alternative, kappa0)

    if not tables.group_clusters:
        if not values:
            return []
        stack = tables.group_stack
        with warnings.catch_warnings(record=True) as caught:  # said below, naming the groups
            warnings.simplefilter("always")
            found = kappa_results(stack, args.weights, labels, args.alternative, kappa0)
        results = list(zip(values, found, strict=True))
        if caught:  # the groups that warn, each alone (bit for bit its result in the stack)
            warned = [i for i, r in enumerate(found) if math.isnan(r.statistic + r.test_statistic)]
            _each_group(args, [(values[i], stack[i]) for i in warned], alone)
        return results

    def clustered(clusters: Any) -> Any:
        if len(clusters) < 2:  # an undefined standard error, interval and test (warned below)
            return cluster_robust(alone(clusters.sum(axis=0)), clusters)
        return alone(clusters)

    with warnings.catch_warnings():  # one warning for all groups with few clusters, below
        warnings.simplefilter("ignore", FewClustersWarning)
        pairs = list(zip(values, tables.group_clusters, strict=True))
        results = list(zip(values, _each_group(args, pairs, clustered), strict=True))
    counts = [len(clusters) for clusters in tables.group_clusters]
    warn_few_clusters(counts, names=[label_text(value) for value in values])
    lone = [label_text(value) for value, g in zip(values, counts, strict=True) if g < 2]
    if lone:
        warn_single_cluster_groups(*_named_groups(args.by, lone), f"--cluster {args.cluster}")
    return results


def _by_option(by: str) -> str:
    """``--by COL`` as the messages name the option, the column quoted as a shell needs it
    (``--by 'Site '``, its header's spaces and all)."""
    return f"--by {shlex.quote(by)}"


def _named_groups(by: str, names: list[str]) -> tuple[str, bool]:
    """``--by site group 'x'``, or ``3 --by site groups ('x', 'y', 'z')`` (five named at most)
    and True: several."""
    shown = ", ".join(map(repr, names[:5]))
    if len(names) > 5:
        shown += f" and {len(names) - 5} more"
    if len(names) == 1:
        return f"{_by_option(by)} group {shown}", False
    return f"{len(names)} {_by_option(by)} groups ({shown})", True


def _each_group(args: argparse.Namespace, groups: list[tuple[Any, Any]], compute: Any) -> list[Any]:
    """``compute(item)`` of each ``(group value, item)``, in order; each warning it gives is
    given once, after the groups that gave it ("--by site group 'x': Kappa is undefined:
    ..."), so that a table of many groups says which one it is about."""
    from .labels import label_text

    found: dict[tuple[str, type[Warning]], list[str]] = {}
    out = []
    for value, item in groups:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out.append(compute(item))
        for warning in caught:
            names = found.setdefault((str(warning.message), warning.category), [])
            names += [] if label_text(value) in names else [label_text(value)]
    for (message, category), names in found.items():
        warnings.warn(f"{_named_groups(args.by, names)[0]}: {message}", category, stacklevel=2)
    return out


def _check_cluster(args: argparse.Namespace) -> None:
    """``--cluster``: refuse an interval that does not apply to clustered pairs, and a cluster
    column that is also read as ratings, weights or the ``--by`` groups."""
    if args.cluster is None:
        return
    if args.ci_method != "asymptotic":
        raise WkappaError(
            f"--ci-method {args.ci_method} does not apply with --cluster (it assumes "
            "independent pairs). Hint: the default asymptotic interval (estimate ± t(G - 1) x "
            "the cluster-robust SE) or --bootstrap N (a cluster bootstrap, "
            "--bootstrap-method percentile|bca)."
        )
    from .clusters import check_cluster_column

    read = {args.true: "--true", args.pred: "--pred"}
    if args.weight_col is not None:
        read[args.weight_col] = "--weight-col"
    check_cluster_column(args.cluster, read, by=args.by)


def _check_pooling(args: argparse.Namespace) -> None:
    """Refuse ``--pooling`` without ``--by``: it weights the groups' kappas, and there are none."""
    if args.pooling is not None and args.by is None:
        raise WkappaError(
            f"--pooling {args.pooling} weights the --by groups in their overall kappa, and "
            "without --by there are no groups. Hint: add --by COL, or drop --pooling."
        )


def _note_single_pair_clusters(args: argparse.Namespace, clusters: Any) -> None:
    """A note when every ``--cluster`` id holds one pair (of counted rows, no --weight-col):
    the clusters are then the pairs, which ``--cluster`` takes as independent, and the column
    may not be the one that groups the rows (an eye's id, not the patient's)."""
    sizes = clusters.sum(axis=(1, 2))
    if args.weight_col is not None or not bool((sizes == 1).all()):
        return
    options.note(
        args,
        f"note: each of the {len(sizes):,} clusters of --cluster {args.cluster} holds a single "
        "pair, so the pairs are taken as independent: the cluster-robust standard error is the "
        "ordinary one times sqrt(n / (n - 1)). If several rows belong to one patient, scan or "
        "task, --cluster should name the column of its id.",
    )


def _note_pooling(args: argparse.Namespace, run: Any) -> None:
    """With ``--cluster`` and no ``--pooling``, a note under a summary across the groups (as
    ``wkappa.stratified_kappa_test(..., cluster=...)`` warns without ``pooling=``): SAS's
    inverse-variance weights follow the groups' noisy cluster-robust variances."""
    from . import score_output

    if args.cluster is None or args.pooling is not None or args.by is None:
        return
    if score_output.pooled(run) is None:  # no summary: fewer than 2 groups, or spanned
        return
    options.note(
        args,
        "note: with --cluster, the overall kappa across the --by groups weights each group "
        "by 1 / its cluster-robust variance (as SAS PROC FREQ), which follows those noisy "
        "variances, and its interval is too narrow unless every group has many clusters. "
        "--pooling pairs weights the groups by their pairs and keeps its coverage; "
        "--pooling inverse-variance keeps SAS's without this note.",
    )


def _note_wald_past_bounds(args: argparse.Namespace, scored: list[tuple[Any, Any]]) -> None:
    """A note when the asymptotic (Wald) interval passes kappa's bounds [-1, 1]: it is not
    clipped (as SAS prints it), and a limit of 1.0062 cannot go into a paper as it is."""
    from .labels import label_text

    if args.bootstrap or args.ci_method != "asymptotic":
        return
    past = [value for value, s in scored if s.high > 1 or -math.inf < s.low < -1]
    # A zero-width interval (a standard error of 0, as with perfect agreement) claims a
    # certainty that a few pairs cannot give.
    zero = [value for value, s in scored if s.low == s.high and math.isfinite(s.low)]
    if zero:
        where = (
            "" if zero == [""] else f" ({_by_option(args.by)}: {', '.join(map(label_text, zero))})"
        )
        remedy = "" if args.cluster else " --ci-method score gives an interval of nonzero width."
        options.note(
            args,
            f"note: the asymptotic interval has zero width{where}: its standard error is 0 "
            "(as with perfect agreement), which does not mean kappa is known exactly from "
            f"these pairs.{remedy}",
        )
    if past:
        where = (
            "" if past == [""] else f" ({_by_option(args.by)}: {', '.join(map(label_text, past))})"
        )
        remedy = (
            "--bootstrap N (a cluster bootstrap) stays inside them."
            if args.cluster
            else "--ci-method score stays inside them and holds its level for small n."
        )
        options.note(
            args,
            f"note: the asymptotic interval passes kappa's bounds [-1, 1]{where}; it is not "
            f"clipped. {remedy}",
        )
