"""Write the bundled demo data sets: ``python -m wkappa.data.make_data [DIR]``.

* ``ms_diagnosis.csv`` is written from a published table (no randomness): Westlund & Kurland
  (1953), two neurologists (New Orleans, Winnipeg) each rating two samples of patients in four
  ordered categories, as tabulated in Landis & Koch (1977) and in Friendly (2000),
  ``msdiag.sas``. One row per patient; the patient ids are ours.
* ``diabetes_oof.csv`` holds out-of-fold predictions of a 5-fold cross-validated linear
  regression on scikit-learn's copy of the diabetes data (Efron, Hastie, Johnstone &
  Tibshirani 2004). The target, a quantitative measure of disease progression one year after
  baseline, is cut at its quintiles into the grades 0-4; the model predicts the grade.
  ``pred_all`` / ``pred_bmi`` round (and clip to 0-4) the out-of-fold predictions of that model
  and of one using the body-mass index alone. Needs scikit-learn; the output is deterministic.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

__all__ = ["MS_CATEGORIES", "MS_TABLES", "write_diabetes_oof", "write_ms_diagnosis"]

# 1 = certain MS, 2 = probable, 3 = possible, 4 = doubtful, unlikely or definitely not MS.
MS_CATEGORIES = ("certain", "probable", "possible", "doubtful")
# Rows: the New Orleans neurologist's rating 1-4; columns: the Winnipeg neurologist's.
MS_TABLES = {
    "Winnipeg": ((38, 5, 0, 1), (33, 11, 3, 0), (10, 14, 5, 6), (3, 7, 3, 10)),
    "New Orleans": ((5, 3, 0, 0), (3, 11, 4, 0), (2, 13, 3, 4), (1, 2, 4, 14)),
}


def write_ms_diagnosis(path: Path) -> None:
    """One row per patient of the two published 4 x 4 tables, in table order."""
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["patient", "patients", "new_orleans_neurologist", "winnipeg_neurologist"])
        number = 0
        for sample, table in MS_TABLES.items():
            for i, row in enumerate(table, start=1):
                for j, count in enumerate(row, start=1):
                    for _ in range(count):
                        number += 1
                        writer.writerow([f"P{number:03d}", sample, i, j])


def write_diabetes_oof(path: Path) -> None:
    """Out-of-fold grade predictions on the diabetes data (needs scikit-learn)."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import KFold, cross_val_predict

    features, target = load_diabetes(return_X_y=True)
    cuts = np.quantile(target, [0.2, 0.4, 0.6, 0.8])
    grade = np.searchsorted(cuts, target, side="right")
    folds = KFold(n_splits=5, shuffle=True, random_state=0)
    score = cross_val_predict(LinearRegression(), features, grade, cv=folds)
    # A weaker model for `wkappa compare`: body-mass index alone (feature 2).
    score_bmi = cross_val_predict(LinearRegression(), features[:, [2]], grade, cv=folds)
    score, score_bmi = np.round(score, 4), np.round(score_bmi, 4)
    pred_all, pred_bmi = (np.clip(np.rint(s), 0, 4).astype(np.int64) for s in (score, score_bmi))
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["patient", "grade", "oof_score", "pred_all", "pred_bmi"])
        rows = zip(
            grade.tolist(), score.tolist(), pred_all.tolist(), pred_bmi.tolist(), strict=True
        )
        for k, (g, s, a, b) in enumerate(rows, start=1):
            writer.writerow([f"D{k:03d}", g, f"{s:.4f}", a, b])


def main(argv: list[str] | None = None) -> None:
    """Write both files into the directory given (default: this package directory)."""
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else Path(__file__).parent
    directory.mkdir(parents=True, exist_ok=True)
    write_ms_diagnosis(directory / "ms_diagnosis.csv")
    write_diabetes_oof(directory / "diabetes_oof.csv")


if __name__ == "__main__":
    main()
