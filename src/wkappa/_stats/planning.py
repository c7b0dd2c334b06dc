"""Study planning: how many items to rate twice (or by several raters) for a test of
``kappa = kappa0`` with a given power, or for an interval of a given width or lower limit.

``kappa_sample_size`` and ``kappa_power`` share one validated design (``planning_result``)
and four methods (``planning_methods``; see the Notes of :func:`kappa_sample_size`); the
population models, the linear programs and the goodness-of-fit cells live in
``planning_models``, the simulation in ``planning_simulation``.
"""

from __future__ import annotations

from typing import Literal

import numpy.typing as npt

from .._core import (
    AgreementWeightsLike,
    Alternative,
    check_choice,
    check_count,
    format_value,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from .bootstrap_method import SeedLike
from .planning_methods import make_plan
from .planning_result import METHODS, KappaPlan, build_design

__all__ = ["KappaPlan", "kappa_power", "kappa_sample_size"]

PlanMethod = Literal["asymptotic", "goodness-of-fit", "max-variance", "simulation"]


def kappa_sample_size(
    *,
    kappa1: float | None = None,
    kappa0: float | None = None,
    table: npt.ArrayLike | None = None,
    marginals: npt.ArrayLike | None = None,
    weights: AgreementWeightsLike = "quadratic",
    power: float | None = None,
    alpha: float | None = None,
    alternative: Alternative | None = None,
    ci_width: float | None = None,
    lower_limit: float | None = None,
    assurance: float | None = None,
    confidence_level: float = 0.95,
    n_raters: int = 2,
    coefficient: str | None = None,
    method: PlanMethod = "asymptotic",
    n_simulations: int | None = None,
    rng: SeedLike = None,
) -> KappaPlan:
    """How many items to rate: the sample size of an agreement study.

    Three goals: the **power** of wkappa's test of H0: kappa = ``kappa0`` when the
    population kappa is ``kappa1`` (the default), an expected **interval width**
    (``ci_width=``), or a **lower limit** the interval should clear (``lower_limit=``, with
    probability ``assurance``). The interval goals run no test: with them the test's
    options ``kappa0``, ``power``, ``alpha`` and ``alternative`` are refused (the interval's
    level is ``confidence_level``, the probability of clearing the limit ``assurance``),
    and the plan reports no power.

    Parameters
    ----------
    kappa1 : float, optional
        The anticipated kappa. Required with ``marginals=``; with ``table=`` it moves the
        table to this kappa (see Notes); without it the table's own kappa is used.
    kappa0 : float, optional
        The kappa of H0 (e.g. 0.6: show agreement better than "moderate"); default 0. The
        power goal only.
    table : array-like of shape (K, K), optional
        The anticipated population: cell probabilities (summing to 1) or a pilot table of
        integer counts (normalised). Rows rater A, columns rater B.
    marginals : array-like of shape (K,) or (2, K), optional
        Category probabilities shared by the raters, or one row per rater; with ``kappa1``
        they define the population by the model in the Notes.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights W, as in :func:`~wkappa.weighted_kappa`. With several raters,
        any weights of :func:`~wkappa.agreement`. ``method='goodness-of-fit'`` takes
        unweighted kappa only.
    power : float, optional
        The power wanted (between ``alpha`` and 1); default 0.8. The power goal only.
    alpha : float, optional
        Size of the test (two-sided tests split it between the tails); default 0.05. The
        power goal only. Named as in
        statsmodels' power functions and kappaSize: a test's size, where the interval goals
        (``ci_width``, ``lower_limit``) take a ``confidence_level`` as every result's
        ``confidence_interval`` does.
    alternative : {'greater', 'less', 'two-sided'}, optional
        Alternative of the test; default 'greater' (the usual plan shows agreement *above*
        kappa0). The power goal only: the intervals are two-sided.
    ci_width : float, optional
        Plan for this expected width of the two-sided interval at ``confidence_level``.
        With ``method='goodness-of-fit'`` (kappaSize's CI functions) n is the smallest whose
        expected limits both lie within ``kappa1 ± ci_width / 2``: the wider side of the
        asymmetric interval decides, so the plan's ``expected_width`` is usually below
        ``ci_width`` (0.1925 for 0.2 at kappa1 = 0.4, marginals (0.3, 0.7): n = 397, where a
        width of 0.2 alone needs 368 items).
    lower_limit : float, optional
        Plan for the lower limit of that interval to exceed this value.
    assurance : float, optional
        With ``lower_limit``: the probability wanted that it does (default 0.5: the
        *expected* lower limit clears it, as kappaSize's CI functions).
    confidence_level : float, default 0.95
        Level of the interval of ``ci_width`` / ``lower_limit``.
    n_raters : int, default 2
        Raters per item. More than 2 (or a ``coefficient``): 'simulation' or
        'goodness-of-fit' only.
    coefficient : {'cohen', 'fleiss', 'conger', 'gwet', 'brennan_prediger', 'krippendorff', \
'percent'}, optional
        The coefficient planned for: 'cohen', Cohen's (weighted) kappa of two raters (what
        None means with two raters; the plan's ``coefficient`` is then None), or a
        several-raters coefficient of :func:`~wkappa.agreement` ('percent' is percent
        agreement, ``kappa1`` its anticipated value). None is Cohen's kappa for two raters
        and Fleiss' kappa for more.
    method : {'asymptotic', 'goodness-of-fit', 'max-variance', 'simulation'}
        See Notes.
    n_simulations : int, optional
        Simulated studies per candidate n (method='simulation' only, refused with a formula;
        default 10,000 for two raters, 1,000 for several).
    rng : None, int, numpy.random.SeedSequence, numpy.random.Generator or numpy.random.RandomState
        Seed of the simulation (method='simulation' only; an integer makes the plan
        reproducible). It takes what every ``rng=`` of wkappa takes, the seeds of
        :func:`numpy.random.default_rng`: a Generator, RandomState or BitGenerator is advanced
        by one draw.

    Returns
    -------
    KappaPlan
        ``n`` and what that n delivers (``power``, ``expected_width``, ``assurance``).

    Raises
    ------
    WkappaError
        Probabilities that do not sum to 1, ``kappa1`` or (two raters) ``kappa0`` outside
        the kappas the marginals allow,
        ``power`` outside (alpha, 1), a negative width, a goal no study can meet, an option
        of the test (``kappa0``, ``power``, ``alpha``, ``alternative``) with an interval
        goal.

    Warns
    -----
    wkappa.exceptions.PlanApproximationWarning
        With ``method='asymptotic'`` or ``'max-variance'``, when the rarest category expects
        fewer than 15 ratings at the planned n and 2,000 simulated studies of that n meet
        the power (or assurance) asked in a share more than 0.05 below it (``kappa0 = 0``
        with a rare category: plan with ``method='simulation'``); with
        ``method='goodness-of-fit'``, outside the range of its chi-square approximation.

    Notes
    -----
    **Population model.** ``marginals`` ``r`` (rater A) and ``c`` (rater B) with ``kappa1``
    give the table ``P = (1 - s) r c' + s M``: chance mixed with the table ``M`` of these
    margins that agrees most under W (found by a small linear program), ``s = kappa1 /
    kappa(M)``. With shared marginals ``pi``, ``M = diag(pi)`` and
    ``P = (1 - kappa1) pi pi' + kappa1 diag(pi)`` for every W (the common-kappa model of
    Donner & Eliasziw 1992 and kappaSize); with two categories P is the only table with these
    margins and kappa (Cantor 1996). A ``kappa1`` above ``kappa(M)`` is refused. ``table``
    with ``kappa1`` is moved to that kappa along the path of the score interval (mixed with
    chance below its kappa, with perfect agreement above).

    **'asymptotic'** (default): wkappa's test divides by the standard error under H0, so with
    ``sigma_0`` and ``sigma_1`` the per-item standard deviations of kappa (Fleiss, Cohen &
    Everitt 1969, any W) at the H0 table (see :func:`~wkappa.kappa_test_from_table`) and at
    P,

    .. math::

        n = \\Big(\\frac{z_{1-\\alpha}\\,\\sigma_0 + z_{\\mathrm{power}}\\,\\sigma_1}
        {\\kappa_1 - \\kappa_0}\\Big)^2

    (``z_{1-alpha/2}`` two-sided), rounded up; for two categories this is Cantor's (1996)
    formula, R irr's ``N.cohen.kappa``. Width: ``n = (2 z sigma_1 / width)²``. Lower limit:
    the formula with ``kappa0 = lower_limit``, ``z = z_{(1+level)/2}`` and
    ``power = assurance`` (the score interval's lower limit clears L exactly when that test
    rejects). The normal approximation fails at a small n with a sparse category
    (``kappa0 = 0`` and a rare category): where the rarest category expects fewer than 15
    ratings, the plan simulates 2,000 studies of its n and warns
    (:class:`~wkappa.exceptions.PlanApproximationWarning`) when wkappa's test (or the lower
    limit) meets the goal in a share more than 0.05 below it; plan such designs with
    ``method='simulation'``.

    **'max-variance'** (Flack et al. 1988; R irr's ``N2.cohen.kappa``, lrstat's
    ``getDesignAgreement``): the same formula with ``sigma_0``, ``sigma_1`` the largest
    standard deviations of any table with P's margins and kappa ``kappa0`` / ``kappa1``:
    with margins and kappa fixed the variance is linear in the table, so this is a linear
    program (solved here for any W by a dense simplex; no scipy). It plans for the worst
    pattern of disagreement.

    **'goodness-of-fit'** (Donner & Eliasziw 1992, kappaSize): under the common-kappa model
    the cells "all raters agree on category i" and "they disagree" (two categories: the
    number of raters giving the second one) have probabilities ``P_j(kappa)``;
    ``n = lambda / sum_j (P_j(kappa1) - P_j(kappa0))² / P_j(kappa0)`` with ``lambda`` the
    noncentrality of a 1-df chi-square test of size alpha with this power (kappaSize's
    PowerBinary / Power3Cats ...; two-sided there). Intervals as kappaSize's CIBinary and
    presize's ``prec_kappa``: the limits whose statistic reaches the critical value. It
    needs shared marginals, and it plans for unweighted kappa: the cells count agreeing and
    disagreeing ratings, not how far apart they are, so its n and power are not those of a
    weighted kappa's test, and weights that do not give every disagreement the same weight
    are refused (with two categories every name is unweighted kappa). The approximation
    is local: where a cell is more than 3 times as likely under ``kappa1`` as under
    ``kappa0`` (``kappa0 = 0`` with several raters or a rare category) the plan warns
    (:class:`~wkappa.exceptions.PlanApproximationWarning`), since such plans delivered
    0.02-0.69 power where 0.8 was asked.

    **'simulation'**: ``n_simulations`` studies of n items are drawn from P (one multinomial
    draw of n over the K² cells each) and run through wkappa's own test (with ``kappa0``)
    and score interval, batched over the stack of tables; the smallest n whose simulated
    power (or assurance, or mean width) meets the goal is found by bisection from the
    asymptotic n, with one reproducible stream of draws per n. A study without a kappa (all
    its pairs in one category) counts as not rejecting, not clearing the limit, and with the
    width 2 of [-1, 1] in the mean width. It is exact up to Monte
    Carlo error (``monte_carlo_error``) at any n. With several raters each study's ratings
    follow the common-kappa model (with probability kappa1 every rater gives one category
    drawn from ``pi``, otherwise independent draws) and the coefficient's asymptotic
    interval of :func:`~wkappa.agreement` decides (H0 rejected when kappa0 is outside it).

    Examples
    --------
    Two readers, five ordinal grades with these frequencies; anticipated QWK 0.8; show
    QWK > 0.6 with 80% power:

    >>> import wkappa as wk
    >>> plan = wk.kappa_sample_size(kappa1=0.8, kappa0=0.6,
    ...                             marginals=[0.1, 0.2, 0.4, 0.2, 0.1])
    >>> plan.n, round(plan.power, 3)
    (116, 0.801)

    The number of items for a 95% interval of expected width 0.2 (kappa within ±0.1):

    >>> wk.kappa_sample_size(kappa1=0.8, marginals=[0.1, 0.2, 0.4, 0.2, 0.1],
    ...                      ci_width=0.2).n
    194
    """
    inputs = dict(locals())  # every parameter, by name: build_design's keywords
    return make_plan(build_design(n_given=False, **inputs), None)


def kappa_power(
    n: int,
    *,
    kappa1: float | None = None,
    kappa0: float = 0.0,
    table: npt.ArrayLike | None = None,
    marginals: npt.ArrayLike | None = None,
    weights: AgreementWeightsLike = "quadratic",
    alpha: float = 0.05,
    alternative: Alternative = "greater",
    lower_limit: float | None = None,
    confidence_level: float = 0.95,
    n_raters: int = 2,
    coefficient: str | None = None,
    method: PlanMethod = "asymptotic",
    n_simulations: int | None = None,
    rng: SeedLike = None,
) -> KappaPlan:
    """What a study of ``n`` items delivers: power, expected interval width, assurance.

    Parameters
    ----------
    n : int
        Number of items (at least 2).
    kappa1, kappa0, table, marginals, weights, alpha, alternative, lower_limit, \
confidence_level, n_raters, coefficient, method, n_simulations, rng
        As in :func:`~wkappa.kappa_sample_size`.

    Returns
    -------
    KappaPlan
        With ``goal='n'``: ``power`` of the test of ``kappa0``, ``expected_width`` of the
        interval at ``confidence_level`` and, with ``lower_limit``, the ``assurance`` that
        its lower limit clears it.

    Warns
    -----
    wkappa.exceptions.UndefinedKappaWarning
        When the anticipated kappa equals ``kappa0``: there is nothing to detect, and
        ``power`` is nan.
    wkappa.exceptions.PlanApproximationWarning
        With ``method='asymptotic'`` or ``'max-variance'``, when the rarest category expects
        fewer than 15 ratings at n and 2,000 simulated studies reject (or clear
        ``lower_limit``) in a share more than 0.05 below the ``power`` (``assurance``) stated;
        and with ``method='goodness-of-fit'`` outside its chi-square approximation.

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_power(100, kappa1=0.85, kappa0=0.7, marginals=[0.5, 0.5],
    ...                         weights="unweighted")
    >>> round(result.power, 3), round(result.expected_width, 3)
    (0.732, 0.206)
    """
    check_count(n, "n", 2, "items")
    method = check_choice(method, "method", METHODS)
    if method == "simulation" and n >= 2**62:
        raise WkappaError(
            f"`n` = {format_value(n)} is too large to simulate (a study's counts are 64-bit "
            "integers; below 2**62). Hint: method='asymptotic' plans for any n."
        )
    inputs = {name: value for name, value in locals().items() if name != "n"}
    design = build_design(n_given=True, power=None, ci_width=None, assurance=None, **inputs)
    plan = make_plan(design, int(n))
    if design.tested and design.kappa1 == design.kappa0:
        warn_at_caller(
            f"The power is undefined: the anticipated kappa and `kappa0` are both "
            f"{design.kappa0:g}, so there is no departure from H0 to detect (the test rejects "
            f"there with probability alpha = {design.alpha:g}, its size). Returning nan for "
            "power; the expected width and assurance stand. Hint: `kappa0` is the value to "
            "reject, `kappa1` the agreement you anticipate.",
            UndefinedKappaWarning,
        )
    return plan
