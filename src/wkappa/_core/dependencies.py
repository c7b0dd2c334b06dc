"""Detect foreign array and frame objects without importing their libraries.

A library the user did not import cannot have made the object we were given, so looking in
:data:`sys.modules` is enough and keeps ``import wkappa`` light.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

__all__ = [
    "frame_columns",
    "import_optional",
    "is_dataframe",
    "is_decimal",
    "is_fraction",
    "is_lazy_frame",
    "is_pandas_object",
    "is_polars_series",
    "is_pyarrow_array",
    "is_torch_tensor",
    "series_library",
]


def _loaded(name: str) -> ModuleType | None:
    return sys.modules.get(name)


def is_pandas_object(obj: Any) -> bool:
    """True for a pandas Series, Index, Categorical or extension array."""
    pd = _loaded("pandas")
    if pd is None:
        return False
    return isinstance(obj, (pd.Series, pd.Index, pd.Categorical, pd.api.extensions.ExtensionArray))


def is_dataframe(obj: Any) -> bool:
    """True for an in-memory frame of rating columns: a pandas or polars DataFrame or a
    pyarrow Table (:func:`is_pandas_object` is False for a pandas DataFrame)."""
    pd = _loaded("pandas")
    if pd is not None and isinstance(obj, pd.DataFrame):
        return True
    pl = _loaded("polars")
    if pl is not None and isinstance(obj, pl.DataFrame):
        return True
    pa = _loaded("pyarrow")
    return pa is not None and isinstance(obj, pa.Table)


def frame_columns(obj: Any, name: str, hint: str) -> list[tuple[str, Any]] | None:
    """The columns of an in-memory frame (pandas or polars DataFrame, pyarrow Table) as
    ``(name, column)`` pairs, or None for other inputs.

    A polars LazyFrame (its data are not in memory) is refused: ``name`` is the parameter,
    ``hint`` what to do instead.
    """
    if is_lazy_frame(obj):
        from ..exceptions import WkappaTypeError

        raise WkappaTypeError(
            f"`{name}` is a polars LazyFrame, whose data are not in memory. Hint: {hint}"
        )
    if not is_dataframe(obj):
        return None
    if hasattr(obj, "get_columns"):  # polars
        return [(series.name, series) for series in obj.get_columns()]
    if hasattr(obj, "column_names"):  # pyarrow Table
        return [(column, obj.column(g)) for g, column in enumerate(obj.column_names)]
    return [(str(column), obj.iloc[:, g]) for g, column in enumerate(obj.columns)]


def is_lazy_frame(obj: Any) -> bool:
    """True for a polars LazyFrame (its data are not in memory until collected)."""
    pl = _loaded("polars")
    return pl is not None and isinstance(obj, pl.LazyFrame)


def is_polars_series(obj: Any) -> bool:
    """True for a polars Series."""
    pl = _loaded("polars")
    return pl is not None and isinstance(obj, pl.Series)


def is_pyarrow_array(obj: Any) -> bool:
    """True for a pyarrow Array or ChunkedArray."""
    pa = _loaded("pyarrow")
    return pa is not None and isinstance(obj, (pa.Array, pa.ChunkedArray))


def series_library(obj: Any) -> str | None:
    """The frame library of a one-column object, the key its readers are filed under:
    'pandas' (:func:`is_pandas_object`), 'polars' (a Series), 'pyarrow' (an Array or
    ChunkedArray); None for anything else."""
    if is_pandas_object(obj):
        return "pandas"
    if is_polars_series(obj):
        return "polars"
    if is_pyarrow_array(obj):
        return "pyarrow"
    return None


def is_decimal(obj: Any) -> bool:
    """True for a :class:`decimal.Decimal` (none exists before :mod:`decimal` is imported)."""
    decimal = _loaded("decimal")
    return decimal is not None and isinstance(obj, decimal.Decimal)


def is_fraction(obj: Any) -> bool:
    """True for a :class:`fractions.Fraction` (none exists before :mod:`fractions` is
    imported)."""
    fractions = _loaded("fractions")
    return fractions is not None and isinstance(obj, fractions.Fraction)


def is_torch_tensor(obj: Any) -> bool:
    """True for a torch Tensor."""
    torch = _loaded("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


def import_optional(module: str, extra: str) -> ModuleType:
    """Import an optional dependency or raise an ImportError naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module!r} is needed for this feature but is not installed. "
            f"Hint: pip install 'wkappa[{extra}]'"
        ) from exc
