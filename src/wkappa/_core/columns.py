"""Read one rater's ratings, of any supported kind, into a :class:`Column`.

numpy arrays, Python sequences, pandas Series / Index / extension arrays, polars Series and
pyarrow arrays become numpy values, a missing mask and, for categoricals, their categories.
Foreign types are recognised through :data:`sys.modules` (:mod:`wkappa._core.dependencies`).
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import WkappaError, WkappaTypeError
from .arrow_dictionaries import combined_dictionary
from .dependencies import is_decimal, is_fraction, is_torch_tensor, series_library
from .input_checks import check_one_dimensional, refuse_iterator, unsupported_dtype_error
from .options import format_value

__all__ = [
    "Column",
    "beyond_int64_error",
    "first_beyond_int64",
    "host_view",
    "is_device_array",
    "to_column",
    "to_host",
]


@dataclass(frozen=True)
class Column:
    """One rater's ratings, normalised.

    Attributes
    ----------
    values : ndarray of shape (n,)
        Numeric (int64, float64) or string/object values; category codes when ``categories``
        is set. Entries under ``missing`` are meaningless.
    missing : ndarray of shape (n,), bool, or None
        Where a rating is missing (NaN, None, pandas NA, null).
    categories : tuple or None
        The categories of a categorical input, in their order.
    ordered : bool
        Whether those categories are ordered (pandas ordered Categorical, polars Enum).
    """

    values: np.ndarray
    missing: np.ndarray | None
    categories: tuple[Any, ...] | None = None
    ordered: bool = False


def is_missing_scalar(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, np.floating) and np.isnan(value):
        return True
    if is_decimal(value) and value.is_nan():
        return True
    pd = sys.modules.get("pandas")
    return pd is not None and (value is pd.NA or value is pd.NaT)


def as_array(obj: Any) -> np.ndarray:
    """``np.asarray`` that keeps mixed sequences as objects.

    numpy turns ``[0, "a"]`` into the strings ``["0", "a"]`` and ``["a", nan]`` into
    ``["a", "nan"]``; a rating must never change its value or lose its missingness that way.
    """
    values = np.asarray(obj)
    if values.dtype.kind in "US" and values.ndim == 1:
        kind = str if values.dtype.kind == "U" else bytes
        if not all(isinstance(v, kind) for v in obj):
            values = np.asarray(obj, dtype=object)
    elif values.dtype.kind in "fO" and values.ndim == 1 and values.size:
        # Python ints beyond int64 (numpy rounds [2**63 - 9, 2**63 + 5] to float64): exactly,
        # as uint64 when they fit, else as Python ints (reported as too large).
        items = list(obj)
        if all(type(v) is int or isinstance(v, np.integer) for v in items):
            # Mixed numpy integer scalars (int64 with uint64) would also become float64.
            items = [int(v) for v in items]
            for dtype in (np.int64, np.uint64, object):
                try:
                    return np.array(items, dtype=dtype)
                except OverflowError:
                    continue
    return values


def beyond_int64_error(name: str, where: str = "") -> WkappaError:
    """The error for integer ratings of ``name`` beyond int64; ``where`` says where the
    first is (``at item 2, column 'b'``; empty: not said)."""
    at = f" {where}" if where else ""
    return WkappaError(
        f"`{name}` has integers too large to handle exactly (|x| >= 2**63, beyond int64){at}. "
        "Hint: subtract a common offset, or pass them as strings if they are names of "
        "categories."
    )


def first_beyond_int64(values: Any) -> int | None:
    """The position of the first whole number beyond int64 among one rater's ``values``
    (any input :func:`to_column` reads), or None: where :func:`beyond_int64_error` is (the
    error path only: the values are read one by one). A value that is not a sequence (None,
    a scalar) has none: its own error stands."""
    for method in ("to_pylist", "to_list", "tolist"):
        if hasattr(values, method):
            values = getattr(values, method)()
            break
    try:
        positions = enumerate(values)
    except TypeError:
        return None
    for position, value in positions:
        if isinstance(value, (bool, np.bool_, str, bytes)) or is_missing_scalar(value):
            continue
        number = _exact_number(value) if isinstance(value, numbers.Number) else None
        if isinstance(number, int) and abs(number) >= 2**63:
            return position
    return None


def _nested_error(name: str, found: str) -> WkappaTypeError:
    return WkappaTypeError(
        f"`{name}` {found}; each rating must be one scalar. "
        "Hint: flatten or explode the list-typed column first."
    )


def _with_missing(column: Column, missing: np.ndarray | None) -> Column:
    """``column`` with the entries ``missing`` marks (nulls of the source) missing too."""
    if missing is None:
        return column
    merged = missing if column.missing is None else (missing | column.missing)
    return Column(column.values, merged)


def _noun(name: str) -> str:
    """What the 1-D parameter ``name`` holds, for messages."""
    return {"sample_weight": "weights", "strata": "ids", "cluster": "ids"}.get(name, "ratings")


def _exact_number(value: Any) -> Any:
    """A Fraction or Decimal as a Python int when whole, else as the nearest float (which the
    integrality check then reports); a numpy integer as a Python int (so that mixing it with
    others cannot promote it to float64); other numbers unchanged."""
    if isinstance(value, np.integer):
        return int(value)
    if is_fraction(value) or is_decimal(value):
        if value.is_finite() if is_decimal(value) else True:
            whole = int(value)
            if whole == value:
                return whole
        return float(value)
    return value


def _is_nested(value: Any) -> bool:
    """A list, array or mapping where one rating belongs (a list-typed column)."""
    if isinstance(value, (str, bytes)):
        return False
    return isinstance(value, (list, tuple, dict, set, frozenset, np.ndarray)) or (
        hasattr(value, "__len__") and hasattr(value, "__getitem__")
    )


def object_column(values: np.ndarray, name: str) -> Column:
    """Normalise an object array: find missing entries and narrow the dtype if possible."""
    missing = np.fromiter((is_missing_scalar(v) for v in values), dtype=bool, count=len(values))
    present = values[~missing]
    if present.size == 0:
        # Nothing but missing values: no kind to infer; read as numbers (all missing), as a
        # float column of NaN is read.
        return Column(np.zeros(len(values), dtype=np.float64), missing)
    nested = next((v for v in present if _is_nested(v)), None)
    if nested is not None:
        raise _nested_error(name, f"holds nested values such as {format_value(nested)}")
    if all(isinstance(v, str) for v in present):
        narrowed = np.array([v if isinstance(v, str) else "" for v in values], dtype=str)
    elif all(
        (isinstance(v, (numbers.Real, np.bool_)) or is_decimal(v)) and not isinstance(v, str)
        for v in present
    ):
        filled = [0 if m else _exact_number(v) for v, m in zip(values, missing, strict=True)]
        try:
            narrowed = as_array(filled)
        except OverflowError:
            raise beyond_int64_error(name) from None
        if narrowed.dtype == object:  # Python ints beyond int64: floats among them decide
            if not any(isinstance(v, float) for v in filled):
                raise beyond_int64_error(name)
            narrowed = np.array(filled, dtype=np.float64)
    else:
        narrowed = values  # mixed kinds: only `labels=` can make sense of them
    return Column(narrowed, missing if missing.any() else None)


def _pandas_column(obj: Any, name: str) -> Column:
    pd = sys.modules["pandas"]
    dtype = obj.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        codes = np.asarray(obj.cat.codes if isinstance(obj, pd.Series) else obj.codes)
        missing = codes < 0
        return Column(
            codes.astype(np.int64),
            missing if missing.any() else None,
            tuple(dtype.categories),
            bool(dtype.ordered),
        )
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if isinstance(dtype, np.dtype) and dtype.kind in "biuf":
        return _numpy_column(np.asarray(obj), name)
    if numpy_dtype is not None and numpy_dtype.kind in "biuf":
        missing = np.asarray(obj.isna(), dtype=bool)
        fill = np.nan if numpy_dtype.kind == "f" else 0
        values = obj.to_numpy(dtype=numpy_dtype, na_value=fill)
        column = _numpy_column(values, name)
        return _with_missing(column, missing if missing.any() else None)
    return object_column(np.asarray(obj.to_numpy(dtype=object)), name)


def _polars_column(series: Any, name: str) -> Column:
    pl = sys.modules["polars"]
    dtype = series.dtype
    missing = series.is_null().to_numpy() if series.null_count() else None
    if isinstance(dtype, pl.Enum):
        codes = series.to_physical().fill_null(0).to_numpy().astype(np.int64)
        return Column(codes, missing, tuple(dtype.categories.to_list()), True)
    if isinstance(dtype, pl.Categorical):
        series = series.cast(pl.String)
    if dtype.is_nested():
        raise _nested_error(name, f"is a {dtype} column")
    if dtype.is_numeric() or dtype == pl.Boolean:
        filled = series.fill_null(0)
        try:
            values = filled.to_numpy()
        except Exception:  # Int128 / UInt128 have no numpy dtype: read Python ints
            values = np.array(filled.to_list(), dtype=object)
        column = _numpy_column(values, name)
        return _with_missing(column, missing)
    return object_column(np.asarray(series.to_numpy(), dtype=object), name)


def _pyarrow_column(array: Any, name: str) -> Column:
    pa = sys.modules["pyarrow"]
    if pa.types.is_dictionary(array.type):
        array, ordered = combined_dictionary(array)
        missing = array.is_null().to_numpy(zero_copy_only=False) if array.null_count else None
        codes = array.indices.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        categories = tuple(array.dictionary.to_pylist())
        return Column(codes, missing, categories, ordered)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    missing = array.is_null().to_numpy(zero_copy_only=False) if array.null_count else None
    if pa.types.is_nested(array.type):
        raise _nested_error(name, f"is a {array.type} column")
    if missing is not None and (pa.types.is_integer(array.type) or pa.types.is_boolean(array.type)):
        # Fill the nulls before converting: with nulls, to_numpy gives float64, which rounds
        # integers beyond 2**53. The mask keeps them missing.
        array = array.fill_null(0 if pa.types.is_integer(array.type) else False)
    values = array.to_numpy(zero_copy_only=False)
    if values.dtype == object:
        return object_column(values, name)
    column = _numpy_column(values, name)
    return _with_missing(column, missing)


def _numpy_column(values: np.ndarray, name: str) -> Column:
    check_one_dimensional(name, values.shape)
    kind = values.dtype.kind
    if kind == "O":
        return object_column(values, name)
    if kind in "US":
        return Column(values, None)
    if kind not in "biuf":
        raise unsupported_dtype_error(name, values.dtype, _noun(name))
    if kind == "f":
        missing = np.isnan(values)
        return Column(values, missing if missing.any() else None)
    return Column(values, None)


def _masked_column(array: np.ma.MaskedArray, name: str) -> Column:
    """A numpy masked array: masked entries are missing ratings (whatever data they hide)."""
    mask = np.ma.getmaskarray(array)
    data = np.asarray(array.data)
    if data.ndim != 1:
        return _numpy_column(data, name)  # its shape error
    if data.dtype.kind == "O":
        data = data.copy()
        data[mask] = None
    column = _numpy_column(data, name)
    if not mask.any():
        return column
    merged = mask if column.missing is None else (mask | column.missing)
    values = column.values
    if values.dtype.kind in "iuf":  # the hidden data must not trip a range or integrality check
        values = values.copy()
        values[mask] = 0
    return Column(values, merged, column.categories, column.ordered)


# The reader of each frame library's column (keys of dependencies.series_library).
_FRAME_READERS = {"pandas": _pandas_column, "polars": _polars_column, "pyarrow": _pyarrow_column}


def to_column(obj: Any, name: str) -> Column:
    """Normalise one rater's ratings (any supported input) to a :class:`Column`; a
    :class:`Column` (ratings read already) is returned as it is."""
    if isinstance(obj, Column):
        return obj
    library = series_library(obj)
    if library is not None:
        return _FRAME_READERS[library](obj, name)
    if is_device_array(obj):  # torch, JAX, CuPy, array API: numpy data (a view in CPU memory)
        return _numpy_column(to_host(obj), name)
    if isinstance(obj, (str, bytes, dict, set, frozenset)) or obj is None:
        raise WkappaTypeError(
            f"`{name}` must be a 1-D array-like of {_noun(name)}; got {type(obj).__name__}."
        )
    if isinstance(obj, np.ma.MaskedArray):
        return _masked_column(obj, name)
    if isinstance(obj, np.ndarray):
        return _numpy_column(obj, name)
    refuse_iterator(obj, name)
    try:
        values = as_array(obj)
    except (TypeError, ValueError) as exc:
        raise WkappaTypeError(f"`{name}` could not be read as a 1-D array: {exc}") from None
    if values.ndim == 0:
        raise WkappaTypeError(
            f"`{name}` must be a 1-D array-like of {_noun(name)}; got the scalar "
            f"{format_value(obj)}."
        )
    return _numpy_column(values, name)


# ------------------------------------------------------------ arrays of other libraries

_ARRAY_API_LIBRARIES = ("array_api_strict", "jax", "jaxlib", "cupy")


def is_device_array(obj: Any) -> bool:
    """True for an array wkappa can count on its own device (torch, JAX, CuPy, strict)."""
    if is_torch_tensor(obj):
        return True
    root = type(obj).__module__.split(".")[0]
    return root in _ARRAY_API_LIBRARIES and hasattr(obj, "__array_namespace__")


def host_view(obj: Any) -> np.ndarray | None:
    """A zero-copy numpy view of an array in CPU memory, or None."""
    if is_torch_tensor(obj):
        if obj.device.type != "cpu" or obj.dtype == sys.modules["torch"].bfloat16:
            return None
        view: np.ndarray = obj.detach().resolve_conj().resolve_neg().numpy()
        return view
    try:
        array = np.from_dlpack(obj)
    except (TypeError, RuntimeError, BufferError, AttributeError, ValueError):
        return None
    return None if _is_extended_float(array) else array


def _is_extended_float(array: np.ndarray) -> bool:
    """A float dtype numpy lacks (ml_dtypes' bfloat16, float8_*: JAX's mixed precision)."""
    return array.dtype.kind == "V" and "float" in array.dtype.name


def _widened(array: Any) -> Any:
    """An extended float array as float32, which holds every bfloat16/float8 value exactly."""
    if isinstance(array, np.ndarray) and _is_extended_float(array):
        return array.astype(np.float32)
    return array


def to_host(obj: Any) -> Any:
    """numpy data of a device array: a view in CPU memory, else a copy (others as they are)."""
    if not is_device_array(obj):
        return obj
    if is_torch_tensor(obj):
        tensor = obj.detach().resolve_conj().resolve_neg()
        torch = sys.modules["torch"]
        if tensor.dtype == torch.bfloat16:  # numpy has no bfloat16; float32 holds it exactly
            tensor = tensor.to(torch.float32)
        return tensor.cpu().numpy()
    if hasattr(obj, "get") and type(obj).__module__.startswith("cupy"):
        return obj.get()
    try:
        return _widened(np.from_dlpack(obj))
    except (TypeError, RuntimeError, BufferError, AttributeError):
        return _widened(np.asarray(obj))
