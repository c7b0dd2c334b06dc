"""The documentation shows real command-line output: every ``$ wkappa ...`` command of the
``console`` blocks of the command-line guide, the getting-started page and the study-planning
how-to is run (page by page, in order, in one scratch directory per page, through a shell so
that pipes work) and must print exactly what the page shows (a number printed with all its
digits may differ from the page's in its last digits only: standard errors go through BLAS,
whose sums depend on the CPU)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = [
    DOCS / "user-guide" / "cli.md",
    DOCS / "getting-started.md",
    DOCS / "how-to" / "double-label.md",
]


# A float printed with 15 or more significant digits (the CSV and JSON outputs' repr).
_FULL_FLOAT = re.compile(r"-?\d+\.\d{14,}(?:e[-+]\d+)?|-?\d\.\d{13,}e[-+]\d+")


def _to_12_digits(text: str) -> str:
    return _FULL_FLOAT.sub(lambda m: f"{float(m[0]):.12g}", text)


def test_full_precision_floats_compare_to_12_digits():
    assert _to_12_digits("a,0.050773463055666775,x") == _to_12_digits("a,0.05077346305566677,x")
    assert _to_12_digits("0.050773463055666775") != _to_12_digits("0.050773463055766775")
    assert _to_12_digits("p 1.754610065183383e-23") == "p 1.75461006518e-23"
    assert _to_12_digits("kappa 0.5887") == "kappa 0.5887"  # rounded output stays exact


def _examples(page: Path = PAGES[0]) -> list[tuple[str, str]]:
    examples = []
    for block in re.findall(r"```console\n(.*?)```", page.read_text(), flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output.rstrip("\n")))
    return examples


def test_the_section_has_examples():
    commands = [c for c, _ in _examples()]
    assert len(commands) >= 7
    for sub in ("score", "thresholds", "compare", "demo"):
        assert any(c.split("wkappa ")[-1].startswith(sub) for c in commands), sub


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_commands_print_what_the_page_shows(tmp_path, page):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "wkappa"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m wkappa "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    examples = _examples(page)
    assert examples, page
    for command, shown in examples:
        proc = subprocess.run(
            command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=300
        )
        printed = (proc.stdout + proc.stderr).rstrip("\n")
        assert _to_12_digits(printed) == _to_12_digits(shown), (
            f"$ {command}\n--- {page.name} shows:\n{shown}\n--- printed:\n{printed}"
        )
