"""The cost of exact weight sums: ``frames.confusion_table(df, ..., sample_weight=...)`` on a
1e6-row frame on every engine, this checkout against an earlier one.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_frames_weight_sums.py --before DIR``
where ``DIR`` is the ``src`` directory of the earlier code (for example
``git archive <commit> src | tar -x -C /tmp/before``, then ``--before /tmp/before/src``).

Each engine's frame (pandas, polars eager and lazy, pyarrow, DuckDB, Dask with 4 partitions on
its threaded scheduler, PySpark on ``local[2]``, cached) is built once per child process and
counted ``--reps`` times after one warm-up call; the children alternate between the two
versions (``--rounds`` each) and the medians of their medians are printed with the ratio
after / before. Without ``--before`` only this checkout is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ENGINES = ["pandas", "polars", "polars-lazy", "pyarrow", "duckdb", "dask", "spark"]
HERE = Path(__file__).resolve()


def _columns(rows: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 6, rows)
    return {
        "a": a,
        "b": np.clip(a + rng.integers(-1, 2, rows), 0, 5),
        "w": rng.random(rows) * 10.0 ** rng.uniform(-3, 3, rows),
    }


def _frames(rows: int, engines: list[str]) -> dict[str, Any]:
    import pandas as pd
    import pyarrow as pa

    columns = _columns(rows)
    table = pa.table(columns)
    built: dict[str, Any] = {}
    for engine in engines:
        if engine == "pandas":
            built[engine] = pd.DataFrame(columns)
        elif engine in ("polars", "polars-lazy"):
            import polars as pl

            frame = pl.DataFrame(columns)
            built[engine] = frame.lazy() if engine == "polars-lazy" else frame
        elif engine == "pyarrow":
            built[engine] = table
        elif engine == "duckdb":
            import duckdb

            built[engine] = duckdb.connect().from_arrow(table)
        elif engine == "dask":
            import dask.dataframe as dd

            built[engine] = dd.from_pandas(pd.DataFrame(columns), npartitions=4).persist()
        elif engine == "spark":
            from pyspark.sql import SparkSession

            session = (
                SparkSession.builder.master("local[2]")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.execution.arrow.pyspark.enabled", "true")
                .getOrCreate()
            )
            session.sparkContext.setLogLevel("ERROR")
            frame = session.createDataFrame(table).repartition(4).cache()
            frame.count()
            built[engine] = frame
    return built


def _child(rows: int, reps: int, engines: list[str]) -> None:
    warnings.simplefilter("ignore", FutureWarning)
    from wkappa import frames

    results: dict[str, float] = {}
    for engine, frame in _frames(rows, engines).items():

        def call(frame: Any = frame) -> object:
            return frames.confusion_table(frame, y_true="a", y_pred="b", sample_weight="w")

        results[engine] = _median(call, reps)
    print(json.dumps(results))


def _median(call: Callable[[], object], reps: int) -> float:
    call()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _run(src: str, rows: int, reps: int, engines: list[str]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src}
    command = [sys.executable, str(HERE), "--child", "--rows", str(rows), "--reps", str(reps)]
    out = subprocess.run(
        [*command, "--engines", ",".join(engines)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    last: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the src directory of the code to compare with")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    engines = args.engines.split(",")
    if args.child:
        _child(args.rows, args.reps, engines)
        return
    after_src = str(HERE.parent.parent / "src")
    versions = (
        {"after": after_src}
        if args.before is None
        else {
            "before": args.before,
            "after": after_src,
        }
    )
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in versions}
    for _ in range(args.rounds):
        for name, src in versions.items():
            runs[name].append(_run(src, args.rows, args.reps, engines))
    medians = {
        name: {e: statistics.median(run[e] for run in found) for e in engines}
        for name, found in runs.items()
    }
    print(f"frames.confusion_table with sample_weight, {args.rows:,} rows, K = 6 (ms)")
    header = "| engine | " + " | ".join(versions) + (" | after / before |" if args.before else " |")
    print(header)
    print("|---" * (len(versions) + 1 + bool(args.before)) + "|")
    for engine in engines:
        cells = [f"{medians[name][engine] * 1e3:.1f}" for name in versions]
        if args.before:
            ratio = medians["after"][engine] / medians["before"][engine]
            cells.append(f"{ratio:.2f}x")
        print(f"| {engine} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
