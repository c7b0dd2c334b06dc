"""Routes that need an optional library, plugged into the core's dispatcher
(:mod:`wkappa._core.dispatch`): arrays on a device (torch, JAX, CuPy, array API), counted
where they live, and Dask arrays, counted per chunk on the workers. Importing this package
registers them; it imports none of those libraries."""

from __future__ import annotations

from .._core import register_route
from .array_api import device_route
from .dask_arrays import dask_route, is_dask_array
from .device import torch_count

register_route("device", device_route)
register_route("dask", dask_route)

__all__ = ["dask_route", "device_route", "is_dask_array", "torch_count"]
