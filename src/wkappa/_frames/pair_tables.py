"""The two rating columns of a data frame as a K x K table (or the QWK sums), whole or per
group: the counting behind :mod:`wkappa.frames`' two-rater functions.

An eager frame with numeric, boolean or ordered-categorical columns goes straight to the core
(:func:`wkappa._core.encode_ratings`, the arrays' rules); anything else is counted by one
``group_by`` in the engine (:mod:`wkappa._frames.count`) and only the distinct pairs come
back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import (
    NanPolicy,
    QuadraticSums,
    check_table_size,
    count_table,
    encode_ratings,
)
from .count import (
    FrameInput,
    PairCounts,
    count_pairs,
    encode_counts,
    frame_input,
    missing_mask,
    pair_quadratic_sums,
    raise_missing,
    scatter_table,
)
from .grouped_tables import GroupTables
from .groups import check_groups_table_size, group_ids

__all__ = ["core_columns", "engine_group_tables", "frame_table", "labels_for", "no_empty_table"]


def core_columns(data: FrameInput, *names: str | None) -> bool:
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


def labels_for(data: FrameInput, labels: Any, min_rating: Any, max_rating: Any) -> Any:
    if labels is None and min_rating is None and max_rating is None:
        return data.enum_labels
    return labels


def frame_table(
    df: Any,
    *,
    y_true: str,
    y_pred: str,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    sample_weight: str | None,
    nan_policy: NanPolicy,
    ordered: bool,
    quadratic: bool = False,
) -> tuple[np.ndarray | QuadraticSums, Sequence[Any]] | None:
    """The (K, K) table and its labels, or None (a missing rating under 'propagate').

    ``df`` may already be wrapped (a :class:`FrameInput`). With ``quadratic`` (lazy engines
    only) the QWK sums of the counted pairs come instead of the table: QWK needs no table,
    so any K works, as for eager frames and arrays.
    """
    data = df if isinstance(df, FrameInput) else frame_input(df, y_true, y_pred, sample_weight)
    labels = labels_for(data, labels, min_rating, max_rating)
    if core_columns(data, y_true, y_pred, sample_weight):
        frame = data.frame
        weight = None if sample_weight is None else frame.get_column(sample_weight).to_native()
        encoded = encode_ratings(
            frame.get_column(y_true).to_native(),
            frame.get_column(y_pred).to_native(),
            labels=labels,
            min_rating=min_rating,
            max_rating=max_rating,
            sample_weight=weight,
            nan_policy=nan_policy,
            ordered=ordered,
        )
        if encoded is None:
            return None
        k = encoded.n_categories
        check_table_size(k)  # the one K guard, as for arrays
        table = count_table(encoded.true_index, encoded.pred_index, k, encoded.sample_weight)
        return table, encoded.labels
    counts = count_pairs(data, y_true, y_pred, sample_weight)
    if not _apply_nan_policy(counts, nan_policy, y_true, y_pred):
        return None
    encoded_counts = encode_counts(
        counts,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        nan_policy="omit",
        ordered=ordered,
        columns=(y_true, y_pred),
    )
    assert encoded_counts is not None
    if quadratic:
        sums = pair_quadratic_sums(encoded_counts, counts.weight is None)
        return sums, encoded_counts.labels
    return scatter_table(encoded_counts, counts.weight is None), encoded_counts.labels


def _apply_nan_policy(counts: PairCounts, nan_policy: NanPolicy, y_true: str, y_pred: str) -> bool:
    """Raise for missing ratings under 'raise'; False if the result is nan ('propagate')."""
    mask = missing_mask(counts)
    if not mask.any():
        return True
    if nan_policy == "raise":
        raise_missing(counts, mask, y_true, y_pred)
    return nan_policy == "omit"


def no_empty_table(table: np.ndarray) -> np.ndarray:
    """A (..., 1, 1) table of zeros for the (..., 0, 0) one left when ``nan_policy='omit'``
    dropped every pair of string ratings (no category is known): kappa is then undefined
    (nan with an UndefinedKappaWarning), as :func:`wkappa.weighted_kappa` says."""
    if table.shape[-1] > 0:
        return table
    return np.zeros((*table.shape[:-2], 1, 1), dtype=table.dtype)


def engine_group_tables(
    data: FrameInput,
    y_true: str,
    y_pred: str,
    sample_weight: str | None,
    keys: list[str],
    options: dict[str, Any],
) -> tuple[GroupTables, Any]:
    """Per-group tables from one ``group_by([*keys, y_true, y_pred])`` in the engine, and the
    eager backend of the counted frame."""
    counts = count_pairs(data, y_true, y_pred, sample_weight, keys)
    group_of, key_rows = group_ids(counts, keys)
    n_groups = len(key_rows)
    policy = options["nan_policy"]
    mask = missing_mask(counts)
    stale = np.zeros(n_groups, dtype=bool)
    if mask.any():
        if policy == "raise":
            raise_missing(counts, mask, y_true, y_pred)
        if policy == "propagate":
            stale[group_of[mask]] = True
    encoded = encode_counts(counts, **{**options, "nan_policy": "omit"})
    assert encoded is not None
    check_groups_table_size(n_groups, encoded.n_categories)
    tables = scatter_table(encoded, counts.weight is None, group_of[~mask], n_groups)
    return GroupTables(tables, key_rows, stale), counts.frame.implementation
