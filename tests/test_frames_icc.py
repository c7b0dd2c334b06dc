"""wkappa.frames.icc / icc_all / ccc: wide and long layouts on every frame library equal
wkappa.icc / wkappa.ccc on the same ratings as an array."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from test_icc import exact_mean_squares, far_apart
from wkappa.exceptions import UndefinedReliabilityWarning, WkappaError, WkappaTypeError

pl = pytest.importorskip("polars")
wkf = pytest.importorskip("wkappa.frames")

RATERS = ["r0", "r1", "r2"]

rng = np.random.default_rng(28)
N = 120
COMPLETE = 20 + rng.normal(size=(N, 1)) * 3 + rng.normal(size=(1, 3)) + rng.normal(size=(N, 3))
MISSING = COMPLETE[:30].copy()  # (REML takes a while on many targets)
MISSING[rng.random(MISSING.shape) < 0.1] = np.nan
MISSING[0, 1] = np.nan


def cells(values: np.ndarray) -> list[float | None]:
    return [None if np.isnan(v) else float(v) for v in values]


def wide_frame(values: np.ndarray, library):
    """One column per rater; a missing rating is a null."""
    return library.frame({name: cells(values[:, j]) for j, name in enumerate(RATERS)})


def long_frame(values: np.ndarray, library):
    """One row per rating (missing ratings left out)."""
    rows = [
        (i, name, float(values[i, j]))
        for i in range(values.shape[0])
        for j, name in enumerate(RATERS)
        if not np.isnan(values[i, j])
    ]
    columns = {
        "subject": [row[0] for row in rows],
        "judge": [row[1] for row in rows],
        "score": [row[2] for row in rows],
    }
    return library.frame(columns)


def assert_same(result: wk.ICCResult, expected: wk.ICCResult, rel: float = 1e-9) -> None:
    assert result.form == expected.form and result.method == expected.method
    for name in ("statistic", "pvalue", "f_statistic", "df2", "ms_items", "ms_error"):
        assert getattr(result, name) == pytest.approx(getattr(expected, name), rel=rel, abs=1e-12)
    assert result.confidence_interval() == pytest.approx(expected.confidence_interval(), rel=rel)
    assert (result.n_items, result.n_raters, result.n_ratings) == (
        expected.n_items,
        expected.n_raters,
        expected.n_ratings,
    )


def test_wide_complete_equals_arrays(frame_library) -> None:
    expected = wk.icc_all(COMPLETE, alternative="greater")
    results = wkf.icc_all(wide_frame(COMPLETE, frame_library), raters=RATERS, alternative="greater")
    assert list(results) == list(expected)
    for form in expected:
        assert_same(results[form], expected[form])
    one = wkf.icc(wide_frame(COMPLETE, frame_library), raters=RATERS, form="ICC3k", icc0=0.5)
    assert_same(one, wk.icc(COMPLETE, form="C,k", icc0=0.5))


@pytest.mark.parametrize(
    "values",
    [COMPLETE * 1e305, 2.0**62 + 4096.0 * np.rint(COMPLETE * 10), 1e9 + COMPLETE * 1e-6],
    ids=["1e305", "2**62", "1e9"],
)
def test_wide_far_from_zero_equals_arrays(frame_library, values) -> None:
    """The lazy engines' moments overflowed near 1e308 (nan) and lost the spread's digits far
    from zero (2**62, 1e9); they are taken again on centred, scaled ratings."""
    expected = wk.icc(values)
    assert_same(wkf.icc(wide_frame(values, frame_library), raters=RATERS), expected, rel=1e-9)


def test_targets_far_apart_keep_the_error_mean_square(frame_library) -> None:
    """The lazy engines took SS_error as the rest of SS_total: with targets 1e8 apart and
    raters' errors near 1 their MSE was 0 (F inf), with targets 1e6 apart 4e-4 off. The
    aggregation sums the raters' deviations from the targets' row means instead (as
    wk.ICCAccumulator's state): the mean squares equal the exact ones."""
    from fractions import Fraction

    from test_icc import exact_mean_squares

    spread = np.random.default_rng(5).normal(size=(N, 1)) * 1e8
    values = np.round((spread + COMPLETE - 20) * 4) / 4  # quarters: exact in float64
    exact = exact_mean_squares([[Fraction(v) for v in row] for row in values.tolist()])
    result = wkf.icc(wide_frame(values, frame_library), raters=RATERS)
    for name, key in (("ms_items", "msr"), ("ms_raters", "msc"), ("ms_error", "mse")):
        assert getattr(result, name) == pytest.approx(float(exact[key]), rel=1e-9), name


@settings(max_examples=30, deadline=None)
@given(
    st.integers(3, 8).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(-1000, 1000), min_size=n, max_size=n),
            st.lists(st.lists(st.integers(-8, 8), min_size=3, max_size=3), min_size=n, max_size=n),
        )
    ),
    st.sampled_from([1e6, 1e8, 1e10, 1e12]),
    st.booleans(),
)
def test_lazy_mean_squares_exact_when_effects_dwarf_the_residuals(design, offset, raters_far):
    """polars lazy (the engine's one aggregation): the deviations from the targets' row
    means are centred again on their row mean (the row mean's rounding, 2e-4 of the MSE with
    targets 1e8 apart, every digit at 1e12), and raters far apart have their means removed
    first (a second aggregation): every mean square is the exact one to 1e-12."""
    effects, residuals = design
    x = far_apart([*effects, 7, -3, 5], residuals, offset, raters_far)
    exact = exact_mean_squares([[Fraction(v) for v in row] for row in x.tolist()])
    lazy = pl.DataFrame({name: x[:, j] for j, name in enumerate(RATERS)}).lazy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        result = wkf.icc(lazy, raters=RATERS, form="C,1")
    floor = (1e-15 * offset) ** 2
    for name, key in (("ms_items", "msr"), ("ms_raters", "msc"), ("ms_error", "mse")):
        assert getattr(result, name) == pytest.approx(float(exact[key]), rel=1e-12, abs=floor)


def test_long_and_missing_ratings_equal_arrays(frame_library) -> None:
    # Missing ratings: REML on every engine, as wk.icc (the lazy engines read the matrix).
    expected = wk.icc(MISSING, form="A,1")
    assert expected.method == "reml"
    assert_same(wkf.icc(wide_frame(MISSING, frame_library), raters=RATERS), expected, rel=1e-7)
    long = long_frame(MISSING, frame_library)
    assert_same(wkf.icc(long, item="subject", rater="judge", rating="score"), expected, 1e-7)
    complete_long = long_frame(COMPLETE, frame_library)
    results = wkf.icc_all(complete_long, item="subject", rater="judge", rating="score")
    for form, result in wk.icc_all(COMPLETE).items():
        assert_same(results[form], result)
    with pytest.raises(WkappaError, match="missing rating"):
        wkf.icc(wide_frame(MISSING, frame_library), raters=RATERS, nan_policy="raise")


def test_ccc_equals_arrays(frame_library) -> None:
    two = wkf.ccc(wide_frame(COMPLETE, frame_library), raters=["r0", "r1"], alternative="greater")
    expected = wk.ccc(COMPLETE[:, 0], COMPLETE[:, 1], alternative="greater")
    assert two.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert two.confidence_interval() == pytest.approx(expected.confidence_interval(), rel=1e-9)
    overall = wkf.ccc(
        long_frame(COMPLETE, frame_library), item="subject", rater="judge", rating="score"
    )
    assert overall.statistic == pytest.approx(wk.ccc(COMPLETE).statistic, rel=1e-12)


def test_the_lazy_wide_route_counts_moments_in_the_engine(monkeypatch) -> None:
    # Complete ratings on a lazy engine never come into this process as a matrix.
    from wkappa._frames import numeric

    def refuse(data):
        raise AssertionError("the ratings were read into a matrix")

    monkeypatch.setattr(numeric, "numeric_matrix", refuse)
    results = wkf.icc_all(
        pl.DataFrame({n: COMPLETE[:, j] for j, n in enumerate(RATERS)}).lazy(), raters=RATERS
    )
    assert results["A,1"].statistic == pytest.approx(wk.icc(COMPLETE).statistic, rel=1e-9)


def test_frame_errors() -> None:
    frame = pl.DataFrame({n: COMPLETE[:, j] for j, n in enumerate(RATERS)})
    with pytest.raises(WkappaError, match="Give either"):
        wkf.icc(frame)
    with pytest.raises(WkappaError, match="Give either"):
        wkf.icc(frame, raters=RATERS, item="r0")
    with pytest.raises(WkappaError, match="needs all of"):
        wkf.icc(frame, item="r0", rater="r1")
    with pytest.raises(WkappaError, match="`raters` names the column 'rX', which is not"):
        wkf.icc(frame, raters=["r0", "rX"])
    with pytest.raises(WkappaTypeError, match="list of column names"):
        wkf.icc(frame, raters="r0")
    with pytest.raises(WkappaTypeError, match="keyword"):
        wkf.icc(frame, RATERS)
    text = frame.with_columns(pl.col("r1").cast(pl.String))
    with pytest.raises(WkappaError, match="must be numeric"):
        wkf.icc(text, raters=RATERS)
    with pytest.raises(WkappaError, match="`form`"):
        wkf.icc(frame, raters=RATERS, form="ICC9")
    with pytest.raises(WkappaError, match="`raters` needs at least two columns"):
        wkf.icc(frame, raters=["r0"])
    twice = pl.DataFrame({"t": [1, 1, 2, 2], "r": ["a", "a", "a", "b"], "x": [1.0, 2, 3, 4]})
    with pytest.raises(WkappaError, match="more than once"):
        wkf.icc(twice, item="t", rater="r", rating="x")
    with pytest.raises(WkappaTypeError, match="data frame"):
        wkf.icc(COMPLETE, raters=RATERS)


def test_long_layout_needs_three_different_columns() -> None:
    # Before: a raw ValueError (icc) or a silent kappa of -1 (agreement).
    from wkappa import frames

    df = pl.DataFrame({"id": [1, 1, 2, 2, 3, 3], "r": ["a", "b"] * 3, "s": [1.0, 2, 3, 4, 5, 5]})
    with pytest.raises(WkappaError, match="must name three different columns"):
        frames.icc(df, item="id", rater="s", rating="s")
    with pytest.raises(WkappaError, match="must name three different columns"):
        frames.agreement(df, item="id", rater="r", rating="r")
    assert frames.icc(df, item="id", rater="r", rating="s").statistic == pytest.approx(
        wk.icc(np.array([[1.0, 2], [3, 4], [5, 5]])).statistic
    )


def test_undefined_warnings_point_at_the_callers_line(frame_library) -> None:
    """Constant ratings: the UndefinedReliabilityWarning of frames.icc, icc_all and ccc
    pointed at wkappa/_frame_correlations.py (fixed stacklevels) instead of this file."""
    import warnings

    constant = np.ones((6, len(RATERS)))
    calls = [
        lambda: wkf.icc(wide_frame(constant, frame_library), raters=RATERS),
        lambda: wkf.icc_all(wide_frame(constant, frame_library), raters=RATERS),
        lambda: wkf.ccc(wide_frame(constant, frame_library), raters=RATERS),
    ]
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        found = [w for w in caught if issubclass(w.category, UndefinedReliabilityWarning)]
        assert found and all(w.filename == __file__ for w in found), [
            (w.filename, w.lineno) for w in caught
        ]


def test_one_rater_column_is_refused_by_the_rule_of_every_wide_reader():
    """frames.icc and frames.ccc named `ratings` and `x`, parameters the caller never passed;
    frames.agreement and the command line say the same words."""
    df = pl.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 2.0, 2.0]})
    for call in (wkf.icc, wkf.ccc, wkf.agreement):
        with pytest.raises(WkappaError, match=r"^`raters` needs at least two columns\.$"):
            call(df, raters=["a"])


def test_a_rating_given_twice_is_found_whatever_the_columns_are_called():
    """The query's own column names ('len', 'times') could collide with the user's."""
    df = pl.DataFrame(
        {
            "len": [1, 1, 2, 2, 3, 3, 1],
            "times": ["a", "b", "a", "b", "a", "b", "a"],
            "x": [1.0, 2, 3, 4, 5, 7, 9],
        }
    )
    for call in (wkf.icc, wkf.agreement):
        with pytest.raises(WkappaError, match="Rater 'a' rated item 1 more than once"):
            call(df, item="len", rater="times", rating="x")


HUGE = 2**62
HUGE_RATINGS = HUGE + np.array([[0, 1, 1], [2, 2, 3], [5, 4, 6], [7, 7, 7], [9, 8, 10], [3, 2, 2]])


@pytest.mark.parametrize("missing", [False, True], ids=["complete", "a-null"])
def test_integer_ratings_past_2_53_keep_their_differences(frame_library, missing):
    """Integer ratings near 2**62 differ by a few units, which float64 rounds away (2**62 + 1
    is 2**62): the frame functions returned nan (every rating equal), and a pyarrow table
    raised pyarrow's ArrowInvalid. They are now taken minus their smallest in integer
    arithmetic first, as wkappa.icc centres such integers; the ICCs and the CCC of ratings
    minus one constant are theirs."""
    ratings = HUGE_RATINGS
    columns = {name: [int(v) for v in ratings[:, j]] for j, name in enumerate(RATERS)}
    offsets = (ratings - HUGE).astype(float)
    if missing:
        columns["r1"][2] = None
        offsets[2, 1] = np.nan
    rows = [(i, name, columns[name][i]) for i in range(len(ratings)) for name in RATERS]
    layouts = [
        {"raters": RATERS},
        {"item": "item", "rater": "rater", "rating": "rating"},
    ]
    frames_of = [
        frame_library.frame(columns, dtypes=dict.fromkeys(RATERS, "int64")),
        frame_library.frame(
            {"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
             "rating": [r[2] for r in rows]},
            dtypes={"rating": "int64"},
        ),
    ]  # fmt: skip
    policy = {"nan_policy": "omit"} if missing else {}
    if not missing:  # the array function on the integers themselves
        assert wk.icc(ratings).statistic == pytest.approx(wk.icc(offsets).statistic, rel=1e-12)
    for frame, layout in zip(frames_of, layouts, strict=True):
        for form in ("A,1", "C,k"):
            expected = wk.icc(offsets, form=form, **policy).statistic
            found = wkf.icc(frame, form=form, **layout, **policy).statistic
            assert found == pytest.approx(expected, rel=1e-12)
    pair = offsets[:, :2]
    expected_ccc = wk.ccc(pair[:, 0], pair[:, 1], **policy).statistic
    two = frame_library.frame(
        {"r0": columns["r0"], "r1": columns["r1"]}, dtypes={"r0": "int64", "r1": "int64"}
    )
    found_ccc = wkf.ccc(two, raters=["r0", "r1"], **policy).statistic
    assert found_ccc == pytest.approx(expected_ccc, rel=1e-12)
