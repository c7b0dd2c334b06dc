"""The one meaning of sample weights and weighted tables in inference: frequency weights.

A point estimate (``weighted_kappa``, ``qwk``, ``KappaAccumulator.value``...) does not change
when every weight is multiplied by the same number, so it accepts any non-negative weights.
The Fleiss-Cohen-Everitt standard errors, the tests, the 'score' and 'fisher-z' intervals and
the table bootstrap instead take ``n = sum(O)`` as the number of independent pairs: a weight
of 3 counts a pair three times (SAS's WEIGHT statement, Stata's ``fweight``), so weights
that sum to 1 would claim a sample of one pair. These functions therefore refuse a weighted
table whose counts are not whole numbers, with an error that names the parameter and the
alternatives: integer counts, or the cluster-robust (sandwich) standard error of
``cluster=``, which does not depend on the scale of the weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import format_value
from ..exceptions import WkappaError

__all__ = [
    "ACCUMULATOR_COUNTS",
    "CUBE_COUNTS",
    "FRAME_PAIRED_WEIGHTS",
    "FRAME_WEIGHTS",
    "PAIRED_WEIGHTS",
    "RATING_WEIGHTS",
    "STRATA_TABLES",
    "STRATA_WEIGHTS",
    "TABLE_COUNTS",
    "Frequencies",
    "check_frequencies",
]

_POINT = "point estimates (weighted_kappa, qwk) accept any non-negative weights"


class Frequencies(NamedTuple):
    """How an entry point's message names the counts it checks and the fixes it offers."""

    subject: str  # what holds the weights, e.g. "`sample_weight`"
    hint: str  # the fix, a sentence starting with "Hint:"


RATING_WEIGHTS = Frequencies(
    "`sample_weight`",
    "Hint: pass integer counts, or pass `cluster=` (for example `cluster=np.arange(n)`, one "
    "cluster per pair) for the cluster-robust standard error, which does not depend on the "
    f"scale of the weights; {_POINT}.",
)
FRAME_WEIGHTS = Frequencies(
    "`sample_weight`",
    "Hint: use a column of integer counts, or pass `cluster=` naming a column of ids (a row "
    "id gives one cluster per row) for the cluster-robust standard error, which does not "
    f"depend on the scale of the weights; {_POINT}.",
)
PAIRED_WEIGHTS = Frequencies(
    "`sample_weight`",
    "Hint: pass integer counts, or pass `cluster=` (for example `cluster=np.arange(n)`, one "
    "cluster per item) for the cluster bootstrap, which does not depend on the scale of the "
    f"weights; {_POINT}.",
)
FRAME_PAIRED_WEIGHTS = Frequencies(
    "`sample_weight`",
    "Hint: use a column of integer counts, or pass `cluster=` naming a column of ids (a row "
    "id gives one cluster per row) for the cluster bootstrap, which does not depend on the "
    f"scale of the weights; {_POINT}.",
)
STRATA_WEIGHTS = Frequencies(
    "`sample_weight`",
    f"Hint: pass integer counts; {_POINT}, and wk.kappa_test(..., cluster=...) gives a "
    "cluster-robust standard error that does not depend on the scale of the weights.",
)
TABLE_COUNTS = Frequencies(
    "`table`",
    "Hint: pass the table of counts (for example round(proportions * n)); for weighted pairs "
    "use wk.kappa_test(y_true, y_pred, sample_weight=..., cluster=...) for the cluster-robust "
    "standard error, which does not depend on the scale of the weights, or "
    "wk.kappa_from_table for the point estimate alone.",
)
STRATA_TABLES = Frequencies(
    "`tables`",
    "Hint: pass the tables of counts (for example round(proportions * n)); "
    "wk.kappa_from_table gives each table's point estimate for any non-negative counts.",
)
CUBE_COUNTS = Frequencies(
    "`table`",
    "Hint: pass the K x K x K table of counts of items; for clustered items use "
    "wk.paired_kappa_test(..., cluster=...), which resamples whole clusters.",
)
ACCUMULATOR_COUNTS = Frequencies(
    "The accumulator's table (its `sample_weight`)",
    "Hint: update with integer `sample_weight` for result(); `value` gives the point "
    "estimate for any non-negative weights.",
)


# A weighted count this close to a whole number, relative to its size, is that number: a
# floating-point sum of whole-number weights can be off by a few units in the last place
# (an engine that scales them, or adds 0.1 ten times), never by 1e-9 of the count.
_WHOLE = 1e-9


def check_frequencies(
    table: np.ndarray,
    names: Frequencies,
    labels: Sequence[Any] | None = None,
    groups: Sequence[str] | None = None,
) -> None:
    """Raise a WkappaError unless every cell of the (weighted) table or tables is a whole
    number (to a relative ``_WHOLE``); integer arrays pass at once. The message names the
    first such cell by its two ratings when ``labels`` (the K categories of a K x K table or a
    stack of them) are given, and its table when ``groups`` names the tables of a (G, K, K)
    stack (then n is that group's total weight).

    Examples
    --------
    >>> check_frequencies(np.array([[[2.0, 0.0], [0.0, 1.0]], [[1.5, 0.5], [0.0, 1.0]]]),
    ...                   STRATA_TABLES, labels=["no", "yes"], groups=["prompt = 2", "prompt = 5"])
    Traceback (most recent call last):
    ...
    wkappa.exceptions.WkappaError: `tables` must give whole-number counts for standard errors, \
tests and intervals, which read them as frequency weights (a pair of weight 3 is three pairs; \
n = 3.0, the total weight of the group prompt = 5); got the weighted count 1.5 of the pairs \
rated ('no', 'no') in the group prompt = 5. Hint: pass the tables of counts (for example \
round(proportions * n)); wk.kappa_from_table gives each table's point estimate for any \
non-negative counts.
    """
    counts = np.asarray(table)
    if counts.dtype.kind in "biu" or counts.size == 0:
        return
    with np.errstate(invalid="ignore"):  # nan cells (a propagated missing rating) pass
        off = np.abs(counts - np.rint(counts))
        fractional = np.isfinite(counts) & (off > _WHOLE * counts)
    if not fractional.any():
        return
    index = [int(i) for i in np.unravel_index(int(np.argmax(fractional)), counts.shape)]
    first = counts[tuple(index)]
    total = float(counts.sum())
    whose, where = "", ""
    if groups is not None and counts.ndim == 3:
        total = float(counts[index[0]].sum())
        whose = f" of the group {groups[index[0]]}"
        where = f" in the group {groups[index[0]]}"
    pairs = ""
    if labels is not None and len(index) >= 2:
        rated = (format_value(labels[index[-2]]), format_value(labels[index[-1]]))
        pairs = f" of the pairs rated ({rated[0]}, {rated[1]})"
    raise WkappaError(
        f"{names.subject} must give whole-number counts for standard errors, tests and "
        "intervals, which read them as frequency weights (a pair of weight 3 is three pairs; "
        f"n = {format_value(total)}, the total weight{whose}); got the weighted count "
        f"{format_value(float(first))}{pairs}{where}. {names.hint}"
    )
