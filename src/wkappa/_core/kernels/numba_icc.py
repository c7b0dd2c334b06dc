"""numba kernel for the intraclass correlations: the two-way ANOVA sums (imported lazily).

:func:`anova_sums` reads a complete (targets, raters, features) float64 array twice, feature
by feature in the innermost loop (contiguous, so LLVM vectorises it): the first pass sums each
rater's column, the second removes the rater means from each target's ratings and accumulates
the between-target and residual sums of squares from those centred values, so no large sum is
subtracted from another (the textbook ``sum x² - T²/N`` formulas lose every digit when the
ratings sit far from zero).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["anova_sums", "anova_sums_2d", "beta_fraction"]


@njit(cache=True, nogil=True)
def anova_sums(x):  # type: ignore[no-untyped-def]
    """(grand mean, SS targets, SS raters, SS error), each of shape (features,), of a
    C-contiguous (n, k, F) float64 array without missing values."""
    n, k, f_count = x.shape
    column = np.zeros((k, f_count))
    for i in range(n):
        for j in range(k):
            for f in range(f_count):
                column[j, f] += x[i, j, f]
    column /= n
    grand = np.zeros(f_count)
    for j in range(k):
        for f in range(f_count):
            grand[f] += column[j, f]
    grand /= k
    ss_raters = np.zeros(f_count)
    for j in range(k):
        for f in range(f_count):
            delta = column[j, f] - grand[f]
            ss_raters[f] += delta * delta
    ss_raters *= n
    ss_targets = np.zeros(f_count)
    ss_error = np.zeros(f_count)
    centred = np.empty((k, f_count))
    row = np.empty(f_count)
    for i in range(n):
        row[:] = 0.0
        for j in range(k):
            for f in range(f_count):
                value = x[i, j, f] - column[j, f]
                centred[j, f] = value
                row[f] += value
        for f in range(f_count):
            row[f] /= k
            ss_targets[f] += row[f] * row[f]
        for j in range(k):
            for f in range(f_count):
                residual = centred[j, f] - row[f]
                ss_error[f] += residual * residual
    ss_targets *= k
    return grand, ss_targets, ss_raters, ss_error


@njit(cache=True, nogil=True)
def anova_sums_2d(x):  # type: ignore[no-untyped-def]
    """:func:`anova_sums` of one (n, k) float64 array (any layout), as scalars."""
    n, k = x.shape
    column = np.zeros(k)
    for i in range(n):
        for j in range(k):
            column[j] += x[i, j]
    column /= n
    grand = column.sum() / k
    ss_raters = 0.0
    for j in range(k):
        ss_raters += (column[j] - grand) ** 2
    ss_raters *= n
    ss_targets = 0.0
    ss_error = 0.0
    for i in range(n):
        row = 0.0
        for j in range(k):
            row += x[i, j] - column[j]
        row /= k
        ss_targets += row * row
        for j in range(k):
            residual = x[i, j] - column[j] - row
            ss_error += residual * residual
    return grand, ss_targets * k, ss_raters, ss_error


@njit(cache=True, nogil=True)
def beta_fraction(a, b, y):  # type: ignore[no-untyped-def]
    """The incomplete beta continued fraction (modified Lentz), compiled: at the df of large
    studies (10^4-10^6) it needs hundreds to thousands of terms."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * y / qap
    d = 1.0 / (d if abs(d) >= tiny else tiny)
    h = d
    for m in range(1, 20_000):
        m2 = 2 * m
        aa = m * (b - m) * y / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) >= tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) >= tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * y / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) >= tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) >= tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            break
    return h
