"""Calls of the command line's ``main`` in the test process, for the tests that read its
output: a JSON document, or the one line of a refusal."""

from __future__ import annotations

import json
from typing import Any

from wkappa._cli import main


def json_output(capsys: Any, argv: list[str]) -> dict[str, Any]:
    """The JSON document a successful ``--format json --quiet`` run prints."""
    assert main([*argv, "--format", "json", "--quiet"]) == 0, capsys.readouterr().err
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def refusal(capsys: Any, argv: list[str]) -> str:
    """The one line on stderr of a run refused with exit code 2."""
    assert main(argv) == 2
    err: str = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err
