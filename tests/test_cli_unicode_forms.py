"""One label written in two Unicode forms: 'sévère' with 'é' as one character (NFC, as most
keyboards type it) and as 'e' plus a combining accent (NFD, as macOS may write it). They
print alike, but were two categories (kappa lower, without a visible cause) or, with
--labels, a rating "not in --labels mild,sévère" beside the very label it names."""

from __future__ import annotations

import unicodedata

import pytest

import wkappa as wk
from cli_calls import json_output, refusal

NFC = unicodedata.normalize("NFC", "sévère")
NFD = unicodedata.normalize("NFD", "sévère")


def _file(tmp_path, a_form: str, b_form: str):
    path = tmp_path / "forms.csv"
    rows = [
        (a_form, b_form),
        ("mild", "mild"),
        ("mild", b_form),
        (a_form, "mild"),
        ("mild", "mild"),
    ]
    path.write_text("a,b,c\n" + "\n".join(f"{a},{b},mild" for a, b in rows) + "\n")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b", "--weights", "unweighted"],
        ["agree", "--raters", "a,b"],
        ["judge", "--raters", "a,c", "--candidate", "b", "--bootstrap", "99"],
    ],
)
@pytest.mark.parametrize("labels", [[], ["--labels", f"mild,{NFC}"]], ids=["", "labels"])
def test_two_forms_of_one_label_are_refused(tmp_path, capsys, command, labels):
    path = _file(tmp_path, NFD, NFC)
    err = refusal(capsys, [command[0], str(path), *command[1:], *labels])
    assert "forms.csv, row 1: " in err and " in column '" in err, err
    assert "only by Unicode form" in err and "(composed, NFC)" in err, err
    assert "(decomposed, NFD)" in err or "is not in --labels" in err, err
    assert "Hint: convert the file to one form, the composed one (NFC): python3 -c" in err, err


def test_one_form_scores_as_the_library(tmp_path, capsys):
    path = _file(tmp_path, NFC, NFC)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weights", "unweighted"]
    document = json_output(capsys, [*argv, "--labels", f"mild,{NFC}"])
    a = [NFC, "mild", "mild", NFC, "mild"]
    b = [NFC, "mild", NFC, "mild", "mild"]
    assert document["statistic"] == wk.weighted_kappa(a, b, weights="unweighted")
    assert document["labels"] == ["mild", NFC]
