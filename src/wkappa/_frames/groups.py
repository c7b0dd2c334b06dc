"""Kappa, standard error and confidence interval of G tables at once (for kappa_by_group).

A loop of :func:`wkappa.kappa_test_from_table` over a thousand groups costs more than counting
ten million rows, so this module evaluates the same formulas on a (G, K, K) stack of tables
in a few array operations. The tests check every group against ``kappa_test_from_table``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import MAX_TABLE_CELLS, format_value, is_missing_scalar, norm_ppf
from ..exceptions import WkappaError, WkappaTypeError
from .count import FrameInput, PairCounts, quiet_dask_notice

__all__ = [
    "GroupStatistics",
    "check_by",
    "check_groups_table_size",
    "group_ids",
    "group_statistics",
    "result_frame",
]

STAT_COLUMNS = ("n", "kappa", "standard_error", "ci_low", "ci_high")

_INT64_SAFE = 2**62


@dataclass(frozen=True)
class GroupStatistics:
    """Per-group arrays of shape (G,); nan where kappa is undefined."""

    kappa: np.ndarray
    standard_error: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray


def _integer_weights(weights: str | np.ndarray, k: int) -> np.ndarray | None:
    """Integer D with ``W = D / scale`` for the named weights, else None."""
    if not isinstance(weights, str):
        return None
    index = np.arange(k, dtype=np.int64)
    distance: np.ndarray = np.abs(index[:, None] - index[None, :])
    if weights == "quadratic":
        squared: np.ndarray = distance * distance
        return squared
    if weights == "linear":
        return distance
    unweighted: np.ndarray = (distance > 0).astype(np.int64)
    return unweighted


def _kappas(tables: np.ndarray, weights: str | np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``kappa_g = (r' W c - n sum(W*O)) / (r' W c)`` for each table; nan if undefined.

    For integer counts and named weights the numerator and denominator are exact integers
    and the one division is correctly rounded, as in :func:`wkappa.kappa_from_table`.
    """
    k = tables.shape[-1]
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    n = rows.sum(axis=1)
    integer = _integer_weights(weights, k) if tables.dtype.kind in "iu" else None
    if integer is not None and n.size and int(n.max()) ** 2 * max(k - 1, 1) ** 2 < _INT64_SAFE:
        observed = np.einsum("gij,ij->g", tables, integer)
        expected = np.einsum("gi,ij,gj->g", rows, integer, cols)
        return np.array(
            [
                (e - m * o) / e if e > 0 else math.nan
                for e, m, o in zip(expected.tolist(), n.tolist(), observed.tolist(), strict=True)
            ],
            dtype=np.float64,
        )
    counts = tables.astype(np.float64)
    total = counts.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = counts / total[:, None, None]
        observed_f = np.einsum("gij,ij->g", p, matrix)
        expected_f = np.einsum("gi,ij,gj->g", p.sum(axis=2), matrix, p.sum(axis=1))
        kappa: np.ndarray = np.where(
            (expected_f > 0) & (total > 0), 1.0 - observed_f / expected_f, np.nan
        )
    return kappa


def _centred_square_mean(p: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per group ``sum p (x - mean)²``, 0 where it is only rounding noise (as the scalar
    version in :mod:`wkappa._stats.inference`)."""
    mean = np.einsum("gij,gij->g", p, values)
    centred = values - mean[:, None, None]
    spread = np.einsum("gij,gij->g", p, centred * centred)
    scale = np.einsum("gij,gij->g", p, values * values)
    cleaned: np.ndarray = np.where(spread <= 1e-24 * scale, 0.0, spread)
    return cleaned


def group_statistics(
    tables: np.ndarray,
    weights: str | np.ndarray,
    matrix: np.ndarray,
    confidence_level: float,
) -> GroupStatistics:
    """Kappa, Fleiss-Cohen-Everitt standard error and asymptotic CI of each table.

    Parameters
    ----------
    tables : ndarray of shape (G, K, K)
        Counts (int64) or weighted counts (float64).
    weights : str or ndarray
        Checked weights (name or custom matrix).
    matrix : ndarray of shape (K, K)
        The disagreement weight matrix W.
    confidence_level : float
        Level of ``kappa ± z * standard_error``.

    Notes
    -----
    With ``p = O / n``, ``r``, ``c`` its margins, ``w = W c``, ``v = r' W`` and
    ``D_e = r' W c``: ``Var(kappa) = [sum p (W_ij - (1 - kappa)(w_i + v_j))² - (1 - kappa)²]
    / (n D_e²)``, computed as a centred sum of squares (see
    :func:`wkappa._stats.inference.asymptotic_variances`).
    """
    kappa = _kappas(tables, weights, matrix)
    counts = tables.astype(np.float64)
    n = counts.sum(axis=(1, 2))
    defined = ~np.isnan(kappa)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = counts / n[:, None, None]
        row, col = p.sum(axis=2), p.sum(axis=1)
        w_row = np.einsum("ij,gj->gi", matrix, col)
        w_col = np.einsum("gi,ij->gj", row, matrix)
        d_e = np.einsum("gi,gi->g", row, w_row)
        influence = matrix[None, :, :] - (1.0 - kappa)[:, None, None] * (
            w_row[:, :, None] + w_col[:, None, :]
        )
        variance = _centred_square_mean(p, influence) / (n * d_e**2)
        se = np.where(defined, np.sqrt(variance), np.nan)
    half = norm_ppf(0.5 + confidence_level / 2) * se
    return GroupStatistics(kappa, se, kappa - half, kappa + half)


# --------------------------------------------------------------------------- keys and output


def check_by(by: Any) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by) if isinstance(by, Sequence) else None
    if not keys or not all(isinstance(key, str) for key in keys):
        raise WkappaTypeError(
            f"`by` must be a column name or a non-empty list of names; got {format_value(by)}."
        )
    return keys


def check_groups_table_size(n_groups: int, n_categories: int) -> None:
    """Refuse a (G, K, K) stack of tables that could not sensibly be allocated."""
    cells = n_groups * n_categories * n_categories
    if cells > MAX_TABLE_CELLS:
        raise WkappaError(
            f"{n_groups:,} groups x K = {n_categories} categories would need {cells:,} table "
            f"cells ({cells * 8 / 2**30:,.1f} GiB). Hint: group by fewer or coarser columns, "
            "or pass labels= with the categories you actually use."
        )


def key_value(value: Any) -> Any:
    """A group key as a hashable, comparable value (NaN, NA, NaT -> None: a null key)."""
    return None if is_missing_scalar(value) or value != value else value


def group_ids(counts: PairCounts, keys: list[str]) -> tuple[np.ndarray, list[tuple[Any, ...]]]:
    """Group id of each distinct row (ids in sorted key order, nulls last) and the keys."""
    columns = [[key_value(v) for v in counts.frame.get_column(k).to_list()] for k in keys]
    rows = list(zip(*columns, strict=True)) if columns else []
    distinct = sorted(set(rows), key=lambda row: tuple((v is None, v) for v in row))
    position = {row: i for i, row in enumerate(distinct)}
    return np.array([position[row] for row in rows], dtype=np.int64), distinct


def result_frame(
    data: FrameInput,
    eager_backend: Any,
    keys: list[str],
    key_rows: list[tuple[Any, ...]],
    stats: dict[str, list[Any]],
) -> Any:
    """The per-group statistics as a frame of the caller's library."""
    import narwhals as nw

    columns: dict[str, list[Any]] = {k: [row[i] for row in key_rows] for i, k in enumerate(keys)}
    columns.update(stats)
    schema = {k: data.schema[k] for k in keys}
    schema["n"] = (
        nw.Int64() if isinstance(stats["n"][0] if stats["n"] else 0, int) else nw.Float64()
    )
    for name in STAT_COLUMNS[1:]:
        schema[name] = nw.Float64()
    if not data.lazy and data.frame.implementation.is_pandas():
        # Built directly (narwhals' from_dict casts column by column: ~9 ms for 1,000 groups).
        # Each key column keeps the caller's own pandas dtype: narwhals would map an integer
        # key to numpy int64, which cannot hold a null key (pandas nullable Int64 with NA).
        pd = sys.modules["pandas"]
        native = data.frame.to_native()
        body = {name: pd.array(columns[name], dtype=native[name].dtype) for name in keys}
        body["n"] = np.asarray(stats["n"], dtype=np.int64 if schema["n"] == nw.Int64() else None)
        for name in STAT_COLUMNS[1:]:
            body[name] = np.asarray(stats[name], dtype=np.float64)
        return pd.DataFrame(body)
    result = nw.from_dict(columns, schema=schema, backend=eager_backend)
    if not data.lazy:
        return result.to_native()
    implementation = data.frame.implementation
    session = None
    if implementation.is_pyspark():
        session = data.frame.to_native().sparkSession
    with quiet_dask_notice():
        return result.lazy(backend=implementation, session=session).to_native()
