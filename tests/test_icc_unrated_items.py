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
