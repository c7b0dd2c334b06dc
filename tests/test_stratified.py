"""stratified_kappa_test: SAS PROC FREQ's overall kappa across strata and test of equal kappas.

The overall kappa is checked exactly (Fractions) as the inverse-variance combination of the
strata's kappas, the per-stratum numbers against SAS's printed example, and the size of the
test of equal kappas by simulation (slow)."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from published import SAS_DRUGS_KAPPAS, SAS_DRUGS_STRATA, SAS_DRUGS_WHERE
from reference import reference_influence, reference_weights
from wkappa._stats.pvalues import chi2_sf
from wkappa.exceptions import UndefinedKappaWarning, WkappaError


def exact_kappa_variance(table: list[list[int]], weights: str) -> tuple[Fraction, Fraction] | None:
    """Kappa and its Fleiss-Cohen-Everitt variance with Fractions (None if undefined)."""
    k = len(table)
    w = reference_weights(weights, k)
    n = sum(map(sum, table))
    if n == 0:
        return None
    p = [[Fraction(table[i][j], n) for j in range(k)] for i in range(k)]
    found = reference_influence(p, w)
    if found is None:
        return None
    kappa, influence = found
    spread = sum(p[i][j] * influence[i][j] ** 2 for i in range(k) for j in range(k))
    return kappa, spread / n


def test_sas_drugs_example_per_stratum() -> None:
    """SAS's printed kappa, ASE and limits of each stratum (source in tests/published.py)."""
    result = wk.stratified_kappa_test_from_tables(
        list(SAS_DRUGS_STRATA.values()), weights="unweighted", strata=list(SAS_DRUGS_STRATA)
    )
    assert result.strata == ("Favorable", "Unfavorable"), SAS_DRUGS_WHERE
    for name, (kappa, ase, low, high) in SAS_DRUGS_KAPPAS.items():
        stratum = result[name]
        ci = stratum.confidence_interval()
        assert stratum.statistic == pytest.approx(kappa, abs=5e-5)
        assert stratum.standard_error == pytest.approx(ase, abs=5e-5)
        assert (ci.low, ci.high) == pytest.approx((low, high), abs=5e-5)


def test_sas_drugs_example_overall_from_printed_strata() -> None:
    """The overall kappa, its ASE and Q from SAS's documented formulas applied to the printed
    (rounded) per-stratum values agree with ours to the rounding of those values."""
    kappa = np.array([v[0] for v in SAS_DRUGS_KAPPAS.values()])
    inverse = 1 / np.array([v[1] for v in SAS_DRUGS_KAPPAS.values()]) ** 2
    overall = float(np.sum(inverse * kappa) / inverse.sum())
    q = float(np.sum(inverse * (kappa - overall) ** 2))
    result = wk.stratified_kappa_test_from_tables(
        list(SAS_DRUGS_STRATA.values()), weights="unweighted"
    )
    assert result.statistic == pytest.approx(overall, abs=2e-4)
    assert result.standard_error == pytest.approx(inverse.sum() ** -0.5, abs=2e-4)
    assert result.homogeneity_statistic == pytest.approx(q, abs=2e-3)
    assert result.homogeneity_df == 1
    # The values wkappa prints for this example (4 decimals, as SAS prints them).
    assert round(result.statistic, 4) == -0.0588
    assert round(result.standard_error, 4) == 0.1034
    low, high = result.confidence_interval()
    assert (round(low, 4), round(high, 4)) == (-0.2615, 0.1439)
    assert round(result.homogeneity_statistic, 4) == 0.2314
    assert round(result.homogeneity_pvalue, 4) == 0.6305


strata_tables = st.integers(2, 4).flatmap(
    lambda k: st.lists(
        st.lists(st.lists(st.integers(0, 12), min_size=k, max_size=k), min_size=k, max_size=k),
        min_size=1,
        max_size=4,
    )
)


@settings(max_examples=examples(120), deadline=None)
@given(tables=strata_tables, weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_overall_is_exact_inverse_variance_combination(
    tables: list[list[list[int]]], weights: str
) -> None:
    exact = [exact_kappa_variance(table, weights) for table in tables]
    used = [e for e in exact if e is not None and e[1] > 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        result = wk.stratified_kappa_test_from_tables(tables, weights=weights)
    assert result.used == tuple(e is not None and e[1] > 0 for e in exact)
    if not used:
        assert math.isnan(result.statistic) and math.isnan(result.standard_error)
        return
    total = sum(1 / v for _, v in used)
    overall = sum(kappa / v for kappa, v in used) / total
    q = sum((kappa - overall) ** 2 / v for kappa, v in used)
    assert result.statistic == pytest.approx(float(overall), rel=1e-9, abs=1e-12)
    assert result.standard_error**2 == pytest.approx(float(1 / total), rel=1e-9)
    assert result.homogeneity_df == len(used) - 1
    if len(used) > 1:
        assert result.homogeneity_statistic == pytest.approx(float(q), rel=1e-7, abs=1e-10)
    else:
        assert math.isnan(result.homogeneity_pvalue)


def test_ratings_and_tables_agree_and_strata_share_categories() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, 300)
    b = np.clip(a + rng.integers(-1, 2, 300), 0, 3)
    site = rng.choice(["north", "south", "west"], 300)
    result = wk.stratified_kappa_test(a, b, strata=site, weights="linear")
    tables = [
        wk.confusion_table(a[site == s], b[site == s], labels=range(4)) for s in result.strata
    ]
    same = wk.stratified_kappa_test_from_tables(tables, weights="linear", strata=result.strata)
    assert result.statistic == pytest.approx(same.statistic, rel=1e-12)
    assert result.homogeneity_pvalue == pytest.approx(same.homogeneity_pvalue, rel=1e-9)
    for name in result.strata:
        mask = site == name
        one = wk.kappa_test(a[mask], b[mask], weights="linear", labels=range(4))
        assert result[name].statistic == pytest.approx(one.statistic, rel=1e-12)
        assert result[name].standard_error == pytest.approx(one.standard_error, rel=1e-12)
        assert result[name].pvalue == pytest.approx(one.pvalue, rel=1e-9)
    assert result.n == 300
    assert result.to_dict()["strata"][0]["stratum"] == "north"
    assert "Test of equal kappas" in result.explain()
    assert "StratifiedKappaResult(statistic=" in repr(result)


def test_one_stratum_is_the_ordinary_test() -> None:
    table = [[20, 5, 1], [4, 15, 6], [0, 3, 16]]
    with pytest.warns(UndefinedKappaWarning, match="needs 2 strata or more"):
        result = wk.stratified_kappa_test_from_tables([table])
    one = wk.kappa_test_from_table(table)
    assert result.statistic == pytest.approx(one.statistic, rel=1e-12)
    assert result.standard_error == pytest.approx(one.standard_error, rel=1e-12)
    assert result.homogeneity_df == 0 and math.isnan(result.homogeneity_pvalue)


def test_perfect_stratum_is_left_out_with_a_warning() -> None:
    tables = [[[10, 0], [0, 10]], [[8, 2], [3, 7]], [[9, 3], [2, 6]]]
    with pytest.warns(UndefinedKappaWarning, match="left out"):
        result = wk.stratified_kappa_test_from_tables(tables, weights="unweighted")
    assert result.used == (False, True, True)
    assert result.homogeneity_df == 1
    assert "not used" in result.explain()


def test_goodness_of_fit_warning_says_the_test_keeps_a_perfect_stratum() -> None:
    """The perfect stratum is out of the overall kappa, but the goodness-of-fit test fits
    both tables (df 1); the warning said it was left out of the test too."""
    tables = [[[10, 0], [0, 5]], [[8, 2], [1, 6]]]
    with pytest.warns(UndefinedKappaWarning, match="goodness-of-fit test of equal kappas keeps"):
        fit = wk.stratified_kappa_test_from_tables(tables, homogeneity="goodness-of-fit")
    assert fit.used == (False, True) and fit.homogeneity_df == 1
    with pytest.warns(UndefinedKappaWarning, match="overall kappa and the test of equal kappas"):
        sas = wk.stratified_kappa_test_from_tables(tables)
    assert sas.homogeneity_df == 0


def test_omit_drops_pairs_and_their_strata() -> None:
    a = [0, 1, 2, np.nan, 1, 0, 2, 1]
    b = [0, 2, 2, 1, 1, 0, 2, 2]
    site = ["x", "x", "x", "y", "z", "z", "z", "z"]
    result = wk.stratified_kappa_test(a, b, strata=site, nan_policy="omit")
    assert result.strata == ("x", "z") and result.n == 7


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"strata": [0, 1, 0]}, "one id per rating pair"),
        ({"strata": [0, None, 1, 1]}, "missing id"),
        ({"strata": [0, float("nan"), 1, 1]}, "missing id"),
        ({"strata": [0, 0, 1, 1], "nan_policy": "propagate"}, "nan_policy"),
        ({"strata": [0, 0, 1, 1], "weights": "quadratc"}, "weights"),
        ({"strata": None}, "`strata`"),
        ({"strata": "abcd"}, "`strata`"),
        ({"strata": np.array(1)}, "`strata`"),
        ({"strata": np.zeros((4, 2))}, "`strata`"),
        ({"strata": [[1], [1], [2], [2]]}, "`strata`"),
        ({"strata": [0, 0, 1, 1], "alternative": "up"}, "`alternative`"),
        ({"strata": [0, 0, 1, 1], "sample_weight": [1, 1, 1]}, "`sample_weight`"),
    ],
)
def test_bad_input(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.stratified_kappa_test([0, 1, 2, 1], [0, 1, 1, 1], **kwargs)  # type: ignore[arg-type]


def test_bad_input_lengths_and_empty() -> None:
    with pytest.raises(WkappaError, match="same length"):
        wk.stratified_kappa_test([0, 1, 2, 1], [0, 1, 1], strata=[0, 0, 1, 1])
    with pytest.raises(WkappaError, match="empty"):
        wk.stratified_kappa_test([], [], strata=[])
    with pytest.raises(WkappaError, match="`y_true`"):
        wk.stratified_kappa_test(np.array(1), np.array(1), strata=np.array(1))


@pytest.mark.parametrize(
    ("tables", "strata", "match"),
    [
        ([[1, 2], [3, 4]], None, "S, K, K"),
        ("abc", None, "`tables`"),
        (np.array(1), None, "`tables`"),
        ([], None, "`tables`"),
        (np.zeros((0, 2, 2)), None, "`tables`"),
        ([[[1, 2], [3, 4]], [[1, 2, 3], [1, 2, 3], [1, 2, 3]]], None, "`tables`"),
        (np.ones((2, 2, 3)), None, r"`tables\[0\]` must be a square"),
        ([[[1, 2], [3, 4]], [[-1, 2], [3, 4]]], None, r"`tables\[1\]`"),
        ([[[np.nan, 2], [3, 4]]], None, r"`tables\[0\]`"),
        ([[[1, 2], [3, 4]]], ["a", "b"], "one id per table"),
        ([[[1, 2], [3, 4]], [[1, 2], [3, 4]]], "ab", "`strata`"),
        ([[[1, 2], [3, 4]], [[1, 2], [3, 4]]], 5, "`strata`"),
        ([[[1, 2], [3, 4]], [[1, 2], [3, 4]]], np.array(1), "`strata`"),
        ([[[1, 2], [3, 4]], [[1, 2], [3, 4]]], ["a", "a"], "each table once"),
    ],
)
def test_bad_tables(tables: object, strata: object, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.stratified_kappa_test_from_tables(tables, strata=strata)  # type: ignore[arg-type]


def test_unknown_stratum_is_a_key_error_naming_the_strata() -> None:
    result = wk.stratified_kappa_test_from_tables(
        [[[5, 2], [3, 4]], [[6, 1], [2, 5]]], strata=["a", "b"]
    )
    with pytest.raises(KeyError, match="the strata are 'a', 'b'"):
        result["zz"]


def test_bad_method() -> None:
    result = wk.stratified_kappa_test_from_tables([[[5, 2], [3, 4]], [[6, 1], [2, 5]]])
    with pytest.raises(WkappaError, match="asymptotic"):
        result.confidence_interval(method="score")  # type: ignore[arg-type]


@pytest.mark.parametrize("df", [1, 2, 3, 6, 11])
def test_chi2_sf_matches_scipy(df: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    for x in [1e-3, 0.5, 1.0, 2.5, 7.0, 30.0, 150.0]:
        assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-10, abs=1e-300)
    assert chi2_sf(0.0, df) == 1.0 and math.isnan(chi2_sf(math.nan, df))


def simulate_sizes(n_per_stratum: int, replicates: int, seed: int) -> float:
    """Rejection rate at 5% of the test of equal kappas under equal kappas (3 strata with
    different prevalences, K = 4, quadratic weights)."""
    rng = np.random.default_rng(seed)
    k, rho = 4, 0.7
    prevalences = [[0.4, 0.3, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25], [0.1, 0.2, 0.3, 0.4]]
    rejections = defined = 0
    for _ in range(replicates):
        tables = []
        for prev in prevalences:
            # Same kappa in every stratum: a mixture of perfect agreement and independence
            # with the same margins has kappa = rho whatever the margins.
            truth = rng.choice(k, n_per_stratum, p=prev)
            copy = rng.random(n_per_stratum) < rho
            other = rng.choice(k, n_per_stratum, p=prev)
            pred = np.where(copy, truth, other)
            table = np.zeros((k, k), dtype=np.int64)
            np.add.at(table, (truth, pred), 1)
            tables.append(table)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            result = wk.stratified_kappa_test_from_tables(np.array(tables))
        if not math.isnan(result.homogeneity_pvalue):
            defined += 1
            rejections += result.homogeneity_pvalue < 0.05
    return rejections / defined


@pytest.mark.slow
def test_homogeneity_test_keeps_its_size() -> None:
    """Under equal kappas the 5% test rejects 3.5-6.5% of the time at 150 pairs per stratum
    (2,000 replicates: Monte Carlo SE 0.5 percentage points). SAS's test is liberal in
    smaller strata (9% at 50 pairs); benchmarks/cluster_study.py --strata runs the grid
    reported in the docs."""
    size = simulate_sizes(150, 2000, 20261126)
    assert 0.035 <= size <= 0.065, size


def test_cli_score_by_prints_the_stratified_summary(tmp_path: Path) -> None:
    """`wkappa score --by` adds SAS's overall kappa across the groups and the test of equal
    kappas (text and JSON), the same numbers as stratified_kappa_test."""
    from test_cli import run

    rng = np.random.default_rng(4)
    a = rng.integers(0, 4, 300)
    b = np.clip(a + rng.integers(-1, 2, 300), 0, 3)
    site = rng.choice(["north", "south", "west"], 300)
    path = tmp_path / "sites.csv"
    path.write_text(
        "site,a,b\n" + "".join(f"{s},{x},{y}\n" for s, x, y in zip(site, a, b, strict=True))
    )
    expected = wk.stratified_kappa_test(a, b, strata=site)
    low, high = expected.confidence_interval()
    text = run("score", path, "--true", "a", "--pred", "b", "--by", "site")
    assert text.returncode == 0, text.stderr
    line = next(x for x in text.stdout.splitlines() if x.startswith("Across site"))
    assert f"kappa {expected.statistic:.4f}, SE {expected.standard_error:.4f}" in line
    assert f"[{low:.4f}, {high:.4f}]" in line
    assert f"chi-square {expected.homogeneity_statistic:.2f}, df 2" in line
    document = json.loads(run("score", path, "--true", "a", "--pred", "b", "--by", "site",
                              "--format", "json").stdout)  # fmt: skip
    across = document["across_groups"]
    assert across["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
    assert across["homogeneity_pvalue"] == pytest.approx(expected.homogeneity_pvalue, rel=1e-9)


def test_fleiss_2003_problem_18_3() -> None:
    """Fleiss, Levin & Paik's solution to problem 18.3 (kappaGold's test): the studies'
    kappas and SEs, the overall kappa and its interval to the printed 2 decimals. The printed
    X^2 0.18 is the formula on the printed (rounded) kappas and SEs; unrounded it is 0.192."""
    from published import (
        FLEISS_2003_PROBLEM_18_3,
        FLEISS_2003_PROBLEM_18_3_PRINTED,
        KAPPAGOLD_WHERE,
    )
    from wkappa._stats.stratified import combine_strata

    printed = FLEISS_2003_PROBLEM_18_3_PRINTED
    result = wk.stratified_kappa_test_from_tables(
        list(FLEISS_2003_PROBLEM_18_3.values()), weights="unweighted"
    )
    assert [r.statistic for r in result.results] == pytest.approx(printed["kappas"], abs=5e-3)
    assert [r.standard_error for r in result.results] == pytest.approx(
        printed["standard_errors"], abs=5e-3
    ), KAPPAGOLD_WHERE
    assert result.statistic == pytest.approx(printed["overall"], abs=5e-3)
    assert tuple(result.confidence_interval()) == pytest.approx(printed["ci"], abs=5e-3)
    assert result.homogeneity_statistic == pytest.approx(0.1922, abs=5e-5)
    _, _, q, df = combine_strata(
        np.array(printed["kappas"]), np.array(printed["standard_errors"]) ** 2
    )
    assert df == 2 and q == pytest.approx(printed["homogeneity_statistic"], abs=5e-3)


def test_totals_past_int64_are_exact_not_wrapped_around() -> None:
    """A table whose total reaches 2**63 had n = -9.2e18 (int64 sum wrapped) in
    kappa_test_from_table, and so did strata whose tables each fit but whose sum does not;
    n is now the exact total (a Python int), as KappaAccumulator.n is."""
    big = np.array([[2**62, 1], [1, 2**62]])
    assert wk.kappa_test_from_table(big).n == 2**63 + 2
    half = np.array([[2**61, 1], [1, 2**61]])
    result = wk.stratified_kappa_test_from_tables(np.stack([half, half]))
    assert result.n == 2**63 + 4
    assert result.statistic == pytest.approx(1.0)


def test_strata_of_the_wrong_kind_are_called_ids() -> None:
    """`strata="site"` said "must be a 1-D array-like of ratings"."""
    with pytest.raises(WkappaError, match="`strata` must be a 1-D array-like of ids; got str"):
        wk.stratified_kappa_test([1, 2, 1], [1, 2, 2], strata="abc")


def test_alternative_makes_the_overall_interval_one_sided_and_leaves_homogeneity() -> None:
    """As documented: 'greater' gives (low, 1) with low the two-sided limit at 2 * level - 1,
    'less' (-inf, high); the overall p-value is one-sided too; the test of equal kappas
    ignores alternative."""
    y = [0, 1, 2, 1, 0, 2, 1, 2, 0, 1, 2, 2]
    p = [0, 2, 2, 1, 0, 1, 1, 2, 0, 1, 1, 2]
    strata = [0] * 6 + [1] * 6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        two = wk.stratified_kappa_test(y, p, strata=strata)
        greater = wk.stratified_kappa_test(y, p, strata=strata, alternative="greater")
        less = wk.stratified_kappa_test(y, p, strata=strata, alternative="less")
    ninety = two.confidence_interval(0.90)
    assert tuple(greater.confidence_interval()) == (ninety.low, 1.0)
    assert tuple(less.confidence_interval()) == (-math.inf, ninety.high)
    assert greater.homogeneity_pvalue == two.homogeneity_pvalue == less.homogeneity_pvalue
    assert two.statistic > 0
    assert greater.pvalue == pytest.approx(two.pvalue / 2, rel=1e-12)
    assert less.pvalue == pytest.approx(1 - two.pvalue / 2, rel=1e-12)
    assert all(r.alternative == "greater" for r in greater.results)


def test_definitions_page_lists_every_function_refusing_propagate() -> None:
    """docs' "Missing values" paragraph names each public function whose nan_policy refuses
    'propagate'."""
    page = Path(__file__).resolve().parents[1] / "docs" / "user-guide" / "definitions.md"
    text = page.read_text(encoding="utf-8")
    paragraph = text[text.index("## Missing values") :].split("```", 1)[0]
    calls = {
        "confusion_table": lambda: wk.confusion_table([0, 1], [0, 1], nan_policy="propagate"),
        "kappa_test": lambda: wk.kappa_test([0, 1], [0, 1], nan_policy="propagate"),
        "paired_kappa_test": lambda: wk.paired_kappa_test(
            [0, 1], [0, 1], [0, 1], nan_policy="propagate"
        ),
        "stratified_kappa_test": lambda: wk.stratified_kappa_test(
            [0, 1], [0, 1], strata=[0, 0], nan_policy="propagate"
        ),
        "rater_vs_panel": lambda: wk.rater_vs_panel(
            [[0, 1], [1, 1]], [0, 1], nan_policy="propagate"
        ),
    }
    for name, call in calls.items():
        with pytest.raises(WkappaError, match="'propagate' has no meaning"):
            call()
        assert f"wkappa.{name}`" in paragraph, name


def test_one_table_instead_of_a_stack_says_how_to_stack_them() -> None:
    with pytest.raises(
        WkappaError, match=r"got \[\[10, 2\], \[3, 12\]\]\. Hint: that is one K x K"
    ):
        wk.stratified_kappa_test_from_tables([[10, 2], [3, 12]])


def test_every_pair_omitted_is_refused() -> None:
    """nan_policy='omit' leaving no pair gave a nan result with no strata and no warning."""
    with pytest.raises(wk.WkappaError, match=r"^No pair is left to score: nan_policy='omit'"):
        wk.stratified_kappa_test([1, 2, 3, 1], [np.nan] * 4, strata=[0, 0, 1, 1], nan_policy="omit")


def eyes_in_sites(seed: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Both eyes of 20, 25 and 30 patients in three sites (clusters nested in strata)."""
    rng = np.random.default_rng(seed)
    sizes = {"north": 20, "south": 25, "west": 30}
    site = np.repeat(list(sizes), [2 * g for g in sizes.values()])
    patient = np.array([f"{s}-{i // 2}" for s, g in sizes.items() for i in range(2 * g)])
    grade = np.repeat(rng.integers(0, 4, sum(sizes.values())), 2)
    a = np.clip(grade + rng.integers(-1, 2, grade.size), 0, 3)
    b = np.clip(grade + rng.integers(-1, 2, grade.size), 0, 3)
    return a, b, site, patient


def test_cluster_gives_each_stratum_its_cluster_robust_error() -> None:
    """Each stratum's result is kappa_test(..., cluster=) on its own pairs, and the overall
    kappa, its standard error and Q are SAS's combination of those variances."""
    a, b, site, patient = eyes_in_sites()
    result = wk.stratified_kappa_test(
        a, b, strata=site, cluster=patient, pooling="inverse-variance"
    )
    kappa, variance = [], []
    for name in ("north", "south", "west"):
        own = site == name
        alone = wk.kappa_test(a[own], b[own], cluster=patient[own], labels=[0, 1, 2, 3])
        assert result[name].standard_error == pytest.approx(alone.standard_error, rel=1e-12)
        assert (
            result[name].n_clusters == alone.n_clusters == {"north": 20}.get(name, alone.n_clusters)
        )
        assert result[name].confidence_interval() == pytest.approx(alone.confidence_interval())
        kappa.append(alone.statistic)
        variance.append(alone.standard_error**2)
    k, w = np.array(kappa), 1.0 / np.array(variance)
    overall = float((w * k).sum() / w.sum())
    assert result.statistic == pytest.approx(overall, rel=1e-12)
    assert result.standard_error == pytest.approx(float(w.sum()) ** -0.5, rel=1e-12)
    assert result.homogeneity_statistic == pytest.approx(float((w * (k - overall) ** 2).sum()))
    assert "G = 20" in result.explain() and "ASE_h cluster-robust" in result.explain()


def test_one_pair_per_cluster_scales_each_variance_by_n_over_n_minus_1() -> None:
    """An identity: with one pair per cluster, each stratum's variance is the ordinary one
    times n_h / (n_h - 1)."""
    a, b, site, _ = eyes_in_sites()
    plain = wk.stratified_kappa_test(a, b, strata=site)
    own = wk.stratified_kappa_test(
        a, b, strata=site, cluster=np.arange(a.size), pooling="inverse-variance"
    )
    for name, result in zip(plain.strata, plain.results, strict=True):
        n = result.n
        assert own[name].standard_error == pytest.approx(
            result.standard_error * (n / (n - 1)) ** 0.5, rel=1e-10
        )


def test_cluster_across_strata_and_independent_pair_tests_are_refused() -> None:
    a, b, site, patient = eyes_in_sites()
    eye = np.tile(["left", "right"], a.size // 2)  # an eye is in every site
    with pytest.raises(WkappaError, match=r"`cluster` 'left' has pairs in two strata"):
        wk.stratified_kappa_test(a, b, strata=site, cluster=eye)
    for test in ("bootstrap", "goodness-of-fit"):
        with pytest.raises(WkappaError, match=rf"homogeneity='{test}' takes the pairs as"):
            wk.stratified_kappa_test(a, b, strata=site, cluster=patient, homogeneity=test)


def test_a_stratum_of_one_cluster_is_left_out_and_few_clusters_warn_once() -> None:
    a, b, site, patient = eyes_in_sites()
    a = np.concatenate([a, [1, 2, 0, 1, 2, 2]])
    b = np.concatenate([b, [1, 1, 0, 2, 2, 1]])
    site = np.concatenate([site, ["tiny", "tiny", "few", "few", "few", "few"]])
    patient = np.concatenate([patient, ["t0", "t0", "f0", "f0", "f1", "f2"]])
    with pytest.warns(wk.exceptions.FewClustersWarning, match=r"1 of 5 groups \('few'\)"):
        with pytest.warns(UndefinedKappaWarning, match=r"\('tiny'\).*or a single cluster"):
            result = wk.stratified_kappa_test(
                a, b, strata=site, cluster=patient, pooling="inverse-variance"
            )
    assert result.strata == ("few", "north", "south", "tiny", "west")
    assert result.used == (True, True, True, False, True)
