"""ICC study planning: how many subjects k raters should rate for the F test of
``ICC = icc0`` with a given power, or for an interval of a given width or lower limit.

``icc_sample_size`` and ``icc_power`` share one validated design (``icc_planning_result``)
and the exact and approximate computations of ``icc_planning_methods``.
"""

from __future__ import annotations

import math
from typing import Literal

from .._core import Alternative, check_count
from .icc_planning_methods import (
    approximate_n_power,
    approximate_n_width,
    approximate_power,
    approximate_width,
    degrees_of_freedom,
    exact_power,
    exact_width,
    exact_width_assurance,
)
from .icc_planning_result import ICCDesign, ICCPlan, build_icc_design
from .planning_checks import goal_fields, limit_test
from .planning_search import Goal, GoalModel, solve_goal

__all__ = ["ICCPlan", "icc_power", "icc_sample_size"]

ICCPlanMethod = Literal["exact", "approximate"]


def _test_power(design: ICCDesign, null: float, alpha: float, alternative: str, n: int) -> float:
    """Power of the F test of the single-rater ICC ``null`` at ``alpha`` against
    ``alternative``, by the design's method."""
    if design.method == "exact":
        return exact_power(design.rho1, null, design.k, n, design.two_way, alpha, alternative)
    return approximate_power(design.rho1, null, design.k, n, alpha, alternative)


def _limit_test(design: ICCDesign) -> tuple[float, float, str]:
    """The test of the single-rater ICC whose power is the assurance of ``lower_limit``."""
    return limit_test(design.rho_limit, design.confidence_level)


def _power(design: ICCDesign, n: int) -> float:
    if not design.tested:
        return math.nan
    return _test_power(design, design.rho0, design.alpha, design.alternative, n)


def _assurance(design: ICCDesign, n: int) -> float:
    if design.ci_width is not None and design.method == "exact":
        return exact_width_assurance(
            design.rho1, design.k, n, design.two_way, design.confidence_level, design.average,
            design.ci_width,
        )  # fmt: skip
    if design.lower_limit is None:
        return math.nan
    return _test_power(design, *_limit_test(design), n)


def _width(design: ICCDesign, n: int) -> float:
    if design.method == "exact":
        return exact_width(
            design.rho1, design.k, n, design.two_way, design.confidence_level, design.average
        )
    return approximate_width(design.rho1, design.k, n, design.confidence_level)


def _solve(design: ICCDesign) -> tuple[str, int]:
    """The goal and the smallest n meeting it (the closed form's n with 'approximate')."""
    k, rho1, level = design.k, design.rho1, design.confidence_level
    goal = Goal(
        ci_width=design.ci_width,
        lower_limit=design.lower_limit,
        assurance=design.assurance,
        power=design.power,
        test=(design.rho0, design.alpha, design.alternative),
        limit_test=_limit_test(design),
        names=("icc1", "icc0"),
        remedies=("more raters (`n_raters`)",),
    )
    model = GoalModel(
        power=lambda null, alpha, alternative, n: _test_power(design, null, alpha, alternative, n),
        width=lambda n: _width(design, n),
        width_assurance=lambda n, _: _assurance(design, n),
        power_start=lambda null, alpha, alternative, target: approximate_n_power(
            rho1, null, k, alpha, alternative, target
        ),
        width_start=lambda width: (
            10.0 if design.average else approximate_n_width(rho1, k, width, level)
        ),
    )
    return solve_goal(goal, model, closed_form=design.method == "approximate")


def _plan(design: ICCDesign, n: int | None) -> ICCPlan:
    goal, size = ("n", int(n)) if n is not None else _solve(design)
    df1, df2 = degrees_of_freedom(size, design.k, design.two_way)
    return ICCPlan(
        n=size,
        power=_power(design, size),
        expected_width=_width(design, size),
        assurance=_assurance(design, size),
        goal=goal,
        method=design.method,
        form=design.form,
        icc1=design.icc1,
        icc0=design.icc0 if design.tested else None,
        **goal_fields(design),
        n_raters=design.k,
        df1=df1,
        df2=df2,
    )


def icc_sample_size(
    *,
    icc1: float,
    icc0: float | None = None,
    n_raters: int = 2,
    form: str = "1,1",
    power: float | None = None,
    alpha: float | None = None,
    alternative: Alternative | None = None,
    ci_width: float | None = None,
    lower_limit: float | None = None,
    assurance: float | None = None,
    confidence_level: float = 0.95,
    method: ICCPlanMethod = "exact",
) -> ICCPlan:
    """How many subjects to rate: the sample size of an ICC reliability study.

    Each of n subjects is rated by the same number of raters k (``n_raters``; or measured k
    times). Three goals, as in :func:`~wkappa.kappa_sample_size`: the **power** of the F
    test of H0: ICC = ``icc0`` that :func:`~wkappa.icc` runs (``icc0=``) when the ICC is
    ``icc1`` (the default), an expected **interval width** (``ci_width=``) of the F interval
    :func:`~wkappa.icc` reports, or a **lower limit** that interval should clear
    (``lower_limit=``, with probability ``assurance``). The interval goals run no test: with
    them ``icc0``, ``power``, ``alpha`` and ``alternative`` are refused.

    Parameters
    ----------
    icc1 : float
        The anticipated ICC of ``form``: in ``(-1/(k-1), 1)`` for a single rater, below 1 for
        the mean of k raters.
    icc0 : float, optional
        The ICC of H0, in [0, 1) as :func:`~wkappa.icc` takes it (e.g. 0.6: show
        reliability better than "moderate"); default 0. The power goal only.
    n_raters : int, default 2
        Raters (or repeated measurements) per subject, k >= 2.
    form : {'1,1', 'C,1', '1,k', 'C,k'}, default '1,1'
        The ICC planned for, in McGraw & Wong's names (or Shrout & Fleiss's 'ICC1',
        'ICC3', 'ICC1k', 'ICC3k'). See Notes; the absolute-agreement forms 'A,1' and 'A,k'
        are refused.
    power : float, optional
        The power wanted (between ``alpha`` and 1); default 0.8. The power goal only.
    alpha : float, optional
        Size of the test (two-sided tests split it between the tails); default 0.05.
    alternative : {'greater', 'less', 'two-sided'}, optional
        Alternative of the test; default 'greater' (show reliability *above* icc0).
    ci_width : float, optional
        Plan for this expected width of the two-sided interval at ``confidence_level`` (with
        ``assurance``: for this width at most, with that probability).
    lower_limit : float, optional
        Plan for the lower limit of that interval to exceed this ICC.
    assurance : float, optional
        With ``lower_limit``: the probability wanted that it does (default 0.5). With
        ``ci_width`` (``method='exact'``): the probability wanted that the interval is at
        most ``ci_width`` wide (Zou 2012's goal; without it the *expected* width is
        planned, which about half the studies exceed).
    confidence_level : float, default 0.95
        Level of the interval of ``ci_width`` / ``lower_limit`` (and of ``expected_width``).
    method : {'exact', 'approximate'}, default 'exact'
        'exact': the F distribution of the mean-square ratio (see Notes), n the smallest
        meeting the goal. 'approximate': the published closed forms, Walter, Eliasziw &
        Donner (1998) for the test (and the lower limit), Bonett (2002) for the width.

    Returns
    -------
    ICCPlan
        ``n`` and what that n delivers (``power``, ``expected_width``, ``assurance``).

    Raises
    ------
    WkappaError
        An ICC outside its range, ``icc1 == icc0``, ``icc1`` on the wrong side of ``icc0``
        for the alternative, ``n_raters`` below 2, ``power`` outside (alpha, 1), ``alpha``
        outside (0, 1), a width not above 0 or beyond the ICC's range, a lower limit not below
        ``icc1``, a goal no study of up to 10**6 subjects meets (by either method), an
        absolute-agreement form, or a test option with an interval goal.

    Notes
    -----
    **Model.** ``x_ij = mu + s_i + e_ij`` with subject effects ``s_i ~ N(0, sigma_s^2)`` and
    errors ``e_ij ~ N(0, sigma_e^2)``: ``ICC = sigma_s^2 / (sigma_s^2 + sigma_e^2)``. With
    ``theta(rho) = (1 + (k-1) rho) / (1 - rho)``, the ratio F of the mean squares between
    subjects and of error, divided by ``theta(ICC)``, has an F distribution with
    ``d1 = n - 1`` and ``d2`` degrees of freedom: ``n (k-1)`` for the one-way ICC '1,1'
    (error = within subjects; raters' systematic differences count as error) and
    ``(n-1)(k-1)`` for the consistency ICC 'C,1' of the two-way model (raters' fixed or random
    offsets removed; Shrout & Fleiss's ICC(3,1)). The F test of :func:`~wkappa.icc` rejects
    ICC = rho0 for large ``F / theta(rho0)``, so (Donner & Eliasziw 1987; Walter, Eliasziw &
    Donner 1998)

    .. math::

        \\mathrm{power} = P\\big(F_{d_1, d_2} > C_0\\, f_{1-\\alpha}(d_1, d_2)\\big),
        \\qquad C_0 = \\frac{1 + k \\rho_0 / (1 - \\rho_0)}{1 + k \\rho_1 / (1 - \\rho_1)}

    exactly ('less': the lower tail; 'two-sided': both, at alpha / 2). The lower limit of the
    exact interval clears L exactly when the test of ICC = L at one-sided size
    ``(1 - level)/2`` rejects, so ``assurance`` is that power. With ``ci_width`` the
    ``assurance`` is the probability that the width is at most ``ci_width``: the width is a
    function of F, at most w below one root of a quadratic in F and above the other (see
    ``exact_width_assurance``), so this probability is exact too. The expected width is the mean
    of the exact interval's width over the F distribution (numerical integration; a closed
    form for the mean of k raters). The average-measure ICCs '1,k' and 'C,k' have the same
    test (their values are the single-rater ones stepped up by Spearman-Brown): their power
    and n are those of the single-rater ICC, their interval wider.

    **Approximate.** Walter, Eliasziw & Donner's (1998) closed form

    .. math::

        n = 1 + \\frac{2 (z_{1-\\alpha} + z_{\\mathrm{power}})^2\\, k}
        {(\\ln C_0)^2 (k - 1)}

    (``z_{1-alpha/2}`` two-sided), and Bonett's (2002)

    .. math::

        n = 1 + \\frac{8 z^2 (1 - \\rho)^2 (1 + (k-1) \\rho)^2}{k (k - 1) w^2},
        \\qquad z = z_{(1 + \\mathrm{level})/2}

    plus ``5 rho`` subjects for k = 2 and rho >= 0.7 (his correction; R presize's
    ``prec_icc``), both rounded up. The exact method needs no such correction, and its
    power, assurance and width are those of the F test and interval as :func:`~wkappa.icc`
    computes them.

    **Absolute agreement** ('A,1', 'A,k'): its F test uses McGraw & Wong's approximate
    degrees of freedom, which depend on the raters' variance: there is no exact power to
    plan with. When the raters do not differ systematically A,1 is C,1's ICC, so plan with
    'C,1' and check the n by simulation with the rater variance you anticipate.

    Examples
    --------
    Three raters, anticipated ICC 0.8; show ICC > 0.6 (one-sided 5%) with 80% power:

    >>> import wkappa as wk
    >>> plan = wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=3)
    >>> plan.n, round(plan.power, 3)
    (26, 0.805)

    Walter et al.'s closed form for the same test:

    >>> wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=3, method="approximate").n
    27

    Bonett's example: four raters, ICC 0.85, a 95% interval 0.2 wide:

    >>> wk.icc_sample_size(icc1=0.85, n_raters=4, ci_width=0.2, method="approximate").n
    20
    >>> plan = wk.icc_sample_size(icc1=0.85, n_raters=4, ci_width=0.2)
    >>> plan.n, round(plan.expected_width, 3)
    (21, 0.199)
    """
    inputs = dict(locals())  # every parameter, by name: build_icc_design's keywords
    return _plan(build_icc_design(n_given=False, **inputs), None)


def icc_power(
    n: int,
    *,
    icc1: float,
    icc0: float = 0.0,
    n_raters: int = 2,
    form: str = "1,1",
    alpha: float = 0.05,
    alternative: Alternative = "greater",
    ci_width: float | None = None,
    lower_limit: float | None = None,
    confidence_level: float = 0.95,
    method: ICCPlanMethod = "exact",
) -> ICCPlan:
    """What a study of ``n`` subjects delivers: power, expected interval width, assurance.

    Parameters
    ----------
    n : int
        Number of subjects (at least 2).
    icc1, icc0, n_raters, form, alpha, alternative, lower_limit, confidence_level, method
        As in :func:`~wkappa.icc_sample_size`.
    ci_width : float, optional
        With ``method='exact'``: report as ``assurance`` the probability that the interval
        is at most this wide (refused with ``method='approximate'``, whose width formula
        gives no such probability).

    Returns
    -------
    ICCPlan
        With ``goal='n'``: ``power`` of the F test of ``icc0`` (its size ``alpha`` when
        ``icc1 == icc0``, below it on the wrong side of the alternative),
        ``expected_width`` of the interval at ``confidence_level`` and, with
        ``lower_limit``, the ``assurance`` that its lower limit clears it (with
        ``ci_width``, that the interval is at most that wide).

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.icc_power(30, icc1=0.8, icc0=0.6, n_raters=3)
    >>> round(result.power, 3), round(result.expected_width, 3)
    (0.852, 0.225)
    """
    check_count(n, "n", 2, "subjects")
    inputs = {name: value for name, value in locals().items() if name != "n"}
    design = build_icc_design(n_given=True, power=None, assurance=None, **inputs)
    return _plan(design, int(n))
