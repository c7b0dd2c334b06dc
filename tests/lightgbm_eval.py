"""The validation sets of a LightGBM scikit-learn ``fit``, in the keywords the installed
LightGBM takes: ``eval_X`` and ``eval_y`` (LightGBM 4.7 deprecated ``eval_set``, with a
FutureWarning), or ``eval_set`` before them. ``model.fit(X, y, **eval_sets((XV, YV)))``."""

from __future__ import annotations

import inspect
from typing import Any

import lightgbm as lgb

HAS_EVAL_X = "eval_X" in inspect.signature(lgb.LGBMModel.fit).parameters


def eval_sets(*sets: tuple[Any, Any]) -> dict[str, Any]:
    """``{"eval_X": (X1, ...), "eval_y": (y1, ...)}``, or ``{"eval_set": [(X1, y1), ...]}``."""
    if HAS_EVAL_X:
        return {"eval_X": tuple(x for x, _ in sets), "eval_y": tuple(y for _, y in sets)}
    return {"eval_set": list(sets)}
