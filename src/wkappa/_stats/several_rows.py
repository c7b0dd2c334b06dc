"""Several raters' ratings as distinct rows of category codes: reading and encoding a rating
matrix (:func:`rating_rows`), a table of counts (:func:`read_counts`), the categories
:func:`~wkappa.agreement` uses (:func:`rating_categories`), the agreement of rows given with
their multiplicities (:func:`rows_agreement`), and the nan result of
``nan_policy='propagate'`` with the design's counts (:func:`propagated_result`). The entry
points are in :mod:`wkappa._stats.several`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    INT64_SAFE,
    Alternative,
    CountedRows,
    NanPolicy,
    agreement_weight_matrix,
    check_agreement_weights,
    check_rating_bounds,
    coded_rows,
    distinct_rows,
    encode_rating_matrix,
    fast_rows,
    needs_order,
)
from ..exceptions import WkappaError
from .agreement_build import propagated_agreement, result_from_rows
from .agreement_result import AgreementResult

__all__ = [
    "VALUE_WEIGHTS",
    "encoded_ratings",
    "merged_rows",
    "propagated_result",
    "rating_categories",
    "rating_rows",
    "read_counts",
    "rows_agreement",
]


def rating_rows(
    ratings: Any,
    labels: npt.ArrayLike | None,
    min_rating: int | None,
    max_rating: int | None,
    ordered: bool,
    policy: NanPolicy,
    propagate: bool = True,
) -> CountedRows | None:
    """The distinct rows of category codes (-1 = missing), their multiplicities, the
    categories and the number of ratings; None for a missing rating under 'propagate'
    (``propagate``: whether the caller takes it, for the hint of 'raise')."""
    if labels is None:
        lo, hi = check_rating_bounds(min_rating, max_rating)
        fast = fast_rows(ratings, lo, hi, policy)
        if fast is not None:
            return fast
    if min_rating is None and max_rating is None:
        # Named categories (labels=, ordered categoricals, Enum): dense codes, the same pass.
        fast = coded_rows(ratings, labels, ordered, policy)
        if fast is not None:
            return fast
    encoded = encoded_ratings(ratings, labels, min_rating, max_rating, ordered, policy, propagate)
    if encoded is None:
        return None
    codes, categories = encoded
    rows, multiplicity = distinct_rows(codes)
    return CountedRows(rows, multiplicity, categories, int(np.count_nonzero(codes >= 0)))


def encoded_ratings(
    ratings: Any,
    labels: npt.ArrayLike | None,
    min_rating: int | None,
    max_rating: int | None,
    ordered: bool,
    policy: NanPolicy,
    propagate: bool = True,
) -> tuple[np.ndarray, Sequence[Any]] | None:
    """The category codes of the ratings (-1 = missing) and the categories; None for a
    missing rating under 'propagate'."""
    encoded = encode_rating_matrix(
        ratings,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        ordered=ordered,
        nan_policy=policy,
        propagate=propagate,
    )
    return None if encoded is None else (encoded.codes, encoded.labels)


def read_counts(counts: Any) -> np.ndarray:
    try:
        array = np.asarray(counts)
    except ValueError:
        raise WkappaError("`counts` could not be read as a 2-D array.") from None
    if array.ndim != 2 or array.shape[1] == 0:
        raise WkappaError(f"`counts` must be 2-D (items x categories); got shape {array.shape}.")
    if array.dtype.kind not in "biuf":
        raise WkappaError("`counts` must be numeric: how many raters put item i in category k.")
    if array.dtype.kind == "f":
        if not np.isfinite(array).all() or (array != np.floor(array)).any():
            raise WkappaError("`counts` must be whole numbers (no NaN, inf or fractions).")
    if (array < 0).any():
        raise WkappaError("`counts` must be non-negative.")
    if array.size and array.dtype.kind != "b":
        # Every row total (and each count) must stay below 2**62, where int64 sums are exact.
        largest = int(array.max())
        if largest * array.shape[1] >= INT64_SAFE:
            totals = array.astype(object).sum(axis=1) if largest < INT64_SAFE else [largest]
            if max(int(total) for total in totals) >= INT64_SAFE:
                raise WkappaError(
                    "`counts` has a row total too large to handle exactly (>= 2**62 ratings "
                    "of one item)."
                )
    return array.astype(np.int64)


# Gwet's weights on the category values themselves (not their ranks, not a unit step): on
# numbers that are not whole they mean what they mean on integers.
VALUE_WEIGHTS = ("radical", "ratio", "bipolar")


def rating_categories(ratings: Any, *, weights: Any = "unweighted") -> Sequence[Any]:
    """The categories :func:`agreement` uses for ``ratings`` without ``labels``: the
    integer range, or an ordered categorical's categories, or (unweighted) the sorted
    values."""
    checked = check_agreement_weights(weights)
    encoded = encode_rating_matrix(ratings, ordered=needs_order(checked), nan_policy="omit")
    assert encoded is not None
    return encoded.labels


def rows_agreement(
    rows: npt.ArrayLike,
    multiplicity: npt.ArrayLike,
    name: str,
    checked: str | np.ndarray,
    labels: npt.ArrayLike | None,
    min_rating: int | None,
    max_rating: int | None,
    policy: NanPolicy,
    inference: tuple[Any, int | None, Alternative, float],
) -> AgreementResult:
    """:func:`agreement` of distinct rating rows with their multiplicities (checked options;
    ``inference``: zero_division, population_size, alternative, kappa0)."""
    zero, population, side, null = inference
    refused = WkappaError("`multiplicity` must be a 1-D array of non-negative integer counts.")
    try:
        counts = np.asarray(multiplicity)
    except (TypeError, ValueError):  # ragged: a list among the counts
        raise refused from None
    if counts.ndim != 1 or counts.dtype.kind not in "iu" or (counts < 0).any():
        raise refused
    encoded = encoded_ratings(rows, labels, min_rating, max_rating, needs_order(checked), policy)
    options = (labels, min_rating, max_rating, needs_order(checked), null, population)
    if encoded is None:
        return propagated_result(propagated_agreement(name, checked, side), rows, options, counts)
    codes, categories = encoded
    _check_multiplicity(counts, codes)
    keep = (counts > 0) & (codes >= 0).any(axis=1)
    codes, counts = merged_rows(codes[keep], counts[keep].astype(np.int64))
    n_ratings = int(counts @ (codes >= 0).sum(axis=1))
    label, matrix = agreement_weight_matrix(checked, len(categories), name, categories)
    return result_from_rows(
        name, label, matrix, codes, counts, categories, n_ratings, zero, population, side, null
    )


def merged_rows(codes: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``codes`` (row i for ``counts[i]`` items), counts summed, in the
    order of ``distinct_rows`` on the items: a bootstrap of rows (Conger's) draws the same
    items for a seed whatever the rows' order."""
    n, n_raters = codes.shape
    if n == 0:
        return codes, counts
    top = int(codes.max()) + 2
    if n_raters * np.log2(top) < 62:  # as distinct_rows: one integer key per row
        key = (codes + 1) @ (top ** np.arange(n_raters, dtype=np.int64))
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        rows = codes[first]
    else:
        rows, inverse = np.unique(codes, axis=0, return_inverse=True)
    merged = np.zeros(len(rows), dtype=np.int64)
    np.add.at(merged, inverse.ravel(), counts)
    return rows, merged


def _check_multiplicity(counts: np.ndarray, codes: np.ndarray) -> None:
    if len(counts) != len(codes):
        raise WkappaError(
            f"`multiplicity` has {len(counts)} counts for {len(codes)} rows; they must match."
        )


def propagated_result(
    result: AgreementResult,
    ratings: Any,
    options: tuple[Any, Any, Any, bool, float, int | None],
    multiplicity: np.ndarray | None = None,
) -> AgreementResult:
    """The nan ``result`` of ``nan_policy='propagate'`` with the counts and categories of the
    design (what 'omit' would count: items with a rating, raters, ratings), ``kappa0`` and
    ``population_size``. ``options``: labels, min_rating, max_rating, ordered, kappa0, N."""
    labels, min_rating, max_rating, ordered, null, population = options
    result = replace(result, kappa0=null, population_size=population)
    try:
        encoded = encoded_ratings(ratings, labels, min_rating, max_rating, ordered, "omit")
    except WkappaError:  # every rating is missing: nothing to count
        return result
    assert encoded is not None
    codes, categories = encoded
    counts = np.ones(len(codes), dtype=np.int64) if multiplicity is None else multiplicity
    if multiplicity is not None:
        _check_multiplicity(counts, codes)
    rated = (codes >= 0).sum(axis=1)
    return replace(
        result,
        labels=tuple(categories),
        n_items=int(counts[rated > 0].sum()),
        n_raters=codes.shape[1],
        n_ratings=int(counts @ rated),
    )
