"""The long layout counted in the engine (_frames/long_counts.py) equals the pivot on every
frame library: the same distinct rows of ratings, multiplicities and rater names, so the same
coefficients; a rater who rates an item twice still gets the pivot's error."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wkappa as wk

pl = pytest.importorskip("polars")
nw = pytest.importorskip("narwhals")
wkf = pytest.importorskip("wkappa.frames")
from wkappa._frames import long_counts, long_packed, raters  # noqa: E402

COUNT = raters._COUNT


def _narwhals(native: Any) -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Dask support is moving", FutureWarning)
        return nw.from_native(native)


def _rows(grouped: Any, names: list[str]) -> dict[tuple[Any, ...], int]:
    out: dict[tuple[Any, ...], int] = {}
    for row in grouped.iter_rows(named=True):
        key = tuple(None if v is None or v != v else v for v in (row[n] for n in names))
        out[key] = out.get(key, 0) + int(row[COUNT])
    return out


def _engine(native: Any) -> Any:
    """The engine's count as frames.agreement runs it: with the raters whose every rating is
    null (the pivot keeps them, as the wide layout keeps a column of nulls)."""
    frame = _narwhals(native)
    facts = long_counts.long_facts(frame, "item", "who", "grade")
    return raters._engine_rows(frame, "item", "who", "grade", [], facts)


def _both(native: Any) -> tuple[Any, Any]:
    frame = _narwhals(native)
    pivot = raters._pivoted(frame, "item", "who", "grade", [])
    return _engine(native), pivot


RATER_SETS = [[0, 1, 2, 3], [3, 7, 5], ["b", "a", "c10", "c2"], [10, 2, -1]]
RATING_SETS = [[1, 2, 3, 4, 5], [0, 2, 9], [0.5, 1.5, 2.5], ["lo", "mid", "hi"]]


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    who=st.sampled_from(RATER_SETS),
    grades=st.sampled_from(RATING_SETS),
    n_items=st.integers(1, 12),
)
def test_engine_counts_equal_the_pivot(
    frame_library: Any, data: st.DataObject, who: list[Any], grades: list[Any], n_items: int
) -> None:
    rows: dict[str, list[Any]] = {"item": [], "who": [], "grade": []}
    for i in range(n_items):
        for r in who:
            pick = data.draw(st.integers(-1, len(grades)))  # -1: no row; len: a null rating
            if pick < 0:
                continue
            rows["item"].append(i * 7)
            rows["who"].append(r)
            rows["grade"].append(None if pick == len(grades) else grades[pick])
    for r in who[:2]:  # at least two raters with a rating (else there is nothing to count)
        rows["item"].append(-1)
        rows["who"].append(r)
        rows["grade"].append(grades[0])
    dtypes = {"grade": "string" if isinstance(grades[0], str) else
              "float64" if isinstance(grades[0], float) else "int64",
              "who": "string" if isinstance(who[0], str) else "int64"}  # fmt: skip
    engine, pivot = _both(frame_library.frame(rows, dtypes=dtypes))
    assert engine is not None
    assert engine[1] == pivot[1]  # the raters, in the same order
    assert _rows(engine[0], engine[1]) == _rows(pivot[0], pivot[1])


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_long_layout_equals_the_wide_arrays(frame_library: Any, coefficient: str) -> None:
    rng = np.random.default_rng(3)
    wide = rng.integers(1, 6, (300, 4)).astype(float)
    wide[rng.random(wide.shape) < 0.15] = np.nan
    kept = [(i, g) for i in range(300) for g in range(4) if not np.isnan(wide[i, g])]
    frame = frame_library.frame(
        {
            "item": [i for i, _ in kept],
            "who": [g for _, g in kept],
            "grade": [int(wide[i, g]) for i, g in kept],
        }
    )
    assert _engine(frame) is not None
    got = wkf.agreement(frame, item="item", rater="who", rating="grade",
                        coefficient=coefficient, weights="quadratic")  # fmt: skip
    expected = wk.agreement(wide, coefficient=coefficient, weights="quadratic")
    assert got.statistic == pytest.approx(expected.statistic, abs=1e-13)
    assert got.standard_error == pytest.approx(expected.standard_error, abs=1e-13)
    assert got.n_items == expected.n_items
    assert got.n_ratings == expected.n_ratings


def test_a_rater_twice_on_an_item_keeps_the_pivots_error(frame_library: Any) -> None:
    columns = {"item": [1, 1, 1, 2, 2, 2], "who": [0, 1, 1, 0, 1, 2], "grade": [1, 2, 2, 1, 1, 3]}
    frame = frame_library.frame(columns)
    assert _engine(frame) is None
    with pytest.raises(wk.WkappaError, match="more than once"):
        wkf.agreement(frame, item="item", rater="who", rating="grade")


# Column types of the query tests: DuckDB's name and polars' dtype.
_TYPES = {"BIGINT": "Int64", "TINYINT": "Int8", "DOUBLE": "Float64", "UBIGINT": "UInt64",
          "INTEGER": "Int32", "VARCHAR": "String"}  # fmt: skip


def _packed_native(library: str, connection: Any, rows: dict[str, list[Any]],
                   kinds: tuple[str, str]) -> Any:  # fmt: skip
    """The rows as a DuckDB relation or polars frame (eager or lazy), raters and ratings of
    the ``kinds`` column types."""
    local = pl.DataFrame(rows)
    if library == "duckdb":
        view = f"long_packed_{abs(hash((str(rows), kinds)))}"
        connection.register(view, local.to_arrow())
        return connection.sql(
            f"SELECT item, who::{kinds[0]} AS who, grade::{kinds[1]} AS grade, site FROM {view}"
        )
    local = local.with_columns(
        pl.col("who").cast(getattr(pl, _TYPES[kinds[0]])),
        pl.col("grade").cast(getattr(pl, _TYPES[kinds[1]])),
    )
    return local.lazy() if library == "polars-lazy" else local


@pytest.mark.parametrize("library", ["duckdb", "polars", "polars-lazy"])
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    data=st.data(),
    who=st.sampled_from([[0, 1, 2, 3], [3, 7, 5], [10, 2, -1], list(range(20))]),
    low=st.sampled_from([-3, 0, 1, 250]),
    n_values=st.integers(1, 7),
    kinds=st.sampled_from([("BIGINT", "BIGINT"), ("TINYINT", "DOUBLE"), ("UBIGINT", "INTEGER")]),
    n_items=st.integers(1, 15),
)
def test_packed_query_counts_as_the_pivot(
    duckdb_connection: Any,
    library: str,
    data: st.DataObject,
    who: list[int],
    low: int,
    n_values: int,
    kinds: tuple[str, str],
    n_items: int,
) -> None:
    """DuckDB and polars with integer raters and whole-number ratings count by bit_or of
    shifted digits (_frames/long_packed.py): the same rows as the pivot, per group of a
    second key too, for column types narrow, unsigned or floating."""
    rater_type = kinds[0]
    if rater_type == "UBIGINT" and min(who) < 0:
        who = [w + 1 for w in who]
    if rater_type == "TINYINT" and low > 100:
        low = -3
    rows: dict[str, list[Any]] = {"item": [], "who": [], "grade": [], "site": []}
    for i in range(n_items):
        site = data.draw(st.sampled_from(["a", "b", None]))
        for r in who:
            pick = data.draw(st.integers(-1, n_values))  # -1: no row; n_values: null
            if pick >= 0:
                rows["item"].append(i)
                rows["who"].append(r)
                rows["grade"].append(None if pick == n_values else low + 2 * pick)
                rows["site"].append(site)
    for r in who[:2]:
        rows["item"].append(-1)
        rows["who"].append(r)
        rows["grade"].append(low)
        rows["site"].append("a")
    native = _packed_native(library, duckdb_connection, rows, kinds)
    frame = _narwhals(native)
    counted = long_packed.packed_rows(
        library.partition("-")[0], native, "item", "who", "grade", ["site"], COUNT,
        long_packed.Coding(low - 1), long_packed.Coding(min(who)),
        2 * n_values - 1, max(who) - min(who) + 1,
    )  # fmt: skip
    # The query applies to integer raters and ratings on a span whose codes fit 62 bits.
    fits = (2 * n_values - 1).bit_length() * (max(who) - min(who) + 1) <= 62
    assert (counted is not None) == fits
    # as frames.agreement runs it: a rater whose every rating is null kept, as the pivot does
    facts = long_counts.long_facts(frame, "item", "who", "grade")
    engine = raters._engine_rows(frame, "item", "who", "grade", ["site"], facts)
    pivot = raters._pivoted(frame, "item", "who", "grade", ["site"])
    if engine is None:  # codes beyond int64 either way (20 raters x 9 ratings)
        assert not fits
        return
    assert engine[1] == pivot[1]
    assert _rows(engine[0], ["site", *engine[1]]) == _rows(pivot[0], ["site", *pivot[1]])


@pytest.mark.parametrize("library", ["duckdb", "polars"])
def test_packed_query_leaves_a_repeated_rating_to_the_pivot(
    duckdb_connection: Any, library: str
) -> None:
    """A rater twice on an item whose two digits OR into one looking like a single rating
    (1 | 2 = 3) is still found: fewer non-zero digits than rows."""
    rows = {"item": [1, 1, 1, 2, 2], "who": [0, 0, 1, 0, 1], "grade": [1, 2, 3, 1, 1],
            "site": ["a"] * 5}  # fmt: skip
    native = _packed_native(library, duckdb_connection, rows, ("BIGINT", "BIGINT"))
    zero = long_packed.Coding(0)
    assert long_packed.packed_rows(library, native, "item", "who", "grade", [], COUNT,
                                   zero, zero, 3, 2) is None  # fmt: skip
    assert _engine(native.select("item", "who", "grade")) is None
    with pytest.raises(wk.WkappaError, match="more than once"):
        wkf.agreement(native, item="item", rater="who", rating="grade")


@pytest.mark.parametrize("library", ["duckdb", "polars", "polars-lazy"])
def test_packed_query_looks_up_string_ids(
    duckdb_connection: Any, library: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """String raters and ratings (a quote in one) take the packed query, not the sums: the
    same rows as the pivot."""
    rng = np.random.default_rng(5)
    who, grades = ["o'brien", "b", "c10", "c2"], ["lo", "mid", "hi"]
    rows: dict[str, list[Any]] = {"item": [], "who": [], "grade": [], "site": []}
    for i in range(60):
        for r in who:
            if rng.random() < 0.8:
                rows["item"].append(i)
                rows["who"].append(r)
                rows["grade"].append(grades[rng.integers(3)] if rng.random() < 0.9 else None)
                rows["site"].append("a")
    native = _packed_native(library, duckdb_connection, rows, ("VARCHAR", "VARCHAR"))
    frame = _narwhals(native)
    pivot = raters._pivoted(frame, "item", "who", "grade", [])

    def refuse(*args: Any) -> None:
        raise AssertionError("the packed query should have counted these")

    monkeypatch.setattr(long_counts, "_summed_rows", refuse)
    engine = _engine(native)
    assert engine is not None
    assert engine[1] == pivot[1]
    assert _rows(engine[0], engine[1]) == _rows(pivot[0], pivot[1])
