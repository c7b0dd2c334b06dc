"""Shared test configuration: makes ``tests/reference.py`` importable as ``reference``."""

from __future__ import annotations

import os
import pathlib
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(pathlib.Path(__file__).parent))

# numba compiles a kernel on its first call (seconds on a cold cache, more on a loaded
# machine), so per-example deadlines would only measure the compiler; CI runs derandomised so
# that a submission's result does not depend on the draw.
settings.register_profile(
    "wkappa",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
    print_blob=True,
)
settings.load_profile("wkappa")
