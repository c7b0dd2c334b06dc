"""Study plans use every option they are given and report only what their goal uses:
goodness-of-fit plans refuse weighted kappa, options that a goal does not use are refused,
interval goals report no test, and the goodness-of-fit range warning has its own class."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import app
from wkappa._cli.app import main
from wkappa.exceptions import WkappaError

_FOUR = {"kappa1": 0.8, "kappa0": 0.6, "marginals": [0.2, 0.3, 0.3, 0.2]}


@pytest.mark.parametrize(
    ("weights", "shown"),
    [
        ("quadratic", "weights='quadratic'"),
        ("linear", "weights='linear'"),
        (np.abs(np.subtract.outer(np.arange(4), np.arange(4))), "this `weights` matrix"),
    ],
)
def test_goodness_of_fit_refuses_weighted_kappa(weights: object, shown: str) -> None:
    """Its n (59 for QWK here) gave wkappa's QWK test 0.55-0.58 power, not the 0.80 stated:
    Donner & Eliasziw's cells are those of unweighted kappa."""
    message = rf"method='goodness-of-fit' plans for unweighted kappa.*{shown} on K = 4.*" \
        r"method='asymptotic' or method='simulation'"  # fmt: skip
    with pytest.raises(WkappaError, match=message):
        wk.kappa_sample_size(**_FOUR, weights=weights, method="goodness-of-fit")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match=message):
        wk.kappa_power(59, **_FOUR, weights=weights, method="goodness-of-fit")  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match=message):
        wk.kappa_sample_size(**_FOUR, n_raters=3, weights=weights, method="goodness-of-fit")  # type: ignore[arg-type]


def test_goodness_of_fit_takes_unweighted_kappa_in_any_spelling() -> None:
    unweighted = wk.kappa_sample_size(**_FOUR, weights="unweighted", method="goodness-of-fit")
    scaled = wk.kappa_sample_size(
        **_FOUR, weights=2.0 * (1.0 - np.eye(4)), method="goodness-of-fit"
    )
    assert unweighted.n == scaled.n == 59
    # Two categories: every name is unweighted kappa (one weight for both disagreements).
    binary = {"kappa1": 0.8, "kappa0": 0.6, "marginals": [0.3, 0.7], "method": "goodness-of-fit"}
    sizes = {
        wk.kappa_sample_size(**binary, weights=w).n for w in ("quadratic", "linear", "unweighted")
    }  # type: ignore[arg-type]
    assert len(sizes) == 1


def test_the_default_method_plans_weighted_kappa_asymptotically() -> None:
    plan = wk.kappa_sample_size(**_FOUR, weights="quadratic")
    assert plan.method == "asymptotic" and plan.n == 102


def test_cli_goodness_of_fit_refuses_weighted_kappa(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.2,0.3,0.3,0.2",
            "--method", "goodness-of-fit"]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "--method goodness-of-fit plans for unweighted kappa" in err
    assert "with --weights quadratic on K = 4" in err
    assert "--method asymptotic or --method simulation" in err
    assert main([*args, "--weights", "unweighted", "--format", "json"]) == 0
    assert '"n": 59' in capsys.readouterr().out


def test_goodness_of_fit_range_warning_has_its_class_and_the_callers_line() -> None:
    """It was a bare UserWarning: now one that a filter can name, still a UserWarning."""
    assert issubclass(wk.PlanApproximationWarning, UserWarning)
    assert wk.exceptions.PlanApproximationWarning is wk.PlanApproximationWarning
    options = {"kappa1": 0.6, "marginals": [0.3, 0.7], "n_raters": 3}
    with pytest.warns(wk.PlanApproximationWarning, match="outside the range") as caught:
        wk.kappa_sample_size(**options, method="goodness-of-fit")  # type: ignore[arg-type]
    assert [w.filename for w in caught] == [__file__]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", wk.PlanApproximationWarning)
        wk.kappa_power(30, **options, method="goodness-of-fit")  # type: ignore[arg-type]


def test_cli_keeps_the_warnings_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """``wkappa plan`` rewords the warning into its options; the class stays."""
    seen: list[type[Warning]] = []
    monkeypatch.setattr(app, "_warning", lambda message, category, *_, **__: seen.append(category))
    args = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.7", "--raters", "3",
            "--method", "goodness-of-fit", "--format", "json"]  # fmt: skip
    assert main(args) == 0
    assert seen == [wk.PlanApproximationWarning]
