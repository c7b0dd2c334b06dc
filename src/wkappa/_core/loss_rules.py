"""The rules the kappa losses of :mod:`wkappa.torch`, :mod:`wkappa.jax` and
:mod:`wkappa.keras` share, written once as plain numbers.

Each adapter applies them with its own framework's operations (no adapter imports another
framework), so the three losses refuse the same probability rows and scale the same sample
weights the same way.
"""

from __future__ import annotations

__all__ = ["probability_tolerance", "weight_exponent_limit"]


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
