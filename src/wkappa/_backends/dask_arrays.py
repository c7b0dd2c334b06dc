"""Dask arrays in the core functions: statistics per chunk on the workers, merged on the client.

``wk.weighted_kappa`` / ``wk.qwk`` / ``wk.confusion_table`` hand Dask arrays here. Each chunk
pair is encoded by the core (:func:`wkappa._core.encode.encode_ratings`) on a worker and reduced to
its sufficient statistic — the five sums of quadratic weights or the K x K table — and only
those few numbers travel to the client, which adds them exactly (integer counts stay Python
ints / int64). Without ``labels`` a first pass finds the categories: the global integer range
(every integer from the smallest to the largest rating, as for numpy input; a min/max
reduction for integer dtypes, none when both bounds are given) or, for unordered kappa, the
sorted set of string labels. Lost workers are handled by Dask, which recomputes
their tasks; the statistics are deterministic, so the result is exactly the same.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from functools import reduce
from typing import Any

import numpy as np

from .._core import (
    PROPAGATED,
    Counted,
    NanPolicy,
    QuadraticSums,
    Request,
    category_labels,
    check_labels,
    check_one_dimensional,
    check_pair_lengths,
    check_rating_bounds,
    check_table_size,
    count_table,
    encode_ratings,
    import_optional,
    quadratic_sums,
)
from ..exceptions import WkappaError

__all__ = ["dask_route", "is_dask_array"]


def is_dask_array(obj: Any) -> bool:
    """True for a dask Array (detected through sys.modules, never by importing dask)."""
    da = sys.modules.get("dask.array")
    return da is not None and isinstance(obj, da.Array)


def is_dask_series(obj: Any) -> bool:
    """True for a column of a Dask DataFrame (a dask Series), detected through sys.modules."""
    dd = sys.modules.get("dask.dataframe")
    return dd is not None and isinstance(obj, dd.Series)


def _counted_on_workers(obj: Any) -> bool:
    """A Dask array, or a Dask DataFrame's column of numbers or text (its chunks are numpy
    arrays): a categorical column keeps its order only in pandas, so it is read here."""
    if is_dask_array(obj):
        return True
    if not is_dask_series(obj):
        return False
    dtype = obj.dtype
    return isinstance(dtype, np.dtype) and dtype.kind in "iubfUSO"


def _as_dask_array(obj: Any) -> Any:
    """``obj`` as a dask array: a Dask DataFrame's column by its partitions (their lengths
    unknown until :func:`_aligned` asks), anything else as it is."""
    return obj.to_dask_array() if is_dask_series(obj) else obj


# --------------------------------------------------------------------------- worker side


def _chunk_categories(
    a: np.ndarray, b: np.ndarray, lo: int | None, hi: int | None, ordered: bool
) -> tuple[Sequence[Any] | None, int]:
    """Categories one chunk needs (None if it keeps no pair) and its number of
    incomplete pairs."""
    if len(a) == 0:
        return None, 0
    encoded = encode_ratings(a, b, min_rating=lo, max_rating=hi, nan_policy="omit", ordered=ordered)
    assert encoded is not None
    kept = len(encoded.true_index)
    n_missing = len(a) - kept
    if kept == 0:
        return None, n_missing
    if isinstance(encoded.labels, range):
        # This chunk's observed range (its own min..max), not widened by the user's bounds.
        first = int(min(encoded.true_index.min(), encoded.pred_index.min()))
        last = int(max(encoded.true_index.max(), encoded.pred_index.max()))
        start = encoded.labels.start
        return range(start + first, start + last + 1), n_missing
    return tuple(encoded.labels), n_missing


_MANY_LABELS = 4096


def _missing_pairs_error(n_missing: int, propagate: bool) -> WkappaError:
    """Under nan_policy='raise': the blocks are read apart, so the count, not a position
    (``propagate``: whether the caller takes 'propagate', which the hint then offers)."""
    nan = "; nan_policy='propagate' returns nan" if propagate else ""
    return WkappaError(
        f"`y_true`/`y_pred` have {n_missing} pair(s) with a missing rating (NaN/None). "
        f"Hint: nan_policy='omit' drops incomplete pairs{nan}."
    )


def _as_range(labels: np.ndarray) -> Sequence[Any]:
    """Checked labels as a range when they are consecutive ascending integers (each chunk then
    encodes by arithmetic instead of validating and searching K labels), else a tuple."""
    if (
        labels.dtype.kind in "iu"
        and labels.size > 1
        and abs(int(labels[0])) < 2**62
        and abs(int(labels[-1])) < 2**62
        and bool((np.diff(labels) == 1).all())
    ):
        return range(int(labels[0]), int(labels[-1]) + 1)
    return tuple(labels.tolist())


def _chunk_statistic(
    a: np.ndarray,
    b: np.ndarray,
    w: np.ndarray | None,
    labels: Sequence[Any],
    quadratic: bool,
) -> QuadraticSums | np.ndarray:
    """The five quadratic sums, or the (K, K) table, of one chunk pair."""
    k = len(labels)
    if len(a) == 0:
        return QuadraticSums(0, 0, 0, 0, 0, 0) if quadratic else np.zeros((k, k), np.int64)
    if isinstance(labels, range):
        encoded = encode_ratings(
            a,
            b,
            min_rating=labels.start,
            max_rating=labels.stop - 1,
            sample_weight=w,
            nan_policy="omit",
        )
    else:
        encoded = encode_ratings(a, b, labels=labels, sample_weight=w, nan_policy="omit")
    assert encoded is not None
    if quadratic:
        return quadratic_sums(encoded.true_index, encoded.pred_index, encoded.sample_weight)
    return count_table(encoded.true_index, encoded.pred_index, k, encoded.sample_weight)


def _kept(function: Any, *args: Any) -> Any:
    """``function(*args)`` on a worker, or the refusal it raised, returned as a value: the
    client raises it (:func:`_computed`), so a rating out of the bounds is one error in the
    caller's process, not a task failure logged by every worker with its traceback."""
    try:
        return function(*args)
    except WkappaError as error:
        return error


def _computed(tasks: Sequence[Any]) -> tuple[Any, ...]:
    """The results of the :func:`_kept` ``tasks``; the first chunk's refusal is raised."""
    dask = import_optional("dask", "dask")
    parts = dask.compute(*tasks)
    refused = next((part for part in parts if isinstance(part, WkappaError)), None)
    if refused is not None:
        raise refused
    return tuple(parts)


# --------------------------------------------------------------------------- client side


def _aligned(y_true: Any, y_pred: Any, sample_weight: Any) -> tuple[Any, Any, Any]:
    """Both raters (and weights) as 1-D dask arrays with the same chunks."""
    da = import_optional("dask.array", "dask")
    arrays: list[Any] = []
    for obj, name in ((y_true, "y_true"), (y_pred, "y_pred"), (sample_weight, "sample_weight")):
        if obj is None:
            arrays.append(None)
            continue
        obj = _as_dask_array(obj)
        array = obj if is_dask_array(obj) else da.from_array(np.asarray(obj), chunks=-1)
        check_one_dimensional(name, array.shape)
        if any(math.isnan(c) for c in array.chunks[0]):
            array = array.compute_chunk_sizes()
        arrays.append(array)
    a, b, w = arrays
    check_pair_lengths(a.shape[0], b.shape[0], None if w is None else w.shape[0])
    b = b.rechunk(a.chunks)
    if w is not None:
        w = w.rechunk(a.chunks)
    return a, b, w


def _blocks(array: Any) -> list[Any]:
    return [] if array is None else list(array.to_delayed().ravel())


def _categories(
    a: Any,
    b: Any,
    min_rating: Any,
    max_rating: Any,
    nan_policy: NanPolicy,
    ordered: bool,
    propagate: bool = True,
) -> Sequence[Any] | None:
    """Global categories from a first pass (None: a missing rating under 'propagate')."""
    dask = import_optional("dask", "dask")
    lo, hi = check_rating_bounds(min_rating, max_rating)
    task = dask.delayed(_kept, pure=True)
    parts = _computed(
        [
            task(_chunk_categories, x, y, lo, hi, ordered)
            for x, y in zip(_blocks(a), _blocks(b), strict=True)
        ]
    )
    n_missing = sum(missing for _, missing in parts)
    if n_missing:
        if nan_policy == "raise":
            raise _missing_pairs_error(n_missing, propagate)
        if nan_policy == "propagate":
            return None
    found = [labels for labels, _ in parts if labels is not None]
    if found and all(isinstance(labels, range) for labels in found):
        first = min(labels.start for labels in found) if lo is None else lo
        last = max(labels.stop - 1 for labels in found) if hi is None else hi
        return range(first, last + 1)
    if not found:  # every pair omitted
        first = 0 if lo is None else lo
        return range(first, (first if hi is None else hi) + 1)
    labels = category_labels(
        [(f"block {i} of `y_true`/`y_pred`", np.asarray(list(f))) for i, f in enumerate(found)],
        lo,
        hi,
        None,  # each block has refused unordered categories for an ordered coefficient
    )
    return tuple(labels.tolist())


def _statistic(y_true: Any, y_pred: Any, request: Request) -> Counted | None:
    """Per-chunk statistics computed on the workers and summed on the client; None (not
    mine) for more than :data:`_MANY_LABELS` labels that are not consecutive integers, which
    every chunk would have to validate and search: the strict route reads the arrays."""
    dask = import_optional("dask", "dask")
    labels, min_rating, max_rating = request.labels, request.min_rating, request.max_rating
    a, b, w = _aligned(y_true, y_pred, request.sample_weight)
    check_rating_bounds(min_rating, max_rating, labels)
    if labels is not None:
        fixed: Sequence[Any] = (
            labels  # a range of integers stays a range: never materialised, cheap to hash
            if isinstance(labels, range)
            and labels.step == 1
            and len(labels) > 0
            and max(abs(labels.start), abs(labels.stop)) < 2**62
            else _as_range(check_labels(labels))
        )
        if not isinstance(fixed, range) and len(fixed) > _MANY_LABELS:
            return None
        categories: Sequence[Any] | None = fixed
        if request.nan_policy != "omit" and not _integer_dtypes(a, b):
            categories = _check_missing_with_labels(
                a, b, tuple(fixed), request.nan_policy, request.propagate
            )
    elif _integer_dtypes(a, b):
        # No missing values are possible: the range needs at most a min/max pass, and the
        # counting pass itself refuses a rating out of the bounds given.
        categories = _integer_range(a, b, min_rating, max_rating)
    else:
        categories = _categories(
            a, b, min_rating, max_rating, request.nan_policy, request.ordered, request.propagate
        )
    if categories is None:
        return PROPAGATED
    quadratic = request.use_sums(len(categories), w is not None)
    if not quadratic:
        check_table_size(len(categories))
    task = dask.delayed(_kept, pure=True)
    weights = _blocks(w) or [None] * len(_blocks(a))
    # One graph node for the categories, not a copy walked by dask for every chunk's task (a
    # tuple of millions of labels made building the graph take minutes).
    shared = dask.delayed(categories, traverse=False)
    parts = _computed(
        [
            task(_chunk_statistic, x, y, z, shared, quadratic)
            for x, y, z in zip(_blocks(a), _blocks(b), weights, strict=True)
        ]
    )
    if quadratic:
        return Counted(None, reduce(lambda s, t: s + t, parts), categories)
    tables = [np.asarray(t) for t in parts]
    if any(t.dtype.kind == "f" for t in tables):
        return Counted(reduce(np.add, (t.astype(np.float64) for t in tables)), None, categories)
    total = np.zeros_like(tables[0])
    for table in tables:  # exact: counts fit int64 by far (n < 2**63)
        total += table
    return Counted(total, None, categories)


def _integer_dtypes(a: Any, b: Any) -> bool:
    return bool(a.dtype.kind in "iub" and b.dtype.kind in "iub")


def _integer_range(a: Any, b: Any, min_rating: Any, max_rating: Any) -> range:
    """``min_rating..max_rating``, each bound the global min / max over both raters unless
    given (one cheap reduction on the workers, none if both are given)."""

    dask = import_optional("dask", "dask")
    lo, hi = check_rating_bounds(min_rating, max_rating)
    if lo is None or hi is None:
        low_a, low_b, high_a, high_b = (
            int(x) for x in dask.compute(a.min(), b.min(), a.max(), b.max())
        )
        hi_given = hi is not None
        lo = min(low_a, low_b) if lo is None else lo
        hi = max(high_a, high_b) if hi is None else hi
        if lo > hi and hi_given:
            raise WkappaError(f"`y_true` contains the rating {low_a}, above `max_rating` = {hi}.")
        if lo > hi:
            raise WkappaError(f"`y_true` contains the rating {high_a}, below `min_rating` = {lo}.")
    return range(lo, hi + 1)


def _check_missing_with_labels(
    a: Any, b: Any, labels: tuple[Any, ...], nan_policy: NanPolicy, propagate: bool = True
) -> tuple[Any, ...] | None:
    """With labels given, 'raise' and 'propagate' still need to know about missing pairs."""
    dask = import_optional("dask", "dask")
    task = dask.delayed(_chunk_missing, pure=True)
    n_missing = sum(
        dask.compute(*[task(x, y) for x, y in zip(_blocks(a), _blocks(b), strict=True)])
    )
    if not n_missing:
        return labels
    if nan_policy == "raise":
        raise _missing_pairs_error(n_missing, propagate)
    return None


def _chunk_missing(a: np.ndarray, b: np.ndarray) -> int:
    from .._core import to_column

    mask = np.zeros(len(a), dtype=bool)
    for values, name in ((a, "y_true"), (b, "y_pred")):
        missing = to_column(values, name).missing
        if missing is not None:
            mask |= missing
    return int(mask.sum())


def dask_route(y_true: Any, y_pred: Any, request: Request) -> Counted | None:
    """The Dask route: None (not mine) unless a rater's ratings are a Dask array or a Dask
    DataFrame's column (numbers or text), which are counted on the workers: read into this
    process, ten million rows were."""
    if not (_counted_on_workers(y_true) or _counted_on_workers(y_pred)):
        return None
    if any(is_dask_series(r) and not _counted_on_workers(r) for r in (y_true, y_pred)):
        return None  # a categorical column: its order is read in this process
    return _statistic(y_true, y_pred, request)
