"""KappaAccumulator: an exact, mergeable running K x K table for streaming data.

The table of counts is a sufficient statistic of every kappa, and tables add: the
table of a union of batches is the sum of their tables. So batches can be counted one at a
time, on different machines, in any order, and merged exactly.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from .._core import (
    Alternative,
    NanPolicy,
    Request,
    WeightsLike,
    ZeroDivision,
    check_labels,
    check_rating_bounds,
    check_table,
    check_table_nan_policy,
    check_table_size,
    check_weights,
    count_pairs,
    empty_labels_error,
    exact_total,
    format_value,
    kappa_from_table,
    weight_matrix,
    weights_name,
)
from ..exceptions import WkappaError, WkappaTypeError
from .frequencies import ACCUMULATOR_COUNTS, check_frequencies
from .json_values import json_value
from .results import KappaResult

__all__ = ["KappaAccumulator", "Mergeable", "check_state_header", "is_empty_batch"]

_FORMAT = "wkappa.KappaAccumulator"
_VERSION = 1


_State = TypeVar("_State", bound="Mergeable")


class Mergeable:
    """The merge rule of the running states (:class:`KappaAccumulator`,
    :class:`~wkappa.ICCAccumulator`): ``a + b`` is ``a.merge(b)``, and ``0 + a`` is ``a``
    merged with an empty state, so that ``sum(states)`` merges them all (``sum()`` starts
    from 0). A state changes in place (``update``), so it has no hash.

    A subclass defines ``merge`` (a new state holding both, its arguments unchanged) and
    ``_empty_like`` (an empty state of the same options), and checks the other state with
    :meth:`_of_my_kind` first.
    """

    __slots__ = ()

    def merge(self: _State, other: _State) -> _State:
        raise NotImplementedError

    def _empty_like(self: _State) -> _State:
        raise NotImplementedError

    def _kind(self: _State) -> type[_State]:
        """The class that takes the rule (a user's subclass of it merges with it)."""
        classes = type(self).__mro__
        kind: type[_State] = classes[classes.index(Mergeable) - 1]
        return kind

    def _of_my_kind(self: _State, other: Any) -> _State:
        """``other``, if it is a state of this kind; else a WkappaTypeError."""
        if not isinstance(other, self._kind()):
            name = self._kind().__name__
            article = "an" if name[0] in "AEIOU" else "a"
            raise WkappaTypeError(
                f"Can only merge {article} {name} with another; got {type(other).__name__}."
            )
        return other

    def __add__(self: _State, other: _State) -> _State:
        if not isinstance(other, self._kind()):
            return NotImplemented
        return self.merge(other)

    def __radd__(self: _State, other: Any) -> _State:
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self.merge(self._empty_like())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable


def check_state_header(state: object, name: str, format_name: str, version: int) -> None:
    """A WkappaError unless ``state`` is a dict of ``name``'s ``to_dict()`` format and
    version (the header every accumulator's ``from_dict`` reads first)."""
    if not isinstance(state, dict) or state.get("format") != format_name:
        article = "an" if name[0] in "AEIOU" else "a"
        raise WkappaError(
            f"`state` is not {article} {name} dict (its 'format' is not {format_name!r}). "
            f"Hint: make it with {name}.to_dict()."
        )
    found = state.get("version")
    if found != version:
        older = isinstance(found, int) and not isinstance(found, bool) and found < version
        fix = (
            f"make the state again with this wkappa: {name}().update(...) with the same "
            "ratings, then to_dict() (an earlier format is not converted)"
            if older
            else "upgrade wkappa"
        )
        raise WkappaError(
            f"`state` has version {format_value(found)}; this wkappa reads version "
            f"{version}. Hint: {fix}."
        )


_INT64_MAX = 2**63 - 1


def _labels_from_options(labels: Any, min_rating: Any, max_rating: Any) -> Sequence[Any]:
    """The fixed categories: ``labels`` in order, or ``range(min_rating, max_rating + 1)``."""
    lo, hi = check_rating_bounds(min_rating, max_rating, labels)
    if labels is not None:
        if isinstance(labels, range):
            if len(labels) == 0:
                raise empty_labels_error()
            check_table_size(len(labels))  # before a long range is materialised
            return labels if labels.step == 1 else tuple(labels)
        return tuple(check_labels(labels).tolist())
    if lo is None or hi is None:
        raise WkappaError(
            "KappaAccumulator needs its categories up front, because batches must agree on "
            "them. Hint: pass labels=[...] or both min_rating= and max_rating=."
        )
    return range(lo, hi + 1)


class KappaAccumulator(Mergeable):
    """An exact running confusion table for kappa over batches of ratings.

    The categories are fixed when the accumulator is made, so every batch, and every
    accumulator merged with this one, counts into the same K x K table. A rating outside
    the categories is an error; the table never grows silently.

    Parameters
    ----------
    labels : sequence of K categories, optional
        The categories, in order (integers or strings).
    min_rating, max_rating : int, optional
        Without ``labels``: the categories are every integer from ``min_rating`` to
        ``max_rating``; both are then required.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights, as in :func:`wkappa.weighted_kappa`.

    Attributes
    ----------
    labels : tuple or range
        The K categories.
    weights : str or ndarray of shape (K, K)
        The weight name, or the custom disagreement matrix.
    table : ndarray of shape (K, K)
        A copy of the running table ``O``: int64 counts, float64 once a batch had sample
        weights.
    n : int or float
        The number of pairs counted (the total weight with sample weights).
    value : float
        Kappa of the table so far (nan with an ``UndefinedKappaWarning`` while undefined).

    Notes
    -----
    The table of the union of batches ``B_1, ..., B_m`` is ``O = O_1 + ... + O_m``, and
    ``kappa = 1 - sum(W*O) / sum(W*E)`` with ``E = outer(row_sums, col_sums) / n`` depends on
    the data only through ``O``. Hence ``merge`` is exact, associative and commutative, the
    empty accumulator is its identity, and any partition of the data merged gives the same
    kappa as the whole. Integer counts stay int64 (an overflow past ``2**63 - 1`` is an error,
    never a wrap-around); with sample weights the table holds float64 weighted counts.

    Examples
    --------
    >>> import wkappa as wk
    >>> acc = wk.KappaAccumulator(min_rating=0, max_rating=4)
    >>> acc.update([4, 4, 3, 4, 4], [0, 4, 1, 0, 4]).update([0, 1, 1, 2, 1], [0, 1, 1, 2, 1])
    KappaAccumulator(labels=range(0, 5), weights='quadratic', n=10)
    >>> acc.value
    0.3181818181818182

    Accumulators of separate batches (other processes, other machines) merge exactly:

    >>> a = wk.KappaAccumulator(min_rating=0, max_rating=4).update([4, 4, 3, 4, 4], [0, 4, 1, 0, 4])
    >>> b = wk.KappaAccumulator(min_rating=0, max_rating=4).update([0, 1, 1, 2, 1], [0, 1, 1, 2, 1])
    >>> (a + b).value == acc.value
    True
    """

    __slots__ = ("_labels", "_table", "_weights")

    def __init__(
        self,
        labels: npt.ArrayLike | None = None,
        *,
        min_rating: int | None = None,
        max_rating: int | None = None,
        weights: WeightsLike = "quadratic",
    ) -> None:
        checked = check_weights(weights)
        categories = _labels_from_options(labels, min_rating, max_rating)
        k = len(categories)
        check_table_size(k)
        if isinstance(checked, np.ndarray):
            weight_matrix(checked, k)  # shape check against K
        self._labels: Sequence[Any] = categories
        self._weights: str | np.ndarray = checked
        self._table: np.ndarray = np.zeros((k, k), dtype=np.int64)

    # ------------------------------------------------------------------ read-only views

    @property
    def labels(self) -> Sequence[Any]:
        """The K categories, in order."""
        return self._labels

    @property
    def weights(self) -> str | np.ndarray:
        """The weight name ('quadratic', 'linear', 'unweighted') or the custom matrix."""
        return self._weights

    @property
    def table(self) -> np.ndarray:
        """A copy of the (K, K) table: int64 counts, or float64 weighted counts."""
        copy: np.ndarray = self._table.copy()
        return copy

    @property
    def n(self) -> int | float:
        """Pairs counted so far (total weight once sample weights were used)."""
        if self._table.dtype.kind == "i":
            return exact_total(self._table)
        return float(self._table.sum())

    @property
    def value(self) -> float:
        """Kappa of everything counted so far (nan with a warning while undefined)."""
        return self.kappa()

    def kappa(self, *, zero_division: ZeroDivision = "warn") -> float:
        """Kappa of everything counted so far.

        Parameters
        ----------
        zero_division : {'warn', 'raise'} or float
            What an undefined kappa returns, as in :func:`wkappa.kappa_from_table`.

        Returns
        -------
        float
        """
        return kappa_from_table(self._table, weights=self._weights, zero_division=zero_division)

    def result(self, *, alternative: Alternative = "two-sided", kappa0: float = 0.0) -> KappaResult:
        """Kappa with standard errors, a test and intervals: a :class:`KappaResult`.

        The same as ``wkappa.kappa_test_from_table(acc.table, weights=acc.weights,
        labels=acc.labels, alternative=alternative, kappa0=kappa0)``: the table's counts
        are frequencies, so after ``update`` with sample weights its cells must be whole
        numbers (a :class:`~wkappa.exceptions.WkappaError` otherwise; :attr:`value` accepts
        any non-negative weights).
        """
        from .inference import kappa_test_from_table

        check_frequencies(self._table, ACCUMULATOR_COUNTS)
        return kappa_test_from_table(
            self._table,
            weights=self._weights,
            labels=list(self._labels),
            alternative=alternative,
            kappa0=kappa0,
        )

    # ------------------------------------------------------------------ counting

    def update(
        self,
        y_true: npt.ArrayLike,
        y_pred: npt.ArrayLike,
        sample_weight: npt.ArrayLike | None = None,
        *,
        nan_policy: NanPolicy = "raise",
    ) -> KappaAccumulator:
        """Count one batch of pairs into the table.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n,)
            The batch's ratings, as accepted by :func:`wkappa.weighted_kappa`. Every rating
            must be one of the accumulator's categories. An empty batch changes nothing.
        sample_weight : array-like of shape (n,), optional
            Non-negative finite weight of each pair; the table becomes float64. Any such
            weights serve :attr:`value`; :meth:`result` reads them as frequency weights and
            needs whole-number cells.
        nan_policy : {'raise', 'omit'}, default 'raise'
            A missing rating raises, or its pair is skipped.

        Returns
        -------
        KappaAccumulator
            ``self``, so calls chain.
        """
        policy = check_table_nan_policy(nan_policy, "a running table")
        if is_empty_batch(y_true) and is_empty_batch(y_pred):
            if sample_weight is not None and not is_empty_batch(sample_weight):
                raise WkappaError("`sample_weight` has entries but the batch has no ratings.")
            return self
        bounds: dict[str, Any] = (
            {"min_rating": self._labels.start, "max_rating": self._labels.stop - 1}
            if isinstance(self._labels, range)
            and max(abs(self._labels.start), abs(self._labels.stop)) < 2**62
            else {"labels": list(self._labels)}  # (a range beyond 2**62 is matched as labels)
        )
        request = Request(sample_weight=sample_weight, nan_policy=policy, propagate=False, **bounds)
        batch = count_pairs(y_true, y_pred, request).table
        assert batch is not None and len(batch) == len(self._labels)
        self._table = _add_tables(self._table, batch)
        return self

    def update_table(self, table: npt.ArrayLike) -> KappaAccumulator:
        """Add a (K, K) table of (weighted) counts, rows ``y_true``, columns ``y_pred``.

        Returns
        -------
        KappaAccumulator
            ``self``.
        """
        checked = check_table(table)
        k = len(self._labels)
        if checked.shape != (k, k):
            raise WkappaError(
                f"`table` has shape {checked.shape} but the accumulator has K = {k} "
                f"categories; it must have shape ({k}, {k})."
            )
        self._table = _add_tables(self._table, checked)
        return self

    def reset(self) -> KappaAccumulator:
        """Forget every count (the categories and weights stay); returns ``self``."""
        k = len(self._labels)
        self._table = np.zeros((k, k), dtype=np.int64)
        return self

    # ------------------------------------------------------------------ merging

    def _check_compatible(self, other: Any) -> KappaAccumulator:
        checked = self._of_my_kind(other)
        if tuple(self._labels) != tuple(checked._labels):
            raise WkappaError(
                "Cannot merge accumulators with different categories: "
                f"{format_value(list(self._labels))} vs {format_value(list(checked._labels))}."
            )
        if not _same_weights(self._weights, checked._weights):
            raise WkappaError(
                "Cannot merge accumulators with different weights: "
                f"{weights_name(self._weights)!r} vs {weights_name(checked._weights)!r}."
            )
        return checked

    def merge(self, other: KappaAccumulator) -> KappaAccumulator:
        """A new accumulator holding the counts of both (neither input changes).

        Raises
        ------
        WkappaError
            If the categories or the weights differ.
        """
        checked = self._check_compatible(other)
        merged = self._empty_like()
        merged._table = _add_tables(self._table, checked._table)
        return merged

    def _empty_like(self) -> KappaAccumulator:
        empty = object.__new__(KappaAccumulator)
        empty._labels = self._labels
        empty._weights = self._weights
        k = len(self._labels)
        empty._table = np.zeros((k, k), dtype=np.int64)
        return empty

    # ------------------------------------------------------------------ comparison, repr

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KappaAccumulator):
            return NotImplemented
        return (
            tuple(self._labels) == tuple(other._labels)
            and _same_weights(self._weights, other._weights)
            and self._table.dtype == other._table.dtype
            and bool(np.array_equal(self._table, other._table))
        )

    def __repr__(self) -> str:
        labels = self._labels if isinstance(self._labels, range) else list(self._labels)
        return (
            f"KappaAccumulator(labels={format_value(labels)}, "
            f"weights={weights_name(self._weights)!r}, n={self.n!r})"
        )

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of the state; :meth:`from_dict` restores it exactly.

        Returns
        -------
        dict
            ``{"format", "version", "labels" | "min_rating"/"max_rating", "weights",
            "dtype", "table"}``: labels as a list (str / int / float), weights as a name or
            a nested list, the table as nested lists of ints (int64) or floats (float64).
        """
        state: dict[str, Any] = {"format": _FORMAT, "version": _VERSION}
        if isinstance(self._labels, range) and (
            max(abs(self._labels.start), abs(self._labels.stop)) < 2**62
        ):  # bounds; a range beyond 2**62 is stored as its labels
            state["min_rating"] = self._labels.start
            state["max_rating"] = self._labels.stop - 1
        else:
            state["labels"] = [_json_label(label) for label in self._labels]
        state["weights"] = json_value(self._weights)
        state["dtype"] = str(self._table.dtype)
        state["table"] = json_value(self._table)
        return state

    @classmethod
    def from_dict(cls, state: dict[str, Any]) -> KappaAccumulator:
        """Rebuild an accumulator from :meth:`to_dict` output (for example after JSON)."""
        check_state_header(state, "KappaAccumulator", _FORMAT, _VERSION)
        if "labels" in state:
            acc = cls(state["labels"], weights=state["weights"])
        else:
            acc = cls(
                min_rating=state.get("min_rating"),
                max_rating=state.get("max_rating"),
                weights=state["weights"],
            )
        dtype = state.get("dtype")
        if dtype not in ("int64", "float64"):
            raise WkappaError(f"`state['dtype']` must be 'int64' or 'float64'; got {dtype!r}.")
        try:
            table = np.array(state["table"])
        except (TypeError, ValueError):
            raise WkappaError("`state['table']` could not be read as a (K, K) array.") from None
        if dtype == "int64":
            kind = table.dtype.kind
            if kind == "f" and (not np.all(np.isfinite(table)) or np.any(table != np.floor(table))):
                raise WkappaError(
                    "`state['table']` has non-integer counts but its dtype is 'int64'. "
                    "Hint: dtype 'float64' holds weighted counts."
                )
            if (
                kind == "O"
                or (kind == "u" and table.size and table.max() > _INT64_MAX)
                or (kind == "f" and table.size and float(np.abs(table).max()) >= 2.0**63)
            ):
                raise WkappaError(
                    "`state['table']` has counts too large for its dtype 'int64' (>= 2**63)."
                )
            if kind == "f":
                table = table.astype(np.int64)
        elif table.dtype.kind == "O":
            table = table.astype(np.float64)
        acc.update_table(table)
        acc._table = acc._table.astype(np.dtype(dtype), copy=False)
        return acc

    def __getstate__(self) -> tuple[Sequence[Any], str | np.ndarray, np.ndarray]:
        return (self._labels, self._weights, self._table)

    def __setstate__(self, state: tuple[Sequence[Any], str | np.ndarray, np.ndarray]) -> None:
        self._labels, self._weights, self._table = state


def is_empty_batch(obj: Any) -> bool:
    """Whether ``obj`` is a batch of no rows (``len(obj) == 0``): an accumulator's
    ``update`` leaves its state as it is. Text is no batch (``''`` is refused as ``'ab'``
    is, by the reader)."""
    if isinstance(obj, (str, bytes)):
        return False
    try:
        return len(obj) == 0
    except TypeError:
        return False


def _same_weights(a: str | np.ndarray, b: str | np.ndarray) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _add_tables(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a + b, exact for integer tables (overflow is an error), float64 if either is float."""
    if a.dtype.kind == "i" and b.dtype.kind in "iu":
        if exact_total(a) + exact_total(b) > _INT64_MAX:
            raise WkappaError(
                "The running table would exceed 2**63 - 1 counts and overflow int64. "
                "Hint: divide the counts, or add them as float64 weighted counts."
            )
        return a + b.astype(np.int64, copy=False)
    return a.astype(np.float64) + b.astype(np.float64)


def _json_label(label: Any) -> Any:
    if isinstance(label, (bool, str)):
        return label
    if isinstance(label, numbers.Integral):
        return int(label)
    if isinstance(label, numbers.Real) and math.isfinite(float(label)):
        return float(label)
    raise WkappaError(
        f"Label {format_value(label)} cannot be stored as JSON; to_dict supports str, int "
        "and float labels."
    )
