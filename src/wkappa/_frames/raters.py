"""Several raters in a data frame: distinct rating rows counted inside the engine.

Wide layout (one column per rater): ``group_by(raters).agg(len)`` runs where the data lives
(polars lazy in its streaming engine, DuckDB, pyarrow, pandas, Dask through narwhals) and only
the distinct rows come back. Long layout (one row per rating): its columns are read from the
source once (a lazy frame's collected, persisted or cached for the call, unless a plain scan
reads again for less: :func:`~wkappa._frames.long_counts.read_once`), then the engine codes
each item's row of ratings and counts the items per code (:mod:`~wkappa._frames.long_counts`),
so only the distinct rows come back there too; where that coding does not apply (a rater
twice on an item, NaN ratings, null raters, too many raters or ratings) the ``(item, rater,
rating)`` triples are pivoted here to items x raters (O(items x raters) memory), the raters
in the order of :func:`rater_key`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core import (
    check_label_spellings,
    import_optional,
    is_missing_scalar,
    known_raters,
    missing_id_error,
    rater_names,
    rating_matrix_missing_error,
    to_column,
)
from ..exceptions import WkappaError, WkappaTypeError
from .column_names import STRING_NAMES, check_column, check_padded_ids, check_rater_spellings
from .count import (
    as_polars,
    check_group_columns,
    collected,
    keep_category_orders,
    ordered_categories,
    spark_keys_as_text,
    wrap_frame,
)
from .groups import key_value
from .long_counts import LongFacts, check_item_spellings, long_facts, long_rows, read_once

__all__ = [
    "RaterRows",
    "add_raters",
    "check_long_ids",
    "check_one_rating_each",
    "check_padded_items",
    "check_rater_rows",
    "clustered_ratings",
    "item_ratings",
    "layout_columns",
    "one_group_per_item",
    "panel_ratings",
    "pivot_long",
    "rater_columns",
    "rater_ids",
    "rater_key",
    "rater_rows",
    "refuse_missing_ids",
    "unrated_raters",
]

_COUNT = "__wkappa_count"
_UNRATED = "__wkappa_unrated"


def _native_rows(counted: Any, columns: Sequence[str]) -> Any:
    """The rater columns of the counted rows as an eager frame of the engine's library
    (pandas, polars or pyarrow), dtypes kept: the core reads them as it reads
    ``wkappa.agreement(df)``'s columns (an Enum's or ordered categorical's categories
    included)."""
    return counted.select(list(columns)).to_native()


class RaterRows(NamedTuple):
    """Distinct rating rows of a frame, counted in its engine.

    Attributes
    ----------
    groups : list of (group value, rows, multiplicity, cluster ids)
        One entry (group None) without ``by``; ``rows`` an eager native frame of the rater
        columns, ``multiplicity`` int64 counts, ``cluster ids`` the cluster of each distinct
        row (an object array; None without ``cluster``).
    names : list of str
        The rater columns, in order (the long layout: the rater ids).
    rows, multiplicity
        Every group's rows together (for one set of categories across the groups).
    wide : bool
        Whether the frame has one column per rater (else it is in the long layout).
    """

    groups: list[tuple[Any, Any, np.ndarray, np.ndarray | None]]
    names: list[str]
    rows: Any
    multiplicity: np.ndarray
    wide: bool = True


def rater_rows(
    df: Any,
    *,
    raters: Sequence[str] | None,
    item: str | None,
    rater: str | None,
    rating: str | None,
    by: str | None,
    cluster: str | None = None,
    candidate: str | None = None,
) -> RaterRows:
    """Distinct rating rows of a frame, per group of ``by``, each with its ``cluster`` id
    (the column of cluster ids: a WkappaError for a missing id or value of either, or, in the
    long layout, an item whose rows carry two values of either). ``candidate`` is the
    column among ``raters`` that ``rater_vs_panel`` named by its own parameter: a column
    missing from the frame is refused naming `candidate` rather than `raters`."""
    nw = import_optional("narwhals", "frames")
    frame = wrap_frame(df, "for arrays use wkappa.agreement(ratings).")
    schema = dict(frame.collect_schema())
    if candidate is not None and raters is not None:
        check_column("candidate", candidate, schema)
    also = [(parameter, name) for parameter, name in (("by", by), ("cluster", cluster)) if name]
    groups = [name for _, name in also]
    wide, names = layout_columns(schema, raters, item, rater, rating, also=also)
    check_group_columns(
        [("`by`", by), ("`cluster`", cluster)],
        dict.fromkeys(names, "rater") if wide else {rater: "`rater`", rating: "`rating`"},
        None if wide else (item, "`item`"),
    )
    frame = spark_keys_as_text(frame, schema, groups)
    # The ordered categories of each rater column (long: of the rating column, names[2]).
    orders = [ordered_categories(frame, schema, name) for name in (names if wide else names[2:])]
    if wide:
        counted = collected(
            frame.group_by([*groups, *names], drop_null_keys=False).agg(nw.len().alias(_COUNT))
        )
    else:
        assert item is not None and rater is not None and rating is not None  # checked above
        with read_once(frame, [item, rater, rating, *groups]) as frame:
            facts = long_facts(frame, item, rater, rating)
            refuse_missing_ids(facts.missing, {item: "`item`", rater: "`rater`"})
            if facts.padded_items:
                check_item_spellings(frame, item)
            long = _engine_rows(frame, item, rater, rating, groups, facts)
            if long is None or long[2] is not False:
                # An item whose rows carry two `by` values or two cluster ids would count as
                # one item per value: one query checks both columns, unless the packed count
                # did.
                checked = {
                    name: group_kind(parameter, f"`{parameter}` column {name!r}")
                    for name, parameter in ((by, "by"), (cluster, "cluster"))
                    if name is not None
                }
                one_group_per_item(frame, item, rating, checked)
            if long is not None and long[2] is not True:
                grouped, names = long[0], long[1]
            else:  # (split: a null beside a value, left to the pivot's null group)
                grouped, names = _pivoted(frame, item, rater, rating, groups)
            check_rater_spellings(names, rater)
        counted = nw.from_native(grouped)
    of_rater = dict(zip(names, orders, strict=True)) if wide else dict.fromkeys(names, orders[0])
    counted = keep_category_orders(counted, of_rater)
    if cluster is not None and any(map(is_missing_scalar, counted.get_column(cluster).to_list())):
        raise missing_id_error("`cluster`", cluster, unit="row")
    for parameter, name in also:  # 'site 1' and 'site 1 ': one group or cluster, or two?
        check_padded_ids(counted.get_column(name).to_list(), name, parameter)
    out: list[tuple[Any, Any, np.ndarray, np.ndarray | None]] = []
    parts = [(None, counted)] if by is None else _by_parts(counted, by)
    for value, part in parts:
        ids = None if cluster is None else _key_array(part.get_column(cluster).to_list())
        out.append((value, _native_rows(part, names), _counts(part), ids))
    return RaterRows(out, names, _native_rows(counted, names), _counts(counted), wide)


def _by_parts(counted: Any, by: str) -> list[tuple[Any, Any]]:
    """The rows of each ``by`` group, as a SQL or polars GROUP BY forms them: the values in
    sorted order, then the rows with a missing value (None, NaN, null) as one group of their
    own, keyed None, as :func:`wkappa.frames.kappa_by_group` keeps them (and an interval
    keyed by its text, as there: :func:`~wkappa._frames.groups.key_value`)."""
    rows: dict[Any, list[int]] = {}
    for i, value in enumerate(counted.get_column(by).to_list()):
        rows.setdefault(key_value(value), []).append(i)
    present = sorted(value for value in rows if value is not None)
    keys = [*present, None] if None in rows else present
    return [(value, counted[np.asarray(rows[value], dtype=np.int64)]) for value in keys]


def _key_array(values: list[Any]) -> np.ndarray:
    """The cluster ids as a 1-D object array of :func:`~wkappa._frames.groups.key_value`
    keys (an interval, a tuple, would make numpy add a dimension)."""
    ids = np.empty(len(values), dtype=object)
    ids[:] = [key_value(value) for value in values]
    return ids


def _engine_rows(
    frame: Any,
    item: str,
    rater: str,
    rating: str,
    groups: list[str],
    facts: LongFacts,
) -> tuple[Any, list[str], bool | None] | None:
    """The long layout counted in the engine (:func:`~wkappa._frames.long_counts.long_rows`)
    with, when some rows have no rating (``facts``: the frame's
    :func:`~wkappa._frames.long_counts.long_facts`) and that leaves a rater without any,
    that rater as a column of nulls, as the pivot and the wide layout have it."""
    long = long_rows(frame, item, rater, rating, groups, _COUNT, rater_key, facts)
    if long is None or long[2] is True or not facts.unrated:
        return long
    grouped, names, split = long
    unrated = facts.unrated_raters
    if unrated is None:
        unrated = unrated_raters(frame, rater, rating)
    every = [*names, *unrated]
    grouped = add_raters(grouped, every, grouped.schema[names[0]])
    return grouped, sorted(set(every), key=rater_key), split


def check_rater_rows(
    found: RaterRows, labels: Any, nan_policy: str, *, propagate: bool = True
) -> None:
    """Refuse here what the core would place at a distinct row's position, which means
    nothing to the user (the rows were counted in the engine): two spellings of one label
    and, under ``nan_policy='raise'``, a missing rating (``propagate``: whether the caller
    takes 'propagate', for the hint). A rater is named by its column (the core's
    ``rater_names``) or, in the long layout, by its id."""
    nw = import_optional("narwhals", "frames")
    rows = nw.from_native(found.rows, eager_only=True)
    named = rater_names(found.names, len(found.names)) if found.wide else [
        f"rater {name!r}" for name in found.names
    ]  # fmt: skip
    columns = [
        (label, to_column(rows.get_column(name).to_native(), f"`df` {label}"))
        for label, name in zip(named, found.names, strict=True)
    ]
    into = "in" if found.wide else "from"
    check_label_spellings(columns, labels, where=lambda label, value, at: f"{into} {label}")
    if nan_policy != "raise":
        return
    for label, column in columns:
        if column.missing is not None and column.missing.any():
            n = int(found.multiplicity[column.missing].sum())
            plural = "s" * (n > 1)
            count = f"{n} row{plural}" if found.wide else f"{n} item{plural} without one"
            raise rating_matrix_missing_error("df", f"{label} ({count})", propagate=propagate)


def _pivoted(
    frame: Any, item: str, rater: str, rating: str, groups: list[str]
) -> tuple[Any, list[str]]:
    """The long layout's wide rows by the pivot: the engine counts the (item, rater, rating)
    triples, polars pivots them here."""
    nw = import_optional("narwhals", "frames")
    triples = collected(
        frame.group_by([*groups, item, rater, rating], drop_null_keys=False).agg(
            nw.len().alias(_COUNT)
        )
    )
    return pivot_long(as_polars(triples), item, rater, rating, _COUNT, groups, packed=False)


class GroupKind(NamedTuple):
    """How an error names a column that must be constant within an item."""

    named: str  # the column, as the caller names it (`cluster` column 'task')
    what: str  # one of its values (cluster, group)
    hint: str  # how to fix it
    missing_is_value: bool = False  # a missing value is a group of its own (`by`)


def group_kind(parameter: str, named: str) -> GroupKind:
    """The :class:`GroupKind` of the ``by`` or the ``cluster`` column, named ``named``."""
    if parameter == "by":
        hint = (
            "an item's rows must all carry the same `by` value; give each item one group, or "
            "use the item id together with the group as `item`."
        )
        return GroupKind(named, "group", hint, missing_is_value=True)
    return GroupKind(named, "cluster", "fix the cluster ids of that item's rows.")


def one_group_per_item(frame: Any, item: str, rating: str, columns: dict[str, GroupKind]) -> None:
    """A WkappaError when an item's ratings (a long narwhals frame) carry two values of one of
    ``columns`` (a ``by`` column, a cluster column): it would count as one item per value.
    One ``group_by(item)`` of the distinct (item, *columns) rows checks them all (counting
    rows, not ``n_unique`` per item: Dask's grouped ``n_unique`` adds the counts of the
    partitions an item's rows fall in); only an item found split is looked at again, to name
    the column. Rows with a missing cluster id are left to the caller's check of missing ids;
    a missing ``by`` value is one more value (its own group)."""
    if not columns:
        return
    nw = import_optional("narwhals", "frames")
    rated = frame.filter(
        ~nw.col(rating).is_null(),
        *(~nw.col(c).is_null() for c, kind in columns.items() if not kind.missing_is_value),
    )
    distinct = rated.select(item, *columns).unique()
    split = distinct.group_by(item).agg(nw.len().alias(_COUNT)).filter(nw.col(_COUNT) > 1)
    first = collected(split.head(1))
    if not len(first):
        return
    found = first.get_column(item).to_list()[0]
    rows = collected(distinct.filter(nw.col(item) == found))
    split_in = [c for c in columns if rows.get_column(c).n_unique() > 1]
    kind = columns[(split_in or list(columns))[0]]
    raise WkappaError(
        f"Item {found!r} has ratings in two {kind.what}s of the {kind.named}; every item "
        f"belongs to one {kind.what}, else it counts as one item per {kind.what}. "
        f"Hint: {kind.hint}"
    )


def pivot_long(
    triples: Any,
    item: str,
    rater: str,
    rating: str,
    count: str,
    groups: Sequence[str] = (),
    cluster: str | None = None,
    where: str = "",
    packed: bool = True,
) -> tuple[Any, list[str]]:
    """The long layout's distinct ``(*groups, item, rater, rating)`` rows with their
    ``count`` (a polars DataFrame) as distinct wide rows: ``(*groups, *raters, count)``, the
    raters in :func:`rater_key` order. A null rating is no rating; two ratings of one item by
    one rater are an error. The one pivot of ``frames.agreement`` and ``wkappa agree``.
    With ``cluster`` (how the caller names its cluster column, the one of ``groups``) an
    item whose rows carry two cluster ids is an error: it would count as two items.
    ``where`` starts the messages about the rows (the command line's file name).

    With ``packed`` the rows are first counted as ``frames.agreement`` counts a polars
    frame (:func:`~wkappa._frames.long_counts.long_rows`: each item's ratings coded as one
    integer, the items counted per code), which needs no items x raters table; the pivot
    runs only where that count does not apply, and reports what it refuses."""
    pl = import_optional("polars", "frames")
    every = rater_ids(triples, rater, where)
    check_padded_items(triples, item, where)
    if packed:
        counted = _packed_pivot(triples, item, rater, rating, count, groups, cluster)
        if counted is not None:
            wide_frame, names = counted
            wide_frame = add_raters(wide_frame, every, triples.schema[rating])
            names = sorted({*names, *every}, key=rater_key)
            return wide_frame.select(*groups, *names, count), names
    local = triples.filter(pl.col(rating).is_not_null())
    if cluster is not None:
        nw = import_optional("narwhals", "frames")
        kind = group_kind("cluster", cluster)
        one_group_per_item(nw.from_native(local), item, rating, {groups[0]: kind})
    check_one_rating_each(local, item, rater, count, groups, where)
    local = local.with_columns(pl.col(rater).cast(pl.String))
    wide_frame = local.pivot(on=rater, index=[*groups, item], values=rating)
    # A rater whose every rating is null is a column of nulls, as in the wide layout.
    wide_frame = add_raters(wide_frame, every, triples.schema[rating])
    # The pivot's columns come in the order the engine returned the raters: sort them so
    # that pairwise() and leave_one_rater_out() have a fixed order.
    names = sorted((c for c in wide_frame.columns if c not in (*groups, item)), key=rater_key)
    return wide_frame.group_by([*groups, *names]).len(name=count), names


def _packed_pivot(
    triples: Any,
    item: str,
    rater: str,
    rating: str,
    count: str,
    groups: Sequence[str],
    cluster: str | None,
) -> tuple[Any, list[str]] | None:
    """:func:`pivot_long`'s wide rows by the engine count of the distinct triples, the
    raters who rated something only; None where that count does not apply or the rows are
    refused (a row counted twice is a rating repeated, two cluster ids on an item): the
    pivot then counts or refuses them."""
    pl = import_optional("polars", "frames")
    nw = import_optional("narwhals", "frames")
    if triples.height == 0 or (triples.get_column(count) > 1).any():
        return None
    frame = nw.from_native(triples.drop(count))
    facts = long_facts(frame, item, rater, rating)
    if any(facts.missing.values()):
        return None
    long = long_rows(frame, item, rater, rating, groups, count, rater_key, facts)
    if long is None or long[2] is True or (cluster is not None and long[2] is not False):
        return None
    wide, names, _ = long
    return wide.with_columns(pl.col(count).cast(pl.UInt32)), names


def _repeated_rating(
    rows: Any, item: str, rater: str, count: str | None = None, groups: Sequence[str] = ()
) -> tuple[Any, Any, int] | None:
    """The first ``(item, rater, times)`` of a rater who rated an item more than once in the
    long layout's ``rows`` (a polars DataFrame; ``count``: the column of how many times each
    row stands, if the rows are distinct ones), or None."""
    pl = import_optional("polars", "frames")
    times = pl.col(count).sum() if count is not None else pl.len()
    repeated = rows.group_by([*groups, item, rater]).agg(times.alias(_COUNT))
    repeated = repeated.filter(pl.col(_COUNT) > 1)
    if not repeated.height:
        return None
    row = repeated.row(0, named=True)
    return row[item], row[rater], int(row[_COUNT])


def check_one_rating_each(
    rows: Any,
    item: str,
    rater: str,
    count: str | None = None,
    groups: Sequence[str] = (),
    where: str = "",
) -> None:
    """A WkappaError when one rater rated one item twice; ``where``
    starts the message (the command line's file name)."""
    found = _repeated_rating(rows, item, rater, count, groups)
    if found is not None:
        raise WkappaError(
            f"{where}Rater {found[1]!r} rated item {found[0]!r} more than once ({found[2]} "
            "ratings); the long layout needs one rating per item and rater. Hint: average or "
            "drop the repeats."
        )


def check_long_ids(frame: Any, ids: dict[str, str], rating: str) -> int:
    """A WkappaError when a rating of the long layout has no item or no rater id (null, or
    NaN in a float column): the pivot would make it an item, or a rater named "null", of its
    own. ``frame`` is a native or narwhals frame (lazy: one aggregation in the engine);
    ``ids`` maps the item and rater columns to how the caller names them (`` `item` ``,
    ``--rater``). Returns how many rows have no rating (null), from the same aggregation:
    only then can a rater be without any rating (:func:`unrated_raters`)."""
    nw = import_optional("narwhals", "frames")
    if not isinstance(frame, (nw.DataFrame, nw.LazyFrame)):
        frame = nw.from_native(frame)
    schema = frame.collect_schema()
    rated = ~nw.col(rating).is_null()
    sums = []
    for column in ids:
        missing = nw.col(column).is_null()
        if schema[column].is_float():
            missing = missing | nw.col(column).is_nan()
        sums.append((missing & rated).cast(nw.Int64).sum().alias(column))
    sums.append((~rated).cast(nw.Int64).sum().alias(_UNRATED))
    found = collected(frame.select(*sums))
    refuse_missing_ids({column: found.get_column(column).to_list()[0] for column in ids}, ids)
    return int(found.get_column(_UNRATED).to_list()[0] or 0)


def refuse_missing_ids(missing: dict[str, Any], ids: dict[str, str]) -> None:
    """The error of :func:`check_long_ids` for the first of the ``ids`` columns (column ->
    how the caller names it) with a rating but no id (``missing``: column -> how many)."""
    for column, parameter in ids.items():
        if missing[column]:
            raise missing_id_error(parameter, column, unit="rating")


def _named(rater: str, is_float: bool, nw: Any) -> Any:
    """The rows that name their rater (not null, nor NaN in a float column)."""
    named = ~nw.col(rater).is_null()
    return named & ~nw.col(rater).is_nan() if is_float else named


def check_padded_items(triples: Any, item: str, where: str = "") -> None:
    """:func:`~wkappa._frames.long_counts.check_item_spellings` of the long layout's rows (a
    polars DataFrame) when an item id has surrounding whitespace."""
    pl = import_optional("polars", "frames")
    if triples.schema[item] == pl.String:
        ids = triples.get_column(item)
        if (ids != ids.str.strip_chars()).any():
            nw = import_optional("narwhals", "frames")
            check_item_spellings(nw.from_native(triples), item, where)


def rater_ids(triples: Any, rater: str, where: str = "") -> list[str]:
    """Every rater of the long layout's rows (a polars DataFrame), rated or not, as the pivot
    names them (text); a row without its rater (null, NaN) names none. Two spellings of one
    id are refused (:func:`check_rater_spellings`; ``where`` starts the message)."""
    pl = import_optional("polars", "frames")
    named = _named(rater, triples.schema[rater].is_float(), pl)
    ids = triples.filter(named).get_column(rater).cast(pl.String).unique()
    return check_rater_spellings(sorted(ids.to_list(), key=rater_key), rater, where)


def unrated_raters(frame: Any, rater: str, rating: str) -> list[str]:
    """The raters of a long narwhals frame whose every rating is null, as the pivot names
    them (text): raters without any rating, as a wide layout's column of nulls. One
    ``group_by(rater)`` in the engine (the caller runs it only when a rating is null)."""
    nw = import_optional("narwhals", "frames")
    pl = import_optional("polars", "frames")
    named = _named(rater, frame.collect_schema()[rater].is_float(), nw)
    rated = (~nw.col(rating).is_null()).cast(nw.Int64).alias(_COUNT)
    per_rater = frame.filter(named).with_columns(rated).group_by(rater).agg(nw.col(_COUNT).sum())
    found = collected(per_rater.filter(nw.col(_COUNT) == 0).select(rater))
    ids: list[str] = pl.Series(found.get_column(rater).to_list()).cast(pl.String).to_list()
    return ids


def add_raters(wide: Any, raters: Sequence[str], dtype: Any) -> Any:
    """The wide polars frame ``wide`` with a column of nulls (of ``dtype``) for each of
    ``raters`` it lacks: a rater of the long layout without any rating is kept, as the wide
    layout keeps a column of nulls (``n_raters``, ``pairwise()`` and
    ``leave_one_rater_out()`` then agree between the layouts)."""
    pl = import_optional("polars", "frames")
    lacking = [name for name in dict.fromkeys(raters) if name not in wide.columns]
    if not lacking:
        return wide
    return wide.with_columns(pl.lit(None, dtype=dtype).alias(name) for name in lacking)


def layout_columns(
    schema: dict[str, Any],
    raters: Any,
    item: Any,
    rater: Any,
    rating: Any,
    also: Sequence[tuple[str, str]] = (),
) -> tuple[bool, list[str]]:
    """Whether the layout is wide, and the columns it reads: ``raters`` (wide) or ``item``,
    ``rater`` and ``rating`` (long, all three needed), each a column of the frame's
    ``schema``, as are the ``also`` columns (groups, each with its parameter's name)."""
    wide = is_wide(raters, item, rater, rating)
    if wide:
        names = rater_columns(raters)
        parameters = ["raters"] * len(names)
    elif item is None or rater is None or rating is None:
        raise WkappaError("The long layout needs all of `item`, `rater` and `rating`.")
    else:
        names = [item, rater, rating]
        parameters = ["item", "rater", "rating"]
    for parameter, name in [*also, *zip(parameters, names, strict=True)]:
        if not isinstance(name, str):
            named = any(type(column) is type(name) and column == name for column in schema)
            raise WkappaTypeError(
                f"`{parameter}` must name its columns by strings; got {name!r}."
                + (f" Hint: {STRING_NAMES}" if named else "")
            )
        check_column(parameter, name, schema)
    return wide, names


def is_wide(raters: Any, item: Any, rater: Any, rating: Any) -> bool:
    """Whether the layout is wide (``raters`` given) rather than long (the ``item``,
    ``rater`` and ``rating`` columns); both or neither is an error, and so is one column
    named twice in the long layout."""
    long = (item, rater, rating)
    wide = raters is not None
    if wide == any(name is not None for name in long):
        raise WkappaError(
            "Give either `raters` (one column per rater) or `item`, `rater` and `rating` "
            "(one row per rating)."
        )
    named = [name for name in long if name is not None]
    if len(set(named)) < len(named):
        raise WkappaError(
            "`item`, `rater` and `rating` must name three different columns; got "
            f"{', '.join(repr(name) for name in long)}."
        )
    return wide


def rater_columns(raters: Sequence[str], parameter: str = "`raters`") -> list[str]:
    """The wide layout's rater columns as a list: at least two, none named twice (one string
    is an error, not a list of its characters). ``parameter`` is how the caller names the
    list (``--raters`` on the command line)."""
    if isinstance(raters, (str, bytes)):
        # 'a,b,c' (the command line's spelling): the list it means.
        listed = isinstance(raters, str) and "," in raters
        hint = [n.strip() for n in str(raters).split(",")] if listed else f"[{raters!r}, ...]"
        raise WkappaTypeError(
            f"`raters` must be a list of column names, one per rater; got the string "
            f"{raters!r}. Hint: raters={hint!s}."
        )
    names = list(raters)
    if len(names) < 2:
        raise WkappaError(f"{parameter} needs at least two columns.")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise WkappaError(
                f"{parameter} names the column {name!r} twice; each rater is one column. "
                "Hint: list each rater column once."
            )
        seen.add(name)
    return names


def rater_key(name: str) -> tuple[int, int, str]:
    """Sort key of rater names: integers in numeric order, then the rest as text."""
    text = name.strip()
    if text.lstrip("-").isdigit():
        return (0, int(text), name)
    return (1, 0, name)


def _counts(counted: Any) -> np.ndarray:
    return np.asarray(counted.get_column(_COUNT).to_numpy(), dtype=np.int64)


def panel_ratings(found: RaterRows, candidate: str) -> tuple[Any, Any, np.ndarray | None]:
    """The panel's items x raters frame, the candidate's column and each item's cluster id
    (None without ``cluster``), rebuilt from the distinct rows (each repeated by its
    multiplicity): what :func:`wkappa.rater_vs_panel` takes, as native frames and series
    (see :func:`clustered_ratings`)."""
    if candidate not in found.names:
        shown = ", ".join(repr(n) for n in found.names[:12])
        raise WkappaError(f"`candidate` {candidate!r} is not a rater of `df`; its raters: {shown}.")
    panel = [n for n in found.names if n != candidate]
    if len(panel) < 2:
        raise WkappaError(
            f"The panel needs at least two raters besides `candidate` {candidate!r}; `df` "
            f"has {len(panel)} ({', '.join(repr(n) for n in panel) or 'none'}). Hint: name "
            "two or more panel members (`raters=` for a wide frame), or compare the candidate "
            "with one reference by wkappa.frames.kappa_test."
        )
    ((_, rows, counts, ids),) = found.groups
    items = _expanded(rows, counts)
    column = items.get_column(candidate).to_native()
    members = known_raters(items.select(panel).to_native(), not found.wide)
    return members, column, None if ids is None else np.repeat(ids, counts)


def clustered_ratings(
    rows: Any, multiplicity: np.ndarray, ids: np.ndarray, names: list[str], long: bool = False
) -> tuple[Any, np.ndarray]:
    """The items x raters frame of one group's distinct rows (each repeated by its
    multiplicity) and the cluster id of each item: what ``agreement(..., cluster=)`` takes.
    The frame is of the engine's library with its dtypes, so the core reads it as it reads
    the rows without ``cluster`` (an Enum's categories, messages naming the columns, or with
    ``long`` the long layout's rater ids, and ``df``, the parameter of ``wkappa.frames``)."""
    return item_ratings(rows, multiplicity, names, long), np.repeat(ids, multiplicity)


def item_ratings(rows: Any, multiplicity: np.ndarray, names: list[str], long: bool = False) -> Any:
    """The items x raters frame of one group's distinct rows, each repeated by its
    multiplicity, read as :func:`clustered_ratings` reads it: for the array functions that
    take no ``multiplicity`` (:func:`wkappa.krippendorff_alpha`)."""
    items = _expanded(rows, multiplicity).select(list(names))
    return known_raters(items.to_native(), long, "df")


def _expanded(native_rows: Any, multiplicity: np.ndarray) -> Any:
    """Distinct rows, each repeated by its multiplicity, as a narwhals eager frame."""
    nw = import_optional("narwhals", "frames")
    rows = nw.from_native(native_rows, eager_only=True)
    return rows[np.repeat(np.arange(len(rows)), np.asarray(multiplicity, dtype=np.int64))]
