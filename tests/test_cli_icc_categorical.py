"""``wkappa icc`` on rating columns stored as categories (a pandas categorical written to
Parquet, an Arrow dictionary): numbers are read as numbers, as the same file without the
dictionary; words are refused naming the row. (They ended in an internal polars error.)"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

import wkappa as wk
from wkappa._cli import main

RNG = np.random.default_rng(7)
SCORES = RNG.integers(1, 6, size=(30, 3)).astype(float)
SCORES[[2, 9], [0, 2]] = np.nan


def _column(values: np.ndarray, dictionary: bool) -> pa.Array:
    text = pa.array([None if np.isnan(v) else str(int(v)) for v in values], pa.string())
    return text.dictionary_encode() if dictionary else pa.array(values)


def _write(path: Path, table: pa.Table) -> None:
    if path.suffix == ".parquet":
        pq.write_table(table, path)
    else:
        feather.write_feather(table, path)


def _icc_json(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["icc", str(path), *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_wide_categorical_numbers_are_the_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    names = ["r1", "r2", "r3"]
    coded, plain = tmp_path / f"coded{suffix}", tmp_path / f"plain{suffix}"
    _write(coded, pa.table({n: _column(SCORES[:, i], True) for i, n in enumerate(names)}))
    _write(plain, pa.table({n: _column(SCORES[:, i], False) for i, n in enumerate(names)}))
    ours = _icc_json(coded, capsys, "--raters", "r1,r2,r3")
    assert ours == _icc_json(plain, capsys, "--raters", "r1,r2,r3") | {"file": str(coded)}
    assert ours["icc"]["A,1"]["statistic"] == wk.icc(SCORES, form="A,1").statistic


def test_long_categorical_rating_is_read_as_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items, raters = np.divmod(np.arange(SCORES.size), 3)
    kept = ~np.isnan(SCORES.ravel())
    table = {
        "item": pa.array(items[kept]),
        "rater": pa.array([f"r{r}" for r in raters[kept]]),
    }
    coded, plain = tmp_path / "coded.parquet", tmp_path / "plain.parquet"
    pq.write_table(pa.table({**table, "score": _column(SCORES.ravel()[kept], True)}), coded)
    pq.write_table(pa.table({**table, "score": _column(SCORES.ravel()[kept], False)}), plain)
    args = ["--item", "item", "--rater", "rater", "--rating", "score"]
    assert _icc_json(coded, capsys, *args) == _icc_json(plain, capsys, *args) | {"file": str(coded)}


def test_categorical_words_are_refused_naming_the_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "words.parquet"
    words = pa.array(["1", "2", "mild", "3"]).dictionary_encode()
    pq.write_table(pa.table({"a": words, "b": pa.array([1.0, 2.0, 2.0, 3.0])}), path)
    assert main(["icc", str(path), "--raters", "a,b"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "row 3: column 'a' has the unparsable value 'mild'; expected a number" in err
