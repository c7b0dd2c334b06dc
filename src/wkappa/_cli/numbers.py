"""Numbers written as text in a rating file: a CSV column of numbers that polars read as
text (spaces around them, a stray word, a decimal comma) cast to numbers, or the first cell
that is not one named with its row and the fix."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NoReturn

from .._core import format_value, import_optional
from ..exceptions import WkappaError
from .missing import blank_is_missing, missing_code, na_values_option
from .rows import first_row

__all__ = ["number_of", "numeric_columns", "numeric_counts"]

# The error values a spreadsheet writes for a formula that failed (#N/A is a missing code).
_FORMULA_ERROR = re.compile(r"#(DIV/0!|VALUE!|REF!|NAME\?|NUM!|NULL!|SPILL!|CALC!)", re.IGNORECASE)


def numeric_columns(
    source: Any, frame: Any, columns: Sequence[str], *, required: bool, words: bool = False
) -> Any:
    """Cast text columns that hold numbers to Float64; an unparsable value is an error.

    Numbers may have surrounding spaces (`` 3 ``) and are read as polars reads a float
    (``3``, ``3.0``, ``+3`` and ``3e0`` are one number); a cell of spaces only is empty, a
    missing value, as ``""`` is. A text column whose values are all non-numeric is left alone
    (categories given as words) unless numbers are ``required``, which also reads a categorical
    column as the text of its categories (numbers stored as a pandas categorical, a Parquet or
    Arrow dictionary); with ``words`` (ratings named
    by ``--labels``, which may list ``1`` and ``mild`` alike), so is a column holding any word.
    With the ``source``'s ``--decimal-comma``, a number is written ``2,5`` and one with a
    point is unparsable. One streaming pass over the text columns (see :func:`numeric_counts`).

    Parameters
    ----------
    source : Source
        The file (:class:`wkappa._cli.io.Source`): its name, schema and decimal mark.
    frame : polars.LazyFrame
        Its scan.
    columns : sequence of str
        The columns to read as numbers.
    required : bool
        Whether a column of words only is an error too.
    words : bool
        Whether a column holding any word is left as text (ratings named by ``--labels``).

    Returns
    -------
    polars.LazyFrame
        ``frame`` with those text columns of numbers cast to Float64.
    """
    pl = import_optional("polars", "cli")
    schema = source.schema(frame)
    frame = blank_is_missing(frame, schema, columns)
    if required:  # a categorical column of numbers (pandas, Parquet, Arrow) holds them as text
        coded = [c for c in dict.fromkeys(columns) if schema[c] in (pl.Categorical, pl.Enum)]
        if coded:
            frame = frame.with_columns(pl.col(c).cast(pl.String) for c in coded)
            schema = source.schema(frame)
    text = [c for c in dict.fromkeys(columns) if schema[c] == pl.String]
    if not text:
        return frame
    parsed = {column: _parsed(source, column) for column in text}
    tally = frame.select(*(e for i, c in enumerate(text) for e in _tally(parsed[c], i))).collect(
        engine="streaming"
    )
    refused = []
    for i, column in enumerate(text):
        expression, unparsable, _ = parsed[column]
        bad, good = int(tally[f"bad{i}"].item()), int(tally[f"good{i}"].item())
        if bad == 0 and good > 0:
            frame = frame.with_columns(expression.alias(column))
        elif bad and (good or required) and not words:
            refused.append((column, unparsable))
    if refused:
        _refuse_unparsable(source, frame, refused)
    return frame


def _tally(parsed: tuple[Any, Any, Any], i: int) -> tuple[Any, Any]:
    """The counts of a column's unparsable cells and of its numbers (``bad{i}``, ``good{i}``)."""
    _, unparsable, number = parsed
    return unparsable.sum().alias(f"bad{i}"), number.sum().alias(f"good{i}")


def numeric_counts(
    source: Any, frame: Any, counts: Any, columns: Sequence[str], *, words: bool = False
) -> tuple[Any, Any, bool]:
    """:func:`numeric_columns` (numbers not ``required``) of key columns, decided on their
    distinct values: ``counts`` (a polars DataFrame of the file's distinct key tuples, counted
    from ``frame``, missing cells already null) holds every value a column takes, so whether
    a text column holds numbers, words or an unparsable value is found there without another
    pass over the file (only a refused value's row is looked for in ``frame``).

    Returns ``frame`` and ``counts`` with the text columns of numbers cast to Float64, and
    whether any was (two spellings of one number, `` 3`` and ``3``, are then one key twice).
    """
    pl = import_optional("polars", "cli")
    cast = False
    refused = []
    for column in dict.fromkeys(columns):
        if counts.schema[column] != pl.String:
            continue
        parsed = _parsed(source, column)
        tally = counts.select(*_tally(parsed, 0))
        bad, good = int(tally["bad0"].item()), int(tally["good0"].item())
        if bad == 0 and good > 0:
            frame = frame.with_columns(parsed[0].alias(column))
            counts = counts.with_columns(parsed[0].alias(column))
            cast = True
        elif bad and good and not words:
            refused.append((column, parsed[1]))
    if refused:
        _refuse_unparsable(source, frame, refused, counts)
    return frame, counts, cast


def _parsed(source: Any, column: str) -> tuple[Any, Any, Any]:
    """The expressions of a text column read as numbers: the number (null where the cell is
    none), whether a cell holds a value that is not a number, and whether it holds a number
    ('NaN' alone does not make numbers)."""
    pl = import_optional("polars", "cli")
    parsed = number_of(pl.col(column).str.strip_chars(), source.decimal_comma)
    unparsable = pl.col(column).is_not_null() & parsed.is_null()
    return parsed, unparsable, parsed.is_not_null() & ~parsed.is_nan()


def number_of(text: Any, decimal_comma: bool) -> Any:
    """The number a text cell (``text``: a polars expression, stripped) writes, as Float64,
    null where it writes none; with ``decimal_comma`` (``--decimal-comma``) ``2,5`` is 2.5
    and a point is not a decimal point (``2.5`` is no number)."""
    pl = import_optional("polars", "cli")
    if decimal_comma:
        point = text.str.contains(".", literal=True)
        text = pl.when(point).then(None).otherwise(text.str.replace(",", ".", literal=True))
    return text.cast(pl.Float64, strict=False)


def _refuse_unparsable(
    source: Any, frame: Any, refused: Sequence[tuple[str, Any]], counts: Any = None
) -> NoReturn:
    """The error naming the first unparsable cell of the first ``refused`` column (each with
    the expression of its unparsable cells) in ``frame``: its row, its value and the fix.
    When it is a missing-value code, the hint declares every code of the ``refused`` columns
    at once, that value first (the codes looked for in ``counts``, the distinct rows, when
    given, else in ``frame``)."""
    column, unparsable = refused[0]
    row = first_row(frame, unparsable)
    value = frame.filter(unparsable).select(column).head(1).collect().item()
    codes = [value, *_missing_codes(frame if counts is None else counts, refused)]
    hint = "fix or blank out that cell."
    if missing_code(value) and len(set(map(str.strip, codes))) > 1:
        hint = (
            "fix or blank out those cells, or, if they mark a missing rating, declare them "
            f"all at once: {na_values_option(codes)}."
        )
    elif missing_code(value):
        hint = (
            "fix or blank out that cell, or, if the value marks a missing rating, "
            f"declare it: {na_values_option(codes)}."
        )
    if _FORMULA_ERROR.fullmatch(value.strip()):
        hint = (
            f"{value.strip()} is a spreadsheet formula's error, not a rating: fix the "
            "formula, or blank out the cell (a missing rating)."
        )
    if re.fullmatch(r"\s*[-+]?\d*,\d+\s*", value):
        hint = (
            "numbers are read with a decimal point; a spreadsheet set to a decimal "
            "comma wrote 1,5 for 1.5: pass --decimal-comma (with --separator ';' "
            "if the file is separated by ';')."
        )
    if source.decimal_comma and "." in value:
        hint = (
            "with --decimal-comma a number is written with a comma (1,5); a point "
            "is neither a decimal point nor a thousands separator there: fix the cell."
        )
    raise WkappaError(
        f"{source.name}, row {row}: column {column!r} has the unparsable value "
        f"{format_value(value)}; expected a number. Hint: {hint}"
    )


def _missing_codes(rows: Any, refused: Sequence[tuple[str, Any]]) -> list[str]:
    """The distinct unparsable cells of the ``refused`` columns of ``rows`` (a polars frame,
    lazy or not) that look like a missing-value code, stripped and sorted."""
    pl = import_optional("polars", "cli")
    found: set[str] = set()
    for column, unparsable in refused:
        cells = rows.lazy().filter(unparsable).select(pl.col(column).str.strip_chars().unique())
        found.update(v for v in cells.collect(engine="streaming").to_series() if missing_code(v))
    return sorted(found)
