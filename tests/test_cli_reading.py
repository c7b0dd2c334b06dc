"""How the command line reads messy files: declared missing-value codes in every spelling,
files that are not what their name or --input-format says, and what --out writes."""

from __future__ import annotations

import json

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli import main

pytest.importorskip("polars")


def test_a_numeric_missing_code_matches_every_spelling_in_icc(tmp_path, capsys):
    """icc reads rater columns as text: '-99.0' was a rating of -99 (ICC 0.0027 on 12
    ratings) although --na-values -99 declared the code."""
    path = tmp_path / "f.csv"
    path.write_text("a,b\n1,1\n2,-99.0\n3,3\n2,2\n3,3\n1,2\n")
    argv = ["icc", str(path), "--raters", "a,b", "--na-values", "-99", "--form", "1,1"]
    document = json_output(capsys, argv)
    ratings = np.array([[1, 1], [2, np.nan], [3, 3], [2, 2], [3, 3], [1, 2]])
    assert document["n_ratings"] == 11
    expected = wk.icc(ratings, form="1,1", nan_policy="omit").statistic
    assert document["icc"]["1,1"]["statistic"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("command", "columns"),
    [("score", ["--true", "a", "--pred", "b"]), ("agree", ["--raters", "a,b"])],
)
def test_a_numeric_missing_code_matches_every_spelling_in_a_text_column(
    tmp_path, capsys, command, columns
):
    """One cell of spaces makes the column text: '-99.0' and ' -99 ' were ratings (K = 103)."""
    coded = tmp_path / "coded.csv"
    coded.write_text("a,b\n1,1\n2,-99.0\n3, -99 \n2,2\n3,3\n1,+3e0\n4,-9.9e1\n")
    blank = tmp_path / "blank.csv"
    blank.write_text("a,b\n1,1\n2,\n3,\n2,2\n3,3\n1,3\n4,\n")
    omit = ["--nan-policy", "omit"] if command == "score" else []
    documents = [
        json_output(capsys, [command, str(path), *columns, *omit, *declared])
        for path, declared in [(coded, ["--na-values", "-99"]), (blank, [])]
    ]
    for document in documents:
        document["file"] = "FILE"
    assert documents[0] == documents[1]
    if command == "score":
        assert documents[0]["labels"] == [1, 2, 3] and documents[0]["n"] == 4


def test_a_numeric_missing_code_in_a_column_of_floats_and_a_text_code(tmp_path, capsys):
    """A float column (-99.0 read as a number) and a text code ('.') side by side; a code
    matches a whole cell, never part of one (-990 is a rating)."""
    path = tmp_path / "mixed.csv"
    path.write_text("a,b\n1.0,1\n2.0, . \n-99.0,3\n2.0,2\n3.0,3\n1.0,2\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    document = json_output(capsys, [*argv, "--na-values", "-99,."])
    assert (document["n"], document["rows_dropped"], document["labels"]) == (4, 2, [1, 2, 3])
    near = tmp_path / "near.csv"
    near.write_text("a,b\n1,1\n2,-990\n3,3\n")
    err = refusal(capsys, ["score", str(near), "--true", "a", "--pred", "b", "--na-values",
                           "-99", "--labels", "1,2,3"])  # fmt: skip
    assert "-990" in err


class _ClosedPipe:
    """Standard output whose reader has gone away (``wkappa ... | head -1``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        raise OSError("no file descriptor")

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "{file}", "--true", "a", "--pred", "b"],
        ["compare", "{file}", "--true", "a", "--pred", "b", "--pred", "c", "--seed", "0"],
        ["agree", "{file}", "--raters", "a,b,c"],
        ["icc", "{file}", "--raters", "a,b,c"],
        ["judge", "{file}", "--candidate", "a", "--raters", "b,c", "--seed", "0"],
        ["thresholds", "{file}", "--true", "a", "--score", "b"],
        ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.2,0.5,0.3"],
        ["demo"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_closed_output_pipe_ends_quietly(tmp_path, capsys, monkeypatch, argv):
    """`wkappa ... | head -1` ended with exit code 1, the code of an internal error."""
    from wkappa._cli import main

    path = tmp_path / "r.csv"
    path.write_text("a,b,c\n1,1,2\n2,2,2\n3,3,3\n2,3,2\n1,1,1\n3,2,3\n2,2,1\n1,2,1\n")
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert main([word.replace("{file}", str(path)) for word in argv]) == 141
    assert "error" not in capsys.readouterr().err


def test_a_closed_output_pipe_in_a_real_pipeline(tmp_path):
    """The process itself: no message, exit code 141 (128 + SIGPIPE, as a shell reports for a
    Unix tool stopped by `| head`), nothing printed at the interpreter's exit."""
    import subprocess
    import sys

    path = tmp_path / "wide.csv"  # 103 categories: an output far larger than a pipe's buffer
    path.write_text("a,b\n" + "".join(f"{i % 3 + 1},{-i}\n" for i in range(100)))
    process = subprocess.Popen(
        [sys.executable, "-m", "wkappa", "score", str(path), "--true", "a", "--pred", "b"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"wkappa score")
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141
    assert err == b""


def _refused(capsys, argv: list[str]) -> str:
    """A one-line refusal in the command line's words, without the reader's own text."""
    err = refusal(capsys, argv)
    for raw in ("Schema", "PAR1", "out of specification", "list[struct", "_duplicated_", "cp1252"):
        assert raw not in err, err
    return err


@pytest.fixture
def files(tmp_path):
    """One small table written as CSV, Parquet, Arrow IPC and a JSON array."""
    import polars as pl

    frame = pl.DataFrame({"a": [1, 2, 3, 2], "b": [1, 2, 3, 3]})
    frame.write_csv(tmp_path / "r.csv")
    frame.write_parquet(tmp_path / "r.parquet")
    frame.write_ipc(tmp_path / "r.arrow")
    frame.write_json(tmp_path / "array.jsonl")  # an array, not one object per line
    return tmp_path


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("r.csv", ["--input-format", "parquet"],
         "r.csv is text (CSV or TSV), not Parquet. Hint: pass --input-format csv (or tsv)."),
        ("r.parquet", ["--input-format", "csv"],
         "r.parquet is a Parquet file, not CSV. Hint: pass --input-format parquet."),
        ("r.arrow", ["--input-format", "csv"],
         "r.arrow is an Arrow IPC (Feather) file, not CSV. Hint: pass --input-format ipc."),
        ("r.arrow", ["--input-format", "parquet"], "Hint: pass --input-format ipc."),
        ("r.parquet", ["--input-format", "ndjson"], "Hint: pass --input-format parquet."),
        ("r.csv", ["--input-format", "ndjson"], "not JSON lines. Hint: pass --input-format csv"),
        ("array.jsonl", [], "array.jsonl is a JSON array ([{...}, ...]), not JSON lines. Hint: "
         "convert it to JSON lines: jq -c '.[]' "),
    ],
)  # fmt: skip
def test_a_file_read_as_another_format_says_what_it_is(files, capsys, name, options, expected):
    """The reader's complaints ('File out of specification: The file must end with PAR1',
    'NDJSON line expected to contain JSON object', 'not UTF-8 text (cp1252)') named neither
    what the file is nor the fix."""
    err = _refused(capsys, ["score", str(files / name), "--true", "a", "--pred", "b", *options])
    assert expected in err


def test_a_file_named_as_another_format_says_so(files, capsys):
    (files / "r.parquet").rename(files / "parquet.csv")
    err = _refused(capsys, ["agree", str(files / "parquet.csv"), "--raters", "a,b"])
    assert "parquet.csv is a Parquet file, not CSV. Hint: name it .parquet, or pass " in err
    (files / "book.csv").write_bytes(b"PK\x03\x04" + bytes(60))  # an Excel workbook renamed
    err = _refused(capsys, ["agree", str(files / "book.csv"), "--raters", "a,b"])
    assert "zip archive (an Excel .xlsx workbook is one)" in err and "'CSV UTF-8'" in err


def test_gzip_is_read_from_standard_input_and_whatever_the_name(files, capsys, monkeypatch):
    """gzip on standard input (or a .csv holding gzip) was refused as 'not UTF-8 text';
    a gzip-compressed Parquet file is refused with the fix."""
    import gzip
    import io
    import sys

    argv = ["score", "--true", "a", "--pred", "b"]
    plain = json_output(capsys, [argv[0], str(files / "r.csv"), *argv[1:]])
    packed = gzip.compress((files / "r.csv").read_bytes())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(packed)))
    piped = json_output(capsys, [argv[0], "-", *argv[1:]])
    (files / "packed.csv").write_bytes(packed)
    named = json_output(capsys, [argv[0], str(files / "packed.csv"), *argv[1:]])
    for document in (plain, piped, named):
        document.pop("file")
    assert plain == piped == named
    (files / "r.parquet.gz").write_bytes(gzip.compress((files / "r.parquet").read_bytes()))
    err = _refused(capsys, [argv[0], str(files / "r.parquet.gz"), *argv[1:]])
    assert "is a gzip-compressed Parquet file, which is read only uncompressed" in err
    assert "gunzip -c" in err
    (files / "cut.csv.gz").write_bytes(packed[:20])
    assert "damaged or truncated gzip" in _refused(
        capsys, [argv[0], str(files / "cut.csv.gz"), *argv[1:]]
    )


def test_a_row_with_more_fields_than_the_header_is_named(tmp_path, capsys):
    """polars said 'found more fields than defined in 'Schema'', without a row."""
    path = tmp_path / "ragged.csv"
    path.write_text('a,b\n1,1\n"2","2"\n3,3,3\n2,2\n')
    err = _refused(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert "ragged.csv, line 4 (the header is line 1), has 3 fields where the header has 2" in err
    assert "--separator" in err


def test_empty_header_names_are_shown_as_written(tmp_path, capsys):
    """Two empty names were listed as '' and polars' '_duplicated_0'."""
    path = tmp_path / "blank_names.csv"
    path.write_text("a,,,b\n1,5,6,1\n2,5,6,2\n")
    err = _refused(capsys, ["score", str(path), "--true", "a", "--pred", "grade"])
    assert "Its columns: 'a', '', '', 'b'." in err
    assert "the header gives columns 2, 3 no name; give every column a name" in err


def test_the_apply_file_of_thresholds_is_checked_the_same_way(files, capsys):
    """--apply is named by its suffix only (--input-format is the main file's); a ragged row
    of it was 'could not write OUT: found more fields than defined in 'Schema''."""
    (files / "r.parquet").rename(files / "parquet.csv")
    argv = ["thresholds", str(files / "r.csv"), "--true", "a", "--score", "b", "--quiet"]
    out = ["--out", str(files / "graded.csv")]
    err = _refused(capsys, [*argv, "--apply", str(files / "parquet.csv"), *out])
    assert err.endswith("parquet.csv is a Parquet file, not CSV. Hint: name it .parquet.")
    (files / "ragged.csv").write_text("b,c\n1.5,x\n2.5,y,z\n")
    err = _refused(capsys, [*argv, "--apply", str(files / "ragged.csv"), *out])
    assert "ragged.csv, line 3 (the header is line 1), has 3 fields where the header has 2" in err
    assert not (files / "graded.csv").exists()


@pytest.fixture
def fitted(tmp_path):
    """thresholds on a small training file, applied to a messy CSV: zero-padded ids, a score
    column with a missing spelling, a code and a padded number."""
    train = tmp_path / "train.csv"
    train.write_text("t,s\n1,0.5\n2,1.7\n3,2.9\n1,0.2\n2,2.1\n3,3.3\n")
    other = tmp_path / "other.csv"
    other.write_text("id,n,s\n007,1,0.5\n010, 2 ,1.7\n011,3,NA\n012,4,-9\n013,NA, 3.1 \n")
    argv = ["thresholds", str(train), "--true", "t", "--score", "s", "--apply", str(other),
            "--na-values", "-9", "--nan-policy", "omit", "--quiet"]  # fmt: skip
    return tmp_path, argv


@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".jsonl"])
def test_apply_writes_a_csv_into_a_typed_file_as_it_reads_it(fitted, capsys, suffix):
    """Zero-padded ids became integers (007 -> 7) and a score column with NA, -9 and ' 3.1 '
    was written as text."""
    import polars as pl

    tmp_path, argv = fitted
    out = tmp_path / f"graded{suffix}"
    assert json_output(capsys, [*argv, "--out", str(out)])["n"] == 6
    reader = {".parquet": pl.read_parquet, ".arrow": pl.read_ipc, ".jsonl": pl.read_ndjson}
    graded = reader[suffix](out)
    assert graded["id"].to_list() == ["007", "010", "011", "012", "013"]
    assert graded["n"].to_list() == [1, 2, 3, 4, None] and graded["n"].dtype == pl.Int64
    assert graded["s"].dtype == pl.Float64
    assert graded["s"].to_list() == [0.5, 1.7, None, -9.0, 3.1]  # a code is written back
    assert graded["grade"].to_list() == [1, 2, None, None, 3]


@pytest.mark.parametrize("suffix", [".csv.gz", ".tsv.gz", ".jsonl.gz"])
def test_an_out_name_ending_in_gz_is_written_compressed(fitted, capsys, suffix):
    """--out graded.csv.gz was plain text under a .gz name (zcat failed)."""
    import gzip

    tmp_path, argv = fitted
    out = tmp_path / f"graded{suffix}"
    plain = tmp_path / f"graded{suffix[:-3]}"
    json_output(capsys, [*argv, "--out", str(out)])
    json_output(capsys, [*argv, "--out", str(plain)])
    assert gzip.decompress(out.read_bytes()) == plain.read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_out_name_of_compressed_parquet_is_refused(fitted, capsys):
    tmp_path, argv = fitted
    err = _refused(capsys, [*argv, "--out", str(tmp_path / "graded.parquet.gz")])
    assert "a Parquet file is compressed inside, not with gzip. Hint: name it .parquet" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b"],
        ["icc", "--raters", "a,b"],
        ["thresholds", "--true", "a", "--score", "b"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_quote_not_closed_is_named_by_its_line(tmp_path, capsys, argv):
    """An unclosed quote was an internal error (exit 1) with polars' 'could not parse ... not
    properly escaped' and its advice on infer_schema_length."""
    path = tmp_path / "quote.csv"
    path.write_text('a,b\n1,1\n"2,2\n3,3\n')
    err = _refused(capsys, [argv[0], str(path), *argv[1:]])
    assert 'quote.csv, line 3 (the header is line 1): a quote (") opens a value that is not ' in err
    tsv = tmp_path / "ragged.tsv"
    tsv.write_text("a\tb\n1\t1\n2\t2\t3\n")
    err = _refused(capsys, [argv[0], str(tsv), *argv[1:]])
    assert "line 3 (the header is line 1), has 3 fields where the header has 2" in err
    assert "quote a value that holds a tab" in err


def test_gzip_json_lines_are_read(files, capsys):
    """A .jsonl.gz file was refused as 'gzip-compressed JSON lines, read only uncompressed'."""
    import gzip

    import polars as pl

    pl.read_csv(files / "r.csv").write_ndjson(files / "r.jsonl")
    (files / "r.jsonl.gz").write_bytes(gzip.compress((files / "r.jsonl").read_bytes()))
    argv = ["--true", "a", "--pred", "b"]
    plain = json_output(capsys, ["score", str(files / "r.jsonl"), *argv])
    packed = json_output(capsys, ["score", str(files / "r.jsonl.gz"), *argv])
    assert {**plain, "file": ""} == {**packed, "file": ""}


def test_a_bad_json_line_and_a_file_cut_short_are_named(files, capsys):
    """polars said 'Syntax at character 10', 'failed to determine supertype of struct[2] and
    list[i64]' or 'File out of specification: The file must end with PAR1'."""
    argv = ["--true", "a", "--pred", "b"]
    (files / "bad.jsonl").write_text('{"a": 1, "b": 1}\n{"a": 2, "b":\n')
    err = _refused(capsys, ["score", str(files / "bad.jsonl"), *argv])
    assert "bad.jsonl, line 2: it is not valid JSON (Expecting value at column 14)" in err
    (files / "list.jsonl").write_text('{"a": 1, "b": 1}\n\n[2, 2]\n')
    err = _refused(capsys, ["score", str(files / "list.jsonl"), *argv])
    assert "list.jsonl, line 3: it holds a JSON list, not an object" in err
    for name in ("r.parquet", "r.arrow"):
        (files / f"cut{name}").write_bytes((files / name).read_bytes()[:300])
        err = _refused(capsys, ["score", str(files / f"cut{name}"), *argv])
        assert "file cut short: it does not end as one does. Hint: copy or export it again" in err


def test_a_quote_not_closed_on_standard_input(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'a,b\n1,1\n"2,2\n3,3\n')))
    err = _refused(capsys, ["score", "-", "--true", "a", "--pred", "b"])
    assert '<stdin>: a quote (") opens a value that is not closed properly. Hint: close' in err


# What a malformed file is refused with: (file name, its bytes, more options, the message).
_MALFORMED = [
    ("stray.csv", b'a,b\n1,2\n"3",4"\n5,6\n', [],
     'stray.csv, line 3 (the header is line 1): a quote (") in a value has no partner. Hint: '
     'remove it, or quote the whole value'),
    ("end.csv", b'a,b\n1,2\n3,"4\n', [],
     'end.csv, line 3 (the header is line 1): a quote (") opens a value that is not closed'),
    ("header.csv", b'a,"b\n1,2\n3,4\n', [],
     'header.csv, line 1 (the header): a quote (") opens a column name that is not closed'),
    ("semi.csv", b"a;b\n1;2\n", [], "Hint: it looks separated by ';': pass --separator ';'."),
    ("comma.csv", b"a,b\n1,2\n", ["--separator", ";"],
     "Hint: it looks separated by ',', the format's own: leave out --separator ';'."),
    ("comma.tsv", b"a,b\n1,2\n", [], "Hint: it looks separated by ',': pass --input-format csv."),
    ("tabs.csv", b"a\tb\n1\t2\n", [], "it looks separated by '\\t': pass --input-format tsv"),
    ("binary.csv", b"a,b\x00\x01\x02\n1,2\n", [],
     "binary.csv is not a text file: it holds NUL bytes"),
    ("mac.csv", b"a,b\r1,2\r3,4\r", [],
     "mac.csv: its lines end in a carriage return only (CR, as in classic Mac OS files)"),
    ("empty.csv", b"", [], "empty.csv is empty (0 bytes): there is no header and no data."),
    ("only.csv", b"a,b\n", [], "only.csv has a header but no data rows"),
    ("nested.jsonl", b'{"a": 1, "b": 1}\n{"a": 2, "b": [2]}\n', [],
     "nested.jsonl, line 2: key 'b' holds an array, where a column holds one value per line"),
    ("bare.jsonl", b"{}\n{}\n", [], "bare.jsonl has no column 'a' (given to "),
]  # fmt: skip
# The reader's own words, which no refusal shows.
_RAW = ("CSV malformed", "could not parse", "Schema", "ComputeError", "cannot read", "supertype")


@pytest.mark.parametrize(("name", "content", "options", "expected"), _MALFORMED)
@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b"],
        ["icc", "--raters", "a,b"],
        ["thresholds", "--true", "a", "--score", "b"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_malformed_file_is_refused_in_the_users_words(
    tmp_path, capsys, name, content, options, expected, command
):
    """polars' 'CSV malformed: expected 0 rows, actual 2 rows' was an internal error (exit 1);
    a header with an unclosed quote, NUL bytes or CR line ends gave a column-not-found error
    listing a column name that ran over several lines; the separator hint did not name the
    option's value."""
    path = tmp_path / name
    path.write_bytes(content)
    err = _refused(capsys, [command[0], str(path), *command[1:], *options])
    assert expected in err, err
    assert not any(raw in err for raw in _RAW), err
    if name == "bare.jsonl":
        assert err.endswith("It has no columns.")


def test_a_damaged_parquet_or_arrow_file_says_so(files, capsys):
    """It said 'cannot read r.arrow as ipc: out-of-spec: InvalidFlatbufferMessage(...)'."""
    for name, kind in (("r.parquet", "Parquet"), ("r.arrow", "Arrow IPC")):
        data = (files / name).read_bytes()
        half = len(data) // 2
        (files / f"bad{name}").write_bytes(data[:8] + b"x" * (half - 8) + data[half:])
        err = _refused(capsys, ["score", str(files / f"bad{name}"), "--true", "a", "--pred", "b"])
        assert f"is a damaged {kind} file: its contents do not follow the format." in err
        assert "out-of-spec" not in err and "InvalidFlatbuffer" not in err


def test_a_stray_quote_on_standard_input(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'a,b\n1,2\n"3",4"\n5,6\n')))
    err = _refused(capsys, ["score", "-", "--true", "a", "--pred", "b"])
    assert err.startswith("wkappa: error: <stdin>: a quote") and "CSV malformed" not in err


_NO_RATING = "has no rating at all: none of its 2 data rows has a value in "


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["agree", "--raters", "a,b,c"], _NO_RATING + "'a', 'b', 'c'. Hint: check that --raters"),
        (["judge", "--candidate", "a", "--raters", "b,c"], _NO_RATING + "'a', 'b', 'c'."),
        (["icc", "--raters", "a,b"], _NO_RATING + "'a', 'b'. Hint: check that --raters"),
        (["agree", "--item", "a", "--rater", "b", "--rating", "c"], _NO_RATING + "'c'."),
        (["icc", "--item", "a", "--rater", "b", "--rating", "c"], _NO_RATING + "'c'. Hint"),
        (["thresholds", "--true", "a", "--score", "b"], "column 'b' is empty: no row has a"),
    ],
    ids=lambda value: " ".join(value[:2]) if isinstance(value, list) else "",
)
@pytest.mark.parametrize("rows", [b"\n\n", b",,\r\n,,\r\n"], ids=["blank lines", "separators"])
def test_a_file_without_any_rating_is_one_refusal(tmp_path, capsys, command, expected, rows):
    """agree and judge warned that every rater had no rating, then said "the ratings has no
    ratings at all"; icc said "Rater None rated item None more than once" (long) or that the
    first column had no rating (wide); thresholds said the column "holds String"."""
    path = tmp_path / "blank.csv"
    path.write_bytes(b"a,b,c\n" + rows)
    err = _refused(capsys, [command[0], str(path), *command[1:]])
    if rows == b"\n\n" and command[0] != "thresholds":  # a blank line is not a row
        expected = "has a header but no data rows (only 2 blank lines); there is nothing"
    assert f"blank.csv {expected}" in err or f"blank.csv: {expected}" in err, err


@pytest.mark.parametrize(
    "command",
    [
        ["icc", "--item", "a", "--rater", "b", "--rating", "c"],
        ["thresholds", "--true", "a", "--score", "b"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_header_only_file_is_named_as_such(tmp_path, capsys, command):
    """icc said "0 items (rows) ... transpose"; thresholds said the column "holds String"."""
    path = tmp_path / "only.csv"
    path.write_bytes(b"a,b,c\r\n")
    err = _refused(capsys, [command[0], str(path), *command[1:]])
    assert err.endswith("only.csv has a header but no data rows; there is nothing to score."), err


def test_a_column_of_true_false_values_is_not_a_score(tmp_path, capsys):
    """It said the column "holds Boolean", polars' name of the type."""
    pl = pytest.importorskip("polars")
    path = tmp_path / "flags.parquet"
    pl.DataFrame({"a": [1, 2, 3], "b": [True, False, True]}).write_parquet(path)
    err = _refused(capsys, ["thresholds", str(path), "--true", "a", "--score", "b"])
    assert err.endswith("column 'b' must hold numbers; it holds true/false values."), err


@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b"],
        ["judge", "--candidate", "a", "--raters", "b,c"],
        ["icc", "--raters", "a,b"],
        ["thresholds", "--true", "a", "--score", "b"],
    ],
    ids=lambda argv: argv[0],
)
def test_standard_input_is_named_stdin_in_every_output(tmp_path, capsys, monkeypatch, command):
    """agree and icc named it '-' in the JSON document, the text output, the report's title
    and its methods sentence ("file -")."""
    import io
    import sys

    data = b"a,b,c\n1,1,2\n2,2,2\n3,2,3\n1,1,1\n2,3,2\n3,3,3\n"

    def run(*more: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert main([command[0], "-", *command[1:], "--quiet", *more]) == 0

    run("--format", "json")
    assert json.loads(capsys.readouterr().out)["file"] == "<stdin>"
    report = tmp_path / "r.html"
    run("--report", str(report))
    assert "-:" not in capsys.readouterr().out
    page = report.read_text()
    assert "<title>wkappa report: &lt;stdin&gt;" in page and "file -" not in page


@pytest.mark.parametrize(
    ("suffix", "command"),
    [
        ("parquet", ["score", "--true", "when", "--pred", "b"]),
        ("arrow", ["score", "--true", "a", "--pred", "when", "--weights", "unweighted"]),
        ("parquet", ["agree", "--raters", "a,when"]),
    ],
)
def test_a_column_of_timestamps_is_not_a_rating(tmp_path, capsys, suffix, command):
    """A Parquet or Arrow timestamp named as a rating column crashed polars with a
    PanicException (Datetime('ms') against Datetime('us')) while the refusal looked for its
    row; it is refused by its option."""
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("pyarrow.parquet")
    import pyarrow.feather
    import pyarrow.parquet

    seconds = np.array([0, 1, 2, 1], dtype="datetime64[s]")
    table = pa.table({"a": [0, 1, 2, 1], "b": [0, 1, 1, 1], "when": pa.array(seconds)})
    path = tmp_path / f"dated.{suffix}"
    if suffix == "parquet":
        pyarrow.parquet.write_table(table, path)
    else:
        pyarrow.feather.write_feather(table, path)
    option = command[command.index("when") - 1] if "when" in command else "--raters"
    err = _refused(capsys, [command[0], str(path), *command[1:]])
    assert "column 'when'" in err and "holds dates or times, not ratings" in err, err
    assert f"check that {option} names" in err, err


def test_a_column_of_timestamps_still_groups_the_rows(tmp_path, capsys):
    """--by may name a timestamp (a day): only a rating column of dates is refused."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet

    days = np.array([0, 0, 0, 0, 1, 1, 1, 1], dtype="datetime64[D]")
    a, b = [0, 1, 2, 1, 2, 2, 0, 1], [0, 1, 1, 1, 2, 1, 0, 0]
    path = tmp_path / "days.parquet"
    pyarrow.parquet.write_table(pa.table({"a": a, "b": b, "day": pa.array(days)}), path)
    document = json_output(
        capsys, ["score", str(path), "--true", "a", "--pred", "b", "--by", "day"]
    )
    assert document["statistic"] == pytest.approx(wk.qwk(a, b), rel=1e-12)


@pytest.mark.parametrize(
    "command", [["score", "--true", "a", "--pred", "b"], ["agree", "--raters", "a,b"]]
)
def test_a_float32_column_with_a_fraction_is_refused_naming_its_row(tmp_path, capsys, command):
    """A Parquet float32 rating of 1.5 crashed polars with a PanicException (a Float64 value
    in a Float32 series) while the refusal looked for its row; whole float32 ratings score."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet

    ratings = {
        "a": pa.array([0, 1.5, 2, 1], pa.float32()),
        "b": pa.array([0, 1, 1, 1], pa.float32()),
    }
    path = tmp_path / "single.parquet"
    pyarrow.parquet.write_table(pa.table(ratings), path)
    err = _refused(capsys, [command[0], str(path), *command[1:]])
    assert "single.parquet, row 2: column 'a' contains the non-integer rating 1.5" in err, err
    whole = tmp_path / "whole.parquet"
    a, b = [0, 1, 2, 1, 2], [0, 1, 1, 1, 2]
    pyarrow.parquet.write_table(
        pa.table({"a": pa.array(a, pa.float32()), "b": pa.array(b, pa.float32())}), whole
    )
    document = json_output(capsys, ["score", str(whole), "--true", "a", "--pred", "b"])
    assert document["statistic"] == pytest.approx(wk.qwk(a, b), rel=1e-12)


def test_a_json_lines_file_named_csv_is_refused_as_what_it_is(tmp_path, capsys):
    """It was split at its commas into columns named '{"a":1' and '"b":1}', and refused as
    having no column 'a'; a CSV header that only starts with a brace is still CSV."""
    lines = tmp_path / "scored.csv"
    lines.write_text('{"a": 1, "b": 1}\n{"a": 2, "b": 1}\n{"a": 0, "b": 0}\n')
    argv = ["score", str(lines), "--true", "a", "--pred", "b"]
    err = _refused(capsys, argv)
    assert err.endswith(
        "scored.csv is JSON lines (one {...} object per line), not CSV. Hint: name it .jsonl, "
        "or pass --input-format ndjson."
    ), err
    document = json_output(capsys, [*argv, "--input-format", "ndjson"])
    assert document["statistic"] == pytest.approx(wk.qwk([1, 2, 0], [1, 1, 0]), rel=1e-12)
    braced = tmp_path / "braced.csv"
    braced.write_text("{a},b\n1,1\n2,1\n0,0\n")
    document = json_output(capsys, ["score", str(braced), "--true", "{a}", "--pred", "b"])
    assert document["statistic"] == pytest.approx(wk.qwk([1, 2, 0], [1, 1, 0]), rel=1e-12)
