"""ICCAccumulator has KappaAccumulator's API (update, result, merge / +, reset, ==, repr,
to_dict / from_dict, pickling) and its errors name what they are about."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError, WkappaTypeError

X = np.random.default_rng(0).normal(size=(50, 3)) + np.arange(50)[:, None] / 10


@pytest.mark.parametrize("name", ["update", "result", "merge", "reset", "to_dict", "from_dict"])
def test_both_accumulators_have_the_method(name: str) -> None:
    assert callable(getattr(wk.KappaAccumulator, name))
    assert callable(getattr(wk.ICCAccumulator, name))


def test_merging_different_numbers_of_raters_names_the_merge_and_both_counts() -> None:
    three = wk.ICCAccumulator().update(X[:20])
    two = wk.ICCAccumulator().update(X[20:, :2])
    message = r"^Cannot merge ICC accumulators with different numbers of raters: n_raters 3 vs 2\."
    with pytest.raises(WkappaError, match=message):
        three + two
    with pytest.raises(WkappaError, match=message):
        three.merge(two)
    # Known from the constructor, before any rating.
    with pytest.raises(WkappaError, match="n_raters 3 vs 2"):
        three.merge(wk.ICCAccumulator(2))
    with pytest.raises(WkappaError, match="n_raters 2 vs 3"):
        wk.ICCAccumulator(2).merge(three)
    # An update keeps its own message, naming `ratings`.
    with pytest.raises(WkappaError, match="`ratings` has 2 rater columns"):
        three.update(X[:5, :2])


def test_merging_something_else_is_refused_like_kappa_accumulator() -> None:
    acc = wk.ICCAccumulator().update(X)
    with pytest.raises(WkappaTypeError, match="Can only merge an ICCAccumulator with another"):
        acc.merge(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        acc + 3  # type: ignore[operator]
    with pytest.raises(TypeError):
        wk.KappaAccumulator(labels=range(3)) + 3  # type: ignore[operator]


def test_reset_forgets_the_ratings_and_keeps_the_raters() -> None:
    acc = wk.ICCAccumulator().update(X[:10])
    assert acc.reset() is acc
    assert acc.n == 0 and acc.to_dict()["n_raters"] == 3
    assert acc == wk.ICCAccumulator(3)
    acc.update(X)
    assert acc.result().statistic == pytest.approx(wk.icc(X).statistic, rel=1e-12)
    with pytest.raises(WkappaError, match="`ratings` has 2 rater columns"):
        acc.reset().update(X[:, :2])


def test_equality_repr_and_pickling() -> None:
    acc = wk.ICCAccumulator().update(X[:30])
    same = wk.ICCAccumulator().update(X[:30])
    assert acc == same and acc != wk.ICCAccumulator().update(X[:29])
    assert repr(acc) == "ICCAccumulator(n_raters=3, n=30)"
    back = pickle.loads(pickle.dumps(acc))
    assert back == acc
    assert back.result(form="C,1").statistic == acc.result(form="C,1").statistic
    assert (back + wk.ICCAccumulator().update(X[30:])).result().statistic == pytest.approx(
        wk.icc(X).statistic, rel=1e-12
    )
    with pytest.raises(TypeError):
        hash(acc)


def test_a_features_axis_is_refused_saying_why() -> None:
    """wk.icc takes (items, raters, features), one ICC per feature; a state keeps one ICC's
    sums, so the accumulator refuses the third axis and names the per-feature way."""
    cube = np.random.default_rng(1).normal(size=(6, 2, 3))
    assert len(wk.icc(cube).statistic) == 3
    with pytest.raises(WkappaError, match=r"third axis of features.*one ICC.*ratings\[:, :, j\]"):
        wk.ICCAccumulator().update(cube)
    per_feature = [wk.ICCAccumulator().update(cube[:, :, j]).result() for j in range(3)]
    assert [r.statistic for r in per_feature] == pytest.approx(list(wk.icc(cube).statistic))


@pytest.mark.parametrize(
    "empty", [[], np.zeros((0, 3)), np.zeros((0,))], ids=["list", "rows-of-3", "1-d"]
)
def test_an_empty_batch_changes_nothing_as_in_kappa_accumulator(empty: object) -> None:
    """The last batch of a filtered loader can have no rows: KappaAccumulator.update skips
    it, and ICCAccumulator.update raised ('0 items (rows); at least 1 are needed')."""
    acc = wk.ICCAccumulator().update(X[:20])
    assert acc.update(empty) == wk.ICCAccumulator().update(X[:20])
    assert wk.ICCAccumulator().update(empty) == wk.ICCAccumulator()
    assert wk.KappaAccumulator([0, 1]).update([], []) == wk.KappaAccumulator([0, 1])
    assert acc.update(X[20:]).result().statistic == pytest.approx(wk.icc(X).statistic, rel=1e-12)


def test_an_empty_batch_of_other_rater_columns_is_still_refused() -> None:
    acc = wk.ICCAccumulator().update(X[:20])
    with pytest.raises(
        WkappaError, match=r"^`ratings` has 2 rater columns but the accumulator has 3"
    ):
        acc.update(np.zeros((0, 2)))


@pytest.mark.parametrize("text", ["", b""])
def test_empty_text_is_refused_as_other_text_not_taken_as_an_empty_batch(text: object) -> None:
    """'' and b'' were taken as batches of no rows, where 'ab' is refused as text."""
    with pytest.raises(WkappaTypeError, match=r"^`y_true` must be a 1-D array-like"):
        wk.KappaAccumulator([0, 1]).update(text, text)
    with pytest.raises(WkappaTypeError, match=r"^`ratings` must be a 2-D array"):
        wk.ICCAccumulator().update(text)


def _kappa_states() -> list[wk.KappaAccumulator]:
    rng = np.random.default_rng(3)
    return [
        wk.KappaAccumulator(min_rating=0, max_rating=3).update(*rng.integers(0, 4, (2, 40)))
        for _ in range(3)
    ]


def _icc_states() -> list[wk.ICCAccumulator]:
    return [wk.ICCAccumulator().update(X[i : i + 10]) for i in (0, 10, 20)]


@pytest.mark.parametrize("states", [_kappa_states, _icc_states], ids=["kappa", "icc"])
def test_both_accumulators_follow_one_merge_rule(states) -> None:
    """a + b is a.merge(b), sum() merges (starting from 0), the inputs stay as they were,
    and anything but a state of the same kind is refused, by + and by merge alike."""
    a, b, c = states()
    before = [pickle.dumps(s) for s in (a, b, c)]
    total = sum([a, b, c])
    assert total == a.merge(b).merge(c) == (a + b) + c  # (ICC: associative to rounding)
    assert sum([a]) == a and sum([a]) is not a
    assert [pickle.dumps(s) for s in (a, b, c)] == before
    other = (_icc_states if states is _kappa_states else _kappa_states)()[0]
    name = type(a).__name__
    for wrong in (other, 1, True, "a"):
        with pytest.raises(TypeError):
            a + wrong
        with pytest.raises(TypeError):
            wrong + a
        with pytest.raises(WkappaTypeError, match=f"^Can only merge an? {name} with another; got"):
            a.merge(wrong)
    with pytest.raises(TypeError):
        hash(a)
