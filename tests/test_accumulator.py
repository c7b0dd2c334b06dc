"""KappaAccumulator: the merge laws hold exactly, round-trips change nothing, errors are clear."""

from __future__ import annotations

import itertools
import json
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import wkappa as wk
from reference import reference_kappa, reference_table
from wkappa import KappaAccumulator, WkappaError

K = 5
LABELS = ["none", "mild", "moderate", "severe", "proliferative"]
WEIGHTS = ["quadratic", "linear", "unweighted"]
# A fixed custom matrix (disagreement weights, zero diagonal) to exercise matrix round-trips.
CUSTOM = (np.abs(np.subtract.outer(np.arange(K), np.arange(K))) ** 1.5).tolist()


@st.composite
def batches(draw: st.DrawFn, weighted: bool | None = None) -> list[tuple]:
    """A list of batches of index pairs, optionally with dyadic sample weights.

    Dyadic weights (multiples of 1/4, small) make every float sum exact, so the laws can be
    checked with ==, not approximately.
    """
    use_weights = draw(st.booleans()) if weighted is None else weighted
    out = []
    for _ in range(draw(st.integers(0, 4))):
        size = draw(st.integers(0, 12))
        a = draw(st.lists(st.integers(0, K - 1), min_size=size, max_size=size))
        b = draw(st.lists(st.integers(0, K - 1), min_size=size, max_size=size))
        w = (
            [x / 4 for x in draw(st.lists(st.integers(0, 40), min_size=size, max_size=size))]
            if use_weights
            else None
        )
        out.append((a, b, w))
    return out


def make(weights: object = "quadratic", labels: bool = False) -> KappaAccumulator:
    if labels:
        return KappaAccumulator(LABELS, weights=weights)  # type: ignore[arg-type]
    return KappaAccumulator(min_rating=0, max_rating=K - 1, weights=weights)  # type: ignore[arg-type]


def filled(parts: list[tuple], weights: object = "quadratic", labels: bool = False):
    acc = make(weights, labels)
    for a, b, w in parts:
        if labels:
            a = [LABELS[i] for i in a]
            b = [LABELS[i] for i in b]
        acc.update(a, b, w)
    return acc


weights_st = st.sampled_from([*WEIGHTS, "custom"])


def _w(name: str) -> object:
    return CUSTOM if name == "custom" else name


@given(batches(), weights_st, st.booleans())
def test_empty_is_identity(parts, wname, labels):
    acc = filled(parts, _w(wname), labels)
    empty = make(_w(wname), labels)
    assert acc + empty == acc
    assert empty + acc == acc
    assert acc.merge(empty) == acc


@given(batches(), batches(), batches(), weights_st)
def test_merge_is_associative_and_commutative(p1, p2, p3, wname):
    a, b, c = (filled(p, _w(wname)) for p in (p1, p2, p3))
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert sum([a, b, c]) == a + b + c


@given(batches(), batches())
def test_merge_is_pure(p1, p2):
    a, b = filled(p1), filled(p2)
    before_a, before_b = a.table, b.table
    merged = a + b
    assert np.array_equal(a.table, before_a) and np.array_equal(b.table, before_b)
    merged.update([0], [1])
    assert np.array_equal(a.table, before_a)


@given(batches(weighted=False), st.data(), st.sampled_from(WEIGHTS))
def test_any_partition_merged_equals_the_whole(parts, data, weights):
    a = [x for p in parts for x in p[0]]
    b = [x for p in parts for x in p[1]]
    whole = make(weights).update(a, b)
    # Re-split the concatenated data at arbitrary cut points, count each piece separately.
    cuts = sorted(data.draw(st.lists(st.integers(0, len(a)), max_size=5)))
    bounds = [0, *cuts, len(a)]
    pieces = [make(weights).update(a[i:j], b[i:j]) for i, j in itertools.pairwise(bounds)]
    merged = sum(pieces, make(weights))
    assert merged == whole
    assert whole.n == len(a)
    expected = reference_table(a, b, K)
    assert whole.table.tolist() == [[int(x) for x in row] for row in expected]
    exact = reference_kappa(a, b, K, weights)
    if exact is None:
        assert whole.kappa(zero_division=0.25) == 0.25
    else:
        value = whole.kappa(zero_division="raise")
        if weights == "quadratic":
            assert value == float(exact)  # exact integer formula, correctly rounded
        else:
            assert value == pytest.approx(float(exact), rel=1e-12, abs=1e-12)
        assert value == wk.weighted_kappa(a, b, weights=weights, min_rating=0, max_rating=K - 1)


@given(batches(weighted=True), st.data())
def test_weighted_partition_merged_equals_the_whole(parts, data):
    a = [x for p in parts for x in p[0]]
    b = [x for p in parts for x in p[1]]
    w = [x for p in parts for x in p[2]]
    whole = make().update(a, b, w)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(a)), max_size=5)))
    bounds = [0, *cuts, len(a)]
    merged = make()
    for i, j in itertools.pairwise(bounds):
        merged = merged + make().update(a[i:j], b[i:j], w[i:j])
    assert merged.table.tolist() == whole.table.tolist()  # dyadic weights: exact
    assert merged.n == sum(Fraction(x) for x in w)
    exact = reference_kappa(a, b, K, "quadratic", w)
    if exact is not None:
        assert whole.kappa(zero_division="raise") == pytest.approx(float(exact), rel=1e-12)


@given(batches(), weights_st, st.booleans())
def test_json_and_pickle_round_trips_change_nothing(parts, wname, labels):
    acc = filled(parts, _w(wname), labels)
    text = json.dumps(acc.to_dict())
    back = KappaAccumulator.from_dict(json.loads(text))
    assert back == acc
    assert back.table.dtype == acc.table.dtype
    assert list(back.labels) == list(acc.labels)
    pickled = pickle.loads(pickle.dumps(acc))
    assert pickled == acc
    if acc.n:
        for other in (back, pickled):
            v1 = acc.kappa(zero_division=0.0)
            v2 = other.kappa(zero_division=0.0)
            assert v1 == v2 or (np.isnan(v1) and np.isnan(v2))


def test_to_dict_is_versioned_and_plain_json():
    acc = KappaAccumulator(["a", "b"], weights="unweighted").update(["a", "b"], ["b", "b"])
    state = acc.to_dict()
    assert state == {
        "format": "wkappa.KappaAccumulator",
        "version": 1,
        "labels": ["a", "b"],
        "weights": "unweighted",
        "dtype": "int64",
        "table": [[0, 1], [0, 1]],
    }
    with pytest.raises(WkappaError, match="version 99"):
        KappaAccumulator.from_dict({**state, "version": 99})
    with pytest.raises(WkappaError, match="not a KappaAccumulator dict"):
        KappaAccumulator.from_dict({"table": [[1]]})
    with pytest.raises(WkappaError, match="shape"):
        KappaAccumulator.from_dict({**state, "table": [[1, 2, 3]]})


def test_matches_the_seed_example_in_any_batching():
    actuals = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
    preds = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]
    acc = KappaAccumulator(min_rating=0, max_rating=4)
    for i in range(0, 10, 3):
        acc.update(actuals[i : i + 3], preds[i : i + 3])
    assert acc.value == 0.3181818181818182 == wk.qwk(actuals, preds)
    assert acc.n == 10
    assert np.array_equal(acc.table, wk.confusion_table(actuals, preds))


def test_update_accepts_every_input_kind_and_chains():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    acc = KappaAccumulator(["lo", "mid", "hi"])
    cat = pd.Categorical(["lo", "hi"], categories=["lo", "mid", "hi"], ordered=True)
    out = acc.update(np.array(["lo", "mid"]), ["mid", "mid"]).update(pd.Series(cat), cat)
    out.update(pl.Series(["hi"]), pl.Series(["lo"]))
    assert out is acc
    assert acc.table.tolist() == [[1, 1, 0], [0, 1, 0], [1, 0, 1]]


def test_nan_policy_omit_and_empty_batches():
    acc = KappaAccumulator(min_rating=1, max_rating=3)
    acc.update([], [])
    assert acc.n == 0
    with pytest.raises(WkappaError, match="missing rating"):
        acc.update([1.0, np.nan], [1, 2])
    acc.update([1.0, np.nan, 3.0], [1, 2, 3], nan_policy="omit")
    assert acc.n == 2
    with pytest.raises(WkappaError, match="propagate"):
        acc.update([1], [1], nan_policy="propagate")


@pytest.mark.parametrize("rows", [1, 4])
def test_a_column_per_class_gets_the_argmax_hint_not_ravel(rows: int) -> None:
    """One-hot rows or class scores (n, K) said 'Hint: use .ravel() for a column vector',
    which on one-hot y_true and y_pred alike counts n*K pairs of 0/1 without an error."""
    onehot = np.eye(K)[np.arange(rows)]
    probs = np.full((rows, K), 1 / K)
    acc = KappaAccumulator(min_rating=0, max_rating=K - 1)
    for y_true, y_pred, name in ((onehot, onehot, "y_true"), (range(rows), probs, "y_pred")):
        with pytest.raises(WkappaError, match=rf"`{name}` must be 1-D; got shape") as info:
            acc.update(y_true, y_pred)
        assert f"pass {name}.argmax(axis=1)" in str(info.value)
        assert ("ravel" in str(info.value)) == (rows == 1)  # one row may be ratings too
    assert acc.n == 0
    with pytest.raises(WkappaError, match=r"Hint: use \.ravel\(\) for a column vector\.$"):
        acc.update(np.arange(3)[:, None], np.arange(3))


def test_weighted_update_turns_table_to_float_and_reset():
    acc = KappaAccumulator(min_rating=0, max_rating=2).update([0, 1], [0, 2])
    assert acc.table.dtype == np.int64 and acc.n == 2
    acc.update([2], [2], sample_weight=[0.5])
    assert acc.table.dtype == np.float64 and acc.n == 2.5
    assert acc.reset() is acc
    assert acc.n == 0 and acc.table.dtype == np.int64
    with pytest.warns(wk.UndefinedKappaWarning):
        assert np.isnan(acc.value)


def test_update_table():
    acc = KappaAccumulator(min_rating=0, max_rating=1).update_table([[3, 1], [0, 2]])
    acc.update_table(np.array([[1, 0], [0, 1]], dtype=np.uint8))
    assert acc.table.tolist() == [[4, 1], [0, 3]] and acc.table.dtype == np.int64
    assert acc.value == wk.kappa_from_table([[4, 1], [0, 3]])
    with pytest.raises(WkappaError, match=r"shape \(2, 2\)"):
        acc.update_table([[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    with pytest.raises(WkappaError, match="non-negative"):
        acc.update_table([[1, -1], [0, 0]])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({}, "needs its categories up front"),
        ({"min_rating": 0}, "needs its categories up front"),
        ({"labels": [0, 1], "min_rating": 0}, "not both"),
        ({"min_rating": 3, "max_rating": 1}, "must not exceed"),
        ({"min_rating": 0.5, "max_rating": 2}, "whole number"),
        ({"labels": [1, 1]}, "must not repeat"),
        ({"labels": [0, 1], "weights": "quadratc"}, "`weights` must be one of"),
        ({"labels": [0, 1], "weights": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}, r"shape \(2, 2\)"),
        ({"min_rating": 0, "max_rating": 10**9}, "table"),
    ],
)
def test_bad_construction(kwargs, match):
    with pytest.raises(WkappaError, match=match):
        KappaAccumulator(**kwargs)


def test_unseen_label_is_an_error_never_growth():
    acc = KappaAccumulator(["a", "b"])
    with pytest.raises(WkappaError, match="'c', which is not in `labels`"):
        acc.update(["a", "c"], ["a", "b"])
    acc2 = KappaAccumulator(min_rating=0, max_rating=3)
    with pytest.raises(WkappaError, match="above `max_rating` = 3"):
        acc2.update([0, 4], [0, 1])
    assert acc.n == 0 and acc2.n == 0 and acc2.table.shape == (4, 4)


def test_merging_mismatched_accumulators_is_an_error():
    base = KappaAccumulator(min_rating=0, max_rating=2)
    with pytest.raises(WkappaError, match="different categories"):
        base + KappaAccumulator(min_rating=0, max_rating=3)
    with pytest.raises(WkappaError, match="different weights"):
        base.merge(KappaAccumulator(min_rating=0, max_rating=2, weights="linear"))
    with pytest.raises(WkappaError, match="different weights"):
        KappaAccumulator([0, 1], weights=[[0, 1], [1, 0]]) + KappaAccumulator(
            [0, 1], weights=[[0, 2], [2, 0]]
        )
    with pytest.raises(TypeError, match="KappaAccumulator"):
        base.merge([[1]])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        base + 1  # type: ignore[operator]
    # Same categories, given two ways, do merge.
    assert (base + KappaAccumulator([0, 1, 2])).n == 0


def test_integer_overflow_is_an_error_not_a_wrap():
    acc = KappaAccumulator(min_rating=0, max_rating=1).update_table([[2**62, 0], [0, 0]])
    with pytest.raises(WkappaError, match="overflow"):
        acc.update_table([[2**62, 0], [0, 0]])
    assert acc.n == 2**62


def test_result_is_the_kappa_test_of_the_whole_data():
    inference = pytest.importorskip("wkappa._stats.inference")
    rng = np.random.default_rng(5)
    a = rng.integers(0, K, 300)
    b = np.clip(a + rng.integers(-1, 2, 300), 0, K - 1)
    acc = make("linear")
    for i in range(0, 300, 70):
        acc.update(a[i : i + 70], b[i : i + 70])
    result = acc.result()
    whole = inference.kappa_test(a, b, weights="linear", min_rating=0, max_rating=K - 1)
    assert result.statistic == whole.statistic == acc.value
    assert result.standard_error == whole.standard_error
    assert result.pvalue == whole.pvalue
    assert result.labels == (0, 1, 2, 3, 4) and result.weights == "linear"
    named = KappaAccumulator(LABELS, weights=CUSTOM)
    named.update([LABELS[i] for i in a], [LABELS[i] for i in b])
    assert named.result().labels == tuple(LABELS)
    assert named.result().weights == "custom"
