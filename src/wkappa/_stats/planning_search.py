"""The search of kappa and ICC plans for the smallest n that meets their goal: a bracket
grown from a guess, then bisection."""

from __future__ import annotations

from collections.abc import Callable

from ..exceptions import WkappaError

__all__ = ["MAX_N", "search_n"]

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
