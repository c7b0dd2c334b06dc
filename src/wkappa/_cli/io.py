"""Reading rating files for the command line.

Every file is opened as a polars *lazy* scan and reduced in the streaming engine to its distinct
key tuples with their counts (``group_by`` on the rating columns), so only O(K²) rows ever reach
Python and a file larger than memory streams. Messages about the file (missing, empty, a missing
column, an unparsable value and its row) are :class:`~wkappa.exceptions.WkappaError`. What
counts as a missing rating is :mod:`wkappa._cli.missing`'s.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._core import import_optional
from ..exceptions import WkappaError
from . import sample_weights
from .dictionaries import Dictionaries, ordered_categories, unread_order_hint
from .header import check_columns
from .ids import ID_OPTIONS, read_ids, strip_ids, text_ids
from .missing import MISSING_SPELLINGS, blank_is_missing, declared_missing, missing_spellings
from .numbers import numeric_columns, numeric_counts
from .progress import progress_bar
from .rows import ROW, first_row, without_rows
from .sniff import (
    WORKBOOK_FIX,
    blank_rows,
    check_complete,
    check_kind,
    check_text,
    decompressed,
    directory_error,
    file_head,
    is_arrow_stream,
    not_utf8,
    quote_trouble,
    ragged_error,
    read_error,
    separator_line,
    unclosed_quote,
)

__all__ = [
    "COUNT",
    "FORMATS",
    "WEIGHT",
    "Source",
    "check_columns",
    "count_keys",
    "csv_error",
    "detect_format",
    "file_name",
    "is_workbook_name",
    "no_data_rows",
    "not_utf8",
    "open_file",
    "open_source",
    "polars",
]

FORMATS = ("csv", "tsv", "parquet", "ipc", "ndjson")
_SUFFIXES = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "ipc",
    ".arrows": "ipc",
    ".feather": "ipc",
    ".ipc": "ipc",
    ".jsonl": "ndjson",
    ".ndjson": "ndjson",
    ".json": "ndjson",
}
# Spreadsheet workbooks, by the suffix of their name.
_WORKBOOKS = {
    ".xlsx": "an Excel .xlsx workbook",
    ".xlsm": "an Excel .xlsm workbook",
    ".xlsb": "an Excel .xlsb workbook",
    ".xls": "an Excel .xls workbook",
    ".ods": "an OpenDocument (.ods) spreadsheet",
}
# Column names of the counts (chosen not to clash with a user's columns).
COUNT = "__wkappa_count"
WEIGHT = "__wkappa_weight"
_BAD = "__wkappa_bad_weights"
# The start of a text file checked for UTF-8 before it is scanned (a later bad byte is caught
# where polars reports it, see :func:`not_utf8`).
_ENCODING_PROBE = 1 << 20
# CSV type inference looks at this many rows; a later surprise is diagnosed by a rescan.
_INFER_ROWS = 10_000


def polars() -> Any:
    """The polars module (the ``cli`` extra)."""
    return import_optional("polars", "cli")


def _suffix(path: str) -> str:
    """The suffix of a file name, lower case, ``.gz`` looked through."""
    name = path.lower()
    return Path(name[:-3] if name.endswith(".gz") else name).suffix


def is_workbook_name(path: str) -> bool:
    """Whether ``path`` names a spreadsheet workbook (.xlsx, .xls, .xlsm, .xlsb, .ods)."""
    return _suffix(path) in _WORKBOOKS


def detect_format(path: str, fmt: str | None, option: str | None = None) -> str:
    """The input format: given, or from the file name (``.gz`` is looked through). A
    workbook's name is refused with the save-as-CSV hint, naming the ``option`` that gave
    the file (``--apply``) unless it is the main input."""
    if fmt is not None:
        return fmt
    if path == "-":
        return "csv"
    suffix = _suffix(path)
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    if is_workbook_name(path):  # no --input-format reads a workbook
        given = path if option is None else f"{path} ({option})"
        raise WkappaError(
            f"{given} names {_WORKBOOKS[suffix]}, which wkappa does not read. "
            f"Hint: open it and save the sheet as {WORKBOOK_FIX}"
        )
    raise WkappaError(
        f"cannot tell the format of {path!r} from its name. "
        f"Hint: pass --input-format with one of {', '.join(FORMATS)}."
    )


@dataclass
class Source:
    """A file opened as a polars LazyFrame, and how to scan it again differently."""

    name: str
    fmt: str
    path: str | None  # None for stdin
    size: int | None
    data: bytes | None = None  # stdin, read once
    separator: str | None = None  # CSV/TSV: None for the format's own
    na_values: tuple[str, ...] = ()  # --na-values: more spellings of a missing value
    decimal_comma: bool = False  # --decimal-comma: CSV numbers are written 2,5
    skip_lines: int = 0  # CSV: Excel's "sep=;" line before the header
    skipped: tuple[int, ...] = ()  # CSV: the data rows that are blank lines, not read
    stream: bool = False  # Arrow IPC: the stream format (no footer), read whole
    _overrides: dict[str, Any] = field(default_factory=dict)
    _categories: Dictionaries | None = None  # see :mod:`.dictionaries`
    _headers: dict[str, str] | None = None  # a padded header as written -> its name
    _streamed: Any = None  # an Arrow IPC stream, read once (a polars DataFrame)

    @property
    def delimiter(self) -> str:
        """The field separator of a CSV or TSV file."""
        return self.separator or ("\t" if self.fmt == "tsv" else ",")

    def scan(
        self,
        string_columns: Sequence[str] = (),
        *,
        whole_file: bool = False,
        as_written: bool = False,
    ) -> Any:
        """A LazyFrame over the file; ``string_columns`` are read as text (CSV only).

        CSV column types are inferred from the first rows, or from every row with
        ``whole_file`` (one more pass, but no later row can contradict them). The blank
        lines found by :meth:`skip_blank_lines` are left out. Column names are
        the header's without surrounding spaces (:meth:`padded_headers`), as options name them
        and outputs print them; ``as_written`` keeps them as the file writes them.
        """
        padded = self.padded_headers()
        written = {name: header for header, name in padded.items()}
        frame = without_rows(
            self._scan([written.get(c, c) for c in string_columns], whole_file), self.skipped
        )
        if self.fmt in ("parquet", "ipc") and self.path is not None:
            frame = self._ordered(frame)
        if padded and not as_written:
            frame = frame.rename(padded)
        return self._missing(frame)

    def padded_headers(self) -> dict[str, str]:
        """The file's column names written with surrounding spaces, each mapped to its name
        without them (``{"Rater A ": "Rater A"}``): one rule for every command, so that
        ``--raters 'Rater A'`` selects the column and every output names it ``Rater A``. Two
        headers that are one name once stripped (``a`` and ``a ``) are refused, naming both.
        A header of spaces only is kept as written (it names no column)."""
        if self._headers is None:
            names = list(self.schema(self._scan((), False)))
            padded = {n: n.strip() for n in names if n.strip() and n != n.strip()}
            for name in padded.values():
                same = [n for n in names if n.strip() == name]
                if len(same) > 1:
                    shown = " and ".join(repr(n) for n in same)
                    raise WkappaError(
                        f"{self.name}: the header's columns {shown} are one name, {name!r}, "
                        "once their surrounding spaces are stripped, so which one is meant is "
                        "ambiguous. Hint: give each column its own name in the file's header."
                    )
            self._headers = padded
        return self._headers

    def written_name(self, name: str) -> str:
        """The header as the file writes it of the column ``name`` (see :meth:`scan`)."""
        return next((h for h, n in self.padded_headers().items() if n == name), name)

    def _ordered(self, frame: Any) -> Any:
        """``frame`` with each ordered dictionary column a polars Enum of its categories, the
        label order (:mod:`.dictionaries`). A category that is a missing value (``NA``, a
        blank, an ``--na-values`` code) is not one: its cells are made missing first, as in
        any other column, and the labels leave it out."""
        if self._categories is None:
            assert self.path is not None
            self._categories = ordered_categories(self.path, self.fmt, stream=self.stream)
        ordered = self._categories.ordered
        if not ordered:
            return frame
        pl = polars()
        frame = self._missing(blank_is_missing(frame, self.schema(frame), list(ordered)))
        cast = [pl.col(c).cast(pl.Enum(self._ratings(values))) for c, values in ordered.items()]
        return frame.with_columns(cast)

    def _ratings(self, categories: list[str]) -> list[str]:
        """The ``categories`` of a dictionary column that are not missing values."""
        pl = polars()
        frame = pl.LazyFrame({"c": categories}, schema={"c": pl.String})
        kept = self._missing(blank_is_missing(frame, {"c": pl.String}, ["c"]))
        return [c for c in kept.collect()["c"] if c is not None]

    def _missing(self, frame: Any) -> Any:
        return self._declared_missing(frame) if self.na_values else frame

    def unread_order_hint(self, message: str, columns: Sequence[str]) -> str:
        """The refusal ``message`` of unordered ratings in ``columns``, saying so when some
        are dictionary columns whose order was not read (pyarrow is not installed)
        (:func:`.dictionaries.unread_order_hint`)."""
        return unread_order_hint(message, self._categories, columns)

    def _scan(self, string_columns: Sequence[str], whole_file: bool) -> Any:
        pl = polars()
        source: Any = self.data if self.path is None else self.path
        try:
            if self.fmt in ("csv", "tsv"):
                return pl.scan_csv(
                    source,
                    separator=self.delimiter,
                    infer_schema_length=None if whole_file else _INFER_ROWS,
                    schema_overrides={c: pl.String for c in string_columns} or None,
                    null_values=[*MISSING_SPELLINGS, *self.na_values],
                    decimal_comma=self.decimal_comma,
                    skip_lines=self.skip_lines,
                )
            if self.fmt == "parquet":
                return pl.scan_parquet(source)
            if self.fmt == "ipc" and self.stream:  # polars scans only the file format
                if self._streamed is None:
                    self._streamed = pl.read_ipc_stream(source)
                return self._streamed.lazy()
            if self.fmt == "ipc":
                return pl.scan_ipc(source)
            return pl.scan_ndjson(source, infer_schema_length=_INFER_ROWS)
        except pl.exceptions.PolarsError as exc:
            raise read_error(self, exc) from None

    def _declared_missing(self, frame: Any) -> Any:
        """``frame`` with the ``--na-values`` cells made missing (:func:`declared_missing`)."""
        changed = []
        for name, dtype in self.schema(frame).items():
            hit = declared_missing(self.na_values, name, dtype)
            if hit is not None:
                column = polars().col(name)
                changed.append(polars().when(hit).then(None).otherwise(column).alias(name))
        return frame.with_columns(changed) if changed else frame

    def skip_blank_lines(self, rows: Any, columns: Sequence[str]) -> bool:
        """Whether a CSV file's blank lines are now left out of every :meth:`scan`, so that
        what was read (``rows``, a polars DataFrame of ``columns``, maybe counted) must be
        read again: only when some row has no value in ``columns`` (a blank line has none)
        and the file has blank lines (:func:`.sniff.blank_rows`, one more pass)."""
        pl = polars()
        if self.skipped or self.fmt not in ("csv", "tsv"):
            return False
        if not rows.select(
            pl.all_horizontal(pl.col(list(dict.fromkeys(columns))).is_null()).any()
        ).item():
            return False
        if len(self.schema(self._scan((), False))) > 1:  # else a blank line is a missing value
            source: Any = self.data if self.path is None else self.path
            lines = pl.scan_csv(
                source, has_header=False, separator="\x00", quote_char=None,
                infer_schema=False, new_columns=["line"], truncate_ragged_lines=True,
                skip_lines=self.skip_lines,
            )  # fmt: skip
            self.skipped = blank_rows(self, lines)
        return bool(self.skipped)

    def schema(self, frame: Any) -> dict[str, Any]:
        """The column names and dtypes of a scan (reads the file's header or metadata)."""
        pl = polars()
        try:
            return {k: v for k, v in frame.collect_schema().items() if k != ROW}
        except pl.exceptions.NoDataError:
            raise WkappaError(f"{self.name} is empty: there is no header and no data.") from None
        except pl.exceptions.PolarsError as exc:
            raise read_error(self, exc) from None
        except OSError as exc:
            raise WkappaError(f"cannot read {self.name}: {exc.strerror or exc}.") from None


def csv_error(path: str, fmt: str | None, separator: str | None, exc: BaseException) -> Any:
    """:func:`ragged_error` for the file named on the command line, or None; standard input,
    read once, is not read again (its line is not named)."""
    if path == "-":
        return unclosed_quote("<stdin>", None) if quote_trouble(exc) else None
    try:
        fmt = detect_format(path, fmt)
    except WkappaError:
        return None
    if not os.path.isfile(path):
        return None
    declared, skip = separator_line(path, file_head(path, _ENCODING_PROBE)[0], None)
    source = Source(path, fmt, path, None, None, separator or declared, skip_lines=skip)
    return ragged_error(source, exc)


def file_name(path: str) -> str:
    """The file as outputs and messages name it: ``<stdin>`` for ``-``."""
    return "<stdin>" if path == "-" else path


def open_source(
    path: str,
    fmt: str | None,
    separator: str | None = None,
    na_values: str | None = None,
    *,
    format_option: bool = True,
    decimal_comma: bool = False,
) -> Source:
    """Check that ``path`` (or ``-`` for stdin) can be read and open it lazily; ``na_values``
    are more spellings of a missing value, comma-separated (``--na-values``);
    ``format_option``: ``--input-format`` applies to this file (a hint may name it);
    ``decimal_comma``: a CSV's numbers are written with a decimal comma (``--decimal-comma``)."""
    missing = missing_spellings(na_values, decimal_comma)
    if path != "-" and not Path(path).exists():  # before its name is asked for a format
        raise WkappaError(f"{path}: no such file. Hint: check the path and the current directory.")
    if path != "-" and Path(path).is_dir():
        raise directory_error(path)
    given = fmt is not None
    fmt = detect_format(path, fmt)
    if separator is not None and (len(separator) != 1 or fmt not in ("csv", "tsv")):
        tab = (
            " Hint: for a tab, --input-format tsv, or --separator $'\\t' in bash."
            if separator == "\\t"
            else ""
        )
        raise WkappaError(
            f"--separator must be one character and applies to CSV/TSV only; got {separator}.{tab}"
        )
    if fmt not in FORMATS:
        raise WkappaError(f"--input-format must be one of {', '.join(FORMATS)}; got {fmt!r}.")
    if decimal_comma and fmt not in ("csv", "tsv"):
        raise WkappaError("--decimal-comma applies to CSV and TSV files only.")
    if path == "-":
        if fmt not in ("csv", "tsv"):
            raise WkappaError("standard input ('-') is read as CSV or TSV only.")
        data = sys.stdin.buffer.read()
        data = decompressed(data)  # gzip on standard input is read as a .gz file is
        if not data.strip():
            raise WkappaError("standard input is empty: there is no header and no data.")
        name = file_name(path)
        check_kind(name, fmt, data[:_ENCODING_PROBE], given=given, stdin=True)
        check_text(name, data, whole=True)
        separator, skip = _csv_separator(name, fmt, data[:_ENCODING_PROBE], separator)
        _check_decimal_comma(decimal_comma, fmt, separator)
        return Source(name, fmt, None, None, data, separator, missing, decimal_comma, skip)
    file = Path(path)
    if not os.access(file, os.R_OK):
        raise WkappaError(f"{path}: permission denied.")
    size = file.stat().st_size
    if size == 0:
        raise WkappaError(f"{path} is empty (0 bytes): there is no header and no data.")
    head, packed = file_head(str(file), _ENCODING_PROBE)
    check_kind(path, fmt, head, given=given, compressed=packed, format_option=format_option)
    check_complete(path, fmt, str(file))
    if fmt in ("csv", "tsv"):
        check_text(path, head, whole=False)
    separator, skip = _csv_separator(path, fmt, head, separator)
    _check_decimal_comma(decimal_comma, fmt, separator)
    stream = fmt == "ipc" and is_arrow_stream(head)
    return Source(
        path, fmt, str(file), size, None, separator, missing, decimal_comma, skip, stream=stream
    )


def _csv_separator(name: str, fmt: str, head: bytes, separator: str | None) -> tuple[Any, int]:
    """A CSV or TSV file's separator and the lines before its header
    (:func:`.sniff.separator_line`); other formats' ``separator`` (None) and 0."""
    return separator_line(name, head, separator) if fmt in ("csv", "tsv") else (separator, 0)


def _check_decimal_comma(decimal_comma: bool, fmt: str, separator: str | None) -> None:
    if decimal_comma and fmt == "csv" and separator in (None, ","):
        raise WkappaError(
            "--decimal-comma needs fields separated by another character than the comma. "
            "Hint: add --separator ';' (the separator of files written with decimal commas)."
        )


def open_file(args: Any) -> Source:
    """:func:`open_source` of a command's rating file as its options say (``FILE``,
    ``--input-format``, ``--separator``, ``--na-values``, ``--decimal-comma``)."""
    return open_source(
        args.file,
        args.input_format,
        args.separator,
        args.na_values,
        decimal_comma=args.decimal_comma,
    )


def _count(frame: Any, keys: Sequence[str], weight: str | None, tick: Any) -> Any:
    """One streaming ``group_by`` over the key columns; rows never reach Python. Weights are
    summed exactly as :mod:`.sample_weights` says, and their keys sorted, so that sums over
    keys add them in the same order on every run."""
    pl = polars()
    columns = list(dict.fromkeys([*keys, *([weight] if weight else [])]))
    selected = frame.select(columns).with_columns(pl.lit(1, pl.Int64).alias(COUNT))
    if tick is not None:
        selected = selected.map_batches(tick, streamable=True)
    aggregations = [pl.col(COUNT).sum()]
    if weight is not None:
        aggregations += sample_weights.aggregations(weight, WEIGHT, _BAD)
    grouped = selected.group_by(list(dict.fromkeys(keys))).agg(aggregations)
    counts = grouped.collect(engine="streaming")
    if weight is None:
        return counts
    return sample_weights.chosen(counts, WEIGHT, COUNT).sort(list(dict.fromkeys(keys)))


def count_keys(
    source: Source,
    keys: Sequence[str],
    *,
    options: dict[str, str],
    weight: str | None = None,
    numeric: Sequence[str] = (),
    text: Sequence[str] = (),
    progress: bool = False,
) -> tuple[Any, Any]:
    """Distinct tuples of the ``keys`` columns with their row count (and summed ``weight``).

    Parameters
    ----------
    source : Source
        The file.
    keys : sequence of str
        Columns to group by (ratings, scores, groups).
    options : dict
        ``option -> column`` for the messages (``{"--true": "grade", ...}``). The ``text``
        columns of ``--by``, ``--cluster``, ``--item`` and ``--rater`` are ids (unless
        another option reads them as ratings): a CSV's are read as the file spells them
        (:func:`~wkappa._cli.ids.read_ids`).
    weight : str, optional
        A column of sample weights, summed per tuple into ``WEIGHT``.
    numeric : sequence of str
        Key columns that must hold numbers (scores).
    text : sequence of str
        Key columns kept as they are (groups; ratings named by ``--labels``). Other text key
        columns are ratings: numbers written as text are parsed, a stray word is an error.
        A rating column named by ``--labels`` is read as numbers by the same rule when every
        value in it is a number (`` 2 `` and ``+2`` are the grade 2 with or without
        ``--labels``), and kept as text otherwise.
    progress : bool
        Show a progress bar (large files only).

    Returns
    -------
    frame : polars.LazyFrame
        The scan, with text columns of numbers cast to Float64 (for row look-ups).
    counts : polars.DataFrame
        One row per distinct tuple: the keys, ``COUNT`` (int64) and ``WEIGHT`` (float64).

    Notes
    -----
    The count runs in polars' streaming engine: memory holds a few batches of rows and the
    distinct tuples, never the columns. Without ``numeric`` and ``weight`` the file is read
    once: whether a text rating column holds numbers is decided on its counted values (a
    refused value's row is looked for after). A CSV value that contradicts the inferred
    column type (``abc`` after 10,000 numbers) is found by scanning once more with the
    columns as text.
    """
    pl = polars()
    rated = {c for o, c in options.items() if o not in ID_OPTIONS}  # read as ratings first
    ids = {c: o for o, c in options.items() if o in ID_OPTIONS and c in text and c not in rated}
    frame = source.scan(text_ids(source, ids))
    schema = source.schema(frame)
    check_columns(source, schema, options)
    _refuse_temporal_ratings(source, schema, options, keys, numeric)
    used = list(dict.fromkeys([*keys, *([weight] if weight else [])]))
    frame = strip_ids(source, blank_is_missing(frame, schema, keys), ids)
    labelled = [k for k in keys if k in text and k in rated]  # ratings named by --labels
    typed = [k for k in keys if k not in text]
    # Without scores or weights, whether a text rating column holds numbers is found among
    # the counted values (every value a column takes): the file is read once.
    later = weight is None and not numeric
    first = ([], []) if later else (typed, labelled)  # the columns typed before the count
    frame = _typed(source, frame, first[0], numeric, weight, first[1])
    with progress_bar(source, progress) as tick:
        counts = None
        if later:
            try:
                counts = _count(frame, keys, weight, tick)
            except pl.exceptions.PolarsError:
                # A file that fails to read fails as it does with its text columns typed
                # first (the message, and the fallback to text of a CSV).
                later, tick = False, None
                frame = _typed(source, frame, typed, numeric, weight, labelled)
        if counts is None:
            try:
                counts = _count(frame, keys, weight, tick)
            except pl.exceptions.ComputeError as exc:
                if source.fmt not in ("csv", "tsv"):
                    raise read_error(source, exc) from None
                text_frame = blank_is_missing(
                    source.scan(string_columns=used), dict.fromkeys(used, pl.String), keys
                )
                frame = _typed(
                    source, strip_ids(source, text_frame, ids), typed, numeric, weight, labelled
                )
                try:
                    counts = _count(frame, keys, weight, None)
                except pl.exceptions.PolarsError as again:
                    raise read_error(source, again) from None
            except pl.exceptions.PolarsError as exc:
                raise read_error(source, exc) from None
    if later:
        frame, counts = _typed_counts(source, frame, counts, keys, typed, labelled)
    if source.skip_blank_lines(counts, keys):  # a blank line is not a row: read again without
        return count_keys(
            source, keys, options=options, weight=weight, numeric=numeric, text=text,
            progress=progress,
        )  # fmt: skip
    if counts.height == 0:
        raise no_data_rows(source.name, source.skipped)
    if weight is not None and counts[_BAD].sum() > 0:
        _raise_bad_weight(source, frame, weight)
    return read_ids(source, frame, counts.drop(_BAD, strict=False), ids)


def no_data_rows(name: str, skipped: Sequence[int] = ()) -> WkappaError:
    """The error for a file ``name`` that has a header and nothing under it (but the
    ``skipped`` blank lines)."""
    blank = f" (only {len(skipped):,} blank line{'s' * (len(skipped) > 1)})" if skipped else ""
    return WkappaError(f"{name} has a header but no data rows{blank}; there is nothing to score.")


def _typed(
    source: Source,
    frame: Any,
    keys: Sequence[str],
    numeric: Sequence[str],
    weight: str | None,
    labelled: Sequence[str] = (),
) -> Any:
    frame = numeric_columns(source, frame, [k for k in keys if k not in numeric], required=False)
    frame = numeric_columns(source, frame, labelled, required=False, words=True)
    required = [*numeric, *([weight] if weight else [])]
    frame = numeric_columns(source, frame, required, required=True)
    schema = source.schema(frame)
    for column in required:
        if not schema[column].is_numeric():
            _refuse_not_numbers(source, frame, column, schema[column])
    return frame


def _typed_counts(
    source: Source,
    frame: Any,
    counts: Any,
    keys: Sequence[str],
    typed: Sequence[str],
    labelled: Sequence[str],
) -> tuple[Any, Any]:
    """What :func:`_typed` does to the rating columns (``typed``; ``labelled``: those named
    by ``--labels``), decided on the counted rows (:func:`.numbers.numeric_counts`); the
    counts of two spellings of one number (`` 3`` and ``3``) added up."""
    frame, counts, cast = numeric_counts(source, frame, counts, typed)
    frame, counts, cast_labelled = numeric_counts(source, frame, counts, labelled, words=True)
    if cast or cast_labelled:
        counts = counts.group_by(list(dict.fromkeys(keys))).agg(polars().col(COUNT).sum())
    return frame, counts


def _refuse_temporal_ratings(
    source: Source,
    schema: dict[str, Any],
    options: dict[str, str],
    keys: Sequence[str],
    numeric: Sequence[str],
) -> None:
    """A rating column of dates or times (a Parquet, Arrow or JSON timestamp named by
    mistake) is refused by its option before anything is counted."""
    for option, column in options.items():
        if option in ID_OPTIONS or column not in keys or column in numeric:
            continue
        dtype = schema.get(column)
        if dtype is not None and dtype.is_temporal():
            raise WkappaError(
                f"{source.name}: column {column!r} (given to {option}) holds dates or times, "
                f"not ratings. Hint: check that {option.split()[0]} names the columns of "
                "ratings you mean."
            )


def _refuse_not_numbers(source: Source, frame: Any, column: str, dtype: Any) -> None:
    """A column that must hold numbers and does not: a header without data rows, a column
    without any value, or values of another kind (true/false, dates), said in words."""
    pl = polars()
    found = frame.select(rows=pl.len(), values=pl.col(column).count()).collect()
    if found["rows"].item() == 0:
        raise no_data_rows(source.name, source.skipped)
    if found["values"].item() == 0:
        raise WkappaError(
            f"{source.name}: column {column!r} is empty: no row has a value in it. Hint: check "
            "that the option names the column of numbers you mean."
        )
    kind = "values that are not numbers"
    if dtype == pl.Boolean or dtype.is_temporal():
        kind = "true/false values" if dtype == pl.Boolean else "dates or times"
    raise WkappaError(f"{source.name}: column {column!r} must hold numbers; it holds {kind}.")


def _raise_bad_weight(source: Source, frame: Any, column: str) -> None:
    """Sample weights must be present, finite and non-negative: the first bad row is named."""
    bad = sample_weights.bad(column)
    shown = frame.filter(bad).select(column).head(1).collect().item()
    raise sample_weights.refusal(source.name, first_row(frame, bad), column, shown)
