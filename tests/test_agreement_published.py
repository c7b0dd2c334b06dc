"""Several raters' published values (irrCAC's README, Fleiss 1971, Krippendorff 2011), from
the records in ``tests/published.py`` that the validation page also shows."""

from __future__ import annotations

import pytest

from published import AGREEMENT_PRINTOUTS, AgreementPrintout, compute_agreement


@pytest.mark.parametrize("printout", AGREEMENT_PRINTOUTS, ids=lambda p: p.key)
def test_published_agreement(printout: AgreementPrintout) -> None:
    computed = compute_agreement(printout)
    for name, (published, tolerance) in printout.values.items():
        assert abs(computed[name] - published) <= tolerance, (name, computed[name], published)
