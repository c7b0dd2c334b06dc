"""What ``thresholds --apply ... --out FILE`` writes: the ``--apply`` file's own columns, and
the file itself (compressed when its name ends in ``.gz``); and how every output file
(``--out``, ``--report``, ``--plot``) is written: complete or not at all, its directory
created when missing, with the permissions the umask gives a new file.

A CSV or TSV file written as CSV or TSV is copied cell for cell. Into a typed format (Parquet,
Arrow, JSON lines) a CSV's columns go with the types the command line reads them with: a
column of numbers (surrounding spaces and the usual missing spellings allowed: `` 3.1 ``,
``NA``) is numbers with nulls, and a column whose numbers are zero-padded (``007``) keeps its
spelling as text, as ids do (``007`` and ``7`` are two ids).
"""

from __future__ import annotations

import dataclasses
import gzip
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..exceptions import WkappaError
from .io import Source, polars
from .missing import MISSING_SPELLINGS
from .numbers import number_of
from .rows import ROW, without_rows
from .sniff import read_error

__all__ = ["as_written", "check_out_name", "write_atomically", "write_bytes", "write_text"]

# A whole number written with a leading zero (``007``, ``-01``): an id's spelling.
_PADDED = r"^[+-]?0[0-9]"
# A whole number that fits in Int64 (18 digits at most).
_INTEGER = r"^[+-]?[0-9]{1,18}$"


def check_out_name(path: str, out_format: str) -> None:
    """``--out NAME.gz`` is written compressed for the text formats (CSV, TSV, JSON lines);
    Parquet and Arrow compress inside the file, so ``.parquet.gz`` is refused."""
    if path.lower().endswith(".gz") and out_format in ("parquet", "ipc"):
        suffix = ".parquet" if out_format == "parquet" else ".arrow"
        raise WkappaError(
            f"--out {path!r}: a {'Parquet' if out_format == 'parquet' else 'Arrow'} file is "
            f"compressed inside, not with gzip. Hint: name it {suffix} (without .gz)."
        )


def as_written(other: Source, out_format: str, numbers: Sequence[str]) -> Any:
    """The ``--apply`` file's own columns as a LazyFrame, to be written back as they were
    (the header too, spaces and all); its blank lines (``other.skipped``) are not rows.

    A CSV or TSV file written as CSV or TSV: cell for cell (every column read as text and
    nothing read as missing, so ``-9``, ``NA``, `` -9 `` and ``007`` stay as they are). Into
    any other format: the columns' types as read, without ``--na-values`` (which only decide
    which scores are missing: a code such as ``-9`` in a column of numbers is written back,
    not emptied); a CSV's columns of numbers are numbers (``numbers``, the score column,
    always), and zero-padded ones text.
    """
    pl = polars()
    numbers = [other.written_name(name) for name in numbers]  # the header as written
    if other.fmt not in ("csv", "tsv"):
        return dataclasses.replace(other, na_values=()).scan(whole_file=True, as_written=True)
    try:
        text = pl.scan_csv(
            other.data if other.path is None else other.path,
            separator=other.delimiter,
            infer_schema=False,
            null_values=None,
            skip_lines=other.skip_lines,
        )
        # The blank lines the reader skipped are not rows: not written either.
        text = without_rows(text, other.skipped).drop(ROW, strict=False)
        if out_format in ("csv", "tsv"):
            return text
        return _typed(other, text, numbers)
    except pl.exceptions.PolarsError as exc:  # (read once already by the typed scan)
        raise read_error(other, exc) from None


def _typed(other: Source, text: Any, numbers: Sequence[str]) -> Any:
    """A CSV's columns (``text``: every cell as written) typed as the command line reads them."""
    pl = polars()
    typed = dataclasses.replace(other, na_values=()).scan(whole_file=True, as_written=True)
    schema = other.schema(typed)
    typed = typed.select(list(schema))  # without the rows' numbers in the file
    cells = {name: _cell(name) for name in schema}
    parsed = {name: number_of(cell, other.decimal_comma) for name, cell in cells.items()}
    tally = text.select(
        *(
            (cells[n].is_null() | parsed[n].is_not_null()).all().alias(f"number {n}")
            for n in schema
        ),
        *(cells[n].is_not_null().any().alias(f"any {n}") for n in schema),
        *(cells[n].str.contains(_PADDED).any().alias(f"padded {n}") for n in schema),
        *(
            (cells[n].is_null() | cells[n].str.contains(_INTEGER)).all().alias(f"integer {n}")
            for n in schema
        ),
    ).collect(engine="streaming")
    found = tally.row(0, named=True)
    replaced = {}
    for name, dtype in schema.items():
        is_number = found[f"number {name}"] and found[f"any {name}"]
        if name in numbers:  # the scores: numbers, a missing one null
            replaced[name] = parsed[name]
        elif is_number and found[f"padded {name}"]:  # ids: '007' is not 7
            replaced[name] = cells[name]
        elif is_number and dtype == pl.String:  # ' 3', 'NA': numbers, as the reader reads them
            integer = found[f"integer {name}"]
            replaced[name] = cells[name].cast(pl.Int64, strict=False) if integer else parsed[name]
    if not replaced:
        return typed
    kept = [name for name in schema if name not in replaced]
    changed = text.select(expression.alias(name) for name, expression in replaced.items())
    return pl.concat([typed.select(kept), changed], how="horizontal").select(list(schema))


def _cell(name: str) -> Any:
    """A CSV cell as the command line reads it: without surrounding spaces, a missing
    spelling (``NA``, an empty cell, ...) null."""
    pl = polars()
    stripped = pl.col(name).str.strip_chars()
    return pl.when(stripped.is_in(list(MISSING_SPELLINGS))).then(None).otherwise(stripped)


def write_atomically(out: str, write: Callable[[str], object], option: str = "--out") -> None:
    """Run ``write(path)`` into a temporary file beside ``out`` and rename it to ``out`` when
    complete (an error never leaves a partial file); a name ending in ``.gz`` is compressed.

    A missing directory of ``out`` is created, the file gets the permissions the umask gives
    a new file (``0o666 & ~umask``, as ``open`` would), and an operating system's refusal
    (no permission, a full disk) is an error naming ``option``.
    """
    try:
        _write(out, write)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != out else ""
        raise WkappaError(
            f"{option} {out}: cannot write the file: {reason}{where}. Hint: choose a "
            f"writable place for {option}."
        ) from None


def write_text(out: str, text: str, option: str) -> None:
    """Write ``text`` (UTF-8) to ``out`` as :func:`write_atomically` does (``option``: the
    option that named the file, such as ``--report``)."""
    write_atomically(out, lambda path: Path(path).write_text(text, encoding="utf-8"), option)


def write_bytes(out: str, data: bytes, option: str) -> None:
    """Write ``data`` to ``out`` as :func:`write_atomically` does."""
    write_atomically(out, lambda path: Path(path).write_bytes(data), option)


def _umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write(out: str, write: Callable[[str], object]) -> None:
    out_dir = Path(out).parent
    out_dir.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(prefix=f".{Path(out).name}.", suffix=".partial", dir=out_dir)
    os.close(handle)
    plain = partial + ".plain"
    try:
        if out.lower().endswith(".gz"):
            write(plain)
            with open(plain, "rb") as source, gzip.open(partial, "wb") as target:
                shutil.copyfileobj(source, target, 1 << 20)
        else:
            write(partial)
        # mkstemp makes the file 0600; a written file is as any new file of the user's.
        os.chmod(partial, 0o666 & ~_umask())
        os.replace(partial, out)
    finally:
        for path in (partial, plain):
            if os.path.exists(path):
                os.remove(path)
