"""Donner, Eliasziw & Klar's (1996) goodness-of-fit test of equal kappas:
``stratified_kappa_test(..., homogeneity='goodness-of-fit')``.

Checked against R kaphom's ``donnerhom`` (values in tests/published.py), against an exact
reference with Fractions written from the paper's model (the stratum intraclass kappas
averaged with weights ``n_h p_h q_h``, then Pearson's X^2 of observed against expected
counts), and for its size under equal kappas (slow).
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from published import KAPHOM_DONNERHOM, KAPHOM_HELP_EXAMPLE, KAPHOM_WHERE
from wkappa._stats.homogeneity import goodness_of_fit_homogeneity
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

Stratum = tuple[int, int, int]  # (both 1, discordant, both 0)


def as_tables(strata: list[Stratum]) -> list[list[list[int]]]:
    """2 x 2 tables (rows rater A: 0, 1) with the discordant pairs split between the cells."""
    return [[[a, d - d // 2], [d // 2, b]] for b, d, a in strata]


def gof(strata: list[Stratum]) -> wk.StratifiedKappaResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        return wk.stratified_kappa_test_from_tables(
            as_tables(strata), weights="unweighted", homogeneity="goodness-of-fit"
        )


def exact_gof(strata: list[Stratum]) -> tuple[Fraction | float, int] | None:
    """X^2 and df with Fractions; None where the fit has a negative expected count; X^2 is
    inf where it expects none in a cell that has pairs."""
    fitted = [(b, d, a, Fraction(2 * b + d, 2 * (a + b + d))) for b, d, a in strata]
    fitted = [(b, d, a, p) for b, d, a, p in fitted if 0 < p < 1]
    if len(fitted) < 2:
        return None
    weights = [(a + b + d) * p * (1 - p) for b, d, a, p in fitted]
    kappas = [1 - Fraction(d, 2) / w for (b, d, a, p), w in zip(fitted, weights, strict=True)]
    common = sum(w * k for w, k in zip(weights, kappas, strict=True)) / sum(weights)
    x2 = Fraction(0)
    for b, d, a, p in fitted:
        n, q = a + b + d, 1 - p
        cells = [
            (b, n * (p * p + p * q * common)),
            (d, 2 * n * p * q * (1 - common)),
            (a, n * (q * q + p * q * common)),
        ]
        if any(e < 0 for _, e in cells):
            return None
        for observed, expected in cells:
            if expected == 0:
                if observed:
                    return math.inf, len(fitted) - 1
                continue
            x2 += (observed - expected) ** 2 / expected
    return x2, len(fitted) - 1


@pytest.mark.parametrize(("strata", "x2", "pvalue", "common"), KAPHOM_DONNERHOM)
def test_kaphom_donnerhom(strata: list[Stratum], x2: float, pvalue: float, common: float) -> None:
    result = gof(strata)
    assert result.homogeneity_statistic == pytest.approx(x2, rel=1e-12), KAPHOM_WHERE
    assert result.homogeneity_pvalue == pytest.approx(pvalue, rel=1e-12)
    assert result.homogeneity_df == len(strata) - 1
    assert f"intraclass kappa {common:.6g}" in result.explain()


def test_kaphom_help_example_to_its_rounding() -> None:
    """donnerhom rounds prevalences and kappas to 3 decimals: X^2 0.47986 against our
    unrounded 0.48034 (the exact reference agrees with ours to 1e-12)."""
    strata, x2, pvalue, common = KAPHOM_HELP_EXAMPLE
    result = gof(strata)
    assert result.homogeneity_statistic == pytest.approx(x2, abs=1e-3)
    assert result.homogeneity_pvalue == pytest.approx(pvalue, abs=1e-3)
    fit = goodness_of_fit_homogeneity(np.array(as_tables(strata)))
    assert fit.common_kappa == pytest.approx(common, abs=1e-3)
    exact = exact_gof(strata)
    assert exact is not None
    assert result.homogeneity_statistic == pytest.approx(float(exact[0]), rel=1e-12)


stratum = st.tuples(*[st.integers(0, 30)] * 3).filter(lambda s: sum(s) > 0)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(stratum, min_size=2, max_size=5))
@example([(1, 22, 1), (7, 22, 1)])  # the fit expects no (0, 0) pair in the second stratum
def test_matches_exact_reference(strata: list[Stratum]) -> None:
    result = gof(strata)
    exact = exact_gof(strata)
    if exact is None:
        assert math.isnan(result.homogeneity_statistic)
        assert math.isnan(result.homogeneity_pvalue)
        return
    x2, df = exact
    assert result.homogeneity_df == df
    if x2 == math.inf:  # pairs where the fit expects none: X^2 is 1/0, rounded to 1/eps
        assert result.homogeneity_statistic > 1e12
        assert result.homogeneity_pvalue == 0
        return
    assert result.homogeneity_statistic == pytest.approx(float(x2), rel=1e-9, abs=1e-12)
    stats = pytest.importorskip("scipy.stats")  # at our X^2: 1e-17 from 0 moves p by 1e-8
    assert result.homogeneity_pvalue == pytest.approx(
        stats.chi2.sf(result.homogeneity_statistic, df), rel=1e-9, abs=1e-300
    )


def test_ratings_route_equals_tables_and_overall_kappa_stays_sas() -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2, 240)
    b = np.where(rng.random(240) < 0.6, a, rng.integers(0, 2, 240))
    site = rng.choice(["x", "y", "z"], 240)
    gof_result = wk.stratified_kappa_test(a, b, strata=site, homogeneity="goodness-of-fit")
    sas = wk.stratified_kappa_test(a, b, strata=site)
    tables = [[[int(np.sum((site == s) & (a == i) & (b == j))) for j in (0, 1)] for i in (0, 1)]
              for s in ("x", "y", "z")]  # fmt: skip
    strata = [(t[1][1], t[0][1] + t[1][0], t[0][0]) for t in tables]
    exact = exact_gof(strata)
    assert exact is not None
    assert gof_result.homogeneity_statistic == pytest.approx(float(exact[0]), rel=1e-12)
    assert (gof_result.statistic, gof_result.standard_error) == (sas.statistic, sas.standard_error)
    assert gof_result.homogeneity_statistic != sas.homogeneity_statistic
    assert gof_result.homogeneity == "goodness-of-fit" and sas.homogeneity == "asymptotic"
    assert gof_result.to_dict()["homogeneity"] == "goodness-of-fit"
    assert "Donner, Eliasziw & Klar" in gof_result.explain()
    assert "homogeneity='goodness-of-fit', homogeneity_df=2" in repr(gof_result)
    assert "homogeneity=" not in repr(sas)


def test_every_weighting_of_two_categories_is_the_same_test() -> None:
    tables = as_tables(KAPHOM_DONNERHOM[0][0])
    values = {
        wk.stratified_kappa_test_from_tables(
            tables, weights=w, homogeneity="goodness-of-fit"
        ).homogeneity_statistic
        for w in ("quadratic", "linear", "unweighted", [[0, 2], [2, 0]])
    }
    assert len(values) == 1


def test_one_category_strata_fit_exactly_and_carry_no_df() -> None:
    strata = KAPHOM_DONNERHOM[0][0]
    with_constant = gof([*strata, (0, 0, 12), (7, 0, 0)])
    assert with_constant.homogeneity_df == len(strata) - 1
    assert with_constant.homogeneity_statistic == pytest.approx(KAPHOM_DONNERHOM[0][1], rel=1e-12)
    alone = gof([(3, 2, 5), (0, 0, 9)])
    assert alone.homogeneity_df == 0 and math.isnan(alone.homogeneity_pvalue)


def test_perfect_agreement_everywhere_fits_exactly() -> None:
    result = gof([(5, 0, 3), (2, 0, 9)])
    assert result.homogeneity_statistic == 0.0 and result.homogeneity_pvalue == 1.0


def test_common_kappa_at_a_strata_bound_fits_exactly() -> None:
    """Prevalence 3/8 allows kappas from -3/5, and both strata are at it: the expected count
    of (1, 1) pairs is 0 (up to rounding in floats), observed 0, a perfect fit."""
    result = gof([(0, 3, 1), (0, 3, 1)])
    assert result.homogeneity_statistic == pytest.approx(0.0, abs=1e-12)
    assert result.homogeneity_df == 1


def test_common_kappa_below_a_strata_bound_is_nan() -> None:
    """All 40 pairs of stratum 1 disagree (kappa -1); stratum 2's prevalence 0.1 allows
    kappas from -1/9 only, and the common kappa -0.78 would give it a negative expected
    count: no fit, nan (the exact reference says the same)."""
    strata = [(0, 40, 0), (1, 2, 17)]
    assert exact_gof(strata) is None
    result = gof(strata)
    assert math.isnan(result.homogeneity_statistic) and math.isnan(result.homogeneity_pvalue)
    assert "intraclass kappa -0.779661" in result.explain()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"homogeneity": "fleiss"}, "`homogeneity` must be 'asymptotic'"),
        ({"homogeneity": "goodness-of-fit", "sample_weight": [1, 2, 1, 1, 1, 1]}, "sample_weight"),
        ({"homogeneity": "goodness-of-fit", "weights": [[0, 1], [2, 0]]}, "`weights`"),
        ({"homogeneity": "goodness-of-fit", "weights": [[1, 1], [1, 1]]}, "`weights`"),
        ({"homogeneity": "goodness-of-fit", "labels": [0, 1, 2]}, "K = 3"),
    ],
)
def test_refused_where_it_does_not_apply(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.stratified_kappa_test(
            [0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1], strata=[0, 0, 0, 1, 1, 1], **kwargs
        )  # type: ignore[arg-type]


def test_refused_on_weighted_tables_and_three_categories() -> None:
    for homogeneity in ("goodness-of-fit", "asymptotic"):  # frequencies, whatever the test
        with pytest.raises(WkappaError, match="`tables` must give whole-number counts"):
            wk.stratified_kappa_test_from_tables(
                [[[2.5, 1], [1, 3]], [[2, 1], [1, 3]]], homogeneity=homogeneity
            )
    with pytest.raises(WkappaError, match="homogeneity='asymptotic'"):
        wk.stratified_kappa_test_from_tables(np.ones((2, 3, 3)), homogeneity="goodness-of-fit")


def simulated_size(per_stratum: int, replicates: int, seed: int) -> float:
    """Rejection rate at 5% under one kappa 0.6 in three strata of prevalence 0.15, 0.3, 0.5
    (rater B copies rater A with probability 0.6, else draws from the same prevalence)."""
    rng = np.random.default_rng(seed)
    rejected = defined = 0
    for _ in range(replicates):
        strata = []
        for p in (0.15, 0.3, 0.5):
            a = rng.random(per_stratum) < p
            b = np.where(rng.random(per_stratum) < 0.6, a, rng.random(per_stratum) < p)
            strata.append((int(np.sum(a & b)), int(np.sum(a ^ b)), int(np.sum(~a & ~b))))
        result = gof(strata)
        if math.isfinite(result.homogeneity_pvalue):
            defined += 1
            rejected += result.homogeneity_pvalue < 0.05
    return rejected / defined


@pytest.mark.slow
def test_goodness_of_fit_keeps_its_size() -> None:
    """2,000 replicates at 50 pairs per stratum (Monte Carlo SE 0.5 percentage points);
    benchmarks/cluster_study.py --strata runs the grid reported in the docs."""
    size = simulated_size(50, 2000, 20261126)
    assert 0.035 <= size <= 0.065, size


def test_cli_score_by_adds_the_goodness_of_fit_for_binary_ratings(tmp_path: Path) -> None:
    from test_cli import run

    rng = np.random.default_rng(11)
    a = rng.integers(0, 2, 300)
    b = np.where(rng.random(300) < 0.6, a, rng.integers(0, 2, 300))
    c = np.clip(a + rng.integers(0, 2, 300), 0, 2)  # three categories
    site = rng.choice(["north", "south", "west"], 300)
    path = tmp_path / "sites.csv"
    path.write_text("site,a,b,c\n" + "".join(
        f"{s},{x},{y},{z}\n" for s, x, y, z in zip(site, a, b, c, strict=True)))  # fmt: skip
    fit = wk.stratified_kappa_test(a, b, strata=site, homogeneity="goodness-of-fit")
    text = run("score", path, "--true", "a", "--pred", "b", "--by", "site")
    assert text.returncode == 0, text.stderr
    line = next(x for x in text.stdout.splitlines() if x.startswith("Across site"))
    assert f"; goodness of fit {fit.homogeneity_statistic:.2f}, df 2, p " in line
    document = json.loads(run("score", path, "--true", "a", "--pred", "b", "--by", "site",
                              "--format", "json").stdout)  # fmt: skip
    assert document["across_groups"]["goodness_of_fit"]["statistic"] == pytest.approx(
        fit.homogeneity_statistic, rel=1e-12
    )
    three = run("score", path, "--true", "a", "--pred", "c", "--by", "site")
    line = next(x for x in three.stdout.splitlines() if x.startswith("Across site"))
    assert "equal kappas: chi-square" in line and "goodness of fit" not in line
    document = json.loads(run("score", path, "--true", "a", "--pred", "c", "--by", "site",
                              "--format", "json").stdout)  # fmt: skip
    assert "goodness_of_fit" not in document["across_groups"]
