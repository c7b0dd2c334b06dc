"""``--explain`` on every command that computes a result: one option, one rule.

The text output followed by the result's ``explain()`` (the library's, on the same data), its
Python keywords in the command line's words; refused in one line (exit 2) with a
``--format`` other than text; listed by ``--help`` with the same text everywhere; the
explanation's interval is the table's (``--ci``, ``--ci-method``, ``--bootstrap``).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli.app import main

_HELP = "explain the computation step by step (text format only)"
_B = "199"  # bootstrap resamples: enough for a stable explanation, quick to draw


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20261127)
    n = 90
    truth = rng.integers(0, 4, n)
    columns = {
        "truth": truth,
        "a": np.clip(truth + rng.integers(-1, 2, n), 0, 3),
        "b": np.clip(truth + rng.integers(-2, 3, n), 0, 3),
        "c": np.clip(truth + rng.integers(-1, 2, n), 0, 3),
        "score": np.round(truth + rng.normal(0, 0.6, n), 3),
        "site": np.repeat(np.arange(15), n // 15),
    }
    return columns


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory: pytest.TempPathFactory, data: dict[str, np.ndarray]) -> str:
    path = tmp_path_factory.mktemp("explain") / "ratings.csv"
    names = list(data)
    rows = [",".join(names)]
    rows += [",".join(str(data[k][i]) for k in names) for i in range(len(data["truth"]))]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _in_cli_words(text: str) -> str:
    """The library's explanation as the command line words it (written out here, not taken
    from the code under test)."""
    for python, cli in (
        ("(n_resamples=)", "(--bootstrap)"),
        ("pass cluster= to", "pass --cluster to"),
        ("confidence_interval(method='score')", "--ci-method score"),
        ("confidence_interval(method='bca')", "--bootstrap N --bootstrap-method bca"),
        ("nan_policy='propagate'", "--nan-policy propagate"),
    ):
        text = text.replace(python, cli)
    return re.sub(r"weights = '([\w-]+)'", r"weights = \1", text)  # the option's value


def _explained(output: str, result: object) -> None:
    """``output`` is the text table, a blank line, then the library's explanation in the
    command line's words, and names no Python keyword of the library."""
    library = result.explain()  # type: ignore[attr-defined]
    expected = _in_cli_words(library)
    table, _, explanation = output.partition("\n\n" + expected.splitlines()[0])
    assert table and explanation, output
    assert output.rstrip("\n").endswith(expected), output
    for word in ("n_resamples=", "cluster=", "confidence_interval(", "nan_policy="):
        assert word not in output


@pytest.mark.parametrize("cluster", [False, True])
def test_compare_explains_its_paired_result(capsys, csv_file, data, cluster) -> None:
    extra = ["--cluster", "site"] if cluster else []
    output = _run(
        capsys, "compare", csv_file, "--true", "truth", "--pred", "a", "--pred", "b",
        "--bootstrap", _B, "--seed", "3", "--explain", *extra,
    )  # fmt: skip
    result = wk.paired_kappa_test(
        data["truth"], data["a"], data["b"], n_resamples=int(_B), rng=3,
        cluster=data["site"] if cluster else None,
    )  # fmt: skip
    _explained(output, result)
    assert ("pass --cluster to resample whole groups" in output) is not cluster
    assert ("clusters (n = 90 items; whole clusters redrawn)" in output) is cluster


def test_compare_draw_more_names_the_option(capsys, csv_file) -> None:
    output = _run(
        capsys, "compare", csv_file, "--true", "truth", "--pred", "a", "--pred", "b",
        "--bootstrap", "19", "--seed", "1", "--explain",
    )  # fmt: skip
    assert "(--bootstrap)" in output and "n_resamples" not in output


def test_thresholds_explains_its_fit(capsys, csv_file, data) -> None:
    output = _run(capsys, "thresholds", csv_file, "--true", "truth", "--score", "score",
                  "--explain")  # fmt: skip
    _explained(output, wk.optimize_thresholds(data["truth"], data["score"]))


@pytest.mark.parametrize("cluster", [False, True])
def test_judge_explains_its_panel_comparison(capsys, csv_file, data, cluster) -> None:
    extra = ["--cluster", "site"] if cluster else []
    output = _run(
        capsys, "judge", csv_file, "--candidate", "truth", "--raters", "a,b,c",
        "--bootstrap", _B, "--seed", "5", "--explain", *extra,
    )  # fmt: skip
    panel = np.column_stack([data["a"], data["b"], data["c"]])
    result = wk.rater_vs_panel(
        panel, data["truth"], n_resamples=int(_B), rng=5, cluster=data["site"] if cluster else None
    )
    _explained(output, result)
    assert ("resamples of the 15 clusters" in output) is cluster


def test_thresholds_explains_before_grading_another_file(capsys, csv_file, tmp_path) -> None:
    out = tmp_path / "graded.csv"
    output = _run(capsys, "thresholds", csv_file, "--true", "truth", "--score", "score",
                  "--apply", csv_file, "--out", str(out), "--explain")  # fmt: skip
    assert "Kappa-optimal thresholds for K = 4 grades" in output and out.exists()


def test_plan_explain_shows_the_computation(capsys) -> None:
    """plan --explain printed exactly what plan prints without it: it now adds the formula
    of the method with its inputs, whose value is the plan's n before rounding up."""
    argv = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.4,0.3"]
    plain = _run(capsys, *argv)
    explained = _run(capsys, *argv, "--explain")
    plan = wk.kappa_sample_size(kappa1=0.6, marginals=[0.3, 0.4, 0.3])
    assert plain == plan.explain() + "\n"
    assert explained.startswith(plain)
    assert "How the plan was computed:" in explained
    assert "((1.6449 x 1.0000 + 0.8416 x 0.8672) / (0.6 - 0))^2 = 15.66" in explained
    assert "rounded up: n = 16." in explained
    width = _run(capsys, *argv, "--ci-width", "0.2", "--explain")
    assert "n = (2 z sigma_1 / width)^2 = (2 x 1.9600 x 0.8672 / 0.2)^2" in width


def test_score_explain_names_the_options_of_its_advice(capsys, csv_file, tmp_path) -> None:
    """The small-sample and few-clusters advice of KappaResult.explain() named
    confidence_interval(method=...), a Python call, on the command line."""
    small = tmp_path / "small.csv"
    small.write_text("t,p,g\n" + "".join(f"{i % 3},{(i * 2) % 3},{i % 4}\n" for i in range(12)))
    output = _run(capsys, "score", str(small), "--true", "t", "--pred", "p", "--explain")
    assert "--ci-method score keeps its level at small n" in output
    output = _run(capsys, "score", csv_file, "--true", "truth", "--pred", "a", "--cluster",
                  "site", "--explain")  # fmt: skip
    assert "the cluster bootstrap, --bootstrap N --bootstrap-method bca." in output
    assert "confidence_interval(" not in output


def test_icc_explain_names_nan_policy_as_the_option(capsys, tmp_path) -> None:
    path = tmp_path / "gaps.csv"
    path.write_text("a,b,c\n1,2,3\n2,,3\n3,3,4\n4,5,5\n")
    output = _run(capsys, "icc", str(path), "--raters", "a,b,c", "--nan-policy", "propagate",
                  "--explain")  # fmt: skip
    assert "--nan-policy propagate makes every value nan" in output
    assert "nan_policy=" not in output


_COMMANDS = {
    "score": ["score", "{file}", "--true", "truth", "--pred", "a"],
    "agree": ["agree", "{file}", "--raters", "a,b,c"],
    "icc": ["icc", "{file}", "--raters", "a,b,c"],
    "compare": ["compare", "{file}", "--true", "truth", "--pred", "a", "--pred", "b"],
    "thresholds": ["thresholds", "{file}", "--true", "truth", "--score", "score"],
    "judge": ["judge", "{file}", "--candidate", "truth", "--raters", "a,b,c"],
    "plan": ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.4,0.3"],
}
_FORMATS = {"score": ("json", "csv"), "agree": ("json", "csv")}


@pytest.mark.parametrize(
    ("command", "fmt"),
    [(c, f) for c in _COMMANDS for f in _FORMATS.get(c, ("json",))],
)
def test_explain_is_refused_with_a_format_other_than_text(capsys, command, fmt) -> None:
    """Before, score, agree and icc printed the JSON or CSV and dropped --explain without a
    word. The refusal comes before the file is read (here it does not exist)."""
    argv = [a.replace("{file}", "no-such-file.csv") for a in _COMMANDS[command]]
    assert main([*argv, "--format", fmt, "--explain"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("wkappa: error: --explain")
    assert f"--format {fmt}" in err and "Hint: drop --explain" in err


@pytest.mark.parametrize("command", list(_COMMANDS))
def test_help_lists_explain_with_one_text(capsys, command) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"--explain {_HELP}" in help_text


def test_explained_keeps_the_layout_of_the_explanation() -> None:
    """The mapping substitutes words only: lines and their indentation stay."""
    from wkappa._cli.options import explained

    result = wk.kappa_test([0, 1, 2, 1, 0, 2], [0, 1, 1, 1, 0, 2])
    text = explained(result)
    assert [len(line) - len(line.lstrip()) for line in text.splitlines()] == [
        len(line) - len(line.lstrip()) for line in result.explain().splitlines()
    ]


# --explain describes the interval the table shows: its level (--ci), its method (--ci-method,
# --bootstrap) and so its limits. The first interval of the table and the first of the
# explanation are read back; the explanation's limits (six digits) round to the table's.
_TABLE = re.compile(r"\[(-?\d+\.\d+), (-?\d+\.\d+)\]")
# Where the explanation starts: a blank line, then its first words.
_START = re.compile(
    r"\n\n(?=Categories \(K|Fleiss'|Gwet's|ICC\(|A candidate rater|Two predictions)"
)
_EXPLAINED = re.compile(r"(\d+(?:\.\d+)?)% (?:one-sided )?(?:CI|interval) \[([^,\]]+), ([^\]]+)\]")


def _table_and_explanation(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[str]:
    assert main(argv) == 0
    output = capsys.readouterr().out
    start = _START.search(output)
    assert start is not None, f"no explanation after the table: {output}"
    return [output[: start.start()], output[start.end() :]]


def _same_interval(table: str, explanation: str, level: str) -> None:
    """The table's first interval is at ``level`` and is the explanation's first, rounded."""
    assert f"{level}%" in table
    shown = _EXPLAINED.search(explanation)
    assert shown is not None, explanation
    assert shown[1] == level, explanation
    limits = _TABLE.search(table)
    assert limits is not None, table
    for printed, precise in zip(limits.groups(), shown.groups()[1:], strict=True):
        decimals = len(printed.partition(".")[2])
        assert abs(float(printed) - float(precise)) <= 0.5 * 10.0**-decimals + 1e-12, (
            table,
            explanation,
        )


_SCORE = ["score", "{file}", "--true", "truth", "--pred", "a"]
_AGREE = ["agree", "{file}", "--raters", "a,b,c"]
_CASES = {
    "score": _SCORE,
    "score-method": [*_SCORE, "--ci-method", "score"],
    "score-fisher-z": [*_SCORE, "--ci-method", "fisher-z"],
    # Without --seed: one seed drawn for the run serves the table and the explanation.
    "score-bootstrap": [*_SCORE, "--bootstrap", "99", "--bootstrap-method", "bca"],
    "score-cluster": [*_SCORE, "--cluster", "site"],
    "score-cluster-bootstrap": [*_SCORE, "--cluster", "site", "--bootstrap", "99"],
    "score-greater": [*_SCORE, "--alternative", "greater"],
    "agree": _AGREE,
    "agree-method": [*_AGREE, "--ci-method", "fisher-z-jackknife"],
    "agree-bootstrap": [*_AGREE, "--bootstrap", "99"],
    "agree-gwet": [*_AGREE, "--coefficient", "gwet", "--ci-method", "jackknife"],
    "icc": ["icc", "{file}", "--raters", "a,b,c"],
    "judge": ["judge", "{file}", "--candidate", "truth", "--raters", "a,b,c",
              "--bootstrap", "99", "--seed", "1"],
    "compare": ["compare", "{file}", "--true", "truth", "--pred", "a", "--pred", "b",
                "--bootstrap", "99", "--seed", "1"],
}  # fmt: skip


@pytest.mark.parametrize("level", ["90", "99", "97.5"])  # 97.5: not rounded to 98 anywhere
@pytest.mark.parametrize("case", list(_CASES))
def test_the_explanation_shows_the_tables_interval(capsys, csv_file, case, level) -> None:
    argv = [a.replace("{file}", csv_file) for a in _CASES[case]]
    table, explanation = _table_and_explanation(
        capsys, [*argv, "--ci", str(float(level) / 100), "--explain"]
    )
    _same_interval(table, explanation, level)
    assert "95%" not in explanation


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("score-method", "score interval"),
        ("score-fisher-z", "Fisher-z interval"),
        ("score-bootstrap", "BCa bootstrap, 99 resamples"),
        ("score-cluster-bootstrap", "whole clusters redrawn"),
        ("agree-method", "Fisher's z with the jackknife SE"),
        ("agree-bootstrap", "percentile bootstrap, 99 resamples, items redrawn"),
    ],
)
def test_the_explanation_names_the_tables_method(capsys, csv_file, case, words) -> None:
    argv = [a.replace("{file}", csv_file) for a in _CASES[case]]
    _, explanation = _table_and_explanation(capsys, [*argv, "--explain"])
    assert words in explanation


def test_score_explain_names_the_files_columns(capsys, csv_file, data) -> None:
    """The explanation's rows and columns and its costly cells are the --true and --pred
    columns of the file, not the library's y_true / y_pred."""
    output = _run(capsys, "score", csv_file, "--true", "truth", "--pred", "b", "--explain")
    explanation = output[output.index("\n\nCategories") :]
    assert "y_true" not in output and "y_pred" not in output
    assert (
        "(rows: rater A, --true column 'truth'; columns: rater B, --pred column 'b')" in explanation
    )
    library = wk.kappa_test(data["truth"], data["b"]).explain()
    cells = [line for line in library.splitlines() if line.startswith("  y_true=")]
    assert cells
    for line in cells:
        shown = line.replace("y_true=", "--true column 'truth' ").replace(
            "y_pred=", "--pred column 'b' "
        )
        assert shown in explanation
