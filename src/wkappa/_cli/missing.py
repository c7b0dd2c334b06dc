"""The command line's rules for a missing rating, shared by every reader.

A cell is missing when it is empty, spaces only, or one of :data:`MISSING_SPELLINGS` (with
surrounding spaces in a CSV), and when it matches one of the codes a user declares with
``--na-values`` (:func:`missing_spellings` reads them, :func:`declared_missing` matches them:
a code that is a number matches every spelling of that number). :data:`MISSING_LOOKALIKES`
are the words files use for a missing value without declaring it, which the messages about
an unparsable cell or a stray category point out (:func:`missing_code`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

from .._core import MISSING_LOOKALIKES, import_optional
from ..exceptions import WkappaError
from .lists import COMMA_ESCAPE, join_list, split_list

__all__ = [
    "MISSING_LOOKALIKES",
    "MISSING_SPELLINGS",
    "blank_is_missing",
    "declared_missing",
    "missing_code",
    "missing_spellings",
    "na_values_option",
]

# The cells every reader takes as a missing value (CSV: also with surrounding spaces).
MISSING_SPELLINGS = ("", "NA", "N/A", "null", "NULL")


def _polars() -> Any:
    return import_optional("polars", "cli")


# A missing-value code that is a number: matched as a number, not as text.
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def declared_missing(codes: Sequence[str], name: str, dtype: Any) -> Any:
    """Where the column ``name`` (of polars type ``dtype``) holds one of the ``--na-values``
    ``codes``: a polars expression, or None for a column no code can match.

    A code that is a number (``-99``) matches every spelling of that number, as the reader
    takes ``3``, ``3.0``, ``+3`` and ``3e0`` for one grade: ``-99.0`` and `` -99 `` in a
    text column, ``-99`` in a column of integers or floats. Any other code (``.``,
    ``missing``) matches a text cell equal to it once stripped of surrounding spaces.
    """
    pl = _polars()
    numbers = [float(code) for code in codes if _NUMBER.fullmatch(code)]
    column = pl.col(name)
    if dtype == pl.String or isinstance(dtype, (pl.Categorical, pl.Enum)):
        text = column.cast(pl.String).str.strip_chars()
        hit = text.is_in(list(codes))
        if numbers:
            hit = hit | text.cast(pl.Float64, strict=False).is_in(numbers).fill_null(False)
        return hit
    if dtype.is_numeric() and numbers:
        return column.cast(pl.Float64).is_in(numbers)
    return None


# A comma between two digits, not written \, : with --decimal-comma, a decimal code or a list?
_DIGIT_COMMA_DIGIT = re.compile(r"[-+]?\d+(?<!\\),\d+")


def missing_spellings(text: str | None, decimal_comma: bool = False) -> tuple[str, ...]:
    """``--na-values``: comma-separated spellings, stripped (``-99, .`` is ``-99`` and ``.``;
    see :mod:`~wkappa._cli.lists`). With ``decimal_comma`` (``--decimal-comma``) a comma
    between two digits (``-99,5``) is refused: it could be a code written with a decimal
    comma or two codes, and taking it as two would make the rating 5 missing.

    Examples
    --------
    >>> missing_spellings("-99, ."), missing_spellings(r"-99\\,5", decimal_comma=True)
    (('-99', '.'), ('-99,5',))
    >>> missing_spellings("-99, 5", decimal_comma=True)
    ('-99', '5')
    """
    if text is None:
        return ()
    found = _DIGIT_COMMA_DIGIT.search(text) if decimal_comma else None
    if found is not None:
        code = found.group()
        raise WkappaError(
            f"--na-values {text!r} with --decimal-comma: is {code} one code written with a "
            "decimal comma, or two codes? Hint: one code, its comma escaped or written as a "
            f"point: --na-values '{code.replace(',', COMMA_ESCAPE)}' or --na-values "
            f"{code.replace(',', '.')}; two codes, a space after the comma: --na-values "
            f"'{code.replace(',', ', ')}'."
        )
    values = tuple(split_list(text, strip=True))
    if not all(values):
        raise WkappaError(
            f"--na-values must be a comma-separated list of values; got {text!r} (an empty "
            "cell is missing already)."
        )
    return values


def missing_code(value: str) -> bool:
    """Whether an unparsable cell looks like a code for a missing value (``.``, ``-``, ``?``,
    ``missing``, ``#N/A``, ``n/a``), not a typo in a number or a word."""
    text = value.strip().lower()
    return not re.search(r"[a-z0-9]", text) or text in MISSING_LOOKALIKES


def na_values_option(codes: Sequence[str]) -> str:
    """The ``--na-values`` option that declares every one of ``codes`` missing (each once,
    stripped, in the order given), quoted for a shell: a message names them all at once, so
    a file with several spellings of a missing value is not refused once per spelling.

    Examples
    --------
    >>> print(na_values_option([".", " - ", ".", "#N/A"]))
    --na-values='.,-,#N/A'
    """
    text = join_list(list(dict.fromkeys(code.strip() for code in codes)))
    quoted = shlex.quote(text) if "'" in text else f"'{text}'"
    return f"--na-values={quoted}"


def blank_is_missing(frame: Any, schema: dict[str, Any], columns: Sequence[str]) -> Any:
    """The text ``columns`` (text, or a dictionary column of a Parquet or Arrow file) with
    cells of spaces only made missing, as empty cells are (a spreadsheet's blank cell, not a
    category ``' '`` or, stripped, ``''``), and so are the missing spellings with surrounding
    spaces (`` NA `` of ``1, NA, 3``)."""
    pl = _polars()
    text = [
        c
        for c in dict.fromkeys(columns)
        if schema[c] == pl.String or isinstance(schema[c], (pl.Categorical, pl.Enum))
    ]
    return frame.with_columns(
        pl.when(pl.col(c).cast(pl.String).str.strip_chars().is_in(list(MISSING_SPELLINGS)))
        .then(None)
        .otherwise(pl.col(c))
        .alias(c)
        for c in text
    )
