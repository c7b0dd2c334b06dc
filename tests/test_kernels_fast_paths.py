"""Kernel paths taken for speed: the 8-bit and bool sums kernel (exact at the widest 8-bit
ranges) and the two-loop table count of large inputs with K <= 16."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from reference import reference_kappa
from wkappa._core.kernels import numba_sums as sums_kernels
from wkappa._core.kernels import numba_table as table_kernels
from wkappa._core.warmup import PARALLEL_MIN


def _exact_sums(a: np.ndarray, b: np.ndarray, s: int) -> tuple[int, ...]:
    da = [int(x) - s for x in a.tolist()]
    db = [int(y) - s for y in b.tolist()]
    return (
        sum(da),
        sum(db),
        sum(x * x for x in da),
        sum(y * y for y in db),
        sum(x * y for x, y in zip(da, db, strict=True)),
    )


@pytest.mark.parametrize("dtype", ["int8", "uint8", "bool"])
@pytest.mark.parametrize("parallel", [False, True])
def test_narrow_sums_are_exact_at_the_widest_range(dtype: str, parallel: bool) -> None:
    """``a[0]`` at one end of the dtype and nearly every other rating at the other: every ``d``
    is ``±255`` (the bound of the int32 chunk sums), over several whole chunks and a tail."""
    info = np.iinfo(np.uint8 if dtype == "bool" else dtype)
    low, high = (0, 1) if dtype == "bool" else (int(info.min), int(info.max))
    n = 3 * sums_kernels.CHUNK + 11
    rng = np.random.default_rng(7)
    a = np.full(n, high, dtype=np.int64)
    b = np.full(n, high, dtype=np.int64)
    a[0] = low
    b[rng.integers(0, n, 50)] = low
    a, b = a.astype(dtype), b.astype(dtype)
    if parallel:
        r = sums_kernels.int_sums_parallel(a, b, 5, 2 * sums_kernels.CHUNK)
    else:
        r = sums_kernels.int_sums_serial(a, b)
    assert r[1:3] == (low, high)
    assert sums_kernels.exact_totals(r) == _exact_sums(a, b, low)
    index_a = (a.astype(np.int64) - low).tolist()
    index_b = (b.astype(np.int64) - low).tolist()
    assert wk.qwk(a, b) == float(reference_kappa(index_a, index_b, high - low + 1, "quadratic"))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64"])
@pytest.mark.parametrize("k", [1, 2, 5, 16])
@pytest.mark.parametrize("miss", [None, "below", "above", "tail"])
def test_two_loop_table_count(dtype: str, k: int, miss: str | None) -> None:
    """Large inputs with K <= 16 count the cells of each piece after checking its range: the
    table is the exact count, and a rating outside the guessed range -- below it (which wraps
    to a huge unsigned value), above it, or in the last short piece -- is found."""
    rng = np.random.default_rng(k)
    n = PARALLEL_MIN + 1001  # whole pieces and a short last one
    lo = 3
    a = rng.integers(0, k, n) + lo
    b = rng.integers(0, k, n) + lo
    if miss == "below":
        b[n // 2] = lo - 1
    elif miss == "above":
        a[12345] = lo + k
    elif miss == "tail":
        b[-3] = lo + k + 100
    a, b = a.astype(dtype), b.astype(dtype)
    cells = (a.astype(np.int64) - lo) * k + b.astype(np.int64) - lo
    for parallel, threads in [(False, 1), (True, 2)]:
        table = table_kernels.table_counts_guessed(a, b, lo, k, parallel, threads)
        if miss is None:
            assert table is not None
            np.testing.assert_array_equal(table.ravel(), np.bincount(cells, minlength=k * k))
        else:
            assert table is None
    if k > 1:  # one category: kappa is undefined
        expected = wk.weighted_kappa(a.astype(np.int64).tolist(), b.tolist(), weights="linear")
        assert wk.weighted_kappa(a, b, weights="linear") == expected


def test_large_serial_linear_count_takes_the_two_loop_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A serial count of many 64-bit ratings goes to the two-loop count, not the one-call
    kernel of small inputs; 8-bit ratings keep the one-call kernel (one loop is faster there)."""
    from wkappa._core import fused

    rng = np.random.default_rng(5)
    a = rng.integers(0, 5, PARALLEL_MIN + 7)
    b = rng.integers(0, 5, PARALLEL_MIN + 7)
    expected = wk.weighted_kappa(a, b, weights="linear")
    calls: list[str] = []
    one_call = fused.guessed_serial
    monkeypatch.setattr(
        fused, "guessed_serial", lambda *args: calls.append("one call") or one_call(*args)
    )
    fused.set_parallel(False)
    try:
        assert wk.weighted_kappa(a, b, weights="linear") == expected
        assert calls == []
        a8, b8 = a.astype(np.int8), b.astype(np.int8)
        assert wk.weighted_kappa(a8, b8, weights="linear") == expected
        assert calls == ["one call"]
    finally:
        fused.set_parallel(None)
