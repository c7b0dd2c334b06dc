"""REML variance components of the ICC models with missing ratings (no listwise deletion).

The two-way model ``x_ij = mu + t_i + r_j + e_ij`` with crossed random targets and raters, and
the one-way model ``x_ij = mu + t_i + e_ij``, fitted by restricted maximum likelihood
(Patterson & Thompson 1971) on the observed ratings only, as R's ``lme4::lmer`` does for
``psych::ICC(lmer = TRUE)``.

With ``H = V / var_e = I + tau_t Z_t Z_t' + tau_r Z_r Z_r'``, the target part
``A = I + tau_t Z_t Z_t'`` is block diagonal with explicit inverse
``A_i^-1 = I - g_i J``, ``g_i = tau_t / (1 + m_i tau_t)`` (``m_i`` ratings of target i), and the
Woodbury identity moves the rater part into a k x k system:
``H^-1 = A^-1 - tau_r A^-1 Z_r (I + tau_r M)^-1 Z_r' A^-1`` with ``M = Z_r' A^-1 Z_r``,
``log|H| = sum_i log(1 + m_i tau_t) + log|I + tau_r M|``. Every quantity of the restricted
likelihood (with ``var_e`` profiled out) is then a sum over targets of O(k^2) terms, so one
evaluation costs O(n k^2) and no N x N matrix is ever formed. The two variance ratios are
found by Nelder-Mead on their logarithms, the one-way ratio by golden-section search, each
finished by Newton steps to where the likelihood's gradient is 0. A ratio
whose restricted likelihood is that of a zero ratio to within rounding is a zero component
(near zero the likelihood is flat to the last digits, and the search stops anywhere there).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .._core import rater_names
from ..exceptions import WkappaError

__all__ = ["RemlFit", "reml_fit"]

_LOG_MIN = -28.0  # tau = e^-28 ~ 7e-13: the component is zero to every digit that matters
_LOG_MAX = 25.0


@dataclass(frozen=True)
class RemlFit:
    """REML variance components (two-way and one-way models) of one targets x raters table."""

    var_targets: float
    var_raters: float
    var_error: float
    var_targets_oneway: float
    var_within: float
    n_ratings: int
    loglik: float


@dataclass(frozen=True)
class _Data:
    observed: np.ndarray  # (n, k) bool
    values: np.ndarray  # (n, k) float, 0 where missing, centred
    m: np.ndarray  # (n,) ratings per target
    s: np.ndarray  # (n,) sums per target
    ss: np.ndarray  # (n,) sums of squares per target
    n_ratings: int


def _prepare(table: np.ndarray, raters: Sequence[str] | None = None) -> _Data:
    observed = ~np.isnan(table)
    empty_rows = np.flatnonzero(~observed.any(axis=1))
    if empty_rows.size:
        raise WkappaError(
            f"`ratings` has no rating at all for item {int(empty_rows[0])}. "
            "Hint: drop items (rows) without any rating."
        )
    empty_cols = np.flatnonzero(~observed.any(axis=0))
    if empty_cols.size:
        raise WkappaError(
            "`ratings` has no rating at all from "
            f"{rater_names(raters, table.shape[1])[int(empty_cols[0])]}. "
            "Hint: drop raters (columns) without any rating."
        )
    # Centring on the mean of the observed ratings changes nothing in the model (mu is free)
    # and keeps the sums small.
    centre = float(np.nanmean(table))
    values = np.where(observed, table - centre, 0.0)
    m = observed.sum(axis=1).astype(np.float64)
    s = values.sum(axis=1)
    ss = (values * values).sum(axis=1)
    return _Data(observed, values, m, s, ss, int(observed.sum()))


def _profile(data: _Data, log_tau_t: float, log_tau_r: float | None) -> tuple[float, float]:
    """(-2 x restricted log-likelihood with var_e profiled out, the profiled var_e)."""
    tau_t = math.exp(log_tau_t)
    g = tau_t / (1.0 + data.m * tau_t)
    log_det = float(np.log1p(data.m * tau_t).sum())
    one_one = float((data.m - g * data.m * data.m).sum())
    one_y = float((data.s - g * data.m * data.s).sum())
    y_y = float((data.ss - g * data.s * data.s).sum())
    if log_tau_r is not None:
        tau_r = math.exp(log_tau_r)
        obs = data.observed.astype(np.float64)
        weighted = obs * g[:, None]
        big_m = np.diag(obs.sum(axis=0)) - weighted.T @ obs
        c_one = (obs * (1.0 - g * data.m)[:, None]).sum(axis=0)
        c_y = data.values.sum(axis=0) - (weighted * data.s[:, None]).sum(axis=0)
        system = np.eye(big_m.shape[0]) + tau_r * big_m
        _, log_det_r = np.linalg.slogdet(system)
        log_det += float(log_det_r)
        solved = np.linalg.solve(system, np.column_stack([c_one, c_y]))
        one_one -= tau_r * float(c_one @ solved[:, 0])
        one_y -= tau_r * float(c_one @ solved[:, 1])
        y_y -= tau_r * float(c_y @ solved[:, 1])
    rss = y_y - one_y * one_y / one_one
    dof = data.n_ratings - 1
    var_e = max(rss, 0.0) / dof
    if var_e <= 0.0:
        return math.inf, 0.0
    return dof * math.log(var_e) + log_det + math.log(one_one), var_e


def _golden(function: Callable[[float], float], low: float, high: float) -> float:
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = function(c), function(d)
    for _ in range(200):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = function(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = function(d)
        if b - a < 1e-12:
            break
    best = min((function(low), low), (fc, c), (fd, d))
    return best[1]


def _nelder_mead(function: Callable[[np.ndarray], float], start: np.ndarray) -> np.ndarray:
    """Minimise over the box [_LOG_MIN, _LOG_MAX]^2 (points are clipped into it)."""

    def clipped(point: np.ndarray) -> np.ndarray:
        return np.asarray(np.clip(point, _LOG_MIN, _LOG_MAX), dtype=np.float64)

    steps = np.eye(2)
    simplex = [clipped(start), clipped(start + steps[0]), clipped(start + steps[1])]
    values = [function(p) for p in simplex]
    for _ in range(2000):
        order = np.argsort(values)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        spread = max(float(np.max(np.abs(p - simplex[0]))) for p in simplex[1:])
        if spread < 1e-11 and abs(values[-1] - values[0]) < 1e-13:
            break
        centroid = (simplex[0] + simplex[1]) / 2.0
        reflected = clipped(centroid + (centroid - simplex[2]))
        f_r = function(reflected)
        if f_r < values[0]:
            expanded = clipped(centroid + 2.0 * (centroid - simplex[2]))
            f_e = function(expanded)
            simplex[2], values[2] = (expanded, f_e) if f_e < f_r else (reflected, f_r)
        elif f_r < values[1]:
            simplex[2], values[2] = reflected, f_r
        else:
            contracted = clipped(centroid + 0.5 * (simplex[2] - centroid))
            f_c = function(contracted)
            if f_c < values[2]:
                simplex[2], values[2] = contracted, f_c
            else:
                simplex = [simplex[0]] + [simplex[0] + 0.5 * (p - simplex[0]) for p in simplex[1:]]
                values = [values[0]] + [function(p) for p in simplex[1:]]
    return simplex[int(np.argmin(values))]


def _polished(function: Callable[[np.ndarray], float], point: np.ndarray) -> np.ndarray:
    """``point`` moved by Newton steps to where the objective's gradient is 0.

    A search on function values alone stops where the objective is flat to rounding, which
    for a minimum leaves the point (and so the ICC) uncertain in its 8th digit, with the
    order of the ratings deciding where. The gradient is taken by fourth-order central
    differences (error about 1e-12 at step 1e-3), the Hessian by second-order ones (it only
    sets the speed). A coordinate at a bound of the box stays there; a step that is not small
    (the point was not near a minimum) or a Hessian that is not positive definite keeps the
    point as the search left it."""
    free = [axis for axis in range(len(point)) if _LOG_MIN < point[axis] < _LOG_MAX]
    if not free:
        return point
    h = 1e-3
    x: np.ndarray = point.copy()

    def at(shift: dict[int, float]) -> float:
        moved = x.copy()
        for axis, by in shift.items():
            moved[axis] += by
        return function(moved)

    for _ in range(8):
        f0 = function(x)
        gradient = np.array(
            [
                (at({a: -2 * h}) - 8 * at({a: -h}) + 8 * at({a: h}) - at({a: 2 * h})) / (12 * h)
                for a in free
            ]
        )
        hessian = np.empty((len(free), len(free)))
        for i, a in enumerate(free):
            hessian[i, i] = (at({a: h}) - 2 * f0 + at({a: -h})) / (h * h)
            for j in range(i):
                b = free[j]
                cross = at({a: h, b: h}) - at({a: h, b: -h}) - at({a: -h, b: h})
                hessian[i, j] = hessian[j, i] = (cross + at({a: -h, b: -h})) / (4 * h * h)
        if not np.all(np.isfinite(hessian)) or np.any(np.linalg.eigvalsh(hessian) <= 0.0):
            return point
        step = -np.linalg.solve(hessian, gradient)
        if not np.all(np.isfinite(step)) or np.max(np.abs(step)) > 0.1:
            return point
        x[free] += step
        if np.any(x[free] <= _LOG_MIN) or np.any(x[free] >= _LOG_MAX):
            return point
        if np.max(np.abs(step)) < 1e-13:
            break
    return x


def _snapped(function: Callable[[np.ndarray], float], point: np.ndarray, axis: int) -> np.ndarray:
    """``point`` with coordinate ``axis`` at the lower bound (a zero component) when the
    objective there is the objective at ``point`` to within rounding: the search stops
    anywhere on that flat stretch, and an ICC of 0 would come out as a value near 1e-12)."""
    if point[axis] <= _LOG_MIN:
        return point
    at_zero: np.ndarray = point.copy()
    at_zero[axis] = _LOG_MIN
    found = function(point)
    if function(at_zero) <= found + 1e-12 * max(1.0, abs(found)):
        return at_zero
    return point


def _start(data: _Data) -> np.ndarray:
    """Moment guesses of log(var_t / var_e) and log(var_r / var_e) to start from."""
    obs = data.observed
    row_mean = data.s / data.m
    col_mean = data.values.sum(axis=0) / obs.sum(axis=0)
    residual = np.where(obs, data.values - row_mean[:, None] - col_mean[None, :], 0.0)
    var_e = max(float((residual**2).sum()) / max(data.n_ratings - 1, 1), 1e-12)
    var_t = max(float(np.var(row_mean)), 1e-6 * var_e)
    var_r = max(float(np.var(col_mean)), 1e-6 * var_e)
    return np.array([math.log(var_t / var_e), math.log(var_r / var_e)])


def reml_fit(table: np.ndarray, raters: Sequence[str] | None = None) -> RemlFit:
    """REML variance components of an (n, k) table with NaN for missing ratings
    (``raters``: a frame's column names, for messages)."""
    data = _prepare(table, raters)
    if data.n_ratings - 1 <= 0 or not np.any(data.values != 0.0):
        return RemlFit(0.0, 0.0, 0.0, 0.0, 0.0, data.n_ratings, math.nan)

    def two_way(theta: np.ndarray) -> float:
        return _profile(data, float(theta[0]), float(theta[1]))[0]

    start = np.clip(_start(data), _LOG_MIN + 1.0, _LOG_MAX - 1.0)
    best = _nelder_mead(two_way, start)
    best = _nelder_mead(two_way, best)  # a restart guards against a collapsed simplex
    for axis in (0, 1):
        best = _snapped(two_way, best, axis)
    best = _polished(two_way, best)
    objective, var_e = _profile(data, float(best[0]), float(best[1]))

    def one_way(log_tau: float) -> float:
        return _profile(data, log_tau, None)[0]

    def one_way_at(point: np.ndarray) -> float:
        return one_way(float(point[0]))

    searched = np.array([_golden(one_way, _LOG_MIN, _LOG_MAX)])
    log_tau_1 = float(_polished(one_way_at, _snapped(one_way_at, searched, 0))[0])
    _, var_w = _profile(data, log_tau_1, None)

    def component(log_tau: float, var: float) -> float:
        return 0.0 if log_tau <= _LOG_MIN + 1e-9 else math.exp(log_tau) * var

    return RemlFit(
        var_targets=component(float(best[0]), var_e),
        var_raters=component(float(best[1]), var_e),
        var_error=var_e,
        var_targets_oneway=component(log_tau_1, var_w),
        var_within=var_w,
        n_ratings=data.n_ratings,
        loglik=-0.5 * objective,
    )
