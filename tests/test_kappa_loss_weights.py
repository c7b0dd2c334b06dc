"""``sample_weight`` of the soft kappa losses of wkappa.torch and wkappa.jax.

Row ``i`` counts ``w_i`` times, as in the Keras loss: integer weights equal the rows written
out, a weight of 0 masks a padded row out, hard predictions give ``1 - wk.qwk`` with the
same (fractional) weights, and a batch whose weights are all 0 has loss 0 with a zero
gradient, so a fully padded batch does not disturb training.
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError, WkappaTypeError

torch = pytest.importorskip("torch")
jax = pytest.importorskip("jax")
jnp = jax.numpy

from wkappa.jax import kappa_loss  # noqa: E402
from wkappa.torch import WeightedKappaLoss  # noqa: E402

RNG = np.random.default_rng(8)
N, K = 40, 5
TARGET = RNG.integers(0, K, N)
LOGITS = RNG.normal(size=(N, K))
COUNTS = RNG.integers(0, 4, N)
FRACTIONS = RNG.random(N)


def _torch(
    logits: np.ndarray, target: np.ndarray, weight: np.ndarray | None, **kw: object
) -> float:
    loss = WeightedKappaLoss(K, **kw)  # type: ignore[arg-type]
    w = None if weight is None else torch.tensor(weight)
    return float(loss(torch.tensor(logits), torch.tensor(target), w))


def _jax(logits: np.ndarray, target: np.ndarray, weight: np.ndarray | None, **kw: object) -> float:
    probs = jax.nn.softmax(jnp.asarray(logits, dtype=jnp.float32))
    onehot = jax.nn.one_hot(jnp.asarray(target), K)
    return float(kappa_loss(onehot, probs, sample_weight=weight, **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize("form", ["ratio", "log"])
def test_integer_weights_are_the_rows_written_out(form: str) -> None:
    repeated = np.repeat(np.arange(N), COUNTS)
    expected = _torch(LOGITS[repeated], TARGET[repeated], None, form=form)
    assert _torch(LOGITS, TARGET, COUNTS.astype(float), form=form) == pytest.approx(expected)
    assert _jax(LOGITS, TARGET, COUNTS, form=form) == pytest.approx(expected, abs=2e-6)


@pytest.mark.parametrize("form", ["ratio", "log"])
def test_zero_weights_mask_padding_out(form: str) -> None:
    padded_logits = np.concatenate([LOGITS, RNG.normal(size=(8, K))])
    padded_target = np.concatenate([TARGET, np.zeros(8, dtype=int)])
    mask = np.concatenate([np.ones(N), np.zeros(8)])
    expected = _torch(LOGITS, TARGET, None, form=form)
    assert _torch(padded_logits, padded_target, mask, form=form) == pytest.approx(expected)
    assert _jax(padded_logits, padded_target, mask, form=form) == pytest.approx(expected, rel=1e-5)


def test_hard_predictions_give_one_minus_weighted_qwk() -> None:
    predicted = np.clip(TARGET + RNG.integers(-1, 2, N), 0, K - 1)
    exact = wk.qwk(TARGET, predicted, labels=range(K), sample_weight=FRACTIONS)
    probs = np.eye(K)[predicted]
    loss = WeightedKappaLoss(K, mode="probs", eps=0.0)
    value = loss(torch.tensor(probs), torch.tensor(TARGET), torch.tensor(FRACTIONS))
    assert 1 - float(value) == pytest.approx(exact, rel=1e-12)
    jax_value = kappa_loss(jnp.eye(K)[TARGET], jnp.asarray(probs), eps=0.0, sample_weight=FRACTIONS)
    assert 1 - float(jax_value) == pytest.approx(exact, rel=1e-5)


@pytest.mark.parametrize("form", ["ratio", "log"])
@pytest.mark.parametrize("eps", [0.0, 1e-7])
def test_a_batch_without_weight_has_loss_zero_and_zero_gradient(form: str, eps: float) -> None:
    logits = torch.tensor(LOGITS, requires_grad=True)
    loss = WeightedKappaLoss(K, form=form, eps=eps)(  # type: ignore[arg-type]
        logits, torch.tensor(TARGET), torch.zeros(N)
    )
    loss.backward()
    assert loss.item() == 0.0 and logits.grad is not None
    assert torch.equal(logits.grad, torch.zeros_like(logits.grad))
    empty = WeightedKappaLoss(K, form=form, eps=eps)(  # type: ignore[arg-type]
        torch.zeros(0, K), torch.zeros(0, dtype=torch.long)
    )
    assert float(empty) == 0.0
    onehot = jax.nn.one_hot(jnp.asarray(TARGET), K)

    def masked(z: jax.Array) -> jax.Array:
        probs = jax.nn.softmax(z)
        return kappa_loss(onehot, probs, form=form, eps=eps, sample_weight=jnp.zeros(N))  # type: ignore[arg-type]

    value, grad = jax.jit(jax.value_and_grad(masked))(jnp.asarray(LOGITS, dtype=jnp.float32))
    assert float(value) == 0.0 and not bool(jnp.any(grad != 0))


def test_bad_weights_are_refused_by_name() -> None:
    loss = WeightedKappaLoss(K)
    logits, target = torch.tensor(LOGITS), torch.tensor(TARGET)
    with pytest.raises(WkappaError, match=r"`sample_weight` must have shape \(40,\)"):
        loss(logits, target, torch.ones(3))
    with pytest.raises(WkappaError, match=r"finite non-negative.*row 1 holds -1"):
        loss(logits, target, torch.tensor([1.0, -1.0] + [1.0] * (N - 2)))
    with pytest.raises(WkappaTypeError, match=r"`sample_weight` must be a torch\.Tensor"):
        loss(logits, target, np.ones(N))
    probs, onehot = jnp.full((N, K), 1 / K), jnp.eye(K)[TARGET]
    with pytest.raises(WkappaError, match=r"`sample_weight` must have shape \(40,\)"):
        kappa_loss(onehot, probs, sample_weight=np.ones(3))
    with pytest.raises(WkappaError, match=r"finite non-negative.*row 0 holds nan"):
        kappa_loss(onehot, probs, sample_weight=np.r_[np.nan, np.ones(N - 1)])
    with pytest.raises(WkappaTypeError, match="`sample_weight` must hold numbers"):
        kappa_loss(onehot, probs, sample_weight=["a"] * N)


@pytest.mark.parametrize("form", ["ratio", "log"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -1.0])
def test_a_bad_weight_under_jit_makes_the_jax_loss_nan_not_a_number(form: str, bad: float) -> None:
    """Under jax.jit a NaN, infinite or negative weight cannot raise: the loss is NaN (so
    training stops visibly) with a zero gradient. It was 0 for NaN and infinity (the total
    weight was not > 0, read as a batch without weight) and a finite number for -1."""
    onehot = jax.nn.one_hot(jnp.asarray(TARGET), K)
    weight = jnp.asarray(np.r_[bad, np.ones(N - 1)], dtype=jnp.float32)

    def loss(z: jax.Array, w: jax.Array) -> jax.Array:
        return kappa_loss(onehot, jax.nn.softmax(z), form=form, sample_weight=w)  # type: ignore[arg-type]

    value, grad = jax.jit(jax.value_and_grad(loss))(jnp.asarray(LOGITS, dtype=jnp.float32), weight)
    assert np.isnan(float(value))
    assert not bool(jnp.any(grad != 0))
    with pytest.raises(WkappaError, match=r"finite non-negative.*row 0 holds"):
        kappa_loss(onehot, jax.nn.softmax(jnp.asarray(LOGITS)), sample_weight=np.asarray(weight))


def _ordinal(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4))
    score = x @ np.array([1.0, -0.7, 0.5, 0.3]) + rng.normal(scale=0.5, size=n)
    return x.astype(np.float32), np.digitize(score, [-1.5, -0.5, 0.5, 1.5])


def test_torch_training_on_padded_batches_with_a_mask() -> None:
    """Fixed-shape batches of 64, the last one padded (and one batch all padding): the
    masked loss trains the model as the unpadded batches do, and stays finite."""
    x, y = _ordinal(600, 0)
    xv, yv = _ordinal(300, 1)
    batches = []
    for start in range(0, 640, 64):
        rows = np.arange(start, start + 64)
        real = rows < 600
        xb = np.where(real[:, None], x[np.minimum(rows, 599)], 0.0).astype(np.float32)
        yb = np.where(real, y[np.minimum(rows, 599)], 0)
        batches.append((torch.tensor(xb), torch.tensor(yb), torch.tensor(real.astype(np.float32))))
    batches.append((batches[0][0], batches[0][1], torch.zeros(64)))  # a batch of padding only
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, K))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = WeightedKappaLoss(K, form="log")
    for _ in range(15):
        for xb, yb, mask in batches:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb, mask)
            loss.backward()
            optimizer.step()
    assert all(bool(torch.isfinite(p).all()) for p in model.parameters())
    with torch.no_grad():
        predicted = model(torch.tensor(xv)).argmax(dim=1).numpy()
    assert wk.qwk(yv, predicted, labels=range(K)) > 0.7


@pytest.mark.parametrize("form", ["ratio", "log"])
def test_torch_soft_targets_match_jax_and_one_hot_rows(form: str) -> None:
    """Soft targets (N, K), as the JAX and Keras losses take them; the torch loss refused
    them ("`target` must have shape (40,)")."""
    loss = WeightedKappaLoss(K, form=form)  # type: ignore[arg-type]
    logits, target = torch.tensor(LOGITS), torch.tensor(TARGET)
    onehot = torch.nn.functional.one_hot(target, K).double()
    assert float(loss(logits, onehot)) == float(loss(logits, target))
    smooth = 0.9 * onehot + 0.1 / K
    probs = jax.nn.softmax(jnp.asarray(LOGITS, dtype=jnp.float32))
    expected = float(kappa_loss(jnp.asarray(smooth.numpy()), probs, form=form))  # type: ignore[arg-type]
    assert float(loss(logits, smooth, torch.ones(N))) == pytest.approx(expected, abs=2e-6)
    with pytest.raises(WkappaError, match=r"`target` as class probabilities must have the shape"):
        loss(logits, smooth[:, :3])


@pytest.mark.parametrize("case", ["logits", "relu", "padded"])
def test_logits_given_as_probabilities_are_refused_by_name(case: str) -> None:
    """Logits (or any scores) given where the losses take probabilities gave a loss without
    an error (mode='probs' of torch, kappa_loss's y_prob); a row of zeros (padding) passes."""
    scores = {"logits": LOGITS, "relu": np.abs(LOGITS) + 0.5}.get(case)
    if scores is None:  # padding: probabilities with rows of zeros
        probs = np.exp(LOGITS) / np.exp(LOGITS).sum(axis=1, keepdims=True)
        probs[-3:] = 0.0
        loss = WeightedKappaLoss(K, mode="probs")(torch.tensor(probs), torch.tensor(TARGET))
        assert np.isfinite(float(loss))
        onehot = jnp.eye(K)[TARGET]
        assert np.isfinite(float(kappa_loss(onehot, jnp.asarray(probs, dtype=jnp.float32))))
        return
    with pytest.raises(WkappaError, match=r"^`input` must hold class probabilities .*row 0 .*"
                       r"Hint: mode='logits' for raw scores"):  # fmt: skip
        WeightedKappaLoss(K, mode="probs")(torch.tensor(scores), torch.tensor(TARGET))
    for dtype in (torch.float16, torch.bfloat16):  # half-precision softmax rows pass
        halves = torch.softmax(torch.tensor(LOGITS), dim=1).to(dtype)
        assert torch.isfinite(WeightedKappaLoss(K, mode="probs")(halves, torch.tensor(TARGET)))
    unchecked = WeightedKappaLoss(K, mode="probs", validate_args=False)
    assert np.isfinite(float(unchecked(torch.tensor(scores), torch.tensor(TARGET))))
    onehot = jnp.eye(K)[TARGET]
    with pytest.raises(WkappaError, match=r"^`y_prob` must hold class probabilities .*"
                       r"jax\.nn\.softmax\(logits\)"):  # fmt: skip
        kappa_loss(onehot, jnp.asarray(scores, dtype=jnp.float32))
    soft = jax.nn.softmax(jnp.asarray(LOGITS)).astype(jnp.bfloat16)
    assert np.isfinite(float(kappa_loss(onehot, soft)))
    # Under jit Python cannot raise: such rows make the loss NaN with a zero gradient, as
    # a bad sample weight does (the loss was finite, computed from the logits as given).
    given = jnp.asarray(scores, dtype=jnp.float32)
    assert np.isnan(float(jax.jit(kappa_loss)(onehot, given)))
    grad = jax.grad(lambda p: jax.jit(kappa_loss)(onehot, p))(given)
    assert not np.asarray(grad).any()
    probs = jax.nn.softmax(given)
    assert np.isfinite(float(jax.jit(kappa_loss)(onehot, probs)))
    assert float(jax.jit(kappa_loss)(onehot, probs)) == pytest.approx(
        float(kappa_loss(onehot, probs)), rel=1e-6
    )


@pytest.mark.parametrize("scale", [1e100, 1e300])
def test_float64_weights_beyond_float32_are_scaled_in_float64(scale: float) -> None:
    """float64 weights past float32's range: the torch loss read the largest weight's
    exponent through float32, where it is inf, scaled nothing and returned NaN (the JAX
    and Keras losses scale them by the same power-of-two rule)."""
    logits = torch.tensor(LOGITS, requires_grad=True)
    weight = torch.tensor(COUNTS + 1.0, dtype=torch.float64)
    loss = WeightedKappaLoss(K, eps=0.0)  # eps is absolute: without it, scale-free
    want = float(loss(logits, torch.tensor(TARGET), weight).detach())
    value = loss(logits, torch.tensor(TARGET), weight * scale)
    value.backward()
    assert float(value.detach()) == pytest.approx(want, rel=1e-12)
    assert logits.grad is not None and bool(torch.isfinite(logits.grad).all())
