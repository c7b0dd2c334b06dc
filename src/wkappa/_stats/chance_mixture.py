"""The disagreement variance of the chance-mixture model, for the 'fisher-z-adjusted' interval
of several raters' coefficients.

Model (the classical kappa model): each item is, with probability ``theta``, rated at random
by every rater from the prevalence ``pi``; otherwise all its raters agree. An item rated by r
raters then has the disagreement ``d = 0`` or the mean weighted disagreement of its
``P = r (r - 1) / 2`` rater pairs drawn at random. The model is fitted by its mean,
``theta = D_o / D`` (``D_o`` the observed mean disagreement, ``D = pi' W pi``), and its
variance of ``d`` is ``theta E[d² | chance] - D_o²`` with

    E[d² | chance, r] = (S2 + 2 (r - 2) S1 + (r - 2) (r - 3) / 2 D²) / P,
    S2 = sum_kl pi_k pi_l W_kl²,  S1 = sum_k pi_k (W pi)_k²

(W symmetrised: pairs sharing both raters, one rater, or none). Unlike the items' own
spread, this variance knows every large disagreement the prevalence allows, including those
a small sample happens to lack.
"""

from __future__ import annotations

import numpy as np

from .._core import weighted_sums

__all__ = ["mixture_disagreement_variance"]


def mixture_disagreement_variance(
    patterns: np.ndarray, multiplicity: np.ndarray, weights: np.ndarray
) -> float:
    """The chance-mixture model's variance of one item's disagreement ``d``.

    Parameters
    ----------
    patterns : ndarray of shape (m, K)
        Distinct items x categories count rows.
    multiplicity : ndarray of shape (m,)
        Items per row.
    weights : ndarray of shape (K, K)
        Disagreement weights W.

    Returns
    -------
    float
        ``max(0, theta mean_i E[d² | chance, r_i] - D_o²)`` over the items with two ratings
        or more, ``theta = min(1, D_o / D)``; 0 when ``D = 0`` (nothing can disagree).
    """
    counts = patterns.astype(np.float64)
    used = multiplicity.astype(np.float64)
    totals = counts.sum(axis=1)
    rated = totals >= 1
    # Fleiss' prevalence: the mean over rated items of each item's category shares.
    # Elementwise products and sums, no matrix product: BLAS rounds by the CPU's kernel.
    pi = weighted_sums(used[rated], counts[rated] / totals[rated, None]) / used[rated].sum()
    w = (weights + weights.T) / 2.0
    w_pi = (w * pi).sum(axis=1)  # w is symmetric
    chance = float((pi * w_pi).sum())
    two = totals >= 2
    if chance <= 0.0 or not two.any():
        return 0.0
    r, n2 = totals[two], used[two]
    pairs = r * (r - 1.0) / 2.0
    # d_i: the mean disagreement of the item's ordered pairs of distinct raters.
    ordered = np.einsum("ik,kl,il->i", counts[two], w, counts[two])
    ordered = ordered - (counts[two] * np.diag(w)).sum(axis=1)
    observed = float((n2 * (ordered / (2.0 * pairs))).sum()) / float(n2.sum())
    s1 = float((pi * w_pi**2).sum())
    s2 = float((pi * ((w * w) * pi).sum(axis=1)).sum())
    second = (s2 + 2.0 * (r - 2.0) * s1 + (r - 2.0) * (r - 3.0) / 2.0 * chance**2) / pairs
    theta = min(1.0, observed / chance)
    return max(0.0, theta * float((n2 * second).sum()) / float(n2.sum()) - observed**2)
