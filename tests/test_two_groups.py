"""group_agreement: Vanbelle & Albert's (2009) kappa between two groups of raters."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import wkappa as wk
from published import (
    KAPPAGOLD_VANBELLE,
    SC_TEST_EXPERTS,
    SC_TEST_STUDENTS,
    VANBELLE_2009_PRINTED,
)
from wkappa.exceptions import WkappaError


def test_vanbelle_albert_2009_table_5() -> None:
    """Vanbelle & Albert (2009), Table 5, "proposed method" (linear weights), as quoted in R
    kappaGold's tests/testthat/test-vanbelle.R: 0.72, SE 0.049."""
    result = wk.group_agreement(SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights="linear")
    assert result.statistic == pytest.approx(VANBELLE_2009_PRINTED["kappa"], abs=5e-3)
    assert result.standard_error == pytest.approx(VANBELLE_2009_PRINTED["standard_error"], abs=5e-4)
    assert (result.n_items, result.n_raters_a, result.n_raters_b) == (34, 39, 11)


@pytest.mark.parametrize("weights", ["unweighted", "linear", "quadratic"])
def test_kappagold_kappam_vanbelle(weights: str) -> None:
    """R kappaGold 1.0's kappam_vanbelle run from its source (tests/published.py): the
    estimate, the jackknife bias-corrected value and SE, and its t interval's width (it centres
    the interval on the bias-corrected value, wkappa on the estimate)."""
    value0, value, se, low, high = KAPPAGOLD_VANBELLE[weights]
    result = wk.group_agreement(
        SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights=weights, labels=range(-2, 3)
    )
    assert result.statistic == pytest.approx(value0, abs=1e-12)
    assert result.bias_corrected == pytest.approx(value, abs=1e-12)
    assert result.standard_error == pytest.approx(se, abs=1e-12)
    ci = result.confidence_interval()
    assert ci.high - ci.low == pytest.approx(high - low, abs=1e-10)
    assert (ci.low + ci.high) / 2 == pytest.approx(result.statistic, abs=1e-12)
    swapped = wk.group_agreement(
        SC_TEST_EXPERTS, SC_TEST_STUDENTS, weights=weights, labels=range(-2, 3)
    )
    assert swapped.statistic == pytest.approx(result.statistic, abs=1e-14)
    assert swapped.standard_error == pytest.approx(result.standard_error, abs=1e-14)


def _kappa_exact(
    a: list[list[int]], b: list[list[int]], k: int, agree: list[list[Fraction]]
) -> Fraction | None:
    """Vanbelle & Albert's kappa in exact arithmetic (None when Pm = Pe)."""
    n = len(a)

    def shares(row: list[int]) -> list[Fraction]:
        return [Fraction(row.count(c), len(row)) for c in range(k)]

    def inner(p: list[Fraction], q: list[Fraction]) -> Fraction:
        return sum((agree[x][y] * p[x] * q[y] for x in range(k) for y in range(k)), Fraction(0))

    pa = [shares(r) for r in a]
    pb = [shares(r) for r in b]
    po = sum((inner(x, y) for x, y in zip(pa, pb, strict=True)), Fraction(0)) / n
    pm = sum((max(inner(x, x), inner(y, y)) for x, y in zip(pa, pb, strict=True)), Fraction(0))
    pm /= n
    mean_a = [sum((p[c] for p in pa), Fraction(0)) / n for c in range(k)]
    mean_b = [sum((p[c] for p in pb), Fraction(0)) / n for c in range(k)]
    pe = inner(mean_a, mean_b)
    if pm == pe:
        return None
    return (po - pe) / (pm - pe)


WEIGHTS = {
    "unweighted": lambda i, j, k: Fraction(int(i == j)),
    "linear": lambda i, j, k: 1 - Fraction(abs(i - j), k - 1),
    "quadratic": lambda i, j, k: 1 - Fraction((i - j) ** 2, (k - 1) ** 2),
}


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_matches_exact_reference(data: st.DataObject) -> None:
    k = data.draw(st.integers(2, 4))
    n = data.draw(st.integers(3, 7))
    r_a, r_b = data.draw(st.integers(2, 4)), data.draw(st.integers(2, 3))
    cell = st.integers(0, k - 1)
    a = data.draw(st.lists(st.lists(cell, min_size=r_a, max_size=r_a), min_size=n, max_size=n))
    b = data.draw(st.lists(st.lists(cell, min_size=r_b, max_size=r_b), min_size=n, max_size=n))
    name = data.draw(st.sampled_from(sorted(WEIGHTS)))
    agree = [[WEIGHTS[name](i, j, k) for j in range(k)] for i in range(k)]
    full = _kappa_exact(a, b, k, agree)
    left_out = [_kappa_exact(a[:i] + a[i + 1 :], b[:i] + b[i + 1 :], k, agree) for i in range(n)]
    assume(full is not None and all(v is not None for v in left_out))
    assert full is not None
    values = [v for v in left_out if v is not None]
    centre = sum(values, Fraction(0)) / n
    variance = Fraction(n - 1, n) * sum(((v - centre) ** 2 for v in values), Fraction(0))
    if variance == 0 and full < 1:  # no spread: the jackknife measures nothing
        with pytest.warns(wk.exceptions.UndefinedKappaWarning, match="standard error is 0"):
            result = wk.group_agreement(a, b, weights=name, labels=range(k))
        assert math.isnan(result.standard_error)
    else:
        result = wk.group_agreement(a, b, weights=name, labels=range(k))
        assert result.standard_error**2 == pytest.approx(float(variance), rel=1e-9, abs=1e-14)
    assert result.statistic == pytest.approx(float(full), rel=1e-9, abs=1e-12)
    assert result.bias_corrected == pytest.approx(float(n * full - (n - 1) * centre), abs=1e-9)


def test_missing_ratings() -> None:
    a = np.array([[1, 2, 2], [3, 3, np.nan], [1, 1, 2], [2, 2, 2], [np.nan, np.nan, np.nan]])
    b = np.array([[1, 2], [3, 3], [1, 2], [2, 3], [1, 1]])
    result = wk.group_agreement(a, b)
    assert result.n_items == 4  # the item group A did not rate is dropped
    kept = wk.group_agreement(a[:4], b[:4])
    assert result.statistic == pytest.approx(kept.statistic, abs=1e-14)
    # item 2's shares for group A use its two ratings: the same as a row (3, 3)
    same = wk.group_agreement(np.where(np.isnan(a[:4]), 3, a[:4]), b[:4])
    assert result.statistic == pytest.approx(same.statistic, abs=1e-14)
    with pytest.raises(WkappaError, match="missing"):
        wk.group_agreement(a, b, nan_policy="raise")
    assert math.isnan(wk.group_agreement(a, b, nan_policy="propagate").statistic)


def test_alternative_and_result_grammar() -> None:
    two = wk.group_agreement(SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights="linear")
    greater = wk.group_agreement(
        SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights="linear", alternative="greater"
    )
    assert greater.pvalue == pytest.approx(two.pvalue / 2, rel=1e-9)
    low, high = greater.confidence_interval(0.95)
    assert high == 1.0
    assert low == pytest.approx(two.confidence_interval(0.90).low, abs=1e-14)
    assert two.confidence_interval(0.9).method == "jackknife-t"
    # The refusal lists the bootstrap methods it accepts too (it offered 'jackknife-t' alone).
    with pytest.raises(WkappaError, match="'jackknife-t', 'bootstrap', 'percentile', 'bca'"):
        two.confidence_interval(method="asymptotic")  # type: ignore[arg-type]
    summary = two.to_dict()
    json.dumps(summary)
    assert summary["statistic"] == two.statistic and summary["n_raters_b"] == 11
    text = two.explain()
    assert "0.715232" in text and "jackknife" in text and "33 df" in text
    assert "GroupAgreementResult(statistic=0.715232" in repr(two)


def test_bad_input() -> None:
    a = [[1, 2], [2, 2], [1, 1]]
    with pytest.raises(WkappaError, match=r"ratings_a.*3 items.*ratings_b.*2"):
        wk.group_agreement(a, [[1, 2], [2, 2]])
    with pytest.raises(WkappaError, match="`ratings_b` has 1 rater"):
        wk.group_agreement(a, [[1], [2], [1]])
    with pytest.raises(WkappaError, match="`ratings_a` must be 2-D"):
        wk.group_agreement([1, 2, 1], a)
    nan = float("nan")
    with pytest.raises(WkappaError, match="`ratings_b` has no ratings"):
        wk.group_agreement(a, [[nan, nan]] * 3)
    with pytest.raises(WkappaError, match="`ratings_a` and `ratings_b` have no ratings"):
        wk.group_agreement([[nan, nan]] * 3, [[nan, nan]] * 3)
    with pytest.raises(WkappaError, match="at least two"):
        wk.group_agreement(a, [[1, 2], [nan, nan], [nan, nan]])
    with pytest.raises(WkappaError, match="alternative"):
        wk.group_agreement(a, a, alternative="bigger")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="weights"):
        wk.group_agreement(a, a, weights="cubic")  # type: ignore[arg-type]


def test_item_bootstrap() -> None:
    """The item bootstrap: reproducible with a seed, around the estimate, about as wide as the
    jackknife-t interval on the paper's data, one-sided as ``alternative``."""
    result = wk.group_agreement(SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights="linear")
    jack = result.confidence_interval()
    for name in ("percentile", "bca"):
        ci = result.confidence_interval(method=wk.BootstrapMethod(999, method=name, rng=5))
        again = result.confidence_interval(method=wk.BootstrapMethod(999, method=name, rng=5))
        assert (ci.low, ci.high) == (again.low, again.high)
        assert ci.method == name and ci.n_resamples == 999
        assert ci.low < result.statistic < ci.high
        assert 0.6 < (ci.high - ci.low) / (jack.high - jack.low) < 1.4
    assert result.confidence_interval(method="bootstrap").method == "bca"
    greater = wk.group_agreement(
        SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights="linear", alternative="greater"
    )
    one = greater.confidence_interval(method=wk.BootstrapMethod(999, method="percentile", rng=5))
    two = result.confidence_interval(
        0.9, method=wk.BootstrapMethod(999, method="percentile", rng=5)
    )
    assert one.high == 1.0 and one.low == pytest.approx(two.low, abs=1e-14)


def test_undefined_and_propagated() -> None:
    same = [[1, 1], [1, 1], [1, 1]]
    with pytest.warns(wk.UndefinedKappaWarning, match="undefined"):
        result = wk.group_agreement(same, same)
    assert math.isnan(result.statistic) and math.isnan(result.standard_error)
    ci = result.confidence_interval(method=wk.BootstrapMethod(99, rng=1))
    assert math.isnan(ci.low) and ci.n_undefined == 99
    a = np.array([[1, 2, np.nan], [2, 2, 2], [1, 1, 1]])
    propagated = wk.group_agreement(a, [[1, 2], [2, 2], [1, 2]], nan_policy="propagate")
    assert math.isnan(propagated.confidence_interval(method="bca").high)
    assert math.isnan(propagated.confidence_interval().low)


def test_groups_are_read_as_agreement_reads_a_matrix() -> None:
    """Each group was read with np.asarray / to_numpy: masked entries counted as ratings,
    ordered categoricals and Enums were refused for weights, a LazyFrame gave "got shape ()",
    a long-layout frame was scored as three raters, and errors named `ratings`."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    a = np.array([[1, 1, 2], [2, 2, 2], [3, 2, 3], [1, 1, 1], [3, 3, 3], [2, 1, 2]])
    b = np.array([[1, 1], [2, 2], [3, 3], [1, 2], [3, 3], [2, 2]])
    hole = np.zeros(a.shape, dtype=bool)
    hole[0, 0] = True
    with_nan = wk.group_agreement(np.where(hole, np.nan, a), b, weights="quadratic").statistic
    masked = wk.group_agreement(np.ma.array(a, mask=hole), b, weights="quadratic").statistic
    assert masked == with_nan
    order = ["low", "mid", "high"]

    def named(m: np.ndarray) -> Any:
        return pd.DataFrame(
            {
                f"r{g}": pd.Categorical([order[v - 1] for v in m[:, g]], order, ordered=True)
                for g in range(m.shape[1])
            }
        )

    expected = wk.group_agreement(a, b, weights="quadratic").statistic
    assert wk.group_agreement(named(a), named(b), weights="quadratic").statistic == expected
    enum = pl.Enum(order)
    enums = [pl.from_pandas(named(m).astype(str)).with_columns(pl.all().cast(enum)) for m in (a, b)]
    assert wk.group_agreement(*enums, weights="quadratic").statistic == expected
    with pytest.raises(WkappaError, match="`ratings_a` is a polars LazyFrame"):
        wk.group_agreement(enums[0].lazy(), enums[1])
    long = pd.DataFrame({"item": [1, 2, 3], "rater": [1, 2, 3], "rating": [1, 2, 3]})
    with pytest.raises(WkappaError, match="`ratings_b` looks like the long layout"):
        wk.group_agreement(b[:3], long)
    with pytest.raises(WkappaError, match="`ratings_a` must be 2-D"):
        wk.group_agreement(a[:, 0], b)


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_a_standard_error_of_zero_rejects_as_agreement_does(alternative: str) -> None:
    """Perfect agreement has a jackknife SE of 0: the p-value was nan (no warning) where
    `agreement` on the same items gives 0 (t = +inf): one rule, pvalues.wald_statistic."""
    perfect = np.array([[1, 1], [2, 2], [3, 3], [1, 1]])
    result = wk.group_agreement(perfect, perfect, alternative=alternative)
    same = wk.agreement(np.column_stack([perfect, perfect]), alternative=alternative)
    assert result.statistic == same.statistic == 1.0
    assert result.standard_error == same.standard_error == 0.0
    assert result.pvalue == same.pvalue == 0.0


@pytest.mark.parametrize(
    ("ratings_a", "ratings_b", "statistic"),
    [
        # two items: one item alone has Po = Pe, kappa 0, whichever is left out
        ([[0, 0], [1, 2]], [[1, 0], [2, 2]], 3 / 11),
        # four items of two kinds, alike in pairs: every item left out gives -0.8
        ([[0, 0, 1], [1, 1, 0]] * 2, [[0, 1, 1], [1, 0, 0]] * 2, -1.0),
    ],
)
def test_a_jackknife_without_spread_measures_nothing(
    ratings_a: list[list[int]], ratings_b: list[list[int]], statistic: float
) -> None:
    """Every item left out giving the same kappa is no evidence of precision: the SE was 0
    (or 1e-15 of rounding) and the p-value 0 (5e-45) on two or four items."""
    with pytest.warns(wk.exceptions.UndefinedKappaWarning, match="the jackknife's standard"):
        result = wk.group_agreement(ratings_a, ratings_b)
    assert result.statistic == pytest.approx(statistic, abs=1e-12)
    assert math.isnan(result.standard_error) and math.isnan(result.pvalue)
    assert all(math.isnan(limit) for limit in result.confidence_interval())


def test_errors_name_the_group_at_fault() -> None:
    """Errors of the encoder named `ratings`, a parameter group_agreement does not have."""
    a = np.array([[1, 2], [2, 2], [3, 3]])
    b = np.array([[1, 1], [2, 3], [3, 3]])
    said = r"^`ratings_b` contains 3 at item 1, rater 1, which is not in `labels`"
    with pytest.raises(WkappaError, match=said):
        wk.group_agreement(np.ones((3, 2), dtype=int), b, labels=[1, 2])
    with pytest.raises(WkappaError, match=r"^`ratings_a` contains inf at item 2, rater 0;"):
        wk.group_agreement(np.where(a == 3, np.inf, a), b)
    with pytest.raises(WkappaError, match=r"^`ratings_b` has a missing rating .* item 1, rater 1"):
        wk.group_agreement(a, np.where(b == 3, np.nan, b), nan_policy="raise")
    with pytest.raises(WkappaError, match=r"^`ratings_a` has no items"):
        wk.group_agreement(a[:0], b[:0])


def test_zero_weights_leave_kappa_undefined() -> None:
    """Every pair of categories agrees fully: Po = Pe = Pm = 1, kappa 0/0. Rounding in the
    sums gave kappa 1, a standard error of 0 and p = 0."""
    with pytest.warns(wk.exceptions.UndefinedKappaWarning, match="Pm = Pe"):
        result = wk.group_agreement(
            [[1, 2, 2], [3, 3, 1], [2, 2, 2], [1, 1, 3]],
            [[1, 1, 2], [3, 3, 3], [2, 2, 2], [1, 1, 1]],
            labels=[1, 2, 3],
            weights=np.zeros((3, 3)),
        )
    assert math.isnan(result.statistic) and math.isnan(result.standard_error)
    assert math.isnan(result.pvalue)


@pytest.mark.parametrize("name", ["ordinal", "radical", "ratio", "circular", "bipolar"])
def test_gwet_named_weights_are_those_of_agreement(name: str) -> None:
    """group_agreement takes Gwet's named weights, as its docstring now says (it listed only
    'unweighted', 'linear' and 'quadratic'): the same as passing agreement's matrix."""
    rng = np.random.default_rng(9)
    truth = rng.integers(1, 6, 40)
    a = np.column_stack([np.clip(truth + rng.integers(-1, 2, 40), 1, 5) for _ in range(3)])
    b = np.column_stack([np.clip(truth + rng.integers(-1, 2, 40), 1, 5) for _ in range(2)])
    named = wk.group_agreement(a, b, weights=name, labels=range(1, 6))
    matrix = wk.agreement(np.hstack([a, b]), weights=name, labels=range(1, 6)).weight_matrix
    assert named.statistic == pytest.approx(
        wk.group_agreement(a, b, weights=matrix, labels=range(1, 6)).statistic, abs=1e-12
    )
    assert named.weights == name
