"""The reasons tests/published.py gives for a printout wkappa does not reproduce, checked:
Fleiss, Levin & Paik (2003) Table 18.7 is Fleiss & Cuzick's (1979) estimator, which differs
from wkappa's Fleiss kappa only through the varying numbers of ratings per subject."""

from __future__ import annotations

import math

import pytest

import wkappa as wk
from published import FLEISS_2003_TABLE_18_7, FLEISS_2003_TABLE_18_7_PRINTED, NOT_REPRODUCED


def fleiss_cuzick(rows: list[tuple[int, int]]) -> tuple[float, float]:
    """Fleiss & Cuzick (1979): kappa and its SE under H0 for binary ratings, m_i per subject."""
    n = len(rows)
    m_bar = sum(m for m, _ in rows) / n
    m_harmonic = n / sum(1 / m for m, _ in rows)
    p = sum(x for _, x in rows) / sum(m for m, _ in rows)
    pq = p * (1 - p)
    kappa = 1 - sum(x * (m - x) / m for m, x in rows) / (n * (m_bar - 1) * pq)
    spread = 2 * (m_harmonic - 1) + (m_bar - m_harmonic) * (1 - 4 * pq) / (m_bar * pq)
    return kappa, math.sqrt(spread) / ((m_bar - 1) * math.sqrt(n * m_harmonic))


def test_table_18_7_is_fleiss_cuzick_not_wkappas_fleiss() -> None:
    kappa, se0 = fleiss_cuzick(FLEISS_2003_TABLE_18_7)
    printed = FLEISS_2003_TABLE_18_7_PRINTED
    assert kappa == pytest.approx(printed["kappa"], abs=5e-3)
    assert se0 == pytest.approx(printed["standard_error_null"], abs=5e-4)
    assert printed["kappa"] / printed["standard_error_null"] == pytest.approx(
        printed["zscore"], abs=5e-3
    )  # the book's z is its rounded kappa over its rounded SE
    counts = [[x, m - x] for m, x in FLEISS_2003_TABLE_18_7]
    ours = wk.agreement_from_counts(counts, coefficient="fleiss").statistic
    assert ours == pytest.approx(0.5620, abs=5e-5)
    assert abs(ours - printed["kappa"]) > 0.02
    assert "0.5620" in NOT_REPRODUCED[0].reason and "0.5415" in NOT_REPRODUCED[0].reason
    assert kappa == pytest.approx(0.5415, abs=5e-5)


def test_fleiss_cuzick_is_wkappas_fleiss_with_equal_numbers_of_ratings() -> None:
    rows = [(4, x) for _, x in FLEISS_2003_TABLE_18_7 if x <= 4]
    counts = [[x, m - x] for m, x in rows]
    ours = wk.agreement_from_counts(counts, coefficient="fleiss").statistic
    assert ours == pytest.approx(fleiss_cuzick(rows)[0], rel=1e-12)
