"""Coverage of ``group_agreement``'s 95% intervals (Vanbelle & Albert's two-group kappa).

Run: ``python benchmarks/two_groups_study.py`` (about a minute on one core; ``--reps`` and
``--bootstrap`` change the work). Seeds are fixed: the same command gives the same numbers.

Model: n items, each with a true grade on a 5-point scale (prevalence 0.1, 0.2, 0.4, 0.2,
0.1). A rater reports the true grade with probability ``1 - e`` and otherwise a grade one
step away (up or down at random, kept on the scale). Group A has ``R_a`` raters with error
``e_a``, group B ``R_b`` raters with error ``e_b``; raters of a group are exchangeable, so
the population kappa is a property of the model alone. It is taken from one draw of 400,000
items. Linear weights. Reported: coverage of the population kappa by the jackknife-t
interval (the default) and, with ``--bootstrap``, by the percentile and BCa item bootstraps
(999 resamples, fewer replicates), with the mean width.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

import wkappa as wk

PREVALENCE = np.array([0.1, 0.2, 0.4, 0.2, 0.1])


def draw(rng: np.random.Generator, n: int, raters: int, error: float, truth: np.ndarray):
    step = rng.choice([-1, 1], size=(n, raters))
    wrong = rng.random((n, raters)) < error
    return np.clip(truth[:, None] + np.where(wrong, step, 0), 0, 4)


def sample(rng: np.random.Generator, n: int, design: tuple[int, int, float, float]):
    r_a, r_b, e_a, e_b = design
    truth = rng.choice(5, size=n, p=PREVALENCE)
    return draw(rng, n, r_a, e_a, truth), draw(rng, n, r_b, e_b, truth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--bootstrap", type=int, default=0, help="replicates with bootstraps")
    args = parser.parse_args()
    designs = [(10, 4, 0.2, 0.2), (10, 4, 0.4, 0.1), (3, 3, 0.3, 0.3), (30, 10, 0.3, 0.15)]
    print("| R_a | R_b | e_a | e_b | kappa | n | method | coverage | mean width |")
    print("|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for index, design in enumerate(designs):
        rng = np.random.default_rng(1000 + index)
        a, b = sample(rng, 400_000, design)
        target = wk.group_agreement(a, b, weights="linear", labels=range(5)).statistic
        for n in (20, 30, 50, 100):
            methods = {"jackknife-t": args.reps}
            if args.bootstrap:
                methods |= {"percentile": args.bootstrap, "bca": args.bootstrap}
            for method, reps in methods.items():
                hits, widths = 0, []
                for rep in range(reps):
                    a, b = sample(rng, n, design)
                    result = wk.group_agreement(a, b, weights="linear", labels=range(5))
                    how = (
                        method
                        if method == "jackknife-t"
                        else wk.BootstrapMethod(999, method=method, rng=rep)
                    )
                    low, high = result.confidence_interval(method=how)
                    if math.isnan(low):
                        continue
                    hits += low <= target <= high
                    widths.append(high - low)
                print(
                    f"| {design[0]} | {design[1]} | {design[2]} | {design[3]} | {target:.3f} "
                    f"| {n} | {method} | {hits / len(widths):.3f} | {np.mean(widths):.3f} |"
                )


if __name__ == "__main__":
    main()
