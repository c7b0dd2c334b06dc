"""``wkappa score --by COL --pooling``: the overall kappa across the groups weighted as
``wkappa.stratified_kappa_test(..., pooling=...)`` weights the strata, the note that
``--cluster`` without ``--pooling`` gives, and the refusal of ``--pooling`` without ``--by``."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli import main

pl = pytest.importorskip("polars")

NOTE = "note: with --cluster, the overall kappa across the --by groups weights each group"


def _design(seed: int = 3, n_clusters: int = 30, size: int = 3) -> dict[str, np.ndarray]:
    """Clustered ratings at three sites, the patients of one site at one site only."""
    rng = np.random.default_rng(seed)
    patient = np.repeat(np.arange(n_clusters), size)
    level = np.repeat(rng.integers(0, 4, n_clusters), size)
    n = patient.size

    def rater(spread: int) -> np.ndarray:
        return np.clip(level + rng.integers(-spread, spread + 1, n), 0, 3)

    return {
        "patient": patient,
        "site": np.array(["a", "b", "c"])[patient % 3],
        "x": rater(1),
        "y": rater(1),
    }


@pytest.fixture(scope="module")
def data():
    return _design()


@pytest.fixture(scope="module")
def path(tmp_path_factory, data):
    where = tmp_path_factory.mktemp("pooling") / "sites.csv"
    pl.DataFrame(data).write_csv(where)
    return str(where)


def _argv(path: str, *extra: str) -> list[str]:
    return ["score", path, "--true", "x", "--pred", "y", "--by", "site", *extra]


def _same(across: dict, expected) -> None:
    for key in ("statistic", "standard_error", "homogeneity_statistic", "homogeneity_pvalue"):
        assert across[key] == pytest.approx(getattr(expected, key), rel=1e-12), key
    low, high = expected.confidence_interval()
    interval = across["confidence_interval"]
    assert (interval["low"], interval["high"]) == pytest.approx((low, high), rel=1e-12)
    assert across["pooling"] == expected.pooling


@pytest.mark.parametrize("pooling", ["pairs", "inverse-variance"])
def test_clustered_pooling_is_stratified_kappa_test(path, data, capsys, pooling):
    argv = _argv(path, "--cluster", "patient", "--pooling", pooling)
    expected = wk.stratified_kappa_test(
        data["x"], data["y"], strata=data["site"], cluster=data["patient"], pooling=pooling
    )
    _same(json_output(capsys, argv)["across_groups"], expected)
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert f"kappa {expected.statistic:.4f}, SE {expected.standard_error:.4f}" in out
    weighted = "weighted by each group's pairs" if pooling == "pairs" else "as SAS PROC FREQ"
    assert weighted in out
    if pooling == "pairs":  # t on the clusters less the groups
        assert f"; t with {expected.test_df} df)" in out and expected.test_df == 27
    assert NOTE not in err


def test_pairs_pooling_without_clusters_is_stratified_kappa_test(path, data, capsys):
    expected = wk.stratified_kappa_test(data["x"], data["y"], strata=data["site"], pooling="pairs")
    _same(json_output(capsys, _argv(path, "--pooling", "pairs"))["across_groups"], expected)
    plain = json_output(capsys, _argv(path))["across_groups"]
    assert plain["pooling"] == "inverse-variance"
    assert plain["statistic"] != pytest.approx(expected.statistic, rel=1e-9)


def test_cluster_without_pooling_gives_the_note(path, data, capsys):
    """As the API warns with cluster= and no pooling=, in the command line's words."""
    assert main(_argv(path, "--cluster", "patient")) == 0
    out, err = capsys.readouterr()
    assert NOTE in err and "--pooling pairs weights the groups by their pairs" in err
    assert "pooling=" not in err
    assert "inverse-variance weighted, as SAS PROC FREQ" in out
    for quiet in (_argv(path), _argv(path, "--cluster", "patient", "--pooling", "pairs")):
        assert main(quiet) == 0
        assert NOTE not in capsys.readouterr().err
    # no summary across the groups (a --cluster without --by): nothing to note
    assert main(["score", path, "--true", "x", "--pred", "y", "--cluster", "patient"]) == 0
    assert NOTE not in capsys.readouterr().err


def test_pooling_needs_by(path, capsys):
    argv = ["score", path, "--true", "x", "--pred", "y", "--pooling", "pairs"]
    message = refusal(capsys, argv)
    assert "--pooling pairs weights the --by groups" in message
    assert "Hint: add --by COL, or drop --pooling." in message


def test_report_says_the_pooling(path, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    report = tmp_path / "report.html"
    argv = _argv(path, "--cluster", "patient", "--pooling", "pairs", "--quiet")
    assert main([*argv, "--report", str(report)]) == 0

    def text() -> str:  # the page's words, without its tags
        return html.unescape(re.sub(r"<[^>]+>", "", report.read_text()))

    page = text()
    assert "Across site (weighted by each group's pairs" in page
    assert "pooled with each group's number of pairs as weights" in page  # the methods
    # the interval's distribution, which the methods sentence did not say (the console does)
    df = re.search(r"t with (\d+) df\)", page).group(1)
    assert f"(Wald, on t with {df} df: the clusters less the groups)" in page
    assert "--pooling pairs" in page  # the Reproduce command line
    noted = _argv(path, "--cluster", "patient", "--quiet", "--report", str(report))
    assert main(noted) == 0
    page = text()
    assert "--pooling pairs weights the groups by their pairs" in page
    assert "pooled with inverse-variance weights" in page
    assert "(Wald, normal)" in page


@pytest.mark.parametrize("cluster", [False, True])
@pytest.mark.parametrize("pooling", ["pairs", "inverse-variance"])
def test_json_has_the_pooled_test_of_kappa0(path, data, capsys, cluster, pooling):
    """`--kappa0 0.6 --alternative greater --by site`: each group's test is of 0.6, and
    `across_groups` now has the pooled kappa's p-value of that H0 (with `kappa0` and the t
    df of its interval), stratified_kappa_test(..., kappa0=0.6)'s; it had none."""
    extra = ["--cluster", "patient"] if cluster else []
    argv = _argv(path, *extra, "--pooling", pooling, "--kappa0", "0.6", "--alternative", "greater")
    across = json_output(capsys, argv)["across_groups"]
    expected = wk.stratified_kappa_test(
        data["x"], data["y"], strata=data["site"], pooling=pooling, kappa0=0.6,
        alternative="greater", cluster=data["patient"] if cluster else None,
    )  # fmt: skip
    _same(across, expected)
    assert across["kappa0"] == 0.6 and across["test_df"] == expected.test_df
    assert across["pvalue"] == pytest.approx(expected.pvalue, rel=1e-9)
    assert (across["test_df"] is not None) == (cluster and pooling == "pairs")
