"""The 'fisher-z-adjusted' interval of several raters: the chance-mixture variance against
an exact brute-force reference (Fractions, every rating tuple enumerated), the interval's
formula, one-sided intervals, clusters refused and the small-sample recommendation."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa._core import rows_to_counts, t_ppf
from wkappa._stats.chance_mixture import mixture_disagreement_variance
from wkappa.exceptions import WkappaError


def _exact_variance(patterns: list[list[int]], weights: list[list[Fraction]]) -> Fraction:
    """The model's variance by enumeration: every rating tuple of an item's r raters drawn
    from the prevalence, d the mean disagreement of its unordered rater pairs."""
    k = len(weights)
    w = [[(weights[a][b] + weights[b][a]) / 2 for b in range(k)] for a in range(k)]
    rated = [p for p in patterns if sum(p) >= 1]
    pi = [sum(Fraction(p[c], sum(p)) for p in rated) / len(rated) for c in range(k)]
    chance = sum(pi[a] * pi[b] * w[a][b] for a in range(k) for b in range(k))
    two = [p for p in patterns if sum(p) >= 2]

    def disagreement(ratings: list[int]) -> Fraction:
        pairs = list(itertools.combinations(ratings, 2))
        return sum((w[a][b] for a, b in pairs), Fraction(0)) / len(pairs)

    observed = sum(disagreement([c for c in range(k) for _ in range(p[c])]) for p in two) / len(two)
    second = Fraction(0)
    for p in two:
        for ratings in itertools.product(range(k), repeat=sum(p)):
            probability = math.prod((pi[c] for c in ratings), start=Fraction(1))
            second += probability * disagreement(list(ratings)) ** 2
    second /= len(two)
    theta = min(Fraction(1), observed / chance)
    return max(Fraction(0), theta * second - observed * observed)


@settings(max_examples=25, deadline=None)
@given(
    codes=st.lists(st.lists(st.integers(-1, 2), min_size=4, max_size=4), min_size=3, max_size=8),
    asymmetric=st.booleans(),
)
def test_mixture_variance_equals_the_enumerated_model(codes, asymmetric) -> None:
    rows = np.array(codes, dtype=np.int64)
    counts = rows_to_counts(rows, 3)
    if not (counts.sum(axis=1) >= 2).any():
        return
    weights = [[Fraction(abs(a - b) ** 2, 4) for b in range(3)] for a in range(3)]
    if asymmetric:
        weights[0][2] = Fraction(1, 3)
    matrix = np.array([[float(x) for x in row] for row in weights])
    got = mixture_disagreement_variance(counts, np.ones(len(counts), dtype=np.int64), matrix)
    rated = [list(map(int, p)) for p in counts if p.sum() >= 1]
    pi = np.mean([np.array(p) / sum(p) for p in rated], axis=0)
    if pi @ ((matrix + matrix.T) / 2) @ pi <= 0:
        assert got == 0.0
        return
    assert got == pytest.approx(float(_exact_variance(rated, weights)), rel=1e-12, abs=1e-15)


def test_multiplicities_are_repeated_items() -> None:
    rng = np.random.default_rng(3)
    counts = rows_to_counts(rng.integers(-1, 4, (12, 5)), 4)
    repeat = rng.integers(1, 4, 12)
    matrix = np.subtract.outer(np.arange(4), np.arange(4)) ** 2 / 9.0
    expanded = np.repeat(counts, repeat, axis=0)
    assert mixture_disagreement_variance(counts, repeat, matrix) == pytest.approx(
        mixture_disagreement_variance(expanded, np.ones(len(expanded), np.int64), matrix),
        rel=1e-12,
    )


def _ratings(seed: int, n: int = 30, accuracy: float = 0.8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    grade = rng.integers(0, 4, n)[:, None]
    noise = rng.integers(0, 4, (n, 4))
    ratings = np.where(rng.random((n, 4)) < accuracy, grade, noise).astype(float)
    ratings[rng.random((n, 4)) < 0.1] = np.nan
    return ratings


@pytest.mark.parametrize("coefficient", ["fleiss", "gwet", "conger", "krippendorff", "percent"])
@pytest.mark.parametrize("population_size", [None, 90])
def test_interval_formula(coefficient: str, population_size: int | None) -> None:
    ratings = _ratings(5)
    result = wk.agreement(
        ratings, coefficient=coefficient, weights="quadratic", population_size=population_size
    )
    codes = np.where(np.isnan(ratings), -1, ratings).astype(np.int64)
    counts = rows_to_counts(codes[(codes >= 0).any(axis=1)], 4)
    matrix = result.weight_matrix
    variance = float(
        _exact_variance(
            [list(map(int, p)) for p in counts],
            [[Fraction(float(x)) for x in row] for row in matrix],
        )
    )
    n, n2 = result.n_items, int((counts.sum(axis=1) >= 2).sum())
    fraction = 0 if population_size is None else n / population_size
    for level in (0.9, 0.95):
        q = t_ppf(0.5 + level / 2, n - 1)
        extra = q * q * (n / n2) ** 2 * variance / (1 - result.chance_agreement) ** 2
        se = math.sqrt(result.standard_error**2 + (1 - fraction) * extra / (n * (n - 1)))
        c = result.statistic
        half = q * se / (1 - c * c)
        ci = result.confidence_interval(level, method="fisher-z-adjusted")
        assert (ci.low, ci.high) == pytest.approx(
            (math.tanh(math.atanh(c) - half), math.tanh(math.atanh(c) + half)), rel=1e-10
        )
        assert ci.method == "fisher-z-adjusted" and ci.n_resamples == 0
        plain = result.confidence_interval(level, method="fisher-z")
        assert ci.low <= plain.low and ci.high >= plain.high


def test_one_sided_is_the_two_sided_limit() -> None:
    ratings = _ratings(6)
    two = wk.agreement(ratings, coefficient="gwet", weights="quadratic")
    greater = wk.agreement(ratings, coefficient="gwet", weights="quadratic", alternative="greater")
    less = wk.agreement(ratings, coefficient="gwet", weights="quadratic", alternative="less")
    reference = two.confidence_interval(0.9, method="fisher-z-adjusted")
    assert tuple(greater.confidence_interval(0.95, method="fisher-z-adjusted")) == (
        pytest.approx(reference.low, rel=1e-12),
        1.0,
    )
    low, high = less.confidence_interval(0.95, method="fisher-z-adjusted")
    assert low == -math.inf and high == pytest.approx(reference.high, rel=1e-12)


def test_ends_and_undefined() -> None:
    perfect = wk.agreement([[1, 1, 1], [2, 2, 2], [3, 3, 3], [1, 1, 1]], weights="quadratic")
    assert tuple(perfect.confidence_interval(method="fisher-z-adjusted")) == (1.0, 1.0)
    nan = wk.agreement([[1, 2, np.nan], [2, 2, 2]], nan_policy="propagate")
    assert all(math.isnan(x) for x in nan.confidence_interval(method="fisher-z-adjusted"))


def test_clusters_are_refused() -> None:
    result = wk.agreement(_ratings(7), weights="quadratic", cluster=np.arange(30) // 3)
    with pytest.raises(WkappaError, match=r"not available with `cluster`.*fisher-z"):
        result.confidence_interval(method="fisher-z-adjusted")


def test_unknown_method_lists_it() -> None:
    with pytest.raises(WkappaError, match="'fisher-z-adjusted'"):
        wk.agreement(_ratings(8)).confidence_interval(method="wilson")


def test_recommendation() -> None:
    weighted = wk.agreement(_ratings(9), coefficient="gwet", weights="quadratic")
    assert "items < 200: method='fisher-z-adjusted' recommended" in repr(weighted)
    text = weighted.explain()
    assert "confidence_interval(method='fisher-z-adjusted') is recommended" in text
    low, high = weighted.confidence_interval(method="fisher-z-adjusted")
    assert f"[{low:.6g}, {high:.6g}]" in text
    clustered = wk.agreement(_ratings(9), weights="quadratic", cluster=np.arange(30) // 3)
    assert "method='fisher-z' recommended" in repr(clustered)
    plain = wk.agreement(_ratings(9))
    assert "method='fisher-z-jackknife' recommended" in repr(plain)
