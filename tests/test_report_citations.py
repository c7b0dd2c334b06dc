"""Every source an HTML report names is in its list of references: a researcher hands the
report in as it is, so a method named in its text, tables or notes ("after Byrt, Bishop &
Carlin (1993)", "Conger's kappa", "Light's kappa") must be cited in full under References,
not only the ones of the methods sentence."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli.app import main
from wkappa._cli.provenance import REFERENCES

pytestmark = pytest.mark.integration  # each run draws its figures

DATA = Path(wk.__file__).parent / "data"
# An author-year citation: "Fleiss 1971", "Gwet's (2014)", "Byrt, Bishop & Carlin (1993)",
# "McGraw and Wong (1996)"; the first author's surname and the year.
_CITATION = re.compile(
    r"\b([A-Z][A-Za-z\-]+)(?:'s)?(?:(?:,| &| and) [A-Z][A-Za-z\-]+)*(?: et al\.)?,? "
    r"\(?((?:1[89]|20)\d\d)\b(?!-\d)"
)
# A coefficient's name in an agree report -> the key of the reference it needs.
_NAMED = {
    "Fleiss' kappa": "fleiss1971",
    "Conger's kappa": "conger1980",
    "Gwet's AC1": "gwet2008",
    "Brennan-Prediger": "brennan1981",
    "Krippendorff's alpha": "krippendorff2019",
    "Light's kappa": "light1971",
    "Cohen's kappa": "cohen1960",
}


def _panel(folder: Path) -> Path:
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, 40)
    raters = [np.clip(truth + rng.choice([-1, 0, 0, 1], 40), 0, 2) for _ in range(4)]
    lines = ["item,a1,a2,a3,judge"]
    lines += [f"i{i}," + ",".join(str(r[i]) for r in raters) for i in range(40)]
    path = folder / "panel.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _commands(folder: Path) -> dict[str, list[str]]:
    ms, oof, panel = str(DATA / "ms_diagnosis.csv"), str(DATA / "diabetes_oof.csv"), _panel(folder)
    pair = ["--true", "new_orleans_neurologist", "--pred", "winnipeg_neurologist"]
    return {
        "score": ["score", ms, *pair, "--by", "patients"],
        "agree": ["agree", str(panel), "--raters", "a1,a2,a3,judge"],
        "judge": ["judge", str(panel), "--raters", "a1,a2,a3", "--candidate", "judge",
                  "--bootstrap", "199", "--seed", "1"],
        "compare": ["compare", oof, "--true", "grade", "--pred", "pred_all", "--pred",
                    "pred_bmi", "--bootstrap", "199", "--seed", "1"],
        "thresholds": ["thresholds", oof, "--true", "grade", "--score", "oof_score"],
        "icc": ["icc", str(panel), "--raters", "a1,a2,a3,judge"],
    }  # fmt: skip


def _parts(page: str) -> tuple[str, list[str]]:
    """The report's text before its references, and each reference."""
    page = re.sub(r"<script.*?</script>|<style.*?</style>|<img[^>]*>", "", page, flags=re.S)
    body, _, references = page.partition('<ol class="references">')
    items = re.findall(r"<li>(.*?)</li>", references.split("</ol>")[0], flags=re.S)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    return text, [html.unescape(item) for item in items]


@pytest.mark.parametrize("command", ["score", "agree", "judge", "compare", "thresholds", "icc"])
def test_every_source_a_report_names_is_in_its_references(tmp_path, capsys, command):
    """The judge report named Byrt, Bishop & Carlin (1993) for its base-rate table without
    listing it."""
    out = tmp_path / "report.html"
    assert main([*_commands(tmp_path)[command], "--report", str(out), "--quiet"]) == 0
    capsys.readouterr()
    text, references = _parts(out.read_text())
    cited = set(_CITATION.findall(text))
    assert cited, text[:500]
    for surname, year in cited:
        assert any(surname in r and f"({year})" in r for r in references), (surname, year)


def test_the_agree_report_cites_every_coefficient_it_shows(tmp_path, capsys):
    """The table of every coefficient named Conger's kappa, Gwet's AC1, Brennan-Prediger and
    Krippendorff's alpha, and the pairs Cohen's and Light's kappa, while References listed
    Fleiss (1971) and Gwet (2014) only."""
    out = tmp_path / "agree.html"
    assert main([*_commands(tmp_path)["agree"], "--report", str(out), "--quiet"]) == 0
    capsys.readouterr()
    text, references = _parts(out.read_text())
    for name, key in _NAMED.items():
        assert name in text, name
        assert REFERENCES[key] in references, name
    weighted = tmp_path / "weighted.html"
    argv = [*_commands(tmp_path)["agree"], "--weights", "quadratic", "--report", str(weighted)]
    assert main([*argv, "--quiet"]) == 0
    assert REFERENCES["cohen1968"] in _parts(weighted.read_text())[1]
