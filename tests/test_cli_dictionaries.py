"""A Parquet or Arrow file's ordered dictionary columns (a pandas ordered Categorical written
by pyarrow) are read with their categories as the label order, as the library reads them."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output

pa = pytest.importorskip("pyarrow")
feather = pytest.importorskip("pyarrow.feather")
parquet = pytest.importorskip("pyarrow.parquet")

LABELS = ["none", "mild", "moderate", "severe", "extreme"]  # 'extreme' is never used


def _table(ordered: bool = True):
    rng = np.random.default_rng(0)
    true = rng.integers(0, 4, 300)
    pred = np.clip(true + rng.integers(-1, 2, 300), 0, 3)
    columns = {
        name: pa.DictionaryArray.from_arrays(
            pa.array(codes, pa.int8()), pa.array(LABELS), ordered=ordered
        )
        for name, codes in (("r1", true), ("r2", pred))
    }
    return pa.table(columns)


@pytest.mark.parametrize("suffix", [".arrow", ".feather", ".parquet"])
def test_an_ordered_dictionary_is_the_label_order(tmp_path, capsys, suffix):
    """It was refused as "strings or unordered categories", while wk.qwk(table['r1'],
    table['r2']) scores the same columns."""
    table = _table()
    path = tmp_path / f"ordered{suffix}"
    if suffix == ".parquet":
        parquet.write_table(table, path)
    else:
        feather.write_feather(table, path)
    document = json_output(capsys, ["score", str(path), "--true", "r1", "--pred", "r2"])
    assert document["labels"] == LABELS  # unused categories count, as in the library
    assert document["statistic"] == pytest.approx(wk.qwk(table["r1"], table["r2"]), abs=1e-12)
    document = json_output(capsys, ["agree", str(path), "--raters", "r1,r2", "--weights", "linear"])
    assert document["labels"] == LABELS


def test_an_unordered_dictionary_stays_unordered(tmp_path, capsys):
    path = tmp_path / "unordered.arrow"
    feather.write_feather(_table(ordered=False), path)
    argv = ["score", str(path), "--true", "r1", "--pred", "r2", "--weights", "unweighted"]
    assert json_output(capsys, argv)["labels"] == ["mild", "moderate", "none", "severe"]
