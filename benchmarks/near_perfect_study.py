"""Coverage of the 95% kappa intervals near perfect agreement, by simulation.

Run: ``PYTHONPATH=src python benchmarks/near_perfect_study.py`` (a few minutes on one core);
``--replications`` sets the samples per design (2,000 by default), ``--boot`` the samples
per design that also get the percentile bootstrap (199 resamples; 0 skips it).

A researcher who observes kappa = 1 on 20 items wants an interval that says how low the
agreement could plausibly be. The default 'asymptotic' interval cannot: at kappa = 1 its
standard error is 0 and it is [1, 1], and the percentile bootstrap is [1, 1] too (every
resample agrees perfectly). This study measures, for population kappas of 0.9 to 0.99 and
n = 20 to 100, how often the sample agrees perfectly and how often each interval covers the
population kappa: overall, and among the samples with kappa = 1.

Designs: K in {2, 3, 5}; unweighted and quadratic weights (K = 2: unweighted only, where
they coincide); balanced or skewed prevalence; the 'chance' family (a mixture of perfect
agreement and chance, P = (1 - kappa) r r' + kappa diag(r)) and the 'ordinal' family
(rater B = rater A plus discretised normal noise), as in ``coverage_study.py``, whose
population tables this script reuses. Each sample is a multinomial table of n pairs; the
limits are the library's own (``score_limits``, ``fisher_z_limits``, the grouped Wald
limits of ``frames.kappa_by_group``), checked on a few samples per design against
``wk.kappa_test_from_table(...).confidence_interval(method=...)``. Coverage counts samples
with a defined kappa; a nan interval counts as a miss. Seeds are fixed.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import wkappa as wk
from coverage_study import population, population_kappa, weight_matrix
from wkappa._core import kappas
from wkappa._frames import group_statistics
from wkappa._stats import fisher_z_limits, score_limits

LEVEL = 0.95
NS = (20, 30, 50, 100)
TARGETS = (0.9, 0.95, 0.97, 0.99)
METHODS = ("asymptotic", "score", "fisher-z")


def run_design(
    k: int, weights: str, prev: str, family: str, target: float, n: int, args: argparse.Namespace
) -> dict[str, float]:
    seed = [k, len(weights), len(prev), len(family), round(target * 100), n]
    rng = np.random.default_rng(seed)
    matrix = weight_matrix(weights, k)
    joint = population(k, matrix, prev, family, target)
    truth = population_kappa(joint, matrix)
    tables = rng.multinomial(n, joint.ravel(), size=args.replications).reshape(-1, k, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        statistic = np.asarray(kappas(tables.astype(np.float64), matrix))
        wald = group_statistics(tables, weights, matrix, LEVEL)
        limits = {
            "asymptotic": (wald.ci_low, wald.ci_high),
            "score": score_limits(tables, matrix, LEVEL),
            "fisher-z": fisher_z_limits(tables, matrix, LEVEL),
        }
        for index in rng.choice(np.flatnonzero(~np.isnan(statistic)), size=3, replace=False):
            result = wk.kappa_test_from_table(tables[index], weights=weights)
            for method, (low, high) in limits.items():
                ci = result.confidence_interval(LEVEL, method=method)
                assert np.allclose(
                    [ci.low, ci.high], [low[index], high[index]], atol=1e-12, equal_nan=True
                ), (k, weights, method)
    defined = ~np.isnan(statistic)
    perfect = defined & (statistic >= 1.0 - 1e-12)
    row = {"kappa": truth, "perfect": float(perfect[defined].mean())}
    for method, (low, high) in limits.items():
        hits = (low <= truth) & (truth <= high)
        row[method] = float(hits[defined].mean())
        row[f"{method}|1"] = float(hits[perfect].mean()) if perfect.any() else float("nan")
        if method == "score":
            row["score_low|1"] = float(np.median(low[perfect])) if perfect.any() else np.nan
    if args.boot:
        hits_boot = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for index in np.flatnonzero(defined)[: args.boot]:
                result = wk.kappa_test_from_table(tables[index], weights=weights)
                how = wk.BootstrapMethod(199, rng=int(index))
                ci = result.confidence_interval(LEVEL, method=how)
                hits_boot.append(ci.low <= truth <= ci.high)
        row["percentile"] = float(np.mean(hits_boot))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=2000)
    parser.add_argument("--boot", type=int, default=200)
    args = parser.parse_args()
    start = time.perf_counter()
    rows = []
    for k in (2, 3, 5):
        for weights in ("unweighted",) if k == 2 else ("unweighted", "quadratic"):
            for prev in ("balanced", "skewed"):
                for family in ("chance", "ordinal"):
                    for target in TARGETS:
                        for n in NS:
                            row = run_design(k, weights, prev, family, target, n, args)
                            rows.append((k, weights, prev, family, target, n, row))
    print(
        f"# near_perfect_study: {len(rows)} designs, {args.replications} samples each "
        f"(percentile bootstrap: the first {args.boot}, 199 resamples); "
        f"{time.perf_counter() - start:.0f} s; numpy {np.__version__}"
    )
    boot = " percentile |" if args.boot else ""
    print(
        "\n| kappa | n | designs | share of samples with kappa = 1 | asymptotic | score | "
        f"fisher-z |{boot} asymptotic at kappa = 1 | score at kappa = 1 | fisher-z at kappa = 1 |"
        " score's lower limit at kappa = 1 (median) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if args.boot else "") + "---:|" * 4)
    for target in TARGETS:
        for n in NS:
            chosen = [r for (_, _, _, _, t, m, r) in rows if t == target and m == n]

            def med(key: str, chosen: list[dict[str, float]] = chosen) -> str:
                values = [r[key] for r in chosen if not np.isnan(r[key])]
                return f"{np.median(values):.3f}" if values else "-"

            def span(key: str, chosen: list[dict[str, float]] = chosen) -> str:
                values = [r[key] for r in chosen if not np.isnan(r[key])]
                return f"{min(values):.3f}-{max(values):.3f}" if values else "-"

            cells = [f"{target:.2f}", str(n), str(len(chosen)), span("perfect")]
            cells += [f"{med(m)} ({span(m)})" for m in METHODS]
            if args.boot:
                cells.append(f"{med('percentile')} ({span('percentile')})")
            cells += [med(f"{m}|1") for m in METHODS]
            cells.append(med("score_low|1"))
            print("| " + " | ".join(cells) + " |")
    print("\ncoverage: median over the designs (min-max); 'at kappa = 1': among those samples")


if __name__ == "__main__":
    main()
