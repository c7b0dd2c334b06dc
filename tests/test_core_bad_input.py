"""Bad input: one row per case, each with the exception type and the parameter it must name."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError, WkappaTypeError

A = [0, 1, 2, 3, 2]
B = [0, 2, 2, 1, 2]
NAN = float("nan")


class Row:
    """A bad call, the exact exception class it raises and what its message must contain."""

    def __init__(
        self,
        call: Callable[[], Any],
        error: type[Exception],
        names: str,
        *,
        also: str = "",
        hint: bool = False,
    ) -> None:
        self.call = call
        self.error = error
        self.names = names  # the parameter, as written in the message: `name`
        self.also = also  # a further regex the message must match
        self.hint = hint  # the message ends in a "Hint: ..."


ROWS: dict[str, Row] = {
    # --- shapes and lengths
    "lengths differ": Row(
        lambda: wk.qwk([0, 1, 2], [0, 1]), WkappaError, "y_pred", also="same length"
    ),
    "empty lists": Row(lambda: wk.qwk([], []), WkappaError, "y_true", also="empty"),
    "empty arrays": Row(
        lambda: wk.weighted_kappa(np.array([]), np.array([]), weights="linear"),
        WkappaError,
        "y_true",
        also="empty",
    ),
    "empty table": Row(lambda: wk.confusion_table([], []), WkappaError, "y_true", also="empty"),
    "2-D y_true": Row(
        lambda: wk.qwk(np.zeros((5, 2)), B), WkappaError, "y_true", also=r"1-D.*\(5, 2\)"
    ),
    "column vector y_pred": Row(
        lambda: wk.qwk(A, np.zeros((5, 1))), WkappaError, "y_pred", also=r"ravel", hint=True
    ),
    "nested list": Row(lambda: wk.qwk([[0, 1], [1, 0]], [[0, 1], [1, 0]]), WkappaError, "y_true"),
    # --- kinds
    "string as ratings": Row(lambda: wk.qwk("0123", "0123"), WkappaTypeError, "y_true"),
    "dict as ratings": Row(lambda: wk.qwk({0: 1}, [1]), WkappaTypeError, "y_true"),
    "None as ratings": Row(lambda: wk.qwk(A, None), WkappaTypeError, "y_pred"),
    "scalar ratings": Row(lambda: wk.qwk(3, 3), WkappaTypeError, "y_true"),
    "datetime ratings": Row(
        lambda: wk.qwk(np.array(["2020-01-01"] * 5, dtype="datetime64[D]"), B),
        WkappaTypeError,
        "y_true",
    ),
    "complex ratings": Row(lambda: wk.qwk(np.array(A) + 1j, B), WkappaTypeError, "y_true"),
    # --- missing values under the default nan_policy='raise'
    "NaN, raise": Row(
        lambda: wk.qwk([0, NAN, 2], [0, 1, 2]), WkappaError, "y_true", also="nan_policy", hint=True
    ),
    "None, raise": Row(
        lambda: wk.qwk([0, 1, 2], [0, None, 2]), WkappaError, "y_pred", also="nan_policy", hint=True
    ),
    "pd.NA, raise": Row(
        lambda: wk.qwk(pd.Series([0, pd.NA, 2], dtype="Int64"), [0, 1, 2]),
        WkappaError,
        "y_true",
        also="nan_policy",
        hint=True,
    ),
    "NaN in strings, raise": Row(
        lambda: wk.qwk(["a", NAN], ["a", "b"], labels=["a", "b"]),
        WkappaError,
        "y_true",
        also="nan_policy",
    ),
    # --- values
    "+inf": Row(lambda: wk.qwk([0.0, np.inf], [0, 1]), WkappaError, "y_true", also="finite"),
    "-inf": Row(lambda: wk.qwk([0, 1], [-np.inf, 1.0]), WkappaError, "y_pred", also="finite"),
    "inf with nan_policy='omit'": Row(
        lambda: wk.qwk([0.0, np.inf], [0, 1], nan_policy="omit"),
        WkappaError,
        "y_true",
        also="finite",
    ),
    "non-integer float": Row(
        lambda: wk.qwk([1, 2, 3], [1.0, 1.7, 3.0]),
        WkappaError,
        "y_pred",
        also=r"1\.7.*apply_thresholds.*optimize_thresholds.*round",
        hint=True,
    ),
    "non-integer float32": Row(
        lambda: wk.weighted_kappa(np.array([0.5, 1], np.float32), [0, 1], weights="linear"),
        WkappaError,
        "y_true",
        also="apply_thresholds",
        hint=True,
    ),
    "non-integer float with integer labels": Row(
        lambda: wk.qwk([0.2, 1.0], [0, 1], labels=[0, 1]),
        WkappaError,
        "y_true",
        also="apply_thresholds",
        hint=True,
    ),
    "rating above max_rating": Row(
        lambda: wk.qwk([0, 5], [0, 1], max_rating=3),
        WkappaError,
        "max_rating",
        also="`y_true` contains the rating 5",
    ),
    "rating below min_rating": Row(
        lambda: wk.qwk([1, 2], [0, 2], min_rating=1),
        WkappaError,
        "min_rating",
        also="`y_pred` contains the rating 0",
    ),
    "rating not in labels": Row(
        lambda: wk.qwk(["a", "b"], ["a", "x"], labels=["a", "b"]),
        WkappaError,
        "labels",
        also="`y_pred` contains 'x'",
        hint=True,
    ),
    "integer not in labels": Row(
        lambda: wk.qwk([0, 1, 2], [0, 1, 1], labels=[0, 1]),
        WkappaError,
        "labels",
        also="`y_true` contains 2",
        hint=True,
    ),
    "strings without labels, weighted": Row(
        lambda: wk.qwk(["low", "high"], ["high", "low"]),
        WkappaError,
        "labels",
        hint=True,
    ),
    "strings without labels, linear": Row(
        lambda: wk.weighted_kappa(["a", "b"], ["b", "a"], weights="linear"),
        WkappaError,
        "labels",
        hint=True,
    ),
    "strings without labels, table": Row(
        lambda: wk.confusion_table(["a", "b"], ["b", "a"]),
        WkappaError,
        "labels",
        hint=True,
    ),
    "integers above 2**62": Row(
        lambda: wk.qwk([0, 2**62], [0, 1]), WkappaError, "y_true", also="too large"
    ),
    # Python ints beyond int64, even with labels (it said no more than "too large").
    "integers beyond int64": Row(
        lambda: wk.qwk([2**70, 2**70 + 1], [2**70, 2**70], labels=[2**70, 2**70 + 1]),
        WkappaError,
        "y_true",
        also="beyond int64.*strings",
        hint=True,
    ),
    # --- labels
    "duplicate labels": Row(
        lambda: wk.qwk(A, B, labels=[0, 1, 2, 2, 3]), WkappaError, "labels", also="repeat"
    ),
    "duplicate string labels": Row(
        lambda: wk.qwk(["a"], ["b"], labels=("a", "b", "a")),
        WkappaError,
        "labels",
    ),
    "empty labels": Row(lambda: wk.qwk(A, B, labels=[]), WkappaError, "labels", also="empty"),
    "2-D labels": Row(lambda: wk.qwk(A, B, labels=[[0, 1], [2, 3]]), WkappaError, "labels"),
    "labels with None": Row(lambda: wk.qwk(A, B, labels=[0, 1, None]), WkappaError, "labels"),
    "labels with NaN": Row(lambda: wk.qwk(A, B, labels=[0.0, NAN]), WkappaError, "labels"),
    "labels as a string": Row(lambda: wk.qwk(["a"], ["b"], labels="ab"), WkappaTypeError, "labels"),
    "labels and min_rating": Row(
        lambda: wk.qwk(A, B, labels=[0, 1, 2, 3], min_rating=0),
        WkappaError,
        "labels",
        also="`min_rating`",
    ),
    # --- bounds
    "min_rating > max_rating": Row(
        lambda: wk.qwk(A, B, min_rating=3, max_rating=1),
        WkappaError,
        "min_rating",
        also="`max_rating`",
    ),
    "non-integer min_rating": Row(lambda: wk.qwk(A, B, min_rating=0.5), WkappaError, "min_rating"),
    "string max_rating": Row(lambda: wk.qwk(A, B, max_rating="4"), WkappaError, "max_rating"),
    "bool max_rating": Row(lambda: wk.qwk(A, B, max_rating=True), WkappaError, "max_rating"),
    "nan min_rating": Row(lambda: wk.qwk(A, B, min_rating=NAN), WkappaError, "min_rating"),
    "huge min_rating": Row(lambda: wk.qwk(A, B, min_rating=-(10**30)), WkappaError, "min_rating"),
    # --- weights
    "unknown weights name": Row(
        lambda: wk.weighted_kappa(A, B, weights="quadratc"),
        WkappaError,
        "weights",
        also="'quadratc'",
    ),
    "weights None": Row(
        lambda: wk.weighted_kappa(A, B, weights=None), WkappaTypeError, "weights", hint=True
    ),
    "weights wrong shape for K": Row(
        lambda: wk.weighted_kappa(A, B, weights=1 - np.eye(3)),
        WkappaError,
        "weights",
        also=r"\(4, 4\)",
        hint=True,
    ),
    "weights not square": Row(
        lambda: wk.weighted_kappa(A, B, weights=np.ones((4, 3))),
        WkappaError,
        "weights",
        also=r"\(4, 3\)",
    ),
    "weights 1-D": Row(
        lambda: wk.weighted_kappa(A, B, weights=[0, 1, 2, 3]), WkappaError, "weights"
    ),
    "weights negative": Row(
        lambda: wk.weighted_kappa(A, B, weights=-np.ones((4, 4))),
        WkappaError,
        "weights",
        also="1 - A",
        hint=True,
    ),
    "weights NaN": Row(
        lambda: wk.weighted_kappa(A, B, weights=np.full((4, 4), NAN)),
        WkappaError,
        "weights",
        also="NaN",
    ),
    "weights inf": Row(
        lambda: wk.weighted_kappa(A, B, weights=np.full((4, 4), np.inf)), WkappaError, "weights"
    ),
    "weights strings": Row(
        lambda: wk.weighted_kappa(A, B, weights=[["a", "b"], ["c", "d"]]),
        WkappaTypeError,
        "weights",
    ),
    "table weights wrong shape": Row(
        lambda: wk.kappa_from_table(np.ones((2, 2)), weights=1 - np.eye(3)),
        WkappaError,
        "weights",
    ),
    # --- sample_weight
    "sample_weight negative": Row(
        lambda: wk.qwk(A, B, sample_weight=[1, 1, -1, 1, 1]),
        WkappaError,
        "sample_weight",
        also="non-negative",
    ),
    "sample_weight NaN": Row(
        lambda: wk.qwk(A, B, sample_weight=[1, 1, NAN, 1, 1]), WkappaError, "sample_weight"
    ),
    "sample_weight NaN under omit": Row(
        lambda: wk.qwk(A, B, sample_weight=[1, 1, NAN, 1, 1], nan_policy="omit"),
        WkappaError,
        "sample_weight",
    ),
    "sample_weight inf": Row(
        lambda: wk.qwk(A, B, sample_weight=[1, 1, np.inf, 1, 1]),
        WkappaError,
        "sample_weight",
        also="finite",
    ),
    "sample_weight wrong length": Row(
        lambda: wk.qwk(A, B, sample_weight=[1, 1, 1]), WkappaError, "sample_weight", also="length 3"
    ),
    "sample_weight strings": Row(
        lambda: wk.qwk(A, B, sample_weight=list("abcde")), WkappaError, "sample_weight"
    ),
    "sample_weight 2-D": Row(
        lambda: wk.qwk(A, B, sample_weight=np.ones((5, 2))), WkappaError, "sample_weight"
    ),
    "sample_weight scalar": Row(
        lambda: wk.qwk(A, B, sample_weight=2.0), WkappaTypeError, "sample_weight"
    ),
    "table sample_weight negative": Row(
        lambda: wk.confusion_table(A, B, sample_weight=[1, 1, -1, 1, 1]),
        WkappaError,
        "sample_weight",
    ),
    # --- options
    "nan_policy unknown": Row(
        lambda: wk.qwk(A, B, nan_policy="x"), WkappaError, "nan_policy", also="'x'"
    ),
    "nan_policy None": Row(lambda: wk.qwk(A, B, nan_policy=None), WkappaTypeError, "nan_policy"),
    "table nan_policy propagate": Row(
        lambda: wk.confusion_table(A, B, nan_policy="propagate"),
        WkappaError,
        "nan_policy",
        hint=True,
    ),
    "table nan_policy unknown": Row(
        lambda: wk.confusion_table(A, B, nan_policy="drop"), WkappaError, "nan_policy"
    ),
    "zero_division 2": Row(
        lambda: wk.qwk(A, B, zero_division=2), WkappaError, "zero_division", also="got 2"
    ),
    "zero_division unknown": Row(
        lambda: wk.qwk(A, B, zero_division="ignore"), WkappaError, "zero_division"
    ),
    "zero_division bool": Row(
        lambda: wk.qwk(A, B, zero_division=True), WkappaTypeError, "zero_division"
    ),
    "table zero_division": Row(
        lambda: wk.kappa_from_table([[1, 0], [0, 1]], zero_division=-2),
        WkappaError,
        "zero_division",
    ),
    # --- undefined kappa under zero_division='raise'
    "undefined, one category": Row(
        lambda: wk.qwk([2, 2, 2], [2, 2, 2], zero_division="raise"),
        WkappaError,
        "zero_division",
    ),
    "undefined, all omitted": Row(
        lambda: wk.qwk([NAN, 1], [0, None], nan_policy="omit", zero_division="raise"),
        WkappaError,
        "zero_division",
    ),
    "undefined, zero weights": Row(
        lambda: wk.weighted_kappa(A, B, sample_weight=np.zeros(5), zero_division="raise"),
        WkappaError,
        "zero_division",
    ),
    "undefined table": Row(
        lambda: wk.kappa_from_table([[0, 0], [0, 7]], weights="linear", zero_division="raise"),
        WkappaError,
        "zero_division",
    ),
    # --- kappa_from_table
    "table not square": Row(lambda: wk.kappa_from_table(np.ones((2, 3))), WkappaError, "table"),
    "table 3-D": Row(lambda: wk.kappa_from_table(np.ones((2, 2, 2))), WkappaError, "table"),
    "table empty": Row(lambda: wk.kappa_from_table(np.ones((0, 0))), WkappaError, "table"),
    "table negative": Row(lambda: wk.kappa_from_table([[1, -1], [0, 1]]), WkappaError, "table"),
    "table NaN": Row(lambda: wk.kappa_from_table([[1, NAN], [0, 1]]), WkappaError, "table"),
    "table strings": Row(
        lambda: wk.kappa_from_table([["a", "b"], ["c", "d"]]), WkappaError, "table"
    ),
    # --- K too large for a K x K table (ratings 0 and 10**12)
    "K too large, linear": Row(
        lambda: wk.weighted_kappa([0, 10**12], [0, 10**12], weights="linear"),
        WkappaError,
        "weights",
        also=r"K = 1000000000001.*table",
        hint=True,
    ),
    "K too large, unweighted": Row(
        lambda: wk.weighted_kappa([0, 10**12], [5, 10**12], weights="unweighted"),
        WkappaError,
        "weights",
        hint=True,
    ),
    "K too large, table": Row(
        lambda: wk.confusion_table([0, 10**12], [0, 10**12]),
        WkappaError,
        "labels",
        also="K = 1000000000001",
        hint=True,
    ),
    "K too large by max_rating": Row(
        lambda: wk.weighted_kappa([0, 1], [1, 0], weights="linear", max_rating=10**9),
        WkappaError,
        "weights",
        hint=True,
    ),
    "K too large, custom weights": Row(
        lambda: wk.weighted_kappa([0, 10**12], [0, 1], weights=1 - np.eye(2)),
        WkappaError,
        "weights",
    ),
}


@pytest.mark.parametrize("case", list(ROWS))
def test_bad_input(case: str) -> None:
    row = ROWS[case]
    start = time.perf_counter()
    with pytest.raises(Exception) as info:
        row.call()
    elapsed = time.perf_counter() - start
    assert type(info.value) is row.error, repr(info.value)
    message = str(info.value)
    assert f"`{row.names}`" in message or f"{row.names}=" in message, message
    if row.also:
        assert __import__("re").search(row.also, message), message
    if row.hint:
        assert "Hint:" in message, message
    if case.startswith("K too large"):
        # No K x K allocation is even attempted: no MemoryError, no hang (the bound is loose
        # because a cold numba cache may compile the fast path's scan first).
        assert elapsed < 30.0


@pytest.mark.parametrize(
    "y_true",
    [
        [0, NAN, 2, 3],
        [0, None, 2, 3],
        [0, pd.NA, 2, 3],
        pd.Series([0, pd.NA, 2, 3], dtype="Int64"),
        np.array([0, NAN, 2, 3]),
    ],
    ids=["NaN", "None", "pd.NA", "Int64 NA", "numpy NaN"],
)
def test_each_nan_policy(y_true: Any) -> None:
    y_pred = [0, 1, 2, 2]
    with pytest.raises(WkappaError, match=r"`y_true`.*position 1.*nan_policy"):
        wk.qwk(y_true, y_pred)
    assert wk.qwk(y_true, y_pred, nan_policy="omit") == wk.qwk([0, 2, 3], [0, 2, 2])
    propagated = wk.qwk(y_true, y_pred, nan_policy="propagate")
    assert isinstance(propagated, float) and np.isnan(propagated)
    # The weights of dropped pairs go with them.
    assert wk.qwk(y_true, y_pred, nan_policy="omit", sample_weight=[1, 5, 2, 3]) == wk.qwk(
        [0, 2, 3], [0, 2, 2], sample_weight=[1, 2, 3]
    )
    assert np.array_equal(
        wk.confusion_table(y_true, y_pred, nan_policy="omit"),
        wk.confusion_table([0, 2, 3], [0, 2, 2]),
    )


UNDEFINED: dict[str, Callable[..., float]] = {
    "both raters one category": lambda **kw: wk.qwk([2, 2, 2], [2, 2, 2], **kw),
    "one category, linear": lambda **kw: wk.weighted_kappa([1, 1], [1, 1], weights="linear", **kw),
    "one category, float sample weights": lambda **kw: wk.qwk(
        [3] * 7, [3] * 7, min_rating=0, max_rating=9, sample_weight=np.linspace(0.1, 0.7, 7), **kw
    ),
    "one category, weights beyond table size": lambda **kw: wk.qwk(
        [3] * 7, [3] * 7, max_rating=10**6, sample_weight=np.linspace(0.1, 0.7, 7), **kw
    ),
    "all pairs omitted": lambda **kw: wk.qwk([NAN, 1], [0, None], nan_policy="omit", **kw),
    "all sample weights zero": lambda **kw: wk.qwk(A, B, sample_weight=np.zeros(5), **kw),
    "zero custom weights": lambda **kw: wk.weighted_kappa(A, B, weights=np.zeros((4, 4)), **kw),
    "table of zeros": lambda **kw: wk.kappa_from_table(np.zeros((3, 3)), **kw),
    "1 x 1 table": lambda **kw: wk.kappa_from_table([[5]], weights="unweighted", **kw),
}


@pytest.mark.parametrize("case", list(UNDEFINED))
def test_undefined_kappa_under_each_zero_division(case: str) -> None:
    call = UNDEFINED[case]
    with pytest.warns(wk.UndefinedKappaWarning, match=r"undefined.*zero_division") as record:
        value = call()
    assert isinstance(value, float) and np.isnan(value)
    assert record[0].filename == __file__  # the warning points at the caller's line
    with pytest.raises(WkappaError, match=r"undefined.*zero_division"):
        call(zero_division="raise")
    for fallback in (0.0, 1.0, -1.0, 0.5):
        assert call(zero_division=fallback) == fallback
    assert np.isnan(call(zero_division=NAN))


def test_huge_k_fails_fast_but_quadratic_just_works() -> None:
    """Ratings 0 and 10**12: a table would need 7e15 GiB. QWK needs none and is exact."""
    y_true = [0, 10**12, 3, 10**12 - 5, 17]
    y_pred = [0, 10**12, 10**12, 2, 17]
    start = time.perf_counter()
    with pytest.raises(WkappaError, match=r"weights"):
        wk.weighted_kappa(y_true, y_pred, weights="linear")
    assert time.perf_counter() - start < 30.0
    # QWK = 1 - n Σ(a-b)² / ΣΣ(a_i - b_j)², exactly, with Fractions over all n² pairs.
    n = len(y_true)
    within = sum((a - b) ** 2 for a, b in zip(y_true, y_pred, strict=True))
    across = sum((a - b) ** 2 for a in y_true for b in y_pred)
    exact = 1 - Fraction(n * within, across)
    assert wk.qwk(y_true, y_pred) == float(exact)
    assert wk.weighted_kappa(y_true, y_pred) == float(exact)
    assert wk.qwk(np.array(y_true), np.array(y_pred)) == float(exact)
    # With sample weights too (float sums: no table needed either).
    weights = [1.0, 2.0, 0.5, 1.0, 3.0]
    value = wk.qwk(y_true, y_pred, sample_weight=weights)
    w_n = sum(Fraction(w) for w in weights)
    w_within = sum(
        Fraction(w) * (a - b) ** 2 for a, b, w in zip(y_true, y_pred, weights, strict=True)
    )
    w_across = sum(
        Fraction(wi) * Fraction(wj) * (a - b) ** 2
        for a, wi in zip(y_true, weights, strict=True)
        for b, wj in zip(y_pred, weights, strict=True)
    )
    assert abs(Fraction(value) - (1 - w_n * w_within / w_across)) < Fraction(1, 10**12)


def test_errors_are_value_errors_and_type_errors() -> None:
    """except ValueError keeps working; kind errors are TypeErrors too."""
    assert issubclass(WkappaError, ValueError)
    assert issubclass(WkappaTypeError, WkappaError) and issubclass(WkappaTypeError, TypeError)
    assert issubclass(wk.UndefinedKappaWarning, RuntimeWarning)
    with pytest.raises(ValueError):
        wk.qwk([0, 1], [0])
    with pytest.raises(TypeError):
        wk.qwk({0: 1}, [1])
    with pytest.raises(TypeError):  # options are keyword-only
        wk.weighted_kappa(A, B, "linear")  # type: ignore[misc]


@pytest.mark.parametrize(
    "call",
    [
        lambda: wk.weighted_kappa([1, 2], [1, 2], labels=[]),
        lambda: wk.weighted_kappa([1, 2], [1, 2], labels=range(0)),
        lambda: wk.weighted_kappa([1, 2], [1, 2], labels=np.array([], dtype=np.int64)),
        lambda: wk.KappaAccumulator(labels=range(0)),
        lambda: wk.KappaAccumulator(labels=[]),
        lambda: wk.agreement([[1, 2], [2, 2]], labels=[]),
    ],
)
def test_empty_labels_are_refused_alike_by_every_reader(call: Callable[[], Any]) -> None:
    with pytest.raises(WkappaError, match=r"^`labels` is empty; give at least one category\.$"):
        call()


_COLUMN_VECTOR = np.array([[1], [2], [3]])


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: wk.weighted_kappa(_COLUMN_VECTOR, [1, 2, 3]), "y_true"),
        (lambda: wk.weighted_kappa([1, 2, 3], [1, 2, 3], labels=np.eye(2)), "labels"),
        (lambda: wk.ccc(_COLUMN_VECTOR, np.array([1.0, 2.0, 3.0])), "x"),
        (lambda: wk.mean_kappa(np.eye(2)), "kappas"),
    ],
)
def test_a_column_vector_is_refused_alike_with_the_fix(call: Callable[[], Any], name: str) -> None:
    pattern = rf"^`{name}` must be 1-D; got shape \(\d, \d\)\. Hint: use \.ravel\(\) for a column"
    with pytest.raises(WkappaError, match=pattern):
        call()


@pytest.mark.parametrize(
    "ratings", [np.arange(3), np.ma.masked_array(np.arange(3), mask=[0, 1, 0])]
)
def test_a_masked_or_plain_vector_of_several_raters_gets_the_same_hint(ratings: Any) -> None:
    with pytest.raises(WkappaError, match=r"must be 2-D .* Hint: for two raters' separate arrays"):
        wk.agreement(ratings)


@pytest.mark.parametrize(
    "call",
    [
        lambda: wk.weighted_kappa(np.array([1j, 2j]), np.array([1j, 2j])),
        lambda: wk.agreement(np.array([[1j, 2j], [1j, 1j]])),
    ],
)
def test_an_unsupported_dtype_is_refused_alike_by_both_readers(call: Callable[[], Any]) -> None:
    with pytest.raises(
        WkappaTypeError,
        match=r"must hold integer, boolean, float or string ratings; got dtype complex128\.$",
    ):
        call()


def test_numeric_ratings_name_the_dtype_they_refuse() -> None:
    with pytest.raises(WkappaTypeError, match=r"^`ratings` must hold numbers; got dtype complex"):
        wk.icc(np.array([[1j, 2j], [1j, 1j]]))
