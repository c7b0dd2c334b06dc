"""The fused fast path: plain numeric columns straight to the numba kernels.

:func:`weighted_kappa` and :func:`confusion_table` try this path first. It takes the common
case only: both ratings 1-D numeric numpy arrays (or pandas, polars or pyarrow columns that are
zero-copy views of one) without ``labels``, plus an optional numeric ``sample_weight``. One
fused pass (:mod:`wkappa._core.kernels.numba_sums`) computes the sums together with the range,
NaN and integrality checks, so validation costs no extra pass and nothing of size n is
allocated for integer input. Two numpy integer arrays without options go shorter still:
:func:`wkappa._core.dispatch.plain_kappa` calls :func:`serial_kernel` (small inputs) or
:func:`int_sums` directly.

Anything unusual -- a NaN, a non-integer, a rating outside ``min_rating..max_rating``, a wide
range, a negative weight, an object column, a bound that is not a plain int -- makes these
functions return None, and the caller runs the strict encoding path (:mod:`wkappa._core.encode`),
which raises exactly the error it always raises, or handles the case. The fast path never
raises a validation error of its own, so both paths fail identically on bad input.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from . import warmup
from .columns import host_view, is_device_array
from .dependencies import is_pandas_object, is_polars_series, is_pyarrow_array
from .encode import MAX_TABLE_CELLS, check_labels
from .kernels import QuadraticSums, weighted_quadratic_sums
from .request import Counted, Request
from .statistic import INT64_SAFE

__all__ = [
    "FAST_MIN",
    "HUGE",
    "PARALLEL_MIN",
    "exact_int_sums",
    "fast_ratings",
    "fused_route",
    "guessed_serial",
    "int_sums",
    "serial_kappa",
    "serial_kernel",
    "set_parallel",
]

# Below this many pairs the serial kernel runs: starting threads costs more than it saves.
PARALLEL_MIN = warmup.PARALLEL_MIN
# Below this many pairs the strict numpy path answers (see warmup.FAST_MIN).
FAST_MIN = warmup.FAST_MIN
# Float ratings (and int ratings mixed with floats) beyond this magnitude are not exact in
# float64; the strict path handles them.
_FLOAT_EXACT = 2.0**53
# Integer ratings this large are left to the strict path, whatever it decides about them.
HUGE = INT64_SAFE
# Pairs whose range the one-pass table kernel takes as its guess (see _guessed_table).
GUESS_SAMPLE = 1 << 16
# The most categories a table may have (K * K cells within MAX_TABLE_CELLS).
_MAX_K = math.isqrt(MAX_TABLE_CELLS)
_INT_KINDS = "biu"
_SUPPORTED = frozenset(
    np.dtype(t)
    for t in (
        np.bool_,
        np.int8,
        np.int16,
        np.int32,
        np.int64,
        np.uint8,
        np.uint16,
        np.uint32,
        np.uint64,
        np.float32,
        np.float64,
    )
)
# The workqueue threading layer must not run two parallel kernels at once.
_PARALLEL_LOCK = threading.Lock()
_settings: dict[str, Any] = {"parallel": None}  # None: automatic (see use_parallel)
# A kernel of two rating arrays that returns kappa (see serial_kernel).
Kernel = Callable[[np.ndarray, np.ndarray], float]


def numpy_view(obj: Any) -> np.ndarray | None:
    """A 1-D numeric numpy view of a column, or None when only the strict path can read it."""
    if isinstance(obj, np.ma.MaskedArray):
        return None  # masked entries are missing ratings: the strict path reads the mask
    if isinstance(obj, np.ndarray):
        array = obj
    elif isinstance(obj, (list, tuple)):
        try:
            array = np.asarray(obj)
        except (ValueError, TypeError, OverflowError):
            return None
    elif is_pandas_object(obj):
        pd = sys.modules["pandas"]
        if not isinstance(obj, (pd.Series, pd.Index)) or not isinstance(obj.dtype, np.dtype):
            return None
        array = obj.to_numpy(copy=False)
    elif is_polars_series(obj):
        if not (obj.dtype.is_integer() or obj.dtype.is_float()):
            return None
        if obj.null_count() or obj.n_chunks() != 1:
            return None
        array = obj.to_numpy()
    elif is_pyarrow_array(obj):
        pa = sys.modules["pyarrow"]
        if not isinstance(obj, pa.Array) or obj.null_count:
            return None
        if not (pa.types.is_integer(obj.type) or pa.types.is_floating(obj.type)):
            return None
        array = obj.to_numpy(zero_copy_only=False)
    elif is_device_array(obj):
        view = host_view(obj)  # zero-copy in CPU memory; on another device the strict path
        if view is None:
            return None
        array = view
    else:
        return None
    if array.ndim != 1 or array.dtype not in _SUPPORTED or not array.dtype.isnative:
        return None
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    return array


def numpy_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray] | None:
    a = numpy_view(y_true)
    b = numpy_view(y_pred)
    if a is None or b is None or a.shape[0] != b.shape[0] or a.shape[0] == 0:
        return None
    if a.dtype != b.dtype:
        # One compiled kernel per dtype, not per pair of dtypes: widen mixed inputs.
        kinds = a.dtype.kind + b.dtype.kind
        if np.dtype(np.uint64) in (a.dtype, b.dtype):
            return None
        common = np.int64 if all(k in _INT_KINDS for k in kinds) else np.float64
        a = a.astype(common, copy=False)
        b = b.astype(common, copy=False)
    return a, b


def _bound(value: Any) -> tuple[bool, int | None]:
    """(usable, value) for min_rating / max_rating: plain integers only."""
    if value is None:
        return True, None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return False, None
    if abs(int(value)) >= HUGE:
        return False, None
    return True, int(value)


def _categories(lo: float, hi: float, min_rating: Any, max_rating: Any) -> tuple[int, int] | None:
    """The first category and K, or None if the bounds need the strict path (it raises)."""
    ok_lo, first = _bound(min_rating)
    ok_hi, last = _bound(max_rating)
    if not (ok_lo and ok_hi):
        return None
    if first is not None and (lo < first or (last is not None and first > last)):
        return None
    if last is not None and hi > last:
        return None
    first = int(lo) if first is None else first
    last = int(hi) if last is None else last
    return first, last - first + 1


def _weights(sample_weight: Any, n: int) -> np.ndarray | None:
    w = numpy_view(sample_weight)
    if w is None or w.shape[0] != n or w.dtype.kind not in "iuf":
        return None
    return w


def use_parallel(n: int) -> bool:
    """Use the threads for a big input, unless another process holds a core right now.

    A fork-join parallel pass ends when its slowest thread does; when another process holds
    the second core, the second thread waits for it and the pass is slower than the serial
    one. So the runnable tasks of the machine are counted at the call (``/proc/loadavg``,
    Linux), less the running threads of this process (``/proc/self/task``): OpenMP and numba
    workers of scikit-learn, numpy's BLAS, the user's own ``prange`` code or our own earlier
    passes busy-wait for a while after their work and show up as runnable, but they are ours
    and yield their core to our workers. The threads are read one by one (tens of
    microseconds each on a loaded machine) only when the count could change the answer.
    Elsewhere the 1-minute load average (minus this process) stands in. Results are identical
    either way.
    """
    mode = _settings["parallel"]
    if mode is False or n < PARALLEL_MIN:
        return False
    if mode is True:
        return True
    limit = (os.cpu_count() or 1) / 2
    running = _machine_running()
    if running is not None:
        if running - 1 < limit:  # the common quiet case: one cheap read
            return True
        if running - _own_threads() >= limit:  # busy even if every thread of ours runs
            return False
        own = max(_own_running() or 1, 1)
        # Our spinning workers go to sleep at any moment; one that stops while its siblings
        # are read would still be counted in the first machine count: take the later count
        # when it is lower.
        return min(running, _machine_running() or running) - own < limit
    try:
        others = os.getloadavg()[0] - 1
    except (AttributeError, OSError):  # not on every platform
        return True
    return others < limit


def _read(path: str, size: int) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


def _machine_running() -> int | None:
    """Runnable tasks on the machine now, this thread included (``/proc/loadavg``), or None."""
    try:
        return int(_read("/proc/loadavg", 128).split()[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):
        return None


def _own_threads() -> int:
    """Threads of this process, running or not (``/proc/self/stat``; 1 if unreadable)."""
    try:
        stat = _read("/proc/self/stat", 1024)
        return int(stat[stat.rfind(b")") + 2 :].split()[17])
    except (OSError, IndexError, ValueError):
        return 1


def _own_running() -> int | None:
    """Runnable threads of this process now, the caller's included (``/proc/self/task``)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    count = 0
    for task in tasks:
        try:
            stat = _read(f"/proc/self/task/{task}/stat", 512)
        except OSError:  # the thread just ended
            continue
        # state is the field after "(comm)"; comm may itself contain ") "
        end = stat.rfind(b")")
        if end > 0 and stat[end + 2 : end + 3] == b"R":
            count += 1
    return count


@contextlib.contextmanager
def parallel_section() -> Iterator[None]:
    """One parallel kernel at a time, its blocks handed to threads one by one (dynamic).

    Dynamic scheduling matters on a shared machine: a thread that loses its core for a while
    then holds up one block, not a fixed half of the data. Results do not depend on it (the
    blocks are fixed by n and merged in order).
    """
    import numba

    with _PARALLEL_LOCK, numba.parallel_chunksize(1):
        yield


_SUMS_KERNELS: Any = None  # wkappa._core.kernels.numba_sums once loaded


def _sums_kernels() -> Any:
    """The kernel module, imported on first use and then kept in a global: an import
    statement per call costs microseconds of import machinery, which matter for a validation
    fold of 10,000 pairs."""
    global _SUMS_KERNELS
    if _SUMS_KERNELS is None:
        from .kernels import numba_sums

        _SUMS_KERNELS = numba_sums
    return _SUMS_KERNELS


def _run_sums(kind: str, *args: Any) -> Any:
    kernel: Callable[..., Any] = getattr(_sums_kernels(), f"{kind}_sums")
    if use_parallel(args[0].shape[0]):
        with parallel_section():
            return kernel(*args, True)
    return kernel(*args, False)


def int_sums(a: np.ndarray, b: np.ndarray) -> tuple[Any, ...]:
    """The integer sums kernel's result ``(exact, min, max, hi0..hi4, lo0..lo4)`` for two
    1-D integer arrays of one dtype (values below ``2**63``), serial or parallel as
    :func:`use_parallel` decides. One kernel call: the shortest route of
    :func:`wkappa._core.dispatch.plain_kappa`."""
    kernels = _SUMS_KERNELS or _sums_kernels()
    n = len(a)
    if n >= PARALLEL_MIN and use_parallel(n):
        with parallel_section():
            return kernels.int_sums_parallel(a, b, *kernels.block_layout(n))  # type: ignore[no-any-return]
    return kernels.int_sums_serial(a, b)  # type: ignore[no-any-return]


def exact_int_sums(
    a: np.ndarray, b: np.ndarray
) -> tuple[tuple[int, int, int, int, int], int, int] | None:
    """The five exact sums of two integer arrays of one dtype shifted by a common constant
    (Python ints) and their (min, max), in one :func:`int_sums` call; None when the ratings
    are too wide for the kernel or reach :data:`HUGE` (the strict path decides)."""
    r = int_sums(a, b)
    if not (r[0] and -HUGE < r[1] and r[2] < HUGE):
        return None
    return _sums_kernels().exact_totals(r), int(r[1]), int(r[2])


_TABLE_KERNELS: Any = None  # wkappa._core.kernels.numba_table once loaded


def _table_kernels() -> Any:
    global _TABLE_KERNELS
    if _TABLE_KERNELS is None:
        from .kernels import numba_table

        _TABLE_KERNELS = numba_table
    return _TABLE_KERNELS


def serial_kernel(weights: str, dtype: np.dtype) -> tuple[Kernel, Kernel | None]:
    """The one-call kernels of kappa under named ``weights`` ('quadratic', 'linear' or
    'unweighted') for two 1-D integer arrays of ``dtype`` (values below ``2**63``), once
    loaded: ``(any_layout, contiguous)``.

    Each returns kappa (correctly rounded), nan when kappa is undefined, or ``inf`` when a
    longer route must answer, for instance from :data:`PARALLEL_MIN` pairs on
    (:func:`wkappa._core.kernels.numba_sums.qwk_serial`,
    :func:`wkappa._core.kernels.numba_table.serial_table_kappa`). ``contiguous`` takes only
    C-contiguous, aligned, writeable arrays (``flags.carray``): for QWK it is the compiled
    function itself (``get_overload``), which skips numba's per-call type resolution --
    several microseconds when the caches are cold, as much as the pass over 10,000 pairs --
    or None while that function is not loaded in this process. The shortest route,
    :func:`wkappa._core.dispatch.plain_kappa`, keeps both per dtype.
    """
    if weights != "quadratic":
        table = functools.partial(_serial_table_kappa, linear=weights == "linear")
        return table, table
    kernel = _sums_kernels().qwk_serial
    try:
        from numba import typeof

        array = typeof(np.zeros(1, dtype))  # type: ignore[no-untyped-call]
        return kernel, kernel.get_overload((array, array))
    except KeyError:  # not loaded for C-contiguous arrays of this dtype yet
        return kernel, None


def serial_kappa(a: np.ndarray, b: np.ndarray, weights: str) -> float:
    """The any-layout :func:`serial_kernel` called on ``a`` and ``b`` (a module-level
    function, so that the warm-up can replay it in a child process)."""
    return serial_kernel(weights, a.dtype)[0](a, b)


def _serial_table_kappa(a: np.ndarray, b: np.ndarray, linear: bool) -> float:
    kernels = _TABLE_KERNELS or _table_kernels()
    return kernels.serial_table_kappa(a, b, GUESS_SAMPLE, _MAX_K, HUGE, linear)  # type: ignore[no-any-return]


def _scan(a: np.ndarray, b: np.ndarray) -> tuple[tuple[int, ...], int, int] | None:
    """Exact shifted sums and the observed (min, max) of integral ratings, or None."""
    from .kernels.numba_sums import MAX_FLOAT_RANGE

    if a.dtype.kind in _INT_KINDS:
        if a.dtype == np.uint64 and max(int(a.max()), int(b.max())) >= HUGE:
            return None  # the kernels read int64; only uint64 can exceed it (one extra pass)
        return exact_int_sums(a, b)
    sums, flo, fhi = _run_sums("float", a, b)
    if sums is None or not (-_FLOAT_EXACT < flo and fhi < _FLOAT_EXACT):
        return None
    if fhi - flo > MAX_FLOAT_RANGE:
        return None
    return sums, int(flo), int(fhi)


def fused_route(y_true: Any, y_pred: Any, request: Request) -> Counted | None:
    """The fused route: the statistic by the numba kernels, or None (not mine).

    Declines while the kernels for this kind of call are not compiled in this process
    (:func:`wkappa._core.warmup.ready`).
    """
    try:
        n = len(y_true)
    except TypeError:
        return None
    if n < FAST_MIN:
        return None
    key = (
        "fused",
        _kind(y_true),
        _kind(y_pred),
        _kind(request.sample_weight),
        request.quadratic,
        request.labels is not None,
        n >= PARALLEL_MIN,  # serial and parallel kernels differ (the load decides later)
    )
    if not warmup.ready(key, _fused_route, (y_true, y_pred, request), n):
        return None
    return _fused_route(y_true, y_pred, request)


def _kind(obj: Any) -> tuple[type, Any]:
    """What decides which compiled kernels a column needs: its type and dtype."""
    dtype = getattr(obj, "dtype", None)
    return type(obj), dtype if isinstance(dtype, np.dtype) else str(dtype)


def _fused_route(y_true: Any, y_pred: Any, request: Request) -> Counted | None:
    """:func:`fused_route` once its kernels are ready.

    Returns the exact integer sums of ratings shifted by a common constant for unweighted-pair
    QWK (QWK is translation invariant, so they give the kappa of the category indices), else
    the table ``O`` (int64 counts, or float64 weighted counts), chosen by
    :meth:`Request.use_sums` as on every route.
    """
    labels, min_rating, max_rating = request.labels, request.min_rating, request.max_rating
    if labels is not None:
        if min_rating is not None or max_rating is not None:
            return None
        from .label_codes import label_codes

        coded = label_codes(y_true, y_pred, labels)
        if coded is None:
            return None
        a, b, k = coded
        first = 0
        names: Sequence[Any] = tuple(check_labels(labels).tolist())
    else:
        pair = numpy_pair(y_true, y_pred)
        if pair is None:
            return None
        a, b = pair
    n = a.shape[0]
    w = None
    if request.sample_weight is not None:
        w = _weights(request.sample_weight, n)
        if w is None:
            return None
    integer = a.dtype.kind in _INT_KINDS
    if w is None and labels is None and integer and not request.quadratic:
        # A table of integer ratings in one counting pass, its range guessed from the first
        # pairs (checked in the same pass). QWK needs no table: the fused sums pass below.
        # Serial counts take one kernel call, except large 32- and 64-bit ratings: their
        # table_counts_guessed count (two loops per piece, for K <= 16) is faster.
        one_call = n < PARALLEL_MIN or a.dtype.itemsize < 4
        if one_call and not use_parallel(n) and (a.dtype.kind == "i" or a.dtype.itemsize < 8):
            done, table, lo = guessed_serial(a, b, min_rating, max_rating)
            if table is not None:
                return Counted(table, None, range(lo, lo + table.shape[0]))
        else:
            done = False
        if not done:
            guessed = _guessed_table(a, b, min_rating, max_rating)
            if guessed is not None:
                table, lo = guessed
                return Counted(table, None, range(lo, lo + table.shape[0]))
    if w is not None and labels is None and integer:
        # Weighted table in one pass over a, b, w; a rating outside the guessed range (or a
        # bad weight) sends it to the checked two-pass route below, which decides.
        categories = guessed_categories(a, b, min_rating, max_rating)
        if categories is not None and not request.use_sums(categories[1], True):
            table = _table(a, b, w, *categories, guessed=True)
            if table is not None:
                return Counted(table, None, range(categories[0], sum(categories)))
    scanned = _scan(a, b)
    if scanned is None:
        return None
    sums, lo, hi = scanned
    if labels is None:
        categories = _categories(lo, hi, min_rating, max_rating)
        if categories is None:
            return None
        first, k = categories
        names = range(first, first + k)
    if request.use_sums(k, w is not None):
        if w is None:
            return Counted(None, QuadraticSums(n, *sums), names)
        weighted = _weighted_sums(a, b, w)
        return None if weighted is None else Counted(None, weighted, names)
    if k * k > MAX_TABLE_CELLS:
        return None  # the strict path refuses the table with its message
    table = _table(a, b, w, first, k)
    return None if table is None else Counted(table, None, names)


def fast_ratings(
    y_true: Any, y_pred: Any, min_rating: Any, max_rating: Any
) -> tuple[np.ndarray, np.ndarray, int, int] | None:
    """Raw numeric rating arrays checked by the fused range pass, or None (strict path).

    Returns ``(a, b, first, K)``: every rating is an integer in ``first .. first + K - 1``,
    exactly the categories :func:`wkappa._core.encode.encode_ratings` would give (no ``labels``).
    Used by grouped counting, which needs the per-row ratings rather than one table.
    """
    pair = numpy_pair(y_true, y_pred)
    if pair is None:
        return None
    a, b = pair
    scanned = _scan(a, b)
    if scanned is None:
        return None
    _, lo, hi = scanned
    categories = _categories(lo, hi, min_rating, max_rating)
    if categories is None:
        return None
    return a, b, categories[0], categories[1]


def guess_range(a: np.ndarray, b: np.ndarray, m: int) -> tuple[int, int]:
    """The (min, max) over the first ``m`` pairs of two integer arrays of one dtype, in one
    compiled pass (four numpy reductions cost more per call)."""
    from .kernels import numba_table

    low, high = numba_table.guess_range(a, b, m)
    return int(low), int(high)


def guessed_categories(
    a: np.ndarray, b: np.ndarray, min_rating: Any, max_rating: Any
) -> tuple[int, int] | None:
    """(first, K) from the range of the first pairs, or None if that range is unusable."""
    m = min(a.shape[0], GUESS_SAMPLE)
    if a.dtype.kind == "b":
        lo = min(int(a[:m].min()), int(b[:m].min()))
        hi = max(int(a[:m].max()), int(b[:m].max()))
    else:
        lo, hi = guess_range(a, b, m)
    if not (-HUGE < lo and hi < HUGE):
        return None
    categories = _categories(lo, hi, min_rating, max_rating)
    if categories is None:
        return None
    first, k = categories
    if k * k > MAX_TABLE_CELLS:
        return None
    return first, k


def guessed_serial(
    a: np.ndarray, b: np.ndarray, min_rating: Any = None, max_rating: Any = None
) -> tuple[bool, np.ndarray | None, int]:
    """:func:`_guessed_table` in one kernel call, for serial sizes.

    Signed or narrow unsigned ratings only (their values fit int64). The kernel guesses the
    range as the observed one. Returns ``(done, table, first)``: ``(True, None)`` when a rating
    missed the guessed range (the guess is wrong: go on to the checked passes), ``(False,
    None)`` when the bounds make the categories differ from the guess or the range is unusable
    (the caller then takes :func:`_guessed_table`, which decides).
    """
    from .kernels import numba_table

    m = min(a.shape[0], GUESS_SAMPLE)
    lo, hi, total, misses = numba_table.guessed_serial(a, b, m, _MAX_K, HUGE)
    k = hi - lo + 1
    if misses < 0 or _categories(lo, hi, min_rating, max_rating) != (lo, k):
        return False, None, lo
    if misses:
        return True, None, lo
    return True, total.reshape(k, k), lo


def _guessed_table(
    a: np.ndarray, b: np.ndarray, min_rating: Any, max_rating: Any
) -> tuple[np.ndarray, int] | None:
    """The table and its first category in one pass, the range guessed from the first pairs;
    None if a rating misses.

    Every category used in the first pairs is a true rating, so when no rating falls outside
    the guessed range that range is exactly the observed one (or the given bounds, all
    ratings inside them), as the strict path would find. Integer ratings only: nothing to
    check for NaN or integrality.
    """
    categories = guessed_categories(a, b, min_rating, max_rating)
    if categories is None:
        return None
    first, k = categories
    import numba

    from .kernels import numba_table

    parallel = use_parallel(a.shape[0])
    with parallel_section() if parallel else contextlib.nullcontext():
        threads = numba.get_num_threads() if parallel else 1
        table = numba_table.table_counts_guessed(a, b, first, k, parallel, threads)
    return None if table is None else (table, first)


def _weighted_sums(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> QuadraticSums | None:
    """Sample-weighted QWK sums: the fused pass checks the ratings and weights, then the
    sums are taken about the weighted centre (:func:`weighted_quadratic_sums`: the raw five
    float sums cancel catastrophically for ratings far from 0)."""
    _, _, bad = _run_sums("weighted", a, b, w)
    if bad:
        return None
    return weighted_quadratic_sums(a, b, w)


def _table(
    a: np.ndarray,
    b: np.ndarray,
    w: np.ndarray | None,
    first: int,
    k: int,
    *,
    guessed: bool = False,
) -> np.ndarray | None:
    import numba

    from .kernels import numba_table

    parallel = use_parallel(a.shape[0])
    with parallel_section() if parallel else contextlib.nullcontext():
        if w is not None:
            return numba_table.table_weighted(a, b, w, first, k, parallel, checked=guessed)
        threads = numba.get_num_threads() if parallel else 1
        return numba_table.table_counts(a, b, first, k, parallel, threads)


def set_parallel(enabled: bool | None) -> None:
    """Force the parallel kernels on (True) or off (False) for big inputs; None: automatic.

    Tests use it to compare the paths; results are identical whichever runs.
    """
    _settings["parallel"] = enabled
