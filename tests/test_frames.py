"""wkappa.frames on every frame library against the numpy result on the same data.

Libraries (the ``frame_library`` fixture of conftest.py): pandas, polars (eager, lazy, and
scan_parquet / scan_csv of real files), pyarrow Table, DuckDB relations, Dask and Spark
DataFrames. Data include nulls, string labels and ordered categoricals (pandas ordered
Categorical, polars Enum, pyarrow ordered dictionary, DuckDB ENUM).
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wkappa as wk
from frames_data import Case, frame_library, make_case
from reference import reference_kappa
from wkappa import WkappaError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")

KINDS = ["int", "str", "enum"]
PANDAS = frame_library("pandas")
POLARS = frame_library("polars")


def numpy_kwargs(case: Case) -> dict:
    return {} if case.labels is None else {"labels": case.labels}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
def test_weighted_kappa_matches_numpy(frame_library, kind, weights):
    case = make_case(kind, seed=len(frame_library.name) + len(kind))
    df = frame_library.case(case)
    expected = wk.weighted_kappa(
        case.true, case.pred, weights=weights, nan_policy="omit", **numpy_kwargs(case)
    )
    got = frames.weighted_kappa(
        df, y_true="a", y_pred="b", weights=weights, nan_policy="omit", **frame_library.labels(case)
    )
    assert got == expected
    with pytest.raises(WkappaError, match="missing rating"):
        frames.weighted_kappa(df, y_true="a", y_pred="b", **frame_library.labels(case))
    assert math.isnan(
        frames.weighted_kappa(
            df, y_true="a", y_pred="b", nan_policy="propagate", **frame_library.labels(case)
        )
    )


@pytest.mark.parametrize("kind", KINDS)
def test_confusion_table_and_sample_weights_match_numpy(frame_library, kind):
    case = make_case(kind, seed=7)
    df = frame_library.case(case)
    table = frames.confusion_table(
        df, y_true="a", y_pred="b", nan_policy="omit", **frame_library.labels(case)
    )
    expected = wk.confusion_table(case.true, case.pred, nan_policy="omit", **numpy_kwargs(case))
    assert table.dtype == np.int64
    assert np.array_equal(table, expected)
    weighted = frames.confusion_table(
        df,
        y_true="a",
        y_pred="b",
        sample_weight="w",
        nan_policy="omit",
        **frame_library.labels(case),
    )
    expected_w = wk.confusion_table(
        case.true, case.pred, sample_weight=case.weight, nan_policy="omit", **numpy_kwargs(case)
    )
    assert weighted.dtype == np.float64
    assert np.array_equal(weighted, expected_w)  # dyadic weights: exact
    kappa = frames.weighted_kappa(
        df, y_true="a", y_pred="b", weights="linear", sample_weight="w", nan_policy="omit",
        **frame_library.labels(case),
    )  # fmt: skip
    assert kappa == pytest.approx(
        wk.weighted_kappa(
            case.true,
            case.pred,
            weights="linear",
            sample_weight=case.weight,
            nan_policy="omit",
            **numpy_kwargs(case),
        ),
        rel=1e-13,
    )


def test_kappa_test_matches_numpy(frame_library):
    case = make_case("int", seed=3)
    df = frame_library.case(case)
    result = frames.kappa_test(df, y_true="a", y_pred="b", weights="linear", nan_policy="omit")
    expected = wk.kappa_test(case.true, case.pred, weights="linear", nan_policy="omit")
    assert result.statistic == expected.statistic
    assert result.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
    assert result.labels == expected.labels == (1, 2, 3, 4)
    assert np.array_equal(result.table, expected.table)


@pytest.mark.parametrize("kind", ["int", "enum"])
def test_kappa_by_group_matches_numpy_per_group(frame_library, kind):
    case = make_case(kind, seed=11)
    df = frame_library.case(case)
    out = frames.kappa_by_group(
        df, y_true="a", y_pred="b", by="g", nan_policy="omit", **frame_library.labels(case)
    )
    native = frame_library.to_pandas(out)
    assert list(native.columns) == [
        "g", "n", "kappa", "standard_error", "ci_low", "ci_high", "test_statistic", "pvalue",
    ]  # fmt: skip
    assert native["g"].tolist() == sorted(set(case.group))
    for row in native.itertuples():
        idx = [i for i, g in enumerate(case.group) if g == row.g]
        true = [case.true[i] for i in idx]
        pred = [case.pred[i] for i in idx]
        expected = wk.kappa_test(true, pred, nan_policy="omit", **numpy_kwargs(case))
        assert row.n == expected.n
        assert row.kappa == expected.statistic  # exact integer formula, as the core
        assert row.standard_error == pytest.approx(expected.standard_error, rel=1e-9)
        low, high = expected.confidence_interval(0.95)
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high), rel=1e-9)
        assert row.test_statistic == pytest.approx(expected.test_statistic, rel=1e-9)
        assert row.pvalue == pytest.approx(expected.pvalue, rel=1e-7)


@pytest.mark.parametrize("weights", ["linear", "unweighted", "custom"])
@pytest.mark.parametrize("weighted", [False, True])
def test_kappa_by_group_equals_kappa_test_of_each_group_table(weights, weighted):
    case = make_case("int", seed=5)
    # Standard errors read sample weights as frequencies: whole-number weights (float64)
    case.weight = [4.0 * w for w in case.weight]
    matrix = np.sqrt(np.abs(np.subtract.outer(np.arange(4), np.arange(4))))
    chosen = matrix if weights == "custom" else weights
    extra = {"sample_weight": "w"} if weighted else {}
    out = frames.kappa_by_group(
        POLARS.case(case), y_true="a", y_pred="b", by="g", weights=chosen, nan_policy="omit",
        confidence_level=0.9, **extra,
    )  # fmt: skip
    for row in out.iter_rows(named=True):
        idx = [i for i, g in enumerate(case.group) if g == row["g"]]
        table = wk.confusion_table(
            [case.true[i] for i in idx],
            [case.pred[i] for i in idx],
            sample_weight=[case.weight[i] for i in idx] if weighted else None,
            nan_policy="omit",
            min_rating=1,
            max_rating=4,
        )
        expected = wk.kappa_test_from_table(table, weights=chosen)
        assert row["n"] == expected.n
        assert row["kappa"] == pytest.approx(expected.statistic, rel=1e-12)
        assert row["standard_error"] == pytest.approx(expected.standard_error, rel=1e-9)
        low, high = expected.confidence_interval(0.9)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), rel=1e-9)


def test_mean_kappa_one_liner_over_groups():
    if not hasattr(wk, "mean_kappa"):
        pytest.skip("wk.mean_kappa (inference issue) has not landed")
    case = make_case("int", seed=4)
    out = frames.kappa_by_group(
        POLARS.case(case), y_true="a", y_pred="b", by="g", nan_policy="omit"
    )
    fisher = math.tanh(float(np.mean(np.arctanh(out["kappa"].to_numpy()))))
    assert wk.mean_kappa(out["kappa"]) == pytest.approx(fisher, rel=1e-12)


def test_kappa_by_group_several_keys_propagate_and_undefined_groups():
    df = pd.DataFrame(
        {
            "site": ["x", "x", "x", "y", "y", "y", "y", "z", "z"],
            "arm": [1, 1, 1, 1, 1, 2, 2, 1, 1],
            "a": [1, 2, 3, 1, 2.0, 2, 2, 1, None],
            "b": [1, 2, 2, 1, 3.0, 2, 2, 2, 1],
        }
    )
    with pytest.warns(wk.UndefinedKappaWarning, match="1 of 4 group"):
        out = frames.kappa_by_group(
            df, y_true="a", y_pred="b", by=["site", "arm"], nan_policy="propagate"
        )
    assert out[["site", "arm"]].values.tolist() == [["x", 1], ["y", 1], ["y", 2], ["z", 1]]
    assert out["kappa"].iloc[0] == wk.qwk([1, 2, 3], [1, 2, 2])
    assert math.isnan(out["kappa"].iloc[2])  # both raters say 2: undefined
    assert math.isnan(out["kappa"].iloc[3])  # a missing rating, propagated
    assert out["n"].tolist() == [3, 2, 2, 1]  # n counts complete pairs
    # Site z keeps one pair (1, 2): kappa 0 with a standard error of 0, so no interval.
    with (
        pytest.warns(wk.UndefinedKappaWarning, match="interval is undefined in 1 of 4 groups"),
        pytest.warns(wk.UndefinedKappaWarning, match="test of kappa = 0 is undefined in 1 of 4"),
    ):
        filled = frames.kappa_by_group(
            df, y_true="a", y_pred="b", by=["site", "arm"], nan_policy="omit", zero_division=0.0
        )
    assert math.isnan(filled["ci_low"].iloc[3])
    assert filled["kappa"].iloc[2] == 0.0 and filled["n"].iloc[3] == 1
    with pytest.raises(WkappaError, match="undefined in the group"):
        frames.kappa_by_group(
            df, y_true="a", y_pred="b", by=["site", "arm"], nan_policy="omit", zero_division="raise"
        )


def test_scan_parquet_and_scan_csv_of_real_files(tmp_path):
    case = make_case("int", n=2000, seed=21)
    path = tmp_path / "ratings.parquet"
    POLARS.case(case).write_parquet(path)
    csv = tmp_path / "ratings.csv"
    POLARS.case(case).write_csv(csv)
    expected = wk.qwk(case.true, case.pred, nan_policy="omit")
    for lazy in (pl.scan_parquet(path), pl.scan_csv(csv)):
        assert isinstance(lazy, pl.LazyFrame)
        assert frames.weighted_kappa(lazy, y_true="a", y_pred="b", nan_policy="omit") == expected
        groups = frames.kappa_by_group(lazy, y_true="a", y_pred="b", by="g", nan_policy="omit")
        assert groups.collect().height == len(set(case.group))


def test_lazy_counts_inside_the_engine(monkeypatch):
    """polars lazy: the query the engine runs is a group-by; no row-level data is collected."""
    case = make_case("int", seed=2, missing=False)
    lazy = POLARS.case(case).lazy()
    counted = []
    real_collect = pl.LazyFrame.collect

    def spy(self, *args, **kwargs):
        out = real_collect(self, *args, **kwargs)
        counted.append(out.height)
        return out

    monkeypatch.setattr(pl.LazyFrame, "collect", spy)
    frames.weighted_kappa(lazy, y_true="a", y_pred="b")
    assert counted and max(counted) <= 16  # at most K*K = 16 distinct pairs, not 400 rows


def test_pandas_nullable_and_float_nan_and_eager_core_path():
    df = pd.DataFrame(
        {"a": [1.0, 2.0, np.nan, 3.0], "b": pd.array([1, 2, 2, pd.NA], dtype="Int64")}
    )
    assert frames.weighted_kappa(df, y_true="a", y_pred="b", nan_policy="omit") == wk.qwk(
        [1, 2], [1, 2]
    )
    with pytest.raises(WkappaError, match="position 2"):  # eager numeric: the core's message
        frames.weighted_kappa(df, y_true="a", y_pred="b")


def test_strings_need_labels_for_weighted_kappa_but_not_unweighted():
    df = pl.DataFrame({"a": ["x", "y", "y", "z"], "b": ["x", "y", "z", "z"]})
    with pytest.raises(WkappaError, match="labels="):
        frames.weighted_kappa(df, y_true="a", y_pred="b")
    assert frames.weighted_kappa(df, y_true="a", y_pred="b", weights="unweighted") == (
        wk.weighted_kappa(["x", "y", "y", "z"], ["x", "y", "z", "z"], weights="unweighted")
    )
    with pytest.raises(WkappaError, match="'z', which is not in `labels`"):
        frames.weighted_kappa(df.lazy(), y_true="a", y_pred="b", labels=["x", "y", "q"])


def test_categoricals_of_different_orders_follow_the_array_rule(frame_library):
    """Two ordered categoricals with different category orders: with weights the order
    matters, so every entry point refuses them naming both orders; unweighted, the order does
    not matter and every entry point answers as wk.weighted_kappa does on the same columns."""
    true, pred = ["lo", "hi", "hi", "lo", "hi"], ["lo", "hi", "lo", "lo", "hi"]
    orders = {"a": ["lo", "hi"], "b": ["hi", "lo"]}
    df = frame_library.frame({"a": true, "b": pred}, orders)
    series = [pl.Series(v, dtype=pl.Enum(orders[name])) for name, v in (("a", true), ("b", pred))]
    expected = wk.weighted_kappa(*series, weights="unweighted")
    assert expected == wk.weighted_kappa(true, pred, weights="unweighted")
    assert frames.weighted_kappa(df, y_true="a", y_pred="b", weights="unweighted") == expected
    result = frames.kappa_test(df, y_true="a", y_pred="b", weights="unweighted")
    assert result.statistic == expected
    if not frame_library.ordered_categories:  # Spark: plain strings, no order to disagree
        return
    with pytest.raises(WkappaError, match="different categories") as array_error:
        wk.weighted_kappa(*series)
    for call in (frames.weighted_kappa, frames.kappa_test, frames.confusion_table):
        with pytest.raises(WkappaError, match="different categories") as frame_error:
            call(df, y_true="a", y_pred="b")
        assert str(frame_error.value) == str(array_error.value)
    with pytest.raises(WkappaError, match=r"\('lo', 'hi'\) vs \('hi', 'lo'\)"):
        frames.kappa_by_group(
            frame_library.frame({"a": true, "b": pred, "g": [1] * 5}, orders),
            y_true="a",
            y_pred="b",
            by="g",
        )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"y_true": "nope", "y_pred": "b"}, WkappaError, "`y_true` names the column 'nope'"),
        ({"y_true": "a", "y_pred": 3}, TypeError, "`y_pred` must be a column name"),
        ({"y_true": "a", "y_pred": "b", "sample_weight": "g"}, WkappaError, "must be numeric"),
        ({"y_true": "a", "y_pred": "b", "weights": "quadratc"}, WkappaError, "`weights`"),
        ({"y_true": "a", "y_pred": "b", "nan_policy": "drop"}, WkappaError, "`nan_policy`"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    df = PANDAS.case(make_case("int", n=20, missing=False))
    with pytest.raises(error, match=match):
        frames.weighted_kappa(df, **kwargs)


def test_bad_frames_and_by():
    with pytest.raises(TypeError, match="`df` must be a data frame"):
        frames.weighted_kappa({"a": [1]}, y_true="a", y_pred="a")
    df = PANDAS.case(make_case("int", n=20, missing=False))
    with pytest.raises(TypeError, match="`by` must be"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by=[])
    with pytest.raises(
        WkappaError, match="`by` names the `y_true` column 'a'; give a column of its own"
    ):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by="a")
    with pytest.raises(WkappaError, match="no rows"):
        frames.weighted_kappa(
            pl.DataFrame({"a": ["x"], "b": ["x"]}).clear().lazy(), y_true="a", y_pred="b"
        )


def test_bad_sample_weights_are_refused_in_the_engine():
    df = pl.DataFrame({"a": [1, 2, 3], "b": [1, 2, 2], "w": [1.0, -1.0, 1.0]}).lazy()
    with pytest.raises(WkappaError, match="non-negative"):
        frames.weighted_kappa(df, y_true="a", y_pred="b", sample_weight="w")
    df = pl.DataFrame({"a": [1, 2, 3], "b": [1, 2, 2], "w": [1.0, None, 1.0]}).lazy()
    with pytest.raises(WkappaError, match="no missing values"):
        frames.weighted_kappa(df, y_true="a", y_pred="b", sample_weight="w")
    df = pl.DataFrame({"a": [1, 2, 3], "b": [1, 2, 2], "w": [1.0, float("inf"), 1.0]}).lazy()
    with pytest.raises(WkappaError, match="finite"):
        frames.weighted_kappa(df, y_true="a", y_pred="b", sample_weight="w")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(-2, 3)), st.one_of(st.none(), st.integers(-2, 3))
        ),
        min_size=1,
        max_size=30,
    ),
    st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_property_frames_equal_the_exact_reference(frame_library, pairs, weights):
    # The fixture only builds frames: the same for every example.
    true = [p[0] for p in pairs]
    pred = [p[1] for p in pairs]
    df = frame_library.frame({"a": true, "b": pred}, dtypes={"a": "int64", "b": "int64"})
    kept = [(a, b) for a, b in pairs if a is not None and b is not None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wk.UndefinedKappaWarning)
        if not kept:
            got = frames.weighted_kappa(
                df, y_true="a", y_pred="b", weights=weights, nan_policy="omit"
            )
            assert math.isnan(got)
            return
        got = frames.weighted_kappa(df, y_true="a", y_pred="b", weights=weights, nan_policy="omit")
    lo = min(min(a, b) for a, b in kept)
    hi = max(max(a, b) for a, b in kept)
    exact = reference_kappa(
        [a - lo for a, _ in kept], [b - lo for _, b in kept], hi - lo + 1, weights
    )
    if exact is None:
        assert math.isnan(got)
    else:
        assert got == pytest.approx(float(exact), rel=1e-12, abs=1e-12)


def test_import_wkappa_does_not_import_frames_engines():
    code = (
        "import sys, wkappa; "
        "names = ('narwhals', 'polars', 'pandas', 'pyarrow', 'dask', 'pyspark', 'duckdb'); "
        "print([m for m in names if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_confusion_table_of_strings_needs_labels_like_the_core():
    df = pl.DataFrame({"a": ["x", "y"], "b": ["y", "y"]})
    with pytest.raises(WkappaError, match="labels="):
        frames.confusion_table(df, y_true="a", y_pred="b")
    with pytest.raises(WkappaError, match="labels="):
        wk.confusion_table(["x", "y"], ["y", "y"])
    table = frames.confusion_table(df.lazy(), y_true="a", y_pred="b", labels=["y", "x"])
    assert table.tolist() == [[1, 0], [1, 0]]


def test_kappa_by_group_keeps_key_types_and_null_keys(frame_library):
    import datetime

    keys = [datetime.date(2020, 1, 1), datetime.date(2020, 1, 2), None] * 4
    case = make_case("int", n=12, seed=1, missing=False)
    case.group = ["x", "y", None] * 4
    df = frame_library.case(case)
    out = frame_library.to_pandas(frames.kappa_by_group(df, y_true="a", y_pred="b", by="g"))
    assert out["g"].tolist()[:2] == ["x", "y"] and pd.isna(out["g"].iloc[2])
    assert out["n"].tolist() == [4, 4, 4]
    if frame_library.name == "pandas":
        dated = pd.DataFrame({"d": keys, "a": case.true, "b": case.pred})
        by_date = frames.kappa_by_group(dated, y_true="a", y_pred="b", by="d")
        assert by_date["d"].tolist()[:2] == keys[:2]


@pytest.mark.integration  # a fresh interpreter
def test_missing_frames_extra_names_the_install_command():
    code = (
        "import sys; sys.modules['narwhals'] = None; import pandas as pd; "
        "from wkappa import frames\n"
        "try:\n"
        "    frames.weighted_kappa(pd.DataFrame({'a': [1]}), y_true='a', y_pred='a')\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'wkappa[frames]'" in out.stdout


def test_kappa_by_group_names_cluster_in_its_errors():
    df = PANDAS.case(make_case("int", n=40, missing=False))
    with pytest.raises(WkappaError, match="`cluster` names the column 'no_such_column'"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by="g", cluster="no_such_column")
    with pytest.raises(WkappaError, match="`cluster` names the `y_true` column 'a'; give a column"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by="g", cluster="a")
    # the same words as frames.agreement (they had two rules)
    with pytest.raises(WkappaError, match="`by` and `cluster` name the same column 'g'; give two"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by="g", cluster="g")
    with pytest.raises(WkappaError, match="`by` names the column 'g' twice; give it once"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by=["g", "g"])  # a raw ValueError
    with pytest.raises(WkappaError, match="`cluster` must be a column name; got 3"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by="g", cluster=3)


@pytest.mark.parametrize("library", [PANDAS, POLARS])
def test_a_long_layout_frame_given_to_the_wide_api_points_to_frames(library):
    """wk.agreement / wk.rater_vs_panel read one column per rater: a frame with item, rater
    and rating columns is refused with the frames call that reads it, even when every column
    is numeric (it would otherwise be three 'raters')."""
    long = {"item": [1, 1, 2, 2, 3, 3], "coder": [1, 2, 1, 2, 1, 2], "Score": [1, 2, 2, 2, 3, 3]}
    df = library.frame(long)
    hint = r"wkappa\.frames\.agreement\(df, item='item', rater='coder', rating='Score'\)"
    with pytest.raises(WkappaError, match=r"looks like the long layout.*" + hint):
        wk.agreement(df)
    with pytest.raises(WkappaError, match=r"frames\.rater_vs_panel\(df, candidate=\.\.\., item="):
        wk.rater_vs_panel(df, [1, 2, 3, 1, 2, 3])
    expected = frames.agreement(df, item="item", rater="coder", rating="Score")
    assert expected.n_items == 3
    wide = library.frame({"item": [1, 2, 3], "r1": [1, 2, 3], "r2": [2, 2, 3]})
    assert wk.agreement(wide).n_raters == 3  # an item column alone is not the long layout


@pytest.mark.parametrize("kind", KINDS)
def test_sample_weighted_qwk_is_the_arrays_to_the_last_bit(frame_library, kind):
    """Quadratic kappa with sample weights takes the route of the arrays (the weighted table,
    not the five sums, while K x K cells are affordable): with weights whose sums are exact
    (quarters here) the frame and the arrays give the same float, as the docs promise."""
    for seed in (3, 11):
        case = make_case(kind, seed=seed)
        df = frame_library.case(case)
        got = frames.weighted_kappa(
            df, y_true="a", y_pred="b", sample_weight="w", nan_policy="omit",
            **frame_library.labels(case),
        )  # fmt: skip
        expected = wk.weighted_kappa(
            case.true, case.pred, sample_weight=case.weight, nan_policy="omit",
            **numpy_kwargs(case),
        )  # fmt: skip
        assert got == expected


def test_a_boolean_sample_weight_is_a_mask(frame_library):
    """A True/False ``sample_weight`` column weighs its pairs 1 and 0, as a boolean array does
    in the array functions."""
    case = make_case("int", seed=5, missing=False)
    mask = [i % 3 != 0 for i in range(len(case.true))]
    df = frame_library.frame({"a": case.true, "b": case.pred, "m": mask, "g": case.group})
    pair = {"y_true": "a", "y_pred": "b", "sample_weight": "m"}
    arrays = (case.true, case.pred)
    assert frames.weighted_kappa(df, **pair) == wk.weighted_kappa(*arrays, sample_weight=mask)
    table = frames.confusion_table(df, **pair)
    assert np.array_equal(table, wk.confusion_table(*arrays, sample_weight=mask))
    result = frames.kappa_test(df, **pair)
    expected = wk.kappa_test(*arrays, sample_weight=mask)
    assert (result.statistic, result.standard_error) == (
        expected.statistic,
        expected.standard_error,
    )
    kept = np.array(mask)
    unmasked = wk.weighted_kappa(np.array(case.true)[kept], np.array(case.pred)[kept])
    assert frames.weighted_kappa(df, **pair) == unmasked


@pytest.mark.parametrize("method", ["asymptotic", "score", "fisher-z"])
@pytest.mark.parametrize(
    ("alternative", "kappa0"), [("greater", 0.6), ("less", 0.95), ("two-sided", 0.3)]
)
def test_kappa_by_group_tests_each_group_as_kappa_test(method, alternative, kappa0):
    """Each group's interval follows ``alternative`` (one-sided limits, as
    KappaResult.confidence_interval) and its test of ``kappa0`` is kappa_test's, bit for bit."""
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 5, 400)
    model = np.clip(truth + rng.integers(-1, 2, 400), 0, 4)
    df = pd.DataFrame({"site": rng.integers(0, 4, 400), "a": truth, "b": model})
    out = frames.kappa_by_group(
        df, y_true="a", y_pred="b", by="site", alternative=alternative, kappa0=kappa0,
        method=method, confidence_level=0.9,
    )  # fmt: skip
    for row in out.itertuples():
        part = df[df.site == row.site]
        direct = wk.kappa_test(part.a, part.b, alternative=alternative, kappa0=kappa0)
        ci = direct.confidence_interval(0.9, method=method)
        assert (row.test_statistic, row.pvalue) == (direct.test_statistic, direct.pvalue)
        assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-12)
    if alternative == "greater":
        assert (out["ci_high"] == 1.0).all()
    elif alternative == "less":
        assert np.isneginf(out["ci_low"]).all()
    with pytest.raises(WkappaError, match=r"above 0\.5 for a one-sided interval"):
        frames.kappa_by_group(
            df, y_true="a", y_pred="b", by="site", alternative="greater", confidence_level=0.4
        )
    with pytest.raises(WkappaError, match="kappa0"):
        frames.kappa_by_group(df, y_true="a", y_pred="b", by="site", kappa0=1.5)


@pytest.mark.parametrize("alternative", ["greater", "less"])
@pytest.mark.parametrize("method", ["asymptotic", "fisher-z"])
def test_kappa_by_group_one_sided_interval_of_a_zero_standard_error_is_nan(method, alternative):
    """A group with a standard error of 0 below kappa 1 has no interval, one-sided too (as
    KappaResult.confidence_interval), not ``(kappa, 1)``."""
    df = pd.DataFrame({"t": [1, 1, 1, 1, 2, 2, 1, 3], "p": [2, 2, 2, 1, 3, 3, 1, 3]})
    df["g"] = list("aaaabbbb")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wk.UndefinedKappaWarning)
        out = frames.kappa_by_group(
            df, y_true="t", y_pred="p", by="g", alternative=alternative, method=method
        )
        direct = wk.kappa_test([1, 1, 1, 1], [2, 2, 2, 1], alternative=alternative)
        alone = direct.confidence_interval(method=method)
    assert math.isnan(alone.low) and math.isnan(alone.high)
    assert math.isnan(out["ci_low"].iloc[0]) and math.isnan(out["ci_high"].iloc[0])
    assert not math.isnan(out["ci_low"].iloc[1] + out["ci_high"].iloc[1])
