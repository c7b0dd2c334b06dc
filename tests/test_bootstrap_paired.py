"""paired_kappa_test: the K x K x K table bootstrap of two predictions against one truth."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

pytestmark = pytest.mark.filterwarnings("error")


def _data(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, n)
    a = np.clip(truth + rng.integers(-1, 2, n), 0, 4)
    b = np.clip(truth + rng.integers(-1, 2, n) * rng.integers(0, 2, n) * 2, 0, 4)
    return truth, a, b


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_statistics_are_the_point_estimates(weights: str) -> None:
    truth, a, b = _data()
    result = wk.paired_kappa_test(truth, a, b, weights=weights, n_resamples=99, rng=0)
    assert result.statistic_a == wk.weighted_kappa(truth, a, weights=weights)
    assert result.statistic_b == wk.weighted_kappa(truth, b, weights=weights)
    assert result.difference == result.statistic_a - result.statistic_b
    assert result.n == truth.size and result.weights == weights


def test_same_seed_same_result() -> None:
    truth, a, b = _data()
    first = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=11)
    again = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=11)
    other = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=12)
    assert first.confidence_interval() == again.confidence_interval()
    assert first.pvalue == again.pvalue
    assert first.confidence_interval() != other.confidence_interval()


def test_matches_a_naive_paired_bootstrap_of_items() -> None:
    truth, a, b = _data(200, seed=3)
    result = wk.paired_kappa_test(truth, a, b, n_resamples=20000, rng=1)
    rng = np.random.default_rng(2)
    naive = np.empty(3000)
    for r in range(naive.size):
        pick = rng.integers(0, truth.size, truth.size)
        naive[r] = wk.qwk(truth[pick], a[pick], labels=range(5)) - wk.qwk(
            truth[pick], b[pick], labels=range(5)
        )
    low, high = np.quantile(naive, [0.025, 0.975])
    assert result.confidence_interval().low == pytest.approx(low, abs=0.012)
    assert result.confidence_interval().high == pytest.approx(high, abs=0.012)


def test_pvalue_and_interval_are_dual() -> None:
    """0 is outside the level-(1 - alpha) interval exactly when p < alpha (the p-value is the
    interval inverted: tests/test_pvalue_interval_duality.py checks every level)."""
    checked = 0
    for seed in range(6):
        truth, a, b = _data(120, seed=seed)
        for alpha in (0.01, 0.05, 0.1, 0.2, 0.5):
            result = wk.paired_kappa_test(
                truth, a, b, n_resamples=1999, confidence_level=1 - alpha, rng=seed
            )
            if abs(result.pvalue - alpha) < 1e-9:
                continue
            low, high = result.confidence_interval()
            assert (low <= 0 <= high) == (result.pvalue >= alpha), (seed, alpha, result)
            checked += 1
    assert checked >= 20


def test_identical_predictions() -> None:
    truth, a, _ = _data()
    result = wk.paired_kappa_test(truth, a, a, n_resamples=499, rng=0)
    assert result.difference == 0.0
    assert tuple(result.confidence_interval()) == (0.0, 0.0)
    assert result.pvalue == 1.0


def test_clear_difference_is_significant_and_interval_monotone() -> None:
    truth, a, b = _data(1000)
    previous = None
    for level in (0.8, 0.9, 0.95, 0.99):
        result = wk.paired_kappa_test(truth, a, b, confidence_level=level, rng=4)
        low, high = result.confidence_interval()
        assert low < result.difference < high
        if previous is not None:
            assert low <= previous[0] and high >= previous[1]
        previous = (low, high)
    assert result.pvalue < 0.001 and result.confidence_interval().low > 0


def test_category_ranges_are_united() -> None:
    """A predicts 0..3 and B 0..4: both kappas use the categories 0..4."""
    truth = np.array([0, 1, 2, 3, 4, 1, 2, 3])
    a = np.array([0, 1, 2, 3, 3, 1, 2, 3])
    b = np.array([0, 1, 2, 4, 4, 0, 2, 3])
    result = wk.paired_kappa_test(truth, a, b, n_resamples=99, rng=0)
    assert result.labels == (0, 1, 2, 3, 4)
    assert result.statistic_a == wk.qwk(truth, a, labels=range(5))


def test_string_labels_and_to_dict() -> None:
    truth = ["lo", "mid", "hi", "mid", "lo", "hi", "mid", "lo"]
    a = ["lo", "mid", "hi", "hi", "lo", "hi", "mid", "mid"]
    b = ["mid", "mid", "lo", "hi", "lo", "hi", "lo", "lo"]
    result = wk.paired_kappa_test(truth, a, b, labels=["lo", "mid", "hi"], n_resamples=999, rng=0)
    assert repr(result).startswith("PairedKappaResult(statistic_a=")
    data = result.to_dict()
    assert data["labels"] == ["lo", "mid", "hi"]
    assert data["confidence_interval"]["n_undefined"] == result.confidence_interval().n_undefined


def test_undefined_kappa_gives_nan() -> None:
    truth = np.zeros(10, dtype=int)
    with pytest.warns(UndefinedKappaWarning):
        result = wk.paired_kappa_test(truth, truth, truth, n_resamples=9, rng=0)
    assert math.isnan(result.difference) and math.isnan(result.pvalue)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_resamples": 0}, "n_resamples"),
        ({"n_resamples": 1.5}, "n_resamples"),
        ({"confidence_level": 95}, "confidence_level"),
        ({"weights": "cubic"}, "weights"),
        ({"rng": "seed"}, "rng"),
    ],
)
def test_bad_options(kwargs: dict[str, object], match: str) -> None:
    truth, a, b = _data(20)
    with pytest.raises(WkappaError, match=match):
        wk.paired_kappa_test(truth, a, b, **kwargs)  # type: ignore[arg-type]


def test_bad_lengths_and_labels() -> None:
    truth, a, b = _data(20)
    with pytest.raises(WkappaError, match="y_pred_b"):
        wk.paired_kappa_test(truth, a, b[:-1])
    with pytest.raises(WkappaError, match="y_pred_a"):
        wk.paired_kappa_test(truth, [0.5] * 20, b)
    with pytest.raises(WkappaError, match="labels"):
        wk.paired_kappa_test(truth, a, b, labels=[0, 1, 2])


def _cube(truth: np.ndarray, a: np.ndarray, b: np.ndarray, k: int) -> np.ndarray:
    cube = np.zeros((k, k, k), dtype=np.int64)
    np.add.at(cube, (truth, a, b), 1)
    return cube


def _same(first: wk.PairedKappaResult, second: wk.PairedKappaResult) -> None:
    assert first.to_dict() == second.to_dict()
    assert first.statistic_a == second.statistic_a
    assert first.statistic_b == second.statistic_b
    assert first.confidence_interval() == second.confidence_interval()
    assert first.pvalue == second.pvalue and first.n == second.n


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_from_table_equals_from_ratings(weights: str) -> None:
    """The K x K x K table route gives the very same result (same cells, same draws)."""
    truth, a, b = _data(400, seed=5)
    cube = _cube(truth, a, b, 5)
    direct = wk.paired_kappa_test(truth, a, b, weights=weights, n_resamples=999, rng=3)
    tabled = wk.paired_kappa_test_from_table(cube, weights=weights, n_resamples=999, rng=3)
    _same(tabled, direct)
    assert tabled.n == 400 and isinstance(tabled.n, int)
    for dtype in (np.uint16, np.float64):  # other count dtypes, same cells, same draws
        _same(wk.paired_kappa_test_from_table(cube.astype(dtype), weights=weights,
                                              n_resamples=999, rng=3), direct)  # fmt: skip


def test_from_table_statistics_are_exact() -> None:
    """Both kappas are those of the two marginal K x K tables (exact Fraction reference)."""
    from reference import reference_kappa_from_table

    rng = np.random.default_rng(8)
    for k in (2, 3, 6):
        cube = rng.integers(0, 7, (k, k, k))
        result = wk.paired_kappa_test_from_table(cube, n_resamples=9, rng=0)
        for statistic, axis in ((result.statistic_a, 2), (result.statistic_b, 1)):
            expected = reference_kappa_from_table(cube.sum(axis=axis).tolist(), "quadratic")
            assert statistic == pytest.approx(float(expected), rel=1e-12, abs=1e-15)
        assert result.n == int(cube.sum())


@settings(max_examples=60)
@given(
    cube=st.integers(1, 4).flatmap(
        lambda k: hnp.arrays(np.int64, (k, k, k), elements=st.integers(0, 6))
    ),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_from_table_property(cube: np.ndarray, weights: str, seed: int) -> None:
    """Any table: both kappas are the exact ones of its marginal tables (nan where undefined),
    and the result is the one of the items it counts, seed for seed."""
    from reference import reference_kappa_from_table

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        result = wk.paired_kappa_test_from_table(cube, weights=weights, n_resamples=49, rng=seed)
        truth, a, b = np.nonzero(cube)
        items = [np.repeat(x, cube[truth, a, b]) for x in (truth, a, b)]
        k = cube.shape[0]
        direct = (
            wk.paired_kappa_test(*items, weights=weights, labels=range(k), n_resamples=49, rng=seed)
            if cube.sum() > 0
            else None
        )
        # (to_dict's interval warns where the resamples show no spread: inside the block)
        summaries = None if direct is None else (result.to_dict(), direct.to_dict())
    for statistic, axis in ((result.statistic_a, 2), (result.statistic_b, 1)):
        expected = reference_kappa_from_table(cube.sum(axis=axis).tolist(), weights)
        if expected is None:
            assert math.isnan(statistic)
        else:
            assert statistic == pytest.approx(float(expected), rel=1e-12, abs=1e-12)
    assert result.n == int(cube.sum())
    if summaries is not None:
        assert repr(summaries[0]) == repr(summaries[1])  # nan == nan in repr


def test_from_table_equals_from_ratings_with_labels_and_many_categories() -> None:
    """String labels name the axes; K = 170 (K³ above the dense count) still agrees."""
    names = ["lo", "mid", "hi"]
    truth, a, b = (
        np.array(x) for x in ([0, 1, 2, 1, 0, 2], [0, 1, 2, 2, 0, 1], [1, 1, 2, 0, 0, 2])
    )
    named = [[names[i] for i in x] for x in (truth, a, b)]
    direct = wk.paired_kappa_test(*named, labels=names, n_resamples=99, rng=1)
    tabled = wk.paired_kappa_test_from_table(
        _cube(truth, a, b, 3), labels=names, n_resamples=99, rng=1
    )
    _same(tabled, direct)
    assert tabled.labels == ("lo", "mid", "hi")
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 170, 500)
    a = np.clip(truth + rng.integers(-3, 4, 500), 0, 169)
    b = np.clip(truth + rng.integers(-9, 10, 500), 0, 169)
    direct = wk.paired_kappa_test(truth, a, b, labels=range(170), n_resamples=99, rng=2)
    _same(wk.paired_kappa_test_from_table(_cube(truth, a, b, 170), n_resamples=99, rng=2), direct)


def test_from_table_weighted_counts_are_frequency_weights() -> None:
    truth, a, b = _data(400, seed=5)
    cube = _cube(truth, a, b, 5)
    direct = wk.paired_kappa_test_from_table(cube, n_resamples=999, rng=3)
    doubled = wk.paired_kappa_test_from_table(cube * 2.0, n_resamples=999, rng=3)
    assert doubled.difference == pytest.approx(direct.difference)
    assert doubled.n == 800.0
    width = doubled.confidence_interval().high - doubled.confidence_interval().low
    assert direct.confidence_interval().high - direct.confidence_interval().low > 1.2 * width
    with pytest.raises(wk.WkappaError, match="`table` must give whole-number counts"):
        wk.paired_kappa_test_from_table(cube + 0.5, n_resamples=999, rng=3)


def test_from_table_of_zeros_is_undefined() -> None:
    with pytest.warns(UndefinedKappaWarning):
        result = wk.paired_kappa_test_from_table(np.zeros((3, 3, 3)), n_resamples=9, rng=0)
    assert math.isnan(result.difference) and math.isnan(result.pvalue)


@pytest.mark.parametrize(
    ("table", "match"),
    [
        (np.ones((2, 2)), r"`table` must be a cubic \(K, K, K\) array; got shape \(2, 2\)\. Hint"),
        (np.ones((2, 3, 2)), r"`table` must be a cubic .* got shape \(2, 3, 2\)"),
        (np.ones((2, 2, 2, 2)), r"`table` must be a cubic"),
        (np.ones((0, 0, 0)), r"`table` must be a cubic"),
        (-np.ones((2, 2, 2)), r"`table` must hold non-negative counts; table\[0, 0, 0\] = -1"),
        (np.full((2, 2, 2), np.nan), "`table` must be finite"),
        (np.full((2, 2, 2), np.inf), "`table` must be finite"),
        (np.full((2, 2, 2), "1"), "`table` must hold numeric counts"),
        ([[[1, 2], [3]], [[1, 2], [3, 4]]], "`table` could not be read"),
    ],
)
def test_from_table_rejects_bad_tables(table: object, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.paired_kappa_test_from_table(table)  # type: ignore[arg-type]


def test_from_table_rejects_bad_options() -> None:
    cube = np.ones((3, 3, 3), dtype=int)
    with pytest.raises(WkappaError, match=r"`labels` has 2 categories but the table is 3 x 3 x 3"):
        wk.paired_kappa_test_from_table(cube, labels=[0, 1])
    with pytest.raises(WkappaError, match="`labels` must be a sequence"):
        wk.paired_kappa_test_from_table(cube, labels="abc")
    for kwargs in ({"n_resamples": 0}, {"confidence_level": 1.5}, {"weights": 1 - np.eye(2)}):
        with pytest.raises(WkappaError):
            wk.paired_kappa_test_from_table(cube, **kwargs)  # type: ignore[arg-type]


def test_confidence_interval_is_a_method_taking_a_level():
    # As PanelComparison.confidence_interval(): one set of replicates, any level; the default
    # is the level given to paired_kappa_test.
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 80)
    a = np.where(rng.random(80) < 0.8, truth, rng.integers(0, 4, 80))
    b = np.where(rng.random(80) < 0.6, truth, rng.integers(0, 4, 80))
    result = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=0, confidence_level=0.9)
    default = result.confidence_interval()
    assert default.confidence_level == 0.9 and default == result.confidence_interval(0.9)
    wide, narrow = result.confidence_interval(0.99), result.confidence_interval(0.5)
    assert wide.low <= default.low <= narrow.low <= narrow.high <= default.high <= wide.high
    assert wide.n_resamples == 999 and wide.method == "expanded-percentile"
    with pytest.raises(WkappaError, match="confidence_level"):
        result.confidence_interval(1.5)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_pvalue_and_interval_are_dual(alternative: str) -> None:
    """The one-sided p-value is dual to the one-sided interval of the same result: 0 is
    outside the level-(1 - alpha) one-sided interval exactly when p < alpha (away from the
    boundary)."""
    checked = 0
    for seed in range(6):
        truth, a, b = _data(120, seed=seed)
        for alpha in (0.01, 0.05, 0.1, 0.2, 0.4):
            result = wk.paired_kappa_test(
                truth, a, b, n_resamples=1999, rng=seed, alternative=alternative
            )
            if abs(result.pvalue - alpha) < 1e-9:
                continue
            low, high = result.confidence_interval(1 - alpha)
            assert (low <= 0 <= high) == (result.pvalue >= alpha), (seed, alpha, result)
            checked += 1
    assert checked >= 20


def test_one_sided_pvalues_halve_the_two_sided_one() -> None:
    truth, a, b = _data(200, seed=4)
    results = {
        alt: wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=1, alternative=alt)
        for alt in ("two-sided", "greater", "less")
    }
    two, greater, less = (results[alt].pvalue for alt in ("two-sided", "greater", "less"))
    assert results["greater"].difference > 0
    assert greater == pytest.approx(two / 2, rel=1e-12)
    assert less == pytest.approx(1 - two / 2, rel=1e-12)
    assert results["greater"].alternative == "greater"
    table = np.zeros((5, 5, 5), dtype=np.int64)
    np.add.at(table, (truth, a, b), 1)
    from_table = wk.paired_kappa_test_from_table(table, n_resamples=999, rng=1, alternative="less")
    assert from_table.pvalue == pytest.approx(less, rel=1e-12)


def test_one_sided_pvalue_on_clusters() -> None:
    truth, a, b = _data(120, seed=2)
    cluster = np.arange(120) // 3
    two = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=3, cluster=cluster)
    one = wk.paired_kappa_test(
        truth, a, b, n_resamples=999, rng=3, cluster=cluster, alternative="greater"
    )
    side = two.pvalue / 2 if one.difference > 0 else 1 - two.pvalue / 2
    assert one.pvalue == pytest.approx(side, rel=1e-12)


def test_bad_alternative() -> None:
    truth, a, b = _data(50)
    with pytest.raises(WkappaError, match="alternative"):
        wk.paired_kappa_test(truth, a, b, alternative="bigger")  # type: ignore[arg-type]


def test_a_table_too_large_to_resample_is_refused() -> None:
    """2**63 pairs: numpy's multinomial raised a raw OverflowError."""
    for count in (2**60, 2.0**60):
        with pytest.raises(WkappaError, match="too many to resample"):
            wk.paired_kappa_test_from_table(np.full((2, 2, 2), count), n_resamples=99, rng=0)
    result = wk.kappa_test_from_table(np.array([[2**62, 1], [1, 2**62]]))
    with pytest.raises(WkappaError, match="too many to resample"):
        result.confidence_interval(method=wk.BootstrapMethod(99, rng=0))
