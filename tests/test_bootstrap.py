"""The table bootstrap: percentile and BCa intervals, the jackknife, seeds, undefined replicates."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wkappa as wk
from wkappa._core import integer_weights
from wkappa._core.statistic import cell_kappas
from wkappa._stats import bootstrap as _bootstrap
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

pytestmark = pytest.mark.filterwarnings("error")

TABLE = np.array([[20, 5, 1, 0], [4, 15, 6, 1], [0, 3, 16, 4], [1, 0, 5, 12]])


def _pairs(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_batch_kappa_equals_kappa_of_each_replicate(weights: str) -> None:
    matrix = wk.kappa_test_from_table(TABLE, weights=weights).weight_matrix
    cells = _bootstrap.nonzero_cells(TABLE)
    rows, cols = cells.coords
    replicates = _bootstrap.draw(cells, 50, np.random.default_rng(0))
    values = cell_kappas(replicates, rows, cols, matrix)
    for replicate, value in zip(replicates, values, strict=True):
        table = np.zeros(TABLE.shape, dtype=np.int64)
        table[rows, cols] = replicate.astype(np.int64)
        assert value == pytest.approx(wk.kappa_from_table(table, weights=weights), abs=1e-13)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_batch_kappa_with_integer_weights_is_exact(weights: str) -> None:
    matrix = wk.kappa_test_from_table(TABLE, weights=weights).weight_matrix
    integer = integer_weights(matrix, matrix.shape[0])
    cells = _bootstrap.nonzero_cells(TABLE)
    rows, cols = cells.coords
    replicates = _bootstrap.draw(cells, 50, np.random.default_rng(0))
    values = cell_kappas(replicates, rows, cols, matrix, integer)
    for replicate, value in zip(replicates, values, strict=True):
        table = np.zeros(TABLE.shape, dtype=np.int64)
        table[rows, cols] = replicate.astype(np.int64)
        assert value == wk.kappa_from_table(table, weights=weights)


def test_batch_kappa_adds_the_counts_of_a_repeated_cell() -> None:
    """Cells given more than once (a paired table's (truth, prediction) cells) are added."""
    w = np.abs(np.subtract.outer(np.arange(4), np.arange(4))) ** 1.5
    cells = _bootstrap.nonzero_cells(TABLE)
    rows, cols = cells.coords
    replicates = _bootstrap.draw(cells, 20, np.random.default_rng(1))
    split = np.concatenate([replicates, replicates], axis=1) / 2.0
    again = cell_kappas(split, np.tile(rows, 2), np.tile(cols, 2), w)
    assert np.allclose(again, cell_kappas(replicates, rows, cols, w), rtol=0, atol=1e-14)


def test_table_bootstrap_is_the_pair_bootstrap() -> None:
    """Resampling the table's cells has the distribution of resampling the n pairs."""
    true, pred = _pairs(TABLE)
    n = true.size
    rng = np.random.default_rng(1)
    matrix = wk.kappa_test_from_table(TABLE).weight_matrix
    table_way = _bootstrap.replicate_kappas(TABLE, matrix, 4000, rng)
    pair_way = np.empty(4000)
    for b in range(pair_way.size):
        pick = rng.integers(0, n, n)
        pair_way[b] = wk.qwk(true[pick], pred[pick], labels=range(4))
    se = table_way.std()
    assert abs(table_way.mean() - pair_way.mean()) < 4 * se / math.sqrt(2000)
    assert table_way.std() == pytest.approx(pair_way.std(), rel=0.08)
    assert np.quantile(table_way, 0.025) == pytest.approx(np.quantile(pair_way, 0.025), abs=0.02)


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_table_jackknife_equals_leave_one_out(weights: str) -> None:
    table = np.array([[3, 1, 0], [2, 4, 1], [0, 1, 1]])
    matrix = wk.kappa_test_from_table(table, weights=weights).weight_matrix
    values, counts = _bootstrap.jackknife(table, matrix)
    rows, cols = np.nonzero(table)
    for value, count, i, j in zip(values, counts, rows, cols, strict=True):
        smaller = table.copy()
        smaller[i, j] -= 1
        assert count == table[i, j]
        assert value == pytest.approx(wk.kappa_from_table(smaller, weights=weights), abs=1e-13)


def test_bca_agrees_with_scipy_bootstrap() -> None:
    """scipy.stats.bootstrap (BCa, resampling the pairs) and the table BCa agree to MC error."""
    stats = pytest.importorskip("scipy.stats")
    true, pred = _pairs(TABLE)

    def statistic(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.apply_along_axis(
            lambda row: wk.qwk(row[: a.shape[-1]], row[a.shape[-1] :], labels=range(4)),
            axis,
            np.concatenate([a, b], axis=axis),
        )

    peer = stats.bootstrap(
        (true, pred),
        statistic,
        paired=True,
        vectorized=True,
        n_resamples=3000,
        method="BCa",
        random_state=np.random.default_rng(5),
    ).confidence_interval
    result = wk.kappa_test_from_table(TABLE)
    ours = result.confidence_interval(method=wk.BootstrapMethod(20000, method="bca", rng=5))
    assert ours.low == pytest.approx(peer.low, abs=0.015)
    assert ours.high == pytest.approx(peer.high, abs=0.015)


def test_same_seed_same_interval_and_generators_advance() -> None:
    result = wk.kappa_test_from_table(TABLE)
    for method in ("percentile", "bca"):
        first = result.confidence_interval(method=wk.BootstrapMethod(999, method=method, rng=42))
        again = result.confidence_interval(method=wk.BootstrapMethod(999, method=method, rng=42))
        other = result.confidence_interval(method=wk.BootstrapMethod(999, method=method, rng=43))
        assert first == again and first != other
    generator = np.random.default_rng(7)
    method = wk.BootstrapMethod(999, rng=generator)
    assert result.confidence_interval(method=method) != result.confidence_interval(method=method)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_bootstrap_interval_monotone_and_contains_statistic(method: str) -> None:
    result = wk.kappa_test_from_table(TABLE, weights="linear")
    previous = None
    for level in (0.5, 0.8, 0.9, 0.95, 0.99):
        ci = result.confidence_interval(level, method=wk.BootstrapMethod(4999, method, rng=3))
        assert ci.low < result.statistic < ci.high
        assert ci.method == method and ci.n_resamples == 4999 and ci.n_undefined == 0
        if previous is not None:
            assert ci.low <= previous.low and ci.high >= previous.high
        previous = ci


def test_bootstrap_close_to_asymptotic_for_large_n() -> None:
    result = wk.kappa_test_from_table(TABLE * 500)
    asymptotic = result.confidence_interval()
    for method in ("percentile", "bca"):
        boot = result.confidence_interval(method=wk.BootstrapMethod(9999, method, rng=0))
        assert boot.low == pytest.approx(asymptotic.low, abs=0.004)
        assert boot.high == pytest.approx(asymptotic.high, abs=0.004)


def test_method_strings() -> None:
    result = wk.kappa_test_from_table(TABLE)
    assert result.confidence_interval(method="bootstrap").method == "percentile"
    assert result.confidence_interval(method="bca").method == "bca"
    assert result.confidence_interval(method="bootstrap").n_resamples == 9999


def test_undefined_replicates_are_dropped_counted_and_warned() -> None:
    """n = 4 with one rare category: about 32% of replicates have every pair in one cell."""
    result = wk.kappa_test_from_table([[3, 0], [0, 1]], weights="unweighted")
    with pytest.warns(UndefinedKappaWarning, match="dropped"):
        ci = result.confidence_interval(method=wk.BootstrapMethod(4000, rng=0))
    expected = 4000 * (0.75**4 + 0.25**4)
    assert abs(ci.n_undefined - expected) < 5 * math.sqrt(expected)
    assert ci.low <= ci.high <= 1.0


def test_bca_with_perfect_agreement_and_one_sided_replicates() -> None:
    """Ties split evenly, so a constant bootstrap distribution gives (1, 1); replicates all on
    one side of the statistic make BCa undefined (nan with a warning)."""
    result = wk.kappa_test_from_table([[30, 0], [0, 30]])
    ci = result.confidence_interval(method=wk.BootstrapMethod(999, "bca", rng=0))
    assert (ci.low, ci.high) == (1.0, 1.0)
    assert tuple(result.confidence_interval(method="bootstrap")) == (1.0, 1.0)
    values = np.linspace(0.1, 0.4, 50)
    with pytest.warns(UndefinedKappaWarning, match="BCa"):
        low, high = _bootstrap.bca_interval(values, 0.5, values, np.ones(50), 0.95)
    assert math.isnan(low) and math.isnan(high)


def test_undefined_statistic_gives_nan_interval() -> None:
    with pytest.warns(UndefinedKappaWarning):
        result = wk.kappa_test_from_table([[5, 0], [0, 0]])
    ci = result.confidence_interval(method=wk.BootstrapMethod(99, rng=0))
    assert math.isnan(ci.low) and math.isnan(ci.high) and ci.n_undefined == 99


def test_weighted_table_uses_frequency_weights() -> None:
    """Float counts: sum(O) pairs are drawn with probabilities O / sum(O)."""
    doubled = wk.kappa_test_from_table(TABLE * 2.0)
    full = wk.kappa_test_from_table(TABLE)
    method = wk.BootstrapMethod(4999, rng=1)
    narrow = doubled.confidence_interval(method=method)
    wide = full.confidence_interval(method=method)
    assert doubled.statistic == pytest.approx(full.statistic)
    assert wide.high - wide.low > 1.2 * (narrow.high - narrow.low)
    # the asymptotic SE reads the weighted total as n as well
    assert full.standard_error == pytest.approx(doubled.standard_error * math.sqrt(2))
    bca = doubled.confidence_interval(method=wk.BootstrapMethod(999, "bca", rng=1))
    assert bca.low < doubled.statistic < bca.high
    # counts that are not whole numbers are no frequencies: refused, not drawn round(sum) times
    with pytest.raises(WkappaError, match="`table` must give whole-number counts"):
        wk.kappa_test_from_table(TABLE / 2.0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_resamples": 0}, "n_resamples"),
        ({"n_resamples": 2.5}, "n_resamples"),
        ({"n_resamples": True}, "n_resamples"),
        ({"method": "basic"}, "method"),
        ({"rng": -1}, "rng"),
        ({"rng": "seed"}, "rng"),
        ({"rng": 1.5}, "rng"),
    ],
)
def test_bad_bootstrap_method(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.BootstrapMethod(**kwargs)  # type: ignore[arg-type]
