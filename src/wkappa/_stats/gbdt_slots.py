"""Which slot of a GBDT library calls a wkappa eval metric or objective, so that an object given
to the wrong slot is refused with the fix instead of failing inside the library.

LightGBM and XGBoost call an eval metric and an objective with the same arguments
(``(y_true, y_pred)`` in their scikit-learn APIs, ``(preds, dataset)`` natively), so only the
calling function tells them apart: the wrappers of each library's two slots, by module and
function name. An unknown caller (a newer library, the user's own code) is no slot, and the
call goes ahead. The same calling frames tell the metrics what the libraries do not hand
them: the training labels (for the clipping warning) and XGBoost's early stopping (which
would minimise a metric it does not know).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar, cast

import numpy as np

from ..exceptions import WkappaError

__all__ = [
    "METRIC_SLOTS",
    "CatBoostRefusals",
    "calling_slot",
    "check_catboost_logits",
    "check_xgboost_margins",
    "classifier_text_classes",
    "instance_method",
    "lightgbm_eval_dataset",
    "lightgbm_unencoded_eval_y",
    "metric_called_as_objective",
    "xgboost_minimising_stop",
    "xgboost_training_labels",
]

# (module, function) of each library's call into a custom eval metric or objective; the
# scikit-learn wrappers share a function name, so their first argument's or class's name
# tells which slot they are.
_SLOTS = {
    ("lightgbm.basic", "update"): ("LightGBM", "objective"),
    ("lightgbm.basic", "__inner_eval"): ("LightGBM", "eval metric"),
    ("lightgbm.sklearn", "_ObjectiveFunctionWrapper"): ("LightGBM", "objective"),
    ("lightgbm.sklearn", "_EvalFunctionWrapper"): ("LightGBM", "eval metric"),
    ("xgboost.core", "update"): ("XGBoost", "objective"),
    ("xgboost.core", "boost"): ("XGBoost", "objective"),
    ("xgboost.core", "eval_set"): ("XGBoost", "eval metric"),
    ("xgboost.sklearn", "preds"): ("XGBoost", "objective"),
    ("xgboost.sklearn", "y_score"): ("XGBoost", "eval metric"),
}


def calling_slot(depth: int = 2) -> tuple[str, str] | None:
    """``(library, slot)`` of the function ``depth`` frames up (2: the caller of the function
    that asks), with slot 'objective' or 'eval metric'; None if that is not a GBDT library's
    call into a custom metric or objective."""
    try:
        frame = sys._getframe(depth)
    except ValueError:  # a shallower stack than asked for
        return None
    module = frame.f_globals.get("__name__", "")
    if module not in ("lightgbm.basic", "lightgbm.sklearn", "xgboost.core", "xgboost.sklearn"):
        return None
    code = frame.f_code
    name = code.co_name
    if module == "lightgbm.sklearn" and name == "__call__":
        name = type(frame.f_locals.get("self")).__name__
    elif module == "xgboost.sklearn" and name == "inner" and code.co_varnames:
        name = code.co_varnames[0]
    return _SLOTS.get((module, name))


# Where each library takes a custom eval metric, for the hints.
METRIC_SLOTS = {
    "LightGBM": "feval= of lightgbm.train, or eval_metric= of the scikit-learn API's fit",
    "XGBoost": "custom_metric= of xgboost.train, or eval_metric= of XGBRegressor / XGBClassifier",
}


def lightgbm_eval_dataset(depth: int = 2) -> Any:
    """The ``Dataset`` that LightGBM's scikit-learn API is evaluating, if the function
    ``depth`` frames up is its metric wrapper (which hands the metric the labels only); else
    None. Its ``reference`` is the training set, whose labels tell the clipping warning the
    grade scale."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return None
    if frame.f_globals.get("__name__") != "lightgbm.sklearn" or frame.f_code.co_name != "__call__":
        return None
    return frame.f_locals.get("dataset")


def xgboost_training_labels() -> Any:
    """The labels of the training ``DMatrix`` of the ``xgboost.train`` call (the native API,
    and the scikit-learn API's ``fit``, which calls it) that the caller runs inside, or None:
    XGBoost hands a metric the evaluated data alone, and the training labels tell the
    clipping warning the grade scale."""
    frame = _xgboost_frame("xgboost.training", "train")
    dtrain: Any = None if frame is None else frame.f_locals.get("dtrain")
    return dtrain.get_label() if hasattr(dtrain, "get_label") else None


def xgboost_minimising_stop(name: str) -> Any:
    """The ``EarlyStopping`` callback of the XGBoost training the caller runs inside that
    would minimise the metric named ``name`` (it watches that metric, or the last one, where
    XGBoost puts a custom metric, and was told ``maximize=False`` or left to decide, which
    for a name it does not know means minimising), or None."""
    frame = _xgboost_frame("xgboost.callback", "after_iteration")
    container: Any = None if frame is None else frame.f_locals.get("self")
    for callback in getattr(container, "callbacks", ()):
        maximize = getattr(callback, "maximize", True)
        if maximize is None:  # XGBoost decides by the name
            maximize = name.startswith(_XGBOOST_MAXIMISED) and name != "mape"
        if (
            type(callback).__name__ == "EarlyStopping"
            and not maximize
            and getattr(callback, "metric_name", None) in (None, name)
        ):
            return callback
    return None


def classifier_text_classes() -> tuple[str, list[Any]] | None:
    """``(classifier, classes)`` when the caller runs inside the ``fit`` of LightGBM's or
    CatBoost's scikit-learn classifier fitted on text classes in no order the user gave
    (CatBoost's ``class_names`` gives one): both sort the classes as text and hand a metric
    their positions in that order ('mild', 'moderate', 'none', 'severe'); else None."""
    frame: FrameType | None = sys._getframe(2)
    for _ in range(_FIT_DEPTH):
        if frame is None:
            return None
        module, function = frame.f_globals.get("__name__"), frame.f_code.co_name
        if module == "lightgbm.sklearn" and function == "fit":
            model = frame.f_locals.get("self")
            return _text_classes(model, getattr(model, "_classes", None))
        if module == "catboost.core" and function == "_fit":
            params = frame.f_locals.get("params")
            if not isinstance(params, dict) or params.get("class_names") is not None:
                return None
            pool: Any = frame.f_locals.get("train_pool")
            labels = pool.get_label() if hasattr(pool, "get_label") else None
            return _text_classes(frame.f_locals.get("self"), labels, sort=True)
        frame = frame.f_back
    return None


def lightgbm_unencoded_eval_y(labels: np.ndarray) -> list[Any] | None:
    """The classes of the ``LGBMClassifier`` whose ``fit`` the caller runs inside, when
    ``labels`` (what the metric got) are an ``eval_y`` as the user gave it, which those classes
    would encode to other class indices; else None. LightGBM 4.7 encodes the training labels
    and ``eval_set``'s as class indices ``0..K-1`` but hands ``eval_y`` on as given
    (lightgbm-org/LightGBM#7400), so the class scores would be compared with grades 1..K."""
    frame: FrameType | None = sys._getframe(2)
    outer = None  # the user's own call: LGBMClassifier.fit, around LGBMModel.fit
    for _ in range(_FIT_DEPTH):
        if frame is None:
            break
        if frame.f_globals.get("__name__") == "lightgbm.sklearn" and frame.f_code.co_name == "fit":
            outer = frame
        frame = frame.f_back
    if outer is None or outer.f_locals.get("eval_y") is None:
        return None
    classes = getattr(outer.f_locals.get("self"), "_classes", None)
    if classes is None or np.asarray(classes).dtype.kind not in "biuf":
        return None  # a regressor, or text classes (which LightGBM itself cannot read there)
    classes = np.asarray(classes).ravel()
    eval_y = outer.f_locals["eval_y"]
    for given in eval_y if isinstance(eval_y, tuple) else (eval_y,):
        try:
            raw = np.asarray(given, dtype=np.float64).ravel()
        except (TypeError, ValueError):
            continue
        if raw.shape == labels.shape and np.array_equal(raw, labels):
            encoded = np.searchsorted(classes, raw)
            if not np.array_equal(encoded, raw):
                return cast(list[Any], classes.tolist())
    return None


def check_catboost_logits(metric: str) -> None:
    """Refuse, with the fix, one output per row that CatBoost hands the eval metric ``metric``
    as logits: the caller runs inside the ``fit`` of a binary ``CatBoostClassifier`` (its
    default loss, Logloss) or of any model with ``loss_function`` Logloss or CrossEntropy.
    Rounded, a logit is not the predicted class (0.3 rounds to 0; its probability is above
    0.5)."""
    frame: FrameType | None = sys._getframe(2)
    for _ in range(_FIT_DEPTH):
        if frame is None:
            return
        if frame.f_globals.get("__name__") == "catboost.core" and frame.f_code.co_name == "_fit":
            params = frame.f_locals.get("params")
            loss = params.get("loss_function") if isinstance(params, dict) else None
            name = loss.split(":")[0] if isinstance(loss, str) else None
            if loss is None and "Classifier" in type(frame.f_locals.get("self")).__name__:
                name = "Logloss"  # a binary classifier's default
            if name in ("Logloss", "CrossEntropy"):
                raise WkappaError(
                    f"CatBoost hands the eval metric logits with loss_function={name!r} (one "
                    "per row), and a rounded logit is not the predicted class (0.3 rounds to "
                    f"0, yet its probability is above 0.5). Hint: pass thresholds=[0.0] to "
                    f"{metric}, which cuts the logits at probability 0.5."
                )
            return
        frame = frame.f_back


def _text_classes(model: Any, classes: Any, *, sort: bool = False) -> tuple[str, list[Any]] | None:
    """``model``'s class name and its ``classes`` (in the library's order, or, with ``sort``,
    the distinct labels ``classes`` sorted as text, CatBoost's order), if they are text."""
    if classes is None:
        return None
    values = np.asarray(classes).ravel()
    if values.dtype.kind in "biuf" or all(
        isinstance(value, (int, float, np.number)) for value in values.tolist()
    ):
        return None
    names = np.unique(values.astype(str)) if sort else values
    return type(model).__name__, names.tolist()


# How many frames above a metric's call a classifier's fit may be (LightGBM's sklearn fit,
# lightgbm.train and its evaluation; CatBoost's _fit, _train and its metric call).
_FIT_DEPTH = 32


def check_xgboost_margins(metric: str) -> None:
    """Refuse, with the fix, the margins (logits) that XGBoost hands the eval metric
    ``metric`` under ``objective='binary:logitraw'`` (the ``xgboost.train`` call the caller
    runs inside says): rounded, a margin is not the predicted class (0.3 rounds to 0; its
    probability is above 0.5)."""
    frame = _xgboost_frame("xgboost.training", "train")
    params: Any = None if frame is None else frame.f_locals.get("params")
    if isinstance(params, dict) and params.get("objective") == "binary:logitraw":
        raise WkappaError(
            "XGBoost hands the eval metric margins (logits) with objective='binary:logitraw', "
            "and a rounded margin is not the predicted class (0.3 rounds to 0, yet its "
            f"probability is above 0.5). Hint: pass thresholds=[0.0] to {metric}, which cuts "
            "the margins at probability 0.5."
        )


def _xgboost_frame(module: str, function: str) -> FrameType | None:
    """The frame of XGBoost's ``module.function`` that the metric's call runs inside (at
    most :data:`_XGBOOST_DEPTH` frames up), or None."""
    frame = sys._getframe(2).f_back
    for _ in range(_XGBOOST_DEPTH):
        if frame is None:
            return None
        if frame.f_globals.get("__name__") == module and frame.f_code.co_name == function:
            return frame
        frame = frame.f_back
    return None


# The metric names XGBoost's early stopping maximises when not told (EarlyStopping's rule).
_XGBOOST_MAXIMISED = (
    "auc",
    "aucpr",
    "pre",
    "pre@",
    "map",
    "ndcg",
    "auc@",
    "aucpr@",
    "map@",
    "ndcg@",
)

# How many frames above a metric's call xgboost.train may be (callbacks, eval_set, the
# scikit-learn decorator, wkappa's own frames).
_XGBOOST_DEPTH = 16


def metric_called_as_objective(built_by: str, library: str, right: str) -> WkappaError:
    """The error for the eval metric ``built_by`` called by ``library`` as its objective
    (``right``: how to build ``library``'s metric)."""
    metric = "it" if right == built_by else f"{right} (with the same options)"
    return WkappaError(
        f"{built_by} is an eval metric, but {library} called it as the objective. Hint: "
        f"pass {metric} as the eval metric ({METRIC_SLOTS[library]}), and a built-in "
        "objective or qwk_objective() as the objective."
    )


class CatBoostRefusals:
    """CatBoost's entry points for an eval metric (``is_max_optimal``, ``evaluate``) and an
    objective (``calc_ders_range``), refusing the call with the fix: CatBoost calls them on
    any object it is given, and LightGBM's and XGBoost's metrics and the QWK objective have
    none of their own."""

    no_jit = True  # CatBoost would otherwise try to compile the refusals

    def catboost_refusal(self) -> str:
        """The refusal, with the fix."""
        raise NotImplementedError

    def _refuse_catboost(self, *args: Any) -> Any:
        raise WkappaError(self.catboost_refusal())

    is_max_optimal = evaluate = get_final_error = calc_ders_range = _refuse_catboost


_F = TypeVar("_F", bound=Callable[..., Any])


class _InstanceMethod:
    """A method that, looked up on the class rather than an instance, refuses the call with
    the fix unless it is given an instance: CatBoost given the class uncalled
    (``eval_metric=CatBoostMetric``) calls its methods on the class."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method
        self.__doc__ = method.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is not None:
            return self.method.__get__(instance, owner)
        method, cls = self.method, owner

        @functools.wraps(method)
        def on_the_class(*args: Any, **kwargs: Any) -> Any:
            if args and cls is not None and isinstance(args[0], cls):
                return method(*args, **kwargs)
            name = getattr(cls, "__name__", "CatBoostMetric")
            raise WkappaError(
                f"`{name}` is the metric's class; CatBoost was given it uncalled "
                f"(eval_metric={name}) and calls its methods on the class. Hint: pass "
                f"{name}() (called, with any options) as eval_metric."
            )

        return on_the_class


def instance_method(method: _F) -> _F:
    """A method that refuses, with the fix, a call on the class without an instance (as
    CatBoost makes when given the class uncalled)."""
    return cast(_F, _InstanceMethod(method))
