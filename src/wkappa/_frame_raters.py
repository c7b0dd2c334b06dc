"""Several raters in a data frame (re-exported by :mod:`wkappa.frames`): the agreement of
a panel and the comparison of a candidate with it, from the distinct rating rows that
:mod:`wkappa._frames.raters` counts in the engine (wide or long layout)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

# The hint of rater_vs_panel names PanelComparison through the package: it loads on first
# use (wkappa._stats's __getattr__), so resolving the hint loads it and importing this module
# does not.
from . import _stats
from ._core import (
    KRIPPENDORFF_LEVELS,
    AgreementWeightsLike,
    Coefficient,
    KrippendorffLevel,
    NanPolicy,
    ZeroDivision,
    check_choice,
    check_nan_policy,
    check_table_nan_policy,
    known_raters,
    value_labels,
)
from ._frames import (
    check_rater_rows,
    clustered_ratings,
    item_ratings,
    named_group_warnings,
    names_as_keywords,
    panel_ratings,
    rater_rows,
)
from ._stats import AgreementResult, Alternative, SeedLike
from .exceptions import WkappaError

__all__ = ["agreement", "krippendorff_alpha", "rater_vs_panel"]


@names_as_keywords
def agreement(
    df: Any,
    *,
    raters: Sequence[str] | None = None,
    item: str | None = None,
    rater: str | None = None,
    rating: str | None = None,
    by: str | None = None,
    coefficient: Coefficient = "fleiss",
    weights: AgreementWeightsLike = "unweighted",
    level: KrippendorffLevel | None = None,
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    zero_division: ZeroDivision = "warn",
    population_size: float | None = None,
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: str | None = None,
) -> AgreementResult | dict[Any, AgreementResult]:
    """Agreement of several raters in a data frame, counted in the engine.

    Parameters
    ----------
    df : data frame
        A pandas, polars (eager or lazy), pyarrow, DuckDB, Dask or PySpark frame.
    raters : sequence of str, optional
        Wide layout: one column per rater (rows are items).
    item, rater, rating : str, optional
        Long layout: one row per rating (each rater rates an item at most once).
    by : str, optional
        A column whose values each get their own coefficient (on one set of categories: the
        integer range of all the ratings, or ``labels``; at the interval and ratio ``level``,
        values that are not whole numbers: their sorted distinct values). In the long layout
        an item's rows carry one ``by`` value (an item in two groups is an error, as one in
        two clusters).
        A missing value (None, NaN, null) is a group of its own, keyed None and last, as in
        SQL's and polars' GROUP BY and in :func:`kappa_by_group`. A group's warning (an
        undefined coefficient, say) names its group: "by='site' group 'x': ...".
    coefficient, weights, labels, min_rating, max_rating, nan_policy, zero_division,
    population_size, alternative, kappa0
        As in :func:`wkappa.agreement` (with ``nan_policy='omit'``, the default, missing
        ratings are used as irrCAC does). Without ``labels``, an ordered categorical (polars
        ``Enum``, pandas ordered ``Categorical``, pyarrow ordered dictionary, DuckDB ``ENUM``)
        gives the categories, in its order, unused ones included, in either layout.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}, optional
        With ``coefficient='krippendorff'``: alpha with Krippendorff's own metric, as
        :func:`wkappa.krippendorff_alpha` computes it (his rank-based 'ordinal', not Gwet's
        ordinal ``weights``); ``weights`` is then left at 'unweighted'. None (the default):
        the coefficient with ``weights``.
    cluster : str, optional
        A column of cluster ids (the task of each prompt, the scan of each lesion; constant
        within an item): the standard error is cluster-robust over the clusters, as
        ``wkappa.agreement(..., cluster=...)``; with ``by``, each group's over the clusters
        in that group (a group with fewer than 2 clusters is an error naming it).

    Returns
    -------
    wkappa.AgreementResult or dict
        The :class:`~wkappa.AgreementResult`; with ``by``, a dict from each group value to
        its result.

    Notes
    -----
    The wide layout sends ``group_by(raters).agg(len)`` to the engine and only the distinct
    rows of ratings come back. The long layout is counted in the engine too: each row
    becomes an integer (a digit for its rating at its rater's place), the engine sums them
    per item and counts the items per sum, and only those distinct rows come back (a rater
    who rated an item twice, or NaN ratings, fall back to counting the (item, rater, rating)
    triples and pivoting them here, which holds an items x raters table in memory). Its
    raters (the rows and columns of ``pairwise()``, the entries of
    ``leave_one_rater_out()``) are in sorted order of their names, integer names in numeric
    order.

    Examples
    --------
    >>> import polars as pl
    >>> import wkappa.frames as wkf
    >>> frame = pl.DataFrame({"a": [1, 2, 3, 3, 2], "b": [1, 2, 3, 3, 1], "c": [1, 2, 2, 3, 2]})
    >>> round(wkf.agreement(frame, raters=["a", "b", "c"]).statistic, 4)
    0.5946
    >>> alpha = wkf.agreement(frame, raters=["a", "b", "c"], coefficient="krippendorff",
    ...                       level="interval")
    >>> alpha.level, round(alpha.statistic, 3)
    ('interval', 0.791)
    """
    from ._stats import agreement as arrays_agreement

    _check_level(level, coefficient, weights)
    # With cluster: the distinct rows of each (group, cluster), counted in the engine.
    found = rater_rows(
        df, raters=raters, item=item, rater=rater, rating=rating, by=by, cluster=cluster
    )
    check_rater_rows(found, labels, check_nan_policy(nan_policy))
    if by is not None and labels is None and min_rating is None and max_rating is None:
        # One set of categories for every group: those of all the ratings together.
        labels = _shared_categories(known_raters(found.rows, not found.wide, "df"), weights, level)
    options: dict[str, Any] = {
        "labels": labels,
        "min_rating": min_rating,
        "max_rating": max_rating,
        "nan_policy": nan_policy,
        "zero_division": zero_division,
        "population_size": population_size,
        "alternative": alternative,
        "kappa0": kappa0,
    }
    compute: Any = arrays_agreement
    if level is None:
        options.update(coefficient=coefficient, weights=weights)
    else:
        from ._stats import krippendorff_alpha

        compute, options["level"] = krippendorff_alpha, level
    results = {}
    for group, rows, counts, ids in found.groups:
        if ids is None:
            if level is None:
                rows = known_raters(rows, not found.wide, "df")
                results[group] = named_group_warnings(
                    by, group, compute, rows, multiplicity=counts, **options
                )
            else:  # (krippendorff_alpha takes the items written out)
                items = item_ratings(rows, counts, found.names, not found.wide)
                results[group] = named_group_warnings(by, group, compute, items, **options)
            continue
        matrix, item_ids = clustered_ratings(rows, counts, ids, found.names, not found.wide)
        try:  # each group's interval is cluster-robust over that group's clusters
            results[group] = named_group_warnings(
                by, group, compute, matrix, cluster=item_ids, **options
            )
        except WkappaError as error:
            if by is None:
                raise
            raise WkappaError(f"In the group {by}={group!r}: {error}") from error
    return results[None] if by is None else results


@names_as_keywords
def krippendorff_alpha(
    df: Any,
    *,
    raters: Sequence[str] | None = None,
    item: str | None = None,
    rater: str | None = None,
    rating: str | None = None,
    by: str | None = None,
    level: KrippendorffLevel = "nominal",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    zero_division: ZeroDivision = "warn",
    population_size: float | None = None,
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: str | None = None,
) -> AgreementResult | dict[Any, AgreementResult]:
    """:func:`wkappa.krippendorff_alpha` of a data frame: alpha with Krippendorff's own
    metric, counted in the engine.

    Parameters
    ----------
    df, raters, item, rater, rating, by, cluster
        As in :func:`agreement` (wide or long layout, a result per ``by`` group, a
        cluster-robust standard error).
    level, labels, min_rating, max_rating, nan_policy, zero_division, population_size,
    alternative, kappa0
        As in :func:`wkappa.krippendorff_alpha`.

    Returns
    -------
    wkappa.AgreementResult or dict
        ``agreement(df, ..., coefficient='krippendorff', level=level)``: the result of
        :func:`wkappa.krippendorff_alpha` on the same ratings; with ``by``, a dict from each
        group value to its result.

    Examples
    --------
    >>> import pandas as pd
    >>> from wkappa import frames
    >>> df = pd.DataFrame({"a": [1, 2, 3, 3, 2], "b": [1, 2, 3, 3, 1], "c": [1, 2, 2, 3, 2]})
    >>> round(frames.krippendorff_alpha(df, raters=["a", "b", "c"], level="ordinal").statistic, 3)
    0.792
    """
    check_choice(level, "level", KRIPPENDORFF_LEVELS)
    return agreement(
        df, raters=raters, item=item, rater=rater, rating=rating, by=by,
        coefficient="krippendorff", level=level, labels=labels, min_rating=min_rating,
        max_rating=max_rating, nan_policy=nan_policy, zero_division=zero_division,
        population_size=population_size, alternative=alternative, kappa0=kappa0,
        cluster=cluster,
    )  # fmt: skip


def _shared_categories(ratings: Any, weights: Any, level: Any) -> Any:
    """The categories of all the groups' ``ratings`` together, as the coefficient reads
    them: Krippendorff's ordinal, interval and ratio metrics need them ordered, and at the
    interval and ratio levels numbers that are not whole are categories as they are."""
    from ._stats import rating_categories

    if level in ("interval", "ratio"):
        values = value_labels(ratings, None, None, None, f"level={level!r}", None)[1]
        if values is not None:
            return values
    ordered = "unweighted" if level in (None, "nominal") else "ordinal"
    return rating_categories(ratings, weights=weights if level is None else ordered)


def _check_level(level: Any, coefficient: Any, weights: Any) -> None:
    """``level`` is Krippendorff's metric: with ``coefficient='krippendorff'`` only, and
    instead of ``weights`` (both would set alpha's metric), as ``wkappa agree --level``."""
    if level is None:
        return
    check_choice(level, "level", KRIPPENDORFF_LEVELS)
    if coefficient != "krippendorff":
        raise WkappaError(
            f"`level`={level!r} is Krippendorff's level of measurement, for "
            f"coefficient='krippendorff', not {coefficient!r}. Hint: pass "
            "coefficient='krippendorff', or drop `level` (and give `weights`)."
        )
    if not (isinstance(weights, str) and weights == "unweighted"):
        shown = repr(weights) if isinstance(weights, str) else "a matrix"
        raise WkappaError(
            f"`level`={level!r} and `weights`={shown} both set alpha's metric. Hint: drop "
            f"`weights` (level={level!r} is Krippendorff's metric; `weights` gives alpha "
            "another one)."
        )


@names_as_keywords
def rater_vs_panel(
    df: Any,
    *,
    candidate: str,
    raters: Sequence[str] | None = None,
    item: str | None = None,
    rater: str | None = None,
    rating: str | None = None,
    coefficient: Coefficient = "conger",
    weights: AgreementWeightsLike = "unweighted",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    n_resamples: int = 9999,
    rng: SeedLike = None,
    alternative: Alternative = "two-sided",
    cluster: str | None = None,
) -> _stats.PanelComparison:
    """:func:`wkappa.rater_vs_panel` of a data frame: does the candidate (an LLM judge, a
    model, a trainee) agree with the panel as well as the panel's members agree with each
    other?

    Parameters
    ----------
    df : data frame
        A pandas, polars (eager or lazy), pyarrow, DuckDB, Dask or PySpark frame.
    candidate : str or int
        Wide layout: the candidate's column. Long layout: the candidate's id in the
        ``rater`` column (an integer id as it is, or written in digits).
    raters : sequence of str, optional
        Wide layout: the panel's columns (one per member; ``candidate`` may be among them and
        is then left out of the panel).
    item, rater, rating : str, optional
        Long layout: one row per rating (each rater rates an item at most once).
    coefficient, weights, labels, min_rating, max_rating, nan_policy, n_resamples, rng,
    alternative
        As in :func:`wkappa.rater_vs_panel` (``nan_policy='raise'`` refuses a missing
        rating, a null or NaN, or in the long layout an item a rater did not rate).
    cluster : str, optional
        A column of cluster ids (the task of each prompt, the scan of each lesion; constant
        within an item): the bootstrap resamples whole clusters, as
        ``wkappa.rater_vs_panel(..., cluster=...)``.

    Returns
    -------
    wkappa.PanelComparison

    Notes
    -----
    The distinct rating rows are counted in the engine (as :func:`agreement` counts them)
    and the items x raters matrix is rebuilt from them, so the result equals
    :func:`wkappa.rater_vs_panel` of the same ratings as arrays. The statistic is
    ``D = mean_j c(candidate, j) - mean_{j<l} c(j, l)`` with an item-bootstrap interval.

    Examples
    --------
    >>> import pandas as pd
    >>> from wkappa import frames
    >>> df = pd.DataFrame({  # 12 items, three times the same four
    ...     "item": [i for i in range(12) for _ in range(3)],
    ...     "who": ["a", "b", "judge"] * 12,
    ...     "label": ["yes", "yes", "yes", "no", "no", "yes", "no", "no", "no", "yes", "yes", "no"]
    ...     * 3,
    ... })
    >>> result = frames.rater_vs_panel(df, candidate="judge", item="item", rater="who",
    ...                                rating="label", n_resamples=99, rng=0)
    >>> round(result.panel_agreement, 3), round(result.candidate_agreement, 3)
    (1.0, 0.0)
    """
    from ._stats import rater_vs_panel as arrays_vs_panel

    if (
        raters is None
        and isinstance(candidate, (int, np.integer))
        and not isinstance(candidate, bool)
    ):
        candidate = str(candidate)  # the long layout's integer rater ids are named by their digits
    if not isinstance(candidate, str):
        raise WkappaError(
            f"`candidate` must be a column name (wide) or a rater id (long); got "
            f"{type(candidate).__name__}. Hint: for arrays use wkappa.rater_vs_panel."
        )
    names = None if raters is None else [*raters, *([] if candidate in raters else [candidate])]
    found = rater_rows(
        df,
        raters=names,
        item=item,
        rater=rater,
        rating=rating,
        by=None,
        cluster=cluster,
        candidate=candidate,
    )
    policy = check_table_nan_policy(nan_policy, "a comparison result")
    check_rater_rows(found, labels, policy, propagate=False)
    panel, candidate_ratings, ids = panel_ratings(found, candidate)
    return arrays_vs_panel(
        panel,
        candidate_ratings,
        cluster=ids,
        coefficient=coefficient,
        weights=weights,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        nan_policy=policy,
        n_resamples=n_resamples,
        rng=rng,
        alternative=alternative,
    )
