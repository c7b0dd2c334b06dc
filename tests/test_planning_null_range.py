"""A null ``kappa0`` outside the kappas the marginals allow is refused, as ``kappa1`` is:
no population has it, and the formulas planned for a null table that is not there
(``kappa0=-0.8`` with marginals 0.3/0.7, whose least kappa is -3/7, planned n = 2)."""

from __future__ import annotations

import warnings

import pytest

import wkappa as wk
from wkappa._cli.app import main
from wkappa.exceptions import WkappaError

_BELOW = (
    r"^`kappa0` = -0\.8 is outside what these marginals allow: the smallest kappa of a table "
    r"with them under these weights is -0\.428571, so no population has kappa -0\.8 to test\. "
    r"Hint: choose `kappa0` between -0\.4286 and 1\.$"
)


@pytest.mark.parametrize("method", ["asymptotic", "max-variance", "goodness-of-fit", "simulation"])
def test_a_null_below_the_least_kappa_is_refused(method: str) -> None:
    design = {"kappa1": 0.5, "kappa0": -0.8, "marginals": [0.3, 0.7], "method": method}
    with pytest.raises(WkappaError, match=_BELOW):
        wk.kappa_sample_size(**design)
    with pytest.raises(WkappaError, match=_BELOW):
        wk.kappa_power(30, **design)


def test_a_null_above_the_largest_kappa_is_refused() -> None:
    """Raters with different marginals cannot agree perfectly: 0.3/0.7 and 0.6/0.4 reach
    kappa 4/9 at most."""
    with pytest.raises(
        WkappaError, match=r"the largest kappa .* is 0\.444444, .* between -0\.6667 and 0\.4444"
    ):
        wk.kappa_sample_size(
            kappa1=0.3, kappa0=0.9, marginals=[[0.3, 0.7], [0.6, 0.4]], alternative="less"
        )
    with pytest.raises(WkappaError, match=r"`kappa0` = 0\.9 is outside"):  # a table's margins
        wk.kappa_power(40, table=[[0.2, 0.1], [0.4, 0.3]], kappa0=0.9, alternative="less")


def test_a_null_inside_the_range_still_plans() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the small-n check's warning
        plan = wk.kappa_sample_size(kappa1=0.5, kappa0=-0.4, marginals=[0.3, 0.7])
    assert plan.n > 2 and plan.kappa0 == -0.4


def test_the_cli_names_the_option(capsys) -> None:
    argv = ["plan", "--kappa1", "0.5", "--kappa0", "-0.8", "--marginals", "0.3,0.7"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--kappa0 = -0.8 is outside what these marginals allow" in err
    assert "Hint: choose --kappa0 between -0.4286 and 1." in err
