"""Shared data for the data-frame tests: one data set, built in every frame library.

Each case is plain Python lists (with ``None`` for missing values); a :class:`FrameLibrary`
(the ``frame_library`` fixture of ``conftest.py``) builds a frame of its library from plain
columns, so every library sees the same data and the numpy result on the lists is the
reference. Integer columns with nulls become nullable integers, strings stay strings, and the
columns named in ``categories`` become the library's ordered categorical (pandas ordered
``Categorical``, polars ``Enum``, pyarrow ordered dictionary, DuckDB ``ENUM``; Spark has none
and keeps the strings).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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


Columns = dict[str, list[Any]]
Categories = dict[str, Sequence[Any]]
Dtypes = dict[str, str]  # column -> "int64", "float64" or "string", where inference may not do


def weighted_ratings(n: int, seed: int, groups: int = 3) -> Any:
    """A polars frame of two raters' grades 0-4 (``a``, ``b``), a group ``g``, a sample
    weight ``w`` drawn uniformly from [0, 1) (weights whose float sums depend on their order)
    and a cluster ``c`` of 8 (the standard errors of such weights are cluster-robust)."""
    import polars as pl

    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, n)
    return pl.DataFrame(
        {
            "a": truth,
            "b": np.clip(truth + rng.integers(-1, 2, n), 0, 4),
            "g": rng.integers(0, groups, n),
            "w": rng.random(n),
            "c": np.arange(n) % 8,
        }
    )


def _arrow_array(values: list[Any], dtype: str | None) -> Any:
    import pyarrow as pa

    return pa.array(values, None if dtype is None else getattr(pa, dtype)())


def _arrow_table(columns: Columns, dtypes: Dtypes) -> Any:
    import pyarrow as pa

    return pa.table({name: _arrow_array(v, dtypes.get(name)) for name, v in columns.items()})


def _pandas(columns: Columns, categories: Categories, dtypes: Dtypes) -> Any:
    import pandas as pd

    body: dict[str, Any] = {}
    for name, values in columns.items():
        present = [v for v in values if v is not None]
        dtype = dtypes.get(name)
        if dtype is not None:
            body[name] = pd.array(
                values, dtype={"int64": "Int64", "string": object}.get(dtype, dtype)
            )
        elif name in categories:
            body[name] = pd.Categorical(values, categories=list(categories[name]), ordered=True)
        elif present and all(isinstance(v, bool) for v in present):
            body[name] = pd.array(values, dtype="boolean")
        elif present and all(isinstance(v, int) for v in present):
            body[name] = pd.array(values, dtype="Int64")
        elif present and all(isinstance(v, (int, float)) for v in present):
            body[name] = pd.array([float("nan") if v is None else v for v in values], "float64")
        else:
            body[name] = pd.array(values, dtype=object)
    return pd.DataFrame(body)


def _polars(columns: Columns, categories: Categories, dtypes: Dtypes) -> Any:
    import polars as pl

    def dtype(name: str) -> Any:
        if name in categories:
            return pl.Enum(list(categories[name]))
        given = dtypes.get(name)
        return (
            None
            if given is None
            else {"int64": pl.Int64, "float64": pl.Float64}.get(given, pl.String)
        )

    return pl.DataFrame({name: pl.Series(v, dtype=dtype(name)) for name, v in columns.items()})


def _arrow(columns: Columns, categories: Categories, dtypes: Dtypes) -> Any:
    import pyarrow as pa

    body: dict[str, Any] = {}
    for name, values in columns.items():
        if name in categories:
            order = list(categories[name])
            codes = pa.array([None if v is None else order.index(v) for v in values], pa.int32())
            body[name] = pa.DictionaryArray.from_arrays(codes, order, ordered=True)
        else:
            body[name] = _arrow_array(values, dtypes.get(name))
    return pa.table(body)


_views = iter(range(10**6))
Builder = Callable[[Columns, Categories, Dtypes], Any]


def _duckdb(connection: Any) -> Builder:
    def build(columns: Columns, categories: Categories, dtypes: Dtypes) -> Any:
        """A DuckDB relation (lazy); categorical columns become an ENUM type."""
        view = f"ratings_{next(_views)}"
        connection.register(view, _arrow_table(columns, dtypes))
        selected = []
        for name in columns:
            if name in categories:
                enum = f"enum_{next(_views)}"
                members = ", ".join("'" + str(v).replace("'", "''") + "'" for v in categories[name])
                connection.execute(f"CREATE TYPE {enum} AS ENUM ({members})")
                selected.append(f'"{name}"::{enum} AS "{name}"')
            else:
                selected.append(f'"{name}"')
        return connection.sql(f"SELECT {', '.join(selected)} FROM {view}")

    return build


def _dask(columns: Columns, categories: Categories, dtypes: Dtypes) -> Any:
    import dask.dataframe as dd

    return dd.from_pandas(_pandas(columns, categories, dtypes), npartitions=2)


def _spark(session: Any) -> Builder:
    def build(columns: Columns, categories: Categories, dtypes: Dtypes) -> Any:
        """A Spark DataFrame made from Arrow data (no Python worker processes needed); Spark
        has no ordered categorical, so those columns stay strings."""
        return session.createDataFrame(_arrow_table(columns, dtypes))

    return build


@dataclass(frozen=True)
class FrameLibrary:
    """One frame library for the frame tests: ``frame(columns)`` builds a frame of it.

    Attributes
    ----------
    name : str
        'pandas', 'polars', 'polars-lazy', 'pyarrow', 'duckdb', 'dask' or 'spark'.
    lazy : bool
        The frame is lazy (results of ``kappa_by_group`` come back lazy too).
    ordered_categories : bool
        The library has an ordered categorical type that carries the category order.
    """

    name: str
    build: Builder = field(repr=False)
    lazy: bool = False
    ordered_categories: bool = True

    def frame(
        self, columns: Columns, categories: Categories | None = None, dtypes: Dtypes | None = None
    ) -> Any:
        """A frame of this library; ``categories``: ordered categorical columns and their
        categories; ``dtypes``: columns whose type inference might get wrong (all nulls)."""
        return self.build(columns, categories or {}, dtypes or {})

    def case(self, case: Case) -> Any:
        """The frame of a case: ratings ``a``, ``b``, group ``g``, pair weight ``w``."""
        columns = {"a": case.true, "b": case.pred, "g": case.group, "w": case.weight}
        return self.frame(columns, {"a": GRADES, "b": GRADES} if case.kind == "enum" else None)

    def labels(self, case: Case) -> dict[str, Any]:
        """The keywords the frame functions need for the case: plain strings need
        ``labels``; an ordered categorical carries its own order."""
        if case.kind == "str" or (case.kind == "enum" and not self.ordered_categories):
            return {"labels": case.labels}
        return {}

    def to_pandas(self, result: Any) -> Any:
        """A result frame as pandas, after checking that it is a frame of this library (lazy
        where the input is lazy)."""
        import narwhals as nw

        with warnings.catch_warnings():  # narwhals' notice that Dask support moves out
            warnings.filterwarnings("ignore", "Dask support is moving", FutureWarning)
            frame = nw.from_native(result)
            sample = nw.from_native(self.frame({"x": [1]}))
        assert frame.implementation == sample.implementation, (frame.implementation, self.name)
        assert isinstance(frame, nw.LazyFrame) == self.lazy
        if isinstance(frame, nw.LazyFrame):
            frame = frame.collect()
        return frame.to_pandas()


def frame_library(name: str, resource: Any = None) -> FrameLibrary:
    """The library ``name``; ``resource`` is the DuckDB connection or the Spark session."""
    if name == "pandas":
        return FrameLibrary(name, _pandas)
    if name == "polars":
        return FrameLibrary(name, _polars)
    if name == "polars-lazy":
        return FrameLibrary(name, lambda *args: _polars(*args).lazy(), lazy=True)
    if name == "pyarrow":
        return FrameLibrary(name, _arrow)
    if name == "duckdb":
        return FrameLibrary(name, _duckdb(resource), lazy=True)
    if name == "dask":
        return FrameLibrary(name, _dask, lazy=True)
    if name == "spark":
        return FrameLibrary(name, _spark(resource), lazy=True, ordered_categories=False)
    raise ValueError(name)
