"""The p-value of a statistic that is standard normal, Student's t or chi-square under H0.

Every test whose statistic is ``(estimate - null) / standard_error`` takes its p-value here:
the two-rater z-test, the cluster-robust and several-raters t-tests, the strata's tests and
Lin's concordance test; the chi-square tests of equal kappas across strata take theirs from
:func:`chi2_sf`.
"""

from __future__ import annotations

import math

from .._core import Alternative, norm_sf, t_sf

__all__ = ["chi2_sf", "tail_pvalue", "wald_statistic"]


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


def chi2_sf(x: float, df: int) -> float:
    """Upper tail probability of the chi-square distribution with integer ``df >= 1``.

    The closed forms of the regularised upper incomplete gamma function at half-integers:
    ``exp(-x/2) sum_{k < df/2} (x/2)^k / k!`` for even df, and
    ``2 Phi(-sqrt x) + sum_{k < (df-1)/2} exp(-x/2) (x/2)^(k+1/2) / Gamma(k + 3/2)`` for odd
    df, each term in logarithms.
    """
    if math.isnan(x) or df < 1:
        return math.nan
    if x <= 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    half = x / 2.0
    if df % 2 == 0:
        terms = [
            math.exp(-half + k * math.log(half) - math.lgamma(k + 1.0)) for k in range(df // 2)
        ]
        return min(1.0, math.fsum(terms))
    terms = [
        math.exp(-half + (k + 0.5) * math.log(half) - math.lgamma(k + 1.5))
        for k in range((df - 1) // 2)
    ]
    return min(1.0, 2.0 * norm_sf(math.sqrt(x)) + math.fsum(terms))
