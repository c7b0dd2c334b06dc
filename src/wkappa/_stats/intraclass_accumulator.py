"""A streaming, mergeable accumulator of the intraclass correlations' ANOVA sums.

Batches of complete targets x raters rows are reduced to a small state: the number of
targets, a shift ``s`` (the first rating the state has seen), each rater's mean of the
ratings minus ``s`` and sum of squared deviations, and the mean (minus ``s``) and sum of
squared deviations of the targets' row means. Two states merge exactly by Chan, Golub &
LeVeque's (1979) pairwise update, so any split of the targets merged gives the whole data's
sums (to rounding), and the ICCs follow from them as in :func:`wkappa.icc`:
``SS_targets = k M2(row means)``, ``SS_raters = n sum_j (m_j - m)²``,
``SS_total = sum_j (M2_j + n (m_j - m)²)`` and ``SS_error`` the rest.

The shift keeps the digits of ratings far from zero relative to their spread (1e14 + a
standard normal: in rating units a mean is rounded to 1/64). A batch is reduced relative to
its own first rating ``t``: ``x - t`` is exact wherever ``x`` lies within a factor of 2 of
``t`` (Sterbenz's lemma), the case of ratings far from zero; elsewhere ``|x - t|`` is at
least half of ``|x|`` and of ``|t|``, so the batch spans that much and the difference's one
rounding is relative to its range. Integer arrays with a value beyond 2**53 are reduced
relative to their smallest value in integer arithmetic
(:func:`wkappa._core.centred_integers`), the shift an exact Python int. A state with shift
``b`` merges into one with shift ``s`` by adding ``b - s`` (the exact difference, rounded
once) to its means: exact whenever that difference is a float (shifts within a factor of 2
of each other, integers below 2**53), else rounded relative to the distance between two of
the ratings. Every rounding is so relative to the range of the ratings seen, as in
:func:`wkappa.icc` (which shifts by one rating), however far apart the merged states' shifts
are; only the scale stays the ratings' own. (``SS_error`` is the rest of ``SS_total``: where
targets differ far more than raters, the ICCs are right to rounding but the error mean
square only to rounding of ``SS_total``.)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._core import (
    Alternative,
    centred_integers,
    check_alternative,
    check_count,
    read_numeric_ratings,
    sums_from_moments,
    trusted_sums,
    unit_for,
)
from ..exceptions import WkappaError
from .accumulator import check_state_header, starts_a_sum
from .intraclass import (
    ICCResult,
    MeanSquares,
    build_result,
    check_form,
    check_icc0,
    warn_if_undefined,
)
from .json_values import json_value

__all__ = ["ICCAccumulator", "icc_from_moments"]

_FORMAT = "wkappa.ICCAccumulator"
_VERSION = 2  # 1 (an unreleased 0.1.0 development state) had no shift


class ICCAccumulator:
    """Streaming ICCs: ``update`` with batches of complete rows, ``merge`` partial states.

    Parameters
    ----------
    n_raters : int, optional
        The number of rater columns; taken from the first batch when None.

    Examples
    --------
    >>> import wkappa as wk
    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...            [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> first = wk.ICCAccumulator().update(ratings[:4])
    >>> second = wk.ICCAccumulator().update(ratings[4:])
    >>> round((first + second).result(form="ICC2").statistic, 4)
    0.2898

    The state is a small JSON-ready dict (send it between workers, store it, merge later):

    >>> import json
    >>> state = json.loads(json.dumps(first.to_dict()))
    >>> back = wk.ICCAccumulator.from_dict(state)
    >>> round((back + second).result(form="ICC2").statistic, 4)
    0.2898
    """

    def __init__(self, n_raters: int | None = None) -> None:
        if n_raters is not None:
            n_raters = check_count(n_raters, "n_raters", 2)
        self._k = n_raters
        self._n = 0
        self._shift: int | float = 0.0  # the means are those of the ratings minus this
        self._col_mean: np.ndarray | None = None
        self._col_m2: np.ndarray | None = None
        self._row_mean = 0.0
        self._row_m2 = 0.0

    @property
    def n(self) -> int:
        """Targets seen so far."""
        return self._n

    def _check_k(self, k: int) -> None:
        if self._k is None:
            self._k = k
        elif k != self._k:
            raise WkappaError(f"`ratings` has {k} rater columns but the accumulator has {self._k}.")

    def update(self, ratings: Any) -> ICCAccumulator:
        """Add a batch of complete rows (items x raters); returns self."""
        exact = centred_integers(ratings)
        read = read_numeric_ratings(
            ratings if exact is None else exact[0][0],
            nan_policy="raise",
            allow_features=False,
            min_targets=1,
            omit=None,
            function=None,
        )
        x = read.values
        self._check_k(x.shape[1])
        batch = ICCAccumulator(x.shape[1])
        batch._n = x.shape[0]
        # The batch's own shift: its first rating (its smallest, for integers beyond 2**53,
        # already subtracted). x - shift is exact within a factor of 2 of it (Sterbenz).
        batch._shift = float(x[0, 0]) if exact is None else exact[1]
        with np.errstate(over="ignore", invalid="ignore"):
            if exact is None:
                x = x - x[0, 0]
            rows = x.mean(axis=1)
            batch._col_mean = x.mean(axis=0)
            batch._col_m2 = ((x - batch._col_mean) ** 2).sum(axis=0)
            batch._row_mean = float(rows.mean())
            batch._row_m2 = float(((rows - batch._row_mean) ** 2).sum())
        _check_in_range(batch._col_m2, batch._row_m2)
        self._absorb(batch)
        return self

    def _absorb(self, other: ICCAccumulator) -> None:
        if other._n == 0:
            return
        if other._k is not None:
            self._check_k(other._k)
        if self._n == 0:
            self._n, self._shift = other._n, other._shift
            self._col_mean = None if other._col_mean is None else other._col_mean.copy()
            self._col_m2 = None if other._col_m2 is None else other._col_m2.copy()
            self._row_mean, self._row_m2 = other._row_mean, other._row_m2
            return
        assert self._col_mean is not None and self._col_m2 is not None
        assert other._col_mean is not None and other._col_m2 is not None
        n_a, n_b = self._n, other._n
        total = n_a + n_b
        rebase = _difference(other._shift, self._shift)  # other's means onto this shift
        with np.errstate(over="ignore", invalid="ignore"):
            delta = (other._col_mean - self._col_mean) + rebase
            col_m2 = self._col_m2 + other._col_m2 + delta**2 * n_a * n_b / total
            col_mean = self._col_mean + delta * n_b / total
            row_delta = (np.float64(other._row_mean) - self._row_mean) + rebase
            row_m2 = self._row_m2 + other._row_m2 + row_delta**2 * n_a * n_b / total
            row_mean = self._row_mean + row_delta * n_b / total
        _check_in_range(col_m2, row_m2)
        self._col_m2, self._col_mean = col_m2, col_mean
        self._row_m2, self._row_mean = float(row_m2), float(row_mean)
        self._n = total

    def merge(self, other: ICCAccumulator) -> ICCAccumulator:
        """A new accumulator holding both states (neither is changed)."""
        if not isinstance(other, ICCAccumulator):
            raise WkappaError(f"Only an ICCAccumulator can be merged; got {type(other).__name__}.")
        merged = ICCAccumulator(self._k)
        merged._absorb(self)
        merged._absorb(other)
        return merged

    def __add__(self, other: ICCAccumulator) -> ICCAccumulator:
        return self.merge(other)

    def __radd__(self, other: Any) -> ICCAccumulator:
        if starts_a_sum(other):
            return self.merge(ICCAccumulator(self._k))
        return NotImplemented

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of the state; :meth:`from_dict` restores it exactly.

        Returns
        -------
        dict
            ``{"format", "version", "n_raters", "n", "shift", "column_means",
            "column_m2", "row_mean", "row_m2"}``: the number of rater columns (None before
            the first batch), of items, the shift ``s`` (the first rating seen, 0.0 while
            empty; an int when the ratings were integers beyond 2**53), each rater's mean of
            the ratings minus ``s`` and sum of squared deviations (lists of floats, None
            while empty) and those of the items' row means. Python floats and ints survive
            JSON exactly, so a restored accumulator gives the same ICCs and merges as the
            original. A state of version 1 (no shift) is refused: make it again from the
            ratings.
        """
        state = {
            "format": _FORMAT,
            "version": _VERSION,
            "n_raters": self._k,
            "n": self._n,
            "shift": self._shift,
            "column_means": self._col_mean,
            "column_m2": self._col_m2,
            "row_mean": self._row_mean,
            "row_m2": self._row_m2,
        }
        result: dict[str, Any] = json_value(state)
        return result

    @classmethod
    def from_dict(cls, state: dict[str, Any]) -> ICCAccumulator:
        """Rebuild an accumulator from :meth:`to_dict` output (for example after JSON)."""
        check_state_header(state, "ICCAccumulator", _FORMAT, _VERSION)
        acc = cls(state.get("n_raters"))
        n = state.get("n")
        n = check_count(n, "state['n']", 0)
        if n == 0:
            return acc
        if acc._k is None:
            raise WkappaError("`state['n_raters']` is missing but `state['n']` is not 0.")
        columns = []
        for key in ("column_means", "column_m2"):
            try:
                values = np.asarray(state.get(key), dtype=np.float64)
            except (TypeError, ValueError):
                values = np.empty(0)
            if values.shape != (acc._k,) or not np.all(np.isfinite(values)):
                raise WkappaError(
                    f"`state[{key!r}]` must be a list of {acc._k} finite numbers (one per rater)."
                )
            columns.append(values)
        shift = state.get("shift")
        if (
            isinstance(shift, bool)
            or not isinstance(shift, (int, float))
            or not (isinstance(shift, int) or math.isfinite(shift))
        ):
            raise WkappaError(f"`state['shift']` must be a finite number; got {shift!r}.")
        row = []
        for key in ("row_mean", "row_m2"):
            value = state.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise WkappaError(f"`state[{key!r}]` must be a number; got {value!r}.")
            row.append(float(value))
        if np.any(columns[1] < 0) or row[1] < 0 or not np.all(np.isfinite(row)):
            raise WkappaError(
                "`state` has a non-finite value or a negative sum of squared deviations."
            )
        acc._n, acc._shift = n, shift
        acc._col_mean, acc._col_m2 = columns
        acc._row_mean, acc._row_m2 = row
        return acc

    def result(
        self,
        *,
        form: str = "A,1",
        icc0: float = 0.0,
        alternative: Alternative = "two-sided",
    ) -> ICCResult:
        """The ICC of everything seen so far (as :func:`wkappa.icc` on the same rows)."""
        name = check_form(form)
        null = check_icc0(icc0)
        alt = check_alternative(alternative)
        n, k = self._n, self._k
        if n < 2 or k is None or self._col_mean is None or self._col_m2 is None:
            raise WkappaError(f"The ICC needs at least two items; the accumulator has {n}.")
        return icc_from_moments(n, self._col_mean, self._col_m2, self._row_m2, (name,), null, alt)[
            name
        ]


# A nonzero sum of squared deviations below this (1e-289) has terms that lose digits to
# subnormal rounding.
_SMALLEST_M2 = 2.0**-960


def _difference(a: int | float, b: int | float) -> float:
    """``a - b`` rounded once (the shifts: floats, or ints beyond 2**53); inf beyond the
    float range (the sums of squared deviations are then refused)."""
    try:
        return float(Fraction(a) - Fraction(b))
    except OverflowError:
        return math.inf


def _check_in_range(col_m2: np.ndarray, row_m2: Any) -> None:
    """Refuse sums of squared deviations beyond the float range or subnormal-prone: the
    streaming state keeps the ratings' own scale (wkappa.icc scales them instead)."""
    m2 = np.append(col_m2, row_m2)
    large = not np.all(np.isfinite(m2))
    if large or np.any((m2 > 0) & (m2 < _SMALLEST_M2)):
        size, fix = ("large", "divide") if large else ("small", "multiply")
        raise WkappaError(
            f"`ratings` are too {size} for the accumulator's sums of squared deviations "
            f"(which must lie within 1e-289 and 1e308). Hint: {fix} every rating by one "
            "constant (the ICC does not change), or use wkappa.icc, which scales the "
            "ratings itself."
        )


def icc_from_moments(
    n: int,
    column_means: np.ndarray,
    column_m2: np.ndarray,
    row_m2: float,
    forms: tuple[str, ...],
    icc0: float,
    alternative: Alternative,
    unit: float = 1.0,
) -> dict[str, ICCResult]:
    """The ICC ``forms`` of n complete targets from the raters' means and sums of squared
    deviations and the sum of squared deviations of the targets' row means (checked options;
    the state of :class:`ICCAccumulator`, or one aggregation of a data frame engine), the
    moments of ratings divided by ``unit`` (:func:`wkappa._core.scaled_ratings`)."""
    sums = sums_from_moments(n, column_means, column_m2, row_m2, unit)
    total = float(sums.ss_targets[0] + sums.ss_raters[0] + sums.ss_error[0])
    if not trusted_sums(sums)[0] and 0.0 < total < math.inf:
        # Sums of squares near the ends of the float range (the F tests square the mean
        # squares): the moments in a power of two of the spread (exact).
        step = unit_for(math.sqrt(total / n))
        column_means, column_m2, row_m2 = (
            column_means / step,
            column_m2 / step / step,
            row_m2 / step / step,
        )
        sums = sums_from_moments(n, column_means, column_m2, row_m2, unit * step)
    ss = (sums.ss_targets[0], sums.ss_raters[0], sums.ss_error[0])
    ms = MeanSquares.from_sums(n, len(column_means), *ss, sums.unit[0])
    warn_if_undefined(ms, batched=False)
    return {form: build_result(form, ms, icc0, alternative, batched=False) for form in forms}
