"""kappa_by_group's in-memory path (group codes + one numba pass) against the engine path and
against ``frames.kappa_test`` of each group's rows.

The frames here have at least ``FAST_MIN`` rows, so the in-memory path really runs; a spy on
:mod:`wkappa._frames.grouped_tables` checks which path answered.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa
from wkappa import WkappaError
from wkappa._core.fused import FAST_MIN

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")
grouped_tables = pytest.importorskip("wkappa._frames.grouped_tables")  # by_group reads it here

N = max(FAST_MIN, 4000)
STATS = ["n", "kappa", "standard_error", "ci_low", "ci_high"]


@pytest.fixture
def spy(monkeypatch):
    """Record whether the in-memory path answered (True) or declined (None -> engine)."""
    calls: list[bool] = []
    real = grouped_tables.in_memory_group_tables

    def wrapped(*args, **kwargs):
        result = real(*args, **kwargs)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(grouped_tables, "in_memory_group_tables", wrapped)
    return calls


def _engine_result(df, **options):
    """The same call forced through the engine's group-by."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grouped_tables, "in_memory_group_tables", lambda *a, **k: None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return frames.kappa_by_group(df, **options)


def _frame(seed: int, *, null_ratings: bool, null_keys: bool, k: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, N)
    b = np.clip(a + rng.integers(-1, 2, N), 0, k - 1)
    true = a.astype(np.float64)
    pred = b.astype(np.float64)
    if null_ratings:
        true[rng.random(N) < 0.02] = np.nan
        pred[rng.random(N) < 0.02] = np.nan
    # (a pandas nullable Int64 key with NA fails in result_frame on either path: float here)
    prompt = rng.integers(0, 13, N).astype(np.float64)
    school = np.array(["x", "y", "z"], dtype=object)[rng.integers(0, 3, N)]
    if null_keys:
        prompt[rng.random(N) < 0.03] = np.nan
        school[rng.random(N) < 0.03] = None
    weight = rng.gamma(2.0, 1.0, N)
    weight[rng.random(N) < 0.05] = 0.0
    return pd.DataFrame(
        {"prompt": prompt, "school": school, "grade": true, "model": pred, "w": weight}
    )


def _group_rows(df: pd.DataFrame, keys: list[str], row: pd.Series) -> pd.DataFrame:
    mask = np.ones(len(df), dtype=bool)
    for key in keys:
        value = row[key]
        column = df[key]
        mask &= column.isna().to_numpy() if pd.isna(value) else (column == value).fillna(False)
    return df[mask]


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("null_ratings", [False, True])
def test_fast_path_equals_kappa_test_of_each_group(spy, weights, weighted, null_ratings):
    df = _frame(1, null_ratings=null_ratings, null_keys=True)
    keys = ["prompt", "school"]
    options = {
        "y_true": "grade",
        "y_pred": "model",
        "by": keys,
        "weights": weights,
        "sample_weight": "w" if weighted else None,
        "nan_policy": "omit",
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a tiny (null, null) group may have no kappa
        result = frames.kappa_by_group(df, **options)
    assert spy == [True]
    engine = _engine_result(df, **options)
    pd.testing.assert_frame_equal(result[keys], engine[keys])
    np.testing.assert_allclose(result[STATS].to_numpy(), engine[STATS].to_numpy(), rtol=1e-12)
    assert len(result) == df.groupby(keys, dropna=False).ngroups
    assert result["prompt"].isna().to_numpy()[-1] and result["school"].isna().any()
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
def test_null_ratings_policies_match_engine(spy, policy):
    df = _frame(2, null_ratings=True, null_keys=True)
    # one group whose ratings are all missing: a group with n = 0
    df.loc[df["prompt"] == 3, "grade"] = np.nan
    options = {"y_true": "grade", "y_pred": "model", "by": ["prompt"], "nan_policy": policy}
    if policy == "raise":
        with pytest.raises(WkappaError) as fast:
            frames.kappa_by_group(df, **options)
        with pytest.raises(WkappaError) as engine:
            _engine_result(df, **options)
        assert str(fast.value) == str(engine.value)
        assert "row(s) with a missing rating" in str(fast.value)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = frames.kappa_by_group(df, **options)
    assert spy == [True]
    engine = _engine_result(df, **options)
    pd.testing.assert_frame_equal(result, engine)
    assert result["kappa"].isna().all()  # every group has a missing rating somewhere
    assert 0 in result["n"].tolist()


def test_integer_keys_ratings_and_order(spy):
    rng = np.random.default_rng(3)
    k = 7
    a = rng.integers(1, k + 1, N).astype(np.int32)
    b = np.clip(a + rng.integers(-2, 3, N), 1, k).astype(np.int32)
    df = pd.DataFrame(
        {
            "big": rng.choice([-(2**40), 5, 2**41], N),  # range too wide to subtract: factorize
            "small": rng.integers(-3, 4, N).astype(np.int16),
            "grade": a,
            "model": b,
        }
    )
    options = {"y_true": "grade", "y_pred": "model", "by": ["small", "big"]}
    result = frames.kappa_by_group(df, **options)
    assert spy == [True]
    pd.testing.assert_frame_equal(result, _engine_result(df, **options))
    assert result["small"].is_monotonic_increasing
    pd.testing.assert_frame_equal(
        frames.kappa_by_group(df, **options, min_rating=0, max_rating=9),
        _engine_result(df, **options, min_rating=0, max_rating=9),
    )


def test_polars_eager_float_keys_and_nan_key(spy):
    df = _frame(4, null_ratings=False, null_keys=False)
    key = df["prompt"].to_numpy(dtype=np.float64, copy=True)
    key[:50] = np.nan
    df["prompt"] = key
    options = {"y_true": "grade", "y_pred": "model", "by": "prompt"}
    result = frames.kappa_by_group(df, **options)
    pd.testing.assert_frame_equal(result, _engine_result(df, **options))
    assert math.isnan(result["prompt"].iloc[-1])
    eager = pl.from_pandas(df.drop(columns="school"))
    eager_result = frames.kappa_by_group(eager, **options)
    assert spy[0] is True  # pandas float key: factorized
    lazy = frames.kappa_by_group(eager.lazy(), **options).collect()
    np.testing.assert_allclose(eager_result["kappa"].to_numpy(), lazy["kappa"].to_numpy())


@pytest.mark.parametrize("kind", ["str", "categorical", "enum"])
def test_string_and_categorical_ratings_fall_back_or_encode(spy, kind):
    df = _frame(5, null_ratings=False, null_keys=True)
    names = np.array(["e", "d", "c", "b", "a"], dtype=object)
    labels = ["e", "d", "c", "b", "a"]
    grade = names[df["grade"].to_numpy().astype(int)]
    model = names[df["model"].to_numpy().astype(int)]
    options = {"y_true": "grade", "y_pred": "model", "by": "school"}
    if kind == "str":
        df["grade"], df["model"] = grade, model
        options["labels"] = labels
    else:
        dtype = pd.CategoricalDtype(labels, ordered=kind == "enum")
        df["grade"] = pd.Categorical(grade, dtype=dtype)
        df["model"] = pd.Categorical(model, dtype=dtype)
        if kind == "categorical":
            options["labels"] = labels
    result = frames.kappa_by_group(df, **options)
    # strings and unordered categoricals are counted by the engine; an ordered categorical
    # column is numeric codes for the core: the in-memory path encodes it
    assert spy == ([True] if kind == "enum" else [])
    pd.testing.assert_frame_equal(result, _engine_result(df, **options))
    for _, row in result.iterrows():
        part = _group_rows(df, ["school"], row)
        test = frames.kappa_test(part, y_true="grade", y_pred="model", labels=labels)
        assert row["kappa"] == test.statistic


def test_groups_times_table_cells_refused(spy):
    n = 8000
    rng = np.random.default_rng(6)
    df = pd.DataFrame(
        {
            "g": np.arange(n),
            "grade": rng.integers(0, 100, n),
            "model": rng.integers(0, 100, n),
        }
    )
    df.loc[0, "grade"], df.loc[1, "model"] = 0, 99  # K = 100: 8,000 x 100 x 100 cells
    options = {"y_true": "grade", "y_pred": "model", "by": "g", "weights": "linear"}
    with pytest.raises(WkappaError, match=r"8,000 groups x K = 100 categories") as fast:
        frames.kappa_by_group(df, **options)
    with pytest.raises(WkappaError) as engine:
        _engine_result(df, **options)
    assert str(fast.value) == str(engine.value)
    assert "Hint:" in str(fast.value)


def test_small_frame_uses_engine(spy):
    df = pd.DataFrame({"g": [1, 1, 2, 2], "a": [0, 1, 2, 3], "b": [0, 1, 3, 3]})
    frames.kappa_by_group(df, y_true="a", y_pred="b", by="g")
    assert spy == [False]


@pytest.mark.parametrize("weighted", [False, True])
def test_parallel_blocks_equal_engine(spy, weighted):
    from wkappa._core.fused import PARALLEL_MIN, set_parallel

    n = PARALLEL_MIN + 999
    rng = np.random.default_rng(7)
    a = rng.integers(0, 6, n)
    df = pd.DataFrame(
        {
            "g": rng.integers(-5, 40, n),
            "grade": a,
            "model": np.clip(a + rng.integers(-1, 2, n), 0, 5),
            "w": rng.random(n),
        }
    )
    options = {
        "y_true": "grade",
        "y_pred": "model",
        "by": "g",
        "weights": "linear",
        "sample_weight": "w" if weighted else None,
    }
    set_parallel(True)
    try:
        result = frames.kappa_by_group(df, **options)
        set_parallel(False)
        serial_result = frames.kappa_by_group(df, **options)
    finally:
        set_parallel(None)
    assert spy == [True, True]
    engine = _engine_result(df, **options)
    pd.testing.assert_frame_equal(result, serial_result)
    if weighted:
        pd.testing.assert_frame_equal(result, engine, rtol=1e-12)
    else:
        pd.testing.assert_frame_equal(result, engine, check_exact=True)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(1, 9),
    n_groups=st.integers(1, 60),
    null_rate=st.sampled_from([0.0, 0.01, 0.3]),
    weighted=st.booleans(),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_fast_path_equals_engine_property(seed, k, n_groups, null_rate, weighted, weights):
    rng = np.random.default_rng(seed)
    grade = rng.integers(0, k, N).astype(np.float64)
    model = rng.integers(0, k, N).astype(np.float64)
    grade[rng.random(N) < null_rate] = np.nan
    key = rng.integers(0, n_groups, N).astype(np.float64)
    key[rng.random(N) < null_rate / 3] = np.nan
    df = pd.DataFrame(
        {"g": key, "h": rng.integers(0, 2, N), "grade": grade, "model": model, "w": rng.random(N)}
    )
    options = {
        "y_true": "grade",
        "y_pred": "model",
        "by": ["h", "g"],
        "weights": weights,
        "sample_weight": "w" if weighted else None,
        "nan_policy": "omit",
        "zero_division": 0.0,
    }
    fast = frames.kappa_by_group(df, **options)
    engine = _engine_result(df, **options)
    pd.testing.assert_frame_equal(fast, engine, rtol=1e-12, check_exact=not weighted)


@pytest.mark.parametrize("repeat", [10, N])  # the engine path and the in-memory path
def test_nullable_integer_key_with_na_is_a_group_of_its_own(repeat: int) -> None:
    """A pandas nullable Int64 key with NA keeps its dtype and its null group."""
    truth = [0, 1, 2, 0, 1, 2] * repeat
    pred = [0, 1, 1, 0, 2, 2] * repeat
    keys = pd.array([1, 1, 2, 2, None, None] * repeat, dtype="Int64")
    frame = pd.DataFrame({"g": keys, "t": truth, "p": pred})
    result = frames.kappa_by_group(frame, y_true="t", y_pred="p", by="g")
    assert str(result["g"].dtype) == "Int64"
    assert result["g"].isna().tolist() == [False, False, True]
    for key, kappa in zip(result["g"], result["kappa"], strict=True):
        rows = frame["g"].isna() if key is pd.NA else frame["g"] == key
        rows = rows.fillna(False).to_numpy(dtype=bool)
        expected = wkappa.qwk(frame["t"][rows], frame["p"][rows], min_rating=0, max_rating=2)
        assert kappa == expected


@pytest.mark.parametrize("engine", ["pandas", "polars"])
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
def test_one_pass_guessed_ranges_match_the_engine(monkeypatch, engine, case, one_pass):
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
    data = {"prompt": key, "grade": a, "model": b}
    df = pd.DataFrame(data) if engine == "pandas" else pl.DataFrame(data)
    answered: list[bool] = []
    from wkappa._frames import grouped_tables as module

    real = module._guessed_group_tables
    monkeypatch.setattr(
        module,
        "_guessed_group_tables",
        lambda *args: answered.append(real(*args) is not None) or real(*args),
    )
    if case == "rating beyond max_rating":
        with pytest.raises(WkappaError, match="max_rating") as fast:
            frames.kappa_by_group(df, **options)
        with pytest.raises(WkappaError) as slow:
            _engine_result(df, **options)
        assert str(fast.value) == str(slow.value)
    else:
        result = frames.kappa_by_group(df, **options)
        expected = _engine_result(df, **options)
        if engine == "polars":
            result, expected = result.to_pandas(), expected.to_pandas()
        pd.testing.assert_frame_equal(result, expected, check_exact=True)
    if engine == "polars" and case == "bool ratings":
        one_pass = False  # a polars Boolean column is not read as a numpy view
    assert answered == [one_pass]
