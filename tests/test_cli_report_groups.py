"""``score --by ... --report``: the report has the pooled kappa across the groups and the test
of equal kappas that the console prints, and its methods sentence says so."""

from __future__ import annotations

import html
import json
import re

import pytest

from test_cli import run
from wkappa._cli.app import main

pytestmark = pytest.mark.integration


@pytest.fixture
def grouped(tmp_path):
    path = tmp_path / "g.csv"
    rows = []
    for site, shift in (("north", 3), ("south", 5), ("west", 7)):
        rows += [f"{site},{i % 3},{(i + i // shift) % 3}" for i in range(60)]
    path.write_text("site,a,b\n" + "\n".join(rows) + "\n")
    return path


def test_the_report_has_the_pooled_kappa_and_the_test(grouped, tmp_path):
    out = tmp_path / "r.html"
    proc = run("score", grouped, "--true", "a", "--pred", "b", "--by", "site", "--report", out)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("Across site"))
    page = html.unescape(out.read_text())
    assert f'<p class="across">{line}</p>' in page
    argv = ["score", grouped, "--true", "a", "--pred", "b", "--by", "site", "--format", "json"]
    combined = json.loads(run(*argv).stdout)["across_groups"]
    methods = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S).group(1)
    assert "Across the values of site, the kappas were pooled with inverse-variance weights" in (
        methods
    )
    assert f"pooled kappa = {combined['statistic']:.4f}" in methods
    assert f"df = {combined['homogeneity_df']}" in methods
    assert "chi-square test of homogeneity" in methods


def test_with_clusters_the_report_pools_each_group_by_its_cluster_robust_variance(
    grouped, tmp_path
):
    text = grouped.read_text().splitlines()
    grouped.write_text(
        "\n".join([text[0] + ",c", *(f"{x},{i // 4}" for i, x in enumerate(text[1:]))]) + "\n"
    )
    out = tmp_path / "r.html"
    argv = ["score", grouped, "--true", "a", "--pred", "b", "--by", "site", "--cluster", "c"]
    combined = json.loads(run(*argv, "--format", "json").stdout)["across_groups"]
    proc = run(*argv, "--report", out)
    assert proc.returncode == 0, proc.stderr
    page = html.unescape(out.read_text())
    assert "with each group's cluster-robust variance" in page
    methods = page.split('class="methods"')[1].split("</p>")[0]
    assert f"pooled kappa = {combined['statistic']:.4f}" in methods
    assert "inverse-variance weights (each group's cluster-robust variance)" in methods


def test_the_pairs_without_a_group_are_said_to_be_left_out(tmp_path):
    path = tmp_path / "m.csv"
    rows = "1,1,1\n1,2,2\n1,2,1\n1,3,3\n2,1,1\n2,2,3\n2,3,3\n2,1,2\n,1,1\n,2,2\n,3,2\n,2,1\n"
    path.write_text("s,a,b\n" + rows)
    out = tmp_path / "r.html"
    proc = run("score", path, "--true", "a", "--pred", "b", "--by", "s", "--report", out)
    assert proc.returncode == 0, proc.stderr
    methods = re.search(r'<p class="methods">(.*?)</p>', out.read_text(), flags=re.S).group(1)
    assert "Across the values of s (the 4 pairs without a value left out), the kappas" in methods
    assert "df = 1" in methods


def test_a_by_header_with_spaces_is_named_without_them(tmp_path, capsys) -> None:
    # The header is "Site " (a trailing space): the column is "Site", in the option, the text,
    # the report, the methods sentence and the messages.
    path = tmp_path / "sites.csv"
    path.write_text("Site ,a,b\nX,1,1\nX,2,2\nX,3,2\nX,1,1\nY,2,2\nY,1,2\nY,3,3\nY,2,2\n")
    report = tmp_path / "sites.html"
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--by", "Site"]
    assert main([*argv, "--report", str(report)]) == 0
    captured = capsys.readouterr()
    assert "By Site:\n" in captured.out and "Across Site (inverse" in captured.out
    assert "Site :" not in captured.out and "Site  " not in captured.out.split("\n")[-2]
    assert "(--by Site: X, Y, (all))" in captured.err
    page = report.read_text(encoding="utf-8")
    assert "<h2>By Site</h2>" in page and "each value of Site (file" in page
    assert "Across the values of Site, the kappas" in page


def test_the_pooled_sentence_cites_its_sources(grouped, tmp_path):
    """The pooled kappa's sentence said "(as SAS PROC FREQ)" and the report's references
    listed no SAS; binary ratings' goodness-of-fit test, printed by the console, was missing
    from the sentence and its reference (Donner, Eliasziw & Klar 1996) from the list."""
    out = tmp_path / "r.html"
    proc = run("score", grouped, "--true", "a", "--pred", "b", "--by", "site", "--report", out)
    assert proc.returncode == 0, proc.stderr
    page = html.unescape(out.read_text())
    methods = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S).group(1)
    assert "(as in SAS PROC FREQ; SAS Institute 2023)" in methods
    assert "SAS Institute Inc. (2023). SAS/STAT User's Guide: The FREQ Procedure" in page
    assert "Donner, Eliasziw and Klar" not in methods  # three categories: no such test

    binary = tmp_path / "b.csv"
    rows = [f"{site},{i % 2},{(i + i // shift) % 2}" for site, shift in (("n", 3), ("s", 5))
            for i in range(40)]  # fmt: skip
    binary.write_text("site,a,b\n" + "\n".join(rows) + "\n")
    proc = run("score", binary, "--true", "a", "--pred", "b", "--by", "site", "--report", out)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("Across site"))
    fit = line.split("; goodness of fit ")[1]  # "X, df 1, p = ..."
    page = html.unescape(out.read_text())
    methods = re.search(r'<p class="methods">(.*?)</p>', page, flags=re.S).group(1)
    statistic, df, p = fit.split(", ", 2)
    assert (
        "The goodness-of-fit test of equal kappas of Donner, Eliasziw and Klar (1996) gave "
        f"X² = {statistic}, df = {df.removeprefix('df ')}, {p}."
    ) in methods
    assert "Donner, A., Eliasziw, M., & Klar, N. (1996). Testing the homogeneity" in page


@pytest.mark.parametrize(
    ("pooling", "reason"),
    [
        ("pairs", "an undefined kappa or a single cluster"),
        ("inverse-variance", "an undefined kappa, a standard error of 0 or a single cluster"),
    ],
)
def test_the_methods_sentence_names_a_group_left_out_and_why(tmp_path, capsys, pooling, reason):
    """A site with one patient (a single cluster): the sentence said "1 with an undefined
    kappa, a standard error of 0 or a single cluster left out", not which site, and gave a
    standard error of 0 as a reason with --pooling pairs, which keeps such a group."""
    rows = [f"{site},{site}{i // 2},{i % 3},{(i + i // 4) % 3}" for site in "AB" for i in range(24)]
    rows += ["Oxford,Ox1,2,2", "Oxford,Ox1,2,1"]
    path = tmp_path / "eyes.csv"
    path.write_text("site,patient,a,b\n" + "\n".join(rows) + "\n")
    out = tmp_path / "r.html"
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--by", "site", "--cluster"]
    assert main([*argv, "patient", "--pooling", pooling, "--report", str(out), "-q"]) == 0
    methods = re.search(r'<p class="methods">(.*?)</p>', html.unescape(out.read_text()), re.S)
    assert f"Across the values of site (Oxford left out: {reason}), the kappas" in methods.group(1)
