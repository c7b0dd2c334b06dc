"""The (G, K, K) tables of kappa_by_group for an in-memory frame, in one numba pass.

A multi-key group-by in pandas costs seconds on ten million rows. When the frame is eager and
the rating columns numeric, the group keys are turned into codes here instead (an integer key
with a small range by subtraction, any other pandas key by ``pd.factorize``), the ratings go
through the core's range pass (:func:`wkappa._core.fused.fast_ratings`) or, when something is
unusual (nulls, ``labels``, an ordered categorical), through the strict encoder, and
:mod:`wkappa._frames.grouped_kernels` counts every group's table in one pass.

Key codes are ranks of the sorted distinct key values (nulls last), so the group order and
the key values are those of :func:`wkappa._frames.groups.group_ids` on the engine's group-by.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import (
    FAST_MIN,
    GUESS_SAMPLE,
    HUGE,
    INT64_SAFE,
    MAX_TABLE_CELLS,
    NanPolicy,
    check_table_size,
    encode_ratings,
    fast_ratings,
    guess_range,
    guessed_categories,
    is_pandas_object,
    numpy_pair,
    numpy_view,
    parallel_section,
    read_sample_weight,
    to_column,
    use_parallel,
)
from .count import FrameInput, raise_missing_rows
from .groups import check_groups_table_size, key_value

__all__ = ["GroupTables", "in_memory_group_tables"]

# An integer key whose values span at most this many integers is coded by subtraction.
_KEY_RANGE = 1 << 20


@dataclass(frozen=True)
class GroupTables:
    """Per-group tables with their keys, in sorted key order (nulls last).

    Attributes
    ----------
    tables : ndarray of shape (G, K, K)
        int64 counts, or float64 weight sums with ``sample_weight``.
    key_rows : list of tuple
        The key values of each group.
    stale : ndarray of shape (G,), bool
        Groups with a missing rating under ``nan_policy='propagate'`` (their statistics are
        nan).
    labels : sequence or None
        The K categories in order, where the engine counted the tables (None: counted in
        this process).
    """

    tables: np.ndarray
    key_rows: list[tuple[Any, ...]]
    stale: np.ndarray
    labels: Sequence[Any] | None = None


def _one_key(column: Any) -> tuple[np.ndarray, int, list[Any]] | None:
    """Codes of one key column, as ``(array, offset)`` with code = ``array - offset``, and the
    sorted distinct values the codes rank.

    The values may include some that do not occur (a range of integers); None if only the
    engine's group-by can read the column.
    """
    view = numpy_view(column)
    if view is not None and view.dtype.kind in "iu" and view.dtype != np.uint64:
        from .grouped_kernels import key_range

        parallel = use_parallel(len(view))
        with parallel_section() if parallel else contextlib.nullcontext():
            lo, hi = key_range(view, parallel)
        if hi - lo < _KEY_RANGE:
            return view, lo, list(range(lo, hi + 1))
    if not is_pandas_object(column):
        return None
    pd = sys.modules["pandas"]
    codes, uniques = pd.factorize(column, use_na_sentinel=False)
    values = [key_value(value) for value in list(uniques)]
    distinct = sorted(set(values), key=lambda value: (value is None, value))
    rank = {value: i for i, value in enumerate(distinct)}
    recode = np.array([rank[value] for value in values], dtype=np.int64)
    return recode[codes], 0, distinct


def _key_codes(columns: list[Any]) -> tuple[np.ndarray, int, list[list[Any]]] | None:
    """Mixed-radix codes of the key combination of each row (first key most significant), as
    ``(array, offset)``: one integer key is used as it is, with its minimum as offset."""
    coded = []
    for column in columns:
        one = _one_key(column)
        if one is None:
            return None
        coded.append(one)
    space = 1
    for _, _, distinct in coded:
        space *= max(len(distinct), 1)
    if space >= INT64_SAFE:
        return None
    if len(coded) == 1:
        array, offset, distinct = coded[0]
        return array, offset, [distinct]
    combined = np.zeros(len(coded[0][0]), dtype=np.int64)
    for array, offset, distinct in coded:
        combined *= max(len(distinct), 1)
        combined += array
        combined -= offset
    return combined, 0, [distinct for _, _, distinct in coded]


def _key_rows(codes: np.ndarray, values: list[list[Any]]) -> list[tuple[Any, ...]]:
    digits = []
    rest = codes.copy()
    for distinct in reversed(values):
        size = max(len(distinct), 1)
        digits.append([distinct[d] for d in (rest % size).tolist()])
        rest //= size
    return list(zip(*reversed(digits), strict=True))


def _guessed_group_tables(
    key: Any, true: Any, pred: Any, min_rating: Any, max_rating: Any
) -> GroupTables | None:
    """One counting pass for an integer key and integer ratings, or None.

    The key range and the categories are guessed from the first rows (as
    :func:`wkappa._core.fused.guessed_categories` does for one table) and checked row by row in
    the counting pass, which saves the key range pass and the ratings range pass. Every guessed
    extreme occurs in the data, so when no row falls outside, the guesses are exactly what those
    passes would find; when one does, the result is None and the two-pass route decides.
    """
    view = numpy_view(key)
    pair = numpy_pair(true, pred)
    if view is None or pair is None or view.dtype.kind not in "iu" or view.dtype == np.uint64:
        return None
    a, b = pair
    if a.dtype.kind not in "biu" or a.dtype == np.uint64:
        return None
    categories = guessed_categories(a, b, min_rating, max_rating)
    if categories is None:
        return None
    first, k = categories
    from . import grouped_kernels

    n = len(view)
    key_lo, key_hi = (int(v) for v in guess_range(view, view, min(n, GUESS_SAMPLE)))
    n_codes = key_hi - key_lo + 1
    if not (-HUGE < key_lo and key_hi < HUGE) or n_codes > min(_KEY_RANGE, 2 * n + 1024):
        return None
    if n_codes * k * k > MAX_TABLE_CELLS:
        return None
    parallel = use_parallel(n)
    with parallel_section() if parallel else contextlib.nullcontext():
        counted = grouped_kernels.grouped_tables(
            view, key_lo, a, b, None, first, k, n_codes, parallel, checked=True
        )
    if counted is None:
        return None
    tables, occurs = counted
    kept = np.flatnonzero(occurs)
    key_rows = _key_rows(kept, [list(range(key_lo, key_hi + 1))])
    return GroupTables(tables[kept], key_rows, np.zeros(len(kept), dtype=bool))


def in_memory_group_tables(
    data: FrameInput,
    y_true: str,
    y_pred: str,
    sample_weight: str | None,
    keys: list[str],
    *,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    nan_policy: NanPolicy,
    ordered: bool,
    propagate: bool = True,
) -> GroupTables | None:
    """The tables of every group, or None to count with the engine's group-by instead
    (``propagate``: whether the caller takes nan_policy='propagate', for the hint).

    The caller has checked that the frame is eager with numeric (or ordered categorical)
    rating columns. Errors and their order are those of the engine path: weights first, then
    missing ratings, then the ratings' own checks.
    """
    frame = data.frame
    n = len(frame)
    if n < FAST_MIN:
        return None  # small frames: not worth loading the kernel
    if len(keys) == 1 and sample_weight is None and labels is None:
        guessed = _guessed_group_tables(
            frame.get_column(keys[0]).to_native(),
            frame.get_column(y_true).to_native(),
            frame.get_column(y_pred).to_native(),
            min_rating,
            max_rating,
        )
        if guessed is not None:
            return guessed
    coded = _key_codes([frame.get_column(key).to_native() for key in keys])
    if coded is None:
        return None
    codes, offset, values = coded
    n_codes = 1
    for distinct in values:
        n_codes *= max(len(distinct), 1)
    weight = None
    if sample_weight is not None:
        weight = read_sample_weight(frame.get_column(sample_weight).to_native(), n)
    true = frame.get_column(y_true).to_native()
    pred = frame.get_column(y_pred).to_native()

    fast = fast_ratings(true, pred, min_rating, max_rating) if labels is None else None
    missing = None
    if fast is not None:
        a, b, lo, k = fast
    else:
        true_missing = to_column(true, "y_true").missing
        pred_missing = to_column(pred, "y_pred").missing
        missing = true_missing if pred_missing is None else pred_missing
        if true_missing is not None and pred_missing is not None:
            missing = true_missing | pred_missing
        if missing is not None and nan_policy == "raise":
            which = y_true if true_missing is not None else y_pred
            raise_missing_rows(int(missing.sum()), which, propagate)
        encoded = encode_ratings(
            true,
            pred,
            labels=labels,
            min_rating=min_rating,
            max_rating=max_rating,
            sample_weight=weight,
            nan_policy="omit",
            ordered=ordered,
        )
        assert encoded is not None
        a, b, lo, k = encoded.true_index, encoded.pred_index, 0, encoded.n_categories
        weight = encoded.sample_weight
    check_table_size(k)

    origin = None
    if n_codes * k * k > MAX_TABLE_CELLS or n_codes > 2 * n + 1024:
        # Few of many possible key combinations occur: number the occurring ones (a sort).
        origin, inverse = np.unique(codes, return_inverse=True)
        origin = origin.astype(np.int64) - offset
        codes, offset = inverse.reshape(-1).astype(np.int64, copy=False), 0
        n_codes = len(origin)
        check_groups_table_size(n_codes, k)
    every = None
    stale = np.zeros(n_codes, dtype=bool)
    if missing is not None:
        every = np.zeros(n_codes, dtype=bool)
        every[codes - offset] = True  # a group whose ratings are all missing is still a group
        if nan_policy == "propagate":
            stale[codes[missing] - offset] = True
        codes = codes[~missing]

    from . import grouped_kernels

    w = None if weight is None else np.ascontiguousarray(weight, dtype=np.float64)
    parallel = use_parallel(len(codes))
    with parallel_section() if parallel else contextlib.nullcontext():
        counted = grouped_kernels.grouped_tables(
            np.ascontiguousarray(codes), offset, a, b, w, lo, k, n_codes, parallel
        )
    assert counted is not None  # only a checked count can miss
    tables, occurs = counted
    kept = np.flatnonzero(occurs if every is None else every)
    key_rows = _key_rows(kept if origin is None else origin[kept], values)
    return GroupTables(tables[kept], key_rows, stale[kept])
