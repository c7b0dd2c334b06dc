"""Sums of sample weights that are the same on every run and on every engine: the rule shared
by the command line's counts and the frames engine's.

An engine that adds a key's rows in parts (threads, partitions, a streaming engine) adds them
in an order that changes between runs, and a floating-point sum depends on that order. Each
weight is therefore also taken as a whole number of units of ``10**-SCALE``: the weight
multiplied by ``10**SCALE`` in floating point (one rounding, a relative error of about
``1e-16``, the same in every engine) and cut down to a whole number (an error below one
unit). Whole numbers add exactly, in any order.

Each weight's units are written in base ``2**LIMB_BITS`` (:func:`limbs`: ``LIMBS`` digits,
each a whole number in a float, computed with products by powers of two, floors and
differences, which are exact); the engine sums each digit as a 64-bit integer and the digits'
sums are put together here (:func:`units_from_limbs`): a sum that no engine rounds, so pandas,
polars, pyarrow, DuckDB, Dask, PySpark and the command line give the same bits. (Engines' own
casts of a float to a decimal round differently from one another, which is why they are not
used.)

A key's weight is its sum of units converted to the nearest float (:func:`units_to_float`)
when that is as accurate as a floating-point sum (:func:`units_are_accurate`): every weight of
the key below ``LARGEST`` and its mean weight at least ``SMALLEST_MEAN``, so that the sum moves
by at most about ``2e-16`` relative, and fewer than ``MOST_ROWS`` rows (the digits' 64-bit sums
cannot overflow). Other keys keep the floating-point sum, whose last digits can vary between
runs.

The rules below take polars or narwhals expressions, pandas or Dask series and numpy arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "LARGEST",
    "LIMBS",
    "LIMB_BITS",
    "MOST_ROWS",
    "SCALE",
    "SMALLEST_MEAN",
    "castable",
    "exact_weight_sums",
    "limbs",
    "units_are_accurate",
    "units_from_limbs",
    "units_to_float",
]

# Digits after the point of the units (10**-SCALE).
SCALE = 24
# A weight this large or larger is not cast (its units would not fit the LIMBS digits).
LARGEST = 1e13
# Below this mean weight a key's sum of units has lost precision to the last unit.
SMALLEST_MEAN = 1e-8
# A weight's units (below LARGEST * 10**SCALE < 2**123) in LIMBS digits of LIMB_BITS bits.
LIMB_BITS = 31
LIMBS = 4
# A key of fewer rows sums each digit (below 2**LIMB_BITS) within a signed 64-bit integer.
MOST_ROWS = 2 ** (63 - LIMB_BITS)
_UNITS_PER_WEIGHT: int = 10**SCALE
# Rows whose digits (below 2**LIMB_BITS) a float64 bincount adds exactly.
_CHUNK = 2 ** (53 - LIMB_BITS)


def castable(weight: Any) -> Any:
    """Whether a weight is taken as units (False for NaN; a null stays null)."""
    return (weight >= 0) & (weight < LARGEST)


def limbs(
    weight: Any,
    floor: Callable[[Any], Any],
    keep: Callable[[str, Any], Any] = lambda name, value: value,
) -> list[Any]:
    """The ``LIMBS`` digits, lowest first, of a castable float weight's units in base
    ``2**LIMB_BITS``: whole numbers (below ``2**LIMB_BITS``) to be cast to 64-bit integers and
    summed.

    ``floor`` rounds down (``numpy.floor``, or a narwhals expression's ``floor``); ``keep``
    may store an intermediate value (a column of an engine's frame) and return what reads it,
    so that an expression engine computes it once. The only rounding is the product by
    ``10**SCALE``: the digits are taken from the highest down, each the floor of the rest times
    a power of two, and the rest less the digit's value is exact in floating point (as are the
    floors, of values below ``2**LIMB_BITS``), so every engine gets the same digits.
    """
    rest = keep("units", weight * 10.0**SCALE)
    digits = []
    for k in reversed(range(LIMBS)):
        unit = 2.0 ** (LIMB_BITS * k)
        digit = keep(f"digit{k}", floor(rest * (1.0 / unit)))
        digits.append(digit)
        if k:
            rest = keep(f"rest{k}", rest - digit * unit)
    return digits[::-1]


def units_from_limbs(digit_sums: Any) -> int:
    """A key's sum of units from the sums of its :func:`limbs` (lowest digit first)."""
    return sum(int(total) << (LIMB_BITS * k) for k, total in enumerate(digit_sums))


def units_to_float(units: int) -> float:
    """A sum of units of ``10**-SCALE`` as the nearest float (Python's division of two
    integers is correctly rounded)."""
    return units / _UNITS_PER_WEIGHT


def units_are_accurate(largest: Any, units_sum: Any, count: Any) -> Any:
    """Whether a key's sum of units is used: its largest weight below ``LARGEST``, its mean
    weight (``units_sum / count``) at least ``SMALLEST_MEAN`` and fewer than ``MOST_ROWS``
    rows."""
    return (largest < LARGEST) & (units_sum >= count * SMALLEST_MEAN) & (count < MOST_ROWS)


def exact_weight_sums(index: np.ndarray, weight: np.ndarray, size: int) -> np.ndarray:
    """The sums of ``weight`` (checked finite and non-negative) per ``index`` in
    ``0..size-1`` by the rule, in numpy: each index's exact sum of units where
    :func:`units_are_accurate`, else its floating-point sum."""
    w = np.asarray(weight, dtype=np.float64)
    floats = np.bincount(index, weights=w, minlength=size)
    count = np.bincount(index, minlength=size)
    largest = np.zeros(size)
    np.maximum.at(largest, index, w)
    digits = limbs(np.where(castable(w), w, 0.0), np.floor)
    totals = [np.zeros(size, dtype=np.int64) for _ in digits]
    for start in range(0, len(w), _CHUNK):
        part = index[start : start + _CHUNK]
        for total, digit in zip(totals, digits, strict=True):
            chunk = digit[start : start + _CHUNK]
            total += np.bincount(part, weights=chunk, minlength=size).astype(np.int64)
    present = np.flatnonzero(count)
    exact = floats.copy()
    digit_sums = [total[present].tolist() for total in totals]
    exact[present] = [
        units_to_float(units_from_limbs(key)) for key in zip(*digit_sums, strict=True)
    ]
    chosen: np.ndarray = np.where(units_are_accurate(largest, exact, count), exact, floats)
    return chosen
