"""Dask on a real two-process LocalCluster: arrays in the core functions, DataFrames through
wkappa.frames, and a worker process killed mid-computation.

One cluster serves the whole module (starting one costs seconds); the fault test runs last
and waits for the nanny to restart the killed worker.
"""

from __future__ import annotations

import math
import os
import signal
import threading
import time

import numpy as np
import pytest

import wkappa as wk
from frames_data import frame_library, make_case
from wkappa import WkappaError

# One Dask cluster: under pytest-xdist (make test) the module stays on one worker.
pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("dask")]

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
frames = pytest.importorskip("wkappa.frames")
pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
        memory_limit="2GiB",
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


def _ratings(n: int, seed: int, k: int = 6) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(1, k + 1, n)
    b = np.clip(a + rng.integers(-2, 3, n), 1, k)
    return a, b


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_dask_arrays_equal_numpy(client, weights):
    a, b = _ratings(50_000, seed=1)
    # Different chunkings on purpose: y_pred is rechunked to match y_true.
    A, B = da.from_array(a, chunks=6_000), da.from_array(b, chunks=11_000)
    assert wk.weighted_kappa(A, B, weights=weights) == wk.weighted_kappa(a, b, weights=weights)
    if weights == "quadratic":  # both bounds given: one pass, no range pass
        got = wk.weighted_kappa(A, B, weights=weights, min_rating=0, max_rating=9)
        assert got == wk.weighted_kappa(a, b, weights=weights, min_rating=0, max_rating=9)


def test_dask_confusion_table_qwk_and_mixed_inputs(client):
    a, b = _ratings(30_000, seed=2)
    A = da.from_array(a, chunks=4_000)
    table = wk.confusion_table(A, da.from_array(b, chunks=4_000))
    assert table.dtype == np.int64
    assert np.array_equal(table, wk.confusion_table(a, b))
    assert wk.qwk(A, b) == wk.qwk(a, b)  # numpy y_pred alongside a dask y_true


def test_a_dask_dataframe_column_is_counted_on_the_workers(client):
    """wk.qwk(ddf["a"], ddf["b"]) read both columns into this process (np.asarray of the
    Series): ten million rows came to the client. Columns of numbers (partitioned apart,
    divisions unknown, with weights) are now counted per partition on the workers; a
    categorical column, whose order pandas keeps, is still read here."""
    from wkappa._core import dispatch

    a, b = _ratings(20_000, seed=9)
    frame = pd.DataFrame({"a": a, "b": b, "f": np.where(np.arange(a.size) % 13, a, np.nan)})
    frame["w"] = np.arange(a.size) % 4
    frame["c"] = pd.Categorical(a, ordered=True)
    ddf = dd.from_pandas(frame, npartitions=5)
    other = dd.from_pandas(frame, npartitions=3).clear_divisions()
    calls = [
        (lambda: wk.qwk(ddf["a"], ddf["b"]), wk.qwk(a, b)),
        (lambda: wk.qwk(ddf["a"], other["b"]), wk.qwk(a, b)),
        (
            lambda: wk.qwk(ddf["a"], ddf["b"], sample_weight=ddf["w"]),
            wk.qwk(a, b, sample_weight=frame["w"]),
        ),
        (
            lambda: wk.qwk(ddf["f"], ddf["b"], nan_policy="omit"),
            wk.qwk(frame["f"], b, nan_policy="omit"),
        ),
        (
            lambda: wk.qwk(ddf[ddf["a"] > 2]["a"], ddf[ddf["a"] > 2]["b"]),
            wk.qwk(a[a > 2], b[a > 2]),
        ),
    ]
    for call, expected in calls:
        with dispatch.routes_taken() as seen:
            assert call() == expected
        assert seen == ["dask"], seen
    with dispatch.routes_taken() as seen:
        assert wk.qwk(ddf["c"], frame["c"]) == wk.qwk(a, a)
    assert seen != ["dask"], seen
    with pytest.raises(WkappaError, match="must have the same length; got 16"):
        wk.qwk(ddf[ddf["a"] > 1]["a"], ddf["b"])


def test_a_rating_out_of_bounds_is_one_refusal_from_the_first_chunk(client):
    """Each chunk's refusal was a task failure: every worker logged it with its traceback,
    and the error raised was that of whichever chunk failed first (here `y_pred`'s 9 or
    `y_true`'s 7, from run to run). The first chunk's refusal is now raised by the client."""

    def failures() -> int:
        logs = client.get_worker_logs().values()
        return sum("Compute Failed" in text or "Exception" in text for r in logs for _, text in r)

    a = np.arange(2_000) % 4
    b = a.copy()
    a[10], b[1_900] = 7, 9
    before = failures()
    for bounds in ({"min_rating": 0, "max_rating": 3}, {"labels": [0, 1, 2, 3]}):
        for _ in range(3):
            with pytest.raises(WkappaError, match=r"^`y_true` contains the rating 7, above"):
                wk.qwk(da.from_array(a, chunks=100), da.from_array(b, chunks=100), **bounds)
    assert failures() == before


def test_dask_arrays_with_missing_values(client):
    a, b = _ratings(20_000, seed=3)
    af = a.astype(float)
    af[::101] = np.nan
    A, B = da.from_array(af, chunks=3_000), da.from_array(b, chunks=3_000)
    assert wk.qwk(A, B, nan_policy="omit") == wk.qwk(af, b, nan_policy="omit")
    assert math.isnan(wk.qwk(A, B, nan_policy="propagate"))
    with pytest.raises(WkappaError, match="199 pair"):
        wk.qwk(A, B)
    with pytest.raises(WkappaError, match="missing rating"):
        wk.qwk(A, B, labels=[1, 2, 3, 4, 5, 6])


def test_dask_arrays_of_strings_and_sample_weights(client):
    a, b = _ratings(20_000, seed=4, k=3)
    names = np.array(["lo", "mid", "hi"])
    s, t = names[a - 1], names[b - 1]
    S, T = da.from_array(s, chunks=2_500), da.from_array(t, chunks=2_500)
    labels = ["lo", "mid", "hi"]
    assert wk.weighted_kappa(S, T, labels=labels) == wk.weighted_kappa(s, t, labels=labels)
    assert wk.weighted_kappa(S, T, weights="unweighted") == wk.weighted_kappa(
        s, t, weights="unweighted"
    )
    with pytest.raises(WkappaError, match="labels="):
        wk.weighted_kappa(S, T)
    w = np.random.default_rng(0).integers(1, 9, a.size) / 8
    W = da.from_array(w, chunks=5_000)
    assert wk.qwk(da.from_array(a, chunks=2_500), b, sample_weight=W) == pytest.approx(
        wk.qwk(a, b, sample_weight=w), rel=1e-13
    )


def test_dask_array_errors(client):
    A = da.from_array(np.arange(10) % 3, chunks=4)
    with pytest.raises(WkappaError, match="same length"):
        wk.qwk(A, da.from_array(np.arange(9) % 3, chunks=4))
    with pytest.raises(WkappaError, match="above `max_rating` = 1"):
        wk.qwk(A, A, max_rating=1)
    with pytest.raises(WkappaError, match="below `min_rating` = 7"):
        wk.qwk(A, A, min_rating=7)
    with pytest.raises(WkappaError, match="must not exceed"):
        wk.qwk(A, A, min_rating=3, max_rating=2)
    # A bound beyond the data just widens the categories, as for numpy input.
    assert wk.qwk(A, A[::-1], max_rating=9) == wk.qwk(
        np.arange(10) % 3, (np.arange(10) % 3)[::-1], max_rating=9
    )
    with pytest.raises(WkappaError, match=r"non-integer rating 0\.5"):
        wk.qwk(A, da.from_array(np.full(10, 0.5), chunks=4))
    with pytest.raises(WkappaError, match="1-D"):
        wk.qwk(da.ones((3, 3), chunks=2), da.ones((3, 3), chunks=2))


# --------------------------------------------------------------------------- Dask DataFrames


@pytest.mark.parametrize("kind", ["int", "str", "enum"])
def test_dask_dataframe_through_frames(client, kind):
    case = make_case(kind, seed=9)
    ddf = dd.from_pandas(frame_library("pandas").case(case), npartitions=4)
    numpy_kwargs = {} if case.labels is None else {"labels": case.labels}
    frame_kwargs = {"labels": case.labels} if kind == "str" else {}
    weights = "unweighted" if kind == "str" else "quadratic"
    expected = wk.weighted_kappa(
        case.true, case.pred, weights=weights, nan_policy="omit", **numpy_kwargs
    )
    got = frames.weighted_kappa(
        ddf, y_true="a", y_pred="b", weights=weights, nan_policy="omit", **frame_kwargs
    )
    assert got == expected
    if kind == "str":
        with pytest.raises(WkappaError, match="missing rating"):
            frames.weighted_kappa(ddf, y_true="a", y_pred="b", **frame_kwargs)
        return
    if kind == "int":
        table = frames.confusion_table(
            ddf, y_true="a", y_pred="b", sample_weight="w", nan_policy="omit"
        )
        expected_table = wk.confusion_table(
            case.true, case.pred, sample_weight=case.weight, nan_policy="omit"
        )
        assert np.array_equal(table, expected_table)
    groups = frames.kappa_by_group(
        ddf, y_true="a", y_pred="b", by="g", nan_policy="omit", **frame_kwargs
    )
    assert isinstance(groups, dd.DataFrame)
    out = groups.compute()
    assert out["g"].tolist() == sorted(set(case.group))
    for row in out.itertuples():
        idx = [i for i, g in enumerate(case.group) if g == row.g]
        expected = wk.qwk(
            [case.true[i] for i in idx],
            [case.pred[i] for i in idx],
            nan_policy="omit",
            **numpy_kwargs,
        )
        assert row.kappa == pytest.approx(expected, rel=1e-12)


def test_dask_weight_sums_are_the_same_bits_in_any_partitioning(client):
    # Weights over six orders of magnitude: their float sums depend on the order of the rows,
    # and on the two worker processes the partitions finish in any order.
    rng = np.random.default_rng(11)
    a, b = _ratings(40_000, seed=11)
    df = pd.DataFrame({"a": a, "b": b, "g": rng.integers(0, 3, a.size)})
    df["w"] = rng.random(a.size) * 10.0 ** rng.uniform(-3, 3, a.size)
    df["c"] = np.arange(a.size) % 8  # such weights get cluster-robust standard errors
    options = {"y_true": "a", "y_pred": "b", "sample_weight": "w"}
    expected = frames.confusion_table(df, **options)
    assert not np.array_equal(expected, wk.confusion_table(a, b, sample_weight=df["w"]))
    pandas_groups = frames.kappa_by_group(df, **options, by="g", cluster="c")
    results = set()
    for parts, seed in ((2, 0), (7, 1), (16, 2)):
        shuffled = df.sample(frac=1.0, random_state=seed)
        ddf = dd.from_pandas(shuffled, npartitions=parts)
        assert np.array_equal(frames.confusion_table(ddf, **options), expected)
        groups = frames.kappa_by_group(ddf, **options, by="g", cluster="c").compute()
        pd.testing.assert_frame_equal(groups.reset_index(drop=True), pandas_groups)
        results.add(frames.weighted_kappa(ddf, **options))
    assert results == {frames.weighted_kappa(df, **options)}


# --------------------------------------------------------------------------- fault tolerance

N_BLOCKS = 30
BLOCK = 10_000


def _slow_block(index: int, rater: int, delay: float = 0.05) -> np.ndarray:
    """Block ``index`` of rater 0 or 1, deterministic, and slow enough to be interrupted."""
    time.sleep(delay)
    rng = np.random.default_rng([2024, index])
    a = rng.integers(0, 5, BLOCK)
    b = np.clip(a + rng.integers(-1, 2, BLOCK), 0, 4)
    return a if rater == 0 else b


def test_frame_group_bys_log_no_shuffle_lines(client):
    """The frames' group-bys do not use distributed's peer-to-peer shuffle, whose scheduler
    logs "Shuffle ... initialized" warnings to the caller's stderr; the caller's own shuffle
    setting is left as it was."""
    import logging

    import dask

    rng = np.random.default_rng(4)
    a = rng.integers(0, 4, 20_000)
    columns = {"a": a, "b": np.clip(a + rng.integers(-1, 2, 20_000), 0, 3)}
    columns.update(c=rng.integers(0, 4, 20_000), g=rng.integers(0, 5, 20_000))
    df = dd.from_pandas(pd.DataFrame(columns), npartitions=4)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("distributed.shuffle")
    logger.addHandler(handler)
    before = dask.config.get("dataframe.shuffle.method", None)
    try:
        found = frames.agreement(df, raters=["a", "b", "c"], by="g")
    finally:
        logger.removeHandler(handler)
    assert sorted(found) == [0, 1, 2, 3, 4]
    assert [record.getMessage() for record in records] == []
    assert dask.config.get("dataframe.shuffle.method", None) == before


def _slow_arrays():
    import dask

    make = dask.delayed(_slow_block, pure=True)
    parts = [
        [da.from_delayed(make(i, r), shape=(BLOCK,), dtype=np.int64) for i in range(N_BLOCKS)]
        for r in (0, 1)
    ]
    return da.concatenate(parts[0]), da.concatenate(parts[1])


def _kappa_part(block: tuple[np.ndarray, np.ndarray]) -> wk.KappaAccumulator:
    return wk.KappaAccumulator(min_rating=1, max_rating=6).update(*block)


def _icc_part(rows: np.ndarray) -> wk.ICCAccumulator:
    return wk.ICCAccumulator().update(rows)


def test_accumulators_counted_in_worker_processes_and_summed(client):
    """The streaming states travel between processes (pickled by Dask): each worker counts
    its blocks, sum() merges the states on a worker, and the result is the whole data's."""
    a, b = _ratings(12_000, seed=7)
    blocks = [(a[i : i + 1_500], b[i : i + 1_500]) for i in range(0, len(a), 1_500)]
    total = client.submit(sum, client.map(_kappa_part, blocks)).result()
    assert np.array_equal(total.table, wk.confusion_table(a, b, min_rating=1, max_rating=6))
    assert total.value == wk.weighted_kappa(a, b)
    assert total.result().standard_error == wk.kappa_test(a, b).standard_error

    rng = np.random.default_rng(8)
    ratings = rng.normal(size=(600, 4)) + rng.normal(size=(600, 1)) * 2 + 1e6
    parts = client.map(_icc_part, [ratings[i : i + 75] for i in range(0, 600, 75)])
    state = client.submit(sum, parts).result()
    for form in ("A,1", "C,k"):
        expected = wk.icc(ratings, form=form)
        assert state.result(form=form).statistic == pytest.approx(expected.statistic, rel=1e-12)


@pytest.mark.slow
def test_killing_a_worker_mid_computation_still_gives_the_exact_result(client, record_property):
    a = np.concatenate([_slow_block(i, 0, delay=0) for i in range(N_BLOCKS)])
    b = np.concatenate([_slow_block(i, 1, delay=0) for i in range(N_BLOCKS)])
    expected = wk.weighted_kappa(a, b, weights="linear", min_rating=0, max_rating=4)
    options = {"weights": "linear", "min_rating": 0, "max_rating": 4}

    assert wk.weighted_kappa(*_slow_arrays(), **options) == expected  # warms the workers
    start = time.perf_counter()
    assert wk.weighted_kappa(*_slow_arrays(), **options) == expected
    baseline = time.perf_counter() - start  # a warm run: the one below is no faster

    pids = client.run(os.getpid)
    victim_address, victim_pid = sorted(pids.items())[0]
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(wk.weighted_kappa(*_slow_arrays(), **options))
        except BaseException as exc:  # pragma: no cover - reported below
            outcome.append(exc)

    thread = threading.Thread(target=run)
    start = time.perf_counter()
    thread.start()
    time.sleep(baseline * 0.4)  # well inside the computation
    assert thread.is_alive()
    os.kill(victim_pid, signal.SIGKILL)
    killed_at = time.perf_counter()
    thread.join(timeout=120)
    done = time.perf_counter()
    assert not thread.is_alive()
    assert outcome == [expected]  # exact: the lost tasks were recomputed

    recovery = done - killed_at
    slowdown = (done - start) - baseline
    record_property("baseline_seconds", round(baseline, 3))
    record_property("kill_to_result_seconds", round(recovery, 3))
    record_property("extra_seconds_from_the_kill", round(slowdown, 3))
    print(
        f"\nfault test: {N_BLOCKS * 2} blocks, baseline {baseline:.2f} s; worker "
        f"{victim_address} (pid {victim_pid}) killed {killed_at - start:.2f} s in; result "
        f"{recovery:.2f} s after the kill; the kill cost {slowdown:+.2f} s in total"
    )
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the worker
    assert victim_pid not in client.run(os.getpid).values()
