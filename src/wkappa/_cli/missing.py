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
from collections.abc import Sequence
from typing import Any

from .._core import import_optional
from ..exceptions import WkappaError
from .lists import split_list

__all__ = [
    "MISSING_LOOKALIKES",
    "MISSING_SPELLINGS",
    "blank_is_missing",
    "declared_missing",
    "missing_code",
    "missing_spellings",
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
    if dtype == pl.String:
        text = column.str.strip_chars()
        hit = text.is_in(list(codes))
        if numbers:
            hit = hit | text.cast(pl.Float64, strict=False).is_in(numbers).fill_null(False)
        return hit
    if dtype.is_numeric() and numbers:
        return column.cast(pl.Float64).is_in(numbers)
    return None


def missing_spellings(text: str | None) -> tuple[str, ...]:
    """``--na-values``: comma-separated spellings, stripped (``-99, .`` is ``-99`` and ``.``;
    see :mod:`~wkappa._cli.lists`)."""
    if text is None:
        return ()
    values = tuple(split_list(text, strip=True))
    if not all(values):
        raise WkappaError(
            f"--na-values must be a comma-separated list of values; got {text!r} (an empty "
            "cell is missing already)."
        )
    return values


# Text that spreadsheets, pandas, R, SAS and Stata write for a missing value (compared
# without case and surrounding spaces): the one list of the --na-values hints.
MISSING_LOOKALIKES = frozenset(
    ["nan", "-nan", "na", "n/a", "n.a.", "#n/a", "#na", "<na>", "null", "nil", "none", ".",
     "-", "?", "missing"]
)  # fmt: skip


def missing_code(value: str) -> bool:
    """Whether an unparsable cell looks like a code for a missing value (``.``, ``-``, ``?``,
    ``missing``, ``#N/A``, ``n/a``), not a typo in a number or a word."""
    text = value.strip().lower()
    return not re.search(r"[a-z0-9]", text) or text in MISSING_LOOKALIKES


def blank_is_missing(frame: Any, schema: dict[str, Any], columns: Sequence[str]) -> Any:
    """The text ``columns`` with cells of spaces only made missing, as empty cells are (a
    spreadsheet's blank cell, not a category ``' '`` or, stripped, ``''``), and so are the
    missing spellings with surrounding spaces (`` NA `` of ``1, NA, 3``)."""
    pl = _polars()
    text = [c for c in dict.fromkeys(columns) if schema[c] == pl.String]
    return frame.with_columns(
        pl.when(pl.col(c).str.strip_chars().is_in(list(MISSING_SPELLINGS)))
        .then(None)
        .otherwise(pl.col(c))
        .alias(c)
        for c in text
    )
