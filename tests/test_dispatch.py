"""The dispatcher: route order, each route's "not mine" cases, and every entry point on every
route (Dask arrays and torch tensors give the numpy results for kappa_test, the paired test
and the accumulator too)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import wkappa as wk
from routes import strict
from wkappa._backends import array_api, dask_arrays
from wkappa._core import dispatch, fused
from wkappa._core.request import Request

torch = pytest.importorskip("torch")
da = pytest.importorskip("dask.array")

N = 5_000  # above fused.FAST_MIN, so the fast routes are in play


def _pair(n: int = N, k: int = 5, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    return a, np.clip(a + rng.integers(-1, 2, n), 0, k - 1)


A, B = _pair()
BIG_A, BIG_B = _pair(fused.PARALLEL_MIN)
QWK = Request(quadratic=True)
TABLE = Request()


def test_route_order() -> None:
    assert [name for name, _ in dispatch.routes()] == ["plain", "device", "dask", "fused", "strict"]


# route, y_true, y_pred, request: each a case the route must decline (return None).
DECLINED: list[tuple[str, Any, Any, Request]] = [
    ("plain", A.tolist(), B.tolist(), QWK),  # not ndarrays
    ("plain", A.astype(float), B.astype(float), QWK),  # float ratings
    ("plain", A.astype(">i8"), B.astype(">i8"), QWK),  # byte-swapped
    ("plain", A.astype(np.uint64), B.astype(np.uint64), QWK),  # may exceed int64
    ("plain", A.astype(np.int32), B, QWK),  # mixed dtypes
    ("plain", A[:100], B[:100], QWK),  # below FAST_MIN
    ("plain", BIG_A, BIG_B, TABLE),  # a table of a parallel size: the fused route decides
    ("plain", A * 2**40, B, TABLE),  # a range too wide for a table
    ("plain", A, B, Request(min_rating=0)),  # an option
    ("plain", A, B, Request(quadratic=True, min_rating=0)),  # an option
    ("plain", A, B, Request(quadratic=True, sample_weight=np.ones(N))),
    ("plain", A, B, Request(quadratic=True, labels=range(5))),
    ("device", A, B, QWK),  # numpy: not a device array
    ("device", torch.tensor(A), torch.tensor(B), QWK),  # in CPU memory: read in place
    ("dask", A, B, QWK),  # not a Dask array
    ("dask", torch.tensor(A), B, QWK),
    ("fused", A[:100], B[:100], TABLE),  # below FAST_MIN
    ("fused", np.where(A == 2, np.nan, A), B.astype(float), QWK),  # a missing rating
    ("fused", A + 0.5, B.astype(float), QWK),  # non-integer ratings
    ("fused", A.astype(object), B.astype(object), TABLE),  # object columns
    ("fused", A, B, Request(min_rating=1)),  # a rating below min_rating: strict raises
    ("fused", A, B, Request(labels=[0, 1, 2, 3, 4], min_rating=0)),  # labels and bounds
    ("fused", A, B, Request(sample_weight=-np.ones(N))),  # a negative weight
    ("fused", A * 2**40, B, QWK),  # a range too wide for the fused pass
]


@pytest.mark.parametrize(("name", "y_true", "y_pred", "request_"), DECLINED)
def test_each_route_declines_what_is_not_its_own(
    name: str, y_true: Any, y_pred: Any, request_: Request
) -> None:
    route = dict(dispatch.routes())[name]
    assert route(y_true, y_pred, request_) is None
    # ... and the call still gets the strict route's answer (or its error) from a later route.
    try:
        expected = strict(lambda: dispatch.count_pairs(y_true, y_pred, request_))
    except wk.WkappaError as exc:
        with pytest.raises(type(exc)) as raised:
            dispatch.count_pairs(y_true, y_pred, request_)
        assert str(raised.value) == str(exc)
        return
    got = dispatch.count_pairs(y_true, y_pred, request_)
    if isinstance(got.labels, range) and isinstance(expected.labels, range):
        assert got.labels == expected.labels  # (a range of 2**42 labels is not listed)
    else:
        assert tuple(got.labels) == tuple(expected.labels)  # type: ignore[arg-type]
    if expected.table is not None and got.table is not None:
        np.testing.assert_array_equal(got.table, expected.table)
    else:
        kappa = wk._core.kappa_from_quadratic_sums
        assert kappa(got.sums, "raise") == kappa(expected.sums, "raise")  # type: ignore[arg-type]


def test_each_route_answers_its_own() -> None:
    """The route that should count a call is the one that does."""
    cases = [
        # Two plain integer arrays without options: dispatch.plain_kappa answers before
        # any route (the shortest way, tested below); other entry points take "plain".
        ("", lambda: wk.qwk(A, B)),
        ("plain", lambda: wk.kappa_test(A, B).statistic),
        ("dask", lambda: wk.qwk(da.from_array(A, chunks=1000), B)),
        ("", lambda: wk.weighted_kappa(A, B, weights="linear")),
        ("plain", lambda: wk.confusion_table(A, B)),
        ("fused", lambda: wk.weighted_kappa(BIG_A, BIG_B, weights="linear")),
        ("fused", lambda: wk.weighted_kappa(A, B, weights="linear", min_rating=0)),
        ("fused", lambda: wk.qwk(A.astype(float), B)),
        ("strict", lambda: wk.qwk(A[:10], B[:10])),
        ("fused", lambda: wk.qwk(A.astype(str), B.astype(str), labels=list("01234"))),
        ("strict", lambda: wk.qwk(A.astype(object), B.astype(object))),
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(array_api, "PREFER_HOST_VIEW", False)
        cases.append(("device", lambda: wk.qwk(torch.tensor(A), torch.tensor(B))))
        for expected, call in cases:
            with dispatch.routes_taken() as seen:
                call()
            assert seen == ([expected] if expected else []), (expected, seen)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_shortest_route_gives_the_routes_value(weights: str) -> None:
    """dispatch.plain_kappa answers plain integer arrays with the value the routes give,
    and declines (None) what is not its own."""
    for dtype in ("int8", "int16", "uint8", "int64", "bool"):
        a, b = A.astype(dtype), B.astype(dtype)
        expected = wk.kappa_from_table(wk.confusion_table(a, b), weights=weights)
        assert dispatch.plain_kappa(a, b, weights) == expected
        assert wk.weighted_kappa(a, b, weights=weights) == expected
    assert dispatch.plain_kappa(A.astype(float), B.astype(float), weights) is None
    assert dispatch.plain_kappa(A.astype(np.uint64), B.astype(np.uint64), weights) is None
    assert dispatch.plain_kappa(A[:10], B[:10], weights) is None  # below FAST_MIN
    assert dispatch.plain_kappa(A, B[:-1], weights) is None
    assert dispatch.plain_kappa(A, B.astype(np.int32), weights) is None
    assert dispatch.plain_kappa(A.reshape(-1, 2), B.reshape(-1, 2), weights) is None


def _device(x: np.ndarray) -> Any:
    return torch.tensor(x)


def _dask(x: np.ndarray) -> Any:
    return da.from_array(x, chunks=1_700)


@pytest.fixture(params=["device", "view"])
def on_device(request: pytest.FixtureRequest) -> Any:
    """torch tensors counted on their device (the device route) or read in place."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(array_api, "PREFER_HOST_VIEW", request.param == "view")
        yield


@pytest.mark.parametrize("convert", [_device, _dask], ids=["torch", "dask"])
@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_every_entry_point_equals_numpy(on_device: Any, convert: Any, weights: str) -> None:
    t, a = _pair(seed=3)
    b = np.random.default_rng(4).integers(0, 5, N)
    w = np.random.default_rng(5).gamma(2.0, 1.0, N)
    x, y, z, ww = convert(t), convert(a), convert(b), convert(w)

    expected = wk.kappa_test(t, a, weights=weights)
    got = wk.kappa_test(x, y, weights=weights)
    assert got.statistic == expected.statistic
    assert got.standard_error == expected.standard_error
    assert got.labels == expected.labels
    np.testing.assert_array_equal(got.table, expected.table)
    weighted = wk.weighted_kappa(x, y, weights=weights, sample_weight=ww, min_rating=-1)
    expected = wk.weighted_kappa(t, a, weights=weights, sample_weight=w, min_rating=-1)
    # float weighted counts are added in another order on each route: a few ulps
    assert weighted == pytest.approx(expected, rel=1e-14, abs=0)
    # a test reads sample weights as frequencies: whole numbers, summed exactly on every route
    whole = np.ceil(w)
    tested = wk.kappa_test(x, y, weights=weights, sample_weight=convert(whole), min_rating=-1)
    reference = wk.kappa_test(t, a, weights=weights, sample_weight=whole, min_rating=-1)
    assert tested.statistic == pytest.approx(reference.statistic, rel=1e-14, abs=0)
    assert tested.standard_error == pytest.approx(reference.standard_error, rel=1e-12)
    np.testing.assert_array_equal(tested.table, reference.table)

    paired = wk.paired_kappa_test(x, y, z, weights=weights, n_resamples=200, rng=7)
    reference = wk.paired_kappa_test(t, a, b, weights=weights, n_resamples=200, rng=7)
    assert paired.difference == reference.difference
    assert paired.pvalue == reference.pvalue

    accumulator = wk.KappaAccumulator(range(5), weights=weights)
    accumulator.update(x[:2000], y[:2000]).update(x[2000:], y[2000:])
    assert accumulator.value == wk.weighted_kappa(t, a, weights=weights, min_rating=0,
                                                  max_rating=4)  # fmt: skip
    labelled = wk.KappaAccumulator([4, 3, 2, 1, 0], weights=weights).update(x, y)
    assert labelled.value == wk.weighted_kappa(t, a, weights=weights, labels=[4, 3, 2, 1, 0])


def test_kappa_test_and_accumulator_count_dask_on_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = dask_arrays._chunk_statistic

    def counting(*args: Any) -> Any:
        calls.append(len(args[0]))
        return real(*args)

    monkeypatch.setattr(dask_arrays, "_chunk_statistic", counting)
    t, a = _pair(seed=8)
    wk.kappa_test(_dask(t), _dask(a))
    wk.KappaAccumulator(range(5)).update(_dask(t), _dask(a))
    assert len(calls) == 2 * len(_dask(t).chunks[0])  # chunk by chunk, never the whole column


def test_sample_weighted_qwk_with_many_categories_on_numpy_and_dask() -> None:
    """K > 8192: the five float sums instead of a K x K table, on every route alike."""
    rng = np.random.default_rng(9)
    a = rng.integers(0, 9_000, 20_000)
    b = np.clip(a + rng.integers(-50, 51, 20_000), 0, 8_999)
    w = rng.integers(1, 4, 20_000).astype(float)
    expected = wk.qwk(a, b, sample_weight=w)
    # The routes shift the ratings differently before the float formula: a few ulps apart.
    close = {"rel": 1e-12, "abs": 0}
    assert wk.qwk(_dask(a), _dask(b), sample_weight=_dask(w)) == pytest.approx(expected, **close)
    assert wk.qwk(a.tolist(), b.tolist(), sample_weight=w.tolist()) == pytest.approx(
        expected, **close
    )
    assert fused.fused_route(a, b, Request(sample_weight=w, quadratic=True)).sums is not None
    # Integer weights are repetition, so the exact value is the QWK of the repeated pairs.
    assert expected == pytest.approx(wk.qwk(np.repeat(a, w.astype(int)),
                                            np.repeat(b, w.astype(int))), rel=1e-9)  # fmt: skip
