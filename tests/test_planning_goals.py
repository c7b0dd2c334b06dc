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
    # Several raters: method='asymptotic' plans two raters only, so the hint names simulation.
    several = message.replace("method='asymptotic' or ", "Hint: plan weighted kappa with ")
    with pytest.raises(WkappaError, match=several):
        wk.kappa_sample_size(**_FOUR, n_raters=3, weights=weights, method="goodness-of-fit")  # type: ignore[arg-type]


@pytest.mark.parametrize("weights", ["ordinal", "radical", "ratio", "circular", "bipolar"])
def test_gwet_weights_of_two_raters_name_the_several_raters_plan(weights: str) -> None:
    """Gwet's value-based weights weight the several-raters coefficients: two raters without
    a coefficient are refused naming them and the plan that takes them, which does."""
    message = (
        rf"weights='{weights}' is one of Gwet's value-based weights.*"
        r"Hint: coefficient='conger' .* with method='simulation'"
    )
    with pytest.raises(WkappaError, match=message):
        wk.kappa_sample_size(**_FOUR, weights=weights)  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match=message):
        wk.kappa_power(59, **_FOUR, weights=weights, method="simulation")  # type: ignore[arg-type]
    plan = wk.kappa_power(
        59, **_FOUR, weights=weights, coefficient="conger", method="simulation",  # type: ignore[arg-type]
        n_simulations=200, rng=0,
    )  # fmt: skip
    assert plan.n_raters == 2 and 0 < plan.power <= 1
    # Gwet's AC2 (whose chance term the plan estimates) of three raters, on the categories
    # 1..K: ratio weights, which need positive values, plan as the others do.
    several = wk.kappa_power(
        59, **_FOUR, weights=weights, coefficient="gwet", n_raters=3,  # type: ignore[arg-type]
        method="simulation", n_simulations=100, rng=0,
    )  # fmt: skip
    assert several.n_raters == 3 and 0 < several.power <= 1


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


_TWO = {"kappa1": 0.6, "marginals": [0.5, 0.5]}


@pytest.mark.parametrize("goal", [{"lower_limit": 0.3}, {"ci_width": 0.3}])
@pytest.mark.parametrize(
    ("option", "hint"),
    [
        ({"power": 0.95}, None),
        ({"alpha": 0.01}, "confidence_level="),
        ({"alternative": "less"}, "two-sided at `confidence_level=`"),
        ({"alternative": "greater"}, "two-sided at `confidence_level=`"),
        ({"kappa0": 0.2}, "drop `kappa0=`"),
        ({"kappa0": 0.0}, "drop `kappa0=`"),
    ],
)
def test_interval_goals_refuse_the_options_of_the_test(
    goal: dict[str, float], option: dict[str, object], hint: str | None
) -> None:
    """``power=0.95`` with ``lower_limit=`` was silently dropped (the plan cleared the limit
    with probability 0.5), as were alpha, alternative and kappa0 with either interval goal."""
    (name,) = option
    (goal_name,) = goal
    if hint is None:  # power: the lower limit's probability is `assurance`
        hint = "`assurance=` (e.g. assurance=0.95)" if goal_name == "lower_limit" else "drop"
    with pytest.raises(WkappaError) as caught:
        wk.kappa_sample_size(**_TWO, **goal, **option)  # type: ignore[arg-type]
    message = str(caught.value)
    assert message.startswith(f"`{name}=` is an option of the test of H0: kappa = kappa0")
    assert f"a `{goal_name}=` plan does not run" in message and hint in message
    assert f"or drop `{goal_name}=` to plan the test" in message


def test_the_tests_options_keep_their_defaults_with_the_power_goal() -> None:
    plan = wk.kappa_sample_size(**_TWO)
    explicit = wk.kappa_sample_size(
        **_TWO, kappa0=0.0, power=0.8, alpha=0.05, alternative="greater"
    )
    assert (plan.n, plan.kappa0, plan.alpha, plan.alternative, plan.target_power) == (
        explicit.n, 0.0, 0.05, "greater", 0.8
    )  # fmt: skip
    # kappa_power reports everything, the lower limit's assurance beside the test's power.
    given = wk.kappa_power(50, **_TWO, kappa0=0.2, alpha=0.01, lower_limit=0.3)
    assert given.kappa0 == 0.2 and given.alpha == 0.01 and 0 < given.power < 1
    assert 0 < given.assurance < 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lower-limit", "0.3", "--power", "0.95"], "Hint: the probability wanted that the "
         "lower limit clears it is --assurance (e.g. --assurance 0.95)"),
        (["--ci-width", "0.3", "--alpha", "0.01"], "--alpha is an option of the test"),
        (["--ci-width", "0.3", "--alternative", "less"], "--ci 0.9"),
        (["--lower-limit", "0.3", "--kappa0", "0"], "drop --kappa0"),
    ],
)  # fmt: skip
def test_cli_interval_goals_refuse_the_options_of_the_test(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", "--kappa1", "0.6", "--marginals", "0.5,0.5", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.parametrize("method", ["asymptotic", "max-variance", "goodness-of-fit", "simulation"])
@pytest.mark.parametrize("goal", [{"lower_limit": 0.3}, {"ci_width": 0.3}])
def test_interval_goals_report_no_test(method: str, goal: dict[str, float]) -> None:
    """Their repr and to_dict showed 'power=1, kappa0=0' (alternative='less': 8.5e-16), the
    power of a test of kappa0 = 0 that the plan does not run."""
    extra = {"n_simulations": 400, "rng": 1} if method == "simulation" else {}
    plan = wk.kappa_sample_size(**_TWO, **goal, method=method, **extra)  # type: ignore[arg-type]
    text = repr(plan)
    for absent in ("power=", "kappa0=", "alternative=", "alpha="):
        assert absent not in text, text
    assert ("assurance=" in text) == ("lower_limit" in goal)
    record = plan.to_dict()
    assert record["power"] is None and record["standard_deviation_null"] is None
    assert record["kappa0"] is None and record["alpha"] is None
    assert record["alternative"] is None
    assert "H0:" not in plan.explain() and "power" not in plan.explain()


def test_simulated_lower_limit_plan_reports_the_assurances_monte_carlo_error() -> None:
    plan = wk.kappa_sample_size(
        **_TWO, lower_limit=0.3, assurance=0.8, method="simulation", n_simulations=400, rng=1
    )
    share = plan.assurance
    assert plan.monte_carlo_error == pytest.approx(np.sqrt(share * (1 - share) / 400))
    width = wk.kappa_sample_size(
        **_TWO, ci_width=0.3, method="simulation", n_simulations=400, rng=1
    )
    assert np.isnan(width.monte_carlo_error) and "mc_error" not in repr(width)


def test_less_plans_deliver_their_power() -> None:
    """A one-sided 'less' plan: the planned n gives wkappa's test the power asked."""
    design = {"kappa1": 0.5, "kappa0": 0.7, "marginals": [0.3, 0.4, 0.3], "weights": "linear"}
    plan = wk.kappa_sample_size(**design, alternative="less")  # type: ignore[arg-type]
    assert plan.n == 73 and plan.power >= 0.8
    check = wk.kappa_power(
        plan.n,
        **design,
        alternative="less",
        method="simulation",
        n_simulations=4000,
        rng=3,  # type: ignore[arg-type]
    )
    assert 0.78 <= check.power <= 0.86
    with pytest.raises(WkappaError, match=r"must be below `kappa0` \(0.7\). Hint: alternative"):
        wk.kappa_sample_size(**{**design, "kappa1": 0.8}, alternative="less")  # type: ignore[arg-type]
    # kappa_power keeps the true (small) power of a kappa1 on the other side of kappa0.
    wrong = wk.kappa_power(150, **{**design, "kappa1": 0.72}, alternative="less")  # type: ignore[arg-type]
    assert 0.0 < wrong.power < 0.05


def test_plans_name_the_intervals_they_promise_about() -> None:
    """The assurance of a lower-limit plan is that of the score interval (its limit clears
    L exactly when the test of kappa = L rejects), the width that of the asymptotic one:
    the plan said "the 95% interval" for both, and a study reporting the default
    (asymptotic) interval cleared L 0.846 of the time where 0.80 was planned."""
    design = {"kappa1": 0.7, "marginals": [0.2, 0.3, 0.3, 0.2], "lower_limit": 0.5}
    plan = wk.kappa_sample_size(**design, assurance=0.8)  # type: ignore[arg-type]
    assert (plan.width_interval, plan.limit_interval) == ("asymptotic", "score")
    document = plan.to_dict()
    assert (document["width_interval"], document["limit_interval"]) == ("asymptotic", "score")
    text = plan.explain()
    assert "expected width of the 95% asymptotic interval: " in text
    assert "P(lower limit of the 95% score interval > 0.5) = 0.802 (wanted 0.8)" in text
    simulated = wk.kappa_power(40, **design, method="simulation", n_simulations=200, rng=1)  # type: ignore[arg-type]
    assert (simulated.width_interval, simulated.limit_interval) == ("score", "score")
    fit = wk.kappa_power(
        40, kappa1=0.7, marginals=[0.3, 0.7], weights="unweighted", lower_limit=0.4,
        method="goodness-of-fit",
    )  # fmt: skip
    assert (fit.width_interval, fit.limit_interval) == ("goodness-of-fit", "goodness-of-fit")
    several = wk.kappa_power(
        40, kappa1=0.7, kappa0=0.4, marginals=[0.3, 0.7], n_raters=3, method="simulation",
        n_simulations=100, rng=1,
    )  # fmt: skip
    assert (several.width_interval, several.limit_interval) == ("asymptotic", None)
    # the score interval of studies of the planned n clears L as often as promised
    rng = np.random.default_rng(5)
    tables = rng.multinomial(plan.n, plan.table.ravel(), size=300).reshape(-1, 4, 4)
    lows = [wk.kappa_test_from_table(t).confidence_interval(method="score").low for t in tables]
    assert 0.72 < np.mean(np.array(lows) > 0.5) < 0.88


def test_cli_lower_limit_report_shows_the_assurance(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    report = tmp_path / "plan.html"
    args = ["plan", "--kappa1", "0.6", "--marginals", "0.5,0.5", "--lower-limit", "0.3",
            "--report", str(report)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "H0:" not in out and "P(lower limit of the 95% score interval > 0.3) = 0.502" in out
    page = report.read_text(encoding="utf-8")
    assert "<th>P(lower limit &gt; 0.3)</th>" in page and "<th>power</th>" not in page
    assert "kappa0 (H0)" not in page


def test_cohens_kappa_of_several_raters_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """coefficient='cohen' with three raters: a raw ValueError('cohen') from the simulation,
    and a plan of Fleiss' kappa under Cohen's name from the goodness-of-fit formula."""
    design = {"kappa1": 0.6, "kappa0": 0.4, "marginals": [0.3, 0.7], "n_raters": 3}
    for method in ("simulation", "goodness-of-fit"):
        with pytest.raises(WkappaError, match=r"coefficient='cohen' is Cohen's kappa of two "
                           r"raters; got n_raters=3\. Hint: coefficient='conger'"):  # fmt: skip
            wk.kappa_sample_size(**design, coefficient="cohen", method=method)  # type: ignore[arg-type]
    assert wk.kappa_sample_size(**{**design, "n_raters": 2}, coefficient="cohen").n > 0  # type: ignore[arg-type]
    args = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.7", "--raters", "3",
            "--coefficient", "cohen", "--method", "simulation"]  # fmt: skip
    assert main(args) == 2
    assert "--coefficient cohen is Cohen's kappa of two raters" in capsys.readouterr().err


@pytest.mark.parametrize("moved", [{}, {"kappa1": 0.5}])
def test_a_table_whose_kappa_is_undefined_is_refused_as_a_table(moved: dict[str, float]) -> None:
    """Both raters in one category: the pilot table is refused with or without kappa1 (which
    would move it), and for kappa_power too."""
    match = r"^`table`'s kappa is undefined: its chance disagreement is 0 \(both raters"
    with pytest.raises(WkappaError, match=match):
        wk.kappa_sample_size(table=[[5, 0], [0, 0]], **moved)
    with pytest.raises(WkappaError, match=match):
        wk.kappa_power(30, table=[[0, 0], [0, 7]], **moved)
