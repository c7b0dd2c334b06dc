"""Where pickles written by wkappa 0.1.0 look for :class:`~wkappa.KappaAccumulator` (the class
now lives in :mod:`wkappa._stats`); nothing in the package imports this module."""

from ._stats import KappaAccumulator

__all__ = ["KappaAccumulator"]
