"""Counting kernels: the only O(n) work in wkappa.

Everything after counting is O(K²). Two statistics are sufficient:

* :func:`count_table` — the K x K table ``O`` of (weighted) counts, for any weights;
* :func:`quadratic_sums` — five running sums, enough for quadratic weights.

:func:`count_table` and :func:`quadratic_sums` take category indices and are vectorised numpy
(no numba: cheap to call on small inputs, and what the other modules build on). Beside them,
imported lazily by :mod:`wkappa._core.fused` and never by ``import wkappa``:

* :mod:`._numba_sums` — fused one-pass QWK kernels on the raw ratings of every integer, bool
  and float dtype: the five sums (exact integers), the range and the NaN / integrality checks
  together, serial or parallel, plus a sample-weighted variant;
* :mod:`._numba_table` — parallel confusion-table kernels with per-thread (sub-)tables;
* :mod:`._grouped` — a (G, K, K) stack of tables by group code in one pass, for
  :func:`wkappa.frames.kappa_by_group` on in-memory frames (imported by
  :mod:`wkappa._frames.grouped_tables`).
"""

from __future__ import annotations

from .numpy_kernels import QuadraticSums, count_table, quadratic_sums, weighted_quadratic_sums

__all__ = ["QuadraticSums", "count_table", "quadratic_sums", "weighted_quadratic_sums"]
