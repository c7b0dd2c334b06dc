"""The ``wkappa`` command line (``python -m wkappa``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from ._explain import explain_table
from ._kappa import confusion_table, quadratic_weighted_kappa
from ._weights import weight_matrix
from .exceptions import WkappaError

__all__ = ["main"]

# Seed note 000: the worked example of the O/W/E steps.
SEED_ACTUALS = (4, 4, 3, 4, 4, 0, 1, 1, 2, 1)
SEED_PREDS = (0, 4, 1, 0, 4, 0, 1, 1, 2, 1)
# Seed note 003: 20 pairs scored with the Kaggle reference code.
SEED_RATER_A = (0, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3)
SEED_RATER_B = (2, 3, 4, 5, 2, 3, 2, 0, 2, 4, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3)


def _demo(_: argparse.Namespace) -> int:
    table = confusion_table(SEED_ACTUALS, SEED_PREDS)
    print("wkappa demo - the quadratic weighted kappa of seed note 000, step by step")
    print(f"actuals = {list(SEED_ACTUALS)}")
    print(f"preds   = {list(SEED_PREDS)}")
    print(explain_table(table, weight_matrix("quadratic", table.shape[0]), range(5)))
    print(f"wkappa.qwk(actuals, preds) = {quadratic_weighted_kappa(SEED_ACTUALS, SEED_PREDS)!r}")
    print()
    print("The 20-pair sample of seed note 003 (Kaggle reference implementation):")
    value = quadratic_weighted_kappa(SEED_RATER_A, SEED_RATER_B)
    print(f"wkappa.qwk(rater_a, rater_b) = {value!r}")
    print()
    rng = np.random.RandomState(2020)
    actuals = rng.randint(0, 4, 10000)
    preds = rng.randint(0, 4, 10000)
    print("Seed note 000's 10,000 random pairs (np.random.seed(2020), randint(0, 4)):")
    print(f"wkappa.qwk(actuals, preds) = {quadratic_weighted_kappa(actuals, preds)!r}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wkappa", description="Cohen's weighted kappa and quadratic weighted kappa."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="the seed notes' worked example, step by step")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input)."""
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args))
    except WkappaError as exc:
        print(f"wkappa: error: {exc}", file=sys.stderr)
        return 2
