"""A blank line of the file ``wkappa thresholds --apply`` grades is not a row, as in every
file the command line reads: it gets no grade, is not written to ``--out``, and the note of
the file written names it by its row; a line of separators only (``,,``) stays a row."""

from __future__ import annotations

import gzip
import json

import pytest

from wkappa._cli import main

pl = pytest.importorskip("polars")

FIT = "a,b\n1,0.1\n2,0.5\n3,0.9\n1,0.2\n2,0.6\n3,0.8\n"

# the --apply file's text -> what the note says of its blank lines
BLANK = {
    "middle": ("id,b\nx,0.1\ny,0.55\n\nz,0.95\n", "1 blank line skipped (row 3)"),
    "end": ("id,b\nx,0.1\ny,0.55\nz,0.95\n\n", "1 blank line skipped (row 4)"),
    "crlf": (
        "id,b\r\nx,0.1\r\ny,0.55\r\n\r\nz,0.95\r\n\r\n",
        "2 blank lines skipped (rows 3, 5)",
    ),
    "spaces": ("id,b\nx,0.1\n  \t \ny,0.55\nz,0.95\n", "1 blank line skipped (row 2)"),
}
ROWS = [{"id": "x", "b": 0.1, "grade": 1}, {"id": "y", "b": 0.55, "grade": 2}]
ROWS.append({"id": "z", "b": 0.95, "grade": 3})


def _apply(tmp_path, capsys, text: str, out: str, *extra: str) -> tuple[int, str]:
    """Fit on FIT, grade the file ``text`` into ``out``: (exit code, stderr)."""
    fit, other = tmp_path / "fit.csv", tmp_path / "other.csv"
    fit.write_text(FIT)
    other.write_bytes(text.encode())
    argv = ["thresholds", str(fit), "--true", "a", "--score", "b", "--apply", str(other)]
    code = main([*argv, "--out", str(tmp_path / out), *extra])
    return code, capsys.readouterr().err


def _read(path) -> list[dict]:
    name = str(path)
    if name.endswith(".parquet"):
        return pl.read_parquet(path).to_dicts()
    if name.endswith(".arrow"):
        return pl.read_ipc(path).to_dicts()
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in path.read_text().splitlines()]
    separator = "\t" if name.endswith(".tsv") else ","
    return pl.read_csv(path, separator=separator).to_dicts()


@pytest.mark.parametrize("out", ["out.csv", "out.tsv", "out.parquet", "out.arrow", "out.jsonl"])
@pytest.mark.parametrize("kind", list(BLANK))
def test_a_blank_line_is_not_written(tmp_path, capsys, kind, out):
    """It was refused as a missing score (row 3), or, with --nan-policy omit, written as a
    row of empty cells."""
    text, said = BLANK[kind]
    code, err = _apply(tmp_path, capsys, text, out)
    assert code == 0, err
    assert _read(tmp_path / out) == ROWS
    assert f"(column 'grade' added); {tmp_path / 'other.csv'}: {said}" in err


@pytest.mark.parametrize("kind", list(BLANK))
def test_omit_writes_one_row_per_data_row(tmp_path, capsys, kind):
    text, said = BLANK[kind]
    code, err = _apply(tmp_path, capsys, text, "out.csv", "--nan-policy", "omit")
    assert code == 0, err
    assert (tmp_path / "out.csv").read_text() == "id,b,grade\nx,0.1,1\ny,0.55,2\nz,0.95,3\n"
    assert said in err


def test_a_missing_score_after_a_blank_line_is_named_by_its_row_in_the_file(tmp_path, capsys):
    text = "id,b\nx,0.1\n\ny,\nz,0.9\n"
    code, err = _apply(tmp_path, capsys, text, "out.csv")
    assert code != 0
    assert "other.csv, row 3: column 'b' has a missing score." in err
    code, err = _apply(tmp_path, capsys, text, "out.parquet", "--nan-policy", "omit")
    assert code == 0, err
    graded = pl.read_parquet(tmp_path / "out.parquet")
    assert graded.to_dicts() == [
        {"id": "x", "b": 0.1, "grade": 1},
        {"id": "y", "b": None, "grade": None},
        {"id": "z", "b": 0.9, "grade": 3},
    ]
    assert "1 blank line skipped (row 2)" in err


def test_a_line_of_separators_stays_a_row(tmp_path, capsys):
    """``,,`` is a row whose every value is missing (as the reader says): written back with
    an empty grade under --nan-policy omit, refused under raise; no blank line is said."""
    text = "id,b\nx,0.1\n,\ny,0.5\n"
    code, err = _apply(tmp_path, capsys, text, "out.csv")
    assert code != 0 and "other.csv, row 2: column 'b' has a missing score." in err
    code, err = _apply(tmp_path, capsys, text, "out.csv", "--nan-policy", "omit")
    assert code == 0, err
    assert (tmp_path / "out.csv").read_text() == "id,b,grade\nx,0.1,1\n,,\ny,0.5,2\n"
    assert "blank line" not in err


def test_a_file_of_one_column_reads_a_blank_line_as_a_missing_score(tmp_path, capsys):
    """With one column a blank line is an empty cell, as every reader takes it."""
    code, err = _apply(tmp_path, capsys, "b\n0.1\n\n0.9\n", "out.csv")
    assert code != 0 and "other.csv, row 2: column 'b' has a missing score." in err


def test_quotes_separator_line_and_gzip(tmp_path, capsys):
    """The reader's own rules: a quoted value's blank line is part of the value, Excel's
    ``sep=;`` line is not a row, and a gzip-compressed file is read through."""
    text = 'id,b\n"x\n\nq",0.1\n\ny,0.5\n'
    code, err = _apply(tmp_path, capsys, text, "out.jsonl")
    assert code == 0, err
    assert _read(tmp_path / "out.jsonl") == [
        {"id": "x\n\nq", "b": 0.1, "grade": 1},
        {"id": "y", "b": 0.5, "grade": 2},
    ]
    assert "1 blank line skipped (row 2)" in err
    text = "sep=;\nid;b\nx;0,1\n\ny;0,5\n\n"
    code, err = _apply(tmp_path, capsys, text, "out.csv", "--apply-decimal-comma")
    assert code == 0, err
    assert (tmp_path / "out.csv").read_text() == "id;b;grade\nx;0,1;1\ny;0,5;2\n"
    assert "2 blank lines skipped (rows 2, 4)" in err
    fit, other = tmp_path / "fit.csv", tmp_path / "other.csv.gz"
    other.write_bytes(gzip.compress(b"id,b\nx,0.1\n\ny,0.5\n\n"))
    argv = ["thresholds", str(fit), "--true", "a", "--score", "b", "--apply", str(other)]
    assert main([*argv, "--out", str(tmp_path / "gz.parquet")]) == 0
    assert "other.csv.gz: 2 blank lines skipped (rows 2, 4)" in capsys.readouterr().err
    assert pl.read_parquet(tmp_path / "gz.parquet")["grade"].to_list() == [1, 2]


def test_without_blank_lines_the_note_is_as_before(tmp_path, capsys):
    code, err = _apply(tmp_path, capsys, "id,b\nx,0.1\ny,0.55\nz,0.95\n", "out.parquet")
    assert code == 0, err
    assert err.strip().endswith("(column 'grade' added)")
    assert _read(tmp_path / "out.parquet") == ROWS


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("id,b\n", ""),
        ("id,b\n\n\r\n", " (only 2 blank lines)"),
        ("id,b\n\n", " (only 1 blank line)"),
    ],
)
def test_a_file_without_data_rows_is_refused_as_such(tmp_path, capsys, text, said):
    """A header over blank lines only was refused as "column 'b' ... must hold numbers"."""
    code, err = _apply(tmp_path, capsys, text, "out.csv")
    assert code != 0
    assert f"other.csv (--apply) has a header but no data rows{said}; there is nothing" in err
    assert not (tmp_path / "out.csv").exists()
