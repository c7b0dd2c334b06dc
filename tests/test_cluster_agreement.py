"""agreement(..., cluster=ids): the cluster-robust linearised variance of several raters."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import wkappa as wk
from wkappa._core import t_ppf
from wkappa.exceptions import FewClustersWarning, WkappaError

COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]


def _ratings(seed: int, n: int = 24, raters: int = 4, k: int = 3, missing: float = 0.1):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    ratings = np.where(
        rng.random((n, raters)) < 0.6, truth[:, None], rng.integers(0, k, (n, raters))
    ).astype(float)
    ratings[rng.random((n, raters)) < missing] = np.nan
    return ratings


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
@pytest.mark.parametrize("weights", ["unweighted", "quadratic"])
def test_one_item_per_cluster_is_gwets_variance(coefficient: str, weights: str) -> None:
    # G = n: G/(G-1) sum U² / n² = sum (x - c)² / (n (n - 1)), Gwet's variance itself.
    ratings = _ratings(1)
    plain = wk.agreement(ratings, coefficient=coefficient, weights=weights)
    ids = [f"item{i}" for i in range(len(ratings))]
    clustered = wk.agreement(ratings, coefficient=coefficient, weights=weights, cluster=ids)
    assert clustered.statistic == plain.statistic
    assert clustered.standard_error == pytest.approx(plain.standard_error, rel=1e-12)
    assert clustered.pvalue == pytest.approx(plain.pvalue, rel=1e-9)
    assert clustered.n_clusters == plain.n_items
    assert clustered.confidence_interval() == pytest.approx(plain.confidence_interval())


def _fraction_terms(counts: list[list[int]], coefficient: str) -> list[Fraction]:
    """Gwet's linearised terms, unweighted, complete data, in exact arithmetic:
    ``x_i = (pa_i - pe)/(1 - pe) - 2 (1 - c)(pe_i - pe)/(1 - pe)``."""
    n, k = len(counts), len(counts[0])
    r = [sum(row) for row in counts]
    pa_i = [
        Fraction(sum(c * (c - 1) for c in row), r_i * (r_i - 1))
        for row, r_i in zip(counts, r, strict=True)
    ]
    pi = [
        sum(Fraction(row[j], r_i) for row, r_i in zip(counts, r, strict=True)) / n for j in range(k)
    ]
    pa = sum(pa_i) / n
    if coefficient == "fleiss":
        pe = sum(p * p for p in pi)
        pe_i = [
            sum(Fraction(row[j], r_i) * pi[j] for j in range(k))
            for row, r_i in zip(counts, r, strict=True)
        ]
    else:  # Gwet's AC1
        pe = sum(p * (1 - p) for p in pi) / (k - 1)
        pe_i = [
            sum(Fraction(row[j], r_i) * (1 - pi[j]) for j in range(k)) / (k - 1)
            for row, r_i in zip(counts, r, strict=True)
        ]
    c = (pa - pe) / (1 - pe)
    return [
        (a - pe) / (1 - pe) - 2 * (1 - c) * (e - pe) / (1 - pe)
        for a, e in zip(pa_i, pe_i, strict=True)
    ]


@pytest.mark.parametrize("coefficient", ["fleiss", "gwet"])
@pytest.mark.parametrize("seed", range(4))
def test_cluster_variance_against_fractions(coefficient: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    ratings = _ratings(seed + 10, n=21, raters=3, k=3, missing=0.0)
    ids = rng.integers(0, 6, len(ratings))
    counts = [[int(np.sum(row == j)) for j in range(3)] for row in ratings]
    terms = _fraction_terms(counts, coefficient)
    n = len(terms)
    centre = sum(terms) / n
    groups = sorted(set(ids.tolist()))
    totals = [sum(t - centre for t, g in zip(terms, ids, strict=True) if g == h) for h in groups]
    g = len(groups)
    exact = Fraction(g, g - 1) * sum(u * u for u in totals) / (n * n)
    with pytest.warns(FewClustersWarning, match=f"Only {g} clusters"):
        result = wk.agreement(ratings, coefficient=coefficient, cluster=ids)
    assert result.n_clusters == g
    assert result.standard_error**2 == pytest.approx(float(exact), rel=1e-12)
    # the point estimate is the plain one, and the t(G - 1) interval uses this SE
    assert result.statistic == wk.agreement(ratings, coefficient=coefficient).statistic
    half = t_ppf(0.975, g - 1) * result.standard_error
    low, high = result.confidence_interval()
    assert low == pytest.approx(result.statistic - half, rel=1e-12)
    assert high == pytest.approx(min(1.0, result.statistic + half), rel=1e-12)


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_order_of_items_and_names_of_clusters_do_not_matter(coefficient: str) -> None:
    ratings = _ratings(3, n=30)
    ids = np.arange(30) // 3
    first = wk.agreement(ratings, coefficient=coefficient, cluster=ids)
    order = np.random.default_rng(0).permutation(30)
    names = np.array([f"c{i}" for i in ids])
    second = wk.agreement(ratings[order], coefficient=coefficient, cluster=names[order])
    assert second.statistic == pytest.approx(first.statistic, rel=1e-12)
    assert second.standard_error == pytest.approx(first.standard_error, rel=1e-10)
    assert first.n_clusters == 10
    assert first.degrees_of_freedom == 9


def test_identical_items_in_different_clusters_stay_apart() -> None:
    # Two clusters of copies: the plain state merges equal rows, the clustered one must not.
    ratings = np.array([[0, 0, 0], [1, 1, 0], [0, 0, 0], [1, 1, 0], [2, 2, 2], [2, 1, 2]])
    with pytest.warns(FewClustersWarning, match="Only 3 clusters"):
        a = wk.agreement(ratings, cluster=[0, 0, 1, 1, 2, 2])
    with pytest.warns(FewClustersWarning, match="Only 3 clusters"):
        b = wk.agreement(ratings, cluster=[0, 1, 0, 1, 2, 2])
    assert a.statistic == b.statistic
    assert a.standard_error != pytest.approx(b.standard_error)


def test_reports_say_cluster_robust() -> None:
    result = wk.agreement(_ratings(4), coefficient="gwet", cluster=np.arange(24) % 8)
    assert "cluster-robust over 8 clusters" in repr(result)
    assert "cluster-robust over 8 clusters" in result.explain()
    assert "t(7)" in result.explain()
    assert result.to_dict()["n_clusters"] == 8
    assert "n_clusters" not in wk.agreement(_ratings(4)).to_dict()


def test_all_missing_items_and_their_ids_are_ignored() -> None:
    ratings = _ratings(5)
    ids = np.arange(24) // 2
    padded = np.vstack([ratings, np.full((2, 4), np.nan)])
    first = wk.agreement(ratings, cluster=ids)
    second = wk.agreement(padded, cluster=np.concatenate([ids, [99, 100]]))
    assert second.standard_error == pytest.approx(first.standard_error, rel=1e-12)
    assert second.n_clusters == first.n_clusters == 12


@pytest.mark.parametrize(
    ("cluster", "message"),
    [
        ([0, 1, 2], "one id per item: 24 items, got 3"),
        ([0.0, math.nan] + [1.0] * 22, "missing id"),
        (["a", None] + ["b"] * 22, "missing id"),
        ([7] * 24, "at least 2 clusters"),
    ],
)
def test_bad_cluster_ids(cluster: list, message: str) -> None:
    with pytest.raises(WkappaError, match=message):
        wk.agreement(_ratings(6), cluster=cluster)


def test_refused_combinations() -> None:
    ratings = _ratings(7)
    with pytest.raises(WkappaError, match="population_size"):
        wk.agreement(ratings, cluster=np.arange(24) % 4, population_size=100)


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_cluster_jackknife_leaves_out_whole_clusters(coefficient: str) -> None:
    # The jackknife SE over clusters from the public API on the data without each cluster.
    ratings = _ratings(12, n=30)
    ids = np.arange(30) % 6
    with pytest.warns(FewClustersWarning, match="Only 6 clusters"):
        result = wk.agreement(ratings, coefficient=coefficient, weights="quadratic", cluster=ids)
    left_out = np.array(
        [
            wk.agreement(ratings[ids != g], coefficient=coefficient, weights="quadratic").statistic
            for g in range(6)
        ]
    )
    se = math.sqrt(5 / 6 * float(np.sum((left_out - left_out.mean()) ** 2)))
    ci = result.confidence_interval(0.9, method="jackknife")
    assert ci.low == pytest.approx(result.statistic - t_ppf(0.95, 5) * se, rel=1e-10)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "krippendorff"])
def test_cluster_bootstrap_resamples_whole_clusters(coefficient: str) -> None:
    # Each replicate is the coefficient of the data made of the drawn clusters (items of a
    # cluster drawn twice appear twice), recomputed here by the public API.
    ratings = _ratings(13, n=20)
    ids = np.arange(20) // 4  # 5 clusters of 4 items, codes 0..4
    with pytest.warns(FewClustersWarning, match="Only 5 clusters"):
        result = wk.agreement(ratings, coefficient=coefficient, cluster=ids)
    draws = np.random.default_rng(5).multinomial(5, np.full(5, 0.2), size=40)
    expected = []
    for draw in draws:
        items = np.concatenate([np.flatnonzero(ids == g).repeat(c) for g, c in enumerate(draw)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected.append(wk.agreement(ratings[items], coefficient=coefficient).statistic)
    values = result._bootstrap(40, np.random.default_rng(5))
    np.testing.assert_allclose(values, expected, rtol=1e-10, atol=1e-12)
    for method in ("percentile", "bca"):
        ci = result.confidence_interval(method=wk.BootstrapMethod(199, method, rng=1))
        assert ci.low <= result.statistic <= ci.high
        assert ci.n_resamples == 199


def test_cluster_resampling_with_one_item_per_cluster_is_the_item_jackknife() -> None:
    ratings = _ratings(14, n=25)
    plain = wk.agreement(ratings, coefficient="gwet")
    one = wk.agreement(ratings, coefficient="gwet", cluster=np.arange(25))
    assert one.confidence_interval(method="jackknife") == pytest.approx(
        plain.confidence_interval(method="jackknife"), rel=1e-12
    )


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_fisher_z_interval(coefficient: str) -> None:
    ratings = _ratings(15, n=40)
    for cluster in (None, np.arange(40) // 2):
        result = wk.agreement(ratings, coefficient=coefficient, cluster=cluster)
        ci = result.confidence_interval(0.9, method="fisher-z")
        c, se, q = result.statistic, result.standard_error, t_ppf(0.95, result.degrees_of_freedom)
        half = q * se / (1 - c * c)
        assert (ci.low, ci.high) == pytest.approx(
            (math.tanh(math.atanh(c) - half), math.tanh(math.atanh(c) + half)), rel=1e-12
        )
        assert ci.method == "fisher-z"
        assert -1 < ci.low < c < ci.high < 1


def test_propagate_with_a_missing_rating() -> None:
    result = wk.agreement(_ratings(8), cluster=np.arange(24) % 4, nan_policy="propagate")
    assert math.isnan(result.statistic)


def test_kappa0_with_clusters() -> None:
    with pytest.warns(FewClustersWarning, match="Only 6 clusters"):
        result = wk.agreement(_ratings(9), cluster=np.arange(24) % 6, kappa0=0.2)
    t = (result.statistic - 0.2) / result.standard_error
    from wkappa._core import t_sf

    assert result.pvalue == pytest.approx(min(1.0, 2 * t_sf(abs(t), 5)), rel=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_alpha_with_clusters(level: str) -> None:
    ratings = _ratings(11, n=30) + 1.0  # categories 1-3 (ratio needs positive values)
    plain = wk.krippendorff_alpha(ratings, level=level)
    one = wk.krippendorff_alpha(ratings, level=level, cluster=np.arange(30))
    assert one.statistic == plain.statistic
    assert one.standard_error == pytest.approx(plain.standard_error, rel=1e-12)
    ids = np.arange(30) // 3
    clustered = wk.krippendorff_alpha(ratings, level=level, cluster=ids)
    assert clustered.statistic == plain.statistic
    assert clustered.n_clusters == 10
    if level == "interval":  # the same alpha as agreement(krippendorff, quadratic)
        same = wk.agreement(ratings, coefficient="krippendorff", weights="quadratic", cluster=ids)
        assert clustered.standard_error == pytest.approx(same.standard_error, rel=1e-10)
    with pytest.raises(WkappaError, match="one id per item"):
        wk.krippendorff_alpha(ratings, level=level, cluster=ids[:-1])


def _panel(seed: int, n: int = 24):
    ratings = _ratings(seed, n=n, raters=4, missing=0.1)
    return ratings[:, :3], ratings[:, 3]


@pytest.mark.parametrize("coefficient", ["conger", "gwet"])
def test_rater_vs_panel_resamples_whole_clusters(coefficient: str) -> None:
    panel, candidate = _panel(16)
    ids = np.repeat(["t1", "t2", "t3", "t4", "t5", "t6"], 4)
    with pytest.warns(FewClustersWarning, match="only 462 distinct resamples of 6 clusters"):
        result = wk.rater_vs_panel(
            panel, candidate, coefficient=coefficient, n_resamples=30, rng=3, cluster=ids
        )
    plain = wk.rater_vs_panel(panel, candidate, coefficient=coefficient, n_resamples=30, rng=3)
    assert result.difference == plain.difference
    assert result.n_clusters == 6 and plain.n_clusters is None
    assert "resampling 6 clusters" in repr(result)
    assert result.to_dict()["n_clusters"] == 6
    # Each replicate is the difference on the data made of the drawn clusters.
    draws = np.random.default_rng(3).multinomial(6, np.full(6, 1 / 6), size=30)
    codes = np.arange(24) // 4
    expected = []
    for draw in draws:
        items = np.concatenate([np.flatnonzero(codes == g).repeat(c) for g, c in enumerate(draw)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected.append(
                wk.rater_vs_panel(
                    panel[items], candidate[items], coefficient=coefficient, n_resamples=2
                ).difference
            )
    np.testing.assert_allclose(result._differences, expected, rtol=1e-10, atol=1e-12)


def test_rater_vs_panel_cluster_interval_is_expanded_with_the_clusters() -> None:
    from wkappa._stats.bootstrap import expanded_level

    panel, candidate = _panel(17, n=40)
    with pytest.warns(FewClustersWarning, match="Only 4 clusters"):
        result = wk.rater_vs_panel(
            panel, candidate, n_resamples=200, rng=4, cluster=np.arange(40) // 10
        )
    assert result.n_clusters == 4
    # The quantiles at the level expanded for G = 4 clusters, not n = 40 items.
    expected = np.quantile(
        result._differences,
        [(1 - x) / 2 for x in (expanded_level(0.9, 4),)] + [(1 + expanded_level(0.9, 4)) / 2],
    )
    assert result.confidence_interval(0.9) == pytest.approx(tuple(expected), rel=1e-12)


@pytest.mark.parametrize(
    ("cluster", "message"),
    [
        ([0, 1, 2], "one id per item: 24 items, got 3"),
        ([0.0, math.nan] + [1.0] * 22, "missing id"),
        ([7] * 24, "at least 2 clusters"),
    ],
)
def test_rater_vs_panel_bad_cluster_ids(cluster: list, message: str) -> None:
    panel, candidate = _panel(18)
    with pytest.raises(WkappaError, match=message):
        wk.rater_vs_panel(panel, candidate, n_resamples=10, cluster=cluster)


@pytest.mark.parametrize("cluster", [None, np.arange(40) // 4])
def test_fisher_z_jackknife_interval_and_recommendation(cluster) -> None:
    ratings = _ratings(19, n=40)
    result = wk.agreement(ratings, coefficient="gwet", weights="quadratic", cluster=cluster)
    jack = result.confidence_interval(0.9, method="jackknife")
    q = t_ppf(0.95, result.degrees_of_freedom)
    se = (result.statistic - jack.low) / q  # the jackknife SE
    c = result.statistic
    ci = result.confidence_interval(0.9, method="fisher-z-jackknife")
    half = q * se / (1 - c * c)
    assert (ci.low, ci.high) == pytest.approx(
        (math.tanh(math.atanh(c) - half), math.tanh(math.atanh(c) + half)), rel=1e-10
    )
    units = "items" if cluster is None else "clusters"
    # Weighted: Fisher's z with the chance-mixture adjusted SE (with the linearised SE on
    # clusters); unweighted: with the jackknife SE.
    method = "fisher-z-adjusted" if cluster is None else "fisher-z"
    assert f"{units} < 200: method={method!r} recommended" in repr(result)
    assert f"confidence_interval(method={method!r}) is recommended" in result.explain()
    for plain in (wk.agreement(ratings, cluster=cluster), wk.krippendorff_alpha(ratings + 1)):
        assert "method='fisher-z-jackknife' recommended" in repr(plain)
    large = wk.agreement(_ratings(20, n=250))
    assert "recommended" not in repr(large) and "recommended" not in large.explain()


def test_fisher_z_at_the_ends() -> None:
    # Perfect agreement: c = 1 and SE 0, the interval [1, 1] as the asymptotic one.
    result = wk.agreement([[1, 1, 1], [2, 2, 2], [3, 3, 3], [1, 1, 1]])
    assert result.statistic == 1.0
    assert tuple(result.confidence_interval(method="fisher-z")) == (1.0, 1.0)
