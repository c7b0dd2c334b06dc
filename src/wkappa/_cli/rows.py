"""Where in a rating file a value is: the 1-based data row (header not counted) of the first
row matching a condition, for the messages that name a row.

A scan without the file's blank lines (:meth:`wkappa._cli.io.Source.scan`) keeps each row's
number in the file in a column of its own (:data:`ROW`), so that a row named after a blank line
is the row of the file, not its place among the rows read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core import import_optional

__all__ = [
    "ROW",
    "file_row",
    "first_row",
    "first_rows",
    "is_blank_row",
    "repeated_rows",
    "row_value",
    "without_rows",
]

# The row-number column added to a scan (chosen not to clash with a user's columns).
ROW = "__wkappa_row"


def _numbered(frame: Any) -> Any:
    """``frame`` with its data rows' numbers in :data:`ROW` (as the file numbers them)."""
    if ROW in frame.collect_schema().names():
        return frame
    return frame.with_row_index(ROW, offset=1)


def without_rows(frame: Any, rows: Sequence[int]) -> Any:
    """``frame`` without the 1-based data ``rows``, the others keeping their numbers."""
    if not rows:
        return frame
    pl = import_optional("polars", "cli")
    return _numbered(frame).filter(~pl.col(ROW).is_in(list(rows)))


def file_row(position: int, skipped: Sequence[int]) -> int:
    """The 1-based data row of the file of the 0-based ``position`` among the rows read,
    the ``skipped`` rows (blank lines, in order) not read.

    Examples
    --------
    >>> file_row(0, []), file_row(2, [3]), file_row(1, [3])
    (1, 4, 2)
    """
    row = position + 1
    for blank in skipped:
        row += blank <= row
    return row


def first_row(frame: Any, predicate: Any) -> int | None:
    """The 1-based data row (header not counted) of the first row matching ``predicate``."""
    found = _numbered(frame).filter(predicate).select(ROW).head(1).collect(engine="streaming")
    return int(found.item()) if found.height else None


def row_value(frame: Any, row: int, column: str) -> Any:
    """The value of ``column`` in the 1-based data ``row``."""
    pl = import_optional("polars", "cli")
    return _numbered(frame).filter(pl.col(ROW) == row).select(column).collect().item()


def is_blank_row(frame: Any, row: int) -> bool:
    """Whether the 1-based data ``row`` has no value in any column (a line of separators
    only: a blank line is not read as a row)."""
    pl = import_optional("polars", "cli")
    empty = pl.all_horizontal(pl.all().exclude(ROW).is_null())
    found = _numbered(frame).filter(pl.col(ROW) == row).select(empty).collect()
    return bool(found.height and found.item())


def first_rows(frame: Any, expression: Any, values: Sequence[Any]) -> dict[Any, int]:
    """The 1-based data row where ``expression`` (one column's values, maybe transformed)
    first takes each of ``values`` (those it never takes are left out); one streaming pass."""
    pl = import_optional("polars", "cli")
    found = (
        _numbered(frame)
        .select(expression.alias("value"), pl.col(ROW))
        .filter(pl.col("value").is_in(list(values)))
        .group_by("value")
        .agg(pl.col(ROW).min())
        .collect(engine="streaming")
    )
    return dict(zip(found["value"].to_list(), found[ROW].to_list(), strict=True))


def repeated_rows(
    frame: Any, columns: Sequence[str], predicate: Any, limit: int = 5
) -> tuple[tuple[Any, ...], list[int]] | None:
    """The first values of ``columns`` (by the row where they first occur) that two or more
    rows matching ``predicate`` share, with the 1-based data rows that hold them (the first
    ``limit``); None when no rows share them. Two streaming passes."""
    pl = import_optional("polars", "cli")
    numbered = _numbered(frame).filter(predicate)
    first = f"{ROW}_first"
    times = f"{ROW}_times"
    found = (
        numbered.group_by(list(columns))
        .agg(pl.col(ROW).min().alias(first), pl.len().alias(times))
        .filter(pl.col(times) > 1)
        .sort(first)
        .head(1)
        .collect(engine="streaming")
    )
    if not found.height:
        return None
    values = tuple(found.row(0, named=True)[c] for c in columns)
    same = pl.all_horizontal(
        [pl.col(c).eq_missing(v) for c, v in zip(columns, values, strict=True)]
    )
    rows = numbered.filter(same).select(ROW).sort(ROW).head(limit).collect(engine="streaming")
    return values, [int(row) for row in rows[ROW]]
