"""frames.icc, icc_all and ccc and ``wkappa icc`` read the long layout (item, rater, rating
rows) from their source once: the ids are checked on the columns read, which then pivot
(they were read twice, the ids checked, then the ratings). The rows that leave a polars
scan are counted through ``map_batches``, as in test_long_reads_once.py; the command line's
plans that scan the file are counted."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import wkappa as wk
from read_counts import counted_scan, file_scans

pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")

LONG = {"item": "item", "rater": "rater", "rating": "rating"}


def _rows() -> dict[str, list[Any]]:
    rng = np.random.default_rng(3)
    rows: dict[str, list[Any]] = {"item": [], "rater": [], "rating": []}
    for item in range(30):
        for rater in range(3):
            rating = None if rng.random() < 0.1 else float(item % 7 + rng.normal())
            rows["item"].append(item)
            rows["rater"].append(f"r{rater}")
            rows["rating"].append(rating)
    return rows


@pytest.mark.parametrize("function", ["icc", "icc_all", "ccc"])
def test_a_polars_scan_is_read_once(function: str) -> None:
    rows = _rows()
    source = pl.DataFrame(rows)
    scan, read = counted_scan(source)
    options = {"nan_policy": "omit"} if function == "ccc" else {}
    got = getattr(frames, function)(scan, **LONG, **options)
    assert sum(read) == len(rows["item"])
    expected = getattr(frames, function)(source, **LONG, **options)
    if function == "icc_all":
        got, expected = got["A,1"], expected["A,1"]
    assert repr(got.to_dict()) == repr(expected.to_dict())


def test_the_ids_are_still_checked() -> None:
    rows = _rows()
    rows["rater"][4] = None
    with pytest.raises(wk.WkappaError, match="`rater`"):
        frames.icc(pl.DataFrame(rows).lazy(), **LONG)


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_the_command_line_reads_a_long_file_once(
    tmp_path: Any, capsys: Any, monkeypatch: Any, suffix: str
) -> None:
    from wkappa._cli import main

    path = tmp_path / f"long.{suffix}"
    getattr(pl.DataFrame(_rows()), f"write_{suffix}")(path)
    scans = file_scans(monkeypatch, path)
    options = ["--item", "item", "--rater", "rater", "--rating", "rating", "--format", "json"]
    assert main(["icc", str(path), *options]) == 0
    capsys.readouterr()
    assert len(scans) == 1, scans
