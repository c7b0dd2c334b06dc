"""``wk.paired_kappa_test(..., sample_weight=...)``: frequency weights, as in ``kappa_test``.

Without ``cluster`` a weighted item counts as its weight's number of items: the weighted test
is the test of the expanded data, bit for bit with the same seed (the bootstrap draws over
the same cells), and weighted counts that are not whole numbers are refused with the fixes.
With ``cluster`` any non-negative weights are accepted (the cluster bootstrap's kappas do not
depend on the scale of the weights).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import WkappaError

RNG = np.random.default_rng(7)
N = 120
TRUTH = RNG.integers(0, 5, N)
GOOD = np.clip(TRUTH + RNG.integers(-1, 2, N), 0, 4)
NOISY = np.clip(TRUTH + RNG.integers(-2, 3, N), 0, 4)
COUNT = RNG.integers(0, 4, N)  # zeros included: those items are not in the expanded data
REFUSED = "`sample_weight` must give whole-number counts"


def _expanded(count: np.ndarray, *columns: np.ndarray) -> list[np.ndarray]:
    return [np.repeat(column, count) for column in columns]


def _same(weighted: wk.PairedKappaResult, expanded: wk.PairedKappaResult) -> None:
    assert weighted.to_dict() == expanded.to_dict()
    assert weighted.statistic_a == expanded.statistic_a
    assert weighted.statistic_b == expanded.statistic_b
    assert weighted.difference == expanded.difference
    assert weighted.n == expanded.n and isinstance(weighted.n, int)
    # the same draws: every replicate, not only the interval's quantiles
    np.testing.assert_array_equal(weighted._differences, expanded._differences)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_weighted_is_the_expanded_data_bit_for_bit(dtype: type, alternative: str) -> None:
    options = {"n_resamples": 499, "rng": 11, "alternative": alternative, "labels": range(5)}
    weighted = wk.paired_kappa_test(
        TRUTH, GOOD, NOISY, sample_weight=COUNT.astype(dtype), **options
    )
    expanded = wk.paired_kappa_test(*_expanded(COUNT, TRUTH, GOOD, NOISY), **options)
    _same(weighted, expanded)
    assert weighted.n == int(COUNT.sum())
    assert weighted.confidence_interval() == expanded.confidence_interval()


def test_weights_from_fractions_that_sum_to_whole_counts_are_the_counts() -> None:
    # Ten weights of 0.1 in one (truth, A, B) cell sum to 0.9999999999999999: one item.
    truth, a, b = np.array([0] * 10 + [1, 1, 2]), np.array([0] * 10 + [1, 2, 2]), np.zeros(13)
    weight = np.array([0.1] * 10 + [1.0, 2.0, 1.0])
    weighted = wk.paired_kappa_test(truth, a, b, sample_weight=weight, n_resamples=99, rng=0)
    expanded = wk.paired_kappa_test([0, 1, 1, 1, 2], [0, 1, 2, 2, 2], np.zeros(5), rng=0,
                                    n_resamples=99)  # fmt: skip
    _same(weighted, expanded)


def test_clustered_weighted_is_the_expanded_data_bit_for_bit() -> None:
    ids = RNG.integers(0, 25, N)
    options = {"n_resamples": 499, "rng": 5, "labels": range(5)}
    weighted = wk.paired_kappa_test(TRUTH, GOOD, NOISY, sample_weight=COUNT, cluster=ids, **options)
    truth, good, noisy, repeated = _expanded(COUNT, TRUTH, GOOD, NOISY, ids)
    expanded = wk.paired_kappa_test(truth, good, noisy, cluster=repeated, **options)
    _same(weighted, expanded)
    assert weighted.n_clusters == expanded.n_clusters


def test_a_cluster_of_weight_zero_is_not_resampled() -> None:
    # One cluster per item: the items of weight 0 are no clusters of the expanded data.
    ids = np.arange(N)
    weighted = wk.paired_kappa_test(
        TRUTH, GOOD, NOISY, sample_weight=COUNT, cluster=ids, n_resamples=299, rng=2
    )
    assert weighted.n_clusters == int(np.count_nonzero(COUNT))
    expanded = wk.paired_kappa_test(
        *_expanded(COUNT, TRUTH, GOOD, NOISY), cluster=np.repeat(ids, COUNT), n_resamples=299,
        rng=2,
    )  # fmt: skip
    _same(weighted, expanded)


@pytest.mark.parametrize("weight", [1 / N, 0.5, 2.5])
def test_non_whole_weighted_counts_are_refused_with_the_fixes(weight: float) -> None:
    with pytest.raises(WkappaError, match=REFUSED) as info:
        wk.paired_kappa_test(TRUTH, GOOD, NOISY, sample_weight=np.full(N, weight))
    message = str(info.value)
    assert "frequency weights" in message and "integer counts" in message
    assert "`cluster=`" in message and "cluster bootstrap" in message
    assert "\n" not in message


def test_with_cluster_any_weights_at_any_scale() -> None:
    ids = np.arange(N)
    options = {"n_resamples": 999, "rng": 3, "cluster": ids}
    whole = wk.paired_kappa_test(TRUTH, GOOD, NOISY, sample_weight=COUNT, **options)
    scaled = wk.paired_kappa_test(TRUTH, GOOD, NOISY, sample_weight=0.37 * COUNT, **options)
    assert scaled.n == pytest.approx(0.37 * COUNT.sum())
    assert scaled.n_clusters == whole.n_clusters
    assert scaled.difference == pytest.approx(whole.difference, abs=1e-12)
    np.testing.assert_allclose(scaled._differences, whole._differences, rtol=0, atol=1e-12)
    assert scaled.pvalue == whole.pvalue


def test_omitted_items_drop_their_weights() -> None:
    truth = TRUTH.astype(float)
    truth[[3, 17]] = np.nan
    options = {"n_resamples": 199, "rng": 4, "labels": range(5)}
    weighted = wk.paired_kappa_test(
        truth, GOOD, NOISY, sample_weight=COUNT, nan_policy="omit", **options
    )
    keep = ~np.isnan(truth)
    expanded = wk.paired_kappa_test(
        *_expanded(COUNT[keep], TRUTH[keep], GOOD[keep], NOISY[keep]), **options
    )
    _same(weighted, expanded)


@pytest.mark.parametrize(
    ("weight", "expected"),
    [
        (np.r_[-1.0, np.ones(N - 1)], "`sample_weight`"),
        (np.r_[np.nan, np.ones(N - 1)], "`sample_weight`"),
        (np.ones(N - 1), "`sample_weight`"),
    ],
)
def test_bad_weights_are_refused_naming_the_parameter(weight: np.ndarray, expected: str) -> None:
    with pytest.raises(WkappaError, match=expected):
        wk.paired_kappa_test(TRUTH, GOOD, NOISY, sample_weight=weight)


def test_uniform_weights_do_not_change_the_kappas() -> None:
    plain = wk.paired_kappa_test(TRUTH, GOOD, NOISY, n_resamples=99, rng=0)
    tripled = wk.paired_kappa_test(
        TRUTH, GOOD, NOISY, sample_weight=np.full(N, 3), n_resamples=99, rng=0
    )
    assert tripled.n == 3 * N
    assert math.isclose(tripled.difference, plain.difference, abs_tol=1e-12)


@settings(max_examples=40)
@given(
    data=st.data(),
    k=st.integers(2, 4),
    n=st.integers(2, 30),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
    seed=st.integers(0, 2**32 - 1),
    clustered=st.booleans(),
)
def test_property_weighted_equals_expanded(
    data: st.DataObject, k: int, n: int, weights: str, seed: int, clustered: bool
) -> None:
    column = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    truth, a, b = (np.array(data.draw(column)) for _ in range(3))
    count = np.array(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    ids = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    if np.count_nonzero(count) < 2:
        count = np.maximum(count, 1)
    if np.unique(ids[count > 0]).size < 2:  # at least 2 clusters of positive weight
        ids = np.arange(n)
    options = {"weights": weights, "labels": range(k), "n_resamples": 60, "rng": seed}
    cluster = {"cluster": ids} if clustered else {}
    with warnings.catch_warnings():  # undefined kappas, few clusters: alike for both
        warnings.simplefilter("ignore")
        weighted = wk.paired_kappa_test(truth, a, b, sample_weight=count, **cluster, **options)
        if clustered:
            cluster = {"cluster": np.repeat(ids, count)}
        expanded = wk.paired_kappa_test(*_expanded(count, truth, a, b), **cluster, **options)
    assert weighted.n == expanded.n == int(count.sum())
    assert weighted.n_clusters == expanded.n_clusters
    for name in ("statistic_a", "statistic_b", "difference", "pvalue"):
        left, right = getattr(weighted, name), getattr(expanded, name)
        assert (math.isnan(left) and math.isnan(right)) or left == right, name
    np.testing.assert_array_equal(weighted._differences, expanded._differences)
