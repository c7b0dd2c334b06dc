"""Routes that need an optional library: arrays on a device (torch, JAX, CuPy, array API) and
Dask arrays. Each counts where the data lives and hands the core a table or the QWK sums."""

from __future__ import annotations

from .array_api import device_confusion_table, device_weighted_kappa, is_device_array
from .dask_arrays import dask_confusion_table, dask_weighted_kappa, is_dask_array
from .device import torch_count

__all__ = [
    "dask_confusion_table",
    "dask_weighted_kappa",
    "device_confusion_table",
    "device_weighted_kappa",
    "is_dask_array",
    "is_device_array",
    "torch_count",
]
