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


@pytest.mark.parametrize(
    "command",
    [["agree", "--raters", "a,b"], ["score", "--true", "a", "--pred", "b"]],
)
def test_a_label_with_a_comma_is_written_with_a_backslash(tmp_path, capsys, command):
    """'mild, early' could not be given to --labels, and the error read as if it were there
    ("'mild, early', which is not in --labels none,mild, early,severe")."""
    path = tmp_path / "comma.csv"
    path.write_text('a,b\n"mild, early","mild, early"\nsevere,"mild, early"\nnone,none\n')
    argv = [command[0], str(path), *command[1:], "--weights", "unweighted"]
    err = refusal(capsys, [*argv, "--labels", "none,mild, early,severe"])
    assert "row 1: column 'a' holds 'mild, early', which is not one of the --labels" in err, err
    assert "a comma in --labels separates two labels" in err
    assert "Hint: write its comma as \\, to keep it one label" in err
    assert "--labels 'none,mild\\, early,severe'." in err
    err = refusal(capsys, [*argv, "--labels", "none,severe"])
    assert "add it to --labels, writing its comma as \\," in err, err
    assert "--labels 'none,severe,mild\\, early'" in err
    document = json_output(capsys, [*argv, "--labels", "none,mild\\, early,severe"])
    assert document["labels"] == ["none", "mild, early", "severe"]


def test_a_column_name_with_a_comma_is_written_with_a_backslash(tmp_path, capsys):
    path = tmp_path / "names.csv"
    path.write_text('"reader, one",reader2\n1,1\n2,2\n3,2\n')
    document = json_output(capsys, ["agree", str(path), "--raters", "reader\\, one,reader2"])
    assert document["raters"] == ["reader, one", "reader2"]


def test_na_values_take_the_comma_escape(tmp_path, capsys):
    path = tmp_path / "codes.csv"
    path.write_text('a,b\n1,1\n2,"n, a"\n3,3\n1,2\n')
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    assert json_output(capsys, [*argv, "--na-values", "-99, n\\, a"])["n"] == 3


@pytest.mark.parametrize(
    ("command", "fix"),
    [
        (["agree", "--raters", "reader1, reader2"], "--raters reader1,reader2."),
        (["icc", "--raters", "reader1, reader2"], "--raters reader1,reader2."),
        (["score", "--true", "reader1 ", "--pred", "reader2"], "--true reader1."),
    ],
)
def test_spaces_in_the_option_value_are_named_as_the_value_s(tmp_path, capsys, command, fix):
    """The hint said the file's column had surrounding spaces when they were in the
    argument."""
    path = tmp_path / "sp.csv"
    path.write_text("reader1,reader2\n1,1\n2,2\n3,2\n")
    err = refusal(capsys, [command[0], str(path), *command[1:]])
    option = command[1]
    assert f"Hint: the space is in the value of {option}" in err, err
    assert "with surrounding spaces" not in err
    assert err.endswith(fix), err


def test_spaces_in_the_file_s_header_are_not_part_of_the_name(tmp_path, capsys):
    path = tmp_path / "sp.csv"
    path.write_text("reader1, reader2\n1,1\n2,2\n3,2\n")
    document = json_output(capsys, ["agree", str(path), "--raters", "reader1,reader2"])
    assert document["raters"] == ["reader1", "reader2"]
    err = refusal(capsys, ["agree", str(path), "--raters", "reader1, reader2"])
    assert err.endswith("--raters reader1,reader2."), err


def test_labels_and_na_values_are_stripped_around_the_commas(tmp_path, capsys):
    path = tmp_path / "words.csv"
    path.write_text("a,b\nnone,none\nmild,-9\nsevere,mild\n")
    argv = ["agree", str(path), "--raters", "a,b", "--labels", "none, mild , severe"]
    assert json_output(capsys, [*argv, "--na-values", " -9, ."])["labels"] == [
        "none",
        "mild",
        "severe",
    ]
