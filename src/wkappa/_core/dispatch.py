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

from collections.abc import Callable
from typing import Any

import numpy as np

from . import fused, warmup
from .encode import check_table_size, encode_ratings
from .fused import fused_route
from .kernels import QuadraticSums, count_table, quadratic_sums
from .request import PROPAGATED, Counted, Request
from .statistic import kappa_from_sums

__all__ = ["Route", "count_pairs", "plain_kappa", "register_route", "route_names"]

Route = Callable[[Any, Any, Request], "Counted | None"]

# Filled by register_route (the backends) between "plain" and "fused".
_REGISTERED: list[tuple[str, Route]] = []


def register_route(name: str, route: Route) -> None:
    """Add a route after the plain one and before the fused and strict ones (idempotent)."""
    global _ROUTES
    if name not in (known for known, _ in _REGISTERED):
        _REGISTERED.append((name, route))
    _ROUTES = _order()


def route_names() -> list[str]:
    """The routes in the order :func:`count_pairs` tries them."""
    return [name for name, _ in _ROUTES]


def count_pairs(y_true: Any, y_pred: Any, request: Request) -> Counted:
    """The table or the QWK sums of two raters' ratings, from the first route that answers."""
    for _, route in _ROUTES:
        counted = route(y_true, y_pred, request)
        if counted is not None:
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
    key = ("plain", dtype, n >= fused.PARALLEL_MIN)
    if not warmup.ready(key, fused.int_sums, (y_true, y_pred), n):
        return None
    r = fused.int_sums(y_true, y_pred)  # (exact, min, max, hi0..hi4, lo0..lo4)
    if not (r[0] and -fused.HUGE < r[1] and r[2] < fused.HUGE):
        return None
    # The five exact sums hi * 2**32 + lo of the ratings shifted by a common constant.
    sums = QuadraticSums(
        n,
        (r[3] << 32) + r[8],
        (r[4] << 32) + r[9],
        (r[5] << 32) + r[10],
        (r[6] << 32) + r[11],
        (r[7] << 32) + r[12],
    )
    return Counted(None, sums, range(int(r[1]), int(r[2]) + 1))


def plain_kappa(y_true: np.ndarray, y_pred: np.ndarray, weights: str) -> float | None:
    """Kappa of two numpy arrays under named ``weights`` by the shortest way, or None.

    The entry points call it first when both ratings are numpy arrays and no option is set:
    for two 1-D integer arrays of one dtype it goes from the arrays to the value in one
    kernel call and a few integer operations (nan when kappa is undefined). After other code
    has run the caches are cold, and every further Python frame or object costs about as much
    as the kernel's own pass over 10,000 pairs. QWK takes the five exact sums
    (:func:`~wkappa._core.statistic.kappa_from_sums`, as the plain route); linear and
    unweighted kappa at serial sizes take the exact integer terms of the table kernel
    (``(r'Dc - n sum(D*O)) / r'Dc``, as :func:`~wkappa._core.statistic.kappas` computes
    them). None -- anything else, or kernels not loaded yet -- sends the call down the
    dispatcher, which answers with the same value.
    """
    dtype = y_true.dtype
    if (
        dtype is not y_pred.dtype  # builtin dtypes are singletons; anything else: general
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
    if weights == "quadratic":
        if not warmup.ready(
            ("plain", dtype, n >= fused.PARALLEL_MIN), fused.int_sums, (y_true, y_pred), n
        ):
            return None
        r = fused.int_sums(y_true, y_pred)  # (exact, min, max, hi0..hi4, lo0..lo4)
        if not (r[0] and -fused.HUGE < r[1] and r[2] < fused.HUGE):
            return None
        return kappa_from_sums(
            n,
            (r[3] << 32) + r[8],
            (r[4] << 32) + r[9],
            (r[5] << 32) + r[10],
            (r[6] << 32) + r[11],
            (r[7] << 32) + r[12],
        )
    if n >= fused.PARALLEL_MIN:
        return None
    linear = weights == "linear"
    if not warmup.ready(
        ("plain kappa", dtype, linear), fused.small_table_terms, (y_true, y_pred, linear), n
    ):
        return None
    _, _, misses, total, observed, expected = fused.small_table_terms(y_true, y_pred, linear)
    if misses:
        return None  # a rating outside the guessed range, or an unusable range
    return (expected - total * observed) / expected if expected > 0 else float("nan")


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
    encoded = encode_ratings(y_true, y_pred, **request.encode_options(), ordered=request.ordered)
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
