"""``wkappa demo``: the main job on built-in data, with no network access.

1. Quadratic weighted kappa step by step (O, W, E, numerator, denominator, kappa).
2. A published two-rater data set (``data/ms_diagnosis.csv``) scored by ``wkappa score`` with
   its standard error, confidence interval, test and interpretation, per patient sample.
3. Exact thresholds fitted by ``wkappa thresholds`` on bundled out-of-fold predictions
   (``data/diabetes_oof.csv``).
4. ``wkappa compare``: two models' rounded predictions against the same grades.
5. Several raters and an LLM judge: :func:`wkappa.agreement` and :func:`wkappa.rater_vs_panel`
   on a simulated panel (seeded), and the ``wkappa agree`` / ``wkappa judge`` commands to run on
   a file.

Sections 2 to 4 run the real commands, on the data files in an explicit directory (``--dir``;
by default the installed package's own copies), and print each command with the paths it
reads: what they print is what the command line prints, and the working directory is never
changed.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .._core import confusion_table, quadratic_weighted_kappa, weight_matrix
from .._stats import explain_table
from ..exceptions import WkappaError
from .options import add_command, add_common
from .output import format_interval, format_number

__all__ = ["DATA_FILES", "add_demo_parser", "data_path", "export_data", "run_demo"]

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

_SUMMARY = "worked examples on built-in data"
_DESCRIPTION = (
    "Quadratic weighted kappa step by step, a published two-rater data set scored with "
    "intervals, a threshold fit, two models compared, and a panel of raters with an LLM judge."
)


def add_demo_parser(sub: Any, main: Callable[[list[str]], int]) -> None:
    """Register ``demo`` on the sub-command parser; it runs its commands with ``main`` (the
    command line's entry point, passed in so that this module does not import the one that
    imports it)."""

    def run(args: argparse.Namespace) -> int:
        return run_demo(main, export=args.export_data, directory=args.dir)

    parser = add_command(sub, "demo", _SUMMARY, _DESCRIPTION, run)
    parser.add_argument(
        "--export-data",
        metavar="DIR",
        help="copy the bundled data sets to DIR (to try the commands on them)",
    )
    parser.add_argument(
        "--dir",
        metavar="DIR",
        help="copy the data sets to DIR and run the commands there (default: the installed "
        "copies, nothing written)",
    )
    add_common(parser)


def data_path(name: str) -> Path:
    """The path of a bundled data file (the package is installed unzipped)."""
    return Path(str(resources.files("wkappa") / "data" / name))


def _run(main: Callable[[list[str]], int], command: Sequence[str], directory: Path) -> None:
    """Print and run ``wkappa COMMAND`` on the data files in ``directory`` (their paths as
    the command is printed, so it can be run again as shown; the working directory is not
    changed)."""
    argv = [str(directory / part) if part in DATA_FILES else part for part in command]
    print("$ wkappa " + " ".join(shlex.quote(part) for part in argv))
    code = main([*argv, "--quiet"])
    if code:
        raise SystemExit(code)


def _seed_example() -> None:
    table = confusion_table(SEED_ACTUALS, SEED_PREDS)
    print("1. Quadratic weighted kappa step by step, on the ten pairs of the tutorial")
    print('   "Kaggle Winning Solutions: quadratic weighted kappa"')
    print(f"actuals = {list(SEED_ACTUALS)}")
    print(f"preds   = {list(SEED_PREDS)}")
    print(explain_table(table, weight_matrix("quadratic", table.shape[0]), range(5)))
    print(f"wkappa.qwk(actuals, preds) = {quadratic_weighted_kappa(SEED_ACTUALS, SEED_PREDS)!r}")
    print("(The steps above follow the tutorial's float arithmetic, 1 - 0.225 / 0.33, and")
    print("end one unit in the last place away; wkappa.qwk computes from the integer counts and")
    print("returns the float nearest to the exact kappa, 7/22.)")
    print()
    print("A 20-pair sample scored with the Kaggle reference implementation:")
    value = quadratic_weighted_kappa(SEED_RATER_A, SEED_RATER_B)
    print(f"wkappa.qwk(rater_a, rater_b) = {value!r}")
    print()
    rng = np.random.RandomState(2020)  # the legacy generator the tutorial used
    actuals = rng.randint(0, 4, 10000)
    preds = rng.randint(0, 4, 10000)
    print("The tutorial's 10,000 random pairs (np.random.seed(2020), randint(0, 4)):")
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


def simulated_panel() -> tuple[list[str], np.ndarray, np.ndarray]:
    """The demo's seeded panel: its labels, five annotators' ratings of 300 items (items x
    raters) and an LLM judge's, which calls a fifth of the clear cases "mild"."""
    labels = ["none", "mild", "moderate", "severe"]
    rng = np.random.default_rng(24)
    truth = rng.choice(4, size=300, p=[0.55, 0.25, 0.12, 0.08])

    def annotator(over_calls_mild: bool) -> np.ndarray:
        noise = rng.choice([-1, 0, 0, 0, 0, 0, 1], size=truth.size)
        if over_calls_mild:  # calls a fifth of the clear cases "mild"
            noise = np.where((truth == 0) & (rng.random(truth.size) < 0.2), 1, noise)
        named: np.ndarray = np.array(labels, dtype=object)[np.clip(truth + noise, 0, 3)]
        return named

    panel = np.column_stack([annotator(False) for _ in range(5)])
    return labels, panel, annotator(True)


def _panel_section() -> None:
    from .._stats import (
        agreement,
        base_rate_indices,
        interpretation,
        p_phrase,
        rater_vs_panel,
        smallest_pvalue,
    )

    labels, panel, judge = simulated_panel()
    print("5. Several raters and an LLM judge (simulated and seeded: 300 items labelled")
    print("   none / mild / moderate / severe by five annotators and a judge that calls a fifth")
    print("   of the clear cases 'mild').")
    print()
    fleiss = agreement(panel, labels=labels)
    band = interpretation(fleiss.statistic)
    print(f"wkappa.agreement(panel): Fleiss' kappa {format_number(fleiss.statistic)} ({band})")
    result = rater_vs_panel(panel, judge, labels=labels, n_resamples=999, rng=0)
    ci = result.confidence_interval()
    print(
        "wkappa.rater_vs_panel(panel, judge): mean kappa judge-members "
        f"{format_number(result.candidate_agreement)}, members-members "
        f"{format_number(result.panel_agreement)}"
    )
    # At the smallest p-value 999 resamples show, p is at most that value (as `judge` says).
    floor = smallest_pvalue(999, result.n_items, result.alternative)
    pvalue = float(result.pvalue)
    print(
        f"  difference {format_number(result.difference)}, 95% CI "
        f"{format_interval(ci.low, ci.high)}, {p_phrase(max(pvalue, floor), pvalue <= floor)}"
    )
    both = confusion_table(judge, panel[:, 0], labels=labels)
    rates = {key: format_number(value) for key, value in base_rate_indices(both).items()}
    print(
        f"  judge vs the first annotator: raw agreement {rates['observed_agreement']}, "
        f"kappa {rates['kappa']}, PABAK {rates['pabak']},"
    )
    print(
        f"  prevalence index {rates['prevalence_index']}, bias index "
        f"{rates['bias_index']} (the judge's extra 'mild' calls)"
    )
    print()
    print("On a file: wkappa agree FILE --raters A,B,C (or --item/--rater/--rating for a long")
    print('export), and wkappa judge FILE ... --candidate "LLM judge" for the judge against')
    print("the panel, with per-category agreement and these base rates (see the LLM-judge how-to).")


def export_data(directory: str | Path, quiet: bool = False) -> Path:
    """Copy the bundled data files to ``directory`` (made if missing); returns it. A file of
    that name with other contents is refused before anything is copied (a copy already
    there is left as it is)."""
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise WkappaError(
            f"{target} is a file, not a directory; the demo copies its data files into a "
            "directory. Hint: give a directory's name (it is made if missing)."
        )
    for name in DATA_FILES:
        there = target / name
        if there.exists() and (
            not there.is_file() or there.read_bytes() != data_path(name).read_bytes()
        ):
            raise WkappaError(
                f"{there} exists and is not the demo's {name}; the demo does not overwrite "
                "it. Hint: export to another directory, or move that file."
            )
    target.mkdir(parents=True, exist_ok=True)
    for name in DATA_FILES:
        shutil.copyfile(data_path(name), target / name)
        if not quiet:
            print(f"wrote {target / name}")
    return target


def run_demo(
    main: Callable[[list[str]], int],
    export: str | None = None,
    directory: str | None = None,
) -> int:
    """Print the demo, running its commands with ``main`` (the command line's entry point,
    passed in so that this module does not import the one that imports it). The commands
    read the data files in ``directory`` (copied there first; by default the bundled files
    where they are installed). With ``export``, only copy the data files there."""
    if export is not None:
        export_data(export)
        return 0
    where = data_path(DATA_FILES[0]).parent if directory is None else export_data(directory, True)
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
    _run(main, MS_COMMAND, where)
    print()
    print("Quadratic weights count a certain/probable disagreement as 1/9 of a certain/doubtful")
    print("one; with --weights unweighted every disagreement counts fully and kappa drops:")
    for sample, value in _unweighted_by_sample().items():
        print(f"  unweighted kappa, {sample} patients: {format_number(value)}")
    print("(Landis & Koch 1977 report 0.208 for the Winnipeg patients.)")
    print()
    print("=" * 72)
    print("3. Exact thresholds on out-of-fold predictions (diabetes data, 442 patients, grades")
    print("   0-4 = quintiles of disease progression, 5-fold cross-validated regression).")
    print()
    _run(main, THRESHOLD_COMMAND, where)
    print()
    print(f"Rounding the same scores to the nearest grade instead: kappa {_rounded_kappa():.6f}.")
    print("The kappa is that of the scores the thresholds were fitted on, so a little higher than")
    print("on new data: judge them there (`--apply NEW_FILE --out graded.csv`). Fit thresholds on")
    print("out-of-fold predictions, as these are: a model's scores of its own training rows would")
    print("flatter the fit more.")
    print()
    print("=" * 72)
    print("4. Two models, one truth: the rounded predictions of that regression (pred_all)")
    print("   against a regression on the body-mass index alone (pred_bmi), paired bootstrap.")
    print()
    _run(main, COMPARE_COMMAND, where)
    print()
    print("=" * 72)
    _panel_section()
    print()
    print("Try it yourself: wkappa demo --export-data DIR copies both files to DIR.")
    return 0
