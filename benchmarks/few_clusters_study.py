"""Coverage of the 95% cluster intervals by the number of clusters G.

Run: ``python benchmarks/few_clusters_study.py`` (about a minute per 1000 studies per G on a
shared core); ``--replicates N`` sets the studies per G (default 1000), ``--clusters 2 3 4`` the
G to run, ``--design lesions`` the second design.
Seeds are fixed: the same command gives the same numbers.

The clustered model is that of ``benchmarks/cluster_study.py``, with uniform prevalence:
each cluster has a grade and a difficulty shared by its items; on a hard cluster (probability
0.3) the readers are right with probability 0.4 instead of 0.85, and reader B errs upwards on
all its items. A third reader C, compared with B by ``paired_kappa_test``, is right with
probability 0.55 on a hard cluster and errs downwards there. Two designs: ``llm`` (that
study's LLM evaluation: m = 5 prompts per task, K = 5 grades, quadratic weights) and
``lesions`` (m = 4 lesions per scan, K = 3, linear weights). For each G, R studies of G
clusters x m items are drawn, and reported is the share whose interval covers the population
value (from 4 million simulated items), for:

* ``cluster``: ``kappa_test(a, b, cluster=ids).confidence_interval()``, the cluster-robust
  (sandwich) interval ``kappa ± t_{G-1} SE``;
* ``boot``, ``bca``: ``confidence_interval(method=BootstrapMethod(999, method=...))`` of the
  same result: the cluster bootstrap's percentile and BCa intervals (999 resamples of
  clusters);
* ``paired``: ``paired_kappa_test(a, b, c, cluster=ids, n_resamples=999)``'s expanded
  percentile interval of kappa(A, B) - kappa(A, C) (the cluster bootstrap of ``wkappa
  compare --cluster``).

Studies whose kappa (or, for ``paired``, difference) or standard error is undefined (every
item in one grade; all clusters alike) are left out and counted (``defined``).
"""

from __future__ import annotations

import argparse
import math
import time
import warnings
from dataclasses import dataclass

import numpy as np

import wkappa as wk
from wkappa._core import kappas, t_ppf, weight_matrix
from wkappa._stats import bootstrap
from wkappa._stats.cluster import cluster_bootstrap_kappas, cluster_jackknife, cluster_variance


@dataclass(frozen=True)
class Design:
    k: int  # grades
    items: int  # per cluster
    weights: str


DESIGNS = {
    "llm": Design(5, 5, "quadratic"),  # cluster_study.py's 30 tasks x 5 prompts
    "lesions": Design(3, 4, "linear"),  # cluster_study.py's 40 scans x 4 lesions
}
CLUSTERS = (2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 30)
METHODS = ("cluster", "boot", "bca", "paired")


def simulate(design: Design, n_clusters: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Readers A, B and C on n_clusters x m items, and the items' cluster ids."""
    k, m = design.k, design.items
    grade = rng.integers(0, k, n_clusters)
    hard = np.repeat(rng.random(n_clusters) < 0.3, m)
    n = n_clusters * m
    item = np.repeat(grade, m)
    item = np.clip(item + (rng.random(n) >= 0.8) * rng.choice([-1, 1], n), 0, k - 1)

    def reader(right_hard: float, step_hard: int) -> np.ndarray:
        """Right with probability 0.85 (right_hard on a hard cluster), else one grade off:
        on a hard cluster by step_hard (0: either way), else either way."""
        right = rng.random(n) < np.where(hard, right_hard, 0.85)
        either = rng.choice([-1, 1], n)
        step = np.where(hard & (step_hard != 0), step_hard, either)
        return np.where(right, item, np.clip(item + step, 0, k - 1))

    a, b, c = reader(0.4, 0), reader(0.4, 1), reader(0.55, -1)
    return a, b, c, np.repeat(np.arange(n_clusters), m)


def tables(a: np.ndarray, b: np.ndarray, ids: np.ndarray, g: int, k: int) -> np.ndarray:
    return np.bincount((ids * k + a) * k + b, minlength=g * k * k).reshape(g, k, k)


def population(design: Design) -> tuple[float, float]:
    """kappa(A, B) and kappa(A, B) - kappa(A, C) of 4 million simulated items."""
    k, matrix = design.k, weight_matrix(design.weights, design.k)
    a, b, c, _ = simulate(design, 4_000_000 // design.items, np.random.default_rng(99))
    ab = float(kappas(np.bincount(a * k + b, minlength=k * k).reshape(k, k), matrix))
    ac = float(kappas(np.bincount(a * k + c, minlength=k * k).reshape(k, k), matrix))
    return ab, ab - ac


def run(
    design: Design, g: int, replicates: int, resamples: int, truth: tuple[float, float]
) -> dict[str, float]:
    rng = np.random.default_rng(1000 + g)
    boot_rng = np.random.default_rng(2000 + g)
    k, weights = design.k, design.weights
    matrix = weight_matrix(weights, k)
    t_crit = t_ppf(0.975, g - 1.0)
    hits = dict.fromkeys(METHODS, 0)
    defined = dict.fromkeys(METHODS, 0)
    for r in range(replicates):
        a, b, c, ids = simulate(design, g, rng)
        stack = tables(a, b, ids, g, k)
        kappa, variance, _ = cluster_variance(stack, matrix)
        if math.isfinite(kappa) and variance > 0:
            half = t_crit * math.sqrt(variance)
            limits = {"cluster": (kappa - half, kappa + half)}
            values, _ = bootstrap.drop_undefined(
                cluster_bootstrap_kappas(stack, matrix, resamples, boot_rng)
            )
            limits["boot"] = bootstrap.percentile_interval(values, 0.95)
            jack, _ = cluster_jackknife(stack, matrix)
            limits["bca"] = bootstrap.bca_interval(values, kappa, jack, np.ones_like(jack), 0.95)
            if r < 3:  # the library's intervals are these
                public = wk.kappa_test(a, b, weights=weights, cluster=ids, labels=range(k))
                assert np.allclose(public.confidence_interval(), limits["cluster"], rtol=1e-10)
            for name, (low, high) in limits.items():
                if math.isfinite(low) and math.isfinite(high):
                    defined[name] += 1
                    hits[name] += bool(low <= truth[0] <= high)
        paired = wk.paired_kappa_test(
            a, b, c, weights=weights, labels=range(k), cluster=ids, n_resamples=resamples, rng=r
        )
        low, high = paired.confidence_interval()
        if math.isfinite(low) and math.isfinite(high):
            defined["paired"] += 1
            hits["paired"] += bool(low <= truth[1] <= high)
    out = {m: hits[m] / defined[m] if defined[m] else math.nan for m in METHODS}
    out.update({f"defined {m}": defined[m] / replicates for m in METHODS})
    return out


def distinct_resamples(g: int) -> int:
    """Distinct multisets of g clusters drawn from g: C(2g - 1, g)."""
    return math.comb(2 * g - 1, g)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=1000, help="studies per G")
    parser.add_argument("--resamples", type=int, default=999, help="bootstrap resamples")
    parser.add_argument("--clusters", type=int, nargs="+", default=list(CLUSTERS))
    parser.add_argument("--design", choices=list(DESIGNS), default="llm")
    args = parser.parse_args()
    design = DESIGNS[args.design]
    truth = population(design)
    print(
        f"Coverage of 95% intervals by clusters G ({design.items} items each, k = "
        f"{design.k}, {design.weights}; "
        f"kappa {truth[0]:.3f}, paired difference {truth[1]:.3f}); {args.replicates} studies "
        f"per G (Monte Carlo SE ~{math.sqrt(0.95 * 0.05 / args.replicates):.3f} at 0.95, "
        f"~{math.sqrt(0.9 * 0.1 / args.replicates):.3f} at 0.90), {args.resamples} resamples"
    )
    print(
        f"{'G':>3s} {'distinct':>9s} "
        + " ".join(f"{m:>7s}" for m in METHODS)
        + "  defined (kappa / paired)"
    )
    warnings.simplefilter("ignore")  # undefined replicates, BCa on one side, few clusters
    for g in args.clusters:
        started = time.perf_counter()
        out = run(design, g, args.replicates, args.resamples, truth)
        cells = " ".join(f"{out[m]:7.3f}" for m in METHODS)
        print(
            f"{g:3d} {distinct_resamples(g):9d} {cells}  "
            f"{out['defined cluster']:.3f} / {out['defined paired']:.3f}"
            f"   ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
