"""Excel's ``sep=;`` line: a CSV file saved for Excel may name its separator in a first line
before the header. The line was read as the header (columns ``'sep='`` and ``''``), and the
refusal's hint, to give every column a name, did not fix it; the line names the separator, so
the file is read with it, and a ``--separator`` that says otherwise is refused."""

from __future__ import annotations

import io
import sys

import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli.app import main

_ROWS = [(1, 1, "0,5"), (2, 2, "1,5"), (3, 2, "2,5"), (1, 2, "1,2"), (3, 3, "2,9"), (2, 1, "1,1")]
_A = [a for a, _, _ in _ROWS]
_B = [b for _, b, _ in _ROWS]


def _excel(path, bom=True):
    lines = ["sep=;", "a;b;s", *(f"{a};{b};{s}" for a, b, s in _ROWS)]
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "\r\n".join(lines).encode() + b"\r\n")
    return path


@pytest.mark.parametrize("bom", [True, False])
def test_a_file_with_excel_separator_line_is_read_with_it(tmp_path, capsys, bom):
    path = _excel(tmp_path / "excel.csv", bom)
    document = json_output(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert document["statistic"] == wk.qwk(_A, _B)
    assert document["rows_read"] == len(_ROWS)
    # with --decimal-comma, the separator the line names is not the comma
    fit = json_output(capsys, ["thresholds", str(path), "--true", "a", "--score", "s",
                               "--decimal-comma"])  # fmt: skip
    scores = [float(s.replace(",", ".")) for _, _, s in _ROWS]
    assert fit["statistic"] == wk.optimize_thresholds(_A, scores).statistic


def test_the_separator_it_names_is_also_given(tmp_path, capsys):
    path = _excel(tmp_path / "excel.csv")
    argv = ["agree", str(path), "--raters", "a,b"]
    assert json_output(capsys, [*argv, "--separator", ";"])["n_items"] == len(_ROWS)
    err = refusal(capsys, [*argv, "--separator", ","])
    assert "names its separator in its first line, sep=;, but --separator ',' was given" in err


def test_standard_input_with_the_separator_line(tmp_path, capsys, monkeypatch):
    data = _excel(tmp_path / "excel.csv").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    document = json_output(capsys, ["score", "-", "--true", "a", "--pred", "b"])
    assert document["statistic"] == wk.qwk(_A, _B)


def test_apply_to_a_file_with_the_separator_line(tmp_path, capsys):
    path = _excel(tmp_path / "excel.csv")
    out = tmp_path / "graded.csv"
    argv = ["thresholds", str(path), "--true", "a", "--score", "s", "--decimal-comma",
            "--apply", str(path), "--out", str(out), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    lines = out.read_text().splitlines()
    assert lines[0] == "a;b;s;grade"
    assert [line.rsplit(";", 1)[0] for line in lines[1:]] == [f"{a};{b};{s}" for a, b, s in _ROWS]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"a;b\n1;1\n2;2;3\n", "line 4 (the header is line 2), has 3 fields"),
        (b"a;b\nl\xe9ger;x\n", "line 3 (the header is line 2), is not UTF-8 text"),
        (b'a;b\n1;"2\n3;3\n', 'line 3 (the header is line 2): a quote (") opens a value'),
        (b'a;b\n1;2"\n3;3\n', 'line 3 (the header is line 2): a quote (") in a value has no'),
    ],
    ids=["ragged", "not utf-8", "unclosed quote", "stray quote"],
)
def test_a_broken_line_is_named_as_the_file_numbers_it(tmp_path, capsys, body, expected):
    """Past the separator line, the lines a refusal names are the file's (an editor's)."""
    path = tmp_path / "excel.csv"
    path.write_bytes(b"sep=;\n" + body)
    assert expected in refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
