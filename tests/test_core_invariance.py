"""Invariance laws of weighted kappa (design §6), as property tests."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples

WEIGHTS = ["quadratic", "linear", "unweighted"]

_SETTINGS = settings(max_examples=examples(150), deadline=None, derandomize=True, database=None)


@st.composite
def ratings(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, str]:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(2, 10))
    n = draw(st.integers(2, 80))
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, n))
    # Fix the categories so that every variant below has the same K.
    return y_true, y_pred, draw(st.sampled_from(WEIGHTS))


def _kappa(y_true: Any, y_pred: Any, weights: Any, **kwargs: Any) -> float:
    return wk.weighted_kappa(y_true, y_pred, weights=weights, zero_division=-1.0, **kwargs)


@_SETTINGS
@given(drawn=ratings())
def test_sample_weight_of_ones_equals_none(drawn: tuple[np.ndarray, np.ndarray, str]) -> None:
    y_true, y_pred, weights = drawn
    plain = _kappa(y_true, y_pred, weights)
    for ones in (np.ones(len(y_true)), np.ones(len(y_true), dtype=np.int64)):
        assert _kappa(y_true, y_pred, weights, sample_weight=ones) == plain
        assert np.array_equal(
            wk.confusion_table(y_true, y_pred, sample_weight=ones),
            wk.confusion_table(y_true, y_pred),
        )


@_SETTINGS
@given(drawn=ratings(), seed=st.integers(0, 2**32 - 1))
def test_integer_weights_equal_repetition(
    drawn: tuple[np.ndarray, np.ndarray, str], seed: int
) -> None:
    y_true, y_pred, weights = drawn
    counts = np.random.default_rng(seed).integers(0, 5, len(y_true))
    counts[0] = max(counts[0], 1)
    bounds = {"min_rating": 0, "max_rating": int(max(y_true.max(), y_pred.max()))}
    repeated = _kappa(np.repeat(y_true, counts), np.repeat(y_pred, counts), weights, **bounds)
    weighted = _kappa(y_true, y_pred, weights, sample_weight=counts, **bounds)
    # Both are exact (integer arithmetic, one correctly rounded division): equal to the bit.
    assert weighted == repeated
    assert np.array_equal(
        wk.confusion_table(y_true, y_pred, sample_weight=counts, **bounds),
        wk.confusion_table(np.repeat(y_true, counts), np.repeat(y_pred, counts), **bounds),
    )


@_SETTINGS
@given(drawn=ratings(), scale=st.sampled_from([0.001, 0.5, 3.0, 1e6]))
def test_scaling_all_sample_weights_changes_nothing(
    drawn: tuple[np.ndarray, np.ndarray, str], scale: float
) -> None:
    y_true, y_pred, weights = drawn
    base = np.linspace(0.5, 2.0, len(y_true))
    assert _kappa(y_true, y_pred, weights, sample_weight=base * scale) == pytest.approx(
        _kappa(y_true, y_pred, weights, sample_weight=base), abs=1e-12
    )


@_SETTINGS
@given(drawn=ratings(), seed=st.integers(0, 2**32 - 1))
def test_swapping_raters_keeps_symmetric_weight_kappa(
    drawn: tuple[np.ndarray, np.ndarray, str], seed: int
) -> None:
    y_true, y_pred, weights = drawn
    sample_weight = np.random.default_rng(seed).uniform(0, 3, len(y_true))
    for sw in (None, sample_weight):
        assert _kappa(y_pred, y_true, weights, sample_weight=sw) == pytest.approx(
            _kappa(y_true, y_pred, weights, sample_weight=sw), abs=1e-13
        )
    # The table is transposed; an asymmetric custom matrix must be transposed with it.
    assert np.array_equal(wk.confusion_table(y_pred, y_true), wk.confusion_table(y_true, y_pred).T)
    k = int(max(y_true.max(), y_pred.max()) - min(y_true.min(), y_pred.min())) + 1
    matrix = np.random.default_rng(seed).uniform(0, 1, (k, k))
    np.fill_diagonal(matrix, 0)
    assert _kappa(y_pred, y_true, matrix.T) == pytest.approx(
        _kappa(y_true, y_pred, matrix), abs=1e-13
    )


@_SETTINGS
@given(drawn=ratings(), seed=st.integers(0, 2**32 - 1))
def test_kappa_from_confusion_table_equals_direct_call(
    drawn: tuple[np.ndarray, np.ndarray, str], seed: int
) -> None:
    y_true, y_pred, weights = drawn
    sample_weight = np.random.default_rng(seed).uniform(0, 3, len(y_true))
    for sw in (None, sample_weight):
        table = wk.confusion_table(y_true, y_pred, sample_weight=sw)
        assert wk.kappa_from_table(table, weights=weights, zero_division=-1.0) == pytest.approx(
            _kappa(y_true, y_pred, weights, sample_weight=sw), abs=1e-13
        )


@_SETTINGS
@given(drawn=ratings(), seed=st.integers(0, 2**32 - 1))
def test_permuting_pairs_changes_nothing(
    drawn: tuple[np.ndarray, np.ndarray, str], seed: int
) -> None:
    y_true, y_pred, weights = drawn
    order = np.random.default_rng(seed).permutation(len(y_true))
    assert _kappa(y_true[order], y_pred[order], weights) == pytest.approx(
        _kappa(y_true, y_pred, weights), abs=1e-13
    )


@_SETTINGS
@given(drawn=ratings(), shift=st.integers(-1000, 1000))
def test_shifting_integer_ratings_changes_nothing(
    drawn: tuple[np.ndarray, np.ndarray, str], shift: int
) -> None:
    """Only category positions matter: ratings r and r + c give the same kappa."""
    y_true, y_pred, weights = drawn
    assert _kappa(y_true + shift, y_pred + shift, weights) == _kappa(y_true, y_pred, weights)


def test_quadratic_kappa_is_exactly_the_same_through_every_path() -> None:
    """The five-sum QWK, the table QWK and the custom-matrix QWK agree."""
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 6, 500)
    y_pred = np.clip(y_true + rng.integers(-1, 2, 500), 0, 5)
    index = np.arange(6)
    matrix = (index[:, None] - index[None, :]) ** 2 / 25
    direct = wk.qwk(y_true, y_pred)
    assert wk.weighted_kappa(y_true, y_pred, weights=matrix) == pytest.approx(direct, abs=1e-14)
    assert wk.kappa_from_table(wk.confusion_table(y_true, y_pred)) == direct
    table = wk.confusion_table(y_true, y_pred).astype(float)
    assert wk.kappa_from_table(table) == pytest.approx(direct, abs=1e-14)


@pytest.mark.parametrize("k", [3, 12, 95])
def test_float_kappas_and_variances_of_a_stack_are_each_tables_own_bit_for_bit(k) -> None:
    # Elementwise products and sums along fixed axes: no BLAS, and no einsum, which splits
    # a sum of more than 8192 terms (K >= 91) by the shape of the stack.
    from wkappa._core import kappas, variances

    rng = np.random.default_rng(k)
    tables = rng.random((5, k, k)) * 10.0 + np.diag(rng.random(k) * 40.0)
    weights = np.subtract.outer(np.arange(k), np.arange(k)) ** 2 / (k - 1.0) ** 2
    stacked = kappas(tables, weights)
    variance, variance_null = variances(tables, weights, stacked)
    for g in range(5):
        alone = np.asfortranarray(tables[g])
        assert kappas(alone, weights) == stacked[g]
        assert variances(alone, weights, stacked[g]) == (variance[g], variance_null[g])
