"""The paired comparison of two predictions' kappas in a data frame (re-exported by
:mod:`wkappa.frames`): the distinct (truth, A, B) rows of :mod:`wkappa._frames.triples`, the
test of :func:`wkappa.paired_kappa_test`."""

from __future__ import annotations

from typing import Any

import numpy.typing as npt

from ._core import (
    NanPolicy,
    WeightsLike,
    check_alternative,
    check_table_nan_policy,
    check_weights,
    needs_order,
)
from ._frames import count_triples, names_as_keywords
from ._stats import Alternative, PairedKappaResult, SeedLike

__all__ = ["paired_kappa_test"]


@names_as_keywords
def paired_kappa_test(
    df: Any,
    *,
    y_true: str,
    y_pred_a: str,
    y_pred_b: str,
    weights: WeightsLike = "quadratic",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    sample_weight: str | None = None,
    nan_policy: NanPolicy = "raise",
    n_resamples: int = 9999,
    confidence_level: float = 0.95,
    rng: SeedLike = None,
    cluster: str | None = None,
    alternative: Alternative = "two-sided",
) -> PairedKappaResult:
    """:func:`wkappa.paired_kappa_test` of three columns of a data frame: are the kappas of
    two predictions against the same truth different?

    Parameters
    ----------
    df : data frame
        A pandas, polars (eager or lazy), pyarrow, DuckDB, Dask or PySpark frame.
    y_true, y_pred_a, y_pred_b : str
        Names of the truth's column (rows of both tables) and of the two predictions'.
    weights, labels, min_rating, max_rating, n_resamples, confidence_level, rng, alternative
        As in :func:`wkappa.paired_kappa_test`. Without ``labels``, ordered categorical
        columns (pandas ordered ``Categorical``, polars ``Enum``, DuckDB ``ENUM``) give the
        category order.
    sample_weight : str, optional
        Name of a column of frequency weights, as ``sample_weight`` of
        :func:`wkappa.paired_kappa_test`: a row of weight 3 counts as three rows, so the
        weighted counts of the (truth, A, B) triples must be whole numbers unless ``cluster``
        is given (the cluster bootstrap accepts any non-negative weights).
    nan_policy : {'raise', 'omit'}, default 'raise'
        A null or NaN in any of the three columns: 'raise' refuses it, naming a column and
        the number of rows; 'omit' drops the rows missing any of the three ratings.
        'propagate' raises, as in :func:`wkappa.paired_kappa_test`.
    cluster : str, optional
        A column of cluster ids (patient, scan, task): the bootstrap resamples whole
        clusters, as ``wkappa.paired_kappa_test(..., cluster=...)``. No missing ids.

    Returns
    -------
    wkappa.PairedKappaResult
        The same as ``wkappa.paired_kappa_test`` on the columns' values, bit for bit for the
        same seed.

    Notes
    -----
    The engine runs one ``group_by([y_pred_b, y_true, y_pred_a])`` (with ``cluster``, that
    column too) and only the distinct rows come back, each with its number of rows (and its
    weights summed exactly, the same bits on every engine): they are the items of
    :func:`wkappa.paired_kappa_test` with their counts as frequency weights, which is the test
    of every row. Memory is O(distinct rows), not O(rows).

    Examples
    --------
    >>> import pandas as pd
    >>> from wkappa import frames
    >>> df = pd.DataFrame({"grade": [0, 1, 2, 1, 0, 2, 2, 1] * 10,
    ...                    "model_a": [0, 1, 2, 1, 0, 2, 1, 1] * 10,
    ...                    "model_b": [0, 2, 2, 0, 0, 1, 1, 1] * 10})
    >>> result = frames.paired_kappa_test(df, y_true="grade", y_pred_a="model_a",
    ...                                   y_pred_b="model_b", n_resamples=999, rng=0)
    >>> round(result.statistic_a, 4), round(result.statistic_b, 4), result.n
    (0.8889, 0.6098, 80)
    """
    from ._stats import FRAME_PAIRED_WEIGHTS, weighted_paired_test

    checked = check_weights(weights)
    policy = check_table_nan_policy(nan_policy, "a test result")
    sided = check_alternative(alternative)
    found = count_triples(
        df,
        (y_true, y_pred_a, y_pred_b),
        sample_weight=sample_weight,
        cluster=cluster,
        labels=labels,
        ordered=needs_order(checked),
        nan_policy=policy,
    )
    if labels is None and min_rating is None and max_rating is None:
        labels = found.labels
    return weighted_paired_test(
        *found.columns,
        FRAME_PAIRED_WEIGHTS,
        weights=checked,
        labels=labels,
        min_rating=min_rating,
        max_rating=max_rating,
        sample_weight=found.weight,
        nan_policy=policy,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        cluster=found.cluster,
        alternative=sided,
    )
