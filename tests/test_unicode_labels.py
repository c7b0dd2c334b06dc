"""One rule for a label written in two Unicode forms ('é' as one character, NFC, and as 'e'
and a combining accent, NFD): every entry point refuses it, with the fix in its own words.
The command line refused it; the Python functions counted two categories without a word."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest

import wkappa as wk
from cli_calls import refusal
from wkappa._core import spelling_key
from wkappa.exceptions import WkappaError

NFC = unicodedata.normalize("NFC", "sévère")
NFD = unicodedata.normalize("NFD", "sévère")
TRUE = ["mild", NFC, "mild", NFD, "mild", NFC]
PRED = ["mild", NFC, NFC, "mild", "mild", NFC]
FORMS = "only by Unicode form"
PYTHON_FIX = "unicodedata.normalize('NFC', label)"


def test_two_forms_share_a_spelling_key():
    assert NFC != NFD and spelling_key(NFC) == spelling_key(NFD)
    assert spelling_key(NFD.upper() + " ") == spelling_key(NFC)


@pytest.mark.parametrize("kind", ["list", "numpy", "object"])
def test_two_raters_refuse_two_forms(kind):
    def convert(values):
        if kind == "list":
            return values
        return np.array(values, dtype=object if kind == "object" else None)

    for call in (
        lambda: wk.weighted_kappa(convert(TRUE), convert(PRED), weights="unweighted"),
        lambda: wk.confusion_table(convert(TRUE), convert(PRED)),
        lambda: wk.kappa_test(convert(TRUE), convert(PRED), weights="unweighted"),
    ):
        with pytest.raises(WkappaError, match=FORMS) as info:
            call()
        message = str(info.value)
        assert "(composed, NFC)" in message and "(decomposed, NFD)" in message
        assert "`y_true` at position 3" in message and PYTHON_FIX in message


def test_a_rating_in_the_other_form_than_its_label_is_named():
    with pytest.raises(WkappaError, match=FORMS) as info:
        wk.weighted_kappa(TRUE, PRED, labels=["mild", NFC])
    assert "is not in `labels`" in str(info.value) and PYTHON_FIX in str(info.value)


def test_labels_listing_both_forms_are_refused():
    """Two categories that print alike cannot be what a list means."""
    with pytest.raises(WkappaError, match=r"`labels` hold .* one text in two Unicode forms"):
        wk.weighted_kappa(["mild", NFC], [NFC, NFC], labels=["mild", NFC, NFD])


def test_one_form_is_one_category():
    same = [unicodedata.normalize("NFC", value) for value in TRUE]
    kappa = wk.weighted_kappa(same, PRED, weights="unweighted")
    assert kappa == wk.weighted_kappa(
        [v.replace(NFC, "severe") for v in same],
        [v.replace(NFC, "severe") for v in PRED],
        weights="unweighted",
    )


def test_several_raters_refuse_two_forms():
    ratings = np.array([TRUE, PRED, PRED], dtype=object).T
    with pytest.raises(WkappaError, match=FORMS):
        wk.agreement(ratings)
    with pytest.raises(WkappaError, match=FORMS):
        wk.agreement(ratings, labels=["mild", NFC])


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_frames_refuse_two_forms(library):
    module = pytest.importorskip(library)
    frame = module.DataFrame({"a": TRUE, "b": PRED, "c": PRED})
    with pytest.raises(WkappaError, match=FORMS) as info:
        wk.agreement(frame)
    assert "column 'a'" in str(info.value) and PYTHON_FIX in str(info.value)
    with pytest.raises(WkappaError, match=FORMS):
        wk.weighted_kappa(frame["a"], frame["b"], weights="unweighted")


def test_pandas_categories_in_two_forms_are_refused():
    pd = pytest.importorskip("pandas")
    true = pd.Series(pd.Categorical(TRUE))
    with pytest.raises(WkappaError, match=FORMS):
        wk.weighted_kappa(true, PRED, weights="unweighted")


def test_the_command_line_refuses_labels_listing_both_forms(tmp_path, capsys):
    pytest.importorskip("polars")
    path = tmp_path / "forms.csv"
    path.write_text("a,b\n" + "\n".join(f"{a},{b}" for a, b in zip(TRUE, PRED, strict=True)) + "\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weights", "unweighted"]
    err = refusal(capsys, [*argv, "--labels", f"mild,{NFC},{NFD}"])
    assert "--labels hold" in err and "one text in two Unicode forms" in err, err
    err = refusal(capsys, [*argv, "--fold-case", "--strip-labels"])  # they fold no form
    assert "forms.csv, row 4: " in err and FORMS in err and "python3 -c" in err, err
