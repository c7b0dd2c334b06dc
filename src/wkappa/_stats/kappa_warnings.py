"""The warnings of a two-rater kappa that is undefined, or whose test is, and of its
interval at perfect agreement: one text each, pointing at the user's call (for several
groups, the same text once, after the groups it concerns)."""

from __future__ import annotations

from collections.abc import Sequence

from .._core import UNDEFINED_REASON, warn_at_caller
from ..exceptions import PerfectAgreementWarning, UndefinedKappaWarning

__all__ = [
    "groups_text",
    "warn_perfect_agreement",
    "warn_undefined",
    "warn_undefined_kappa",
    "warn_untestable",
]

# The groups a grouped warning names; the others are counted.
_NAMED_GROUPS = 5


def groups_text(
    names: Sequence[str], option: str = "", nouns: tuple[str, str] = ("group", "groups")
) -> str:
    """The groups a warning is about, in the words that begin it: "group 'b'", "groups 'b',
    'c'" ("and 3 more" past five); ``names`` as they should be shown (quoted by the caller),
    ``option`` the grouping as the caller spells it, put first ("by='prompt' group 'b'");
    ``nouns`` what one group and several are called.

    >>> groups_text(["'b'", "'c'"], option="by='prompt'")
    "by='prompt' groups 'b', 'c'"
    >>> groups_text(["'north'"], nouns=("stratum", "strata"))
    "stratum 'north'"
    """
    shown = ", ".join(names[:_NAMED_GROUPS])
    if len(names) > _NAMED_GROUPS:
        shown += f" and {len(names) - _NAMED_GROUPS} more"
    word = nouns[0] if len(names) == 1 else nouns[1]
    return f"{option} {word} {shown}" if option else f"{word} {shown}"


def warn_perfect_agreement(groups: str = "") -> None:
    """The warning of an 'asymptotic' interval [1, 1] at kappa = 1; ``groups``
    (:func:`groups_text`) begins it when it is about some groups of several."""
    warn_at_caller(
        (f"{groups}: " if groups else "")
        + "The 'asymptotic' interval is [1, 1]: kappa is 1 (no pair disagrees), where its "
        "standard error is 0, so it states a certainty that a sample of pairs cannot give. "
        "Hint: method='score' gives an interval whose lower limit is below 1.",
        PerfectAgreementWarning,
    )


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
