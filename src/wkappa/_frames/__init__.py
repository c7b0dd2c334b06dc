"""The frames engine behind :mod:`wkappa.frames`, by subject.

* :mod:`.count`: wrap a frame (narwhals), check its column names (a grouping column must not
  be a rating column), count the distinct rating pairs in the engine and encode them with the
  core's rules.
* :mod:`.pair_tables`: two rating columns as one K x K table (or the QWK sums), in this
  process for an eager numeric frame, in the engine otherwise.
* :mod:`.by_group`, :mod:`.groups`, :mod:`.grouped_tables` (+ :mod:`.grouped_kernels`): the
  (G, K, K) tables of ``kappa_by_group``, their statistics and the result frame.
* :mod:`.raters`: several raters, wide or long layout, as distinct rating rows.
* :mod:`.triples`: the truth and two predictions (``paired_kappa_test``) as distinct rows.
* :mod:`.keywords`: the calling convention (the frame, then keywords), and a column of
  lists or dicts in a pandas object column named in the error.
* :mod:`.numeric`: numeric ratings (ICC, CCC): moments in the engine, or a float matrix.

It imports the core only; the statistics of ``wkappa._stats`` are applied by
:mod:`wkappa.frames`.
"""

from __future__ import annotations

from .by_group import (
    check_group_options,
    clustered_group_columns,
    group_columns,
    group_names,
    tables_of_groups,
)
from .count import check_group_columns, frame_input
from .groups import check_by, group_statistics, named_group_warnings, result_frame
from .keywords import names_as_keywords
from .numeric import NumericFrame, RaterMoments, icc_input, numeric_frame, numeric_matrix
from .pair_tables import frame_kappa, frame_table, no_empty_table
from .raters import (
    add_raters,
    check_long_ids,
    check_one_rating_each,
    check_rater_rows,
    clustered_ratings,
    item_ratings,
    panel_ratings,
    pivot_long,
    rater_columns,
    rater_ids,
    rater_key,
    rater_rows,
)
from .triples import Triples, count_triples

__all__ = [
    "NumericFrame",
    "RaterMoments",
    "Triples",
    "add_raters",
    "check_by",
    "check_group_columns",
    "check_group_options",
    "check_long_ids",
    "check_one_rating_each",
    "check_rater_rows",
    "clustered_group_columns",
    "clustered_ratings",
    "count_triples",
    "frame_input",
    "frame_kappa",
    "frame_table",
    "group_columns",
    "group_names",
    "group_statistics",
    "icc_input",
    "item_ratings",
    "named_group_warnings",
    "names_as_keywords",
    "no_empty_table",
    "numeric_frame",
    "numeric_matrix",
    "panel_ratings",
    "pivot_long",
    "rater_columns",
    "rater_ids",
    "rater_key",
    "rater_rows",
    "result_frame",
    "tables_of_groups",
]
