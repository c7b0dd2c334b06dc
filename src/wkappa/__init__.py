"""wkappa: exact, strict and fast Cohen's weighted kappa and quadratic weighted kappa (QWK)."""

from __future__ import annotations

from . import _backends as _backends  # registers the device and Dask routes
from . import exceptions
from ._core import confusion_table, kappa_from_table, quadratic_weighted_kappa, qwk, weighted_kappa
from ._stats import (
    BootstrapMethod,
    ConfidenceInterval,
    KappaAccumulator,
    KappaResult,
    PairedKappaResult,
    ThresholdResult,
    apply_thresholds,
    kappa_test,
    kappa_test_from_table,
    mean_kappa,
    optimize_thresholds,
    paired_kappa_test,
    paired_kappa_test_from_table,
)
from .exceptions import UndefinedKappaWarning, WkappaError

__version__ = "0.1.0"

__all__ = [
    "BootstrapMethod",
    "ConfidenceInterval",
    "KappaAccumulator",
    "KappaResult",
    "PairedKappaResult",
    "ThresholdResult",
    "UndefinedKappaWarning",
    "WkappaError",
    "__version__",
    "apply_thresholds",
    "confusion_table",
    "exceptions",
    "kappa_from_table",
    "kappa_test",
    "kappa_test_from_table",
    "mean_kappa",
    "optimize_thresholds",
    "paired_kappa_test",
    "paired_kappa_test_from_table",
    "quadratic_weighted_kappa",
    "qwk",
    "weighted_kappa",
]

# Several raters (appended).
from ._stats import (
    AgreementResult,
    PanelComparison,
    agreement,
    agreement_from_counts,
    krippendorff_alpha,
    rater_vs_panel,
)

__all__ += [
    "AgreementResult",
    "PanelComparison",
    "agreement",
    "agreement_from_counts",
    "krippendorff_alpha",
    "rater_vs_panel",
]

# Strata (appended).
from ._stats import (  # noqa: E402
    StratifiedKappaResult,
    stratified_kappa_test,
    stratified_kappa_test_from_tables,
)

__all__ += [
    "StratifiedKappaResult",
    "stratified_kappa_test",
    "stratified_kappa_test_from_tables",
]

# Study planning (appended).
from ._stats import KappaPlan, kappa_power, kappa_sample_size  # noqa: E402

__all__ += ["KappaPlan", "kappa_power", "kappa_sample_size"]

# Intraclass correlations (appended).
from ._stats import ICCResult, icc, icc_all  # noqa: E402

__all__ += ["ICCResult", "icc", "icc_all"]

# Concordance correlation (appended).
from ._stats import CCCResult, ccc  # noqa: E402

__all__ += ["CCCResult", "ccc"]

# Streaming intraclass correlations (appended).
from ._stats import ICCAccumulator  # noqa: E402

__all__ += ["ICCAccumulator"]

# Two groups of raters (appended).
from ._stats import GroupAgreementResult, group_agreement  # noqa: E402

__all__ += ["GroupAgreementResult", "group_agreement"]

# Keep last: pickles and reprs name the classes above `wkappa.X` (add new imports above this).
from ._core import publish  # noqa: E402

publish(globals())
del publish
