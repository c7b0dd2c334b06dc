"""Shared test configuration: makes ``tests/reference.py`` importable as ``reference``."""

from __future__ import annotations

import os
import pathlib
import re
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from wkappa._core import warmup

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


@pytest.fixture(scope="module")
def fast_path_for_small_inputs() -> Iterator[None]:
    """Send even tiny inputs through the fused kernels (normally from FAST_MIN pairs on).

    Use it in a module with ``pytestmark = pytest.mark.usefixtures(...)``.
    """
    from wkappa._core import fused as _fastpath

    saved = _fastpath.FAST_MIN
    _fastpath.FAST_MIN = 1
    yield
    _fastpath.FAST_MIN = saved


# Every call takes the route the tests check: kernels compile in the caller's thread rather
# than in the background while the numpy route answers (tests/test_warmup.py tests that).
warmup.set_mode("wait")

_WHOLE_MODULE_MARK = re.compile(r"^pytestmark = .*\b(integration|slow)\b", re.MULTILINE)


def pytest_ignore_collect(collection_path: pathlib.Path, config: pytest.Config) -> bool | None:
    """In the inner loop (``make test-fast``), leave out whole modules marked integration or
    slow without importing them: their imports (training libraries, Spark, Dask's cluster)
    would cost more than the fast tests themselves."""
    if os.environ.get("WKAPPA_TEST_FAST") != "1" or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    return bool(_WHOLE_MODULE_MARK.search(collection_path.read_text(encoding="utf-8"))) or None
