"""The ``wkappa`` command line (also ``python -m wkappa``): the root parser, :func:`main`
(which runs the chosen command), the pre-processing of the arguments, and how warnings and
errors are shown.

Each command lives in its own module, which defines its parser (``add_<command>_parser``)
next to its implementation: ``score`` (kappa of two columns with its standard error,
interval, test and tables), ``agree`` (several raters), ``judge`` (a candidate rater against a
panel), ``plan`` (sample size and power), ``icc`` (intraclass correlations and Lin's CCC),
``thresholds`` (exact kappa-optimal cut points for a score column), ``compare`` (two
predictions against one truth, paired) and ``demo``; the options they share are in
``options``. Bad input is one line on stderr and exit code 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import argparse
import ast
import functools
import os
import re
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from .. import __version__
from .._core import PYTHON_NUMBER_HINT, THRESHOLD_HINT
from ..exceptions import PerfectAgreementWarning, WkappaError
from .options import check_explain, check_missing_labels, check_outputs, later_notes

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse with its errors (a bad value, an unknown choice, a missing option) on one
    line with a hint, as every other error of the command line, instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        hint = "" if "Hint:" in message else f" Hint: {self.prog} --help lists the options."
        option = re.match(r"argument (--[\w-]+)(?:/\S+)?: expected one argument", message)
        if option:  # its value starts with '-' (a column named '--by', -99), or is missing
            hint = (
                f" Hint: {option[1]} takes a value; one that starts with '-' (a column named "
                f"'--by', -99) is given as {option[1]}=VALUE."
            )
        self.exit(2, f"{self.prog}: error: {message}.{hint}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="wkappa",
        description="Cohen's weighted kappa and quadratic weighted kappa (QWK) of rating files.",
        epilog="Exit codes: 0 success, 2 bad input or options, 1 internal error, 141 output "
        "pipe closed early (as by | head).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    # Each command defines its options in its own module; the order here is that of --help.
    from .agree import add_agree_parser
    from .compare import add_compare_parser
    from .demo import add_demo_parser
    from .icc import add_icc_parser
    from .judge import add_judge_parser
    from .plan import add_plan_parser
    from .score import add_score_parser
    from .thresholds import add_thresholds_parser

    add_score_parser(sub)
    add_agree_parser(sub)
    add_judge_parser(sub)
    add_plan_parser(sub)
    add_icc_parser(sub)
    add_thresholds_parser(sub)
    add_compare_parser(sub)
    add_demo_parser(sub, main)  # the demo runs its commands through main
    return parser


# How the library's warnings say what it returns, as the command line shows it (undefined).
_WARNING_WORDS = (
    (" Returning nan (set zero_division to choose).", " It is shown as undefined."),
    (" Returning nan for them.", " They are shown as undefined."),
    (" Returning nan for it.", " It is shown as undefined."),
    (" Returning (nan, nan).", " It is shown as undefined."),
    (
        " Returning nan for the ICC and its interval",
        " The ICC and its interval are shown as undefined",
    ),
    (
        "Hint: rate more items, or use method='asymptotic'.",
        "Hint: rate more items (or, in wkappa agree, --ci-method asymptotic).",
    ),
    (" Returning nan.", " It is shown as undefined."),
    (
        " test_statistic and pvalue are nan.",
        " The test statistic and p-value are shown as undefined.",
    ),
    (" The comparison is nan.", " The comparison is shown as undefined."),
    ("Hint: use method='percentile'.", "Hint: --bootstrap-method percentile."),
)


def _warning(message: Any, category: Any, *_: Any, warned: list[str], **__: Any) -> None:
    """A library warning on one line, in the command line's words, kept in ``warned`` (once):
    the run's list that its HTML report shows and that stderr shows once the command has
    succeeded (a refused run shows its one error line only)."""
    if issubclass(category, PerfectAgreementWarning):  # (`score` notes it in its own words)
        return
    text = _one_line(message, options=True)
    for words, shown in _WARNING_WORDS:
        text = text.replace(words, shown)
    if text not in warned:
        warned.append(text)


# The library's hints and parameter names, as the command line spells them.
_OPTION_NAMES = (
    (
        PYTHON_NUMBER_HINT,
        "Hint: store the ratings as numbers (a CSV column is read as numbers when every cell "
        "is one; a text or dictionary column of a Parquet or Arrow file stays text), or pass "
        "--labels A,B,C listing the categories.",
    ),
    (
        THRESHOLD_HINT,
        "Hint: if the column holds scores, `wkappa thresholds FILE --true COL --score COL` fits "
        "the cut points that turn them into grades (--apply grades another file); or round "
        "the column to whole grades.",
    ),
    (
        "Hint: nan_policy='omit' drops incomplete pairs; nan_policy='propagate' returns nan.",
        "Hint: --nan-policy omit drops rows with a missing rating.",
    ),
    (
        "Hint: nan_policy='omit' drops incomplete pairs.",
        "Hint: --nan-policy omit drops rows with a missing rating.",
    ),
    ("nan_policy='omit'", "--nan-policy omit"),
    ("confidence_level=", "--ci "),
    ("`confidence_level`", "--ci"),
    ("`n_resamples`", "--bootstrap"),
    ("`rng`", "--seed"),
    (
        " (or use an ordered pandas Categorical / polars Enum); unweighted kappa accepts them "
        "as they are",
        "; --weights unweighted accepts them as they are",
    ),
    (
        " (or use an ordered pandas Categorical / polars Enum); an unweighted coefficient "
        "accepts them as they are",
        "; --weights unweighted accepts them as they are",
    ),
    ("add it to labels= or", "add it to --labels or"),
    ("weights='ratio'", "--weights ratio"),
    ("or choose other weights.", "or choose other --weights."),
    ("labels=[...]", "--labels A,B,C"),
    ("labels=", "--labels "),
    ("`labels`", "--labels"),
    ("`min_rating`", "--min-rating"),
    ("`max_rating`", "--max-rating"),
    ("`sample_weight`", "--weight-col"),
    ("`y_true`", "--true"),
    ("`candidate`", "--candidate"),
    ("`ratings` contains", "the ratings contain"),
    ("`ratings`", "the ratings"),
    (", or None / inf for no correction;", ";"),
    ("`population_size`", "--population-size"),
    ("`y_score`", "--score"),
    ("`weights`", "--weights"),
    (" or a (K, K) array;", ";"),
    ("`kappa0`", "--kappa0"),
    ("alternative='greater'", "--alternative greater"),
    ("alternative='less'", "--alternative less"),
)


def _joined_values(argv: list[str]) -> list[str]:
    """``--labels -3,-2`` as ``--labels=-3,-2`` (and ``--table -1,2;3,4``...): argparse
    takes a value that starts with '-' and is not a plain number for an option and would
    refuse it; no option starts with '-' and a digit."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        option = argv[i]
        if (
            option.startswith("--")
            and "=" not in option
            and i + 1 < len(argv)
            and re.match(r"-[\d.]", argv[i + 1])
        ):
            out.append(f"{option}={argv[i + 1]}")
            i += 2
            continue
        out.append(option)
        i += 1
    return out


# The Python fix of text ratings that spell a missing value, and the command line's.
_MISSING_WORDS_FIX = re.compile(
    r"\(`df\.replace\((.+?), None\)`, or na_values= in pandas\.read_csv\)"
)


def _na_values_option(found: re.Match[str]) -> str:
    words = ast.literal_eval(found[1])
    codes = [word.strip() for word in ([words] if isinstance(words, str) else words)]
    return f"(--na-values {','.join(code for code in codes if code)})" if any(codes) else ""


def _one_line(exc: BaseException, options: bool = False) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    if options:
        text = _MISSING_WORDS_FIX.sub(_na_values_option, text)
        for name, option in _OPTION_NAMES:
            text = text.replace(name, option)
        text = text.replace("  ", " ")  # "labels= with" is "--labels with", not two spaces
    return text


def _unknown_options(parser: argparse.ArgumentParser, args: Any, extras: list[str]) -> str:
    """One line for arguments argparse did not recognise, with "did you mean" for options."""
    import difflib

    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = getattr(args, "command", None)
    chosen = sub.choices.get(command) if sub is not None and command else None
    known = [o for a in (chosen or parser)._actions for o in a.option_strings if o.startswith("--")]
    parts = []
    rest = list(extras)
    while rest:
        extra = rest.pop(0)
        name = extra.split("=", 1)[0]
        if name.startswith("--") and "=" not in extra and rest and not rest[0].startswith("-"):
            extra = f"{extra} {rest.pop(0)}"  # the option's value
        close = []
        if name.startswith("-"):
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
        parts.append(f"{extra!r} (did you mean {close[0]}?)" if close else repr(extra))
    prefix = f"wkappa {command}" if command else "wkappa"
    return (
        f"{prefix}: error: unrecognized argument{'s' if len(parts) > 1 else ''} "
        f"{', '.join(parts)}. Hint: wkappa {command or ''} --help lists the options."
    ).replace("  ", " ")


# The exit code of a command whose output pipe was closed: 128 + SIGPIPE, what a shell reports
# for a Unix tool stopped the same way (`yes | head -1`).
PIPE_CLOSED = 141


def _pipe_closed() -> int:
    """End quietly when the reader of the output went away (``| head``): what is left to
    print goes to the null device, so that the interpreter's own flush at exit does not fail
    again, as Python's documentation of SIGPIPE recommends."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):  # not a file descriptor (output captured in memory)
            continue
    os.close(devnull)
    return PIPE_CLOSED


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input, 1 internal error,
    141 output pipe closed)."""
    parser = _parser()
    given = sys.argv[1:] if argv is None else [str(word) for word in argv]
    args, extras = parser.parse_known_args(_joined_values(given))
    args.command_line = given  # as typed, for the reports' "Reproduce" section
    args.warned = []  # the run's warnings as shown on stderr, for the reports' "Warnings"
    if extras:
        print(_unknown_options(parser, args, extras), file=sys.stderr)
        return 2
    debug = getattr(args, "debug", False)
    try:
        check_explain(args)
        check_outputs(args)
        check_missing_labels(args)
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            warnings.showwarning = functools.partial(_warning, warned=args.warned)
            code = int(args.func(args))
            for text in args.warned:  # the library's warnings and the options' own
                print(f"wkappa: warning: {text}", file=sys.stderr)
            later_notes(args)
            sys.stdout.flush()  # a closed pipe is reported here, not at the interpreter's exit
            return code
    except (WkappaError, ImportError) as exc:
        if debug:
            raise
        text = _one_line(exc, options=True)
        if args.command == "thresholds":  # its grades are ordered whatever --weights says
            text = text.replace(
                "; --weights unweighted accepts them as they are",
                " (thresholds cut the score into ordered grades, with any --weights)",
            )
        if getattr(args, "labels", None):  # the labels as typed, not as a Python list
            text = re.sub(r"--labels \[[^\]]*\]", lambda _: f"--labels {args.labels}", text)
        if isinstance(exc, ImportError) and "pyarrow" in text and "wkappa[" not in text:
            # The `cli` extra has no pyarrow: polars reads and writes the formats itself.
            text += " Hint: pip install pyarrow (or 'wkappa[frames]', which includes it)."
        print(f"wkappa: error: {text}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `wkappa ... | head`: stop quietly
        return _pipe_closed()
    except OSError as exc:
        if debug:
            raise
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"wkappa: error: {where}{exc.strerror or _one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:  # also a Rust panic from polars (a BaseException)
        if debug or isinstance(exc, SystemExit):
            raise
        if getattr(args, "file", None) and type(exc).__module__.startswith("polars"):
            from .io import csv_error

            found = csv_error(args.file, args.input_format, args.separator, exc)
            if found is not None:  # a CSV row polars could not read, found in any pass
                print(f"wkappa: error: {found}", file=sys.stderr)
                return 2
        if "invalid utf-8" in str(exc) and getattr(args, "file", None):  # past the first MiB
            from .io import not_utf8

            print(f"wkappa: error: {not_utf8(args.file)}", file=sys.stderr)
            return 2
        print(
            f"wkappa: internal error: {type(exc).__name__}: {_one_line(exc)} "
            "(rerun with --debug for the traceback)",
            file=sys.stderr,
        )
        return 1
