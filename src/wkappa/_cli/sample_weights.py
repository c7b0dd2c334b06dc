"""Sample weights (``--weight-col``) of a counted file: which are refused, and their sums per
key, the same on every run (the rule of :mod:`wkappa._core.weight_sums`)."""

from __future__ import annotations

from typing import Any

from .._core import (
    SCALE,
    castable,
    decimal_is_accurate,
    decimal_refused,
    format_value,
    import_optional,
)
from ..exceptions import WkappaError

__all__ = ["aggregations", "bad", "chosen", "decimal_refused", "refusal"]

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
        decimal = pl.when(castable(value)).then(value).otherwise(0.0).cast(pl.Decimal(38, SCALE))
        found += [decimal.sum().alias(_DECIMAL), value.max().alias(_MAX)]
    return found


def chosen(counts: Any, name: str, count: str) -> Any:
    """``counts`` (with the columns of :func:`aggregations` and the row counts ``count``) with
    the weight sum ``name`` taken from the decimal sum wherever that is as accurate."""
    pl = import_optional("polars", "cli")
    if _DECIMAL not in counts.columns:
        return counts
    decimal = pl.col(_DECIMAL).cast(pl.Float64)
    accurate = decimal_is_accurate(pl.col(_MAX), decimal, pl.col(count))
    weight = pl.when(accurate).then(decimal).otherwise(pl.col(name)).alias(name)
    return counts.with_columns(weight).drop(_DECIMAL, _MAX)
