"""Several raters' messages name a rater by its column when the input has column names
(pandas, polars, pyarrow, ``frames.agreement``, the CLI's file) and by its 0-based position
otherwise (numpy arrays, lists of rows, masked arrays): one rule, ``rater_names`` in
``_core/rater_matrix.py``.

Every frame was named by position ("rater 0 holds numbers or booleans but rater 1 holds
strings") although the user had named the columns.
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa.exceptions import FewClustersWarning, UndefinedKappaWarning, WkappaError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
frames = pytest.importorskip("wkappa.frames")

MIXED = {"alice": [1, 2, 1], "bob": ["x", "y", "x"]}
MISSING = {"alice": [1, 2, 1], "bob": [1, None, 2]}
SPELLED = {"alice": ["mild", "severe", "mild"], "bob": ["mild", "Severe", "mild"]}
KINDS = "holds numbers or booleans but {} holds strings"

MAKERS = {
    "pandas": pd.DataFrame,
    "polars": pl.DataFrame,
    "pyarrow": pa.table,
}


def _message(call) -> str:
    with pytest.raises(WkappaError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("library", sorted(MAKERS))
def test_a_frame_names_its_columns(library):
    make = MAKERS[library]
    message = _message(lambda: wk.agreement(make(MIXED)))
    assert "mix kinds: column 'alice' " + KINDS.format("column 'bob'") in message, message
    assert "rater 0" not in message and "rater 1" not in message
    message = _message(lambda: wk.agreement(make(MISSING), nan_policy="raise"))
    assert "missing rating (NaN/None/NA) at item 1, column 'bob'." in message, message
    message = _message(lambda: wk.agreement(make(SPELLED)))
    assert "('Severe' first for item 1, column 'bob')" in message, message
    labels = ["mild", "severe"]
    message = _message(lambda: wk.agreement(make(SPELLED), labels=labels))
    assert "'Severe' for item 1, column 'bob' is not in `labels`" in message, message


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_frames_agreement_names_its_columns(library):
    """frames.agreement counts the rows in the engine: a position among the distinct rows
    ('item 1') is no row of the user's, so a missing rating and a second spelling are named
    by the column alone (it said 'item 0, rater 1', the item changing from run to run)."""
    make = MAKERS[library]
    message = _message(lambda: frames.agreement(make(MIXED), raters=["alice", "bob"]))
    assert "column 'alice' " + KINDS.format("column 'bob'") in message, message
    missing = {"alice": [1, 2, 1, 2], "bob": [1, None, 2, None]}
    message = _message(
        lambda: frames.agreement(make(missing), raters=["alice", "bob"], nan_policy="raise")
    )
    assert message.startswith(
        "`df` has a missing rating (NaN/None/NA) at column 'bob' (2 rows). Hint: "
        "nan_policy='omit' (the default for several raters)"
    ), message
    message = _message(lambda: frames.agreement(make(SPELLED), raters=["alice", "bob"]))
    assert "('Severe' first in column 'bob')" in message and "item" not in message, message
    labels = ["mild", "severe"]
    message = _message(
        lambda: frames.agreement(make(SPELLED), raters=["alice", "bob"], labels=labels)
    )
    assert message.startswith("'Severe' in column 'bob' is not in `labels`"), message


def test_frames_agreement_long_layout_names_the_rater_id():
    """In the long layout a rater is an id of the `rater` column, not a column: it said
    'item 1, column 'c2'' (the pivot's column and a position among distinct rows)."""
    spelled = pl.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "coder": ["c1", "c2"] * 3, "grade": list("aabBab")}
    )
    long = {"item": "item", "rater": "coder", "rating": "grade"}
    message = _message(lambda: frames.agreement(spelled, **long))
    assert "('B' first from rater 'c2')" in message, message
    gap = pl.DataFrame(
        {"item": [1, 1, 2, 3, 3], "coder": ["c1", "c2", "c1", "c1", "c2"], "grade": [1, 1, 2, 1, 2]}
    )
    message = _message(lambda: frames.agreement(gap, **long, nan_policy="raise"))
    assert "at rater 'c2' (1 item without one)." in message, message
    assert frames.agreement(gap, **long).n_items == 3


def test_arrays_and_lists_keep_0_based_positions():
    """No column names: the 0-based position, as numpy indexes the columns and as the items
    are counted ('item 1' is the second row)."""
    rows = [[1, "x"], [2, "y"], [1, "x"]]
    for ratings in (rows, np.array(rows, dtype=object)):
        message = _message(lambda ratings=ratings: wk.agreement(ratings))
        assert "mix kinds: rater 0 " + KINDS.format("rater 1") in message, message
        assert "column" not in message.split("Hint")[0]
    matrix = np.array([[1.0, 1.0], [2.0, np.nan], [1.0, 2.0]])
    masked = np.ma.masked_invalid(matrix)
    for ratings in (matrix, masked, matrix.tolist()):
        message = _message(lambda ratings=ratings: wk.agreement(ratings, nan_policy="raise"))
        assert "at item 1, rater 1." in message, message
    spelled = np.array([SPELLED["alice"], SPELLED["bob"]]).T
    message = _message(lambda: wk.agreement(spelled))
    assert "('Severe' first for item 1, rater 1)" in message, message


def test_a_panel_and_two_groups_name_their_raters():
    panel = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", "y"]})
    for candidate, named in (
        (pd.Series([1, 2, 1], name="judge"), "column 'judge'"),
        (pl.Series("judge", [1, 2, 1]), "column 'judge'"),
        (pd.Series([1, 2, 1]), "`candidate`"),
        ([1, 2, 1], "`candidate`"),
    ):
        message = _message(lambda candidate=candidate: wk.rater_vs_panel(panel, candidate))
        assert f"column 'a' holds strings but {named} holds numbers" in message, message
    first = pd.DataFrame({"r1": [1, 2, 1], "r2": [1, 2, 2]})
    second = pd.DataFrame({"r1": ["x", "y", "x"], "r2": ["x", "y", "y"]})
    message = _message(lambda: wk.group_agreement(first, second, weights="unweighted"))
    said = KINDS.format("column 'r1' of `ratings_b`")
    assert "column 'r1' of `ratings_a` " + said in message, message
    missing = pd.DataFrame({"r1": [1, None, 1], "r2": [1, 2, 2]})
    message = _message(lambda: wk.group_agreement(first, missing, nan_policy="raise"))
    assert message.startswith("`ratings_b` has a missing rating"), message
    assert "at item 1, column 'r1'." in message, message


def test_cli_agree_names_the_file_columns(tmp_path, capsys):
    path = tmp_path / "mixed.csv"
    path.write_text("alice,bob\n1,x\n2,y\n1,x\n")
    code = main(["agree", str(path), "--raters", "alice,bob"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("wkappa: error: "), err
    assert "column 'alice' holds numbers but column 'bob' holds words" in err, err
    assert str(path) in err and "rater 0" not in err


def test_cli_agree_reads_the_frame_as_the_library_does(tmp_path, capsys):
    """The CLI hands the rater columns to the library as a polars frame (with --cluster too,
    the distinct rows repeated): the same numbers as the library on the file's values."""
    import json

    path = tmp_path / "wide.csv"
    rows = [[1, 2, 2, "t1"], [2, 2, None, "t1"], [3, 3, 3, "t2"], [1, 1, 2, "t2"],
            [2, 3, 3, "t3"], [1, 1, 1, "t3"]]  # fmt: skip
    path.write_text(
        "a,b,c,task\n"
        + "".join(",".join("" if v is None else str(v) for v in row) + "\n" for row in rows)
    )
    matrix = np.array([[np.nan if v is None else v for v in row[:3]] for row in rows], float)
    tasks = [row[3] for row in rows]
    with pytest.warns(FewClustersWarning, match="Only 3 clusters"):
        clustered = wk.agreement(matrix, weights="quadratic", cluster=tasks)
    for extra, expected in (
        ([], wk.agreement(matrix, weights="quadratic")),
        (["--cluster", "task"], clustered),
    ):
        argv = ["agree", str(path), "--raters", "a,b,c", "--weights", "quadratic"]
        assert main([*argv, *extra, "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-12)
        assert document["standard_error"] == pytest.approx(expected.standard_error, abs=1e-12)


def test_the_numeric_ratings_reader_names_raters_by_the_same_rule():
    """wk.icc / wk.ccc read frames by their columns too: a missing rating under 'raise' was
    at 'item 1, rater 1' for a frame's column 'b'; with a third axis (features) the message
    was a raw ValueError (too many values to unpack)."""
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, None, 3.0]})
    for call in (wk.icc, wk.ccc):
        message = _message(lambda call=call: call(frame, nan_policy="raise"))
        assert "at item 1, column 'b'." in message, message
        message = _message(lambda call=call: call(frame.to_numpy(), nan_policy="raise"))
        assert "at item 1, rater 1." in message, message
    cube = np.ones((3, 2, 2))
    cube[1, 1, 1] = np.nan
    message = _message(lambda: wk.icc(cube, nan_policy="raise"))
    assert "at item 1, rater 1." in message, message


@pytest.mark.parametrize("library", ["pandas", "polars", "pyarrow"])
def test_frames_with_cluster_and_a_panel_name_their_columns(library):
    """frames.agreement(..., cluster=) and frames.rater_vs_panel rebuilt the items as a
    numpy matrix, so their messages said 'rater 0' (for rater_vs_panel, the position among
    the panel's columns once the candidate was taken out)."""
    make = MAKERS[library]
    table = {**MIXED, "carol": [1, 2, 2], "task": ["t1", "t1", "t2"]}
    raters = ["alice", "bob", "carol"]
    message = _message(lambda: frames.agreement(make(table), raters=raters, cluster="task"))
    assert "column 'alice' " + KINDS.format("column 'bob'") in message, message
    panel = {"judge": [1, 2, 2], "alice": [2, 1, 2], "bob": ["x", "y", "x"]}
    message = _message(
        lambda: frames.rater_vs_panel(make(panel), candidate="judge", raters=["alice", "bob"])
    )
    assert "column 'alice' " + KINDS.format("column 'bob'") in message, message
    spelled = {**SPELLED, "judge": ["mild", "severe", "severe"], "task": ["t1", "t1", "t2"]}
    message = _message(
        lambda: frames.rater_vs_panel(make(spelled), candidate="judge", raters=["alice", "bob"])
    )
    assert "first in column 'bob')" in message, message


def test_frames_with_cluster_read_an_enum_as_without():
    """With cluster= the rebuilt numpy matrix lost a polars Enum's categories (AC1 0.529
    where the same frame without cluster gave 0.673, as wk.agreement(df) does)."""
    order = pl.Enum(["lo", "mid", "hi"])
    df = pl.DataFrame(
        {"a": ["lo", "hi", "lo", "hi"], "b": ["lo", "hi", "hi", "hi"], "task": list("xxyy")}
    ).with_columns(pl.col("a", "b").cast(order))
    options = {"raters": ["a", "b"], "coefficient": "gwet"}
    with pytest.warns(FewClustersWarning, match="Only 2 clusters"):
        clustered = frames.agreement(df, cluster="task", **options)
    plain = frames.agreement(df, **options)
    direct = wk.agreement(df.select("a", "b"), coefficient="gwet")
    assert clustered.statistic == plain.statistic == direct.statistic
    assert clustered.labels == plain.labels == ("lo", "mid", "hi")


def test_icc_names_a_rater_column_without_ratings():
    """REML said 'no rating at all from rater 2' for a frame's column 'c'."""
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 2.0, 2.0], "c": [None] * 3})
    message = _message(lambda: wk.icc(frame))
    assert "`ratings` has no rating at all from column 'c'." in message, message
    message = _message(lambda: wk.icc(frame.to_numpy(dtype=float)))
    assert "`ratings` has no rating at all from rater 2." in message, message


def test_ordered_categoricals_that_disagree_are_named():
    """'The rater columns are categoricals with different categories' did not say which."""
    low_high = pd.Categorical(["lo", "hi", "lo"], categories=["lo", "hi"], ordered=True)
    high_low = pd.Categorical(["lo", "hi", "hi"], categories=["hi", "lo"], ordered=True)
    frame = pd.DataFrame({"x": low_high, "y": low_high, "z": high_low})
    message = _message(lambda: wk.agreement(frame, weights="quadratic"))
    assert "(column 'x': ('lo', 'hi') vs column 'z': ('hi', 'lo'))" in message, message
    message = _message(lambda: wk.weighted_kappa(low_high, high_low))
    assert message.startswith("`y_true` and `y_pred` are categoricals"), message
    assert "(('lo', 'hi') vs ('hi', 'lo'))" in message, message


def test_named_rater_columns_are_never_taken_for_the_long_layout(tmp_path, capsys):
    """Rater columns the user named (frames' raters=, the command line's --raters) or that a
    long-layout pivot made are raters: the guess from column names ('item', 'judge',
    'score' look like the long layout) refused them, with a Python hint on the command line.
    wk.agreement(df) of such a frame still asks, as the columns are then only a guess."""
    rows = {"item": [1, 2, 1, 2], "judge": [1, 2, 2, 2], "score": [1, 2, 1, 1]}
    raters = ["item", "judge", "score"]
    expected = wk.agreement(np.array(list(rows.values())).T)
    df = pl.DataFrame({**rows, "task": ["a", "a", "b", "b"]})
    assert frames.agreement(df, raters=raters).statistic == expected.statistic
    with pytest.warns(FewClustersWarning, match="Only 2 clusters"):
        clustered = frames.agreement(df, raters=raters, cluster="task")
    assert clustered.statistic == expected.statistic
    with pytest.warns(UndefinedKappaWarning, match="bootstrap replicates"):  # 4 items
        panel = frames.rater_vs_panel(df, raters=["item", "judge"], candidate="score")
    assert panel.n_items == 4
    with pytest.raises(WkappaError, match="looks like the long layout"):
        wk.agreement(df.select(raters))
    path = tmp_path / "named.csv"
    path.write_text("item,judge,score\n1,1,1\n2,2,2\n1,2,1\n2,2,1\n")
    assert main(["agree", str(path), "--raters", "item,judge,score", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith(f"fleiss,{expected.statistic!r}")


def test_cli_judge_names_the_file_columns(tmp_path, capsys):
    """wkappa judge handed the library a numpy matrix: 'rater 0 holds numbers or booleans
    but rater 1 holds strings' for the file's columns 'judge' and 'alice'."""
    path = tmp_path / "judged.csv"
    path.write_text("judge,alice,bob\n1,x,x\n2,y,y\n1,x,y\n")
    code = main(["judge", str(path), "--candidate", "judge", "--raters", "alice,bob"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("wkappa: error: "), err
    assert "column 'judge' holds numbers but column 'alice' holds words" in err, err


@pytest.mark.parametrize("library", ["pandas", "polars"])
@pytest.mark.parametrize("function", ["icc", "icc_all", "ccc"])
def test_frames_icc_and_ccc_name_the_column_of_a_missing_rating(library, function):
    # They said "`ratings` has a missing rating ... at item 1, rater 1" (icc) and "`x` or `y`
    # has a missing rating ... at position 1" (ccc): parameters the caller never passed.
    call = getattr(frames, function)
    wide = MAKERS[library]({"alice": [1.0, 2.0, 3.0], "bob": [2.0, None, 4.0]})
    message = _message(lambda: call(wide, raters=["alice", "bob"], nan_policy="raise"))
    assert message.startswith("`df` has a missing rating (NaN/None/NA) at item 1, column 'bob'.")
    lazy = pl.DataFrame({"alice": [1.0, 2.0, 3.0], "bob": [2.0, None, 4.0]}).lazy()
    message = _message(lambda: call(lazy, raters=["alice", "bob"], nan_policy="raise"))
    assert "at item 1, column 'bob'." in message, message
    long = MAKERS[library](
        {"s": [1, 1, 2, 2, 3, 3], "who": ["alice", "bob"] * 3, "v": [1.0, 2, None, 3, 4, 5]}
    )
    message = _message(lambda: call(long, item="s", rater="who", rating="v", nan_policy="raise"))
    assert "at item 1 of the sorted 's' values, where 'who' = 'alice'." in message, message


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_frames_ccc_names_a_column_without_ratings(library):
    # 'omit' drops every item: it said "The CCC needs at least two complete items; got 0".
    frame = MAKERS[library]({"a": [1.0, 2, 3], "b": [2.0, 2, 4], "c": [np.nan] * 3})
    message = _message(lambda: frames.ccc(frame, raters=["a", "b", "c"], nan_policy="omit"))
    assert message.startswith("`df` has no rating at all in column 'c'"), message
    long = MAKERS[library](
        {"s": [1, 1, 1, 2, 2, 2], "who": ["a", "b", "c"] * 2, "v": [1.0, 2, None, 3, 3, None]}
    )
    message = _message(
        lambda: frames.ccc(long, item="s", rater="who", rating="v", nan_policy="omit")
    )
    assert message == (
        "`df` has no rating at all from rater 'c', so no item is complete. Hint: leave that "
        "rater's rows out of `df`."
    ), message


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_frames_icc_names_a_rater_without_ratings(library):
    # It said "`ratings` has no rating at all from rater 2": the array function's parameter
    # and a 0-based rater number, for a frame whose raters have names.
    frame = MAKERS[library]({"a": [1.0, 2, 3, 4], "b": [1.0, 2, 3, 5], "c": [np.nan] * 4})
    message = _message(lambda: frames.icc(frame, raters=["a", "b", "c"]))
    assert message == (
        "`df` has no rating at all in column 'c'. Hint: leave that column out of `raters`."
    ), message
    long = MAKERS[library](
        {"s": [1, 1, 1, 2, 2, 2], "who": ["a", "b", "c"] * 2, "v": [1.0, 2, None, 3, 3, None]}
    )
    message = _message(lambda: frames.icc_all(long, item="s", rater="who", rating="v"))
    assert message == (
        "`df` has no rating at all from rater 'c'. Hint: leave that rater's rows out of `df`."
    ), message
