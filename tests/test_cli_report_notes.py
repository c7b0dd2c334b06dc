"""A report carries the run's notes as the console printed them (a "Notes" section), as it
carries its warnings: an interval past kappa's bounds, a zero-width interval."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from test_cli import run

pytestmark = pytest.mark.integration

_PAST = "the asymptotic interval passes kappa's bounds [-1, 1]; it is not clipped."
_ZERO = "the asymptotic interval has zero width: its standard error is 0"


def _notes(page: Path) -> str:
    text = html.unescape(page.read_text(encoding="utf-8"))
    start = text.find("<h2>Notes</h2>")
    return "" if start < 0 else text[start : text.index("</section>", start)]


def test_an_interval_past_the_bounds_is_noted_in_the_report(tmp_path):
    path = tmp_path / "drop.csv"
    path.write_text("a,b\n1,1\n2,NA\n2,2\n3,3\n1,2\n")
    out = tmp_path / "r.html"
    proc = run("score", path, "--true", "a", "--pred", "b", "--nan-policy", "omit",
               "--report", out, "--quiet")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _PAST in _notes(out)


def test_a_zero_width_interval_has_a_note_on_stderr_and_in_the_report(tmp_path):
    path = tmp_path / "perf.csv"
    path.write_text("a,b\n1,1\n2,2\n3,3\n1,1\n2,2\n")
    out = tmp_path / "r.html"
    proc = run("score", path, "--true", "a", "--pred", "b", "--report", out)
    assert proc.returncode == 0, proc.stderr
    assert f"wkappa: note: {_ZERO}" in proc.stderr
    assert "--ci-method score gives an interval of nonzero width." in proc.stderr
    assert _ZERO in _notes(out)
    proc = run("score", path, "--true", "a", "--pred", "b", "--ci-method", "score")
    assert proc.returncode == 0 and "zero width" not in proc.stderr


def test_a_group_with_a_zero_width_interval_is_named(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text("g,a,b\n" + "x,1,1\nx,2,2\nx,3,3\n" + "y,1,2\ny,2,2\ny,3,3\ny,1,1\n")
    proc = run("score", path, "--true", "a", "--pred", "b", "--by", "g")
    assert proc.returncode == 0, proc.stderr
    assert "zero width (--by g: x)" in proc.stderr


def test_a_later_note_is_in_an_agree_report(tmp_path):
    path = tmp_path / "k.csv"
    path.write_text("a,b,c\n1,1,2\n2,2,2\n3,3,3\n1,2,1\n2,2,3\n")
    out = tmp_path / "k.html"
    proc = run("agree", path, "--raters", "a,b,c", "--coefficient", "krippendorff",
               "--weights", "ordinal", "--report", out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "--weights ordinal is alpha with Gwet's ordinal weights" in _notes(out)
    assert proc.stderr.count("Gwet's ordinal weights, not") == 1  # shown once on stderr


def test_a_run_without_notes_has_no_notes_section(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("a,b\n" + "".join(f"{i % 3},{(i + i // 3) % 3}\n" for i in range(40)))
    out = tmp_path / "r.html"
    proc = run("score", path, "--true", "a", "--pred", "b", "--report", out)
    assert proc.returncode == 0, proc.stderr
    assert "<h2>Notes</h2>" not in out.read_text()
