"""The sufficient statistic of the intraclass correlations: two-way ANOVA sums of squares.

Every ICC form (McGraw & Wong 1996) is a function of the between-target, between-rater and
residual sums of squares of the complete targets x raters table, so one pass over the ratings
serves all six, for any number of features at once. Small inputs use numpy; from
:data:`NUMBA_FROM` ratings on, the lazily imported numba kernel
:func:`wkappa._core.kernels.numba_icc.anova_sums` (compiled on first use, cached on disk),
in the same order with the same last step
(:func:`wkappa._core.icc_finish.finish_sums`).

The order keeps the residuals' digits when targets (or raters) differ far more than the
residuals: a first pass takes the targets' and the raters' means; the second subtracts
from each rating the mean of the larger effects first (the target's, where the targets
spread farther) and then the other effect's first estimate, so each rounding is relative to
the smaller effects and the residual, never to the ratings' size. What the first estimates
missed (their own rounding, relative to the ratings' size) is common to a row or a column
of these differences and is taken out again from their row and column means. Subtracting
the raters' means first instead would round ratings 1e9 apart to about 1e-7 each: with
residuals near 1 the MSE would be 4e-7 off, near 1e-3 every digit would be lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import WkappaError
from .columns import to_column
from .dependencies import frame_columns, is_lazy_frame, series_library
from .icc_finish import finish_sums

__all__ = [
    "NUMBA_FROM",
    "AnovaSums",
    "CentredIntegers",
    "ScaledRatings",
    "anova_sums",
    "centred_integers",
    "past_float",
    "plain_anova_sums",
    "scaled_ratings",
    "sums_from_means",
    "trusted_sums",
    "unit_for",
]

# Below this many ratings numpy is as fast as the kernel and needs no compilation.
NUMBA_FROM = 1 << 16
# The sums are trusted when the grand mean is within this factor of the ratings' standard
# deviation: the error of a mean, about eps |mean| per rating summed, then stays near
# 2**10 eps sqrt(n) of the spread. Farther from zero, the ratings are centred first.
_CENTRED_WITHIN = 2.0**10
# Total sums of squares outside [_TINY, _HUGE] are scaled first: the F tests' Satterthwaite
# df squares the mean squares, which must neither underflow nor overflow.
_TINY = 2.0**-400
_HUGE = 2.0**400


@dataclass(frozen=True)
class ScaledRatings:
    """Ratings as ``shift + unit * values`` per feature: ``unit`` a power of two, ``shift``
    one of the ratings, so that ``values`` lie within [-4, 4] and no square overflows or
    underflows. The intraclass and concordance correlations do not change under a common
    shift and scale of the ratings; their sums of squares are ``unit²`` times those of
    ``values``."""

    values: np.ndarray
    shift: np.ndarray  # (features,)
    unit: np.ndarray  # (features,)


def scaled_ratings(x: np.ndarray) -> ScaledRatings:
    """:class:`ScaledRatings` of a float64 array of shape (n, k) or (n, k, features)
    (the last axis the features of a 3-D array); NaN (a missing rating) stays NaN.

    Dividing by a power of two is exact, and the difference of a rating and the shift is
    rounded once, relative to itself: the ratings keep every digit they carry.
    """
    flat = x.reshape(-1, x.shape[2] if x.ndim == 3 else 1)
    # fmax / fmin skip NaN; two passes without a temporary array
    top = np.fmax(np.abs(np.fmax.reduce(flat, axis=0)), np.abs(np.fmin.reduce(flat, axis=0)))
    exponent = _unit_exponent(top)
    first = np.zeros(flat.shape[1], dtype=np.intp)
    if np.isnan(flat[0]).any():  # missing ratings: the first one there is
        first = np.argmax(~np.isnan(flat), axis=0)
    shift = flat[first, np.arange(flat.shape[1])]
    shift = np.where(np.isnan(shift), 0.0, shift)
    # A power of two: multiplying by it is exact. For ratings below 2**-1022 it overflows to
    # inf, which is expected (ldexp scales them instead), so numpy's warning is silenced.
    with np.errstate(over="ignore"):
        factor = np.ldexp(1.0, -exponent)
    by_factor = bool(np.isfinite(factor).all())

    def scaled(array: np.ndarray) -> np.ndarray:  # the last axis is the features' (or 1)
        result: np.ndarray = array * factor if by_factor else np.ldexp(array, -exponent)
        return result

    values = scaled(x)
    values -= scaled(shift)
    return ScaledRatings(values, shift, np.ldexp(1.0, exponent))


@dataclass(frozen=True)
class CentredIntegers:
    """:func:`centred_integers`' answer: ``arrays``, the inputs minus ``low`` as float64
    (NaN where a rating is missing), and ``names``, each input frame's column names (None
    for an array or a column), for messages that name the rater as the input did."""

    arrays: list[np.ndarray]
    low: int
    names: list[tuple[str, ...] | None]


def centred_integers(*arrays: Any) -> CentredIntegers | None:
    """Integer ratings with a value beyond 2**53, which float64 would round: minus their
    smallest value in integer arithmetic (exact, modulo 2**64 in uint64), as float64
    (rounded once, relative to the difference), and that value; None for anything else.

    Each of ``arrays`` is a numpy integer array, or a pandas, polars or pyarrow column or
    in-memory frame whose columns are all integers (a frame becomes an items x columns
    matrix, its missing ratings NaN). The ICC and the CCC do not change under a common
    shift of the ratings.
    """
    read = [_integer_values(a) for a in arrays]
    if not read or any(r is None for r in read):
        return None
    found = [r for r in read if r is not None]
    present = [values[~missing] for values, missing, _ in found]
    if not all(values.size for values in present):
        return None
    low = min(int(values.min()) for values in present)
    high = max(int(values.max()) for values in present)
    if not past_float(low, high):
        return None
    base = np.uint64(low % 2**64)
    centred = []
    for values, missing, _ in found:
        shifted = (values.astype(np.uint64) - base).astype(np.float64)
        shifted[missing] = np.nan
        centred.append(shifted)
    return CentredIntegers(centred, low, [names for _, _, names in found])


def past_float(low: int, high: int) -> bool:
    """Whether integer ratings from ``low`` to ``high`` reach past 2**53, beyond which float64
    rounds integers (2**62 + 1 and 2**62 + 2 become one number): such ratings are taken minus
    their smallest, in integer arithmetic, before they become floats."""
    return max(abs(low), abs(high)) > 2**53


_Integers = tuple[np.ndarray, np.ndarray, tuple[str, ...] | None]


def _integer_values(obj: Any) -> _Integers | None:
    """``obj``'s ratings as a numpy integer array, its mask of missing ones and a frame's
    column names, when it is a numpy integer array or a frame or column of integer dtype;
    None otherwise."""
    if type(obj) is np.ndarray:
        if obj.dtype.kind not in "iu":
            return None
        return obj, np.zeros(obj.shape, dtype=bool), None
    if is_lazy_frame(obj):
        return None
    columns = frame_columns(obj, "ratings", "")
    if columns is not None:
        read = [_integer_column(column) for _, column in columns]
        if not read or any(r is None for r in read):
            return None
        found = [r for r in read if r is not None]
        if len({values.dtype for values, _ in found}) > 1:  # (int64 beside uint64)
            return None
        return (
            np.column_stack([values for values, _ in found]),
            np.column_stack([missing for _, missing in found]),
            tuple(name for name, _ in columns),
        )
    column = _integer_column(obj)
    return None if column is None else (*column, None)


def _integer_column(column: Any) -> tuple[np.ndarray, np.ndarray] | None:
    if series_library(column) is None:
        return None
    try:
        read = to_column(column, "ratings")
    except WkappaError:  # (the reader of the ratings refuses it in its own words)
        return None
    if read.categories is not None or read.values.dtype.kind not in "iu":
        return None
    missing = read.missing if read.missing is not None else np.zeros(read.values.shape, bool)
    return read.values, missing


def _unit_exponent(top: np.ndarray) -> np.ndarray:
    top = np.where(np.isfinite(top), top, 0.0)
    _, exponent = np.frexp(top)  # top < 2**exponent
    below: np.ndarray = np.asarray(exponent, dtype=np.int64) - 1  # 2**below stays finite
    return below


def unit_for(top: float) -> float:
    """The :class:`ScaledRatings` unit of ratings whose largest magnitude is ``top``."""
    return float(np.ldexp(1.0, _unit_exponent(np.array([top]))[0]))


@dataclass(frozen=True)
class AnovaSums:
    """Two-way ANOVA sums of squares of a complete (n, k) table, per feature.

    Attributes
    ----------
    n_targets, n_raters : int
    grand_mean, ss_targets, ss_raters, ss_error : ndarray of shape (features,)
        ``SS_targets = k sum_i (xbar_i. - xbar)²``, ``SS_raters = n sum_j (xbar_.j - xbar)²``,
        ``SS_error = sum_ij (x_ij - xbar_i. - xbar_.j + xbar)²``; the within-target sum of
        squares of the one-way model is ``SS_raters + SS_error``.
    unit : ndarray of shape (features,)
        The sums of squares are in units of ``unit²`` (1 unless the ratings were scaled,
        see :func:`scaled_ratings`; the sums in rating units may lie beyond the float range).
    """

    n_targets: int
    n_raters: int
    grand_mean: np.ndarray
    ss_targets: np.ndarray
    ss_raters: np.ndarray
    ss_error: np.ndarray
    unit: np.ndarray = field(default_factory=lambda: np.ones(1))


@np.errstate(over="ignore", invalid="ignore")  # a sum beyond the float range: see _trusted
def _numpy_sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n, k = x.shape[:2]
    column = x.mean(axis=0)  # (k, F)
    row = x.mean(axis=1)  # (n, F)
    grand = column.mean(axis=0)
    raters, targets = column - grand, row - grand  # the effects' first estimates
    by_rows = _rows_first(targets, raters)
    if by_rows.all():
        q = (x - row[:, None, :]) - raters[None, :, :]
    elif not by_rows.any():
        q = (x - column[None, :, :]) - targets[:, None, :]
    else:
        q = np.where(
            by_rows, (x - row[:, None, :]) - raters[None, :, :],
            (x - column[None, :, :]) - targets[:, None, :],
        )  # fmt: skip
    row_q = q.sum(axis=1)  # (n, F)
    m = row_q / k  # what the targets' first estimates missed
    squares = np.einsum("ijf,ijf->f", q, q) - np.einsum("if,if->f", row_q, m)
    targets += m
    moments = (q.sum(axis=0), m.sum(axis=0), squares, targets.sum(axis=0))
    return grand, *finish_sums(n, k, raters, *moments, np.einsum("if,if->f", targets, targets))


def _rows_first(targets: np.ndarray, raters: np.ndarray) -> np.ndarray:
    """Per feature: the targets' effects (n, F) spread at least as far as the raters' (k, F),
    so each rating is centred on its target's mean first (else on its rater's)."""
    spread_targets: np.ndarray = np.einsum("if,if->f", targets, targets) / len(targets)
    return np.asarray(spread_targets >= np.einsum("jf,jf->f", raters, raters) / len(raters))


def anova_sums(values: np.ndarray) -> AnovaSums:
    """The ANOVA sums of a complete float64 array of shape (n, k) or (n, k, features).

    One pass as the ratings are; where its sums cannot be trusted (a sum beyond the float
    range, ratings far from zero relative to their spread, or so close together that their
    squares underflow) the sums of the :func:`scaled_ratings` instead, in ``unit²``.
    """
    return _finished(values, _plain_sums(values))


def _finished(values: np.ndarray, sums: AnovaSums) -> AnovaSums:
    """``sums`` (the plain pass over ``values``) where they can be trusted, the scaled
    ratings' sums where not."""
    trusted = trusted_sums(sums)
    if trusted.all():
        return sums
    if values.ndim == 3 and trusted.any():  # rescale the features that need it only
        redo = np.flatnonzero(~trusted)
        again = _scaled_sums(np.ascontiguousarray(values[:, :, redo]))
        parts = {}
        for name in ("grand_mean", "ss_targets", "ss_raters", "ss_error", "unit"):
            column = np.array(np.broadcast_to(getattr(sums, name), trusted.shape))
            column[redo] = getattr(again, name)
            parts[name] = column
        return AnovaSums(sums.n_targets, sums.n_raters, **parts)
    return _scaled_sums(values)


def trusted_sums(sums: AnovaSums) -> np.ndarray:
    """Per feature: sums of the ratings as they are are good to rounding. (A total of 0,
    every rating equal or squares underflowed, is not: scaled ratings tell the two apart.)"""
    total = sums.ss_targets + sums.ss_raters + sums.ss_error
    count = sums.n_targets * sums.n_raters
    with np.errstate(invalid="ignore", over="ignore"):
        spread = np.sqrt(total / count)
        return np.asarray(
            np.isfinite(total)
            & (np.abs(sums.grand_mean) <= _CENTRED_WITHIN * spread)
            & (total >= _TINY)
            & (total <= _HUGE)
        )


def _scaled_sums(values: np.ndarray) -> AnovaSums:
    scaled = scaled_ratings(values)
    sums = _plain_sums(scaled.values)
    with np.errstate(over="ignore"):
        grand = scaled.shift + sums.grand_mean * scaled.unit
    return AnovaSums(
        sums.n_targets,
        sums.n_raters,
        grand,
        sums.ss_targets,
        sums.ss_raters,
        sums.ss_error,
        np.asarray(scaled.unit, dtype=np.float64).reshape(-1),
    )


def sums_from_means(
    n: int, column_means: np.ndarray, row_m2: float, error_m2: float, unit: float = 1.0
) -> AnovaSums:
    """The sums of n complete targets from the raters' means, the sum of squared deviations
    of the targets' row means and the residual sum of squares ``SS_error`` (the state of
    :class:`wkappa.ICCAccumulator`), in units of ``unit²``."""
    k = len(column_means)
    grand = float(column_means.mean())
    with np.errstate(over="ignore", invalid="ignore"):  # beyond the float range: untrusted
        ss_raters = n * float(((column_means - grand) ** 2).sum())
        ss_targets = k * row_m2
    return AnovaSums(
        n, k, *(np.array([value]) for value in (grand, ss_targets, ss_raters, error_m2, unit))
    )


def _plain_sums(values: np.ndarray) -> AnovaSums:
    """One pass over the ratings as they are (numpy, or numba from NUMBA_FROM ratings)."""
    n, k = values.shape[:2]
    if values.ndim == 2 and values.size >= NUMBA_FROM:
        from .kernels import numba_icc

        sums = numba_icc.anova_sums_2d(np.asarray(values, dtype=np.float64))
        grand_2d, ss_t, ss_r, ss_e = (np.array([value]) for value in sums)
        return AnovaSums(n, k, grand_2d, ss_t, ss_r, ss_e)
    x = values if values.ndim == 3 else values[:, :, None]
    x = np.ascontiguousarray(x, dtype=np.float64)
    if x.size >= NUMBA_FROM:
        from .kernels import numba_icc

        grand, ss_targets, ss_raters, ss_error = numba_icc.anova_sums(x)
    else:
        grand, ss_targets, ss_raters, ss_error = _numpy_sums(x)
    return AnovaSums(n, k, grand, ss_targets, ss_raters, ss_error)


def plain_anova_sums(ratings: Any) -> AnovaSums | None:
    """The sums of a large 2-D float64 numpy array straight from the compiled pass, or None.

    The pass's column sums are finite exactly when every rating is (a NaN or inf anywhere
    makes its column's sum NaN or inf), so the caller needs no reading pass of its own over
    the ratings; anything else (other types, small tables, a NaN, an inf, a sum beyond the
    float range) returns None for the caller's general route, which answers as before.
    """
    if not (
        type(ratings) is np.ndarray
        and ratings.dtype == np.float64
        and ratings.ndim == 2
        and ratings.shape[0] >= 2
        and ratings.shape[1] >= 2
        and ratings.size >= NUMBA_FROM
    ):
        return None
    sums = _plain_sums(ratings)
    return _finished(ratings, sums) if np.isfinite(sums.grand_mean[0]) else None
