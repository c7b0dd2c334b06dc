"""Labels that differ only by surrounding whitespace, by case or by their Unicode form are
refused, never split silently.

``"mild"`` and ``"mild "`` (a trailing space from a spreadsheet or an export), ``"Mild"``
and ``"mild"`` (an LLM judge's capital letter), or ``"sévère"`` typed with ``é`` as one
character (NFC) and as ``e`` and a combining accent (NFD, as macOS may write it: the two print
alike) would otherwise count as two categories: kappa changes without a word. Every reader of
string ratings (the Python functions, the frames, the command line) calls
:func:`check_label_spellings`, or the command line its own check by the same functions, once
on the ratings as given:

* without ``labels``, two spellings of one label are an error naming both and the first
  place the second spelling occurs;
* with ``labels``, a rating that is not a label but equals one once stripped and case-folded
  is an error that says so (the ordinary unknown-label error would not say why ``'mild '``
  is unknown). Labels that list both spellings keep them as two categories: the user said so.

Two spellings are one label when their :func:`spelling_key` is equal: the text in Unicode's
composed form (NFC), stripped of surrounding whitespace and case-folded (:meth:`str.casefold`).
Nothing else is normalised (inner spaces, accents, hyphens, compatibility forms such as ``ﬁ``
differ in meaning too often to guess). Two forms of one text are refused even when ``labels``
list both: they cannot be told apart on a screen, so the list cannot mean two categories.

Without ``labels``, text ratings are also refused, naming the spellings and where they are,
when they would count a value as a category that no one meant as one:

* one number written two ways (``'3'`` and ``'3.0'``, ``'03'``, ``'+3'`` or ``'3e0'``: text
  read with ``dtype=str``): two distinct spellings whose :func:`spelling_key` parse to the same
  finite number (:func:`float`). Numbers are compared only among the distinct text values and
  never for numeric ratings;
* a spelling of a missing value: an empty string, ``'None'`` (``str(None)``), and the words of
  :data:`MISSING_LOOKALIKES` (``'NA'``, ``'N/A'``, ``'NaN'``, ``'null'``, ``'#N/A'``, ``'.'``
  ..., without case and surrounding whitespace) but ``'none'``, a category of its own (a
  severity) as on the command line. ``astype(str)`` and exports write a missing value so,
  and it would be a category. ``labels`` that list it keep it as a category.

The caller supplies the hints (Python keywords or command-line options): one for whitespace and
case, one for Unicode forms; and, where positions in its input are not the user's rows (counted
tuples), a function that finds the row.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ..exceptions import WkappaError
from .columns import Column
from .options import format_value

__all__ = [
    "MISSING_LOOKALIKES",
    "PYTHON_FORM_HINT",
    "PYTHON_HINT",
    "PYTHON_NUMBER_HINT",
    "Where",
    "check_label_forms",
    "check_label_spellings",
    "find_number_split",
    "find_split",
    "find_unlisted",
    "missing_lookalike",
    "spelling_key",
    "split_error",
    "unlisted_error",
]

PYTHON_HINT = (
    "Hint: make the spellings one in the data (e.g. `series.str.strip()` for whitespace, "
    "`series.str.lower()` for case; the command line's --strip-labels and --fold-case do it "
    "on reading), or pass labels=[...] listing each spelling you mean as a category of its own."
)

PYTHON_FORM_HINT = (
    "Hint: write the labels in one Unicode form in the data, the composed one (NFC): "
    "`unicodedata.normalize('NFC', label)` for each string, `series.str.normalize('NFC')` "
    "in pandas and polars."
)

PYTHON_NUMBER_HINT = (
    "Hint: convert the ratings to numbers (`pd.to_numeric(series)`, `series.astype(float)` or "
    "`np.asarray(ratings, dtype=float)`; the command line reads a column as numbers when every "
    "cell is one), or pass labels=[...] listing the categories."
)

# Text that spreadsheets, pandas, R, SAS and Stata write for a missing value (compared
# without case and surrounding spaces): the one list of the words read as a missing value
# that is not declared one (the command line's --na-values hints, the Python refusal below).
MISSING_LOOKALIKES = frozenset(
    ["nan", "-nan", "na", "n/a", "n.a.", "#n/a", "#na", "<na>", "null", "nil", "none", ".",
     "-", "?", "missing"]
)  # fmt: skip

# What two Unicode forms of one text are, in words.
_TWO_FORMS = (
    "a letter with an accent written as one character, or as the letter and a combining accent"
)

# where(name, value, position): where ``value`` first occurs in rater ``name``.
Where = Callable[[str, Any, int], str]


def spelling_key(value: str) -> str:
    """The spelling two labels share when they are one label: in Unicode's composed form
    (NFC), stripped and case-folded.

    Examples
    --------
    >>> spelling_key(" Sévère") == spelling_key("se\u0301ve\u0300re")
    True
    """
    return unicodedata.normalize("NFC", value).strip().casefold()


def _other_form(a: str, b: str) -> bool:
    """Whether two spellings with the same :func:`spelling_key` differ by Unicode form (one
    has a letter composed that the other writes with a combining mark)."""
    return a.strip().casefold() != b.strip().casefold()


def _difference(a: str, b: str) -> str:
    """How two spellings with the same :func:`spelling_key` differ, in words."""
    if _other_form(a, b):
        a, b = unicodedata.normalize("NFC", a), unicodedata.normalize("NFC", b)
        form = f"Unicode form ({_TWO_FORMS}: they print alike)"
        rest = "" if a == b else _difference(a, b)
        return form if not rest else f"{rest} and {form}"
    if a.strip() == b.strip():
        return "surrounding whitespace"
    if a.casefold() == b.casefold():
        return "case"
    return "case and surrounding whitespace"


def find_split(values: Iterable[Any]) -> tuple[str, str] | None:
    """Two distinct strings among ``values`` that have the same :func:`spelling_key`, or None.

    The second of the pair is the one to point at: the padded spelling when only one has
    surrounding whitespace, else the one met later in ``values``.
    """
    seen: dict[str, str] = {}
    for value in values:
        if not isinstance(value, str):
            continue
        other = seen.setdefault(spelling_key(value), value)
        if other != value:
            return (value, other) if _padded(other) and not _padded(value) else (other, value)
    return None


def _padded(value: str) -> bool:
    return value != value.strip()


def find_unlisted(values: Iterable[Any], labels: Sequence[Any]) -> tuple[str, str] | None:
    """A string among ``values`` that is not in ``labels`` but has the :func:`spelling_key`
    of a label: ``(value, label)``, or None."""
    listed = {label for label in labels if isinstance(label, str)}
    keys = {spelling_key(label): label for label in listed}
    for value in values:
        if isinstance(value, str) and value not in listed and spelling_key(value) in keys:
            return value, keys[spelling_key(value)]
    return None


def _shown(value: str, other: str) -> str:
    """``value`` in a message: its repr, with its Unicode form when ``other`` writes the same
    text in another (the two print alike)."""
    if _other_form(value, other):
        return f"{value!r} ({_form_name(value)})"
    return repr(value)


def _form_name(value: str) -> str:
    """Which Unicode form ``value`` is written in: "composed, NFC" or "decomposed, NFD"."""
    if unicodedata.is_normalized("NFC", value):
        return "composed, NFC"
    if unicodedata.is_normalized("NFD", value):
        return "decomposed, NFD"
    return "partly decomposed"


def _fix(a: str, b: str, hint: str, form_hint: str) -> str:
    """The hint for two spellings of one label: ``form_hint`` when they differ by Unicode
    form, else ``hint`` (whitespace and case)."""
    return form_hint if _other_form(a, b) else hint


def split_error(
    pair: tuple[str, str], where: str, hint: str, form_hint: str = PYTHON_FORM_HINT
) -> WkappaError:
    """The error for two spellings of one label; ``where`` says where the second one is;
    ``form_hint`` is the hint when they differ by Unicode form."""
    first, second = pair
    return WkappaError(
        f"The ratings hold {_shown(first, second)} and {_shown(second, first)}, which differ "
        f"only by {_difference(first, second)} and would count as two categories "
        f"({_shown(second, first)} first {where}). {_fix(first, second, hint, form_hint)}"
    )


def unlisted_error(
    pair: tuple[str, str],
    labels: Sequence[Any],
    where: str,
    hint: str,
    form_hint: str = PYTHON_FORM_HINT,
) -> WkappaError:
    """The error for a rating that matches a label only once stripped, case-folded and in
    one Unicode form."""
    value, label = pair
    return WkappaError(
        f"{format_value(value)} {where} is not in `labels` {format_value(list(labels))}: it "
        f"differs from the label {_shown(label, value)} only by {_difference(value, label)}. "
        f"{_fix(value, label, hint, form_hint)}"
    )


def check_label_forms(
    labels: Iterable[Any], form_hint: str = PYTHON_FORM_HINT, name: str = "`labels`"
) -> None:
    """Refuse ``labels`` that list one text in two Unicode forms (see the module docstring);
    ``name`` is what the caller calls them (``--labels`` on the command line).

    Examples
    --------
    >>> check_label_forms(["mild", "s\u00e9v\u00e8re"])
    >>> check_label_forms(["s\u00e9v\u00e8re", "se\u0301ve\u0300re"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wkappa.exceptions.WkappaError: `labels` hold 'sévère' (composed, NFC) and ...
    """
    seen: dict[str, str] = {}
    for label in labels:
        if not isinstance(label, str):
            continue
        other = seen.setdefault(unicodedata.normalize("NFC", label), label)
        if other != label:
            raise WkappaError(
                f"{name} hold {_shown(other, label)} and {_shown(label, other)}, one text in "
                f"two Unicode forms ({_TWO_FORMS}): they print alike, so they cannot be two "
                f"categories. {form_hint}"
            )


def _distinct(column: Column) -> tuple[list[Any], list[int]]:
    """The distinct present values of a string column and the position of each one's first
    occurrence (empty for numeric columns, which cannot be spelled two ways)."""
    values = column.values
    if column.categories is not None:
        if column.ordered or not any(isinstance(c, str) for c in column.categories):
            return [], []  # declared categories are the user's list, as labels= would be
        categories = np.asarray(column.categories, dtype=object)
        codes = values if column.missing is None else np.where(column.missing, -1, values)
        used, first = np.unique(codes, return_index=True)
        keep = used >= 0
        return categories[used[keep]].tolist(), first[keep].tolist()
    if values.dtype.kind not in "UO":
        return [], []
    positions = np.arange(len(values))
    if column.missing is not None:
        values, positions = values[~column.missing], positions[~column.missing]
    if values.dtype.kind == "O":
        first_at: dict[Any, int] = {}
        for value, position in zip(values.tolist(), positions.tolist(), strict=True):
            if isinstance(value, str):
                first_at.setdefault(value, position)
        return list(first_at), list(first_at.values())
    distinct, first = np.unique(values, return_index=True)
    return distinct.tolist(), positions[first].tolist()


def check_label_spellings(
    columns: Sequence[tuple[str, Column]],
    labels: Any = None,
    *,
    hint: str = PYTHON_HINT,
    where: Where | None = None,
    form_hint: str = PYTHON_FORM_HINT,
) -> None:
    """Refuse labels that differ only by surrounding whitespace, by case or by Unicode form
    (see the module docstring).

    Parameters
    ----------
    columns : sequence of (name, Column)
        The raters' ratings as read, before any missing value is dropped.
    labels : sequence, optional
        The ``labels`` the user gave; None when the categories come from the data.
    hint : str
        The fix, in the caller's vocabulary.
    form_hint : str
        The fix of two Unicode forms of one label, in the caller's vocabulary.
    where : callable, optional
        ``where(name, value, position)`` describes where ``value`` first occurs in rater
        ``name`` (at ``position`` of its column); by default "in `name` at position i"
        (0-based, as the missing-rating error counts).
    """
    seen: dict[str, tuple[str, int]] = {}
    for name, column in columns:
        distinct, first = _distinct(column)
        for value, position in zip(distinct, first, strict=True):
            if isinstance(value, str):
                place = seen.get(value)
                if place is None or position < place[1]:
                    seen[value] = (name, position)
    if not seen:
        return

    def describe(value: str) -> str:
        name, position = seen[value]
        if where is not None:
            return where(name, value, position)
        return f"in `{name}` at position {position}"

    if labels is None:
        ordered = sorted(seen, key=lambda v: seen[v][1])
        pair = find_split(ordered)
        if pair is not None:
            raise split_error(pair, describe(pair[1]), hint, form_hint)
        _refuse_numbers_and_missing(ordered, describe)
        return
    if not isinstance(labels, (list, tuple, np.ndarray)):
        return  # a range or other numbers cannot match a string; bad labels are refused later
    listed = labels.tolist() if isinstance(labels, np.ndarray) else list(labels)
    check_label_forms(listed, form_hint)
    unlisted = find_unlisted(sorted(seen, key=lambda v: seen[v][1]), listed)
    if unlisted is not None:
        raise unlisted_error(unlisted, listed, describe(unlisted[0]), hint, form_hint)


def missing_lookalike(value: str) -> bool:
    """Whether a text rating is one of :data:`MISSING_LOOKALIKES` once stripped, in any
    case, but ``'none'`` (a category of its own, a severity)."""
    key = spelling_key(value)
    return key in MISSING_LOOKALIKES and key != "none"


def _missing_word(value: str) -> bool:
    """Whether a text rating spells a missing value: empty once stripped, a
    :func:`missing_lookalike`, or ``'None'`` as Python writes ``str(None)``."""
    return not spelling_key(value) or missing_lookalike(value) or value.strip() == "None"


def _number(value: str) -> float | None:
    """The finite number ``value`` spells (after :func:`spelling_key`), or None."""
    try:
        number = float(spelling_key(value))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def find_number_split(values: Iterable[str]) -> tuple[str, str] | None:
    """Two distinct strings among ``values`` that spell the same finite number (``'1'`` and
    ``'1.0'``), the later one second, or None.

    Examples
    --------
    >>> find_number_split(["1", "2", "01"]), find_number_split(["1", "2", "mild"])
    (('1', '01'), None)
    """
    seen: dict[float, str] = {}
    for value in values:
        number = _number(value)
        if number is not None:
            other = seen.setdefault(number, value)
            if other != value:
                return other, value
    return None


def _refuse_numbers_and_missing(ordered: Sequence[str], describe: Callable[[str], str]) -> None:
    """Without ``labels``: refuse ``ordered`` (the distinct text ratings, in the order met)
    that write one number two ways, or that hold a spelling of a missing value."""
    pair = find_number_split(ordered)
    if pair is not None:
        first, second = pair
        raise WkappaError(
            f"The ratings hold {first!r} and {second!r}, one number written two ways, which "
            f"would count as two categories ({second!r} first {describe(second)}). "
            f"{PYTHON_NUMBER_HINT}"
        )
    words = [value for value in ordered if _missing_word(value)]
    if words:
        one = len(words) == 1
        shown = words[0] if one else words
        if one:
            what = "reads as a missing value but would count as a category"
            fix = "make it a missing value"
            keep = "it is a category, list it"
        else:
            others = ", ".join(map(repr, words[1:]))
            what = f"and {others} elsewhere, which read as a missing value but would count "
            what += "as categories"
            fix = "make them missing values"
            keep = "they are categories, list them"
        raise WkappaError(
            f"The ratings hold {words[0]!r} {describe(words[0])}"
            f"{', which ' if one else ' '}{what}. Hint: {fix} "
            f"(`df.replace({shown!r}, None)`, or na_values= in pandas.read_csv), or, if "
            f"{keep} in labels=[...]."
        )
