"""Count rating pairs where a data frame lives; bring back only the distinct pairs.

Every engine narwhals knows (pandas, polars eager and lazy, pyarrow, DuckDB, Dask, PySpark)
runs one ``group_by([y_true, y_pred]).agg(len)`` — lazily where the engine is lazy — and
returns one row per distinct pair. Those few rows are then encoded by the core
(:func:`wkappa._core.encode.encode_ratings`), so labels, integer ranges, categorical order and
missing values follow exactly the rules of the array functions.

This module imports narwhals at call time only; it is reached through :mod:`wkappa.frames`.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from .._core import (
    LIMBS,
    MAX_TABLE_CELLS,
    EncodedRatings,
    QuadraticSums,
    Request,
    Where,
    castable,
    category_order,
    check_table_size,
    check_weight_values,
    combined_dictionary,
    encode_ratings,
    exact_weight_sums,
    import_optional,
    limbs,
    one_dictionary_table,
    to_column,
    units_are_accurate,
    units_from_limbs,
    units_to_float,
    weighted_quadratic_sums,
)
from ..exceptions import WkappaError, WkappaTypeError
from .column_names import check_name, lazy_names, native_names, refuse_duplicates

__all__ = [
    "COUNT",
    "FrameInput",
    "PairCounts",
    "as_polars",
    "check_group_columns",
    "collected",
    "count_pairs",
    "encode_counts",
    "encode_pair",
    "exact_pairs",
    "frame_input",
    "keep_category_orders",
    "ordered_categories",
    "pair_quadratic_sums",
    "quiet_dask_notice",
    "raise_missing_rows",
    "ratings_input",
    "scatter_table",
    "spark_keys_as_text",
]

# Aggregate columns get names no user column is likely to have.
COUNT = "__wkappa_count__"
_W_SUM = "__wkappa_weight_sum__"
_W_MIN = "__wkappa_weight_min__"
_W_MAX = "__wkappa_weight_max__"
_W_VALID = "__wkappa_weight_valid__"
# The sums of the digits of the weights' units (the rule of _core.weight_sums).
_LIMBS = [f"__wkappa_weight_units_{k}__" for k in range(LIMBS)]
_STAGE = "__wkappa_weight_"

_ENGINES = "pandas, polars (DataFrame or LazyFrame), pyarrow, DuckDB, Dask or PySpark"


@dataclass(frozen=True)
class FrameInput:
    """A user frame wrapped by narwhals, with its checked column names.

    Attributes
    ----------
    frame : narwhals DataFrame or LazyFrame
    lazy : bool
        Whether the engine is lazy (polars LazyFrame, DuckDB, Dask, PySpark).
    schema : dict
        Column name -> narwhals dtype.
    category_orders : tuple of tuples
        The category orders of the ordered dtypes among ``y_true``/``y_pred`` (polars Enum,
        pandas ordered Categorical, DuckDB ENUM): :meth:`labels` applies the rule of the
        array functions to them.
    """

    frame: Any
    lazy: bool
    schema: dict[str, Any]
    category_orders: tuple[tuple[Any, ...], ...]

    def labels(self, ordered: bool) -> tuple[Any, ...] | None:
        """The categories the ordered dtypes give (None: the values decide), as
        :func:`wkappa.weighted_kappa` takes them: the categorical's own categories in their
        order; two different orders give none when the order does not matter (unweighted)
        and are an error naming both when it does."""
        return category_order(self.category_orders, ordered, "`y_true` and `y_pred`")


@contextmanager
def quiet_dask_notice() -> Iterator[None]:
    """Silence narwhals' notice that its Dask support moves to a ``narwhals-dask`` package.

    That package is not released yet; the notice is about narwhals' future, not about
    anything the caller can act on.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Dask support is moving", FutureWarning)
        yield


def wrap_frame(df: Any, hint: str) -> Any:
    """``df`` as a narwhals frame, or an error naming the engines (``hint``: what to use for
    arrays instead)."""
    nw = import_optional("narwhals", "frames")
    pa = sys.modules.get("pyarrow")
    if pa is not None and isinstance(df, pa.Table):  # one dictionary a column, for group-bys
        df = one_dictionary_table(df)
    try:
        with quiet_dask_notice():
            frame = nw.from_native(df)
    except TypeError:
        raise WkappaTypeError(
            f"`df` must be a data frame of {_ENGINES}; got {type(df).__name__}. Hint: {hint}"
        ) from None
    except nw.exceptions.DuplicateError:  # pandas and pyarrow: refused on wrapping
        refuse_duplicates([str(name) for name in native_names(df)])
        raise
    # DuckDB and Spark wrap a frame whose names repeat, and read one of the columns by it.
    refuse_duplicates(frame.columns if isinstance(frame, nw.DataFrame) else lazy_names(frame))
    return frame


def check_group_columns(
    groups: Sequence[tuple[str, str | None]],
    read: dict[Any, str],
    item: tuple[str | None, str] | None = None,
) -> None:
    """Refuse a grouping column that is also read as ratings, as the item id or as another
    kind of group.

    ``groups`` pairs each grouping parameter as the caller names it (```by```, ``--cluster``)
    with its column; ``read`` maps each rating column to its parameter's name and ``item`` is
    the item column with its parameter's name (long layout). A group per item, or an item per
    cluster (the ordinary design), is refused too.
    """
    named = [(parameter, name) for parameter, name in groups if name is not None]
    for i, (parameter, name) in enumerate(named):
        other = next((p for p, n in named[i + 1 :] if n == name), None)
        if other == parameter:
            raise WkappaError(f"{parameter} names the column {name!r} twice; give it once.")
        if other is not None:
            raise WkappaError(
                f"{parameter} and {other} name the same column {name!r}; give two columns."
            )
        if item is not None and name == item[0]:
            why = (
                f"one item per cluster is the ordinary design. Hint: leave out {parameter}."
                if "cluster" in parameter
                else "every item would be a group of its own. Hint: give the column that "
                "groups the items (e.g. a site or a model)."
            )
            raise WkappaError(f"{parameter} names the {item[1]} column {name!r}: {why}")
        if name in read:
            raise WkappaError(
                f"{parameter} names the {read[name]} column {name!r}; give a column of its own."
            )


def frame_input(
    df: Any,
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    by: Sequence[Any] = (),
    cluster: Any = None,
) -> FrameInput:
    """Wrap ``df`` with narwhals and check the column names against its schema (``by`` and
    ``cluster``: the grouping columns of :func:`wkappa.frames.kappa_by_group`)."""
    return ratings_input(
        df,
        [("y_true", y_true), ("y_pred", y_pred)],
        sample_weight,
        by,
        cluster,
        hint="for arrays use wkappa.weighted_kappa(y_true, y_pred).",
    )


def ratings_input(
    df: Any,
    ratings: Sequence[tuple[str, Any]],
    sample_weight: Any = None,
    by: Sequence[Any] = (),
    cluster: Any = None,
    *,
    hint: str,
) -> FrameInput:
    """:func:`frame_input` of any rating columns, each named by its parameter in ``ratings``
    (parameter, column): ``y_true`` and ``y_pred``, or the truth and both predictions of
    :func:`wkappa.frames.paired_kappa_test`; ``hint`` says what to use for arrays."""
    nw = import_optional("narwhals", "frames")
    frame = wrap_frame(df, hint)
    schema = dict(frame.collect_schema())
    for parameter, name in ratings:
        check_name(name, parameter, schema)
        if schema[name].is_temporal():
            raise WkappaTypeError(
                f"`{parameter}` names the column {name!r}, which holds dates or times "
                f"({schema[name]}), not ratings. Hint: check that `{parameter}` names the "
                "column of ratings you mean; a day or a timestamp to score separately goes "
                "to `by` (frames.kappa_by_group)."
            )
    if sample_weight is not None:
        check_name(sample_weight, "sample_weight", schema)
        rating_columns = {name for _, name in ratings}
        if schema[sample_weight] == nw.Boolean and sample_weight not in rating_columns:
            # A mask weighs its pairs 1 and 0, as in wkappa.weighted_kappa.
            frame = frame.with_columns(nw.col(sample_weight).cast(nw.Int64))
            schema[sample_weight] = nw.Int64()
        elif not schema[sample_weight].is_numeric():
            raise WkappaError(
                f"`sample_weight` column {sample_weight!r} must be numeric; "
                f"it has dtype {schema[sample_weight]}. Hint: convert it to numbers first "
                f"(pandas: df[{sample_weight!r}].astype(float); polars: "
                f"pl.col({sample_weight!r}).cast(pl.Float64))."
            )
    for key in by:
        check_name(key, "by", schema)
    if cluster is not None:
        check_name(cluster, "cluster", schema)
    groups = [*(("`by`", key) for key in by), ("`cluster`", cluster)]
    check_group_columns(groups, {name: f"`{parameter}`" for parameter, name in ratings})
    frame = spark_keys_as_text(frame, schema, [*by, *([cluster] if cluster else [])])
    orders = _category_orders(schema, [name for _, name in ratings])
    return FrameInput(frame, isinstance(frame, nw.LazyFrame), schema, orders)


def spark_keys_as_text(frame: Any, schema: dict[str, Any], keys: Sequence[str]) -> Any:
    """``frame`` with each Spark key column of a type narwhals does not know (an interval of
    months, which Spark cannot hand to Arrow) cast to its text in the engine, as a key with
    no type is keyed by its text elsewhere; ``schema`` is updated to match."""
    nw = import_optional("narwhals", "frames")
    if not frame.implementation.is_pyspark():
        return frame
    for key in keys:
        if isinstance(schema[key], nw.Unknown):
            frame = frame.with_columns(nw.col(key).cast(nw.String()))
            schema[key] = nw.String()
    return frame


def _category_orders(schema: dict[str, Any], names: Sequence[str]) -> tuple[tuple[Any, ...], ...]:
    nw = import_optional("narwhals", "frames")
    columns = [schema[name] for name in names]
    return tuple(tuple(dtype.categories) for dtype in columns if isinstance(dtype, nw.Enum))


def ordered_categories(frame: Any, schema: dict[str, Any], name: str) -> tuple[Any, ...] | None:
    """The categories, in order, of the column ``name`` of a narwhals frame when it is an
    ordered categorical (polars ``Enum``, pandas ordered ``Categorical``, DuckDB ``ENUM``,
    pyarrow ordered dictionary), else None; ``schema`` is the frame's."""
    nw = import_optional("narwhals", "frames")
    dtype = schema[name]
    if isinstance(dtype, nw.Enum):
        return tuple(dtype.categories)
    if not (isinstance(dtype, nw.Categorical) and frame.implementation.is_pyarrow()):
        return None
    column = frame.to_native().column(name)  # (narwhals does not tell pyarrow's order)
    if not column.type.ordered:
        return None
    combined, ordered = combined_dictionary(column)
    return tuple(combined.dictionary.to_pylist()) if ordered else None


def keep_category_orders(counted: Any, orders: Mapping[str, tuple[Any, ...] | None]) -> Any:
    """The eager narwhals frame ``counted`` of distinct rating rows with each column of
    ``orders`` that has an order (text categories) as a polars ``Enum`` of that order, where
    the engine's rows lost it (a DuckDB ``ENUM`` collected, a pandas or pyarrow ordered
    categorical passed through polars): the core then reads the categories, unused ones
    included, in their order, as it reads the source column."""
    nw = import_optional("narwhals", "frames")
    schema = counted.schema
    lost = {
        name: order
        for name, order in orders.items()
        if order is not None
        and all(isinstance(value, str) for value in order)
        and not (isinstance(schema[name], nw.Enum) and tuple(schema[name].categories) == order)
    }
    if not lost:
        return counted
    pl = import_optional("polars", "frames")
    cast = [pl.col(name).cast(pl.String).cast(pl.Enum(order)) for name, order in lost.items()]
    return nw.from_native(as_polars(counted).with_columns(cast), eager_only=True)


def collected(frame: Any) -> Any:
    """The rows of a narwhals frame: a LazyFrame collected in its engine (polars' streaming
    engine reads a scan in batches, so memory stays of the order of the result), an eager
    frame as it is."""
    nw = import_optional("narwhals", "frames")
    if not isinstance(frame, nw.LazyFrame):
        return frame
    streaming = {"engine": "streaming"} if frame.implementation.is_polars() else {}
    return frame.collect(**streaming)


def as_polars(frame: Any) -> Any:
    """An eager narwhals frame's rows as a polars DataFrame (through Arrow from another
    library)."""
    if frame.implementation.is_polars():
        return frame.to_native()
    pl = import_optional("polars", "frames")
    return pl.from_arrow(frame.to_arrow())


@dataclass(frozen=True)
class PairCounts:
    """The distinct (keys..., y_true, y_pred) rows with their count (and weight sums).

    ``true`` and ``pred`` are native columns of a small eager frame (pandas, polars or
    pyarrow), which :func:`wkappa._core.encode.to_column` reads with their dtypes.
    """

    frame: Any
    true: Any
    pred: Any
    count: np.ndarray
    weight: np.ndarray | None


def count_pairs(
    data: FrameInput, y_true: str, y_pred: str, sample_weight: str | None, by: Sequence[str] = ()
) -> PairCounts:
    """Group by ``[*by, y_true, y_pred]`` inside the engine and collect the counts (one
    column named twice, rater against itself, is grouped by once and read as both).

    With ``sample_weight`` each pair's weights are also summed exactly (the digits of
    :func:`wkappa._core.weight_sums.limbs`, summed as 64-bit integers) and the pairs sorted,
    so that the weight sums, and everything computed from them, are the same bits on every
    engine, whatever the order of the rows, their partitions or the engine's threads.
    """
    keys = list(dict.fromkeys([*by, y_true, y_pred]))
    if data.frame.implementation.is_dask():
        nw = import_optional("narwhals", "frames")
        counted = nw.from_native(_dask_counts(data.frame.to_native(), keys, sample_weight))
    else:
        counted = _counted(data, keys, sample_weight)
    if sample_weight is not None:  # sums over pairs (groups) add them in a fixed order
        counted = counted.sort(keys, nulls_last=True)
    count = counted.get_column(COUNT).to_numpy().astype(np.int64)
    weight_sums = None
    if sample_weight is not None:
        weight_sums = _exact_sums(counted, count, _check_weight_sums(counted, count))
    return PairCounts(
        counted,
        counted.get_column(y_true).to_native(),
        counted.get_column(y_pred).to_native(),
        count,
        weight_sums,
    )


def _counted(data: FrameInput, keys: list[str], sample_weight: str | None) -> Any:
    """The group-by-count of a narwhals frame, collected (with ``sample_weight``, also the
    sums of the digits of the weights' units)."""
    nw = import_optional("narwhals", "frames")
    frame = data.frame
    aggregates = [nw.len().alias(COUNT)]
    if sample_weight is not None:
        weight = nw.col(sample_weight)
        aggregates += [
            weight.sum().alias(_W_SUM),
            weight.min().alias(_W_MIN),
            weight.max().alias(_W_MAX),
            weight.count().alias(_W_VALID),
            *(nw.col(name).sum() for name in _LIMBS),
        ]
        frame = _with_limbs(data, sample_weight)
    return collected(frame.group_by(keys, drop_null_keys=False).agg(*aggregates))


def _with_limbs(data: FrameInput, sample_weight: str) -> Any:
    """The frame with the int64 digits of each weight's units (0 for a weight that is not
    castable: the checks refuse it or its pair keeps the floating-point sum) in the columns
    ``_LIMBS``; the engines sum columns (some take no complex aggregations)."""
    nw = import_optional("narwhals", "frames")
    frame = data.frame
    if not data.lazy:  # the column is in memory: numpy computes the digits
        value = frame.get_column(sample_weight).cast(nw.Float64).to_numpy()
        columns = [
            nw.new_series(name, digit, nw.Int64, backend=frame.implementation)
            for name, digit in zip(_LIMBS, _numpy_digits(value), strict=True)
        ]
        return frame.with_columns(*columns)
    stages: list[Any] = []

    def keep(name: str, value: Any) -> Any:  # one column per intermediate: computed once
        stages.append(value.alias(_STAGE + name))
        return nw.col(_STAGE + name)

    value = nw.col(sample_weight).cast(nw.Float64)
    kept = nw.when(castable(value)).then(value).otherwise(0.0)
    digits = limbs(kept, lambda x: x.floor(), keep)
    for stage in stages:
        frame = frame.with_columns(stage)
    return frame.with_columns(
        *(digit.cast(nw.Int64).alias(name) for digit, name in zip(digits, _LIMBS, strict=True))
    )


def _exact_sums(counted: Any, count: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """The weight sums with each pair's exact sum of units where that is as accurate."""
    digit_sums = [counted.get_column(name).to_list() for name in _LIMBS]
    exact = np.array(
        [units_to_float(units_from_limbs(pair)) for pair in zip(*digit_sums, strict=True)],
        dtype=np.float64,
    )
    highest = counted.get_column(_W_MAX).to_numpy().astype(np.float64)
    accurate = units_are_accurate(highest, exact, count)
    chosen: np.ndarray = np.where(accurate, exact, sums)
    return chosen


def _dask_counts(frame: Any, keys: list[str], sample_weight: str | None) -> Any:
    """The group-by-count of a Dask DataFrame, natively, as a small pandas frame.

    narwhals' Dask group-by lets dask-expr pick a shuffle-based aggregation, which moves
    every partition's groups between workers; with a few distinct pairs a tree reduction
    (``split_out=1``) is several times faster.
    """
    if sample_weight is None:
        grouped = frame.groupby(keys, dropna=False, observed=True, sort=False)
        counts = grouped.size(split_out=1).to_frame(COUNT)
        return counts.compute().reset_index()
    frame = frame.map_partitions(_with_digits, sample_weight)
    grouped = frame.groupby(keys, dropna=False, observed=True, sort=False)
    spec = {sample_weight: ["size", "sum", "min", "max", "count"], **dict.fromkeys(_LIMBS, "sum")}
    counts = grouped.agg(spec, split_out=1)
    counts.columns = [COUNT, _W_SUM, _W_MIN, _W_MAX, _W_VALID, *_LIMBS]
    return counts.compute().reset_index()


def _with_digits(part: Any, sample_weight: str) -> Any:
    """A pandas partition with the int64 digits of each castable weight's units in the
    columns ``_LIMBS`` (one numpy pass per partition)."""
    value = part[sample_weight].to_numpy(dtype=np.float64, na_value=np.nan)
    return part.assign(**dict(zip(_LIMBS, _numpy_digits(value), strict=True)))


def _numpy_digits(value: Any) -> list[np.ndarray]:
    """The int64 digits of each castable weight's units (0 for the others: the checks refuse
    them or their pair keeps the floating-point sum)."""
    value = np.asarray(value, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        kept = np.where(castable(value), value, 0.0)
    return [digit.astype(np.int64) for digit in limbs(kept, np.floor)]


def _check_weight_sums(counted: Any, count: np.ndarray) -> np.ndarray:
    """Weight sums per distinct pair, refusing missing, negative or non-finite weights."""
    valid = counted.get_column(_W_VALID).to_numpy().astype(np.int64)
    lowest = counted.get_column(_W_MIN).to_numpy().astype(np.float64)
    highest = counted.get_column(_W_MAX).to_numpy().astype(np.float64)
    sums: np.ndarray = counted.get_column(_W_SUM).to_numpy().astype(np.float64)
    check_weight_values(
        complete=not (valid < count).any(),
        finite=bool(np.isfinite(sums).all() and np.isfinite(highest).all()),
        non_negative=not (lowest < 0).any(),
    )
    return sums


def missing_mask(counts: PairCounts) -> np.ndarray:
    """Which distinct pairs have a missing rating (null, NaN, None)."""
    mask = np.zeros(len(counts.count), dtype=bool)
    for column, name in ((counts.true, "y_true"), (counts.pred, "y_pred")):
        missing = to_column(column, name).missing
        if missing is not None:
            mask |= missing
    return mask


def raise_missing(
    counts: PairCounts, mask: np.ndarray, y_true: str, y_pred: str, propagate: bool = True
) -> NoReturn:
    """The nan_policy='raise' error for a frame: which column, how many rows."""
    which = y_true if to_column(counts.true, "y_true").missing is not None else y_pred
    raise_missing_rows(int(counts.count[mask].sum()), which, propagate)


def raise_missing_rows(n_rows: int, which: str, propagate: bool = True) -> NoReturn:
    """The nan_policy='raise' error: ``n_rows`` rows miss a rating, e.g. in column ``which``
    (``propagate``: whether the caller takes 'propagate', which the hint then offers)."""
    nan = "; nan_policy='propagate' returns nan" if propagate else ""
    raise WkappaError(
        f"The rating columns have {n_rows} row(s) with a missing rating (null/NaN), e.g. in "
        f"column {which!r}. Hint: nan_policy='omit' drops incomplete pairs{nan}."
    )


def encode_counts(
    counts: PairCounts, request: Request, columns: tuple[str, str] | None = None
) -> EncodedRatings | None:
    """Encode the distinct pairs with the core's rules (labels, ranges, order, missing).

    ``request`` holds the user's ``labels``, ``min_rating``, ``max_rating``, ``nan_policy``
    and ``ordered`` (its ``sample_weight`` is not read: the counts take its place).
    ``columns`` (the names of ``y_true`` and ``y_pred``) are named by a label-spelling error:
    positions among the distinct pairs mean nothing to the user.

    The per-pair counts (or weight sums) travel as the sample weights of the distinct pairs,
    so ``nan_policy='omit'`` drops exactly the incomplete pairs and their counts.
    """
    if len(counts.count) == 0:
        raise WkappaError("`df` has no rows; there is nothing to score.")
    weight = counts.count.astype(np.float64) if counts.weight is None else counts.weight
    where = None if columns is None else _in_column(columns)
    return encode_pair(counts.true, counts.pred, weight, request, where)


def encode_pair(
    y_true: Any, y_pred: Any, sample_weight: Any, request: Request, where: Where | None = None
) -> EncodedRatings | None:
    """:func:`wkappa._core.encode_ratings` of two native columns with the options of
    ``request`` and these ``sample_weight`` values (``request.sample_weight`` is a column
    name)."""
    options = {**request.encode_options(), "sample_weight": sample_weight}
    return encode_ratings(
        y_true,
        y_pred,
        **options,
        ordered=request.ordered,
        where=where,
        propagate=request.propagate,
    )


def _in_column(columns: tuple[str, str]) -> Where:
    names = {"y_true": columns[0], "y_pred": columns[1]}

    def where(name: str, value: Any, position: int) -> str:
        return f"in column {names.get(name, name)!r}"

    return where


def exact_pairs(encoded: EncodedRatings) -> EncodedRatings:
    """The distinct pairs of encoded weighted ratings, in the order of their category
    indices, each with its weights' sum by the rule of :mod:`wkappa._core.weight_sums` (the
    sums :func:`count_pairs` gets from an engine)."""
    k = encoded.n_categories
    weight = encoded.sample_weight
    assert weight is not None
    cell = encoded.true_index * k + encoded.pred_index
    cells = None
    if k * k <= MAX_TABLE_CELLS:
        index, size = cell, k * k
    else:  # few of the K x K cells occur: number the occurring ones (a sort)
        cells, index = np.unique(cell, return_inverse=True)
        size = len(cells)
    sums = exact_weight_sums(index, weight, size)
    present = np.flatnonzero(np.bincount(index, minlength=size))
    chosen = present if cells is None else cells[present]
    return EncodedRatings(chosen // k, chosen % k, encoded.labels, sums[present])


def scatter_table(
    encoded: EncodedRatings,
    integer: bool,
    groups: np.ndarray | None = None,
    n_groups: int = 0,
) -> np.ndarray:
    """Tables from encoded distinct pairs: shape (K, K), or (G, K, K) with group ids.

    With ``integer`` the weights are row counts (exact in float64 below 2**53 per distinct
    pair) and are added in int64; otherwise they are weight sums added in float64.
    """
    k = encoded.n_categories
    check_table_size(k)
    weight = encoded.sample_weight
    assert weight is not None
    cell = encoded.true_index * k + encoded.pred_index
    if groups is not None:
        cell = groups * (k * k) + cell
    size = n_groups * k * k if groups is not None else k * k
    if integer:
        flat = np.zeros(size, dtype=np.int64)
        np.add.at(flat, cell, weight.astype(np.int64))
    else:
        flat = np.bincount(cell, weights=weight, minlength=size)
    tables: np.ndarray = flat.reshape((k, k) if groups is None else (n_groups, k, k))
    return tables


def pair_quadratic_sums(encoded: EncodedRatings, integer: bool) -> QuadraticSums:
    """The QWK sums of encoded distinct pairs, with no K x K table (any K, as for arrays).

    With ``integer`` the weights are row counts and the sums exact Python ints; otherwise
    they are weight sums, taken in the order of the pairs' category indices and summed about
    their weighted centre (no cancellation).
    """
    a, b = encoded.true_index, encoded.pred_index
    weight = encoded.sample_weight
    if weight is None:
        weight = np.ones(len(a))
    if not integer:
        order = np.lexsort((b, a))
        return weighted_quadratic_sums(a[order], b[order], np.asarray(weight)[order])
    count = [int(c) for c in weight.tolist()]
    xs, ys = a.tolist(), b.tolist()
    return QuadraticSums(
        sum(count),
        sum(c * x for c, x in zip(count, xs, strict=True)),
        sum(c * y for c, y in zip(count, ys, strict=True)),
        sum(c * x * x for c, x in zip(count, xs, strict=True)),
        sum(c * y * y for c, y in zip(count, ys, strict=True)),
        sum(c * x * y for c, x, y in zip(count, xs, ys, strict=True)),
    )
