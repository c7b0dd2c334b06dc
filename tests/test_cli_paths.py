"""The command line on a realistic messy export (issue 24): every command says how many rows
it read, used and dropped and why, states K and the categories in order, prints p-values
below 0.001 as ``< 0.001`` (never ``0.000``), and its errors speak in options (the first bad row,
"did you mean" for a mistyped option, column names matched exactly as written)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from cli_calls import refusal
from test_cli import run
from wkappa._cli.output import RowCount, bootstrap_pvalue, format_pvalue
from wkappa._stats import smallest_pvalue

DATA = Path(__file__).parent / "data"
ESSAYS = DATA / "essays_messy.csv"
HUMAN = "Human Score"  # the export's header has a trailing space, which is not the name's
pytestmark = pytest.mark.integration


def _expected_rows(*columns: str) -> tuple[int, int]:
    """(rows read, rows with every one of ``columns`` present), counted with the csv module."""
    with ESSAYS.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows = [{name.strip(): cell for name, cell in row.items()} for row in rows]
    present = [r for r in rows if all(r[c] not in ("", "NA") for c in columns)]
    return len(rows), len(present)


def test_the_export_is_messy():
    raw = ESSAYS.read_bytes()
    assert b"\r\n" in raw and (b",NA," in raw or b",NA\r\n" in raw) and b",," in raw
    assert raw.startswith(b"essay id,Human Score ,")


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_score_says_rows_read_used_dropped(fmt, tmp_path):
    read, used = _expected_rows(HUMAN, "model A")
    assert read - used > 0
    report = tmp_path / "r.html"
    result = run(
        "score",
        ESSAYS,
        "--true",
        HUMAN,
        "--pred",
        "model A",
        "--nan-policy",
        "omit",
        "--format",
        fmt,
        "--report",
        report,
    )
    assert result.returncode == 0, result.stderr
    line = f"{read} read, {used} used, {read - used} dropped: a missing rating"
    if fmt == "json":
        document = json.loads(result.stdout)
        assert (document["rows_read"], document["rows_used"]) == (read, used)
        assert document["rows_dropped"] == document["omitted_rows"] == read - used
        assert document["n_categories"] == 6 and document["labels"] == [1, 2, 3, 4, 5, 6]
    elif fmt == "csv":
        row = next(csv.DictReader(result.stdout.splitlines()))
        assert row["n_categories"] == "6" and row["labels"] == "1|2|3|4|5|6"
        assert row["n"] == str(used)
        counts = [row["rows_read"], row["rows_used"], row["rows_dropped"]]
        assert counts == [str(read), str(used), str(read - used)]
        assert row["dropped_because"] == "a missing rating (--nan-policy omit)"
    else:
        assert line in result.stdout
        assert "K = 6 categories: 1, 2, 3, 4, 5, 6" in result.stdout
    page = report.read_text()
    assert line in page and "K = 6 categories: 1, 2, 3, 4, 5, 6" in page


def test_thresholds_and_compare_say_rows_read_used_dropped():
    read, used = _expected_rows(HUMAN, "model A")
    result = run(
        "thresholds", ESSAYS, "--true", HUMAN, "--score", "model A", "--nan-policy", "omit"
    )
    assert result.returncode == 0, result.stderr
    assert f"{read} read, {used} used, {read - used} dropped: a missing grade or score" in (
        result.stdout
    )
    assert "K = 6 grades: 1, 2, 3, 4, 5, 6" in result.stdout
    document = json.loads(
        run(
            "thresholds",
            ESSAYS,
            "--true",
            HUMAN,
            "--score",
            "model A",
            "--nan-policy",
            "omit",
            "--format",
            "json",
        ).stdout
    )
    assert (document["rows_read"], document["rows_used"], document["n"]) == (read, used, used)
    read, used = _expected_rows(HUMAN, "model A", "model B")
    result = run(
        "compare",
        ESSAYS,
        "--true",
        HUMAN,
        "--pred",
        "model A",
        "--pred",
        "model B",
        "--nan-policy",
        "omit",
        "--bootstrap",
        "200",
        "--seed",
        "1",
    )
    assert result.returncode == 0, result.stderr
    assert f"{read} read, {used} used, {read - used} dropped" in result.stdout
    assert "K = 6 categories" in result.stdout


def test_row_count_text():
    assert RowCount(10).text() == "10 read, all used"
    assert RowCount(2000, 191).text() == (
        "2,000 read, 1,809 used, 191 dropped: a missing rating (--nan-policy omit)"
    )
    assert RowCount(5, 1).to_dict()["dropped_because"] is not None
    assert RowCount(5).to_dict()["dropped_because"] is None


def test_pvalues_below_0001_read_as_a_journal_writes_them():
    """Every text table and report writes p as APA style does: three decimals, "< 0.001"
    below that (it wrote "< 2.2e-16", "6.24e-08" or "0.0123" by command and size)."""
    assert format_pvalue(0.0) == "< 0.001"
    assert format_pvalue(1e-300) == "< 0.001"
    assert format_pvalue(3e-16) == "< 0.001"
    assert format_pvalue(0.00099999) == "< 0.001"
    assert format_pvalue(0.001) == "0.001"
    assert format_pvalue(0.0123) == "0.012"
    assert format_pvalue(float("nan")) == "undefined"
    result = run("score", ESSAYS, "--true", HUMAN, "--pred", "model A", "--nan-policy", "omit")
    assert "< 0.001" in result.stdout and "0.000 " not in result.stdout
    assert not re.search(r"\de-\d", result.stdout), result.stdout


def test_bootstrap_pvalues_at_their_floor_read_alike_in_compare_and_judge(tmp_path):
    """compare printed 'p  2.29e-04  the smallest possible is 2.29e-04' and judge
    '< 0.0002  the smallest a ...-resample bootstrap shows' for the same situation: a
    bootstrap p-value at the smallest value its resamples can show. The bound is rounded up
    (0.0022 is '<= 0.003', never the untrue '<= 0.002')."""
    floor = smallest_pvalue(999, 200, "two-sided")
    assert bootstrap_pvalue(floor, 999, 200, "two-sided", None) == (
        "<= 0.003",
        "at the smallest p-value 999 resamples can show",
    )
    assert bootstrap_pvalue(0.0, 9999, 200, "two-sided", None)[0] == "< 0.001"
    assert bootstrap_pvalue(0.0123, 999, 200, "two-sided", None) == ("0.012", "")
    # few clusters: the note says what ten times the resamples would show
    _, note = bootstrap_pvalue(0.0, 999, 3, "two-sided", 3)
    more = format_pvalue(smallest_pvalue(9999, 3, "two-sided"))
    assert note == (
        f"at the smallest p-value 999 resamples of 3 clusters can show (9,999 would show {more})"
    )
    truth = [i % 4 for i in range(200)]
    ratings = tmp_path / "ratings.csv"
    ratings.write_text(
        "truth,good,bad,p1,p2\n" + "".join(f"{t},{t},{(t + 2) % 4},{t},{t}\n" for t in truth)
    )
    compare = run("compare", ratings, "--true", "truth", "--pred", "good", "--pred", "bad",
                  "--bootstrap", "99", "--seed", "0")  # fmt: skip
    judge = run("judge", ratings, "--raters", "p1,p2", "--candidate", "bad",
                "--bootstrap", "99", "--seed", "0")  # fmt: skip
    for result in (compare, judge):
        assert result.returncode == 0, result.stderr
        line = next(x for x in result.stdout.splitlines() if "99 resamples can show" in x)
        assert "p-value" in line and "<= " in line, result.stdout


def test_hints_name_options_and_the_first_bad_row(tmp_path):
    scores = tmp_path / "scores.csv"
    lines = ["y,p", "2,3.28"] + [f"{1 + i % 5},{1 + i % 4}" for i in range(1500)]
    lines += ["3,1.15", "4,2.5"]
    scores.write_text("\n".join(lines) + "\n")
    for argv in (
        ["score", scores, "--true", "y", "--pred", "p"],
        ["thresholds", scores, "--true", "p", "--score", "y"],
    ):
        result = run(*argv)
        assert result.returncode == 2
        assert "row 1:" in result.stderr and "3.28" in result.stderr, result.stderr
        assert "wkappa thresholds" in result.stderr
        assert "np.rint" not in result.stderr and "optimize_thresholds" not in result.stderr
    words = tmp_path / "words.csv"
    words.write_text("a,b\nnone,none\nmild,\nsevere,severe\n")
    for extra in ([], ["--labels", "none,mild,severe"]):
        result = run(
            "score", words, "--true", "a", "--pred", "b", "--weights", "unweighted", *extra
        )
        assert result.returncode == 2 and "row 2:" in result.stderr
        assert "--nan-policy omit" in result.stderr and "nan_policy" not in result.stderr


def test_did_you_mean_for_a_mistyped_option():
    result = run("score", ESSAYS, "--true", HUMAN, "--pred", "model A", "--nan-polcy", "omit")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1  # one line
    assert "'--nan-polcy omit' (did you mean --nan-policy?)" in result.stderr
    assert "wkappa score --help" in result.stderr
    result = run("agree", ESSAYS, "--raters", f"{HUMAN},model A", "--labls=1,2")
    assert "did you mean --labels?" in result.stderr


def test_a_header_s_surrounding_spaces_are_not_part_of_the_name():
    """The header 'Human Score ' names the column 'Human Score', in the options and in every
    output; the option given with the space is refused with the name to give."""
    result = run("score", ESSAYS, "--true", "Human Score ", "--pred", "model A")
    assert result.returncode == 2
    assert "the space is in the value of --true" in result.stderr
    assert result.stderr.rstrip().endswith("--true 'Human Score'.")
    result = run("agree", ESSAYS, "--raters", "Human Score,model A", "--nan-policy", "omit")
    assert result.returncode == 0, result.stderr
    assert "raters       Human Score, model A\n" in result.stdout


@pytest.mark.slow
def test_the_report_shows_rows_and_categories_in_chromium(tmp_path):
    import html
    import re
    import shutil
    import subprocess

    from chromium import CHROMIUM_FLAGS

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("Debian's chromium is not installed (make chromium installs it)")
    report = tmp_path / "r.html"
    result = run("score", ESSAYS, "--true", HUMAN, "--pred", "model A", "--nan-policy", "omit",
                 "--report", report)  # fmt: skip
    assert result.returncode == 0, result.stderr
    proc = subprocess.run(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
         "--virtual-time-budget=5000", "--dump-dom", report.resolve().as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = html.unescape(re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", proc.stdout,
                                flags=re.S))  # fmt: skip
    text = " ".join(text.split())
    read, used = _expected_rows(HUMAN, "model A")
    assert f"file rows: {read} read, {used} used, {read - used} dropped" in text
    assert "K = 6 categories: 1, 2, 3, 4, 5, 6" in text


NO_PYARROW = """
import sys
sys.modules["pyarrow"] = None  # as if not installed: `import pyarrow` raises ImportError
from wkappa._cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_cli_extra_works_without_pyarrow(tmp_path):
    import re
    import subprocess
    import sys

    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    cli = re.search(r"^cli = \[(.*)\]$", pyproject, flags=re.M)
    assert cli is not None and "polars" in cli.group(1) and "pyarrow" not in cli.group(1)
    script = tmp_path / "no_pyarrow.py"
    script.write_text(NO_PYARROW)

    def wkappa(*argv: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, script, *map(str, argv)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)  # fmt: skip

    essays = ["--true", HUMAN, "--pred", "model A", "--nan-policy", "omit"]
    assert wkappa("score", ESSAYS, *essays, "--report", "r.html").returncode == 0
    graded = wkappa("thresholds", ESSAYS, "--true", HUMAN, "--score", "model B", "--nan-policy",
                    "omit", "--apply", ESSAYS, "--out", "graded.parquet")  # fmt: skip
    assert graded.returncode == 0, graded.stderr
    again = wkappa("score", "graded.parquet", *essays, "--format", "json")
    assert again.returncode == 0 and '"rows_read": 300' in again.stdout, again.stderr
    compared = wkappa("compare", ESSAYS, "--true", HUMAN, "--pred", "model A", "--pred",
                      "model B", "--nan-policy", "omit", "--bootstrap", "99")  # fmt: skip
    assert compared.returncode == 0, compared.stderr
    agreed = wkappa("agree", DATA / "annotations_long.csv", "--item", "item_id", "--rater",
                    "annotator", "--rating", "label", "--strip-labels")  # fmt: skip
    assert agreed.returncode == 0, agreed.stderr


def test_demo_has_several_raters_and_explains_the_last_digit():
    result = run("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "0.31818181818181823" in out and "0.3181818181818182" in out
    assert "one unit in the last place" in out and "7/22" in out
    assert "5. Several raters and an LLM judge" in out
    assert "wkappa.rater_vs_panel(panel, judge)" in out and "PABAK" in out
    assert "wkappa judge FILE" in out


def test_pairwise_heatmap_scale_shows_small_differences():
    import numpy as np

    from wkappa._cli.report import heatmap_range

    close = np.array([[1.0, 0.80, 0.87], [0.80, 1.0, 0.83], [0.87, 0.83, 1.0]])
    assert heatmap_range(close) == pytest.approx((0.80, 0.90))
    same = np.array([[1.0, 0.5], [0.5, 1.0]])
    assert heatmap_range(same) == pytest.approx((0.45, 0.55))  # at least 0.1 wide
    wide = np.array([[1.0, -0.3], [-0.3, 1.0]])
    assert heatmap_range(np.where(np.eye(2) > 0, 1.0, [[0, 0.99], [0.99, 0]])) == pytest.approx(
        (0.9, 1.0)
    )
    assert heatmap_range(wide) == pytest.approx((-0.35, -0.25))
    assert heatmap_range(np.full((2, 2), np.nan)) == (-1.0, 1.0)


@pytest.mark.parametrize("option", ["--out", "--apply"])
def test_an_apply_or_out_name_without_a_known_suffix_names_the_option(tmp_path, option):
    """'--out grades.xlsx' was told to 'pass --input-format', an option of the main file
    only, after the fitted thresholds had already been printed."""
    fitted = tmp_path / "fit.csv"
    fitted.write_text("truth,score\n" + "".join(f"{i % 3},{i % 3 + 0.1}\n" for i in range(12)))
    other = tmp_path / "new.csv"
    other.write_text("score\n0.5\n1.7\n")
    names = {"--apply": str(other), "--out": str(tmp_path / "graded.csv")}
    names[option] = str(tmp_path / "graded.xyz")
    proc = run("thresholds", fitted, "--true", "truth", "--score", "score",
               "--apply", names["--apply"], "--out", names["--out"])  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        f"wkappa: error: cannot tell the format of {names[option]!r} ({option}) from its name. "
        "Hint: name it with .csv, .tsv, .parquet, .arrow or .jsonl (.gz compresses CSV, TSV "
        "and JSON lines).\n"
    )


def test_a_directory_or_a_missing_file_is_named_before_its_format(tmp_path, capsys):
    """A directory of Parquet files (as Spark writes one) was told "cannot tell the format of
    'scored' from its name. Hint: pass --input-format ...", and with --input-format parquet,
    "scored is a directory, not a file"; a missing file without a suffix likewise."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet

    dataset = tmp_path / "scored"
    (dataset / "day=1").mkdir(parents=True)
    for i in range(3):
        pyarrow.parquet.write_table(
            pa.table({"a": [1, 2], "b": [1, 1]}), dataset / f"day=1/p{i}.parquet"
        )
    (dataset / "_SUCCESS").write_text("")
    for extra in ([], ["--input-format", "parquet"]):
        err = refusal(capsys, ["score", str(dataset), "--true", "a", "--pred", "b", *extra])
        assert err.startswith(f"wkappa: error: {dataset} is a directory of 3 Parquet files"), err
        assert f"polars.scan_parquet('{dataset}/**/*.parquet')" in err, err
        assert "--input-format" not in err, err
    empty = tmp_path / "nothing"
    empty.mkdir()
    err = refusal(capsys, ["agree", str(empty), "--raters", "a,b"])
    assert (
        err == f"wkappa: error: {empty} is a directory, not a file. Hint: give one of its files."
    ), err
    err = refusal(capsys, ["score", str(tmp_path / "scores"), "--true", "a", "--pred", "b"])
    assert err.startswith(f"wkappa: error: {tmp_path / 'scores'}: no such file."), err
