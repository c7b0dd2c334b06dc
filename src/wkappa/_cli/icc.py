"""``wkappa icc``: intraclass correlations (and Lin's CCC) of numeric ratings in a file."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._frames import check_long_ids
from .._stats import (
    FORMS,
    ccc,
    check_form,
    disagreement_note,
    icc,
    icc_all,
    rated_items,
)
from ..exceptions import WkappaError
from .icc_report import (
    FORM_HEADER,
    INFINITE_F,
    NO_RATING,
    concordance_line,
    count_text,
    form_cells,
    infinite_f,
    interval_heading,
    method_text,
    omitted_text,
)
from .io import file_name, polars
from .labels import missing_rating
from .numbers import numeric_columns
from .options import (
    add_alternative,
    add_ci,
    add_command,
    add_common,
    add_explain,
    add_file,
    add_format,
    add_layout,
    add_nan_policy,
    add_report,
    chosen_layout,
    explained,
    in_options,
    note,
    option_names,
    split_names,
)
from .output import RowCount, to_json
from .rater_files import refuse_repeated_ratings
from .rows import file_row
from .tables import no_rating_at_all

__all__ = ["add_icc_parser", "run_icc"]

# The library's parameter names, as this command spells them.
_RATERS = "the rater columns"
_NAMES = option_names(
    "nan_policy icc0 form alternative confidence_level:--ci", ratings=_RATERS, x=_RATERS
)

# How the CCC's interval is computed (its ``method``), as the text output names it.
_SUMMARY = "intraclass correlations (six forms) and Lin's CCC of numeric ratings"
_DESCRIPTION = (
    "Intraclass correlations of numeric ratings (McGraw & Wong's six forms, with "
    "F-based intervals and tests) and Lin's concordance correlation: wide (one column "
    "per rater, --raters a,b,c) or long (--item, --rater, --rating). An item with a "
    "missing rating keeps its other ratings (REML variance components); it is not dropped."
)


def add_icc_parser(sub: Any) -> None:
    """Register ``icc`` on the sub-command parser."""
    parser = add_command(sub, "icc", _SUMMARY, _DESCRIPTION, run_icc)
    add_file(parser)
    add_layout(parser)
    parser.add_argument(
        "--form",
        default="all",
        help="all (default) or one of 1,1 A,1 C,1 1,k A,k C,k (or ICC1 ... ICC3k)",
    )
    parser.add_argument(
        "--icc0", type=float, default=0.0, metavar="R0", help="ICC under H0 (default: 0)"
    )
    add_alternative(
        parser,
        "of the F test and the interval (psych, pingouin and SPSS print 'greater'; default: "
        "two-sided)",
    )
    add_ci(parser)
    add_nan_policy(
        parser,
        ("omit", "raise", "propagate"),
        "omit",
        "missing ratings: omit (use every rating: REML; default), raise, propagate",
    )
    add_format(parser, "text", "json")
    add_report(
        parser,
        "write a self-contained HTML report: the forms, the ANOVA table, the methods "
        "sentence and the command line",
    )
    add_explain(parser)
    add_common(parser)


def _read(args: argparse.Namespace) -> tuple[np.ndarray, list[str], RowCount, list[Any]]:
    """The items x raters matrix (float64, NaN for a missing rating), the rater names, the
    file rows read, used and dropped and, for a long file, the items' ids (empty for a wide
    file). An item without any rating stays in the matrix: the library leaves it out under
    ``--nan-policy omit`` and counts it (``n_items_omitted``); a wide file's row of it is
    counted as a dropped row too."""
    from .ids import read_ids, strip_ids, text_ids
    from .io import check_columns, no_data_rows, open_file, polars

    pl = polars()
    wide = chosen_layout(args)
    source = open_file(args)
    if wide:
        raters = split_names(args.raters, "--raters")
        frame = source.scan(raters)
        check_columns(source, source.schema(frame), {f"--raters ({r})": r for r in raters})
        frame = numeric_columns(source, frame, raters, required=True)
        table = frame.select([pl.col(r).cast(pl.Float64) for r in raters]).collect()
        if source.skip_blank_lines(table, raters):  # read again without the blank lines
            frame = numeric_columns(source, source.scan(raters), raters, required=True)
            table = frame.select([pl.col(r).cast(pl.Float64) for r in raters]).collect()
        if table.height == 0:
            raise no_data_rows(source.name, source.skipped)
        if table.null_count().sum_horizontal().item() == table.height * len(raters):
            raise no_rating_at_all(source.name, table.height, "--raters", raters)
        matrix = table.to_numpy()
        dropped = rated_items(matrix, args.nan_policy)[1]
        return matrix, raters, RowCount(table.height, dropped, NO_RATING, source.skipped), []
    ids = {args.item: "--item", args.rater: "--rater"}
    frame = source.scan([args.rating, *text_ids(source, ids)])
    wanted = {"--item": args.item, "--rater": args.rater, "--rating": args.rating}
    check_columns(source, source.schema(frame), wanted)
    frame = strip_ids(source, frame, ids)
    # The file is read once: its three columns, whose ratings are then parsed in memory.
    read = frame.select(args.item, args.rater, args.rating).collect(engine="streaming")
    if source.skip_blank_lines(read, [args.item, args.rater, args.rating]):  # read again
        frame = strip_ids(source, source.scan([args.rating, *text_ids(source, ids)]), ids)
        read = frame.select(args.item, args.rater, args.rating).collect(engine="streaming")
    parsed = numeric_columns(source, read.lazy(), [args.rating], required=True)
    data = parsed.collect()
    frame, data = read_ids(source, frame, data, ids)
    if data.height == 0:
        raise no_data_rows(source.name, source.skipped)
    missing = _absent(data, args.rating)
    if missing.all():
        raise no_rating_at_all(source.name, data.height, "--rating", [args.rating])
    data = _without_blank_rows(source, data, missing, args)
    data = data.with_columns(pl.col(args.rater).cast(pl.String))
    check_long_ids(data, {args.item: "--item", args.rater: "--rater"}, args.rating)
    identified = pl.col(args.item).is_not_null() & pl.col(args.rater).is_not_null()
    named = frame.with_columns(pl.col(args.rater).cast(pl.String))  # as in ``data``
    refuse_repeated_ratings(source, named, data, args, identified)
    wide_frame = data.pivot(on=args.rater, index=args.item, values=args.rating)
    raters = [c for c in wide_frame.columns if c != args.item]
    matrix = wide_frame.select([pl.col(r).cast(pl.Float64) for r in raters]).to_numpy()
    items = wide_frame[args.item].to_list()
    rows = RowCount(missing.len(), int(missing.sum()), "a missing rating", source.skipped)
    return matrix, raters, rows, items


def _absent(data: Any, *columns: str) -> Any:
    """Whether each row of the polars frame ``data`` has any of ``columns`` missing
    (:func:`.labels.missing_rating`), as a Series."""
    found = polars().any_horizontal([missing_rating(data.schema, c) for c in columns])
    return data.select(found).to_series()


def _without_blank_rows(source: Any, data: Any, missing: Any, args: argparse.Namespace) -> Any:
    """The long file's rows without those that have neither a rating nor their ids (a line
    of separators only, as a spreadsheet exports after the data; a blank line is not read): they
    rate nothing, so they are dropped as a missing rating is; ``--nan-policy raise`` refuses
    the first, as it refuses any missing rating."""
    blank = missing & _absent(data, args.item, args.rater)
    if not blank.any():
        return data
    if args.nan_policy == "raise":
        row = file_row(int(blank.arg_max() or 0), source.skipped)
        raise WkappaError(
            f"{source.name}, row {row}: the row has no rating in column {args.rating!r} and no "
            "item or rater id. Hint: delete the row; --nan-policy omit drops it."
        )
    return data.filter(~blank)


def _check_ratings(
    args: argparse.Namespace,
    matrix: np.ndarray,
    raters: list[str],
    items: list[Any],
    skipped: Sequence[int] = (),
) -> None:
    """An infinite rating, a missing rating (``--nan-policy raise``) or, with ``omit``, a
    rater without any rating, named as the file names them (the library counts items and
    raters from 0): a wide file's row (its ``skipped`` blank lines are not rows of the
    matrix) and column, a long file's item and rater; ``propagate`` answers nan."""

    def cell(row: int, column: int) -> str:
        return f", row {file_row(row, skipped)}: column {raters[column]!r}"

    found = np.argwhere(np.isinf(matrix))
    if found.size:
        row, column = found[0]
        if args.raters:  # a wide file's rows are the file's rows
            where = cell(row, column)
        else:
            where = f": item {items[row]!r}, rater {raters[column]!r}"
        raise WkappaError(f"{file_name(args.file)}{where} contains inf; ratings must be finite.")
    missing = np.argwhere(np.isnan(matrix))
    if args.nan_policy == "raise" and missing.size:
        row, column = missing[0]
        if args.raters:
            where = f"{cell(row, column)} has a missing rating"
        else:
            where = f": item {items[row]!r} has no rating from rater {raters[column]!r}"
        raise WkappaError(
            f"{file_name(args.file)}{where}. Hint: --nan-policy omit uses every rating there "
            "is (REML variance components); --nan-policy propagate shows every ICC as undefined."
        )
    empty = [name for name, column in zip(raters, matrix.T, strict=True) if np.isnan(column).all()]
    if empty and args.nan_policy == "omit":  # 'raise' names the first missing rating instead
        where = f"column {empty[0]!r} of --raters" if args.raters else f"rater {empty[0]!r}"
        option = "--raters" if args.raters else f"the file (column {args.rater!r})"
        raise WkappaError(
            f"{file_name(args.file)}: {where} has no rating at all; the ICC needs ratings "
            f"from every rater. Hint: leave it out of {option}."
        )


def run_icc(args: argparse.Namespace) -> int:
    """Run ``wkappa icc``: prints a table of ICCs (text) or a JSON document."""
    try:
        forms = FORMS if args.form == "all" else (check_form(args.form),)
        matrix, raters, rows, items = _read(args)
        _check_ratings(args, matrix, raters, items, rows.blank)
        options = {"icc0": args.icc0, "alternative": args.alternative}
        if len(forms) == 1:  # (a warning about this form only)
            results = {forms[0]: icc(matrix, form=forms[0], nan_policy=args.nan_policy, **options)}
        else:
            results = icc_all(matrix, nan_policy=args.nan_policy, **options)
        complete = matrix[~np.isnan(matrix).any(axis=1)]
        # --nan-policy propagate holds for the CCC as for the ICCs: a missing rating
        # makes it undefined; the other policies compute it on the complete items.
        propagated = args.nan_policy == "propagate" and len(complete) < len(matrix)
        sided = {"alternative": args.alternative}  # the CCC's test and interval, as the ICCs'
        if propagated:
            enough = len(matrix) >= 2
            concordance = ccc(matrix, nan_policy="propagate", **sided) if enough else None
        else:
            enough = len(complete) >= 2  # (counting the items it leaves out)
            concordance = ccc(matrix, nan_policy="omit", **sided) if enough else None
        intervals = {form: results[form].confidence_interval(args.ci) for form in forms}
    except WkappaError as exc:
        raise WkappaError(in_options(str(exc), _NAMES)) from None
    first = results[forms[0]]
    if args.format == "json":
        document = {
            "file": file_name(args.file),
            **rows.to_dict(),
            "n_items": first.n_items,
            "n_raters": first.n_raters,
            "raters": raters,
            "n_ratings": first.n_ratings,
            "n_items_omitted": first.n_items_omitted,
            "method": first.method,
            "icc": {form: results[form].to_dict(args.ci) for form in forms},
            "ccc": concordance.to_dict(args.ci) if concordance is not None else None,
        }
        print(to_json(document, schema="wkappa.icc/1"))
        return 0
    heading = interval_heading(args.ci, args.alternative)
    wide = max(20, len(heading) + 2)

    def line(cells: list[str]) -> str:
        name, sf, value, interval, *test = cells
        widths = (10, 10, 10, 11)
        return f"{name:<10}{sf:<7}{value:>9}  {interval:<{wide}}" + "".join(
            f"{c:>{w}}" for c, w in zip(test, widths, strict=True)
        )

    lines = [
        f"{first.n_items:,} items{omitted_text(first.n_items_omitted)} x {first.n_raters} "
        f"raters ({', '.join(raters)}), {count_text(first.n_ratings)} ratings; "
        f"{method_text(first.method)}",
        f"file rows {rows.text()}",
        line([*FORM_HEADER[:3], heading, *FORM_HEADER[3:]]),
        *(line(form_cells(results[form], intervals[form])) for form in forms),
    ]
    lines.append(
        f"p: {first.test_text}. 1 = one-way, A = absolute "
        "agreement, C = consistency; ,1 one rater, ,k the mean of the k raters."
        + (f" {INFINITE_F}." if infinite_f(results, forms) else "")
    )
    for form in forms:
        split = disagreement_note(results[form], intervals[form])
        if split is not None:
            lines.append(f"{results[form].name}: {split}.")
    if concordance is not None:
        lines.append(concordance_line(concordance, args, propagated))
    if args.explain:
        for form in forms:
            lines += ["", explained(results[form], args.ci)]
    print("\n".join(lines))
    if args.report:
        from .icc_report import write_icc_report

        cited = "lin1989" if first.n_raters == 2 else "barnhart2002"
        reported = None
        if concordance is not None:
            reported = (concordance_line(concordance, args, propagated, report=True), cited)
        write_icc_report(args, raters, rows, forms, results, intervals, reported)
        note(args, f"wrote {args.report}")
    return 0
