"""A header's surrounding spaces are not part of a column's name, in every command: the
options select ``Rater A`` for the header ``Rater A `` and every output (text, JSON, CSV,
``--explain``, the HTML report) names it so, exactly as for a file written without them.
Two headers that are one name once stripped are refused, naming both."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from cli_calls import refusal
from wkappa._cli import main

pytestmark = pytest.mark.integration

CLEAN = ["item", "site", "r A", "r B", "r C", "score"]
PADDED = [" item", "site  ", "r A ", "  r B", " r C ", "score "]
COMMANDS = {
    "score": ["--true", "r A", "--pred", "r B", "--by", "site"],
    "agree": ["--raters", "r A,r B,r C"],
    "judge": ["--candidate", "r C", "--raters", "r A,r B", "--seed", "1"],
    "icc": ["--raters", "r A,r B,r C"],
    "compare": ["--true", "r A", "--pred", "r B", "--pred", "r C", "--seed", "1"],
    "thresholds": ["--true", "r A", "--score", "score"],
}
FORMATS = {"score": ["text", "json", "csv"], "agree": ["text", "json", "csv"]}


def _write(path: Path, header: list[str]) -> Path:
    rng = random.Random(3)
    lines = [",".join(header)]
    for i in range(30):
        true = rng.randint(1, 4)
        a = min(4, max(1, true + rng.choice([-1, 0, 0, 1])))
        b = min(4, max(1, true + rng.choice([-1, 0, 0, 1])))
        lines.append(f"i{i},{rng.choice('xy')},{true},{a},{b},{true + rng.random() - 0.5:.2f}")
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(capsys: Any, command: str, path: Path, extra: list[str]) -> str:
    assert main([command, str(path), *COMMANDS[command], *extra, "--quiet"]) == 0
    out: str = capsys.readouterr().out
    return out.replace(str(path), "FILE")


def _cases() -> list[tuple[str, list[str]]]:
    cases = []
    for command in COMMANDS:
        for fmt in FORMATS.get(command, ["text", "json"]):
            cases.append((command, ["--format", fmt]))
        cases.append((command, ["--explain"]))
    return cases


@pytest.mark.parametrize(("command", "extra"), _cases())
def test_padded_headers_read_as_their_names(tmp_path, capsys, command, extra):
    clean = _run(capsys, command, _write(tmp_path / "clean.csv", CLEAN), extra)
    padded = _run(capsys, command, _write(tmp_path / "padded.csv", PADDED), extra)
    assert padded == clean


@pytest.mark.parametrize("command", list(COMMANDS))
def test_padded_headers_in_the_report(tmp_path, capsys, command):
    reports = []
    for name, header in (("clean", CLEAN), ("padded", PADDED)):
        path = _write(tmp_path / f"{name}.csv", header)
        report = tmp_path / f"{name}.html"
        _run(capsys, command, path, ["--report", str(report)])
        page = report.read_text().replace(str(tmp_path), "DIR").replace(name, "FILE")
        # The time the report was made (to the minute) may differ between the two runs.
        reports.append(re.sub(r"\d{4}-\d\d-\d\d( \d\d:\d\d UTC)?", "DATE", page))
    assert reports[0] == reports[1]


def test_thresholds_apply_writes_the_header_as_written(tmp_path, capsys):
    path = _write(tmp_path / "padded.csv", PADDED)
    out = tmp_path / "graded.csv"
    argv = ["thresholds", str(path), *COMMANDS["thresholds"], "--apply", str(path)]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0, capsys.readouterr().err
    assert out.read_text().splitlines()[0] == ",".join([*PADDED, "grade"])


@pytest.mark.parametrize(
    ("header", "shown"),
    [("a,a ,b", "'a' and 'a '"), ("x, a,b,a ", "' a' and 'a '")],
)
def test_headers_equal_once_stripped_are_refused(tmp_path, capsys, header, shown):
    path = tmp_path / "clash.csv"
    width = header.count(",") + 1
    path.write_text(f"{header}\n" + "".join(",".join([v] * width) + "\n" for v in "1212"))
    for argv in (
        ["agree", str(path), "--raters", "a,b"],
        ["score", str(path), "--true", "b", "--pred", "a"],
        ["icc", str(path), "--raters", "a,b"],
    ):
        err = refusal(capsys, argv)
        assert f"the header's columns {shown} are one name, 'a'" in err, err
