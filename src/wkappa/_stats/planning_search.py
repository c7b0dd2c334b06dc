"""The search of kappa, ICC and CCC plans for the smallest n that meets their goal: a bracket
grown from a guess, then bisection; and, for the plans whose goals are a test's power or an
interval's width or lower limit (ICC, CCC), which goal the design states and what n meets it
(:func:`solve_goal`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..exceptions import WkappaError

__all__ = ["MAX_N", "Goal", "GoalModel", "search_n", "solve_goal"]

# The largest study a plan searches (and a closed form's n is refused past).
MAX_N = 10**6


def search_n(
    meets: Callable[[int], bool],
    guess: int,
    *,
    refusal: str,
    min_n: int = 2,
    max_n: int = MAX_N,
    step: int | None = None,
) -> int:
    """The smallest n in [min_n, max_n] with ``meets(n)``, assuming it is (roughly)
    monotone: bracket from ``guess``, then bisect. The bracket grows from ``guess`` by
    doubling / halving n, or, with ``step`` (a guess known to be close), by steps of
    ``step`` that double each time. ``refusal`` is the message of the error raised when
    ``max_n`` does not meet the goal: what was asked, and how to relax it.

    Examples
    --------
    >>> search_n(lambda n: n * n >= 1000, 5, refusal="unused")
    32
    """
    high = min(max(guess, min_n), max_n)
    low = min_n - 1
    grow = step
    while not meets(high):
        if high >= max_n:
            raise WkappaError(refusal)
        low = high
        high = min(max_n, high * 2 if grow is None else high + grow)
        grow = None if grow is None else 2 * grow
    if low < min_n:  # ``guess`` met the goal: grow the bracket down
        probe = high // 2 if step is None else high - step
        while probe > low and meets(probe):
            high = probe
            if step is None:
                probe //= 2
            else:
                step *= 2
                probe = high - step
        low = max(low, probe)
    while high - low > 1:
        middle = (low + high) // 2
        if meets(middle):
            high = middle
        else:
            low = middle
    return high


@dataclass(frozen=True)
class Goal:
    """What a plan is solved for, as its design states it (``ci_width`` with or without
    ``assurance``; ``lower_limit`` with ``assurance``; else ``power``)."""

    ci_width: float | None
    lower_limit: float | None
    assurance: float | None
    power: float | None
    test: tuple[float, float, str]  # (null, alpha, alternative) of the planned test
    limit_test: tuple[float, float, str]  # the test whose power is the lower limit's assurance
    names: tuple[str, str]  # the keywords of the anticipated and null values, for the hints
    remedies: tuple[str, ...] = ()  # how else to relax any goal ('more raters (`n_raters`)')


@dataclass(frozen=True)
class GoalModel:
    """What a plan computes at n: the power of a test of ``null`` at ``alpha`` against
    ``alternative``, the expected interval width and ``P(width <= w)``, and the closed-form
    first guesses of n for a power and for a width."""

    power: Callable[[float, float, str, int], float]
    width: Callable[[int], float]
    width_assurance: Callable[[int, float], float]
    power_start: Callable[[float, float, str, float], float]
    width_start: Callable[[float], float]


def solve_goal(
    goal: Goal, model: GoalModel, *, closed_form: bool = False, min_n: int = 2
) -> tuple[str, int]:
    """The goal's name (``'ci_width'``, ``'lower_limit'`` or ``'power'``) and the smallest n
    of at least ``min_n`` meeting it: searched from the closed form's guess, or with
    ``closed_form`` that guess itself, rounded up. When no n up to :data:`MAX_N` meets it,
    a WkappaError says what was asked and how to relax it."""
    if goal.ci_width is not None:
        width, chance = goal.ci_width, goal.assurance
        start = model.width_start(width)
        level = "a lower `confidence_level`" + ("" if chance is None else " or `assurance`")
        remedies: tuple[str, ...] = ("a wider interval (`ci_width`)", level)
        if chance is None:
            what = f"an expected interval width of {width:g}"
            meets: Callable[[int], bool] = lambda m: model.width(m) <= width  # noqa: E731
        else:
            what = f"P(interval width <= {width:g}) >= {chance:g}"
            meets = lambda m: model.width_assurance(m, width) >= chance  # noqa: E731
        name, hint = "ci_width", ""
    else:
        if goal.lower_limit is not None:
            assert goal.assurance is not None
            name, target, test = "lower_limit", goal.assurance, goal.limit_test
            what = f"P(lower limit > {goal.lower_limit:g}) >= {target:g}"
            hint = f"`lower_limit` is too close to `{goal.names[0]}`: "
            remedies = ("a limit further below it", "a lower `assurance` or `confidence_level`")
        else:
            assert goal.power is not None
            name, target, test = "power", goal.power, goal.test
            what = f"a power of {target:g}"
            hint = f"`{goal.names[0]}` is too close to `{goal.names[1]}` to tell them apart: "
            remedies = ("a lower `power`", "a larger `alpha`")
        start = model.power_start(*test, target)
        meets = lambda m: model.power(*test, m) >= target  # noqa: E731
    hint = f"Hint: {hint}{_either(*remedies, *goal.remedies)}."
    if closed_form:
        n = max(min_n, math.ceil(start - 1e-9))
        if n > MAX_N:
            raise WkappaError(
                f"No study of up to {MAX_N:,} subjects meets {what} (the closed form asks for "
                f"{n:,}). {hint}"
            )
        return name, n
    refusal = f"No study of up to {MAX_N:,} subjects meets {what}. {hint}"
    return name, search_n(meets, math.ceil(start), refusal=refusal, min_n=min_n)


def _either(*choices: str) -> str:
    """``'a or b'``, ``'a, b, or c'``."""
    if len(choices) <= 2:
        return " or ".join(choices)
    return ", ".join(choices[:-1]) + ", or " + choices[-1]
