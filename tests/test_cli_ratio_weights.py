"""Gwet's ratio weights on categories that are not all positive: the fix that works, in the
caller's words."""

from __future__ import annotations

import pytest

import wkappa as wk
from cli_calls import refusal
from wkappa.exceptions import WkappaError


def test_ratio_weights_on_grades_from_zero_name_the_option_and_the_recoding(tmp_path, capsys):
    """It said "weights='ratio' ... Hint: pass --labels  with positive numbers.": Python's
    keyword, two spaces, and a hint that fails (--labels 1,...,5 refuses the 0s)."""
    path = tmp_path / "grades.csv"
    path.write_text("a,b\n0,1\n2,2\n4,3\n1,0\n3,3\n")
    argv = ["agree", str(path), "--raters", "a,b", "--coefficient", "gwet", "--weights", "ratio"]
    err = refusal(capsys, argv)
    assert err.startswith("wkappa: error: --weights ratio needs positive category values"), err
    assert "and the categories include 0." in err
    assert "Hint: recode the ratings so that every category is a positive number (add 1" in err
    assert err.endswith("or choose other --weights.")
    assert "weights=" not in err and "labels" not in err and "  " not in err


def test_the_library_says_the_same_in_its_words():
    with pytest.raises(WkappaError, match=r"^weights='ratio' needs .* include 0\. Hint: recode"):
        wk.agreement([[0, 1], [2, 3], [1, 1]], coefficient="gwet", weights="ratio")
