"""The command-line guide lists the top-level fields of each command's ``--format json``
document; every listed field is printed and every printed field is listed."""

from __future__ import annotations

import importlib.resources
import json
import re
import shutil
from pathlib import Path

import pytest

from wkappa._cli import main

pytest.importorskip("polars")

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "user-guide" / "cli.md"
# Fields every command that reads a file prints, named once before the list.
FILE_FIELDS = {"schema", "file", "rows_read", "rows_used", "rows_dropped", "dropped_because"}


def _listed() -> dict[str, set[str]]:
    """``command -> fields`` from the guide's bullets ``* `wkappa CMD`...: `a`, `b` (...)``;
    only the top level: backticked names inside parentheses describe nested objects."""
    listed = {}
    for bullet in re.findall(
        r"^\* `wkappa (\w+)`[^:]*:(.*?)(?=^\* |^$)", GUIDE.read_text(), re.M | re.S
    ):
        command, text = bullet
        depth, top = 0, []
        for char in text:
            depth += char == "("
            depth -= char == ")"
            top.append(char if depth == 0 else " ")
        listed[command] = set(re.findall(r"`([a-z_0-9]+)`", "".join(top)))
    return listed


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    work = tmp_path_factory.mktemp("json_fields")
    for name in ("ms_diagnosis.csv", "diabetes_oof.csv"):
        with importlib.resources.as_file(importlib.resources.files("wkappa.data") / name) as src:
            shutil.copy(src, work / name)
    (work / "judged.csv").write_text(
        "item,a,b,c,llm\n1,1,1,1,1\n2,2,2,3,2\n3,3,3,3,3\n4,1,2,1,1\n5,2,2,2,3\n6,3,2,3,3\n"
    )
    (work / "judges.csv").write_text(
        "target,j1,j2,j3,j4\n1,9,2,5,8\n2,6,1,3,2\n3,8,4,6,8\n4,7,1,2,6\n5,10,5,6,9\n6,6,2,4,7\n"
    )
    return work


ARGS = {
    "compare": ["diabetes_oof.csv", "--true", "grade", "--pred", "pred_all", "--pred",
                "pred_bmi", "--bootstrap", "199", "--seed", "0", "--cluster", "patient"],
    "thresholds": ["diabetes_oof.csv", "--true", "grade", "--score", "oof_score"],
    "agree": ["ms_diagnosis.csv", "--raters", "new_orleans_neurologist,winnipeg_neurologist",
              "--cluster", "patients"],
    "judge": ["judged.csv", "--candidate", "llm", "--raters", "a,b,c", "--bootstrap", "199",
              "--seed", "0", "--cluster", "item"],
    "icc": ["judges.csv", "--raters", "j1,j2,j3,j4"],
    "plan": ["--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.1,0.2,0.4,0.2,0.1"],
}  # fmt: skip


def test_the_guide_lists_every_command():
    assert set(_listed()) == set(ARGS)


@pytest.mark.parametrize("command", sorted(ARGS))
def test_listed_fields_are_the_printed_ones(command, workdir, capsys, monkeypatch):
    monkeypatch.chdir(workdir)
    assert main([command, *ARGS[command], "--format", "json", "--quiet"]) == 0
    printed = set(json.loads(capsys.readouterr().out)) - FILE_FIELDS
    assert printed == _listed()[command]
