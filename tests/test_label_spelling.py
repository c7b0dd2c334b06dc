"""Labels that differ only by surrounding whitespace are refused on every entry point (issue 24).

``"mild"`` and ``"mild "`` would count as two categories and change kappa without a word; each
entry point refuses them with both spellings and the first place, or (with ``labels=``) says
why the padded spelling is not a label. The command line's ``--strip-labels`` strips them,
and then gives what the stripped data gives in Python.
"""

from __future__ import annotations

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
    _refused("item 1, rater 1", lambda: wk.agreement(frame))
    message = _refused("whitespace", lambda: wk.agreement(frame, labels=ORDER))
    assert "'mild ' for item 1, rater 1 is not in `labels`" in message


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
    common = ["--true", "Human Score ", "--weights", "unweighted"]
    for argv in (
        ["score", path, *common, "--pred", "llm"],
        ["compare", path, *common, "--pred", "llm", "--pred", "llm"],
    ):
        result = run(*argv)
        assert result.returncode == 2, argv
        assert "ws.csv, row 3:" in result.stderr and "column 'llm'" in result.stderr
    labelled = run("score", path, "--true", "Human Score ", "--pred", "llm", "--labels",
                   ",".join(ORDER))  # fmt: skip
    assert labelled.returncode == 2 and "the label 'mild'" in labelled.stderr
    ok = run("score", path, *common, "--pred", "llm", "--strip-labels", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    assert '"statistic": 1.0' in ok.stdout
