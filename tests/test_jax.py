"""wkappa.jax: qwk under jit equals wk.qwk; kappa_loss and its gradient equal wkappa.torch's."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError
from wkappa.torch import KappaMetric as TorchKappaMetric
from wkappa.torch import WeightedKappaLoss as TorchKappaLoss

jax = pytest.importorskip("jax")
jnp = jax.numpy

from wkappa.jax import kappa_loss, qwk  # noqa: E402

jit_qwk = jax.jit(qwk, static_argnames="num_classes")


@st.composite
def _ratings(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    k = draw(st.integers(2, 7))
    # A few lengths only: jax compiles once per shape, and the values are what is tested.
    n = draw(st.sampled_from((2, 9, 60)))
    cells = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    y_true = np.array(draw(cells))
    y_pred = np.array(draw(cells))
    weight = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    return y_true, y_pred, weight, k


@given(_ratings())
def test_jit_qwk_equals_wk_qwk(data: tuple[np.ndarray, np.ndarray, np.ndarray, int]) -> None:
    y_true, y_pred, weight, k = data
    for sample_weight in (None, weight):
        expected = wk.qwk(
            y_true, y_pred, labels=range(k), sample_weight=sample_weight, zero_division=np.nan
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eager = float(qwk(y_true, y_pred, k, sample_weight=sample_weight))
        # Eagerly, an undefined kappa warns as wk.qwk's does (and nothing else warns).
        assert [w.category for w in caught] == [UndefinedKappaWarning] * bool(np.isnan(expected))
        jitted = float(jit_qwk(y_true, y_pred, num_classes=k, sample_weight=sample_weight))
        if np.isnan(expected):
            assert np.isnan(eager) and np.isnan(jitted)
        else:  # float32 without jax_enable_x64
            assert eager == pytest.approx(expected, rel=2e-6, abs=2e-6)
            assert jitted == pytest.approx(expected, rel=2e-6, abs=2e-6)


@pytest.mark.integration
def test_qwk_with_x64_equals_wk_qwk_to_float64() -> None:
    script = (
        "import numpy as np, jax, wkappa as wk\n"
        "from wkappa.jax import qwk\n"
        "rng = np.random.default_rng(0)\n"
        "worst = 0.0\n"
        "for k in (2, 3, 5, 9):\n"
        "    a, b = rng.integers(0, k, size=(2, 500))\n"
        "    w = rng.integers(0, 4, size=500)\n"
        "    got = jax.jit(qwk, static_argnames='num_classes')(a, b, num_classes=k, "
        "sample_weight=w)\n"
        "    assert got.dtype == np.float64, got.dtype\n"
        "    ref = wk.qwk(a, b, labels=range(k), sample_weight=w)\n"
        "    worst = max(worst, abs(float(got) - ref))\n"
        "print(worst)\n"
    )
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "JAX_ENABLE_X64": "1", "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout.strip().splitlines()[-1]) < 1e-13


def test_out_of_range_raises_eagerly_and_is_nan_under_jit() -> None:
    y_true = jnp.array([0, 1, 2, 3])
    with pytest.raises(WkappaError, match=r"`y_pred` must hold class indices in 0\.\.2.*row 3"):
        qwk(jnp.array([0, 1, 2, 2]), y_true, 3)
    with pytest.raises(WkappaError, match=r"`y_true`.*row 1 holds 1\.5"):
        qwk(np.array([0.0, 1.5, 2.0]), np.array([0, 1, 2]), 3)
    with pytest.raises(WkappaError, match=r"`y_true` must hold class indices in 0\.\.2"):
        qwk(np.array([0, -1, 2]), np.array([0, 1, 2]), 3)
    assert np.isnan(float(jit_qwk(jnp.array([0, 1, 2, 2]), y_true, num_classes=3)))
    assert np.isnan(float(jit_qwk(jnp.array([0.0, 1.5, 2.0]), jnp.array([0, 1, 2]), num_classes=3)))
    assert float(jit_qwk(jnp.array([0, 1, 2, 2]), jnp.array([0, 1, 2, 2]), num_classes=3)) == 1.0


def test_bad_arguments() -> None:
    with pytest.raises(WkappaTypeError, match="`num_classes` must be a Python int"):
        qwk(np.array([0, 1]), np.array([0, 1]), 2.0)  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="`num_classes` must be at least 2"):
        qwk(np.array([0, 0]), np.array([0, 0]), 1)
    with pytest.raises(WkappaError, match="same length"):
        qwk(np.array([0, 1, 1]), np.array([0, 1]), 2)
    with pytest.raises(WkappaError, match="shape \\(N,\\)"):
        qwk(np.zeros((2, 2), dtype=int), np.zeros((2, 2), dtype=int), 2)
    with pytest.raises(WkappaError, match="`sample_weight` must hold non-negative whole numbers"):
        qwk(np.array([0, 1]), np.array([0, 1]), 2, sample_weight=np.array([1.0, -1.0]))
    probs = jnp.full((3, 3), 1 / 3)
    with pytest.raises(WkappaError, match="both have shape"):
        kappa_loss(jnp.eye(3)[:2], probs)
    with pytest.raises(WkappaError, match="`form` must be"):
        kappa_loss(jnp.eye(3), probs, form="square")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="`eps` must be"):
        kappa_loss(jnp.eye(3), probs, eps=-1.0)
    with pytest.raises(WkappaTypeError, match="floating point"):
        kappa_loss(jnp.eye(3), jnp.eye(3, dtype=jnp.int32))
    with pytest.raises(WkappaError, match="weights"):
        kappa_loss(jnp.eye(3), probs, weights="quadratc")
    with pytest.raises(WkappaError, match=r"`y_prob` must have a column per class.*\(3, 1\)"):
        kappa_loss(jnp.ones((3, 1)), jnp.ones((3, 1)))


def test_counts_past_float32_integers_stay_exact() -> None:
    """More than 2**24 pairs in one cell: a float32 scatter-add stops counting there
    (16,777,216 + 1 == 16,777,216), and qwk gave 0.87598 where wk.qwk gives 0.87653."""
    n = 2**24 + 2**21
    rng = np.random.default_rng(0)
    y_true = np.zeros(n, dtype=np.int32)
    y_true[:100_000] = rng.integers(0, 3, 100_000)
    y_pred = y_true.copy()
    y_pred[:40_000] = rng.integers(0, 3, 40_000)
    exact = wk.qwk(y_true, y_pred)
    assert float(qwk(y_true, y_pred, 3)) == pytest.approx(exact, rel=1e-6)
    assert float(jit_qwk(y_true, y_pred, num_classes=3)) == pytest.approx(exact, rel=1e-6)
    weight = np.ones(n, dtype=np.float32)
    assert float(qwk(y_true, y_pred, 3, sample_weight=weight)) == pytest.approx(exact, rel=1e-6)


def test_labels_beyond_int32_are_refused_not_wrapped() -> None:
    """Without jax_enable_x64, JAX narrows int64 to int32: 2**32 wrapped to class 0 and qwk
    returned 1.0 for a table with a wrong label."""
    with pytest.raises(WkappaError, match=r"`y_true` must hold class indices.*4294967296"):
        qwk(np.array([2**32, 1, 2, 0]), np.array([0, 1, 2, 0]), 3)
    with pytest.raises(WkappaError, match=r"`y_pred` must hold class indices.*-1099511627776"):
        qwk(np.array([0, 1, 2, 0]), [0, 1, -(2**40), 0], 3)
    ordinary = qwk(np.array([0, 1, 2, 0], dtype=np.int64), np.array([0, 1, 2, 1]), 3)
    assert float(ordinary) == pytest.approx(0.8)


def test_messy_inputs_are_refused_by_name() -> None:
    """Text labels (JAX's own TypeError before), integer labels given to the loss (a hint to
    one-hot them) and a weights matrix or eps traced under jit (was "got JitTracer")."""
    with pytest.raises(WkappaTypeError, match=r"`y_true` must hold numbers; got 'a'"):
        qwk(["a", "b"], [0, 1], 2)
    with pytest.raises(WkappaTypeError, match=r"`y_pred` must hold numbers"):
        qwk(np.array([0, 1]), np.array(["x", "y"]), 2)
    probs = jnp.full((3, 3), 1 / 3)
    with pytest.raises(WkappaError, match=r"jax\.nn\.one_hot\(labels, 3\)"):
        kappa_loss(jnp.array([0, 1, 2]), probs)
    with pytest.raises(WkappaTypeError, match=r"`weights` is traced by jax\.jit"):
        jax.jit(lambda y, p: kappa_loss(y, p, weights=jnp.ones((3, 3)) - jnp.eye(3)))(
            jnp.eye(3), probs
        )
    with pytest.raises(WkappaTypeError, match=r"`eps` is traced by jax\.jit"):
        jax.jit(lambda e: kappa_loss(jnp.eye(3), probs, eps=e))(1e-7)
    # a concrete matrix closed over works under jit, as the docs say
    custom = np.ones((3, 3)) - np.eye(3)
    value = jax.jit(lambda y, p: kappa_loss(y, p, weights=custom))(jnp.eye(3), probs)
    assert float(value) == pytest.approx(float(kappa_loss(jnp.eye(3), probs, weights=custom)))


@pytest.mark.parametrize(
    ("y_true", "y_pred", "hint"),
    [
        (np.array([[0], [2]]), np.array([0, 1]), r"y_true\.ravel\(\) for a column"),
        (np.array([0, 2]), np.eye(3)[[0, 1]], r"y_pred\.argmax\(axis=1\)"),
        # a regression head's scores, which were refused with no way out
        (np.array([0, 2]), np.array([0.2, 1.7]), r"jnp\.clip\(jnp\.rint\(y_pred\), 0, 2\)"),
    ],
)
def test_qwk_of_a_column_or_one_hot_rows_gives_the_fix(
    y_true: np.ndarray, y_pred: np.ndarray, hint: str
) -> None:
    """These were refused without a way out ("must be class indices of shape (N,); got
    (2, 1).")."""
    with pytest.raises(WkappaError, match=r"\. Hint: .*" + hint):
        qwk(y_true, y_pred, 3)


@pytest.mark.parametrize("k", [2, 3])
def test_boolean_class_indices_give_one_kappa_in_numpy_torch_and_jax(k: int) -> None:
    """wkappa.jax.qwk and wkappa.torch.KappaMetric refused boolean class indices that
    wk.qwk reads as the classes 0 and 1; all three now give the 0/1 integers' kappa."""
    rng = np.random.default_rng(7)
    y_true = rng.random(40) < 0.5
    y_pred = y_true ^ (rng.random(40) < 0.3)
    expected = wk.qwk(y_true.astype(int), y_pred.astype(int), labels=range(k))
    assert wk.qwk(y_true, y_pred, labels=range(k)) == expected
    assert wk.qwk(y_true, y_pred, min_rating=0, max_rating=k - 1) == expected
    assert wk.qwk(torch.from_numpy(y_true), torch.from_numpy(y_pred), labels=range(k)) == expected
    metric = TorchKappaMetric(k)
    metric.update(torch.from_numpy(y_pred), torch.from_numpy(y_true))
    assert metric.compute() == pytest.approx(expected, abs=1e-15)
    for fn in (qwk, jit_qwk):
        for true, pred in ((y_true, y_pred), (jnp.asarray(y_true), jnp.asarray(y_pred))):
            got = float(fn(true, pred, num_classes=k))
            assert got == pytest.approx(expected, abs=1e-6)
            assert got == float(fn(true.astype(int), pred.astype(int), num_classes=k))


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted", "custom"])
@pytest.mark.parametrize("form", ["ratio", "log"])
def test_loss_and_gradient_equal_the_torch_loss(weights: str, form: str) -> None:
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(16, 4))
    labels = rng.integers(0, 4, size=16)
    matrix = rng.uniform(0.1, 2.0, size=(4, 4))
    np.fill_diagonal(matrix, 0.0)
    chosen = matrix if weights == "custom" else weights
    torch_logits = torch.tensor(logits, requires_grad=True)
    expected = TorchKappaLoss(4, weights=chosen, form=form)(torch_logits, torch.tensor(labels))
    expected.backward()
    assert torch_logits.grad is not None
    onehot = jax.nn.one_hot(labels, 4)

    def loss(z: object) -> object:
        return kappa_loss(onehot, jax.nn.softmax(z), weights=chosen, form=form)

    value, grad = jax.jit(jax.value_and_grad(loss))(jnp.asarray(logits, dtype=jnp.float32))
    assert float(value) == pytest.approx(expected.item(), rel=1e-5)
    np.testing.assert_allclose(np.asarray(grad), torch_logits.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_loss_is_one_minus_kappa_on_hard_predictions() -> None:
    rng = np.random.default_rng(4)
    y_true, y_pred = rng.integers(0, 5, size=(2, 40))
    onehot_true, onehot_pred = jax.nn.one_hot(y_true, 5), jax.nn.one_hot(y_pred, 5)
    value = float(kappa_loss(onehot_true, onehot_pred, eps=0.0))
    assert value == pytest.approx(1 - wk.qwk(y_true, y_pred, labels=range(5)), rel=1e-5)


@pytest.mark.parametrize("form", ["ratio", "log"])
def test_gradients_stay_finite_at_the_edges(form: str) -> None:
    one_class = jax.nn.one_hot(jnp.zeros(6, dtype=jnp.int32), 3)
    perfect = jax.nn.one_hot(jnp.array([0, 1, 2, 0, 1, 2]), 3)
    for onehot, logits in (
        (one_class, jnp.tile(jnp.array([30.0, 0.0, 0.0]), (6, 1))),  # no expected disagreement
        (perfect, 30.0 * perfect),  # (near) perfect predictions
        (perfect, jnp.zeros((6, 3))),  # uniform predictions
    ):
        grad = jax.grad(lambda z, y=onehot: kappa_loss(y, jax.nn.softmax(z), form=form))(logits)
        assert bool(jnp.isfinite(grad).all())


@pytest.mark.parametrize(
    "weight",
    [
        np.full(8, 1e30),
        np.full(8, 3e38),  # near the float32 maximum: its reciprocal is subnormal
        np.array([3e38, 1e38, 1e38, 2e38, 1e38, 1e38, 1e38, 1e38]),
        np.array([1e30, 1, 1, 1, 1, 1, 1, 1.0]),
    ],
)
def test_qwk_of_huge_sample_weights_is_the_kappa_not_nan(weight) -> None:
    """Kappa does not change when every weight is scaled; the squared float32 sums of
    weights near 1e30 overflowed, and the result was nan without a word."""
    y_true = np.array([0, 1, 2, 2, 1, 0, 1, 2])
    y_pred = np.array([0, 1, 2, 1, 1, 0, 2, 2])
    want = wk.qwk(y_true, y_pred, sample_weight=weight)
    assert float(qwk(y_true, y_pred, 3, sample_weight=weight)) == pytest.approx(want, rel=1e-6)
    got = float(jit_qwk(y_true, y_pred, num_classes=3, sample_weight=weight))
    assert got == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("scale", [1e30, 3e38])
def test_losses_of_huge_sample_weights_are_the_losses_of_weights_scaled_down(scale) -> None:
    """The losses do not change when every weight is scaled; the products of margins
    weighted near 1e30 overflowed float32, and the torch and jax losses were nan."""
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(3), 8).astype(np.float32)
    truth = np.array([0, 1, 2, 2, 1, 0, 1, 2])
    shape = np.array([1.0, 3.0, 2.0, 1.0, 1.0, 2.0, 1.0, 1.0], dtype=np.float32)
    huge = (shape / 3.0 * scale).astype(np.float32)
    onehot = np.eye(3, dtype=np.float32)[truth]
    want = float(kappa_loss(onehot, probs, sample_weight=shape))
    assert float(kappa_loss(onehot, probs, sample_weight=huge)) == pytest.approx(want, rel=1e-5)
    jitted = jax.jit(kappa_loss)(onehot, probs, sample_weight=huge)
    assert float(jitted) == pytest.approx(want, rel=1e-5)
    loss = TorchKappaLoss(num_classes=3, mode="probs")
    tensor = torch.tensor(probs, requires_grad=True)
    value = loss(tensor, torch.tensor(truth), sample_weight=torch.tensor(huge))
    value.backward()
    assert float(value.detach()) == pytest.approx(want, rel=1e-5)
    assert tensor.grad is not None and bool(torch.isfinite(tensor.grad).all())


def test_an_undefined_qwk_warns_eagerly_at_the_callers_line() -> None:
    """One grade on both sides (or no rows): nan, without a word where every other kappa of
    wkappa warns; under jit it stays a silent nan (a compiled call cannot warn)."""
    same = jnp.array([2, 2, 2])
    for y_true, y_pred in ((same, same), (jnp.zeros(0, int), jnp.zeros(0, int))):
        with pytest.warns(UndefinedKappaWarning, match=r"^Kappa is undefined: .*nan\.$") as w:
            assert np.isnan(float(qwk(y_true, y_pred, num_classes=4)))
        assert w[0].filename == __file__
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.isnan(float(jit_qwk(y_true, y_pred, num_classes=4)))
            assert float(qwk(jnp.array([0, 1]), jnp.array([0, 1]), num_classes=4)) == 1.0


def test_one_hot_targets_of_labels_numbered_from_one_are_refused() -> None:
    """jax.nn.one_hot(labels, K) of labels 1..K makes the rows of label K all 0: the loss
    left them out of the targets but not of the predictions and returned another number
    without a word. Eagerly it raises with the fix; under jit the loss
    is NaN; padding (a y_prob row of zeros, or sample_weight 0) still passes."""
    rng = np.random.default_rng(8)
    y_true, y_pred = rng.integers(0, 5, size=(2, 40))
    probs = jax.nn.one_hot(y_pred, 5) * 0.8 + 0.04
    right = float(kappa_loss(jax.nn.one_hot(y_true, 5), probs))
    shifted = jax.nn.one_hot(y_true + 1, 5)  # the user's labels 1..5
    top = int(np.flatnonzero(y_true == 4)[0])
    pattern = rf"^`y_true_onehot` row {top} is all 0, .*jax\.nn\.one_hot\(labels - 1, 5\)"
    with pytest.raises(WkappaError, match=pattern):
        kappa_loss(shifted, probs)
    assert np.isnan(float(jax.jit(kappa_loss)(shifted, probs)))
    # Padding passes: a zero target row beside a zero prediction row (counted in N), or
    # beside any prediction with sample_weight 0 (no row at all).
    padded_true = jnp.concatenate([jax.nn.one_hot(y_true, 5), jnp.zeros((3, 5))])
    padded_probs = jnp.concatenate([probs, jnp.zeros((3, 5))])
    assert np.isfinite(float(kappa_loss(padded_true, padded_probs)))
    masked = jnp.concatenate([probs, jnp.full((3, 5), 0.2)])
    weight = jnp.concatenate([jnp.ones(40), jnp.zeros(3)])
    assert float(kappa_loss(padded_true, masked, sample_weight=weight)) == pytest.approx(
        right, rel=1e-6
    )
    jitted = jax.jit(kappa_loss)(padded_true, masked, sample_weight=weight)
    assert float(jitted) == pytest.approx(right, rel=1e-6)


def test_target_rows_that_are_not_one_hot_are_refused() -> None:
    """A target row summing to 2 or holding a negative number is no class; soft (label-
    smoothed) rows summing to 1 are allowed."""
    probs = np.full((3, 3), 1 / 3, dtype=np.float32)
    for target in ([[0, 2, 0], [1, 0, 0], [0, 0, 1]], [[1.5, -0.5, 0], [1, 0, 0], [0, 0, 1]]):
        with pytest.raises(WkappaError, match=r"^`y_true_onehot` must hold class probab.*row 0"):
            kappa_loss(np.array(target, dtype=np.float32), probs)
        assert np.isnan(float(jax.jit(kappa_loss)(np.array(target, dtype=np.float32), probs)))
    smooth = np.array([[0.9, 0.05, 0.05], [0.05, 0.9, 0.05], [0.05, 0.05, 0.9]], np.float32)
    assert np.isfinite(float(kappa_loss(smooth, probs)))
