"""The result of a CCC study plan (:class:`CCCPlan`) and its validated design.

Lin (1989) writes the CCC of two raters with means ``mu1, mu2``, standard deviations
``sigma1, sigma2`` and Pearson correlation ``r`` as ``rho_c = r C_b``, with the bias
correction ``C_b = 2 / (v + 1/v + u²)``, the scale shift ``v = sigma1 / sigma2`` and the
location shift ``u = (mu1 - mu2) / sqrt(sigma1 sigma2)``. The variance of
``z = atanh(rho_c_hat)`` depends on ``rho_c``, ``r`` and ``u``
(:func:`~wkappa._stats.concordance.lin_z_variance`): the anticipated CCC and two of
``pearson``, ``bias_correction``, ``location_shift`` and ``scale_shift`` pin it
(:func:`build_ccc_design`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._core import check_choice, real_number
from ..exceptions import WkappaError
from .concordance import lin_z_variance
from .intervals import check_confidence_level
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
from .text_values import number_text

__all__ = ["CCC_PLAN_METHODS", "CCCDesign", "CCCPlan", "build_ccc_design"]

CCC_PLAN_METHODS = ("lin",)
# The shape keywords, in the order the messages name them.
_SHAPE = ("pearson", "bias_correction", "location_shift", "scale_shift")


@dataclass(frozen=True, eq=False, repr=False)
class CCCPlan:
    """A planned method-comparison study analysed by Lin's CCC: its number of subjects and
    what it delivers.

    Made by :func:`~wkappa.ccc_sample_size` (``n`` solved for the goal) and
    :func:`~wkappa.ccc_power` (``n`` given).

    Attributes
    ----------
    n : int
        Number of subjects, each measured by both raters (methods).
    power : float
        Probability that the test of H0: CCC = ``ccc0`` that :func:`~wkappa.ccc` runs
        (``ccc0=``, Fisher's z with Lin's standard error) rejects at ``alpha`` against
        ``alternative`` when the CCC is ``ccc1`` (nan for the ``ci_width`` and
        ``lower_limit`` goals, which run no test).
    expected_width : float
        Expected width of the two-sided interval at ``confidence_level`` that
        :func:`~wkappa.ccc` reports (``confidence_interval()``).
    assurance : float
        Probability that the lower limit of that interval clears ``lower_limit``, or, with
        ``ci_width``, that the interval is at most ``ci_width`` wide (nan without either).
    goal : {'power', 'ci_width', 'lower_limit', 'n'}
        What ``n`` was chosen for ('n': given to :func:`~wkappa.ccc_power`).
    goal_text : str
        That goal in words, as :meth:`explain` prints it.
    method : {'lin'}
        Lin's delta-method normal approximation of Fisher's z (the interval and test of
        :func:`~wkappa.ccc` for two raters).
    ccc1 : float
        The anticipated CCC.
    ccc0 : float or None
        The CCC of H0 (None for the ``ci_width`` and ``lower_limit`` goals).
    alternative : str or None
        The test's alternative (None for those goals).
    alpha : float or None
        The test's size (None for those goals).
    target_power, ci_width, lower_limit, target_assurance : float or None
        The goal as asked.
    confidence_level : float
    pearson, bias_correction : float
        The design's Pearson correlation r and bias correction ``C_b = ccc1 / r``, as
        :class:`~wkappa.CCCResult` names them.
    location_shift : float
        Lin's ``u = |mu1 - mu2| / sqrt(sigma1 sigma2)`` (its sign does not change the plan).
    scale_shift : float
        Lin's ``v = sigma1 / sigma2``, written at least 1 (``v`` and ``1/v`` give the same
        plan).
    standard_error_z : float
        Standard error of ``atanh(ccc)`` at ``n`` under the design:
        ``sqrt(lin_variance / (n - 2))``, as :class:`~wkappa.CCCResult` reports it.

    Examples
    --------
    >>> import wkappa as wk
    >>> plan = wk.ccc_sample_size(ccc1=0.95, ccc0=0.9)
    >>> plan.n, round(plan.power, 3)
    (50, 0.801)
    >>> print(plan.explain().splitlines()[0])
    CCC study plan (lin): n = 50 subjects measured by 2 methods
    """

    n: int
    power: float
    expected_width: float
    assurance: float
    goal: str
    method: str
    ccc1: float
    ccc0: float | None
    alternative: str | None
    alpha: float | None
    target_power: float | None
    ci_width: float | None
    lower_limit: float | None
    target_assurance: float | None
    confidence_level: float
    pearson: float
    bias_correction: float
    location_shift: float
    scale_shift: float
    standard_error_z: float

    @property
    def goal_text(self) -> str:
        """The goal ``n`` was chosen for, in words (see ``goal``)."""
        return goal_text(self, given_text)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None)."""
        return json_fields(self, tuple(self.__dataclass_fields__))

    def explain(self) -> str:
        """The plan in words: n, the design, the test and its power, the interval's width.

        Returns
        -------
        str
        """
        return "\n".join(
            [
                heading("CCC study plan", self.method, self.n, "subjects", "measured by 2 methods"),
                f"  anticipated CCC = {given_text(self.ccc1)} = Pearson r "
                f"{number_text(self.pearson)} x bias correction C_b "
                f"{number_text(self.bias_correction)} (location shift u = "
                f"{number_text(self.location_shift)}, scale shift v = "
                f"{number_text(self.scale_shift)})",
                *goal_lines(self, "CCC", self.ccc0),
                width_line(
                    self.confidence_level, "Fisher-z", self.expected_width, width_wanted(self)
                ),
                f"  Lin's standard error of Fisher's z at n = {self.n:,}: "
                f"{number_text(self.standard_error_z)} (delta method, normal quantiles)",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"CCCPlan(n={self.n}, {outcome_repr(self, self.ccc0 is not None)}"
            f"expected_width={self.expected_width:.4g}, goal={goal_repr(self, given_text)!r}, "
            f"method={self.method!r}, ccc1={given_text(self.ccc1)}, "
            f"{hypothesis_repr(self, 'ccc0', self.ccc0, given_text)}pearson={self.pearson:.4g}, "
            f"location_shift={self.location_shift:.4g}, scale_shift={self.scale_shift:.4g})"
        )


@dataclass(frozen=True)
class CCCDesign:
    """The validated inputs of a CCC plan, with the design's Pearson r, bias correction,
    location and scale shift and Lin's variance of Fisher's z times ``n - 2``."""

    method: str
    ccc1: float
    ccc0: float
    pearson: float
    bias_correction: float
    location_shift: float
    scale_shift: float
    variance: float
    alternative: str
    alpha: float
    power: float | None
    ci_width: float | None
    lower_limit: float | None
    assurance: float | None
    confidence_level: float
    tested: bool


def _check_ccc(value: Any, name: str, low: float, what: str) -> float:
    number = real_number(value, name, f"a number in ({low:g}, 1)")
    if not (math.isfinite(number) and low < number < 1.0):
        raise WkappaError(f"`{name}` must be in ({low:g}, 1) ({what}); got {number!r}.")
    return number


def _shape(ccc1: float, given: dict[str, Any]) -> tuple[float, float, float, float]:
    """(pearson, bias_correction, location_shift, scale_shift) of the design: none of them
    given, no systematic difference; else exactly two, pearson and bias_correction not both
    (``ccc1 = pearson * bias_correction`` ties them)."""
    named = [name for name in _SHAPE if given[name] is not None]
    listed = ", ".join(f"`{name}=`" for name in named)
    if not named:
        return ccc1, 1.0, 0.0, 1.0
    if set(named) >= {"pearson", "bias_correction"}:
        raise WkappaError(
            f"{listed} over-determine the design: ccc1 = pearson x bias_correction, so give "
            "one of `pearson=` and `bias_correction=`, with `location_shift=` or `scale_shift=`."
        )
    if len(named) > 2:
        raise WkappaError(
            f"{listed} over-determine the design: with `ccc1`, two of `pearson=` (or "
            "`bias_correction=`), `location_shift=` and `scale_shift=` fix Lin's variance."
        )
    if len(named) == 1:
        other = (
            "`location_shift=` or `scale_shift=`"
            if named[0] in ("pearson", "bias_correction")
            else "`pearson=` (or `bias_correction=`) or "
            + ("`scale_shift=`" if named[0] == "location_shift" else "`location_shift=`")
        )
        raise WkappaError(
            f"{listed} alone leaves the design open: Lin's variance of Fisher's z depends on "
            f"Pearson's r and the location shift, which `ccc1` and {listed} do not fix. Hint: "
            f"also give {other} (scale_shift=1: equal spreads; location_shift=0: equal means); "
            "or none of them for no systematic difference (`pearson` = `ccc1`)."
        )
    r = c_b = u = v = math.nan
    if given["pearson"] is not None:
        r = real_number(given["pearson"], "pearson", "a number in [ccc1, 1)")
        if not (math.isfinite(r) and ccc1 <= r < 1.0):
            raise WkappaError(
                f"`pearson` must be at least `ccc1` ({ccc1:g}) and below 1 (the CCC is "
                f"Pearson's r times C_b <= 1); got {r!r}."
            )
        c_b = ccc1 / r
    if given["bias_correction"] is not None:
        c_b = real_number(given["bias_correction"], "bias_correction", "a number in (ccc1, 1]")
        if not (math.isfinite(c_b) and ccc1 < c_b <= 1.0):
            raise WkappaError(
                f"`bias_correction` must be above `ccc1` ({ccc1:g}) and at most 1 (Pearson's "
                f"r = ccc1 / C_b is below 1); got {c_b!r}."
            )
        r = ccc1 / c_b
    if given["location_shift"] is not None:
        u = abs(real_number(given["location_shift"], "location_shift", "a real number"))
        if not math.isfinite(u):
            raise WkappaError(f"`location_shift` must be finite; got {u!r}.")
    if given["scale_shift"] is not None:
        v = real_number(given["scale_shift"], "scale_shift", "a positive number")
        if not (math.isfinite(v) and v > 0.0):
            raise WkappaError(f"`scale_shift` (sigma1 / sigma2) must be above 0; got {v!r}.")
        v = max(v, 1.0 / v)
    if math.isnan(c_b):  # both shifts: C_b = 2 / (v + 1/v + u²)
        c_b = 2.0 / (v + 1.0 / v + u * u)
        r = ccc1 / c_b
        if not r < 1.0:
            raise WkappaError(
                f"location_shift={u:g} and scale_shift={v:g} give C_b = {c_b:.4g}, so a CCC "
                f"of {ccc1:g} needs Pearson's r = ccc1 / C_b = {r:.4g}, not below 1. Hint: "
                "smaller shifts, or a lower `ccc1`."
            )
    elif math.isnan(u):  # C_b and v: u² = 2 / C_b - v - 1/v
        square = 2.0 / c_b - v - 1.0 / v
        if square < -1e-12:
            raise WkappaError(
                f"scale_shift={v:g} alone lowers C_b to 2 / (v + 1/v) = "
                f"{2.0 / (v + 1.0 / v):.4g}, below the {c_b:.4g} of ccc1 / pearson. Hint: a "
                "scale shift nearer 1, or a larger `pearson` (smaller `bias_correction`)."
            )
        u = math.sqrt(max(square, 0.0))
    elif math.isnan(v):  # C_b and u: v + 1/v = 2 / C_b - u²
        total = 2.0 / c_b - u * u
        if total < 2.0 - 1e-12:
            raise WkappaError(
                f"location_shift={u:g} alone lowers C_b to 2 / (2 + u²) = "
                f"{2.0 / (2.0 + u * u):.4g}, below the {c_b:.4g} of ccc1 / pearson. Hint: a "
                "smaller location shift, or a larger `pearson` (smaller `bias_correction`)."
            )
        total = max(total, 2.0)
        v = (total + math.sqrt(total * total - 4.0)) / 2.0
    return r, c_b, u, v


def build_ccc_design(
    *,
    n_given: bool,
    ccc1: Any,
    ccc0: Any,
    pearson: Any,
    bias_correction: Any,
    location_shift: Any,
    scale_shift: Any,
    power: Any,
    alpha: Any,
    alternative: Any,
    ci_width: Any,
    lower_limit: Any,
    assurance: Any,
    confidence_level: Any,
    method: Any,
) -> CCCDesign:
    method = check_choice(method, "method", CCC_PLAN_METHODS)
    tested = check_goal(
        n_given=n_given, ci_width=ci_width, lower_limit=lower_limit, power=power, alpha=alpha,
        alternative=alternative, null_value=ccc0, statistic="CCC", null="ccc0",
    )  # fmt: skip
    anticipated = _check_ccc(ccc1, "ccc1", 0.0, "the CCC anticipated: agreement above chance")
    given = {
        "pearson": pearson,
        "bias_correction": bias_correction,
        "location_shift": location_shift,
        "scale_shift": scale_shift,
    }
    r, c_b, u, v = _shape(anticipated, given)
    null = 0.0 if ccc0 is None else _check_ccc(ccc0, "ccc0", -1.0, "as wkappa.ccc takes it")
    alpha_value, side = check_test_level(alpha, alternative, "ccc0")
    level = check_confidence_level(confidence_level)
    width = check_ci_width(ci_width, 2.0, "the CCC's range")
    limit = None
    if lower_limit is not None:
        limit = _check_ccc(lower_limit, "lower_limit", -1.0, "a CCC")
        check_lower_limit(limit, anticipated, anticipated="ccc1", statistic="CCC")
    chance = check_assurance(assurance, limit, width)
    target = check_power_goal(
        power, alpha_value, anticipated, null, side, anticipated="`ccc1`", null="ccc0",
        goal=tested and not n_given,
    )  # fmt: skip
    return CCCDesign(
        method=method,
        ccc1=anticipated,
        ccc0=null,
        pearson=r,
        bias_correction=c_b,
        location_shift=u,
        scale_shift=v,
        variance=lin_z_variance(anticipated, r, anticipated / r, u),
        alternative=side,
        alpha=alpha_value,
        power=target,
        ci_width=width,
        lower_limit=limit,
        assurance=chance,
        confidence_level=level,
        tested=tested,
    )
