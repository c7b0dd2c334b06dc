"""The Fisher-z bootstrap test of equal kappas: ``stratified_kappa_test(...,
homogeneity='bootstrap')``.

The statistic is checked against a hand computation (each stratum's kappa and
Fleiss-Cohen-Everitt variance in exact Fractions, then atanh), the p-value against the same
replicates recomputed one by one in plain Python, and the size under equal kappas by
simulation (slow).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import wkappa as wk
from reference import reference_kappa_from_table, reference_variances
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

TABLES = [
    [[20, 5, 1], [4, 15, 6], [0, 3, 16]],
    [[30, 2, 1], [6, 10, 3], [1, 2, 12]],
    [[10, 4, 0], [3, 9, 2], [0, 2, 8]],
]


def kappa_and_variance(table: list[list[int]]) -> tuple[float, float]:
    """Kappa and its FCE (SAS ASE^2) variance, quadratic weights, from exact Fractions."""
    return (
        float(reference_kappa_from_table(table, "quadratic")),
        float(reference_variances(table, "quadratic")[0]),
    )


def q_z(pairs: list[tuple[float, float]], centres: list[float]) -> float:
    """sum (z_h - zbar)^2 / V_h with z_h = atanh(kappa_h) - centre_h, V_h = var / (1 - k^2)^2."""
    z = [math.atanh(kappa) - c for (kappa, _), c in zip(pairs, centres, strict=True)]
    inverse = [(1 - kappa**2) ** 2 / var for kappa, var in pairs]
    mean = sum(i * x for i, x in zip(inverse, z, strict=True)) / sum(inverse)
    return sum(i * (x - mean) ** 2 for i, x in zip(inverse, z, strict=True))


def test_statistic_and_pvalue_match_a_hand_computation() -> None:
    observed = [kappa_and_variance(t) for t in TABLES]
    statistic = q_z(observed, [0.0] * 3)
    result = wk.stratified_kappa_test_from_tables(TABLES, homogeneity=wk.BootstrapMethod(60, rng=7))
    assert result.homogeneity == "bootstrap"
    assert result.homogeneity_statistic == pytest.approx(statistic, rel=1e-12)
    assert result.homogeneity_df == 2
    # The same replicates, drawn stratum by stratum as B multinomial tables, one at a time.
    rng = np.random.default_rng(7)
    draws = []
    for table in TABLES:
        flat = np.array(table, dtype=float).ravel()
        draws.append(rng.multinomial(int(flat.sum()), flat / flat.sum(), size=60))
    centres = [math.atanh(kappa) for kappa, _ in observed]
    exceed = defined = 0
    for b in range(60):
        tables = [draws[h][b].reshape(3, 3).tolist() for h in range(3)]
        pairs = [kappa_and_variance(t) for t in tables]
        if all(abs(kappa) < 1 and var > 0 for kappa, var in pairs):
            defined += 1
            exceed += q_z(pairs, centres) >= statistic
    assert result.homogeneity_n_resamples == defined
    assert result.homogeneity_pvalue == (1 + exceed) / (1 + defined)
    # The overall kappa stays SAS's.
    assert result.statistic == wk.stratified_kappa_test_from_tables(TABLES).statistic


def test_seeded_bootstrap_repeats_and_the_string_uses_9999_replicates() -> None:
    how = wk.BootstrapMethod(99, rng=3)
    first = wk.stratified_kappa_test_from_tables(TABLES, homogeneity=how)
    again = wk.stratified_kappa_test_from_tables(TABLES, homogeneity=how)
    assert first.homogeneity_pvalue == again.homogeneity_pvalue
    default = wk.stratified_kappa_test_from_tables(TABLES, homogeneity="bootstrap")
    # 9999 drawn; homogeneity_n_resamples counts those with every stratum's kappa defined,
    # and an unseeded draw loses one now and then (about one run in thirty).
    assert 9990 <= default.homogeneity_n_resamples <= 9999
    seeded = wk.stratified_kappa_test_from_tables(TABLES, homogeneity=wk.BootstrapMethod(rng=0))
    assert seeded.homogeneity_n_resamples == 9999
    assert 0 < default.homogeneity_pvalue <= 1


def test_result_reports_the_test() -> None:
    result = wk.stratified_kappa_test_from_tables(
        TABLES, weights="linear", homogeneity=wk.BootstrapMethod(99, rng=0)
    )
    assert "homogeneity='bootstrap'" in repr(result)
    assert result.to_dict()["homogeneity"] == "bootstrap"
    assert result.to_dict()["homogeneity_n_resamples"] == 99
    assert "Fisher z, bootstrap" in result.explain()
    assert "99 table-bootstrap replicates" in result.explain()
    sas = wk.stratified_kappa_test_from_tables(TABLES)
    assert sas.homogeneity_n_resamples == 0
    assert "homogeneity='bootstrap' keeps its size" in sas.explain()
    binary = wk.stratified_kappa_test_from_tables([[[5, 2], [1, 6]], [[4, 1], [2, 7]]])
    assert "homogeneity='goodness-of-fit' keeps its size" in binary.explain()


def test_ratings_route_and_sample_weight() -> None:
    y_true = [0, 1, 2, 2, 1, 0, 2, 1, 0, 1, 2, 2, 0, 1, 2, 0]
    y_pred = [0, 1, 2, 1, 1, 0, 2, 2, 0, 1, 2, 1, 0, 2, 2, 0]
    site = ["a"] * 8 + ["b"] * 8
    result = wk.stratified_kappa_test(
        y_true, y_pred, strata=site, homogeneity=wk.BootstrapMethod(50, rng=1)
    )
    tables = [np.zeros((3, 3), dtype=int) for _ in range(2)]
    for t, p, s in zip(y_true, y_pred, site, strict=True):
        tables[s == "b"][t, p] += 1
    pairs = [kappa_and_variance(t.tolist()) for t in tables]
    assert result.homogeneity_statistic == pytest.approx(q_z(pairs, [0.0, 0.0]), rel=1e-12)
    weighted = wk.stratified_kappa_test(
        y_true,
        y_pred,
        strata=site,
        sample_weight=[2.0] * 16,
        homogeneity=wk.BootstrapMethod(50, rng=1),
    )
    # Frequency weights: twice the pairs, variances / 2, the chi-square times 2.
    assert weighted.homogeneity_statistic == pytest.approx(2 * result.homogeneity_statistic)
    assert 0 < weighted.homogeneity_n_resamples <= 50  # small strata: some undefined


def test_perfect_stratum_is_left_out_and_a_kappa_of_minus_one_gives_nan() -> None:
    perfect = [[10, 0, 0], [0, 10, 0], [0, 0, 10]]
    with pytest.warns(UndefinedKappaWarning):
        result = wk.stratified_kappa_test_from_tables(
            [*TABLES, perfect], homogeneity=wk.BootstrapMethod(50, rng=2)
        )
    assert result.used == (True, True, True, False)
    assert result.homogeneity_df == 2
    full = wk.stratified_kappa_test_from_tables(TABLES, homogeneity=wk.BootstrapMethod(50, rng=2))
    assert result.homogeneity_statistic == pytest.approx(full.homogeneity_statistic)
    opposite = [[0, 5], [5, 0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        minus = wk.stratified_kappa_test_from_tables(
            [[[5, 2], [1, 6]], opposite], homogeneity="bootstrap"
        )
    assert minus.results[1].statistic == -1.0
    assert math.isnan(minus.homogeneity_statistic) and math.isnan(minus.homogeneity_pvalue)


def test_bca_is_refused() -> None:
    with pytest.raises(WkappaError, match="'percentile'"):
        wk.stratified_kappa_test_from_tables(
            TABLES, homogeneity=wk.BootstrapMethod(99, method="bca")
        )
    with pytest.raises(WkappaError, match="'bootstrap'"):
        wk.stratified_kappa_test_from_tables(TABLES, homogeneity="jackknife")  # type: ignore[arg-type]


@pytest.mark.slow
def test_bootstrap_keeps_its_size_with_four_categories() -> None:
    """Three strata of 50 pairs, K = 4, kappa 0.6 (rater B copies A with probability 0.6,
    else draws from the stratum's skewed prevalence), 1,000 replicates of 199 resamples
    (Monte Carlo SE 0.7 points); SAS's test rejects 8-9% here. The docs' grid comes from
    benchmarks/cluster_study.py --strata."""
    rng = np.random.default_rng(20261127)
    base = np.array([0.1, 0.2, 0.3, 0.4])
    rejected = defined = 0
    for _ in range(1000):
        tables = []
        for shift in range(3):
            prev = np.roll(base, shift)
            truth = rng.choice(4, 50, p=prev)
            pred = np.where(rng.random(50) < 0.6, truth, rng.choice(4, 50, p=prev))
            tables.append(np.bincount(truth * 4 + pred, minlength=16).reshape(4, 4))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            result = wk.stratified_kappa_test_from_tables(
                np.array(tables), homogeneity=wk.BootstrapMethod(199, rng=rng)
            )
        if math.isfinite(result.homogeneity_pvalue):
            defined += 1
            rejected += result.homogeneity_pvalue < 0.05
    assert 0.03 <= rejected / defined <= 0.07, rejected / defined
