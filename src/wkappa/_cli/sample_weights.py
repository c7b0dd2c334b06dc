"""Sample weights (``--weight-col``) of a counted file: which are refused, and their sums per
key, the same on every run.

The streaming engine adds a key's rows in parts whose order changes between runs, and a
floating-point sum depends on that order. The weights are therefore also summed as fixed-point
decimals of ``SCALE`` digits: integers of ``10**-SCALE``, whose addition is exact and so does not
depend on the order. Casting a weight to a decimal rounds it twice, the same way on every run:
polars multiplies it by ``10**SCALE`` in floating point (a relative error of about ``1e-16``)
and keeps whole units of ``10**-SCALE`` (an error below one unit). A key's weight is the
decimal sum, converted to a float after the count, when that is as accurate as a
floating-point sum: every weight of the key below ``LARGEST`` and its mean weight at least
``SMALLEST_MEAN``, so that the sum moves by at most about ``2e-16`` relative. Other keys keep
the floating-point sum, whose last digits can vary between runs.

A decimal sum of ``10**(38 - SCALE)`` or more does not fit the decimal: polars then refuses the
query (:func:`decimal_refused`) and the count runs again with floating-point sums only.
"""

from __future__ import annotations

from typing import Any

from .._core import format_value, import_optional
from ..exceptions import WkappaError

__all__ = [
    "LARGEST",
    "SCALE",
    "SMALLEST_MEAN",
    "aggregations",
    "bad",
    "chosen",
    "decimal_refused",
    "refusal",
]

SCALE = 24
# A weight this large or larger is not cast (its key's decimal sum could not hold it).
LARGEST = 1e13
SMALLEST_MEAN = 1e-8
_DECIMAL = "__wkappa_weight_decimal"
_MAX = "__wkappa_weight_max"


def bad(column: str) -> Any:
    """Whether a row's weight is refused: missing, NaN, infinite or negative."""
    value = import_optional("polars", "cli").col(column).cast(float)
    return value.is_null() | value.is_nan() | value.is_infinite() | (value < 0)


def refusal(name: str, row: int | None, column: str, shown: Any) -> WkappaError:
    """The error for the refused weight ``shown`` of the file ``name``, at data row ``row``."""
    if shown is None or shown != shown:  # an empty cell, NA or NaN
        problem = f"column {column!r} has no weight (a missing value)"
    else:
        problem = (
            f"the weight {format_value(shown)} in column {column!r} is not a finite "
            "non-negative number"
        )
    return WkappaError(f"{name}, row {row}: {problem}. Hint: weights must be >= 0 and present.")


def aggregations(column: str, name: str, refused: str, *, fixed_point: bool = True) -> list[Any]:
    """Aggregations of the weights in ``column``: their floating-point sum named ``name``, the
    number of refused weights named ``refused`` and, with ``fixed_point``, what :func:`chosen`
    needs to replace the sum."""
    pl = import_optional("polars", "cli")
    value = pl.col(column).cast(pl.Float64)
    found = [value.sum().alias(name), bad(column).sum().alias(refused)]
    if fixed_point:
        castable = (value >= 0) & (value < LARGEST)  # False for NaN; null stays null
        decimal = pl.when(castable).then(value).otherwise(0.0).cast(pl.Decimal(38, SCALE))
        found += [decimal.sum().alias(_DECIMAL), value.max().alias(_MAX)]
    return found


def chosen(counts: Any, name: str, count: str) -> Any:
    """``counts`` (with the columns of :func:`aggregations` and the row counts ``count``) with
    the weight sum ``name`` taken from the decimal sum wherever that is as accurate."""
    pl = import_optional("polars", "cli")
    if _DECIMAL not in counts.columns:
        return counts
    decimal = pl.col(_DECIMAL).cast(pl.Float64)
    accurate = (pl.col(_MAX) < LARGEST) & (decimal >= pl.col(count) * SMALLEST_MEAN)
    weight = pl.when(accurate).then(decimal).otherwise(pl.col(name)).alias(name)
    return counts.with_columns(weight).drop(_DECIMAL, _MAX)


def decimal_refused(exc: BaseException) -> bool:
    """Whether polars refused a query for its decimal sum (one that does not fit)."""
    return "decimal" in str(exc).lower()
