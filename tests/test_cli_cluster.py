"""``--cluster COL`` on the command line: ``score``, ``compare``, ``agree`` and ``judge`` give
the numbers of the Python API's ``cluster=`` on the same rows (CSV and Parquet), and refuse a
missing id, a single cluster and a cluster column that is also read as ratings in one line
with exit code 2."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli import main
from wkappa.exceptions import FewClustersWarning

pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")


def _design(seed: int = 0, n_clusters: int = 24, size: int = 4) -> dict[str, np.ndarray]:
    """Clustered ratings: the items of one cluster share a grade, so they agree together."""
    rng = np.random.default_rng(seed)
    task = np.repeat(np.arange(n_clusters), size)
    level = np.repeat(rng.integers(0, 5, n_clusters), size)
    n = task.size

    def rater(spread: int) -> np.ndarray:
        return np.clip(level + rng.integers(-spread, spread + 1, n), 0, 4)

    return {
        "task": task,
        "name": np.array([f"t{t}" for t in task]),  # text ids: "t10" sorts before "t2"
        "truth": rater(1),
        "a": rater(1),
        "b": rater(2),
        "c": rater(1),
        "site": np.where(task < n_clusters // 2, "north", "south"),
        "w": rng.integers(1, 4, n).astype(np.float64),
    }


@pytest.fixture(scope="module")
def data():
    return _design()


@pytest.fixture(scope="module", params=["csv", "parquet"])
def path(request, tmp_path_factory, data):
    frame = pl.DataFrame(data)
    where = tmp_path_factory.mktemp("cluster") / f"clustered.{request.param}"
    frame.write_csv(where) if request.param == "csv" else frame.write_parquet(where)
    return str(where)


# Each command on the fixture's file, without --cluster.
COMMANDS = {
    "score": ["--true", "truth", "--pred", "a"],
    "compare": ["--true", "truth", "--pred", "a", "--pred", "b", "--bootstrap", "99"],
    "judge": ["--raters", "a,b,c", "--candidate", "truth", "--bootstrap", "99"],
    "agree": ["--raters", "a,b,c"],
}


@pytest.mark.parametrize(
    ("command", "extra", "message"),
    [
        ("score", ["--cluster", "truth"], "--cluster names the --true column 'truth'"),
        ("score", ["--cluster", "w", "--weight-col", "w"],
         "--cluster names the --weight-col column 'w'"),
        ("score", ["--cluster", "site", "--by", "site"],
         "--by and --cluster name the same column 'site'"),
        ("score", ["--cluster", "task", "--ci-method", "score"],
         "--ci-method score does not apply with --cluster"),
        ("score", ["--cluster", "task", "--ci-method", "fisher-z"],
         "--ci-method fisher-z does not apply with --cluster"),
        ("compare", ["--cluster", "a"], "--cluster names the --pred column 'a'"),
        ("compare", ["--cluster", "truth"], "--cluster names the --true column 'truth'"),
        ("judge", ["--cluster", "a"], "--cluster names the --raters column 'a'"),
        ("judge", ["--cluster", "truth"], "--cluster names the --candidate column 'truth'"),
        ("agree", ["--cluster", "a"], "--cluster names the --raters column 'a'"),
        *((command, ["--cluster", "nope"], "has no column 'nope' (given to --cluster)")
          for command in ("score", "compare", "judge", "agree")),
    ],
)  # fmt: skip
def test_cluster_refusals(path, capsys, command, extra, message):
    assert message in refusal(capsys, [command, path, *COMMANDS[command], *extra])


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_json_fields_add_only_the_cluster(path, capsys, command):
    argv = [command, path, *COMMANDS[command]]
    plain = json_output(capsys, argv)
    clustered = json_output(capsys, [*argv, "--cluster", "task"])
    assert set(clustered) - set(plain) == {"cluster", "n_clusters"}
    assert set(plain) <= set(clustered)
    assert clustered["n_clusters"] == 24


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("score", ["clusters           task (G = 24)", "cluster-robust over 24 clusters",
                   "p from t with 23 df"]),
        ("compare", ["clusters  task (G = 24), resampled whole",
                     "paired cluster bootstrap, 99 resamples"]),
        ("judge", ["clusters      task (G = 24), resampled whole",
                   "cluster bootstrap, 99 resamples"]),
        ("agree", ["cluster-robust over 24 clusters"]),
    ],
)  # fmt: skip
def test_text_names_the_clusters(path, capsys, command, shown):
    assert main([command, path, *COMMANDS[command], "--cluster", "task", "--quiet"]) == 0
    out = capsys.readouterr().out
    for line in shown:
        assert line in out


# --------------------------------------------------------------------------- score


def _same(document: dict, result, ci) -> None:
    assert document["statistic"] == result.statistic
    assert document["standard_error"] == result.standard_error
    assert document["standard_error_null"] == result.standard_error_null
    assert document["test_statistic"] == result.test_statistic
    assert document["test_distribution"] == "t" == result.test_distribution
    assert document["test_df"] == result.n_clusters - 1 == result.test_df
    assert document["pvalue"] == result.pvalue
    assert document["n_clusters"] == result.n_clusters
    assert document["n"] == result.n
    interval = document["confidence_interval"]
    assert (interval["low"], interval["high"]) == (ci.low, ci.high)
    assert interval["method"] == ci.method


@pytest.mark.parametrize("ids", ["task", "name"])
def test_score_is_kappa_test_with_cluster(path, data, capsys, ids):
    document = json_output(
        capsys, ["score", path, "--true", "truth", "--pred", "a", "--cluster", ids]
    )
    expected = wk.kappa_test(data["truth"], data["a"], cluster=data[ids])
    _same(document, expected, expected.confidence_interval())
    assert document["cluster"] == ids and document["n_clusters"] == 24
    naive = wk.kappa_test(data["truth"], data["a"])
    assert document["standard_error"] != naive.standard_error  # the clusters count


def test_score_notes_clusters_of_a_single_pair(tmp_path, capsys):
    """A --cluster column with one row per id (one eye per patient, or an eye's id given for
    the patient's) was taken without a word: its "cluster-robust over 30 clusters" is the
    ordinary standard error times sqrt(n / (n - 1)); a note says so (not with --weight-col,
    where one row per cluster is the sandwich of weighted pairs)."""
    rng = np.random.default_rng(4)
    a = rng.integers(0, 5, 30)
    b = np.clip(a + rng.integers(-1, 2, 30), 0, 4)
    path = tmp_path / "eyes.csv"
    rows = [f"P{i:03d},{x},{y}" for i, (x, y) in enumerate(zip(a, b, strict=True))]
    path.write_text("patient,a,b\n" + "\n".join(rows) + "\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--cluster", "patient"]
    document = json_output(capsys, [*argv, "--format", "json"])
    naive = wk.kappa_test(a, b)
    assert document["standard_error"] == pytest.approx(naive.standard_error * math.sqrt(30 / 29))
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "note: each of the 30 clusters of --cluster patient holds a single pair" in err
    assert "--cluster should name the column of its id" in err
    path.write_text("patient,a,b,w\n" + "\n".join(f"{r},2" for r in rows) + "\n")
    assert main([*argv, "--weight-col", "w"]) == 0
    assert "single pair" not in capsys.readouterr().err
    two = "\n".join(f"P{i // 2:03d},{x},{y}" for i, (x, y) in enumerate(zip(a, b, strict=True)))
    path.write_text("patient,a,b\n" + two + "\n")
    assert main(argv) == 0
    assert "single pair" not in capsys.readouterr().err


def test_score_cluster_bootstrap_is_the_api_one(path, data, capsys):
    argv = ["score", path, "--true", "truth", "--pred", "b", "--cluster", "name", "--weights",
            "linear", "--bootstrap", "299", "--seed", "5", "--bootstrap-method", "bca",
            "--alternative", "greater", "--kappa0", "0.2"]  # fmt: skip
    document = json_output(capsys, argv)
    expected = wk.kappa_test(
        data["truth"], data["b"], cluster=data["name"], weights="linear",
        alternative="greater", kappa0=0.2,
    )  # fmt: skip
    method = wk.BootstrapMethod(299, method="bca", rng=5)
    _same(document, expected, expected.confidence_interval(0.95, method=method))
    assert document["confidence_interval"]["n_resamples"] == 299


def test_score_by_groups_are_clustered_within_each_group(path, data, capsys):
    argv = ["score", path, "--true", "truth", "--pred", "a", "--cluster", "task", "--by", "site"]
    document = json_output(capsys, argv)
    for group in document["groups"]:
        rows = data["site"] == group["group"]
        expected = wk.kappa_test(data["truth"][rows], data["a"][rows], cluster=data["task"][rows])
        _same(group, expected, expected.confidence_interval())
        assert group["n_clusters"] == 12


def test_score_weight_column_with_cluster(path, data, capsys):
    argv = ["score", path, "--true", "truth", "--pred", "a", "--cluster", "task",
            "--weight-col", "w"]  # fmt: skip
    document = json_output(capsys, argv)
    expected = wk.kappa_test(
        data["truth"], data["a"], cluster=data["task"], sample_weight=data["w"]
    )
    # The weights are summed per distinct row first: equal up to the order of the sums.
    for key in ("statistic", "standard_error", "pvalue"):
        assert document[key] == pytest.approx(getattr(expected, key), rel=1e-12)
    assert document["n_clusters"] == expected.n_clusters


def test_score_omitted_rows_drop_their_clusters(tmp_path, capsys):
    # Cluster 3 has no complete pair: it is not a cluster of the test (as in Python).
    path = tmp_path / "gaps.csv"
    path.write_text("g,x,y\n1,1,1\n1,2,2\n2,2,1\n2,3,3\n3,,1\n3,2,\n4,1,2\n4,3,3\n")
    document = json_output(
        capsys, ["score", str(path), "--true", "x", "--pred", "y", "--cluster", "g",
                 "--nan-policy", "omit"],
    )  # fmt: skip
    x = np.array([1, 2, 2, 3, np.nan, 2, 1, 3])
    y = np.array([1, 2, 1, 3, 1, np.nan, 2, 3])
    with pytest.warns(FewClustersWarning, match="Only 3 clusters"):
        expected = wk.kappa_test(x, y, cluster=[1, 1, 2, 2, 3, 3, 4, 4], nan_policy="omit")
    _same(document, expected, expected.confidence_interval())
    assert document["n_clusters"] == 3 and document["rows_dropped"] == 2


def test_score_by_with_clusters_pools_as_stratified_kappa_test(path, data, capsys):
    """The summary across --by groups with --cluster is wkappa.stratified_kappa_test(...,
    cluster=...): each group weighted by its cluster-robust variance (it was left out)."""
    argv = ["score", path, "--true", "truth", "--pred", "a", "--cluster", "task", "--by", "site"]
    across = json_output(capsys, argv)["across_groups"]
    expected = wk.stratified_kappa_test(
        data["truth"], data["a"], strata=data["site"], cluster=data["task"],
        pooling="inverse-variance",
    )  # fmt: skip
    for key in ("statistic", "standard_error", "homogeneity_statistic", "homogeneity_pvalue"):
        assert across[key] == pytest.approx(getattr(expected, key), rel=1e-12), key
    low, high = expected.confidence_interval()
    interval = across["confidence_interval"]
    assert (interval["low"], interval["high"]) == pytest.approx((low, high), rel=1e-12)
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "(inverse-variance weighted, as SAS PROC FREQ, with each group's cluster-robust " in (
        text
    )
    assert f"kappa {expected.statistic:.4f}, SE {expected.standard_error:.4f}" in text


def test_score_by_with_a_cluster_in_two_groups_says_why_there_is_no_summary(tmp_path, capsys):
    path = tmp_path / "cross.csv"
    rows = [f"{s},{s}{i // 2},{i % 3},{(i + i // 3) % 3}" for s in "AB" for i in range(12)]
    rows[0] = "A,B1,0,0"  # patient B1 has rows at site A and at site B
    path.write_text("site,patient,x,y\n" + "\n".join(rows) + "\n")
    argv = ["score", str(path), "--true", "x", "--pred", "y", "--by", "site",
            "--cluster", "patient"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "(No summary across site: cluster 'B1' of patient has rows in site 'A' and 'B'" in out
    assert "Across site" not in out
    assert "across_groups" not in json_output(capsys, [*argv, "--format", "json"])


def test_score_csv_has_n_clusters(path, capsys):
    argv = ["score", path, "--true", "truth", "--pred", "a", "--cluster", "task", "--format", "csv"]
    assert main(argv) == 0
    header, row = capsys.readouterr().out.strip().splitlines()
    assert header.split(",")[-1] == "n_clusters" and row.split(",")[-1] == "24"


def test_score_names_the_t_statistic_t_in_json_and_csv(path, data, capsys):
    """With --cluster the test statistic is referred to t(G - 1): the text heads it 't', but
    the JSON field was 'zscore'. JSON and CSV name it test_statistic, with its distribution
    ('t' with --cluster, 'normal' without) and df (G - 1, or none), as to_dict() does; the
    columns are the same with and without --cluster."""
    argv = ["score", path, "--true", "truth", "--pred", "a", "--by", "site"]
    assert main([*argv, "--cluster", "task", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    for summary in [document, *document["groups"]]:
        assert "zscore" not in summary
        assert summary["test_distribution"] == "t"
        assert summary["test_df"] == summary["n_clusters"] - 1
    result = wk.kappa_test(data["truth"], data["a"], cluster=data["task"])
    assert {k: document[k] for k in ("test_statistic", "test_distribution", "test_df")} == {
        k: result.to_dict()[k] for k in ("test_statistic", "test_distribution", "test_df")
    }
    assert main([*argv, "--cluster", "task", "--format", "csv"]) == 0
    clustered = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["test_distribution"] for row in clustered} == {"t"}
    assert clustered[-1]["test_df"] == str(int(clustered[-1]["n_clusters"]) - 1)
    assert main([*argv, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["test_distribution"] for row in rows} == {"normal"}
    assert {row["test_df"] for row in rows} == {""}
    assert [*rows[0]] == [*clustered[0]][: len(rows[0])]


def test_score_refuses_a_missing_id_and_a_single_cluster(tmp_path, capsys):
    path = tmp_path / "ids.csv"
    path.write_text("g,x,y,s\n1,1,1,p\n,2,2,p\n2,1,2,q\n2,2,2,q\n")
    err = refusal(capsys, ["score", str(path), "--true", "x", "--pred", "y", "--cluster", "g"])
    assert "--cluster column 'g' has a missing id" in err
    path.write_text("g,x,y,s\n1,1,1,p\n1,2,2,p\n1,1,2,q\n1,2,2,q\n")
    err = refusal(capsys, ["score", str(path), "--true", "x", "--pred", "y", "--cluster", "g"])
    assert "--cluster column 'g' has 1 cluster;" in err


def test_score_by_group_with_a_single_cluster_is_undefined_as_in_frames(tmp_path, capsys):
    """A --by group with one cluster: its kappa is defined, its cluster-robust SE, interval
    and test are not (null in JSON, empty in CSV), with one warning naming it; exit 0. As
    frames.kappa_by_group(cluster=) shows that group (the run was refused before)."""
    path = tmp_path / "lone.csv"
    path.write_text(
        "g,x,y,s\n1,1,1,p\n1,2,2,p\n2,1,2,p\n2,2,2,p\n2,3,3,p\n"
        "3,1,1,q\n3,2,2,q\n3,3,2,q\n3,1,1,q\n4,1,1,r\n4,2,3,r\n5,3,3,r\n"
    )
    argv = ["score", str(path), "--true", "x", "--pred", "y", "--cluster", "g", "--by", "s"]
    for extra in ([], ["--bootstrap", "99", "--seed", "1"]):
        assert main([*argv, *extra, "--format", "json"]) == 0
        captured = capsys.readouterr()
        assert [line for line in captured.err.splitlines() if "single" in line] == [
            "wkappa: warning: --by s group 'q' has a single --cluster g cluster; a cluster-robust "
            "standard error needs at least 2, so its standard error, interval and test are "
            "undefined (its kappa is shown)."
        ]
        groups = {g["group"]: g for g in json.loads(captured.out)["groups"]}
        lone = groups["q"]
        assert lone["statistic"] == 0.75 and lone["n_clusters"] == 1
        for key in ("standard_error", "standard_error_null", "test_statistic", "pvalue"):
            assert lone[key] is None, key
        assert lone["confidence_interval"]["low"] is None
        assert lone["confidence_interval"]["high"] is None
        assert groups["p"]["standard_error"] is not None
    frame = pl.read_csv(path, schema_overrides={"g": pl.String})
    with pytest.warns(FewClustersWarning) as caught:
        expected = frames.kappa_by_group(frame, y_true="x", y_pred="y", by="s", cluster="g")
    assert [str(w.message).split(":")[0] for w in caught] == [
        "2 of 3 groups have only 2 clusters",
        "by='s' group 'q' has a single cluster='g' cluster; a cluster-robust standard error "
        "needs at least 2, so its standard error, interval and test are undefined (its kappa "
        "is shown).",
    ]
    assert main([*argv, "--format", "csv", "--quiet"]) == 0
    rows = pl.read_csv(capsys.readouterr().out.encode()).head(3)
    assert rows["statistic"].to_list() == expected["kappa"].to_list()
    assert rows["n_clusters"].to_list() == expected["n_clusters"].to_list() == [2, 1, 2]
    for ours, theirs in (("standard_error", "standard_error"), ("ci_low", "ci_low")):
        assert rows[ours].to_list()[::2] == pytest.approx(expected[theirs].to_list()[::2])
        assert rows[ours][1] is None and math.isnan(expected[theirs][1])
    assert rows["test_statistic"][1] is None and rows["pvalue"][1] is None
    # Two such groups: one warning naming both.
    path.write_text(path.read_text() + "6,1,1,t\n6,2,2,t\n")
    assert main([*argv, "--format", "csv"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if "single" in line] == [
        "wkappa: warning: 2 --by s groups ('q', 't') have a single --cluster g cluster each; a "
        "cluster-robust standard error needs at least 2, so their standard error, interval and "
        "test are undefined (their kappa is shown)."
    ]


# --------------------------------------------------------------------------- compare


def test_compare_is_paired_kappa_test_with_cluster(path, data, capsys):
    argv = ["compare", path, "--true", "truth", "--pred", "a", "--pred", "b", "--cluster",
            "name", "--bootstrap", "499", "--seed", "2", "--alternative", "greater"]  # fmt: skip
    document = json_output(capsys, argv)
    expected = wk.paired_kappa_test(
        data["truth"], data["a"], data["b"], cluster=data["name"], n_resamples=499, rng=2,
        alternative="greater",
    )  # fmt: skip
    for key, value in expected.to_dict().items():
        if key != "labels":  # the API's range, the document's list
            assert document[key] == value, key
    assert document["cluster"] == "name" and document["n_clusters"] == 24
    plain = json_output(capsys, argv[:8] + argv[10:])
    assert set(document) - set(plain) == {"cluster", "n_clusters"}
    assert document["confidence_interval"] != plain["confidence_interval"]


def test_compare_refuses_a_missing_id_and_a_single_cluster(tmp_path, capsys):
    path = tmp_path / "ids.csv"
    argv = ["compare", str(path), "--true", "x", "--pred", "y", "--pred", "z", "--cluster", "g"]
    path.write_text("g,x,y,z\n1,1,1,2\n,2,2,2\n2,1,2,1\n2,2,2,2\n")
    assert "--cluster column 'g' has a missing id" in refusal(capsys, argv)
    path.write_text("g,x,y,z\n1,1,1,2\n1,2,2,2\n1,1,2,1\n1,2,2,2\n")
    assert "--cluster column 'g' has 1 cluster;" in refusal(capsys, argv)


# --------------------------------------------------------------------------- judge


@pytest.fixture(scope="module")
def long_path(tmp_path_factory, data):
    """The same ratings as a long export: one row per (item, rater), the cluster on each."""
    n = data["task"].size
    rows = [(i, rater, int(data[rater][i]), data["name"][i]) for i in range(n)
            for rater in ("truth", "a", "b", "c")]  # fmt: skip
    frame = pl.DataFrame(rows, schema=["item", "rater", "grade", "group"], orient="row")
    where = tmp_path_factory.mktemp("cluster_long") / "long.csv"
    frame.write_csv(where)
    return str(where)


def _panel(data):
    return np.column_stack([data["a"], data["b"], data["c"]])


def test_judge_is_rater_vs_panel_with_cluster(path, long_path, data, capsys):
    expected = wk.rater_vs_panel(
        _panel(data), data["truth"], cluster=data["name"], n_resamples=399, rng=4
    )
    ci = expected.confidence_interval()
    wide = ["judge", path, "--raters", "a,b,c", "--candidate", "truth", "--cluster", "name"]
    long = ["judge", long_path, "--item", "item", "--rater", "rater", "--rating", "grade",
            "--candidate", "truth", "--cluster", "group"]  # fmt: skip
    for argv in (wide, long):
        document = json_output(capsys, [*argv, "--bootstrap", "399", "--seed", "4"])
        assert document["difference"] == pytest.approx(expected.difference, abs=1e-15)
        assert document["pvalue"] == expected.pvalue
        found = document["confidence_interval"]
        assert (found["low"], found["high"]) == pytest.approx((ci.low, ci.high), abs=1e-15)
        assert document["n_clusters"] == 24 and document["n_items"] == 96


def test_judge_long_refusals(tmp_path, capsys):
    path = tmp_path / "long.csv"
    argv = ["judge", str(path), "--item", "i", "--rater", "r", "--rating", "y",
            "--candidate", "j"]  # fmt: skip
    path.write_text("i,r,y,g\n1,a,1,x\n1,b,1,x\n1,j,1,y\n2,a,2,y\n2,b,2,y\n2,j,1,y\n")
    err = refusal(capsys, [*argv, "--cluster", "g"])
    assert "Item 1 has ratings in two clusters of the --cluster column 'g'" in err
    assert "--cluster names the --item column 'i'" in refusal(capsys, [*argv, "--cluster", "i"])
    path.write_text("i,r,y,g\n1,a,1,x\n1,b,1,x\n1,j,1,x\n2,a,2,x\n2,b,2,x\n2,j,1,x\n")
    assert "--cluster column 'g' has 1 cluster;" in refusal(capsys, [*argv, "--cluster", "g"])
    path.write_text("i,r,y,g\n1,a,1,x\n1,b,1,x\n1,j,1,\n2,a,2,z\n2,b,2,z\n2,j,1,z\n")
    assert "--cluster column 'g' has a missing id" in refusal(capsys, [*argv, "--cluster", "g"])


# --------------------------------------------------------------------------- agree


def test_agree_is_agreement_with_cluster(path, data, capsys):
    argv = ["agree", path, "--raters", "a,b,c", "--cluster", "name", "--coefficient", "gwet"]
    document = json_output(capsys, argv)
    expected = wk.agreement(_panel(data), coefficient="gwet", cluster=data["name"])
    assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-15)
    assert document["standard_error"] == pytest.approx(expected.standard_error, rel=1e-12)
    assert document["n_clusters"] == expected.n_clusters == 24


def test_score_report_says_the_se_is_cluster_robust(path, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    report = tmp_path / "report.html"
    argv = ["score", path, "--true", "truth", "--pred", "a", "--cluster", "task", "--quiet"]
    assert main([*argv, "--report", str(report)]) == 0
    page = report.read_text()
    assert "cluster-robust, 24 clusters" in page and "t with G - 1 df" in page
    assert "Fleiss, Cohen &amp; Everitt" not in page


def test_score_names_the_clustered_test_statistic_t(path, capsys, tmp_path):
    """(kappa - kappa0) / SE with the cluster-robust SE is referred to t(G - 1): the text
    output, its groups table, --explain and the report call it t, not z."""
    argv = ["score", path, "--true", "truth", "--pred", "a", "--cluster", "task", "--quiet"]
    assert main([*argv, "--by", "site", "--explain"]) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:1] == ["t"] and "p from t with 23 df" in line
               for line in out.splitlines()), out  # fmt: skip
    assert "z" not in next(line for line in out.splitlines() if line.startswith("  site "))
    assert "Wald t = (kappa - kappa0) / SE" in out and "from t(23)" in out
    assert "Wald z" not in out
    report = tmp_path / "r.html"
    assert main([*argv, "--report", str(report)]) == 0
    html = report.read_text()
    assert '<div class="label">t</div>' in html and '<div class="label">z</div>' not in html
    assert "Wald z" not in html
    unclustered = ["score", path, "--true", "truth", "--pred", "a", "--quiet"]
    assert main(unclustered) == 0
    assert any(line.split()[:1] == ["z"] for line in capsys.readouterr().out.splitlines())


def test_score_by_with_clusters_names_a_group_of_one_cluster_left_out(tmp_path, capsys):
    path = tmp_path / "sites.csv"
    rows = [f"{s},{s}{i // 2},{i % 3},{(i + i // 3) % 3}" for s in "AB" for i in range(16)]
    rows += ["C,C0,0,0", "C,C0,1,2", "C,C0,2,2"]  # site C: one patient
    path.write_text("site,patient,x,y\n" + "\n".join(rows) + "\n")
    argv = ["score", str(path), "--true", "x", "--pred", "y", "--by", "site",
            "--cluster", "patient"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "group 'C' has a single --cluster patient cluster" in err
    assert "Across site (inverse-variance weighted" in out
    assert "(left out, undefined kappa, SE 0 or a single cluster: C)" in out
