"""The file of several raters that ``wkappa agree`` and ``wkappa judge`` read, wide (a column
per rater) or long (``--item``, ``--rater``, ``--rating``): its rows counted, with the
``--item`` and ``--cluster`` ids they need checked and, under ``--nan-policy raise``, the
first missing rating refused. What each command does next (a long file's pivot, its own
refusals) is its own."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from .._core import format_value, missing_id_error
from .._frames import check_one_rating_each
from ..exceptions import WkappaError
from .clusters import check_cluster_column, cluster_keys, pivot_with_clusters, refuse_missing_ids
from .ids import refuse_duplicate_items, strip_ids, text_ids, wide_items
from .io import COUNT, Source, polars
from .missing import blank_is_missing
from .rows import first_row, repeated_rows, row_value
from .tables import CountedFile, count_long, count_wide, refuse_missing

__all__ = [
    "count_raters_long",
    "count_raters_wide",
    "pivot_raters_long",
    "refuse_label_lists",
    "refuse_repeated_ratings",
]


def count_raters_wide(
    source: Source,
    args: argparse.Namespace,
    read_as: dict[str, str],
    named: dict[str, str],
    labels: Sequence[Any] | None,
    omit: str,
) -> tuple[Any, int, CountedFile]:
    """The counted rows of a wide file's rater columns (``read_as``: each column and the
    option that gives it; ``named``: the option, as a refusal names it, and its column), the
    rows without any rating and the counted file (:func:`.tables.count_wide`).

    Refused: an ``--item`` that is a rater column too or an id two rows share, a ``--cluster``
    column that is a rater column or a missing cluster id of a rated item and, under
    ``--nan-policy raise``, the first missing rating (``omit`` says what ``--nan-policy omit``
    does, in the hint).
    """
    raters = list(read_as)
    items = wide_items(args.item, read_as)
    check_cluster_column(args.cluster, read_as, item=(args.item, "--item"))
    _, extra = cluster_keys(args)
    counts, empty, file = count_wide(source, args, raters, named, labels, {**extra, **items})
    refuse_label_lists(source, file.frame, counts, raters)
    if args.item:  # one row per item: an id that two rows share is refused
        refuse_duplicate_items(source, file.frame, counts, args.item, raters, COUNT)
    if args.cluster:  # an item without any rating is left out: it needs no id
        where = (source, file.frame)
        refuse_missing_ids(where, counts, args.cluster, "item", raters, every=False)
    if args.nan_policy == "raise":
        refuse_missing(file, raters, omit)
    return counts, empty, file


def count_raters_long(
    source: Source, args: argparse.Namespace, labels: Sequence[Any] | None, omit: str
) -> tuple[Any, int, CountedFile]:
    """The counted (``--item``, ``--rater``, ``--rating``) triples of a long file, with their
    ``--cluster`` ids, the rows without a rating and the counted file
    (:func:`.tables.count_long`), before the pivot to one row per item.

    Refused: a ``--cluster`` column that is another option's, a missing cluster id of a row
    with a rating and, under ``--nan-policy raise``, the first missing rating (``omit`` as in
    :func:`count_raters_wide`).
    """
    check_cluster_column(
        args.cluster, {args.rater: "--rater", args.rating: "--rating"}, item=(args.item, "--item")
    )
    _, extra = cluster_keys(args)
    try:
        counts, missing, file = count_long(source, args, labels, extra)
    except WkappaError as exc:
        raise _missing_id_row(source, args, exc) from None
    refuse_label_lists(source, file.frame, counts, [args.rating])
    if args.cluster:  # a row without its rating is left out: it needs no id
        refuse_missing_ids((source, file.frame), counts, args.cluster, "item", [args.rating])
    if args.nan_policy == "raise":
        refuse_missing(file, [args.rating], omit)
    return counts, missing, file


def pivot_raters_long(
    source: Source, file: CountedFile, counts: Any, args: argparse.Namespace
) -> tuple[Any, list[str]]:
    """The counted long triples of :func:`count_raters_long` as one row per item
    (:func:`.clusters.pivot_with_clusters`). A rater who rated an item twice is refused for
    the first such pair in the file, with its file rows (:func:`refuse_repeated_ratings`),
    looked for only when the pivot refuses the rows."""
    try:
        return pivot_with_clusters(counts, args, source.name)
    except WkappaError:
        rated = polars().col(args.rating).is_not_null()  # a null rating is no rating
        refuse_repeated_ratings(source, file.frame, counts.filter(rated), args, rated, COUNT)
        raise


def refuse_label_lists(source: Source, frame: Any, counts: Any, columns: Sequence[str]) -> None:
    """Refuse a text rating that is a JSON list or object holding no label or several (an
    annotation tool's multi-choice answer, ``["SPORTS","POLITICS"]``, or an empty selection,
    ``[]``, exported as one cell), naming its row: each distinct cell would count as one
    category, a combination or "nothing" among the labels. A cell holding one label
    (``["SPORTS"]``, Label Studio's ``[{"choices": ["Positive"]}]``) is one category, as it
    is. ``counts`` holds every distinct value of ``columns``; ``frame`` is the scan, for the
    row."""
    pl = polars()
    for column in dict.fromkeys(columns):
        if counts.schema[column] != pl.String:
            continue
        for value in counts[column].drop_nulls().unique(maintain_order=True):
            found = _labels_in(value)
            if found is None or found == 1:
                continue
            row = first_row(frame, pl.col(column) == value)
            at = "" if row is None else f", row {row}"
            what = "no label (an empty selection)" if found == 0 else f"{found} labels"
            fix = (
                f"declare it missing, --na-values '{value.strip()}'"
                if found == 0
                else "score each label as a yes/no column of its own (a multi-label task)"
            )
            raise WkappaError(
                f"{source.name}{at}: column {column!r} has the rating {value!r}, a list of "
                f"{what} as an annotation tool exports a multi-choice answer; each distinct "
                "list would count as a category of its own. Hint: export one label per "
                f"rating, or {fix}."
            )


def _labels_in(value: str) -> int | None:
    """How many labels a cell written as a JSON list or object holds (its strings, numbers
    and booleans, at any depth); None when it is not one."""
    text = value.strip()
    if (text[:1], text[-1:]) not in (("[", "]"), ("{", "}")):
        return None
    try:
        parsed = json.loads(text)
    except ValueError:
        return None

    def leaves(node: Any) -> int:
        if isinstance(node, list):
            return sum(leaves(v) for v in node)
        if isinstance(node, dict):
            return sum(leaves(v) for v in node.values())
        return 0 if node is None else 1

    return leaves(parsed)


def _missing_id_row(source: Source, args: argparse.Namespace, error: WkappaError) -> WkappaError:
    """``error`` naming the file row of the missing ``--item`` or ``--rater`` id it reports
    (the first row with a rating but no id) and its rating: a long export's last row is
    often a total or a summary, with a number in the rating column and no ids; ``error`` as
    it is when it reports something else or no such row is found."""
    pl = polars()
    ids = {args.item: "--item", args.rater: "--rater"}
    for column, option in ids.items():
        if str(error) != str(missing_id_error(option, column, unit="rating")):
            continue
        frame = strip_ids(source, source.scan([args.rating, *text_ids(source, ids)]), ids)
        frame = blank_is_missing(frame, source.schema(frame), [args.rating])
        row = first_row(frame, pl.col(column).is_null() & pl.col(args.rating).is_not_null())
        if row is None:
            break
        rating = row_value(frame, row, args.rating)
        rating = rating.strip() if isinstance(rating, str) else rating
        return WkappaError(
            f"{source.name}, row {row}: {option} column {column!r} has a missing id (an "
            f"empty cell) beside the rating {format_value(rating)}. Hint: every rating needs "
            "its id; fill it in, or delete the row (a total or summary row at the end of an "
            "export is no rating)."
        )
    return error


def refuse_repeated_ratings(
    source: Source,
    frame: Any,
    rows: Any,
    args: argparse.Namespace,
    rated: Any,
    count: str | None = None,
) -> None:
    """Refuse a rater who rated an item twice in the long layout's ``rows`` (a polars
    DataFrame of ``--item``, ``--rater``, ``--rating``; ``count``: its column of how many
    file rows each stands for, if they are counted), as the library's pivot refuses it
    (``check_one_rating_each``), for the first such (item, rater) in the file, whose file
    rows end the message: the rows of the scan ``frame`` that match ``rated`` (a polars
    predicate: the rows the library counts as ratings), the first :data:`_SHOWN_ROWS`."""
    pl = polars()
    where = f"{source.name}: "
    try:
        check_one_rating_each(rows, args.item, args.rater, count, where=where)
    except WkappaError:
        found = repeated_rows(frame, [args.item, args.rater], rated, _SHOWN_ROWS + 1)
        if found is None:
            raise
        (item, rater), lines = found
        shown = [str(line) for line in lines[:_SHOWN_ROWS]]
        last = "more" if len(lines) > _SHOWN_ROWS else shown.pop()
        pair = pl.col(args.item).eq_missing(item) & pl.col(args.rater).eq_missing(rater)
        try:
            check_one_rating_each(rows.filter(pair), args.item, args.rater, count, where=where)
        except WkappaError as exc:
            message = str(exc).rstrip(".")
            raise WkappaError(f"{message} (rows {', '.join(shown)} and {last}).") from None
        raise  # the file's first repeated pair is not among ``rows``: no row is named


# How many file rows of a repeated rating a refusal names.
_SHOWN_ROWS = 5
