"""Keras batches as backend tensors: what the metric and the loss of :mod:`wkappa.keras`
read from ``y_true``, ``y_pred`` and ``sample_weight``, and the checks they share.

Written with ``keras.ops``, so every function runs on each Keras 3 backend (JAX, PyTorch,
TensorFlow). A value that a compiled graph traces has no concrete numbers to check
(:func:`is_traced`), so the decoders return the rows that pass next to the decoded values
and leave raising to the caller, which raises eagerly and marks the result NaN when traced.
"""

from __future__ import annotations

from typing import Any

import keras
import numpy as np
from keras import ops

from ._core import (
    format_value,
    loss_weight_error,
    probability_rows_error,
    probability_tolerance,
    weight_exponent_limit,
    wide_integers_as_floats,
)
from .exceptions import WkappaError, WkappaTypeError

__all__ = [
    "argmax_rows",
    "check_weight_rows",
    "class_indices",
    "classes_hint",
    "is_float",
    "is_traced",
    "loss_weights",
    "probability_rows",
    "row_tensor",
    "to_tensor",
]


def is_traced(value: Any) -> bool:
    """Whether ``value`` is a placeholder of a compiled graph (jit, tf.function, dynamo) or
    of Keras' shape inference (on PyTorch, tensors on the "meta" device or filled with ones).

    A traced value has no concrete numbers, so a check on it cannot raise a Python error.
    """
    if _in_symbolic_scope():
        return True
    backend = keras.backend.backend()
    if backend == "jax":
        import jax

        return isinstance(value, jax.core.Tracer)
    if backend == "tensorflow":
        import tensorflow as tf

        return not tf.executing_eagerly()
    if backend == "torch":
        import torch

        meta = isinstance(value, torch.Tensor) and value.device.type == "meta"
        return meta or bool(torch.compiler.is_compiling())
    return False


def _in_symbolic_scope() -> bool:
    """Whether Keras is inferring output shapes (``keras.SymbolicScope``, entered while it
    builds a model's losses and metrics), where the batch holds placeholder numbers."""
    try:
        from keras.src.backend.common.symbolic_scope import in_symbolic_scope
    except ImportError:  # a Keras that does not have it: the device test above remains
        return False
    return bool(in_symbolic_scope())


def to_tensor(value: Any, name: str, dtype: Any = None) -> Any:
    """``value`` as a backend tensor; text (or anything the backend cannot hold) is refused
    by name instead of with the backend's own error."""
    kind = np.asarray(value).dtype.kind if isinstance(value, (list, tuple, np.ndarray)) else ""
    if kind in ("U", "S", "O"):
        sample = np.asarray(value).ravel()[:1]
        if kind != "O" or (sample.size and isinstance(sample[0], (str, bytes))):
            shown = format_value(sample[0].item() if sample.size else value)
            raise WkappaTypeError(
                f"`{name}` must hold numbers (class indices, one-hot rows or scores); got "
                f"{shown}. Hint: map the labels to 0..num_classes-1 first."
            )
    if kind in ("i", "u"):
        value = wide_integers_as_floats(np.asarray(value))
    try:
        tensor = ops.convert_to_tensor(value, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise WkappaTypeError(
            f"`{name}` must be an array of numbers the Keras backend can hold; got "
            f"{type(value).__name__} ({error})."
        ) from None
    if dtype is None and keras.backend.standardize_dtype(tensor.dtype) == "bool":
        # True/False are the classes 1/0 (or the weights 1/0); TensorFlow compares a bool
        # tensor with no number, so every backend reads them as int32.
        tensor = ops.cast(tensor, "int32")
    return tensor


def row_tensor(value: Any, name: str, k: int | None = None) -> Any:
    """A (N,) tensor from (N,), (N, 1) or a scalar; (N, k) stays when ``k`` is given."""
    tensor = to_tensor(value, name)
    shape = tuple(tensor.shape)
    if len(shape) == 0:
        return ops.reshape(tensor, (1,))
    if len(shape) == 2 and shape[1] == 1:
        return ops.squeeze(tensor, axis=1)
    if len(shape) == 1 or (k is not None and len(shape) == 2 and shape[1] == k):
        return tensor
    expected = "(N,) or (N, 1)" + (f" or (N, {k})" if k is not None else "")
    hint = classes_hint(name, k, shape[1]) if k is not None and len(shape) == 2 else ""
    raise WkappaError(f"`{name}` must have shape {expected}; got {shape}.{hint}")


def classes_hint(name: str, k: int, columns: Any) -> str:
    """Why (N, columns) does not fit num_classes = k: the usual cause is a num_classes that
    does not match the model's output layer (or the one-hot labels)."""
    if name == "y_pred":
        return (
            f" Hint: num_classes is {k}, but each row holds {columns} scores; a model whose "
            f"last layer has {columns} units needs num_classes={columns}."
        )
    return f" Hint: num_classes is {k}, but each one-hot row has {columns} columns."


def check_weight_rows(weight: Any, n: Any) -> None:
    """One sample weight per row (or a single one for every row), when the shapes are known."""
    rows = weight.shape[0]
    if isinstance(rows, int) and isinstance(n, int) and rows not in (1, n):
        raise WkappaError(
            f"`sample_weight` must hold one weight per row: {n} rows, got {rows} weights."
        )


def loss_weights(raw: Any, weight: Any) -> tuple[Any, Any]:
    """The loss's row weights (``raw`` as given, ``weight`` in the loss's dtype), checked
    finite and non-negative. Eagerly a bad weight raises, naming its row, and ``(weight,
    None)`` is returned. Traced (where Python cannot raise), the bad weights are set to 0,
    so that no NaN reaches the gradient, and returned with a boolean tensor, true when some
    weight was bad, that makes the loss NaN."""
    ok = ops.logical_and(ops.isfinite(weight), weight >= 0)
    if is_traced(ok):
        usable = ops.where(ok, weight, ops.zeros_like(weight))
        return _tamed(usable), ops.logical_not(ops.all(ok))
    bad = np.flatnonzero(~np.asarray(ops.convert_to_numpy(ok)).reshape(-1))
    if bad.size:
        value = np.asarray(ops.convert_to_numpy(raw)).reshape(-1)[bad[0]].item()
        raise loss_weight_error(int(bad[0]), value)
    return _tamed(weight), None


def _finfo(dtype: Any) -> Any:
    """``np.finfo`` of a Keras float dtype; bfloat16 (not a numpy dtype) has float32's
    exponent range and an 8-bit significand."""
    name = keras.backend.standardize_dtype(dtype)
    if name == "bfloat16":
        return np.finfo(np.float32), 2.0**-7
    info = np.finfo(name)
    return info, float(info.eps)


def _tamed(weight: Any) -> Any:
    """``weight`` scaled by the power of two of :func:`weight_exponent_limit` (the rule of
    every wkappa loss); ``floor(log2(x)) + 1`` is the ``frexp`` exponent, which keras.ops
    does not have."""
    top = weight_exponent_limit(_finfo(weight.dtype)[0].maxexp)
    largest = ops.max(weight, initial=0.0)
    shift = ops.maximum(ops.floor(ops.log2(largest)) + 1.0 - top, 0.0)
    return weight * ops.cast(ops.power(2.0, -shift), weight.dtype)


def is_float(tensor: Any) -> bool:
    return "float" in str(keras.backend.standardize_dtype(tensor.dtype))


def class_indices(values: Any, k: int) -> tuple[Any, Any]:
    """Class indices 0..k-1 from integer or integral float values, and the rows that are."""
    if is_float(values):
        ok = ops.logical_and(ops.isfinite(values), ops.equal(values, ops.floor(values)))
    else:
        ok = ops.ones_like(values, dtype="bool")
    ok = ops.logical_and(ok, ops.logical_and(values >= 0, values <= k - 1))
    index = ops.cast(ops.where(ok, values, ops.zeros_like(values)), "int32")
    return index, ok


def argmax_rows(scores: Any) -> tuple[Any, Any]:
    """Argmax over the last axis, and the rows without NaN or infinity (argmax undefined)."""
    ok = ops.all(ops.isfinite(scores), axis=-1)
    safe = ops.where(ops.expand_dims(ok, -1), scores, ops.zeros_like(scores))
    return ops.cast(ops.argmax(safe, axis=-1), "int32"), ok


def probability_rows(probs: Any, raw_dtype: Any) -> Any:
    """Check that the rows of ``probs`` (N, K) are class probabilities, as every wkappa loss
    does: non-negative and summing to 1 within :func:`probability_tolerance` of
    ``raw_dtype`` (the dtype the model gave), or all 0 (padding). Eagerly a bad row raises,
    naming it, and None is returned; traced (where Python cannot raise), a boolean tensor,
    true when some row is bad, that makes the loss NaN."""
    eps = _finfo(raw_dtype)[1] if "float" in keras.backend.standardize_dtype(raw_dtype) else 0.0
    sums = ops.sum(probs, axis=-1)
    tolerance = probability_tolerance(int(probs.shape[-1]), eps)
    off = ops.logical_and(ops.abs(sums - 1) > tolerance, ops.not_equal(sums, 0))
    bad = ops.logical_or(ops.any(probs < 0, axis=-1), off)
    if is_traced(bad):
        return ops.any(bad)
    rows = np.flatnonzero(np.asarray(ops.convert_to_numpy(bad)))
    if rows.size:
        row = int(rows[0])
        error = probability_rows_error(  # the first bad row alone, in float64
            np.asarray(ops.convert_to_numpy(probs[row : row + 1]), dtype=np.float64),
            "y_pred",
            "from_logits=True for raw scores (a softmax is applied)",
            first_row=row,
        )
        assert error is not None
        raise error
    return None
