"""``kappa0=`` on the several-raters functions: H0: coefficient = kappa0, Student's t with
n - 1 degrees of freedom on ``(statistic - kappa0) / standard_error`` (irrCAC's test at 0),
dual to the asymptotic interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wkappa as wk
from wkappa._core import t_ppf, t_sf
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")

NAN = np.nan
# irrCAC's cac.raw4raters (12 items, 4 raters, missing ratings).
RATINGS = [[1, 1, NAN, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
           [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [NAN, 5, 5, 5],
           [NAN, NAN, 1, 1], [NAN, NAN, 3, NAN]]  # fmt: skip
COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff"]


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_pvalue_is_t_of_the_distance_to_kappa0(coefficient: str, alternative: str) -> None:
    base = wk.agreement(RATINGS, coefficient=coefficient, alternative=alternative)
    tested = wk.agreement(RATINGS, coefficient=coefficient, alternative=alternative, kappa0=0.4)
    t = (base.statistic - 0.4) / base.standard_error
    df = base.n_items - 1
    expected = {
        "greater": t_sf(t, df),
        "less": t_sf(-t, df),
        "two-sided": min(1.0, 2 * t_sf(abs(t), df)),
    }[alternative]
    assert tested.pvalue == pytest.approx(expected, rel=1e-12)
    assert tested.kappa0 == 0.4 and tested.to_dict()["kappa0"] == 0.4
    assert wk.agreement(RATINGS, coefficient=coefficient, kappa0=0.0).pvalue == pytest.approx(
        wk.agreement(RATINGS, coefficient=coefficient).pvalue, rel=1e-15
    )


def test_dual_to_the_asymptotic_interval() -> None:
    result = wk.agreement(RATINGS, coefficient="fleiss")
    low, _ = result.confidence_interval(0.90)
    at_low = wk.agreement(RATINGS, coefficient="fleiss", kappa0=low)
    assert at_low.pvalue == pytest.approx(0.10, rel=1e-9)
    half = t_ppf(0.95, result.n_items - 1) * result.standard_error
    assert low == pytest.approx(result.statistic - half, rel=1e-12)


def test_counts_rows_and_frames_pass_kappa0() -> None:
    counts = [[3, 0, 0], [0, 3, 0], [1, 1, 1], [0, 0, 3], [0, 2, 0], [2, 1, 0]]
    from_counts = wk.agreement_from_counts(counts, kappa0=0.3, alternative="greater")
    ratings = [[0, 0, 0], [1, 1, 1], [0, 1, 2], [2, 2, 2], [1, 1, NAN], [0, 0, 1]]
    from_ratings = wk.agreement(ratings, kappa0=0.3, alternative="greater", min_rating=0)
    assert from_counts.pvalue == pytest.approx(from_ratings.pvalue, rel=1e-12)
    assert "H0: coefficient = 0.3" in from_counts.explain()
    pl = pytest.importorskip("polars")
    from wkappa import frames

    frame = pl.DataFrame({"a": [1, 2, 3, 3, 2], "b": [1, 2, 3, 3, 1], "c": [1, 2, 2, 3, 2]})
    by_frame = frames.agreement(frame, raters=["a", "b", "c"], kappa0=0.2)
    direct = wk.agreement(frame.to_numpy(), kappa0=0.2)
    assert by_frame.pvalue == pytest.approx(direct.pvalue, rel=1e-12)


def test_krippendorff_alpha_passes_kappa0() -> None:
    base = wk.krippendorff_alpha(RATINGS, level="interval")
    tested = wk.krippendorff_alpha(RATINGS, level="interval", kappa0=0.5, alternative="greater")
    t = (base.statistic - 0.5) / base.standard_error
    assert tested.pvalue == pytest.approx(t_sf(t, base.n_items - 1), rel=1e-12)


@pytest.mark.parametrize("bad", [1.0, math.inf, math.nan, "0.3", None])
def test_bad_kappa0(bad: object) -> None:
    with pytest.raises(WkappaError, match="kappa0"):
        wk.agreement(RATINGS, kappa0=bad)  # type: ignore[arg-type]
    with pytest.raises(WkappaError, match="kappa0"):
        wk.agreement_from_counts([[2, 0], [0, 2]], kappa0=bad)  # type: ignore[arg-type]
