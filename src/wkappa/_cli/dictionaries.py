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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core import import_optional

__all__ = ["Dictionaries", "ordered_categories", "unread_order_hint"]


@dataclass(frozen=True)
class Dictionaries:
    """The dictionary columns of a Parquet or Arrow file, as :func:`ordered_categories` found
    them: ``ordered`` maps each ordered one (of text categories) to its categories in order;
    ``unread`` names the dictionary columns whose order could not be read (pyarrow is not
    installed)."""

    ordered: dict[str, list[str]] = field(default_factory=dict)
    unread: tuple[str, ...] = ()


def ordered_categories(path: str, fmt: str) -> Dictionaries:
    """The ordered dictionary columns of text categories in the Parquet or Arrow IPC file
    ``path`` (``fmt``: ``"parquet"`` or ``"ipc"``) with their categories in order; none when
    there is none, or when pyarrow cannot read the file (the reader then says what is wrong
    with it). Without pyarrow, the file's dictionary columns are ``unread``."""
    categorical = _categorical(path, fmt)
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
        elif fmt == "ipc":
            reader = pa.ipc.open_file(path)
            names = _ordered(pa, reader.schema)
            if not names or reader.num_record_batches == 0:
                return Dictionaries()
            table = pa.Table.from_batches([reader.get_batch(0)]).select(names)
        else:
            return Dictionaries()
        found = {name: table.column(name).combine_chunks().dictionary.to_pylist() for name in names}
    except Exception:  # a damaged file: the reader names what is wrong with it
        return Dictionaries()
    return Dictionaries({name: values for name, values in found.items() if _text(values)})


def unread_order_hint(
    message: str, dictionaries: Dictionaries | None, columns: Sequence[str]
) -> str:
    """The refusal ``message`` of unordered ratings, saying why and how to fix it when some of
    ``columns`` are dictionary columns whose order pyarrow was not there to read (installing
    pyarrow comes first among the hint's fixes); ``message`` as it is otherwise.

    Examples
    --------
    >>> unread_order_hint("Unordered. Hint: pass --labels.", Dictionaries(unread=("a",)), ["a"])
    "Unordered. The file stores column 'a' as categories (a dictionary column): its order, \
if the file has one (an ordered pandas Categorical), is read with pyarrow, which is not \
installed. Hint: pip install pyarrow; or pass --labels."
    """
    unread = [c for c in columns if dictionaries is not None and c in dictionaries.unread]
    if not unread:
        return message
    head, _, hint = message.partition(" Hint: ")
    names = " and ".join(repr(c) for c in unread)
    one = len(unread) == 1
    note = (
        f" The file stores column{'' if one else 's'} {names} as categories "
        f"({'a dictionary column' if one else 'dictionary columns'}): "
        f"{'its' if one else 'their'} order, if the file has one (an ordered pandas "
        "Categorical), is read with pyarrow, which is not installed."
    )
    return f"{head}{note} Hint: pip install pyarrow" + (f"; or {hint}" if hint else ".")


def _categorical(path: str, fmt: str) -> list[str]:
    """The columns polars reads as a ``Categorical`` (a dictionary column, ordered or not),
    from the file's schema alone."""
    pl = import_optional("polars", "cli")
    try:
        schema = pl.read_parquet_schema(path) if fmt == "parquet" else pl.read_ipc_schema(path)
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
