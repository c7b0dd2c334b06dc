"""How a bootstrap draws: :class:`BootstrapMethod` (replicates, percentile or BCa, seed) and
the checks of ``n_resamples=`` and ``rng=`` that every resampling or simulating entry point
shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ForwardRef, Literal, TypeAlias, Union

import numpy as np

from .._core import check_choice, check_count, format_value
from ..exceptions import WkappaError

__all__ = ["BootstrapMethod", "SeedLike", "check_resamples", "make_rng", "rng_error"]

# What every ``rng=`` keyword takes: the seeds of ``numpy.random.default_rng`` (a legacy
# RandomState or a BitGenerator is used through its bit generator, and advanced). At run time
# the numpy.random classes are forward references resolved in this module: naming
# numpy.random here would import it with wkappa, which needs it only to draw, and
# ``typing.get_type_hints`` of any function taking ``rng: SeedLike`` still resolves them
# (importing numpy.random then), wherever that function is defined.
if TYPE_CHECKING:
    SeedLike: TypeAlias = (
        int
        | np.random.Generator
        | np.random.SeedSequence
        | np.random.BitGenerator
        | np.random.RandomState
        | None
    )
else:
    _SEEDS = (
        int,
        *(
            ForwardRef(f"np.random.{name}", module=__name__)
            for name in ("Generator", "SeedSequence", "BitGenerator", "RandomState")
        ),
        None,
    )
    SeedLike = Union[_SEEDS]  # noqa: UP007 (a forward reference cannot be an operand of |)


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
    rng : None, int, numpy.random.SeedSequence, numpy.random.Generator or numpy.random.RandomState
        Passed to :func:`numpy.random.default_rng`: the same integer seed gives the same
        interval; a Generator (or a legacy RandomState) is advanced.

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
    rng: SeedLike = None

    def __post_init__(self) -> None:
        check_resamples(self.n_resamples)
        check_choice(self.method, "method", ("percentile", "bca"))
        make_rng(self.rng)


def check_resamples(n_resamples: Any) -> int:
    """The number of bootstrap replicates: an integer of at least 2 (one replicate has no
    spread, and its "interval" need not contain the estimate)."""
    return check_count(
        n_resamples,
        "n_resamples",
        2,
        "the number of bootstrap replicates; 999 or more for an interval",
    )


def make_rng(rng: Any) -> np.random.Generator:
    """``numpy.random.default_rng(rng)`` with a WkappaError naming ``rng`` for bad seeds."""
    if isinstance(rng, (bool, float, str)):
        raise rng_error(rng)
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise rng_error(rng) from None


def rng_error(rng: Any) -> WkappaError:
    """The error for a bad ``rng=`` seed."""
    return WkappaError(
        "`rng` must be None, a non-negative integer seed, or a numpy SeedSequence, Generator, "
        f"BitGenerator or RandomState (what numpy.random.default_rng takes); got "
        f"{format_value(rng)}."
    )
