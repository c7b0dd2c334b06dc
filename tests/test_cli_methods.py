"""The methods sentences of the HTML reports, as a paper would print them: no option flags,
the frequency weights named as such, the t distribution the interval really uses, the
sidedness of the ICC test and a reference for every method named."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pytest

from test_cli import run
from wkappa._cli.provenance import REFERENCES

pytestmark = pytest.mark.integration


def _methods(page: Path) -> str:
    found = re.search(r'<p class="methods">(.*?)</p>', page.read_text(), flags=re.S)
    assert found is not None, "no methods sentence"
    return html.unescape(found.group(1))


def _report(tmp_path: Path, *argv: object) -> tuple[str, str]:
    """(the methods sentence, the whole page) of ``wkappa ARGV --report``."""
    out = tmp_path / "r.html"
    proc = run(*argv, "--report", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    return _methods(out), html.unescape(out.read_text())


@pytest.fixture
def clustered(tmp_path: Path) -> Path:
    """60 items in 20 clusters of 3, rated by three raters."""
    rng = np.random.default_rng(2)
    lines = ["pat,r1,r2,r3"]
    for i in range(60):
        t = int(rng.integers(1, 4))
        a, b = (min(3, max(1, t + int(rng.choice(d)))) for d in ([-1, 0, 0, 1], [-1, 0, 1]))
        lines.append(f"p{i // 3},{t},{a},{b}")
    path = tmp_path / "cl.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_agree_cluster_names_t_on_g_minus_1(clustered, tmp_path):
    methods, page = _report(tmp_path, "agree", clustered, "--raters", "r1,r2,r3",
                            "--cluster", "pat")  # fmt: skip
    assert "estimate ± t(G - 1) × standard error" in methods
    assert "t(n - 1)" not in page
    methods, page = _report(tmp_path, "agree", clustered, "--raters", "r1,r2,r3")
    assert "estimate ± t(n - 1) × standard error" in methods


def test_dropped_rows_and_weights_in_a_papers_words(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("a,b,weight\n1,1,2\n2,,1\n2,2,3\n3,3,1\n1,2,2\n3,2,1\n")
    methods, _ = _report(tmp_path, "score", path, "--true", "a", "--pred", "b",
                         "--weight-col", "weight", "--nan-policy", "omit")  # fmt: skip
    assert "1 of 6 file rows left out: a missing rating" in methods
    assert "--" not in methods
    assert "(frequency weights from the column weight)" in methods


def test_expanded_percentile_cites_hesterberg(tmp_path):
    path = tmp_path / "c.csv"
    rows = [(i % 3, (i + i // 5) % 3, (i + i // 3) % 3) for i in range(40)]
    path.write_text("t,a,b\n" + "".join(f"{t},{a},{b}\n" for t, a, b in rows))
    methods, page = _report(tmp_path, "compare", path, "--true", "t", "--pred", "a",
                            "--pred", "b", "--bootstrap", "199", "--seed", "1")  # fmt: skip
    assert "expanded percentile bootstrap interval of Hesterberg (2015)" in methods
    assert REFERENCES["hesterberg2015"] in page and REFERENCES["efron1979"] in page


def test_icc_sentence_says_two_sided_and_cites_reml(tmp_path):
    path = tmp_path / "i.csv"
    path.write_text("j1,j2,j3\n9,2,5\n6,1,3\n8,4,6\n7,1,2\n10,5,6\n6,2,\n")
    methods, page = _report(tmp_path, "icc", path, "--raters", "j1,j2,j3", "--form", "A,1")
    assert "the p-value is that of the F test of ICC = 0, two-sided." in methods
    assert "REML variance components, Patterson and Thompson 1971" in methods
    assert REFERENCES["patterson1971"] in page
    path.write_text("j1,j2,j3\n9,2,5\n6,1,3\n8,4,6\n7,1,2\n10,5,6\n")
    methods, page = _report(tmp_path, "icc", path, "--raters", "j1,j2,j3", "--form", "A,1")
    assert "Patterson" not in page
