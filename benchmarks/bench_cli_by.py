"""``wkappa score --by COL`` with many groups: a 1,000,000-row Parquet file, 5 categories,
1,000 and 50,000 groups; wall time of ``score`` with ``--by`` (text and JSON) and of plain
``score`` on the same file, each in a fresh process (one round), and the ratio of the two.

Run: ``python benchmarks/bench_cli_by.py`` (about a minute). ``--src DIR`` runs the command
line of another source tree (an older commit's ``src``, unpacked with ``git archive``) for a
before/after comparison; ``--groups 1000`` limits the group counts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

N_ROWS = 1_000_000


def groups_file(path: Path, n_groups: int) -> None:
    """The benchmarks' file: N_ROWS pairs of two raters, 5 categories, n_groups groups."""
    rng = np.random.default_rng(0)
    level = rng.integers(0, 5, N_ROWS)

    def rater() -> np.ndarray:
        return np.clip(level + rng.integers(-1, 2, N_ROWS), 0, 4)

    group = rng.integers(0, n_groups, N_ROWS)
    pl.DataFrame({"g": group, "a": rater(), "b": rater()}).write_parquet(path)


def _time(argv: list[str], src: str | None) -> float:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "wkappa", *argv], env=env, check=True, stdout=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", help="the src directory to run (default: the installed wkappa)")
    parser.add_argument("--groups", type=int, nargs="*", default=[1_000, 50_000])
    args = parser.parse_args()
    print(f"# bench_cli_by  {N_ROWS:,} rows, 5 categories, one fresh process per run")
    with tempfile.TemporaryDirectory() as folder:
        for n_groups in args.groups:
            path = Path(folder) / f"g{n_groups}.parquet"
            groups_file(path, n_groups)
            score = ["score", str(path), "--true", "a", "--pred", "b", "--quiet"]
            plain = _time(score, args.src)
            print(f"{n_groups:>7,} groups  score (no --by)          {plain:7.1f} s", flush=True)
            for fmt in ("text", "json"):
                took = _time([*score, "--by", "g", "--format", fmt], args.src)
                print(
                    f"{n_groups:>7,} groups  score --by g --format {fmt:4s} {took:7.1f} s"
                    f"  ({took / plain:5.1f} x plain score)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
