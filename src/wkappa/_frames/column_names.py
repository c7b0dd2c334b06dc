"""The column names of a frame: repeated names refused, a missing name answered with the
names spelled alike, a column of lists or records refused; and the rater ids of a long layout,
which name the raters as columns name them in the wide layout: two spellings of one id
refused."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .._core import find_split, format_value, import_optional
from ..exceptions import WkappaError, WkappaTypeError

__all__ = [
    "RESERVED",
    "STRING_NAMES",
    "check_column",
    "check_name",
    "check_padded_ids",
    "check_rater_spellings",
    "lazy_names",
    "missing_column",
    "native_names",
    "refuse_duplicates",
]


def native_names(df: Any) -> Any:
    """The column names of a pandas frame or pyarrow table, repeats included."""
    names = getattr(df, "column_names", None)  # pyarrow (its .columns are the arrays)
    return getattr(df, "columns", ()) if names is None else names


def lazy_names(frame: Any) -> list[str]:
    """The column names of a lazy frame as its engine lists them (DuckDB's and Spark's
    repeat a repeated name; their schema, a mapping, keeps one)."""
    if frame.implementation.is_polars():  # polars refuses a repeated name itself
        return []
    names = getattr(frame.to_native(), "columns", ())
    return [str(name) for name in names]


def refuse_duplicates(names: Sequence[str]) -> None:
    """Refuse a frame whose column ``names`` repeat a name (which column it reads is the
    engine's choice)."""
    repeated = [name for name, times in Counter(names).items() if times > 1]
    if repeated:
        shown = ", ".join(f"{name!r} ({names.count(name)} times)" for name in repeated[:5])
        raise WkappaError(
            f"`df` has more than one column named {shown}, so a column cannot be read by "
            "its name. Hint: give each column its own name (pandas: df.columns = [...]; "
            "SQL: SELECT ... AS another_name), or drop the repeats."
        )


def missing_column(parameter: str, name: str, columns: Sequence[Any]) -> WkappaError:
    """The error for a column ``name``, given to ``parameter``, that is not among the frame's
    ``columns``: it names the columns spelled alike but for case and surrounding spaces, or
    else the closest names, before listing them all."""

    def folded(text: Any) -> str:
        return str(text).strip().casefold()

    if any(not isinstance(column, str) and str(column) == name for column in columns):
        return WkappaError(
            f"`{parameter}` names the column {name!r}, but the frame's column names are not "
            f"strings ({format_value(list(columns), 200)}). Hint: "
            f"{STRING_NAMES}"
        )
    alike = [column for column in columns if folded(column) == folded(name)]
    by_fold = {folded(column): column for column in columns}
    close = alike or [
        by_fold[match]
        for match in difflib.get_close_matches(folded(name), list(by_fold), n=3, cutoff=0.7)
    ]
    suggestion = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return WkappaError(
        f"`{parameter}` names the column {name!r}, which is not in the frame.{suggestion} "
        f"Hint: names are matched exactly (case and spaces included); the columns are "
        f"{format_value(list(columns), 200)}."
    )


# The prefix of the columns the counts add (group sizes, weight sums, codes).
RESERVED = "__wkappa"

STRING_NAMES = (
    "name the columns with strings first (pandas: df.columns = df.columns.astype(str)) and "
    "give those names."
)


def _among(value: Any, schema: dict[Any, Any]) -> bool:
    """Whether ``value`` (not a string) is one of the frame's column names."""
    return any(type(name) is type(value) and name == value for name in schema)


def check_name(value: Any, parameter: str, schema: dict[str, Any]) -> str:
    """A column name given to ``parameter``: a string the frame's ``schema`` has (see
    :func:`check_column`)."""
    if not isinstance(value, str):
        fix = f" Hint: {STRING_NAMES}" if _among(value, schema) else ""
        raise WkappaTypeError(
            f"`{parameter}` must be a column name (str); got {format_value(value)}.{fix}"
        )
    check_column(parameter, value, schema)
    return value


def check_column(parameter: str, name: str, schema: dict[str, Any]) -> None:
    """Refuse a column ``name`` (given to ``parameter``) that the frame's ``schema`` lacks,
    whose name starts as the counts' own columns do (:data:`RESERVED`: it would collide
    with one), or whose values are lists or records: a rating, weight or key is one value
    per row."""
    if name not in schema:
        raise missing_column(parameter, name, list(schema))
    if name.startswith(RESERVED):
        raise WkappaError(
            f"`{parameter}` names the column {name!r}; names starting with {RESERVED!r} are "
            "kept for the columns wkappa adds while counting. Hint: rename that column."
        )
    nw = import_optional("narwhals", "frames")
    dtype = schema[name]
    if isinstance(dtype, (nw.List, nw.Array, nw.Struct)):
        raise WkappaError(
            f"`{parameter}` names the column {name!r}, whose values are {dtype} (a list or "
            "record in each row); a rating, weight or group key is one value per row. Hint: "
            "select or compute a column of single values (a string, number, date or boolean) "
            "and name that one."
        )


def check_rater_spellings(names: list[str], rater: str, where: str = "") -> list[str]:
    """The long layout's rater ids ``names`` (of the column ``rater``), or a WkappaError when
    two of them differ only by surrounding whitespace, case or Unicode form (``'ann_1'`` and
    ``'ann_1 '``): one annotator spelled two ways would count as two raters, each with part of
    the items (Conger's kappa, ``pairwise()``, a candidate's panel change). The rule of two
    spellings of one label (:func:`~wkappa._core.find_split`); ``where`` starts the message
    (the command line's file name)."""
    pair = find_split(names)
    if pair is None:
        return names
    first, second = pair
    how = (
        "surrounding whitespace" if first.strip() == second.strip()
        else "case" if first.casefold() == second.casefold()
        else "surrounding whitespace, case or Unicode form"
    )  # fmt: skip
    raise WkappaError(
        f"{where}The rater ids {first!r} and {second!r} (column {rater!r}) differ only by "
        f"{how} and would count as two raters. Hint: write each rater's id one way in the "
        "data, or give two raters ids that differ otherwise."
    )


def check_padded_ids(values: list[Any], column: str, parameter: str) -> None:
    """A WkappaError when two of the ``values`` of the ``by`` or ``cluster`` column (named by
    ``parameter``) are text that differs only by surrounding whitespace (``'site 1'`` and
    ``'site 1 '``): one group or cluster would count as two, as the command line, which
    strips its ids, would not count them."""
    seen: dict[str, str] = {}
    for value in values:
        if not isinstance(value, str):
            continue
        other = seen.setdefault(value.strip(), value)
        if other != value:
            first, second = sorted((other, value), key=lambda v: (v != v.strip(), v))
            what = "group" if parameter == "by" else "cluster"
            raise WkappaError(
                f"The values {first!r} and {second!r} of the `{parameter}` column {column!r} "
                f"differ only by surrounding whitespace and would count as two {what}s. Hint: "
                f"write each {what} one way in the data, or give two {what}s values that "
                "differ otherwise."
            )
