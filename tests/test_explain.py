"""explain() and plot(): the seed notes' O/W/E story in text and pictures."""

from __future__ import annotations

import dataclasses
import glob
import pathlib
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import wkappa as wk
from wkappa._stats import number_text, smallest_pvalue
from wkappa._stats.explain import explain_table, seed_steps
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")

ACTUALS = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
PREDS = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]

# Printed in seed note 000 (../shared/seeds/000_1d8d419f6602d0eb.txt), In [24]-[27], verbatim.
SEED_000_PRINTED = [
    """Matrix O:
[[1 0 0 0 0]
 [0 3 0 0 0]
 [0 0 1 0 0]
 [0 1 0 0 0]
 [2 0 0 0 2]]""",
    """weights matrix:
[[0.     0.0625 0.25   0.5625 1.    ]
 [0.0625 0.     0.0625 0.25   0.5625]
 [0.25   0.0625 0.     0.0625 0.25  ]
 [0.5625 0.25   0.0625 0.     0.0625]
 [1.     0.5625 0.25   0.0625 0.    ]]""",
    """Expected matrix:
[[ 3.  4.  1.  0.  2.]
 [ 9. 12.  3.  0.  6.]
 [ 3.  4.  1.  0.  2.]
 [ 3.  4.  1.  0.  2.]
 [12. 16.  4.  0.  8.]]""",
    """weighted kappa:
0.31818181818181823""",
]


def test_explain_reproduces_every_printout_of_seed_000() -> None:
    text = wk.kappa_test(ACTUALS, PREDS).explain()
    for block in SEED_000_PRINTED:
        assert block in text, block


def test_explain_matches_the_seed_file_when_present() -> None:
    """Reads the matrices and the kappa straight from the seed note if it is on disk."""
    here = pathlib.Path(__file__).resolve()
    candidates = [p for parent in here.parents for p in glob.glob(f"{parent}/shared/seeds/000_*")]
    if not candidates:
        pytest.skip("the worked example's source text (../shared/seeds/) is not beside this clone")
    seed = pathlib.Path(candidates[0]).read_text()
    blocks = re.findall(
        r"^((?:Matrix O|weights matrix|Expected matrix):\n\[\[.*?\]\])$", seed, re.M | re.S
    )
    assert len(blocks) == 3
    kappa = re.search(r"^weighted kappa:\nOut\[27\]:\n(\S+)$", seed, re.M)
    assert kappa is not None
    text = wk.kappa_test(ACTUALS, PREDS).explain()
    for block in blocks:
        assert block in text
    assert f"weighted kappa:\n{kappa.group(1)}\n" in text


def test_numbers_follow_the_seed_double_loop() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        k = int(rng.integers(2, 7))
        table = rng.integers(0, 9, (k, k))
        w = wk.kappa_test_from_table(table, weights="linear").weight_matrix
        o = table / table.sum()
        e = np.outer(table.sum(1), table.sum(0)).astype(float)
        e = e / e.sum()
        num = den = 0.0
        for i in range(k):
            for j in range(k):
                num += w[i][j] * o[i][j]
                den += w[i][j] * e[i][j]
        steps = seed_steps(table, w)
        assert (steps.numerator, steps.denominator) == (num, den)
        assert steps.kappa == 1 - num / den
        text = explain_table(table, w)
        assert f"numerator   sum(W*O) = {float(num)!r}" in text
        assert f"weighted kappa:\n{float(1 - num / den)!r}" in text
        assert steps.contribution.sum() == pytest.approx(num - den)


def test_costly_cells_and_inference_lines() -> None:
    text = wk.kappa_test(ACTUALS, PREDS).explain()
    assert (
        "y_true=4, y_pred=0: +0.080000 (observed 2, expected 1.2 = E 12 / n 10; kappa -0.2424)"
        in text
    )
    assert "standard error = 0.282487" in text
    assert "(fair, Landis & Koch)" in text
    with pytest.warns(UserWarning, match=r"Hint: method='score' gives an interval"):
        perfect = wk.kappa_test_from_table([[3, 0], [0, 2]]).explain()  # (its [1, 1])
    assert "No cell has more weighted disagreement than chance" in perfect


def test_the_expected_count_of_a_cell_is_step_3s_entry_over_n() -> None:
    """Step 3 prints outer(row sums, column sums), n times the expected counts (as the worked
    example does); the costly cells' "expected" count is that entry divided by n, and says so."""
    text = wk.kappa_test([0, 1, 2, 2, 1, 0, 3], [0, 2, 2, 1, 1, 0, 3]).explain()
    assert "(n times the expected counts; only its proportions matter)" in text
    assert "y_true=1, y_pred=2: +0.006803 (observed 1, expected 0.5714 = E 4 / n 7;" in text


def test_explain_ignores_global_print_options() -> None:
    with np.printoptions(precision=2, suppress=True):
        text = wk.kappa_test(ACTUALS, PREDS).explain()
    assert SEED_000_PRINTED[1] in text


def test_explain_with_string_labels() -> None:
    text = wk.kappa_test(
        ["a", "b", "c", "a"], ["a", "c", "c", "b"], labels=["a", "b", "c"]
    ).explain()
    assert "Categories (K = 3): ['a', 'b', 'c']" in text


def test_demo_still_explains() -> None:
    from wkappa._cli import main

    assert main(["demo"]) == 0


# --------------------------------------------------------------------------- plot


def test_plot_renders_a_png(tmp_path: pathlib.Path) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = wk.kappa_test(ACTUALS, PREDS)
    axes = result.plot()
    assert len(axes) == 3
    texts = [t.get_text() for t in axes[2].texts]
    assert "+0.080" in texts and len(texts) == 25
    assert [t.get_text() for t in axes[0].texts].count("2") == 2
    assert "kappa = 0.3182" in axes[2].get_title()
    path = tmp_path / "kappa.png"
    axes[0].figure.savefig(path, dpi=60)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000
    plt.close(axes[0].figure)


def test_plot_into_given_axes_and_many_categories() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    result = wk.kappa_test_from_table(rng.integers(0, 5, (15, 15)).astype(float) * 2)
    figure, given = plt.subplots(3, 1)
    axes = result.plot(axes=given)
    assert all(a is b for a, b in zip(axes, given, strict=True))
    assert not axes[0].texts  # too many cells to annotate
    with pytest.raises(WkappaError, match="axes"):
        result.plot(axes=given[:2])
    plt.close(figure)


def test_import_does_not_load_matplotlib() -> None:
    code = "import sys, wkappa; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- paired comparison

TRUTH = [0, 1, 2, 3, 4] * 20
CLOSE_A = [0, 1, 2, 3, 3] * 20
CLOSE_B = [1, 1, 2, 2, 4] * 20
NUMBER = r"(-?[0-9.]+(?:e[-+][0-9]+)?|-?∞)"  # an open end is written ∞


def _paired_numbers(text: str) -> dict[str, float]:
    """The numbers paired explain() prints, read back from the text."""
    patterns = {
        "statistic_a": rf"kappa of A +{NUMBER} \(",
        "statistic_b": rf"kappa of B +{NUMBER} \(",
        "difference": rf"difference A - B +{NUMBER} ",
        "low": rf"interval \[{NUMBER}, [^]]+\] of A - B",
        "high": rf"interval \[[^,]+, {NUMBER}\] of A - B",
        "pvalue": rf"H0: equal kappas, p = {NUMBER} ",
        "n_resamples": rf"Paired bootstrap: {NUMBER} resamples",
        "n": rf"n = {NUMBER} items",
    }
    found = {}
    for name, pattern in patterns.items():
        match = re.search(pattern, text)
        assert match is not None, (name, text)
        found[name] = float(match.group(1).replace("∞", "inf"))
    return found


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("clustered", [False, True])
def test_paired_explain_prints_the_results_numbers(alternative: str, clustered: bool) -> None:
    cluster = np.arange(100) % 25 if clustered else None
    result = wk.paired_kappa_test(
        TRUTH, CLOSE_A, CLOSE_B, n_resamples=499, rng=3, alternative=alternative, cluster=cluster
    )
    text = result.explain()
    found = _paired_numbers(text)
    ci = result.confidence_interval()
    for name, value in [
        ("statistic_a", result.statistic_a),
        ("statistic_b", result.statistic_b),
        ("difference", result.difference),
        ("low", ci.low),
        ("high", ci.high),
        ("n_resamples", result.n_resamples),
        ("n", result.n),
    ]:
        assert found[name] == pytest.approx(value, rel=1e-5), name
    assert found["pvalue"] == pytest.approx(result.pvalue, rel=1e-3)
    assert f"({alternative};" in text
    assert ("one-sided interval" in text) is (alternative != "two-sided")
    assert ("the 25 clusters" in text) is clustered
    assert ("pass cluster=" in text) is not clustered
    assert "(almost perfect, Landis & Koch)" in text


def test_paired_explain_reads_the_pvalue_at_the_interval_level() -> None:
    differ = wk.paired_kappa_test(TRUTH, CLOSE_A, CLOSE_B, n_resamples=999, rng=0)
    assert differ.pvalue < 0.05
    assert "Read: the kappas differ at the 5% level (p < 0.05): A's is higher" in differ.explain()
    swapped = wk.paired_kappa_test(TRUTH, CLOSE_B, CLOSE_A, n_resamples=999, rng=0)
    assert "A's is lower than B's" in swapped.explain()
    # At 99.9% the same comparison is not significant: the reading follows the level.
    strict = wk.paired_kappa_test(
        TRUTH, CLOSE_A, CLOSE_B, n_resamples=999, rng=0, confidence_level=0.999
    )
    assert strict.pvalue >= 0.001
    text = strict.explain()
    assert "do not show a difference at the 0.1% level (p >= 0.001)" in text
    assert "not evidence of equal kappas" in text
    low = strict.confidence_interval().low
    assert f"lower end {number_text(low)} is above -d" in text
    greater = wk.paired_kappa_test(
        TRUTH, CLOSE_A, CLOSE_B, n_resamples=999, rng=0, alternative="greater"
    )
    assert "Read: A's kappa is higher than B's at the 5% level" in greater.explain()
    less = wk.paired_kappa_test(TRUTH, CLOSE_A, CLOSE_B, n_resamples=999, rng=0, alternative="less")
    assert "do not show that A's kappa is lower" in less.explain()
    assert "above -d" not in less.explain()  # its interval has no lower end


def test_paired_explain_names_the_smallest_pvalue_the_resamples_show() -> None:
    far = [4, 3, 2, 1, 0] * 20
    result = wk.paired_kappa_test(TRUTH, TRUTH, far, n_resamples=999, rng=0)
    floor = smallest_pvalue(999, 100, "two-sided")
    assert result.pvalue == floor
    text = result.explain()
    assert f"p = {number_text(floor, '.4g')} is the smallest p-value 999 resamples" in text
    few = wk.paired_kappa_test(TRUTH, TRUTH, far, n_resamples=19, rng=0)
    assert few.pvalue == smallest_pvalue(19, 100, "two-sided") > 0.05
    text = few.explain()
    assert "19 resamples cannot show a p-value below 0.05" in text
    assert "do not show a difference" not in text


def test_paired_explain_counts_the_dropped_resamples() -> None:
    with pytest.warns(wk.UndefinedKappaWarning, match="were dropped"):
        result = wk.paired_kappa_test(
            [0, 1, 0, 1, 1, 0], [0, 1, 0, 1, 0, 0], [0, 1, 1, 1, 1, 0], n_resamples=999, rng=0
        )
    dropped = result.confidence_interval().n_undefined
    assert dropped > 0
    text = result.explain()
    assert f"{dropped} of the 999 resamples left a kappa undefined and were dropped" in text
    assert "conditional on both kappas being defined" in text
    clean = wk.paired_kappa_test(TRUTH, CLOSE_A, CLOSE_B, n_resamples=99, rng=0)
    assert "left a kappa undefined" not in clean.explain()


def test_paired_explain_of_an_undefined_kappa() -> None:
    with pytest.warns(wk.UndefinedKappaWarning):
        result = wk.paired_kappa_test([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 2, 1], n_resamples=99)
    text = result.explain()
    assert "kappa of A        undefined: the expected weighted disagreement" in text
    assert "Nothing to compare" in text and "left a kappa undefined" not in text
    assert not re.search(r"\bnan\b", text)


def test_paired_explain_from_the_table_is_the_same() -> None:
    table = np.zeros((5, 5, 5), dtype=np.int64)
    np.add.at(table, (TRUTH, CLOSE_A, CLOSE_B), 1)
    labels = ["a", "b", "c", "d", "e"]
    direct = wk.paired_kappa_test(
        [labels[i] for i in TRUTH],
        [labels[i] for i in CLOSE_A],
        [labels[i] for i in CLOSE_B],
        labels=labels,
        n_resamples=499,
        rng=1,
    )
    counted = wk.paired_kappa_test_from_table(table, labels=labels, n_resamples=499, rng=1)
    assert counted.explain() == direct.explain()
    assert "K = 5 categories ['a', 'b', 'c', 'd', 'e']" in direct.explain()


# --------------------------------------------------------------------------- thresholds


def _grade_of(line: str, score: float) -> bool | None:
    """Whether ``score`` falls in the grade an explain() line describes (None: never)."""
    rule = line.split(": ", 1)[1]
    if rule.startswith("never predicted"):
        return None
    if match := re.fullmatch(r"score <= (\S+)", rule):
        return score <= float(match.group(1))
    if match := re.fullmatch(r"score > (\S+)", rule):
        return score > float(match.group(1))
    match = re.fullmatch(r"(\S+) < score <= (\S+)", rule)
    assert match is not None, rule
    return float(match.group(1)) < score <= float(match.group(2))


@pytest.mark.parametrize("seed", range(6))
def test_threshold_explain_describes_what_predict_does(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = 40, int(rng.integers(2, 6))
    truth = rng.integers(0, k, n)
    truth[:k] = np.arange(k)
    scores = np.round(truth + rng.normal(0, 1.2, n), 1)
    fit = wk.optimize_thresholds(truth, scores)
    text = fit.explain()
    grades = [line for line in text.splitlines() if line.startswith("  grade ")]
    assert [line.split(":")[0] for line in grades] == [f"  grade {g}" for g in fit.labels]
    probe = np.concatenate([scores, fit.thresholds, rng.uniform(-3, k + 3, 50)])
    predicted = fit.predict(probe)
    for score, grade in zip(probe, predicted, strict=True):
        inside = [i for i, line in enumerate(grades) if _grade_of(line, float(score))]
        assert inside == [list(fit.labels).index(grade)], (score, text)
    assert f"kappa {number_text(fit.statistic)} (" in text
    programs = "dynamic program" if fit.n_iter == 1 else "dynamic programs"
    assert f"{fit.n_iter} {programs}, in exact integer arithmetic" in text


def test_threshold_explain_names_an_empty_grade_and_float_fits() -> None:
    fit = wk.optimize_thresholds([0, 0, 1, 1, 2, 2, 3, 3], [0.1, 0.3, 0.2, 0.6, 0.5, 0.9, 0.8, 1.4])
    assert "grade 2: never predicted (its two thresholds are equal: 0.7)" in fit.explain()
    assert "out-of-fold" in fit.explain()
    weighted = wk.optimize_thresholds(
        [0, 1, 2, 0, 1, 2], [0.1, 0.6, 0.9, 0.4, 0.3, 1.0], sample_weight=[1, 0.5, 2, 1, 1, 1.5]
    )
    assert not weighted.exact
    assert "in float64" in weighted.explain() and "proved" not in weighted.explain()
    perfect = wk.optimize_thresholds(["lo", "hi"], [0.2, 0.8], labels=["lo", "hi"])
    assert perfect.n_iter == 0
    text = perfect.explain()
    assert "grade 'lo': score <= 0.5" in text and "no search needed" in text


def test_every_result_explains_itself() -> None:
    """Every public result (a frozen dataclass with to_dict(), not the interval itself) has
    explain(); PairedKappaResult and ThresholdResult were the ones without."""
    results = [
        name
        for name in wk.__all__
        if isinstance(getattr(wk, name), type)
        and dataclasses.is_dataclass(getattr(wk, name))
        and hasattr(getattr(wk, name), "to_dict")
        and name != "ConfidenceInterval"
    ]
    assert {"PairedKappaResult", "ThresholdResult", "KappaResult", "PanelComparison"} <= set(
        results
    )
    assert [
        name for name in results if not callable(getattr(getattr(wk, name), "explain", None))
    ] == []


def test_a_difference_is_read_by_its_own_sign() -> None:
    """The explanations read the difference shown: a candidate above the panel is not told
    it 'agrees less', and B ahead of A is said as such."""
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 120)
    close = np.where(rng.random(120) < 0.9, truth, rng.integers(0, 3, 120))
    noisy = np.where(rng.random(120) < 0.5, truth, rng.integers(0, 3, 120))
    paired = wk.paired_kappa_test(truth, noisy, close, n_resamples=99, rng=0)
    assert paired.difference < 0
    assert "(below 0: B agrees with the truth more than A does)" in paired.explain()
    assert "above 0" not in paired.explain()
    panel = np.column_stack([noisy, np.where(rng.random(120) < 0.5, truth, 1)])
    comparison = wk.rater_vs_panel(panel, close, n_resamples=99, rng=0)
    assert comparison.difference > 0
    text = comparison.explain()
    assert "(above 0: the candidate agrees with the members more than they agree" in text
    assert "less than" not in text


def test_a_planned_level_is_printed_as_given() -> None:
    """A 97.5% interval is not written '98%' (as the results' explanations write levels)."""
    plan = wk.kappa_sample_size(
        kappa1=0.6, marginals=[0.3, 0.7], ci_width=0.3, confidence_level=0.975
    )
    assert "97.5% asymptotic interval" in plan.explain() and "98%" not in plan.explain()


def test_explain_says_where_its_float_steps_end_off_the_reported_kappa() -> None:
    """31/39: the steps' 1 - 0.0625/0.3046875 is 0.7948717948717949, the reported kappa (the
    float nearest 31/39) one unit in the last place below; a kappa the steps reach exactly
    gets no such line."""
    result = wk.kappa_test([0, 1, 2, 2, 1, 0, 1, 2], [0, 1, 2, 1, 1, 0, 2, 2])
    assert result.statistic == float(Fraction(31, 39)) == 0.7948717948717948
    text = result.explain()
    assert "0.7948717948717949\n(These steps' float arithmetic ends 1 unit in the last" in text
    assert "from the reported kappa, 0.7948717948717948," in text
    exact = wk.kappa_test([0, 1, 1, 0], [0, 1, 0, 0]).explain()
    assert "These steps' float arithmetic" not in exact
