"""Why a kappa is low while raw agreement is high: base rates and per-category agreement.

For a K x K table of two raters' counts (rows rater A, columns rater B), with proportions
``p_ij``, row shares ``r_k = p_k+``, column shares ``c_k = p_+k``, observed agreement
``p_o = sum_k p_kk`` and the pooled share of each category ``m_k = (r_k + c_k) / 2``:

* ``pabak = (K p_o - 1) / (K - 1)``: kappa with chance agreement fixed at 1/K (the
  prevalence- and bias-adjusted kappa of Byrt, Bishop & Carlin 1993, ``2 p_o - 1`` for K = 2;
  Brennan & Prediger's coefficient for K categories).
* ``bias_index = (1/2) sum_k |r_k - c_k|``: how differently the two raters use the categories
  (the total variation distance of their marginals); for K = 2 it is Byrt's ``|b - c| / n``.
* ``prevalence_index = K / (K - 1) * (1/2) sum_k |m_k - 1/K|``: how unequally common the
  categories are, 0 when all are equally common and 1 when every rating is one category; for
  K = 2 it is Byrt's ``|a - d| / n``. (The K-category forms of the two indices are this
  package's generalisation: they reduce to Byrt's for K = 2 and keep their 0-1 range.)
* ``specific_agreement[k] = 2 p_kk / (r_k + c_k)``: of the ratings in category k, the share the
  other rater shares (positive specific agreement; Fleiss 1975, Cicchetti & Feinstein 1990).

Several pairs of raters (the members of a panel) are pooled by
:func:`pooled_base_rate_indices`: ``p_o``, PABAK and the prevalence index of their summed
table, and each pair's own chance agreement ``sum_k r_k c_k`` and bias index averaged with
the pair's count as its weight (a pair's rows and columns are its raters in an arbitrary
order, so the summed table's margins are not two raters' shares). Kappa is then
``(p_o - p_e) / (1 - p_e)`` with those pooled ``p_o`` and ``p_e``. One table gives
:func:`base_rate_indices`.

For K = 2, Byrt et al. show ``kappa = (pabak - PI^2 + BI^2) / (1 - PI^2 + BI^2)``: a high
prevalence index (one category dominates) pulls kappa below PABAK, a bias index pushes it up.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["base_rate_indices", "pooled_base_rate_indices", "specific_agreement"]


def _proportions(table: Any) -> np.ndarray:
    counts = np.asarray(table, dtype=np.float64)
    total = counts.sum()
    return counts / total if total > 0 else np.full_like(counts, np.nan)


def specific_agreement(table: Any) -> np.ndarray:
    """Positive specific agreement ``2 p_kk / (p_k+ + p_+k)`` of each category (nan for a
    category neither rater used)."""
    p = _proportions(table)
    both = p.sum(axis=1) + p.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        found: np.ndarray = np.where(both > 0, 2.0 * np.diag(p) / both, np.nan)
    return found


def base_rate_indices(table: Any) -> dict[str, float]:
    """Observed agreement, Cohen's (unweighted) kappa, PABAK, the prevalence and bias indices
    of a K x K table (see the module docstring)."""
    p = _proportions(table)
    k = p.shape[0]
    rows, columns = p.sum(axis=1), p.sum(axis=0)
    observed = float(np.trace(p))
    expected = float(rows @ columns)
    kappa = (observed - expected) / (1.0 - expected) if expected < 1.0 else float("nan")
    pooled = (rows + columns) / 2.0
    # The raters' marginals compared as counts (exact sums of whole counts), then divided:
    # the proportions' row and column sums round differently, so equal marginals gave a
    # bias index of 5.6e-17 instead of 0.
    counts = np.asarray(table, dtype=np.float64)
    total = counts.sum()
    gap = np.abs(counts.sum(axis=1) - counts.sum(axis=0)).sum()
    bias = float(0.5 * gap / total) if total > 0 else float("nan")
    if k < 2:
        return {
            "observed_agreement": observed,
            "kappa": kappa,
            "pabak": float("nan"),
            "prevalence_index": float("nan"),
            "bias_index": float("nan"),
        }
    return {
        "observed_agreement": observed,
        "kappa": kappa,
        "pabak": (k * observed - 1.0) / (k - 1.0),
        "prevalence_index": float(k / (k - 1.0) * 0.5 * np.abs(pooled - 1.0 / k).sum()),
        "bias_index": bias,
    }


def pooled_base_rate_indices(tables: Any) -> dict[str, float]:
    """The indices of several pairs' K x K tables pooled (see the module docstring): they
    do not depend on which rater of a pair is its rows, and one table gives
    :func:`base_rate_indices`."""
    counts = [np.asarray(t, dtype=np.float64) for t in tables]
    counts = [c for c in counts if c.sum() > 0]
    if not counts:
        return base_rate_indices(np.zeros((1, 1)))
    summed = np.sum(counts, axis=0)
    found = base_rate_indices(summed)
    total = float(summed.sum())
    chance = sum(float(c.sum(axis=1) @ c.sum(axis=0)) / float(c.sum()) for c in counts) / total
    observed = found["observed_agreement"]
    found["kappa"] = (observed - chance) / (1.0 - chance) if chance < 1.0 else float("nan")
    if summed.shape[0] >= 2:
        gaps = sum(float(np.abs(c.sum(axis=1) - c.sum(axis=0)).sum()) for c in counts)
        found["bias_index"] = 0.5 * gaps / total
    return found
