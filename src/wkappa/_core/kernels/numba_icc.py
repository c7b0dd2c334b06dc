"""numba kernel for the intraclass correlations: the two-way ANOVA sums (imported lazily).

:func:`anova_sums` reads a complete (targets, raters, features) float64 array twice, feature
by feature in the innermost loop (contiguous, so LLVM vectorises it), in the order of the
numpy route (:mod:`wkappa._core.icc_sums`): the first pass sums each rater's column and each
target's row, the second subtracts from each rating the larger effects' mean first and the
other effect's first estimate next, and accumulates the row and column sums and squares of
those differences; :func:`finish_sums` (the numpy route's own source, compiled) turns them
into the sums of squares. No large sum is subtracted from another (the textbook
``sum x² - T²/N`` formulas lose every digit when the ratings sit far from zero), and no
rating is rounded relative to the targets' spread when the raters differ far less.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .. import f_scalar, icc_finish
from ..compile_lock import locked_njit

__all__ = ["anova_sums", "anova_sums_2d", "beta_fraction", "finish_sums", "quantile", "tail"]

# The sums from the second pass's moments: the same source as the numpy route's.
finish_sums = locked_njit(cache=True, nogil=True)(icc_finish.finish_sums)


@locked_njit(cache=True, nogil=True)
def anova_sums(x):  # type: ignore[no-untyped-def]
    """(grand mean, SS targets, SS raters, SS error), each of shape (features,), of a
    C-contiguous (n, k, F) float64 array without missing values (the order of
    :func:`wkappa._core.icc_sums.anova_sums`: the larger effects removed first)."""
    n, k, f_count = x.shape
    column = np.zeros((k, f_count))
    row = np.zeros((n, f_count))
    for i in range(n):
        for j in range(k):
            for f in range(f_count):
                column[j, f] += x[i, j, f]
                row[i, f] += x[i, j, f]
    column /= n
    row /= k
    grand = column.sum(axis=0) / k
    raters = column - grand
    spread = np.zeros(f_count)
    for i in range(n):
        for f in range(f_count):
            delta = row[i, f] - grand[f]
            spread[f] += delta * delta
    by_rows = spread / n >= (raters * raters).sum(axis=0) / k
    column_q = np.zeros((k, f_count))
    squares = np.zeros(f_count)
    total_m = np.zeros(f_count)
    target_sum = np.zeros(f_count)
    target_squares = np.zeros(f_count)
    row_q = np.empty(f_count)
    row_squares = np.empty(f_count)
    for i in range(n):
        row_q[:] = 0.0
        row_squares[:] = 0.0
        for j in range(k):
            for f in range(f_count):
                if by_rows[f]:
                    q = (x[i, j, f] - row[i, f]) - raters[j, f]
                else:
                    q = (x[i, j, f] - column[j, f]) - (row[i, f] - grand[f])
                row_q[f] += q
                row_squares[f] += q * q
                column_q[j, f] += q
        for f in range(f_count):
            m = row_q[f] / k
            squares[f] += row_squares[f] - row_q[f] * m
            total_m[f] += m
            target = (row[i, f] - grand[f]) + m
            target_sum[f] += target
            target_squares[f] += target * target
    moments = (column_q, total_m, squares, target_sum, target_squares)
    return grand, *finish_sums(n, k, raters, *moments)


@locked_njit(cache=True, nogil=True)
def anova_sums_2d(x):  # type: ignore[no-untyped-def]
    """:func:`anova_sums` of one (n, k) float64 array (any layout), as scalars.

    The first pass runs four rows at a time, each with its own column accumulators: a
    single running sum waits for the previous addition at every rating (the adder's latency,
    not memory, bounds it), four independent ones keep the adder busy (measured 1.7x faster
    at 60,000 x 2). The second pass's running sums gain once per row (each row's own sums
    are short), so they run one row at a time.
    """
    n, k = x.shape
    blocked = n - n % 4
    column = np.zeros((4, k))
    row = np.empty(n)
    for i in range(0, blocked, 4):
        r0 = r1 = r2 = r3 = 0.0
        for j in range(k):
            column[0, j] += x[i, j]
            column[1, j] += x[i + 1, j]
            column[2, j] += x[i + 2, j]
            column[3, j] += x[i + 3, j]
            r0 += x[i, j]
            r1 += x[i + 1, j]
            r2 += x[i + 2, j]
            r3 += x[i + 3, j]
        row[i] = r0 / k
        row[i + 1] = r1 / k
        row[i + 2] = r2 / k
        row[i + 3] = r3 / k
    for i in range(blocked, n):
        r0 = 0.0
        for j in range(k):
            column[0, j] += x[i, j]
            r0 += x[i, j]
        row[i] = r0 / k
    mean = np.empty(k)
    for j in range(k):
        mean[j] = ((column[0, j] + column[1, j]) + (column[2, j] + column[3, j])) / n
    grand = mean.sum() / k
    raters = mean - grand
    spread = 0.0
    for i in range(n):
        row[i] -= grand  # now the targets' first estimates
        spread += row[i] * row[i]
    by_rows = spread / n >= (raters * raters).sum() / k
    column_q = np.zeros((k, 1))
    squares = targets = target_squares = total_m = 0.0
    for i in range(n):
        row_q = row_squares = 0.0
        for j in range(k):
            if by_rows:  # x - row mean = (x - grand) - target (row[] holds the targets)
                q = (x[i, j] - (row[i] + grand)) - raters[j]
            else:
                q = (x[i, j] - mean[j]) - row[i]
            row_q += q
            row_squares += q * q
            column_q[j, 0] += q
        m = row_q / k
        squares += row_squares - row_q * m
        total_m += m
        target = row[i] + m
        targets += target
        target_squares += target * target
    moments = (
        column_q,
        np.array([total_m]),
        np.array([squares]),
        np.array([targets]),
        np.array([target_squares]),
    )
    ss_targets, ss_raters, ss_error = finish_sums(n, k, raters.reshape((k, 1)), *moments)
    return grand, ss_targets[0], ss_raters[0], ss_error[0]


# The F distribution's scalar functions (wkappa._core.f_scalar), compiled from the same
# source: the helpers are registered for inlining, the entry points are cached on disk. At the
# df of large studies (10^4-10^6) the continued fraction needs hundreds to thousands of terms.
for _helper in (
    f_scalar.stirling_scalar,
    f_scalar.gamma_ratio_scalar,
    f_scalar.log_front_scalar,
    f_scalar.beta_fraction,
    f_scalar.beta_lower_scalar,
    f_scalar.tail_scalar,
):
    register_jitable(_helper)

beta_fraction = locked_njit(cache=True, nogil=True)(f_scalar.beta_fraction)
tail = locked_njit(cache=True, nogil=True)(f_scalar.tail_scalar)
quantile = locked_njit(cache=True, nogil=True)(f_scalar.quantile_scalar)
