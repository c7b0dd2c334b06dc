"""Counting kernels: the only O(n) work in wkappa (design §4).

Everything after counting is O(K²). Two statistics are sufficient:

* :func:`count_table` — the K x K table ``O`` of (weighted) counts, for any weights;
* :func:`quadratic_sums` — five running sums, enough for quadratic weights.

This package is the one interface the public functions count through, so faster kernels can
replace the vectorised numpy ones here without touching the API.
"""

from __future__ import annotations

from ._numpy import QuadraticSums, count_table, quadratic_sums

__all__ = ["QuadraticSums", "count_table", "quadratic_sums"]
