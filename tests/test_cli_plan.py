"""``wkappa plan``: text, JSON, the plot, and one-line errors in the command's vocabulary."""

from __future__ import annotations

import json

import pytest

import wkappa as wk
from wkappa._cli.app import main


def test_text_and_json_match_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.1,0.2,0.4,0.2,0.1"]
    assert main(args) == 0
    text = capsys.readouterr().out
    expected = wk.kappa_sample_size(kappa1=0.8, kappa0=0.6, marginals=[0.1, 0.2, 0.4, 0.2, 0.1])
    assert f"n = {expected.n} items" in text and "power 0.801" in text
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == expected.n and data["method"] == "asymptotic"


def test_per_rater_marginals_table_and_given_n(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--kappa1", "0.5", "--marginals", "0.3,0.7;0.4,0.6",
                 "--weights", "unweighted", "--format", "json"]) == 0  # fmt: skip
    per_rater = json.loads(capsys.readouterr().out)
    direct = wk.kappa_sample_size(
        kappa1=0.5, marginals=[[0.3, 0.7], [0.4, 0.6]], weights="unweighted"
    )
    assert per_rater["n"] == direct.n
    assert main(["plan", "--table", "40,5,1;6,30,4;1,3,10", "--kappa0", "0.5", "--n", "80"]) == 0
    text = capsys.readouterr().out
    assert "n = 80 items" in text


def test_plot(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.png"
    args = ["plan", "--kappa1", "0.8", "--marginals", "0.2,0.5,0.3", "--ci-width", "0.3"]
    assert main([*args, "--plot", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kappa1", "1.3", "--marginals", "0.1,0.9"], "--kappa1 must be in"),
        (["--kappa1", "0.6", "--marginals", "0.1,0.9", "--ci-width", "-1"], "--ci-width"),
        (["--kappa1", "0.6", "--marginals", "0.2,0.9"], "--marginals must sum to 1"),
        (["--kappa1", "0.6", "--marginals", "a,b"], "--marginals must be comma-separated"),
        (["--kappa1", "0.6", "--marginals", "0.5,0.5", "--power", "1.5"], "--power"),
        (["--marginals", "0.5,0.5"], "--kappa1"),
    ],
)
def test_errors_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wkappa: error: ") and message in err
    assert err.count("\n") == 1
