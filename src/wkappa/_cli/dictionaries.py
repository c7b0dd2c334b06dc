"""Ordered dictionary columns of a Parquet or Arrow file: their categories are the label order.

pandas writes an ordered Categorical through pyarrow as an Arrow ``dictionary<...,
ordered=1>`` column, and the library reads such a column's dictionary, in order and unused
categories included, as the categories of the ratings (``wkappa._core.shared_categories``).
polars reads the column as an unordered ``Categorical``, so the command line would refuse
what the library scores. :func:`ordered_categories` finds these columns and their
dictionaries with pyarrow (one row group or record batch is read), and the scan casts each to
a polars ``Enum`` of its categories, which the library reads as the same order.

Without pyarrow (the ``cli`` extra does without it) the order cannot be read: polars' schema
shows a dictionary column as ``Categorical`` but not whether its dictionary is ordered, nor its
categories in order with the unused ones. Such a column then reads as unordered, as polars gives
it, and :func:`unread_order_hint` says so in the refusal of unordered ratings, with the fixes
(install pyarrow, or list the categories in ``--labels``).

An Arrow IPC stream (``pyarrow.ipc.new_stream``) is read as the file format is: its ordered
dictionaries are read with ``pyarrow.ipc.open_stream``, batch by batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core import import_optional, merged_categories

__all__ = ["Dictionaries", "ordered_categories", "unread_order_hint"]


@dataclass(frozen=True)
class Dictionaries:
    """The dictionary columns of a Parquet or Arrow file, as :func:`ordered_categories` found
    them: ``ordered`` maps each ordered one (of text categories) to its categories in order;
    ``unread`` names the dictionary columns whose order could not be read (pyarrow is not
    installed); ``contradicting`` the ordered ones whose record batches give their categories
    in different orders (an Arrow stream that replaces a dictionary)."""

    ordered: dict[str, list[str]] = field(default_factory=dict)
    unread: tuple[str, ...] = ()
    contradicting: tuple[str, ...] = ()


def ordered_categories(path: str, fmt: str, *, stream: bool = False) -> Dictionaries:
    """The ordered dictionary columns of text categories in the Parquet or Arrow IPC file
    ``path`` (``fmt``: ``"parquet"`` or ``"ipc"``; ``stream``: an Arrow IPC stream, not the
    file format) with their categories in order; none when there is none, or when pyarrow
    cannot read the file (the reader then says what is wrong with it). Without pyarrow, the
    file's dictionary columns are ``unread``.

    A missing category (a null in the dictionary) is left out, as a cell of it is missing. A
    Parquet file's first row group gives the categories (one dictionary per column). An Arrow
    file or stream's record batches may each carry a dictionary (a stream may replace it, a
    file may add to it): the categories are those of every batch, in the order they first
    appear, as the library reads the column (pyarrow's ``unify_dictionaries``); when a batch
    gives two categories in the other order, the column has no one order and is read as
    unordered, named in ``contradicting``."""
    categorical = _categorical(path, fmt, stream)
    if not categorical:  # pyarrow (its import alone) is not needed
        return Dictionaries()
    try:
        pa = import_optional("pyarrow", "frames")
        import_optional("pyarrow.ipc", "frames")
        import_optional("pyarrow.parquet", "frames")
    except ImportError:
        return Dictionaries(unread=tuple(categorical))
    try:
        if fmt == "parquet":
            file = pa.parquet.ParquetFile(path)
            names = _ordered(pa, file.schema_arrow)
            if not names or file.num_row_groups == 0:
                return Dictionaries()
            table = file.read_row_group(0, columns=names)
            found = {name: [table.column(name).combine_chunks().dictionary] for name in names}
        elif fmt == "ipc":
            found = _batch_dictionaries(pa, pa.memory_map(path), stream)
        else:
            return Dictionaries()
    except Exception:  # a damaged file: the reader names what is wrong with it
        return Dictionaries()
    ordered: dict[str, list[str]] = {}
    contradicting = []
    for name, dictionaries in found.items():
        values = merged_categories([d.drop_null().to_pylist() for d in dictionaries])
        if values is None:
            contradicting.append(name)
        elif _text(values):
            ordered[name] = values
    return Dictionaries(ordered, contradicting=tuple(contradicting))


def _batch_dictionaries(pa: Any, file: Any, stream: bool) -> dict[str, list[Any]]:
    """The dictionaries of each ordered dictionary column of an Arrow IPC file or stream,
    one per record batch (memory-mapped: a batch's other buffers are not read)."""
    reader = pa.ipc.open_stream(file) if stream else pa.ipc.open_file(file)
    names = _ordered(pa, reader.schema)
    found: dict[str, list[Any]] = {name: [] for name in names}
    if not names:
        return found
    batches = reader if stream else (reader.get_batch(i) for i in range(reader.num_record_batches))
    for batch in batches:
        for name in names:
            found[name].append(batch.column(name).dictionary)
    return {name: dictionaries for name, dictionaries in found.items() if dictionaries}


def unread_order_hint(
    message: str, dictionaries: Dictionaries | None, columns: Sequence[str]
) -> str:
    """The refusal ``message`` of unordered ratings, saying why and how to fix it when some of
    ``columns`` are dictionary columns whose order pyarrow was not there to read (installing
    pyarrow comes first among the hint's fixes), or ordered ones whose record batches give
    their categories in different orders; ``message`` as it is otherwise.

    Examples
    --------
    >>> unread_order_hint("Unordered. Hint: pass --labels.", Dictionaries(unread=("a",)), ["a"])
    "Unordered. The file stores column 'a' as categories (a dictionary column): its order, \
if the file has one (an ordered pandas Categorical), is read with pyarrow, which is not \
installed. Hint: pip install pyarrow; or pass --labels."
    >>> unread_order_hint("Unordered. Hint: pass --labels.", Dictionaries(contradicting=("a",)),
    ...                   ["a"])
    "Unordered. The file's column 'a' is an ordered dictionary column whose record batches \
give its categories in different orders (a stream that replaced its dictionary), so it has \
no one order. Hint: pass --labels."
    """
    if dictionaries is None:
        return message
    unread = [c for c in dict.fromkeys(columns) if c in dictionaries.unread]
    contradicting = [c for c in dict.fromkeys(columns) if c in dictionaries.contradicting]
    if not unread and not contradicting:
        return message
    head, _, hint = message.partition(" Hint: ")
    if contradicting:
        names = " and ".join(repr(c) for c in contradicting)
        one = len(contradicting) == 1
        head += (
            f" The file's column{'' if one else 's'} {names} "
            f"{'is an ordered dictionary column' if one else 'are ordered dictionary columns'} "
            f"whose record batches give {'its' if one else 'their'} categories in different "
            "orders (a stream that replaced its dictionary), so "
            f"{'it has' if one else 'they have'} no one order."
        )
    if not unread:
        return f"{head} Hint: {hint}" if hint else head
    names = " and ".join(repr(c) for c in unread)
    one = len(unread) == 1
    note = (
        f" The file stores column{'' if one else 's'} {names} as categories "
        f"({'a dictionary column' if one else 'dictionary columns'}): "
        f"{'its' if one else 'their'} order, if the file has one (an ordered pandas "
        "Categorical), is read with pyarrow, which is not installed."
    )
    return f"{head}{note} Hint: pip install pyarrow" + (f"; or {hint}" if hint else ".")


def _categorical(path: str, fmt: str, stream: bool) -> list[str]:
    """The columns polars reads as a ``Categorical`` (a dictionary column, ordered or not),
    from the file's schema alone (a stream's first message, as polars has no schema reader
    of streams)."""
    pl = import_optional("polars", "cli")
    try:
        if fmt == "parquet":
            schema = pl.read_parquet_schema(path)
        elif stream:
            schema = pl.read_ipc_stream(path, n_rows=0).schema
        else:
            schema = pl.read_ipc_schema(path)
    except Exception:  # a damaged file: the reader names what is wrong with it
        return []
    return [name for name, dtype in schema.items() if dtype == pl.Categorical]


def _ordered(pa: Any, schema: Any) -> list[str]:
    return [
        field.name for field in schema if pa.types.is_dictionary(field.type) and field.type.ordered
    ]


def _text(values: list[Any]) -> bool:
    """Whether the categories can be a polars Enum: distinct strings, none missing."""
    return all(isinstance(v, str) for v in values) and len(set(values)) == len(values)
