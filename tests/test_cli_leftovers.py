"""Command-line refusals and results on inputs a researcher meets: half-precision rating
columns, Arrow IPC streams, duplicated long-layout ratings, one-sided concordance, and the
judge's numbers against the library's."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal

pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")


def _write(table, path):
    """``table`` written as Parquet or as an Arrow IPC file, by its extension."""
    if path.suffix == ".parquet":
        import pyarrow.parquet

        pyarrow.parquet.write_table(table, path)
    else:
        import pyarrow.feather

        pyarrow.feather.write_feather(table, path)


@pytest.mark.parametrize("extension", [".parquet", ".arrow"])
@pytest.mark.parametrize(
    ("options", "bad", "message"),
    [
        ([], 2.5, "row 3: column 'a' contains the non-integer rating 2.5"),
        ([], np.inf, "row 3: column 'a' contains inf; ratings must be finite"),
        (["--labels", "0,1,2"], 3.0, "row 3: column 'a' contains 3, which is not in --labels"),
    ],
)
def test_a_half_precision_rating_is_refused_naming_its_row(
    tmp_path, capsys, extension, options, bad, message
):
    """A float16 column's refused rating was re-encoded alone to find its column, which made
    polars panic (a Python float put in a Float16 series): an internal error, not the line."""
    a = pa.array(np.array([0, 1, bad, 1, 2], dtype=np.float16))
    b = pa.array(np.array([0, 1, 2, 1, 2], dtype=np.float16))
    path = tmp_path / f"half{extension}"
    _write(pa.table({"a": a, "b": b}), path)
    err = refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b", *options])
    assert f"half{extension}, {message}" in err, err
    assert "Panic" not in err and "internal error" not in err, err


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_half_and_single_precision_ratings_score_as_the_library_does(tmp_path, capsys, dtype):
    """Whole ratings stored as float16 or float32 give the library's kappa on the same values."""
    a, b = [0, 1, 2, 1, 2, 0, 2], [0, 1, 1, 1, 2, 0, 2]
    path = tmp_path / "whole.parquet"
    table = pa.table({"a": np.array(a, dtype=dtype), "b": np.array(b, dtype=dtype)})
    _write(table, path)
    document = json_output(capsys, ["score", str(path), "--true", "a", "--pred", "b"])
    assert document["statistic"] == wk.qwk(a, b)


def _arrow_ratings(path, stream: bool, table=None):
    """Three raters' ratings of 8 items written by pyarrow as an Arrow IPC stream or file."""
    import pyarrow.ipc

    if table is None:
        table = pa.table(
            {
                "a": [1, 2, 3, 2, 1, 3, 2, 1],
                "b": [1, 2, 3, 3, 1, 3, 2, 2],
                "c": [1, 2, 2, 3, 1, 3, 1, 1],
            }
        )
    writer = pyarrow.ipc.new_stream if stream else pyarrow.ipc.new_file
    with pa.OSFile(str(path), "wb") as sink, writer(sink, table.schema) as out:
        out.write_table(table)
    return path


_COMMANDS = {
    "score": ["--true", "a", "--pred", "b"],
    "agree": ["--raters", "a,b,c"],
    "icc": ["--raters", "a,b,c"],
}


@pytest.mark.parametrize("command", list(_COMMANDS))
@pytest.mark.parametrize("name", ["ratings.arrows", "ratings.arrow", "ratings.ipc"])
def test_an_arrow_ipc_stream_is_read_as_the_file_format_is(tmp_path, capsys, command, name):
    """An Arrow IPC stream (pyarrow.ipc.new_stream) was refused as a damaged Arrow IPC file,
    and an .arrows name as a format that cannot be told from the name; it now gives the
    result of the same ratings written in the file format."""
    stream = _arrow_ratings(tmp_path / name, stream=True)
    file = _arrow_ratings(tmp_path / "file.arrow", stream=False)
    assert stream.read_bytes()[:6] != b"ARROW1" and file.read_bytes()[:6] == b"ARROW1"
    argv = _COMMANDS[command]
    read = json_output(capsys, [command, str(stream), *argv])
    expected = json_output(capsys, [command, str(file), *argv])
    for document in (read, expected):
        document.pop("file", None)
        document.pop("command", None)
    assert read == expected
    if command == "score":
        assert read["statistic"] == wk.qwk([1, 2, 3, 2, 1, 3, 2, 1], [1, 2, 3, 3, 1, 3, 2, 2])


def test_a_cut_or_empty_arrow_ipc_stream_is_refused_in_one_line(tmp_path, capsys):
    """A stream cut half way is damaged; one holding its schema only has no data rows."""
    whole = _arrow_ratings(tmp_path / "whole.arrows", stream=True).read_bytes()
    cut = tmp_path / "cut.arrows"
    cut.write_bytes(whole[: len(whole) // 2])
    err = refusal(capsys, ["score", str(cut), "--true", "a", "--pred", "b"])
    assert err.endswith(
        f"{cut} is a damaged Arrow IPC file: its contents do not follow the "
        "format. Hint: export or copy it again; if it is another kind of file, "
        "pass --input-format with its format."
    ), err
    empty = tmp_path / "empty.arrows"
    _arrow_ratings(
        empty,
        stream=True,
        table=pa.table({"a": pa.array([], pa.int64()), "b": pa.array([], pa.int64())}),
    )
    err = refusal(capsys, ["agree", str(empty), "--raters", "a,b"])
    assert "empty.arrows has a header but no data rows" in err, err


_LONG = ["--item", "unit", "--rater", "coder", "--rating", "grade"]


@pytest.mark.parametrize(
    "command", [["agree"], ["judge", "--candidate", "c"], ["icc", "--form", "2,1"]]
)
def test_a_repeated_long_rating_names_its_file_rows(tmp_path, capsys, command):
    """A rater who rated an item twice was refused without the rows to fix. The rows are the
    file's data rows (a blank line counted, as every row the command line names); the pair
    named is the one that occurs first in the file, whatever order the engine groups in."""
    path = tmp_path / "long.csv"
    lines = [
        "2,a,1", "2,b,1", "2,c,2", "", "1,a,2", "1,b,2", "1,c,2", "3,a,3", "3,b,3", "3,c,3",
        "1,b,1", "2,a,2",
    ]  # fmt: skip
    path.write_text("unit,coder,grade\n" + "\n".join(lines) + "\n")
    err = refusal(capsys, [command[0], str(path), *_LONG, *command[1:]])
    assert err == (
        f"wkappa: error: {path}: Rater 'a' rated item 2 more than once (2 ratings); the long "
        "layout needs one rating per item and rater. Hint: average or drop the repeats (rows 1 "
        "and 12)."
    ), err


def test_a_rating_repeated_many_times_names_its_first_rows(tmp_path, capsys):
    """In a Parquet file, the first five of the seven rows, and that there are more; a row
    without a rating is no rating (agree leaves it out of the count and the rows)."""
    rows = [(1, "a", 1), (1, "b", 1), (2, "a", 2), (2, "b", 2)]
    rows += [(1, "a", None)] + [(1, "a", 2)] * 6
    path = tmp_path / "long.parquet"
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet

    columns = dict(zip(["unit", "coder", "grade"], map(list, zip(*rows, strict=True)), strict=True))
    pyarrow.parquet.write_table(pa.table(columns), path)
    err = refusal(capsys, ["agree", str(path), *_LONG])
    assert err.endswith(
        "Rater 'a' rated item 1 more than once (7 ratings); the long layout needs one rating "
        "per item and rater. Hint: average or drop the repeats (rows 1, 6, 7, 8, 9 and more)."
    ), err


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("raters", [["a", "b"], ["a", "b", "c"]])
def test_icc_reports_the_concordance_of_its_alternative(tmp_path, capsys, alternative, raters):
    """--alternative made the ICCs' tests and intervals one-sided but left the CCC's two-sided
    (its JSON said 'two-sided', its line a two-sided interval): the CCC is now
    wk.ccc(..., alternative=...)'s, on the complete items."""
    rng = np.random.default_rng(3)
    truth = rng.normal(50, 10, 40)
    matrix = np.column_stack([truth + rng.normal(0, s, 40) for s in (3, 5, 8)])[:, : len(raters)]
    matrix[4, 1] = np.nan
    path = tmp_path / "scores.csv"
    text = ["" if np.isnan(v) else repr(float(v)) for v in matrix.ravel()]
    rows = [",".join(text[i : i + len(raters)]) for i in range(0, len(text), len(raters))]
    path.write_text(",".join(raters) + "\n" + "\n".join(rows) + "\n")
    argv = ["icc", str(path), "--raters", ",".join(raters), "--alternative", alternative]
    document = json_output(capsys, [*argv, "--ci", "0.9"])
    expected = wk.ccc(matrix, nan_policy="omit", alternative=alternative)
    assert document["ccc"]["alternative"] == alternative
    assert document["ccc"]["pvalue"] == expected.pvalue
    ci = expected.confidence_interval(0.9)
    assert document["ccc"]["confidence_interval"]["low"] == ci.low
    assert document["ccc"]["confidence_interval"]["high"] == ci.high
    from wkappa._cli import main

    assert main([*argv, "--ci", "0.9"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    heading = "90% CI" if alternative == "two-sided" else "90% one-sided CI"
    assert f", {heading} [{ci.low:.4f}, {ci.high:.4f}] (" in line, line


@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_judge_members_numbers_are_the_librarys_bit_for_bit(tmp_path, capsys, missing):
    """The members' kappa, observed agreement and PABAK were recomputed from the pair's
    table of proportions and differed from wk.weighted_kappa / wk.agreement in the last bits;
    each is now the library's own number."""
    from wkappa._core import confusion_table
    from wkappa._stats import base_rate_indices

    rng = np.random.default_rng(7)
    matrix = rng.integers(0, 5, size=(340, 5)).astype(float)
    matrix[rng.random(matrix.shape) < missing] = np.nan
    names = ["llm", "a", "b", "c", "d"]
    path = tmp_path / "panel.csv"
    cells = [["" if np.isnan(v) else str(int(v)) for v in row] for row in matrix]
    path.write_text(",".join(names) + "\n" + "".join(",".join(r) + "\n" for r in cells))
    argv = ["judge", str(path), "--candidate", "llm", "--raters", "a,b,c,d"]
    document = json_output(capsys, [*argv, "--bootstrap", "99", "--seed", "0"])
    labels = document["labels"]
    expected = wk.rater_vs_panel(
        matrix[:, 1:], matrix[:, 0], weights=document["weights"], nan_policy="omit"
    )
    same = []
    for j, member in enumerate(document["members"], start=1):
        both = ~np.isnan(matrix[:, 0]) & ~np.isnan(matrix[:, j])
        pair = matrix[both][:, [0, j]]
        assert member["coefficient"] == expected.candidate_vs_members[j - 1]
        assert member["coefficient"] == document["pairwise"][0][j]
        assert member["kappa"] == wk.weighted_kappa(pair[:, 0], pair[:, 1], weights="unweighted")
        percent = wk.agreement(pair, coefficient="percent").statistic
        assert member["observed_agreement"] == percent
        pabak = wk.agreement(pair, coefficient="brennan_prediger", labels=labels).statistic
        assert member["pabak"] == pabak
        table = confusion_table(pair[:, 0], pair[:, 1], labels=labels)
        same.append(base_rate_indices(table)["kappa"] == member["kappa"])
    assert all(same)  # base_rate_indices gives the library's numbers too
