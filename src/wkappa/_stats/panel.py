"""Is a candidate rater as good as a panel member? :func:`rater_vs_panel`."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    COEFFICIENTS,
    AgreementWeightsLike,
    Alternative,
    Coefficient,
    NanPolicy,
    RaterColumns,
    RatingMatrixLike,
    agreement_weight_matrix,
    check_agreement_weights,
    check_alternative,
    check_choice,
    check_label_spellings,
    check_labels,
    check_rater_apart,
    check_rating_bounds,
    check_table_nan_policy,
    coefficient_from_sums,
    conger_features,
    distinct_rows,
    encode_rating_matrix,
    features,
    missing_rows,
    needs_order,
    one_rater,
    rater_names,
    read_rater_matrix,
    rows_to_counts,
    stack_raters,
    value_labels,
    warn_at_caller,
)
from ..exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError
from .agreement_diagnostics import pairwise
from .agreement_result import COEFFICIENT_NAMES
from .bootstrap import drop_undefined, expanded_interval, too_few_items
from .bootstrap_method import SeedLike, check_resamples, make_rng
from .cluster import check_clusters, read_groups, warn_few_clusters
from .intervals import (
    DIFFERENCE_RANGE,
    ConfidenceInterval,
    check_only_method,
    difference_repr,
    level_text,
    sided,
)
from .json_values import json_fields
from .paired_bootstrap import comparison_pvalue
from .resampling import DrawSums, multinomial_replicates
from .results import ExpandedPercentile
from .several import VALUE_WEIGHTS, rating_rows
from .text_values import interval_text, number_text, sign_words

__all__ = ["PanelComparison", "rater_vs_panel"]

# What nan_policy='omit' does, in the hint of a missing rating under 'raise'.
_OMIT = "(the default) computes each pair's coefficient on the items both raters rated"

_PANEL_FIELDS = (  # the keys of to_dict(), in order
    "candidate_agreement panel_agreement difference confidence_interval pvalue alternative "
    "candidate_vs_members member_pairs n_items coefficient weights n_clusters?"
)


@dataclass(frozen=True, eq=False, repr=False)
class PanelComparison:
    """A candidate rater's agreement with a panel against the panel's own agreement.

    Made by :func:`~wkappa.rater_vs_panel`.

    Attributes
    ----------
    candidate_agreement : float
        Mean over panel members j of the two-rater coefficient (candidate, j). A member
        without any rating takes no part (here and below).
    panel_agreement : float
        Mean over pairs of panel members (j, l) of the coefficient (j, l).
    difference : float
        ``candidate_agreement - panel_agreement``: below 0, the candidate agrees with the
        members less than they agree with each other.
    pvalue : float
        Bootstrap p-value of H0: difference = 0 against ``alternative``: the expanded
        percentile interval (:meth:`confidence_interval`) inverted, as in
        :func:`~wkappa.paired_kappa_test`.
    candidate_vs_members : ndarray of shape (P,)
        The coefficient of the candidate with each member (nan for a member without
        ratings).
    member_pairs : ndarray of shape (P, P)
        The coefficients of the member pairs (diagonal 1, nan for a member without
        ratings, as in :meth:`AgreementResult.pairwise`).
    n_items : int
        Items with at least one rating.
    coefficient, weights : str
    n_resamples : int
        Bootstrap replicates drawn.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        The side of :meth:`confidence_interval` ('greater': ``(low, inf)``, 'less':
        ``(-inf, high)``); also the H1 of ``pvalue``.
    n_clusters : int or None
        With ``cluster=``: the G clusters the bootstrap resampled (the interval and p-value
        are expanded with G instead of n).

    Examples
    --------
    >>> import wkappa as wk
    >>> panel = [[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, 1], [3, 3, 2], [2, 2, 1], [1, 1, 1],
    ...          [3, 2, 3]]
    >>> candidate = [1, 2, 3, 1, 2, 2, 1, 3]
    >>> result = wk.rater_vs_panel(panel, candidate, n_resamples=999, rng=0)
    >>> round(result.candidate_agreement, 4), round(result.panel_agreement, 4)
    (0.6205, 0.3753)
    >>> round(result.difference, 4), result.n_resamples
    (0.2452, 999)
    """

    candidate_agreement: float
    panel_agreement: float
    difference: float
    pvalue: float
    candidate_vs_members: np.ndarray = field(repr=False)
    member_pairs: np.ndarray = field(repr=False)
    n_items: int
    coefficient: str
    weights: str
    n_resamples: int
    _differences: np.ndarray = field(repr=False)
    alternative: Alternative = "two-sided"
    n_clusters: int | None = None

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: ExpandedPercentile = "expanded-percentile",
    ) -> ConfidenceInterval:
        """The expanded percentile item-bootstrap interval of the difference, one-sided as
        ``alternative`` (the matching limit of the two-sided interval at level
        ``2 * confidence_level - 1``).

        The bootstrap differences' quantiles at
        ``Phi(± sqrt(n / (n - 1)) t_{n-1,(1+level)/2})`` (Hesterberg 2015; the paired test's
        interval: the plain percentile interval undercovers at small n); replicates with an
        undefined coefficient are dropped and counted in ``n_undefined``.

        Parameters
        ----------
        confidence_level : float, default 0.95
        method : {'expanded-percentile'}
            The only method (the keyword every result's ``confidence_interval`` takes).

        Returns
        -------
        ConfidenceInterval
        """
        check_only_method(method, "expanded-percentile", "the interval of a bootstrap difference")
        return sided(
            lambda level: expanded_interval(
                self._differences,
                self.difference,
                level,
                self.n_items if self.n_clusters is None else self.n_clusters,
                self.n_resamples,
            ),
            confidence_level,
            self.alternative,
            DIFFERENCE_RANGE,
        )

    @property
    def name(self) -> str:
        """The two-rater coefficient's name: Conger's kappa of two raters is "Cohen's kappa",
        Gwet's coefficient "Gwet's AC1", or "Gwet's AC2" with weights."""
        if self.coefficient == "conger":
            return "Cohen's kappa"
        if self.coefficient == "gwet" and self.weights != "unweighted":
            return "Gwet's AC2"
        return COEFFICIENT_NAMES[self.coefficient]

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the interval."""
        ci = self.confidence_interval(confidence_level)
        return json_fields(self, _PANEL_FIELDS, confidence_interval=ci)

    def explain(
        self, confidence_level: float = 0.95, *, method: ExpandedPercentile = "expanded-percentile"
    ) -> str:
        """The computation in words and numbers.

        Parameters
        ----------
        confidence_level, method : float, {'expanded-percentile'}
            Those of :meth:`confidence_interval`, whose interval of the candidate's
            difference to the panel the explanation prints.

        Returns
        -------
        str
            The two mean coefficients, their difference, its interval and p-value.
        """
        ci = self.confidence_interval(confidence_level, method=method)
        members = len(self.candidate_vs_members)
        rated = int(np.count_nonzero(~np.isnan(np.diag(self.member_pairs))))
        some = f" ({rated} of its {members} members have ratings)" if rated < members else ""
        units = (
            f"{self.n_items} items" if self.n_clusters is None else f"{self.n_clusters} clusters"
        )
        pairs = rated * (rated - 1) // 2
        dropped = (
            f", {ci.n_undefined} with an undefined coefficient left out" if ci.n_undefined else ""
        )
        return "\n".join(
            [
                f"A candidate rater against a panel of {members} members{some}: "
                f"{self.name} of each pair of raters "
                f"({self.weights}), {self.n_items} items",
                f"candidate vs members  {number_text(self.candidate_agreement)}"
                f"  (mean of the {rated} "
                "two-rater coefficients of the candidate with each member)",
                f"members vs members    {number_text(self.panel_agreement)}  (mean over the "
                f"{pairs} {'pair' if pairs == 1 else 'pairs'} of members)",
                f"difference            {number_text(self.difference)}  "
                + sign_words(
                    self.difference,
                    "the candidate agrees with the members more than they agree with each other",
                    "the candidate agrees with the members less than they agree with each other",
                ),
                f"{level_text(ci, self.alternative)}interval "
                f"{interval_text(ci.low, ci.high)} (expanded percentile bootstrap, "
                f"{self.n_resamples} resamples of the {units}{dropped}); p-value "
                f"{number_text(self.pvalue, '.4g')} (H0: difference = 0, {self.alternative})",
            ]
        )

    def __repr__(self) -> str:
        return (
            "PanelComparison("
            + difference_repr(self, "candidate_agreement", "panel_agreement")
            + f", n_items={self.n_items}, coefficient={self.coefficient!r}, "
            f"weights={self.weights!r}"
            + ("" if self.n_clusters is None else f", resampling {self.n_clusters} clusters")
            + ")"
        )


def _combine(
    ratings: Any, candidate: Any, labels: Any, bounds: tuple[Any, Any], nan_policy: NanPolicy
) -> np.ndarray | RaterColumns:
    """The panel's columns and the candidate's (last), read as every items x raters input is
    (frames, categoricals and Enums with their order, masked arrays); a rating of the
    candidate outside ``labels`` or ``bounds`` (min_rating, max_rating), or not a whole
    number, is refused naming `candidate` and its item (the matrix's encoder would say
    `ratings` and a rater)."""
    if isinstance(candidate, str) and hasattr(ratings, "columns"):
        raise WkappaTypeError(
            f"`candidate` is the string {candidate!r}: pass the candidate's ratings, or use "
            f"wkappa.frames.rater_vs_panel(df, candidate={candidate!r}, raters=[...]) to name "
            "data frame columns (item=, rater=, rating= for a long layout)."
        )
    if np.ndim(ratings) == 1 and np.ndim(candidate) == 2:
        raise WkappaError(
            f"`ratings` is 1-D and `candidate` {np.shape(candidate)[0]} x "
            f"{np.shape(candidate)[1]}: rater_vs_panel takes the panel first. Hint: "
            "rater_vs_panel(panel, candidate), the panel as items x raters."
        )
    panel = read_rater_matrix(ratings, "ratings", "rater_vs_panel")
    n, members = panel.shape
    candidate_rater = one_rater(candidate, "candidate")
    column = candidate_rater.columns[0]
    if len(column.values) != n:
        raise WkappaError(
            f"`candidate` has {len(column.values)} ratings but the panel rated {n} items; "
            "they must match."
        )
    # The candidate's missing ratings under 'raise', named as the candidate's (the panel's
    # are refused by its encoder, naming the member).
    missing_rows([("candidate", column)], nan_policy, omit=_OMIT, propagate=False)
    if members < 2:
        raise WkappaError(
            f"`ratings` (the panel) has {members} rater column; the panel needs at least two "
            "members to measure how well members agree with each other. Hint: for one "
            "reference rater, compare the two with wkappa.kappa_test(reference, candidate)."
        )
    lo, hi = check_rating_bounds(*bounds, labels)
    label_array = None if labels is None else check_labels(labels)
    where = _candidate_place(panel, candidate, candidate_rater.names[0])
    if label_array is not None:  # 'Great' beside the label 'great': said as for the panel
        check_label_spellings(
            [("candidate", column)],
            labels,
            where=lambda _, __, item: f"of `candidate` {where.format(item)}",
        )
    check_rater_apart(column, label_array, lo, hi, "candidate", where)
    numeric = column.categories is None and column.values.dtype.kind in "biuf"
    if isinstance(panel, np.ndarray) and numeric:
        values = column.values
        if column.missing is not None:
            values = np.where(column.missing, np.nan, values.astype(np.float64))
        return stack_raters([panel, values[:, None]])
    return stack_raters([panel, candidate_rater])


def _value_labels(ratings: Any, candidate: Any, bounds: tuple[Any, Any], weights: str) -> Any:
    """Gwet's value weights take numbers that are not whole as categories as they are, as
    :func:`~wkappa.agreement` does: the sorted distinct values of the panel and the candidate
    together, or None (whole numbers, labels, or input that :func:`_combine` refuses in its
    own words)."""
    try:
        together = stack_raters(
            [read_rater_matrix(ratings, "ratings", "rater_vs_panel"), one_rater(candidate, "c")]
        )
    except WkappaError:
        return None
    return value_labels(together, None, *bounds, f"weights={weights!r}", None)[1]


def _candidate_place(panel: np.ndarray | RaterColumns, candidate: Any, named: str) -> str:
    """Where a refused rating of the candidate is, ``{}`` standing for its item: at its item
    (and a named Series' column), or, when ``wkappa.frames`` rebuilt the rows (the panel's
    raters are then placed without an item), by the candidate alone, as the panel's raters
    are: ``in column 'judge'``, or ``from rater 'judge'`` in the long layout."""
    if isinstance(panel, RaterColumns) and panel.places is not None:
        if panel.places[0].startswith("from rater"):
            return f"from rater {getattr(candidate, 'name', None)!r}"
        return f"in {named}"
    return "at item {}" if named == "`candidate`" else f"at item {{}}, {named}"


def _pair_features(
    coefficient: str, rows: np.ndarray, a: int, b: int, k: int, weights: np.ndarray
) -> np.ndarray:
    """Features of the pair (a, b) on each distinct row; rows lacking either rating are zero
    (the item is not in this pair's data)."""
    sub = rows[:, [a, b]]
    both = (sub >= 0).all(axis=1)
    if coefficient == "conger":
        out = conger_features(sub, k, weights)
    else:
        out = features(rows_to_counts(sub, k), weights)
    out[~both] = 0.0
    return out


def rater_vs_panel(
    ratings: RatingMatrixLike,
    candidate: npt.ArrayLike,
    *,
    coefficient: Coefficient = "conger",
    weights: AgreementWeightsLike = "unweighted",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    n_resamples: int = 9999,
    rng: SeedLike = None,
    cluster: npt.ArrayLike | None = None,
    alternative: Alternative = "two-sided",
) -> PanelComparison:
    """Does a candidate rater (a model, an LLM judge, a trainee) agree with a panel as well as
    the panel's members agree with each other?

    Parameters
    ----------
    ratings : array-like of shape (n_items, P)
        The panel: rows are items, columns the P >= 2 members; missing = NaN / None.
    candidate : array-like of shape (n_items,)
        The candidate's ratings of the same items.
    coefficient : {'conger', 'fleiss', 'gwet', 'brennan_prediger', 'krippendorff', 'percent'}
        The two-rater coefficient computed for every pair, named as in
        :func:`~wkappa.agreement` ('conger': Conger's kappa of two raters, which is Cohen's
        weighted kappa, computed by :func:`~wkappa.weighted_kappa`'s exact statistic).
    weights, labels, min_rating, max_rating
        As in :func:`~wkappa.agreement` (a weight matrix that is not symmetric acts through
        ``(W + W') / 2`` there, and so here for every coefficient, Cohen's included).
    nan_policy : {'omit', 'raise'}, default 'omit'
        A missing rating (NaN, None, pandas NA) of a member or of the candidate: 'omit' (the
        default, as :func:`~wkappa.agreement`'s) computes each pair's coefficient on the
        items both raters rated; 'raise' refuses it. 'propagate' is not meaningful for a
        comparison result and raises, as in :func:`~wkappa.paired_kappa_test`.
    n_resamples : int, default 9999
        Bootstrap replicates. The item bootstrap needs at least 3 items: on 1 or 2 (2 have
        only 3 distinct resamples) the interval and the p-value are nan, with an
        :class:`~wkappa.exceptions.UndefinedKappaWarning`.
    rng : None, int, SeedSequence or Generator
        Seed of the bootstrap.
    cluster : array-like of shape (n_items,), optional
        The cluster of each item (the prompts of one task, the lesions of one scan): the
        bootstrap then resamples whole clusters, and the expanded interval uses G clusters
        instead of n items. Any hashable ids, at least 2 clusters; no missing id, except
        for an item without any rating.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        H1 of the p-value: the candidate's agreement differs from the panel's, is greater
        (``difference > 0``) or is less. The result's interval follows it (one-sided with
        'greater'/'less').

    Returns
    -------
    PanelComparison

    Notes
    -----
    **What it tests.** With ``c(x, y)`` the coefficient of two raters over the items both
    rated, the statistic is ``D = mean_j c(candidate, j) - mean_{j<l} c(j, l)``: the
    candidate's average agreement with the members minus the members' average agreement with
    each other. ``D = 0`` means that, on these items, the candidate is interchangeable with a
    typical member as far as average pairwise agreement goes; ``D < 0`` that it agrees less.
    A member without a single rating (an annotator who took no part in this batch) takes no
    part in ``D``, as a rater without ratings in :func:`~wkappa.agreement`; with fewer than
    two members with ratings the comparison is nan, with a warning that says so.
    The interval and p-value come from resampling *items* (a multinomial draw over the
    distinct rating rows, candidate and members together, so every pair's coefficient is
    recomputed on the same resampled items); the raters are held fixed, so the conclusion is
    about this panel, not about raters in general. To show the candidate is *not worse* than
    a member by more than a margin ``delta``, check that the lower end of the interval is
    above ``-delta`` (a non-inferiority reading of the same interval). The interval is the
    expanded percentile interval of :func:`~wkappa.paired_kappa_test` (the plain percentile
    interval is too narrow at small n); replicates in which a coefficient is undefined are
    dropped and counted in ``n_undefined``.

    Examples
    --------
    >>> import numpy as np
    >>> import wkappa as wk
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 4, 300)
    >>> panel = np.column_stack([np.where(rng.random(300) < 0.8, truth, rng.integers(0, 4, 300))
    ...                          for _ in range(3)])
    >>> model = np.where(rng.random(300) < 0.5, truth, rng.integers(0, 4, 300))
    >>> result = wk.rater_vs_panel(panel, model, n_resamples=999, rng=1)
    >>> result.difference < 0, result.pvalue < 0.01
    (True, True)
    >>> result.confidence_interval().high < 0
    True
    """
    check_choice(coefficient, "coefficient", COEFFICIENTS)
    name = coefficient
    n_resamples = check_resamples(n_resamples)
    sided_as = check_alternative(alternative)
    generator = make_rng(rng)
    checked = check_agreement_weights(weights)
    policy = check_table_nan_policy(nan_policy, "a comparison result")
    if labels is None and isinstance(checked, str) and checked in VALUE_WEIGHTS:
        labels = _value_labels(ratings, candidate, (min_rating, max_rating), checked)
    combined = _combine(ratings, candidate, labels, (min_rating, max_rating), policy)
    if cluster is None:
        read = rating_rows(
            combined, labels, min_rating, max_rating, needs_order(checked), policy, False
        )
        assert read is not None
        rows, multiplicity, categories, _ = read
    else:
        rows, multiplicity, categories, cluster_of = _clustered_rows(
            combined, labels, (min_rating, max_rating), needs_order(checked), cluster, policy
        )
    if not (rows[:, -1] >= 0).any():
        warn_at_caller(
            "`candidate` has no ratings (every entry is missing), so its agreement with the "
            "panel is undefined. Returning nan.",
            UndefinedKappaWarning,
        )
    k = len(categories)
    label, matrix = agreement_weight_matrix(checked, k, name, categories)
    members = rows.shape[1] - 1
    # A member without any rating takes no part, as a rater without ratings in agreement():
    # the pairs are those of the members with ratings (and its entries of the result nan).
    active = [j for j in range(members) if (rows[:, j] >= 0).any()]
    size = len(active)
    pairs = [(members, j) for j in active]
    pairs += [(j, m) for i, j in enumerate(active) for m in active[i + 1 :]]
    # A replicate's multiplicities sum to n, or with clusters to at most n times the number
    # of clusters; the sums of the drawn items are the same on every CPU.
    n_items = int(multiplicity.sum())
    bound = n_items if cluster is None else n_items * (int(cluster_of.max()) + 1)
    blocks = [DrawSums(_pair_features(name, rows, a, b, k, matrix), bound) for a, b in pairs]

    def statistics(weights_matrix: np.ndarray) -> np.ndarray:
        values = np.empty((weights_matrix.shape[0], len(pairs)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for index, block in enumerate(blocks):
                values[:, index] = coefficient_from_sums(
                    name, block(weights_matrix), matrix, 2
                ).statistic
        return values

    point = statistics(multiplicity.astype(np.float64)[None, :])[0]
    if name == "conger":
        # Cohen's kappa of each pair by the two-rater statistic (exact for named weights):
        # the same numbers as wkappa.weighted_kappa on the pair's common items.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            exact = pairwise(rows, multiplicity, matrix)
        point = np.array([exact[a, b] for a, b in pairs])
    with_candidate = point[:size]
    among = point[size:]
    candidate_mean = float(with_candidate.mean()) if size >= 2 else math.nan
    panel_mean = float(among.mean()) if size >= 2 else math.nan
    difference = candidate_mean - panel_mean
    if (rows[:, -1] >= 0).any():
        _warn_undefined(rows, pairs, point, _member_names(combined, members))

    n = int(multiplicity.sum())

    def difference_of(replicate: np.ndarray) -> np.ndarray:
        values = statistics(replicate)
        out: np.ndarray = values[:, :size].mean(axis=1) - values[:, size:].mean(axis=1)
        return out

    n_clusters = None
    few = None
    if cluster is None and not math.isnan(difference):
        few = too_few_items(n, n_resamples)
    if size < 2:  # no pair of members: nothing to resample (warned above)
        differences = np.full(n_resamples, math.nan)
    elif few is not None:
        differences = few
    elif cluster is None:
        differences = multinomial_replicates(generator, multiplicity, n_resamples, difference_of)
    else:  # resample clusters: a drawn cluster brings all its items
        n_clusters = int(cluster_of.max()) + 1
        warn_few_clusters(n_clusters, resampled=True)
        differences = multinomial_replicates(
            generator,
            np.ones(n_clusters, dtype=np.int64),
            n_resamples,
            lambda draws: difference_of(draws[:, cluster_of] * multiplicity),
            len(multiplicity),
        )
    pvalue = math.nan
    if not math.isnan(difference) and few is None:  # (either has warned already)
        defined, _ = drop_undefined(differences, "difference")
        pvalue = comparison_pvalue(defined, n if n_clusters is None else n_clusters, sided_as)
    # As AgreementResult.pairwise(): the diagonal is 1, nan for a member without ratings.
    rated = ((rows[:, :members] >= 0) & (multiplicity[:, None] > 0)).any(axis=0)
    member_pairs = np.full((members, members), math.nan)
    member_pairs[np.diag_indices(members)] = np.where(rated, 1.0, math.nan)
    for (a, b), value in zip(pairs[size:], among, strict=True):
        member_pairs[a, b] = member_pairs[b, a] = value
    versus = np.full(members, math.nan)
    versus[active] = with_candidate
    return PanelComparison(
        candidate_agreement=candidate_mean,
        panel_agreement=panel_mean,
        difference=difference,
        pvalue=pvalue,
        candidate_vs_members=versus,
        member_pairs=member_pairs,
        n_items=n,
        coefficient=coefficient,
        weights=label,
        n_resamples=n_resamples,
        _differences=differences,
        n_clusters=n_clusters,
        alternative=sided_as,
    )


def _member_names(combined: np.ndarray | RaterColumns, members: int) -> list[str]:
    """How a message names each member: as every message names a rater (``column 'ann_1'``,
    ``rater 0`` of an array), or by its id when ``wkappa.frames`` rebuilt a long layout's
    rows (``rater 'ann_1'``)."""
    if not isinstance(combined, RaterColumns):
        return list(rater_names(None, members))
    places = combined.places or ("",) * members
    return [
        place.removeprefix("from ") if place.startswith("from rater ") else name
        for name, place in zip(combined.names[:members], places, strict=False)
    ]


def _warn_undefined(
    rows: np.ndarray, pairs: list[tuple[int, int]], point: np.ndarray, names: list[str]
) -> None:
    """Warn, with the reason, when the comparison is undefined: fewer than two members with
    ratings, or pairs whose coefficient is undefined (named by the members' ``names``, with
    why)."""
    members = len(names)
    active = sum(1 for a, _ in pairs if a == members)
    if active < 2:
        verb = "has" if active == 1 else "have"
        warn_at_caller(
            f"only {active} of the {members} panel members {verb} ratings, so the members' "
            "agreement among themselves is undefined and so is the comparison. Returning nan. "
            "Hint: a panel needs two or more members who rated items.",
            UndefinedKappaWarning,
        )
        return
    reasons = []
    for (a, b), value in zip(pairs, point, strict=True):
        if not math.isnan(value):
            continue
        who = f"the candidate and {names[b]}" if a == members else f"{names[a]} and {names[b]}"
        shared = bool(((rows[:, a] >= 0) & (rows[:, b] >= 0)).any())
        reasons.append(
            f"{who} share no rated item"
            if not shared
            else f"{who}: undefined (for example both use one and the same category)"
        )
    if reasons:
        shown = "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")
        warn_at_caller(
            f"{len(reasons)} of the {len(pairs)} two-rater coefficients (the candidate with "
            f"each member, the members with each other) are undefined ({shown}), so the "
            "comparison is undefined. Returning nan.",
            UndefinedKappaWarning,
        )


def _clustered_rows(
    combined: np.ndarray | RaterColumns,
    labels: Any,
    bounds: tuple[Any, Any],
    ordered: bool,
    cluster: Any,
    nan_policy: NanPolicy,
) -> tuple[np.ndarray, np.ndarray, Any, np.ndarray]:
    """The distinct (rating row, cluster) pairs: rows, multiplicities, categories and the
    cluster code ``0..G-1`` of each row (clusters without a rated item dropped)."""
    encoded = encode_rating_matrix(
        combined,
        labels=labels,
        min_rating=bounds[0],
        max_rating=bounds[1],
        ordered=ordered,
        nan_policy=nan_policy,
        propagate=False,
    )
    assert encoded is not None
    codes = encoded.codes
    rated = np.asarray((codes >= 0).any(axis=1))  # an item without ratings: its id is left out
    groups, _ = read_groups(
        cluster, len(codes), "cluster", unit="item", like="`candidate`", keep=rated
    )
    used, groups = np.unique(groups, return_inverse=True)
    check_clusters(np.ones((len(used), 1, 1)))
    distinct, multiplicity = distinct_rows(np.column_stack([codes[rated], groups]))
    return distinct[:, :-1], multiplicity, encoded.labels, distinct[:, -1].astype(np.intp)
