"""An empty frame on every frame library: each function of wkappa.frames refuses it with the
WkappaError of the array function, and no warning of the engine's reaches the caller (a
lazy engine's aggregate of no rows, Dask's mean as 0 / 0, is not the caller's business)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from wkappa import WkappaError

frames = pytest.importorskip("wkappa.frames")

PAIR = {"y_true": "a", "y_pred": "b"}
CALLS = [
    ("weighted_kappa", PAIR, "nothing to score"),
    ("confusion_table", PAIR, "nothing to score"),
    ("kappa_test", PAIR, "nothing to score"),
    ("kappa_by_group", {**PAIR, "by": "g"}, "nothing to score"),
    ("agreement", {"raters": ["a", "b"]}, "nothing to score"),
    ("icc", {"raters": ["a", "b"]}, "0 items"),
    ("icc_all", {"raters": ["a", "b"]}, "0 items"),
    ("ccc", {"raters": ["a", "b"]}, "at least two complete items; got 0"),
    ("paired_kappa_test", {"y_true": "a", "y_pred_a": "b", "y_pred_b": "c"}, "nothing to score"),
]


@pytest.mark.parametrize(("function", "keywords", "message"), CALLS)
def test_an_empty_frame_is_the_arrays_error_without_warnings(
    frame_library: Any, function: str, keywords: Any, message: str
) -> None:
    df = frame_library.frame(
        {"a": [], "b": [], "c": [], "g": []},
        dtypes={"a": "float64", "b": "float64", "c": "float64", "g": "string"},
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(WkappaError, match=message):
            getattr(frames, function)(df, **keywords)
    numeric = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert numeric == []


@pytest.mark.parametrize("function", ["icc", "ccc"])
def test_a_rating_column_of_nulls_only_is_named(frame_library: Any, function: str) -> None:
    """A column with no value has no numeric type (pandas reads it as objects, pyarrow,
    polars, DuckDB and Spark as a type of nulls): the error names it, and says why where the
    library gives it a type of nulls."""
    df = frame_library.frame({"a": [1.0, 2.0, 3.0], "b": [None, None, None]})
    with pytest.raises(WkappaError, match="The rating column 'b' must be numeric") as raised:
        getattr(frames, function)(df, raters=["a", "b"])
    if frame_library.name in ("polars", "polars-lazy", "pyarrow"):
        assert "(a column of nulls only, as read, has no type)" in str(raised.value)
