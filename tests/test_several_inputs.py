"""Several raters' inputs and results at their edges: a missing or scalar input, a ragged
`multiplicity`, results whose inference is undefined, values of interval and ratio alpha,
cluster ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaTypeError

PANEL = [[0, 1], [1, 1], [2, 2]]


@pytest.mark.parametrize("value", [None, 3, 1.0, np.float64(2.0)])
@pytest.mark.parametrize(
    ("call", "name", "expected"),
    [
        (lambda v: wk.rater_vs_panel(PANEL, v), "candidate", "a 1-D array-like of ratings"),
        (lambda v: wk.rater_vs_panel(v, [0, 1, 2]), "ratings", "a 2-D array"),
        (lambda v: wk.group_agreement(v, PANEL), "ratings_a", "a 2-D array"),
        (lambda v: wk.group_agreement(PANEL, v), "ratings_b", "a 2-D array"),
        (lambda v: wk.agreement(v), "ratings", "a 2-D array"),
        (lambda v: wk.krippendorff_alpha(v), "ratings", "a 2-D array"),
    ],
)
def test_none_or_a_scalar_is_refused_naming_the_parameter(
    call: Callable[[Any], Any], name: str, expected: str, value: Any
) -> None:
    got = "NoneType" if value is None else f"the scalar {value}"
    with pytest.raises(WkappaTypeError, match=rf"^`{name}` must be {expected}.*; got ") as info:
        call(value)
    assert str(info.value).endswith(f"; got {got}.")
    assert "\n" not in str(info.value)
