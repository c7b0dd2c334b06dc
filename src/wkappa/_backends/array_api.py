"""Kappa of torch / JAX / CuPy / array-API arrays, computed where the data lives.

Inputs are recognised without importing any library: a ``torch.Tensor`` (when torch is in
:data:`sys.modules`), or an object with ``__array_namespace__`` from array-api-strict, JAX or
CuPy.

* Arrays in CPU memory (torch CPU tensors, JAX on CPU, NumPy-backed array-API arrays) are read
  in place through a zero-copy numpy view (``Tensor.numpy()`` / DLPack) and take wkappa's
  numpy/numba path, which on a CPU is an order of magnitude faster than the same work done
  with torch operations (about 20x for QWK of 2·10⁶ pairs; BENCHMARKS.md).
* Arrays on an accelerator (CUDA, ...) are counted on their device: validation, encoding to
  category indices, the five QWK sums or the K x K histogram run with the arrays' own library,
  and only scalars and the K x K table come back to the host.

Rare cases on an accelerator (non-integer or string ``labels``, a ``sample_weight`` of another
kind, every pair omitted, sums that could overflow int64, unusual dtypes) are copied to the
host and take the numpy path, so results and error messages are the same either way.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import (
    INT64_SAFE,
    PROPAGATED,
    Counted,
    NanPolicy,
    QuadraticSums,
    Request,
    check_labels,
    check_observed_range,
    check_one_dimensional,
    check_pair_lengths,
    check_rating_bounds,
    check_table_size,
    check_weight_values,
    host_view,
    huge_ratings_error,
    is_device_array,
    is_torch_tensor,
    missing_rating_error,
    not_whole_error,
    raise_unknown_rating,
    to_host,
    weighted_quadratic_sums,
)
from ..exceptions import WkappaError
from .device import Backend

__all__ = ["device_route"]

# Read CPU-resident arrays through a zero-copy numpy view (the fast path). The tests switch it
# off to run the on-device code with CPU tensors and array-api-strict arrays.
PREFER_HOST_VIEW = True
_INT64_MAX = 2**63 - 1


class _Host(Exception):
    """Internal signal: this input takes the host (numpy) path."""


def _backend(y_true: Any, y_pred: Any) -> Backend:
    if PREFER_HOST_VIEW and host_view(y_true) is not None and host_view(y_pred) is not None:
        raise _Host  # both in CPU memory: zero-copy views and the fast kernels
    if is_torch_tensor(y_true) and is_torch_tensor(y_pred):
        if y_true.device != y_pred.device:
            raise _Host
        return Backend(sys.modules["torch"], True, y_true.device)
    if not (is_device_array(y_true) and is_device_array(y_pred)):
        raise _Host
    xp = y_true.__array_namespace__()
    if y_pred.__array_namespace__() is not xp or y_true.device != y_pred.device:
        raise _Host
    backend = Backend(xp, False, y_true.device)
    # JAX without x64 silently makes "int64" int32 and "float64" float32: sums could overflow
    # or lose precision there, so such arrays are counted on the host instead.
    with warnings.catch_warnings():  # JAX warns that it narrows the dtype: that is the probe
        warnings.simplefilter("ignore", UserWarning)
        probe = backend.arange(1)
    if probe.dtype != xp.int64 or backend.astype(probe, xp.float64).dtype != xp.float64:
        raise _Host
    return backend


@dataclass(frozen=True)
class _Encoded:
    true_index: Any  # int64 device arrays, every entry a valid index (omitted pairs filled)
    pred_index: Any
    labels: Sequence[Any]  # the K categories
    keep: Any  # int64 0/1 device array for nan_policy='omit', else None
    weight: Any  # float64 device array (zero where omitted), or None


def _column(be: Backend, x: Any, name: str) -> Any:
    if is_torch_tensor(x):
        x = x.detach()
    check_one_dimensional(name, tuple(int(s) for s in x.shape))
    if be.kind(x) == "":
        raise _Host
    return x


def _sample_weight(be: Backend, sample_weight: Any, n: int) -> Any:
    if sample_weight is None:
        return None
    try:
        same = _backend(sample_weight, sample_weight) == be
    except _Host:
        same = False
    if not same:
        raise _Host
    w = _column(be, sample_weight, "sample_weight")
    check_pair_lengths(n, n, int(w.shape[0]))
    complete = not (be.kind(w) == "f" and be.any(be.xp.isnan(w)))
    w = be.astype(w, be.xp.float64)
    check_weight_values(
        complete=complete,
        finite=not be.any(~be.xp.isfinite(w)),
        non_negative=not be.any(w < 0),
    )
    return w


def _integral(be: Backend, x: Any, name: str) -> Any:
    """int64 ratings; the same errors as :func:`wkappa._core.encode.integral_ratings`."""
    xp = be.xp
    kind = be.kind(x)
    if kind in "bi":
        return be.astype(x, xp.int64)
    if kind == "u":
        if x.dtype == xp.uint64 and be.item(xp.max(x)) > _INT64_MAX:
            raise WkappaError(f"`{name}` has ratings too large to handle (above 2**63 - 1).")
        return be.astype(x, xp.int64)
    not_whole = ~xp.isfinite(x) | (x != xp.floor(x))
    if be.any(not_whole):
        raise not_whole_error(name, float(be.item(x[be.first(not_whole)])))
    if float(be.item(xp.max(xp.abs(x)))) >= INT64_SAFE:
        raise huge_ratings_error(name)
    return be.astype(x, xp.int64)


def _lookup(be: Backend, values: Any, labels: np.ndarray, name: str) -> Any:
    """Index of each int64 value in integer ``labels``, on the device."""
    xp = be.xp
    order = np.argsort(labels, kind="stable")
    sorted_labels = xp.asarray(labels[order].astype(np.int64), device=be.device)
    position = xp.searchsorted(sorted_labels, values)
    position = xp.where(position == labels.size, xp.zeros_like(position), position)
    found = xp.take(sorted_labels, position) == values
    if be.any(~found):
        where = be.first(~found)
        bad = to_host(values[where : where + 1])[0]
        raise_unknown_rating(bad, name, labels)
    return xp.take(xp.asarray(order.astype(np.int64), device=be.device), position)


def _encode(
    be: Backend,
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any,
    min_rating: Any,
    max_rating: Any,
    sample_weight: Any,
    nan_policy: NanPolicy,
    propagate: bool = True,
) -> _Encoded | None:
    """Device twin of :func:`wkappa._core.encode.encode_ratings` for numeric ratings."""
    xp = be.xp
    a = _column(be, y_true, "y_true")
    b = _column(be, y_pred, "y_pred")
    n = int(a.shape[0])
    check_pair_lengths(n, int(b.shape[0]))
    weight = _sample_weight(be, sample_weight, n)
    lo, hi = check_rating_bounds(min_rating, max_rating, labels)
    missing_a: Any = xp.isnan(a) if be.kind(a) == "f" else None
    missing_b: Any = xp.isnan(b) if be.kind(b) == "f" else None
    keep = None
    has_a = missing_a is not None and be.any(missing_a)
    has_b = missing_b is not None and be.any(missing_b)
    if has_a or has_b:
        missing: Any = (
            missing_a if not has_b else (missing_b if not has_a else missing_a | missing_b)
        )
        if nan_policy == "raise":
            position = be.first(missing)
            which = "y_true" if has_a and be.item(missing_a[position]) else "y_pred"
            raise missing_rating_error(which, position, propagate=propagate)
        if nan_policy == "propagate":
            return None
        if not be.any(~missing):
            raise _Host  # every pair omitted: the categories come from the bounds alone
        # Fill omitted pairs with a kept pair's values: checks and min/max stay right, and the
        # 0/1 `keep` weights take the pairs out of every sum and count.
        fill = be.first(~missing)
        a = xp.where(missing, a[fill], a)
        b = xp.where(missing, b[fill], b)
        keep = be.astype(~missing, xp.int64)
        if weight is not None:
            weight = weight * be.astype(keep, xp.float64)

    if labels is not None:
        label_array = check_labels(to_host(labels))
        if label_array.dtype.kind not in "iub":
            raise _Host
        true_index = _lookup(be, _integral(be, a, "y_true"), label_array, "y_true")
        pred_index = _lookup(be, _integral(be, b, "y_pred"), label_array, "y_pred")
        return _Encoded(true_index, pred_index, tuple(label_array.tolist()), keep, weight)

    a = _integral(be, a, "y_true")
    b = _integral(be, b, "y_pred")
    extremes = [
        (name, int(be.item(xp.min(x))), int(be.item(xp.max(x))))
        for name, x in (("y_true", a), ("y_pred", b))
    ]
    check_observed_range(extremes, lo, hi)
    first = min(low for _, low, _ in extremes) if lo is None else lo
    last = max(high for _, _, high in extremes) if hi is None else hi
    return _Encoded(a - first, b - first, range(first, last + 1), keep, weight)


def _quadratic_sums(be: Backend, enc: _Encoded) -> QuadraticSums:
    """The five QWK sums on the device: exact int64 (guarded) or float64 with weights."""
    a, b = enc.true_index, enc.pred_index
    if enc.weight is not None:
        # The centred two-pass sums on the host (this route is taken only when K x K cells
        # are too many for a table): raw float sums cancel for ratings far from 0.
        a_host, b_host = np.asarray(to_host(a)), np.asarray(to_host(b))
        w_host = np.asarray(to_host(enc.weight), dtype=np.float64)
        if enc.keep is not None:
            kept = np.asarray(to_host(enc.keep)).astype(bool)
            a_host, b_host, w_host = a_host[kept], b_host[kept], w_host[kept]
        return weighted_quadratic_sums(a_host, b_host, w_host)
    n = int(a.shape[0]) if enc.keep is None else int(be.total(enc.keep))
    top = len(enc.labels) - 1
    if int(a.shape[0]) * top * top >= INT64_SAFE:
        raise _Host  # int64 sums could overflow: exact Python ints on the host
    m = enc.keep
    terms = (a, b, a * a, b * b, a * b)
    sums = [int(be.total(t if m is None else t * m)) for t in terms]
    return QuadraticSums(n, sums[0], sums[1], sums[2], sums[3], sums[4])


def _table(be: Backend, enc: _Encoded) -> np.ndarray:
    """The K x K table, counted on the device; only K² numbers come to the host."""
    k = len(enc.labels)
    check_table_size(k)
    cells = enc.true_index * k + enc.pred_index
    weight = enc.weight
    if weight is not None and not be.is_torch and int(weight.shape[0]) > 0:
        # Without a scatter-add, a weighted cell is the difference of two prefix sums of the
        # sorted weights, rounded to about n ulps of the total: a positive weight below that
        # would be lost, so such weights are counted on the host.
        xp = be.xp
        positive = xp.where(weight > 0, weight, xp.full_like(weight, math.inf))
        smallest = float(be.item(xp.min(positive)))
        if smallest < int(weight.shape[0]) * 2.0**-52 * float(be.item(xp.sum(weight))):
            raise _Host
    if weight is None and enc.keep is not None:
        cells = be.xp.where(enc.keep == 1, cells, be.xp.full_like(cells, k * k))
    counts = be.count(cells, k * k + 1 if enc.keep is not None else k * k, weight)
    host = np.asarray(to_host(counts))[: k * k]
    dtype = np.float64 if weight is not None else np.int64
    return host.astype(dtype).reshape(k, k)


def device_route(y_true: Any, y_pred: Any, request: Request) -> Counted | None:
    """The device route: arrays on an accelerator counted there; None (not mine) for anything
    else, including arrays in CPU memory (the fused route reads them in place) and the rare
    cases the device code leaves to the host."""
    if type(y_true) is np.ndarray or not (is_device_array(y_true) or is_device_array(y_pred)):
        return None
    try:
        be = _backend(y_true, y_pred)
        enc = _encode(be, y_true, y_pred, **request.encode_options(), propagate=request.propagate)
        if enc is None:
            return PROPAGATED
        if request.use_sums(len(enc.labels), enc.weight is not None):
            return Counted(None, _quadratic_sums(be, enc), enc.labels)
        return Counted(_table(be, enc), None, enc.labels)
    except _Host:
        return None
