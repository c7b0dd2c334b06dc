"""Arrow columns of ordered categories read in chunks with their own dictionaries (a table
built from record batches of a stream that replaced its dictionary, or one that added to it).

pyarrow merges the chunks' dictionaries in the order the categories first appear. Where no
chunk gives two categories in the other order, that is every chunk's order and the column
stays ordered; where one does (``none < mild < severe``, then ``none < mild < moderate <
severe``: merged ``none, mild, severe, moderate``) the merged order is no chunk's, and the
weighted coefficients scored it (0.556 where the data give 0.750). Such a column is now read
as unordered: weighted coefficients refuse it with the ``labels=`` hint, which fixes the order.
``frames`` on such a ``pyarrow.Table`` ended in pyarrow's "Unifying differing dictionaries".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import wkappa as wk
from wkappa import frames
from wkappa._core import merged_categories

THREE = ["none", "mild", "severe"]
FOUR = ["none", "mild", "moderate", "severe"]


def _chunked(parts: list[tuple[list[int], list[str]]]) -> pa.ChunkedArray:
    return pa.chunked_array(
        [
            pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32()), pa.array(d), ordered=True)
            for codes, d in parts
        ]
    )


def _table(dictionaries: tuple[list[str], list[str]]) -> pa.Table:
    first, second = dictionaries
    return pa.table(
        {
            "a": _chunked([([0, 1, 2, 1], first), ([2, 3, 0, 1], second)]),
            "b": _chunked([([1, 1, 2, 0], first), ([3, 2, 0, 2], second)]),
        }
    )


def _codes(table: pa.Table, order: list[str]) -> tuple[list[int], list[int]]:
    return (
        [order.index(v) for v in table["a"].to_pylist()],
        [order.index(v) for v in table["b"].to_pylist()],
    )


ENTRY_POINTS: dict[str, Callable[..., float]] = {
    "weighted_kappa": lambda t, **kw: wk.weighted_kappa(t["a"], t["b"], **kw),
    "agreement": lambda t, **kw: wk.agreement(t, **kw).statistic,
    "frames.weighted_kappa": lambda t, **kw: frames.weighted_kappa(t, y_true="a", y_pred="b", **kw),
    "frames.agreement": lambda t, **kw: frames.agreement(t, raters=["a", "b"], **kw).statistic,
}


def _truth(name: str, x: list[int], y: list[int], **kw: Any) -> float:
    if "agreement" in name:
        return wk.agreement(np.c_[x, y], **kw).statistic
    return wk.weighted_kappa(x, y, **kw)


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_chunks_in_contradicting_orders_are_unordered(name: str) -> None:
    table = _table((THREE, FOUR))
    call = ENTRY_POINTS[name]
    weights = "quadratic"
    with pytest.raises(wk.WkappaError, match=r"ordered categor.*Hint: pass labels="):
        call(table, weights=weights)
    x, y = _codes(table, FOUR)
    assert call(table, weights=weights, labels=FOUR) == pytest.approx(
        _truth(name, x, y, weights=weights, labels=range(4)), abs=1e-15
    )
    assert call(table, weights="unweighted") == pytest.approx(
        _truth(name, x, y, weights="unweighted"), abs=1e-15
    )


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_chunks_that_add_categories_in_order_stay_ordered(name: str) -> None:
    table = _table((["none", "mild", "moderate"], FOUR))
    x, y = _codes(table, FOUR)
    found = ENTRY_POINTS[name](table, weights="quadratic")
    assert found == pytest.approx(_truth(name, x, y, weights="quadratic"), abs=1e-15)


def test_merged_categories() -> None:
    assert merged_categories([THREE, FOUR]) is None
    assert merged_categories([["none", "mild"], FOUR, ["mild", "severe"]]) == FOUR
    assert merged_categories([]) == []
