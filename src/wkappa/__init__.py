"""wkappa: exact, strict and fast Cohen's weighted kappa and quadratic weighted kappa (QWK),
and agreement between several raters.

The public names by subject (each is documented in the API reference):

* two raters: :func:`weighted_kappa` (:func:`quadratic_weighted_kappa`, :func:`qwk`),
  :func:`kappa_from_table`, :func:`confusion_table`;
* inference for two raters: :func:`kappa_test` (:class:`KappaResult`),
  :func:`paired_kappa_test` (:class:`PairedKappaResult`), :func:`stratified_kappa_test`
  (:class:`StratifiedKappaResult`), :class:`KappaAccumulator`, :func:`mean_kappa`;
* thresholds for ordinal predictions: :func:`optimize_thresholds`, :func:`apply_thresholds`;
* several raters: :func:`agreement`, :func:`agreement_from_counts`, :func:`krippendorff_alpha`
  (:class:`AgreementResult`), :func:`rater_vs_panel` (:class:`PanelComparison`),
  :func:`group_agreement` (:class:`GroupAgreementResult`);
* numeric ratings: :func:`icc`, :func:`icc_all`, :class:`ICCAccumulator` (:class:`ICCResult`),
  :func:`ccc` (:class:`CCCResult`);
* study planning: :func:`kappa_power`, :func:`kappa_sample_size` (:class:`KappaPlan`),
  :func:`icc_power`, :func:`icc_sample_size` (:class:`ICCPlan`), :func:`ccc_power`,
  :func:`ccc_sample_size` (:class:`CCCPlan`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _backends as _backends  # registers the device and Dask routes
from . import _stats, exceptions
from ._core import (
    confusion_table,
    kappa_from_table,
    publish,
    quadratic_weighted_kappa,
    qwk,
    weighted_kappa,
)
from ._stats import (
    AgreementResult,
    BootstrapMethod,
    ConfidenceInterval,
    KappaAccumulator,
    KappaResult,
    PairedKappaResult,
    agreement,
    agreement_from_counts,
    kappa_test,
    kappa_test_from_table,
    krippendorff_alpha,
    mean_kappa,
    paired_kappa_test,
    paired_kappa_test_from_table,
)
from .exceptions import (
    FewClustersWarning,
    PerfectAgreementWarning,
    PlanApproximationWarning,
    UndefinedKappaWarning,
    UndefinedReliabilityWarning,
    WkappaError,
    WkappaTypeError,
)

if TYPE_CHECKING:  # loaded on first use: see __getattr__ below
    from ._stats import (
        CCCPlan,
        CCCResult,
        GroupAgreementResult,
        ICCAccumulator,
        ICCPlan,
        ICCResult,
        KappaPlan,
        PanelComparison,
        StratifiedKappaResult,
        ThresholdResult,
        apply_thresholds,
        ccc,
        ccc_power,
        ccc_sample_size,
        group_agreement,
        icc,
        icc_all,
        icc_power,
        icc_sample_size,
        kappa_power,
        kappa_sample_size,
        optimize_thresholds,
        rater_vs_panel,
        stratified_kappa_test,
        stratified_kappa_test_from_tables,
    )

__version__ = "0.1.0"

__all__ = [
    "AgreementResult",
    "BootstrapMethod",
    "CCCPlan",
    "CCCResult",
    "ConfidenceInterval",
    "FewClustersWarning",
    "GroupAgreementResult",
    "ICCAccumulator",
    "ICCPlan",
    "ICCResult",
    "KappaAccumulator",
    "KappaPlan",
    "KappaResult",
    "PairedKappaResult",
    "PanelComparison",
    "PerfectAgreementWarning",
    "PlanApproximationWarning",
    "StratifiedKappaResult",
    "ThresholdResult",
    "UndefinedKappaWarning",
    "UndefinedReliabilityWarning",
    "WkappaError",
    "WkappaTypeError",
    "__version__",
    "agreement",
    "agreement_from_counts",
    "apply_thresholds",
    "ccc",
    "ccc_power",
    "ccc_sample_size",
    "confusion_table",
    "exceptions",
    "group_agreement",
    "icc",
    "icc_all",
    "icc_power",
    "icc_sample_size",
    "kappa_from_table",
    "kappa_power",
    "kappa_sample_size",
    "kappa_test",
    "kappa_test_from_table",
    "krippendorff_alpha",
    "mean_kappa",
    "optimize_thresholds",
    "paired_kappa_test",
    "paired_kappa_test_from_table",
    "quadratic_weighted_kappa",
    "qwk",
    "rater_vs_panel",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
    "weighted_kappa",
]

# Pickles and reprs name the classes above ``wkappa.X``, not the private module defining them.
publish(globals())
del publish


def __getattr__(name: str) -> Any:
    """The names of the subjects ``wkappa._stats`` loads on first use (ICC and CCC, planning,
    thresholds, panels, strata): ``import wkappa`` does not pay for them."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_stats, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
