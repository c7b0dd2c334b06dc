"""The small-sample ('fisher-z') interval: its pieces against exact references, its plumbing
through KappaResult, kappa_by_group and the command line, and the small-n advice of
explain().

The coverage itself is checked by simulation in test_inference_coverage.py (slow) and
measured over the whole design grid by benchmarks/coverage_study.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from reference import reference_weights
from wkappa._core import t_ppf
from wkappa._stats import fisher_z_limits
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")


# --------------------------------------------------------------------------- t quantile


@pytest.mark.parametrize("df", [0.3, 1, 2, 4.5, 29, 49, 51, 99, 999, 9999, 10001, 1e6, 1e12])
def test_t_quantile_matches_scipy(df: float) -> None:
    stats = pytest.importorskip("scipy.stats")
    for p in (1e-12, 1e-6, 0.001, 0.025, 0.05, 0.3, 0.5, 0.7, 0.975, 0.999, 1 - 1e-9):
        expected = float(stats.t.ppf(p, df))
        assert t_ppf(p, df) == pytest.approx(expected, rel=1e-10, abs=1e-12), (p, df)


def test_t_quantile_known_values_and_bad_arguments() -> None:
    # Student's t tables (e.g. Abramowitz & Stegun, Table 26.10): t_{0.975} with 1, 10, 29 df.
    assert t_ppf(0.975, 1.0) == pytest.approx(12.706204736, rel=1e-9)
    assert t_ppf(0.975, 10.0) == pytest.approx(2.228138852, rel=1e-9)
    assert t_ppf(0.975, 29.0) == pytest.approx(2.045229642, rel=1e-9)
    assert t_ppf(0.025, 29.0) == pytest.approx(-t_ppf(0.975, 29.0), rel=1e-14)
    for p, df in ((0.0, 5.0), (1.0, 5.0), (0.5, 0.0), (0.9, -1.0), (math.nan, 3.0)):
        assert math.isnan(t_ppf(p, df))


# --------------------------------------------------------------------------- exact pieces


def _fraction_kappa_and_variance(table: list[list[Fraction]], w: list[list[Fraction]]):
    """kappa and n * Var(kappa) of Fleiss, Cohen & Everitt (1969), written in Fractions in
    the agreement-weight form (A = 1 - W): Var = [sum p (A_ij - (Abar_i + Abar_j)(1 - k))²
    - (k - P_e (1 - k))²] / (1 - P_e)²."""
    k = len(table)
    n = sum(sum(row) for row in table)
    p = [[table[i][j] / n for j in range(k)] for i in range(k)]
    r = [sum(p[i]) for i in range(k)]
    c = [sum(p[i][j] for i in range(k)) for j in range(k)]
    a = [[1 - w[i][j] for j in range(k)] for i in range(k)]
    p_o = sum(a[i][j] * p[i][j] for i in range(k) for j in range(k))
    p_e = sum(a[i][j] * r[i] * c[j] for i in range(k) for j in range(k))
    kappa = (p_o - p_e) / (1 - p_e)
    a_row = [sum(a[i][j] * c[j] for j in range(k)) for i in range(k)]
    a_col = [sum(a[i][j] * r[i] for i in range(k)) for j in range(k)]
    total = sum(
        p[i][j] * (a[i][j] - (a_row[i] + a_col[j]) * (1 - kappa)) ** 2
        for i in range(k)
        for j in range(k)
    )
    return kappa, (total - (kappa - p_e * (1 - kappa)) ** 2) / (1 - p_e) ** 2


def _reference_limits(table: np.ndarray, weights: str, level: float) -> tuple[float, float]:
    """The 'fisher-z' limits from the exact smoothed table (Fractions), scipy's t and math."""
    stats = pytest.importorskip("scipy.stats")
    k = table.shape[0]
    w = reference_weights(weights, k)
    counts = [[Fraction(int(x)) for x in row] for row in table]
    n = sum(sum(row) for row in counts)
    rows = [sum(row) for row in counts]
    cols = [sum(counts[i][j] for i in range(k)) for j in range(k)]
    smoothed = [
        [counts[i][j] + rows[i] * cols[j] / (2 * n * n) for j in range(k)] for i in range(k)
    ]
    kappa, _ = _fraction_kappa_and_variance(counts, w)
    kappa_s, n_var = _fraction_kappa_and_variance(smoothed, w)
    # Half a pair of chance agreement shrinks kappa by n / (n + 1/2), exactly.
    assert kappa_s == kappa * n / (n + Fraction(1, 2))
    se = math.sqrt(n_var / (n + Fraction(1, 2)))
    q = float(stats.t.ppf(0.5 + level / 2, float(n) - 1))
    center, half = math.atanh(kappa_s), q * se / (1 - float(kappa_s) ** 2)
    low, high = math.tanh(center - half), math.tanh(center + half)
    return min(low, float(kappa)), max(high, float(kappa))


TABLES = [
    np.array([[20, 5], [4, 15]]),
    np.array([[20, 0], [0, 15]]),  # kappa = 1
    np.array(
        [[10, 2, 1, 0, 0], [1, 8, 2, 0, 0], [0, 1, 5, 1, 0], [0, 0, 1, 3, 1], [0, 0, 0, 1, 2]]
    ),
    np.array([[3, 4, 0], [2, 1, 5], [6, 0, 1]]),  # kappa < 0
]


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("index", range(len(TABLES)))
def test_limits_match_exact_reference(weights: str, index: int) -> None:
    table = TABLES[index]
    result = wk.kappa_test_from_table(table, weights=weights)
    for level in (0.8, 0.95, 0.99):
        ci = result.confidence_interval(level, method="fisher-z")
        expected = _reference_limits(table, weights, level)
        assert (ci.low, ci.high) == pytest.approx(expected, rel=1e-10, abs=1e-12)
        assert ci.method == "fisher-z" and ci.n_resamples == 0 and ci.n_undefined == 0


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda k: st.lists(st.integers(0, 12), min_size=k * k, max_size=k * k).map(
            lambda cells: np.array(cells).reshape(k, k)
        )
    ),
    st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_limits_match_exact_reference_on_random_tables(table: np.ndarray, weights: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined kappa or null SE: checked elsewhere
        result = wk.kappa_test_from_table(table, weights=weights)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ci = result.confidence_interval(method="fisher-z")
    # undefined kappa, a single pair, or a standard error of 0 below kappa = 1 (one row or
    # column of the table in use, as [[0, 0], [1, 1]]): nan, warned
    if math.isnan(result.statistic) or table.sum() <= 1 or caught:
        assert math.isnan(ci.low) and math.isnan(ci.high)
        return
    expected = _reference_limits(table, weights, 0.95)
    assert (ci.low, ci.high) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert -1.0 <= ci.low <= result.statistic <= ci.high <= 1.0


def test_vectorised_limits_equal_one_table_at_a_time() -> None:
    rng = np.random.default_rng(4)
    tables = rng.multinomial(40, np.full(16, 1 / 16), size=(3, 5)).reshape(3, 5, 4, 4)
    matrix = wk.kappa_test_from_table(np.ones((4, 4))).weight_matrix
    low, high = fisher_z_limits(tables, matrix, 0.9)
    assert low.shape == high.shape == (3, 5)
    for index in np.ndindex(3, 5):
        ci = wk.kappa_test_from_table(tables[index]).confidence_interval(0.9, method="fisher-z")
        assert (low[index], high[index]) == (ci.low, ci.high)


# --------------------------------------------------------------------------- behaviour


def test_perfect_agreement_gets_a_real_interval() -> None:
    result = wk.kappa_test_from_table([[20, 0], [0, 15]], weights="unweighted")
    with pytest.warns(UserWarning, match=r"Hint: method='score' gives an interval"):
        assert tuple(result.confidence_interval()) == (1.0, 1.0)  # Wald: zero width
    low, high = result.confidence_interval(method="fisher-z")
    assert high == 1.0 and 0.0 < low < 0.95


def test_weighted_counts_use_their_total() -> None:
    table = np.array([[10.0, 2.0], [1.0, 8.0]])  # float counts that are whole numbers
    ci = wk.kappa_test_from_table(table).confidence_interval(method="fisher-z")
    doubled = wk.kappa_test_from_table(table * 2).confidence_interval(method="fisher-z")
    assert ci.low < doubled.low < doubled.high < ci.high  # more pairs, narrower


def test_undefined_and_tiny_tables_give_nan() -> None:
    with pytest.warns(wk.exceptions.UndefinedKappaWarning):
        result = wk.kappa_test_from_table([[5, 0], [0, 0]])
    assert all(math.isnan(x) for x in result.confidence_interval(method="fisher-z"))
    with pytest.warns(wk.exceptions.UndefinedKappaWarning, match="test of kappa = 0 and every"):
        single = wk.kappa_test_from_table([[0, 1], [0, 0]])  # n = 1: no t quantile
    assert single.statistic == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (said when built)
        ci = single.confidence_interval(method="fisher-z")
    assert all(math.isnan(x) for x in ci)


def test_asymptotic_default_is_unchanged() -> None:
    # SAS PROC FREQ documentation, "Example 3.7" style check: the default is still Wald.
    result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
    low, high = result.confidence_interval(0.90)
    assert (round(low, 4), round(high, 4)) == (0.3837, 0.7879)
    assert result.confidence_interval().method == "asymptotic"


@pytest.mark.parametrize("bad", ["fisher_z", "wilson", 3, None])
def test_bad_method_names_the_parameter(bad: object) -> None:
    result = wk.kappa_test_from_table([[20, 5], [4, 15]])
    with pytest.raises(WkappaError, match=r"`method` must be .*'fisher-z'"):
        result.confidence_interval(method=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- explain


def test_explain_warns_about_small_n_and_names_the_fix() -> None:
    small = wk.kappa_test_from_table([[20, 5], [4, 15]])
    text = small.explain()
    assert "n = 44 < 100" in text and "method='score'" in text
    low, high = small.confidence_interval(method="score")
    assert f"[{low:.6g}, {high:.6g}]" in text
    large = wk.kappa_test_from_table([[200, 50], [40, 150]])
    assert "method='score'" not in large.explain()


def test_result_docs_give_the_rule() -> None:
    doc = wk.KappaResult.__doc__ or ""
    assert "method='score'" in doc and "100" in doc


# --------------------------------------------------------------------------- kappa_by_group


@pytest.mark.parametrize("method", ["fisher-z", "score"])
def test_kappa_by_group_small_sample_methods_equal_each_group_result(method: str) -> None:
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    rng = np.random.default_rng(11)
    truth = rng.integers(0, 4, 300)
    pred = np.clip(truth + rng.integers(-1, 2, 300), 0, 3)
    group = rng.integers(0, 6, 300)
    df = pd.DataFrame({"g": group, "t": truth, "p": pred})
    out = frames.kappa_by_group(
        df, y_true="t", y_pred="p", by="g", method=method, confidence_level=0.9
    )
    wald = frames.kappa_by_group(df, y_true="t", y_pred="p", by="g", confidence_level=0.9)
    for row, wald_row in zip(out.itertuples(), wald.itertuples(), strict=True):
        mask = group == row.g
        result = wk.kappa_test(truth[mask], pred[mask], labels=range(4))
        ci = result.confidence_interval(0.9, method=method)  # type: ignore[arg-type]
        assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-12)
        assert row.kappa == wald_row.kappa and row.standard_error == wald_row.standard_error
        low, high = result.confidence_interval(0.9)
        assert (wald_row.ci_low, wald_row.ci_high) == pytest.approx((low, high), rel=1e-9)


@pytest.mark.parametrize("bad", ["bca", "Fisher-z", 1])
def test_kappa_by_group_bad_ci_method(bad: object) -> None:
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    df = pd.DataFrame({"g": [1, 1, 2, 2], "t": [0, 1, 0, 1], "p": [0, 1, 1, 1]})
    with pytest.raises(WkappaError, match="`method` must be 'asymptotic', 'score' or 'fisher-z'"):
        frames.kappa_by_group(df, y_true="t", y_pred="p", by="g", method=bad)


# --------------------------------------------------------------------------- command line


def _run(*args: object) -> subprocess.CompletedProcess:
    """``wkappa ARGS`` in this process (the CLI's ``main``), as a finished process."""
    from wkappa._cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def small_csv(tmp_path_factory) -> tuple[object, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 40)
    pred = np.clip(truth + rng.integers(-1, 2, 40), 0, 3)
    path = tmp_path_factory.mktemp("small") / "ratings.csv"
    rows = "".join(f"{a},{b}\n" for a, b in zip(truth, pred, strict=True))
    path.write_text("truth,pred\n" + rows)
    return path, truth, pred


@pytest.mark.parametrize("method", ["fisher-z", "score"])
def test_cli_ci_method_small_sample(small_csv, method: str) -> None:
    path, truth, pred = small_csv
    proc = _run("score", path, "--true", "truth", "--pred", "pred", "--format", "json",
                "--ci-method", method, "--ci", "0.9")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["confidence_interval"]["method"] == method
    ci = wk.kappa_test(truth, pred).confidence_interval(0.9, method=method)  # type: ignore[arg-type]
    got = [doc["confidence_interval"]["low"], doc["confidence_interval"]["high"]]
    assert got == pytest.approx([ci.low, ci.high], rel=1e-12)
    text = _run("score", path, "--true", "truth", "--pred", "pred", "--ci-method", method)
    assert text.returncode == 0 and method in text.stdout and "bootstrap" not in text.stdout


@pytest.mark.integration  # renders the HTML report with matplotlib
def test_cli_report_names_the_fisher_z_interval(small_csv, tmp_path) -> None:
    path, _, _ = small_csv
    report = tmp_path / "report.html"
    proc = _run("score", path, "--true", "truth", "--pred", "pred", "--ci-method", "fisher-z",
                "--report", report)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    html = report.read_text()
    assert "fisher-z" in html and "bootstrap (fisher-z)" not in html


def test_cli_ci_method_conflicts_with_bootstrap(small_csv) -> None:
    path, _, _ = small_csv
    proc = _run("score", path, "--true", "truth", "--pred", "pred", "--ci-method", "fisher-z",
                "--bootstrap", "99")  # fmt: skip
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wkappa: error: ")
    assert "--ci-method fisher-z and --bootstrap" in lines[0]


def test_explain_warns_about_high_kappa_below_1000_pairs() -> None:
    text = wk.kappa_test_from_table([[250, 5], [5, 240]]).explain()
    assert "kappa >= 0.8 with n = 500 < 1000" in text
    assert "method='score'" not in wk.kappa_test_from_table([[550, 5], [5, 540]]).explain()


# --------------------------------------------------------------------------- paired difference


def test_expanded_level_and_pvalue_are_inverse() -> None:
    from wkappa._stats.bootstrap import expanded_level, expanded_pvalue

    stats = pytest.importorskip("scipy.stats")
    for n in (5, 30, 50.5, 200, 10**6):
        for p in (1e-4, 0.01, 0.05, 0.3, 0.9):
            alpha = expanded_pvalue(p, n)
            assert p < alpha < 1.0
            assert 1.0 - expanded_level(1.0 - alpha, n) == pytest.approx(p, rel=1e-9)
        # Hesterberg's stretch: the quantile sqrt(n / (n - 1)) t_{n-1, 0.975}.
        stretched = math.sqrt(n / (n - 1)) * stats.t.ppf(0.975, n - 1)
        assert expanded_level(0.95, n) == pytest.approx(2 * stats.norm.cdf(stretched) - 1)
    assert expanded_level(0.95, 10**9) == pytest.approx(0.95, abs=1e-8)
    assert expanded_level(0.95, 1) == 0.95 and expanded_pvalue(0.2, 1) == 0.2
    assert expanded_pvalue(1.0, 30) == 1.0


def test_paired_interval_is_the_expanded_percentile_of_the_replicates() -> None:
    from wkappa._core import cell_kappas, integer_weights
    from wkappa._stats import bootstrap as _bootstrap
    from wkappa._stats.bootstrap import expanded_level, expanded_pvalue, zero_crossings

    rng = np.random.default_rng(8)
    truth = rng.integers(0, 4, 40)
    a = np.clip(truth + rng.integers(-1, 2, 40), 0, 3)
    b = np.clip(truth + rng.integers(-2, 3, 40), 0, 3)
    result = wk.paired_kappa_test(truth, a, b, labels=range(4), n_resamples=999, rng=5)
    table = np.zeros((4, 4, 4), dtype=np.int64)
    np.add.at(table, (truth, a, b), 1)
    coords = np.nonzero(table)
    cells = _bootstrap.Cells(table[coords].astype(float), coords, 40)
    matrix = wk.kappa_test_from_table(np.ones((4, 4))).weight_matrix
    replicates = _bootstrap.draw(cells, 999, np.random.default_rng(5))
    t, pa, pb = coords
    integer = integer_weights(matrix, 4)
    diffs = cell_kappas(replicates, t, pa, matrix, integer) - cell_kappas(
        replicates, t, pb, matrix, integer
    )
    ci = result.confidence_interval()
    assert ci.method == "expanded-percentile"
    assert (ci.low, ci.high) == _bootstrap.percentile_interval(diffs, expanded_level(0.95, 40))
    plain = _bootstrap.percentile_interval(diffs, 0.95)
    assert ci.low < plain[0] and plain[1] < ci.high  # wider than the plain percentile
    # The p-value is the expanded interval inverted on its own quantiles.
    below, above = zero_crossings(diffs)
    assert result.pvalue == expanded_pvalue(min(1.0, 2 * min(below, 1 - above)), 40)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(("b", "n"), [(199, 12), (1999, 40), (9999, 500)])
def test_smallest_pvalue_is_what_the_bootstrap_gives_with_nothing_against_h1(
    alternative: str, b: int, n: int
) -> None:
    """The command line's "p < floor" (compare, judge) is the p-value of differences none of
    which counts against H1, and no p-value of B differences is below it."""
    from wkappa._stats.bootstrap import smallest_pvalue
    from wkappa._stats.paired_bootstrap import comparison_pvalue

    side = -1.0 if alternative == "less" else 1.0
    extreme = np.full(b, side)  # every difference on H1's side
    floor = smallest_pvalue(b, n, alternative)
    assert comparison_pvalue(extreme, n, alternative) == floor
    rng = np.random.default_rng(b)
    for _ in range(20):
        d = rng.normal(rng.normal(), 1.0, b)
        assert comparison_pvalue(d, n, alternative) >= floor
