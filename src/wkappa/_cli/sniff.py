"""What a rating file is, from its first bytes, and the one-line errors about its content.

A file's name or ``--input-format`` says how it is read; its first bytes say what it is. When
they disagree (a Parquet file named ``.csv``, a CSV file read as Parquet, a JSON array read as
JSON lines, a gzip stream without ``.gz``), the error says what the file looks like and how to
read it, instead of the reader's complaint about bytes it did not expect. The text checks
(NUL bytes, UTF-8, line ends, a row with more fields than the header, quotes that do not pair
up, a JSON lines line that is not one flat object) live here too, and so does finding a CSV
file's blank lines (:func:`blank_rows`), which are not rows.
"""

from __future__ import annotations

import csv
import gzip
import io
import itertools
import json
import os
import re
import shlex
import zlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .._core import import_optional
from ..exceptions import WkappaError

if TYPE_CHECKING:
    from .io import Source

__all__ = [
    "FORMAT_NAMES",
    "GZIP",
    "WORKBOOK_FIX",
    "bad_json_line",
    "blank_rows",
    "check_complete",
    "check_kind",
    "check_text",
    "check_utf8",
    "compressed",
    "damaged",
    "decompressed",
    "file_head",
    "is_arrow_stream",
    "kind_of",
    "nested_json_line",
    "not_utf8",
    "quote_trouble",
    "ragged_error",
    "ragged_line",
    "read_error",
    "separator_line",
    "text_lines",
    "unclosed_quote",
]

GZIP = b"\x1f\x8b"
_PARQUET = b"PAR1"
_ARROW = b"ARROW1"
# An Arrow IPC stream (pyarrow.ipc.new_stream, an .arrows file) has no magic number: it starts
# with its first message's continuation marker, then that message's length.
_ARROW_STREAM = b"\xff\xff\xff\xff"
_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an OLE2 compound file: Excel's .xls
# What each kind of file is called in a message: (article, name).
_NAMES = {
    "parquet": ("a", "Parquet file"),
    "ipc": ("an", "Arrow IPC (Feather) file"),
    "zip": ("a", "zip archive (an Excel .xlsx workbook is one)"),
    "ole": ("an", "OLE2 compound file (an Excel .xls workbook is one)"),
    "json": ("a", "JSON array ([{...}, ...])"),
    "ndjson": ("", "JSON lines (one {...} object per line)"),
    "text": ("", "text (CSV or TSV)"),
}
_SUFFIX = {"parquet": ".parquet", "ipc": ".arrow", "ndjson": ".jsonl", "text": ".csv"}
# The fix for a workbook given as data.
WORKBOOK_FIX = "'CSV UTF-8', then pass that file."
FORMAT_NAMES = {
    "csv": "CSV",
    "tsv": "TSV",
    "parquet": "Parquet",
    "ipc": "Arrow IPC",
    "ndjson": "JSON lines",
}


def kind_of(head: bytes) -> str | None:
    """What the first bytes ``head`` of a file (decompressed) say it is: ``"parquet"``,
    ``"ipc"``, ``"zip"``, ``"json"`` (an array), ``"ndjson"`` (an object first), ``"text"``
    (UTF-8 text otherwise), or None (binary of another kind)."""
    if head.startswith(_PARQUET):
        return "parquet"
    if head.startswith(_ARROW) or is_arrow_stream(head):
        return "ipc"
    if head.startswith(_ZIP):
        return "zip"
    if head.startswith(_OLE):
        return "ole"
    if head.startswith(GZIP):
        return "gzip"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:  # a character cut at the end of the probe is text
        if exc.start < len(head) - 3:
            return None
        text = head[: exc.start].decode("utf-8")
    if "\x00" in text:
        return None
    start = text.lstrip("\ufeff \t\r\n")[:1]
    return {"[": "json", "{": "ndjson"}.get(start, "text")


def is_arrow_stream(head: bytes) -> bool:
    """Whether the first bytes ``head`` of a file are those of an Arrow IPC stream (the
    format ``pyarrow.ipc.new_stream`` writes, often named ``.arrows``), not of an Arrow IPC
    file (which starts with ``ARROW1``).

    Examples
    --------
    >>> is_arrow_stream(b"\\xff\\xff\\xff\\xff\\x08\\x01\\x00\\x00")
    True
    >>> is_arrow_stream(b"ARROW1\\x00\\x00")
    False
    """
    return head.startswith(_ARROW_STREAM) and int.from_bytes(head[4:8], "little") > 0


def check_kind(
    name: str,
    fmt: str,
    head: bytes,
    *,
    given: bool,
    compressed: bool = False,
    stdin: bool = False,
    format_option: bool = True,
) -> None:
    """Refuse a file whose first bytes ``head`` (decompressed if it was gzip: ``compressed``)
    contradict the format ``fmt`` it is about to be read as; ``given``: ``fmt`` came from
    ``--input-format`` (else from the file's name); ``format_option``: ``--input-format``
    applies to the file (else the hint names only the suffix)."""
    kind = kind_of(head)
    if kind in ("zip", "ole"):
        raise WkappaError(
            f"{name} is {_described(kind, compressed)}, not a {FORMAT_NAMES[fmt]} file. "
            f"Hint: open it and save the sheet as {WORKBOOK_FIX}"
        )
    if kind == "gzip":
        raise WkappaError(
            f"{name} is gzip-compressed twice. Hint: decompress it once: gunzip -c "
            f"{_quoted(name)} > NEW.gz."
        )
    if compressed and kind == fmt and fmt in ("parquet", "ipc"):  # read only uncompressed
        raise WkappaError(
            f"{name} is a gzip-compressed {FORMAT_NAMES[fmt]} file, which is read only "
            f"uncompressed. Hint: decompress it first: gunzip -c {_quoted(name)} > "
            f"NEW{_SUFFIX[fmt]}."
        )
    if fmt in ("csv", "tsv"):
        wrong = kind in ("parquet", "ipc") or (kind == "ndjson" and _object_line(head))
    elif fmt == "ndjson":
        wrong = kind in ("parquet", "ipc", "json", "text")
    else:  # parquet, ipc: binary formats with a magic number of their own
        wrong = kind is not None and kind != fmt
    if not wrong or kind is None:
        return
    if stdin:
        raise WkappaError(
            f"standard input is {_described(kind, compressed)}; '-' is read as CSV or TSV only. "
            "Hint: give the file's name instead of '-'."
        )
    what = f"{name} is {_described(kind, compressed)}, not {FORMAT_NAMES[fmt]}"
    if kind == "json":
        raise WkappaError(
            f"{what}. Hint: convert it to JSON lines: jq -c '.[]' {_quoted(name)} > NEW.jsonl."
        )
    if compressed and kind in ("parquet", "ipc"):
        raise WkappaError(
            f"{what}, and it is read only uncompressed. Hint: decompress it: gunzip -c "
            f"{_quoted(name)} > NEW{_SUFFIX[kind]}."
        )
    option = {"text": "csv (or tsv)"}.get(kind, kind)
    if given:
        hint = f"pass --input-format {option}."
    elif format_option:
        hint = f"name it {_SUFFIX[kind]}, or pass --input-format {option}."
    else:
        hint = f"name it {_SUFFIX[kind]}."
    raise WkappaError(f"{what}. Hint: {hint}")


def _object_line(head: bytes) -> bool:
    """Whether the first line of ``head`` is one JSON object: a JSON lines file, which a CSV
    reader would split at its commas into columns named '{"grade":3' and the like."""
    line = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _described(kind: str, compressed: bool) -> str:
    """A kind of file in a message: "a Parquet file", "a gzip-compressed Parquet file"."""
    article, noun = _NAMES[kind]
    if compressed:
        article, noun = ("a" if article else ""), f"gzip-compressed {noun}"
    return f"{article} {noun}".lstrip()


def _quoted(name: str) -> str:
    return shlex.quote(name) if name != "<stdin>" else "FILE"


def text_lines(path: str | None, data: bytes | None) -> Iterator[str]:
    """The lines of a CSV or TSV file (``path``, or the bytes ``data`` of standard input) as
    text: decompressed, a bad byte replaced."""
    if path is None:
        assert data is not None
        yield from io.StringIO(data.decode("utf-8", errors="replace"), newline="")
        return
    opener: Any = gzip.open if compressed(path) else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="") as handle:
        yield from handle


# Excel's first line naming a CSV file's separator ("sep=;"), before the header.
_SEPARATOR_LINE = re.compile(rb"(?:\xef\xbb\xbf)?sep=([^\r\n])\r?\n")


def separator_line(name: str, head: bytes, separator: str | None) -> tuple[str | None, int]:
    """The separator of a CSV text whose first bytes ``head`` open with Excel's line naming
    it (``sep=;``), and the lines to skip before the header (1); else ``separator`` (the
    ``--separator`` given, or None) and 0. The line names the separator, so it is read as
    written; a ``--separator`` that says otherwise is refused.

    Examples
    --------
    >>> separator_line("a.csv", b"sep=;\\r\\na;b\\r\\n1;2\\r\\n", None)
    (';', 1)
    >>> separator_line("a.csv", b"a,b\\n1,2\\n", None)
    (None, 0)
    """
    found = _SEPARATOR_LINE.match(head)
    if found is None:
        return separator, 0
    declared = found[1].decode("utf-8", errors="replace")
    if separator is not None and separator != declared:
        raise WkappaError(
            f"{name} names its separator in its first line, sep={declared}, but --separator "
            f"{separator!r} was given. Hint: drop --separator; that line is read as the "
            "separator it names."
        )
    return declared, 1


def compressed(path: str) -> bool:
    """Whether the file at ``path`` is gzip-compressed (from its first bytes)."""
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP


def decompressed(data: bytes) -> bytes:
    """The bytes of standard input, decompressed if they are gzip-compressed."""
    if data[:2] != GZIP:
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        raise WkappaError(
            "standard input is a damaged or truncated gzip stream. Hint: check it with gzip -t."
        ) from None


def file_head(path: str, size: int) -> tuple[bytes, bool]:
    """The first ``size`` bytes of the file at ``path``, decompressed if it is gzip-compressed
    (the reader decompresses CSV, TSV and JSON lines whatever their name), and whether it
    was."""
    with open(path, "rb") as handle:
        head = handle.read(size)
    if head[:2] != GZIP:
        return head, False
    try:
        with gzip.open(path, "rb") as handle:
            return bytes(handle.read(size)), True
    except (OSError, EOFError, zlib.error):
        raise WkappaError(
            f"{path} is a damaged or truncated gzip file. Hint: check it with gzip -t, or "
            "compress the original again."
        ) from None


def not_utf8(name: str, data: bytes | None = None) -> WkappaError:
    """The error for a text file that is not UTF-8 (Excel's "CSV" is cp1252 on Windows); with
    the file's first bytes ``data``, it names the line of the first bad byte."""
    where = ""
    if data is not None and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return WkappaError(
            f"{name} is UTF-16 text (Excel's 'Unicode Text'), not UTF-8. Hint: save it as "
            "'CSV UTF-8', or convert it: iconv -f utf-16 -t utf-8 FILE > NEW.csv."
        )
    if data is not None:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            header = 1 + (_SEPARATOR_LINE.match(data) is not None)  # after Excel's sep=;
            where = f", line {line} (the header is line {header}),"
    return WkappaError(
        f"{name}{where} is not UTF-8 text (a file saved as CSV by Excel on Windows is cp1252). "
        "Hint: save it as 'CSV UTF-8', or convert it: iconv -f cp1252 -t utf-8 FILE > NEW.csv."
    )


def check_utf8(name: str, data: bytes, whole: bool) -> None:
    """Refuse ``data`` (the file, or with ``whole`` False its first bytes) if it is not UTF-8."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if whole or exc.start < len(data) - 3:  # not a character cut at the end of the probe
            raise not_utf8(name, data) from None


def check_text(name: str, data: bytes, whole: bool) -> None:
    """Refuse CSV or TSV ``data`` (the file, or with ``whole`` False its first bytes) that is
    not text the reader can split into lines: NUL bytes (a binary file), not UTF-8
    (:func:`check_utf8`), or lines that end in a carriage return only."""
    if b"\x00" in data and data[:2] not in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16: not_utf8
        raise WkappaError(
            f"{name} is not a text file: it holds NUL bytes, which CSV and TSV text never does "
            "(a binary file, or UTF-16 text without a byte-order mark). Hint: pass the data "
            "exported as CSV (UTF-8); UTF-16 text converts with iconv -f utf-16 -t utf-8 FILE "
            "> NEW.csv."
        )
    check_utf8(name, data, whole)
    if b"\r" in data and b"\n" not in data:
        raise WkappaError(
            f"{name}: its lines end in a carriage return only (CR, as in classic Mac OS "
            "files), which the reader does not take for the end of a line. Hint: convert the "
            "line ends: tr '\\r' '\\n' < FILE > NEW.csv."
        )


def ragged_line(
    name: str, lines: Iterable[str], separator: str, skipped: int = 0
) -> WkappaError | None:
    """The error for the first record of a CSV text (``lines``, the header first, after the
    ``skipped`` lines of the file before it) with more fields than its header, naming its
    line in the file; None if there is none."""
    reader = csv.reader(lines, delimiter=separator, quotechar='"')
    header = next(reader, None)
    if header is None:
        return None
    for record in reader:
        if len(record) > len(header):
            holds = (
                "a tab" if separator == "\t" else f'the separator {separator!r} ("1{separator}5")'
            )
            return WkappaError(
                f"{name}, line {reader.line_num + skipped} (the header is line "
                f"{1 + skipped}), has {len(record)} "
                f"fields where the header has {len(header)}. Hint: quote a value that holds "
                f"{holds}, give every column a name in the header, or pass "
                "--separator if the file uses another one."
            )
    return None


def unclosed_quote(
    name: str, lines: Iterable[str] | None, separator: str = ",", skipped: int = 0
) -> WkappaError | None:
    """The error for the first record of a CSV text (``lines``) whose quoted value is not
    closed properly, naming the line it starts on (without ``lines``: not naming it); None
    if there is none."""
    start = None
    if lines is not None:
        lines = list(lines)
        reader = csv.reader(lines, delimiter=separator, quotechar='"', strict=True)
        try:
            for _ in reader:
                start = reader.line_num + 1
        except csv.Error:
            start = start or 1
        else:
            return _stray_quote(name, lines, skipped)
    header = f"(the header is line {1 + skipped})"
    where = f", line {start + skipped} {header}" if start is not None else ""
    return WkappaError(
        f'{name}{where}: a quote (") opens a value that is not closed properly. Hint: close '
        'the quote; a quote inside a quoted value is written twice ("").'
    )


def _stray_quote(name: str, lines: Iterable[str], skipped: int = 0) -> WkappaError | None:
    """The error for a quote inside a value that is not quoted (``4"``), which leaves the
    file's quotes unpaired from its line on; None if every line pairs its quotes."""
    opened = None
    for number, line in enumerate(lines, start=1 + skipped):
        if line.count('"') % 2:
            opened = number if opened is None else None
    if opened is None:
        return None
    return WkappaError(
        f'{name}, line {opened} (the header is line {1 + skipped}): a quote (") in a value has no '
        'partner. Hint: remove it, or quote the whole value and write the quote twice ("4""" '
        'for 4").'
    )


def directory_error(path: str) -> WkappaError:
    """The refusal of a directory given as the file: one of its files is read, and a
    directory of Parquet files (a dataset, as Spark and Dask write it) is scored from Python
    through a polars scan of its files, which reads them where they are."""
    from pathlib import Path

    parts = sum(1 for _ in itertools.islice(Path(path).rglob("*.parquet"), 10_000))
    if not parts:
        return WkappaError(f"{path} is a directory, not a file. Hint: give one of its files.")
    many = f"{parts:,}{'+' * (parts == 10_000)} Parquet files"
    pattern = f"{path.rstrip('/')}/**/*.parquet"
    return WkappaError(
        f"{path} is a directory of {many}, not a file; the command line reads one file. "
        f"Hint: give one of its files, or score them all from Python: "
        f"wkappa.frames.weighted_kappa(polars.scan_parquet({pattern!r}), y_true=..., "
        "y_pred=...) reads the files where they are."
    )


def damaged(name: str, fmt: str) -> WkappaError:
    """The error for a Parquet or Arrow IPC file whose contents the reader cannot decode (a
    file that was cut, or written by a program that stopped half way)."""
    return WkappaError(
        f"{name} is a damaged {FORMAT_NAMES[fmt]} file: its contents do not follow the "
        "format. Hint: export or copy it again; if it is another kind of file, pass "
        "--input-format with its format."
    )


def nested_json_line(name: str, lines: Iterable[str]) -> WkappaError | None:
    """The error for the first line of JSON lines text with a nested value (an array or an
    object) where a column's value belongs, naming the line and key; None if there is none."""
    for number, line in enumerate(lines, start=1):
        try:
            value = json.loads(line) if line.strip() else {}
        except json.JSONDecodeError:
            return None  # bad_json_line's to name
        for key, item in value.items() if isinstance(value, dict) else ():
            if isinstance(item, (list, dict)):
                kind = "an array" if isinstance(item, list) else "an object"
                return WkappaError(
                    f"{name}, line {number}: key {key!r} holds {kind}, where a column holds one "
                    "value per line (a number, a string or null). Hint: flatten the file into "
                    "one value per key, e.g. with jq."
                )
    return None


def check_complete(name: str, fmt: str, path: str) -> None:
    """Refuse a Parquet or Arrow IPC file cut short (a copy or download that stopped): both
    formats end with the magic number they start with."""
    ends = {"parquet": (b"PAR1", b"PARE"), "ipc": (_ARROW,)}.get(fmt)
    if ends is None:
        return
    with open(path, "rb") as handle:
        head = handle.read(len(_ARROW))
        handle.seek(max(os.fstat(handle.fileno()).st_size - len(_ARROW), 0))
        tail = handle.read()
    if fmt == "ipc" and not head.startswith(_ARROW):
        return  # an Arrow stream, which has no closing magic number
    if not tail.endswith(ends):
        raise WkappaError(
            f"{name} is {_described(fmt, False)} cut short: it does not end as one does. "
            "Hint: copy or export it again."
        )


def bad_json_line(name: str, lines: Iterable[str]) -> WkappaError | None:
    """The error for the first line of JSON lines text that is not one JSON object, naming
    the line; None if every line is one."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line.rstrip("\r\n"))
        except json.JSONDecodeError as exc:
            why = f"it is not valid JSON ({exc.msg} at column {exc.colno})"
        else:
            if isinstance(value, dict):
                continue
            why = f"it holds a JSON {type(value).__name__}, not an object"
        return WkappaError(
            f"{name}, line {number}: {why}. Hint: write one JSON object ({{...}}) per line."
        )
    return None


def ragged_error(source: Source, exc: BaseException) -> WkappaError | None:
    """The error naming the line of a CSV row with more fields than the header, or of a
    quote not closed, when that is what polars' ``exc`` complains of; else None."""
    if source.fmt not in ("csv", "tsv"):
        return None
    lines = itertools.islice(text_lines(source.path, source.data), source.skip_lines, None)
    if "more fields than" in str(exc):
        return ragged_line(source.name, lines, source.delimiter, source.skip_lines)
    if quote_trouble(exc):
        return unclosed_quote(source.name, lines, source.delimiter, source.skip_lines)
    return None


def quote_trouble(exc: BaseException) -> bool:
    """Whether polars' ``exc`` is its complaint of quotes that do not pair up (a quoted value
    not closed, or a quote inside a value that is not quoted)."""
    return "not properly escaped" in str(exc) or "CSV malformed" in str(exc)


def read_error(source: Source, exc: BaseException) -> WkappaError:
    """A one-line error for a file polars could not read: a CSV row with more fields than the
    header is named by its line."""
    ragged = ragged_error(source, exc)
    if ragged is not None:
        return ragged
    if source.fmt == "ndjson" and source.path is not None:
        found = bad_json_line(source.name, text_lines(source.path, None))
        found = found or nested_json_line(source.name, text_lines(source.path, None))
        if found is not None:
            return found
    if source.fmt in ("parquet", "ipc"):
        return damaged(source.name, source.fmt)
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    separator = " or --separator" if source.fmt in ("csv", "tsv") else ""
    return WkappaError(
        f"{source.name} could not be read as {FORMAT_NAMES[source.fmt]} (the reader says: "
        f"{first.rstrip('.')}). Hint: check that the file is {FORMAT_NAMES[source.fmt]}; "
        f"pass --input-format{separator} if it is written another way."
    )


def blank_rows(source: Source, lines: Any) -> tuple[int, ...]:
    """The data rows (1-based, header not counted, as the reader numbers them) that are blank
    lines of a CSV or TSV file: nothing on the line but spaces, tabs and its line end. A
    blank line is not a row (a spreadsheet export's empty line, a trailing one); a line of
    separators only (``,,``) is a row whose every value is missing, and stays one.

    ``lines`` is the file read by polars as physical lines (one text column, quotes not
    parsed: one fast pass). A quoted value that runs over several lines makes a line not a
    row: when a line opens a quote it does not close, the records are counted by Python's
    CSV reader instead."""
    pl = import_optional("polars", "cli")
    line = pl.col("line")
    blank = line.is_null() | (line.str.strip_chars() == "")
    found = (
        lines.with_row_index("row")
        .select(
            rows=pl.col("row").filter(blank & (pl.col("row") > 0)).implode(),
            unpaired=(line.str.count_matches('"', literal=True) % 2 == 1).any(),
        )
        .collect()
    )
    if not found["unpaired"].item():
        return tuple(found["rows"].item().to_list())
    records = itertools.islice(text_lines(source.path, source.data), source.skip_lines, None)
    reader = csv.reader(records, delimiter=source.delimiter, quotechar='"')
    try:
        next(reader, None)  # the header
        return tuple(
            number
            for number, record in enumerate(reader, start=1)
            if len(record) <= 1 and not "".join(record).strip()
        )
    except csv.Error:  # a quote never closed: the reader's own error names it
        return ()
