"""Exact kappa-optimal thresholds for turning scores into ordinal grades.

With the truth fixed, both the observed disagreement ``Σ W∘O`` and the expected one
``Σ W∘E`` are sums over items of a term that depends only on (true class, assigned class), so
maximising kappa over monotone assignments is a fractional program. Dinkelbach's method turns
it into a sequence of separable problems, each solved exactly by a dynamic program over
tie-blocks x K (:mod:`wkappa._stats.threshold_dp`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    THRESHOLDS_NEED_ORDER,
    NanPolicy,
    WeightsLike,
    check_labels,
    check_one_dimensional,
    check_table_nan_policy,
    check_table_size,
    check_weights,
    encode_ratings,
    float_array,
    format_value,
    kappa_from_table,
    to_column,
    weighted_kappa,
    weights_name,
)
from ..exceptions import WkappaError
from .json_values import json_fields
from .text_values import interpretation, number_text
from .threshold_search import DinkelbachSearch, sort_problem, thresholds_of

__all__ = ["ThresholdResult", "apply_thresholds", "optimize_thresholds"]

_MAX_DP_CELLS = 2**28  # back pointers of the DP: blocks x K bytes


# --------------------------------------------------------------------------- result


@dataclass(frozen=True, eq=False)
class ThresholdResult:
    """Kappa-optimal thresholds found by :func:`optimize_thresholds`.

    Attributes
    ----------
    thresholds : ndarray of shape (K - 1,), float64
        Non-decreasing cut points; two coincide where the optimum leaves a class empty.
    statistic : float
        The weighted kappa reached on the data the thresholds were fitted on.
    labels : tuple
        The K categories, in order.
    n_iter : int
        Number of Dinkelbach iterations (dynamic programs solved).
    weights : str
        'quadratic', 'linear', 'unweighted' or 'custom'.
    exact : bool
        True when the last dynamic program and the stopping test ran in exact integer
        arithmetic, which proves the optimum; False when float64 was needed (non-integral
        custom weights or sample weights, or very large integer sums).

    Examples
    --------
    >>> import wkappa as wk
    >>> fit = wk.optimize_thresholds([0, 0, 1, 1, 2, 2], [0.1, 0.5, 0.4, 0.8, 0.9, 1.4])
    >>> fit.thresholds, fit.statistic, fit.exact
    (array([0.65, 0.85]), 0.8888888888888888, True)
    >>> fit.predict([0.3, 0.7, 2.0])
    array([0, 1, 2])
    """

    thresholds: np.ndarray
    statistic: float
    labels: tuple[Any, ...]
    n_iter: int
    weights: str = "quadratic"
    exact: bool = True

    def __post_init__(self) -> None:
        self.thresholds.setflags(write=False)

    def predict(self, y_score: npt.ArrayLike) -> np.ndarray:
        """Grades for new scores: see :func:`apply_thresholds` (same convention).

        Parameters
        ----------
        y_score : array-like of shape (m,)
            Real-valued scores, no NaN.

        Returns
        -------
        ndarray of shape (m,)
            One of the ``labels`` per score.
        """
        index = _class_index(_read_scores(y_score, "y_score", allow_inf=True), self.thresholds)
        labels: np.ndarray = np.asarray(self.labels)[index]
        return labels

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (nan becomes None): thresholds, statistic, labels, n_iter, weights,
        exact."""
        return json_fields(self, tuple(self.__dataclass_fields__))

    def explain(self) -> str:
        """The fit in words: the score range of each grade, the kappa reached and how far
        it can be trusted.

        Returns
        -------
        str
            Each grade's scores (right-closed: a score equal to a threshold takes the lower
            grade; a grade between two equal thresholds is never predicted), the kappa
            reached on the data the thresholds were fitted on, and whether the optimum is
            proved in exact arithmetic.

        Examples
        --------
        >>> import wkappa as wk
        >>> fit = wk.optimize_thresholds([0, 0, 1, 1, 2, 2, 3, 3],
        ...                              [0.1, 0.3, 0.2, 0.6, 0.5, 0.9, 0.8, 1.4])
        >>> print(fit.explain())  # doctest: +NORMALIZE_WHITESPACE
        Kappa-optimal thresholds for K = 4 grades [0, 1, 2, 3] (weights = 'quadratic'):
          grade 0: score <= 0.4
          grade 1: 0.4 < score <= 0.7
          grade 2: never predicted (its two thresholds are equal: 0.7)
          grade 3: score > 0.7
        kappa 0.875 (almost perfect, Landis & Koch) on the data the thresholds were fitted
          on: the largest kappa any cut points reach there, so higher than the kappa to
          expect on new data. Fit them on out-of-fold predictions and report kappa on
          held-out ones.
        Dinkelbach's method, 2 dynamic programs, in exact integer arithmetic: the global
          optimum over every monotone assignment of grades to scores, proved.
        """
        cuts = [repr(float(t)) for t in self.thresholds]
        k = len(self.labels)
        lines = [
            f"Kappa-optimal thresholds for K = {k} grades {list(self.labels)} "
            f"(weights = {self.weights!r}):"
        ]
        for i, label in enumerate(self.labels):
            if i == 0:
                scores = f"score <= {cuts[0]}"
            elif i == k - 1:
                scores = f"score > {cuts[-1]}"
            elif cuts[i - 1] == cuts[i]:
                scores = f"never predicted (its two thresholds are equal: {cuts[i]})"
            else:
                scores = f"{cuts[i - 1]} < score <= {cuts[i]}"
            lines.append(f"  grade {label!r}: {scores}")
        how = (
            "in exact integer arithmetic: the global optimum over every monotone assignment of "
            "grades to scores, proved."
            if self.exact
            else "in float64 (non-integral weights or very large sums): the global optimum up "
            "to float rounding."
        )
        lines += [
            f"kappa {number_text(self.statistic)} ({interpretation(self.statistic)}, "
            "Landis & Koch) on the data the thresholds were fitted on: the largest kappa any "
            "cut points reach there, so higher than the kappa to expect on new data. Fit them "
            "on out-of-fold predictions and report kappa on held-out ones.",
            f"Dinkelbach's method, {self.n_iter} dynamic program"
            f"{'' if self.n_iter == 1 else 's'}, {how}"
            if self.n_iter
            else "The scores order the grades without a single disagreement: no search needed.",
        ]
        return "\n".join(lines)


# --------------------------------------------------------------------------- scores


def _read_scores(y_score: Any, name: str, *, allow_inf: bool) -> np.ndarray:
    """Scores as float64, refusing NaN and (unless allowed) infinities."""
    values, missing = _score_column(y_score, name)
    if missing is not None and missing.any():
        position = int(np.flatnonzero(missing)[0])
        raise WkappaError(
            f"`{name}` has a missing score (NaN/None/NA) at position {position}. "
            "Hint: drop or impute those rows first."
        )
    if not allow_inf:
        _check_finite(values, name)
    return values


def _score_column(y_score: Any, name: str) -> tuple[np.ndarray, np.ndarray | None]:
    shape: tuple[int, ...] = tuple(getattr(y_score, "shape", ()))
    if len(shape) == 2 and shape[1] > 1:  # a column per class (a column vector: to_column)
        check_one_dimensional(name, shape)
    column = to_column(y_score, name)
    if column.categories is not None or column.values.dtype.kind not in "biuf":
        raise WkappaError(
            f"`{name}` must hold real-valued scores (any float or integer dtype); got "
            f"{'categories' if column.categories is not None else column.values.dtype}."
        )
    values = column.values.astype(np.float64)
    return values, column.missing


def _check_finite(values: np.ndarray, name: str) -> None:
    finite = np.isfinite(values)
    if not finite.all():
        position = int(np.flatnonzero(~finite)[0])
        raise WkappaError(
            f"`{name}` contains {float(values[position])!r} at position {position}; scores must be "
            "finite to place thresholds between them."
        )


def _class_index(scores: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """Number of thresholds strictly below each score."""
    index: np.ndarray = np.searchsorted(thresholds, scores, side="left").astype(np.int64)
    return index


def _check_thresholds(thresholds: Any) -> np.ndarray:
    if isinstance(thresholds, ThresholdResult):
        raise WkappaError(
            "`thresholds` must be the K - 1 cut points; got a ThresholdResult. Hint: "
            "result.predict(y_score) grades scores with the result's labels; or pass "
            "result.thresholds."
        )
    array = float_array(thresholds, "`thresholds` must be a 1-D sequence of numbers", copy=True)
    if array.ndim != 1 or array.size == 0:
        raise WkappaError(
            f"`thresholds` must be a non-empty 1-D sequence of K - 1 cut points; got shape "
            f"{array.shape}."
        )
    if not np.isfinite(array).all():
        raise WkappaError(
            f"`thresholds` must be finite; got {format_value(array.tolist())}. "
            "Hint: drop infinite outer edges: K classes need only the K - 1 inner cut points."
        )
    decreasing = np.flatnonzero(np.diff(array) < 0)
    if decreasing.size:
        i = int(decreasing[0])
        raise WkappaError(
            f"`thresholds` must be non-decreasing; thresholds[{i}] = {float(array[i])!r} > "
            f"thresholds[{i + 1}] = {float(array[i + 1])!r}. "
            "Hint: np.sort them if the order of the classes is right."
        )
    return array


def apply_thresholds(
    y_score: npt.ArrayLike,
    thresholds: npt.ArrayLike,
    *,
    labels: npt.ArrayLike | None = None,
) -> np.ndarray:
    """Turn real-valued scores into ordinal grades with K - 1 cut points.

    Parameters
    ----------
    y_score : array-like of shape (n,)
        Scores of any integer or float dtype; no NaN (infinities go to the end classes).
    thresholds : array-like of shape (K - 1,)
        Finite, non-decreasing cut points. Equal neighbours are allowed: the class between
        them is then never predicted.
    labels : sequence of K categories, optional
        The grades to return; class indices ``0..K-1`` without it.

    Returns
    -------
    ndarray of shape (n,)
        ``labels[i]`` where i is the number of thresholds strictly below the score.

    Notes
    -----
    Classes are right-closed intervals ``(t_{i-1}, t_i]``: a score equal to a threshold falls
    in the *lower* class, as with ``pd.cut`` (and unlike ``np.digitize``'s default). This is
    ``np.searchsorted(thresholds, y_score, side="left")``, the convention
    :meth:`ThresholdResult.predict` uses.

    Examples
    --------
    >>> import wkappa as wk
    >>> wk.apply_thresholds([0.2, 0.5, 0.7, 2.0], [0.5, 1.5])
    array([0, 0, 1, 2])
    >>> wk.apply_thresholds([0.2, 0.7, 2.0], [0.5, 0.5], labels=["low", "mid", "high"])
    array(['low', 'high', 'high'], dtype='<U4')
    """
    cut = _check_thresholds(thresholds)
    scores = _read_scores(y_score, "y_score", allow_inf=True)
    index = _class_index(scores, cut)
    if labels is None:
        return index
    label_array = check_labels(labels)
    if len(label_array) != len(cut) + 1:
        raise WkappaError(
            f"`labels` must have len(thresholds) + 1 = {len(cut) + 1} entries; got "
            f"{len(label_array)}."
        )
    grades: np.ndarray = label_array[index]
    return grades


# --------------------------------------------------------------------------- the search


def _prepare(
    y_true: Any,
    y_score: Any,
    *,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    sample_weight: Any,
    nan_policy: NanPolicy,
) -> tuple[np.ndarray, np.ndarray, tuple[Any, ...], np.ndarray | None]:
    """Validate and encode: (true index, float64 scores, labels, sample weight)."""
    scores, score_missing = _score_column(y_score, "y_score")
    true_column = to_column(y_true, "y_true")
    n = len(true_column.values)
    if n != len(scores):
        raise WkappaError(
            f"`y_true` and `y_score` must have the same length; got {n} and {len(scores)}."
        )
    if n == 0:
        raise WkappaError("`y_true` and `y_score` are empty; there is nothing to fit.")
    true_missing = true_column.missing
    if nan_policy == "raise":
        for name, missing in (("y_true", true_missing), ("y_score", score_missing)):
            if missing is not None and missing.any():
                position = int(np.flatnonzero(missing)[0])
                raise WkappaError(
                    f"`{name}` has a missing value (NaN/None/NA) at position {position}. "
                    "Hint: nan_policy='omit' drops incomplete pairs."
                )
    encoded = encode_ratings(
        y_true,
        y_true,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=sample_weight,
        nan_policy=nan_policy,
        order_needed_by=THRESHOLDS_NEED_ORDER,
    )
    assert encoded is not None
    truth = encoded.true_index
    weight = encoded.sample_weight
    if true_missing is not None:
        scores = scores[~true_missing]
        score_missing = None if score_missing is None else score_missing[~true_missing]
    if score_missing is not None:
        keep = ~score_missing
        truth, scores = truth[keep], scores[keep]
        weight = None if weight is None else weight[keep]
    if len(scores) == 0:
        raise WkappaError("No complete (y_true, y_score) pair is left after nan_policy='omit'.")
    _check_finite(scores, "y_score")
    return truth, scores, tuple(encoded.labels), weight


def optimize_thresholds(
    y_true: npt.ArrayLike,
    y_score: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
    nan_policy: NanPolicy = "raise",
) -> ThresholdResult:
    """The K - 1 cut points on ``y_score`` that maximise weighted kappa against ``y_true``.

    The global optimum over every monotone assignment of grades to scores (tied scores share
    a grade), found exactly, not by a local search such as Kaggle's Nelder-Mead
    "OptimizedRounder". Fit them on out-of-fold predictions, never on the predictions of a
    model for its own training data.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True grades: integers, or any categories with ``labels`` (as in
        :func:`~wkappa.weighted_kappa`). At least two grades must occur.
    y_score : array-like of shape (n,)
        Real-valued scores of any integer or float dtype (compared as float64); finite.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights, as in :func:`~wkappa.weighted_kappa`.
    labels : sequence of K categories, optional
        The grades in order. Without it: every integer from ``min_rating`` to ``max_rating``
        (by default the range of ``y_true``), or an ordered categorical's categories.
    min_rating, max_rating : int, optional
        Bounds of the integer grades, to allow grades that ``y_true`` does not contain.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite weight of each item.
    nan_policy : {'raise', 'omit'}, default 'raise'
        A missing value in ``y_true`` or ``y_score`` raises, or drops its pair.

    Returns
    -------
    ThresholdResult
        ``thresholds``, ``statistic`` (the kappa reached), ``labels``, ``n_iter``, ``exact``,
        ``predict(y_score)`` and ``to_dict()``.

    Notes
    -----
    Let ``t_k`` be the true index and ``c_k`` the assigned class of item k with weight
    ``w_k``, ``r_i`` the weight of true class i and ``T = Σ w``. Then

    .. math::

        N(c) = \\sum_k w_k W_{t_k c_k}, \\qquad D(c) = \\sum_k w_k u_{c_k}, \\quad
        u_j = \\sum_i W_{ij} r_i, \\qquad \\kappa = 1 - T \\frac{N(c)}{D(c)}.

    Dinkelbach's method: from λ = N(c)/D(c), solve ``min_c N(c) - λ D(c)`` over
    non-decreasing class sequences along the sorted scores by a dynamic program over
    tie-blocks x K (O(n K) per iteration after the O(n log n) sort); repeat while λ strictly
    decreases. When it no longer does, λ is the global minimum of N/D, for any weight matrix.

    With integral weights (quadratic, linear, unweighted, integer custom matrices) and
    integral sample weights, the dynamic program and the stopping test run in exact integer
    arithmetic whenever the sums fit in int64 (``exact=True``, roughly n <= 1e5 for K = 10).
    Otherwise the dynamic program runs in float64 (the stopping test stays exact for
    integral weights; with non-integral ones it stops when λ no longer strictly decreases
    in float64), and the optimum is exact up to float rounding.

    Each threshold lies midway between the neighbouring distinct scores of the two classes
    it separates (``a <= t < b``, also between adjacent floats), or half a gap outside the
    range of the scores when the lowest or highest classes stay empty. A score equal to a
    threshold falls in the lower class (see :func:`apply_thresholds`), so
    ``result.predict(y_score)`` reproduces the optimal assignment exactly and
    ``weighted_kappa(y_true, result.predict(y_score), labels=result.labels)`` equals
    ``result.statistic``.

    Examples
    --------
    >>> import wkappa as wk
    >>> y_true = [0, 0, 1, 1, 2, 2, 3, 3]
    >>> y_score = [0.1, 0.3, 0.2, 0.6, 0.5, 0.9, 0.8, 1.4]
    >>> result = wk.optimize_thresholds(y_true, y_score)
    >>> result.thresholds
    array([0.4, 0.7, 0.7])
    >>> result.predict(y_score)
    array([0, 0, 0, 1, 1, 3, 3, 3])
    >>> result.statistic
    0.875

    Grade 2 is never predicted: the two equal thresholds leave it empty, which is what
    maximises kappa here.
    """
    checked = check_weights(weights)
    policy = check_table_nan_policy(nan_policy, "threshold fitting")
    truth, scores, label_tuple, weight = _prepare(
        y_true,
        y_score,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=sample_weight,
        nan_policy=policy,
    )
    k = len(label_tuple)
    check_table_size(
        k, hint="Hint: pass labels= with the grades you use, or a narrower min_rating/max_rating."
    )
    problem = sort_problem(scores, truth, weight)
    if len(problem.values) * k > _MAX_DP_CELLS:
        raise WkappaError(
            f"{len(problem.values)} distinct scores x K = {k} grades is too large for the "
            "exact search. Hint: round the scores to fewer distinct values."
        )
    search = DinkelbachSearch(problem, checked, k)
    classes, table, n_iter, exact = search.run()
    if weight is None:  # an exact int64 table: the very float weighted_kappa returns
        statistic = kappa_from_table(table, weights=checked, zero_division="raise")
    else:
        # Weighted counts are floats in the core; go through its labels= path, as a user
        # checks it, so that weighted_kappa(y_true, result.predict(y_score),
        # labels=result.labels, sample_weight=...) gives the same bits.
        assigned = np.empty(len(scores), dtype=np.int64)
        assigned[problem.order] = np.repeat(classes, np.diff(problem.starts))
        statistic = weighted_kappa(
            truth, assigned, weights=checked, labels=np.arange(k), sample_weight=weight
        )
    return ThresholdResult(
        thresholds=thresholds_of(classes, problem.values, k),
        statistic=statistic,
        labels=label_tuple,
        n_iter=n_iter,
        weights=weights_name(checked),
        exact=exact,
    )
