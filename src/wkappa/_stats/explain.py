"""The story of a kappa as text: O, W, E, numerator, denominator, kappa; and of the paired
comparison of two predictions' kappas.

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
from .bootstrap import MIN_ITEMS, smallest_pvalue
from .cluster import few_clusters_text
from .intervals import ConfidenceInterval, level_text, resampled_text, small_sample_reason
from .text_values import (
    df_text,
    interpretation,
    interval_text,
    number_text,
    sign_words,
    statistic_text,
)

if TYPE_CHECKING:
    from .results import KappaResult, PairedKappaResult

__all__ = ["SeedSteps", "explain_paired", "explain_result", "explain_table", "seed_steps"]

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
        # The expected count of the cell is step 3's E (the outer product) divided by n.
        total = float(table.sum())
        lines.append(
            f"  y_true={names[i]!r}, y_pred={names[j]!r}: {flat[index]:+.6f} "
            f"(observed {shown}, expected {steps.expected[i, j] * total:.4g} = "
            f"E {float(steps.outer[i, j]):.6g} / n {total:.6g}; kappa -{drop:.4f})"
        )
    return lines


def _story(
    table: np.ndarray,
    weight_matrix: np.ndarray,
    labels: Sequence[Any] | None,
    reported: float | None = None,
) -> list[str]:
    """The steps; with ``reported`` (the result's kappa), a line where the steps' float
    arithmetic ends elsewhere than that value."""
    table = np.asarray(table)
    names = list(labels) if labels is not None else list(range(table.shape[0]))
    steps = seed_steps(table, weight_matrix)
    lines = [f"Categories (K = {len(names)}): {names}"]
    lines += [
        "Step 1 - the confusion matrix O (rows: rater A, `y_true`; columns: rater B, `y_pred`)",
        _matrix("Matrix O:", table),
        "Step 2 - the disagreement weights W",
        _matrix("weights matrix:", weight_matrix),
        "Step 3 - the expected matrix E = outer(row sums of O, column sums of O) "
        "(n times the expected counts; only its proportions matter)",
        _matrix("Expected matrix:", steps.outer),
        "Step 4 - normalise O and E to sum 1, then kappa = 1 - sum(W*O) / sum(W*E)",
        _matrix("O / O.sum():", steps.observed),
        _matrix("E / E.sum():", steps.expected),
        f"numerator   sum(W*O) = {steps.numerator!r}",
        f"denominator sum(W*E) = {steps.denominator!r}",
        "weighted kappa:",
        number_text(steps.kappa, "", UNDEFINED_REASON),
    ]
    if reported is not None and math.isfinite(reported) and steps.kappa != reported:
        units = round(abs(steps.kappa - reported) / math.ulp(reported))
        lines.append(
            f"(These steps' float arithmetic ends {units} unit{'s' if units != 1 else ''} in "
            f"the last place from the reported kappa, {reported!r}, which is computed from "
            "the counts without these steps' roundings.)"
        )
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


def explain_result(
    result: KappaResult, confidence_level: float = 0.95, method: Any = "asymptotic"
) -> str:
    """The story of :func:`explain_table` plus the standard errors, test and the interval
    ``result.confidence_interval(confidence_level, method=method)``."""
    lines = _story(result.table, result.weight_matrix, result.labels, result.statistic)
    ci = result.confidence_interval(confidence_level, method=method)
    if result.n_clusters is not None:
        return "\n".join(lines + _clustered_inference(result, ci))
    lines += [
        "Inference (large-sample normal, Fleiss-Cohen-Everitt 1969):",
        f"  n = {result.n:g}, weights = {result.weights!r}",
        f"  kappa = {_kappa_text(result)}",
        f"  standard error = {number_text(result.standard_error)}, {_interval_text(result, ci)}",
        f"  H0 kappa = {result.kappa0:g}: null SE = {number_text(result.standard_error_null)}, "
        f"z = {statistic_text(result.test_statistic, '.6g')}, p = {number_text(result.pvalue)} "
        f"({result.alternative})",
    ]
    reason = small_sample_reason(result.n, result.statistic)
    if reason is not None and ci.method == "asymptotic":
        small = result.confidence_interval(ci.confidence_level, method="score")
        lines += [
            f"  Small sample ({reason}): this large-sample interval tends to cover the true "
            f"kappa less than {ci.confidence_level * 100:g}% of the time.",
            "  confidence_interval(method='score') keeps its level at small n: "
            f"{level_text(small, 'two-sided')}CI {interval_text(small.low, small.high)}",
        ]
    return "\n".join(lines)


# How the explanation names each interval method that is not a bootstrap (whose words come
# from `resampled_text`); the large-sample interval is named by the inference heading.
_METHOD_WORDS = {
    "score": "score interval, the variance under each kappa0",
    "fisher-z": "Fisher-z interval, half a pair of chance agreement added",
}


def _interval_text(result: KappaResult, ci: ConfidenceInterval, resampled: str = "") -> str:
    """ "90% CI [low, high]", with the method in words (then ``resampled``, what a resample
    draws) unless it is the large-sample one the inference heading describes."""
    words = _METHOD_WORDS.get(ci.method) or resampled_text(ci) + resampled * bool(ci.n_resamples)
    shown = f"{level_text(ci, result.alternative)}CI {interval_text(ci.low, ci.high)}"
    return f"{shown} ({words})" if words else shown


# Below this many clusters the cluster-robust interval can fall a little short in some designs
# (benchmarks/cluster_study.py, benchmarks/few_clusters_study.py); below MIN_CLUSTERS the
# few-clusters line (few_clusters_text) is shown instead.
FEW_CLUSTERS = 30


def _clustered_inference(result: KappaResult, ci: ConfidenceInterval) -> list[str]:
    assert result.n_clusters is not None
    lines = [
        f"Inference (cluster-robust over {result.n_clusters} clusters: the delta-method "
        "sandwich, G/(G-1) * sum of squared cluster totals of the influence / n^2):",
        f"  n = {result.n:g} pairs in {result.n_clusters} clusters, weights = {result.weights!r}",
        f"  kappa = {_kappa_text(result)}",
        f"  cluster-robust standard error = {number_text(result.standard_error)}, "
        f"{_interval_text(result, ci, ', whole clusters redrawn')}",
        "  H0 kappa = "
        f"{result.kappa0:g}: Wald t = (kappa - kappa0) / SE = "
        f"{statistic_text(result.test_statistic, '.6g')}, "
        f"p = {number_text(result.pvalue)} from t({df_text(result.n_clusters - 1)}) "
        f"({result.alternative})",
    ]
    very_few = few_clusters_text(result.n_clusters)
    if very_few is not None:
        lines.append(f"  {very_few}")
    elif (
        result.n_clusters is not None
        and result.n_clusters < FEW_CLUSTERS
        and ci.method == "asymptotic"
    ):
        lines.append(
            f"  Few clusters (G = {result.n_clusters} < {FEW_CLUSTERS}): the cluster-robust "
            "interval is a large-sample one; check it against the cluster bootstrap, "
            "confidence_interval(method='bca')."
        )
    return lines


def _band_text(kappa: float) -> str:
    """A kappa to six digits with its Landis & Koch band, or ``undefined`` and why."""
    if math.isnan(kappa):
        return number_text(kappa, reason=UNDEFINED_REASON)
    return f"{number_text(kappa)} ({interpretation(kappa)}, Landis & Koch)"


def explain_paired(result: PairedKappaResult, ci: ConfidenceInterval) -> str:
    """The paired comparison in words: the two kappas, their difference, its bootstrap
    interval ``ci`` and the p-value read at the interval's level."""
    clustered = result.n_clusters is not None
    units = result.n_clusters if result.n_clusters is not None else result.n
    drawn = (
        f"the {result.n_clusters} clusters (n = {result.n:g} items; whole clusters redrawn)"
        if clustered
        else f"the {result.n:g} items"
    )
    lines = [
        f"Two predictions, A and B, against the same truth: weighted kappa "
        f"(weights = {result.weights!r}), n = {result.n:g} items, K = {len(result.labels)} "
        f"categories {list(result.labels)}",
        f"  kappa of A        {_band_text(result.statistic_a)}",
        f"  kappa of B        {_band_text(result.statistic_b)}",
        f"  difference A - B  {number_text(result.difference)}  "
        + sign_words(
            result.difference,
            "A agrees with the truth more than B does",
            "B agrees with the truth more than A does",
        ),
        f"Paired bootstrap: {result.n_resamples} resamples of {drawn}; a resample keeps each "
        "item's truth, A and B together, so both kappas come from the same items.",
        f"  {level_text(ci, result.alternative)}interval "
        f"{interval_text(ci.low, ci.high)} of A - B (expanded percentile, Hesterberg 2015: the "
        f"bootstrap quantiles widened for {'G clusters' if clustered else 'n items'}, as the "
        "plain percentile interval is too narrow at small n)",
    ]
    too_few = not clustered and result.n < MIN_ITEMS  # nothing was drawn
    if ci.n_undefined and not math.isnan(result.difference) and not too_few:
        lines.append(
            f"  {ci.n_undefined} of the {result.n_resamples} resamples left a kappa undefined "
            "and were dropped: the interval is conditional on both kappas being defined."
        )
    lines.append(
        f"  H0: equal kappas, p = {number_text(result.pvalue, '.4g')} ({result.alternative}; "
        f"the interval inverted: 0 lies outside the level 1 - alpha interval exactly when "
        "p < alpha)"
    )
    lines += _paired_reading(result, ci.low, ci.confidence_level, units)
    very_few = few_clusters_text(result.n_clusters)
    if very_few is not None:
        lines.append(f"  {very_few}")
    if not clustered:
        lines.append(
            "  Items are taken as independent: when they come in groups (patients, tasks), pass "
            "cluster= to resample whole groups (the interval is too narrow otherwise)."
        )
    return "\n".join(lines)


def _paired_reading(
    result: PairedKappaResult, low: float, confidence_level: float, units: float
) -> list[str]:
    """What the p-value says at ``alpha = 1 - confidence_level``, in plain words."""
    if math.isnan(result.pvalue) and not math.isnan(result.difference):
        return [
            f"  Too few items to resample: the interval and the p-value need at least "
            f"{MIN_ITEMS} items, and n = {result.n:g}."
        ]
    if math.isnan(result.pvalue):
        return [
            "  Nothing to compare: a kappa is undefined, so the difference, its interval and "
            "the p-value are undefined."
        ]
    alpha = 1.0 - confidence_level
    at_level = f"at the {alpha * 100:g}% level"
    at = f"{at_level} (p < {alpha:g})"
    floor = smallest_pvalue(result.n_resamples, units, result.alternative)
    resolved = (
        f"  p = {number_text(floor, '.4g')} is the smallest p-value {result.n_resamples} "
        "resamples can show: report p <= that, or draw more (n_resamples=)."
    )
    if result.n_clusters is not None:
        # With few clusters the expanded interval's t(G - 1) keeps the floor high: say how
        # much more resamples would lower it, rather than promise that they do.
        more = 10 * (result.n_resamples + 1) - 1
        resolved = (
            f"  p = {number_text(floor, '.4g')} is the smallest p-value {result.n_resamples} "
            f"resamples of {result.n_clusters} clusters can show ({more} would show "
            f"{number_text(smallest_pvalue(more, units, result.alternative), '.4g')}): "
            "report p <= that."
        )
    few = result.n_clusters is not None and smallest_pvalue(10**12, units, "two-sided") >= alpha
    if result.pvalue <= floor and few:
        return [
            f"  Read: no resample goes against H1, but with {result.n_clusters} clusters no "
            f"number of resamples can show a p-value below {alpha:g}: the cluster bootstrap "
            f"cannot test {at_level} with so few clusters."
        ]
    if result.pvalue <= floor and floor >= alpha:
        return [
            f"  Read: no resample goes against H1, but {result.n_resamples} resamples cannot "
            f"show a p-value below {alpha:g}: draw more (n_resamples=) to test {at_level}."
        ]
    if result.pvalue < alpha:
        if result.alternative == "two-sided":
            side = "higher" if result.difference > 0 else "lower"
            read = f"  Read: the kappas differ {at}: A's is {side} than B's."
        else:
            side = "higher" if result.alternative == "greater" else "lower"
            read = f"  Read: A's kappa is {side} than B's {at}."
        return [read, resolved] if result.pvalue <= floor else [read]
    shown = {
        "two-sided": "a difference",
        "greater": "that A's kappa is higher",
        "less": "that A's kappa is lower",
    }[result.alternative]
    lines = [
        f"  Read: the data do not show {shown} {at_level} (p >= {alpha:g}). That is not "
        "evidence of equal kappas: the interval holds the differences the data still allow."
    ]
    if math.isfinite(low):
        lines.append(
            f"  For non-inferiority of A by a margin d, check that the lower end "
            f"{number_text(low)} is above -d."
        )
    return lines
