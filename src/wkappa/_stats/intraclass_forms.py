"""The six intraclass correlation forms: their names, estimates, F tests and F limits.

McGraw & Wong's (1996) forms as closed-form functions of the ANOVA mean squares
(:class:`~wkappa._stats.intraclass_anova.MeanSquares`): the estimate (their Table 4), the F
test of ``ICC = icc0`` (Table 8) and the exact F-based limits (Table 7; Shrout & Fleiss 1979
for the one-way and consistency forms). Every function takes a float64 scalar (one table) or
an array of features and answers in kind.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .._core import choice_error, f_cdf, f_ppf, f_sf, real_number
from ..exceptions import WkappaError
from .intraclass_anova import MeanSquares

__all__ = [
    "DESCRIPTIONS",
    "FORMS",
    "FORMULAS",
    "ROUNDING",
    "SHROUT_FLEISS",
    "absolute_df",
    "check_form",
    "check_icc0",
    "estimate",
    "f_test",
    "limits",
    "pvalue",
    "undefined",
    "undefined_reason",
]

# A denominator within this fraction of the mean squares its formula is made of is taken as
# an exact 0: its sign and size are then rounding (of the means: an exact 0 comes out near
# eps² x mean², an ICC near -1e30); the estimate there would be beyond +-1e12 anyway.
ROUNDING = 2.0**-40

# McGraw & Wong's names, in their order, with Shrout & Fleiss's.
FORMS = ("1,1", "A,1", "C,1", "1,k", "A,k", "C,k")
SHROUT_FLEISS = {
    "1,1": "ICC1",
    "A,1": "ICC2",
    "C,1": "ICC3",
    "1,k": "ICC1k",
    "A,k": "ICC2k",
    "C,k": "ICC3k",
}
_ALIASES = {
    **{name.lower(): form for form, name in SHROUT_FLEISS.items()},
    "2,1": "A,1",
    "3,1": "C,1",
    "2,k": "A,k",
    "3,k": "C,k",
}
DESCRIPTIONS = {
    "1,1": "one-way random effects, absolute agreement, single rater",
    "A,1": "two-way random effects, absolute agreement, single rater",
    "C,1": "two-way random or mixed effects, consistency, single rater",
    "1,k": "one-way random effects, absolute agreement, mean of k raters",
    "A,k": "two-way random effects, absolute agreement, mean of k raters",
    "C,k": "two-way random or mixed effects, consistency, mean of k raters",
}
FORMULAS = {
    "1,1": "(MSR - MSW) / (MSR + (k-1) MSW)",
    "A,1": "(MSR - MSE) / (MSR + (k-1) MSE + k (MSC - MSE) / n)",
    "C,1": "(MSR - MSE) / (MSR + (k-1) MSE)",
    "1,k": "(MSR - MSW) / MSR",
    "A,k": "(MSR - MSE) / (MSR + (MSC - MSE) / n)",
    "C,k": "(MSR - MSE) / MSR",
}


def check_form(form: Any) -> str:
    """McGraw & Wong's name of an ICC form given in any accepted spelling."""
    if isinstance(form, str):
        text = re.sub(r"\s+", "", form)
        match = re.fullmatch(r"(?i)icc\((.*)\)", text)
        if match:
            text = match.group(1)
        key = text.upper().replace("K", "k")
        if key in FORMS:
            return key
        alias = _ALIASES.get(text.lower())
        if alias is not None:
            return alias
    raise choice_error(
        form,
        "form",
        "one of McGraw & Wong's '1,1', 'A,1', 'C,1', '1,k', 'A,k', 'C,k' or Shrout & "
        "Fleiss's 'ICC1', 'ICC2', 'ICC3', 'ICC1k', 'ICC2k', 'ICC3k'",
        "Hint: SPSS's 'two-way random, absolute agreement, single measures' is 'A,1'.",
    )


def check_icc0(icc0: Any) -> float:
    """The null value of the F test as a float in [0, 1)."""
    value = real_number(icc0, "icc0", "a number in [0, 1)")
    if not 0.0 <= value < 1.0:
        raise WkappaError(f"`icc0` must be in [0, 1) (the null value of the ICC); got {value!r}.")
    return value


def _ratio(form: str, ms: MeanSquares) -> tuple[Any, Any, Any]:
    """The numerator and denominator of ``form``'s estimate (McGraw & Wong 1996, Table 4) and
    the size of the formula: the sum of the mean squares it is made of. Every denominator
    but A,k's is a sum of terms >= 0 (A,1's written so: ``(k-1) MSE + k (MSC - MSE) / n`` is
    ``(k MSC + (nk - n - k) MSE) / n`` with ``nk - n - k >= 0``, no rounding below 0)."""
    n, k = ms.n, ms.k
    msr, msc, mse = ms.ms_targets, ms.ms_raters, ms.ms_error
    if form[0] == "1":
        msr1, msw = ms.ms_targets_oneway, ms.ms_within
        den = msr1 + (k - 1) * msw if form == "1,1" else msr1
        return msr1 - msw, den, msr1 + msw
    if form[0] == "C":
        den = msr + (k - 1) * mse if form == "C,1" else msr
        return msr - mse, den, msr + mse
    if form == "A,1":
        den = msr + (k * msc + (n * k - n - k) * mse) / n
    else:
        den = msr + (msc - mse) / n
    return msr - mse, den, msr + msc + mse


def undefined(form: str, ms: MeanSquares) -> Any:
    """Where the estimate of ``form`` is undefined: its denominator is 0, or (A,k only) below
    0, to rounding (within :data:`ROUNDING` of the mean squares of the formula).

    The denominators are estimated variances (of one rating, or of the mean of k, in units
    of the items' variance component): 0 when every item has the same mean rating for the
    'k' forms (MSR = 0: the formula tends to -inf), when the items differ in nothing and the
    raters only by offsets for C,1 (MSR = MSE = 0: 0/0), when n = k = 2 and MSR = MSC = 0
    for A,1. A,k's, ``MSR + (MSC - MSE) / n``, is below 0 when ``n MSR + MSC < MSE``; its
    estimate would then be above 1 (the numerator is never above the denominator).

    With missing ratings (REML) the model's error can also have no degrees of freedom left:
    ``N - n`` observed ratings beyond one per item for the one-way forms, ``N - n - k + 1``
    for the two-way ones (one rating per item, or two items by three raters with two
    ratings missing). Nothing then separates the items' variance from the error's, and the
    fit's ratio of the two is arbitrary (an ICC near 1 means nothing there)."""
    _, den, size = _ratio(form, ms)
    return np.asarray((den <= ROUNDING * size) | (_error_df(form, ms) <= 0))


def _error_df(form: str, ms: MeanSquares) -> Any:
    """The error degrees of freedom of ``form``'s model: within items (one-way) or residual."""
    return ms.df_within if form[0] == "1" else ms.df_error


def undefined_reason(form: str, ms: MeanSquares) -> str:
    """Why :func:`undefined` holds for ``form`` on one table's mean squares (scalars)."""
    if ms.ms_targets == 0 and ms.ms_raters == 0 and ms.ms_error == 0:
        return "every mean square is 0 (all ratings equal)"
    if float(_error_df(form, ms)) <= 0:
        count = int(ms.n_ratings) - ms.n - (0 if form[0] == "1" else ms.k - 1)
        what = (
            "N - n, the ratings beyond one per item"
            if form[0] == "1"
            else "N - n - k + 1, the two-way model's residual df"
        )
        return (
            f"the model's error has no degrees of freedom ({int(ms.n_ratings)} observed "
            f"ratings N of n = {ms.n} items by k = {ms.k} raters: {what}, is {count}), so "
            "nothing separates the items' variance from the error's (rate more items by "
            "two raters or more)"
        )
    if form in ("C,1", "C,k") and ms.ms_targets == 0 and ms.ms_error == 0:
        return (
            "MSR = MSE = 0 (every item has the same ratings; the raters differ by constant "
            "offsets only): the consistency forms are 0/0"
        )
    if form[2] == "k" and form != "A,k":
        return (
            "MSR = 0 (every item has the same mean rating), which the formulas divide by "
            "(they tend to -inf as MSR -> 0)"
        )
    if form == "A,1":
        return (
            "its denominator is 0 (with n = k = 2 it is MSR + MSC: the items' means are "
            "all equal, and so are the raters')"
        )
    a1 = float(estimate("A,1", ms))
    single = f"ICC(A,1) = {a1:.4g}" if np.isfinite(a1) else "ICC(A,1) (its formula: -inf)"
    return (
        f"{single} is at or below -1/(k-1) = {-1.0 / (ms.k - 1):.4g}, "
        "where its step-up to the mean of k raters (A,k = k A1 / (1 + (k-1) A1)) has no "
        "value: the denominator MSR + (MSC - MSE) / n, an estimated variance, is not above 0 "
        "(n MSR + MSC <= MSE), and the formula would give a value above 1 or an infinity"
    )


def estimate(form: str, ms: MeanSquares) -> Any:
    """The ICC of ``form`` (McGraw & Wong 1996, Table 4); nan where :func:`undefined`."""
    numerator, den, _ = _ratio(form, ms)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(undefined(form, ms), np.nan, numerator / den)[()]


def absolute_df(rho: Any, ms: MeanSquares, k_eff: float) -> Any:
    """McGraw & Wong's (1996) Satterthwaite df of ``a MSC + b MSE`` with
    ``a = k_eff rho / (n (1 - rho))``, ``b = 1 + k_eff rho (n - 1) / (n (1 - rho))``, both
    multiplied by ``n (1 - rho)`` (v does not change) so that rho = 1 is allowed."""
    n = ms.n
    a = k_eff * rho
    b = n * (1.0 - rho) + k_eff * rho * (n - 1)
    raters, error = a * ms.ms_raters, b * ms.ms_error
    with np.errstate(divide="ignore", invalid="ignore"):
        v = (raters + error) ** 2 / (raters**2 / ms.df_raters + error**2 / ms.df_error)
    # One term 0: the df of the other mean square (the formula's value, also where it is 0/0
    # because the other is 0 too: at icc0 = 0 with MSE = 0, at A,1's least value with MSC = 0).
    return np.where(raters == 0, ms.df_error, np.where(error == 0, ms.df_raters, v))[()]


def f_test(form: str, ms: MeanSquares, icc0: float) -> tuple[Any, Any, Any]:
    """The F statistic of ``ICC = icc0`` and its degrees of freedom (McGraw & Wong, Table 8);
    F is nan where the model's error has no degrees of freedom (missing ratings: see
    :func:`undefined`), as there is no error mean square to divide by."""
    f_stat, df1, df2 = _f_test(form, ms, icc0)
    no_error = np.asarray(_error_df(form, ms) <= 0)
    if no_error.any():
        f_stat = np.where(no_error, np.nan, f_stat)[()]
    return f_stat, df1, df2


def _f_test(form: str, ms: MeanSquares, icc0: float) -> tuple[Any, Any, Any]:
    k, r0 = ms.k, icc0
    with np.errstate(divide="ignore", invalid="ignore"):
        if form[0] == "1":
            ratio = ms.ms_targets_oneway / ms.ms_within
            scale = (1 - r0) / (1 + (k - 1) * r0) if form == "1,1" else 1 - r0
            return ratio * scale, ms.df_targets, ms.df_within
        if form[0] == "C":
            ratio = ms.ms_targets / ms.ms_error
            scale = (1 - r0) / (1 + (k - 1) * r0) if form == "C,1" else 1 - r0
            return ratio * scale, ms.df_targets, ms.df_error
        k_eff = float(k) if form == "A,1" else 1.0
        n = ms.n
        a = k_eff * r0 / (n * (1 - r0))
        b = 1 + k_eff * r0 * (n - 1) / (n * (1 - r0))
        f_stat = ms.ms_targets / (a * ms.ms_raters + b * ms.ms_error)
        return f_stat, ms.df_targets, absolute_df(r0, ms, k_eff)


def pvalue(f_stat: Any, df1: Any, df2: Any, alternative: str) -> Any:
    """The p-value of the F test against ``alternative``. An infinite F (no error variance:
    perfect agreement) is beyond every quantile, whatever the degrees of freedom (which the
    absolute-agreement forms' Satterthwaite formula leaves 0/0 then)."""
    f_stat, df2 = np.asarray(f_stat, dtype=np.float64), np.asarray(df2, dtype=np.float64)
    df2 = np.where(np.isposinf(f_stat), 1.0, df2)
    if alternative == "less":
        return f_cdf(f_stat, df1, df2)
    upper = f_sf(f_stat, df1, df2)
    if alternative == "greater":
        return upper
    # Two-sided: twice the smaller tail; the lower one is computed only where it is smaller.
    if upper.ndim == 0:
        smaller = upper if upper < 0.5 else f_cdf(f_stat, df1, df2)
        return np.minimum(1.0, 2.0 * smaller)
    smaller = upper.copy()
    lower_side = ~(upper < 0.5)
    if lower_side.any():
        smaller[lower_side] = f_cdf(f_stat[lower_side], df1[lower_side], df2[lower_side])
    return np.minimum(1.0, 2.0 * smaller)


def limits(form: str, ms: MeanSquares, statistic_a1: Any, tail: float) -> tuple[Any, Any]:
    """Lower and upper limits with ``tail`` probability above/below each (McGraw & Wong 1996,
    Table 7; Shrout & Fleiss 1979 for the one-way and consistency forms); nan where the
    estimate is :func:`undefined` (at MSR = 0 the 'k' forms' limits would be -inf and -inf)."""
    low, high = _f_limits(form, ms, statistic_a1, tail)
    bad = undefined(form, ms)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


def _f_limits(form: str, ms: MeanSquares, statistic_a1: Any, tail: float) -> tuple[Any, Any]:
    n, k = ms.n, ms.k
    q = 1.0 - tail
    with np.errstate(divide="ignore", invalid="ignore"):
        if form[0] in "1C":
            if form[0] == "1":
                f_obs = ms.ms_targets_oneway / ms.ms_within
                df2 = ms.df_within
            else:
                f_obs = ms.ms_targets / ms.ms_error
                df2 = ms.df_error
            f_low = f_obs / f_ppf(q, ms.df_targets, df2)
            f_high = f_obs * f_ppf(q, df2, ms.df_targets)
            if form[2] == "1":
                # An infinite F (no error variance, perfect agreement) or an F quantile
                # beyond the float range (df far below 1) gives the limit 1.
                low = np.where(np.isinf(f_low), 1.0, (f_low - 1) / (f_low + k - 1))
                high = np.where(np.isinf(f_high), 1.0, (f_high - 1) / (f_high + k - 1))
                return low, high
            return 1 - 1 / f_low, 1 - 1 / f_high
        v = absolute_df(statistic_a1, ms, float(k))
        # At the estimate a MSC + b MSE is n (1 - rho) MSR: v is 0 where MSR is (F = 0), and
        # the quantiles take their values as v -> 0 (inf and 0): both limits are then
        # the estimate, A,1's least value for these MSC and MSE (as C,1's are -1/(k-1)).
        f_star = np.where(v == 0, np.inf, f_ppf(q, ms.df_targets, v))
        f_inv = np.where(v == 0, 0.0, f_ppf(q, v, ms.df_targets))
        msr, msc, mse = ms.ms_targets, ms.ms_raters, ms.ms_error
        # c: the raters' term of the denominators; an F quantile beyond the float range
        # (Satterthwaite's df far below 1) gives each limit's value as that quantile -> inf.
        c = k * msc + (k * n - k - n) * mse if form == "A,1" else msc - mse
        low = np.where(
            np.isinf(f_star), -n * mse / c, n * (msr - f_star * mse) / (f_star * c + n * msr)
        )
        high = np.where(np.isinf(f_inv), 1.0, n * (f_inv * msr - mse) / (c + n * f_inv * msr))
        if form == "A,k":
            # A,k's limits are A,1's stepped up (Spearman-Brown, k L / (1 + (k-1) L)); where
            # A,1's lower limit is at or below -1/(k-1) the step-up's is -inf (the
            # denominator f* (MSC - MSE) + n MSR is not above 0; the formula gave a "lower"
            # limit above 1 there).
            below = np.where(np.isinf(f_star), c <= 0, f_star * c + n * msr <= 0)
            low = np.where(below, -np.inf, low)
        # No rater and no error variance (perfect agreement): both limits are 1 for every
        # finite quantile, although Satterthwaite's df is 0/0 there.
        perfect = (mse == 0) & (c == 0) & (msr > 0)
        return np.where(perfect, 1.0, low), np.where(perfect, 1.0, high)
