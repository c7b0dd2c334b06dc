"""Array objects from torch, JAX, CuPy and array-API libraries: recognise, view, count.

The small backend the device route (:mod:`wkappa._backends.array_api`) is written against: a
device histogram for torch and the dozen array operations the encoder needs, for torch or any
array-API namespace. Recognising such arrays and reading them on the host are the core's
(:mod:`wkappa._core.columns`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from .._core import to_host

__all__ = ["Backend", "torch_count"]


def torch_count(cells: Any, size: int, weights: Any = None, *, deterministic: bool = False) -> Any:
    """Histogram of int64 ``cells`` in ``0..size-1`` on their device (torch).

    ``torch.bincount`` is not deterministic on CUDA (atomic adds); when
    ``torch.are_deterministic_algorithms_enabled()`` there, or when ``deterministic`` is
    set, a sort-based count is used instead: sort the cells, find each cell's run with
    ``searchsorted`` and take run lengths (or differences of the cumulative weights).
    """
    torch = sys.modules["torch"]
    if not deterministic and not (cells.is_cuda and torch.are_deterministic_algorithms_enabled()):
        return torch.bincount(cells, weights=weights, minlength=size)
    ordered, order = torch.sort(cells)
    bounds = torch.searchsorted(ordered, torch.arange(size + 1, device=cells.device))
    if weights is None:
        return bounds[1:] - bounds[:-1]
    cumulative = torch.cat([weights.new_zeros(1), torch.cumsum(weights[order], dim=0)])
    return cumulative[bounds[1:]] - cumulative[bounds[:-1]]


@dataclass(frozen=True)
class Backend:
    """The few array operations needed, for torch or an array-API namespace."""

    xp: Any
    is_torch: bool
    device: Any

    def kind(self, x: Any) -> str:
        """numpy-style dtype kind: 'b', 'i', 'u', 'f', or '' for anything else."""
        if self.is_torch:
            if x.dtype == self.xp.bool:
                return "b"
            if x.is_floating_point():
                return "f"
            if x.is_complex():
                return ""
            if x.dtype in (self.xp.uint32, self.xp.uint64):
                return ""  # barely supported by torch ops: the host handles them
            return "u" if x.dtype in (self.xp.uint8, self.xp.uint16) else "i"
        for kind, name in (
            ("b", "bool"),
            ("i", "signed integer"),
            ("u", "unsigned integer"),
            ("f", "real floating"),
        ):
            if self.xp.isdtype(x.dtype, name):
                return kind
        return ""

    def astype(self, x: Any, dtype: Any) -> Any:
        return x.to(dtype) if self.is_torch else self.xp.astype(x, dtype)

    def arange(self, n: int) -> Any:
        return self.xp.arange(n, dtype=self.xp.int64, device=self.device)

    def item(self, x: Any) -> Any:
        """A 0-d device array as a Python scalar."""
        return x.item() if self.is_torch else to_host(x)[()].item()

    def first(self, mask: Any) -> int:
        """Position of the first True in a boolean array (which has one)."""
        return int(self.item(self.xp.argmax(self.astype(mask, self.xp.int8))))

    def any(self, mask: Any) -> bool:
        return bool(self.item(self.xp.any(mask)))

    def total(self, x: Any) -> Any:
        """Σx as a Python scalar (int64 or float64 accumulation)."""
        dtype = self.xp.float64 if self.kind(x) == "f" else self.xp.int64
        return self.item(self.xp.sum(x, dtype=dtype))

    def count(self, cells: Any, size: int, weights: Any) -> Any:
        """Device histogram of ``cells`` in 0..size-1."""
        if self.is_torch:
            return torch_count(cells, size, weights)
        xp = self.xp
        order = xp.argsort(cells)
        ordered = xp.take(cells, order)
        bounds = xp.searchsorted(ordered, self.arange(size + 1))
        if weights is None:
            return bounds[1:] - bounds[:-1]
        zero = xp.zeros(1, dtype=xp.float64, device=self.device)
        cumulative = xp.concat([zero, xp.cumulative_sum(xp.take(weights, order))])
        return xp.take(cumulative, bounds[1:]) - xp.take(cumulative, bounds[:-1])
