"""The cluster-robust (sandwich) variance of kappa and the cluster bootstrap
(wkappa._stats.cluster), checked against an exact Fraction reference."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from reference import reference_weights
from wkappa._core import weight_matrix
from wkappa._stats.cluster import (
    cluster_bootstrap_kappas,
    cluster_interval,
    cluster_jackknife,
    cluster_variance,
    read_groups,
)
from wkappa.exceptions import WkappaError


def exact_cluster_variance(
    items: list[tuple[int, int, int]], k: int, weights: str
) -> tuple[Fraction, Fraction] | None:
    """Kappa and the sandwich variance G/(G-1) sum_g U_g² / n² with Fractions, from the
    items (cluster, row category, column category); None where kappa is undefined."""
    w = reference_weights(weights, k)
    n = len(items)
    p = [[Fraction(0)] * k for _ in range(k)]
    for _, i, j in items:
        p[i][j] += Fraction(1, n)
    r = [sum(p[i]) for i in range(k)]
    c = [sum(p[i][j] for i in range(k)) for j in range(k)]
    wr = [sum(w[i][j] * c[j] for j in range(k)) for i in range(k)]
    wc = [sum(r[i] * w[i][j] for i in range(k)) for j in range(k)]
    d_e = sum(r[i] * wr[i] for i in range(k))
    if d_e == 0:
        return None
    kappa = 1 - sum(w[i][j] * p[i][j] for i in range(k) for j in range(k)) / d_e
    h = [[w[i][j] - (1 - kappa) * (wr[i] + wc[j]) for j in range(k)] for i in range(k)]
    mean = sum(p[i][j] * h[i][j] for i in range(k) for j in range(k))
    totals: dict[int, Fraction] = {}
    for g, i, j in items:
        totals[g] = totals.get(g, Fraction(0)) - (h[i][j] - mean) / d_e
    big_g = len(totals)
    assert sum(totals.values()) == 0
    variance = Fraction(big_g, big_g - 1) * sum(u * u for u in totals.values()) / (n * n)
    return kappa, variance


def stack(items: list[tuple[int, int, int]], k: int) -> np.ndarray:
    n_groups = max(g for g, _, _ in items) + 1
    tables = np.zeros((n_groups, k, k), dtype=np.int64)
    for g, i, j in items:
        tables[g, i, j] += 1
    return tables


clustered = st.integers(2, 5).flatmap(
    lambda k: st.tuples(
        st.just(k),
        st.lists(
            st.tuples(st.integers(0, 7), st.integers(0, k - 1), st.integers(0, k - 1)),
            min_size=2,
            max_size=40,
        ),
    )
)


@settings(max_examples=examples(150), deadline=None)
@given(data=clustered, weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_sandwich_variance_matches_exact_reference(
    data: tuple[int, list[tuple[int, int, int]]], weights: str
) -> None:
    k, items = data
    if len({g for g, _, _ in items}) < 2:
        items = [*items, (max(g for g, _, _ in items) + 1, 0, k - 1)]
    exact = exact_cluster_variance(items, k, weights)
    kappa, variance, n_clusters = cluster_variance(stack(items, k), weight_matrix(weights, k))
    assert n_clusters == len({g for g, _, _ in items})
    if exact is None:
        assert math.isnan(kappa) and math.isnan(variance)
        return
    assert kappa == pytest.approx(float(exact[0]), rel=1e-12, abs=1e-12)
    assert variance == pytest.approx(float(exact[1]), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_one_pair_per_cluster_is_the_ordinary_variance_times_n_over_n_minus_1(
    weights: str,
) -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 5, 80)
    b = np.clip(a + rng.integers(-2, 3, 80), 0, 4)
    table = wk.confusion_table(a, b)
    tables = np.zeros((80, 5, 5), dtype=np.int64)
    tables[np.arange(80), a, b] = 1
    kappa, variance, n_clusters = cluster_variance(tables, weight_matrix(weights, 5))
    ordinary = wk.kappa_test_from_table(table, weights=weights)
    assert n_clusters == 80
    assert kappa == pytest.approx(ordinary.statistic, rel=1e-12)
    assert variance == pytest.approx(ordinary.standard_error**2 * 80 / 79, rel=1e-10)


def test_duplicated_clusters_double_the_variance_of_the_ordinary_one() -> None:
    """Two identical copies of every item in one cluster: the information is that of n items,
    so the cluster variance is the ordinary variance of the n items (times n/(n-1)), twice
    the naive one computed from the 2n pairs (up to (2n - 1)/(2n - 2) ... factors)."""
    rng = np.random.default_rng(11)
    a = rng.integers(0, 4, 60)
    b = np.clip(a + rng.integers(-1, 2, 60), 0, 3)
    single = np.zeros((60, 4, 4), dtype=np.int64)
    single[np.arange(60), a, b] = 1
    doubled = 2 * single
    matrix = weight_matrix("quadratic", 4)
    _, one, _ = cluster_variance(single, matrix)
    _, two, _ = cluster_variance(doubled, matrix)
    assert two == pytest.approx(one, rel=1e-12)
    naive = wk.kappa_test_from_table(doubled.sum(axis=0)).standard_error ** 2
    assert two == pytest.approx(2 * naive * 60 / 59, rel=1e-10)


def test_cluster_bootstrap_is_reproducible_and_centred() -> None:
    rng = np.random.default_rng(5)
    tables = rng.integers(0, 4, (40, 3, 3)) + 3 * np.eye(3, dtype=np.int64)
    matrix = weight_matrix("quadratic", 3)
    kappa, variance, _ = cluster_variance(tables, matrix)
    values = cluster_bootstrap_kappas(tables, matrix, 4000, np.random.default_rng(1))
    again = cluster_bootstrap_kappas(tables, matrix, 4000, np.random.default_rng(1))
    assert np.array_equal(values, again)
    assert abs(float(np.mean(values)) - kappa) < 0.01
    assert float(np.std(values)) == pytest.approx(math.sqrt(variance), rel=0.1)
    jack = cluster_jackknife(tables, matrix)
    assert jack.shape == (40,)
    for method in ("percentile", "bca"):
        low, high, dropped = cluster_interval(
            tables, matrix, kappa, 0.95, 999, method, np.random.default_rng(2)
        )
        assert low < kappa < high and dropped == 0


def test_read_groups() -> None:
    codes, names = read_groups(["b", "a", "b", "c"], 4, "cluster")
    assert names == ("a", "b", "c") and codes.tolist() == [1, 0, 1, 2]
    codes, names = read_groups([3, 1, 3], 3, "cluster")
    assert names == (1, 3) and codes.tolist() == [1, 0, 1]
    codes, names = read_groups([1, "x", 1], 3, "cluster")
    assert codes.tolist() == [0, 1, 0] and len(names) == 2
    with pytest.raises(WkappaError, match="`cluster` must have one id per rating pair"):
        read_groups([1, 2], 3, "cluster")
    with pytest.raises(WkappaError, match="`cluster` has a missing id"):
        read_groups([1.0, float("nan"), 2.0], 3, "cluster")
    with pytest.raises(WkappaError, match="`cluster` has a missing id"):
        read_groups(["a", None, "b"], 3, "cluster")
