"""From counted key tuples to K x K tables, with errors that name the file's row.

The counts of :func:`wkappa._cli.io.count_keys` hold one row per distinct (truth, prediction[,
group]) tuple. They are encoded by the library's own :func:`~wkappa._core.encode.encode_ratings`
(the tuple counts are its sample weights), so the command line and the Python API accept and
refuse exactly the same ratings. When encoding fails, the offending value is found among the
distinct values and its first row in the file is looked up.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import (
    check_one_rating,
    count_table,
    encode_ratings,
    is_missing_scalar,
)
from .._frames import check_long_ids
from ..exceptions import WkappaError
from .clusters import (
    cluster_codes,
    group_codes,
    refuse_missing_ids,
    stacked_tables,
    too_few_clusters,
)
from .io import COUNT, WEIGHT, Source, count_keys, polars
from .labels import (
    Spelling,
    all_missing,
    drop_missing,
    empty_column,
    empty_column_error,
    missing_rating,
    tidy_labels,
)
from .rows import first_row, is_blank_row, row_value

# Values tried one by one to find the row of an error (the error path only).
_MAX_PROBES = 10_000
# The library's refusal of ratings that are not ordered for weights that need an order.
_UNORDERED = "need ordered categories"
# The command line prints, writes and plots K x K tables; beyond this K a table is no longer
# readable output (K = 5001 is 200 MB of JSON), and almost always the sign of scores or ids
# in a rating column.
MAX_CLI_CATEGORIES = 1024
# The fewest unused grades between two runs of ratings that :func:`outlying_grades` warns of.
_MIN_HOLE = 5

__all__ = [
    "CountedFile",
    "Tables",
    "build_tables",
    "count_long",
    "count_wide",
    "located_error",
    "no_rating_at_all",
    "outlying_grades",
    "rater_rating_error",
    "rating_error",
    "refuse_missing",
    "refuse_unrated",
    "shifted_scale",
]


@dataclass(frozen=True)
class Tables:
    """The tables of one ``score`` run.

    Attributes
    ----------
    labels : tuple
        The K categories, shared by every table.
    overall : ndarray of shape (K, K)
        Counts over the whole file (int64; float64 with a weight column).
    groups : list of (value, ndarray of shape (K, K))
        One table per value of the ``--by`` column, in sorted order (missing last).
    omitted : int
        Rows dropped for a missing rating (``--nan-policy omit``).
    read : int
        Rows read from the file.
    clusters : ndarray of shape (G, K, K) or None
        With ``--cluster``: the overall table split by cluster (the G clusters with pairs).
    group_clusters : list of ndarray
        With ``--cluster`` and ``--by``: each group's table split by its own clusters.
    group_stack : ndarray of shape (G, K, K) or None
        With ``--by``: the tables of ``groups`` as one stack.
    spanning : tuple or None
        With ``--cluster`` and ``--by``: a cluster with rows in two groups of a ``--by`` value,
        as ``(cluster id, group, other group)``; None when every cluster lies within one
        group (the groups are then independent samples).
    """

    labels: Sequence[Any]
    overall: np.ndarray
    groups: list[tuple[Any, np.ndarray]]
    omitted: int
    read: int = 0
    clusters: np.ndarray | None = None
    group_clusters: list[np.ndarray] = field(default_factory=list)
    group_stack: np.ndarray | None = None
    spanning: tuple[Any, Any, Any] | None = None


def shifted_scale(tables: Tables, true: str, pred: str) -> str | None:
    """A note when the two columns use integer grades of the same span one apart (``0-4`` and
    ``1-5``): one of them is often 0-based and the other 1-based, which kappa reads as a
    disagreement on every pair; None otherwise."""
    labels = tables.labels
    if len(labels) < 3 or not all(isinstance(v, (int, np.integer)) for v in labels):
        return None
    if list(labels) != list(range(int(labels[0]), int(labels[0]) + len(labels))):
        return None
    rows, columns = tables.overall.sum(axis=1) > 0, tables.overall.sum(axis=0) > 0
    spans = []
    for used in (rows, columns):
        where = np.flatnonzero(used)
        if where.size < 2 or where.size != where[-1] - where[0] + 1:
            return None
        spans.append((int(labels[where[0]]), int(labels[where[-1]])))
    (a_low, a_high), (b_low, b_high) = spans
    if abs(a_low - b_low) != 1 or a_high - a_low != b_high - b_low:
        return None
    return (
        f"note: column {true!r} uses the grades {a_low}-{a_high} and column {pred!r} "
        f"{b_low}-{b_high}; if one is 0-based and the other 1-based, recode one of them "
        "(kappa compares the grades as written)."
    )


def outlying_grades(counts: Any, columns: Sequence[str]) -> str | None:
    """A warning when the integer ratings in ``columns`` of the counted rows leave a hole of
    unused grades wider than the span of the ratings on either side of it (``1``-``5`` and
    ``175``-``180``; ``1``-``5`` and ``99``): a row that is not ratings (a total, a code for a
    missing value) read as grades, which fills the table with empty categories and moves every
    kappa. None otherwise (or for text ratings)."""
    pl = polars()
    numeric = [c for c in dict.fromkeys(columns) if counts.schema[c].is_numeric()]
    if len(numeric) < len(set(columns)):
        return None
    values = pl.concat([counts[c].cast(pl.Float64) for c in numeric]).drop_nulls().drop_nans()
    used = np.unique(values.to_numpy())
    used = used[np.isfinite(used)]  # an infinite rating is refused later, naming its row
    if used.size < 2 or not np.all(used == np.round(used)):
        return None
    gaps = np.diff(used) - 1
    at = int(np.argmax(gaps))
    low, high = used[: at + 1], used[at + 1 :]
    hole = int(gaps[at])
    if hole < _MIN_HOLE or hole <= max(np.ptp(low), np.ptp(high)):
        return None
    span = int(used[-1] - used[0] + 1)
    return (
        f"the ratings in {', '.join(map(repr, dict.fromkeys(columns)))} jump from "
        f"{int(low[-1])} to {int(high[0])}, leaving {hole:,} grades "
        f"between them unused (K = {span:,} categories, {int(used[0])} to {int(used[-1])}): "
        "a row that is not ratings (a total, a code for a missing value) read as grades "
        "changes every kappa. Hint: remove that row, or declare the code with --na-values; "
        "give the grades with --labels or --min-rating/--max-rating when the gap is real."
    )


def _warn_outlying(counts: Any, columns: Sequence[str], *given: Any) -> None:
    """Warn of :func:`outlying_grades` unless the grades are ``given`` (``--labels``,
    ``--min-rating``, ``--max-rating``)."""
    found = outlying_grades(counts, columns) if all(g is None for g in given) else None
    if found is not None:
        warnings.warn(found, UserWarning, stacklevel=3)


def _grades_given(args: Any) -> list[Any]:
    """``--labels``, ``--min-rating`` and ``--max-rating`` as given (None where a command
    has no such option)."""
    return [getattr(args, name, None) for name in ("labels", "min_rating", "max_rating")]


def count_wide(
    source: Source,
    args: Any,
    columns: Sequence[str],
    named: dict[str, str],
    labels: Sequence[Any] | None,
    extra: dict[str, str] | None = None,
) -> tuple[Any, int, CountedFile]:
    """The counted rating rows of the rater ``columns`` of a wide file (``named``: the option
    that names each column), text ratings normalised and checked (:func:`tidy_labels`), the
    rows without any rating, and the file as :class:`CountedFile` (to name a refused rating's
    row). ``extra`` (option -> column, e.g. ``--cluster``) are more key columns, read as
    text."""
    extra = extra or {}
    keys = [*columns, *extra.values()]
    text = [*(columns if labels else ()), *extra.values()]
    frame, counts = count_keys(source, keys, options={**named, **extra}, text=text)
    counts = tidy_labels(source, frame, counts, columns, labels, Spelling.of(args))
    _warn_outlying(counts, columns, *_grades_given(args))
    empty = int(counts.filter(all_missing(counts, columns))[COUNT].sum())
    _refuse_no_rating(source, counts, empty, "--raters", columns)
    return counts, empty, CountedFile(source, frame, counts, list(columns))


def count_long(
    source: Source, args: Any, labels: Sequence[Any] | None, extra: dict[str, str] | None = None
) -> tuple[Any, int, CountedFile]:
    """The counted (``--item``, ``--rater``, ``--rating``) triples of a long file, text
    ratings normalised and checked (:func:`tidy_labels`), the rows without a rating and the
    file as :class:`CountedFile`; ``extra`` as in :func:`count_wide`."""
    extra = extra or {}
    keys = [args.item, args.rater, args.rating, *extra.values()]
    options = {"--item": args.item, "--rater": args.rater, "--rating": args.rating, **extra}
    text = [args.item, args.rater, *([args.rating] if labels else []), *extra.values()]
    frame, counts = count_keys(source, keys, options=options, text=text)
    check_long_ids(counts, {args.item: "--item", args.rater: "--rater"}, args.rating)
    counts = tidy_labels(source, frame, counts, [args.rating], labels, Spelling.of(args))
    _warn_outlying(counts, [args.rating], *_grades_given(args))
    missing = int(counts.filter(all_missing(counts, [args.rating]))[COUNT].sum())
    _refuse_no_rating(source, counts, missing, "--rating", [args.rating])
    return counts, missing, CountedFile(source, frame, counts, [args.rating])


def _refuse_no_rating(
    source: Source, counts: Any, unrated: int, option: str, columns: Sequence[str]
) -> None:
    """A file whose every row is without a rating (``unrated`` of them) is one error, not a
    warning about each rater and an error about the ratings."""
    rows = int(counts[COUNT].sum())
    if unrated == rows:
        raise no_rating_at_all(source.name, rows, option, columns)


def no_rating_at_all(name: str, rows: int, option: str, columns: Sequence[str]) -> WkappaError:
    """The error for a file ``name`` none of whose ``rows`` has a value in the rating
    ``columns`` (named by ``option``)."""
    noun = "columns" if len(columns) > 1 else "column"
    return WkappaError(
        f"{name} has no rating at all: none of its {rows:,} data rows has a value in "
        f"{', '.join(map(repr, columns))}. Hint: check that {option} names the {noun} of "
        "ratings you mean."
    )


def _locate(
    source: Source,
    frame: Any,
    counts: Any,
    columns: dict[str, str],
    probe: Callable[[str, Any], object],
) -> tuple[str, Any, int | None, str] | None:
    """The earliest (column, value, row, message) whose value alone fails ``probe``.

    None when every value fails alone: the problem is then the column as a whole (words
    without ``--labels``), not one row. One streaming pass per column finds the first row
    holding any of its failing values; the earliest row over the columns is reported.
    """
    pl = polars()
    failed: dict[str, dict[Any, str]] = {}
    passed = False
    for column in dict.fromkeys(columns.values()):
        for value in counts[column].unique().head(_MAX_PROBES).to_list():
            try:
                probe(column, value)
            except WkappaError as exc:
                failed.setdefault(column, {})[value] = str(exc)
            else:
                passed = True
    if not failed or not passed:
        return None
    found = []
    for column, messages in failed.items():
        values = [v for v in messages if not is_missing_scalar(v)]
        predicate = pl.col(column).is_in(values) if values else pl.lit(False)
        if len(values) < len(messages):  # a missing value failed too
            predicate = predicate | missing_rating(counts.schema, column)
        row = first_row(frame, predicate)
        if row is None:
            continue
        value = row_value(frame, row, column)
        if isinstance(value, float) and value != value:
            value = next(v for v in messages if isinstance(v, float) and v != v)
        found.append((column, value, row, messages.get(value, next(iter(messages.values())))))
    if not found:
        return None
    return min(found, key=lambda item: item[2])


def _one_value(column: Any, value: Any) -> Any:
    """A polars series of ``column``'s name and dtype holding ``value`` once (a value read
    from ``column``), for probing the library with that value alone. Built with the dtype
    named, so a float16 or float32 value, which Python holds as a float64, is stored in the
    column's own dtype (``extend_constant`` panics on it)."""
    return polars().Series(column.name, [value], dtype=column.dtype)


@dataclass(frozen=True)
class CountedFile:
    """A file's counted rating rows with what finds the file row of a rating: the scan and
    the rating columns (a wide file's rater columns, a long file's ``--rating``)."""

    source: Source
    frame: Any  # the polars LazyFrame the counts came from
    counts: Any  # its distinct rows, counted
    columns: list[str]


def located_error(
    file: CountedFile,
    probe: Callable[[str, Any], object],
    roles: Sequence[str],
    omit: str = "drops rows with a missing rating",
) -> WkappaError | None:
    """The library's refusal of one rating, named as the file names it: its row (the header
    not counted) and column. ``probe(column, value)`` raises the library's error for one
    value alone; the value that fails and comes first in the file is named, with its own
    message, whose ``roles`` (the parameter names it gives the column: `` `y_true` ``) become
    the column (a missing rating's hint says what ``--nan-policy omit`` does: ``omit``).
    None when no single value fails (every value does, or the problem is the columns
    together)."""
    frame = file.frame
    found = _locate(file.source, frame, file.counts, {c: c for c in file.columns}, probe)
    if found is None:
        return None
    column, value, row, alone = found
    if is_missing_scalar(value):
        blank = row is not None and is_blank_row(frame, row)
        message = (
            f"{'the row has no value in any column, so ' if blank else ''}column {column!r} has "
            f"a missing rating. Hint: {'delete the row; ' if blank else ''}--nan-policy omit "
            f"{omit}."
        )
    else:
        message = _relabel(alone, dict.fromkeys(roles, column))
    return WkappaError(f"{file.source.name}, row {row}: {message}")


def refuse_missing(file: CountedFile, columns: Sequence[str], omit: str) -> None:
    """``--nan-policy raise``: the first missing rating of ``columns``, named by its file row
    and column (a column without any rating, by the column); ``omit`` says what
    ``--nan-policy omit`` does, in the hint."""

    def probe(column: str, value: Any) -> None:
        if is_missing_scalar(value):
            raise WkappaError("a missing rating")

    incomplete = [c for c in columns if _missing_rows(file.counts, c)]
    if not incomplete:
        return
    located = located_error(file, probe, ("ratings",), omit)
    if located is not None:
        raise located
    column = incomplete[0]  # every row misses it: no row is the first
    raise WkappaError(
        f"{file.source.name}: column {column!r} has no rating at all "
        f"({int(file.counts[COUNT].sum())} rows). Hint: --nan-policy omit {omit}."
    )


def _missing_rows(counts: Any, column: str) -> int:
    """How many of the counted rows miss a rating in ``column`` (null, or NaN)."""
    return int(counts.filter(all_missing(counts, [column]))[COUNT].sum())


def refuse_unrated(counts: Any, raters: Sequence[str], name: str, omit: str) -> None:
    """``--nan-policy raise``, long layout: a rater without a rating of some item (``counts``:
    the pivoted items, a column per rater; ``omit`` as in :func:`refuse_missing`)."""
    for rater in raters:
        n = _missing_rows(counts, rater)
        if n:
            raise WkappaError(
                f"{name}: rater {rater!r} did not rate {n} item{'' if n == 1 else 's'}, a "
                f"missing rating. Hint: --nan-policy omit {omit}."
            )


def rating_error(
    file: CountedFile,
    exc: WkappaError,
    probe: Callable[[str, Any], object],
    roles: Sequence[str],
) -> WkappaError:
    """The library's refusal ``exc`` of two columns of ratings (``roles``: `` `y_true` ``
    and `` `y_pred` ``, in the order of ``file.columns``): a rating named by its row and
    column (:func:`located_error`), else ``exc`` about the file's columns."""
    empty = empty_column(file.counts, file.columns)
    if empty is not None:
        return empty_column_error(file.source.name, empty)
    located = located_error(file, probe, roles)
    if located is not None:
        return located
    if "has a missing rating" in str(exc):  # every value alone fails: name the missing one's row
        refuse_missing(file, file.columns, "drops rows with a missing rating")
    named = dict(zip(roles, file.columns, strict=True))
    message = f"{file.source.name}: {_relabel(str(exc), named)}"
    return WkappaError(_order_hint(file, message))


def rater_rating_error(
    file: CountedFile,
    exc: WkappaError,
    labels: Sequence[Any] | None,
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> WkappaError:
    """The refusal ``exc`` of several raters' ratings: a rating the library's rater-matrix
    encoder refuses (not in ``--labels``, outside ``--min-rating``/``--max-rating``, infinite,
    not a whole number) named by its file row and column (:func:`located_error`; a missing rating
    is not refused here), else ``exc`` as it is."""

    def probe(column: str, value: Any) -> None:
        if not is_missing_scalar(value):
            check_one_rating(value, labels, min_rating, max_rating)

    located = located_error(file, probe, ("ratings",))
    if located is not None:
        return located
    mixed = re.match(r"The ratings mix kinds: (.*) holds (.*) but (.*) holds (.*?), so", str(exc))
    if mixed is not None:  # in a file: numbers beside words, which the reader kept as text
        kinds = {"numbers or booleans": "numbers", "strings": "words"}
        first, second = (kinds.get(mixed[i], mixed[i]) for i in (2, 4))
        return WkappaError(
            f"{file.source.name}: {mixed[1]} holds {first} but {mixed[3]} holds {second}, so "
            "no rating of one can equal a rating of the other. Hint: check that the options "
            "name the rater columns you mean; raters who wrote one scale differently (2 and "
            "'mild') need their columns recoded alike."
        )
    message = _order_hint(file, str(exc))
    return exc if message == str(exc) else WkappaError(message)


def _order_hint(file: CountedFile, message: str) -> str:
    """``message``, the library's refusal of ratings; where it refuses them as unordered and
    some are stored as categories whose order was not read (a dictionary column without
    pyarrow), saying so and how to fix it."""
    if _UNORDERED not in message:
        return message
    return file.source.unread_order_hint(message, file.columns)


def _relabel(message: str, columns: dict[str, str]) -> str:
    for role, column in columns.items():
        message = message.replace(f"`{role}`", f"column {column!r}")
    return re.sub(r" at position \d+", "", message)


def build_tables(
    source: Source,
    frame: Any,
    counts: Any,
    *,
    true: str,
    pred: str,
    by: str | None,
    weighted: bool,
    labels: list[Any] | None,
    min_rating: int | None,
    max_rating: int | None,
    ordered: bool,
    nan_policy: str,
    spelling: Spelling | None = None,
    cluster: str | None = None,
) -> Tables:
    """Encode the counted tuples and tabulate them, overall and per ``by`` group.

    ``spelling`` (``--strip-labels``, ``--fold-case``; none by default) normalises text
    ratings; two spellings of one label left after it are refused (``labels.check_spellings``).
    With ``cluster`` (the ``--cluster`` column, one of the counted keys) every table is also
    split by cluster, as
    ``wkappa.kappa_test(..., cluster=...)`` splits the same rows.
    """
    spelling = Spelling() if spelling is None else spelling
    counts = tidy_labels(source, frame, counts, [true, pred], labels, spelling)
    _warn_outlying(counts, [true, pred], labels, min_rating, max_rating)
    omitted = 0
    read = int(counts[COUNT].sum())
    if cluster is not None:  # a row dropped for a missing rating needs no id, as in Python
        rated = [true, pred] if nan_policy == "omit" else []
        refuse_missing_ids((source, frame), counts, cluster, "row", rated)
    if nan_policy == "omit":
        counts, omitted = drop_missing(counts, [true, pred], source)
    frequency = counts[WEIGHT if weighted else COUNT].to_numpy().astype(np.float64)
    options: dict[str, Any] = {"labels": labels, "min_rating": min_rating, "max_rating": max_rating}
    try:
        encoded = encode_ratings(
            counts[true], counts[pred], sample_weight=frequency, ordered=ordered, **options
        )
    except WkappaError as exc:
        raise rating_error(
            CountedFile(source, frame, counts, [true, pred]),
            exc,
            lambda column, value: encode_ratings(
                one := _one_value(counts[column], value), one, ordered=ordered, **options
            ),
            roles=("y_true", "y_pred"),
        ) from None
    assert encoded is not None  # nan_policy is never 'propagate' here
    k = encoded.n_categories
    if k > MAX_CLI_CATEGORIES:
        labels_text = encoded.labels
        span = (
            f"ratings {labels_text[0]}..{labels_text[-1]}"
            if isinstance(labels_text, range)
            else "distinct labels"
        )
        raise WkappaError(
            f"{source.name}: columns {true!r} and {pred!r} give K = {k:,} categories ({span}); "
            f"the command line reports K x K tables and takes at most {MAX_CLI_CATEGORIES}. "
            "Hint: round scores into grades (wkappa thresholds), pass --labels with the "
            "categories in use, or call wkappa.qwk in Python (QWK needs no table)."
        )
    overall = _table(encoded.true_index, encoded.pred_index, k, frequency, weighted)
    split = (
        None
        if cluster is None
        else _Split(encoded, counts, cluster, k, frequency, weighted, omitted)
    )
    clusters = None if split is None else split.tables(np.ones(counts.height, dtype=bool))
    groups: list[tuple[Any, np.ndarray]] = []
    group_clusters: list[np.ndarray] = []
    stack = None
    spanning = None
    if by is not None:
        values, codes = _group_codes(counts, by)
        stack = stacked_tables(
            codes, len(values), encoded.true_index, encoded.pred_index, k, frequency
        )
        stack = _counted(stack, weighted)
        groups = list(zip(values, stack, strict=True))
        if split is not None:
            group_clusters = split.by_group(codes, len(values))
            spanning = split.spanning(codes, values)
    return Tables(
        encoded.labels, overall, groups, omitted, read, clusters, group_clusters, stack, spanning
    )


def _group_codes(counts: Any, by: str) -> tuple[list[Any], np.ndarray]:
    """The values of the ``by`` column in sorted order (missing last; text ids that are all
    numbers, ``01``, ``2``, ``10``, by their number) and the group of each counted row (its
    index among them), from one ``group_by`` (so -0.0 and 0.0 are one group). A float NaN is a
    missing value, as in a rating or a ``--cluster`` column: the rows without a value (null
    or NaN) are one group, keyed None (the output's ``(missing)``)."""
    pl = polars()
    column = pl.col(by).fill_nan(None) if counts.schema[by].is_float() else pl.col(by)
    grouped = counts.select(column).with_row_index("__row").group_by(by).agg(pl.col("__row"))
    order = [pl.col(by)]
    if grouped.schema[by] == pl.String:
        if grouped[by].cast(pl.Float64, strict=False).null_count() == grouped[by].null_count():
            order.insert(0, pl.col(by).cast(pl.Float64, strict=False))
    grouped = grouped.sort(order, nulls_last=True)
    codes = np.empty(counts.height, dtype=np.int64)
    rows = grouped["__row"]
    codes[rows.explode().to_numpy()] = np.repeat(
        np.arange(grouped.height), rows.list.len().to_numpy()
    )
    return grouped[by].to_list(), codes


class _Split:
    """The per-cluster (G, K, K) tables of any subset of the encoded distinct rows."""

    def __init__(
        self,
        encoded: Any,
        counts: Any,
        cluster: str,
        k: int,
        frequency: np.ndarray,
        weighted: bool,
        omitted: int,
    ) -> None:
        self.codes, self.ids = cluster_codes(counts[cluster], cluster, unit="row")
        self.encoded, self.cluster, self.k = encoded, cluster, k
        self.frequency, self.weighted = frequency, weighted
        self.what = " with ratings" if omitted else ""  # some rows were dropped

    def by_group(self, groups: np.ndarray, n_groups: int) -> list[np.ndarray]:
        """The tables of each group (``groups``: the group of each row, ``0..n_groups-1``),
        one per cluster among its rows, in the order of the cluster codes (as :meth:`tables`
        gives them for the group's rows). A group may have a single cluster: its
        cluster-robust standard error is then undefined, as in
        ``wkappa.frames.kappa_by_group(..., cluster=...)``."""
        span = int(self.codes.max(initial=0)) + 1
        used, inverse = np.unique(groups * span + self.codes, return_inverse=True)
        stack = stacked_tables(
            inverse.reshape(-1),
            len(used),
            self.encoded.true_index,
            self.encoded.pred_index,
            self.k,
            self.frequency,
        )
        stack = _counted(stack, self.weighted)
        starts = np.searchsorted(used // span, np.arange(n_groups + 1))
        return [stack[starts[g] : starts[g + 1]] for g in range(n_groups)]

    def spanning(self, groups: np.ndarray, values: Sequence[Any]) -> tuple[Any, Any, Any] | None:
        """A cluster with rows in two groups (``groups``: the group of each row, ``values``:
        the groups' values, None for the rows without one, which are not a group), as
        ``(cluster id, group, other group)``, or None when each cluster lies within one."""
        known = np.array([value is not None for value in values], dtype=bool)[groups]
        group, cluster = groups[known], self.codes[known]
        home = np.full(len(self.ids), -1, dtype=np.intp)
        home[cluster] = group
        crossing = np.flatnonzero(home[cluster] != group)
        if not crossing.size:
            return None
        row = crossing[0]
        return (
            self.ids[int(cluster[row])],
            values[int(group[row])],
            values[int(home[cluster[row]])],
        )

    def tables(self, mask: np.ndarray) -> np.ndarray:
        """The tables of the rows in ``mask``, one per cluster among them (at least 2)."""
        codes, n_clusters = group_codes(self.codes, mask)
        if n_clusters < 2:
            raise too_few_clusters(self.cluster, n_clusters, "", self.what)
        stack = stacked_tables(
            codes,
            n_clusters,
            self.encoded.true_index[mask],
            self.encoded.pred_index[mask],
            self.k,
            self.frequency[mask],
        )
        return _counted(stack, self.weighted)


def _table(
    true_index: np.ndarray, pred_index: np.ndarray, k: int, frequency: np.ndarray, weighted: bool
) -> np.ndarray:
    return _counted(count_table(true_index, pred_index, k, frequency), weighted)


def _counted(tables: np.ndarray, weighted: bool) -> np.ndarray:
    """Summed row counts as int64 (float64 sums of whole numbers far below 2**53 are exact),
    or as they are with a weight column."""
    return tables if weighted else np.rint(tables).astype(np.int64)
