"""Clustered and stratified ratings: group ids, per-group tables and the cluster-robust
(sandwich) variance of kappa.

Items in one cluster (both eyes of a patient, the lesions of one scan, the prompts of one
task) are not independent, so the multinomial variance of :func:`wkappa._core.variances`
understates the uncertainty. Everything here works on a stack of per-cluster K x K tables
``(G, K, K)``: their sum is the usual table (so the point estimate does not change), and the
cluster-robust variance, the cluster bootstrap and the cluster jackknife need nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import (
    EncodedRatings,
    NanPolicy,
    check_table_size,
    encode_ratings,
    format_value,
    kappas,
    missing_id_error,
    to_column,
    variances,
    warn_at_caller,
)
from ..exceptions import FewClustersWarning, WkappaError
from . import bootstrap
from .resampling import DrawSums

__all__ = [
    "MIN_CLUSTERS",
    "Grouped",
    "cluster_bootstrap_kappas",
    "cluster_jackknife",
    "cluster_variance",
    "encode_grouped",
    "few_clusters_text",
    "group_tables",
    "influence_table",
    "read_groups",
    "warn_few_clusters",
    "warn_single_cluster_groups",
]

# Below this many clusters every cluster interval (the t(G - 1) sandwich, the cluster
# bootstrap, the paired and panel bootstraps) covers visibly less than its level:
# benchmarks/few_clusters_study.py and the user guide's "Clustered and stratified designs".
MIN_CLUSTERS = 8


def read_groups(
    ids: Any,
    n: int,
    name: str,
    *,
    unit: str = "rating pair",
    like: str = "`y_true`",
    keep: np.ndarray | None = None,
) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Integer codes ``0..G-1`` of n group ids, and the G ids in sorted (or first-seen) order.

    Raises a WkappaError naming ``name`` for a length other than n or a missing id; ``unit``
    (what has an id) and ``like`` (what ``ids`` must be as long as) word the message.
    ``keep`` (a mask of the n positions; None: all) gives the codes of those positions only:
    the ids of the others (pairs or items dropped for missing ratings) do not matter.
    """
    _refuse_composite(ids, name, unit)
    column = to_column(ids, name)
    values = column.values
    if values.ndim != 1 or len(values) != n:
        raise WkappaError(
            f"`{name}` must have one id per {unit}: {n} {unit}s, got {len(values)} ids. "
            f"Hint: pass `{name}` as a column of the same length as {like}."
        )
    missing = column.missing
    if keep is not None:
        positions = np.flatnonzero(keep)
        values = values[positions]
        missing = None if missing is None else missing[positions]
    if missing is not None and bool(missing.any()):
        first = int(np.flatnonzero(missing)[0])
        first = first if keep is None else int(positions[first])
        raise missing_id_error(f"`{name}`", position=first, unit=unit)
    if column.categories is not None:
        used, codes = np.unique(values.astype(np.int64), return_inverse=True)
        names = tuple(column.categories[int(i)] for i in used)
        return codes.reshape(-1).astype(np.intp), names
    try:
        names_array, codes = np.unique(values, return_inverse=True)
        return codes.reshape(-1).astype(np.intp), tuple(names_array.tolist())
    except TypeError:  # mixed kinds that do not sort: first-seen order
        seen: dict[Any, int] = {}
        codes = np.fromiter((seen.setdefault(v, len(seen)) for v in values), np.intp, len(values))
        return codes, tuple(seen)


def _refuse_composite(ids: Any, name: str, unit: str) -> None:
    """Refuse ids of several parts per row (a 2-D array, a frame, a list of tuples): one
    key per row is needed, and ``.ravel()`` would make two ids of every row."""
    shape = getattr(ids, "shape", None)
    if shape is None and isinstance(ids, (list, tuple)) and len(ids) > 0:
        first = ids[0]
        if isinstance(first, (list, tuple)):
            shape = (len(ids), len(first))
    if shape is not None and len(shape) == 2 and shape[1] > 1:
        raise WkappaError(
            f"`{name}` must be 1-D, one id per {unit}; got shape {tuple(shape)}, several "
            f"parts per {unit}. Hint: join each {unit}'s parts into one key, for example "
            '[f"{patient}/{eye}" for patient, eye in ids], or one string column in a frame.'
        )


class Grouped(NamedTuple):
    """Encoded ratings with the group code of every kept pair."""

    encoded: EncodedRatings
    codes: np.ndarray  # (n_kept,) in 0..G-1
    names: tuple[Any, ...]  # the G group ids


def encode_grouped(
    y_true: Any,
    y_pred: Any,
    ids: Any,
    name: str,
    *,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    sample_weight: Any,
    nan_policy: NanPolicy,
    ordered: bool,
    propagate: bool = True,
) -> Grouped:
    """Encode two raters' ratings once (one set of categories for every group) and keep each
    pair's group; pairs dropped by ``nan_policy='omit'`` drop their ids too (``propagate``:
    whether the caller takes 'propagate', for the hint of a missing rating)."""
    true_col = to_column(y_true, "y_true")
    n = len(true_col.values)
    pred_col = to_column(y_pred, "y_pred")
    keep = None
    if nan_policy == "omit" and len(pred_col.values) == n:  # else a refusal below
        missing = np.zeros(n, dtype=bool)
        for column in (true_col, pred_col):
            if column.missing is not None:
                missing |= column.missing
        keep = ~missing if missing.any() else None
    codes, names = read_groups(ids, n, name, keep=keep)
    encoded = encode_ratings(
        y_true,
        y_pred,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=sample_weight,
        nan_policy=nan_policy,
        ordered=ordered,
        propagate=propagate,
    )
    assert encoded is not None  # 'propagate' is refused by the callers
    assert len(codes) == len(encoded.true_index)  # the omitted pairs' ids are left out
    return Grouped(encoded, codes, names)


def group_tables(grouped: Grouped) -> np.ndarray:
    """The (G, K, K) stack of per-group tables (int64 counts, float64 with sample weights)."""
    encoded = grouped.encoded
    k = encoded.n_categories
    check_table_size(k)
    n_groups = len(grouped.names)
    flat = (grouped.codes * k + encoded.true_index) * k + encoded.pred_index
    size = n_groups * k * k
    if encoded.sample_weight is None:
        counts = np.bincount(flat, minlength=size).astype(np.int64)
    else:
        counts = np.bincount(flat, weights=encoded.sample_weight, minlength=size)
    return counts.reshape(n_groups, k, k)


def check_clusters(tables: np.ndarray, name: str = "cluster") -> int:
    """The number of clusters holding at least one pair; a WkappaError below two."""
    sizes = np.asarray(tables, dtype=np.float64).sum(axis=(1, 2))
    used = int(np.count_nonzero(sizes > 0))
    if used < 2:
        raise WkappaError(
            f"`{name}` must have at least 2 clusters with ratings to estimate a cluster-robust "
            f"standard error; got {used}. Hint: without clustering, leave `{name}` out."
        )
    return used


def warn_single_cluster_groups(groups: str, several: bool, cluster_option: str) -> None:
    """A :class:`~wkappa.exceptions.FewClustersWarning`, pointing at the user's line, that
    ``groups`` (the groups, in the words that begin the warning; ``several``: more than one)
    each have a single cluster of ``cluster_option`` (the clustering as the caller spells it),
    so that their standard error, interval and test are undefined while their kappa is shown."""
    each, whose = (" each", "their") if several else ("", "its")
    warn_at_caller(
        f"{groups} {'have' if several else 'has'} a single {cluster_option} cluster{each}; a "
        f"cluster-robust standard error needs at least 2, so {whose} standard error, interval "
        f"and test are undefined ({whose} kappa is shown).",
        FewClustersWarning,
    )


def warn_few_clusters(
    n_clusters: int | Sequence[int],
    *,
    resampled: bool = False,
    names: Sequence[str] | None = None,
) -> None:
    """A :class:`~wkappa.exceptions.FewClustersWarning`, pointing at the user's line, when a
    clustered result has 2 to ``MIN_CLUSTERS - 1`` clusters (one cluster is an error or an
    undefined standard error, not this warning).

    ``n_clusters`` is one result's G, or the G of each of several groups (one warning naming
    how many have few clusters; with ``names``, the groups' names, it names them too, five at
    most). ``resampled``: the result is a cluster bootstrap (``paired_kappa_test``,
    ``rater_vs_panel``) rather than the cluster-robust standard error.
    """
    single = not isinstance(n_clusters, Sequence)
    counts = list(n_clusters) if isinstance(n_clusters, Sequence) else [int(n_clusters)]
    few = sorted(g for g in counts if 2 <= g < MIN_CLUSTERS)
    if not few:
        return
    fewest = few[0]
    resamples = f"{math.comb(2 * fewest - 1, fewest):,} distinct resamples of {fewest} clusters"
    if single:
        subject = f"Only {fewest} clusters"
    else:
        span = f"{fewest}" if fewest == few[-1] else f"{fewest} to {few[-1]}"
        named = ""
        if names is not None:
            which = [repr(n) for n, g in zip(names, counts, strict=True) if 2 <= g < MIN_CLUSTERS]
            more = f" and {len(which) - 5} more" if len(which) > 5 else ""
            named = f" ({', '.join(which[:5])}{more})"
        subject = f"{len(few)} of {len(counts)} groups{named} have only {span} clusters"
    if resampled:
        why = (
            f"the cluster bootstrap has only {resamples}, and with fewer than {MIN_CLUSTERS} "
            "clusters its interval and p-value cover less than their level says"
        )
    else:
        freedom = "1 degree" if fewest == 2 else f"{fewest - 1} degrees"
        why = (
            f"with fewer than {MIN_CLUSTERS} clusters the cluster-robust interval and p-value "
            f"(t with {freedom} of freedom) cover less than their level says"
        )
        if single:  # one result, whose intervals include the cluster bootstrap
            why += f", and a cluster bootstrap has only {resamples}"
    warn_at_caller(
        f"{subject}: {why}. Hint: use {MIN_CLUSTERS} or more clusters, or report the "
        "number of clusters beside the result.",
        FewClustersWarning,
    )


def few_clusters_text(n_clusters: int | None) -> str | None:
    """The explanations' line about 2 to ``MIN_CLUSTERS - 1`` clusters (None otherwise)."""
    if n_clusters is None or not 2 <= n_clusters < MIN_CLUSTERS:
        return None
    distinct = math.comb(2 * n_clusters - 1, n_clusters)
    return (
        f"Very few clusters (G = {n_clusters} < {MIN_CLUSTERS}): the cluster intervals and "
        f"p-values cover less than their level says, and a cluster bootstrap has only "
        f"{distinct:,} distinct resamples; collect more clusters, or report G beside the result."
    )


def influence_table(table: np.ndarray, weights: np.ndarray) -> tuple[float, np.ndarray]:
    """Kappa of a K x K table and the influence of one pair in each cell, shape (K, K).

    With ``p = O / n``, margins ``r``, ``c``, ``w = W c``, ``v = r^T W``, ``D_e = r^T W c``
    and ``h_ij = W_ij - (1 - kappa)(w_i + v_j)``, adding a pair in cell (i, j) moves kappa by
    ``IF_ij / n`` to first order, with ``IF_ij = -(h_ij - sum(p h)) / D_e``; ``sum(p IF) = 0``
    and ``sum(p IF²) / n`` is the Fleiss-Cohen-Everitt variance.
    """
    counts = np.asarray(table, dtype=np.float64)
    p = counts / counts.sum()
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    # Elementwise products and sums, no matrix product: BLAS rounds by the CPU's kernel.
    w_row = (weights * cols).sum(axis=1)
    w_col = (np.ascontiguousarray(weights.T) * rows).sum(axis=1)
    d_e = float((rows * w_row).sum())
    if not d_e > 0.0:  # undefined kappa (an empty table or a single category)
        return float("nan"), np.full(counts.shape, np.nan)
    kappa = 1.0 - float(np.sum(weights * p)) / d_e
    h = weights - (1.0 - kappa) * (w_row[:, None] + w_col[None, :])
    return kappa, -(h - float(np.sum(p * h))) / d_e


def cluster_variance(tables: np.ndarray, weights: np.ndarray) -> tuple[float, float, int]:
    """Kappa of the summed table, its cluster-robust variance and the number of clusters.

    Parameters
    ----------
    tables : ndarray of shape (G, K, K)
        One table per cluster (empty clusters are ignored).
    weights : ndarray of shape (K, K)
        Disagreement weights W.

    Returns
    -------
    kappa, variance : float
        nan when kappa of the summed table is undefined.
    n_clusters : int
        Clusters with at least one pair, G.

    Notes
    -----
    The delta-method (linearisation) variance with the clusters as the independent units
    (the sandwich estimator; Obuchowski 1998, Yang & Zhou 2014/2015, Vanbelle 2017): with
    the influence ``IF`` of :func:`influence_table` and the cluster totals
    ``U_g = sum_ij O_gij IF_ij`` (which sum to 0),

    .. math::

        \\widehat{\\operatorname{Var}}_{cl}(\\hat\\kappa)
        = \\frac{G}{G - 1} \\, \\frac{1}{n^2} \\sum_g U_g^2 .

    ``G / (G - 1)`` is the usual finite-sample factor of cluster-robust variances. The
    variance does not change when every table is multiplied by the same number (the scale of
    sample weights cancels). With one unweighted pair per cluster
    ``sum_g U_g² = n sum_ij p_ij IF_ij²``, so the cluster variance is the
    Fleiss-Cohen-Everitt variance times ``n / (n - 1)``; with one weighted pair per cluster
    it is not (``U_g`` is the pair's weight times its influence).
    """
    stack = np.asarray(tables, dtype=np.float64)
    sizes = stack.sum(axis=(1, 2))
    stack = stack[sizes > 0]
    n_clusters = stack.shape[0]
    total = stack.sum(axis=0)
    n = float(total.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa, influence = influence_table(total, weights)
    if not np.isfinite(kappa) or n_clusters < 2:
        return kappa if np.isfinite(kappa) else float("nan"), float("nan"), n_clusters
    if variances(total, weights, kappa)[0] == 0.0:
        # The summed table's variance is exactly 0 (its rounding noise removed) only when
        # every pair has the same influence, which sums to 0 (one rater constant, say): then
        # every U_g is 0 too, and so is this variance, not the 1e-34 its sums round to (a t
        # of 0 and a p of 1 that would be made up).
        return kappa, 0.0, n_clusters
    # U_g / n from the clusters' shares of the total weight: no U_g² or n² to overflow or
    # underflow, whatever the scale of the sample weights.
    totals = (stack / n * influence).sum(axis=(1, 2))
    variance = n_clusters / (n_clusters - 1) * float((totals * totals).sum())
    return kappa, variance, n_clusters


def cluster_bootstrap_kappas(
    tables: np.ndarray, weights: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """B kappas of tables made by drawing G clusters with replacement, shape (B,).

    A replicate is ``sum_g m_g O_g`` with ``m ~ Multinomial(G, 1/G)``: O(B G K²), whatever
    the number of pairs.
    """
    stack = np.asarray(tables, dtype=np.float64)
    stack = stack[stack.sum(axis=(1, 2)) > 0]
    n_clusters, k = stack.shape[0], stack.shape[-1]
    flat = stack.reshape(n_clusters, k * k)
    probabilities = np.full(n_clusters, 1.0 / n_clusters)
    replicate_tables = DrawSums(flat, n_clusters)  # the same on every CPU
    parts = []
    for size in bootstrap.chunk_sizes(n_resamples, n_clusters + k * k):
        draws = rng.multinomial(n_clusters, probabilities, size=size).astype(np.float64)
        replicates = replicate_tables(draws).reshape(size, k, k)
        with np.errstate(invalid="ignore", divide="ignore"):
            parts.append(np.asarray(kappas(replicates, weights), dtype=np.float64).reshape(-1))
    return np.concatenate(parts)


def cluster_jackknife(tables: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-cluster-out kappas, shape (G,) (nan where undefined), and their
    multiplicities (ones: each cluster is left out once), as BCa takes them."""
    stack = np.asarray(tables, dtype=np.float64)
    stack = stack[stack.sum(axis=(1, 2)) > 0]
    left = stack.sum(axis=0)[None] - stack
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.asarray(kappas(left, weights), dtype=np.float64).reshape(-1)
    return values, np.ones_like(values)


def describe_groups(names: Sequence[Any], limit: int = 3) -> str:
    """A short list of group ids for messages."""
    shown = ", ".join(format_value(name) for name in list(names)[:limit])
    return shown + (", ..." if len(names) > limit else "")
