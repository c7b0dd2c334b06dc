"""wkappa.keras in this process (the backend conftest.py chooses, PyTorch by default).

Exactness against wkappa's core over random batch splits and weights, the decoding rules and
the errors. tests/test_keras.py runs real training on every backend in subprocesses.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError

keras = pytest.importorskip("keras")

from wkappa.keras import CohenKappa, WeightedKappaLoss  # noqa: E402


def _value(metric: CohenKappa) -> float:
    return float(keras.ops.convert_to_numpy(metric.result()))


@st.composite
def _batches(draw: st.DrawFn) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, list[int]]:
    k = draw(st.integers(2, 6))
    n = draw(st.integers(4, 80))
    y_true = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    y_pred = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    weight = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    cuts = sorted(draw(st.lists(st.integers(1, n - 1), max_size=4, unique=True)))
    return k, y_true, y_pred, weight, cuts


@settings(max_examples=25)
@given(_batches(), st.sampled_from([None, "linear", "quadratic"]))
def test_any_split_and_weights_give_wk_weighted_kappa(
    data: tuple[int, np.ndarray, np.ndarray, np.ndarray, list[int]], weightage: str | None
) -> None:
    k, y_true, y_pred, weight, cuts = data
    metric = CohenKappa(k, weightage=weightage, sparse_labels=True, zero_division=np.nan)
    for rows in np.split(np.arange(len(y_true)), cuts):
        metric.update_state(y_true[rows], y_pred[rows], sample_weight=weight[rows].astype("f4"))
    expected = wk.weighted_kappa(
        y_true,
        y_pred,
        weights={None: "unweighted"}.get(weightage, weightage),
        labels=range(k),
        sample_weight=weight,
        zero_division=np.nan,
    )
    table = wk.confusion_table(y_true, y_pred, labels=range(k), sample_weight=weight)
    np.testing.assert_array_equal(metric.table, table)
    if np.isnan(expected):
        assert np.isnan(_value(metric))
    else:
        assert _value(metric) == np.float32(expected)


def test_decoding_rules() -> None:
    y_true = np.array([0, 1, 2, 3, 4, 2])
    scores = np.eye(5, dtype="float32")[[0, 1, 1, 3, 4, 2]]
    expected = wk.qwk(y_true, [0, 1, 1, 3, 4, 2], labels=range(5))
    one_hot = CohenKappa(5, weightage="quadratic")  # one-hot y_true, (N, K) scores
    one_hot.update_state(np.eye(5)[y_true], scores)
    assert _value(one_hot) == np.float32(expected)
    regression = CohenKappa(5, weightage="quadratic", sparse_labels=True, regression=True)
    regression.update_state(y_true[:, None], np.array([[0.2], [1.4], [0.5], [2.5], [4.4], [1.6]]))
    # round half to even: 0.5 -> 0, 2.5 -> 2
    assert _value(regression) == np.float32(wk.qwk(y_true, [0, 1, 0, 2, 4, 2], labels=range(5)))
    clipped = CohenKappa(5, weightage="quadratic", sparse_labels=True, regression=True, clip=True)
    clipped.update_state(y_true, np.array([-0.7, 1.0, 2.0, 3.0, 6.2, 2.0]))
    assert _value(clipped) == np.float32(wk.qwk(y_true, [0, 1, 2, 3, 4, 2], labels=range(5)))
    binary = CohenKappa(2)  # TFA's rule: one probability per row, p > 0.5
    binary.update_state(np.array([0, 1, 1, 0]), np.array([0.2, 0.7, 0.5, 0.9]))
    assert _value(binary) == np.float32(
        wk.weighted_kappa([0, 1, 1, 0], [0, 1, 0, 1], weights="unweighted")
    )


def test_strict_checks_raise_with_the_row() -> None:
    metric = CohenKappa(3, sparse_labels=True)
    with pytest.raises(WkappaError, match=r"`y_true` must hold class indices in 0\.\.2.*row 1: 3"):
        metric.update_state(np.array([0, 3]), np.array([0, 1]))
    with pytest.raises(WkappaError, match=r"`y_true`.*row 0: 0\.5"):
        metric.update_state(np.array([0.5, 1.0]), np.array([0, 1]))
    with pytest.raises(WkappaError, match=r"`y_pred` must hold scores without NaN.*row 1"):
        metric.update_state(np.array([0, 1]), np.array([[1.0, 0, 0], [np.nan, 0, 0]]))
    with pytest.raises(WkappaError, match=r"`y_pred`.*row 0: -1"):
        metric.update_state(np.array([0, 1]), np.array([-1, 1]))
    with pytest.raises(WkappaError, match="`sample_weight` must hold non-negative whole numbers"):
        metric.update_state(np.array([0, 1]), np.array([0, 1]), sample_weight=np.array([1, -2]))
    regression = CohenKappa(3, sparse_labels=True, regression=True)
    with pytest.raises(WkappaError, match="clip=True"):
        regression.update_state(np.array([0, 1]), np.array([0.0, 2.7]))
    np.testing.assert_array_equal(metric.table, np.zeros((3, 3)))  # nothing was counted
    with pytest.raises(WkappaError, match="one-hot rows"):
        metric.update_state(np.eye(3), np.array([0, 1, 2]))
    with pytest.raises(WkappaError, match="sparse_labels=True"):
        CohenKappa(3).update_state(np.array([0, 1, 2]), np.array([0, 1, 2]))
    with pytest.raises(WkappaError, match="same number of rows"):
        metric.update_state(np.array([0, 1, 2]), np.array([0, 1]))


def test_bad_arguments() -> None:
    with pytest.raises(WkappaTypeError, match="`num_classes` must be an int"):
        CohenKappa(3.0)  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="`num_classes` must be at least 2"):
        WeightedKappaLoss(1)
    with pytest.raises(WkappaError, match="`weightage` must be one of"):
        CohenKappa(3, weightage="quadratc")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="`weightage` must be one of 'linear', 'quadratic'"):
        WeightedKappaLoss(3, weightage=None)  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="`epsilon`"):
        WeightedKappaLoss(3, epsilon=-1.0)
    with pytest.raises(WkappaError, match="`form`"):
        WeightedKappaLoss(3, form="square")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="`zero_division`"):
        CohenKappa(3, zero_division="ignore")  # type: ignore[arg-type]
    loss = WeightedKappaLoss(3)
    with pytest.raises(WkappaError, match=r"`y_pred` must have shape \(N, 3\)"):
        loss(np.eye(3), np.ones((3, 2)) / 2)
    with pytest.raises(WkappaError, match="Hint: sparse_labels=True"):
        loss(np.array([0, 1, 2]), np.eye(3))
    with pytest.raises(WkappaError, match=r"`y_true` must hold class indices in 0\.\.2; row 2"):
        WeightedKappaLoss(3, sparse_labels=True)(np.array([0, 1, 5]), np.eye(3))
    with pytest.raises(WkappaTypeError, match="Can only merge CohenKappa"):
        CohenKappa(3).merge_state([object()])  # type: ignore[list-item]
    with pytest.raises(WkappaError, match="same num_classes and weightage"):
        CohenKappa(3).merge_state([CohenKappa(4)])


def test_messy_inputs_are_refused_by_name() -> None:
    """Text labels, a sample_weight of the wrong length and a num_classes that does not match
    the model's output layer are WkappaErrors naming the argument (they were the backend's
    TypeError / ValueError / RuntimeError, or a bare shape)."""
    metric = CohenKappa(3, sparse_labels=True)
    with pytest.raises(WkappaTypeError, match=r"`y_true` must hold numbers.*'mild'"):
        metric.update_state(np.array(["mild", "severe"]), np.array([0, 1]))
    with pytest.raises(WkappaTypeError, match=r"`y_pred` must hold numbers"):
        metric.update_state(np.array([0, 1]), ["a", "b"])
    with pytest.raises(WkappaError, match=r"`sample_weight` must hold one weight per row: 3 rows"):
        metric.update_state(np.array([0, 1, 2]), np.array([0, 1, 2]), sample_weight=np.ones(2))
    with pytest.raises(WkappaError, match=r"last layer has 5 units needs num_classes=5"):
        metric.update_state(np.array([0, 1]), np.full((2, 5), 0.2))
    with pytest.raises(WkappaError, match=r"num_classes is 3, but each one-hot row has 4"):
        CohenKappa(3).update_state(np.eye(4), np.eye(4))
    np.testing.assert_array_equal(metric.table, np.zeros((3, 3)))  # nothing was counted
    loss = WeightedKappaLoss(3, sparse_labels=True)
    with pytest.raises(WkappaError, match=r"`sample_weight` must hold one weight per row: 3 rows"):
        loss(np.array([0, 1, 2]), np.full((3, 3), 1 / 3), sample_weight=np.ones(2))
    with pytest.raises(WkappaError, match=r"last layer has 4 units needs num_classes=4"):
        loss(np.array([0, 1, 2]), np.full((3, 4), 0.25))
    with pytest.raises(WkappaTypeError, match=r"`y_true` must hold numbers"):
        loss(np.array(["a", "b", "c"]), np.full((3, 3), 1 / 3))


def test_undefined_kappa_follows_zero_division() -> None:
    metric = CohenKappa(3, sparse_labels=True)
    with pytest.warns(UndefinedKappaWarning):
        assert np.isnan(_value(metric))  # empty table
    metric = CohenKappa(3, sparse_labels=True, zero_division=0.0)
    metric.update_state(np.array([1, 1]), np.array([1, 1]))
    assert _value(metric) == 0.0


def test_loss_sample_weight_is_repetition() -> None:
    """An integer sample weight counts a row that many times, in both forms."""
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(4), size=10).astype("float32")
    labels = rng.integers(0, 4, size=10)
    weight = rng.integers(1, 4, size=10)
    repeated = np.repeat(np.arange(10), weight)
    for form in ("log", "ratio"):
        loss = WeightedKappaLoss(4, form=form, sparse_labels=True)
        weighted = float(keras.ops.convert_to_numpy(loss(labels, probs, weight.astype("f4"))))
        expanded = float(keras.ops.convert_to_numpy(loss(labels[repeated], probs[repeated])))
        assert weighted == pytest.approx(expanded, rel=1e-5)
        onehot = WeightedKappaLoss(4, form=form)(np.eye(4)[labels], probs)
        assert float(keras.ops.convert_to_numpy(onehot)) == pytest.approx(
            float(keras.ops.convert_to_numpy(loss(labels, probs))), rel=1e-6
        )


@pytest.mark.parametrize("form", ["log", "ratio"])
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0])
def test_loss_refuses_a_bad_sample_weight_and_is_nan_when_traced(
    form: str, bad: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A NaN, infinite or negative weight raises eagerly, naming its row, and makes the loss
    NaN in a compiled graph. The loss was 0 for NaN and infinity (the total weight was not
    > 0, read as a batch without weight) and a finite number for -1, with no error."""
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(4), size=6).astype("float32")
    labels = rng.integers(0, 4, size=6)
    weight = np.array([1.0, bad, 1.0, 2.0, 1.0, 1.0], dtype="float32")
    loss = WeightedKappaLoss(4, form=form, sparse_labels=True)
    with pytest.raises(WkappaError, match=r"^`sample_weight` must hold finite non-negative "):
        loss(labels, probs, weight)
    import wkappa._keras_inputs as inputs
    import wkappa.keras as wkeras

    for module in (wkeras, inputs):
        monkeypatch.setattr(module, "is_traced", lambda value: True)
    assert np.isnan(float(keras.ops.convert_to_numpy(loss(labels, probs, weight))))
    fine = float(keras.ops.convert_to_numpy(loss(labels, probs, np.ones(6, dtype="float32"))))
    assert np.isfinite(fine)


@pytest.mark.parametrize("scores", [np.array([[0.7], [2.2]]), np.array([0.7, 2.2])])
def test_a_regression_head_without_regression_true_gets_the_option(scores: np.ndarray) -> None:
    """One fractional score per row was refused as a bad class index, without the option
    that rounds it; a whole-number index out of range gets no such hint."""
    metric = CohenKappa(5, sparse_labels=True)
    with pytest.raises(WkappaError, match=r"Hint: regression=True rounds one score per row"):
        metric.update_state(np.array([1, 2]), scores)
    with pytest.raises(WkappaError) as info:
        CohenKappa(5, sparse_labels=True).update_state(np.array([1, 2]), np.array([1, 7]))
    assert "regression=True" not in str(info.value)
    rounded = CohenKappa(5, sparse_labels=True, regression=True)
    rounded.update_state(np.array([1, 2]), scores)
    assert rounded.table.sum() == 2


def test_ratio_form_is_one_minus_kappa_on_hard_predictions() -> None:
    rng = np.random.default_rng(1)
    y_true, y_pred = rng.integers(0, 5, size=(2, 50))
    for weightage in ("linear", "quadratic"):
        loss = WeightedKappaLoss(5, weightage=weightage, form="ratio", epsilon=0.0)
        value = float(keras.ops.convert_to_numpy(loss(np.eye(5)[y_true], np.eye(5)[y_pred])))
        kappa = wk.weighted_kappa(y_true, y_pred, weights=weightage, labels=range(5))
        assert value == pytest.approx(1 - kappa, rel=1e-5)


def test_a_table_that_could_overflow_is_refused() -> None:
    metric = CohenKappa(3, sparse_labels=True)
    limit = int(np.iinfo(metric._count_dtype).max)
    metric._table.assign(np.full((3, 3), limit - 5, dtype=metric._count_dtype))
    with pytest.raises(WkappaError, match="count table could overflow"):
        metric.update_state(np.array([0, 1]), np.array([0, 1]), sample_weight=np.array([3, 3]))
    metric.update_state(np.array([0, 1]), np.array([0, 1]), sample_weight=np.array([2, 3]))
    assert metric.table[1, 1] == limit - 2


@pytest.mark.parametrize("guard", [True, float("nan"), float("inf"), -1.0, "0.1"])
def test_keras_pytorch_and_jax_losses_share_one_rule_for_form_and_guard(guard: object) -> None:
    """PyTorch took eps=True as 1.0 and eps=inf, Keras epsilon=nan, JAX eps=inf: each loss
    checked its own way."""
    torch_loss = pytest.importorskip("wkappa.torch").WeightedKappaLoss
    jax_loss = pytest.importorskip("wkappa.jax").kappa_loss
    calls = {
        "epsilon": lambda: WeightedKappaLoss(3, epsilon=guard),  # type: ignore[arg-type]
        "eps": lambda: torch_loss(3, eps=guard),
        "eps ": lambda: jax_loss(np.eye(3), np.eye(3), eps=guard),
    }
    for name, call in calls.items():
        with pytest.raises(WkappaError, match=f"`{name.strip()}` must be a non-negative float"):
            call()
    for call in (
        lambda: WeightedKappaLoss(3, form="square"),  # type: ignore[arg-type]
        lambda: torch_loss(3, form="square"),
        lambda: jax_loss(np.eye(3), np.eye(3), form="square"),
    ):
        with pytest.raises(WkappaError, match="`form` must be 'ratio' or 'log'; got 'square'"):
            call()


@pytest.mark.parametrize("scale", [1e30, 3e38])
def test_loss_of_huge_sample_weights_is_the_loss_of_weights_scaled_down(scale: float) -> None:
    """The loss does not change when every weight is scaled; the products of margins
    weighted near 1e30 overflowed float32 and the loss was nan."""
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(3), 8).astype("float32")
    onehot = np.eye(3, dtype="float32")[[0, 1, 2, 2, 1, 0, 1, 2]]
    shape = np.array([1.0, 3.0, 2.0, 1.0, 1.0, 2.0, 1.0, 1.0], dtype="float32")
    loss = WeightedKappaLoss(num_classes=3)
    want = float(keras.ops.convert_to_numpy(loss(onehot, probs, sample_weight=shape)))
    huge = (shape / 3.0 * scale).astype("float32")
    got = float(keras.ops.convert_to_numpy(loss(onehot, probs, sample_weight=huge)))
    assert got == pytest.approx(want, rel=1e-5)


def test_loss_refuses_rows_that_are_not_probabilities_as_the_torch_and_jax_losses() -> None:
    """With from_logits=False the rows of `y_pred` are probabilities: logits (or any scores)
    gave a loss without a word. A row of zeros (padding) and half-precision softmax rows
    pass, as in wkappa.torch (mode='probs') and wkappa.jax.kappa_loss."""
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(12, 4)).astype("float32")
    labels = rng.integers(0, 4, size=12)
    loss = WeightedKappaLoss(4, sparse_labels=True)
    for scores, row in ((logits, 0), (np.abs(logits) + 0.5, 0)):
        with pytest.raises(WkappaError, match=rf"^`y_pred` must hold class probabilities .*row "
                           rf"{row} .*Hint: from_logits=True for raw scores"):  # fmt: skip
            loss(labels, scores)
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    shifted = probs.copy()
    shifted[5] = [0.5, 0.5, 0.2, -0.2]  # sums to 1, one negative value
    with pytest.raises(WkappaError, match=r"row 5 holds \[0\.5, 0\.5, 0\.2, -0\.2\]"):
        loss(labels, shifted)
    padded = probs.copy()
    padded[-3:] = 0.0
    weight = np.r_[np.ones(9), np.zeros(3)].astype("float32")
    assert np.isfinite(float(keras.ops.convert_to_numpy(loss(labels, padded, weight))))
    for dtype in ("float16", "bfloat16"):
        halves = keras.ops.cast(keras.ops.softmax(keras.ops.convert_to_tensor(logits)), dtype)
        value = float(keras.ops.convert_to_numpy(loss(labels, halves)))
        assert value == pytest.approx(float(keras.ops.convert_to_numpy(loss(labels, probs))),
                                      abs=2e-2)  # fmt: skip
    on_logits = WeightedKappaLoss(4, sparse_labels=True, from_logits=True)
    assert float(keras.ops.convert_to_numpy(on_logits(labels, logits))) == pytest.approx(
        float(keras.ops.convert_to_numpy(loss(labels, probs))), rel=1e-5
    )


def test_loss_of_rows_that_do_not_pair_up_names_both_arguments() -> None:
    """y_true and y_pred with different numbers of rows: the loss failed inside the backend's
    matrix product (torch's RuntimeError, JAX's ValueError, TensorFlow's
    InvalidArgumentError), as the metric refuses them by name."""
    probs = np.full((5, 3), 1 / 3, dtype="float32")
    for loss, y_true in (
        (WeightedKappaLoss(3, sparse_labels=True), np.array([0, 1, 2, 1])),
        (WeightedKappaLoss(3), np.eye(3, dtype="float32")[[0, 1, 2, 1]]),
    ):
        with pytest.raises(WkappaError, match=r"^`y_true` and `y_pred` must have the same "
                           r"number of rows; got 4 and 5\.$"):  # fmt: skip
            loss(y_true, probs)
