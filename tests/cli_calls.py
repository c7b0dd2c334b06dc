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


def without_pyarrow(monkeypatch: Any) -> None:
    """As if pyarrow were not installed (the ``cli`` extra does without it): the command
    line's reader of dictionary columns cannot import it."""
    from wkappa._cli import dictionaries

    real = dictionaries.import_optional

    def imported(module: str, extra: str) -> Any:
        if module.split(".")[0] == "pyarrow":
            raise ImportError(f"{module!r} is needed for this feature but is not installed.")
        return real(module, extra)

    monkeypatch.setattr(dictionaries, "import_optional", imported)
