"""Where in a rating file a value is: the 1-based data row (header not counted) of the first
row matching a condition, for the messages that name a row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core import import_optional

__all__ = ["first_row", "first_rows", "is_blank_row"]

# The row-number column added to a scan (chosen not to clash with a user's columns).
_ROW = "__wkappa_row"


def first_row(frame: Any, predicate: Any) -> int | None:
    """The 1-based data row (header not counted) of the first row matching ``predicate``."""
    found = (
        frame.with_row_index(_ROW, offset=1)
        .filter(predicate)
        .select(_ROW)
        .head(1)
        .collect(engine="streaming")
    )
    return int(found.item()) if found.height else None


def is_blank_row(frame: Any, row: int) -> bool:
    """Whether the 1-based data ``row`` has no value in any column (a blank line, or a line
    of separators only)."""
    pl = import_optional("polars", "cli")
    found = frame.slice(row - 1, 1).select(pl.all_horizontal(pl.all().is_null())).collect()
    return bool(found.height and found.item())


def first_rows(frame: Any, expression: Any, values: Sequence[Any]) -> dict[Any, int]:
    """The 1-based data row where ``expression`` (one column's values, maybe transformed)
    first takes each of ``values`` (those it never takes are left out); one streaming pass."""
    pl = import_optional("polars", "cli")
    found = (
        frame.with_row_index(_ROW, offset=1)
        .select(expression.alias("value"), pl.col(_ROW))
        .filter(pl.col("value").is_in(list(values)))
        .group_by("value")
        .agg(pl.col(_ROW).min())
        .collect(engine="streaming")
    )
    return dict(zip(found["value"].to_list(), found[_ROW].to_list(), strict=True))
