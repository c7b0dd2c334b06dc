"""Several raters' agreement on clustered items: the cluster-robust version of Gwet's
linearised variance (``agreement(..., cluster=ids)``).

Items of one cluster (the lesions of one scan, the prompts of one task) are not independent.
Gwet's linearised variance is the variance of the mean of per-item terms ``x_i``; with
clusters, the terms are summed per cluster first. The compact state of the point estimate
merges equal items of different clusters, so the terms are computed here on the distinct
(rating row, cluster) pairs: a term depends on its item's ratings and on totals over all
items only, so these are the same terms item by item.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._core import conger_features, distinct_rows, features, linearized_terms, rows_to_counts
from ..exceptions import WkappaError
from .agreement_build import agreement_pvalue
from .agreement_result import AgreementResult
from .agreement_state import State, point_estimate
from .cluster import check_clusters, read_groups, warn_few_clusters

__all__ = ["agreement_cluster_variance", "clustered_agreement"]


def agreement_cluster_variance(
    coefficient: str,
    matrix: np.ndarray,
    codes: np.ndarray,
    groups: np.ndarray,
    n_raters: int,
) -> tuple[float, int, np.ndarray]:
    """The cluster-robust variance of a coefficient, the number of clusters G and the
    clusters' feature sums.

    Parameters
    ----------
    coefficient : str
    matrix : ndarray of shape (K, K)
        Disagreement weights W.
    codes : ndarray of shape (n, R)
        Category codes of every item (``-1`` = missing); items without a rating are ignored.
    groups : ndarray of shape (n,)
        Cluster codes ``0..G-1`` of the items.
    n_raters : int

    Returns
    -------
    variance : float
    n_clusters : int
        Clusters with at least one item that enters the variance (for Krippendorff's alpha,
        an item with two ratings or more).
    cluster_sums : ndarray of shape (G, p)
        The feature sums (:func:`wkappa._core.features`, or ``conger_features``) of the items
        of each of the G clusters: the coefficient of any reweighting of
        the clusters is ``coefficient_from_sums`` of ``weights @ cluster_sums`` (the cluster
        bootstrap and jackknife).

    Notes
    -----
    With Gwet's linearised terms ``x_i`` (:func:`wkappa._core.linearized_terms`), their
    centre ``c`` and the cluster totals ``U_g = sum_{i in g} (x_i - c)`` over the n items
    that enter Gwet's variance,

    .. math::

        \\widehat{\\operatorname{Var}}_{cl} = \\frac{G}{G - 1} \\frac{1}{n^2} \\sum_g U_g^2 .

    With one item per cluster (G = n) this is Gwet's variance
    ``sum_i (x_i - c)² / (n (n - 1))`` itself.
    """
    k = matrix.shape[0]
    keep = (codes >= 0).any(axis=1)
    combined = np.column_stack([codes[keep], groups[keep]]).astype(np.int64)
    distinct, multiplicity = distinct_rows(combined)
    rows, cluster_of = distinct[:, :-1], distinct[:, -1]
    patterns = rows_to_counts(rows, k)
    if coefficient == "conger":
        feature_rows = conger_features(rows, k, matrix)
    else:
        feature_rows = features(patterns, matrix)
    state = State(feature_rows, multiplicity, patterns, rows, multiplicity)
    estimate, _ = point_estimate(coefficient, matrix, state, n_raters)
    linear = linearized_terms(
        coefficient, feature_rows, multiplicity, matrix, estimate, patterns, rows
    )
    if coefficient == "krippendorff":  # its terms are those of the pairable items
        cluster_of = cluster_of[feature_rows[:, 1] > 0]
    assert len(cluster_of) == len(linear.terms)
    used = linear.multiplicity.astype(np.float64)
    n_groups = int(groups.max()) + 1 if groups.size else 0
    sizes = np.bincount(cluster_of, weights=used, minlength=n_groups)
    n_clusters = check_clusters(sizes[:, None, None])
    totals = np.bincount(
        cluster_of, weights=used * (linear.terms - linear.centre), minlength=n_groups
    )
    n = float(used.sum())
    variance = n_clusters / (n_clusters - 1.0) * float(totals @ totals) / (n * n)
    cluster_sums = np.zeros((n_groups, feature_rows.shape[1]))
    np.add.at(cluster_sums, distinct[:, -1], multiplicity[:, None] * feature_rows)
    return variance, n_clusters, cluster_sums[sizes > 0]


def clustered_agreement(
    result: AgreementResult, codes: np.ndarray, cluster: Any
) -> AgreementResult:
    """``result`` (of the items ``codes``) with the cluster-robust standard error, its
    p-value on t(G - 1) and ``n_clusters``."""
    rated = np.asarray((codes >= 0).any(axis=1))  # an item without ratings: its id is left out
    groups, _ = read_groups(
        cluster, len(codes), "cluster", unit="item", like="`ratings`' rows", keep=rated
    )
    if math.isnan(result.statistic) or result.n_items < 2:
        return dataclasses.replace(result, standard_error=math.nan, pvalue=math.nan)
    variance, n_clusters, cluster_sums = agreement_cluster_variance(
        result.coefficient, result.weight_matrix, codes[rated], groups, result.n_raters
    )
    warn_few_clusters(n_clusters)
    se = math.sqrt(max(0.0, variance))
    return dataclasses.replace(
        result,
        standard_error=se,
        pvalue=agreement_pvalue(
            result.statistic, se, n_clusters - 1, result.alternative, result.kappa0
        ),
        n_clusters=n_clusters,
        _cluster_sums=cluster_sums,
    )


def check_cluster_options(cluster: Any, population_size: Any) -> None:
    """A WkappaError for ``population_size`` together with ``cluster``."""
    if cluster is not None and population_size is not None:
        raise WkappaError(
            "`population_size` (the finite-population correction over items) cannot be "
            "combined with `cluster`. Hint: leave `population_size` out with clustered items."
        )
