"""``wkappa icc``: wide and long files, JSON, missing ratings and errors in CLI vocabulary."""

from __future__ import annotations

import json

import numpy as np
import pytest

import wkappa as wk
from published import SHROUT_FLEISS_RATINGS
from wkappa._cli.app import main

pytest.importorskip("polars")


@pytest.fixture
def wide(tmp_path):
    path = tmp_path / "sf.csv"
    rows = ["subject,J1,J2,J3,J4"] + [
        ",".join(map(str, [i + 1, *row])) for i, row in enumerate(SHROUT_FLEISS_RATINGS)
    ]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.fixture
def long(tmp_path):
    path = tmp_path / "long.csv"
    lines = ["subject,judge,score"]
    for i, row in enumerate(SHROUT_FLEISS_RATINGS):
        lines += [f"s{i},J{j + 1},{value}" for j, value in enumerate(row)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_text_table_of_the_six_forms(wide, capsys) -> None:
    assert main(["icc", str(wide), "--raters", "J1,J2,J3,J4"]) == 0
    out = capsys.readouterr().out
    assert "6 items x 4 raters (J1, J2, J3, J4), 24 ratings; two-way ANOVA" in out
    assert "ICC(A,1)  ICC2      0.2898  [0.0188, 0.7611]" in out
    assert "ICC(C,k)  ICC3k     0.9093" in out
    assert "overall CCC" in out


def test_json_equals_the_library(wide, capsys) -> None:
    assert (
        main(["icc", str(wide), "--raters", "J1,J2,J3,J4", "--form", "ICC3", "--format", "json"])
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    want = wk.icc(SHROUT_FLEISS_RATINGS, form="C,1").to_dict()
    assert list(document["icc"]) == ["C,1"]
    assert document["icc"]["C,1"] == want
    assert document["ccc"]["statistic"] == pytest.approx(
        wk.ccc(np.array(SHROUT_FLEISS_RATINGS)).statistic
    )


def test_long_layout_equals_wide(wide, long, capsys) -> None:
    main(["icc", str(wide), "--raters", "J1,J2,J3,J4", "--format", "json"])
    first = json.loads(capsys.readouterr().out)
    main(
        [
            "icc",
            str(long),
            "--item",
            "subject",
            "--rater",
            "judge",
            "--rating",
            "score",
            "--format",
            "json",
        ]
    )
    second = json.loads(capsys.readouterr().out)
    assert first["icc"] == second["icc"]


def test_missing_ratings_use_reml(tmp_path, capsys) -> None:
    path = tmp_path / "m.csv"
    path.write_text("a,b,c\n1,2,3\n4,,6\n7,8,8\n2,3,NA\n5,5,6\n9,7,8\n")
    assert main(["icc", str(path), "--raters", "a,b,c", "--form", "A,1"]) == 0
    out = capsys.readouterr().out
    assert "16 ratings; REML variance components" in out
    assert main(["icc", str(path), "--raters", "a,b,c", "--nan-policy", "raise"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--nan-policy omit" in err and "nan_policy" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--raters", "J1"], "--raters needs at least two columns"),
        (["--raters", "J1,J9"], "no column 'J9'"),
        (["--raters", "J1,J2", "--form", "ICC5"], "--form must be"),
        (["--raters", "J1,J2", "--icc0", "1"], "--icc0 must be"),
        ([], "Give either --raters"),
        (["--item", "subject"], "needs all of --item, --rater and --rating"),
    ],
)
def test_errors_are_one_line_in_cli_terms(wide, capsys, argv, message) -> None:
    assert main(["icc", str(wide), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "`" not in err


def test_unparsable_and_repeated_ratings(tmp_path, capsys) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,2\n3,x\n")
    assert main(["icc", str(path), "--raters", "a,b"]) == 2
    assert "row 2: column 'b' has the unparsable value 'x'" in capsys.readouterr().err
    path = tmp_path / "twice.csv"
    path.write_text("t,r,s\n1,a,1\n1,a,2\n1,b,3\n2,a,1\n2,b,2\n")
    assert main(["icc", str(path), "--item", "t", "--rater", "r", "--rating", "s"]) == 2
    assert "twice.csv: Rater 'a' rated item 1 more than once (2 ratings)" in capsys.readouterr().err


def test_one_sided_interval_is_labelled(wide, capsys) -> None:
    # Before: the heading said "95% interval" above one-sided intervals; now "CI" as every
    # command's heading.
    argv = ["icc", str(wide), "--raters", "J1,J2,J3,J4"]
    assert main([*argv, "--alternative", "greater"]) == 0
    out = capsys.readouterr().out
    assert "95% one-sided CI" in out
    expected = wk.icc(np.array(SHROUT_FLEISS_RATINGS, float), form="A,1", alternative="greater")
    row = next(line for line in out.splitlines() if line.startswith("ICC(A,1)"))
    assert f"[{expected.confidence_interval().low:.4f}, 1.0000]" in row
    assert main(argv) == 0
    assert "one-sided" not in capsys.readouterr().out


def test_long_layout_needs_three_different_columns(long, capsys) -> None:
    # Before: polars' DuplicateError as an internal error (exit 1).
    assert (
        main(["icc", str(long), "--item", "subject", "--rater", "judge", "--rating", "judge"]) == 2
    )
    err = capsys.readouterr().err
    assert "--item, --rater and --rating must name 3 different columns" in err
    assert len(err.strip().splitlines()) == 1


def test_an_infinite_rating_is_named_by_row_and_column(tmp_path, capsys) -> None:
    """As wkappa score names it: the file's row and column (wide), its item and rater (long);
    the library's 0-based matrix position is not the user's."""
    wide = tmp_path / "wide.csv"
    wide.write_text("a,b\n1,2\n,\n3,inf\n2,2\n")
    assert main(["icc", str(wide), "--raters", "a,b"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"wkappa: error: {wide}, row 3: column 'b' contains inf; ratings must be finite."
    long = tmp_path / "long.csv"
    long.write_text("item,rater,score\n1,A,1\n1,B,2\n2,A,-inf\n2,B,3\n3,A,2\n3,B,2\n")
    assert main(["icc", str(long), "--item", "item", "--rater", "rater", "--rating", "score"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("long.csv: item 2, rater 'A' contains inf; ratings must be finite."), err


def test_propagate_with_a_missing_rating_does_not_claim_a_reml_fit(tmp_path, capsys) -> None:
    """The heading said 'REML variance components' although nothing was fitted."""
    path = tmp_path / "gap.csv"
    path.write_text("J1,J2,J3\n1,2,3\n2,,3\n4,5,6\n3,3,4\n")
    assert main(["icc", str(path), "--raters", "J1,J2,J3", "--nan-policy", "propagate"]) == 0
    heading = capsys.readouterr().out.splitlines()[0]
    assert "REML" not in heading
    assert heading.endswith(
        "a rating is missing, so every ICC is undefined (--nan-policy propagate)"
    )


def test_a_repeated_rating_is_found_whatever_the_columns_are_called(tmp_path, capsys) -> None:
    """The query's own column name ('len') collided with an item column of that name."""
    path = tmp_path / "twice.csv"
    path.write_text("len,r,s\n1,a,1\n1,a,2\n1,b,3\n2,a,1\n2,b,2\n")
    assert main(["icc", str(path), "--item", "len", "--rater", "r", "--rating", "s"]) == 2
    assert "Rater 'a' rated item 1 more than once (2 ratings)" in capsys.readouterr().err


def test_text_states_the_ccc_interval_and_p_values_alike(tmp_path, capsys) -> None:
    """The CCC line gave '[0.643, 0.941]' without its level or method (and two-sided under
    --alternative greater, unsaid); the p column printed 2.03e-04 as 0.0002 (one digit) beside
    other commands' 2.03e-04 (now every command writes "< 0.001"); the JSON had no 'file' as
    the other commands' have."""
    rows = [[50, 46], [40, 50], [49, 58], [25, 16], [71, 58], [57, 52], [48, 52], [53, 59],
            [58, 59], [45, 48], [62, 61], [49, 49]]  # fmt: skip
    path = tmp_path / "two.csv"
    path.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in rows) + "47,\n")
    assert main(["icc", str(path), "--raters", "a,b"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ccc = wk.ccc(np.array(rows, dtype=float))
    ci = ccc.confidence_interval(0.95)
    assert lines[-1] == (
        f"Lin's CCC {ccc.statistic:.4f}, 95% CI [{ci.low:.4f}, {ci.high:.4f}] (Lin's "
        "delta-method SE of Fisher's z, normal quantile) on 12 complete items (1 with a "
        "missing rating left out)"
    )
    matrix = np.array([*rows, [47, np.nan]], dtype=float)
    one_way = wk.icc(matrix, form="1,1").pvalue
    assert 1e-4 < one_way < 1e-3
    assert lines[3].endswith("< 0.001"), lines[3]
    argv = ["icc", str(path), "--raters", "a,b", "--alternative", "greater", "--ci", "0.9"]
    assert main(argv) == 0
    greater = wk.ccc(np.array(rows, dtype=float), alternative="greater").confidence_interval(0.9)
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"Lin's CCC {ccc.statistic:.4f}, 90% one-sided CI [{greater.low:.4f}, 1.0000] (Lin's "
        "delta-method SE of Fisher's z, normal quantile) on 12 complete items (1 with a "
        "missing rating left out)"
    )
    assert main(["icc", str(path), "--raters", "a,b", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["file"] == str(path)


def test_propagate_applies_to_the_ccc_too(capsys, tmp_path) -> None:
    """--nan-policy propagate showed every ICC undefined but computed the CCC on the
    complete items."""
    path = tmp_path / "m.csv"
    path.write_text("a,b\n1,2\n2,2\n3,\n4,4.5\n5,5\n")
    argv = ["icc", str(path), "--raters", "a,b", "--nan-policy", "propagate"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Lin's CCC undefined (--nan-policy propagate: some ratings are missing)" in out
    assert main([*argv, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ccc"]["statistic"] is None
    assert main(argv[:-2]) == 0  # omit (the default): the CCC of the complete items
    assert "Lin's CCC 0.9315" in capsys.readouterr().out


def test_degrees_of_freedom_in_plain_digits(wide, tmp_path, capsys) -> None:
    # 50,001 items x 3 raters: df2 = 100,000 is written 100000 (APA style), not 1e+05 and not
    # 100,000; Satterthwaite's df (absolute agreement, icc0 > 0) gets two decimals.
    rng = np.random.default_rng(3)
    truth = rng.normal(size=50_001)
    ratings = truth[:, None] + rng.normal(size=(50_001, 3)) + np.array([0.0, 0.3, -0.2])
    path = tmp_path / "big.csv"
    np.savetxt(path, ratings, delimiter=",", header="r1,r2,r3", comments="", fmt="%.4f")
    report = tmp_path / "icc.html"
    argv = ["icc", str(path), "--raters", "r1,r2,r3", "--form", "C,1", "--report", str(report)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "100000" in out and "1e+05" not in out and "100,000" not in out
    assert "F(50000, 100000) = " in report.read_text()
    argv = ["icc", str(wide), "--raters", "J1,J2,J3,J4", "--form", "A,1", "--icc0", "0.2"]
    assert main(argv) == 0
    satterthwaite = wk.icc(SHROUT_FLEISS_RATINGS, form="A,1", icc0=0.2).df2
    assert satterthwaite != round(satterthwaite)
    assert f" {satterthwaite:.2f} " in capsys.readouterr().out


def test_a_long_export_ending_in_blank_rows_is_read(long, capsys) -> None:
    """Rows with neither a rating nor ids (a spreadsheet's empty lines after the data) rate
    nothing: they are dropped and counted, not taken for one rater rating one item twice."""
    clean = json.loads(_icc_json(capsys, long))
    blank = long.with_name("blank.csv")
    blank.write_text(long.read_text().replace("\n", "\r\n") + ",,\r\n,,\r\n")
    found = json.loads(_icc_json(capsys, blank))
    assert found["icc"] == clean["icc"]
    assert (found["rows_read"], found["rows_used"], found["rows_dropped"]) == (26, 24, 2)
    assert (
        main(
            [
                "icc",
                str(blank),
                "--item",
                "subject",
                "--rater",
                "judge",
                "--rating",
                "score",
                "--nan-policy",
                "raise",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "row 25: the row has no rating" in err


def _icc_json(capsys, path) -> str:
    argv = ["icc", str(path), "--item", "subject", "--rater", "judge", "--rating", "score"]
    assert main([*argv, "--format", "json", "--quiet"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_an_infinite_f_is_written_as_a_paper_writes_it(tmp_path, capsys) -> None:
    # Perfect agreement: the error mean square is 0 and F is infinite; text, report and
    # methods sentence write F = ∞ and say why, never Python's "inf".
    path = tmp_path / "perfect.csv"
    path.write_text("item,r1,r2,r3\n1,1,1,1\n2,2,2,2\n3,3,3,3\n4,4,4,4\n5,2,2,2\n")
    report = tmp_path / "icc.html"
    assert main(["icc", str(path), "--raters", "r1,r2,r3", "--form", "A,1",
                 "--report", str(report), "--explain"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "inf" not in text.split()
    assert "∞         4         8    < 0.001" in text
    assert "F = ∞: the error mean square is 0 (no error variance)." in text
    assert "F = ∞ on (4, 8) df" in text  # --explain
    page = report.read_text(encoding="utf-8")
    assert "F(4, 8) = ∞, p &lt; 0.001 (the error mean square is 0)." in page
    assert "<td>inf</td>" not in page and "F = inf" not in page


def test_the_explanation_page_shows_what_the_command_prints(tmp_path, capsys, monkeypatch):
    """docs/explanation/kappa-icc-ccc.md runs `wkappa icc essays.csv --raters a,b` on the
    page's own two columns and shows its output."""
    import re
    import shlex
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "explanation" / "kappa-icc-ccc.md").read_text()
    columns = {name: re.search(rf"^>>> {name} = (\[.*\])$", page, flags=re.M)[1] for name in "ab"}
    a, b = (json.loads(columns[name]) for name in "ab")
    rows = "".join(f"{x},{y}\n" for x, y in zip(a, b, strict=True))
    (tmp_path / "essays.csv").write_text("a,b\n" + rows)
    block = page.split("```text\n$ wkappa ", 1)[1].split("```", 1)[0]
    command, _, shown = block.partition("\n")
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(command)) == 0
    assert capsys.readouterr().out.rstrip("\n") == shown.rstrip("\n")
