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


def short_number(value: float, fmt: str) -> str:
    """A cell annotation that fits its cell: ``fmt`` below 1000, then 6.69k, 1.2M, 3.4G."""
    magnitude = abs(value)
    if magnitude < 1000 or not np.isfinite(value):
        return format(value, fmt)
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if magnitude >= scale:
            return f"{value / scale:.3g}{suffix}"
    return format(value, fmt)  # pragma: no cover - unreachable


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
                short_number(float(value), fmt),
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
            )


def _style(ax: Any, title: str, names: list[str], raters: tuple[str, str]) -> None:
    ticks = np.arange(len(names))
    ax.set_title(title, fontsize=10)
    ax.set_xticks(ticks, names if len(names) <= 30 else [""] * len(names))
    ax.set_yticks(ticks, names if len(names) <= 30 else [""] * len(names))
    ax.set_xlabel(f"{raters[1]} (rater B)")
    ax.set_ylabel(f"{raters[0]} (rater A)")


def plot_result(
    result: KappaResult,
    *,
    axes: Any = None,
    cmap: str = "Blues",
    rater_names: tuple[str, str] = ("y_true", "y_pred"),
) -> Any:
    """Draw O, E and ``W * (O - E) / n`` side by side; returns the array of three Axes.

    ``rater_names`` label the axes (rows: rater A, columns: rater B)."""
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
        _style(ax, title, names, rater_names)
    return axes
