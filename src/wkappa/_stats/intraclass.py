"""Intraclass correlations: McGraw & Wong's six forms, their F tests and exact F intervals.

:func:`icc` and :func:`icc_all` read the ratings, take the mean squares
(:mod:`wkappa._stats.intraclass_anova`: one compiled ANOVA pass, or REML with missing ratings)
and build an :class:`ICCResult` per form from the closed-form estimates, tests and limits of
:mod:`wkappa._stats.intraclass_forms`, vectorised over features.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .._core import (
    Alternative,
    NanPolicy,
    RatingMatrixLike,
    centred_integers,
    check_alternative,
    check_nan_policy,
    read_numeric_ratings,
    warn_at_caller,
)
from ..exceptions import UndefinedReliabilityWarning
from .intervals import (
    KAPPA_RANGE,
    ConfidenceInterval,
    check_only_method,
    interval_repr,
    level_text,
    sided,
)
from .intraclass_anova import MeanSquares, mean_squares, plain_mean_squares, rated_items
from .intraclass_forms import (
    DESCRIPTIONS,
    FORMS,
    FORMULAS,
    ROUNDING,
    SHROUT_FLEISS,
    check_form,
    check_icc0,
    estimate,
    f_test,
    limits,
    pvalue,
    undefined,
    undefined_reason,
)
from .json_values import json_fields
from .text_values import interval_text, level_percent, number_text, statistic_text

__all__ = [
    "FORMS",
    "ICCResult",
    "MeanSquares",
    "build_result",
    "check_form",
    "check_icc0",
    "icc",
    "icc_all",
    "icc_limits",
    "rated_items",
    "warn_if_undefined",
]

_ICC_FIELDS = (  # the keys of to_dict(), in order
    "form name shrout_fleiss description statistic pvalue f_statistic df1 df2 icc0 "
    "alternative ms_items ms_raters ms_error ms_within df_items df_raters df_error "
    "df_within n_items n_raters n_ratings n_items_omitted method confidence_interval"
)


def _scalar_or_array(values: Any, batched: bool) -> Any:
    if batched:
        values.setflags(write=False)
        return values
    return float(values)


def icc_limits(form: str, method: str) -> str:
    """How exact an ICC's F-based interval is: the one-way and consistency forms' limits are
    exact on a complete table; absolute agreement's use Satterthwaite's df, and with missing
    ratings (``method='reml'``) the df are counted from the observed ratings.

    >>> icc_limits("C,1", "anova"), icc_limits("A,1", "anova")
    ('exact F limits', "approximate F limits with Satterthwaite's df")
    """
    if method == "reml":
        return "approximate F limits from the REML mean squares, df of the observed ratings"
    if form.startswith("A"):
        return "approximate F limits with Satterthwaite's df"
    return "exact F limits"


@dataclass(frozen=True, eq=False, repr=False)
class ICCResult:
    """An intraclass correlation with its F test and F-based interval.

    Made by :func:`~wkappa.icc` and :func:`~wkappa.icc_all`. For ratings of shape
    (items, raters, features) every numeric attribute is a read-only array of shape
    (features,) and the interval's ends are arrays too.

    Attributes
    ----------
    form : str
        McGraw & Wong's name: '1,1', 'A,1', 'C,1', '1,k', 'A,k' or 'C,k'.
    statistic : float or ndarray
        The ICC: at most 1, or nan where the form's denominator (an estimated variance) is
        not above 0, with an UndefinedReliabilityWarning (see :func:`~wkappa.icc`, Warns).
        The average-measure forms have no lower bound; 'A,1' can go below -1/(k-1).
    pvalue : float or ndarray
        p-value of the F test of ``ICC = icc0`` against ``alternative``; nan where F is 0/0
        or 0 (every item with the same mean rating), with the interval.
    f_statistic, df1, df2 : float or ndarray
        The test's F statistic and degrees of freedom (df2 is McGraw & Wong's approximate,
        non-integer df for the absolute-agreement forms with ``icc0 > 0``).
    icc0 : float
        The null value.
    alternative : str
        'two-sided', 'greater' or 'less'.
    ms_items, ms_raters, ms_error, ms_within : float or ndarray
        Mean squares: between items (MSR, Shrout & Fleiss's targets; of the one-way model
        for the '1,.' forms), between raters (MSC), residual (MSE) and within items (MSW).
    df_items, df_raters, df_error, df_within : float or ndarray
        Their degrees of freedom.
    n_items, n_raters : int
        The items (rows: targets, subjects) and raters (columns), as in
        :class:`~wkappa.AgreementResult`: under ``nan_policy='omit'`` the items rated, an
        item without any rating left out (counted in ``n_items_omitted``).
    n_ratings : int or ndarray
        Ratings read, not counting missing ones (fewer than ``n_items * n_raters`` with
        missing ratings); a count under every ``nan_policy``, also where
        ``nan_policy='propagate'`` makes the statistic nan.
    n_items_omitted : int
        Items left out under ``nan_policy='omit'`` for having no rating at all (0 under
        'raise' and 'propagate', and when every item has a rating): ``n_items +
        n_items_omitted`` items were given (:class:`~wkappa.CCCResult` counts the items
        the CCC leaves out the same way).
    method : str
        How the mean squares were estimated: 'anova' (complete ratings), 'reml' (missing
        ratings, nan_policy='omit') or 'none' (a missing rating under
        nan_policy='propagate': every value is nan). With a features axis under
        'propagate', 'anova' if any feature is complete (the others are nan).

    Examples
    --------
    Consistency of four judges on Shrout & Fleiss's six targets (their ICC3):

    >>> import wkappa as wk
    >>> table = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6],
    ...          [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> result = wk.icc(table, form="C,1")
    >>> result.shrout_fleiss, round(result.statistic, 4), result.method
    ('ICC3', 0.7148, 'anova')
    >>> round(result.f_statistic, 3), result.df1, result.df2, round(result.pvalue, 6)
    (11.027, 5.0, 15.0, 0.000269)
    >>> [round(x, 4) for x in result.confidence_interval(0.95)]
    [0.3425, 0.9459]
    """

    form: str
    statistic: Any
    pvalue: Any
    f_statistic: Any
    df1: Any
    df2: Any
    icc0: float
    alternative: Alternative
    ms_items: Any
    ms_raters: Any
    ms_error: Any
    ms_within: Any
    df_items: Any
    df_raters: Any
    df_error: Any
    df_within: Any
    n_items: int
    n_raters: int
    n_ratings: Any
    n_items_omitted: int
    method: str
    _ms: MeanSquares
    _statistic_a1: np.ndarray
    _batched: bool

    def __getstate__(self) -> dict[str, Any]:
        # The mean squares travel as a dict, so a pickle names only wkappa.ICCResult.
        return {**self.__dict__, "_ms": dict(self._ms.__dict__)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update({**state, "_ms": MeanSquares(**state["_ms"])})

    @property
    def name(self) -> str:
        """'ICC(A,1)' and so on."""
        return f"ICC({self.form})"

    @property
    def shrout_fleiss(self) -> str:
        """Shrout & Fleiss's (1979) name: 'ICC1', 'ICC2', 'ICC3', 'ICC1k', 'ICC2k', 'ICC3k'."""
        return SHROUT_FLEISS[self.form]

    @property
    def description(self) -> str:
        """The model and the unit of the form in words."""
        return DESCRIPTIONS[self.form]

    @property
    def test_text(self) -> str:
        """The F test ``pvalue`` is of, in words: the null value and, for a one-sided
        test, the alternative it is against.

        Examples
        --------
        >>> import wkappa as wk
        >>> ratings = [[9, 2, 5], [6, 1, 3], [8, 4, 6], [7, 1, 2], [10, 5, 6]]
        >>> wk.icc(ratings).test_text
        'F test of ICC = 0, two-sided'
        >>> wk.icc(ratings, icc0=0.7, alternative="greater").test_text
        'F test of ICC = 0.7 against ICC > 0.7, one-sided'
        """
        if self.alternative == "two-sided":
            return f"F test of ICC = {self.icc0:g}, two-sided"
        sign = ">" if self.alternative == "greater" else "<"
        return f"F test of ICC = {self.icc0:g} against ICC {sign} {self.icc0:g}, one-sided"

    def confidence_interval(
        self, confidence_level: float = 0.95, *, method: Literal["F"] = "F"
    ) -> ConfidenceInterval:
        """The F-based interval (McGraw & Wong 1996, Table 7); ``method`` (the keyword every
        result's ``confidence_interval`` takes) can only be 'F'.

        The limits are exact for the one-way and consistency forms on a complete table, and
        approximate for absolute agreement (Satterthwaite's df) and with missing ratings
        (``method='reml'``), as :meth:`explain` says.

        One-way and consistency forms: ``F_L = F / F_{1-a/2}(df1, df2)``,
        ``F_U = F * F_{1-a/2}(df2, df1)``; absolute agreement: McGraw & Wong's limits with
        the Satterthwaite df ``v`` evaluated at the estimate. One-sided alternatives give a
        one-sided interval at ``confidence_level`` (upper end 1 for 'greater', lower end
        -inf for 'less': the F-based limits of the average-measure forms have no finite
        lower bound), the limit that of the two-sided interval at level
        ``2 * confidence_level - 1``; method is 'F'.
        """

        check_only_method(method, "F", icc_limits(self.form, self.method))

        def two_sided(level: float) -> ConfidenceInterval:
            low, high = limits(self.form, self._ms, self._statistic_a1, (1.0 - level) / 2.0)
            # F is 0/0, or 0 (every item with the same mean): nothing to invert (warned when
            # built)
            no_f = np.isnan(self.f_statistic) | _f_is_zero(self.f_statistic)
            low, high = np.where(no_f, np.nan, low), np.where(no_f, np.nan, high)
            return ConfidenceInterval(
                _scalar_or_array(low, self._batched),
                _scalar_or_array(high, self._batched),
                confidence_level=level,
                method="F",
            )

        return sided(two_sided, confidence_level, self.alternative, KAPPA_RANGE)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None; lists for a batch) with the interval."""
        ci = self.confidence_interval(confidence_level).to_dict()
        return json_fields(self, _ICC_FIELDS, confidence_interval=ci)

    def explain(self, confidence_level: float = 0.95, *, method: Literal["F"] = "F") -> str:
        """The computation in words and numbers: mean squares, the formula, test, interval.

        Parameters
        ----------
        confidence_level, method : float, {'F'}
            As in :meth:`confidence_interval`: the F-based limits at that level close the
            explanation.

        Returns
        -------
        str
            The model, the mean squares, the formula, the F test and the interval (a
            batch of features is explained one feature at a time).
        """
        if self._batched:
            return (
                f"{self.name} ({self.description}) of {len(self.statistic)} features, "
                f"{self.n_items} items x {self.n_raters} raters each; explain() one "
                "feature at a time: wk.icc(ratings[:, :, f], form=...).explain()"
            )
        ci = self.confidence_interval(confidence_level, method=method)
        flat = undefined_reason(self.form, self._ms) if undefined(self.form, self._ms) else None
        source = "mean squares from the " + (
            "two-way ANOVA of the complete table"
            if self.method == "anova"
            else "REML variance components (missing ratings), as expected mean squares"
        )
        if self.method == "none":
            source = "a rating is missing and nan_policy='propagate' makes every value nan"
        unrated = ""
        if self.n_items_omitted:
            items = "item" if self.n_items_omitted == 1 else "items"
            unrated = f" ({self.n_items_omitted} {items} without any rating left out)"
        lines = [
            f"{self.name} = Shrout & Fleiss {self.shrout_fleiss}: {self.description}",
            f"n = {self.n_items} items{unrated}, k = {self.n_raters} raters, "
            f"{self.n_ratings:g} ratings; {source}:",
            f"  MSR (items)   = {number_text(self.ms_items)}  df {self.df_items:g}",
            f"  MSC (raters)  = {number_text(self.ms_raters)}  df {self.df_raters:g}",
            f"  MSE (error)   = {number_text(self.ms_error)}  df {self.df_error:g}",
            f"  MSW (within)  = {number_text(self.ms_within)}  df {self.df_within:g}",
            f"ICC = {FORMULAS[self.form]} = {number_text(self.statistic, reason=flat)}",
            f"{self.test_text}: "
            f"F = {statistic_text(self.f_statistic, '.6g')} "
            f"on ({self.df1:g}, {number_text(self.df2)}) df, p = {number_text(self.pvalue)}",
            f"{level_text(ci, self.alternative)}interval {interval_text(ci.low, ci.high)} "
            f"({icc_limits(self.form, self.method)}, McGraw & Wong 1996)",
        ]
        split = disagreement_note(self, ci)
        if split is not None:
            lines.append(f"note: {split}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self._batched:
            return (
                f"ICCResult(form={self.form!r}, n_features={len(self.statistic)}, "
                f"n_items={self.n_items}, n_raters={self.n_raters}{self._omitted_repr()}, "
                f"method={self.method!r})"
            )
        ci = interval_repr(self.confidence_interval(), self.alternative)
        return (
            f"ICCResult(form={self.form!r}, statistic={self.statistic:.6g}, {ci}, "
            f"pvalue={self.pvalue:.6g}, "
            f"F={self.f_statistic:.6g}, df1={self.df1:g}, df2={self.df2:.6g}, "
            f"icc0={self.icc0:g}, alternative={self.alternative!r}, "
            f"n_items={self.n_items}, n_raters={self.n_raters}, n_ratings={self.n_ratings}"
            f"{self._omitted_repr()}, method={self.method!r})"
        )

    def _omitted_repr(self) -> str:
        """``, n_items_omitted=2`` where items were left out; nothing where none was."""
        return f", n_items_omitted={self.n_items_omitted}" if self.n_items_omitted else ""


def disagreement_note(result: ICCResult, ci: ConfidenceInterval) -> str | None:
    """What to say when the F test and the F-based interval ``ci`` of ``result`` disagree
    about ``icc0`` (one says p < 1 - level, the other holds icc0, or the reverse); None when
    they agree, for a batch, or when either is undefined.

    The absolute-agreement forms test with F on (df1, df2) df and take their interval from
    McGraw & Wong's limits with Satterthwaite's df: different F distributions, which near the
    line can fall on either side of it (the one-way and consistency forms' test and interval
    invert one F distribution and agree).
    """
    if result._batched:
        return None
    pvalue, low, high = float(result.pvalue), float(ci.low), float(ci.high)
    if np.isnan(pvalue) or np.isnan(low) or np.isnan(high):
        return None
    alpha = 1.0 - ci.confidence_level
    significant = bool(pvalue < alpha)
    excluded = not low <= result.icc0 <= high
    if significant == excluded:
        return None
    return (
        f"the F test (p {'<' if significant else '>='} {alpha:.4g}) and the "
        f"{level_percent(ci.confidence_level)} interval "
        f"({'which excludes' if excluded else 'which holds'} {result.icc0:g}) disagree: the "
        f"test's F on ({result.df1:g}, {number_text(result.df2)}) df and the interval's "
        "limits with Satterthwaite's df (an approximation) are different F distributions, "
        "which near the line can fall on either side of it"
    )


def build_result(
    form: str,
    ms: MeanSquares,
    icc0: float,
    alternative: Alternative,
    batched: bool,
    n_unrated: int = 0,
) -> ICCResult:
    """The result of ``form`` from the mean squares (scalars for one table, arrays of
    features when ``batched``); ``n_unrated``: the items left out for having no rating."""
    statistic = estimate(form, ms)
    statistic_a1 = statistic if form == "A,1" else estimate("A,1", ms)
    f_stat, df1, df2 = f_test(form, ms, icc0)
    # F = 0 (MSR = 0: every item has the same mean rating) is a point mass no F distribution
    # gives: its two-sided p would be 0 and its interval one point; both are nan (warned).
    p = np.where(_f_is_zero(f_stat), np.nan, pvalue(f_stat, df1, df2, alternative))

    def get(values: Any) -> Any:
        if not batched:
            return float(values)
        return _scalar_or_array(np.array(values, dtype=np.float64), batched)

    msr = ms.ms_targets_oneway if form[0] == "1" else ms.ms_targets
    n_ratings = get(ms.n_ratings) if batched else int(ms.n_ratings)
    return ICCResult(
        form=form,
        statistic=get(statistic),
        pvalue=get(p),
        f_statistic=get(f_stat),
        df1=get(df1),
        df2=get(df2),
        icc0=icc0,
        alternative=alternative,
        ms_items=get(ms.in_rating_units(msr)),
        ms_raters=get(ms.in_rating_units(ms.ms_raters)),
        ms_error=get(ms.in_rating_units(ms.ms_error)),
        ms_within=get(ms.in_rating_units(ms.ms_within)),
        df_items=get(ms.df_targets),
        df_raters=get(ms.df_raters),
        df_error=get(ms.df_error),
        df_within=get(ms.df_within),
        n_items=ms.n,
        n_raters=ms.k,
        n_ratings=n_ratings,
        n_items_omitted=n_unrated,
        method=ms.method,
        _ms=ms,
        _statistic_a1=statistic_a1,
        _batched=batched,
    )


def _f_is_zero(f_stat: Any) -> Any:
    """Where F is 0 up to rounding (MSR = 0: every item has the same mean rating; rounding
    leaves an F near 1e-32 where the means are equal decimals such as 0.1 and 0.2)."""
    return np.asarray(f_stat) <= ROUNDING


def _names(forms: list[str]) -> str:
    names = [f"ICC({form})" for form in forms]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def warn_if_undefined(results: Mapping[str, ICCResult]) -> None:
    """One :class:`UndefinedReliabilityWarning` per reason, at the caller's line, where a
    result's estimate is undefined (nan, with its interval: :func:`undefined`) or its F test
    is 0/0 although the estimate is defined."""
    reasons: dict[str, list[str]] = {}
    count = 0
    for form, result in results.items():
        ms = result._ms
        bad = np.atleast_1d(undefined(form, ms))
        test = np.atleast_1d(np.isnan(result.f_statistic) & ~np.isnan(ms.ms_error)) & ~bad
        zero = np.atleast_1d(_f_is_zero(result.f_statistic)) & ~bad
        if bad.any():
            one = ms.at(int(np.argmax(bad)))
            reasons.setdefault(undefined_reason(form, one), []).append(form)
            count = max(count, int(bad.sum()))
        for flat, reason in ((test, "F test"), (zero, "F of 0")):
            if flat.any():
                reasons.setdefault(f"{reason} of ICC = {result.icc0:g}", []).append(form)
                count = max(count, int(flat.sum()))
    batched = any(result._batched for result in results.values())
    where = f" for {count} feature(s)" if batched else ""
    texts, closing = [], ""
    for reason, forms in reasons.items():
        if reason.startswith("F test"):
            texts.append(
                f"The {reason} is undefined for {_names(forms)}{where}: MSR = MSE = 0 (the "
                "items differ in nothing, the raters by constant offsets only), so F is 0/0; "
                "its p and the F-based interval are nan."
            )
        elif reason.startswith("F of 0"):
            texts.append(
                f"The F test of ICC = {reason.rsplit(' ', 1)[-1]} is degenerate for "
                f"{_names(forms)}{where}: MSR = 0 (every item has the same mean rating), so "
                "F = 0, where no F distribution has any probability (the two-sided p would be "
                "0 and the interval a single point); its p and the F-based interval are nan. "
                "Hint: rate items that differ."
            )
        elif reason.startswith("every mean square"):
            texts.append(f"The ICC is undefined{where}: {reason}. Returning nan.")
        else:
            verb = "is" if len(forms) == 1 else "are"
            texts.append(f"{_names(forms)} {verb} undefined{where}: {reason}.")
            closing = (
                "Returning nan for the ICC and its interval (the F test is kept where F is "
                "defined and above 0)."
            )
    if texts:
        warn_at_caller(" ".join([*texts, closing]).strip(), UndefinedReliabilityWarning)


def _fit(ratings: Any, nan_policy: Any) -> tuple[MeanSquares, bool, int]:
    """The mean squares, whether there is a features axis, and the items left out for
    having no rating (:func:`rated_items`)."""
    policy = check_nan_policy(nan_policy)
    exact = centred_integers(ratings)
    names = None
    if exact is not None:  # integers beyond 2**53: their differences, exactly
        ratings, names = exact.arrays[0], exact.names[0]
    ms = plain_mean_squares(ratings)
    if ms is not None:  # a large complete float64 table: no reading pass
        return ms, False, 0
    read = read_numeric_ratings(ratings, nan_policy=policy, column_names=names)
    values, unrated = rated_items(read.values, policy)
    missing = int(np.isnan(values).sum()) if unrated else read.n_missing  # of the items kept
    ms = mean_squares(values, policy, missing, read.rater_names)
    return ms, values.ndim == 3, unrated


def icc(
    ratings: RatingMatrixLike,
    *,
    form: str = "A,1",
    icc0: float = 0.0,
    alternative: Alternative = "two-sided",
    nan_policy: NanPolicy = "omit",
) -> ICCResult:
    """Intraclass correlation of numeric ratings, one of McGraw & Wong's six forms.

    Parameters
    ----------
    ratings : array-like of shape (n, k)
        Rows are the n items (Shrout & Fleiss's targets, subjects), columns the k raters
        (judges, sessions), optionally a third axis of features (shape (n, k, features)); a numpy
        (masked) array, nested lists, or a pandas / polars DataFrame with one numeric column
        per rater. Missing ratings: NaN, None, null, masked. The features axis computes one
        ICC per feature in the same pass (thousands at once, e.g. test-retest imaging).
    form : str, default 'A,1'
        McGraw & Wong (1996): '1,1', 'A,1', 'C,1', '1,k', 'A,k', 'C,k'; or Shrout & Fleiss
        (1979): 'ICC1' (= '1,1'), 'ICC2' (= 'A,1'), 'ICC3' (= 'C,1'), 'ICC1k', 'ICC2k',
        'ICC3k'; 'ICC(2,1)' style spellings are accepted too. See the docs' table of names.
    icc0 : float, default 0.0
        The null value of the F test, in [0, 1).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Alternative of the test; the one-sided ones also make the interval one-sided.
    nan_policy : {'omit', 'raise', 'propagate'}, default 'omit'
        With missing ratings: 'omit' uses every rating there is (no listwise deletion):
        variance components by REML, see Notes; an item (row) without any rating is left
        out, as :func:`~wkappa.agreement` and ``wkappa icc`` leave it out (``n_items``
        counts the items rated, ``n_items_omitted`` those left out).
        'raise' refuses any missing rating; 'propagate' gives nan.

    Returns
    -------
    ICCResult

    Raises
    ------
    WkappaError
        Fewer than two items (rated items, under 'omit') or raters, a rater without any
        rating (under 'omit'), infinite or non-numeric ratings, a bad option.

    Warns
    -----
    wkappa.exceptions.UndefinedReliabilityWarning
        When the form's denominator, an estimated variance, is 0 (every rating equal; every
        item with the same mean rating for the 'k' forms; MSR = MSE = 0 for 'C,1'; n = k = 2
        with MSR = MSC = 0 for 'A,1') or, for 'A,k', below 0 (where 'A,1' < -1/(k-1)): the
        ICC and its interval are nan (never -inf or a value above 1); the F test is kept
        where F is defined and above 0. Also when that F is 0/0, or 0 (MSR = 0: every item
        has the same mean rating), where the F test's p and the interval are nan.

    Notes
    -----
    With ``n`` items, ``k`` raters and the two-way ANOVA mean squares MSR (items), MSC
    (raters), MSE (residual) and the one-way MSW (within items):

    ============  ============================================================
    form          estimate
    ============  ============================================================
    1,1 (ICC1)    ``(MSR - MSW) / (MSR + (k-1) MSW)``
    A,1 (ICC2)    ``(MSR - MSE) / (MSR + (k-1) MSE + k (MSC - MSE) / n)``
    C,1 (ICC3)    ``(MSR - MSE) / (MSR + (k-1) MSE)``
    1,k (ICC1k)   ``(MSR - MSW) / MSR``
    A,k (ICC2k)   ``(MSR - MSE) / (MSR + (MSC - MSE) / n)``
    C,k (ICC3k)   ``(MSR - MSE) / MSR``
    ============  ============================================================

    The test of ``ICC = icc0`` and the interval are McGraw & Wong's (1996, Tables 7-8):
    F ratios with (n-1, n(k-1)) or (n-1, (n-1)(k-1)) df, and for absolute agreement the
    Satterthwaite df ``v`` of ``a MSC + b MSE``. Quantiles of F are computed by wkappa itself
    (regularised incomplete beta), not scipy.

    **Missing ratings** (``nan_policy='omit'``): the crossed random-effects model
    ``x_ij = mu + t_i + r_j + e_ij`` (and the one-way ``x_ij = mu + t_i + e_ij`` for the
    '1,.' forms) is fitted by restricted maximum likelihood on every observed rating, as
    R's ``psych::ICC(lmer = TRUE)`` does with lme4; the ICCs are the variance-component
    ratios (``var_t / (var_t + var_r + var_e)`` for A,1 and so on, ``k`` = the number of
    rater columns for the '.,k' forms) and the test and interval use the mean squares those
    components imply with df from the number of observed ratings (an approximation; see the
    user guide's simulation). On complete ratings the ANOVA is used; REML gives the same
    values there whenever no variance component is negative.

    References: Shrout & Fleiss (1979), Psychological Bulletin 86(2): 420-428; McGraw &
    Wong (1996), Psychological Methods 1(1): 30-46.

    Examples
    --------
    Shrout & Fleiss's (1979) six targets rated by four judges:

    >>> import wkappa as wk
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...            [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> result = wk.icc(ratings, form="ICC2")
    >>> result.form, round(result.statistic, 4)
    ('A,1', 0.2898)
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), round(high, 3)
    (0.019, 0.761)
    >>> round(wk.icc(ratings, form="C,k").statistic, 4)
    0.9093
    """
    name = check_form(form)
    null = check_icc0(icc0)
    alt = check_alternative(alternative)
    ms, batched, unrated = _fit(ratings, nan_policy)
    result = build_result(name, ms, null, alt, batched, unrated)
    warn_if_undefined({name: result})
    return result


def icc_all(
    ratings: RatingMatrixLike,
    *,
    icc0: float = 0.0,
    alternative: Alternative = "two-sided",
    nan_policy: NanPolicy = "omit",
) -> dict[str, ICCResult]:
    """All six ICC forms from one pass over the ratings.

    Parameters are those of :func:`icc` (without ``form``).

    Returns
    -------
    dict
        McGraw & Wong's form name ('1,1', 'A,1', 'C,1', '1,k', 'A,k', 'C,k') to its
        :class:`ICCResult`.

    Examples
    --------
    >>> import wkappa as wk
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...            [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> {form: round(r.statistic, 2) for form, r in wk.icc_all(ratings).items()}
    {'1,1': 0.17, 'A,1': 0.29, 'C,1': 0.71, '1,k': 0.44, 'A,k': 0.62, 'C,k': 0.91}
    """
    null = check_icc0(icc0)
    alt = check_alternative(alternative)
    ms, batched, unrated = _fit(ratings, nan_policy)
    results = {form: build_result(form, ms, null, alt, batched, unrated) for form in FORMS}
    warn_if_undefined(results)
    return results
