"""Fewer than 8 clusters: every entry point taking ``cluster=`` (and the command line's
``--cluster``) warns with a FewClustersWarning pointing at the caller's line, and is silent
from 8 clusters on (the rule of ``wkappa._stats.cluster.warn_few_clusters``; the threshold
comes from ``benchmarks/few_clusters_study.py``)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa._stats.cluster import MIN_CLUSTERS, few_clusters_text, warn_few_clusters
from wkappa.exceptions import FewClustersWarning

pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")


def _ratings(n_clusters: int, size: int = 4) -> dict[str, np.ndarray]:
    """Three raters on n_clusters x size items; the items of a cluster share a grade."""
    rng = np.random.default_rng(n_clusters)
    task = np.repeat(np.arange(n_clusters), size)
    level = np.repeat(rng.integers(0, 5, n_clusters), size)

    def rater() -> np.ndarray:
        return np.clip(level + rng.integers(-1, 2, task.size), 0, 4)

    return {"task": task, "a": rater(), "b": rater(), "c": rater()}


def _matrix(data: dict[str, np.ndarray]) -> np.ndarray:
    return np.column_stack([data["a"], data["b"], data["c"]])


ENTRY_POINTS: dict[str, Callable[[dict[str, np.ndarray]], Any]] = {
    "kappa_test": lambda d: wk.kappa_test(d["a"], d["b"], cluster=d["task"]),
    "agreement": lambda d: wk.agreement(_matrix(d), cluster=d["task"]),
    "krippendorff_alpha": lambda d: wk.krippendorff_alpha(_matrix(d), cluster=d["task"]),
    "paired_kappa_test": lambda d: wk.paired_kappa_test(
        d["a"], d["b"], d["c"], cluster=d["task"], n_resamples=99, rng=0
    ),
    "rater_vs_panel": lambda d: wk.rater_vs_panel(
        _matrix(d)[:, :2], d["c"], cluster=d["task"], n_resamples=99, rng=0
    ),
    "frames.kappa_test": lambda d: frames.kappa_test(
        pl.DataFrame(d), y_true="a", y_pred="b", cluster="task"
    ),
    "frames.kappa_by_group": lambda d: frames.kappa_by_group(
        pl.DataFrame(d), y_true="a", y_pred="b", by="c", cluster="task"
    ),
    "frames.agreement": lambda d: frames.agreement(
        pl.DataFrame(d), raters=["a", "b", "c"], cluster="task"
    ),
    "frames.rater_vs_panel": lambda d: frames.rater_vs_panel(
        pl.DataFrame(d), candidate="c", raters=["a", "b"], cluster="task", n_resamples=99, rng=0
    ),
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_every_entry_point_warns_below_the_threshold_at_the_callers_line(name: str) -> None:
    call = ENTRY_POINTS[name]
    data = _ratings(MIN_CLUSTERS - 1)
    if name == "frames.kappa_by_group":  # one group, all the clusters
        data["c"] = np.zeros_like(data["c"])
    with pytest.warns(FewClustersWarning, match="Only 7 clusters") as caught:
        call(data)
    few = [w for w in caught if issubclass(w.category, FewClustersWarning)]
    assert len(few) == 1
    assert few[0].filename == __file__  # the lambda's line in this file, not wkappa's
    assert "Hint: use 8 or more clusters" in str(few[0].message)


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_every_entry_point_is_silent_at_the_threshold(name: str) -> None:
    data = _ratings(MIN_CLUSTERS)
    if name == "frames.kappa_by_group":
        data["c"] = np.zeros_like(data["c"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewClustersWarning)
        result = ENTRY_POINTS[name](data)
    assert result is not None


def test_the_messages_say_why_and_the_fix() -> None:
    data = _ratings(3)
    with pytest.warns(FewClustersWarning) as robust:
        wk.kappa_test(data["a"], data["b"], cluster=data["task"])
    assert str(robust[0].message) == (
        "Only 3 clusters: with fewer than 8 clusters the cluster-robust interval and p-value "
        "(t with 2 degrees of freedom) cover less than their level says, and a cluster "
        "bootstrap has only 10 distinct resamples of 3 clusters. Hint: use 8 or more "
        "clusters, or report the number of clusters beside the result."
    )
    with pytest.warns(FewClustersWarning) as resampled:  # paired_kappa_test's, rater_vs_panel's
        warn_few_clusters(3, resampled=True)
    assert str(resampled[0].message).startswith(
        "Only 3 clusters: the cluster bootstrap has only 10 distinct resamples of 3 clusters, "
        "and with fewer than 8 clusters its interval and p-value cover less"
    )
    with pytest.warns(FewClustersWarning, match=r"\(t with 1 degree of freedom\)"):
        warn_few_clusters(2)


def test_groups_warn_once_naming_how_many_have_few_clusters() -> None:
    """frames.kappa_by_group: one warning for all groups (not one per group); a group with a
    single cluster has an undefined standard error, interval and test, which a second warning
    names it for (as ``wkappa score --by --cluster`` does)."""
    data = _ratings(20)
    data["site"] = np.select([data["task"] < 3, data["task"] < 4], ["a", "b"], "c")
    with pytest.warns(FewClustersWarning) as caught:
        found = frames.kappa_by_group(
            pl.DataFrame(data), y_true="a", y_pred="b", by="site", cluster="task"
        )
    assert [str(w.message).split(":")[0] for w in caught] == [
        "1 of 3 groups have only 3 clusters",
        "by='site' group 'b' has a single cluster='task' cluster; a cluster-robust standard "
        "error needs at least 2, so its standard error, interval and test are undefined (its "
        "kappa is shown).",
    ]
    assert all(w.filename == __file__ for w in caught)
    lone = found.row(1, named=True)
    assert lone["site"] == "b" and lone["n_clusters"] == 1 and not math.isnan(lone["kappa"])
    assert all(math.isnan(lone[c]) for c in ("standard_error", "ci_low", "test_statistic"))
    with pytest.warns(FewClustersWarning, match="2 of 4 groups have only 2 to 5 clusters:"):
        warn_few_clusters([2, 1, 5, 30])
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewClustersWarning)
        warn_few_clusters([1, 8, 40])
        warn_few_clusters(1)


def test_explain_says_so() -> None:
    data = _ratings(4)
    with pytest.warns(FewClustersWarning):
        result = wk.kappa_test(data["a"], data["b"], cluster=data["task"])
    with pytest.warns(FewClustersWarning):
        paired = wk.paired_kappa_test(
            data["a"], data["b"], data["c"], cluster=data["task"], n_resamples=99, rng=0
        )
    line = "  Very few clusters (G = 4 < 8): the cluster intervals and p-values cover less"
    assert line in result.explain()
    assert line in paired.explain()
    assert "35 distinct resamples" in paired.explain()
    assert few_clusters_text(MIN_CLUSTERS) is None and few_clusters_text(None) is None
    assert "Very few" not in wk.kappa_test(data["a"], data["b"]).explain()


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (["score", "--true", "a", "--pred", "b"], "the cluster-robust interval"),
        (["compare", "--true", "a", "--pred", "b", "--pred", "c"], "the cluster bootstrap"),
        (["judge", "--candidate", "c", "--raters", "a,b"], "the cluster bootstrap"),
        (["agree", "--raters", "a,b,c"], "the cluster-robust interval"),
    ],
)
def test_cli_warns_on_one_line_of_stderr(tmp_path, capsys, command, words) -> None:
    for n_clusters, expected in ((MIN_CLUSTERS - 1, 1), (MIN_CLUSTERS, 0)):
        path = tmp_path / f"g{n_clusters}.csv"
        pl.DataFrame(_ratings(n_clusters)).write_csv(path)
        argv = [command[0], str(path), *command[1:], "--cluster", "task"]
        if command[0] in ("compare", "judge"):
            argv += ["--bootstrap", "99", "--seed", "0"]
        assert main(argv) == 0
        lines = [line for line in capsys.readouterr().err.splitlines() if "clusters" in line]
        assert len(lines) == expected, lines
        if expected:
            assert lines[0].startswith(f"wkappa: warning: Only {n_clusters} clusters: "), lines
            assert words in lines[0] and lines[0].endswith("beside the result.")


def test_the_threshold_is_where_coverage_falls_short() -> None:
    """The rule's numbers: 8 clusters; the distinct resamples are C(2G - 1, G)."""
    assert MIN_CLUSTERS == 8
    for g in range(2, MIN_CLUSTERS):
        distinct = f"{math.comb(2 * g - 1, g):,}"
        with pytest.warns(FewClustersWarning, match=f"only {distinct} distinct resamples of {g} "):
            warn_few_clusters(g, resampled=True)


def test_score_by_warns_once_for_all_groups_with_few_clusters(tmp_path, capsys) -> None:
    """`score --by --cluster`: one line naming how many groups have few clusters (as
    frames.kappa_by_group) and which, and one for the overall result if it has few too."""
    frames_ = []
    for site, g in (("north", 3), ("south", 5), ("east", 9)):
        part = pl.DataFrame(_ratings(g)).with_columns(
            pl.lit(site).alias("site"), (pl.col("task").cast(pl.String) + site).alias("task")
        )
        frames_.append(part)
    path = tmp_path / "sites.csv"
    pl.concat(frames_).write_csv(path)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--by", "site", "--cluster", "task"]
    # (--pooling chosen: without it a note on the pooling is printed too, tested elsewhere)
    assert main([*argv, "--pooling", "inverse-variance"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "clusters" in line]
    assert lines == [
        "wkappa: warning: 2 of 3 groups ('north', 'south') have only 3 to 5 clusters: with fewer "
        "than 8 clusters the cluster-robust interval and p-value (t with 2 degrees of freedom) "
        "cover less than their level says. Hint: use 8 or more clusters, or report the number "
        "of clusters beside the result."
    ], lines
