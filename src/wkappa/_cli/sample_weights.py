"""Sample weights (``--weight-col``) of a counted file: which are refused, and their sums per
key, exact and so the same on every run (the rule of :mod:`wkappa._core.weight_sums`, the
frames functions' too)."""

from __future__ import annotations

from typing import Any

from .._core import (
    LIMBS,
    castable,
    format_value,
    import_optional,
    limbs,
    units_are_accurate,
    units_from_limbs,
    units_to_float,
)
from ..exceptions import WkappaError

__all__ = ["aggregations", "bad", "chosen", "refusal"]

_DIGITS = [f"__wkappa_weight_units_{k}" for k in range(LIMBS)]
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


def aggregations(column: str, name: str, refused: str) -> list[Any]:
    """Aggregations of the weights in ``column``: their floating-point sum named ``name``, the
    number of refused weights named ``refused`` and what :func:`chosen` needs to replace the
    sum by the exact one (the sums of the digits of the weights' units, their largest)."""
    pl = import_optional("polars", "cli")
    value = pl.col(column).cast(pl.Float64)
    kept = pl.when(castable(value)).then(value).otherwise(0.0)
    digits = [
        digit.cast(pl.Int64).sum().alias(part)
        for digit, part in zip(limbs(kept, lambda x: x.floor()), _DIGITS, strict=True)
    ]
    return [
        value.sum().alias(name),
        bad(column).sum().alias(refused),
        *digits,
        value.max().alias(_MAX),
    ]


def chosen(counts: Any, name: str, count: str) -> Any:
    """``counts`` (an eager frame with the columns of :func:`aggregations` and the row counts
    ``count``) with the weight sum ``name`` taken from the exact sum wherever that is as
    accurate."""
    import numpy as np

    pl = import_optional("polars", "cli")
    digit_sums = [counts.get_column(part).to_list() for part in _DIGITS]
    exact = np.array(
        [units_to_float(units_from_limbs(key)) for key in zip(*digit_sums, strict=True)],
        dtype=np.float64,
    )
    rows = counts.get_column(count).to_numpy()
    accurate = units_are_accurate(counts.get_column(_MAX).to_numpy(), exact, rows)
    weight = np.where(accurate, exact, counts.get_column(name).to_numpy())
    return counts.with_columns(pl.Series(name, weight, dtype=pl.Float64)).drop(*_DIGITS, _MAX)
