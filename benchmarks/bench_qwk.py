"""QWK and table kernels: wkappa side by side with its peers (``make bench``).

In one process, on the same arrays, interleaved (every repetition times each implementation
once, in turn), medians of the repetitions, printed as times and as ratios to wkappa. Peers:
scikit-learn ``cohen_kappa_score``, the seed notes' numpy function (afajohn) and numba function
(CPMP's ``qwk3``), a numpy ``bincount`` reference, torchmetrics' functional ``cohen_kappa`` (if
installed) and the memory-read floor ``a.sum() + b.sum()``. Then the goals of the performance
issue, each measured and marked met or not met, the first-call compile time and the import
time.

Usage::

    python benchmarks/bench_qwk.py            # the full grid (n up to 5e7; several minutes)
    python benchmarks/bench_qwk.py --quick    # n in {1e4, 1e6}, a smoke run
    python benchmarks/bench_qwk.py --shared   # in a shared process (below), ~2 minutes

``--shared`` measures wkappa the way a user meets it: one process that also runs
scikit-learn, numpy (a BLAS matrix product, whose worker threads spin afterwards) and a numba
``prange`` kernel of the user's own, round after round, with the OpenMP wait policy left at
its default (the other modes make idle OpenMP threads sleep). Then the same 1e7 QWK while
another process runs a busy loop (the automatic choice against the serial and the parallel
kernel, each timed call after an untimed serial pass), then n = 1e4 interleaved the same way,
and a cold-cache mode at n = 1e4:
before every timed call a 64 MB buffer is rewritten and scikit-learn runs once, as after a
boosting round or a batch of predictions.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

# torch and numba each keep an OpenMP thread pool whose idle threads spin for a while after a
# parallel region; interleaving the two on 2 cores would then time one pool's spinning against
# the other's work. Passive waiting makes idle threads sleep at once (set before the imports).
# The shared-process mode keeps the default policy: that is what a user's process runs with.
if "--shared" not in sys.argv:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _peers
import wkappa as wk
from _timing import interleaved, timed
from wkappa._core import fused as _fastpath

# Peers too slow to repeat at full count on big inputs: fewer runs (or none) above these sizes.
SLOW_PEERS = {"sklearn", "afajohn", "torchmetrics"}


def data(n: int, k: int, dtype: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, k - 1)  # correlated, every class used
    return a.astype(dtype), b.astype(dtype)


def peers(
    a: np.ndarray, b: np.ndarray, k: int, weights: str, n: int, big: int
) -> dict[str, Callable[[], Any]]:
    calls: dict[str, Callable[[], Any]] = {
        "wkappa": lambda: wk.weighted_kappa(a, b, weights=weights),
        "floor": lambda: _peers.floor(a, b),
        "bincount": lambda: _peers.bincount_kappa(a, b, k, weights),
    }
    if weights == "quadratic":
        calls["qwk3"] = lambda: _peers.qwk3_cpmp(a, b, k - 1)
    if n < big:
        sk = _peers.sklearn_kappa(k, weights)
        if sk is not None:
            calls["sklearn"] = lambda: sk(a, b)
        if weights == "quadratic":
            calls["afajohn"] = lambda: _peers.quad_kappa_afajohn(a, b, k, (0, k - 1))
        tm = _peers.torchmetrics_kappa(k, weights)
        if tm is not None:
            calls["torchmetrics"] = lambda: tm(a, b)
    return calls


def check_agreement(calls: dict[str, Callable[[], Any]]) -> None:
    reference = calls["wkappa"]()
    for name, fn in calls.items():
        if name in ("floor", "wkappa"):
            continue
        value = fn()
        if abs(value - reference) > 1e-6:
            raise SystemExit(f"{name} disagrees with wkappa: {value} vs {reference}")


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:10.3f}"


COLUMNS = ["wkappa", "floor", "qwk3", "bincount", "sklearn", "afajohn", "torchmetrics"]


def grid(sizes: list[int], ks: list[int], reps: int, slow_reps: int, big: int) -> list[str]:
    header = f"| {'n':>9} | {'K':>3} | dtype | weights   | wkappa ms |" + "".join(
        f" {c} x |" for c in COLUMNS[1:]
    )
    lines = [header, "|" + "---|" * (5 + len(COLUMNS) - 1)]
    print(header, flush=True)
    for n in sizes:
        for k in ks:
            for dtype in ("int8", "int64"):
                a, b = data(n, k, dtype)
                for weights in ("quadratic", "linear"):
                    calls = peers(a, b, k, weights, n, big)
                    check_agreement(calls)
                    slow_count = slow_reps if n >= 10**7 else reps
                    med = interleaved(
                        calls, reps, warm_up=True, slow=SLOW_PEERS, slow_repeats=slow_count
                    )
                    ratios = "".join(
                        f" {med[c] / med['wkappa']:>8.2f} |" if c in med else "        - |"
                        for c in COLUMNS[1:]
                    )
                    line = (
                        f"| {n:>9.0e} | {k:>3} | {dtype:<5} | {weights:<9} |"
                        f"{fmt_ms(med['wkappa'])} |{ratios}"
                    )
                    lines.append(line)
                    print(line, flush=True)
                del a, b
    return lines


def goals(n: int, reps: int, slow_reps: int) -> list[str]:
    """Each goal row of the performance issue, measured in one interleaved group."""
    out: list[str] = []
    k = 5
    a64, b64 = data(n, k, "int64")
    a8, b8 = a64.astype(np.int8), b64.astype(np.int8)
    af, bf = a64.astype(np.float64), b64.astype(np.float64)
    w = np.random.default_rng(1).random(n)
    sk5 = _peers.sklearn_kappa(k, "quadratic")
    sk5_linear = _peers.sklearn_kappa(k, "linear")
    assert sk5 is not None and sk5_linear is not None
    import pandas as pd

    sa, sb = pd.Series(a64), pd.Series(b64)
    k100 = 100
    a100, b100 = data(n, k100, "int64", seed=2)
    sk100_linear = _peers.sklearn_kappa(k100, "linear")
    assert sk100_linear is not None

    def forced(mode: bool) -> Callable[[], Any]:
        def run() -> Any:
            _fastpath.set_parallel(mode)
            try:
                return wk.qwk(a64, b64)
            finally:
                _fastpath.set_parallel(None)

        return run

    labels = ["poor", "fair", "good", "great", "superb"]
    names = np.array(labels, dtype=object)
    sa_str, sb_str = pd.Series(names[a64 % 5]), pd.Series(names[b64 % 5])

    calls: dict[str, Callable[[], Any]] = {
        "wk int64": lambda: wk.qwk(a64, b64),
        "wk int64 serial": forced(False),
        "wk int64 parallel": forced(True),
        "wk pandas str labels": lambda: wk.qwk(sa_str, sb_str, labels=labels),
        "wk int8": lambda: wk.qwk(a8, b8),
        "wk float64": lambda: wk.qwk(af, bf),
        "wk pandas": lambda: wk.qwk(sa, sb),
        "wk weighted": lambda: wk.qwk(a64, b64, sample_weight=w),
        "wk linear K5": lambda: wk.weighted_kappa(a64, b64, weights="linear"),
        "wk linear K100": lambda: wk.weighted_kappa(a100, b100, weights="linear"),
        "floor": lambda: _peers.floor(a64, b64),
        "floor both cores": lambda: _peers.parallel_floor(a64, b64),
        "qwk3": lambda: _peers.qwk3_cpmp(a64, b64, k - 1),
        "bincount linear K5": lambda: _peers.bincount_kappa(a64, b64, k, "linear"),
        "bincount linear K100": lambda: _peers.bincount_kappa(a100, b100, k100, "linear"),
        "sklearn": lambda: sk5(a64, b64),
        "sklearn weighted": lambda: sk5(a64, b64, sample_weight=w),
        "sklearn linear K5": lambda: sk5_linear(a64, b64),
        "sklearn linear K100": lambda: sk100_linear(a100, b100),
    }
    slow = {name for name in calls if name.startswith("sklearn")}
    med = interleaved(calls, reps, warm_up=True, slow=slow, slow_repeats=slow_reps)

    small = 10_000
    s64, t64 = data(small, k, "int64")
    sk_small = _peers.sklearn_kappa(k, "quadratic")
    assert sk_small is not None
    small_calls: dict[str, Callable[[], Any]] = {
        "wk": lambda: wk.qwk(s64, t64),
        "sklearn": lambda: sk_small(s64, t64),
    }
    for kind in ("quadratic", "linear", "unweighted"):
        small_calls[f"wk {kind}"] = lambda kind=kind: wk.weighted_kappa(s64, t64, weights=kind)
        small_calls[f"bincount {kind}"] = lambda kind=kind: _peers.bincount_kappa(s64, t64, k, kind)
    med_small = interleaved(small_calls, max(reps, 50), warm_up=True)
    for name, value in sorted(med.items()):
        out.append(f"    {name:<22} {value * 1e3:9.2f} ms")
    out.append(f"    {'wk n=1e4':<22} {med_small['wk'] * 1e6:9.1f} us")
    out.append(f"    {'sklearn n=1e4':<22} {med_small['sklearn'] * 1e6:9.1f} us")
    rows = [
        ("QWK int64 K=5: sklearn / wkappa", med["sklearn"] / med["wk int64"], ">=", 150),
        ("QWK int64 K=5: qwk3 / wkappa", med["qwk3"] / med["wk int64"], ">=", 3),
        ("QWK int64 K=5: wkappa / floor", med["wk int64"] / med["floor"], "<=", 0.8),
        ("QWK int8 / QWK int64", med["wk int8"] / med["wk int64"], "<=", 0.5),
        ("QWK n=1e4: sklearn / wkappa", med_small["sklearn"] / med_small["wk"], ">=", 100),
        *(
            (
                f"{kind} n=1e4: bincount recipe / wkappa",
                med_small[f"bincount {kind}"] / med_small[f"wk {kind}"],
                ">=",
                1,
            )
            for kind in ("quadratic", "linear", "unweighted")
        ),
        (
            "linear K=5: bincount / wkappa",
            med["bincount linear K5"] / med["wk linear K5"],
            ">=",
            2,
        ),
        (
            "linear K=100: bincount / wkappa",
            med["bincount linear K100"] / med["wk linear K100"],
            ">=",
            2,
        ),
        ("linear K=5: sklearn / wkappa", med["sklearn linear K5"] / med["wk linear K5"], ">=", 50),
        (
            "linear K=100: sklearn / wkappa",
            med["sklearn linear K100"] / med["wk linear K100"],
            ">=",
            50,
        ),
        ("QWK float64 / QWK int64", med["wk float64"] / med["wk int64"], "<=", 1.5),
        ("weighted: sklearn / wkappa", med["sklearn weighted"] / med["wk weighted"], ">=", 50),
        ("pandas Series / numpy", med["wk pandas"] / med["wk int64"], "<=", 1.2),
        ("QWK int64 K=5 serial / floor", med["wk int64 serial"] / med["floor"], "(info)", 0),
        ("QWK int64 K=5 parallel / floor", med["wk int64 parallel"] / med["floor"], "(info)", 0),
        (
            "QWK int64 K=5: wkappa / floor both cores",
            med["wk int64"] / med["floor both cores"],
            "(info)",
            0,
        ),
        (
            "qwk3 / floor both cores (the most any reader of the input can reach)",
            med["qwk3"] / med["floor both cores"],
            "(info)",
            0,
        ),
        (
            "pandas strings + labels / int64",
            med["wk pandas str labels"] / med["wk int64"],
            "(info)",
            0,
        ),
    ]
    out.append("")
    out.append(f"| goal (n = {n:.0e} unless said) | measured | goal | met |")
    out.append("|---|---|---|---|")
    for label, value, op, target in rows:
        if op == "(info)":
            out.append(f"| {label} | {value:.2f} | | |")
            continue
        met = value >= target if op == ">=" else value <= target
        out.append(f"| {label} | {value:.2f} | {op} {target} | {'yes' if met else 'NO'} |")
    return out


def _ratio_rows(rows: list[tuple[str, float, str, float]]) -> list[str]:
    out = ["| goal | measured | goal | met |", "|---|---|---|---|"]
    for label, value, op, target in rows:
        if op == "(info)":
            out.append(f"| {label} | {value:.2f} | | |")
            continue
        met = value >= target if op == ">=" else value <= target
        out.append(f"| {label} | {value:.2f} | {op} {target} | {'yes' if met else 'NO'} |")
    return out


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def shared(reps: int) -> list[str]:
    """The goal rows in one process shared with scikit-learn, numpy's BLAS and a prange
    kernel of the user's own, interleaved round by round (medians of ``reps`` rounds)."""
    n, k = 10_000_000, 5
    a64, b64 = data(n, k, "int64")
    a8, b8 = a64.astype(np.int8), b64.astype(np.int8)
    sk = _peers.sklearn_kappa(k, "quadratic")
    assert sk is not None
    rng = np.random.default_rng(3)
    m1, m2 = rng.random((600, 600)), rng.random((600, 600))

    def forced(mode: bool) -> Callable[[], Any]:
        def run() -> Any:
            _fastpath.set_parallel(mode)
            try:
                return wk.qwk(a64, b64)
            finally:
                _fastpath.set_parallel(None)

        return run

    calls: dict[str, Callable[[], Any]] = {
        "sklearn": lambda: sk(a64, b64),
        "wkappa": lambda: wk.qwk(a64, b64),
        "numpy matmul": lambda: m1 @ m2,
        "wkappa int8": lambda: wk.qwk(a8, b8),
        "prange read": lambda: _peers.parallel_floor(a64, b64),
        "wkappa linear": lambda: wk.weighted_kappa(a64, b64, weights="linear"),
        "qwk3": lambda: _peers.qwk3_cpmp(a64, b64, k - 1),
        "bincount linear": lambda: _peers.bincount_kappa(a64, b64, k, "linear"),
        "wkappa serial": forced(False),
    }
    out = [f"shared process, n = 1e7 (load before: {_load()})"]
    med = interleaved(calls, reps, warm_up=True)
    for name, value in med.items():
        out.append(f"    {name:<22} {value * 1e3:9.2f} ms")
    out.append(f"load after: {_load()}")
    out += _ratio_rows(
        [
            ("QWK 1e7 int64 K=5 / prange read of both arrays", med["wkappa"] / med["prange read"],
             "<=", 1.25),
            ("qwk3 / wkappa, 1e7", med["qwk3"] / med["wkappa"], ">=", 2),
            ("sklearn / wkappa, 1e7", med["sklearn"] / med["wkappa"], ">=", 150),
            ("int8 / int64, 1e7", med["wkappa int8"] / med["wkappa"], "<=", 0.5),
            ("linear 1e7, bincount recipe / wkappa",
             med["bincount linear"] / med["wkappa linear"], ">=", 2),
            ("QWK automatic / forced serial", med["wkappa"] / med["wkappa serial"], "(info)", 0),
        ]
    )  # fmt: skip

    # The decision itself, sampled right after each neighbour ran: the machine's runnable
    # tasks with and without this process's own (spinning) threads subtracted.
    limit = (os.cpu_count() or 1) / 2
    samples = []
    neighbours = ["numpy matmul", "prange read", "qwk3", "wkappa", "wkappa int8"]
    for _ in range(max(reps, 10)):
        for name in neighbours:
            calls[name]()
            running, own = _fastpath._machine_running(), _fastpath._own_running()
            if running is not None and own is not None:
                samples.append((running, own))
    if samples:
        spinning = sum(own > 1 for _, own in samples) / len(samples)
        old_rule = sum(running - 1 < limit for running, _ in samples) / len(samples)
        new_rule = sum(running - max(own, 1) < limit for running, own in samples) / len(samples)
        out.append(
            f"right after a neighbour ran ({len(samples)} samples): own threads still running "
            f"{spinning:.0%}; parallel chosen by the machine count alone {old_rule:.0%}, "
            f"by the count less this process's running threads {new_rule:.0%}"
        )

    # Another process holds a core: a busy loop for the length of the measurement.
    import subprocess

    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)
        contest = {
            "wkappa": calls["wkappa"],
            "wkappa serial": forced(False),
            "wkappa parallel": forced(True),
        }
        out.append(f"another process runs a busy loop (load before: {_load()})")
        med_busy = _after(contest["wkappa serial"], contest, max(reps, 15))
    finally:
        busy.kill()
        busy.wait()
    for name, value in med_busy.items():
        out.append(f"    {name:<22} {value * 1e3:9.2f} ms")
    out += _ratio_rows(
        [
            ("busy loop: QWK automatic / forced serial",
             med_busy["wkappa"] / med_busy["wkappa serial"], "<=", 1.1),
            ("busy loop: forced parallel / forced serial",
             med_busy["wkappa parallel"] / med_busy["wkappa serial"], "(info)", 0),
        ]
    )  # fmt: skip
    return out


def shared_small(reps: int) -> list[str]:
    """The n = 1e4 goal rows in the shared process: wkappa, scikit-learn, ``qwk3`` and the
    bincount recipe interleaved round by round with numpy's BLAS and a ``prange`` read of
    1e7 pairs (so each call finds the caches as the neighbours left them; the cold-cache
    mode below evicts them on purpose)."""
    n, k = 10_000, 5
    a, b = data(n, k, "int64")
    big_a, big_b = data(10_000_000, k, "int64", seed=5)
    sk = _peers.sklearn_kappa(k, "quadratic")
    assert sk is not None
    rng = np.random.default_rng(4)
    m1, m2 = rng.random((600, 600)), rng.random((600, 600))
    calls: dict[str, Callable[[], Any]] = {
        "wkappa": lambda: wk.qwk(a, b),
        "numpy matmul": lambda: m1 @ m2,
        "sklearn": lambda: sk(a, b),
        "prange read of 1e7": lambda: _peers.parallel_floor(big_a, big_b),
        "qwk3": lambda: _peers.qwk3_cpmp(a, b, k - 1),
        "wkappa linear": lambda: wk.weighted_kappa(a, b, weights="linear"),
        "bincount linear": lambda: _peers.bincount_kappa(a, b, k, "linear"),
    }
    heading = f"shared process, n = 1e4 (load before: {_load()})"
    return _small_rows(heading, "shared", interleaved(calls, reps, warm_up=True))


def _small_rows(heading: str, mode: str, med: dict[str, float]) -> list[str]:
    """The n = 1e4 times in microseconds and the goal rows of one mode."""
    out = [heading]
    for name, value in med.items():
        out.append(f"    {name:<32} {value * 1e6:9.1f} us")
    out += _ratio_rows(
        [
            (f"{mode} 1e4: sklearn / wkappa", med["sklearn"] / med["wkappa"], ">=", 100),
            (f"{mode} 1e4: bincount recipe / wkappa, linear",
             med["bincount linear"] / med["wkappa linear"], ">=", 1),
            (f"{mode} 1e4: qwk3 / wkappa", med["qwk3"] / med["wkappa"], "(info)", 0),
        ]
    )  # fmt: skip
    return out


def _after(
    before: Callable[[], Any], calls: dict[str, Callable[[], Any]], repeats: int
) -> dict[str, float]:
    """Median seconds per call over ``repeats`` rounds, each timed call right after an
    untimed ``before``: a call that follows a parallel pass shares the cores with its workers
    while they still spin, and a rotation of three puts one contender after the forced
    parallel pass twice as often as another; after one and the same neighbour every contender
    starts from the same state."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            before()
            times[name].append(timed(call))
    return {name: statistics.median(values) for name, values in times.items()}


def cold(reps: int) -> list[str]:
    """n = 1e4 with cold caches: before each timed call a 64 MB buffer is rewritten and
    scikit-learn runs once (neither timed)."""
    n, k = 10_000, 5
    a, b = data(n, k, "int64")
    sk = _peers.sklearn_kappa(k, "quadratic")
    assert sk is not None
    buffer = np.zeros(8_000_000)
    other_a, other_b = data(n, k, "int64", seed=9)

    def evict() -> None:
        buffer[:] += 1.0
        sk(other_a, other_b)

    calls: dict[str, Callable[[], Any]] = {
        "wkappa": lambda: wk.qwk(a, b),
        "sklearn": lambda: sk(a, b),
        "qwk3": lambda: _peers.qwk3_cpmp(a, b, k - 1),
        "wkappa linear": lambda: wk.weighted_kappa(a, b, weights="linear"),
        "bincount linear": lambda: _peers.bincount_kappa(a, b, k, "linear"),
        "wkappa quadratic table weights": lambda: wk.weighted_kappa(a, b, weights="quadratic"),
    }
    for function in calls.values():
        function()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(reps):
        for name, function in calls.items():
            evict()
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    med = {name: statistics.median(values) for name, values in times.items()}
    return _small_rows(f"cold caches, n = 1e4 (load {_load()})", "cold", med)


def _run(code: str, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return time.perf_counter() - start


def startup(reps: int = 7) -> list[str]:
    """Import time of wkappa against numpy's, and the first-call compile time.

    Both packages are timed with their bytecode compiled, as ``pip install`` leaves them:
    numpy's wheel install wrote its ``.pyc`` files, while an editable checkout under
    ``PYTHONDONTWRITEBYTECODE=1`` (this machine's setting) would recompile wkappa's sources on
    every import.
    """
    compileall.compile_dir(os.path.dirname(wk.__file__), quiet=1)
    out = []
    samples_np, samples_wk = [], []
    for _ in range(reps):  # interleaved, fresh interpreters
        samples_np.append(_run("import numpy"))
        samples_wk.append(_run("import wkappa"))
    t_np, t_wk = statistics.median(samples_np), statistics.median(samples_wk)
    met = "yes" if t_wk <= t_np + 0.050 else "NO"
    out.append(
        f"| python -c 'import wkappa' vs 'import numpy' | {t_wk * 1e3:.0f} ms vs "
        f"{t_np * 1e3:.0f} ms (+{(t_wk - t_np) * 1e3:.0f} ms) | <= numpy + 50 ms | {met} |"
    )
    first_call = (
        "import time, numpy as np; import wkappa as wk\n"
        "small = np.arange(10_000) % 5\n"
        "big = np.arange(300_000) % 5\n"
        "t0 = time.perf_counter(); wk.qwk(small, small[::-1].copy()); t1 = time.perf_counter()\n"
        "from wkappa._core import fused as _fastpath; _fastpath.set_parallel(True)\n"
        "t1 = time.perf_counter(); wk.qwk(big, big[::-1].copy()); t2 = time.perf_counter()\n"
        "wk.weighted_kappa(big, big[::-1].copy(), weights='linear'); t3 = time.perf_counter()\n"
        "print(f'{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f}')\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold (compile)", "warm (cache=True)"):
            result = subprocess.run(
                [sys.executable, "-c", first_call], check=True, env=env, capture_output=True,
                text=True,
            )  # fmt: skip
            serial, parallel, table = (float(x) for x in result.stdout.split())
            out.append(
                f"| first call, {label}: QWK int64 n=1e4 serial (incl. import numba) / n=3e5 "
                f"parallel / linear table | {serial:.2f} s / {parallel:.2f} s / {table:.2f} s | | |"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    parser.add_argument("--reps", type=int, default=5, help="repetitions per case (median)")
    parser.add_argument("--goals-only", action="store_true", help="skip the grid")
    parser.add_argument(
        "--shared", action="store_true", help="in a shared process and with cold caches only"
    )
    args = parser.parse_args()
    sizes = [10_000, 1_000_000] if args.quick else [10_000, 1_000_000, 10_000_000, 50_000_000]
    goal_n = 1_000_000 if args.quick else 10_000_000
    big = 50_000_000  # sklearn, afajohn and torchmetrics are skipped at this size
    print(f"# bench_qwk: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(
        f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}, numba threads {_numba_threads()}, "
        f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '-')}, "
        f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"# command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(
        f"# medians of {args.reps} interleaved runs (sklearn/afajohn/torchmetrics: 3 runs at "
        "n = 1e7, skipped at 5e7); ratios are peer time / wkappa time, floor = a.sum()+b.sum()"
    )
    if args.shared:
        small_reps = max(args.reps * 20, 200)
        for line in [*shared(args.reps), "", *shared_small(small_reps), "", *cold(small_reps)]:
            print(line, flush=True)
        return
    if not args.goals_only:
        grid(sizes, [5, 10, 100], args.reps, 3, big)
    print()
    for line in goals(goal_n, max(args.reps, 5), 3):
        print(line, flush=True)
    for line in startup():
        print(line, flush=True)


def _numba_threads() -> int:
    import numba

    return int(numba.get_num_threads())


if __name__ == "__main__":
    main()
