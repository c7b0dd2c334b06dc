"""Confidence intervals as every result gives them: the :class:`ConfidenceInterval` value, the
check of a confidence level, the one-sided rule (:func:`sided`), the choice of an interval
method, how an interval is written in reprs and explanations, and when the asymptotic interval
is likely to cover less than its level.

The intervals themselves are computed beside their results, the score and Fisher-z intervals
of a table's kappa in ``score_interval.py`` and ``fisher_z_interval.py``, and the bootstrap's
settings are in ``bootstrap_method.py``.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .._core import check_choice, format_value, real_number, warn_at_caller
from ..exceptions import PerfectAgreementWarning, UndefinedKappaWarning, WkappaError
from .bootstrap_method import BootstrapMethod
from .json_values import json_fields
from .kappa_warnings import groups_text, warn_perfect_agreement
from .text_values import level_percent

__all__ = [
    "ConfidenceInterval",
    "check_confidence_level",
    "check_method",
    "check_only_method",
    "collapsed",
    "collapsed_groups",
    "difference_repr",
    "estimate_repr",
    "interval_repr",
    "is_resampled",
    "level_text",
    "one_sided",
    "quiet_interval",
    "resampled_text",
    "sided",
    "sided_limits",
    "small_sample_reason",
    "two_sided_level",
    "warn_undefined_inference",
    "warn_undefined_interval",
    "warn_undefined_intervals",
]


def check_confidence_level(confidence_level: Any) -> float:
    """Validate a confidence level: a real number strictly between 0 and 1."""
    level = real_number(confidence_level, "confidence_level", "a number in (0, 1)")
    if not 0.0 < level < 1.0:
        hint = " Hint: 95% is confidence_level=0.95." if 1.0 < level <= 100.0 else ""
        raise WkappaError(
            f"`confidence_level` must be strictly between 0 and 1; got {level!r}.{hint}"
        )
    return level


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval; unpacks as ``low, high = ci``.

    Attributes
    ----------
    low, high : float
        The interval's end points (nan when kappa is undefined).
    confidence_level : float
        The nominal coverage, e.g. 0.95.
    method : str
        'asymptotic', 'score', 'fisher-z', 'percentile' or 'bca'; 'expanded-percentile' for
        the paired difference of :func:`~wkappa.paired_kappa_test`.
    n_resamples : int
        Bootstrap replicates drawn (0 for the asymptotic, score and Fisher-z intervals).
    n_undefined : int
        Bootstrap replicates whose kappa was undefined and were dropped (see
        :class:`BootstrapMethod`).

    Examples
    --------
    >>> import wkappa as wk
    >>> ci = wk.kappa_test_from_table([[20, 5], [4, 15]]).confidence_interval(0.9)
    >>> low, high = ci
    >>> round(low, 4), round(ci[1], 4), ci.method
    (0.3837, 0.7879, 'asymptotic')
    """

    low: float
    high: float
    confidence_level: float = 0.95
    method: str = "asymptotic"
    n_resamples: int = 0
    n_undefined: int = 0

    def __iter__(self) -> Iterator[float]:
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> float:
        return (self.low, self.high)[index]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: nan end points become None."""
        return json_fields(self, _INTERVAL_FIELDS)


_INTERVAL_FIELDS = "low high confidence_level method n_resamples n_undefined"  # to_dict() keys

# The range of each coefficient: the fixed end of a one-sided interval (see `sided`).
# Kappa-type coefficients are at most 1 but have no lower bound common to every weight matrix
# (a custom W can make weighted kappa as low as you like), so 'less' intervals start at -inf.
KAPPA_RANGE = (-math.inf, 1.0)
PROPORTION_RANGE = (0.0, 1.0)
CORRELATION_RANGE = (-1.0, 1.0)
DIFFERENCE_RANGE = (-math.inf, math.inf)


def one_sided(alternative: str) -> str:
    """'one-sided ' for a 'greater' or 'less' result, '' for a two-sided one: the word the
    reprs and explain() put before "CI" / "interval"."""
    return "" if alternative == "two-sided" else "one-sided "


def level_text(ci: ConfidenceInterval, alternative: str) -> str:
    """ "90% " or "90% one-sided ": the level of ``ci`` as the explanations put it before
    "CI" / "interval" (``:g`` digits, so 0.975 is 97.5%, not a rounded 98%)."""
    return f"{level_percent(ci.confidence_level)} {one_sided(alternative)}"


def is_resampled(ci: ConfidenceInterval) -> bool:
    """Whether ``ci`` is a bootstrap interval (drawn, or nan on too few items to draw)."""
    return bool(ci.n_resamples) or ci.method in ("percentile", "bca")


def resampled_text(ci: ConfidenceInterval) -> str:
    """How a bootstrap interval was drawn, for an explanation: "BCa bootstrap, 999
    resamples" (plus the replicates dropped as undefined; "too few items to resample" when
    none was drawn); '' for an interval computed without resampling."""
    if not is_resampled(ci):
        return ""
    name = {"bca": "BCa", "percentile": "percentile"}.get(ci.method, ci.method)
    if not ci.n_resamples:
        return f"{name} bootstrap, too few items to resample"
    dropped = f", {ci.n_undefined} undefined and dropped" if ci.n_undefined else ""
    return f"{name} bootstrap, {ci.n_resamples} resamples{dropped}"


def interval_repr(ci: ConfidenceInterval, alternative: str) -> str:
    """The "95% CI=[low, high]" part of a result's repr ("95% one-sided CI=[...]" for a
    one-sided ``alternative``)."""
    return f"{level_text(ci, alternative)}CI=[{ci.low:.6g}, {ci.high:.6g}]"


def estimate_repr(result: Any) -> str:
    """The "statistic=..., standard_error=..., 95% CI=[low, high]" part of a result's repr:
    its ``statistic``, ``standard_error`` and default interval."""
    return (
        f"statistic={result.statistic:.6g}, standard_error={result.standard_error:.6g}, "
        + interval_repr(result.confidence_interval(), result.alternative)
    )


def difference_repr(result: Any, first: str, second: str) -> str:
    """The "first=..., second=..., difference=..., 95% CI=[low, high], pvalue=..." part of a
    comparison's repr: its two estimates (attributes ``first`` and ``second``), their
    ``difference``, default interval and ``pvalue``."""
    ci = quiet_interval(result.confidence_interval)
    return (
        f"{first}={getattr(result, first):.6g}, {second}={getattr(result, second):.6g}, "
        f"difference={result.difference:.6g}, {interval_repr(ci, result.alternative)}, "
        f"pvalue={result.pvalue:.6g}"
    )


def sided(
    two_sided: Callable[[float], ConfidenceInterval],
    confidence_level: Any,
    alternative: str,
    bounds: tuple[float, float],
) -> ConfidenceInterval:
    """The interval of a result for its ``alternative``, from its two-sided interval.

    The one rule every result's ``confidence_interval`` follows (as scipy.stats does):

    * 'two-sided': ``two_sided(confidence_level)``;
    * 'greater': ``(low, upper bound)``, with ``low`` the one-sided lower limit at
      ``confidence_level``;
    * 'less': ``(lower bound, high)``, with ``high`` the one-sided upper limit.

    A one-sided limit at level gamma is the matching limit of the two-sided interval at level
    ``2 gamma - 1`` (each method's two tails are ``(1 -/+ level) / 2``, so its lower tail is
    then ``1 - gamma``), which is how it is computed here, for every method alike; gamma must
    be above 0.5. The fixed end is nan where the computed limit is (an undefined coefficient).

    Parameters
    ----------
    two_sided : callable
        ``level -> ConfidenceInterval``, the result's two-sided interval (scalars or arrays).
    confidence_level : float
        The level the user asked for.
    alternative : {'two-sided', 'greater', 'less'}
        The result's alternative.
    bounds : (float, float)
        The coefficient's range: the fixed end of 'less' and of 'greater' intervals.
    """
    level = check_confidence_level(confidence_level)
    interval = two_sided(two_sided_level(level, alternative))
    low, high = sided_limits(interval.low, interval.high, alternative, bounds)
    return dataclasses.replace(interval, low=low, high=high, confidence_level=level)


def two_sided_level(confidence_level: float, alternative: str) -> float:
    """The level of the two-sided interval whose limit is the one-sided limit of
    ``alternative`` at the checked ``confidence_level`` (:func:`sided`): the level itself for
    'two-sided', else ``2 * level - 1`` (the level must then be above 0.5)."""
    if alternative == "two-sided":
        return confidence_level
    if confidence_level <= 0.5:
        raise WkappaError(
            f"`confidence_level` must be above 0.5 for a one-sided interval "
            f"(alternative={alternative!r}); got {confidence_level!r}."
        )
    return 2.0 * confidence_level - 1.0


def sided_limits(
    low: Any, high: Any, alternative: str, bounds: tuple[float, float]
) -> tuple[Any, Any]:
    """The limits of the ``alternative``'s interval from those of the two-sided interval at
    :func:`two_sided_level` (scalars or arrays): 'greater' keeps ``low`` and ends at the
    upper bound, 'less' keeps ``high`` and starts at the lower bound (nan where the kept limit
    is)."""
    lower, upper = bounds
    if alternative == "greater":
        return low, _fixed_end(upper, low)
    if alternative == "less":
        return _fixed_end(lower, high), high
    return low, high


def _fixed_end(bound: float, limit: Any) -> Any:
    """``bound`` in the shape of ``limit``, nan where the limit is nan."""
    if isinstance(limit, np.ndarray):
        return np.where(np.isnan(limit), np.nan, bound)
    return math.nan if math.isnan(limit) else bound


IntervalName = Literal["asymptotic", "fisher-z", "score"]

# The intervals computed from the table alone (no resampling), in the order the docs list them.
TABLE_INTERVALS = ("asymptotic", "score", "fisher-z")

_BOOTSTRAP_NAMES = ("bootstrap", "percentile", "bca")
_METHODS_LISTED = (
    "'asymptotic', 'score', 'fisher-z', 'bootstrap', 'percentile', 'bca' or a BootstrapMethod(...)"
)


def check_method(method: Any) -> IntervalName | BootstrapMethod:
    """A two-raters interval method: a table interval's name or a :class:`BootstrapMethod`
    ('bootstrap' is the default one, 'percentile' and 'bca' the default with that method)."""
    if isinstance(method, BootstrapMethod):
        return method
    hint = (
        "Hint: the small-sample interval is 'score'."
        if isinstance(method, str) and method in ("fisher_z", "wilson", "score-type")
        else ""
    )
    name = check_choice(
        method, "method", (*TABLE_INTERVALS, *_BOOTSTRAP_NAMES), listed=_METHODS_LISTED, hint=hint
    )
    if name in _BOOTSTRAP_NAMES:
        return BootstrapMethod() if name == "bootstrap" else BootstrapMethod(method=name)
    return name  # type: ignore[no-any-return]


def check_only_method(method: Any, only: str, what: str, hint: str = "") -> None:
    """The ``method`` keyword of a result with one interval method: only ``only``
    (``what`` says what it is; ``hint`` where the other methods are)."""
    check_choice(method, "method", (only,), listed=f"{only!r} ({what})", hint=hint)


# Where the large-sample (Wald) interval undercovers, from benchmarks/coverage_study.py: more
# than 5% of the designs below 93% coverage at n < 100 whatever kappa, and up to n = 1000 when
# kappa >= 0.8 (see BENCHMARKS.md, "Interval coverage at small n").
SMALL_N = 100
HIGH_KAPPA = 0.8
HIGH_KAPPA_N = 1000


def small_sample_reason(n: float, kappa: float) -> str | None:
    """Why the asymptotic interval is likely to cover less than its level, or None."""
    if math.isnan(kappa):
        return None
    if n < SMALL_N:
        return f"n = {n:g} < {SMALL_N}"
    if kappa >= HIGH_KAPPA and n < HIGH_KAPPA_N:
        return f"kappa >= {HIGH_KAPPA:g} with n = {n:g} < {HIGH_KAPPA_N}"
    return None


def warn_undefined_inference(what: str, why: str, hint: str = "rate more items") -> None:
    """The warning of a defined coefficient (``what``: "Fleiss' kappa") whose standard error,
    and so its interval and p-value, is nan (``why``: the reason)."""
    warn_at_caller(
        f"The standard error, interval and p-value of {what} are undefined: {why}. Returning "
        f"nan for them. Hint: {hint}.",
        UndefinedKappaWarning,
    )


def warn_undefined_interval(method: str, n: float, statistic: float) -> None:
    """The warning of a 'score' or 'fisher-z' interval that is nan although kappa is defined."""
    hint = "the 'asymptotic' and 'bootstrap' methods give an interval"
    if not n > 1:
        why = f"it needs at least 2 pairs, and n = {format_value(n)}"
        hint = "rate more pairs"
    elif method == "fisher-z":
        why = (
            f"kappa = {statistic:g} moves outside (-1, 1) when adjusted for small samples, "
            "or its standard error is undefined"
        )
    else:
        why = "the variance along its path of tables is undefined"
    warn_at_caller(
        f"The {method!r} interval is undefined: {why}. Returning (nan, nan). Hint: {hint}.",
        UndefinedKappaWarning,
    )


def collapsed(ci: ConfidenceInterval, statistic: float) -> ConfidenceInterval:
    """``ci``, or its nan version with a warning at the caller where it has zero width below
    perfect agreement: a standard error of 0 there (every pair in one cell of the table)
    measures nothing. At kappa = 1 the interval [1, 1] of perfect agreement stays (the
    standard error of SAS, statsmodels and R's irr is 0 there too); the 'asymptotic' one, the
    default, with a warning that points to the 'score' interval, whose lower limit is below
    1. (The bootstrap's [1, 1] there, every resample agreeing perfectly, is documented.)"""
    if not ci.high - ci.low <= 1e-12:  # (False for nan)
        return ci
    if statistic >= 1.0 - 1e-12:
        if ci.method == "asymptotic":
            warn_perfect_agreement()
        return ci
    warn_at_caller(
        f"The {ci.method!r} interval is undefined: its standard error is 0 at kappa = "
        f"{statistic:g}, as when every pair falls in one cell of the table, which measures "
        "nothing. Returning (nan, nan). Hint: rate more pairs.",
        UndefinedKappaWarning,
    )
    return dataclasses.replace(ci, low=math.nan, high=math.nan)


def quiet_interval(interval: Callable[[], ConfidenceInterval]) -> ConfidenceInterval:
    """``interval()`` without the warning of :func:`collapsed`, for a repr, which should
    not warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        warnings.simplefilter("ignore", PerfectAgreementWarning)
        return interval()


def collapsed_groups(
    method: str, statistic: Any, low: Any, high: Any, names: Sequence[str], option: str = ""
) -> tuple[Any, Any]:
    """The groups' limits, nan (with one warning at the caller) where an interval has zero
    width below perfect agreement, as :func:`collapsed` does for one interval, and its warning
    of an 'asymptotic' [1, 1] at kappa = 1: each once, naming those of the groups ``names``
    (as :func:`~wkappa._stats.kappa_warnings.groups_text` shows them, after ``option``)."""
    kappa = np.asarray(statistic, dtype=np.float64)
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    narrow = high - low <= 1e-12
    perfect = np.flatnonzero(narrow & (kappa >= 1.0 - 1e-12))
    if method == "asymptotic" and perfect.size:
        warn_perfect_agreement(groups_text([names[int(g)] for g in perfect], option))
    zero = narrow & (kappa < 1.0 - 1e-12)
    count = int(np.count_nonzero(zero))
    if count:
        which = groups_text([names[int(g)] for g in np.flatnonzero(zero)], option)
        warn_at_caller(
            f"The {method!r} interval is undefined in {count} of {kappa.size} groups ({which}): "
            "their standard error is 0 below perfect agreement, as when every pair falls in one "
            "cell of the table, which measures nothing; their limits are nan. Hint: rate "
            "more pairs per group.",
            UndefinedKappaWarning,
        )
    return np.where(zero, np.nan, low), np.where(zero, np.nan, high)


def warn_undefined_intervals(
    method: str,
    statistic: Any,
    low: Any,
    high: Any,
    n: Any,
    names: Sequence[str] = (),
    option: str = "",
) -> None:
    """One warning for the groups whose 'score' or 'fisher-z' interval is nan although their
    kappa is defined (arrays over the groups, ``n`` their numbers of pairs), naming them when
    ``names`` are given (as :func:`collapsed_groups` does)."""
    kappa = np.asarray(statistic, dtype=np.float64).reshape(-1)
    undefined = np.isfinite(kappa) & (
        np.isnan(np.asarray(low, dtype=np.float64).reshape(-1))
        | np.isnan(np.asarray(high, dtype=np.float64).reshape(-1))
    )
    count = int(undefined.sum())
    if not count:
        return
    sizes = np.asarray(n, dtype=np.float64).reshape(-1)[undefined]
    few = int(np.count_nonzero(~(sizes > 1)))
    why = f"{few} of them have fewer than 2 pairs" if few else "their variance is undefined"
    if names:
        why = f"{groups_text([names[int(g)] for g in np.flatnonzero(undefined)], option)}; {why}"
    warn_at_caller(
        f"The {method!r} interval is undefined in {count} of {len(kappa)} groups whose kappa "
        f"is defined ({why}); their limits are nan. Hint: rate more pairs per group, or use "
        "the 'asymptotic' interval.",
        UndefinedKappaWarning,
    )
