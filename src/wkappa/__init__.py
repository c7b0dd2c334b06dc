"""wkappa: exact, strict and fast Cohen's weighted kappa and quadratic weighted kappa (QWK)."""

from __future__ import annotations

from . import exceptions
from ._accumulator import KappaAccumulator
from ._kappa import (
    confusion_table,
    kappa_from_table,
    quadratic_weighted_kappa,
    qwk,
    weighted_kappa,
)
from .exceptions import UndefinedKappaWarning, WkappaError

__version__ = "0.1.0"

__all__ = [
    "KappaAccumulator",
    "UndefinedKappaWarning",
    "WkappaError",
    "__version__",
    "confusion_table",
    "exceptions",
    "kappa_from_table",
    "quadratic_weighted_kappa",
    "qwk",
    "weighted_kappa",
]
