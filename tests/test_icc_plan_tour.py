"""A clinical researcher's tour of ICC planning: edge goals of the closed forms, the errors
that say how to relax a goal no study meets, and ``wkappa plan --coefficient icc --explain``
describing the computation that was run (the lower-limit goal, a given ``--n``)."""

from __future__ import annotations

import math

import pytest

import wkappa as wk
from wkappa._cli.app import main
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")

_ICC = ["plan", "--coefficient", "icc"]


@pytest.mark.parametrize("assurance", [0.01, 0.02])
def test_approximate_lower_limit_below_the_tail_needs_two_subjects(assurance: float) -> None:
    """An assurance below (1 - level) / 2 is met by every n (the formula's assurance never
    falls below that tail): the closed form's n is 2, not the square of a negative sum."""
    options = {"icc1": 0.61, "lower_limit": 0.6, "n_raters": 3, "method": "approximate"}
    plan = wk.icc_sample_size(assurance=assurance, **options)
    assert wk.icc_power(2, **options).assurance >= assurance
    assert plan.n == 2


def test_approximate_lower_limit_is_unchanged_above_the_tail() -> None:
    options = {"icc1": 0.8, "lower_limit": 0.6, "n_raters": 3, "method": "approximate"}
    plan = wk.icc_sample_size(assurance=0.8, **options)
    assert plan.assurance >= 0.8
    assert wk.icc_power(plan.n - 1, **options).assurance < 0.8


@pytest.mark.parametrize(
    ("options", "hint"),
    [
        ({"icc1": 0.6000001, "icc0": 0.6}, "`icc1` is too close to `icc0`"),
        ({"icc1": 0.6000001, "lower_limit": 0.6}, "`lower_limit` is too close to `icc1`"),
        ({"icc1": 0.8, "ci_width": 1e-5}, "a wider interval (`ci_width`)"),
    ],
)
@pytest.mark.parametrize("method", ["exact", "approximate"])
def test_a_goal_no_study_meets_is_refused_by_both_methods(
    options: dict[str, float], hint: str, method: str
) -> None:
    """The closed forms are refused past 10**6 subjects as the exact method is, each goal
    with its own hint (a width goal is not "an ICC too close to the goal")."""
    with pytest.raises(WkappaError, match="No study of up to 1,000,000 subjects") as caught:
        wk.icc_sample_size(n_raters=3, method=method, **options)  # type: ignore[arg-type]
    assert hint in str(caught.value)
    assert "\n" not in str(caught.value)


def test_given_n_with_a_width_is_refused_by_the_approximate_method() -> None:
    """``ci_width`` with a given n asks P(width <= ci_width), which Bonett's formula does
    not give: refused, not silently dropped."""
    assert wk.icc_power(30, icc1=0.8, n_raters=3, ci_width=0.2).assurance > 0.0
    with pytest.raises(WkappaError, match=r"method='approximate'.*Hint: drop `method=`"):
        wk.icc_power(30, icc1=0.8, n_raters=3, ci_width=0.2, method="approximate")


def _explained(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*_ICC, *args, "--explain"]) == 0
    return capsys.readouterr().out.split("How the plan was computed:")[1]


def test_explain_of_an_approximate_lower_limit_plan(capsys: pytest.CaptureFixture[str]) -> None:
    text = _explained(
        ["--icc1", "0.8", "--raters", "3", "--lower-limit", "0.6", "--assurance", "0.8",
         "--method", "approximate"],
        capsys,
    )  # fmt: skip
    plan = wk.icc_sample_size(
        icc1=0.8, n_raters=3, lower_limit=0.6, assurance=0.8, method="approximate"
    )
    assert "C_L = theta(L) / theta(icc1), L = 0.6" in text
    assert "z_((1+level)/2) = 1.9600, z_assurance = 0.8416" in text
    assert f"rounded up: n = {plan.n}." in text
    assert "icc0" not in text and "power" not in text


def test_explain_of_an_approximate_given_n(capsys: pytest.CaptureFixture[str]) -> None:
    """With --n the formulas give that n's power, assurance and width: no n is solved for."""
    text = _explained(
        ["--icc1", "0.8", "--icc0", "0.6", "--raters", "2", "--lower-limit", "0.5", "--n", "30",
         "--method", "approximate"],
        capsys,
    )  # fmt: skip
    plan = wk.icc_power(30, icc1=0.8, icc0=0.6, n_raters=2, lower_limit=0.5, method="approximate")
    assert "n = 1 + 2" not in text and "rounded up" not in text
    assert f"power = {plan.power:.3f}" in text
    assert f"P(lower limit > L) = {plan.assurance:.3f}" in text
    assert f"expected width {plan.expected_width:.4f}" in text


@pytest.mark.parametrize(("form", "where"), [("1,1", "outside the roots"), ("C,k", "above one")])
def test_explain_of_a_width_assurance(
    form: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _explained(
        ["--icc1", "0.8", "--raters", "3", "--form", form, "--ci-width", "0.2",
         "--assurance", "0.8"],
        capsys,
    )  # fmt: skip
    plan = wk.icc_sample_size(icc1=0.8, n_raters=3, form=form, ci_width=0.2, assurance=0.8)
    assert f"P(width <= 0.2) = {plan.assurance:.3f}" in text and where in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--icc1", "0.8", "--ci-width", "0.2", "--n", "30", "--method", "approximate"],
            "With a given n, --ci-width asks",
        ),
        (["--icc1", "0.8", "--ci-width", "0.00001"], "a wider interval (--ci-width), a lower --ci"),
        (
            ["--icc1", "0.6000001", "--icc0", "0.6", "--method", "approximate"],
            "--icc1 is too close to --icc0",
        ),
    ],
)
def test_cli_errors_name_the_options(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*_ICC, *args]) == 2
    error = capsys.readouterr().err
    assert message in error, error
    assert "`" not in error and "method=" not in error and "n_raters" not in error


def test_explain_of_an_approximate_width_without_a_mean(capsys: pytest.CaptureFixture[str]) -> None:
    """Bonett's width at an n his correction leaves without a study is infinite: written as
    the plan's own lines write it."""
    text = _explained(["--icc1", "0.8", "--n", "4", "--method", "approximate"], capsys)
    assert "expected width ∞." in text and "inf" not in text


def test_an_unknown_form_lists_the_forms_planned_for(capsys: pytest.CaptureFixture[str]) -> None:
    """Not wk.icc's list with its 'A,1' hint, which the plan then refuses."""
    with pytest.raises(WkappaError, match=r"`form` must be one of the forms planned for") as caught:
        wk.icc_sample_size(icc1=0.8, form="ICC(2,2,1)")
    assert "'A,1'" not in str(caught.value) and "'C,k'" in str(caught.value)
    assert main([*_ICC, "--icc1", "0.8", "--form", "X"]) == 2
    error = capsys.readouterr().err
    assert "--form must be one of the forms planned for" in error and "'A,1'" not in error


@pytest.mark.parametrize(
    ("alternative", "shown"),
    [
        ("greater", "-ln C0 - z_(1-alpha))"),
        ("less", "(2k)) ln C0 - z_(1-alpha))"),
        ("two-sided", "|ln C0| - z_(1-alpha/2))"),
    ],
)
def test_explain_of_an_approximate_power_follows_the_alternative(
    alternative: str, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The formula shown is the one computed: 'less' with icc1 above icc0 has a power below
    alpha, which ``|ln C0|`` would not give."""
    from statistics import NormalDist

    text = _explained(
        ["--icc1", "0.8", "--icc0", "0.6", "--raters", "3", "--n", "30", "--alternative",
         alternative, "--method", "approximate"],
        capsys,
    )  # fmt: skip
    assert shown in text
    c0 = ((1 + 2 * 0.6) / 0.4) / ((1 + 2 * 0.8) / 0.2)
    gap = {"greater": -math.log(c0), "less": math.log(c0)}.get(alternative, abs(math.log(c0)))
    z = NormalDist().inv_cdf(0.975 if alternative == "two-sided" else 0.95)
    power = NormalDist().cdf(math.sqrt(29 * 2 / 6) * gap - z)
    plan = wk.icc_power(30, icc1=0.8, icc0=0.6, n_raters=3, alternative=alternative,  # type: ignore[arg-type]
                        method="approximate")  # fmt: skip
    assert plan.power == pytest.approx(power, rel=1e-9)


def test_inputs_are_written_as_given(capsys: pytest.CaptureFixture[str]) -> None:
    """An anticipated ICC near 1 is not written as 1 (outside the range it must be in), nor
    0.12345 as 0.1235: repr, explain and the command line show the value given."""
    plan = wk.icc_sample_size(icc1=0.9999999, icc0=0.6, n_raters=3)
    assert "icc1=0.9999999," in repr(plan)
    assert "ICC(1,1) = 0.9999999 (" in plan.explain()
    limit = wk.icc_sample_size(icc1=0.12345, lower_limit=0.05, n_raters=3)
    assert "ICC(1,1) = 0.12345 (" in limit.explain() and "icc1=0.12345," in repr(limit)
    assert main([*_ICC, "--icc1", "0.9999999", "--icc0", "0.6", "--raters", "3"]) == 0
    assert "ICC(1,1) = 0.9999999 (" in capsys.readouterr().out
    assert "icc1=0.8, icc0=0.6," in repr(wk.icc_sample_size(icc1=0.8, icc0=0.6))
