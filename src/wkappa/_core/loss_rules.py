"""The rules the kappa losses and metrics of :mod:`wkappa.torch`, :mod:`wkappa.jax` and
:mod:`wkappa.keras` share, written once.

Each adapter applies them with its own framework's operations (no adapter imports another
framework, and nothing here imports one), so the three losses refuse the same probability
rows, scale the same sample weights the same way and compute the same loss.
"""

from __future__ import annotations

from typing import Any

from ..exceptions import WkappaError
from .options import format_value

__all__ = [
    "count_weight_error",
    "loss_weight_error",
    "probability_tolerance",
    "soft_kappa_loss",
    "weight_exponent_limit",
]


def probability_tolerance(k: int, eps: float) -> float:
    """How far a row of ``k`` class probabilities may sum from 1 and still be taken as
    probabilities: ``k`` roundings of a dtype whose machine epsilon is ``eps``, and never less
    than 0.01 (a softmax computed in a lower precision upstream of the loss).

    >>> probability_tolerance(5, 2.0**-23)
    0.01
    >>> probability_tolerance(4, 2.0**-7)
    0.03125
    """
    return max(1e-2, k * eps)


def weight_exponent_limit(max_exponent: int) -> int:
    """The binary exponent up to which a loss uses its row weights as given.

    ``max_exponent`` is the float dtype's ``finfo(dtype).maxexp`` (128 for float32 and
    bfloat16, 1024 for float64, 16 for float16). Row weights whose largest has the
    ``frexp`` exponent ``e`` above a quarter of it are multiplied by ``2**-(e - limit)``:
    the losses do not change when every weight is scaled, and the products of the weighted
    margins then cannot overflow the dtype. The scale is a power of two, so it is exact and
    never a subnormal reciprocal of a huge weight.

    >>> weight_exponent_limit(128)
    32
    """
    return max_exponent // 4


def soft_kappa_loss(
    xp: Any,
    rows: Any,
    probs: Any,
    pred_margin: Any,
    total: Any,
    weights: Any,
    *,
    form: str,
    eps: float,
    tfa_log: bool = False,
) -> Any:
    """The soft weighted kappa loss of de la Torre, Puig & Valls (2018) of one batch.

    Written once for the three losses in the array namespace ``xp`` (``torch``,
    ``jax.numpy`` or ``keras.ops``, which have ``einsum``, ``outer``, ``sum``, ``where``,
    ``log``, ``ones_like`` and ``zeros_like`` with these signatures).

    Parameters
    ----------
    xp : module
        The framework's namespace.
    rows : tensor of shape (N, K)
        The one-hot (or soft) targets, each row times its sample weight.
    probs : tensor of shape (N, K)
        The class probabilities.
    pred_margin : tensor of shape (K,)
        The columns of ``probs`` summed with the sample weights.
    total : scalar tensor
        The sum of the sample weights (N without them).
    weights : tensor of shape (K, K)
        The disagreement weights ``W`` in the dtype of ``probs``.
    form : {'ratio', 'log'}
        ``ΣWO / (ΣWE + eps)``, or ``log(ΣWO + eps) - log(ΣWE + eps)``.
    eps : float
        The guard of the 0/0 of a batch without expected disagreement.
    tfa_log : bool, default False
        The log form of TensorFlow Addons, ``log(ΣWO / ΣWE + eps)`` (the Keras loss).

    Returns
    -------
    scalar tensor
        The loss, with ``O = rowsᵀ probs`` and ``E = (rowsᵀ 1) pred_marginᵀ / total``. A
        batch without weight (``total`` 0) has loss 0 and a zero gradient: the unused
        branches get safe denominators, so that no NaN reaches the gradient through
        ``where``.
    """
    counted = total > 0
    one = xp.ones_like(total)
    disagreement = xp.sum(weights * xp.einsum("nk,nl->kl", rows, probs))
    expected = xp.outer(xp.sum(rows, axis=0), pred_margin) / xp.where(counted, total, one)
    chance = xp.sum(weights * expected)
    if form == "ratio":
        loss = disagreement / xp.where(counted, chance + eps, one)
    elif tfa_log:
        positive = chance > 0
        ratio = disagreement / xp.where(positive, chance, one)
        loss = xp.log(xp.where(positive, ratio, xp.zeros_like(ratio)) + eps)
    else:
        loss = xp.log(xp.where(counted, disagreement + eps, one)) - xp.log(
            xp.where(counted, chance + eps, one)
        )
    return xp.where(counted, loss, xp.zeros_like(loss))


def loss_weight_error(row: int, value: Any) -> WkappaError:
    """The error for the sample weight ``value`` of ``row`` given to a loss (which takes
    any finite non-negative weight)."""
    return WkappaError(
        f"`sample_weight` must hold finite non-negative weights; row {row} holds "
        f"{format_value(value)}."
    )


def count_weight_error(row: int, value: Any) -> WkappaError:
    """The error for the sample weight ``value`` of ``row`` given to a metric's count table
    (which takes non-negative whole numbers, the count each row adds)."""
    return WkappaError(
        "`sample_weight` must hold non-negative whole numbers (the count each row adds); "
        f"row {row} holds {format_value(value)}. Hint: kappa does not change when every "
        "weight is scaled by one constant, so scale fractional weights to whole numbers."
    )
