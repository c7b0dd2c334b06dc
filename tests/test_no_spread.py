"""Samples whose items show no spread: every item rated alike (or every leave-one-out and
every resample giving one value). Gwet's standard error, the jackknife and the bootstraps
came out 0, so the intervals had zero width ([c, c]) and Gwet's p-value was about 1e-15; they
are nan now, with one UndefinedKappaWarning pointing at the caller's line."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import wkappa as wk
import wkappa.frames
from wkappa.exceptions import UndefinedKappaWarning

ALIKE = [[1, 2, 2]] * 4  # every item rated alike
TWO = [[1, 2, 2], [3, 3, 1]]  # two items whose linearised terms coincide
BOOT = wk.BootstrapMethod(n_resamples=199, rng=0)


def _one_warning(call):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    assert [w.category for w in caught] == [UndefinedKappaWarning], [str(w.message) for w in caught]
    assert caught[0].filename == __file__
    return value, str(caught[0].message)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
@pytest.mark.parametrize("ratings", [ALIKE, TWO], ids=["alike", "two"])
def test_gwet_standard_error_of_alike_items_is_undefined(coefficient: str, ratings) -> None:  # type: ignore[no-untyped-def]
    result, message = _one_warning(lambda: wk.agreement(ratings, coefficient=coefficient))
    assert not math.isnan(result.statistic)
    assert math.isnan(result.standard_error) and math.isnan(result.pvalue)
    assert "adds the same term to Gwet's variance" in message and "standard error is 0" in message
    for method in ("asymptotic", "fisher-z", "jackknife"):  # nan, warned already
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ci = result.confidence_interval(method=method)
        assert math.isnan(ci.low) and math.isnan(ci.high)


def test_bootstrap_of_alike_items_is_nan() -> None:
    with pytest.warns(UndefinedKappaWarning):
        result = wk.agreement(ALIKE, coefficient="conger")
    for method in (BOOT, wk.BootstrapMethod(method="bca", n_resamples=199, rng=0)):
        ci, message = _one_warning(lambda m=method: result.confidence_interval(method=m))
        assert math.isnan(ci.low) and math.isnan(ci.high)
        assert f"every resample gives the same kappa ({result.statistic:.6g})" in message


def test_perfect_agreement_keeps_its_exact_zero() -> None:
    """Perfect agreement: every term, leave-one-out and resample is 1; its standard error
    of exactly 0 and interval [1, 1] stay (as group_agreement)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = wk.agreement([[2, 2, 2], [1, 1, 1]] * 2, coefficient="gwet", labels=[1, 2, 3])
        assert (result.statistic, result.standard_error) == (1.0, 0.0)
        assert tuple(result.confidence_interval(method=BOOT)) == (1.0, 1.0)
        assert tuple(result.confidence_interval(method="jackknife")) == (1.0, 1.0)


def test_kappa_bootstrap_without_spread_is_nan() -> None:
    """Every pair (1, 2): kappa is 0 on every resample; the interval was [0, 0]."""
    with pytest.warns(UndefinedKappaWarning):  # the test of kappa = 0 is undefined
        result = wk.kappa_test([1] * 5, [2] * 5, labels=[1, 2, 3])
    ci, message = _one_warning(lambda: result.confidence_interval(method=BOOT))
    assert math.isnan(ci.low) and "every resample gives the same kappa (0)" in message


def test_spread_items_keep_their_intervals() -> None:
    result = wk.agreement([[1, 2, 2], [3, 3, 1], [2, 2, 2], [1, 1, 3]], coefficient="conger")
    for method in ("asymptotic", "jackknife", BOOT):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = result.confidence_interval(method=method)
        assert ci.low < ci.high


@pytest.mark.parametrize("method", ["asymptotic", "fisher-z"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_kappa_with_a_standard_error_of_zero_has_no_interval(method: str, alternative: str) -> None:
    """Every pair (1, 2): kappa 0 with a standard error of 0; the interval was [0, 0]
    (one-sided [0, 1])."""
    with pytest.warns(UndefinedKappaWarning):  # the test of kappa = 0 is undefined
        result = wk.kappa_test([1] * 5, [2] * 5, labels=[1, 2, 3], alternative=alternative)
    ci, message = _one_warning(lambda: result.confidence_interval(method=method))
    assert math.isnan(ci.low) and math.isnan(ci.high)
    assert f"The {method!r} interval is undefined: its standard error is 0" in message


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("build", ["kappa_test", "from_table", "accumulator"])
def test_single_pair_warns_once(build: str, alternative: str) -> None:
    """A single pair: its test and every interval are nan, said once when the result is
    built; each confidence_interval() call warned again."""

    def make() -> wk.KappaResult:
        if build == "kappa_test":
            return wk.kappa_test([1], [2], labels=[1, 2, 3], alternative=alternative)
        if build == "from_table":
            return wk.kappa_test_from_table([[0, 1], [0, 0]], alternative=alternative)
        acc = wk.KappaAccumulator(labels=[1, 2])
        acc.update([1], [2])
        return acc.result(alternative=alternative)

    result, message = _one_warning(make)
    assert "every interval are undefined for a single pair" in message
    assert math.isnan(result.pvalue)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("asymptotic", "score", "fisher-z", BOOT, "bca"):
            ci = result.confidence_interval(0.9, method=method)
            assert math.isnan(ci.low) and math.isnan(ci.high)
        assert "CI=[nan, nan]" in repr(result)


def test_repr_does_not_warn() -> None:
    with pytest.warns(UndefinedKappaWarning):
        result = wk.kappa_test([1] * 5, [2] * 5, labels=[1, 2, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "CI=[nan, nan]" in repr(result)


def test_perfect_kappa_keeps_its_interval() -> None:
    """[1, 1] stays (not nan), with the warning that points to the 'score' interval
    (tests/test_perfect_agreement_interval.py)."""
    result = wk.kappa_test_from_table([[3, 0], [0, 4]])
    with pytest.warns(wk.PerfectAgreementWarning, match=r"interval is \[1, 1\]: kappa is 1"):
        assert tuple(result.confidence_interval()) == (1.0, 1.0)


@pytest.mark.parametrize("form", ["A,1", "A,k"])
def test_icc_of_items_alike_has_no_f_interval(form: str) -> None:
    """Items alike, raters at constant offsets: ICC(A) is 0 but F is 0/0; the interval was
    [0, 0]."""
    with pytest.warns(wk.UndefinedReliabilityWarning, match="its p and the F-based interval"):
        result = wk.icc([[1, 2, 2]] * 4, form=form)
    assert result.statistic == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = result.confidence_interval()
    assert math.isnan(ci.low) and math.isnan(ci.high)


@pytest.mark.parametrize("method", ["asymptotic", "fisher-z"])
def test_kappa_by_group_with_a_standard_error_of_zero_has_no_interval(method: str) -> None:
    """A group whose pairs all fall in one cell: its limits were [0, 0]."""
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"t": [1, 1, 1, 1, 2, 2], "p": [2, 2, 2, 1, 3, 3], "g": list("aaabbb")})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = wk.frames.kappa_by_group(df, y_true="t", y_pred="p", by="g", method=method)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2, messages  # the interval's, and the test's (group 'a' alone)
    assert all("1 of 2 groups" in message and "'a'" in message for message in messages)
    assert "test of kappa = 0 is undefined" in messages[1]
    rows = {row["g"]: row for row in frame.to_dicts()}
    assert rows["a"]["kappa"] == 0.0 and math.isnan(rows["a"]["ci_low"])
    assert math.isnan(rows["a"]["pvalue"]) and rows["b"]["pvalue"] < 1.0
    assert rows["b"]["ci_low"] < rows["b"]["ci_high"]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    ("ratings", "form"),
    [
        (ALIKE, "1,1"),
        ([[1, 3], [3, 1], [2, 2]], "A,1"),
        ([[0.1, 0.2], [0.2, 0.1], [0.3, 0.0]], "C,1"),
    ],
    ids=["alike", "mirrored", "decimals"],
)
def test_icc_of_items_with_one_mean_has_no_f_test(ratings, form: str, alternative: str) -> None:  # type: ignore[no-untyped-def]
    """Every item with the same mean rating: F = MSR / MSE is 0 (up to rounding for decimals),
    and the two-sided p was 0 and the interval the single point [c, c]."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = wk.icc(ratings, form=form, alternative=alternative)
    assert [w.category for w in caught] == [wk.UndefinedReliabilityWarning]
    assert caught[0].filename == __file__
    assert "so F = 0" in str(caught[0].message)
    assert not math.isnan(result.statistic) and result.f_statistic < 1e-12
    assert math.isnan(result.pvalue)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = result.confidence_interval()
    assert math.isnan(ci.low) and math.isnan(ci.high)


def test_stack_with_a_single_pair_says_its_intervals_are_nan() -> None:
    """The results of a stack of tables (score --by, kappa_by_group): a single-pair table's
    intervals are nan without a warning of their own, so the one warning of the stack says so,
    whether or not another table is untestable for another reason."""
    from wkappa._stats import kappa_results

    single = [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    one_cell = [[0, 5, 0], [0, 0, 0], [0, 0, 0]]  # every pair (1, 2): null SE 0
    spread = [[3, 1, 0], [1, 3, 1], [0, 1, 3]]
    for tables, wording in (
        ([single, spread], "every interval are undefined for a single pair"),
        ([single, one_cell, spread], "so is every interval of a single pair"),
    ):
        results, message = _one_warning(
            lambda t=tables: kappa_results(np.array(t), "quadratic", (1, 2, 3), "two-sided", 0.0)
        )
        assert wording in message
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ci = results[0].confidence_interval(method="score")
        assert math.isnan(ci.low) and math.isnan(ci.high)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("comparison", ["paired", "panel"])
def test_a_difference_without_spread_has_no_interval(comparison: str, alternative: str) -> None:
    """One prediction perfect on every item, the other a constant: every resample gives the
    difference 1 (or -1), and the expanded percentile interval was the single point [1, 1]."""
    truth = [1, 2, 3, 1, 2, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if comparison == "paired":
            result = wk.paired_kappa_test(
                truth, truth, [2] * 6, labels=[1, 2, 3], n_resamples=199, rng=0,
                alternative=alternative,
            )  # fmt: skip
        else:
            result = wk.rater_vs_panel(
                [[t, t] for t in truth], [2] * 6, labels=[1, 2, 3], n_resamples=199, rng=0,
                alternative=alternative,
            )  # fmt: skip
        assert "CI=[nan, nan]" in repr(result)  # (a repr does not warn)
    assert abs(result.difference) == 1.0
    ci, message = _one_warning(lambda: result.confidence_interval())
    assert math.isnan(ci.low) and math.isnan(ci.high)
    assert "every resample gives the same difference" in message


def test_a_difference_of_zero_on_every_resample_keeps_its_interval() -> None:
    """Two predictions that agree with each other on every item: [0, 0] and p = 1 stay."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = wk.paired_kappa_test(
            [1, 2, 3, 1, 2, 3], [1, 2, 2, 1, 3, 3], [1, 2, 2, 1, 3, 3], labels=[1, 2, 3],
            n_resamples=199, rng=0,
        )  # fmt: skip
        assert tuple(result.confidence_interval()) == (0.0, 0.0) and result.pvalue == 1.0
