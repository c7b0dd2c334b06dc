"""From counted key tuples to K x K tables, with errors that name the file's row.

The counts of :func:`wkappa._cli.io.count_keys` hold one row per distinct (truth, prediction[,
group]) tuple. They are encoded by the library's own :func:`~wkappa._core.encode.encode_ratings`
(the tuple counts are its sample weights), so the command line and the Python API accept and
refuse exactly the same ratings. When encoding fails, the offending value is found among the
distinct values and its first row in the file is looked up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core import (
    check_one_rating,
    count_table,
    encode_ratings,
    find_unlisted,
    is_missing_scalar,
    spelling_key,
    split_error,
    unlisted_error,
)
from .._frames import check_long_ids
from ..exceptions import WkappaError
from .clusters import cluster_codes, group_codes, stacked_tables, too_few_clusters
from .io import COUNT, WEIGHT, Source, count_keys, first_row, first_rows, is_blank_row, polars

# Values tried one by one to find the row of an error (the error path only).
_MAX_PROBES = 10_000
# The command line prints, writes and plots K x K tables; beyond this K a table is no longer
# readable output (K = 5001 is 200 MB of JSON), and almost always the sign of scores or ids
# in a rating column.
MAX_CLI_CATEGORIES = 1024

__all__ = [
    "MISSING_SPELLINGS",
    "SPELLING_HINT",
    "CountedFile",
    "Spelling",
    "Tables",
    "all_missing",
    "build_tables",
    "check_spellings",
    "count_long",
    "count_wide",
    "drop_missing",
    "label_text",
    "located_error",
    "normalise_labels",
    "parse_labels",
    "rater_rating_error",
    "rating_error",
    "shifted_scale",
    "text_labels",
    "tidy_labels",
]

SPELLING_HINT = (
    "Hint: --strip-labels strips surrounding whitespace and --fold-case ignores case in text "
    "ratings as the file is read; or fix the file, or list each spelling in --labels to keep "
    "them as two categories."
)


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
    """

    labels: Sequence[Any]
    overall: np.ndarray
    groups: list[tuple[Any, np.ndarray]]
    omitted: int
    read: int = 0
    clusters: np.ndarray | None = None
    group_clusters: list[np.ndarray] = field(default_factory=list)
    group_stack: np.ndarray | None = None


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


def text_labels(text: str | None) -> list[str] | None:
    """``--labels a,b,c`` as text (what ``--fold-case`` matches text ratings against)."""
    return [part.strip() for part in text.split(",")] if text else None


def parse_labels(text: str | None, counts: Any, columns: Sequence[str]) -> list[Any] | None:
    """``--labels a,b,c`` as a list: numbers when the rating columns hold numbers."""
    if text is None:
        return None
    names = [part.strip() for part in text.split(",")]
    if any(name == "" for name in names):
        raise WkappaError(f"--labels must be a comma-separated list like 0,1,2; got {text!r}.")
    if not all(counts.schema[c].is_numeric() for c in columns):
        _refuse_mixed_kinds(counts, columns)
        return names
    values: list[Any] = []
    for name in names:
        try:
            number = float(name)
        except ValueError:
            raise WkappaError(
                f"--labels has {name!r}, but the columns {', '.join(map(repr, columns))} hold "
                "numbers. Hint: list the numeric grades, e.g. --labels 0,1,2,3."
            ) from None
        values.append(int(number) if number.is_integer() else number)
    return values


def _refuse_mixed_kinds(counts: Any, columns: Sequence[str]) -> None:
    """With ``--labels``, rating columns of numbers beside columns of words are refused: the
    labels are read as words, which no number equals (the word '1' is not the number 1)."""
    rated = [c for c in dict.fromkeys(columns) if counts[c].null_count() < counts.height]
    numbers = [c for c in rated if counts.schema[c].is_numeric()]
    words = [c for c in rated if not counts.schema[c].is_numeric()]
    if numbers and words:
        present = counts[numbers[0]].drop_nulls()
        value = label_text((present.drop_nans() if present.dtype.is_float() else present)[0])
        raise WkappaError(
            f"column {numbers[0]!r} holds numbers (such as {value}) and column {words[0]!r} "
            f"holds words: --labels are then read as words, and the number {value} equals "
            "none of them (the word '1' is not the number 1). Hint: write every rater's "
            f"ratings the same way: recode column {words[0]!r} to numbers, or column "
            f"{numbers[0]!r} to words."
        )


def drop_missing(counts: Any, columns: Sequence[str], source: Any = None) -> tuple[Any, int]:
    """Drop tuples with a missing rating (null or NaN); also return the rows dropped. With the
    ``source`` file, a file with no complete row left is an error."""
    pl = polars()
    present = pl.lit(True)
    for column in columns:
        present = present & pl.col(column).is_not_null()
        if counts.schema[column].is_float():
            present = present & ~pl.col(column).is_nan()
    kept = counts.filter(present)
    if source is not None and kept.height == 0:
        empty = empty_column(counts, columns)
        if empty is not None:
            raise _empty_column_error(source.name, empty)
        raise WkappaError(f"{source.name}: every row has a missing rating; nothing is left.")
    return kept, int(counts[COUNT].sum() - kept[COUNT].sum())


@dataclass(frozen=True)
class Spelling:
    """How text ratings are normalised as they are read: ``--strip-labels`` strips surrounding
    whitespace, ``--fold-case`` ignores case (a rating takes the spelling of the ``--labels``
    entry it matches, else lower case)."""

    strip: bool = False
    fold: bool = False

    @classmethod
    def of(cls, args: Any) -> Spelling:
        """The options of a parsed command line."""
        return cls(getattr(args, "strip_labels", False), getattr(args, "fold_case", False))

    def expression(self, column: str, labels: Sequence[Any] | None = None) -> Any:
        """The column's text as normalised (a polars expression)."""
        pl = polars()
        expression = pl.col(column)
        if self.strip:
            expression = expression.str.strip_chars()
        if self.fold:
            expression = expression.str.to_lowercase()
            folded = self._folded(labels)
            if folded:
                expression = expression.replace(list(folded), list(folded.values()))
        return expression

    def _folded(self, labels: Sequence[Any] | None) -> dict[str, str]:
        """Lower-cased text label -> the label as ``--labels`` spells it."""
        folded: dict[str, str] = {}
        for name in labels or ():
            if not isinstance(name, str):
                continue
            key = (name.strip() if self.strip else name).lower()
            if folded.setdefault(key, name) != name:
                raise WkappaError(
                    f"--labels has {folded[key]!r} and {name!r}, which --fold-case makes one "
                    "label. Hint: drop --fold-case to keep them as two categories."
                )
        return folded


def _text_columns(counts: Any, columns: Sequence[str]) -> list[str]:
    pl = polars()
    return [c for c in dict.fromkeys(columns) if counts.schema[c] == pl.String]


def normalise_labels(
    counts: Any, columns: Sequence[str], spelling: Spelling, labels: Sequence[Any] | None = None
) -> Any:
    """The counted tuples with the text ``columns`` normalised as ``spelling`` says, tuples that
    become equal merged."""
    pl = polars()
    text = _text_columns(counts, columns)
    if not text or not (spelling.strip or spelling.fold):
        return counts
    keys = [c for c in counts.columns if c not in (COUNT, WEIGHT)]
    sums = [pl.col(c).sum() for c in (COUNT, WEIGHT) if c in counts.columns]
    normalised = counts.with_columns(spelling.expression(c, labels) for c in text)
    return normalised.group_by(keys, maintain_order=True).agg(sums)


def check_spellings(
    source: Source,
    frame: Any,
    counts: Any,
    columns: Sequence[str],
    labels: Sequence[Any] | None,
    spelling: Spelling = Spelling(),
) -> None:
    """Refuse text ratings that differ only by surrounding whitespace or case ('mild', 'mild '
    and 'Mild'), or, with ``--labels``, a rating that matches a label only so (see
    :mod:`wkappa._core.label_spelling`). The message names both spellings and the row where
    the second spelling first occurs (the earliest such row over the spellings and columns);
    ``counts`` are normalised by ``spelling``, and so are the file's rows looked up."""
    text = _text_columns(counts, columns)
    values = list(dict.fromkeys(v for c in text for v in counts[c].drop_nulls().unique().to_list()))
    if labels is None:
        groups: dict[str, list[str]] = {}
        for value in values:
            groups.setdefault(spelling_key(value), []).append(value)
        suspects = [v for group in groups.values() if len(group) > 1 for v in group]
    else:
        suspects = [v for v in values if find_unlisted([v], labels) is not None]
    if not suspects:
        return
    # spelling -> (its first row, the index of its column): ties go to the earlier column
    first: dict[str, tuple[float, int]] = {}
    for index, column in enumerate(text):
        rows = first_rows(frame, spelling.expression(column, labels), suspects)
        for value, line in rows.items():
            first[value] = min(first.get(value, (line, index)), (line, index))

    def at(value: str) -> tuple[float, int]:
        return first.get(value, (float("inf"), 0))

    if labels is None:
        pairs = [tuple(sorted(group, key=at)[:2]) for group in groups.values() if len(group) > 1]
        first_spelling, second = min(pairs, key=lambda pair: at(pair[1]))
        row, index = at(second)
        error = split_error((first_spelling, second), f"in column {text[index]!r}", SPELLING_HINT)
    else:
        value = min(suspects, key=at)
        row, index = at(value)
        pair = find_unlisted([value], labels)
        assert pair is not None
        error = unlisted_error(pair, labels, f"in column {text[index]!r}", SPELLING_HINT)
    where = f", row {row:.0f}" if row != float("inf") else ""
    raise WkappaError(f"{source.name}{where}: {error}")


def tidy_labels(
    source: Source,
    frame: Any,
    counts: Any,
    columns: Sequence[str],
    labels: Sequence[Any] | None,
    spelling: Spelling,
) -> Any:
    """The counts normalised as ``spelling`` says (``--strip-labels``, ``--fold-case``), then
    checked by :func:`check_spellings`."""
    counts = normalise_labels(counts, columns, spelling, labels)
    if labels is None:
        _refuse_missing_spellings(source, frame, counts, columns, spelling)
    check_spellings(source, frame, counts, columns, labels, spelling)
    return counts


# Text that spreadsheets, pandas, R, SAS and Stata write for a missing value, but that polars
# reads as a word ("", NA, N/A, null and NULL are read as missing already): as a category it
# would change kappa silently, as a missing value it might be a real label; so it is refused.
MISSING_SPELLINGS = frozenset(
    ["nan", "-nan", "na", "n/a", "#n/a", "#na", "<na>", "null", "nil", ".", "-", "?", "missing"]
)


def _refuse_missing_spellings(
    source: Source, frame: Any, counts: Any, columns: Sequence[str], spelling: Spelling
) -> None:
    """Refuse a text rating spelled like a missing value (``NaN``, ``#N/A``, ``.``, ``-``,
    ``missing``), naming the first row; ``--labels`` that list it keep it as a category."""
    text = _text_columns(counts, columns)
    found = []
    for column in text:
        values = counts[column].drop_nulls().unique().to_list()
        suspects = [v for v in values if v.strip().lower() in MISSING_SPELLINGS]
        if suspects:
            rows = first_rows(frame, spelling.expression(column), suspects)
            found += [(row, column, value) for value, row in rows.items()]
    if found:
        row, column, value = min(found)
        raise WkappaError(
            f"{source.name}, row {row}: column {column!r} holds {value!r}, which reads as a "
            "missing value but would count as a category. Hint: declare it missing with "
            f"--na-values='{value.strip()}' (or empty those cells), or list it in --labels to "
            "keep it as a category."
        )


def empty_column(counts: Any, columns: Sequence[str]) -> str | None:
    """The first of ``columns`` without any rating (an empty column: a wrong column name, or
    a rater who rated nothing), or None."""
    for column in dict.fromkeys(columns):
        if counts.filter(~all_missing(counts, [column])).height == 0:
            return column
    return None


def _empty_column_error(name: str, column: str) -> WkappaError:
    return WkappaError(
        f"{name}: column {column!r} is empty: no row has a rating in it. Hint: check that "
        "the option names the column of ratings you mean."
    )


def all_missing(counts: Any, columns: Sequence[str]) -> Any:
    """A polars predicate: every one of ``columns`` is missing (null, or NaN in a float
    column)."""
    pl = polars()
    return pl.all_horizontal(
        [
            pl.col(c).is_null() | (pl.col(c).is_nan() if counts.schema[c].is_float() else False)
            for c in columns
        ]
    )


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
    empty = int(counts.filter(all_missing(counts, columns))[COUNT].sum())
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
    missing = int(counts.filter(all_missing(counts, [args.rating]))[COUNT].sum())
    return counts, missing, CountedFile(source, frame, counts, [args.rating])


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
            predicate = predicate | pl.col(column).is_null()
            if counts.schema[column].is_float():
                predicate = predicate | pl.col(column).is_nan()
        row = first_row(frame, predicate)
        if row is None:
            continue
        value = frame.slice(row - 1, 1).select(column).collect().item()
        if isinstance(value, float) and value != value:
            value = next(v for v in messages if isinstance(v, float) and v != v)
        found.append((column, value, row, messages.get(value, next(iter(messages.values())))))
    if not found:
        return None
    return min(found, key=lambda item: item[2])


@dataclass(frozen=True)
class CountedFile:
    """A file's counted rating rows with what finds the file row of a rating: the scan and
    the rating columns (a wide file's rater columns, a long file's ``--rating``)."""

    source: Source
    frame: Any  # the polars LazyFrame the counts came from
    counts: Any  # its distinct rows, counted
    columns: list[str]


def located_error(
    file: CountedFile, probe: Callable[[str, Any], object], roles: Sequence[str]
) -> WkappaError | None:
    """The library's refusal of one rating, named as the file names it: its row (the header
    not counted) and column. ``probe(column, value)`` raises the library's error for one
    value alone; the value that fails and comes first in the file is named, with its own
    message, whose ``roles`` (the parameter names it gives the column: `` `y_true` ``) become
    the column. None when no single value fails (every value does, or the problem is the
    columns together)."""
    frame = file.frame
    found = _locate(file.source, frame, file.counts, {c: c for c in file.columns}, probe)
    if found is None:
        return None
    column, value, row, alone = found
    if is_missing_scalar(value):
        blank = row is not None and is_blank_row(frame, row)
        message = (
            f"{'the line is empty, so ' if blank else ''}column {column!r} has a missing "
            f"rating. Hint: {'delete the empty line; ' if blank else ''}--nan-policy omit "
            "drops rows with a missing rating."
        )
    else:
        message = _relabel(alone, dict.fromkeys(roles, column))
    return WkappaError(f"{file.source.name}, row {row}: {message}")


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
        return _empty_column_error(file.source.name, empty)
    located = located_error(file, probe, roles)
    if located is not None:
        return located
    named = dict(zip(roles, file.columns, strict=True))
    return WkappaError(f"{file.source.name}: {_relabel(str(exc), named)}")


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

    return located_error(file, probe, ("ratings",)) or exc


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
    spelling: Spelling = Spelling(),
    cluster: str | None = None,
) -> Tables:
    """Encode the counted tuples and tabulate them, overall and per ``by`` group.

    ``spelling`` (``--strip-labels``, ``--fold-case``) normalises text ratings; two spellings
    of one label left after it are refused (:func:`check_spellings`). With ``cluster`` (the
    ``--cluster`` column, one of the counted keys) every table is also split by cluster, as
    ``wkappa.kappa_test(..., cluster=...)`` splits the same rows.
    """
    counts = tidy_labels(source, frame, counts, [true, pred], labels, spelling)
    omitted = 0
    read = int(counts[COUNT].sum())
    if cluster is not None:  # a missing id is refused before any row is dropped, as in Python
        cluster_codes(counts[cluster], cluster, unit="row")
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
                one := counts[column].head(0).extend_constant(value, 1),
                one,
                ordered=ordered,
                **options,
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
    if by is not None:
        values, codes = _group_codes(counts, by)
        stack = stacked_tables(
            codes, len(values), encoded.true_index, encoded.pred_index, k, frequency
        )
        stack = _counted(stack, weighted)
        groups = list(zip(values, stack, strict=True))
        if split is not None:
            group_clusters = split.by_group(codes, len(values))
    return Tables(encoded.labels, overall, groups, omitted, read, clusters, group_clusters, stack)


def _group_codes(counts: Any, by: str) -> tuple[list[Any], np.ndarray]:
    """The values of the ``by`` column in sorted order (missing last) and the group of each
    counted row (its index among them), from one ``group_by`` (so -0.0 and 0.0 are one group,
    and so are the NaNs)."""
    pl = polars()
    grouped = (
        counts.select(pl.col(by))
        .with_row_index("__row")
        .group_by(by)
        .agg(pl.col("__row"))
        .sort(by, nulls_last=True)
    )
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
        self.codes, _ = cluster_codes(counts[cluster], cluster, unit="row")
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


def label_text(value: Any) -> str:
    """A category or group value as plain text."""
    if value is None:
        return "(missing)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
