"""The result of an ICC study plan (:class:`ICCPlan`), its validated design and its words."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._core import check_choice, check_count, real_number
from ..exceptions import WkappaError
from .intervals import check_confidence_level
from .intraclass_forms import DESCRIPTIONS, check_form
from .json_values import json_fields
from .planning_checks import (
    check_assurance,
    check_ci_width,
    check_goal,
    check_lower_limit,
    check_power_goal,
    check_test_level,
)
from .planning_text import (
    given_text,
    goal_lines,
    goal_repr,
    goal_text,
    heading,
    hypothesis_repr,
    outcome_repr,
    width_line,
    width_wanted,
)

__all__ = ["ICC_PLAN_FORMS", "ICC_PLAN_METHODS", "ICCDesign", "ICCPlan", "build_icc_design"]

ICC_PLAN_METHODS = ("exact", "approximate")
# The forms whose F test is exact: one-way and consistency, single rater or mean of k.
ICC_PLAN_FORMS = ("1,1", "C,1", "1,k", "C,k")


@dataclass(frozen=True, eq=False, repr=False)
class ICCPlan:
    """A planned ICC reliability study: its number of subjects and what it delivers.

    Made by :func:`~wkappa.icc_sample_size` (``n`` solved for the goal) and
    :func:`~wkappa.icc_power` (``n`` given).

    Attributes
    ----------
    n : int
        Number of subjects (each rated by every rater).
    power : float
        Probability that the F test of H0: ICC = ``icc0`` (the test of
        :func:`~wkappa.icc` with ``icc0=``) rejects at ``alpha`` against ``alternative``
        when the ICC is ``icc1`` (nan for the ``ci_width`` and ``lower_limit`` goals, which
        run no test). Exact under the normal random-effects model for ``method='exact'``;
        Walter, Eliasziw & Donner's normal approximation for ``'approximate'``.
    expected_width : float
        Expected width of the two-sided F interval at ``confidence_level`` that
        :func:`~wkappa.icc` reports (``confidence_interval()``); Bonett's approximation for
        ``'approximate'``. Infinite where the mean does not exist (an average-measure form
        with at most 3 subjects).
    assurance : float
        Probability that the lower limit of that interval clears ``lower_limit``, or, with
        ``ci_width`` (``method='exact'``), that the interval is at most ``ci_width`` wide
        (nan without either).
    goal : {'power', 'ci_width', 'lower_limit', 'n'}
        What ``n`` was chosen for ('n': given to :func:`~wkappa.icc_power`).
    goal_text : str
        That goal in words, as :meth:`explain` and ``wkappa plan`` print it.
    method : {'exact', 'approximate'}
    form : str
        McGraw & Wong's name of the ICC planned for: '1,1', 'C,1', '1,k' or 'C,k'.
    icc1 : float
        The anticipated ICC (of ``form``).
    icc0 : float or None
        The ICC of H0 (None for the ``ci_width`` and ``lower_limit`` goals).
    alternative : str or None
        The test's alternative (None for those goals).
    alpha : float or None
        The test's size (None for those goals).
    target_power, ci_width, lower_limit, target_assurance : float or None
        The goal as asked.
    confidence_level : float
    n_raters : int
        Raters (or repeated measurements) per subject, k.
    df1, df2 : int
        Degrees of freedom of the F test and interval at ``n``: ``n - 1`` and ``n (k-1)``
        (one-way forms) or ``(n-1)(k-1)`` (consistency forms).

    Examples
    --------
    >>> import wkappa as wk
    >>> plan = wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=3)
    >>> plan.n, round(plan.power, 3)
    (26, 0.805)
    >>> print(plan.explain().splitlines()[0])
    ICC study plan (exact): n = 26 subjects rated by 3 raters
    """

    n: int
    power: float
    expected_width: float
    assurance: float
    goal: str
    method: str
    form: str
    icc1: float
    icc0: float | None
    alternative: str | None
    alpha: float | None
    target_power: float | None
    ci_width: float | None
    lower_limit: float | None
    target_assurance: float | None
    confidence_level: float
    n_raters: int
    df1: int
    df2: int

    @property
    def goal_text(self) -> str:
        """The goal ``n`` was chosen for, in words (see ``goal``)."""
        return goal_text(self, given_text)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (nan and an infinite width become None)."""
        return json_fields(self, tuple(self.__dataclass_fields__))

    def explain(self) -> str:
        """The plan in words: n, the test and its power, the interval's expected width.

        Returns
        -------
        str
            What ``wkappa plan --coefficient icc`` prints.
        """
        how = (
            "exact F distribution"
            if self.method == "exact"
            else "n, power and width by the approximations of Walter, Eliasziw & Donner "
            "(1998) and Bonett (2002)"
        )
        return "\n".join(
            [
                heading(
                    "ICC study plan",
                    self.method,
                    self.n,
                    "subjects",
                    f"rated by {self.n_raters} raters",
                ),
                f"  anticipated ICC({self.form}) = {given_text(self.icc1)} "
                f"({DESCRIPTIONS[self.form]})",
                *goal_lines(self, "ICC", self.icc0),
                width_line(self.confidence_level, "F", self.expected_width, width_wanted(self)),
                f"  F test and interval with {self.df1:,} and {self.df2:,} degrees of freedom "
                f"({how})",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"ICCPlan(n={self.n}, {outcome_repr(self, self.icc0 is not None)}"
            f"expected_width={self.expected_width:.4g}, goal={goal_repr(self, given_text)!r}, "
            f"method={self.method!r}, form={self.form!r}, icc1={given_text(self.icc1)}, "
            f"{hypothesis_repr(self, 'icc0', self.icc0, given_text)}n_raters={self.n_raters})"
        )


@dataclass(frozen=True)
class ICCDesign:
    """The validated inputs of an ICC plan. ``rho1``, ``rho0`` and ``rho_limit`` are the
    single-rater ICCs of ``icc1``, ``icc0`` and ``lower_limit`` (the same values for the
    single-rater forms; for the mean of k raters, Spearman-Brown stepped down)."""

    method: str
    form: str
    k: int
    icc1: float
    icc0: float
    rho1: float
    rho0: float
    alternative: str
    alpha: float
    power: float | None
    ci_width: float | None
    lower_limit: float | None
    rho_limit: float
    assurance: float | None
    confidence_level: float
    tested: bool

    @property
    def two_way(self) -> bool:
        return self.form[0] == "C"

    @property
    def average(self) -> bool:
        return self.form[2] == "k"


def _single(value: float, k: int, average: bool) -> float:
    """The single-rater ICC of a form's value: ``r / (k - (k-1) r)`` for the mean of k."""
    return value / (k - (k - 1) * value) if average else value


def _check_icc(value: Any, name: str, k: int, average: bool) -> float:
    """An ICC inside the range of the form's model: ``(-1/(k-1), 1)`` for one rater,
    below 1 for the mean of k raters."""
    number = real_number(value, name, "a number below 1")
    low = -math.inf if average else -1.0 / (k - 1)
    if not (math.isfinite(number) and low < number < 1.0):
        where = "below 1" if average else f"in (-1/(k-1), 1) = ({low:.4g}, 1) for k = {k}"
        raise WkappaError(
            f"`{name}` must be {where} (the ICCs the random-effects model allows); got {number!r}."
        )
    return number


def build_icc_design(
    *,
    n_given: bool,
    icc1: Any,
    icc0: Any,
    n_raters: Any,
    form: Any,
    power: Any,
    alpha: Any,
    alternative: Any,
    ci_width: Any,
    lower_limit: Any,
    assurance: Any,
    confidence_level: Any,
    method: Any,
) -> ICCDesign:
    method = check_choice(method, "method", ICC_PLAN_METHODS)
    try:
        form = check_form(form)
    except WkappaError:
        raise WkappaError(
            "`form` must be one of the forms planned for, McGraw & Wong's '1,1', 'C,1', '1,k', "
            "'C,k' or Shrout & Fleiss's 'ICC1', 'ICC3', 'ICC1k', 'ICC3k' (the absolute-agreement "
            f"forms have no exact F test to plan with); got {form!r}."
        ) from None
    if form not in ICC_PLAN_FORMS:
        raise WkappaError(
            f"form={form!r} (absolute agreement of a two-way model) has no exact F test to plan "
            "with: its test's degrees of freedom depend on the raters' variance (McGraw & Wong's "
            "approximation), which the plan would have to anticipate. Hint: plan with "
            f"form={form.replace('A', 'C')!r}, the same ICC when the raters do not differ "
            "systematically, and check the n by simulation with the rater variance you expect."
        )
    k = check_count(n_raters, "n_raters", 2, "raters per subject")
    average = form[2] == "k"
    if method == "approximate" and average:
        raise WkappaError(
            f"method='approximate' (the formulas of Walter et al. 1998 and Bonett 2002) plans "
            f"the single-rater ICC; for form={form!r} use method='exact' (the default)."
        )
    tested = check_goal(
        n_given=n_given, ci_width=ci_width, lower_limit=lower_limit, power=power, alpha=alpha,
        alternative=alternative, null_value=icc0, statistic="ICC", null="icc0",
    )  # fmt: skip
    anticipated = _check_icc(icc1, "icc1", k, average)
    null = 0.0 if icc0 is None else real_number(icc0, "icc0", "a number in [0, 1)")
    if not 0.0 <= null < 1.0:
        raise WkappaError(
            f"`icc0` must be in [0, 1) (the null value of the F test, as wkappa.icc takes it); "
            f"got {null!r}."
        )
    alpha_value, alternative = check_test_level(alpha, alternative, "icc0")
    level = check_confidence_level(confidence_level)
    span = math.inf if average else k / (k - 1.0)
    width = check_ci_width(ci_width, span, f"the range of ICC({form}) with k = {k}")
    if n_given and width is not None and method == "approximate":
        raise WkappaError(
            "With a given n, `ci_width=` asks the probability that the interval is at most that "
            "wide, which method='approximate' (Bonett 2002: the expected width only) does not "
            "compute. Hint: drop `method=` (the exact method computes it), or drop `ci_width=`."
        )
    limit = None
    if lower_limit is not None:
        limit = _check_icc(lower_limit, "lower_limit", k, average)
        check_lower_limit(limit, anticipated, anticipated="icc1", statistic="ICC")
    elif assurance is not None and width is not None and method == "approximate":
        raise WkappaError(
            "method='approximate' (Bonett 2002) plans the expected width; the probability "
            "that the width is at most `ci_width` (`assurance=`) is planned by "
            "method='exact'. Hint: drop `method=`, or drop `assurance=`."
        )
    chance = check_assurance(assurance, limit, width)
    target = check_power_goal(
        power, alpha_value, anticipated, null, alternative, anticipated="`icc1`", null="icc0",
        goal=tested and not n_given,
    )  # fmt: skip
    return ICCDesign(
        method=method,
        form=form,
        k=k,
        icc1=anticipated,
        icc0=null,
        rho1=_single(anticipated, k, average),
        rho0=_single(null, k, average),
        alternative=alternative,
        alpha=alpha_value,
        power=target,
        ci_width=width,
        lower_limit=limit,
        rho_limit=math.nan if limit is None else _single(limit, k, average),
        assurance=chance,
        confidence_level=level,
        tested=tested,
    )
