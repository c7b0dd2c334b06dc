"""The vectorised ``labels=`` fast path: same values and same errors as the strict encoding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from reference import reference_kappa
from routes import fast_and_strict
from wkappa._core.label_codes import label_codes

LABELS = ["poor", "fair", "good", "great", "superb"]
GAPS = [1, 2, 5, 10, 20]


pytestmark = pytest.mark.usefixtures("fast_path_for_small_inputs")


def _columns(values: list[Any]) -> dict[str, Any]:
    """The same ratings as every column kind the fast labels path reads."""
    out: dict[str, Any] = {"list": values, "numpy": np.array(values)}
    if isinstance(values[0], str):
        out |= {
            "pandas object": pd.Series(values, dtype=object),
            "pandas string": pd.Series(values, dtype="string"),
            "pandas category": pd.Series(values, dtype="category"),
            "polars String": pl.Series(values),
            "polars Categorical": pl.Series(values, dtype=pl.Categorical),
            "polars Enum": pl.Series(values, dtype=pl.Enum(LABELS)),
            "pyarrow string": pa.array(values),
        }
    else:
        out |= {"pandas int": pd.Series(values), "numpy int16": np.array(values, np.int16)}
    return out


def _same_as_strict(call: Callable[[], Any]) -> tuple[Any, str]:
    fast, strict = fast_and_strict(call)
    assert fast == strict
    return fast


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40),
    st.sampled_from(["quadratic", "linear", "unweighted"]),
    st.booleans(),
)
def test_labels_fast_path_matches_the_reference(
    pairs: list[tuple[int, int]], weights: str, strings: bool
) -> None:
    names = LABELS if strings else GAPS
    a_idx = [p[0] for p in pairs]
    b_idx = [p[1] for p in pairs]
    a = [names[i] for i in a_idx]
    b = [names[i] for i in b_idx]
    exact = reference_kappa(a_idx, b_idx, 5, weights)
    for kind, column in _columns(a).items():
        other = _columns(b)[kind]
        assert label_codes(column, other, names) is not None, kind
        got = wk.weighted_kappa(column, other, weights=weights, labels=names, zero_division=0.5)
        assert got == pytest.approx(0.5 if exact is None else float(exact), abs=1e-12), kind
        table = wk.confusion_table(column, other, labels=names)
        assert (
            table.tolist() == wk.confusion_table(a_idx, b_idx, min_rating=0, max_rating=4).tolist()
        )


BAD = {
    "unknown string": (["poor", "bad"], ["poor", "fair"], LABELS),
    "unknown int": ([1, 3], [1, 2], GAPS),
    "string vs int labels": (["1", "2"], ["1", "2"], GAPS),
    "int vs string labels": ([0, 1], [1, 1], ["0", "1"]),
    "missing": (["poor", None], ["poor", "fair"], LABELS),
    "duplicate labels": (["poor"], ["poor"], ["poor", "poor"]),
    "empty labels": (["poor"], ["poor"], []),
}


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("kind", ["list", "numpy", "pandas object", "polars", "pyarrow"])
def test_bad_labels_input_raises_as_the_strict_path(case: str, kind: str) -> None:
    a, b, labels = BAD[case]
    make: dict[str, Callable[[list[Any]], Any]] = {
        "list": list,
        "numpy": np.array,
        "pandas object": lambda v: pd.Series(v, dtype=object),
        "polars": pl.Series,
        "pyarrow": pa.array,
    }
    try:
        y_true, y_pred = make[kind](a), make[kind](b)
    except (TypeError, ValueError, pl.exceptions.PolarsError, pa.ArrowException):
        pytest.skip("this column kind cannot hold these values")
    error, _ = _same_as_strict(lambda: wk.qwk(y_true, y_pred, labels=labels))
    assert error is not None
    _same_as_strict(lambda: wk.confusion_table(y_true, y_pred, labels=labels))


def test_missing_values_with_labels_follow_nan_policy() -> None:
    a = pd.Series(["poor", None, "good"], dtype=object)
    b = pd.Series(["poor", "fair", "fair"], dtype=object)
    for policy in ("raise", "omit", "propagate"):
        _same_as_strict(lambda p=policy: wk.qwk(a, b, labels=LABELS, nan_policy=p))
