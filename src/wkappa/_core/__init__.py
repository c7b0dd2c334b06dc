"""The core: options, columns, encoding, weights, counting routes and the kappa statistic.

It imports nothing else of the package; everything else builds on the names below.
"""

from __future__ import annotations

from .columns import host_view, is_device_array, to_host
from .dependencies import (
    import_optional,
    is_dataframe,
    is_lazy_frame,
    is_pandas_object,
    is_torch_tensor,
)
from .dispatch import count_pairs, register_route, route_names
from .encode import (
    MAX_TABLE_CELLS,
    THRESHOLD_HINT,
    EncodedRatings,
    check_bound,
    check_labels,
    check_rating_bounds,
    check_table_size,
    encode_ratings,
    is_missing_scalar,
    raise_unknown_rating,
    read_sample_weight,
    to_column,
)
from .fused import (
    FAST_MIN,
    GUESS_SAMPLE,
    HUGE,
    fast_ratings,
    guess_range,
    guessed_categories,
    numpy_pair,
    numpy_view,
    parallel_section,
    use_parallel,
)
from .kappa import (
    check_table,
    confusion_table,
    kappa_from_quadratic_sums,
    kappa_from_table,
    quadratic_weighted_kappa,
    qwk,
    table_kappa,
    weighted_kappa,
)
from .kernels import QuadraticSums, count_table, quadratic_sums, weighted_quadratic_sums
from .label_spelling import (
    Where,
    check_label_spellings,
    find_split,
    find_unlisted,
    spelling_key,
    split_error,
    unlisted_error,
)
from .normal import norm_cdf, norm_ppf, norm_sf
from .options import (
    Alternative,
    NanPolicy,
    ZeroDivision,
    check_alternative,
    check_choice,
    check_nan_policy,
    check_table_nan_policy,
    check_zero_division,
    format_value,
    missing_rating_error,
    warn_at_caller,
)
from .public_names import publish
from .request import PROPAGATED, Counted, Request
from .statistic import INT64_SAFE, cell_kappas, kappas, variances
from .weights import (
    GWET_WEIGHTS,
    KRIPPENDORFF_LEVELS,
    WeightsLike,
    agreement_weight_matrix,
    category_values,
    check_agreement_weights,
    check_weights,
    gwet_weights,
    integer_weights,
    krippendorff_metric,
    needs_order,
    weight_matrix,
    weights_name,
)

__all__ = [
    "FAST_MIN",
    "GUESS_SAMPLE",
    "HUGE",
    "INT64_SAFE",
    "KRIPPENDORFF_LEVELS",
    "MAX_TABLE_CELLS",
    "PROPAGATED",
    "THRESHOLD_HINT",
    "Alternative",
    "Counted",
    "EncodedRatings",
    "NanPolicy",
    "QuadraticSums",
    "Request",
    "WeightsLike",
    "Where",
    "ZeroDivision",
    "agreement_weight_matrix",
    "category_values",
    "cell_kappas",
    "check_agreement_weights",
    "check_alternative",
    "check_bound",
    "check_choice",
    "check_label_spellings",
    "check_labels",
    "check_nan_policy",
    "check_rating_bounds",
    "check_table",
    "check_table_nan_policy",
    "check_table_size",
    "check_weights",
    "check_zero_division",
    "confusion_table",
    "count_pairs",
    "count_table",
    "encode_ratings",
    "fast_ratings",
    "find_split",
    "find_unlisted",
    "format_value",
    "guess_range",
    "guessed_categories",
    "host_view",
    "import_optional",
    "integer_weights",
    "is_dataframe",
    "is_device_array",
    "is_lazy_frame",
    "is_missing_scalar",
    "is_pandas_object",
    "is_torch_tensor",
    "kappa_from_quadratic_sums",
    "kappa_from_table",
    "kappas",
    "krippendorff_metric",
    "missing_rating_error",
    "needs_order",
    "norm_cdf",
    "norm_ppf",
    "norm_sf",
    "numpy_pair",
    "numpy_view",
    "parallel_section",
    "publish",
    "quadratic_sums",
    "quadratic_weighted_kappa",
    "qwk",
    "raise_unknown_rating",
    "read_sample_weight",
    "register_route",
    "route_names",
    "spelling_key",
    "split_error",
    "table_kappa",
    "to_column",
    "to_host",
    "unlisted_error",
    "use_parallel",
    "variances",
    "warn_at_caller",
    "weight_matrix",
    "weighted_kappa",
    "weighted_quadratic_sums",
    "weights_name",
]

# Several raters (appended; kept apart from the two-rater names above).
from .agreement import (
    COEFFICIENTS,
    Estimate,
    Linearized,
    coefficient_from_sums,
    conger_exact,
    conger_features,
    features,
    linearized_terms,
    rows_to_counts,
)
from .coded_raters import coded_rows
from .raters import (
    CountedRows,
    CountPatterns,
    RatingCodes,
    aggregate_patterns,
    count_patterns,
    distinct_rows,
    encode_rating_matrix,
    fast_rows,
    patterns_from_counts,
)
from .student_t import t_ppf, t_sf

__all__ += [
    "COEFFICIENTS",
    "GWET_WEIGHTS",
    "CountPatterns",
    "CountedRows",
    "Estimate",
    "Linearized",
    "RatingCodes",
    "aggregate_patterns",
    "coded_rows",
    "coefficient_from_sums",
    "conger_exact",
    "conger_features",
    "count_patterns",
    "distinct_rows",
    "encode_rating_matrix",
    "fast_rows",
    "features",
    "gwet_weights",
    "linearized_terms",
    "patterns_from_counts",
    "rows_to_counts",
    "t_ppf",
    "t_sf",
]

# Numeric ratings: the intraclass and concordance correlations (appended).
from .f_distribution import f_cdf, f_ppf, f_sf  # noqa: E402
from .icc_sums import AnovaSums, anova_sums, plain_anova_sums  # noqa: E402
from .numeric_ratings import NumericRatings, read_numeric_pair, read_numeric_ratings  # noqa: E402

__all__ += [
    "AnovaSums",
    "NumericRatings",
    "anova_sums",
    "f_cdf",
    "f_ppf",
    "f_sf",
    "plain_anova_sums",
    "read_numeric_pair",
    "read_numeric_ratings",
]
