"""The header of a rating file against the columns the options name: a column that is not
there is refused with the names it may have meant (a close spelling, another case, the spaces
of an option's value, a header that names no column, a separator the reader did not split
on), and so is a name the header gives two columns.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..exceptions import WkappaError
from .lists import join_list

if TYPE_CHECKING:
    from .io import Source

__all__ = ["check_columns"]


def check_columns(source: Source, schema: dict[str, Any], wanted: dict[str, str]) -> None:
    """Every ``option -> column`` in ``wanted`` must be a column of the file."""
    names = list(schema)
    for option, column in wanted.items():
        # polars reads a CSV header that names a column twice as 'a', 'a_duplicated_0', ...
        named = re.fullmatch(r"(.*)_duplicated_\d+", column)
        original = named.group(1) if named and named.group(1) in schema else column
        if f"{original}_duplicated_0" in schema:
            times = 1 + sum(
                bool(re.fullmatch(rf"{re.escape(original)}_duplicated_\d+", n)) for n in names
            )
            raise WkappaError(
                f"{source.name} has {times} columns named {original!r} (given to {option}); "
                "which one is meant is ambiguous. Hint: give each column its own name in the "
                "file's header."
            )
        if column in schema:
            continue
        if any("\n" in name for name in names):  # a quote in the header swallowed lines
            raise WkappaError(
                f'{source.name}, line 1 (the header): a quote (") opens a column name that is '
                "not closed, so the name runs on into the lines below. Hint: close the quote, "
                "or remove it."
            )
        written = _header_names(names)
        candidates = [name for name in dict.fromkeys(written) if name]
        close = difflib.get_close_matches(column, candidates, n=3, cutoff=0.5)
        lowered = {name.lower(): name for name in names}
        if column.lower() in lowered and lowered[column.lower()] not in close:
            close.insert(0, lowered[column.lower()])
        suggestion = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        glued = [sep for sep in ";\t|," if len(names) == 1 and sep in names[0]]
        hint = f" Hint: {_separator_hint(source, glued[0])}" if glued else ""
        padded = [name for name in names if name == column.strip()]
        if padded:  # the spaces are the option value's (--raters 'a, b')
            option_name = option.split(" ")[0]
            fix = f"without them: {option_name} {shlex.quote(padded[0])}"
            if option_name == "--raters":
                given = [c for o, c in wanted.items() if o.split(" ")[0] == option_name]
                fixed = [c.strip() if c.strip() in schema else c for c in given]
                fix = f"without spaces after the commas: --raters {shlex.quote(join_list(fixed))}"
            hint += (
                f" Hint: the space is in the value of {option_name} ({column!r}), not in "
                f"the file's column {padded[0]!r}; names are matched as written, so give "
                f"it {fix}."
            )
        empty = [str(i + 1) for i, name in enumerate(written) if not name.strip()]
        if empty:
            which = f"column {empty[0]}" if len(empty) == 1 else f"columns {', '.join(empty)}"
            hint += f" Hint: the header gives {which} no name; give every column a name."
        shown = ", ".join(repr(c) for c in written[:12]) + (", ..." if len(names) > 12 else "")
        raise WkappaError(
            f"{source.name} has no column {column!r} (given to {option}).{suggestion} "
            f"{f'Its columns: {shown}.' if names else 'It has no columns.'}{hint}"
        )


def _separator_hint(source: Source, found: str) -> str:
    """What reads a file whose header is one name holding the separator ``found``."""
    if source.separator is not None and found == ("\t" if source.fmt == "tsv" else ","):
        given = shlex.quote(source.separator)
        return f"it looks separated by {found!r}, the format's own: leave out --separator {given}."
    if found == "\t":
        option = "--input-format tsv (or --separator $'\\t' in bash)"
    elif found == "," and source.separator is None:
        option = "--input-format csv"  # a .tsv file (or --input-format tsv) of commas
    else:
        option = f"--separator {shlex.quote(found)}"
    given = f" instead of --separator {shlex.quote(source.separator)}" if source.separator else ""
    return f"it looks separated by {found!r}: pass {option}{given}."


def _header_names(names: Sequence[str]) -> list[str]:
    """Column names as the header writes them: polars names a repeated one (an empty one
    too) ``a_duplicated_0``, ``a_duplicated_1``, ..."""
    written = []
    for name in names:
        repeated = re.fullmatch(r"(.*)_duplicated_\d+", name)
        written.append(repeated.group(1) if repeated and repeated.group(1) in names else name)
    return written
