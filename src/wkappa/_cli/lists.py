"""How the command line splits a comma-separated option value (``--raters``, ``--labels``,
``--na-values``), one rule for every such option.

The value is split at each comma; a comma written ``\\,`` is part of an item, not a separator
(``--labels 'none,mild\\, early,severe'`` lists three labels, the second ``mild, early``).
Values (``--labels``, ``--na-values``) are stripped of surrounding spaces, so ``none, mild``
is ``none`` and ``mild``. Column names (``--raters``) are kept exactly as written, as every
option that names a column keeps them; a header's surrounding spaces are not part of its
names (a header written ``a, b`` names the columns ``a`` and ``b``, ``--raters a,b``).
"""

from __future__ import annotations

import re

__all__ = ["COMMA_ESCAPE", "join_list", "split_list"]

# A comma inside an item, as it is written in an option's value.
COMMA_ESCAPE = "\\,"
_SEPARATOR = re.compile(r"(?<!\\),")


def split_list(text: str, *, strip: bool) -> list[str]:
    """The items of a comma-separated option value, ``\\,`` read as a comma inside an item;
    with ``strip``, each item without surrounding spaces.

    Examples
    --------
    >>> split_list("none, mild\\\\, early ,severe", strip=True)
    ['none', 'mild, early', 'severe']
    >>> split_list("a, b", strip=False)
    ['a', ' b']
    """
    items = [part.replace(COMMA_ESCAPE, ",") for part in _SEPARATOR.split(text)]
    return [item.strip() for item in items] if strip else items


def join_list(items: list[str]) -> str:
    """Items written as one option value, a comma inside an item as ``\\,`` (the inverse of
    :func:`split_list`).

    Examples
    --------
    >>> join_list(["none", "mild, early", "severe"])
    'none,mild\\\\, early,severe'
    """
    return ",".join(item.replace(",", COMMA_ESCAPE) for item in items)
