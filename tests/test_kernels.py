"""The fused numba kernels: parity with the exact reference for every dtype, identical results
for the serial and parallel paths and any thread count, overflow bounds, no O(n) temporaries.
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from fractions import Fraction
from typing import Any

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from reference import reference_kappa
from routes import strict
from wkappa._core import fused as _fastpath
from wkappa._core.dispatch import plain_route
from wkappa._core.kappa import kappa_from_quadratic_sums
from wkappa._core.kernels import QuadraticSums, count_table, quadratic_sums
from wkappa._core.kernels import numba_sums as sums_kernels
from wkappa._core.kernels import numba_table as table_kernels
from wkappa._core.request import Request

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]
FLOAT_DTYPES = ["float32", "float64"]
DTYPES = INT_DTYPES + FLOAT_DTYPES
WEIGHTS = ["quadratic", "linear", "unweighted", "custom"]


def _plain_qwk(a: Any, b: Any) -> float | None:
    """QWK by the plain route alone (None when it declines)."""
    counted = plain_route(a, b, Request(quadratic=True))
    return None if counted is None else kappa_from_quadratic_sums(counted.sums, "warn")  # type: ignore[arg-type]


pytestmark = pytest.mark.usefixtures("fast_path_for_small_inputs")


def _custom(k: int) -> np.ndarray:
    i = np.arange(k)
    return np.abs(i[:, None] - i[None, :]) ** 1.5


def _ratings(draw: Any, dtype: str) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Random ratings representable in ``dtype``, with gaps; returns (a, b, first, K)."""
    n = draw(st.integers(1, 60))
    if dtype == "bool":
        first, k = 0, 2
    else:
        k = draw(st.integers(2, 12))
        low = 0 if dtype.startswith("u") else -60
        first = draw(st.integers(low, 60))
    index = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    a = np.array(draw(index)) + first
    b = np.array(draw(index)) + first
    return a.astype(dtype), b.astype(dtype), first, k


@st.composite
def cases(draw: Any) -> dict[str, Any]:
    dtype = draw(st.sampled_from(DTYPES))
    a, b, _, _ = _ratings(draw, dtype)
    weights = draw(st.sampled_from(WEIGHTS))
    sample_weight = None
    if draw(st.booleans()):
        sample_weight = np.array(
            draw(st.lists(st.integers(0, 5), min_size=len(a), max_size=len(a)))
        )
        sample_weight = sample_weight.astype(draw(st.sampled_from(["float64", "int64"])))
    return {"a": a, "b": b, "weights": weights, "sample_weight": sample_weight}


def _reference(a: np.ndarray, b: np.ndarray, weights: Any, w: np.ndarray | None) -> float | None:
    lo = int(min(a.astype(np.int64).min(), b.astype(np.int64).min()))
    hi = int(max(a.astype(np.int64).max(), b.astype(np.int64).max()))
    k = hi - lo + 1
    wts = _custom(k).tolist() if isinstance(weights, str) and weights == "custom" else weights
    sw = None if w is None else [Fraction(int(v)) for v in w]
    exact = reference_kappa(
        (a.astype(np.int64) - lo).tolist(), (b.astype(np.int64) - lo).tolist(), k, wts, sw
    )
    return None if exact is None else float(exact)


@settings(max_examples=examples(400), deadline=None)
@given(cases())
def test_every_dtype_matches_the_exact_reference(case: dict[str, Any]) -> None:
    a, b, weights, w = case["a"], case["b"], case["weights"], case["sample_weight"]
    k = int(max(a.astype(np.int64).max(), b.astype(np.int64).max())) + 1
    k -= int(min(a.astype(np.int64).min(), b.astype(np.int64).min()))
    matrix = _custom(k) if weights == "custom" else weights
    fast = _fastpath.fused_route(a, b, Request(sample_weight=w, quadratic=weights == "quadratic"))
    assert fast is not None  # the fused kernels did the counting
    expected = _reference(a, b, weights, w)
    got = wk.weighted_kappa(a, b, weights=matrix, sample_weight=w, zero_division=-0.987)
    if expected is None:
        assert got == -0.987
    else:
        assert abs(got - expected) <= 1e-12
    if weights != "quadratic":
        table = wk.confusion_table(a, b, sample_weight=w)
        strict = count_table(
            a.astype(np.int64) - int(min(a.min(), b.min())),
            b.astype(np.int64) - int(min(a.min(), b.min())),
            k,
            None if w is None else w.astype(np.float64),
        )
        assert table.dtype == strict.dtype
        np.testing.assert_array_equal(table, strict)


@pytest.mark.parametrize("dtype", DTYPES)
def test_fast_path_takes_each_dtype_without_copying(dtype: str) -> None:
    a = np.array([0, 1, 1, 0, 1], dtype=dtype)
    b = np.array([0, 1, 0, 0, 1], dtype=dtype)
    assert _fastpath.numpy_pair(a, b) is not None
    view_a, _ = _fastpath.numpy_pair(a, b)  # type: ignore[misc]
    assert view_a is a  # the kernel reads the caller's array itself
    sums = _fastpath.fused_route(a, b, Request(sample_weight=None, quadratic=True))
    assert sums is not None and sums.sums is not None
    assert wk.qwk(a, b) == wk.qwk(a.astype(np.int64).tolist(), b.astype(np.int64).tolist())


def test_frames_reach_the_kernel_as_zero_copy_views() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    values = np.arange(1000, dtype=np.int64) % 7
    for column in (pd.Series(values), pl.Series(values), pa.array(values)):
        view = _fastpath.numpy_view(column)
        assert view is not None and view.dtype == np.int64
        assert wk.qwk(column, values[::-1].copy()) == wk.qwk(values, values[::-1].copy())
    frame_series = pd.Series(values)
    assert np.shares_memory(_fastpath.numpy_view(frame_series), frame_series.values)
    series = pl.Series(values)
    assert np.shares_memory(_fastpath.numpy_view(series), series.to_numpy())
    # Missing values, categoricals and nullable dtypes take the strict path.
    assert _fastpath.numpy_view(pd.Series([1, None], dtype="Int64")) is None
    assert _fastpath.numpy_view(pd.Series(["a", "b"], dtype="category")) is None
    assert _fastpath.numpy_view(pl.Series([1, None])) is None


# --------------------------------------------------------------------------- determinism


def _int_sums(a: np.ndarray, b: np.ndarray) -> tuple[Any, int, int]:
    """(exact sums or None, min, max) by the integer kernel, serial or parallel as set."""
    r = _fastpath.int_sums(a, b)
    return sums_kernels.exact_totals(r), r[1], r[2]


def _big_case(dtype: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2 if dtype == "bool" else 7, n)
    b = np.clip(a + rng.integers(-2, 3, n), 0, 1 if dtype == "bool" else 6)
    w = rng.random(n) * 3
    return a.astype(dtype), b.astype(dtype), w


@pytest.mark.parametrize("dtype", ["int8", "int64", "float64"])
@pytest.mark.parametrize("n", [1, 16383, 16385, 200_003])
def test_parallel_serial_and_thread_counts_agree_exactly(
    dtype: str, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, w = _big_case(dtype, n, seed=n)
    monkeypatch.setattr(_fastpath, "PARALLEL_MIN", 1)
    index_a = a.astype(np.int64) - int(min(a.min(), b.min()))
    index_b = b.astype(np.int64) - int(min(a.min(), b.min()))
    k = int(max(index_a.max(), index_b.max())) + 1
    strict_qwk = kappa_from_quadratic_sums(quadratic_sums(index_a, index_b), -0.987)
    strict_table = count_table(index_a, index_b, k)
    results = []
    original = numba.get_num_threads()
    try:
        for parallel, threads in [(False, 1), (True, 1), (True, 2), (True, original)]:
            _fastpath.set_parallel(parallel)
            numba.set_num_threads(threads)
            results.append(
                (
                    wk.qwk(a, b, zero_division=-0.987),
                    wk.qwk(a, b, sample_weight=w, zero_division=-0.987),
                    wk.weighted_kappa(
                        a, b, weights="linear", sample_weight=w, zero_division=-0.987
                    ),
                    wk.confusion_table(a, b).tolist(),
                    wk.confusion_table(a, b, sample_weight=w).tolist(),
                    sums_kernels.weighted_sums(a, b, w, parallel)[0],
                    _int_sums(a, b)  # parallel as set above (PARALLEL_MIN = 1)
                    if dtype != "float64"
                    else sums_kernels.float_sums(a, b, parallel),
                )
            )
    finally:
        _fastpath.set_parallel(None)
        numba.set_num_threads(original)
    assert all(r == results[0] for r in results)  # bit for bit, floats included
    assert results[0][0] == strict_qwk  # exact integer sums: the same correctly rounded float
    assert results[0][3] == strict_table.tolist()


def test_block_layout_depends_on_n_only() -> None:
    for n in [1, 100, sums_kernels.CHUNK, sums_kernels.CHUNK + 1, 10**7, 5 * 10**7]:
        blocks, block_len = sums_kernels.block_layout(n)
        assert blocks <= sums_kernels.N_BLOCKS
        assert block_len % sums_kernels.CHUNK == 0
        assert (blocks - 1) * block_len < n <= blocks * block_len


def test_table_kernel_paths() -> None:
    """Sub-tables (small K), one table (larger K) and the serial large-table path agree."""
    rng = np.random.default_rng(5)
    for k in (2, 16, 17, 600):
        a = rng.integers(0, k, 50_001)
        b = rng.integers(0, k, 50_001)
        expected = count_table(a, b, k)
        for parallel, threads in [(False, 1), (True, 2), (True, 3)]:
            got = table_kernels.table_counts(a, b, 0, k, parallel, threads)
            np.testing.assert_array_equal(got, expected)
        w = rng.random(50_001)
        weighted = table_kernels.table_weighted(a, b, w, 0, k, True)
        assert weighted is not None
        np.testing.assert_allclose(weighted, count_table(a, b, k, w), rtol=1e-12)
        w[7] = -1.0
        assert table_kernels.table_weighted(a, b, w, 0, k, False) is None


# --------------------------------------------------------------------------- overflow


def test_finishing_step_is_exact_for_sums_near_2_63() -> None:
    """Python ints finish the formula: no overflow and a correctly rounded result."""
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(400):
        n = int(rng.integers(2**40, 2**62))
        s_a, s_b = (int(v) for v in rng.integers(2**61, 2**63 - 1, 2, dtype=np.int64))
        sq_a, sq_b, cross = (int(v) for v in rng.integers(2**62, 2**63 - 1, 3, dtype=np.int64))
        # Cauchy-Schwarz: real data have n·Σa² >= (Σa)², so the denominator is positive.
        sq_a, sq_b = max(sq_a, s_a * s_a // n + 1), max(sq_b, s_b * s_b // n + 1)
        sums = QuadraticSums(n, s_a, s_b, sq_a, sq_b, cross)
        numerator = 2 * (n * cross - s_a * s_b)
        denominator = n * (sq_a + sq_b) - 2 * s_a * s_b
        if denominator <= 0:
            continue  # not the sums of any data
        got = kappa_from_quadratic_sums(sums, "raise")
        assert got == float(Fraction(numerator, denominator))
        checked += 1
    assert checked == 400


def test_block_totals_are_exact_near_their_limits() -> None:
    """``hi * 2**32 + lo`` accumulators carried over chunks and merged over blocks (serial
    and parallel, any block count) give exact sums when every chunk sum is near ``2**62``."""
    n = 5 * sums_kernels.CHUNK + 3
    top = sums_kernels.MAX_INT_RANGE
    a = np.full(n, 2**61 + top, dtype=np.int64)
    b = np.full(n, 2**61 + top, dtype=np.int64)
    a[0] = b[1] = 2**61  # range 2**24 misses the first window: a second pass from the minimum
    d_a = [int(v) - 2**61 for v in a]
    d_b = [int(v) - 2**61 for v in b]
    expected = [
        sum(d_a),
        sum(d_b),
        sum(x * x for x in d_a),
        sum(y * y for y in d_b),
        sum(x * y for x, y in zip(d_a, d_b, strict=True)),
    ]
    assert expected[2] > 2**63  # the total itself does not fit int64
    serial = sums_kernels.int_sums_serial(a, b)
    assert sums_kernels.exact_totals(serial) == tuple(expected)
    for n_blocks in (1, 2, 6):
        block_len = -(-n // n_blocks)
        parallel = sums_kernels.int_sums_parallel(a, b, n_blocks, block_len)
        assert sums_kernels.exact_totals(parallel) == tuple(expected)
        assert parallel[:3] == serial[:3] == (True, 2**61, 2**61 + top)


def test_carry_keeps_the_low_word_in_range() -> None:
    acc = np.zeros(10, dtype=np.int64)
    hi = lo = 0
    exact = 0
    for value in [2**62 - 1, 2**62 - 1, -(2**62), 5, -(2**61), 2**62 - 1] * 50:
        sums_kernels._carry(acc, 2, np.int64(value))
        hi, lo = sums_kernels._add_carry(np.int64(hi), np.int64(lo), np.int64(value))
        exact += value
        assert 0 <= acc[7] < 2**32 and 0 <= lo < 2**32
    assert (int(acc[2]) << 32) + int(acc[7]) == exact == (int(hi) << 32) + int(lo)


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_widest_exact_range_in_a_full_chunk(dtype: str) -> None:
    """The worst case of the chunk bound: a full chunk at the largest accepted range."""
    wide = sums_kernels.MAX_INT_RANGE if dtype == "int64" else sums_kernels.MAX_FLOAT_RANGE
    base = 2**52 if dtype == "float64" else 2**61  # large values, small range
    n = 3 * sums_kernels.CHUNK + 5
    rng = np.random.default_rng(2)
    a = base + wide * rng.integers(0, 2, n)
    b = base + wide * rng.integers(0, 2, n)
    a[0] = b[0] = base
    a[1] = base + wide
    ia, ib = [int(v) - base for v in a], [int(v) - base for v in b]
    totals, low, high = _int_sums(a, b) if dtype == "int64" else (
        sums_kernels.float_sums(a.astype(dtype), b.astype(dtype), False)
    )  # fmt: skip
    assert list(totals) == [
        sum(ia),
        sum(ib),
        sum(x * x for x in ia),
        sum(y * y for y in ib),
        sum(x * y for x, y in zip(ia, ib, strict=True)),
    ]
    assert int(high) - int(low) == wide
    # Two values per rater: QWK is invariant to shifting and scaling the ratings.
    scaled = reference_kappa([x // wide for x in ia], [y // wide for y in ib], 2, "quadratic")
    assert wk.qwk(a.astype(dtype), b.astype(dtype)) == float(scaled)  # type: ignore[arg-type]


def test_too_wide_a_range_takes_the_exact_strict_path() -> None:
    a = np.array([0, 2**40, 5, 2**40], dtype=np.int64)
    b = np.array([0, 2**40, 2**40, 3], dtype=np.int64)
    fast = _fastpath.fused_route(a, b, Request(sample_weight=None, quadratic=True))
    assert fast is None
    # The definition with Fractions: 1 - n Σ(a_k - b_k)² / Σ_i Σ_j (a_i - b_j)².
    ia, ib = a.tolist(), b.tolist()
    observed = Fraction(len(ia) * sum((x - y) ** 2 for x, y in zip(ia, ib, strict=True)))
    expected = 1 - observed / sum((x - y) ** 2 for x in ia for y in ib)
    assert wk.qwk(a, b) == float(expected)


def _qwk_of_sums(n: int, s_a: int, s_b: int, s_aa: int, s_bb: int, s_ab: int) -> Fraction:
    """QWK from five sums of ratings, exactly (translation invariant: any shift)."""
    return Fraction(2 * (n * s_ab - s_a * s_b), n * (s_aa + s_bb) - 2 * s_a * s_b)


@pytest.mark.parametrize(
    ("first", "spread"),
    [
        (-(2**63), 3),  # the first window saturates at the int64 minimum
        (2**63 - 10, 9),  # ratings at the int64 maximum
        (0, 2**23),  # the widest range that is always inside the first window
        (5, 2**23 + 7),  # beyond the first window: a second pass from the minimum
        (-7, sums_kernels.MAX_INT_RANGE),  # the widest exact range
        (0, sums_kernels.MAX_INT_RANGE + 1),  # too wide for the kernel
    ],
)
@pytest.mark.parametrize("parallel", [False, True])
def test_int_kernel_windows_and_extremes(first: int, spread: int, parallel: bool) -> None:
    """Each window case of the integer kernel gives exact sums (or says it cannot), and the
    plain route (one kernel call) agrees with the exact reference or leaves the input to the
    strict path, which decides as it always does."""
    rng = np.random.default_rng(spread)
    n = 3 * sums_kernels.CHUNK + 11
    index_a = rng.integers(0, 2, n)
    index_b = rng.integers(0, 2, n)
    index_a[:2] = [1, 0] if first > 0 else [0, 1]  # a[0] is an extreme of the data
    a = np.array([first + int(i) * spread for i in index_a], dtype=np.int64)
    b = np.array([first + int(i) * spread for i in index_b], dtype=np.int64)
    exact = reference_kappa(index_a.tolist(), index_b.tolist(), 2, "quadratic")

    r = sums_kernels.int_sums_parallel(a, b, 5, 2 * sums_kernels.CHUNK) if parallel else (
        sums_kernels.int_sums_serial(a, b)
    )  # fmt: skip
    assert r[1:3] == (first, first + spread)
    sums = sums_kernels.exact_totals(r)
    assert (sums is None) == (spread > sums_kernels.MAX_INT_RANGE)
    if sums is not None:
        assert _qwk_of_sums(n, *sums) == exact

    _fastpath.set_parallel(parallel)
    try:
        plain = _plain_qwk(a, b)
        if abs(first) >= 2**62:
            assert plain is None
            with pytest.raises(wk.WkappaError, match="too large"):
                wk.qwk(a, b)
        else:
            assert (plain is None) == (sums is None)
            assert plain in (None, float(exact))
            assert wk.qwk(a, b) == float(exact)
    finally:
        _fastpath.set_parallel(None)


def test_plain_route_declines_what_it_does_not_take(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fastpath, "FAST_MIN", 2048)  # this module sets it to 1
    a = np.arange(10_000) % 5
    b = a[::-1].copy()
    assert _plain_qwk(a, b) == strict(lambda: wk.qwk(a, b))
    declined = [
        (a.tolist(), b),  # not an ndarray
        (a.astype(">i8"), b.astype(">i8")),  # byte-swapped
        (a.astype(np.uint64), b.astype(np.uint64)),  # may exceed int64
        (a.astype(np.float64), b.astype(np.float64)),
        (a.astype(np.int32), b),  # mixed dtypes
        (a.reshape(100, 100), b.reshape(100, 100)),
        (a[:-1], b),  # lengths differ
        (a[:100], b[:100]),  # below FAST_MIN
    ]
    for x, y in declined:
        assert _plain_qwk(x, y) is None
    strided = np.repeat(a, 2)[::2]  # not contiguous: still one exact kernel call
    assert _plain_qwk(strided, b) == _plain_qwk(a, b)
    with pytest.raises(wk.WkappaError, match="y_pred"):
        wk.qwk(a, b[:-1])
    with pytest.raises(wk.WkappaError, match="nan_policy"):
        wk.qwk(a, b, nan_policy="drop")  # options are still checked on the shortest route
    with pytest.raises(wk.WkappaError, match="zero_division"):
        wk.qwk(a, b, zero_division=2.0)
    with pytest.raises(wk.WkappaError, match="zero_division"):  # the general route's order
        wk.qwk(a, b, zero_division=2.0, nan_policy="drop")
    with pytest.raises(wk.WkappaError, match="zero_division"):
        wk.qwk(a.astype(float), b, zero_division=2.0, nan_policy="drop")
    with pytest.warns(wk.UndefinedKappaWarning):
        assert np.isnan(_plain_qwk(a * 0 + 3, b * 0 + 3))  # type: ignore[arg-type]


def test_parallel_only_for_big_inputs_on_a_machine_with_a_free_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_fastpath.os, "cpu_count", lambda: 2)
    big = _fastpath.PARALLEL_MIN
    # (runnable tasks on the machine, runnable threads of this process) -> parallel?
    cases = [
        ((1, 1), True),  # only the caller
        ((2, 1), False),  # another process holds a core
        ((7, 1), False),
        ((3, 3), True),  # our own spinning workers (OpenMP, numba) are not a competitor
        ((4, 3), False),  # ... but another process still is
        ((3, None), False),  # the threads could not be read: count only the caller
    ]
    monkeypatch.setattr(_fastpath, "_own_threads", lambda: 4)
    for (running, own), expected in cases:
        monkeypatch.setattr(_fastpath, "_machine_running", lambda running=running: running)
        monkeypatch.setattr(_fastpath, "_own_running", lambda own=own: own)
        assert _fastpath.use_parallel(big) is expected, (running, own)
        assert _fastpath.use_parallel(big - 1) is False
    # Busy beyond what all our threads could explain: no need to read them one by one.
    monkeypatch.setattr(_fastpath, "_machine_running", lambda: 5)
    monkeypatch.setattr(_fastpath, "_own_running", lambda: pytest.fail("read the threads"))
    assert _fastpath.use_parallel(big) is False
    # Without /proc/loadavg: the 1-minute load average, this process counted as one.
    monkeypatch.setattr(_fastpath, "_machine_running", lambda: None)
    for load, expected in [(0.3, True), (1.6, True), (2.0, False), (7.5, False)]:
        monkeypatch.setattr(_fastpath.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert _fastpath.use_parallel(big) is expected
    _fastpath.set_parallel(True)
    try:
        assert _fastpath.use_parallel(big) is True
    finally:
        _fastpath.set_parallel(None)


def test_running_tasks_read_from_this_machine() -> None:
    running, own = _fastpath._machine_running(), _fastpath._own_running()
    if sys.platform.startswith("linux"):
        assert isinstance(running, int) and running >= 1
        assert isinstance(own, int) and own >= 1  # the caller itself is running
        assert _fastpath._own_threads() >= own
    else:
        assert running is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_own_spinning_threads_are_counted_as_ours() -> None:
    """A thread of this process busy in native code (here hashing, which releases the GIL)
    shows up in /proc/loadavg; the decision subtracts it as one of ours."""
    import hashlib
    import threading

    stop = threading.Event()
    data = bytes(1 << 24)

    def spin() -> None:
        while not stop.is_set():
            hashlib.sha256(data).digest()

    threads = [threading.Thread(target=spin) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        seen = 0
        while time.monotonic() < deadline and seen < 2:
            seen = max(seen, (_fastpath._own_running() or 0) - 1)  # less the caller
        assert seen >= 2
    finally:
        stop.set()
        for thread in threads:
            thread.join()


# --------------------------------------------------------------------------- memory


@pytest.mark.parametrize("dtype", ["int8", "int64"])
def test_qwk_allocates_nothing_proportional_to_n(dtype: str) -> None:
    n = 1_000_000
    a, b, _ = _big_case(dtype, n, seed=3)
    expected = wk.qwk(a, b)  # compile and warm up outside the measurement
    tracemalloc.start()
    try:
        assert wk.qwk(a, b) == expected
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 < n * a.itemsize // 8  # a few block partials, nothing of size n


def test_numba_is_not_imported_with_wkappa() -> None:
    import subprocess

    code = "import sys, wkappa; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_numpy_random_is_not_imported_with_wkappa() -> None:
    """numpy.random (and the hashing modules under it) loads when a call first draws."""
    import subprocess

    code = "import sys, wkappa; print('numpy.random' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint64"])
def test_one_pass_table_when_the_guessed_range_misses(dtype: str) -> None:
    """The range of the first 65536 pairs is only a guess: a later rating outside it is found."""
    rng = np.random.default_rng(4)
    n = 100_003
    a = rng.integers(1, 5, n)
    b = rng.integers(1, 5, n)
    a[-1] = 9  # after the sample: the table must still have K = 9 - 0 + 1 categories
    b[-7] = 0
    a, b = a.astype(dtype), b.astype(dtype)
    guessed = table_kernels.table_counts_guessed(a, b, 1, 4, False, 1)
    assert guessed is None
    expected = count_table(a.astype(np.int64), b.astype(np.int64), 10)
    np.testing.assert_array_equal(wk.confusion_table(a, b), expected)
    np.testing.assert_array_equal(
        wk.confusion_table(a, b, min_rating=-2, max_rating=11)[2:12, 2:12], expected
    )
    for parallel, threads in [(False, 1), (True, 2)]:
        inside = table_kernels.table_counts_guessed(a, b, 0, 10, parallel, threads)
        np.testing.assert_array_equal(inside, expected)
    with pytest.raises(wk.WkappaError, match=r"y_true.*above `max_rating` = 8"):
        wk.weighted_kappa(a, b, weights="linear", max_rating=8)
    if dtype == "uint64":
        a[-1] = 2**63 + 5  # beyond int64, after the sample: the strict path's error
        with pytest.raises(wk.WkappaError, match="y_true"):
            wk.confusion_table(a, b)


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
def test_sums_kernel_for_many_categories(dtype: str) -> None:
    """100 categories: QWK takes the fused sums pass (never a table) and stays exact."""
    rng = np.random.default_rng(6)
    a = rng.integers(0, 100, 3000) + 20
    b = np.clip(a + rng.integers(-9, 10, 3000), 20, 119)
    ia, ib = a - a.min(), b - a.min()
    strict = kappa_from_quadratic_sums(quadratic_sums(ia - ib.min(), ib - ib.min()), "raise")
    x, y = a.astype(dtype), b.astype(dtype)
    sums = _fastpath.fused_route(x, y, Request(sample_weight=None, quadratic=True))
    assert sums is not None and sums.sums is not None
    assert wk.qwk(x, y) == strict


@pytest.mark.parametrize("dtype", ["int16", "int64", "uint32", "uint64"])
def test_one_call_and_weighted_one_pass_when_the_guess_misses(dtype: str) -> None:
    """Serial QWK (one kernel call) and the one-pass weighted table: a rating outside the
    range of the first 65536 pairs sends them to the checked passes, with identical results."""
    rng = np.random.default_rng(8)
    n = 100_003
    a = rng.integers(1, 5, n).astype(dtype)
    b = rng.integers(1, 5, n).astype(dtype)
    w = rng.random(n)
    for miss in (False, True):
        if miss:
            a[-1] = 9
        for bounds in ({}, {"min_rating": 0, "max_rating": 12}):
            assert wk.qwk(a, b, **bounds) == strict(lambda bounds=bounds: wk.qwk(a, b, **bounds))
            weighted = wk.confusion_table(a, b, sample_weight=w, **bounds)
            first = 0 if bounds else 1
            k = 13 if bounds else (9 if miss else 4)
            two_pass = table_kernels.table_weighted(a, b, w, first, k, False)
            np.testing.assert_array_equal(weighted, two_pass)  # the table of the checked route
            strict_table = strict(
                lambda bounds=bounds: wk.confusion_table(a, b, sample_weight=w, **bounds)
            )
            np.testing.assert_allclose(weighted, strict_table, rtol=1e-12)  # bincount: other order
            kappa = wk.qwk(a, b, sample_weight=w, **bounds)
            assert kappa == pytest.approx(
                strict(lambda bounds=bounds: wk.qwk(a, b, sample_weight=w, **bounds))
            )
    k = 10
    plain = table_kernels.table_weighted(a, b, w, 0, k, False)
    for parallel in (False, True):
        guessed = table_kernels.table_weighted(a, b, w, 0, k, parallel, checked=True)
        np.testing.assert_array_equal(guessed, plain)  # bit for bit, any driver
    assert table_kernels.table_weighted(a, b, w, 1, 4, True, checked=True) is None
    w[5] = -1.0
    assert table_kernels.table_weighted(a, b, w, 0, k, True, checked=True) is None
    with pytest.raises(wk.WkappaError, match="sample_weight"):
        wk.qwk(a, b, sample_weight=w)
