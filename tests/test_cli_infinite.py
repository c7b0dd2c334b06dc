"""An infinite test statistic (a cluster-robust standard error of 0 at perfect agreement)
is written ``∞`` in every text the command line writes (the table, the ``--by`` table,
``--explain``, the report), with the reason under the table, never Python's ``inf``; JSON
writes it ``null``, as every non-finite number, and CSV ``inf``."""

from __future__ import annotations

import json
import re

import pytest

from wkappa._cli import main

pytestmark = pytest.mark.integration

# Perfect agreement within each of 4 clusters (group x) beside a group y that disagrees.
ROWS = [
    ("1", "1", "x", "p1"),
    ("2", "2", "x", "p1"),
    ("3", "3", "x", "p2"),
    ("1", "1", "x", "p2"),
    ("2", "2", "x", "p3"),
    ("3", "3", "x", "p3"),
    ("1", "1", "x", "p4"),
    ("2", "3", "y", "p5"),
    ("3", "3", "y", "p5"),
    ("1", "2", "y", "p6"),
    ("2", "2", "y", "p6"),
    ("3", "3", "y", "p7"),
]
NOTE = "t = ∞: (kappa - kappa0) / SE with a standard error of 0 (as with perfect agreement)."
RAW = re.compile(r"(?<![\w.])-?(inf|nan)\b", re.IGNORECASE)


@pytest.fixture
def clustered(tmp_path):
    path = tmp_path / "eyes.csv"
    path.write_text("a,b,g,cl\n" + "".join(",".join(row) + "\n" for row in ROWS))
    return str(path)


def _out(capsys, argv):
    assert main([*argv, "--quiet"]) == 0
    return capsys.readouterr().out


def test_an_infinite_t_is_infinity_with_its_reason(clustered, capsys):
    argv = ["score", clustered, "--true", "a", "--pred", "b", "--cluster", "cl", "--by", "g"]
    text = _out(capsys, argv)
    assert re.search(r"^  x +7 +1\.0000 +0\.0000 +\[1\.0000, 1\.0000\] +∞ ", text, re.M), text
    assert text.count(NOTE) == 1 and not RAW.search(text), text
    perfect = ["score", clustered, "--true", "a", "--pred", "b", "--cluster", "cl"]
    only_x = _out(capsys, [*perfect, "--explain"])
    assert not RAW.search(only_x.replace("nan_policy", "")), only_x


def test_an_infinite_t_in_json_csv_and_the_report(tmp_path, capsys):
    path = tmp_path / "perfect.csv"
    path.write_text("a,b,cl\n" + "".join(f"{r[0]},{r[0]},{r[3]}\n" for r in ROWS))
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--cluster", "cl"]
    text = _out(capsys, argv)
    assert re.search(r"^  t +∞ ", text, re.M) and NOTE in text and not RAW.search(text), text
    assert json.loads(_out(capsys, [*argv, "--format", "json"]))["test_statistic"] is None
    assert ",inf,t," in _out(capsys, [*argv, "--format", "csv"])
    explained = _out(capsys, [*argv, "--explain"])
    assert "Wald t = (kappa - kappa0) / SE = ∞" in explained, explained
    report = tmp_path / "r.html"
    _out(capsys, [*argv, "--report", str(report)])
    page = report.read_text(encoding="utf-8")
    assert "∞" in page and not RAW.search(re.sub(r"<[^>]*>", " ", page)), page


def test_the_report_gives_the_reason_for_an_infinite_t(tmp_path, clustered, capsys):
    """The report showed t ∞ without the line the text output prints under its table."""
    report = tmp_path / "r.html"
    path = tmp_path / "perfect.csv"
    path.write_text("a,b,cl\n" + "".join(f"{r[0]},{r[0]},{r[3]}\n" for r in ROWS))
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--cluster", "cl"]
    _out(capsys, [*argv, "--report", str(report)])
    assert report.read_text(encoding="utf-8").count(f'<p class="note">{NOTE}</p>') == 1
    # With --by: under the group table (group x) and in group x's own section.
    argv = ["score", clustered, "--true", "a", "--pred", "b", "--cluster", "cl", "--by", "g"]
    _out(capsys, [*argv, "--report", str(report)])
    page = report.read_text(encoding="utf-8")
    assert page.count(f'<p class="note">{NOTE}</p>') == 2, page
    assert page.index(NOTE) > page.index('<table class="groups">')
