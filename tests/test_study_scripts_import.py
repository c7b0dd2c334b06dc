"""The simulation studies the docs quote must at least load: ``coverage_study.py`` imported
``expanded_level`` from ``wkappa._stats.paired`` after it had moved to the bootstrap module,
so ``python benchmarks/coverage_study.py`` (the two-rater coverage tables of the small-samples
and inference guides) stopped at its imports."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"
STUDIES = [
    "coverage_study.py",
    "small_panel_study.py",
    "icc_missing_study.py",
    "two_groups_study.py",
    "cluster_study.py",
    "few_clusters_study.py",
    "stratified_cluster_study.py",
]


@pytest.mark.parametrize("name", STUDIES)
def test_study_script_loads(name: str, monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    found = runpy.run_path(str(BENCHMARKS / name), run_name="study_under_test")
    assert callable(found["main"])
