"""Several raters with named categories: dense codes, then the compiled pass.

:func:`~wkappa._core.raters.fast_rows` counts a numeric matrix whose categories are the
integers of a range. The other documented ways of naming the categories reach the same
numba pass through dense codes ``0..K-1`` computed once, vectorised:

* ``labels`` of integers (any order, gaps allowed, when their span is at most about twice K):
  the pass runs on the labels' span and the few distinct rows it returns are renumbered
  to positions in ``labels``;
* other numeric ``labels`` (fractions, wide gaps): a compiled binary search among the
  sorted labels (:func:`~wkappa._core.kernels.numba_raters.label_positions`); string
  ``labels`` of a numpy string matrix: ``np.searchsorted`` on the sorted labels;
* categorical columns (pandas ``Categorical``, polars ``Enum``, Arrow dictionary) and,
  with ``labels``, string columns of pandas, polars or pyarrow: the library's own category
  codes, mapped to positions in ``labels`` (or in the shared ordered categories) by a
  lookup of K entries.

The codes go to the pass as a float64 matrix (NaN = missing). The categories, rows and
multiplicities are the general route's, so every value is unchanged. Anything these paths
do not cover, and any error (a rating not in ``labels`` included), returns None: the
general route (:func:`~wkappa._core.raters.encode_rating_matrix`) then reads the ratings
and raises its own message.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..exceptions import WkappaError
from .arrow_dictionaries import combined_dictionary
from .columns import Column
from .encode import check_labels, encode_with_labels, shared_categories
from .options import NanPolicy
from .rater_matrix import frame_columns
from .raters import FAST_MIN_CELLS, CountedRows, fast_rows, frame_array

__all__ = ["coded_rows"]

# Integer labels whose span (highest - lowest + 1) is at most this factor times K (plus a
# few) are counted on the span directly; wider ones through their codes.
_SPAN_FACTOR = 2
_SPAN_SLACK = 8
# Numbers at most this large compare exactly as float64.
_EXACT_FLOAT = 2**53


def coded_rows(
    ratings: Any, labels: Any, ordered: bool, nan_policy: NanPolicy
) -> CountedRows | None:
    """The distinct rows of category codes of ``ratings`` by the compiled pass, when the
    categories are named (``labels``, or ordered categorical columns without ``labels``);
    None when this path does not apply or on any error (the general route decides)."""
    try:
        label_array = None if labels is None else check_labels(labels)
        if label_array is not None and label_array.dtype.kind == "O":
            return None
        frame = frame_columns(ratings)
        if frame is not None:
            shape = (len(frame[0][1]) if frame else 0, len(frame))
            if shape[0] * shape[1] < FAST_MIN_CELLS:
                return None
            numeric = frame_array(ratings)
            if numeric is not None:
                return None if label_array is None else _numeric(numeric, label_array, nan_policy)
            return _categorical(frame, label_array, ordered, nan_policy)
        if label_array is None or not isinstance(ratings, np.ndarray):
            return None
        if isinstance(ratings, np.ma.MaskedArray) or ratings.ndim != 2:
            return None
        if ratings.size < FAST_MIN_CELLS or ratings.shape[1] < 2:
            return None
        if ratings.dtype.kind in "iuf":
            return _numeric(ratings, label_array, nan_policy)
        if ratings.dtype.kind == "U" and label_array.dtype.kind == "U":
            return _counted(_searched(ratings, label_array), label_array, nan_policy)
    except WkappaError:
        return None
    return None


def _numeric(array: np.ndarray, label_array: np.ndarray, policy: NanPolicy) -> CountedRows | None:
    if label_array.dtype.kind not in "iuf" or array.dtype == np.uint64:
        return None
    if label_array.dtype.kind == "u" and int(label_array.max()) >= 2**63:
        return None
    if np.abs(label_array).max() >= _EXACT_FLOAT:
        return None
    whole = label_array.dtype.kind in "iu" or bool((label_array == np.floor(label_array)).all())
    k = len(label_array)
    if whole:
        ints = label_array.astype(np.int64)
        first, last = int(ints.min()), int(ints.max())
        if last - first + 1 <= _SPAN_FACTOR * k + _SPAN_SLACK:
            return _renumbered(array, ints, first, last, label_array, policy)
    return _counted(_positions_of_numbers(array, label_array), label_array, policy)


def _positions_of_numbers(array: np.ndarray, label_array: np.ndarray) -> np.ndarray | None:
    """Position of each rating in numeric ``labels`` as float64 (NaN = missing), F-ordered;
    None when a rating is not a label."""
    from .kernels import numba_raters

    order = np.argsort(label_array, kind="stable")
    ordered_labels = label_array[order].astype(np.float64)
    codes = np.empty(array.shape, dtype=np.float64, order="F")
    by_column = not array.flags.c_contiguous
    positions = order.astype(np.float64)
    bad = numba_raters.label_positions(array, ordered_labels, positions, codes, by_column)
    return None if bad >= 0 else codes


def _renumbered(
    array: np.ndarray,
    ints: np.ndarray,
    first: int,
    last: int,
    label_array: np.ndarray,
    policy: NanPolicy,
) -> CountedRows | None:
    """Count on the span ``first..last`` of integer labels, then renumber the distinct rows
    to positions in ``labels`` (a rating in the span that is not a label: None)."""
    fast = fast_rows(array, first, last, policy)
    if fast is None:
        return None
    table = np.full(last - first + 1, -1, dtype=np.int64)
    table[ints - first] = np.arange(len(ints))
    rows = fast.rows
    present = rows >= 0
    mapped = np.where(present, table[np.where(present, rows, 0)], -1)
    if (present & (mapped < 0)).any():
        return None
    return _in_code_order(mapped, fast, label_array)


def _in_code_order(rows: np.ndarray, fast: CountedRows, label_array: np.ndarray) -> CountedRows:
    """Renumbered rows in the general route's order (increasing codes, the last rater's code
    the most significant): every sum over them is then added in the same order."""
    order = np.lexsort(rows.T)
    labels = tuple(label_array.tolist())
    return CountedRows(rows[order], fast.multiplicity[order], labels, fast.n_ratings)


def _searched(array: np.ndarray, label_array: np.ndarray) -> np.ndarray | None:
    """Position of each string rating in string ``labels`` as float64, F-ordered; None when
    a rating is not a label."""
    order = np.argsort(label_array, kind="stable")
    ordered_labels = label_array[order]
    position = np.searchsorted(ordered_labels, array)
    position[position == len(label_array)] = 0
    if not (ordered_labels[position] == array).all():
        return None
    return np.asfortranarray(order.astype(np.float64)[position])


def _counted(
    codes: np.ndarray | None, label_array: np.ndarray, policy: NanPolicy
) -> CountedRows | None:
    """The compiled pass over float64 codes ``0..K-1`` (NaN = missing)."""
    if codes is None:
        return None
    fast = fast_rows(codes, 0, len(label_array) - 1, policy)
    if fast is None:
        return None
    return CountedRows(fast.rows, fast.multiplicity, tuple(label_array.tolist()), fast.n_ratings)


def _categorical(
    frame: list[tuple[str, Any]], label_array: np.ndarray | None, ordered: bool, policy: NanPolicy
) -> CountedRows | None:
    """Frame columns that are categorical (or strings, with ``labels``): counted on their own
    category codes, then the distinct rows renumbered rater by rater to positions in
    ``labels`` or in the columns' shared ordered categories."""
    read = [_library_codes(series, label_array) for _, series in frame]
    if any(r is None for r in read):
        return None
    columns = [r for r in read if r is not None]
    if label_array is None:
        shared = shared_categories(
            [Column(np.zeros(0, dtype=np.int64), None, cats, order) for _, cats, order in columns],
            ordered,
            "The rater columns",
        )
        if shared is None or any(cats is None for _, cats, _ in columns):
            return None
        label_array = np.asarray(shared)
    k = len(label_array)
    sizes = [k if cats is None else len(cats) for _, cats, _ in columns]
    matrix = np.empty((len(columns[0][0]), len(columns)), dtype=np.float64, order="F")
    for g, (codes, _, _) in enumerate(columns):
        # Codes as numbers, NaN where missing (-1 wraps to the last entry, as does sizes[g]).
        identity = np.append(np.arange(sizes[g], dtype=np.float64), np.nan)
        np.take(identity, codes, out=matrix[:, g], mode="wrap")
    fast = fast_rows(matrix, 0, max(sizes) - 1, policy)
    if fast is None:
        return None
    rows = fast.rows.copy()
    for g, (_, cats, order) in enumerate(columns):
        if cats is None:
            continue  # already positions in labels
        lookup = np.full(len(cats) + 1, -1, dtype=np.int64)  # the last entry: missing
        lookup[:-1] = _positions(cats, order, label_array)
        rows[:, g] = lookup[rows[:, g]]
        if (rows[:, g] >= k).any():
            return None  # a category that is not a label is rated
    return _in_code_order(rows, fast, label_array)


def _positions(categories: tuple[Any, ...], order: bool, label_array: np.ndarray) -> np.ndarray:
    """Position in ``labels`` of each category, as the general route finds it; K (outside the
    categories, so the pass stops and the general route names the rating) where a category
    is not a label."""
    k = len(label_array)
    try:
        every = Column(np.arange(len(categories)), None, categories, order)
        return encode_with_labels(every, label_array, "ratings")
    except WkappaError:
        found = np.full(len(categories), k, dtype=np.int64)
        for i in range(len(categories)):
            try:
                one = Column(np.array([i]), None, categories, order)
                found[i] = encode_with_labels(one, label_array, "ratings")[0]
            except WkappaError:
                continue
        return found


def _library_codes(
    series: Any, label_array: np.ndarray | None
) -> tuple[np.ndarray, tuple[Any, ...] | None, bool] | None:
    """``(codes, categories, ordered)`` of one frame column from its library: the category
    codes (-1, or the number of categories, where missing) of a categorical column or, with
    string ``labels``, of a string column (pandas: its own categories; polars and pyarrow:
    encoded on the labels, categories None: the codes are positions in ``labels``). None
    for any other column."""
    strings = label_array is not None and label_array.dtype.kind == "U"
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(series, pd.Series):
        dtype = series.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            return series.cat.codes.to_numpy(), tuple(dtype.categories), bool(dtype.ordered)
        if strings and (dtype.kind == "O" or isinstance(dtype, pd.StringDtype)):
            coded = pd.Categorical(series)  # its own categories, mapped to labels after
            return np.asarray(coded.codes), tuple(coded.categories), False
        return None
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(series, pl.Series):
        if strings and not isinstance(series.dtype, pl.Enum):
            if series.dtype not in (pl.String, pl.Categorical):
                return None
            assert label_array is not None
            try:
                series = series.cast(pl.Enum(label_array.tolist()))
            except pl.exceptions.PolarsError:
                return None
            return _enum_codes(series), None, True
        if isinstance(series.dtype, pl.Enum):
            return _enum_codes(series), tuple(series.dtype.categories.to_list()), True
        return None
    pa = sys.modules.get("pyarrow")
    if pa is not None and isinstance(series, (pa.ChunkedArray, pa.Array)):
        return _arrow_codes(pa, series, label_array if strings else None)
    return None


def _enum_codes(series: Any) -> np.ndarray:
    codes: np.ndarray = series.to_physical().fill_null(len(series.dtype.categories)).to_numpy()
    return codes


def _arrow_codes(
    pa: Any, array: Any, label_array: np.ndarray | None
) -> tuple[np.ndarray, tuple[Any, ...] | None, bool] | None:
    import pyarrow.compute as pc

    if pa.types.is_dictionary(array.type):
        array, ordered = combined_dictionary(array)
        codes = pc.fill_null(array.indices, len(array.dictionary)).to_numpy(zero_copy_only=False)
        return codes, tuple(array.dictionary.to_pylist()), ordered
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if label_array is None or not (
        pa.types.is_string(array.type) or pa.types.is_large_string(array.type)
    ):
        return None
    found = pc.index_in(array, value_set=pa.array(label_array.tolist(), type=array.type))
    if found.null_count != array.null_count:
        return None  # a value that is not a label
    codes = pc.fill_null(found, len(label_array)).to_numpy(zero_copy_only=False)
    return codes, None, True
