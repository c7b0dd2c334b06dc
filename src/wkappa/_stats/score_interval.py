"""The score-type interval of a kappa and the variance of kappa under a hypothesised value.

The score interval is the set of kappa0 that the large-sample test does not reject when the
variance is evaluated at a table with kappa kappa0 on a path through the observed
proportions; :func:`hypothesis_variances` gives that variance at any kappa0, so that the test
of ``H0: kappa = kappa0`` rejects exactly the values outside the interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core import kappas, norm_ppf

__all__ = ["hypothesis_variances", "score_limits"]

# Bisection steps along each half of the path: 2**-60 of the path, finer than the limits need.
_SCORE_STEPS = 50
# A kappa this close to 0 takes the path of kappa = 0 (float rounding of an exact 0).
_ZERO_KAPPA = 1e-12


def _score_path(
    tables: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The score interval's path through a stack of tables, flattened to (m, K, K).

    Returns n, each table's kappa, its cell proportions P, the chance table r c', the
    agreement table (diag of (r + c) / 2), the disagreement table (chance weighted by W,
    normalised) and the sign of kappa (0 within rounding of 0, so that float noise -- a
    transposed table, a stack against one table -- cannot pick another path).
    """
    # C order: numpy's sums round by the memory layout (a Fortran-order table or a slice
    # would be summed in another order than the same table in a stack).
    counts = np.ascontiguousarray(tables, dtype=np.float64)
    k = counts.shape[-1]
    counts = counts.reshape(-1, k, k)
    n = counts.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        own = np.asarray(kappas(counts, weights), dtype=np.float64).reshape(-1)
        p = counts / n[:, None, None]
        rows, cols = p.sum(axis=2), p.sum(axis=1)
        chance = rows[:, :, None] * cols[:, None, :]
        agreement = np.eye(k)[None] * ((rows + cols) / 2.0)[:, None, :]
        against = chance * weights[None]
        against = against / against.sum(axis=(1, 2))[:, None, None]
        sign = np.where(np.abs(own) <= _ZERO_KAPPA, 0.0, np.sign(own))
    return n, own, p, chance, agreement, against, sign


def score_limits(
    tables: np.ndarray, weights: np.ndarray, confidence_level: float, kappa: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """The score-type (profile-variance) interval of each table's kappa.

    Parameters and return values as ``fisher_z_limits`` (``fisher_z_interval.py``), except
    that only an undefined kappa or ``n <= 1`` gives nan limits.

    Notes
    -----
    The interval is the set of kappa0 that the large-sample test of ``H0: kappa = kappa0``
    does not reject when the variance is evaluated under ``H0`` rather than at the estimate
    (the score principle of Wilson (1927) for a proportion; for kappa, Donner & Eliasziw
    (1992) evaluate it under the hypothesised value for K = 2):

    .. math::

        \\{\\kappa_0 : (\\hat\\kappa - \\kappa_0)^2 \\le z_{(1+\\gamma)/2}^2\\,
        V(P_{\\kappa_0}) / n\\}

    with ``V`` the Fleiss-Cohen-Everitt (1969) variance and ``P_kappa0`` a table with kappa
    ``kappa0`` next to the observed proportions ``P = O / n``. The tables ``P_kappa0`` lie on
    a path through ``P`` (so the limits are found by bisection, 50 steps per side):

    * towards chance, ``C = r c'``: ``(1 - s) P + s C`` keeps the margins ``r``, ``c`` and
      has kappa ``(1 - s) kappa`` exactly;
    * towards perfect agreement, ``A = diag((r + c) / 2)`` (kappa 1);
    * towards disagreement, ``N`` proportional to ``r_i c_j W_ij`` (chance weighted by the
      disagreement weights, kappa < 0).

    With kappa > 0 the upper limit lies on the segment P -> A and the lower one on
    P -> C -> N; with kappa < 0 the upper one on P -> C -> A and the lower one on P -> N;
    with kappa = 0 on P -> A and P -> N.

    Mixing with chance lets the variance see disagreements the sample did not show (a
    perfect-agreement table still gets a lower limit below 1, like Wilson's interval at 0 or
    n successes); below the estimate that makes it conservative when the disagreements are
    all between neighbouring categories (ordinal tables). If the test does
    not reject at the end of the disagreement segment, the lower limit is that end's kappa.
    The coverage study in ``benchmarks/coverage_study.py`` (BENCHMARKS.md) measures it.
    """
    shape = np.shape(tables)[:-2]
    n, own, p, chance, agreement, against, sign = _score_path(tables, weights)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        quantile = norm_ppf(0.5 + confidence_level / 2.0)
        positive = (sign > 0.0)[:, None, None]
        negative = (sign < 0.0)[:, None, None]
        # Each side: the first segment from P to `first`, the second from `first` to `second`.
        up_first = np.where(negative, chance, agreement)
        down_first = np.where(positive, chance, against)
        high = _score_end(p, up_first, agreement, n, weights, own, quantile)
        low = _score_end(p, down_first, against, n, weights, own, quantile)
    if kappa is None:
        kappa = own
    else:
        kappa = np.broadcast_to(np.asarray(kappa, dtype=np.float64), shape).reshape(-1)
    bad = np.isnan(own) | np.isnan(kappa) | ~(n > 1.0)
    low = np.where(bad, np.nan, np.fmin(low, kappa))
    high = np.where(bad, np.nan, np.fmax(high, kappa))
    return low.reshape(shape), high.reshape(shape)


def _score_end(
    p: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    n: np.ndarray,
    weights: np.ndarray,
    own: np.ndarray,
    quantile: float,
) -> np.ndarray:
    """Kappa where the score test first rejects along the path P -> first -> second
    (position u in [0, 2]), or at the path's end if it never does."""
    bound = quantile**2 / n
    step_one, step_two = first - p, second - first

    def at(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        one = np.minimum(u, 1.0)[:, None, None]
        two = np.maximum(u - 1.0, 0.0)[:, None, None]
        kappa, spread = _kappa_and_spread(p + one * step_one + two * step_two, weights)
        return kappa, (own - kappa) ** 2 > bound * spread

    low = np.zeros_like(own)
    high = np.full_like(own, 2.0)
    end, rejected = at(high)
    for _ in range(_SCORE_STEPS):
        middle = 0.5 * (low + high)
        _, reject = at(middle)
        high = np.where(reject, middle, high)
        low = np.where(reject, low, middle)
    limit, _ = at(high)
    return np.where(rejected, limit, end)


def _kappa_and_spread(p: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kappa and ``n * Var(kappa)`` (Fleiss-Cohen-Everitt) of proportion tables p (G, K, K).

    The same formula as :func:`wkappa._core.variances`, for tables that already sum to 1.
    Every product is elementwise, summed along the contiguous last axes: a matrix product
    (BLAS) rounds differently for a stack and for one table, and on different CPUs, and
    ``einsum`` splits sums of more than 8192 terms by the stack's shape. So each table's
    values are bit for bit those of the table alone.
    """
    rows, cols = p.sum(axis=2), p.sum(axis=1)
    w_row = (weights[None] * cols[:, None, :]).sum(axis=2)
    w_col = (np.ascontiguousarray(weights.T)[None] * rows[:, None, :]).sum(axis=2)
    d_e = (rows * w_row).sum(axis=1)
    kappa = 1.0 - (p * weights[None]).sum(axis=(1, 2)) / d_e
    influence = weights[None] - (1.0 - kappa)[:, None, None] * (
        w_row[:, :, None] + w_col[:, None, :]
    )
    mean = (p * influence).sum(axis=(1, 2))
    centred = influence - mean[:, None, None]
    spread = (p * centred * centred).sum(axis=(1, 2)) / d_e / d_e
    return kappa, spread


def hypothesis_variances(tables: np.ndarray, weights: np.ndarray, kappa0: float) -> np.ndarray:
    """Fleiss-Cohen-Everitt variance of kappa under ``H0: kappa = kappa0``, for each table.

    Parameters
    ----------
    tables : ndarray of shape (..., K, K)
        Counts O.
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    kappa0 : float
        The hypothesised kappa.

    Returns
    -------
    ndarray of shape (...)
        ``V(P_kappa0) / n``: the variance at the table ``P_kappa0`` with kappa ``kappa0`` on
        the path of :func:`score_limits` through the observed proportions (towards chance
        and disagreement below the estimate, towards perfect agreement above it), so that
        the test ``z = (kappa - kappa0) / sqrt(V(P_kappa0) / n)`` rejects exactly the values
        outside the score interval. At ``kappa0 = 0`` the path passes through the
        independence table ``r c'`` and this is the null variance of Fleiss, Cohen & Everitt
        (1969). Past the path's end (a ``kappa0`` below what the disagreement end of the
        path reaches), the end's variance. nan where kappa is undefined.
    """
    shape = np.shape(tables)[:-2]
    n, own, p, chance, agreement, against, sign = _score_path(tables, weights)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        up = (kappa0 > own)[:, None, None]
        # Up: towards chance first when kappa < 0, then agreement. Down: towards chance
        # first when kappa > 0, then disagreement (the segments of score_limits).
        first = np.where(
            up,
            np.where((sign < 0.0)[:, None, None], chance, agreement),
            np.where((sign > 0.0)[:, None, None], chance, against),
        )
        second = np.where(up, agreement, against)
        step_one, step_two = first - p, second - first

        # Between 0 and a positive estimate the table is on the chance segment, where kappa
        # is linear: (1 - u) P + u C has kappa (1 - u) kappa, so u = 1 - kappa0 / kappa.
        linear = (sign > 0.0) & (kappa0 >= 0.0) & (kappa0 <= own)
        position = np.where(linear, 1.0 - kappa0 / np.where(linear, own, 1.0), 2.0)
        rest = np.flatnonzero(~linear)
        if rest.size:
            sub_p, sub_one, sub_two = p[rest], step_one[rest], step_two[rest]
            sub_up = up[rest, 0, 0]

            def at(u: np.ndarray) -> np.ndarray:
                one = np.minimum(u, 1.0)[:, None, None]
                two = np.maximum(u - 1.0, 0.0)[:, None, None]
                value, _ = _kappa_and_spread(sub_p + one * sub_one + two * sub_two, weights)
                return value

            low = np.zeros(rest.size)
            high = np.full(rest.size, 2.0)
            for _ in range(_SCORE_STEPS):
                middle = 0.5 * (low + high)
                value = at(middle)
                beyond = np.where(sub_up, value >= kappa0, value <= kappa0)
                high = np.where(beyond, middle, high)
                low = np.where(beyond, low, middle)
            position[rest] = high
        one = np.minimum(position, 1.0)[:, None, None]
        two = np.maximum(position - 1.0, 0.0)[:, None, None]
        _, spread = _kappa_and_spread(p + one * step_one + two * step_two, weights)
        variance = spread / n
    variance = np.where(np.isnan(own) | ~(n > 0.0), np.nan, variance)
    return variance.reshape(shape)
