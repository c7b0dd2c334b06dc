"""``wkappa plan``'s words: its report's methods sentence (the weights, a power computed for
a given n, which interval a lower limit is of), the line saying what it wrote, its notes and
its help."""

from __future__ import annotations

import html
import re

import pytest

from test_cli import run

pytestmark = pytest.mark.integration

_PLAN = ["plan", "--kappa1", "0.8", "--marginals", "0.2,0.5,0.3"]


def _methods(page: str) -> str:
    found = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S)
    assert found is not None, "no methods sentence"
    return html.unescape(found.group(1))


def _report(tmp_path, *argv: str) -> tuple[str, str]:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.html"
    proc = run(*_PLAN, *argv, "--report", out)
    assert proc.returncode == 0, proc.stderr
    assert f"wkappa: wrote {out}" in proc.stderr
    return _methods(out.read_text(encoding="utf-8")), proc.stderr


def test_a_power_for_a_given_n_is_not_a_planned_sample_size(tmp_path):
    methods, _ = _report(tmp_path, "--kappa0", "0.6", "--n", "50", "--weights", "unweighted")
    assert methods.startswith("The power of the test of kappa = 0.6 (greater, alpha 0.05) was ")
    assert "computed for the given n = 50 items" in methods
    assert "planned" not in methods
    assert "(unweighted, K = 3 categories" in methods and "unweighted weights" not in methods


def test_a_lower_limit_plan_names_its_interval(tmp_path):
    methods, _ = _report(tmp_path, "--lower-limit", "0.6")
    assert "the lower limit of the two-sided 95% score interval exceeds 0.6" in methods
    assert "(quadratic weights, K = 3" in methods


def test_a_plot_says_it_was_written(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "curve.png"
    proc = run(*_PLAN, "--kappa0", "0.6", "--plot", out)
    assert proc.returncode == 0, proc.stderr
    assert f"wkappa: wrote {out}" in proc.stderr


def test_notes_say_note():
    proc = run("plan", "--table", "40,5,1;6,30,4;1,3,10", "--kappa0", "0.5", "--kappa1", "0.7")
    assert proc.returncode == 0, proc.stderr
    assert "wkappa: note: --kappa1 0.7 moves --table to kappa 0.7" in proc.stderr


def test_help_states_the_default_weights():
    proc = run("plan", "--help")
    text = " ".join(proc.stdout.split())
    assert re.search(r"--weights WEIGHTS .*\(default: quadratic\)", text), text
