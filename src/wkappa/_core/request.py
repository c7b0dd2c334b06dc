"""What an entry point asks the counting routes for, and what a route answers.

See :mod:`wkappa._core.dispatch` for the routes and their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .encode import MAX_TABLE_CELLS
from .kernels import QuadraticSums
from .options import NanPolicy
from .weights import needs_order

__all__ = ["PROPAGATED", "Counted", "Request"]


class Request(NamedTuple):
    """A counting request, its options already validated by the entry point.

    ``labels``, ``min_rating``, ``max_rating`` and ``sample_weight`` are as the user gave them
    (the routes read and check them, each raising the same error). ``ordered``: the category
    order matters (every weighting but 'unweighted'). ``quadratic``: quadratic weights, so the
    five sums suffice where the table is not needed (see :meth:`use_sums`). ``propagate``:
    whether the entry point takes ``nan_policy='propagate'`` (a table or a test result does
    not), so that the error of a missing rating under 'raise' offers it only then.
    """

    labels: Any = None
    min_rating: Any = None
    max_rating: Any = None
    sample_weight: Any = None
    nan_policy: NanPolicy = "raise"
    ordered: bool = True
    quadratic: bool = False
    propagate: bool = True

    @classmethod
    def for_weights(
        cls,
        weights: str | np.ndarray,
        labels: Any,
        min_rating: Any,
        max_rating: Any,
        sample_weight: Any,
        nan_policy: NanPolicy,
        *,
        sums: bool = False,
    ) -> Request:
        """The request of a kappa with the checked ``weights``: the category order matters
        unless they are 'unweighted'; with ``sums``, quadratic weights may be answered by the
        five sums instead of the table (a point estimate; a test needs the table)."""
        quadratic = sums and isinstance(weights, str) and weights == "quadratic"
        return cls(
            labels,
            min_rating,
            max_rating,
            sample_weight,
            nan_policy,
            needs_order(weights),
            quadratic,
        )

    def encode_options(self) -> dict[str, Any]:
        """The options every reader of the ratings takes, as keyword arguments."""
        return {
            "labels": self.labels,
            "min_rating": self.min_rating,
            "max_rating": self.max_rating,
            "sample_weight": self.sample_weight,
            "nan_policy": self.nan_policy,
        }

    def use_sums(self, n_categories: int, weighted: bool) -> bool:
        """The one rule for quadratic weights: the exact five sums unless the pairs are
        sample-weighted, where the table is preferred (its float sums do not cancel), as long
        as K x K cells are affordable."""
        return self.quadratic and (not weighted or n_categories**2 > MAX_TABLE_CELLS)


class Counted(NamedTuple):
    """A route's answer: the table or the QWK sums, and the categories they index.

    ``table`` is (K, K) int64 counts (float64 with sample weights); ``sums`` replaces it when
    :meth:`Request.use_sums` says so. ``labels`` are the K categories in order (a ``range``
    for integer ratings). All None: a missing rating under ``nan_policy='propagate'``.
    """

    table: np.ndarray | None
    sums: QuadraticSums | None
    labels: Sequence[Any] | None


PROPAGATED = Counted(None, None, None)
