"""A dictionary (categorical) column of a Parquet file is text to the command line: its blank
cells and missing spellings are missing values, as in a text column, ``--na-values`` names more
of them, and the refusals of text that spells one number two ways or a missing value speak in
options."""

from __future__ import annotations

import pytest

from cli_calls import json_output, refusal

pl = pytest.importorskip("polars")


def _parquet(tmp_path, a, b, name="r.parquet"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    frame = pl.DataFrame({"a": a, "b": b}).with_columns(
        pl.col("a").cast(pl.Categorical), pl.col("b").cast(pl.Categorical)
    )
    frame.write_parquet(path)
    return str(path)


def test_blank_and_na_cells_of_a_dictionary_column_are_missing(tmp_path, capsys) -> None:
    path = _parquet(tmp_path, ["1", "2", "NA", "3", " ", "1"], ["1", "2", "3", "3", "2", "2"])
    argv = ["score", path, "--true", "a", "--pred", "b", "--labels", "1,2,3"]
    found = json_output(capsys, [*argv, "--nan-policy", "omit"])
    assert (found["rows_read"], found["rows_used"]) == (6, 4)
    assert "has a missing rating" in refusal(capsys, argv)


def test_na_values_names_more_missing_words_of_a_dictionary_column(tmp_path, capsys) -> None:
    path = _parquet(tmp_path, ["1", "2", "missing", "3"], ["1", "2", "3", "3"])
    argv = ["score", path, "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    err = refusal(capsys, argv)
    assert "'missing'" in err and "(--na-values missing)" in err and "df.replace" not in err
    found = json_output(capsys, [*argv, "--na-values", "missing", "--labels", "1,2,3"])
    assert found["rows_used"] == 3


def test_a_number_written_two_ways_is_refused_in_options(tmp_path, capsys) -> None:
    path = _parquet(tmp_path, ["1", "2", "1.0", "3"], ["1", "2", "3", "3"])
    err = refusal(capsys, ["score", path, "--true", "a", "--pred", "b"])
    assert "one number written two ways" in err and "'1'" in err and "'1.0'" in err
    assert "pd.to_numeric" not in err and "--labels A,B,C" in err
