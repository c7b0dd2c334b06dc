"""wk.ccc: an exact reference, Lin's interval, the overall CCC's jackknife, the QWK identity,
its relation to ICC(A,1), inputs and bad input."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from published import CCC_PRINTOUTS
from wkappa.exceptions import UndefinedReliabilityWarning, WkappaError, WkappaTypeError

stats = pytest.importorskip("scipy.stats")


def exact_ccc(columns: list[list[int]]) -> Fraction | None:
    """Overall CCC (two raters: Lin's) with 1/n moments, in rational arithmetic."""
    k, n = len(columns), len(columns[0])
    means = [Fraction(sum(c), n) for c in columns]

    def cov(j: int, m: int) -> Fraction:
        return (
            sum(
                (Fraction(a) - means[j]) * (b - means[m])
                for a, b in zip(columns[j], columns[m], strict=True)
            )
            / n
        )

    pairs = [(j, m) for j in range(k) for m in range(j + 1, k)]
    numerator = 2 * sum(cov(j, m) for j, m in pairs)
    denominator = (k - 1) * sum(cov(j, j) for j in range(k)) + sum(
        (means[j] - means[m]) ** 2 for j, m in pairs
    )
    return numerator / denominator if denominator else None


ratings = st.integers(2, 30).flatmap(
    lambda n: st.integers(2, 5).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(0, 6), min_size=n, max_size=n), min_size=k, max_size=k
        )
    )
)


@settings(max_examples=60, deadline=None)
@given(ratings)
def test_equals_the_exact_definition(columns: list[list[int]]) -> None:
    exact = exact_ccc(columns)
    matrix = np.array(columns).T
    if exact is None:
        with pytest.warns(UndefinedReliabilityWarning):
            assert math.isnan(wk.ccc(matrix).statistic)
        return
    with warnings.catch_warnings():  # two items, a constant rater: no interval (see below)
        warnings.filterwarnings("ignore", "The CCC's interval", UndefinedReliabilityWarning)
        assert wk.ccc(matrix).statistic == pytest.approx(float(exact), rel=1e-12, abs=1e-12)
        if len(columns) == 2:
            pair = wk.ccc(columns[0], columns[1])
            assert pair.statistic == pytest.approx(float(exact), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 9), st.integers(-3, 9)), min_size=2, max_size=40))
def test_qwk_is_the_ccc_of_integer_ratings(pairs: list[tuple[int, int]]) -> None:
    """QWK with the categories every integer from min to max equals the CCC with 1/n moments:
    both are 1 - n sum (a-b)² / sum_ij (a_i - b_j)²."""
    a, b = (list(c) for c in zip(*pairs, strict=True))
    exact = exact_ccc([a, b])
    if exact is None:
        return  # both undefined (one category)
    assert float(exact) == pytest.approx(wk.qwk(a, b, zero_division=0.0), abs=1e-12)
    with warnings.catch_warnings():  # two items, a constant rater: no interval (see below)
        warnings.filterwarnings("ignore", "The CCC's interval", UndefinedReliabilityWarning)
        statistic = wk.ccc(a, b).statistic
    assert statistic == pytest.approx(wk.qwk(a, b, zero_division=0.0), abs=1e-12)


def test_qwk_differs_when_the_categories_are_not_the_integers_between() -> None:
    a, b = [1, 2, 5, 5, 2], [1, 5, 5, 2, 2]
    assert wk.qwk(a, b) == pytest.approx(wk.ccc(a, b).statistic, abs=1e-12)
    skipping = wk.qwk(a, b, labels=[1, 2, 5])  # indices 0, 1, 2: not the values
    assert skipping != pytest.approx(wk.ccc(a, b).statistic, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 60), st.integers(0, 2**32 - 1))
def test_icc_a1_of_two_raters_is_the_ccc_with_the_mean_squared_difference_over_n(n, seed) -> None:
    """Exactly, ICC(A,1) = 2 s_xy / (D - MSD / n): D the CCC's denominator, MSD the mean
    squared difference (so the two agree as n grows, Carrasco & Jover 2003)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = 0.8 * x + rng.normal(size=n) * 0.6 + 0.3
    result = wk.ccc(x, y)
    s_xy = result.statistic * (sum(result.variances) + (result.means[0] - result.means[1]) ** 2) / 2
    denominator = sum(result.variances) + (result.means[0] - result.means[1]) ** 2
    msd = float(np.mean((x - y) ** 2))
    icc = wk.icc(np.column_stack([x, y]), form="A,1").statistic
    assert icc == pytest.approx(2 * s_xy / (denominator - msd / n), rel=1e-9)


@pytest.mark.parametrize("printout", CCC_PRINTOUTS, ids=lambda p: p.key)
def test_published_epir_examples(printout) -> None:
    x, y = np.asarray(printout.x, float), np.asarray(printout.y, float)
    if printout.log10_shift is not None:
        x, y = np.log10(x + printout.log10_shift), np.log10(y + printout.log10_shift)
    result = wk.ccc(x, y)
    low, high = result.confidence_interval(0.95)
    assert result.statistic == pytest.approx(printout.statistic, abs=1e-11)
    assert low == pytest.approx(printout.ci_low, abs=1e-11)
    assert high == pytest.approx(printout.ci_high, abs=1e-11)


def epir_z_interval(x: np.ndarray, y: np.ndarray, level: float) -> tuple[float, float]:
    """epiR::epi.ccc(ci = 'z-transform'), transcribed from its documented formulas."""
    k = len(y)
    yb, xb = y.mean(), x.mean()
    sy2, sx2 = y.var(), x.var()
    r = np.corrcoef(x, y)[0, 1]
    p = 2 * r * math.sqrt(sx2 * sy2) / (sx2 + sy2 + (yb - xb) ** 2)
    u = (yb - xb) / (sx2 * sy2) ** 0.25
    t = math.log((1 + p) / (1 - p)) / 2
    set_ = math.sqrt(
        (
            (1 - r**2) * p**2 / ((1 - p**2) * r**2)
            + 2 * p**3 * (1 - p) * u**2 / (r * (1 - p**2) ** 2)
            - p**4 * u**4 / (2 * r**2 * (1 - p**2) ** 2)
        )
        / (k - 2)
    )
    zv = stats.norm.ppf(1 - (1 - level) / 2)
    return math.tanh(t - zv * set_), math.tanh(t + zv * set_)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 200), st.floats(0.0, 2.0), st.integers(0, 2**32 - 1))
def test_lin_interval_equals_epir(n: int, shift: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n) * 2
    y = x + rng.normal(size=n) + shift
    low, high = wk.ccc(x, y).confidence_interval(0.9)
    ref_low, ref_high = epir_z_interval(x, y, 0.9)
    assert low == pytest.approx(ref_low, rel=1e-9) and high == pytest.approx(ref_high, rel=1e-9)


def test_overall_ccc_jackknife_equals_brute_force() -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=(25, 1)) + rng.normal(size=(25, 4)) * 0.7 + [0, 0.2, -0.1, 0.4]
    result = wk.ccc(x)
    z = np.array([math.atanh(wk.ccc(np.delete(x, i, axis=0)).statistic) for i in range(25)])
    se = math.sqrt(24 / 25 * ((z - z.mean()) ** 2).sum())
    assert result.standard_error_z == pytest.approx(se, rel=1e-9)
    low, high = result.confidence_interval(0.95)
    q = stats.t.ppf(0.975, 24)
    zc = math.atanh(result.statistic)
    assert (low, high) == pytest.approx((math.tanh(zc - q * se), math.tanh(zc + q * se)), rel=1e-9)


def test_pvalue_and_one_sided_intervals() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=40)
    y = x + rng.normal(size=40)
    two = wk.ccc(x, y, ccc0=0.3)
    z = (math.atanh(two.statistic) - math.atanh(0.3)) / two.standard_error_z
    assert two.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    greater = wk.ccc(x, y, alternative="greater").confidence_interval(0.95)
    assert greater.high == 1.0
    assert greater.low == pytest.approx(wk.ccc(x, y).confidence_interval(0.90).low, rel=1e-12)


def test_inputs_missing_values_and_surface() -> None:
    pd = pytest.importorskip("pandas")
    x = [1.0, 2.0, 3.5, None, 5.0, 6.0]
    y = [1.5, 2.0, 3.0, 4.0, np.nan, 6.5]
    with pytest.raises(WkappaError, match=r"`x` or `y` has a missing rating .* position 3"):
        wk.ccc(x, y)
    omitted = wk.ccc(x, y, nan_policy="omit")
    assert omitted.n_items == 4
    assert omitted.statistic == pytest.approx(wk.ccc([1, 2, 3.5, 6], [1.5, 2, 3, 6.5]).statistic)
    propagated = wk.ccc(x, y, nan_policy="propagate")
    assert math.isnan(propagated.statistic)
    # The items given (it said 0), as ICCResult counts them under 'propagate'.
    assert (propagated.n_items, propagated.n_raters) == (6, 2)
    assert wk.ccc(np.column_stack([x, y, y]), nan_policy="propagate").n_items == 6
    # A rater without any rating: 'omit' drops every item, and the message said only "The CCC
    # needs at least two complete items; got 0".
    empty = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [1.0, 3, 3, 5], "c": [np.nan] * 4})
    with pytest.raises(WkappaError, match=r"^`x` has no rating at all from column 'c'"):
        wk.ccc(empty, nan_policy="omit")
    frame = pd.DataFrame({"a": [1, 2, 3, 4], "b": [1, 3, 3, 5], "c": [2, 2, 3, 4]})
    assert wk.ccc(frame).statistic == pytest.approx(wk.ccc(frame.to_numpy()).statistic)
    assert wk.ccc(pd.Series([1, 2, 3]), np.array([1, 2, 4])).n_items == 3
    result = wk.ccc([1, 2, 3, 4, 5], [1, 2, 3, 5, 4])
    assert result.to_dict()["method"] == "lin" and "bias correction" in result.explain()
    assert repr(result).startswith("CCCResult(statistic=0.9")


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (([1, 2, 3], [1, 2]), WkappaError, "same length"),
        (([1, 2, math.inf], [1, 2, 3]), WkappaError, "finite"),
        ((["a", "b"], ["a", "b"]), WkappaTypeError, "must hold numbers"),
        (([[1], [2]],), WkappaError, "rater column"),
        (([1], [1]), WkappaError, "at least two"),
    ],
)
def test_bad_input(args, error, match) -> None:
    with pytest.raises(error, match=match):
        wk.ccc(*args)


def test_bad_options() -> None:
    with pytest.raises(WkappaError, match="`ccc0`"):
        wk.ccc([1, 2, 3], [1, 2, 3], ccc0=1.0)
    with pytest.raises(WkappaError, match="`alternative`"):
        wk.ccc([1, 2, 3], [1, 2, 3], alternative="up")


def test_constant_and_perfect_agreement() -> None:
    with pytest.warns(UndefinedReliabilityWarning):
        assert math.isnan(wk.ccc([2, 2, 2], [2, 2, 2]).statistic)
    perfect = wk.ccc([1, 2, 3, 4], [1, 2, 3, 4])
    assert perfect.statistic == 1.0
    assert tuple(perfect.confidence_interval()) == (1.0, 1.0)  # the limit: z is infinite
    with pytest.warns(UndefinedReliabilityWarning, match="every item the same value"):
        assert wk.ccc([1, 2, 3, 4], [5, 5, 5, 5]).statistic == 0.0


def test_missing_rating_hints_say_what_omit_does_here() -> None:
    """The hint of a missing rating was the ICC's ("nan_policy='omit' uses every rating there
    is (REML variance components)") for the CCC, which drops incomplete items, and for
    ICCAccumulator.update, which has no nan_policy at all."""
    ratings = np.array([[1.0, np.nan], [2.0, 3.0], [3.0, 3.0], [4.0, 5.0]])
    with pytest.raises(WkappaError, match="nan_policy='omit' drops incomplete items;"):
        wk.ccc(ratings)
    assert wk.ccc(ratings, nan_policy="omit").n_items == 3
    with pytest.raises(WkappaError, match="only complete rows are taken here") as caught:
        wk.ICCAccumulator().update(ratings)
    assert "nan_policy" not in str(caught.value)


def _exact_fisher_z(rows: list[list[Fraction]]) -> float:
    """atanh of the overall CCC of exact ratings: (1/2) log((2 N + D) / D)."""
    n, k = len(rows), len(rows[0])
    means = [sum(row[j] for row in rows) / n for j in range(k)]
    pairs = [(j, h) for j in range(k) for h in range(j + 1, k)]
    numerator = 2 * sum(
        sum((row[j] - means[j]) * (row[h] - means[h]) for row in rows) / n for j, h in pairs
    )
    rest = sum(sum((row[j] - row[h]) ** 2 for row in rows) / n for j, h in pairs)
    return 0.5 * math.log(float((2 * numerator + rest) / rest))


@pytest.mark.parametrize("offset", [1e6, 1e8, 1e10])
def test_fisher_z_and_jackknife_exact_when_targets_dwarf_the_raters(offset: float) -> None:
    """Targets far apart, raters near each other: 1 - CCC was the rest of two large sums, so
    Fisher's z was 16.1075 for the exact 16.1055 (targets 1e6 apart) and infinite from 1e8 on
    (the CCC rounds to 1): the interval and p-value were nan, or (1, 1). The rest is now
    summed from the raters' differences: z and the jackknife's standard error equal the exact
    ones to 1e-12."""
    rng = np.random.default_rng(int(math.log10(offset)))
    n = 12
    x = np.arange(n)[:, None] * offset + np.round(rng.normal(size=(n, 3)) * 64) / 64
    rows = [[Fraction(v) for v in row] for row in x.tolist()]
    result = wk.ccc(x)
    assert result._fisher_z == pytest.approx(_exact_fisher_z(rows), rel=1e-12)
    leave_one_out = [_exact_fisher_z(rows[:i] + rows[i + 1 :]) for i in range(n)]
    centre = sum(leave_one_out) / n
    se = math.sqrt((n - 1) / n * sum((z - centre) ** 2 for z in leave_one_out))
    assert result.standard_error_z == pytest.approx(se, rel=1e-10)
    assert math.isfinite(result.pvalue)
    low, high = result.confidence_interval()
    assert low <= result.statistic <= high


def _exact_lin_se_z(rows: list[list[Fraction]]) -> float:
    """Lin's delta-method SE of Fisher's z from exact moments (each small factor exact)."""
    n = len(rows)
    a, b = [row[0] for row in rows], [row[1] for row in rows]
    ma, mb = sum(a) / n, sum(b) / n
    sa = sum((v - ma) ** 2 for v in a) / n
    sb = sum((v - mb) ** 2 for v in b) / n
    sab = sum((p - ma) * (q - mb) for p, q in zip(a, b, strict=True)) / n
    rest = sa + sb - 2 * sab + (ma - mb) ** 2
    complement = rest / (2 * sab + rest)  # 1 - rho
    rho = 1 - complement
    one = float(complement * (1 + rho))  # 1 - rho²
    r_complement = float((sa * sb - sab**2) / (sa * sb))  # 1 - r²
    c_b = 2 * math.sqrt(float(sa * sb)) / float(2 * sab + rest)
    u = float(mb - ma) / float(sa * sb) ** 0.25
    rho_f = float(rho)
    variance = (
        r_complement * c_b * c_b / one
        + 2 * rho_f**2 * c_b * float(complement) * u * u / one**2
        - rho_f**2 * c_b**2 * u**4 / (2 * one**2)
    ) / (n - 2)
    return math.sqrt(variance)


@pytest.mark.parametrize("offset", [1.0, 1e6, 1e8, 1e10])
def test_lin_standard_error_exact_when_targets_dwarf_the_raters(offset: float) -> None:
    """Two raters: Lin's variance divides by 1 - rho² and multiplies by 1 - r² and 1 - rho,
    each the rest of numbers near 1 (targets 1e6 apart: the SE 2% off; 1e8: nan with a
    warning that the variance is negative). They are taken from the raters' differences
    now: the SE equals the exact one to 1e-12."""
    rng = np.random.default_rng(int(math.log10(offset)) + 20)
    n = 25
    x = np.arange(n)[:, None] * offset + np.round(rng.normal(size=(n, 2)) * 64) / 64
    rows = [[Fraction(v) for v in row] for row in x.tolist()]
    result = wk.ccc(x[:, 0], x[:, 1])
    assert result.standard_error_z == pytest.approx(_exact_lin_se_z(rows), rel=1e-12)
    assert result._fisher_z == pytest.approx(_exact_fisher_z(rows), rel=1e-12)


# Degenerate designs (items x raters) and what the CCC's interval and test do there: the
# same rule as the ICC's, an undefined value or spread is nan with a warning at the caller.
_DEGENERATE_CCC = {
    "every rating equal": ([[3, 3], [3, 3], [3, 3]], "every value is the same"),
    "two constant raters": ([[3, 4], [3, 4], [3, 4]], "Pearson's r is undefined"),
    "one constant rater": ([[1, 5], [2, 5], [3, 5]], "Pearson's r is undefined"),
    "two items": ([[1, 2], [3, 5]], "there are 2 items"),
    "two identical items": ([[1, 1], [3, 3]], "there are 2 items"),
    "CCC = -1": ([[1, 3], [2, 2], [3, 1]], "the CCC is -1"),
    "three constant raters": ([[1, 2, 3], [1, 2, 3], [1, 2, 3]], "standard error is 0"),
    "two items, three raters": ([[1, 2, 3], [2, 1, 3]], "there are 2 items"),
}


@pytest.mark.parametrize("name", list(_DEGENERATE_CCC))
def test_degenerate_ccc_is_exact_and_says_what_is_undefined(name: str) -> None:
    rows, reason = _DEGENERATE_CCC[name]
    exact = exact_ccc([list(column) for column in zip(*rows, strict=True)])
    with pytest.warns(UndefinedReliabilityWarning, match=reason) as caught:
        result = wk.ccc(rows)
    assert all(w.filename == __file__ for w in caught)
    if exact is None:
        assert math.isnan(result.statistic)
    else:
        assert result.statistic == pytest.approx(float(exact), abs=1e-12)
        assert -1.0 <= result.statistic <= 1.0
    low, high = result.confidence_interval()
    assert math.isnan(result.pvalue) and math.isnan(low) and math.isnan(high)


def test_ccc_of_identical_raters_is_one_with_the_limits_one() -> None:
    """Perfect agreement on three or more items: no warning, the interval (1, 1), p = 0."""
    for rows in ([[1, 1], [2, 2], [4, 4]], [[1, 1, 1], [2, 2, 2], [4, 4, 4]]):
        result = wk.ccc(rows)
        assert result.statistic == 1.0 and result.pvalue == 0.0
        assert tuple(result.confidence_interval()) == (1.0, 1.0)
