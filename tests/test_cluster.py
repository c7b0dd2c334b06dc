"""The cluster-robust (sandwich) variance of kappa and the cluster bootstrap
(wkappa._stats.cluster), checked against an exact Fraction reference."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from reference import reference_influence, reference_weights
from wkappa._core import weight_matrix
from wkappa._stats.cluster import (
    MIN_CLUSTERS,
    cluster_bootstrap_kappas,
    cluster_jackknife,
    cluster_variance,
    read_groups,
)
from wkappa.exceptions import FewClustersWarning, WkappaError


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
    found = reference_influence(p, w)
    if found is None:
        return None
    kappa, influence = found
    totals: dict[int, Fraction] = {}
    for g, i, j in items:
        totals[g] = totals.get(g, Fraction(0)) + influence[i][j]
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
    jack, counts = cluster_jackknife(tables, matrix)
    assert jack.shape == counts.shape == (40,) and (counts == 1).all()
    for g in (0, 17):  # leave-one-cluster-out by hand
        left = tables.sum(axis=0) - tables[g]
        assert jack[g] == pytest.approx(wk.kappa_from_table(left), rel=1e-12)
    # The pairs of the tables, each with its cluster: the public bootstrap over clusters.
    g, i, j = np.nonzero(tables)
    repeat = tables[g, i, j]
    clustered = wk.kappa_test(
        np.repeat(i, repeat), np.repeat(j, repeat), cluster=np.repeat(g, repeat)
    )
    assert clustered.statistic == pytest.approx(kappa, rel=1e-12)
    for method in ("percentile", "bca"):
        low, high = clustered.confidence_interval(
            method=wk.BootstrapMethod(999, method=method, rng=2)
        )
        assert low < kappa < high


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


# --------------------------------------------------------------------------- kappa_test(cluster=)


def eyes(seed: int = 0, patients: int = 60) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    patient = np.repeat(np.arange(patients), 2)
    grade = np.repeat(rng.integers(0, 5, patients), 2)
    a = np.clip(grade + rng.integers(-1, 2, 2 * patients), 0, 4)
    b = np.clip(grade + rng.integers(-1, 2, 2 * patients), 0, 4)
    return a, b, patient


@settings(max_examples=examples(100), deadline=None)
@given(data=clustered, weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_kappa_test_cluster_matches_exact_sandwich(
    data: tuple[int, list[tuple[int, int, int]]], weights: str
) -> None:
    k, items = data
    items = [*items, (99, 0, k - 1), (98, k - 1, 0)]  # at least 2 clusters, kappa defined
    exact = exact_cluster_variance(items, k, weights)
    assert exact is not None
    ids = [g for g, _, _ in items]
    a = [i for _, i, _ in items]
    b = [j for _, _, j in items]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FewClustersWarning)
        result = wk.kappa_test(a, b, weights=weights, cluster=ids, labels=range(k))
    few = [w for w in caught if issubclass(w.category, FewClustersWarning)]
    assert len(few) == (len(set(ids)) < MIN_CLUSTERS)  # the rule, whatever the draw
    assert result.statistic == wk.kappa_test(a, b, weights=weights, labels=range(k)).statistic
    assert result.standard_error**2 == pytest.approx(float(exact[1]), rel=1e-9, abs=1e-15)
    assert result.n_clusters == len(set(ids))
    assert result.cluster_tables is not None and result.cluster_tables.sum() == len(items)


def test_one_pair_per_cluster_kappa_test() -> None:
    a, b, _ = eyes()
    ordinary = wk.kappa_test(a, b)
    clustered = wk.kappa_test(a, b, cluster=np.arange(a.size))
    assert clustered.statistic == ordinary.statistic
    factor = math.sqrt(a.size / (a.size - 1))
    assert clustered.standard_error == pytest.approx(ordinary.standard_error * factor, rel=1e-12)


def test_cluster_result_interval_test_and_text() -> None:
    a, b, patient = eyes()
    result = wk.kappa_test(a, b, cluster=patient)
    stats = pytest.importorskip("scipy.stats")
    low, high = result.confidence_interval(0.9)
    half = stats.t.ppf(0.95, 59) * result.standard_error
    assert (low, high) == pytest.approx((result.statistic - half, result.statistic + half))
    assert result.test_statistic == pytest.approx(result.statistic / result.standard_error)
    assert result.pvalue == pytest.approx(2 * stats.t.sf(result.test_statistic, 59), rel=1e-8)
    greater = wk.kappa_test(a, b, cluster=patient, kappa0=0.5, alternative="greater")
    z = (greater.statistic - 0.5) / greater.standard_error
    assert greater.pvalue == pytest.approx(stats.t.sf(z, 59), rel=1e-8)
    assert "cluster-robust over 60 clusters" in repr(result)
    assert "cluster-robust over 60 clusters" in result.explain()
    assert result.to_dict()["n_clusters"] == 60
    assert "n_clusters" not in wk.kappa_test(a, b).to_dict()
    with pytest.raises(WkappaError, match="cannot be used with clustered ratings"):
        result.confidence_interval(method="score")
    with pytest.raises(WkappaError, match="cannot be used with clustered ratings"):
        result.confidence_interval(method="fisher-z")
    one = result.confidence_interval(method=wk.BootstrapMethod(499, rng=3))
    two = result.confidence_interval(method=wk.BootstrapMethod(499, rng=3))
    assert one == two and one.low < result.statistic < one.high
    # The cluster bootstrap is wider than the pair bootstrap on these correlated eyes.
    pairs = wk.kappa_test(a, b).confidence_interval(method=wk.BootstrapMethod(499, rng=3))
    assert one.high - one.low > pairs.high - pairs.low


def test_few_clusters_explain_points_to_the_bootstrap() -> None:
    a, b, patient = eyes(patients=10)
    assert "Few clusters (G = 10" in wk.kappa_test(a, b, cluster=patient).explain()


def test_cluster_ids_of_any_kind_and_omit() -> None:
    a, b, patient = eyes()
    base = wk.kappa_test(a, b, cluster=patient)
    names = np.array([f"patient-{p}" for p in patient], dtype=object)
    assert wk.kappa_test(a, b, cluster=names).standard_error == pytest.approx(
        base.standard_error, rel=1e-12
    )
    pd = pytest.importorskip("pandas")
    assert wk.kappa_test(a, b, cluster=pd.Series(patient)).standard_error == pytest.approx(
        base.standard_error, rel=1e-12
    )
    a_missing = a.astype(float)
    a_missing[[0, 1]] = np.nan  # both eyes of patient 0
    omitted = wk.kappa_test(a_missing, b, cluster=patient, nan_policy="omit")
    direct = wk.kappa_test(a[2:], b[2:], cluster=patient[2:])
    assert omitted.n_clusters == 59 and omitted.n == 118
    assert omitted.standard_error == pytest.approx(direct.standard_error, rel=1e-12)


def test_integer_sample_weights_repeat_pairs_within_their_cluster() -> None:
    a, b, patient = eyes(seed=4)
    weight = np.random.default_rng(1).integers(1, 4, a.size)
    weighted = wk.kappa_test(a, b, cluster=patient, sample_weight=weight)
    repeated = wk.kappa_test(
        np.repeat(a, weight), np.repeat(b, weight), cluster=np.repeat(patient, weight)
    )
    assert weighted.statistic == pytest.approx(repeated.statistic, rel=1e-12)
    assert weighted.standard_error == pytest.approx(repeated.standard_error, rel=1e-10)


@pytest.mark.parametrize(
    ("cluster", "match"),
    [
        ([0, 1, 2], "one id per rating pair"),
        ([0, 0, np.nan, 1, 1, 2], "missing id"),
        (["a", None, "b", "b", "c", "c"], "missing id"),
        ([7] * 6, "at least 2 clusters"),
        ("patient", "1-D array-like of ids; got str"),  # was "of ratings"
        (np.array(1), "`cluster`"),
        (np.zeros((6, 2)), "`cluster`"),
        ([{}] * 6, "`cluster`"),
        ([[0], [0], [1], [1], [2], [2]], "`cluster`"),
    ],
)
def test_bad_cluster_ids(cluster: object, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.kappa_test([0, 1, 2, 2, 1, 0], [0, 1, 1, 2, 1, 0], cluster=cluster)  # type: ignore[arg-type]


def test_cluster_with_propagate_is_refused() -> None:
    with pytest.raises(WkappaError, match="nan_policy"):
        wk.kappa_test([0, 1, 2], [0, 1, 1], cluster=[0, 1, 2], nan_policy="propagate")


# --------------------------------------------------------------------------- paired_kappa_test


def test_paired_kappa_test_with_clusters() -> None:
    a, b, patient = eyes(seed=8)
    c = np.clip(a + np.random.default_rng(2).integers(-2, 3, a.size), 0, 4)
    plain = wk.paired_kappa_test(a, b, c, n_resamples=2000, rng=1)
    clustered = wk.paired_kappa_test(a, b, c, n_resamples=2000, rng=1, cluster=patient)
    assert (clustered.statistic_a, clustered.statistic_b) == (plain.statistic_a, plain.statistic_b)
    assert clustered.n_clusters == 60 and plain.n_clusters is None
    again = wk.paired_kappa_test(a, b, c, n_resamples=2000, rng=1, cluster=patient)
    assert again.to_dict() == clustered.to_dict() and clustered.to_dict()["n_clusters"] == 60
    assert "cluster bootstrap over 60 clusters" in repr(clustered)
    low, high = clustered.confidence_interval()
    assert low < clustered.difference < high
    # One item per cluster: the same bootstrap distribution as resampling items.
    single = wk.paired_kappa_test(a, b, c, n_resamples=4000, rng=5, cluster=np.arange(a.size))
    items = wk.paired_kappa_test(a, b, c, n_resamples=4000, rng=6)
    assert single.confidence_interval().low == pytest.approx(
        items.confidence_interval().low, abs=0.02
    )
    assert single.confidence_interval().high == pytest.approx(
        items.confidence_interval().high, abs=0.02
    )
    with pytest.raises(WkappaError, match="at least 2 clusters"):
        wk.paired_kappa_test(a, b, c, cluster=np.zeros(a.size))
    with pytest.raises(WkappaError, match="missing id"):
        wk.paired_kappa_test(a, b, c, cluster=np.r_[np.nan, patient[1:]])
    with pytest.raises(WkappaError, match="one id per rating pair"):
        wk.paired_kappa_test(a, b, c, cluster=patient[1:])


# --------------------------------------------------------------------------- frames


def test_kappa_by_group_with_clusters_matches_kappa_test() -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("narwhals")
    from wkappa import frames

    a, b, patient = eyes(seed=9, patients=120)
    df = pd.DataFrame({"site": np.repeat(["north", "south"], 120), "patient": patient})
    df["r1"], df["r2"] = a, b
    result = frames.kappa_by_group(df, y_true="r1", y_pred="r2", by="site", cluster="patient")
    assert list(result.columns) == [
        "site", "n", "kappa", "standard_error", "ci_low", "ci_high", "test_statistic",
        "pvalue", "n_clusters",
    ]  # fmt: skip
    for row in result.itertuples():
        part = df[df.site == row.site]
        direct = wk.kappa_test(part.r1, part.r2, cluster=part.patient, labels=range(5))
        low, high = direct.confidence_interval()
        assert row.kappa == pytest.approx(direct.statistic, rel=1e-12)
        assert row.standard_error == pytest.approx(direct.standard_error, rel=1e-10)
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high), rel=1e-10)
        assert row.test_statistic == pytest.approx(direct.test_statistic, rel=1e-10)
        assert row.pvalue == pytest.approx(direct.pvalue, rel=1e-8)
        assert row.n_clusters == 60 and row.n == 120
    for alternative in ("greater", "less"):
        sided = frames.kappa_by_group(
            df, y_true="r1", y_pred="r2", by="site", cluster="patient",
            alternative=alternative, kappa0=0.5, confidence_level=0.9,
        )  # fmt: skip
        for row in sided.itertuples():
            part = df[df.site == row.site]
            direct = wk.kappa_test(
                part.r1, part.r2, cluster=part.patient, alternative=alternative, kappa0=0.5
            )
            ci = direct.confidence_interval(0.9)
            assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-10)
            assert row.test_statistic == pytest.approx(direct.test_statistic, rel=1e-10)
            assert row.pvalue == pytest.approx(direct.pvalue, rel=1e-8)
    with pytest.raises(WkappaError, match="method"):
        frames.kappa_by_group(
            df, y_true="r1", y_pred="r2", by="site", cluster="patient", method="score"
        )
    with pytest.raises(WkappaError, match="`by` and `cluster` name the same column"):
        frames.kappa_by_group(df, y_true="r1", y_pred="r2", by="site", cluster="site")
    missing = df.astype({"patient": "float64"})
    missing.loc[3, "patient"] = np.nan
    with pytest.raises(WkappaError, match="`cluster` column 'patient' has a missing id"):
        frames.kappa_by_group(missing, y_true="r1", y_pred="r2", by="site", cluster="patient")


def vanbelle_delta_variance(tables: np.ndarray, weights: np.ndarray) -> float:
    """The multilevel delta-method variance of Vanbelle (2017, Biometrical Journal 59(5),
    section 3; R package multiagree, ``delta.pair(..., multilevel=TRUE)``) in its matrix form:
    cluster-level observed agreement and margins with cluster weights xi_g = n_g / n,
    ``Omega = (I - xi 1') diag(xi²) (I - 1 xi')``, ``V = G² / (G - 1) Y' Omega Y`` and the
    delta method through (Po, Pe) to kappa, ``Var = s J V J' s' / G``."""
    agreement = 1.0 - weights
    sizes = tables.sum(axis=(1, 2)).astype(np.float64)
    g = tables.shape[0]
    xi = sizes / sizes.sum()
    p = tables / sizes[:, None, None]
    po = np.einsum("gij,ij->g", p, agreement)
    rows, cols = p.sum(axis=2), p.sum(axis=1)
    y = np.column_stack([po, rows, cols])  # (G, 1 + 2K)
    centre = np.eye(g) - np.outer(xi, np.ones(g))
    omega = centre @ np.diag(xi**2) @ centre.T
    v = g**2 / (g - 1) * y.T @ omega @ y
    m_row, m_col = xi @ rows, xi @ cols
    k = weights.shape[0]
    jac = np.zeros((2, 1 + 2 * k))
    jac[0, 0] = 1.0
    jac[1, 1 : 1 + k] = agreement @ m_col
    jac[1, 1 + k :] = m_row @ agreement
    pe = float(m_row @ agreement @ m_col)
    p0 = float(xi @ po)
    s = np.array([1.0 / (1.0 - pe), (p0 - 1.0) / (1.0 - pe) ** 2])
    return float(s @ jac @ v @ jac.T @ s) / g


@pytest.mark.parametrize("weights", ["unweighted", "linear", "quadratic"])
def test_sandwich_equals_vanbelle_multilevel_delta_method(weights: str) -> None:
    """The same variance as Vanbelle's multilevel delta method (multiagree), computed from
    cluster proportions and margins instead of the influence of each cell."""
    rng = np.random.default_rng(13)
    tables = rng.integers(0, 4, (25, 4, 4)) + 2 * np.eye(4, dtype=np.int64)
    matrix = weight_matrix(weights, 4)
    _, variance, _ = cluster_variance(tables, matrix)
    assert variance == pytest.approx(vanbelle_delta_variance(tables, matrix), rel=1e-10)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "weights"),
    [
        ([np.nan, 1, np.nan], [1, np.nan, 2], "quadratic"),
        (["a", None, "b"], [None, "b", None], "unweighted"),
    ],
)
def test_every_pair_omitted_is_undefined_not_an_error(y_true, y_pred, weights) -> None:
    # nan_policy='omit' dropping every pair: nan with the warning, as without clusters.
    with pytest.warns(wk.UndefinedKappaWarning):
        result = wk.kappa_test(
            y_true, y_pred, weights=weights, cluster=[1, 2, 3], nan_policy="omit"
        )
    assert math.isnan(result.statistic) and result.n == 0


def test_perfect_agreement_in_clusters_rejects_as_agreement_does() -> None:
    """Every pair agrees: the cluster-robust SE is 0 and kappa 1. test_statistic and pvalue were
    nan (no warning) where `agreement(..., cluster=)` on the same ratings gives p = 0."""
    y = np.array([1, 2, 3, 1, 2, 3, 1, 2])
    ids = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    with pytest.warns(FewClustersWarning, match="Only 4 clusters"):
        result = wk.kappa_test(y, y, cluster=ids)
    with pytest.warns(FewClustersWarning, match="Only 4 clusters"):
        same = wk.agreement(np.column_stack([y, y]), coefficient="conger", cluster=ids)
    assert result.standard_error == same.standard_error == 0.0
    assert result.test_statistic == math.inf
    assert result.pvalue == same.pvalue == 0.0


def test_unequal_clusters_match_a_numerical_sandwich_and_a_cluster_bootstrap() -> None:
    """1 to 6 lesions per patient: the cluster-robust standard error is the sandwich of the
    clusters' influences taken by numerical differentiation of kappa (no formula of wkappa),
    and a cluster bootstrap written here agrees with it within its Monte Carlo error."""
    rng = np.random.default_rng(5)
    sizes = rng.integers(1, 7, 50)
    cluster = np.repeat(np.arange(50), sizes)
    n = cluster.size
    severity = np.repeat(rng.integers(0, 4, 50), sizes)
    a = np.clip(severity + rng.integers(-1, 2, n), 0, 3)
    b = np.clip(severity + rng.integers(-1, 2, n), 0, 3)
    result = wk.kappa_test(a, b, cluster=cluster)

    grid = np.subtract.outer(np.arange(4), np.arange(4)) ** 2 / 9.0

    def kappa(weight: np.ndarray, x: np.ndarray = a, y: np.ndarray = b) -> float:
        table = np.zeros((4, 4))
        np.add.at(table, (x, y), weight)
        table /= table.sum()
        chance = np.outer(table.sum(1), table.sum(0))
        return float(1.0 - (grid * table).sum() / (grid * chance).sum())

    base, step = kappa(np.ones(n)), 1e-6
    influence = np.empty(50)
    for g in range(50):
        weight = np.ones(n)
        weight[cluster == g] += step
        influence[g] = (kappa(weight) - base) / step * n
    sandwich = float(np.sqrt(50 / 49 * (influence**2).sum() / n**2))
    assert result.statistic == pytest.approx(base, rel=1e-12)
    assert result.standard_error == pytest.approx(sandwich, rel=1e-5)

    members = [np.flatnonzero(cluster == g) for g in range(50)]
    draws = []
    for _ in range(2000):
        rows = np.concatenate([members[g] for g in rng.integers(0, 50, 50)])
        draws.append(kappa(np.ones(rows.size), a[rows], b[rows]))
    assert float(np.std(draws, ddof=1)) == pytest.approx(result.standard_error, rel=0.1)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_a_constant_rater_has_a_cluster_robust_standard_error_of_exactly_0(weights: str) -> None:
    """Rater B gives every eye grade 2: every pair's influence is 0, so is every patient's
    total and the exact sandwich. The float sums rounded to 7e-17, so the clustered result
    printed t = 0 and p = 1 (and fed 1 / 5e-33 weights to the strata's test) where the
    unclustered one, and the warning it gave, say that the test is undefined."""
    a = [2, 2, 2, 1, 4, 1, 3, 1]
    ids = [0, 0, 1, 1, 2, 2, 3, 3]
    exact = exact_cluster_variance([(g, i, 2) for g, i in zip(ids, a, strict=True)], 5, weights)
    assert exact is not None and exact == (0, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewClustersWarning)
        with pytest.warns(wk.UndefinedKappaWarning, match="test of kappa = 0 is undefined"):
            result = wk.kappa_test(a, [2] * 8, weights=weights, cluster=ids)
    assert result.statistic == 0.0 and result.standard_error == 0.0
    assert math.isnan(result.test_statistic) and math.isnan(result.pvalue)


def test_a_constant_rater_has_a_cluster_standard_error_of_exactly_0_per_group() -> None:
    """``frames.kappa_by_group`` takes the groups' cluster variances from the same place as
    ``kappa_test``: a group whose rater B is constant has a standard error of exactly 0, not
    the 7e-17 the clusters' sums round to."""
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    df = pd.DataFrame(
        {
            "g": [1] * 8 + [2] * 8,
            "p": [0, 0, 1, 1, 2, 2, 3, 3] * 2,
            "a": [2, 2, 2, 1, 4, 1, 3, 1] * 2,
            "b": [2] * 8 + [2, 2, 2, 1, 4, 1, 1, 3],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewClustersWarning)
        warnings.simplefilter("ignore", wk.UndefinedKappaWarning)
        table = frames.kappa_by_group(df, y_true="a", y_pred="b", by="g", cluster="p")
    constant, varied = table.to_dict("records")
    assert constant["kappa"] == 0.0 and constant["standard_error"] == 0.0
    assert varied["standard_error"] > 0.01
