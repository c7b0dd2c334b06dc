"""A blank line in a CSV file is not a row: every command skips it and says so in its file
rows, while a line of separators only (``,,``) is a row whose ratings are all missing."""

from __future__ import annotations

import gzip
import io
import json
import sys

import pytest

from wkappa._cli import main

pytest.importorskip("polars")

CLEAN = "a,b,c\n1,2,2\n2,2,3\n3,3,3\n1,1,2\n2,1,2\n"

# (command, its column options): every command that reads a rating file.
COMMANDS = [
    ("agree", ["--raters", "a,b,c"]),
    ("judge", ["--candidate", "c", "--raters", "a,b"]),
    ("icc", ["--raters", "a,b,c"]),
    ("score", ["--true", "a", "--pred", "b"]),
    ("compare", ["--true", "a", "--pred", "b", "--pred", "c"]),
    ("thresholds", ["--true", "a", "--score", "b"]),
]

# file text -> the data rows its blank lines would have been
BLANK = {
    "middle": ("a,b,c\n1,2,2\n2,2,3\n\n3,3,3\n1,1,2\n2,1,2\n", "1 blank line skipped (row 3)"),
    "end": (CLEAN + "\n", "1 blank line skipped (row 6)"),
    "several": (
        "a,b,c\n\n1,2,2\n2,2,3\n\n\n3,3,3\n1,1,2\n2,1,2\n\n",
        "4 blank lines skipped (rows 1, 4, 5, ...)",
    ),
    "crlf": (
        "a,b,c\r\n1,2,2\r\n2,2,3\r\n\r\n3,3,3\r\n1,1,2\r\n2,1,2\r\n\r\n",
        "2 blank lines skipped (rows 3, 7)",
    ),
    "whitespace": ("a,b,c\n1,2,2\n2,2,3\n  \t \n3,3,3\n1,1,2\n2,1,2\n", "1 blank line skipped"),
}


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _file_rows(out: str) -> str:
    return next(line for line in out.splitlines() if "file rows" in line)


def _json(capsys, argv: list[str]) -> dict:
    code, out, err = _run(capsys, [*argv, "--format", "json", "--quiet"])
    assert code == 0, err
    document = json.loads(out)
    document.pop("file")
    return document


@pytest.mark.parametrize("kind", list(BLANK))
@pytest.mark.parametrize(("command", "columns"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_a_blank_line_is_not_a_row(tmp_path, capsys, command, columns, kind):
    """polars reads a blank line as a row of missing values: agree said "1 dropped: no
    rating at all", icc "1 item without any rating left out", and score, compare and
    thresholds refused the file (a missing rating under --nan-policy raise)."""
    text, said = BLANK[kind]
    clean, blank = tmp_path / "clean.csv", tmp_path / "blank.csv"
    clean.write_text(CLEAN)
    blank.write_bytes(text.encode())
    code, out, err = _run(capsys, [command, str(blank), *columns])
    assert code == 0, err
    assert _file_rows(out).endswith(f"5 read, all used; {said}") or said in _file_rows(out)
    assert "all used" in _file_rows(out) and "dropped" not in out and "left out" not in out
    if command != "icc":  # the same result as without the blank lines (icc has no JSON rows)
        seed = ["--seed", "1"] if command in ("judge", "compare") else []  # their bootstrap
        assert _json(capsys, [command, str(blank), *columns, *seed]) == _json(
            capsys, [command, str(clean), *columns, *seed]
        )


@pytest.mark.parametrize(("command", "columns"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_a_line_of_separators_stays_a_row(tmp_path, capsys, command, columns):
    """``,,`` is a row whose every rating is missing: dropped as one (or refused under
    --nan-policy raise, naming it as a row without any value), not skipped."""
    path = tmp_path / "separators.csv"
    path.write_text("a,b,c\n1,2,2\n2,2,3\n,,\n3,3,3\n1,1,2\n2,1,2\n")
    code, out, err = _run(capsys, [command, str(path), *columns, "--nan-policy", "omit"])
    assert code == 0, err
    assert _file_rows(out).split("file rows")[1].strip().startswith("6 read, 5 used, 1 dropped")
    assert "blank line" not in out
    if command in ("score", "compare", "thresholds", "icc"):
        code, _, err = _run(capsys, [command, str(path), *columns, "--nan-policy", "raise"])
        assert code == 2 and ", row 3: " in err, err


def test_a_row_after_blank_lines_is_named_by_its_row_in_the_file(tmp_path, capsys):
    """The blank lines are not read, but the rows after them keep their numbers: a refused
    rating is named where the file has it."""
    path = tmp_path / "gap.csv"
    path.write_text("a,b,c\n1,2,2\n\n\n2,,3\n3,3,3\n")
    for command, columns in COMMANDS[:4]:
        code, _, err = _run(capsys, [command, str(path), *columns, "--nan-policy", "raise"])
        assert code == 2 and "gap.csv, row 4: " in err and "'b'" in err, (command, err)
    path.write_text("a,b,c\n1,2,2\n\n\n2,inf,3\n3,3,3\n")
    code, _, err = _run(capsys, ["icc", str(path), "--raters", "a,b,c"])
    assert code == 2 and "gap.csv, row 4: column 'b' contains inf" in err, err


def test_a_blank_line_of_a_long_file_is_not_a_rating(tmp_path, capsys):
    """A long export's blank line was a row without item, rater or rating: icc refused it
    under --nan-policy raise, agree counted it as dropped."""
    path = tmp_path / "long.csv"
    path.write_text("item,rater,grade\n1,a,1\n1,b,1\n\n2,a,2\n2,b,3\n3,a,3\n3,b,3\n\n")
    layout = ["--item", "item", "--rater", "rater", "--rating", "grade"]
    for command in ("agree", "icc", "judge"):
        extra = ["--candidate", "a"] if command == "judge" else []
        argv = [command, str(path), *layout, *extra, "--nan-policy", "raise"]
        code, out, err = _run(capsys, argv)
        if command == "judge":  # a panel of one: refused for that, not for a blank line
            assert code == 2 and "blank" not in err
            continue
        assert code == 0, err
        assert "6 read, all used; 2 blank lines skipped (rows 3, 8)" in _file_rows(out)


def test_blank_lines_in_standard_input_and_in_a_gzip_file(tmp_path, capsys, monkeypatch):
    text, said = BLANK["crlf"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, err = _run(capsys, ["agree", "-", "--raters", "a,b,c"])
    assert code == 0 and said in _file_rows(out), err
    path = tmp_path / "blank.csv.gz"
    path.write_bytes(gzip.compress(text.encode()))
    code, out, err = _run(capsys, ["agree", str(path), "--raters", "a,b,c"])
    assert code == 0 and said in _file_rows(out), err


def test_a_blank_line_inside_a_quoted_value_is_part_of_it(tmp_path, capsys):
    """A quoted value over several lines (a note with an empty line in it) is one row: its
    empty line is not a blank line, and the file's lines are not its rows."""
    path = tmp_path / "notes.csv"
    path.write_text('a,b,c,note\n1,2,2,"first\n\nsecond"\n\n2,2,3,\n3,3,3,\n1,1,2,x\n2,1,2,\n')
    code, out, err = _run(capsys, ["agree", str(path), "--raters", "a,b,c"])
    assert code == 0, err
    assert "5 read, all used; 1 blank line skipped (row 2)" in _file_rows(out)


def test_blank_lines_with_weights_and_clusters(tmp_path, capsys):
    """A blank line has no sample weight and no cluster id: neither is refused for it."""
    path = tmp_path / "weighted.csv"
    path.write_text("a,b,w,g\n1,2,1,x\n\n2,2,1,x\n3,3,2,y\n1,1,1,y\n2,1,3,z\n\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b"]
    code, out, err = _run(capsys, [*argv, "--weight-col", "w"])
    assert code == 0 and "2 blank lines skipped (rows 2, 7)" in _file_rows(out), err
    code, out, err = _run(capsys, [*argv, "--cluster", "g"])
    assert code == 0 and "2 blank lines skipped" in _file_rows(out), err
    code, out, err = _run(capsys, ["agree", str(path), "--raters", "a,b", "--cluster", "g"])
    assert code == 0 and "2 blank lines skipped" in _file_rows(out), err


def test_a_file_of_blank_lines_only_has_no_data_rows(tmp_path, capsys):
    path = tmp_path / "empty.csv"
    path.write_text("a,b,c\n\n\r\n  \n")
    code, _, err = _run(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert code == 2
    assert "has a header but no data rows (only 3 blank lines); there is nothing" in err


def test_a_blank_line_is_named_by_its_row_as_messages_name_rows(tmp_path, capsys):
    """Rows are numbered as every message numbers them ("row 1201", not "row 1,201")."""
    path = tmp_path / "long.csv"
    path.write_text("a,b\n" + "1,2\n2,2\n" * 600 + "\n")
    code, out, err = _run(capsys, ["agree", str(path), "--raters", "a,b"])
    assert code == 0 and "1,200 read, all used; 1 blank line skipped (row 1201)" in out, err
