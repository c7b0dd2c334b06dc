"""``--labels`` and the other comma-separated options of the command line: how the ratings
they name are read, how the lists are split, and the hints of a refused rating."""

from __future__ import annotations

import pytest

from cli_calls import json_output, refusal


@pytest.mark.parametrize("cell", ["+2", " 2 ", "2.0", "2e0"])
@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b"],
        ["compare", "--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "99"],
    ],
)
def test_a_number_spelled_otherwise_is_a_number_with_labels(tmp_path, capsys, cell, command):
    """``+2`` or `` 2 `` made its column "words" with --labels (the run was refused, or
    ``' 2 '`` was a spelling of the label '2'), though the file scores without --labels."""
    path = tmp_path / "spelled.csv"
    path.write_text(f"a,b,c\n{cell},1,1\n2,2,2\n3,3,3\n1,2,1\n")
    argv = [command[0], str(path), *command[1:]]
    plain = json_output(capsys, argv)
    labelled = json_output(capsys, [*argv, "--labels", "1,2,3"])
    assert labelled["labels"] == [1, 2, 3]
    for key in ("kappa", "statistic", "kappa_a"):
        if key in plain:
            assert labelled[key] == plain[key]


def test_a_column_with_a_word_keeps_its_words_with_labels(tmp_path, capsys):
    """A column of numbers and words is read as words when --labels lists them all."""
    path = tmp_path / "words.csv"
    path.write_text("a,b\n1,1\nmild,mild\n2,mild\n1,2\n")
    document = json_output(capsys, ["agree", str(path), "--raters", "a,b", "--labels", "1,mild,2"])
    assert document["labels"] == ["1", "mild", "2"]


@pytest.mark.parametrize("code", [".", "n/a", "-"])
@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b"],
        ["judge", "--candidate", "a", "--raters", "b,c", "--bootstrap", "99"],
        ["compare", "--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "99"],
    ],
)
def test_a_missing_value_spelling_gets_the_na_values_hint_with_labels(
    tmp_path, capsys, code, command
):
    """With --labels, '.' got "add it to --labels or fix the data", which would make it a
    category; without --labels it got the --na-values hint."""
    path = tmp_path / "dots.csv"
    path.write_text(f"a,b,c\nmild,mild,mild\nsevere,{code},mild\nnone,none,none\n")
    argv = [command[0], str(path), *command[1:], "--labels", "none,mild,severe"]
    err = refusal(capsys, argv)
    assert f"row 2: column 'b' holds '{code}', which reads as a missing value" in err, err
    assert f"Hint: declare it missing with --na-values='{code}'" in err
    assert "add it to --labels" not in err
    # declared missing, the row is dropped (or its rating left out) and the run goes on
    assert json_output(capsys, [*argv, f"--na-values={code}", "--nan-policy", "omit"])


def test_a_missing_value_spelling_among_numbers_gets_the_na_values_hint(tmp_path, capsys):
    path = tmp_path / "dots.csv"
    path.write_text("a,b\n1,1\n2,.\n3,3\n1,2\n")
    err = refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b", "--labels", "1,2,3"])
    assert "column 'b' holds '.', which reads as a missing value" in err, err
    assert "Hint: declare it missing with --na-values='.'" in err


def test_labels_that_list_a_missing_value_spelling_keep_it(tmp_path, capsys):
    path = tmp_path / "dots.csv"
    path.write_text("a,b\nmild,mild\nsevere,.\n.,.\n")
    argv = ["agree", str(path), "--raters", "a,b", "--labels", "mild,severe,."]
    assert json_output(capsys, argv)["labels"] == ["mild", "severe", "."]
