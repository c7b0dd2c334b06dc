"""``wkappa thresholds``: exact kappa-optimal cut points for a score column, optionally
applied to another file.

The (truth, score) pairs are counted in polars' streaming engine first: with their
multiplicity they are an exact stand-in for the rows, since the optimal thresholds depend on
the rows only through such counts (repetition = integer sample weight). Text, JSON and an
HTML report (:mod:`.thresholds_report`).
"""

from __future__ import annotations

import argparse
import os
import re
from typing import Any

import numpy as np

from ..exceptions import WkappaError
from .io import (
    COUNT,
    count_keys,
    detect_format,
    is_workbook_name,
    open_file,
    open_source,
    polars,
)
from .labels import Spelling, drop_missing, parse_labels, text_labels, tidy_labels
from .missing import blank_is_missing
from .numbers import numeric_columns
from .options import (
    add_command,
    add_common,
    add_explain,
    add_format,
    add_report,
    add_two_columns,
    explained,
    note,
    progress_wanted,
)
from .output import (
    ON_A_THRESHOLD,
    THRESHOLD_KAPPA_DECIMALS,
    RowCount,
    blank_lines_text,
    categories_line,
    format_number,
    render_table,
    to_json,
)
from .sniff import file_head, ragged_error, read_error, separator_line
from .tables import build_tables
from .thresholds_report import (
    THRESHOLD_HEADER,
    Fitted,
    graded_result,
    optimum_text,
    threshold_rows,
    write_thresholds_report,
)
from .written import as_written, check_out_name, write_atomically

__all__ = ["add_thresholds_parser", "run_thresholds"]

_SUMMARY = "exact kappa-optimal thresholds for scores"
_DESCRIPTION = (
    "Fit the cut points on a score column that maximise "
    "weighted kappa against the truth (global optimum)."
)


def add_thresholds_parser(sub: Any) -> None:
    """Register ``thresholds`` on the sub-command parser."""
    parser = add_command(sub, "thresholds", _SUMMARY, _DESCRIPTION, run_thresholds)
    add_two_columns(
        parser, "--score", "column of real-valued scores (e.g. out-of-fold predictions)"
    )
    parser.add_argument(
        "--apply",
        metavar="OTHER_FILE",
        help="write OTHER_FILE with a column of grades from the thresholds; its own columns "
        "are written back as they were (--na-values and missing scores only leave a grade "
        "empty, with --nan-policy omit)",
    )
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="where --apply writes (CSV, Parquet, Arrow or JSON lines; a name ending in .gz "
        "is written gzip-compressed); a CSV has the separator of OTHER_FILE when that is a "
        "CSV (';' stays ';', decimal commas as they were), else ','",
    )
    parser.add_argument(
        "--apply-score",
        metavar="COL",
        help="the score column of OTHER_FILE (default: the --score column)",
    )
    parser.add_argument(
        "--apply-separator",
        metavar="CHAR",
        help="field separator of OTHER_FILE when it is a CSV or TSV (default: that of the "
        "fitted file, --separator)",
    )
    parser.add_argument(
        "--apply-decimal-comma",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="numbers in OTHER_FILE are written with a decimal comma, or not "
        "(--no-apply-decimal-comma) (default: as --decimal-comma)",
    )
    parser.add_argument(
        "--grade-col",
        metavar="NAME",
        help="name of the column --apply adds (default: grade)",
    )
    add_format(parser, "text", "json")
    add_explain(parser)
    add_report(
        parser,
        "write a self-contained HTML report: the thresholds, the kappa they reach, what was "
        "optimised, the truth against the grades (with heatmaps), the methods sentence to "
        "paste, the command line",
    )
    add_common(parser)


def _fit(args: argparse.Namespace, progress: bool) -> tuple[Any, Any, RowCount, Any]:
    """Read the file and fit: (source, ThresholdResult, rows read and used, the distinct
    (truth, score) rows the fit used with their counts)."""
    from .._stats import optimize_thresholds

    source = open_file(args)
    options = {"--true": args.true, "--score": args.score}
    frame, counts = count_keys(
        source,
        [args.true, args.score],
        options=options,
        numeric=[args.score],
        text=[args.true] if args.labels else [],
        progress=progress,
    )
    counts = tidy_labels(
        source, frame, counts, [args.true], text_labels(args.labels), Spelling.of(args)
    )
    # The truth alone goes through the same checks (and row look-ups) as `score`.
    tables = build_tables(
        source,
        frame,
        counts,
        true=args.true,
        pred=args.true,
        by=None,
        weighted=False,
        labels=parse_labels(args.labels, counts, [args.true]),
        min_rating=args.min_rating,
        max_rating=args.max_rating,
        ordered=True,
        nan_policy=args.nan_policy,
    )
    pl = polars()
    read = int(counts[COUNT].sum())
    if args.nan_policy == "omit":  # n counts the rows used: both truth and score present
        counts, _ = drop_missing(counts, [args.true])
    scores = counts[args.score]
    missing = scores.is_null() | scores.cast(pl.Float64).is_nan()
    if missing.any():
        if args.nan_policy == "raise":
            from .rows import first_row

            row = first_row(frame, pl.col(args.score).is_null() | pl.col(args.score).is_nan())
            raise WkappaError(
                f"{source.name}, row {row}: column {args.score!r} has a missing score. "
                "Hint: --nan-policy omit drops rows with a missing value."
            )
        counts = counts.filter(~missing)
    infinite = counts[args.score].cast(pl.Float64).is_infinite()
    if infinite.any():
        from .rows import first_row, row_value

        row = first_row(frame, pl.col(args.score).cast(pl.Float64).is_infinite())
        assert row is not None
        value = float(row_value(frame, row, args.score))
        raise WkappaError(
            f"{source.name}, row {row}: column {args.score!r} has the score {value!r}; "
            "thresholds are placed between finite scores. Hint: replace infinite scores "
            "(a logit of a probability of 0 or 1) by finite ones, or drop those rows."
        )
    try:
        result = optimize_thresholds(
            counts[args.true],
            counts[args.score].cast(pl.Float64),
            weights=args.weights,
            labels=list(tables.labels),
            sample_weight=counts[COUNT].to_numpy().astype(np.float64),
            nan_policy=args.nan_policy,
        )
    except WkappaError as exc:
        only = re.search(r"got only grade index \[(\d*)\]", str(exc))
        if only is None:
            raise
        grade = f" {tables.labels[int(only[1])]}" if only[1] else "s"
        raise WkappaError(
            f"--true column {args.true!r} has only the grade{grade}: thresholds need at least "
            "two grades in the truth (with one, kappa is 0 or undefined for every cut). "
            "Hint: fit on a file whose truth has several grades."
        ) from None
    used = int(counts[COUNT].sum())
    reason = "a missing grade or score (--nan-policy omit)"
    return source, result, RowCount(read, read - used, reason, source.skipped), counts


def run_thresholds(args: argparse.Namespace) -> int:
    """Fit thresholds, print them, and optionally grade another file."""
    if (args.apply is None) != (args.out is None):
        raise WkappaError("--apply OTHER_FILE and --out FILE go together; give both or neither.")
    if args.apply is None:
        for option, value in (("--apply-score", args.apply_score), ("--grade-col", args.grade_col)):
            if value is not None:
                raise WkappaError(
                    f"{option} names a column of the file to grade, and there is none. Hint: "
                    "give the file with --apply OTHER_FILE --out FILE, or drop "
                    f"{option}."
                )
    args.grade_col = args.grade_col or "grade"
    target = _open_apply(args) if args.apply else None  # its columns checked before the fit
    source, result, file_rows, counts = _fit(args, progress_wanted(args))
    n = file_rows.used
    if args.format == "json":
        document = {
            "file": source.name,
            "true": args.true,
            "score": args.score,
            "n": n,
            **file_rows.to_dict(),
            "n_categories": len(result.labels),
            **result.to_dict(),
        }
        print(to_json(document, schema="wkappa.thresholds/1"))
    else:
        print(
            f"wkappa thresholds: {source.name}  (truth {args.true}, score {args.score}, n = {n:,})"
        )
        print(f"  weights {result.weights}; {categories_line(result.labels, 'grades')}")
        print(f"  file rows {file_rows.text()}")
        print(
            "  kappa with these thresholds: "
            f"{format_number(result.statistic, THRESHOLD_KAPPA_DECIMALS)}"
            f"  ({optimum_text(result)})"
        )
        print(render_table(THRESHOLD_HEADER, threshold_rows(result)))
        print(f"  {ON_A_THRESHOLD}")
        if args.explain:
            print()
            print(explained(result))
    if target is not None:
        _apply(args, result, target)
        skipped = target[0].skipped  # the --apply file's blank lines, not written
        said = f"; {target[0].name}: {blank_lines_text(skipped)}" if skipped else ""
        note(args, f"wrote {args.out} (column {args.grade_col!r} added){said}")
    if args.report:
        graded = graded_result(
            result,
            counts[args.true],
            counts[args.score].cast(polars().Float64).to_numpy(),
            counts[COUNT].to_numpy(),
        )
        write_thresholds_report(args.report, Fitted(source.name, file_rows, result, graded), args)
        note(args, f"wrote {args.report}")
    return 0


def _format_of(path: str, option: str) -> str:
    """The format of the ``--apply`` or ``--out`` file, from its name (``--input-format`` is
    the main file's, so the hint names the suffixes instead). A workbook given to
    ``--apply`` gets the main input's save-as-CSV message."""
    try:
        return detect_format(path, None, option)
    except WkappaError:
        if option == "--apply" and is_workbook_name(path):
            raise
        raise WkappaError(
            f"cannot tell the format of {path!r} ({option}) from its name. Hint: name it "
            "with .csv, .tsv, .parquet, .arrow or .jsonl (.gz compresses CSV, TSV and JSON "
            "lines)."
        ) from None


def _open_apply(args: argparse.Namespace) -> tuple[Any, Any, str]:
    """Open ``--apply`` and check its score and grade columns: (source, frame, score)."""
    if args.out is not None:  # before the fit prints anything
        check_out_name(args.out, _format_of(args.out, "--out"))
    text = _format_of(args.apply, "--apply") in ("csv", "tsv")
    separator, decimal_comma = _apply_dialect(args, text)
    other = open_source(
        args.apply,
        None,
        separator,
        args.na_values,
        format_option=False,
        decimal_comma=decimal_comma,
    )
    # Every row of it is written out: CSV types from the whole file, so that no row past
    # the first ones can fail to parse halfway through the output.
    frame = other.scan(whole_file=True)
    schema = other.schema(frame)
    from .io import check_columns

    score = args.apply_score or args.score
    try:
        check_columns(other, schema, {"--apply-score" if args.apply_score else "--score": score})
    except WkappaError as exc:
        glued = re.search(r"Hint: it looks separated by ('.'|'\\t')", str(exc))
        if glued is not None:  # the hint of the fitted file's --separator would mislead
            own = repr(other.delimiter)
            given = "--apply-separator" if args.apply_separator is not None else "--separator"
            fix = "$'\\t'" if glued[1] == "'\\t'" else glued[1]
            if glued[1] == "','" and decimal_comma:  # no decimal comma between commas
                fix += " --no-apply-decimal-comma"
            elif not decimal_comma:
                fix += " (with --apply-decimal-comma if its numbers are written 0,5)"
            raise WkappaError(
                f"{other.name} (--apply) looks separated by {glued[1]}, but it is read with "
                f"{own} ({given}). Hint: pass --apply-separator {fix}."
            ) from None
        if args.apply_score or score in schema:
            raise
        raise WkappaError(
            f"{exc} Hint: --apply-score COL names the score column of {other.name}."
        ) from None
    if args.grade_col in schema:
        raise WkappaError(
            f"{other.name} already has a column {args.grade_col!r}. Hint: pass --grade-col NAME."
        )
    _skip_blank_lines(other, frame, schema)
    if other.skipped:  # read again without them, each row keeping its number in the file
        frame = other.scan(whole_file=True)
    if schema[score] == polars().String:  # names the row of a cell that is not a number
        try:
            frame = numeric_columns(other, frame, [score], required=True)
        except WkappaError as exc:  # the fitted file's options do not read this one
            if "pass --decimal-comma" not in str(exc):
                raise
            raise WkappaError(
                str(exc).split(" Hint: ")[0] + " Hint: numbers are read with a decimal point; "
                f"if {other.name} writes 1,5 for 1.5, pass --apply-decimal-comma (with "
                "--apply-separator ';' if it is separated by ';')."
            ) from None
        schema = other.schema(frame)
    if not schema[score].is_numeric():
        if frame.head(1).collect().height == 0:  # a header (and blank lines) only
            skipped = len(other.skipped)
            blank = f" (only {skipped:,} blank line{'s' * (skipped > 1)})" if skipped else ""
            raise WkappaError(
                f"{other.name} (--apply) has a header but no data rows{blank}; there is "
                "nothing to grade."
            )
        raise WkappaError(f"column {score!r} of {other.name} must hold numbers.")
    if args.nan_policy != "omit":
        from .rows import first_row

        pl = polars()
        missing = pl.col(score).is_null() | pl.col(score).cast(pl.Float64).is_nan()
        row = first_row(frame, missing)
        if row is not None:
            raise WkappaError(
                f"{other.name}, row {row}: column {score!r} has a missing score. "
                "Hint: --nan-policy omit leaves its grade empty."
            )
    return other, frame, score


def _skip_blank_lines(other: Any, frame: Any, schema: dict[str, Any]) -> None:
    """Find the blank lines of a CSV or TSV ``--apply`` file, as every command's reader does
    (:meth:`.io.Source.skip_blank_lines`): they are not rows, so they get no grade and are
    not written. Looked for only when some row has no value in any column (one pass; a line
    of spaces reads as text of spaces)."""
    if other.fmt not in ("csv", "tsv"):
        return
    pl = polars()
    try:
        empty = (
            blank_is_missing(frame, schema, list(schema))
            .filter(pl.all_horizontal(pl.col(list(schema)).is_null()))
            .head(1)
            .collect(engine="streaming")
        )
    except pl.exceptions.PolarsError as exc:
        raise read_error(other, exc) from None
    other.skip_blank_lines(empty, list(schema))


def _apply_dialect(args: argparse.Namespace, text: bool) -> tuple[str | None, bool]:
    """The separator and decimal mark ``--apply`` is read with (``text``: it is a CSV or
    TSV): ``--apply-separator`` and ``--apply-decimal-comma``, by default those of the fitted
    file (``--separator``, ``--decimal-comma``)."""
    own = args.apply_separator is not None
    comma = args.decimal_comma if args.apply_decimal_comma is None else args.apply_decimal_comma
    if not text:
        if own or args.apply_decimal_comma:
            option = "--apply-separator" if own else "--apply-decimal-comma"
            raise WkappaError(
                f"{option} applies to an --apply file that is a CSV or TSV; {args.apply} is "
                "not. Hint: drop it."
            )
        return None, False
    separator = args.apply_separator if own else args.separator
    if own and len(args.apply_separator) != 1:
        tab = " Hint: for a tab, --apply-separator $'\\t' in bash." if separator == "\\t" else ""
        raise WkappaError(
            f"--apply-separator must be one character; got {args.apply_separator!r}.{tab}"
        )
    if separator is None and os.path.isfile(args.apply):  # Excel's "sep=;" line names it
        separator = separator_line(args.apply, file_head(args.apply, 64)[0], None)[0]
    if comma and separator in (None, ",") and _format_of(args.apply, "--apply") == "csv":
        decimal = "--decimal-comma" if args.apply_decimal_comma is None else "--apply-decimal-comma"
        raise WkappaError(
            f"{decimal} reads {args.apply} with decimal commas, which needs its fields "
            "separated by another character than the comma. Hint: add --apply-separator ';' "
            "(or --no-apply-decimal-comma if its numbers are written with a point)."
        )
    return separator, comma


def _out_separator(other: Any, out_format: str) -> str:
    """The separator of a CSV or TSV ``--out``: a tab for TSV; for CSV, that of the ``--apply``
    file when it is a CSV (``;`` stays ``;``, and its cells, decimal commas and all, are
    written as they were), else a comma."""
    if out_format == "tsv":
        return "\t"
    return str(other.delimiter) if other.fmt == "csv" else ","


def _apply(args: argparse.Namespace, result: Any, target: tuple[Any, Any, str]) -> None:
    """Stream ``--apply`` through ``result.predict`` into ``--out``.

    A missing score is an error naming its row (``--nan-policy omit``: its grade is left
    empty); the file's own columns are written back as they were (:func:`.as_written`). The
    output is written to a temporary file beside ``--out`` and renamed when complete, so an
    error never leaves a partial file; a name ending in ``.gz`` is written compressed.
    """
    pl = polars()
    other, frame, score = target
    out_format = _format_of(args.out, "--out")
    sample = np.asarray(result.labels)

    def grade(scores: Any) -> Any:
        values = scores.cast(pl.Float64)
        bad = (values.is_null() | values.is_nan()).to_numpy()
        if not bad.any():
            return pl.Series(result.predict(values.to_numpy()))
        grades = np.empty(len(values), dtype=object)
        grades[~bad] = np.asarray(result.predict(values.to_numpy()[~bad])).tolist()
        grades[bad] = None
        return pl.Series(grades.tolist(), dtype=dtype)

    dtype = pl.Series(sample[:1]).dtype
    grades = frame.select(
        pl.col(score)
        .map_batches(grade, return_dtype=dtype, is_elementwise=True)
        .alias(args.grade_col)
    )
    # The grades come from the scores as read (--na-values and the usual spellings of a
    # missing score leave a grade empty); the file's own columns are written as they were.
    graded = pl.concat([as_written(other, out_format, [score]), grades], how="horizontal")

    def sink(path: str) -> None:
        if out_format in ("csv", "tsv"):
            graded.sink_csv(path, separator=_out_separator(other, out_format))
        elif out_format == "parquet":
            graded.sink_parquet(path)
        elif out_format == "ipc":
            graded.sink_ipc(path)
        else:
            graded.sink_ndjson(path)

    try:
        write_atomically(args.out, sink)
    except pl.exceptions.PolarsError as exc:
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, WkappaError):
            raise cause from None
        ragged = ragged_error(other, exc)  # a row of --apply, found as it is read
        if ragged is not None:
            raise ragged from None
        raise WkappaError(f"could not write {args.out}: {str(exc).splitlines()[0]}") from None
