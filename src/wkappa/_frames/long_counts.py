"""Several raters in the long layout (one row per rating), counted inside the engine.

The items x raters table is never built: each rating row becomes two integers, the engine
sums them per item and counts the items per sum, and only those few groups come back.

* ``term = d * B^g``: the digit ``d`` codes the row's rating (1 + its index among the V
  distinct ratings, B = V + 1; or ``rating - lowest + 1`` for whole numbers on a short span,
  B = span + 1), ``g`` is its rater's place (integer raters: ``rater - lowest``; others:
  the rank in :func:`~wkappa._frames.raters.rater_key` order). An item's sum of terms has
  the digit ``d`` at place g: its row of ratings, 0 where the rater gave none.
* ``bit = 2^g`` (plus ``2^32``, which counts the rows in the same sum): an item's sum of
  bits has as many set bits as rows exactly when no rater rated it twice (a carry joins
  two equal bits); otherwise this returns None and the pivot reports the repeated rating.

The source is read once (:func:`read_once`): a lazy frame's columns of the layout are
collected once (polars, DuckDB), persisted (Dask) or cached (Spark) for the call, unless the
frame is a plain scan that gives the same rows each time and is cheaper to read again than to
copy (:func:`rereads`: a local Parquet or IPC file, a table, an in-memory frame); two
queries run over them (pyarrow, pandas, Dask, Spark through narwhals): :func:`long_facts`,
one aggregation that finds the ratings without an item or rater id, the rows without a
rating and the lowest and highest rater and rating (integer columns; otherwise the distinct
(rater, rating) pairs), then ``group_by(item).agg(sum(term), sum(bit))`` followed by
``group_by(sums).agg(len)``. DuckDB and polars run one query of shifts and ``bit_or``
instead (:mod:`~wkappa._frames.long_packed`).
The result has the pivot's shape, so every coefficient (Conger's, ``pairwise()``,
``leave_one_rater_out()``) reads it as it reads the pivot's.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from .._core import import_optional
from ..exceptions import WkappaError
from .count import as_polars, collected, quiet_dask_notice
from .long_packed import Coding, packed_rows

__all__ = ["LongFacts", "check_item_spellings", "long_facts", "long_rows", "read_once", "rereads"]

_TERM = "__wkappa_term"
_BITS = "__wkappa_bits"
_RATED = "__wkappa_rated"
_UNRATED = "__wkappa_unrated"
# Each row adds 2**place + 2**32 to its item's second sum: the bits below 2**32 are the
# raters, the rest counts the rows (places stay below 32).
_ROW_SHIFT = 32
_ROW = 1 << _ROW_SHIFT
# Codes (V+1)^R must stay below 2**62; at most this many distinct ratings.
_MAX_CODE_BITS = 62
_MAX_VALUES = 1 << 12
# Powers computed as rounded exponentials stay below 2**40 (exact after rounding).
_EXACT_POWER_BITS = 40
# Whole-number ratings whose span is at most this factor times their count (plus a few)
# get their digit by arithmetic.
_SPAN_FACTOR = 2
_SPAN_SLACK = 8


def long_rows(
    frame: Any,
    item: str,
    rater: str,
    rating: str,
    groups: Sequence[str],
    count: str,
    rater_key: Any,
    facts: LongFacts,
) -> tuple[Any, list[str], bool | None] | None:
    """The distinct wide rows ``(*groups, *raters, count)`` of a long frame (a polars
    DataFrame, raters named as the pivot names them, in ``rater_key`` order) and whether an
    item's rows carry two values of one of the ``groups`` columns (None: not checked, only
    the packed query checks it; True: the rows are not usable), or None when
    the engine count does not apply (a rater twice on an item, NaN ratings, null raters, too
    many raters or ratings for an int64 code, an engine that refuses an expression).
    ``facts`` is the frame's :func:`long_facts`: the raters and ratings that may occur."""
    nw = import_optional("narwhals", "frames")
    pl = import_optional("polars", "frames")
    present = frame.filter(~nw.col(rating).is_null())
    if facts.raters is None or facts.values is None:
        return None
    raters, values = facts.raters, facts.values
    if raters.null_count() or len(raters) < 2 or len(values) > _MAX_VALUES:
        return None
    if values.dtype.is_float() and values.is_nan().any():
        return None
    strict = {} if frame.implementation.is_polars() else {"default": 0}
    digit = _digits(nw, rating, values, strict)
    spelled = raters.cast(pl.String).to_list()
    order = sorted(range(len(spelled)), key=lambda j: rater_key(spelled[j]))
    placed = _places(nw, rater, raters, order, digit.base, strict)
    if placed is None:
        return None
    packed = None
    library = frame.implementation
    if library.is_duckdb() or library.is_polars():
        packed = packed_rows(
            "duckdb" if library.is_duckdb() else "polars", frame.to_native(),
            item, rater, rating, groups, count,
            Coding(None if digit.low is None else digit.low - 1, values.to_list(),
                   range(1, len(values) + 1)),
            Coding(placed.low, raters.to_list(), placed.place.tolist()),
            digit.base - 1, int(placed.place.max()) + 1,
        )  # fmt: skip
    split: bool | None = None
    found_rows: tuple[Any, np.ndarray] | None = None
    if packed is not None:
        found_rows, split = packed[:2], packed[2]
    else:
        found_rows = _summed_rows(present, item, groups, count, digit, placed)
    if found_rows is None:
        return None
    counted, digits = found_rows
    used = np.count_nonzero(digits, axis=0) > 0
    padded = pl.concat([values, pl.Series([None], dtype=values.dtype)])
    columns = {}
    for j in order:
        if not used[placed.place[j]]:
            continue  # a rater on the span who rated nothing
        # digit 0 (no rating): the null
        columns[spelled[j]] = padded.gather(digit.of_digit[digits[:, placed.place[j]]])
    if len(columns) < 2:
        return None
    wide = pl.DataFrame({**{c: counted.get_column(c) for c in groups}, **columns})
    return wide.with_columns(counted.get_column(count).cast(pl.UInt32)), list(columns), split


def _summed_rows(
    present: Any,
    item: str,
    groups: Sequence[str],
    count: str,
    digit: Digits,
    placed: Places,
) -> tuple[Any, np.ndarray] | None:
    """The counted groups (a polars DataFrame with the ``groups`` and ``count`` columns) and
    each group's digit at every place, by the sums of ``term`` and ``bit`` per item (narwhals,
    any engine); None when a rater rated an item twice or the engine refuses an expression."""
    nw = import_optional("narwhals", "frames")
    try:
        per_item = (
            present.with_columns(
                (digit.expr * placed.power).alias(_TERM), (placed.bit + _ROW).alias(_BITS)
            )
            .group_by([*groups, item])
            .agg(nw.col(_TERM).sum(), nw.col(_BITS).sum())
            .with_columns(nw.col(_TERM).cast(nw.Int64), nw.col(_BITS).cast(nw.Int64))
        )
        counted = as_polars(
            collected(per_item.group_by([*groups, _TERM, _BITS]).agg(nw.len().alias(count)))
        )
    except Exception:  # an engine without one of the expressions: the pivot
        return None
    codes = counted.get_column(_TERM).to_numpy().astype(np.int64)
    both = counted.get_column(_BITS).to_numpy().astype(np.int64)
    bits, rows = (both & (_ROW - 1)).astype(np.uint64), both >> _ROW_SHIFT
    if (np.bitwise_count(bits) != rows).any() or (codes <= 0).any():
        return None  # a rater twice on one item (or a rating the lookup missed)
    powers = np.array([digit.base**g for g in range(int(placed.place.max()) + 1)], dtype=np.int64)
    return counted, (codes[:, None] // powers) % digit.base


class LongFacts(NamedTuple):
    """What one aggregation of the long layout finds (:func:`long_facts`)."""

    missing: dict[str, int]  # for the item and the rater column: ratings without that id
    unrated: int  # rows without a rating (null)
    raters: Any  # the raters that may occur (a polars Series), None: the count does not apply
    values: Any  # the ratings that may occur (a polars Series), as ``raters``
    unrated_raters: list[str] | None  # raters without any rating (text); None: not looked for
    padded_items: int = 0  # ratings whose item id (text) has surrounding whitespace


def _padded(name: str, schema: Any, nw: Any) -> Any:
    """A row whose text id in ``name`` has surrounding whitespace (never, for other types)."""
    if schema[name] != nw.String:
        return nw.lit(value=False)
    return nw.col(name) != nw.col(name).str.strip_chars()


def check_item_spellings(frame: Any, item: str, where: str = "") -> None:
    """A WkappaError when two item ids of a long narwhals frame differ only by surrounding
    whitespace (``'T7'`` and ``'T7 '``): the item's ratings would count as two items, each
    with part of its raters. One ``group_by`` of the distinct (id, stripped id) pairs, run
    only when :func:`long_facts` found a padded id; ``where`` starts the message (the command
    line's file name)."""
    nw = import_optional("narwhals", "frames")
    key = "__wkappa_key"
    distinct = (
        frame.group_by(item).agg(nw.len()).select(item, nw.col(item).str.strip_chars().alias(key))
    )
    split = distinct.group_by(key).agg(nw.len().alias(_RATED)).filter(nw.col(_RATED) > 1)
    found = collected(split.head(1))
    if not len(found):
        return
    stripped = found.get_column(key).to_list()[0]
    ids = collected(distinct.filter(nw.col(key) == stripped).select(item))
    first, second = sorted(ids.get_column(item).to_list(), key=lambda v: (v != v.strip(), v))[:2]
    raise WkappaError(
        f"{where}The item ids {first!r} and {second!r} (column {item!r}) differ only by "
        "surrounding whitespace and would count as two items, each with part of the ratings. "
        "Hint: write each item's id one way in the data, or give two items ids that differ "
        "otherwise."
    )


def _id_missing(name: str, schema: Any, nw: Any) -> Any:
    """A row without its id in ``name`` (null, or NaN in a float column)."""
    missing = nw.col(name).is_null()
    return missing | nw.col(name).is_nan() if schema[name].is_float() else missing


def long_facts(frame: Any, item: str, rater: str, rating: str) -> LongFacts:
    """One aggregation of a long narwhals frame: how many ratings have no item id and no
    rater id (null, or NaN in a float column), how many rows have no rating, and the raters
    and ratings that may occur. Integer raters and ratings: one ``select`` of sums and of the
    lowest and highest rater and rating, every integer between them a candidate (the count
    keeps only those with a rating; the raters without any rating are looked for apart, when
    a rating is missing). Others: one ``group_by(rater, rating)`` whose few rows give the
    distinct raters and ratings, and the raters without any rating, too."""
    nw = import_optional("narwhals", "frames")
    pl = import_optional("polars", "frames")
    schema = frame.collect_schema()
    rated = ~nw.col(rating).is_null()
    ids = (item, rater)
    if schema[rater].is_integer() and schema[rating].is_integer():
        sums = [
            (_id_missing(c, schema, nw) & rated).cast(nw.Int64).sum().alias(f"m{i}")
            for i, c in enumerate(ids)
        ]
        ends = as_polars(
            collected(
                frame.select(
                    *sums,
                    (~rated).cast(nw.Int64).sum().alias("unrated"),
                    (_padded(item, schema, nw) & rated).cast(nw.Int64).sum().alias("padded"),
                    nw.col(rater).min().alias("r0"),
                    nw.col(rater).max().alias("r1"),
                    nw.col(rating).min().alias("v0"),
                    nw.col(rating).max().alias("v1"),
                )
            )
        )
        found = {c: int(ends.get_column(c)[0] or 0) for c in ("m0", "m1", "unrated", "padded")}
        missing = {c: found[f"m{i}"] for i, c in enumerate(ids)}
        r0, r1, v0, v1 = (ends.get_column(c)[0] for c in ("r0", "r1", "v0", "v1"))
        unrated = found["unrated"]
        facts = LongFacts(missing, unrated, None, None, None if unrated else [], found["padded"])
        if None in (r0, r1, v0, v1) or r1 - r0 >= _ROW_SHIFT or v1 - v0 >= _MAX_VALUES:
            return facts
        return facts._replace(
            raters=pl.Series(rater, np.arange(r0, r1 + 1), dtype=ends.get_column("r0").dtype),
            values=pl.Series(rating, np.arange(v0, v1 + 1), dtype=ends.get_column("v0").dtype),
        )
    # A group-by rather than unique(): narwhals' lazy unique() is a row_number() window on
    # DuckDB (0.7 s for 4.5e6 string ids against 0.15 s).
    flags = [
        rated.cast(nw.Int64).alias(_RATED),
        (~rated).cast(nw.Int64).alias(_UNRATED),
        *(
            (_id_missing(c, schema, nw) & rated).cast(nw.Int64).alias(f"m{i}")
            for i, c in enumerate(ids)
        ),
        (_padded(item, schema, nw) & rated).cast(nw.Int64).alias("padded"),
    ]
    pairs = as_polars(
        collected(
            frame.with_columns(*flags)
            .group_by([rater, rating], drop_null_keys=False)
            .agg(
                nw.col(_RATED).sum(),
                nw.col(_UNRATED).sum(),
                *(nw.col(c).sum() for c in ("m0", "m1", "padded")),
            ),
        )
    )
    missing = {c: int(pairs.get_column(f"m{i}").sum() or 0) for i, c in enumerate(ids)}
    present = pairs.filter(pl.col(_RATED) > 0)
    raters = present.get_column(rater).unique(maintain_order=True)
    values = present.get_column(rating).unique(maintain_order=True)
    # The raters who name themselves (not null, nor NaN) and gave no rating.
    named = pl.col(rater).is_not_null()
    if pairs.schema[rater].is_float():
        named = named & ~pl.col(rater).is_nan()
    per_rater = pairs.filter(named).group_by(rater).agg(pl.col(_RATED).sum())
    unrated_ids = per_rater.filter(pl.col(_RATED) == 0).get_column(rater).cast(pl.String)
    return LongFacts(
        missing,
        int(pairs.get_column(_UNRATED).sum() or 0),
        raters,
        values,
        unrated_ids.to_list(),
        int(pairs.get_column("padded").sum() or 0),
    )


@contextmanager
def read_once(frame: Any, columns: Sequence[str]) -> Iterator[Any]:
    """The columns of a narwhals frame that the long layout reads, read from its source
    once for every query that follows.

    A polars LazyFrame is collected (in its streaming engine) into a polars DataFrame, a
    DuckDB relation into an Arrow table that a DuckDB connection of its own then queries, a
    Dask frame is persisted and a Spark one cached (released on leaving). An eager frame is
    in memory already, and a polars or DuckDB frame that :func:`rereads` is read by each
    query at less cost than a copy (and in O(distinct values) memory): both are given as
    they are."""
    nw = import_optional("narwhals", "frames")
    if not isinstance(frame, nw.LazyFrame) or rereads(frame.to_native()):
        yield frame
        return
    library = frame.implementation
    projected = frame.select(*dict.fromkeys(columns))
    if library.is_polars():
        yield projected.collect(engine="streaming")
    elif library.is_duckdb():
        duckdb = import_optional("duckdb", "frames")
        table = projected.to_native().to_arrow_table()
        connection = duckdb.connect()
        try:
            yield nw.from_native(connection.from_arrow(table))
        finally:
            connection.close()
    elif library.is_dask():
        with quiet_dask_notice():
            persisted = nw.from_native(projected.to_native().persist())
        yield persisted
    elif library.is_pyspark() or library.is_pyspark_connect():
        cached = projected.to_native().persist()
        try:
            yield nw.from_native(cached)
        finally:
            cached.unpersist()
    else:
        yield frame


# The lines of a polars plan (``explain(optimized=False)``) that read a local Parquet or IPC
# file or an in-memory frame, select columns and filter rows, and nothing else.
_POLARS_SCAN = re.compile(r"(?:Parquet|Ipc) SCAN \[(.*)\]")
_POLARS_FRAME = re.compile(r"DF \[.*\]; PROJECT (?:\*|\d+)/\d+ COLUMNS")
_POLARS_PLAIN = re.compile(r"PROJECT (?:\*|\d+)/\d+ COLUMNS|ESTIMATED ROWS: \d+|FROM")
_POLARS_EXPR = re.compile(r"(?:SELECT \[(.*)\]|FILTER (.*))")
# ``with_columns``: this line, then the new columns' expressions on the next, in brackets.
_POLARS_WITH = "WITH_COLUMNS:"
_POLARS_LIST = re.compile(r"\[(.*)\]")
# In an expression: the column names and text literals, then the steps that give the same
# values each time (casts, null checks, names, filling nulls with a literal, stripping and
# recasing text) are taken out; what is left must be comparisons, arithmetic and numbers.
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_SAME_EACH_TIME = re.compile(
    r"\bcol\(\)|\.(?:strict_)?cast\(\w+\)|\.is_(?:not_)?null\(\)|\.alias\(\)"
    r"|\.fill_null\(\[[\w.\-]*\]\)"
    r"|\.str\.(?:strip_chars(?:_start|_end)?\(\[(?:null)?\]\)|to_(?:lower|upper)case\(\))"
)
_ARITHMETIC = re.compile(r"[\s\d.,()<>=!&|+\-*/%]*")
# A DuckDB plan (``EXPLAIN (FORMAT json)``) of one scan of a table or of Parquet files, and
# what that scan may say of itself (a sample, for one, it may not).
_DUCKDB_SCANS = {"SEQ_SCAN", "TABLE_SCAN", "PARQUET_SCAN", "READ_PARQUET"}
_DUCKDB_SCAN_INFO = {"Table", "Type", "Function", "Projections", "Filters", "Estimated Cardinality"}


def rereads(native: Any) -> bool:
    """Whether a lazy frame (its native object) is read again by each query rather than
    copied once: a polars LazyFrame whose plan only scans local Parquet or IPC files or an
    in-memory frame, selects columns, filters rows on comparisons and computes columns the
    same way at each read (arithmetic, casts, ``fill_null`` with a literal, text stripped or
    recased; anything else the plan says is taken as not), or a DuckDB relation
    that is one scan of a table or of local Parquet files. Those give the same rows each
    time and read a column faster than they copy it; anything else (a CSV file, a Python
    function, ``random()``, a sample, a join, a remote file) is copied once."""
    try:
        if type(native).__module__.startswith("polars"):
            return _polars_rereads(native.explain(optimized=False))
        if type(native).__module__.startswith("duckdb") and hasattr(native, "query"):
            plan = native.query(
                "__wkappa_plan", "EXPLAIN (FORMAT json) SELECT * FROM __wkappa_plan"
            )
            return "://" not in native.sql_query() and _duckdb_rereads(plan.fetchall())
    except Exception:  # a plan that cannot be shown: copied
        return False
    return False


def _polars_rereads(plan: str) -> bool:
    """Whether a polars plan's lines all read, select, add columns or filter as
    :func:`rereads` asks."""
    scans = 0
    added = False  # the line before was WITH_COLUMNS: this one lists the expressions
    for line in (line.strip() for line in plan.splitlines()):
        if added:
            added = False
            listed = _POLARS_LIST.fullmatch(line)
            if listed is None or not _same_each_time(listed.group(1)):
                return False
            continue
        if line == _POLARS_WITH:
            added = True
            continue
        scan = _POLARS_SCAN.fullmatch(line)
        if scan is not None:
            scans += 1
            if "://" in scan.group(1):
                return False
            continue
        if _POLARS_FRAME.fullmatch(line):
            scans += 1
            continue
        if _POLARS_PLAIN.fullmatch(line):
            continue
        expr = _POLARS_EXPR.fullmatch(line)
        if expr is None or not _same_each_time(expr.group(1) or expr.group(2)):
            return False
    return scans == 1 and not added


def _same_each_time(expression: str) -> bool:
    """Whether a polars plan's expression (its text) gives the same values at each read:
    columns, literals and the steps of ``_SAME_EACH_TIME`` in comparisons and arithmetic."""
    return _ARITHMETIC.fullmatch(_SAME_EACH_TIME.sub("", _QUOTED.sub("", expression))) is not None


def _duckdb_rereads(rows: list[tuple[Any, ...]]) -> bool:
    """Whether a DuckDB physical plan (the rows of ``EXPLAIN (FORMAT json)``) is one scan
    as :func:`rereads` asks."""
    if len(rows) != 1:
        return False
    nodes = json.loads(rows[0][1])
    if len(nodes) != 1:
        return False
    node = nodes[0]
    return (
        node.get("name") in _DUCKDB_SCANS
        and not node.get("children")
        and set(node.get("extra_info", {})) <= _DUCKDB_SCAN_INFO
    )


def _whole_span(series: Any) -> tuple[int, int] | None:
    """(lowest, span) of a numeric series of whole numbers, else None."""
    if not series.dtype.is_numeric() or len(series) == 0:
        return None
    array = series.to_numpy()
    if not np.isfinite(array).all() or (array != np.floor(array)).any():
        return None
    if max(abs(float(array.min())), abs(float(array.max()))) >= 2**53:
        return None
    low = int(array.min())
    return low, int(array.max()) - low + 1


class Digits(NamedTuple):
    """How a rating becomes its digit (1..base-1)."""

    expr: Any  # the narwhals expression of the digit
    base: int
    of_digit: np.ndarray  # for each digit, the index of its value (digit 0: the null)
    low: int | None  # whole numbers on a short span: digit = rating - low + 1; else None


class Places(NamedTuple):
    """Where each rater's digit goes."""

    power: Any  # the narwhals expression of base**place
    bit: Any  # the narwhals expression of 2**place
    place: np.ndarray  # each rater's place
    low: int | None  # integer raters on a short span: place = rater - low; else None


def _digits(nw: Any, rating: str, values: Any, strict: dict[str, Any]) -> Digits:
    """The expression of a rating's digit (1..base-1), the base, and for each digit the
    index of its value in ``values`` (digit 0: ``len(values)``, the null).

    Whole numbers on a short span: ``rating - lowest + 1`` (arithmetic, as cheap as a read);
    anything else: a lookup among the distinct values."""
    n_values = len(values)
    span = _whole_span(values)
    if span is not None and span[1] <= _SPAN_FACTOR * n_values + _SPAN_SLACK:
        low, width = span
        index = np.full(width + 1, n_values, dtype=np.int64)
        index[1 + values.to_numpy().astype(np.int64) - low] = np.arange(n_values)
        return Digits((nw.col(rating) - (low - 1)).cast(nw.Int64), width + 1, index, low)
    lookup = nw.col(rating).replace_strict(
        values.to_list(), list(range(1, n_values + 1)), return_dtype=nw.Int64, **strict
    )
    return Digits(lookup, n_values + 1, np.append(n_values, np.arange(n_values)), None)


def _places(
    nw: Any, rater: str, raters: Any, order: list[int], base: int, strict: dict[str, Any]
) -> Places | None:
    """Expressions of ``base**place`` and ``2**place`` of each row's rater, and the place of
    each rater; None when the codes would not fit an int64.

    Integer raters on a short span: place = rater - lowest, and the powers as
    ``exp(place * log(base))`` rounded (exact: they stay below 2**40); anything else: a
    lookup, places in ``order``."""
    span = _whole_span(raters) if raters.dtype.is_integer() else None
    if span is not None and span[1] <= _ROW_SHIFT and span[1] * math.log2(base) < _EXACT_POWER_BITS:
        low = span[0]
        place = raters.to_numpy().astype(np.int64) - low
        offset = nw.col(rater) - low

        def power(of: int) -> Any:
            return (offset * math.log(of)).exp().round(0).cast(nw.Int64)

        return Places(power(base), power(2), place, low)
    if len(order) * math.log2(base) >= _MAX_CODE_BITS or len(order) >= _ROW_SHIFT:
        return None
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order))
    old = raters.to_list()

    def lookup(new: list[int]) -> Any:
        return nw.col(rater).replace_strict(old, new, return_dtype=nw.Int64, **strict)

    return Places(
        lookup([base ** int(g) for g in place]), lookup([1 << int(g) for g in place]), place, None
    )
