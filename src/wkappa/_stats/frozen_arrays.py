"""Read-only copies of the arrays a frozen result keeps."""

from __future__ import annotations

import numpy as np

__all__ = ["readonly"]


def readonly(array: np.ndarray) -> np.ndarray:
    """A read-only copy of an array a frozen result keeps (its table, its weights)."""
    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array
