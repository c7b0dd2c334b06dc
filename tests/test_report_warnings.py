"""Every HTML report (score, agree, judge, compare, thresholds, plan, icc) carries the
warnings its run printed on stderr, in the command line's words, in a "Warnings" section under
its heading; a run without warnings has no such section, and one run's warnings do not reach
the next run's report in the same process."""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

import pytest

from wkappa._cli.app import main
from wkappa._cli.report import html_page

pytestmark = pytest.mark.integration  # whole command-line runs

_SECTION = re.compile(r'<section class="warnings"><h2>Warnings</h2>.*?</section>', re.S)


def _warned(page: str) -> list[str]:
    """The items of the page's "Warnings" section (unescaped), [] without one."""
    found = _SECTION.findall(page)
    assert len(found) <= 1
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", "".join(found))]


def _stderr_warnings(err: str) -> list[str]:
    prefix = "wkappa: warning: "
    return [line.removeprefix(prefix) for line in err.splitlines() if line.startswith(prefix)]


def _ratings(path: Path, clusters: int) -> Path:
    """Four categories, 80 rows, ``clusters`` sites; two raters a, b and a judge panel."""
    rows = ["item,site,a,b,c,judge"]
    for i in range(80):
        t = (i * 7) % 4
        near = [t, min(3, t + (i % 3 == 0)), max(0, t - (i % 5 == 0)), min(3, t + (i % 4 == 1))]
        rows.append(f"i{i},{i % clusters},{','.join(map(str, near))}")
    path.write_text("\n".join(rows) + "\n")
    return path


def test_a_score_report_carries_the_run_s_warnings_and_the_next_run_does_not(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _ratings(tmp_path / "four.csv", clusters=4)
    warned, clean = tmp_path / "warned.html", tmp_path / "clean.html"
    argv = ["score", str(data), "--true", "a", "--pred", "b"]
    assert main([*argv, "--cluster", "site", "--report", str(warned), "--quiet"]) == 0
    shown = _stderr_warnings(capsys.readouterr().err)
    assert any(line.startswith("Only 4 clusters:") for line in shown), shown
    page = warned.read_text(encoding="utf-8")
    assert _warned(page) == shown  # the same lines, in the same words and order
    # Near the top: under the heading and its lines, before the methods and the numbers.
    assert page.index("<h1>") < page.index('class="warnings"') < page.index('class="methods"')

    assert main([*argv, "--report", str(clean), "--quiet"]) == 0  # same process, no clusters
    assert _stderr_warnings(capsys.readouterr().err) == []
    page = clean.read_text(encoding="utf-8")
    assert _warned(page) == [] and 'class="warnings"' not in page and "Only 4" not in page


def test_a_judge_report_with_few_clusters_says_so(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("polars")
    data = _ratings(tmp_path / "panel.csv", clusters=4)
    out = tmp_path / "judge.html"
    argv = ["judge", str(data), "--raters", "a,b,c", "--candidate", "judge", "--cluster", "site"]
    assert main([*argv, "--bootstrap", "99", "--seed", "1", "--report", str(out)]) == 0
    shown = _stderr_warnings(capsys.readouterr().err)
    assert any(line.startswith("Only 4 clusters:") for line in shown), shown
    assert _warned(out.read_text(encoding="utf-8")) == shown


def test_an_agree_report_says_a_coefficient_is_undefined(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "same.csv"
    data.write_text("a,b\n" + "1,1\n" * 12)
    out = tmp_path / "same.html"
    assert main(["agree", str(data), "--raters", "a,b", "--report", str(out)]) == 0
    shown = _stderr_warnings(capsys.readouterr().err)
    assert shown and any("shown as undefined" in line for line in shown), shown
    assert _warned(out.read_text(encoding="utf-8")) == shown


def test_the_warnings_are_escaped() -> None:
    args = argparse.Namespace(command_line=["plan"], warned=["a <b> & 'c'", "second"])
    page = html_page("x", "Heading", ['<p class="meta">m</p>', "<h2>Body</h2>"], args)
    assert "<li>a &lt;b&gt; &amp; &#x27;c&#x27;</li><li>second</li>" in page
    assert (
        page.index('<p class="meta">m</p>')
        < page.index('class="warnings"')
        < page.index("<h2>Body</h2>")
    )
    assert 'class="warnings"' not in html_page("x", "Heading", [], argparse.Namespace())


def test_a_compare_report_with_few_clusters_says_so(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _ratings(tmp_path / "four.csv", clusters=4)
    warned, clean = tmp_path / "warned.html", tmp_path / "clean.html"
    argv = ["compare", str(data), "--true", "a", "--pred", "b", "--pred", "judge"]
    argv += ["--bootstrap", "999", "--seed", "1"]
    assert main([*argv, "--cluster", "site", "--report", str(warned), "--quiet"]) == 0
    shown = _stderr_warnings(capsys.readouterr().err)
    assert any(line.startswith("Only 4 clusters:") for line in shown), shown
    page = warned.read_text(encoding="utf-8")
    assert _warned(page) == shown
    assert page.index("<h1>") < page.index('class="warnings"') < page.index('class="methods"')
    assert main([*argv, "--report", str(clean), "--quiet"]) == 0
    assert _stderr_warnings(capsys.readouterr().err) == []
    assert 'class="warnings"' not in clean.read_text(encoding="utf-8")


def test_a_thresholds_report_carries_a_warning_of_the_fit(
    tmp_path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No data set makes the fit warn today; a warning raised during it (here by a wrapper
    of the library's optimize_thresholds) reaches the report as every command's does."""
    import warnings

    import wkappa._stats as stats

    fit = stats.optimize_thresholds

    def warning_fit(*args: object, **kwargs: object) -> object:
        warnings.warn("The fit says <take care> & more.", UserWarning, stacklevel=2)
        return fit(*args, **kwargs)

    data = tmp_path / "scores.csv"
    data.write_text("y,s\n" + "".join(f"{i % 3},{i % 3 + (i % 7) / 10}\n" for i in range(60)))
    argv = ["thresholds", str(data), "--true", "y", "--score", "s"]
    clean = tmp_path / "clean.html"
    assert main([*argv, "--report", str(clean), "--quiet"]) == 0
    assert _stderr_warnings(capsys.readouterr().err) == []
    assert 'class="warnings"' not in clean.read_text(encoding="utf-8")
    monkeypatch.setattr(stats, "optimize_thresholds", warning_fit)
    warned = tmp_path / "warned.html"
    assert main([*argv, "--report", str(warned), "--quiet"]) == 0
    shown = _stderr_warnings(capsys.readouterr().err)
    assert shown == ["The fit says <take care> & more."]
    page = warned.read_text(encoding="utf-8")
    assert _warned(page) == shown and "&lt;take care&gt; &amp; more." in page
    assert page.index("<h1>") < page.index('class="warnings"') < page.index('class="methods"')
