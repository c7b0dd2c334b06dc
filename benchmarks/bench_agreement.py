"""Several raters: wkappa.agreement / krippendorff_alpha side by side with their peers.

In one process, on the same arrays (items x 5 raters, 5 categories, float64 with 10% of the
ratings missing (NaN), the same data complete, and complete as int64), interleaved (every
repetition times each contender once, in turn), medians, printed as times and as ratios to
wkappa: 21 repetitions of wkappa's call, the peers' (seconds each) in the first 3 at 1e6 x 5
and 5 at 1e5 x 5 only. Peers: the ``krippendorff`` package (nominal, ordinal, interval),
statsmodels ``fleiss_kappa(aggregate_raters(x))`` (complete data only: it refuses missing
ratings) and the irrCAC port (pip ``irrcac``; complete data only: under pandas 3 it counts NaN
as a category). Then the extra peak memory of one call (tracemalloc: numpy allocations, which
the numba kernels' few small arrays are not) against the input's size, and the cost per
rating at both sizes.

Usage::

    python benchmarks/bench_agreement.py            # 1e5 x 5 and 1e6 x 5
    python benchmarks/bench_agreement.py --quick    # 1e5 x 5 only
    python benchmarks/bench_agreement.py --wkappa-only   # no peers
    python benchmarks/bench_agreement.py --size 1000000 --complete-only \
        --coefficients 'alpha nominal,fleiss'           # one size, a few rows
    python benchmarks/bench_agreement.py --shared   # in a shared process (~3 min)
    python benchmarks/bench_agreement.py --counting-pass   # the counting pass alone

``--shared``: 1e6 items x 5 raters, 10% missing, in one process, interleaved round by round
(the order rotated every round) with the peers (``krippendorff`` at three levels,
statsmodels' ``fleiss_kappa`` on the complete data, which it needs) and with neighbours a
user's process runs too (scikit-learn's ``cohen_kappa_score`` of two raters and a numba
``prange`` read of the ratings). Rows: every coefficient without and with ``labels=``
(consecutive and with a gap), the ratio of the fastest peer's median to wkappa's; and the
long layout (one row per rating, 4.5e6 rows) with ``frames.agreement`` on polars and
DuckDB next to the engine's own ``group_by(item, rating)`` count in the same rounds (and, for
polars, the same count in its streaming engine, the one wkappa's query runs in).
"""

from __future__ import annotations

import argparse
import os
import sys
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wkappa as wk
from _timing import interleaved, rotated

K = 5
RATERS = 5


def data(n: int, missing: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, K, n)
    noise = rng.integers(-1, 2, size=(n, RATERS)) * (rng.random((n, RATERS)) < 0.3)
    ratings = np.clip(truth[:, None] + noise, 0, K - 1).astype(np.float64) + 1
    if missing:
        ratings[rng.random(ratings.shape) < missing] = np.nan
    return ratings


def contenders(x: np.ndarray, complete: bool) -> dict[str, dict[str, Callable[[], Any]]]:
    """{coefficient: {name: call}}; the first name of each group is wkappa's."""
    groups: dict[str, dict[str, Callable[[], Any]]] = {}
    try:
        import krippendorff
    except ImportError:  # pragma: no cover
        krippendorff = None
    for level in ("nominal", "ordinal", "interval"):
        group: dict[str, Callable[[], Any]] = {
            "wkappa": lambda level=level: wk.krippendorff_alpha(x, level=level),
        }
        if krippendorff is not None:
            group["krippendorff"] = lambda level=level: krippendorff.alpha(
                reliability_data=x.T, level_of_measurement=level
            )
        groups[f"alpha {level}"] = group
    fleiss: dict[str, Callable[[], Any]] = {"wkappa": lambda: wk.agreement(x)}
    gwet: dict[str, Callable[[], Any]] = {"wkappa": lambda: wk.agreement(x, coefficient="gwet")}
    conger: dict[str, Callable[[], Any]] = {"wkappa": lambda: wk.agreement(x, coefficient="conger")}
    if complete:
        from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

        fleiss["statsmodels"] = lambda: fleiss_kappa(aggregate_raters(x)[0])
        try:
            import pandas as pd
            from irrCAC.raw import CAC

            frame = pd.DataFrame(x)
            fleiss["irrCAC port"] = lambda: CAC(frame).fleiss()
            gwet["irrCAC port"] = lambda: CAC(frame).gwet()
            conger["irrCAC port"] = lambda: CAC(frame).conger()
        except ImportError:  # pragma: no cover
            pass
    groups["fleiss"] = fleiss
    groups["gwet AC1"] = gwet
    groups["conger"] = conger
    return groups


def input_kinds(x: np.ndarray) -> dict[str, Callable[[], Any]]:
    """The same ratings as other inputs (made when timed, one at a time)."""
    kinds: dict[str, Callable[[], Any]] = {
        "numpy float64, C order": lambda: x,
        "numpy float64, F order": lambda: np.asfortranarray(x),
    }
    try:
        import pandas as pd

        kinds["pandas float64"] = lambda: pd.DataFrame(x)
        kinds["pandas Int64 (<NA>)"] = lambda: pd.DataFrame(x).astype("Int64")
    except ImportError:  # pragma: no cover
        pass
    try:
        import polars as pl

        kinds["polars Float64"] = lambda: pl.from_numpy(x)
        kinds["polars Int64 (nulls)"] = lambda: pl.from_numpy(x).fill_nan(None).cast(pl.Int64)
    except ImportError:  # pragma: no cover
        pass
    return kinds


def extra_peak(call: Callable[[], Any]) -> int:
    tracemalloc.start()
    call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def shared(reps: int, peer_reps: int) -> None:
    """The several-raters goal rows in a process shared with the peers and neighbours."""
    import krippendorff
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    from _peers import parallel_floor

    n = 1_000_000
    x = data(n, 0.1)
    complete = data(n, 0.0)
    codes = np.nan_to_num(x).astype(np.int64).ravel()
    half = codes.size // 2
    a, b = complete[:, 0].astype(np.int64), complete[:, 1].astype(np.int64)
    consecutive, gap = [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 7]
    rows = {
        "fleiss": lambda labels: wk.agreement(x, labels=labels),
        "gwet AC1": lambda labels: wk.agreement(x, coefficient="gwet", labels=labels),
        "conger": lambda labels: wk.agreement(x, coefficient="conger", labels=labels),
        **{
            f"alpha {level}": lambda labels, level=level: wk.krippendorff_alpha(
                x, level=level, labels=labels
            )
            for level in ("nominal", "ordinal", "interval")
        },
    }
    calls: dict[str, Callable[[], Any]] = {}
    for name, call in rows.items():
        for variant, labels in (("", None), (" labels=1..5", consecutive), (" labels gap", gap)):
            calls[f"{name}{variant}"] = lambda call=call, labels=labels: call(labels)
    peers = {
        f"krippendorff {level}": lambda level=level: krippendorff.alpha(
            reliability_data=x.T, level_of_measurement=level
        )
        for level in ("nominal", "ordinal", "interval")
    }
    peers["statsmodels fleiss (complete)"] = lambda: fleiss_kappa(aggregate_raters(complete)[0])
    neighbours: dict[str, Callable[[], Any]] = {
        "sklearn cohen_kappa_score 1e6": lambda: cohen_kappa_score(a, b),
        "numba prange read of the ratings": lambda: parallel_floor(codes[:half], codes[half:]),
    }
    long_calls = _long_layout(x)
    everything = {**neighbours, **calls, **peers, **long_calls}
    print(f"load average before: {_load()}")
    med = rotated(everything, reps, {name: peer_reps for name in peers})
    print(f"load average after: {_load()}\n")
    print("| call | median ms |")
    print("| --- | ---: |")
    for name, seconds in med.items():
        print(f"| {name} | {seconds * 1e3:,.1f} |")
    fastest = min(peers, key=lambda name: med[name])
    print(f"\nfastest peer: {fastest} ({med[fastest] * 1e3:,.0f} ms)\n")
    # wkappa's time over the parallel read of the same 40 MB: less sensitive to the load
    # than the ratio to the peers (both are short passes over the ratings).
    read = med["numba prange read of the ratings"]
    print("| coefficient, 1e6 x 5, 10% missing | wkappa ms | fastest peer / wkappa | goal | met |"
          " wkappa / prange read |")  # fmt: skip
    print("| --- | ---: | ---: | --- | --- | ---: |")
    for name in calls:
        ratio = med[fastest] / med[name]
        print(f"| {name} | {med[name] * 1e3:,.1f} | {ratio:,.0f}x | >= 50x | "
              f"{'yes' if ratio >= 50 else 'NO'} | {med[name] / read:.1f} |")  # fmt: skip
    print("\n| long layout, 1e6 x 5 (4.5e6 rows) | frames.agreement ms | group_by ms | ratio |"
          " goal | met |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for engine in ("polars", "duckdb"):
        mine, theirs = med[f"{engine} frames.agreement"], med[f"{engine} group_by(item, rating)"]
        print(f"| {engine} | {mine * 1e3:,.0f} | {theirs * 1e3:,.0f} | {mine / theirs:.2f} | "
              f"<= 1.5 | {'yes' if mine / theirs <= 1.5 else 'NO'} |")  # fmt: skip
    streaming = med["polars lazy group_by(item, rating), streaming"]
    mine = med["polars frames.agreement"]
    print(f"| polars, against its streaming group_by | {mine * 1e3:,.0f} | "
          f"{streaming * 1e3:,.0f} | {mine / streaming:.2f} | | |")  # fmt: skip


def counting_pass(reps: int) -> None:
    """The several-raters counting pass alone (``fast_rows``: read, check, code and count
    the rows) at 1e6 x 5, 10% missing: the serial pass in CPU time of the calling thread
    (the least sensitive to other processes), and in wall time serial, parallel and as
    ``use_parallel`` decides, interleaved with a numba ``prange`` read of the ratings."""
    import time

    from _peers import parallel_floor
    from wkappa._core import fused
    from wkappa._core.raters import fast_rows

    x = data(1_000_000, 0.1)
    codes = np.nan_to_num(x).astype(np.int64).ravel()
    half = codes.size // 2
    modes: dict[str, bool | None] = {"serial": False, "parallel": True, "automatic": None}
    wall: dict[str, list[float]] = {name: [] for name in [*modes, "prange read"]}
    cpu: list[float] = []
    decisions = []
    for _ in range(reps + 1):  # the first round compiles and warms up, untimed
        for name, mode in modes.items():
            fused.set_parallel(mode)
            start, start_cpu = time.perf_counter(), time.thread_time()
            fast_rows(x, None, None, "omit")
            wall[name].append(time.perf_counter() - start)
            if mode is False:
                cpu.append(time.thread_time() - start_cpu)
        fused.set_parallel(None)
        decisions.append(fused.use_parallel(x.size))
        start = time.perf_counter()
        parallel_floor(codes[:half], codes[half:])
        wall["prange read"].append(time.perf_counter() - start)
    print(f"load average: {_load()}; use_parallel said yes in {sum(decisions[1:])} of {reps}")
    print("| counting pass, 1e6 x 5, 10% missing | median ms | / prange read |")
    print("| --- | ---: | ---: |")
    read = float(np.median(wall["prange read"][1:]))
    print(f"| serial, CPU time | {np.median(cpu[1:]) * 1e3:.1f} | |")
    for name, times in wall.items():
        median = float(np.median(times[1:]))
        print(f"| {name}, wall | {median * 1e3:.1f} | {median / read:.1f} |")


def _long_layout(x: np.ndarray) -> dict[str, Callable[[], Any]]:
    """frames.agreement of the ratings in the long layout (one row per rating given) next
    to the engine's own count of (item, rating), on polars and DuckDB."""
    import duckdb
    import polars as pl

    import wkappa.frames as wkf

    n, r = x.shape
    given = ~np.isnan(x)
    long = pl.DataFrame(
        {
            "item": np.repeat(np.arange(n), r)[given.ravel()],
            "rater": np.tile(np.arange(r), n)[given.ravel()],
            "rating": x[given].astype(np.int64),
        }
    )
    connection = duckdb.connect()
    connection.register("long_arrow", long.to_arrow())
    connection.execute("create table long as select * from long_arrow")
    relation = connection.table("long")
    options = {"item": "item", "rater": "rater", "rating": "rating"}
    return {
        "polars frames.agreement": lambda: wkf.agreement(long, **options),
        "polars group_by(item, rating)": lambda: long.group_by("item", "rating").len(),
        # wkappa runs polars' streaming engine (eager frames too): its group-by there
        "polars lazy group_by(item, rating), streaming": lambda: (
            long.lazy().group_by("item", "rating").len().collect(engine="streaming")
        ),
        "duckdb frames.agreement": lambda: wkf.agreement(relation, **options),
        "duckdb group_by(item, rating)": lambda: relation.aggregate(
            "item, rating, count(*)"
        ).to_arrow_table(),
    }


def _load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", action="store_true", help="in a shared process (~3 min)")
    parser.add_argument("--reps", type=int, default=5, help="--shared: rounds (default 5)")
    parser.add_argument(
        "--peer-reps", type=int, default=2, help="--shared: rounds with the peers (default 2)"
    )
    parser.add_argument(
        "--counting-pass", action="store_true", help="the several-raters counting pass alone"
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--wkappa-only", action="store_true", help="time wkappa alone")
    parser.add_argument("--size", type=int, help="only this many items (e.g. 1000000)")
    parser.add_argument(
        "--coefficients", help="only these rows, comma-separated (e.g. 'alpha nominal,fleiss')"
    )
    parser.add_argument("--complete-only", action="store_true", help="complete data only")
    args = parser.parse_args()
    if args.shared:
        warnings.simplefilter("ignore")
        print("PYTHONPATH=src python benchmarks/bench_agreement.py " + " ".join(sys.argv[1:]))
        print(f"numpy {np.__version__}, wkappa {wk.__version__}, {os.cpu_count()} cores")
        shared(args.reps, args.peer_reps)
        return
    if args.counting_pass:
        print("PYTHONPATH=src python benchmarks/bench_agreement.py " + " ".join(sys.argv[1:]))
        counting_pass(max(args.reps, 15))
        return
    sizes = [100_000] if args.quick else [100_000, 1_000_000]
    if args.size:
        sizes = [args.size]
    chosen = None if not args.coefficients else set(args.coefficients.split(","))
    warnings.simplefilter("ignore")
    print(f"numpy {np.__version__}, wkappa {wk.__version__}, {os.cpu_count()} cores")
    print(f"load average at the start: {os.getloadavg()}")
    per_rating: dict[tuple[str, str], list[float]] = {}
    for n in sizes:
        for missing, dtype in ((0.1, "float64"), (0.0, "float64"), (0.0, "int64")):
            if args.complete_only and missing:
                continue
            x = data(n, missing).astype(dtype)
            kind = "10% missing" if missing else "complete"
            label = f"{n:,} x {RATERS}, {kind}, {dtype}"
            print(f"\n### {label} ({x.nbytes / 2**20:.0f} MiB input)\n")
            print("| coefficient | contender | median ms | ratio to wkappa | extra peak MiB |")
            print("| --- | --- | ---: | ---: | ---: |")
            for coefficient, group in contenders(x, missing == 0).items():
                if chosen is not None and coefficient not in chosen:
                    continue
                if args.wkappa_only:
                    group = {"wkappa": group["wkappa"]}
                # wkappa's call is short and the machine shared: more repetitions of it, and
                # the peers (seconds each) in the first few only.
                peers = [name for name in group if name != "wkappa"]
                few = 5 if n <= 100_000 else 3
                times = interleaved(group, 21, warm_up=True, slow=peers, slow_repeats=few)
                base = times["wkappa"]
                per_rating.setdefault((coefficient, f"{kind}, {dtype}"), []).append(base / x.size)
                for name, seconds in times.items():
                    peak = extra_peak(group[name]) / 2**20
                    ratio = seconds / base
                    print(
                        f"| {coefficient} | {name} | {seconds * 1e3:,.1f} | {ratio:,.1f}x | "
                        f"{peak:,.1f} |"
                    )
    if chosen is not None:
        print(f"\nload average at the end: {os.getloadavg()}")
        return
    print(f"\n### Input kinds, {sizes[-1]:,} x {RATERS}, 10% missing: wk.agreement (Fleiss)\n")
    print("| input | median ms |")
    print("| --- | ---: |")
    for name, make in input_kinds(data(sizes[-1], 0.1)).items():
        value = make()
        seconds = interleaved({name: lambda value=value: wk.agreement(value)}, 7, warm_up=True)
        print(f"| {name} | {seconds[name] * 1e3:,.1f} |")
    print(f"\nload average at the end: {os.getloadavg()}")
    if len(sizes) > 1:
        print("\n### Cost per rating, 1e6 x 5 against 1e5 x 5 (1.0 = linear)\n")
        for (coefficient, kind), values in per_rating.items():
            print(f"- {coefficient} ({kind}): {values[1] / values[0]:.2f}")


if __name__ == "__main__":
    main()
