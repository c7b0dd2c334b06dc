"""Shared test configuration: makes ``tests/reference.py`` importable as ``reference``."""

from __future__ import annotations

import os
import pathlib
import re
import sys
import warnings
from collections.abc import Iterator
from typing import Any

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

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_fastpath, "FAST_MIN", 1)
        yield


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


# ----------------------------------------------------------------- frame libraries
# Every frame test runs on every frame library installed (the model is narwhals' own
# `constructor` fixture): take the `frame_library` fixture and build the test's data with
# `frame_library.frame({...})` or `frame_library.case(case)` (tests/frames_data.py).
# Dask and Spark start slower: Dask frames are integration tests, Spark ones slow and kept on
# one xdist worker with the one Spark session (tests/test_spark.py uses it too).
_FRAME_IMPORTS = {
    "pandas": "pandas",
    "polars": "polars",
    "polars-lazy": "polars",
    "pyarrow": "pyarrow",
    "duckdb": "duckdb",
    "dask": "dask.dataframe",
    "spark": "pyspark.sql",
}
_FRAME_MARKS = {
    "dask": [pytest.mark.integration],
    "spark": [pytest.mark.slow, pytest.mark.xdist_group("spark")],
}
FRAME_LIBRARIES = [
    pytest.param(name, marks=_FRAME_MARKS.get(name, []), id=name) for name in _FRAME_IMPORTS
]


@pytest.fixture(scope="session")
def duckdb_connection() -> Iterator[object]:
    duckdb = pytest.importorskip("duckdb")
    connection = duckdb.connect()
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One local Spark session for the whole run (starting one takes seconds)."""
    pyspark_sql = pytest.importorskip("pyspark.sql")
    with warnings.catch_warnings():
        # Starting the session forks the JVM's gateway. When a test on this worker has
        # imported JAX, JAX warns at every fork, and under a module's filterwarnings("error")
        # that warning, raised inside the fork hook, fails whichever test starts the session.
        warnings.filterwarnings("ignore", "os.fork", RuntimeWarning)
        session = _spark_session(pyspark_sql)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _spark_session(pyspark_sql: Any) -> Any:
    return (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("wkappa-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.memory", "1g")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        # Small test data: a quick-starting JIT and no whole-stage code generation make the
        # first queries seconds faster; adaptive execution has nothing to adapt here.
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )


@pytest.fixture(params=FRAME_LIBRARIES)
def frame_library(request: pytest.FixtureRequest) -> object:
    """A :class:`frames_data.FrameLibrary` for each frame library installed (a library that
    is not installed is skipped)."""
    from frames_data import frame_library as library

    name = request.param
    pytest.importorskip(_FRAME_IMPORTS[name])
    pytest.importorskip("wkappa.frames")
    resource = None
    if name == "duckdb":
        resource = request.getfixturevalue("duckdb_connection")
    elif name == "spark":
        resource = request.getfixturevalue("spark")
    return library(name, resource)
