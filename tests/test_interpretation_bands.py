"""The words the command line gives a coefficient of several raters, and whose they are.

Landis & Koch's (1977) bands were drawn for kappa; Krippendorff (2019) gives his own
guideline for alpha (rely on alpha >= 0.800, tentative conclusions only from 0.667), and
percent agreement, which does not correct for chance, gets no band.
"""

from __future__ import annotations

import math

import pytest

from wkappa._cli import main
from wkappa._stats import reliability_band

WIDE = "judge,a,b,c\n1,1,1,2\n2,2,3,2\n3,3,3,3\n1,2,1,1\n2,2,2,2\n3,3,2,3\n1,1,1,1\n"


@pytest.mark.parametrize(
    ("alpha", "band"),
    [
        (1.0, "reliable"),
        (0.8, "reliable"),
        (0.7999, "tentative"),
        (0.667, "tentative"),
        (0.6669, "not reliable"),
        (-0.2, "not reliable"),
        (math.nan, "undefined"),
    ],
)
def test_krippendorffs_guideline_at_its_limits(alpha, band):
    assert reliability_band(alpha) == band


def _agree(tmp_path, capsys, coefficient):
    path = tmp_path / "ratings.csv"
    path.write_text(WIDE)
    code = main(["agree", str(path), "--raters", "a,b,c", "--coefficient", coefficient])
    out = capsys.readouterr().out
    assert code == 0, out
    return next(line for line in out.splitlines() if line.startswith("  statistic"))


def test_agree_grades_alpha_by_krippendorffs_guideline(tmp_path, capsys):
    line = _agree(tmp_path, capsys, "krippendorff")
    assert line.endswith("(Krippendorff)"), line
    assert "Landis" not in line
    band = line.split(maxsplit=2)[2].removesuffix(" (Krippendorff)")
    assert band == reliability_band(float(line.split()[1]))


def test_agree_grades_kappa_by_landis_and_koch_and_percent_not_at_all(tmp_path, capsys):
    assert _agree(tmp_path, capsys, "fleiss").endswith("(Landis & Koch)")
    assert len(_agree(tmp_path, capsys, "percent").split()) == 2


@pytest.mark.parametrize(
    ("coefficient", "note", "reference"),
    [
        ("krippendorff", "Interpretation after Krippendorff (2019)", "Krippendorff, K. (2019)"),
        ("conger", "Interpretation: Landis & Koch (1977) bands.", "Landis, J. R., &amp; Koch"),
        ("percent", None, None),
    ],
)
def test_judge_says_whose_bands_it_gives(tmp_path, capsys, coefficient, note, reference):
    path = tmp_path / "judged.csv"
    path.write_text(WIDE)
    report = tmp_path / "report.html"
    argv = ["judge", str(path), "--candidate", "judge", "--raters", "a,b,c"]
    argv += ["--coefficient", coefficient, "--seed", "1", "--report", str(report)]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out
    html = report.read_text()
    # The member table comes before the pairwise matrix, whose rows start alike.
    rows = [line for line in out.splitlines() if line.startswith(("  a ", "  b ", "  c "))][:3]
    if note is None:
        assert "Interpretation" not in out and "Landis" not in html
        assert all(row.split()[2][0].isdigit() for row in rows), rows  # no band column word
        return
    assert note in " ".join(out.split()), out
    assert reference in html and note.split(":")[0] in html
    words = {"reliable", "tentative", "not"} if coefficient == "krippendorff" else None
    if words is not None:
        assert all(row.split()[2] in words for row in rows), rows
    else:
        assert not any("reliable" in row for row in rows), rows
    if coefficient == "conger":
        assert "Krippendorff" not in html
