"""ICC and CCC of integer ratings beyond 2**53 given as pandas, polars or pyarrow data.

float64 rounds integers near 2**62 to steps of 1024, so ratings a few units apart became one
number: the ICC was nan ("every mean square is 0") for a frame although a numpy int64 array
of the same ratings answered. They are now read as integers and centred exactly, as numpy's
are (the numpy path is checked against ``Fraction`` in ``test_icc_accumulator.py``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import wkappa as wk

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

RNG = np.random.default_rng(0)
BASE = np.column_stack([RNG.integers(0, 50, 30)] * 3) + RNG.integers(0, 5, (30, 3))


def _frames(matrix: np.ndarray) -> dict[str, object]:
    columns = {name: matrix[:, j] for j, name in enumerate("abc")}
    return {
        "pandas": pd.DataFrame(columns),
        "pandas Int64": pd.DataFrame(columns).astype("Int64"),
        "polars": pl.DataFrame(columns),
        "pyarrow": pa.table(columns),
    }


@pytest.mark.parametrize("offset", [2**62, -(2**62), 2**53 + 1])
def test_frames_of_huge_integers_answer_as_numpy(offset: int) -> None:
    ratings = BASE + np.int64(offset)
    want = wk.icc_all(ratings)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "every mean square is 0"
        for name, frame in _frames(ratings).items():
            got = wk.icc_all(frame)
            for form in ("1,1", "A,1", "C,k"):
                assert got[form].statistic == pytest.approx(want[form].statistic, rel=1e-12), name
            streamed = wk.ICCAccumulator().update(frame).result(form="A,1").statistic
            assert streamed == pytest.approx(want["A,1"].statistic, rel=1e-12), name
            assert wk.ccc(frame).statistic == pytest.approx(wk.ccc(ratings).statistic, rel=1e-12)


def test_columns_of_huge_integers_answer_as_numpy() -> None:
    x, y = BASE[:, 0] + np.int64(2**62), BASE[:, 1] + np.int64(2**62)
    want = wk.ccc(x, y)
    pairs = [(make(x), make(y)) for make in (pd.Series, pl.Series, pa.array)]
    pairs.append((pa.chunked_array([x[:10], x[10:]]), pa.chunked_array([y])))
    for first, second in pairs:
        got = wk.ccc(first, second)
        assert got.statistic == pytest.approx(want.statistic, rel=1e-12), type(first)
        assert got.means == want.means


def test_a_missing_huge_integer_is_missing() -> None:
    ratings = BASE + np.int64(2**62)
    floats = BASE.astype(np.float64)
    floats[3, 0] = np.nan
    want = wk.icc(floats, form="A,1").statistic  # a common shift leaves the ICC as it is
    nullable = pd.DataFrame({n: ratings[:, j] for j, n in enumerate("abc")}).astype("Int64")
    nullable.iloc[3, 0] = pd.NA
    with_null = pl.from_pandas(nullable)
    for frame in (nullable, with_null, pa.Table.from_pandas(nullable)):
        assert wk.icc(frame, form="A,1").statistic == pytest.approx(want, rel=1e-9)
    with pytest.raises(wk.WkappaError, match="missing"):
        wk.icc(with_null, nan_policy="raise")


def test_messages_name_the_frames_columns() -> None:
    """The exact-integer route once lost the frame's column names: a rater without any
    rating, or a missing rating under nan_policy='raise', was ``rater 2``, not
    ``column 'c'`` as for the same frame of smaller integers."""
    ratings = pd.DataFrame({n: BASE[:, j] + np.int64(2**62) for j, n in enumerate("abc")})
    ratings = ratings.astype("Int64")
    ratings["c"] = pd.array([None] * len(ratings), dtype="Int64")
    for frame in (ratings, pl.from_pandas(ratings)):
        with pytest.raises(wk.WkappaError, match="no rating at all from column 'c'"):
            wk.icc(frame)
        with pytest.raises(wk.WkappaError, match=r"item 0, column 'c'"):
            wk.icc(frame, nan_policy="raise")
        with pytest.raises(wk.WkappaError, match=r"item 0, column 'c'"):
            wk.ccc(frame[["a", "c"]])
        with pytest.raises(wk.WkappaError, match=r"item 0, column 'c'"):
            wk.ICCAccumulator().update(frame)
