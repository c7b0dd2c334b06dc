"""Ordered dictionary columns of a Parquet or Arrow file: their categories are the label order.

pandas writes an ordered Categorical through pyarrow as an Arrow ``dictionary<...,
ordered=1>`` column, and the library reads such a column's dictionary, in order and unused
categories included, as the categories of the ratings (``wkappa._core.shared_categories``).
polars reads the column as an unordered ``Categorical``, so the command line would refuse
what the library scores. :func:`ordered_categories` finds these columns and their
dictionaries with pyarrow (one row group or record batch is read), and the scan casts each to
a polars ``Enum`` of its categories, which the library reads as the same order. Without
pyarrow (the ``cli`` extra does without it) nothing is found, and such a column reads as
unordered, as polars gives it.
"""

from __future__ import annotations

from typing import Any

from .._core import import_optional

__all__ = ["ordered_categories"]


def ordered_categories(path: str, fmt: str) -> dict[str, list[str]]:
    """Column name -> categories, in order, of each ordered dictionary column of text
    categories in the Parquet or Arrow IPC file ``path`` (``fmt``: ``"parquet"`` or
    ``"ipc"``); empty when there is none, without pyarrow, or when pyarrow cannot read the
    file (the reader then says what is wrong with it)."""
    if not _has_categorical(path, fmt):  # pyarrow (its import alone) is not needed
        return {}
    try:
        import pyarrow as pa
        import pyarrow.ipc
        import pyarrow.parquet
    except ImportError:
        return {}
    try:
        if fmt == "parquet":
            file = pyarrow.parquet.ParquetFile(path)
            names = _ordered(pa, file.schema_arrow)
            if not names or file.num_row_groups == 0:
                return {}
            table = file.read_row_group(0, columns=names)
        elif fmt == "ipc":
            reader = pyarrow.ipc.open_file(path)
            names = _ordered(pa, reader.schema)
            if not names or reader.num_record_batches == 0:
                return {}
            table = pa.Table.from_batches([reader.get_batch(0)]).select(names)
        else:
            return {}
        found = {name: table.column(name).combine_chunks().dictionary.to_pylist() for name in names}
    except Exception:  # a damaged file: the reader names what is wrong with it
        return {}
    return {name: values for name, values in found.items() if _text(values)}


def _has_categorical(path: str, fmt: str) -> bool:
    """Whether polars reads a column of the file as a ``Categorical`` (a dictionary column,
    ordered or not), from the file's schema alone."""
    pl = import_optional("polars", "cli")
    try:
        schema = pl.read_parquet_schema(path) if fmt == "parquet" else pl.read_ipc_schema(path)
    except Exception:  # a damaged file: the reader names what is wrong with it
        return False
    return any(dtype == pl.Categorical for dtype in schema.values())


def _ordered(pa: Any, schema: Any) -> list[str]:
    return [
        field.name for field in schema if pa.types.is_dictionary(field.type) and field.type.ordered
    ]


def _text(values: list[Any]) -> bool:
    """Whether the categories can be a polars Enum: distinct strings, none missing."""
    return all(isinstance(v, str) for v in values) and len(set(values)) == len(values)
