"""Edge cases of the intraclass and concordance correlations: counts under
``nan_policy='propagate'``, degenerate intervals and tests, ratings far from zero."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli.app import main
from wkappa.exceptions import UndefinedReliabilityWarning

# ----------------------------------------------------------------- n_ratings is a count

_WITH_A_HOLE = [[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, math.nan, 5.0], [4.0, 5.0, 7.0]]


def test_icc_n_ratings_is_a_count_under_propagate() -> None:
    """The statistic of 'propagate' is nan, the number of ratings read is not."""
    result = wk.icc(_WITH_A_HOLE, nan_policy="propagate")
    assert math.isnan(result.statistic)
    assert result.n_ratings == 11 and isinstance(result.n_ratings, int)
    assert result.n_ratings == wk.icc(_WITH_A_HOLE, nan_policy="omit").n_ratings
    assert result.to_dict()["n_ratings"] == 11
    assert "11 ratings" in result.explain()
    assert "n_ratings=11" in repr(result)


def test_icc_n_ratings_of_a_propagated_feature_in_a_batch() -> None:
    x = np.asarray(_WITH_A_HOLE)
    batch = np.stack([x, np.nan_to_num(x, nan=2.5)], axis=2)
    result = wk.icc(batch, nan_policy="propagate")
    assert math.isnan(result.statistic[0]) and not math.isnan(result.statistic[1])
    assert list(result.n_ratings) == [11, 12]


def test_cli_icc_n_ratings_under_propagate(tmp_path, capsys) -> None:
    path = tmp_path / "hole.csv"
    path.write_text("a,b,c\n1,2,3\n2,3,4\n3,,5\n4,5,7\n")
    args = ["icc", str(path), "--raters", "a,b,c", "--nan-policy", "propagate"]
    assert main(args) == 0
    assert "4 items x 3 raters (a, b, c), 11 ratings" in capsys.readouterr().out
    assert main([*args, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["n_ratings"] == 11
    assert {form["n_ratings"] for form in document["icc"].values()} == {11}


# ----------------------------------------------------------------- CCC: degenerate inference


def _lin_se_z(x: np.ndarray, y: np.ndarray) -> float:
    """Lin's (1989) delta-method SE of Fisher's z as epiR writes it (rho / r explicit)."""
    n = len(x)
    sx2, sy2 = x.var(), y.var()
    sxy = float(np.mean((x - x.mean()) * (y - y.mean())))
    rho = 2 * sxy / (sx2 + sy2 + (x.mean() - y.mean()) ** 2)
    r = sxy / math.sqrt(sx2 * sy2)
    u = (y.mean() - x.mean()) / (sx2 * sy2) ** 0.25
    one = 1 - rho**2
    variance = (
        (1 - r**2) * rho**2 / (one * r**2)
        + 2 * rho**3 * (1 - rho) * u**2 / (r * one**2)
        - rho**4 * u**4 / (2 * r**2 * one**2)
    ) / (n - 2)
    return math.sqrt(variance)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (([1.0, 2.0], [1.0, 3.0]), "there are 2 items"),
        ((np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 3.0]]),), "there are 2 items"),
        (([1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0]), "one rater gives every item the same"),
        (([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]), "the CCC is -1"),
        ((np.array([[1.0, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 5]]),), "leaving one item out"),
    ],
)
def test_ccc_says_why_its_interval_is_undefined(args, why) -> None:
    """Before: a nan interval and p-value without a word. The warning is the project's
    UndefinedReliabilityWarning and points at the caller's line (this file)."""
    with pytest.warns(UndefinedReliabilityWarning, match=why) as caught:
        result = wk.ccc(*args)
    assert caught[0].filename == __file__
    assert math.isfinite(result.statistic)
    assert math.isnan(result.pvalue) and math.isnan(result.confidence_interval().low)


@pytest.mark.parametrize(
    "ratings",
    [([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]), (np.tile([[1.0], [2.0], [5.0]], (1, 3)),)],
)
def test_ccc_of_perfect_agreement_is_defined(ratings) -> None:
    """CCC = 1: Fisher's z is infinite, the interval is (1, 1) and the test rejects every
    ccc0 below 1 (the limits as the ratings approach perfect agreement), as icc answers an
    infinite F; no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = wk.ccc(*ratings)
        assert result.statistic == 1.0
        assert tuple(result.confidence_interval(0.99)) == (1.0, 1.0)
        assert result.pvalue == 0.0
        assert wk.ccc(*ratings, alternative="less", ccc0=0.9).pvalue == 1.0
        greater = wk.ccc(*ratings, alternative="greater").confidence_interval()
        assert tuple(greater) == (1.0, 1.0)
        assert result.to_dict()["confidence_interval"]["low"] == 1.0


def test_ccc_interval_approaches_perfect_agreement() -> None:
    """Lin's interval near perfect agreement tends to (1, 1) and its p-value to 0: the
    defined answer at CCC = 1 is their limit."""
    x = np.array([1.0, 2.0, 4.0, 5.0, 7.0, 8.0])
    e = np.array([0.3, -0.2, 0.1, 0.5, -0.4, 0.2])
    lows = [wk.ccc(x, x + eps * e).confidence_interval().low for eps in (1e-1, 1e-3, 1e-5)]
    assert lows == sorted(lows) and lows[-1] > 1 - 1e-6
    assert wk.ccc(x, x + 1e-5 * e).pvalue < 1e-12


def test_ccc_standard_error_at_zero_correlation_is_lins_limit() -> None:
    """r = 0 exactly: Lin's formula divides by r (nan before); rho / r is C_b, defined, and
    the SE is the limit of Lin's as r -> 0."""
    x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0, 2.0, 1.0])
    result = wk.ccc(x, y)
    assert result.pearson == 0.0 and result.statistic == 0.0
    c_b = 2 * x.std() * y.std() / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)
    assert result.bias_correction == pytest.approx(c_b, rel=1e-15)
    assert result.standard_error_z == pytest.approx(c_b / math.sqrt(2), rel=1e-15)
    near = y + np.array([0.0, 0.0, 1e-7, 0.0])
    assert result.standard_error_z == pytest.approx(_lin_se_z(x, near), rel=1e-5)
    low, high = result.confidence_interval()
    assert low == pytest.approx(-high) and 0 < high < 1
    assert result.pvalue == 1.0
