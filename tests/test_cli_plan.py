"""``wkappa plan``: text, JSON, the plot, and one-line errors in the command's vocabulary."""

from __future__ import annotations

import base64
import html
import json
import re
import subprocess
from pathlib import Path

import pytest

import wkappa as wk
from chromium import chromium_binary, run_chromium
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


_REPORT_ARGS = ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.1,0.2,0.4,0.2,0.1"]


def test_report_is_self_contained(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plan.html"
    assert main([*_REPORT_ARGS, "--report", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    expected = wk.kappa_sample_size(kappa1=0.8, kappa0=0.6, marginals=[0.1, 0.2, 0.4, 0.2, 0.1])
    assert f"Study plan: n = {expected.n} items" in page
    assert f"{expected.power:.3f}" in page and "power &gt;= 0.8" in page
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 1 and base64.b64decode(images[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http" not in page.replace("http-equiv", "")  # nothing to fetch
    # The table of the curve: power rises with n, and at the planned n it is the plan's.
    curve = re.findall(r"<tr><td>(\d+)</td><td>(0\.\d+)</td>", page)
    powers = [float(power) for _, power in curve]
    assert len(curve) >= 10 and powers == sorted(powers)


def test_report_of_a_simulation_plan_says_its_curve_is_asymptotic(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "sim.html"
    args = ["plan", "--kappa1", "0.7", "--kappa0", "0.4", "--marginals", "0.3,0.7",
            "--weights", "unweighted", "--method", "simulation", "--simulations", "500",
            "--seed", "3", "--report", str(out)]  # fmt: skip
    assert main(args) == 0
    page = out.read_text(encoding="utf-8")
    assert "Monte Carlo SE" in page and "asymptotic formula" in page


def test_report_and_plot_of_a_several_raters_simulation(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The curve of a several-raters simulation plan is simulated (no asymptotic formula
    exists for Conger's kappa)."""
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "conger.html", tmp_path / "conger.png"
    args = ["plan", "--kappa1", "0.7", "--kappa0", "0.4", "--marginals", "0.3,0.7",
            "--weights", "unweighted", "--raters", "3", "--coefficient", "conger",
            "--method", "simulation", "--simulations", "100", "--seed", "2",
            "--report", str(out), "--plot", str(png)]  # fmt: skip
    assert main(args) == 0
    page = out.read_text(encoding="utf-8")
    assert "simulation, 200 studies per n" in page and "asymptotic formula" not in page
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_report_renders_in_headless_chromium(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    if chromium_binary() is None:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    out = tmp_path / "plan.html"
    assert main([*_REPORT_ARGS, "--report", str(out)]) == 0
    proc = run_chromium(
        tmp_path / "profile", "--virtual-time-budget=10000", "--dump-dom", out.resolve().as_uri()
    )
    assert isinstance(proc, subprocess.CompletedProcess)
    assert proc.returncode == 0, proc.stderr[-2000:]
    widths = re.search(r'data-loaded-widths="([^"]*)"', proc.stdout)
    assert widths is not None, "the load handler did not run"
    assert [int(w) for w in widths.group(1).split(",")] == [720]  # 6 in x 120 dpi
    text = html.unescape(re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ",
                                proc.stdout, flags=re.S))  # fmt: skip
    expected = wk.kappa_sample_size(kappa1=0.8, kappa0=0.6, marginals=[0.1, 0.2, 0.4, 0.2, 0.1])
    assert f"n = {expected.n} items" in " ".join(text.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kappa1", "1.3", "--marginals", "0.1,0.9"], "--kappa1 must be in"),
        (["--kappa1", "0.6", "--marginals", "0.1,0.9", "--ci-width", "-1"], "--ci-width"),
        (
            ["--kappa1", "0.6", "--marginals", "0.2,0.9"],
            "--marginals must sum to 1; it sums to 1.1.",
        ),
        (
            ["--kappa1", "0.6", "--marginals", "0.2,0.9;0.5,0.5"],
            "(each rater's); they sum to 1.1, 1.",
        ),
        (["--kappa1", "0.6", "--marginals", "a,b"], "--marginals must be comma-separated"),
        (
            ["--kappa1", "0.6", "--marginals", "0,2;0,3;0,5"],
            "decimal commas? Hint: write decimal points, commas between the categories: "
            "--marginals 0.2,0.3,0.5.",
        ),
        (
            ["--kappa1", "0.6", "--marginals", "20,30,50"],
            "it sums to 100. Hint: give proportions; divided by their sum they are 0.2, 0.3, 0.5.",
        ),
        (
            ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--power", "80"],
            "--power must be strictly between 0 and 1; got 80.0. Hint: 80% is --power 0.8.",
        ),
        (
            ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--alpha", "5"],
            "got 5.0. Hint: 5% is --alpha 0.05.",
        ),
        (["--kappa1", "0.6", "--marginals", "0.5,0.5", "--power", "1.5"], "--power"),
        (["--marginals", "0.5,0.5"], "--kappa1"),
        (
            ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--simulations", "500"],
            "--simulations goes with --method simulation;",
        ),
        (
            ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--seed", "3"],
            "--seed goes with --method simulation;",
        ),
        (
            ["--kappa1", "0.6", "--marginals", "0.5,0.5", "--n", "50", "--power", "0.9"],
            "--n reports what n items deliver: drop --power",
        ),
    ],
)
def test_errors_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wkappa: error: ") and message in err
    assert err.count("\n") == 1


def test_several_raters_asymptotic_error_names_the_coefficient(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Before: "... and --coefficient None use --method simulation" (the default is Fleiss').
    assert main(["plan", "--kappa1", "0.6", "--marginals", "0.3,0.7", "--raters", "3"]) == 2
    err = capsys.readouterr().err
    assert "--coefficient fleiss" in err and "None" not in err
    assert len(err.strip().splitlines()) == 1


_M = ["--kappa1", "0.6", "--marginals", "0.3,0.7"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kappa1", "0.6"], "exactly one of --table"),
        (["--marginals", "0.3,0.7"], "--marginals needs --kappa1"),
        ([*_M, "--raters", "3"], "--method simulation (any coefficient) or --method goodness-of"),
        ([*_M, "--raters", "3", "--method", "goodness-of-fit", "--coefficient", "gwet"],
         "for --coefficient gwet use --method simulation"),
        (["--kappa1", "0.6", "--marginals", "0.3,0.7;0.5,0.5", "--raters", "3",
          "--method", "goodness-of-fit"], "give one shared --marginals"),
        ([*_M, "--method", "simulation", "--simulations", "1"], "--simulations must be"),
        ([*_M, "--method", "simulation", "--seed", "-1"], "--seed must be"),
        ([*_M, "--n", "1"], "--n must be an integer >= 2"),
        ([*_M, "--n", "10", "--ci-width", "0.2"], "drop --power / --ci-width"),
        ([*_M, "--ci-width", "0.2", "--lower-limit", "0.3"], "one of --ci-width and --lower"),
        ([*_M, "--assurance", "0.8"], "--assurance goes with --lower-limit"),
        ([*_M, "--lower-limit", "0.7"], "--lower-limit = 0.7 must be below"),
        ([*_M, "--kappa0", "0.7"], "must be above --kappa0 (0.7). Hint: --alternative less"),
        ([*_M, "--kappa0", "0.6"], "--kappa1 and --kappa0 are both 0.6"),
        ([*_M, "--power", "0.01"], "--power must be above --alpha (0.05)"),
        (["--kappa1", "-0.9", "--marginals", "0.3,0.7"], "choose --kappa1 between"),
        (["--kappa1", "-0.9", "--marginals", "0.3,0.7", "--raters", "3", "--method",
          "simulation", "--coefficient", "gwet"], "choose --kappa1 between"),
        (["--table", "1,0;0,1"], "give --kappa1 below 1"),
        ([*_M, "--raters", "1"], "--raters must be an integer >= 2"),
        ([*_M, "--coefficient", "bogus"], "--coefficient must be"),
        ([*_M, "--weights", "cubic"], "--weights must be"),
        ([*_M, "--weights", "bipolar"], "--weights bipolar is one of Gwet's value-based weights"),
        ([*_M, "--weights", "ratio", "--raters", "2", "--method", "simulation"],
         "Hint: --coefficient conger (Cohen's kappa of two raters"),
        (["--kappa1", "0.6", "--marginals", "0.2,0.3,0.5", "--weights", "circular", "--raters",
          "3", "--method", "goodness-of-fit"],
         "Hint: plan weighted kappa with --method simulation, or pass --weights unweighted"),
    ],
)  # fmt: skip
def test_every_error_speaks_in_options(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """No Python keyword (``n_raters``, ``method='simulation'``, a backquoted name) in a
    message of ``wkappa plan``: the options that set them."""
    assert main(["plan", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wkappa: error: ") and err.count("\n") == 1
    assert message in err, err
    python = re.findall(r"`|\b\w+=|\b(?:n_\w+|ci_width|lower_limit|confidence_level)\b", err)
    assert not python, err
    assert not re.findall(r"(?<!--)\b(?:kappa[01]|alpha)\b", err), err


def test_a_value_that_starts_with_a_minus_is_read_as_the_option_value(capsys):
    """argparse took '-1,2;3,4' for an option and printed its usage ('expected one
    argument'); --labels had the only exception."""
    assert main(["plan", "--table", "-1,2;3,4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--table must hold finite non-negative" in err


def test_unweighted_is_not_unweighted_weights(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plan", "--kappa1", "0.6", "--kappa0", "0.4", "--marginals", "0.2,0.3,0.5"]
    assert main([*argv, "--weights", "unweighted"]) == 0
    assert "(Cohen's kappa, unweighted, K = 3)" in capsys.readouterr().out
    assert main(argv) == 0
    assert "(Cohen's kappa, quadratic weights, K = 3)" in capsys.readouterr().out


def test_goodness_of_fit_warning_in_options_once(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The warning of a goodness-of-fit plan outside its range names --method (not
    method='...'), and the report's curve does not repeat it."""
    args = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.7", "--raters", "3",
            "--method", "goodness-of-fit", "--report", str(tmp_path / "r.html")]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if line.startswith("wkappa: warning")]
    assert len(warnings) == 1, captured.err
    assert "--method simulation" in warnings[0] and "method='" not in warnings[0]
    assert "(Fleiss' kappa, quadratic weights, K = 2)" in captured.out
    report = (tmp_path / "r.html").read_text(encoding="utf-8")  # the report says it too, once
    section = re.findall(r'<section class="warnings">.*?</section>', report, re.S)
    assert len(section) == 1
    assert f"<li>{warnings[0].removeprefix('wkappa: warning: ')}</li>" in html.unescape(section[0])
    assert html.unescape(report).count("--method goodness-of-fit is outside the range") == 1


def test_plot_writes_the_format_its_file_name_asks_for(tmp_path, capsys) -> None:
    """--plot out.pdf wrote PNG bytes into a file named .pdf, and --plot out.txt a PNG too:
    every --plot (plan, score, agree) writes .png, .pdf or .svg by the ending and refuses
    any other ending before computing anything."""
    ratings = tmp_path / "ratings.csv"
    ratings.write_text("a,b,c\n" + "".join(f"{i % 3},{i % 3},{(i // 2) % 3}\n" for i in range(30)))
    commands = {
        "plan": ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.7"],
        "score": ["score", str(ratings), "--true", "a", "--pred", "c"],
        "agree": ["agree", str(ratings), "--raters", "a,b,c"],
    }
    magic = {".png": b"\x89PNG", ".pdf": b"%PDF", ".svg": b"<?xml"}
    for name, argv in commands.items():
        for ending, start in magic.items():
            out = tmp_path / f"{name}{ending.upper() if ending == '.png' else ending}"
            assert main([*argv, "--plot", str(out), "--quiet"]) == 0, capsys.readouterr().err
            assert out.read_bytes().startswith(start), (name, ending)
        capsys.readouterr()
        with pytest.raises(SystemExit) as exited:
            main([*argv, "--plot", str(tmp_path / "figure.txt")])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'" in err and "is not a .png, .pdf or .svg" in err, err


def test_gwet_weights_of_two_raters_plan_as_the_refusal_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The refusal of Gwet's weights for two raters names the fix; the fix plans."""
    args = ["plan", *_M, "--n", "50", "--weights", "bipolar"]
    assert main(args) == 2
    assert "--coefficient conger" in capsys.readouterr().err
    fixed = [*args, "--coefficient", "conger", "--method", "simulation", "--simulations", "200",
             "--seed", "0", "--format", "json"]  # fmt: skip
    assert main(fixed) == 0
    assert '"weights": "bipolar"' in capsys.readouterr().out


def test_goodness_of_fit_width_goal_is_printed_as_both_limits(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The goodness-of-fit width goal is each limit within kappa1 -/+ W/2 (kappaSize's 397
    items), and the text, the report's goal row and its methods sentence say so."""
    out = tmp_path / "r.html"
    args = ["plan", "--kappa1", "0.4", "--marginals", "0.3,0.7", "--weights", "unweighted",
            "--method", "goodness-of-fit", "--ci-width", "0.2"]  # fmt: skip
    assert main([*args, "--report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "n = 397 items" in text
    assert main([*args, "--explain"]) == 0
    explained = capsys.readouterr().out
    assert "n is the smallest putting both limits within kappa1 ± 0.1" in explained
    assert "test of size -" not in explained
    assert "(wanted: both 95% limits within kappa1 ± 0.1, i.e. in 0.3 to 0.5)" in text
    page = html.unescape(out.read_text(encoding="utf-8"))
    assert "both 95% limits within kappa1 ± 0.1, i.e. in 0.3 to 0.5" in page
    assert "planned for both expected 95% limits within kappa1 ± 0.1" in page
    assert "interval width <= 0.2" not in page


@pytest.mark.parametrize(
    ("goal", "says"),
    [
        (["--lower-limit", "0.4"], "clears L = 0.4 with probability 0.5"),
        (["--n", "80"], "against kappa0 = 0 on the probabilities"),
        (["--lower-limit", "0.4", "--n", "80"], "P(lower limit > L) = 0.443"),
    ],
)
def test_goodness_of_fit_explains_every_goal(goal, says, capsys) -> None:
    """--explain of a goodness-of-fit lower-limit plan, or of what a given n delivers, showed
    the power goal's formula with 'a test of size - with power -'."""
    args = ["plan", "--kappa1", "0.6", "--marginals", "0.3,0.7", "--weights", "unweighted",
            "--method", "goodness-of-fit", *goal, "--explain"]  # fmt: skip
    assert main(args) == 0
    explained = capsys.readouterr().out
    assert says in explained
    assert "size -" not in explained and "power -" not in explained


@pytest.mark.parametrize(
    ("goal", "says"),
    [
        (["--lower-limit", "0.5"], "(the lower limit of the score interval), and n is the "
         "smallest whose share of successes reaches the goal: n = "),
        (["--ci-width", "0.3"], "(the width of the score interval), and n is the smallest "
         "whose mean width meets the goal: n = "),
    ],
)  # fmt: skip
def test_simulation_explains_what_each_study_is_analysed_by(
    goal: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said 'analysed as the real study will be' without the interval, and 'share of
    successes ... (Monte Carlo SE nan)' of a width goal, whose mean width is no share."""
    args = ["plan", "--kappa1", "0.7", "--marginals", "0.2,0.3,0.3,0.2", "--method",
            "simulation", "--simulations", "200", "--seed", "1", "--explain", *goal]  # fmt: skip
    assert main(args) == 0
    explained = capsys.readouterr().out
    assert says in explained
    assert "SE nan" not in explained


def test_a_power_below_one_is_never_written_as_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # At n = 450 the power is 0.9996: three decimals would round it up to a false "1.000".
    report = tmp_path / "plan.html"
    args = ["plan", "--kappa1", "0.8", "--kappa0", "0.6", "--marginals", "0.1,0.2,0.4,0.2,0.1"]
    assert main([*args, "--n", "450", "--explain", "--report", str(report)]) == 0
    text = capsys.readouterr().out
    assert "power > 0.999" in text and "1.000" not in text
    page = report.read_text(encoding="utf-8")
    assert "power &gt; 0.999." in page and "<td>1.000</td>" not in page
    assert main(["plan", "--kappa1", "0.8", "--lower-limit", "0.6", "--marginals",
                 "0.1,0.2,0.4,0.2,0.1", "--n", "450"]) == 0  # fmt: skip
    assert "interval > 0.6) > 0.999" in capsys.readouterr().out


def test_a_power_below_the_wanted_one_is_not_rounded_up_to_it() -> None:
    from wkappa._stats import probability_text

    assert probability_text(0.79996, target=0.8) == "0.79996"
    assert probability_text(0.9996) == "> 0.999" and probability_text(1e-5) == "< 0.001"
