"""Values as text: the one rule for a value the data leave undefined, the precision of each
kind of value, and the words of a kappa.

A statistic, standard error, p-value or interval limit that the data do not define is nan in a
result (``null`` in its JSON). Text written for a reader says ``undefined`` instead: the
results' ``explain()`` and the command line's tables both format numbers through
:func:`number_text` and intervals through :func:`interval_text`, so the two never disagree.
Both name a kappa's Landis & Koch band with :func:`interpretation`, and the command line an
alpha's reliability with :func:`reliability_band`.

The command line's text tables, HTML reports and methods sentences write every value of one
kind with one precision: :data:`DECIMALS` for coefficients (kappa, ICC, CCC, PABAK),
standard errors, proportions, differences and interval limits; :data:`STATISTIC_DECIMALS` for
test statistics (z, F, chi-square) through :func:`statistic_text`; an infinite value of any
kind (an interval's open end, an F over an error mean square of 0) as ``∞`` or ``-∞``
(never Python's ``inf``); degrees of freedom through :func:`df_text` (APA style:
plain digits, without the thousands separator of a count of rows, pairs or items); p-values
through :func:`pvalue_text` and :func:`p_phrase` (APA style: three decimals, ``< 0.001`` below
that); a power, an assurance or another probability through :func:`probability_text` and
:func:`probability_phrase` (three decimals, never rounded to a bound it does not reach:
``> 0.999``, not ``1.000``). JSON and CSV keep the full value; ``explain()`` writes p-values
with six significant digits.

Reports and methods sentences name and write an interval through :func:`bound_name` and
:func:`bound_text`: a one-sided interval as the bound a paper gives ("one-sided 95% lower
confidence bound 0.1272"), not as ``[0.1272, ∞]``; the text tables keep ``[low, high]``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = [
    "DECIMALS",
    "PVALUE_SMALLEST",
    "STATISTIC_DECIMALS",
    "UNDEFINED",
    "bound_name",
    "bound_text",
    "df_text",
    "interpretation",
    "interval_text",
    "level_percent",
    "number_text",
    "p_phrase",
    "probability_phrase",
    "probability_text",
    "pvalue_text",
    "reliability_band",
    "sign_words",
    "statistic_text",
]

# How text prints a value a result holds as nan.
UNDEFINED = "undefined"

# Decimals of a coefficient, standard error, proportion, difference or interval limit in text.
DECIMALS = 4
# Decimals of a test statistic (z, F, chi-square) in text.
STATISTIC_DECIMALS = 2
# Below this a p-value is written "< 0.001" (APA style); above, with three decimals.
PVALUE_SMALLEST = 0.001
# The levels a p-value written in text is never rounded up to (from below).
_SIGNIFICANCE_LEVELS = (0.05, 0.01)

# Landis & Koch (1977), Biometrics 33(1): 159-174, Table on p. 165.
_BANDS = (
    (0.0, "poor"),
    (0.20, "slight"),
    (0.40, "fair"),
    (0.60, "moderate"),
    (0.80, "substantial"),
    (1.0, "almost perfect"),
)


def number_text(value: float, spec: str = ".6g", reason: str | None = None) -> str:
    """``value`` formatted with the format ``spec``; ``undefined`` for nan, followed by
    ``: reason`` when the reason is known; ``∞`` or ``-∞`` when it is infinite (an interval's
    open end, a test statistic over a standard error of 0), never Python's ``inf``.

    Examples
    --------
    >>> number_text(0.123456789), number_text(float("nan")), number_text(0.5, ".2f")
    ('0.123457', 'undefined', '0.50')
    >>> number_text(float("nan"), reason="every rating is in one category")
    'undefined: every rating is in one category'
    >>> number_text(float("-inf"), ".4f"), number_text(float("inf"))
    ('-∞', '∞')
    """
    value = float(value)
    if math.isnan(value):
        return UNDEFINED if reason is None else f"{UNDEFINED}: {reason}"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return format(value, spec)


def statistic_text(value: float, spec: str = f".{STATISTIC_DECIMALS}f") -> str:
    """A test statistic (z, F, chi-square) as text writes it: :data:`STATISTIC_DECIMALS`
    decimals (or ``spec``), ``∞`` or ``-∞`` when it is infinite (an F whose error mean square
    is 0), ``undefined`` for nan.

    Examples
    --------
    >>> statistic_text(12.345), statistic_text(float("inf")), statistic_text(float("-inf"))
    ('12.35', '∞', '-∞')
    >>> statistic_text(float("nan")), statistic_text(3.14159, ".6g")
    ('undefined', '3.14159')
    """
    return number_text(value, spec)


def df_text(df: float) -> str:
    """Degrees of freedom as text writes them, ``t(1499)``, ``chi-square with 2 df`` (APA
    style): whole numbers in plain digits, without the thousands separator that counts of
    rows, pairs and items carry, never an exponent; an approximate (Satterthwaite) value with
    two decimals; ``undefined`` for nan.

    Examples
    --------
    >>> df_text(1499), df_text(2.0), df_text(149999), df_text(12.3456), df_text(float("nan"))
    ('1499', '2', '149999', '12.35', 'undefined')
    """
    value = float(df)
    if math.isnan(value):
        return UNDEFINED
    if value == round(value) and math.isfinite(value):
        return str(round(value))
    return number_text(value, ".2f")


def pvalue_text(value: float, bound: bool = False) -> str:
    """A p-value as text writes it (APA style): three decimals, ``< 0.001`` below 0.001,
    ``undefined`` for nan. A p-value below 0.05 or 0.01 that three decimals would round up to
    that level gets the decimals it needs to stay below it (``0.0495``, not ``0.050``, which
    would read as not significant at 5%). With ``bound`` the value is an upper bound of p (the
    smallest p-value a bootstrap shows): ``<= x``, x rounded up so that the bound stays true.

    Examples
    --------
    >>> pvalue_text(0.0123), pvalue_text(0.04951), pvalue_text(1e-20), pvalue_text(float("nan"))
    ('0.012', '0.0495', '< 0.001', 'undefined')
    >>> pvalue_text(0.05), pvalue_text(0.0504), pvalue_text(0.0099996)
    ('0.050', '0.050', '0.0099996')
    >>> pvalue_text(0.0022, bound=True), pvalue_text(0.000229, bound=True)
    ('<= 0.003', '< 0.001')
    """
    value = float(value)
    if value < PVALUE_SMALLEST:  # False for nan
        return f"< {PVALUE_SMALLEST:g}"
    if bound:  # 1e-9 absorbs the float error of value * 1000 (0.003 stays 0.003)
        return f"<= {number_text(math.ceil(value * 1000 - 1e-9) / 1000, '.3f')}"
    decimals = 3
    while decimals < 8 and any(
        value < level <= float(f"{value:.{decimals}f}") for level in _SIGNIFICANCE_LEVELS
    ):
        decimals += 1
    return number_text(value, f".{decimals}f")


def p_phrase(value: float, bound: bool = False) -> str:
    """A p-value after its letter, as :func:`pvalue_text` writes it: ``p = 0.012``,
    ``p < 0.001``, ``p <= 0.003`` (``bound``), ``p undefined``.

    >>> p_phrase(0.0123), p_phrase(1e-20), p_phrase(0.0022, bound=True), p_phrase(float("nan"))
    ('p = 0.012', 'p < 0.001', 'p <= 0.003', 'p undefined')
    """
    text = pvalue_text(value, bound)
    return f"p {text}" if text.startswith("<") or math.isnan(value) else f"p = {text}"


def probability_text(value: float, target: float | None = None) -> str:
    """A power, an assurance or another probability as text writes it: three decimals, kept
    true at the ends (``> 0.999`` for a value below 1 that would round to ``1.000``, ``< 0.001``
    for one above 0 that would round to ``0.000``); ``undefined`` for nan. A value below
    ``target`` (the power or assurance wanted) that three decimals would round up to it gets
    the decimals it needs to stay below it (``0.7996``, not ``0.800``, which would read as
    meeting a wanted 0.8).

    Examples
    --------
    >>> probability_text(0.8123), probability_text(0.9996), probability_text(1.0)
    ('0.812', '> 0.999', '1.000')
    >>> probability_text(0.0002), probability_text(0.0), probability_text(float("nan"))
    ('< 0.001', '0.000', 'undefined')
    >>> probability_text(0.79996, target=0.8), probability_text(0.8, target=0.8)
    ('0.79996', '0.800')
    """
    value = float(value)
    if math.isnan(value):
        return UNDEFINED
    if 0.999 < value < 1.0 and f"{value:.3f}" == "1.000":
        return "> 0.999"
    if 0.0 < value < PVALUE_SMALLEST and f"{value:.3f}" == "0.000":
        return f"< {PVALUE_SMALLEST:g}"
    decimals = 3
    while decimals < 8 and target is not None and value < target <= float(f"{value:.{decimals}f}"):
        decimals += 1
    return f"{value:.{decimals}f}"


def probability_phrase(name: str, value: float, target: float | None = None) -> str:
    """A probability after its name, as :func:`probability_text` writes it:
    ``power = 0.812``, ``power > 0.999``, ``power undefined``.

    >>> probability_phrase("power", 0.8123), probability_phrase("power", 0.9996)
    ('power = 0.812', 'power > 0.999')
    >>> probability_phrase("P(lower limit > 0.6)", float("nan"))
    'P(lower limit > 0.6) undefined'
    """
    text = probability_text(value, target)
    if text.startswith(("<", ">")) or text == UNDEFINED:
        return f"{name} {text}"
    return f"{name} = {text}"


def interval_text(low: float, high: float, number: Callable[[float], str] = number_text) -> str:
    """``[low, high]``, each end written by ``number``; ``undefined`` when an end is nan.

    Examples
    --------
    >>> interval_text(0.25, 0.75), interval_text(float("nan"), 1.0)
    ('[0.25, 0.75]', 'undefined')
    """
    if math.isnan(low) or math.isnan(high):
        return UNDEFINED
    return f"[{number(low)}, {number(high)}]"


def bound_name(level: float, alternative: str, short: bool = False) -> str:
    """How a report or a methods sentence names an interval: ``95% confidence interval``
    (``95% CI`` when ``short``, for a table's heading); a one-sided interval by the bound a
    paper gives, ``one-sided 95% lower confidence bound`` for 'greater' and ``upper`` for
    'less' (``one-sided 95% lower bound`` when ``short``).

    Examples
    --------
    >>> bound_name(0.95, "two-sided"), bound_name(0.95, "greater")
    ('95% confidence interval', 'one-sided 95% lower confidence bound')
    >>> bound_name(0.9, "less", short=True), bound_name(0.9, "two-sided", short=True)
    ('one-sided 90% upper bound', '90% CI')
    """
    level_words = level_percent(level)
    if alternative == "two-sided":
        return f"{level_words} {'CI' if short else 'confidence interval'}"
    side = "lower" if alternative == "greater" else "upper"
    return f"one-sided {level_words} {side} {'bound' if short else 'confidence bound'}"


def bound_text(
    low: float, high: float, alternative: str, number: Callable[[float], str] = number_text
) -> str:
    """The value of the interval :func:`bound_name` names: ``[low, high]``
    (:func:`interval_text`) when two-sided; one-sided, its finite end alone (``low`` for
    'greater', ``high`` for 'less'), never the other end (1 or infinity), which says
    nothing; ``undefined`` for nan.

    Examples
    --------
    >>> bound_text(0.25, 0.75, "two-sided"), bound_text(0.25, float("inf"), "greater")
    ('[0.25, 0.75]', '0.25')
    >>> bound_text(float("-inf"), 0.75, "less"), bound_text(float("nan"), 1.0, "greater")
    ('0.75', 'undefined')
    """
    if alternative == "two-sided":
        return interval_text(low, high, number)
    bound = float(low if alternative == "greater" else high)
    return UNDEFINED if math.isnan(bound) else number(bound)


def interpretation(kappa: float) -> str:
    """The Landis & Koch (1977) band of a kappa value.

    ``< 0`` poor, ``0-0.20`` slight, ``0.21-0.40`` fair, ``0.41-0.60`` moderate,
    ``0.61-0.80`` substantial, ``0.81-1`` almost perfect; nan is 'undefined'. Values just
    above 1 (rounding) count as almost perfect.
    """
    if math.isnan(kappa):
        return UNDEFINED
    for upper, name in _BANDS:
        if kappa < upper or (upper > 0 and kappa <= upper):
            return name
    return "almost perfect"


def reliability_band(alpha: float) -> str:
    """Krippendorff's (2019) guideline for an alpha: data to rely on at ``alpha >= 0.800``,
    for tentative conclusions only from ``0.667``, below that not reliable.

    >>> reliability_band(0.81), reliability_band(0.7), reliability_band(0.5)
    ('reliable', 'tentative', 'not reliable')
    """
    if math.isnan(alpha):
        return UNDEFINED
    if alpha >= 0.800:
        return "reliable"
    return "tentative" if alpha >= 0.667 else "not reliable"


def level_percent(level: float) -> str:
    """A confidence level as text writes it: "95%", "97.5%" (``:g`` digits, never a rounded
    "98%").

    >>> level_percent(0.95), level_percent(0.975)
    ('95%', '97.5%')
    """
    return f"{level * 100:g}%"


def sign_words(difference: float, above: str, below: str) -> str:
    """What the sign of a difference means, for the value shown: "(above 0: <above>)",
    "(below 0: <below>)", or, at 0 or undefined, both readings."""
    if difference > 0:
        return f"(above 0: {above})"
    if difference < 0:
        return f"(below 0: {below})"
    return f"(above 0 would mean {above}; below 0, {below})"
