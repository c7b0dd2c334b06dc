"""Shared data for the data-frame tests: one data set, built in every engine.

Each case is plain Python lists (with ``None`` for missing values) plus a pandas frame with
the intended dtypes; each engine is built from those, so every engine sees the same data and
the numpy result on the lists is the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

GRADES = ["none", "mild", "moderate", "severe"]


@dataclass
class Case:
    name: str
    true: list[Any]
    pred: list[Any]
    group: list[Any]
    weight: list[float]
    kind: str  # "int", "str" or "enum"

    @property
    def labels(self) -> list[Any] | None:
        return GRADES if self.kind in ("str", "enum") else None


def make_case(kind: str, n: int = 400, seed: int = 0, missing: bool = True) -> Case:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, 3)
    if kind == "int":
        a, b = a + 1, b + 1  # ratings 1..4 (an offset integer range)
    true: list[Any] = [GRADES[x] for x in a] if kind != "int" else a.tolist()
    pred: list[Any] = [GRADES[x] for x in b] if kind != "int" else b.tolist()
    if missing:
        for i in rng.choice(n, 12, replace=False)[:6]:
            true[i] = None
        for i in rng.choice(n, 12, replace=False)[6:]:
            pred[i] = None
    group = [f"p{x}" for x in rng.integers(0, 5, n)]
    weight = (rng.integers(1, 9, n) / 4).tolist()  # dyadic: exact float sums
    return Case(f"{kind}{'-nulls' if missing else ''}", true, pred, group, weight, kind)


def to_pandas(case: Case) -> Any:
    import pandas as pd

    if case.kind == "int":
        true = pd.array(case.true, dtype="Int64")
        pred = pd.array(case.pred, dtype="Int64")
    elif case.kind == "str":
        true = pd.array(case.true, dtype=object)
        pred = pd.array(case.pred, dtype=object)
    else:
        true = pd.Categorical(case.true, categories=GRADES, ordered=True)
        pred = pd.Categorical(case.pred, categories=GRADES, ordered=True)
    return pd.DataFrame({"a": true, "b": pred, "g": case.group, "w": case.weight})


def to_polars(case: Case) -> Any:
    import polars as pl

    if case.kind == "int":
        dtype: Any = pl.Int64
    elif case.kind == "str":
        dtype = pl.String
    else:
        dtype = pl.Enum(GRADES)
    return pl.DataFrame(
        {
            "a": pl.Series(case.true, dtype=dtype),
            "b": pl.Series(case.pred, dtype=dtype),
            "g": case.group,
            "w": case.weight,
        }
    )


def to_arrow(case: Case) -> Any:
    import pyarrow as pa

    if case.kind == "int":
        a, b = pa.array(case.true, pa.int64()), pa.array(case.pred, pa.int64())
    else:
        a, b = pa.array(case.true, pa.string()), pa.array(case.pred, pa.string())
        if case.kind == "enum":
            ordered = pa.dictionary(pa.int32(), pa.string(), ordered=True)
            a = pa.DictionaryArray.from_arrays(_codes(case.true), GRADES, ordered=True)
            b = pa.DictionaryArray.from_arrays(_codes(case.pred), GRADES, ordered=True)
            assert a.type == ordered
    return pa.table({"a": a, "b": b, "g": case.group, "w": case.weight})


def _codes(values: list[Any]) -> Any:
    import pyarrow as pa

    return pa.array([None if v is None else GRADES.index(v) for v in values], pa.int32())


_views = iter(range(10**6))


def to_duckdb(case: Case, connection: Any) -> Any:
    """A DuckDB relation (lazy); 'enum' columns become a DuckDB ENUM type."""
    import pyarrow as pa

    plain = pa.table({"a": case.true, "b": case.pred, "g": case.group, "w": case.weight})
    view = f"ratings_{next(_views)}"
    connection.register(view, plain)
    if case.kind == "enum":
        connection.execute(
            "CREATE TYPE IF NOT EXISTS grade AS ENUM ('none', 'mild', 'moderate', 'severe')"
        )
        return connection.sql(f"SELECT a::grade AS a, b::grade AS b, g, w FROM {view}")
    return connection.sql(f"SELECT * FROM {view}")
