"""What :mod:`wkappa.keras` says about the rows it refuses: the errors of the metric's
strict checks and of the loss's class indices, with the fix a Keras user types.

Kept apart from :mod:`wkappa.keras` (the metric and the loss) and :mod:`._keras_inputs`
(decoding a batch): this module only words errors, from plain Python values, and imports
no backend.
"""

from __future__ import annotations

import math
from typing import Any

from ._core import format_value, one_based_hint
from .exceptions import WkappaError

__all__ = ["REJECTED", "keras_one_based_hint", "loss_index_error", "rejected_error"]

# What the metric's update_state can reject, in the order of its `rejected` counters; one
# more counter follows them: the rejected ``y_true`` rows whose index is num_classes.
REJECTED = ("y_true", "y_pred", "sample_weight")


def keras_one_based_hint(index: Any, k: int) -> str:
    """:func:`wkappa._core.one_based_hint` (when ``index`` is ``k``) with the Keras call that
    fixes it: fit on the labels shifted down by one and shift the predictions back up."""
    hint = one_based_hint(_single(index), k)
    if not hint:
        return ""
    return (
        f"{hint} In Keras: model.fit(x, y - 1, validation_data=(x_val, y_val - 1), ...) "
        "and add 1 to the predicted classes."
    )


def loss_index_error(row: int, label: Any, k: int) -> WkappaError:
    """The loss's error for a class index outside ``0..k-1`` in ``y_true`` (``sparse_labels``)."""
    return WkappaError(
        f"`y_true` must hold class indices in 0..{k - 1}; row {row} holds "
        f"{format_value(label)} (num_classes = {k}).{keras_one_based_hint(label, k)}"
    )


def rejected_error(
    counts: list[int],
    k: int,
    *,
    regression: bool,
    clip: bool,
    shown: tuple[int, Any] | None = None,
    float_scores: bool = False,
) -> WkappaError | None:
    """The metric's error for the rows its strict checks refused, or None if none were.

    ``counts`` holds the rows refused for ``y_true``, ``y_pred`` and ``sample_weight``
    (:data:`REJECTED`), then those of ``y_true`` whose index is ``k`` (labels numbered
    ``1..k``, counted so that a compiled step, which cannot show a row, can still say so).
    ``shown`` is the first refused row and its value, when the batch is at hand;
    ``float_scores``: ``y_pred`` came as one floating-point number per row (a regression
    head's output, which a compiled step cannot show).
    """
    if not any(counts[: len(REJECTED)]):
        return None
    which = next(i for i, c in enumerate(counts[: len(REJECTED)]) if c)
    name = REJECTED[which]
    value = shown[1] if shown is not None else None
    example = f" (row {shown[0]}: {format_value(value)})" if shown is not None else ""
    hint = ""
    if name == "sample_weight":
        rule = "non-negative whole numbers"
        hint = (
            " Hint: kappa is unchanged when every weight is scaled, so multiply fractional "
            "weights up to integers. model.fit's class_weight= reaches weighted_metrics as "
            "sample_weight too: scale it the same way, or pass the metric in metrics=, "
            "which gets no weights."
        )
    elif name == "y_pred":
        rule = f"scores without NaN, or class indices in 0..{k - 1}"
        if regression and not clip:
            hint = " Hint: clip=True clips rounded regression outputs into range."
        elif not regression and (
            _one_fractional_score(value) if shown is not None else float_scores
        ):
            hint = (
                " Hint: regression=True rounds one score per row (a regression head) "
                "to the nearest class."
            )
    else:
        rule = f"class indices in 0..{k - 1} (or one-hot rows of them)"
        at_k = counts[len(REJECTED)] if len(counts) > len(REJECTED) else 0
        if shown is None and at_k:
            example = f" ({at_k} of them hold {k})"
            value = k
    if name != "sample_weight" and not hint:
        hint = keras_one_based_hint(value, k)
    return WkappaError(
        f"`{name}` must hold {rule}; {counts[which]} row(s) do not{example} "
        f"(num_classes = {k}). They were not counted.{hint}"
    )


def _one_fractional_score(shown: Any) -> bool:
    """Whether a rejected row of ``y_pred`` is one finite fractional number (a score of a
    regression head, ``[2.4]`` or ``2.4``), which ``regression=True`` would round."""
    shown = _single(shown)
    return isinstance(shown, float) and math.isfinite(shown) and shown != math.floor(shown)


def _single(value: Any) -> Any:
    """The number in a one-element row (``[5.0]`` of an (N, 1) column), else ``value``."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value
