"""The one-call kernels of the shortest route (``numba_sums.qwk_serial``,
``numba_table.serial_table_kappa``): kappa finished inside the kernel is the correctly rounded
exact value, the cases it cannot finish exactly are handed back (``inf``), and the public
functions give the exact value through every layout of the arrays."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from reference import reference_kappa
from wkappa._core import dispatch, fused, warmup
from wkappa._core.kernels import numba_sums, numba_table

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "bool"]


def _exact(a: np.ndarray, b: np.ndarray, weights: str) -> float:
    """Kappa of integer ratings from the Fraction reference (nan when undefined)."""
    x, y = a.astype(object).tolist(), b.astype(object).tolist()
    lo = min(min(x), min(y))
    k = max(max(x), max(y)) - lo + 1
    value = reference_kappa([int(v) - lo for v in x], [int(v) - lo for v in y], k, weights)
    return float("nan") if value is None else float(value)


def _exact_qwk(a: np.ndarray, b: np.ndarray) -> float:
    """QWK of integer ratings over any range, exactly: the closed form with Python ints
    (the quadratic-weights identity of :func:`wkappa.qwk`'s Notes), one correctly rounded
    division by :class:`~fractions.Fraction`."""
    x, y = [int(v) for v in a.tolist()], [int(v) for v in b.tolist()]
    n, sa, sb = len(x), sum(x), sum(y)
    num = 2 * (n * sum(map(int.__mul__, x, y)) - sa * sb)
    den = n * (sum(v * v for v in x) + sum(v * v for v in y)) - 2 * sa * sb
    return float(Fraction(num, den)) if den else float("nan")


def _same(x: float, y: float) -> bool:
    return (np.isnan(x) and np.isnan(y)) or x == y


@st.composite
def ratings(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    if dtype.kind == "b":
        low, high = 0, 1
    else:
        info = np.iinfo(dtype)
        # ratings of magnitude 2**62 and more are an error (the strict path says so)
        smallest, largest = max(int(info.min), 1 - 2**62), min(int(info.max), 2**62 - 1)
        span = draw(st.integers(0, min(9, largest - smallest)))
        low = draw(st.integers(smallest, largest - span))
        high = low + span
    n = draw(st.integers(warmup.FAST_MIN, warmup.FAST_MIN + 300))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    a = rng.integers(low, high, n, endpoint=True)
    # b agrees with a more often than by chance, and may sit in one category
    agree = rng.random(n) < draw(st.floats(0, 1))
    b = np.where(agree, a, rng.integers(low, high, n, endpoint=True))
    return a.astype(dtype), b.astype(dtype)


@settings(max_examples=examples(60), deadline=None)
@given(ratings(), st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_one_call_kernels_give_the_correctly_rounded_exact_value(
    pair: tuple[np.ndarray, np.ndarray], weights: str
) -> None:
    a, b = pair
    expected = _exact(a, b, weights)
    kernel, contiguous = fused.serial_kernel(weights, a.dtype)
    value = kernel(a, b)
    assert value == float("inf") or _same(value, expected), (value, expected)
    if contiguous is not None:
        assert _same(contiguous(a, b), value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wk.exceptions.UndefinedKappaWarning)
        assert _same(wk.weighted_kappa(a, b, weights=weights), expected)


def test_int64_sums_past_the_int64_range_are_exact() -> None:
    """Ratings near 2**61: the shifted sums wrap in int64 and are re-centred exactly."""
    rng = np.random.default_rng(5)
    for offset in (2**61 - 10, -(2**61) + 3, 2**40, -(2**33)):
        a = offset + rng.integers(0, 5, 130_000)
        b = np.clip(a + rng.integers(-1, 2, a.size), offset, offset + 4)
        value = numba_sums.qwk_serial(a, b)
        assert value == _exact(a, b, "quadratic") == _exact_qwk(a, b) == wk.qwk(a, b)


def test_what_the_kernels_hand_back() -> None:
    """``inf``: a longer route answers, and the public value is still the exact one."""
    rng = np.random.default_rng(7)
    n = warmup.FAST_MIN
    a = rng.integers(0, 5, n)
    b = rng.integers(0, 5, n)
    wide = a * 2**20  # n * (max - min) >= 2**31: exact only with Python ints
    huge = a + 2**62  # at the strict path's bound
    big = rng.integers(0, 2**14, 2**16)  # num and den above 2**53
    cases = [
        (a[:-1], b[:-1]),  # fewer than FAST_MIN pairs
        (a, b[:-1]),  # lengths differ
        (np.tile(a, 64), np.tile(b, 64)),  # PARALLEL_MIN pairs or more
        (wide, b),
        (huge, huge[::-1].copy()),
        (big, big[::-1].copy()),
    ]
    for x, y in cases:
        assert numba_sums.qwk_serial(x, y) == float("inf")
    for x, y in cases[:4]:
        assert numba_table.serial_table_kappa(x, y, 1 << 16, 2**13, 2**62, True) == float("inf")
    assert wk.qwk(wide, b) == _exact_qwk(wide, b)
    assert wk.qwk(big, big[::-1].copy()) == _exact_qwk(big, big[::-1])
    undefined = np.full(n, 3)
    assert np.isnan(numba_sums.qwk_serial(undefined, undefined))
    assert np.isnan(numba_table.serial_table_kappa(undefined, undefined, 1 << 16, 99, 2**62, True))


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint16"])
def test_every_layout_takes_its_kernel_and_gets_the_exact_value(dtype: str) -> None:
    rng = np.random.default_rng(11)
    a = rng.integers(0, 6, 20_000).astype(dtype)
    b = np.clip(a.astype(np.int64) + rng.integers(-2, 3, a.size), 0, 5).astype(dtype)
    readonly = a.copy()
    readonly.flags.writeable = False
    layouts = [(a, b), (a[::3], b[::3]), (readonly, b), (a[::-1], b[::-1])]
    for weights in ("quadratic", "linear", "unweighted"):
        for x, y in layouts:
            expected = _exact(x, y, weights)
            assert wk.weighted_kappa(x, y, weights=weights) == expected
            assert dispatch.plain_kappa(x, y, weights) == expected
        assert dispatch._SERIAL[weights, np.dtype(dtype)][1] is not None
    assert wk.qwk(a, b) == Fraction(_exact(a, b, "quadratic"))
