"""Rating exports as annotation tools and spreadsheets write them, read by ``agree``,
``judge`` and ``icc`` as a team lead would read them."""

from __future__ import annotations

import pytest

import wkappa as wk
from cli_calls import json_output, refusal

_LONG = ["--item", "item", "--rater", "rater", "--rating", "score"]
_ROWS = [("1", "A", "3"), ("1", "B", "4"), ("2", "A", "2"), ("2", "B", "2"), ("3", "A", "5"),
         ("3", "B", "4"), ("4", "A", "1"), ("4", "B", "2"), ("1", "C", "3"), ("2", "C", "2"),
         ("3", "C", "4"), ("4", "C", "1")]  # fmt: skip
_WIDE = [[3, 4, 3], [2, 2, 2], [5, 4, 4], [1, 2, 1]]  # items x raters A, B, C


def _csv(path, rows, separator=",", end="\n", head="item,rater,score"):
    text = head.replace(",", separator) + end
    text += "".join(separator.join(r) + end for r in rows)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("command", "extra"), [(["agree"], []), (["judge"], ["--candidate", "C", "--bootstrap", "99"])]
)
@pytest.mark.parametrize(("last", "option", "shown"), [
    (("Total", "", "20"), "--rater", "'20'"),
    (("", "", " 3.0 "), "--item", "'3.0'"),
])  # fmt: skip
def test_a_summary_row_at_the_end_is_named_with_its_row(tmp_path, capsys, command, extra,
                                                        last, option, shown):  # fmt: skip
    """A total or summary row at the end of a long export (a number in the rating column, no
    ids) was refused as "a missing id (an empty cell)" without saying where; the refusal now
    names its file row (a blank line counted) and its rating, and says what it may be."""
    path = tmp_path / "export.csv"
    rows = [*_ROWS[:4], ("", "", ""), *_ROWS[4:], last]
    _csv(path, rows)
    err = refusal(capsys, [*command, str(path), *_LONG, *extra])
    column = "rater" if option == "--rater" else "item"
    assert err.endswith(
        f"export.csv, row {len(rows)}: {option} column {column!r} has a missing id (an empty "
        f"cell) beside the rating {shown}. Hint: every rating needs its id; fill it in, or "
        "delete the row (a total or summary row at the end of an export is no rating)."
    ), err
    path.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")  # without it
    document = json_output(capsys, [*command, str(path), *_LONG, *extra])
    assert document["n_items"] == 4


def test_a_missing_id_without_a_rating_is_no_row_to_name(tmp_path, capsys):
    """A row with neither id nor rating is no rating: it is left out as before."""
    path = _csv(tmp_path / "export.csv", [*_ROWS, ("", "", "")])
    assert json_output(capsys, ["agree", str(path), *_LONG])["n_items"] == 4


def test_excel_csv_with_a_bom_crlf_and_semicolons(tmp_path, capsys):
    """Excel's "CSV UTF-8" with ';' separators (a BOM, CRLF line ends): the same numbers as
    the plain CSV, once --separator ';' is given (and a hint says so without it)."""
    plain = _csv(tmp_path / "plain.csv", _ROWS)
    excel = tmp_path / "excel.csv"
    excel.write_bytes(b"\xef\xbb\xbf" + _csv(tmp_path / "x", _ROWS, ";", "\r\n").read_bytes())
    err = refusal(capsys, ["agree", str(excel), *_LONG])
    assert "Hint: it looks separated by ';': pass --separator ';'." in err
    for command in (["agree", "--weights", "quadratic"], ["icc"]):
        expected = json_output(capsys, [command[0], str(plain), *_LONG, *command[1:]])
        found = json_output(capsys, [command[0], str(excel), *_LONG, *command[1:],
                                     "--separator", ";"])  # fmt: skip
        expected.pop("file"), found.pop("file")
        assert found == expected
    assert expected["icc"]["A,1"]["statistic"] == pytest.approx(wk.icc(_WIDE).statistic)


def test_tsv_with_quoted_tabs_and_newlines(tmp_path, capsys):
    """A TSV whose comment column holds quoted tabs and a quoted line break reads its rows
    as the plain file's."""
    path = tmp_path / "export.tsv"
    lines = ["item\trater\tcomment\tscore"]
    for i, (item, rater, score) in enumerate(_ROWS):
        comment = ['"has\ttab"', '"two\nlines"', "plain", '""'][i % 4]
        lines.append(f"{item}\t{rater}\t{comment}\t{score}")
    path.write_text("\n".join(lines) + "\n")
    document = json_output(capsys, ["agree", str(path), *_LONG, "--weights", "quadratic"])
    assert document["rows_read"] == len(_ROWS)
    expected = wk.agreement(_WIDE, weights="quadratic").statistic
    assert document["statistic"] == pytest.approx(expected, abs=1e-12)


def test_float_item_ids_are_the_int_ids(tmp_path, capsys):
    """--item written 1.0, 2.0 (a spreadsheet's numbers) gives the items 1, 2; mixing 1 and
    1.0 in one column is refused naming both rows."""
    ints = _csv(tmp_path / "ints.csv", _ROWS)
    floats = _csv(tmp_path / "floats.csv", [(f"{i}.0", r, s) for i, r, s in _ROWS])
    for command in (
        ["agree"],
        ["icc"],
        ["judge", "--candidate", "C", "--bootstrap", "99", "--seed", "0"],
    ):
        expected = json_output(capsys, [command[0], str(ints), *_LONG, *command[1:]])
        found = json_output(capsys, [command[0], str(floats), *_LONG, *command[1:]])
        expected.pop("file"), found.pop("file")
        assert found == expected, command
    mixed = _csv(tmp_path / "mixed.csv", [(f"{i}.0" if r == "B" else i, r, s) for i, r, s in _ROWS])
    err = refusal(capsys, ["agree", str(mixed), *_LONG])
    assert "has the ids '1' (row 1) and '1.0' (row 2), the same number written two ways" in err


def test_rater_ids_that_differ_in_case_or_spaces(tmp_path, capsys):
    """Rater ids with surrounding spaces are one rater (stripped); ids that differ only by
    case are refused naming both rows (one rater or two is the user's call)."""
    padded = _csv(
        tmp_path / "padded.csv", [(i, f" {r} " if i == "2" else r, s) for i, r, s in _ROWS]
    )
    plain = _csv(tmp_path / "plain.csv", _ROWS)
    found = json_output(capsys, ["agree", str(padded), *_LONG])
    expected = json_output(capsys, ["agree", str(plain), *_LONG])
    assert found["raters"] == expected["raters"] == ["A", "B", "C"]
    assert found["statistic"] == expected["statistic"]
    cased = _csv(
        tmp_path / "cased.csv", [(i, r.lower() if i == "3" else r, s) for i, r, s in _ROWS]
    )
    err = refusal(capsys, ["agree", str(cased), *_LONG])
    assert "has the ids 'A' (row 1) and 'a' (row 5), which differ only by case" in err


def _prodigy(path, answers):
    """A Prodigy-like export saved as CSV: each answer a JSON list of the chosen labels."""
    lines = ["_input_hash,_annotator_id,accept"]
    for n, (first, second) in enumerate(answers):
        for annotator, answer in (("news-alice", first), ("news-bob", second)):
            lines.append(f'{-1000 - n},{annotator},"{answer.replace(chr(34), chr(34) * 2)}"')
    path.write_text("\n".join(lines) + "\n")
    return path


_PRODIGY = ["--item", "_input_hash", "--rater", "_annotator_id", "--rating", "accept"]


def test_a_multi_choice_or_empty_answer_is_refused_with_its_row(tmp_path, capsys):
    """An annotation tool's multi-choice answer (a JSON list of several labels) or empty
    selection (``[]``) exported as one cell counted as a category of its own, silently
    ("SPORTS+POLITICS" and "nothing" among the labels); it is refused naming its row, with
    the fix. One label in a list is one category, as before."""
    single = [('["SPORTS"]', '["SPORTS"]'), ('["POLITICS"]', '["SPORTS"]'),
              ('["POLITICS"]', '["POLITICS"]'), ('["SPORTS"]', '["SPORTS"]')]  # fmt: skip
    command = ["agree"]
    path = _prodigy(tmp_path / "prodigy.csv", single)
    document = json_output(capsys, [*command, str(path), *_PRODIGY])
    assert document["labels"] == ['["POLITICS"]', '["SPORTS"]']
    several = _prodigy(
        tmp_path / "several.csv", [*single, ('["SPORTS", "POLITICS"]', '["SPORTS"]')]
    )
    err = refusal(capsys, [*command, str(several), *_PRODIGY])
    assert err.endswith(
        "several.csv, row 9: column 'accept' has the rating '[\"SPORTS\", \"POLITICS\"]', a "
        "list of 2 labels as an annotation tool exports a multi-choice answer; each distinct "
        "list would count as a category of its own. Hint: export one label per rating, or "
        "score each label as a yes/no column of its own (a multi-label task)."
    ), err
    empty = _prodigy(tmp_path / "empty.csv", [*single, ('["SPORTS"]', "[]")])
    err = refusal(capsys, [*command, str(empty), *_PRODIGY])
    assert "empty.csv, row 10: column 'accept' has the rating '[]', a list of no label" in err
    assert err.endswith("Hint: export one label per rating, or declare it missing, "
                        "--na-values '[]'.")  # fmt: skip
    document = json_output(capsys, [*command, str(empty), *_PRODIGY, "--na-values", "[]"])
    assert document["rows_used"] == 9


def test_a_label_studio_list_in_a_wide_file_and_judge(tmp_path, capsys):
    """Wide files (agree, judge) are checked too: Label Studio's multi-choice cell (the long
    file of judge is read as agree's, by rater_files.count_raters_long)."""
    one = '"[{""choices"": [""Positive""]}]"'
    two = '"[{""choices"": [""Positive"", ""Neutral""]}]"'
    path = tmp_path / "wide.csv"
    path.write_text(f"a,b,llm\n{one},{one},{one}\n{one},{two},{one}\n")
    err = refusal(capsys, ["judge", str(path), "--raters", "a,b", "--candidate", "llm"])
    assert "wide.csv, row 2: column 'b' has the rating" in err and "a list of 2 labels" in err
    err = refusal(capsys, ["agree", str(path), "--raters", "a,b,llm"])
    assert "a list of 2 labels" in err
