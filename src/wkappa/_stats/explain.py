"""The story of a kappa as text: O, W, E, numerator, denominator, kappa.

The worked example that introduces QWK on Kaggle ("Kaggle Winning Solutions: quadratic
weighted kappa") prints O, the weights and E with numpy's default print options, normalises O and
E to sum 1, and accumulates ``num += w[i][j]*O[i][j]`` and ``den += w[i][j]*E[i][j]`` in a
row-major double loop. A running sum in that order is exactly ``np.cumsum(...)[-1]``, so the
printed numbers here are the worked example's numbers to the last bit (kappa 0.31818181818181823 for
their example, where the exact value rounds to 0.3181818181818182).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._core import UNDEFINED_REASON
from .intervals import one_sided, small_sample_reason
from .text_values import interval_text, number_text

if TYPE_CHECKING:
    from .results import KappaResult

__all__ = ["SeedSteps", "explain_result", "explain_table", "seed_steps"]

# numpy's default print options, spelled out so a user's np.set_printoptions cannot change
# what the story shows (the worked example was printed with the defaults).
_DEFAULT_PRINT = {
    "precision": 8,
    "threshold": 1000,
    "edgeitems": 3,
    "linewidth": 75,
    "suppress": False,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
    "floatmode": "maxprec",
    "legacy": False,
}
_TOP_CELLS = 3


class SeedSteps(NamedTuple):
    """The intermediate values of the worked example's computation.

    ``observed`` and ``expected`` are O and E normalised to sum 1; ``contribution`` is
    ``W * (observed - expected)``, whose sum is ``numerator - denominator``.
    """

    outer: np.ndarray
    observed: np.ndarray
    expected: np.ndarray
    numerator: float
    denominator: float
    kappa: float
    contribution: np.ndarray


def _running_sum(values: np.ndarray) -> float:
    """Left-to-right sum in row-major order, as the worked example's double loop adds."""
    return float(np.cumsum(values, axis=None)[-1]) if values.size else 0.0


def seed_steps(table: np.ndarray, weight_matrix: np.ndarray) -> SeedSteps:
    """The worked example's arithmetic on a (K, K) table: normalise, then accumulate in order."""
    counts = np.asarray(table, dtype=np.float64)
    outer = np.outer(counts.sum(axis=1), counts.sum(axis=0))
    n, total = counts.sum(), outer.sum()
    observed = counts / n if n > 0 else np.zeros_like(counts)
    expected = outer / total if total > 0 else np.zeros_like(outer)
    numerator = _running_sum(weight_matrix * observed)
    denominator = _running_sum(weight_matrix * expected)
    kappa = 1.0 - numerator / denominator if denominator > 0 else float("nan")
    contribution = weight_matrix * (observed - expected)
    return SeedSteps(outer, observed, expected, numerator, denominator, kappa, contribution)


def _matrix(title: str, matrix: np.ndarray) -> str:
    with np.printoptions(**_DEFAULT_PRINT):  # type: ignore[arg-type]
        return f"{title}\n{matrix}"


def _costly_cells(steps: SeedSteps, table: np.ndarray, names: Sequence[Any]) -> list[str]:
    flat = steps.contribution.ravel()
    order = np.argsort(-flat, kind="stable")[:_TOP_CELLS]
    worst = [int(i) for i in order if flat[i] > 0]
    if not worst:
        return ["No cell has more weighted disagreement than chance predicts."]
    lines = [
        "Cells losing the most agreement, W * (O - E) on the normalised tables (their sum is "
        "numerator - denominator; a cell lowers kappa by its value / denominator):"
    ]
    k = table.shape[1]
    for index in worst:
        i, j = divmod(index, k)
        count = table[i, j]
        shown = int(count) if float(count).is_integer() else float(count)
        drop = flat[index] / steps.denominator if steps.denominator > 0 else float("nan")
        lines.append(
            f"  y_true={names[i]!r}, y_pred={names[j]!r}: {flat[index]:+.6f} "
            f"(observed {shown}, expected {steps.expected[i, j] * table.sum():.4g}; "
            f"kappa -{drop:.4f})"
        )
    return lines


def _story(table: np.ndarray, weight_matrix: np.ndarray, labels: Sequence[Any] | None) -> list[str]:
    table = np.asarray(table)
    names = list(labels) if labels is not None else list(range(table.shape[0]))
    steps = seed_steps(table, weight_matrix)
    lines = [f"Categories (K = {len(names)}): {names}"]
    lines += [
        "Step 1 - the confusion matrix O (rows: rater A / y_true, columns: rater B / y_pred)",
        _matrix("Matrix O:", table),
        "Step 2 - the disagreement weights W",
        _matrix("weights matrix:", weight_matrix),
        "Step 3 - the expected matrix E = outer(row sums of O, column sums of O)",
        _matrix("Expected matrix:", steps.outer),
        "Step 4 - normalise O and E to sum 1, then kappa = 1 - sum(W*O) / sum(W*E)",
        _matrix("O / O.sum():", steps.observed),
        _matrix("E / E.sum():", steps.expected),
        f"numerator   sum(W*O) = {steps.numerator!r}",
        f"denominator sum(W*E) = {steps.denominator!r}",
        "weighted kappa:",
        number_text(steps.kappa, "", UNDEFINED_REASON),
    ]
    return lines + _costly_cells(steps, table, names)


def explain_table(
    table: np.ndarray, weight_matrix: np.ndarray, labels: Sequence[Any] | None = None
) -> str:
    """Explain ``kappa = 1 - sum(W*O) / sum(W*E)`` step by step, as the worked example does.

    Parameters
    ----------
    table : ndarray of shape (K, K)
        Counts O (rows rater A, columns rater B).
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W.
    labels : sequence of K categories, optional
        Printed as the category order.

    Returns
    -------
    str
        O, W, E = outer(row sums, column sums) (before normalising, as the notes print it),
        O and E normalised to sum 1, the numerator ``sum(W*O)``, the denominator ``sum(W*E)``
        and kappa accumulated in the notes' order, then the cells losing the most agreement,
        ``W * (O - E)``.
    """
    return "\n".join(_story(table, weight_matrix, labels))


def _kappa_text(result: KappaResult) -> str:
    """Kappa to the last bit with its Landis & Koch band, or ``undefined`` (the story above
    says why)."""
    if math.isnan(result.statistic):
        return number_text(result.statistic)
    return f"{result.statistic!r} ({result.interpretation}, Landis & Koch)"


def explain_result(result: KappaResult) -> str:
    """The story of :func:`explain_table` plus the standard errors, test and interval."""
    lines = _story(result.table, result.weight_matrix, result.labels)
    if result.n_clusters is not None:
        return "\n".join(lines + _clustered_inference(result))
    low, high = result.confidence_interval()
    lines += [
        "Inference (large-sample normal, Fleiss-Cohen-Everitt 1969):",
        f"  n = {result.n:g}, weights = {result.weights!r}",
        f"  kappa = {_kappa_text(result)}",
        f"  standard error = {number_text(result.standard_error)}, 95% "
        f"{one_sided(result.alternative)}CI {interval_text(low, high)}",
        f"  H0 kappa = {result.kappa0:g}: null SE = {number_text(result.standard_error_null)}, "
        f"z = {number_text(result.zscore)}, p = {number_text(result.pvalue)} "
        f"({result.alternative})",
    ]
    reason = small_sample_reason(result.n, result.statistic)
    if reason is not None:
        small_low, small_high = result.confidence_interval(method="score")
        lines += [
            f"  Small sample ({reason}): this large-sample interval tends to cover the true "
            "kappa less than 95% of the time.",
            "  confidence_interval(method='score') keeps its level at small n: "
            f"95% CI {interval_text(small_low, small_high)}",
        ]
    return "\n".join(lines)


# Below this many clusters the cluster-robust interval is not backed by the coverage study
# (benchmarks/cluster_study.py, which starts at 30 clusters).
FEW_CLUSTERS = 30


def _clustered_inference(result: KappaResult) -> list[str]:
    low, high = result.confidence_interval()
    lines = [
        f"Inference (cluster-robust over {result.n_clusters} clusters: the delta-method "
        "sandwich, G/(G-1) * sum of squared cluster totals of the influence / n^2):",
        f"  n = {result.n:g} pairs in {result.n_clusters} clusters, weights = {result.weights!r}",
        f"  kappa = {_kappa_text(result)}",
        f"  cluster-robust standard error = {number_text(result.standard_error)}, "
        f"95% {one_sided(result.alternative)}CI {interval_text(low, high)}",
        "  H0 kappa = "
        f"{result.kappa0:g}: Wald z = (kappa - kappa0) / SE = {number_text(result.zscore)}, "
        f"p = {number_text(result.pvalue)} ({result.alternative})",
    ]
    if result.n_clusters is not None and result.n_clusters < FEW_CLUSTERS:
        lines.append(
            f"  Few clusters (G = {result.n_clusters} < {FEW_CLUSTERS}): the cluster-robust "
            "interval is a large-sample one; check it against the cluster bootstrap, "
            "confidence_interval(method='bca')."
        )
    return lines
