"""R multiagree's help page examples and kappaGold's paired test reproduced (values and
sources in tests/published.py): the Fleiss-Cohen-Everitt SE of two-rater kappa, the
cluster-robust (multilevel) delta-method SE of weighted kappa (Vanbelle 2017) through
``kappa_test(..., cluster=)``, the SE of Fleiss' kappa, and Vanbelle & Albert's (2008)
bootstrap p-value of equal dependent kappas through ``paired_kappa_test``.

Not reproduced, because wkappa does not compute them: multiagree's Hotelling T^2 test of
equal dependent kappas and the correlations between kappas (``paired_kappa_test`` compares
two kappas by a bootstrap instead), and its normal-quantile intervals for several raters
(wkappa's default uses t(n - 1)).
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from published import (
    DEPRESSION,
    FEES,
    FLEISS_1971,
    MULTIAGREE_DEPRESSION,
    MULTIAGREE_FEES,
    MULTIAGREE_FLEISS_PSY,
    MULTIAGREE_WHERE,
)


@pytest.mark.parametrize("scale", ["BDI", "GHQ"])
def test_delta_pair_depression(scale: str) -> None:
    kappa, se = MULTIAGREE_DEPRESSION[scale]
    result = wk.kappa_test(DEPRESSION["diag"], DEPRESSION[scale], weights="unweighted")
    assert result.statistic == pytest.approx(kappa, abs=5e-13), MULTIAGREE_WHERE
    assert result.standard_error == pytest.approx(se, abs=5e-13)


@pytest.mark.parametrize(("rater", "column"), [("CO", 1), ("MH", 3), ("TB", 5)])
def test_delta_pair_fees_multilevel(rater: str, column: int) -> None:
    """Rows complete in all six columns, as delta.pair keeps them; clusters are subjects."""
    rows = np.array([row for row in FEES if None not in row])
    assert len(rows) == 20 and len(set(rows[:, 0])) == 14
    kappa, se = MULTIAGREE_FEES[rater]
    result = wk.kappa_test(rows[:, column], rows[:, column + 1], weights="linear",
                           labels=[0, 1, 2], cluster=rows[:, 0])  # fmt: skip
    assert result.statistic == pytest.approx(kappa, abs=5e-12), MULTIAGREE_WHERE
    assert result.standard_error == pytest.approx(se, abs=5e-13)
    assert result.n_clusters == 14


def test_delta_many1_fleiss_psy() -> None:
    kappa, se = MULTIAGREE_FLEISS_PSY
    result = wk.agreement(FLEISS_1971, coefficient="fleiss")
    assert result.statistic == pytest.approx(kappa, abs=5e-12), MULTIAGREE_WHERE
    assert result.standard_error == pytest.approx(se, abs=5e-13)


def test_validation_page_rows_match() -> None:
    """The validation page's "Strata and clusters" rows (kaphom and multiagree)."""
    from published import compute_designs, compute_designs_kappagold

    sections = compute_designs() + compute_designs_kappagold()
    assert len(sections) == 12
    for title, _, values in sections:
        for name, published, value, tolerance in values:
            assert abs(value - published) <= tolerance, (title, name, value, published)


def test_vanbelle_2008_paired_bootstrap_depression() -> None:
    """Vanbelle & Albert (2008), section 5.2 (kappaGold's tests): the bootstrap test of equal
    dependent kappas, diagnosis vs BDI against diagnosis vs GHQ, p 0.14. paired_kappa_test's
    p (9,999 resamples; Monte Carlo SE about 0.0035) agrees to the printed 2 decimals; its
    delta-method twin in multiagree prints 0.140 as well."""
    from published import VANBELLE_2008_PAIRED_PVALUE

    result = wk.paired_kappa_test(DEPRESSION["diag"], DEPRESSION["BDI"], DEPRESSION["GHQ"],
                                  weights="unweighted", rng=20081, n_resamples=9999)  # fmt: skip
    assert result.difference == pytest.approx(
        MULTIAGREE_DEPRESSION["BDI"][0] - MULTIAGREE_DEPRESSION["GHQ"][0], abs=1e-11
    )
    assert result.pvalue == pytest.approx(VANBELLE_2008_PAIRED_PVALUE, abs=5e-3)
