"""Id columns of a CSV file: cluster ids (``--cluster``), ``--by`` groups, a long file's item
and rater ids (``--item``, ``--rater``) and a wide file's item ids (``--item`` beside
``--raters``: one item per row, so an id that two rows share is refused, naming both rows,
:func:`refuse_duplicate_items`).

A CSV cell has no type: the file's own spelling is the id, so ``007`` and ``7`` are two ids, as
the Python API reads two strings. What a reader could not tell apart is refused instead of
guessed: two spellings of one number (``007`` and ``7``, ``7`` and ``7.0``) in one column are
either two ids or one, and a numeric reading would merge them silently. Surrounding spaces are
not part of an id (`` 7`` is ``7``), and two ids that differ only by case (``Dr. Jones`` and
``dr. jones``: one rater or two) are refused too.

A column whose every id is a number written plainly (``7``, ``-3``, ``2.5``; no leading zero,
no sign ``+``, no exponent that the number would not be written with) is read as numbers, as
a typed file gives them: ``--by`` groups sort as numbers (2 before 10), are written as numbers
in JSON and CSV, and cluster ids are ordered as the library orders the same numbers (which
clusters a bootstrap draws for a seed). Other columns keep the file's text.

These functions take a column's distinct ids (from the counted rows of a file), so a check
costs a pass over the distinct ids, never over the file; only a refused id is looked for in
the file, for its row. :func:`text_ids`, :func:`strip_ids` and :func:`read_ids` are how
:mod:`wkappa._cli.io` reads the id columns of a file with these rules (they take its
``Source`` without importing that module, which imports this one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import import_optional, missing_id_error
from ..exceptions import WkappaError
from .missing import MISSING_SPELLINGS
from .rows import ROW, first_row, first_rows

if TYPE_CHECKING:
    from .io import Source

__all__ = [
    "ID_OPTIONS",
    "ITEM_LAYOUT",
    "ambiguous_spellings",
    "case_spellings",
    "plain_type",
    "read_ids",
    "refuse_duplicate_items",
    "strip_ids",
    "text_ids",
    "wide_items",
]

# The options whose columns hold ids (the others name ratings, scores or weights).
ID_OPTIONS = ("--by", "--cluster", "--item", "--rater")
# The layout options of a command whose wide files may name their items (agree, judge).
ITEM_LAYOUT = (
    ("--item", "the item column: long, each rating's item; wide (with --raters), each row's "
     "item id, which no two rows may share"),
    ("--rater", "long: the rater column"),
    ("--rating", "long: the rating column"),
)  # fmt: skip
# A whole number, any sign and leading zeros; and one written plainly.
_INTEGER = r"^[+-]?[0-9]+$"
_PLAIN_INTEGER = r"^(0|-?[1-9][0-9]*)$"
# Float64 holds every whole number up to 2**53 exactly.
_EXACT = 2.0**53


def _polars() -> Any:
    return import_optional("polars", "cli")


def _number_key(column: str) -> Any:
    """The number a text id stands for, as text equal for equal numbers (``007``, ``+7``,
    ``7.0`` and ``7e0`` are ``7``), null for an id that is not a number. Whole numbers written
    with digits only are compared as digits (exactly, at any length)."""
    pl = _polars()
    text = pl.col(column)
    digits = text.str.replace(r"^[+-]", "").str.strip_chars_start("0")
    digits = pl.when(digits == "").then(pl.lit("0")).otherwise(digits)
    negative = text.str.starts_with("-") & (digits != "0")
    integer = pl.when(negative).then(pl.lit("-") + digits).otherwise(digits)
    number = text.cast(pl.Float64, strict=False)
    whole = number.is_finite() & (number == number.floor()) & (number.abs() < _EXACT)
    other = (
        pl.when(whole)
        .then(number.cast(pl.Int64, strict=False).cast(pl.String))
        .otherwise(number.cast(pl.String))
    )
    return pl.when(text.str.contains(_INTEGER)).then(integer).otherwise(other)


def ambiguous_spellings(ids: Any) -> tuple[str, str] | None:
    """Two spellings of one number among distinct text ``ids`` (a polars Series, spaces
    stripped, no missing value), or None when each number is written one way."""
    pl = _polars()
    name = ids.name
    spellings = (
        ids.to_frame()
        .lazy()
        .with_columns(_number_key(name).alias("__key"))
        .drop_nulls("__key")
        .group_by("__key")
        .agg(pl.col(name).sort(), pl.col(name).len().alias("__n"))
        .filter(pl.col("__n") > 1)
        .sort("__key")
        .head(1)
        .collect()
    )
    if spellings.height == 0:
        return None
    first, second = spellings[name].item(0)[:2]
    return str(first), str(second)


def case_spellings(ids: Any) -> tuple[str, str] | None:
    """Two distinct text ``ids`` (a polars Series, spaces stripped, no missing value) that
    differ only by case, or None."""
    pl = _polars()
    name = ids.name
    found = (
        ids.to_frame()
        .group_by(pl.col(name).str.to_lowercase().alias("__key"))
        .agg(pl.col(name).sort())
        .filter(pl.col(name).list.len() > 1)
        .sort("__key")
        .head(1)
    )
    if found.height == 0:
        return None
    first, second = found[name].item(0)[:2]
    return str(first), str(second)


def plain_type(ids: Any) -> Any:
    """The polars type of distinct text ``ids`` (a polars Series, no missing value) that are
    all numbers written plainly (``Int64``; ``Float64`` once one has a fraction), as a typed
    file would hold them; None for other ids (kept as text)."""
    pl = _polars()
    if ids.len() == 0:
        return None
    integers = ids.str.contains(_PLAIN_INTEGER) & ids.cast(pl.Int64, strict=False).is_not_null()
    if integers.all():
        return pl.Int64
    number = ids.cast(pl.Float64, strict=False)
    decimals = number.is_not_null() & (number.cast(pl.String) == ids)
    return pl.Float64 if (integers | decimals).all() else None


def text_ids(source: Source, ids: dict[str, str]) -> list[str]:
    """The id columns (``ids``: column -> the option that names it) that a scan reads as text:
    a CSV's (the file's own spelling, ``007`` is not ``7``); a typed file's keep their type."""
    return list(ids) if source.fmt in ("csv", "tsv") else []


def strip_ids(source: Source, frame: Any, ids: dict[str, str]) -> Any:
    """A CSV's text id columns without surrounding spaces (`` 7`` is the id ``7``), a cell of
    spaces only or a missing spelling (`` NA ``) made missing."""
    pl = _polars()
    schema = source.schema(frame)
    stripped = []
    for column in text_ids(source, ids):
        if schema[column] == pl.String:
            text = pl.col(column).str.strip_chars()
            missing = text.is_in(list(MISSING_SPELLINGS))
            stripped.append(pl.when(missing).then(None).otherwise(text).alias(column))
    return frame.with_columns(stripped) if stripped else frame


def read_ids(source: Source, frame: Any, values: Any, ids: dict[str, str]) -> tuple[Any, Any]:
    """Check a CSV's text id columns and type them: two spellings of one number in a column
    (``007`` and ``7``, ``7`` and ``7.0``) are refused, naming the option, the spellings and
    their rows; a column of numbers written plainly becomes numbers (as this module says).

    ``values`` (a polars DataFrame: the counted rows, or the rows read) holds every distinct id;
    it and ``frame`` (the scan it came from, for the rows) are returned with the same types.
    """
    pl = _polars()
    for column in text_ids(source, ids):
        if values.schema[column] != pl.String:
            continue
        distinct = values[column].drop_nulls().unique()
        dtype = plain_type(distinct)
        # Integers written plainly are one spelling per number; anything else is checked.
        pair = None if dtype == pl.Int64 else ambiguous_spellings(distinct)
        cased = None if dtype is not None else case_spellings(distinct)
        found = pair or cased
        if found is not None:
            rows = first_rows(frame, pl.col(column), found)
            first, second = sorted(found, key=lambda id_: rows.get(id_, 0))
            how = "the same number written two ways" if pair else "which differ only by case"
            fix = f"give the ids a non-digit prefix (p{first} and p{second} are two ids)"
            raise WkappaError(
                f"{source.name}: {ids[column]} column {column!r} has the ids {first!r} (row "
                f"{rows.get(first)}) and {second!r} (row {rows.get(second)}), {how}: one id "
                "or two is ambiguous. Hint: write each id one way"
                + (f", or {fix}." if pair else " in the file.")
            )
        if dtype is not None:
            frame = frame.with_columns(pl.col(column).cast(dtype))
            values = values.with_columns(pl.col(column).cast(dtype))
    return frame, values


def wide_items(item: str | None, read: dict[str, str]) -> dict[str, str]:
    """``{"--item": item}``, the id column of a wide file's items (``--item`` with
    ``--raters``), or ``{}`` without one; refused when it is a column of ratings too
    (``read``: column -> the option that names it)."""
    if item is None:
        return {}
    if item in read:
        raise WkappaError(
            f"--item {item!r} is also given to {read[item]}: a column holds either each row's "
            f"item id or a rater's ratings. Hint: leave {item!r} out of {read[item]}."
        )
    return {"--item": item}


def refuse_duplicate_items(
    source: Source, frame: Any, counts: Any, column: str, rated: list[str], count: str
) -> None:
    """Refuse a wide file's item id (``--item``, column ``column``) that two rows share,
    naming the id and both rows, and a missing id on a row with a rating in ``rated`` (a
    row without any rating is left out, and needs no id). ``counts`` are the counted rows
    (the id one of their keys, their number of rows in the column ``count``) and ``frame``
    the scan they came from."""
    pl = _polars()
    rating = pl.any_horizontal([pl.col(c).is_not_null() for c in rated])
    if counts.filter(pl.col(column).is_null() & rating).height:
        row = first_row(frame, pl.col(column).is_null() & rating)
        error = missing_id_error("--item", column, unit="item (row)")
        raise error if row is None else WkappaError(f"{source.name}, row {row}: {error}")
    totals = counts.drop_nulls(column).group_by(column).agg(pl.col(count).sum())
    repeated = totals.filter(pl.col(count) > 1)[column].to_list()
    if not repeated:
        return
    firsts = first_rows(frame, pl.col(column), repeated)
    id_ = min(repeated, key=lambda value: firsts.get(value, 0))
    first = firsts.get(id_)
    second = None
    if first is not None:
        second = first_row(frame, (pl.col(column) == id_) & (pl.col(ROW) > first))
    rows = f" (rows {first} and {second})" if second is not None else ""
    raise WkappaError(
        f"{source.name}: --item column {column!r} has the id {id_!r} twice{rows}; each row of "
        "a wide file is one item, so one id on two rows is an item counted twice. Hint: "
        "remove the repeated row, or give each row its own id."
    )
