"""``StratifiedKappaResult.to_dict()`` with strata at perfect agreement: one
PerfectAgreementWarning naming them, as the grouped results' warnings do, not one unnamed
warning per stratum."""

from __future__ import annotations

import warnings

import pytest

import wkappa as wk
from wkappa.exceptions import PerfectAgreementWarning, UndefinedKappaWarning

# Strata 'a' and 'c' agree perfectly; 'b' does not.
Y_TRUE = [0, 1, 2, 0, 1, 2] * 3
Y_PRED = [0, 1, 2, 0, 1, 2, 0, 2, 1, 1, 1, 2, 0, 1, 2, 0, 1, 2]
STRATA = ["a"] * 6 + ["b"] * 6 + ["c"] * 6


def _result(**options):
    with warnings.catch_warnings():  # (the strata left out of the test of equal kappas)
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        return wk.stratified_kappa_test(Y_TRUE, Y_PRED, strata=STRATA, **options)


@pytest.mark.parametrize("pooling", ["inverse-variance", "pairs"])
def test_to_dict_warns_once_naming_the_perfect_strata(pooling):
    result = _result(pooling=pooling)
    with pytest.warns(PerfectAgreementWarning) as caught:
        document = result.to_dict()
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("strata 'a', 'c': The 'asymptotic' interval is [1, 1]")
    assert caught[0].filename == __file__  # at the caller's to_dict()
    assert [s["confidence_interval"]["low"] for s in document["strata"]][::2] == [1.0, 1.0]


def test_to_dict_without_perfect_strata_does_not_warn():
    result = wk.stratified_kappa_test(
        Y_TRUE[6:12] * 2, Y_PRED[6:12] * 2, strata=["a"] * 6 + ["b"] * 6
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [s["stratum"] for s in result.to_dict()["strata"]] == ["a", "b"]
