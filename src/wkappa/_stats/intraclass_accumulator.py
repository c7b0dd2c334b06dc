"""A streaming, mergeable accumulator of the intraclass correlations' ANOVA sums.

Batches of complete targets x raters rows are reduced to a small state: the number of
targets ``n``, a shift ``s`` (the first rating the state has seen), the mean ``m`` of the
ratings minus ``s``, each rater's effect ``e_j`` (the rater's mean minus ``m``, which is
also the mean of the rater's deviations from the targets' row means), the sum of squared
deviations of the targets' row means ``M2(rows)`` and the residual sum of squares
``SS_error`` (of those deviations, each rater's around ``e_j``). The ICCs follow as in
:func:`wkappa.icc`: ``SS_targets = k M2(rows)``, ``SS_raters = n sum_j e_j²`` and
``SS_error``. Two states merge exactly by Chan, Golub & LeVeque's (1979) pairwise update
(``w = n_a n_b / (n_a + n_b)``): ``M2(rows)`` gains ``w (m_b - m_a)²`` and ``SS_error``
gains ``w sum_j (e_bj - e_aj)²``, so any split of the targets merged gives the whole data's
sums (to rounding). Only the means need the shift. The effects, and so ``SS_raters`` and
``SS_error``, see the targets' spread only through the rounding of each row mean, common
to the row's deviations (which the residuals, summing to 0 in every row, cancel to first
order); ``SS_error`` is never the small rest of a large ``SS_total``, where targets differ
far more than raters.

The shift keeps the digits of ratings far from zero relative to their spread (1e14 + a
standard normal: in rating units a mean is rounded to 1/64). A batch is reduced relative to
its own first rating ``t``: ``x - t`` is exact wherever ``x`` lies within a factor of 2 of
``t`` (Sterbenz's lemma), the case of ratings far from zero; elsewhere ``|x - t|`` is at
least half of ``|x|`` and of ``|t|``, so the batch spans that much and the difference's one
rounding is relative to its range. Integer arrays with a value beyond 2**53 are reduced
relative to their smallest value in integer arithmetic
(:func:`wkappa._core.centred_integers`), the shift an exact Python int. A state with shift
``b`` merges into one with shift ``s`` by adding ``b - s`` (the exact difference, rounded
once) to its mean: exact whenever that difference is a float (shifts within a factor of 2
of each other, integers below 2**53), else rounded relative to the distance between two of
the ratings. Every rounding is so relative to the range of the ratings seen, as in
:func:`wkappa.icc` (which shifts by one rating), however far apart the merged states' shifts
are.

The scale is taken out as :func:`wkappa.icc` takes it out (:func:`wkappa._core.scaled_ratings`):
a batch's ratings are divided by a power of two ``u``, the unit of their largest magnitude,
so they lie within [-4, 4] and their squares neither overflow nor underflow (ratings of
1e-320 or 1e300 keep their sums). The mean and the effects are kept in units of ``u``, the
sums of squared deviations in ``u²``; two states merge in the larger unit, the other's
moments multiplied by a power of two (exact, unless a moment is below 2**-1022 of that unit,
where it does not count against the other's).
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from .._core import (
    Alternative,
    centred_integers,
    check_alternative,
    check_count,
    format_value,
    read_numeric_ratings,
    scaled_ratings,
    sums_from_means,
    trusted_sums,
    unit_for,
)
from ..exceptions import WkappaError
from .accumulator import Mergeable, check_state_header, is_empty_batch
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
# Unreleased 0.1.0 development states: 1 had no shift, 2 each rater's sum of squared
# deviations instead of SS_error, 3 no unit (the moments in rating units).
_VERSION = 4


class ICCAccumulator(Mergeable):
    """Streaming ICCs: ``update`` with batches of complete rows, ``merge`` partial states.

    The API of :class:`~wkappa.KappaAccumulator`: ``update``, ``result``, ``merge`` (and
    ``+``, ``sum``), ``reset``, ``to_dict`` / ``from_dict``, pickling and ``==``.

    Parameters
    ----------
    n_raters : int, optional
        The number of rater columns; taken from the first batch when None.

    Notes
    -----
    One ICC: a batch is a 2-D array (items x raters). :func:`wkappa.icc` also takes a third
    axis of features, one ICC per feature; here that is one accumulator per feature
    (``ratings[:, :, j]``), since a state keeps the sums of squares of one ICC.

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

    _k: int | None
    _n: int
    _shift: int | float
    _unit: float  # a power of two: the moments below are of the ratings divided by it
    _mean: float  # of every rating, minus the shift
    _effects: np.ndarray | None  # each rater's mean minus _mean
    _row_m2: float  # SS_targets / k
    _error_m2: float  # SS_error

    def __init__(self, n_raters: int | None = None) -> None:
        if n_raters is not None:
            n_raters = check_count(n_raters, "n_raters", 2)
        self._k = n_raters
        self.reset()

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
        """Add a batch of complete rows (items x raters); returns self.

        A batch of no rows (the last batch of a filtered loader) changes nothing, as in
        :meth:`KappaAccumulator.update <wkappa.KappaAccumulator.update>`; if it has a
        shape, its number of rater columns must still be the accumulator's.
        """
        if is_empty_batch(ratings):
            shape = getattr(ratings, "shape", None)
            if shape is not None and len(shape) == 2 and self._k is not None:
                self._check_k(int(shape[1]))
            return self
        exact = centred_integers(ratings)
        read = read_numeric_ratings(
            ratings if exact is None else exact.arrays[0],
            nan_policy="raise",
            allow_features=True,  # (refused below, with the reason)
            min_targets=1,
            omit=None,
            function=None,
            column_names=None if exact is None else exact.names[0],
        )
        x = read.values
        if x.ndim == 3:
            raise WkappaError(
                f"`ratings` of shape {x.shape} has a third axis of features (as wkappa.icc "
                "takes), but an ICCAccumulator keeps the sums of squares of one ICC. Hint: "
                "one accumulator per feature, updated with ratings[:, :, j]."
            )
        self._check_k(x.shape[1])
        batch = ICCAccumulator(x.shape[1])
        batch._n = x.shape[0]
        # The batch's own shift: its first rating (plus its smallest, for integers beyond
        # 2**53, already subtracted). x - shift is exact within a factor of 2 of it
        # (Sterbenz), and so is its quotient by the power of two `unit`.
        scaled = scaled_ratings(x)
        first = float(scaled.shift[0])
        batch._shift = first if exact is None else exact.low + int(first)
        batch._unit = float(scaled.unit[0])
        x = scaled.values
        with np.errstate(over="ignore", invalid="ignore"):
            rows = x.mean(axis=1)
            batch._mean = float(rows.mean())
            batch._row_m2 = float(((rows - batch._mean) ** 2).sum())
            within = x - rows[:, None]  # the ratings' deviations from their target's mean
            batch._effects = within.mean(axis=0)
            batch._error_m2 = float(((within - batch._effects) ** 2).sum())
        _check_in_range(batch._n, batch._effects, batch._row_m2, batch._error_m2)
        self._absorb(batch)
        return self

    def _absorb(self, other: ICCAccumulator) -> None:
        if other._n == 0:
            return
        if other._k is not None:
            self._check_k(other._k)
        if self._n == 0:
            self._n, self._shift, self._unit = other._n, other._shift, other._unit
            self._mean = other._mean
            self._effects = None if other._effects is None else other._effects.copy()
            self._row_m2, self._error_m2 = other._row_m2, other._error_m2
            return
        assert self._effects is not None and other._effects is not None
        unit = max(self._unit, other._unit)
        mine, theirs = _in_unit(self, unit), _in_unit(other, unit)
        n_a, n_b = self._n, other._n
        total = n_a + n_b
        weight = n_a * n_b / total
        # Chan, Golub & LeVeque: the targets' means differ by the states' mean difference
        # (other's re-based onto this shift), the residuals' columns by the rater effects'
        # difference (which needs no shift).
        gap = (theirs[0] - mine[0]) + _difference(other._shift, self._shift, unit)
        step = theirs[1] - mine[1]
        with np.errstate(over="ignore", invalid="ignore"):
            effects = mine[1] + step * n_b / total
            row_m2 = mine[2] + theirs[2] + gap * gap * weight
            error_m2 = mine[3] + theirs[3] + float((step**2).sum()) * weight
        _check_in_range(total, effects, row_m2, error_m2)
        self._n, self._unit, self._mean = total, unit, mine[0] + gap * n_b / total
        self._effects, self._row_m2, self._error_m2 = effects, row_m2, error_m2

    def reset(self) -> ICCAccumulator:
        """Forget every rating (the number of raters, once known, stays); returns ``self``."""
        self._n = 0
        self._shift = 0.0
        self._unit = 1.0
        self._mean = 0.0
        self._effects = None
        self._row_m2 = 0.0
        self._error_m2 = 0.0
        return self

    def merge(self, other: ICCAccumulator) -> ICCAccumulator:
        """A new accumulator holding both states (neither is changed).

        Raises
        ------
        WkappaError
            If the numbers of raters differ.
        """
        other = self._of_my_kind(other)
        if self._k is not None and other._k is not None and self._k != other._k:
            raise WkappaError(
                "Cannot merge ICC accumulators with different numbers of raters: "
                f"n_raters {self._k} vs {other._k}."
            )
        merged = ICCAccumulator(self._k if self._k is not None else other._k)
        merged._absorb(self)
        merged._absorb(other)
        return merged

    def _empty_like(self) -> ICCAccumulator:
        return ICCAccumulator(self._k)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ICCAccumulator):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"ICCAccumulator(n_raters={self._k}, n={self._n})"

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of the state; :meth:`from_dict` restores it exactly.

        Returns
        -------
        dict
            ``{"format", "version", "n_raters", "n", "shift", "unit", "mean",
            "rater_effects", "row_m2", "error_m2"}``: the number of rater columns (None
            before the first batch), of items, the shift ``s`` (the first rating seen, 0.0
            while empty; an int when the ratings were integers beyond 2**53), the unit ``u``
            (a power of two, 1.0 while empty), the mean of the ratings minus ``s``, each
            rater's mean minus that mean (a list of floats, None while empty), the sum of
            squared deviations of the items' row means (``SS_targets / k``) and the residual
            sum of squares (``SS_error``), the means in units of ``u`` and the sums of
            squares in units of ``u²`` (so that they stay within the float range whatever
            the ratings' scale). Python floats and ints survive JSON
            exactly, so a restored accumulator gives the same ICCs and merges as the
            original. States of earlier versions are refused: make them again from the
            ratings.
        """
        state = {
            "format": _FORMAT,
            "version": _VERSION,
            "n_raters": self._k,
            "n": self._n,
            "shift": self._shift,
            "unit": self._unit,
            "mean": self._mean,
            "rater_effects": self._effects,
            "row_m2": self._row_m2,
            "error_m2": self._error_m2,
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
        try:
            effects = np.asarray(state.get("rater_effects"), dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            effects = np.empty(0)
        if effects.shape != (acc._k,) or not np.all(np.isfinite(effects)):
            raise WkappaError(
                f"`state['rater_effects']` must be a list of {acc._k} finite numbers (one "
                "per rater)."
            )
        shift = _finite_number(state, "shift")  # an int (beyond 2**53) stays exact
        unit = state.get("unit")
        if not (isinstance(unit, float) and 0.0 < unit < math.inf and math.frexp(unit)[0] == 0.5):
            raise WkappaError(
                f"`state['unit']` must be a power of two (a float); got {format_value(unit)}."
            )
        mean, row_m2, error_m2 = (
            float(_finite_number(state, key)) for key in ("mean", "row_m2", "error_m2")
        )
        if row_m2 < 0 or error_m2 < 0:
            raise WkappaError("`state` has a negative sum of squared deviations.")
        acc._n, acc._shift, acc._unit, acc._mean = n, shift, unit, mean
        acc._effects, acc._row_m2, acc._error_m2 = effects, row_m2, error_m2
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
        if n < 2 or k is None or self._effects is None:
            raise WkappaError(
                f"The ICC needs at least two items; the accumulator has {n}. Hint: "
                "update() it with rows of ratings (items x raters) before result()."
            )
        sums = (self._row_m2, self._error_m2)
        return icc_from_moments(n, self._effects, *sums, (name,), null, alt, unit=self._unit)[name]


def _in_unit(state: ICCAccumulator, unit: float) -> tuple[float, np.ndarray, float, float]:
    """The mean, effects and sums of squared deviations of ``state`` in units of ``unit``
    (a power of two at least the state's own): multiplied by a power of two, exact unless
    a moment falls below 2**-1022 of ``unit``."""
    assert state._effects is not None
    power = math.frexp(state._unit)[1] - math.frexp(unit)[1]  # <= 0
    return (
        math.ldexp(state._mean, power),
        np.ldexp(state._effects, power),
        math.ldexp(state._row_m2, 2 * power),
        math.ldexp(state._error_m2, 2 * power),
    )


def _check_in_range(n: int, effects: np.ndarray, row_m2: float, error_m2: float) -> None:
    """Refuse sums of squares beyond the float range. States made by ``update`` keep their
    moments near the ratings' range in their unit, so only states read by ``from_dict``
    with sums near 1e308 get there."""
    with np.errstate(over="ignore", invalid="ignore"):
        ss_raters = n * float((effects**2).sum())
    if not (math.isfinite(row_m2) and math.isfinite(error_m2) and math.isfinite(ss_raters)):
        raise WkappaError(
            "The accumulator's sums of squared deviations are beyond the float range. "
            "Hint: check the states given to ICCAccumulator.from_dict (their sums of squares "
            "are in units of state['unit'] squared)."
        )


def _finite_number(state: dict[str, Any], key: str) -> int | float:
    """``state[key]``: a finite float, or an int within the float range (kept exact)."""
    value = state.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _LARGEST:
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise WkappaError(f"`state[{key!r}]` must be a finite number; got {value!r}.")


_LARGEST = sys.float_info.max


def _difference(a: int | float, b: int | float, unit: float) -> float:
    """``(a - b) / unit`` rounded once (the shifts: floats, or ints beyond 2**53); inf
    beyond the float range (the sums of squared deviations are then refused)."""
    from fractions import Fraction  # on first use: ``import wkappa`` stays light

    try:
        return float((Fraction(a) - Fraction(b)) / Fraction(unit))
    except OverflowError:
        return math.inf


def icc_from_moments(
    n: int,
    column_means: np.ndarray,
    row_m2: float,
    error_m2: float,
    forms: tuple[str, ...],
    icc0: float,
    alternative: Alternative,
    unit: float = 1.0,
) -> dict[str, ICCResult]:
    """The ICC ``forms`` of n complete targets from the raters' means (minus any constant),
    the sum of squared deviations of the targets' row means and the residual sum of squares
    (checked options; the state of :class:`ICCAccumulator`, or one aggregation of a data
    frame engine), the moments of ratings divided by ``unit``
    (:func:`wkappa._core.scaled_ratings`)."""
    sums = sums_from_means(n, column_means, row_m2, error_m2, unit)
    total = float(sums.ss_targets[0] + sums.ss_raters[0] + sums.ss_error[0])
    if not trusted_sums(sums)[0] and 0.0 < total < math.inf:
        # Sums of squares near the ends of the float range (the F tests square the mean
        # squares): the moments in a power of two of the spread (exact).
        step = unit_for(math.sqrt(total / n))
        column_means, row_m2, error_m2 = (
            column_means / step,
            row_m2 / step / step,
            error_m2 / step / step,
        )
        sums = sums_from_means(n, column_means, row_m2, error_m2, unit * step)
    ss = (sums.ss_targets[0], sums.ss_raters[0], sums.ss_error[0])
    ms = MeanSquares.from_sums(n, len(column_means), *ss, sums.unit[0])
    results = {form: build_result(form, ms, icc0, alternative, batched=False) for form in forms}
    warn_if_undefined(results)
    return results
