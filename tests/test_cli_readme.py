"""The README's "Command line" section shows real output: every ``$ wkappa ...`` command of
its ``console`` blocks is run (in order, in one scratch directory, through a shell so that
pipes work) and must print exactly what the README shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

README = Path(__file__).resolve().parents[1] / "README.md"


def _examples() -> list[tuple[str, str]]:
    text = README.read_text()
    section = text.split("\n## Command line\n", 1)[1].split("\n## ", 1)[0]
    examples = []
    for block in re.findall(r"```console\n(.*?)```", section, flags=re.S):
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
def test_readme_commands_print_what_the_readme_shows(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "wkappa"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m wkappa "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    for command, shown in _examples():
        proc = subprocess.run(
            command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=300
        )
        printed = (proc.stdout + proc.stderr).rstrip("\n")
        assert printed == shown, f"$ {command}\n--- README shows:\n{shown}\n--- printed:\n{printed}"
