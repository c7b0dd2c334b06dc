"""wkappa.frames.agreement: wide and long layouts on several engines, by= groups."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk

pl = pytest.importorskip("polars")
wkf = pytest.importorskip("wkappa.frames")

rng = np.random.default_rng(12)
N = 300
TRUTH = rng.integers(1, 5, N)
WIDE = np.column_stack(
    [np.where(rng.random(N) < 0.75, TRUTH, rng.integers(1, 5, N)) for _ in range(4)]
).astype(float)
WIDE[rng.random(WIDE.shape) < 0.1] = np.nan
GROUP = rng.integers(0, 3, N)


def wide_polars() -> pl.DataFrame:
    columns = {f"r{g}": pl.Series(WIDE[:, g]).fill_nan(None).cast(pl.Int64) for g in range(4)}
    return pl.DataFrame({"group": GROUP, **columns})


def long_polars() -> pl.DataFrame:
    records = [
        {"group": int(GROUP[i]), "item": i, "coder": f"c{g}", "grade": int(WIDE[i, g])}
        for i in range(N)
        for g in range(4)
        if not np.isnan(WIDE[i, g])
    ]
    return pl.DataFrame(records)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
@pytest.mark.parametrize("engine", ["polars", "lazy", "pandas", "pyarrow", "duckdb"])
def test_wide_matches_arrays(engine, coefficient):
    frame = wide_polars()
    if engine == "lazy":
        frame = frame.lazy()
    elif engine == "pandas":
        pytest.importorskip("pandas")
        frame = frame.to_pandas(use_pyarrow_extension_array=False)
    elif engine == "pyarrow":
        frame = frame.to_arrow()
    elif engine == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        arrow = frame.to_arrow()  # noqa: F841 - read by DuckDB by name
        frame = duckdb.sql("select * from arrow")
    expected = wk.agreement(WIDE, coefficient=coefficient, weights="quadratic")
    result = wkf.agreement(
        frame, raters=["r0", "r1", "r2", "r3"], coefficient=coefficient, weights="quadratic"
    )
    assert result.statistic == pytest.approx(expected.statistic, abs=1e-13)
    assert result.standard_error == pytest.approx(expected.standard_error, abs=1e-13)
    assert result.n_items == expected.n_items


@pytest.mark.parametrize("coefficient", ["fleiss", "conger"])
def test_long_matches_wide_and_by_groups(coefficient):
    expected = wk.agreement(WIDE, coefficient=coefficient)
    long = wkf.agreement(
        long_polars().lazy(), item="item", rater="coder", rating="grade", coefficient=coefficient
    )
    assert long.statistic == pytest.approx(expected.statistic, abs=1e-13)
    grouped = wkf.agreement(wide_polars(), raters=["r0", "r1", "r2", "r3"], by="group",
                            coefficient=coefficient)  # fmt: skip
    assert sorted(grouped) == [0, 1, 2]
    for value, result in grouped.items():
        part = wk.agreement(WIDE[GROUP == value], coefficient=coefficient, min_rating=1,
                            max_rating=4)  # fmt: skip
        assert result.statistic == pytest.approx(part.statistic, abs=1e-13)


def test_frame_errors():
    with pytest.raises(wk.WkappaError, match="no column"):
        wkf.agreement(wide_polars(), raters=["r0", "zz"])
    with pytest.raises(wk.WkappaError, match="Give either"):
        wkf.agreement(wide_polars())
    frame = pl.DataFrame({"item": [1, 1, 2], "coder": ["a", "a", "b"], "grade": [1, 2, 1]})
    with pytest.raises(wk.WkappaError, match="more than once"):
        wkf.agreement(frame, item="item", rater="coder", rating="grade")


def test_dask_wide():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    frame = dd.from_pandas(pd.DataFrame(WIDE, columns=["r0", "r1", "r2", "r3"]), npartitions=3)
    expected = wk.agreement(WIDE, coefficient="conger")
    result = wkf.agreement(frame, raters=["r0", "r1", "r2", "r3"], coefficient="conger")
    assert result.statistic == pytest.approx(expected.statistic, abs=1e-13)
    assert result.standard_error == pytest.approx(expected.standard_error, abs=1e-13)


def test_long_layout_orders_raters_by_name():
    """The long layout's raters (pairwise() rows, leave_one_rater_out() entries) are sorted
    by name, integer names numerically, whatever order the rows come in."""
    names = ["10", "9", "b", "a"]  # sorted: 9, 10, a, b
    order = [1, 0, 3, 2]  # column g of WIDE belongs to names[g]; this is their sorted order
    records = [
        {"item": i, "coder": names[g], "grade": int(WIDE[i, g])}
        for i in reversed(range(N))
        for g in (2, 0, 3, 1)
        if not np.isnan(WIDE[i, g])
    ]
    result = wkf.agreement(pl.DataFrame(records), item="item", rater="coder", rating="grade")
    expected = wk.agreement(WIDE[:, order])
    assert np.allclose(result.pairwise(), expected.pairwise())
    assert np.allclose(result.leave_one_rater_out(), expected.leave_one_rater_out())
