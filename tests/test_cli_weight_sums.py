"""``wkappa score --weight-col``: weights that are not whole numbers are summed exactly and give
the same digits on every run (however the engine splits the rows among its threads), those of
the frames functions, and the library's numbers, also for weights too small or too large to be
summed exactly."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import wkappa as wk
from cli_calls import json_output
from frames_data import weighted_ratings
from wkappa._core.weight_sums import LARGEST, SCALE


def _score(capsys: pytest.CaptureFixture[str], path: Path) -> dict:
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w", "--by", "g"]
    argv += ["--cluster", "c"]  # weights that are not whole numbers: cluster-robust SEs
    return json_output(capsys, argv)


def _assert_library(document: dict, data: pl.DataFrame) -> None:
    """The overall and per-group kappas and weighted n are the library's."""

    def kappa(part: pl.DataFrame) -> float:
        return wk.weighted_kappa(part["a"], part["b"], sample_weight=part["w"].to_numpy())

    assert document["statistic"] == pytest.approx(kappa(data), rel=1e-12, abs=1e-15)
    assert document["n"] == pytest.approx(data["w"].sum(), rel=1e-12)
    for group in document["groups"]:
        part = data.filter(pl.col("g") == group["group"])
        assert group["statistic"] == pytest.approx(kappa(part), rel=1e-12, abs=1e-15)
        assert group["n"] == pytest.approx(part["w"].sum(), rel=1e-12)


@pytest.mark.integration
def test_weighted_by_output_is_the_same_with_any_number_of_threads(tmp_path):
    # Two threads add a group's weights in another order than one: floating-point sums then
    # differ in their last digits, the sums used do not.
    path = tmp_path / "weighted.parquet"
    weighted_ratings(200_000, 2, groups=5).write_parquet(path)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w", "--by", "g"]
    argv += ["--cluster", "c"]  # weights that are not whole numbers: cluster-robust SEs
    outputs = set()
    for threads in ("1", "2", "3"):
        env = {**os.environ, "POLARS_MAX_THREADS": threads}
        proc = subprocess.run(
            [sys.executable, "-m", "wkappa", *argv, "--format", "csv"],
            capture_output=True, env=env, timeout=120, check=True,
        )  # fmt: skip
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def test_weighted_by_equals_the_library(tmp_path, capsys):
    data = weighted_ratings(3_000, 5)
    path = tmp_path / "weighted.csv"
    data.write_csv(path)
    _assert_library(_score(capsys, path), data)


def test_whole_number_weights_are_summed_exactly(tmp_path, capsys):
    data = weighted_ratings(2_000, 6).with_columns(w=pl.int_range(pl.len()) * 1_000_003 % 999_983)
    path = tmp_path / "whole.csv"
    data.write_csv(path)
    document = _score(capsys, path)
    assert document["n"] == int(data["w"].sum())
    for group in document["groups"]:
        assert group["n"] == int(data.filter(pl.col("g") == group["group"])["w"].sum())
    _assert_library(document, data)


@pytest.mark.parametrize(
    ("weight", "group"),
    [
        (1e-30, None),  # one tiny weight among ordinary ones: below the decimals
        (1e-30, 1),  # a whole group of tiny weights: summed in floating point
        (1e-12, 2),
        (1e30, None),  # one weight too large for the decimals
        (1e12, 2),  # a group of large weights
    ],
)
def test_weights_outside_the_decimals_give_the_library_numbers(tmp_path, capsys, weight, group):
    data = weighted_ratings(600, 7)
    if group is None:
        data = data.with_columns(
            w=pl.when(pl.int_range(pl.len()) == 10).then(weight).otherwise("w")
        )
    else:
        data = data.with_columns(
            w=pl.when(pl.col("g") == group).then(pl.col("w") * weight).otherwise("w")
        )
    path = tmp_path / "extreme.csv"
    data.write_csv(path)
    _assert_library(_score(capsys, path), data)


def test_a_key_summing_beyond_a_decimal_is_exact(tmp_path, capsys):
    # Each weight is summed exactly (below LARGEST); the sum of a key's 40 or so would not fit
    # a Decimal(38, 24) but is a Python int.
    data = weighted_ratings(3_000, 8).with_columns(w=(pl.col("w") + 1.0) * LARGEST / 2)
    path = tmp_path / "large.csv"
    data.write_csv(path)
    document = _score(capsys, path)
    _assert_library(document, data)
    for group in document["groups"]:
        part = data.filter(pl.col("g") == group["group"])["w"].to_list()
        exact = sum(math.floor(w * 10.0**SCALE) for w in part) / 10**SCALE
        assert group["n"] == pytest.approx(exact, rel=1e-15)  # its cells' exact sums, added


def test_the_command_line_and_frames_give_the_same_bits(tmp_path, capsys):
    frames = pytest.importorskip("wkappa.frames")
    data = weighted_ratings(3_000, 9).with_columns(w=pl.col("w") * 10.0 ** (pl.col("a") - 2))
    path = tmp_path / "weighted.csv"
    data.write_csv(path)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w"]
    document = json_output(capsys, [*argv, "--by", "g", "--cluster", "c"])
    options = {"y_true": "a", "y_pred": "b", "sample_weight": "w", "cluster": "c"}
    groups = frames.kappa_by_group(data, **options, by="g").sort("g")
    assert [g["statistic"] for g in document["groups"]] == groups["kappa"].to_list()
    assert [g["n"] for g in document["groups"]] == groups["n"].to_list()


def test_whole_frequency_weights_print_the_observed_table_as_counts(tmp_path, capsys):
    """With whole --weight-col weights the observed table holds counts, but the text and the
    report printed it as decimals ('1421.00  363.00  0.00'); they are integers with thousands
    separators, as the table of counted pairs. The expected table keeps its decimals."""
    from wkappa._cli import main

    path = tmp_path / "w.csv"
    path.write_text("a,b,w\n1,1,1421\n1,2,363\n2,2,500\n2,1,7\n")
    report = tmp_path / "r.html"
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w"]
    assert main([*argv, "--report", str(report), "--quiet"]) == 0
    text = capsys.readouterr().out
    observed, expected = text.split("Observed O")[1].split("Expected E")
    assert "1,421  363  1,784" in observed and "total  1,428  863  2,291" in observed
    assert ".00" not in observed and "1,111.98" in expected
    page = report.read_text()
    assert "<td>1,421</td>" in page and "1421.00" not in page and "1,421.00" not in page
