"""Property tests: wkappa against the exact Fraction reference (tests/reference.py).

Every public entry point of the core (``weighted_kappa``, ``quadratic_weighted_kappa``,
``confusion_table``, ``kappa_from_table``) is compared with design §2 computed in exact rational
arithmetic, over random K from 2 to 12, random gaps (unused interior categories and
``min_rating`` / ``max_rating`` beyond the data), integer ratings and string labels, all four
kinds of weights, and no / integer / float sample weights.

The runs are derandomised (the same examples on every run, no example database), so CI is
reproducible; the example counts add up to 2,600 per run (see ``_EXAMPLES``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from reference import reference_kappa, reference_kappa_from_table, reference_table

TOLERANCE = 1e-12

# max_examples of each property test below; their sum is the examples per run.
_EXAMPLES = {"kappa": 1600, "table": 500, "from_table": 500}
assert sum(_EXAMPLES.values()) >= 2000


def _settings(name: str) -> Any:
    return settings(
        max_examples=examples(_EXAMPLES[name]),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@dataclass
class Case:
    """One random problem: the public call's arguments and what the reference needs."""

    y_true: Any
    y_pred: Any
    kwargs: dict[str, Any]
    true_index: list[int]
    pred_index: list[int]
    k: int
    sample_weight: list[Any] | None
    weights: Any

    def __repr__(self) -> str:  # hypothesis prints this for a failing example
        return f"Case(y_true={self.y_true!r}, y_pred={self.y_pred!r}, kwargs={self.kwargs!r})"


def _sample_weights(
    draw: st.DrawFn, rng: np.random.Generator, n: int, dyadic: bool = False
) -> np.ndarray | None:
    kind = draw(st.sampled_from(["none", "int", "float"]))
    if kind == "none":
        return None
    zero = rng.random(n) < draw(st.sampled_from([0.0, 0.3]))  # some pairs weighted out
    if kind == "int":
        weights = rng.integers(0, 21, n)
    elif dyadic:  # multiples of 1/8: float sums are exact, so tables can be compared exactly
        weights = rng.integers(0, 801, n) / 8
    else:
        weights = rng.uniform(1e-3, 100.0, n) * 10.0 ** rng.integers(-2, 3, n)
    return np.where(zero, 0, weights)


def _weights(draw: st.DrawFn, rng: np.random.Generator, k: int) -> Any:
    kind = draw(st.sampled_from(["quadratic", "linear", "unweighted", "custom"]))
    if kind != "custom":
        return kind
    matrix = rng.uniform(0.0, 10.0, (k, k))
    matrix[rng.random((k, k)) < draw(st.sampled_from([0.0, 0.3, 0.9]))] = 0.0
    np.fill_diagonal(matrix, 0.0)  # disagreement weights (a non-zero diagonal is refused)
    return matrix


@st.composite
def rating_cases(draw: st.DrawFn, dyadic: bool = False) -> Case:
    """Ratings with gaps, as integers (Kaggle range rule) or strings with ``labels``.

    Hypothesis draws the structure (K, n, which categories are used, bounds, input kind,
    weights kind); a numpy generator seeded by hypothesis fills in the values, which keeps
    thousands of examples fast.
    """
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k_span = draw(st.integers(2, 12))
    n = draw(st.one_of(st.integers(1, 4), st.integers(1, 60)))
    n_used = draw(st.integers(1, k_span))
    used = rng.choice(k_span, n_used, replace=False)
    true_pos = rng.choice(used, n).tolist()
    pred_pos = rng.choice(used, n).tolist()
    if draw(st.booleans()):  # raters that mostly agree
        agree = rng.random(n) < 0.7
        pred_pos = [t if a else p for t, p, a in zip(true_pos, pred_pos, agree, strict=True)]
    sample_weight = _sample_weights(draw, rng, n, dyadic)
    # int and float arrays take the fused fast path; object arrays (like any input it does not
    # take) and labels take the strict encoding path. Both must match the reference.
    mode = draw(st.sampled_from(["int", "float", "object", "labels"]))
    kwargs: dict[str, Any] = {}
    if mode == "labels":
        # Categories named in a random order; a category's index is its position in labels.
        names = [f"grade-{j:02d}" for j in rng.permutation(k_span)]
        y_true: Any = [names[p] for p in true_pos]
        y_pred: Any = [names[p] for p in pred_pos]
        kwargs["labels"] = names
        true_index, pred_index, k = true_pos, pred_pos, k_span
    else:
        offset = draw(st.integers(-6, 6))
        ratings_true = [p + offset for p in true_pos]
        ratings_pred = [p + offset for p in pred_pos]
        lo = min(ratings_true + ratings_pred)
        hi = max(ratings_true + ratings_pred)
        if draw(st.booleans()):
            lo = offset - draw(st.integers(0, 2))  # at or below the data: unused low grades
            kwargs["min_rating"] = lo
        if draw(st.booleans()):
            hi = offset + k_span - 1 + draw(st.integers(0, 2))
            kwargs["max_rating"] = hi
        dtype = {"int": np.int64, "float": np.float64, "object": object}[mode]
        y_true = np.array(ratings_true, dtype=dtype)
        y_pred = np.array(ratings_pred, dtype=dtype)
        true_index = [r - lo for r in ratings_true]
        pred_index = [r - lo for r in ratings_pred]
        k = hi - lo + 1
    if sample_weight is not None:
        kwargs["sample_weight"] = sample_weight
    weight_list = None if sample_weight is None else sample_weight.tolist()
    weights = _weights(draw, rng, k)
    return Case(y_true, y_pred, kwargs, true_index, pred_index, k, weight_list, weights)


def _assert_close(value: float, expected: Fraction) -> None:
    assert isinstance(value, float)
    assert abs(Fraction(value) - expected) <= TOLERANCE, (value, float(expected))


@_settings("kappa")
@given(case=rating_cases())
def test_weighted_kappa_matches_reference(case: Case) -> None:
    expected = reference_kappa(
        case.true_index, case.pred_index, case.k, case.weights, case.sample_weight
    )
    if expected is None:  # undefined: sum(W*E) == 0
        with pytest.raises(wk.WkappaError, match=r"zero_division"):
            wk.weighted_kappa(
                case.y_true, case.y_pred, weights=case.weights, zero_division="raise", **case.kwargs
            )
        assert (
            wk.weighted_kappa(
                case.y_true, case.y_pred, weights=case.weights, zero_division=0.25, **case.kwargs
            )
            == 0.25
        )
        return
    value = wk.weighted_kappa(case.y_true, case.y_pred, weights=case.weights, **case.kwargs)
    _assert_close(value, expected)
    if isinstance(case.weights, str) and case.weights == "quadratic":
        assert wk.qwk(case.y_true, case.y_pred, **case.kwargs) == value
        assert wk.quadratic_weighted_kappa(case.y_true, case.y_pred, **case.kwargs) == value


@_settings("table")
@given(case=rating_cases(dyadic=True))
def test_confusion_table_matches_reference_exactly(case: Case) -> None:
    table = wk.confusion_table(case.y_true, case.y_pred, **case.kwargs)
    expected = reference_table(case.true_index, case.pred_index, case.k, case.sample_weight)
    assert table.shape == (case.k, case.k)
    if case.sample_weight is None:
        assert table.dtype == np.int64
    else:
        assert table.dtype == np.float64
    # Exact: integer counts, or sums of multiples of 1/8 (exact in binary floating point).
    assert [[Fraction(x) for x in row] for row in table.tolist()] == expected


@st.composite
def tables(draw: st.DrawFn) -> tuple[Any, Any]:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(1, 12))
    if draw(st.booleans()):
        dtype: Any = draw(st.sampled_from([np.int64, np.int32, np.uint16, np.uint64, np.bool_]))
        table = rng.integers(0, draw(st.sampled_from([2, 5, 50])), (k, k)).astype(dtype)
    else:
        table = rng.uniform(0.0, 50.0, (k, k)) * 10.0 ** draw(st.sampled_from([-3, 0, 3]))
    table[rng.random((k, k)) < draw(st.sampled_from([0.0, 0.5, 0.95]))] = 0
    return table, _weights(draw, rng, k)


@_settings("from_table")
@given(drawn=tables())
def test_kappa_from_table_matches_reference(drawn: tuple[Any, Any]) -> None:
    table, weights = drawn
    expected = reference_kappa_from_table(table.tolist(), weights)
    if expected is None:
        with pytest.raises(wk.WkappaError, match=r"zero_division"):
            wk.kappa_from_table(table, weights=weights, zero_division="raise")
        with pytest.warns(wk.UndefinedKappaWarning):
            assert np.isnan(wk.kappa_from_table(table, weights=weights))
        return
    _assert_close(wk.kappa_from_table(table, weights=weights), expected)
    _assert_close(wk.kappa_from_table(table.tolist(), weights=weights), expected)
