"""Grades 1..K given where the training integrations take class indices 0..K-1.

Every entry point refuses the label K (never bins it), and the error now says what the
usual cause is and the fix: class indices start at 0, so pass ``labels - 1``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from wkappa.exceptions import WkappaError

torch = pytest.importorskip("torch")
jax = pytest.importorskip("jax")
keras = pytest.importorskip("keras")

from wkappa.jax import qwk as jax_qwk  # noqa: E402
from wkappa.keras import CohenKappa, WeightedKappaLoss  # noqa: E402
from wkappa.torch import KappaMetric  # noqa: E402
from wkappa.torch import WeightedKappaLoss as TorchLoss  # noqa: E402

GRADES = np.array([1, 2, 3, 4, 5, 3])  # grades 1..5, five classes
HINT = r"class indices start at 0; for labels 1\.\.5, pass labels - 1"


def _torch_metric() -> None:
    KappaMetric(5).update(torch.tensor(GRADES), torch.tensor(GRADES))


def _torch_loss() -> None:
    TorchLoss(5)(torch.zeros(6, 5), torch.tensor(GRADES))


def _jax_qwk() -> None:
    jax_qwk(GRADES, GRADES, 5)


def _keras_metric() -> None:
    CohenKappa(5, sparse_labels=True).update_state(GRADES, GRADES)


def _keras_loss() -> None:
    WeightedKappaLoss(5, sparse_labels=True)(GRADES, np.full((6, 5), 0.2, dtype="float32"))


@pytest.mark.parametrize("call", [_torch_metric, _torch_loss, _jax_qwk, _keras_metric, _keras_loss])
def test_grades_from_one_are_refused_with_the_fix(call: Callable[[], None]) -> None:
    with pytest.raises(WkappaError, match=HINT):
        call()


def test_other_out_of_range_labels_get_no_such_hint() -> None:
    with pytest.raises(WkappaError) as error:
        jax_qwk(np.array([0, 7]), np.array([0, 1]), 5)
    assert "labels - 1" not in str(error.value)
