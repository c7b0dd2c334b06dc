"""The warnings of a two-rater kappa that is undefined, or whose test is: one text each,
pointing at the user's call."""

from __future__ import annotations

from .._core import UNDEFINED_REASON, warn_at_caller
from ..exceptions import UndefinedKappaWarning

__all__ = ["warn_undefined", "warn_undefined_kappa", "warn_untestable"]


def warn_undefined(message: str) -> None:
    """An UndefinedKappaWarning pointing at the user's call."""
    warn_at_caller(message, UndefinedKappaWarning)


def warn_undefined_kappa() -> None:
    """The warning of a result whose kappa is undefined (everything else is then nan)."""
    warn_undefined(f"Kappa is undefined: {UNDEFINED_REASON}. Returning nan.")


def warn_untestable(kappa0: float, single_pair: bool = False, some_single: bool = False) -> None:
    """The warning of a result whose test of ``kappa = kappa0`` is undefined; of a single
    pair (``single_pair``), whose intervals are all nan too, the one warning it gets (its
    :meth:`KappaResult.confidence_interval` does not warn again). ``some_single``: of
    several results, some single pairs."""
    if single_pair:
        warn_undefined(
            f"The test of kappa = {kappa0:g} and every interval are undefined for a single "
            "pair: the null standard error (under H0) and the standard error are 0, which "
            "measures nothing, and the other intervals need 2 pairs or more (the bootstrap "
            "3 items). test_statistic, pvalue and confidence_interval() are nan. Hint: rate "
            "more pairs."
        )
        return
    warn_undefined(
        f"The test of kappa = {kappa0:g} is undefined: the null standard error "
        "(under H0) is 0 (a single pair, or every expected pair in one cell). test_statistic "
        "and pvalue are nan" + ("; so is every interval of a single pair." if some_single else ".")
    )
