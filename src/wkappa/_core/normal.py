"""The standard normal distribution without scipy: tail probability and quantile."""

from __future__ import annotations

import functools
import math
from typing import Any

__all__ = ["norm_cdf", "norm_ppf", "norm_sf"]


@functools.cache
def _standard() -> Any:
    # statistics (with fractions, decimal and random) costs ~5 ms: imported on first use,
    # not by `import wkappa`.
    from statistics import NormalDist

    return NormalDist()


def norm_sf(z: float) -> float:
    """``P(Z > z)``, accurate far into the upper tail (``erfc``, not ``1 - cdf``)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def norm_cdf(z: float) -> float:
    """``P(Z <= z)``, accurate far into the lower tail."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def norm_ppf(p: float) -> float:
    """The quantile ``z`` with ``P(Z <= z) = p`` for ``0 < p < 1`` (Wichura's AS 241)."""
    return float(_standard().inv_cdf(p))
