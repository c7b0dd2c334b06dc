"""``wkappa score`` on a file far larger than its counts: streamed, counted in the engine.

A 30-million-row Parquet file (two int64 columns: 480 MB once decoded) is scored in a
subprocess whose peak resident memory is measured (``RUSAGE_CHILDREN`` of a wrapper process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import wkappa as wk

N_ROWS = 30_000_000
K = 5

# Run the command in a child and print its peak RSS (bytes) after its JSON output.
WRAPPER = """
import resource, subprocess, sys
proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(proc.stderr)
print(proc.stdout)
print("PEAK_RSS", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
raise SystemExit(proc.returncode)
"""


def _pattern(i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    truth = (i * 7919) % K
    pred = np.clip(truth + (i * 31) % 3 - 1, 0, K - 1)
    return truth, pred


def _write(path: Path) -> None:
    i = pl.int_range(N_ROWS, dtype=pl.Int64)
    truth = (i * 7919) % K
    frame = pl.select(truth=truth, pred=(truth + (i * 31) % 3 - 1).clip(0, K - 1))
    frame.write_parquet(path, row_group_size=500_000)


def _expected_table() -> np.ndarray:
    # The pattern repeats every 15 rows: count each residue class exactly.
    residue = np.arange(15)
    truth, pred = _pattern(residue)
    repeats = N_ROWS // 15 + (residue < N_ROWS % 15)
    table = np.zeros((K, K), dtype=np.int64)
    np.add.at(table, (truth, pred), repeats)
    return table


def _peak(*args: str | Path) -> tuple[dict, int]:
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, sys.executable, "-m", "wkappa", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    body, _, peak = proc.stdout.rpartition("PEAK_RSS")
    return json.loads(body), int(peak)


@pytest.mark.slow
def test_thirty_million_rows_stream_in_bounded_memory(tmp_path, record_property):
    path = tmp_path / "big.parquet"
    _write(path)
    small = tmp_path / "small.csv"
    small.write_text("truth,pred\n0,0\n1,1\n2,1\n")
    _, baseline = _peak("score", small, "--true", "truth", "--pred", "pred", "--format", "json")
    doc, peak = _peak("score", path, "--true", "truth", "--pred", "pred", "--format", "json")

    table = _expected_table()
    assert doc["n"] == N_ROWS
    assert np.array_equal(doc["table"], table)
    assert doc["statistic"] == pytest.approx(wk.kappa_from_table(table), rel=1e-12)

    decoded = N_ROWS * 2 * 8  # two int64 columns
    record_property("peak_rss_mib", peak / 2**20)
    record_property("baseline_rss_mib", baseline / 2**20)
    record_property("decoded_mib", decoded / 2**20)
    print(
        f"\n{N_ROWS:,} rows: peak RSS {peak / 2**20:.0f} MiB (a 3-row file: "
        f"{baseline / 2**20:.0f} MiB); decoded columns {decoded / 2**20:.0f} MiB"
    )
    assert peak < 0.5 * decoded
    assert peak - baseline < 0.35 * decoded
