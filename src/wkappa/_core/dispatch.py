"""One dispatcher from two raters' ratings to their sufficient statistic.

Every entry point (:func:`wkappa.weighted_kappa`, :func:`~wkappa.qwk`,
:func:`~wkappa.confusion_table`, :func:`~wkappa.kappa_test`, the accumulator's ``update``, the
frames functions on in-memory columns) validates its options, builds a
:class:`~wkappa._core.request.Request` and calls :func:`count_pairs`. The routes are tried in
this order; each returns a :class:`~wkappa._core.request.Counted` or None, which means "not
mine":

1. ``plain`` -- two 1-D numpy integer arrays without options: one kernel call that returns
   the five exact sums for QWK, or the table for other weights at serial sizes (the common
   call on a validation fold, by the shortest way).
2. Routes registered by :mod:`wkappa._backends`: ``device`` (torch, JAX, CuPy and array-API
   arrays on an accelerator, counted there) and ``dask`` (Dask arrays, counted per chunk on
   the workers).
3. ``fused`` -- numeric columns in memory (numpy, pandas, polars, pyarrow, CPU tensors): the
   numba kernels check and count in one pass (:mod:`wkappa._core.fused`).
4. ``strict`` -- everything else: read and encode every rating
   (:mod:`wkappa._core.encode`), then count with numpy. It always answers, or raises the
   error that names the bad parameter.

A route that declines leaves no trace, so a later route sees the inputs as given. The numba
routes (``plain``, ``fused``) also decline a kind of call whose kernels are not compiled in
this process yet, while a child process compiles them and a background thread loads them
(:mod:`wkappa._core.warmup`). The fast routes never raise validation errors of their own: on
anything unusual they decline and the strict route raises its message, so every route fails
identically on bad input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from . import fused, warmup
from .encode import check_table_size, encode_ratings
from .fused import fused_route
from .kernels import QuadraticSums, count_table, quadratic_sums
from .options import UNDEFINED_REASON, undefined_kappa
from .request import PROPAGATED, Counted, Request
from .statistic import kappa_from_sums

__all__ = [
    "Route",
    "count_pairs",
    "plain_kappa",
    "register_route",
    "routes",
    "routes_taken",
]

Route = Callable[[Any, Any, Request], "Counted | None"]

# Filled by register_route (the backends) between "plain" and "fused".
_REGISTERED: list[tuple[str, Route]] = []
# The lists that routes_taken blocks fill with the names of the routes that answer.
_RECORDERS: list[list[str]] = []


def register_route(name: str, route: Route) -> None:
    """Add a route after the plain one and before the fused and strict ones (idempotent)."""
    global _ROUTES
    if name not in (known for known, _ in _REGISTERED):
        _REGISTERED.append((name, route))
    _ROUTES = _order()


def routes() -> list[tuple[str, Route]]:
    """The routes, named, in the order :func:`count_pairs` tries them."""
    return list(_ROUTES)


@contextmanager
def routes_taken() -> Iterator[list[str]]:
    """Inside the block, the names of the routes that answer :func:`count_pairs`, in order
    (tests and profiling use it to see which way a call went)."""
    taken: list[str] = []
    _RECORDERS.append(taken)
    try:
        yield taken
    finally:
        _RECORDERS.remove(taken)


def count_pairs(y_true: Any, y_pred: Any, request: Request) -> Counted:
    """The table or the QWK sums of two raters' ratings, from the first route that answers."""
    for name, route in _ROUTES:
        counted = route(y_true, y_pred, request)
        if counted is not None:
            for taken in _RECORDERS:
                taken.append(name)
            return counted
    raise AssertionError("the strict route always answers")  # pragma: no cover


def plain_route(y_true: Any, y_pred: Any, request: Request) -> Counted | None:
    """Two plain 1-D numpy integer arrays without options, in one kernel call; else None.

    QWK takes the five exact sums; other weights take the table when the input is small
    enough for the serial kernel (larger ones go on to the fused route, which picks serial or
    parallel). Right after a model has been trained the caches are cold, and then every
    further layer of Python calls (the general routes convert and check foreign columns first)
    costs microseconds, as much as the kernel's own pass over 10,000 pairs: this route is one
    flat function from the arrays to the statistic.
    """
    if (
        type(y_true) is not np.ndarray
        or type(y_pred) is not np.ndarray
        or request.sample_weight is not None
        or request.labels is not None
        or request.min_rating is not None
        or request.max_rating is not None
    ):
        return None
    dtype = y_true.dtype
    n = len(y_true) if y_true.ndim == 1 else 0
    if (
        dtype is not y_pred.dtype  # builtin dtypes are singletons; anything else: general
        or dtype.kind not in "biu"
        or not dtype.isnative
        or (dtype.kind == "u" and dtype.itemsize == 8)  # may exceed int64
        or n < fused.FAST_MIN
        or y_pred.ndim != 1
        or len(y_pred) != n
    ):
        return None
    if not request.quadratic:
        return _plain_table(y_true, y_pred, n)
    scanned = _plain_sums(y_true, y_pred, n)
    if scanned is None:
        return None
    sums, lo, hi = scanned
    return Counted(None, QuadraticSums(n, *sums), range(lo, hi + 1))


def _plain_sums(
    a: np.ndarray, b: np.ndarray, n: int
) -> tuple[tuple[int, int, int, int, int], int, int] | None:
    """The five exact sums of two checked integer arrays shifted by a common constant, and
    their (min, max), in one kernel call (serial or parallel); None while the kernels are
    not ready or when the ratings are too wide or too large for it."""
    if not warmup.ready(("plain", a.dtype, n >= fused.PARALLEL_MIN), fused.int_sums, (a, b), n):
        return None
    return fused.exact_int_sums(a, b)


# The one-call kernels of the shortest route by (weights, dtype), once the warm-up has them
# loaded: (any layout, C-contiguous aligned writeable arrays only); see fused.serial_kernel.
_SERIAL: dict[tuple[str, np.dtype], tuple[fused.Kernel, fused.Kernel | None]] = {}
# What a serial kernel returns when a longer route must answer.
_LONGER = float("inf")
# The option values under which the shortest route may answer: anything else, including a
# bad value, goes through the checks of the general path.
_NAN_POLICIES = ("raise", "omit", "propagate")
_ZERO_DIVISION = ("warn", "raise")
_NDARRAY = np.ndarray


def plain_kappa(
    y_true: Any, y_pred: Any, weights: Any, labels: Any = None, min_rating: Any = None,
    max_rating: Any = None, sample_weight: Any = None, nan_policy: Any = "raise",
    zero_division: Any = "warn",
) -> float | None:  # fmt: skip
    """Kappa by the shortest way (the arguments of :func:`wkappa.weighted_kappa`), or None.

    The entry points call it first. It answers two numpy arrays of integers of one dtype
    under named weights, with ``labels``, the bounds and ``sample_weight`` unset and the
    string options at any valid value; None -- anything else, or kernels not loaded yet --
    sends the call down the dispatcher, which answers with the same value. After other code
    has run the caches are cold, and then every Python frame, object and lookup between the
    call and the kernel costs about as much as the kernel's own pass over 10,000 pairs. So a
    loaded dtype takes one kernel call that returns the kappa itself (exact integer terms, one
    correctly rounded division: :func:`~wkappa._core.fused.serial_kernel`); nan when kappa is
    undefined, with the ``zero_division`` rule applied. Larger QWK inputs (and the rare small
    ones the kernel leaves to Python) take the five exact sums and
    :func:`~wkappa._core.statistic.kappa_from_sums` (:func:`_checked_plain_kappa`).
    """
    if not (
        type(y_true) is _NDARRAY
        and type(y_pred) is _NDARRAY
        and labels is None
        and min_rating is None
        and max_rating is None
        and sample_weight is None
        and type(weights) is str
        and type(nan_policy) is str
        and nan_policy in _NAN_POLICIES
        and type(zero_division) is str
        and zero_division in _ZERO_DIVISION
    ):
        return None
    dtype = y_true.dtype
    kernels = _SERIAL.get((weights, dtype))
    value: float | None = _LONGER
    if kernels is not None and dtype is y_pred.dtype and y_true.ndim == 1 and y_pred.ndim == 1:
        kernel = kernels[1] if y_true.flags.carray and y_pred.flags.carray else kernels[0]
        if kernel is not None:
            value = kernel(y_true, y_pred)
    if value == _LONGER:
        value = _checked_plain_kappa(y_true, y_pred, weights)
        if value is None:
            return None
    return value if value == value else undefined_kappa(zero_division, UNDEFINED_REASON)  # type: ignore[arg-type]


def _checked_plain_kappa(y_true: np.ndarray, y_pred: np.ndarray, weights: str) -> float | None:
    """:func:`plain_kappa` with every check: the first call of a kind (which loads its
    kernel), large inputs, and small ones the serial kernel left to Python."""
    dtype = y_true.dtype
    if (
        weights not in ("quadratic", "linear", "unweighted")
        or dtype is not y_pred.dtype  # builtin dtypes are singletons; anything else: general
        or dtype.kind not in "biu"
        or not dtype.isnative
        or (dtype.kind == "u" and dtype.itemsize == 8)  # may exceed int64
        or y_true.ndim != 1
        or y_pred.ndim != 1
    ):
        return None
    n = len(y_true)
    if n < fused.FAST_MIN or len(y_pred) != n:
        return None
    kernels = _SERIAL.get((weights, dtype))
    if n < fused.PARALLEL_MIN and (
        kernels is None or (kernels[1] is None and y_true.flags.carray and y_pred.flags.carray)
    ):
        args = (y_true, y_pred, weights)
        if not warmup.ready(("serial kappa", weights, dtype), fused.serial_kappa, args, n):
            return None
        value = fused.serial_kappa(y_true, y_pred, weights)
        _SERIAL[weights, dtype] = fused.serial_kernel(weights, dtype)
        if value != _LONGER:
            return value
    if weights != "quadratic":
        return None  # a table kernel leaves only unusable ranges: the checked routes decide
    scanned = _plain_sums(y_true, y_pred, n)
    return None if scanned is None else kappa_from_sums(n, *scanned[0])


def _plain_table(a: np.ndarray, b: np.ndarray, n: int) -> Counted | None:
    """The table of two checked integer arrays at serial sizes, or None (the fused route)."""
    if n >= fused.PARALLEL_MIN:
        return None
    if not warmup.ready(("plain table", a.dtype), fused.guessed_serial, (a, b), n):
        return None
    _, table, lo = fused.guessed_serial(a, b)
    if table is None:
        return None
    return Counted(table, None, range(lo, lo + table.shape[0]))


def strict_route(y_true: Any, y_pred: Any, request: Request) -> Counted:
    """Read, check and encode every rating, then count: any input, every error."""
    encoded = encode_ratings(
        y_true,
        y_pred,
        **request.encode_options(),
        ordered=request.ordered,
        propagate=request.propagate,
    )
    if encoded is None:
        return PROPAGATED
    k = encoded.n_categories
    if request.use_sums(k, encoded.sample_weight is not None):
        sums = quadratic_sums(encoded.true_index, encoded.pred_index, encoded.sample_weight)
        return Counted(None, sums, encoded.labels)
    check_table_size(k)
    table = count_table(encoded.true_index, encoded.pred_index, k, encoded.sample_weight)
    return Counted(table, None, encoded.labels)


def _order() -> list[tuple[str, Route]]:
    return [("plain", plain_route), *_REGISTERED, ("fused", fused_route), ("strict", strict_route)]


_ROUTES = _order()
