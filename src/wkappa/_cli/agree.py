"""``wkappa agree``: agreement of several raters in a file (wide or long)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any, cast

from .._core import COEFFICIENTS, GWET_WEIGHTS, KRIPPENDORFF_LEVELS, Coefficient, known_raters
from .._stats import AGREEMENT_INTERVALS, agreement, krippendorff_alpha, level_percent
from ..exceptions import WkappaError
from . import options
from .clusters import (
    add_cluster,
    cluster_ids,
    cluster_keys,
    excluded,
)
from .ids import ITEM_LAYOUT
from .io import file_name, polars
from .labels import all_missing, parse_labels
from .methods import pairwise_weights, weights_label
from .output import (
    ROW_FIELDS,
    RowCount,
    band_source,
    categories_line,
    coefficient_band,
    format_count,
    format_interval,
    format_number,
    format_pvalue,
    labels_field,
    null_hypothesis,
    sided_method,
    to_csv,
    to_json,
)
from .rater_files import count_raters_long, count_raters_wide, pivot_raters_long
from .tables import (
    CountedFile,
    rater_rating_error,
    refuse_unrated,
)

__all__ = ["add_agree_parser", "run_agree"]

_WEIGHTS = ("unweighted", "quadratic", "linear", *GWET_WEIGHTS)

# What --nan-policy omit does, in the hint of a missing rating under --nan-policy raise.
_OMIT = "uses, for each item, the ratings it has"
# Why every value is undefined under --nan-policy propagate, and the way out.
_PROPAGATED = (
    "a rating is missing, so every value is undefined (--nan-policy propagate; --nan-policy "
    "omit uses, for each item, the ratings it has)"
)

_SUMMARY = "agreement of several raters (Fleiss, Conger, Gwet, Krippendorff, ...)"
_DESCRIPTION = (
    "Agreement of several raters: wide (one column per rater, --raters a,b,c) or long "
    "(one row per rating: --item, --rater, --rating)."
)


def add_agree_parser(sub: Any) -> None:
    """Register ``agree`` on the sub-command parser."""
    agree = options.add_command(sub, "agree", _SUMMARY, _DESCRIPTION, run_agree)
    options.add_file(agree)
    options.add_layout(agree, long=ITEM_LAYOUT)
    add_cluster(agree, "a cluster-robust interval over the clusters")
    agree.add_argument(
        "--coefficient",
        choices=COEFFICIENTS,
        default="fleiss",
        help="the agreement coefficient (default: fleiss)",
    )
    agree.add_argument(
        "--weights",
        choices=_WEIGHTS,
        default="unweighted",
        help="disagreement weights (default: unweighted); with --coefficient krippendorff, "
        "alpha with these weights as its metric (Gwet's ordinal weights are not "
        "Krippendorff's ordinal metric: that is --level ordinal)",
    )
    agree.add_argument(
        "--level",
        choices=KRIPPENDORFF_LEVELS,
        help="Krippendorff's level of measurement, with --coefficient krippendorff: his own "
        "metric (nominal, his rank-based ordinal, interval, ratio), as "
        "wkappa.krippendorff_alpha(level=...); not with --weights",
    )
    options.add_labels(agree)
    options.add_nan_policy(
        agree,
        ("omit", "raise", "propagate"),
        "omit",
        "a missing rating: each item uses the ratings it has (omit; default), it is an "
        "error (raise), or every value is undefined (propagate)",
    )
    options.add_spelling(agree)
    options.add_ci(agree)
    agree.add_argument(
        "--ci-method",
        choices=AGREEMENT_INTERVALS,
        default="asymptotic",
        help="interval without bootstrap: asymptotic (estimate ± t x SE, as irrCAC), fisher-z, "
        "fisher-z-adjusted, fisher-z-jackknife (recommended under 200 items: --explain says "
        "which) or jackknife (default: asymptotic)",
    )
    options.add_resamples(
        agree, 0, "bootstrap the interval with N resamples (default: no bootstrap, --ci-method)"
    )
    agree.add_argument(
        "--population-size", type=int, metavar="N", help="finite-population correction"
    )
    options.add_alternative(
        agree, "of the p-value and the interval (irrCAC prints 'greater'; default: two-sided)"
    )
    options.add_kappa0(agree, "the coefficient")
    options.add_format(agree, "text", "json", "csv")
    options.add_explain(agree)
    options.add_report(
        agree,
        "write a self-contained HTML report: every coefficient, per category, pairs of "
        "raters (with a heatmap), leave one rater out",
    )
    options.add_plot(agree, "save the heatmap of the pairwise two-rater kappas")
    options.add_common(agree)


def _check_level(args: argparse.Namespace) -> None:
    """``--level`` is Krippendorff's: with ``--coefficient krippendorff`` only, and instead
    of ``--weights`` (both would set alpha's metric). ``--weights ordinal`` with alpha is
    Gwet's ordinal weights, as ``wkappa.agreement`` computes it: a note names his metric."""
    if args.level is not None:
        if args.coefficient != "krippendorff":
            raise WkappaError(
                f"--level {args.level} is Krippendorff's level of measurement, for "
                f"--coefficient krippendorff, not {args.coefficient}. Hint: add --coefficient "
                "krippendorff, or drop --level (and give --weights)."
            )
        if args.weights != "unweighted":
            raise WkappaError(
                f"--level {args.level} and --weights {args.weights} both set alpha's metric. "
                f"Hint: drop --weights (--level {args.level} is Krippendorff's metric; "
                "--weights gives alpha another one)."
            )
    elif args.coefficient == "krippendorff" and args.weights == "ordinal":
        options.later_note(
            args,
            "--weights ordinal is alpha with Gwet's ordinal weights, not Krippendorff's "
            "ordinal alpha (his rank-based metric): that is --level ordinal.",
        )


def _cluster_ids(args: argparse.Namespace, rows: Any, raters: list[str], multiplicity: Any) -> Any:
    """Each item's --cluster id (the ids of the distinct ``rows``, repeated); an item without
    any rating is left out by the library, which does not read its id."""
    import numpy as np

    if args.population_size is not None:
        raise excluded("--population-size")
    rated = ~rows.select(all_missing(rows, raters)).to_series()
    ids = cluster_ids(rows[args.cluster], args.cluster, unit="item", kept=rated)
    return np.repeat(ids, multiplicity)


def _distinct_rows(
    args: argparse.Namespace,
) -> tuple[Any, Any, list[str], RowCount, CountedFile]:
    """The distinct rows of the rater columns (polars, streaming), their counts, the raters,
    the file rows read, used and dropped (a row without any rating: wide; a row without its
    rating: long) and the counted file (to name a refused rating's row)."""
    from .io import COUNT, open_file

    wide = options.chosen_layout(args, item_ids=True)
    source = open_file(args)
    text = options.split_names(args.labels, "--labels") if args.labels else None
    cluster, _ = cluster_keys(args)
    if wide:
        raters = options.split_names(args.raters, "--raters")
        named = {f"--raters ({name})": name for name in raters}
        read_as = dict.fromkeys(raters, "--raters")
        counts, empty, file = count_raters_wide(source, args, read_as, named, text, _OMIT)
        # 'propagate' keeps a row without any rating: its missing ratings make every value nan.
        empty = 0 if args.nan_policy == "propagate" else empty
        rows = RowCount(int(counts[COUNT].sum()), empty, "no rating at all", source.skipped)
        return counts.select([*raters, *cluster]), counts[COUNT], raters, rows, file
    counts, missing, file = count_raters_long(source, args, text, _OMIT)
    if args.nan_policy == "propagate":  # its item's rating is missing: the row is used
        # but a row without a rating and without its ids (a blank line) rates nothing
        pl = polars()
        idless = pl.col(args.item).is_null() | pl.col(args.rater).is_null()
        blank = counts.filter(all_missing(counts, [args.rating]) & idless)
        missing = int(blank[COUNT].sum())
    rows = RowCount(int(counts[COUNT].sum()), missing, "a missing rating", source.skipped)
    # Two ratings of one (item, rater): two distinct triples, or one triple counted twice.
    grouped, raters = pivot_raters_long(source, file, counts, args)
    if args.nan_policy == "raise":
        refuse_unrated(grouped, raters, source.name, _OMIT)
    return grouped.select([*raters, *cluster]), grouped[COUNT], raters, rows, file


def run_agree(args: argparse.Namespace) -> int:
    import numpy as np

    # The rater columns as a polars frame, read as wkappa.agreement(df) reads one: a refusal
    # names a rater by its column in the file. Every column is a rater the user named (or
    # one pivoted from the long layout): known_raters, no guess of the layout from the names.
    def _counted(values: Any, *, multiplicity: Any, **options: Any) -> Any:
        return agreement(known_raters(values, long), multiplicity=multiplicity, **options)

    def _clustered(values: Any, *, multiplicity: Any, **options: Any) -> Any:
        items = np.repeat(np.arange(values.height), multiplicity)
        return agreement(known_raters(values[items], long), cluster=ids, **options)

    def _alpha(values: Any, *, multiplicity: Any, **options: Any) -> Any:
        # Krippendorff's own metric (--level): the items written out, their clusters beside.
        items = np.repeat(np.arange(values.height), multiplicity)
        del options["coefficient"], options["weights"]
        return krippendorff_alpha(
            known_raters(values[items], long), level=args.level, cluster=ids, **options
        )

    _check_level(args)

    rows, counts, raters, read, file = _distinct_rows(args)
    long = not options.chosen_layout(args, item_ids=True)  # a refused rating: "from rater 'b'"
    multiplicity = counts.to_numpy().astype(np.int64)
    ids = None if not args.cluster else _cluster_ids(args, rows, raters, multiplicity)
    rows = rows.select(raters)
    propagated = args.nan_policy == "propagate" and any(
        rows.filter(all_missing(rows, [name])).height for name in raters
    )
    if propagated and (args.report or args.plot):
        option = "--report" if args.report else "--plot"
        raise WkappaError(
            f"{option} has nothing to show: {_PROPAGATED}. Hint: leave out {option}, or use "
            "--nan-policy omit."
        )
    # A rater column without any rating has no type of its own (a CSV reads it as text):
    # the columns with ratings say whether --labels are numbers.
    rated = [name for name in raters if rows[name].null_count() < rows.height]
    args.unrated = [name for name in raters if name not in rated]  # the methods sentence too
    options.warn_unrated(args, args.unrated)
    labels = parse_labels(args.labels, rows, rated or raters)

    options.check_one_interval(args)
    options.check_resamples(args, "999")
    how = options.interval_method(args)  # one seed: the table's interval is the explanation's

    def compute(coefficient: str) -> tuple[Any, Any]:
        # With --cluster: the items (distinct rows repeated) and each item's cluster id.
        if coefficient == "krippendorff" and args.level is not None:
            how_computed = _alpha
        else:
            how_computed = _counted if ids is None else _clustered
        result = how_computed(
            rows,
            multiplicity=multiplicity,
            coefficient=cast(Coefficient, coefficient),
            weights=args.weights,
            labels=labels,
            min_rating=args.min_rating,
            max_rating=args.max_rating,
            population_size=args.population_size,
            alternative=args.alternative,
            kappa0=args.kappa0,
            nan_policy=args.nan_policy,
        )
        return result, result.confidence_interval(args.ci, method=how)

    try:
        result, ci = compute(args.coefficient)
    except WkappaError as exc:
        raise rater_rating_error(file, exc, labels, args.min_rating, args.max_rating) from None
    options.warn_few_resamples(args)
    if args.format == "json":
        document = {"file": file_name(args.file), "raters": raters, **read.to_dict()}
        document["nan_policy"] = args.nan_policy
        document.update({"cluster": args.cluster} if args.cluster else {})
        for key, value in result.to_dict(args.ci).items():
            if key == "labels":  # K first, as in score's document
                if args.cluster:  # G, null where every value is undefined (propagate)
                    document.setdefault("n_clusters", result.n_clusters)
                document["n_categories"] = len(result.labels)
            document[key] = value
        document["confidence_interval"] = ci.to_dict()
        print(to_json(document, schema="wkappa.agree/1"))
    elif args.format == "csv":
        fields = [
            "coefficient", "statistic", "standard_error", "ci_low", "ci_high",
            "confidence_level", "ci_method", "pvalue", "alternative", "percent_agreement",
            "chance_agreement", "n_items", "n_raters", "n_ratings", "weights", "level",
            "n_categories", "labels", "kappa0", *ROW_FIELDS,
        ]  # fmt: skip
        row = [
            result.coefficient,
            result.statistic,
            result.standard_error,
            ci.low,
            ci.high,
            ci.confidence_level,
            ci.method,
            result.pvalue,
            result.alternative,
            result.percent_agreement,
            result.chance_agreement,
            result.n_items,
            result.n_raters,
            result.n_ratings,
            result.weights,
            result.level,
            len(result.labels),
            labels_field(result.labels),
            result.kappa0,
            *read.values(),
        ]
        if args.cluster:  # as score's CSV: G, the clusters the interval is robust over
            fields.append("n_clusters")
            row.append(result.n_clusters)
        print(to_csv(fields, [row]))
    else:
        # The output grammar of score / compare / judge (wkappa._cli.output).
        print(f"{file_name(args.file)}: {result.name}, {weights_label(result)}")
        print(f"  raters       {', '.join(map(str, raters))}")
        print(f"  categories   {categories_line(result.labels)}")
        print(f"  file rows    {read.text()}")
        cells = read.used * len(raters)
        gaps = cells - result.n_ratings if args.raters else 0
        empty = f"; {gaps:,} of {cells:,} cells empty" if gaps else ""
        print(f"  items        {result.n_items:,} ({result.n_ratings:,} ratings{empty})")
        if propagated:
            print(f"  undefined    {_PROPAGATED}")
        word = coefficient_band(result.statistic, result.coefficient)
        shown = f"{word} ({band_source(result.coefficient)})" if word else ""
        print(f"  statistic    {format_number(result.statistic)}  {shown}".rstrip())
        robust = ""
        if ids is not None:  # no clusters are counted where every value is undefined
            clusters = result.n_clusters
            over = "" if clusters is None else f" over {format_count(clusters)} clusters"
            robust = f" (cluster-robust{over})"
        print(f"  std. error   {format_number(result.standard_error)}{robust}")
        level = f"{level_percent(ci.confidence_level)} CI"  # the side beside the method: aligned
        method = sided_method(ci.method, result.alternative)
        print(f"  {level:<12} {format_interval(ci.low, ci.high)} ({method})")
        h0 = null_hypothesis("coefficient", result)
        print(f"  p-value      {format_pvalue(result.pvalue)} ({h0})")
        pa, pe = format_number(result.percent_agreement), format_number(result.chance_agreement)
        print(f"  pa / pe      {pa} / {pe} (observed / chance agreement)")
        if args.explain:
            print()
            print(options.explained(result, args.ci, method=how))
    if args.report:
        _write_report(args, raters, result, ci, compute, read)
    if args.plot:
        from .report import save_pairwise_plot

        title = f"pairwise {pairwise_weights(result, short=True)}"
        save_pairwise_plot(result.pairwise(), raters, args.plot, title)
        options.note(args, f"wrote {args.plot}")
    return 0


def _write_report(
    args: argparse.Namespace,
    raters: list[str],
    result: Any,
    ci: Any,
    compute: Callable[[str], tuple[Any, Any]],
    read: RowCount,
) -> None:
    """``--report``: the chosen coefficient and every other one on the same ratings."""
    import warnings

    from .report import Coefficient, write_agreement_report

    def entry(outcome: Any, interval: Any) -> Coefficient:
        return Coefficient(
            outcome, float(interval.low), float(interval.high), args.ci, interval.method
        )

    chosen = entry(result, ci)
    table = []
    for name in COEFFICIENTS:
        if name == args.coefficient:
            table.append(chosen)
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an undefined coefficient shows as nan
                table.append(entry(*compute(name)))
        except WkappaError as error:  # e.g. Gwet's AC with weights outside [0, 1]
            table.append(Coefficient(None, math.nan, math.nan, args.ci, name, str(error)))
    write_agreement_report(args.report, file_name(args.file), raters, chosen, table, read, args)
    options.note(args, f"wrote {args.report}")
