"""A file that spells a missing rating several ways (``.``, ``-``, ``n/a``, ``#N/A``, as
exports from spreadsheets, SAS and R mix them): the one-line refusal declares every spelling
in one ``--na-values``, so the user fixes the command once instead of once per spelling, and
the command it offers runs."""

from __future__ import annotations

import shlex

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal

# Two rating columns of numbers, their missing cells spelled five ways (NA is missing already).
_NUMBERS = "a,b,c\n1,1,1\n.,2,2\n3,-,3\n2,n/a,2\n4,#N/A,4\n2,3,2\n3,NA,3\n1,2,-\n4,3,4\n"
_CODES = "--na-values='.,#N/A,-,n/a'"


def _offered(err: str) -> list[str]:
    """The --na-values option the refusal offers, as argv words."""
    start = err.index("--na-values=")
    return shlex.split(err[start:].rstrip("."))[:1]


@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b", "--nan-policy", "omit"],
        ["agree", "--raters", "a,b,c"],
        ["judge", "--candidate", "c", "--raters", "a,b", "--bootstrap", "99", "--seed", "1"],
        ["icc", "--raters", "a,b,c"],
    ],
)
def test_every_missing_spelling_of_numbers_is_named_in_one_refusal(tmp_path, capsys, command):
    """Each spelling was refused in its own run ('.', then '-', then 'n/a', then '#N/A'):
    four failed runs to learn what one message can say."""
    path = tmp_path / "coded.csv"
    path.write_text(_NUMBERS)
    argv = [command[0], str(path), *command[1:]]
    err = refusal(capsys, argv)
    assert "has the unparsable value" in err and "declare them all at once: " in err, err
    offered = _offered(err)
    assert sorted(offered[0].split("=")[1].split(",")) == ["#N/A", "-", ".", "n/a"], err
    assert json_output(capsys, [*argv, *offered])


def test_the_declared_codes_give_the_library_kappa(tmp_path, capsys):
    path = tmp_path / "coded.csv"
    path.write_text(_NUMBERS)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    document = json_output(capsys, [*argv, _CODES.replace("'", "")])
    a = np.array([1, np.nan, 3, 2, 4, 2, 3, 1, 4])
    b = np.array([1, 2, np.nan, np.nan, np.nan, 3, np.nan, 2, 3])
    kept = ~np.isnan(a) & ~np.isnan(b)
    assert document["statistic"] == wk.qwk(a[kept].astype(int), b[kept].astype(int))
    assert document["rows_dropped"] == 5


def test_the_spelling_of_the_named_cell_comes_first(tmp_path, capsys):
    path = tmp_path / "coded.csv"
    path.write_text(_NUMBERS)
    err = refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert "row 2: column 'a' has the unparsable value '.'" in err, err
    assert "declare them all at once: --na-values='.,#N/A,-,n/a'." in err, err


def test_one_spelling_keeps_the_one_cell_hint(tmp_path, capsys):
    path = tmp_path / "dot.csv"
    path.write_text("a,b\n1,1\n2,.\n3,3\n")
    err = refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert "declare it: --na-values='.'." in err, err


@pytest.mark.parametrize(
    "extra", [[], ["--labels", "none,mild,severe"]], ids=["no labels", "labels"]
)
def test_every_missing_spelling_among_words_is_named_in_one_refusal(tmp_path, capsys, extra):
    """Text ratings: '.' in one column and '-' in another were refused one after the other."""
    path = tmp_path / "words.csv"
    path.write_text("a,b,c\nmild,.,mild\n-,mild,none\nsevere,severe,n/a\nnone,none,none\n")
    argv = ["agree", str(path), "--raters", "a,b,c", *extra]
    err = refusal(capsys, argv)
    assert "row 1: column 'b' holds '.', which reads as a missing value" in err, err
    assert "declare them all missing with --na-values='.,-,n/a'" in err, err
    assert "list them in --labels to keep them as categories" in err
    assert json_output(capsys, [*argv, *_offered(err)])["n_ratings"] == 9


def test_every_missing_spelling_among_numbers_with_labels(tmp_path, capsys):
    path = tmp_path / "dots.csv"
    path.write_text("a,b\n1,1\n2,.\n3,3\n1,-\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--labels", "1,2,3"]
    err = refusal(capsys, argv)
    assert "column 'b' holds '-', which reads as a missing value" in err, err
    assert "declare them all missing with --na-values='-,.'" in err, err


@pytest.mark.parametrize("command", [["score"], ["compare", "--pred", "c"]])
def test_a_missing_text_rating_is_named_by_its_row(tmp_path, capsys, command):
    """Text ratings with quadratic weights and no --labels: the missing rating was refused
    without its row ("column 'b' has a missing rating (NaN/None/NA)"), as no single rating
    could be checked alone (each is also refused as unordered)."""
    path = tmp_path / "words.csv"
    path.write_text("a,b,c\nmild,mild,mild\nsevere,severe,mild\nmild,NA,mild\nsevere,mild,mild\n")
    argv = [command[0], str(path), "--true", "a", "--pred", "b", *command[1:]]
    err = refusal(capsys, [*argv, "--bootstrap", "99"] if command[0] == "compare" else argv)
    assert "row 3: column 'b' has a missing rating. Hint: --nan-policy omit" in err, err
