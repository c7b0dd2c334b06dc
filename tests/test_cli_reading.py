"""How the command line reads messy files: declared missing-value codes in every spelling,
files that are not what their name or --input-format says, and what --out writes."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal

pytest.importorskip("polars")


def test_a_numeric_missing_code_matches_every_spelling_in_icc(tmp_path, capsys):
    """icc reads rater columns as text: '-99.0' was a rating of -99 (ICC 0.0027 on 12
    ratings) although --na-values -99 declared the code."""
    path = tmp_path / "f.csv"
    path.write_text("a,b\n1,1\n2,-99.0\n3,3\n2,2\n3,3\n1,2\n")
    argv = ["icc", str(path), "--raters", "a,b", "--na-values", "-99", "--form", "1,1"]
    document = json_output(capsys, argv)
    ratings = np.array([[1, 1], [2, np.nan], [3, 3], [2, 2], [3, 3], [1, 2]])
    assert document["n_ratings"] == 11
    expected = wk.icc(ratings, form="1,1", nan_policy="omit").statistic
    assert document["icc"]["1,1"]["statistic"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("command", "columns"),
    [("score", ["--true", "a", "--pred", "b"]), ("agree", ["--raters", "a,b"])],
)
def test_a_numeric_missing_code_matches_every_spelling_in_a_text_column(
    tmp_path, capsys, command, columns
):
    """One cell of spaces makes the column text: '-99.0' and ' -99 ' were ratings (K = 103)."""
    coded = tmp_path / "coded.csv"
    coded.write_text("a,b\n1,1\n2,-99.0\n3, -99 \n2,2\n3,3\n1,+3e0\n4,-9.9e1\n")
    blank = tmp_path / "blank.csv"
    blank.write_text("a,b\n1,1\n2,\n3,\n2,2\n3,3\n1,3\n4,\n")
    omit = ["--nan-policy", "omit"] if command == "score" else []
    documents = [
        json_output(capsys, [command, str(path), *columns, *omit, *declared])
        for path, declared in [(coded, ["--na-values", "-99"]), (blank, [])]
    ]
    for document in documents:
        document["file"] = "FILE"
    assert documents[0] == documents[1]
    if command == "score":
        assert documents[0]["labels"] == [1, 2, 3] and documents[0]["n"] == 4


def test_a_numeric_missing_code_in_a_column_of_floats_and_a_text_code(tmp_path, capsys):
    """A float column (-99.0 read as a number) and a text code ('.') side by side; a code
    matches a whole cell, never part of one (-990 is a rating)."""
    path = tmp_path / "mixed.csv"
    path.write_text("a,b\n1.0,1\n2.0, . \n-99.0,3\n2.0,2\n3.0,3\n1.0,2\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    document = json_output(capsys, [*argv, "--na-values", "-99,."])
    assert (document["n"], document["rows_dropped"], document["labels"]) == (4, 2, [1, 2, 3])
    near = tmp_path / "near.csv"
    near.write_text("a,b\n1,1\n2,-990\n3,3\n")
    err = refusal(capsys, ["score", str(near), "--true", "a", "--pred", "b", "--na-values",
                           "-99", "--labels", "1,2,3"])  # fmt: skip
    assert "-990" in err


class _ClosedPipe:
    """Standard output whose reader has gone away (``wkappa ... | head -1``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        raise OSError("no file descriptor")

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "{file}", "--true", "a", "--pred", "b"],
        ["compare", "{file}", "--true", "a", "--pred", "b", "--pred", "c", "--seed", "0"],
        ["agree", "{file}", "--raters", "a,b,c"],
        ["icc", "{file}", "--raters", "a,b,c"],
        ["judge", "{file}", "--candidate", "a", "--raters", "b,c", "--seed", "0"],
        ["thresholds", "{file}", "--true", "a", "--score", "b"],
        ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.2,0.5,0.3"],
        ["demo"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_closed_output_pipe_ends_quietly(tmp_path, capsys, monkeypatch, argv):
    """`wkappa ... | head -1` ended with exit code 1, the code of an internal error."""
    from wkappa._cli import main

    path = tmp_path / "r.csv"
    path.write_text("a,b,c\n1,1,2\n2,2,2\n3,3,3\n2,3,2\n1,1,1\n3,2,3\n2,2,1\n1,2,1\n")
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert main([word.replace("{file}", str(path)) for word in argv]) == 141
    assert "error" not in capsys.readouterr().err


def test_a_closed_output_pipe_in_a_real_pipeline(tmp_path):
    """The process itself: no message, exit code 141 (128 + SIGPIPE, as a shell reports for a
    Unix tool stopped by `| head`), nothing printed at the interpreter's exit."""
    import subprocess
    import sys

    path = tmp_path / "wide.csv"  # 103 categories: an output far larger than a pipe's buffer
    path.write_text("a,b\n" + "".join(f"{i % 3 + 1},{-i}\n" for i in range(100)))
    process = subprocess.Popen(
        [sys.executable, "-m", "wkappa", "score", str(path), "--true", "a", "--pred", "b"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"wkappa score")
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141
    assert err == b""
