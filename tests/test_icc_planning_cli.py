"""``wkappa plan --coefficient icc``: the ICC route of the planning command, its text, JSON
and --explain, and its errors in the command's words."""

from __future__ import annotations

import json

import pytest

import wkappa as wk
from wkappa._cli.app import main

pytestmark = pytest.mark.filterwarnings("error")

_ICC = ["plan", "--coefficient", "icc"]


def test_text_and_json_match_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*_ICC, "--icc1", "0.8", "--icc0", "0.6", "--raters", "3"]
    expected = wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=3)
    assert main(args) == 0
    text = capsys.readouterr().out
    assert text.strip() == expected.explain()
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "wkappa.icc-plan/1"
    assert {key: value for key, value in data.items() if key != "schema"} == expected.to_dict()


def test_every_option_reaches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*_ICC, "--icc1", "0.9", "--icc0", "0.7", "--raters", "4", "--form", "ICC3",
            "--power", "0.9", "--alpha", "0.01", "--alternative", "two-sided",
            "--method", "approximate", "--format", "json"]  # fmt: skip
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    expected = wk.icc_sample_size(
        icc1=0.9, icc0=0.7, n_raters=4, form="C,1", power=0.9, alpha=0.01,
        alternative="two-sided", method="approximate",
    )  # fmt: skip
    assert data["n"] == expected.n and data["form"] == "C,1" and data["method"] == "approximate"


def test_interval_goals_and_given_n(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*_ICC, "--icc1", "0.85", "--raters", "4", "--ci-width", "0.2", "--ci", "0.9"]) == 0
    text = capsys.readouterr().out
    expected = wk.icc_sample_size(icc1=0.85, n_raters=4, ci_width=0.2, confidence_level=0.9)
    assert f"n = {expected.n} subjects" in text and "H0" not in text
    assert "expected width of the 90% F interval" in text
    assert main([*_ICC, "--icc1", "0.8", "--lower-limit", "0.6", "--assurance", "0.8"]) == 0
    text = capsys.readouterr().out
    limit = wk.icc_sample_size(icc1=0.8, lower_limit=0.6, assurance=0.8)
    assert f"n = {limit.n} subjects" in text and "(wanted 0.8)" in text
    assert main([*_ICC, "--icc1", "0.8", "--ci-width", "0.3", "--assurance", "0.9"]) == 0
    text = capsys.readouterr().out
    sure = wk.icc_sample_size(icc1=0.8, ci_width=0.3, assurance=0.9)
    assert f"n = {sure.n} subjects" in text and "P(width of the 95% interval <= 0.3)" in text
    assert main([*_ICC, "--icc1", "0.8", "--ci-width", "0.3", "--n", "40"]) == 0
    text = capsys.readouterr().out
    at_40 = wk.icc_power(40, icc1=0.8, ci_width=0.3)
    assert f"P(width of the 95% interval <= 0.3) = {at_40.assurance:.3f}" in text
    assert main([*_ICC, "--icc1", "0.8", "--icc0", "0.6", "--raters", "3", "--n", "30"]) == 0
    text = capsys.readouterr().out
    given = wk.icc_power(30, icc1=0.8, icc0=0.6, n_raters=3)
    assert "n = 30 subjects" in text and f"power {given.power:.3f}" in text


@pytest.mark.parametrize(
    ("extra", "shown"),
    [
        ([], "exact: power = P(F > C0 f_(1-alpha))"),
        (["--alternative", "two-sided"], "P(F > C0 f_(1-alpha/2)) + P(F < C0 f_(alpha/2))"),
        (["--method", "approximate"], "Walter, Eliasziw & Donner (1998): n = 1 + 2"),
    ],
)
def test_explain_shows_the_computation(
    extra: list[str], shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*_ICC, "--icc1", "0.8", "--icc0", "0.6", *extra, "--explain"]) == 0
    text = capsys.readouterr().out
    assert "How the plan was computed:" in text and shown in text


def test_explain_of_bonett(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*_ICC, "--icc1", "0.75", "--ci-width", "0.2", "--method", "approximate", "--explain"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "n = 79 subjects" in text and "plus 5 rho (k = 2, rho >= 0.7)" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--icc0", "0.6"], "--coefficient icc needs --icc1"),
        (["--icc1", "1.2"], "--icc1 must be in (-1/(k-1), 1)"),
        (["--icc1", "0.8", "--icc0", "0.8"], "--icc1 and --icc0 are both 0.8"),
        (["--icc1", "0.8", "--raters", "1"], "--raters must be an integer >= 2"),
        (["--icc1", "0.8", "--power", "80"], "--power must be strictly between 0 and 1"),
        (["--icc1", "0.8", "--form", "A,1"], "Hint: plan with --form C,1"),
        (
            ["--icc1", "0.8", "--ci-width", "0.2", "--alpha", "0.1"],
            "--alpha is an option of the test of H0: ICC = icc0, which a --ci-width plan",
        ),
        (["--icc1", "0.8", "--kappa1", "0.8"], "--kappa1 is an option of a kappa plan"),
        (["--icc1", "0.8", "--weights", "linear"], "--weights is an option of a kappa plan"),
        (["--icc1", "0.8", "--method", "simulation"], "--method simulation plans kappa"),
        (["--icc1", "0.8", "--plot", "x.png"], "--plot draws the curve of a kappa plan"),
        (["--icc1", "0.8", "--n", "30", "--power", "0.9"], "--n reports what n subjects"),
        (
            ["--icc1", "0.8", "--ci-width", "0.2", "--assurance", "0.8", "--method", "approximate"],
            "is planned by --method exact",
        ),
        (["--icc1", "0.8", "--form", "C,k", "--method", "approximate"], "use --method exact"),
    ],
)
def test_errors_name_the_options(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*_ICC, *args]) == 2
    error = capsys.readouterr().err
    assert message in error, error
    assert "`" not in error and "icc1=" not in error and "n_raters" not in error


def test_icc_options_without_the_icc_route(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--icc1", "0.8", "--marginals", "0.5,0.5"]) == 2
    assert "--icc1 goes with --coefficient icc" in capsys.readouterr().err


def test_the_kappa_route_keeps_its_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """--weights and --method default to quadratic and asymptotic for kappa."""
    args = ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.1,0.2,0.4,0.2,0.1"]
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = wk.kappa_sample_size(kappa1=0.8, kappa0=0.6, marginals=[0.1, 0.2, 0.4, 0.2, 0.1])
    assert data["n"] == expected.n and data["method"] == "asymptotic"
    assert data["weights"] == "quadratic"
    assert main([*args, "--method", "exact"]) == 2
    assert "--method exact" in capsys.readouterr().err
