"""A pyarrow column of categories read in chunks, each with its own dictionary (a stream that
replaces it, a file or table that adds to it), as one column of one order.

pyarrow merges the dictionaries with the categories in the order they first appear
(``unify_dictionaries``). For an ordered column that is the order of every chunk only when no
chunk gives two categories in the other order: then the column has no one order, and it is
read as unordered, so that a weighted coefficient refuses it (and ``labels=`` gives the order)
rather than score it on an order no chunk states.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["combined_dictionary", "merged_categories", "one_dictionary_table"]


def merged_categories(dictionaries: Sequence[Sequence[Any]]) -> list[Any] | None:
    """The categories of several dictionaries of one column, in the order they first appear;
    None when one dictionary gives two of them in the other order.

    Examples
    --------
    >>> merged_categories([["low", "high"], ["low", "mid", "high"]]) is None
    True
    >>> merged_categories([["low", "mid"], ["low", "mid", "high"]])
    ['low', 'mid', 'high']
    """
    merged: dict[Any, int] = {}
    for dictionary in dictionaries:
        for value in dictionary:
            merged.setdefault(value, len(merged))
        positions = [merged[value] for value in dictionary]
        if positions != sorted(positions):
            return None
    return list(merged)


def combined_dictionary(array: Any) -> tuple[Any, bool]:
    """A pyarrow dictionary array or chunked array as one ``DictionaryArray`` (the chunks'
    dictionaries merged, :func:`merged_categories`) and whether it is ordered: the type's
    flag, unless the chunks give two categories in different orders."""
    pa = sys.modules["pyarrow"]  # (the caller holds a pyarrow object)
    if not isinstance(array, pa.ChunkedArray):
        return array, bool(array.type.ordered)
    ordered = bool(array.type.ordered)
    dictionaries = [chunk.dictionary for chunk in array.chunks]
    if ordered and any(not d.equals(dictionaries[0]) for d in dictionaries[1:]):
        ordered = merged_categories([d.to_pylist() for d in dictionaries]) is not None
    return array.unify_dictionaries().combine_chunks(), ordered


def one_dictionary_table(table: Any) -> Any:
    """A pyarrow Table whose dictionary columns each have one dictionary in every chunk (as a
    group-by needs), in the order of :func:`combined_dictionary`: an ordered column whose
    chunks give two categories in different orders becomes unordered."""
    pa = sys.modules["pyarrow"]  # (the caller holds a pyarrow object)
    chunked = [
        i
        for i, field in enumerate(table.schema)
        if pa.types.is_dictionary(field.type) and table.column(i).num_chunks > 1
    ]
    if not chunked:
        return table
    for i in chunked:
        field, column = table.schema.field(i), table.column(i)
        if field.type.ordered and not combined_dictionary(column)[1]:
            loose = pa.dictionary(field.type.index_type, field.type.value_type, ordered=False)
            table = table.set_column(i, field.with_type(loose), column.cast(loose))
    return table.unify_dictionaries()
