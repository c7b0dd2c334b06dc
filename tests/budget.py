"""Example budgets of the heavy property tests: the full count in ``make test`` (CI), a tenth
in ``make test-fast``, which sets ``WKAPPA_TEST_FAST=1`` (the inner loop while editing)."""

from __future__ import annotations

import os

FAST = os.environ.get("WKAPPA_TEST_FAST") == "1"


def examples(n: int) -> int:
    """``n`` hypothesis examples, or a tenth of them (at least 10) in the fast loop."""
    return max(10, n // 10) if FAST else n
