"""scikit-learn integration: kappa scorers and :class:`OrdinalThresholdRegressor`.

Needs the ``sklearn`` extra (``pip install 'wkappa[sklearn]'``); ``import wkappa`` never imports
scikit-learn.

* :data:`qwk_scorer` and :func:`make_kappa_scorer` score label predictions with
  (quadratic) weighted kappa, for ``GridSearchCV(scoring=...)`` or ``cross_val_score``.
* :class:`OrdinalThresholdRegressor` turns any regressor into an ordinal grader: it fits the
  kappa-optimal thresholds (:func:`wkappa.optimize_thresholds`) on *out-of-fold* predictions,
  then refits the regressor on all the data.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import import_optional

import_optional("sklearn", "sklearn")

from sklearn import get_config  # noqa: E402
from sklearn.base import (  # noqa: E402
    BaseEstimator,
    ClassifierMixin,
    MetaEstimatorMixin,
    clone,
    is_classifier,
)
from sklearn.metrics import make_scorer  # noqa: E402
from sklearn.model_selection import check_cv, cross_val_predict  # noqa: E402
from sklearn.utils import check_consistent_length, get_tags  # noqa: E402
from sklearn.utils.metadata_routing import (  # noqa: E402
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.validation import (  # noqa: E402
    check_is_fitted,
    column_or_1d,
    has_fit_parameter,
)

from ._core import (  # noqa: E402
    THRESHOLDS_NEED_ORDER,
    EncodedRatings,
    WeightsLike,
    ZeroDivision,
    check_labels,
    check_rating_bounds,
    check_weights,
    check_zero_division,
    encode_ratings,
    encode_with_labels,
    format_value,
    missing_rating_error,
    to_column,
    weight_matrix,
    weighted_kappa,
)
from ._stats import ThresholdResult, apply_thresholds, optimize_thresholds  # noqa: E402
from .exceptions import WkappaError, WkappaTypeError  # noqa: E402

__all__ = ["OrdinalThresholdRegressor", "make_kappa_scorer", "qwk_scorer"]


def _check_kappa_options(
    weights: Any, labels: Any, min_rating: Any, max_rating: Any
) -> str | np.ndarray:
    """The checked ``weights``, after the checks ``weighted_kappa`` would make of these options
    on every call (a scorer built wrong fails here, not as a NaN score in every fold)."""
    checked = check_weights(weights)
    lo, hi = check_rating_bounds(min_rating, max_rating, labels)
    k = None
    if labels is not None:
        k = len(check_labels(labels))
    elif lo is not None and hi is not None:
        k = hi - lo + 1
    if k is not None and isinstance(checked, np.ndarray):
        weight_matrix(checked, k)  # the shape check of a custom matrix
    return checked


def _one_column(values: Any) -> Any:
    """An (n, 1) column of grades as its n grades; anything else as it is."""
    if getattr(values, "ndim", None) == 2 and values.shape[1] == 1:
        return values.iloc[:, 0] if hasattr(values, "iloc") else np.asarray(values)[:, 0]
    return values


def _kappa_of_grades(y_true: Any, y_pred: Any, **options: Any) -> float:
    """:func:`~wkappa.weighted_kappa` for a scorer: an (n, 1) column of grades (what
    ``CatBoostClassifier.predict`` returns) is read as its n grades, as scikit-learn's own
    metrics read it."""
    y_true, y_pred = _one_column(y_true), _one_column(y_pred)
    weights = options["weights"]
    if options["labels"] is None and not (isinstance(weights, str) and weights == "unweighted"):
        _refuse_text_grades(y_true)
    return weighted_kappa(y_true, y_pred, **options)


def _refuse_text_grades(y_true: Any) -> None:
    """Refuse text grades in no known order, naming the scorer's option that gives one."""
    column = to_column(y_true, "y_true")
    if column.categories is not None:
        if column.ordered:
            return
        sample = list(column.categories)
    elif column.values.dtype.kind in "US" or (
        column.values.dtype.kind == "O"
        and any(isinstance(value, str) for value in column.values[:1000].tolist())
    ):
        sample = sorted({str(value) for value in column.values[:1000].tolist()})
    else:
        return
    shown = format_value(sample[:4]) + (" ..." if len(sample) > 4 else "")
    raise WkappaError(
        f"The grades are text ({shown}), in no order the scorer can know, and weighted kappa "
        "needs their order. Hint: build the scorer with it, make_kappa_scorer(labels=[...]) "
        "listing the grades from lowest to highest (make_kappa_scorer('unweighted') needs "
        "none)."
    )


def make_kappa_scorer(
    weights: WeightsLike = "quadratic",
    *,
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    zero_division: ZeroDivision = "warn",
) -> Any:
    """A scikit-learn scorer computing weighted kappa of label predictions (greater is better).

    Parameters
    ----------
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights, as in :func:`wkappa.weighted_kappa`.
    labels, min_rating, max_rating
        Fix the categories, as in :func:`wkappa.weighted_kappa`. Without them each fold's
        categories are the integers between the smallest and largest grade in that fold.
    zero_division : {'warn', 'raise'} or float, default 'warn'
        The score of a fold where kappa is undefined (the truth and the predictions are one
        and the same grade): nan with a warning, an error, or this value. A search scores a
        candidate whose fold is nan as nan and ranks it last; ``zero_division=0.0`` scores
        such a fold as no agreement beyond chance instead.

    Returns
    -------
    scorer
        A scikit-learn scorer whose repr is this call (``make_kappa_scorer(weights=
        'linear')``), for ``GridSearchCV(scoring=...)``, ``cross_val_score(scoring=...)``.
        The estimator must predict grades (a classifier or
        :class:`OrdinalThresholdRegressor`); raw regression outputs are refused with a hint,
        never silently truncated. Predictions in an (n, 1) column, as
        ``CatBoostClassifier.predict`` returns them, are read as n grades.

    Examples
    --------
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from wkappa.sklearn import make_kappa_scorer
    >>> X = [[0], [1], [2], [3], [4], [5]] * 5
    >>> y = [0, 0, 1, 1, 2, 2] * 5
    >>> scorer = make_kappa_scorer("linear")
    >>> cross_val_score(DecisionTreeClassifier(), X, y, scoring=scorer, cv=3).tolist()
    [1.0, 1.0, 1.0]
    """
    checked = _check_kappa_options(weights, labels, min_rating, max_rating)
    undefined = check_zero_division(zero_division)
    options = {} if undefined == "warn" else {"zero_division": undefined}
    scorer = make_scorer(
        _kappa_of_grades,
        weights=checked,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        **options,
    )
    scorer.__class__ = _KappaScorer
    given = {
        "weights": checked if isinstance(checked, str) else checked.tolist(),
        "labels": None if labels is None else np.asarray(labels).tolist(),
        "min_rating": min_rating,
        "max_rating": max_rating,
        **options,
    }
    text = ", ".join(f"{key}={value!r}" for key, value in given.items() if value is not None)
    scorer.call = f"make_kappa_scorer({text})"
    return scorer


class _KappaScorer(type(make_scorer(_kappa_of_grades))):  # type: ignore[misc]
    """scikit-learn's scorer of :func:`make_kappa_scorer`, shown as the call that builds it
    (scikit-learn's own repr names the private function it wraps)."""

    call: str

    def __repr__(self) -> str:
        return self.call


qwk_scorer = make_kappa_scorer("quadratic")
"""Quadratic weighted kappa scorer: ``make_kappa_scorer("quadratic")``.

One object, shared by every importer of :mod:`wkappa.sklearn`. ``set_score_request`` changes
the scorer it is called on, so to weight scores under scikit-learn's metadata routing build a
scorer of your own: ``make_kappa_scorer().set_score_request(sample_weight=True)``.
"""


def _check_grades(y: Any, labels: Any) -> None:
    """Refuse a missing grade in ``y``, or one not among ``labels``, naming ``y`` (the
    estimator's parameter) rather than the ``y_true`` of the kappa functions."""
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) == 2 and shape[1] > 1:
        raise WkappaError(
            f"`y` must hold one grade per row; got shape {tuple(shape)}, a column per class "
            "(one-hot rows?). Hint: pass each row's grade, such as y.argmax(axis=1) for "
            "one-hot rows (plus the first grade if it is not 0)."
        )
    column = to_column(y, "y")
    if column.missing is not None and column.missing.any():
        raise missing_rating_error("y", int(np.flatnonzero(column.missing)[0]), omit=None)
    if labels is not None:
        encode_with_labels(column, check_labels(labels), "y")


def _encode_grades(y: Any, labels: Any, sample_weight: Any) -> EncodedRatings:
    """The grades ``y`` of :meth:`OrdinalThresholdRegressor.fit` as indices, checked first
    (missing, continuous, a single grade) so that no cross-validation runs on them."""
    if y is None:
        raise WkappaError(
            "OrdinalThresholdRegressor requires y to be passed, but the target y is None."
        )
    values: Any = np.asarray(y) if not hasattr(y, "dtype") else y
    if getattr(values, "ndim", 1) == 2 and values.shape[1] == 1:
        values = column_or_1d(values, warn=True)
    _check_grades(values, labels)
    _refuse_continuous(values)
    encoded = encode_ratings(
        values,
        values,
        labels=labels,
        sample_weight=sample_weight,
        nan_policy="raise",
        order_needed_by=THRESHOLDS_NEED_ORDER,
    )
    assert encoded is not None
    present = encoded.true_index
    if encoded.sample_weight is not None:
        present = present[encoded.sample_weight > 0]
    grades = np.unique(present)
    if not len(grades):
        raise WkappaError(
            "`sample_weight` is zero for every row: there is nothing to fit. Hint: give "
            "positive weights to the rows to fit on."
        )
    if len(grades) < 2:
        raise WkappaError(
            "`y` must contain at least two classes (grades with positive sample_weight) to "
            f"fit thresholds; got one class, {encoded.labels[grades[0]]!r}: kappa is 0 or "
            "undefined for every cut."
        )
    return encoded


def _classes(labels: Any, y: Any) -> np.ndarray:
    """The grades ``labels`` as ``classes_``, in the dtype of ``y`` when ``y`` holds numbers or
    booleans in a numpy dtype and the grades keep their values in it: scikit-learn's
    classifiers keep the type of ``y`` (grades fitted as floats are predicted as floats)."""
    classes = np.asarray(labels)
    dtype = getattr(y, "dtype", None)
    if dtype is None and not isinstance(y, np.ndarray):
        dtype = np.asarray(y).dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "biuf" and classes.dtype.kind in "biuf":
        cast = classes.astype(dtype)
        if np.array_equal(cast, classes):
            return cast
    return classes


def _refuse_continuous(y: Any) -> None:
    """A clear error for a regression target (the grades must be discrete)."""
    dtype = getattr(y, "dtype", None)
    if not isinstance(dtype, np.dtype) or dtype.kind != "f":
        return
    values = np.asarray(y)
    fractional = np.isfinite(values) & (values != np.floor(values))
    if fractional.any():
        raise WkappaError(
            f"`y` is a continuous target (it contains {float(values[fractional][0])!r}); "
            "OrdinalThresholdRegressor needs discrete grades. Hint: round the target to "
            "grades, or use the regressor on its own."
        )


def _check_regressor(estimator: Any) -> None:
    """A clear error for an ``estimator`` that is not a scikit-learn regressor."""
    if not all(hasattr(estimator, name) for name in ("fit", "predict", "get_params")):
        raise WkappaTypeError(
            "`estimator` must be a scikit-learn regressor (with fit, predict and get_params); "
            f"got {estimator!r}. Hint: pass one, as in OrdinalThresholdRegressor(Ridge())."
        )
    if is_classifier(estimator):
        raise WkappaTypeError(
            f"`estimator` must be a regressor; got the classifier {type(estimator).__name__}, "
            "whose predict returns classes, not a score to cut. Hint: pass a regressor (such "
            "as LGBMRegressor for LGBMClassifier), or cut a classifier's expected grade, "
            "predict_proba(X) @ np.arange(K), with wk.optimize_thresholds."
        )


def _check_rows(X: Any, y: np.ndarray) -> None:
    """A clear error for features ``X`` that are not an array, or not one row per grade."""
    try:
        check_consistent_length(X, y)
    except TypeError as error:
        raise WkappaTypeError(
            f"`X` must be an array-like of features, one row per item: {error}."
        ) from None
    except ValueError as error:
        raise WkappaError(
            f"`X` and `y` must have one row per item: {error}. Hint: pass the features and "
            "the grades of the same items."
        ) from None


def _folds(cv: Any, X: Any, grades: np.ndarray, split_kwargs: dict[str, Any]) -> list[Any]:
    """The (train, test) index pairs of ``cv``, stratified by grade for an integer ``cv``
    (as scikit-learn does for classifiers: grades sorted in the data must not leave a fold
    without a grade), with ``cv`` named in the error of an unusable one."""
    try:
        return list(check_cv(cv, grades, classifier=True).split(X, grades, **split_kwargs))
    except ValueError as error:
        raise WkappaError(
            f"`cv` cannot split the {len(grades)} rows: {error} Hint: pass cv as a number of "
            "folds from 2 to the number of rows, a splitter such as KFold(5), or an iterable "
            "of (train, test) index arrays."
        ) from None


def _check_predictions(scores: np.ndarray, estimator: Any, *, out_of_fold: bool) -> None:
    """A clear error for a regressor output that no threshold grades (NaN) or, among the
    out-of-fold predictions, that no threshold can be placed beyond (infinite)."""
    bad = ~np.isfinite(scores) if out_of_fold else np.isnan(scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        which = "out-of-fold prediction" if out_of_fold else "prediction"
        raise WkappaError(
            f"The regressor {type(estimator).__name__} returned {float(scores[row])!r} as the "
            f"{which} for row {row} of `X`; only "
            f"{'finite numbers' if out_of_fold else 'numbers'} can be graded. Hint: impute "
            "or drop the rows with missing features, or use a regressor that handles them "
            "(such as HistGradientBoostingRegressor)."
        )


class OrdinalThresholdRegressor(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):  # type: ignore[misc]
    """A regressor plus kappa-optimal thresholds fitted on out-of-fold predictions.

    Parameters
    ----------
    estimator : regressor
        Any scikit-learn regressor; it is trained on the grade index ``0..K-1``. A
        classifier is refused: its predictions are classes, not a score to cut.
    cv : int, cross-validation generator or iterable, default 5
        How :func:`sklearn.model_selection.cross_val_predict` splits the data for the
        out-of-fold predictions the thresholds are fitted on; an int means that many
        stratified folds (``StratifiedKFold``, by grade), as for scikit-learn classifiers.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        The kappa the thresholds maximise and :meth:`score` reports.
    labels : sequence of K grades, optional
        The grades in order (needed for string grades). Without it, every integer from the
        smallest to the largest grade in ``y`` (or an ordered categorical's categories).
    n_jobs : int, optional
        Folds fitted in parallel for the out-of-fold predictions, as in
        :func:`~sklearn.model_selection.cross_val_predict` (None: one at a time, -1: every
        core); the predictions, and so the thresholds, are the same.

    Attributes
    ----------
    estimator_ : regressor
        The regressor refitted on all the data.
    thresholds_ : ndarray of shape (K - 1,)
        Cut points on the regressor's output (in grade-index units).
    threshold_result_ : ThresholdResult
        The full result of :func:`wkappa.optimize_thresholds` on the out-of-fold predictions,
        with the grades ``classes_`` as its labels (its ``predict`` and ``explain`` name them).
    oof_predictions_ : ndarray of shape (n,)
        The out-of-fold regression outputs.
    oof_score_ : float
        Kappa of the thresholded out-of-fold predictions (an honest, slightly optimistic
        estimate: the thresholds were tuned on them).
    classes_ : ndarray of shape (K,)
        The grades, in the dtype of ``y`` when it holds numbers (grades fitted as floats
        are predicted as floats), as scikit-learn's classifiers keep it.
    n_features_in_ : int
        Number of features seen in ``fit`` (when the regressor reports it).

    Notes
    -----
    The thresholds must come from out-of-fold predictions: a model's predictions on its own
    training data are more confident than on new data (further from the mean, nearer the true
    grades), so thresholds tuned on them are spread too far apart for new data, whose
    predictions stay nearer the mean. Because :meth:`predict` returns class labels,
    scikit-learn treats this estimator as a classifier (stratified folds in
    ``cross_val_score``/``GridSearchCV``); :meth:`score` is weighted kappa, not accuracy.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Ridge
    >>> from wkappa.sklearn import OrdinalThresholdRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 3))
    >>> y = np.clip(np.rint(X @ [1.0, 0.5, 0.0] + 2 + rng.normal(0, 0.5, 400)), 0, 4)
    >>> model = OrdinalThresholdRegressor(Ridge(), cv=5).fit(X[:300], y[:300].astype(int))
    >>> model.classes_
    array([0, 1, 2, 3, 4])
    >>> model.thresholds_.round(2)
    array([0.99, 1.63, 2.5 , 3.15])
    >>> model.predict(X[300:305])
    array([2, 0, 2, 4, 2])
    >>> round(model.score(X[300:], y[300:]), 3)  # held-out quadratic weighted kappa
    0.84
    """

    def __init__(
        self,
        estimator: Any,
        *,
        cv: Any = 5,
        weights: WeightsLike = "quadratic",
        labels: npt.ArrayLike | None = None,
        n_jobs: int | None = None,
    ) -> None:
        self.estimator = estimator
        self.cv = cv
        self.weights = weights
        self.labels = labels
        self.n_jobs = n_jobs

    def fit(
        self,
        X: Any,
        y: npt.ArrayLike,
        sample_weight: npt.ArrayLike | None = None,
        **fit_params: Any,
    ) -> OrdinalThresholdRegressor:
        """Fit the thresholds on out-of-fold predictions, then the regressor on all data.

        Parameters
        ----------
        X : array-like of shape (n, p)
            Features.
        y : array-like of shape (n,)
            Grades: integers, or any categories with ``labels``; no missing grade.
        sample_weight : array-like of shape (n,), optional
            Weights the threshold search and, through its ``fit``, the regressor (in every
            fold and in the refit). With scikit-learn's metadata routing on, the regressor
            gets it only if it requests it (``set_fit_request(sample_weight=True)``).
        **fit_params
            ``groups=`` for a group splitter such as ``GroupKFold`` as ``cv``. With
            metadata routing on, any metadata, routed to the regressor's ``fit`` and the
            splitter as they request it.

        Returns
        -------
        self
        """
        _check_regressor(self.estimator)
        checked = check_weights(self.weights)
        encoded = _encode_grades(y, self.labels, sample_weight)
        _check_rows(X, encoded.true_index)
        k = encoded.n_categories
        if isinstance(checked, np.ndarray):  # a matrix of the wrong shape fails before the folds
            weight_matrix(checked, k)
        target = encoded.true_index.astype(np.float64)
        fit_kwargs, split_kwargs = self._route_fit(encoded.sample_weight, fit_params)
        folds = _folds(self.cv, X, encoded.true_index, split_kwargs)
        oof = cross_val_predict(
            clone(self.estimator), X, target, cv=folds, params=fit_kwargs, n_jobs=self.n_jobs
        )
        oof = np.asarray(oof, dtype=np.float64).ravel()
        _check_predictions(oof, self.estimator, out_of_fold=True)
        result = optimize_thresholds(
            encoded.true_index,
            oof,
            weights=self.weights,
            min_rating=0,
            max_rating=k - 1,
            sample_weight=encoded.sample_weight,
        )
        self.estimator_ = clone(self.estimator).fit(X, target, **fit_kwargs)
        self.classes_ = _classes(encoded.labels, y)
        # Fitted on the grade indices; reported with the grades, as predict returns them.
        self.threshold_result_: ThresholdResult = replace(
            result, labels=tuple(self.classes_.tolist())
        )
        self.thresholds_ = result.thresholds
        self.oof_predictions_ = oof
        self.oof_score_ = result.statistic
        for name in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.estimator_, name):
                setattr(self, name, getattr(self.estimator_, name))
        return self

    def _route_fit(
        self, sample_weight: np.ndarray | None, fit_params: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The keyword arguments of the regressor's ``fit`` and of the splitter's ``split``."""
        if get_config().get("enable_metadata_routing", False):
            routed = process_routing(self, "fit", sample_weight=sample_weight, **fit_params)
            return dict(routed.estimator.fit), dict(routed.splitter.split)
        groups = fit_params.pop("groups", None)
        if fit_params:
            raise WkappaError(
                f"{type(self).__name__}.fit takes `sample_weight` and `groups` only; got "
                f"{', '.join(f'`{name}`' for name in sorted(fit_params))}. Hint: pass the "
                "regressor's own options to its constructor, or turn on scikit-learn's "
                "metadata routing (sklearn.set_config(enable_metadata_routing=True)) and "
                "request them with the regressor's set_fit_request."
            )
        fit_kwargs: dict[str, Any] = {}
        if sample_weight is not None:
            if not has_fit_parameter(self.estimator, "sample_weight"):
                raise WkappaError(
                    f"`sample_weight` cannot reach the regressor: "
                    f"{type(self.estimator).__name__}.fit has no sample_weight parameter. "
                    "Hint: use a regressor whose fit takes sample_weight; for a Pipeline, turn "
                    "on scikit-learn's metadata routing and request it from the step "
                    "(set_fit_request(sample_weight=True))."
                )
            fit_kwargs["sample_weight"] = sample_weight
        return fit_kwargs, {} if groups is None else {"groups": groups}

    def get_metadata_routing(self) -> Any:
        """How :meth:`fit` routes metadata when scikit-learn's metadata routing is on.

        ``sample_weight`` is used by the threshold search (and :meth:`score`) and goes to
        the regressor's ``fit`` if it requests it; other metadata (such as ``groups``) goes
        to the regressor and the ``cv`` splitter as they request it.

        Returns
        -------
        routing : object
            A scikit-learn ``MetadataRouter``.
        """
        return (
            MetadataRouter(owner=type(self).__name__)
            .add_self_request(self)
            .add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(caller="fit", callee="fit"),
            )
            .add(  # the cv object itself: check_cv would consume a generator of splits
                splitter=self.cv,
                method_mapping=MethodMapping().add(caller="fit", callee="split"),
            )
        )

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.input_tags.sparse = inner.input_tags.sparse
        tags.input_tags.allow_nan = inner.input_tags.allow_nan
        return tags

    def predict(self, X: Any) -> np.ndarray:
        """Grades for X: the regressor's output cut at ``thresholds_``.

        Parameters
        ----------
        X : array-like of shape (m, p)

        Returns
        -------
        ndarray of shape (m,)
            Elements of ``classes_``.
        """
        check_is_fitted(self, "estimator_")
        scores = np.asarray(self.estimator_.predict(X), dtype=np.float64).ravel()
        _check_predictions(scores, self.estimator_, out_of_fold=False)
        grades: np.ndarray = self.classes_[apply_thresholds(scores, self.thresholds_)]
        return grades

    def score(self, X: Any, y: npt.ArrayLike, sample_weight: npt.ArrayLike | None = None) -> float:
        """Weighted kappa (with the ``weights`` parameter) of ``predict(X)`` against ``y``.

        Parameters
        ----------
        X : array-like of shape (m, p)
        y : array-like of shape (m,)
            True grades. Without ``labels``, integer grades are scored on every integer
            from the smallest to the largest of ``classes_`` and ``y``: a grade the
            training rows lacked (a rare end grade missing from one cross-validation
            fold) counts as a grade never predicted, as :data:`qwk_scorer` counts it.
        sample_weight : array-like of shape (m,), optional

        Returns
        -------
        float
        """
        check_is_fitted(self, "estimator_")
        bounds = self._score_range(y)
        if bounds is None:
            _check_grades(y, self.classes_)
            return weighted_kappa(
                y,
                self.predict(X),
                weights=self.weights,
                labels=self.classes_,
                sample_weight=sample_weight,
            )
        return weighted_kappa(
            y,
            self.predict(X),
            weights=self.weights,
            min_rating=bounds[0],
            max_rating=bounds[1],
            sample_weight=sample_weight,
        )

    def _score_range(self, y: Any) -> tuple[int, int] | None:
        """The integer grades :meth:`score` counts on when ``labels`` was not given: from the
        smallest to the largest of ``classes_`` and ``y``, so that a grade the training rows
        lacked (a rare end grade missing from one cross-validation fold) is scored as a
        grade never predicted, as :data:`qwk_scorer` scores it. None for grades that are not
        integers (``classes_`` are then all the grades) or a weight matrix (its size is K)."""
        _check_grades(y, None)  # a missing grade is an error naming y
        if (
            self.labels is not None
            or self.classes_.dtype.kind not in "iuf"
            or isinstance(check_weights(self.weights), np.ndarray)
        ):
            return None
        column = to_column(y, "y")
        values = column.values
        if column.categories is not None or values.dtype.kind not in "iuf" or not values.size:
            return None
        if not (np.isfinite(values) & (values == np.floor(values))).all():
            return None  # weighted_kappa names the fractional grade
        low = min(int(self.classes_[0]), int(values.min()))
        high = max(int(self.classes_[-1]), int(values.max()))
        return low, high
