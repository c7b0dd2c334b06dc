"""Randomised broken rating files, as spreadsheets and people write them, through every
command that reads one: the answer is a result (exit code 0) or a refusal (exit code 2) whose
error is one line on stderr, never an internal error (exit code 1) or a traceback."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from wkappa._cli import main

pytest.importorskip("polars")

# Spellings of a missing value found in exports (some are missing already, some need
# --na-values), and cells a rating column should not hold but real files do.
_MISSING = ["NA", "N/A", "", ".", "-", "missing", "#N/A", "NaN", " ", "null", "n/a"]
_ODD = [
    "3.0", " 2 ", "+2", "1e0", "007", "-1", "1.5", "2,5", "inf", "-inf", "1e400",
    "agree", "strongly agree", "Agree ", "true", "0x10", "9" * 25, "é", '"', '"1"', "1;2",
    "\t", "1\t2", "=1+1",
]  # fmt: skip
_HEADERS = ["a", "b", "c", " a", "a ", '"a"', '"b c"', "", "A", '"a,b"', "\ufeffa"]
_COMMANDS = [
    ["score", "--true", "a", "--pred", "b"],
    ["score", "--true", "a", "--pred", "b", "--nan-policy", "omit", "--labels", "1,2,3"],
    ["score", "--true", "a", "--pred", "b", "--by", "c", "--nan-policy", "omit"],
    ["score", "--true", "a", "--pred", "b", "--weight-col", "c"],
    ["score", "--true", "a", "--pred", "b", "--cluster", "c", "--nan-policy", "omit"],
    ["agree", "--raters", "a,b,c"],
    ["agree", "--raters", "a,b", "--weights", "quadratic", "--na-values", ".,-,missing"],
    ["agree", "--item", "a", "--rater", "b", "--rating", "c"],
    ["judge", "--candidate", "a", "--raters", "b,c"],
    ["compare", "--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "20", "--seed", "1"],
    ["icc", "--raters", "a,b"],
    ["icc", "--item", "a", "--rater", "b", "--rating", "c"],
    ["thresholds", "--true", "a", "--score", "b"],
    ["thresholds", "--true", "a", "--score", "b", "--separator", ";", "--decimal-comma"],
    ["icc", "--raters", "a,b", "--separator", ";", "--decimal-comma"],
    ["score", "--true", "a", "--pred", "b", "--separator", ";", "--na-values", "-9,99"],
]


@st.composite
def _broken_file(draw: st.DrawFn) -> bytes:
    """A small CSV-like file: odd headers, ragged rows, missing spellings, odd cells, any
    line ending and encoding, sometimes cut short."""
    separator = draw(st.sampled_from([",", ",", ";", "\t"]))
    width = draw(st.integers(1, 5))
    header = draw(st.lists(st.sampled_from(_HEADERS), min_size=width, max_size=width))
    if draw(st.booleans()):
        header[:3] = ["a", "b", "c"][:width]
    good = st.integers(1, 4).map(str)
    cell = st.one_of(good, good, good, st.sampled_from(_MISSING), st.sampled_from(_ODD))
    rows = [separator.join(header)]
    for _ in range(draw(st.integers(0, 8))):
        n = max(0, width + draw(st.sampled_from([0, 0, 0, 0, -1, 1])))
        rows.append(separator.join(draw(st.lists(cell, min_size=n, max_size=n))))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = end.join(rows) + draw(st.sampled_from(["", end, end * 3]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "cp1252"]))
    data = text.encode(encoding, errors="replace")
    if draw(st.integers(0, 19)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    return data


@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    data=_broken_file(),
    command=st.sampled_from(_COMMANDS),
    json_format=st.booleans(),
)
def test_a_broken_file_is_answered_or_refused_in_one_line(
    tmp_path: Path, data: bytes, command: list[str], json_format: bool
) -> None:
    path = tmp_path / "ratings.csv"
    path.write_bytes(data)
    argv = [command[0], str(path), *command[1:], "--quiet"]
    if json_format:
        argv += ["--format", "json"]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    lines = err.getvalue().splitlines()
    assert code in (0, 2), (data, argv, err.getvalue())
    assert "Traceback" not in err.getvalue() + out.getvalue(), (data, argv, err.getvalue())
    errors = [line for line in lines if re.match(r"wkappa( \w+)?: error: ", line)]
    # Besides the error, stderr holds only the run's warnings (the output is --quiet).
    assert len(errors) == (code == 2), (data, argv, lines)
    assert all(line in errors or line.startswith("wkappa: warning: ") for line in lines), lines
