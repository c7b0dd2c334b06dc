"""``wkappa agree``: wide and long files, outputs and error rules (exit 2, one line)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main

pytest.importorskip("polars")

# irrCAC's cac.raw4raters (R package irrCAC): 12 items, 4 raters, missing ratings.
ROWS = [
    [1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1],
    [None, None, 3, None],
]  # fmt: skip


@pytest.fixture
def files(tmp_path):
    wide = tmp_path / "wide.csv"
    long = tmp_path / "long.csv"
    wide.write_text(
        "unit,r1,r2,r3,r4\n"
        + "".join(
            f"{i}," + ",".join("" if v is None else str(v) for v in row) + "\n"
            for i, row in enumerate(ROWS)
        )
    )
    long.write_text(
        "unit,coder,grade\n"
        + "".join(
            f"{i},c{g},{v}\n"
            for i, row in enumerate(ROWS)
            for g, v in enumerate(row)
            if v is not None
        )
    )
    return wide, long


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_wide_and_long_json_match_the_library(files, capsys, coefficient):
    wide, long = files
    expected = wk.agreement(
        np.array(ROWS, dtype=float), coefficient=coefficient, weights="quadratic"
    )
    for argv in (
        [str(wide), "--raters", "r1,r2,r3,r4"],
        [str(long), "--item", "unit", "--rater", "coder", "--rating", "grade"],
    ):
        code = main(["agree", *argv, "--coefficient", coefficient, "--weights", "quadratic",
                     "--format", "json"])  # fmt: skip
        assert code == 0
        document = json.loads(capsys.readouterr().out)
        assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-14)
        assert document["standard_error"] == pytest.approx(expected.standard_error, abs=1e-14)
        assert document["n_items"] == 12 and document["n_ratings"] == 41


def test_text_and_csv(files, capsys):
    wide, _ = files
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Fleiss' kappa" in out and "0.761169" in out and "pa = " in out
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--format", "csv"]) == 0
    header, row = capsys.readouterr().out.strip().splitlines()
    assert header.startswith("coefficient,statistic") and row.startswith("fleiss,0.761169")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--raters", "r1,rX"], "no column 'rX'"),
        (["--raters", "r1"], "at least two columns"),
        ([], "Give either --raters"),
        (["--item", "unit"], "Give either --raters"),
        (["--raters", "r1,r2", "--labels", "1,2"], "not in `labels`|not in --labels"),
    ],
)
def test_errors_are_one_line_exit_2(files, capsys, argv, message):
    wide, _ = files
    if argv and argv[0] == "--item":
        argv = [*argv, "--raters", "r1,r2"]
    code = main(["agree", str(wide), *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.count("\n") == 0 and err.startswith("wkappa: error:")
    import re

    assert re.search(message, err), err


def test_long_layout_refuses_a_repeated_rating(tmp_path, capsys):
    path = tmp_path / "long.csv"
    path.write_text("unit,coder,grade\n1,a,1\n1,a,2\n1,b,1\n2,a,1\n2,b,1\n")
    assert (
        main(["agree", str(path), "--item", "unit", "--rater", "coder", "--rating", "grade"]) == 2
    )
    assert "more than once" in capsys.readouterr().err
