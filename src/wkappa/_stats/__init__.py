"""Statistics on top of the core's tables: inference and intervals for two raters, the paired and
stratified comparisons, several raters, intraclass and concordance correlations, study planning,
thresholds, the streaming accumulators, explanations and plots."""

from __future__ import annotations

from .._core import Alternative
from .accumulator import KappaAccumulator
from .agreement_result import AGREEMENT_INTERVALS, COEFFICIENT_NAMES, AgreementResult
from .base_rates import base_rate_indices, specific_agreement
from .bootstrap import expanded_pvalue, smallest_pvalue
from .bootstrap_method import SeedLike
from .cluster import cluster_variance, read_groups, warn_few_clusters
from .concordance import CCCResult, ccc
from .explain import explain_table
from .fisher_z_interval import fisher_z_limits
from .frequencies import FRAME_PAIRED_WEIGHTS, FRAME_WEIGHTS, Frequencies, check_frequencies
from .gbdt_objective import QWKObjective
from .group_results import kappa_results, score_intervals
from .inference import (
    check_kappa0,
    cluster_robust,
    kappa_result,
    kappa_test,
    kappa_test_from_table,
)
from .intervals import one_sided, warn_undefined_intervals
from .intraclass import FORMS, ICCResult, check_form, check_icc0, icc, icc_all, icc_limits
from .intraclass_accumulator import ICCAccumulator, icc_from_moments
from .json_values import json_fields, json_value
from .mean import mean_kappa
from .paired import (
    paired_kappa_test,
    paired_kappa_test_from_cells,
    paired_kappa_test_from_cluster_tables,
    paired_kappa_test_from_table,
    weighted_paired_test,
)
from .panel import PanelComparison, rater_vs_panel
from .planning import KappaPlan, kappa_power, kappa_sample_size
from .results import (
    BootstrapMethod,
    ConfidenceInterval,
    KappaResult,
    PairedKappaResult,
    check_confidence_level,
)
from .score_interval import score_limits
from .several import agreement, agreement_from_counts, krippendorff_alpha, rating_categories
from .stratified import stratified_kappa_test, stratified_kappa_test_from_tables
from .stratified_result import StratifiedKappaResult
from .text_values import (
    DECIMALS,
    STATISTIC_DECIMALS,
    UNDEFINED,
    bound_name,
    bound_text,
    df_text,
    interpretation,
    interval_text,
    level_percent,
    number_text,
    p_phrase,
    pvalue_text,
)
from .thresholds import ThresholdResult, apply_thresholds, optimize_thresholds
from .two_groups import GroupAgreementResult, group_agreement

__all__ = [
    "AGREEMENT_INTERVALS",
    "COEFFICIENT_NAMES",
    "DECIMALS",
    "FORMS",
    "FRAME_PAIRED_WEIGHTS",
    "FRAME_WEIGHTS",
    "STATISTIC_DECIMALS",
    "UNDEFINED",
    "AgreementResult",
    "Alternative",
    "BootstrapMethod",
    "CCCResult",
    "ConfidenceInterval",
    "Frequencies",
    "GroupAgreementResult",
    "ICCAccumulator",
    "ICCResult",
    "KappaAccumulator",
    "KappaPlan",
    "KappaResult",
    "PairedKappaResult",
    "PanelComparison",
    "QWKObjective",
    "SeedLike",
    "StratifiedKappaResult",
    "ThresholdResult",
    "agreement",
    "agreement_from_counts",
    "apply_thresholds",
    "base_rate_indices",
    "bound_name",
    "bound_text",
    "ccc",
    "check_confidence_level",
    "check_form",
    "check_frequencies",
    "check_icc0",
    "check_kappa0",
    "cluster_robust",
    "cluster_variance",
    "df_text",
    "expanded_pvalue",
    "explain_table",
    "fisher_z_limits",
    "group_agreement",
    "icc",
    "icc_all",
    "icc_from_moments",
    "icc_limits",
    "interpretation",
    "interval_text",
    "json_fields",
    "json_value",
    "kappa_power",
    "kappa_result",
    "kappa_results",
    "kappa_sample_size",
    "kappa_test",
    "kappa_test_from_table",
    "krippendorff_alpha",
    "level_percent",
    "mean_kappa",
    "number_text",
    "one_sided",
    "optimize_thresholds",
    "p_phrase",
    "paired_kappa_test",
    "paired_kappa_test_from_cells",
    "paired_kappa_test_from_cluster_tables",
    "paired_kappa_test_from_table",
    "pvalue_text",
    "rater_vs_panel",
    "rating_categories",
    "read_groups",
    "score_intervals",
    "score_limits",
    "smallest_pvalue",
    "specific_agreement",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
    "warn_few_clusters",
    "warn_undefined_intervals",
    "weighted_paired_test",
]
