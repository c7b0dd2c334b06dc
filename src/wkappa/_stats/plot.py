"""Heatmaps of O, E and the lost agreement W * (O - E) (the plot extra: matplotlib)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import import_optional
from .explain import seed_steps

if TYPE_CHECKING:
    from .results import KappaResult

__all__ = ["plot_result"]

# Beyond this many categories the per-cell numbers would be unreadable.
_ANNOTATE_MAX_K = 12


def _annotate(ax: Any, values: np.ndarray, fmt: str, image: Any) -> None:
    k = values.shape[0]
    if k > _ANNOTATE_MAX_K:
        return
    low, high = image.get_clim()
    middle = (low + high) / 2
    for i in range(k):
        for j in range(k):
            value = values[i, j]
            dark = (value > middle) if low >= 0 else abs(value) > 0.6 * max(abs(low), abs(high))
            ax.text(
                j,
                i,
                format(value, fmt),
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
            )


def _style(ax: Any, title: str, names: list[str]) -> None:
    ticks = np.arange(len(names))
    ax.set_title(title, fontsize=10)
    ax.set_xticks(ticks, names if len(names) <= 30 else [""] * len(names))
    ax.set_yticks(ticks, names if len(names) <= 30 else [""] * len(names))
    ax.set_xlabel("y_pred (rater B)")
    ax.set_ylabel("y_true (rater A)")


def plot_result(result: KappaResult, *, axes: Any = None, cmap: str = "Blues") -> Any:
    """Draw O, E and ``W * (O - E) / n`` side by side; returns the array of three Axes."""
    plt = import_optional("matplotlib.pyplot", "plot")
    table = result.table.astype(np.float64)
    steps = seed_steps(table, result.weight_matrix)
    n = table.sum()
    if axes is None:
        _figure, axes = plt.subplots(1, 3, figsize=(13.5, 4.4), layout="constrained")
    axes = np.asarray(axes, dtype=object).ravel()
    if axes.size != 3:
        from ..exceptions import WkappaError

        raise WkappaError(f"`axes` must hold three matplotlib Axes; got {axes.size}.")
    names = [str(label) for label in result.labels]
    integral = bool(np.all(table == np.round(table)))
    count_fmt = ".0f" if integral else ".3g"
    panels: list[tuple[np.ndarray, str, str, str, tuple[float, float] | None]] = [
        (table, f"O: observed counts (n = {n:g})", count_fmt, cmap, None),
        (steps.expected * n, "E: expected counts = outer(rows, cols) / n", ".3g", cmap, None),
    ]
    limit = float(np.max(np.abs(steps.contribution))) or 1.0
    panels.append(
        (
            steps.contribution,
            f"lost agreement W*(O-E)/n  (kappa = {result.statistic:.4f})",
            "+.3f",
            "RdBu_r",
            (-limit, limit),
        )
    )
    for ax, (values, title, fmt, colours, limits) in zip(axes, panels, strict=True):
        kwargs: dict[str, float] = {} if limits is None else {"vmin": limits[0], "vmax": limits[1]}
        image = ax.imshow(values, cmap=colours, **kwargs)
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
        _annotate(ax, values, fmt, image)
        _style(ax, title, names)
    return axes
