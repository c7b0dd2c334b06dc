"""``wkappa score`` and ``compare`` on files far larger than their counts: streamed, counted
in the engine.

A 40-million-row Parquet file (two int64 columns: 640 MB once decoded) is scored, and a
10-million-row one with three columns compared, in a subprocess whose peak resident memory is
measured (``RUSAGE_CHILDREN`` of a wrapper process). The peak includes the interpreter's and
the libraries' own footprint (about 90-120 MiB, by environment), so the file is large enough
for the streamed count, not that footprint, to decide the bound.
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

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

N_ROWS = 40_000_000
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
def test_forty_million_rows_stream_in_bounded_memory(tmp_path, record_property):
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


# --------------------------------------------------------------------------- compare

COMPARE_ROWS = 10_000_000


def _write_three(path: Path) -> None:
    i = pl.int_range(COMPARE_ROWS, dtype=pl.Int64)
    truth = (i * 7919) % K
    frame = pl.select(
        truth=truth,
        pred=(truth + (i * 31) % 3 - 1).clip(0, K - 1),
        other=(truth + (i * 13) % 5 - 2).clip(0, K - 1),
    )
    frame.write_parquet(path, row_group_size=500_000)


def _expected_cube() -> np.ndarray:
    # The pattern repeats every 15 rows: count each residue class exactly.
    i = np.arange(15)
    truth, pred = _pattern(i)
    other = np.clip(truth + (i * 13) % 5 - 2, 0, K - 1)
    repeats = COMPARE_ROWS // 15 + (i < COMPARE_ROWS % 15)
    cube = np.zeros((K, K, K), dtype=np.int64)
    np.add.at(cube, (truth, pred, other), repeats)
    return cube


@pytest.mark.slow
def test_compare_on_ten_million_rows_holds_no_more_than_score(tmp_path, record_property):
    """``compare`` bootstraps the K x K x K table of counted triples, never one entry per row,
    so its peak memory is that of ``score`` on the same file (it was 3-4x before)."""
    path = tmp_path / "three.parquet"
    _write_three(path)
    _, score_peak = _peak("score", path, "--true", "truth", "--pred", "pred", "--format", "json")
    doc, peak = _peak(
        "compare", path, "--true", "truth", "--pred", "pred", "--pred", "other",
        "--bootstrap", "999", "--seed", "0", "--format", "json",
    )  # fmt: skip

    cube = _expected_cube()
    direct = wk.paired_kappa_test_from_table(cube, n_resamples=999, rng=0)
    assert doc["n"] == COMPARE_ROWS
    assert doc["statistic_a"] == wk.kappa_from_table(cube.sum(axis=2))
    assert doc["statistic_b"] == wk.kappa_from_table(cube.sum(axis=1))
    assert doc["confidence_interval"]["low"] == direct.confidence_interval().low
    assert doc["pvalue"] == direct.pvalue

    decoded = COMPARE_ROWS * 3 * 8  # three int64 columns
    record_property("compare_peak_rss_mib", peak / 2**20)
    record_property("score_peak_rss_mib", score_peak / 2**20)
    print(
        f"\n{COMPARE_ROWS:,} rows: compare peak RSS {peak / 2**20:.0f} MiB, score "
        f"{score_peak / 2**20:.0f} MiB; decoded columns {decoded / 2**20:.0f} MiB"
    )
    # compare reads three columns where score reads two (1.5x the decoded data; `score --by
    # other` peaks about as high); expanding the counts into one entry per row cost 3.7x
    # score's peak (586 MiB).
    assert peak < 2 * score_peak
