"""Several raters: read an items x raters matrix (any form) as a numeric array or one
:class:`~wkappa._core.columns.Column` per rater.

numpy arrays and lists of rows, masked arrays (a masked entry is a missing rating), pandas,
polars and pyarrow frames (categoricals and Enums keep their categories and order); a polars
LazyFrame and a frame in the long layout (item, rater and rating columns) are refused. Inputs
read apart (two groups of raters, a panel and its candidate) are put side by side by
:func:`stack_raters`.

Messages name a rater by one rule (:func:`rater_names`): by its column when the input has
column names (``column 'alice'``), else by its 0-based position (``rater 0``, as numpy
indexes the columns and as ``item 0`` is the first row). The names travel with the columns
(:class:`RaterColumns`) through every stage that may refuse a rating. A refused rating is
placed by its item and rater (``at item 2, column 'b'``), or, in rows wkappa built from the
user's (distinct rows counted in an engine, a pivoted long layout: :class:`RaterFrame`),
where an item's position means nothing to the user, by its rater alone (``in column 'b'``,
``from rater 'b'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import WkappaError, WkappaTypeError
from .columns import Column, beyond_int64_error, first_beyond_int64, object_column, to_column
from .dependencies import frame_columns as columns_of_frame
from .dependencies import series_library
from .input_checks import refuse_iterator, unsupported_dtype_error
from .options import format_value, warn_at_caller

__all__ = [
    "RaterColumns",
    "RaterFrame",
    "frame_columns",
    "known_raters",
    "one_rater",
    "rater_names",
    "rating_place",
    "read_rater_matrix",
    "refuse_long_layout",
    "rows_array",
    "stack_raters",
    "value_categories",
]

_LAZY_HINT = (
    "use wkappa.frames.agreement(df, raters=[...]), which counts the rows in the engine, or "
    "pass df.collect()."
)


# Column names of the long layout (one row per rating): a frame with one of each is not
# one column per rater, even when every column happens to be numeric.
_LONG_NAMES = (
    ("item", "items", "item_id", "subject", "subject_id", "unit", "unit_id"),
    ("rater", "rater_id", "coder", "coder_id", "annotator", "annotator_id", "judge", "reader"),
    ("rating", "ratings", "score", "label", "grade", "category", "code"),
)


def refuse_long_layout(
    names: Sequence[str], function: str | None = "agreement", name: str = "ratings"
) -> None:
    """Refuse a frame in the long layout (item, rater and rating columns) where one column
    per rater is expected, pointing to ``wkappa.frames.<function>``, which reads it, or,
    without ``function``, to a pivot. ``name`` is the parameter."""
    also = "candidate=..., " if function == "rater_vs_panel" else ""
    lowered = {str(name).lower(): str(name) for name in names}
    found = [next((lowered[n] for n in group if n in lowered), None) for group in _LONG_NAMES]
    if None in found:
        return
    item, rater, rating = found
    hint = (
        f"df.pivot(index={item!r}, columns={rater!r}, values={rating!r}) makes one column "
        "per rater."
        if function is None
        else f"wkappa.frames.{function}(df, {also}item={item!r}, rater={rater!r}, "
        f"rating={rating!r}) reads the long layout."
    )
    raise WkappaError(
        f"`{name}` looks like the long layout (one row per rating: columns {item!r}, "
        f"{rater!r}, {rating!r}); here every column is one rater and every row one item. "
        f"Hint: {hint}"
    )


@dataclass(frozen=True)
class RaterFrame:
    """A data frame whose every column is known to be a rater (named by the user, or pivoted
    from the long layout, by ``wkappa.frames`` and the command line): read as any frame of
    rater columns, but never refused as the long layout, a guess from the column names.
    Its rows are wkappa's (distinct rows, pivoted items): a refused rating is placed by its
    rater alone, ``in column 'b'``, or with ``long`` (the columns are the long layout's
    rater ids) ``from rater 'b'``. ``parameter``: the caller's parameter the rows come from
    (``df`` of ``wkappa.frames``), named in the encoder's messages instead of ``ratings``."""

    frame: Any
    long: bool = False
    parameter: str | None = None


def known_raters(frame: Any, long: bool = False, parameter: str | None = None) -> Any:
    """``frame`` as a :class:`RaterFrame`, for the entry points (``wkappa.agreement``,
    ``rater_vs_panel``), whose ``ratings`` is typed as the array-likes users pass; ``long``:
    its columns are the long layout's rater ids; ``parameter``: the caller's parameter."""
    return RaterFrame(frame, long, parameter)


def frame_columns(
    ratings: Any, name: str = "ratings", function: str | None = "agreement"
) -> list[tuple[str, Any]] | None:
    """The rater columns of an in-memory frame (pandas, polars, pyarrow; or a
    :class:`RaterFrame`), or None for other inputs:
    :func:`wkappa._core.dependencies.frame_columns` with the several-raters hint for a
    LazyFrame, and a long-layout frame refused (``function``: the ``wkappa.frames`` function
    that reads it, None for none)."""
    hint = _LAZY_HINT if function == "agreement" else "pass df.collect()."
    if isinstance(ratings, RaterFrame):
        return columns_of_frame(ratings.frame, name, hint)
    frame = columns_of_frame(ratings, name, hint)
    if frame is not None:
        refuse_long_layout([column for column, _ in frame], function, name=name)
    return frame


def rater_names(columns: Sequence[Any] | None, n_raters: int) -> tuple[str, ...]:
    """How messages name each of ``n_raters`` raters, the one rule: ``column 'alice'`` by
    the input's column names (a data frame's), else ``rater 0``, ``rater 1``, ... by 0-based
    position (the column index of an array, as ``item 0`` is its first row)."""
    if columns is None:
        return tuple(f"rater {g}" for g in range(n_raters))
    return tuple(f"column {column!r}" for column in columns)


@dataclass(frozen=True)
class RaterColumns:
    """One :class:`Column` per rater with the name messages give each rater
    (:func:`rater_names`): an input read column by column, or inputs read apart (two groups
    of raters, a panel and its candidate) side by side. ``places`` (None: at an item of the
    rater, :func:`rating_place`) say where a refused rating of each rater is when the rows
    are not the user's (``in column 'b'``)."""

    columns: tuple[Column, ...]
    names: tuple[str, ...]
    places: tuple[str, ...] | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """(items, raters), as an array's."""
        return (len(self.columns[0].values) if self.columns else 0), len(self.columns)


def rating_place(read: RaterColumns | None, rater: int, item: int) -> str:
    """Where the rating of ``item`` (0-based row) by ``rater`` (0-based column) is, in a
    message: ``at item 2, column 'b'`` (``rater 2`` for an array, ``read`` None), or the
    rater's place alone when the rows are not the user's (:class:`RaterColumns`)."""
    if read is not None and read.places is not None:
        return read.places[rater]
    name = read.names[rater] if read is not None else f"rater {rater}"
    return f"at item {item}, {name}"


def _rater_column(values: Any, name: str, label: str, where: str, read: Any = None) -> Column:
    """One rater's ``values`` read as a :class:`Column` (``read``: the reader, by default
    :func:`to_column`; ``label``: the name its own messages give it); integers beyond int64
    are placed by their item and rater (``where``, ``{}`` for the item) in ``name``."""
    try:
        return (read or to_column)(values, label)
    except WkappaError:
        item = first_beyond_int64(values)
        if item is None:
            raise
        raise beyond_int64_error(name, where.format(item)) from None


# An id column is told from a rater only past this many ratings (a rater of a few items
# with a text rating each would otherwise look like one).
_ID_MINIMUM = 10


# The rows that screen a column first: a column of ratings repeats a value within them.
_HEAD = 1000


def _present(column: Column, stop: int | None = None) -> np.ndarray | None:
    """A text column's present ratings (not categorical, not numeric) among its first
    ``stop`` rows (all: None), else None."""
    if column.categories is not None or column.values.dtype.kind not in "OUS":
        return None
    values = column.values[:stop]
    return values if column.missing is None else values[~column.missing[:stop]]


def _all_text(values: np.ndarray) -> bool:
    return all(isinstance(value, str) for value in values.tolist())


def _warn_id_column(columns: Sequence[Column], names: Sequence[str], name: str) -> None:
    """Warn when a frame given whole holds an id column: text whose every value is
    different and used by no other rater (``item`` beside the raters' 'low', 'high'). As a
    rater it agrees with no one and adds one category per item, so every coefficient is
    wrong; a rater's text ratings repeat within a column and across raters. The first
    thousand rows settle it for a column of ratings (they repeat), so only a column of
    distinct values is read whole."""
    if len(columns) < 3:  # an id column beside a single rater is refused as one rater
        return
    for g, column in enumerate(columns):
        head = _present(column, _HEAD)
        if head is None or len(set(head.tolist())) < len(head) or not _all_text(head):
            continue
        values = _present(column)
        if values is None or len(values) < _ID_MINIMUM:
            continue
        distinct = set(values.tolist())
        if len(distinct) < len(values) or not _all_text(values):
            continue
        present = [_present(other) for h, other in enumerate(columns) if h != g]
        others = [set(v.tolist()) for v in present if v is not None]
        if any(others) and not any(other & distinct for other in others):
            warn_at_caller(
                f"`{name}` {names[g]} looks like item ids, not ratings: its {len(values)} "
                "values are all different and no other rater uses any of them, so it counts "
                "as a rater who agrees with no one, with a category of its own per item. "
                "Hint: pass only the rater columns (df[['a', 'b', ...]]), or name them with "
                "wkappa.frames.agreement(df, raters=[...]).",
                UserWarning,
            )


def rows_array(ratings: Any, name: str) -> np.ndarray:
    """An items x raters input that is not a frame (an array, a list of rows) as a numpy
    array; a string, mapping, set, None or scalar, and rows of different lengths, are
    refused."""
    expected = (
        f"`{name}` must be a 2-D array (items x raters), a list of rows or a DataFrame of "
        "rating columns; got"
    )
    if isinstance(ratings, (str, bytes, dict, set, frozenset)) or ratings is None:
        raise WkappaTypeError(f"{expected} {type(ratings).__name__}.")
    refuse_iterator(ratings, name)
    try:
        array = np.asarray(ratings)
    except ValueError:
        raise WkappaError(
            f"`{name}` could not be read as an array: its rows have different lengths. "
            "Hint: mark a missing rating with None or NaN so that every row has one entry "
            "per rater."
        ) from None
    if array.ndim == 0:
        raise WkappaTypeError(f"{expected} the scalar {format_value(ratings)}.")
    return array


def one_rater(values: Any, name: str) -> RaterColumns:
    """One rater's ratings given apart (``rater_vs_panel``'s candidate) as
    :class:`RaterColumns`, named as a frame's column when it is a named pandas or polars
    Series (``column 'judge'``), else by the parameter ``name``."""
    series = series_library(values) in ("pandas", "polars")
    label = getattr(values, "name", None) if series else None
    named = label is not None and label != ""
    names = rater_names([label], 1) if named else (f"`{name}`",)
    column = _rater_column(values, name, name, "at item {}" + (f", {names[0]}" if named else ""))
    return RaterColumns((column,), names)


def _by_position(columns: list[Column]) -> RaterColumns:
    return RaterColumns(tuple(columns), rater_names(None, len(columns)))


def read_rater_matrix(
    ratings: Any, name: str = "ratings", function: str | None = "agreement"
) -> np.ndarray | RaterColumns:
    """An items x raters input (frames, categoricals and Enums with their categories, masked
    arrays, lists of rows) as a numeric (n, R) array, or one :class:`Column` per rater with
    the raters' names (:func:`rater_names`). ``name`` is the parameter, ``function`` the
    ``wkappa.frames`` function that reads a long-layout frame (None: a pivot is suggested)."""
    if isinstance(ratings, RaterColumns):
        return ratings
    frame = frame_columns(ratings, name, function)
    if frame is not None:
        names = rater_names([c for c, _ in frame], len(frame))
        places = None
        if isinstance(ratings, RaterFrame):
            places = tuple(
                f"from rater {c!r}" if ratings.long else f"in {n}"
                for (c, _), n in zip(frame, names, strict=True)
            )
        columns = [
            _rater_column(
                values,
                name,
                f"{name}[{column!r}]",
                places[g] if places else f"at item {{}}, {names[g]}",
            )
            for g, (column, values) in enumerate(frame)
        ]
        lengths = {len(column.values) for column in columns}
        if len(lengths) > 1:  # pragma: no cover - a frame's columns have one length
            raise WkappaError(f"`{name}` columns have different lengths.")
        if places is None:  # the user's own frame: all its columns were taken as raters
            _warn_id_column(columns, names, name)
        return RaterColumns(tuple(columns), names, places)
    if isinstance(ratings, np.ma.MaskedArray):
        _check_two_dimensional(name, ratings.shape)
        # Masked entries are missing ratings, as for two raters.
        return _by_position(
            [
                _rater_column(ratings[:, g], name, f"{name}[:, {g}]", f"at item {{}}, rater {g}")
                for g in range(ratings.shape[1])
            ]
        )
    array = rows_array(ratings, name)
    _check_two_dimensional(name, array.shape)
    if array.dtype.kind in "biuf":
        return array
    if array.dtype.kind in "US":
        mixed = isinstance(ratings, list) and any(
            not isinstance(value, str) for row in ratings for value in row
        )
        if mixed:
            array = np.asarray(ratings, dtype=object)
    if array.dtype.kind == "O":
        where = "at item {}, rater "
        return _by_position(
            [
                _rater_column(
                    array[:, g], name, f"{name}[:, {g}]", where + str(g), read=object_column
                )
                for g in range(array.shape[1])
            ]
        )
    if array.dtype.kind in "US":
        return _by_position([Column(array[:, g], None) for g in range(array.shape[1])])
    raise unsupported_dtype_error(name, array.dtype)


def _check_two_dimensional(name: str, shape: tuple[int, ...]) -> None:
    if len(shape) != 2:
        raise WkappaError(
            f"`{name}` must be 2-D (rows are items, columns raters); got shape {shape}. "
            "Hint: for two raters' separate arrays use wkappa.weighted_kappa, or stack them "
            "with np.column_stack."
        )


def stack_raters(
    parts: Sequence[np.ndarray | RaterColumns], groups: Sequence[str] | None = None
) -> np.ndarray | RaterColumns:
    """Inputs read by :func:`read_rater_matrix` (or one rater as :class:`RaterColumns`)
    side by side, for :func:`encode_rating_matrix`: one numeric array when every part is
    one, else the columns of all of them, each rater named as in its part, followed by its
    part's parameter when ``groups`` gives them (``column 'a' of `ratings_b```)."""
    arrays = [part for part in parts if isinstance(part, np.ndarray)]
    if len(arrays) == len(parts):
        return np.column_stack(arrays)
    columns: list[Column] = []
    names: list[str] = []
    places: list[str] | None = [] if any(
        isinstance(part, RaterColumns) and part.places for part in parts
    ) else None  # fmt: skip
    for g, part in enumerate(parts):
        if isinstance(part, np.ndarray):
            part = _by_position(
                [to_column(part[:, r], f"ratings[:, {r}]") for r in range(part.shape[1])]
            )
        columns += part.columns
        named = part.names if groups is None else [f"{n} of `{groups[g]}`" for n in part.names]
        names += named
        if places is not None:
            places += part.places or [f"in {n}" for n in named]
    return RaterColumns(tuple(columns), tuple(names), None if places is None else tuple(places))


def value_categories(read: np.ndarray | RaterColumns) -> np.ndarray | None:
    """The sorted distinct values of numeric ratings (``read`` by :func:`read_rater_matrix`)
    when some are not whole numbers, as the categories of a metric on the values (interval
    and ratio alpha); None when they are whole numbers (the integer range), not all numbers
    and finite, or integers beyond 2**53 (not exact as floats) come with them."""
    if isinstance(read, np.ndarray):
        if read.dtype.kind != "f":
            return None  # whole numbers, or not numbers
        parts = [read[~np.isnan(read)]]
    else:
        parts = []
        for column in read.columns:
            if column.categories is not None:
                return None
            values = column.values if column.missing is None else column.values[~column.missing]
            parts.append(values)
    if not all(part.dtype.kind in "iuf" for part in parts):
        return None
    floats = [part for part in parts if part.dtype.kind == "f"]
    if not any(((part != np.rint(part)) & np.isfinite(part)).any() for part in floats):
        return None
    if not all(np.isfinite(part).all() for part in floats) or any(
        part.size and np.abs(part).max() > 2**53 for part in parts if part.dtype.kind in "iu"
    ):
        return None
    return np.unique(np.concatenate([part.astype(np.float64).ravel() for part in parts]))
