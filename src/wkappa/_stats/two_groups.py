"""Agreement between two independent groups of raters: :func:`group_agreement`.

Vanbelle & Albert's (2009) kappa: how well the consensus of one group of raters (students,
a model's samples, a site's readers) agrees with the consensus of another group (experts) on
the same items, allowing for the disagreement inside each group.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .._core import (
    AgreementWeightsLike,
    Alternative,
    NanPolicy,
    RaterColumns,
    RatingMatrixLike,
    agreement_weight_matrix,
    check_agreement_weights,
    check_alternative,
    check_choice,
    check_nan_policy,
    encode_rating_matrix,
    format_value,
    needs_order,
    no_ratings_error,
    read_rater_matrix,
    stack_raters,
    t_ppf,
    value_labels,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError
from .bootstrap import replicate_interval, too_few_items
from .bootstrap_method import BootstrapMethod, make_rng
from .intervals import (
    KAPPA_RANGE,
    ConfidenceInterval,
    estimate_repr,
    level_text,
    resampled_text,
    sided,
    warn_undefined_inference,
)
from .json_values import json_fields
from .pvalues import tail_pvalue, wald_statistic
from .resampling import DrawSums, jackknife_se, jackknife_values, multinomial_replicates
from .several import VALUE_WEIGHTS
from .text_values import interval_text, number_text

__all__ = ["GroupAgreementResult", "GroupIntervalMethod", "group_agreement"]

# The methods of GroupAgreementResult.confidence_interval (and so of its explain).
GroupIntervalMethod = Literal["jackknife-t", "bootstrap", "percentile", "bca"] | BootstrapMethod

_GROUP_FIELDS = (  # the keys of to_dict(), in order
    "statistic standard_error confidence_interval pvalue bias_corrected "
    "observed_agreement chance_agreement maximum_agreement n_items n_raters_a n_raters_b "
    "weights alternative"
)


@dataclass(frozen=True, eq=False, repr=False)
class GroupAgreementResult:
    """Vanbelle & Albert's kappa between two groups of raters, with its jackknife SE.

    Made by :func:`~wkappa.group_agreement`.

    Attributes
    ----------
    statistic : float
        ``(Po - Pe) / (Pm - Pe)`` (see :func:`~wkappa.group_agreement`).
    standard_error : float
        Leave-one-item-out jackknife standard error.
    pvalue : float
        H0: kappa = 0 against ``alternative``, from ``statistic / standard_error`` referred to
        Student's t with ``n_items - 1`` degrees of freedom.
    bias_corrected : float
        The jackknife bias-corrected estimate ``n * statistic - (n - 1) * mean_i kappa_(i)``
        (the value R kappaGold's ``kappam_vanbelle`` reports).
    observed_agreement, chance_agreement, maximum_agreement : float
        ``Po``, ``Pe`` and ``Pm``, with agreement weights ``A = 1 - W / max W``.
    n_items : int
        Items rated by both groups.
    n_raters_a, n_raters_b : int
        Raters (columns) in each group.
    labels : tuple
        The categories.
    weights : str
    alternative : {'two-sided', 'greater', 'less'}
        H1 of ``pvalue`` and the side of :meth:`confidence_interval`.

    Examples
    --------
    >>> import wkappa as wk
    >>> group_a = [[2, 2, 1], [1, 1, 1], [3, 3, 2], [2, 3, 3], [1, 1, 2], [3, 3, 3]]
    >>> group_b = [[2, 2], [1, 1], [3, 3], [3, 3], [1, 2], [3, 3]]
    >>> result = wk.group_agreement(group_a, group_b, weights="linear")
    >>> round(result.statistic, 4), round(result.standard_error, 4)
    (0.7912, 0.1184)
    >>> round(result.observed_agreement, 4), round(result.maximum_agreement, 4)
    (0.875, 0.963)
    """

    statistic: float
    standard_error: float
    pvalue: float
    bias_corrected: float
    observed_agreement: float
    chance_agreement: float
    maximum_agreement: float
    n_items: int
    n_raters_a: int
    n_raters_b: int
    labels: tuple[Any, ...]
    weights: str
    alternative: Alternative = "two-sided"
    _features: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)), repr=False)
    _agree: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)), repr=False)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: GroupIntervalMethod = "jackknife-t",
    ) -> ConfidenceInterval:
        """The interval of kappa, one-sided as ``alternative``.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {'jackknife-t', 'bootstrap', 'percentile', 'bca'} or BootstrapMethod
            'jackknife-t' (default): ``statistic ± t_{n-1,(1+level)/2} * standard_error``.
            'percentile' / 'bca' ('bootstrap' = 'bca') or a :class:`~wkappa.BootstrapMethod`:
            the item bootstrap (both groups' ratings of a drawn item come together; the
            raters stay fixed); replicates with an undefined kappa are dropped and counted.

        Returns
        -------
        ConfidenceInterval
        """
        how = method if isinstance(method, BootstrapMethod) else None
        if how is None:
            name = check_choice(
                method,
                "method",
                ("jackknife-t", "bootstrap", "percentile", "bca"),
                listed="'jackknife-t', 'bootstrap', 'percentile', 'bca' or a BootstrapMethod(...)",
            )
            if name != "jackknife-t":
                how = BootstrapMethod(method="percentile" if name == "percentile" else "bca")
        two_sided = functools.partial(self._two_sided, how=how)
        return sided(two_sided, confidence_level, self.alternative, KAPPA_RANGE)

    def _two_sided(self, level: float, how: BootstrapMethod | None) -> ConfidenceInterval:
        if how is None:
            if math.isnan(self.standard_error):
                return ConfidenceInterval(math.nan, math.nan, level, "jackknife-t")
            half = t_ppf(0.5 + level / 2.0, self.n_items - 1) * self.standard_error
            high = min(self.statistic + half, 1.0)
            return ConfidenceInterval(self.statistic - half, high, level, "jackknife-t")
        if math.isnan(self.statistic):  # undefined or propagated: nothing to resample
            return ConfidenceInterval(
                math.nan, math.nan, level, how.method, how.n_resamples, how.n_resamples
            )
        if too_few_items(self.n_items, how.n_resamples, pvalue=False) is not None:
            return ConfidenceInterval(math.nan, math.nan, level, how.method)  # nothing drawn
        units = self._features
        sums = DrawSums(units, len(units))  # the same on every CPU
        values = multinomial_replicates(
            make_rng(how.rng),
            np.ones(len(units), dtype=np.int64),
            how.n_resamples,
            lambda draws: _kappas(sums(draws), self._agree),
            units.shape[1],
        )
        outcome = replicate_interval(
            values,
            lambda: (self.statistic, *jackknife_values(units, np.ones(len(units)), self._kappa)),
            level,
            how.method,
        )
        return ConfidenceInterval(*outcome[:2], level, how.method, how.n_resamples, outcome[2])

    def _kappa(self, sums: np.ndarray) -> np.ndarray:
        return _kappas(sums, self._agree)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the jackknife interval."""
        ci = self.confidence_interval(confidence_level)
        return json_fields(self, _GROUP_FIELDS, confidence_interval=ci)

    def explain(
        self, confidence_level: float = 0.95, *, method: GroupIntervalMethod = "jackknife-t"
    ) -> str:
        """The computation in words and numbers.

        Parameters
        ----------
        confidence_level, method : float, {'jackknife-t', 'percentile', 'bca', ...}
            Those of :meth:`confidence_interval` (0.95, 'jackknife-t'); a bootstrap is named
            with its resamples.

        Returns
        -------
        str
            Po, Pe, Pm, kappa, its jackknife standard error, the interval and the p-value.
        """
        ci = self.confidence_interval(confidence_level, method=method)
        how = resampled_text(ci) + ", items redrawn" * bool(ci.n_resamples)
        equal = (
            "Pm = Pe (for example every rating in one category)"
            if self.maximum_agreement == self.chance_agreement
            else None
        )
        return "\n".join(
            [
                f"Vanbelle & Albert's kappa between two groups ({self.weights}), "
                f"{self.n_items} items, {self.n_raters_a} + {self.n_raters_b} raters, "
                f"K = {len(self.labels)} categories {format_value(list(self.labels))}",
                f"observed agreement  Po = {number_text(self.observed_agreement)}"
                "  (mean over items of "
                "sum_kl a_kl p_ik(A) p_il(B), p = each group's share of ratings)",
                f"chance agreement    Pe = {number_text(self.chance_agreement)}  (the groups' mean "
                "shares, independent)",
                f"maximum agreement   Pm = {number_text(self.maximum_agreement)}"
                "  (mean over items of "
                "the larger within-group agreement)",
                f"kappa  (Po - Pe) / (Pm - Pe) = {number_text(self.statistic, reason=equal)}",
                f"standard error {number_text(self.standard_error)}"
                " (leave-one-item-out jackknife); "
                f"bias-corrected estimate {number_text(self.bias_corrected)}",
                f"{level_text(ci, self.alternative)}interval "
                f"{interval_text(ci.low, ci.high)} ({how or f't with {self.n_items - 1} df'}); "
                f"p-value of kappa = 0 ({self.alternative}) {number_text(self.pvalue, '.4g')}",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"GroupAgreementResult({estimate_repr(self)}, pvalue={self.pvalue:.6g}, "
            f"n_items={self.n_items}, n_raters=({self.n_raters_a}, {self.n_raters_b}), "
            f"weights={self.weights!r})"
        )


def _columns(ratings: Any, name: str) -> tuple[np.ndarray | RaterColumns, int, int]:
    """One group's ratings read as every items x raters input is (frames, categoricals,
    masked arrays), with its numbers of items and raters (at least two raters)."""
    read = read_rater_matrix(ratings, name, None)
    n, n_raters = read.shape
    if n_raters < 2:
        raise WkappaError(
            f"`{name}` has {n_raters} rater(s); a group needs at least two raters "
            "(for one rater against a group use wkappa.rater_vs_panel)."
        )
    return read, n, n_raters


def _shares(codes: np.ndarray, k: int) -> np.ndarray:
    """Each item's share of the group's ratings in each category (missing codes -1 skipped)."""
    counts = np.stack([(codes == c).sum(axis=1) for c in range(k)], axis=1).astype(np.float64)
    shares: np.ndarray = counts / counts.sum(axis=1, keepdims=True)
    return shares


def _kappas(sums: np.ndarray, agree: np.ndarray) -> np.ndarray:
    """Kappa from sums over items of the features ``[1, between, within, p(A), p(B)]``,
    shape (B, 3 + 2K) -> (B,): the means are the sums over the first column."""
    k = agree.shape[0]
    means = sums / sums[:, :1]
    chance = np.einsum("bk,kl,bl->b", means[:, 3 : 3 + k], agree, means[:, 3 + k :])
    with np.errstate(divide="ignore", invalid="ignore"):
        out: np.ndarray = (means[:, 1] - chance) / (means[:, 2] - chance)
    return out


def group_agreement(
    ratings_a: RatingMatrixLike,
    ratings_b: RatingMatrixLike,
    *,
    weights: AgreementWeightsLike = "unweighted",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    alternative: Alternative = "two-sided",
) -> GroupAgreementResult:
    """Agreement between two independent groups of raters on the same items (Vanbelle &
    Albert 2009).

    Parameters
    ----------
    ratings_a, ratings_b : array-like of shape (n_items, n_raters)
        The two groups' ratings: rows are the same items in both, columns the raters (at
        least two per group, not necessarily as many in one as in the other); missing = NaN /
        None.
    weights : str or (K, K) array, default 'unweighted'
        Disagreement weights W, as in :func:`~wkappa.agreement`: 'unweighted', 'linear',
        'quadratic', Gwet's 'ordinal', 'radical', 'ratio', 'circular', 'bipolar', or a
        matrix; the agreement weights are ``A = 1 - W / max W``.
    labels, min_rating, max_rating
        The categories, as in :func:`~wkappa.agreement` (shared by both groups).
    nan_policy : {'omit', 'raise', 'propagate'}, default 'omit'
        'omit': each group's shares use the ratings it has, and items that one group did not
        rate at all are dropped; 'raise' refuses missing ratings; 'propagate' returns nan.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        H1 of the p-value (kappa = 0 under H0) and the side of the interval.

    Returns
    -------
    GroupAgreementResult

    Warns
    -----
    wkappa.exceptions.UndefinedKappaWarning
        When kappa is undefined (``Pm = Pe``), or when it is defined but its jackknife
        standard error, interval and p-value are not (kappa is undefined without one of the
        items, as can happen with 2 or 3 items; or every item left out gives the same kappa,
        so the jackknife's spread of 0 measures nothing, as with 2 items or items all alike,
        unless kappa is 1): those are nan.

    Notes
    -----
    With ``p_ik(g)`` the share of group g's raters who put item i in category k and
    ``a_kl`` the agreement weights,

    * ``Po = (1/n) sum_i sum_kl a_kl p_ik(A) p_il(B)``: the chance that a random rater of
      group A and a random rater of group B agree on a random item;
    * ``Pe = sum_kl a_kl pbar_k(A) pbar_l(B)`` with ``pbar(g)`` the mean of ``p_i(g)``;
    * ``Pm = (1/n) sum_i max(sum_kl a_kl p_ik(A) p_il(A), sum_kl a_kl p_ik(B) p_il(B))``:
      the largest ``Po`` the items' shares allow;

    and ``kappa = (Po - Pe) / (Pm - Pe)``, which is 1 when the two groups' shares are equal on
    every item, however much each group's raters disagree among themselves. The standard
    error is the leave-one-item-out jackknife (as in R kappaGold's ``kappam_vanbelle``); the
    interval is ``kappa ± t_{n-1} SE``, or the item bootstrap
    (:meth:`~wkappa.GroupAgreementResult.confidence_interval`). On the paper's
    script-concordance data (39 students, 11 experts, 34 items, linear weights) it gives 0.715
    with SE 0.0487 (the paper: 0.72, 0.049). The groups are held fixed: the SE and the
    bootstrap are over items, not over raters. In simulation (``benchmarks/
    two_groups_study.py``) the jackknife-t interval covered 0.951-0.964 from 20 items.

    References
    ----------
    Vanbelle, S. & Albert, A. (2009). Agreement between two independent groups of raters.
    Psychometrika 74, 477-491.

    Examples
    --------
    >>> import wkappa as wk
    >>> students = [[1, 1, 2], [2, 2, 2], [3, 2, 3], [1, 1, 1], [3, 3, 3]]
    >>> experts = [[1, 1], [2, 2], [3, 3], [1, 2], [3, 3]]
    >>> result = wk.group_agreement(students, experts)
    >>> round(result.statistic, 4), round(result.standard_error, 4)
    (0.65, 0.1663)
    """
    policy = check_nan_policy(nan_policy)
    sided_as = check_alternative(alternative)
    checked = check_agreement_weights(weights)
    first, n_items, r_a = _columns(ratings_a, "ratings_a")
    second, n_b, r_b = _columns(ratings_b, "ratings_b")
    if n_items != n_b:
        raise WkappaError(
            f"`ratings_a` has {n_items} items and `ratings_b` {n_b}; both "
            "groups must rate the same items (one row per item in each)."
        )
    options: dict[str, Any] = {
        "labels": labels,
        "min_rating": min_rating,
        "max_rating": max_rating,
        "ordered": needs_order(checked),
        "nan_policy": policy,
    }
    try:
        stacked = stack_raters([first, second], ("ratings_a", "ratings_b"))
        if isinstance(checked, str) and checked in VALUE_WEIGHTS:  # values that are not whole
            stacked, options["labels"], _ = value_labels(
                stacked, labels, min_rating, max_rating, f"weights={checked!r}", None
            )
        encoded = encode_rating_matrix(stacked, **options)
    except WkappaError as error:
        if "no ratings at all" in str(error):
            raise WkappaError(
                "`ratings_a` and `ratings_b` have no ratings at all: every entry is missing."
            ) from None
        # Name the group at fault: the error of the first group that fails alone (a rating
        # outside labels, inf, a missing one under 'raise'); else the pair's together.
        for part, group in ((first, "ratings_a"), (second, "ratings_b")):
            encode_rating_matrix(stack_raters([part]), **options, name=group)
        raise
    k_labels = tuple(encoded.labels) if encoded is not None else ()
    if encoded is None:  # nan_policy='propagate' with a missing rating
        nan = math.nan
        name = checked if isinstance(checked, str) else "custom"
        return GroupAgreementResult(
            nan, nan, nan, nan, nan, nan, nan, n_items, r_a, r_b, k_labels, name, sided_as
        )
    codes = encoded.codes
    for name, part in (("ratings_a", codes[:, :r_a]), ("ratings_b", codes[:, r_a:])):
        if not (part >= 0).any():
            raise no_ratings_error(name)
    rated = (codes[:, :r_a] >= 0).any(axis=1) & (codes[:, r_a:] >= 0).any(axis=1)
    if rated.sum() < 2:
        raise WkappaError(
            f"Only {int(rated.sum())} item(s) rated by both `ratings_a` and `ratings_b`; "
            "two groups' kappa and its jackknife SE need at least two."
        )
    k = len(k_labels)
    label, disagreement = agreement_weight_matrix(checked, k, "fleiss", k_labels)
    top = float(disagreement.max())
    agree = 1.0 - disagreement / top if top > 0 else np.ones((k, k))
    p_a = _shares(codes[rated, :r_a], k)
    p_b = _shares(codes[rated, r_a:], k)
    between = np.einsum("ik,kl,il->i", p_a, agree, p_b)
    within = np.maximum(
        np.einsum("ik,kl,il->i", p_a, agree, p_a), np.einsum("ik,kl,il->i", p_b, agree, p_b)
    )
    n = len(between)
    features = np.column_stack([np.ones(n), between, within, p_a, p_b])
    ones = np.ones(n)
    statistic = float(_kappas(features.sum(axis=0)[None, :], agree)[0])
    if (agree >= 1.0).all():  # every pair of categories agrees: Po = Pe = Pm = 1, so 0/0
        statistic = math.nan  # (rounding in the sums made it 1)
    if math.isnan(statistic):
        warn_at_caller(
            "Two groups' kappa is undefined: the most agreement the items allow equals chance "
            "agreement (Pm = Pe, e.g. every rating in one category). Returning nan.",
            UndefinedKappaWarning,
        )
    left_out, _ = jackknife_values(features, ones, lambda sums: _kappas(sums, agree))
    se = jackknife_se(left_out, ones) if not math.isnan(statistic) else math.nan
    if se < 1e-12 and statistic < 1.0 - 1e-12:
        # Every item left out gives the same kappa (two items, or items all alike): a spread
        # of 0 measures nothing, unlike perfect agreement, where every replicate is 1.
        se = math.nan
        warn_undefined_inference(
            "two groups' kappa",
            f"leaving any one of the {n} items out gives the same kappa "
            f"({statistic:.4g}), so the jackknife's standard error is 0",
        )
    elif math.isnan(se) and not math.isnan(statistic):
        undefined = int(np.count_nonzero(~np.isfinite(left_out)))
        warn_undefined_inference(
            "two groups' kappa",
            f"the jackknife leaves each item out in turn, and with {undefined} of the {n} "
            "items left out the kappa is undefined",
        )
    bias_corrected = statistic - (n - 1) * (float(left_out.mean()) - statistic)
    pvalue = tail_pvalue(wald_statistic(statistic, 0.0, se), sided_as, n - 1)
    po, pm = float(between.mean()), float(within.mean())
    pe = float(p_a.mean(axis=0) @ agree @ p_b.mean(axis=0))
    estimates = (statistic, se, pvalue, bias_corrected, po, pe, pm)
    return GroupAgreementResult(*estimates, n, r_a, r_b, k_labels, label, sided_as, features, agree)
