"""Read numeric (continuous or many-level) ratings: targets x raters, optionally x features.

The intraclass correlations and the concordance correlation work on the rating values
themselves, not on categories, so this reader turns every supported input into one float64
array with NaN for a missing rating:

* numpy arrays of integers, booleans or floats; numpy masked arrays (masked = missing);
* nested Python lists (``None`` and NaN are missing);
* pandas and polars DataFrames (one column per rater, nullable types, nulls missing), each
  column read by :func:`wkappa._core.columns.to_column`, the reader every rating column
  goes through;
* torch / JAX / CuPy arrays (copied to host memory).

Categorical columns, strings and other non-numbers are refused with a hint; ``inf`` is
refused (it has no finite variance). Integers beyond 2**53 are rounded to the nearest float64,
as every float computation on them would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import WkappaError, WkappaTypeError
from .columns import Column, is_device_array, to_column, to_host
from .input_checks import check_one_dimensional
from .options import NanPolicy, format_value, missing_rating_error
from .rater_matrix import frame_columns, rater_names, rows_array

__all__ = ["NumericRatings", "read_numeric_pair", "read_numeric_ratings"]


@dataclass(frozen=True)
class NumericRatings:
    """Numeric ratings as float64.

    Attributes
    ----------
    values : ndarray of shape (n_targets, n_raters) or (n_targets, n_raters, n_features)
        The ratings; NaN where one is missing (only when ``n_missing > 0``).
    n_missing : int
        Number of missing ratings.
    rater_names : tuple of str or None
        Column names of a DataFrame input.
    """

    values: np.ndarray
    n_missing: int
    rater_names: tuple[str, ...] | None = None


def _column_floats(column: Column, name: str) -> np.ndarray:
    """A rating column as float64 with NaN for missing; strings and categories refused."""
    if column.categories is not None:
        raise WkappaTypeError(
            f"`{name}` is categorical; the ICC and the concordance correlation need numeric "
            "ratings. Hint: use the category codes (e.g. .cat.codes) if they are the scores, "
            "or wkappa.agreement for categorical ratings."
        )
    values = column.values
    if values.dtype.kind not in "biuf":
        if values.dtype.kind == "O":
            try:
                values = values.astype(np.float64)
            except (TypeError, ValueError):
                raise WkappaTypeError(_not_numeric(name, values)) from None
        else:
            raise WkappaTypeError(_not_numeric(name, values))
    out: np.ndarray = np.array(values, dtype=np.float64)
    if column.missing is not None:
        out[column.missing] = np.nan
    return out


def _not_numeric(name: str, values: np.ndarray) -> str:
    sample = next((v for v in values.ravel() if isinstance(v, (str, bytes))), values.ravel()[0])
    return (
        f"`{name}` must hold numbers; got {format_value(sample)} (dtype {values.dtype}). "
        "Hint: convert the scores to numbers, or use wkappa.agreement for categories."
    )


def _array_floats(array: np.ndarray, name: str) -> np.ndarray:
    if isinstance(array, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(array)
        data = _array_floats(np.asarray(array.data), name)
        if mask.any():
            data = data.copy()
            data[mask] = np.nan
        return data
    kind = array.dtype.kind
    if kind in "biuf":
        return np.asarray(array, dtype=np.float64)
    if kind == "O":
        flat = array.ravel()
        out = np.empty(flat.shape, dtype=np.float64)
        for index, value in enumerate(flat):
            if value is None:
                out[index] = np.nan
                continue
            if isinstance(value, (str, bytes)) or not _is_number(value):
                raise WkappaTypeError(
                    f"`{name}` must hold numbers (None or NaN for a missing rating); got "
                    f"{format_value(value)}. Hint: convert the scores to numbers, or use "
                    "wkappa.agreement for categories."
                )
            out[index] = float(value)
        return out.reshape(array.shape)
    if kind in "US":
        raise WkappaTypeError(_not_numeric(name, array))
    raise WkappaTypeError(f"`{name}` must hold numbers; got dtype {array.dtype}.")


def _is_number(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, (complex, np.complexfloating))


def _as_floats(
    ratings: Any, name: str, function: str | None
) -> tuple[np.ndarray, tuple[str, ...] | None]:
    frame = frame_columns(ratings, name, function)
    if frame is not None:
        if not frame:
            raise WkappaError(f"`{name}` has no rater columns.")
        columns = [
            _column_floats(to_column(values, f"{name}[{col!r}]"), f"{name}[{col!r}]")
            for col, values in frame
        ]
        return np.column_stack(columns), tuple(col for col, _ in frame)
    if is_device_array(ratings):
        ratings = to_host(ratings)
    if isinstance(ratings, np.ndarray):
        return _array_floats(ratings, name), None
    array = rows_array(ratings, name)
    if array.dtype.kind in "US" and isinstance(ratings, list):
        array = np.asarray(ratings, dtype=object)
    return _array_floats(array, name), None


def read_numeric_ratings(
    ratings: Any,
    *,
    nan_policy: NanPolicy,
    name: str = "ratings",
    allow_features: bool = True,
    min_raters: int = 2,
    min_targets: int = 2,
    omit: str | None = "uses every rating there is (REML variance components)",
    function: str | None = "icc",
    column_names: tuple[str, ...] | None = None,
) -> NumericRatings:
    """Read targets x raters (x features) numeric ratings into float64.

    Parameters
    ----------
    ratings : array-like or DataFrame
        Rows are targets, columns raters; a third axis (features) when ``allow_features``.
    nan_policy : {'raise', 'omit', 'propagate'}
        'raise' refuses a missing rating; the others keep it as NaN for the caller.
    name : str
        The parameter name used in messages.
    allow_features : bool
        Accept a 3-D (targets, raters, features) array.
    min_raters, min_targets : int
        Fewest rater columns and targets accepted.
    omit : str or None
        What the caller's ``nan_policy='omit'`` does, for the message of a missing rating
        under 'raise'; None when the caller has no ``nan_policy`` (complete rows only).
    function : str or None
        The ``wkappa.frames`` function that reads a frame in the long layout (item, rater
        and rating columns), which is refused here; None: a pivot is suggested.
    column_names : tuple of str or None
        The raters' column names when ``ratings`` is an array read from a frame (a frame
        names its own columns).

    Returns
    -------
    NumericRatings
    """
    values, names = _as_floats(ratings, name, function)
    names = names if column_names is None else column_names
    dims = (2, 3) if allow_features else (2,)
    if values.ndim not in dims:
        shape = (
            "(items, raters) or (items, raters, features)"
            if allow_features
            else ("(items, raters)")
        )
        raise WkappaError(
            f"`{name}` must have shape {shape}; got an array of shape {values.shape}. "
            "Hint: rows are items (subjects), columns raters."
        )
    n, k = values.shape[:2]
    if n < min_targets:
        raise WkappaError(
            f"`{name}`: {n} item{'' if n == 1 else 's'} (rows); at least {min_targets} are "
            "needed. "
            "Hint: rows are items and columns raters; transpose if it is the other way round."
        )
    if k < min_raters:
        raise WkappaError(
            f"`{name}` has {k} rater column(s); at least {min_raters} are needed. "
            "Hint: rows are items and columns raters; transpose if it is the other way round."
        )
    if np.isfinite(values).all():  # one pass in the common case
        return NumericRatings(np.ascontiguousarray(values), 0, names)
    if np.isinf(values).any():
        # Placed as a missing rating is: its item and rater (and feature, on a third axis).
        where = [int(i) for i in np.argwhere(np.isinf(values))[0]]
        feature = f" (feature {where[2]})" if len(where) == 3 else ""
        raise WkappaError(
            f"`{name}` has an infinite rating at item {where[0]}, "
            f"{rater_names(names, k)[where[1]]}{feature}. "
            "Hint: ratings must be finite numbers (NaN or None marks a missing one)."
        )
    missing = np.isnan(values)
    n_missing = int(missing.sum())
    if n_missing and nan_policy == "raise":
        target, rater = (int(i) for i in np.argwhere(missing)[0][:2])
        rater_name = rater_names(names, k)[rater]
        raise missing_rating_error(name, f"item {target}, {rater_name}", omit)
    return NumericRatings(np.ascontiguousarray(values), n_missing, names)


def read_numeric_pair(x: Any, y: Any, *, nan_policy: NanPolicy) -> tuple[np.ndarray, np.ndarray]:
    """Two equally long numeric columns as float64 (pairs with a missing value dropped under
    'omit'; under 'propagate' they stay NaN)."""
    columns = []
    for value, label in ((x, "x"), (y, "y")):
        if isinstance(value, np.ndarray) and not isinstance(value, np.ma.MaskedArray):
            check_one_dimensional(label, value.shape)
            columns.append(_array_floats(value, label))
        else:
            columns.append(_column_floats(to_column(value, label), label))
    first, second = columns
    if first.shape != second.shape:
        raise WkappaError(
            f"`x` and `y` must have the same length; got {first.size} and {second.size}."
        )
    if np.isinf(first).any() or np.isinf(second).any():
        raise WkappaError("`x` and `y` must be finite (NaN or None marks a missing value).")
    missing = np.isnan(first) | np.isnan(second)
    if missing.any():
        if nan_policy == "raise":
            # Names both parameters: "`x` or `y` has a missing rating ...".
            raise missing_rating_error("x` or `y", int(np.argmax(missing)))
        if nan_policy == "omit":
            first, second = first[~missing], second[~missing]
    return first, second
