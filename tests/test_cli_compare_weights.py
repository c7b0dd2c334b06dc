"""``wkappa compare --weight-col COL``: the sample weights of ``score --weight-col``, counted as
``wk.paired_kappa_test(..., sample_weight=...)`` counts them (frequency weights without
``--cluster``, any non-negative weights with it); bad weights are one-line refusals, exit 2."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli import main

RNG = np.random.default_rng(3)
N = 150
TRUTH = RNG.integers(0, 5, N)
A = np.clip(TRUTH + RNG.integers(-1, 2, N), 0, 4)
B = np.clip(TRUTH + RNG.integers(-2, 3, N), 0, 4)
COUNT = RNG.integers(0, 4, N)
IDS = RNG.integers(0, 15, N)


@pytest.fixture
def weighted_csv(tmp_path):
    path = tmp_path / "weighted.csv"
    rows = zip(TRUTH, A, B, COUNT, IDS, strict=True)
    lines = [f"{t},{a},{b},{w},{g},{float(0.37 * w)!r}" for t, a, b, w, g in rows]
    path.write_text("t,a,b,w,g,f\n" + "\n".join(lines) + "\n")
    return path


def _argv(path, *more: str) -> list[str]:
    return ["compare", str(path), "--true", "t", "--pred", "a", "--pred", "b", *more]


def _library(**options):
    return wk.paired_kappa_test(TRUTH, A, B, n_resamples=499, rng=2, **options).to_dict()


def test_weight_col_is_the_librarys_sample_weight(weighted_csv, capsys) -> None:
    document = json_output(capsys, _argv(weighted_csv, "--weight-col", "w", "--bootstrap", "499",
                                         "--seed", "2"))  # fmt: skip
    expected = _library(sample_weight=COUNT)
    assert document["weight_column"] == "w"
    assert document["n"] == int(COUNT.sum()) == expected["n"]
    for key in ("statistic_a", "statistic_b", "difference", "pvalue", "confidence_interval"):
        assert document[key] == expected[key], key
    # and the items written out
    repeated = [np.repeat(x, COUNT) for x in (TRUTH, A, B)]
    written_out = wk.paired_kappa_test(*repeated, n_resamples=499, rng=2).to_dict()
    assert document["difference"] == written_out["difference"]
    assert document["confidence_interval"] == written_out["confidence_interval"]


def test_weight_col_with_cluster_takes_any_weights(weighted_csv, capsys) -> None:
    argv = _argv(weighted_csv, "--weight-col", "f", "--cluster", "g", "--bootstrap", "499",
                 "--seed", "2")  # fmt: skip
    document = json_output(capsys, argv)
    expected = _library(sample_weight=0.37 * COUNT, cluster=IDS)
    assert document["n_clusters"] == expected["n_clusters"]
    assert document["n"] == pytest.approx(expected["n"], rel=1e-12)
    assert document["difference"] == pytest.approx(expected["difference"], abs=1e-12)
    assert document["pvalue"] == expected["pvalue"]


def test_whole_weights_with_cluster_are_the_librarys(weighted_csv, capsys) -> None:
    argv = _argv(weighted_csv, "--weight-col", "w", "--cluster", "g", "--bootstrap", "499",
                 "--seed", "2")  # fmt: skip
    document = json_output(capsys, argv)
    expected = _library(sample_weight=COUNT, cluster=IDS)
    for key in ("n", "n_clusters", "difference", "pvalue", "confidence_interval"):
        assert document[key] == expected[key], key


def test_report_methods_give_the_weighted_total(weighted_csv, tmp_path, capsys) -> None:
    """The methods sentence said "on the same 450 items": with --weight-col it is a weighted
    total of the rows, from the weights column, as in score's sentence."""
    import html
    import re

    report = tmp_path / "compare.html"
    argv = _argv(weighted_csv, "--weight-col", "w", "--bootstrap", "99", "--report", str(report))
    assert main([*argv, "-q"]) == 0
    found = re.search(r'<p class="methods">(.*?)</p>', report.read_text(), flags=re.S)
    assert found is not None
    methods = html.unescape(found.group(1))
    total = f"{int(COUNT.sum()):,}"
    assert f"on the same items, a weighted total of {total} (frequency weights from the " in methods
    assert "column w; file " in methods and f"same {total} items" not in methods
    assert main([*argv[:8], "--bootstrap", "99", "--report", str(report), "-q"]) == 0
    assert f"on the same {N} items (file " in report.read_text()


def test_text_names_the_weight_column(weighted_csv, capsys) -> None:
    assert main([*_argv(weighted_csv, "--weight-col", "w", "--bootstrap", "99"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "sample weights  w" in out and f"n = {int(COUNT.sum())}" in out


def test_non_whole_weighted_counts_are_refused_in_one_line(weighted_csv, capsys) -> None:
    err = refusal(capsys, _argv(weighted_csv, "--weight-col", "f"))
    assert "--weight-col must give whole-number counts" in err
    assert "--cluster COL" in err and "cluster bootstrap" in err and "`" not in err


@pytest.mark.parametrize(
    ("value", "expected"),
    [("-1", "is not a finite non-negative number"), ("", "has no weight"),
     ("inf", "is not a finite non-negative number")],
)  # fmt: skip
def test_bad_weights_are_refused_with_their_row(tmp_path, capsys, value, expected) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(f"t,a,b,w\n1,1,2,1\n2,2,2,{value}\n0,1,0,2\n")
    err = refusal(capsys, _argv(path, "--weight-col", "w"))
    assert "row 2" in err and "'w'" in err and expected in err


def test_the_weight_column_cannot_be_the_cluster_column(weighted_csv, capsys) -> None:
    err = refusal(capsys, _argv(weighted_csv, "--weight-col", "g", "--cluster", "g"))
    assert "--cluster names the --weight-col column 'g'" in err


def test_without_weights_the_document_says_so(weighted_csv, capsys) -> None:
    document = json_output(capsys, _argv(weighted_csv, "--bootstrap", "99"))
    assert document["weight_column"] is None
    assert document["n"] == N
