"""The long layout (one row per item x rater x rating) against a plain pandas pivot.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_long_layout.py`` (part of ``make
bench``; 5-10 minutes on a loaded 2-core machine, more with ``--ab``).

A Parquet file of 1e6 items x 5 raters in the long layout (5e6 rows: integer item, rater and
rating; generated once under ``benchmarks/_data/``, git-ignored), read by:

* ``frames.agreement(pl.scan_parquet(path), item=, rater=, rating=)`` (polars lazy),
* ``frames.agreement(duckdb.read_parquet(path), ...)`` (a DuckDB relation on the file),
* ``frames.agreement(dd.read_parquet(path), ...)`` on a two-worker Dask ``LocalCluster``
  (processes, one thread each),
* ``frames.agreement(df, ...)`` on the file read into pandas beforehand (in memory),
* ``wkappa agree path --item item --rater rater --rating rating`` (in this process).

With ``--ab`` each lazy source is timed three ways in the same rounds: as it is
(``_frames/long_counts.read_once``: its columns copied once, unless ``rereads`` finds a plain
scan that each query reads again), always copied once (``rereads`` switched off), and never
copied (``read_once`` a pass-through: each query reads the source); a CSV file of the same
rows is added (``pl.scan_csv``, ``dd.read_csv``): a source that costs more to read than
Parquet.

The peer is what a user writes without wkappa's long layout: ``pd.read_parquet(path)`` and
``DataFrame.pivot(index=item, columns=rater, values=rating)`` (for the in-memory frame, the
pivot alone); the wide table it gives is what ``wkappa.agreement`` takes. Every contender is
timed once per round, interleaved, medians of ``--repeats`` rounds (3), as ratios to the
peer. ``--strings`` uses rater ids ``coder0``..``coder4`` and leaves 5% of the ratings
missing. ``WKAPPA_BENCH_ITEMS`` sets the number of items (a quick check).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from _timing import interleaved

HERE = Path(__file__).resolve().parent
DATA = HERE / "_data"
ITEMS = int(os.environ.get("WKAPPA_BENCH_ITEMS", 1_000_000))
RATERS = 5
LONG = {"item": "item", "rater": "rater", "rating": "rating"}
CLI_OPTIONS = ["--item", "item", "--rater", "rater", "--rating", "rating"]


def long_file(items: int, strings: bool) -> Path:
    """The long-layout Parquet file, written once (never committed)."""
    import polars as pl

    DATA.mkdir(exist_ok=True)
    path = DATA / f"long_{items}x{RATERS}{'_strings' if strings else ''}.parquet"
    if path.exists():
        return path
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 6, items)
    ratings = np.clip(truth[:, None] + rng.integers(-1, 2, (items, RATERS)), 1, 5).ravel()
    frame = pl.DataFrame(
        {
            "item": np.repeat(np.arange(items), RATERS),
            "rater": np.tile(np.arange(RATERS), items),
            "rating": ratings,
        }
    )
    if strings:
        missing = rng.random(len(ratings)) < 0.05
        frame = frame.with_columns(
            pl.format("coder{}", pl.col("rater")).alias("rater"),
            pl.when(pl.Series(missing)).then(None).otherwise(pl.col("rating")).alias("rating"),
        )
    tmp = path.with_suffix(".tmp")
    frame.write_parquet(tmp, row_group_size=1_000_000)
    tmp.rename(path)
    return path


@contextlib.contextmanager
def _each_query_reads(frame: object, columns: object, lazy: bool) -> Iterator[tuple[object, bool]]:
    """``read_once`` switched off: the frame as given, read again by every query."""
    yield frame, lazy


def _reread(call: Callable[[], object]) -> Callable[[], object]:
    """``call`` with every query of the long layout reading the source again."""
    from wkappa._frames import raters

    def run() -> object:
        once = raters.read_once
        raters.read_once = _each_query_reads  # type: ignore[assignment]
        try:
            return call()
        finally:
            raters.read_once = once

    return run


def _copied(call: Callable[[], object]) -> Callable[[], object]:
    """``call`` with the long layout's columns always copied once (no source read again)."""
    from wkappa._frames import long_counts

    def run() -> object:
        rereads = long_counts.rereads
        long_counts.rereads = lambda native: False  # type: ignore[assignment]
        try:
            return call()
        finally:
            long_counts.rereads = rereads

    return run


def _cli(path: Path) -> None:
    from wkappa._cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["agree", str(path), *CLI_OPTIONS])
    assert code == 0, code


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strings", action="store_true")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--ab", action="store_true")
    args = parser.parse_args()

    import dask.dataframe as dd
    import distributed
    import duckdb
    import pandas as pd
    import polars as pl

    from wkappa import frames

    path = long_file(ITEMS, args.strings)
    in_memory = pd.read_parquet(path)
    connection = duckdb.connect()
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# Long layout, {ITEMS:,} items x {RATERS} raters ({len(in_memory):,} rows), {stamp}")
    print(f"# load average at start: {os.getloadavg()[0]:.1f}")

    def peer_file() -> object:
        return pd.read_parquet(path).pivot(index="item", columns="rater", values="rating")

    def peer_memory() -> object:
        return in_memory.pivot(index="item", columns="rater", values="rating")

    calls = {
        "pandas read_parquet + pivot (peer)": peer_file,
        "pandas pivot of the frame in memory (peer)": peer_memory,
        "frames.agreement(pl.scan_parquet)": lambda: frames.agreement(
            pl.scan_parquet(path), **LONG
        ),
        "frames.agreement(duckdb.read_parquet)": lambda: frames.agreement(
            connection.read_parquet(str(path)), **LONG
        ),
        "frames.agreement(pandas frame in memory)": lambda: frames.agreement(in_memory, **LONG),
        "wkappa agree file.parquet --item ...": lambda: _cli(path),
    }
    csv = path.with_suffix(".csv")
    if args.ab:
        if not csv.exists():
            pl.read_parquet(path).write_csv(csv)
        calls["frames.agreement(pl.scan_csv)"] = lambda: frames.agreement(pl.scan_csv(csv), **LONG)
        for name in ("pl.scan_parquet", "pl.scan_csv", "duckdb.read_parquet"):
            key = f"frames.agreement({name})"
            calls[f"{key}, copied once"] = _copied(calls[key])
            calls[f"{key}, each query reads"] = _reread(calls[key])
    with contextlib.ExitStack() as stack:
        if not args.no_dask:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
                )
            )
            stack.enter_context(distributed.Client(cluster))
            calls["frames.agreement(dd.read_parquet), LocalCluster"] = lambda: frames.agreement(
                dd.read_parquet(path, split_row_groups=True), **LONG
            )
            if args.ab:
                calls["frames.agreement(dd.read_csv), LocalCluster"] = lambda: frames.agreement(
                    dd.read_csv(csv, blocksize="16MB"), **LONG
                )
                for name in ("dd.read_parquet", "dd.read_csv"):
                    key = f"frames.agreement({name}), LocalCluster"
                    calls[f"{key}, copied once"] = _copied(calls[key])
                    calls[f"{key}, each query reads"] = _reread(calls[key])
        times = interleaved(calls, args.repeats, warm_up=True)
    print(f"# load average at end: {os.getloadavg()[0]:.1f}")
    print()
    print("| contender | median s | / read_parquet + pivot | / pivot in memory |")
    print("|---|---:|---:|---:|")
    file_peer = times["pandas read_parquet + pivot (peer)"]
    memory_peer = times["pandas pivot of the frame in memory (peer)"]
    for name, seconds in times.items():
        print(
            f"| {name} | {seconds:.3f} | {seconds / file_peer:.2f} | {seconds / memory_peer:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
