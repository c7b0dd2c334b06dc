"""Disagreement weight matrices.

wkappa uses *disagreement* weights ``W`` (zero on the diagonal, larger for worse disagreement),
as Cohen (1968) and scikit-learn do. Fleiss, Cohen & Everitt (1969), SAS and some R packages use
*agreement* weights ``A = 1 - W`` instead; kappa is the same either way when ``W`` is scaled so
that its largest entry is 1.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..exceptions import WkappaError
from .options import format_value

__all__ = [
    "WEIGHT_NAMES",
    "WeightsLike",
    "check_weights",
    "integer_weights",
    "needs_order",
    "weight_matrix",
    "weights_name",
]

WEIGHT_NAMES = ("quadratic", "linear", "unweighted")
WeightsLike = Literal["quadratic", "linear", "unweighted"] | npt.ArrayLike


def _bad_weights(weights: Any) -> WkappaError:
    hint = ""
    if weights is None:
        hint = " Hint: use weights='unweighted' for Cohen's unweighted kappa."
    return WkappaError(
        "`weights` must be one of 'quadratic', 'linear', 'unweighted' or a (K, K) array; "
        f"got {format_value(weights)}.{hint}"
    )


def check_weights(weights: Any) -> str | np.ndarray:
    """Validate ``weights`` before K is known.

    Returns the weight name, or the user matrix as a float64 array checked to be square, finite
    and non-negative.
    """
    if isinstance(weights, str):
        if weights in WEIGHT_NAMES:
            return weights
        raise _bad_weights(weights)
    if weights is None or isinstance(weights, (bool, int, float, dict, set)):
        raise _bad_weights(weights)
    try:
        matrix = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise _bad_weights(weights) from None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] == 0:
        raise WkappaError(
            f"`weights` as a matrix must have shape (K, K) with K >= 1; got shape {matrix.shape}."
        )
    if not np.all(np.isfinite(matrix)):
        raise WkappaError("`weights` must be finite; the matrix contains NaN or inf.")
    if np.any(matrix < 0):
        raise WkappaError(
            "`weights` must be non-negative disagreement weights; the matrix has negative "
            "entries. Hint: agreement weights A convert to disagreement weights as 1 - A."
        )
    matrix.setflags(write=False)
    return matrix


def needs_order(weights: str | np.ndarray) -> bool:
    """Whether checked ``weights`` need ordered categories: every weighting but 'unweighted'
    (whose kappa does not change when the categories are permuted, so strings and unordered
    categoricals are accepted as they are)."""
    return not (isinstance(weights, str) and weights == "unweighted")


def weights_name(weights: str | np.ndarray) -> str:
    """The name of checked weights ('custom' for a user matrix)."""
    return weights if isinstance(weights, str) else "custom"


def weight_matrix(weights: str | np.ndarray, n_categories: int) -> np.ndarray:
    """The (K, K) disagreement weight matrix for checked ``weights``.

    Parameters
    ----------
    weights : str or ndarray of shape (K, K)
        The output of :func:`check_weights`.
    n_categories : int
        K, the number of categories.

    Returns
    -------
    ndarray of shape (K, K), float64
        ``quadratic``: ``(i - j)**2 / (K - 1)**2``; ``linear``: ``|i - j| / (K - 1)``;
        ``unweighted``: ``1 - [i == j]``. With K = 1 every weight is 0 (kappa is undefined).
    """
    k = n_categories
    if isinstance(weights, np.ndarray):
        if weights.shape != (k, k):
            raise WkappaError(
                f"`weights` has shape {weights.shape} but there are K = {k} categories; "
                f"it must have shape ({k}, {k}). Hint: pass labels= to fix the categories."
            )
        return weights
    index = np.arange(k, dtype=np.float64)
    distance = np.abs(index[:, None] - index[None, :])
    scale = max(k - 1, 1)
    if weights == "quadratic":
        return distance**2 / scale**2
    if weights == "linear":
        return distance / scale
    return (distance > 0).astype(np.float64)


def _integer_matrix(name: str, n_categories: int) -> np.ndarray:
    if n_categories <= _CACHED_K:
        return _cached_integer_matrix(name, n_categories)
    return _build_integer_matrix(name, n_categories)


def _build_integer_matrix(name: str, n_categories: int) -> np.ndarray:
    index = np.arange(n_categories, dtype=np.int64)
    distance: np.ndarray = np.abs(index[:, None] - index[None, :])
    if name == "quadratic":
        squared: np.ndarray = distance * distance
        return squared
    if name == "linear":
        return distance
    return (distance > 0).astype(np.int64)


# Small integer matrices are kept (read-only): a validation fold's kappa should not rebuild one.
_CACHED_K = 64


@functools.lru_cache(maxsize=3 * 16)
def _cached_integer_matrix(name: str, n_categories: int) -> np.ndarray:
    matrix = _build_integer_matrix(name, n_categories)
    matrix.setflags(write=False)
    return matrix


def integer_weights(weights: str | np.ndarray, n_categories: int) -> np.ndarray | None:
    """The integer matrix ``D`` with ``W = D / scale``, for named weights or a matrix equal to one.

    Kappa does not change when W is scaled, so for a table of integer counts and quadratic,
    linear or unweighted weights it can be computed with integers ``(i-j)²``, ``|i-j|`` or
    ``[i != j]`` exactly. Any other matrix (and K < 2) gives None.

    Parameters
    ----------
    weights : str or ndarray of shape (K, K), float64
        Checked weights: a name, or a disagreement weight matrix.
    n_categories : int
        K.

    Returns
    -------
    ndarray of shape (K, K), int64 (read-only for small K), or None
    """
    k = n_categories
    if k < 2:
        return None
    if isinstance(weights, str):
        return _integer_matrix(weights, k)
    # W[0, 1] tells which named matrix it can be: 1/(K-1)², 1/(K-1) or 1.
    first = {"quadratic": 1 / (k - 1) ** 2, "linear": 1 / (k - 1), "unweighted": 1.0}
    for name in WEIGHT_NAMES:
        if weights[0, 1] == first[name] and np.array_equal(weights, weight_matrix(name, k)):
            return _integer_matrix(name, k)
    return None
