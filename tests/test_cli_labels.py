"""``--labels`` and the other comma-separated options of the command line: how the ratings
they name are read, how the lists are split, and the hints of a refused rating."""

from __future__ import annotations

import pytest

from cli_calls import json_output


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
