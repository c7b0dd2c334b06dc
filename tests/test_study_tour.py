"""A method-comparison study from the data file to the paper: what ``wkappa icc`` prints and
writes in its methods sentence, against an independent computation and as a reviewer reads
it (the test named, the interval's method named, no internal words)."""

from __future__ import annotations

import html
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import wkappa as wk
from wkappa._cli.app import main

# Systolic pressure (mmHg) of 12 patients: a new cuff and the reference device.
DEVICE = [128, 141, 117, 156, 133, 122, 149, 138, 111, 163, 127, 144]
REFERENCE = [125, 139, 119, 150, 131, 118, 146, 137, 113, 158, 124, 140]


def _bp_file(folder: Path) -> Path:
    path = folder / "bp.csv"
    rows = "".join(
        f"P{i},{d},{r}\n" for i, (d, r) in enumerate(zip(DEVICE, REFERENCE, strict=True))
    )
    path.write_text("patient,device,reference\n" + rows)
    return path


def _lin(x: np.ndarray, y: np.ndarray, level: float) -> tuple[float, float, float]:
    """Lin's (1989, 2000) CCC and its Fisher-z interval, from the formulas."""
    n = len(x)
    sxy = float(np.mean((x - x.mean()) * (y - y.mean())))
    sx, sy = float(x.var()), float(y.var())
    rho = 2 * sxy / (sx + sy + (x.mean() - y.mean()) ** 2)
    r = sxy / math.sqrt(sx * sy)
    u = (x.mean() - y.mean()) / (sx * sy) ** 0.25
    var = (
        (1 - r**2) * rho**2 / ((1 - rho**2) * r**2)
        + 2 * rho**3 * (1 - rho) * u**2 / (r * (1 - rho**2) ** 2)
        - rho**4 * u**4 / (2 * r**2 * (1 - rho**2) ** 2)
    ) / (n - 2)
    q = stats.norm.ppf((1 + level) / 2)
    z = math.atanh(rho)
    return rho, math.tanh(z - q * math.sqrt(var)), math.tanh(z + q * math.sqrt(var))


def test_the_ccc_line_names_its_interval_and_matches_lins_formula(tmp_path, capsys):
    """The line said "(Lin's z-transform)", a name a reviewer cannot check; it now names the
    standard error and the quantile, as ``CCCResult.explain()`` does."""
    path = _bp_file(tmp_path)
    assert main(["icc", str(path), "--raters", "device,reference", "--quiet"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    rho, low, high = _lin(np.array(DEVICE, float), np.array(REFERENCE, float), 0.95)
    assert last == (
        f"Lin's CCC {rho:.4f}, 95% CI [{low:.4f}, {high:.4f}] (Lin's delta-method SE of "
        "Fisher's z, normal quantile) on 12 complete items"
    )
    assert wk.ccc(DEVICE, REFERENCE).interval_method in last


def test_the_overall_ccc_names_the_jackknife_t_quantile():
    """Several raters: the interval is the jackknife's with a t quantile on n - 1 df, which
    the output called "jackknife z-transform" and the explanation "Lin's concordance
    correlation"."""
    ratings = np.array([[1, 2, 2], [3, 3, 4], [5, 4, 5], [2, 2, 1], [4, 5, 4]], dtype=float)
    result = wk.ccc(ratings)
    assert result.interval_method == "jackknife SE of Fisher's z, t(4) quantile"
    explained = result.explain()
    assert explained.startswith("Overall concordance correlation (Barnhart, Haber & Song 2002)")
    assert "(jackknife SE of Fisher's z, t(4) quantile)" in explained
    # the t(4) quantile: the interval is tanh(z -/+ t SE)
    z, se = math.atanh(result.statistic), result.standard_error_z
    q = stats.t.ppf(0.975, 4)
    low, high = result.confidence_interval(0.95)
    assert (low, high) == pytest.approx((math.tanh(z - q * se), math.tanh(z + q * se)))


@pytest.mark.parametrize(
    ("alternative", "words"),
    [
        ("greater", "F test of ICC = 0.7 against ICC > 0.7, one-sided"),
        ("less", "F test of ICC = 0.7 against ICC < 0.7, one-sided"),
        ("two-sided", "F test of ICC = 0.7, two-sided"),
    ],
)
def test_the_test_is_named_with_its_alternative(tmp_path, capsys, alternative, words):
    """The note and the methods sentence said "F test of ICC = 0.7 (greater)": the argument's
    value, not the hypothesis a reader looks for."""
    path = _bp_file(tmp_path)
    report = tmp_path / "r.html"
    argv = ["icc", str(path), "--raters", "device,reference", "--form", "A,1", "--icc0", "0.7"]
    argv += ["--alternative", alternative, "--report", str(report), "--quiet"]
    assert main(argv) == 0
    assert f"p: {words}." in capsys.readouterr().out
    page = html.unescape(report.read_text())
    methods = page.split('class="methods">')[1].split("</p>")[0]
    assert f"the p-value is that of the {words}." in methods
    assert f"p: the {words}." in page
    assert "(greater)" not in page and "(less)" not in page


def test_the_methods_sentence_reads_as_prose(tmp_path):
    """The sentence wrote "(F limits with Satterthwaite's df: approximate)" and nested
    parentheses "(86 ratings; ... (REML, Patterson and Thompson 1971))"."""
    path = tmp_path / "images.csv"
    path.write_text("image,r1,r2,r3\n1,3,3,4\n2,2,2,\n3,5,4,5\n4,1,2,1\n5,4,,4\n6,3,4,3\n")
    limits = "approximate F limits from the REML mean squares, df of the observed ratings"
    report = tmp_path / "r.html"
    argv = ["icc", str(path), "--raters", "r1,r2,r3", "--form", "A,1"]
    assert main([*argv, "--report", str(report), "--quiet"]) == 0
    methods = html.unescape(report.read_text()).split('class="methods">')[1].split("</p>")[0]
    assert f"McGraw and Wong (1996) ({limits});" in methods
    assert (
        "(16 ratings; items with a missing rating keep their other ratings: REML variance "
        "components, Patterson and Thompson 1971)"
    ) in methods
    assert ": approximate" not in methods and "1971))" not in methods
    complete = tmp_path / "complete.csv"
    complete.write_text("a,b\n1,2\n3,3\n4,5\n2,2\n5,4\n")
    report = tmp_path / "c.html"
    argv = ["icc", str(complete), "--raters", "a,b", "--report", str(report), "--quiet"]
    assert main(argv) == 0
    methods = html.unescape(report.read_text()).split('class="methods">')[1].split("</p>")[0]
    assert (
        "(exact F limits for the one-way and consistency forms, approximate F limits with "
        "Satterthwaite's df for absolute agreement)"
    ) in methods


def _anova(y: np.ndarray) -> dict[str, float]:
    """Shrout & Fleiss's ICC(1,1), (2,1), (3,1) from a two-way ANOVA by hand."""
    n, k = y.shape
    grand = y.mean()
    ss_rows = k * ((y.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((y.mean(axis=0) - grand) ** 2).sum()
    ss_error = ((y - grand) ** 2).sum() - ss_rows - ss_cols
    msr, msc = ss_rows / (n - 1), ss_cols / (k - 1)
    mse = ss_error / ((n - 1) * (k - 1))
    msw = (ss_cols + ss_error) / (n * (k - 1))
    return {
        "1,1": (msr - msw) / (msr + (k - 1) * msw),
        "A,1": (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n),
        "C,1": (msr - mse) / (msr + (k - 1) * mse),
    }


def test_the_icc_forms_are_the_two_way_anova_by_hand():
    y = np.column_stack([DEVICE, REFERENCE]).astype(float)
    by_hand = _anova(y)
    results = wk.icc_all(y)
    for form, value in by_hand.items():
        assert results[form].statistic == pytest.approx(value, rel=1e-12)


def test_the_explanation_names_the_test_as_the_report_does():
    """``ICCResult.explain()`` wrote "F test of ICC = 0.7 (greater)" beside the CLI's note;
    both now come from ``ICCResult.test_text``."""
    y = np.column_stack([DEVICE, REFERENCE]).astype(float)
    result = wk.icc(y, form="C,1", icc0=0.7, alternative="greater")
    assert "F test of ICC = 0.7 against ICC > 0.7, one-sided: F = " in result.explain()
    f = result.f_statistic
    assert result.pvalue == pytest.approx(stats.f.sf(f, result.df1, result.df2), rel=1e-9)


def test_the_consistency_forms_name_both_models():
    """Shrout & Fleiss's ICC3 is the two-way mixed model and McGraw & Wong's ICC(C,1) the
    same number under the random one: "two-way effects" named neither."""
    y = np.column_stack([DEVICE, REFERENCE]).astype(float)
    for form in ("C,1", "C,k"):
        assert wk.icc(y, form=form).description.startswith(
            "two-way random or mixed effects, consistency"
        )


def test_the_overall_ccc_explains_its_mean_pairwise_correlation():
    """Several raters: ``pearson`` is the mean of the pairwise correlations (its attribute
    says so), which ``explain()`` called "Pearson r"."""
    ratings = np.array([[1, 2, 2], [3, 3, 4], [5, 4, 5], [2, 2, 1], [4, 5, 4]], dtype=float)
    result = wk.ccc(ratings)
    pairs = [np.corrcoef(ratings[:, j], ratings[:, m])[0, 1] for j, m in ((0, 1), (0, 2), (1, 2))]
    assert result.pearson == pytest.approx(np.mean(pairs), rel=1e-12)
    assert "= mean pairwise Pearson r " in result.explain()
    assert "= Pearson r " in wk.ccc(DEVICE, REFERENCE).explain()


def test_the_two_method_report_cites_lins_correction(tmp_path):
    """The standard error is Lin's as corrected in Lin (2000), the formula checked above;
    the report cited Lin (1989) alone."""
    path = _bp_file(tmp_path)
    report = tmp_path / "r.html"
    argv = ["icc", str(path), "--raters", "device,reference", "--report", str(report), "-q"]
    assert main(argv) == 0
    page = html.unescape(report.read_text())
    methods = page.split('class="methods">')[1].split("</p>")[0]
    assert "(Lin 1989; its standard error as corrected in Lin 2000)" in methods
    assert "A note on the concordance correlation coefficient. Biometrics, 56(1)" in page
    assert "Lin (1989, 2000)." in page
