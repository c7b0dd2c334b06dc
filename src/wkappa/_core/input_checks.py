"""The checks every reader of ratings makes, in one place.

NumPy inputs, device arrays (the array API route), Dask arrays, JAX and data frames each find
the facts their own way (on the host, on a device, per block, in a query engine); the rules
and the words of what they refuse are these.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterator, Sequence
from typing import Any

import numpy as np

from ..exceptions import WkappaError, WkappaTypeError
from .loss_rules import probability_tolerance

__all__ = [
    "THRESHOLD_HINT",
    "check_observed_range",
    "check_one_dimensional",
    "check_pair_lengths",
    "check_weight_values",
    "huge_ratings_error",
    "not_whole_error",
    "probability_rows_error",
    "refuse_iterator",
    "unsupported_dtype_error",
    "wide_integers_as_floats",
]


def refuse_iterator(value: Any, name: str) -> None:
    """Refuse a generator or another one-pass iterator given as data (numpy would read it
    as one scalar object): the parameter ``name``, what it is and the fix."""
    if isinstance(value, Iterator):
        if isinstance(value, Generator):
            kind = "a generator"
        else:
            kind = f"an iterator ({type(value).__name__})"
        raise WkappaTypeError(
            f"`{name}` is {kind}, which can be read only once and has no length. "
            "Hint: pass a list or an array instead (wrap it in list(...))."
        )


THRESHOLD_HINT = (
    "Hint: turn scores into grades with wkappa.apply_thresholds / wkappa.optimize_thresholds, "
    "or round them (np.rint) if that is what you mean."
)


def check_pair_lengths(
    n_true: int, n_pred: int, n_weight: int | None = None, *, empty_ok: bool = False
) -> None:
    """``y_true``, ``y_pred`` (and ``sample_weight``) of one length, not empty unless
    ``empty_ok``."""
    if n_true != n_pred:
        raise WkappaError(
            f"`y_true` and `y_pred` must have the same length; got {n_true} and {n_pred}."
        )
    if n_true == 0 and not empty_ok:
        raise WkappaError("`y_true` and `y_pred` are empty; there is nothing to score.")
    if n_weight is not None and n_weight != n_true:
        raise WkappaError(
            f"`sample_weight` has length {n_weight} but there are {n_true} ratings; they "
            "must match."
        )


# The parameters that hold one class per row (ratings), where a column per class (one-hot
# rows, class scores) is turned into classes by the argmax; and those that hold one real
# score per row (thresholds cut it), where class probabilities become the expected class.
_CLASS_NAMES = ("y_true", "y_pred", "y_pred_a", "y_pred_b", "y")
_SCORE_NAMES = ("y_score",)


def check_one_dimensional(name: str, shape: Sequence[int]) -> None:
    """``name`` is one column of values (a column vector is refused, with the fix; ratings
    or scores with a column per class, with theirs)."""
    if len(shape) != 1:
        hint = " Hint: use .ravel() for a column vector." if len(shape) == 2 else ""
        if len(shape) == 2 and shape[1] > 1 and name in _CLASS_NAMES + _SCORE_NAMES:
            hint = _class_columns_hint(name, shape[1]) + (
                " (or .ravel() for one row of values)." if shape[0] == 1 else "."
            )
        raise WkappaError(f"`{name}` must be 1-D; got shape {tuple(shape)}.{hint}")


def _class_columns_hint(name: str, k: int) -> str:
    """The fix for (n, k) values of ``name`` read as a column per class, which .ravel()
    would mix up: the class at each row's largest value, or (for scores) the expected class."""
    if name in _SCORE_NAMES:
        return (
            f" Hint: `{name}` holds one score per row; for class probabilities (a column per "
            f"class) pass the expected class, proba @ class_values (proba @ np.arange({k}) "
            f"for classes 0..{k - 1}), or the most likely class, proba.argmax(axis=1)"
        )
    return (
        " Hint: a column per class (one-hot rows or class scores) holds each row's "
        f"class at its largest value: pass {name}.argmax(axis=1)"
    )


def unsupported_dtype_error(name: str, dtype: object, noun: str = "ratings") -> WkappaTypeError:
    """The error for an array of ``name`` whose dtype holds no ratings (complex, dates,
    bytes records); ``noun`` is what the parameter holds."""
    return WkappaTypeError(
        f"`{name}` must hold integer, boolean, float or string {noun}; got dtype {dtype}."
    )


def check_weight_values(*, complete: bool, finite: bool, non_negative: bool) -> None:
    """Sample weights are numbers without missing values, finite and non-negative."""
    if not (complete and finite):  # one message: NaN may be read as missing or as a number
        raise WkappaError(
            "`sample_weight` must be numeric with no missing values: finite numbers, no NaN, "
            "inf or null."
        )
    if not non_negative:
        raise WkappaError("`sample_weight` must be non-negative; it contains negative weights.")


def not_whole_error(name: str, bad: float, where: str = "") -> WkappaError:
    """The error for the rating ``bad`` of ``name`` that is not a whole number (infinite,
    NaN where missing ratings are not meant, or fractional): never truncated. ``where``
    says where it is (``at item 2, column 'b'``; empty: not said)."""
    at = f" {where}" if where else ""
    if not math.isfinite(bad):
        return WkappaError(f"`{name}` contains {bad!r}{at}; ratings must be finite.")
    return WkappaError(
        f"`{name}` contains the non-integer rating {bad!r}{at}; ratings must be whole numbers "
        f"or labels. {THRESHOLD_HINT}"
    )


def huge_ratings_error(name: str, where: str = "") -> WkappaError:
    """The error for integer ratings of ``name`` beyond 2**62 in size: the differences of two
    ratings and the sums of their squares would leave int64. ``where`` as for
    :func:`not_whole_error`."""
    at = f" {where}" if where else ""
    return WkappaError(f"`{name}` has ratings too large to handle exactly (|x| >= 2**62){at}.")


def check_observed_range(
    extremes: Sequence[tuple[str, int, int]], lo: int | None, hi: int | None, where: str = ""
) -> None:
    """Refuse a rating below ``min_rating`` (``lo``) or above ``max_rating`` (``hi``);
    ``extremes`` holds each input's name with its smallest and largest rating, ``where``
    where the rating is (as for :func:`not_whole_error`)."""
    at = f" {where}" if where else ""
    for name, low, _ in extremes:
        if lo is not None and low < lo:
            raise WkappaError(f"`{name}` contains the rating {low}{at}, below `min_rating` = {lo}.")
    for name, _, high in extremes:
        if hi is not None and high > hi:
            raise WkappaError(
                f"`{name}` contains the rating {high}{at}, above `max_rating` = {hi}."
            )


def wide_integers_as_floats(values: np.ndarray) -> np.ndarray:
    """Integers beyond int32 as float64, for frameworks that narrow int64 to int32 (JAX
    without ``jax_enable_x64``, Keras on JAX), where 2**32 would wrap to class 0; as floats
    they stay out of range and are refused as such."""
    if values.dtype.kind in "iu" and values.size:
        small = np.iinfo(np.int32)
        if values.min() < small.min or values.max() > small.max:
            return values.astype(np.float64)
    return values


def probability_rows_error(
    probs: np.ndarray, name: str, fix: str, first_row: int = 0
) -> WkappaError | None:
    """The error for (N, K) class probabilities of a loss that are not (or None): a row with
    a negative value, or whose sum is off 1 by more than the dtype's rounding, names its row
    (counted from ``first_row``) and ``fix`` (how to pass raw scores). A row of zeros
    (padding) and a row with NaN (which gives a NaN loss, as documented) pass."""
    values = np.asarray(probs, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] == 0:
        return None
    dtype = np.asarray(probs).dtype
    eps = float(np.finfo(dtype).eps) if dtype.kind == "f" else 2.0**-7  # bfloat16 (ml_dtypes)
    tolerance = probability_tolerance(values.shape[1], eps)
    with np.errstate(invalid="ignore"):
        sums = values.sum(axis=1)
        bad = (values < 0).any(axis=1) | ((np.abs(sums - 1) > tolerance) & (sums != 0))
    if not bad.any():
        return None
    row = int(np.flatnonzero(bad)[0])
    return WkappaError(
        f"`{name}` must hold class probabilities (non-negative rows summing to 1); row "
        f"{first_row + row} holds {_shown_row(values[row])}. Hint: {fix}."
    )


def _shown_row(row: np.ndarray) -> str:
    shown = ", ".join(f"{v:.4g}" for v in row[:8])
    return f"[{shown}{', ...' if row.size > 8 else ''}]"
