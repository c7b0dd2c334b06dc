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


def test_fleiss_2003_per_category_kappas() -> None:
    # Fleiss, Levin & Paik (2003), Table 18.8, as quoted in R kappaGold's tests: the
    # per-category kappas 0.29, 0.67, 0.35 (two decimals).
    import wkappa as wk
    from published import FLEISS_2003_PER_CATEGORY, FLEISS_2003_TABLE_18_8

    result = wk.agreement_from_counts(FLEISS_2003_TABLE_18_8, coefficient="fleiss")
    computed = list(result.per_category().values())
    assert computed == pytest.approx(FLEISS_2003_PER_CATEGORY, abs=5e-3)
