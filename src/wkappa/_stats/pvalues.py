"""The p-value of a statistic that is standard normal or Student's t under H0.

Every test whose statistic is ``(estimate - null) / standard_error`` takes its p-value here:
the two-rater z-test, the cluster-robust and several-raters t-tests, the strata's tests and
Lin's concordance test.
"""

from __future__ import annotations

import math

from .._core import Alternative, norm_sf, t_sf

__all__ = ["tail_pvalue", "wald_statistic"]


def wald_statistic(estimate: float, null: float, standard_error: float) -> float:
    """``(estimate - null) / standard_error``; with a standard error of 0, ``±inf`` when the
    estimate differs from ``null`` (every replicate of the data agrees: H0 is rejected at any
    level) and nan when it equals ``null`` or anything is nan."""
    if math.isnan(estimate) or math.isnan(standard_error):
        return math.nan
    if standard_error == 0:
        return math.nan if estimate == null else math.copysign(math.inf, estimate - null)
    return (estimate - null) / standard_error


def tail_pvalue(statistic: float, alternative: Alternative | str, df: float | None = None) -> float:
    """P-value of ``statistic`` against ``alternative``.

    ``df=None``: the statistic is standard normal under H0; otherwise Student's t with ``df``
    degrees of freedom. 'greater' is ``P(T >= t)``, 'less' ``P(T <= t)``, 'two-sided'
    ``min(1, 2 P(T >= |t|))``. A nan statistic gives nan (not 1); ``±inf`` gives 0 or 1.
    """
    if math.isnan(statistic):
        return math.nan

    def upper(value: float) -> float:
        return norm_sf(value) if df is None else t_sf(value, df)

    if alternative == "greater":
        return upper(statistic)
    if alternative == "less":
        return upper(-statistic)
    return min(1.0, 2.0 * upper(abs(statistic)))
