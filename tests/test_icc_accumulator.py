"""wk.ICCAccumulator far from zero: the state's shift keeps the digits of ratings near 1e14
(and of integers beyond 2**53), against an exact rational ANOVA and wk.icc, for any split
into batches, any merge order, states with far-apart shifts, and the JSON state."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from published import SHROUT_FLEISS_RATINGS
from test_icc import FORMS, exact_iccs, exact_mean_squares
from wkappa.exceptions import UndefinedReliabilityWarning, WkappaError

stats = pytest.importorskip("scipy.stats")

MEAN_SQUARES = (
    ("ms_items", "msr"),
    ("ms_raters", "msc"),
    ("ms_error", "mse"),
    ("ms_within", "msw"),
)
# Quarter steps stay exact in float64 up to 2**51 (about 2.25e15).
OFFSETS = [0, 2**40, 10**14, -3 * 10**14 + 1]

designs = st.integers(2, 12).flatmap(
    lambda n: st.integers(2, 5).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(-40, 40), min_size=k, max_size=k), min_size=n, max_size=n
        )
    )
)


def _merged_in_drawn_order(parts: list[wk.ICCAccumulator], data: st.DataObject):
    """Merge ``parts`` pairwise in an order hypothesis draws (any tree, either side left)."""
    parts = list(parts)
    while len(parts) > 1:
        i = data.draw(st.integers(0, len(parts) - 1))
        left = parts.pop(i)
        j = data.draw(st.integers(0, len(parts) - 1))
        right = parts.pop(j)
        parts.append(left + right)
    return parts[0]


def _check_against_exact(acc: wk.ICCAccumulator, rows: list[list[Fraction]]) -> None:
    x = np.array([[float(v) for v in row] for row in rows])
    exact = exact_iccs(rows)
    ms = exact_mean_squares(rows)
    scale = float(max(ms.values())) or 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        results = {form: acc.result(form=form) for form in FORMS}
        direct = wk.icc_all(x)
    for form, value in exact.items():
        if value is None:  # a zero denominator: rounding residue, see test_icc
            continue
        got, want = results[form].statistic, float(value)
        tolerance = {"rel": 1e-9, "abs": 1e-9 * (1 + 1 / scale)}
        assert got == pytest.approx(want, **tolerance), form
        assert got == pytest.approx(direct[form].statistic, **tolerance), form
    a1 = results["A,1"]
    for name, key in MEAN_SQUARES:
        assert getattr(a1, name) == pytest.approx(float(ms[key]), rel=1e-9, abs=1e-9 * scale)


@settings(max_examples=examples(60), deadline=None)
@given(designs, st.sampled_from(OFFSETS), st.booleans(), st.data())
def test_any_split_and_merge_order_equals_the_exact_anova(rows, offset, quarters, data) -> None:
    exact = [[Fraction(v, 4 if quarters else 1) + offset for v in row] for row in rows]
    x = np.array([[float(v) for v in row] for row in exact])
    assert all(Fraction(float(v)) == v for row in exact for v in row)  # exact in float64
    n = len(rows)
    cuts = sorted(data.draw(st.sets(st.integers(1, n - 1), max_size=min(4, n - 1))))
    bounds = list(zip([0, *cuts], [*cuts, n], strict=True))
    parts = [wk.ICCAccumulator().update(x[a:b]) for a, b in bounds]
    _check_against_exact(_merged_in_drawn_order(parts, data), exact)
    order = data.draw(st.permutations(bounds))
    streamed = wk.ICCAccumulator()
    for a, b in order:
        streamed.update(x[a:b])
    _check_against_exact(streamed, [exact[i] for a, b in order for i in range(a, b)])


@settings(max_examples=examples(40), deadline=None)
@given(designs, st.data())
def test_batches_at_different_offsets_merge_in_any_order(rows, data) -> None:
    """Each batch near its own offset (0, 2**40, 1e14, -3e14): the states' shifts differ
    by up to 4e14 and are re-based in whatever order the merges come."""
    n = len(rows)
    cuts = sorted(data.draw(st.sets(st.integers(1, n - 1), min_size=1, max_size=min(4, n - 1))))
    bounds = list(zip([0, *cuts], [*cuts, n], strict=True))
    offsets = [data.draw(st.sampled_from(OFFSETS)) for _ in bounds]
    exact = [
        [Fraction(v, 4) + offset for v in row]
        for (a, b), offset in zip(bounds, offsets, strict=True)
        for row in rows[a:b]
    ]
    x = np.array([[float(v) for v in row] for row in exact])
    parts = [wk.ICCAccumulator().update(x[a:b]) for a, b in bounds]
    _check_against_exact(_merged_in_drawn_order(parts, data), exact)


@pytest.mark.parametrize("offset", [1e9, 1e12, 1e14])
def test_ratings_near_1e14_keep_their_digits(offset) -> None:
    """Before: batch and row means were taken in rating units (ulp 1/64 near 1e14), so the
    accumulator's ICC was 1e-7 (1e9), 4e-4 (1e12) and 2e-2 (1e14) away from wk.icc's."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 3)) + offset
    acc = wk.ICCAccumulator()
    for start in range(0, 60, 7):
        acc.update(x[start : start + 7])
    for form in FORMS:
        want = wk.icc(x, form=form)
        got = acc.result(form=form)
        assert got.statistic == pytest.approx(want.statistic, rel=1e-12), form
        assert got.pvalue == pytest.approx(want.pvalue, rel=1e-9), form
        assert tuple(got.confidence_interval()) == pytest.approx(
            tuple(want.confidence_interval()), rel=1e-9
        )


def test_raters_far_apart_keep_the_error_mean_square() -> None:
    """Before: SS_error was the rest of the raters' sums of squared deviations; with raters
    1e8 apart and errors near 1 the accumulator's MSE was 100% off (1e4 apart: 1e-8). The
    effects are still kept at their size, so 1e12 apart leaves about 1e-6 (wk.icc: 2e-9)."""
    rng = np.random.default_rng(3)
    for offset, rel in ((1e4, 1e-12), (1e8, 1e-8)):
        x = rng.normal(size=(300, 1)) + rng.normal(size=(300, 4))
        x = np.round((x + np.array([[0, offset, -offset, 2 * offset]])) * 4) / 4
        exact = exact_mean_squares([[Fraction(v) for v in row] for row in x.tolist()])
        acc = sum(wk.ICCAccumulator().update(x[i : i + 50]) for i in range(0, 300, 50))
        result = acc.result(form="C,1")
        for name, key in MEAN_SQUARES:
            assert getattr(result, name) == pytest.approx(float(exact[key]), rel=rel), name


def test_integers_beyond_2_to_the_53_keep_their_differences() -> None:
    """Before: int64 ratings near 2**62 were rounded to float64 (steps of 1024): the
    accumulator's ICC was nan ('all ratings equal') where wk.icc's is -0.0175."""
    base = np.array(SHROUT_FLEISS_RATINGS, dtype=np.int64)
    for offset in (2**62, -(2**62), 2**53 + 1):
        x = base + np.int64(offset)
        parts = [wk.ICCAccumulator().update(x[a:b]) for a, b in ((0, 2), (2, 3), (3, 6))]
        merged = parts[2] + parts[0] + parts[1]
        state = merged.to_dict()
        assert isinstance(state["shift"], int)  # exact, not rounded to a float
        back = wk.ICCAccumulator.from_dict(json.loads(json.dumps(state)))
        for acc in (merged, back):
            for form in FORMS:
                assert acc.result(form=form).statistic == pytest.approx(
                    wk.icc(x, form=form).statistic, rel=1e-12
                )
    # integers beyond 2**53 merged with batches of floats near zero
    mixed = wk.ICCAccumulator().update(base + np.int64(2**62)) + wk.ICCAccumulator().update(
        base.astype(np.float64) + 0.5
    )
    rows = [[Fraction(int(v)) + 2**62 for v in row] for row in SHROUT_FLEISS_RATINGS]
    rows += [[Fraction(int(v)) + Fraction(1, 2) for v in row] for row in SHROUT_FLEISS_RATINGS]
    want = exact_iccs(rows)
    for form in FORMS:
        assert mixed.result(form=form).statistic == pytest.approx(float(want[form]), rel=1e-12)


@settings(max_examples=examples(40), deadline=None)
@given(designs, designs, st.sampled_from([10**14, 2**40, -(10**14)]), st.booleans())
def test_states_with_far_apart_shifts_merge_right(low, high, offset, high_first) -> None:
    """A state of ratings near 0 and one near ``offset``: the second's mean is re-based onto
    the first's shift (``offset`` minus a small number, rounded once), in either order. The
    targets then differ far more than the raters: every ICC is near 1, and the mean squares
    of raters and error are the small ones. Each equals the exact one: the rater effects
    and SS_error never see the shift. (wk.icc, which shifts by one rating, takes its column
    means near 5e13 here: its MSC was 7% and its MSE 2e-4 away on such data.)"""
    k = min(len(low[0]), len(high[0]))
    near = [[Fraction(v) for v in row[:k]] for row in low]
    far = [[Fraction(v, 4) + offset for v in row[:k]] for row in high]
    parts = [wk.ICCAccumulator().update(np.array(rows, dtype=np.float64)) for rows in (near, far)]
    if high_first:
        parts.reverse()
    merged = parts[0] + parts[1]
    assert merged.to_dict()["shift"] == parts[0].to_dict()["shift"]
    exact = exact_iccs(near + far)  # (row order does not matter)
    for form in FORMS:
        want = exact[form]
        assert want is not None
        assert merged.result(form=form).statistic == pytest.approx(float(want), rel=1e-12)
    ms = exact_mean_squares(near + far)
    a1 = merged.result(form="A,1", alternative="greater")
    for name, key in MEAN_SQUARES:
        assert getattr(a1, name) == pytest.approx(float(ms[key]), rel=1e-12, abs=1e-300), name
    if ms["mse"] > 0:
        f = ms["msr"] / ms["mse"]
        assert a1.f_statistic == pytest.approx(float(f), rel=1e-12)
        want_p = stats.f.sf(float(f), len(near + far) - 1, (len(near + far) - 1) * (k - 1))
        assert a1.pvalue == pytest.approx(want_p, rel=1e-9, abs=1e-300)


def test_state_carries_the_shift_through_json() -> None:
    x = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64) + 1e14 + 0.25
    first = wk.ICCAccumulator().update(x[:4])
    state = json.loads(json.dumps(first.to_dict()))
    assert state["version"] == 4 and state["shift"] == x[0, 0]
    unit = state["unit"]
    assert unit == 2.0**46  # the power of two just below the largest rating
    assert state["mean"] * unit == (x[:4] - x[0, 0]).mean()  # the same sum, scaled exactly
    effects = (x[:4] - x[:4].mean(axis=1, keepdims=True)).mean(axis=0)
    assert [e * unit for e in state["rater_effects"]] == pytest.approx(effects, abs=1e-15)
    back = wk.ICCAccumulator.from_dict(state)
    assert back.to_dict() == first.to_dict()  # bit for bit
    second = wk.ICCAccumulator().update(x[4:])
    assert (back + second).to_dict() == (first + second).to_dict()
    assert (back + second).result().statistic == pytest.approx(wk.icc(x).statistic, rel=1e-12)
    assert wk.ICCAccumulator().to_dict()["shift"] == 0.0  # empty
    assert wk.ICCAccumulator().to_dict()["unit"] == 1.0


def test_states_of_earlier_versions_and_a_bad_shift_are_refused() -> None:
    state = wk.ICCAccumulator().update(SHROUT_FLEISS_RATINGS).to_dict()
    old = {key: value for key, value in state.items() if key not in ("shift", "unit")}
    for version in (1, 2, 3):
        with pytest.raises(WkappaError, match=rf"version {version}; this wkappa reads version 4"):
            wk.ICCAccumulator.from_dict({**old, "version": version})
    with pytest.raises(WkappaError, match=r"Hint: make the state again with this wkappa"):
        wk.ICCAccumulator.from_dict({**old, "version": 1})
    for bad in (None, "1", True, float("inf"), float("nan"), 10**400):
        with pytest.raises(WkappaError, match=r"`state\['shift'\]` must be a finite number"):
            wk.ICCAccumulator.from_dict({**state, "shift": bad})
    for bad in (None, 1, 3.0, 0.0, -2.0, float("inf"), float("nan"), "1.0"):
        with pytest.raises(WkappaError, match=r"`state\['unit'\]` must be a power of two"):
            wk.ICCAccumulator.from_dict({**state, "unit": bad})
    for key in ("mean", "row_m2", "error_m2"):
        with pytest.raises(WkappaError, match=rf"`state\['{key}'\]` must be a finite number"):
            wk.ICCAccumulator.from_dict({**state, key: 10**400})
    with pytest.raises(WkappaError, match="list of 4 finite numbers"):
        wk.ICCAccumulator.from_dict({**state, "rater_effects": [10**400, 0, 0, 0]})
    with pytest.raises(WkappaError, match="negative sum"):
        wk.ICCAccumulator.from_dict({**state, "error_m2": -1.0})
    huge = wk.ICCAccumulator.from_dict({**state, "row_m2": 1.5e308})
    with pytest.raises(WkappaError, match=r"beyond the float range. Hint: check the states"):
        huge + huge
    assert wk.ICCAccumulator.from_dict({**state, "shift": 2**70}).result().statistic == (
        wk.ICCAccumulator.from_dict(state).result().statistic
    )  # the shift does not enter the ICC


def test_rater_effects_beyond_the_float_range_answer_as_icc() -> None:
    """Raters 1e200 apart with targets 1 apart: SS_raters is beyond the float range in
    rating units, the targets' spread below rounding in the unit of 1e200. The accumulator
    answers as wk.icc does on the same ratings (it refused them, and once gave a silent nan)."""
    x = np.array([[0.0, 1e200], [1.0, 1e200], [3.0, 1e200]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)  # F is 0/0 in both
        for form in FORMS:
            got = wk.ICCAccumulator().update(x[:1]).update(x[1:]).result(form=form)
            want = wk.icc(x, form=form).statistic  # nan for C,1: MSR = MSE = 0
            assert got.statistic == pytest.approx(want, nan_ok=True), form


@pytest.mark.parametrize("scale", [1e-320, 1e-300, 1.0, 1e300])
def test_any_scale_of_the_ratings_answers_as_icc(scale: float) -> None:
    """Before: ratings near 1e-300 or 1e-320 (subnormal) gave nan and "every mean square is
    0" (their squares underflowed), near 1e300 a refusal; wk.icc scales them by a power of
    two, and so does the accumulator: in one batch, in batches, merged, and through JSON."""
    x = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64) * scale
    one = wk.ICCAccumulator().update(x)
    batches = wk.ICCAccumulator().update(x[:2]).update(x[2:])
    merged = wk.ICCAccumulator().update(x[3:]) + wk.ICCAccumulator().update(x[:3])
    back = wk.ICCAccumulator.from_dict(json.loads(json.dumps(merged.to_dict())))
    for form in FORMS:
        want = wk.icc(x, form=form, alternative="greater")
        for acc in (one, batches, merged, back):
            got = acc.result(form=form, alternative="greater")
            assert got.statistic == pytest.approx(want.statistic, rel=1e-12), form
            assert got.pvalue == pytest.approx(want.pvalue, rel=1e-9), form
            assert got.ms_error == pytest.approx(want.ms_error, rel=1e-12), form
            assert tuple(got.confidence_interval()) == pytest.approx(
                tuple(want.confidence_interval()), rel=1e-9
            ), form


def test_states_of_far_apart_scales_merge_as_icc() -> None:
    """A state of ratings near 1e-300 merged with one near 1e300 (and one of subnormal
    ratings): the smaller states' moments are taken into the larger unit."""
    x = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64)
    parts = [x[:2] * 1e-320, x[2:4] * 1e-300, x[4:] * 1e300]
    whole = np.concatenate(parts)
    states = [wk.ICCAccumulator().update(part) for part in parts]
    for merged in (states[0] + states[1] + states[2], states[2] + (states[1] + states[0])):
        for form in FORMS:
            want = wk.icc(whole, form=form)
            assert merged.result(form=form).statistic == pytest.approx(want.statistic, rel=1e-12)


@pytest.mark.parametrize("rows", [None, [[1.0, 2.0]]])
def test_a_result_of_fewer_than_two_items_says_what_to_do(rows: list[list[float]] | None) -> None:
    state = wk.ICCAccumulator() if rows is None else wk.ICCAccumulator().update(rows)
    with pytest.raises(
        WkappaError, match=r"at least two items; the accumulator has \d\. Hint: update"
    ):
        state.result()
