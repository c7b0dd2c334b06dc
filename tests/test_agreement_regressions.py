"""Regression tests of several raters (issue 22's twelve defect groups): each failed before
its fix. Grouped by the issue's numbering."""

from __future__ import annotations

import math
import pickle
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
wkf = pytest.importorskip("wkappa.frames")

nan = np.nan


def fleiss_exact(counts: list[list[int]]) -> Fraction:
    """Fleiss' kappa of complete count rows (equal totals), in exact arithmetic."""
    n = len(counts)
    r = sum(counts[0])
    k = len(counts[0])
    pa = sum(Fraction(sum(c * (c - 1) for c in row), r * (r - 1)) for row in counts) / n
    shares = [sum(Fraction(row[j], r) for row in counts) / n for j in range(k)]
    pe = sum(p * p for p in shares)
    return (pa - pe) / (1 - pe)


# ---------------------------------------------------------------- 1. counts overflow


@pytest.mark.parametrize(
    "counts",
    [
        [[2**62, 2**62], [2**62, 1]],
        np.array([[2**63, 0], [0, 2**63]], dtype=np.uint64),
        [[2**61, 2**61, 0], [0, 2**61, 2**61]],
    ],
)
def test_counts_beyond_int64_are_refused(counts):
    with pytest.raises(WkappaError, match=r"counts.*too large"):
        wk.agreement_from_counts(counts)


def test_n_ratings_is_exact_at_2_60_scale():
    counts = [[2**60, 2**60 - 1], [2**60 - 1, 2**60]] * 4
    # Items this alike (their Gwet terms equal to 1e-18) have no standard error.
    with pytest.warns(UndefinedKappaWarning, match="adds the same term"):
        result = wk.agreement_from_counts(counts)
    assert result.n_ratings == 8 * (2**61 - 1)
    assert result.n_items == 8


# ---------------------------------------------------------------- 2. masked arrays


def test_masked_entries_are_missing_ratings():
    data = np.array([[1, 1, 1], [2, 2, 2], [1, 2, 3], [3, 3, 3]])
    mask = np.zeros_like(data, dtype=bool)
    mask[2, 1:] = True
    masked = np.ma.array(data, mask=mask)
    expected = wk.agreement(np.where(mask, nan, data))
    result = wk.agreement(masked)
    assert result.statistic == expected.statistic
    assert result.n_ratings == expected.n_ratings == 10


def test_large_masked_array_keeps_its_mask():
    rng = np.random.default_rng(0)
    data = rng.integers(1, 4, (20_000, 3))
    mask = rng.random(data.shape) < 0.2
    result = wk.agreement(np.ma.array(data, mask=mask))
    expected = wk.agreement(np.where(mask, nan, data))
    assert result.statistic == expected.statistic


# ---------------------------------------------------------------- 3. value-based weights

BIG = 2**53


@pytest.mark.parametrize("weights", ["circular", "bipolar", "radical", "ratio"])
def test_gwet_weights_keep_differences_beyond_2_53(weights):
    small = np.array([[1, 2], [2, 2], [1, 1], [4, 4], [2, 4]], dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shifted = wk.agreement(small + BIG, coefficient="gwet", weights=weights)
    if weights in ("circular", "radical"):  # depend on differences only
        reference = wk.agreement(small, coefficient="gwet", weights=weights)
        assert shifted.statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert math.isfinite(shifted.statistic)
    assert np.isfinite(shifted.weight_matrix).all()
    assert (shifted.weight_matrix[~np.eye(len(shifted.labels), dtype=bool)] > 0).all()


def test_krippendorff_interval_near_float_max():
    ratings = [[-1e308, 1e308], [1e308, 1e308], [-1e308, -1e308], [0.0, 1e308]]
    small = [[-1, 1], [1, 1], [-1, -1], [0, 1]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        huge = wk.krippendorff_alpha(
            np.array(ratings, dtype=object), labels=[-1e308, 0.0, 1e308], level="interval"
        )
    reference = wk.krippendorff_alpha(small, labels=[-1, 0, 1], level="interval")
    assert huge.statistic == pytest.approx(reference.statistic, rel=1e-12)


def test_krippendorff_interval_beyond_2_53():
    small = np.array([[1, 2], [2, 2], [1, 1], [4, 4], [2, 4]], dtype=np.int64)
    shifted = wk.krippendorff_alpha(small + BIG, level="interval")
    reference = wk.krippendorff_alpha(small, level="interval")
    assert shifted.statistic == pytest.approx(reference.statistic, rel=1e-12)


# ---------------------------------------------------------------- 4. categoricals, Enum


def ordered_frame() -> pd.DataFrame:
    order = ["lo", "mid", "hi", "top"]
    return pd.DataFrame(
        {
            "a": pd.Categorical(["lo", "hi", "mid", "lo", "hi"], categories=order, ordered=True),
            "b": pd.Categorical(["lo", "hi", "hi", "mid", "hi"], categories=order, ordered=True),
        }
    )


def test_ordered_pandas_categoricals_in_a_dataframe():
    df = ordered_frame()
    result = wk.agreement(df, coefficient="conger", weights="quadratic")
    assert result.labels == ("lo", "mid", "hi", "top")  # own order, unused one included
    assert result.statistic == wk.weighted_kappa(df.a, df.b, weights="quadratic")


def test_one_enum_rule_for_arrays_frames_and_pandas():
    enum = pl.Enum(["z", "y", "x", "w"])
    frame = pl.DataFrame(
        {
            "a": pl.Series(["z", "y", "x", "z"], dtype=enum),
            "b": pl.Series(["z", "x", "x", "y"], dtype=enum),
        }
    )
    direct = wk.agreement(frame, coefficient="gwet")
    engine = wkf.agreement(frame, raters=["a", "b"], coefficient="gwet")
    order = ["z", "y", "x", "w"]
    pandas = pd.DataFrame(
        {c: pd.Categorical(frame[c].to_list(), categories=order, ordered=True) for c in "ab"}
    )
    via_pandas = wk.agreement(pandas, coefficient="gwet")
    assert direct.labels == engine.labels == via_pandas.labels == ("z", "y", "x", "w")
    assert direct.statistic == engine.statistic == via_pandas.statistic
    weighted = wkf.agreement(frame, raters=["a", "b"], weights="quadratic")
    assert weighted.labels == ("z", "y", "x", "w")


def test_enums_with_different_orders_unweighted_answer_as_two_raters_do():
    a = pl.Series(["z", "y", "x", "z"], dtype=pl.Enum(["z", "y", "x"]))
    b = pl.Series(["z", "x", "x", "y"], dtype=pl.Enum(["x", "y", "z"]))
    frame = pl.DataFrame({"a": a, "b": b})
    result = wk.agreement(frame, coefficient="conger")
    assert result.statistic == wk.weighted_kappa(a, b, weights="unweighted")
    with pytest.raises(WkappaError, match="different categories"):
        wk.agreement(frame, weights="quadratic")


# ---------------------------------------------------------------- 5. Conger, empty rater


def test_conger_keeps_an_empty_rater_column():
    ratings = np.array(
        [[1, 1, nan], [2, 2, nan], [1, 2, nan], [3, 3, nan], [1, 3, nan], [2, 2, nan]]
    )
    result = wk.agreement(ratings, coefficient="conger")
    assert result.n_raters == 3
    matrix = result.pairwise()
    assert matrix.shape == (3, 3)
    # The rater without ratings agrees with no one, itself included: its row is nan.
    assert np.isnan(matrix[2]).all() and np.isnan(matrix[:, 2]).all()
    assert matrix[0, 0] == matrix[1, 1] == 1.0
    assert result.leave_one_rater_out().shape == (3,)
    two = wk.agreement(ratings[:, :2], coefficient="conger")
    assert result.statistic == two.statistic
    assert result.standard_error == pytest.approx(two.standard_error, rel=1e-12)


def test_conger_jackknife_equals_leaving_each_item_out():
    # Rater 2 rates one item only: leaving that item out leaves it without ratings.
    ratings = np.array(
        [[1, 1, 2], [2, 1, nan], [1, 2, nan], [3, 3, nan], [1, 3, nan], [2, 2, nan], [3, 1, nan]]
    )
    result = wk.agreement(ratings, coefficient="conger")
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(len(ratings)):
            values.append(
                wk.agreement(np.delete(ratings, i, axis=0), coefficient="conger").statistic
            )
    values = np.array(values)
    n = len(values)
    expected = math.sqrt((n - 1) / n * float(np.sum((values - values.mean()) ** 2)))
    low, high = result.confidence_interval(method="jackknife")
    half = (high - low) / 2 if high < 1 else result.statistic - low
    from scipy import stats

    assert half / stats.t.ppf(0.975, n - 1) == pytest.approx(expected, rel=1e-9)


# ---------------------------------------------------------------- 6. CLI --labels


def test_cli_labels_with_an_empty_rater_column(tmp_path, capsys):
    from wkappa._cli import main

    path = tmp_path / "ratings.csv"
    path.write_text("a,b,c\n1,1,\n2,2,\n3,1,\n2,2,\n")
    code = main(["agree", str(path), "--raters", "a,b,c", "--labels", "1,2,3", "--format", "json"])
    assert code == 0
    import json

    document = json.loads(capsys.readouterr().out)
    expected = wk.agreement(
        [[1, 1, None], [2, 2, None], [3, 1, None], [2, 2, None]], labels=[1, 2, 3]
    )
    assert document["statistic"] == pytest.approx(expected.statistic, rel=1e-15)


# ---------------------------------------------------------------- 7. min_rating, strings


def test_min_rating_with_string_ratings_is_refused():
    with pytest.raises(WkappaError, match="min_rating"):
        wk.agreement([["a", "b"], ["b", "b"]], min_rating=1)


# ---------------------------------------------------------------- 8. labels, population


def test_mixed_labels_give_a_clear_error():
    with pytest.raises(WkappaError, match="not in `labels`"):
        wk.agreement([[1, 2], [2, 2], [1, 1]], labels=[1, "2"])


def test_infinite_population_is_no_correction():
    ratings = [[1, 2], [2, 2], [1, 1], [2, 1], [1, 1]]
    infinite = wk.agreement(ratings, population_size=float("inf"))
    assert infinite.population_size is None
    assert infinite.standard_error == wk.agreement(ratings).standard_error


# ---------------------------------------------------------------- 9. rater_vs_panel, resamples


def test_panel_with_an_all_missing_candidate_warns():
    panel = np.array([[1, 2], [2, 2], [1, 1], [2, 1]])
    with pytest.warns(UndefinedKappaWarning, match="candidate"):
        result = wk.rater_vs_panel(panel, [nan] * 4, n_resamples=99, rng=0)
    assert math.isnan(result.difference)


def test_panel_with_an_undefined_pair_warns_once_at_the_caller():
    # Every rater in one category: each two-rater kappa is undefined and the comparison nan;
    # it was returned silently (every other entry point warns).
    with pytest.warns(UndefinedKappaWarning, match="6 of the 6 two-rater") as caught:
        result = wk.rater_vs_panel(np.ones((6, 3), int), np.ones(6, int), n_resamples=99, rng=0)
    assert math.isnan(result.difference) and math.isnan(result.pvalue)
    assert [w.filename for w in caught] == [__file__]
    with pytest.warns(UndefinedKappaWarning) as caught:  # the candidate's message alone
        wk.rater_vs_panel(np.ones((6, 3), int), [nan] * 6, n_resamples=99, rng=0)
    assert len(caught) == 1


def test_panel_names_the_candidate_for_a_rating_outside_labels():
    # An LLM judge's extra answer ('unsure') was reported as "`ratings` contains 'unsure'":
    # the panel's parameter, where every panel rating was in `labels`.
    panel = [["bad", "ok", "ok"], ["ok", "ok", "good"], ["good", "good", "good"], ["bad"] * 3]
    order = ["bad", "ok", "good"]
    with pytest.raises(WkappaError, match=r"^`candidate` contains 'unsure' at item 1, which is"):
        wk.rater_vs_panel(panel, ["bad", "unsure", "good", "ok"], labels=order, n_resamples=99)
    frame = pd.DataFrame(panel, columns=["a", "b", "c"]).assign(llm=["bad", "unsure", None, "ok"])
    with pytest.raises(WkappaError, match=r"^`candidate` contains 'unsure' in column 'llm',"):
        wkf.rater_vs_panel(
            frame, raters=["a", "b", "c"], candidate="llm", labels=order, n_resamples=99
        )
    dropped = "bootstrap replicates have an undefined difference and were dropped"
    with pytest.warns(UndefinedKappaWarning, match=dropped):  # 3 rated items: many are
        fine = wk.rater_vs_panel(panel, ["bad", None, "good", "ok"], labels=order, n_resamples=99)
    assert fine.n_items == 4
    with pytest.raises(WkappaError, match=r"^`ratings` contains 'meh'"):  # the panel's own
        wk.rater_vs_panel([*panel[:3], ["meh"] * 3], ["bad"] * 4, labels=order, n_resamples=99)


def test_panel_places_a_refused_candidate_rating_by_its_item():
    """A refused rating of the candidate named no item ("`candidate` contains 'x', which is
    not in `labels`"), and one refused without labels was blamed on `ratings` at a rater the
    user never had ("at item 2, rater 3"), where the panel's own refusals say "at item 2,
    column 'b'"."""
    panel = [[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, 1]]
    cases = [
        ([1, 2, 3, "x"], {"labels": [1, 2, 3]}, "contains 'x' at item 3, which is not in"),
        ([1, None, 7, 1], {"labels": [1, 2, 3]}, "contains 7 at item 2, which is not in"),
        ([1, 2, 2.5, 1], {}, "contains the non-integer rating 2.5 at item 2;"),
        ([np.nan, 2, 2.5, 1], {}, "contains the non-integer rating 2.5 at item 2;"),
        ([1, 2, 3, 9], {"max_rating": 3}, "contains the rating 9 at item 3, above `max_rating`"),
        ([0, 2, 3, 1], {"min_rating": 1}, "contains the rating 0 at item 0, below `min_rating`"),
        (
            pd.Series([1, 2, 3, 7], name="judge"),
            {"labels": [1, 2, 3]},
            "contains 7 at item 3, column 'judge', which is not in",
        ),
        ([1, 2, 2**70, 1], {}, "has integers too large to handle exactly (|x| >= 2**63, beyond "),
    ]
    for candidate, options, said in cases:
        with pytest.raises(WkappaError, match="^`candidate` " + re.escape(said)) as refused:
            wk.rater_vs_panel(panel, candidate, n_resamples=99, **options)
        assert "at item " in str(refused.value), refused.value
    # wkappa.frames rebuilds the rows from distinct ones: the rater is named, not an item.
    frame = pd.DataFrame(panel, columns=["a", "b", "c"]).assign(m=[1, 2, 2.5, 1])
    with pytest.raises(WkappaError, match=r"^`candidate` contains the non-integer rating 2\.5 in "):
        wkf.rater_vs_panel(frame, raters=["a", "b", "c"], candidate="m", n_resamples=99)
    with pytest.raises(WkappaError, match=r"^`ratings` contains 'x' at item 1, rater 2, which"):
        wk.rater_vs_panel([[1, 1, 2], [2, 2, "x"]], [1, 2], labels=[1, 2], n_resamples=99)


def test_panel_says_when_it_drops_undefined_replicates():
    """Three items: the replicates that draw one item three times leave the members' kappas
    undefined. They were dropped without a word; the paired test already warned above 1%, as
    the panel now does (once: an undefined difference itself has its own warning). Two items
    are too few to resample at all (tests/test_too_few_items.py)."""
    panel, candidate = [[1, 2, 1], [2, 1, 2], [1, 1, 2]], [1, 2, 1]
    with pytest.warns(UndefinedKappaWarning, match=r"^\d+ of 999 bootstrap replicates") as got:
        result = wk.rater_vs_panel(panel, candidate, n_resamples=999, rng=0)
    assert len(got) == 1
    assert 200 < result.confidence_interval().n_undefined < 450
    with pytest.warns(UndefinedKappaWarning) as got:
        wk.rater_vs_panel([[1, 2, 2], [2, 2, 2]], [1, 2], n_resamples=99, rng=0)
    assert [str(w.message).split()[0:4] for w in got] == [["1", "of", "the", "6"]]


def test_one_resample_is_refused():
    panel = np.array([[1, 2], [2, 2], [1, 1], [2, 1]])
    with pytest.raises(WkappaError, match="n_resamples"):
        wk.rater_vs_panel(panel, [1, 2, 1, 2], n_resamples=1)
    with pytest.raises(WkappaError, match="n_resamples"):
        wk.BootstrapMethod(n_resamples=1)


def test_bootstrap_interval_of_a_single_item_is_nan():
    with pytest.warns(UndefinedKappaWarning, match="a single item is rated"):
        result = wk.agreement([[1, 2, 2]])
    low, high = result.confidence_interval(method="bootstrap")
    assert math.isnan(low) and math.isnan(high)


# ---------------------------------------------------------------- 10. strings, messages


def test_string_labels_and_raters_are_refused():
    with pytest.raises(WkappaTypeError, match="labels"):
        wk.agreement_from_counts([[1, 2, 0], [0, 3, 0]], labels="abc")
    frame = pl.DataFrame({"a": [1, 2], "b": [1, 2], "c": [2, 2]})
    with pytest.raises(WkappaTypeError, match="raters"):
        wkf.agreement(frame, raters="abc")


def test_frames_agreement_has_nan_policy():
    frame = pl.DataFrame({"a": [1, 2, 1], "b": [1, None, 1], "c": [1, 2, 2]})
    with pytest.raises(WkappaError, match="missing"):
        wkf.agreement(frame, raters=["a", "b", "c"], nan_policy="raise")
    result = wkf.agreement(frame, raters=["a", "b", "c"], nan_policy="propagate")
    assert math.isnan(result.statistic)
    omitted = wkf.agreement(frame, raters=["a", "b", "c"])
    assert omitted.statistic == wk.agreement([[1, 1, 1], [2, None, 2], [1, 1, 2]]).statistic


def test_messages_name_what_the_user_gave():
    with pytest.raises(WkappaTypeError, match="LazyFrame"):
        wk.agreement(pl.LazyFrame({"a": [1, 2], "b": [2, 2]}))
    with pytest.raises(WkappaError, match=r"'ordinal'.*'bipolar'"):
        wk.agreement([[1, 2], [2, 2]], weights="bogus")
    with pytest.raises(WkappaError, match=r"missing rating"):
        wk.agreement(
            np.array([[pd.NaT, "a"], ["a", "b"]], dtype=object),
            labels=["a", "b"],
            nan_policy="raise",
        )


# ---------------------------------------------------------------- 11. warnings' lines


def _warned_here(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert caught, "no warning"
    assert all(w.filename == __file__ for w in caught), [w.filename for w in caught]


def test_warnings_point_at_the_caller():
    frame = pl.DataFrame({"a": [1, 1], "b": [1, 1]})
    _warned_here(lambda: wk.agreement([[1, 1], [1, 1]]))
    _warned_here(lambda: wkf.agreement(frame, raters=["a", "b"]))
    _warned_here(lambda: wkf.kappa_test(frame, y_true="a", y_pred="b"))
    accumulator = wk.KappaAccumulator(labels=[1, 2])
    accumulator.update([1, 1], [1, 1])
    _warned_here(accumulator.result)


# ---------------------------------------------------------------- 12. frames, every row omitted


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_frames_two_raters_with_every_row_omitted(engine):
    df = pd.DataFrame({"g": [1, 1], "a": ["x", None], "b": [None, "y"]})
    if engine == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        df = duckdb.from_df(df)
    options = {"y_true": "a", "y_pred": "b", "nan_policy": "omit", "weights": "unweighted"}
    with pytest.warns(UndefinedKappaWarning):
        assert math.isnan(wkf.weighted_kappa(df, **options))
    with pytest.warns(UndefinedKappaWarning):
        assert math.isnan(wkf.kappa_test(df, **options).statistic)
    with pytest.warns(UndefinedKappaWarning):
        table = wkf.kappa_by_group(df, by="g", **options)
    kappa = table["kappa"] if engine == "pandas" else table.df()["kappa"]
    assert math.isnan(float(kappa[0]))


def test_pickle_round_trip_of_a_result():
    result = wk.agreement([[1, 2], [2, 2], [1, 1]])
    again = pickle.loads(pickle.dumps(result))
    assert again.statistic == result.statistic


def test_fleiss_exact_reference_matches():
    counts = [[3, 0, 0], [0, 3, 0], [1, 1, 1], [0, 0, 3], [2, 1, 0]]
    assert wk.agreement_from_counts(counts).statistic == pytest.approx(
        float(fleiss_exact(counts)), rel=1e-14
    )


# ---------------------------------------------------------------- one two-rater statistic


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("seed", range(5))
def test_conger_and_pairwise_of_two_raters_are_weighted_kappa_bit_for_bit(weights, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    a = rng.integers(0, 5, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, 5, n))
    expected = wk.weighted_kappa(a, b, weights=weights)
    result = wk.agreement(np.column_stack([a, b]), coefficient="conger", weights=weights)
    assert result.statistic == expected
    assert result.pairwise()[0, 1] == expected
    third = rng.integers(0, 5, n)
    three = wk.agreement(np.column_stack([a, b, third]), coefficient="fleiss", weights=weights)
    assert three.pairwise()[0, 1] == expected
    assert three.pairwise()[1, 2] == wk.weighted_kappa(b, third, weights=weights)


def test_panel_uses_the_two_rater_statistic():
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 80)
    panel = np.column_stack(
        [np.where(rng.random(80) < 0.8, truth, rng.integers(0, 4, 80)) for _ in range(3)]
    )
    candidate = np.where(rng.random(80) < 0.6, truth, rng.integers(0, 4, 80))
    result = wk.rater_vs_panel(panel, candidate, weights="quadratic", n_resamples=99, rng=0)
    expected = [wk.weighted_kappa(candidate, panel[:, j], weights="quadratic") for j in range(3)]
    assert result.candidate_vs_members.tolist() == expected


# ------------------------------------- 2, 4, 10 again: rater_vs_panel reads as agreement does


def test_rater_vs_panel_reads_masks_categoricals_and_lazy_frames_as_agreement_does():
    """rater_vs_panel read the panel with np.asarray / to_numpy: masked entries counted as
    ratings (panel and candidate), ordered categoricals and Enums were refused for weights,
    and a LazyFrame gave the shape () message."""
    panel = np.array([[1, 1, 2], [2, 2, 2], [3, 2, 3], [1, 1, 1], [3, 3, 3], [2, 1, 2]])
    candidate = np.array([1, 2, 3, 2, 3, 2])
    hole = np.zeros(panel.shape, dtype=bool)
    hole[0, 0] = True
    with_nan = np.where(hole, nan, panel)

    def difference(ratings, candidate, **options):
        with warnings.catch_warnings():  # six items: a few replicates are undefined
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            result = wk.rater_vs_panel(ratings, candidate, n_resamples=99, rng=0, **options)
        return result.difference

    assert difference(np.ma.array(panel, mask=hole), candidate) == difference(with_nan, candidate)
    masked = np.ma.array(candidate, mask=[True, False, False, False, False, False])
    assert difference(panel, masked) == difference(panel, np.where(masked.mask, nan, candidate))
    order = ["low", "mid", "high"]
    named = pd.DataFrame(
        {
            f"r{g}": pd.Categorical([order[v - 1] for v in panel[:, g]], order, ordered=True)
            for g in range(3)
        }
    )
    named_candidate = pd.Categorical([order[v - 1] for v in candidate], order, ordered=True)
    expected = difference(panel, candidate, weights="quadratic")
    assert difference(named, named_candidate, weights="quadratic") == expected
    enum = pl.from_pandas(named.astype(str)).with_columns(pl.all().cast(pl.Enum(order)))
    enum_candidate = pl.Series([order[v - 1] for v in candidate], dtype=pl.Enum(order))
    assert difference(enum, enum_candidate, weights="quadratic") == expected
    with pytest.raises(WkappaTypeError, match="`ratings` is a polars LazyFrame"):
        difference(enum.lazy(), enum_candidate)


def test_number_and_string_rater_columns_are_refused_as_mixed_kinds():
    """np.concatenate turned the numbers into strings, and the message then said 1 was not in
    `labels` ['1', ...], which the user never passed (as `weighted_kappa` says: kinds)."""
    frame = pd.DataFrame({"a": [1, 2, 3, 1], "b": ["x", "y", "z", "x"], "c": [2, 2, 3, 1]})
    cases = [
        lambda: wk.agreement(frame),
        lambda: wk.agreement(pl.from_pandas(frame)),
        lambda: wkf.agreement(frame, raters=["a", "b", "c"]),
        lambda: wk.rater_vs_panel(frame[["b", "c"]], frame.a),
    ]
    for call in cases:
        with pytest.raises(WkappaError, match=r"mix kinds: column '[abc]' holds (numbers|strings)"):
            call()
    # a column without any rating has no kind: it does not mix
    empty = pd.DataFrame({"a": [1, 2, 1], "b": [None, None, None], "c": [1, 2, 2]})
    assert wk.agreement(empty).n_raters == 3


def test_one_rule_for_ratings_of_two_kinds_for_one_two_and_several_raters():
    """Two raters, several raters and the blocks of a Dask array refused numbers beside
    strings with three different messages and rules (the several-raters rule let a column of
    strings beside one of mixed objects through to the sort)."""
    numbers, words = np.array([1, 2, 1, 2]), np.array(["x", "y", "x", "y"])
    mixed = np.array([1, "y", 1, "y"], dtype=object)
    said = "holds numbers or booleans but {} holds strings, so no rating of one can equal"
    with pytest.raises(WkappaError, match=said.format("`y_pred`")):
        wk.weighted_kappa(numbers, words, weights="unweighted")
    with pytest.raises(WkappaError, match=said.format("column 'b'")):
        wk.agreement(pd.DataFrame({"a": numbers, "b": words}))
    with pytest.raises(WkappaError, match=said.format("rater 1")):
        wk.agreement([[n, w] for n, w in zip(numbers.tolist(), words.tolist(), strict=True)])
    with pytest.raises(WkappaError, match="'a' holds strings but column 'b' holds mixed values"):
        wk.agreement(pd.DataFrame({"a": words, "b": mixed}))
    da = pytest.importorskip("dask.array")
    blocks = da.from_array(np.array([1, 2, "x", "y"], dtype=object), chunks=2)
    with pytest.raises(WkappaError, match=said.format("block 1 of `y_true`/`y_pred`")):
        wk.weighted_kappa(blocks, blocks, weights="unweighted")
    # the same words for an ordered coefficient and for bounds, whoever reads the ratings
    for call in (
        lambda: wk.weighted_kappa(words, words),
        lambda: wk.agreement(pd.DataFrame({"a": words, "b": words}), weights="quadratic"),
    ):
        with pytest.raises(WkappaError, match="need ordered categories, but the ratings are"):
            call()
    for call in (
        lambda: wk.weighted_kappa(words, words, weights="unweighted", min_rating=0),
        lambda: wk.agreement(pd.DataFrame({"a": words, "b": words}), max_rating=3),
    ):
        with pytest.raises(WkappaError, match="apply to integer ratings only; the ratings are"):
            call()


def test_panel_comparison_explains_itself_like_every_result():
    """PanelComparison was the one result without explain()."""
    panel = np.array([[1, 1, 2], [2, 2, 2], [3, 2, 3], [1, 1, 1], [3, 3, 3], [2, 1, 2]] * 3)
    candidate = np.array([1, 2, 3, 2, 3, 2] * 3)
    result = wk.rater_vs_panel(panel, candidate, n_resamples=99, rng=0, alternative="greater")
    text = result.explain()
    ci = result.confidence_interval()
    assert "a panel of 3 members" in text and "18 items" in text
    assert f"{result.difference:.6g}" in text and f"[{ci.low:.6g}, ∞]" in text
    assert "one-sided" in text and f"{result.pvalue:.4g}" in text


# ------------------------------------------- perfect agreement: a standard error of exactly 0

COEFFICIENTS = ("fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent")


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
@pytest.mark.parametrize("weights", ["unweighted", "quadratic", "linear", "ordinal"])
@pytest.mark.parametrize("n_raters", [2, 3, 4, 5])
def test_perfect_agreement_has_a_standard_error_of_exactly_zero(coefficient, weights, n_raters):
    """Every rater gives every item the same category: Gwet's linearised terms are all equal
    to the coefficient, 1, so the standard error is 0 and the p-value 0 (as unweighted Fleiss
    gave). The weighted Fleiss and Conger coefficients gave a standard error of 9.1e-17
    (p = 3.7e-95; linear Conger 4.5e-17): the terms ``(pa_i - pe) / (1 - pe)`` with ``pe``
    rounded were a rounding away from 1. Also with a missing rating, each item keeping two."""
    column = np.array([1, 2, 3, 1, 4, 2, 3, 4, 1], dtype=np.float64)
    ratings = np.repeat(column[:, None], n_raters, axis=1)
    cases = [ratings]
    if n_raters >= 3:
        missing = ratings.copy()
        missing[0, 0] = missing[4, 2] = nan
        cases.append(missing)
    for case in cases:
        result = wk.agreement(case, coefficient=coefficient, weights=weights)
        assert result.statistic == 1.0
        assert result.standard_error == 0.0, (case, result.standard_error)
        if coefficient != "percent":  # (percent agreement's null is kappa0 = 0 too)
            assert result.pvalue == 0.0
        assert tuple(result.confidence_interval()[:2]) == (1.0, 1.0)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_diagnostics_of_a_propagated_result_are_nan(coefficient) -> None:
    # per_category() raised a raw IndexError, pairwise() and leave_one_rater_out() said the
    # result "was made from counts": a 'propagate' result that met a missing rating keeps no
    # item, and its diagnostics are nan, as its coefficient is.
    ratings = np.array([[1, 1, 2], [2, 2, np.nan], [3, 3, 3], [1, 2, 1]])
    result = wk.agreement(ratings, coefficient=coefficient, nan_policy="propagate")
    assert math.isnan(result.statistic)
    per_category = result.per_category()
    assert list(per_category) == [1, 2, 3]
    assert all(math.isnan(v) for v in per_category.values())
    assert result.pairwise().shape == (3, 3) and np.isnan(result.pairwise()).all()
    assert result.leave_one_rater_out().shape == (3,)
    assert np.isnan(result.leave_one_rater_out()).all()


def test_panel_member_pairs_diagonal_is_nan_for_a_member_without_ratings() -> None:
    # member_pairs had 1 on the diagonal of a member who rated nothing; pairwise() has nan.
    panel = np.array([[1, 1, np.nan], [2, 2, np.nan], [3, 3, np.nan], [1, 2, np.nan]])
    with pytest.warns(UndefinedKappaWarning):
        result = wk.rater_vs_panel(panel, [1, 2, 3, 1], rng=0, n_resamples=99)
    diagonal = np.diag(result.member_pairs)
    assert diagonal[:2].tolist() == [1.0, 1.0] and math.isnan(diagonal[2])
    np.testing.assert_array_equal(
        np.diag(wk.agreement(panel, coefficient="conger").pairwise()), diagonal
    )
