"""The large-sample plans check their normal approximation where a category is sparse: a
plan whose n misses its goal in simulated studies of wkappa's own test warns
(benchmarks/planning_small_n.py)."""

from __future__ import annotations

import importlib.util
import json
import math
import warnings
from pathlib import Path

import pytest

import wkappa as wk
from wkappa._cli.app import main
from wkappa.exceptions import PlanApproximationWarning

_RARE = {"kappa1": 0.6, "marginals": [0.1, 0.9], "weights": "unweighted"}


def test_sparse_asymptotic_plan_warns_and_simulation_plans_more() -> None:
    """Prevalence 0.1, kappa0 = 0: the asymptotic n of 22 stated power 0.806 and said nothing,
    but wkappa's test rejected in 0.71 of simulated studies of 22 items."""
    with pytest.warns(PlanApproximationWarning, match=r"normal approximation") as caught:
        plan = wk.kappa_sample_size(**_RARE)
    message = str(caught[0].message)
    assert plan.n == 22 and round(plan.power, 3) == 0.806
    assert "n = 22 with 2.2 expected ratings in the rarest category" in message
    assert "power 0.8 was asked" in message and "method='simulation'" in message
    assert caught[0].filename == __file__  # at the caller's line
    simulated = wk.kappa_sample_size(**_RARE, method="simulation", n_simulations=2000, rng=1)
    assert simulated.n > 25 and simulated.power >= 0.8


def test_sparse_lower_limit_plan_warns() -> None:
    with pytest.warns(PlanApproximationWarning, match=r"cleared 0\.2 in 0\.\d\d of"):
        wk.kappa_sample_size(
            kappa1=0.8, marginals=[0.05, 0.95], weights="unweighted", lower_limit=0.2,
            assurance=0.8,
        )  # fmt: skip


@pytest.mark.parametrize(
    "design",
    [
        # few ratings in the rarest category, but the plan delivers (0.82 in the benchmark)
        {"kappa1": 0.8, "marginals": [0.5, 0.5], "weights": "unweighted"},
        {"kappa1": 0.7, "kappa0": 0.4, "marginals": [0.3, 0.7], "weights": "unweighted"},
        {"kappa1": 0.8, "marginals": [0.05, 0.35, 0.6], "method": "max-variance"},
        {"kappa1": 0.8, "marginals": [0.1, 0.9], "ci_width": 0.5},  # no test, no check
    ],
)
def test_plans_that_keep_their_promise_do_not_warn(design) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wk.kappa_sample_size(**design)


def test_the_check_is_reproducible() -> None:
    """The check draws its studies from a fixed seed: the same plan warns with the same
    words every time."""
    texts = []
    for _ in range(2):
        with pytest.warns(PlanApproximationWarning) as caught:
            wk.kappa_sample_size(**_RARE)
        texts.append(str(caught[0].message))
    assert texts[0] == texts[1]


def test_cli_warns_once_in_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plan", "--kappa1", "0.6", "--marginals", "0.1,0.9", "--weights", "unweighted"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("wkappa: warning")]
    assert len(lines) == 1, captured.err
    assert "--method simulation" in lines[0] and "method='" not in lines[0]
    assert "n = 22 items" in captured.out


def test_benchmark_runs(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """benchmarks/planning_small_n.py (quoted in docs/reference/planning-methods.md) runs
    against the current API and reports which plans warn."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "planning_small_n.py"
    spec = importlib.util.spec_from_file_location("planning_small_n", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    designs = [d for d in module._designs() if d[0] == [0.1, 0.9] and d[2] == 0.0][:3]
    monkeypatch.setattr(module, "_designs", lambda: designs)
    monkeypatch.setattr(module, "STUDIES", 200)
    module.main()
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 0.1/")]
    assert [row.rstrip(" |").endswith("yes") for row in rows] == [False, True, True]


def test_power_of_a_given_n_is_checked_too() -> None:
    """kappa_power(22, ...) stated power 0.806 for the design above, without a word."""
    with pytest.warns(PlanApproximationWarning, match=r"power 0\.806 is what the formula states"):
        result = wk.kappa_power(22, **_RARE)
    assert round(result.power, 3) == 0.806
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wk.kappa_power(200, **_RARE)  # 20 expected ratings in the rarer category: no check


def test_cli_given_n_warns(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plan", "--kappa1", "0.9", "--marginals", "0.3,0.7", "--weights", "unweighted",
            "--n", "5"]  # fmt: skip
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "is what the formula states" in err and "--method simulation" in err


def test_width_goal_counts_studies_without_a_kappa() -> None:
    """The simulation planner's expected width left out the studies with no kappa (all pairs
    in one category): for prevalence 0.03 it answered n = 24, where 35% of the studies have
    no kappa and no interval. They now count with the width of [-1, 1]."""
    import numpy as np

    plan = wk.kappa_sample_size(
        kappa1=0.6, marginals=[0.03, 0.97], weights="unweighted", ci_width=0.8,
        method="simulation", n_simulations=2000, rng=1,
    )  # fmt: skip
    undefined = float(np.sum(np.diag(plan.table) ** plan.n))
    assert plan.n >= 60 and undefined < 0.1
    assert plan.expected_width <= 0.8
    shorter = wk.kappa_power(
        plan.n // 2, kappa1=0.6, marginals=[0.03, 0.97], weights="unweighted",
        method="simulation", n_simulations=2000, rng=1,
    )  # fmt: skip
    assert shorter.expected_width > 0.8


def test_several_raters_width_goal_counts_undefined_studies() -> None:
    """Three raters, prevalence 0.03: the width goal was met at n = 3 items."""
    plan = wk.kappa_sample_size(
        kappa1=0.6, marginals=[0.03, 0.97], n_raters=3, weights="unweighted", ci_width=0.8,
        method="simulation", n_simulations=500, rng=1,
    )  # fmt: skip
    assert plan.n >= 15


def _sparse_plan() -> wk.KappaPlan:
    with pytest.warns(PlanApproximationWarning):
        return wk.kappa_sample_size(**_RARE)


def test_the_plan_keeps_its_simulated_check() -> None:
    """The plan holds the check's simulated share, and every text stating its power states
    the simulated share too (0.806 by the formula, 0.71 simulated)."""
    plan = _sparse_plan()
    assert round(plan.simulated_power, 2) == 0.71 and plan.check_simulations == 2000
    assert math.isnan(plan.simulated_assurance)  # no lower_limit
    record = plan.to_dict()
    assert record["simulated_power"] == plan.simulated_power
    assert record["simulated_assurance"] is None and record["check_simulations"] == 2000
    text = plan.explain()
    assert "power 0.806 (wanted 0.8) by the normal approximation;" in text
    assert (
        "0.71 in 2,000 simulated studies of wkappa's test, below the 0.8 asked: plan with "
        "method='simulation'" in text
    )
    assert "power=0.806, simulated_power=0.71, " in repr(plan)


def test_a_given_n_states_its_simulated_power() -> None:
    with pytest.warns(PlanApproximationWarning):
        plan = wk.kappa_power(22, **_RARE)
    assert round(plan.simulated_power, 2) == 0.71
    check = plan.approximation_check("power")
    assert check.endswith("studies of wkappa's test: compute it with method='simulation'")
    assert "asked" not in check and check in " ".join(plan.explain().split())


def test_a_lower_limit_plan_states_its_simulated_assurance() -> None:
    with pytest.warns(PlanApproximationWarning):
        plan = wk.kappa_sample_size(
            kappa1=0.8, marginals=[0.05, 0.95], weights="unweighted", lower_limit=0.2,
            assurance=0.8,
        )  # fmt: skip
    assert plan.simulated_assurance < 0.75 and math.isnan(plan.simulated_power)
    assert "simulated studies of the score interval, below the 0.8 asked" in plan.explain()
    assert f"simulated_assurance={plan.simulated_assurance:.2f}, " in repr(plan)
    assert plan.approximation_check("power") == ""


@pytest.mark.parametrize(
    ("design", "checked"),
    [
        ({"kappa1": 0.8, "marginals": [0.5, 0.5], "weights": "unweighted"}, True),  # agrees
        ({"kappa1": 0.6, "kappa0": 0.4, "marginals": [0.5, 0.5]}, False),  # no sparse category
        ({**_RARE, "method": "simulation", "n_simulations": 200, "rng": 1}, False),
    ],
)
def test_plans_that_keep_their_promise_state_only_the_formula(design, checked) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plan = wk.kappa_sample_size(**design)
    assert plan.check_simulations == (2000 if checked else 0)
    assert math.isnan(plan.simulated_power) is not checked
    assert plan.approximation_check() == "" and "simulated studies of" not in plan.explain()
    assert "simulated_power" not in repr(plan)


def test_approximation_check_refuses_another_share() -> None:
    with pytest.raises(wk.WkappaError, match=r"`share` must be 'power' or 'assurance'"):
        _sparse_plan().approximation_check("width")


def test_cli_states_the_simulated_power(tmp_path: Path, capsys) -> None:
    """The console block, the report's methods sentence and table and the JSON all carry the
    simulated share, in the command's words."""
    report = tmp_path / "plan.html"
    argv = ["plan", "--kappa1", "0.6", "--marginals", "0.1,0.9", "--weights", "unweighted"]
    assert main([*argv, "--report", str(report)]) == 0
    out = capsys.readouterr().out
    stated = "0.71 in 2,000 simulated studies of wkappa's test, below the 0.8 asked: plan with "
    assert stated + "--method simulation" in out and "method='" not in out
    page = report.read_text(encoding="utf-8").replace("&#x27;", "'")
    assert (
        "n = 22 items give power 0.806 by the normal approximation; " + stated
        + "--method simulation."
    ) in page  # fmt: skip
    assert page.count(stated) == 2  # the methods sentence and the table's power
    assert main([*argv, "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert round(record["simulated_power"], 2) == 0.71 and record["check_simulations"] == 2000


def test_cli_explain_shows_the_check(capsys) -> None:
    """--explain's computation ends with the simulated check where one ran."""
    argv = ["plan", "--kappa1", "0.6", "--marginals", "0.1,0.9", "--weights", "unweighted"]
    assert main([*argv, "--explain"]) == 0
    out = capsys.readouterr().out
    assert (
        "a category is sparse at n = 22 (the rarest expects fewer than 15 ratings), so the "
        "normal approximation was checked on 2,000 studies simulated from P: wkappa's test "
        "rejected in 0.7115 of them." in out
    )
    assert main(["plan", "--kappa1", "0.6", "--kappa0", "0.4", "--marginals", "0.5,0.5",
                 "--explain"]) == 0  # fmt: skip
    assert "normal approximation was checked" not in capsys.readouterr().out
