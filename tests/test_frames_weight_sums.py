"""``frames`` with ``sample_weight`` on the engines that sum weights as decimals (polars,
DuckDB): weights that are not whole numbers give the same digits on every run (however the
engine splits the rows among its threads), and the array functions' numbers, also for weights
outside the decimals' range."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import polars as pl
import pytest

import wkappa as wk
from frames_data import weighted_ratings
from wkappa import frames

SCRIPT = """
import sys
import polars as pl
from wkappa import frames
data = pl.scan_parquet(sys.argv[1])
print(repr(frames.weighted_kappa(data, y_true="a", y_pred="b", sample_weight="w")))
groups = frames.kappa_by_group(data, y_true="a", y_pred="b", by="g", sample_weight="w")
print(groups.collect().rows())
text = data.collect().with_columns(pl.col("a", "b").cast(pl.String))  # counted eagerly
labels = ["0", "1", "2", "3", "4"]
print(repr(frames.weighted_kappa(text, y_true="a", y_pred="b", sample_weight="w", labels=labels)))
"""


def _kappa(data: pl.DataFrame) -> float:
    return wk.weighted_kappa(data["a"], data["b"], sample_weight=data["w"].to_numpy())


def _relation(data: pl.DataFrame, threads: int = 2) -> Any:
    """``data`` as a DuckDB relation on a connection with ``threads`` threads."""
    duckdb = pytest.importorskip("duckdb")
    connection = duckdb.connect(config={"threads": threads})
    return connection.from_arrow(data.to_arrow())


ENGINES = {"polars-lazy": lambda data: data.lazy(), "duckdb": _relation}


def _group_rows(result: Any) -> list[dict[str, Any]]:
    """The rows of ``kappa_by_group``'s frame (a polars LazyFrame or a DuckDB relation)."""
    if hasattr(result, "collect"):
        return list(result.collect().iter_rows(named=True))
    return [dict(zip(result.columns, values, strict=True)) for values in result.fetchall()]


@pytest.mark.integration
def test_polars_weighted_kappa_is_the_same_with_any_number_of_threads(tmp_path):
    path = tmp_path / "weighted.parquet"
    weighted_ratings(300_000, 2, groups=5).write_parquet(path)
    outputs = set()
    for threads in ("1", "2", "3"):
        env = {**os.environ, "POLARS_MAX_THREADS": threads}
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(path)],
            capture_output=True, env=env, timeout=120, check=True,
        )  # fmt: skip
        outputs.add(proc.stdout)
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("weight", "group"),
    [
        (1.0, None),
        (1e-30, None),  # one tiny weight among ordinary ones: below the decimals
        (1e-30, 1),  # a whole group of tiny weights: summed in floating point
        (1e30, None),  # one weight too large for the decimals
        (1e12, 1),  # large weights, summed as decimals
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_weights_give_the_array_functions_numbers(engine, weight, group):
    data = weighted_ratings(3_000, 4)
    if group is None:
        scaled = pl.when(pl.int_range(pl.len()) == 10).then(weight).otherwise("w")
    else:
        scaled = pl.when(pl.col("g") == group).then(pl.col("w") * weight).otherwise("w")
    data = data.with_columns(w=scaled)
    frame = ENGINES[engine](data)
    kappa = frames.weighted_kappa(frame, y_true="a", y_pred="b", sample_weight="w")
    assert kappa == pytest.approx(_kappa(data), rel=1e-12)
    by_group = frames.kappa_by_group(frame, y_true="a", y_pred="b", by="g", sample_weight="w")
    for row in _group_rows(by_group):
        part = data.filter(pl.col("g") == row["g"])
        assert row["kappa"] == pytest.approx(_kappa(part), rel=1e-12)
        assert row["n"] == pytest.approx(part["w"].sum(), rel=1e-12)


@pytest.mark.integration
def test_duckdb_weighted_kappa_is_the_same_with_any_number_of_threads():
    data = weighted_ratings(300_000, 2, groups=5)
    outputs = set()
    for threads in (1, 2, 4):
        relation = _relation(data, threads)
        kappa = frames.weighted_kappa(relation, y_true="a", y_pred="b", sample_weight="w")
        by_group = frames.kappa_by_group(
            relation, y_true="a", y_pred="b", by="g", sample_weight="w"
        )
        outputs.add(repr((kappa, _group_rows(by_group))))
    assert len(outputs) == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_a_decimal_sum_that_does_not_fit_counts_again(monkeypatch, engine):
    from wkappa._frames import count

    calls = []
    counted = count._counted

    def spy(*args, fixed_point, **kwargs):
        calls.append(fixed_point)
        return counted(*args, fixed_point=fixed_point, **kwargs)

    monkeypatch.setattr(count, "_counted", spy)
    # Each weight fits the decimals (below 1e13); a pair's sum of about 600 does not (1e14).
    data = weighted_ratings(3_000, 5).with_columns(w=(pl.col("w") + 1.0) * 5e12)
    frame = ENGINES[engine](data)
    kappa = frames.weighted_kappa(frame, y_true="a", y_pred="b", sample_weight="w")
    assert kappa == pytest.approx(_kappa(data), rel=1e-12)
    assert calls == [True, False]
