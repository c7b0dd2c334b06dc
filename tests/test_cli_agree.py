"""``wkappa agree``: wide and long files, outputs and error rules (exit 2, one line)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main

pl = pytest.importorskip("polars")

# irrCAC's cac.raw4raters (R package irrCAC): 12 items, 4 raters, missing ratings.
ROWS = [
    [1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1],
    [None, None, 3, None],
]  # fmt: skip


@pytest.fixture
def files(tmp_path):
    wide = tmp_path / "wide.csv"
    long = tmp_path / "long.csv"
    wide.write_text(
        "unit,r1,r2,r3,r4\n"
        + "".join(
            f"{i}," + ",".join("" if v is None else str(v) for v in row) + "\n"
            for i, row in enumerate(ROWS)
        )
    )
    long.write_text(
        "unit,coder,grade\n"
        + "".join(
            f"{i},c{g},{v}\n"
            for i, row in enumerate(ROWS)
            for g, v in enumerate(row)
            if v is not None
        )
    )
    return wide, long


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_wide_and_long_json_match_the_library(files, capsys, coefficient):
    wide, long = files
    expected = wk.agreement(
        np.array(ROWS, dtype=float), coefficient=coefficient, weights="quadratic"
    )
    for argv in (
        [str(wide), "--raters", "r1,r2,r3,r4"],
        [str(long), "--item", "unit", "--rater", "coder", "--rating", "grade"],
    ):
        code = main(["agree", *argv, "--coefficient", coefficient, "--weights", "quadratic",
                     "--format", "json"])  # fmt: skip
        assert code == 0
        document = json.loads(capsys.readouterr().out)
        assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-14)
        assert document["standard_error"] == pytest.approx(expected.standard_error, abs=1e-14)
        assert document["n_items"] == 12 and document["n_ratings"] == 41


def test_text_and_csv(files, capsys):
    wide, _ = files
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Fleiss' kappa" in out and "0.761169" in out and "pa = " in out
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--format", "csv"]) == 0
    header, row = capsys.readouterr().out.strip().splitlines()
    assert header.startswith("coefficient,statistic") and row.startswith("fleiss,0.761169")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--raters", "r1,rX"], "no column 'rX'"),
        (["--raters", "r1"], "at least two columns"),
        (["--raters", "r1,r2,r1"], "--raters names the column 'r1' twice"),
        ([], "Give either --raters"),
        (["--item", "unit", "--rater", "coder"], "Give either --raters"),  # --item alone: ids
        (["--raters", "r1,r2", "--labels", "1,2"], "not in `labels`|not in --labels"),
    ],
)
def test_errors_are_one_line_exit_2(files, capsys, argv, message):
    wide, _ = files
    if argv and argv[0] == "--item":
        argv = [*argv, "--raters", "r1,r2"]
    code = main(["agree", str(wide), *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.count("\n") == 0 and err.startswith("wkappa: error:")
    import re

    assert re.search(message, err), err


def test_long_layout_refuses_a_repeated_rating(tmp_path, capsys):
    """The message had neither the file's name nor a hint; wkappa icc's had both, in its own
    words: one message for agree, judge, icc and frames now."""
    path = tmp_path / "long.csv"
    path.write_text("unit,coder,grade\n1,a,1\n1,a,2\n1,b,1\n2,a,1\n2,b,1\n")
    assert (
        main(["agree", str(path), "--item", "unit", "--rater", "coder", "--rating", "grade"]) == 2
    )
    err = capsys.readouterr().err.strip()
    assert err == (
        f"wkappa: error: {path}: Rater 'a' rated item 1 more than once (2 ratings); the long "
        "layout needs one rating per item and rater. Hint: average or drop the repeats (rows 1 "
        "and 2)."
    )


# --------------------------------------------------------------------------- --report, --plot


def _cell_values(page: str) -> list[str]:
    import html
    import re

    return [html.unescape(cell) for cell in re.findall(r"<td>([^<]*)</td>", page)]


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet"])
def test_report_matches_the_library(files, tmp_path, capsys, coefficient):
    """The HTML report is self-contained and shows the library's numbers: every coefficient,
    the per-category coefficients, the pairwise kappas (Light's kappa their mean) and
    leave-one-rater-out."""
    import re

    from wkappa._cli.output import format_number

    wide, long = files
    out = tmp_path / "agree.html"
    code = main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--coefficient", coefficient,
                 "--weights", "quadratic", "--report", str(out)])  # fmt: skip
    assert code == 0
    assert f"wrote {out}" in capsys.readouterr().err
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # Self-contained: no file or URL is fetched; images are data: URIs.
    assert not re.search(r'(src|href)="(?!data:)', html)
    ratings = np.array(ROWS, dtype=float)
    expected = wk.agreement(ratings, coefficient=coefficient, weights="quadratic")
    cells = _cell_values(html)
    for other in ("fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"):
        value = wk.agreement(ratings, coefficient=other, weights="quadratic")
        row = cells.index(value.name)
        assert cells[row + 1] == format_number(value.statistic)
        assert cells[row + 2] == format_number(value.standard_error)
    for label, value in expected.per_category().items():
        assert f"<td>{label}</td><td>{format_number(value)}</td>" in html
    pairs = expected.pairwise()
    assert "<td>r3</td>" + "".join(f"<td>{format_number(v)}</td>" for v in pairs[2]) in html
    light = pairs[np.triu_indices(4, 1)].mean()
    assert f"Light's kappa (their mean) = {format_number(light)}" in html
    for name, value in zip(["r1", "r2", "r3", "r4"], expected.leave_one_rater_out(), strict=True):
        change = format_number(value - expected.statistic)
        assert f"<td>{name}</td><td>{format_number(value)}</td><td>{change}</td>" in html
    # The long layout gives the same report body (the time stamp aside).
    again = tmp_path / "long.html"
    layout = ["--item", "unit", "--rater", "coder", "--rating", "grade"]
    options = ["--coefficient", coefficient, "--weights", "quadratic", "--report", str(again)]
    assert main(["agree", str(long), *layout, *options]) == 0
    body = again.read_text(encoding="utf-8")
    assert _cell_values(body)[:42] == cells[:42]  # the coefficient table


def test_report_heatmap_and_plot(files, tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    import base64
    import re

    import wkappa._cli.report as report

    wide, _ = files
    out, png = tmp_path / "r.html", tmp_path / "p.png"
    argv = ["agree", str(wide), "--raters", "r1,r2,r3,r4", "--report", str(out),
            "--plot", str(png), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    assert capsys.readouterr().err == ""  # --quiet: no notes
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', out.read_text())
    assert len(images) == 1 and base64.b64decode(images[0]).startswith(b"\x89PNG")
    monkeypatch.setattr(report, "_has_matplotlib", lambda: False)
    assert main(argv[:-3]) == 0
    assert "needs matplotlib" in out.read_text() and "data:image" not in out.read_text()


def test_report_lists_a_coefficient_it_cannot_compute(files, tmp_path, monkeypatch):
    """A coefficient that fails on the data (here: made to fail) shows its error in its
    row of the report; the others are there."""
    import wkappa._cli.agree as agree
    from wkappa.exceptions import WkappaError

    real = agree.agreement

    def failing(*args, **kwargs):
        if kwargs.get("coefficient") == "percent":
            raise WkappaError("percent agreement refused (test).")
        return real(*args, **kwargs)

    monkeypatch.setattr(agree, "agreement", failing)
    wide, _ = files
    out = tmp_path / "r.html"
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--report", str(out)]) == 0
    cells = _cell_values(out.read_text())
    row = cells.index("percent")
    assert cells[row + 1 : row + 7] == [""] * 5 + ["percent agreement refused (test)."]
    assert "Fleiss' kappa" in cells and "Krippendorff's alpha" in cells


def test_report_path_error_is_one_line(files, tmp_path, capsys):
    wide, _ = files
    (tmp_path / "a-file").write_text("")  # a file where the report's directory should be
    out = tmp_path / "a-file" / "r.html"
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--report", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("wkappa: error: --report") and "\n" not in err and "a-file" in err


def test_long_layout_lists_raters_in_sorted_order(tmp_path, capsys):
    """The raters of the long layout (the report's pairs and leave-one-out rows) are sorted
    by name, integer names numerically, not in their order of appearance."""
    path = tmp_path / "long.csv"
    lines = ["unit,coder,grade"]
    for i, row in enumerate(ROWS):
        for g in reversed(range(4)):
            if row[g] is not None:
                lines.append(f"{i},{[10, 9, 'b', 'a'][g]},{row[g]}")
    path.write_text("\n".join(lines) + "\n")
    argv = ["agree", str(path), "--item", "unit", "--rater", "coder", "--rating", "grade"]
    assert main([*argv, "--coefficient", "conger", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["raters"] == ["9", "10", "a", "b"]
    expected = wk.agreement(np.array(ROWS, dtype=float), coefficient="conger")
    assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-14)


def test_json_schema_is_stable(files, capsys):
    """The JSON document's keys are a fixed set (scripts read them); a change must be
    deliberate and documented."""
    wide, _ = files
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    # n_categories and rows_* (read, used, dropped and why) joined in issue 24, as in score;
    # level (Krippendorff's level, null here) in issue 22, as in AgreementResult.to_dict().
    assert sorted(document) == [
        "alternative", "chance_agreement", "coefficient", "confidence_interval",
        "dropped_because", "file", "kappa0", "labels", "level", "n_categories", "n_items",
        "n_raters", "n_ratings", "name", "nan_policy", "percent_agreement", "population_size",
        "pvalue", "raters", "rows_dropped", "rows_read", "rows_used", "schema", "standard_error",
        "statistic", "weight_matrix", "weights",
    ]  # fmt: skip
    assert next(iter(document)) == "schema" and document["schema"] == "wkappa.agree/1"
    assert sorted(document["confidence_interval"]) == [
        "confidence_level", "high", "low", "method", "n_resamples", "n_undefined",
    ]  # fmt: skip


# ------------------------------------------------ rows read / used / dropped, K, --kappa0

MESSY = Path(__file__).parent / "data"
LABELS = "none,mild,moderate,severe"


def _messy_counts() -> tuple[int, int, int]:
    """The annotation export counted with the csv module: (long rows, long rows with a
    rating, wide rows)."""
    with (MESSY / "annotations_long.csv").open(newline="") as handle:
        long = list(csv.DictReader(handle))
    with (MESSY / "annotations_wide.csv").open(newline="") as handle:
        wide = list(csv.DictReader(handle))
    return len(long), sum(r["label"] not in ("", "NA") for r in long), len(wide)


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_agree_says_rows_read_used_dropped_and_k_in_every_output(layout, capsys, tmp_path):
    long_rows, long_rated, wide_rows = _messy_counts()
    if layout == "wide":
        argv = ["agree", str(MESSY / "annotations_wide.csv"),
                "--raters", "ann_1,ann_2,ann_3,ann_4,ann_5,LLM judge"]  # fmt: skip
        read, used, because = wide_rows, wide_rows, None
    else:
        argv = ["agree", str(MESSY / "annotations_long.csv"),
                "--item", "item_id", "--rater", "annotator", "--rating", "label"]  # fmt: skip
        read, used, because = long_rows, long_rated, "a missing rating"
    assert long_rows > long_rated  # the export has NA ratings
    argv += ["--labels", LABELS, "--strip-labels"]
    report = tmp_path / "agree.html"
    assert main([*argv, "--format", "json", "--report", str(report), "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["rows_read"], document["rows_used"]) == (read, used)
    assert document["rows_dropped"] == read - used and document["dropped_because"] == because
    assert document["n_categories"] == 4 and document["labels"] == LABELS.split(",")
    html = report.read_text()
    row_text = f"{read} read, all used" if read == used else f"{read} read, {used} used"
    assert row_text in html and "K = 4 categories: none, mild, moderate, severe" in html
    assert main([*argv]) == 0
    text = capsys.readouterr().out
    assert f"file rows    {row_text}" in text
    assert "K = 4 categories: none, mild, moderate, severe" in text
    assert main([*argv, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["n_categories"] == "4" and rows[0]["labels"] == "none|mild|moderate|severe"
    assert (int(rows[0]["rows_read"]), int(rows[0]["rows_used"])) == (read, used)


def test_agree_wide_drops_rows_without_any_rating(files, capsys, tmp_path):
    wide, _ = files
    path = tmp_path / "gaps.csv"
    path.write_text(wide.read_text() + "12,,,,\n13,,,,\n")
    assert main(["agree", str(path), "--raters", "r1,r2,r3,r4", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["rows_read"], document["rows_used"], document["rows_dropped"]) == (14, 12, 2)
    assert document["dropped_because"] == "no rating at all" and document["n_items"] == 12
    assert main(["agree", str(path), "--raters", "r1,r2,r3,r4"]) == 0
    out = capsys.readouterr().out
    assert "14 read, 12 used, 2 dropped: no rating at all" in out
    assert "41 ratings; 7 of 48 cells empty" in out


@pytest.mark.parametrize("coefficient", ["fleiss", "gwet"])
def test_agree_kappa0_is_the_librarys_test(files, capsys, coefficient):
    wide, _ = files
    expected = wk.agreement(np.array(ROWS, dtype=float), coefficient=coefficient, kappa0=0.5)
    argv = ["agree", str(wide), "--raters", "r1,r2,r3,r4", "--coefficient", coefficient,
            "--kappa0", "0.5"]  # fmt: skip
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["kappa0"] == 0.5
    assert document["pvalue"] == pytest.approx(expected.pvalue, rel=1e-12)
    assert expected.pvalue != pytest.approx(wk.agreement(np.array(ROWS, dtype=float)).pvalue)
    assert main(argv) == 0
    assert "(H0: coefficient = 0.5, two-sided)" in capsys.readouterr().out


def test_score_kappa0_is_the_librarys_test(capsys):
    data = Path(wk.__file__).parent / "data" / "diabetes_oof.csv"
    with data.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    truth = [int(r["grade"]) for r in rows]
    pred = [int(r["pred_all"]) for r in rows]
    expected = wk.kappa_test(truth, pred, kappa0=0.5)
    argv = ["score", str(data), "--true", "grade", "--pred", "pred_all", "--kappa0", "0.5"]
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["kappa0"] == 0.5
    assert document["pvalue"] == pytest.approx(expected.pvalue, rel=1e-12)
    assert document["test_statistic"] == pytest.approx(expected.test_statistic, rel=1e-12)
    assert main(argv) == 0
    assert "H0: kappa = 0.5, two-sided" in capsys.readouterr().out
    assert main([*argv[:-1], "1.5"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--kappa0" in error and "`kappa0`" not in error


def test_icc_says_rows_read_used_dropped(tmp_path, capsys):
    path = tmp_path / "icc.csv"
    path.write_text("a,b,c\n1,2,3\n2,2,3\n,,\n4,5,5\n1,,2\n")
    assert main(["icc", str(path), "--raters", "a,b,c", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["rows_read"], document["rows_used"], document["rows_dropped"]) == (5, 4, 1)
    assert document["n_items"] == 4
    expected = wk.icc(np.array([[1, 2, 3], [2, 2, 3], [4, 5, 5], [1, np.nan, 2]]), form="A,1")
    assert document["icc"]["A,1"]["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
    assert main(["icc", str(path), "--raters", "a,b,c"]) == 0
    assert "file rows 5 read, 4 used, 1 dropped: no rating at all" in capsys.readouterr().out


@pytest.fixture
def clustered(tmp_path):
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 45)
    ratings = np.column_stack(
        [np.where(rng.random(45) < 0.7, truth, rng.integers(0, 3, 45)) for _ in range(3)]
    ).astype(float)
    ratings[rng.random((45, 3)) < 0.1] = np.nan
    tasks = [f"task{i // 3}" for i in range(45)]
    wide = tmp_path / "clustered.csv"
    long = tmp_path / "clustered_long.csv"
    cell = lambda v: "" if np.isnan(v) else str(int(v))  # noqa: E731
    wide.write_text(
        "task,a,b,c\n"
        + "".join(f"{t},{','.join(map(cell, r))}\n" for t, r in zip(tasks, ratings, strict=True))
    )
    long.write_text(
        "item,task,who,grade\n"
        + "".join(
            f"{i},{t},{name},{int(v)}\n"
            for i, (t, r) in enumerate(zip(tasks, ratings, strict=True))
            for name, v in zip("abc", r, strict=True)
            if not np.isnan(v)
        )
    )
    return wide, long, ratings, np.array(tasks)


def test_cluster_option_wide_and_long(clustered, capsys):
    wide, long, ratings, tasks = clustered
    expected = wk.agreement(ratings, coefficient="gwet", cluster=tasks)
    for argv in (
        [str(wide), "--raters", "a,b,c"],
        [str(long), "--item", "item", "--rater", "who", "--rating", "grade"],
    ):
        code = main(
            ["agree", *argv, "--cluster", "task", "--coefficient", "gwet", "--format", "json"]
        )
        assert code == 0
        document = json.loads(capsys.readouterr().out)
        assert document["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
        assert document["standard_error"] == pytest.approx(expected.standard_error, rel=1e-12)
        assert document["n_clusters"] == 15
    assert main(["agree", str(wide), "--raters", "a,b,c", "--cluster", "task"]) == 0
    assert "cluster-robust over 15 clusters" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--cluster", "nope"], "has no column 'nope' (given to --cluster)"),
        (["--cluster", "a"], "--cluster column 'a' has a missing id"),
        (["--cluster", "task", "--population-size", "100"], "--population-size cannot be combined"),
        (["--cluster", "c"], "--cluster names the --raters column 'c'"),
    ],
)
def test_cluster_option_errors(clustered, capsys, extra, message):
    wide = clustered[0]
    assert main(["agree", str(wide), "--raters", "b,c", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cluster_option_one_cluster(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("task,a,b\nx,1,1\nx,2,2\nx,1,2\n")
    assert main(["agree", str(path), "--raters", "a,b", "--cluster", "task"]) == 2
    assert "at least 2" in capsys.readouterr().err


def test_cluster_option_long_item_in_two_clusters(tmp_path, capsys):
    path = tmp_path / "split.csv"
    path.write_text("item,who,grade,task\n1,a,1,x\n1,b,1,y\n2,a,2,x\n2,b,2,x\n3,a,1,z\n3,b,2,z\n")
    argv = ["agree", str(path), "--item", "item", "--rater", "who", "--rating", "grade"]
    assert main([*argv, "--cluster", "task"]) == 2
    err = capsys.readouterr().err
    assert "Item 1 has ratings in two clusters of the --cluster column 'task'" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("column", "message"),
    [
        ("item", "--cluster names the --item column 'item': one item per cluster"),
        ("who", "--cluster names the --rater column 'who'"),
        ("grade", "--cluster names the --rating column 'grade'"),
    ],
)
def test_cluster_option_long_names_a_read_column(tmp_path, capsys, column, message):
    # Before: --cluster item was an internal error (polars DuplicateError, exit code 1).
    path = tmp_path / "long.csv"
    path.write_text("item,who,grade\n1,a,1\n1,b,1\n2,a,2\n2,b,2\n3,a,1\n3,b,2\n")
    argv = ["agree", str(path), "--item", "item", "--rater", "who", "--rating", "grade"]
    assert main([*argv, "--cluster", column]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_one_sided_interval_is_labelled(tmp_path, capsys):
    # Before: "95% CI [..., 1.0000]" for --alternative greater.
    path = tmp_path / "three.csv"
    path.write_text("a,b,c\n1,1,1\n2,2,2\n1,2,3\n3,3,3\n2,2,1\n1,1,2\n")
    assert main(["agree", str(path), "--raters", "a,b,c", "--alternative", "greater"]) == 0
    out = capsys.readouterr().out
    assert "\n  95% CI       [" in out and "] (one-sided, asymptotic)" in out
    assert main(["agree", str(path), "--raters", "a,b,c"]) == 0
    assert "one-sided" not in capsys.readouterr().out


def test_one_sided_level_error_in_option_words(tmp_path, capsys):
    path = tmp_path / "three.csv"
    path.write_text("a,b,c\n1,1,1\n2,2,2\n1,2,3\n3,3,3\n")
    argv = ["agree", str(path), "--raters", "a,b,c", "--alternative", "less", "--ci", "0.3"]
    assert main(argv) == 2
    assert "(--alternative less)" in capsys.readouterr().err


def test_long_layout_needs_different_columns(tmp_path, capsys):
    # Before: --rater and --rating naming one column gave kappa -1 (exit 0).
    path = tmp_path / "long.csv"
    path.write_text("item,who,grade\n1,a,1\n1,b,1\n2,a,2\n2,b,2\n")
    assert main(["agree", str(path), "--item", "item", "--rater", "who", "--rating", "who"]) == 2
    err = capsys.readouterr().err
    assert "--item, --rater and --rating must name 3 different columns" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["icc", "--raters", "r1,r2,r2"],
        ["judge", "--raters", "r1,r2,r2", "--candidate", "r3"],
    ],
)
def test_icc_and_judge_refuse_a_rater_column_named_twice(files, capsys, argv):
    """`wkappa icc --raters a,a` was an internal error (polars DuplicateError, exit 1);
    `wkappa judge` counted the column as two panel members."""
    wide, _ = files
    code = main([argv[0], str(wide), *argv[1:]])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert err == (
        "wkappa: error: --raters names the column 'r2' twice; each rater is one column. "
        "Hint: list each rater column once."
    )


@pytest.mark.parametrize("command", ["agree", "icc", "judge"])
def test_long_file_refuses_a_rating_without_item_or_rater(tmp_path, capsys, command):
    """A blank --item made an item of its own and a blank --rater a rater named "null"
    (wkappa judge: internal error, AttributeError)."""
    for blank, option in (("item", "--item"), ("rater", "--rater")):
        rows = ["unit,coder,grade", "1,a,1", "1,b,1", "2,a,2", "2,b,1", "3,a,3", "3,b,3"]
        rows.append(",b,2" if blank == "item" else "4,,2")
        path = tmp_path / f"{blank}.csv"
        path.write_text("\n".join(rows) + "\n")
        extra = ["--candidate", "a"] if command == "judge" else []
        argv = [command, str(path), "--item", "unit", "--rater", "coder", "--rating", "grade"]
        code = main([*argv, *extra])
        err = capsys.readouterr().err.strip()
        assert code == 2, err
        column = "unit" if blank == "item" else "coder"
        message = f"{option} column '{column}' has a missing id"
        if command == "icc":
            assert err.startswith(f"wkappa: error: {message}"), err
        else:  # agree and judge name the row and its rating (test_cli_messy_exports)
            assert err.startswith(f"wkappa: error: {path}, row 7: {message}"), err


def test_agree_text_and_csv_name_the_weights_and_the_interval(files, capsys):
    """'Fleiss' kappa, unweighted weights'; percent agreement graded by Landis & Koch's kappa
    bands ('almost perfect'); a CSV row without its interval's method."""
    wide, _ = files
    argv = ["agree", str(wide), "--raters", "r1,r2,r3,r4"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("Fleiss' kappa, unweighted"), lines[0]
    assert lines[-1].endswith(" (observed / chance agreement)"), lines[-1]  # 'pa / pe' alone
    assert main([*argv, "--coefficient", "percent"]) == 0
    text = capsys.readouterr().out
    bands = ("Landis", "slight", "fair", "moderate", "substantial", "perfect")
    assert not any(word in text for word in bands), text
    assert main([*argv, "--coefficient", "gwet", "--weights", "quadratic"]) == 0
    assert "Landis & Koch" in capsys.readouterr().out
    assert main([*argv, "--bootstrap", "200", "--seed", "1", "--format", "csv"]) == 0
    row = next(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["ci_method"] == "percentile", row
    judge = ["judge", str(wide), "--candidate", "r1", "--raters", "r2,r3,r4", "--seed", "1"]
    assert main([*judge, "--bootstrap", "200"]) == 0
    assert "Cohen's kappa, unweighted;" in capsys.readouterr().out


def test_agree_report_says_unweighted(files, tmp_path, capsys):
    wide, _ = files
    report = tmp_path / "agree.html"
    assert main(["agree", str(wide), "--raters", "r1,r2,r3,r4", "--report", str(report)]) == 0
    capsys.readouterr()
    page = report.read_text()
    assert "unweighted weights" not in page and "Cohen's kappa (unweighted) of each pair" in page


def _intervals(value):
    """Every interval object in a JSON document (a dict with "low" and "high")."""
    if isinstance(value, dict):
        if "low" in value and "high" in value:
            yield value
        for item in value.values():
            yield from _intervals(item)
    elif isinstance(value, list):
        for item in value:
            yield from _intervals(item)


def test_every_command_writes_its_schema_first_and_the_same_interval_keys(tmp_path, capsys) -> None:
    """`agree`, `icc` and `plan` wrote no "schema" while `score`, `compare`, `thresholds` and
    `judge` did; the ICC's interval object had no `n_resamples` / `n_undefined`."""
    rng = np.random.default_rng(4)
    truth = rng.integers(0, 4, 40)
    noisy = [np.clip(truth + rng.integers(-1, 2, 40), 0, 3) for _ in range(3)]
    path = tmp_path / "ratings.csv"
    columns = {"truth": truth, "a": noisy[0], "b": noisy[1], "c": noisy[2],
               "score": truth + rng.normal(0, 0.7, 40)}  # fmt: skip
    pl.DataFrame(columns).write_csv(path)
    f = str(path)
    commands = {
        "score": ["score", f, "--true", "truth", "--pred", "a"],
        "compare": ["compare", f, "--true", "truth", "--pred", "a", "--pred", "b",
                    "--bootstrap", "199"],
        "thresholds": ["thresholds", f, "--true", "truth", "--score", "score"],
        "agree": ["agree", f, "--raters", "a,b,c"],
        "icc": ["icc", f, "--raters", "a,b,c"],
        "judge": ["judge", f, "--candidate", "a", "--raters", "b,c,truth",
                  "--bootstrap", "199"],
        "plan": ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.3,0.7"],
    }  # fmt: skip
    keys = set()
    for command, argv in commands.items():
        assert main([*argv, "--format", "json", "--quiet"]) == 0, command
        document = json.loads(capsys.readouterr().out)
        assert next(iter(document)) == "schema", command
        assert document["schema"].startswith(f"wkappa.{command}/"), document["schema"]
        for interval in _intervals(document):
            keys.add(tuple(sorted(interval)))
    assert keys == {("confidence_level", "high", "low", "method", "n_resamples", "n_undefined")}, (
        keys
    )


def test_agree_ci_method_is_the_library_interval_and_explain_speaks_in_options(tmp_path, capsys):
    """--explain recommended confidence_interval(method='fisher-z-jackknife'), a Python call,
    to a command-line user who had no option to ask for it."""
    rng = np.random.default_rng(5)
    truth = rng.integers(1, 4, 30)
    ratings = np.column_stack(
        [np.where(rng.random(30) < 0.7, truth, rng.integers(1, 4, 30)) for _ in range(3)]
    )
    path = tmp_path / "panel.csv"
    path.write_text("a,b,c\n" + "".join(",".join(map(str, row)) + "\n" for row in ratings))
    result = wk.agreement(ratings)
    for method in ("fisher-z-jackknife", "jackknife", "fisher-z"):
        argv = ["agree", str(path), "--raters", "a,b,c", "--ci-method", method]
        assert main([*argv, "--format", "json"]) == 0
        interval = json.loads(capsys.readouterr().out)["confidence_interval"]
        expected = result.confidence_interval(method=method)
        assert (interval["low"], interval["high"]) == (expected.low, expected.high)
        assert interval["method"] == expected.method
    assert main(["agree", str(path), "--raters", "a,b,c", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "--ci-method fisher-z-jackknife is recommended" in out, out
    assert "confidence_interval(" not in out
    argv = ["agree", str(path), "--raters", "a,b,c", "--ci-method", "jackknife"]
    assert main([*argv, "--bootstrap", "99"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "wkappa: error: --ci-method jackknife and --bootstrap exclude each other. Hint: drop one.\n"
    ), err


# --------------------------------------------------------------------------- --nan-policy

# Item 3 misses rater b's rating; the fifth line has no rating at all.
_GAPS = "a,b,c\n1,1,2\n2,2,2\n3,,3\n1,2,1\n,,\n2,2,3\n"


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_nan_policy_raise_refuses_a_missing_rating(tmp_path, capsys, layout):
    """--nan-policy raise names the first missing rating's row and column, and the option
    that uses the ratings there are; one line, exit 2."""
    path = tmp_path / "gaps.csv"
    if layout == "wide":
        path.write_text(_GAPS)
        argv = ["--raters", "a,b,c"]
    else:
        path.write_text("item,rater,rating\n1,x,1\n1,y,1\n2,x,2\n2,y,\n3,x,1\n3,y,2\n")
        argv = ["--item", "item", "--rater", "rater", "--rating", "rating"]
    assert main(["agree", str(path), *argv, "--nan-policy", "raise"]) == 2
    err = capsys.readouterr().err.strip()
    column = "b" if layout == "wide" else "rating"
    row = 3 if layout == "wide" else 4
    assert err == (
        f"wkappa: error: {path}, row {row}: column {column!r} has a missing rating. Hint: "
        "--nan-policy omit uses, for each item, the ratings it has."
    )


def test_nan_policy_raise_refuses_an_unrated_item_of_a_long_file(tmp_path, capsys):
    """A long file has no row for a rating that is not there: the rater who did not rate
    an item is named."""
    path = tmp_path / "long.csv"
    path.write_text("item,rater,rating\n1,x,1\n1,y,1\n2,x,2\n2,y,2\n3,x,1\n")
    argv = ["--item", "item", "--rater", "rater", "--rating", "rating", "--nan-policy", "raise"]
    assert main(["agree", str(path), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "rater 'y' did not rate 1 item" in err
    assert "--nan-policy omit" in err


def test_nan_policy_propagate_is_undefined_in_every_format(tmp_path, capsys):
    """--nan-policy propagate: every value undefined (text), null (JSON), empty (CSV), as
    wkappa.agreement(..., nan_policy='propagate'); the text says why."""
    path = tmp_path / "gaps.csv"
    path.write_text(_GAPS)
    argv = ["agree", str(path), "--raters", "a,b,c", "--nan-policy", "propagate"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "6 read, all used" in out
    assert "a rating is missing, so every value is undefined (--nan-policy propagate" in out
    for line in ("statistic    undefined", "std. error   undefined", "95% CI       undefined",
                 "p-value      undefined", "pa / pe      undefined / undefined"):  # fmt: skip
        assert line in out
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["nan_policy"] == "propagate"
    for key in ("statistic", "standard_error", "pvalue", "percent_agreement"):
        assert document[key] is None
    assert document["confidence_interval"]["low"] is None
    assert document["rows_dropped"] == 0
    assert main([*argv, "--format", "csv"]) == 0
    row = next(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["statistic"] == row["standard_error"] == row["ci_low"] == row["pvalue"] == ""
    assert main([*argv, "--report", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--report has nothing to show" in err


def test_nan_policy_omit_is_the_default_and_says_what_was_dropped(tmp_path, capsys):
    """Without --nan-policy each item uses the ratings it has, as wkappa.agreement's
    default: the row without any rating is dropped and the empty cells are counted."""
    path = tmp_path / "gaps.csv"
    path.write_text(_GAPS)
    argv = ["agree", str(path), "--raters", "a,b,c"]
    assert main(argv) == 0
    default = capsys.readouterr().out
    assert main([*argv, "--nan-policy", "omit"]) == 0
    assert capsys.readouterr().out == default
    assert "6 read, 5 used, 1 dropped: no rating at all" in default
    assert "14 ratings; 1 of 15 cells empty" in default
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    ratings = [[1, 1, 2], [2, 2, 2], [3, None, 3], [1, 2, 1], [2, 2, 3]]
    expected = wk.agreement(np.array(ratings, dtype=float))
    assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-14)
    assert document["nan_policy"] == "omit"
    assert document["rows_dropped"] == 1
    assert document["dropped_because"] == "no rating at all"


def test_nan_policy_propagate_with_cluster_keeps_the_clusters_field(tmp_path, capsys):
    """With --cluster the JSON document has n_clusters, null where every value is undefined
    (it was left out)."""
    path = tmp_path / "clustered.csv"
    path.write_text("a,b,c,g\n1,1,2,1\n2,2,2,1\n3,,3,2\n1,2,1,2\n2,2,3,3\n")
    argv = ["agree", str(path), "--raters", "a,b,c", "--cluster", "g", "--format", "json",
            "--quiet"]  # fmt: skip
    keys = []
    for policy in ("omit", "propagate"):
        assert main([*argv, "--nan-policy", policy]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["n_clusters"] == (3 if policy == "omit" else None)
        keys.append(list(document))
    assert keys[0] == keys[1]
