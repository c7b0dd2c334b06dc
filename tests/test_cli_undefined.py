"""One rule for an undefined value in every output: ``undefined`` in text (the CLI's tables and
every result's ``explain()``), an empty field in CSV, ``null`` in JSON; CSV in full precision."""

from __future__ import annotations

import io
import json
import math
import re
import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa._cli.output import csv_field, format_interval, format_number
from wkappa._stats import interval_text, number_text

pytest.importorskip("polars")

NAN = re.compile(r"\bnan\b", re.IGNORECASE)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _undefined_results():
    """A result of every kind whose statistic the data leave undefined."""
    one = np.full((4, 3), 2.0)
    yield "kappa", _quiet(wk.kappa_test_from_table, [[3, 0], [0, 0]])
    yield "kappa, clustered", _quiet(wk.kappa_test, [1] * 6, [1] * 6, cluster=[1, 1, 2, 2, 3, 3])
    yield "agreement", _quiet(wk.agreement, one)
    yield "icc", _quiet(wk.icc, one)
    yield "ccc", _quiet(wk.ccc, one[:, :2])
    yield "two groups", _quiet(wk.group_agreement, one[:, :2], one[:, 1:])
    yield "paired", _quiet(wk.paired_kappa_test, [1] * 4, [1] * 4, [1, 1, 2, 1], n_resamples=99)
    # kappa1 = kappa0: no test, so no power ('power nan' in explain() and wkappa plan)
    yield "plan", _quiet(wk.kappa_power, 50, kappa1=0.6, kappa0=0.6, marginals=[0.5, 0.5])


@pytest.mark.parametrize(("kind", "result"), list(_undefined_results()))
def test_explain_says_undefined_not_nan(kind, result):
    """explain() wrote 'nan' for an undefined statistic, p-value and interval limit, while
    the command line's tables write 'undefined'."""
    text = _quiet(result.explain)
    assert "undefined" in text, kind
    assert not NAN.search(text), text


def test_explain_gives_the_reason_where_the_result_knows_it():
    kappa = _quiet(wk.kappa_test_from_table, [[3, 0], [0, 0]]).explain()
    assert "undefined: the expected weighted disagreement sum(W*E) is 0" in kappa
    fleiss = _quiet(wk.agreement, np.full((3, 3), 1.0)).explain()
    assert "(1 - pe) = undefined: the chance disagreement 1 - pe is 0" in fleiss
    one = np.full((4, 3), 2.0)
    assert "= undefined: every mean square is 0" in _quiet(wk.icc, one).explain()
    assert "= undefined: every value is the same" in _quiet(wk.ccc, one[:, :2]).explain()
    groups = _quiet(wk.group_agreement, one[:, :2], one[:, 1:]).explain()
    assert "(Pm - Pe) = undefined: Pm = Pe" in groups


def test_explain_keeps_the_worked_example_to_the_last_bit():
    text = wk.kappa_test_from_table([[3, 1], [1, 2]]).explain()
    assert repr(wk.kappa_from_table([[3, 1], [1, 2]])) in text


def test_the_cli_tables_and_explain_share_the_rule():
    assert format_number(math.nan) == number_text(math.nan) == "undefined"
    assert format_interval(math.nan, 1.0) == interval_text(math.nan, 1.0)
    assert format_number(0.5, 2) == number_text(0.5, ".2f")


@pytest.fixture
def one_category(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("a,b,c\n2,2,2\n2,2,2\n2,2,2\n")
    return str(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--true", "a", "--pred", "b", "--explain"],
        ["agree", "--raters", "a,b,c", "--explain"],
        ["icc", "--raters", "a,b,c", "--explain"],
    ],
)
def test_cli_explain_says_undefined(one_category, capsys, argv):
    assert main([argv[0], one_category, *argv[1:]]) == 0
    out = capsys.readouterr().out
    assert "undefined" in out and not NAN.search(out), out
    # No Landis & Koch band for an undefined value: it read "undefined agreement".
    assert "undefined agreement" not in out and "undefined (Landis" not in out, out


def _csv(capsys, argv):
    pandas = pytest.importorskip("pandas")
    assert main(argv) == 0
    text = capsys.readouterr().out
    return text, pandas.read_csv(io.StringIO(text))


@pytest.mark.parametrize(
    ("argv", "undefined"),
    [
        (["score", "--true", "a", "--pred", "b"], ["statistic", "standard_error", "pvalue"]),
        (["agree", "--raters", "a,b,c"], ["statistic", "standard_error", "ci_low", "pvalue"]),
    ],
)
def test_csv_writes_an_undefined_value_as_an_empty_field(one_category, capsys, argv, undefined):
    """score and agree wrote 'nan' in CSV; an empty field is what pandas, R's read.csv and
    spreadsheets read as missing in a numeric column."""
    text, frame = _csv(capsys, [argv[0], one_category, *argv[1:], "--format", "csv"])
    assert not NAN.search(text), text
    for column in undefined:
        assert frame[column].isna().all() and frame[column].dtype.kind == "f", column


def test_agree_csv_keeps_full_precision_as_score_does(tmp_path, capsys):
    """agree's CSV rounded to 6 significant digits; every CSV now holds the floats exactly."""
    path = tmp_path / "r.csv"
    path.write_text("a,b,c\n1,2,1\n2,2,3\n3,3,3\n1,1,2\n2,3,3\n")
    ratings = np.array([[1, 2, 1], [2, 2, 3], [3, 3, 3], [1, 1, 2], [2, 3, 3]], dtype=float)
    expected = wk.agreement(ratings)
    ci = expected.confidence_interval()
    _, frame = _csv(capsys, ["agree", str(path), "--raters", "a,b,c", "--format", "csv"])
    row = frame.iloc[0]
    assert row["statistic"] == expected.statistic
    assert row["standard_error"] == expected.standard_error
    assert (row["ci_low"], row["ci_high"]) == (ci.low, ci.high)
    assert row["pvalue"] == expected.pvalue
    assert row["percent_agreement"] == expected.percent_agreement
    pair = wk.kappa_test(ratings[:, 0], ratings[:, 1])
    _, frame = _csv(capsys, ["score", str(path), "--true", "a", "--pred", "b", "--format", "csv"])
    assert frame.iloc[0]["statistic"] == pair.statistic


def test_csv_field_rule():
    assert [csv_field(v) for v in (math.nan, None, np.float64(0.1), 3, "a", 1 / 3)] == [
        "",
        "",
        "0.1",
        "3",
        "a",
        "0.3333333333333333",
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["agree", "--raters", "a,b,c"],
        ["icc", "--raters", "a,b,c"],
        ["compare", "--true", "a", "--pred", "b", "--pred", "c", "--bootstrap", "99"],
    ],
)
def test_warnings_say_undefined_in_the_command_lines_words(one_category, capsys, argv):
    """The library's warnings reached stderr as they are: 'Returning nan (set zero_division
    to choose).', 'test_statistic and pvalue are nan.', 'the comparison is nan.'."""
    assert main([argv[0], one_category, *argv[1:]]) == 0
    err = capsys.readouterr().err
    assert "wkappa: warning: " in err and "shown as undefined" in err, err
    assert not NAN.search(err) and not re.search(r"zero_division|test_statistic|pvalue", err), err


def test_score_report_gives_no_band_to_an_undefined_kappa(one_category, tmp_path, capsys):
    report = tmp_path / "r.html"
    argv = ["score", one_category, "--true", "a", "--pred", "b", "--report", str(report)]
    assert main(argv) == 0
    page = report.read_text()
    assert "undefined" in page and "undefined agreement" not in page


def test_by_groups_all_undefined_say_undefined_across_groups(tmp_path, capsys):
    """The 'Across g' line under the --by table printed 'kappa nan, SE nan, 95% CI [nan,
    nan]; equal kappas: chi-square nan' when no group's kappa was defined."""
    path = tmp_path / "groups.csv"
    path.write_text("a,b,g\n1,1,x\n1,1,x\n2,2,y\n2,2,y\n")
    assert main(["score", str(path), "--true", "a", "--pred", "b", "--by", "g"]) == 0
    out = capsys.readouterr().out
    assert "kappa undefined, SE undefined, 95% CI undefined" in out
    assert not NAN.search(out), out


@pytest.mark.parametrize("empty", ["d", "llm"])
def test_judge_pairwise_diagonal_of_a_rater_without_ratings_is_undefined(tmp_path, capsys, empty):
    """A member or candidate column without any rating agrees with no one, itself included:
    its diagonal cell is undefined (text, report) and null (JSON), as the diagonal of
    ``AgreementResult.pairwise()``; a rater with ratings keeps 1."""
    rows = [(1, 1, 1, 1), (2, 2, 3, 2), (3, 3, 3, 3), (1, 2, 1, 1), (2, 2, 2, 3), (3, 2, 3, 3)]
    names = ["a", "b", "c", "llm"]
    lines = [",".join(["item", *names, "d"])]
    for i, row in enumerate(rows):
        cells = dict(zip(names, map(str, row), strict=True), d="")
        if empty == "llm":
            cells["llm"], cells["d"] = "", str(row[0])
        lines.append(",".join([str(i), *(cells[n] for n in [*names, "d"])]))
    path = tmp_path / "judged.csv"
    path.write_text("\n".join(lines) + "\n")
    argv = ["judge", str(path), "--candidate", "llm", "--raters", "a,b,c,d", "--bootstrap",
            "99", "--seed", "0", "--quiet"]  # fmt: skip
    assert _quiet(main, argv) == 0
    table = capsys.readouterr().out.split("(candidate first):\n")[1].splitlines()
    order = ["llm", "a", "b", "c", "d"]
    diagonal = {name: table[1 + g].split()[1 + g] for g, name in enumerate(order)}
    assert diagonal == {name: "undefined" if name == empty else "1.0000" for name in order}
    assert _quiet(main, [*argv, "--format", "json"]) == 0
    pairwise = json.loads(capsys.readouterr().out)["pairwise"]
    assert [pairwise[g][g] for g in range(5)] == [None if n == empty else 1.0 for n in order]
    # The library's own pairwise matrix of the same columns, in the same order.
    frame = pytest.importorskip("polars").read_csv(path).select(order)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        library = wk.agreement(frame.to_numpy().astype(float)).pairwise()
    assert [math.isnan(library[g, g]) for g in range(5)] == [n == empty for n in order]


def test_score_by_warnings_name_their_groups(tmp_path, capsys):
    """'warning: Kappa is undefined: ...' under --by did not say which group: in a table of
    many groups the reader could not tell. Each warning of the groups is given once, naming
    the groups it is about (those of --cluster's groups too); the overall result's stay as
    they are."""
    path = tmp_path / "und.csv"
    rows = "x,1,1\nx,1,1\nx,1,1\ny,1,2\ny,2,2\ny,3,3\ny,2,1\ny,3,2\nz,1,1\nz,2,2\nw,2,2\n"
    path.write_text("g,a,b\n" + rows + "z,3,3\nz,1,2\nz,3,3\nw,2,2\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--by", "g", "--quiet"]
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "wkappa: warning: 2 --by g groups ('w', 'x'): Kappa is undefined: the expected weighted "
        "disagreement sum(W*E) is 0 (both raters use one and the same category, or no rating "
        "is left). It is shown as undefined."
    ], err
    cluster = tmp_path / "cl.csv"
    cluster.write_text("c,g,a,b\n1,x,1,1\n2,x,1,1\n3,y,1,2\n4,y,2,2\n5,y,1,1\n6,y,2,1\n")
    argv = ["score", str(cluster), "--true", "a", "--pred", "b", "--by", "g", "--cluster", "c"]
    assert main([*argv, "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "warning: --by g group 'x': Kappa is undefined" in err, err


def test_compare_words_an_undefined_kappa_as_score_does(one_category, capsys):
    """compare's warning said "(sum(W*E) == 0)", the library's formula; it now gives the
    reason in score's words (one rule: UNDEFINED_REASON)."""
    from wkappa._core import UNDEFINED_REASON

    assert main(["compare", one_category, "--true", "a", "--pred", "b", "--pred", "c"]) == 0
    compared = capsys.readouterr().err
    assert main(["score", one_category, "--true", "a", "--pred", "b"]) == 0
    scored = capsys.readouterr().err
    assert "==" not in compared and f": {UNDEFINED_REASON}." in compared
    assert "The comparison is shown as undefined." in compared
    assert f"Kappa is undefined: {UNDEFINED_REASON}. It is shown as undefined." in scored
