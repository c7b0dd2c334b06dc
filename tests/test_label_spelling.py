"""Labels that differ only by surrounding whitespace are refused on every entry point (issue 24).

``"mild"`` and ``"mild "`` would count as two categories and change kappa without a word; each
entry point refuses them with both spellings and the first place, or (with ``labels=``) says
why the padded spelling is not a label. The command line's ``--strip-labels`` strips them,
and then gives what the stripped data gives in Python.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest

import wkappa as wk
from test_cli import run
from wkappa import frames

DATA = Path(__file__).parent / "data"
A = ["none", "mild", "mild", "severe", "none", "moderate"]
B = ["none", "mild ", "mild", "severe", "none", "moderate"]
ORDER = ["none", "mild", "moderate", "severe"]


def _refused(match: str, call) -> str:
    with pytest.raises(wk.WkappaError, match=match) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: wk.weighted_kappa(A, B, weights="unweighted"),
        lambda: wk.kappa_test(A, B, weights="unweighted"),
        lambda: wk.weighted_kappa(np.array(A), np.array(B), weights="unweighted"),
        lambda: wk.weighted_kappa(pd.Series(A), pd.Series(B), weights="unweighted"),
        lambda: wk.weighted_kappa(
            pd.Series(A), pd.Series(B, dtype="category"), weights="unweighted"
        ),
        lambda: wk.weighted_kappa(pl.Series(A), pl.Series(B), weights="unweighted"),
        lambda: wk.weighted_kappa(
            pl.Series(A), pl.Series(B, dtype=pl.Categorical), weights="unweighted"
        ),
    ],
)
def test_two_raters_refuse_two_spellings(call):
    message = _refused("differ only by surrounding whitespace", call)
    assert "'mild' and 'mild '" in message
    assert "`y_pred` at position 1" in message
    assert "strip" in message


def test_the_first_place_is_named_with_missing_values_before_it():
    a = [None, "none", "mild ", "mild"]
    b = ["none", "none", "mild", "mild"]
    message = _refused(
        "whitespace", lambda: wk.weighted_kappa(a, b, weights="unweighted", nan_policy="omit")
    )
    assert "`y_true` at position 2" in message  # the user's position, not the kept pairs'


def test_with_labels_the_padded_spelling_is_named_with_its_position():
    message = _refused(
        "only by surrounding whitespace", lambda: wk.weighted_kappa(A, B, labels=ORDER)
    )
    assert "'mild '" in message and "`y_pred` at position 1" in message
    assert "the label 'mild'" in message


def test_what_was_accepted_stays_accepted():
    # Labels that list both spellings, declared categories, numbers, clean words.
    both = ["none", "mild", "mild ", "moderate", "severe"]
    assert wk.weighted_kappa(A, B, labels=both) < 1
    ordered = pd.Categorical(B, categories=both, ordered=True)
    assert wk.weighted_kappa(pd.Categorical(A, categories=both, ordered=True), ordered) < 1
    assert wk.weighted_kappa(A, A, weights="unweighted") == 1.0
    assert wk.weighted_kappa(A, A, labels=ORDER) == 1.0
    # Stripped, the split is gone: the 0.52-for-1.0 case of the issue.
    stripped = [v.strip() for v in B]
    assert wk.weighted_kappa(A, stripped, weights="unweighted") == 1.0
    # A padded label that is the only spelling is a category like any other.
    assert wk.weighted_kappa(["a ", "b"], ["a ", "b"], weights="unweighted") == 1.0


def test_several_raters_refuse_on_arrays_and_frames():
    matrix = np.array([A, B, A]).T
    message = _refused("whitespace", lambda: wk.agreement(matrix))
    assert "'mild' and 'mild '" in message and "item 1, rater 1" in message
    frame = pd.DataFrame({"x": A, "y": B, "z": A})
    _refused("item 1, column 'y'", lambda: wk.agreement(frame))
    message = _refused("whitespace", lambda: wk.agreement(frame, labels=ORDER))
    assert "'mild ' for item 1, column 'y' is not in `labels`" in message


@pytest.mark.parametrize("make", [pd.DataFrame, pl.DataFrame])
def test_frames_refuse_and_name_the_column(make):
    df = make({"human": A, "judge ": B})
    message = _refused(
        "whitespace",
        lambda: frames.weighted_kappa(df, y_true="human", y_pred="judge ", weights="unweighted"),
    )
    assert "column 'judge '" in message
    _refused(
        "the label 'mild'",
        lambda: frames.weighted_kappa(df, y_true="human", y_pred="judge ", labels=ORDER),
    )
    _refused("whitespace", lambda: frames.agreement(df, raters=["human", "judge "]))


def _long_export() -> pd.DataFrame:
    return pd.read_csv(DATA / "annotations_long.csv")


def test_the_long_export_is_refused_in_python_and_scores_once_stripped():
    df = _long_export()
    assert (df["label"] == "mild ").sum() == 3
    _refused(
        "whitespace",
        lambda: frames.agreement(df, item="item_id", rater="annotator", rating="label"),
    )
    df["label"] = df["label"].str.strip()
    result = frames.agreement(df, item="item_id", rater="annotator", rating="label")
    assert list(result.labels) == sorted(ORDER)


def test_cli_agree_long_refuses_with_the_row_and_strips_on_request():
    path = DATA / "annotations_long.csv"
    options = ["--item", "item_id", "--rater", "annotator", "--rating", "label"]
    refused = run("agree", path, *options)
    assert refused.returncode == 2 and refused.stdout == ""
    first = next(
        i for i, line in enumerate(path.read_text().splitlines()) if line.endswith("mild ")
    )
    assert f"row {first}:" in refused.stderr  # data rows count from 1 below the header
    assert "'mild' and 'mild '" in refused.stderr and "--strip-labels" in refused.stderr
    assert "labels=" not in refused.stderr
    labelled = run("agree", path, *options, "--labels", ",".join(ORDER))
    assert labelled.returncode == 2 and "only by surrounding whitespace" in labelled.stderr
    stripped = run("agree", path, *options, "--strip-labels", "--format", "json")
    assert stripped.returncode == 0, stripped.stderr
    df = _long_export()
    df["label"] = df["label"].str.strip()
    expected = frames.agreement(df, item="item_id", rater="annotator", rating="label")
    assert f"{expected.statistic:.6f}"[:6] in stripped.stdout


def test_cli_score_compare_thresholds_refuse(tmp_path):
    path = tmp_path / "ws.csv"
    path.write_bytes(
        b"id,Human Score ,llm\r\n1,none,none\r\n2,mild,mild\r\n3,mild,mild \r\n"
        b"4,severe,severe\r\n5,moderate,moderate\r\n"
    )
    common = ["--true", "Human Score", "--weights", "unweighted"]
    for argv in (
        ["score", path, *common, "--pred", "llm"],
        ["compare", path, *common, "--pred", "llm", "--pred", "llm"],
    ):
        result = run(*argv)
        assert result.returncode == 2, argv
        assert "ws.csv, row 3:" in result.stderr and "column 'llm'" in result.stderr
    labelled = run("score", path, "--true", "Human Score", "--pred", "llm", "--labels",
                   ",".join(ORDER))  # fmt: skip
    assert labelled.returncode == 2 and "the label 'mild'" in labelled.stderr
    ok = run("score", path, *common, "--pred", "llm", "--strip-labels", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    assert '"statistic": 1.0' in ok.stdout


# ---------------------------------------------------------- labels that differ only by case

CASE_A = ["none", "mild", "mild", "severe", "none", "moderate"]
CASE_B = ["none", "Mild", "mild", "severe", "none", "moderate"]
JUDGE_CASE = DATA / "judge_case.csv"
PANEL = ["ann_1", "ann_2", "ann_3"]


@pytest.mark.parametrize(
    "call",
    [
        lambda: wk.weighted_kappa(CASE_A, CASE_B, weights="unweighted"),
        lambda: wk.kappa_test(np.array(CASE_A), np.array(CASE_B), weights="unweighted"),
        lambda: wk.weighted_kappa(pd.Series(CASE_A), pd.Series(CASE_B), weights="unweighted"),
        lambda: wk.weighted_kappa(pl.Series(CASE_A), pl.Series(CASE_B), weights="unweighted"),
        lambda: wk.weighted_kappa(
            pd.Series(CASE_A), pd.Series(CASE_B, dtype="category"), weights="unweighted"
        ),
        lambda: wk.agreement(np.array([CASE_A, CASE_B, CASE_A], dtype=object).T),
        lambda: wk.rater_vs_panel(
            np.array([CASE_A, CASE_A], dtype=object).T, np.array(CASE_B, dtype=object)
        ),
        lambda: frames.weighted_kappa(
            pd.DataFrame({"h": CASE_A, "j": CASE_B}),
            y_true="h",
            y_pred="j",
            weights="unweighted",
        ),
        lambda: frames.agreement(pl.DataFrame({"h": CASE_A, "j": CASE_B}), raters=["h", "j"]),
    ],
)
def test_labels_that_differ_only_by_case_are_refused_on_every_entry_point(call):
    message = _refused("differ only by case and would count as two categories", call)
    assert "'mild' and 'Mild'" in message and "str.lower()" in message


def test_case_and_whitespace_together_are_named_so():
    message = _refused(
        "only by case and surrounding whitespace",
        lambda: wk.weighted_kappa(["mild", "none"], ["Mild ", "none"], weights="unweighted"),
    )
    assert "'Mild ' first in `y_pred` at position 0" in message
    message = _refused(
        "the label 'mild' only by case",
        lambda: wk.weighted_kappa(CASE_A, CASE_B, labels=ORDER),
    )
    assert "'Mild' in `y_pred` at position 1 is not in `labels`" in message


def test_distinct_case_labels_given_explicitly_keep_working():
    """Labels that list both spellings are two categories, as before: the same kappa as the
    ratings coded as integers."""
    a = ["A", "a", "b", "a", "A", "b"]
    b = ["A", "a", "a", "a", "b", "b"]
    labels = ["A", "a", "b"]
    code = {label: k for k, label in enumerate(labels)}
    for weights in ("unweighted", "quadratic"):
        expected = wk.weighted_kappa([code[v] for v in a], [code[v] for v in b], weights=weights)
        assert wk.weighted_kappa(a, b, labels=labels, weights=weights) == expected
    matrix = np.array([a, b, a], dtype=object).T
    coded = np.vectorize(code.get)(matrix).astype(float)
    assert wk.agreement(matrix, labels=labels).statistic == pytest.approx(
        wk.agreement(coded, labels=[0, 1, 2]).statistic, abs=1e-15
    )
    ordered = pd.Categorical(a, categories=labels, ordered=True)
    assert wk.weighted_kappa(ordered, pd.Categorical(b, categories=labels, ordered=True)) < 1
    # One spelling alone is a category like any other.
    assert wk.weighted_kappa(["Mild", "none"], ["Mild", "none"], weights="unweighted") == 1.0


def test_the_judge_export_with_capitals_is_refused_in_python_until_lowered():
    df = pd.read_csv(JUDGE_CASE)
    assert df["LLM judge"].isin(["Mild", "None", "Moderate", "Severe"]).sum() >= 3
    assert b"\r\n" in JUDGE_CASE.read_bytes()
    _refused("only by case", lambda: frames.agreement(df, raters=[*PANEL, "LLM judge"]))
    df["LLM judge"] = df["LLM judge"].str.lower()
    result = frames.agreement(df, raters=[*PANEL, "LLM judge"], labels=ORDER)
    assert list(result.labels) == ORDER


def _first_capital_row() -> int:
    lines = JUDGE_CASE.read_text().splitlines()
    capitals = {label.capitalize() for label in ORDER}
    return next(i for i, line in enumerate(lines) if capitals & set(line.split(",")))


@pytest.mark.parametrize(
    "argv",
    [
        ["agree", JUDGE_CASE, "--raters", "ann_1,ann_2,ann_3,LLM judge"],
        ["judge", JUDGE_CASE, "--raters", "ann_1,ann_2,ann_3", "--candidate", "LLM judge"],
        ["score", JUDGE_CASE, "--true", "ann_1", "--pred", "LLM judge", "--nan-policy", "omit"],
        [
            "compare",
            JUDGE_CASE,
            "--true",
            "ann_1",
            "--pred",
            "ann_2",
            "--pred",
            "LLM judge",
            "--nan-policy",
            "omit",
        ],
    ],
    ids=lambda argv: argv[0],
)
def test_cli_refuses_case_with_the_first_row_and_folds_on_request(argv):
    row = _first_capital_row()
    weights = [] if argv[0] in ("agree", "judge") else ["--weights", "unweighted"]
    refused = run(*argv, *weights)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert f"judge_case.csv, row {row}:" in refused.stderr
    assert "only by case" in refused.stderr and "--fold-case" in refused.stderr
    assert "labels=" not in refused.stderr and "str.lower" not in refused.stderr
    labelled = run(*argv, *weights, "--labels", ",".join(ORDER))
    assert labelled.returncode == 2 and f"row {row}:" in labelled.stderr
    assert "is not in --labels" in labelled.stderr and "only by case" in labelled.stderr
    extra = ["--bootstrap", "200", "--seed", "1"] if argv[0] in ("judge", "compare") else []
    folded = run(*argv, *weights, *extra, "--labels", ",".join(ORDER), "--fold-case",
                 "--format", "json")  # fmt: skip
    assert folded.returncode == 0, folded.stderr
    assert '"n_categories": 4' in folded.stdout.replace("\n", "").replace("  ", " ") or (
        json.loads(folded.stdout)["n_categories"] == 4
    )


def test_cli_fold_case_gives_what_python_gives_on_lowered_data():
    df = pd.read_csv(JUDGE_CASE)
    df["LLM judge"] = df["LLM judge"].str.lower()
    raters = [*PANEL, "LLM judge"]
    for weights, labels in (("quadratic", ["--labels", ",".join(ORDER)]), ("unweighted", [])):
        expected = frames.agreement(df, raters=raters, labels=ORDER, weights=weights)
        result = run("agree", JUDGE_CASE, "--raters", ",".join(raters), "--fold-case",
                     "--weights", weights, *labels, "--format", "json")  # fmt: skip
        assert result.returncode == 0, result.stderr
        document = json.loads(result.stdout)
        assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-14)
        assert sorted(document["labels"]) == sorted(ORDER)
    # --labels' own spelling wins: capitals in --labels, lower case in the file.
    capitals = [label.capitalize() for label in ORDER]
    result = run("agree", JUDGE_CASE, "--raters", ",".join(raters), "--fold-case",
                 "--labels", ",".join(capitals), "--format", "json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["labels"] == capitals


def test_cli_fold_case_refuses_labels_it_would_merge_and_keeps_listed_spellings(tmp_path):
    path = tmp_path / "case.csv"
    path.write_text("a,b\nA,A\na,a\nb,a\nA,b\n")
    merged = run("score", path, "--true", "a", "--pred", "b", "--labels", "A,a,b", "--fold-case")
    assert merged.returncode == 2 and "--labels has 'A' and 'a'" in merged.stderr
    kept = run("score", path, "--true", "a", "--pred", "b", "--labels", "A,a,b",
               "--weights", "unweighted", "--format", "json")  # fmt: skip
    assert kept.returncode == 0, kept.stderr
    expected = wk.weighted_kappa(["A", "a", "b", "A"], ["A", "a", "a", "b"], labels=["A", "a", "b"],
                                 weights="unweighted")  # fmt: skip
    assert json.loads(kept.stdout)["statistic"] == pytest.approx(expected, abs=1e-15)


def test_cli_strip_then_case_is_still_refused_with_its_row(tmp_path):
    path = tmp_path / "both.csv"
    path.write_text("a,b\nnone,none\nmild,mild\nsevere,Mild \n")
    stripped = run("score", path, "--true", "a", "--pred", "b", "--strip-labels")
    assert stripped.returncode == 2
    assert "row 3:" in stripped.stderr and "'mild' and 'Mild'" in stripped.stderr
    both = run("score", path, "--true", "a", "--pred", "b", "--strip-labels", "--fold-case",
               "--labels", "none,mild,severe", "--format", "json")  # fmt: skip
    assert both.returncode == 0, both.stderr


def test_the_how_to_shows_what_the_command_prints(tmp_path):
    page = (Path(__file__).parents[1] / "docs" / "how-to" / "messy-labels.md").read_text()
    block = page.split("```text\n", 1)[1].split("```", 1)[0]
    (tmp_path / "judge_case.csv").write_bytes(JUDGE_CASE.read_bytes())
    for chunk in block.split("$ wkappa ")[1:]:
        command, _, shown = chunk.partition("\n")
        result = run(*shlex.split(command), cwd=tmp_path)
        assert (result.stdout + result.stderr).rstrip("\n") == shown.rstrip("\n"), command
