"""``wkappa score`` on a 10-million-row file: wall time and peak memory against reading the
columns first (polars + ``wkappa.qwk``, pandas + scikit-learn).

Each way runs in its own fresh process (so its peak resident memory, ``ru_maxrss``, is its
own), the ways interleaved, three rounds, medians. Run: ``python benchmarks/bench_cli.py``.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import polars as pl

N_ROWS = 10_000_000
ROUNDS = 3

WAYS = {
    "wkappa score (streaming count)": [sys.executable, "-m", "wkappa", "score", "{path}",
                                       "--true", "truth", "--pred", "pred", "--format", "json"],
    "polars read + wkappa.qwk": [sys.executable, "-c",
        "import polars as pl, sys, wkappa as wk\n"
        "f = pl.read_parquet(sys.argv[1], columns=['truth', 'pred']) if sys.argv[1].endswith("
        "'.parquet') else pl.read_csv(sys.argv[1], columns=['truth', 'pred'])\n"
        "print(wk.qwk(f['truth'], f['pred']))", "{path}"],
    "pandas read + sklearn": [sys.executable, "-c",
        "import pandas as pd, sys\nfrom sklearn.metrics import cohen_kappa_score\n"
        "f = pd.read_parquet(sys.argv[1], columns=['truth', 'pred']) if sys.argv[1].endswith("
        "'.parquet') else pd.read_csv(sys.argv[1], usecols=['truth', 'pred'])\n"
        "print(cohen_kappa_score(f['truth'], f['pred'], weights='quadratic'))", "{path}"],
}  # fmt: skip

# Runs one command in a child and prints (seconds, peak RSS of the child in bytes).
MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
out = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True).stdout
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
print(out)
"""


def _measure(command: list[str]) -> tuple[float, int, str]:
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=True
    )
    first, _, rest = proc.stdout.partition("\n")
    seconds, peak = first.split()
    return float(seconds), int(peak), rest.strip()


def _kappa(output: str) -> float:
    return float(json.loads(output)["statistic"]) if output.startswith("{") else float(output)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        i = pl.int_range(N_ROWS, dtype=pl.Int64)
        truth = (i * 7919) % 5
        frame = pl.select(truth=truth, pred=(truth + (i * 31) % 3 - 1).clip(0, 4))
        files = {"parquet": Path(tmp) / "big.parquet", "csv": Path(tmp) / "big.csv"}
        frame.write_parquet(files["parquet"], row_group_size=500_000)
        frame.write_csv(files["csv"])
        del frame
        decoded = N_ROWS * 2 * 8
        idle = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"# bench_cli  {N_ROWS:,} rows, two int64 columns ({decoded / 2**20:.0f} MiB "
              f"decoded), median of {ROUNDS}, python {sys.version.split()[0]}, "
              f"polars {pl.__version__}; this process: {idle / 2**10:.0f} MiB")  # fmt: skip
        for kind, path in files.items():
            size = path.stat().st_size / 2**20
            runs: dict[str, list[tuple[float, int, str]]] = {w: [] for w in WAYS}
            for _ in range(ROUNDS):
                for way, template in WAYS.items():
                    command = [part.replace("{path}", str(path)) for part in template]
                    runs[way].append(_measure(command))
            print(f"\n{kind} file ({size:.0f} MiB on disk)")
            print(f"{'way':34} {'seconds':>8} {'peak MiB':>9} {'x time':>7} {'x memory':>9}  kappa")
            base_time = statistics.median(r[0] for r in runs[next(iter(WAYS))])
            base_peak = statistics.median(r[1] for r in runs[next(iter(WAYS))])
            for way, results in runs.items():
                seconds = statistics.median(r[0] for r in results)
                peak = statistics.median(r[1] for r in results)
                print(f"{way:34} {seconds:8.2f} {peak / 2**20:9.0f} {seconds / base_time:7.2f} "
                      f"{peak / base_peak:9.2f}  {_kappa(results[0][2]):.6f}")  # fmt: skip


if __name__ == "__main__":
    main()
