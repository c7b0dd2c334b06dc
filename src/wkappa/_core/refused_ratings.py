"""Where a refused rating of several raters is: found only once the encoder refused one.

The encoder (:func:`~wkappa._core.raters.encode_rating_matrix`) checks every rating at once;
when it refuses one (not among ``labels``, not a whole number, too large, beyond int64,
outside ``min_rating``/``max_rating``), :func:`refuse_first` finds the first rating that
fails alone and raises its refusal with its place (``at item 2, column 'b'``,
:func:`~wkappa._core.rater_matrix.rating_place`). Accepted ratings cost nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..exceptions import WkappaError
from .columns import Column, object_column
from .encode import (
    check_labels,
    check_rating_bounds,
    encode_with_labels,
    integral_ratings,
    values_of,
)
from .input_checks import check_observed_range
from .rater_matrix import RaterColumns, rating_place

__all__ = [
    "array_parts",
    "check_one_rating",
    "check_rater_apart",
    "check_ratings",
    "column_parts",
    "refuse_first",
]


def check_ratings(
    column: Column,
    labels: np.ndarray | None,
    lo: int | None,
    hi: int | None,
    name: str,
    where: str = "",
) -> None:
    """Refuse a rating of one rater's ``column`` (its present ratings) as the encoder does:
    one not among ``labels``, or, without labels, one not a whole number, too large, or
    outside ``lo``..``hi``; ``where`` says where it is."""
    if labels is not None:
        encode_with_labels(column, labels, name, where)
        return
    values = integral_ratings(values_of(column), name, where)
    if values.size:
        check_observed_range([(name, int(values.min()), int(values.max()))], lo, hi, where)


def refuse_first(
    parts: Sequence[tuple[Column, Callable[[int], str]]],
    labels: np.ndarray | None,
    lo: int | None,
    hi: int | None,
    name: str,
) -> None:
    """Raise the refusal of the first rating that fails alone, placed where it is; return
    when none fails alone. ``parts`` are ratings in the order they are searched (an array's
    in row order; a frame's rater by rater), each a :class:`Column` of present ratings with
    where its k-th rating is. Only once the encoder refused: the first failing rating is
    found by bisection, the ratings of a prefix failing exactly when one of them does."""
    for column, place in parts:

        def part(stop: int, start: int = 0, column: Column = column) -> Column:
            return Column(column.values[start:stop], None, column.categories, column.ordered)

        def fails(stop: int) -> bool:
            try:
                check_ratings(part(stop), labels, lo, hi, name)
            except WkappaError:
                return True
            return False

        size = len(column.values)
        if not size or not fails(size):
            continue
        passing, failing = 0, size
        while failing - passing > 1:
            middle = (passing + failing) // 2
            passing, failing = (passing, middle) if fails(middle) else (middle, failing)
        check_ratings(part(failing, failing - 1), labels, lo, hi, name, place(failing - 1))


def array_parts(
    array: np.ndarray, missing: np.ndarray | None
) -> list[tuple[Column, Callable[[int], str]]]:
    """An array's present ratings in row order, the k-th placed by its item and rater."""
    cells = np.flatnonzero(~missing.ravel()) if missing is not None else None
    values = array.ravel() if cells is None else array.ravel()[cells]

    def place(k: int) -> str:
        item, rater = divmod(k if cells is None else int(cells[k]), array.shape[1])
        return rating_place(None, rater, item)

    return [(Column(values, None), place)]


def column_parts(
    columns: Sequence[Column], read: RaterColumns
) -> list[tuple[Column, Callable[[int], str]]]:
    """Each rater's present ratings, the k-th placed by its item and rater."""
    parts: list[tuple[Column, Callable[[int], str]]] = []
    for g, column in enumerate(columns):
        items = (
            np.arange(len(column.values))
            if column.missing is None
            else np.flatnonzero(~column.missing)
        )
        present = Column(column.values[items], None, column.categories, column.ordered)

        def place(k: int, g: int = g, items: np.ndarray = items) -> str:
            return rating_place(read, g, int(items[k]))

        parts.append((present, place))
    return parts


def check_one_rating(
    value: Any, labels: Any, min_rating: Any, max_rating: Any, name: str = "ratings"
) -> None:
    """Refuse one rating as :func:`encode_rating_matrix` refuses it in a matrix of several
    raters (not among ``labels``, not a whole number, outside the bounds), without saying
    where it is: the caller does (the command line names its file row and column)."""
    lo, hi = check_rating_bounds(min_rating, max_rating, labels)
    label_array = None if labels is None else check_labels(labels)
    column = object_column(np.array([value], dtype=object), name)
    numeric = column.values.dtype.kind in "biuf"
    if column.missing is None and (label_array is not None or numeric):
        check_ratings(column, label_array, lo, hi, name)


def check_rater_apart(
    column: Column,
    labels: np.ndarray | None,
    lo: int | None,
    hi: int | None,
    name: str,
    where: str,
) -> None:
    """Refuse a rating of one rater given apart from the matrix (``rater_vs_panel``'s
    ``candidate``) as the matrix's encoder would, named by the parameter ``name`` and placed
    by ``where``, whose ``{}`` stands for the item (``at item {}``; no ``{}`` when the rows
    are not the user's). Text ratings without ``labels`` take their categories from the
    whole matrix: left to its encoder."""
    items = (
        np.arange(len(column.values)) if column.missing is None else np.flatnonzero(~column.missing)
    )
    present = Column(column.values[items], None, column.categories, column.ordered)
    numeric = present.categories is None and present.values.dtype.kind in "biuf"
    if labels is None and not numeric:
        return

    def place(k: int) -> str:
        return where.format(int(items[k]))

    try:
        check_ratings(present, labels, lo, hi, name)
    except WkappaError:
        refuse_first([(present, place)], labels, lo, hi, name)
        raise
