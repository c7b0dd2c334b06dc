"""The intraclass correlations' mean squares: two-way ANOVA of complete ratings, REML with
missing ones.

One pass over the ratings gives the two-way ANOVA sums of squares
(:func:`wkappa._core.anova_sums`), from which every form, test and interval follows
(:mod:`wkappa._stats.intraclass_forms`). With missing ratings (``nan_policy='omit'``) the
variance components come from REML (:mod:`wkappa._stats.intraclass_reml`) and the mean squares
are the ones those components imply. :func:`rated_items` is the one rule for an item without
any rating, shared by :func:`wkappa.icc`, :func:`wkappa.icc_all`, :mod:`wkappa.frames` and
``wkappa icc``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .._core import AnovaSums, anova_sums, plain_anova_sums, scaled_ratings
from ..exceptions import WkappaError
from .intraclass_reml import RemlFit, reml_fit

__all__ = ["MeanSquares", "mean_squares", "plain_mean_squares", "rated_items"]


def rated_items(
    values: np.ndarray, nan_policy: str, name: str = "ratings"
) -> tuple[np.ndarray, int]:
    """The items (rows) of ``values`` (items x raters, or x features) that have a rating and
    how many were dropped for having none: under ``nan_policy='omit'`` an item without any
    rating tells nothing about the raters or the items (as in :func:`wkappa.agreement`), so
    it is left out and ``n_items`` counts the items rated; 'raise' has refused any missing
    rating before, and 'propagate' keeps every item (each value is then nan).

    With a features axis, an item is dropped when it has no rating in any feature; an item
    rated in some features only is refused (the features share their items).
    """
    if nan_policy != "omit" or values.shape[0] == 0:
        return values, 0
    empty_per_feature = np.isnan(values).all(axis=1)
    if values.ndim == 3:
        empty = empty_per_feature.all(axis=1)
        partial = np.argwhere(empty_per_feature & ~empty[:, None])
        if partial.size:
            item, feature = (int(i) for i in partial[0])
            raise WkappaError(
                f"`{name}` has no rating at all for item {item} in feature {feature}, but has "
                "ratings of it in other features; nan_policy='omit' drops an item only where "
                "it has no rating in any feature (the features share their items). Hint: "
                f"compute that feature on its own, wkappa.icc({name}[:, :, {feature}])."
            )
    else:
        empty = empty_per_feature
    dropped = int(empty.sum())
    if not dropped:
        return values, 0
    kept = values[~empty]
    if kept.shape[0] == 0:
        raise WkappaError(
            f"`{name}` has no rating at all (its {dropped} items hold only missing ratings). "
            "Hint: NaN or None marks a missing rating; check the rater columns."
        )
    if kept.shape[0] < 2:
        raise WkappaError(
            f"`{name}`: 1 item with a rating ({dropped} without any, left out under "
            "nan_policy='omit'); at least 2 are needed. Hint: the ICC compares items: give "
            "it two rated items or more."
        )
    return np.ascontiguousarray(kept), dropped


@dataclass(frozen=True)
class MeanSquares:
    """Mean squares and degrees of freedom: float64 scalars for one table, arrays of shape
    (features,) for a batch."""

    n: int
    k: int
    ms_targets: Any  # MSR of the two-way model
    ms_targets_oneway: Any  # MSR of the one-way model (= MSR on complete data)
    ms_raters: Any  # MSC
    ms_error: Any  # MSE
    ms_within: Any  # MSW
    df_targets: Any
    df_raters: Any
    df_error: Any
    df_within: Any
    n_ratings: Any
    method: str
    # The mean squares are in units of unit² (ratings far from 1 in size are scaled first,
    # :func:`wkappa._core.scaled_ratings`; in rating units they may lie beyond the float
    # range). Every ICC, test and limit is a ratio of them, so unit does not enter there.
    unit: Any = 1.0

    @classmethod
    def from_sums(
        cls, n: int, k: int, ss_targets: Any, ss_raters: Any, ss_error: Any, unit: Any = 1.0
    ) -> MeanSquares:
        """The ANOVA mean squares of a complete table from its sums of squares (scalars for
        one table, arrays of features), in units of ``unit²``."""
        ss_t = np.asarray(ss_targets, dtype=np.float64)[()]
        ss_r = np.asarray(ss_raters, dtype=np.float64)[()]
        ss_e = np.asarray(ss_error, dtype=np.float64)[()]
        df_t, df_r, df_e, df_w = n - 1, k - 1, (n - 1) * (k - 1), n * (k - 1)
        ms_t = ss_t / df_t
        full = np.ones_like(ss_t)[()]
        return cls(
            n=n,
            k=k,
            ms_targets=ms_t,
            ms_targets_oneway=ms_t,
            ms_raters=ss_r / df_r,
            ms_error=ss_e / df_e,
            ms_within=(ss_r + ss_e) / df_w,
            df_targets=full * df_t,
            df_raters=full * df_r,
            df_error=full * df_e,
            df_within=full * df_w,
            n_ratings=full * (n * k),
            method="anova",
            unit=full * np.asarray(unit, dtype=np.float64)[()],
        )

    def in_rating_units(self, mean_square: Any) -> Any:
        """A mean square of these in the ratings' own units (inf beyond the float range)."""
        with np.errstate(over="ignore"):
            return mean_square * self.unit * self.unit

    def first(self) -> MeanSquares:
        """The first feature's mean squares as scalars."""
        return self.at(0)

    def at(self, feature: int) -> MeanSquares:
        """One feature's mean squares as scalars (these themselves if they are scalars)."""
        values = {
            field.name: getattr(self, field.name)[feature]
            for field in fields(self)
            if isinstance(getattr(self, field.name), np.ndarray)
        }
        return MeanSquares(**{**self.__dict__, **values})


def _from_anova(sums: AnovaSums, one_table: bool) -> MeanSquares:
    """Mean squares of the sums: scalars for one table, arrays of features."""
    ss = (sums.ss_targets, sums.ss_raters, sums.ss_error, sums.unit)
    if one_table:
        ss = tuple(value[0] for value in ss)
    return MeanSquares.from_sums(sums.n_targets, sums.n_raters, *ss)


def plain_mean_squares(ratings: Any) -> MeanSquares | None:
    """The ANOVA of a large 2-D float64 numpy array without a reading pass
    (:func:`wkappa._core.plain_anova_sums`), or None for the general route."""
    sums = plain_anova_sums(ratings)
    return None if sums is None else _from_anova(sums, one_table=True)


def _from_reml(fit: RemlFit, n: int, k: int) -> dict[str, float]:
    """Mean squares implied by REML variance components (expected mean squares of the
    balanced design with n targets and k raters), with the degrees of freedom of the
    observed ratings."""
    n_obs = fit.n_ratings
    return {
        "ms_targets": k * fit.var_targets + fit.var_error,
        "ms_targets_oneway": k * fit.var_targets_oneway + fit.var_within,
        "ms_raters": n * fit.var_raters + fit.var_error,
        "ms_error": fit.var_error,
        "ms_within": fit.var_within,
        "df_targets": float(n - 1),
        "df_raters": float(k - 1),
        "df_error": float(max(n_obs - n - k + 1, 0)),  # 0: no residual df (form undefined)
        "df_within": float(n_obs - n),
        "n_ratings": float(n_obs),
    }


def mean_squares(
    values: np.ndarray, nan_policy: str, n_missing: int, raters: Sequence[str] | None = None
) -> MeanSquares:
    """ANOVA for complete features; REML (omit) or nan (propagate) for the others.

    ``n_missing``: the reader's count of missing ratings (0 skips the search for them);
    ``raters``: a frame's column names, for messages.
    """
    if not n_missing:
        return _from_anova(anova_sums(values), one_table=values.ndim == 2)
    x = values if values.ndim == 3 else values[:, :, None]
    missing = np.isnan(x).any(axis=(0, 1))
    n, k, f_count = x.shape
    complete = np.flatnonzero(~missing)
    names = (
        "ms_targets",
        "ms_targets_oneway",
        "ms_raters",
        "ms_error",
        "ms_within",
        "df_targets",
        "df_raters",
        "df_error",
        "df_within",
        "n_ratings",
        "unit",
    )
    columns = {name: np.full(f_count, np.nan) for name in names}
    columns["unit"][:] = 1.0
    if complete.size:
        anova = _from_anova(anova_sums(x[:, :, complete]), one_table=False)
        for name in columns:
            columns[name][complete] = getattr(anova, name)
    for f in np.flatnonzero(missing):
        if nan_policy == "propagate":
            # Every statistic is nan, but the count of ratings read is still a count.
            columns["n_ratings"][f] = np.count_nonzero(~np.isnan(x[:, :, f]))
            continue
        scaled = scaled_ratings(x[:, :, f])  # no overflow, no digits lost far from zero
        fit = reml_fit(scaled.values, raters)
        for name, value in _from_reml(fit, n, k).items():
            columns[name][f] = value
        columns["unit"][f] = scaled.unit[0]
    if nan_policy == "omit":
        method = "reml"
    else:  # 'propagate': nothing is estimated where a rating is missing
        method = "anova" if complete.size else "none"
    ms = MeanSquares(n=n, k=k, method=method, **columns)
    return ms if values.ndim == 3 else ms.first()
