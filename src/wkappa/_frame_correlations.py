"""Intraclass and concordance correlations of a data frame (re-exported by
:mod:`wkappa.frames`): the layouts and engines of :mod:`wkappa._frames.numeric`, the
statistics of :mod:`wkappa._stats`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

# The hints name ICCResult and CCCResult through the package: they load on first use
# (wkappa._stats's __getattr__), so resolving a hint (typing.get_type_hints) loads them and
# importing this module does not.
from . import _stats
from ._core import NanPolicy, check_alternative, check_nan_policy, missing_rating_error
from ._frames import (
    NumericFrame,
    RaterMoments,
    icc_input,
    names_as_keywords,
    numeric_frame,
    numeric_matrix,
)
from ._stats import Alternative
from .exceptions import WkappaError

__all__ = ["ccc", "icc", "icc_all"]


def _icc_results(
    df: Any, layout: dict[str, Any], forms: tuple[str, ...], options: dict[str, Any]
) -> dict[str, _stats.ICCResult]:
    from ._stats import check_icc0, icc_all, icc_from_moments
    from ._stats import icc as one_icc

    null, alt = check_icc0(options["icc0"]), check_alternative(options["alternative"])
    policy = check_nan_policy(options["nan_policy"])
    data = numeric_frame(df, **layout, hint="use wkappa.icc(ratings).")
    found = icc_input(data)
    if isinstance(found, RaterMoments):  # complete items: the engine's moments
        moments = (found.n, found.rater_effects, found.row_m2, found.error_m2)
        return icc_from_moments(*moments, forms, null, alt, found.unit)
    matrix, names = found
    if policy == "raise":
        _refuse_missing(
            data, matrix, names, "uses every rating there is (REML variance components)"
        )
    if policy == "omit":
        _refuse_unrated(data, matrix, names, "")
    if len(forms) == 1:  # (warns about this form only)
        return {
            forms[0]: one_icc(matrix, form=forms[0], icc0=null, alternative=alt, nan_policy=policy)
        }
    results = icc_all(matrix, icc0=null, alternative=alt, nan_policy=policy)
    return {form: results[form] for form in forms}


@names_as_keywords
def icc(
    df: Any,
    *,
    raters: Sequence[str] | None = None,
    item: str | None = None,
    rater: str | None = None,
    rating: str | None = None,
    form: str = "A,1",
    icc0: float = 0.0,
    alternative: Alternative = "two-sided",
    nan_policy: NanPolicy = "omit",
) -> _stats.ICCResult:
    """:func:`wkappa.icc` of numeric ratings in a data frame.

    Parameters
    ----------
    df : data frame
        A pandas, polars (eager or lazy), pyarrow, DuckDB, Dask or PySpark frame.
    raters : sequence of str, optional
        Wide layout: one numeric column per rater (rows are items).
    item, rater, rating : str, optional
        Long layout: one row per rating (each rater rates an item at most once), as in
        :func:`wkappa.frames.agreement`.
    form, icc0, alternative, nan_policy
        As in :func:`wkappa.icc` (a null or NaN rating is a missing rating).

    Returns
    -------
    wkappa.ICCResult

    Notes
    -----
    Wide layout on a lazy engine (polars ``LazyFrame``, DuckDB, Dask, PySpark): one
    aggregation in the engine gives the raters' means, effects and residual variances, the
    row means' mean and variance (the ANOVA sums follow) and the count of items with a
    missing rating; with none, nothing else leaves the engine. Otherwise (eager frames, the
    long layout, missing ratings: REML) an items x raters matrix is read here. Answers: those of
    :func:`wkappa.icc` on the same ratings (to rounding).

    Examples
    --------
    >>> import polars as pl
    >>> import wkappa.frames as wkf
    >>> frame = pl.DataFrame({"j1": [9, 6, 8, 7, 10, 6], "j2": [2, 1, 4, 1, 5, 2],
    ...                       "j3": [5, 3, 6, 2, 6, 4], "j4": [8, 2, 8, 6, 9, 7]})
    >>> round(wkf.icc(frame.lazy(), raters=["j1", "j2", "j3", "j4"], form="ICC2").statistic, 4)
    0.2898
    """
    from ._stats import check_form

    name = check_form(form)
    layout = {"raters": raters, "item": item, "rater": rater, "rating": rating}
    options = {"icc0": icc0, "alternative": alternative, "nan_policy": nan_policy}
    return _icc_results(df, layout, (name,), options)[name]


@names_as_keywords
def icc_all(
    df: Any,
    *,
    raters: Sequence[str] | None = None,
    item: str | None = None,
    rater: str | None = None,
    rating: str | None = None,
    icc0: float = 0.0,
    alternative: Alternative = "two-sided",
    nan_policy: NanPolicy = "omit",
) -> dict[str, _stats.ICCResult]:
    """:func:`wkappa.icc_all` (all six forms) of numeric ratings in a data frame; parameters
    and layouts as in :func:`icc` (without ``form``).

    Returns
    -------
    dict of str to wkappa.ICCResult
        Keyed as :func:`wkappa.icc_all`'s answer, in the same order.

    Examples
    --------
    >>> import pandas as pd
    >>> import wkappa.frames as wkf
    >>> long = pd.DataFrame({"subject": [1, 1, 2, 2, 3, 3, 4, 4], "session": ["t1", "t2"] * 4,
    ...                      "score": [10.0, 11.0, 14.0, 13.5, 9.0, 9.5, 12.0, 12.5]})
    >>> results = wkf.icc_all(long, item="subject", rater="session", rating="score")
    >>> round(results["C,1"].statistic, 4)
    0.9504
    """
    from ._stats import FORMS

    layout = {"raters": raters, "item": item, "rater": rater, "rating": rating}
    options = {"icc0": icc0, "alternative": alternative, "nan_policy": nan_policy}
    return _icc_results(df, layout, FORMS, options)


@names_as_keywords
def ccc(
    df: Any,
    *,
    raters: Sequence[str] | None = None,
    item: str | None = None,
    rater: str | None = None,
    rating: str | None = None,
    ccc0: float = 0.0,
    alternative: Alternative = "two-sided",
    nan_policy: NanPolicy = "raise",
) -> _stats.CCCResult:
    """:func:`wkappa.ccc` (Lin's concordance correlation; overall for more than two raters) of
    numeric ratings in a data frame; layouts as in :func:`icc`, ``ccc0``, ``alternative`` and
    ``nan_policy`` as in :func:`wkappa.ccc`. The ratings are read into an items x raters
    matrix here (the overall CCC's jackknife needs every item's ratings).

    Returns
    -------
    wkappa.CCCResult

    Examples
    --------
    >>> import pandas as pd
    >>> import wkappa.frames as wkf
    >>> frame = pd.DataFrame({"a": [1, 2, 3, 3, 4, 5, 5, 2], "b": [1, 2, 2, 3, 5, 5, 4, 3]})
    >>> round(wkf.ccc(frame, raters=["a", "b"]).statistic, 6)
    0.865546
    """
    from ._stats import ccc as arrays_ccc

    data = numeric_frame(
        df, raters=raters, item=item, rater=rater, rating=rating, hint="use wkappa.ccc(x, y)."
    )
    matrix, names = numeric_matrix(data)
    policy = check_nan_policy(nan_policy)
    if policy == "raise":
        _refuse_missing(data, matrix, names, "drops incomplete items")
    if policy == "omit":  # 'omit' would drop every item
        _refuse_unrated(data, matrix, names, ", so no item is complete")
    if matrix.shape[1] == 2:
        return arrays_ccc(
            matrix[:, 0], matrix[:, 1], ccc0=ccc0, alternative=alternative, nan_policy=nan_policy
        )
    return arrays_ccc(matrix, ccc0=ccc0, alternative=alternative, nan_policy=nan_policy)


def _refuse_unrated(data: NumericFrame, matrix: np.ndarray, names: list[str], why: str) -> None:
    """Refuse a rater without a single rating (``why``: what that does), by its column or,
    in the long layout, its rater id."""
    empty = np.flatnonzero(np.isnan(matrix).all(axis=0) & (len(matrix) > 0))
    if not len(empty):
        return
    name = names[int(empty[0])]
    wide = data.raters is not None
    raise WkappaError(
        f"`df` has no rating at all {'in column' if wide else 'from rater'} {name!r}{why}. "
        "Hint: leave "
        + ("that column out of `raters`." if wide else "that rater's rows out of `df`.")
    )


def _refuse_missing(data: NumericFrame, matrix: np.ndarray, names: list[str], omit: str) -> None:
    """Refuse a missing rating under ``nan_policy='raise'``, naming its column and row (the
    statistics' own message names parameters of theirs and rater numbers)."""
    missing = np.argwhere(np.isnan(matrix))
    if not len(missing):
        return
    target, column = (int(i) for i in missing[0])
    if data.raters is not None:
        where = f"item {target}, column {data.raters[column]!r}"
    else:
        assert data.long is not None
        item, rater, _ = data.long
        name = names[column]
        where = f"item {target} of the sorted {item!r} values, where {rater!r} = {name!r}"
    raise missing_rating_error("df", where, omit)
