"""A spreadsheet workbook given as the data file: one message, whatever its name."""

from __future__ import annotations

import zipfile

import pytest

from cli_calls import refusal

_FIX = "Hint: open it and save the sheet as 'CSV UTF-8', then pass that file."
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)


def _xlsx(path):
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("[Content_Types].xml", "<Types/>")
        book.writestr("xl/workbook.xml", "<workbook/>")
    return path


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("book.xlsx", "an Excel .xlsx workbook"),
        ("book.XLSX", "an Excel .xlsx workbook"),
        ("book.xls", "an Excel .xls workbook"),
        ("book.xlsm", "an Excel .xlsm workbook"),
        ("book.ods", "an OpenDocument (.ods) spreadsheet"),
    ],
)
def test_a_workbook_by_its_name_gets_the_save_as_csv_hint(tmp_path, capsys, name, what):
    """It said "cannot tell the format ... pass --input-format with one of csv, ...", and no
    --input-format reads a workbook."""
    path = _xlsx(tmp_path / name)
    err = refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert f"{path} names {what}, which wkappa does not read. {_FIX}" in err, err
    assert "--input-format" not in err


def test_an_xls_workbook_by_its_content_gets_the_same_hint(tmp_path, capsys):
    path = tmp_path / "book.csv"
    path.write_bytes(_OLE)
    err = refusal(capsys, ["agree", str(path), "--raters", "a,b"])
    assert "is an OLE2 compound file (an Excel .xls workbook is one), not a CSV file." in err
    assert err.endswith(_FIX), err


@pytest.mark.parametrize("name", ["new.xlsx", "new.ods"])
def test_a_workbook_given_to_apply_gets_the_save_as_csv_hint(tmp_path, capsys, name):
    """thresholds --apply book.xlsx said "cannot tell the format ... name it with .csv, ...";
    it gets the main input's message, naming --apply."""
    fitted = tmp_path / "fit.csv"
    fitted.write_text("truth,score\n" + "".join(f"{i % 3},{i % 3 + 0.1}\n" for i in range(12)))
    book = _xlsx(tmp_path / name)
    argv = ["thresholds", str(fitted), "--true", "truth", "--score", "score"]
    err = refusal(capsys, [*argv, "--apply", str(book), "--out", str(tmp_path / "graded.csv")])
    assert f"{book} (--apply) names an " in err and err.endswith(_FIX), err
    assert "cannot tell the format" not in err
