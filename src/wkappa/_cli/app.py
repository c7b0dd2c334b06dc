"""The ``wkappa`` command line (also ``python -m wkappa``).

Subcommands: ``score`` (kappa of two columns with its standard error, interval, test and
tables; ``--by`` per group; text, JSON or CSV; an HTML report), ``thresholds`` (exact
kappa-optimal cut points for a score column, optionally applied to another file), ``compare``
(two predictions against one truth, paired bootstrap), ``agree`` (several raters; text, JSON,
CSV, an HTML report) and ``demo``. Bad input is one line on
stderr and exit code 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import re
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from .. import __version__
from .._core import THRESHOLD_HINT
from ..exceptions import WkappaError
from .clusters import add_cluster
from .options import (
    add_alternative,
    add_ci,
    add_command,
    add_common,
    add_explain,
    add_format,
    add_kappa0,
    add_resamples,
    add_two_columns,
    check_explain,
    check_one_interval,
    explained,
    interval_method,
    note,
    plot_file,
    progress_wanted,
)

__all__ = ["main"]


def _column_options(**columns: str | None) -> dict[str, str]:
    return {f"--{k.replace('_', '-')}": v for k, v in columns.items() if v is not None}


def _interval(result: Any, args: argparse.Namespace, method: Any) -> Any:
    from . import output

    ci = result.confidence_interval(args.ci, method=method)
    interval = (float(ci.low), float(ci.high), float(args.ci), ci.method)
    return output.Scored(result, *interval, ci.n_resamples, ci.n_undefined)


def _score(args: argparse.Namespace) -> int:
    from .._stats import check_kappa0, kappa_result, kappa_test_from_table
    from . import output
    from .io import count_keys, open_source
    from .labels import Spelling, parse_labels
    from .tables import build_tables, shifted_scale

    _check_cluster(args)
    check_one_interval(args, "drop one (--bootstrap-method chooses the bootstrap interval)")
    method = interval_method(args)  # one seed: the table's interval is the explanation's
    source = open_source(args.file, args.input_format, args.separator, args.na_values)
    groups = [name for name in (args.by, args.cluster) if name]
    keys = [args.true, args.pred, *groups]
    options = _column_options(
        true=args.true, pred=args.pred, by=args.by, cluster=args.cluster, weight_col=args.weight_col
    )
    text = [*groups, *([args.true, args.pred] if args.labels else [])]
    frame, counts = count_keys(
        source,
        keys,
        options=options,
        weight=args.weight_col,
        text=text,
        progress=progress_wanted(args),
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

    shifted = shifted_scale(tables, args.true, args.pred)
    if shifted is not None and args.labels is None and args.min_rating is None:
        note(args, shifted)

    def scored(table: Any, clusters: Any = None) -> Any:
        if clusters is not None:  # the cluster-robust test of wkappa.kappa_test(cluster=...)
            labels, kappa0 = tuple(tables.labels), check_kappa0(args.kappa0)
            result = kappa_result(clusters, args.weights, labels, args.alternative, kappa0)
            return _interval(result, args, method)
        result = kappa_test_from_table(
            table,
            weights=args.weights,
            labels=tables.labels,
            kappa0=args.kappa0,
            alternative=args.alternative,
        )
        return _interval(result, args, method)

    overall = scored(tables.overall, tables.clusters)
    groups = []
    for value, result in _group_results(args, tables):
        group = _interval(result, args, method)
        if result.n_clusters == 1:  # a (cluster) bootstrap of one cluster is no interval
            group = dataclasses.replace(group, low=math.nan, high=math.nan)
        groups.append((value, group))
    _note_wald_past_bounds(args, [*groups, ("(all)" if args.by else "", overall)])
    run = output.ScoreRun(
        source.name, args.true, args.pred, overall, groups, args.by, args.weight_col,
        tables.omitted, output.RowCount(tables.read, tables.omitted), args.cluster,
    )  # fmt: skip
    if args.format == "json":
        print(output.score_json(run))
    elif args.format == "csv":
        print(output.score_csv(run))
    else:
        print(output.score_text(run))
        if args.explain:
            print()
            columns = {"y_true": f"--true column {args.true!r}"}
            columns["y_pred"] = f"--pred column {args.pred!r}"
            print(explained(overall.result, args.ci, method=method, columns=columns))
    if args.report:
        from .report import write_report

        write_report(args.report, run, args)
        note(args, f"wrote {args.report}")
    if args.plot:
        from .report import save_plot

        save_plot(overall.result, args.plot, (args.true, args.pred))
        note(args, f"wrote {args.plot}")
    return 0


def _group_results(args: argparse.Namespace, tables: Any) -> list[tuple[Any, Any]]:
    """The KappaResult of each ``--by`` group (the options are checked by the overall result).

    Without ``--cluster``, all groups at once from the (G, K, K) stack: each result is bit for
    bit that of its table alone. With it, each group's standard error is cluster-robust over
    its own clusters; a group with a single cluster has an undefined standard error, interval
    and test (its kappa is defined), as in ``frames.kappa_by_group(..., cluster=...)``, and
    one note names such groups."""
    from .._stats import check_kappa0, cluster_robust, kappa_result, kappa_results
    from .labels import label_text

    labels, kappa0 = tuple(tables.labels), check_kappa0(args.kappa0)
    values = [value for value, _ in tables.groups]
    if not tables.group_clusters:
        if not values:
            return []
        found = kappa_results(tables.group_stack, args.weights, labels, args.alternative, kappa0)
        return list(zip(values, found, strict=True))
    results = []
    lone = []
    for value, clusters in zip(values, tables.group_clusters, strict=True):
        if len(clusters) < 2:
            lone.append(label_text(value))
            base = kappa_result(
                clusters.sum(axis=0), args.weights, labels, args.alternative, kappa0
            )
            results.append((value, cluster_robust(base, clusters)))
        else:
            results.append(
                (value, kappa_result(clusters, args.weights, labels, args.alternative, kappa0))
            )
    if lone:
        many = len(lone) > 1
        shown = ", ".join(map(repr, lone[:5])) + (
            f" and {len(lone) - 5} more" if len(lone) > 5 else ""
        )
        note(
            args,
            f"note: {f'{len(lone)} ' if many else ''}--by {args.by} "
            f"{f'groups ({shown}) have' if many else f'group {shown} has'} a single "
            f"--cluster {args.cluster} cluster{' each' if many else ''}; a cluster-robust "
            f"standard error needs at least 2, so {'their' if many else 'its'} standard error, "
            f"interval and test are undefined ({'their' if many else 'its'} kappa is shown).",
        )
    return results


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


def _note_wald_past_bounds(args: argparse.Namespace, scored: list[tuple[Any, Any]]) -> None:
    """A note when the asymptotic (Wald) interval passes kappa's bounds [-1, 1]: it is not
    clipped (as SAS prints it), and a limit of 1.0062 cannot go into a paper as it is."""
    from .labels import label_text

    if args.bootstrap or args.ci_method != "asymptotic":
        return
    past = [value for value, s in scored if s.high > 1 or -math.inf < s.low < -1]
    if past:
        where = "" if past == [""] else f" (--by {args.by}: {', '.join(map(label_text, past))})"
        remedy = (
            "--bootstrap N (a cluster bootstrap) stays inside them."
            if args.cluster
            else "--ci-method score stays inside them and holds its level for small n."
        )
        note(
            args,
            f"note: the asymptotic interval passes kappa's bounds [-1, 1]{where}; it is not "
            f"clipped. {remedy}",
        )


def _interval_options(parser: argparse.ArgumentParser) -> None:
    add_ci(parser)
    parser.add_argument(
        "--ci-method",
        choices=("asymptotic", "score", "fisher-z"),
        default="asymptotic",
        help="interval without bootstrap: asymptotic (Wald, as SAS), score (holds its level "
        "for small n, e.g. under 100 pairs) or fisher-z (default: asymptotic)",
    )
    add_resamples(
        parser, 0, "bootstrap the interval with N resamples (default: no bootstrap, --ci-method)"
    )
    parser.add_argument(
        "--bootstrap-method",
        choices=("percentile", "bca"),
        default="percentile",
        help="bootstrap interval (default: percentile)",
    )


class _Parser(argparse.ArgumentParser):
    """argparse with its errors (a bad value, an unknown choice, a missing option) on one
    line with a hint, as every other error of the command line, instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        hint = f"Hint: {self.prog} --help lists the options."
        option = re.match(r"argument (--[\w-]+)(?:/\S+)?: expected one argument", message)
        if option:  # its value starts with '-' (a column named '--by', -99), or is missing
            hint = (
                f"Hint: {option[1]} takes a value; one that starts with '-' (a column named "
                f"'--by', -99) is given as {option[1]}=VALUE."
            )
        self.exit(2, f"{self.prog}: error: {message}. {hint}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="wkappa",
        description="Cohen's weighted kappa and quadratic weighted kappa (QWK) of rating files.",
        epilog="Exit codes: 0 success, 2 bad input or options, 1 internal error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    score = add_command(
        sub,
        "score",
        "kappa of two columns, with SE, CI, test and tables",
        "Weighted kappa of two rating columns of a file.",
        _score,
    )
    add_two_columns(score, "--pred", "column of rater B / the prediction (columns of the table)")
    score.add_argument("--weight-col", metavar="COL", help="column of sample weights")
    score.add_argument("--by", metavar="COL", help="also score each value of this column")
    add_cluster(
        score,
        "a cluster-robust standard error, interval and test over the clusters (with --by, "
        "each group's over its own clusters)",
    )
    _interval_options(score)
    add_kappa0(score)
    add_alternative(score, "of the p-value and the interval (default: two-sided)")
    add_explain(score)
    add_format(score, "text", "json", "csv")
    score.add_argument(
        "--report", metavar="OUT.html", help="write a self-contained HTML report with heatmaps"
    )
    score.add_argument(
        "--plot",
        metavar="OUT.png",
        type=plot_file,
        help="save the heatmaps of O, E and W*(O-E) (.png, .pdf or .svg)",
    )
    add_common(score)

    from .agree import add_agree_parser

    add_agree_parser(sub)

    from .judge import add_judge_parser

    add_judge_parser(sub)

    from .plan import add_plan_parser

    add_plan_parser(sub)

    from .icc import add_icc_parser

    add_icc_parser(sub)

    from .thresholds import add_thresholds_parser

    add_thresholds_parser(sub)

    from .compare import add_compare_parser

    add_compare_parser(sub)

    from .demo import add_demo_parser

    add_demo_parser(sub, main)
    return parser


# How the library's warnings say what it returns, as the command line shows it (undefined).
_WARNING_WORDS = (
    (" Returning nan (set zero_division to choose).", " It is shown as undefined."),
    (" Returning nan for them.", " They are shown as undefined."),
    (" Returning nan.", " It is shown as undefined."),
    (" zscore and pvalue are nan.", " z and the p-value are shown as undefined."),
    (" the comparison is nan.", " the comparison is shown as undefined."),
    ("Hint: use method='percentile'.", "Hint: --bootstrap-method percentile."),
)


def _warning(message: Any, category: Any, *_: Any, **__: Any) -> None:
    """A library warning on one line of stderr, in the command line's words."""
    text = _one_line(message, options=True)
    for words, shown in _WARNING_WORDS:
        text = text.replace(words, shown)
    print(f"wkappa: warning: {text}", file=sys.stderr)


# The library's hints and parameter names, as the command line spells them.
_OPTION_NAMES = (
    (
        THRESHOLD_HINT,
        "Hint: if the column holds scores, `wkappa thresholds FILE --true COL --score COL` fits "
        "the cut points that turn them into grades (--apply grades another file); or round "
        "the column to whole grades.",
    ),
    (
        "Hint: nan_policy='omit' drops incomplete pairs; nan_policy='propagate' returns nan.",
        "Hint: --nan-policy omit drops rows with a missing rating.",
    ),
    ("nan_policy='omit'", "--nan-policy omit"),
    ("confidence_level=", "--ci "),
    ("`confidence_level`", "--ci"),
    ("`n_resamples`", "--bootstrap"),
    ("`rng`", "--seed"),
    (
        " (or use an ordered pandas Categorical / polars Enum); unweighted kappa accepts them "
        "as they are",
        "; --weights unweighted accepts them as they are",
    ),
    (
        " (or use an ordered pandas Categorical / polars Enum); an unweighted coefficient "
        "accepts them as they are",
        "; --weights unweighted accepts them as they are",
    ),
    ("add it to labels= or", "add it to --labels or"),
    ("labels=[...]", "--labels A,B,C"),
    ("labels=", "--labels "),
    ("`labels`", "--labels"),
    ("`min_rating`", "--min-rating"),
    ("`max_rating`", "--max-rating"),
    ("`sample_weight`", "--weight-col"),
    ("`y_true`", "--true"),
    ("`ratings` contains", "the ratings contain"),
    ("`ratings`", "the ratings"),
    (", or None / inf for no correction;", ";"),
    ("`population_size`", "--population-size"),
    ("`y_score`", "--score"),
    ("`weights`", "--weights"),
    ("`kappa0`", "--kappa0"),
    ("alternative='greater'", "--alternative greater"),
    ("alternative='less'", "--alternative less"),
)


def _joined_values(argv: list[str]) -> list[str]:
    """``--labels -3,-2`` as ``--labels=-3,-2`` (and ``--table -1,2;3,4``...): argparse
    takes a value that starts with '-' and is not a plain number for an option and would
    refuse it; no option starts with '-' and a digit."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        option = argv[i]
        if (
            option.startswith("--")
            and "=" not in option
            and i + 1 < len(argv)
            and re.match(r"-[\d.]", argv[i + 1])
        ):
            out.append(f"{option}={argv[i + 1]}")
            i += 2
            continue
        out.append(option)
        i += 1
    return out


def _one_line(exc: BaseException, options: bool = False) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    if options:
        for name, option in _OPTION_NAMES:
            text = text.replace(name, option)
    return text


def _unknown_options(parser: argparse.ArgumentParser, args: Any, extras: list[str]) -> str:
    """One line for arguments argparse did not recognise, with "did you mean" for options."""
    import difflib

    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = getattr(args, "command", None)
    chosen = sub.choices.get(command) if sub is not None and command else None
    known = [o for a in (chosen or parser)._actions for o in a.option_strings if o.startswith("--")]
    parts = []
    rest = list(extras)
    while rest:
        extra = rest.pop(0)
        name = extra.split("=", 1)[0]
        if name.startswith("--") and "=" not in extra and rest and not rest[0].startswith("-"):
            extra = f"{extra} {rest.pop(0)}"  # the option's value
        close = []
        if name.startswith("-"):
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
        parts.append(f"{extra!r} (did you mean {close[0]}?)" if close else repr(extra))
    prefix = f"wkappa {command}" if command else "wkappa"
    return (
        f"{prefix}: error: unrecognized argument{'s' if len(parts) > 1 else ''} "
        f"{', '.join(parts)}. Hint: wkappa {command or ''} --help lists the options."
    ).replace("  ", " ")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input, 1 internal error)."""
    parser = _parser()
    given = sys.argv[1:] if argv is None else [str(word) for word in argv]
    args, extras = parser.parse_known_args(_joined_values(given))
    args.command_line = given  # as typed, for the reports' "Reproduce" section
    if extras:
        print(_unknown_options(parser, args, extras), file=sys.stderr)
        return 2
    debug = getattr(args, "debug", False)
    try:
        check_explain(args)
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            warnings.showwarning = _warning
            return int(args.func(args))
    except (WkappaError, ImportError) as exc:
        if debug:
            raise
        text = _one_line(exc, options=True)
        if isinstance(exc, ImportError) and "pyarrow" in text and "wkappa[" not in text:
            # The `cli` extra has no pyarrow: polars reads and writes the formats itself.
            text += " Hint: pip install pyarrow (or 'wkappa[frames]', which includes it)."
        print(f"wkappa: error: {text}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `wkappa ... | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        if debug:
            raise
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"wkappa: error: {where}{exc.strerror or _one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:  # also a Rust panic from polars (a BaseException)
        if debug or isinstance(exc, SystemExit):
            raise
        if "invalid utf-8" in str(exc) and getattr(args, "file", None):  # past the first MiB
            from .io import not_utf8

            print(f"wkappa: error: {not_utf8(args.file)}", file=sys.stderr)
            return 2
        print(
            f"wkappa: internal error: {type(exc).__name__}: {_one_line(exc)} "
            "(rerun with --debug for the traceback)",
            file=sys.stderr,
        )
        return 1
