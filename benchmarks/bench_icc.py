"""Intraclass correlations: wkappa.icc_all side by side with pingouin.intraclass_corr.

In one process, on the same simulated ratings (targets x raters, normal target and rater
effects plus noise, float64). Both compute all six forms with their F tests and 95% intervals:

* wkappa: ``wk.icc_all(x)`` on the (n, k) array, then ``confidence_interval()`` of each form
  (the F-quantile cache cleared before each call); the first call of a process also loads
  numba and is not timed (the warm-up);
* pingouin: ``pg.intraclass_corr(long, "target", "rater", "score")`` on the long-format frame
  it needs (built once, outside the timing; pingouin's own reshaping inside its call is timed).

Interleaved rounds: each round times wkappa's call ``--per-round`` times (5) and pingouin's
once, so a busy spell of the shared machine hits both. Each call is timed twice over: wall
clock (``perf_counter``) and the process's CPU time (``process_time``, which leaves out the
time spent waiting for a core: on a machine busier than its cores, a millisecond-long call is
often descheduled mid-way while a second-long one is slowed in proportion). Printed: medians
(and fastest runs) of both and the ratios pingouin / wkappa of the medians, with the load
average before and after.

Then the features axis: ``wk.icc(x, form="C,1")`` on (30, 2, 10,000) features against a loop
of one call per feature (pingouin has no batch form; its per-feature time is extrapolated from
a few calls).

Usage::

    python benchmarks/bench_icc.py            # 60,000 x 2 and 100,000 x 5, and the batch
    python benchmarks/bench_icc.py --quick    # 10,000 x 2 and 10,000 x 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wkappa as wk
from wkappa._core import f_distribution


def ratings(n: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return 10 + rng.normal(size=(n, 1)) * 2 + rng.normal(size=(1, k)) + rng.normal(size=(n, k))


def wkappa_all(x: np.ndarray) -> None:
    # F quantiles are cached by (p, df1, df2) within a process; every repetition starts cold.
    f_distribution._ppf_scalar.cache_clear()
    for result in wk.icc_all(x).values():
        result.confidence_interval()


def clocked(function: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - wall, time.process_time() - cpu


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (7)")
    parser.add_argument("--per-round", type=int, default=5, help="wkappa calls per round (5)")
    args = parser.parse_args()
    import pandas as pd
    import pingouin as pg

    print(f"pingouin {pg.__version__}, pandas {pd.__version__}, numpy {np.__version__}")
    print(f"load average (1, 5, 15 min) at the start: {load()}")
    sizes = [(10_000, 2), (10_000, 5)] if args.quick else [(60_000, 2), (100_000, 5)]
    for n, k in sizes:
        x = ratings(n, k)
        long = pd.DataFrame(x).rename_axis("target").reset_index()
        long = long.melt(id_vars="target", var_name="rater", value_name="score")

        def peer(frame: pd.DataFrame = long) -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pg.intraclass_corr(frame, targets="target", raters="rater", ratings="score")

        # Same numbers first.
        ours = wk.icc_all(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = pg.intraclass_corr(long, targets="target", raters="rater", ratings="score")
        for form, value in zip(ours, theirs["ICC"], strict=True):
            assert abs(ours[form].statistic - value) < 1e-9, (form, value)
        runs: dict[str, list[tuple[float, float]]] = {"wkappa": [], "pingouin": []}
        wkappa_all(x)
        peer()
        for _ in range(args.rounds):
            for _ in range(args.per_round):
                runs["wkappa"].append(clocked(lambda x=x: wkappa_all(x)))
            runs["pingouin"].append(clocked(peer))
        for clock, index in (("wall", 0), ("CPU", 1)):
            median = {name: statistics.median(v[index] for v in runs[name]) for name in runs}
            fastest = {name: min(v[index] for v in runs[name]) for name in runs}
            print(
                f"{n:>7,} x {k} {clock:>4}: wkappa {median['wkappa'] * 1e3:7.2f} ms (fastest "
                f"{fastest['wkappa'] * 1e3:.2f})   pingouin {median['pingouin'] * 1e3:8.1f} ms "
                f"(fastest {fastest['pingouin'] * 1e3:.1f})   pingouin / wkappa = "
                f"{median['pingouin'] / median['wkappa']:,.0f}x on medians, "
                f"{fastest['pingouin'] / fastest['wkappa']:,.0f}x on the fastest runs"
            )

    n_features = 10_000
    stack = ratings(30, 2 * n_features).reshape(30, 2, n_features)
    wk.icc(stack, form="C,1")
    start = time.perf_counter()
    batch = wk.icc(stack, form="C,1")
    batch_time = time.perf_counter() - start
    start = time.perf_counter()
    batch.confidence_interval()
    ci_time = time.perf_counter() - start
    start = time.perf_counter()
    for f in range(200):
        wk.icc(stack[:, :, f], form="C,1")
    loop_time = (time.perf_counter() - start) / 200 * n_features
    long = pd.DataFrame(stack[:, :, 0]).rename_axis("target").reset_index()
    long = long.melt(id_vars="target", var_name="rater", value_name="score")
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(5):
            pg.intraclass_corr(long, targets="target", raters="rater", ratings="score")
    peer_time = (time.perf_counter() - start) / 5 * n_features
    print(
        f"{n_features:,} features of 30 x 2: wkappa batch {batch_time * 1e3:.1f} ms "
        f"(+ {ci_time * 1e3:.1f} ms for every interval), one call per feature "
        f"{loop_time:.2f} s, pingouin one call per feature ~{peer_time:.0f} s (extrapolated)"
    )
    print(f"load average (1, 5, 15 min) at the end: {load()}")


if __name__ == "__main__":
    main()
