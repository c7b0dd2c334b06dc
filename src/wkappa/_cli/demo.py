"""``wkappa demo``: the main job on built-in data, with no network access.

1. The worked example, step by step (O, W, E, numerator, denominator, kappa).
2. A published two-rater data set (``data/ms_diagnosis.csv``) scored by ``wkappa score`` with
   its standard error, confidence interval, test and interpretation, per patient sample.
3. Exact thresholds fitted by ``wkappa thresholds`` on bundled out-of-fold predictions
   (``data/diabetes_oof.csv``).
4. ``wkappa compare``: two models' rounded predictions against the same grades.

Sections 2 and 3 run the real commands, so what they print is what the command line prints.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import numpy as np

from .._core import confusion_table, quadratic_weighted_kappa, weight_matrix
from .._stats import explain_table

__all__ = ["DATA_FILES", "data_path", "run_demo"]

# The worked example of the O/W/E steps ("Kaggle Winning Solutions: quadratic weighted kappa").
SEED_ACTUALS = (4, 4, 3, 4, 4, 0, 1, 1, 2, 1)
SEED_PREDS = (0, 4, 1, 0, 4, 0, 1, 1, 2, 1)
# 20 pairs scored with the Kaggle reference code in a QWK tutorial (CSDN blog, in Chinese).
SEED_RATER_A = (0, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3)
SEED_RATER_B = (2, 3, 4, 5, 2, 3, 2, 0, 2, 4, 5, 4, 3, 2, 4, 1, 0, 2, 3, 3)

DATA_FILES = ("ms_diagnosis.csv", "diabetes_oof.csv")
MS_COMMAND = (
    "score",
    "ms_diagnosis.csv",
    "--true",
    "new_orleans_neurologist",
    "--pred",
    "winnipeg_neurologist",
    "--by",
    "patients",
)
THRESHOLD_COMMAND = ("thresholds", "diabetes_oof.csv", "--true", "grade", "--score", "oof_score")
COMPARE_COMMAND = (
    "compare",
    "diabetes_oof.csv",
    "--true",
    "grade",
    "--pred",
    "pred_all",
    "--pred",
    "pred_bmi",
    "--seed",
    "0",
)


def data_path(name: str) -> Path:
    """The path of a bundled data file (the package is installed unzipped)."""
    return Path(str(resources.files("wkappa") / "data" / name))


@contextmanager
def _in_directory(directory: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(before)


def _run(main: Callable[[list[str]], int], command: Sequence[str]) -> None:
    print("$ wkappa " + " ".join(command))
    with _in_directory(data_path(DATA_FILES[0]).parent):
        code = main([*command, "--quiet"])
    if code:
        raise SystemExit(code)


def _seed_example() -> None:
    table = confusion_table(SEED_ACTUALS, SEED_PREDS)
    print("1. The quadratic weighted kappa of the worked example, step by step")
    print(f"actuals = {list(SEED_ACTUALS)}")
    print(f"preds   = {list(SEED_PREDS)}")
    print(explain_table(table, weight_matrix("quadratic", table.shape[0]), range(5)))
    print(f"wkappa.qwk(actuals, preds) = {quadratic_weighted_kappa(SEED_ACTUALS, SEED_PREDS)!r}")
    print()
    print("A 20-pair sample scored with the Kaggle reference implementation:")
    value = quadratic_weighted_kappa(SEED_RATER_A, SEED_RATER_B)
    print(f"wkappa.qwk(rater_a, rater_b) = {value!r}")
    print()
    rng = np.random.RandomState(2020)  # the legacy generator the tutorial used
    actuals = rng.randint(0, 4, 10000)
    preds = rng.randint(0, 4, 10000)
    print("The worked example's 10,000 random pairs (np.random.seed(2020), randint(0, 4)):")
    print(f"wkappa.qwk(actuals, preds) = {quadratic_weighted_kappa(actuals, preds)!r}")


def _unweighted_by_sample() -> dict[str, float]:
    import csv

    from .._core import weighted_kappa

    with data_path(DATA_FILES[0]).open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    kappas = {}
    for sample in sorted({r["patients"] for r in rows}):
        part = [r for r in rows if r["patients"] == sample]
        a = [int(r["new_orleans_neurologist"]) for r in part]
        b = [int(r["winnipeg_neurologist"]) for r in part]
        kappas[sample] = weighted_kappa(a, b, weights="unweighted", labels=[1, 2, 3, 4])
    return kappas


def _rounded_kappa() -> float:
    import csv

    with data_path(DATA_FILES[1]).open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    grade = [int(r["grade"]) for r in rows]
    return quadratic_weighted_kappa(grade, [int(r["pred_all"]) for r in rows])


def run_demo(main: Callable[[list[str]], int], export: str | None = None) -> int:
    """Print the demo, running its commands with ``main`` (the command line's entry point,
    passed in so that this module does not import the one that imports it); with
    ``export``, copy the bundled data files there instead."""
    if export is not None:
        target = Path(export)
        target.mkdir(parents=True, exist_ok=True)
        for name in DATA_FILES:
            shutil.copyfile(data_path(name), target / name)
            print(f"wrote {target / name}")
        return 0
    from .io import polars

    polars()  # sections 2 and 3 run real commands, which need the cli extra: check first
    print("wkappa demo (built-in data, no network)")
    print("=" * 72)
    _seed_example()
    print()
    print("=" * 72)
    print("2. Two neurologists, 218 patients (Westlund & Kurland 1953, as tabulated by")
    print("   Landis & Koch 1977): 1 = certain, 2 = probable, 3 = possible, 4 = doubtful MS.")
    print("   Each rated the same patients of two samples (Winnipeg, New Orleans).")
    print()
    _run(main, MS_COMMAND)
    print()
    print("Quadratic weights count a certain/probable disagreement as 1/9 of a certain/doubtful")
    print("one; with --weights unweighted every disagreement counts fully and kappa drops:")
    for sample, value in _unweighted_by_sample().items():
        print(f"  unweighted kappa, {sample} patients: {value:.4f}")
    print("(Landis & Koch 1977 report 0.208 for the Winnipeg patients.)")
    print()
    print("=" * 72)
    print("3. Exact thresholds on out-of-fold predictions (diabetes data, 442 patients, grades")
    print("   0-4 = quintiles of disease progression, 5-fold cross-validated regression).")
    print()
    _run(main, THRESHOLD_COMMAND)
    print()
    print(f"Rounding the same scores to the nearest grade instead: kappa {_rounded_kappa():.6f}.")
    print("Thresholds fitted on these scores are optimistic for them; fit them on out-of-fold")
    print("predictions and judge them on new data (`--apply NEW_FILE --out graded.csv`).")
    print()
    print("=" * 72)
    print("4. Two models, one truth: the rounded predictions of that regression (pred_all)")
    print("   against a regression on the body-mass index alone (pred_bmi), paired bootstrap.")
    print()
    _run(main, COMPARE_COMMAND)
    print()
    print("Try it yourself: wkappa demo --export-data DIR copies both files to DIR.")
    return 0
