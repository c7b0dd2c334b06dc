"""``explain()`` described Krippendorff's observed agreement as the plain mean over items of
the share of agreeing pairs, which it is not: ``pa = (1 - e) pa' + e``, ``pa'`` weighting each
item by its ratings ``r_i / mean r`` and ``e = 1 / n`` the pairable ratings (Gwet 2014)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import wkappa as wk

# Three items with 3, 2 and 3 ratings: the plain mean of the agreeing pairs' shares is
# (1/3 + 1 + 1) / 3 = 7/9; Krippendorff's pa is (1 - 1/8) pa' + 1/8 with pa' weighting the
# items by r_i / mean r = 3/(8/3), 2/(8/3), 3/(8/3).
RATINGS = [[1, 1, 2], [2, 2, None], [3, 3, 3]]


def test_krippendorff_observed_agreement_and_its_words() -> None:
    result = wk.agreement(RATINGS, coefficient="krippendorff")
    shares = [Fraction(1, 3), Fraction(1), Fraction(1)]
    ratings = [3, 2, 3]
    mean_r = Fraction(sum(ratings), 3)
    pa_prime = sum(s * r / mean_r for s, r in zip(shares, ratings, strict=True)) / 3
    e = Fraction(1, sum(ratings))
    assert result.percent_agreement == pytest.approx(float((1 - e) * pa_prime + e), abs=1e-12)
    text = result.explain()
    assert "(1 - e) pa' + e" in text
    assert "r_i / mean r" in text
    fleiss = wk.agreement(RATINGS, coefficient="fleiss").explain()
    assert "(1 - e) pa' + e" not in fleiss
    assert "mean over items with two ratings or more" in fleiss
