"""The truth and two predictions of a data frame as their distinct (truth, A, B) rows: the
counting behind :func:`wkappa.frames.paired_kappa_test`.

Every engine runs one ``group_by([y_pred_b, (cluster,) y_true, y_pred_a])`` (that of
:func:`~wkappa._frames.count.count_pairs`, with the second prediction and the cluster as keys)
and only the distinct rows come back, each with its row count or its sample weights summed
exactly (:mod:`wkappa._core.weight_sums`). What the core would report at a distinct row's
position, which means nothing to the user, is refused here naming the column: a missing
cluster id, two spellings of one label and, under ``nan_policy='raise'``, a missing rating.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core import (
    category_order,
    check_label_spellings,
    is_missing_scalar,
    missing_id_error,
    to_column,
)
from ..exceptions import WkappaError
from . import count

__all__ = ["Triples", "count_triples"]

_PARAMETERS = ("y_true", "y_pred_a", "y_pred_b")


class Triples(NamedTuple):
    """The distinct (truth, A, B) rows of a frame.

    Attributes
    ----------
    columns : tuple of three native columns
        The truth, prediction A and prediction B of the distinct rows (a small eager frame's
        columns, which the core reads with their dtypes).
    weight : ndarray of shape (m,)
        Each row's count (int64), or the exact sum of its sample weights (float64).
    cluster : ndarray of shape (m,) or None
        Each row's cluster id (an object array), with ``cluster``.
    labels : tuple or None
        The categories of the columns' ordered categorical dtypes (polars ``Enum``, pandas
        ordered ``Categorical``, DuckDB ``ENUM``), or None when the values decide.
    """

    columns: tuple[Any, Any, Any]
    weight: np.ndarray
    cluster: np.ndarray | None
    labels: tuple[Any, ...] | None


def count_triples(
    df: Any,
    names: tuple[str, str, str],
    *,
    sample_weight: str | None,
    cluster: str | None,
    labels: Any,
    ordered: bool,
    nan_policy: str,
) -> Triples:
    """Count the distinct (truth, A, B[, cluster]) rows of the columns ``names`` (those of
    ``y_true``, ``y_pred_a``, ``y_pred_b``) in the engine; refuse what :mod:`.triples` says.

    ``labels`` (the user's) and ``ordered`` (whether the weights need ordered categories) are
    read by the check of spellings and the rule of categorical orders; ``nan_policy`` is
    'raise' or 'omit' (the caller refuses 'propagate').
    """
    y_true, y_pred_a, y_pred_b = names
    data = count.ratings_input(
        df,
        list(zip(_PARAMETERS, names, strict=True)),
        sample_weight,
        cluster=cluster,
        hint="for arrays use wkappa.paired_kappa_test(y_true, y_pred_a, y_pred_b).",
    )
    keys = [y_pred_b, *([cluster] if cluster is not None else [])]
    counted = count.count_pairs(data, y_true, y_pred_a, sample_weight, keys)
    if len(counted.count) == 0:
        raise WkappaError("`df` has no rows; there is nothing to score.")
    ids = None
    if cluster is not None:  # a missing id is refused before any row is dropped
        ids = np.asarray(counted.frame.get_column(cluster).to_list(), dtype=object)
        if any(map(is_missing_scalar, ids)):
            raise missing_id_error("`cluster`", cluster, unit="row")
    native = (counted.true, counted.pred, counted.frame.get_column(y_pred_b).to_native())
    columns = [to_column(column, name) for column, name in zip(native, _PARAMETERS, strict=True)]
    where = dict(zip(_PARAMETERS, names, strict=True))
    check_label_spellings(
        list(zip(_PARAMETERS, columns, strict=True)),
        labels,
        where=lambda name, value, position: f"in column {where.get(name, name)!r}",
    )
    if nan_policy == "raise":
        _refuse_missing(columns, names, counted.count)
    weight = counted.count if counted.weight is None else counted.weight
    subject = "`y_true`, `y_pred_a` and `y_pred_b`"
    order = category_order(data.category_orders, ordered, subject)
    return Triples(native, weight, ids, order)


def _refuse_missing(columns: list[Any], names: tuple[str, ...], rows: np.ndarray) -> None:
    """The nan_policy='raise' error of a frame: how many rows miss a rating, and a column."""
    missing = np.zeros(len(rows), dtype=bool)
    which = None
    for column, name in zip(columns, names, strict=True):
        if column.missing is not None and column.missing.any():
            missing |= column.missing
            which = name if which is None else which
    if which is None:
        return
    raise WkappaError(
        f"The rating columns have {int(rows[missing].sum())} row(s) with a missing rating "
        f"(null/NaN), e.g. in column {which!r}. Hint: nan_policy='omit' drops the rows missing "
        "any of the three ratings."
    )
