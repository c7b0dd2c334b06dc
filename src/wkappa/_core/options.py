"""Checks of the keyword options shared by every public function.

Each check names the parameter and the bad value; data checks live in :mod:`wkappa._core.encode`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal

import numpy as np

from ..exceptions import WkappaError

__all__ = [
    "NanPolicy",
    "ZeroDivision",
    "check_nan_policy",
    "check_zero_division",
    "format_value",
]

NanPolicy = Literal["raise", "omit", "propagate"]
ZeroDivision = Literal["warn", "raise"] | float

_NAN_POLICIES = ("raise", "omit", "propagate")


def format_value(value: Any, limit: int = 60) -> str:
    """A short ``repr`` for error messages (numpy scalars shown as the Python values)."""
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_nan_policy(nan_policy: Any) -> NanPolicy:
    """Validate ``nan_policy``: one of 'raise', 'omit', 'propagate'."""
    if not isinstance(nan_policy, str) or nan_policy not in _NAN_POLICIES:
        raise WkappaError(
            "`nan_policy` must be one of 'raise', 'omit' or 'propagate'; "
            f"got {format_value(nan_policy)}."
        )
    return nan_policy  # type: ignore[return-value]


def check_zero_division(zero_division: Any) -> ZeroDivision:
    """Validate ``zero_division``: 'warn', 'raise' or a float in [-1, 1]."""
    if isinstance(zero_division, str):
        if zero_division in ("warn", "raise"):
            return zero_division  # type: ignore[return-value]
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        value = float(zero_division)
        if math.isnan(value) or -1.0 <= value <= 1.0:
            return value
    raise WkappaError(
        "`zero_division` must be 'warn', 'raise' or a float in [-1, 1] (or nan); "
        f"got {format_value(zero_division)}."
    )
