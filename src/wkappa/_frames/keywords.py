"""The calling convention of :mod:`wkappa.frames`: the data frame positionally, then keywords;
pandas' ``unhashable type`` of an object column of lists or dicts as an error naming it; and
a Dask frame's group-bys shuffled by tasks."""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar, cast

from ..exceptions import WkappaError, WkappaTypeError

__all__ = ["names_as_keywords"]

_Function = TypeVar("_Function", bound=Callable[..., Any])

# What a call of each function looks like, for the error message.
_KEYWORD_HINT = {
    "weighted_kappa": "y_true='a', y_pred='b'",
    "confusion_table": "y_true='a', y_pred='b'",
    "kappa_test": "y_true='a', y_pred='b'",
    "kappa_by_group": "y_true='a', y_pred='b', by='group'",
    "agreement": "raters=['a', 'b', 'c']",
    "krippendorff_alpha": "raters=['a', 'b', 'c'], level='ordinal'",
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
        df = args[0] if args else kwargs.get("df")
        try:
            with _task_shuffle(df):
                return function(*args, **kwargs)
        except TypeError as error:  # pandas hashing an object column's lists or dicts
            if not str(error).startswith("unhashable type"):
                raise
            raise _unhashable(df, kwargs, str(error)) from None

    return cast(_Function, checked)


@contextlib.contextmanager
def _task_shuffle(df: Any) -> Iterator[None]:
    """With a Dask frame, the group-bys of the call shuffle by tasks (Dask's shuffle without
    a cluster): under dask.distributed the peer-to-peer shuffle would log two "Shuffle ..."
    warnings per group-by to the caller's stderr. The setting is restored on return."""
    dask = sys.modules.get("dask")
    if dask is None or not type(df).__module__.startswith("dask"):
        yield
        return
    with dask.config.set({"dataframe.shuffle.method": "tasks"}):
        yield


def _unhashable(df: Any, keywords: dict[str, Any], error: str) -> WkappaError:
    """The error for a column whose values are lists, dicts or arrays (an object column of
    pandas or Dask, which no dtype marks), naming the parameter that reads it if found."""
    for parameter, value in keywords.items():
        for name in [value] if isinstance(value, str) else list(value or ()):
            if not isinstance(value, (str, list, tuple)) or not isinstance(name, str):
                continue
            try:
                column = df[name]
                found = column.map(lambda v: not isinstance(v, Hashable)).any()
                found = bool(found.compute() if hasattr(found, "compute") else found)
            except Exception:  # not a pandas-like column: the message without the column
                continue
            if found:
                return WkappaError(
                    f"`{parameter}` names the column {name!r}, whose values are lists, dicts or "
                    "arrays (an object column); a rating, weight or group key is one value per "
                    "row. Hint: select or compute a column of single values (a string, number, "
                    "date or boolean) and name that one."
                )
    return WkappaError(
        f"A column read holds lists, dicts or arrays ({error}); a rating, weight or group key "
        "is one value per row. Hint: select or compute columns of single values."
    )
