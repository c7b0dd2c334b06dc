"""The result of a study plan (:class:`KappaPlan`) and the validated design it is made from."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import (
    COEFFICIENTS,
    GWET_WEIGHTS,
    Alternative,
    agreement_weight_matrix,
    check_agreement_weights,
    check_choice,
    check_count,
    check_weights,
    real_number,
    weight_matrix,
    weights_name,
)
from ..exceptions import WkappaError
from .bootstrap_method import make_rng
from .frozen_arrays import readonly
from .intervals import check_confidence_level
from .json_values import json_fields
from .planning_checks import check_goal, check_power_goal, check_test_level
from .planning_models import (
    check_attainable_null,
    check_probability,
    model_table,
    population_table,
    table_kappa_value,
)
from .planning_simulation import CHANCE_DIFFERS, SimulatedStudies, chance_value
from .planning_text import (
    approximation_text,
    explain_plan,
    plan_goal_text,
    plan_repr,
)

__all__ = ["METHODS", "KappaPlan", "PlanDesign", "build_design"]

METHODS = ("asymptotic", "goodness-of-fit", "max-variance", "simulation")
# Default number of simulated studies per candidate n.
N_SIMULATIONS = 10_000
N_SIMULATIONS_SEVERAL = 1_000


@dataclass(frozen=True, eq=False, repr=False)
class KappaPlan:
    """A planned agreement study: its number of items and what it delivers.

    Made by :func:`~wkappa.kappa_sample_size` (``n`` solved for the goal) and
    :func:`~wkappa.kappa_power` (``n`` given).

    Attributes
    ----------
    n : int
        Number of items (each rated by every rater).
    power : float
        Probability that wkappa's test of H0: kappa = ``kappa0`` rejects at ``alpha``
        against ``alternative`` when the population kappa is ``kappa1`` (nan when
        ``kappa1 == kappa0``, and for the ``ci_width`` and ``lower_limit`` goals, which run
        no test). For 'goodness-of-fit' it is the power of Donner & Eliasziw's chi-square
        test of the common-kappa model's cells, which wkappa's test of Fleiss' kappa need
        not reach with several raters (``explain()`` says so): check the n with
        'simulation'.
    expected_width : float
        Expected width of the two-sided interval at ``confidence_level`` (the asymptotic
        interval for the 'asymptotic' and 'max-variance' methods, the 'score' interval for
        'simulation' of two raters, the goodness-of-fit limits for 'goodness-of-fit'). For
        the asymptotic interval it is the width ``confidence_interval()`` reports for a study
        that observes the anticipated table: that Wald interval is not clipped to the range
        of kappa, so on a handful of items its width can exceed 2 (2.6 at n = 2, kappa1 0.5),
        a sign that the asymptotic interval (and the plan) means little there. The
        goodness-of-fit limits lie in [0, 1).
    assurance : float
        Probability that the lower limit of that interval clears ``lower_limit`` (nan
        without one).
    goal : {'power', 'ci_width', 'lower_limit', 'n'}
        What ``n`` was chosen for ('n': given to :func:`~wkappa.kappa_power`). With
        'goodness-of-fit', 'ci_width' asks for both expected limits within ``kappa1 ±
        ci_width / 2`` (kappaSize's CI functions): the wider side of the asymmetric interval
        is at most ``ci_width / 2``, so its ``expected_width`` is at most ``ci_width`` and
        usually below it (the other methods ask for ``expected_width <= ci_width``).
    goal_text : str
        That goal in words, as :meth:`explain` and ``wkappa plan`` print it.
    method : str
        'asymptotic', 'goodness-of-fit', 'max-variance' or 'simulation'.
    kappa1 : float
        The anticipated kappa.
    kappa0 : float or None
        The kappa of H0 (None for the ``ci_width`` and ``lower_limit`` goals).
    alternative : str or None
        The test's alternative (None for those goals).
    alpha : float or None
        The test's size (None for those goals).
    target_power, ci_width, lower_limit, target_assurance : float or None
        The goal as asked.
    confidence_level : float
    weights : str
        'quadratic', 'linear', 'unweighted' or 'custom' (or a several-raters name).
    n_raters : int
    coefficient : str or None
        None for Cohen's (weighted) kappa of two raters.
    standard_deviation, standard_deviation_null : float
        ``sqrt(n * Var(kappa))`` per item under H1 and under H0 (nan for 'goodness-of-fit'
        and 'simulation'; the one under H0 is nan for the interval goals).
    n_simulations : int
        Simulated studies per candidate n (0 unless 'simulation').
    monte_carlo_error : float
        Standard error of the simulated ``power``, or of the simulated ``assurance`` for the
        ``lower_limit`` goal (0 unless 'simulation'; nan for the ``ci_width`` goal).
    model_kappa : float
        The kappa of the population model (pairwise Cohen's kappa of the table): ``kappa1``,
        except for several-raters coefficients whose chance term differs (Gwet's AC1/AC2,
        Brennan-Prediger, percent agreement), where ``kappa1`` is the coefficient's value.
    simulated_power, simulated_assurance : float
        The 'asymptotic' and 'max-variance' plans' check of their normal approximation where
        a category is sparse (the rarest expects fewer than 15 ratings at ``n``): the share
        of ``check_simulations`` studies simulated from the anticipated table in which
        wkappa's test rejects, and in which the score interval's lower limit clears
        ``lower_limit`` (nan where no check ran or the plan has no such share). Where one
        falls more than 0.05 below ``power`` (``assurance``), the plan warns
        (:class:`~wkappa.exceptions.PlanApproximationWarning`) and :meth:`explain`, the
        ``repr`` and ``wkappa plan``'s outputs state it next to the formula's value
        (:meth:`approximation_check`).
    check_simulations : int
        Studies simulated for that check (0 where none ran).
    width_interval, limit_interval : str and str or None
        Properties: the interval whose expected width the plan reports, and the one whose
        lower limit ``assurance`` is about (the 'score' interval for Cohen's kappa; None
        without ``lower_limit``). The promises hold for the study's
        ``confidence_interval(method=...)`` of these names.
    table : ndarray of shape (K, K)
        The anticipated population (cell probabilities; read-only).
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W (read-only).

    Examples
    --------
    >>> import wkappa as wk
    >>> plan = wk.kappa_sample_size(kappa1=0.7, kappa0=0.85, marginals=[0.5, 0.5],
    ...                             weights="unweighted", alternative="less")
    >>> plan.n, round(plan.power, 3)  # R irr: N.cohen.kappa(0.5, 0.5, 0.7, 0.85) = 96
    (96, 0.801)
    >>> print(plan.explain().splitlines()[0])
    Study plan (asymptotic): n = 96 items rated by 2 raters
    """

    n: int
    power: float
    expected_width: float
    assurance: float
    goal: str
    method: str
    kappa1: float
    kappa0: float | None
    alternative: str | None
    alpha: float | None
    target_power: float | None
    ci_width: float | None
    lower_limit: float | None
    target_assurance: float | None
    confidence_level: float
    weights: str
    n_raters: int
    coefficient: str | None
    standard_deviation: float
    standard_deviation_null: float
    n_simulations: int
    monte_carlo_error: float
    model_kappa: float
    simulated_power: float
    simulated_assurance: float
    check_simulations: int
    table: np.ndarray = field(repr=False)
    weight_matrix: np.ndarray = field(repr=False)

    def __post_init__(self) -> None:
        for name in ("table", "weight_matrix"):
            array = np.asarray(getattr(self, name), dtype=np.float64)
            object.__setattr__(self, name, readonly(array))

    @property
    def goal_text(self) -> str:
        """The goal ``n`` was chosen for, in words (see ``goal``)."""
        return plan_goal_text(self)

    @property
    def width_interval(self) -> str:
        """The interval whose expected width the plan reports: 'asymptotic' (the Wald
        interval, for the 'asymptotic' and 'max-variance' methods and for several raters'
        simulation), 'score' ('simulation' of Cohen's kappa) or 'goodness-of-fit'. Report
        the study's ``confidence_interval(method=...)`` of this name to compare."""
        if self.method == "goodness-of-fit":
            return "goodness-of-fit"
        if self.method == "simulation" and self.n_raters == 2 and self.coefficient is None:
            return "score"
        return "asymptotic"

    @property
    def limit_interval(self) -> str | None:
        """The interval whose lower limit ``assurance`` is about (None without
        ``lower_limit``): 'score' for Cohen's kappa (the lower limit clears L exactly when
        the test of kappa = L rejects), the goodness-of-fit limits for 'goodness-of-fit',
        and several raters' 'asymptotic' interval. The promised assurance holds for the
        study's ``confidence_interval(method=...)`` of this name, not for another interval
        (the default 'asymptotic' one of a two-rater study clears L more or less often)."""
        if self.lower_limit is None:
            return None
        if self.method == "goodness-of-fit":
            return "goodness-of-fit"
        return "score" if self.n_raters == 2 and self.coefficient is None else "asymptotic"

    def approximation_check(self, share: str = "power") -> str:
        """What the simulated check says of the formula's ``share`` ('power' or
        'assurance'), to follow the stated value: empty unless the simulated share falls
        more than 0.05 below it (see ``simulated_power``).

        Parameters
        ----------
        share : {'power', 'assurance'}

        Returns
        -------
        str
            E.g. " by the normal approximation; 0.71 in 2,000 simulated studies of wkappa's
            test, below the 0.8 asked: plan with method='simulation'".

        Examples
        --------
        >>> import textwrap, warnings
        >>> import wkappa as wk
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")  # the PlanApproximationWarning
        ...     plan = wk.kappa_sample_size(kappa1=0.6, marginals=[0.1, 0.9],
        ...                                 weights="unweighted")
        >>> round(plan.simulated_power, 2), plan.check_simulations
        (0.71, 2000)
        >>> print(textwrap.fill(f"power {plan.power:.3f}" + plan.approximation_check(), 80))
        power 0.806 by the normal approximation; 0.71 in 2,000 simulated studies of
        wkappa's test, below the 0.8 asked: plan with method='simulation'
        """
        return approximation_text(self, share)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None): the fields, and after ``confidence_level``
        the intervals the promises are about (``width_interval``, ``limit_interval``)."""
        names = list(self.__dataclass_fields__)
        at = names.index("confidence_level") + 1
        names[at:at] = ["width_interval", "limit_interval"]
        return json_fields(self, tuple(names))

    def explain(self) -> str:
        """The plan in words: n, the test and its power, the interval's expected width.

        Returns
        -------
        str
            What ``wkappa plan`` prints.
        """
        return explain_plan(self)

    def __repr__(self) -> str:
        return plan_repr(self)


@dataclass
class PlanDesign:
    """The validated inputs of a plan."""

    method: str
    p: np.ndarray
    weights: np.ndarray
    weights_label: str
    weights_option: Any
    kappa1: float
    kappa0: float
    alternative: Alternative
    alpha: float
    power: float | None
    ci_width: float | None
    lower_limit: float | None
    assurance: float | None
    confidence_level: float
    n_raters: int
    coefficient: str | None
    pi: np.ndarray | None  # shared marginal (several raters, goodness-of-fit)
    model_kappa: float  # the population model's (pairwise Cohen / Fleiss) kappa
    n_simulations: int
    seed: np.random.SeedSequence | None
    tested: bool = True  # False for the interval goals, which run no test of kappa0
    sd1: float = math.nan
    sd0: float = math.nan
    sd_lower: float = math.nan
    cache: dict[int, SimulatedStudies] = field(default_factory=dict)


def _check_kappa(value: Any, name: str) -> float:
    number = real_number(value, name, "a number below 1")
    if not (math.isfinite(number) and -1.0 <= number < 1.0):
        raise WkappaError(f"`{name}` must be in [-1, 1); got {number!r}.")
    return number


def _check_unweighted(checked: str | np.ndarray, k: int, several: bool) -> None:
    """Refuse weighted kappa for method='goodness-of-fit' (``several``: a several-raters
    design, which method='asymptotic' does not plan).

    Donner & Eliasziw's cells count items whose ratings agree and items whose ratings
    differ, not how far apart they are: their chi-square test is the test of unweighted
    kappa. Weights that give every disagreement the same weight (any of the names with two
    categories) are unweighted kappa; other weights make a statistic whose test has another
    variance, and the formula's n and power are not those of that test.
    """
    if isinstance(checked, str) and checked in GWET_WEIGHTS:
        matrix = agreement_weight_matrix(checked, k, "fleiss")[1]
    else:
        matrix = weight_matrix(checked, k)
    off = matrix[~np.eye(k, dtype=bool)]
    if np.all(np.diag(matrix) == 0) and off.min() > 0 and off.min() == off.max():
        return
    shown = f"weights={checked!r}" if isinstance(checked, str) else "this `weights` matrix"
    methods = "method='simulation'" if several else "method='asymptotic' or method='simulation'"
    raise WkappaError(
        "method='goodness-of-fit' plans for unweighted kappa (Donner & Eliasziw's model "
        "counts agreeing and disagreeing ratings, not how far apart they are); with "
        f"{shown} on K = {k} categories its n and power are not those of the weighted "
        f"kappa's test (they are too optimistic). Hint: plan weighted kappa with {methods}, "
        "or pass weights='unweighted' for unweighted kappa."
    )


def _seed(rng: Any) -> np.random.SeedSequence:
    """The simulation's root seed (each candidate n spawns its own stream from it), from any
    ``rng=`` that ``make_rng`` takes: a seed as it is, a generator by one draw from it."""
    if isinstance(rng, np.random.SeedSequence):
        return rng
    generator = make_rng(rng)  # every rng= keyword's check: a bad seed names `rng`
    if rng is None or isinstance(rng, (int, np.integer)):
        return np.random.SeedSequence(None if rng is None else int(rng))
    return np.random.SeedSequence(int(generator.integers(2**63)))


def build_design(
    *,
    n_given: bool,
    kappa1: Any,
    kappa0: Any,
    table: Any,
    marginals: Any,
    weights: Any,
    power: Any,
    alpha: Any,
    alternative: Any,
    ci_width: Any,
    lower_limit: Any,
    assurance: Any,
    confidence_level: Any,
    n_raters: Any,
    coefficient: Any,
    method: Any,
    n_simulations: Any,
    rng: Any,
) -> PlanDesign:
    method = check_choice(method, "method", METHODS)
    tested = check_goal(
        n_given=n_given, ci_width=ci_width, lower_limit=lower_limit, power=power, alpha=alpha,
        alternative=alternative, null_value=kappa0, statistic="kappa", null="kappa0",
    )  # fmt: skip
    # (the test's defaults; an interval goal's placeholders, reported as None)
    kappa0 = 0.0 if kappa0 is None else kappa0
    alpha_value, alternative = check_test_level(alpha, alternative, "kappa0")
    level = check_confidence_level(confidence_level)
    null = _check_kappa(kappa0, "kappa0")
    anticipated = None if kappa1 is None else _check_kappa(kappa1, "kappa1")
    check_count(n_raters, "n_raters", 2)
    n_raters = int(n_raters)
    several = n_raters > 2 or coefficient not in (None, "cohen")
    if coefficient is not None:  # None (or 'cohen'): Cohen's kappa
        check_choice(coefficient, "coefficient", ("cohen", *COEFFICIENTS))
    if coefficient == "cohen" and n_raters > 2:
        raise WkappaError(
            f"coefficient='cohen' is Cohen's kappa of two raters; got n_raters={n_raters}. "
            "Hint: coefficient='conger' (Cohen's kappa generalised to several raters) or "
            "coefficient='fleiss' (the default for several raters)."
        )
    if several and method in ("asymptotic", "max-variance"):
        raise WkappaError(
            f"method={method!r} plans for Cohen's kappa of two raters; for n_raters="
            f"{n_raters} and coefficient={coefficient or 'fleiss'!r} use method='simulation' (any "
            "coefficient) or method='goodness-of-fit' (Fleiss' kappa, kappaSize's formulas)."
        )
    if method == "goodness-of-fit" and coefficient not in (None, "cohen", "fleiss"):
        raise WkappaError(
            "method='goodness-of-fit' plans for the common (Fleiss / Cohen) kappa; for "
            f"coefficient={coefficient!r} use method='simulation'."
        )
    if not several and isinstance(weights, str) and weights in GWET_WEIGHTS:
        raise WkappaError(
            f"weights={weights!r} is one of Gwet's value-based weights, which weight the "
            "several-raters coefficients, not Cohen's kappa of two raters. Hint: "
            "coefficient='conger' (Cohen's kappa of two raters, taking every weight of the "
            "several-raters coefficients) with method='simulation', or one of the two-rater "
            "weights ('quadratic', 'linear', 'unweighted')."
        )
    checked = check_agreement_weights(weights) if several else check_weights(weights)
    label = checked if isinstance(checked, str) else weights_name(checked)

    def weights_for(k: int) -> np.ndarray:
        if isinstance(checked, np.ndarray) and checked.shape != (k, k):
            raise WkappaError(
                f"`weights` has shape {checked.shape}, but the population (`marginals` or "
                f"`table`) has K = {k} categories. Hint: give a {k} x {k} matrix."
            )
        if isinstance(checked, str) and checked not in ("quadratic", "linear", "unweighted"):
            # Gwet's value-based weights: the common-kappa model's kappa is the same for any W
            return weight_matrix("unweighted", k)
        return weight_matrix(checked, k)

    p, matrix = population_table(table, marginals, anticipated, weights_for)
    if method == "goodness-of-fit":
        _check_unweighted(checked, p.shape[0], several)
    kappa_value = table_kappa_value(p, matrix)  # defined: population_table refuses others
    if not kappa_value < 1.0:
        raise WkappaError(
            "The anticipated `table` agrees perfectly (kappa 1): every study would show "
            "kappa 1. Hint: give `kappa1=` below 1 to move it, or a pilot table with its "
            "disagreements."
        )
    if tested and not several:  # (the common-kappa model's coefficients have other ranges)
        check_attainable_null(p, matrix, null)
    pi = None
    if several or method == "goodness-of-fit":
        rows, cols = p.sum(axis=1), p.sum(axis=0)
        if marginals is None or not np.allclose(rows, cols, atol=1e-9):
            who = (
                f"n_raters={n_raters}"
                if n_raters > 2
                else f"coefficient={coefficient!r}"
                if several
                else "method='goodness-of-fit'"
            )
            given = "`table=`" if marginals is None else "one list of `marginals` per rater"
            raise WkappaError(
                f"{who} plans with the common-kappa model (every rater with the same category "
                "probabilities): give one shared `marginals=` (the category probabilities) "
                f"and `kappa1=` instead of {given}."
            )
        pi = rows
        if kappa_value < 0:
            raise WkappaError(
                f"`kappa1` must be >= 0 for the common-kappa model; got {kappa_value:g}."
            )
    model_kappa = kappa_value
    name = (coefficient or "fleiss") if several else None
    if several and name in CHANCE_DIFFERS and method == "simulation":
        assert pi is not None
        # kappa1 is the coefficient's value; the model's kappa m gives c0 + m (1 - c0).
        chance_level = chance_value(pi, n_raters, str(name), checked)
        model_kappa = (kappa_value - chance_level) / (1.0 - chance_level)
        if not 0.0 <= model_kappa < 1.0:
            raise WkappaError(
                f"`kappa1` = {kappa_value:g} is below what {name} gives for independent "
                f"raters with these marginals ({chance_level:.4g}). Hint: choose `kappa1` "
                f"between {chance_level:.4g} and 1."
            )
        p = model_table(pi, pi, matrix, model_kappa)
    width = None
    if ci_width is not None:
        width = check_probability(ci_width, "ci_width", low=0.0, high=2.0)
    limit = None
    chance = None
    if lower_limit is not None:
        limit = _check_kappa(lower_limit, "lower_limit")
        if not limit < kappa_value:
            raise WkappaError(
                f"`lower_limit` = {limit:g} must be below the anticipated kappa "
                f"{kappa_value:.4g}: a lower limit clears it only if kappa is above it."
            )
        chance = 0.5 if assurance is None else check_probability(assurance, "assurance")
    elif assurance is not None:
        raise WkappaError("`assurance=` goes with `lower_limit=`.")
    shown = "the anticipated kappa" if anticipated is None else "`kappa1`"
    target = check_power_goal(
        power, alpha_value, kappa_value, null, alternative, anticipated=shown, null="kappa0",
        goal=tested and not n_given,
    )  # fmt: skip
    if method == "simulation":
        default = N_SIMULATIONS_SEVERAL if several else N_SIMULATIONS
        count = default if n_simulations is None else n_simulations
        count = check_count(count, "n_simulations", 100)
        seed = _seed(rng)
    elif n_simulations is not None or rng is not None:
        given = "n_simulations" if n_simulations is not None else "rng"
        raise WkappaError(
            f"`{given}` goes with method='simulation'; method={method!r} is a formula and "
            f"simulates nothing. Hint: method='simulation', or leave `{given}` out."
        )
    else:
        count, seed = 0, None
    return PlanDesign(
        method=method,
        p=p,
        weights=matrix,
        weights_label=label,
        weights_option=checked,
        kappa1=kappa_value,
        kappa0=null,
        alternative=alternative,
        alpha=alpha_value,
        power=target,
        ci_width=width,
        lower_limit=limit,
        assurance=chance,
        confidence_level=level,
        n_raters=n_raters,
        coefficient=None
        if coefficient in (None, "cohen") and not several
        else (coefficient or "fleiss"),
        pi=pi,
        model_kappa=model_kappa,
        n_simulations=int(count),
        seed=seed,
        tested=tested,
    )
