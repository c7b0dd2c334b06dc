"""``import wkappa`` stays light: no heavy or optional library is imported (design §4, §5)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = [
    "numba",
    "pandas",
    "polars",
    "pyarrow",
    "torch",
    "matplotlib",
    "narwhals",
    "scipy",
    "sklearn",
    "dask",
    "pyspark",
    "rich",
    "duckdb",
    "lightgbm",
    "xgboost",
    "catboost",
    "keras",
    "jax",
    "jaxlib",
    "tensorflow",
    "optax",
]

_SCRIPT = """
import json, sys
before = set(sys.modules)
import wkappa
import wkappa.exceptions
wkappa.qwk([0, 1, 2, 2], [0, 2, 2, 1], labels=[0, 1, 2])  # the strict (labels) path
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _modules_loaded_by(script: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def test_import_wkappa_loads_no_heavy_module() -> None:
    loaded = _modules_loaded_by(_SCRIPT)
    assert "wkappa" in loaded and "numpy" in loaded  # the check can see imports at all
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], heavy


def test_the_check_would_see_a_heavy_import() -> None:
    """The same script notices a heavy module once something imports it."""
    loaded = _modules_loaded_by(_SCRIPT.replace("import wkappa\n", "import wkappa, polars\n", 1))
    assert "polars" in loaded


def test_exact_arithmetic_modules_load_on_first_use() -> None:
    """fractions and decimal (about 5 ms of import) load only when a call needs them: a
    Decimal or Fraction rating can only exist once its module is loaded."""
    loaded = _modules_loaded_by(_SCRIPT)
    assert "wkappa" in loaded
    assert {"fractions", "decimal"}.isdisjoint(loaded), sorted({"fractions", "decimal"} & loaded)
