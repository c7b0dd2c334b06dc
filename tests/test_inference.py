"""kappa_test / kappa_test_from_table: standard errors, tests and asymptotic intervals.

Checked against statsmodels' cohens_kappa on random tables, against published printouts (each
test names its source next to the numbers) and against an exact Fraction implementation of
the Fleiss-Cohen-Everitt formulas written independently in SAS's agreement-weight form.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from published import PRINTOUTS, Printout, compute
from reference import (
    reference_kappa,
    reference_kappa_from_table,
    reference_variances,
)
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

# numpy's raw RuntimeWarnings (0/0, invalid sqrt) must never escape: every warning is an error
# here unless a test expects it with pytest.warns.
pytestmark = pytest.mark.filterwarnings("error")

STATSMODELS_WT = {"quadratic": "quadratic", "linear": "linear", "unweighted": None}


def _close(actual: float, expected: float, tol: float = 1e-10) -> bool:
    return abs(actual - expected) <= tol * max(1.0, abs(expected))


def _random_table(rng: np.random.Generator) -> np.ndarray:
    k = int(rng.integers(2, 9))
    n = int(rng.choice([5, 20, 100, 1000, 10**5]))
    agreement = rng.uniform(0, 3)
    probabilities = rng.dirichlet(np.ones(k * k)) + agreement * np.eye(k).ravel() / k
    probabilities /= probabilities.sum()
    return rng.multinomial(n, probabilities).reshape(k, k)


# --------------------------------------------------------------------------- statsmodels


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_agrees_with_statsmodels_on_random_tables(weights: str) -> None:
    """kappa, std_kappa, std_kappa0, the 95% CI and the p-values to 1e-10 on >= 500 tables."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(20261122)
    checked = 0
    while checked < 520:
        table = _random_table(rng)
        rows, cols = table.sum(axis=1), table.sum(axis=0)
        if np.count_nonzero(rows) < 2 and np.count_nonzero(cols) < 2:
            continue  # undefined kappa: statsmodels divides by zero
        wt = STATSMODELS_WT[weights]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # statsmodels' own numpy warnings
            peer = inter_rater.cohens_kappa(table, wt=wt) if wt else inter_rater.cohens_kappa(table)
        if not peer.var_kappa0 > 1e-12 or not peer.var_kappa > 1e-12:
            continue  # statsmodels' variances are rounding noise (~1e-16) here
        result = wk.kappa_test_from_table(table, weights=weights)
        low, high = result.confidence_interval(0.95)
        pairs = [
            (result.statistic, peer.kappa),
            (result.standard_error, peer.std_kappa),
            (result.standard_error_null, peer.std_kappa0),
            (low, peer.kappa_low),
            (high, peer.kappa_upp),
            (result.test_statistic, peer.z_value),
            (result.pvalue, peer.pvalue_two_sided),
        ]
        for ours, theirs in pairs:
            assert _close(ours, theirs), (table.tolist(), pairs)
        checked += 1


def test_agrees_with_statsmodels_custom_matrix() -> None:
    """A user disagreement matrix is statsmodels' 2-D ``weights`` (it converts to 1 - W)."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(7)
    for _ in range(60):
        table = _random_table(rng)
        k = table.shape[0]
        matrix = rng.uniform(0, 1, (k, k))
        np.fill_diagonal(matrix, 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            peer = inter_rater.cohens_kappa(table, weights=matrix)
        if not peer.var_kappa0 > 1e-12 or not peer.var_kappa > 1e-12:
            continue
        result = wk.kappa_test_from_table(table, weights=matrix)
        assert result.weights == "custom"
        assert _close(result.statistic, peer.kappa)
        assert _close(result.standard_error, peer.std_kappa)
        assert _close(result.standard_error_null, peer.std_kappa0)


# --------------------------------------------------------------------------- published printouts

# SAS PROC FREQ, R irr, vcd and irrCAC printouts and Landis & Koch's value: the records, each
# with its source, live in tests/published.py, which also generates the documentation's
# validation page. Tolerance: half a unit of the last printed digit.


@pytest.mark.parametrize("printout", PRINTOUTS, ids=[p.key for p in PRINTOUTS])
def test_published_printouts(printout: Printout) -> None:
    computed = compute(printout)
    assert computed.keys() == printout.values.keys()
    for name, (published, tolerance) in printout.values.items():
        assert computed[name] == pytest.approx(published, abs=tolerance), (printout.key, name)


def test_published_printouts_cover_each_source() -> None:
    sources = {p.key.split("-")[0] for p in PRINTOUTS}
    assert sources == {"sas", "irr", "vcd", "irrcac", "landis"}
    assert sum(len(p.values) for p in PRINTOUTS) >= 30


# --------------------------------------------------------------------------- exact formulas


tables = st.integers(2, 5).flatmap(
    lambda k: st.lists(st.lists(st.integers(0, 30), min_size=k, max_size=k), min_size=k, max_size=k)
)


@settings(max_examples=examples(150), deadline=None)
@given(table=tables, weights=st.sampled_from(["quadratic", "linear", "unweighted"]))
def test_matches_exact_fraction_formulas(table: list[list[int]], weights: str) -> None:
    exact = reference_kappa_from_table(table, weights)
    if exact is None:
        with pytest.warns(UndefinedKappaWarning):
            result = wk.kappa_test_from_table(table, weights=weights)
        assert math.isnan(result.statistic) and math.isnan(result.standard_error)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # zero null SE (n = 1)
        result = wk.kappa_test_from_table(table, weights=weights)
    assert result.statistic == pytest.approx(float(exact), rel=1e-12, abs=1e-12)
    variance, variance_null = reference_variances(table, weights)
    assert result.standard_error**2 == pytest.approx(float(variance), rel=1e-9, abs=1e-14)
    assert result.standard_error_null**2 == pytest.approx(float(variance_null), rel=1e-9, abs=1e-14)


@settings(max_examples=100, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(1, 3)), max_size=40),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
    weighted=st.booleans(),
)
def test_kappa_test_statistic_matches_fraction_reference(
    pairs: list[tuple[int, int, int]], weights: str, weighted: bool
) -> None:
    """kappa_test on ratings (with integer sample weights) against the exact reference."""
    true = [p[0] for p in pairs] + [0, 4]
    pred = [p[1] for p in pairs] + [4, 0]
    sample_weight = [p[2] for p in pairs] + [1, 1] if weighted else None
    exact = reference_kappa(true, pred, 5, weights, sample_weight)
    assert exact is not None
    result = wk.kappa_test(true, pred, weights=weights, sample_weight=sample_weight)
    assert result.statistic == pytest.approx(float(exact), rel=1e-12, abs=1e-12)
    assert result.n == len(true) if not weighted else sum(sample_weight or [])
    assert np.isfinite(result.standard_error)


def test_statistic_is_the_point_estimate() -> None:
    """kappa_test(...).statistic is exactly what weighted_kappa returns."""
    rng = np.random.default_rng(3)
    for weights in ("quadratic", "linear", "unweighted"):
        a, b = rng.integers(0, 5, 300), rng.integers(0, 5, 300)
        assert wk.kappa_test(a, b, weights=weights).statistic == wk.weighted_kappa(
            a, b, weights=weights
        )


def test_seed_example_and_table_route_agree() -> None:
    actuals = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
    preds = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]
    result = wk.kappa_test(actuals, preds)
    same = wk.kappa_test_from_table(wk.confusion_table(actuals, preds))
    assert result.statistic == same.statistic == wk.qwk(actuals, preds)
    assert result.standard_error == same.standard_error
    assert result.n == 10 and isinstance(result.n, int)
    assert result.labels == (0, 1, 2, 3, 4)


def test_integer_sample_weights_are_frequency_weights() -> None:
    """Weight 2 on a pair is the pair twice: the same table values, so the same SEs."""
    a = np.array([0, 1, 2, 2, 1, 0, 2])
    b = np.array([0, 2, 2, 1, 1, 0, 2])
    w = np.array([1, 2, 3, 1, 1, 2, 1])
    weighted = wk.kappa_test(a, b, sample_weight=w)
    repeated = wk.kappa_test(np.repeat(a, w), np.repeat(b, w))
    assert weighted.statistic == pytest.approx(repeated.statistic, rel=1e-14)
    assert weighted.standard_error == pytest.approx(repeated.standard_error, rel=1e-12)
    assert weighted.n == pytest.approx(repeated.n)


# --------------------------------------------------------------------------- tests and intervals


def test_alternatives_and_pvalue_relations() -> None:
    table = [[12, 3, 1], [2, 9, 4], [1, 2, 6]]
    two = wk.kappa_test_from_table(table, alternative="two-sided")
    greater = wk.kappa_test_from_table(table, alternative="greater")
    less = wk.kappa_test_from_table(table, alternative="less")
    assert greater.pvalue + less.pvalue == pytest.approx(1.0)
    assert two.pvalue == pytest.approx(2 * min(greater.pvalue, less.pvalue))
    assert two.test_statistic == pytest.approx(two.statistic / two.standard_error_null)


def test_pvalue_in_far_tail_is_accurate() -> None:
    """Tail probabilities come from erfc, not 1 - cdf (which would round to 0 here)."""
    stats = pytest.importorskip("scipy.stats")
    result = wk.kappa_test_from_table([[90, 10], [10, 90]], weights="unweighted")
    assert result.test_statistic == pytest.approx(11.3137, abs=1e-4)
    assert 1e-30 < result.pvalue < 1e-28
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(result.test_statistic), rel=1e-12)
    less = wk.kappa_test_from_table([[90, 10], [10, 90]], weights="unweighted", alternative="less")
    assert less.pvalue == pytest.approx(1.0) and less.pvalue <= 1.0


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_interval_monotone_in_level_and_contains_statistic(weights: str) -> None:
    result = wk.kappa_test_from_table([[20, 5, 1], [4, 15, 6], [0, 3, 16]], weights=weights)
    previous = None
    for level in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999):
        low, high = result.confidence_interval(level)
        assert low < result.statistic < high
        assert high - result.statistic == pytest.approx(result.statistic - low)
        if previous is not None:
            assert low < previous[0] and high > previous[1]
        previous = (low, high)


def test_asymptotic_interval_inverts_the_wald_test() -> None:
    """kappa0 is inside the level-(1 - a) interval iff |kappa - kappa0| / SE <= z_(1 - a/2)."""
    result = wk.kappa_test_from_table([[20, 5, 1], [4, 15, 6], [0, 3, 16]])
    for level in (0.8, 0.95, 0.99):
        low, high = result.confidence_interval(level)
        for kappa0 in np.linspace(result.statistic - 0.5, result.statistic + 0.5, 41):
            pvalue = math.erfc(abs(result.statistic - kappa0) / result.standard_error / 2**0.5)
            inside = low <= kappa0 <= high
            if abs(pvalue - (1 - level)) > 1e-9:
                assert inside == (pvalue > 1 - level)


def test_confidence_interval_object() -> None:
    result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
    ci = result.confidence_interval(0.9)
    low, high = ci
    assert (ci.low, ci.high) == (low, high)
    assert ci.method == "asymptotic" and ci.confidence_level == 0.9
    assert ci.n_resamples == 0 and ci.n_undefined == 0


# --------------------------------------------------------------------------- degenerate tables


@pytest.mark.parametrize(
    "table",
    [
        [[7]],  # one category
        [[0, 0], [0, 0]],  # empty table
        [[0, 0], [0, 9]],  # both raters use one category
    ],
)
def test_undefined_kappa_gives_nan_and_one_warning(table: list[list[int]]) -> None:
    with pytest.warns(UndefinedKappaWarning) as record:
        result = wk.kappa_test_from_table(table)
    assert len(record) == 1
    for value in (result.statistic, result.standard_error, result.test_statistic, result.pvalue):
        assert math.isnan(value)
    low, high = result.confidence_interval()
    assert math.isnan(low) and math.isnan(high)
    assert result.interpretation == "undefined"
    assert json.loads(json.dumps(result.to_dict()))["statistic"] is None
    assert "nan" in repr(result)


def test_single_pair_has_no_test() -> None:
    """n = 1 with disagreement: kappa = 0 is defined, its null SE is 0, so no z-test."""
    with pytest.warns(UndefinedKappaWarning, match="null standard error"):
        result = wk.kappa_test_from_table([[0, 1], [0, 0]], weights="unweighted")
    assert result.statistic == 0.0
    assert result.standard_error == 0.0
    assert math.isnan(result.test_statistic) and math.isnan(result.pvalue)


def test_empty_rows_and_columns_are_fine() -> None:
    result = wk.kappa_test_from_table([[5, 0, 2], [0, 0, 0], [1, 0, 7]], weights="linear")
    assert np.isfinite([result.statistic, result.standard_error, result.pvalue]).all()


def test_perfect_agreement() -> None:
    result = wk.kappa_test_from_table([[5, 0], [0, 7]])
    assert result.statistic == 1.0 and result.standard_error == 0.0
    with pytest.warns(UserWarning, match=r"Hint: method='score' gives an interval"):
        assert tuple(result.confidence_interval()) == (1.0, 1.0)
    assert result.interpretation == "almost perfect"


# --------------------------------------------------------------------------- result object


def test_result_is_frozen_and_read_only() -> None:
    result = wk.kappa_test_from_table([[3, 1], [1, 3]], labels=["no", "yes"])
    with pytest.raises(AttributeError):
        result.statistic = 0.5  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.table[0, 0] = 9
    assert result.labels == ("no", "yes")
    np.testing.assert_allclose(result.expected_table, [[2, 2], [2, 2]])


@pytest.mark.parametrize(
    ("kappa", "band"),
    [
        (-0.3, "poor"),
        (-1e-9, "poor"),
        (0.0, "slight"),
        (0.2, "slight"),
        (0.21, "fair"),
        (0.4, "fair"),
        (0.5, "moderate"),
        (0.7, "substantial"),
        (0.8, "substantial"),
        (0.81, "almost perfect"),
        (1.0, "almost perfect"),
    ],
)
def test_landis_koch_bands(kappa: float, band: str) -> None:
    from wkappa._stats.results import interpretation

    assert interpretation(kappa) == band


def test_to_dict_is_json_ready_and_repr_readable() -> None:
    result = wk.kappa_test(
        ["a", "b", "b", "c"], ["a", "b", "c", "c"], labels=np.array(["a", "b", "c"])
    )
    data = json.loads(json.dumps(result.to_dict()))
    assert data["labels"] == ["a", "b", "c"]
    assert data["table"] == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    assert data["confidence_interval"]["method"] == "asymptotic"
    assert data["weights"] == "quadratic"
    text = repr(result)
    assert text.startswith("KappaResult(statistic=") and "95% CI" in text


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alternative": "bigger"}, "alternative"),
        ({"weights": "quadratc"}, "weights"),
        ({"labels": ["a", "b", "c"]}, "labels"),
        ({"labels": "ab"}, "labels"),
    ],
)
def test_bad_options(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.kappa_test_from_table([[3, 1], [1, 3]], **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "table", [[[1, 2, 3]], [[1, -1], [0, 2]], [[np.nan, 1], [1, 1]], [["a", "b"], ["c", "d"]]]
)
def test_bad_tables(table: object) -> None:
    with pytest.raises(WkappaError, match="table"):
        wk.kappa_test_from_table(table)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", [0, 1, 95, -0.5, "0.95", True, None])
def test_bad_confidence_level(level: object) -> None:
    result = wk.kappa_test_from_table([[3, 1], [1, 3]])
    with pytest.raises(WkappaError, match="confidence_level"):
        result.confidence_interval(level)  # type: ignore[arg-type]


def test_bad_method_and_propagate() -> None:
    result = wk.kappa_test_from_table([[3, 1], [1, 3]])
    with pytest.raises(WkappaError, match="method"):
        result.confidence_interval(method="wald")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="propagate"):
        wk.kappa_test([0, 1], [1, 0], nan_policy="propagate")


@pytest.mark.parametrize(
    "y_true, y_pred",
    [(["x", None], [None, "y"]), ([1.0, math.nan], [math.nan, 2.0])],
    ids=["strings", "numbers"],
)
def test_kappa_test_with_every_pair_omitted_is_nan_with_a_warning_at_the_caller(y_true, y_pred):
    # nan_policy='omit' dropping every string pair left a (0, 0) table and kappa_test raised
    # about `table`, a parameter the user never passed; wk.weighted_kappa and
    # wkappa.frames.kappa_test answer nan with an UndefinedKappaWarning.
    with pytest.warns(UndefinedKappaWarning) as record:
        result = wk.kappa_test(y_true, y_pred, weights="unweighted", nan_policy="omit")
    assert record[0].filename == __file__
    assert math.isnan(result.statistic) and math.isnan(result.pvalue)
    assert result.n == 0
    low, high = result.confidence_interval()
    assert math.isnan(low) and math.isnan(high)
    with pytest.warns(UndefinedKappaWarning):
        assert math.isnan(
            wk.weighted_kappa(y_true, y_pred, weights="unweighted", nan_policy="omit")
        )
