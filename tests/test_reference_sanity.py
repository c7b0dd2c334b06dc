"""The Fraction reference itself reproduces seed 000's worked example exactly (7/22)."""

from __future__ import annotations

from fractions import Fraction

from reference import reference_kappa


def test_reference_reproduces_seed_000() -> None:
    actuals = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
    preds = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]
    assert reference_kappa(actuals, preds, 5, "quadratic") == Fraction(7, 22)
