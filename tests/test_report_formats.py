"""One quantity, one way of writing it, in every command's text output, HTML report and methods
sentence (``score``, ``agree``, ``compare``, ``judge``, ``icc``): interval limits with the same
decimals, p-values APA style (three decimals, ``< 0.001`` below), never an exponent, counts with
thousands separators, and the same kappa as the same digits wherever it appears. The reports
once mixed three and four decimals for one kappa and wrote tiny p-values as ``< 2.2e-16``."""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk
from test_cli import run
from wkappa._cli.output import bootstrap_pvalue, format_pvalue
from wkappa._stats import DECIMALS, p_phrase, pvalue_text, smallest_pvalue

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

# A p-value as text writes it, after its letter or in a table cell.
P_CELL = r"(?:\d\.\d{3}\d*|< 0\.001|<= \d\.\d{3}|undefined)"  # more decimals only below 0.05, 0.01
INTERVAL = re.compile(r"\[(-?\d+\.\d+), (-?\d+\.\d+)\]")
EXPONENT = re.compile(r"\d(?:\.\d+)?e[-+]?\d")


@pytest.fixture(scope="module")
def ratings() -> dict[str, np.ndarray]:
    """300 items graded 1-4 by three panel members and a noisier candidate."""
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 5, 300)

    def rater(p: float) -> np.ndarray:
        moved = rng.random(truth.size) < p
        step = rng.choice([-1, 1], truth.size)
        return np.where(moved, np.clip(truth + step, 1, 4), truth)

    return {"a": rater(0.2), "b": rater(0.25), "c": rater(0.2), "llm": rater(0.45)}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, ratings) -> dict[str, tuple[str, str]]:
    """Each command's text output and HTML report."""
    folder = tmp_path_factory.mktemp("formats")
    data = folder / "panel.csv"
    rows = zip(*ratings.values(), strict=True)
    data.write_text("a,b,c,llm\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    quadratic = ["--weights", "quadratic"]
    commands = {
        "score": ["score", data, "--true", "a", "--pred", "b", *quadratic],
        "agree": ["agree", data, "--raters", "a,b,c,llm", *quadratic],
        "judge": ["judge", data, "--candidate", "llm", "--raters", "a,b,c", *quadratic,
                  "--bootstrap", "199", "--seed", "0"],
        "icc": ["icc", data, "--raters", "a,b,c,llm", "--form", "A,1"],
        "compare": ["compare", data, "--true", "a", "--pred", "b", "--pred", "llm",
                    "--bootstrap", "199", "--seed", "0", *quadratic],
    }  # fmt: skip
    found = {}
    for name, argv in commands.items():
        report = folder / f"{name}.html"
        proc = run(*argv, "--report", report, "--quiet")
        assert proc.returncode == 0, proc.stderr
        found[name] = (proc.stdout, report.read_text())
    return found


def _visible(page: str) -> str:
    """The text a reader sees (no images, style, script or the command line's file paths)."""
    page = re.sub(r"<(script|style|pre)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<img[^>]*>", " ", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _methods(page: str) -> str:
    found = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S)
    assert found is not None, "no methods sentence"
    return html.unescape(found.group(1))


def _tables(page: str) -> list[list[list[str]]]:
    """Each HTML table as rows of cell texts, the header row first."""
    tables = []
    for table in re.findall(r"<table[^>]*>(.*?)</table>", page, flags=re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)
        cells = [re.findall(r"<t[hd]>(.*?)</t[hd]>", row, flags=re.S) for row in rows]
        tables.append([[html.unescape(c) for c in row] for row in cells])
    return tables


def test_every_interval_has_the_same_decimals(outputs):
    """judge's and icc's intervals had three decimals beside the four of score and agree."""
    for name, (text, page) in outputs.items():
        for where, shown in (("text", text), ("report", _visible(page))):
            if not shown:
                continue
            limits = INTERVAL.findall(shown)
            assert limits, (name, where)
            for low, high in limits:
                for end in (low, high):
                    assert len(end.split(".")[1]) == DECIMALS, (name, where, low, high)


def test_no_value_is_written_with_an_exponent(outputs):
    for name, (text, page) in outputs.items():
        for shown in (text, _visible(page)):
            assert not EXPONENT.search(shown), (name, EXPONENT.search(shown))


def test_every_methods_sentence_writes_p_the_same_way(outputs):
    """Methods sentences wrote "p < 2.2e-16", "p = 0.0123" and (judge, at the bootstrap's
    smallest p-value) "p = 0.0022"."""
    for name in ("score", "agree", "judge", "icc", "compare"):
        methods = _methods(outputs[name][1])
        phrases = re.findall(r"\bp (?:=|<|<=) \S+|\bp undefined", methods)
        assert phrases, name
        for phrase in phrases:
            assert re.fullmatch(rf"p (?:= )?{P_CELL}\.?", phrase), (name, phrase)


def test_every_p_column_holds_p_values_as_text_writes_them(outputs):
    seen = 0
    for name, (_, page) in outputs.items():
        for table in _tables(page):
            header, *rows = table
            for column, heading in enumerate(header):
                if heading in ("p", "p-value"):
                    for row in rows:
                        if row[column]:
                            assert re.fullmatch(P_CELL, row[column]), (name, row)
                            seen += 1
            for row in rows:  # a table of (label, value) rows
                if row and row[0].startswith("p-value"):
                    assert re.fullmatch(P_CELL, row[1]), (name, row)
                    seen += 1
    assert seen >= 3


def test_one_kappa_reads_alike_in_every_report_and_text(outputs, ratings):
    """The quadratic kappa of raters a and b is in the score report's headline and methods
    sentence, the agree report's table of pairs, the judge report's pairwise table and the
    text of all three: the same digits everywhere (judge printed 0.501 for agree's 0.5006)."""
    kappa = wk.weighted_kappa(ratings["a"], ratings["b"], weights="quadratic")
    shown = f"{kappa:.{DECIMALS}f}"
    score_text, score_page = outputs["score"]
    assert f"Kappa = {shown}," in _methods(score_page)
    assert f'<div class="value">{shown}</div>' in score_page
    assert re.search(rf"kappa\s+{shown}\s", score_text)

    def pair_cell(page: str, row: str, column: str) -> str:
        for table in _tables(page):
            header, *rows = table
            if column in header:
                for cells in rows:
                    if cells[0] == row:
                        return cells[header.index(column)]
        raise AssertionError(f"no ({row}, {column}) cell")

    assert pair_cell(outputs["agree"][1], "a", "b") == shown
    assert pair_cell(outputs["judge"][1], "a", "b") == shown
    assert re.search(rf"^\s+a\s+.*\b{shown}\b", outputs["judge"][0], flags=re.M)


def test_the_judge_summary_and_its_methods_sentence_agree(outputs):
    text, page = outputs["judge"]
    methods = _methods(page)
    summary = _tables(page)[0]
    values = {row[0]: row[1] for row in summary[1:]}
    assert f"with the members was {values['candidate vs members (mean)']} " in methods
    assert f"with each other {values['members vs members (mean)']}:" in methods
    assert f"difference = {values['difference']}," in methods
    assert f"confidence interval {values['95% CI']}," in methods
    assert methods.endswith(f"p {values['p-value']}.") or methods.endswith(
        f"p = {values['p-value']}."
    )
    assert values["difference"] in text and values["95% CI"] in text


def test_the_compare_summary_and_its_methods_sentence_agree(outputs):
    """compare's report: its table holds the text output's numbers, and its methods sentence
    the table's."""
    text, page = outputs["compare"]
    methods = _methods(page)
    summary = _tables(page)[0]
    values = {row[0]: row[1] for row in summary[1:]}
    kappa_a, kappa_b = values["A = b"], values["B = llm"]
    assert f"Kappa of A = {kappa_a}, of B = {kappa_b}: " in methods
    assert f"difference = {values['A - B']}, " in methods
    assert f"95% confidence interval {values['95% CI of A - B']}, " in methods
    p = values["p-value (H0: A = B)"]
    assert methods.endswith((f"p {p}.", f"p = {p}."))
    for label, value in values.items():  # the text's rows, the same digits
        assert re.search(rf"^  {re.escape(label)}\s+{re.escape(value)}(\s|$)", text, re.M), label


def test_counts_have_thousands_separators(outputs):
    """icc's text said "1200 ratings" where its report said "1,200"."""
    for name in ("agree", "icc"):
        text, page = outputs[name]
        assert "1,200 ratings" in text, name
        assert "1,200 ratings" in _visible(page), name
        assert "1200" not in text and "1200" not in _visible(page), name


@pytest.mark.parametrize(
    "value", [0.0, 1e-300, 1e-20, 2.2e-16, 3e-16, 2.29e-4, 0.000999, 0.001, 0.0123, 0.04951,
              0.5, 0.9996, 1.0, math.nan]
)  # fmt: skip
def test_text_tables_reports_and_sentences_share_one_pvalue_rule(value):
    """format_pvalue (tables, reports), p_phrase (methods sentences, report notes) and the
    bootstrap p-value's cell all write a p-value as pvalue_text does."""
    text = pvalue_text(value)
    assert format_pvalue(value) == text
    assert p_phrase(value) in (f"p = {text}", f"p {text}")
    assert re.fullmatch(P_CELL, text) or text == "undefined"
    if value == value:
        assert (text == "< 0.001") is (value < 0.001)
        if value >= 0.001:
            assert float(text) == pytest.approx(value, abs=5e-4)


def test_p_below_a_significance_level_is_never_rounded_up_to_it():
    """Three decimals would write 0.0495 as 0.050 and 0.00996 as 0.010: on the wrong side of
    the 5% and 1% levels a reader compares p with."""
    assert pvalue_text(0.04951) == "0.0495" and pvalue_text(0.049996) == "0.049996"
    assert pvalue_text(0.00996) == "0.00996" and p_phrase(0.04951) == "p = 0.0495"
    assert pvalue_text(0.05) == "0.050" and pvalue_text(0.0504) == "0.050"  # at or above
    assert pvalue_text(0.0494) == "0.049" and pvalue_text(0.0123) == "0.012"  # not crossing


def test_a_bound_on_p_is_rounded_up():
    """The smallest p-value 999 resamples show (0.0022 here) is written <= 0.003: "<= 0.002"
    would say less than is known."""
    floor = smallest_pvalue(999, 200, "two-sided")
    written = pvalue_text(floor, bound=True)
    assert written.startswith("<= ") and float(written[3:]) >= floor
    assert bootstrap_pvalue(floor, 999, 200, "two-sided", None)[0] == written
    assert pvalue_text(0.003, bound=True) == "<= 0.003"
    assert pvalue_text(0.0031, bound=True) == "<= 0.004"
    assert p_phrase(floor, bound=True) == f"p {written}"


def test_the_cli_guide_states_the_rule():
    page = (Path(__file__).parents[1] / "docs" / "user-guide" / "cli.md").read_text()
    assert "four decimals" in page and "`< 0.001` below 0.001" in page


def test_the_demo_writes_values_as_the_commands_do():
    """The demo's judge section printed "p = 0.0022" at the bootstrap's smallest p-value and
    the base rates with three decimals beside four-decimal kappas."""
    proc = run("demo")
    assert proc.returncode == 0, proc.stderr
    section = proc.stdout.split("5. Several raters", 1)[1]
    assert re.search(rf"95% CI \[-?\d\.\d{{4}}, -?\d\.\d{{4}}\], p (?:= )?{P_CELL}\n", section)
    rates = re.search(r"raw agreement (\S+), kappa (\S+), PABAK (\S+),", section)
    assert rates is not None
    assert all(len(value.split(".")[1]) == DECIMALS for value in rates.groups()), rates.groups()


def test_a_report_says_one_thing_one_way_in_its_note_and_its_sentence(outputs):
    """agree's note wrote "t(n-1) SE" under a methods sentence with "t(n - 1) × standard
    error"; icc's note "(two-sided)" where its text and sentence write ", two-sided"."""
    agree = _visible(outputs["agree"][1])
    assert "estimate ± t(n - 1) × SE" in agree and "t(n-1)" not in agree
    icc_text, icc_page = outputs["icc"]
    assert "F test of ICC = 0, two-sided." in icc_text
    assert "F test of ICC = 0, two-sided." in _visible(icc_page)


def test_plan_and_thresholds_count_with_thousands_separators(tmp_path):
    """plan wrote "n = 1537 items" and thresholds "n = 1200" where every other command
    writes "1,200"."""
    report = tmp_path / "plan.html"
    argv = ["plan", "--kappa1", "0.7", "--marginals", "0.5,0.5", "--ci-width", "0.05"]
    proc = run(*argv, "--report", report)
    assert proc.returncode == 0, proc.stderr
    big = re.compile(r"n = \d{1,3}(?:,\d{3})+ items")
    assert big.search(proc.stdout), proc.stdout
    page = _visible(report.read_text())
    assert big.search(page) and big.search(_methods(report.read_text()))
    assert not re.search(r"n = \d{4,}", proc.stdout + page)
    scores = tmp_path / "scores.csv"
    scores.write_text("y,s\n" + "".join(f"{i % 3},{i % 3 + 0.25}\n" for i in range(1200)))
    proc = run("thresholds", scores, "--true", "y", "--score", "s")
    assert proc.returncode == 0, proc.stderr
    assert "n = 1,200)" in proc.stdout


@pytest.fixture(scope="module")
def one_sided(tmp_path_factory, ratings) -> dict[tuple[str, str], tuple[str, str, dict]]:
    """(command, alternative) -> the text output, the HTML report and the JSON of a run."""
    import json

    folder = tmp_path_factory.mktemp("one-sided")
    data = folder / "panel.csv"
    rows = zip(*ratings.values(), strict=True)
    data.write_text("a,b,c,llm\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    commands = {
        "score": ["score", data, "--true", "a", "--pred", "b", "--by", "c"],
        "agree": ["agree", data, "--raters", "a,b,c,llm"],
        "judge": ["judge", data, "--candidate", "llm", "--raters", "a,b,c",
                  "--bootstrap", "199", "--seed", "0"],
        "icc": ["icc", data, "--raters", "a,b,c,llm", "--form", "A,1"],
        "compare": ["compare", data, "--true", "a", "--pred", "b", "--pred", "llm",
                    "--bootstrap", "199", "--seed", "0"],
    }  # fmt: skip
    found = {}
    for name, argv in commands.items():
        for alternative in ("greater", "less", "two-sided"):
            report = folder / f"{name}-{alternative}.html"
            proc = run(*argv, "--alternative", alternative, "--report", report, "--quiet")
            assert proc.returncode == 0, proc.stderr
            document = json.loads(
                run(*argv, "--alternative", alternative, "--format", "json").stdout
            )
            if name == "icc":  # the form's block, with the concordance's beside it
                document = {**document["icc"]["A,1"], "ccc": document["ccc"]}
            found[name, alternative] = (proc.stdout, report.read_text(), document)
    return found


@pytest.mark.parametrize("alternative", ["greater", "less"])
@pytest.mark.parametrize("command", ["score", "agree", "judge", "icc", "compare"])
def test_a_one_sided_interval_is_written_as_its_bound_in_reports(one_sided, command, alternative):
    """Reports and methods sentences wrote a one-sided interval as "[0.1272, inf]" or
    "[0.5132, 1.0000]", which no journal prints: they give "one-sided 95% lower confidence
    bound 0.5132" (the upper bound for 'less'), and the report's tables head the column
    "one-sided 95% lower bound" over the bound alone."""
    text, page, document = one_sided[command, alternative]
    side, end = ("lower", "low") if alternative == "greater" else ("upper", "high")
    bound = f"{document['confidence_interval'][end]:.{DECIMALS}f}"
    methods = _methods(page)
    assert f"one-sided 95% {side} confidence bound {bound}, " in methods, methods
    sign = "-" if alternative == "greater" else "+"
    assert re.search(
        rf"one-sided 95% {side} confidence bound (of the difference )?is "
        rf"(that of |estimate {re.escape(sign)} t\()",
        methods,
    ), methods
    assert "±" not in methods and "upper end capped" not in methods
    shown = _visible(page)
    assert f"one-sided 95% {side} bound" in shown
    assert not re.search(
        r"\binf\b|∞|1\.0000\]|one-sided CI|one-sided confidence interval|95% CI", shown
    )
    # icc's concordance is one-sided too (its test and interval, as wk.ccc(...,
    # alternative=...)): its line and its clause of the methods give its bound.
    if command == "icc":
        ccc = document["ccc"]
        assert ccc["alternative"] == alternative and ccc["confidence_interval"][end] not in (-1, 1)
        written = (
            f"overall CCC {ccc['statistic']:.{DECIMALS}f}, one-sided 95% {side} confidence bound "
            f"{ccc['confidence_interval'][end]:.{DECIMALS}f} (jackknife SE of Fisher's z, "
            f"t({ccc['n_items'] - 1}) quantile) on "
        )
        assert written in methods and shown.count(written) == 2, shown
    assert not INTERVAL.findall(shown.split("Concordance")[0])
    headed = [table[0] for table in _tables(page) if table and table[0]]
    columns = [h for header in headed for h in header if "bound" in h or "CI" in h]
    if command in ("score", "agree", "icc"):
        assert columns == [f"one-sided 95% {side} bound"] * len(columns) and columns
    # The console keeps its [low, high] (ASCII), and JSON its full values.
    assert "one-sided" in text and "bound" not in text
    assert document["alternative"] == alternative


@pytest.mark.parametrize("command", ["score", "agree", "judge", "icc", "compare"])
def test_a_two_sided_interval_is_still_written_low_high(one_sided, command):
    _, page, document = one_sided[command, "two-sided"]
    ci = document["confidence_interval"]
    methods = _methods(page)
    assert f"95% confidence interval [{ci['low']:.{DECIMALS}f}, {ci['high']:.{DECIMALS}f}]" in (
        methods
    )
    assert "bound" not in _visible(page)


def test_compare_prints_the_one_sided_interval_as_before(tmp_path, ratings):
    """compare's console line keeps the [low, ∞] of every text table (its report writes
    the bound alone)."""
    data = tmp_path / "panel.csv"
    rows = zip(*ratings.values(), strict=True)
    data.write_text("a,b,c,llm\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    argv = ["compare", data, "--true", "a", "--pred", "b", "--pred", "llm", "--seed", "0"]
    proc = run(*argv, "--bootstrap", "199", "--alternative", "greater")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"95% CI of A - B\s+\[-?\d\.\d{4}, ∞\]  one-sided", proc.stdout)
