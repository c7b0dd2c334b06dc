"""Which slot of a GBDT library calls a wkappa eval metric or objective, so that an object given
to the wrong slot is refused with the fix instead of failing inside the library.

LightGBM and XGBoost call an eval metric and an objective with the same arguments
(``(y_true, y_pred)`` in their scikit-learn APIs, ``(preds, dataset)`` natively), so only the
calling function tells them apart: the wrappers of each library's two slots, by module and
function name. An unknown caller (a newer library, the user's own code) is no slot, and the
call goes ahead.
"""

from __future__ import annotations

import sys
from typing import Any

from ..exceptions import WkappaError

__all__ = ["METRIC_SLOTS", "CatBoostRefusals", "calling_slot", "metric_called_as_objective"]

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
