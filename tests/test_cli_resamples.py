"""``--bootstrap N``: one rule in every command that takes it."""

from __future__ import annotations

import pytest

from cli_calls import refusal

_MESSAGE = (
    "wkappa: error: --bootstrap must be an integer >= 2 (the number of bootstrap replicates; "
    "999 or more for an interval); got {n}."
)


@pytest.fixture
def ratings(tmp_path):
    path = tmp_path / "ratings.csv"
    path.write_text("a,b,c\n" + "1,1,2\n2,2,2\n3,2,3\n1,1,1\n2,3,2\n" * 4)
    return str(path)


@pytest.mark.parametrize("n", ["0", "1", "-5"])
@pytest.mark.parametrize(
    ("command", "hint"),
    [
        (["score", "--true", "a", "--pred", "b"], True),
        (["agree", "--raters", "a,b,c"], True),
        (["compare", "--true", "a", "--pred", "b", "--pred", "c"], False),
        (["judge", "--candidate", "a", "--raters", "b,c"], False),
    ],
)
def test_bootstrap_under_two_is_refused_in_every_command(ratings, capsys, n, command, hint):
    """--bootstrap 0 was "no bootstrap" in score and agree, an error in compare and judge;
    with --seed it said "--seed goes with --bootstrap N", though --bootstrap was given."""
    for extra in ([], ["--seed", "1"]):
        err = refusal(capsys, [command[0], ratings, *command[1:], "--bootstrap", n, *extra])
        assert err.startswith(_MESSAGE.format(n=n)), err
        assert ("Hint: leave out --bootstrap for the --ci-method interval" in err) == hint


@pytest.mark.parametrize(
    "command",
    [
        ["score", "--true", "a", "--pred", "b"],
        ["score", "--true", "a", "--pred", "b", "--by", "c"],
        ["agree", "--raters", "a,b,c"],
        ["compare", "--true", "a", "--pred", "b", "--pred", "c"],
        ["judge", "--candidate", "a", "--raters", "b,c"],
    ],
)
def test_few_resamples_are_said_once_in_every_command(ratings, tmp_path, capsys, command):
    """`judge --bootstrap 199` said "few resamples" twice, `score` not at all: every command
    that takes --bootstrap says it once, on stderr after its output, and in its report."""
    from wkappa._cli import main

    report = tmp_path / "r.html"
    argv = [command[0], ratings, *command[1:], "--bootstrap", "199", "--seed", "1", "--quiet"]
    assert main(argv) == 0
    words = "--bootstrap 199 is few resamples"
    assert capsys.readouterr().err.count(words) == 1
    assert main([*argv, "--report", str(report)]) == 0
    assert capsys.readouterr().err.count(words) == 1
    assert report.read_text(encoding="utf-8").count(words) == 1
