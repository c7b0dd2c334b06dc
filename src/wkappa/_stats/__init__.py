"""Statistics on top of the core's tables: inference, intervals, the bootstrap, the paired
comparison, mean kappa, thresholds, the streaming accumulator, explanations and plots."""

from __future__ import annotations

from .._core import Alternative
from .accumulator import KappaAccumulator
from .explain import explain_table
from .gbdt_objective import QWKObjective
from .inference import kappa_test, kappa_test_from_table
from .intervals import fisher_z_limits, one_sided, score_limits
from .mean import mean_kappa
from .paired import (
    DENSE_CUBE_CELLS,
    expanded_pvalue,
    paired_kappa_test,
    paired_kappa_test_from_cells,
    paired_kappa_test_from_table,
)
from .results import (
    BootstrapMethod,
    ConfidenceInterval,
    KappaResult,
    PairedKappaResult,
    check_confidence_level,
)
from .thresholds import ThresholdResult, apply_thresholds, optimize_thresholds

__all__ = [
    "COEFFICIENT_NAMES",
    "DENSE_CUBE_CELLS",
    "Alternative",
    "BootstrapMethod",
    "ConfidenceInterval",
    "KappaAccumulator",
    "KappaResult",
    "PairedKappaResult",
    "QWKObjective",
    "ThresholdResult",
    "apply_thresholds",
    "check_confidence_level",
    "expanded_pvalue",
    "explain_table",
    "fisher_z_limits",
    "kappa_test",
    "kappa_test_from_table",
    "mean_kappa",
    "optimize_thresholds",
    "paired_kappa_test",
    "paired_kappa_test_from_cells",
    "paired_kappa_test_from_table",
    "score_limits",
]

# Several raters (appended).
from .agreement_result import COEFFICIENT_NAMES, AgreementResult
from .panel import PanelComparison, rater_vs_panel
from .several import (
    agreement,
    agreement_from_counts,
    krippendorff_alpha,
    rating_categories,
)

__all__ += [
    "AgreementResult",
    "PanelComparison",
    "agreement",
    "agreement_from_counts",
    "krippendorff_alpha",
    "rater_vs_panel",
    "rating_categories",
]

# Strata and clusters (appended).
from .cluster import cluster_variance  # noqa: E402
from .inference import kappa_result  # noqa: E402
from .stratified import (  # noqa: E402
    StratifiedKappaResult,
    stratified_kappa_test,
    stratified_kappa_test_from_tables,
)

__all__ += [
    "StratifiedKappaResult",
    "cluster_variance",
    "kappa_result",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
]

# Study planning (appended).
from .planning import KappaPlan, kappa_power, kappa_sample_size  # noqa: E402

__all__ += ["KappaPlan", "kappa_power", "kappa_sample_size"]

# Intraclass correlations (appended).
from .intraclass import FORMS, ICCResult, check_form, check_icc0, icc, icc_all  # noqa: E402

__all__ += ["FORMS", "ICCResult", "check_form", "check_icc0", "icc", "icc_all"]

# Concordance correlation (appended).
from .concordance import CCCResult, ccc  # noqa: E402

__all__ += ["CCCResult", "ccc"]

# Base rates and per-category agreement (why kappa is low while raw agreement is high).
from .base_rates import base_rate_indices, specific_agreement  # noqa: E402
from .results import interpretation  # noqa: E402

__all__ += ["base_rate_indices", "interpretation", "specific_agreement"]

# Streaming intraclass correlations (appended).
from .intraclass_accumulator import ICCAccumulator, icc_from_moments  # noqa: E402

__all__ += ["ICCAccumulator", "icc_from_moments"]
__all__ += ["one_sided"]

# Two groups of raters (appended).
from .two_groups import GroupAgreementResult, group_agreement  # noqa: E402

__all__ += ["GroupAgreementResult", "group_agreement"]
