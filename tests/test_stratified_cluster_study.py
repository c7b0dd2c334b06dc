"""benchmarks/stratified_cluster_study.py (quoted in docs/user-guide/designs.md) runs against
the current API, in small: its simulated strata share one population kappa and it prints one
table row per design."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "stratified_cluster_study.py"


def _load(monkeypatch: pytest.MonkeyPatch):
    spec = importlib.util.spec_from_file_location("stratified_cluster_study", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_study_runs_in_small(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    module = _load(monkeypatch)
    monkeypatch.setattr(module, "POPULATION_CLUSTERS", 20_000)
    equal = next(i for i, d in enumerate(module.DESIGNS) if not d.unequal)
    unequal = next(i for i, d in enumerate(module.DESIGNS) if d.unequal)
    module.main(["--replicates", "8", "--cases", str(equal), str(unequal)])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert len(rows) == 3  # the header and one row per design
    cells = rows[1].strip("| ").split(" | ")
    assert 0.0 <= float(cells[7]) <= 1.0 and 0.0 <= float(cells[-3]) <= 1.0  # cover, size
    assert rows[0].split(" | ")[12] == "cover pairs" and 0.0 <= float(cells[12]) <= 1.0
    assert rows[2].split(" | ")[-3].startswith("(")  # the unequal design reports power


def test_mirrored_strata_share_one_kappa(monkeypatch: pytest.MonkeyPatch) -> None:
    """The truth the coverage is measured against: the strata's prevalences are mirrored, their
    population kappas equal; the power designs' first stratum is lower."""
    module = _load(monkeypatch)
    monkeypatch.setattr(module, "POPULATION_CLUSTERS", 100_000)
    design = module.DESIGNS[0]
    truths = module.population(design)
    assert max(truths) - min(truths) < 0.01
    low, *rest = module.population(next(d for d in module.DESIGNS if d.unequal))
    assert low < min(rest) - 0.05
