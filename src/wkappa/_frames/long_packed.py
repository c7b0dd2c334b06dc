"""The long layout counted by DuckDB or polars in one query of integer operations.

Each rating row becomes one integer ``digit << (width * place)``: ``digit`` codes the
rating (1..V), ``place`` the rater, ``width`` is the bits of the highest digit. For integer
raters and whole-number ratings on short spans (the usual export of annotation tools and
evaluation logs) both are arithmetic (``rating - lowest + 1``, ``rater - lowest rater``);
string ids are looked up (polars: the index of an Enum cast; DuckDB: a ``CASE``). The
engine runs::

    SELECT *groups, code, rows, split, count(*) FROM (
        SELECT min(group) AS group, ..., bit_or(digit << (width * place)) AS code,
               count(*) AS rows, <an item's rows carry two values of a group> AS split
        FROM frame WHERE rating IS NOT NULL GROUP BY item
    ) GROUP BY *groups, code, rows, split

(DuckDB as this SQL; polars as the same expressions in its streaming engine). Shifts,
``bit_or`` and ``count`` are vectorised integer work on int64 (no 128-bit sums, no
floating-point powers). A rater who rated an item once leaves its digit (never 0) at its
place; a rater who rated it twice leaves one digit for two rows, so an item whose code has
fewer non-zero digits than rows has a repeated rating (None: the pivot reports it).
Grouping by the item alone (not by ``groups`` and item) finds an item whose rows carry two
values of a group column (two ``by`` groups, two clusters, or a value and a null) in the
same pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import import_optional

__all__ = ["Coding", "packed_rows"]

_CODE = "__wkappa_code"
_ROWS = "__wkappa_rows"
_SPLIT = "__wkappa_split"
# The code's digits stay below bit 62 (an int64, sign bit clear).
_CODE_BITS = 62


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class Coding(NamedTuple):
    """How a column's value becomes its integer code: ``value - low`` (``low`` not None),
    else the code of its place in ``values``."""

    low: int | None
    values: Sequence[Any] = ()
    codes: Sequence[int] = ()


class _Query(NamedTuple):
    """The columns and codings of the packed query."""

    item: str
    rater: str
    rating: str
    groups: list[str]
    count_as: str  # the name of the count column
    digit: Coding
    place: Coding
    width: int


def _sql_code(column: str, coding: Coding) -> str:
    """A DuckDB expression of the column's code (BIGINT): arithmetic or a CASE of strings."""
    if coding.low is not None:
        return f"CAST({_quoted(column)} - ({int(coding.low)}) AS BIGINT)"
    if not all(isinstance(v, str) for v in coding.values):
        raise TypeError("the statement looks up strings only")
    cases = " ".join(
        "WHEN '" + str(v).replace("'", "''") + f"' THEN {int(c)}"
        for v, c in zip(coding.values, coding.codes, strict=True)
    )
    return f"CAST(CASE {_quoted(column)} {cases} END AS BIGINT)"


def _duckdb_counts(relation: Any, q: _Query) -> Any:
    """The statement's result as a polars DataFrame (DuckDB)."""
    pl = import_optional("polars", "frames")
    keys = [_quoted(c) for c in q.groups]
    digit = _sql_code(q.rating, q.digit)
    shift = f"({_sql_code(q.rater, q.place)} * {q.width})"
    split = " OR ".join(
        f"min({k}) IS DISTINCT FROM max({k}) OR (count({k}) > 0 AND count({k}) < count(*))"
        for k in keys
    )
    columns = [
        *(f"min({k}) AS {k}" for k in keys),
        f"bit_or({digit} << {shift}) AS {_CODE}",
        f"count(*) AS {_ROWS}",
        f"({split or 'false'}) AS {_SPLIT}",
    ]
    per_item = relation.filter(f"{_quoted(q.rating)} IS NOT NULL").aggregate(
        ", ".join(columns), _quoted(q.item)
    )
    counted = per_item.aggregate(
        ", ".join([*keys, _CODE, _ROWS, _SPLIT, f"count(*) AS {_quoted(q.count_as)}"]),
        ", ".join([*keys, _CODE, _ROWS, _SPLIT]),
    )
    return pl.from_arrow(counted.to_arrow_table())


def _polars_code(column: str, coding: Coding) -> Any:
    """A polars expression of the column's code (Int64): arithmetic; for strings the index
    of an Enum whose categories are in the order of their codes (a cast, five times faster
    than ``replace_strict`` on strings); else ``replace_strict``."""
    pl = import_optional("polars", "frames")
    if coding.low is not None:
        return pl.col(column).cast(pl.Int64) - coding.low
    pairs = sorted(zip(coding.codes, coding.values, strict=True))
    first = pairs[0][0] if pairs else 0
    if all(isinstance(v, str) for v in coding.values) and [c for c, _ in pairs] == list(
        range(first, first + len(pairs))
    ):
        categories = pl.Enum([v for _, v in pairs])
        return pl.col(column).cast(categories).to_physical().cast(pl.Int64) + first
    return pl.col(column).replace_strict(
        list(coding.values), list(coding.codes), return_dtype=pl.Int64
    )


def _polars_counts(frame: Any, q: _Query) -> Any:
    """The same query in polars' streaming engine (an eager frame is read lazily, no copy)."""
    pl = import_optional("polars", "frames")
    digit = _polars_code(q.rating, q.digit)
    shift = pl.lit(2, dtype=pl.Int64).pow(_polars_code(q.rater, q.place) * q.width)
    return (
        frame.lazy()
        .filter(pl.col(q.rating).is_not_null())
        .group_by(q.item)
        .agg(
            *(pl.col(c).first() for c in q.groups),
            (digit * shift).bitwise_or().alias(_CODE),
            pl.len().alias(_ROWS),
            # n_unique counts a null as a value: a null beside a value is a split too
            pl.any_horizontal(False, *(pl.col(c).n_unique() > 1 for c in q.groups)).alias(_SPLIT),
        )
        .group_by([*q.groups, _CODE, _ROWS, _SPLIT])
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
    digit: Coding,
    place: Coding,
    highest_digit: int,
    places: int,
) -> tuple[Any, np.ndarray, bool] | None:
    """The counted groups of a DuckDB relation or a polars frame (``library``: 'duckdb' or
    'polars') as a polars DataFrame with the ``groups`` and ``count`` columns, each group's
    digit at every place (``places`` columns) and whether an item's rows carry two values of
    one of the ``groups`` columns (then the counts are not usable); None when this count
    does not apply
    (codes beyond 62 bits, a rater twice on an item, a lookup or column type the engine
    does not take): then the caller counts by other means.

    ``digit``: how a rating becomes its digit (1..``highest_digit``); ``place``: how a
    rater becomes its place (0..``places`` - 1)."""
    width = int(highest_digit).bit_length()
    if width * places > _CODE_BITS:
        return None
    engine = {"duckdb": _duckdb_counts, "polars": _polars_counts}[library]
    query = _Query(item, rater, rating, list(groups), count, digit, place, width)
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
    split = bool(table.get_column(_SPLIT).any())
    return table.drop(_CODE, _ROWS, _SPLIT), digits, split
