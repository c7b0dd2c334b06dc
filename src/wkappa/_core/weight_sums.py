"""Sums of sample weights that are the same on every run: the rule shared by the command
line's counts and the frames engine's.

An engine that adds a key's rows in parts (polars' streaming engine, threads) adds them in an
order that changes between runs, and a floating-point sum depends on that order. The weights
are therefore also summed as fixed-point decimals of ``SCALE`` digits: integers of
``10**-SCALE``, whose addition is exact and so does not depend on the order. Casting a weight
to a decimal rounds it twice, the same way on every run: the engine (polars, DuckDB)
multiplies it by ``10**SCALE`` in floating point (a relative error of about ``1e-16``) and
keeps whole units of ``10**-SCALE`` (an error below one unit). A key's weight is the decimal
sum, converted to a float after the count, when that is as accurate as a floating-point sum
(:func:`decimal_is_accurate`): every weight of the key below ``LARGEST`` and its mean weight at
least ``SMALLEST_MEAN``, so that the sum moves by at most about ``2e-16`` relative. Other keys
keep the floating-point sum, whose last digits can vary between runs.

A decimal sum of ``10**(38 - SCALE)`` or more does not fit the decimal: the engine then refuses
the query (:func:`decimal_refused`) and the count runs again with floating-point sums only.

The two rules below take polars or narwhals expressions as well as numpy arrays.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "LARGEST",
    "SCALE",
    "SMALLEST_MEAN",
    "castable",
    "decimal_is_accurate",
    "decimal_refused",
]

# Digits after the point of the decimal sums (Decimal(38, SCALE)).
SCALE = 24
# A weight this large or larger is not cast (its key's decimal sum could not hold it).
LARGEST = 1e13
# Below this mean weight a key's decimal sum has lost precision to the last unit.
SMALLEST_MEAN = 1e-8


def castable(weight: Any) -> Any:
    """Whether a weight is cast to the decimal (False for NaN; a null stays null)."""
    return (weight >= 0) & (weight < LARGEST)


def decimal_is_accurate(largest: Any, decimal_sum: Any, count: Any) -> Any:
    """Whether a key's decimal sum is used: its largest weight below ``LARGEST`` and its mean
    weight (``decimal_sum / count``) at least ``SMALLEST_MEAN``."""
    return (largest < LARGEST) & (decimal_sum >= count * SMALLEST_MEAN)


def decimal_refused(exc: BaseException) -> bool:
    """Whether the engine refused a query for its decimal sum (one that does not fit): polars
    names the decimal; DuckDB adds a decimal of 38 digits as a 128-bit integer (HUGEINT)."""
    message = str(exc).lower()
    return "decimal" in message or "overflow in hugeint addition" in message
