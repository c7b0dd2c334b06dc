"""cluster= on the frames functions: a column of cluster ids gives the same result as the
array functions with the ids."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wkappa as wk
from wkappa import frames
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")


def _pairs(seed: int = 0, n: int = 90):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n)
    pred = np.where(rng.random(n) < 0.6, truth, rng.integers(0, 4, n))
    return pd.DataFrame({"t": truth, "p": pred, "patient": np.arange(n) // 2})


def _panel(seed: int = 1, n: int = 60):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    ratings = np.column_stack(
        [np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n)) for _ in range(4)]
    ).astype(float)
    ratings[rng.random((n, 4)) < 0.1] = np.nan
    df = pd.DataFrame(ratings, columns=["a", "b", "c", "d"])
    df["task"] = [f"task{i // 3}" for i in range(n)]
    return ratings, df


@pytest.mark.parametrize("lazy", [False, True])
def test_kappa_test_cluster_column(lazy: bool) -> None:
    df = _pairs()
    expected = wk.kappa_test(df["t"], df["p"], cluster=df["patient"])
    frame = pl.from_pandas(df).lazy() if lazy else df
    result = frames.kappa_test(frame, y_true="t", y_pred="p", cluster="patient")
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
    assert result.n_clusters == expected.n_clusters == 45
    assert result.confidence_interval() == pytest.approx(expected.confidence_interval())
    assert "cluster-robust over 45 clusters" in repr(result)


def test_kappa_test_cluster_column_errors() -> None:
    df = _pairs().astype({"patient": float})
    df.loc[4, "patient"] = np.nan
    with pytest.raises(WkappaError, match="`cluster` column 'patient' has a missing id"):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="patient")
    df["patient"] = 1.0
    with pytest.raises(WkappaError, match="at least 2 clusters"):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="patient")
    with pytest.raises(WkappaError, match=r"`cluster` names the column .nope."):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="nope")


def test_kappa_test_cluster_column_checks_the_test_options() -> None:
    # Before: kappa0=2 gave a p-value and alternative='bogus' was kept in the result.
    df = _pairs()
    with pytest.raises(WkappaError, match="`kappa0` must be a finite number below 1"):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="patient", kappa0=2.0)
    with pytest.raises(WkappaError, match="alternative"):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="patient", alternative="bogus")


def test_kappa_test_cluster_every_pair_omitted() -> None:
    df = pd.DataFrame({"t": [np.nan, 1.0], "p": [1.0, np.nan], "c": [1, 2]})
    with pytest.warns(wk.UndefinedKappaWarning):
        result = frames.kappa_test(df, y_true="t", y_pred="p", cluster="c", nan_policy="omit")
    assert math.isnan(result.statistic)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "krippendorff"])
def test_agreement_cluster_column_wide_and_long(coefficient: str) -> None:
    ratings, df = _panel()
    ids = df["task"].to_numpy()
    expected = wk.agreement(ratings, coefficient=coefficient, cluster=ids)
    wide = frames.agreement(
        df, raters=["a", "b", "c", "d"], coefficient=coefficient, cluster="task"
    )
    long = df.reset_index().melt(
        id_vars=["index", "task"], value_vars=["a", "b", "c", "d"], var_name="who", value_name="r"
    )
    from_long = frames.agreement(
        pl.from_pandas(long), item="index", rater="who", rating="r", coefficient=coefficient,
        cluster="task",
    )  # fmt: skip
    for result in (wide, from_long):
        assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
        assert result.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
        assert result.n_clusters == 20


def test_agreement_cluster_column_errors() -> None:
    _, df = _panel()
    with pytest.raises(WkappaError, match="`by` and `cluster` name the same column 'task'"):
        frames.agreement(df, raters=["a", "b"], by="task", cluster="task")
    with pytest.raises(WkappaError, match="`cluster` names the column 'nope', which is not"):
        frames.agreement(df, raters=["a", "b"], cluster="nope")
    df.loc[2, "task"] = None
    with pytest.raises(WkappaError, match="`cluster` column 'task' has a missing id"):
        frames.agreement(df, raters=["a", "b", "c", "d"], cluster="task")
    df["task"] = "one"
    with pytest.raises(WkappaError, match="at least 2 clusters"):
        frames.agreement(df, raters=["a", "b", "c", "d"], cluster="task")


def test_group_columns_that_are_read_as_ratings_or_items_are_refused() -> None:
    # Before: by="item" made one group per item, by= a rater column grouped by its ratings.
    _, df = _panel()
    with pytest.raises(WkappaError, match="`by` names the rater column 'a'"):
        frames.agreement(df, raters=["a", "b", "c"], by="a")
    with pytest.raises(WkappaError, match="`cluster` names the rater column 'b'"):
        frames.agreement(df, raters=["a", "b", "c"], cluster="b")
    long = df.reset_index().melt(
        id_vars=["index", "task"], value_vars=["a", "b", "c", "d"], var_name="who", value_name="r"
    )
    with pytest.raises(WkappaError, match="`by` names the `item` column 'index'"):
        frames.agreement(long, item="index", rater="who", rating="r", by="index")
    with pytest.raises(WkappaError, match="`by` names the `rater` column 'who'"):
        frames.agreement(long, item="index", rater="who", rating="r", by="who")
    with pytest.raises(WkappaError, match="`cluster` names the `rating` column 'r'"):
        frames.agreement(long, item="index", rater="who", rating="r", cluster="r")
    # Before: a raw pandas ValueError ("cannot insert index, already exists").
    with pytest.raises(WkappaError, match="`cluster` names the `item` column 'index'"):
        frames.agreement(long, item="index", rater="who", rating="r", cluster="index")


def test_agreement_cluster_column_long_item_in_two_clusters() -> None:
    # Before: the item's rows in another cluster became a second item (a silent wrong value).
    _, df = _panel()
    long = df.reset_index().melt(
        id_vars=["index", "task"], value_vars=["a", "b", "c", "d"], var_name="who", value_name="r"
    )
    long.loc[0, "task"] = "elsewhere"
    with pytest.raises(WkappaError, match="Item 0 has ratings in two clusters of the `cluster`"):
        frames.agreement(long, item="index", rater="who", rating="r", cluster="task")


# ------------------------------------------------------- cluster with by, rater_vs_panel


def _grouped_panel(seed: int = 2, n: int = 72):
    """Four raters on n items in 24 tasks of 3 items; the tasks in two sites."""
    rng = np.random.default_rng(seed)
    truth = np.repeat(rng.integers(0, 3, n // 3), 3)  # items of a task alike: clustered
    ratings = np.column_stack(
        [np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n)) for _ in range(4)]
    ).astype(float)
    ratings[rng.random((n, 4)) < 0.1] = np.nan
    task = np.arange(n) // 3
    site = np.where(task % 2 == 0, "north", "south")
    return ratings, task, site


def _columns(ratings, task, site) -> dict:
    columns = {name: ratings[:, j].tolist() for j, name in enumerate("abcd")}
    columns["item"] = list(range(len(task)))
    columns["task"] = [f"t{t:02d}" for t in task]
    columns["site"] = site.tolist()
    return columns


def _long_columns(columns: dict) -> dict:
    long: dict = {"item": [], "task": [], "site": [], "who": [], "r": []}
    for i in range(len(columns["item"])):
        for who in "abcd":
            long["item"].append(columns["item"][i])
            long["task"].append(columns["task"][i])
            long["site"].append(columns["site"][i])
            long["who"].append(who)
            long["r"].append(columns[who][i])
    return long


def _layout_frame(frame_library, layout: str, columns: dict, raters: str) -> tuple:
    """The frame of the library in the layout, and the keywords that name its raters."""
    if layout == "wide":
        return frame_library.frame(columns), {"raters": list(raters)}
    spelled = {"item": "item", "rater": "who", "rating": "r"}
    return frame_library.frame(_long_columns(columns)), spelled


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_agreement_cluster_and_by_every_library(frame_library, layout: str) -> None:
    ratings, task, site = _grouped_panel()
    frame, spelled = _layout_frame(frame_library, layout, _columns(ratings, task, site), "abcd")
    results = frames.agreement(frame, **spelled, by="site", cluster="task", coefficient="gwet")
    assert set(results) == {"north", "south"}
    every = wk.agreement(ratings, coefficient="gwet", labels=[0.0, 1.0, 2.0])
    for value, result in results.items():
        rows = site == value
        expected = wk.agreement(
            ratings[rows], coefficient="gwet", cluster=task[rows], labels=every.labels
        )
        assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
        assert result.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
        assert result.n_clusters == expected.n_clusters == 12
        assert result.confidence_interval() == pytest.approx(expected.confidence_interval())


def test_agreement_cluster_and_by_against_leave_one_cluster_out() -> None:
    # The reference built by hand: each site's leave-one-task-out coefficients recomputed by
    # wk.agreement on the remaining items, and the jackknife SE formula over the G tasks.
    ratings, task, site = _grouped_panel()
    df = pd.DataFrame(_columns(ratings, task, site))
    results = frames.agreement(df, raters=list("abcd"), by="site", cluster="task")
    for value, result in results.items():
        rows = site == value
        part, ids = ratings[rows], task[rows]
        clusters = np.unique(ids)
        left_out = np.array(
            [wk.agreement(part[ids != g], labels=result.labels).statistic for g in clusters]
        )
        g = len(clusters)
        jackknife_se = math.sqrt((g - 1) / g * float(((left_out - left_out.mean()) ** 2).sum()))
        ci = result.confidence_interval(method="jackknife")
        half = (ci.high - ci.low) / 2
        assert ci.low + half == pytest.approx(result.statistic, abs=1e-12)
        # the interval is statistic ± t(G - 1) * SE_jackknife
        from scipy import stats

        assert half == pytest.approx(stats.t.ppf(0.975, g - 1) * jackknife_se, rel=1e-9)


def test_agreement_cluster_and_by_one_cluster_in_a_group() -> None:
    ratings, task, site = _grouped_panel()
    columns = _columns(ratings, task, site)
    df = pd.DataFrame(columns)
    df.loc[df["site"] == "north", "task"] = "only"
    with pytest.raises(WkappaError, match=r"In the group site='north': `cluster` must have at"):
        frames.agreement(df, raters=list("abcd"), by="site", cluster="task")
    df = pd.DataFrame(columns)
    df.loc[5, "site"] = None  # a group of its own (key None), here one item all rate 0
    with pytest.warns(UndefinedKappaWarning, match="1 - pe is zero"):
        results = frames.agreement(df, raters=list("abcd"), by="site", cluster="task")
    assert list(results) == ["north", "south", None]
    assert math.isnan(results[None].statistic) and results[None].n_items == 1


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_rater_vs_panel_cluster_every_library(frame_library, layout: str) -> None:
    ratings, task, site = _grouped_panel()
    frame, spelled = _layout_frame(frame_library, layout, _columns(ratings, task, site), "abc")
    result = frames.rater_vs_panel(
        frame, candidate="d", **spelled, cluster="task", n_resamples=199, rng=3
    )
    expected = wk.rater_vs_panel(
        ratings[:, :3], ratings[:, 3], cluster=task, n_resamples=199, rng=3
    )
    assert result.n_clusters == expected.n_clusters == 24
    assert result.difference == pytest.approx(expected.difference, rel=1e-12)
    assert result.confidence_interval() == pytest.approx(expected.confidence_interval())
    assert result.pvalue == pytest.approx(expected.pvalue)
    assert "resampling 24 clusters" in repr(result)


def test_rater_vs_panel_cluster_replicates_draw_whole_tasks() -> None:
    # Brute force: a replicate is the difference recomputed on the items of the drawn tasks
    # (each drawn task brings all its items). With one task per item (G = n) the cluster
    # bootstrap is the item bootstrap.
    ratings, task, _ = _grouped_panel(n=30)
    df = pd.DataFrame(ratings, columns=list("abcd"))
    df["item"] = np.arange(len(df))
    by_item = frames.rater_vs_panel(
        df, candidate="d", raters=list("abc"), cluster="item", n_resamples=99, rng=5
    )
    plain = wk.rater_vs_panel(ratings[:, :3], ratings[:, 3], n_resamples=99, rng=5)
    assert by_item.n_clusters == 30
    assert by_item.difference == pytest.approx(plain.difference, rel=1e-12)
    df["task"] = task
    clustered = frames.rater_vs_panel(
        df, candidate="d", raters=list("abc"), cluster="task", n_resamples=20, rng=7
    )
    rng = np.random.default_rng(7)
    clusters = np.unique(task)
    draws = rng.multinomial(len(clusters), np.full(len(clusters), 1 / len(clusters)), size=20)
    for draw, value in zip(draws, clustered._differences, strict=True):
        rows = np.repeat(np.arange(len(task)), draw[task])  # each task's items, draw times
        again = wk.rater_vs_panel(ratings[rows, :3], ratings[rows, 3], n_resamples=2, rng=0)
        assert value == pytest.approx(again.difference, rel=1e-9, abs=1e-12)


def test_rater_vs_panel_cluster_errors() -> None:
    ratings, task, site = _grouped_panel()
    df = pd.DataFrame(_columns(ratings, task, site))
    df.loc[3, "task"] = None
    with pytest.raises(WkappaError, match="`cluster` column 'task' has a missing id"):
        frames.rater_vs_panel(df, candidate="d", raters=list("abc"), cluster="task")
    df["task"] = "one"
    with pytest.raises(WkappaError, match="`cluster` must have at least 2 clusters"):
        frames.rater_vs_panel(df, candidate="d", raters=list("abc"), cluster="task")
    long = pd.DataFrame(_long_columns(_columns(ratings, task, site)))
    long.loc[0, "task"] = "elsewhere"
    with pytest.raises(WkappaError, match="Item 0 has ratings in two clusters of the `cluster`"):
        frames.rater_vs_panel(
            long, candidate="d", item="item", rater="who", rating="r", cluster="task"
        )


# ------------------------------------------------------- an item in two by groups


def _int_long() -> dict:
    """The grouped panel in the long layout with whole-number ratings (None: no rating), so
    that DuckDB and polars count it with the packed query."""
    long = _long_columns(_columns(*_grouped_panel()))
    long["r"] = [None if v != v else int(v) for v in long["r"]]
    return long


@pytest.mark.parametrize("cluster", [None, "task"])
def test_agreement_by_long_item_in_two_groups_every_library(frame_library, cluster) -> None:
    # Before: the item's rows in the other site became a second item of that site (a silent
    # wrong value); the same rule as an item in two clusters, checked in the same query.
    long = _int_long()
    frame = frame_library.frame(long)
    frames.agreement(frame, item="item", rater="who", rating="r", by="site", cluster=cluster)
    seven = long["item"].index(7)
    long["site"][seven] = "north" if long["site"][seven] == "south" else "south"
    frame = frame_library.frame(long)
    message = r"Item 7 has ratings in two groups of the `by` column 'site'.*Hint: an item's rows"
    with pytest.raises(WkappaError, match=message + " must all carry the same `by` value"):
        frames.agreement(frame, item="item", rater="who", rating="r", by="site", cluster=cluster)


def test_agreement_by_long_item_with_a_missing_group_is_in_two_groups(frame_library) -> None:
    # A null beside a value in one item: a missing `by` value is a group of its own, so the
    # item is in two groups (the packed query flags the item, the check names it).
    long = _int_long()
    long["site"][0] = None
    item = long["item"][0]
    message = rf"Item {item!r} has ratings in two groups of the `by` column 'site'"
    with pytest.raises(WkappaError, match=message):
        frames.agreement(frame_library.frame(long), item="item", rater="who", rating="r",
                         by="site")  # fmt: skip


@pytest.mark.parametrize("library", ["polars", "polars-lazy", "duckdb"])
def test_agreement_by_long_packed_query_checks_items_in_its_own_pass(
    library: str, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    # The packed query (DuckDB, polars) groups by item anyway: no second query checks `by`.
    from frames_data import frame_library as build
    from wkappa._frames import raters

    name = library.partition("-")[0]
    pytest.importorskip(name)
    resource = request.getfixturevalue("duckdb_connection") if name == "duckdb" else None
    long = _int_long()
    frame = build(library, resource).frame(long)

    def refused(*args: object) -> None:
        raise AssertionError("a separate check query ran")

    monkeypatch.setattr(raters, "one_group_per_item", refused)
    result = frames.agreement(frame, item="item", rater="who", rating="r", by="site")
    monkeypatch.undo()
    expected = frames.agreement(pd.DataFrame(long), item="item", rater="who", rating="r",
                                by="site")  # fmt: skip
    for value in ("north", "south"):
        assert result[value].statistic == pytest.approx(expected[value].statistic, rel=1e-12)


@pytest.mark.parametrize("library", ["pandas", "polars", "duckdb"])
def test_agreement_by_and_cluster_long_item_in_two_clusters(library, request) -> None:
    from frames_data import frame_library as build

    resource = request.getfixturevalue("duckdb_connection") if library == "duckdb" else None
    long = _int_long()
    long["task"][12:16] = ["t01", "t01", "t02", "t02"]  # item 3's four rows
    frame = build(library, resource).frame(long)
    with pytest.raises(WkappaError, match="Item 3 has ratings in two clusters of the `cluster`"):
        frames.agreement(frame, item="item", rater="who", rating="r", by="site", cluster="task")


def test_dask_long_layout_item_split_over_partitions() -> None:
    """An item whose rows fall in several Dask partitions is one item of one cluster: the
    check of one cluster (and one by group) per item counted the ids per partition and
    refused it as 'in two clusters'."""
    dd = pytest.importorskip("dask.dataframe")
    long = pd.DataFrame(_long_columns(_columns(*_grouped_panel())))
    split = dd.from_pandas(long, npartitions=37)  # every item's 4 rows cross a boundary
    assert split.npartitions > 1
    expected = frames.agreement(long, item="item", rater="who", rating="r", cluster="task")
    result = frames.agreement(split, item="item", rater="who", rating="r", cluster="task")
    assert result.statistic == expected.statistic
    assert result.standard_error == expected.standard_error
    assert result.n_clusters == expected.n_clusters == 24
    by = frames.agreement(split, item="item", rater="who", rating="r", by="site", cluster="task")
    assert len(by) == 2
    long.loc[0, "task"] = "elsewhere"
    with pytest.raises(WkappaError, match="Item 0 has ratings in two clusters of the `cluster`"):
        frames.agreement(
            dd.from_pandas(long, npartitions=37), item="item", rater="who", rating="r",
            cluster="task",
        )  # fmt: skip


SCANNED = {
    "weighted_kappa": {"y_true": "a", "y_pred": "b", "sample_weight": "w"},
    "kappa_test": {"y_true": "a", "y_pred": "b", "cluster": "c"},
    "kappa_by_group": {"y_true": "a", "y_pred": "b", "by": "g", "cluster": "c"},
    "agreement": {"raters": ["a", "b"], "cluster": "c"},
    "icc": {"raters": ["a", "b"]},
    "ccc": {"raters": ["a", "b"]},
    "paired_kappa_test": {"y_true": "a", "y_pred_a": "b", "y_pred_b": "g", "n_resamples": 9},
}


@pytest.mark.parametrize(("function", "keywords"), SCANNED.items(), ids=list(SCANNED))
def test_a_lazy_frame_is_read_once(function, keywords):
    """Every row of a polars LazyFrame passes once through the query (a clustered kappa_test
    took its categories from a first count, then the clusters' tables from a second)."""
    rng = np.random.default_rng(4)
    n = 400
    truth = rng.integers(0, 4, n)
    rows = pl.DataFrame({
        "t": truth, "b": np.clip(truth + rng.integers(-1, 2, n), 0, 3),
        "g": rng.integers(0, 3, n), "w": rng.integers(1, 3, n), "c": np.arange(n) % 12,
    })  # fmt: skip
    seen = []

    def count(column):
        seen.append(len(column))
        return column

    lazy = rows.lazy().with_columns(a=pl.col("t").map_batches(count, return_dtype=pl.Int64))
    getattr(frames, function)(lazy, **keywords)
    assert sum(seen) == n
