"""Where pickles written by wkappa 0.1.0 look for :class:`~wkappa.ThresholdResult` (it now
lives in :mod:`wkappa._stats`); nothing in the package imports this module."""

from ._stats import ThresholdResult

__all__ = ["ThresholdResult"]
