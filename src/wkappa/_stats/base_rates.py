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

The formulas above say what the numbers are; kappa, ``p_o`` and PABAK are computed by the
library's own functions (``kappa_from_table``, ``wk.agreement`` with ``coefficient="percent"``
and ``"brennan_prediger"``), so that they equal, bit for bit, what those give on the same pairs.

For K = 2, Byrt et al. show ``kappa = (pabak - PI^2 + BI^2) / (1 - PI^2 + BI^2)``: a high
prevalence index (one category dominates) pulls kappa below PABAK, a bias index pushes it up.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._core import Coefficient, kappa_from_table
from ..exceptions import PerfectAgreementWarning, UndefinedKappaWarning
from .several import agreement

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
    of a K x K table of whole counts (see the module docstring); nan where undefined.

    Kappa, observed agreement and PABAK are the library's own numbers, bit for bit:
    ``kappa_from_table(table, weights="unweighted")`` (Cohen's kappa, as
    ``wk.weighted_kappa`` of the pairs), and ``wk.agreement`` of the table's pairs with
    ``coefficient="percent"`` and ``"brennan_prediger"`` over its K categories (the pairs
    given once each with their counts as ``multiplicity``, which gives what the items give).
    """
    counts = np.asarray(table, dtype=np.float64)
    k = counts.shape[0]
    total = counts.sum()
    nan = float("nan")
    if not total > 0:
        names = ("observed_agreement", "kappa", "pabak", "prevalence_index", "bias_index")
        return dict.fromkeys(names, nan)
    kappa = float(kappa_from_table(counts, weights="unweighted", zero_division=nan))
    observed = _pairs_agreement(counts, "percent")
    if k < 2:
        return {
            "observed_agreement": observed,
            "kappa": kappa,
            "pabak": nan,
            "prevalence_index": nan,
            "bias_index": nan,
        }
    pooled = (counts.sum(axis=1) + counts.sum(axis=0)) / (2.0 * total)
    # The raters' marginals compared as counts (exact sums of whole counts), then divided:
    # the proportions' row and column sums round differently, so equal marginals gave a
    # bias index of 5.6e-17 instead of 0.
    gap = np.abs(counts.sum(axis=1) - counts.sum(axis=0)).sum()
    return {
        "observed_agreement": observed,
        "kappa": kappa,
        "pabak": _pairs_agreement(counts, "brennan_prediger"),
        "prevalence_index": float(k / (k - 1.0) * 0.5 * np.abs(pooled - 1.0 / k).sum()),
        "bias_index": float(0.5 * gap / total),
    }


def _pairs_agreement(counts: np.ndarray, coefficient: Coefficient) -> float:
    """``wk.agreement`` (unweighted, over the K categories) of the pairs a K x K table counts."""
    rows, columns = np.nonzero(counts)
    multiplicity = counts[rows, columns].astype(np.int64)
    if not np.array_equal(multiplicity, counts[rows, columns]):  # pragma: no cover - internal
        raise ValueError("a table of base rates holds whole counts")
    return _statistic(
        np.column_stack([rows, columns]),
        coefficient,
        np.arange(counts.shape[0]),
        multiplicity=multiplicity,
    )


def _statistic(ratings: Any, coefficient: Coefficient, labels: Any, **options: Any) -> float:
    """``wk.agreement(...).statistic``, unweighted, nan where undefined; its warnings about
    the standard error (not shown here) are not raised."""
    with warnings.catch_warnings():
        for category in (UndefinedKappaWarning, PerfectAgreementWarning):
            warnings.simplefilter("ignore", category)
        found = agreement(
            ratings,
            coefficient=coefficient,
            weights="unweighted",
            labels=labels,
            zero_division=float("nan"),
            **options,
        )
    return float(found.statistic)


def pooled_base_rate_indices(tables: Any) -> dict[str, float]:
    """The indices of several pairs' K x K tables pooled (see the module docstring): they
    do not depend on which rater of a pair is its rows, and one table gives
    :func:`base_rate_indices`.

    Observed agreement, PABAK and the prevalence index are :func:`base_rate_indices` of the
    summed table: observed agreement and PABAK are the library's percent and
    Brennan-Prediger agreement of every pair's ratings pooled (one pair of columns). With
    missing ratings that is not ``wk.agreement(panel, coefficient="percent")``, which
    averages each item's share of agreeing pairs over the items; without, it is, up to
    rounding. The pooled kappa and bias index have no library function: kappa is
    ``(p_o - p_e) / (1 - p_e)`` with ``p_e`` each pair's own chance agreement
    ``sum_k r_k c_k`` averaged with the pair's count as its weight, and the bias index each
    pair's averaged alike. When every pair counts the same items (a panel without missing
    ratings) this kappa is Conger's (1980) kappa of the panel (``wk.agreement(panel,
    coefficient="conger")``, up to rounding); with missing ratings its pairs are weighted by
    the items they share.
    """
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
