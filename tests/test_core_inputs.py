"""Every kind of input gives the same value as the plain numpy int64 arrays it stands for."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError

T = [0, 1, 2, 3, 1, 2, 0, 3, 2, 1]
P = [0, 2, 2, 1, 1, 3, 0, 3, 1, 1]
GRADES = ["low", "mid", "high", "top"]  # the grade order; alphabetically: high < low < mid < top
MISSING = 4  # the pair dropped under nan_policy="omit"
KEPT = [i for i in range(len(T)) if i != MISSING]

WEIGHTS: list[Any] = ["quadratic", "linear", "unweighted", np.arange(16.0).reshape(4, 4) % 5]


def _names(values: list[int]) -> list[str]:
    return [GRADES[v] for v in values]


def _with_missing(values: list[Any], missing: Any) -> list[Any]:
    return [missing if i == MISSING else v for i, v in enumerate(values)]


# Each case: (inputs y_true, y_pred, kwargs) and whether the pair MISSING is dropped (omit).
Case = Callable[[], tuple[Any, Any, dict[str, Any]]]

FULL: dict[str, Case] = {
    "list": lambda: (T, P, {}),
    "tuple": lambda: (tuple(T), tuple(P), {}),
    "range-like list of numpy ints": lambda: (list(np.array(T)), list(np.array(P)), {}),
    **{
        f"numpy {dtype.__name__}": (
            lambda dtype=dtype: (np.array(T, dtype=dtype), np.array(P, dtype=dtype), {})
        )
        for dtype in (
            np.int8,
            np.int16,
            np.int32,
            np.int64,
            np.uint8,
            np.uint16,
            np.uint32,
            np.uint64,
            np.float16,
            np.float32,
            np.float64,
        )
    },
    "numpy mixed int8 and float64": lambda: (np.array(T, np.int8), np.array(P, float), {}),
    "list of integral floats": lambda: ([float(v) for v in T], [float(v) for v in P], {}),
    "pandas int64": lambda: (pd.Series(T), pd.Series(P), {}),
    "pandas Int64": lambda: (pd.Series(T, dtype="Int64"), pd.Series(P, dtype="UInt8"), {}),
    "pandas Index": lambda: (pd.Index(T), pd.Index(P), {}),
    "pandas int64[pyarrow]": lambda: (
        pd.Series(T, dtype="int64[pyarrow]"),
        pd.Series(P, dtype="int64[pyarrow]"),
        {},
    ),
    "pandas ordered Categorical": lambda: (
        pd.Series(pd.Categorical(_names(T), categories=GRADES, ordered=True)),
        pd.Series(pd.Categorical(_names(P), categories=GRADES, ordered=True)),
        {},
    ),
    "pandas ordered Categorical, raw": lambda: (
        pd.Categorical(_names(T), categories=GRADES, ordered=True),
        pd.Categorical(_names(P), categories=GRADES, ordered=True),
        {},
    ),
    "pandas ordered Categorical and a plain list": lambda: (
        pd.Series(pd.Categorical(_names(T), categories=GRADES, ordered=True)),
        _names(P),
        {},
    ),
    "pandas ordered and unordered Categorical": lambda: (
        pd.Series(pd.Categorical(_names(T), categories=GRADES, ordered=True)),
        pd.Series(_names(P), dtype="category"),
        {},
    ),
    "pandas unordered Categorical with labels": lambda: (
        pd.Series(_names(T), dtype="category"),
        pd.Series(_names(P), dtype="category"),
        {"labels": GRADES},
    ),
    "pandas unordered Categorical of integers": lambda: (
        pd.Series(T, dtype="category"),
        pd.Series(P, dtype="category"),
        {},
    ),
    "pandas default string dtype with labels": lambda: (
        pd.Series(_names(T)),
        pd.Series(_names(P)),
        {"labels": GRADES},
    ),
    "pandas string[pyarrow] with labels": lambda: (
        pd.Series(_names(T), dtype="string[pyarrow]"),
        pd.Series(_names(P), dtype="string[python]"),
        {"labels": GRADES},
    ),
    "pandas object strings with labels": lambda: (
        pd.Series(_names(T), dtype=object),
        pd.Series(_names(P), dtype=object),
        {"labels": GRADES},
    ),
    "polars Int64": lambda: (pl.Series(T), pl.Series(P, dtype=pl.UInt16), {}),
    "polars Float64": lambda: (pl.Series(T, dtype=pl.Float64), pl.Series(P, dtype=pl.Float32), {}),
    "polars Enum": lambda: (
        pl.Series(_names(T), dtype=pl.Enum(GRADES)),
        pl.Series(_names(P), dtype=pl.Enum(GRADES)),
        {},
    ),
    "polars Enum and a plain list": lambda: (
        pl.Series(_names(T), dtype=pl.Enum(GRADES)),
        _names(P),
        {},
    ),
    "polars Categorical with labels": lambda: (
        pl.Series(_names(T), dtype=pl.Categorical),
        pl.Series(_names(P), dtype=pl.Categorical),
        {"labels": GRADES},
    ),
    "polars String with labels": lambda: (
        pl.Series(_names(T)),
        pl.Series(_names(P)),
        {"labels": GRADES},
    ),
    "pyarrow int64": lambda: (pa.array(T), pa.array(P, type=pa.int8()), {}),
    "pyarrow ChunkedArray": lambda: (
        pa.chunked_array([T[:3], T[3:]]),
        pa.chunked_array([P[:7], P[7:]]),
        {},
    ),
    "pyarrow strings with labels": lambda: (
        pa.array(_names(T)),
        pa.array(_names(P), type=pa.large_string()),
        {"labels": GRADES},
    ),
    "pyarrow dictionary with labels": lambda: (
        pa.array(_names(T)).dictionary_encode(),
        pa.array(_names(P)).dictionary_encode(),
        {"labels": GRADES},
    ),
    "pyarrow ordered dictionary": lambda: (
        pa.DictionaryArray.from_arrays(pa.array(T, pa.int32()), pa.array(GRADES), ordered=True),
        pa.DictionaryArray.from_arrays(pa.array(P, pa.int32()), pa.array(GRADES), ordered=True),
        {},
    ),
    "pyarrow dictionary of integers": lambda: (
        pa.array(T).dictionary_encode(),
        pa.array(P).dictionary_encode(),
        {},
    ),
    "strings with labels": lambda: (_names(T), _names(P), {"labels": GRADES}),
    "numpy strings with tuple labels": lambda: (
        np.array(_names(T)),
        np.array(_names(P)),
        {"labels": tuple(GRADES)},
    ),
    "strings with pandas Index labels": lambda: (
        _names(T),
        _names(P),
        {"labels": pd.Index(GRADES)},
    ),
    "integers with range labels": lambda: (T, P, {"labels": range(4)}),
    "integers with numpy labels": lambda: (T, P, {"labels": np.arange(4)}),
    "integral floats with integer labels": lambda: (
        np.array(T, float),
        np.array(P, float),
        {"labels": [0, 1, 2, 3]},
    ),
    "mixed kinds with labels": lambda: (
        [("a" if v == 0 else v) for v in T],
        [("a" if v == 0 else v) for v in P],
        {"labels": ["a", 1, 2, 3]},
    ),
}

OMIT: dict[str, Case] = {
    "list with None": lambda: (_with_missing(T, None), P, {}),
    "list with nan": lambda: (T, _with_missing(P, float("nan")), {}),
    "list with pd.NA": lambda: (_with_missing(T, pd.NA), P, {}),
    "numpy float64 with nan": lambda: (np.array(_with_missing(T, np.nan)), np.array(P), {}),
    "numpy float32 with nan": lambda: (
        np.array(T, np.float32),
        np.array(_with_missing(P, np.nan), np.float32),
        {},
    ),
    "numpy object with None": lambda: (np.array(_with_missing(T, None), dtype=object), P, {}),
    "pandas float with NaN": lambda: (pd.Series(_with_missing(T, np.nan)), pd.Series(P), {}),
    "pandas Int64 with pd.NA": lambda: (
        pd.Series(_with_missing(T, pd.NA), dtype="Int64"),
        pd.Series(P, dtype="Int64"),
        {},
    ),
    "pandas Float64 with pd.NA": lambda: (
        pd.Series(_with_missing(T, pd.NA), dtype="Float64"),
        pd.Series(P),
        {},
    ),
    "pandas int64[pyarrow] with null": lambda: (
        pd.Series(_with_missing(T, None), dtype="int64[pyarrow]"),
        pd.Series(P),
        {},
    ),
    "pandas ordered Categorical with NaN": lambda: (
        pd.Series(pd.Categorical(_with_missing(_names(T), None), categories=GRADES, ordered=True)),
        pd.Series(pd.Categorical(_names(P), categories=GRADES, ordered=True)),
        {},
    ),
    "pandas default string dtype with NaN": lambda: (
        pd.Series(_with_missing(_names(T), None)),
        pd.Series(_names(P)),
        {"labels": GRADES},
    ),
    "pandas string[python] with pd.NA": lambda: (
        pd.Series(_names(T), dtype="string[python]"),
        pd.Series(_with_missing(_names(P), pd.NA), dtype="string[python]"),
        {"labels": GRADES},
    ),
    "strings with nan and labels": lambda: (
        _with_missing(_names(T), float("nan")),
        _names(P),
        {"labels": GRADES},
    ),
    "polars Int64 with null": lambda: (pl.Series(_with_missing(T, None)), pl.Series(P), {}),
    "polars Float64 with NaN": lambda: (
        pl.Series(_with_missing([float(v) for v in T], float("nan"))),
        pl.Series(P),
        {},
    ),
    "polars Enum with null": lambda: (
        pl.Series(_with_missing(_names(T), None), dtype=pl.Enum(GRADES)),
        pl.Series(_names(P), dtype=pl.Enum(GRADES)),
        {},
    ),
    "polars String with null": lambda: (
        pl.Series(_names(T)),
        pl.Series(_with_missing(_names(P), None)),
        {"labels": GRADES},
    ),
    "pyarrow int64 with null": lambda: (pa.array(_with_missing(T, None)), pa.array(P), {}),
    "pyarrow strings with null": lambda: (
        pa.array(_with_missing(_names(T), None)),
        pa.array(_names(P)),
        {"labels": GRADES},
    ),
    "pyarrow dictionary with null": lambda: (
        pa.array(_with_missing(_names(T), None)).dictionary_encode(),
        pa.array(_names(P)).dictionary_encode(),
        {"labels": GRADES},
    ),
}


def _expected(weights: Any, keep: list[int]) -> float:
    """The value on plain int64 arrays, categories 0..3."""
    return wk.weighted_kappa(
        np.array(T)[keep], np.array(P)[keep], weights=weights, min_rating=0, max_rating=3
    )


@pytest.mark.parametrize("weights", WEIGHTS, ids=["quadratic", "linear", "unweighted", "custom"])
@pytest.mark.parametrize("case", sorted(FULL))
def test_full_input_equals_numpy(case: str, weights: Any) -> None:
    y_true, y_pred, kwargs = FULL[case]()
    value = wk.weighted_kappa(y_true, y_pred, weights=weights, **kwargs)
    assert isinstance(value, float)
    assert value == _expected(weights, list(range(len(T))))


@pytest.mark.parametrize("case", sorted(FULL))
def test_full_input_table_equals_numpy(case: str) -> None:
    y_true, y_pred, kwargs = FULL[case]()
    table = wk.confusion_table(y_true, y_pred, **kwargs)
    assert table.dtype == np.int64
    assert np.array_equal(table, wk.confusion_table(np.array(T), np.array(P)))


@pytest.mark.parametrize("weights", WEIGHTS, ids=["quadratic", "linear", "unweighted", "custom"])
@pytest.mark.parametrize("case", sorted(OMIT))
def test_missing_values_under_each_policy(case: str, weights: Any) -> None:
    y_true, y_pred, kwargs = OMIT[case]()
    value = wk.weighted_kappa(y_true, y_pred, weights=weights, nan_policy="omit", **kwargs)
    assert value == _expected(weights, KEPT)
    assert np.isnan(
        wk.weighted_kappa(y_true, y_pred, weights=weights, nan_policy="propagate", **kwargs)
    )
    with pytest.raises(wk.WkappaError, match=r"`y_(true|pred)`.*position 4.*nan_policy"):
        wk.weighted_kappa(y_true, y_pred, weights=weights, **kwargs)
    table = wk.confusion_table(y_true, y_pred, nan_policy="omit", **kwargs)
    expected = wk.confusion_table(np.array(T)[KEPT], np.array(P)[KEPT], min_rating=0, max_rating=3)
    assert np.array_equal(table, expected)


def test_sample_weight_of_every_kind() -> None:
    weights = [1, 2, 0, 3, 1, 1, 2, 5, 1, 1]
    expected = wk.qwk(T, P, sample_weight=np.array(weights, dtype=float))
    for sample_weight in (
        weights,
        tuple(weights),
        np.array(weights, np.uint8),
        np.array(weights, np.float32),
        pd.Series(weights),
        pd.Series(weights, dtype="Int64"),
        pl.Series(weights),
        pa.array(weights),
    ):
        assert wk.qwk(T, P, sample_weight=sample_weight) == expected


def test_ordered_categorical_order_is_used_not_the_alphabet() -> None:
    """The category order low < mid < high < top, not high < low < mid < top."""
    y_true = pd.Series(pd.Categorical(_names(T), categories=GRADES, ordered=True))
    y_pred = pd.Series(pd.Categorical(_names(P), categories=GRADES, ordered=True))
    by_category_order = wk.qwk(y_true, y_pred)
    alphabetical = wk.qwk(_names(T), _names(P), labels=sorted(GRADES))
    assert by_category_order == wk.qwk(T, P)
    assert abs(by_category_order - alphabetical) > 0.1
    # The same with a polars Enum and with an ordered pyarrow dictionary.
    assert (
        wk.qwk(
            pl.Series(_names(T), dtype=pl.Enum(GRADES)), pl.Series(_names(P), dtype=pl.Enum(GRADES))
        )
        == by_category_order
    )
    # labels= overrides the categorical's own order.
    assert wk.qwk(y_true, y_pred, labels=sorted(GRADES)) == alphabetical


def test_unused_categories_of_an_ordered_categorical_count() -> None:
    """Categories are the categorical's list, used or not (like min_rating/max_rating)."""
    categories = ["none", *GRADES, "extra"]
    y_true = pd.Categorical(_names(T), categories=categories, ordered=True)
    y_pred = pd.Categorical(_names(P), categories=categories, ordered=True)
    assert wk.confusion_table(y_true, y_pred).shape == (6, 6)
    assert wk.qwk(y_true, y_pred) == wk.qwk(
        np.array(T) + 1, np.array(P) + 1, min_rating=0, max_rating=5
    )
    enum = pl.Enum(categories)
    assert wk.weighted_kappa(
        pl.Series(_names(T), dtype=enum), pl.Series(_names(P), dtype=enum), weights="linear"
    ) == wk.weighted_kappa(y_true, y_pred, weights="linear")


def test_unordered_categorical_rules() -> None:
    """Unordered string categories: fine for unweighted kappa (order is irrelevant there),
    an error asking for labels= for weighted kappa and for the table."""
    y_true = pd.Series(_names(T), dtype="category")
    y_pred = pd.Series(_names(P), dtype="category")
    unweighted = wk.weighted_kappa(y_true, y_pred, weights="unweighted")
    assert unweighted == pytest.approx(wk.weighted_kappa(T, P, weights="unweighted"), abs=1e-15)
    for call in (
        lambda: wk.qwk(y_true, y_pred),
        lambda: wk.weighted_kappa(y_true, y_pred, weights="linear"),
        lambda: wk.confusion_table(y_true, y_pred),
        lambda: wk.qwk(pl.Series(_names(T), dtype=pl.Categorical), pl.Series(_names(P))),
        lambda: wk.qwk(pa.array(_names(T)).dictionary_encode(), pa.array(_names(P))),
        lambda: wk.qwk(_names(T), _names(P)),
    ):
        with pytest.raises(wk.WkappaError, match=r"labels="):
            call()
    # Unordered categoricals with different category lists are fine for unweighted kappa.
    assert wk.weighted_kappa(
        pd.Series(["a", "b", "b"], dtype="category"),
        pd.Series(["a", "a", "a"], dtype="category"),
        weights="unweighted",
    ) == wk.weighted_kappa(["a", "b", "b"], ["a", "a", "a"], weights="unweighted")
    # Plain strings, polars Categorical and pyarrow dictionaries: the same for unweighted kappa.
    for a, b in (
        (_names(T), _names(P)),
        (pl.Series(_names(T), dtype=pl.Categorical), pl.Series(_names(P), dtype=pl.Categorical)),
        (pa.array(_names(T)).dictionary_encode(), pa.array(_names(P)).dictionary_encode()),
    ):
        assert wk.weighted_kappa(a, b, weights="unweighted") == unweighted


def test_two_ordered_categoricals_must_agree_on_the_order() -> None:
    y_true = pd.Categorical(_names(T), categories=GRADES, ordered=True)
    y_pred = pd.Categorical(_names(P), categories=GRADES[::-1], ordered=True)
    with pytest.raises(wk.WkappaError, match=r"different categories.*labels="):
        wk.qwk(y_true, y_pred)
    assert wk.qwk(y_true, y_pred, labels=GRADES) == wk.qwk(T, P)


def test_booleans() -> None:
    a = [True, False, True, True, False, False]
    b = [True, False, False, True, True, False]
    expected = wk.qwk([int(v) for v in a], [int(v) for v in b])
    assert wk.qwk(np.array(a), np.array(b)) == expected
    assert wk.qwk(a, b) == expected
    assert wk.qwk(pd.Series(a, dtype="boolean"), pl.Series(b)) == expected
    assert wk.qwk(pa.array(a), b) == expected


def test_extreme_integer_dtypes() -> None:
    """Values at the ends of each dtype are read exactly, never wrapped."""
    info = np.iinfo(np.int8)
    assert (
        wk.weighted_kappa(
            np.array([info.min, info.max], np.int8),
            np.array([info.max, info.min], np.int8),
            weights="linear",
        )
        == -1.0
    )
    # Ratings beyond ±2**62 would overflow int64 differences: refused, never wrapped.
    for big in (
        np.array([2**63 - 10, 2**63 - 1], np.uint64),
        np.array([-(2**63), 0], np.int64),
        [0, 2**62],
    ):
        with pytest.raises(wk.WkappaError, match=r"`y_true`.*too large"):
            wk.qwk(big, [0, 0])
    assert wk.qwk(np.array([2**61, 2**61 + 2], np.int64), np.array([2**61, 2**61 + 2])) == 1.0


def test_labels_never_coerce_kinds() -> None:
    """'0' is not 0: numpy would turn [0, 'a'] into strings; wkappa keeps each value."""
    with pytest.raises(wk.WkappaError, match=r"`y_true` contains '0'.*labels"):
        wk.qwk(["0", "1"], ["1", "1"], labels=[0, 1])
    with pytest.raises(wk.WkappaError, match=r"`y_true` contains 0,.*labels"):
        wk.qwk([0, 1], [1, 1], labels=["0", "1"])


def test_a_table_of_python_ints_is_read_as_counts() -> None:
    """An object array of Python ints: int64 when every count fits (the same kappa, bit for
    bit), float64 counts past 2**63 - 1 (as a uint64 table there); not "dtype object"."""
    base = [[10, 4, 1], [5, 10, 12], [2, 4, 12]]
    small = np.array(base, dtype=object)
    assert wk.kappa_from_table(small) == wk.kappa_from_table(base)
    assert wk.kappa_test_from_table(small).n == 60
    huge = small * 10**20
    assert wk.kappa_from_table(huge) == wk.kappa_from_table(np.array(base, float) * 1e20)
    assert wk.kappa_from_table(huge) == pytest.approx(wk.kappa_from_table(base), rel=1e-14)
    for cell, shown in (("a", "'a'"), (None, "None")):
        bad = np.array(base, dtype=object)
        bad[1, 2] = cell
        with pytest.raises(WkappaError, match=rf"table\[1, 2\] = {re.escape(shown)}"):
            wk.kappa_from_table(bad)
