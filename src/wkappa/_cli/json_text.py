"""The text of every command's ``--format json``.

A document's values go through :func:`~wkappa._stats.json_value` (the one rule for what a
value is in JSON: nan and infinities become null, arrays lists, labels text) and are written
by :func:`json.dumps`; this module only lays them out, as ``json.dumps(indent=2)`` does,
except that each list of scalars (a table row, the labels) stays on one line.

Values are converted and written a column at a time: the values of one key in a list of
objects with the same keys (the groups of ``wkappa score --by``, each with a few numbers and
two tables) are converted together, and all their numbers are written by one
:func:`json.dumps` call, whose text is then cut at the ``", "`` between them (a number,
``true``, ``false`` or ``null`` never contains one). Arrays of one shape are stacked and
their numbers converted as one flat list, then put back in lists of that shape. A document
is the column of one value.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

import numpy as np

from .._stats import json_value

__all__ = ["json_text"]

INDENT = "  "

# The types json.dumps writes without a ", " inside (exact types: a subclass of int or
# float may print otherwise).
_NUMBERS = frozenset({int, float, bool, type(None)})
# What json_value returns as it is.
_PLAIN = frozenset({int, str, bool, type(None)})
# Scalars whose column converts as one float array (float64 throughout).
_FLOATS = frozenset({float, np.float64})


def json_text(document: Any) -> str:
    """``document`` (through ``json_value``) as strict JSON, indented by two spaces, each list
    of scalars on one line; nan and infinities are null.

    Examples
    --------
    >>> import numpy as np
    >>> print(json_text({"n": np.int64(3), "table": np.array([[1.0, np.nan]]), "ok": [True]}))
    {
      "n": 3,
      "table": [
        [1.0, null]
      ],
      "ok": [true]
    }
    """
    return _Writer().write([document], 0)[0]


class _Writer:
    """Texts of columns of values, each at a depth of the document."""

    def __init__(self) -> None:
        self.strings: dict[str, str] = {}  # the text of each string written
        self.prefixes: dict[tuple[Any, type, int], tuple[str, str]] = {}

    def write(self, values: Sequence[Any], depth: int) -> list[str]:
        """The text of each of ``values`` (as they are; converted here by ``json_value``)."""
        kind = _raw_column_kind(values)
        if kind is not None:
            return self._write(kind, list(values), depth)
        return _by_kind(values, _raw_kind, lambda kind, part: self._write(kind, part, depth))

    def _write(self, kind: Any, values: list[Any], depth: int) -> list[str]:
        if kind == "floats":
            return self.texts(json_value(np.array(values, dtype=np.float64)), depth)
        if kind[0] == "array":  # of one shape and type: json_value of each, all at once
            stack = np.stack(values)
            shape, dtype = kind[1], kind[2]
            if not shape or dtype.kind not in "biuf" or dtype.itemsize > 8:
                return self.texts(json_value(stack), depth)
            # Numbers (json_value of a number array is that of each number): their texts
            # from one flat list, then put in lists of the arrays' shape.
            return _nested(_numbers(json_value(stack.reshape(-1))), len(values), shape, depth)
        if kind == "records":  # lists of objects: json_value of a list is of each item
            lengths = [len(value) for value in values]
            items = self.write([item for value in values for item in value], depth + 1)
            return _lines(items, lengths, depth)
        if kind[0] == "object":  # with these keys: json_value of each value
            keys = kind[1]
            columns = [self.write([value[key] for value in values], depth + 1) for key in keys]
            return self._objects(keys, columns, len(values), depth)
        if set(map(type, values)) <= _PLAIN:  # json_value returns them as they are
            return self.texts(values, depth)
        return self.texts(json_value(values), depth)

    def texts(self, values: list[Any], depth: int) -> list[str]:
        """The text of each of ``values``, values ``json_value`` returned."""
        kind = _column_kind(values)
        if kind is not None:
            return self._texts(kind, values, depth)
        return _by_kind(values, _kind, lambda kind, part: self._texts(kind, part, depth))

    def _texts(self, kind: Any, values: list[Any], depth: int) -> list[str]:
        if kind == "numbers":
            return _numbers(values)
        if kind == "strings":
            strings = self.strings
            for value in set(values).difference(strings):
                strings[value] = json.dumps(value)
            return [strings[value] for value in values]
        if kind == "number lists":  # on one line each, as json.dumps writes a list
            # "[[1, 2], [], [3]]": a list's items never contain "], [" (only the lists' ends)
            return ["[" + items + "]" for items in _dumps(values)[2:-2].split("], [")]
        if kind == "scalar lists":
            return [json.dumps(value, allow_nan=False) for value in values]
        if kind == "lists":  # of lists or objects: an item a line
            lengths = [len(value) for value in values]
            items = self.texts([item for value in values for item in value], depth + 1)
            return _lines(items, lengths, depth)
        if kind[0] == "object":  # with these keys
            keys = kind[1]
            columns = [self.texts([value[key] for value in values], depth + 1) for key in keys]
            return self._objects(keys, columns, len(values), depth)
        if kind == "tuples":  # from a to_dict(): laid out as json.dumps lays them out
            shift = "\n" + INDENT * depth
            return [
                json.dumps(value, indent=len(INDENT), allow_nan=False).replace("\n", shift)
                for value in values
            ]
        return [json.dumps(value, allow_nan=False) for value in values]

    def _objects(
        self, keys: tuple[Any, ...], columns: list[list[str]], count: int, depth: int
    ) -> list[str]:
        """``count`` objects with ``keys``, from the texts of their values (a column a key)."""
        if not keys:
            return ["{}"] * count
        prefixes = [self._prefix(key, depth + 1, index > 0) for index, key in enumerate(keys)]
        close = "\n" + INDENT * depth + "}"
        return [
            "{" + "".join(map(operator.add, prefixes, row)) + close
            for row in zip(*columns, strict=True)
        ]

    def _prefix(self, key: Any, depth: int, after: bool) -> str:
        """What comes before the value of ``key`` in an object (after another item or not);
        the key is written as json.dumps writes a key (a number or None as its text)."""
        found = self.prefixes.get((key, type(key), depth))
        if found is None:
            written = json.dumps({key: None}, allow_nan=False)[1 : -len(": null}")]
            line = "\n" + INDENT * depth + written + ": "
            found = self.prefixes[key, type(key), depth] = (line, "," + line)
        return found[after]


def _by_kind(
    values: Sequence[Any],
    kind_of: Callable[[Any], Any],
    texts: Callable[[Any, list[Any]], list[str]],
) -> list[str]:
    """``texts(kind, values of that kind)`` for each kind of ``values``, in their order."""
    kinds = [kind_of(value) for value in values]
    first = kinds[0] if kinds else None
    if all(kind == first for kind in kinds):
        return texts(first, list(values)) if kinds else []
    written: list[str] = [""] * len(values)
    for kind in dict.fromkeys(kinds):
        where = [index for index, other in enumerate(kinds) if other == kind]
        for index, text in zip(where, texts(kind, [values[i] for i in where]), strict=True):
            written[index] = text
    return written


def _raw_column_kind(values: Sequence[Any]) -> Any:
    """The one :func:`_raw_kind` of all ``values`` when a glance at their types tells (else
    None: each value's kind is looked at)."""
    types = set(map(type, values))
    if types <= _FLOATS:
        return "floats" if types else "one"
    if types == {dict}:
        kinds = set(map(_object_kind, values))
        return kinds.pop() if len(kinds) == 1 else None
    if types == {np.ndarray}:
        kinds = {("array", value.shape, value.dtype) for value in values}
        return kinds.pop() if len(kinds) == 1 else None
    if types == {list}:
        items = set(map(type, chain.from_iterable(values)))
        if items == {dict}:
            return "records"  # (an empty one among them is [] as either kind writes it)
        types = items
    if not any(issubclass(kind, (dict, list, np.ndarray)) for kind in types):
        return "one"  # scalars, or lists of them
    return None


def _column_kind(values: list[Any]) -> Any:
    """The one :func:`_kind` of all ``values`` when a glance at their types tells (else
    None)."""
    types = set(map(type, values))
    if types <= _NUMBERS:
        return "numbers"
    if types == {str}:
        return "strings"
    if types == {dict}:
        kinds = set(map(_object_kind, values))
        return kinds.pop() if len(kinds) == 1 else None
    if types == {list}:
        items = set(map(type, chain.from_iterable(values)))
        if items <= _NUMBERS:
            return "number lists"
        if items <= {list, dict}:
            return "lists"  # (an empty one among them is [] as either kind writes it)
    return None


def _raw_kind(value: Any) -> Any:
    """How a column converts ``value``: as a float, an array, a list of objects, an object
    (by its keys), or one at a time."""
    kind = type(value)
    if kind in _FLOATS:
        return "floats"
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype)
    if isinstance(value, dict):
        return _object_kind(value)
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return "records"
    return "one"


def _kind(value: Any) -> Any:
    """How a column writes ``value`` (one that ``json_value`` returned)."""
    kind = type(value)
    if kind in _NUMBERS:
        return "numbers"
    if kind is str:
        return "strings"
    if isinstance(value, dict):
        return _object_kind(value)
    if isinstance(value, list):
        if any(isinstance(item, (list, dict)) for item in value):
            return "lists"
        return "number lists" if _NUMBERS.issuperset(map(type, value)) else "scalar lists"
    if isinstance(value, tuple):
        return "tuples"
    return "other"


def _object_kind(value: dict[Any, Any]) -> tuple[str, tuple[Any, ...], tuple[type, ...]]:
    """Objects with the same keys (of the same types: True and 1 are one key) in the same
    order are written together."""
    return ("object", tuple(value), tuple(map(type, value)))


def _numbers(values: list[Any]) -> list[str]:
    """The text json.dumps writes for each of ``values`` (numbers, bools, None): one call."""
    return _dumps(values)[1:-1].split(", ") if values else []


def _dumps(values: list[Any]) -> str:
    return json.dumps(values, allow_nan=False)


def _nested(numbers: list[str], count: int, shape: tuple[int, ...], depth: int) -> list[str]:
    """The texts of ``count`` arrays of ``shape`` (at least one axis) from the texts of their
    numbers (array after array, each in C order), as lists of lists: the last axis on one
    line, each outer list an item a line."""
    size = shape[-1]
    lists = count * math.prod(shape[:-1])  # of the last axis
    texts = ["[" + ", ".join(numbers[i * size : (i + 1) * size]) + "]" for i in range(lists)]
    for axis in reversed(range(len(shape) - 1)):
        lists = count * math.prod(shape[:axis])
        texts = _lines(texts, [shape[axis]] * lists, depth + axis)
    return texts


def _lines(items: list[str], lengths: list[int], depth: int) -> list[str]:
    """Lists with ``lengths`` items (their texts in ``items``, list after list), an item a
    line; an empty list is ``[]``."""
    inner = "\n" + INDENT * (depth + 1)
    close = "\n" + INDENT * depth + "]"
    texts, start = [], 0
    for length in lengths:
        end = start + length
        texts.append("[" + inner + ("," + inner).join(items[start:end]) + close if length else "[]")
        start = end
    return texts
