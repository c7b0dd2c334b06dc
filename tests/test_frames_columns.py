"""Column names in wkappa.frames on every frame library: a name the frame lacks is an error
naming the parameter, the column and the names spelled alike (case, surrounding spaces, a
close spelling); a frame whose names repeat is refused rather than read at one of the
columns."""

from __future__ import annotations

from typing import Any

import pytest

import wkappa as wk
from wkappa import WkappaError, WkappaTypeError

frames = pytest.importorskip("wkappa.frames")

RATINGS = {
    "Grade": [1, 2, 3, 1, 2, 3],
    "model score": [1, 2, 2, 1, 3, 3],
    " site": [1, 1, 1, 2, 2, 2],
}
PAIR = {"y_true": "Grade", "y_pred": "model score"}
WIDE = {"raters": ["Grade", "model score"]}
FEW = {"n_resamples": 9}

# (function, its keywords, the parameter given a wrong name, that name, the name meant)
CALLS = [
    ("weighted_kappa", {**PAIR, "y_true": "grade"}, "y_true", "grade", "Grade"),
    ("confusion_table", {**PAIR, "y_pred": "model_score"}, "y_pred", "model_score", "model score"),
    ("kappa_by_group", {**PAIR, "by": "site"}, "by", "site", " site"),
    ("kappa_test", {**PAIR, "cluster": "SITE"}, "cluster", "SITE", " site"),
    ("agreement", {"raters": ["grade", "model score"]}, "raters", "grade", "Grade"),
    ("agreement", {**WIDE, "by": "Site"}, "by", "Site", " site"),
    ("agreement", {**WIDE, "cluster": "site"}, "cluster", "site", " site"),
    ("icc", {"raters": ["Grade", "model  score"]}, "raters", "model  score", "model score"),
    ("ccc", {"raters": ["grade", "model score"]}, "raters", "grade", "Grade"),
    ("icc_all", {"item": " site", "rater": "model score", "rating": "grade"}, "rating", "grade",
     "Grade"),
    ("paired_kappa_test", {"y_true": "Grade", "y_pred_a": "model score", "y_pred_b": "site", **FEW},
     "y_pred_b", "site", " site"),
    ("rater_vs_panel", {"candidate": " site", "raters": ["grade", "model score"], **FEW},
     "raters", "grade", "Grade"),
]  # fmt: skip


@pytest.mark.parametrize(("function", "keywords", "parameter", "given", "meant"), CALLS)
def test_a_missing_column_names_its_parameter_and_the_close_names(
    frame_library: Any, function: str, keywords: Any, parameter: str, given: str, meant: str
) -> None:
    df = frame_library.frame(RATINGS)
    with pytest.raises(WkappaError) as raised:
        getattr(frames, function)(df, **keywords)
    message = str(raised.value)
    assert message.startswith(
        f"`{parameter}` names the column {given!r}, which is not in the frame. "
        f"Did you mean {meant!r}? Hint: names are matched exactly (case and spaces included); "
        "the columns are ['Grade', 'model score', ' site']."
    ), message
    assert "\n" not in message


def test_a_name_like_none_of_the_columns_gets_no_guess(frame_library: Any) -> None:
    df = frame_library.frame(RATINGS)
    with pytest.raises(WkappaError, match=r"'zzz', which is not in the frame\. Hint: names"):
        frames.weighted_kappa(df, y_true="zzz", y_pred="Grade")


def _repeated_names(frame_library: Any) -> Any:
    """A frame of the library with the columns 'a', 'b', 'a' (the two 'a' differ)."""
    df = frame_library.frame({"a": [1, 2, 3, 1], "b": [2, 2, 3, 1], "c": [1, 3, 3, 2]})
    name = frame_library.name
    if name in ("pandas", "dask"):
        return df.rename(columns={"c": "a"})
    if name == "pyarrow":
        return df.rename_columns(["a", "b", "a"])
    if name == "duckdb":
        return df.project("a, b, c AS a")
    if name == "spark":
        return df.toDF("a", "b", "a")
    pytest.skip("polars frames refuse a repeated column name themselves")


REPEATED = [
    lambda df: frames.weighted_kappa(df, y_true="a", y_pred="b"),
    lambda df: frames.kappa_by_group(df, y_true="b", y_pred="b", by="a"),
    lambda df: frames.agreement(df, raters=["a", "b"]),
    lambda df: frames.icc(df, raters=["b", "a"]),
    lambda df: frames.ccc(df, raters=["b", "a"]),
    lambda df: frames.paired_kappa_test(df, y_true="b", y_pred_a="a", y_pred_b="b", n_resamples=9),
]


@pytest.mark.parametrize("call", REPEATED)
def test_a_repeated_column_name_is_refused(frame_library: Any, call: Any) -> None:
    df = _repeated_names(frame_library)
    with pytest.raises(WkappaError, match=r"^`df` has more than one column named 'a' \(2 times\)"):
        call(df)


NESTED = [
    ("weighted_kappa", {"y_true": "listed", "y_pred": "b"}, "y_true"),
    ("kappa_by_group", {"y_true": "a", "y_pred": "b", "by": "listed"}, "by"),
    ("kappa_test", {"y_true": "a", "y_pred": "b", "cluster": "listed"}, "cluster"),
    ("agreement", {"raters": ["a", "b"], "by": "listed"}, "by"),
    ("icc", {"raters": ["a", "listed"]}, "raters"),
]


@pytest.mark.parametrize(("function", "keywords", "parameter"), NESTED)
def test_a_column_of_lists_is_refused_by_name(
    frame_library: Any, function: str, keywords: Any, parameter: str
) -> None:
    if frame_library.name == "dask":
        pytest.skip("Dask turns an object column into strings ('[1, 2]') when it is made")
    df = frame_library.frame({"a": [1, 2, 3], "b": [1, 2, 2], "listed": [[1], [2], [1, 2]]})
    message = rf"^`{parameter}` names the column 'listed', whose"
    if frame_library.name == "pandas" and function == "icc":
        message = "The rating column 'listed' must be numeric"  # an object column
    with pytest.raises(WkappaError, match=message):
        getattr(frames, function)(df, **keywords)


def test_kappa_by_group_of_an_all_null_key_is_one_group_keyed_none(frame_library: Any) -> None:
    """A key column with no value at all has no type of its own (pyarrow's and DuckDB's
    NULL type): its one group comes back keyed None."""
    import wkappa as wk

    true, pred = [1, 2, 3, 1, 2, 3], [1, 2, 2, 1, 3, 3]
    df = frame_library.frame({"a": true, "b": pred, "g": [None] * 6})
    result = frame_library.to_pandas(frames.kappa_by_group(df, y_true="a", y_pred="b", by="g"))
    assert len(result) == 1 and result["g"].isna().all()
    assert result["n"].tolist() == [6]
    assert result["kappa"].tolist() == [wk.weighted_kappa(true, pred)]


def test_kappa_by_group_of_a_duckdb_uuid_key_keys_the_groups_by_its_text(
    duckdb_connection: Any,
) -> None:
    import wkappa as wk

    rel = duckdb_connection.sql(
        "SELECT range % 3 AS a, (range // 2) % 3 AS b, md5((range % 4)::VARCHAR)::UUID AS g "
        "FROM range(40)"
    )
    result = frames.kappa_by_group(rel, y_true="a", y_pred="b", by="g").df()
    rows = rel.df()
    assert sorted(result["g"]) == sorted(str(key) for key in rows["g"].unique())
    for key, kappa in zip(result["g"], result["kappa"], strict=True):
        mine = rows[rows["g"].map(str) == key]
        expected = wk.weighted_kappa(mine["a"], mine["b"], min_rating=0, max_rating=2)
        assert kappa == expected  # the exactness kappa_by_group's Notes promise


@pytest.mark.parametrize(
    ("function", "keywords", "kind"),
    [
        ("weighted_kappa", {"y_true": 0, "y_pred": 1}, WkappaTypeError),
        ("weighted_kappa", {"y_true": "0", "y_pred": "1"}, WkappaError),
        ("agreement", {"raters": [0, 1]}, WkappaTypeError),
        ("icc", {"raters": ["0", "1"]}, WkappaError),
    ],
)
def test_integer_column_names_are_an_error_with_the_fix(
    frame_library: Any, function: str, keywords: Any, kind: type
) -> None:
    """pandas and Dask frames built from arrays have integer column names (0, 1, ...)."""
    if frame_library.name not in ("pandas", "dask"):
        pytest.skip("the library's column names are strings")
    df = frame_library.frame({"a": [1, 2, 3, 1], "b": [1, 2, 2, 1]}).rename(
        columns={"a": 0, "b": 1}
    )
    with pytest.raises(kind, match=r"Hint: name the columns with strings first \(pandas: "):
        getattr(frames, function)(df, **keywords)


def _intervals(frame_library: Any, spans: list[int]) -> tuple[list[Any], dict[str, str]]:
    """Each library's interval (or duration) of ``spans`` months, and the dtypes to build it."""
    import datetime as dt

    if frame_library.name in ("pandas", "dask"):
        import pandas as pd

        return [pd.DateOffset(months=m) for m in spans], {}
    if frame_library.name.startswith("polars") or frame_library.name == "spark":
        # Polars has durations only; Spark does not turn intervals of months into Arrow.
        return [dt.timedelta(days=30 * m) for m in spans], {}
    import pyarrow as pa

    return [pa.MonthDayNano([m, 0, 0]) for m in spans], {"g": "month_day_nano_interval"}


def _keyed(frame_library: Any, key: Any, given: Any) -> bool:
    """``key`` is the interval ``given`` itself, or its text (Spark's own, on Spark)."""
    spark = frame_library.name == "spark" and isinstance(key, str)
    return key == given or key == str(given) or spark


def test_kappa_by_group_of_an_interval_key_keys_the_groups_by_its_text(
    frame_library: Any,
) -> None:
    """Intervals of months and days (DuckDB INTERVAL, pyarrow month_day_nano_interval, pandas
    DateOffset) have no order: their groups are keyed by the text of the interval."""
    import wkappa as wk

    true, pred = [1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 2, 1, 3, 3, 1, 1]
    spans = [i % 2 for i in range(8)]
    keys, dtypes = _intervals(frame_library, spans)
    df = frame_library.frame({"a": true, "b": pred, "g": keys}, dtypes=dtypes)
    result = frame_library.to_pandas(frames.kappa_by_group(df, y_true="a", y_pred="b", by="g"))
    assert result["n"].tolist() == [4, 4]
    for span, key in enumerate(result["g"]):
        given = keys[spans.index(span)]
        assert _keyed(frame_library, key, given), (key, given)
        mine = [i for i, s in enumerate(spans) if s == span]
        expected = wk.weighted_kappa([true[i] for i in mine], [pred[i] for i in mine])
        assert result["kappa"][span] == expected


@pytest.mark.parametrize("parameter", ["by", "cluster"])
def test_agreement_of_an_interval_key_keys_it_by_its_text(
    frame_library: Any, parameter: str
) -> None:
    """agreement's `by` groups and cluster ids of intervals are those of their text: the
    results are those of the same groups keyed by plain integers."""
    spans = [i % 2 if parameter == "by" else i % 10 for i in range(40)]
    keys, dtypes = _intervals(frame_library, spans)
    columns = {
        "a": [i % 3 for i in range(40)],
        "b": [(i // 2) % 3 for i in range(40)],
        "c": [(i % 4) % 3 for i in range(40)],
        "g": keys,
        "m": spans,
    }
    df = frame_library.frame(columns, dtypes=dtypes)
    raters = {"raters": ["a", "b", "c"]}
    found = frames.agreement(df, **raters, **{parameter: "g"})
    expected = frames.agreement(df, **raters, **{parameter: "m"})
    if parameter == "cluster":  # the same clusters (summed in another order: the last bit)
        assert found.statistic == expected.statistic
        assert found.n_clusters == expected.n_clusters == 10
        assert found.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
        return
    assert len(found) == 2
    for span, (key, result) in enumerate(found.items()):
        given = keys[spans.index(span)]
        assert _keyed(frame_library, key, given), (key, given)
        assert result.to_dict() == expected[span].to_dict()


@pytest.mark.slow
@pytest.mark.xdist_group("spark")
def test_spark_keys_of_intervals_of_months_are_keyed_by_their_text(spark: Any) -> None:
    """Spark cannot hand an interval of months to Arrow: such a `by` or `cluster` column is
    read as its text in the engine."""
    df = spark.sql(
        "SELECT id % 3 AS a, (id div 2) % 3 AS b, (id % 4) % 3 AS c, id % 10 AS m, "
        "make_ym_interval(0, CAST(id % 2 AS INT)) AS g, "
        "make_ym_interval(0, CAST(id % 10 AS INT)) AS cl FROM range(40)"
    )
    grouped = frames.kappa_by_group(df, y_true="a", y_pred="b", by="g").toPandas()
    assert grouped["g"].tolist() == ["INTERVAL '0-0' YEAR TO MONTH", "INTERVAL '0-1' YEAR TO MONTH"]
    assert grouped["n"].tolist() == [20, 20]
    pair = {"y_true": "a", "y_pred": "b"}
    clustered = frames.kappa_test(df, **pair, cluster="cl")
    assert clustered.to_dict() == frames.kappa_test(df, **pair, cluster="m").to_dict()
    assert sorted(frames.agreement(df, raters=["a", "b", "c"], by="g")) == grouped["g"].tolist()


RESERVED_CALLS = [
    ("weighted_kappa", {"y_true": "__wkappa_count__", "y_pred": "b"}, "y_true"),
    ("kappa_by_group", {"y_true": "a", "y_pred": "b", "by": "__wkappa_count__"}, "by"),
    ("agreement", {"raters": ["a", "__wkappa_count__"]}, "raters"),
    ("agreement", {"item": "g", "rater": "__wkappa_count__", "rating": "a"}, "rater"),
]


@pytest.mark.parametrize(("function", "options", "parameter"), RESERVED_CALLS)
def test_a_column_named_as_the_counts_own_is_refused_naming_it(
    frame_library: Any, function: str, options: dict[str, Any], parameter: str
) -> None:
    """A column named like one the counts add (a group's size, '__wkappa_count__') collided
    with it: polars' or narwhals' DuplicateError, or pandas' 'cannot insert ... already
    exists'. It is refused up front, naming the parameter; a column of that name the call
    does not use is left alone."""
    columns = {"a": [1, 2, 3, 1], "b": [1, 2, 2, 1], "g": [1, 1, 2, 2]}
    frame = frame_library.frame({**columns, "__wkappa_count__": [1, 2, 2, 1]})
    message = rf"^`{parameter}` names the column '__wkappa_count__'; names starting with"
    with pytest.raises(WkappaError, match=message):
        getattr(frames, function)(frame, **options)
    assert frames.weighted_kappa(frame, y_true="a", y_pred="b") == wk.weighted_kappa(
        columns["a"], columns["b"]
    )


DATED = [
    ("weighted_kappa", {"y_true": "when", "y_pred": "b"}, "y_true"),
    ("kappa_test", {"y_true": "a", "y_pred": "when"}, "y_pred"),
    ("kappa_by_group", {"y_true": "when", "y_pred": "b", "by": "a"}, "y_true"),
]


@pytest.mark.parametrize(("function", "keywords", "parameter"), DATED)
def test_a_column_of_dates_is_refused_as_ratings_by_name(
    frame_library: Any, function: str, keywords: Any, parameter: str
) -> None:
    """A timestamp named as a rating column was read as unordered categories on pandas and
    polars ("the ratings are strings or unordered categories"; unweighted kappa scored the
    dates) and refused by numpy's dtype name (``datetime64[ms]``) on pyarrow and DuckDB."""
    import datetime

    days = [datetime.datetime(2026, 1, d) for d in (1, 2, 3, 2)]
    df = frame_library.frame({"a": [1, 2, 3, 2], "b": [1, 2, 2, 2], "when": days})
    message = rf"^`{parameter}` names the column 'when', which holds dates or times"
    with pytest.raises(WkappaError, match=message):
        getattr(frames, function)(df, **keywords)
    with pytest.raises(WkappaError, match=message):
        getattr(frames, function)(df, **keywords, weights="unweighted")


def test_a_column_of_dates_still_groups_the_pairs(frame_library: Any) -> None:
    """Only a rating column of dates is refused: a day keys the groups of kappa_by_group."""
    import datetime

    true, pred = [1, 2, 3, 1, 2, 3], [1, 2, 2, 1, 3, 3]
    days = [datetime.datetime(2026, 1, 1 + i // 3) for i in range(6)]
    df = frame_library.frame({"a": true, "b": pred, "day": days})
    result = frame_library.to_pandas(frames.kappa_by_group(df, y_true="a", y_pred="b", by="day"))
    assert result["n"].tolist() == [3, 3]
    assert result["kappa"].tolist() == [
        wk.weighted_kappa(true[:3], pred[:3]),
        wk.weighted_kappa(true[3:], pred[3:]),
    ]
