"""Confidence intervals and bootstrap settings shared by the inference results."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._core import format_value
from ..exceptions import WkappaError

if TYPE_CHECKING:
    from numpy.random import Generator, SeedSequence

__all__ = [
    "BootstrapMethod",
    "ConfidenceInterval",
    "check_confidence_level",
    "check_method",
    "json_float",
    "json_label",
    "make_rng",
]


def json_float(value: float) -> float | None:
    """A float for JSON: nan and infinities become None."""
    value = float(value)
    return value if math.isfinite(value) else None


def json_label(label: Any) -> Any:
    if isinstance(label, np.generic):
        return label.item()
    if isinstance(label, (str, int, float, bool)) or label is None:
        return label
    return str(label)


def check_confidence_level(confidence_level: Any) -> float:
    """Validate a confidence level: a real number strictly between 0 and 1."""
    if isinstance(confidence_level, (bool, str)) or not isinstance(
        confidence_level, (int, float, np.integer, np.floating)
    ):
        raise WkappaError(
            f"`confidence_level` must be a number in (0, 1); got {format_value(confidence_level)}."
        )
    level = float(confidence_level)
    if not 0.0 < level < 1.0:
        hint = " Hint: 95% is confidence_level=0.95." if 1.0 < level <= 100.0 else ""
        raise WkappaError(
            f"`confidence_level` must be strictly between 0 and 1; got {level!r}.{hint}"
        )
    return level


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval; unpacks as ``low, high = ci``.

    Attributes
    ----------
    low, high : float
        The interval's end points (nan when kappa is undefined).
    confidence_level : float
        The nominal coverage, e.g. 0.95.
    method : str
        'asymptotic', 'percentile' or 'bca'.
    n_resamples : int
        Bootstrap replicates drawn (0 for the asymptotic interval).
    n_undefined : int
        Bootstrap replicates whose kappa was undefined and were dropped (see
        :class:`BootstrapMethod`).

    Examples
    --------
    >>> import wkappa as wk
    >>> ci = wk.kappa_test_from_table([[20, 5], [4, 15]]).confidence_interval(0.9)
    >>> low, high = ci
    >>> round(low, 4), round(ci[1], 4), ci.method
    (0.3837, 0.7879, 'asymptotic')
    """

    low: float
    high: float
    confidence_level: float = 0.95
    method: str = "asymptotic"
    n_resamples: int = 0
    n_undefined: int = 0

    def __iter__(self) -> Iterator[float]:
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> float:
        return (self.low, self.high)[index]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: nan end points become None."""
        return {
            "low": json_float(self.low),
            "high": json_float(self.high),
            "confidence_level": self.confidence_level,
            "method": self.method,
            "n_resamples": self.n_resamples,
            "n_undefined": self.n_undefined,
        }


@dataclass(frozen=True)
class BootstrapMethod:
    """How to bootstrap a kappa: resample the K x K table (multinomial over its cells).

    Parameters
    ----------
    n_resamples : int, default 9999
        Bootstrap replicates B.
    method : {'percentile', 'bca'}, default 'percentile'
        Percentile interval, or bias-corrected and accelerated (BCa; Efron 1987) with the
        acceleration from the table-level jackknife.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Passed to :func:`numpy.random.default_rng`: the same integer seed gives the same
        interval; a Generator is advanced.

    Notes
    -----
    Drawing n pairs with replacement from the data is a multinomial draw of n over the table's
    cells with probabilities ``O / n``, so B replicates cost O(B K²) whatever n is.

    * **Weighted tables.** A table of non-integer (sample-weighted) counts is treated as
      frequency weights, like SAS's WEIGHT statement: replicates draw ``round(sum(O))`` pairs
      with probabilities ``O / sum(O)``. For survey (sampling) weights neither this nor the
      asymptotic standard error is appropriate.
    * **Undefined replicates.** A replicate whose kappa is undefined (``sum(W*E) == 0``, e.g.
      every resampled pair in one category) is dropped and counted in
      :attr:`ConfidenceInterval.n_undefined`; the interval is then conditional on a defined
      kappa. More than 1% dropped gives an :class:`~wkappa.exceptions.UndefinedKappaWarning`;
      if all are undefined the interval is (nan, nan).

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_test_from_table([[20, 5, 1], [4, 15, 6], [0, 3, 16]])
    >>> ci = result.confidence_interval(method=wk.BootstrapMethod(999, method="bca", rng=1))
    >>> ci.method, ci.n_resamples, bool(ci.low < result.statistic < ci.high)
    ('bca', 999, True)
    """

    n_resamples: int = 9999
    method: Literal["percentile", "bca"] = "percentile"
    rng: int | Generator | SeedSequence | None = None

    def __post_init__(self) -> None:
        n = self.n_resamples
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise WkappaError(f"`n_resamples` must be a positive integer; got {format_value(n)}.")
        if self.method not in ("percentile", "bca"):
            raise WkappaError(
                f"`method` must be 'percentile' or 'bca'; got {format_value(self.method)}."
            )
        make_rng(self.rng)


def make_rng(rng: Any) -> np.random.Generator:
    """``numpy.random.default_rng(rng)`` with a WkappaError naming ``rng`` for bad seeds."""
    if isinstance(rng, (bool, float, str)):
        raise WkappaError(_bad_rng(rng))
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise WkappaError(_bad_rng(rng)) from None


def _bad_rng(rng: Any) -> str:
    return (
        "`rng` must be None, a non-negative integer seed, a numpy SeedSequence or a numpy "
        f"Generator; got {format_value(rng)}."
    )


def check_method(method: Any) -> Literal["asymptotic"] | BootstrapMethod:
    if isinstance(method, BootstrapMethod):
        return method
    if method == "asymptotic":
        return "asymptotic"
    if method == "bootstrap":
        return BootstrapMethod()
    if method in ("percentile", "bca"):
        return BootstrapMethod(method=method)
    raise WkappaError(
        "`method` must be 'asymptotic', 'bootstrap' or a BootstrapMethod(...); "
        f"got {format_value(method)}."
    )
