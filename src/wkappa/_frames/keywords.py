"""The calling convention of :mod:`wkappa.frames`: the data frame positionally, then keywords."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..exceptions import WkappaTypeError

__all__ = ["names_as_keywords"]

_Function = TypeVar("_Function", bound=Callable[..., Any])

# What a call of each function looks like, for the error message.
_KEYWORD_HINT = {
    "weighted_kappa": "y_true='a', y_pred='b'",
    "confusion_table": "y_true='a', y_pred='b'",
    "kappa_test": "y_true='a', y_pred='b'",
    "kappa_by_group": "y_true='a', y_pred='b', by='group'",
    "agreement": "raters=['a', 'b', 'c']",
    "rater_vs_panel": "candidate='judge', raters=['a', 'b']",
    "paired_kappa_test": "y_true='truth', y_pred_a='a', y_pred_b='b'",
}


def names_as_keywords(function: _Function) -> _Function:
    """Refuse column names given positionally (``frames.weighted_kappa(df, "a", "b")``) with
    the call to write instead of Python's bare TypeError."""

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if len(args) > 1:
            shown = ", ".join(repr(a) for a in args[1:3])
            raise WkappaTypeError(
                f"frames.{function.__name__} takes the data frame and then keywords only; got "
                f"{shown} as positional arguments. Hint: name them, e.g. "
                f"frames.{function.__name__}(df, {_KEYWORD_HINT.get(function.__name__, '...')})."
            )
        return function(*args, **kwargs)

    return cast(_Function, checked)
