"""One ``sample_weight`` rule for the training metrics: whole-number counts.

``wkappa.jax.qwk``, ``wkappa.torch.KappaMetric`` and ``wkappa.keras.CohenKappa`` all read
``sample_weight`` as the count each row adds: whole numbers give ``wk.qwk`` with the same
weights, and a fractional, negative or non-finite weight is refused by every one of them,
naming ``sample_weight`` and the fix (``wkappa.jax.qwk`` took fractional weights, the other
two refused them).
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError, WkappaTypeError

jax = pytest.importorskip("jax")
torch = pytest.importorskip("torch")
keras = pytest.importorskip("keras")

from wkappa.jax import qwk as jax_qwk  # noqa: E402
from wkappa.keras import CohenKappa  # noqa: E402
from wkappa.torch import KappaMetric  # noqa: E402

RNG = np.random.default_rng(3)
Y_TRUE = RNG.integers(0, 5, 60)
Y_PRED = np.clip(Y_TRUE + RNG.integers(-1, 2, 60), 0, 4)
WHOLE = RNG.integers(0, 4, 60).astype(np.float32)
RULE = r"`sample_weight` must hold non-negative whole numbers.*row 2 holds 0\.5"


def _torch(weight: np.ndarray) -> float:
    metric = KappaMetric(5)
    metric.update(torch.tensor(Y_PRED), torch.tensor(Y_TRUE), torch.tensor(weight))
    return metric.compute()


def _keras(weight: np.ndarray) -> float:
    metric = CohenKappa(5, weightage="quadratic", sparse_labels=True)
    metric.update_state(Y_TRUE, Y_PRED, sample_weight=weight)
    return float(keras.ops.convert_to_numpy(metric.result()))


def _jax(weight: np.ndarray) -> float:
    return float(jax_qwk(Y_TRUE, Y_PRED, 5, sample_weight=weight))


def test_whole_number_weights_give_the_same_kappa_everywhere() -> None:
    exact = wk.qwk(Y_TRUE, Y_PRED, labels=range(5), sample_weight=WHOLE)
    assert _torch(WHOLE) == exact
    assert _keras(WHOLE) == np.float32(exact)
    assert _jax(WHOLE) == pytest.approx(exact, rel=1e-6)


@pytest.mark.parametrize("entry", [_torch, _keras, _jax])
def test_fractional_weights_are_refused_by_every_metric(entry: object) -> None:
    weight = WHOLE.copy()
    weight[2] = 0.5
    with pytest.raises(WkappaError, match=r"`sample_weight` must hold non-negative whole"):
        entry(weight)  # type: ignore[operator]


def test_jax_qwk_names_the_row_and_the_fix() -> None:
    weight = WHOLE.copy()
    weight[2] = 0.5
    with pytest.raises(WkappaError, match=RULE + r".*scale fractional weights"):
        _jax(weight)
    weight[2] = -1
    with pytest.raises(WkappaError, match=r"whole numbers.*row 2 holds -1"):
        _jax(weight)


def test_jax_qwk_under_jit_is_nan_for_a_fractional_weight() -> None:
    fast = jax.jit(jax_qwk, static_argnames="num_classes")
    weight = WHOLE.copy()
    assert float(fast(Y_TRUE, Y_PRED, num_classes=5, sample_weight=weight)) == pytest.approx(
        _jax(weight)
    )
    weight[2] = 0.5
    assert np.isnan(float(fast(Y_TRUE, Y_PRED, num_classes=5, sample_weight=weight)))


def test_jax_qwk_refuses_text_weights_by_name() -> None:
    with pytest.raises(WkappaTypeError, match="`sample_weight` must hold numbers"):
        jax_qwk(Y_TRUE[:3], Y_PRED[:3], 5, sample_weight=["a", "b", "c"])


def test_a_zero_weight_masks_a_padded_row_out() -> None:
    padded_true = np.concatenate([Y_TRUE, np.zeros(4, dtype=int)])
    padded_pred = np.concatenate([Y_PRED, np.full(4, 4)])
    mask = np.concatenate([np.ones(60), np.zeros(4)])
    expected = wk.qwk(Y_TRUE, Y_PRED, labels=range(5))
    assert float(jax_qwk(padded_true, padded_pred, 5, sample_weight=mask)) == pytest.approx(
        expected, rel=1e-6
    )
