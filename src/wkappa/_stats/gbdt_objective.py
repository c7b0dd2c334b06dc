"""A smooth QWK objective (gradient and Hessian) for regression boosting.

Exposed as :func:`wkappa.gbdt.qwk_objective`; see its docstring for the formulas.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..exceptions import WkappaError

__all__ = ["QWKObjective", "smooth_qwk_loss"]


def _arrays(y_true: Any, y_pred: Any, sample_weight: Any) -> tuple[np.ndarray, ...]:
    y = np.asarray(y_true, dtype=np.float64).ravel()
    p = np.asarray(y_pred, dtype=np.float64)
    if p.ndim != 1 or p.shape[0] != y.shape[0]:
        raise WkappaError(
            f"The smooth QWK objective needs one score per row ({y.shape[0]}); got shape "
            f"{p.shape}. Hint: it is for regression boosting, not multiclass."
        )
    if sample_weight is None or np.size(sample_weight) == 0:
        w = np.ones_like(y)
    else:
        w = np.asarray(sample_weight, dtype=np.float64).ravel()
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


class QWKObjective:
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

    def __repr__(self) -> str:
        return "QWKObjective()"

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
        for module, name in (("lightgbm", "Dataset"), ("xgboost", "DMatrix")):
            library = sys.modules.get(module)
            if library is not None and isinstance(second, getattr(library, name)):
                return self.gradient(second.get_label(), first, second.get_weight())
        return self.gradient(first, second, sample_weight)  # scikit-learn APIs
