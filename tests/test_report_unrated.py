"""A rater column left empty (an annotator who never started, an export that dropped one) is
counted among the raters, and the run warns of it; the methods sentence a researcher pastes
said "among 4 raters (a1, a2, a3, a4)" as if all four had rated. It names the one who gave
no rating, in ``agree`` and ``judge`` reports alike."""

from __future__ import annotations

import html
import re

import pytest

from wkappa._cli.app import main

pytestmark = [
    pytest.mark.integration,  # a report is drawn
    pytest.mark.filterwarnings("ignore:--raters a4 has no ratings:UserWarning"),
    pytest.mark.filterwarnings("ignore:--bootstrap 99 is few resamples:UserWarning"),
]

_ROWS = ["1,1,2,1,", "2,2,2,2,", "3,3,2,3,", "1,2,1,1,", "2,2,3,2,", "3,3,3,1,"]


def _methods(path) -> str:
    found = re.search(r'<p class="methods">(.*?)</p>', path.read_text(), flags=re.S)
    assert found is not None
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["agree", "--raters", "a1,a2,a3,a4"],
         "among 4 raters (a1, a2, a3, a4; a4 gave no rating)"),
        (["judge", "--raters", "a1,a2,a4", "--candidate", "a3", "--bootstrap", "99", "--seed", "1"],
         "a panel of 3 raters (a1, a2, a4; a4 gave no rating)"),
    ],
)  # fmt: skip
def test_the_methods_sentence_names_a_rater_without_ratings(tmp_path, capsys, command, expected):
    data = tmp_path / "panel.csv"
    data.write_text("a1,a2,a3,j,a4\n" + "\n".join(_ROWS) + "\n")
    out = tmp_path / "r.html"
    assert main([command[0], str(data), *command[1:], "--report", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert expected in _methods(out)
    full = tmp_path / "full.html"
    every = [c.replace("a4", "j") for c in command]
    assert main([every[0], str(data), *every[1:], "--report", str(full), "--quiet"]) == 0
    assert "gave no rating" not in _methods(full)
