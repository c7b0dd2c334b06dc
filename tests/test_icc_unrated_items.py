"""An item (row) without any rating, under the default nan_policy='omit': wkappa.icc and
icc_all leave it out, as wkappa.agreement and ``wkappa icc`` do (they refused it), with
n_items counting the items rated and explain() saying how many were left out; 'raise'
refuses it as any missing rating, 'propagate' keeps it (every value nan)."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError

nan = np.nan
RATED = [[9, 2, nan, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
WITH_EMPTY = [RATED[0], [nan] * 4, *RATED[1:4], [nan] * 4, *RATED[4:]]


def same(result: wk.ICCResult, expected: wk.ICCResult) -> None:
    assert result.method == expected.method == "reml"
    for name in ("statistic", "pvalue", "f_statistic", "df1", "df2", "ms_items", "ms_error"):
        assert getattr(result, name) == getattr(expected, name), name
    assert (result.n_items, result.n_ratings) == (expected.n_items, expected.n_ratings)


def test_icc_leaves_out_an_item_without_any_rating() -> None:
    result = wk.icc(WITH_EMPTY)
    same(result, wk.icc(RATED))
    assert result.n_items == 6
    assert "n = 6 items (2 items without any rating left out), k = 4" in result.explain()
    assert "left out" not in wk.icc(RATED).explain()


def test_icc_all_and_a_wide_frame_leave_it_out_too() -> None:
    expected = wk.icc_all(RATED)
    for form, result in wk.icc_all(WITH_EMPTY).items():
        same(result, expected[form])
    pl = pytest.importorskip("polars")
    wkf = pytest.importorskip("wkappa.frames")
    frame = pl.DataFrame(np.array(WITH_EMPTY, dtype=float), schema=["a", "b", "c", "d"])
    frame = frame.fill_nan(None)
    for lazy in (frame, frame.lazy()):
        same(wkf.icc(lazy, raters=["a", "b", "c", "d"]), expected["A,1"])


def test_complete_items_after_leaving_out_are_an_anova() -> None:
    """Only the empty items miss ratings: the rest is complete, the ANOVA's (not REML's)."""
    complete = [[1.0, 2.0, 3.0], [2.0, 2.0, 4.0], [5.0, 4.0, 6.0], [3.0, 3.0, 3.5]]
    result = wk.icc([*complete[:2], [nan] * 3, *complete[2:]], form="C,1")
    expected = wk.icc(complete, form="C,1")
    assert result.method == "anova" and result.statistic == expected.statistic
    assert result.n_items == 4


def test_raise_and_propagate_are_unchanged() -> None:
    with pytest.raises(WkappaError, match=r"missing rating \(NaN/None/NA\) at item 0, rater 2"):
        wk.icc(WITH_EMPTY, nan_policy="raise")
    propagated = wk.icc(WITH_EMPTY, nan_policy="propagate")
    assert np.isnan(propagated.statistic) and propagated.n_items == 8


def test_too_few_rated_items_and_no_rating_are_said_so() -> None:
    with pytest.raises(WkappaError, match=r"^`ratings`: 1 item with a rating \(2 without any"):
        wk.icc([[1, 2], [nan, nan], [nan, nan]])
    with pytest.raises(WkappaError, match=r"^`ratings` has no rating at all \(its 3 items"):
        wk.icc([[nan, nan]] * 3)


def test_features_share_their_items() -> None:
    """With a features axis an item is left out where it has no rating in any feature; one
    rated in some features only is refused, naming the item and the feature."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(8, 3, 2))
    x[3] = nan
    results = wk.icc(x)
    assert results.n_items == 7
    for f in range(2):
        alone = wk.icc(np.delete(x[:, :, f], 3, axis=0))
        assert results.statistic[f] == pytest.approx(alone.statistic, rel=1e-12)
    x[5, :, 1] = nan
    with pytest.raises(WkappaError, match="no rating at all for item 5 in feature 1"):
        wk.icc(x)


def test_the_cli_says_the_same_count(tmp_path, capsys) -> None:
    pytest.importorskip("polars")
    from wkappa._cli.app import main

    path = tmp_path / "wide.csv"
    lines = ["a,b,c,d"] + [",".join("" if np.isnan(v) else f"{v:g}" for v in r) for r in WITH_EMPTY]
    path.write_text("\n".join(lines) + "\n")
    assert main(["icc", str(path), "--raters", "a,b,c,d", "--form", "A,1", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "file rows 8 read, 6 used, 2 dropped: no rating at all" in out
    assert f"{wk.icc(RATED).statistic:.4f}" in out


def test_the_count_is_a_public_field_in_to_dict_and_the_repr() -> None:
    result = wk.icc(WITH_EMPTY)
    assert result.n_items_omitted == 2 and result.n_items == 6
    assert result.to_dict()["n_items_omitted"] == 2
    assert "n_items=6, n_raters=4, n_ratings=23, n_items_omitted=2, method='reml'" in repr(result)
    for one in wk.icc_all(WITH_EMPTY).values():
        assert one.n_items_omitted == 2
    rated = wk.icc(RATED)
    assert rated.n_items_omitted == 0 and rated.to_dict()["n_items_omitted"] == 0
    assert "n_items_omitted" not in repr(rated)
    assert wk.icc(WITH_EMPTY, nan_policy="propagate").n_items_omitted == 0


def test_the_ccc_counts_the_items_it_leaves_out() -> None:
    pairs = wk.ccc([1, 2, 3, nan, 5, 4], [1, 2, 2, 4, nan, 4], nan_policy="omit")
    assert (pairs.n_items, pairs.n_items_omitted) == (4, 2)
    assert pairs.statistic == wk.ccc([1, 2, 3, 4], [1, 2, 2, 4]).statistic
    assert "4 items (2 items with a missing value left out) x 2 raters" in pairs.explain()
    assert pairs.to_dict()["n_items_omitted"] == 2 and "n_items_omitted=2" in repr(pairs)
    several = wk.ccc(WITH_EMPTY, nan_policy="omit")
    assert (several.n_items, several.n_items_omitted) == (5, 3)
    assert wk.ccc(RATED[1:], nan_policy="omit").n_items_omitted == 0


def _long(rows: list[list[float]]) -> list[tuple[int, str, float | None]]:
    """One (item, rater, rating) row per cell, a missing rating as None (its row kept)."""
    return [
        (i, "abcd"[j], None if np.isnan(v) else v)
        for i, row in enumerate(rows)
        for j, v in enumerate(row)
    ]


def test_a_long_frame_counts_an_item_whose_rows_have_no_rating() -> None:
    """The long layout's item with rows whose ratings are all null is left out and counted,
    as the wide layout's row of nulls is (it vanished before the count, and under
    'propagate' the ICC was computed without it)."""
    pl = pytest.importorskip("polars")
    wkf = pytest.importorskip("wkappa.frames")
    frame = pl.DataFrame(_long(WITH_EMPTY), schema=["item", "rater", "score"], orient="row")
    layout = {"item": "item", "rater": "rater", "rating": "score"}
    for data in (frame, frame.lazy(), frame.to_pandas()):
        result = wkf.icc(data, **layout)
        same(result, wk.icc(RATED))
        assert (result.n_items, result.n_items_omitted) == (6, 2)
        assert all(r.n_items_omitted == 2 for r in wkf.icc_all(data, **layout).values())
    assert np.isnan(wkf.icc(frame, **layout, nan_policy="propagate").statistic)
    with pytest.raises(WkappaError, match="missing rating"):
        wkf.icc(frame, **layout, nan_policy="raise")
    concordance = wkf.ccc(frame, **layout, nan_policy="omit")
    assert (concordance.n_items, concordance.n_items_omitted) == (5, 3)
    # a row without an item id and without a rating rates nothing: no item of its own
    blank = pl.DataFrame([(None, "a", None)], schema=frame.schema, orient="row")
    assert wkf.icc(pl.concat([frame, blank]), **layout).n_items_omitted == 2


def test_the_cli_prints_the_count_of_a_long_file(tmp_path, capsys) -> None:
    pytest.importorskip("polars")
    import json

    from wkappa._cli.app import main

    path = tmp_path / "long.csv"
    lines = ["item,rater,score"] + [
        f"{i},{r},{'' if v is None else f'{v:g}'}" for i, r, v in _long(WITH_EMPTY)
    ]
    path.write_text("\n".join(lines) + "\n")
    layout = ["--item", "item", "--rater", "rater", "--rating", "score"]
    assert main(["icc", str(path), *layout, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["n_items"] == 6 and document["n_items_omitted"] == 2
    assert all(form["n_items_omitted"] == 2 for form in document["icc"].values())
    report = tmp_path / "icc.html"
    assert main(["icc", str(path), *layout, "--form", "A,1", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 items (2 items without any rating left out) x 4 raters")
    page = report.read_text()
    assert "(23 ratings; items with a missing rating keep their other ratings" in page
    assert "2 items without any rating left out; 9 of 32 file rows left out" in page


def test_the_cli_counts_the_items_the_ccc_leaves_out(tmp_path, capsys) -> None:
    """The CCC of ``wkappa icc`` uses the complete items: its JSON and text say how many it
    left out (its JSON said 0, from the complete items it was handed)."""
    pytest.importorskip("polars")
    import json

    from wkappa._cli.app import main

    path = tmp_path / "wide.csv"
    lines = ["a,b,c,d"] + [",".join("" if np.isnan(v) else f"{v:g}" for v in r) for r in WITH_EMPTY]
    path.write_text("\n".join(lines) + "\n")
    assert main(["icc", str(path), "--raters", "a,b,c,d", "--format", "json"]) == 0
    concordance = json.loads(capsys.readouterr().out)["ccc"]
    assert (concordance["n_items"], concordance["n_items_omitted"]) == (5, 3)
    assert main(["icc", str(path), "--raters", "a,b,c,d"]) == 0
    assert "on 5 complete items (3 with a missing rating left out)" in capsys.readouterr().out
