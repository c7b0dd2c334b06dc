"""Text ratings that write one number two ways ('1' and '1.0'), or that spell a missing value
('NA', 'nan', ''), are refused without `labels`, on every entry point: counted as they are,
'1.0' or 'NA' would be a category of its own and kappa would change without a word."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa import frames
from wkappa.exceptions import WkappaError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

TWO_RATERS: dict[str, Callable[..., Any]] = {
    "weighted_kappa": lambda a, b, **kw: wk.weighted_kappa(a, b, weights="unweighted", **kw),
    "qwk": lambda a, b, **kw: wk.qwk(a, b, **kw),
    "kappa_test": lambda a, b, **kw: wk.kappa_test(a, b, weights="unweighted", **kw),
    "frames.weighted_kappa (pandas)": lambda a, b, **kw: frames.weighted_kappa(
        pd.DataFrame({"a": a, "b": b}), y_true="a", y_pred="b", weights="unweighted", **kw
    ),
    "frames.kappa_test (polars)": lambda a, b, **kw: frames.kappa_test(
        pl.DataFrame({"a": a, "b": b}), y_true="a", y_pred="b", weights="unweighted", **kw
    ),
}


def _columns(rows: list[list[str]]) -> dict[str, list[str]]:
    return {f"r{j}": [row[j] for row in rows] for j in range(len(rows[0]))}


SEVERAL: dict[str, Callable[..., Any]] = {
    "agreement": lambda rows, **kw: wk.agreement(rows, **kw),
    "krippendorff_alpha": lambda rows, **kw: wk.krippendorff_alpha(rows, **kw),
    "frames.agreement (pandas)": lambda rows, **kw: frames.agreement(
        pd.DataFrame(_columns(rows)), raters=list(_columns(rows)), **kw
    ),
    "frames.agreement (polars)": lambda rows, **kw: frames.agreement(
        pl.DataFrame(_columns(rows)), raters=list(_columns(rows)), **kw
    ),
    "frames.krippendorff_alpha (pandas)": lambda rows, **kw: frames.krippendorff_alpha(
        pd.DataFrame(_columns(rows)), raters=list(_columns(rows)), **kw
    ),
}

NUMBER_HINT = "convert the ratings to numbers"


@pytest.mark.parametrize("call", TWO_RATERS.values(), ids=TWO_RATERS.keys())
@pytest.mark.parametrize("other", ["1.0", "01", "+1", "1e0", " 1.00 "])
def test_two_raters_refuse_one_number_written_two_ways(call, other):
    """'1' and '1.0' were two categories (K = 3 for two grades) under unweighted kappa."""
    with pytest.raises(WkappaError, match=NUMBER_HINT) as error:
        call(["1", "2", other, "2"], ["1", "2", "1", "2"])
    message = str(error.value)
    # a frame's rows are counted first, so either spelling may be the one met first
    pairs = (f"'1' and {other!r}", f"{other!r} and '1'")
    assert any(f"{pair}, one number written two ways" in message for pair in pairs)
    assert "labels=[...]" in message


@pytest.mark.parametrize("call", SEVERAL.values(), ids=SEVERAL.keys())
def test_several_raters_refuse_one_number_written_two_ways(call):
    """The user tour's K = 4 for three grades: Fleiss' kappa changed silently."""
    rows = [["1", "1.0", "2"], ["2", "2", "3"], ["3", "3", "3"]]
    with pytest.raises(WkappaError, match=r"'1' and '1\.0', one number written two ways"):
        call(rows)


def test_the_message_says_where_the_second_spelling_is():
    with pytest.raises(WkappaError, match=r"'03' first in `y_pred` at position 2"):
        wk.weighted_kappa(["3", "2", "2"], ["3", "2", "03"], weights="unweighted")
    with pytest.raises(WkappaError, match=r"'3\.0' first for item 1, rater 2"):
        wk.agreement([["3", "3", "2"], ["2", "2", "3.0"]])
    frame = pd.DataFrame({"a": ["3", "2"], "b": ["3.0", "2"]})
    with pytest.raises(WkappaError, match=r"'3\.0' first in column 'b'"):
        frames.weighted_kappa(frame, y_true="a", y_pred="b", weights="unweighted")


def test_labels_or_numbers_say_what_is_meant():
    """The two fixes the hint offers give the number the data mean."""
    a, b = ["1", "2", "1.0", "3"], ["1", "2", "1", "3"]
    assert wk.qwk(np.asarray(a, dtype=float), np.asarray(b, dtype=float)) == 1.0
    assert wk.qwk(pd.to_numeric(pd.Series(a)), pd.to_numeric(pd.Series(b))) == 1.0
    # labels that list both spellings keep them as two categories: the user said so
    assert wk.weighted_kappa(a, b, labels=["1", "1.0", "2", "3"], weights="unweighted") < 1.0
    rows = [["1", "1.0", "2"], ["2", "2", "3"], ["3", "3", "3"]]
    assert wk.agreement(rows, labels=["1", "1.0", "2", "3"]).statistic == pytest.approx(
        wk.agreement([["1", "x", "2"], ["2", "2", "3"], ["3", "3", "3"]]).statistic
    )


def test_distinct_numbers_and_words_are_not_refused():
    assert wk.weighted_kappa(["1", "2", "10"], ["1", "2", "10"], weights="unweighted") == 1.0
    assert wk.weighted_kappa(["1", "1.5", "x"], ["1", "1.5", "x"], weights="unweighted") == 1.0
    # not finite: 'inf' and 'infinity' are words here, not one number
    assert wk.weighted_kappa(["inf", "infinity"], ["inf", "infinity"], weights="unweighted") == 1


def test_find_number_split():
    from wkappa._core import find_number_split

    assert find_number_split(["1", "2", "3"]) is None
    assert find_number_split(["-0", "0"]) == ("-0", "0")
    assert find_number_split(["x", "2.50", "y", "2.5"]) == ("2.50", "2.5")
    assert find_number_split(["nan", "NaN", "inf", "Infinity"]) is None


MISSING = ["NA", "N/A", "NaN", "nan", "null", "None", "", "  ", " na ", "#N/A", "<NA>"]


@pytest.mark.parametrize("call", TWO_RATERS.values(), ids=TWO_RATERS.keys())
@pytest.mark.parametrize("word", MISSING)
def test_two_raters_refuse_a_missing_value_spelled_as_text(call, word):
    """'NA' from a CSV read with dtype=str or 'nan' from astype(str) was a category."""
    with pytest.raises(WkappaError, match="reads as a missing value") as error:
        call(["a", word, "b", "a"], ["a", "b", "b", "a"], labels=None)
    message = str(error.value)
    assert f"hold {word!r} in `" in message or f"hold {word!r} in column 'a'" in message
    assert f"df.replace({word!r}, None)" in message
    assert "list it in labels=[...]" in message


@pytest.mark.parametrize("call", SEVERAL.values(), ids=SEVERAL.keys())
@pytest.mark.parametrize("word", ["NA", "nan", ""])
def test_several_raters_refuse_a_missing_value_spelled_as_text(call, word):
    rows = [["a", word, "b"], ["b", "b", "a"], ["a", "a", "a"]]
    with pytest.raises(WkappaError, match=f"hold {word!r} .*reads as a missing value"):
        call(rows)


def test_every_missing_spelling_is_named_at_once():
    with pytest.raises(WkappaError) as error:
        wk.agreement([["a", "NA", "b"], ["b", "nan", "a"], ["a", "", "a"]])
    message = str(error.value)
    assert "hold 'NA' for item 0, rater 1 and 'nan', '' elsewhere" in message
    assert "df.replace(['NA', 'nan', ''], None)" in message
    assert "list them in labels=[...]" in message


@pytest.mark.parametrize("word", ["NA", "nan", "None"])
def test_labels_that_list_a_missing_spelling_keep_it_as_a_category(word):
    a, b = ["a", word, "b", "a"], ["a", "b", "b", "a"]
    kappa = wk.weighted_kappa(a, b, labels=["a", "b", word], weights="unweighted")
    assert kappa == pytest.approx(wk.weighted_kappa(["a", "c", "b", "a"], b, weights="unweighted"))
    rows = [["a", word, "b"], ["b", "b", "a"]]
    assert wk.agreement(rows, labels=["a", "b", word]).n_ratings == 6


def test_a_missing_value_made_missing_is_missing():
    """The hint's fix: the rating is missing, and nan_policy decides."""
    frame = pd.DataFrame({"a": ["a", "NA", "b", "a"], "b": ["a", "b", "b", "a"]})
    fixed = frame.replace("NA", None)
    with pytest.raises(WkappaError, match="missing"):
        frames.weighted_kappa(fixed, y_true="a", y_pred="b", weights="unweighted")
    kappa = frames.weighted_kappa(
        fixed, y_true="a", y_pred="b", weights="unweighted", nan_policy="omit"
    )
    assert kappa == 1.0


def test_none_in_lower_case_is_a_severity():
    """'none' is a category of its own (as on the command line); 'None' is str(None)."""
    scale = ["none", "mild", "none", "severe"]
    assert wk.weighted_kappa(scale, scale, weights="unweighted") == 1.0
    assert wk.agreement([["none", "none"], ["mild", "mild"], ["none", "mild"]]).n_items == 3


def test_numeric_ratings_are_not_examined(monkeypatch):
    """Numbers cannot be spelled two ways: the check reads no value of a numeric column."""
    from wkappa._core import label_spelling

    def boom(value: str) -> None:
        raise AssertionError(value)

    monkeypatch.setattr(label_spelling, "_number", boom)
    monkeypatch.setattr(label_spelling, "_missing_word", boom)
    assert wk.qwk([1, 2, 3], [1, 2, 3]) == 1.0
    assert wk.agreement(np.array([[1.0, 2.0], [2.0, 2.0], [3.0, np.nan]]), nan_policy="omit")
    frame = pl.DataFrame({"a": [1, 2, 3], "b": [1, 2, 3]})
    assert frames.weighted_kappa(frame, y_true="a", y_pred="b") == 1.0


def test_only_distinct_text_values_are_examined(monkeypatch):
    from wkappa._core import label_spelling

    calls: list[str] = []
    real = label_spelling._number

    def counted(value: str) -> float | None:
        calls.append(value)
        return real(value)

    monkeypatch.setattr(label_spelling, "_number", counted)
    wk.weighted_kappa(["1", "2", "3"] * 1000, ["1", "2", "2"] * 1000, weights="unweighted")
    assert sorted(calls) == ["1", "2", "3"]
