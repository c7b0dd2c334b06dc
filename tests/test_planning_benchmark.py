"""The study-planning benchmark runs against the current API (its table is quoted in
BENCHMARKS.md and docs/reference/planning-methods.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "planning_study.py"


def test_planning_study_runs_every_method(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One design, every method, a few checks: the formulas take no seed (``rng=`` goes with
    method='simulation' only), so the script must not pass one to them."""
    spec = importlib.util.spec_from_file_location("planning_study", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "DESIGNS", [([0.3, 0.7], "unweighted", 0.75, 0.5)])
    monkeypatch.setattr(module, "CHECKS", 200)
    module.main()
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 2 |")]
    methods = [row.split("|")[5].strip() for row in rows]
    assert methods == ["asymptotic", "max-variance", "goodness-of-fit", "simulation"]
    # the published n of this design (BENCHMARKS.md, "Study planning")
    assert [int(row.split("|")[6]) for row in rows] == [76, 76, 87, 77]
