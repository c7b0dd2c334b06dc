"""An ordered dictionary column (a pandas ordered Categorical written by pyarrow) in an Arrow
IPC *stream* gives the label order as it does in the Arrow file format: the order was read
with ``pyarrow.ipc.open_file`` and ``polars.read_ipc_schema``, which do not read streams, so
such a column read as unordered and a weighted kappa was refused asking for ``--labels``."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal, without_pyarrow

pa = pytest.importorskip("pyarrow")
ipc = pytest.importorskip("pyarrow.ipc")

LABELS = ["none", "mild", "moderate", "severe", "extreme"]  # 'extreme' is never used
N = 240


def _codes(seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    true = rng.integers(0, 4, N)
    pred = np.clip(true + rng.integers(-1, 2, N), 0, 3)
    return true, pred, np.clip(true - rng.integers(0, 2, N), 0, 3)


def _table(ordered: bool, dictionary: list[str | None] = LABELS, masked: bool = False):
    """Three raters' dictionary columns; ``masked``: every 13th cell is null (NA)."""
    mask = (np.arange(N) % 13 == 4) if masked else None
    return pa.table(
        {
            name: pa.DictionaryArray.from_arrays(
                pa.array(codes, pa.int8(), mask=mask), pa.array(dictionary, pa.string()),
                ordered=ordered,
            )
            for name, codes in zip(("r1", "r2", "r3"), _codes(0), strict=True)
        }
    )  # fmt: skip


def _write(path, table, stream: bool, batch: int | None = 64):
    writer = ipc.new_stream if stream else ipc.new_file
    with pa.OSFile(str(path), "wb") as sink, writer(sink, table.schema) as out:
        out.write_table(table, max_chunksize=batch)
    assert (path.read_bytes()[:6] == b"ARROW1") is not stream
    return path


_COMMANDS = {
    "score": ["--true", "r1", "--pred", "r2", "--nan-policy", "omit"],
    "agree": ["--raters", "r1,r2,r3", "--weights", "quadratic"],
}


def _both(capsys, tmp_path, table, argv):
    """The JSON documents of the same table written as a stream and as a file."""
    found = []
    for stream in (True, False):
        path = _write(tmp_path / f"t{int(stream)}.{'arrows' if stream else 'arrow'}", table, stream)
        document = json_output(capsys, [argv[0], str(path), *argv[1:]])
        document.pop("file")
        found.append(document)
    return found


@pytest.mark.parametrize("command", list(_COMMANDS))
@pytest.mark.parametrize("masked", [False, True])
def test_an_ordered_dictionary_in_a_stream_is_the_label_order(tmp_path, capsys, command, masked):
    """Stream and file give one document, the categories in order (unused ones too), and the
    library's number on the same columns."""
    table = _table(ordered=True, masked=masked)
    stream, file = _both(capsys, tmp_path, table, [command, *_COMMANDS[command]])
    assert stream == file
    assert stream["labels"] == LABELS
    if command == "score":
        expected = wk.qwk(table["r1"], table["r2"], nan_policy="omit")
        assert stream["rows_used"] == N - (N // 13 + (N % 13 > 4)) * masked
    else:
        expected = wk.agreement(table.to_pandas(), weights="quadratic").statistic
    assert stream["statistic"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("command", list(_COMMANDS))
def test_an_unordered_dictionary_in_a_stream_is_refused_as_in_a_file(tmp_path, capsys, command):
    """Unordered: refused with the --labels hint in both formats, and scored alike with it."""
    table = _table(ordered=False, masked=True)
    argv = _COMMANDS[command]
    errors = []
    for stream in (True, False):
        path = _write(tmp_path / f"u{int(stream)}.arrow", table, stream)
        err = refusal(capsys, [command, str(path), *argv])
        errors.append(err.replace(str(path), "FILE"))
    assert errors[0] == errors[1] and "--labels A,B,C" in errors[0]
    assert "pip install pyarrow" not in errors[0] and "record batches" not in errors[0]
    labels = ["--labels", ",".join(LABELS)]
    stream, file = _both(capsys, tmp_path, table, [command, *argv, *labels])
    assert stream == file and stream["labels"] == LABELS


@pytest.mark.parametrize("blank", ["", "  ", "NA", None])
def test_a_missing_category_is_no_label_in_a_stream_or_a_file(tmp_path, capsys, blank):
    """A dictionary whose first category is blank, spaces, NA or null: its cells are missing
    ratings (as every command-line reader takes them), and it is no label. The file format
    listed '' / 'NA' among the labels while dropping their cells, and a null category made the
    column unordered (refused); a stream was refused in every case."""
    dictionary = [blank, *LABELS[1:]]
    table = _table(ordered=True, dictionary=dictionary, masked=True)
    stream, file = _both(capsys, tmp_path, table, ["score", *_COMMANDS["score"]])
    assert stream == file
    assert stream["labels"] == LABELS[1:]
    true, pred = (table[c].to_pylist() for c in ("r1", "r2"))
    missing = (None, blank)
    kept = [(t, p) for t, p in zip(true, pred, strict=True) if {t, p}.isdisjoint(missing)]
    assert stream["rows_used"] == len(kept) < N
    expected = wk.qwk(*zip(*kept, strict=True), labels=LABELS[1:])
    assert stream["statistic"] == pytest.approx(expected, abs=1e-12)


def test_a_category_declared_missing_is_no_label(tmp_path, capsys):
    """--na-values names a category: its cells are missing and it leaves the labels."""
    table = _table(ordered=True)
    argv = ["score", *_COMMANDS["score"], "--na-values", "mild"]
    stream, file = _both(capsys, tmp_path, table, argv)
    assert stream == file and stream["labels"] == ["none", "moderate", "severe", "extreme"]
    true, pred = (table[c].to_pylist() for c in ("r1", "r2"))
    kept = [(t, p) for t, p in zip(true, pred, strict=True) if "mild" not in (t, p)]
    assert stream["rows_used"] == len(kept)
    expected = wk.qwk(*zip(*kept, strict=True), labels=stream["labels"])
    assert stream["statistic"] == pytest.approx(expected, abs=1e-12)


def test_a_stream_that_replaces_its_dictionary(tmp_path, capsys):
    """A stream may replace a column's dictionary between record batches. A later dictionary
    that adds categories after the first ones keeps one order (the library's, pyarrow's
    unify_dictionaries); one that puts a new category between them has no one order and is
    refused as unordered, saying why, instead of a silent order."""
    first = pa.array(["none", "mild"])

    def column(later, codes):
        chunks = [([0, 1, 1, 0], first), (codes, pa.array(later))]
        return pa.chunked_array(
            [
                pa.DictionaryArray.from_arrays(pa.array(c, pa.int8()), d, ordered=True)
                for c, d in chunks
            ]
        )

    grown = pa.table(
        {
            "r1": column(["none", "mild", "severe"], [2, 1, 2, 0]),
            "r2": column(["none", "mild", "severe"], [2, 2, 1, 0]),
        }
    )
    path = _write(tmp_path / "grown.arrows", grown, stream=True, batch=None)
    argv = ["score", str(path), "--true", "r1", "--pred", "r2"]
    document = json_output(capsys, argv)
    assert document["labels"] == ["none", "mild", "severe"]
    assert document["statistic"] == pytest.approx(wk.qwk(grown["r1"], grown["r2"]), abs=1e-12)
    between = pa.table(
        {
            "r1": column(["none", "moderate", "mild"], [1, 2, 2, 0]),
            "r2": column(["none", "moderate", "mild"], [1, 1, 2, 0]),
        }
    )
    path = _write(tmp_path / "between.arrows", between, stream=True, batch=None)
    argv = ["score", str(path), "--true", "r1", "--pred", "r2"]
    err = refusal(capsys, argv)
    assert "columns 'r1' and 'r2' are ordered dictionary columns whose record batches" in err
    assert "Hint: pass --labels A,B,C" in err
    document = json_output(capsys, [*argv, "--labels", "none,moderate,mild"])
    assert document["labels"] == ["none", "moderate", "mild"]


def test_without_pyarrow_a_stream_says_the_order_was_not_read(tmp_path, capsys, monkeypatch):
    """Without pyarrow a stream's dictionary columns are named in the refusal as a file's
    are (polars reads their schema; the order needs pyarrow)."""
    without_pyarrow(monkeypatch)
    path = _write(tmp_path / "o.arrows", _table(ordered=True), stream=True)
    err = refusal(capsys, ["score", str(path), "--true", "r1", "--pred", "r2"])
    assert "The file stores columns 'r1' and 'r2' as categories (dictionary columns)" in err
    assert "Hint: pip install pyarrow; or pass --labels A,B,C" in err


def test_icc_reads_a_stream_of_numbers_as_a_file(tmp_path, capsys):
    """icc (numbers only) gives one document for a stream and a file of the same ratings."""
    table = pa.table({f"r{i}": pa.array(c.astype(float)) for i, c in enumerate(_codes(3), 1)})
    stream, file = _both(capsys, tmp_path, table, ["icc", "--raters", "r1,r2,r3"])
    assert stream == file
    assert stream["icc"]["A,1"]["statistic"] == wk.icc(table.to_pandas()).statistic
