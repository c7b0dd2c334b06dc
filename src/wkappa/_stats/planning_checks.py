"""The checks of a study plan's goal that kappa, ICC and CCC plans share: at most one
interval goal, the test's options refused with one (it runs no test), the level of a one-sided
test, a power goal against its null value, the interval's width and lower limit and the
assurance wanted; and the validated goal as an ICC or CCC plan reports it (:func:`goal_fields`)
and the test whose power is the assurance of its lower limit (:func:`limit_test`).

``statistic`` and ``null`` name the plan's coefficient and its null value as the messages say
them (``"kappa"`` and ``"kappa0"``, ``"ICC"`` and ``"icc0"``); ``anticipated`` names the
anticipated value's keyword (``"kappa1"``, ``"icc1"``).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from .._core import check_alternative, real_number
from ..exceptions import WkappaError
from .planning_models import check_probability

__all__ = [
    "ValidGoal",
    "check_assurance",
    "check_ci_width",
    "check_goal",
    "check_lower_limit",
    "check_power_goal",
    "check_test_level",
    "goal_fields",
    "limit_test",
]


def check_test_level(alpha: Any, alternative: Any, null: str) -> tuple[float, str]:
    """``alpha`` (default 0.05) and ``alternative`` (default ``'greater'``) of the planned
    test, validated: a one-sided test needs ``alpha`` below 0.5 (the rule of a one-sided
    interval's ``confidence_level``, which must be above 0.5)."""
    side = check_alternative("greater" if alternative is None else alternative)
    value = check_probability(0.05 if alpha is None else alpha, "alpha")
    if side != "two-sided" and not value < 0.5:
        raise WkappaError(
            f"`alpha` must be below 0.5 for a one-sided test (alternative={side!r}); "
            f"got {value:g}. From 0.5 on, the critical value lies on {null}'s own side: "
            f"the test would reject H0 with an estimate that does not even depart from {null} "
            "in the direction of the alternative. Hint: alpha=0.05 (or a two-sided test)."
        )
    return value, side


def check_power_goal(
    power: Any,
    alpha: float,
    value: float,
    null_value: float,
    alternative: str,
    *,
    anticipated: str,
    null: str,
    goal: bool,
) -> float | None:
    """The power wanted (default 0.8), above ``alpha``, of a test of ``null_value`` that
    the anticipated ``value`` can reach in the direction of ``alternative``; ``anticipated``
    is how the messages show that value (```icc1```, or ``the anticipated kappa`` where it
    comes from a table). None unless the power is the plan's ``goal`` (the plan runs its
    test, and n is not given)."""
    if not goal:
        return None
    target = check_probability(0.8 if power is None else power, "power")
    if not target > alpha:
        raise WkappaError(f"`power` must be above `alpha` ({alpha:g}) and below 1; got {target:g}.")
    if value == null_value:
        raise WkappaError(
            f"{anticipated} and `{null}` are both {null_value:g}: no study can tell them "
            f"apart. Hint: `{null}` is the value to reject, {anticipated} the value you "
            "anticipate."
        )
    if (alternative == "greater" and value < null_value) or (
        alternative == "less" and value > null_value
    ):
        raise WkappaError(
            f"With alternative={alternative!r}, {anticipated} ({value:.4g}) must be "
            f"{'above' if alternative == 'greater' else 'below'} `{null}` ({null_value:g}). "
            f"Hint: alternative={'less' if alternative == 'greater' else 'greater'!r}."
        )
    return target


def check_goal(
    *,
    n_given: bool,
    ci_width: Any,
    lower_limit: Any,
    power: Any,
    alpha: Any,
    alternative: Any,
    null_value: Any,
    statistic: str,
    null: str,
) -> bool:
    """Whether the plan runs its test of ``null``: with a given n, or for the power goal.
    At most one interval goal (``ci_width``, ``lower_limit``) is taken; with one, the plan
    runs no test, and the test's options (``power``, ``alpha``, ``alternative`` and
    ``null_value``, the keyword ``null``) are refused rather than ignored."""
    if ci_width is not None and lower_limit is not None:
        raise WkappaError("Give at most one of `ci_width=` and `lower_limit=`.")
    tested = n_given or (ci_width is None and lower_limit is None)
    if not tested:
        goal = "ci_width" if ci_width is not None else "lower_limit"
        given = {"power": power, "alpha": alpha, "alternative": alternative, null: null_value}
        _refuse_test_options(goal, given, statistic=statistic, null=null)
    return tested


def _refuse_test_options(goal: str, given: dict[str, Any], *, statistic: str, null: str) -> None:
    """Refuse the options of the test of ``null`` given with an interval ``goal``
    (``'ci_width'`` or ``'lower_limit'``): the plan runs no test, so they would be ignored."""
    lower = goal == "lower_limit"
    what = (
        "asks for the interval's lower limit to clear `lower_limit`"
        if lower
        else "asks for an expected interval width"
    )
    hints = {
        "power": (
            "the probability wanted that the lower limit clears it is `assurance=` (e.g. "
            f"assurance={given.get('power')!r})"
            if lower
            else "drop `power=`"
        ),
        "alpha": "the interval's level is `confidence_level=` (1 - alpha for a two-sided "
        "interval" + (", 1 - 2 alpha for a one-sided lower bound at 1 - alpha)" if lower else ")"),
        "alternative": "the interval is two-sided at `confidence_level=`; a one-sided 95% "
        "lower bound is the lower limit of the two-sided 90% interval, confidence_level=0.9",
        null: (
            f"the value to clear is `lower_limit=` itself; drop `{null}=`"
            if lower
            else f"drop `{null}=`"
        ),
    }
    for name, value in given.items():
        if value is not None:
            raise WkappaError(
                f"`{name}=` is an option of the test of H0: {statistic} = {null}, which a "
                f"`{goal}=` plan does not run (it {what}): it would be ignored. Hint: "
                f"{hints[name]}; or drop `{goal}=` to plan the test."
            )


def check_ci_width(ci_width: Any, span: float, scope: str) -> float | None:
    """The width asked of the interval (None: no width goal): above 0 and below ``span``,
    the length of the coefficient's range (``scope`` names it as the message says it, e.g.
    ``"the CCC's range"``)."""
    if ci_width is None:
        return None
    width = real_number(ci_width, "ci_width", "a positive number")
    if not (math.isfinite(width) and 0.0 < width < span):
        raise WkappaError(
            f"`ci_width` must be above 0 and below {span:.4g}, the length of {scope}; "
            f"got {width!r}."
        )
    return width


def check_lower_limit(limit: float, value: float, *, anticipated: str, statistic: str) -> None:
    """Refuse a lower limit that is not below the anticipated ``value`` (its keyword
    ``anticipated``, e.g. ``"icc1"``): the interval clears it only if the coefficient is
    above it."""
    if not limit < value:
        raise WkappaError(
            f"`lower_limit` = {limit:g} must be below `{anticipated}` ({value:g}): a lower "
            f"limit clears it only if the {statistic} is above it."
        )


def check_assurance(assurance: Any, limit: float | None, width: float | None) -> float | None:
    """The probability wanted of the interval goal: that the lower limit clears ``limit``
    (default 0.5), or that the interval is at most ``width`` wide (no default: without it the
    expected width is planned); refused without either goal."""
    if limit is not None:
        return 0.5 if assurance is None else check_probability(assurance, "assurance")
    if assurance is None:
        return None
    if width is None:
        raise WkappaError("`assurance=` goes with `lower_limit=` or `ci_width=`.")
    return check_probability(assurance, "assurance")


class ValidGoal(Protocol):
    """What :func:`goal_fields` reads of a validated design (``PlanDesign``, ``ICCDesign``,
    ``CCCDesign``)."""

    @property
    def alternative(self) -> str: ...
    @property
    def alpha(self) -> float: ...
    @property
    def power(self) -> float | None: ...
    @property
    def ci_width(self) -> float | None: ...
    @property
    def lower_limit(self) -> float | None: ...
    @property
    def assurance(self) -> float | None: ...
    @property
    def confidence_level(self) -> float: ...
    @property
    def tested(self) -> bool: ...


def goal_fields(design: ValidGoal) -> dict[str, Any]:
    """The goal of a validated design as its plan reports it, the plan's keywords: the
    test's ``alternative`` and ``alpha`` (None where the plan runs no test), the
    ``target_power``, ``ci_width``, ``lower_limit`` and ``target_assurance`` asked, and the
    interval's ``confidence_level``."""
    tested = design.tested
    return {
        "alternative": design.alternative if tested else None,
        "alpha": design.alpha if tested else None,
        "target_power": design.power,
        "ci_width": design.ci_width,
        "lower_limit": design.lower_limit,
        "target_assurance": design.assurance,
        "confidence_level": design.confidence_level,
    }


def limit_test(limit: float | None, confidence_level: float) -> tuple[float, float, str]:
    """The test whose power is the assurance of a lower limit (its null, size and
    alternative): the lower limit of the two-sided interval at ``confidence_level`` clears
    ``limit`` exactly when the test of the coefficient = ``limit`` at one-sided size
    ``(1 - level) / 2`` rejects against 'greater' (null nan: no limit)."""
    return math.nan if limit is None else limit, (1.0 - confidence_level) / 2.0, "greater"
