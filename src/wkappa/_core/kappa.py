"""Weighted kappa and quadratic weighted kappa: the public point estimates."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from ..exceptions import WkappaError
from .dispatch import count_pairs, plain_kappa
from .kernels import QuadraticSums
from .options import (
    UNDEFINED_REASON,
    NanPolicy,
    ZeroDivision,
    check_nan_policy,
    check_table_nan_policy,
    check_zero_division,
    format_value,
    undefined_kappa,
)
from .request import Request
from .statistic import kappa_from_sums, kappas, table_sums
from .weights import WeightsLike, check_weights, integer_weights, weight_matrix

__all__ = [
    "check_table",
    "confusion_table",
    "exact_total",
    "kappa_from_quadratic_sums",
    "kappa_from_table",
    "quadratic_weighted_kappa",
    "qwk",
    "table_kappa",
    "weighted_kappa",
]


_INT64_MAX = 2**63 - 1


def kappa_from_quadratic_sums(sums: QuadraticSums, zero_division: ZeroDivision) -> float:
    """Quadratic weighted kappa from the five sums, with the ``zero_division`` rule applied
    (see :func:`~wkappa._core.statistic.kappa_from_sums`)."""
    value = kappa_from_sums(
        sums.total, sums.sum_true, sums.sum_pred, sums.sum_true_sq, sums.sum_pred_sq, sums.sum_cross
    )
    return undefined_kappa(zero_division, UNDEFINED_REASON) if math.isnan(value) else value


def check_table(table: Any, name: str = "table", *, ndim: int = 2, hint: str = "") -> np.ndarray:
    """Validate a K x K (``ndim`` = 3: K x K x K) table of non-negative finite (weighted) counts.

    ``hint`` (a sentence) is appended to the shape error.
    """
    shape = "(" + ", ".join(["K"] * ndim) + ")"
    try:
        array = np.asarray(table)
    except (TypeError, ValueError):
        raise WkappaError(f"`{name}` could not be read as a {shape} array.") from None
    if array.dtype.kind == "O":
        array = _object_counts(array, name)
    if array.dtype.kind not in "biuf":
        raise WkappaError(f"`{name}` must hold numeric counts; got dtype {array.dtype}.")
    if array.ndim != ndim or len(set(array.shape)) != 1 or array.shape[0] == 0:
        kind = "square" if ndim == 2 else "cubic"
        raise WkappaError(
            f"`{name}` must be a {kind} {shape} array; got shape {array.shape}."
            + (f" {hint}" if hint else "")
        )
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise WkappaError(f"`{name}` must be finite; it contains NaN or inf.")
    if (array < 0).any():
        cell = tuple(int(i) for i in np.argwhere(array < 0)[0])
        raise WkappaError(
            f"`{name}` must hold non-negative counts; "
            f"{name}[{', '.join(map(str, cell))}] = {format_value(array[cell].item())}."
        )
    if array.dtype.kind == "u" and array.size and int(array.max()) > _INT64_MAX:
        # Counts past int64 (uint64 >= 2**63): float64 weighted counts, never a wrap-around.
        return array.astype(np.float64)
    if array.dtype.kind in "bu":
        array = array.astype(np.int64)
    return array


def _object_counts(array: np.ndarray, name: str) -> np.ndarray:
    """An object array of Python numbers as int64 (every count an integer within int64) or
    float64: Python ints past 2**63 - 1 are read as float64 weighted counts, as uint64 counts
    past int64 are. Anything else (a string, None) is an error naming its cell."""
    flat = array.reshape(-1).tolist()
    for position, value in enumerate(flat):
        if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, np.number)):
            cell = ", ".join(str(int(i)) for i in np.unravel_index(position, array.shape))
            raise WkappaError(
                f"`{name}` must hold numeric counts; {name}[{cell}] = {format_value(value)}."
            )
    if all(isinstance(v, (int, np.integer)) and -_INT64_MAX - 1 <= v <= _INT64_MAX for v in flat):
        return np.array(flat, dtype=np.int64).reshape(array.shape)
    try:
        return np.array(flat, dtype=np.float64).reshape(array.shape)
    except OverflowError:
        raise WkappaError(
            f"`{name}` has a count too large for a float (above about 1.8e308)."
        ) from None


def exact_total(table: np.ndarray) -> int:
    """The sum of a non-negative integer table as a Python int, whatever its size: int64 sums
    are used only where they cannot overflow (``max * cells < 2**63``)."""
    if table.size == 0:
        return 0
    top = int(table.max())
    if top * table.size <= _INT64_MAX:
        return int(table.sum())
    return sum(table.ravel().tolist())


def table_kappa(table: np.ndarray, weights: str | np.ndarray, zero_division: ZeroDivision) -> float:
    """Kappa of a checked table with checked weights (a name or a (K, K) matrix;
    :func:`~wkappa._core.statistic.kappas`), with the ``zero_division`` rule applied."""
    k = table.shape[0]
    integer = integer_weights(weights, k)
    matrix = None if integer is not None and isinstance(weights, str) else weight_matrix(weights, k)
    value = kappas(table, matrix, integer)
    return undefined_kappa(zero_division, UNDEFINED_REASON) if math.isnan(value) else float(value)


def _is_quadratic(weights: str | np.ndarray) -> bool:
    return isinstance(weights, str) and weights == "quadratic"


def kappa_from_table(
    table: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    zero_division: ZeroDivision = "warn",
) -> float:
    r"""Weighted kappa from a K x K table of counts.

    Parameters
    ----------
    table : array-like of shape (K, K)
        Non-negative (weighted) counts; rows are rater A (``y_true``), columns rater B.
        Python ints past ``2**63 - 1`` (an object array) are read as float64 counts.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights (zero diagonal), see :func:`weighted_kappa`.
    zero_division : {'warn', 'raise'} or float
        What an undefined kappa (``sum(W*E) == 0``) returns: 'warn' gives nan with an
        :class:`~wkappa.exceptions.UndefinedKappaWarning`, 'raise' raises, a float is returned.

    Returns
    -------
    float
        ``1 - sum(W*O) / sum(W*E)`` with ``E = outer(row_sums, col_sums) / n``.

    Notes
    -----
    With the table O of n pairs, its row sums r and column sums c,

    .. math::

        \kappa = 1 - \frac{\sum_{ij} W_{ij} O_{ij}}{\sum_{ij} W_{ij} E_{ij}},
        \qquad E_{ij} = \frac{r_i c_j}{n},

    the same value :func:`weighted_kappa` gives for the ratings the table counts (an
    integer table is computed exactly and correctly rounded).

    Examples
    --------
    >>> import wkappa as wk
    >>> wk.kappa_from_table([[10, 2], [3, 5]], weights="unweighted")
    0.46808510638297873
    """
    checked_weights = check_weights(weights)
    zero_division = check_zero_division(zero_division)
    array = check_table(table)
    if _is_quadratic(checked_weights):
        sums = table_sums(array)
        if sums is not None:
            return kappa_from_quadratic_sums(QuadraticSums(*sums), zero_division)
    return table_kappa(array, checked_weights, zero_division)


def weighted_kappa(
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
    *,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
    nan_policy: NanPolicy = "raise",
    zero_division: ZeroDivision = "warn",
) -> float:
    """Cohen's weighted kappa between two raters.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Rater A's ratings (rows of the table): integers, integral floats, booleans, strings
        with ``labels``, or a pandas/polars/pyarrow column. Non-integer floats are an error.
    y_pred : array-like of shape (n,)
        Rater B's ratings (columns of the table).
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights ``W`` with zero diagonal: quadratic ``(i-j)²/(K-1)²``, linear
        ``|i-j|/(K-1)``, unweighted ``1 - [i == j]``, or a finite non-negative user matrix
        with a zero diagonal (a non-zero diagonal is an error). ``i`` and ``j`` are the
        category positions, not the label values: with ``labels=[1, 3, 10]`` a 1 against a
        3 weighs as much as a 3 against a 10; pass a matrix for weights on the values.
        Agreement weights ``A`` (Fleiss-Cohen-Everitt, SAS) convert as ``W = 1 - A``.
    labels : sequence of K categories, optional
        The categories, in order. A rating not in ``labels`` is an error.
    min_rating, max_rating : int, optional
        Without ``labels``, the categories are every integer from ``min_rating`` to
        ``max_rating`` (by default the observed minimum and maximum over both raters), so an
        unused interior grade still counts, as in Kaggle's metric.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite weight of each pair; the table then holds weighted counts.
    nan_policy : {'raise', 'omit', 'propagate'}, default 'raise'
        A missing rating (NaN, None, pandas NA, null) raises, drops its pair, or makes the
        result nan.
    zero_division : {'warn', 'raise'} or float, default 'warn'
        What an undefined kappa returns (see :func:`kappa_from_table`).

    Returns
    -------
    float
        ``kappa = 1 - sum(W*O) / sum(W*E)``.

    Notes
    -----
    ``O`` is the K x K table of (weighted) counts with rows ``y_true`` and columns ``y_pred``;
    ``E = outer(row_sums, col_sums) / n`` is the table expected if the raters were
    independent. Categories are indexed by their position in the label order.

    scikit-learn's ``cohen_kappa_score`` uses only the observed labels; pass
    ``labels=sorted(set(y_true) | set(y_pred))`` to reproduce it.

    Examples
    --------
    >>> import wkappa as wk
    >>> wk.weighted_kappa([0, 1, 2, 2], [0, 2, 2, 1], weights="linear")
    0.42857142857142855
    """
    value = plain_kappa(
        y_true, y_pred, weights, labels, min_rating, max_rating, sample_weight, nan_policy,
        zero_division,
    )  # fmt: skip
    if value is not None:
        return value
    checked_weights = check_weights(weights)
    zero_division = check_zero_division(zero_division)
    policy = check_nan_policy(nan_policy)
    request = Request.for_weights(
        checked_weights, labels, min_rating, max_rating, sample_weight, policy, sums=True
    )
    counted = count_pairs(y_true, y_pred, request)
    if counted.sums is not None:
        return kappa_from_quadratic_sums(counted.sums, zero_division)
    if counted.table is None:
        return float("nan")  # a missing rating, nan_policy='propagate'
    return table_kappa(counted.table, checked_weights, zero_division)


def quadratic_weighted_kappa(
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
    *,
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
    nan_policy: NanPolicy = "raise",
    zero_division: ZeroDivision = "warn",
) -> float:
    """Quadratic weighted kappa (QWK), the Kaggle metric for ordinal predictions.

    The same as ``weighted_kappa(..., weights="quadratic")``; see :func:`weighted_kappa` for
    the parameters. It needs no K x K table: five sums over the category indices are
    sufficient (see Notes), so any number of categories is fine.

    Returns
    -------
    float
        ``1 - sum(W*O) / sum(W*E)`` with ``W_ij = (i - j)² / (K - 1)²``.

    Notes
    -----
    With category indices ``a_k``, ``b_k`` of n pairs,

    .. math::

        \\mathrm{QWK} = 1 - \\frac{n \\sum_k (a_k - b_k)^2}{\\sum_i \\sum_j (a_i - b_j)^2}
        = \\frac{2 (n \\sum ab - \\sum a \\sum b)}{n (\\sum a^2 + \\sum b^2) - 2 \\sum a \\sum b}.

    Without sample weights the sums are exact integers and the result is correctly rounded.

    Examples
    --------
    The worked example of the Kaggle metric write-ups:

    >>> import wkappa as wk
    >>> wk.qwk([4, 4, 3, 4, 4, 0, 1, 1, 2, 1], [0, 4, 1, 0, 4, 0, 1, 1, 2, 1])
    0.3181818181818182

    An unused interior grade still counts (ratings {0, 1, 3} mean K = 4):

    >>> wk.qwk([0, 0, 0, 1, 1, 1, 3, 3, 3, 3], [0, 0, 1, 0, 1, 1, 1, 3, 3, 3])
    0.8064516129032258
    """
    value = plain_kappa(
        y_true, y_pred, "quadratic", labels, min_rating, max_rating, sample_weight, nan_policy,
        zero_division,
    )  # fmt: skip
    if value is not None:
        return value
    return weighted_kappa(
        y_true,
        y_pred,
        weights="quadratic",
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=sample_weight,
        nan_policy=nan_policy,
        zero_division=zero_division,
    )


qwk = quadratic_weighted_kappa


def confusion_table(
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
    *,
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: npt.ArrayLike | None = None,
    nan_policy: NanPolicy = "raise",
) -> np.ndarray:
    """The K x K table O of (weighted) counts.

    Parameters
    ----------
    y_true, y_pred, labels, min_rating, max_rating, sample_weight, nan_policy
        As in :func:`weighted_kappa`. ``nan_policy='propagate'`` is not meaningful for a
        table and raises. The rows and columns follow the category order, so strings and
        unordered categoricals need ``labels`` (as for weighted kappa).

    Returns
    -------
    ndarray of shape (K, K)
        ``O[i, j]`` counts the pairs with ``y_true`` in category i and ``y_pred`` in category
        j; int64 counts, or float64 weighted counts with ``sample_weight``.

    Examples
    --------
    >>> import wkappa as wk
    >>> wk.confusion_table([0, 1, 1, 2], [0, 1, 2, 2])
    array([[1, 0, 0],
           [0, 1, 1],
           [0, 0, 1]])
    """
    request = Request(
        labels,
        min_rating,
        max_rating,
        sample_weight,
        check_table_nan_policy(nan_policy, "a table"),
        ordered=True,
        propagate=False,
    )
    table = count_pairs(y_true, y_pred, request).table
    assert table is not None
    return table
