"""optimize_thresholds against a brute-force search over every monotone assignment."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from reference import reference_kappa, reference_weights

WEIGHT_KINDS = ("quadratic", "linear", "unweighted", "custom_int", "custom_float")


@cache
def _sequences(n_blocks: int, k: int) -> np.ndarray:
    """Every non-decreasing sequence of n_blocks classes in 0..k-1, shape (S, n_blocks)."""
    return np.array(list(itertools.combinations_with_replacement(range(k), n_blocks)))


def _problem(rng: np.random.Generator) -> dict:
    n = int(rng.integers(2, 13))
    k = int(rng.integers(2, 6))
    while True:
        truth = rng.integers(0, k, size=n)
        if len(np.unique(truth)) >= 2:
            break
    n_values = int(rng.integers(1, n + 1))  # few distinct values: many ties
    scale = rng.choice([1.0, 0.1, 1 / 3, 1e-7, 1e6])
    scores = rng.integers(0, n_values, size=n) * scale + rng.normal() * 10
    kind = str(rng.choice(WEIGHT_KINDS))
    weights: object = kind
    if kind.startswith("custom"):  # disagreement weights: any non-negative off-diagonal entries
        matrix = (
            rng.integers(0, 6, size=(k, k)) if kind == "custom_int" else rng.uniform(0, 1, (k, k))
        )
        np.fill_diagonal(matrix, 0)
        weights = matrix
    sample = rng.choice(["none", "int", "float"], p=[0.5, 0.3, 0.2])
    sample_weight = None
    if sample == "int":
        sample_weight = rng.integers(0, 4, size=n)
        if len(np.unique(truth[sample_weight > 0])) < 2:
            sample_weight[:] = 1
    elif sample == "float":
        sample_weight = rng.uniform(0.1, 3.0, size=n)
    return {
        "truth": truth,
        "scores": scores,
        "k": k,
        "weights": weights,
        "sample_weight": sample_weight,
    }


def _brute_force(problem: dict) -> tuple[Fraction | None, float | None]:
    """The best kappa over every monotone assignment: exact Fraction (integral data) or float."""
    truth, scores, k = problem["truth"], problem["scores"], problem["k"]
    weights, sample_weight = problem["weights"], problem["sample_weight"]
    values, block = np.unique(scores, return_inverse=True)
    n_blocks = len(values)
    w = np.ones(len(truth)) if sample_weight is None else np.asarray(sample_weight, float)
    hist = np.zeros((n_blocks, k))
    np.add.at(hist, (block, truth), w)
    if isinstance(weights, str):
        matrix = np.array(reference_weights(weights, k), dtype=object)
        matrix = (matrix * max(k - 1, 1) ** (2 if weights == "quadratic" else 1)).astype(float)
    else:
        matrix = np.asarray(weights, dtype=float)
    integral = np.all(matrix == np.round(matrix)) and np.all(w == np.round(w))
    dtype = np.int64 if integral else np.float64
    matrix = matrix.astype(dtype)
    hist = hist.astype(dtype)
    rows = hist.sum(axis=0)
    block_weight = hist.sum(axis=1)
    cost = hist @ matrix  # cost[b, j]: observed disagreement of block b as class j
    expected = matrix.T @ rows  # u[j]
    seqs = _sequences(n_blocks, k)
    observed = cost[np.arange(n_blocks), seqs].sum(axis=1)
    denominator = (block_weight * expected[seqs]).sum(axis=1)
    ok = denominator > 0
    if not ok.any():
        return None, None
    observed, denominator = observed[ok], denominator[ok]
    total = rows.sum()
    if integral:
        best = int(np.argmin(observed / denominator))
        while True:  # exact: no sequence may have a strictly smaller N/D
            worse = observed * denominator[best] < observed[best] * denominator
            if not worse.any():
                break
            best = int(np.flatnonzero(worse)[0])
        exact = 1 - Fraction(int(total)) * Fraction(int(observed[best]), int(denominator[best]))
        return exact, float(exact)
    return None, float(np.max(1 - total * observed / denominator))


def _check(problem: dict) -> None:
    truth, scores, k = problem["truth"], problem["scores"], problem["k"]
    weights = problem["weights"]
    exact, best = _brute_force(problem)
    kwargs = {"weights": weights, "sample_weight": problem["sample_weight"]}
    if best is None:
        with pytest.raises(wk.WkappaError, match="undefined for every assignment"):
            wk.optimize_thresholds(truth, scores, min_rating=0, max_rating=k - 1, **kwargs)
        return
    result = wk.optimize_thresholds(truth, scores, min_rating=0, max_rating=k - 1, **kwargs)
    predicted = result.predict(scores)
    assert result.labels == tuple(range(k))
    assert np.all(np.diff(result.thresholds) >= 0)
    # Tied scores share a class and classes follow the scores.
    order = np.argsort(scores, kind="stable")
    assert np.all(np.diff(predicted[order]) >= 0)
    again = wk.weighted_kappa(truth, predicted, labels=result.labels, **kwargs)
    assert again == result.statistic, (again, result, problem)
    if exact is not None:
        reached = reference_kappa(
            truth.tolist(),
            predicted.tolist(),
            k,
            weights if isinstance(weights, str) else weights.tolist(),
            None if problem["sample_weight"] is None else problem["sample_weight"].tolist(),
        )
        assert reached == exact, (reached, exact, problem)
        assert result.exact
        assert result.statistic == pytest.approx(float(exact), abs=1e-12)
    else:
        assert result.statistic == pytest.approx(best, abs=1e-9), (result, best, problem)


@pytest.mark.parametrize("seed", range(10))
def test_matches_brute_force_on_random_small_problems(seed: int) -> None:
    """2,500 problems in all: n <= 12, K <= 5, ties, every weight kind, sample weights."""
    rng = np.random.default_rng(1000 + seed)
    for _ in range(250):
        _check(_problem(rng))


@settings(max_examples=examples(150), deadline=None)
@given(
    truth=st.lists(st.integers(0, 3), min_size=2, max_size=9),
    data=st.data(),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_hypothesis_optimum_is_global(truth: list[int], data: st.DataObject, weights: str) -> None:
    if len(set(truth)) < 2:
        return
    scores = data.draw(
        st.lists(
            st.sampled_from([-1.5, 0.0, 0.25, 1.0, 2.0, 7.0]),
            min_size=len(truth),
            max_size=len(truth),
        )
    )
    _check(
        {
            "truth": np.array(truth),
            "scores": np.array(scores),
            "k": 4,
            "weights": weights,
            "sample_weight": None,
        }
    )


def test_sample_weights_equal_repetition() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        n = int(rng.integers(3, 15))
        truth = rng.integers(0, 4, size=n)
        truth[:2] = [0, 3]
        scores = rng.integers(0, 6, size=n) / 2
        repeats = rng.integers(1, 4, size=n)
        weighted = wk.optimize_thresholds(
            truth, scores, sample_weight=repeats, weights="linear", min_rating=0, max_rating=3
        )
        repeated = wk.optimize_thresholds(
            np.repeat(truth, repeats),
            np.repeat(scores, repeats),
            weights="linear",
            min_rating=0,
            max_rating=3,
        )
        assert weighted.statistic == pytest.approx(repeated.statistic, abs=1e-12)
        ones = wk.optimize_thresholds(truth, scores, sample_weight=np.ones(n))
        plain = wk.optimize_thresholds(truth, scores)
        assert ones.statistic == pytest.approx(plain.statistic, abs=1e-15)
        np.testing.assert_array_equal(ones.thresholds, plain.thresholds)


def test_float_dp_fallback_matches_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """The float64 DP used when integer sums could overflow int64 (large n) finds the optimum."""
    from wkappa._stats import threshold_search as _threshold_search

    monkeypatch.setattr(_threshold_search, "_INT_SAFE", 0)
    rng = np.random.default_rng(77)
    for _ in range(300):
        problem = _problem(rng)
        problem["weights"] = str(rng.choice(["quadratic", "linear", "unweighted"]))
        problem["sample_weight"] = None
        exact, _ = _brute_force(problem)
        result = wk.optimize_thresholds(
            problem["truth"],
            problem["scores"],
            weights=problem["weights"],
            min_rating=0,
            max_rating=problem["k"] - 1,
        )
        assert not result.exact or result.n_iter == 0
        reached = reference_kappa(
            problem["truth"].tolist(),
            result.predict(problem["scores"]).tolist(),
            problem["k"],
            problem["weights"],
        )
        assert reached == exact
