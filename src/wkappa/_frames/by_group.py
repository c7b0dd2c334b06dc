"""The steps of :func:`wkappa.frames.kappa_by_group`: its options, the (G, K, K) tables of the
groups (in this process or in the engine) and the per-group columns of the result.

The frames engine knows only the core: the cluster-robust variance (a statistic of
``wkappa._stats``) is passed in by the caller.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core import (
    Request,
    ZeroDivision,
    check_choice,
    format_value,
    is_missing_scalar,
    kappas,
    missing_id_error,
    t_ppf,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from . import grouped_tables
from .count import FrameInput
from .pair_tables import core_columns, engine_group_tables, labels_for, no_empty_table

__all__ = [
    "CI_METHODS",
    "check_group_options",
    "clustered_group_columns",
    "group_columns",
    "group_names",
    "tables_of_groups",
]

CI_METHODS = ("asymptotic", "score", "fisher-z")

ClusterVariance = Callable[[np.ndarray, np.ndarray], tuple[float, float, int]]


def check_group_options(method: Any, cluster: Any, keys: list[str]) -> None:
    """Refuse an unknown ``method``, and a ``cluster`` that is not a column name apart from
    ``by`` or that comes with a small-sample interval."""
    check_choice(
        method,
        "method",
        CI_METHODS,
        hint="Hint: bootstrap intervals are per result: "
        "wk.kappa_test_from_table(table).confidence_interval(method=wk.BootstrapMethod()).",
    )
    if cluster is None:
        return
    if method != "asymptotic":
        raise WkappaError(
            f"`method` must be 'asymptotic' with `cluster`; got {format_value(method)}."
            " Hint: the score and Fisher-z intervals treat the pairs as independent."
        )
    if not isinstance(cluster, str):
        raise WkappaError(f"`cluster` must be a column name; got {format_value(cluster)}.")


def group_names(keys: Sequence[str], key_rows: Sequence[Sequence[Any]]) -> tuple[list[str], str]:
    """How a warning about some of the groups names them: each group's key ("'b'", or
    "('b', 2)" for several ``by`` columns) and the grouping ("by='prompt'")."""
    if len(keys) == 1:
        return [format_value(row[0]) for row in key_rows], f"by={keys[0]!r}"
    return [format_value(tuple(row)) for row in key_rows], f"by={list(keys)!r}"


def tables_of_groups(
    data: FrameInput,
    y_true: str,
    y_pred: str,
    keys: list[str],
    request: Request,
    *,
    cluster: str | None = None,
) -> tuple[grouped_tables.GroupTables, Any]:
    """The tables of every group of ``keys`` (an empty (G, 0, 0) stack becomes (G, 1, 1)) and
    the eager backend for the result frame; ``cluster``, the last of ``keys`` when given,
    must have no missing id.

    An eager frame with numeric (or ordered categorical) ratings is counted in this process
    when :func:`~wkappa._frames.grouped_tables.in_memory_group_tables` takes it; anything else
    by one ``group_by`` in the engine.
    """
    request = labels_for(data, request)
    grouped = None
    # weights are summed exactly by the engine's group-by (the same bits on every engine)
    if request.sample_weight is None and core_columns(data, y_true, y_pred):
        options = request.encode_options()
        del options["sample_weight"]
        grouped = grouped_tables.in_memory_group_tables(
            data,
            y_true,
            y_pred,
            request.sample_weight,
            keys,
            **options,
            ordered=request.ordered,
            propagate=request.propagate,
        )
    if grouped is None:
        grouped, backend = engine_group_tables(data, y_true, y_pred, keys, request)
    else:
        backend = data.frame.implementation
    if cluster is not None and any(is_missing_scalar(row[-1]) for row in grouped.key_rows):
        raise missing_id_error("`cluster`", cluster)
    return dataclasses.replace(grouped, tables=no_empty_table(grouped.tables)), backend


def group_columns(
    grouped: grouped_tables.GroupTables,
    keys: Sequence[str],
    kappa: np.ndarray,
    limits: tuple[np.ndarray, np.ndarray, np.ndarray],
    zero_division: ZeroDivision,
    integer: bool,
) -> dict[str, list[Any]]:
    """The result's columns ``n``, ``kappa``, ``standard_error``, ``ci_low``, ``ci_high``.

    ``limits`` are the standard errors and the interval's limits. A group whose kappa is
    undefined follows ``zero_division`` (one warning naming how many groups); a group with a
    missing rating under 'propagate' (``grouped.stale``) is nan throughout.
    """
    tables, key_rows, stale = grouped.tables, grouped.key_rows, grouped.stale
    kappa = kappa.copy()
    undefined = np.isnan(kappa) & ~stale
    if undefined.any():
        first = key_rows[int(np.flatnonzero(undefined)[0])]
        where = dict(zip(keys, first, strict=True))
        if zero_division == "raise":
            raise WkappaError(
                f"Kappa is undefined in the group {where}: sum(W*E) is 0. "
                "Hint: zero_division='warn' returns nan instead."
            )
        if zero_division == "warn":
            warn_at_caller(
                f"Kappa is undefined in {int(undefined.sum())} of {len(key_rows)} group(s), "
                f"e.g. {where}: sum(W*E) is 0 (one category used by both raters, or no rating "
                "left). Their kappa is nan.",
                UndefinedKappaWarning,
            )
        else:
            kappa[undefined] = float(zero_division)
    totals = tables.sum(axis=(1, 2))
    standard_error, ci_low, ci_high = limits
    return {
        "n": totals.tolist() if integer else totals.astype(np.float64).tolist(),
        "kappa": np.where(stale, np.nan, kappa).tolist(),
        "standard_error": np.where(stale, np.nan, standard_error).tolist(),
        "ci_low": np.where(stale, np.nan, ci_low).tolist(),
        "ci_high": np.where(stale, np.nan, ci_high).tolist(),
    }


def clustered_group_columns(
    grouped: grouped_tables.GroupTables,
    matrix: np.ndarray,
    level: float,
    integer: bool,
    cluster_variance: ClusterVariance,
) -> tuple[dict[str, list[Any]], list[tuple[Any, ...]], np.ndarray]:
    """Per-group columns from (group, cluster) tables: the cluster-robust standard error of
    each group over its clusters (the last key), as ``wk.kappa_test(..., cluster=...)``, the
    groups' keys and their tables summed over their clusters (G, K, K).

    ``cluster_variance(tables, matrix)`` gives the kappa of the summed tables, its variance
    and the number of clusters (``wkappa._stats.cluster_variance``).
    """
    tables, stale = grouped.tables, grouped.stale
    members: dict[tuple[Any, ...], list[int]] = {}
    for index, row in enumerate(grouped.key_rows):
        members.setdefault(tuple(row[:-1]), []).append(index)
    stats: dict[str, list[Any]] = {
        key: [] for key in ("n", "kappa", "standard_error", "ci_low", "ci_high", "n_clusters")
    }
    sums = []
    for rows in members.values():
        stack = tables[rows]
        total = stack.sum(axis=0)
        sums.append(total)
        with np.errstate(invalid="ignore", divide="ignore"):
            kappa = float(kappas(total, matrix))
        _, variance, n_clusters = cluster_variance(stack, matrix)
        se = math.sqrt(variance) if math.isfinite(variance) else math.nan
        half = t_ppf(0.5 + level / 2.0, n_clusters - 1.0) * se if n_clusters > 1 else math.nan
        if bool(stale[rows].any()):
            kappa = se = half = math.nan
        stats["n"].append(int(total.sum()) if integer else float(total.sum()))
        stats["kappa"].append(kappa)
        stats["standard_error"].append(se)
        stats["ci_low"].append(kappa - half)
        stats["ci_high"].append(kappa + half)
        stats["n_clusters"].append(n_clusters)
    return stats, list(members), np.stack(sums) if sums else tables[:0]
