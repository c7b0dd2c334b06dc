"""Data frames and Dask: wkappa.frames against the engines' own group-by and the numpy path.

Run: ``.venv/bin/python benchmarks/bench_frames.py`` (part of ``make bench``).

1. A 50-million-row Parquet file (two int64 rating columns, generated once under
   ``benchmarks/_data/``, git-ignored) through polars' lazy engine:
   ``frames.weighted_kappa(pl.scan_parquet(path), ...)`` against polars' own
   ``pl.scan_parquet(path).group_by([...]).len().collect()``. Each run is a fresh subprocess
   (interleaved, medians) that reports its wall time and its peak RSS (``ru_maxrss``).
   Goals: time ratio <= 1.5, peak RSS <= 1 GB.
2. pandas at 1e7 rows: ``frames.weighted_kappa(df, ...)`` against ``wk.qwk`` on the numpy
   columns (goal <= 1.5x).
3. ``kappa_by_group`` with 1,000 groups over 1e7 rows against one ungrouped call on the same
   frame (goal <= 3x), on a polars LazyFrame and on a pandas DataFrame.
4. Throughput of ``wk.qwk`` on Dask arrays and of ``frames.weighted_kappa`` on a Dask
   DataFrame read from the Parquet file, on a two-worker ``LocalCluster`` (one thread each),
   with a single-process numpy run for scale.

Set ``WKAPPA_BENCH_ROWS`` to use a smaller Parquet file (for a quick check); ``--only groups``
(or ``parquet``, ``pandas``, ``dask``) runs one section.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from _timing import interleaved, timed

HERE = Path(__file__).resolve().parent
DATA = HERE / "_data"
ROWS = int(os.environ.get("WKAPPA_BENCH_ROWS", 50_000_000))
K = 6


def _ratings(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, K, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, K - 1)
    return a, b


# --------------------------------------------------------------------------- 1. Parquet


def parquet_file(rows: int) -> Path:
    """The benchmark Parquet file, written once in 5e6-row groups (never committed)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    DATA.mkdir(exist_ok=True)
    path = DATA / f"ratings_{rows}.parquet"
    if path.exists():
        return path
    step = 5_000_000
    schema = pa.schema([("grade", pa.int64()), ("model", pa.int64()), ("prompt", pa.int64())])
    tmp = path.with_suffix(".tmp")
    with pq.ParquetWriter(tmp, schema) as writer:
        for i, start in enumerate(range(0, rows, step)):
            size = min(step, rows - start)
            a, b = _ratings(size, seed=i)
            prompt = np.random.default_rng(1000 + i).integers(0, 1000, size)
            writer.write_table(pa.table({"grade": a, "model": b, "prompt": prompt}, schema=schema))
    tmp.rename(path)
    return path


def _child(task: str, path: str) -> None:
    """Run one contender on the Parquet file; print its wall time and peak RSS."""
    import polars as pl

    if task == "wkappa":
        import narwhals  # noqa: F401  (a one-off import, as polars' above: not timed)

        from wkappa import frames

        def run() -> object:
            return frames.weighted_kappa(pl.scan_parquet(path), y_true="grade", y_pred="model")

    elif task == "polars":

        def run() -> object:
            return pl.scan_parquet(path).group_by(["grade", "model"]).len().collect()

    else:

        def run() -> object:
            lazy = pl.scan_parquet(path).group_by(["grade", "model"]).len()
            return lazy.collect(engine="streaming")

    seconds = timed(run)
    print(json.dumps({"seconds": seconds, "peak_mib": _peak_rss_mib()}))


def _peak_rss_mib() -> float:
    """This process's peak resident set size.

    ``VmHWM`` from /proc, because Linux carries ``ru_maxrss`` over ``exec`` from the parent
    (this script's parent holds the generated data); elsewhere ``ru_maxrss`` it is.
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _baseline_rss() -> float:
    """Peak RSS of a child that only imports polars and wkappa.frames (the floor)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import polars, narwhals, wkappa.frames; "
        "import bench_frames; print(bench_frames._peak_rss_mib())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(HERE)], capture_output=True, text=True, check=True
    )
    return float(out.stdout)


def bench_parquet(repeats: int = 3) -> list[str]:
    path = parquet_file(ROWS)
    tasks = ["wkappa", "polars", "polars-streaming"]
    runs: dict[str, list[dict[str, float]]] = {task: [] for task in tasks}
    for _ in range(repeats):
        for task in tasks:
            out = subprocess.run(
                [sys.executable, __file__, "--child", task, str(path)],
                capture_output=True,
                text=True,
                check=True,
            )
            runs[task].append(json.loads(out.stdout.strip().splitlines()[-1]))
    seconds = {t: statistics.median(r["seconds"] for r in runs[t]) for t in tasks}
    peak = {t: max(r["peak_mib"] for r in runs[t]) for t in tasks}
    ratio = seconds["wkappa"] / seconds["polars"]
    size_mib = path.stat().st_size / 2**20
    lines = [
        f"### Parquet, {ROWS:,} rows ({size_mib:.0f} MiB file), polars lazy, "
        f"median of {repeats} fresh processes",
        "",
        "| contender | time (s) | peak RSS (MiB) |",
        "|---|---:|---:|",
        f"| `frames.weighted_kappa(pl.scan_parquet(...))` | {seconds['wkappa']:.3f} "
        f"| {peak['wkappa']:.0f} |",
        f"| polars `scan_parquet().group_by([...]).len().collect()` | {seconds['polars']:.3f} "
        f"| {peak['polars']:.0f} |",
        f"| same, `collect(engine='streaming')` | {seconds['polars-streaming']:.3f} "
        f"| {peak['polars-streaming']:.0f} |",
        "",
        f"wkappa / polars group-by: **{ratio:.2f}x** (goal <= 1.5x); wkappa peak RSS "
        f"**{peak['wkappa']:.0f} MiB** (goal <= 1024 MiB; a child that only imports polars "
        f"and wkappa.frames peaks at {_baseline_rss():.0f} MiB).",
    ]
    return lines


# --------------------------------------------------------------------------- 2. pandas


SMALL = int(os.environ.get("WKAPPA_BENCH_SMALL_ROWS", 10_000_000))


def bench_pandas(n: int = SMALL, repeats: int = 7) -> list[str]:
    import pandas as pd

    import wkappa as wk
    from wkappa import frames

    a, b = _ratings(n, seed=7)
    df = pd.DataFrame({"grade": a, "model": b})
    expected = wk.qwk(a, b)
    assert frames.weighted_kappa(df, y_true="grade", y_pred="model") == expected
    assert frames.weighted_kappa(df, y_true="grade", y_pred="model", weights="linear") == (
        wk.weighted_kappa(a, b, weights="linear")
    )
    times = interleaved(
        {
            "numpy qwk": lambda: wk.qwk(a, b),
            "frames qwk": lambda: frames.weighted_kappa(df, y_true="grade", y_pred="model"),
            "numpy linear": lambda: wk.weighted_kappa(a, b, weights="linear"),
            "frames linear": lambda: frames.weighted_kappa(
                df, y_true="grade", y_pred="model", weights="linear"
            ),
            "pandas groupby size": lambda: df.groupby(["grade", "model"]).size(),
        },
        repeats,
    )
    return [
        f"### pandas, {n:,} rows (int64 columns), median of {repeats} interleaved runs",
        "",
        "| contender | time (ms) | ratio to numpy |",
        "|---|---:|---:|",
        *(
            f"| {name} | {1e3 * t:.1f} | {t / times['numpy ' + name.split()[-1]]:.2f}x |"
            if name.startswith("frames")
            else f"| {name} | {1e3 * t:.1f} | |"
            for name, t in times.items()
        ),
        "",
        f"frames / numpy: **{times['frames qwk'] / times['numpy qwk']:.2f}x** (QWK), "
        f"**{times['frames linear'] / times['numpy linear']:.2f}x** (linear); goal <= 1.5x.",
    ]


# --------------------------------------------------------------------------- 3. by group


def bench_groups(n: int = SMALL, n_groups: int = 1000, repeats: int = 5) -> list[str]:
    import pandas as pd
    import polars as pl

    from wkappa import frames

    a, b = _ratings(n, seed=8)
    g = np.random.default_rng(9).integers(0, n_groups, n)
    eager = pl.DataFrame({"grade": a, "model": b, "prompt": g})
    lazy = eager.lazy()
    pdf = pd.DataFrame({"grade": a, "model": b, "prompt": g})
    options = {"y_true": "grade", "y_pred": "model"}
    out = frames.kappa_by_group(lazy, by="prompt", **options).collect()
    assert out.height == n_groups
    times = interleaved(
        {
            "polars lazy, ungrouped": lambda: frames.weighted_kappa(lazy, **options),
            "polars lazy, 1,000 groups": lambda: frames.kappa_by_group(
                lazy, by="prompt", **options
            ),
            "polars eager, ungrouped": lambda: frames.weighted_kappa(eager, **options),
            "polars eager, 1,000 groups": lambda: frames.kappa_by_group(
                eager, by="prompt", **options
            ),
            "pandas, ungrouped": lambda: frames.weighted_kappa(pdf, **options),
            "pandas, 1,000 groups": lambda: frames.kappa_by_group(pdf, by="prompt", **options),
            "pandas groupby([prompt, grade, model]).size()": lambda: pdf.groupby(
                ["prompt", "grade", "model"]
            ).size(),
        },
        repeats,
    )
    lazy_ratio = times["polars lazy, 1,000 groups"] / times["polars lazy, ungrouped"]
    pandas_ratio = times["pandas, 1,000 groups"] / times["pandas, ungrouped"]
    eager_ratio = times["polars eager, 1,000 groups"] / times["polars eager, ungrouped"]
    return [
        f"### kappa_by_group, {n:,} rows, {n_groups:,} groups, median of {repeats} runs",
        "",
        "| contender | time (ms) |",
        "|---|---:|",
        *(f"| {name} | {1e3 * t:.1f} |" for name, t in times.items()),
        "",
        f"grouped / ungrouped: **{lazy_ratio:.2f}x** on a polars LazyFrame (both count in the "
        f"engine; goal <= 3x), **{pandas_ratio:.2f}x** on pandas and **{eager_ratio:.2f}x** on "
        "a polars DataFrame (in memory both calls use the numba kernels: the grouped one "
        "codes the key and fills all 1,000 tables in one pass).",
    ]


# --------------------------------------------------------------------------- 4. Dask


def bench_dask(repeats: int = 3) -> list[str]:
    import dask.array as da
    import dask.dataframe as dd
    import distributed

    import wkappa as wk
    from wkappa import frames

    n = int(os.environ.get("WKAPPA_BENCH_DASK_ROWS", 50_000_000))
    chunk = max(n // 20, 1)
    lines = []
    with (
        distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        rng = da.random.default_rng(0)
        a = rng.integers(0, K, n, chunks=chunk)
        b = da.clip(a + rng.integers(-1, 2, n, chunks=chunk), 0, K - 1)
        a, b = client.persist([a, b])
        distributed.wait([a, b])
        path = parquet_file(ROWS)
        # One partition per 5e6-row group, so both workers get work.
        ddf = dd.read_parquet(path, columns=["grade", "model"], split_row_groups=True)
        local_a, local_b = _ratings(n // 10, seed=3)
        times = interleaved(
            {
                "qwk_known": lambda: wk.qwk(a, b, min_rating=0, max_rating=K - 1),
                "qwk": lambda: wk.qwk(a, b),
                "linear": lambda: wk.weighted_kappa(a, b, weights="linear"),
                "frames": lambda: frames.weighted_kappa(ddf, y_true="grade", y_pred="model"),
                "numpy": lambda: wk.qwk(local_a, local_b),
            },
            repeats,
        )
        rows = {"qwk_known": n, "qwk": n, "linear": n, "frames": ROWS, "numpy": n // 10}
        labels = {
            "qwk_known": "`wk.qwk` on persisted Dask arrays, `min_rating`/`max_rating` given "
            "(one pass)",
            "qwk": "`wk.qwk` on persisted Dask arrays (range pass + counting pass)",
            "linear": "`wk.weighted_kappa(weights='linear')`, Dask arrays (two passes)",
            "frames": "`frames.weighted_kappa` on `dd.read_parquet` (group-by in Dask)",
            "numpy": "`wk.qwk` on numpy in this process, for scale",
        }
        lines += [
            f"### Dask, two-worker LocalCluster (processes, 1 thread each), median of {repeats}",
            "",
            "| contender | rows | time (s) | throughput (M rows/s) |",
            "|---|---:|---:|---:|",
            *(
                f"| {labels[k]} | {rows[k]:,} | {t:.3f} | {rows[k] / t / 1e6:.0f} |"
                for k, t in times.items()
            ),
        ]
        del client
    return lines


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
        return 0
    sections = (bench_parquet, bench_pandas, bench_groups, bench_dask)
    if len(sys.argv) > 2 and sys.argv[1] == "--only":
        # e.g. --only groups: one section, without generating the big Parquet file
        sections = tuple(f for f in sections if f.__name__ == f"bench_{sys.argv[2]}")
    print(f"# wkappa.frames and Dask ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")
    for section in sections:
        print()
        print("\n".join(section()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
