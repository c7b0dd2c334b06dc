"""Do the bootstrap p-value and the interval of a difference agree? By simulation.

Run: ``PYTHONPATH=src python benchmarks/pvalue_duality_study.py`` (about a minute on one
core); ``--cases`` sets the simulated data sets per design, ``--resamples`` the bootstrap
replicates (499 by default, where the resolution of the p-value is coarse).

:func:`wkappa.rater_vs_panel` and :func:`wkappa.paired_kappa_test` report a p-value of
H0: difference = 0 and an expanded percentile interval of the difference from the same
bootstrap replicates. A test and its interval agree when, for every level ``1 - alpha``, the
p-value is below ``alpha`` exactly when the interval at that level excludes 0. For each
simulated data set the script checks this at alpha in {0.01, 0.02, 0.05, 0.1, 0.2} and for
the three alternatives (the one-sided interval of 'greater' / 'less' against its one-sided
p-value) and counts the data sets where at least one check disagrees, and the checks that
disagree at alpha = 0.05 two-sided.

Designs: a panel of 3 members who report an item's grade (4 categories) with probability
0.7 and a random grade otherwise; the candidate with probability 0.62, 0.7 or 0.78 (below,
equal to, above the members, so that many p-values fall near the usual levels), on n = 30,
60 or 120 items. The paired test: a truth and two predictions that report it with
probabilities 0.7 and 0.66-0.74. Seeds are fixed: the same command gives the same numbers.
"""

from __future__ import annotations

import argparse
import functools
import time
import warnings
from typing import Any

import numpy as np

import wkappa as wk

ALPHAS = (0.01, 0.02, 0.05, 0.1, 0.2)
ALTERNATIVES = ("two-sided", "greater", "less")


def _noisy(rng: np.random.Generator, truth: np.ndarray, accuracy: float) -> np.ndarray:
    return np.where(rng.random(truth.size) < accuracy, truth, rng.integers(0, 4, truth.size))


def _panel(panel: np.ndarray, candidate: np.ndarray, alternative: str, b: int, seed: int) -> Any:
    return wk.rater_vs_panel(panel, candidate, n_resamples=b, rng=seed, alternative=alternative)


def _paired(
    truth: np.ndarray, a: np.ndarray, b_pred: np.ndarray, alternative: str, b: int, seed: int
) -> Any:
    return wk.paired_kappa_test(truth, a, b_pred, n_resamples=b, rng=seed, alternative=alternative)


def _disagreements(make: Any, resamples: int, seed: int) -> tuple[int, int]:
    """(checks that disagree, of which at alpha = 0.05 two-sided) for one data set."""
    bad = bad_05 = 0
    for alternative in ALTERNATIVES:
        result = make(alternative, resamples, seed)
        for alpha in ALPHAS:
            ci = result.confidence_interval(1 - alpha)
            excludes = ci.low > 0 or ci.high < 0
            rejects = result.pvalue < alpha
            if excludes != rejects:
                bad += 1
                bad_05 += alternative == "two-sided" and alpha == 0.05
    return bad, bad_05


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=40, help="data sets per design")
    parser.add_argument("--resamples", type=int, default=499)
    args = parser.parse_args()
    start = time.perf_counter()
    print(
        f"# pvalue_duality_study: {args.cases} data sets per design, "
        f"{args.resamples} resamples; numpy {np.__version__}"
    )
    print("| test | n | data sets | any check disagrees | disagreements at 0.05 two-sided |")
    print("|---|---:|---:|---:|---:|")
    for test in ("rater_vs_panel", "paired_kappa_test"):
        for n in (30, 60, 120):
            sets = with_bad = at_05 = 0
            for accuracy in (0.62, 0.7, 0.78):
                for case in range(args.cases):
                    rng = np.random.default_rng([n, round(accuracy * 100), case])
                    seed = int(rng.integers(2**32))
                    truth = rng.integers(0, 4, n)
                    if test == "rater_vs_panel":
                        panel = np.column_stack([_noisy(rng, truth, 0.7) for _ in range(3)])
                        make = functools.partial(_panel, panel, _noisy(rng, truth, accuracy))
                    else:
                        a = _noisy(rng, truth, 0.7)
                        b = _noisy(rng, truth, 0.7 + (accuracy - 0.7) / 2)
                        make = functools.partial(_paired, truth, a, b)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        bad, bad_05 = _disagreements(make, args.resamples, seed)
                    sets += 1
                    with_bad += bad > 0
                    at_05 += bad_05
            print(f"| {test} | {n} | {sets} | {with_bad} | {at_05} |")
    print(f"# {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
