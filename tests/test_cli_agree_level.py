"""``wkappa agree --coefficient krippendorff --level``: Krippendorff's own metrics, as
``krippendorff_alpha(level=...)``; ``--weights`` with alpha is alpha with those weights (Gwet's
ordinal weights are not his ordinal metric) and says so."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk
from test_cli import assert_error, run

pytestmark = pytest.mark.integration

nan = np.nan
# Krippendorff's (2011) reliability data: 12 units, 4 coders, "." missing.
CODERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
]
RATINGS = np.array(CODERS).T


@pytest.fixture
def kripp(tmp_path: Path) -> Path:
    path = tmp_path / "kripp.csv"
    cell = lambda v: "." if np.isnan(v) else str(int(v))  # noqa: E731
    path.write_text(
        "unit,A,B,C,D\n"
        + "".join(f"{i + 1},{','.join(map(cell, row))}\n" for i, row in enumerate(RATINGS))
    )
    return path


_ARGS = ["--raters", "A,B,C,D", "--na-values", ".", "--coefficient", "krippendorff"]


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_level_is_krippendorffs_alpha(level, kripp):
    proc = run("agree", kripp, *_ARGS, "--level", level, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    expected = wk.krippendorff_alpha(RATINGS, level=level)
    assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-12)
    assert document["standard_error"] == pytest.approx(expected.standard_error, abs=1e-12)
    assert document["level"] == level


def test_ordinal_level_text_csv_and_report(kripp, tmp_path):
    out = tmp_path / "k.html"
    proc = run("agree", kripp, *_ARGS, "--level", "ordinal", "--report", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{kripp}: Krippendorff's alpha, ordinal level\n")
    assert "statistic    0.8154" in proc.stdout
    page = html.unescape(out.read_text())
    methods = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S).group(1)
    assert (
        "measured with Krippendorff's alpha (Krippendorff 2019) at the ordinal level of "
        "measurement" in methods
    )
    assert "Krippendorff's alpha = 0.8154" in methods
    proc = run("agree", kripp, *_ARGS, "--level", "ordinal", "--format", "csv")
    header, row = proc.stdout.strip().splitlines()
    values = dict(zip(header.split(","), row.split(","), strict=True))
    assert values["level"] == "ordinal" and values["weights"] == "custom"


def test_gwets_ordinal_weights_say_so(kripp, tmp_path):
    out = tmp_path / "g.html"
    proc = run("agree", kripp, *_ARGS, "--weights", "ordinal", "--report", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{kripp}: Krippendorff's alpha, Gwet's ordinal weights\n")
    expected = wk.agreement(RATINGS, coefficient="krippendorff", weights="ordinal")
    assert f"statistic    {expected.statistic:.4f}" in proc.stdout
    assert "wkappa: note: --weights ordinal is alpha with Gwet's ordinal weights, not " in (
        proc.stderr
    )
    assert "--level ordinal" in proc.stderr
    methods = html.unescape(out.read_text())
    assert "Krippendorff's alpha (Krippendorff 2019) with Gwet's ordinal weights" in methods


def test_level_with_another_coefficient_or_weights_is_refused(kripp):
    proc = run("agree", kripp, "--raters", "A,B,C,D", "--na-values", ".", "--level", "ordinal")
    assert_error(proc, "--level ordinal is Krippendorff's", "--coefficient krippendorff")
    proc = run("agree", kripp, *_ARGS, "--level", "interval", "--weights", "quadratic")
    assert_error(proc, "--level interval and --weights quadratic", "Hint: drop --weights")


def test_level_with_clusters(kripp):
    text = kripp.read_text().splitlines()
    kripp.write_text(
        "\n".join([text[0] + ",g", *(f"{line},{i % 8}" for i, line in enumerate(text[1:]))]) + "\n"
    )
    proc = run("agree", kripp, *_ARGS, "--level", "ordinal", "--cluster", "g", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    expected = wk.krippendorff_alpha(RATINGS, level="ordinal", cluster=np.arange(12) % 8)
    document = json.loads(proc.stdout)
    assert document["standard_error"] == pytest.approx(expected.standard_error, abs=1e-12)


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_level_report_labels_the_weights_of_each_table(level, kripp, tmp_path):
    """The table of every coefficient showed the others unweighted beside alpha's metric,
    unlabelled, and the pairs' note read "Cohen's kappa (ordinal level)": kappa has weights,
    not levels. Each row names its weights, a note says why the others are unweighted, and
    the pairwise kappas name the weights they take from the metric (the result's matrix)."""
    out = tmp_path / "k.html"
    proc = run("agree", kripp, *_ARGS, "--level", level, "--report", out)
    assert proc.returncode == 0, proc.stderr
    page = html.unescape(re.sub(r"<[^>]+>", " ", out.read_text()))
    page = re.sub(r"\s+", " ", page)
    assert f"Krippendorff's alpha {level} level 0." in page
    assert "Fleiss' kappa unweighted 0.7612" in page
    assert "the other coefficients unweighted, as --level sets alpha's metric only" in page
    assert f"({level} level)" not in page
    assert (
        f"Cohen's weighted kappa (weights 1 - δ/max δ, δ Krippendorff's {level} metric as "
        "alpha computes it on these ratings) of each pair" in page
    )
    result = wk.krippendorff_alpha(RATINGS, level=level)
    a_b = wk.weighted_kappa(
        *RATINGS[:, :2][~np.isnan(RATINGS[:, :2]).any(axis=1)].T,
        weights=result.weight_matrix,
        labels=list(result.labels),
    )
    assert f"A 1.0000 {a_b:.4f}" in page
