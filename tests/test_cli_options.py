"""Options that were silently overridden or ignored: an option given twice with different
values, a column against itself, the candidate inside its own panel, bootstrap options
without a bootstrap, too few resamples, plan's --table moved by --kappa1."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_calls import json_output, refusal
from wkappa._cli import main

_ROWS = "a,b,c,h0,h1,h2\n" + "".join(
    f"{i % 3},{(i * 2) % 3},{(i + 1) % 3},{i % 3},{(i // 2) % 3},{(i + i // 3) % 3}\n"
    for i in range(30)
)


@pytest.fixture
def ratings(tmp_path: Path) -> str:
    path = tmp_path / "r.csv"
    path.write_text(_ROWS)
    return str(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "{f}", "--true", "a", "--pred", "b", "--true", "b"],
        ["score", "{f}", "--true", "a", "--pred", "b", "--pred", "c"],
        ["score", "{f}", "--true", "a", "--pred", "b", "--ci", "0.9", "--ci", "0.95"],
        ["agree", "{f}", "--raters", "a,b", "--raters", "a,b,c"],
        ["judge", "{f}", "--raters", "h1,h2", "--candidate", "a", "--candidate", "b"],
        ["thresholds", "{f}", "--true", "a", "--score", "b", "--score", "c"],
    ],
)
def test_an_option_given_twice_with_different_values_is_refused(capsys, ratings, argv) -> None:
    """argparse keeps the last value: --true a --pred b --true b scored b against b."""
    argv = [word.format(f=ratings) for word in argv]
    option = next(w for i, w in enumerate(argv) if w.startswith("--") and w in argv[i + 1 :])
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"argument {option}: given twice with different values" in err
    assert f"Hint: give {option} once" in err


def test_the_same_value_twice_is_harmless(capsys, ratings) -> None:
    doc = json_output(capsys, ["score", ratings, "--true", "a", "--pred", "b", "--true", "a"])
    assert doc["true"] == "a"


def test_a_column_against_itself_is_noted(capsys, ratings) -> None:
    assert main(["score", ratings, "--true", "a", "--pred", "a"]) == 0
    err = capsys.readouterr().err
    assert "wkappa: note: --true and --pred name the same column 'a'" in err
    argv = ["compare", ratings, "--true", "a", "--pred", "b", "--pred", "b", "--bootstrap", "999"]
    assert main([*argv, "--seed", "1"]) == 0
    assert "wkappa: note: --pred names the same column 'b'" in capsys.readouterr().err


def test_the_candidate_inside_its_panel_is_noted(capsys, ratings) -> None:
    """--raters h0,h1,h2 --candidate h0 quietly judged h0 against a panel of two."""
    argv = ["judge", ratings, "--raters", "h0,h1,h2", "--candidate", "h0", "--bootstrap", "999"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "wkappa: note: --candidate h0 is also in --raters h0,h1,h2: it is judged against " in err
    assert "a panel of 2 (h1, h2)." in err


@pytest.mark.parametrize(
    ("command", "extra", "named"),
    [
        ("score", ["--seed", "3"], "--seed goes with --bootstrap N"),
        ("agree", ["--seed", "3"], "--seed goes with --bootstrap N"),
        ("score", ["--bootstrap-method", "bca"], "--bootstrap-method goes with --bootstrap N"),
    ],
)
def test_bootstrap_options_without_a_bootstrap_are_refused(
    capsys, ratings, command, extra, named
) -> None:
    columns = ["--true", "a", "--pred", "b"] if command == "score" else ["--raters", "a,b,c"]
    err = refusal(capsys, [command, ratings, *columns, *extra])
    assert named in err
    assert "Hint: add --bootstrap 999, or drop" in err


def test_few_resamples_are_warned(capsys, ratings) -> None:
    argv = ["score", ratings, "--true", "a", "--pred", "b", "--bootstrap", "10", "--seed", "1"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "warning: --bootstrap 10 is few resamples: an interval needs 999 or more" in err
    argv = ["judge", ratings, "--raters", "h1,h2", "--candidate", "a", "--bootstrap", "10"]
    assert main([*argv, "--seed", "1"]) == 0
    assert "--bootstrap 10 is few resamples" in capsys.readouterr().err


def test_plan_kappa1_moving_a_table_is_noted(capsys) -> None:
    assert main(["plan", "--table", "30,5,1;4,30,6;1,5,20", "--kappa1", "0.9"]) == 0
    err = capsys.readouterr().err
    assert "wkappa: note: --kappa1 0.9 moves --table to kappa 0.9" in err
    assert "drop --kappa1 to plan with the table as it is" in err


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [
        ("score", "--report", "r.html"),
        ("score", "--plot", "r.png"),
        ("thresholds", "--out", "r.csv"),
        ("thresholds", "--report", "r.html"),
    ],
)
def test_an_output_that_is_the_input_file_is_refused(
    capsys, tmp_path, monkeypatch, command, option, name
) -> None:
    """--report r.html with the input r.html overwrote the data with the report."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(_ROWS)
    second = ["--pred", "b"] if command == "score" else ["--score", "b"]
    apply = ["--apply", name] if option == "--out" else []
    argv = [command, name, "--input-format", "csv", "--true", "a", *second, *apply]
    err = refusal(capsys, [*argv, option, f"./{name}"])
    assert f"{option} ./{name} is the input file, which it would overwrite" in err
    assert Path(name).read_text() == _ROWS


def test_out_dash_is_refused(capsys, tmp_path, monkeypatch, ratings) -> None:
    """--out - created a file named '-'."""
    monkeypatch.chdir(tmp_path)
    argv = ["thresholds", ratings, "--true", "a", "--score", "b", "--apply", ratings]
    err = refusal(capsys, [*argv, "--out", "-"])
    assert "--out - would write a file named '-'" in err
    assert not Path("-").exists()


def test_a_rater_without_ratings_is_warned(capsys, tmp_path) -> None:
    """agree and judge took a rater column with no ratings silently (icc refuses it)."""
    wide = tmp_path / "e.csv"
    wide.write_text("a,b,c,r4\n1,2,1,\n2,2,3,\n3,3,3,\n1,1,2,\n")
    assert main(["agree", str(wide), "--raters", "a,b,c,r4"]) == 0
    warned = "--raters r4 has no ratings: it counts among the raters but takes no part."
    assert warned in capsys.readouterr().err
    assert main(["judge", str(wide), "--raters", "a,b,r4", "--candidate", "c"]) == 0
    assert "--raters r4 has no ratings" in capsys.readouterr().err
    assert main(["judge", str(wide), "--raters", "a,b,c", "--candidate", "r4"]) == 0
    err = capsys.readouterr().err
    assert "--candidate has no ratings" in err
    assert "`candidate`" not in err
    long = tmp_path / "l.csv"
    rows = [f"{i},{r},{v}" for i in range(1, 4) for r, v in (("a", i), ("b", 2), ("c", ""))]
    long.write_text("item,rater,rating\n" + "\n".join(rows) + "\n")
    assert (
        main(["agree", str(long), "--item", "item", "--rater", "rater", "--rating", "rating"]) == 0
    )
    assert "rater c (--rater rater) has no ratings" in capsys.readouterr().err


def test_messages_speak_the_command_lines_words(capsys, ratings, tmp_path) -> None:
    """Python vocabulary and reprs in messages: a (K, K) array, labels as a Python list, an
    escaped '\\t', a grade index, weights = 'quadratic'."""
    plan = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.4,0.3", "--weights", "bipolar"]
    assert "(K, K)" not in refusal(capsys, plan)
    argv = ["score", ratings, "--true", "a", "--pred", "b"]
    err = refusal(capsys, [*argv, "--labels", "0,1,3.5", "--weights", "linear"])
    assert "which is not in --labels 0,1,3.5. Hint" in err
    err = refusal(capsys, [*argv, "--separator", "\\t"])
    assert "got \\t. Hint: for a tab, --input-format tsv, or --separator $'\\t' in bash." in err
    constant = tmp_path / "c.csv"
    constant.write_text("t,s\n1,0.5\n1,0.7\n1,0.9\n")
    err = refusal(capsys, ["thresholds", str(constant), "--true", "t", "--score", "s"])
    assert "--true column 't' has only the grade 1:" in err
    assert "index" not in err
    assert main(["thresholds", ratings, "--true", "a", "--score", "b", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "weights = quadratic" in out and "'quadratic'" not in out
    compare = ["compare", ratings, "--true", "a", "--pred", "b", "--pred", "c", "--explain"]
    assert main([*compare, "--bootstrap", "999", "--seed", "1"]) == 0
    assert "(weights = quadratic)" in capsys.readouterr().out
    assert main(["agree", ratings, "--raters", "a,b,c", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "benchmarks/" not in out and "Small panels of several raters" in out


def test_plan_coefficient_help_lists_what_it_takes(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["plan", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "cohen (two raters), fleiss, conger, gwet, brennan_prediger, krippendorff or percent"
        in text
    )


def test_hints_do_not_go_round_in_circles(capsys, tmp_path) -> None:
    """thresholds offered --weights unweighted, which it refuses too; --fold-case was the
    hint of a pair --fold-case did not join; --labels x,y,NA kept reading NA as missing;
    n/a and Na got no --na-values hint."""
    text = tmp_path / "tx.csv"
    text.write_text("t,s\nlow,0.1\nhigh,0.9\nlow,0.3\nhigh,0.7\n")
    argv = ["thresholds", str(text), "--true", "t", "--score", "s"]
    for extra in ([], ["--weights", "unweighted"]):
        err = refusal(capsys, [*argv, *extra])
        assert "--weights unweighted accepts" not in err
        assert "thresholds cut the score into ordered grades" in err
    folded = tmp_path / "f.csv"
    folded.write_text("a,b\nstraße,STRASSE\nweg,weg\nstraße,weg\n")
    argv = ["score", str(folded), "--true", "a", "--pred", "b", "--weights", "unweighted"]
    doc = json_output(capsys, [*argv, "--fold-case"])
    assert doc["labels"] == ["strasse", "weg"]
    missing = tmp_path / "na.csv"
    missing.write_text("a,b\nx,y\nNA,NA\ny,NA\nx,x\n")
    argv = ["score", str(missing), "--true", "a", "--pred", "b", "--weights", "unweighted"]
    err = refusal(capsys, [*argv, "--labels", "x,y,NA"])
    assert "--labels lists NA, which the file reader always takes for a missing rating" in err
    for word in ("n/a", "Na", "None", "?"):
        numbers = tmp_path / "n.csv"
        numbers.write_text(f"a,b\n1,2\n2,{word}\n3,3\n")
        err = refusal(capsys, ["score", str(numbers), "--true", "a", "--pred", "b"])
        assert f"declare it: --na-values='{word}'" in err, err


def test_printed_cuts_grade_as_the_fit_does(capsys) -> None:
    """The text printed 1.7091 for the cut 1.7090999999999998, so a score of exactly 1.7091
    got the upper grade although "a score equal to a threshold gets the lower grade"."""
    import wkappa as wk
    from wkappa._cli.demo import data_path

    path = str(data_path("diabetes_oof.csv"))
    assert main(["thresholds", path, "--true", "grade", "--score", "oof_score"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if " | " in line]
    doc = json_output(capsys, ["thresholds", path, "--true", "grade", "--score", "oof_score"])
    for row, cut in zip(rows, doc["thresholds"], strict=True):
        assert float(row[-1]) == cut
    assert "Dinkelbach iterations" in out or "1 Dinkelbach iteration)" in out
    fit = wk.optimize_thresholds([0, 1, 1, 2], [0.1, 0.5, 0.6, 0.9])
    assert "dynamic program(s)" not in fit.explain()


def test_demo_export_does_not_overwrite_other_files(capsys, tmp_path) -> None:
    assert main(["demo", "--export-data", str(tmp_path)]) == 0
    assert main(["demo", "--export-data", str(tmp_path)]) == 0  # its own copies: harmless
    capsys.readouterr()
    changed = tmp_path / "diabetes_oof.csv"
    changed.write_text("mine\n")
    err = refusal(capsys, ["demo", "--export-data", str(tmp_path)])
    assert "diabetes_oof.csv exists and is not the demo's diabetes_oof.csv" in err
    assert changed.read_text() == "mine\n"


def test_counts_agree_in_number(capsys, tmp_path) -> None:
    """'the rater columns has 1 item(s)': the verb and the plural follow the count."""
    path = tmp_path / "one.csv"
    path.write_text("a,b\n1,2\n")
    err = refusal(capsys, ["icc", str(path), "--raters", "a,b"])
    assert "the rater columns: 1 item (rows); at least 2 are needed" in err


def test_agree_csv_has_n_clusters_with_cluster(capsys, tmp_path) -> None:
    """score's CSV has n_clusters with --cluster; agree's had none."""
    import csv
    import io

    path = tmp_path / "c.csv"
    path.write_text(
        "a,b,c,g\n" + "".join(f"{i % 3},{(i + i // 4) % 3},{i % 3},{i // 3}\n" for i in range(24))
    )
    argv = ["agree", str(path), "--raters", "a,b,c", "--cluster", "g", "--format", "csv"]
    assert main([*argv, "--quiet"]) == 0
    (row,) = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert row["n_clusters"] == "8"


@pytest.mark.parametrize("name", ["(all)", "(missing)"])
def test_a_group_named_as_a_summary_row_is_refused(capsys, tmp_path, name) -> None:
    path = tmp_path / "g.csv"
    path.write_text(
        "a,b,g\n" + "".join(f"{i % 3},{(i // 2) % 3},{name if i % 2 else 'x'}\n" for i in range(20))
    )
    err = refusal(capsys, ["score", str(path), "--true", "a", "--pred", "b", "--by", "g"])
    assert f"--by g has a group named '{name}'" in err


def test_csv_labels_field_splits_back_into_the_labels(capsys, tmp_path) -> None:
    """The labels field joined with '|' without escaping: 'x|y' read as two labels."""
    import csv
    import io
    import re

    path = tmp_path / "pipe.csv"
    path.write_text('a,b\nx|y,"z,w"\n"z,w",x|y\n"z,w","z,w"\nx|y,x|y\n')
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weights", "unweighted"]
    assert main([*argv, "--format", "csv", "--quiet"]) == 0
    (row,) = csv.DictReader(io.StringIO(capsys.readouterr().out))
    labels = [re.sub(r"\\(.)", r"\1", part) for part in re.split(r"(?<!\\)\|", row["labels"])]
    assert labels == ["x|y", "z,w"]
