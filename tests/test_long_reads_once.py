"""The long layout (item, rater, rating rows) reads its source once.

``frames.agreement`` and ``frames.rater_vs_panel`` with ``item=``, ``rater=``, ``rating=``
run several queries (the ids checked and the raters found, then the count; more when a
rating is missing or an item is looked at again): a lazy frame's columns are read from the
source once for all of them (``_frames/long_counts.read_once``). Each test counts the rows
that leave the source: a polars scan through ``map_batches``, a DuckDB relation through a
Python function, Dask partitions through the function that loads them, a Spark frame
through an accumulator. Reading twice counts every row twice. A plain scan of a Parquet
file, a table or a frame in memory gives the same rows each time and is read by each query
instead of copied (``_frames/long_counts.rereads``): never collected whole, with the same
results as the copy. The command line
(``wkappa agree`` / ``judge`` with ``--item``) reads the file in one streaming pass: the
plans that scan it are counted.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from read_counts import counted_scan, file_scans, recorded

pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")

N_ITEMS = 40
LONG = {"item": "item", "rater": "rater", "rating": "rating"}


def _rows(strings: bool = False, nulls: bool = False) -> dict[str, list[Any]]:
    """Four raters on N_ITEMS items; ``nulls``: some ratings missing and a fifth rater with
    none at all (the query that looks for such raters runs too)."""
    rng = np.random.default_rng(11)
    rows: dict[str, list[Any]] = {"item": [], "rater": [], "rating": [], "site": []}
    for item in range(N_ITEMS):
        truth = int(rng.integers(1, 5))
        for rater in range(5 if nulls else 4):
            rating: Any = min(4, max(1, truth + int(rng.integers(-1, 2))))
            if nulls and (rater == 4 or rng.random() < 0.1):
                rating = None
            rows["item"].append(item)
            rows["rater"].append(f"r{rater}" if strings else rater)
            rows["rating"].append(("abcd"[rating - 1] if rating else None) if strings else rating)
            rows["site"].append(item % 10)
    return rows


def _expected(rows: dict[str, list[Any]], **options: Any) -> Any:
    return frames.agreement(pl.DataFrame(rows), **LONG, **options)


CASES = [
    pytest.param({}, {}, id="integer-ids"),
    pytest.param({"strings": True, "nulls": True}, {}, id="string-ids-null-ratings"),
    pytest.param({"nulls": True}, {"by": "site"}, id="integer-ids-null-ratings-by"),
    pytest.param({}, {"cluster": "site"}, id="cluster"),
]


@pytest.mark.parametrize(("data", "options"), CASES)
def test_a_polars_scan_is_read_once(data: dict[str, bool], options: dict[str, Any]) -> None:
    rows = _rows(**data)
    scan, read = counted_scan(pl.DataFrame(rows))
    got = frames.agreement(scan, **LONG, **options)
    assert sum(read) == len(rows["item"])
    expected = _expected(rows, **options)
    if "by" in options:
        assert {k: v.statistic for k, v in got.items()} == {
            k: v.statistic for k, v in expected.items()
        }
    else:
        assert got.statistic == expected.statistic


@pytest.mark.parametrize(("data", "options"), CASES)
def test_a_duckdb_relation_is_run_once(
    duckdb_connection: Any, data: dict[str, bool], options: dict[str, Any]
) -> None:
    duckdb = pytest.importorskip("duckdb")
    rows = _rows(**data)
    read: list[int] = []

    def count(values: Any) -> Any:
        read.append(len(values))
        return values

    kind = duckdb.sqltype("VARCHAR" if data.get("strings") else "BIGINT")
    name = f"counted_{len(read)}_{id(read)}"
    duckdb_connection.create_function(
        name, count, [kind], kind, type="arrow", null_handling="special", side_effects=True
    )
    view = f"long_rows_{id(read)}"
    duckdb_connection.register(view, pl.DataFrame(rows).to_arrow())
    relation = duckdb_connection.sql(
        f"SELECT item, rater, {name}(rating) AS rating, site FROM {view}"
    )
    got = frames.agreement(relation, **LONG, **options)
    assert sum(read) == len(rows["item"])
    expected = _expected(rows, **options)
    if "by" not in options:
        assert got.statistic == expected.statistic


def test_rater_vs_panel_reads_a_polars_scan_once() -> None:
    rows = _rows(strings=True)
    source = pl.DataFrame(rows)
    scan, read = counted_scan(source)
    got = frames.rater_vs_panel(scan, **LONG, candidate="r0")
    assert sum(read) == len(rows["item"])
    assert got.difference == frames.rater_vs_panel(source, **LONG, candidate="r0").difference


def test_the_errors_are_those_of_the_frame() -> None:
    """Read once, the checks still refuse what they refused: a rating without its item, a
    rater twice on an item."""
    rows = _rows()
    rows["item"][3] = None
    with pytest.raises(wk.WkappaError, match="`item`"):
        frames.agreement(pl.DataFrame(rows).lazy(), **LONG)
    rows = _rows()
    rows["rater"][1] = rows["rater"][0]
    with pytest.raises(wk.WkappaError, match="more than once"):
        frames.agreement(pl.DataFrame(rows).lazy(), **LONG)


@pytest.mark.integration
@pytest.mark.parametrize(("data", "options"), CASES)
def test_dask_partitions_are_loaded_once(data: dict[str, bool], options: dict[str, Any]) -> None:
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    rows = _rows(**data)
    whole = pd.DataFrame(rows)
    parts = np.array_split(np.arange(len(whole)), 3)
    loaded: list[int] = []

    def load(part: int) -> Any:
        loaded.append(len(parts[part]))
        return whole.iloc[parts[part]].reset_index(drop=True)

    with dask.config.set(scheduler="synchronous"):
        ddf = dd.from_map(load, range(len(parts)), meta=whole.iloc[:0])
        got = frames.agreement(ddf, **LONG, **options)
    assert sum(loaded) == len(whole)
    if "by" not in options:
        assert got.statistic == pytest.approx(_expected(rows, **options).statistic, abs=1e-14)


@pytest.mark.slow
@pytest.mark.xdist_group("spark")
@pytest.mark.parametrize(("data", "options"), CASES[:2])
def test_a_spark_frame_is_computed_once_and_released(
    spark: Any, data: dict[str, bool], options: dict[str, Any]
) -> None:
    functions = pytest.importorskip("pyspark.sql.functions")
    pd = pytest.importorskip("pandas")
    rows = _rows(**data)
    computed = spark.sparkContext.accumulator(0)
    kind = "string" if data.get("strings") else "long"

    @functions.udf(kind, useArrow=False)
    def count(value: Any) -> Any:
        computed.add(1)
        return value

    source = spark.createDataFrame(pd.DataFrame(rows).astype({"rating": object}))
    sdf = source.select("item", "rater", count("rating").alias("rating"), "site")
    cached = spark.sparkContext._jsc.getPersistentRDDs().size()
    got = frames.agreement(sdf, **LONG, **options)
    assert computed.value == len(rows["item"])
    assert spark.sparkContext._jsc.getPersistentRDDs().size() == cached  # released
    assert got.statistic == pytest.approx(_expected(rows, **options).statistic, abs=1e-14)


def _result(got: Any) -> str:
    """Everything a result (or a ``by`` dict of results) reports, to compare two paths."""
    if isinstance(got, dict):
        return repr({key: value.to_dict() for key, value in got.items()})
    return repr(got.to_dict())


def _heights(monkeypatch: Any) -> list[int]:
    """The number of rows of every polars LazyFrame collected from now on."""
    return recorded(monkeypatch, pl.LazyFrame, "collect", lambda out: out.height)


@pytest.mark.parametrize(("data", "options"), CASES)
def test_a_parquet_scan_is_read_again_not_copied(
    tmp_path: Any, monkeypatch: Any, data: dict[str, bool], options: dict[str, Any]
) -> None:
    """A Parquet scan is never collected whole (every collected frame is an aggregation,
    smaller than the file); the same rows as CSV are (the copy); both give what the frame
    in memory gives."""
    rows = _rows(**data)
    source = pl.DataFrame(rows)
    source.write_parquet(tmp_path / "long.parquet")
    source.write_csv(tmp_path / "long.csv")
    expected = _result(_expected(rows, **options))
    heights = _heights(monkeypatch)
    scan = pl.scan_parquet(tmp_path / "long.parquet")
    assert _result(frames.agreement(scan, **LONG, **options)) == expected
    assert heights
    assert max(heights) < len(source)
    heights.clear()
    scan = pl.scan_csv(tmp_path / "long.csv", schema=source.schema)
    assert _result(frames.agreement(scan, **LONG, **options)) == expected
    assert max(heights) == len(source)


def test_a_filtered_parquet_scan_and_a_lazy_frame_are_read_again(
    tmp_path: Any, monkeypatch: Any
) -> None:
    rows = _rows(strings=True, nulls=True)
    source = pl.DataFrame(rows)
    source.write_parquet(tmp_path / "long.parquet")
    kept = pl.col("site") != 3
    expected = _result(frames.agreement(source.filter(kept), **LONG))
    heights = _heights(monkeypatch)
    for frame in (
        pl.scan_parquet(tmp_path / "long.parquet").filter(kept).select(*LONG.values()),
        source.lazy().filter(kept),
    ):
        heights.clear()
        assert _result(frames.agreement(frame, **LONG)) == expected
        assert max(heights) < len(source) - N_ITEMS // 10 * 5


def test_a_parquet_scan_with_cleaned_columns_is_read_again(tmp_path: Any, monkeypatch: Any) -> None:
    """Columns computed the same way at each read (labels stripped and lower-cased, a
    rating shifted and cast, nulls filled with a literal) do not make the scan a copy: never
    collected whole, the same result as the cleaned frame in memory."""
    rows = _rows(strings=True, nulls=True)
    rows["rater"] = [f" R{r} " for r in rows["rater"]]
    source = pl.DataFrame(rows)
    source.write_parquet(tmp_path / "long.parquet")
    cleaned = [
        pl.col("rater").str.strip_chars().str.to_lowercase(),
        (pl.col("site").fill_null(0) + 1).cast(pl.Int32),
    ]
    expected = _result(frames.agreement(source.with_columns(cleaned), **LONG, by="site"))
    heights = _heights(monkeypatch)
    scan = pl.scan_parquet(tmp_path / "long.parquet").with_columns(cleaned)
    assert _result(frames.agreement(scan, **LONG, by="site")) == expected
    assert heights
    assert max(heights) < len(source)


@pytest.mark.parametrize("source", ["parquet", "table"])
def test_a_duckdb_scan_is_read_again_not_copied(
    tmp_path: Any, duckdb_connection: Any, monkeypatch: Any, source: str
) -> None:
    """A DuckDB relation that scans a Parquet file or a table is not turned into Arrow whole
    (only the aggregations come back); one with ``random()`` is, and both count what the
    frame in memory counts."""
    duckdb = pytest.importorskip("duckdb")
    rows = _rows(strings=True, nulls=True)
    pl.DataFrame(rows).write_parquet(tmp_path / "long.parquet")
    parquet = str(tmp_path / "long.parquet")
    if source == "parquet":
        relation = duckdb_connection.read_parquet(parquet)
    else:
        name = f"long_table_{id(rows)}"
        duckdb_connection.sql(f"CREATE TABLE {name} AS SELECT * FROM read_parquet('{parquet}')")
        relation = duckdb_connection.table(name)
    copies = recorded(
        monkeypatch, duckdb.DuckDBPyRelation, "to_arrow_table", lambda out: out.num_rows
    )
    expected = _result(_expected(rows))
    assert _result(frames.agreement(relation, **LONG)) == expected
    assert copies
    assert max(copies) < len(rows["item"])
    copies.clear()
    noisy = relation.select("*, random() AS noise")
    assert _result(frames.agreement(noisy, **LONG)) == expected
    assert max(copies) == len(rows["item"])


def test_which_plans_are_read_again(tmp_path: Any, duckdb_connection: Any) -> None:
    """Only plain scans of local Parquet/IPC files, tables and frames in memory (columns
    selected, rows filtered on comparisons) are read again; anything that may give other
    rows, or costs more to read than to copy, is copied."""
    from wkappa._frames.long_counts import rereads

    source = pl.DataFrame(_rows())
    for suffix in ("parquet", "ipc", "csv"):
        getattr(source, f"write_{suffix}")(tmp_path / f"long.{suffix}")
    scan = pl.scan_parquet(tmp_path / "long.parquet")
    again = [
        scan,
        pl.scan_ipc(tmp_path / "long.ipc"),
        source.lazy(),
        scan.filter(pl.col("site") >= 2, pl.col("rater").cast(pl.String) != "3").select(
            "item", pl.col("rater").alias("coder"), "rating"
        ),
        scan.filter(pl.col("rating").is_not_null()),
        scan.with_columns((pl.col("rating") * 2 + 1).alias("twice"), pl.col("site").cast(pl.Int8)),
        scan.with_columns(pl.col("rater").cast(pl.String).str.strip_chars().str.to_uppercase())
        .with_columns(pl.col("rating").fill_null(0))
        .filter(pl.col("site") > 1),
    ]
    copied = [
        pl.scan_csv(tmp_path / "long.csv"),
        scan.map_batches(lambda batch: batch, schema=source.schema),
        scan.filter(pl.int_range(pl.len()).shuffle() < 100),
        scan.head(100),
        scan.join(scan, on="item"),
        pl.concat([scan, scan]),
        scan.with_columns(pl.col("rating").map_batches(lambda s: s, return_dtype=pl.Int64)),
        scan.with_columns(pl.int_range(pl.len()).shuffle().alias("order")),
        scan.with_columns(pl.col("rating").shuffle()),
        scan.with_columns(pl.col("rating").cum_sum()).filter(pl.col("site") > 1),
        scan.with_columns(pl.lit(np.random.default_rng().random()).alias("noise")),
    ]
    assert [rereads(frame) for frame in again] == [True] * len(again)
    assert [rereads(frame) for frame in copied] == [False] * len(copied)
    connection = duckdb_connection
    table = f"long_plans_{id(source)}"
    parquet = str(tmp_path / "long.parquet")
    connection.sql(f"CREATE TABLE {table} AS SELECT * FROM read_parquet('{parquet}')")
    again = [
        connection.read_parquet(parquet),
        connection.table(table),
        connection.table(table).filter("site >= 2").project("item, rater, rating"),
    ]
    copied = [
        connection.read_csv(str(tmp_path / "long.csv")),
        connection.sql(f"SELECT * FROM {table} WHERE random() < 0.5"),
        connection.sql(f"SELECT *, random() AS noise FROM {table}"),
        connection.sql(f"SELECT * FROM {table} USING SAMPLE 50%"),
        connection.table(table).join(connection.table(table).set_alias("other"), "item"),
        connection.from_arrow(source.to_arrow()),
    ]
    assert [rereads(relation) for relation in again] == [True] * len(again)
    assert [rereads(relation) for relation in copied] == [False] * len(copied)


# ----------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    "command",
    [
        ["agree"],
        ["agree", "--cluster", "site"],
        ["judge", "--candidate", "r1"],
        ["judge", "--candidate", "r1", "--cluster", "site"],
    ],
)
@pytest.mark.parametrize("suffix", ["parquet", "csv"])
@pytest.mark.parametrize("numbers", [False, True], ids=["words", "numbers-as-text"])
def test_the_command_line_reads_a_long_file_once(
    tmp_path: Any, capsys: Any, monkeypatch: Any, command: list[str], suffix: str, numbers: bool
) -> None:
    """Text ratings too (words, or numbers written with a space): whether they are numbers
    is decided on the counted values."""
    from wkappa._cli import main

    rows = _rows(strings=True, nulls=True)
    if numbers:
        rows["rating"] = [None if r is None else f" {'abcd'.index(r) + 1}" for r in rows["rating"]]
    path = tmp_path / f"long.{suffix}"
    getattr(pl.DataFrame(rows), f"write_{suffix}")(path)
    scans = file_scans(monkeypatch, path)
    options = ["--item", "item", "--rater", "rater", "--rating", "rating"]
    assert main([command[0], str(path), *options, *command[1:]]) == 0
    capsys.readouterr()
    assert len(scans) == 1, scans
    # the counter sees a second read
    pl.scan_parquet(path).collect() if suffix == "parquet" else pl.scan_csv(path).collect()
    assert len(scans) == 2


def test_score_reads_text_ratings_once(tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """Two rating columns written as text (numbers with spaces): typed on their counted
    values, so ``score`` reads the file once too."""
    from wkappa._cli import main

    path = tmp_path / "pairs.csv"
    pl.DataFrame({"t": [" 1", "2", "3 ", "4"] * 20, "p": ["1", " 2", "3", "3"] * 20}).write_csv(
        path
    )
    scans = file_scans(monkeypatch, path)
    assert main(["score", str(path), "--true", "t", "--pred", "p", "--format", "json"]) == 0
    assert len(scans) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["rows_used"] == 80
    assert out["statistic"] == wk.qwk([1, 2, 3, 4] * 20, [1, 2, 3, 3] * 20)


@pytest.mark.parametrize(
    "command", [["agree"], ["agree", "--cluster", "site"], ["judge", "--candidate", "r1"]]
)
@pytest.mark.parametrize("data", [{}, {"strings": True, "nulls": True}], ids=["integers", "text"])
def test_the_command_line_counts_a_long_file_without_a_pivot(
    tmp_path: Any, capsys: Any, monkeypatch: Any, command: list[str], data: dict[str, bool]
) -> None:
    """The counted (item, rater, rating) rows are coded and counted as ``frames`` counts
    them, never pivoted to an items x raters table, with the output of the pivot."""
    from wkappa._cli import main
    from wkappa._frames import raters

    rows = _rows(**data)
    if not data:
        rows["rater"] = [f"r{r}" for r in rows["rater"]]
    path = tmp_path / "long.parquet"
    pl.DataFrame(rows).write_parquet(path)
    options = ["--item", "item", "--rater", "rater", "--rating", "rating", "--format", "json"]
    arguments = [command[0], str(path), *options, *command[1:]]
    pivots = recorded(monkeypatch, pl.DataFrame, "pivot", lambda out: out.height)
    assert main(arguments) == 0
    packed = capsys.readouterr().out
    assert pivots == []
    monkeypatch.setattr(raters, "_packed_pivot", lambda *args, **kwargs: None)
    assert main(arguments) == 0
    assert pivots
    pivoted, packed = json.loads(capsys.readouterr().out), json.loads(packed)
    if command[0] == "judge":  # a bootstrap: its draws differ from run to run
        for output in (pivoted, packed):
            del output["confidence_interval"], output["pvalue"]
    assert pivoted == packed


def test_the_command_line_still_refuses_a_repeated_rating(tmp_path: Any, capsys: Any) -> None:
    from wkappa._cli import main

    rows = _rows(strings=True)
    for twice in (0, 1):  # the same rating twice, then another rating
        rows["rater"][1] = rows["rater"][0]
        rows["rating"][1] = rows["rating"][0] if twice == 0 else "z"
        path = tmp_path / f"long{twice}.parquet"
        pl.DataFrame(rows).write_parquet(path)
        options = ["--item", "item", "--rater", "rater", "--rating", "rating"]
        assert main(["agree", str(path), *options]) == 2
        assert "more than once" in capsys.readouterr().err
