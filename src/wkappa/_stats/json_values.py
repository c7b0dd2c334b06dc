"""JSON values of results: the one rule every ``to_dict()`` (and the CLI's ``--format json``) uses.

A result holds Python and numpy scalars, labels of any hashable type, numpy arrays, tuples,
confidence intervals and None. :func:`json_value` turns each into what :func:`json.dumps`
writes as strict JSON (``allow_nan=False``); :func:`json_fields` builds a result's ordered dict
of named attributes through it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["json_fields", "json_float", "json_value"]


def json_float(value: float) -> float | None:
    """A float for JSON: nan and infinities become None."""
    value = float(value)
    return value if math.isfinite(value) else None


def json_value(value: Any) -> Any:
    """``value`` as JSON: None, bool, str and int as they are (numpy scalars as the Python
    ones), floats through :func:`json_float` (nan and infinities become None), arrays, lists
    and tuples as lists of JSON values, dicts with their values converted, an object with a
    ``to_dict()`` (a :class:`~wkappa.ConfidenceInterval`) as that dict, and any other label
    (a date, a pandas Timestamp) as its ``str``.

    Examples
    --------
    >>> import numpy as np
    >>> json_value([np.int64(2), np.float64("nan"), "a", (True, None)])
    [2, None, 'a', [True, None]]
    >>> json_value(np.array([[0.5, np.inf]]))
    [[0.5, None]]
    """
    if isinstance(value, np.generic):
        value = value.item()
    kind = type(value)
    if kind is float:
        return json_float(value)
    if kind is int or kind is str or kind is bool or value is None:
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return json_float(value)
    if isinstance(value, np.ndarray):
        return _array_value(value)
    if isinstance(value, dict):
        return {key: json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, range)):
        return [json_value(item) for item in value]
    if callable(getattr(value, "to_dict", None)):
        return value.to_dict()
    return str(value)


def _array_value(array: np.ndarray) -> Any:
    """:func:`json_value` of ``array.tolist()``, a whole numeric array at once: ``tolist``
    gives Python bools, ints and floats already, so only the floats that are not finite are
    replaced (by None); other arrays (objects, text, dates, long doubles) go element by
    element."""
    if array.ndim == 0 or array.dtype.kind not in "biuf" or array.dtype.itemsize > 8:
        return json_value(array.tolist())
    if array.dtype.kind == "f":
        finite = np.isfinite(array)
        if not finite.all():
            cells = array.astype(object)
            cells[~finite] = None
            return cells.tolist()
    return array.tolist()


def json_fields(result: Any, names: str | Iterable[str], **values: Any) -> dict[str, Any]:
    """``{name: json_value(result.name)}`` for each of ``names`` (an iterable, or one string of
    names separated by spaces), in that order.

    A keyword argument gives the value of a name instead of the attribute (the interval at the
    caller's ``confidence_level``, a list built for the result). A name written with a
    trailing ``?`` is left out when its value is None (``n_clusters?``: only a clustered
    result has the key).

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_test_from_table([[3, 1], [1, 2]], labels=["no", "yes"])
    >>> json_fields(result, "n_clusters? n labels weights", weights="mine")
    {'n': 7, 'labels': ['no', 'yes'], 'weights': 'mine'}
    """
    fields: dict[str, Any] = {}
    for spelled in names.split() if isinstance(names, str) else names:
        name = spelled.removesuffix("?")
        value = values[name] if name in values else getattr(result, name)
        if value is None and spelled.endswith("?"):
            continue
        fields[name] = json_value(value)
    return fields
