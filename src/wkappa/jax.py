"""JAX integration: a jit-compilable QWK and a differentiable soft kappa loss.

Needs the ``jax`` extra (``pip install 'wkappa[jax]'``). Both functions are pure and run under
``jax.jit``; :func:`kappa_loss` also under ``jax.grad`` (and so inside an optax training step).
To accumulate the exact kappa over many batches (an evaluation loop), pass each batch's
predicted classes to :class:`wkappa.KappaAccumulator`, which takes JAX arrays as they are.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._core import (
    UNDEFINED_REASON,
    LossForm,
    WeightsLike,
    check_loss_form,
    check_num_classes,
    check_pair_lengths,
    check_weights,
    count_weight_error,
    format_value,
    import_optional,
    loss_weight_error,
    one_based_hint,
    probability_rows_error,
    probability_tolerance,
    soft_kappa_loss,
    warn_at_caller,
    weight_exponent_limit,
    weight_matrix,
    wide_integers_as_floats,
)
from .exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError

import_optional("jax", "jax")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

__all__ = ["kappa_loss", "qwk"]


def _float_dtype() -> Any:
    return jnp.float64 if getattr(jax.config, "jax_enable_x64", False) else jnp.float32


def _array(values: Any, name: str) -> jax.Array:
    """``values`` as a JAX array; text (which JAX cannot hold) is refused by name."""
    if isinstance(values, (list, tuple, np.ndarray)):
        sample = np.asarray(values).ravel()[:1]
        if sample.size and isinstance(sample[0].item(), (str, bytes)):
            hint = " Hint: map the labels to 0..num_classes-1 first." if name[:2] == "y_" else ""
            raise WkappaTypeError(
                f"`{name}` must hold numbers; got {format_value(sample[0].item())}.{hint}"
            )
    if isinstance(values, (list, tuple, np.ndarray)):
        values = wide_integers_as_floats(np.asarray(values))
    try:
        return jnp.asarray(values)
    except TypeError as error:
        raise WkappaTypeError(f"`{name}` must be an array of numbers; {error}") from None


def _concrete(value: Any, name: str, what: str) -> None:
    """Refuse an argument traced by ``jax.jit``/``vmap`` that must be a concrete value."""
    if isinstance(value, jax.core.Tracer):
        raise WkappaTypeError(
            f"`{name}` is traced by jax.jit (or vmap/grad): it was computed inside the "
            f"transformed function or passed to it as an argument. It must be {what}. "
            "Hint: build it outside, as a NumPy array or a Python value, and close over it "
            "(or mark the argument static)."
        )


def _class_indices(values: Any, name: str, k: int) -> tuple[jax.Array, jax.Array]:
    """Indices 0..k-1 of a (N,) array of integers or integral floats, and the valid rows."""
    array = _array(values, name)
    if array.ndim != 1:
        hint = ""
        if array.ndim == 2 and array.shape[1] == 1:
            hint = f" Hint: {name}.ravel() for a column of class indices."
        elif array.ndim == 2 and array.shape[1] > 1:
            hint = (
                f" Hint: for one-hot rows or class scores, pass each row's class, "
                f"{name}.argmax(axis=1)."
            )
        raise WkappaError(f"`{name}` must be class indices of shape (N,); got {array.shape}.{hint}")
    if array.dtype == jnp.bool_:
        # Booleans are the classes False/True, 0 and 1, as wkappa.weighted_kappa reads them.
        array = array.astype(jnp.int32)
    if jnp.issubdtype(array.dtype, jnp.floating):
        ok = jnp.isfinite(array) & (array == jnp.floor(array))
    elif jnp.issubdtype(array.dtype, jnp.integer):
        ok = jnp.ones(array.shape, dtype=bool)
    else:
        raise WkappaTypeError(f"`{name}` must hold class indices; got dtype {array.dtype}.")
    ok = ok & (array >= 0) & (array <= k - 1)
    return jnp.where(ok, array, 0).astype(jnp.int32), ok


def _raise_if_bad(values: Any, ok: jax.Array, name: str, k: int) -> None:
    """Eagerly (concrete arrays), raise on the first invalid row; under jit, do nothing."""
    if isinstance(ok, jax.core.Tracer):
        return
    bad = np.flatnonzero(~np.asarray(ok))
    if bad.size:
        raw = np.asarray(values)[bad[0]].item()
        hint = one_based_hint(raw, k)
        if isinstance(raw, float) and math.isfinite(raw) and raw != math.floor(raw):
            hint = (
                f" Hint: for scores of a regression head, round them to classes first, "
                f"jnp.clip(jnp.rint({name}), 0, {k - 1}) (or cut them with "
                "wkappa.optimize_thresholds)."
            )
        raise WkappaError(
            f"`{name}` must hold class indices in 0..{k - 1} (num_classes = {k}); "
            f"row {int(bad[0])} holds {format_value(raw)}.{hint}"
        )


# Rows per block of the weighted table: a float32 cell sum that grows past 2**24 stops
# counting small additions (2**24 + 1 == 2**24), so each block sums at most this many rows
# and the blocks' tables are added.
_BLOCK = 1 << 16


def _count_table(cells: jax.Array, valid: jax.Array, k: int) -> jax.Array:
    """The K*K counts of the valid rows, as integers (exact; float32 stops at 2**24)."""
    wide = bool(getattr(jax.config, "jax_enable_x64", False))
    if cells.shape[0] >= np.iinfo(np.int32).max and not wide:
        raise WkappaError(
            f"qwk counts {cells.shape[0]:,} rows, more than int32 holds. Hint: enable "
            "jax_enable_x64, or pass the predictions in batches to wkappa.KappaAccumulator."
        )
    integer = jnp.int64 if wide else jnp.int32
    return jnp.zeros(k * k, dtype=integer).at[cells].add(valid.astype(integer))


def _weight_table(cells: jax.Array, weight: jax.Array, k: int) -> jax.Array:
    """The K*K weight sums, summed in blocks of ``_BLOCK`` rows and then over the blocks."""
    rows = cells.shape[0]
    if rows <= _BLOCK:
        return jnp.zeros(k * k, dtype=weight.dtype).at[cells].add(weight)
    blocks = -(-rows // _BLOCK)
    pad = blocks * _BLOCK - rows
    cells = jnp.pad(cells, (0, pad)).reshape(blocks, _BLOCK)
    weight = jnp.pad(weight, (0, pad)).reshape(blocks, _BLOCK)
    tables = jax.vmap(lambda c, w: jnp.zeros(k * k, dtype=w.dtype).at[c].add(w))(cells, weight)
    return tables.sum(axis=0)


def qwk(y_true: Any, y_pred: Any, num_classes: int, *, sample_weight: Any = None) -> jax.Array:
    """Quadratic weighted kappa of two arrays of class indices, jit-compilable.

    Parameters
    ----------
    y_true, y_pred : array of shape (N,)
        Class indices ``0..num_classes-1`` (integers or integral floats; booleans are the
        classes 0 and 1, as :func:`wkappa.weighted_kappa` reads them).
    num_classes : int
        K, a Python int (static under ``jax.jit``: mark it ``static_argnames``).
    sample_weight : array of shape (N,), optional
        Non-negative whole numbers, the count each pair adds (as the ``sample_weight`` of
        :class:`wkappa.keras.CohenKappa` and :class:`wkappa.torch.KappaMetric`); 0 masks a
        row out (a padded batch). Kappa does not change when every weight is scaled, so
        fractional weights can be scaled to whole numbers first.

    Returns
    -------
    scalar jax.Array
        ``wk.qwk`` of the same data (float64 with ``jax_enable_x64``, otherwise float32, the
        value within float32 rounding). An undefined kappa (no expected disagreement, or no
        rows) is NaN, with an :class:`~wkappa.exceptions.UndefinedKappaWarning` when called
        eagerly (as :func:`wkappa.qwk` warns by default; a compiled call cannot warn).

    Notes
    -----
    The K x K table ``O`` is counted with one integer scatter-add (exact for any N; a float32
    count would stop at 2**24 per cell); with ``sample_weight``, the weights are summed in
    blocks of 65,536 rows and then over the blocks. Then

    .. math::

        \\kappa = 1 - \\frac{n \\sum_{ij} (i - j)^2 O_{ij}}{\\sum_{ij} (i - j)^2 r_i c_j}.

    Called eagerly (concrete arrays), an index outside ``0..K-1`` or a fractional index
    raises :class:`~wkappa.exceptions.WkappaError`, as everywhere in wkappa, and so does a
    negative, fractional or non-finite sample weight. Inside ``jax.jit`` (and ``jax.vmap``)
    the data cannot raise a Python error, so such a row makes the result NaN (never a
    silently mis-binned value).

    QWK of class indices is a step function of the predictions: ``jax.grad`` of it is zero
    everywhere. To train on kappa, differentiate :func:`kappa_loss` of the probabilities.

    Examples
    --------
    >>> import jax
    >>> import jax.numpy as jnp
    >>> from wkappa.jax import qwk
    >>> y_true = jnp.array([0, 1, 2, 2, 1])
    >>> y_pred = jnp.array([0, 2, 2, 1, 1])
    >>> round(float(qwk(y_true, y_pred, 3)), 6)
    0.642857
    >>> fast = jax.jit(qwk, static_argnames="num_classes")
    >>> round(float(fast(y_true, y_pred, num_classes=3)), 6)
    0.642857
    """
    k = check_num_classes(num_classes, "a Python int (static under jit)")
    true_index, true_ok = _class_indices(y_true, "y_true", k)
    pred_index, pred_ok = _class_indices(y_pred, "y_pred", k)
    check_pair_lengths(true_index.shape[0], pred_index.shape[0], empty_ok=True)
    _raise_if_bad(y_true, true_ok, "y_true", k)
    _raise_if_bad(y_pred, pred_ok, "y_pred", k)
    dtype = _float_dtype()
    if sample_weight is None:
        weight = jnp.ones(true_index.shape, dtype=dtype)
        weight_ok = jnp.ones(true_index.shape, dtype=bool)
    else:
        raw = _real_weights(sample_weight)
        weight = raw.astype(dtype)
        if weight.shape != true_index.shape:
            raise WkappaError(
                f"`sample_weight` must have shape {true_index.shape}; got {weight.shape}."
            )
        weight_ok = jnp.isfinite(weight) & (weight >= 0) & (weight == jnp.floor(weight))
        if not isinstance(weight_ok, jax.core.Tracer) and not bool(weight_ok.all()):
            row = int(np.flatnonzero(~np.asarray(weight_ok))[0])
            raise count_weight_error(row, np.asarray(raw)[row].item())
    valid = true_ok & pred_ok & weight_ok
    cells = jnp.where(valid, true_index * k + pred_index, 0)
    if sample_weight is None:
        table = _count_table(cells, valid, k).astype(dtype)
    else:
        table = _weight_table(cells, _tamed(jnp.where(valid, weight, 0)), k)
    table = table.reshape(k, k)
    grades = jnp.arange(k, dtype=dtype)
    weights = (grades[:, None] - grades[None, :]) ** 2
    n = table.sum()
    chance = (weights * jnp.outer(table.sum(axis=1), table.sum(axis=0))).sum()
    kappa = 1 - n * (weights * table).sum() / jnp.where(chance > 0, chance, 1)
    if not isinstance(chance, jax.core.Tracer) and not bool(chance > 0):
        # Eagerly, as wk.qwk's default zero_division='warn' does; jit cannot warn.
        warn_at_caller(
            f"Kappa is undefined: {UNDEFINED_REASON}. Returning nan.", UndefinedKappaWarning
        )
    return jnp.where(valid.all() & (chance > 0), kappa, math.nan)


def kappa_loss(
    y_true_onehot: Any,
    y_prob: Any,
    *,
    weights: WeightsLike = "quadratic",
    form: LossForm = "ratio",
    eps: float = 1e-7,
    sample_weight: Any = None,
) -> jax.Array:
    """Differentiable (soft) weighted kappa loss of de la Torre, Puig & Valls (2018).

    The same loss as :class:`wkappa.torch.WeightedKappaLoss` (``mode='probs'``), for JAX.

    Parameters
    ----------
    y_true_onehot : array of shape (N, K)
        One-hot targets (``jax.nn.one_hot(labels, K)``), or soft labels (rows summing to
        1). A row of zeros only beside padding (a ``y_prob`` row of zeros, or weight 0;
        only ``sample_weight`` 0 leaves a row out of the loss, a row of zeros still counts
        in ``N``):
        beside a prediction it is what ``jax.nn.one_hot`` makes of a label outside
        ``0..K-1`` (labels 1..K), and, as any row that is not a class, it raises
        :class:`~wkappa.exceptions.WkappaError` eagerly and makes the loss NaN under
        ``jax.jit``.
    y_prob : array of shape (N, K)
        Class probabilities, rows summing to 1 (``jax.nn.softmax(logits)``), or all 0 for a
        padded row (masked by its ``sample_weight`` 0). Called eagerly, a negative value or
        a row summing to something else raises :class:`~wkappa.exceptions.WkappaError`
        (logits passed by mistake); under ``jax.jit`` (where Python cannot raise) such a
        row makes the loss NaN, with a zero gradient, as a bad ``sample_weight`` does.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights ``W`` (zero diagonal), as in :func:`wkappa.weighted_kappa`.
    form : {'ratio', 'log'}, default 'ratio'
        ``'ratio'`` is the smooth ``1 - κ = ΣWO / ΣWE``; ``'log'`` is
        ``log(1 - κ) = log ΣWO - log ΣWE``, the form of the paper.
    eps : float, default 1e-7
        Added to ``ΣWE`` (and to ``ΣWO`` in the log form) so that a batch whose expected
        disagreement vanishes gives a finite loss and gradient.
    sample_weight : array of shape (N,), optional
        Non-negative row weights (fractional included): row ``i`` enters the tables ``w_i``
        times, ``O = Y^T diag(w) P`` and ``E = (Y^T w)(P^T w)^T / sum(w)``, as in
        :class:`wkappa.keras.WeightedKappaLoss`. 0 masks a row out, so a batch padded to a
        fixed shape under ``jax.jit`` is scored on its real rows; a batch whose weights are
        all 0 has loss 0 and a zero gradient. A negative, NaN or infinite weight raises
        :class:`~wkappa.exceptions.WkappaError` eagerly; under ``jax.jit`` (where Python
        cannot raise) it makes the loss NaN, with a zero gradient.

    Returns
    -------
    scalar jax.Array
        The loss of the batch, differentiable with respect to ``y_prob``.

    Notes
    -----
    .. math::

        O = Y^T P, \\qquad E = \\frac{(Y^T 1)(P^T 1)^T}{N}, \\qquad
        1 - \\kappa = \\frac{\\sum_{ij} W_{ij} O_{ij}}{\\sum_{ij} W_{ij} E_{ij}}.

    Kappa is a statistic of the batch, not a mean over rows: with optax, compute it on the
    whole batch inside the loss function given to ``jax.value_and_grad`` (not per example
    under ``vmap``) and use batches that hold several classes. The gradient is finite
    everywhere the probabilities are (``eps`` guards the one 0/0).

    Examples
    --------
    >>> import jax
    >>> import jax.numpy as jnp
    >>> from wkappa.jax import kappa_loss
    >>> logits = jnp.array([[4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 4.0]])
    >>> target = jax.nn.one_hot(jnp.array([0, 1, 2]), 3)
    >>> round(float(kappa_loss(target, jax.nn.softmax(logits))), 4)
    0.053
    >>> grad = jax.grad(lambda z: kappa_loss(target, jax.nn.softmax(z)))(logits)
    >>> bool(jnp.isfinite(grad).all())
    True
    """
    onehot = _array(y_true_onehot, "y_true_onehot")
    probs = _array(y_prob, "y_prob")
    if probs.ndim != 2 or onehot.shape != probs.shape:
        hint = (
            f" Hint: one-hot targets from class indices: jax.nn.one_hot(labels, {probs.shape[1]})."
            if onehot.ndim == 1 and probs.ndim == 2
            else ""
        )
        raise WkappaError(
            "`y_true_onehot` and `y_prob` must both have shape (N, K); got "
            f"{onehot.shape} and {probs.shape}.{hint}"
        )
    if not jnp.issubdtype(probs.dtype, jnp.floating):
        raise WkappaTypeError(f"`y_prob` must be floating point; got dtype {probs.dtype}.")
    not_probabilities = _probability_rows(probs)
    _concrete(eps, "eps", "a Python float")
    _concrete(weights, "weights", "a name or a concrete (K, K) array")
    form, eps = check_loss_form(form, eps, "eps")
    if probs.shape[1] < 2:
        raise WkappaError(
            f"`y_prob` must have a column per class and at least 2 classes; got shape "
            f"{probs.shape}. Hint: for one score per row, pass its probabilities over the "
            "classes (jax.nn.softmax of K logits)."
        )
    k = int(probs.shape[1])
    matrix = jnp.asarray(weight_matrix(check_weights(weights), k), dtype=probs.dtype)
    onehot = onehot.astype(probs.dtype)
    poison = not_probabilities
    row_weight = None
    if sample_weight is not None:
        row_weight, bad_weight = _loss_weights(sample_weight, probs)
        if bad_weight is not None:
            poison = bad_weight if poison is None else poison | bad_weight
    bad_target = _target_rows(onehot, probs, row_weight)
    if bad_target is not None:
        poison = bad_target if poison is None else poison | bad_target
    if row_weight is None:
        rows, pred_margin = onehot, probs.sum(axis=0)
        total = jnp.asarray(probs.shape[0], dtype=probs.dtype)
    else:
        row_weight = _tamed(row_weight)
        rows = onehot * row_weight[:, None]
        pred_margin = (probs * row_weight[:, None]).sum(axis=0)
        total = row_weight.sum()
    loss = soft_kappa_loss(jnp, rows, probs, pred_margin, total, matrix, form=form, eps=eps)
    return loss if poison is None else jnp.where(poison, math.nan, loss)


def _probability_rows(probs: jax.Array) -> jax.Array | None:
    """Check that the rows of ``probs`` are class probabilities, as every wkappa loss does:
    non-negative and summing to 1 within :func:`probability_tolerance`, or all 0 (padding).
    Eagerly a bad row raises, naming it; traced (where Python cannot raise), the returned
    boolean is true when some row is bad, and the caller makes the loss NaN."""
    if not isinstance(probs, jax.core.Tracer):
        error = probability_rows_error(
            np.asarray(probs), "y_prob", "for logits, pass jax.nn.softmax(logits)"
        )
        if error is not None:
            raise error
        return None
    eps = float(jnp.finfo(probs.dtype).eps)  # type: ignore[no-untyped-call]
    sums = probs.sum(axis=1)
    off = (jnp.abs(sums - 1) > probability_tolerance(probs.shape[1], eps)) & (sums != 0)
    return ((probs < 0).any(axis=1) | off).any()


def _target_rows(
    onehot: jax.Array, probs: jax.Array, row_weight: jax.Array | None
) -> jax.Array | None:
    """Check the rows of ``y_true_onehot``: non-negative and summing to 1 (one-hot, or soft
    labels), or all 0 on a padded row (its ``y_prob`` row all 0, or its weight 0). A row
    of zeros beside a real prediction is what ``jax.nn.one_hot`` makes of a label outside
    ``0..K-1`` (labels numbered 1..K): it would leave the row out of the targets but not of
    the predictions, a wrong loss. Eagerly a bad row raises; traced, the returned boolean
    is true when some row is bad (the caller makes the loss NaN)."""
    k = int(probs.shape[1])
    counted = jnp.abs(probs).sum(axis=1) > 0
    if row_weight is not None:
        counted = counted & (row_weight != 0)
    sums = onehot.sum(axis=1)
    empty = (sums == 0) & counted
    if not isinstance(onehot, jax.core.Tracer) and not isinstance(counted, jax.core.Tracer):
        rows = np.flatnonzero(np.asarray(empty))
        if rows.size:
            raise WkappaError(
                f"`y_true_onehot` row {int(rows[0])} is all 0, but its `y_prob` row is a "
                "prediction (not all 0) with a non-zero weight, so the loss would count it on "
                "one side only. jax.nn.one_hot gives such a row for a label outside "
                f"0..{k - 1}. Hint: class indices start at 0; for labels 1..{k}, pass "
                f"jax.nn.one_hot(labels - 1, {k}); to leave a row out, give it "
                "sample_weight 0."
            )
        error = probability_rows_error(
            np.asarray(onehot), "y_true_onehot", f"build it with jax.nn.one_hot(labels, {k})"
        )
        if error is not None:
            raise error
        return None
    eps = float(jnp.finfo(onehot.dtype).eps)  # type: ignore[no-untyped-call]
    off = (jnp.abs(sums - 1) > probability_tolerance(k, eps)) & (sums != 0)
    return (empty | (onehot < 0).any(axis=1) | off).any()


def _tamed(weight: jax.Array) -> jax.Array:
    """``weight`` scaled by the power of two of :func:`weight_exponent_limit` (the rule of
    every wkappa loss), so that the products of the weighted margins cannot overflow."""
    top = weight_exponent_limit(jnp.finfo(weight.dtype).maxexp)  # type: ignore[no-untyped-call]
    shift = jnp.maximum(jnp.frexp(weight.max(initial=0))[1] - top, 0)
    return weight * jnp.ldexp(jnp.ones((), weight.dtype), -shift)


def _real_weights(sample_weight: Any) -> jax.Array:
    """``sample_weight`` as an array of real numbers (bool counts as 0/1), as :func:`qwk`
    and :func:`kappa_loss` both take it."""
    raw = _array(sample_weight, "sample_weight")
    if not (jnp.issubdtype(raw.dtype, jnp.number) or raw.dtype == jnp.bool_):
        raise WkappaTypeError(f"`sample_weight` must hold numbers; got dtype {raw.dtype}.")
    if jnp.issubdtype(raw.dtype, jnp.complexfloating):
        raise WkappaTypeError(f"`sample_weight` must be real; got dtype {raw.dtype}.")
    return raw


def _loss_weights(sample_weight: Any, probs: jax.Array) -> tuple[jax.Array, jax.Array | None]:
    """The loss's row weights in ``probs``' dtype, numbers of shape (N,), finite and
    non-negative (eagerly a bad one raises), and, traced, whether some weight was bad."""
    raw = _real_weights(sample_weight)
    if raw.shape != probs.shape[:1]:
        raise WkappaError(
            f"`sample_weight` must have shape ({probs.shape[0]},), one weight per row of "
            f"`y_prob`; got {raw.shape}."
        )
    weight = raw.astype(probs.dtype)
    ok = jnp.isfinite(weight) & (weight >= 0)
    if isinstance(ok, jax.core.Tracer):
        # Traced: a bad weight cannot raise; it counts as 0 (no NaN reaches the gradient)
        # and the caller makes the loss NaN.
        return jnp.where(ok, weight, 0), ~ok.all()
    bad = np.flatnonzero(~np.asarray(ok))
    if bad.size:
        raise loss_weight_error(int(bad[0]), np.asarray(raw)[bad[0]].item())
    return weight, None
