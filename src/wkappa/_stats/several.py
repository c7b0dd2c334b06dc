"""Agreement among several raters, the entry points: :func:`agreement`,
:func:`agreement_from_counts` and :func:`krippendorff_alpha`.

Every entry point runs the same stages as the two-rater ones: check the options once, read
and encode the ratings (:mod:`wkappa._core.raters`: the reader of one, two and R columns;
:mod:`wkappa._stats.several_rows`: their distinct rows), count them into the compact state
(:mod:`wkappa._stats.agreement_state`), then build the result
(:mod:`wkappa._stats.agreement_build`). The coefficients and Gwet's linearised variance are
in :mod:`wkappa._core.agreement`, the weight matrices in :mod:`wkappa._core.weights`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    COEFFICIENTS,
    KRIPPENDORFF_LEVELS,
    AgreementWeightsLike,
    Alternative,
    Coefficient,
    CountedRows,
    KrippendorffLevel,
    NanPolicy,
    RatingMatrixLike,
    ZeroDivision,
    aggregate_patterns,
    agreement_weight_matrix,
    check_agreement_weights,
    check_choice,
    check_labels,
    check_nan_policy,
    distinct_rows,
    features,
    is_dataframe,
    krippendorff_metric,
    needs_order,
    patterns_from_counts,
    rows_to_counts,
    value_labels,
)
from ..exceptions import WkappaError
from .agreement_build import (
    build_agreement,
    check_inference,
    propagated_agreement,
    result_from_rows,
)
from .agreement_result import AgreementResult
from .agreement_state import State
from .cluster_agreement import check_cluster_options, clustered_agreement
from .inference import check_kappa0
from .several_rows import (
    VALUE_WEIGHTS,
    encoded_ratings,
    propagated_result,
    rating_categories,
    rating_rows,
    read_counts,
    rows_agreement,
)

__all__ = [
    "VALUE_WEIGHTS",
    "agreement",
    "agreement_from_counts",
    "krippendorff_alpha",
    "rating_categories",
    "rating_rows",
]


def agreement(
    ratings: RatingMatrixLike,
    *,
    coefficient: Coefficient = "fleiss",
    weights: AgreementWeightsLike = "unweighted",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    zero_division: ZeroDivision = "warn",
    population_size: float | None = None,
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: npt.ArrayLike | None = None,
    multiplicity: npt.ArrayLike | None = None,
) -> AgreementResult:
    """Chance-corrected agreement of several raters (Fleiss, Conger, Gwet, Brennan-Prediger,
    Krippendorff, percent agreement), weighted, with missing ratings.

    Parameters
    ----------
    ratings : array-like of shape (n_items, n_raters) or DataFrame
        Rows are items, columns raters (a 2-D array, a list of rows, or a pandas / polars
        DataFrame of the rating columns). Missing ratings are NaN / None / null.
    coefficient : {'fleiss', 'conger', 'gwet', 'brennan_prediger', 'krippendorff', 'percent'}
        Fleiss' kappa (Fleiss 1971, generalised to weights and missing ratings by Gwet),
        Conger's kappa (Conger 1980; Cohen's kappa for two raters without a missing rating:
        with one, each rater's shares use all its ratings), Gwet's AC1 (AC2 when
        weighted), Brennan & Prediger (1981), Krippendorff's alpha with the weights as its
        metric, or the percent agreement ``pa``.
    weights : str or array of shape (K, K)
        Disagreement weights W (zero diagonal): 'unweighted', 'quadratic', 'linear' as in
        :func:`~wkappa.weighted_kappa` (on the category positions, so equal to irrCAC's
        value-based quadratic and linear weights only for evenly spaced numeric
        categories), Gwet's 'ordinal', 'radical', 'ratio', 'circular', 'bipolar' (irrCAC's,
        on the category values; their formulas are in the user guide's several-raters
        page), or a matrix with a zero diagonal. 'radical', 'ratio' and 'bipolar' use the
        values themselves, so without ``labels`` numeric ratings that are not whole numbers
        are categories as they are (their sorted distinct values, as
        :func:`~wkappa.krippendorff_alpha`'s interval level takes them). Gwet's (and irrCAC's)
        agreement weights are ``A = 1 - W``: pass ``1 - A`` for a matrix of agreement
        weights. Every pair of ratings counts in both orders, so a matrix that is not
        symmetric acts through its symmetric part ``(W + W') / 2``.
    labels : sequence, optional
        The K categories in order; required for strings with weighted coefficients.
    min_rating, max_rating : int, optional
        Bounds of the integer categories (default: the lowest and highest rating).
    nan_policy : {'omit', 'raise', 'propagate'}, default 'omit'
        'omit' uses every rating there is (see Notes); 'raise' refuses a missing rating;
        'propagate' returns a nan result when one is missing.
    zero_division : 'warn', 'raise' or float, default 'warn'
        What an undefined coefficient (``1 - pe = 0``) returns.
    population_size : int, optional
        The number N of items in the population, for the finite-population correction
        ``1 - n/N`` of the variance (irrCAC's ``N``). None or ``float("inf")`` (irrCAC's
        default): an infinite population.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Of the p-value of H0: coefficient = kappa0; irrCAC reports 'greater'.
    kappa0 : float, default 0
        The coefficient's value under H0 (a finite number below 1). The test is
        ``(statistic - kappa0) / standard_error`` with t(n - 1) (t(G - 1) with
        ``cluster``), as irrCAC's at 0: Gwet's
        linearised variance is only known at the estimate, so unlike the two-rater test
        (which evaluates its standard error under H0) this one is a Wald test, dual to the
        asymptotic interval.
    cluster : array-like of shape (n_items,), optional
        The cluster of each item (row): items of one cluster (the lesions of one scan, the
        prompts of one task) are not independent. The coefficient does not change; the
        standard error becomes cluster-robust (see Notes). Any hashable ids (one per item:
        join the parts of a composite id into one key), at least 2 clusters; no missing id,
        except for an item without any rating. Not with ``population_size``.
    multiplicity : array-like of shape (n_rows,), optional
        How many items each row of ``ratings`` stands for (non-negative integers): distinct
        rows of ratings with their counts, as a data engine's ``group_by`` over the rater
        columns returns them. The result is that of the rows repeated by their counts. Not
        with ``cluster``.

    Returns
    -------
    AgreementResult

    Warns
    -----
    wkappa.exceptions.UndefinedKappaWarning
        When the coefficient is undefined (``1 - pe = 0``, under ``zero_division='warn'``),
        or when it is defined but its standard error, interval and p-value are not (a single
        item; for Krippendorff's alpha fewer than 2 items with two or more ratings): those
        are nan.

    Notes
    -----
    **Clustered items.** With ``cluster``, Gwet's linearised terms ``x_i`` (centre ``c``)
    are summed per cluster, ``U_g = sum_{i in g} (x_i - c)``, and the variance is
    ``G / (G - 1) sum_g U_g² / n²`` over the n items and G clusters (the sandwich estimator;
    with one item per cluster it is Gwet's variance itself). The p-value and the interval
    ``statistic ± t_{G-1} standard_error`` use G - 1 degrees of freedom. Every method of
    ``confidence_interval`` works on clusters: the jackknife leaves one cluster out, and
    the bootstrap draws whole clusters.

    **Missing ratings** (as Gwet's irrCAC): items with no rating are dropped; items with a
    single rating count in the category prevalences ``pi_k = mean_i r_ik / r_i`` (and in n,
    the standard error's item count) but not in the observed agreement, which averages over
    the items with two ratings or more. Krippendorff's alpha uses only the items with two
    ratings or more (his pairable values). Columns are raters; a rater may skip items.

    **Categories.** K is the number of categories as the library defines them (every integer
    from the lowest to the highest rating, or ``labels``). Gwet's AC1/AC2 and Brennan-Prediger
    depend on K through their chance agreement; irrCAC uses the categories observed unless
    ``categ.labels`` is given, so pass ``labels`` to match it when a category in the range is
    never used.

    **Formulas.** In the user guide's several-raters page; the standard error is Gwet's
    linearisation (Gwet 2008, *Br. J. Math. Stat. Psychol.* 61: 29-48; Gwet 2014,
    *Handbook of Inter-Rater Reliability*, 4th ed.), as in irrCAC.

    Examples
    --------
    >>> import numpy as np
    >>> import wkappa as wk
    >>> nan = np.nan  # irrCAC's cac.raw4raters: 12 items, 4 raters, missing ratings
    >>> ratings = [[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...            [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [nan, 5, 5, 5],
    ...            [nan, nan, 1, 1], [nan, nan, 3, nan]]
    >>> result = wk.agreement(ratings, coefficient="fleiss")
    >>> round(result.statistic, 5), round(result.standard_error, 5), result.n_items
    (0.76117, 0.15302, 12)
    >>> low, high = result.confidence_interval()
    >>> round(low, 3), high
    (0.424, 1.0)
    >>> round(wk.agreement(ratings, coefficient="gwet").statistic, 5)
    0.77544
    """
    name = check_choice(coefficient, "coefficient", COEFFICIENTS)
    policy = check_nan_policy(nan_policy)
    zero, population, side = check_inference(zero_division, population_size, alternative)
    null = check_kappa0(kappa0)
    checked = check_agreement_weights(weights)
    if multiplicity is not None:
        if cluster is not None:
            raise WkappaError(
                "`cluster` and `multiplicity` exclude each other: a cluster id belongs to an "
                "item, and a counted row stands for several items. Hint: pass one row per item."
            )
        if isinstance(checked, str) and checked in VALUE_WEIGHTS:  # as without multiplicity
            ratings, labels, _ = value_labels(
                ratings, labels, min_rating, max_rating, f"weights={checked!r}", None
            )
        return rows_agreement(
            ratings, multiplicity, name, checked, labels, min_rating, max_rating, policy,
            (zero, population, side, null),
        )  # fmt: skip
    read: CountedRows | None = None
    if isinstance(checked, str) and checked in VALUE_WEIGHTS:
        ratings, labels, read = value_labels(
            ratings, labels, min_rating, max_rating, f"weights={checked!r}",
            None if cluster is not None else policy,
        )  # fmt: skip
    options = (labels, min_rating, max_rating, needs_order(checked), null, population)
    if cluster is not None:
        check_cluster_options(cluster, population)
        encoded = encoded_ratings(
            ratings, labels, min_rating, max_rating, needs_order(checked), policy
        )
        if encoded is None:
            return propagated_result(propagated_agreement(name, weights, side), ratings, options)
        codes, categories = encoded
        rows, multiplicity = distinct_rows(codes)
        label, matrix = agreement_weight_matrix(checked, len(categories), name, categories)
        result = result_from_rows(
            name, label, matrix, rows, multiplicity, categories,
            int(np.count_nonzero(codes >= 0)), zero, population, side, null,
        )  # fmt: skip
        return clustered_agreement(result, codes, cluster)
    if read is None:
        read = rating_rows(ratings, labels, min_rating, max_rating, needs_order(checked), policy)
    if read is None:
        return propagated_result(propagated_agreement(name, weights, side), ratings, options)
    rows, multiplicity, categories, n_ratings = read
    label, matrix = agreement_weight_matrix(checked, len(categories), name, categories)
    return result_from_rows(
        name,
        label,
        matrix,
        rows,
        multiplicity,
        categories,
        n_ratings,
        zero,
        population,
        side,
        null,
    )


def agreement_from_counts(
    counts: npt.ArrayLike,
    *,
    coefficient: Coefficient = "fleiss",
    weights: AgreementWeightsLike = "unweighted",
    labels: npt.ArrayLike | None = None,
    zero_division: ZeroDivision = "warn",
    population_size: float | None = None,
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
) -> AgreementResult:
    """Agreement from an items x categories count matrix (raters per item and category).

    Parameters
    ----------
    counts : array-like of shape (n_items, K)
        ``counts[i, k]``: how many raters put item i in category k. Rows may have different
        totals (missing ratings); rows of zeros are dropped.
    coefficient : {'fleiss', 'gwet', 'brennan_prediger', 'krippendorff', 'percent'}
        Conger's kappa needs to know which rater gave which rating: use
        :func:`~wkappa.agreement` with the ratings.
    weights, zero_division, population_size, alternative, kappa0
        As in :func:`~wkappa.agreement`.
    labels : sequence of K categories, optional
        Names of the columns (default: a pandas or polars DataFrame's or pyarrow Table's
        column names, else ``0..K-1``).

    Returns
    -------
    AgreementResult
        ``n_raters`` is the largest row total.

    Notes
    -----
    With ``r_ik = counts[i, k]``, ``r_i`` raters of item i and agreement weights
    ``A = 1 - W``, the weighted count ``r*_ik = sum_l A_kl r_il`` gives the observed
    agreement over the items rated twice or more,
    ``pa = mean_i sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``, and every coefficient is
    ``(pa - pe) / (1 - pe)``. For Fleiss' kappa ``pe = sum_kl A_kl pi_k pi_l`` with the
    category shares ``pi_k = mean_i r_ik / r_i``; the other coefficients' ``pe`` (and
    Krippendorff's small-sample form of ``pa``) are in the user guide's several-raters page.

    Examples
    --------
    >>> import wkappa as wk
    >>> counts = [[3, 0, 0], [0, 3, 0], [1, 1, 1], [0, 0, 3], [0, 2, 0], [2, 1, 0]]
    >>> round(wk.agreement_from_counts(counts).statistic, 4)
    0.5673
    """
    name = check_choice(coefficient, "coefficient", COEFFICIENTS)
    if name == "conger":
        raise WkappaError(
            "Conger's kappa cannot be computed from counts: it needs to know which rater gave "
            "which rating. Hint: pass the items x raters ratings to wkappa.agreement, or use "
            "coefficient='fleiss'."
        )
    zero, population, side = check_inference(zero_division, population_size, alternative)
    null = check_kappa0(kappa0)
    array = read_counts(counts)
    k = array.shape[1]
    if labels is None and is_dataframe(counts):  # the frame names its categories
        frame: Any = counts
        names_of = getattr(frame, "column_names", None)  # pyarrow; pandas/polars: columns
        labels = list(frame.columns if names_of is None else names_of)
    if labels is None:
        names: tuple[Any, ...] = tuple(range(k))
    else:
        names = tuple(check_labels(labels).tolist())
        if len(names) != k:
            raise WkappaError(
                f"`labels` has {len(names)} categories but `counts` has K = {k} columns."
            )
    label, matrix = agreement_weight_matrix(check_agreement_weights(weights), k, name, names)
    patterns, multiplicity = patterns_from_counts(array)
    if multiplicity.size == 0:
        raise WkappaError("`counts` has no ratings at all: every row is zero.")
    n_raters = int(patterns.sum(axis=1).max())
    # Exact: the sum can pass 2**63 even when every row total is below 2**62.
    n_ratings = int(multiplicity.astype(object) @ patterns.sum(axis=1).astype(object))
    state = State(features(patterns, matrix), multiplicity, patterns, None, None)
    return build_agreement(
        name, label, matrix, names, state, n_raters, n_ratings, zero, population, side, null
    )


def krippendorff_alpha(
    ratings: RatingMatrixLike,
    *,
    level: KrippendorffLevel = "nominal",
    labels: npt.ArrayLike | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    nan_policy: NanPolicy = "omit",
    zero_division: ZeroDivision = "warn",
    population_size: float | None = None,
    alternative: Alternative = "two-sided",
    kappa0: float = 0.0,
    cluster: npt.ArrayLike | None = None,
) -> AgreementResult:
    """Krippendorff's alpha with his own metrics, and Gwet's standard error.

    Parameters
    ----------
    ratings : array-like of shape (n_items, n_raters) or DataFrame
        Rows are items (Krippendorff's units), columns raters (coders); missing = NaN/None.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}, default 'nominal'
        The difference function ``delta_ck``: nominal ``[c != k]``; ordinal Krippendorff's
        rank-based ``(sum_{g=c}^{k} n_g - (n_c + n_k)/2)²`` from the pairable ratings'
        category counts ``n_g`` (unlike Gwet's 'ordinal' weights, it depends on how often each
        category is used); interval ``(v_c - v_k)²``; ratio ``((v_c - v_k)/(v_c + v_k))²``
        on the category values ``v``: numeric ``labels``, else the integer range of whole
        numbers, or the sorted distinct values when some are not whole numbers (as in
        Krippendorff's definition, on the values themselves).
    labels, min_rating, max_rating, nan_policy, zero_division, population_size, alternative,
    kappa0, cluster
        As in :func:`~wkappa.agreement` (``kappa0``: alpha under H0; ``cluster``: the
        cluster of each unit, for a cluster-robust standard error).

    Returns
    -------
    AgreementResult
        ``coefficient='krippendorff'``, ``level`` the level, ``weight_matrix`` the metric
        scaled to a largest entry of 1 (alpha does not change when delta is rescaled) and
        ``weights`` 'unweighted' for the nominal level (its metric), 'custom' for the others.

    Warns
    -----
    wkappa.exceptions.UndefinedKappaWarning
        When the coefficient is undefined (``1 - pe = 0``, under ``zero_division='warn'``),
        or when it is defined but its standard error, interval and p-value are not (a single
        item; for Krippendorff's alpha fewer than 2 items with two or more ratings): those
        are nan.

    Notes
    -----
    ``alpha = 1 - (N - 1) sum_u [sum_ck r_uc r_uk delta_ck / (m_u - 1)] / sum_ck n_c n_k
    delta_ck`` over the units with ``m_u >= 2`` ratings, N of them pairable ratings. The
    interval and ratio metrics use the category values, the library's 'quadratic' weights
    the positions: interval alpha equals ``agreement(..., coefficient='krippendorff',
    weights='quadratic')`` when the categories are evenly spaced numbers (always so without
    ``labels``), not for ``labels=[1, 3, 10]``. The ordinal metric is computed once from the
    data; the standard error and the resampling intervals hold it fixed.

    Examples
    --------
    Krippendorff's reliability data (Krippendorff 2011, "Computing Krippendorff's
    alpha-reliability"; 4 coders x 12 units, with missing values):

    >>> import numpy as np
    >>> import wkappa as wk
    >>> nan = np.nan
    >>> coders = [
    ...     [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ... ]
    >>> ratings = np.array(coders).T
    >>> round(wk.krippendorff_alpha(ratings, level="nominal").statistic, 3)
    0.743
    >>> round(wk.krippendorff_alpha(ratings, level="interval").statistic, 3)
    0.849
    """
    check_choice(level, "level", KRIPPENDORFF_LEVELS)
    policy = check_nan_policy(nan_policy)
    zero, population, side = check_inference(zero_division, population_size, alternative)
    null = check_kappa0(kappa0)
    codes = None
    label = "unweighted" if level == "nominal" else "custom"
    nan_result = replace(propagated_agreement("krippendorff", label, side), level=level)
    data: Any = ratings  # the ratings, or as read for values that are not whole
    read: CountedRows | None = None
    if level in ("interval", "ratio"):
        data, labels, read = value_labels(
            data, labels, min_rating, max_rating, f"level={level!r}",
            None if cluster is not None else policy,
        )  # fmt: skip
    options = (labels, min_rating, max_rating, level != "nominal", null, population)
    if cluster is not None:
        check_cluster_options(cluster, population)
        encoded = encoded_ratings(data, labels, min_rating, max_rating, level != "nominal", policy)
        if encoded is None:
            return propagated_result(nan_result, data, options)
        codes = encoded[0]
        distinct, counted = distinct_rows(codes)
        read = CountedRows(distinct, counted, encoded[1], int(np.count_nonzero(codes >= 0)))
    elif read is None:
        read = rating_rows(data, labels, min_rating, max_rating, level != "nominal", policy)
    if read is None:
        return propagated_result(nan_result, data, options)
    rows, multiplicity, categories, n_ratings = read
    k = len(categories)
    patterns, counts = aggregate_patterns(rows_to_counts(rows, k), multiplicity)
    pairable = patterns.sum(axis=1) >= 2
    matrix = krippendorff_metric(level, categories, counts[pairable] @ patterns[pairable])
    state = State(features(patterns, matrix), counts, patterns, rows, multiplicity)
    result = build_agreement(
        "krippendorff", label, matrix, categories, state, rows.shape[1], n_ratings, zero,
        population, side, null,
    )  # fmt: skip
    result = replace(result, level=level)
    return result if codes is None else clustered_agreement(result, codes, cluster)
