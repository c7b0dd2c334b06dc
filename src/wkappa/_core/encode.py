"""Turn two raters' ratings into category indices 0..K-1 (the README's "Definitions").

Stages: each input becomes a :class:`~wkappa._core.columns.Column` (values, missing mask,
categories; read by :mod:`wkappa._core.columns`), missing pairs are handled by ``nan_policy``, then
both columns are encoded against one ordered list of categories: the ``labels`` given, the
categories of an ordered categorical, or every integer from ``min_rating`` to ``max_rating``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from ..exceptions import WkappaError, WkappaTypeError
from .columns import Column, as_array, object_column, to_column, to_host
from .columns import is_missing_scalar as is_missing_scalar
from .input_checks import (
    check_observed_range,
    check_one_dimensional,
    check_pair_lengths,
    check_weight_values,
    huge_ratings_error,
    not_whole_error,
)
from .label_spelling import Where, check_label_spellings
from .options import NanPolicy, format_value, missing_rating_error
from .statistic import INT64_SAFE

# Column, to_column and is_missing_scalar are re-exported: other modules import them from here.
__all__ = [
    "MAX_TABLE_CELLS",
    "Column",
    "EncodedRatings",
    "category_labels",
    "category_order",
    "check_labels",
    "check_num_classes",
    "check_rating_bounds",
    "check_table_size",
    "empty_labels_error",
    "encode_ratings",
    "missing_rows",
    "shared_categories",
    "to_column",
]

# A K x K table of int64 above this many cells (512 MiB) is refused: it is almost always a
# mistake (ratings 0 and 10**12), and allocating it would hang or die with a MemoryError.
MAX_TABLE_CELLS = 2**26
# Integer ratings are kept exactly in int64 arithmetic below this magnitude.
_MAX_ABS_RATING = INT64_SAFE  # ratings whose squares' sums int64 can hold exactly


@dataclass(frozen=True)
class EncodedRatings:
    """Both raters' ratings as category indices.

    Attributes
    ----------
    true_index, pred_index : ndarray of shape (n,), int64
        Category index of each kept pair, in ``0..K-1``.
    labels : Sequence
        The K categories in order; a ``range`` for integer ratings without ``labels``.
    sample_weight : ndarray of shape (n,), float64, or None
        The weights of the kept pairs.
    """

    true_index: np.ndarray
    pred_index: np.ndarray
    labels: Sequence[Any]
    sample_weight: np.ndarray | None

    @property
    def n_categories(self) -> int:
        return len(self.labels)


# --------------------------------------------------------------------------- numeric checks


def integral_ratings(values: np.ndarray, name: str, where: str = "") -> np.ndarray:
    """Numeric ratings as int64, refusing inf and non-integer floats (never truncating);
    ``where`` says where the ratings are, in a refusal (``at item 2, column 'b'``)."""
    kind = values.dtype.kind
    if kind == "b":
        return values.astype(np.int64)
    if kind in "iu":
        if values.dtype.itemsize == 8 and values.size:
            # Keep every difference of two ratings (and K) inside int64.
            too_large = values.max() >= _MAX_ABS_RATING or (
                kind == "i" and values.min() <= -_MAX_ABS_RATING
            )
            if too_large:
                raise huge_ratings_error(name, where)
        return values.astype(np.int64, copy=False)
    not_whole = ~np.isfinite(values) | (values != np.floor(values))
    if not_whole.any():
        raise not_whole_error(name, values[not_whole][0].item(), where)
    if values.size and float(np.abs(values).max()) >= _MAX_ABS_RATING:
        raise huge_ratings_error(name, where)
    return values.astype(np.int64)


def check_bound(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise WkappaError(f"`{name}` must be an integer; got {format_value(value)}.")
    if isinstance(value, numbers.Integral):
        bound = int(value)
    elif not math.isfinite(float(value)) or float(value) != math.floor(float(value)):
        raise WkappaError(f"`{name}` must be a whole number; got {format_value(value)}.")
    else:
        bound = int(float(value))
    if abs(bound) >= _MAX_ABS_RATING:
        raise WkappaError(f"`{name}` = {bound} is too large to handle exactly (|x| >= 2**62).")
    return bound


def check_rating_bounds(
    min_rating: Any, max_rating: Any, labels: Any = None
) -> tuple[int | None, int | None]:
    """Validate ``min_rating``/``max_rating`` (whole numbers, in order, not with ``labels``)."""
    lo = check_bound(min_rating, "min_rating")
    hi = check_bound(max_rating, "max_rating")
    if lo is not None and hi is not None and lo > hi:
        raise WkappaError(f"`min_rating` ({lo}) must not exceed `max_rating` ({hi}).")
    if labels is not None and (lo is not None or hi is not None):
        raise WkappaError(
            "Give either `labels` or `min_rating`/`max_rating`, not both: labels already fix "
            "the categories."
        )
    return lo, hi


# --------------------------------------------------------------------------- labels


def empty_labels_error() -> WkappaError:
    """The error for ``labels`` without a category (a list, an array or a range)."""
    return WkappaError("`labels` is empty; give at least one category.")


def check_labels(labels: Any) -> np.ndarray:
    """Validate user ``labels``: 1-D, non-empty, unique, no missing values."""
    if isinstance(labels, (str, bytes, dict, set, frozenset)):
        raise WkappaTypeError(
            f"`labels` must be an ordered sequence of categories; got {type(labels).__name__}."
        )
    if isinstance(labels, range) and len(labels) == 0:
        raise empty_labels_error()
    if isinstance(labels, range) or (
        isinstance(labels, (list, tuple)) and labels and all(type(v) is int for v in labels)
    ):
        # Python ints as int64, else uint64, else exact objects (numpy would round them
        # through float64 when some pass 2**63).
        ints = list(labels)
        for dtype in (np.int64, np.uint64, object):
            try:
                exact = np.array(ints, dtype=dtype)
                break
            except OverflowError:
                continue
        if isinstance(labels, range):
            return exact  # non-empty (checked by the caller or below), unique, no missing
        labels = exact
    try:
        array = as_array(list(labels) if isinstance(labels, (range, tuple)) else to_host(labels))
    except (TypeError, ValueError):
        raise WkappaError("`labels` could not be read as a 1-D sequence.") from None
    check_one_dimensional("labels", array.shape)
    if array.size == 0:
        raise empty_labels_error()
    if array.dtype.kind == "O":
        column = object_column(array, "labels")
        if column.missing is not None:
            raise WkappaError("`labels` contains a missing value (None or NaN).")
        array = column.values
    if array.dtype.kind == "f":
        if np.isnan(array).any():
            raise WkappaError("`labels` contains NaN.")
    try:
        unique = np.unique(array)
        n_unique = len(unique)
    except TypeError:  # mixed, unorderable kinds
        n_unique = len(set(array.tolist()))
    if n_unique != len(array):
        raise WkappaError(
            f"`labels` must not repeat a category; got {format_value(array.tolist())}."
        )
    return array


def _as_int64(values: np.ndarray) -> np.ndarray | None:
    """uint64 values as int64 when every one fits, else None (other dtypes unchanged)."""
    if values.dtype != np.uint64:
        return values
    if values.size and int(values.max()) >= 2**63:
        return None
    return values.astype(np.int64)


def _lookup(values: np.ndarray, labels: np.ndarray, name: str, where: str = "") -> np.ndarray:
    """Index of each value in ``labels``; an unknown value is an error."""
    if np.dtype(np.uint64) in (values.dtype, labels.dtype) and values.dtype != labels.dtype:
        # numpy compares uint64 with int64 in float64, which rounds beyond 2**53.
        fitted_values, fitted_labels = _as_int64(values), _as_int64(labels)
        if fitted_values is None or fitted_labels is None:  # exact Python ints
            values, labels = values.astype(object), labels.astype(object)
        else:
            values, labels = fitted_values, fitted_labels
    comparable = (values.dtype.kind in "biuf" and labels.dtype.kind in "biuf") or (
        values.dtype.kind in "US" and labels.dtype.kind in "US"
    )
    if comparable:
        order = np.argsort(labels, kind="stable")
        sorted_labels = labels[order]
        position = np.searchsorted(sorted_labels, values)
        position[position == len(labels)] = 0
        found = sorted_labels[position] == values
        if not found.all():
            raise_unknown_rating(values[~found][0], name, labels, where)
        return order[position].astype(np.int64)
    table = {label: i for i, label in enumerate(labels.tolist())}
    index = np.empty(len(values), dtype=np.int64)
    for k, value in enumerate(values.tolist()):
        if value not in table:
            raise_unknown_rating(value, name, labels, where)
        index[k] = table[value]
    return index


def raise_unknown_rating(
    value: Any, name: str, labels: np.ndarray | range, where: str = ""
) -> NoReturn:
    shown = labels if isinstance(labels, range) else labels.tolist()
    at = f" {where}" if where else ""
    raise WkappaError(
        f"`{name}` contains {format_value(value)}{at}, which is not in `labels` "
        f"{format_value(shown)}. Hint: add it to labels= or fix the data."
    )


def values_of(column: Column) -> np.ndarray:
    """Plain values of a column (categories looked up for categorical codes)."""
    if column.categories is None:
        return column.values
    categories = as_array(column.categories)
    codes = column.values
    if categories.size == 0:
        return np.zeros(len(codes), dtype=np.int64)
    values: np.ndarray = categories[np.clip(codes, 0, len(categories) - 1)]
    return values


def encode_with_labels(
    column: Column, labels: np.ndarray, name: str, where: str = ""
) -> np.ndarray:
    """Index of each rating of ``column`` in ``labels`` (a rating not among them is refused,
    ``where`` saying where it is)."""
    if column.categories is not None:
        categories = as_array(column.categories)
        used = np.unique(column.values)
        mapping = np.full(max(len(categories), 1), -1, dtype=np.int64)
        for code in used.tolist():
            mapping[code] = _lookup(categories[code : code + 1], labels, name, where)[0]
        encoded: np.ndarray = mapping[column.values]
        return encoded
    values = column.values
    if values.dtype.kind == "f":
        values = integral_ratings(values, name, where) if labels.dtype.kind in "iub" else values
    return _lookup(values, labels, name, where)


def _arithmetic_range(labels: range) -> bool:
    """Whether a ``range`` of labels is encoded arithmetically (its ends fit int64 math)."""
    if len(labels) == 0:
        raise empty_labels_error()
    return max(abs(labels.start), abs(labels.stop), abs(labels.step)) < _MAX_ABS_RATING


def _encode_with_range(column: Column, labels: range, name: str) -> np.ndarray:
    """Index of each rating in an integer ``range`` of labels, by arithmetic."""
    values = values_of(column)
    if values.dtype.kind == "O":
        values = object_column(values, name).values
    if values.dtype.kind not in "biuf":
        if values.size:
            raise_unknown_rating(values[0], name, labels)
        return np.zeros(0, dtype=np.int64)
    ratings = integral_ratings(values, name)
    offset, remainder = np.divmod(ratings - labels.start, labels.step)
    bad = (remainder != 0) | (offset < 0) | (offset >= len(labels))
    if bad.any():
        raise_unknown_rating(ratings[bad][0], name, labels)
    index: np.ndarray = offset.astype(np.int64, copy=False)
    return index


def check_table_size(n_categories: int, source: str = "", hint: str = "") -> None:
    """Refuse a K x K table that could not sensibly be allocated: the one K guard.

    ``source`` names where K came from and ``hint`` the fix, when they are not the ratings'
    range, ``min_rating``/``max_rating`` or ``labels``.
    """
    if n_categories * n_categories > MAX_TABLE_CELLS:
        gib = n_categories * n_categories * 8 / 2**30
        source = source or (
            "every integer from the lowest to the highest rating, `min_rating`/`max_rating`, "
            "or `labels`"
        )
        hint = hint or (
            "Hint: pass labels= with the categories you actually use, or use "
            "weights='quadratic' (QWK needs no table)."
        )
        raise WkappaError(
            f"K = {n_categories} categories ({source}) would need a K x K table of "
            f"{gib:,.1f} GiB; at most {math.isqrt(MAX_TABLE_CELLS)} categories fit. {hint}"
        )


def check_num_classes(num_classes: Any, kind: str = "an int") -> int:
    """The ``num_classes`` of the training losses and metrics (torch, JAX, Keras): an int of
    at least 2 whose K x K table fits. ``kind`` says what the int must be (JAX: "a Python int
    (static under jit)")."""
    if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)):
        raise WkappaTypeError(f"`num_classes` must be {kind}; got {format_value(num_classes)}.")
    if num_classes < 2:
        raise WkappaError(f"`num_classes` must be at least 2; got {num_classes}.")
    check_table_size(
        int(num_classes), "`num_classes`", "Hint: group the classes into fewer ordinal grades."
    )
    return int(num_classes)


# --------------------------------------------------------------------------- the whole step


def read_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """``sample_weight`` as float64 weights of the ``n`` pairs (None: every pair weighs 1)."""
    if sample_weight is None:
        return None
    column = to_column(sample_weight, "sample_weight")
    check_pair_lengths(n, n, len(column.values))
    complete = column.missing is None and column.values.dtype.kind in "biuf"
    weight = column.values.astype(np.float64) if complete else column.values
    check_weight_values(
        complete=complete,
        finite=not complete or bool(np.isfinite(weight).all()),
        non_negative=not complete or not (weight < 0).any(),
    )
    return weight


# The refusal of strings or unordered categories by the threshold search (its grades are
# ordered whatever the weights, so no coefficient accepts them unordered).
THRESHOLDS_NEED_ORDER: tuple[str, str | None] = (
    "Thresholds, which cut scores into ordered grades with any weights,",
    None,
)


def encode_ratings(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    min_rating: Any = None,
    max_rating: Any = None,
    sample_weight: Any = None,
    nan_policy: NanPolicy = "raise",
    ordered: bool = True,
    where: Where | None = None,
    propagate: bool = True,
    order_needed_by: tuple[str, str | None] = (
        "Weighted kappa and the confusion table",
        "unweighted kappa",
    ),
) -> EncodedRatings | None:
    """Validate two raters' ratings and encode them as category indices.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Ratings of rater A (rows of the table) and rater B (columns).
    labels : sequence of K categories, optional
        The categories in order. Without it: the categories of an ordered categorical input,
        or every integer from ``min_rating`` to ``max_rating``.
    min_rating, max_rating : int, optional
        Bounds of the integer categories; the observed minimum / maximum when not given.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite weight of each pair.
    nan_policy : {'raise', 'omit', 'propagate'}
        What a missing rating does.
    ordered : bool
        Whether the category order matters (weighted kappa, the confusion table). If False
        (unweighted kappa), strings and unordered categoricals are allowed and sorted.
    where : callable, optional
        Where a label spelled two ways is, in the message (a frame's column).
    propagate : bool
        Whether the caller takes ``nan_policy='propagate'``: the hint of a missing rating
        under 'raise' offers it only then.
    order_needed_by : (str, str or None)
        Who needs the order, and who would accept unordered ratings (None: nobody), in the
        refusal of strings or unordered categories when ``ordered``.

    Returns
    -------
    EncodedRatings or None
        None when a rating is missing and ``nan_policy='propagate'``.
    """
    true_col = to_column(y_true, "y_true")
    pred_col = to_column(y_pred, "y_pred")
    n = len(true_col.values)
    check_pair_lengths(n, len(pred_col.values))
    weight = read_sample_weight(sample_weight, n)
    lo, hi = check_rating_bounds(min_rating, max_rating, labels)
    check_label_spellings([("y_true", true_col), ("y_pred", pred_col)], labels, where=where)

    missing = missing_rows(
        [("y_true", true_col), ("y_pred", pred_col)], nan_policy, propagate=propagate
    )
    if missing is not None:
        if nan_policy == "propagate":
            return None
        keep = ~missing
        true_col = _subset(true_col, keep)
        pred_col = _subset(pred_col, keep)
        weight = None if weight is None else weight[keep]

    if isinstance(labels, range) and _arithmetic_range(labels):
        # Integer labels given as a range are encoded arithmetically: never materialised,
        # so K is checked (where a table needs it) before anything of size K exists.
        true_index = _encode_with_range(true_col, labels, "y_true")
        pred_index = _encode_with_range(pred_col, labels, "y_pred")
        return EncodedRatings(true_index, pred_index, labels, weight)
    if labels is not None:
        label_array = check_labels(labels)
        true_index = encode_with_labels(true_col, label_array, "y_true")
        pred_index = encode_with_labels(pred_col, label_array, "y_pred")
        return EncodedRatings(true_index, pred_index, tuple(label_array.tolist()), weight)

    categorical = shared_categories([true_col, pred_col], ordered, "`y_true` and `y_pred`")
    if categorical is not None:
        label_array = np.asarray(categorical)
        true_index = encode_with_labels(true_col, label_array, "y_true")
        pred_index = encode_with_labels(pred_col, label_array, "y_pred")
        return EncodedRatings(true_index, pred_index, categorical, weight)

    true_values = values_of(true_col)
    pred_values = values_of(pred_col)
    numeric = true_values.dtype.kind in "biuf" and pred_values.dtype.kind in "biuf"
    if numeric:
        return _encode_integer_range(true_values, pred_values, lo, hi, weight)
    label_array = category_labels(
        [("`y_true`", true_values), ("`y_pred`", pred_values)],
        lo,
        hi,
        order_needed_by if ordered else None,
    )
    if label_array.size == 0:
        label_array = np.zeros(0, dtype=np.int64)
    true_index = _lookup(true_values, label_array, "y_true")
    pred_index = _lookup(pred_values, label_array, "y_pred")
    return EncodedRatings(true_index, pred_index, tuple(label_array.tolist()), weight)


def category_labels(
    columns: Sequence[tuple[str, np.ndarray]],
    lo: int | None,
    hi: int | None,
    order_needed_by: tuple[str, str | None] | None,
) -> np.ndarray:
    """The labels of ratings that are not all numbers: the sorted distinct values of the
    ``(name, values)`` columns (the rule for one, two or several raters).

    Refuses ``min_rating``/``max_rating`` (they bound integers), a coefficient that needs
    ordered categories (``order_needed_by``: its name, and the unordered one that accepts the
    ratings, or None), columns of different kinds (no rating of one could equal a rating of the
    other) and values that cannot be sorted.
    """
    if lo is not None or hi is not None:
        raise WkappaError(
            "`min_rating`/`max_rating` apply to integer ratings only; the ratings are strings "
            "or categories. Hint: pass labels=[...] listing the categories in order."
        )
    if order_needed_by is not None:
        weighted, unweighted = order_needed_by
        accepts = f"; {unweighted} accepts them as they are" if unweighted else ""
        raise WkappaError(
            f"{weighted} need ordered categories, but the ratings are strings or unordered "
            "categories. Hint: pass labels=[...] listing the categories in order (or use an "
            f"ordered pandas Categorical / polars Enum){accepts}."
        )
    kinds = [(name, _kind_name(values)) for name, values in columns if values.size]
    for name, kind in kinds[1:]:
        if kind != kinds[0][1]:
            raise WkappaError(
                f"The ratings mix kinds: {kinds[0][0]} holds {kinds[0][1]} but {name} holds "
                f"{kind}, so no rating of one can equal a rating of the other (the string '1' "
                "is not the number 1). Hint: convert the columns to one kind."
            )
    try:
        labels: np.ndarray = np.unique(np.concatenate([values for _, values in columns]))
    except TypeError:
        raise WkappaError(
            "The ratings mix kinds (numbers and strings) that cannot be sorted. "
            "Hint: pass labels=[...]."
        ) from None
    return labels


def _kind_name(values: np.ndarray) -> str:
    kind = values.dtype.kind
    if kind in "US":
        return "strings"
    if kind in "biuf":
        return "numbers or booleans"
    return "mixed values"


def missing_rows(
    columns: Sequence[tuple[str, Column]],
    nan_policy: NanPolicy,
    *,
    omit: str = "",
    propagate: bool = True,
) -> np.ndarray | None:
    """The rule of a missing rating for columns read side by side (two raters, or a truth
    and two predictions): the rows where any ``(name, column)`` misses a rating, None when
    none does; under ``nan_policy='raise'`` the error naming the first row's first missing
    column (``omit`` and ``propagate`` word its hint, as :func:`missing_rating_error`).
    The caller drops the rows ('omit') or returns nan ('propagate')."""
    masks = [(name, column.missing) for name, column in columns if column.missing is not None]
    if not masks:
        return None
    missing: np.ndarray = np.logical_or.reduce([mask for _, mask in masks])
    if not missing.any():
        return None
    if nan_policy == "raise":
        first = int(np.flatnonzero(missing)[0])
        which = next(name for name, mask in masks if mask[first])
        raise missing_rating_error(which, first, omit, propagate=propagate)
    return missing


def _subset(column: Column, keep: np.ndarray) -> Column:
    return Column(column.values[keep], None, column.categories, column.ordered)


def shared_categories(
    columns: Sequence[Column], ordered: bool, subject: str, names: Sequence[str] | None = None
) -> tuple[Any, ...] | None:
    """The label order given by ordered categorical inputs (pandas ordered Categorical,
    polars Enum, Arrow ordered dictionary), or None: the rule of every entry point.

    A categorical's own categories count, in their order, unused ones included. Unordered
    categoricals give none (their values are used). When the order does not matter
    (``ordered=False``), ordered categoricals that disagree fall back to the sorted values;
    when it matters they are an error naming ``subject`` (for example "`y_true` and `y_pred`")
    and, with ``names`` (one per column), the two columns that disagree.
    """
    found = [
        (c.categories, g) for g, c in enumerate(columns) if c.categories is not None and c.ordered
    ]
    which = None if names is None else [names[g] for _, g in found]
    return category_order([order for order, _ in found], ordered, subject, which)


def category_order(
    orders: Sequence[tuple[Any, ...]],
    ordered: bool,
    subject: str,
    names: Sequence[str] | None = None,
) -> tuple[Any, ...] | None:
    """The rule of :func:`shared_categories` on the category orders themselves (for inputs
    whose dtypes are known before their values are read, such as a data frame's schema);
    ``names``, one per order, name the two that disagree."""
    if not orders:
        return None
    other = next((g for g, c in enumerate(orders) if c != orders[0]), None)
    if other is not None:
        if not ordered:
            return None
        first, second = format_value(orders[0]), format_value(orders[other])
        if names is not None:
            first, second = f"{names[0]}: {first}", f"{names[other]}: {second}"
        raise WkappaError(
            f"{subject} are categoricals with different categories ({first} vs {second}). "
            "Hint: pass labels=[...] to fix one order."
        )
    return orders[0]


def _encode_integer_range(
    true_values: np.ndarray,
    pred_values: np.ndarray,
    lo: int | None,
    hi: int | None,
    weight: np.ndarray | None,
) -> EncodedRatings:
    """Every integer from min_rating to max_rating is a category (the Kaggle definition)."""
    a = integral_ratings(true_values, "y_true")
    b = integral_ratings(pred_values, "y_pred")
    if a.size == 0:  # every pair omitted
        first = 0 if lo is None else lo
        last = first if hi is None else hi
        empty = np.zeros(0, dtype=np.int64)
        return EncodedRatings(empty, empty, range(first, last + 1), weight)
    extremes = [(name, int(x.min()), int(x.max())) for name, x in (("y_true", a), ("y_pred", b))]
    check_observed_range(extremes, lo, hi)
    first = min(low for _, low, _ in extremes) if lo is None else lo
    last = max(high for _, _, high in extremes) if hi is None else hi
    return EncodedRatings(a - first, b - first, range(first, last + 1), weight)
