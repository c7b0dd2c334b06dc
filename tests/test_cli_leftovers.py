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
