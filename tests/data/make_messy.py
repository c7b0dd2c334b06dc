"""Write the messy test files (run from the repository: python tests/data/make_messy.py).

They are what a real export looks like (issue 24): Windows line endings (CRLF), a header with
spaces (``Human Score ``), missing values spelled ``NA`` or left empty, and labels with a
trailing space (``"mild "``). Deterministic: the files in git are this script's output.

* ``essays_messy.csv``: 300 essays scored 1-6 by a human and two models, ~5% missing.
* ``annotations_long.csv``: one row per rating; 80 items rated none/mild/moderate/severe by
  five annotators and an ``LLM judge`` (a few ratings missing, a few ``"mild "``).
* ``annotations_wide.csv``: the same ratings, one column per rater, all labels clean.
* ``judge_case.csv``: 60 items rated none/mild/moderate/severe by three annotators and an
  ``LLM judge`` whose outputs are sometimes capitalised (``"Mild"``, ``"None"``); CRLF,
  ``NA`` for a missing rating.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

LABELS = ("none", "mild", "moderate", "severe")
ANNOTATORS = ("ann_1", "ann_2", "ann_3", "ann_4", "ann_5", "LLM judge")


def _essays(rng: np.random.Generator) -> str:
    n = 300
    truth = rng.choice(np.arange(1, 7), size=n, p=[0.05, 0.15, 0.3, 0.3, 0.15, 0.05])
    lines = ["essay id,Human Score ,model A,model B"]
    for i in range(n):
        a = int(np.clip(truth[i] + rng.choice([-1, 0, 0, 0, 1]), 1, 6))
        b = int(np.clip(truth[i] + rng.choice([-2, -1, 0, 0, 1, 2]), 1, 6))
        cells = [str(truth[i]), str(a), str(b)]
        if rng.random() < 0.05:
            cells[int(rng.integers(3))] = "NA" if rng.random() < 0.5 else ""
        lines.append(",".join([f"E{i + 1:04d}", *cells]))
    return "\r\n".join(lines) + "\r\n"


def _annotations(rng: np.random.Generator) -> tuple[str, str]:
    n = 80
    truth = rng.choice(4, size=n, p=[0.55, 0.25, 0.12, 0.08])
    ratings = np.empty((n, len(ANNOTATORS)), dtype=object)
    for r in range(len(ANNOTATORS)):
        noise = rng.choice([-1, 0, 0, 0, 0, 0, 1], size=n)
        if ANNOTATORS[r] == "LLM judge":  # the judge calls "mild" more often than people do
            noise = np.where((truth == 0) & (rng.random(n) < 0.2), 1, noise)
        ratings[:, r] = [LABELS[k] for k in np.clip(truth + noise, 0, 3)]
    long = ["item_id,annotator,label"]
    wide = ["item_id," + ",".join(ANNOTATORS)]
    padded = 0
    for i in range(n):
        row = []
        for r, rater in enumerate(ANNOTATORS):
            value = ratings[i, r]
            if rng.random() < 0.04:
                row.append("NA")
                long.append(f"T{i + 1:03d},{rater},NA")
                continue
            row.append(value)
            shown = value
            if value == "mild" and padded < 3 and rng.random() < 0.15:
                shown, padded = "mild ", padded + 1
            long.append(f"T{i + 1:03d},{rater},{shown}")
        wide.append(f"T{i + 1:03d}," + ",".join(row))
    return "\r\n".join(long) + "\r\n", "\r\n".join(wide) + "\r\n"


def _judge_case(rng: np.random.Generator) -> str:
    n = 60
    raters = ("ann_1", "ann_2", "ann_3", "LLM judge")
    truth = rng.choice(4, size=n, p=[0.5, 0.3, 0.12, 0.08])
    lines = ["item," + ",".join(raters)]
    capitalised = 0
    for i in range(n):
        row = []
        for rater in raters:
            value = LABELS[int(np.clip(truth[i] + rng.choice([-1, 0, 0, 0, 0, 1]), 0, 3))]
            if rng.random() < 0.03:
                value = "NA"
            elif rater == "LLM judge" and capitalised < 6 and rng.random() < 0.2:
                value, capitalised = value.capitalize(), capitalised + 1
            row.append(value)
        lines.append(f"J{i + 1:03d}," + ",".join(row))
    return "\r\n".join(lines) + "\r\n"


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else Path(__file__).parent
    rng = np.random.default_rng(20240524)
    (out / "essays_messy.csv").write_bytes(_essays(rng).encode())
    long, wide = _annotations(rng)
    (out / "annotations_long.csv").write_bytes(long.encode())
    (out / "annotations_wide.csv").write_bytes(wide.encode())
    # A generator of its own, so the files above stay what they were.
    case = _judge_case(np.random.default_rng(20261126))
    (out / "judge_case.csv").write_bytes(case.encode())


if __name__ == "__main__":
    main(sys.argv[1:])
