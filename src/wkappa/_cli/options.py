"""The command line's shared options, each defined once (name, type, default, help).

Every subcommand builds its parser from these builders, so an option that two commands share
reads and behaves the same in both: single options, the groups several commands take
(:func:`add_two_columns`: the file, ``--true`` and a second column with how their categories
are read; :func:`add_common`: ``--quiet`` and ``--debug``), and what those options decide
(:func:`note`, :func:`progress_wanted`). :func:`option_names` and :func:`in_options` turn the
library's messages (Python keywords) into the command line's vocabulary.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .._frames import rater_columns
from ..exceptions import WkappaError
from .lists import split_list
from .overwrite import check_outputs

__all__ = [
    "ALTERNATIVES",
    "INPUT_FORMATS",
    "add_alternative",
    "add_ci",
    "add_command",
    "add_common",
    "add_explain",
    "add_file",
    "add_format",
    "add_kappa0",
    "add_labels",
    "add_layout",
    "add_nan_policy",
    "add_plot",
    "add_report",
    "add_resamples",
    "add_spelling",
    "add_two_columns",
    "add_weight_col",
    "check_explain",
    "check_missing_labels",
    "check_one_interval",
    "check_outputs",
    "check_resamples",
    "chosen_layout",
    "explained",
    "image_format",
    "in_options",
    "interval_method",
    "later_note",
    "later_notes",
    "note",
    "note_same_column",
    "option_names",
    "plot_file",
    "progress_wanted",
    "report_file",
    "split_names",
    "warn_few_resamples",
    "warn_unrated",
]

INPUT_FORMATS = ("csv", "tsv", "parquet", "ipc", "ndjson")
ALTERNATIVES = ("two-sided", "greater", "less")
_WEIGHT_CHOICES = ("quadratic", "linear", "unweighted")


def add_command(
    sub: Any, name: str, summary: str, description: str, run: Callable[..., int]
) -> argparse.ArgumentParser:
    """A subcommand's parser: ``summary`` is its line in ``wkappa --help``, ``run(args)``
    runs it."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=description)
    parser.register("action", None, _StoreOnce)  # every single-valued option of the command
    parser.register("action", "store", _StoreOnce)
    parser.set_defaults(func=run)
    return parser


class _StoreOnce(argparse._StoreAction):
    """argparse's ``store`` that refuses an option given twice with different values
    (``--true a --pred b --true b`` would otherwise score b against b: the last one wins);
    the same value twice is harmless and kept."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, *rest: Any
    ) -> None:
        values, option = rest[0], rest[1] if len(rest) > 1 else self.dest
        given: dict[str, Any] = namespace.__dict__.setdefault("given_once", {})
        if self.dest in given and given[self.dest] != values:
            raise argparse.ArgumentError(
                self,
                f"given twice with different values ({given[self.dest]} and {values}). "
                f"Hint: give {option} once, with the value you mean",
            )
        given[self.dest] = values
        super().__call__(parser, namespace, *rest)


def add_common(parser: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--debug``, which every command takes (its last options)."""
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar or notes")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")


def note(args: argparse.Namespace, message: str) -> None:
    """``wkappa: message`` on stderr (a note, a file written), unless ``--quiet``; a
    ``note: ...`` is also kept in ``args.noted`` (once, with ``--quiet`` too), the run's
    notes that its HTML report shows."""
    if message.startswith("note: "):
        _keep_note(args, message)
    if not args.quiet:
        print(f"wkappa: {message}", file=sys.stderr)


def _keep_note(args: argparse.Namespace, message: str) -> None:
    noted = args.__dict__.setdefault("noted", [])
    text = message.removeprefix("note: ")
    if text not in noted:
        noted.append(text)


def later_note(args: argparse.Namespace, message: str) -> None:
    """A note about the options (a column against itself), shown once the command has
    succeeded: a run refused later shows its one error line only (a report written before
    then has it already)."""
    _keep_note(args, message)
    args.__dict__.setdefault("later_notes", []).append(message)


def later_notes(args: argparse.Namespace) -> None:
    """Show the :func:`later_note` notes (``main`` calls it after a successful run)."""
    for message in getattr(args, "later_notes", []):
        note(args, message if message.startswith("note: ") else f"note: {message}")


def progress_wanted(args: argparse.Namespace) -> bool:
    """Whether reading a file shows a progress bar: not with ``--quiet``, and only on a
    terminal (both stdout and stderr)."""
    return not args.quiet and sys.stdout.isatty() and sys.stderr.isatty()


def add_file(parser: argparse.ArgumentParser) -> None:
    """The input file (``-`` is stdin), ``--input-format``, ``--separator``,
    ``--decimal-comma`` and ``--na-values``."""
    parser.add_argument(
        "file", help="CSV, TSV, .gz CSV, Parquet, Arrow/Feather or JSON lines; - is stdin"
    )
    parser.add_argument(
        "--input-format", choices=INPUT_FORMATS, help="the file's format (default: from its name)"
    )
    parser.add_argument(
        "--separator", metavar="CHAR", help="field separator of a CSV file (default: , or tab)"
    )
    parser.add_argument(
        "--decimal-comma",
        action="store_true",
        help="numbers in a CSV or TSV file are written with a decimal comma (2,5), as "
        "spreadsheets set to many European languages save them; with --separator ';' for "
        "a CSV",
    )
    parser.add_argument(
        "--na-values",
        metavar="V1,V2",
        help="more values that mean a missing rating, such as -99,. (an empty cell, NA, N/A "
        "and null are missing already); a cell is compared without its surrounding spaces, "
        "and a number matches its every spelling (-99 also matches -99.0)",
    )


def add_two_columns(
    parser: argparse.ArgumentParser, option: str, text: str, *, action: str = "store"
) -> None:
    """The input file (:func:`add_file`), ``--true COL`` (the rows of the table), a second
    column ``option COL`` (``--pred``, ``--score``; ``action="append"`` to give it twice)
    and how their categories are read: ``--weights``, ``--labels`` with ``--min-rating`` and
    ``--max-rating``, ``--nan-policy``, ``--strip-labels`` and ``--fold-case``."""
    add_file(parser)
    parser.add_argument(
        "--true",
        required=True,
        metavar="COL",
        help="column of rater A / the truth (rows of the table)",
    )
    parser.add_argument(option, required=True, action=action, metavar="COL", help=text)
    parser.add_argument(
        "--weights",
        choices=_WEIGHT_CHOICES,
        default="quadratic",
        help="disagreement weights (default: quadratic)",
    )
    add_labels(parser, "the categories in order (default: every integer from min to max)")
    add_nan_policy(
        parser,
        ("raise", "omit"),
        "raise",
        "a missing rating is an error (raise; default) or its row is dropped (omit)",
    )
    add_spelling(parser)


def add_layout(
    parser: argparse.ArgumentParser,
    raters: str = "wide: the rater columns",
    long: Sequence[tuple[str, str]] = (
        ("--item", "long: the item column"),
        ("--rater", "long: the rater column"),
        ("--rating", "long: the rating column"),
    ),
) -> None:
    """The raters' columns: wide (``--raters A,B,C``) or long (one row per rating)."""
    parser.add_argument(
        "--raters",
        metavar="A,B,C",
        help=f"{raters} (the header's names, without surrounding spaces)",
    )
    for option, text in long:
        parser.add_argument(option, metavar="COL", help=text)


def add_labels(
    parser: argparse.ArgumentParser, text: str = "the categories in order", bounds: bool = True
) -> None:
    """``--labels`` (and ``--min-rating`` / ``--max-rating`` with ``bounds``)."""
    parser.add_argument(
        "--labels", metavar="A,B,C", help=f"{text}; write a comma inside a label as \\,"
    )
    if bounds:
        parser.add_argument("--min-rating", type=int, metavar="N", help="lowest integer grade")
        parser.add_argument("--max-rating", type=int, metavar="N", help="highest integer grade")


def check_one_interval(args: argparse.Namespace, hint: str = "drop one") -> None:
    """Refuse ``--ci-method`` (other than the default) together with ``--bootstrap``."""
    if args.bootstrap and args.ci_method != "asymptotic":
        raise WkappaError(
            f"--ci-method {args.ci_method} and --bootstrap exclude each other. Hint: {hint}."
        )


# Fewer resamples than this give an interval whose limits move from seed to seed: the
# library's n_resamples asks for "999 or more for an interval".
FEW_RESAMPLES = 999


def check_resamples(args: argparse.Namespace, default: str = "") -> None:
    """Refuse a ``--bootstrap N`` under 2 in every command (``--bootstrap 0`` is not "no
    bootstrap": leaving the option out is), and ``--seed`` and ``--bootstrap-method`` without
    a bootstrap to draw (nothing of theirs is used; ``default`` is the number the hint
    suggests)."""
    if "bootstrap" in getattr(args, "given_once", {}) and args.bootstrap < 2:
        hint = (
            " Hint: leave out --bootstrap for the --ci-method interval, without resampling."
            if hasattr(args, "ci_method")
            else ""
        )
        raise WkappaError(
            "--bootstrap must be an integer >= 2 (the number of bootstrap replicates; 999 or "
            f"more for an interval); got {args.bootstrap}.{hint}"
        )
    if not args.bootstrap:
        unused = [
            f"--{name.replace('_', '-')}"
            for name in ("seed", "bootstrap_method")
            if getattr(args, name, None) is not None
        ]
        if unused:
            them = " and ".join(unused)
            raise WkappaError(
                f"{them} {'go' if len(unused) > 1 else 'goes'} with --bootstrap N, and no "
                f"bootstrap is drawn. Hint: add --bootstrap {default or '9999'}, or drop {them}."
            )


def warn_few_resamples(args: argparse.Namespace) -> None:
    """Warn of a ``--bootstrap N`` under 999, in the run's warnings (``args.warned``): its
    report lists them, and stderr once the command has succeeded."""
    if 0 < args.bootstrap < FEW_RESAMPLES:
        text = (
            f"--bootstrap {args.bootstrap} is few resamples: an interval needs 999 or more "
            "(its limits move from seed to seed otherwise)."
        )
        warned = args.__dict__.setdefault("warned", [])
        if text not in warned:
            warned.append(text)


def note_same_column(args: argparse.Namespace, columns: Sequence[tuple[str, str]]) -> None:
    """A note when two of the column ``options`` (option, column) name the same column: a
    sanity check (a column against itself), which runs, but rarely what was meant."""
    seen: dict[str, str] = {}
    for option, column in columns:
        if column in seen:
            both = (
                f"{option} names" if seen[column] == option else f"{seen[column]} and {option} name"
            )
            later_note(args, f"{both} the same column {column!r}: it is compared with itself.")
            return
        seen[column] = option


def warn_unrated(args: argparse.Namespace, unrated: Sequence[str], role: str = "raters") -> None:
    """Warn of raters without a single rating (a column left empty, a rater id whose
    ratings are all missing): they count among the raters but take no part. Wide files name
    them as ``--raters`` does, long files as raters of the ``--rater`` column."""
    if not unrated:
        return
    import warnings

    one = len(unrated) == 1
    names = ",".join(unrated)
    who = (
        f"--raters {names}"
        if args.raters is not None
        else f"{'rater' if one else 'raters'} {names} (--rater {args.rater})"
    )
    has, they, count, take = (
        ("has", "it", "counts", "takes") if one else ("have", "they", "count", "take")
    )
    warnings.warn(
        f"{who} {has} no ratings: {they} {count} among the {role} but {take} no part.",
        UserWarning,
        stacklevel=2,
    )


def interval_method(args: argparse.Namespace) -> Any:
    """The interval method ``--ci-method`` or ``--bootstrap N`` (``--bootstrap-method``,
    ``--seed``) choose, built once per run and given to both the table's
    ``confidence_interval`` and ``--explain``: without ``--seed`` its bootstrap draws from
    one fresh seed sequence, so the explanation shows the table's interval."""
    if not args.bootstrap:
        return args.ci_method
    import numpy as np

    from .._stats import BootstrapMethod

    seed = args.seed if args.seed is not None else np.random.SeedSequence()
    chosen: Any = getattr(args, "bootstrap_method", None) or "percentile"  # agree has none
    return BootstrapMethod(args.bootstrap, method=chosen, rng=seed)


def add_ci(parser: argparse.ArgumentParser) -> None:
    """``--ci LEVEL``: the confidence level of the interval."""
    parser.add_argument(
        "--ci",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="confidence level of the interval (default: 0.95)",
    )


def add_resamples(parser: argparse.ArgumentParser, default: int, text: str) -> None:
    """``--bootstrap N`` and ``--seed``."""
    parser.add_argument("--bootstrap", type=int, default=default, metavar="N", help=text)
    parser.add_argument("--seed", type=int, help="random seed of the bootstrap")


def add_weight_col(parser: argparse.ArgumentParser) -> None:
    """``--weight-col COL``: sample weights, as the library's ``sample_weight``."""
    parser.add_argument(
        "--weight-col",
        metavar="COL",
        help="column of sample weights: whole-number frequency weights (counts), or any "
        "non-negative weights with --cluster",
    )


def add_nan_policy(
    parser: argparse.ArgumentParser, choices: tuple[str, ...], default: str, text: str
) -> None:
    """``--nan-policy``: what a missing rating does (``text`` says it for the command), the
    library's ``nan_policy`` with the ``choices`` the command takes."""
    parser.add_argument("--nan-policy", choices=choices, default=default, help=text)


def add_alternative(parser: argparse.ArgumentParser, text: str) -> None:
    """``--alternative`` of the p-value (``text`` says what peers print)."""
    parser.add_argument("--alternative", choices=ALTERNATIVES, default="two-sided", help=text)


def add_format(parser: argparse.ArgumentParser, *choices: str) -> None:
    """``--format`` of the output (the first choice is the default)."""
    parser.add_argument(
        "--format", choices=choices, default=choices[0], help=f"output (default: {choices[0]})"
    )


def add_kappa0(parser: argparse.ArgumentParser, name: str = "kappa") -> None:
    """``--kappa0 K0``: the null value of the test (the p-value line says ``H0: name = K0``)."""
    parser.add_argument(
        "--kappa0",
        type=float,
        default=0.0,
        metavar="K0",
        help=f"{name} under H0 of the p-value (default: 0)",
    )


def add_spelling(parser: argparse.ArgumentParser) -> None:
    """``--strip-labels`` and ``--fold-case``: how text ratings are normalised on reading."""
    parser.add_argument(
        "--strip-labels",
        action="store_true",
        help="strip surrounding whitespace from text ratings ('mild ' is 'mild'); without "
        "it, labels that differ only by whitespace are refused",
    )
    parser.add_argument(
        "--fold-case",
        action="store_true",
        help="ignore case in text ratings ('Mild' is 'mild', or the --labels spelling); "
        "without it, labels that differ only by case are refused",
    )


def chosen_layout(
    args: argparse.Namespace,
    long: Sequence[str] = ("item", "rater", "rating"),
    raters: str = "one column per rater",
    ratings: str = "one row per rating",
    item_ids: bool = False,
) -> bool:
    """True for the wide layout (``--raters``; with ``item_ids``, also with the first of the
    ``long`` options: the column of each row's item id), False for the long one (all of the
    ``long`` options); anything else is an error that says what to give."""
    options = [f"--{name}" for name in long]
    given = [getattr(args, name) is not None for name in long]
    wide = args.raters is not None
    if wide and item_ids and not any(given[1:]):
        return True
    if wide == any(given):
        raise WkappaError(
            f"Give either --raters A,B,C ({raters}) or {', '.join(options[:-1])} and "
            f"{options[-1]} ({ratings})."
        )
    if not wide and not all(given):
        raise WkappaError(
            f"The long layout needs all of {', '.join(options[:-1])} and {options[-1]}."
        )
    columns = [getattr(args, name) for name in long]
    if not wide and len(set(columns)) < len(columns):
        raise WkappaError(
            f"{', '.join(options[:-1])} and {options[-1]} must name {len(long)} different "
            f"columns; got {', '.join(repr(c) for c in columns)}."
        )
    return wide


def split_names(text: str, option: str) -> list[str]:
    """A comma-separated option value as a list (:func:`~wkappa._cli.lists.split_list`):
    ``--raters`` names exactly as written (a header's own surrounding spaces are not part of
    its names), other values stripped."""
    names = split_list(text, strip=option != "--raters")
    if any(not name.strip() for name in names):
        raise WkappaError(f"{option} must be a comma-separated list; got {text!r}.")
    return rater_columns(names, option) if option == "--raters" else names


def option_names(keywords: str = "", **renamed: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """How the library's keywords appear in its messages (`` `kappa0` ``, `` `kappa0=` `` or
    a bare ``kappa0=``) and the option each one is: ``--kappa0`` for each of the
    space-separated ``keywords`` (``keyword:--option`` names another option), the given text
    for each of ``renamed``."""
    pairs = [
        (word.partition(":")[0], word.partition(":")[2] or "--" + word.replace("_", "-"))
        for word in keywords.split()
    ]
    pairs += list(renamed.items())
    names = []
    for keyword, option in pairs:
        word = re.escape(keyword)
        bare = rf"(?<![\w`-]){word}"
        names += [
            (re.compile(rf"(?:`{word}`|{bare})='([^']*)'"), option + r" \1"),  # with a value
            (re.compile(f"`{word}=?`"), option),
            (re.compile(rf"{bare}=(?=[\s),;]|$)"), option),  # no value: "pass cluster= to"
            (re.compile(f"{bare}="), option + " "),
        ]
    return tuple(names)


def in_options(
    text: str, names: Iterable[tuple[re.Pattern[str], str]], *, one_line: bool = True
) -> str:
    """``text`` with the library's keywords replaced by the options: on one line (a
    message), or with its lines and their indentation kept (``one_line=False``, an
    explanation)."""
    if one_line:
        text = " ".join(text.split())
    for pattern, option in names:
        text = pattern.sub(option, text)
    return text


def add_report(parser: argparse.ArgumentParser, text: str) -> None:
    """``--report OUT.html``: the HTML report (``text`` says what it holds), a file name
    ending in .html or .htm (:func:`report_file`)."""
    parser.add_argument("--report", metavar="OUT.html", type=report_file, help=text)


def report_file(path: str) -> str:
    """``--report``'s argument type: a file name ending in .html or .htm, refused before
    anything is computed (a report under another name, such as ``out.png`` or ``out.pdf``,
    is an HTML page that name hides)."""
    if Path(path).suffix.lower() not in (".html", ".htm"):
        raise argparse.ArgumentTypeError(
            f"{path!r} is not an .html file name (the report is one HTML page: name it OUT.html)"
        )
    return path


def add_plot(parser: argparse.ArgumentParser, text: str) -> None:
    """``--plot OUT.png``: save a figure (``text`` says which) as PNG, PDF or SVG
    (:func:`plot_file`)."""
    parser.add_argument(
        "--plot", metavar="OUT.png", type=plot_file, help=f"{text} (.png, .pdf or .svg)"
    )


def add_explain(parser: argparse.ArgumentParser) -> None:
    """``--explain``: the result's explanation (its ``explain()`` in the command line's
    words, :func:`explained`) after the text output (``plan``'s text output is its
    explanation already); refused with any other ``--format`` (:func:`check_explain`)."""
    parser.add_argument(
        "--explain",
        action="store_true",
        help="explain the computation step by step (text format only)",
    )


def check_explain(args: argparse.Namespace) -> None:
    """Refuse ``--explain`` with a ``--format`` other than text: the explanation is words,
    JSON and CSV are read by programs (which have every number in them already)."""
    chosen = getattr(args, "format", "text")
    if getattr(args, "explain", False) and chosen != "text":
        raise WkappaError(
            f"--explain goes with the text output, not --format {chosen}. Hint: drop "
            f"--explain (the {chosen.upper()} output has every number), or drop --format."
        )


# How the results' explain() names the library's calls and keywords, as the command line
# spells them: a bootstrap interval method is --bootstrap-method, any other --ci-method.
_EXPLAINED_NAMES = (
    (
        re.compile(r"confidence_interval\(method='(percentile|bca)'\)"),
        r"--bootstrap N --bootstrap-method \1",
    ),
    (re.compile(r"confidence_interval\(method='([^']*)'\)"), r"--ci-method \1"),
    *option_names("cluster nan_policy n_resamples:--bootstrap"),
    (re.compile(r"weights = '([\w-]+)'"), r"weights = \1"),
)


def explained(
    result: Any, *interval: Any, columns: dict[str, str] | None = None, **method: Any
) -> str:
    """``result.explain(*interval, **method)`` in the command line's words (what
    ``--explain`` prints): pass the level and method of the table's interval (``args.ci``,
    ``method=interval_method(args)``), so the explanation describes that interval, and in
    ``columns`` the data keywords the explanation names with the file's columns they are
    (``{"y_true": "--true column 'grade'"}``)."""
    names = _EXPLAINED_NAMES + option_names(**(columns or {}))
    return in_options(result.explain(*interval, **method), names, one_line=False)


def check_missing_labels(args: argparse.Namespace) -> None:
    """Refuse ``--labels`` that list a spelling the reader always takes for a missing rating
    (``NA``, ``N/A``, ``null``, ``NULL`` in a CSV or TSV file): such a cell never reaches the
    labels, so the category would be silently empty."""
    from .io import detect_format
    from .missing import MISSING_SPELLINGS

    text = getattr(args, "labels", None)
    if not isinstance(text, str) or not isinstance(getattr(args, "file", None), str):
        return
    try:
        if detect_format(args.file, getattr(args, "input_format", None)) not in ("csv", "tsv"):
            return  # Parquet, Arrow, JSON lines keep such text as it is
    except WkappaError:
        return  # the reader refuses the file itself
    missing = [part for part in split_list(text, strip=True) if part in MISSING_SPELLINGS]
    if missing:
        raise WkappaError(
            f"--labels lists {missing[0]}, which the file reader always takes for a missing "
            "rating (as NA, N/A, null and NULL), so it cannot be a category. Hint: recode it in "
            "the file (such as not_assessed) and list that, or drop it from --labels."
        )


_IMAGE_FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}


def plot_file(path: str) -> str:
    """``--plot``'s argument type: a file name ending in .png, .pdf or .svg."""
    if Path(path).suffix.lower() not in _IMAGE_FORMATS:
        raise argparse.ArgumentTypeError(
            f"{path!r} is not a .png, .pdf or .svg file name (the ending says which format "
            "to write)"
        )
    return path


def image_format(path: str) -> str:
    """The format a :func:`plot_file` name asks for: png, pdf or svg."""
    return _IMAGE_FORMATS[Path(path).suffix.lower()]
