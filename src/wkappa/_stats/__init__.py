"""Statistics on top of the core's tables: inference and intervals for two raters, the paired and
stratified comparisons, several raters, intraclass and concordance correlations, study planning,
thresholds, the streaming accumulators, explanations and plots."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .._core import Alternative, pin_loaded
from .accumulator import KappaAccumulator
from .agreement_result import AGREEMENT_INTERVALS, COEFFICIENT_NAMES, AgreementResult
from .base_rates import base_rate_indices, pooled_base_rate_indices, specific_agreement
from .bootstrap import expanded_pvalue, smallest_pvalue
from .bootstrap_method import SeedLike
from .cluster import (
    cluster_variance,
    read_groups,
    warn_few_clusters,
    warn_single_cluster_groups,
)
from .explain import explain_table
from .fisher_z_interval import fisher_z_limits
from .frequencies import FRAME_PAIRED_WEIGHTS, FRAME_WEIGHTS, Frequencies, check_frequencies
from .gbdt_objective import (
    LABELS_HINT,
    NO_LABELS_HINT,
    PREDICTIONS_HINT,
    QWKObjective,
    gbdt_numbers,
    nonfinite_row,
)
from .gbdt_slots import (
    METRIC_SLOTS,
    CatBoostRefusals,
    calling_slot,
    check_catboost_logits,
    check_xgboost_margins,
    instance_method,
    lightgbm_eval_dataset,
    metric_called_as_objective,
    xgboost_minimising_stop,
    xgboost_training_labels,
)
from .group_results import (
    cluster_tests,
    kappa_results,
    score_intervals,
    table_tests,
    warn_cluster_groups,
    warn_results_out_of_reach,
)
from .inference import (
    check_kappa0,
    cluster_robust,
    kappa_result,
    kappa_test,
    kappa_test_from_table,
)
from .intervals import (
    KAPPA_RANGE,
    collapsed_groups,
    one_sided,
    sided_limits,
    two_sided_level,
    warn_undefined_intervals,
)
from .json_values import json_fields, json_value
from .kappa_range import reach_warning_ignored
from .mean import mean_kappa
from .paired import (
    paired_kappa_test,
    paired_kappa_test_from_cells,
    paired_kappa_test_from_cluster_tables,
    paired_kappa_test_from_table,
    weighted_paired_test,
)
from .results import (
    BootstrapMethod,
    ConfidenceInterval,
    KappaResult,
    PairedKappaResult,
    check_confidence_level,
)
from .score_interval import score_limits
from .several import agreement, agreement_from_counts, krippendorff_alpha, rating_categories
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
    probability_phrase,
    probability_text,
    pvalue_text,
    reliability_band,
    statistic_text,
)

if TYPE_CHECKING:  # loaded on first use: see __getattr__ below
    from .ccc_planning import CCCPlan, ccc_power, ccc_sample_size
    from .concordance import CCCResult, ccc
    from .gbdt_scorer import GbdtScorer
    from .icc_planning import ICCPlan, icc_power, icc_sample_size
    from .intraclass import (
        FORMS,
        ICCResult,
        check_form,
        check_icc0,
        disagreement_note,
        icc,
        icc_all,
        icc_limits,
        rated_items,
    )
    from .intraclass_accumulator import ICCAccumulator, icc_from_moments
    from .panel import PanelComparison, rater_vs_panel
    from .planning import KappaPlan, kappa_power, kappa_sample_size
    from .stratified import (
        build_stratified,
        stratified_kappa_test,
        stratified_kappa_test_from_tables,
    )
    from .stratified_result import StratifiedKappaResult
    from .thresholds import ThresholdResult, apply_thresholds, optimize_thresholds
    from .two_groups import GroupAgreementResult, group_agreement


__all__ = [
    "AGREEMENT_INTERVALS",
    "COEFFICIENT_NAMES",
    "DECIMALS",
    "FORMS",
    "FRAME_PAIRED_WEIGHTS",
    "FRAME_WEIGHTS",
    "KAPPA_RANGE",
    "LABELS_HINT",
    "METRIC_SLOTS",
    "NO_LABELS_HINT",
    "PREDICTIONS_HINT",
    "STATISTIC_DECIMALS",
    "UNDEFINED",
    "AgreementResult",
    "Alternative",
    "BootstrapMethod",
    "CCCPlan",
    "CCCResult",
    "CatBoostRefusals",
    "ConfidenceInterval",
    "Frequencies",
    "GbdtScorer",
    "GroupAgreementResult",
    "ICCAccumulator",
    "ICCPlan",
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
    "build_stratified",
    "calling_slot",
    "ccc",
    "ccc_power",
    "ccc_sample_size",
    "check_catboost_logits",
    "check_confidence_level",
    "check_form",
    "check_frequencies",
    "check_icc0",
    "check_kappa0",
    "check_xgboost_margins",
    "cluster_robust",
    "cluster_tests",
    "cluster_variance",
    "collapsed_groups",
    "df_text",
    "disagreement_note",
    "expanded_pvalue",
    "explain_table",
    "fisher_z_limits",
    "gbdt_numbers",
    "group_agreement",
    "icc",
    "icc_all",
    "icc_from_moments",
    "icc_limits",
    "icc_power",
    "icc_sample_size",
    "instance_method",
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
    "lightgbm_eval_dataset",
    "mean_kappa",
    "metric_called_as_objective",
    "nonfinite_row",
    "number_text",
    "one_sided",
    "optimize_thresholds",
    "p_phrase",
    "paired_kappa_test",
    "paired_kappa_test_from_cells",
    "paired_kappa_test_from_cluster_tables",
    "paired_kappa_test_from_table",
    "pooled_base_rate_indices",
    "probability_phrase",
    "probability_text",
    "pvalue_text",
    "rated_items",
    "rater_vs_panel",
    "rating_categories",
    "reach_warning_ignored",
    "read_groups",
    "reliability_band",
    "score_intervals",
    "score_limits",
    "sided_limits",
    "smallest_pvalue",
    "specific_agreement",
    "statistic_text",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
    "table_tests",
    "two_sided_level",
    "warn_cluster_groups",
    "warn_few_clusters",
    "warn_results_out_of_reach",
    "warn_single_cluster_groups",
    "warn_undefined_intervals",
    "weighted_paired_test",
    "xgboost_minimising_stop",
    "xgboost_training_labels",
]

# The subjects a call may not need load when one of their names is first looked up, so that
# ``import wkappa`` does not pay for them: the name's module (under this package).
_ON_FIRST_USE = {
    "CCCPlan": "ccc_planning",
    "CCCResult": "concordance",
    "FORMS": "intraclass",
    "GbdtScorer": "gbdt_scorer",
    "GroupAgreementResult": "two_groups",
    "ICCAccumulator": "intraclass_accumulator",
    "ICCPlan": "icc_planning",
    "ICCResult": "intraclass",
    "KappaPlan": "planning",
    "PanelComparison": "panel",
    "StratifiedKappaResult": "stratified_result",
    "ThresholdResult": "thresholds",
    "apply_thresholds": "thresholds",
    "build_stratified": "stratified",
    "ccc": "concordance",
    "ccc_power": "ccc_planning",
    "ccc_sample_size": "ccc_planning",
    "check_form": "intraclass",
    "check_icc0": "intraclass",
    "disagreement_note": "intraclass",
    "rated_items": "intraclass",
    "group_agreement": "two_groups",
    "icc": "intraclass",
    "icc_all": "intraclass",
    "icc_from_moments": "intraclass_accumulator",
    "icc_limits": "intraclass",
    "icc_power": "icc_planning",
    "icc_sample_size": "icc_planning",
    "kappa_power": "planning",
    "kappa_sample_size": "planning",
    "optimize_thresholds": "thresholds",
    "rater_vs_panel": "panel",
    "stratified_kappa_test": "stratified",
    "stratified_kappa_test_from_tables": "stratified",
}


def __getattr__(name: str) -> Any:
    """Load the subject that defines ``name`` (one of ``_ON_FIRST_USE``) and keep the name."""
    home = _ON_FIRST_USE.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{home}")
    pin_loaded(vars(module))
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
