"""Disagreement weight matrices.

wkappa uses *disagreement* weights ``W`` (zero on the diagonal, larger for worse disagreement),
as Cohen (1968) and scikit-learn do. Fleiss, Cohen & Everitt (1969), SAS and some R packages use
*agreement* weights ``A = 1 - W`` instead; kappa is the same either way when ``W`` is scaled so
that its largest entry is 1.

The library's named weights ('quadratic', 'linear', 'unweighted') are on the category
*positions* 0..K-1, for two raters and several alike; Gwet's named weights and Krippendorff's
interval and ratio metrics are on the category *values* (:func:`category_values`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, get_args

import numpy as np
import numpy.typing as npt

from ..exceptions import WkappaError, WkappaTypeError
from .options import GwetWeights, KrippendorffLevel, choice_error, format_value

__all__ = [
    "GWET_WEIGHTS",
    "KRIPPENDORFF_LEVELS",
    "WEIGHT_NAMES",
    "ValuePairs",
    "WeightsLike",
    "category_values",
    "check_weights",
    "gwet_weights",
    "integer_weights",
    "krippendorff_metric",
    "needs_order",
    "value_pairs",
    "weight_matrix",
    "weights_name",
]

WEIGHT_NAMES = ("quadratic", "linear", "unweighted")
WeightsLike = Literal["quadratic", "linear", "unweighted"] | npt.ArrayLike


def _bad_weights(weights: Any) -> WkappaError:
    listed = "one of 'quadratic', 'linear', 'unweighted' or a (K, K) array"
    if weights is None:
        return WkappaTypeError(
            f"`weights` must be {listed}; got None. Hint: use weights='unweighted' for "
            "Cohen's unweighted kappa."
        )
    return choice_error(weights, "weights", listed)


def check_weights(weights: Any) -> str | np.ndarray:
    """Validate ``weights`` before K is known.

    Returns the weight name, or the user matrix as a float64 array checked to be square, finite
    and non-negative, with a zero diagonal: the one check of a user matrix, for every entry
    point (two raters, several raters and the integrations).
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
    diagonal = np.diag(matrix)
    if np.any(diagonal != 0):
        raise WkappaError(
            "`weights` must be disagreement weights with a zero diagonal (two equal ratings "
            f"are full agreement); got diagonal {format_value(diagonal.tolist())}. "
            "Hint: agreement weights A (A_ii = 1, as SAS, Fleiss-Cohen-Everitt and irrCAC use "
            "them) convert to disagreement weights as W = 1 - A: pass weights=1 - A."
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
        ``unweighted``: ``1 - [i == j]``, with ``i``, ``j`` the category positions (not the
        label values). With K = 1 every weight is 0 (kappa is undefined).
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


# --------------------------------------------------------------------------- several raters

GWET_WEIGHTS: tuple[str, ...] = get_args(GwetWeights)
KRIPPENDORFF_LEVELS: tuple[str, ...] = get_args(KrippendorffLevel)


def category_values(labels: Sequence[Any]) -> np.ndarray:
    """Numeric category values as irrCAC uses them: the labels when they are numbers (int64
    for integers, exactly; float64 otherwise), else ``1..K``."""
    items = list(labels)
    if items and all(isinstance(v, (int, np.integer)) for v in items):
        # Integer categories stay below 2**62 in magnitude (the encoders' bound).
        return np.array([int(v) for v in items], dtype=np.int64)
    try:
        values = np.asarray(items, dtype=np.float64)
    except (TypeError, ValueError):
        return np.arange(1, len(items) + 1, dtype=np.int64)
    if not np.isfinite(values).all():
        return np.arange(1, len(items) + 1, dtype=np.int64)
    return values


class ValuePairs(NamedTuple):
    """Differences of K category values, each exact before one rounding to float64.

    Float values are first scaled by a power of two (exact) so that nothing overflows;
    ``unit`` is 1 in the scaled units. Attributes: ``diff[k, l] = x_k - x_l``,
    ``above[k] = x_k - min``, ``below[k] = max - x_k``, ``value[k] = x_k``, ``span = max -
    min``.
    """

    diff: np.ndarray
    above: np.ndarray
    below: np.ndarray
    value: np.ndarray
    span: float
    unit: float


def value_pairs(values: np.ndarray) -> ValuePairs:
    """The :class:`ValuePairs` of category values (int64 or float64, see
    :func:`category_values`): integer differences are taken in int64 (exact below 2**63),
    float ones after scaling the values into [-1, 1] (exact), so that category values beyond
    2**53 or near ±1e308 keep their differences."""
    if values.dtype.kind in "iu":
        ints = values.astype(np.int64)
        low, high = int(ints.min()), int(ints.max())
        diff = np.subtract.outer(ints, ints).astype(np.float64)
        above = (ints - low).astype(np.float64)
        below = (high - ints).astype(np.float64)
        return ValuePairs(diff, above, below, ints.astype(np.float64), float(high - low), 1.0)
    largest = float(np.abs(values).max())
    shift = math.frexp(largest)[1] if largest > 0 else 0
    scaled = np.ldexp(values.astype(np.float64), -shift)
    least, most = float(scaled.min()), float(scaled.max())
    return ValuePairs(
        np.subtract.outer(scaled, scaled),
        scaled - least,
        most - scaled,
        scaled,
        most - least,
        math.ldexp(1.0, -shift),
    )


def gwet_weights(name: str, values: np.ndarray) -> np.ndarray:
    """Gwet's named weights (irrCAC's ``*.weights``) as *disagreement* weights ``1 - A``.

    Parameters
    ----------
    name : {'ordinal', 'radical', 'ratio', 'circular', 'bipolar'}
    values : ndarray of shape (K,)
        The category values in order (:func:`category_values`; irrCAC uses ``1..K`` for
        non-numeric categories).

    Returns
    -------
    ndarray of shape (K, K)
        Zero diagonal, largest entry 1 (K >= 2). With ``x`` the values, ``m`` their minimum
        and ``M`` their maximum: ordinal ``C(|k - l| + 1, 2)`` (ranks only); radical
        ``sqrt|x_k - x_l| / sqrt(M - m)``; ratio ``((x_k - x_l)/(x_k + x_l))² /
        ((M - m)/(M + m))²``; circular ``sin²(pi (x_k - x_l) / (M - m + 1))``; bipolar
        ``(x_k - x_l)² / ((x_k + x_l - 2m)(2M - x_k - x_l))``; the last two scaled to a
        largest entry of 1. Differences are exact before rounding (:func:`value_pairs`).
    """
    k = len(values)
    if k < 2:
        return np.zeros((k, k))
    if name == "ordinal":
        steps = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) + 1.0
        raw = steps * (steps - 1.0) / 2.0
        return _finish(raw / raw.max())
    pairs = value_pairs(values)
    diff = pairs.diff
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if name == "radical":
            raw = np.sqrt(np.abs(diff)) / math.sqrt(pairs.span)
        elif name == "ratio":
            total = np.add.outer(pairs.value, pairs.value)
            extreme = pairs.span / (pairs.value.max() + pairs.value.min())
            raw = np.where(total != 0, (diff / total) ** 2, 0.0) / extreme**2
        elif name == "circular":
            raw = np.sin(math.pi * diff / (pairs.span + pairs.unit)) ** 2
        elif name == "bipolar":
            # (x_k + x_l - 2m)(2M - x_k - x_l), each factor a sum of non-negative gaps
            lower = np.add.outer(pairs.above, pairs.above)
            upper = np.add.outer(pairs.below, pairs.below)
            raw = diff**2 / (lower * upper)
            np.fill_diagonal(raw, 0.0)
        else:  # pragma: no cover - checked by the caller
            raise ValueError(name)
    raw = _finish(raw)
    if name in ("circular", "bipolar"):
        raw = raw / raw.max()
    return raw


def _finish(raw: np.ndarray) -> np.ndarray:
    np.fill_diagonal(raw, 0.0)
    return raw


def krippendorff_metric(
    level: str, labels: Sequence[Any], pairable_counts: np.ndarray
) -> np.ndarray:
    """Krippendorff's difference function delta_ck, scaled to a largest entry of 1.

    Parameters
    ----------
    level : {'nominal', 'ordinal', 'interval', 'ratio'}
    labels : sequence of K categories
        Their values for 'interval' and 'ratio' (numbers).
    pairable_counts : ndarray of shape (K,)
        ``n_g``, the pairable ratings in each category (for 'ordinal').

    Returns
    -------
    ndarray of shape (K, K)
        nominal ``[c != k]``; ordinal ``(sum_{g=c..k} n_g - (n_c + n_k) / 2)²`` (Krippendorff
        2011, "Computing Krippendorff's alpha-reliability"); interval ``(v_c - v_k)²``; ratio
        ``((v_c - v_k)/(v_c + v_k))²``, with exact differences (:func:`value_pairs`).
    """
    k = len(labels)
    if level == "nominal":
        delta = 1.0 - np.eye(k)
    elif level == "ordinal":
        n_g = pairable_counts.astype(np.float64)
        cumulative = np.concatenate([[0.0], np.cumsum(n_g)])
        low = np.minimum.outer(np.arange(k), np.arange(k))
        high = np.maximum.outer(np.arange(k), np.arange(k))
        span = cumulative[high + 1] - cumulative[low] - (n_g[:, None] + n_g[None, :]) / 2.0
        delta = span**2
        np.fill_diagonal(delta, 0.0)
    else:
        items = list(labels)
        numeric = all(
            isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            for v in items
        )
        values = category_values(items) if numeric else None
        if values is None or (values.dtype.kind == "f" and not np.isfinite(values).all()):
            raise WkappaError(
                f"level={level!r} needs numeric categories; got {format_value(items)}. "
                "Hint: use level='ordinal' for ordered labels."
            )
        pairs = value_pairs(values)
        if level == "interval":
            delta = (pairs.diff / pairs.span) ** 2 if pairs.span > 0 else np.zeros((k, k))
        else:
            if (pairs.value < 0).any():
                raise WkappaError(
                    "level='ratio' needs non-negative values (a ratio scale has an absolute zero)."
                )
            total = np.add.outer(pairs.value, pairs.value)
            with np.errstate(divide="ignore", invalid="ignore"):
                delta = np.where(total > 0, (pairs.diff / total) ** 2, 0.0)
    top = float(delta.max()) if delta.size else 0.0
    scaled: np.ndarray = delta / top if top > 0 else delta
    return scaled


def check_agreement_weights(weights: Any) -> str | np.ndarray:
    """Validate several raters' ``weights`` before K is known: the library's names or a
    matrix (:func:`check_weights`), or one of Gwet's value-based names (kept as the name)."""
    if isinstance(weights, str) and weights in GWET_WEIGHTS:
        return weights
    if isinstance(weights, str) and weights not in WEIGHT_NAMES:
        names = ", ".join(repr(name) for name in (*WEIGHT_NAMES, *GWET_WEIGHTS))
        raise choice_error(
            weights, "weights", f"one of {names} or a (K, K) matrix of disagreement weights"
        )
    return check_weights(weights)


def agreement_weight_matrix(
    weights: str | np.ndarray, k: int, coefficient: str, labels: Sequence[Any] | None = None
) -> tuple[str, np.ndarray]:
    """Which W several raters use: the name and the (K, K) disagreement matrix of weights
    checked by :func:`check_agreement_weights` (Gwet's names on the category values)."""
    if isinstance(weights, str) and weights in GWET_WEIGHTS:
        values = category_values(labels if labels is not None else range(1, k + 1))
        if weights == "ratio" and (values <= 0).any():
            lowest = values.min().item()
            raise WkappaError(
                "weights='ratio' needs positive category values (Gwet's ratio weights divide "
                f"by x_k + x_l), and the categories include {lowest:g}. Hint: recode the "
                "ratings so that every category is a positive number (add 1 to grades that "
                "start at 0), or choose other weights."
            )
        return weights, gwet_weights(weights, values)
    matrix = weight_matrix(weights, k).astype(np.float64)
    if coefficient in ("gwet", "percent") and matrix.max() > 1:
        raise WkappaError(
            f"`weights` for coefficient={coefficient!r} must lie in [0, 1]: Gwet's agreement "
            "weights are 1 - W and this coefficient changes when W is rescaled. Hint: divide "
            "the matrix by its largest entry."
        )
    return weights_name(weights), matrix
