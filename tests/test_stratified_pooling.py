"""stratified_kappa_test(..., pooling=): the overall kappa as SAS's inverse-variance mean or as
the mean weighted by the strata's pairs, its standard error, interval and test, and the warning
of the inverse-variance pooling with clusters.

The pairs pooling is checked exactly (Fractions), against kappa_test for one stratum (with and
without clusters), for invariance to the order of the strata, and for leaving the test of equal
kappas as it was."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from test_stratified import exact_kappa_variance, eyes_in_sites
from wkappa._core import t_ppf, t_sf
from wkappa.exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError

strata_tables = st.integers(2, 4).flatmap(
    lambda k: st.lists(
        st.lists(st.lists(st.integers(0, 12), min_size=k, max_size=k), min_size=k, max_size=k),
        min_size=1,
        max_size=4,
    )
)
WEIGHTS = st.sampled_from(["quadratic", "linear", "unweighted"])


def _quiet(call):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        return call()


@settings(max_examples=examples(120), deadline=None)
@given(tables=strata_tables, weights=WEIGHTS)
def test_pairs_pooling_is_the_exact_pair_weighted_mean(
    tables: list[list[list[int]]], weights: str
) -> None:
    """statistic = sum(n_h kappa_h) / N and SE^2 = sum(n_h^2 Var_h) / N^2 over the strata
    used, with Fractions."""
    exact = [exact_kappa_variance(table, weights) for table in tables]
    result = _quiet(
        lambda: wk.stratified_kappa_test_from_tables(tables, weights=weights, pooling="pairs")
    )
    assert result.pooling == "pairs" and result.test_df is None
    # a stratum with a standard error of 0 (kappa 1) keeps its weight: n_h is fixed
    assert result.used == tuple(e is not None for e in exact)
    used = [
        (sum(map(sum, table)), e) for table, e in zip(tables, exact, strict=True) if e is not None
    ]
    if not used:
        assert math.isnan(result.statistic) and math.isnan(result.standard_error)
        assert math.isnan(result.pvalue)
        return
    total = sum(n for n, _ in used)
    overall = sum(Fraction(n, total) * kappa for n, (kappa, _) in used)
    variance = sum(Fraction(n, total) ** 2 * v for n, (_, v) in used)
    assert result.statistic == pytest.approx(float(overall), rel=1e-9, abs=1e-12)
    assert result.standard_error**2 == pytest.approx(float(variance), rel=1e-9)
    # SAS's test of equal kappas is the same whatever the pooling
    sas = _quiet(lambda: wk.stratified_kappa_test_from_tables(tables, weights=weights))
    assert result.homogeneity_df == sas.homogeneity_df
    assert result.homogeneity_statistic == sas.homogeneity_statistic or (
        math.isnan(result.homogeneity_statistic) and math.isnan(sas.homogeneity_statistic)
    )


def test_a_hand_computed_example() -> None:
    """Two binary tables: kappas 0.585774 (44 pairs) and 0.6 (48 pairs)."""
    tables = [[[20, 5], [4, 15]], [[30, 2], [6, 10]]]
    result = wk.stratified_kappa_test_from_tables(tables, weights="unweighted", pooling="pairs")
    one, two = (wk.kappa_test_from_table(t, weights="unweighted") for t in tables)
    assert result.statistic == pytest.approx((44 * one.statistic + 48 * two.statistic) / 92)
    assert result.standard_error == pytest.approx(
        math.hypot(44 * one.standard_error, 48 * two.standard_error) / 92
    )
    null = math.hypot(44 * one.standard_error_null, 48 * two.standard_error_null) / 92
    z = result.statistic / null
    assert result.pvalue == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-9)
    low, high = result.confidence_interval()
    assert (low, high) == pytest.approx(
        (result.statistic - 1.959963984540054 * result.standard_error, result.statistic
         + 1.959963984540054 * result.standard_error)
    )  # fmt: skip


ratings = st.integers(2, 4).flatmap(
    lambda k: st.tuples(
        st.just(k),
        st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), min_size=8, max_size=40),
    )
)


@settings(max_examples=examples(80), deadline=None)
@given(data=ratings, weights=WEIGHTS, alternative=st.sampled_from(["two-sided", "greater", "less"]))
def test_one_stratum_is_kappa_test(
    data: tuple[int, list[tuple[int, int]]], weights: str, alternative: str
) -> None:
    """With a single stratum the pairs pooling is kappa_test: value, SE, interval, p-value."""
    k, pairs = data
    a, b = (np.array(x) for x in zip(*pairs, strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        alone = wk.kappa_test(a, b, weights=weights, labels=range(k), alternative=alternative)
        if not (math.isfinite(alone.statistic) and alone.standard_error > 0):
            return
        result = wk.stratified_kappa_test(
            a, b, strata=np.zeros(a.size), weights=weights, labels=range(k),
            alternative=alternative, pooling="pairs",
        )  # fmt: skip
    assert result.statistic == pytest.approx(alone.statistic, rel=1e-12, abs=1e-15)
    assert result.standard_error == pytest.approx(alone.standard_error, rel=1e-12)
    assert result.pvalue == pytest.approx(alone.pvalue, rel=1e-9, abs=1e-300)
    assert tuple(result.confidence_interval(0.9)) == pytest.approx(
        tuple(alone.confidence_interval(0.9)[:2]), rel=1e-12, abs=1e-15
    )


def test_one_clustered_stratum_is_kappa_test_with_cluster() -> None:
    a, b, site, patient = eyes_in_sites()
    own = site == "west"
    alone = wk.kappa_test(a[own], b[own], cluster=patient[own], alternative="greater")
    with pytest.warns(UndefinedKappaWarning, match="needs 2 strata or more"):
        result = wk.stratified_kappa_test(
            a[own], b[own], strata=site[own], cluster=patient[own], alternative="greater",
            pooling="pairs",
        )  # fmt: skip
    assert result.test_df == alone.test_df == 29
    assert result.statistic == pytest.approx(alone.statistic, rel=1e-12)
    assert result.standard_error == pytest.approx(alone.standard_error, rel=1e-12)
    assert result.pvalue == pytest.approx(alone.pvalue, rel=1e-9)
    assert tuple(result.confidence_interval()) == pytest.approx(
        tuple(alone.confidence_interval()[:2]), rel=1e-12
    )


def test_clustered_pairs_pooling_uses_t_on_the_clusters_less_the_strata() -> None:
    a, b, site, patient = eyes_in_sites()
    result = wk.stratified_kappa_test(a, b, strata=site, cluster=patient, pooling="pairs")
    assert result.test_df == 20 + 25 + 30 - 3
    n = np.array([r.n for r in result.results], dtype=float)
    kappa = np.array([r.statistic for r in result.results])
    se = np.array([r.standard_error for r in result.results])
    assert result.statistic == pytest.approx(float(n @ kappa / n.sum()), rel=1e-12)
    assert result.standard_error == pytest.approx(float(np.sqrt(n**2 @ se**2) / n.sum()))
    half = t_ppf(0.975, 72.0) * result.standard_error
    assert tuple(result.confidence_interval()) == pytest.approx(
        (result.statistic - half, result.statistic + half), rel=1e-12
    )
    assert result.pvalue == pytest.approx(
        2 * t_sf(result.statistic / result.standard_error, 72.0), rel=1e-9
    )
    # the test of equal kappas is SAS's, with the cluster-robust variances, whatever pooling
    sas = wk.stratified_kappa_test(a, b, strata=site, cluster=patient, pooling="inverse-variance")
    assert result.homogeneity_statistic == sas.homogeneity_statistic
    assert result.homogeneity_pvalue == sas.homogeneity_pvalue
    assert sas.test_df is None and sas.statistic != result.statistic


def test_sample_weights_weight_the_strata_by_their_weighted_pairs() -> None:
    a, b, site, patient = eyes_in_sites()
    weight = np.where(site == "north", 3.0, 1.0)
    result = wk.stratified_kappa_test(
        a, b, strata=site, cluster=patient, sample_weight=weight, pooling="pairs"
    )
    n = np.array([r.n for r in result.results], dtype=float)
    assert list(n) == [120.0, 50.0, 60.0]
    kappa = np.array([r.statistic for r in result.results])
    assert result.statistic == pytest.approx(float(n @ kappa) / 230.0, rel=1e-12)


@settings(max_examples=examples(60), deadline=None)
@given(
    tables=strata_tables,
    weights=WEIGHTS,
    pooling=st.sampled_from(["pairs", "inverse-variance"]),
    order=st.randoms(use_true_random=False),
)
def test_the_order_of_the_strata_does_not_matter(
    tables: list[list[list[int]]], weights: str, pooling: str, order
) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(range(len(tables)))
    order.shuffle(shuffled)
    first = _quiet(
        lambda: wk.stratified_kappa_test_from_tables(tables, weights=weights, pooling=pooling)
    )
    second = _quiet(
        lambda: wk.stratified_kappa_test_from_tables(
            [tables[i] for i in shuffled], weights=weights, pooling=pooling
        )
    )
    for name in ("statistic", "standard_error", "pvalue"):
        x, y = getattr(first, name), getattr(second, name)
        assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, rel=1e-12, abs=1e-15)


def test_cluster_without_pooling_warns_naming_the_keyword_and_the_fix() -> None:
    a, b, site, patient = eyes_in_sites()
    with pytest.warns(UserWarning, match=r"Hint: pooling='pairs' .* keeps its coverage") as got:
        default = wk.stratified_kappa_test(a, b, strata=site, cluster=patient)
    assert len(got) == 1 and got[0].filename == __file__
    chosen = wk.stratified_kappa_test(
        a, b, strata=site, cluster=patient, pooling="inverse-variance"
    )  # no warning: the choice is explicit (filterwarnings would not catch a UserWarning)
    assert default.pooling == chosen.pooling == "inverse-variance"
    assert default.statistic == chosen.statistic
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wk.stratified_kappa_test(a, b, strata=site, cluster=patient, pooling="inverse-variance")
        wk.stratified_kappa_test(a, b, strata=site, cluster=patient, pooling="pairs")
        wk.stratified_kappa_test(a, b, strata=site)  # no clusters: SAS's, silently


def test_a_bad_pooling_is_refused_naming_the_keyword() -> None:
    tables = [[[20, 5], [4, 15]], [[30, 2], [6, 10]]]
    with pytest.raises(WkappaError, match=r"^`pooling` must be .*'inverse-variance'.*'pairs'"):
        wk.stratified_kappa_test_from_tables(tables, pooling="items")
    with pytest.raises(WkappaTypeError, match=r"^`pooling` must be "):
        wk.stratified_kappa_test([0, 1, 1, 0], [0, 1, 0, 0], strata=[0, 0, 1, 1],
                                 pooling=np.array(["pairs"]))  # fmt: skip


def test_the_result_records_its_pooling() -> None:
    a, b, site, patient = eyes_in_sites()
    result = wk.stratified_kappa_test(a, b, strata=site, cluster=patient, pooling="pairs")
    summary = json.loads(json.dumps(result.to_dict()))
    assert summary["pooling"] == "pairs" and summary["test_df"] == 72
    assert summary["pvalue"] == result.pvalue
    assert "pooling='pairs'" in repr(result)
    text = result.explain()
    assert "pooling='pairs'" in text and "sum(n_h kappa_h) / sum(n_h)" in text
    assert "t with 72 df" in text
    sas = wk.stratified_kappa_test(a, b, strata=site, cluster=patient, pooling="inverse-variance")
    assert sas.to_dict()["pooling"] == "inverse-variance" and sas.to_dict()["test_df"] is None
    assert "pooling=" not in repr(sas)
    assert "pooling='pairs' keeps its coverage" in sas.explain()
    assert "pooling='inverse-variance'" in sas.explain()


@pytest.mark.parametrize("homogeneity", ["asymptotic", "goodness-of-fit", "bootstrap"])
def test_the_test_of_equal_kappas_does_not_depend_on_the_pooling(homogeneity: str) -> None:
    tables = [[[19, 1], [1, 4]], [[22, 3], [3, 12]], [[13, 7], [7, 13]]]
    how = wk.BootstrapMethod(199, rng=5) if homogeneity == "bootstrap" else homogeneity
    one, two = (
        wk.stratified_kappa_test_from_tables(tables, homogeneity=how, pooling=pooling)
        for pooling in ("inverse-variance", "pairs")
    )
    for name in ("homogeneity_statistic", "homogeneity_df", "homogeneity_pvalue"):
        assert getattr(one, name) == getattr(two, name)
    assert one.statistic != two.statistic


def test_ratings_and_tables_agree_on_the_pairs_pooling() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, 300)
    b = np.clip(a + rng.integers(-1, 2, 300), 0, 3)
    site = rng.choice(["north", "south", "west"], 300)
    result = wk.stratified_kappa_test(a, b, strata=site, weights="linear", pooling="pairs")
    tables = [
        wk.confusion_table(a[site == s], b[site == s], labels=range(4)) for s in result.strata
    ]
    same = wk.stratified_kappa_test_from_tables(tables, weights="linear", pooling="pairs")
    for name in ("statistic", "standard_error", "pvalue"):
        assert getattr(result, name) == pytest.approx(getattr(same, name), rel=1e-12)


def test_pairs_pooling_keeps_a_stratum_where_every_pair_agrees() -> None:
    """Kappa 1 with a standard error of 0 has no inverse-variance weight, but its pairs weigh
    in the pairs pooling; SAS's test of equal kappas still leaves it out, with a warning."""
    tables = [[[20, 5], [4, 15]], [[30, 2], [6, 10]], [[6, 0], [0, 4]]]
    with pytest.warns(UndefinedKappaWarning, match=r"\(2\) have a standard error of 0.*keeps"):
        pairs = wk.stratified_kappa_test_from_tables(tables, weights="unweighted", pooling="pairs")
    with pytest.warns(UndefinedKappaWarning, match=r"\(2\) have an undefined kappa or a standard"):
        sas = wk.stratified_kappa_test_from_tables(tables, weights="unweighted")
    assert pairs.used == (True, True, True) and sas.used == (True, True, False)
    two = wk.stratified_kappa_test_from_tables(tables[:2], weights="unweighted", pooling="pairs")
    assert pairs.statistic == pytest.approx((92 * two.statistic + 10 * 1.0) / 102, rel=1e-12)
    assert pairs.standard_error == pytest.approx(two.standard_error * 92 / 102, rel=1e-12)
    for name in ("homogeneity_statistic", "homogeneity_df", "homogeneity_pvalue"):
        assert getattr(pairs, name) == getattr(sas, name) == getattr(two, name)
    assert "Left out" not in pairs.explain() and "Left out" in sas.explain()


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize("pooling", ["pairs", "inverse-variance"])
def test_kappa0_is_the_null_of_each_stratum_and_of_the_overall_kappa(
    clustered: bool, pooling: str
) -> None:
    """`kappa0=0.6, alternative='greater'` (agreement better than "moderate" across sites):
    stratified_kappa_test took no kappa0, so neither its strata's tests nor the overall one
    could test it. Each stratum's test is now kappa_test's of kappa0 on its pairs, and the
    overall test is (kappa - kappa0) / sqrt(sum w_h^2 Var0_h) with those null variances."""
    a, b, site, patient = eyes_in_sites()
    cluster = patient if clustered else None
    result = wk.stratified_kappa_test(
        a, b, strata=site, cluster=cluster, pooling=pooling, kappa0=0.6, alternative="greater"
    )
    assert result.kappa0 == 0.6 and result.to_dict()["kappa0"] == 0.6
    null, kappa, variance, n = [], [], [], []
    for name in result.strata:
        own = site == name
        alone = wk.kappa_test(
            a[own], b[own], labels=[0, 1, 2, 3], kappa0=0.6, alternative="greater",
            cluster=None if cluster is None else cluster[own],
        )  # fmt: skip
        assert result[name].kappa0 == 0.6
        assert result[name].pvalue == pytest.approx(alone.pvalue, rel=1e-12)
        null.append(alone.standard_error_null**2)
        kappa.append(alone.statistic)
        variance.append(alone.standard_error**2)
        n.append(float(alone.n))
    share = np.array(n) if pooling == "pairs" else 1 / np.array(variance)
    share = share / share.sum()
    z = (float(share @ np.array(kappa)) - 0.6) / math.sqrt(float(share**2 @ np.array(null)))
    df = 20 + 25 + 30 - 3 if clustered and pooling == "pairs" else None
    assert result.test_df == df
    expected = t_sf(z, float(df)) if df is not None else 0.5 * math.erfc(z / math.sqrt(2))
    assert result.pvalue == pytest.approx(expected, rel=1e-9)
    assert 0 < result.pvalue < 0.5  # the estimates (0.66-0.69) lie above 0.6
    assert "test of H0 overall kappa = 0.6 (greater" in result.explain()
    assert "kappa0=0.6" in repr(result)
    unchanged = wk.stratified_kappa_test(
        a, b, strata=site, cluster=cluster, pooling=pooling, alternative="greater"
    )
    assert unchanged.kappa0 == 0.0 and unchanged.pvalue < result.pvalue
    if not clustered:
        tables = np.stack([r.table for r in result.results])
        from_tables = wk.stratified_kappa_test_from_tables(
            tables, pooling=pooling, kappa0=0.6, alternative="greater"
        )
        assert from_tables.pvalue == result.pvalue


@pytest.mark.parametrize("kappa0", [1.0, "0.6", math.nan])
def test_a_bad_kappa0_is_refused_naming_the_keyword(kappa0: object) -> None:
    with pytest.raises((WkappaError, WkappaTypeError), match="`kappa0`"):
        wk.stratified_kappa_test([0, 1, 1, 0], [0, 1, 0, 0], strata=[1, 1, 2, 2], kappa0=kappa0)
    with pytest.raises((WkappaError, WkappaTypeError), match="`kappa0`"):
        wk.stratified_kappa_test_from_tables([[[3, 1], [1, 3]]] * 2, kappa0=kappa0)


@pytest.mark.parametrize("clustered", [False, True])
def test_a_pooled_standard_error_of_0_below_1_has_no_interval(clustered: bool) -> None:
    """Rater B grades every eye 2 at every site: each site's kappa is 0 with a standard error
    of 0 and no interval (KappaResult's rule), but the pairs pooling kept them all and gave
    the overall kappa the interval [0, 0]."""
    a, _, site, patient = eyes_in_sites()
    b = np.full_like(a, 2)
    with warnings.catch_warnings():  # (each site's undefined test, and the few sites)
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        result = wk.stratified_kappa_test(
            a, b, strata=site, pooling="pairs", cluster=patient if clustered else None
        )
    assert result.statistic == 0.0 and result.standard_error == 0.0
    with pytest.warns(UndefinedKappaWarning, match="overall kappa's interval is undefined"):
        low, high = result.confidence_interval()
    assert math.isnan(low) and math.isnan(high)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "CI=[nan, nan]" in repr(result)
