"""The LLM-judge path (issue 24): base-rate diagnostics checked exactly, ``frames.rater_vs_panel``
against the array function, and ``wkappa judge`` on a realistic long export and its wide twin."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import wkappa as wk
from test_cli import run
from wkappa import frames
from wkappa._stats import base_rate_indices, specific_agreement
from wkappa.exceptions import WkappaTypeError

DATA = Path(__file__).parent / "data"
LONG = DATA / "annotations_long.csv"
WIDE = DATA / "annotations_wide.csv"
ORDER = ["none", "mild", "moderate", "severe"]
PANEL = ["ann_1", "ann_2", "ann_3", "ann_4", "ann_5"]


def _exact(table: list[list[int]]) -> dict[str, Fraction]:
    """The indices from their definitions, in exact arithmetic."""
    k = len(table)
    n = sum(map(sum, table))
    p = [[Fraction(c, n) for c in row] for row in table]
    rows = [sum(r) for r in p]
    cols = [sum(p[i][j] for i in range(k)) for j in range(k)]
    po = sum(p[i][i] for i in range(k))
    pe = sum(r * c for r, c in zip(rows, cols, strict=True))
    pooled = [(r + c) / 2 for r, c in zip(rows, cols, strict=True)]
    return {
        "observed_agreement": po,
        "kappa": (po - pe) / (1 - pe),
        "pabak": (k * po - 1) / (k - 1),
        "prevalence_index": Fraction(k, k - 1) * sum(abs(m - Fraction(1, k)) for m in pooled) / 2,
        "bias_index": sum(abs(r - c) for r, c in zip(rows, cols, strict=True)) / 2,
    }


tables = (
    st.integers(2, 5)
    .flatmap(
        lambda k: st.lists(
            st.lists(st.integers(0, 30), min_size=k, max_size=k), min_size=k, max_size=k
        )
    )
    .filter(
        lambda t: sum(map(sum, t)) > 0 and sum(t[i][i] for i in range(len(t))) < sum(map(sum, t))
    )
)


@settings(max_examples=60, deadline=None)
@given(tables)
def test_base_rate_indices_match_their_definitions(table):
    found = base_rate_indices(np.array(table))
    for name, value in _exact(table).items():
        assert found[name] == pytest.approx(float(value), abs=1e-12), name


@settings(max_examples=60, deadline=None)
@given(tables, st.permutations(range(5)), st.integers(1, 20))
@example([[22, 30, 50, 30, 17], [30, 36, 14, 28, 28], [50, 13, 46, 12, 11],
          [31, 28, 11, 2, 45], [16, 29, 11, 45, 26]], list(range(5)), 0)  # fmt: skip
def test_equal_marginals_give_a_bias_index_of_exactly_zero(table, order, extra):
    """Two raters who use the categories equally often: the bias index is 0, not the 2.8e-17
    the proportions' row and column sums (rounded differently) left for the table of the
    example (``wkappa judge --format json`` printed 5.55e-17)."""
    k = len(table)
    counts = np.array(table)
    counts = counts + counts.T  # symmetric: equal marginals
    counts += np.eye(k, dtype=int)[[i for i in order if i < k]] * extra  # still equal
    if counts.sum() == 0:
        return
    assert base_rate_indices(counts)["bias_index"] == 0.0
    assert base_rate_indices(counts * 3)["bias_index"] == 0.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=4, max_size=4).filter(lambda v: v[1] + v[2] > 0))
def test_two_categories_reduce_to_byrt(cells):
    a, b, c, d = cells
    n = a + b + c + d
    found = base_rate_indices(np.array([[a, b], [c, d]]))
    # Byrt, Bishop & Carlin (1993): PI = |a - d| / n, BI = |b - c| / n, PABAK = 2 p_o - 1,
    # kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2).
    pi, bi, pabak = Fraction(abs(a - d), n), Fraction(abs(b - c), n), Fraction(2 * (a + d), n) - 1
    assert found["prevalence_index"] == pytest.approx(float(pi))
    assert found["bias_index"] == pytest.approx(float(bi))
    assert found["pabak"] == pytest.approx(float(pabak))
    byrt = (pabak - pi**2 + bi**2) / (1 - pi**2 + bi**2)
    assert found["kappa"] == pytest.approx(float(byrt))
    assert found["kappa"] == pytest.approx(wk.weighted_kappa(
        [0] * (a + b) + [1] * (c + d), [0] * a + [1] * b + [0] * c + [1] * d,
        weights="unweighted"))  # fmt: skip


def test_high_agreement_low_kappa_is_the_prevalence_effect():
    # 90% raw agreement on a rare category: kappa is low, PABAK high, the prevalence index high.
    found = base_rate_indices(np.array([[85, 5], [5, 5]]))
    assert found["observed_agreement"] == pytest.approx(0.9)
    assert found["kappa"] < 0.5 < 0.8 == pytest.approx(found["pabak"])
    assert found["prevalence_index"] == pytest.approx(0.8)


def test_specific_agreement():
    table = np.array([[8, 2, 0], [1, 5, 0], [0, 0, 0]])
    found = specific_agreement(table)
    assert found[0] == pytest.approx(2 * 8 / (10 + 9))
    assert found[1] == pytest.approx(2 * 5 / (6 + 7))
    assert np.isnan(found[2])


def _stripped_long() -> pd.DataFrame:
    df = pd.read_csv(LONG)
    df["label"] = df["label"].str.strip()
    return df


@pytest.mark.parametrize("engine", ["pandas", "polars"])
def test_frames_rater_vs_panel_equals_the_array_function(engine):
    df = _stripped_long()
    wide = df.pivot(index="item_id", columns="annotator", values="label")
    expected = wk.rater_vs_panel(
        wide[PANEL].to_numpy(dtype=object), wide["LLM judge"].to_numpy(dtype=object),
        labels=ORDER, n_resamples=199, rng=3,
    )  # fmt: skip
    frame = df if engine == "pandas" else pl.from_pandas(df)
    found = frames.rater_vs_panel(frame, candidate="LLM judge", item="item_id",
                                  rater="annotator", rating="label", labels=ORDER,
                                  n_resamples=199, rng=3)  # fmt: skip
    assert found.candidate_agreement == pytest.approx(expected.candidate_agreement)
    assert found.panel_agreement == pytest.approx(expected.panel_agreement)
    assert found.difference == pytest.approx(expected.difference)
    assert np.allclose(found.candidate_vs_members, expected.candidate_vs_members)
    wide_found = frames.rater_vs_panel(pd.read_csv(WIDE), candidate="LLM judge", raters=PANEL,
                                       labels=ORDER, n_resamples=199, rng=3)  # fmt: skip
    assert wide_found.difference == pytest.approx(expected.difference)


def test_frames_rater_vs_panel_refuses_clearly():
    df = pd.read_csv(LONG)
    with pytest.raises(wk.WkappaError, match="whitespace"):
        frames.rater_vs_panel(df, candidate="LLM judge", item="item_id", rater="annotator",
                              rating="label")  # fmt: skip
    with pytest.raises(wk.WkappaError, match="is not a rater"):
        frames.rater_vs_panel(_stripped_long(), candidate="GPT", item="item_id",
                              rater="annotator", rating="label")  # fmt: skip


LONG_OPTIONS = ["--item", "item_id", "--rater", "annotator", "--rating", "label"]


def test_cli_judge_long_and_wide_agree_with_python(tmp_path):
    report = tmp_path / "judge.html"
    long = run("judge", LONG, *LONG_OPTIONS, "--candidate", "LLM judge", "--strip-labels",
               "--labels", ",".join(ORDER), "--seed", "1", "--bootstrap", "199",
               "--format", "json", "--report", report)  # fmt: skip
    assert long.returncode == 0, long.stderr
    document = json.loads(long.stdout)
    df = _stripped_long()
    wide = df.pivot(index="item_id", columns="annotator", values="label")
    expected = wk.rater_vs_panel(
        wide[PANEL].to_numpy(dtype=object), wide["LLM judge"].to_numpy(dtype=object),
        labels=ORDER, n_resamples=199, rng=1,
    )  # fmt: skip
    assert document["difference"] == pytest.approx(expected.difference)
    assert document["labels"] == ORDER and document["n_categories"] == 4
    assert document["panel"] == PANEL and document["candidate"] == "LLM judge"
    missing = int(pd.read_csv(LONG, keep_default_na=False)["label"].eq("NA").sum())
    assert (document["rows_read"], document["rows_dropped"]) == (len(df), missing)
    for member, row in zip(PANEL, document["members"], strict=True):
        table = wk.confusion_table(*_both(wide["LLM judge"], wide[member]), labels=ORDER)
        pair = _both(wide["LLM judge"], wide[member])
        unweighted = wk.weighted_kappa(*pair, labels=ORDER, weights="unweighted")
        assert row["kappa"] == pytest.approx(unweighted)
        assert row["observed_agreement"] == pytest.approx(np.trace(table) / table.sum())
    assert np.allclose(np.array(document["pairwise"])[0, 1:], expected.candidate_vs_members)
    page = report.read_text()
    assert "K = 4 categories: none, mild, moderate, severe" in page and "prevalence" in page
    text = run("judge", WIDE, "--raters", ",".join(PANEL), "--candidate", "LLM judge",
               "--labels", ",".join(ORDER), "--seed", "1", "--bootstrap", "199")  # fmt: skip
    assert text.returncode == 0, text.stderr
    assert f"{expected.difference:.4f}" in text.stdout
    assert "K = 4 categories: none, mild, moderate, severe" in text.stdout
    assert "80 read, all used" in text.stdout and "PABAK" in text.stdout


def _both(a: pd.Series, b: pd.Series) -> tuple[list, list]:
    keep = a.notna() & b.notna()
    return a[keep].tolist(), b[keep].tolist()


def test_cli_judge_errors_speak_the_command_line():
    refused = run("judge", LONG, *LONG_OPTIONS, "--candidate", "LLM judge")
    assert refused.returncode == 2 and "--strip-labels" in refused.stderr
    wrong = run("judge", LONG, *LONG_OPTIONS, "--candidate", "llm judge", "--strip-labels")
    assert wrong.returncode == 2 and "Did you mean 'LLM judge'?" in wrong.stderr
    neither = run("judge", WIDE, "--candidate", "LLM judge")
    assert neither.returncode == 2 and "--raters" in neither.stderr


def test_cli_judge_refuses_a_rater_who_rated_an_item_twice(tmp_path):
    """The same rule and words as frames.agreement, frames.icc and wkappa agree."""
    path = tmp_path / "twice.csv"
    rows = [("1", "a", 1), ("1", "b", 1), ("1", "j", 2), ("2", "a", 2), ("2", "b", 2),
            ("2", "j", 2), ("2", "b", 1), ("3", "a", 1), ("3", "b", 2), ("3", "j", 1)]  # fmt: skip
    path.write_text("item,who,y\n" + "".join(f"{i},{r},{y}\n" for i, r, y in rows))
    out = run("judge", path, "--item", "item", "--rater", "who", "--rating", "y",
              "--candidate", "j")  # fmt: skip
    assert out.returncode == 2
    assert f"{path}: Rater 'b' rated item 2 more than once (2 ratings); the long layout" in (
        out.stderr
    )


def test_the_how_to_shows_what_the_command_prints(tmp_path):
    import re
    import shlex
    import shutil

    page = (Path(__file__).parents[1] / "docs" / "how-to" / "llm-judge.md").read_text()
    shutil.copy(LONG, tmp_path / "export.csv")
    examples = 0
    for block in re.findall(r"```console\n(.*?)```", page, flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            argv = shlex.split(command)
            assert argv[0] == "wkappa"
            result = run(*argv[1:], cwd=tmp_path)
            assert (result.stdout + result.stderr).rstrip("\n") == shown.rstrip("\n"), command
            examples += 1
    assert examples == 2


def test_python_entry_points_point_to_the_right_call():
    df = pd.DataFrame({"a": [1, 2, 3], "b": [1, 2, 2], "judge": [1, 2, 3]})
    with pytest.raises(WkappaTypeError, match=r"frames.weighted_kappa\(df, y_true='a'"):
        frames.weighted_kappa(df, "a", "b")
    with pytest.raises(WkappaTypeError, match=r"frames\.rater_vs_panel"):
        wk.rater_vs_panel(df, "judge")
    assert frames.weighted_kappa(df, y_true="a", y_pred="b") == wk.weighted_kappa(df.a, df.b)


def test_cli_judge_json_interval_is_the_results_to_dict():
    """The JSON interval lacked n_resamples and n_undefined, and the document lacked the
    test's alternative, which PanelComparison.to_dict() has."""
    wide = pd.read_csv(WIDE)
    expected = wk.rater_vs_panel(
        wide[PANEL].to_numpy(dtype=object), wide["LLM judge"].to_numpy(dtype=object),
        labels=ORDER, n_resamples=199, rng=1,
    )  # fmt: skip
    proc = run("judge", WIDE, "--raters", ",".join(PANEL), "--candidate", "LLM judge",
               "--labels", ",".join(ORDER), "--seed", "1", "--bootstrap", "199",
               "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    want = expected.to_dict()
    assert document["confidence_interval"] == pytest.approx(want["confidence_interval"])
    assert document["alternative"] == want["alternative"] == "two-sided"


def test_cli_judge_text_says_the_pooled_row_mixes_a_mean_and_pooled_tables():
    """'members vs members (pooled)' showed the mean pairwise kappa beside the pooled tables'
    kappa (0.6282 and 0.632 in one row) without saying which is which."""
    proc = run("judge", WIDE, "--raters", ",".join(PANEL), "--candidate", "LLM judge",
               "--labels", ",".join(ORDER), "--seed", "1", "--bootstrap", "199")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "the coefficient is the mean over their pairs" in proc.stdout
    assert "tables pooled, so its kappa (unw.) may differ from the mean" in proc.stdout


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_cli_judge_alternative_is_the_library_one_sided_test(alternative):
    """judge had no --alternative, though rater_vs_panel has one (a one-sided 'greater' test
    is the non-inferiority reading of the difference)."""
    wide = pd.read_csv(WIDE)
    expected = wk.rater_vs_panel(
        wide[PANEL].to_numpy(dtype=object), wide["LLM judge"].to_numpy(dtype=object),
        labels=ORDER, n_resamples=199, rng=1, alternative=alternative,
    )  # fmt: skip
    args = ("judge", WIDE, "--raters", ",".join(PANEL), "--candidate", "LLM judge",
            "--labels", ",".join(ORDER), "--seed", "1", "--bootstrap", "199",
            "--alternative", alternative)  # fmt: skip
    document = json.loads(run(*args, "--format", "json").stdout)
    assert document["alternative"] == alternative
    assert document["pvalue"] == pytest.approx(expected.pvalue)
    text = run(*args).stdout
    assert "one-sided, item bootstrap, 199 resamples" in text
    assert f"item bootstrap, {alternative}" in text or "the smallest a 199-resample" in text
    assert ("lower end" in text) == (alternative == "greater")  # no lower end under 'less'


def test_rater_vs_panel_with_the_arguments_swapped_says_the_panel_comes_first():
    """The panel is the first argument; swapped, the matrix reader said "`ratings` must be
    2-D" without a word about the order."""
    panel = np.array([[0, 1, 1], [1, 1, 2], [2, 2, 2], [0, 0, 1]])
    with pytest.raises(wk.WkappaError, match=r"takes the panel first"):
        wk.rater_vs_panel(panel[:, 0], panel)


def test_cli_judge_members_pooled_row_does_not_depend_on_the_members_order():
    """The members' pairs were pooled as (earlier column, later column) tables, so the pooled
    row's bias index and kappa changed with the order of --raters (bias 0.0641 for ann_1..5,
    0.0240 for ann_3,ann_1,ann_5,ann_2,ann_4; kappa 0.5435 and 0.5423) and, in the long
    layout, with the annotators' names. Each pair's chance agreement and bias are now pooled,
    weighted by its items."""
    pooled = []
    for order in (PANEL, ["ann_3", "ann_1", "ann_5", "ann_2", "ann_4"], PANEL[::-1]):
        proc = run("judge", WIDE, "--raters", ",".join(order), "--candidate", "LLM judge",
                   "--labels", ",".join(ORDER), "--strip-labels", "--seed", "1",
                   "--bootstrap", "199", "--format", "json")  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        pooled.append(json.loads(proc.stdout)["members_pooled"])
    for other in pooled[1:]:
        assert other == pytest.approx(pooled[0], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda k: st.lists(
            st.lists(
                st.lists(st.integers(0, 30), min_size=k, max_size=k), min_size=k, max_size=k
            ).filter(lambda t: sum(t[i][i] for i in range(len(t))) < sum(map(sum, t))),
            min_size=1,
            max_size=4,
        )
    )
)
def test_pooled_base_rate_indices_pool_each_pairs_chance_agreement_and_bias(tables_):
    """Pooled indices of several pairs' tables: p_o, PABAK and the prevalence index of the
    summed table; chance agreement and bias index the pairs' own, weighted by their counts;
    one table gives base_rate_indices; transposing a table changes nothing."""
    from wkappa._stats.base_rates import pooled_base_rate_indices

    k = len(tables_[0])
    exact = [_exact(t) for t in tables_]
    sizes = [sum(map(sum, t)) for t in tables_]
    total = sum(sizes)
    summed = [[sum(t[i][j] for t in tables_) for j in range(k)] for i in range(k)]
    whole = _exact(summed)
    po = whole["observed_agreement"]
    pe = Fraction(0)
    for t, n in zip(tables_, sizes, strict=True):
        rows = [Fraction(sum(r), n) for r in t]
        cols = [Fraction(sum(t[i][j] for i in range(k)), n) for j in range(k)]
        pe += n * sum(r * c for r, c in zip(rows, cols, strict=True))
    pe /= total
    want = {
        "observed_agreement": po,
        "kappa": (po - pe) / (1 - pe),
        "pabak": whole["pabak"],
        "prevalence_index": whole["prevalence_index"],
        "bias_index": sum(n * e["bias_index"] for n, e in zip(sizes, exact, strict=True)) / total,
    }
    found = pooled_base_rate_indices([np.array(t) for t in tables_])
    flipped = pooled_base_rate_indices([np.array(t).T for t in tables_])
    for name, value in want.items():
        assert found[name] == pytest.approx(float(value), abs=1e-12), name
        assert flipped[name] == pytest.approx(found[name], abs=1e-12), name
    if len(tables_) == 1:
        assert found == pytest.approx(base_rate_indices(np.array(tables_[0])), abs=1e-12)


@pytest.mark.parametrize(
    ("options", "name"),
    [
        (["--coefficient", "gwet"], "Gwet's AC1, unweighted"),
        (["--coefficient", "gwet", "--weights", "quadratic"], "Gwet's AC2, quadratic weights"),
        ([], "Cohen's kappa, unweighted"),
        (["--coefficient", "fleiss"], "Fleiss' kappa, unweighted"),
    ],
)
def test_cli_judge_names_the_coefficient_it_computed(options, name):
    """`wkappa judge --coefficient gwet` said "Gwet's AC1/AC2" whatever the weights, where
    the result's explain(), wkappa agree and wk.agreement say AC1 or AC2; the name is the
    result's (PanelComparison.name), in the header, the pairwise table and the report."""
    shown = run("judge", WIDE, "--raters", ",".join(PANEL), "--candidate", "LLM judge",
                "--labels", ",".join(ORDER), "--seed", "1", "--bootstrap", "999",
                *options)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert f"  coefficient   {name}; K = 4" in shown.stdout
    assert f"Pairwise {name.split(',')[0]} (candidate first):" in shown.stdout
    ratings = pd.read_csv(WIDE, keep_default_na=False, na_values=["NA"])
    coefficient = options[1] if options else "conger"
    weights = options[3] if len(options) > 2 else "unweighted"
    result = wk.rater_vs_panel(ratings[PANEL].to_numpy(dtype=object),
                               ratings["LLM judge"].to_numpy(dtype=object), labels=ORDER,
                               coefficient=coefficient, weights=weights, n_resamples=9)  # fmt: skip
    assert result.name == name.split(",")[0]
    assert result.explain().startswith(
        f"A candidate rater against a panel of 5 members: {result.name}"
    )
