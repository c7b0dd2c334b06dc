"""The score-type ('score') interval: its limits against an exact reference written from its
definition (Fractions for the variance, scipy's normal quantile), its properties on random
tables, and its plumbing through KappaResult, kappa_by_group and the command line.

There are no published values for this interval (it generalises the K = 2 idea of evaluating
the variance under the hypothesised kappa); its coverage is checked by simulation in
test_inference_coverage.py (slow) and measured by benchmarks/coverage_study.py.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from reference import reference_weights
from wkappa._stats import score_limits
from wkappa._stats.score_interval import hypothesis_variances
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")

Table = list[list[Fraction]]


def _kappa_and_variance(p: Table, w: Table) -> tuple[Fraction, Fraction]:
    """kappa and n * Var(kappa) of proportions p (summing to 1), disagreement-weight form:
    Var = [sum p (W_ij - (1 - k)(wr_i + wc_j))² - (1 - k)² D_e²] / D_e²."""
    k = len(p)
    r = [sum(p[i]) for i in range(k)]
    c = [sum(p[i][j] for i in range(k)) for j in range(k)]
    wr = [sum(w[i][j] * c[j] for j in range(k)) for i in range(k)]
    wc = [sum(w[i][j] * r[i] for i in range(k)) for j in range(k)]
    d_e = sum(r[i] * wr[i] for i in range(k))
    d_o = sum(w[i][j] * p[i][j] for i in range(k) for j in range(k))
    kappa = 1 - d_o / d_e
    total = sum(
        p[i][j] * (w[i][j] - (1 - kappa) * (wr[i] + wc[j])) ** 2 for i in range(k) for j in range(k)
    )
    return kappa, (total - (1 - kappa) ** 2 * d_e**2) / d_e**2


def _mix(a: Table, b: Table, s: Fraction) -> Table:
    return [
        [(1 - s) * x + s * y for x, y in zip(ra, rb, strict=True)]
        for ra, rb in zip(a, b, strict=True)
    ]


def _reference_limits(table: np.ndarray, weights: str, level: float) -> tuple[float, float]:
    """The limits from the definition in the docs: the path P -> chance (same margins) ->
    disagreement below kappa-hat, P -> perfect agreement (through chance when kappa-hat < 0)
    above it; the test evaluated exactly at each point, bisection on the path position."""
    stats = pytest.importorskip("scipy.stats")
    k = table.shape[0]
    w = reference_weights(weights, k)
    counts = [[Fraction(int(x)) for x in row] for row in table]
    n = sum(sum(row) for row in counts)
    p = [[x / n for x in row] for row in counts]
    r = [sum(p[i]) for i in range(k)]
    c = [sum(p[i][j] for i in range(k)) for j in range(k)]
    chance = [[r[i] * c[j] for j in range(k)] for i in range(k)]
    agree = [[(r[i] + c[i]) / 2 if i == j else Fraction(0) for j in range(k)] for i in range(k)]
    raw = [[chance[i][j] * w[i][j] for j in range(k)] for i in range(k)]
    total = sum(sum(row) for row in raw)
    against = [[x / total for x in row] for row in raw]
    kappa, _ = _kappa_and_variance(p, w)
    z = Fraction(float(stats.norm.ppf(0.5 + level / 2)))

    def limit(first: Table, second: Table) -> float:
        def point(u: Fraction) -> Table:
            return _mix(p, first, u) if u <= 1 else _mix(first, second, u - 1)

        def rejects(u: Fraction) -> tuple[Fraction, bool]:
            k0, n_var = _kappa_and_variance(point(u), w)
            return k0, (kappa - k0) ** 2 > z * z * n_var / n

        end, rejected = rejects(Fraction(2))
        if not rejected:
            return float(end)
        low, high = 0.0, 2.0
        for _ in range(55):
            middle = (low + high) / 2
            if rejects(Fraction(middle))[1]:
                high = middle
            else:
                low = middle
        return float(rejects(Fraction(high))[0])

    if kappa < 0:
        return limit(against, against), limit(chance, agree)
    return limit(chance if kappa > 0 else against, against), limit(agree, agree)


TABLES = [
    np.array([[20, 5], [4, 15]]),
    np.array([[20, 0], [0, 15]]),  # kappa = 1
    np.array([[10, 2, 1, 0], [1, 8, 2, 0], [0, 1, 5, 1], [0, 0, 1, 3]]),
    np.array([[3, 4, 0], [2, 1, 5], [6, 0, 1]]),  # kappa < 0
    np.array([[1, 1], [1, 0]]),  # n = 3, kappa < 0
]


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("index", range(len(TABLES)))
def test_limits_match_exact_reference(weights: str, index: int) -> None:
    table = TABLES[index]
    result = wk.kappa_test_from_table(table, weights=weights)
    for level in (0.95, 0.8):
        ci = result.confidence_interval(level, method="score")
        low, high = _reference_limits(table, weights, level)
        assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-9)
        assert ci.method == "score" and ci.n_resamples == 0 and ci.confidence_level == level


def test_worked_values() -> None:
    """Kept as numbers so that a change of the method shows up here too."""
    result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
    low, high = result.confidence_interval(0.9, method="score")
    assert (round(low, 4), round(high, 4)) == (0.3527, 0.7507)
    low, high = wk.kappa_test_from_table([[20, 0], [0, 15]]).confidence_interval(method="score")
    assert high == 1.0 and 0.7 < low < 0.9


tables = st.integers(2, 4).flatmap(
    lambda k: st.lists(st.integers(0, 15), min_size=k * k, max_size=k * k).map(
        lambda cells: np.array(cells).reshape(k, k)
    )
)


@settings(max_examples=60, deadline=None)
@given(table=tables, weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_properties_on_random_tables(table: np.ndarray, weights: str) -> None:
    import warnings

    # Undefined kappas and tests (a table such as [[0, 0], [1, 1]]) warn; here they are data.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wk.exceptions.UndefinedKappaWarning)
        _check_score_properties(table, weights)


def _check_score_properties(table: np.ndarray, weights: str) -> None:
    result = wk.kappa_test_from_table(table, weights=weights)
    low, high = result.confidence_interval(method="score")
    if np.isnan(result.statistic) or table.sum() <= 1:
        assert np.isnan(low) and np.isnan(high)
        return
    assert low <= result.statistic <= high <= 1.0
    # Rater order does not matter (the path and the variance are symmetric).
    flipped = wk.kappa_test_from_table(table.T, weights=weights)
    assert flipped.confidence_interval(method="score") == pytest.approx((low, high), abs=1e-9)
    # A narrower level gives a nested interval.
    inner = result.confidence_interval(0.8, method="score")
    assert low - 1e-12 <= inner.low and inner.high <= high + 1e-12


def test_more_pairs_give_a_narrower_interval_and_perfect_agreement_a_real_one() -> None:
    base = np.array([[6, 1, 0], [1, 5, 1], [0, 1, 4]])
    widths = []
    for factor in (1, 4, 16):
        low, high = wk.kappa_test_from_table(base * factor).confidence_interval(method="score")
        widths.append(high - low)
    assert widths[0] > widths[1] > widths[2]
    lows = [
        wk.kappa_test_from_table(np.diag([m, m, m])).confidence_interval(method="score").low
        for m in (3, 10, 30)
    ]
    assert lows[0] < lows[1] < lows[2] < 1.0


def test_vectorised_limits_equal_one_table_at_a_time() -> None:
    rng = np.random.default_rng(5)
    tables = rng.multinomial(25, np.full(9, 1 / 9), size=40).reshape(5, 8, 3, 3)
    matrix = wk.kappa_test_from_table(np.ones((3, 3)), weights="linear").weight_matrix
    low, high = score_limits(tables, matrix, 0.9)
    assert low.shape == high.shape == (5, 8)
    for index in np.ndindex(5, 8):
        ci = wk.kappa_test_from_table(tables[index], weights="linear").confidence_interval(
            0.9, method="score"
        )
        assert (low[index], high[index]) == pytest.approx((ci.low, ci.high), rel=1e-12)


def test_weighted_counts_and_undefined_tables() -> None:
    table = np.array([[10.0, 2.0], [2.0, 8.0]])  # float counts that are whole numbers
    ci = wk.kappa_test_from_table(table).confidence_interval(method="score")
    assert np.isfinite(ci.low) and ci.low < ci.high
    with pytest.raises(WkappaError, match="`table` must give whole-number counts"):
        wk.kappa_test_from_table(table / 4)
    with pytest.warns(wk.exceptions.UndefinedKappaWarning):
        result = wk.kappa_test_from_table([[5, 0], [0, 0]])
    assert all(np.isnan(x) for x in result.confidence_interval(method="score"))


def test_bad_method_hint_names_score() -> None:
    result = wk.kappa_test_from_table([[20, 5], [4, 15]])
    with pytest.raises(WkappaError, match=r"'score'.*Hint: the small-sample interval is 'score'"):
        result.confidence_interval(method="wilson")  # type: ignore[arg-type]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_score_intervals_of_a_stack_are_each_results_own(alternative) -> None:
    # wkappa score --by --ci-method score: all groups' intervals from one stacked search.
    from wkappa._stats import kappa_results, score_intervals

    rng = np.random.default_rng(11)
    tables = rng.multinomial(30, np.full(16, 1 / 16), size=60).reshape(60, 4, 4)
    tables[:, np.arange(4), np.arange(4)] += rng.integers(0, 20, (60, 4))
    tables[0] = 0
    tables[0, 1, 1] = 9  # kappa undefined
    tables[1] = 0
    tables[1, 2, 3] = 1  # n = 1
    tables[2] = np.diag([5, 6, 7, 8])  # perfect agreement
    with pytest.warns(wk.exceptions.UndefinedKappaWarning):
        results = kappa_results(tables, "linear", (0, 1, 2, 3), alternative, 0.0)
    for level in (0.9, 0.95):
        # table 1 (n = 1, kappa 0): one warning for the stack; the table alone was warned
        # about when built (a single pair has no interval)
        with pytest.warns(wk.exceptions.UndefinedKappaWarning, match="in 1 of 60 groups"):
            batched = score_intervals(results, level)
        for index, (result, ci) in enumerate(zip(results, batched, strict=True)):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                own = result.confidence_interval(level, method="score")
            if index == 1:
                assert np.isnan(ci.low) and np.isnan(ci.high)
            assert (ci.confidence_level, ci.method) == (own.confidence_level, "score")
            assert _same(ci.low, own.low) and _same(ci.high, own.high)
    assert score_intervals([], 0.95) == []


def _same(a: float, b: float) -> bool:
    """Bit for bit (nan equal to nan)."""
    return bool(a == b or (np.isnan(a) and np.isnan(b)))


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_stacked_score_intervals_equal_each_tables_own_bit_for_bit(alternative) -> None:
    # No matrix product and no einsum in the search: each end rounds as for the table alone
    # (also at K = 91 and more, where einsum splits a table's K*K terms by the stack).
    from wkappa._stats import kappa_results, score_intervals

    rng = np.random.default_rng(2026)
    for k in (2, 3, 5, 8, 13, 95):
        n_tables = 40 if k < 50 else 4
        size = int(rng.integers(6, 300))
        tables = rng.multinomial(size, np.full(k * k, 1 / (k * k)), size=n_tables)
        tables = tables.reshape(n_tables, k, k)
        tables[:, np.arange(k), np.arange(k)] += rng.integers(0, 25, (n_tables, k))
        for weights in ("linear", "quadratic"):
            results = kappa_results(tables, weights, tuple(range(k)), alternative, 0.0)
            batched = score_intervals(results, 0.95)
            for result, ci in zip(results, batched, strict=True):
                own = result.confidence_interval(0.95, method="score")
                assert _same(ci.low, own.low) and _same(ci.high, own.high), (k, weights)


def test_score_limits_do_not_depend_on_memory_layout_or_stack() -> None:
    rng = np.random.default_rng(7)
    k = 9
    weights = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / (k - 1.0)
    tables = rng.multinomial(200, np.full(k * k, 1 / (k * k)), size=30).reshape(30, k, k)
    tables = tables + np.diag(rng.integers(0, 30, k))
    low, high = score_limits(tables, weights, 0.9)
    variance = hypothesis_variances(tables, weights, 0.25)
    padded = np.zeros((30, k + 2, k + 3))
    padded[:, 1 : k + 1, 2 : k + 2] = tables
    for view in (np.asfortranarray(tables, dtype=np.float64), padded[:, 1 : k + 1, 2 : k + 2]):
        other_low, other_high = score_limits(view, weights, 0.9)
        assert np.array_equal(other_low, low) and np.array_equal(other_high, high)
        assert np.array_equal(hypothesis_variances(view, weights, 0.25), variance)
    for g in range(30):
        alone = np.asfortranarray(tables[g], dtype=np.float64)
        assert score_limits(alone, weights, 0.9) == (low[g], high[g])
        assert hypothesis_variances(alone, weights, 0.25) == variance[g]
