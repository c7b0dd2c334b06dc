"""The command line's shared options, each defined once (name, type, default, help).

Every subcommand builds its parser from these builders, so an option that two commands share
reads and behaves the same in both.
"""

from __future__ import annotations

import argparse

__all__ = ["add_kappa0", "add_spelling"]


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
