"""Agreement coefficients of several raters, from compact sufficient statistics.

Notation (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed., ch. 2-5; his R package
irrCAC): n items, R raters, K categories, ``r_ik`` raters who put item i in category k,
``r_i = sum_k r_ik``, disagreement weights ``W`` (zero diagonal) and Gwet's *agreement* weights
``A = 1 - W``. Pairs of ratings of an item: ``d_i = r_i' W r_i`` is the weighted disagreement
summed over its ``r_i (r_i - 1)`` ordered pairs of different raters.

* Observed agreement over the ``n2`` items with ``r_i >= 2``:
  ``pa = (1/n2) sum_i [1 - d_i / (r_i (r_i - 1))]``.
* Category prevalence ``pi_k = (1/n) sum_i r_ik / r_i`` (items with at least one rating).
* Chance agreement ``pe``: Fleiss ``sum_kl A_kl pi_k pi_l``; Gwet AC1/AC2
  ``sum(A) / (K (K - 1)) * sum_k pi_k (1 - pi_k)``; Brennan-Prediger ``sum(A) / K²``; Conger
  ``sum_kl A_kl (pbar_k pbar_l - s²_kl / R)`` with ``p_gk`` rater g's share of category k,
  ``pbar_k`` its mean over raters and ``s²_kl`` the covariance over raters; percent
  agreement 0.
* Coefficient ``(pa - pe) / (1 - pe)``.
* Krippendorff's alpha keeps the items with two ratings or more (his pairable values):
  ``alpha = 1 - (N - 1) sum_i [d_i / (r_i - 1)] / (n' W n)`` with ``N`` the pairable ratings and
  ``n_k`` their category counts; Gwet writes it as ``(pa - pe) / (1 - pe)`` with
  ``pa = (1 - 1/N) pa' + 1/N``.

Each coefficient is a function of sums over items of per-item features (:func:`features`),
so one function (:func:`coefficient_from_sums`) serves the estimate, the jackknife (the sums
minus one item) and the bootstrap (sums under resampled multiplicities).
"""

from __future__ import annotations

import math
from typing import NamedTuple, get_args

import numpy as np

from .options import Coefficient
from .statistic import INT64_SAFE

__all__ = [
    "COEFFICIENTS",
    "Coefficient",
    "Estimate",
    "Linearized",
    "coefficient_from_sums",
    "conger_exact",
    "conger_features",
    "features",
    "linearized_terms",
    "rows_to_counts",
    "weighted_sums",
]

COEFFICIENTS: tuple[str, ...] = get_args(Coefficient)


class Estimate(NamedTuple):
    """Arrays of shape (B,): the coefficient (nan where undefined), pa, pe and ``1 - pe``."""

    statistic: np.ndarray
    percent_agreement: np.ndarray
    chance_agreement: np.ndarray
    chance_disagreement: np.ndarray


def weighted_sums(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``sum_i weights_i rows_i``: the (p,) sums of the rows of an (m, p) array, weighted.

    Elementwise products summed in a fixed order (row after row within blocks of
    ``_BLOCK`` rows, then block after block), not a matrix product: BLAS kernels round a
    product differently on different CPUs (AVX2 or AVX-512), and a standard error would
    change in its last digits with the machine. The products are laid out in C order, so
    the order does not depend on the memory layout of ``rows`` either.
    """
    rows = np.asarray(rows, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    out = np.zeros(rows.shape[1])
    for start in range(0, len(rows), _BLOCK):
        block = slice(start, start + _BLOCK)
        out += np.multiply(rows[block], weights[block, None], order="C").sum(axis=0)
    return out


# Rows per block of weighted_sums: bounds the temporary products and the rounding error.
_BLOCK = 1024


def _dot(left: np.ndarray, right: np.ndarray) -> float:
    """``left . right`` of two vectors, an elementwise product and a sum (no BLAS)."""
    return float((left * right).sum())


def _pair_terms(counts: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``r_i`` and ``d_i = r_i' W r_i`` of each row of an (m, K) count matrix."""
    totals = counts.sum(axis=1).astype(np.float64)
    c = counts.astype(np.float64)
    disagreement = np.einsum("ik,kl,il->i", c, weights, c)
    return totals, disagreement


def features(patterns: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-pattern features whose sums determine every coefficient but Conger's.

    Columns: ``1``, ``[r >= 2]``, ``[r >= 2] d_i / (r_i (r_i - 1))`` (the item's
    disagreement, ``1 - pa_i``), ``r_ik / r_i`` (K columns),
    ``[r >= 2] r_i``, ``[r >= 2] d_i / (r_i - 1)``, ``[r >= 2] r_ik`` (K columns).
    """
    m, k = patterns.shape
    totals, disagreement = _pair_terms(patterns, weights)
    has2 = totals >= 2
    pairs = np.where(has2, totals * (totals - 1.0), 1.0)
    out = np.zeros((m, 2 * k + 5))
    out[:, 0] = 1.0
    out[:, 1] = has2
    out[:, 2] = np.where(has2, disagreement / pairs, 0.0)
    out[:, 3 : 3 + k] = patterns / np.maximum(totals, 1.0)[:, None]
    out[:, 3 + k] = np.where(has2, totals, 0.0)
    out[:, 4 + k] = np.where(has2, disagreement / np.maximum(totals - 1.0, 1.0), 0.0)
    out[:, 5 + k :] = np.where(has2[:, None], patterns, 0.0)
    return out


def rows_to_counts(rows: np.ndarray, n_categories: int) -> np.ndarray:
    """Items x categories counts of a code matrix (``-1`` = missing)."""
    m = rows.shape[0]
    width = n_categories + 1
    flat = (np.arange(m, dtype=np.int64) * width)[:, None] + (rows + 1)
    counts = np.bincount(flat.ravel(), minlength=m * width).reshape(m, width)
    return counts[:, 1:]


def conger_features(rows: np.ndarray, n_categories: int, weights: np.ndarray) -> np.ndarray:
    """Per-row features of Conger's kappa: the first three of :func:`features` and the
    one-hot (rater, category) of every rating (R K columns, rater-major)."""
    m, n_raters = rows.shape
    k = n_categories
    counts = rows_to_counts(rows, k)
    base = features(counts, weights)
    out = np.zeros((m, 3 + n_raters * k))
    out[:, :3] = base[:, :3]
    for g in range(n_raters):
        rated = rows[:, g] >= 0
        out[np.flatnonzero(rated), 3 + g * k + rows[rated, g]] = 1.0
    return out


# Exact Conger: at most this many distinct per-rater rating totals (their pairs are the
# fractions summed); int64 sums kept below INT64_SAFE (2**62); Python-int products over the
# count patterns for other matrices up to this many.
_EXACT_TOTALS = 64
_EXACT_OBJECT_CELLS = 200_000


def _integer_form(weights: np.ndarray) -> np.ndarray:
    """Integers D (Python ints, object array) with ``W = D / L`` exactly: every float is a
    dyadic rational, so L is the largest power of two among the entries' denominators."""
    from fractions import Fraction  # on first use: ``import wkappa`` stays light

    fractions = [Fraction(float(w)) for w in weights.ravel()]
    scale = max(f.denominator for f in fractions)
    out = np.empty(weights.shape, dtype=object)
    out.ravel()[:] = [f.numerator * (scale // f.denominator) for f in fractions]
    return out


def conger_exact(
    rows: np.ndarray,
    multiplicity: np.ndarray,
    patterns: np.ndarray,
    pattern_counts: np.ndarray,
    weights: np.ndarray,
    integer: np.ndarray | None = None,
) -> float | None:
    """Conger's kappa in exact rational arithmetic, finished with one correctly rounded
    division; None when it does not apply (the caller keeps the float value).

    Parameters
    ----------
    rows : ndarray of shape (m, R), int64
        Distinct code rows (``-1`` = missing); every rater has a rating.
    multiplicity : ndarray of shape (m,), int64
    patterns, pattern_counts : ndarray of shape (p, K) and (p,), int64
        The distinct items x categories count rows of ``rows`` and their multiplicities.
    weights : ndarray of shape (K, K)
        Disagreement weights W (float64; each entry is an exact dyadic rational).
    integer : ndarray of shape (K, K), int64, optional
        Integer weights D with ``W = D / scale`` when known (named weights); kappa does not
        depend on the scale.

    Returns
    -------
    float or None
        nan when the chance disagreement is not positive.

    Notes
    -----
    With ``c_g`` rater g's category counts over its ``n_g`` ratings, Conger's chance
    disagreement ``sum_kl W_kl (pbar_k pbar_l - s²_kl / R)`` equals the mean over ordered
    pairs of different raters of ``c_g' W c_h / (n_g n_h)``, and the observed disagreement
    is ``(1/n2) sum_i d_i / (r_i (r_i - 1))``; both are ratios of integers once W is
    written as integers over one scale. For two raters without missing ratings and a
    symmetric W this is the rational number :func:`wkappa.weighted_kappa` computes, so with
    named weights the two agree bit for bit.
    """
    from fractions import Fraction  # on first use: ``import wkappa`` stays light

    n_raters = rows.shape[1]
    k = weights.shape[0]
    n_items = int(multiplicity.sum())
    totals = patterns.sum(axis=1)
    top = int(integer.max()) if integer is not None and integer.size else -1
    if integer is not None and 0 <= top and n_raters**2 * top * max(n_items, 1) < INT64_SAFE:
        d: np.ndarray = integer
        within = np.einsum("ik,kl,il->i", patterns, integer, patterns)  # below R² max(D)
        weighted = pattern_counts * within  # sums below n R² max(D)
    elif patterns.shape[0] * k * k <= _EXACT_OBJECT_CELLS:
        d = _integer_form(weights)
        objects = patterns.astype(object)
        weighted = pattern_counts.astype(object) * ((objects @ d) * objects).sum(axis=1)
    else:
        return None
    observed = Fraction(0)
    n2 = 0
    for r in np.unique(totals[totals >= 2]).tolist():
        chosen = np.flatnonzero(totals == r)
        observed += Fraction(int(weighted[chosen].sum()), r * (r - 1))
        n2 += int(pattern_counts[chosen].sum())
    if n2 == 0:
        return None
    observed /= n2
    if n_items >= 2**53:  # bincount adds in float64: exact below 2**53
        return None
    rater_counts = np.zeros((n_raters, k), dtype=np.int64)
    for g in range(n_raters):
        rated = rows[:, g] >= 0
        sums = np.bincount(rows[rated, g], weights=multiplicity[rated], minlength=k)
        rater_counts[g] = np.rint(sums).astype(np.int64)
    rater_counts = rater_counts[rater_counts.sum(axis=1) > 0]  # raters with ratings
    n_raters = len(rater_counts)
    if n_raters < 2:
        return None
    n_g = rater_counts.sum(axis=1)
    distinct, group = np.unique(n_g, return_inverse=True)
    if len(distinct) > _EXACT_TOTALS:
        return None
    c = rater_counts.astype(object)  # Python ints: exact at any size
    cross = c @ d.astype(object) @ c.T
    grouped = [[0] * len(distinct) for _ in distinct]
    for g in range(n_raters):
        for h in range(n_raters):
            if g != h:
                grouped[group[g]][group[h]] += cross[g, h]
    chance = Fraction(0)
    for a, u in enumerate(distinct.tolist()):
        for b, v in enumerate(distinct.tolist()):
            chance += Fraction(grouped[a][b], u * v)
    if chance <= 0:
        return math.nan
    chance /= n_raters * (n_raters - 1)
    return float(1 - observed / chance)


def _gwet_scale(weights: np.ndarray) -> float:
    """``sum(A) / (K (K - 1))`` for Gwet's chance agreement (A = 1 - W)."""
    k = weights.shape[0]
    return float((k * k - weights.sum()) / (k * (k - 1)))


def conger_chance(rater_counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Conger's chance disagreement ``1 - pe`` from (B, R, K) rater x category counts.

    A rater without ratings (in the data, or in a resample) takes no part: R counts the
    raters with ratings; fewer than two give nan.
    """
    totals = rater_counts.sum(axis=2, keepdims=True)
    n_raters = np.count_nonzero(totals[:, :, 0] > 0, axis=1).astype(np.float64)  # (B,)
    shares = rater_counts / np.where(totals > 0, totals, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = shares.sum(axis=1) / n_raters[:, None]  # (B, K)
        # sum_kl W_kl (pbar_k pbar_l - s2_kl / R), s2 = (P'P - R pbar pbar') / (R - 1)
        outer = np.einsum("bk,kl,bl->b", mean, weights, mean)
        second = np.einsum("bgk,kl,bgl->b", shares, weights, shares)
        covariance = (second - n_raters * outer) / (n_raters - 1)
        disagreement: np.ndarray = outer - covariance / n_raters
    return np.where(n_raters >= 2, disagreement, np.nan)


def coefficient_from_sums(
    coefficient: str, sums: np.ndarray, weights: np.ndarray, n_raters: int = 0
) -> Estimate:
    """Coefficients of B sets of feature sums.

    Parameters
    ----------
    coefficient : str
        One of :data:`COEFFICIENTS`.
    sums : ndarray of shape (B, p)
        Sums over items of :func:`features` (or :func:`conger_features` for Conger).
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    n_raters : int
        R (Conger only).

    Returns
    -------
    Estimate
        The coefficient is nan where ``1 - pe`` is zero (undefined) or no item has two
        ratings.
    """
    k = weights.shape[0]
    n = sums[:, 0]
    n2 = sums[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = sums[:, 2] / n2  # 1 - pa, kept apart for accuracy
        pa = 1.0 - observed
        if coefficient == "krippendorff":
            pairable = sums[:, 3 + k]
            within = sums[:, 4 + k]
            pooled = sums[:, 5 + k :]
            between = np.einsum("bk,kl,bl->b", pooled, weights, pooled)
            pa = (1.0 - 1.0 / pairable) * (1.0 - within / pairable) + 1.0 / pairable
            de = between / pairable**2
            statistic = 1.0 - (pairable - 1.0) * within / between
            defined = (between > 0) & (pairable > 1)
            statistic = np.where(defined, statistic, np.nan)
            return Estimate(statistic, pa, 1.0 - de, de)
        if coefficient == "conger":
            counts = sums[:, 3:].reshape(len(sums), n_raters, k)
            de = conger_chance(counts, weights)
            scale = np.abs(np.einsum("bgk,kl->b", counts, np.abs(weights))) + 1.0
            defined = de > 1e-13 * np.maximum(scale / np.maximum(n, 1.0), 1.0)
        else:
            prevalence = sums[:, 3 : 3 + k] / n[:, None]
            if coefficient == "fleiss":
                de = np.einsum("bk,kl,bl->b", prevalence, weights, prevalence)
            elif coefficient == "gwet":
                if k < 2:
                    de = np.zeros_like(n)
                else:
                    spread = 1.0 - np.sum(prevalence * prevalence, axis=1)
                    de = 1.0 - _gwet_scale(weights) * spread
            elif coefficient == "brennan_prediger":
                de = np.full_like(n, weights.sum() / (k * k))
            elif coefficient == "percent":
                de = np.ones_like(n)
            else:  # pragma: no cover - checked by the caller
                raise ValueError(coefficient)
            defined = de > 0
        defined &= n2 > 0
        statistic = np.where(defined, 1.0 - observed / de, np.nan)
    return Estimate(statistic, pa, 1.0 - de, de)


class Linearized(NamedTuple):
    """Gwet's linearised per-item terms: ``var = (1 - f) / (n (n - 1)) sum_i (x_i - centre)²``
    over the ``n`` items of ``terms`` (with multiplicities); ``n_items`` also sets the
    degrees of freedom ``n_items - 1`` and the sampling fraction ``n_items / N``."""

    terms: np.ndarray
    multiplicity: np.ndarray
    centre: float
    n_items: int


def linearized_terms(
    coefficient: str,
    feature_rows: np.ndarray,
    multiplicity: np.ndarray,
    weights: np.ndarray,
    estimate: Estimate,
    patterns: np.ndarray | None = None,
    rows: np.ndarray | None = None,
) -> Linearized:
    """Gwet's linearised influence terms of a coefficient (irrCAC's ``*.ivec.x``).

    Parameters
    ----------
    coefficient : str
    feature_rows : ndarray of shape (m, p)
        :func:`features` of the distinct patterns (:func:`conger_features` of the rows).
    multiplicity : ndarray of shape (m,)
    weights : ndarray of shape (K, K)
    estimate : Estimate
        The point estimate (arrays of length 1).
    patterns : ndarray of shape (m, K)
        The count patterns (Krippendorff and Fleiss, Gwet).
    rows : ndarray of shape (m, R)
        Conger: the distinct code rows.

    Returns
    -------
    Linearized

    Notes
    -----
    With ``c`` the coefficient, ``pa_i`` item i's agreement (0 when ``r_i < 2``) and
    ``n2`` the items with two ratings or more, the term of item i is
    ``x_i = (n / n2) (pa_i - pe [r_i >= 2]) / (1 - pe) - 2 (1 - c) (pe_i - pe) / (1 - pe)``
    where ``pe_i`` is item i's share of the chance agreement: Fleiss
    ``sum_k r_ik/r_i (A_sym pi)_k``; Gwet ``sum(A)/(K(K-1)) sum_k r_ik/r_i (1 - pi_k)``;
    Conger Gwet's ``lambda`` terms; Brennan-Prediger and percent agreement have none (their
    ``pe`` is fixed). Krippendorff's alpha uses the pairable items and their mean
    ``rbar`` of ratings (Gwet 2014, ch. 3; irrCAC's ``krippen.alpha.raw``).
    """
    k = weights.shape[0]
    w = multiplicity.astype(np.float64)
    statistic = float(estimate.statistic[0])
    pe = float(estimate.chance_agreement[0])
    de = float(estimate.chance_disagreement[0])
    agreement = 1.0 - (weights + weights.T) / 2.0
    has2 = feature_rows[:, 1] > 0
    pa_i = np.where(has2, 1.0 - feature_rows[:, 2], 0.0)
    n = float(w.sum())
    n2 = float(w[has2].sum())
    n_all = round(n)
    if coefficient == "krippendorff":
        assert patterns is not None
        keep = has2
        counts = patterns[keep].astype(np.float64)
        totals = counts.sum(axis=1)
        wk = w[keep]
        n_kept = float(wk.sum())
        pairable = _dot(wk, totals)
        rbar = pairable / n_kept
        within = feature_rows[keep, 4 + k]  # d_i / (r_i - 1)
        # Gwet: pa' = mean_i sum_q_i / (rbar (r_i - 1)), sum_q_i / (r_i - 1) = r_i - d_i / (r_i - 1)
        pa_prime_i = (totals - within) / rbar
        pa_prime = _dot(wk, pa_prime_i) / n_kept
        prevalence = weighted_sums(wk, counts) / pairable
        pe_k = 1.0 - _dot(prevalence, (weights * prevalence).sum(axis=1))
        alpha_prime = (pa_prime - pe_k) / (1.0 - pe_k)
        pa_terms = pa_prime_i - pa_prime * (totals - rbar) / rbar
        kripp = (pa_terms - pe_k) / (1.0 - pe_k)
        chance = (agreement * prevalence).sum(axis=1)
        pe_i = (counts * chance).sum(axis=1) / rbar - pe_k * (totals - rbar) / rbar
        terms = kripp - 2.0 * (1.0 - alpha_prime) * (pe_i - pe_k) / (1.0 - pe_k)
        del statistic
        return Linearized(terms, multiplicity[keep], alpha_prime, n_all)
    if coefficient == "percent":
        return Linearized((n / n2) * pa_i, multiplicity, float(estimate.statistic[0]), n_all)
    # pa_i - pe = de - d_i (d_i the item's disagreement): 1 - d_i / de is exactly 1 where
    # the item's raters agree, so perfect agreement gives every term equal to the
    # coefficient, 1, and a standard error of exactly 0 (pa_i - pe over de left terms
    # (1 - pe) / de a rounding away from 1: a standard error of 9e-17, p = 4e-95).
    base = (n / n2) * np.where(has2, 1.0 - feature_rows[:, 2] / de, 0.0)
    if coefficient == "brennan_prediger":
        return Linearized(base, multiplicity, statistic, n_all)
    if coefficient == "conger":
        assert rows is not None
        pe_i = _conger_item_chance(rows, feature_rows, w, agreement, n)
    else:
        assert patterns is not None
        counts = patterns.astype(np.float64)
        shares = counts / counts.sum(axis=1)[:, None]
        prevalence = weighted_sums(w, shares) / n
        if coefficient == "fleiss":
            pe_i = (shares * (agreement * prevalence).sum(axis=1)).sum(axis=1)
        elif coefficient == "gwet":
            pe_i = _gwet_scale(weights) * (shares * (1.0 - prevalence)).sum(axis=1)
        else:  # pragma: no cover - checked by the caller
            raise ValueError(coefficient)
    terms = base - 2.0 * (1.0 - statistic) * (pe_i - pe) / de
    return Linearized(terms, multiplicity, statistic, n_all)


def _conger_item_chance(
    rows: np.ndarray, feature_rows: np.ndarray, w: np.ndarray, agreement: np.ndarray, n: float
) -> np.ndarray:
    """Gwet's per-item chance-agreement terms of Conger's kappa (irrCAC's ``pe.ivec``).

    ``pe_i = (sum_g v_g + sum_{g rated i} (n / n_g) (u_{g, x_ig} - v_g)) / (R (R - 1))`` with
    ``u_g = (R pbar - p_g)' A`` and ``v_g = u_g . p_g``, R the raters with ratings.
    """
    m, n_raters = rows.shape
    k = agreement.shape[0]
    rater_counts = weighted_sums(w, feature_rows[:, 3:]).reshape(n_raters, k)
    n_g = rater_counts.sum(axis=1)
    active = int(np.count_nonzero(n_g > 0))  # a rater without ratings takes no part
    shares = rater_counts / np.where(n_g > 0, n_g, 1.0)[:, None]
    mean = shares.sum(axis=0) / active
    # (R, K): row g is (R pbar - p_g)' A, A's columns summed along a contiguous axis
    columns = np.ascontiguousarray(agreement.T)
    u = ((active * mean[None, :] - shares)[:, None, :] * columns[None]).sum(axis=2)
    v = np.sum(u * shares, axis=1)  # (R,); 0 for a rater without ratings
    table = (n / np.where(n_g > 0, n_g, 1.0))[:, None] * (u - v[:, None])
    pe_i = np.full(m, float(v.sum()))
    for g in range(n_raters):
        rated = rows[:, g] >= 0
        pe_i[rated] += table[g, rows[rated, g]]
    out: np.ndarray = pe_i / (active * (active - 1))
    return out
