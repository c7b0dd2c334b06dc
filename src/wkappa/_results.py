"""Where pickles written by wkappa 0.1.0 look for the result classes (they now live in
:mod:`wkappa._stats`); nothing in the package imports this module."""

from ._stats import BootstrapMethod, ConfidenceInterval, KappaResult, PairedKappaResult

__all__ = ["BootstrapMethod", "ConfidenceInterval", "KappaResult", "PairedKappaResult"]
