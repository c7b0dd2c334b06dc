"""Every subcommand on the messy files real users hand in: a file saved by Excel (cp1252),
duplicated header names, undefined results; errors are one line on stderr with exit code 2."""

from __future__ import annotations

import html
import json
import re

import pytest

from wkappa._cli import main

pytest.importorskip("polars")

# (subcommand, its column options) for every command that reads a rating file
READERS = [
    ("score", ["--true", "a", "--pred", "b"]),
    ("compare", ["--true", "a", "--pred", "b", "--pred", "c"]),
    ("agree", ["--raters", "a,b,c"]),
    ("icc", ["--raters", "a,b,c"]),
    ("judge", ["--candidate", "a", "--raters", "b,c"]),
    ("thresholds", ["--true", "a", "--score", "b"]),
]


def _error(capsys, argv: list[str]) -> str:
    """The one line on stderr of a command that must fail with exit code 2."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("wkappa: error: "), err
    assert "Traceback" not in err and "internal error" not in err
    # The command line's words: options, not the library's keywords.
    assert not re.search(r"`\w+`|\b(labels|min_rating|max_rating|weights)=", err), err
    assert not re.search(r"\b(y_true|y_pred|min_rating|max_rating|nan_policy)\b", err), err
    return err


@pytest.mark.parametrize(("command", "columns"), READERS)
def test_a_file_that_is_not_utf8_is_refused_naming_its_line(tmp_path, capsys, command, columns):
    path = tmp_path / "excel.csv"
    path.write_bytes("a;b;c\r\n1;1;2\r\n2;2;2\r\n3;3;3\r\nl\xe9ger;2;3\r\n".encode("cp1252"))
    err = _error(capsys, [command, str(path), *columns, "--separator", ";"])
    assert "excel.csv, line 5 (the header is line 1), is not UTF-8" in err
    assert "iconv -f cp1252" in err


def test_a_bad_byte_past_the_first_mebibyte_is_refused_too(tmp_path, capsys):
    path = tmp_path / "late.csv"
    path.write_bytes(b"a,b,c\n" + b"1,2,3\n" * 200_000 + b"2,\xe9,3\n")
    err = _error(capsys, ["agree", str(path), "--raters", "a,b,c"])
    assert "late.csv is not UTF-8" in err


def test_standard_input_that_is_not_utf8_is_refused(capsys, monkeypatch):
    import io
    import sys

    data = "a,b\nl\xe9ger,l\xe9ger\n".encode("cp1252")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    err = _error(capsys, ["score", "-", "--true", "a", "--pred", "b"])
    assert "<stdin>, line 2 (the header is line 1), is not UTF-8" in err


@pytest.mark.parametrize(("command", "columns"), READERS)
def test_a_column_named_twice_in_the_header_is_ambiguous(tmp_path, capsys, command, columns):
    """polars renames the second 'a' to 'a_duplicated_0'; the first was scored silently."""
    path = tmp_path / "twice.csv"
    path.write_text("a,b,c,a\n1,1,2,3\n2,2,2,1\n3,3,3,2\n1,2,1,3\n")
    err = _error(capsys, [command, str(path), *columns])
    assert "twice.csv has 2 columns named 'a' (given to " in err


def test_the_renamed_copy_of_a_column_named_twice_is_refused_too(tmp_path, capsys):
    path = tmp_path / "twice.csv"
    path.write_text("a,b,a\n1,1,2\n2,2,2\n3,3,3\n")
    err = _error(capsys, ["score", str(path), "--true", "b", "--pred", "a_duplicated_0"])
    assert "has 2 columns named 'a' (given to --pred)" in err


def test_a_column_named_twice_that_is_not_used_is_fine(tmp_path, capsys):
    path = tmp_path / "twice.csv"
    path.write_text("a,b,note,note\n1,1,x,y\n2,2,x,y\n3,3,x,y\n")
    assert main(["score", str(path), "--true", "a", "--pred", "b", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("3,1.0,")


def test_thresholds_of_a_single_grade_name_the_option_not_the_keyword(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("grade,score\n1,0.1\n1,0.5\n1,0.7\n")
    err = _error(capsys, ["thresholds", str(path), "--true", "grade", "--score", "score"])
    assert "--true column 'grade' has only the grade 1:" in err and "y_true" not in err


@pytest.mark.parametrize(
    ("extra", "wanted"),
    [
        (["--population-size", "2"], "--population-size = 2 is smaller than the 4 items"),
        (["--population-size", "0"], "--population-size must be a positive whole number"),
        (["--min-rating", "2"], "row 1: column 'a' contains the rating 1, below --min-rating = 2."),
        (["--labels", "1,2"], "which is not in --labels 1,2. Hint: add it to --labels or fix"),
    ],
)
def test_agree_errors_speak_in_options(tmp_path, capsys, extra, wanted):
    path = tmp_path / "r.csv"
    path.write_text("a,b,c\n1,1,2\n2,2,2\n3,3,3\n1,2,1\n")
    err = _error(capsys, ["agree", str(path), "--raters", "a,b,c", *extra])
    assert wanted in err
    assert "`" not in err and "population_size" not in err and "None" not in err


@pytest.mark.parametrize(
    ("command", "columns"),
    [("agree", ["--raters", "a,b,c"]), ("judge", ["--candidate", "b", "--raters", "a,c"])],
)
def test_a_text_rater_column_beside_numbers_is_refused_as_mixed(tmp_path, capsys, command, columns):
    """It said 1 was not in --labels ['1', ...], an option the user never gave."""
    path = tmp_path / "mixed.csv"
    path.write_text("a,b,c\n1,x,2\n2,y,2\n3,z,3\n1,x,1\n")
    err = _error(capsys, [command, str(path), *columns])
    assert "--labels" not in err
    # It said "holds numbers or booleans" and "strings", without the file, and that the
    # columns should be converted "to one kind".
    kinds = r"mixed\.csv: column '\w' holds (numbers|words) but column '\w' holds (words|numbers)"
    found = re.search(kinds + ", so no rating of one can equal a rating of the other.", err)
    assert found is not None and found[1] != found[2], err
    assert "Hint: check that the options name the rater columns you mean" in err, err


def _visible(page: str) -> str:
    """The text of an HTML page without its tags and inline images."""
    import re

    return re.sub(r"<[^>]*>", " ", re.sub(r'src="data:[^"]*"', "", page))


@pytest.mark.parametrize(
    ("command", "columns", "report"),
    [
        ("score", ["--true", "a", "--pred", "b", "--by", "c"], True),
        ("compare", ["--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "99"], True),
        ("agree", ["--raters", "a,b,c"], True),
        ("judge", ["--candidate", "a", "--raters", "b,c", "--bootstrap", "99"], True),
        ("icc", ["--raters", "a,b,c"], False),
    ],
)
def test_undefined_values_print_as_undefined_not_nan(tmp_path, capsys, command, columns, report):
    """Every rating in one category: kappa, ICC and their intervals are undefined. Text and
    the HTML report say so (JSON has null); they printed 'nan' and '[nan, nan]'."""
    import re

    path = tmp_path / "one.csv"
    path.write_text("a,b,c\n2,2,2\n2,2,2\n2,2,2\n")
    out = tmp_path / "r.html"
    argv = [command, str(path), *columns, *(["--report", str(out)] if report else [])]
    assert main(argv) == 0
    text = capsys.readouterr().out
    pages = [text, *([_visible(out.read_text())] if report else [])]
    for page in pages:
        assert "undefined" in page
        assert not re.search(r"\bnan\b", page), page


def test_a_cell_of_spaces_is_a_missing_rating_in_number_columns(tmp_path, capsys):
    """' ' in a number column was 'the unparsable value'; it is a blank cell, as '' is."""
    path = tmp_path / "spaces.csv"
    path.write_text("a,b,c\n1,1, \n2, ,2\n3,3, \n1,2, \n")
    err = _error(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert "row 2: column 'b' has a missing rating" in err
    empty = tmp_path / "empty.csv"
    empty.write_text("a,b,c\n1,1,\n2,,2\n3,3,\n1,2,\n")
    for command, columns in [
        ("score", ["--true", "a", "--pred", "b", "--nan-policy", "omit"]),
        ("agree", ["--raters", "a,b,c"]),
        ("icc", ["--raters", "a,b,c"]),
    ]:
        outputs = []
        for file in (path, empty):
            assert main([command, str(file), *columns, "--format", "json"]) == 0
            outputs.append(capsys.readouterr().out.replace(str(file), "FILE"))
        assert outputs[0] == outputs[1], command


def test_a_cell_of_spaces_is_not_a_category_of_text_ratings(tmp_path, capsys):
    """' ' in a column of words was a category ' ' (or '' with --strip-labels): kappa
    counted a blank cell as a rating."""
    import json

    path = tmp_path / "words.csv"
    path.write_text("a,b,c\nmild,mild,severe\nsevere, ,severe\nmild,mild,mild\nnone,none, \n")
    for spelling in ([], ["--strip-labels"]):
        assert main(["agree", str(path), "--raters", "a,b,c", "--format", "json", *spelling]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["labels"] == ["mild", "none", "severe"]
        assert document["n_ratings"] == 10
    err = _error(capsys, ["score", str(path), "--true", "a", "--pred", "b", "--weights",
                          "unweighted"])  # fmt: skip
    assert "row 2: column 'b' has a missing rating" in err


@pytest.mark.parametrize("spelling", ["NaN", "nan", "#N/A", "n/a", ".", "-", "missing"])
@pytest.mark.parametrize(
    ("command", "columns"),
    [
        ("score", ["--true", "a", "--pred", "b", "--weights", "unweighted"]),
        ("agree", ["--raters", "a,b"]),
        ("judge", ["--candidate", "a", "--raters", "b,c"]),
    ],
)
def test_a_word_for_a_missing_value_is_not_a_category(tmp_path, capsys, spelling, command, columns):
    """'NaN', '#N/A', '.', '-', 'missing' among words were counted as a category; 'NaN' also
    made the column look numeric, and the error blamed the word after it."""
    path = tmp_path / "words.csv"
    path.write_text(f"a,b,c\nmild,mild,mild\nsevere,{spelling},severe\nnone,none,none\n")
    err = _error(capsys, [command, str(path), *columns])
    assert f"row 2: column 'b' holds {spelling!r}, which reads as a missing value" in err
    # listed in --labels it is a category
    labels = f"--labels=none,mild,severe,{spelling}"
    assert main([command, str(path), *columns, labels, "--format", "json"]) == 0, (
        capsys.readouterr()
    )
    capsys.readouterr()


def test_nan_in_a_number_column_is_still_a_missing_rating(tmp_path, capsys):
    path = tmp_path / "numbers.csv"
    path.write_text("a,b\n1,1\n2,NaN\n3,3\n1,nan\n")
    assert main(["score", str(path), "--true", "a", "--pred", "b", "--nan-policy", "omit",
                 "--format", "csv"]) == 0  # fmt: skip
    assert capsys.readouterr().out.splitlines()[1].startswith("2,1.0,")


def test_icc_names_an_empty_rater_column_and_a_missing_rating_by_the_file(tmp_path, capsys):
    """The library counts raters and items from 0: 'from rater 2', 'at item 0, rater 2'."""
    path = tmp_path / "icc.csv"
    path.write_text("a,b,c\n1,1,\n2,2,\n3,3,\n1,2,\n")
    err = _error(capsys, ["icc", str(path), "--raters", "a,b,c"])
    assert "column 'c' of --raters has no rating at all" in err and "rater 2" not in err
    err = _error(capsys, ["icc", str(path), "--raters", "a,b,c", "--nan-policy", "raise"])
    assert "icc.csv, row 1: column 'c' has a missing rating" in err
    assert "--nan-policy propagate shows every ICC as undefined." in err  # not 'returns nan'


@pytest.mark.parametrize(
    "argv",
    [
        ["icc", "FILE", "--raters", "a,b,c", "--nan-policy", "propagate"],
        ["agree", "FILE", "--raters", "a,b,c"],
        ["plan", "--kappa1", "0.8", "--marginals", "0.5,0.5"],
    ],
)
def test_json_has_no_nan_token(tmp_path, capsys, argv):
    """icc --format json wrote the token NaN (n_ratings under propagate): not JSON."""
    import json

    path = tmp_path / "icc.csv"
    path.write_text("a,b,c\n1,1,\n2,2,\n3,3,\n1,2,\n")
    argv = [str(path) if a == "FILE" else a for a in argv]
    assert main([*argv, "--format", "json"]) == 0

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} is not JSON")

    json.loads(capsys.readouterr().out, parse_constant=refuse)


def test_a_decimal_comma_gets_a_hint(tmp_path, capsys):
    path = tmp_path / "excel.csv"
    path.write_bytes(b"a;b;c\r\n1,5;1;2\r\n2;2;2\r\n3;3;3\r\n")
    err = _error(capsys, ["icc", str(path), "--raters", "a,b,c", "--separator", ";"])
    assert "row 1: column 'a' has the unparsable value '1,5'" in err
    assert "decimal comma" in err and "pass --decimal-comma" in err


# A European spreadsheet's export: ';' between fields, a decimal comma in the scores.
_EUROPEAN = b"id;grade;score\r\n1;1;0,8\r\n2;1;1,6\r\n3;2;1,9\r\n4;2;2,6\r\n5;3;2,4\r\n6;3;3,1\r\n"


@pytest.mark.parametrize(
    "command",
    [
        ["icc", "--raters", "grade,score"],
        ["thresholds", "--true", "grade", "--score", "score"],
    ],
    ids=lambda argv: argv[0],
)
def test_decimal_comma_reads_what_the_file_means(tmp_path, capsys, command):
    """--decimal-comma reads 0,8 as 0.8: the result is that of the file written with points."""
    import json

    comma, point = tmp_path / "comma.csv", tmp_path / "point.csv"
    comma.write_bytes(_EUROPEAN)
    point.write_bytes(_EUROPEAN.replace(b",", b"."))
    found = []
    for path, more in ((comma, ["--decimal-comma"]), (point, [])):
        argv = [command[0], str(path), *command[1:], "--separator", ";", *more]
        assert main([*argv, "--format", "json", "--quiet"]) == 0, capsys.readouterr().err
        document = json.loads(capsys.readouterr().out)
        found.append({k: v for k, v in document.items() if k != "file"})
    assert found[0] == found[1]


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        (_EUROPEAN, [], "--decimal-comma needs fields separated by another character"),
        (_EUROPEAN.replace(b"0,8", b"0.8"), ["--separator", ";"],
         "row 1: column 'score' has the unparsable value '0.8'; expected a number. Hint: with "
         "--decimal-comma a number is written with a comma (1,5)"),
    ],
)  # fmt: skip
def test_decimal_comma_refuses_what_is_ambiguous(tmp_path, capsys, content, options, message):
    path = tmp_path / "scores.csv"
    path.write_bytes(content)
    argv = ["thresholds", str(path), "--true", "grade", "--score", "score", "--decimal-comma"]
    assert message in _error(capsys, [*argv, *options])


def test_decimal_comma_is_for_text_files(tmp_path, capsys):
    pl = pytest.importorskip("polars")
    path = tmp_path / "scores.parquet"
    pl.DataFrame({"grade": [1, 2], "score": [0.5, 1.5]}).write_parquet(path)
    argv = ["thresholds", str(path), "--true", "grade", "--score", "score", "--decimal-comma"]
    assert (
        _error(capsys, argv).strip().endswith("--decimal-comma applies to CSV and TSV files only.")
    )


def test_one_category_is_singular(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("a,b\n2,2\n2,2\n")
    assert main(["score", str(path), "--true", "a", "--pred", "b"]) == 0
    assert "K = 1 category: 2" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["score", "compare", "thresholds"])
def test_a_row_of_separators_only_is_named_as_such(tmp_path, capsys, command):
    """polars reads a line of separators only as a row of missing values: 'row 5: column 'a'
    has a missing rating' pointed at a row without any value. (A blank line is not a row:
    tests/test_cli_blank_lines.py.)"""
    path = tmp_path / "trailing.csv"
    path.write_text("a,b,c\n1,1,2\n2,2,2\n3,3,3\n1,2,1\n,,\n")
    columns = {
        "score": ["--true", "a", "--pred", "b"],
        "compare": ["--true", "a", "--pred", "b", "--pred", "c"],
        "thresholds": ["--true", "a", "--score", "b"],
    }[command]
    err = _error(capsys, [command, str(path), *columns])
    assert "row 5: the row has no value in any column, so column 'a' has a missing" in err
    assert "delete the row" in err
    path.write_text("a,b,c\n1,1,2\n2,,2\n")
    err = _error(capsys, [command, str(path), *columns])
    assert "row 2: column 'b' has a missing " in err and "no value in any" not in err


def test_icc_long_layout_names_the_item_and_rater_of_a_missing_rating(tmp_path, capsys):
    """It said 'at item 0, rater 1' (the library's positions, counted from 0)."""
    path = tmp_path / "long.csv"
    path.write_text("item,coder,score\n1,x,1\n2,x,2\n1,y,2\n1,z,2\n2,z,3\n2,y,3\n3,x,1\n3,z,1\n")
    argv = ["icc", str(path), "--item", "item", "--rater", "coder", "--rating", "score"]
    err = _error(capsys, [*argv, "--nan-policy", "raise"])
    assert "long.csv: item 3 has no rating from rater 'y'" in err


def test_thresholds_apply_reads_the_other_file_with_the_separator(tmp_path, capsys):
    """--apply ignored --separator, and its missing-column error said 'Pass --separator'."""
    train = tmp_path / "train.csv"
    train.write_text("b;s\n0;0.1\n1;0.5\n2;0.9\n0;0.2\n1;0.4\n2;1.2\n")
    other = tmp_path / "other.csv"
    other.write_text("id;s\n1;0.5\n2;0.7\n")
    out = tmp_path / "graded.csv"
    argv = ["thresholds", str(train), "--true", "b", "--score", "s", "--separator", ";",
            "--apply", str(other), "--out", str(out)]  # fmt: skip
    assert main(argv) == 0, capsys.readouterr().err
    # written with the separator it was read with (a CSV --out keeps that of --apply)
    assert out.read_text().splitlines() == ["id;s;grade", "1;0.5;1", "2;0.7;1"]


@pytest.mark.parametrize("cell", ["", " ", "NA", "NaN"])
def test_a_missing_sample_weight_is_named_without_python_words(tmp_path, capsys, cell):
    """It said 'the weight None' (or 'nan') 'is not a finite non-negative number'."""
    path = tmp_path / "w.csv"
    path.write_text(f"a,b,w\n1,1,1\n2,2,{cell}\n3,3,2\n")
    err = _error(capsys, ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w"])
    assert "row 2: column 'w' has no weight (a missing value)" in err
    assert "None" not in err and "nan" not in err


def test_a_utf16_file_is_named_as_such(tmp_path, capsys):
    """Excel's 'Unicode Text' is UTF-16 with a byte-order mark: the cp1252 hint was wrong."""
    path = tmp_path / "unicode.tsv"
    path.write_bytes("a\tb\n1\t1\n2\t2\n".encode("utf-16"))
    err = _error(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert "unicode.tsv is UTF-16 text" in err and "iconv -f utf-16" in err


# A rating the library refuses is named by the file's row and column in every command, as
# `wkappa score` and `wkappa icc` name it, in the command line's words.
# Row 3 (the header not counted) of column 'c' holds the bad rating; rows 1-2 are fine.
WIDE = "a,b,c\n1,2,1\n2,2,3\n3,3,{bad}\n1,1,2\n"
LONG = "item,rater,rating\n1,a,1\n1,b,2\n1,c,1\n2,a,{bad}\n2,b,2\n2,c,2\n3,a,3\n3,b,3\n3,c,3\n"


def _file(tmp_path, text: str, bad: str):
    path = tmp_path / "ratings.csv"
    path.write_text(text.format(bad=bad))
    return str(path)


WIDE_COMMANDS = [
    ["agree", "--raters", "a,b,c"],
    ["judge", "--candidate", "a", "--raters", "b,c", "--bootstrap", "99"],
]


@pytest.mark.parametrize("command", WIDE_COMMANDS)
@pytest.mark.parametrize(
    ("bad", "options", "message"),
    [
        ("9", ["--labels", "1,2,3"], "contains 9, which is not in --labels 1,2,3"),
        ("inf", [], "contains inf; ratings must be finite"),
        ("2.5", [], "contains the non-integer rating 2.5"),
    ],
)
def test_wide_file_names_the_row_and_column(tmp_path, capsys, command, bad, options, message):
    """agree and judge said 'the ratings contain 9, which is not in --labels [1, 2, 3]',
    without the row or the column, where score says 'ratings.csv, row 3: column 'c' ...'."""
    path = _file(tmp_path, WIDE, bad)
    err = _error(capsys, [command[0], path, *command[1:], *options])
    assert f"ratings.csv, row 3: column 'c' {message}" in err, err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--min-rating", "2"], "row 1: column 'a' contains the rating 1, below --min-rating = 2"),
        (["--max-rating", "2"], "row 2: column 'c' contains the rating 3, above --max-rating = 2"),
    ],
)
def test_agree_bounds_name_the_row_and_column(tmp_path, capsys, options, message):
    path = _file(tmp_path, WIDE, "3")
    err = _error(capsys, ["agree", path, "--raters", "a,b,c", *options])
    assert f"ratings.csv, {message}." in err, err
    assert "min_rating" not in err and "max_rating" not in err


@pytest.mark.parametrize(
    "command",
    [
        ["agree"],
        ["judge", "--candidate", "a", "--bootstrap", "99"],
    ],
)
def test_long_file_names_the_row_and_the_rating_column(tmp_path, capsys, command):
    path = _file(tmp_path, LONG, "9")
    argv = [command[0], path, "--item", "item", "--rater", "rater", "--rating", "rating"]
    err = _error(capsys, [*argv, *command[1:], "--labels", "1,2,3"])
    assert "ratings.csv, row 4: column 'rating' contains 9, which is not in --labels" in err


@pytest.mark.parametrize(
    "command",
    [
        ["agree", "--raters", "a,b,c"],
        ["judge", "--candidate", "a", "--raters", "b,c", "--bootstrap", "99"],
        ["score", "--true", "a", "--pred", "b"],
    ],
)
def test_number_columns_beside_a_word_column_are_named(tmp_path, capsys, command):
    """With word --labels and number columns beside a text column, agree said "1 is not in
    --labels ['low', 'high', '1', '2']", which lists '1'."""
    path = tmp_path / "mixed.csv"
    path.write_text("a,b,c\nlow,1,1\nhigh,2,2\nlow,1,2\n")
    err = _error(capsys, [command[0], str(path), *command[1:], "--labels", "low,high,1,2"])
    assert "column 'b' holds numbers (such as 1) and column 'a' holds words" in err, err
    assert "Hint: write every rater's ratings the same way" in err
    assert "is not in --labels" not in err


def test_an_option_error_is_left_as_it_was(tmp_path, capsys):
    """Only a refused rating is located; an option's error keeps its own words."""
    path = _file(tmp_path, WIDE, "3")
    err = _error(capsys, ["agree", path, "--raters", "a,b,c", "--population-size", "-3"])
    assert err.startswith("wkappa: error: --population-size must be") and "row" not in err


@pytest.mark.parametrize("command", [["agree"], ["judge", "--candidate", "a"]])
def test_words_with_weights_name_the_option(tmp_path, capsys, command):
    """It ended "unweighted coefficients accept them as they are" (the library's words)."""
    path = tmp_path / "words.csv"
    path.write_text("a,b,c\nlow,high,low\nhigh,high,low\n")
    argv = [command[0], str(path), "--raters", "a,b,c", *command[1:], "--weights", "quadratic"]
    err = _error(capsys, argv)
    assert "Hint: pass --labels A,B,C listing the categories in order; --weights unweighted" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["compare", "--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "99"],
    ],
)
def test_no_complete_row_under_omit_is_one_error(tmp_path, capsys, argv):
    """The same rule for score and compare (drop_missing with the file)."""
    path = tmp_path / "holes.csv"
    path.write_text("a,b,c\n1,,2\n,2,2\n3,,\n")
    err = _error(capsys, [argv[0], str(path), *argv[1:], "--nan-policy", "omit"])
    assert err.endswith("holes.csv: every row has a missing rating; nothing is left.\n"), err


@pytest.mark.parametrize(("command", "columns"), READERS)
def test_na_values_declares_a_missing_value_code(tmp_path, capsys, command, columns):
    """-99 (SPSS) and '.' (SAS, Stata) were read as a rating or refused as unparsable, with
    no way to say they mean a missing rating; --na-values declares them, in every command."""
    import json

    coded = tmp_path / "coded.csv"
    coded.write_text("a,b,c\n1,1,2\n2, -99 ,2\n3,3,3\n.,2,1\n4,4,3\n2,3,2\n1,1,1\n")
    blank = tmp_path / "blank.csv"
    blank.write_text("a,b,c\n1,1,2\n2,,2\n3,3,3\n,2,1\n4,4,3\n2,3,2\n1,1,1\n")
    omit = ["--nan-policy", "omit"] if command in ("score", "compare", "thresholds") else []
    omit += ["--seed", "0"] if command in ("compare", "judge") else []
    outputs = []
    for path, declared in [(coded, ["--na-values", "-99,."]), (blank, [])]:
        argv = [command, str(path), *columns, *omit, *declared, "--format", "json"]
        assert main(argv) == 0, capsys.readouterr().err
        document = json.loads(capsys.readouterr().out.replace(str(path), "FILE"))
        outputs.append(document)
    assert outputs[0] == outputs[1]
    err = _error(capsys, [command, str(coded), *columns, *omit])
    assert "--na-values=" in err


def test_na_values_in_a_parquet_column_of_numbers(tmp_path, capsys):
    """A code in a typed column (Parquet integers) is a missing rating too."""
    import json

    import polars as pl

    path = tmp_path / "coded.parquet"
    pl.DataFrame({"a": [1, 2, -99, 3, 1], "b": [1, 2, 2, -99, 2]}).write_parquet(path)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    assert main([*argv, "--na-values", "-99", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["rows_used"], document["rows_dropped"], document["n"]) == (3, 2, 3)
    assert document["labels"] == [1, 2]
    _error(capsys, [*argv, "--na-values", "-99,,"])


def test_a_missing_spelling_among_words_is_declared_with_na_values(tmp_path, capsys):
    import json

    path = tmp_path / "words.csv"
    path.write_text("a,b,c\nmild,mild,mild\nsevere,.,severe\nnone,none,none\n")
    err = _error(capsys, ["agree", str(path), "--raters", "a,b,c"])
    assert "--na-values='.'" in err and "--nan-policy" not in err  # agree has no --nan-policy
    assert main(["agree", str(path), "--raters", "a,b,c", "--na-values", ".", "--format",
                 "json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["n_ratings"] == 8


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["score", "FILE", "--true", "a", "--pred", "b", "--ci", "abc"], "--ci"),
        (["score", "FILE", "--true", "a", "--pred", "b", "--weights", "cubic"], "cubic"),
        (["score", "FILE", "--true", "a"], "--pred"),
        (["plan", "--alpha", "x"], "--alpha"),
        ([], "COMMAND"),
    ],
)
def test_an_option_argparse_refuses_is_one_line(tmp_path, capsys, argv, fragment):
    """argparse printed its whole usage block (12 lines) before the error."""
    path = tmp_path / "r.csv"
    path.write_text("a,b\n1,1\n2,2\n")
    argv = [str(path) if a == "FILE" else a for a in argv]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err, err
    assert fragment in err and "--help lists the options" in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--true", "a", "--pred", "e"],
        ["score", "--true", "a", "--pred", "e", "--nan-policy", "omit"],
        ["compare", "--true", "a", "--pred", "b", "--pred", "e", "--nan-policy", "omit"],
    ],
)
def test_an_empty_column_is_named_as_empty(tmp_path, capsys, argv):
    """A column with no rating at all (a wrong column name, a rater who rated nothing) was
    'column 'e' has a missing rating (NaN/None/NA)', without a row, or 'every row has a
    missing rating; nothing is left'."""
    path = tmp_path / "empty.csv"
    path.write_text("a,b,e\nmild,severe,\nmild,mild,\nnone,mild,\n")
    err = _error(capsys, [argv[0], str(path), *argv[1:], "--weights", "unweighted"])
    assert "empty.csv: column 'e' is empty: no row has a rating in it." in err, err


def test_a_word_in_a_number_column_is_not_offered_as_a_missing_code(tmp_path, capsys):
    path = tmp_path / "typo.csv"
    path.write_text("a,b\n1,1\n2,two\n3,3\n")
    err = _error(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert "'two'; expected a number. Hint: fix or blank out that cell." in err
    assert "--na-values" not in err


@pytest.mark.parametrize("cell", ["#DIV/0!", "#VALUE!", " #REF! ", "#NAME?"])
def test_a_spreadsheet_formula_error_is_named_as_such(tmp_path, capsys, cell):
    """Its hint was only "fix or blank out that cell"."""
    path = tmp_path / "sheet.csv"
    path.write_text(f"a,b\r\n1,1\r\n2,{cell}\r\n3,3\r\n")
    err = _error(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert f"row 2: column 'b' has the unparsable value {cell!r}; expected a number." in err
    assert f"Hint: {cell.strip()} is a spreadsheet formula's error, not a rating" in err


# A spreadsheet's ratings with its totals row under them, read as one more pair of grades.
_TOTALS = "a,b\n1,1\n2,2\n3,2\n4,4\n5,5\n2,3\n1,1\n4,5\n32,33\n"


@pytest.mark.parametrize(
    ("command", "columns"),
    [
        ("score", ["--true", "a", "--pred", "b"]),
        ("agree", ["--raters", "a,b"]),
    ],
)
def test_a_totals_row_read_as_grades_is_warned_of(tmp_path, capsys, command, columns):
    """K = 33 categories, 26 of them unused, and a kappa of 0.99 came without a word."""
    path = tmp_path / "sheet.csv"
    path.write_text(_TOTALS)
    report = tmp_path / "r.html"
    assert main([command, str(path), *columns, "--report", str(report)]) == 0
    warning = (
        "the ratings in 'a', 'b' jump from 5 to 32, leaving 26 grades between them unused "
        "(K = 33 categories, 1 to 33): a row that is not ratings (a total, a code for a "
        "missing value) read as grades changes every kappa. Hint: remove that row"
    )
    assert f"wkappa: warning: {warning}" in capsys.readouterr().err
    assert warning in html.unescape(" ".join(report.read_text().split()))
    grades = ",".join(str(grade) for grade in range(1, 34))
    assert main([command, str(path), *columns, "--labels", grades, "--quiet"]) == 0
    assert "warning" not in capsys.readouterr().err
    path.write_text(_TOTALS.replace("32,33\n", "3,3\n"))  # 1 to 5 throughout
    assert main([command, str(path), *columns, "--quiet"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_missing_code_below_the_grades_is_warned_of(tmp_path, capsys):
    path = tmp_path / "coded.csv"
    path.write_text("a,b\n1,1\n2,2\n3,3\n-9,2\n4,4\n5,5\n")
    assert main(["score", str(path), "--true", "a", "--pred", "b", "--quiet"]) == 0
    assert "jump from -9 to 1, leaving 9 grades between them unused" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("separator", "other_text", "found", "own"),
    [(";", "id,s\n1,0.5\n", "','", "';'"), (None, "id;s\n1;0.5\n", "';'", "','")],
)
def test_thresholds_apply_of_another_separator_names_apply_separator(
    tmp_path, capsys, separator, other_text, found, own
):
    """The hint was to leave out (or pass) --separator, which the fitted file needs as it
    is, followed by a second hint, --apply-score, for a column that was there."""
    sep = separator or ","
    train = tmp_path / "train.csv"
    train.write_text(f"b{sep}s\n0{sep}0.1\n1{sep}0.5\n2{sep}0.9\n0{sep}0.2\n1{sep}0.4\n")
    other = tmp_path / "other.csv"
    other.write_text(other_text)
    argv = ["thresholds", str(train), "--true", "b", "--score", "s", "--apply", str(other),
            "--out", str(tmp_path / "graded.csv")]  # fmt: skip
    argv += ["--separator", sep] if separator else []
    err = _error(capsys, argv)
    assert (
        f"other.csv (--apply) looks separated by {found}, but it is read with {own} "
        f"(--separator). Hint: pass --apply-separator {found} (with --apply-decimal-comma if "
        "its numbers are written 0,5)."
    ) in err
    assert err.count("Hint:") == 1, err
    # the separator it names reads it (one separator for both files had to edit one)
    assert main([*argv, "--apply-separator", found.strip("'"), "--quiet"]) == 0


def test_agree_propagate_counts_blank_rows_of_a_long_file_as_dropped(tmp_path, capsys):
    """The blank lines after a long export's data rate nothing; with --nan-policy propagate
    the output said "all used"."""
    path = tmp_path / "long.csv"
    path.write_text("item,rater,grade\n1,a,1\n1,b,1\n2,a,2\n2,b,3\n3,a,3\n3,b,3\n,,\n,,\n")
    argv = ["agree", str(path), "--item", "item", "--rater", "rater", "--rating", "grade"]
    assert main([*argv, "--nan-policy", "propagate", "--format", "json", "--quiet"]) == 0
    import json

    document = json.loads(capsys.readouterr().out)
    assert (document["rows_read"], document["rows_used"], document["rows_dropped"]) == (8, 6, 2)


def test_a_decimal_comma_na_code_is_not_split_into_two(tmp_path, capsys):
    """--na-values '-99,5' with --decimal-comma was split into the codes -99 and 5, which made
    every rating 5 missing; it is refused, and the code escaped, with a point, or two codes
    with a space after the comma are read as they say."""
    path = tmp_path / "comma.csv"
    path.write_text("a;b\n1;1\n2;2\n-99,5;3\n3;3\n5;4\n2;2\n")
    argv = ["score", str(path), "--separator", ";", "--decimal-comma", "--true", "a",
            "--pred", "b", "--nan-policy", "omit", "--format", "json"]  # fmt: skip
    assert main([*argv, "--na-values", "-99,5"]) == 2
    err = capsys.readouterr().err
    assert "--na-values '-99,5' with --decimal-comma" in err and len(err.splitlines()) == 1
    assert "--na-values '-99\\,5' or --na-values -99.5" in err and "'-99, 5'" in err
    for code in ("-99\\,5", "-99.5"):
        assert main([*argv, "--na-values", code]) == 0
        assert json.loads(capsys.readouterr().out)["n"] == 5  # the -99,5 row dropped
