"""Every command on degenerate data: no complete row, 1, 2 and 3 items, every rating alike,
one rater's column empty, a single category. Each run either succeeds with every undefined
value written as a word (never ``nan``, ``inf`` or ``None`` in a table a user hands in; JSON
strict, its undefined values ``null``; its warnings in the command line's words) or is
refused with one error line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from wkappa._cli import main

pytestmark = pytest.mark.integration

HEADER = "a,b,c,s\n"
FILES = {
    "header only": "",
    "no complete row": "1,,2,0.5\n,2,,0.1\n",
    "1 item": "1,1,2,0.5\n",
    "2 items": "1,1,1,0.5\n2,2,1,1.5\n",
    "3 items": "1,1,1,0.5\n2,2,2,1.5\n3,3,2,2.5\n",
    "perfect agreement": "1,1,1,0.5\n2,2,2,1.5\n3,3,3,2.5\n1,1,1,0.7\n2,2,2,1.2\n",
    "ratings alike": "2,2,2,0.5\n2,2,2,1.5\n2,2,2,2.5\n2,2,2,0.7\n",
    "a rater column empty": "1,,2,0.5\n2,,2,1.5\n3,,3,2.5\n1,,1,0.7\n",
    "a single category": "1,1,1,0.5\n1,1,1,0.5\n1,1,1,0.5\n",
    "scores alike": "1,2,1,0.5\n2,2,2,0.5\n3,1,3,0.5\n1,2,2,0.5\n",
}
COMMANDS = {
    "score": ["--true", "a", "--pred", "b"],
    "agree": ["--raters", "a,b,c"],
    "judge": ["--candidate", "c", "--raters", "a,b", "--seed", "1", "--bootstrap", "999"],
    "icc": ["--raters", "a,b,c"],
    "compare": ["--true", "a", "--pred", "b", "--pred", "c", "--seed", "1", "--bootstrap", "999"],
    "thresholds": ["--true", "a", "--score", "s"],
}
# Python's spellings of values that are not numbers, and a traceback's words.
RAW = re.compile(r"(?<![\w.-])-?(nan|inf|None|NaN|Infinity)(?![\w-])|Traceback")


def _strict(constant: str) -> Any:
    raise AssertionError(f"JSON holds {constant}")


def _check(capsys: Any, argv: list[str], fmt: str) -> int:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err, err
    if code == 2:
        assert out == "" and err.startswith("wkappa: error: "), (out, err)
        assert len(err.strip().splitlines()) == 1, err
        return code
    # Warnings in the command line's words: what is shown, not what the library returns.
    assert not re.search(r"Returning|\bnan\b|[a-z]='", err), err
    if fmt == "json":
        json.loads(out, parse_constant=_strict)
    elif fmt == "csv":
        assert ",nan," not in out and ",None," not in out, out
    else:
        assert not RAW.search(out), out
    return code


def _file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "ratings.csv"
    path.write_text(HEADER + FILES[name])
    return path


@pytest.mark.parametrize("fmt", ["text", "json", "explain"])
@pytest.mark.parametrize("policy", ["raise", "omit"])
@pytest.mark.parametrize("data", list(FILES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_degenerate_files(tmp_path, capsys, command, data, policy, fmt):
    argv = [command, str(_file(tmp_path, data)), *COMMANDS[command], "--quiet"]
    argv += ["--nan-policy", policy]
    argv += ["--explain"] if fmt == "explain" else ["--format", fmt]
    _check(capsys, argv, fmt)


@pytest.mark.parametrize("data", list(FILES))
@pytest.mark.parametrize("command", ["score", "agree"])
def test_degenerate_files_as_csv(tmp_path, capsys, command, data):
    argv = [command, str(_file(tmp_path, data)), *COMMANDS[command], "--quiet"]
    _check(capsys, [*argv, "--nan-policy", "omit", "--format", "csv"], "csv")


@pytest.mark.parametrize("data", ["1 item", "2 items", "perfect agreement", "ratings alike"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_degenerate_reports(tmp_path, capsys, command, data):
    report = tmp_path / "report.html"
    argv = [command, str(_file(tmp_path, data)), *COMMANDS[command], "--quiet"]
    if _check(capsys, [*argv, "--nan-policy", "omit", "--report", str(report)], "text") == 0:
        page = re.sub(r"<(script|style)\b.*?</\1>", " ", report.read_text(), flags=re.S)
        text = re.sub(r"<[^>]*>", " ", page)
        assert not RAW.search(text), RAW.search(text)


PLANS = {
    "2 items": ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--n", "2"],
    "3 items": ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--n", "3"],
    "1 item": ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--n", "1"],
    "a single category": ["--kappa1", "0.6", "--marginals", "1"],
    "every rating alike": ["--kappa1", "0.6", "--marginals", "1,0"],
    "kappa1 = kappa0": ["--kappa1", "0.6", "--kappa0", "0.6", "--marginals", "0.5,0.5"],
    "perfect agreement": ["--table", "5,0;0,5", "--n", "3"],
    "a table of one category": ["--table", "5,0;0,0"],
    "a ragged marginal": ["--kappa1", "0.6", "--marginals", "0.2,0.8;0.3,0.2,0.5"],
    "lower limit, 2 items": [
        "--kappa1", "0.6", "--marginals", "0.5,0.5", "--lower-limit", "0.5", "--n", "2"
    ],
}  # fmt: skip


@pytest.mark.parametrize("fmt", ["text", "json", "explain"])
@pytest.mark.parametrize("case", list(PLANS))
def test_degenerate_plans(capsys, case, fmt):
    argv = ["plan", *PLANS[case], "--quiet"]
    argv += ["--explain"] if fmt == "explain" else ["--format", fmt]
    _check(capsys, argv, fmt)


def test_a_single_category_marginal_is_refused_in_the_option_s_words(capsys):
    code = main(["plan", "--kappa1", "0.6", "--marginals", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "got '1'." in err and "shape" not in err, err
