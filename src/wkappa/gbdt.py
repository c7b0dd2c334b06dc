"""Kappa eval metrics for LightGBM, XGBoost and CatBoost (the ``gbdt`` extra).

Each metric reads the predictions in the library's own current layout, turns them into grades
and scores them with :func:`wkappa.weighted_kappa`, flagged higher-is-better so that early
stopping keeps the best iteration:

* multiclass outputs of shape (n, K) — probabilities, or raw margins with a custom objective
  — become the class index of the largest entry; the categories are the class indices
  ``0..K-1`` (which is how all three libraries pass the labels to a metric);
* one output per row (regression, binary probability, ``multi:softmax`` class) is rounded to
  the nearest grade (``np.rint``, halves to even) and clipped to ``[min_rating, max_rating]``
  (by default the range of the evaluated labels), or cut with ``thresholds`` by
  :func:`wkappa.apply_thresholds`.

The libraries themselves are imported only to recognise their dataset objects, and only if the
caller already imported them.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from ._core import WeightsLike, ZeroDivision, format_value, publish
from ._stats import (
    PREDICTIONS_HINT,
    CatBoostRefusals,
    GbdtScorer,
    QWKObjective,
    calling_slot,
    check_catboost_logits,
    check_xgboost_margins,
    gbdt_numbers,
    instance_method,
    lightgbm_eval_dataset,
    metric_called_as_objective,
    xgboost_minimising_stop,
    xgboost_training_labels,
)
from .exceptions import WkappaError

__all__ = [
    "CatBoostMetric",
    "LightGBMMetric",
    "QWKObjective",
    "XGBoostMetric",
    "lightgbm_metric",
    "qwk_objective",
    "xgboost_metric",
]


# How the native APIs (LightGBM's feval, XGBoost's custom_metric) hand over the labels and the
# predictions.
_NATIVE_NAMES = ("the eval dataset's labels (get_label())", "the predictions")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _factory(build: Callable[_P, _R]) -> Callable[_P, _R]:
    """``build`` (which takes keyword options only), refusing with the fix the positional
    call a library makes when ``build`` itself is passed where what it builds belongs
    (``feval=lightgbm_metric`` rather than ``feval=lightgbm_metric()``)."""
    name = build.__name__
    what = "objective" if name == "qwk_objective" else "eval metric"
    builds = {
        "lightgbm_metric": "LightGBM's eval metric",
        "xgboost_metric": "XGBoost's eval metric",
    }.get(name, "an objective for LightGBM and XGBoost")

    @functools.wraps(build)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if args:
            options = "" if what == "objective" else ", such as min_rating=0, max_rating=4"
            raise WkappaError(
                f"`{name}` builds {builds} and takes keyword options only; it was called "
                f"with {len(args)} positional arguments, as a library calls the {what} it "
                f"was given uncalled. Hint: pass {name}() (called, with any options"
                f"{options}) as the {what}."
            )
        return build(*args, **kwargs)

    def refuse_catboost(*args: Any) -> Any:
        """CatBoost's metric and objective entry points: refused, with the fix."""
        raise WkappaError(
            f"`{name}` builds {builds}, and CatBoost was given it. Hint: pass "
            "eval_metric=CatBoostMetric() (called, with any options) to CatBoost, with a "
            "built-in loss_function such as 'RMSE'."
        )

    entry_points: Any = checked  # CatBoost calls these on whatever it is given
    for entry_point in ("is_max_optimal", "evaluate", "get_final_error", "calc_ders_range"):
        setattr(entry_points, entry_point, refuse_catboost)
    entry_points.no_jit = True
    return checked


def _is_instance(obj: Any, module: str, name: str) -> bool:
    library = sys.modules.get(module)
    return library is not None and isinstance(obj, getattr(library, name))


# Each library's dataset object, as its native API hands it to a metric, and the metric for it.
_DATASETS = (
    ("LightGBM", "lightgbm", "Dataset", "lightgbm_metric()"),
    ("XGBoost", "xgboost", "DMatrix", "xgboost_metric()"),
)


def _refuse_other_library(metric: GbdtScorer, data: Any) -> None:
    """Refuse the dataset of a library ``metric`` is not for (``feval=xgboost_metric()`` in
    ``lightgbm.train``), naming the metric that is."""
    own = next(library for library, _, _, right in _DATASETS if right == metric.built_by)
    for library, module, name, right in _DATASETS:
        if library != own and _is_instance(data, module, name):
            raise WkappaError(
                f"{metric.built_by} is {own}'s eval metric, but {library} called it with a "
                f"{name}. Hint: pass {right} (with the same options) to {library}."
            )


def _refuse_wrong_slot(metric: GbdtScorer, slot: tuple[str, str] | None, data: Any) -> None:
    """Refuse a call from a library's objective slot, or from another library's metric slot
    (``slot``: who calls, from :func:`calling_slot`; ``data``: the second argument), naming
    the fix."""
    if slot is not None and slot[1] == "objective":
        right = next(right for name, _, _, right in _DATASETS if name == slot[0])
        raise metric_called_as_objective(str(metric.built_by), slot[0], right)
    _refuse_other_library(metric, data)
    if slot is None:
        return
    library = slot[0]
    right = next(right for name, _, _, right in _DATASETS if name == library)
    if right != metric.built_by:
        raise WkappaError(
            f"{metric.built_by} is {_LIBRARY_OF[str(metric.built_by)]}'s eval metric, but "
            f"{library} called it. Hint: pass {right} (with the same options) to {library}."
        )


_LIBRARY_OF = {right: library for library, _, _, right in _DATASETS}


def _catboost_refusal(metric: GbdtScorer) -> str:
    """The refusal of LightGBM's or XGBoost's metric given to CatBoost, with the fix."""
    return (
        f"{metric.built_by} is {_LIBRARY_OF[str(metric.built_by)]}'s eval metric, but "
        "CatBoost was given it. Hint: pass eval_metric=CatBoostMetric() (with the same "
        "options) to CatBoost."
    )


def _training_labels(data: Any) -> Callable[[], Any] | None:
    """How to read the training labels of a LightGBM validation ``Dataset`` (``lightgbm.train``
    links each to the training one), or None."""
    train: Any = (
        getattr(data, "reference", None) if _is_instance(data, "lightgbm", "Dataset") else None
    )
    return train.get_label if _is_instance(train, "lightgbm", "Dataset") else None


def _class_name(obj: object) -> str:
    """The name of ``obj``'s class (a class whose instances have a ``__name__`` of their own
    still has its own)."""
    cls: type = type(obj)
    return cls.__name__


_OPTIONS_DOC = """
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights, as in :func:`wkappa.weighted_kappa`.
    min_rating, max_rating : int, optional
        The grade range for one-output-per-row models: predictions are rounded and clipped
        to it. Default: the smallest and largest label of the evaluated data; give both, the
        ends of the whole grade scale, since a cross-validation fold that lacks an end grade
        then scores a prediction of that grade as the nearest grade it has, too high. When a
        rounded prediction passes an end of the evaluated labels, the metric compares that
        end with the labels of the other data it has scored: the training set (LightGBM
        links each validation set to it; XGBoost's metric reads it from the
        ``xgboost.train`` call it runs in; CatBoost scores it first at every iteration),
        other evaluation sets and folds. It warns (a
        ``UserWarning``, once per range) when those reach further, or when it has scored no
        other labels and cannot tell; it stays silent when they end there too. With
        ``thresholds``, ``min_rating`` (default 0) is the grade of the first class.
    thresholds : array-like of shape (K - 1,), optional
        Cut points for one-output-per-row models instead of rounding, applied with
        :func:`wkappa.apply_thresholds` (a score equal to a cut point goes to the lower class).
        Thresholds fitted by :func:`wkappa.optimize_thresholds` on grades 1..K go with
        ``min_rating=1``; a label outside the grades they make is an error saying so.
    zero_division : {'warn', 'raise'} or float, default 'warn'
        The value of an undefined kappa (see :func:`wkappa.kappa_from_table`).
    name : str, optional
        The metric's name in the evaluation history; 'qwk' for quadratic weights, else
        'kappa'. CatBoost names a custom metric by its class instead, so
        :class:`CatBoostMetric` refuses ``name``: subclass it to rename it.
"""


class LightGBMMetric(CatBoostRefusals, GbdtScorer):
    """A kappa eval metric for LightGBM's native and scikit-learn APIs.

    Build it with :func:`lightgbm_metric`. The same object works as ``feval`` of
    ``lightgbm.train`` (called ``(preds, eval_data)``) and as ``eval_metric`` of
    ``LGBMRegressor`` / ``LGBMClassifier`` (called ``(y_true, y_pred, weight)``); it returns
    ``(name, value, True)`` — higher is better — so ``lightgbm.early_stopping`` keeps the
    best iteration.

    Examples
    --------
    Called as the scikit-learn API calls it, on regression outputs (rounded to grades):

    >>> from wkappa.gbdt import lightgbm_metric
    >>> lightgbm_metric()([0, 1, 2, 2], [0.2, 0.9, 2.4, 1.4])
    ('qwk', 0.8, True)
    """

    built_by = "lightgbm_metric()"

    def catboost_refusal(self) -> str:
        """Why CatBoost cannot use it, with the fix."""
        return _catboost_refusal(self)

    @property
    def __name__(self) -> str:
        """The metric name (XGBoost's scikit-learn API reads it before calling a metric)."""
        return self.name

    def __call__(self, first: Any, second: Any, weight: Any = None) -> tuple[str, float, bool]:
        _refuse_wrong_slot(self, calling_slot(), second)
        if _is_instance(second, "lightgbm", "Dataset"):  # native: (preds, eval_data)
            labels = second.get_label()
            training = _training_labels(second)
            value = self.score(labels, first, second.get_weight(), _NATIVE_NAMES, training)
        else:  # scikit-learn API: (y_true, y_pred, weight)
            training = _training_labels(lightgbm_eval_dataset())
            value = self.score(first, second, weight, training_labels=training)
        return self.name, value, True


@_factory
def lightgbm_metric(
    *,
    weights: WeightsLike = "quadratic",
    min_rating: int | None = None,
    max_rating: int | None = None,
    thresholds: npt.ArrayLike | None = None,
    zero_division: ZeroDivision = "warn",
    name: str | None = None,
) -> LightGBMMetric:
    """A kappa eval metric for LightGBM (``feval=`` or ``eval_metric=``).

    Parameters
    ----------{options}
    Returns
    -------
    LightGBMMetric
        Callable as ``metric(preds, eval_data)`` (``lightgbm.train``) or
        ``metric(y_true, y_pred, weight)`` (scikit-learn API), returning
        ``(name, value, True)``.

    Notes
    -----
    LightGBM 4 passes multiclass predictions as an (n, K) array of probabilities (raw scores
    with a custom objective) in both APIs; the grade is the argmax, and kappa is computed
    over the class indices ``0..K-1`` (``LGBMClassifier`` hands metrics its encoded labels,
    so grades with a gap, such as 1, 2, 4, are scored as 0, 1, 2: give the classifier
    consecutive grades if the gap should count; text classes, which it sorts as text, are
    refused for weighted kappa: fit it on integer grades in their order). Early stopping in
    LightGBM watches *every* metric, so set ``metric="None"`` (in the params, or
    ``LGBMRegressor(metric="None")``) to stop on kappa alone.
    ``first_metric_only=True`` does not: LightGBM evaluates its built-in metrics (l2,
    multi_logloss) before this one and stops on the first of those.

    Examples
    --------
    >>> import numpy as np
    >>> from wkappa.gbdt import lightgbm_metric
    >>> metric = lightgbm_metric(min_rating=0, max_rating=2)
    >>> metric(np.array([0, 1, 2, 2]), np.array([0.2, 1.4, 1.4, 2.7]), None)
    ('qwk', 0.8, True)
    >>> probabilities = np.array([[0.7, 0.2, 0.1], [0.1, 0.5, 0.4], [0.1, 0.3, 0.6]])
    >>> metric(np.array([0, 2, 2]), probabilities, None)
    ('qwk', 0.8, True)
    """
    return LightGBMMetric(
        weights=weights,
        min_rating=min_rating,
        max_rating=max_rating,
        thresholds=thresholds,
        zero_division=zero_division,
        name=name,
    )


class XGBoostMetric(CatBoostRefusals, GbdtScorer):
    """A kappa eval metric for XGBoost's native and scikit-learn APIs.

    Build it with :func:`xgboost_metric`. As ``custom_metric`` of ``xgboost.train`` it is
    called ``(predt, dmatrix)`` and returns ``(name, value)``; as ``eval_metric`` of
    ``XGBRegressor`` / ``XGBClassifier`` it is called ``(y_true, y_pred, sample_weight=...)``
    and returns the value, named by its ``__name__``. XGBoost minimises custom metrics unless
    told otherwise: pass ``maximize=True`` to ``xgboost.train``, or use
    :meth:`early_stopping` as a callback.

    Examples
    --------
    Called as the scikit-learn API calls it, on regression outputs (rounded to grades):

    >>> from wkappa.gbdt import xgboost_metric
    >>> metric = xgboost_metric()
    >>> metric.__name__, metric([0, 1, 2, 2], [0.2, 0.9, 2.4, 1.4])
    ('qwk', 0.8)
    """

    built_by = "xgboost_metric()"

    def catboost_refusal(self) -> str:
        """Why CatBoost cannot use it, with the fix."""
        return _catboost_refusal(self)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        """The metric name: XGBoost's scikit-learn API names a callable metric by it."""
        return self.name

    def __call__(self, first: Any, second: Any, sample_weight: Any = None, *more: Any) -> Any:
        if more:  # LightGBM's scikit-learn API: (y_true, y_pred, weight, group)
            raise WkappaError(
                f"xgboost_metric() is XGBoost's eval metric, but it was called with "
                f"{3 + len(more)} positional arguments, as LightGBM's scikit-learn API calls "
                "one. Hint: pass lightgbm_metric() (with the same options) to LightGBM."
            )
        _refuse_wrong_slot(self, calling_slot(), second)
        if xgboost_minimising_stop(self.name) is not None:
            raise WkappaError(
                f"XGBoost's early stopping would minimise {self.name!r} (kappa: higher is "
                "better), stop soon after the first round and keep the worst one. Hint: "
                "pass maximize=True to xgboost.train (or xgboost.cv), or, in the "
                "scikit-learn API, "
                "callbacks=[metric.early_stopping(rounds)] instead of early_stopping_rounds=."
            )
        if self.thresholds is None:
            check_xgboost_margins(str(self.built_by))
        training = xgboost_training_labels  # read only if predictions are clipped
        if _is_instance(second, "xgboost", "DMatrix"):  # native: (predt, dmatrix)
            labels = second.get_label()
            value = self.score(labels, first, second.get_weight(), _NATIVE_NAMES, training)
            return self.name, value
        return self.score(first, second, sample_weight, training_labels=training)

    def early_stopping(self, rounds: int, *, save_best: bool = False, **kwargs: Any) -> Any:
        """``xgboost.callback.EarlyStopping`` on this metric, maximising it.

        Parameters
        ----------
        rounds : int
            Stop after this many rounds without improvement.
        save_best : bool, default False
            Keep only the trees up to the best iteration (as XGBoost's own option).
        **kwargs
            Passed on (e.g. ``data_name``, ``min_delta``).
        """
        from ._core import import_optional

        xgb = import_optional("xgboost", "gbdt")
        return xgb.callback.EarlyStopping(
            rounds=rounds, metric_name=self.name, maximize=True, save_best=save_best, **kwargs
        )


@_factory
def xgboost_metric(
    *,
    weights: WeightsLike = "quadratic",
    min_rating: int | None = None,
    max_rating: int | None = None,
    thresholds: npt.ArrayLike | None = None,
    zero_division: ZeroDivision = "warn",
    name: str | None = None,
) -> XGBoostMetric:
    """A kappa eval metric for XGBoost (``custom_metric=`` or ``eval_metric=``).

    Parameters
    ----------{options}
    Returns
    -------
    XGBoostMetric
        Callable as ``metric(predt, dmatrix) -> (name, value)`` (``xgboost.train``) or
        ``metric(y_true, y_pred, sample_weight=None) -> value`` (scikit-learn API).

    Notes
    -----
    With ``multi:softprob`` XGBoost passes (n, K) probabilities, with a custom objective
    (n, K) raw margins — both become the argmax class. ``multi:softmax`` passes the class
    index per row: give ``min_rating=0, max_rating=num_class - 1`` so that clipping never
    touches it; ``binary:logitraw`` passes margins, cut with ``thresholds=[0.0]`` (refused
    without). Early stopping must maximise: ``xgboost.train(..., custom_metric=metric,
    maximize=True, early_stopping_rounds=r)``, or ``callbacks=[metric.early_stopping(r)]``
    (the scikit-learn API has no ``maximize``). Without them XGBoost would minimise the
    metric (``XGBRegressor(eval_metric=metric, early_stopping_rounds=r)`` would stop r rounds
    after the first one and keep the round of lowest kappa), so the metric refuses such
    early stopping with an error naming the fix. XGBoost records a
    custom metric in its evaluation history as text with six decimals (``"%f"``), so the
    history holds kappa rounded to 1e-6, and early stopping compares those rounded values.

    Examples
    --------
    >>> import numpy as np
    >>> from wkappa.gbdt import xgboost_metric
    >>> metric = xgboost_metric(min_rating=0, max_rating=2)
    >>> metric(np.array([0, 1, 2, 2]), np.array([0.2, 1.4, 1.4, 2.7]))
    0.8
    >>> metric.__name__
    'qwk'
    """
    return XGBoostMetric(
        weights=weights,
        min_rating=min_rating,
        max_rating=max_rating,
        thresholds=thresholds,
        zero_division=zero_division,
        name=name,
    )


class CatBoostMetric(GbdtScorer):
    """A kappa ``eval_metric`` for CatBoost (``CatBoostRegressor``/``Classifier``/``CatBoost``).

    Parameters
    ----------{options}
    Notes
    -----
    CatBoost calls :meth:`evaluate` once per dataset and iteration with the raw formula
    values ``approxes`` (one array per dimension): predictions for RMSE, logits for
    ``Logloss`` and ``CrossEntropy`` (pass ``thresholds=[0.0]``, i.e. probability 0.5; a
    binary ``CatBoostClassifier`` is refused without it), class margins for
    ``MultiClass`` (argmax; CatBoost passes the class indices ``0..K-1`` as ``target``; it
    sorts text classes as text, so these are refused for weighted kappa unless
    ``class_names`` gives their order).
    The value appears in ``model.get_evals_result()`` under the class name,
    ``'CatBoostMetric'``; CatBoost reads no other name, so subclass it to rename it
    (``class QWK(CatBoostMetric): pass`` appears as ``'QWK'``). A copy of the metric is the
    metric itself (it holds no state but the label ranges it has scored), so scikit-learn
    clones a CatBoost model that uses it (``cross_val_score``, ``GridSearchCV``), although
    CatBoost's ``get_params`` deep-copies its parameters. ``is_max_optimal`` is True, so
    early stopping and ``use_best_model`` keep the best iteration.

    CatBoost cannot record NaN, so an undefined kappa (a dataset whose labels and predicted
    grades are all one grade, such as a one-grade ``eval_set``) raises an error naming the
    fix, ``zero_division=0.0``, unless ``zero_division`` is a number other than NaN.

    CatBoost evaluates the metric on the learning set as well as on ``eval_set``, at every
    iteration (the ``'learn'`` entry of ``get_evals_result()``), and a Python metric cannot
    opt out: the ``hints=skip_train~true`` of CatBoost's metrics applies to built-in metrics
    named by string, and ``custom_metric=`` takes built-in metrics only. With early
    stopping, ``metric_period=N`` spares the learning set: CatBoost still evaluates the
    eval set at every iteration (it prints that it ignores ``metric_period`` for the eval
    metric) and the learning set every N-th iteration only, so ``get_best_score()['learn']``
    is then the last of those (the first iteration's, after an early stop). Without early
    stopping, ``metric_period`` thins both.

    Given the class uncalled (``eval_metric=CatBoostMetric``), or called as LightGBM and
    XGBoost call a metric, the metric raises an error with the fix (CatBoost shows it inside
    its own ``CatBoostError``).

    Examples
    --------
    >>> import numpy as np
    >>> from wkappa.gbdt import CatBoostMetric
    >>> metric = CatBoostMetric(min_rating=0, max_rating=2)
    >>> approxes, target = [np.array([0.2, 1.4, 1.4, 2.7])], np.array([0, 1, 2, 2])
    >>> error, weight = metric.evaluate(approxes, target, None)
    >>> metric.get_final_error(error, weight)
    0.8
    """

    no_jit = True  # CatBoost would otherwise try (and fail, noisily) to compile evaluate

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
        if name is not None:
            example = name if isinstance(name, str) and name.isidentifier() else "QWK"
            raise WkappaError(
                "CatBoost names a custom eval metric by its class, so `name` cannot rename "
                f"CatBoostMetric (got {format_value(name)}; the history key would stay "
                f"{_class_name(self)!r}). Hint: subclass it under the name you want: "
                f"class {example}(CatBoostMetric): pass."
            )
        super().__init__(
            weights=weights,
            min_rating=min_rating,
            max_rating=max_rating,
            thresholds=thresholds,
            zero_division=zero_division,
            name=_class_name(self),
        )

    def __copy__(self) -> CatBoostMetric:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> CatBoostMetric:
        """The metric itself: its only state is the label ranges of the data it scored
        (for the clipping warning), which copies may share, and CatBoost's ``get_params``
        deep-copies its parameters, which scikit-learn's ``clone`` refuses unless a copy is
        the metric."""
        return self

    @property
    def __name__(self) -> str:  # type: ignore[override]
        """The class name (XGBoost names a callable metric by it before calling it)."""
        return _class_name(self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Refuse a call: CatBoost calls :meth:`evaluate`; LightGBM and XGBoost, which call
        a metric, need their own (and LightGBM's scikit-learn API would ignore, without a
        word, a metric it cannot call)."""
        raise WkappaError(
            f"{_class_name(self)}() is CatBoost's eval metric, but it was called as "
            "LightGBM and XGBoost call a metric. Hint: pass lightgbm_metric() to LightGBM "
            "or xgboost_metric() to XGBoost, with the same options."
        )

    @instance_method
    def is_max_optimal(self) -> bool:
        """Kappa: higher is better."""
        return True

    @instance_method
    def calc_ders_range(self, *args: Any) -> Any:
        """CatBoost's objective entry point: refused, with the fix (it is an eval metric)."""
        raise WkappaError(
            f"{_class_name(self)}() is an eval metric, but CatBoost called it as the loss "
            "function. Hint: pass it as eval_metric=, with a built-in loss_function such "
            "as 'RMSE' (or 'MultiClass')."
        )

    @instance_method
    def evaluate(self, approxes: Any, target: Any, weight: Any) -> tuple[float, float]:
        """``(kappa, 1.0)`` for one dataset; kappa is not a sum over rows."""
        if approxes is None or len(approxes) == 0:
            raise WkappaError(
                "`approxes` must hold one array of predictions per dimension; got "
                f"{format_value(approxes)}. {PREDICTIONS_HINT}"
            )
        columns = [gbdt_numbers(column, "`approxes`", PREDICTIONS_HINT) for column in approxes]
        if len({column.shape for column in columns}) > 1:
            shapes = ", ".join(str(column.shape) for column in columns)
            raise WkappaError(
                f"The arrays of `approxes` differ in shape ({shapes}); each holds one "
                f"prediction per row. {PREDICTIONS_HINT}"
            )
        if len(columns) == 1 and self.thresholds is None:
            check_catboost_logits(f"{_class_name(self)}()")
        preds = columns[0] if len(columns) == 1 else np.column_stack(columns)
        value = self.score(target, preds, weight, ("`target`", "`approxes`"))
        if np.isnan(value):  # CatBoost fails on it with "JSON writer: invalid float value"
            raise WkappaError(
                "Kappa is undefined on a dataset CatBoost evaluates (its labels and the "
                "predicted grades are one and the same grade, or its weights are all 0), and "
                "CatBoost cannot record NaN as a metric value. Hint: pass zero_division=0.0 "
                f"to {_class_name(self)}() to score such a dataset as no agreement beyond "
                "chance; a one-grade eval_set (a fold with a single class) cannot rank "
                "iterations by kappa anyway."
            )
        return value, 1.0

    def get_final_error(self, error: float, weight: float) -> float:
        """The kappa returned by :meth:`evaluate`."""
        return error


@_factory
def qwk_objective() -> QWKObjective:
    """A smooth QWK objective (gradient and Hessian) for regression boosting.

    Returns
    -------
    QWKObjective
        Callable as LightGBM's ``objective`` (``params["objective"]`` of ``lightgbm.train``,
        or ``LGBMRegressor(objective=...)``) and XGBoost's (``xgboost.train(..., obj=...)``
        or ``XGBRegressor(objective=...)``); returns ``(grad, hess)``.

    Notes
    -----
    With labels y, raw scores p and sample weights w (W = Σw), QWK computed on the *unrounded*
    scores is ``κ = 1 - N / D`` with

    .. math::

        N = \\sum_k w_k (y_k - p_k)^2, \\qquad
        D = \\sum_k w_k y_k^2 + \\sum_k w_k p_k^2 - \\frac{2}{W} \\sum_k w_k y_k \\sum_k w_k p_k

    (``D / W`` is the mean squared difference over all pairs of a label and a score). The
    objective is ``N / D = 1 - κ``; its exact gradient is

    .. math::

        g_k = \\frac{2 w_k}{D} \\left[(p_k - y_k) - \\frac{N}{D} (p_k - \\bar y)\\right],

    squared error plus a push of every score away from the mean label, which undoes the
    shrinkage towards the mean that makes rounded squared-error predictions lose QWK. The exact
    diagonal Hessian, ``2 w_k (1 - N/D) / D + O(1/n)``, vanishes where boosting starts
    (constant scores have ``N = D``), so the squared-error curvature ``2 w_k / D`` is used.
    Both are returned multiplied by ``D / 2`` — ``g = w [(p - y) - (N/D)(p - ȳ)]``,
    ``h = w`` — the units of squared error, so that regularisation (``min_child_weight``,
    ``lambda``) means what it usually does; Newton steps do not change.

    Kappa is not a sum over rows: the objective must see the whole training set in each call
    (true for LightGBM and XGBoost; CatBoost computes objectives on ranges of rows, so as its
    ``loss_function`` the objective raises an error saying so, with the fix). Start
    from the mean label — LightGBM: ``init_score=np.full(n, y.mean())`` on the datasets and add
    ``y.mean()`` to raw predictions; XGBoost: ``base_score=y.mean()`` — because the gradient
    moves a constant offset only at rate ``1 - N/D``, which is 0 at the start. Round (or
    threshold) the scores to grades afterwards; :func:`lightgbm_metric` /
    :func:`xgboost_metric` score them while training.

    Examples
    --------
    >>> import numpy as np
    >>> from wkappa.gbdt import qwk_objective
    >>> grad, hess = qwk_objective()(np.array([0.0, 1, 2, 3]), np.array([0.5, 1.0, 1.5, 2.0]))
    >>> grad.round(3), hess.round(3)
    (array([ 0.731,  0.115, -0.5  , -1.115]), array([1., 1., 1., 1.]))
    """
    return QWKObjective()


for _target in (lightgbm_metric, xgboost_metric, CatBoostMetric):
    if _target.__doc__:
        _target.__doc__ = _target.__doc__.replace("{options}", _OPTIONS_DOC.rstrip(" "))

# Keep last: pickles name wkappa.gbdt.QWKObjective, not the private module that defines it.
publish(globals())
