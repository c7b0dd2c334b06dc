"""Bad input through the fused fast path: exactly the strict path's exception and message.

The fast path never raises a validation error itself: when its fused checks see anything wrong
it hands over to the strict encoding, which raises. These tests run every row of the core
bad-input table, and numpy inputs of every dtype that do reach the kernels, once normally and
once with the fast path switched off, and require the same exception type and message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from routes import fast_and_strict
from test_core_bad_input import ROWS
from wkappa._core import fused as _fastpath
from wkappa._core.request import Request

pytestmark = pytest.mark.usefixtures("fast_path_for_small_inputs")


def _both_paths(call: Callable[[], Any]) -> None:
    fast, strict = fast_and_strict(call)
    assert fast == strict
    assert fast[0] is not None  # each case is bad input


@pytest.mark.parametrize("case", list(ROWS))
def test_core_bad_input_table_through_the_fast_path(case: str) -> None:
    _both_paths(ROWS[case].call)


NAN, INF = float("nan"), float("inf")
GOOD = np.array([0, 1, 2, 2, 1])


def _numpy_rows(dtype: str) -> dict[str, Callable[[], Any]]:
    good = GOOD.astype(dtype)
    rows: dict[str, Callable[[], Any]] = {
        "lengths differ": lambda: wk.qwk(good, good[:-1]),
        "empty": lambda: wk.qwk(good[:0], good[:0]),
        "2-D": lambda: wk.qwk(good.reshape(-1, 1), good),
        "below min_rating": lambda: wk.qwk(good, good, min_rating=1),
        "above max_rating": lambda: wk.weighted_kappa(
            good, good, weights="linear", max_rating=int(good.max()) - 1
        ),
        "min > max": lambda: wk.qwk(good, good, min_rating=3, max_rating=2),
        "float bound": lambda: wk.qwk(good, good, min_rating=0.5),
        "huge bound": lambda: wk.qwk(good, good, min_rating=-(2**62)),
        "labels and bounds": lambda: wk.qwk(good, good, labels=[0, 1, 2], max_rating=2),
        "negative weight": lambda: wk.qwk(good, good, sample_weight=[1, 1, -1, 1, 1]),
        "NaN weight": lambda: wk.qwk(good, good, sample_weight=np.array([1, NAN, 1, 1, 1])),
        "inf weight": lambda: wk.confusion_table(good, good, sample_weight=[1, INF, 1, 1, 1]),
        "short weights": lambda: wk.qwk(good, good, sample_weight=np.ones(4)),
        "2-D weights": lambda: wk.qwk(good, good, sample_weight=np.ones((5, 1))),
        "custom weights shape": lambda: wk.weighted_kappa(good, good, weights=1 - np.eye(7)),
        "bad nan_policy": lambda: wk.qwk(good, good, nan_policy="drop"),  # type: ignore[arg-type]
        "undefined, raise": lambda: wk.qwk(good[:1], good[:1], zero_division="raise"),
    }
    if dtype.startswith("float"):
        for name, value in {
            "NaN": NAN,
            "inf": INF,
            "-inf": -INF,
            "1.5": 1.5,
            "huge": 2.0**62,
        }.items():
            bad = good.copy()
            bad[3] = value
            rows[f"{name} in y_true"] = lambda bad=bad: wk.qwk(bad, good)
            rows[f"{name} in y_pred, linear"] = lambda bad=bad: wk.weighted_kappa(
                good, bad, weights="linear"
            )
            rows[f"{name} in y_pred, table"] = lambda bad=bad: wk.confusion_table(good, bad)
    if dtype == "uint64":
        big = np.array([2**63 - 10, 2**63 + 1, 0], dtype=np.uint64)
        rows["above int64"] = lambda: wk.qwk(big, big)
    if dtype == "int64":
        rows["K too large"] = lambda: wk.weighted_kappa(
            np.array([0, 10**12]), np.array([0, 1]), weights="linear"
        )
        rows["range too wide for a table"] = lambda: wk.confusion_table(
            np.array([0, 2**20]), np.array([0, 1])
        )
    return rows


DTYPES = ["int8", "int64", "uint8", "uint64", "bool", "float32", "float64"]
NUMPY_ROWS = [(dtype, name) for dtype in DTYPES for name in _numpy_rows(dtype)]


@pytest.mark.parametrize(("dtype", "name"), NUMPY_ROWS)
def test_numpy_bad_input_through_the_fast_path(dtype: str, name: str) -> None:
    _both_paths(_numpy_rows(dtype)[name])


def test_missing_values_are_handled_by_the_strict_path() -> None:
    a = np.array([0.0, NAN, 2.0, 3.0])
    b = np.array([0.0, 1.0, 2.0, 2.0])
    assert (
        _fastpath.fused_route(a, b, Request(sample_weight=None, quadratic=True))
        is None
    )  # fmt: skip
    assert wk.qwk(a, b, nan_policy="omit") == wk.qwk([0, 2, 3], [0, 2, 2])
    assert np.isnan(wk.qwk(a, b, nan_policy="propagate"))
