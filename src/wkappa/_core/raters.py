"""Several raters: read an items x raters matrix, encode it, count it.

The ratings become category codes ``0..K-1`` (``-1`` where a rating is missing) by the same
rules as two raters' ratings (:mod:`wkappa._core.encode`): every integer from ``min_rating`` to
``max_rating`` by default, ``labels=`` for an explicit order, strings only with ``labels=``
when the order matters, non-integer numbers refused.

Every coefficient but Conger's depends on the data only through the items x categories counts
``r_ik`` (how many raters put item i in category k), and only through the *distinct* rows of
that matrix with their multiplicities: a few hundred patterns for 5 raters and 5 categories,
however many items. Conger's kappa also needs to know which rater gave which rating; its
compact state is the distinct rows of the code matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..exceptions import WkappaError
from .agreement import rows_to_counts
from .columns import Column
from .dependencies import is_dataframe
from .encode import (
    category_labels,
    check_labels,
    check_rating_bounds,
    check_table_size,
    encode_with_labels,
    integral_ratings,
    shared_categories,
    values_of,
)
from .fused import parallel_section, use_parallel
from .input_checks import check_observed_range
from .label_spelling import check_label_spellings
from .options import NanPolicy, format_value, missing_rating_error
from .rater_matrix import RaterFrame, rater_names, read_rater_matrix, value_categories
from .refused_ratings import array_parts, column_parts, refuse_first

__all__ = [
    "CountPatterns",
    "CountedRows",
    "RatingCodes",
    "aggregate_patterns",
    "count_patterns",
    "distinct_rows",
    "encode_rating_matrix",
    "fast_rows",
    "frame_array",
    "no_ratings_error",
    "patterns_from_counts",
    "rating_matrix_missing_error",
    "value_labels",
]

# Pattern codes sum_k r_ik (R+1)^k are histogrammed densely up to this many distinct codes.
_DENSE_CODES = 1 << 20


@dataclass(frozen=True)
class RatingCodes:
    """The ratings as category codes.

    Attributes
    ----------
    codes : ndarray of shape (n, R), int64
        Category index of each rating, ``-1`` where it is missing.
    labels : Sequence
        The K categories in order (a ``range`` for integer ratings without ``labels``).
    """

    codes: np.ndarray
    labels: Sequence[Any]


class CountedRows(NamedTuple):
    """Several raters' ratings counted: the two-rater ``Counted``'s counterpart.

    Attributes
    ----------
    rows : ndarray of shape (m, R), int64
        The distinct rows of category codes (``-1`` = missing), rows without a rating dropped.
    multiplicity : ndarray of shape (m,), int64
        How many items have each row.
    labels : Sequence
        The K categories in order.
    n_ratings : int
        Ratings counted (missing ones not).
    """

    rows: np.ndarray
    multiplicity: np.ndarray
    labels: Sequence[Any]
    n_ratings: int


@dataclass(frozen=True)
class CountPatterns:
    """The distinct items x categories count rows with their multiplicities.

    Attributes
    ----------
    patterns : ndarray of shape (m, K), int64
        Distinct rows ``r_i.`` (raters per category), each with at least one rating.
    multiplicity : ndarray of shape (m,), int64
        How many items have each pattern.
    rater_counts : ndarray of shape (R, K), int64, or None
        How many items each rater put in each category (None for counts input).
    """

    patterns: np.ndarray
    multiplicity: np.ndarray
    rater_counts: np.ndarray | None


def _at_item(rater: str, value: Any, item: int) -> str:
    return f"for item {item}, {rater}"


def no_ratings_error(name: str) -> WkappaError:
    """The error for an items x raters input ``name`` whose every entry is missing."""
    return WkappaError(f"`{name}` has no ratings at all: every entry is missing.")


def _check_shape(n: int, n_raters: int, name: str) -> None:
    if n == 0:
        raise WkappaError(f"`{name}` has no items (rows); there is nothing to score.")
    if n_raters < 2:
        raise WkappaError(
            f"`{name}` has {n_raters} rater column(s); agreement needs at least two raters. "
            "Hint: rows are items and columns raters; transpose the matrix if it is the other "
            "way round."
        )


def rating_matrix_missing_error(name: str, where: str, *, propagate: bool = True) -> WkappaError:
    """The error for a missing rating of several raters under ``nan_policy='raise'``;
    ``where`` is where it is ("item 1, column 'bob'"); ``propagate``: whether the caller
    takes ``nan_policy='propagate'``."""
    return missing_rating_error(
        name,
        where,
        "(the default for several raters) uses the ratings there are, as Gwet's irrCAC does",
        propagate=propagate,
    )


def encode_rating_matrix(
    ratings: Any,
    *,
    labels: Any = None,
    min_rating: Any = None,
    max_rating: Any = None,
    ordered: bool = True,
    nan_policy: NanPolicy = "omit",
    name: str = "ratings",
    propagate: bool = True,
) -> RatingCodes | None:
    """Validate an items x raters matrix and encode it as category codes.

    Parameters
    ----------
    ratings : array-like of shape (n, R) or DataFrame
        Rows are items, columns raters; missing ratings are NaN / None / null.
    labels, min_rating, max_rating
        The categories, as for two raters (:func:`wkappa._core.encode.encode_ratings`).
    ordered : bool
        Whether the category order matters (weighted coefficients).
    nan_policy : {'omit', 'raise', 'propagate'}
        'omit' keeps missing ratings as ``-1`` codes; 'raise' refuses them; 'propagate'
        returns None when there is one.
    name : str
        The parameter, in messages.
    propagate : bool
        Whether the caller takes ``nan_policy='propagate'`` (the hint of a missing rating
        under 'raise' offers it).

    Returns
    -------
    RatingCodes or None
    """

    def missing_error(item: int, rater: str) -> WkappaError:
        return rating_matrix_missing_error(name, f"item {item}, {rater}", propagate=propagate)

    lo, hi = check_rating_bounds(min_rating, max_rating, labels)
    if isinstance(ratings, RaterFrame) and ratings.parameter is not None:
        name = ratings.parameter  # wkappa.frames' `df`
    read = read_rater_matrix(ratings, name)
    n, n_raters = read.shape
    _check_shape(n, n_raters, name)
    label_array = None if labels is None else check_labels(labels)

    if isinstance(read, np.ndarray):
        array = read
        names = rater_names(None, n_raters)
        missing = np.isnan(array) if array.dtype.kind == "f" else None
        if missing is not None and not missing.any():
            missing = None
        if missing is not None:
            if nan_policy == "raise":
                item, rater = np.argwhere(missing)[0]
                raise missing_error(int(item), names[rater])
            if nan_policy == "propagate":
                return None
        present = array if missing is None else array[~missing]
        try:
            if label_array is not None:
                codes = np.full((n, n_raters), -1, dtype=np.int64)
                found = encode_with_labels(Column(present.ravel(), None), label_array, name)
                if missing is None:
                    codes[...] = found.reshape(n, n_raters)
                else:
                    codes[~missing] = found
                return RatingCodes(codes, tuple(label_array.tolist()))
            values = integral_ratings(present.ravel(), name)
            if values.size:
                check_observed_range([(name, int(values.min()), int(values.max()))], lo, hi)
        except WkappaError:
            refuse_first(array_parts(array, missing), label_array, lo, hi, name)
            raise
        if values.size == 0:
            raise no_ratings_error(name)
        first = int(values.min()) if lo is None else lo
        last = int(values.max()) if hi is None else hi
        check_table_size(last - first + 1)
        codes = np.full((n, n_raters), -1, dtype=np.int64)
        if missing is None:
            codes[...] = (values - first).reshape(n, n_raters)
        else:
            codes[~missing] = values - first
        return RatingCodes(codes, range(first, last + 1))

    columns, names = read.columns, read.names
    check_label_spellings(list(zip(names, columns, strict=True)), labels, where=_at_item)
    for rater, column in zip(names, columns, strict=True):
        if column.missing is not None and column.missing.any():
            if nan_policy == "raise":
                raise missing_error(int(np.flatnonzero(column.missing)[0]), rater)
            if nan_policy == "propagate":
                return None
    codes = np.full((n, n_raters), -1, dtype=np.int64)
    kept = [
        Column(
            c.values if c.missing is None else c.values[~c.missing], None, c.categories, c.ordered
        )
        for c in columns
    ]
    if all(len(c.values) == 0 for c in kept):
        raise no_ratings_error(name)
    if label_array is None:
        label_array = _shared_labels(kept, names, ordered, lo, hi)
    try:
        if label_array is not None:
            for g, (column, part) in enumerate(zip(columns, kept, strict=True)):
                found = encode_with_labels(part, label_array, name)
                if column.missing is None:
                    codes[:, g] = found
                else:
                    codes[~column.missing, g] = found
            return RatingCodes(codes, tuple(label_array.tolist()))
        values_list = [integral_ratings(values_of(part), name) for part in kept]
        present = [v for v in values_list if v.size]
        low = min(int(v.min()) for v in present)
        high = max(int(v.max()) for v in present)
        check_observed_range([(name, low, high)], lo, hi)
    except WkappaError:
        refuse_first(column_parts(columns, read), label_array, lo, hi, name)
        raise
    first = low if lo is None else lo
    last = high if hi is None else hi
    check_table_size(last - first + 1)
    for g, (column, values) in enumerate(zip(columns, values_list, strict=True)):
        if column.missing is None:
            codes[:, g] = values - first
        else:
            codes[~column.missing, g] = values - first
    return RatingCodes(codes, range(first, last + 1))


def _shared_labels(
    columns: list[Column], names: Sequence[str], ordered: bool, lo: int | None, hi: int | None
) -> np.ndarray | None:
    """The labels implied by categorical or string columns; None for numeric ratings."""
    categories = shared_categories(columns, ordered, "The rater columns", names)
    if categories is not None:
        return np.asarray(categories)
    values = [values_of(c) for c in columns]
    if all(v.dtype.kind in "biuf" for v in values):
        return None
    return category_labels(
        list(zip(names, values, strict=True)),
        lo,
        hi,
        ("Weighted coefficients", "an unweighted coefficient") if ordered else None,
    )


# --------------------------------------------------------------------------- counting


def _rater_counts(codes: np.ndarray, n_categories: int) -> np.ndarray:
    n_raters = codes.shape[1]
    out = np.zeros((n_raters, n_categories), dtype=np.int64)
    for g in range(n_raters):
        column = codes[:, g]
        out[g] = np.bincount(column[column >= 0], minlength=n_categories)
    return out


def patterns_from_counts(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct non-empty rows of an (n, K) count matrix and their multiplicities."""
    counts = counts[counts.sum(axis=1) > 0]
    n, k = counts.shape
    if n == 0:
        return np.zeros((0, k), dtype=np.int64), np.zeros(0, dtype=np.int64)
    top = int(counts.max()) + 1
    if k * np.log2(top) < 62:
        base = top ** np.arange(k, dtype=np.int64)
        code = counts.astype(np.int64) @ base
        _unique, first, multiplicity = np.unique(code, return_index=True, return_counts=True)
        return counts[first].astype(np.int64), multiplicity.astype(np.int64)
    patterns, multiplicity = np.unique(counts, axis=0, return_counts=True)
    return patterns.astype(np.int64), multiplicity.astype(np.int64)


def aggregate_patterns(
    counts: np.ndarray, multiplicity: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Merge equal rows of an (m, K) count matrix, adding their multiplicities; rows of zeros
    are dropped."""
    keep = counts.sum(axis=1) > 0
    counts, multiplicity = counts[keep], multiplicity[keep]
    if counts.shape[0] == 0:
        return counts.astype(np.int64), multiplicity.astype(np.int64)
    k = counts.shape[1]
    top = int(counts.max()) + 1
    if k * np.log2(top) < 62:
        code = counts.astype(np.int64) @ (top ** np.arange(k, dtype=np.int64))
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        unique = counts[first]
    else:
        unique, inverse = np.unique(counts, axis=0, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=multiplicity, minlength=len(unique))
    return unique.astype(np.int64), np.rint(summed).astype(np.int64)


def count_patterns(codes: np.ndarray, n_categories: int) -> CountPatterns:
    """Count a code matrix into distinct patterns and rater x category counts (numpy route)."""
    patterns, multiplicity = patterns_from_counts(rows_to_counts(codes, n_categories))
    return CountPatterns(patterns, multiplicity, _rater_counts(codes, n_categories))


def distinct_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of a code matrix (items with at least one rating) and multiplicities."""
    codes = codes[(codes >= 0).any(axis=1)]
    n, n_raters = codes.shape
    if n == 0:
        return codes, np.zeros(0, dtype=np.int64)
    top = int(codes.max()) + 2
    if n_raters * np.log2(top) < 62:
        base = top ** np.arange(n_raters, dtype=np.int64)
        code = (codes + 1) @ base
        _, first, multiplicity = np.unique(code, return_index=True, return_counts=True)
        return codes[first], multiplicity.astype(np.int64)
    rows, multiplicity = np.unique(codes, axis=0, return_counts=True)
    return rows, multiplicity.astype(np.int64)


# --------------------------------------------------------------------------- fast route

# Below this many cells the numpy route is used (no numba import or compile).
FAST_MIN_CELLS = 50_000


def fast_rows(
    ratings: Any, min_rating: int | None, max_rating: int | None, nan_policy: NanPolicy
) -> CountedRows | None:
    """Encode a large numeric (n, R) numpy array into its distinct rows of category codes in
    one numba pass (two when the range guessed from the first rows is too narrow).

    Returns the :class:`CountedRows` (the integer categories as a ``range``), or None when the input
    is not such an array, the codes would overflow or a rating is refused (the caller takes
    the general route, which says where the refused rating is).
    """
    if isinstance(ratings, np.ma.MaskedArray):
        return None  # the general route reads the mask
    if not isinstance(ratings, np.ndarray):
        shape = getattr(ratings, "shape", None)
        if not isinstance(shape, tuple) or len(shape) != 2 or shape[0] * shape[1] < FAST_MIN_CELLS:
            return None
        ratings = frame_array(ratings)
        if ratings is None:
            return None
    if ratings.ndim != 2:
        return None
    if ratings.dtype.kind not in "iuf" or ratings.size < FAST_MIN_CELLS:
        return None
    if ratings.shape[1] < 2:
        return None
    from .kernels import numba_raters

    # One pass when the range is known: the bounds given, or those of the first rows (a
    # rating outside them stops the pass, and the data are scanned for the range first).
    guess = _guess_range(ratings, min_rating, max_rating)
    outcome = None
    if guess is not None:
        first, last = guess
        outcome = _code_rows(ratings, first, last - first + 1)
    if outcome is None or outcome[2] == 1:
        if outcome is not None and min_rating is not None and max_rating is not None:
            return None  # a rating outside the bounds given
        lo_f, hi_f, n_missing, bad = numba_raters.scan(ratings)
        if bad >= 0:
            return None  # a rating that is not a whole number
        if n_missing == ratings.size:
            raise no_ratings_error("ratings")
        if max(abs(lo_f), abs(hi_f)) >= 2**53:
            return None
        low, high = int(lo_f), int(hi_f)
        if (min_rating is not None and low < min_rating) or (
            max_rating is not None and high > max_rating
        ):
            return None
        first = low if min_rating is None else min_rating
        last = high if max_rating is None else max_rating
        outcome = _code_rows(ratings, first, last - first + 1)
        if outcome is None:
            return None
    hist, n_missing, status, _where, powers, dense, codes = outcome
    if status == 2:
        return None  # a rating that is not a whole number
    if n_missing and nan_policy != "omit":
        return None  # the general route raises or propagates with the position
    if n_missing == ratings.size:
        raise no_ratings_error("ratings")
    if dense:
        present = np.flatnonzero(hist[1:]) + 1
        multiplicity = hist[present]
    else:
        present, multiplicity = np.unique(codes[codes > 0], return_counts=True)
    digits = (present[:, None] // powers[None, :]) % (last - first + 2) - 1
    return CountedRows(
        digits.astype(np.int64),
        multiplicity.astype(np.int64),
        range(first, last + 1),
        ratings.size - n_missing,
    )


def value_labels(
    ratings: Any,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    option: str,
    policy: NanPolicy | None,
) -> tuple[Any, Any, CountedRows | None]:
    """The ratings and labels of a metric on the values (``option``: Krippendorff's interval
    or ratio level, Gwet's value weights): without ``labels``, numbers that are not whole
    are categories as they are (their sorted distinct values, with the ratings as read);
    anything else is returned unchanged. Given a ``policy`` (and valid bounds), a large
    numeric array is first read by :func:`fast_rows`, which declines a rating that is not a
    whole number: its rows, when it counts them, come back too (whole numbers: the integer
    range), and no other pass over every rating looks for values that are not whole."""
    if labels is not None:
        return ratings, labels, None
    try:
        bounds = check_rating_bounds(min_rating, max_rating)
    except WkappaError:  # refused later, after the values are read
        bounds = None
    if policy is not None and bounds is not None:
        fast = fast_rows(ratings, *bounds, policy)
        if fast is not None:
            return ratings, labels, fast
    matrix_read = read_rater_matrix(ratings)
    values = value_categories(matrix_read)
    if values is None:
        return ratings, labels, None
    if min_rating is not None or max_rating is not None:
        raise WkappaError(
            "`min_rating` and `max_rating` bound integer ratings, and `ratings` has "
            f"values that are not whole numbers ({format_value(values.tolist())}). "
            f"Hint: leave them out: {option} takes the values as they are."
        )
    return matrix_read, values, None


def frame_array(ratings: Any) -> np.ndarray | None:
    """A pandas or polars DataFrame whose rating columns share one numeric dtype, as one 2-D
    array (F-ordered, as the frames store columns; missing values NaN); None for anything
    else (mixed dtypes, strings, categoricals, integers with missing values beyond 2**53: the
    general route reads those column by column, exactly)."""
    if not is_dataframe(ratings) or hasattr(ratings, "column_names"):  # pyarrow: general
        return None
    if not hasattr(ratings, "get_columns"):  # pandas
        kinds = set(ratings.dtypes)
        if len(kinds) != 1:
            return None
        dtype = kinds.pop()
        if isinstance(dtype, np.dtype):
            if dtype.kind not in "iuf":
                return None
            array: np.ndarray = ratings.to_numpy()
            return array
        # Nullable Int*/UInt*/Float* columns: as float64 with NaN for <NA>, which is exact
        # while every value stays below 2**53 in magnitude.
        if getattr(dtype, "kind", "") not in "iuf" or dtype.kind == "":
            return None
        largest = ratings.abs().max().max()
        if not (largest < 2**53):  # also NaN: no value at all; the general route says so
            return None
        array = ratings.to_numpy(dtype=np.float64, na_value=np.nan)
        return array
    columns = ratings.get_columns()  # polars
    if len({c.dtype for c in columns}) != 1 or not columns[0].dtype.is_numeric():
        return None
    if not columns[0].dtype.is_float() and any(c.null_count() for c in columns):
        # Integer columns with nulls come back as float64 with NaN: exact below 2**53.
        ends = [abs(v) for c in columns for v in (c.min(), c.max()) if v is not None]
        if not ends or max(ends) >= 2**53:
            return None
    array = ratings.to_numpy()
    return array if array.dtype.kind in "iuf" else None


# The parallel pass gives each of this many row blocks its own dense histogram (threads take
# blocks one by one), for histograms of at most this many codes, from this many ratings on
# and when the blocks' histograms are small next to the ratings read; whether the threads
# run is fused.use_parallel's decision (the serial pass when another process holds a core).
_PARALLEL_BLOCKS = 16
_PARALLEL_MAX_CODES = 1 << 16
_PARALLEL_MIN_CELLS = 1 << 20

# Rows read to guess the range of the ratings before the one-pass count.
_GUESS_ROWS = 4096


def _guess_range(ratings: np.ndarray, lo: int | None, hi: int | None) -> tuple[int, int] | None:
    if lo is not None and hi is not None:
        return lo, hi
    sample = ratings[:_GUESS_ROWS]
    if sample.dtype.kind == "f":
        sample = sample[~np.isnan(sample)]
        if sample.size == 0 or not np.isfinite(sample).all():
            return None
    if sample.size == 0:
        return None
    first = int(sample.min()) if lo is None else lo
    last = int(sample.max()) if hi is None else hi
    if first > last or abs(first) >= 2**53 or abs(last) >= 2**53:
        return None
    return first, last


def _code_rows(ratings: np.ndarray, first: int, k: int) -> tuple[Any, ...] | None:
    """Run the row-coding kernel for categories ``first .. first + k - 1``; None if the codes
    (R digits in base K+1) would not fit in int64."""
    from .kernels import numba_raters

    check_table_size(k)
    n, n_raters = ratings.shape
    base = k + 1
    if n_raters * np.log2(base) >= 62:
        return None
    powers = base ** np.arange(n_raters, dtype=np.int64)
    space = int(powers[-1]) * base
    dense = space if space <= _DENSE_CODES else 0
    codes = np.zeros(0 if dense else n, dtype=np.int64)
    # The block-wise passes need float ratings contiguous in memory (C order: mode 1, read
    # through a flat view; F order: mode 2, through the C-ordered transpose) and codes that
    # fit int32 (a dense histogram); mode 0 reads rating by rating.
    mode = 0
    if dense and ratings.dtype.kind == "f":
        mode = 1 if ratings.flags.c_contiguous else 2 if ratings.flags.f_contiguous else 0
    flat = ratings.reshape(-1) if mode == 1 else np.empty(0, dtype=ratings.dtype)
    columns = ratings.T if mode == 2 else np.empty((0, 0), dtype=ratings.dtype)
    big = ratings.size >= max(_PARALLEL_MIN_CELLS, _PARALLEL_BLOCKS * dense)
    if 0 < dense <= _PARALLEL_MAX_CODES and big and use_parallel(ratings.size):
        with parallel_section():
            hists, missing, statuses, wheres = numba_raters.rows_in_range_parallel(
                ratings, first, k, powers, dense, _PARALLEL_BLOCKS, mode, flat, columns
            )
        stopped = np.flatnonzero(statuses)
        if stopped.size:  # the first block (in row order) that stopped decides
            block = int(stopped[0])
            return None, 0, int(statuses[block]), int(wheres[block]), powers, dense, codes
        hist = hists.sum(axis=0)
        return hist, int(missing.sum()), 0, -1, powers, dense, codes
    if mode == 1:
        hist, n_missing, status, where = numba_raters.rows_in_range_chunked(
            ratings, flat, first, k, powers, dense
        )
    elif mode == 2:
        hist, n_missing, status, where = numba_raters.rows_in_range_columns(
            ratings, columns, first, k, powers, dense
        )
    else:
        hist, n_missing, status, where = numba_raters.rows_in_range(
            ratings, first, k, powers, dense, codes
        )
    return hist, n_missing, status, where, powers, dense, codes
