"""A rater of the long layout whose every rating is null is a rater (issue 22).

In the long layout (item, rater, rating rows) a rater 'c' with only null ratings was
dropped: ``frames.agreement`` and ``wkappa agree --item --rater --rating`` gave ``n_raters``
2, ``pairwise()`` 2 x 2 and ``leave_one_rater_out()`` 2 entries, where the same data in the
wide layout (a column 'c' of nulls) gives 3 (Fleiss keeps empty columns, Conger too). The
long layout now keeps such a rater as a column of nulls, so both layouts give one result.
For the ICC and CCC, which refuse a rater without any rating (or a missing rating) in the
wide layout, the long layout now refuses it too instead of answering on the other raters.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa.exceptions import FewClustersWarning, WkappaError

pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")

A = [1, 2, 3, 1, 2, 3]
B = [1, 2, 3, 2, 2, 1]
N = len(A)
COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]


def _long(a=A, b=B, nulls_of_c=N):
    """Rows of rater 'c' carry no rating; items 0..N-1."""
    items, raters, ratings = [], [], []
    for rater, values in (("a", a), ("b", b)):
        for item, value in enumerate(values):
            items.append(item), raters.append(rater), ratings.append(value)
    for item in range(nulls_of_c):
        items.append(item), raters.append("c"), ratings.append(None)
    return {"item": items, "rater": raters, "rating": ratings}


LONG = {"item": "item", "rater": "rater", "rating": "rating"}
MATRIX = np.column_stack([A, B, np.full(N, np.nan)])


def _same(result, reference):
    assert result.n_raters == reference.n_raters == 3
    assert result.n_items == reference.n_items
    assert result.statistic == pytest.approx(reference.statistic, abs=1e-12)
    assert result.standard_error == pytest.approx(reference.standard_error, abs=1e-12, nan_ok=True)
    np.testing.assert_allclose(result.pairwise(), reference.pairwise(), atol=1e-12)
    np.testing.assert_allclose(
        result.leave_one_rater_out(), reference.leave_one_rater_out(), atol=1e-12
    )


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_frames_long_keeps_a_rater_without_ratings(frame_library, coefficient):
    reference = wk.agreement(MATRIX, coefficient=coefficient, weights="quadratic")
    long = frame_library.frame(_long(), dtypes={"rating": "int64"})
    result = frames.agreement(long, **LONG, coefficient=coefficient, weights="quadratic")
    _same(result, reference)
    wide = frame_library.frame(
        {"a": A, "b": B, "c": [None] * N}, dtypes=dict.fromkeys("abc", "int64")
    )
    _same(frames.agreement(wide, raters=list("abc"), coefficient=coefficient), wk.agreement(
        MATRIX, coefficient=coefficient
    ))  # fmt: skip


def test_every_route_of_the_long_layout_keeps_it():
    """The engine's count (integer raters on a span, text raters), the pivot (a NaN rating,
    a null rater), groups and clusters."""
    pl = pytest.importorskip("polars")
    reference = wk.agreement(MATRIX, coefficient="conger")
    for raters in (["a", "b", "c"], [0, 1, 2], [10, 11, 30]):
        data = _long()
        data["rater"] = [raters["abc".index(r)] for r in data["rater"]]
        _same(frames.agreement(pl.DataFrame(data), **LONG, coefficient="conger"), reference)
    # a NaN rating (missing too): the pivot route
    data = _long()
    data["rating"] = [float("nan") if i == 0 else v for i, v in enumerate(data["rating"])]
    matrix = MATRIX.copy()
    matrix[0, 0] = np.nan
    reference_nan = wk.agreement(matrix, coefficient="conger")
    _same(frames.agreement(pl.DataFrame(data), **LONG, coefficient="conger"), reference_nan)
    # with by: each group keeps 'c'
    data = _long()
    data["group"] = [("g1" if item < 3 else "g2") for item in data["item"]]
    grouped = frames.agreement(pl.DataFrame(data), **LONG, by="group", coefficient="conger")
    for group, rows in (("g1", slice(0, 3)), ("g2", slice(3, 6))):
        labels = [1, 2, 3]
        expected = wk.agreement(MATRIX[rows], coefficient="conger", labels=labels)
        _same(grouped[group], expected)
    # with cluster
    data["task"] = data.pop("group")
    with pytest.warns(FewClustersWarning, match="Only 2 clusters"):
        clustered = frames.agreement(pl.DataFrame(data), **LONG, cluster="task")
    tasks = ["g1"] * 3 + ["g2"] * 3
    with pytest.warns(FewClustersWarning, match="Only 2 clusters"):
        _same(clustered, wk.agreement(MATRIX, cluster=tasks))
    # nan_policy='raise' refuses the missing ratings, as the wide layout does
    with pytest.raises(WkappaError, match="at rater 'c' \\(6 items without one\\)"):
        frames.agreement(pl.DataFrame(_long()), **LONG, nan_policy="raise")


def test_rater_vs_panel_long_keeps_the_member():
    pl = pytest.importorskip("polars")
    wide = pl.DataFrame({"a": A, "b": B, "c": [None] * N}, schema_overrides={"c": pl.Int64})
    options = {"candidate": "a", "n_resamples": 99, "rng": 0}
    with pytest.warns(wk.UndefinedKappaWarning):
        expected = frames.rater_vs_panel(wide, raters=["b", "c"], **options)
    with pytest.warns(wk.UndefinedKappaWarning):
        found = frames.rater_vs_panel(pl.DataFrame(_long()), **LONG, **options)
    assert found.n_items == expected.n_items
    assert np.isnan(found.difference) and np.isnan(expected.difference)


def test_icc_and_ccc_refuse_it_as_the_wide_layout_does():
    """The wide layout refuses a rater without any rating (ICC) or a missing rating (CCC);
    the long layout answered on the other two raters."""
    pl = pytest.importorskip("polars")
    data = _long()
    data["rating"] = [None if v is None else float(v) for v in data["rating"]]
    long = pl.DataFrame(data)
    wide = pl.DataFrame({"a": A, "b": B, "c": [None] * N}, schema_overrides={"c": pl.Float64})
    for function in (frames.icc, frames.ccc):
        for policy in ("raise", "omit"):
            with pytest.raises(WkappaError) as from_wide:
                function(wide, raters=["a", "b", "c"], nan_policy=policy)
            with pytest.raises(WkappaError) as from_long:
                function(long, **LONG, nan_policy=policy)
            said = str(from_wide.value).split(" at ")[0].split(" from ")[0].split(" in ")[0]
            assert str(from_long.value).startswith(said), (from_wide.value, from_long.value)


def _csv(path, columns):
    rows = zip(*columns.values(), strict=True)
    text = ",".join(columns) + "\n"
    text += "".join(",".join("" if v is None else str(v) for v in row) + "\n" for row in rows)
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_the_command_line_long_layout_keeps_it(tmp_path, capsys, coefficient):
    long = _csv(tmp_path / "long.csv", _long())
    wide = _csv(tmp_path / "wide.csv", {"a": A, "b": B, "c": [None] * N})
    options = ["--coefficient", coefficient, "--format", "json"]
    assert (
        main(["agree", long, "--item", "item", "--rater", "rater", "--rating", "rating", *options])
        == 0
    )
    from_long = json.loads(capsys.readouterr().out)
    assert main(["agree", wide, "--raters", "a,b,c", *options]) == 0
    from_wide = json.loads(capsys.readouterr().out)
    assert from_long["raters"] == from_wide["raters"] == ["a", "b", "c"]
    assert from_long["n_raters"] == from_wide["n_raters"] == 3
    for key in ("statistic", "standard_error", "n_items"):
        assert from_long[key] == pytest.approx(from_wide[key], abs=1e-12), key


def test_the_command_line_judge_long_layout_keeps_it(tmp_path, capsys):
    long = _csv(tmp_path / "long.csv", _long())
    wide = _csv(tmp_path / "wide.csv", {"a": A, "b": B, "c": [None] * N})
    options = ["--candidate", "a", "--bootstrap", "99", "--seed", "0"]
    long_args = ["--item", "item", "--rater", "rater", "--rating", "rating"]
    assert main(["judge", long, *long_args, *options]) == 0
    from_long = capsys.readouterr().out
    assert main(["judge", wide, "--raters", "b,c", *options]) == 0
    from_wide = capsys.readouterr().out
    assert "panel         b, c (2 members)" in from_long, from_long
    assert "ratings per rater: a 6, b 6, c 0" in from_long and "c 0" in from_wide


def test_the_unrated_raters_are_looked_for_only_when_a_rating_is_null(monkeypatch):
    pl = pytest.importorskip("polars")
    from wkappa._frames import raters

    def refuse(*args, **kwargs):
        raise AssertionError("looked for raters without ratings where no rating is null")

    monkeypatch.setattr(raters, "unrated_raters", refuse)
    complete = pl.DataFrame(_long(nulls_of_c=0))
    assert frames.agreement(complete, **LONG).n_raters == 2
