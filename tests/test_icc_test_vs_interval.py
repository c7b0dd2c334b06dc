"""The absolute-agreement forms' F test and F-based interval come from different F
distributions (the test MSR / MSE on (n - 1, (n - 1)(k - 1)) df, the interval McGraw & Wong's
limits with Satterthwaite's df), so near the line they can disagree: p = 0.035 beside a 95%
interval [-0.029, 0.835] that holds 0. ``explain()`` and ``wkappa icc`` printed the two side by
side without a word; they now say so."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli.app import main

pytest.importorskip("polars")

# Five items, three raters: ICC(A,1) = 0.311, F test p = 0.035, 95% interval [-0.029, 0.835].
SPLIT = [[1, 2, 3], [4, 4, 7], [3, 3, 5], [4, 3, 6], [2, 5, 6]]


def test_the_example_splits_test_and_interval() -> None:
    result = wk.icc(SPLIT, form="A,1")
    low, high = result.confidence_interval()
    assert result.pvalue < 0.05
    assert low < 0 < high
    consistency = wk.icc(SPLIT, form="C,1")  # the consistency forms' test and interval agree
    low_c, _ = consistency.confidence_interval()
    assert (consistency.pvalue < 0.05) == (low_c > 0)


def test_explain_says_when_the_test_and_the_interval_disagree() -> None:
    text = wk.icc(SPLIT, form="A,1").explain()
    assert "the F test (p < 0.05) and the 95% interval (which holds 0) disagree" in text
    assert "Satterthwaite" in text
    assert "different F distributions" in text
    # At 90% both exclude 0: no note.
    assert "disagree" not in wk.icc(SPLIT, form="A,1").explain(0.90)
    assert "disagree" not in wk.icc(SPLIT, form="C,1").explain()


def test_explain_one_sided_and_icc0() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        x = rng.normal(size=(8, 1)) + rng.normal(size=(8, 3)) + rng.normal(size=(1, 3))
        for alternative in ("two-sided", "greater", "less"):
            for icc0 in (0.0, 0.3):
                result = wk.icc(x, form="A,1", icc0=icc0, alternative=alternative)
                low, high = result.confidence_interval()
                if np.isnan(result.pvalue) or np.isnan(low):
                    continue
                split = (result.pvalue < 0.05) != (not low <= icc0 <= high)
                assert ("disagree" in result.explain()) == split


def test_cli_icc_notes_the_forms_whose_test_and_interval_disagree(tmp_path, capsys) -> None:
    path = tmp_path / "split.csv"
    path.write_text("item,a,b,c\r\n" + "".join(f"{i},{a},{b},{c}\r\n" for i, (a, b, c) in
                                             enumerate(SPLIT)))  # fmt: skip
    assert main(["icc", str(path), "--raters", "a,b,c"]) == 0
    out = capsys.readouterr().out
    assert "ICC(A,1): the F test (p < 0.05) and the 95% interval (which holds 0) disagree" in out
    assert "ICC(C,1):" not in out


def test_cli_icc_report_notes_them_too(tmp_path, capsys) -> None:
    path = tmp_path / "split.csv"
    path.write_text("item,a,b,c\n" + "".join(f"{i},{a},{b},{c}\n" for i, (a, b, c) in
                                           enumerate(SPLIT)))  # fmt: skip
    report = tmp_path / "icc.html"
    assert main(["icc", str(path), "--raters", "a,b,c", "--report", str(report)]) == 0
    page = report.read_text()
    assert "ICC(A,1): the F test (p &lt; 0.05) and the 95% interval (which holds 0)" in page
    assert "ICC(C,1): the F test" not in page
