"""The ``wkappa`` command line on real files, called in process (a few as a real subprocess).

Every subcommand, output format, input format and documented error: exit codes (0 / 2), one
line on stderr, no traceback (unless ``--debug``), and numbers equal to the library's own
(and to the exact Fraction reference).
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import wkappa as wk
from reference import reference_kappa
from wkappa._cli import main


def run(
    *args: str | Path,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    in_process: bool = True,
) -> subprocess.CompletedProcess[str]:
    """``wkappa ARGS`` -> CompletedProcess (text stdout/stderr).

    In process by default (``wkappa._cli.main(argv)`` with the standard streams and the
    working directory swapped for the call); ``in_process=False`` runs ``python -m wkappa``
    as a real subprocess, for the entry point, exit codes and standard input themselves.
    """
    argv = [str(a) for a in args]
    if not in_process:
        proc = subprocess.run(
            [sys.executable, "-m", "wkappa", *argv], input=stdin, capture_output=True,
            cwd=cwd, timeout=120,
        )  # fmt: skip
        return subprocess.CompletedProcess(
            argv, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )
    streams = (sys.stdin, sys.stdout, sys.stderr)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    directory = os.getcwd()
    try:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
        sys.stdout, sys.stderr = out, err
        if cwd is not None:
            os.chdir(cwd)
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: usage errors (2), --help and --version (0)
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        os.chdir(directory)
    out.flush()
    err.flush()
    text = [stream.buffer.getvalue().decode() for stream in (out, err)]  # type: ignore[attr-defined]
    return subprocess.CompletedProcess(argv, code, text[0], text[1])


def assert_error(proc, *fragments: str) -> None:
    """Exit code 2, one line on stderr containing the fragments, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("wkappa: error: "), lines[0]
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.fixture(scope="module")
def ratings() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 600
    truth = rng.integers(0, 5, n)
    pred = np.clip(truth + rng.integers(-1, 2, n), 0, 4)
    other = np.clip(truth + rng.integers(-2, 3, n), 0, 4)
    return pl.DataFrame(
        {
            "id": np.arange(n),
            "truth": truth,
            "pred": pred,
            "other": other,
            "site": rng.choice(["north", "south", "west"], n),
            "w": rng.integers(1, 4, n).astype(float),
            "score": truth + rng.normal(0, 0.8, n),
        }
    )


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory, ratings) -> Path:
    path = tmp_path_factory.mktemp("cli") / "ratings.csv"
    ratings.write_csv(path)
    return path


def _json(proc) -> dict:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# --------------------------------------------------------------------------- score


def test_score_text_has_every_number(csv_file, ratings):
    proc = run("score", csv_file, "--true", "truth", "--pred", "pred")
    assert proc.returncode == 0, proc.stderr
    result = wk.kappa_test(ratings["truth"], ratings["pred"])
    low, high = result.confidence_interval(0.95)
    out = proc.stdout
    assert f"{result.statistic:.4f}" in out
    assert f"{result.standard_error:.4f}" in out
    assert f"[{low:.4f}, {high:.4f}]" in out
    assert f"{result.test_statistic:.2f}" in out
    assert result.interpretation in out
    assert "Observed O" in out and "Expected E" in out
    assert "n               600" in out
    assert proc.stderr == ""


def test_score_json_schema_and_exact_value(csv_file, ratings):
    doc = _json(run("score", csv_file, "--true", "truth", "--pred", "pred", "--format", "json"))
    expected = wk.kappa_test(ratings["truth"], ratings["pred"], weights="quadratic")
    for key in ("statistic", "standard_error", "standard_error_null", "test_statistic", "pvalue"):
        assert doc[key] == pytest.approx(getattr(expected, key), rel=1e-12, abs=1e-15)
    assert doc["schema"] == "wkappa.score/2"
    assert doc["test_distribution"] == "normal" and doc["test_df"] is None
    assert doc["n"] == 600 and isinstance(doc["n"], int)
    assert doc["labels"] == [0, 1, 2, 3, 4]
    assert doc["weights"] == "quadratic"
    ci = expected.confidence_interval()
    assert [doc["confidence_interval"][k] for k in ("low", "high")] == pytest.approx(list(ci))
    assert doc["confidence_interval"]["method"] == "asymptotic"
    assert doc["confidence_interval"]["confidence_level"] == 0.95
    assert np.array_equal(doc["table"], wk.confusion_table(ratings["truth"], ratings["pred"]))
    assert np.allclose(doc["expected_table"], expected.expected_table)
    exact = reference_kappa(ratings["truth"].to_list(), ratings["pred"].to_list(), 5, "quadratic")
    assert doc["statistic"] == pytest.approx(float(exact), rel=1e-13)
    assert "groups" not in doc
    # The data-frame integration counts the same lazy scan its own way: same answer.
    frames = pytest.importorskip("wkappa.frames")
    lazy = frames.kappa_test(pl.scan_csv(csv_file), y_true="truth", y_pred="pred")
    assert doc["statistic"] == pytest.approx(lazy.statistic, rel=1e-12)
    assert doc["table"] == lazy.table.tolist()


def test_score_by_group_json_and_csv(csv_file, ratings):
    args = ("score", csv_file, "--true", "truth", "--pred", "pred", "--by", "site")
    doc = _json(run(*args, "--format", "json", "--weights", "linear"))
    assert doc["by"] == "site"
    assert [g["group"] for g in doc["groups"]] == ["north", "south", "west"]
    for group in doc["groups"]:
        part = ratings.filter(pl.col("site") == group["group"])
        # Every group shares the overall categories (0..4), whatever it uses itself.
        value = wk.weighted_kappa(part["truth"], part["pred"], weights="linear", labels=range(5))
        assert group["statistic"] == pytest.approx(value, rel=1e-12)
        assert group["n"] == part.height and group["labels"] == [0, 1, 2, 3, 4]
    frames = pytest.importorskip("wkappa.frames")
    by_group = frames.kappa_by_group(
        pl.scan_csv(csv_file), y_true="truth", y_pred="pred", by="site", weights="linear"
    )
    by_group = (by_group.collect() if isinstance(by_group, pl.LazyFrame) else by_group).sort("site")
    assert [g["statistic"] for g in doc["groups"]] == pytest.approx(
        by_group["kappa"].to_list(), rel=1e-12
    )
    proc = run(*args, "--format", "csv", "--weights", "linear")
    assert proc.returncode == 0, proc.stderr
    table = pl.read_csv(proc.stdout.encode())
    assert table.columns[:3] == ["site", "n", "statistic"]
    assert table["site"].to_list() == ["north", "south", "west", "(all)"]
    assert table["n"].to_list()[-1] == 600
    assert table["statistic"][0] == pytest.approx(doc["groups"][0]["statistic"], rel=1e-12)
    text = run(*args).stdout
    assert "By site:" in text and "north" in text and "(all)" in text


def test_score_weights_labels_bounds_and_weight_column(csv_file, ratings):
    doc = _json(
        run("score", csv_file, "--true", "truth", "--pred", "pred", "--weights", "unweighted",
            "--labels", "4,3,2,1,0", "--format", "json")
    )  # fmt: skip
    expected = wk.weighted_kappa(
        ratings["truth"], ratings["pred"], weights="unweighted", labels=[4, 3, 2, 1, 0]
    )
    assert doc["statistic"] == pytest.approx(expected, rel=1e-12)
    assert doc["labels"] == [4, 3, 2, 1, 0]
    doc = _json(
        run("score", csv_file, "--true", "truth", "--pred", "pred", "--min-rating", "0",
            "--max-rating", "6", "--format", "json")
    )  # fmt: skip
    assert doc["labels"] == list(range(7))
    assert doc["statistic"] == pytest.approx(
        wk.qwk(ratings["truth"], ratings["pred"], min_rating=0, max_rating=6), rel=1e-12
    )
    doc = _json(
        run("score", csv_file, "--true", "truth", "--pred", "pred", "--weight-col", "w",
            "--format", "json")
    )  # fmt: skip
    assert doc["statistic"] == pytest.approx(
        wk.qwk(ratings["truth"], ratings["pred"], sample_weight=ratings["w"]), rel=1e-12
    )
    assert doc["n"] == pytest.approx(float(ratings["w"].sum()))
    assert doc["weight_column"] == "w"


def test_score_bootstrap_is_seeded(csv_file, ratings):
    args = ("score", csv_file, "--true", "truth", "--pred", "pred", "--format", "json")
    doc = _json(run(*args, "--bootstrap", "500", "--seed", "3", "--ci", "0.9"))
    assert doc["confidence_interval"]["method"] == "percentile"
    assert doc["confidence_interval"]["confidence_level"] == 0.9
    # The seed makes it reproducible: the library gives the very same interval.
    result = wk.kappa_test(ratings["truth"], ratings["pred"])
    ci = result.confidence_interval(0.9, method=wk.BootstrapMethod(500, rng=3))
    got = [doc["confidence_interval"]["low"], doc["confidence_interval"]["high"]]
    assert got == pytest.approx([ci.low, ci.high], rel=1e-12)
    assert ci.low < doc["statistic"] < ci.high


def test_score_explain_and_plot(csv_file, tmp_path):
    png = tmp_path / "heat.png"
    proc = run("score", csv_file, "--true", "truth", "--pred", "pred", "--explain", "--plot", png)
    assert proc.returncode == 0, proc.stderr
    assert "Step 1" in proc.stdout and "denominator" in proc.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {png}" in proc.stderr


@pytest.mark.parametrize("kind", ["tsv", "csv.gz", "parquet", "arrow", "feather", "jsonl"])
def test_score_reads_every_format(tmp_path, ratings, kind):
    path = tmp_path / f"ratings.{kind}"
    if kind == "tsv":
        ratings.write_csv(path, separator="\t")
    elif kind == "csv.gz":
        path.write_bytes(gzip.compress(ratings.write_csv().encode()))
    elif kind == "parquet":
        ratings.write_parquet(path)
    elif kind in ("arrow", "feather"):
        ratings.write_ipc(path)
    else:
        ratings.write_ndjson(path)
    doc = _json(run("score", path, "--true", "truth", "--pred", "pred", "--format", "json"))
    assert doc["statistic"] == pytest.approx(wk.qwk(ratings["truth"], ratings["pred"]), rel=1e-12)
    assert doc["n"] == ratings.height


def test_score_reads_stdin(ratings):
    data = ratings.select("truth", "pred").write_csv().encode()
    doc = _json(run("score", "-", "--true", "truth", "--pred", "pred", "--format", "json",
                    stdin=data, in_process=False))  # fmt: skip
    assert doc["statistic"] == pytest.approx(wk.qwk(ratings["truth"], ratings["pred"]), rel=1e-12)
    assert doc["file"] == "<stdin>"
    tsv = ratings.select("truth", "pred").write_csv(separator="\t").encode()
    proc = run("score", "-", "--input-format", "tsv", "--true", "truth", "--pred", "pred",
               "--format", "csv", stdin=tsv)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    row = pl.read_csv(proc.stdout.encode())  # one row without --by
    assert row.height == 1 and row["n"][0] == ratings.height
    assert row["statistic"][0] == pytest.approx(doc["statistic"], rel=1e-12)


def test_string_grades_with_labels(tmp_path):
    path = tmp_path / "words.csv"
    path.write_text("a,b\nlow,low\nmid,high\nhigh,high\nmid,mid\nlow,mid\n")
    doc = _json(run("score", path, "--true", "a", "--pred", "b", "--labels", "low,mid,high",
                    "--format", "json"))  # fmt: skip
    expected = wk.qwk(["low", "mid", "high", "mid", "low"], ["low", "high", "high", "mid", "mid"],
                      labels=["low", "mid", "high"])  # fmt: skip
    assert doc["statistic"] == pytest.approx(expected, rel=1e-12)
    assert doc["labels"] == ["low", "mid", "high"]


def test_missing_values_raise_or_are_omitted(tmp_path):
    path = tmp_path / "holes.csv"
    path.write_text("a,b\n1,1\n2,2\n3,\n3,3\n1,2\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "row 3", "'b'", "missing")
    doc = _json(run("score", path, "--true", "a", "--pred", "b", "--nan-policy", "omit",
                    "--format", "json"))  # fmt: skip
    assert doc["omitted_rows"] == 1 and doc["n"] == 4
    assert doc["statistic"] == pytest.approx(wk.qwk([1, 2, 3, 1], [1, 2, 3, 2]), rel=1e-12)


def test_undefined_kappa_warns_and_exits_zero(tmp_path):
    path = tmp_path / "same.csv"
    path.write_text("a,b\n2,2\n2,2\n")
    proc = run("score", path, "--true", "a", "--pred", "b", "--format", "json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["statistic"] is None
    assert "wkappa: warning:" in proc.stderr and "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- errors


def test_error_missing_file(tmp_path):
    assert_error(run("score", tmp_path / "nope.csv", "--true", "a", "--pred", "b"),
                 "nope.csv: no such file")  # fmt: skip


def test_error_missing_column_suggests_names(csv_file):
    proc = run("score", csv_file, "--true", "truht", "--pred", "pred")
    assert_error(proc, "no column 'truht'", "--true", "Did you mean 'truth'")


def test_separator(tmp_path):
    path = tmp_path / "semicolons.csv"
    path.write_text("a;b\n1;1\n2;2\n3;1\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "no column 'a'", "--separator")
    doc = _json(run("score", path, "--true", "a", "--pred", "b", "--separator", ";",
                    "--format", "json"))  # fmt: skip
    assert doc["statistic"] == pytest.approx(wk.qwk([1, 2, 3], [1, 2, 1]), rel=1e-12)


def test_error_empty_files(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert_error(run("score", empty, "--true", "a", "--pred", "b"), "empty")
    header = tmp_path / "header.csv"
    header.write_text("a,b\n")
    assert_error(run("score", header, "--true", "a", "--pred", "b"), "no data rows")
    assert_error(run("score", "-", "--true", "a", "--pred", "b", stdin=b""), "standard input")


def test_error_unparsable_value_with_row(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,1\n2,2\n3,x3\n1,2\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "row 3", "'x3'", "'b'")


def test_error_unparsable_value_after_type_inference(tmp_path):
    # 20,000 numbers then a word: polars has typed the column by then; the rescan finds it.
    rows = [f"{i % 3},{i % 3}" for i in range(20_000)] + ["2,oops", "1,1"]
    path = tmp_path / "late.csv"
    path.write_text("a,b\n" + "\n".join(rows) + "\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "row 20001", "'oops'")


def test_error_non_integer_grade_with_row(tmp_path):
    path = tmp_path / "float.csv"
    path.write_text("a,b\n1,1\n2,2.0\n3,2.5\n1,2\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "row 3", "non-integer", "2.5")


def test_error_labels_outside_range(tmp_path):
    path = tmp_path / "range.csv"
    path.write_text("a,b\n1,1\n2,2\n3,7\n1,2\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b", "--max-rating", "5"),
                 "row 3", "7", "above --max-rating")  # fmt: skip
    assert_error(run("score", path, "--true", "a", "--pred", "b", "--labels", "1,2,3"),
                 "row 3", "7", "not in --labels")  # fmt: skip


def test_error_words_need_labels(tmp_path):
    path = tmp_path / "words.csv"
    path.write_text("a,b\nlow,low\nhigh,low\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "labels")


def test_error_bad_weight_with_row(tmp_path):
    path = tmp_path / "weights.csv"
    path.write_text("a,b,w\n1,1,1\n2,2,-1\n1,2,1\n")
    assert_error(run("score", path, "--true", "a", "--pred", "b", "--weight-col", "w"),
                 "row 2", "-1")  # fmt: skip


def test_error_unknown_format(tmp_path):
    path = tmp_path / "ratings.xlsx"
    path.write_text("x")
    # No --input-format reads a workbook: the fix is to save the sheet as CSV.
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "save the sheet as 'CSV UTF-8'")
    path = tmp_path / "ratings.ods2"
    path.write_text("x")
    assert_error(run("score", path, "--true", "a", "--pred", "b"), "--input-format")


def test_debug_shows_the_traceback(tmp_path):
    proc = run("score", tmp_path / "nope.csv", "--true", "a", "--pred", "b", "--debug",
               in_process=False)  # fmt: skip
    assert proc.returncode != 0
    assert "Traceback" in proc.stderr and "WkappaError" in proc.stderr


def test_bad_option_is_exit_2(csv_file):
    proc = run("score", "x.csv", "--true", "a", "--pred", "b", "--weights", "cubic",
               in_process=False)  # fmt: skip
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
    # Errors from the library name the command line's options.
    proc = run("score", csv_file, "--true", "truth", "--pred", "pred", "--ci", "95")
    assert_error(proc, "--ci must be strictly between 0 and 1", "--ci 0.95")
    proc = run("score", csv_file, "--true", "truth", "--pred", "pred", "--format", "csv",
               "--report", "/proc/nonexistent-dir/report.html")  # fmt: skip
    assert_error(proc, "--report /proc/nonexistent-dir/report.html: cannot write the file")


# --------------------------------------------------------------------------- thresholds


def test_thresholds_fit_and_apply(csv_file, ratings, tmp_path):
    doc = _json(run("thresholds", csv_file, "--true", "truth", "--score", "score",
                    "--format", "json"))  # fmt: skip
    expected = wk.optimize_thresholds(ratings["truth"], ratings["score"])
    assert doc["thresholds"] == pytest.approx(expected.thresholds.tolist(), rel=1e-12)
    assert doc["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
    assert doc["n"] == ratings.height and doc["schema"] == "wkappa.thresholds/1"
    text = run("thresholds", csv_file, "--true", "truth", "--score", "score").stdout
    assert f"{expected.statistic:.6f}" in text and "0 | 1" in text

    new = tmp_path / "new.parquet"
    ratings.select("id", pl.col("score").alias("s")).write_parquet(new)
    out = tmp_path / "graded.csv"
    proc = run("thresholds", csv_file, "--true", "truth", "--score", "score", "--apply", new,
               "--apply-score", "s", "--out", out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    graded = pl.read_csv(out)
    assert graded.columns == ["id", "s", "grade"]
    assert graded["grade"].to_list() == expected.predict(ratings["score"]).tolist()
    assert graded["id"].to_list() == ratings["id"].to_list()


APPLY_CSV = (
    "id,truth,score,site,note\n"
    "001,0,0.1,A,ok\n"
    "002,1,1.2,-9,NA\n"
    "003,2,2.1,B,\n"
    "004,1,-9,C,x\n"
    "005,0,0.3, -9 ,N/A\n"
    '006,2,1.9,D,"a, b"\n'
    "007,1,1.1,E,1.50\n"
)


@pytest.mark.parametrize("suffix", ["csv", "tsv", "parquet"])
def test_thresholds_apply_writes_the_file_back_as_it_was(tmp_path, suffix):
    """`--na-values -9 --apply OTHER`: the declared code, the usual spellings of a missing
    value ("NA", "N/A"), a code with spaces and an id with leading zeros were written as
    empty cells or rewritten (001 -> 1). Only the grade of a row whose score is missing is
    empty now; the file's own columns are written back as they were (cell for cell from CSV
    to CSV or TSV; with their types as read into Parquet, where -9 stays -9)."""
    train = tmp_path / "train.csv"
    train.write_text(APPLY_CSV)
    out = tmp_path / f"graded.{suffix}"
    proc = run("thresholds", train, "--true", "truth", "--score", "score", "--na-values", "-9",
               "--nan-policy", "omit", "--apply", train, "--out", out)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    fitted = wk.optimize_thresholds([0, 1, 2, 0, 2, 1], [0.1, 1.2, 2.1, 0.3, 1.9, 1.1])
    scores = [0.1, 1.2, 2.1, None, 0.3, 1.9, 1.1]
    grades = [None if v is None else int(fitted.predict([v])[0]) for v in scores]
    if suffix == "parquet":
        graded = pl.read_parquet(out)
        assert graded["site"].to_list() == ["A", "-9", "B", "C", " -9 ", "D", "E"]
        assert graded["score"].to_list()[3] == -9.0
        assert graded["grade"].to_list() == grades
        return
    lines = out.read_text().splitlines()
    separator = "\t" if suffix == "tsv" else ","
    original = APPLY_CSV.splitlines()
    if suffix == "tsv":
        original = [line.replace(',"a, b"', "\ta, b").replace(",", "\t") for line in original]
        original[6] = "006\t2\t1.9\tD\ta, b"
    assert lines[0] == original[0] + separator + "grade"
    for line, before, grade in zip(lines[1:], original[1:], grades, strict=True):
        assert line == before + separator + ("" if grade is None else str(grade))


def test_thresholds_errors(csv_file, tmp_path):
    proc = run("thresholds", csv_file, "--true", "truth", "--score", "scor")
    assert_error(proc, "no column 'scor'", "Did you mean 'score'")
    path = tmp_path / "s.csv"
    path.write_text("t,s\n0,0.1\n1,zero\n1,0.9\n")
    assert_error(run("thresholds", path, "--true", "t", "--score", "s"), "row 2", "'zero'")
    proc = run("thresholds", csv_file, "--true", "truth", "--score", "score", "--apply", csv_file)
    assert_error(proc, "--apply", "--out")
    # The options of the file to grade did nothing without one: the fit ran, nothing said so.
    for option, value in (("--apply-score", "pred"), ("--grade-col", "grade")):
        proc = run("thresholds", csv_file, "--true", "truth", "--score", "score", option, value)
        assert_error(proc, f"{option} names", "--apply OTHER_FILE --out FILE")
    # An infinite score is named by its file row (the fit reads distinct rows with counts).
    path.write_text("t,s\n0,0.1\n1,0.9\n0,0.1\n0,0.1\n1,-inf\n")
    proc = run("thresholds", path, "--true", "t", "--score", "s", "--nan-policy", "omit")
    assert_error(proc, "s.csv, row 5: column 's' has the score -inf", "finite")
    # The file to grade names its score column otherwise: the error says how to name it.
    other = tmp_path / "test.csv"
    other.write_text("id,pred\n1,0.3\n")
    proc = run("thresholds", csv_file, "--true", "truth", "--score", "score", "--apply", other,
               "--out", tmp_path / "graded.csv")  # fmt: skip
    assert_error(proc, "no column 'score' (given to --score)", "--apply-score COL names")


# --------------------------------------------------------------------------- compare


def test_compare(csv_file, ratings):
    args = ("compare", csv_file, "--true", "truth", "--pred", "pred", "--pred", "other")
    doc = _json(run(*args, "--bootstrap", "400", "--seed", "1", "--format", "json"))
    assert doc["statistic_a"] == pytest.approx(wk.qwk(ratings["truth"], ratings["pred"]))
    assert doc["statistic_b"] == pytest.approx(wk.qwk(ratings["truth"], ratings["other"]))
    assert doc["difference"] == pytest.approx(doc["statistic_a"] - doc["statistic_b"])
    # Counting triples first loses nothing: the same seed gives the library's very interval.
    direct = wk.paired_kappa_test(ratings["truth"], ratings["pred"], ratings["other"],
                                  n_resamples=400, rng=1)  # fmt: skip
    assert doc["confidence_interval"]["low"] == pytest.approx(direct.confidence_interval().low)
    assert doc["confidence_interval"]["high"] == pytest.approx(direct.confidence_interval().high)
    assert doc["pvalue"] == pytest.approx(direct.pvalue)
    assert doc["labels"] == [0, 1, 2, 3, 4] and doc["n"] == ratings.height
    text = run(*args, "--bootstrap", "400", "--seed", "1").stdout
    assert "A = pred" in text and "B = other" in text and "p-value" in text
    assert_error(run("compare", csv_file, "--true", "truth", "--pred", "pred"), "twice")


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_compare_alternative_is_the_library_one_sided_test(csv_file, ratings, alternative):
    """compare had no --alternative, though paired_kappa_test has one."""
    args = ("compare", csv_file, "--true", "truth", "--pred", "pred", "--pred", "other",
            "--bootstrap", "400", "--seed", "1", "--alternative", alternative)  # fmt: skip
    doc = _json(run(*args, "--format", "json"))
    direct = wk.paired_kappa_test(ratings["truth"], ratings["pred"], ratings["other"],
                                  n_resamples=400, rng=1, alternative=alternative)  # fmt: skip
    assert doc["alternative"] == alternative
    assert doc["pvalue"] == pytest.approx(direct.pvalue)
    ci = direct.confidence_interval()
    for end, want in (("low", ci.low), ("high", ci.high)):
        got = doc["confidence_interval"][end]  # JSON has no inf: an open end is null
        assert got == want if math.isfinite(want) else got is None
    text = run(*args).stdout
    assert f"p-value (H0: A = B, {alternative})" in text
    assert "one-sided, paired bootstrap, 400 resamples" in text


# --------------------------------------------------------------------------- demo


def test_demo_prints_the_worked_example_and_the_data_sets(tmp_path):
    proc = run("demo")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "0.3181818181818182" in out  # seed note 000
    assert "0.8724489795918368" in out  # seed note 003
    # The example is named by its source, not as "the worked example" the reader never saw.
    assert '"Kaggle Winning Solutions: quadratic weighted kappa"' in out
    assert "worked example" not in out
    assert "ms_diagnosis.csv" in out and "By patients:" in out and "95% CI" in out
    assert "/diabetes_oof.csv  (truth grade" in out and "proven optimal" in out
    proc = run("demo", "--export-data", tmp_path / "data")
    assert proc.returncode == 0
    assert (tmp_path / "data" / "ms_diagnosis.csv").stat().st_size > 1000
    copied = run("score", "ms_diagnosis.csv", "--true", "new_orleans_neurologist",
                 "--pred", "winnipeg_neurologist", cwd=tmp_path / "data")  # fmt: skip
    assert copied.returncode == 0 and "n               218" in copied.stdout


def test_cli_guide_describes_the_demos_sections():
    """The guide's `wkappa demo` row said "the worked example, a published data set and a
    threshold fit": the demo has five sections, each named with its source."""
    guide = (Path(__file__).parents[1] / "docs" / "user-guide" / "cli.md").read_text()
    row = next(line for line in guide.splitlines() if line.startswith("| `wkappa demo` |"))
    assert "worked example" not in row and "five sections" in row
    for words in ("Kaggle Winning Solutions", "westlund1953", "`wkappa thresholds`",
                  "efron2004", "`wkappa compare`", "LLM judge"):  # fmt: skip
        assert words in row, words


def test_threshold_notes_do_not_ask_for_out_of_fold_predictions_they_were_given(tmp_path):
    """The demo fits thresholds on out-of-fold predictions, then told the reader to fit them on
    out-of-fold predictions; the report said so whatever the scores were. The demo says its
    scores are such, the report makes it a condition; both say the kappa is in-sample."""
    out = " ".join(run("demo").stdout.split())
    assert "fit them on out-of-fold predictions" not in out
    assert "Fit thresholds on out-of-fold predictions, as these are" in out
    assert "so a little higher than on new data" in out
    data = tmp_path / "data"
    assert run("demo", "--export-data", data).returncode == 0
    report = tmp_path / "t.html"
    args = ("thresholds", data / "diabetes_oof.csv", "--true", "grade", "--score", "oof_score")
    assert run(*args, "--report", report).returncode == 0
    page = " ".join(report.read_text().split())
    assert "Fit them on out-of-fold predictions and report" not in page
    assert "If these scores are not out-of-fold predictions, fit the thresholds on" in page
    assert "higher than the kappa to expect on new data" in page


def test_demo_runs_in_an_explicit_directory_without_chdir(tmp_path, monkeypatch, capsys):
    """The demo never changes the working directory: with --dir it copies the data there and
    prints each command with the paths it reads, so the commands run again as printed."""

    from wkappa._cli import main

    def refuse(path):
        raise AssertionError(f"the demo changed directory to {path}")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "chdir", refuse)
    assert main(["demo", "--dir", "out"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "diabetes_oof.csv",
        "ms_diagnosis.csv",
    ]
    command = next(line for line in out.splitlines() if line.startswith("$ wkappa thresholds"))
    assert command.startswith("$ wkappa thresholds out/diabetes_oof.csv --true grade")
    printed = out.split(command + "\n", 1)[1].split("\n\n", 1)[0]
    assert main(shlex.split(command[len("$ wkappa ") :])) == 0
    assert capsys.readouterr().out.rstrip("\n") == printed


def test_compare_shares_categories(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("t,a,b\n0,0,0\n1,1,2\n2,2,5\n1,0,1\n2,2,2\n")
    doc = _json(run("compare", path, "--true", "t", "--pred", "a", "--pred", "b",
                    "--bootstrap", "200", "--seed", "0", "--format", "json"))  # fmt: skip
    assert doc["labels"] == [0, 1, 2, 3, 4, 5]
    t, a, b = [0, 1, 2, 1, 2], [0, 1, 2, 0, 2], [0, 2, 5, 1, 2]
    assert doc["statistic_a"] == pytest.approx(wk.qwk(t, a, min_rating=0, max_rating=5))
    assert doc["statistic_b"] == pytest.approx(wk.qwk(t, b, min_rating=0, max_rating=5))


def test_compare_omits_items_missing_any_rating(tmp_path):
    """--nan-policy omit drops an item missing its truth or either prediction (paired)."""
    path = tmp_path / "gaps.csv"
    path.write_text("t,a,b\n0,0,0\n1,,2\n2,2,\n1,0,1\n2,2,2\n0,1,0\n,1,1\n1,1,2\n")
    args = ("compare", path, "--true", "t", "--pred", "a", "--pred", "b")
    assert_error(run(*args), "row 2", "column 'a' has a missing rating", "--nan-policy omit")
    doc = _json(run(*args, "--nan-policy", "omit", "--bootstrap", "300", "--seed", "2",
                    "--format", "json"))  # fmt: skip
    t, a, b = [0, 1, 2, 0, 1], [0, 0, 2, 1, 1], [0, 1, 2, 0, 2]
    direct = wk.paired_kappa_test(t, a, b, n_resamples=300, rng=2)
    assert doc["n"] == 5 and doc["labels"] == [0, 1, 2]
    assert doc["statistic_a"] == direct.statistic_a and doc["statistic_b"] == direct.statistic_b
    assert doc["confidence_interval"] == direct.to_dict()["confidence_interval"]
    assert doc["pvalue"] == direct.pvalue


def test_an_undefined_comparison_prints_an_undefined_p_value(tmp_path, capsys):
    """Where A - B is undefined (A's kappa is: one category), no bound on p holds: compare and
    judge print 'undefined', as their JSON holds null (a nan compared with the bootstrap's
    smallest p-value printed '<= 0.030')."""
    path = tmp_path / "one.csv"
    path.write_text("t,p,q\n2,2,1\n2,2,2\n2,2,3\n2,2,2\n2,2,2\n")
    for argv in (["compare", str(path), "--true", "t", "--pred", "p", "--pred", "q"],
                 ["judge", str(path), "--candidate", "p", "--raters", "t,q"]):  # fmt: skip
        assert main([*argv, "--bootstrap", "200", "--seed", "0", "--quiet"]) == 0
        out, err = capsys.readouterr()
        assert "undefined" in err
        line = next(line for line in out.splitlines() if "p-value" in line)
        assert "undefined" in line and "<=" not in line, out


def test_compare_with_many_categories_counts_cells_sparsely(tmp_path):
    """K = 200 (a K x K x K table of 8M cells): the non-empty cells alone, same result."""
    rng = np.random.default_rng(4)
    t = rng.integers(0, 200, 3000)
    a = np.clip(t + rng.integers(-5, 6, 3000), 0, 199)
    b = np.clip(t + rng.integers(-20, 21, 3000), 0, 199)
    path = tmp_path / "wide.csv"
    pl.DataFrame({"t": t, "a": a, "b": b}).write_csv(path)
    doc = _json(run("compare", path, "--true", "t", "--pred", "a", "--pred", "b",
                    "--min-rating", "0", "--max-rating", "199", "--bootstrap", "200",
                    "--seed", "5", "--format", "json"))  # fmt: skip
    direct = wk.paired_kappa_test(t, a, b, labels=range(200), n_resamples=200, rng=5)
    assert doc["n"] == 3000 and doc["labels"] == list(range(200))
    assert doc["statistic_a"] == direct.statistic_a and doc["statistic_b"] == direct.statistic_b
    assert doc["confidence_interval"] == direct.to_dict()["confidence_interval"]
    assert doc["pvalue"] == direct.pvalue


# --------------------------------------------------------------------------- progress bar


def _in_terminal(*args: str | Path) -> tuple[int, str]:
    """Run the command with stdout and stderr on a pseudo-terminal; return (code, output)."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "wkappa", *map(str, args)],
                            stdout=slave, stderr=slave, close_fds=True)  # fmt: skip
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return proc.wait(timeout=120), b"".join(chunks).decode(errors="replace")


@pytest.mark.integration  # a 10 MB file read in a pseudo-terminal subprocess
def test_progress_bar_only_on_a_terminal_and_not_with_quiet(tmp_path):
    n = 1_200_000  # about 10 MB of CSV: above the 8 MiB where the bar starts
    i = pl.int_range(n, dtype=pl.Int64, eager=True)
    path = tmp_path / "big.csv"
    pl.DataFrame({"id": i, "truth": i % 5, "pred": (i * 7) % 5}).write_csv(path)
    args = ("score", path, "--true", "truth", "--pred", "pred")
    code, shown = _in_terminal(*args)
    assert code == 0 and "reading big.csv" in shown and "rows" in shown
    code, shown = _in_terminal(*args, "--quiet")
    assert code == 0 and "reading" not in shown and "kappa" in shown
    piped = run(*args)
    assert piped.returncode == 0 and "reading" not in piped.stderr + piped.stdout


def test_version():
    proc = run("--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"wkappa {wk.__version__}"


def test_n_is_written_in_digits_in_text_and_report(tmp_path: Path) -> None:
    """A million pairs (here a sum of sample weights) is 1,000,000 in the text output and in
    the HTML report's headline and --by table (thousands separated, as every count in text),
    never 1e+06; a fractional sum keeps its decimals (with --cluster, which takes any
    weights)."""
    data = tmp_path / "weighted.csv"
    data.write_text(
        "a,b,w,g,id\n0,0,250000,x,1\n1,1,250000,x,2\n2,1,250000,y,3\n2,2,250000,y,4\n0,1,0.25,y,5\n"
    )
    report = tmp_path / "report.html"
    proc = run("score", data, "--true", "a", "--pred", "b", "--weight-col", "w",
               "--by", "g", "--cluster", "id", "--report", report)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "1,000,000.25" in proc.stdout and "e+06" not in proc.stdout
    page = report.read_text()
    assert "<td>500,000</td>" in page and "1,000,000.25" in page and "e+06" not in page


def test_score_csv_says_what_its_interval_and_test_are(csv_file):
    """The CSV row had ci_low/ci_high but not their level or method, nor the weights or the
    test's null value: a row pasted into a table could not say what it was."""
    args = ["score", csv_file, "--true", "truth", "--pred", "pred", "--weights", "linear",
            "--ci", "0.9", "--ci-method", "score", "--kappa0", "0.2"]  # fmt: skip
    proc = run(*args, "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    row = pl.read_csv(proc.stdout.encode()).row(0, named=True)
    assert (row["confidence_level"], row["ci_method"], row["weights"]) == (0.9, "score", "linear")
    assert (row["kappa0"], row["alternative"]) == (0.2, "two-sided")
    doc = json.loads(run(*args, "--format", "json").stdout)
    assert row["ci_low"] == doc["confidence_interval"]["low"]
    assert row["pvalue"] == doc["pvalue"]


def test_score_notes_a_scale_one_grade_apart(tmp_path):
    """A 0-4 truth against a 1-5 prediction (0-based vs 1-based) was scored in silence as a
    six-grade scale with every pair off by one."""
    path = tmp_path / "shift.csv"
    rows = [(t, min(4, max(0, t + d)) + 1) for t in range(5) for d in (-1, 0, 0, 1)]
    path.write_text("truth,pred\n" + "".join(f"{t},{p}\n" for t, p in rows))
    proc = run("score", path, "--true", "truth", "--pred", "pred", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == (
        "wkappa: note: column 'truth' uses the grades 0-4 and column 'pred' 1-5; if one is "
        "0-based and the other 1-based, recode one of them (kappa compares the grades as "
        "written).\n"
    )
    for extra in (["--quiet"], ["--min-rating", "0", "--max-rating", "5"]):
        assert run("score", path, "--true", "truth", "--pred", "pred", *extra).stderr == ""
    same = tmp_path / "same.csv"
    same.write_text("truth,pred\n" + "".join(f"{t},{p - 1}\n" for t, p in rows))
    assert run("score", same, "--true", "truth", "--pred", "pred").stderr == ""


def test_score_notes_an_asymptotic_interval_past_kappas_bounds(tmp_path):
    """'95% CI [0.6333, 1.0062]' was printed without a word: a limit above kappa's maximum
    that a researcher cannot put in a paper as it is."""
    path = tmp_path / "small.csv"
    rows = [(1, 1)] * 4 + [(2, 2)] * 4 + [(3, 3)] * 4 + [(1, 2)] + [(2, 2), (3, 3)] * 10
    groups = ["a"] * 13 + ["b"] * 20
    path.write_text(
        "t,p,g\n" + "".join(f"{t},{p},{g}\n" for (t, p), g in zip(rows, groups, strict=True))
    )
    proc = run("score", path, "--true", "t", "--pred", "p", "--by", "g", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    table = pl.read_csv(proc.stdout.encode())
    assert table["ci_high"][0] > 1 >= table["ci_high"][1]
    assert proc.stderr == (
        "wkappa: note: the asymptotic interval has zero width (--by g: b): its standard error is "
        "0 (as with perfect agreement), which does not mean kappa is known exactly from these "
        "pairs. --ci-method score gives an interval of nonzero width.\n"
        "wkappa: note: the asymptotic interval passes kappa's bounds [-1, 1] (--by g: a, (all)); "
        "it is not clipped. --ci-method score stays inside them and holds its level for small n.\n"
    )
    score = run("score", path, "--true", "t", "--pred", "p", "--by", "g", "--ci-method", "score")
    assert score.returncode == 0 and score.stderr == ""


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_score_alternative_is_the_library_one_sided_test_and_interval(
    csv_file, ratings, alternative, tmp_path
):
    """score had no --alternative, though kappa_test, agree and icc have one."""
    args = ["score", csv_file, "--true", "truth", "--pred", "pred", "--ci", "0.9"]
    doc = _json(run(*args, "--alternative", alternative, "--format", "json"))
    want = wk.kappa_test(ratings["truth"], ratings["pred"], alternative=alternative)
    ci = want.confidence_interval(0.9)
    assert doc["alternative"] == alternative and doc["pvalue"] == want.pvalue
    got = doc["confidence_interval"]
    low = -np.inf if got["low"] is None else got["low"]  # JSON has no -inf
    assert (low, got["high"]) == (ci.low, ci.high)
    report = tmp_path / "one-sided.html"
    proc = run(*args, "--alternative", alternative, "--by", "site", "--report", report)
    assert proc.returncode == 0, proc.stderr
    assert "one-sided, asymptotic" in proc.stdout  # beside the method, the columns aligned
    assert "90% one-sided CI" in proc.stdout  # the --by table's heading
    side = "lower" if alternative == "greater" else "upper"
    assert f"one-sided 90% {side} bound" in report.read_text()  # the report's heading
    assert "one-sided" not in run(*args).stdout


# ----------------------------------------------------------------- --by with many groups


def _group_file(tmp_path: Path, seed: int, weighted: bool) -> tuple[Path, pl.DataFrame]:
    """Random groups of random sizes: groups with one category (undefined kappa), with one
    pair (a null standard error of 0), with empty cells, a missing group value, and sample
    weights that are integers and whole-number floats side by side (frequencies)."""
    rng = np.random.default_rng(seed)
    n_groups = 40
    sizes = rng.integers(1, 30, n_groups)
    sizes[4] = 1  # one pair
    group = np.repeat(np.arange(n_groups), sizes).astype(object)
    n = group.size
    level = rng.integers(0, 4, n)
    truth = np.clip(level + rng.integers(-1, 2, n), 0, 3)
    pred = np.clip(level + rng.integers(-1, 2, n), 0, 3)
    one_category = group == 3
    truth[one_category] = pred[one_category] = 2
    group[group == 5] = None
    weight = np.where(
        rng.random(n) < 0.5, rng.integers(1, 4, n), np.floor(4 * rng.random(n) + 0.25)
    )
    frame = pl.DataFrame(
        {
            "g": [None if v is None else f"g{v:02d}" for v in group],
            "t": truth,
            "p": pred,
            **({"w": np.where(group == 8, 2.0, weight)} if weighted else {}),
        }
    )
    path = tmp_path / f"groups{seed}.csv"
    frame.write_csv(path)
    return path, frame


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    ("weights", "extra"),
    [
        ("quadratic", []),
        ("linear", ["--kappa0", "0.3", "--alternative", "greater"]),
        ("unweighted", ["--ci", "0.9", "--alternative", "less"]),
    ],
)
def test_score_by_many_groups_is_each_group_alone_bit_for_bit(tmp_path, weighted, weights, extra):
    """The groups are scored as one (G, K, K) stack; each group's numbers must be exactly
    those of kappa_test_from_table on that group's own table (undefined kappa, a null SE of
    0, empty cells, integer and float weights), and the table that of its own rows."""
    path, frame = _group_file(tmp_path, seed=len(extra) + weighted, weighted=weighted)
    options = ["--weight-col", "w"] if weighted else []
    proc = run("score", path, "--true", "t", "--pred", "p", "--by", "g", "--weights", weights,
               *options, *extra, "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    level = float(extra[extra.index("--ci") + 1]) if "--ci" in extra else 0.95
    kappa0 = float(extra[extra.index("--kappa0") + 1]) if "--kappa0" in extra else 0.0
    alternative = extra[extra.index("--alternative") + 1] if "--alternative" in extra else None
    values = sorted({v for v in frame["g"].to_list() if v is not None})
    assert [g["group"] for g in doc["groups"]] == [*values, None]
    labels = doc["labels"]
    undefined = 0
    for group in doc["groups"]:
        part = frame.filter(
            pl.col("g").is_null() if group["group"] is None else pl.col("g") == group["group"]
        )
        table = np.zeros((len(labels), len(labels)), dtype=np.float64 if weighted else np.int64)
        counts = part["w"].to_numpy() if weighted else np.ones(part.height, dtype=np.int64)
        np.add.at(table, (part["t"].to_numpy(), part["p"].to_numpy()), counts)
        if weighted:  # a cell's weights are summed as 24-digit decimals (sample_weights)
            decimal = pl.col("w").cast(pl.Decimal(38, 24)).sum().cast(pl.Float64)
            for t, p, w, exact in part.group_by("t", "p").agg(decimal, fsum=pl.col("w")).rows():
                assert w == pytest.approx(math.fsum(exact), rel=4e-16)
                table[t, p] = w
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = wk.kappa_test_from_table(
                table, weights=weights, kappa0=kappa0, alternative=alternative or "two-sided"
            )
            low, high = expected.confidence_interval(level)
        assert group["table"] == table.tolist()
        undefined += math.isnan(expected.statistic)
        keys = ("statistic", "standard_error", "standard_error_null", "test_statistic", "pvalue")
        for key in keys:
            value = getattr(expected, key)
            assert group[key] == (None if math.isnan(value) else value), (group["group"], key)
        interval = group["confidence_interval"]
        assert (interval["low"], interval["high"]) == tuple(
            None if math.isnan(v) or math.isinf(v) else v for v in (low, high)
        )
    assert undefined >= 1  # the group of one category
    if not weighted:
        assert "Kappa is undefined" in proc.stderr


def test_score_by_group_values_nan_and_signed_zero(tmp_path):
    """A float --by column: -0.0 and 0.0 are one group, as polars groups them, and NaN is
    missing: its rows and the null one are the '(missing)' group, last."""
    path = tmp_path / "nan.parquet"
    pl.DataFrame(
        {
            "g": [0.0, -0.0, float("nan"), float("nan"), 1.0, 1.0, None],
            "t": [0, 1, 0, 1, 1, 0, 1],
            "p": [0, 1, 1, 1, 1, 0, 0],
        }
    ).write_parquet(path)
    proc = run("score", path, "--true", "t", "--pred", "p", "--by", "g", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    groups = json.loads(proc.stdout)["groups"]
    assert [g["group"] for g in groups] == [0, 1, None]
    assert [g["n"] for g in groups] == [2, 2, 3]
    assert groups[2]["table"] == [[0, 1], [1, 1]]


@pytest.mark.parametrize("alternative", ["two-sided", "less"])
def test_score_by_score_intervals_are_each_groups_own(csv_file, ratings, alternative, monkeypatch):
    """--ci-method score with --by finds all the groups' intervals in one stacked search;
    each is its group's own interval (to the last bits or so)."""
    from wkappa._stats import group_results

    searched = []
    search = group_results.score_limits
    monkeypatch.setattr(
        group_results,
        "score_limits",
        lambda tables, *rest: searched.append(len(tables)) or search(tables, *rest),
    )
    args = ["score", csv_file, "--true", "truth", "--pred", "pred", "--by", "site", "--ci", "0.9"]
    doc = _json(
        run(*args, "--ci-method", "score", "--alternative", alternative, "--format", "json")
    )
    assert searched == [3]  # the three groups at once
    assert [g["group"] for g in doc["groups"]] == ["north", "south", "west"]
    for group in doc["groups"]:
        rows = ratings.filter(pl.col("site") == group["group"])
        want = wk.kappa_test(rows["truth"], rows["pred"], alternative=alternative)
        ci = want.confidence_interval(0.9, method="score")
        got = group["confidence_interval"]
        assert (got["method"], got["confidence_level"]) == ("score", 0.9)
        for end in ("low", "high"):  # a one-sided interval's open end is null in JSON
            value = getattr(ci, end)
            assert got[end] == (pytest.approx(value, rel=1e-12) if math.isfinite(value) else None)


def test_score_csv_says_rows_read_used_dropped_as_agree_does(tmp_path):
    """score's CSV said n = 4 and nothing of the row it dropped for a missing rating, while
    agree's CSV and score's JSON and text state the drop: both CSVs end with the same row
    counts, in the same order (with --by, the file's counts on every row)."""
    path = tmp_path / "drop.csv"
    path.write_text("a,b,g\n1,1,x\n2,NA,x\n2,2,x\n3,3,y\n1,2,y\n")
    fields = ["rows_read", "rows_used", "rows_dropped", "dropped_because"]
    because = "a missing rating (--nan-policy omit)"
    score = ["score", path, "--true", "a", "--pred", "b", "--nan-policy", "omit"]
    for by in ([], ["--by", "g"]):
        proc = run(*score, *by, "--format", "csv")
        assert proc.returncode == 0, proc.stderr
        table = pl.read_csv(proc.stdout.encode())
        assert table.columns[-4:] == fields
        assert set(table.select(fields).rows()) == {(5, 4, 1, because)}
    proc = run(*score, "--cluster", "g", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert pl.read_csv(proc.stdout.encode()).columns[-5:] == [*fields, "n_clusters"]
    proc = run("agree", path, "--raters", "a,b", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    row = pl.read_csv(proc.stdout.encode()).row(0, named=True)
    assert [row[f] for f in fields] == [5, 5, 0, None]


def test_score_by_leaves_the_missing_group_out_of_the_pooled_kappa(tmp_path):
    """Rows with a blank --by value form the '(missing)' group; it was pooled as a third
    stratum (df 2 for two sites). It stays in the table but is left out of the pooled kappa
    and the test of equal kappas, with a note (text) and n_missing_left_out (JSON)."""
    path = tmp_path / "miss_by.csv"
    rows = "1,1,1\n1,2,2\n1,2,1\n1,3,3\n2,1,1\n2,2,3\n2,3,3\n2,1,2\n,1,1\n,2,2\n,3,2\n,2,1\n"
    path.write_text("s,a,b\n" + rows)
    known = [line.split(",") for line in rows.splitlines() if not line.startswith(",")]
    expected = wk.stratified_kappa_test(
        [int(r[1]) for r in known], [int(r[2]) for r in known], strata=[r[0] for r in known]
    )
    args = ("score", path, "--true", "a", "--pred", "b", "--by", "s")
    text = run(*args).stdout
    line = next(x for x in text.splitlines() if x.startswith("Across s"))
    assert f"kappa {expected.statistic:.4f}" in line and "df 1," in line
    assert "  (left out, no s value, its stratum unknown: (missing), 4 pairs)" in text
    assert "  (missing)   4" in text
    doc = _json(run(*args, "--format", "json"))
    across = doc["across_groups"]
    assert across["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
    assert across["homogeneity_df"] == 1 and across["n_missing_left_out"] == 4
    assert [g["group"] for g in doc["groups"]] == [1, 2, None]
    report = tmp_path / "r.html"
    assert run(*args, "--report", report).returncode == 0
    page = report.read_text()
    assert "(left out, no s value, its stratum unknown: (missing), 4 pairs)" in page
    assert "Across the values of s (the 4 pairs without a value left out)" in page
    # A float NaN is a missing value, as in a rating: its rows join the null ones in
    # '(missing)' (they were a group named 'nan', pooled as a stratum).
    table = pl.read_csv(path).with_columns(pl.col("s").cast(pl.Float64))
    nan = pl.DataFrame({"s": [math.nan] * 4, "a": [1, 2, 3, 3], "b": [1, 3, 3, 2]})
    for name, both in (("nans.parquet", nan.vstack(table)), ("nans.csv", table.vstack(nan))):
        written = tmp_path / name
        if name.endswith(".csv"):
            both.write_csv(written)  # NaN written as the text NaN
        else:
            both.write_parquet(written)
        doc = _json(run("score", written, *args[2:], "--format", "json"))
        assert [g["group"] for g in doc["groups"]] == [1, 2, None]
        assert doc["groups"][-1]["n"] == 8
        assert doc["across_groups"]["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
        assert doc["across_groups"]["n_missing_left_out"] == 8
        assert doc["across_groups"]["homogeneity_df"] == 1
        shown = run("score", written, *args[2:]).stdout
        assert "  (missing)   8" in shown and "\n  nan " not in shown
    path.write_text("s,a,b\n" + "".join(x for x in rows.splitlines(True) if x[0] != ","))
    assert _json(run(*args, "--format", "json"))["across_groups"]["n_missing_left_out"] == 0
    assert "left out" not in run(*args).stdout


@pytest.mark.parametrize("option", ["--export-data", "--dir"])
def test_demo_into_a_file_names_it_as_a_file(tmp_path, capsys, option):
    """It said "notes.csv: File exists", the operating system's words."""
    path = tmp_path / "notes.csv"
    path.write_text("mine\n")
    assert main(["demo", option, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{path} is a file, not a directory; the demo copies its data files" in err
    assert path.read_text() == "mine\n"
