"""Edge cases of the intraclass and concordance correlations: counts under
``nan_policy='propagate'``, degenerate intervals and tests, ratings far from zero."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from published import SHROUT_FLEISS_RATINGS
from test_ccc import exact_ccc
from test_icc import exact_iccs, exact_mean_squares
from wkappa._cli.app import main
from wkappa.exceptions import UndefinedReliabilityWarning

# ----------------------------------------------------------------- n_ratings is a count

_WITH_A_HOLE = [[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, math.nan, 5.0], [4.0, 5.0, 7.0]]


def test_icc_n_ratings_is_a_count_under_propagate() -> None:
    """The statistic of 'propagate' is nan, the number of ratings read is not."""
    result = wk.icc(_WITH_A_HOLE, nan_policy="propagate")
    assert math.isnan(result.statistic)
    assert result.n_ratings == 11 and isinstance(result.n_ratings, int)
    assert result.n_ratings == wk.icc(_WITH_A_HOLE, nan_policy="omit").n_ratings
    assert result.to_dict()["n_ratings"] == 11
    assert "11 ratings" in result.explain()
    assert "nan_policy='propagate' makes every value nan" in result.explain()
    assert "REML" not in result.explain()
    assert "n_ratings=11" in repr(result)


def test_icc_n_ratings_of_a_propagated_feature_in_a_batch() -> None:
    x = np.asarray(_WITH_A_HOLE)
    batch = np.stack([x, np.nan_to_num(x, nan=2.5)], axis=2)
    result = wk.icc(batch, nan_policy="propagate")
    assert math.isnan(result.statistic[0]) and not math.isnan(result.statistic[1])
    assert list(result.n_ratings) == [11, 12]


def test_cli_icc_n_ratings_under_propagate(tmp_path, capsys) -> None:
    path = tmp_path / "hole.csv"
    path.write_text("a,b,c\n1,2,3\n2,3,4\n3,,5\n4,5,7\n")
    args = ["icc", str(path), "--raters", "a,b,c", "--nan-policy", "propagate"]
    assert main(args) == 0
    assert "4 items x 3 raters (a, b, c), 11 ratings" in capsys.readouterr().out
    assert main([*args, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["n_ratings"] == 11
    assert {form["n_ratings"] for form in document["icc"].values()} == {11}


# ----------------------------------------------------------------- CCC: degenerate inference


def _lin_se_z(x: np.ndarray, y: np.ndarray) -> float:
    """Lin's (1989) delta-method SE of Fisher's z as epiR writes it (rho / r explicit)."""
    n = len(x)
    sx2, sy2 = x.var(), y.var()
    sxy = float(np.mean((x - x.mean()) * (y - y.mean())))
    rho = 2 * sxy / (sx2 + sy2 + (x.mean() - y.mean()) ** 2)
    r = sxy / math.sqrt(sx2 * sy2)
    u = (y.mean() - x.mean()) / (sx2 * sy2) ** 0.25
    one = 1 - rho**2
    variance = (
        (1 - r**2) * rho**2 / (one * r**2)
        + 2 * rho**3 * (1 - rho) * u**2 / (r * one**2)
        - rho**4 * u**4 / (2 * r**2 * one**2)
    ) / (n - 2)
    return math.sqrt(variance)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (([1.0, 2.0], [1.0, 3.0]), "there are 2 items"),
        ((np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 3.0]]),), "there are 2 items"),
        (([1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0]), "one rater gives every item the same"),
        (([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]), "the CCC is -1"),
        ((np.array([[1.0, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 5]]),), "leaving one item out"),
    ],
)
def test_ccc_says_why_its_interval_is_undefined(args, why) -> None:
    """Before: a nan interval and p-value without a word. The warning is the project's
    UndefinedReliabilityWarning and points at the caller's line (this file)."""
    with pytest.warns(UndefinedReliabilityWarning, match=why) as caught:
        result = wk.ccc(*args)
    assert caught[0].filename == __file__
    assert math.isfinite(result.statistic)
    assert math.isnan(result.pvalue) and math.isnan(result.confidence_interval().low)


@pytest.mark.parametrize(
    "ratings",
    [([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]), (np.tile([[1.0], [2.0], [5.0]], (1, 3)),)],
)
def test_ccc_of_perfect_agreement_is_defined(ratings) -> None:
    """CCC = 1: Fisher's z is infinite, the interval is (1, 1) and the test rejects every
    ccc0 below 1 (the limits as the ratings approach perfect agreement), as icc answers an
    infinite F; no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = wk.ccc(*ratings)
        assert result.statistic == 1.0
        assert tuple(result.confidence_interval(0.99)) == (1.0, 1.0)
        assert result.pvalue == 0.0
        assert wk.ccc(*ratings, alternative="less", ccc0=0.9).pvalue == 1.0
        greater = wk.ccc(*ratings, alternative="greater").confidence_interval()
        assert tuple(greater) == (1.0, 1.0)
        assert result.to_dict()["confidence_interval"]["low"] == 1.0


def test_ccc_interval_approaches_perfect_agreement() -> None:
    """Lin's interval near perfect agreement tends to (1, 1) and its p-value to 0: the
    defined answer at CCC = 1 is their limit."""
    x = np.array([1.0, 2.0, 4.0, 5.0, 7.0, 8.0])
    e = np.array([0.3, -0.2, 0.1, 0.5, -0.4, 0.2])
    lows = [wk.ccc(x, x + eps * e).confidence_interval().low for eps in (1e-1, 1e-3, 1e-5)]
    assert lows == sorted(lows) and lows[-1] > 1 - 1e-6
    assert wk.ccc(x, x + 1e-5 * e).pvalue < 1e-12


def test_ccc_standard_error_at_zero_correlation_is_lins_limit() -> None:
    """r = 0 exactly: Lin's formula divides by r (nan before); rho / r is C_b, defined, and
    the SE is the limit of Lin's as r -> 0."""
    x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0, 2.0, 1.0])
    result = wk.ccc(x, y)
    assert result.pearson == 0.0 and result.statistic == 0.0
    c_b = 2 * x.std() * y.std() / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)
    assert result.bias_correction == pytest.approx(c_b, rel=1e-15)
    assert result.standard_error_z == pytest.approx(c_b / math.sqrt(2), rel=1e-15)
    near = y + np.array([0.0, 0.0, 1e-7, 0.0])
    assert result.standard_error_z == pytest.approx(_lin_se_z(x, near), rel=1e-5)
    low, high = result.confidence_interval()
    assert low == pytest.approx(-high) and 0 < high < 1
    assert result.pvalue == 1.0


# ----------------------------------------------------------------- ratings far from 1 in size

_BASES = st.integers(3, 8).flatmap(
    lambda n: st.integers(2, 4).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(-20, 20), min_size=k, max_size=k), min_size=n, max_size=n
        )
    )
)
_OFFSETS = st.sampled_from([0.0, 2.0**62, -(2.0**62), 3.0e15, 1e300, -1.7e308, 1e-290])
_SCALES = st.sampled_from([1.0, 2.0**12, 1e-3, 1e-200, 1e-300, 1e150, 1e290, 1e306])


def _as_float(value: Fraction) -> float:
    """A rational as a float, inf beyond the float range (as wkappa reports it)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _shifted(base: list[list[int]], offset: float, scale: float) -> np.ndarray | None:
    with np.errstate(over="ignore"):
        x = offset + scale * np.asarray(base, dtype=np.float64)
    return x if np.isfinite(x).all() else None


@settings(max_examples=examples(120), deadline=None)
@given(_BASES, _OFFSETS, _SCALES)
# equal item means whose floats differ by rounding (MSR 4e-34 of the largest mean square)
@example(base=[[0, 0, 5], [0, 0, 5], [0, 1, 4]], offset=0.0, scale=1e-300)
def test_icc_far_from_one_equals_the_exact_anova(base, offset, scale) -> None:
    """Near 1e308 the sums of squares overflowed (nan); near 2**62 the column means lost
    every digit of the spread. On the floats given, wkappa's ICCs and mean squares equal
    the exact rational ones (the ratings centred on one of them and scaled by a power of
    two before any square is formed)."""
    x = _shifted(base, offset, scale)
    assume(x is not None)
    rows = [[Fraction(float(v)) for v in row] for row in x]
    exact = exact_iccs(rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        results = wk.icc_all(x)
    ms = exact_mean_squares(rows)
    largest = max(ms.values())
    for form in results:
        if exact[form] is None:
            continue
        got, want = results[form].statistic, float(exact[form])
        if math.isnan(got) and form[2] == "k" and ms["msr"] <= largest / 10**12:
            continue  # MSR is the ratings' rounding residue: undefined, as MSR = 0 is
        # An ICC far outside [-1, 1] has a denominator near 0: its error grows as ICC².
        assert got == pytest.approx(want, rel=1e-9 * max(1.0, abs(want)), abs=1e-9), form
    a1 = results["A,1"]
    for name, key in (("ms_items", "msr"), ("ms_raters", "msc"), ("ms_error", "mse")):
        if ms[key] <= largest / 10**12:
            continue  # rounding residue of the ratings' own rounding, beside the largest
        want = _as_float(ms[key])  # inf beyond the float range, as reported
        assert getattr(a1, name) == pytest.approx(want, rel=1e-9), name


@settings(max_examples=examples(120), deadline=None)
@given(_BASES, _OFFSETS, _SCALES)
def test_ccc_far_from_one_equals_the_exact_definition(base, offset, scale) -> None:
    x = _shifted(base, offset, scale)
    assume(x is not None)
    columns = [[Fraction(float(v)) for v in column] for column in x.T]
    exact = exact_ccc(columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        overall = wk.ccc(x)
        pair = wk.ccc(x[:, 0], x[:, 1])
    if exact is None:
        assert math.isnan(overall.statistic)
        return
    assert overall.statistic == pytest.approx(float(exact), rel=1e-9, abs=1e-12)
    pair_exact = exact_ccc(columns[:2])
    if pair_exact is not None:
        assert pair.statistic == pytest.approx(float(pair_exact), rel=1e-9, abs=1e-12)
    n = len(columns[0])
    for j, column in enumerate(columns):
        mean = sum(column) / n
        variance = sum((v - mean) ** 2 for v in column) / n
        # (a mean is good to eps times the largest rating)
        close = 1e-14 * float(np.abs(x).max())
        assert overall.means[j] == pytest.approx(float(mean), rel=1e-12, abs=close)
        if variance > Fraction(10) ** -20 * max(abs(v) for v in column) ** 2:
            # (a float mean is good to eps |mean|: a near-constant column's variance is not)
            want = _as_float(variance)
            assert overall.variances[j] == pytest.approx(want, rel=1e-9, abs=1e-300)


def test_icc_and_ccc_at_1e308_and_2_to_the_62() -> None:
    """The two cases of the report: Shrout & Fleiss's table times 1e306 (nan before) and
    plus 2**62 in steps of 4096 (ICC(A,1) 0.281 before, 0.807 tiled; 0.290 exact)."""
    base = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64)
    want_icc, want_ccc = wk.icc(base).statistic, wk.ccc(base).statistic
    for x in (base * 1e306, 2.0**62 + 4096.0 * base, -1e308 + 1e300 * base):
        assert wk.icc(x).statistic == pytest.approx(want_icc, rel=1e-12)
        assert wk.ccc(x).statistic == pytest.approx(want_ccc, rel=1e-12)
    big = np.tile(base, (20_000, 1))  # the compiled pass (480,000 ratings)
    assert wk.icc(big * 1e306).statistic == pytest.approx(wk.icc(big).statistic, rel=1e-11)
    assert wk.icc(2.0**62 + 4096.0 * big).statistic == pytest.approx(
        wk.icc(big).statistic, rel=1e-11
    )
    batch = np.stack([base, base * 1e306, 2.0**62 + 4096.0 * base], axis=2)
    assert wk.icc(batch).statistic == pytest.approx([want_icc] * 3, rel=1e-12)


def test_reml_far_from_one() -> None:
    """Missing ratings (REML) near 1e308 and 2**62: the same ICC as the table itself."""
    base = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64)
    base[2, 1] = np.nan
    want = wk.icc(base).statistic
    for x in (base * 1e306, 2.0**62 + 4096.0 * base):
        result = wk.icc(x)
        assert result.method == "reml"
        assert result.statistic == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("scale", [1e150, 1e-120])
def test_accumulator_in_range_far_from_one(scale) -> None:
    """Sums of squares near the ends of the float range: the F tests' squares overflowed
    (a RuntimeWarning, the interval nan); the moments are rescaled by a power of two."""
    x = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64) * scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        acc = wk.ICCAccumulator().update(x[:3]).update(x[3:])
        result, want = acc.result(), wk.icc(x)
    assert result.statistic == pytest.approx(want.statistic, rel=1e-12)
    assert tuple(result.confidence_interval()) == pytest.approx(tuple(want.confidence_interval()))
    assert result.ms_error == pytest.approx(want.ms_error, rel=1e-12)


@pytest.mark.parametrize("scale", [1e306, 1e-160])
def test_accumulator_beyond_the_squares_range_answers_as_icc(scale) -> None:
    """Ratings whose squares overflow (1e306) or lose digits to subnormal rounding (1e-160)
    are scaled by a power of two, as wk.icc scales them."""
    x = np.array(SHROUT_FLEISS_RATINGS, dtype=np.float64) * scale
    result, want = wk.ICCAccumulator().update(x[:3]).update(x[3:]).result(), wk.icc(x)
    assert result.statistic == pytest.approx(want.statistic, rel=1e-12)
    assert result.ms_error == pytest.approx(want.ms_error, rel=1e-12)


@settings(max_examples=examples(100), deadline=None)
@given(_BASES, st.sampled_from([2**53 + 1, 2**62, -(2**62), 2**63 - 100, -(2**63) + 100]))
def test_integers_beyond_2_to_the_53_keep_their_differences(base, offset) -> None:
    """int64 ratings near 2**62 were rounded to float64 (steps of 1024) before any sum: the
    ICC was nan ('all ratings equal') or wrong. Their differences are now taken in integer
    arithmetic first; ICC, CCC and the CCC's means equal the exact ones."""
    rows = [[v + offset for v in row] for row in base]
    x = np.array(rows, dtype=np.int64)
    exact = exact_iccs([[Fraction(v) for v in row] for row in rows])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        results = wk.icc_all(x)
        overall = wk.ccc(x)
        pair = wk.ccc(x[:, 0], x[:, 1])
    for form, value in exact.items():
        if value is not None:
            want = float(value)
            assert results[form].statistic == pytest.approx(
                want, rel=1e-9 * max(1.0, abs(want)), abs=1e-9
            ), form
    columns = [list(column) for column in zip(*rows, strict=True)]
    for result, cols in ((overall, columns), (pair, columns[:2])):
        want = exact_ccc([[Fraction(v) for v in c] for c in cols])
        if want is None:
            assert math.isnan(result.statistic)
            continue
        assert result.statistic == pytest.approx(float(want), rel=1e-9, abs=1e-12)
        for j, column in enumerate(cols):
            assert result.means[j] == pytest.approx(float(Fraction(sum(column), len(column))))


def test_uint64_beyond_2_to_the_63() -> None:
    base = np.array(SHROUT_FLEISS_RATINGS, dtype=np.int64)
    x = base.astype(np.uint64) + np.uint64(2**64 - 20)
    assert wk.icc(x).statistic == pytest.approx(wk.icc(base).statistic, rel=1e-12)
    assert wk.ccc(x).statistic == pytest.approx(wk.ccc(base).statistic, rel=1e-12)


# ----------------------------------------------------------------- degenerate ICCs

# Designs where a form's denominator (an estimated variance) is 0 or, for A,k, below 0.
# On the previous main these gave -inf (the 'k' forms, A,1 at n = k = 2), values above 1 for
# A,k (2, 3 and 12 here), a 0/0 nan without a word (C,1) or -1.5e34 (float rounding).
_DEGENERATE = {
    # n = k = 2, every item's mean and every rater's mean equal: MSR = MSC = 0 < MSE
    "swap": [[1, 2], [2, 1]],
    # MSR = MSC = 0 < MSE with n = 3: A,1 at its least value -n/(nk - n - k) = -3
    "least A,1": [[1, 3], [3, 1], [2, 2]],
    # every item rated alike, the raters by offsets: MSR = MSE = 0 < MSC
    "offsets": [[1, 2], [1, 2], [1, 2]],
    # n MSR + MSC < MSE with MSR > 0: A,1 below -1/(k-1), A,k's formula gives 12
    "A,k above 1": [[0, 1], [0, 1], [3, 0]],
}


def _exact_limits_at_zero_f(rows: list[list[int]]) -> dict[str, Fraction]:
    """The least values of the single-rater forms where F = MSR/MSE = 0 (every item's mean
    equal): the estimate of each form. Its F-based interval would be that point, the mirror
    of the limits 1 at F = inf (perfect agreement), but items without spread get nan."""
    ms = exact_mean_squares(rows)
    n, k = len(rows), len(rows[0])
    assert ms["msr"] == 0
    limits = {"1,1": Fraction(-1, k - 1)}
    if ms["mse"] > 0:
        limits["C,1"] = Fraction(-1, k - 1)
    if ms["msc"] == 0 and n * k - n - k > 0:
        limits["A,1"] = Fraction(-n, n * k - n - k)
    return limits


@pytest.mark.parametrize("name", list(_DEGENERATE))
def test_degenerate_icc_forms_are_nan_with_a_warning_or_exact(name: str) -> None:
    rows = _DEGENERATE[name]
    exact = exact_iccs(rows)
    with pytest.warns(UndefinedReliabilityWarning) as caught:
        results = wk.icc_all(rows)
    assert all(w.filename == __file__ for w in caught)  # the caller's line
    message = " ".join(str(w.message) for w in caught)
    for form, result in results.items():
        low, high = result.confidence_interval()
        if exact[form] is None:
            assert math.isnan(result.statistic), (form, result.statistic)
            assert math.isnan(low) and math.isnan(high)
            assert f"ICC({form})" in message
            # one form at a time: the warning names that form only
            with pytest.warns(UndefinedReliabilityWarning, match=rf"ICC\({form}\)") as one:
                alone = wk.icc(rows, form=form)
            assert math.isnan(alone.statistic)
            assert len(one) == 1 and str(one[0].message).startswith(f"ICC({form}) is undefined")
            assert "undefined: " in alone.explain()
        else:
            assert result.statistic == pytest.approx(float(exact[form]), abs=1e-12)
            assert -math.inf < result.statistic <= 1.0
    for form, bound in _exact_limits_at_zero_f(rows).items() if name != "A,k above 1" else ():
        assert results[form].statistic == pytest.approx(float(bound), abs=1e-12)
        low, high = results[form].confidence_interval()
        assert math.isnan(low) and math.isnan(high), (form, low, high)
        assert math.isnan(results[form].pvalue)


def test_icc_of_items_alike_and_raters_apart() -> None:
    """MSR = MSE = 0 < MSC: absolute agreement 0, its test of ICC = 0 is 0/0 (nan, said in
    the warning), and so is the F-based interval that inverts that test (nan, not the point
    (0, 0): an interval of zero width below perfect agreement claims a certainty the data do
    not give); the consistency forms are 0/0 (nan)."""
    rows = _DEGENERATE["offsets"]
    with pytest.warns(UndefinedReliabilityWarning, match=r"F test of ICC = 0 is undefined"):
        results = wk.icc_all(rows)
    for form in ("A,1", "A,k"):
        assert results[form].statistic == 0.0
        assert math.isnan(results[form].pvalue)
        assert results[form].df2 == 2.0  # (n-1)(k-1): Satterthwaite's v with MSC's term 0
        assert all(math.isnan(limit) for limit in results[form].confidence_interval())
    with pytest.warns(UndefinedReliabilityWarning, match="C,1"):
        assert math.isnan(wk.icc(rows, form="C,1").statistic)
    # a null above 0: F = 0 is defined, but every item has the same mean: p is nan
    with pytest.warns(UndefinedReliabilityWarning, match=r"F test of ICC = 0\.2 is degenerate"):
        shifted = wk.icc_all(rows, icc0=0.2)
    assert shifted["A,1"].f_statistic == 0.0 and math.isnan(shifted["A,1"].pvalue)


def test_a_k_above_one_is_undefined_where_a_1_is_below_its_bound() -> None:
    """A,k is A,1 stepped up (Spearman-Brown); where A,1 < -1/(k-1) the step-up is above 1:
    the estimated variance in A,k's denominator is below 0. The F test stays."""
    rows = _DEGENERATE["A,k above 1"]
    ms = exact_mean_squares(rows)
    n = len(rows)
    assert ms["msr"] + (ms["msc"] - ms["mse"]) / n < 0
    assert (ms["msr"] - ms["mse"]) / (ms["msr"] + (ms["msc"] - ms["mse"]) / n) == 12
    with pytest.warns(UndefinedReliabilityWarning, match=r"ICC\(A,1\) = -1\.2 is at or below"):
        result = wk.icc(rows, form="A,k")
    assert math.isnan(result.statistic)
    assert result.f_statistic == pytest.approx(float(ms["msr"] / ms["mse"]), rel=1e-12)
    assert 0.0 < result.pvalue < 1.0
    a1 = wk.icc(rows, form="A,1").statistic
    assert a1 == pytest.approx(float(exact_iccs(rows)["A,1"]), abs=1e-12) and a1 < -1


def test_equal_item_means_up_to_rounding_are_undefined_not_huge() -> None:
    """Equal item means in exact arithmetic but not in float64 (0.1 is inexact): MSR came
    out near 1e-32 and ICC(C,k) was -1.5e34; a denominator within 2**-40 of the formula's
    mean squares is taken as 0."""
    rows = [[2.0, 0.0, 0.1], [0.1, 2.0, 0.0]]
    exact = exact_iccs([[Fraction(v) for v in row] for row in rows])  # type: ignore[misc]
    assert exact["C,k"] is None and exact["1,k"] is None
    with pytest.warns(UndefinedReliabilityWarning, match="MSR = 0"):
        results = wk.icc_all(rows)
    assert math.isnan(results["C,k"].statistic) and math.isnan(results["1,k"].statistic)
    assert results["C,1"].statistic == pytest.approx(float(exact["C,1"]), abs=1e-12)


def test_degenerate_feature_warns_with_its_count_and_frames_name_one_form() -> None:
    good = [[9.0, 2.0], [6.0, 1.0]]
    batch = np.stack([np.array(_DEGENERATE["swap"], dtype=float), good], 2)
    with pytest.warns(UndefinedReliabilityWarning, match=r"for 1 feature\(s\)"):
        result = wk.icc(batch, form="C,k")
    assert math.isnan(result.statistic[0]) and np.isfinite(result.statistic[1])
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_DEGENERATE["swap"], columns=["a", "b"])
    from wkappa import frames

    with pytest.warns(UndefinedReliabilityWarning) as caught:
        frames.icc(frame, raters=["a", "b"], form="C,k")
    assert "ICC(C,k)" in str(caught[0].message) and "ICC(A,1)" not in str(caught[0].message)
    assert len(caught) == 1


def test_cli_icc_warns_about_the_forms_it_shows(tmp_path, capsys) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("a,b\n0,1\n0,1\n3,0\n")
    assert main(["icc", str(path), "--raters", "a,b", "--form", "C,1"]) == 0
    quiet = capsys.readouterr()
    assert "warning" not in quiet.err and "-0.6000" in quiet.out
    assert main(["icc", str(path), "--raters", "a,b"]) == 0
    shown = capsys.readouterr()
    assert "ICC(A,k) is undefined" in shown.err
    assert "ICC(A,k)  ICC2k  undefined  undefined" in shown.out


@pytest.mark.parametrize("name", ["A,k above 1", "swap", "least A,1"])
def test_icc_accumulator_degenerate_batches_match_the_exact_rule(name: str) -> None:
    """The accumulator (moments of batches) follows the same rule: nan with the warning at
    the caller's line where the denominator is not above 0, the exact value elsewhere."""
    rows = _DEGENERATE[name]
    both = wk.ICCAccumulator().update(rows[:1]) + wk.ICCAccumulator().update(rows[1:])
    for form, value in exact_iccs(rows).items():
        if value is None:
            with pytest.warns(UndefinedReliabilityWarning, match=rf"ICC\({form}\)") as caught:
                got = both.result(form=form).statistic
            assert math.isnan(got) and caught[0].filename == __file__
        else:
            with warnings.catch_warnings():
                # MSR = 0 (swap, least A,1): the F test's p and interval are nan, said apart
                warnings.filterwarnings(
                    "ignore", "The F test of ICC = 0 is degenerate", UndefinedReliabilityWarning
                )
                got = both.result(form=form).statistic
            assert got == pytest.approx(float(value), abs=1e-12), form


def test_a_k_lower_limit_is_minus_infinity_where_a_1_s_is_below_its_bound() -> None:
    """ICC(A,k) = -6 came with the 'interval' (6.43, 0.70): McGraw & Wong's lower limit
    divides by f* (MSC - MSE) + n MSR, below 0 here. The A,k limits are A,1's stepped up;
    A,1's lower limit is below -1/(k-1), which the step-up sends to -inf."""
    rows = [[2, 0], [1, 0], [0, 1], [0, 1], [0, 0]]
    k = 2
    a_k, a_1 = wk.icc(rows, form="A,k"), wk.icc(rows, form="A,1")
    assert a_k.statistic == pytest.approx(float(exact_iccs(rows)["A,k"]), abs=1e-12)
    assert a_k.statistic == pytest.approx(-6.0, abs=1e-12)
    low, high = a_k.confidence_interval()
    low_1, high_1 = a_1.confidence_interval()
    assert low_1 < -1 / (k - 1)
    assert low == -math.inf
    assert high == pytest.approx(k * high_1 / (1 + (k - 1) * high_1), rel=1e-12)
    assert low <= a_k.statistic <= high <= 1.0


@settings(max_examples=examples(150), deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.integers(2, 4).flatmap(
            lambda k: st.lists(
                st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=n, max_size=n
            )
        )
    )
)
def test_every_icc_interval_holds_its_estimate_and_stays_at_most_one(rows) -> None:
    """On coarse small tables (where the degenerate cases live): every ICC is at most 1 or
    nan, every interval is ordered with its upper limit at most 1, and the exact F intervals
    (one-way, consistency) hold their estimate. (McGraw & Wong's absolute-agreement limits
    are approximate: with Satterthwaite's v far below 1 they can miss the estimate, in irr,
    psych and pingouin alike: A,1 = -0.632 with (-0.676, -0.660) on [[0, 3], [0, 3], [0, 3],
    [2, 0]].)"""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        results = wk.icc_all(rows)
    exact = exact_iccs(rows)
    for form, result in results.items():
        value = result.statistic
        low, high = result.confidence_interval()
        if exact[form] is None:
            assert math.isnan(value) and math.isnan(low) and math.isnan(high)
            continue
        if math.isnan(result.pvalue):  # the F test is 0/0, and so is the interval inverting it
            assert math.isnan(low) and math.isnan(high), (form, low, value, high)
            continue
        assert value <= 1.0 + 1e-12
        assert low <= high + 1e-9 and high <= 1.0 + 1e-12, (form, low, value, high)
        if form[0] != "A":
            assert low - 1e-9 <= value <= high + 1e-9, (form, low, value, high)


def test_a_1_at_zero_f_is_its_least_value_with_a_nan_interval() -> None:
    """MSR = 0 < MSC (float residue 5e-34 here): A,1 is its least value
    -n MSE / (k MSC + (nk - n - k) MSE). Its limits would be that point too (Satterthwaite's
    v -> 0), as C,1's are -1/(k-1) at F = 0, but items without spread get a nan interval."""
    rows = [[0, 1], [0, 1], [1, 0]]
    ms = exact_mean_squares(rows)
    n, k = 3, 2
    least = -n * ms["mse"] / (k * ms["msc"] + (n * k - n - k) * ms["mse"])
    assert ms["msr"] == 0 and least == exact_iccs(rows)["A,1"] == -2
    with pytest.warns(UndefinedReliabilityWarning, match="every item has the same mean"):
        result = wk.icc(rows, form="A,1")
    assert result.statistic == pytest.approx(-2.0, abs=1e-12)
    assert all(math.isnan(limit) for limit in result.confidence_interval())


def test_pingouin_evaluates_the_formulas_where_wkappa_says_undefined() -> None:
    """The peer on the same table: every defined form agrees; pingouin's A,k is the
    formula's 12 with the interval [3.23, 0.93] (lower above upper), wkappa's nan with a
    warning (A,1 = -1.2 below -1/(k-1))."""
    pg = pytest.importorskip("pingouin")
    pd = pytest.importorskip("pandas")
    rows = np.array(_DEGENERATE["A,k above 1"])
    n, k = rows.shape
    long = pd.DataFrame({"t": np.repeat(range(n), k), "r": np.tile(range(k), n), "s": rows.ravel()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (pingouin's own warnings on three items)
        theirs = pg.intraclass_corr(long, "t", "r", "s").set_index("Type")
    with pytest.warns(UndefinedReliabilityWarning, match=r"ICC\(A,k\)"):
        ours = wk.icc_all(rows)
    assert theirs.loc["ICC(A,k)", "ICC"] == pytest.approx(12.0)
    low, high = theirs.loc["ICC(A,k)", "CI95"]
    assert low > high
    assert math.isnan(ours["A,k"].statistic)
    for form, result in ours.items():
        if form != "A,k":
            assert result.statistic == pytest.approx(theirs.loc[f"ICC({form})", "ICC"], abs=1e-12)


@pytest.mark.parametrize("scale", [1e-320, 5e-324 * 3, 2.0**-1060])
def test_subnormal_ratings_warn_nothing(scale: float) -> None:
    """Ratings below 2**-1022 (subnormal) are rescaled by ldexp; the power of two that would
    scale larger ratings overflows there, and numpy's overflow warning must not escape."""
    ratings = np.array([[1, 2, 4], [3, 1, 2], [2, 2, 5], [4, 3, 3]], dtype=float)
    tiny = ratings * scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = wk.icc(tiny, form="C,1").statistic
        every = wk.icc_all(tiny)
        concordance = wk.ccc(tiny[:, 0], tiny[:, 1]).statistic
    assert math.isfinite(value) and all(math.isfinite(r.statistic) for r in every.values())
    # The subnormal ratings carry fewer digits: compare with the rounded ratings, rescaled.
    assert value == pytest.approx(wk.icc(tiny / scale, form="C,1").statistic, rel=1e-12)
    assert concordance == pytest.approx(wk.ccc(tiny[:, 0] / scale, tiny[:, 1] / scale).statistic)
