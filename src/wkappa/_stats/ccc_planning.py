"""CCC study planning: how many subjects two raters (or methods) should measure for the test
of ``CCC = ccc0`` with a given power, or for an interval of a given width or lower limit, as
:func:`~wkappa.ccc` computes them (Fisher's z with Lin's delta-method standard error).

``ccc_sample_size`` and ``ccc_power`` share one validated design (``ccc_planning_result``).
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from .._core import Alternative, check_count, norm_cdf, norm_ppf
from .ccc_planning_result import CCCDesign, CCCPlan, build_ccc_design
from .planning_checks import goal_fields, limit_test
from .planning_search import MAX_N, Goal, GoalModel, solve_goal

__all__ = ["CCCPlan", "ccc_power", "ccc_sample_size"]

CCCPlanMethod = Literal["lin"]

# The smallest study whose interval and test wk.ccc computes (Lin's variance divides by n - 2).
MIN_N = 3
# Gauss-Hermite nodes (probabilists') for the expected width: a smooth, bounded integrand.
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(96)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def _se(design: CCCDesign, n: int) -> float:
    """Standard error of Fisher's z at n: ``sqrt(variance / (n - 2))``."""
    return math.sqrt(design.variance / (n - 2))


def _test_power(design: CCCDesign, null: float, alpha: float, alternative: str, n: int) -> float:
    """Power of the test of ``CCC = null`` at ``alpha``: ``z_hat ~ N(atanh(ccc1), se²)`` and
    the test rejects when ``(z_hat - atanh(null)) / se`` passes the normal quantile."""
    gap = (math.atanh(design.ccc1) - math.atanh(null)) / _se(design, n)
    if alternative == "greater":
        return norm_cdf(gap - norm_ppf(1.0 - alpha))
    if alternative == "less":
        return norm_cdf(-gap - norm_ppf(1.0 - alpha))
    quantile = norm_ppf(1.0 - alpha / 2.0)
    return norm_cdf(gap - quantile) + norm_cdf(-gap - quantile)


def _limit_test(design: CCCDesign) -> tuple[float, float, str]:
    """The test whose power is the assurance of ``lower_limit``: the lower limit
    ``tanh(z_hat - q se)`` of the interval clears L when the test of CCC = L rejects."""
    return limit_test(design.lower_limit, design.confidence_level)


def _half(design: CCCDesign, n: int) -> float:
    """The interval's half-width on Fisher's z: ``z_{(1+level)/2} se``."""
    return norm_ppf(0.5 + design.confidence_level / 2.0) * _se(design, n)


def _width(design: CCCDesign, n: int) -> float:
    """Expected width ``E[tanh(Z + h) - tanh(Z - h)]``, ``Z ~ N(atanh(ccc1), se²)``, with
    the width ``2 sinh(2h) / (cosh(2Z) + cosh(2h))`` (Gauss-Hermite quadrature)."""
    h, se = _half(design, n), _se(design, n)
    z = math.atanh(design.ccc1) + se * _NODES
    with np.errstate(over="ignore"):
        width = 2.0 * math.sinh(2.0 * h) / (np.cosh(2.0 * z) + math.cosh(2.0 * h))
    return float(np.dot(_WEIGHTS, width))


def _width_assurance(design: CCCDesign, n: int, asked: float) -> float:
    """``P(width <= asked)``: the width ``2 sinh(2h) / (cosh(2Z) + cosh(2h))`` is at most w
    exactly when ``cosh(2Z) >= c = 2 sinh(2h) / w - cosh(2h)``, i.e. ``|Z| >= acosh(c) / 2``
    (always when c <= 1)."""
    h, se = _half(design, n), _se(design, n)
    c = 2.0 * math.sinh(2.0 * h) / asked - math.cosh(2.0 * h)
    if c <= 1.0:
        return 1.0
    edge = math.acosh(c) / 2.0
    centre = math.atanh(design.ccc1)
    return norm_cdf((centre - edge) / se) + norm_cdf((-edge - centre) / se)


def _power(design: CCCDesign, n: int) -> float:
    if not design.tested:
        return math.nan
    return _test_power(design, design.ccc0, design.alpha, design.alternative, n)


def _assurance(design: CCCDesign, n: int) -> float:
    if design.ci_width is not None:
        return _width_assurance(design, n, design.ci_width)
    if design.lower_limit is None:
        return math.nan
    return _test_power(design, *_limit_test(design), n)


def _start(design: CCCDesign, gap: float, z_sum: float) -> float:
    """The closed form ``n = 2 + variance (z_sum / gap)²``: the search's first guess."""
    return min(2.0 + design.variance * (max(z_sum, 0.0) / gap) ** 2, float(MAX_N))


def _solve(design: CCCDesign) -> tuple[str, int]:
    """The goal and the smallest n (at least 3) meeting it (``solve_goal``), searched from
    the closed forms: for a test, ``gap = |atanh(ccc1) - atanh(null)|`` and ``z_sum`` the
    test's quantile plus the power's; for a width ``w``, the standard error
    ``w / (2 q (1 - ccc1²))`` that gives ``w ≈ 2 q se (1 - ccc1²)``."""
    z1 = math.atanh(design.ccc1)
    quantile = norm_ppf(0.5 + design.confidence_level / 2.0)

    def power_start(null: float, alpha: float, alternative: str, target: float) -> float:
        tail = alpha / 2.0 if alternative == "two-sided" else alpha
        z_sum = norm_ppf(1.0 - tail) + norm_ppf(target)
        return _start(design, abs(z1 - math.atanh(null)), z_sum)

    goal = Goal(
        ci_width=design.ci_width,
        lower_limit=design.lower_limit,
        assurance=design.assurance,
        power=design.power,
        test=(design.ccc0, design.alpha, design.alternative),
        limit_test=_limit_test(design),
        names=("ccc1", "ccc0"),
    )
    model = GoalModel(
        power=lambda null, alpha, alternative, n: _test_power(design, null, alpha, alternative, n),
        width=lambda n: _width(design, n),
        width_assurance=lambda n, width: _width_assurance(design, n, width),
        power_start=power_start,
        width_start=lambda width: _start(design, width / (2.0 * (1.0 - design.ccc1**2)), quantile),
    )
    return solve_goal(goal, model, min_n=MIN_N)


def _plan(design: CCCDesign, n: int | None) -> CCCPlan:
    goal, size = ("n", int(n)) if n is not None else _solve(design)
    return CCCPlan(
        n=size,
        power=_power(design, size),
        expected_width=_width(design, size),
        assurance=_assurance(design, size),
        goal=goal,
        method=design.method,
        ccc1=design.ccc1,
        ccc0=design.ccc0 if design.tested else None,
        **goal_fields(design),
        pearson=design.pearson,
        bias_correction=design.bias_correction,
        location_shift=design.location_shift,
        scale_shift=design.scale_shift,
        standard_error_z=_se(design, size),
    )


def ccc_sample_size(
    *,
    ccc1: float,
    ccc0: float | None = None,
    pearson: float | None = None,
    bias_correction: float | None = None,
    location_shift: float | None = None,
    scale_shift: float | None = None,
    power: float | None = None,
    alpha: float | None = None,
    alternative: Alternative | None = None,
    ci_width: float | None = None,
    lower_limit: float | None = None,
    assurance: float | None = None,
    confidence_level: float = 0.95,
    method: CCCPlanMethod = "lin",
) -> CCCPlan:
    """How many subjects to measure: the sample size of a method-comparison study analysed
    by Lin's concordance correlation coefficient (two raters or methods).

    Each of n subjects is measured once by each of two methods (a new device and the
    reference, two raters). Three goals, as in :func:`~wkappa.icc_sample_size`: the
    **power** of the test of H0: CCC = ``ccc0`` that :func:`~wkappa.ccc` runs (``ccc0=``)
    when the CCC is ``ccc1`` (the default), an expected **interval width** (``ci_width=``;
    with ``assurance=``, the probability that the interval is at most that wide) of the
    interval :func:`~wkappa.ccc` reports, or a **lower limit** that interval should clear
    (``lower_limit=``, with probability ``assurance``). The interval goals run no test: with
    them ``ccc0``, ``power``, ``alpha`` and ``alternative`` are refused.

    Parameters
    ----------
    ccc1 : float
        The anticipated CCC, in (0, 1).
    ccc0 : float, optional
        The CCC of H0, in (-1, 1) as :func:`~wkappa.ccc` takes it (e.g. 0.9: show the new
        method agrees better than that); default 0. The power goal only.
    pearson : float, optional
        The anticipated Pearson correlation r of the two methods, in ``[ccc1, 1)``.
    bias_correction : float, optional
        The anticipated ``C_b = ccc1 / r``, in ``(ccc1, 1]`` (instead of ``pearson``).
    location_shift : float, optional
        Lin's ``u = (mu1 - mu2) / sqrt(sigma1 sigma2)``: the difference of the methods' means
        in units of their (geometric mean) standard deviation.
    scale_shift : float, optional
        Lin's ``v = sigma1 / sigma2``, above 0.
    power : float, optional
        The power wanted (between ``alpha`` and 1); default 0.8. The power goal only.
    alpha : float, optional
        Size of the test (two-sided tests split it between the tails); default 0.05.
    alternative : {'greater', 'less', 'two-sided'}, optional
        Alternative of the test; default 'greater' (show agreement *above* ccc0).
    ci_width : float, optional
        Plan for this expected width of the two-sided interval at ``confidence_level`` (with
        ``assurance``: for this width at most, with that probability).
    lower_limit : float, optional
        Plan for the lower limit of that interval to exceed this CCC.
    assurance : float, optional
        With ``lower_limit``: the probability wanted that it does (default 0.5). With
        ``ci_width``: the probability wanted that the interval is at most ``ci_width`` wide.
    confidence_level : float, default 0.95
        Level of the interval of ``ci_width`` / ``lower_limit`` (and of ``expected_width``).
    method : {'lin'}, default 'lin'
        Lin's delta-method normal approximation of Fisher's z (the only method).

    Returns
    -------
    CCCPlan
        ``n`` and what that n delivers (``power``, ``expected_width``, ``assurance``).

    Raises
    ------
    WkappaError
        A CCC outside its range, ``ccc1 == ccc0``, ``ccc1`` on the wrong side of ``ccc0``
        for the alternative, a design one shape keyword leaves open or more over-determine
        (or that no bivariate distribution has: Pearson's r at 1 or more, shifts that lower
        ``C_b`` below ``ccc1 / pearson``), ``power`` outside (alpha, 1), ``alpha`` outside
        (0, 1), a width not in (0, 2), a lower limit not below ``ccc1``, a goal no study of
        up to 10**6 subjects meets, or a test option with an interval goal.

    Notes
    -----
    **The design.** Lin (1989) writes the CCC of two methods with means ``mu1, mu2``,
    standard deviations ``sigma1, sigma2`` and correlation r as

    .. math::

        \\rho_c = r\\, C_b, \\qquad C_b = \\frac{2}{v + 1/v + u^2}, \\qquad
        v = \\frac{\\sigma_1}{\\sigma_2}, \\qquad
        u = \\frac{\\mu_1 - \\mu_2}{\\sqrt{\\sigma_1 \\sigma_2}}.

    The variance of Fisher's z depends on ``rho_c``, r and u, so ``ccc1`` and two of
    ``pearson`` (or ``bias_correction``), ``location_shift`` and ``scale_shift`` pin it; with
    none of them the methods differ only by random error (``r = ccc1``, ``u = 0``,
    ``v = 1``), the design with the largest variance for a given CCC (the variance below is
    then ``1 / (n - 2)``): a plan without them is the conservative one. One of them alone
    leaves the design open, and is refused.

    **The variance.** Lin's (1989; corrected in Lin 2000) delta-method variance of
    ``z = atanh(rho_c_hat)`` with 1/n moments, the standard error :func:`~wkappa.ccc`
    reports (``standard_error_z``) at the design's values:

    .. math::

        \\sigma_z^2 = \\frac{1}{n - 2}\\left[\\frac{(1 - r^2)\\rho_c^2}{(1 - \\rho_c^2) r^2}
        + \\frac{2 \\rho_c^3 (1 - \\rho_c) u^2}{r (1 - \\rho_c^2)^2}
        - \\frac{\\rho_c^4 u^4}{2 r^2 (1 - \\rho_c^2)^2}\\right].

    **The goals.** With ``z_hat ~ N(atanh(ccc1), sigma_z²)``, the test of :func:`~wkappa.ccc`
    rejects H0: CCC = ccc0 when ``(z_hat - atanh(ccc0)) / sigma_z`` passes the normal
    quantile, so ``power = Phi(|atanh(ccc1) - atanh(ccc0)| / sigma_z - z_{1-alpha})``
    ('two-sided': both tails at alpha / 2). The interval is ``tanh(z_hat -/+ q sigma_z)``,
    ``q = z_{(1+level)/2}``: its lower limit clears L with probability
    ``Phi((atanh(ccc1) - atanh(L)) / sigma_z - q)``; its width ``2 sinh(2h) / (cosh(2 z_hat) +
    cosh(2h))``, ``h = q sigma_z``, is at most w when ``|z_hat|`` is at least
    ``acosh(2 sinh(2h) / w - cosh(2h)) / 2``, and its expected width is integrated over
    ``z_hat`` (Gauss-Hermite). n is the smallest, at least 3, meeting the goal. The
    standard error the study estimates varies with the sample; the plan takes it at its
    design value (a large-sample approximation): ``benchmarks/ccc_planning_study.py``
    measures what the plans deliver in simulated bivariate-normal studies analysed by
    :func:`~wkappa.ccc`.

    Examples
    --------
    A new blood-pressure cuff against the reference; the pilot suggests a CCC of 0.95 with
    no systematic difference; show it is above 0.9 (one-sided 5%) with 80% power:

    >>> import wkappa as wk
    >>> plan = wk.ccc_sample_size(ccc1=0.95, ccc0=0.9)
    >>> plan.n, round(plan.power, 3)
    (50, 0.801)

    The same CCC from a correlation of 0.97 and a bias (the cuff reads high): a smaller
    variance, fewer subjects:

    >>> plan = wk.ccc_sample_size(ccc1=0.95, ccc0=0.9, pearson=0.97, scale_shift=1)
    >>> plan.n, round(plan.location_shift, 3)
    (45, 0.205)

    A 95% interval at most 0.1 wide with probability 0.9:

    >>> wk.ccc_sample_size(ccc1=0.9, ci_width=0.1, assurance=0.9).n
    95
    """
    inputs = dict(locals())  # every parameter, by name: build_ccc_design's keywords
    return _plan(build_ccc_design(n_given=False, **inputs), None)


def ccc_power(
    n: int,
    *,
    ccc1: float,
    ccc0: float = 0.0,
    pearson: float | None = None,
    bias_correction: float | None = None,
    location_shift: float | None = None,
    scale_shift: float | None = None,
    alpha: float = 0.05,
    alternative: Alternative = "greater",
    ci_width: float | None = None,
    lower_limit: float | None = None,
    confidence_level: float = 0.95,
    method: CCCPlanMethod = "lin",
) -> CCCPlan:
    """What a study of ``n`` subjects delivers: power, expected interval width, assurance.

    Parameters
    ----------
    n : int
        Number of subjects (at least 3: Lin's variance divides by n - 2).
    ccc1, ccc0, pearson, bias_correction, location_shift, scale_shift, alpha, alternative
        As in :func:`~wkappa.ccc_sample_size`.
    ci_width : float, optional
        Report as ``assurance`` the probability that the interval is at most this wide.
    lower_limit, confidence_level, method
        As in :func:`~wkappa.ccc_sample_size`.

    Returns
    -------
    CCCPlan
        With ``goal='n'``: ``power`` of the test of ``ccc0`` (its size ``alpha`` when
        ``ccc1 == ccc0``, below it on the wrong side of the alternative),
        ``expected_width`` of the interval at ``confidence_level`` and, with
        ``lower_limit``, the ``assurance`` that its lower limit clears it (with
        ``ci_width``, that the interval is at most that wide).

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.ccc_power(40, ccc1=0.95, ccc0=0.9)
    >>> round(result.power, 3), round(result.expected_width, 3)
    (0.716, 0.068)
    """
    check_count(n, "n", MIN_N, "subjects; Lin's variance divides by n - 2")
    inputs = {name: value for name, value in locals().items() if name != "n"}
    design = build_ccc_design(n_given=True, power=None, assurance=None, **inputs)
    return _plan(design, int(n))
