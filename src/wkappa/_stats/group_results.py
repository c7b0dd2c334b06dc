"""One :class:`~wkappa.KappaResult` per table of a (G, K, K) stack, computed for the whole
stack at once (what ``wkappa score --by`` prints for each group).

Each result is, bit for bit, the one :func:`~wkappa._stats.inference.kappa_result` gives for
its table alone: kappa is exact and correctly rounded wherever the single-table route is
(whole counts, integer weights), the variances are the batched
:func:`~wkappa._core.statistic.variances` (an exact power-of-two scaling of the stack leaves
every proportion as it is), and each group's p-value is its own scalar call. The cost is a few
array operations over the stack plus one small object per group, instead of a dozen numpy
calls per group. :func:`score_intervals` gives their score intervals from one search over
the stack, each bit for bit the result's own.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import (
    INT64_SAFE,
    Alternative,
    integer_weights,
    kappas,
    variances,
    warn_at_caller,
    weight_matrix,
    weights_name,
)
from ..exceptions import UndefinedKappaWarning
from .cluster import warn_single_cluster_groups
from .inference import null_standard_error
from .intervals import KAPPA_RANGE, ConfidenceInterval, sided, warn_undefined_intervals
from .kappa_range import warn_groups_out_of_reach
from .kappa_warnings import groups_text, warn_undefined_kappa, warn_untestable
from .pvalues import tail_pvalue, wald_statistic
from .results import KappaResult
from .score_interval import score_limits

__all__ = [
    "cluster_tests",
    "kappa_results",
    "score_intervals",
    "table_tests",
    "warn_cluster_groups",
    "warn_results_out_of_reach",
]

Weights = str | np.ndarray  # a checked name or matrix
Labels = tuple[Any, ...]

# A float64 sum of whole numbers is exact below this (the single-table route's bound).
_EXACT_FLOAT = 2.0**53


def _group_kappas(tables: np.ndarray, weights: str | np.ndarray) -> np.ndarray:
    """Kappa of each table, each as :func:`~wkappa._core.kappa.kappa_from_table` gives it for
    that table alone (nan where undefined).

    The single-table route is exact (Python ints, one correctly rounded division) for a table
    of whole counts whose integer sums stay below 2**62, else in float64 proportions. The
    stack is split the same way per table, so that no group changes route because of
    another; the two routes of a table give the same correctly rounded value where both
    apply."""
    k = tables.shape[-1]
    integer = integer_weights(weights, k)
    matrix = None if integer is not None and isinstance(weights, str) else weight_matrix(weights, k)
    out = np.full(tables.shape[0], np.nan)
    if tables.shape[0] == 0:
        return out
    exact = np.zeros(tables.shape[0], dtype=bool)
    if integer is not None:
        with np.errstate(over="ignore"):
            n = tables.sum(axis=(1, 2), dtype=np.float64)
        whole = np.ones(tables.shape[0], dtype=bool)
        if tables.dtype.kind not in "iu":
            whole = (tables == np.floor(tables)).all(axis=(1, 2)) & (n < _EXACT_FLOAT)
        exact = whole & (n * float(integer.max()) < INT64_SAFE)
        if exact.any():
            out[exact] = kappas(tables[exact], matrix, integer)
    rest = ~exact
    if rest.any():
        out[rest] = [kappas(table, matrix, integer) for table in tables[rest]]
    return out


def kappa_results(
    tables: np.ndarray, weights: Weights, labels: Labels, alternative: Alternative, kappa0: float
) -> list[KappaResult]:
    """The KappaResult of each checked (K, K) table of the (G, K, K) stack ``tables``
    (checked weights, labels and ``kappa0``): that of
    :func:`~wkappa._stats.inference.kappa_result` on each table alone, with its warnings
    (each message once), but for that of a ``kappa0`` outside the range of a group's margins:
    :func:`warn_results_out_of_reach` gives it, naming the groups."""
    k = tables.shape[-1]
    matrix = weight_matrix(weights, k)
    statistic = _group_kappas(tables, weights)
    defined = ~np.isnan(statistic)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        variance, variance_null = variances(tables, matrix, statistic)
        se = np.sqrt(variance)
        se_null = np.sqrt(variance_null)
    if tables.dtype.kind in "iu":
        totals: list[Any] = [int(n) for n in tables.sum(axis=(1, 2))]
    else:
        totals = [float(table.sum()) for table in tables]
    name = weights_name(weights)
    warned: dict[str, int] = {}  # warning -> its first group, to warn in the order of the groups
    singles: list[bool] = []  # of each untestable group, whether it is a single pair
    results = []
    for g, table in enumerate(tables):
        kappa = float(statistic[g])
        error = error_null = zscore = pvalue = math.nan
        if defined[g]:
            error, error_null = float(se[g]), float(se_null[g])
            if kappa0 != 0.0:  # the table's own path to kappa0 (its scale is that table's)
                error_null = null_standard_error(table, matrix, kappa0, math.nan)
            if error_null > 0:
                zscore = (kappa - kappa0) / error_null
                pvalue = tail_pvalue(zscore, alternative)
            else:
                warned.setdefault("untestable", g)
                singles.append(totals[g] == 1)  # (no interval either: said by the warning)
        else:
            warned.setdefault("undefined", g)
        results.append(
            KappaResult(
                statistic=kappa,
                standard_error=error,
                standard_error_null=error_null,
                test_statistic=zscore,
                pvalue=pvalue,
                n=totals[g],
                alternative=alternative,
                labels=labels,
                weights=name,
                weight_matrix=matrix,
                table=table,
                kappa0=kappa0,
            )
        )
    for warning in sorted(warned, key=warned.__getitem__):
        if warning == "undefined":
            warn_undefined_kappa()
        else:
            warn_untestable(kappa0, single_pair=all(singles), some_single=any(singles))
    return results


def warn_results_out_of_reach(
    results: Sequence[KappaResult], names: Sequence[str], option: str = ""
) -> None:
    """One warning naming the groups (``results``, of one ``kappa0``; ``names`` as shown,
    after ``option``, the grouping as the caller spells it) whose margins cannot reach
    ``kappa0``, each with its range, as :func:`~wkappa._stats.inference.kappa_result` warns
    for one table."""
    pairs = zip(results, names, strict=True)
    defined = [(r, name) for r, name in pairs if not math.isnan(r.statistic)]
    if not defined or defined[0][0].kappa0 == 0.0:
        return
    first = defined[0][0]
    warn_groups_out_of_reach(
        [np.asarray(r.table) for r, _ in defined],
        first.weight_matrix,
        first.kappa0,
        [name for _, name in defined],
        option,
    )


def score_intervals(
    results: list[KappaResult],
    confidence_level: float,
    names: Sequence[str] = (),
    option: str = "",
) -> list[ConfidenceInterval]:
    """``result.confidence_interval(confidence_level, method="score")`` of each of ``results``
    (of one weight matrix and alternative, without clusters: the groups of one run), from one
    :func:`~wkappa._stats.score_interval.score_limits` search over the stack of their tables;
    one warning for those undefined, naming them when ``names`` are given
    (:func:`~wkappa._stats.intervals.warn_undefined_intervals`).

    Each interval is, bit for bit, the one its result gives alone (the search sums each
    table along fixed axes, whatever the stack); the one-sided rule is the results' own
    (:func:`~wkappa._stats.intervals.sided`).
    """
    if not results:
        return []
    first = results[0]
    tables = np.stack([np.asarray(result.table) for result in results])
    kappa = np.array([result.statistic for result in results], dtype=np.float64)

    def two_sided(level: float) -> ConfidenceInterval:
        low, high = score_limits(tables, first.weight_matrix, level, kappa)
        return ConfidenceInterval(low, high, level, "score")  # type: ignore[arg-type]

    both = sided(two_sided, confidence_level, first.alternative, KAPPA_RANGE)
    sizes = tables.sum(axis=(1, 2))
    warn_undefined_intervals("score", kappa, both.low, both.high, sizes, names, option)
    level = both.confidence_level
    return [
        ConfidenceInterval(float(low), float(high), level, "score")
        for low, high in zip(both.low, both.high, strict=True)  # type: ignore[call-overload]
    ]


def table_tests(
    tables: np.ndarray,
    weights: Weights,
    alternative: Alternative,
    kappa0: float,
    names: Sequence[str],
    option: str = "",
) -> tuple[np.ndarray, np.ndarray]:
    """The test statistic and p-value of each table of the stack (G, K, K): those of
    :func:`~wkappa.kappa_test` on that table alone (:func:`kappa_results`), with one warning
    naming the groups (``names``, after ``option``) whose test is undefined and that of
    :func:`warn_results_out_of_reach`; nan, without a warning, where kappa is undefined (the
    caller says so)."""
    if not tables.shape[0]:
        return np.zeros(0), np.zeros(0)
    labels = tuple(range(tables.shape[-1]))  # (the results are not shown)
    with warnings.catch_warnings():  # (the warning of an undefined test: below, by group)
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        results = kappa_results(tables, weights, labels, alternative, kappa0)
    warn_results_out_of_reach(results, names, option)
    statistic = np.array([result.test_statistic for result in results], dtype=np.float64)
    pvalue = np.array([result.pvalue for result in results], dtype=np.float64)
    untestable = [
        name
        for name, result in zip(names, results, strict=True)
        if math.isnan(result.pvalue) and not math.isnan(result.statistic)
    ]
    _warn_untestable_groups(
        untestable,
        len(results),
        kappa0,
        option,
        "the null standard error (under H0) is 0 (a single pair, or every expected pair in "
        "one cell)",
    )
    return statistic, pvalue


def cluster_tests(
    kappa: Sequence[float],
    standard_error: Sequence[float],
    n_clusters: Sequence[int],
    alternative: Alternative,
    kappa0: float,
) -> tuple[list[float], list[float]]:
    """The t statistic ``(kappa - kappa0) / standard_error`` of each group and its p-value on
    its clusters less one degrees of freedom, as :func:`~wkappa.kappa_test` with
    ``cluster=`` computes them from the cluster-robust standard error."""
    statistic = [wald_statistic(k, kappa0, se) for k, se in zip(kappa, standard_error, strict=True)]
    pvalue = [
        tail_pvalue(t, alternative, g - 1.0) if g > 1 else math.nan
        for t, g in zip(statistic, n_clusters, strict=True)
    ]
    return statistic, pvalue


def warn_cluster_groups(
    tables: np.ndarray,
    weights: np.ndarray,
    kappa: Sequence[float],
    n_clusters: Sequence[int],
    pvalue: Sequence[float],
    kappa0: float,
    shown: tuple[Sequence[str], str],
    cluster_option: str,
) -> None:
    """The warnings of the clustered tests of some groups (:func:`cluster_tests`): that of a
    ``kappa0`` outside a group's reach (its summed table ``tables[g]``), one naming the groups
    of a single cluster (``shown``: the groups' names and the grouping, ``cluster_option`` the
    clustering, as the caller spells them) and one naming the groups of two or more clusters
    whose test is nonetheless undefined (a cluster-robust standard error of 0 and kappa equal
    to ``kappa0``)."""
    names, option = shown
    defined = [g for g, k in enumerate(kappa) if not math.isnan(k)]
    warn_groups_out_of_reach(
        [tables[g] for g in defined], weights, kappa0, [names[g] for g in defined], option
    )
    lone = [names[g] for g in defined if n_clusters[g] < 2]
    if lone:
        warn_single_cluster_groups(groups_text(lone, option), len(lone) > 1, cluster_option)
    untestable = [names[g] for g in defined if n_clusters[g] >= 2 and math.isnan(pvalue[g])]
    _warn_untestable_groups(
        untestable,
        len(names),
        kappa0,
        option,
        "the cluster-robust standard error is 0 and kappa equals it",
    )


def _warn_untestable_groups(
    untestable: Sequence[str], n_groups: int, kappa0: float, option: str, why: str
) -> None:
    """One warning naming the groups whose test of ``kappa0`` is undefined, and ``why``."""
    if untestable:
        warn_at_caller(
            f"The test of kappa = {kappa0:g} is undefined in {len(untestable)} of "
            f"{n_groups} groups ({groups_text(untestable, option)}): {why}. Their test "
            "statistic and p-value are nan.",
            UndefinedKappaWarning,
        )
