"""Engine-side counting and grouping behind :mod:`wkappa.frames`: pair counts computed in the
data frame engine (narwhals), group keys, and the in-memory grouped tables."""

from __future__ import annotations

from .count import (
    FrameInput,
    PairCounts,
    count_pairs,
    encode_counts,
    frame_input,
    missing_mask,
    pair_quadratic_sums,
    raise_missing,
    scatter_table,
)
from .grouped_tables import GroupTables, in_memory_group_tables
from .groups import check_by, check_groups_table_size, group_ids, group_statistics, result_frame

__all__ = [
    "FrameInput",
    "GroupTables",
    "PairCounts",
    "check_by",
    "check_groups_table_size",
    "count_pairs",
    "encode_counts",
    "frame_input",
    "group_ids",
    "group_statistics",
    "in_memory_group_tables",
    "missing_mask",
    "pair_quadratic_sums",
    "raise_missing",
    "result_frame",
    "scatter_table",
]

# Several raters (appended).
from .raters import pivot_long, rater_key, rater_rows

__all__ += ["pivot_long", "rater_key", "rater_rows"]

# The two-rater tables of a frame (moved out of wkappa.frames).
from .pair_tables import core_columns, engine_group_tables, frame_table, labels_for, no_empty_table  # noqa: E402  # noqa: E402

__all__ += ["core_columns", "engine_group_tables", "frame_table", "labels_for", "no_empty_table"]
