"""The hint of a missing rating under nan_policy='raise' offers 'propagate' only where the
function takes it: a table, a test result or a running table cannot be nan."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError

TRUE = [1.0, 2.0, np.nan, 1.0, 2.0, 1.0]
PRED = [1.0, 2.0, 2.0, 1.0, 1.0, 1.0]
STRATA = [0, 0, 0, 1, 1, 1]


def _hint(call: Callable[[], Any]) -> str:
    with pytest.raises(WkappaError, match="missing rating") as caught:
        call()
    message = str(caught.value)
    assert "nan_policy='omit'" in message
    return message


@pytest.mark.parametrize(
    "call",
    [
        lambda t, p: wk.confusion_table(t, p),
        lambda t, p: wk.kappa_test(t, p),
        lambda t, p: wk.kappa_test(t, p, cluster=STRATA),
        lambda t, p: wk.stratified_kappa_test(t, p, strata=STRATA),
        lambda t, p: wk.KappaAccumulator(min_rating=1, max_rating=2).update(t, p),
    ],
)
def test_no_propagate_where_it_is_refused(call: Callable[[Any, Any], Any]) -> None:
    assert "propagate" not in _hint(lambda: call(TRUE, PRED))


def test_propagate_is_offered_where_it_is_taken() -> None:
    message = _hint(lambda: wk.weighted_kappa(TRUE, PRED))
    assert "nan_policy='propagate' returns nan" in message


@pytest.mark.parametrize("library", ["torch", "dask"])
def test_device_and_dask_routes_word_it_alike(library: str) -> None:
    if library == "torch":
        torch = pytest.importorskip("torch")
        true, pred = torch.tensor(TRUE), torch.tensor(PRED)
    else:
        da = pytest.importorskip("dask.array")
        true, pred = da.from_array(np.array(TRUE), chunks=3), da.from_array(np.array(PRED), 3)
    assert "propagate" not in _hint(lambda: wk.kappa_test(true, pred))
    assert "propagate' returns nan" in _hint(lambda: wk.weighted_kappa(true, pred))


def test_frames(frame_library: Any) -> None:
    from wkappa import frames

    frame = frame_library.frame({"a": TRUE, "b": PRED, "g": STRATA})
    options = {"y_true": "a", "y_pred": "b"}
    for call in (
        lambda: frames.confusion_table(frame, **options),
        lambda: frames.kappa_test(frame, **options),
        lambda: frames.kappa_test(frame, cluster="g", **options),
    ):
        assert "propagate" not in _hint(call)
    for call in (
        lambda: frames.weighted_kappa(frame, **options),
        lambda: frames.kappa_by_group(frame, by="g", **options),
    ):
        assert "propagate' returns nan" in _hint(call)
