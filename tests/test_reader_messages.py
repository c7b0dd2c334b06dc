"""The words of two refusals: a generator or iterator given as data, and a label spelled two
ways in a frame (named by its column by every frame function)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError, WkappaTypeError


def _generator() -> Any:
    return (value for value in [1, 2, 1, 3])


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("y_true", lambda g: wk.qwk(g, [1, 2, 1, 3])),
        ("y_pred", lambda g: wk.weighted_kappa([1, 2, 1, 3], g)),
        ("y_true", lambda g: wk.kappa_test(g, [1, 2, 1, 3])),
        ("y_true", lambda g: wk.confusion_table(g, [1, 2, 1, 3])),
        ("sample_weight", lambda g: wk.qwk([1, 2, 1, 3], [1, 2, 1, 3], sample_weight=g)),
        ("cluster", lambda g: wk.kappa_test([1, 2, 1, 3], [1, 2, 1, 3], cluster=g)),
        ("y_pred_b", lambda g: wk.paired_kappa_test([1, 2, 1, 3], [1, 2, 1, 3], g)),
        ("ratings", lambda g: wk.agreement(g)),
        ("candidate", lambda g: wk.rater_vs_panel([[1, 2], [2, 1], [1, 1], [3, 3]], g)),
        ("ratings", lambda g: wk.icc(g)),
        ("x", lambda g: wk.ccc(g, [1, 2, 1, 3])),
        ("kappas", lambda g: wk.mean_kappa(g)),
    ],
)
def test_a_generator_is_named_as_one_with_the_fix(name: str, call: Callable[[Any], Any]) -> None:
    with pytest.raises(WkappaTypeError) as caught:
        call(_generator())
    message = str(caught.value)
    assert f"`{name}` is a generator" in message and "scalar" not in message
    assert "pass a list or an array" in message


@pytest.mark.parametrize("make", [lambda: iter([1, 2, 1, 3]), lambda: map(int, "1213")])
def test_other_iterators_are_named_by_their_type(make: Callable[[], Any]) -> None:
    iterator = make()
    with pytest.raises(
        WkappaTypeError, match=rf"`y_true` is an iterator \({type(iterator).__name__}\)"
    ):
        wk.qwk(iterator, [1, 2, 1, 3])


def test_reusable_iterables_still_work() -> None:
    assert wk.qwk(range(4), range(4)) == 1.0
    assert wk.qwk(np.arange(4), tuple(range(4))) == 1.0


def _spelling_refusal(call: Callable[[], Any]) -> str:
    with pytest.raises(WkappaError, match="differ only by case") as caught:
        call()
    return str(caught.value)


def test_frames_name_the_column_of_a_second_spelling(frame_library: Any) -> None:
    from wkappa import frames

    frame = frame_library.frame(
        {"g": [1, 1, 2, 2], "a": ["lo", "hi", "lo", "hi"], "b": ["lo", "Hi", "lo", "hi"]}
    )
    options = {"y_true": "a", "y_pred": "b", "weights": "unweighted"}
    calls = [
        lambda: frames.weighted_kappa(frame, **options),
        lambda: frames.kappa_test(frame, **options),
        lambda: frames.kappa_by_group(frame, by="g", **options),
    ]
    for call in calls:
        message = _spelling_refusal(call)
        assert "first in column 'b'" in message and "position" not in message
