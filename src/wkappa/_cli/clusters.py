"""``--cluster COL``: clustered designs on the command line (``score``, ``compare``,
``agree`` and ``judge``).

Items in one cluster (the two eyes of a patient, the lesions of one scan, the prompts of one
task) are not independent. Each command reads the cluster column with its ratings (one more
key of the counted distinct rows) and hands the ids to the library's own clustered statistic,
so that its numbers are those of the Python API on the same rows. This module is the one
place that defines the option, reads the ids and refuses what a clustered design cannot take:
a missing id (of a row the run keeps: a row dropped for missing ratings needs none, as in
the library), a single cluster, or a cluster column that is also read as ratings, as the item
or as the ``--by`` groups. Every refusal is one line naming ``--cluster`` and its column.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import missing_id_error
from .._frames import check_group_columns
from ..exceptions import WkappaError

__all__ = [
    "add_cluster",
    "check_cluster_column",
    "cluster_codes",
    "cluster_ids",
    "cluster_keys",
    "excluded",
    "group_codes",
    "pivot_with_clusters",
    "refuse_missing_ids",
    "stacked_tables",
    "too_few_clusters",
]


def add_cluster(parser: argparse.ArgumentParser, text: str) -> None:
    """``--cluster COL``: the column of cluster ids; ``text`` says what the command does
    with them."""
    parser.add_argument(
        "--cluster", metavar="COL", help=f"cluster ids (patient, scan, task): {text}"
    )


def check_cluster_column(
    cluster: str | None,
    read: dict[Any, str],
    *,
    by: str | None = None,
    item: tuple[str | None, str] | None = None,
) -> None:
    """Refuse a ``--cluster`` column that is also a column of ratings (``read``: column ->
    the option that names it), the ``--by`` column, or the long layout's ``item`` column
    (``(column, option)``: one item per cluster is the ordinary design)."""
    if cluster is not None:
        check_group_columns([("--by", by), ("--cluster", cluster)], read, item)


def cluster_keys(args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """The ``--cluster`` column as one more key of the counted rows (none without it) and the
    option that names it in a refusal."""
    if not args.cluster:
        return [], {}
    return [args.cluster], {"--cluster": args.cluster}


def pivot_with_clusters(counts: Any, args: argparse.Namespace, where: str) -> tuple[Any, list[str]]:
    """The counted long rows (``--item``, ``--rater``, ``--rating`` and their count) as one
    row per item and a column per rater, by the one pivot of ``frames``; the ``--cluster``
    column is carried along (one id per item, or a refusal naming it). ``where`` names the
    file in a refusal."""
    from .._frames import pivot_long
    from .io import COUNT

    cluster, _ = cluster_keys(args)
    column = f"--cluster column {args.cluster!r}" if args.cluster else None
    return pivot_long(
        counts, args.item, args.rater, args.rating, COUNT, cluster, column, f"{where}: "
    )


def too_few_clusters(name: str, found: int, where: str = "", what: str = "") -> WkappaError:
    """The refusal of fewer than two clusters (``where``: in which ``--by`` group; ``what``:
    which rows count, e.g. "with ratings")."""
    clusters = "cluster" if found == 1 else "clusters"
    return WkappaError(
        f"--cluster column {name!r} has {found} {clusters}{what}{where}; a cluster-robust "
        "standard error and a cluster bootstrap need at least 2. Hint: without clustering, "
        "leave out --cluster."
    )


def _missing(schema: Any, column: str) -> Any:
    """A polars predicate: ``column`` is missing (null, or NaN in a float column)."""
    from .io import polars

    pl = polars()
    found = pl.col(column).is_null()
    return found | pl.col(column).is_nan() if schema[column].is_float() else found


def refuse_missing_ids(
    where: tuple[Any, Any],
    counts: Any,
    name: str,
    unit: str,
    rated: Sequence[str] = (),
    every: bool = True,
) -> None:
    """Refuse a missing ``--cluster`` id (column ``name``) of a row the run keeps, naming its
    file row (``where``: the source and the scan that ``counts``, the counted distinct rows,
    came from). A row the run drops for missing ratings needs no id, as the library's
    ``cluster=`` ignores the id of a pair or item it drops: ``rated`` are the rating
    columns, and a row is dropped without ``every`` one of them (``score``, ``compare`` with
    ``--nan-policy omit``) or, ``every=False``, without any of them (``agree``, ``judge``).
    No ``rated``: every row is kept."""
    from .io import polars
    from .rows import first_row

    pl = polars()
    source, frame = where

    def kept(schema: Any) -> Any:
        present = [~_missing(schema, column) for column in rated]
        if not present:
            return pl.lit(True)
        return pl.all_horizontal(present) if every else pl.any_horizontal(present)

    if not counts.filter(_missing(counts.schema, name) & kept(counts.schema)).height:
        return
    schema = frame.collect_schema()
    row = first_row(frame, _missing(schema, name) & kept(schema))
    error = missing_id_error("--cluster", name, unit=unit)
    raise error if row is None else WkappaError(f"{source.name}, row {row}: {error}")


def _refuse_missing(column: Any, name: str, unit: str) -> None:
    if column.null_count() or (column.dtype.is_float() and bool(column.is_nan().any())):
        raise missing_id_error("--cluster", name, unit=unit)


def cluster_ids(column: Any, name: str, unit: str, kept: Any = None) -> np.ndarray:
    """The ids of a polars ``column`` (one per distinct row of the counts, each of them a
    ``unit``: "row", "item") as an object array, for the library's ``cluster=``; a missing
    id and a single cluster are refused. ``kept`` (a polars boolean Series; None: all) marks
    the rows the library keeps: the others' ids (of items without any rating) are not read."""
    if kept is not None:
        ids = column.to_list()
        what = "" if bool(kept.all()) else " with ratings"
        column = column.filter(kept)
        _refuse_missing(column, name, unit)
        if column.n_unique() < 2:
            raise too_few_clusters(name, column.n_unique(), "", what)
        return np.asarray(ids, dtype=object)
    _refuse_missing(column, name, unit)
    found = column.n_unique()
    if found < 2:
        raise too_few_clusters(name, found)
    return np.asarray(column.to_list(), dtype=object)


def cluster_codes(column: Any, name: str, unit: str) -> tuple[np.ndarray, tuple[Any, ...]]:
    """The cluster of each of a polars ``column``'s rows as codes ``0..G-1`` in the order the
    library gives its clusters (``wkappa.kappa_test(..., cluster=ids)`` on the same ids, so
    that a bootstrap draws the same clusters for a seed), and the G cluster ids. A missing id
    is refused; the caller refuses G < 2 (after dropping rows, it may say which)."""
    from .._stats import read_groups

    _refuse_missing(column, name, unit)
    return read_groups(column, len(column), "cluster")


def excluded(option: str, hint: str = "") -> WkappaError:
    """The refusal of an option that a clustered design does not take."""
    return WkappaError(f"{option} cannot be combined with --cluster.{hint and ' Hint: ' + hint}")


def group_codes(codes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, int]:
    """The clusters of the rows in ``mask`` renumbered ``0..G_group-1`` (their order kept:
    that of the same rows given to the library alone), and G_group."""
    used, renumbered = np.unique(codes[mask], return_inverse=True)
    return renumbered.reshape(-1), len(used)


def stacked_tables(
    codes: np.ndarray,
    n_clusters: int,
    true_index: np.ndarray,
    pred_index: np.ndarray,
    k: int,
    frequency: np.ndarray,
) -> np.ndarray:
    """The (G, K, K) per-cluster tables of counted pairs (``frequency``: each distinct row's
    count or summed weight), float64."""
    flat = (codes.astype(np.int64) * k + true_index) * k + pred_index
    size = n_clusters * k * k
    return np.bincount(flat, weights=frequency, minlength=size).reshape(n_clusters, k, k)
