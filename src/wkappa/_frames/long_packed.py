"""The long layout counted by DuckDB or polars in one query of integer operations.

For integer raters and whole-number ratings on short spans (the usual export of annotation
tools and evaluation logs), each rating row becomes one integer ``digit << (width * place)``
(``digit = rating - lowest + 1``, ``place = rater - lowest rater``, ``width`` the bits of
the highest digit), and the engine runs::

    SELECT *groups, code, rows, count(*) FROM (
        SELECT *groups, bit_or(digit << (width * place)) AS code, count(*) AS rows
        FROM frame WHERE rating IS NOT NULL GROUP BY *groups, item
    ) GROUP BY *groups, code, rows

(DuckDB as this SQL; polars as the same expressions in its streaming engine). Shifts,
``bit_or`` and ``count`` are vectorised integer work on int64 (no 128-bit sums, no
floating-point powers). A rater who rated an item once leaves its digit (never 0) at its
place; a rater who rated it twice leaves one digit for two rows, so an item whose code has
fewer non-zero digits than rows has a repeated rating (None: the pivot reports it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import import_optional

__all__ = ["packed_rows"]

_CODE = "__wkappa_code"
_ROWS = "__wkappa_rows"
# The code's digits stay below bit 62 (an int64, sign bit clear).
_CODE_BITS = 62


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class _Query(NamedTuple):
    """The columns and constants of the packed query."""

    item: str
    rater: str
    rating: str
    groups: list[str]
    count_as: str  # the name of the count column
    rating_low: int
    rater_low: int
    width: int


def _duckdb_counts(relation: Any, q: _Query) -> Any:
    """The statement's result as a polars DataFrame (DuckDB)."""
    pl = import_optional("polars", "frames")
    keys = [_quoted(c) for c in q.groups]
    digit = f"(CAST({_quoted(q.rating)} - ({q.rating_low}) AS BIGINT) + 1)"
    shift = f"(CAST({_quoted(q.rater)} - ({q.rater_low}) AS BIGINT) * {q.width})"
    per_item = relation.filter(f"{_quoted(q.rating)} IS NOT NULL").aggregate(
        ", ".join([*keys, f"bit_or({digit} << {shift}) AS {_CODE}", f"count(*) AS {_ROWS}"]),
        ", ".join([*keys, _quoted(q.item)]),
    )
    counted = per_item.aggregate(
        ", ".join([*keys, _CODE, _ROWS, f"count(*) AS {_quoted(q.count_as)}"]),
        ", ".join([*keys, _CODE, _ROWS]),
    )
    return pl.from_arrow(counted.to_arrow_table())


def _polars_counts(frame: Any, q: _Query) -> Any:
    """The same query in polars' streaming engine (an eager frame is read lazily, no copy)."""
    pl = import_optional("polars", "frames")
    digit = (pl.col(q.rating) - (q.rating_low - 1)).cast(pl.Int64)
    place = pl.col(q.rater).cast(pl.Int64) - q.rater_low
    shift = pl.lit(2, dtype=pl.Int64).pow(place * q.width)
    return (
        frame.lazy()
        .filter(pl.col(q.rating).is_not_null())
        .group_by([*q.groups, q.item])
        .agg((digit * shift).bitwise_or().alias(_CODE), pl.len().alias(_ROWS))
        .group_by([*q.groups, _CODE, _ROWS])
        .agg(pl.len().alias(q.count_as))
        .collect(engine="streaming")
    )


def packed_rows(
    library: str,
    native: Any,
    item: str,
    rater: str,
    rating: str,
    groups: Sequence[str],
    count: str,
    rating_low: int | None,
    highest_digit: int,
    rater_low: int | None,
    places: int,
) -> tuple[Any, np.ndarray] | None:
    """The counted groups of a DuckDB relation or a polars frame (``library``: 'duckdb' or
    'polars') as a polars DataFrame with the ``groups`` and ``count`` columns, and each
    group's digit at every place (``places`` columns); None when this count does not apply
    (ratings or raters that need a lookup, codes beyond 62 bits, a rater twice on an item, a
    query the engine refuses): then the caller counts by other means.

    ``rating_low``: the lowest rating (digit = rating - rating_low + 1, at most
    ``highest_digit``); ``rater_low``: the lowest rater (place = rater - rater_low)."""
    width = int(highest_digit).bit_length()
    if rating_low is None or rater_low is None or width * places > _CODE_BITS:
        return None
    engine = {"duckdb": _duckdb_counts, "polars": _polars_counts}[library]
    query = _Query(item, rater, rating, list(groups), count, int(rating_low), int(rater_low), width)
    try:
        table = engine(native, query)
    except Exception:  # an older engine or a column type the query does not take
        return None
    codes = table.get_column(_CODE).to_numpy().astype(np.int64)
    shifts = np.arange(places, dtype=np.int64) * width
    digits = (codes[:, None] >> shifts) & ((1 << width) - 1)
    rows = table.get_column(_ROWS).to_numpy()
    if (np.count_nonzero(digits, axis=1) != rows).any() or (digits > highest_digit).any():
        return None  # a rater twice on one item
    return table.drop(_CODE, _ROWS), digits
