"""``import wkappa`` stays light: no heavy or optional library is imported (design §4, §5)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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


# The first words of the modules of those subjects (intraclass_forms, threshold_search, ...).
ON_FIRST_USE = (
    "intraclass",
    "concordance",
    "planning",
    "threshold",
    "panel",
    "two_groups",
    "stratified",
)


def test_subjects_a_call_may_not_need_load_on_first_use() -> None:
    """The ICC and CCC, planning, thresholds and panel modules load when one of their names
    is first looked up, not with ``import wkappa``."""
    loaded = _modules_loaded_by(_SCRIPT)
    early = sorted(m for m in loaded if m.split(".")[-1].startswith(ON_FIRST_USE))
    assert early == [], early
    later = _modules_loaded_by(_SCRIPT.replace("print(", "wkappa.icc; print(", 1))
    assert "wkappa._stats.intraclass" in later


_FIRST_USE_SCRIPT = """
import json, pickle
import numpy as np
import wkappa as wk
import wkappa.frames as wkf
import pandas as pd
ratings = np.array([[1, 2, 2], [2, 3, 3], [3, 3, 4], [4, 4, 4], [2, 2, 3], [1, 1, 2]])
a, b = ratings[:, 0], ratings[:, 1]
made = [
    wkf.icc(pd.DataFrame(ratings, columns=list("xyz")), raters=list("xyz")),
    wk.ccc(ratings),
    wk.ICCAccumulator().update(ratings),
    wk.kappa_sample_size(kappa1=0.6, kappa0=0.4, marginals=[0.5, 0.5]),
    wk.optimize_thresholds(a, a + 0.25),
    wk.rater_vs_panel(ratings[:, 1:], a, n_resamples=99, rng=1),
    wk.group_agreement(ratings[:, :2], ratings[:, 1:]),
    wk.stratified_kappa_test(a, b, strata=[0, 0, 0, 1, 1, 1]),
]
back = [pickle.loads(pickle.dumps(r)) for r in made]
print(json.dumps([[type(r).__module__, type(r).__name__] for r in back]))
"""


def test_classes_of_subjects_loaded_on_first_use_pickle_as_wkappa_names() -> None:
    """A result made by a function of a subject loaded on first use is a ``wkappa.X``, whatever
    the route that loaded it (the package, ``wkappa.frames``), before ``wkappa.X`` is named."""
    pytest.importorskip("pandas")
    result = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", _FIRST_USE_SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    made = json.loads(result.stdout.strip().splitlines()[-1])
    assert [module for module, _ in made] == ["wkappa"] * len(made), made
