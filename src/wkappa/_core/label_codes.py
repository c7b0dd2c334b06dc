"""Vectorised ``labels=`` encoding for the fast path: no Python loop over the ratings.

Strings (numpy, pandas object / string / categorical, polars String / Categorical / Enum,
pyarrow string) and integers with gaps (``labels=[1, 2, 5, 10]``) become category indices in
C-level passes: a sorted lookup (``np.searchsorted``) for numpy arrays, pandas' hash-based
``factorize``, polars' ``Enum`` cast, pyarrow's ``index_in``. The codes then go
through the same fused kernels as integer ratings.

As everywhere in the fast path, anything unusual -- a rating not in ``labels``, a missing
value, labels that fail validation, kinds that differ (``'0'`` vs ``0``) -- returns None and
the strict encoding (:mod:`wkappa._core.encode`) runs and raises its precise error.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .dependencies import series_library
from .encode import check_labels

__all__ = ["label_codes"]


# A longer range of labels is encoded arithmetically by the strict path, never materialised.
_MAX_RANGE_LABELS = 1 << 16


def _checked_labels(labels: Any) -> np.ndarray | None:
    if isinstance(labels, range) and len(labels) > _MAX_RANGE_LABELS:
        return None
    try:
        array = check_labels(labels)
    except (ValueError, TypeError):
        return None
    return array if array.dtype.kind in "iuU" else None


def _numpy_codes(values: np.ndarray, labels: np.ndarray) -> np.ndarray | None:
    if values.ndim != 1:
        return None
    strings = values.dtype.kind == "U" and labels.dtype.kind == "U"
    integers = values.dtype.kind in "iu" and labels.dtype.kind in "iu"
    if np.dtype(np.uint64) in (values.dtype, labels.dtype):
        return None  # mixed with int64 numpy would compare in float64
    if not (strings or integers):
        return None
    order = np.argsort(labels, kind="stable")
    ordered = labels[order]
    position = np.searchsorted(ordered, values)
    np.minimum(position, len(labels) - 1, out=position)
    if not np.array_equal(ordered[position], values):
        return None
    codes: np.ndarray = order[position]
    return codes


def _pandas_codes(obj: Any, labels: np.ndarray) -> np.ndarray | None:
    pd = sys.modules["pandas"]
    if not isinstance(obj, (pd.Series, pd.Index)):
        return None
    dtype = obj.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iu":
        return _numpy_codes(obj.to_numpy(), labels)
    if labels.dtype.kind != "U":
        return None
    if isinstance(dtype, pd.CategoricalDtype) and dtype.categories.dtype.kind != "O":
        return None  # categories of numbers never match string labels: the strict path says so
    # Hash the n ratings once (factorize), then place the few distinct values among the labels.
    codes, uniques = pd.factorize(obj, use_na_sentinel=True)
    if (codes < 0).any():  # a missing value: nan_policy is the strict path's business
        return None
    where = np.asarray(
        pd.Index(labels, dtype=object).get_indexer(pd.Index(np.asarray(uniques), dtype=object))
    )
    if (where < 0).any():
        return None
    mapped: np.ndarray = where[np.asarray(codes)]
    return mapped


def _polars_codes(series: Any, labels: np.ndarray) -> np.ndarray | None:
    pl = sys.modules["polars"]
    if labels.dtype.kind != "U" or series.null_count():
        return None
    if not isinstance(series.dtype, (pl.String, pl.Categorical, pl.Enum)):
        return None
    try:
        coded = series.cast(pl.String).cast(pl.Enum(labels.tolist()))
    except Exception:  # polars raises its own error kinds on an unknown value
        return None
    return np.asarray(coded.to_physical().to_numpy())


def _pyarrow_codes(array: Any, labels: np.ndarray) -> np.ndarray | None:
    pa = sys.modules["pyarrow"]
    if labels.dtype.kind != "U" or not isinstance(array, pa.Array) or array.null_count:
        return None
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        return None
    import pyarrow.compute as pc

    index = pc.index_in(array, value_set=pa.array(labels.tolist(), type=array.type))
    if index.null_count:
        return None
    return np.asarray(index.to_numpy(zero_copy_only=False))


# The label codes of each frame library's column (keys of dependencies.series_library).
_FRAME_CODES = {"pandas": _pandas_codes, "polars": _polars_codes, "pyarrow": _pyarrow_codes}


def _codes(obj: Any, labels: np.ndarray) -> np.ndarray | None:
    if isinstance(obj, np.ma.MaskedArray):
        return None  # masked entries are missing: nan_policy is the strict path's business
    if isinstance(obj, np.ndarray):
        return _numpy_codes(obj, labels)
    if isinstance(obj, (list, tuple)):
        try:
            values = np.asarray(obj)
        except (ValueError, TypeError, OverflowError):
            return None
        return _numpy_codes(values, labels)
    library = series_library(obj)
    return None if library is None else _FRAME_CODES[library](obj, labels)


def label_codes(y_true: Any, y_pred: Any, labels: Any) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Category indices of both raters under ``labels`` and K, or None for the strict path.

    Returns
    -------
    (true_codes, pred_codes, K) or None
        Two 1-D integer arrays of one dtype with values in ``0..K-1``.
    """
    checked = _checked_labels(labels)
    if checked is None:
        return None
    a = _codes(y_true, checked)
    b = _codes(y_pred, checked)
    if a is None or b is None or a.shape[0] != b.shape[0] or a.shape[0] == 0:
        return None
    if a.dtype != b.dtype:
        a = a.astype(np.int64)
        b = b.astype(np.int64)
    return np.ascontiguousarray(a), np.ascontiguousarray(b), len(checked)
