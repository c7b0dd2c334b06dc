"""kappa_by_group on every frame library against the engine's group-by on pandas and against
``frames.kappa_test`` of each group's rows.

Each test builds its data as plain columns, hands them to the ``frame_library`` fixture
(conftest.py) and compares the library's answer with the reference: the same call on a pandas
frame forced through the engine's group-by. The frames have at least ``FAST_MIN`` rows, so on
the eager libraries (pandas, polars, pyarrow) the in-memory path (group codes + one numba
pass) really runs; a spy on :mod:`wkappa._frames.grouped_tables` checks which path answered.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa import WkappaError
from wkappa._core.fused import FAST_MIN

pd = pytest.importorskip("pandas")
frames = pytest.importorskip("wkappa.frames")
grouped_tables = pytest.importorskip("wkappa._frames.grouped_tables")  # by_group reads it here

N = max(FAST_MIN, 4000)
STATS = ["n", "kappa", "standard_error", "ci_low", "ci_high"]
EAGER = ("pandas", "polars", "pyarrow")  # the libraries the in-memory path reads


@pytest.fixture
def spy(monkeypatch):
    """Record whether the in-memory path answered (True) or declined (False -> engine)."""
    calls: list[bool] = []
    real = grouped_tables.in_memory_group_tables

    def wrapped(*args, **kwargs):
        result = real(*args, **kwargs)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(grouped_tables, "in_memory_group_tables", wrapped)
    return calls


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a tiny group may have no kappa
        return function(*args, **kwargs)


def _reference(columns: dict[str, list[Any]], **options) -> Any:
    """The call on a pandas frame of ``columns``, forced through the engine's group-by."""
    from frames_data import frame_library

    df = frame_library("pandas").frame(columns)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grouped_tables, "in_memory_group_tables", lambda *a, **k: None)
        return _quiet(frames.kappa_by_group, df, **options)


def _by_group(library, columns: dict[str, list[Any]], **options) -> Any:
    """kappa_by_group on the library's frame of ``columns``, as pandas."""
    return library.to_pandas(_quiet(frames.kappa_by_group, library.frame(columns), **options))


def _same_frame(result, expected, **tolerance) -> None:
    """Equal values; the dtypes of keys may differ between libraries (nullable or not)."""
    assert list(result.columns) == list(expected.columns)
    assert len(result) == len(expected)
    keys = [c for c in expected.columns if c not in STATS]
    for key in keys:
        got, want = result[key].tolist(), expected[key].tolist()
        assert [None if pd.isna(v) else v for v in got] == [None if pd.isna(v) else v for v in want]
    pd.testing.assert_frame_equal(
        result[STATS].astype("float64"), expected[STATS].astype("float64"), **tolerance
    )


def _listed(values: np.ndarray, missing: np.ndarray | None = None) -> list[Any]:
    out: list[Any] = values.tolist()
    if missing is not None:
        for i in np.flatnonzero(missing):
            out[i] = None
    return out


def _columns(seed: int, *, null_ratings: bool, null_keys: bool, k: int = 5) -> dict[str, list]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, N)
    b = np.clip(a + rng.integers(-1, 2, N), 0, k - 1)
    true_missing = rng.random(N) < (0.02 if null_ratings else 0.0)
    pred_missing = rng.random(N) < (0.02 if null_ratings else 0.0)
    prompt = rng.integers(0, 13, N).astype(np.float64)
    school = np.array(["x", "y", "z"], dtype=object)[rng.integers(0, 3, N)]
    prompt_missing = rng.random(N) < (0.03 if null_keys else 0.0)
    school_missing = rng.random(N) < (0.03 if null_keys else 0.0)
    # Whole numbers (float64): the standard errors read sample weights as frequencies.
    weight = np.round(4.0 * rng.gamma(2.0, 1.0, N))
    weight[rng.random(N) < 0.05] = 0.0
    return {
        "prompt": _listed(prompt, prompt_missing),
        "school": _listed(school, school_missing),
        "grade": _listed(a.astype(np.float64), true_missing),
        "model": _listed(b.astype(np.float64), pred_missing),
        "w": weight.tolist(),
    }


def _group_rows(df, keys: list[str], row) -> Any:
    mask = np.ones(len(df), dtype=bool)
    for key in keys:
        value = row[key]
        column = df[key]
        mask &= column.isna().to_numpy() if pd.isna(value) else (column == value).fillna(False)
    return df[mask]


def _path(library, spy: list[bool], answered: bool = True, weighted: bool = False) -> None:
    """Which path answered: the in-memory one on pandas (``answered``); a lazy library always
    goes to the engine (polars and pyarrow take the in-memory path for some key types), as
    does every library with sample weights (summed exactly by the engine's group-by)."""
    if weighted:
        assert spy == []
    elif library.name == "pandas":
        assert spy == [answered]
    elif library.name not in EAGER:
        assert spy == []


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("null_ratings", [False, True])
def test_fast_path_equals_kappa_test_of_each_group(
    frame_library, spy, weights, weighted, null_ratings
):
    columns = _columns(1, null_ratings=null_ratings, null_keys=True)
    keys = ["prompt", "school"]
    options = {
        "y_true": "grade",
        "y_pred": "model",
        "by": keys,
        "weights": weights,
        "sample_weight": "w" if weighted else None,
        "nan_policy": "omit",
    }
    result = _by_group(frame_library, columns, **options)
    _path(frame_library, spy, weighted=weighted)
    expected = _reference(columns, **options)
    _same_frame(result, expected, rtol=1e-12)
    df = pd.DataFrame(columns).astype({"prompt": "float64", "grade": "float64", "model": "float64"})
    assert len(result) == df.groupby(keys, dropna=False).ngroups
    assert result["prompt"].isna().to_numpy()[-1] and result["school"].isna().any()
    if frame_library.name != "pandas":
        return  # the reference's own groups are checked once
    lo, hi = int(np.nanmin(df[["grade", "model"]])), int(np.nanmax(df[["grade", "model"]]))
    for _, row in result.iterrows():
        if math.isnan(row["kappa"]):
            continue  # undefined kappa: the engine comparison above covers it
        part = _group_rows(df, keys, row)
        test = frames.kappa_test(
            part,
            y_true="grade",
            y_pred="model",
            weights=weights,
            min_rating=lo,
            max_rating=hi,
            sample_weight="w" if weighted else None,
            nan_policy="omit",
        )
        if weighted:
            assert row["kappa"] == pytest.approx(test.statistic, rel=1e-12, abs=1e-12)
        else:
            assert row["kappa"] == test.statistic  # exact integer arithmetic on both sides
        assert row["standard_error"] == pytest.approx(test.standard_error, rel=1e-9, abs=1e-12)
        low, high = test.confidence_interval()
        assert row["ci_low"] == pytest.approx(low, rel=1e-9, abs=1e-12)
        assert row["ci_high"] == pytest.approx(high, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("policy", ["raise", "propagate"])
def test_null_ratings_policies_match_engine(frame_library, spy, policy):
    columns = _columns(2, null_ratings=True, null_keys=True)
    # one group whose ratings are all missing: a group with n = 0
    columns["grade"] = [
        None if p == 3 else g for p, g in zip(columns["prompt"], columns["grade"], strict=True)
    ]
    options = {"y_true": "grade", "y_pred": "model", "by": ["prompt"], "nan_policy": policy}
    if policy == "raise":
        with pytest.raises(WkappaError) as fast:
            _by_group(frame_library, columns, **options)
        with pytest.raises(WkappaError) as engine:
            _reference(columns, **options)
        assert str(fast.value) == str(engine.value)
        assert "row(s) with a missing rating" in str(fast.value)
        return
    result = _by_group(frame_library, columns, **options)
    _path(frame_library, spy)
    _same_frame(result, _reference(columns, **options))
    assert result["kappa"].isna().all()  # every group has a missing rating somewhere
    assert 0 in result["n"].tolist()


def test_integer_keys_ratings_and_order(frame_library, spy):
    rng = np.random.default_rng(3)
    k = 7
    a = rng.integers(1, k + 1, N)
    b = np.clip(a + rng.integers(-2, 3, N), 1, k)
    columns = {
        "big": rng.choice([-(2**40), 5, 2**41], N).tolist(),  # too wide to subtract: factorize
        "small": rng.integers(-3, 4, N).tolist(),
        "grade": a.tolist(),
        "model": b.tolist(),
    }
    options = {"y_true": "grade", "y_pred": "model", "by": ["small", "big"]}
    result = _by_group(frame_library, columns, **options)
    _path(frame_library, spy)
    _same_frame(result, _reference(columns, **options), check_exact=True)
    assert result["small"].is_monotonic_increasing
    _same_frame(
        _by_group(frame_library, columns, **options, min_rating=0, max_rating=9),
        _reference(columns, **options, min_rating=0, max_rating=9),
        check_exact=True,
    )


def test_float_keys_with_a_missing_key(frame_library, spy):
    columns = _columns(4, null_ratings=False, null_keys=False)
    columns["prompt"][:50] = [None] * 50
    del columns["school"]
    options = {"y_true": "grade", "y_pred": "model", "by": "prompt"}
    result = _by_group(frame_library, columns, **options)
    _path(frame_library, spy)
    _same_frame(result, _reference(columns, **options), check_exact=True)
    assert pd.isna(result["prompt"].iloc[-1])


def test_pandas_nan_key_equals_polars_null_key():
    """A pandas NaN key and a polars null key are the same missing group."""
    pl = pytest.importorskip("polars")
    columns = _columns(4, null_ratings=False, null_keys=False)
    columns["prompt"][:50] = [None] * 50
    del columns["school"]
    options = {"y_true": "grade", "y_pred": "model", "by": "prompt"}
    df = pd.DataFrame(columns).astype({"prompt": "float64"})
    assert df["prompt"].isna().sum() == 50
    result = frames.kappa_by_group(df, **options)
    eager = frames.kappa_by_group(pl.DataFrame(columns), **options)
    np.testing.assert_array_equal(result["kappa"].to_numpy(), eager["kappa"].to_numpy())
    assert math.isnan(result["prompt"].iloc[-1]) and eager["prompt"][-1] is None


@pytest.mark.parametrize("kind", ["str", "enum"])
def test_string_and_categorical_ratings_fall_back_or_encode(frame_library, spy, kind):
    columns = _columns(5, null_ratings=False, null_keys=True)
    labels = ["e", "d", "c", "b", "a"]
    for name in ("grade", "model"):
        columns[name] = [labels[int(v)] for v in columns[name]]
    options = {"y_true": "grade", "y_pred": "model", "by": "school"}
    categories = {"grade": labels, "model": labels} if kind == "enum" else None
    with_labels = kind == "str" or not frame_library.ordered_categories
    df = frame_library.frame(columns, categories)
    result = frame_library.to_pandas(
        frames.kappa_by_group(df, **options, **({"labels": labels} if with_labels else {}))
    )
    # strings are counted by the engine; an ordered categorical column is numeric codes for
    # the core: the in-memory path encodes a pandas one (polars' and pyarrow's are declined)
    if frame_library.name == "pandas":
        assert spy == ([True] if kind == "enum" else [])
    elif frame_library.name not in EAGER:
        assert spy == []
    expected = _reference(columns, **options, labels=labels)
    _same_frame(result, expected, check_exact=True)
    reference = pd.DataFrame(columns)
    for _, row in result.iterrows():
        part = _group_rows(reference, ["school"], row)
        test = frames.kappa_test(part, y_true="grade", y_pred="model", labels=labels)
        assert row["kappa"] == test.statistic


def test_groups_times_table_cells_refused(frame_library, spy):
    n = 8000
    rng = np.random.default_rng(6)
    grade, model = rng.integers(0, 100, n), rng.integers(0, 100, n)
    grade[0], model[1] = 0, 99  # K = 100: 8,000 x 100 x 100 cells
    columns = {"g": list(range(n)), "grade": grade.tolist(), "model": model.tolist()}
    options = {"y_true": "grade", "y_pred": "model", "by": "g", "weights": "linear"}
    with pytest.raises(WkappaError, match=r"8,000 groups x K = 100 categories") as fast:
        _by_group(frame_library, columns, **options)
    with pytest.raises(WkappaError) as engine:
        _reference(columns, **options)
    assert str(fast.value) == str(engine.value)
    assert "Hint:" in str(fast.value)


def test_small_frame_uses_engine(frame_library, spy):
    columns = {"g": [1, 1, 2, 2], "a": [0, 1, 2, 3], "b": [0, 1, 3, 3]}
    _by_group(frame_library, columns, y_true="a", y_pred="b", by="g")
    _path(frame_library, spy, answered=False)


@pytest.mark.parametrize("weighted", [False, True])
def test_parallel_blocks_equal_engine(frame_library, spy, weighted):
    from wkappa._core.fused import PARALLEL_MIN, set_parallel

    n = PARALLEL_MIN + 999
    rng = np.random.default_rng(7)
    a = rng.integers(0, 6, n)
    columns = {
        "g": rng.integers(-5, 40, n).tolist(),
        "grade": a.tolist(),
        "model": np.clip(a + rng.integers(-1, 2, n), 0, 5).tolist(),
        "w": np.floor(10.0 * rng.random(n)).tolist(),  # frequencies: whole numbers
    }
    options = {
        "y_true": "grade",
        "y_pred": "model",
        "by": "g",
        "weights": "linear",
        "sample_weight": "w" if weighted else None,
    }
    set_parallel(True)
    try:
        result = _by_group(frame_library, columns, **options)
        set_parallel(False)
        serial_result = _by_group(frame_library, columns, **options)
    finally:
        set_parallel(None)
    if frame_library.name == "pandas":
        assert spy == ([] if weighted else [True, True])
    engine = _reference(columns, **options)
    pd.testing.assert_frame_equal(result, serial_result)
    _same_frame(result, engine, **({"rtol": 1e-12} if weighted else {"check_exact": True}))


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(1, 9),
    n_groups=st.integers(1, 60),
    null_rate=st.sampled_from([0.0, 0.01, 0.3]),
    weighted=st.booleans(),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_fast_path_equals_engine_property(
    frame_library, seed, k, n_groups, null_rate, weighted, weights
):
    rng = np.random.default_rng(seed)
    columns = {
        "g": _listed(
            rng.integers(0, n_groups, N).astype(np.float64), rng.random(N) < null_rate / 3
        ),
        "h": rng.integers(0, 2, N).tolist(),
        "grade": _listed(rng.integers(0, k, N).astype(np.float64), rng.random(N) < null_rate),
        "model": rng.integers(0, k, N).astype(np.float64).tolist(),
        "w": np.floor(10.0 * rng.random(N)).tolist(),  # frequencies: whole numbers
    }
    options = {
        "y_true": "grade",
        "y_pred": "model",
        "by": ["h", "g"],
        "weights": weights,
        "sample_weight": "w" if weighted else None,
        "nan_policy": "omit",
        "zero_division": 0.0,
    }
    fast = _by_group(frame_library, columns, **options)
    engine = _reference(columns, **options)
    _same_frame(fast, engine, **({"rtol": 1e-12} if weighted else {"check_exact": True}))


@pytest.mark.parametrize("repeat", [10, N])  # the engine path and the in-memory path
def test_nullable_integer_key_with_na_is_a_group_of_its_own(frame_library, repeat: int) -> None:
    """A nullable integer key with a null keeps its integers and its null group."""
    import wkappa

    truth = [0, 1, 2, 0, 1, 2] * repeat
    pred = [0, 1, 1, 0, 2, 2] * repeat
    keys = [1, 1, 2, 2, None, None] * repeat
    result = _by_group(
        frame_library, {"g": keys, "t": truth, "p": pred}, y_true="t", y_pred="p", by="g"
    )
    if frame_library.name == "pandas":
        assert str(result["g"].dtype) == "Int64"
    assert [None if pd.isna(v) else int(v) for v in result["g"]] == [1, 2, None]
    for key, kappa in zip([1, 2, None], result["kappa"], strict=True):
        rows = [g == key for g in keys]
        t = [v for v, keep in zip(truth, rows, strict=True) if keep]
        p = [v for v, keep in zip(pred, rows, strict=True) if keep]
        assert kappa == wkappa.qwk(t, p, min_rating=0, max_rating=2)


@pytest.mark.parametrize(
    ("case", "one_pass"),
    [
        ("plain", True),
        ("bounds", True),
        ("bool ratings", True),
        ("key beyond the sample's range", False),
        ("rating beyond the sample's range", False),
        ("rating beyond max_rating", False),
        ("huge key", False),
    ],
)
def test_one_pass_guessed_ranges_match_the_engine(frame_library, monkeypatch, case, one_pass):
    """One integer key and integer ratings: one counting pass with both ranges guessed from
    the first 65,536 rows and checked row by row. A row outside the guesses (placed after the
    sample) sends the call to the two-pass route; every case equals the engine's group-by."""
    rng = np.random.default_rng(11)
    n = 70_003
    key = rng.integers(10, 40, n)
    a = rng.integers(1, 5, n)
    b = np.clip(a + rng.integers(-1, 2, n), 1, 4)
    options = {"y_true": "grade", "y_pred": "model", "by": "prompt"}
    if case == "bounds":
        options.update(min_rating=0, max_rating=8)
    elif case == "bool ratings":
        a, b = a > 2, b > 2
    elif case == "key beyond the sample's range":
        key[-200:] = 55  # a group of its own, after the sample
    elif case == "rating beyond the sample's range":
        a[-1] = 7
    elif case == "rating beyond max_rating":
        options.update(min_rating=0, max_rating=5)
        a[-1] = 7
    elif case == "huge key":
        key = key + 2**62
    columns = {"prompt": key.tolist(), "grade": a.tolist(), "model": b.tolist()}
    answered: list[bool] = []
    real = grouped_tables._guessed_group_tables
    monkeypatch.setattr(
        grouped_tables,
        "_guessed_group_tables",
        lambda *args: answered.append(real(*args) is not None) or real(*args),
    )
    if case == "rating beyond max_rating":
        with pytest.raises(WkappaError, match="max_rating") as fast:
            _by_group(frame_library, columns, **options)
        with pytest.raises(WkappaError) as slow:
            _reference(columns, **options)
        assert str(fast.value) == str(slow.value)
    else:
        result = _by_group(frame_library, columns, **options)
        _same_frame(result, _reference(columns, **options), check_exact=True)
    if frame_library.name not in EAGER:
        assert answered == []  # the engine counts: no guessing
    elif frame_library.name == "polars":
        # a polars Boolean column is not read as a numpy view
        assert answered == [one_pass and case != "bool ratings"]
    else:
        # pandas nullable Int64 (the fixture's integer columns) and arrow columns are not
        # numpy views: the two-pass route; numpy-backed pandas columns take the one pass
        assert answered == [False]
    if frame_library.name == "pandas":
        answered.clear()
        numpy_backed = pd.DataFrame({name: np.asarray(v) for name, v in columns.items()})
        if case == "rating beyond max_rating":
            with pytest.raises(WkappaError, match="max_rating"):
                frames.kappa_by_group(numpy_backed, **options)
        else:
            _same_frame(
                frames.kappa_by_group(numpy_backed, **options),
                _reference(columns, **options),
                check_exact=True,
            )
        assert answered == [one_pass]


@pytest.mark.parametrize("cluster", [None, "c"])
def test_ordered_categorical_key_with_an_unused_category(frame_library, cluster):
    """A ``by`` column of an ordered categorical (here with a category no row has) keys the
    result on every library: a DuckDB ENUM key, whose result frame is built through Arrow
    (which has no Enum), raised narwhals' NotImplementedError."""
    columns = {
        "a": [1, 2, 3, 1, 2, 3, 1, 2, 2, 3],
        "b": [1, 2, 2, 1, 3, 3, 1, 2, 2, 3],
        "g": ["x"] * 5 + ["y"] * 5,
        "c": list(range(10)),
    }
    frame = frame_library.frame(columns, {"g": ["x", "y", "unused"]})
    options = {"y_true": "a", "y_pred": "b", "by": "g", "cluster": cluster}
    result = frame_library.to_pandas(_quiet(frames.kappa_by_group, frame, **options))
    assert [str(key) for key in result["g"]] == ["x", "y"]
    for key in ("x", "y"):
        rows = [i for i, g in enumerate(columns["g"]) if g == key]
        pairs = ([columns["a"][i] for i in rows], [columns["b"][i] for i in rows])
        expected = _quiet(wk.kappa_test, *pairs, cluster=None if cluster is None else rows)
        found = result[result["g"].astype(str) == key].iloc[0]
        assert found["kappa"] == pytest.approx(expected.statistic, abs=1e-14)
        assert found["standard_error"] == pytest.approx(expected.standard_error, abs=1e-14)
