"""The two rating columns of a data frame as a K x K table (or the QWK sums), whole or per
group: the counting behind :mod:`wkappa.frames`' two-rater functions.

An eager frame with numeric, boolean or ordered-categorical columns goes straight to the core
(:func:`wkappa._core.encode_ratings`, the arrays' rules); anything else is counted by one
``group_by`` in the engine (:mod:`wkappa._frames.count`) and only the distinct pairs come
back. Sample weights are summed exactly per distinct pair on either path
(:mod:`wkappa._core.weight_sums`), so both give the same bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import (
    QuadraticSums,
    Request,
    WeightsLike,
    ZeroDivision,
    check_table_size,
    count_table,
    kappa_from_quadratic_sums,
    kappa_from_table,
    weighted_kappa,
)
from . import count
from .grouped_tables import GroupTables
from .groups import check_groups_table_size, group_ids

__all__ = [
    "core_columns",
    "engine_group_tables",
    "frame_kappa",
    "frame_table",
    "labels_for",
    "no_empty_table",
]


def core_columns(data: count.FrameInput, *names: str | None) -> bool:
    """Whether the columns can go straight to the core: an eager frame, numeric / bool /
    ordered-categorical columns (strings are counted faster by the engine's group-by)."""
    if data.lazy:
        return False
    import narwhals as nw

    for name in names:
        if name is None:
            continue
        dtype = data.schema[name]
        if not (dtype.is_numeric() or dtype == nw.Boolean or isinstance(dtype, nw.Enum)):
            return False
    return True


def labels_for(data: count.FrameInput, request: Request) -> Request:
    """``request`` with the frame's categorical order as ``labels`` when the user gave neither
    labels nor a rating range."""
    if request.labels is None and request.min_rating is None and request.max_rating is None:
        return request._replace(labels=data.labels(request.ordered))
    return request


def frame_kappa(
    df: Any,
    y_true: str,
    y_pred: str,
    request: Request,
    weights: WeightsLike,
    zero_division: ZeroDivision,
) -> float:
    """:func:`wkappa.frames.weighted_kappa` with its options checked: an eager numeric frame
    without sample weights goes to :func:`wkappa.weighted_kappa` whole (its fast routes), any
    other is counted (:func:`frame_table`)."""
    data = count.frame_input(df, y_true, y_pred, request.sample_weight)
    weighted = request.sample_weight is not None  # summed exactly by frame_table
    if not weighted and core_columns(data, y_true, y_pred):
        frame = data.frame
        request = labels_for(data, request)
        options = {
            **request.encode_options(),
            "sample_weight": _native(data, request.sample_weight),
        }
        return weighted_kappa(
            frame.get_column(y_true).to_native(),
            frame.get_column(y_pred).to_native(),
            weights=weights,
            zero_division=zero_division,
            **options,
        )
    counted = frame_table(data, y_true, y_pred, request)
    if counted is None:
        return math.nan
    if not isinstance(counted[0], np.ndarray):  # QWK sums of the counted pairs
        return kappa_from_quadratic_sums(counted[0], zero_division)
    return kappa_from_table(
        no_empty_table(counted[0]), weights=weights, zero_division=zero_division
    )


def _native(data: count.FrameInput, name: str | None) -> Any:
    return None if name is None else data.frame.get_column(name).to_native()


def frame_table(
    df: Any, y_true: str, y_pred: str, request: Request
) -> tuple[np.ndarray | QuadraticSums, Sequence[Any]] | None:
    """The (K, K) table and its labels, or None (a missing rating under 'propagate').

    ``df`` may already be wrapped (a :class:`FrameInput`); ``request.sample_weight`` is a
    column name. With ``request.quadratic`` the QWK sums of the counted pairs (a lazy engine,
    strings or sample weights) come instead of the table, by the arrays' rule
    (``Request.use_sums``: sample-weighted pairs take the table while K x K cells are
    affordable): QWK needs no table, so any K works, as for eager frames and arrays.
    """
    sample_weight = request.sample_weight
    if isinstance(df, count.FrameInput):
        data = df
    else:
        data = count.frame_input(df, y_true, y_pred, sample_weight)
    request = labels_for(data, request)
    if core_columns(data, y_true, y_pred, sample_weight):
        frame = data.frame
        encoded = count.encode_pair(
            frame.get_column(y_true).to_native(),
            frame.get_column(y_pred).to_native(),
            _native(data, sample_weight),
            request,
        )
        if encoded is None:
            return None
        if sample_weight is not None:  # each pair's weights summed exactly, as by the engines
            pairs = count.exact_pairs(encoded)
            if request.use_sums(pairs.n_categories, weighted=True):
                return count.pair_quadratic_sums(pairs, False), pairs.labels
            return count.scatter_table(pairs, False), pairs.labels
        k = encoded.n_categories
        check_table_size(k)  # the one K guard, as for arrays
        table = count_table(encoded.true_index, encoded.pred_index, k, encoded.sample_weight)
        return table, encoded.labels
    counts = count.count_pairs(data, y_true, y_pred, sample_weight)
    if not _apply_nan_policy(counts, request, y_true, y_pred):
        return None
    omitted = request._replace(nan_policy="omit")
    encoded_counts = count.encode_counts(counts, omitted, columns=(y_true, y_pred))
    assert encoded_counts is not None
    # The arrays' rule: weighted pairs take the table while K x K cells are affordable.
    if request.use_sums(encoded_counts.n_categories, weighted=counts.weight is not None):
        sums = count.pair_quadratic_sums(encoded_counts, counts.weight is None)
        return sums, encoded_counts.labels
    return count.scatter_table(encoded_counts, counts.weight is None), encoded_counts.labels


def _apply_nan_policy(counts: count.PairCounts, request: Request, y_true: str, y_pred: str) -> bool:
    """Raise for missing ratings under 'raise'; False if the result is nan ('propagate')."""
    mask = count.missing_mask(counts)
    if not mask.any():
        return True
    if request.nan_policy == "raise":
        count.raise_missing(counts, mask, y_true, y_pred, request.propagate)
    return request.nan_policy == "omit"


def no_empty_table(table: np.ndarray) -> np.ndarray:
    """A (..., 1, 1) table of zeros for the (..., 0, 0) one left when ``nan_policy='omit'``
    dropped every pair of string ratings (no category is known): kappa is then undefined
    (nan with an UndefinedKappaWarning), as :func:`wkappa.weighted_kappa` says."""
    if table.shape[-1] > 0:
        return table
    return np.zeros((*table.shape[:-2], 1, 1), dtype=table.dtype)


def engine_group_tables(
    data: count.FrameInput, y_true: str, y_pred: str, keys: list[str], request: Request
) -> tuple[GroupTables, Any]:
    """Per-group tables from one ``group_by([*keys, y_true, y_pred])`` in the engine, and the
    eager backend of the counted frame."""
    counts = count.count_pairs(data, y_true, y_pred, request.sample_weight, keys)
    group_of, key_rows = group_ids(counts, keys)
    n_groups = len(key_rows)
    mask = count.missing_mask(counts)
    stale = np.zeros(n_groups, dtype=bool)
    if mask.any():
        if request.nan_policy == "raise":
            count.raise_missing(counts, mask, y_true, y_pred, request.propagate)
        if request.nan_policy == "propagate":
            stale[group_of[mask]] = True
    omitted = request._replace(nan_policy="omit")
    encoded = count.encode_counts(counts, omitted, columns=(y_true, y_pred))
    assert encoded is not None
    check_groups_table_size(n_groups, encoded.n_categories)
    tables = count.scatter_table(encoded, counts.weight is None, group_of[~mask], n_groups)
    return GroupTables(tables, key_rows, stale, encoded.labels), counts.frame.implementation
