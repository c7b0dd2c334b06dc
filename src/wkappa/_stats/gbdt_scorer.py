"""Kappa of predictions in a LightGBM / XGBoost / CatBoost layout: the scorer under the eval
metrics of :mod:`wkappa.gbdt` (see its docstring for how the layouts become grades)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    WeightsLike,
    ZeroDivision,
    check_rating_bounds,
    check_weights,
    check_zero_division,
    float_array,
    format_value,
    warn_at_caller,
    weighted_kappa,
    weights_name,
)
from ..exceptions import WkappaError
from .gbdt_objective import (
    LABELS_HINT,
    NO_LABELS_HINT,
    PREDICTIONS_HINT,
    gbdt_numbers,
    nonfinite_row,
)
from .gbdt_slots import classifier_text_classes, lightgbm_unencoded_eval_y
from .thresholds import ThresholdResult, apply_thresholds

__all__ = ["GbdtScorer"]

# How many evaluated datasets a metric remembers the label range of (the training set, the
# evaluation sets, the folds of a cross-validation loop that reuses the metric).
_REMEMBERED_DATASETS = 16


class _InitSignature:
    """A class's signature as :func:`inspect.signature` reports it: its ``__init__``'s (it
    would otherwise report the ``*args, **kwargs`` of ``__new__``); nothing for an instance,
    whose signature stays its ``__call__``'s."""

    def __get__(self, instance: Any, owner: type) -> inspect.Signature | None:
        if instance is not None:
            return None
        signature = inspect.signature(getattr(owner, "__init__"))  # noqa: B009
        return signature.replace(
            parameters=list(signature.parameters.values())[1:],
            return_annotation=inspect.Signature.empty,
        )


class GbdtScorer:
    """Predictions in a GBDT layout -> grades -> weighted kappa."""

    built_by: str | None = None
    """How the user builds the metric, for the hints (default: the class, called)."""

    __signature__ = _InitSignature()

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        """Refuse positional arguments with the fix: a library given the class uncalled
        calls it as a metric, ``(preds, data)``, and ``Metric(0, 4)`` means the options."""
        if args:
            built_by = cls.built_by or f"{cls.__name__}()"
            raise WkappaError(
                f"{cls.__name__} takes keyword options only; it was called with {len(args)} "
                "positional arguments, as a library calls an eval metric it was given "
                f"uncalled. Hint: pass {built_by} (called, with any options, such as "
                "min_rating=0, max_rating=4) as the eval metric."
            )
        return super().__new__(cls)

    def __init__(
        self,
        *,
        weights: WeightsLike = "quadratic",
        min_rating: int | None = None,
        max_rating: int | None = None,
        thresholds: npt.ArrayLike | None = None,
        zero_division: ZeroDivision = "warn",
        name: str | None = None,
    ) -> None:
        self.weights = check_weights(weights)
        self.min_rating, self.max_rating = check_rating_bounds(min_rating, max_rating)
        self.thresholds = None
        if isinstance(thresholds, ThresholdResult):
            first = thresholds.labels[0]
            shift = f", min_rating={first}" if isinstance(first, (int, np.integer)) else ""
            raise WkappaError(
                "`thresholds` must be the K - 1 cut points; got a ThresholdResult. Hint: "
                f"pass thresholds=result.thresholds{shift}."
            )
        if thresholds is not None:
            self.thresholds = float_array(
                thresholds, "`thresholds` must be a 1-D sequence of K - 1 cut points (numbers)"
            )
            apply_thresholds(np.zeros(1), self.thresholds)  # validates them now, not mid-training
            first = 0 if self.min_rating is None else self.min_rating
            last = first + len(self.thresholds)
            if self.max_rating is not None and self.max_rating != last:
                raise WkappaError(
                    f"{len(self.thresholds)} thresholds make {len(self.thresholds) + 1} grades "
                    f"{first}..{last}, but `max_rating` = {self.max_rating}. Hint: leave "
                    "max_rating out, or pass min_rating for the first grade."
                )
        self.zero_division = check_zero_division(zero_division)
        kind = weights_name(self.weights)
        self.name = name if name is not None else ("qwk" if kind == "quadratic" else "kappa")
        if not isinstance(self.name, str) or not self.name:
            raise WkappaError(f"`name` must be a non-empty string; got {format_value(name)}.")
        self._label_ranges: dict[tuple[float, ...], tuple[int, int]] = {}

    def __repr__(self) -> str:
        options = [f"weights={weights_name(self.weights)!r}", f"name={self.name!r}"]
        for key in ("min_rating", "max_rating"):
            if getattr(self, key) is not None:
                options.append(f"{key}={getattr(self, key)}")
        if self.thresholds is not None:
            options.append(f"thresholds={self.thresholds.tolist()}")
        return f"{type(self).__name__}({', '.join(options)})"

    def score(
        self,
        y_true: Any,
        y_pred: Any,
        sample_weight: Any = None,
        names: tuple[str, str] = ("`y_true`", "`y_pred`"),
        training_labels: Callable[[], Any] | None = None,
    ) -> float:
        """Kappa of predictions in any supported layout against the labels (``names``: how
        the caller's library calls the two, for the errors; ``training_labels``: how to read
        the training set's labels, or None, where the library links the evaluated data to
        them)."""
        labels = gbdt_numbers(y_true, names[0], LABELS_HINT, NO_LABELS_HINT)
        if labels.ndim > 1 and labels.size != labels.shape[0]:
            title = names[0][:1].upper() + names[0][1:]
            raise WkappaError(
                f"{title} has shape {labels.shape}: the metric takes one label per row, the "
                "grade or class index. Hint: for one-hot labels pass y.argmax(axis=1)."
            )
        labels = labels.ravel()
        row = nonfinite_row(labels)
        if row is not None:
            raise WkappaError(
                f"Row {row} of {names[0]} is {format_value(labels[row])}, which is not a "
                "grade. Hint: drop the rows without a label from the evaluation data."
            )
        _check_whole_labels(labels, names[0])
        preds = gbdt_numbers(y_pred, names[1], PREDICTIONS_HINT)
        n = labels.size
        if n == 0 and preds.size > 0:
            raise WkappaError(
                f"Got {preds.size} predictions but no labels ({names[0]} is empty). "
                f"{NO_LABELS_HINT}"
            )
        weight = None if sample_weight is None or np.size(sample_weight) == 0 else sample_weight
        _check_finite(preds)
        _check_encoded_eval_y(labels)
        if preds.ndim == 2 and preds.shape[1] > 1:  # (n, K) multiclass scores
            if preds.shape[0] != n:
                raise WkappaError(
                    f"Multiclass predictions have {preds.shape[0]} rows for {n} labels."
                )
            if self.thresholds is not None:
                raise WkappaError(
                    "`thresholds` apply to one score per row, but the model outputs "
                    f"{preds.shape[1]} class scores per row (multiclass)."
                )
            k = preds.shape[1]
            _check_label_range(
                labels,
                0,
                k - 1,
                f"the class indices 0..{k - 1} of the {k} class scores per row",
                "Hint: encode the labels as class indices 0..K - 1 "
                "(np.searchsorted(classes, y)), as LightGBM, XGBoost and CatBoost pass them "
                "to a metric.",
            )
            self._check_class_order(k)
            grades = np.argmax(preds, axis=1)
            return self._kappa(labels, grades, 0, k - 1, weight)
        preds = preds.ravel()
        if preds.size != n:
            flat = n and preds.size % n == 0
            hint = (
                f" It looks like a flattened (n * K, K = {preds.size // n}) multiclass layout of "
                "an old LightGBM/XGBoost; wkappa expects the (n, K) layout of LightGBM >= 4 "
                "and XGBoost >= 2."
                if flat
                else ""
            )
            raise WkappaError(f"Got {preds.size} predictions for {n} labels.{hint}")
        if self.thresholds is not None:
            first = 0 if self.min_rating is None else self.min_rating
            cuts = len(self.thresholds)
            if labels.size:
                low, high = int(np.floor(labels.min())), int(np.ceil(labels.max()))
                hint = (
                    f"Hint: pass min_rating={low} with thresholds=, so that the grades are "
                    f"{low}..{low + cuts}."
                    if high - low <= cuts
                    else f"Hint: the labels span {high - low + 1} grades; give {high - low} "
                    f"thresholds and min_rating={low}."
                )
                _check_label_range(
                    labels,
                    first,
                    first + cuts,
                    f"the grades {first}..{first + cuts} that the {cuts} thresholds make "
                    f"(min_rating = {first} is the first grade)",
                    hint,
                )
            grades = first + apply_thresholds(preds, self.thresholds)
            return self._kappa(labels, grades, first, first + len(self.thresholds), weight)
        free = self.min_rating is None or self.max_rating is None  # a bound from the labels
        own = (_bound(labels, np.min), _bound(labels, np.max)) if free else (None, None)
        lo = self.min_rating if self.min_rating is not None else own[0]
        hi = self.max_rating if self.max_rating is not None else own[1]
        if lo is None or hi is None:  # no labels, or a fractional one: weighted_kappa says so
            return self._kappa(labels, preds, None, None, weight)
        hi = max(lo, hi)
        self._check_given_range(labels, lo, hi)
        grades = np.rint(preds)
        if free:
            clipped = bool(grades.size) and (grades.min() < lo or grades.max() > hi)
            others = self._other_label_range(labels, own, training_labels if clipped else None)
            self._warn_clipped(grades, lo, hi, others)
        np.clip(grades, lo, hi, out=grades)
        return self._kappa(labels, grades, lo, hi, weight)

    def _check_class_order(self, k: int) -> None:
        """Refuse text classes that a classifier ordered as text (LightGBM's and CatBoost's
        scikit-learn classifiers sort them, and hand the metric their positions): weighted
        kappa would weigh the distances of that order, as :func:`wkappa.weighted_kappa`
        refuses text ratings without ``labels``. Two classes, and unweighted kappa, do not
        depend on the order."""
        if k < 3 or (isinstance(self.weights, str) and self.weights == "unweighted"):
            return
        found = classifier_text_classes()
        if found is None:
            return
        model, classes = found
        catboost = ", or give CatBoost their order, class_names=[...]" if "Cat" in model else ""
        raise WkappaError(
            f"{model} was fitted on the text classes {format_value(classes)}, which it "
            "sorts as text and hands the metric by their positions in that order, so weighted "
            f"kappa would take {classes[0]!r} and {classes[-1]!r} to be {k - 1} grades apart. "
            "Hint: map the classes to integer grades in their order before fitting (in "
            f"pandas, y.map({{<class>: <its grade>, ...}})){catboost}; weights='unweighted' "
            "does not depend on the order."
        )

    def _check_given_range(self, labels: np.ndarray, lo: int, hi: int) -> None:
        """Refuse labels outside the grade scale given by ``min_rating`` / ``max_rating``
        (``lo..hi``), naming the options and the range that covers the labels."""
        given = [
            f"{key} = {getattr(self, key)}"
            for key in ("min_rating", "max_rating")
            if getattr(self, key) is not None
        ]
        if not given or not labels.size:
            return
        low, high = int(labels.min()), int(labels.max())
        built_by = self.built_by or f"{type(self).__name__}()"
        _check_label_range(
            labels,
            lo,
            hi,
            f"the grade scale {lo}..{hi} ({' and '.join(given)} given to {built_by})",
            "Hint: min_rating and max_rating are the lowest and highest grade of the whole "
            f"scale; these labels need min_rating <= {low} and max_rating >= {high}.",
        )

    def _other_label_range(
        self,
        labels: np.ndarray,
        own: tuple[int | None, int | None],
        training_labels: Callable[[], Any] | None,
    ) -> tuple[int, int] | None:
        """The widest label range of the *other* data this metric has scored (the training
        set, other evaluation sets or folds), or None if it has scored no other labels; and
        remember these labels' range.

        A dataset is told apart by its size and its labels' sum and range, so that the same
        evaluation set scored at every iteration does not count as other data. The training
        labels read through ``training_labels`` (only when the predictions are clipped)
        count as other data unless they are these labels.
        """
        low, high = own
        if low is None or high is None:
            return None
        key = (float(labels.size), float(labels.sum()), float(low), float(high))
        ranges = self._label_ranges
        others = [span for seen, span in ranges.items() if seen != key]
        if key not in ranges:
            if len(ranges) >= _REMEMBERED_DATASETS:
                del ranges[next(iter(ranges))]
            ranges[key] = (low, high)
        read = None if training_labels is None else training_labels()
        if read is not None:
            train = np.asarray(read, dtype=np.float64).ravel()
            span = _bound(train, np.min), _bound(train, np.max)
            same = train.size == labels.size and float(train.sum()) == key[1]
            if span[0] is not None and span[1] is not None and not same:
                others.append((span[0], span[1]))
        if not others:
            return None
        return min(span[0] for span in others), max(span[1] for span in others)

    def _warn_clipped(
        self, grades: np.ndarray, lo: int, hi: int, others: tuple[int, int] | None
    ) -> None:
        """Warn when rounded predictions pass an end of the grade range that was taken from
        the evaluated labels (``min_rating`` or ``max_rating`` not given) and clipping them
        there may be wrong: clipping scores a grade these labels lack as the nearest one
        they have, so an evaluation set missing an end grade (a cross-validation fold)
        scores too high.

        ``others`` is the label range of the other data this metric scored (the training
        set): where these labels reach its end, that end is the scale's as far as the
        metric can know, and clipping there is right, so it stays silent; where the other
        data reach further, the evaluated data lacks an end grade; with no other data the
        metric cannot tell, and says so. The text depends on the ranges only, so Python
        shows it once per range and caller.
        """
        below = self.min_rating is None and bool(grades.size) and grades.min() < lo
        above = self.max_rating is None and bool(grades.size) and grades.max() > hi
        if others is not None:
            below = below and others[0] < lo
            above = above and others[1] > hi
        if not (below or above):
            return
        side = "below" if not above else "above" if not below else "on both sides of"
        missing = " and ".join(
            f"{key}=" for key in ("min_rating", "max_rating") if getattr(self, key) is None
        )
        built_by = self.built_by or f"{type(self).__name__}()"
        if others is None:
            why = (
                "this metric has scored no other labels (such as the training set's) to "
                "tell whether the grade scale ends there; if it does not, kappa comes out "
                "too high, as for a cross-validation fold that lacks an end grade"
            )
        else:
            reach = " and ".join(
                str(end) for end, out in ((others[0], below), (others[1], above)) if out
            )
            why = (
                f"other data this metric scored (such as the training set) reach grade "
                f"{reach}, so the evaluated data lacks an end grade and kappa comes out too "
                "high"
            )
        warn_at_caller(
            f"Predictions round to grades {side} {lo}..{hi}, the evaluated labels' range, "
            f"and are clipped to it, which scores a grade these labels lack as the nearest "
            f"one they have; {why}. Hint: pass {missing} to {built_by}, the lowest and "
            "highest grade of the whole scale.",
            UserWarning,
        )

    def _kappa(self, labels: Any, grades: Any, lo: Any, hi: Any, weight: Any) -> float:
        return weighted_kappa(
            labels,
            grades,
            weights=self.weights,
            min_rating=lo,
            max_rating=hi,
            sample_weight=weight,
            zero_division=self.zero_division,
        )


def _check_encoded_eval_y(labels: np.ndarray) -> None:
    """Refuse the labels of an ``eval_y`` that LightGBM's classifier did not encode as class
    indices (see :func:`~wkappa._stats.gbdt_slots.lightgbm_unencoded_eval_y`), which would
    be scored against the wrong classes without a word."""
    classes = lightgbm_unencoded_eval_y(labels)
    if classes is None:
        return
    k = len(classes)
    raise WkappaError(
        f"LGBMClassifier was fitted on the classes {format_value(classes)} and scores them as "
        f"class indices 0..{k - 1}, but hands the metric `eval_y` as given, not encoded "
        "(a LightGBM bug, lightgbm-org/LightGBM#7400), so kappa would compare class indices "
        "with your labels. Hint: encode the labels before fitting, y = "
        "np.searchsorted(classes, y) for y and every eval_y (for grades 1..K, y - 1), or pass "
        "the validation data as eval_set=[(X_valid, y_valid)], which LightGBM encodes."
    )


def _check_finite(preds: np.ndarray) -> None:
    """Refuse NaN or infinite predictions: no grade (rounded, cut or argmax) is right for them."""
    row = nonfinite_row(preds)
    if row is not None:
        raise WkappaError(
            f"The model's predictions hold NaN or infinity (row {row}: "
            f"{format_value(np.atleast_1d(preds)[row].tolist())}), which no grade fits. Hint: "
            "if the boosting diverged, check a custom objective's gradients, the learning "
            "rate and the features for NaN or infinity."
        )


def _check_whole_labels(labels: np.ndarray, name: str) -> None:
    """Refuse a fractional label (a model trained on a rescaled or continuous target): the
    metrics score whole-number grades and class indices, and ``name`` says which argument of
    the library's call holds the label."""
    fractional = np.flatnonzero(labels != np.floor(labels))
    if fractional.size:
        row = int(fractional[0])
        raise WkappaError(
            f"Row {row} of {name} is {format_value(labels[row].item())}, a non-integer label; "
            "the metric scores whole-number grades (or class indices). Hint: train and "
            "evaluate on the integer grades themselves, not on a rescaled target such as "
            "y / 4 (a regression objective fits the grades as they are)."
        )


def _check_label_range(labels: np.ndarray, low: int, high: int, grades: str, hint: str) -> None:
    """Refuse labels outside ``low..high``, the grades the predictions can take (``grades``
    says which), with ``hint``; the error names the label furthest out on the side it leaves."""
    if not labels.size:
        return
    value = labels.max() if labels.max() > high else labels.min()
    if low <= value <= high:
        return
    text = format_value(int(value)) if value == np.floor(value) else format_value(value)
    raise WkappaError(f"The labels reach {text}, outside {grades}. {hint}")


def _bound(values: np.ndarray, reduce: Any) -> int | None:
    if values.size == 0:
        return None
    bound = float(reduce(values))
    return int(bound) if bound == np.floor(bound) else None
