"""How the command line writes its output files (``--report``, ``--plot``, ``--out``): into
a directory it creates when missing, with the permissions the umask gives a new file, and an
error naming the option when the system refuses the file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from test_cli import assert_error, run
from wkappa._cli.app import main

pytestmark = pytest.mark.integration


@pytest.fixture
def pairs(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.csv"
    rows = [(i % 3 + 1, (i + i // 4) % 3 + 1, i / 7) for i in range(30)]
    path.write_text("a,b,s\n" + "".join(f"{a},{b},{s}\n" for a, b, s in rows))
    return path


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b"],
        ["icc", "--raters", "a,b"],
        ["thresholds", "--true", "a", "--score", "s"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_report_into_a_missing_directory_creates_it(argv, pairs, tmp_path):
    report = tmp_path / "new" / "deeper" / "r.html"
    proc = run(argv[0], pairs, *argv[1:], "--report", report)
    assert proc.returncode == 0, proc.stderr
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert f"wkappa: wrote {report}" in proc.stderr
    assert [p.name for p in report.parent.iterdir()] == ["r.html"]  # no temporary file left


def test_a_plan_report_and_plot_into_a_missing_directory(tmp_path):
    pytest.importorskip("matplotlib")
    report, plot = tmp_path / "a" / "plan.html", tmp_path / "b" / "plan.png"
    proc = run("plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.2,0.5,0.3",
               "--report", report, "--plot", plot)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert report.is_file() and plot.read_bytes().startswith(b"\x89PNG")


def test_output_files_honour_the_umask(pairs, tmp_path, umask_027):
    graded, report = tmp_path / "graded.csv", tmp_path / "r.html"
    proc = run("thresholds", pairs, "--true", "a", "--score", "s", "--apply", pairs,
               "--out", graded, "--report", report)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(graded.stat().st_mode) == 0o640
    assert stat.S_IMODE(report.stat().st_mode) == 0o640


def test_the_default_umask_gives_a_readable_out(pairs, tmp_path):
    old = os.umask(0o022)
    try:
        graded = tmp_path / "graded.parquet"
        proc = run("thresholds", pairs, "--true", "a", "--score", "s", "--apply", pairs,
                   "--out", graded)  # fmt: skip
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(graded.stat().st_mode) == 0o644


@pytest.mark.parametrize("option", ["--report", "--plot"])
def test_an_output_the_system_refuses_names_its_option(option, pairs, tmp_path):
    name = "r.html" if option == "--report" else "r.png"
    target = tmp_path / name
    target.mkdir()  # a directory where the file should go
    if option == "--plot":
        pytest.importorskip("matplotlib")
    proc = run("score", pairs, "--true", "a", "--pred", "b", option, target)
    assert_error(proc, f"{option} {target}: cannot write the file")


def test_apply_writes_a_csv_with_the_separator_of_its_file(tmp_path, capsys) -> None:
    """A ';' file with decimal commas was written back with ',' between the fields and each
    decimal comma quoted ("0,1"); a CSV --out now keeps the --apply file's separator."""
    path = tmp_path / "scores.csv"
    path.write_text("g;s\n0;0,1\n1;0,9\n0;0,2\n1;0,7\n2;1,9\n2;1,5\n1;1,1\n0;0,3\n")
    out = tmp_path / "graded.csv"
    assert main(["thresholds", str(path), "--true", "g", "--score", "s", "--separator", ";",
                 "--decimal-comma", "--apply", str(path), "--out", str(out)]) == 0  # fmt: skip
    capsys.readouterr()
    lines = out.read_text().splitlines()
    assert lines[:2] == ["g;s;grade", "0;0,1;0"], lines
