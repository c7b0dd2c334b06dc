"""``frames`` with ``sample_weight``: each pair's weights are summed exactly (whole units of
``10**-24``, the rule of ``_core.weight_sums``) on every engine, so weights that are not whole
numbers give the same bits on pandas, polars (eager and lazy), pyarrow, DuckDB, Dask and PySpark,
on every run (however the engine splits the rows among its threads or partitions) and in any
row order; and the array functions' numbers, also for weights outside the exact sums' range."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from typing import Any

import numpy as np
import polars as pl
import pytest

import wkappa as wk
from frames_data import weighted_ratings
from wkappa import frames
from wkappa._core.weight_sums import MOST_ROWS, SCALE, limbs, units_are_accurate

SCRIPT = """
import sys
import polars as pl
from wkappa import frames
data = pl.scan_parquet(sys.argv[1])
print(repr(frames.weighted_kappa(data, y_true="a", y_pred="b", sample_weight="w")))
groups = frames.kappa_by_group(
    data, y_true="a", y_pred="b", by="g", sample_weight="w", cluster="c"
)
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
    by_group = frames.kappa_by_group(
        frame, y_true="a", y_pred="b", by="g", sample_weight="w", cluster="c"
    )
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
            relation, y_true="a", y_pred="b", by="g", sample_weight="w", cluster="c"
        )
        outputs.add(repr((kappa, _group_rows(by_group))))
    assert len(outputs) == 1


def test_a_pair_summing_beyond_the_decimals_is_still_exact(frame_library):
    # Each weight is summed exactly (below 1e13); a pair's sum of about 1e16 would not fit a
    # Decimal(38, 24) but is a Python int here.
    rng = np.random.default_rng(3)
    columns = _ratings(2_000, rng, weights=(rng.random(2_000) + 1.0) * 5e12)
    table = frames.confusion_table(
        frame_library.frame(columns), y_true="a", y_pred="b", sample_weight="w"
    )
    assert table.max() > 1e15
    assert np.array_equal(table, _exact_table(columns))


@pytest.mark.parametrize(
    "weight",
    [0.0, 5e-300, 1e-9, 0.1, 1 / 3, 2 / 3, 1.0, 1e10, 9.999e12, float(np.nextafter(1e13, 0))],
)
def test_limbs_are_the_units_of_a_weight(weight):
    rng = np.random.default_rng(4)
    weights = np.concatenate([[weight], rng.random(50) * weight])
    digits = [d.astype(np.int64) for d in limbs(weights, np.floor)]
    for i, w in enumerate(weights.tolist()):
        assert sum(int(d[i]) << (31 * k) for k, d in enumerate(digits)) == math.floor(w * 1e24)


def test_a_key_of_too_many_rows_keeps_the_float_sum():
    count = np.array([10, MOST_ROWS - 1, MOST_ROWS])
    accurate = units_are_accurate(np.ones(3), count * 0.5, count)
    assert accurate.tolist() == [True, True, False]


# ------------------------------------------------------- the same bits on every engine


def _ratings(n: int, rng: np.random.Generator, weights: np.ndarray | None = None) -> dict:
    """Grades 0-4 of two raters, three groups, weights spread over six orders of magnitude
    (their float sums change with the order of the rows) and 8 clusters (such weights get
    cluster-robust standard errors)."""
    truth = rng.integers(0, 5, n)
    if weights is None:
        weights = rng.random(n) * 10.0 ** rng.uniform(-3, 3, n)
    return {
        "a": truth.tolist(),
        "b": np.clip(truth + rng.integers(-1, 2, n), 0, 4).tolist(),
        "g": rng.integers(0, 3, n).tolist(),
        "w": weights.tolist(),
        "c": (np.arange(n) % 8).tolist(),
    }


def _exact_table(columns: dict, k: int = 5) -> np.ndarray:
    """The weighted table from Python integers: each weight's whole units of 10**-SCALE,
    summed exactly per cell, then rounded once to a float."""
    units = [[0] * k for _ in range(k)]
    for a, b, w in zip(columns["a"], columns["b"], columns["w"], strict=True):
        units[a][b] += math.floor(w * 10.0**SCALE)
    return np.array([[u / 10**SCALE for u in row] for row in units])


def _shuffled(columns: dict, seed: int) -> dict:
    order = np.random.default_rng(seed).permutation(len(columns["a"]))
    return {name: [values[i] for i in order] for name, values in columns.items()}


def _split(library: Any, frame: Any, parts: int) -> Any:
    """``frame`` in ``parts`` partitions on Dask and Spark (the others have none)."""
    if library.name == "dask":
        return frame.repartition(npartitions=parts)
    if library.name == "spark":
        return frame.repartition(parts)
    return frame


def _results(library: Any, frame: Any, kind: str) -> tuple:
    """Everything the frames functions return for ``frame``, as exact values."""
    options: dict[str, Any] = {"y_true": "a", "y_pred": "b", "sample_weight": "w"}
    if kind == "str":
        options["labels"] = ["0", "1", "2", "3", "4"]
    elif kind == "reversed":  # the categories' order is not the values' order
        options["labels"] = [4, 3, 2, 1, 0]
    test = frames.kappa_test(frame, **options, cluster="c")
    by_group = library.to_pandas(frames.kappa_by_group(frame, **options, by="g", cluster="c"))
    by_group = by_group.sort_values("g").reset_index(drop=True)
    return (
        frames.weighted_kappa(frame, **options),
        frames.weighted_kappa(frame, **options, weights="linear"),
        frames.confusion_table(frame, **options).tolist(),
        (test.statistic, test.standard_error, test.pvalue, test.confidence_interval()),
        by_group.drop(columns="g").to_numpy().tolist(),
    )


@pytest.mark.parametrize("kind", ["int", "str", "reversed"])
def test_weighted_results_are_the_same_bits_on_every_engine_and_order(frame_library, kind):
    from frames_data import frame_library as library

    pd = pytest.importorskip("pandas")
    columns = _ratings(3_000, np.random.default_rng(5))
    orders = [columns, _shuffled(columns, 1), _shuffled(columns, 2)]
    # Not vacuous: numpy adds the weights in the rows' order, and the orders change its sums.
    arrays = [(np.asarray(c["a"]), np.asarray(c["b"]), np.asarray(c["w"])) for c in orders]
    float_tables = {wk.confusion_table(a, b, sample_weight=w).tobytes() for a, b, w in arrays}
    assert len(float_tables) > 1
    if kind == "str":  # string ratings: the engine sorts the pairs by their text
        orders = [{**c, "a": list(map(str, c["a"])), "b": list(map(str, c["b"]))} for c in orders]
    # The reference: pandas in the first order, whose table is the exact one.
    expected = _results(library("pandas"), pd.DataFrame(orders[0]), kind)
    exact = _exact_table(columns)
    assert np.array_equal(np.array(expected[2]), exact[::-1, ::-1] if kind == "reversed" else exact)
    for parts, ordered in zip((2, 3, 5), orders, strict=True):
        frame = _split(frame_library, frame_library.frame(ordered), parts)
        assert _results(frame_library, frame, kind) == expected
