"""The hint for ratings or scores given as a column per class, for every parameter name that
reaches :func:`wkappa._core.check_one_dimensional`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa._core import check_one_dimensional
from wkappa.exceptions import WkappaError

RNG = np.random.default_rng(4)
Y = RNG.integers(0, 4, size=40)
PROBA = RNG.dirichlet(np.ones(4), size=40)


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("y_pred_a", lambda: wk.paired_kappa_test(Y, PROBA, Y)),
        ("y_pred_b", lambda: wk.paired_kappa_test(Y, Y, PROBA)),
        ("y_pred", lambda: wk.quadratic_weighted_kappa(Y, PROBA)),
    ],
)
def test_class_scores_of_every_rating_name_get_the_argmax(
    name: str, call: Callable[[], Any]
) -> None:
    """paired_kappa_test's two predictions were told '.ravel() for a column vector', which
    on (n, K) class scores scores n*K numbers as if they were ratings."""
    with pytest.raises(WkappaError, match=rf"^`{name}` must be 1-D; got shape \(40, 4\)") as info:
        call()
    assert f"pass {name}.argmax(axis=1)." in str(info.value)
    assert "ravel" not in str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda proba: wk.optimize_thresholds(Y, proba),
        lambda proba: wk.apply_thresholds(proba, [0.5, 1.5, 2.5]),
    ],
)
def test_class_probabilities_as_scores_get_the_expected_class(call: Callable[[Any], Any]) -> None:
    """One score per row is wanted: class probabilities (here a list of rows, which has no
    shape of its own) are turned into the expected class, and the fix the message names
    runs."""
    with pytest.raises(WkappaError, match=r"^`y_score` must be 1-D; got shape \(40, 4\)") as info:
        call(PROBA.tolist())
    message = str(info.value)
    assert "proba @ class_values (proba @ np.arange(4) for classes 0..3)" in message
    assert "proba.argmax(axis=1)" in message and "ravel" not in message
    call(PROBA @ np.arange(4))  # the fix as written
    call(PROBA.argmax(axis=1))  # the alternative


@pytest.mark.parametrize("name", ["y_true", "y_pred_a", "y_score"])
def test_a_single_row_may_also_be_ravelled(name: str) -> None:
    with pytest.raises(WkappaError, match=r"\(or \.ravel\(\) for one row of values\)\.$"):
        check_one_dimensional(name, (1, 4))


@pytest.mark.parametrize("name", ["y_true", "y_pred_b", "y_score", "sample_weight"])
def test_a_column_vector_gets_ravel(name: str) -> None:
    with pytest.raises(WkappaError, match=r"Hint: use \.ravel\(\) for a column vector\.$"):
        check_one_dimensional(name, (5, 1))
