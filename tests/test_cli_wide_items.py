"""``--item COL`` beside ``--raters`` in ``agree`` and ``judge``: a wide file's column of item
ids, so that an item given twice (a row pasted twice, two exports joined) is refused instead
of counted twice. Without it, a wide file had no way to name its items."""

from __future__ import annotations

import json

import pytest

from cli_calls import refusal
from wkappa._cli import main

pytest.importorskip("polars")

ROWS = "id,a,b,c\np1,1,2,2\np2,2,2,3\np3,3,3,3\np4,1,1,2\np5,2,1,2\n"
COMMANDS = {
    "agree": ["--raters", "a,b,c"],
    "judge": ["--candidate", "c", "--raters", "a,b", "--seed", "1"],
}


def _json(capsys, argv: list[str]) -> dict:
    assert main([*argv, "--format", "json", "--quiet"]) == 0, capsys.readouterr().err
    document = json.loads(capsys.readouterr().out)
    document.pop("file")
    return document


@pytest.mark.parametrize("command", list(COMMANDS))
def test_unique_item_ids_change_nothing(tmp_path, capsys, command):
    path = tmp_path / "wide.csv"
    path.write_text(ROWS)
    argv = [command, str(path), *COMMANDS[command]]
    assert _json(capsys, [*argv, "--item", "id"]) == _json(capsys, argv)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_item_id_on_two_rows_is_refused_naming_both(tmp_path, capsys, command):
    path = tmp_path / "twice.csv"
    path.write_text(ROWS + "\np2,2,2,3\n")  # row 6 is a blank line, not a row
    argv = [command, str(path), *COMMANDS[command]]
    assert main([*argv, "--quiet"]) == 0  # without ids the row is one more item
    capsys.readouterr()
    err = refusal(capsys, [*argv, "--item", "id"])
    assert "twice.csv: --item column 'id' has the id 'p2' twice (rows 2 and 7)" in err, err
    assert "Hint: remove the repeated row, or give each row its own id." in err


def test_numeric_ids_are_compared_as_the_file_writes_them(tmp_path, capsys):
    """``7`` and ``07`` are one id or two: refused as ambiguous, as every id column is."""
    path = tmp_path / "numbers.csv"
    path.write_text("id,a,b\n7,1,2\n8,2,2\n07,3,3\n")
    err = refusal(capsys, ["agree", str(path), "--raters", "a,b", "--item", "id"])
    assert "--item column 'id' has the ids '7' (row 1) and '07' (row 3)" in err, err
    path.write_text("id,a,b\n7,1,2\n8,2,2\n7,3,3\n")
    err = refusal(capsys, ["agree", str(path), "--raters", "a,b", "--item", "id"])
    assert "has the id 7 twice (rows 1 and 3)" in err, err


def test_a_typed_file_s_ids_keep_their_type(tmp_path, capsys):
    pl = pytest.importorskip("polars")
    path = tmp_path / "typed.parquet"
    pl.DataFrame({"id": [10, 11, 10], "a": [1, 2, 3], "b": [1, 2, 2]}).write_parquet(path)
    err = refusal(capsys, ["agree", str(path), "--raters", "a,b", "--item", "id"])
    assert "has the id 10 twice (rows 1 and 3)" in err, err


def test_a_missing_id_is_refused_only_on_a_row_with_ratings(tmp_path, capsys):
    path = tmp_path / "gaps.csv"
    path.write_text("id,a,b\np1,1,2\n,,\np3,3,3\np4,2,2\n")
    argv = ["agree", str(path), "--raters", "a,b", "--item", "id"]
    assert main([*argv, "--quiet"]) == 0, capsys.readouterr().err  # row 2 rates nothing
    capsys.readouterr()
    path.write_text("id,a,b\np1,1,2\n,2,\np3,3,3\n")
    err = refusal(capsys, argv)
    assert "gaps.csv, row 2: --item column 'id' has a missing id" in err, err


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["agree", "--raters", "a,b,id", "--item", "id"], "--item 'id' is also given to --raters"),
        (
            ["judge", "--raters", "a,b", "--candidate", "id", "--item", "id"],
            "--item 'id' is also given to --candidate",
        ),
        (
            ["agree", "--raters", "a,b", "--item", "id", "--cluster", "id"],
            "--cluster names the --item column 'id'",
        ),
        (["agree", "--raters", "a,b", "--item", "id", "--rater", "a"], "Give either --raters"),
        (["icc", "--raters", "a,b", "--item", "id"], "Give either --raters"),
    ],
    ids=["in raters", "candidate", "cluster", "long option", "icc"],
)
def test_an_item_column_that_cannot_be_one_is_refused(tmp_path, capsys, argv, expected):
    path = tmp_path / "wide.csv"
    path.write_text(ROWS)
    err = refusal(capsys, [argv[0], str(path), *argv[1:]])
    assert expected in err, err
