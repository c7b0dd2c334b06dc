"""Do the study plans keep their promise? And how long does the simulation planner take?

Run: ``python benchmarks/planning_study.py`` (about 2 minutes on one core);
``--several`` times the several-raters simulation planner instead (three and five raters,
K = 5).

For anticipated populations with K = 2, 3, 5 (the common-kappa model table of the shared
marginals below) and unweighted, linear and quadratic weights, the sample size of a one-sided
5% test of ``kappa0`` with 80% power is planned by the four methods; each planned n is then
checked on 20,000 fresh simulated studies (a seed the planner never saw), scored by wkappa's
own test (``kappa_test_from_table(kappa0=...)``, batched here through the same functions:
``kappas`` and the variance under H0 of ``hypothesis_variances``). The simulation planner is
timed with its default accuracy (10,000 studies per candidate n). Prints a Markdown table.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

import wkappa as wk
from wkappa._core import kappas, norm_ppf, variances
from wkappa._stats.score_interval import hypothesis_variances

DESIGNS = [
    ([0.3, 0.7], "unweighted", 0.75, 0.5),
    ([0.2, 0.5, 0.3], "unweighted", 0.7, 0.5),
    ([0.2, 0.5, 0.3], "linear", 0.75, 0.5),
    ([0.2, 0.5, 0.3], "quadratic", 0.8, 0.6),
    ([0.1, 0.2, 0.4, 0.2, 0.1], "unweighted", 0.6, 0.4),
    ([0.1, 0.2, 0.4, 0.2, 0.1], "linear", 0.7, 0.5),
    ([0.1, 0.2, 0.4, 0.2, 0.1], "quadratic", 0.8, 0.6),
    ([0.05, 0.1, 0.15, 0.3, 0.4], "quadratic", 0.9, 0.8),
]
CHECKS = 20_000


def achieved_power(plan: wk.KappaPlan, seed: int) -> float:
    """Rejection rate of wkappa's test at the planned n on fresh studies."""
    rng = np.random.default_rng(seed)
    k = plan.table.shape[0]
    tables = rng.multinomial(plan.n, plan.table.ravel(), size=CHECKS).reshape(-1, k, k)
    w = plan.weight_matrix
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.asarray(kappas(tables, w))
        if plan.kappa0 == 0.0:
            _, variance0 = variances(tables, w, kappa)
        else:
            variance0 = hypothesis_variances(tables, w, plan.kappa0)
        z = (kappa - plan.kappa0) / np.sqrt(variance0)
    return float(np.mean(z > norm_ppf(1.0 - plan.alpha)))


def main() -> None:
    print("| K | weights | kappa1 | kappa0 | method | n | power of wkappa's test | planner time |")
    print("|---|---|---|---|---|---|---|---|")
    for marginals, weights, kappa1, kappa0 in DESIGNS:
        for method in ("asymptotic", "max-variance", "goodness-of-fit", "simulation"):
            if method == "goodness-of-fit" and weights != "unweighted":
                continue  # it plans for unweighted kappa (refused for other weights)
            start = time.perf_counter()
            plan = wk.kappa_sample_size(
                kappa1=kappa1,
                kappa0=kappa0,
                marginals=marginals,
                weights=weights,
                method=method,  # type: ignore[arg-type]
                rng=2026 if method == "simulation" else None,  # the formulas take no seed
            )
            elapsed = time.perf_counter() - start
            power = achieved_power(plan, seed=12345)
            se = math.sqrt(power * (1 - power) / CHECKS)
            print(
                f"| {len(marginals)} | {weights} | {kappa1} | {kappa0} | {method} | {plan.n} | "
                f"{power:.3f} ± {se:.3f} | {elapsed:.2f} s |"
            )


def several() -> None:
    """Time the simulation planner for K = 5, quadratic weights: three raters for each
    coefficient, then Conger's kappa with five raters."""
    print("| coefficient | raters | kappa1 | kappa0 | n | simulated power | model kappa | time |")
    print("|---|---|---|---|---|---|---|---|")
    cases = [(name, 3) for name in ("fleiss", "gwet", "krippendorff", "conger")]
    for coefficient, raters in [*cases, ("conger", 5)]:
        start = time.perf_counter()
        plan = wk.kappa_sample_size(
            kappa1=0.7,
            kappa0=0.5,
            marginals=[0.1, 0.2, 0.4, 0.2, 0.1],
            weights="quadratic",
            n_raters=raters,
            coefficient=coefficient,
            method="simulation",
            rng=1,
        )
        elapsed = time.perf_counter() - start
        print(
            f"| {coefficient} | {raters} | 0.7 | 0.5 | {plan.n} | {plan.power:.3f} | "
            f"{plan.model_kappa:.3f} | {elapsed:.1f} s |"
        )


if __name__ == "__main__":
    several() if "--several" in sys.argv else main()
