"""Numeric ratings in a data frame, for the intraclass and concordance correlations.

Wide layout (one column per rater) on a lazy or distributed engine (polars ``LazyFrame``,
DuckDB, Dask, PySpark): one aggregation in the engine returns the number of targets, each
rater's mean, effect and residual variance, the mean and variance of the targets' row means
and the number of targets with a missing rating (:class:`RaterMoments`); the ANOVA sums of
complete ratings follow from them. Otherwise (an eager frame, the long layout, missing
ratings, the CCC) the ratings come into this process as a targets x raters float64 matrix
with NaN for a missing rating (the long layout pivoted here, O(targets x raters) memory: its
item, rater and rating columns are read from the source once, and the ids checked on them).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import import_optional, past_float, sums_from_means, trusted_sums, unit_for
from ..exceptions import WkappaError
from .count import as_polars, collected, wrap_frame
from .raters import (
    add_raters,
    check_long_ids,
    check_one_rating_each,
    check_padded_items,
    layout_columns,
    rater_ids,
    rater_key,
)

__all__ = [
    "NumericFrame",
    "RaterMoments",
    "icc_input",
    "numeric_frame",
    "numeric_matrix",
    "rater_moments",
]


class NumericFrame(NamedTuple):
    """A frame of numeric ratings with its checked layout.

    Attributes
    ----------
    frame : narwhals DataFrame or LazyFrame
    lazy : bool
        Whether the engine is lazy (polars LazyFrame, DuckDB, Dask, PySpark).
    raters : list of str or None
        Wide layout: the rater columns.
    long : tuple of (item, rater, rating) column names, or None
        Long layout: the columns of one row per rating.
    triples : polars DataFrame or None
        Long layout: those columns, read from the source once (their ids checked).
    integer_shift : int
        Subtracted from integer rating columns before they become floats (0, or the
        smallest rating of integers past 2**53: :func:`_past_float`).
    """

    frame: Any
    lazy: bool
    raters: list[str] | None
    long: tuple[str, str, str] | None
    triples: Any = None
    integer_shift: int = 0


class RaterMoments(NamedTuple):
    """Complete targets x raters ratings reduced to their moments (population variances
    times ``n``: sums of squared deviations), as :class:`wkappa.ICCAccumulator` keeps them:
    the raters' means, their effects (the means of their deviations from the targets' row
    means), the row means' mean and sum of squared deviations, and ``SS_error`` (the sum
    over raters of those deviations' sums of squared deviations): never the rest of a large
    total where targets differ far more than raters."""

    n: int
    column_means: np.ndarray
    rater_effects: np.ndarray
    row_mean: float
    row_m2: float
    error_m2: float
    low: float = 0.0  # the smallest and largest rating
    high: float = 0.0
    unit: float = 1.0  # moments of (ratings - low) / unit when not 1
    beyond_float: int | None = None  # integer ratings past 2**53: the smallest, exactly


def numeric_frame(
    df: Any,
    *,
    raters: Sequence[str] | None,
    item: str | None,
    rater: str | None,
    rating: str | None,
    hint: str,
) -> NumericFrame:
    """Wrap ``df`` and check the layout: ``raters`` (wide) or ``item``, ``rater``,
    ``rating`` (long), numeric rating columns (``hint``: the array function to use instead)."""
    nw = import_optional("narwhals", "frames")
    frame = wrap_frame(df, hint)
    schema = dict(frame.collect_schema())
    wide, names = layout_columns(schema, raters, item, rater, rating)
    numeric = names if wide else [rating]
    for name in numeric:
        if not schema[name].is_numeric():
            nulls = " (a column of nulls only, as read, has no type)"
            raise WkappaError(
                f"The rating column {name!r} must be numeric; it has dtype {schema[name]}"
                f"{nulls if isinstance(schema[name], nw.Unknown) else ''}. Hint: the ICC and "
                "CCC take numeric scores; for categories use agreement()."
            )
    lazy = isinstance(frame, nw.LazyFrame)
    if wide:
        return NumericFrame(frame, lazy, names, None)
    long = (item, rater, rating)
    # One read of the source: the ids are checked on the columns read, which then pivot.
    triples = as_polars(collected(frame.select(list(long))))
    check_long_ids(triples, {item: "`item`", rater: "`rater`"}, rating)  # type: ignore[dict-item, arg-type]
    return NumericFrame(frame, lazy, None, long, triples)  # type: ignore[arg-type]


def rater_moments(
    data: NumericFrame,
    shift: float = 0.0,
    factor: float = 1.0,
    centres: np.ndarray | None = None,
) -> RaterMoments | None:
    """The moments of the wide layout's rater columns, computed in the engine in one
    aggregation; None when a rating is missing (null or NaN) or there are no rows. With
    ``shift`` and ``factor`` (a power of two), those of ``x * factor - shift * factor``.

    Each rating is centred on its target's mean, and the deviations again on their row
    mean (the rounding of the target's mean, common to its row), before the raters' effects
    and residual variances are taken: rounded relative to the raters' differences, not to
    the targets' spread. Where the raters differ more than the targets, ``centres`` (the
    raters' means of a first aggregation) are removed from each rater's ratings first, so
    the rounding is relative to the targets' spread (the order of
    :func:`wkappa._core.anova_sums`). The frame's ``integer_shift`` is subtracted from
    integer columns before they become floats (see :func:`_past_float`).
    """
    nw = import_optional("narwhals", "frames")
    assert data.raters is not None
    integer_shift = data.integer_shift
    schema = data.frame.collect_schema()
    integers = all(schema[name].is_integer() for name in data.raters)
    columns = [
        (nw.col(name) - integer_shift if integer_shift else nw.col(name)).cast(nw.Float64)
        for name in data.raters
    ]
    if factor != 1.0 or shift != 0.0:
        columns = [column * factor - shift * factor for column in columns]
    if centres is not None:
        columns = [column - float(centre) for column, centre in zip(columns, centres, strict=True)]
    row = nw.mean_horizontal(*columns)
    missing = nw.any_horizontal(
        *[column.is_null() | column.is_nan() for column in columns], ignore_nulls=False
    )
    exprs = [nw.len().alias("n"), missing.cast(nw.Int64).sum().alias("missing")]
    deviations = [column - row for column in columns]
    rounding = nw.mean_horizontal(*deviations)
    for j, column in enumerate(columns):
        deviation = deviations[j] - rounding
        exprs += [column.mean().alias(f"mean{j}"), deviation.mean().alias(f"effect{j}")]
        exprs += [deviation.var(ddof=0).alias(f"error{j}")]
        exprs += [column.min().alias(f"low{j}"), column.max().alias(f"high{j}")]
        if integers and not integer_shift:  # the exact ends, for _past_float
            name = data.raters[j]
            exprs += [nw.col(name).min().alias(f"ilow{j}"), nw.col(name).max().alias(f"ihigh{j}")]
    exprs += [row.mean().alias("row_mean"), row.var(ddof=0).alias("row_var")]
    with warnings.catch_warnings():
        # Dask takes the mean of no rows as 0 / 0 and warns; no rows give None below.
        warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning)
        values = collected(data.frame.select(*exprs)).rows(named=True)[0]
    n = int(values["n"])
    if n == 0 or int(values["missing"] or 0):
        return None
    k = len(data.raters)
    means, effects = (
        np.array([float(values[f"{key}{j}"]) for j in range(k)]) for key in ("mean", "effect")
    )
    error_m2 = float(sum(float(values[f"error{j}"]) for j in range(k))) * n
    low = min(float(values[f"low{j}"]) for j in range(k))
    high = max(float(values[f"high{j}"]) for j in range(k))
    row = float(values["row_mean"]), float(values["row_var"]) * n
    if centres is not None:  # the moments of the ratings themselves
        means += centres
        effects += centres - centres.mean()
        low, high = low + float(centres.min()), high + float(centres.max())
    beyond = None
    if integers and not integer_shift:
        ends = [int(values[f"{key}{j}"]) for j in range(k) for key in ("ilow", "ihigh")]
        beyond = _past_float(min(ends), max(ends))
    return RaterMoments(n, means, effects, *row, error_m2, low, high, beyond_float=beyond)


def _past_float(low: int, high: int) -> int | None:
    """``low`` when integer ratings from ``low`` to ``high`` reach past 2**53, where float64
    rounds them (:func:`wkappa._core.past_float`): they are then taken minus ``low``, in
    integer arithmetic, before they become floats. The ICCs and the CCC are those
    of the ratings minus any one constant, so nothing they report changes, and the differences
    stay exact while the span is below 2**53 (as :func:`wkappa.icc` centres such integers).
    None otherwise (or for a span past 2**63, which int64 would not hold)."""
    if not past_float(low, high) or high - low >= 2**63:
        return None
    return low


def numeric_matrix(data: NumericFrame) -> tuple[np.ndarray, list[str]]:
    """The ratings as a targets x raters float64 matrix (NaN: missing) and the raters' names
    (the long layout's raters in :func:`rater_key` order; a target rated twice by one rater
    is an error)."""
    nw = import_optional("narwhals", "frames")
    if data.raters is not None:
        eager = collected(data.frame.select(data.raters))
        shift = _integer_shift([eager.get_column(name) for name in data.raters])
        columns = [
            np.asarray(
                (eager.get_column(name) - shift if shift else eager.get_column(name))
                .cast(nw.Float64)
                .fill_null(np.nan)
                .to_numpy(),
                dtype=np.float64,
            )
            for name in data.raters
        ]
        return np.column_stack(columns) if columns else np.empty((0, 0)), list(data.raters)
    pl = import_optional("polars", "frames")
    assert data.long is not None
    target, rater, rating = data.long
    local = data.triples
    if local is None:
        local = as_polars(collected(data.frame.select([target, rater, rating])))
    check_padded_items(local, target)
    every = rater_ids(local, rater)  # a rater without any rating is kept, as in the wide layout
    # and so is a target without any rating (a row of NaN, as in the wide layout; a row
    # without a target id or a rating rates nothing)
    named = pl.col(target).is_not_null()
    if local.schema[target].is_float():
        named = named & pl.col(target).is_not_nan()
    targets = local.filter(named).select(target).unique()
    shift = _integer_shift([local.get_column(rating)])
    local = local.with_columns(
        (pl.col(rating) - shift if shift else pl.col(rating)).cast(pl.Float64),
        pl.col(rater).cast(pl.String),
    )
    local = local.filter(pl.col(rating).is_not_null() & pl.col(rating).is_not_nan())
    check_one_rating_each(local, target, rater)
    wide = local.pivot(on=rater, index=target, values=rating)
    wide = targets.join(wide, on=target, how="left").sort(target)
    wide = add_raters(wide, every, pl.Float64)
    names = sorted((c for c in wide.columns if c != target), key=rater_key)
    matrix = wide.select(names).to_numpy().astype(np.float64)
    return matrix, names


def _integer_shift(columns: list[Any]) -> int:
    """What to subtract from the eager rating ``columns`` (narwhals or polars Series)
    before they become floats: their smallest rating when they are integers past 2**53
    (:func:`_past_float`), else 0."""
    if not columns or not all(column.dtype.is_integer() for column in columns):
        return 0
    ends = [end for column in columns for end in (column.min(), column.max()) if end is not None]
    shift = _past_float(int(min(ends)), int(max(ends))) if ends else None
    return 0 if shift is None else shift


def icc_input(data: NumericFrame) -> RaterMoments | tuple[np.ndarray, list[str]]:
    """The engine's moments of complete wide ratings on a lazy engine (at least two targets
    and raters), else the targets x raters matrix and the raters' names."""
    if data.lazy and data.raters is not None and len(data.raters) >= 2:
        moments = rater_moments(data)
        if moments is not None and moments.beyond_float is not None:
            data = data._replace(integer_shift=moments.beyond_float)
            moments = rater_moments(data)
        if moments is not None and moments.n >= 2:
            sums = sums_from_means(
                moments.n, moments.column_means, moments.row_m2, moments.error_m2
            )
            if trusted_sums(sums)[0]:
                return _raters_first(data, moments)
            # Far from zero (or beyond the float range): the moments of centred and scaled
            # ratings, as wkappa.icc takes the sums (wkappa._core.scaled_ratings).
            unit = unit_for(max(abs(moments.low), abs(moments.high)))
            scaled = None
            if unit >= 2.0**-1000:  # (1 / unit a finite power of two)
                options = {"shift": moments.low, "factor": 1.0 / unit}
                scaled = rater_moments(data, **options)  # type: ignore[arg-type]
                if scaled is not None:
                    scaled = _raters_first(data, scaled, **options)
            return moments if scaled is None else scaled._replace(unit=unit)
    return numeric_matrix(data)


def _raters_first(data: NumericFrame, moments: RaterMoments, **options: float) -> RaterMoments:
    """``moments``, or where the raters' effects spread farther than the targets' the
    moments of a second aggregation with the raters' means removed first."""
    spread_raters = float((moments.rater_effects**2).mean())
    if not spread_raters > moments.row_m2 / moments.n:
        return moments
    again = rater_moments(data, centres=moments.column_means, **options)  # type: ignore[arg-type]
    return moments if again is None else again
