"""Several raters: read an items x raters matrix (any form) as a numeric array or one
:class:`~wkappa._core.columns.Column` per rater.

numpy arrays and lists of rows, masked arrays (a masked entry is a missing rating), pandas,
polars and pyarrow frames (categoricals and Enums keep their categories and order); a polars
LazyFrame and a frame in the long layout (item, rater and rating columns) are refused. Inputs
read apart (two groups of raters, a panel and its candidate) are put side by side by
:func:`stack_raters`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import WkappaError, WkappaTypeError
from .columns import Column, object_column, to_column
from .dependencies import frame_columns as columns_of_frame

__all__ = [
    "RaterColumns",
    "frame_columns",
    "read_rater_matrix",
    "refuse_long_layout",
    "rows_array",
    "stack_raters",
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


def frame_columns(
    ratings: Any, name: str = "ratings", function: str | None = "agreement"
) -> list[tuple[str, Any]] | None:
    """The rater columns of an in-memory frame (pandas, polars, pyarrow), or None for other
    inputs: :func:`wkappa._core.dependencies.frame_columns` with the several-raters hint for
    a LazyFrame, and a long-layout frame refused (``function``: the ``wkappa.frames``
    function that reads it, None for none)."""
    hint = _LAZY_HINT if function == "agreement" else "pass df.collect()."
    frame = columns_of_frame(ratings, name, hint)
    if frame is not None:
        refuse_long_layout([column for column, _ in frame], function, name=name)
    return frame


@dataclass(frozen=True)
class RaterColumns:
    """Rater columns read from more than one input (two groups of raters, a panel and its
    candidate), side by side: :func:`encode_rating_matrix` takes them as they are."""

    columns: tuple[Column, ...]


def rows_array(ratings: Any, name: str) -> np.ndarray:
    """An items x raters input that is not a frame (an array, a list of rows) as a numpy
    array; a string, mapping, set or None, and rows of different lengths, are refused."""
    if isinstance(ratings, (str, bytes, dict, set, frozenset)) or ratings is None:
        raise WkappaTypeError(
            f"`{name}` must be a 2-D array (items x raters), a list of rows or a DataFrame of "
            f"rating columns; got {type(ratings).__name__}."
        )
    try:
        return np.asarray(ratings)
    except ValueError:
        raise WkappaError(
            f"`{name}` could not be read as an array: its rows have different lengths. "
            "Hint: mark a missing rating with None or NaN so that every row has one entry "
            "per rater."
        ) from None


def read_rater_matrix(
    ratings: Any, name: str = "ratings", function: str | None = "agreement"
) -> np.ndarray | list[Column]:
    """An items x raters input (frames, categoricals and Enums with their categories, masked
    arrays, lists of rows) as a numeric (n, R) array, or one :class:`Column` per rater.
    ``name`` is the parameter, ``function`` the ``wkappa.frames`` function that reads a
    long-layout frame (None: a pivot is suggested)."""
    if isinstance(ratings, RaterColumns):
        return list(ratings.columns)
    frame = frame_columns(ratings, name, function)
    if frame is not None:
        columns = [to_column(values, f"{name}[{column!r}]") for column, values in frame]
        lengths = {len(column.values) for column in columns}
        if len(lengths) > 1:  # pragma: no cover - a frame's columns have one length
            raise WkappaError(f"`{name}` columns have different lengths.")
        return columns
    if isinstance(ratings, np.ma.MaskedArray):
        if ratings.ndim != 2:
            raise WkappaError(
                f"`{name}` must be 2-D (rows are items, columns raters); got shape {ratings.shape}."
            )
        # Masked entries are missing ratings, as for two raters.
        return [to_column(ratings[:, g], f"{name}[:, {g}]") for g in range(ratings.shape[1])]
    array = rows_array(ratings, name)
    if array.ndim != 2:
        raise WkappaError(
            f"`{name}` must be 2-D (rows are items, columns raters); got shape {array.shape}. "
            "Hint: for two raters' separate arrays use wkappa.weighted_kappa, or stack them "
            "with np.column_stack."
        )
    if array.dtype.kind in "biuf":
        return array
    if array.dtype.kind in "US":
        mixed = isinstance(ratings, list) and any(
            not isinstance(value, str) for row in ratings for value in row
        )
        if mixed:
            array = np.asarray(ratings, dtype=object)
    if array.dtype.kind == "O":
        return [object_column(array[:, g], f"{name}[:, {g}]") for g in range(array.shape[1])]
    if array.dtype.kind in "US":
        return [Column(array[:, g], None) for g in range(array.shape[1])]
    raise WkappaTypeError(f"`{name}` has an unsupported dtype {array.dtype}.")


def stack_raters(parts: Sequence[np.ndarray | list[Column]]) -> np.ndarray | RaterColumns:
    """Inputs read by :func:`read_rater_matrix` (or one rater's :class:`Column` in a list)
    side by side, for :func:`encode_rating_matrix`: one numeric array when every part is
    one, else the columns of all of them."""
    arrays = [part for part in parts if isinstance(part, np.ndarray)]
    if len(arrays) == len(parts):
        return np.column_stack(arrays)
    columns: list[Column] = []
    for part in parts:
        if isinstance(part, np.ndarray):
            columns += [to_column(part[:, g], f"ratings[:, {g}]") for g in range(part.shape[1])]
        else:
            columns += part
    return RaterColumns(tuple(columns))
