"""R multiagree's help page examples reproduced (values and sources in tests/published.py):
the Fleiss-Cohen-Everitt SE of two-rater kappa, the cluster-robust (multilevel) delta-method
SE of weighted kappa (Vanbelle 2017) through ``kappa_test(..., cluster=)``, and the SE of
Fleiss' kappa.

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
    from published import compute_designs

    sections = compute_designs()
    assert len(sections) == 9
    for title, _, values in sections:
        for name, published, value, tolerance in values:
            assert abs(value - published) <= tolerance, (title, name, value, published)
