"""``--cluster`` on messy real files, as a clinical researcher, an annotation lead and a
modeller export them: CRLF line ends, a header with spaces, ``NA`` / ``N/A`` with stray
spaces, cluster ids stored as floats (``1.0``) or strings, a cluster column named like an
option. The numbers are the Python API's on the same rows; a refusal is one line on stderr,
exit code 2, in the command line's words."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli import main
from wkappa.exceptions import FewClustersWarning

pytest.importorskip("polars")


def _eyes() -> dict[str, np.ndarray]:
    """Two readers grade both eyes of 60 patients (the designs page's example)."""
    rng = np.random.default_rng(2024)
    patient = np.repeat(np.arange(60), 2)
    severity = np.repeat(rng.integers(0, 5, 60), 2)
    a = np.clip(severity + rng.integers(-1, 2, 120), 0, 4).astype(np.float64)
    b = np.clip(severity + rng.integers(-1, 2, 120), 0, 4).astype(np.float64)
    a[5], b[17] = np.nan, np.nan
    return {"patient": patient, "a": a, "b": b}


def _cell(value: float, i: int) -> str:
    if np.isnan(value):
        return " N/A " if i % 2 else "NA"  # R's NA, and a spreadsheet's padded N/A
    return f" {value:g} " if i % 7 == 0 else f"{value:g}"


@pytest.fixture
def eyes(tmp_path):
    data = _eyes()
    lines = ["Patient ID,eye, Reader A ,Reader B"]
    for i in range(120):
        patient = f"{float(data['patient'][i] + 1)}"  # ids exported as floats: 1.0, 2.0
        lines.append(f"{patient},{'LR'[i % 2]},{_cell(data['a'][i], i)},{_cell(data['b'][i], i)}")
    path = tmp_path / "eyes.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return str(path), data


def test_score_cluster_on_a_messy_export_is_kappa_test_cluster(capsys, eyes):
    """' N/A ' with spaces was 'the unparsable value'; it is missing as 'NA' is, and the
    cluster-robust numbers are kappa_test(cluster=) on the same 118 rows over 60 patients."""
    path, data = eyes
    argv = ["score", path, "--true", "Reader A", "--pred", "Reader B"]
    got = json_output(capsys, [*argv, "--cluster", "Patient ID", "--nan-policy", "omit"])
    want = wk.kappa_test(data["a"], data["b"], cluster=data["patient"], nan_policy="omit")
    assert (got["rows_read"], got["rows_used"], got["n_clusters"]) == (120, 118, 60)
    assert got["statistic"] == pytest.approx(want.statistic, abs=1e-12)
    assert got["standard_error"] == pytest.approx(want.standard_error, rel=1e-10)
    assert got["pvalue"] == pytest.approx(want.pvalue, rel=1e-8)
    low, high = want.confidence_interval()
    interval = got["confidence_interval"]
    assert (interval["low"], interval["high"]) == pytest.approx((low, high), rel=1e-10)


def test_spaced_missing_spellings_are_missing_in_icc(capsys, tmp_path):
    """'1, NA ,3' (R's write.table with padding) was refused as an unparsable value."""
    path = tmp_path / "icc.csv"
    path.write_text("subj,r1,r2,r3\n1,3, NA ,3\n2,4,4,NA \n3,1,2,2\n4,5,4,5\n5,2,2,3\n")
    got = json_output(capsys, ["icc", str(path), "--raters", "r1,r2,r3", "--form", "A,1"])
    ratings = np.array([[3, np.nan, 3], [4, 4, np.nan], [1, 2, 2], [5, 4, 5], [2, 2, 3]])
    want = wk.icc(ratings, form="A,1")
    assert got["n_ratings"] == 13
    assert got["icc"]["A,1"]["statistic"] == pytest.approx(want.statistic, rel=1e-10)


@pytest.mark.parametrize("command", ["score", "compare", "agree", "judge"])
def test_a_missing_cluster_id_is_refused_in_the_command_lines_words(capsys, tmp_path, command):
    """The refusal named Python's None/NaN and told a file's user to 'drop those rows'."""
    path = tmp_path / "gaps.csv"
    rows = ["task,a,b,c"] + [f"t{i // 3},{i % 3},{(i + i // 4) % 3},{i % 2}" for i in range(24)]
    rows[5] = ",1,1,1"
    path.write_text("\n".join(rows) + "\n")
    argv = {
        "score": ["--true", "a", "--pred", "b"],
        "compare": ["--true", "a", "--pred", "b", "--pred", "c"],
        "agree": ["--raters", "a,b,c"],
        "judge": ["--raters", "a,b", "--candidate", "c"],
    }[command]
    err = refusal(capsys, [command, str(path), *argv, "--cluster", "task"])
    assert "--cluster column 'task' has a missing id (an empty cell)" in err
    assert "None" not in err and "NaN" not in err and "fill it in" in err


def test_a_cluster_column_named_like_an_option(capsys, tmp_path):
    """A column called '--by' is given as --cluster=--by (argparse takes '--cluster --by' as
    a missing value); compare's cluster bootstrap is paired_kappa_test(cluster=) for the seed."""
    rng = np.random.default_rng(7)
    task = np.repeat([f"task-{t:02d}" for t in range(20)], 4)
    human = np.clip(np.repeat(rng.integers(1, 6, 20), 4) + rng.integers(-1, 2, 80), 1, 5)
    a = np.clip(human + rng.integers(0, 2, 80) * (rng.random(80) < 0.3), 1, 5)
    b = np.clip(human + rng.integers(-1, 2, 80) * (rng.random(80) < 0.5), 1, 5)
    path = tmp_path / "tasks.csv"
    rows = ["--by,human,a,b"] + [f"{task[i]},{human[i]},{a[i]},{b[i]}" for i in range(80)]
    path.write_text("\n".join(rows) + "\n")
    argv = ["compare", str(path), "--true", "human", "--pred", "a", "--pred", "b"]
    got = json_output(capsys, [*argv, "--cluster=--by", "--bootstrap", "499", "--seed", "3"])
    want = wk.paired_kappa_test(human, a, b, cluster=task, n_resamples=499, rng=3)
    assert got["n_clusters"] == 20
    assert got["difference"] == pytest.approx(want.difference, abs=1e-12)
    assert got["pvalue"] == pytest.approx(want.pvalue, rel=1e-10)


def _folds(n_folds: int, n: int = 400):
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 5, n)
    a = np.clip(truth + rng.integers(-1, 2, n), 0, 4)
    b = np.clip(truth + rng.integers(-2, 3, n), 0, 4)
    return truth, a, b, np.arange(n) % n_folds


def test_explain_of_a_few_cluster_comparison_does_not_promise_more_resamples(tmp_path, capsys):
    """A Kaggle modeller clusters by 5 CV folds: the smallest p-value is that of 5 clusters
    (t with 4 df), 0.029 at 9999 resamples; explain() said 'draw more' as if the resamples
    set it. It now says what ten times as many would show, the command's --explain too."""
    truth, a, b, fold = _folds(5)
    with pytest.warns(FewClustersWarning, match="Only 5 clusters"):
        result = wk.paired_kappa_test(truth, a, b, cluster=fold, n_resamples=9999, rng=0)
    *_, last, very_few = result.explain().splitlines()
    assert "9999 resamples of 5 clusters can show (99999 would show 0.01" in last, last
    assert "draw more" not in last
    assert very_few.startswith("  Very few clusters (G = 5 < 8)")
    path = tmp_path / "oof.csv"
    table = zip(truth, a, b, fold, strict=True)
    rows = ["truth,a,b,fold"] + [f"{t},{x},{y},{f}" for t, x, y, f in table]
    path.write_text("\n".join(rows) + "\n")
    argv = ["compare", str(path), "--true", "truth", "--pred", "a", "--pred", "b"]
    assert main([*argv, "--cluster", "fold", "--seed", "0", "--explain", "--quiet"]) == 0
    assert last in capsys.readouterr().out


def test_explain_with_two_clusters_says_no_number_of_resamples_can_test():
    """With 2 clusters the floor is 0.126 however many resamples are drawn; explain() told
    the user to draw more to test at the 5% level."""
    truth, a, b, fold = _folds(2)
    with pytest.warns(FewClustersWarning, match="only 3 distinct resamples of 2 clusters"):
        result = wk.paired_kappa_test(truth, a, b, cluster=fold, n_resamples=999, rng=0)
    text = result.explain()
    assert "with 2 clusters no number of resamples can show a p-value below 0.05" in text
    assert "draw more" not in text


@pytest.mark.parametrize(
    ("folds", "note"),
    [
        (
            5,
            "<= 0.030  at the smallest p-value 9,999 resamples of 5 clusters can show "
            "(99,999 would show 0.019)",
        ),
        (
            2,
            "<= 0.232  at the smallest p-value 9,999 resamples of 2 clusters can show "
            "(99,999 would show 0.204)",
        ),
    ],
)
def test_compare_table_says_what_sets_the_pvalue_floor(tmp_path, capsys, folds, note):
    """compare --cluster's table said "the smallest a 9999-resample bootstrap shows" when the
    few clusters, not the resamples, set that floor (as explain() now says)."""
    truth, a, b, fold = _folds(folds)
    path = tmp_path / "oof.csv"
    table = zip(truth, a, b, fold, strict=True)
    path.write_text("\n".join(["truth,a,b,fold"] + [f"{t},{x},{y},{f}" for t, x, y, f in table]))
    argv = ["compare", str(path), "--true", "truth", "--pred", "a", "--pred", "b"]
    assert main([*argv, "--cluster", "fold", "--seed", "0", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert note in out, out
    assert "-resample bootstrap shows" not in out


def test_icc_explain_says_which_intervals_are_exact(capsys, tmp_path):
    """explain() (and wkappa icc --explain) called every interval 'exact F limits'; McGraw &
    Wong's absolute-agreement limits use Satterthwaite's df and REML's (missing ratings) df
    counted from the observed ratings, both approximate, as the ICC guide says."""
    rows = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    last = {form: wk.icc(rows, form=form).explain().splitlines()[-1] for form in ("C,1", "A,1")}
    assert last["C,1"].endswith("(exact F limits, McGraw & Wong 1996)")
    assert "approximate F limits with Satterthwaite's df" in last["A,1"]
    path = tmp_path / "icc.csv"
    path.write_text("subj,r1,r2,r3\n1,3, NA ,3\n2,4,4,NA \n3,1,2,2\n4,5,4,5\n5,2,2,3\n")
    argv = ["icc", str(path), "--raters", "r1,r2,r3", "--form", "C,1", "--explain", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "approximate F limits from the REML mean squares, df of the observed ratings" in out
    assert "exact F" not in out.splitlines()[-1]


def test_an_option_value_that_starts_with_a_dash_is_shown_how(capsys, tmp_path):
    """'--cluster --by' (a column named like an option) said only 'expected one argument'
    and pointed at --help, which does not say how to pass such a value."""
    path = tmp_path / "f.csv"
    path.write_text("--by,a,b\n1,1,1\n2,2,2\n")
    with pytest.raises(SystemExit) as stop:  # argparse's refusal, before main()'s own
        main(["score", str(path), "--true", "a", "--pred", "b", "--cluster", "--by"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "argument --cluster: expected one argument" in err
    assert "is given as --cluster=VALUE" in err


def test_panel_explain_states_its_null_hypothesis():
    """The last line read 'p-value of difference = 0 (two-sided) 0.3539'."""
    rng = np.random.default_rng(3)
    level = np.repeat(rng.integers(0, 3, 20), 3)
    ratings = np.stack([np.where(rng.random(60) < 0.75, level, rng.integers(0, 3, 60))
                        for _ in range(4)], axis=1)  # fmt: skip
    result = wk.rater_vs_panel(ratings[:, :3], ratings[:, 3], n_resamples=199, rng=0)
    last = result.explain().splitlines()[-1]
    assert f"p-value {result.pvalue:.4g} (H0: difference = 0, two-sided)" in last, last


def test_pvalue_floor_note_leaves_out_a_parenthesis_that_says_nothing():
    """'< 0.001 at the smallest p-value 9,999 resamples of 300 clusters can show (99,999
    would show < 0.001)': when ten times the resamples would show the same text, the
    parenthesis is left out; the count of clusters has thousands separators."""
    from wkappa._cli.output import bootstrap_pvalue

    shown, note = bootstrap_pvalue(0.0, 9999, 300, "greater", 300)
    assert shown == "< 0.001"
    assert note == "at the smallest p-value 9,999 resamples of 300 clusters can show"
    shown, note = bootstrap_pvalue(0.0, 9999, 50_000, "greater", 50_000)
    assert note == "at the smallest p-value 9,999 resamples of 50,000 clusters can show"
    shown, note = bootstrap_pvalue(0.0, 999, 5, "two-sided", 5)
    assert shown == "<= 0.051"
    assert note.endswith(" 999 resamples of 5 clusters can show (9,999 would show 0.029)")


def test_counts_have_thousands_separators_and_degrees_of_freedom_none(tmp_path, capsys):
    """Counts of clusters and the tables' totals carry thousands separators in the text and
    the report ('cluster-robust over 1,500 clusters', '3,000'), as every count; degrees of
    freedom are written in plain digits, as APA style writes them ('t(1499)', not
    't(1,499)')."""
    rng = np.random.default_rng(1)
    truth = rng.integers(1, 4, 3000)
    pred = np.where(rng.random(3000) < 0.7, truth, rng.integers(1, 4, 3000))
    path = tmp_path / "big.csv"
    rows = [f"{i // 2},{t},{p}" for i, (t, p) in enumerate(zip(truth, pred, strict=True))]
    path.write_text("g,t,p\n" + "\n".join(rows) + "\n")
    report = tmp_path / "r.html"
    argv = ["score", str(path), "--true", "t", "--pred", "p", "--cluster", "g"]
    assert main([*argv, "--report", str(report), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "(G = 1,500)" in text and "cluster-robust over 1,500 clusters" in text
    assert "p from t with 1499 df" in text and "1,499" not in text
    observed = text.split("Observed O")[1].split("Expected E")[0]
    assert "  total" in observed and "3,000" in observed.splitlines()[-2]
    assert "3,000.00" in text.split("Expected E")[1]
    page = report.read_text()
    assert "cluster-robust, 1,500 clusters" in page and "t(1499)" in page
    assert "1,499" not in page
    assert "<td>3,000</td>" in page and "1500" not in page and "3000" not in page


_COMMANDS = {
    "score": ["--true", "a", "--pred", "b", "--nan-policy", "omit"],
    "compare": ["--true", "a", "--pred", "b", "--pred", "c", "--nan-policy", "omit",
                "--bootstrap", "199", "--seed", "3"],
    "agree": ["--raters", "a,b,c"],
    "judge": ["--raters", "a,b", "--candidate", "c", "--bootstrap", "199", "--seed", "3"],
}  # fmt: skip


def _tasks(path, ids: dict[int, str], cells: dict[int, str]) -> str:
    """24 rows of three raters in 8 tasks; ``cells``: rows whose ratings are replaced,
    ``ids``: rows whose task id is replaced."""
    rows = [[f"t{i // 3}", f"{i % 3}", f"{(i + i // 4) % 3}", f"{i % 2}"] for i in range(24)]
    for i, text in cells.items():
        rows[i][1:] = text.split(",")
    for i, task in ids.items():
        rows[i][0] = task
    path.write_text("task,a,b,c\n" + "".join(",".join(row) + "\n" for row in rows))
    return str(path)


@pytest.mark.parametrize("command", list(_COMMANDS))
def test_a_dropped_rows_cluster_id_does_not_matter(capsys, tmp_path, command):
    """A row the run drops for a missing rating (no rating at all; for score and compare
    with --nan-policy omit, one missing) was refused for its missing --cluster id, which the
    Python API ignores: the results are those with the id filled in, whatever it is."""
    cells = {5: ",,", 11: "1,,"} if command in ("score", "compare") else {5: ",,"}
    documents = []
    for fill in ("", "t0", "elsewhere"):
        path = _tasks(tmp_path / f"tasks{fill}.csv", dict.fromkeys(cells, fill), cells)
        document = json_output(capsys, [command, path, *_COMMANDS[command], "--cluster", "task"])
        del document["file"]
        documents.append(document)
    assert documents[0] == documents[1] == documents[2]
    assert documents[0]["n_clusters"] == 8


@pytest.mark.parametrize("command", list(_COMMANDS))
def test_a_kept_rows_missing_cluster_id_is_refused_naming_its_row(capsys, tmp_path, command):
    """A row the run keeps (one rating is enough for agree and judge) still needs its id:
    the refusal names --cluster and the file row, not a dropped row before it."""
    cells = {2: ",,", 6: "1,1,"} if command in ("score", "compare") else {2: ",,", 6: ",,1"}
    path = _tasks(tmp_path / "tasks.csv", {2: "", 6: "", 9: ""}, cells)
    err = refusal(capsys, [command, path, *_COMMANDS[command], "--cluster", "task"])
    row = 10 if command == "compare" else 7  # compare drops row 7: its c is missing
    assert f"error: {path}, row {row}: --cluster column 'task' has a missing id" in err, err


@pytest.mark.parametrize("command", ["agree", "judge"])
def test_a_long_files_row_without_its_rating_needs_no_cluster_id(capsys, tmp_path, command):
    """The long layout: a row without its rating is left out, its --cluster id with it."""
    rows = [(f"i{i}", rater, (i + n * (i // 5)) % 3, f"t{i // 3}")
            for i in range(24) for n, rater in enumerate("abc")]  # fmt: skip
    argv = ["--item", "item", "--rater", "rater", "--rating", "grade", "--cluster", "task"]
    argv += ["--candidate", "c", "--bootstrap", "199", "--seed", "3"] if command == "judge" else []
    documents = []
    for fill in ("", "t0"):
        path = tmp_path / f"long{fill}.csv"
        lines = [f"{i},{r},{'' if k in (4, 40) else g},{fill if k in (4, 40) else t}"
                 for k, (i, r, g, t) in enumerate(rows)]  # fmt: skip
        path.write_text("item,rater,grade,task\n" + "\n".join(lines) + "\n")
        document = json_output(capsys, [command, str(path), *argv])
        del document["file"]
        documents.append(document)
    assert documents[0] == documents[1]
    lines[7] = lines[7].rsplit(",", 1)[0] + ","
    path.write_text("item,rater,grade,task\n" + "\n".join(lines) + "\n")
    err = refusal(capsys, [command, str(path), *argv])
    assert f"error: {path}, row 8: --cluster column 'task' has a missing id" in err, err
