"""A panel member without a single rating (an annotator who took no part in this batch: an
empty column, or a rater of a long export whose ratings are all NA). ``wkappa judge`` warned
that such a member "counts among the panel's members but takes no part", yet its nan pairs
made the whole comparison undefined, with a warning that blamed raters who use one category.
It now takes no part: the comparison is that of the members with ratings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli.app import main
from wkappa.exceptions import UndefinedKappaWarning

nan = np.nan
RNG = np.random.default_rng(4)
TRUTH = RNG.integers(0, 4, 60)
PANEL = np.column_stack(
    [np.where(RNG.random(60) < 0.75, TRUTH, RNG.integers(0, 4, 60)) for _ in range(3)]
).astype(float)
CANDIDATE = np.where(RNG.random(60) < 0.6, TRUTH, RNG.integers(0, 4, 60)).astype(float)


@pytest.mark.parametrize("where", [0, 1, 3])
def test_a_member_without_ratings_takes_no_part(where: int) -> None:
    with_empty = np.insert(PANEL, where, nan, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = wk.rater_vs_panel(with_empty, CANDIDATE, n_resamples=199, rng=1)
    want = wk.rater_vs_panel(PANEL, CANDIDATE, n_resamples=199, rng=1)
    assert found.difference == want.difference
    assert found.candidate_agreement == want.candidate_agreement
    assert found.panel_agreement == want.panel_agreement
    assert found.pvalue == want.pvalue
    assert tuple(found.confidence_interval()) == tuple(want.confidence_interval())
    # The empty member's entries are nan, as in AgreementResult.pairwise().
    assert np.isnan(found.candidate_vs_members[where])
    np.testing.assert_array_equal(np.delete(found.candidate_vs_members, where),
                                  want.candidate_vs_members)  # fmt: skip
    assert np.isnan(found.member_pairs[where]).all()
    kept = np.delete(np.delete(found.member_pairs, where, axis=0), where, axis=1)
    np.testing.assert_array_equal(kept, want.member_pairs)
    assert "3 of its 4 members have ratings" in found.explain()
    assert "mean over the 3 pairs of members" in found.explain()


def test_fewer_than_two_members_with_ratings_is_undefined_and_says_so() -> None:
    panel = PANEL.copy()
    panel[:, 1:] = nan
    with pytest.warns(UndefinedKappaWarning, match="only 1 of the 3 panel members has ratings"):
        result = wk.rater_vs_panel(panel, CANDIDATE, n_resamples=99, rng=0)
    assert np.isnan(result.difference)


def test_pairs_without_a_common_item_are_named() -> None:
    panel = PANEL.copy()
    panel[:30, 0] = nan
    panel[30:, 1] = nan  # members 0 and 1 never rate the same item
    with pytest.warns(UndefinedKappaWarning, match=r"\(rater 0 and rater 1 share no rated item\)"):
        result = wk.rater_vs_panel(panel, CANDIDATE, n_resamples=99, rng=0)
    assert np.isnan(result.difference)


def test_an_undefined_pair_names_its_members_as_the_caller_knows_them(tmp_path, capsys) -> None:
    """The warning named the members by their position in the panel ("members 0 and 5"),
    also where they have names: a data frame's columns, a long layout's rater ids, the
    command line's --raters (where positions are shown nowhere)."""
    pl = pytest.importorskip("polars")
    wkf = pytest.importorskip("wkappa.frames")
    panel = PANEL.copy()
    panel[:30, 0] = nan
    panel[30:, 1] = nan  # a and b never rate the same item
    names = ["a", "b", "c"]
    wide = pl.DataFrame({name: panel[:, g] for g, name in enumerate(names)}).fill_nan(None)
    with pytest.warns(UndefinedKappaWarning) as caught:
        wk.rater_vs_panel(wide.to_pandas(), CANDIDATE, n_resamples=9, rng=0)
    assert "(column 'a' and column 'b' share no rated item)" in str(caught[0].message)
    long = wide.with_columns(judge=CANDIDATE, item=np.arange(60)).unpivot(
        index="item", variable_name="who", value_name="grade"
    )
    with pytest.warns(UndefinedKappaWarning) as caught:
        wkf.rater_vs_panel(long, candidate="judge", item="item", rater="who", rating="grade",
                           n_resamples=9, rng=0)  # fmt: skip
    assert "(rater 'a' and rater 'b' share no rated item)" in str(caught[0].message)
    path = tmp_path / "w.csv"
    wide.with_columns(judge=CANDIDATE).write_csv(path)
    argv = ["judge", str(path), "--raters", "a,b,c", "--candidate", "judge", "--bootstrap", "999"]
    assert main(argv) == 0
    assert "(column 'a' and column 'b' share no rated item)" in capsys.readouterr().err


def test_cli_judge_with_an_empty_member_column(tmp_path, capsys) -> None:
    path = tmp_path / "w.csv"
    lines = ["item,a,b,c,empty,judge"]
    lines += [f"{i},{int(a)},{int(b)},{int(c)},NA,{int(j)}"
              for i, (a, b, c, j) in enumerate(zip(*PANEL.T, CANDIDATE, strict=True))]  # fmt: skip
    path.write_text("\r\n".join(lines) + "\r\n")
    argv = ["judge", str(path), "--candidate", "judge", "--seed", "1", "--bootstrap", "999"]
    assert main([*argv, "--raters", "a,b,c,empty"]) == 0
    captured = capsys.readouterr()
    assert "--raters empty has no ratings" in captured.err
    assert "undefined" not in captured.out.split("Candidate vs each member")[0]
    assert main([*argv, "--raters", "a,b,c"]) == 0
    without = capsys.readouterr().out
    pick = [line for line in captured.out.splitlines() if line.startswith("  difference")]
    assert pick == [line for line in without.splitlines() if line.startswith("  difference")]


SCORES = np.array([[1.5, 2, 2.5], [2, 2, 2], [3, 1, 2], [0.5, 0.5, 1], [1, 1.5, 1], [2.5, 2.5, 3]])


@pytest.mark.parametrize("weights", ["radical", "ratio", "bipolar"])
def test_value_weights_take_values_that_are_not_whole_as_agreement_does(weights: str) -> None:
    """rater_vs_panel and group_agreement take the weights "as in agreement", yet refused
    ratings that are not whole numbers under Gwet's value weights ("non-integer rating
    2.5"), which agreement takes as categories as they are."""
    pairs = wk.agreement(SCORES, coefficient="conger", weights=weights).pairwise()
    found = wk.rater_vs_panel(SCORES[:, :2], SCORES[:, 2], weights=weights, n_resamples=99, rng=0)
    np.testing.assert_allclose(found.candidate_vs_members, pairs[2, :2], atol=1e-12)
    assert found.member_pairs[0, 1] == pytest.approx(pairs[0, 1], abs=1e-12)
    values = sorted(set(SCORES.ravel()))
    two = wk.group_agreement(SCORES[:, :2], SCORES[:, 1:], weights=weights)
    given = wk.group_agreement(SCORES[:, :2], SCORES[:, 1:], weights=weights, labels=values)
    assert two.statistic == pytest.approx(given.statistic, abs=1e-12)
    assert two.labels == given.labels
