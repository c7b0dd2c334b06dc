"""``--cluster`` on the command line: ``wkappa score`` and ``wkappa compare`` of a 5-million-row
Parquet file with and without 50,000 clusters, and ``wk.kappa_test(..., cluster=...)`` on the
columns read to numpy; wall time and peak memory, each in a fresh process (one round: the
numbers of BENCHMARKS.md). Then ``rater_vs_panel`` (what ``wkappa judge`` runs) at 1999 and
9999 resamples. Run: ``python benchmarks/bench_cli_cluster.py`` (about a minute).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

N_ROWS = 5_000_000
N_CLUSTERS = 50_000

# A child runs one way and prints its wall time and its own peak resident memory (MB).
CHILD = """
import resource, sys, time
start = time.perf_counter()
{body}
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(f"{{time.perf_counter() - start:6.1f}} s {{peak:5d}} MB")
"""
CLI = "from wkappa._cli import main\nmain(sys.argv[1:])"
API = (
    "import polars as pl, wkappa as wk\n"
    "df = pl.read_parquet(sys.argv[1])\n"
    "wk.kappa_test(df['a'].to_numpy(), df['b'].to_numpy(), cluster=df['task'].to_numpy())"
)


def _file(folder: Path) -> None:
    rng = np.random.default_rng(0)
    task = rng.integers(0, N_CLUSTERS, N_ROWS)
    level = (task * 7919) % 5  # the rows of one cluster share a grade

    def rater(spread: int) -> np.ndarray:
        return np.clip(level + rng.integers(-spread, spread + 1, N_ROWS), 0, 4)

    frame = pl.DataFrame({"task": task, "a": rater(1), "b": rater(1), "c": rater(2)})
    frame.write_parquet(folder / "big.parquet")


def _run(body: str, argv: list[str]) -> str:
    code = CHILD.format(body=body)
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    return proc.stdout.strip().splitlines()[-1]


def _noisy(rng: np.random.Generator, level: np.ndarray, p: float) -> np.ndarray:
    """A rater who gives the true level with probability p, else a random grade."""
    return np.where(rng.random(level.size) < p, level, rng.integers(0, 4, level.size))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        # Made in a child: a child's peak RSS starts from its parent's at the fork (Linux),
        # so this process stays small.
        subprocess.run([sys.executable, __file__, "--make", folder], check=True)
        path = str(Path(folder) / "big.parquet")
        score = ["score", path, "--true", "a", "--pred", "b", "--format", "json", "--quiet"]
        compare = ["compare", path, "--true", "a", "--pred", "b", "--pred", "c",
                   "--bootstrap", "999", "--seed", "0", "--format", "json", "--quiet"]  # fmt: skip
        ways = [
            ("wkappa score", CLI, score),
            ("wkappa score --cluster task", CLI, [*score, "--cluster", "task"]),
            ("wk.kappa_test(cluster=) after reading", API, [path]),
            ("wkappa compare --bootstrap 999", CLI, compare),
            ("wkappa compare --bootstrap 999 --cluster task", CLI, [*compare, "--cluster", "task"]),
        ]
        for name, body, argv in ways:
            print(f"{name:48s} {_run(body, argv)}", flush=True)

    import wkappa as wk

    for n in (80, 1000, 10000):
        rng = np.random.default_rng(0)
        level = rng.integers(0, 4, n)
        panel = np.column_stack([_noisy(rng, level, 0.7) for _ in range(5)])
        candidate = _noisy(rng, level, 0.6)
        times = []
        for resamples in (1999, 9999):
            wk.rater_vs_panel(panel, candidate, n_resamples=resamples, rng=1)  # warm-up
            start = time.perf_counter()
            wk.rater_vs_panel(panel, candidate, n_resamples=resamples, rng=1)
            times.append(time.perf_counter() - start)
        print(f"rater_vs_panel, {n:5d} items: {times[0]:.2f} s (1999), {times[1]:.2f} s (9999)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--make"]:
        _file(Path(sys.argv[2]))
    else:
        main()
