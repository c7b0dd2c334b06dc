"""A refused rating of several raters is placed by its item and rater (issue 22).

``wk.agreement(df, labels=[1, 2, 3])`` said "`ratings` contains 5, which is not in `labels`"
without saying which rater column holds the 5; so did a non-integer rating, an infinite one,
one too large for exact arithmetic, one beyond int64 and one outside ``min_rating`` /
``max_rating``. Now the message places it as the other several-raters messages place a
rating (``at item 2, column 'b'``; ``rater 1`` for an array's column, by 0-based position),
or, where the rows are wkappa's (distinct rows counted in an engine, a pivoted long layout),
by its rater alone (``in column 'b'``, ``from rater 'b'``), ``frames.agreement`` naming its
own parameter, ``df``. Two raters' messages
(``y_true`` / ``y_pred``) are unchanged.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa.exceptions import WkappaError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

WIDE = {"a": [1, 2, 3], "b": [1, 2, 5], "c": [2, 2, 3]}
MAKERS = {"pandas": pd.DataFrame, "polars": pl.DataFrame, "pyarrow": pa.table}
NOT_LISTED = "`ratings` contains 5 {}, which is not in `labels` [1, 2, 3]. Hint:"
IN_DF = NOT_LISTED.replace("`ratings`", "`df`")  # frames.agreement's parameter


def _message(call) -> str:
    with pytest.raises(WkappaError) as info:
        call()
    return str(info.value)


def test_an_array_places_the_rating_by_item_and_rater_position():
    matrix = np.array(list(WIDE.values())).T  # column 1 ('b') holds the 5, at item 2
    message = _message(lambda: wk.agreement(matrix, labels=[1, 2, 3]))
    assert message.startswith(NOT_LISTED.format("at item 2, rater 1")), message
    for ratings in (matrix.tolist(), np.ma.masked_array(matrix, mask=matrix == 1)):
        message = _message(lambda ratings=ratings: wk.agreement(ratings, labels=[1, 2, 3]))
        assert message.startswith(NOT_LISTED.format("at item 2, rater 1")), message
    fractional = np.array([[1, 2, 2.5], [2, 2, 3]])
    message = _message(lambda: wk.agreement(fractional))
    assert message.startswith("`ratings` contains the non-integer rating 2.5 at item 0, rater 2;")
    infinite = np.array([[1.0, 2.0], [np.nan, np.inf]])
    message = _message(lambda: wk.agreement(infinite))
    assert message == "`ratings` contains inf at item 1, rater 1; ratings must be finite."
    huge = np.array([[1, 2], [3, 2**62]])
    message = _message(lambda: wk.agreement(huge))
    assert message.endswith("(|x| >= 2**62) at item 1, rater 1."), message
    for beyond in (np.array([[1, 2], [2**64, 3]], dtype=object), [[1, 2], [2**64, 3]]):
        message = _message(lambda beyond=beyond: wk.agreement(beyond))
        assert "(|x| >= 2**63, beyond int64) at item 1, rater 0. Hint:" in message, message
    bounded = np.array([[1, 2], [2, 0]])
    message = _message(lambda: wk.agreement(bounded, min_rating=1))
    assert message == "`ratings` contains the rating 0 at item 1, rater 1, below `min_rating` = 1."
    message = _message(lambda: wk.agreement(bounded + 4, max_rating=5))
    assert message == "`ratings` contains the rating 6 at item 0, rater 1, above `max_rating` = 5."


def test_the_compiled_route_places_the_rating_too():
    """Large numeric arrays are counted by a compiled pass, which stops at a refused rating;
    the message is the general route's, with the rating's place."""
    big = np.ones((30_000, 3))
    big[20_000, 1] = 2.5
    message = _message(lambda: wk.agreement(big))
    assert "non-integer rating 2.5 at item 20000, rater 1;" in message, message
    big[20_000, 1] = 7
    message = _message(lambda: wk.agreement(big, max_rating=3))
    assert (
        message == "`ratings` contains the rating 7 at item 20000, rater 1, above `max_rating` = 3."
    )
    message = _message(lambda: wk.agreement(big, min_rating=1, max_rating=3))
    assert "rating 7 at item 20000, rater 1, above" in message, message
    message = _message(lambda: wk.agreement(big, labels=[1, 2, 3]))
    assert "contains 7 at item 20000, rater 1, which is not in" in message, message
    frame = pd.DataFrame(big, columns=["a", "b", "c"])
    message = _message(lambda: wk.agreement(frame, labels=[1, 2, 3]))
    assert "contains 7 at item 20000, column 'b', which is not in" in message, message


@pytest.mark.parametrize("library", sorted(MAKERS))
def test_a_frame_places_the_rating_by_item_and_column(library):
    make = MAKERS[library]
    message = _message(lambda: wk.agreement(make(WIDE), labels=[1, 2, 3]))
    assert message.startswith(NOT_LISTED.format("at item 2, column 'b'")), message
    message = _message(lambda: wk.agreement(make(WIDE), max_rating=4))
    assert (
        message == "`ratings` contains the rating 5 at item 2, column 'b', above `max_rating` = 4."
    )
    fractional = make({"a": [1.0, 2.0, 3.0], "b": [2.0, None, 2.5]})
    message = _message(lambda: wk.agreement(fractional))
    assert "non-integer rating 2.5 at item 2, column 'b';" in message, message
    huge = make({"a": [1, 2, 3], "b": [1, 2**62, 3]})
    message = _message(lambda: wk.agreement(huge))
    assert message.endswith("(|x| >= 2**62) at item 1, column 'b'."), message
    categories = make({"a": ["x", "y", "x"], "b": ["x", "z", "y"]})
    message = _message(lambda: wk.agreement(categories, labels=["x", "y"]))
    assert "contains 'z' at item 1, column 'b', which is not in `labels`" in message, message


def test_integers_beyond_int64_in_a_frame_column():
    frame = pd.DataFrame({"a": [1, 2, 3], "b": pd.Series([1, 2, 2**64], dtype=object)})
    message = _message(lambda: wk.agreement(frame))
    assert "(|x| >= 2**63, beyond int64) at item 2, column 'b'. Hint:" in message, message


def test_frames_agreement_places_the_rating_by_its_rater(frame_library):
    """frames.agreement counts distinct rows in the engine: an item's position among them
    means nothing to the user, so the rater alone places the rating (the wide layout's
    column, the long layout's rater id)."""
    frames = pytest.importorskip("wkappa.frames")
    make = frame_library
    wide = make.frame(WIDE)
    message = _message(lambda: frames.agreement(wide, raters=list(WIDE), labels=[1, 2, 3]))
    assert message.startswith(IN_DF.format("in column 'b'")), message
    long = make.frame(
        {
            "item": [0, 0, 1, 1, 2, 2],
            "rater": list("ababab"),
            "rating": [1, 1, 2, 2, 3, 5],
            "task": ["t1", "t1", "t1", "t1", "t2", "t2"],
        }
    )
    named = {"item": "item", "rater": "rater", "rating": "rating"}
    message = _message(lambda: frames.agreement(long, **named, labels=[1, 2, 3]))
    assert message.startswith(IN_DF.format("from rater 'b'")), message
    message = _message(lambda: frames.agreement(long, **named, max_rating=4))
    assert message == "`df` contains the rating 5 from rater 'b', above `max_rating` = 4."
    message = _message(lambda: frames.agreement(long, **named, labels=[1, 2, 3], cluster="task"))
    assert message.startswith(IN_DF.format("from rater 'b'")), message


def test_the_command_line_names_the_column(tmp_path, capsys):
    """A value that fails alone is placed by its file row and column (as before); when every
    value fails alone (no single row to show) the library's message reaches the user, and it
    now names the rater: the file's column, or the long layout's rater id."""
    wide = tmp_path / "wide.csv"
    wide.write_text("a,b,c\n1.5,1.5,2.5\n2.5,2.5,2.5\n")
    assert main(["agree", str(wide), "--raters", "a,b,c"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    # (the distinct rows come from the engine in no fixed order: 1.5 or 2.5 is shown)
    said = r"wkappa: error: the ratings contain the non-integer rating [12]\.5 in column 'a'; "
    assert re.match(said, err), err
    long = tmp_path / "long.csv"
    long.write_text("item,rater,rating\n0,x,1.5\n0,y,1.5\n1,x,2.5\n1,y,2.5\n")
    argv = ["agree", str(long), "--item", "item", "--rater", "rater", "--rating", "rating"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert re.search(r"non-integer rating [12]\.5 from rater 'x'; ", err), err
    listed = tmp_path / "listed.csv"
    listed.write_text("a,b,c\n1,1,2\n2,2,2\n3,5,3\n")
    assert main(["agree", str(listed), "--raters", "a,b,c", "--labels", "1,2,3"]) == 2
    err = capsys.readouterr().err
    assert "listed.csv, row 3: column 'b' contains 5, which is not in --labels" in err, err
    argv = ["judge", str(listed), "--candidate", "c", "--raters", "a,b,c", "--labels", "1,2,3"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "listed.csv, row 3: column 'b' contains 5, which is not in --labels" in err, err


def test_two_raters_keep_their_parameter_names():
    message = _message(lambda: wk.weighted_kappa([1, 2, 3], [1, 2, 5], labels=[1, 2, 3]))
    assert message.startswith("`y_pred` contains 5, which is not in `labels`"), message
    message = _message(lambda: wk.weighted_kappa([1, 2, 3], [1, 2, 2.5]))
    assert message.startswith("`y_pred` contains the non-integer rating 2.5; "), message


def test_the_place_is_looked_for_only_once_a_rating_is_refused(monkeypatch):
    """Accepted ratings cost nothing more: the search for the refused rating's place runs
    only after the encoder refused."""
    from wkappa._core import raters

    def refuse(*args, **kwargs):
        raise AssertionError("searched for a refused rating where none was refused")

    monkeypatch.setattr(raters, "refuse_first", refuse)
    frame = pd.DataFrame(WIDE)
    assert wk.agreement(frame, labels=[1, 2, 3, 5]).n_raters == 3
    assert wk.agreement(frame.to_numpy(), max_rating=5).n_raters == 3
    assert wk.agreement(frame).n_raters == 3


@pytest.mark.parametrize("library", ["numpy", *sorted(MAKERS)])
def test_icc_and_ccc_place_an_infinite_rating(library):
    """wk.icc / wk.ccc said 'an infinite rating at position (0, 1)': now by item and rater,
    as their missing-rating message does."""
    values = {"a": [1.0, 2.0, 3.0], "b": [2.0, float("inf"), 3.0]}
    ratings = np.array(list(values.values())).T if library == "numpy" else MAKERS[library](values)
    rater = "rater 1" if library == "numpy" else "column 'b'"
    for function, name in ((wk.icc, "ratings"), (wk.ccc, "x")):
        message = _message(lambda function=function: function(ratings))
        assert message.startswith(f"`{name}` has an infinite rating at item 1, {rater}. Hint:")
    cube = np.ones((3, 2, 2))
    cube[2, 1, 0] = -np.inf
    message = _message(lambda: wk.icc(cube))
    assert "infinite rating at item 2, rater 1 (feature 0). Hint:" in message, message
