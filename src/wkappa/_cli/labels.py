"""Category labels as a file writes them: ``--labels``, the spellings of one label
(``--strip-labels``, ``--fold-case``), text that reads as a missing value, and missing or
empty rating columns.

The command line reads ratings as they are written; these are the rules that decide, before
any table is built, which written values are one category, which are missing, and which are
refused because reading them either way could change kappa without a word.
"""

from __future__ import annotations

import functools
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._core import (
    check_label_forms,
    find_unlisted,
    missing_lookalike,
    spelling_key,
    split_error,
    unlisted_error,
)
from ..exceptions import WkappaError
from .io import COUNT, WEIGHT, Source, polars
from .lists import join_list, split_list
from .missing import na_values_option
from .rows import first_rows

__all__ = [
    "Spelling",
    "all_missing",
    "check_spellings",
    "drop_missing",
    "empty_column",
    "empty_column_error",
    "label_text",
    "missing_rating",
    "parse_labels",
    "text_labels",
    "tidy_labels",
]

SPELLING_HINT = (
    "Hint: --strip-labels strips surrounding whitespace and --fold-case ignores case in text "
    "ratings as the file is read; or fix the file, or list each spelling in --labels to keep "
    "them as two categories."
)
# Two Unicode forms of one label: the file converted to the composed form (NFC).
FORM_HINT = (
    'Hint: convert the file to one form, the composed one (NFC): python3 -c "import sys, '
    "unicodedata; sys.stdout.write(unicodedata.normalize('NFC', sys.stdin.read()))\" < FILE "
    "> NEW.csv (and write --labels in it too)."
)


def text_labels(text: str | None) -> list[str] | None:
    """``--labels a,b,c`` as text (what ``--fold-case`` matches text ratings against)."""
    return split_list(text, strip=True) if text else None


def parse_labels(text: str | None, counts: Any, columns: Sequence[str]) -> list[Any] | None:
    """``--labels a,b,c`` as a list: numbers when the rating columns hold numbers."""
    if text is None:
        return None
    names = split_list(text, strip=True)
    if any(name == "" for name in names):
        raise WkappaError(f"--labels must be a comma-separated list like 0,1,2; got {text!r}.")
    check_label_forms(names, "Hint: write each label once, in the composed form.", "--labels")
    if not all(counts.schema[c].is_numeric() for c in columns):
        _refuse_mixed_kinds(counts, columns, names)
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


def _refuse_mixed_kinds(counts: Any, columns: Sequence[str], names: Sequence[str]) -> None:
    """With ``--labels``, rating columns of numbers beside columns of words are refused: the
    labels are read as words, which no number equals (the word '1' is not the number 1). A
    column of numbers but for a missing-value spelling that ``names`` (the labels) do not
    list gets the ``--na-values`` hint instead, as it does without ``--labels``."""
    rated = [c for c in dict.fromkeys(columns) if counts[c].null_count() < counts.height]
    numbers = [c for c in rated if counts.schema[c].is_numeric()]
    words = [c for c in rated if not counts.schema[c].is_numeric()]
    listed = {spelling_key(name) for name in names}
    for column in words:
        values = counts[column].drop_nulls().cast(polars().String).unique().sort()  # categories too
        number = values.str.strip_chars().cast(polars().Float64, strict=False).is_not_null()
        odd = values.filter(~number).to_list()
        unlisted = [v for v in odd if missing_lookalike(v) and spelling_key(v) not in listed]
        if number.any() and odd and unlisted == odd:
            raise WkappaError(
                f"column {column!r} holds {odd[0]!r}, which reads as a missing value, among "
                f"numbers. Hint: {_declare(odd)} (or empty those cells)."
            )
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
    present = polars().lit(True)
    for column in columns:
        present = present & ~missing_rating(counts.schema, column)
    kept = counts.filter(present)
    if source is not None and kept.height == 0:
        empty = empty_column(counts, columns)
        if empty is not None:
            raise empty_column_error(source.name, empty)
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
        if self.fold:  # str.casefold, as the check of spellings compares ('ß' is 'ss')
            folds = _case_folds()
            expression = expression.str.to_lowercase().str.replace_many(
                list(folds), list(folds.values())
            )
            folded = self._folded(labels)
            if folded:
                expression = expression.replace(list(folded), list(folded.values()))
        return expression

    def _folded(self, labels: Sequence[Any] | None) -> dict[str, str]:
        """Case-folded text label -> the label as ``--labels`` spells it."""
        folded: dict[str, str] = {}
        for name in labels or ():
            if not isinstance(name, str):
                continue
            key = (name.strip() if self.strip else name).casefold()
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
    """Refuse text ratings that differ only by surrounding whitespace, case or Unicode form
    ('mild', 'mild ' and 'Mild'; 'é' as one character and as 'e' and a combining accent), or,
    with ``--labels``, a rating that matches a label only so (see
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
        where = f"in column {text[index]!r}"
        error = split_error((first_spelling, second), where, SPELLING_HINT, FORM_HINT)
    else:
        value = min(suspects, key=at)
        row, index = at(value)
        pair = find_unlisted([value], labels)
        assert pair is not None
        where = f"in column {text[index]!r}"
        error = unlisted_error(pair, labels, where, SPELLING_HINT, FORM_HINT)
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
    _refuse_missing_spellings(source, frame, counts, columns, spelling, labels)
    _refuse_split_labels(source, frame, counts, columns, spelling, labels)
    check_spellings(source, frame, counts, columns, labels, spelling)
    return counts


@functools.cache
def _case_folds() -> dict[str, str]:
    """The lowercase characters that :meth:`str.casefold` maps further ('ß' to 'ss', 'ς' to
    'σ'): polars lowercases, and these complete its lowercase to the case fold."""
    return {
        c: c.casefold()
        for c in map(chr, range(sys.maxunicode + 1))
        if c.lower() == c and c.casefold() != c
    }


def _refuse_missing_spellings(
    source: Source,
    frame: Any,
    counts: Any,
    columns: Sequence[str],
    spelling: Spelling,
    labels: Sequence[Any] | None = None,
) -> None:
    """Refuse a text rating spelled like a missing value (``NaN``, ``#N/A``, ``.``, ``-``,
    ``missing``), naming the first row; ``--labels`` that list it keep it as a category (a
    spelling of a label that differs by whitespace or case is left to :func:`check_spellings`)."""
    text = _text_columns(counts, columns)
    listed = {spelling_key(str(label)) for label in labels or ()}
    found = []
    for column in text:
        values = counts[column].drop_nulls().unique().to_list()
        suspects = [v for v in values if missing_lookalike(v) and spelling_key(v) not in listed]
        if suspects:
            rows = first_rows(frame, spelling.expression(column), suspects)
            found += [(row, column, value) for value, row in rows.items()]
    if found:
        found.sort()
        row, column, value = found[0]
        one = len({v.strip() for _, _, v in found}) == 1
        it, kind = ("it", "a category") if one else ("them", "categories")
        raise WkappaError(
            f"{source.name}, row {row}: column {column!r} holds {value!r}, which reads as a "
            f"missing value but would count as a category. Hint: {_declare(found)} (or empty "
            f"those cells), or list {it} in --labels to keep {it} as {kind}."
        )


def _declare(found: Sequence[Any]) -> str:
    """``declare it missing with --na-values='.'``, or ``declare them ...='.,-'`` for several
    spellings (``found``: the spellings, or (row, column, spelling) in the order to name them),
    so that every one is declared in one go."""
    codes = [str(item[-1] if isinstance(item, tuple) else item).strip() for item in found]
    pronoun = "it" if len(set(codes)) == 1 else "them all"
    return f"declare {pronoun} missing with {na_values_option(codes)}"


def _refuse_split_labels(
    source: Source,
    frame: Any,
    counts: Any,
    columns: Sequence[str],
    spelling: Spelling,
    labels: Sequence[Any] | None,
) -> None:
    """With ``--labels``, refuse a text rating with a comma in it that is not a label, naming
    the first row: a comma in ``--labels`` separates labels, so ``mild, early`` was most
    likely split in two; the hint writes the list with the comma escaped (``mild\\, early``,
    see :mod:`~wkappa._cli.lists`)."""
    if not labels:
        return
    names = [str(label) for label in labels]
    keys = {spelling_key(name) for name in names}
    found = []
    for column in _text_columns(counts, columns):
        values = counts[column].drop_nulls().unique().to_list()
        suspects = [v for v in values if "," in v and spelling_key(v) not in keys]
        if suspects:
            rows = first_rows(frame, spelling.expression(column, labels), suspects)
            found += [(row, column, value) for value, row in rows.items()]
    if not found:
        return
    row, column, value = min(found)
    parts = [part.strip() for part in value.split(",")]
    stripped = [name.strip() for name in names]
    start = next((i for i in range(len(names)) if stripped[i : i + len(parts)] == parts), None)
    if start is None:
        fixed = [*names, value]
        why = ""
        how = "add it to --labels, writing its comma as \\, (a comma separates labels)"
    else:
        fixed = [*names[:start], value, *names[start + len(parts) :]]
        why = ": a comma in --labels separates two labels"
        how = "write its comma as \\, to keep it one label"
    listed = ", ".join(map(repr, names))
    raise WkappaError(
        f"{source.name}, row {row}: column {column!r} holds {value!r}, which is not one of "
        f"the --labels {listed}{why}. Hint: {how}, and quote the list: "
        f"--labels {shlex.quote(join_list(fixed))}."
    )


def empty_column(counts: Any, columns: Sequence[str]) -> str | None:
    """The first of ``columns`` without any rating (an empty column: a wrong column name, or
    a rater who rated nothing), or None."""
    for column in dict.fromkeys(columns):
        if counts.filter(~all_missing(counts, [column])).height == 0:
            return column
    return None


def empty_column_error(name: str, column: str) -> WkappaError:
    return WkappaError(
        f"{name}: column {column!r} is empty: no row has a rating in it. Hint: check that "
        "the option names the column of ratings you mean."
    )


def missing_rating(schema: Any, column: str) -> Any:
    """A polars predicate: the value of ``column`` is missing (null, or NaN in a float
    column; ``schema``: the frame's, which says whether it is one)."""
    pl = polars()
    found = pl.col(column).is_null()
    return found | pl.col(column).is_nan() if schema[column].is_float() else found


def all_missing(counts: Any, columns: Sequence[str]) -> Any:
    """A polars predicate: every one of ``columns`` is missing (:func:`missing_rating`)."""
    return polars().all_horizontal([missing_rating(counts.schema, c) for c in columns])


def label_text(value: Any) -> str:
    """A category or group value as plain text."""
    if value is None:
        return "(missing)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
