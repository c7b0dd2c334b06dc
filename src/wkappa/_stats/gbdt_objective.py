"""A smooth QWK objective (gradient and Hessian) for regression boosting.

Exposed as :func:`wkappa.gbdt.qwk_objective`; see its docstring for the formulas.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .._core import format_value
from ..exceptions import WkappaError
from .gbdt_slots import METRIC_SLOTS, CatBoostRefusals, calling_slot

__all__ = [
    "LABELS_HINT",
    "NO_LABELS_HINT",
    "PREDICTIONS_HINT",
    "QWKObjective",
    "gbdt_numbers",
    "nonfinite_row",
    "smooth_qwk_loss",
]

LABELS_HINT = (
    "Hint: the GBDT metrics and objective score integer grades; map text labels to their "
    "grades (e.g. {'low': 0, 'mid': 1, 'high': 2}) before training, or score text labels "
    "afterwards with wkappa.weighted_kappa(y_true, y_pred, labels=[...])."
)
NO_LABELS_HINT = "Hint: give the Dataset or DMatrix its labels (label=...)."
PREDICTIONS_HINT = (
    "Hint: pass the model's raw predictions: one number per row, or an (n, K) array of "
    "class scores."
)

_WEIGHTS_HINT = "Hint: give the training Dataset or DMatrix one weight per row (weight=...)."


def nonfinite_row(values: np.ndarray) -> int | None:
    """The first row of ``values`` (a row: one number, or a row of class scores) that holds
    NaN or infinity, or None."""
    rows = np.atleast_1d(values)
    if np.isfinite(rows).all():
        return None
    return int(np.flatnonzero((~np.isfinite(rows)).reshape(rows.shape[0], -1).any(axis=1))[0])


def gbdt_numbers(values: Any, name: str, hint: str, none_hint: str = "") -> np.ndarray:
    """``values`` (labels, predictions or weights handed to a GBDT metric or objective) as a
    float64 array; None, text or rows of different lengths are an error naming ``name`` (the
    argument, as the caller calls it) with ``hint`` (``none_hint`` for None, if given)."""
    title = name[:1].upper() + name[1:]
    if values is None:
        raise WkappaError(f"Got None for {name}. {none_hint or hint}")
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        pass
    try:
        items = np.asarray(values, dtype=object).ravel()
    except ValueError:  # nested sequences numpy cannot lay out even as objects
        items = np.array([[]], dtype=object).ravel()
    for item in items:
        if isinstance(item, (list, tuple, np.ndarray)) or item is None:
            continue
        try:
            float(item)
        except (TypeError, ValueError):
            raise WkappaError(
                f"{title} must hold numbers; got {format_value(item)}. {hint}"
            ) from None
    raise WkappaError(
        f"The rows of {name} differ in length ({format_value(values)}); it must be one "
        f"number per row or a table of equal rows. {hint}"
    )


def _arrays(y_true: Any, y_pred: Any, sample_weight: Any) -> tuple[np.ndarray, ...]:
    y = gbdt_numbers(y_true, "the objective's labels", LABELS_HINT, NO_LABELS_HINT).ravel()
    p = gbdt_numbers(y_pred, "the objective's scores", PREDICTIONS_HINT)
    if p.ndim != 1 or p.shape[0] != y.shape[0]:
        raise WkappaError(
            f"The smooth QWK objective needs one score per row ({y.shape[0]}); got shape "
            f"{p.shape}. Hint: it is for regression boosting, not multiclass."
        )
    fixes = {
        "labels": "Hint: drop the rows without a label from the training data.",
        "scores": "Hint: if the boosting diverged, check the learning rate and the features.",
    }
    for values, what in ((y, "labels"), (p, "scores")):
        row = nonfinite_row(values)
        if row is not None:
            raise WkappaError(
                f"The objective's {what} hold NaN or infinity (row {row}: "
                f"{format_value(values[row])}). {fixes[what]}"
            )
    if sample_weight is None or np.size(sample_weight) == 0:
        return y, p, np.ones_like(y)
    w = gbdt_numbers(sample_weight, "the objective's sample weights", _WEIGHTS_HINT).ravel()
    if w.shape != y.shape:
        raise WkappaError(
            f"The objective got {w.size} sample weights for {y.size} rows. {_WEIGHTS_HINT}"
        )
    if not (np.isfinite(w) & (w >= 0)).all() or not w.sum() > 0:
        raise WkappaError(
            "The objective's sample weights must be finite, non-negative and not all 0; got "
            f"{format_value(w.tolist())}. Hint: a row of weight 0 is left out; at least one "
            "row needs a weight above 0."
        )
    return y, p, w


def _terms(y: np.ndarray, p: np.ndarray, w: np.ndarray) -> tuple[float, float, float]:
    """N = Σw(y-p)², D = Σw y² + Σw p² - 2 (Σwy)(Σwp) / Σw, and the weighted mean label."""
    total = float(w.sum())
    mean_y = float(w @ y) / total
    observed = float(w @ (y - p) ** 2)
    chance = float(w @ (y * y) + w @ (p * p)) - 2.0 * float(w @ y) * float(w @ p) / total
    return observed, chance, mean_y


def smooth_qwk_loss(y_true: Any, y_pred: Any, sample_weight: Any = None) -> float:
    """``1 - κ`` of continuous predictions: ``N / D`` (see :func:`wkappa.gbdt.qwk_objective`)."""
    observed, chance, _ = _terms(*_arrays(y_true, y_pred, sample_weight))
    return observed / chance


class QWKObjective(CatBoostRefusals):
    """The smooth QWK objective; build it with :func:`wkappa.gbdt.qwk_objective`.

    Examples
    --------
    Gradient and Hessian (in squared error's units) for labels and constant raw scores, as
    the scikit-learn APIs call it:

    >>> from wkappa.gbdt import qwk_objective
    >>> grad, hess = qwk_objective()([0, 1, 2, 3], [1.5, 1.5, 1.5, 1.5])
    >>> grad, hess
    (array([ 1.5,  0.5, -0.5, -1.5]), array([1., 1., 1., 1.]))
    """

    no_jit = True  # CatBoost would otherwise try to compile calc_ders_range

    def __repr__(self) -> str:
        return "QWKObjective()"

    @property
    def __name__(self) -> str:
        """The factory's name (XGBoost's scikit-learn API reads it before calling a metric)."""
        return "qwk_objective"

    def catboost_refusal(self) -> str:
        """Why CatBoost cannot use it as an eval metric, with the fix."""
        return (
            "qwk_objective() is an objective for LightGBM and XGBoost, but CatBoost called "
            "it as an eval metric. Hint: pass eval_metric=CatBoostMetric() (with "
            "loss_function='RMSE')."
        )

    def calc_ders_range(self, approxes: Any, targets: Any, weights: Any) -> Any:
        """CatBoost's objective entry point: refused, with the fix.

        Raises
        ------
        WkappaError
            Always: CatBoost hands an objective a range of rows at a time, and kappa is
            not a sum over rows.
        """
        raise WkappaError(
            "The smooth QWK objective needs the whole training set in each call, and "
            "CatBoost computes an objective's derivatives on ranges of rows, so it cannot "
            "train CatBoost. Hint: train CatBoost with loss_function='RMSE' and "
            "eval_metric=CatBoostMetric(), then cut its predictions with "
            "wk.optimize_thresholds; or use the objective with LightGBM or XGBoost."
        )

    def gradient(
        self, y_true: Any, y_pred: Any, sample_weight: Any = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Gradient and (surrogate) Hessian of ``N / D``, both scaled by ``D / 2``.

        The scale makes them read like squared error's (``p - y`` and ``w``), so that
        regularisation such as XGBoost's ``min_child_weight`` keeps its usual meaning; Newton
        steps ``-Σg / Σh`` do not depend on it.
        """
        y, p, w = _arrays(y_true, y_pred, sample_weight)
        observed, chance, mean_y = _terms(y, p, w)
        ratio = observed / chance if chance > 0 else 0.0  # D = 0: labels and scores all equal
        grad = w * ((p - y) - ratio * (p - mean_y))
        return grad, w.copy()

    def __call__(
        self, first: Any, second: Any, sample_weight: Any = None
    ) -> tuple[np.ndarray, np.ndarray]:
        slot = calling_slot()
        if slot is not None and slot[1] == "eval metric":
            caller = slot[0]
            metric = "lightgbm_metric()" if caller == "LightGBM" else "xgboost_metric()"
            raise WkappaError(
                f"qwk_objective() is an objective, but {caller} called it as the eval "
                f"metric. Hint: pass it as the objective, and {metric} as the eval metric "
                f"({METRIC_SLOTS[caller]})."
            )
        for module, name in (("lightgbm", "Dataset"), ("xgboost", "DMatrix")):
            library = sys.modules.get(module)
            if library is not None and isinstance(second, getattr(library, name)):
                return self.gradient(second.get_label(), first, second.get_weight())
        return self.gradient(first, second, sample_weight)  # scikit-learn APIs
