"""Checks of wkappa.keras on one Keras backend, run in a subprocess by tests/test_keras.py.

Keras reads ``KERAS_BACKEND`` once, when it is first imported, so each backend needs its own
process: ``KERAS_BACKEND=jax python tests/keras_backend_checks.py [check ...]`` prints one
JSON object (check name -> its result, or ``{"error": ...}``) on its last line.
"""

from __future__ import annotations

import copy
import json
import pickle
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import keras
import numpy as np
from keras import layers

import wkappa as wk
from wkappa.keras import CohenKappa, WeightedKappaLoss

ROOT = Path(__file__).resolve().parents[1]
CHECKS: dict[str, Callable[[], Any]] = {}

# TensorFlow Addons' documented cases (tensorflow_addons/metrics/cohens_kappa.py docstring and
# tensorflow_addons/metrics/tests/cohens_kappa_test.py; the loss: losses/kappa_loss.py).
TFA_ACTUALS = [4, 4, 3, 4, 2, 4, 1, 1]
TFA_PREDS = [4, 4, 3, 4, 4, 2, 1, 1]
TFA_WEIGHTS = [1, 1, 2, 5, 10, 2, 3, 3]
TFA_ACTUALS_2 = [4, 4, 3, 3, 2, 2, 1, 1]
TFA_PREDS_2 = [1, 2, 4, 1, 3, 3, 4, 4]
TFA_LOSS_TRUE = [[0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]]
TFA_LOSS_PRED = [
    [0.1, 0.2, 0.6, 0.1],
    [0.1, 0.5, 0.3, 0.1],
    [0.8, 0.05, 0.05, 0.1],
    [0.01, 0.09, 0.1, 0.8],
]


def check(function: Callable[[], Any]) -> Callable[[], Any]:
    CHECKS[function.__name__] = function
    return function


def _metric(y_true: Any, y_pred: Any, sample_weight: Any = None, **options: Any) -> float:
    metric = CohenKappa(**options)
    metric.update_state(np.asarray(y_true), np.asarray(y_pred), sample_weight=sample_weight)
    return float(keras.ops.convert_to_numpy(metric.result()))


@check
def tfa_values() -> dict[str, Any]:
    """Every value TFA documents, computed here; the test compares them with TFA's."""
    out: dict[str, Any] = {}
    for weightage in (None, "linear", "quadratic"):
        key = str(weightage)
        options = {"num_classes": 5, "sparse_labels": True, "weightage": weightage}
        out[f"random/{key}"] = _metric(TFA_ACTUALS, TFA_PREDS, **options)
        out[f"perfect/{key}"] = _metric(
            [4, 4, 3, 3, 2, 2, 1, 1], [4, 4, 3, 3, 2, 2, 1, 1], **options
        )
        out[f"worse/{key}"] = _metric(TFA_ACTUALS_2, TFA_PREDS_2, **options)
        out[f"weighted/{key}"] = _metric(
            TFA_ACTUALS_2, TFA_PREDS_2, np.asarray(TFA_WEIGHTS, dtype=np.int32), **options
        )
    out["docstring_weighted"] = _metric(
        TFA_ACTUALS, TFA_PREDS, np.asarray(TFA_WEIGHTS), num_classes=5, sparse_labels=True
    )
    out["large"] = _metric(
        [1] * 10000 + [0] * 20000 + [1] * 20000, [0] * 20000 + [1] * 30000, num_classes=2
    )
    out["sparse"] = _metric([4, 4, 3, 4], [4, 4, 1, 2], num_classes=5, sparse_labels=True)
    out["one_hot"] = _metric(np.eye(5)[[4, 4, 3, 4]], [4, 4, 1, 2], num_classes=5)
    loss = WeightedKappaLoss(num_classes=4)(np.array(TFA_LOSS_TRUE), np.array(TFA_LOSS_PRED))
    out["loss"] = float(keras.ops.convert_to_numpy(loss))
    return out


def _ordinal_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Four features, five ordered classes cut from a noisy linear score; weights 1..3."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)).astype("float32")
    score = x @ np.array([1.0, -0.7, 0.5, 0.3]) + rng.normal(scale=0.5, size=n)
    y = np.digitize(score, [-1.5, -0.5, 0.5, 1.5]).astype("int32")
    w = rng.integers(1, 4, size=n).astype("float32")
    return x, y, w


def _model(seed: int) -> Any:
    keras.utils.set_random_seed(seed)
    return keras.Sequential(
        [keras.Input((4,)), layers.Dense(16, activation="relu"), layers.Dense(5, "softmax")]
    )


@check
def fit_metric() -> dict[str, Any]:
    """model.fit with the metric: validation values against wk.qwk on the model's predictions."""
    x, y, w = _ordinal_data(600, 0)
    xv, yv, wv = _ordinal_data(230, 1)
    model = _model(0)
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss="sparse_categorical_crossentropy",
        metrics=[CohenKappa(5, weightage="quadratic", sparse_labels=True, name="qwk")],
        weighted_metrics=[CohenKappa(5, weightage="linear", sparse_labels=True, name="wlk")],
    )
    history = model.fit(
        x,
        y,
        sample_weight=w,
        validation_data=(xv, yv, wv),
        epochs=3,
        batch_size=64,
        validation_batch_size=50,  # 5 validation batches, the last one short
        verbose=0,
    )
    pred = np.argmax(model.predict(xv, batch_size=50, verbose=0), axis=1)
    evaluated = model.evaluate(xv, yv, sample_weight=wv, batch_size=40, verbose=0, return_dict=True)
    return {
        "val_qwk": history.history["val_qwk"],
        "val_wlk": history.history["val_wlk"],
        "evaluate_qwk": float(evaluated["qwk"]),
        "evaluate_wlk": float(evaluated["wlk"]),
        "wk_qwk": wk.qwk(yv, pred, labels=range(5)),
        "wk_wlk": wk.weighted_kappa(yv, pred, weights="linear", labels=range(5), sample_weight=wv),
        "wk_wlk_unweighted": wk.weighted_kappa(yv, pred, weights="linear", labels=range(5)),
        "jit_compile": str(model.jit_compile),
    }


@check
def strict_labels() -> dict[str, Any]:
    """An out-of-range label in evaluate: raised eagerly or at the end of a compiled run."""
    xv, yv, _ = _ordinal_data(120, 1)
    yv = yv.copy()
    yv[70] = 7
    model = _model(0)
    model.compile(
        optimizer="adam",
        loss=lambda y_true, y_pred: keras.ops.mean(y_pred),  # any loss that accepts label 7
        metrics=[CohenKappa(5, weightage="quadratic", sparse_labels=True, name="qwk")],
    )
    per_batch: list[float] = []

    class Record(keras.callbacks.Callback):  # type: ignore[misc]
        def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
            per_batch.append(float((logs or {}).get("qwk", np.nan)))

    try:
        model.evaluate(xv, yv, batch_size=40, verbose=0, callbacks=[Record()])
    except Exception as error:
        return {"error_type": type(error).__name__, "message": str(error), "per_batch": per_batch}
    return {"error_type": None, "per_batch": per_batch}


def _qwk_of(model: Any, x: np.ndarray, y: np.ndarray) -> float:
    pred = np.argmax(model.predict(x, batch_size=256, verbose=0), axis=1)
    return wk.qwk(y, pred, labels=range(5), zero_division=0.0)


@check
def loss_training() -> dict[str, Any]:
    """A small ordinal model trained on the kappa loss alone, both forms."""
    x, y, _ = _ordinal_data(800, 2)
    xv, yv, _ = _ordinal_data(400, 3)
    out: dict[str, Any] = {}
    for form in ("log", "ratio"):
        model = _model(1)
        before = _qwk_of(model, xv, yv)
        model.compile(
            optimizer=keras.optimizers.Adam(0.02),
            loss=WeightedKappaLoss(5, form=form, sparse_labels=True),
        )
        history = model.fit(x, y, epochs=12, batch_size=100, verbose=0)
        out[form] = {
            "loss": history.history["loss"],
            "qwk_before": before,
            "qwk_after": _qwk_of(model, xv, yv),
        }
    return out


@check
def masked_batch() -> dict[str, Any]:
    """A batch whose sample weights are all zero (masked or padded out) in a real fit: its
    loss was 0/0 = NaN, and the NaN gradient turned every weight of the model into NaN."""
    x, y, _ = _ordinal_data(256, 4)
    weight = np.ones(256, dtype="float32")
    weight[:64] = 0.0  # the first batch of 64 carries no weight
    out: dict[str, Any] = {}
    for form in ("log", "ratio"):
        loss = WeightedKappaLoss(5, form=form, sparse_labels=True)
        model = _model(2)
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss=loss)
        history = model.fit(x, y, sample_weight=weight, epochs=2, batch_size=64, shuffle=False,
                            verbose=0)  # fmt: skip
        probs = model.predict(x[:64], verbose=0)
        on_logits = WeightedKappaLoss(5, form=form, from_logits=True, sparse_labels=True)
        out[form] = {
            "loss": history.history["loss"],
            "finite_weights": bool(all(np.isfinite(w).all() for w in model.get_weights())),
            "masked": float(keras.ops.convert_to_numpy(loss(y[:64], probs, np.zeros(64)))),
            "empty": float(keras.ops.convert_to_numpy(loss(y[:0], probs[:0]))),
            "masked_grad": _gradient(
                lambda t, z, f=on_logits: f(t, z, np.zeros(64, dtype="float32")),
                y[:64],
                np.log(probs),
            ),
        }
    return out


@check
def logits_as_probabilities() -> dict[str, Any]:
    """A model whose last layer gives logits, trained with from_logits=False (the default):
    the loss took the logits as probabilities and trained on a wrong value without a word."""
    x, y, _ = _ordinal_data(300, 6)
    out: dict[str, Any] = {}
    for from_logits in (False, True):
        keras.utils.set_random_seed(3)
        model = keras.Sequential(
            [keras.Input((4,)), layers.Dense(16, activation="relu"), layers.Dense(5)]
        )
        before = [w.copy() for w in model.get_weights()]
        loss = WeightedKappaLoss(5, sparse_labels=True, from_logits=from_logits)
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss=loss)
        try:
            history = model.fit(x, y, epochs=2, batch_size=100, verbose=0)
        except wk.WkappaError as error:
            out[str(from_logits)] = {"raised": str(error)}
            continue
        after = model.get_weights()
        out[str(from_logits)] = {
            "loss": history.history["loss"],
            "moved": not all(np.array_equal(a, b) for a, b in zip(before, after, strict=True)),
        }
    try:
        WeightedKappaLoss(5, sparse_labels=True)(y[:8], x[:8, :1] @ np.ones((1, 5), "float32"))
    except wk.WkappaError as error:
        out["by_hand"] = str(error)
    return out


@check
def bool_inputs() -> dict[str, Any]:
    """Boolean labels, predictions and sample weights (a binary task, a 0/1 mask), which
    TensorFlow refused with a raw TypeError ("Cannot convert 0 to EagerTensor of dtype
    bool")."""
    rng = np.random.default_rng(11)
    y_true, flip, mask = rng.integers(0, 2, size=(3, 50)).astype(bool)
    y_pred = y_true ^ (flip & (rng.random(50) < 0.4))
    out: dict[str, Any] = {}
    for name, call in (
        ("labels", lambda: _metric(y_true, y_pred, num_classes=2, sparse_labels=True)),
        ("weights", lambda: _metric(y_true, y_pred, mask, num_classes=2, sparse_labels=True)),
        ("loss", lambda: float(keras.ops.convert_to_numpy(
            WeightedKappaLoss(2, sparse_labels=True, form="ratio", epsilon=0.0)(
                y_true, np.eye(2, dtype="float32")[y_pred.astype(int)], mask
            )
        ))),
    ):  # fmt: skip
        try:
            out[name] = call()
        except Exception as error:
            out[name] = f"{type(error).__name__}: {error}"
    a, b = y_true.astype(int), y_pred.astype(int)
    out["wk"] = wk.weighted_kappa(a, b, weights="unweighted", labels=[0, 1])
    out["wk_weighted"] = wk.weighted_kappa(
        a, b, weights="unweighted", labels=[0, 1], sample_weight=mask.astype(int)
    )
    return out


def _refusal_of_fit(model: Any, x: np.ndarray, y: np.ndarray, **fit: Any) -> dict[str, Any]:
    """The message of the WkappaError one epoch of ``model.fit`` raises (None: it fits)."""
    try:
        model.fit(x, y, epochs=1, batch_size=16, verbose=0, **fit)
    except wk.WkappaError as error:
        return {"message": str(error)}
    return {"message": None}


def _gradient(loss: Any, y_true: np.ndarray, logits: np.ndarray) -> list[list[float]]:
    backend = keras.backend.backend()
    if backend == "jax":
        import jax

        return np.asarray(jax.grad(lambda z: loss(y_true, z))(logits)).tolist()
    if backend == "torch":
        import torch

        z = torch.tensor(logits, requires_grad=True)
        loss(torch.tensor(y_true), z).backward()
        return z.grad.numpy().tolist()
    import tensorflow as tf

    z = tf.Variable(logits)
    with tf.GradientTape() as tape:
        value = loss(y_true, z)
    return tape.gradient(value, z).numpy().tolist()


@check
def gradients() -> dict[str, Any]:
    """Gradients of the loss with respect to the logits (compared with wkappa.torch)."""
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(12, 5)).astype("float32")
    labels = rng.integers(0, 5, size=12).astype("int32")
    out: dict[str, Any] = {"logits": logits.tolist(), "labels": labels.tolist()}
    for weightage in ("quadratic", "linear"):
        for form in ("log", "ratio"):
            loss = WeightedKappaLoss(
                5, weightage=weightage, epsilon=0.0, form=form, from_logits=True,
                sparse_labels=True,
            )  # fmt: skip
            value = loss(labels, logits)
            out[f"{weightage}/{form}"] = {
                "value": float(keras.ops.convert_to_numpy(value)),
                "grad": _gradient(loss, labels, logits),
            }
    return out


@check
def merge_and_config() -> dict[str, Any]:
    rng = np.random.default_rng(7)
    y_true, y_pred = rng.integers(0, 4, size=(2, 90))
    whole = CohenKappa(4, weightage="quadratic", sparse_labels=True)
    whole.update_state(y_true, y_pred)
    parts = [CohenKappa(4, weightage="quadratic", sparse_labels=True) for _ in range(3)]
    for part, rows in zip(parts, np.array_split(np.arange(90), 3), strict=True):
        part.update_state(y_true[rows], y_pred[rows])
    parts[0].merge_state(parts[1:])
    config = whole.get_config()
    clone = keras.saving.deserialize_keras_object(keras.saving.serialize_keras_object(whole))
    loss_clone = keras.saving.deserialize_keras_object(
        keras.saving.serialize_keras_object(WeightedKappaLoss(4, "linear", form="ratio"))
    )
    return {
        "whole": float(keras.ops.convert_to_numpy(whole.result())),
        "merged": float(keras.ops.convert_to_numpy(parts[0].result())),
        "tables_equal": bool(np.array_equal(whole.table, parts[0].table)),
        "wk": wk.qwk(y_true, y_pred, labels=range(4)),
        "config": {k: config[k] for k in ("num_classes", "weightage", "sparse_labels")},
        "clone": [type(clone).__name__, clone.num_classes, clone.weightage],
        "loss_clone": [loss_clone.weightage, loss_clone.form],
        "count_dtype": whole._count_dtype,
    }


@check
def copies() -> dict[str, Any]:
    """Pickles and copies keep the counts (Keras' own Mean arrives empty); the config and
    what is built from it hold the arguments only."""
    rng = np.random.default_rng(11)
    y_true, y_pred = rng.integers(0, 4, size=(2, 60))
    options = {"num_classes": 4, "weightage": "quadratic", "sparse_labels": True}
    whole = CohenKappa(**options)
    whole.update_state(y_true, y_pred)
    parts = [CohenKappa(**options) for _ in range(3)]
    for part, rows in zip(parts, np.array_split(np.arange(60), 3), strict=True):
        part.update_state(y_true[rows], y_pred[rows])
    # as if counted in other processes: pickled, sent back, merged
    shipped = [pickle.loads(pickle.dumps(part)) for part in parts]
    shipped[0].merge_state(shipped[1:])
    out: dict[str, Any] = {
        "merged_equal": bool(np.array_equal(shipped[0].table, whole.table)),
        "whole_nonempty": int(whole.table.sum()) == 60,
    }
    value = float(keras.ops.convert_to_numpy(whole.result()))
    for how, make in (
        ("pickle", lambda: pickle.loads(pickle.dumps(whole))),
        ("deepcopy", lambda: copy.deepcopy(whole)),
        ("copy", lambda: copy.copy(whole)),
    ):
        made = make()
        same = bool(np.array_equal(made.table, whole.table))
        same_value = float(keras.ops.convert_to_numpy(made.result())) == value
        made.update_state(np.array([0]), np.array([0]))
        out[how] = {
            "same_table": same,
            "same_value": same_value,
            "options": [made.num_classes, made.weightage, made.sparse_labels],
            "independent": int(made.table.sum()) == 61 and int(whole.table.sum()) == 60,
        }
    rebuilt = [
        CohenKappa.from_config(whole.get_config()),
        keras.saving.deserialize_keras_object(keras.saving.serialize_keras_object(whole)),
    ]
    out["rebuilt_empty"] = [int(metric.table.sum()) for metric in rebuilt]
    mean = keras.metrics.Mean()
    mean.update_state([1.0, 2.0, 6.0])
    out["keras_mean_pickled"] = float(
        keras.ops.convert_to_numpy(pickle.loads(pickle.dumps(mean)).result())
    )
    older = CohenKappa(**options)
    older.load_own_variables({})  # a store written before the counts were saved
    out["older_store_empty"] = int(older.table.sum())
    try:
        CohenKappa(3).load_own_variables({"table": np.zeros((4, 4)), "rejected": np.zeros(3)})
    except wk.WkappaError as error:
        out["wrong_shape"] = str(error)
    return out


@check
def wide_labels() -> dict[str, Any]:
    """A label of 2**32 (int64): JAX narrows it to int32, where it wrapped to class 0 and was
    counted as agreement (metric 1.0, no error)."""
    out: dict[str, Any] = {}
    labels = np.array([2**32, 1, 2, 0])
    for name, call in (
        ("metric", lambda: _metric(labels, [0, 1, 2, 0], num_classes=3, sparse_labels=True)),
        ("loss", lambda: WeightedKappaLoss(3, sparse_labels=True)(labels, np.full((4, 3), 1 / 3))),
    ):
        try:
            out[name] = {"value": float(keras.ops.convert_to_numpy(call()))}
        except wk.WkappaError as error:
            out[name] = {"error_type": type(error).__name__, "message": str(error)}
    return out


@check
def one_based_fit() -> dict[str, Any]:
    """Labels numbered 1..5 in a real compile and fit (a regression head, so that the loss
    takes them and the metric is the first to refuse): inside a compiled step the refused
    row cannot be shown, and the error said what was wrong without the fix."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = rng.integers(1, 6, size=(64, 1)).astype("float32")  # an (N, 1) column of 1..5
    keras.utils.set_random_seed(2)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    metric = CohenKappa(5, weightage="quadratic", sparse_labels=True, regression=True, clip=True)
    model.compile(optimizer="adam", loss="mse", metrics=[metric])
    return _refusal_of_fit(model, x, y)


@check
def regression_head_fit() -> dict[str, Any]:
    """A regression head (one float score per row) scored by a metric built without
    regression=True, in a real fit: inside a compiled step the refused rows cannot be shown,
    and the error named no fix."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = rng.integers(0, 5, size=64)
    keras.utils.set_random_seed(4)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse", metrics=[CohenKappa(5, sparse_labels=True)])
    return _refusal_of_fit(model, x, y)


@check
def class_weight_fit() -> dict[str, Any]:
    """Fractional class weights in fit (as sklearn's compute_class_weight gives) reach a
    weighted metric as sample_weight; the error spoke of sample weights the user never
    passed."""
    rng = np.random.default_rng(6)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = rng.integers(0, 5, size=64)
    keras.utils.set_random_seed(6)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(5, activation="softmax")])
    metric = CohenKappa(5, weightage="quadratic", sparse_labels=True)
    model.compile("adam", "sparse_categorical_crossentropy", weighted_metrics=[metric])
    weights = {0: 0.5, 1: 1.0, 2: 1.5, 3: 2.0, 4: 2.5}
    return _refusal_of_fit(model, x, y, class_weight=weights)


@check
def numpy2_reads() -> dict[str, Any]:
    """Reading the metric's counts (result, table, saving) warned on TensorFlow with NumPy 2:
    its variables' __array__ lacks the copy keyword (a DeprecationWarning per read, an
    error under -W error). PyTorch's tensors lack it too, in torch itself."""
    import warnings

    metric = CohenKappa(5, weightage="quadratic", sparse_labels=True)
    metric.update_state(np.array([0, 1, 2, 4]), np.eye(5, dtype="float32")[[0, 1, 3, 4]])
    store: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            value = float(keras.ops.convert_to_numpy(metric.result()))
            total = int(metric.table.sum())
            metric.save_own_variables(store)
        except DeprecationWarning as warning:
            return {"warning": str(warning)}
    return {"value": value, "total": total, "saved": sorted(store)}


@check
def howto() -> dict[str, Any]:
    """The how-to "Training a Keras model on QWK", run as a doctest on this backend."""
    import doctest

    result = doctest.testfile(
        str(ROOT / "docs" / "how-to" / "keras-qwk.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    return {"attempted": result.attempted, "failed": result.failed}


def main(names: list[str]) -> None:
    results: dict[str, Any] = {"backend": keras.backend.backend()}
    for name in names or list(CHECKS):
        try:
            results[name] = CHECKS[name]()
        except Exception:
            results[name] = {"error": traceback.format_exc()}
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
