"""A Parquet or Arrow file's ordered dictionary columns (a pandas ordered Categorical written
by pyarrow) are read with their categories as the label order, as the library reads them."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal, without_pyarrow

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


@pytest.mark.parametrize("suffix", [".arrow", ".parquet"])
def test_without_pyarrow_the_refusal_says_the_order_was_not_read(tmp_path, capsys, monkeypatch,
                                                                 suffix):  # fmt: skip
    """Without pyarrow the order of a dictionary column is not read (polars' schema shows a
    Categorical, not whether it is ordered) and the ratings were refused as unordered with the
    hint --labels alone, as if the file had no order. The refusal says why, and that
    installing pyarrow (or --labels) fixes it."""
    without_pyarrow(monkeypatch)
    path = tmp_path / f"ordered{suffix}"
    table = _table()
    parquet.write_table(table, path) if suffix == ".parquet" else feather.write_feather(table, path)
    err = refusal(capsys, ["score", str(path), "--true", "r1", "--pred", "r2"])
    assert "need ordered categories" in err
    assert "The file stores columns 'r1' and 'r2' as categories (dictionary columns)" in err
    assert "read with pyarrow, which is not installed. Hint: pip install pyarrow; or pass " in err
    assert "--labels A,B,C" in err and err.count("Hint:") == 1
    err = refusal(capsys, ["agree", str(path), "--raters", "r1,r2", "--weights", "linear"])
    assert "Hint: pip install pyarrow; or pass --labels A,B,C" in err
    labels = ["--labels", ",".join(LABELS)]
    document = json_output(capsys, ["score", str(path), "--true", "r1", "--pred", "r2", *labels])
    assert document["labels"] == LABELS


@pytest.mark.parametrize("suffix", [".arrow", ".parquet"])
def test_an_unordered_dictionary_takes_labels(tmp_path, capsys, suffix):
    """With pyarrow, an unordered dictionary column is refused as unordered without the
    pyarrow hint (its order was read: it has none), and --labels gives the order, which
    stopped with an internal error on the categories' dtype."""
    path = tmp_path / f"unordered{suffix}"
    table = _table(ordered=False)
    parquet.write_table(table, path) if suffix == ".parquet" else feather.write_feather(table, path)
    argv = ["score", str(path), "--true", "r1", "--pred", "r2"]
    err = refusal(capsys, argv)
    assert "need ordered categories" in err and "pip install pyarrow" not in err
    for spelling in ([], ["--strip-labels", "--fold-case"]):
        document = json_output(capsys, [*argv, "--labels", ",".join(LABELS), *spelling])
        assert document["labels"] == LABELS
        assert document["statistic"] == pytest.approx(
            wk.qwk(table["r1"], table["r2"], labels=LABELS), abs=1e-12
        )
