"""Where do the goodness-of-fit plans keep their promise?

Run: ``python benchmarks/planning_gof_range.py`` (about 2 minutes on one core).

``kappa_sample_size(method="goodness-of-fit")`` (Donner & Eliasziw 1992, kappaSize) plans with
the chi-square noncentrality ``sum_j (P_j(kappa1) - P_j(kappa0))² / P_j(kappa0)`` of the
common-kappa model's cells. That local approximation fails when a cell is much more likely
under kappa1 than under kappa0: kappa0 = 0 with a rare category, or several raters, whose
"all raters agree" cells have probability pi^R under independence. For binary ratings with
two, three and five raters, four prevalences and kappa0 = 0, 0.2, 0.4, 0.6 (kappa1 = kappa0
+ 0.25, and kappa1 = 0.6 for kappa0 = 0), each plan's n is run through wkappa's own test
(``kappa_power(n, method="simulation")``, 1,000 studies, a fixed seed) and printed beside the
largest cell ratio P_j(kappa1) / P_j(kappa0) and whether the plan warns (ratio above
``GOF_CELL_RATIO``). Prints a Markdown table.
"""

from __future__ import annotations

import warnings

import numpy as np

import wkappa as wk
from wkappa._stats.planning_methods import GOF_CELL_RATIO
from wkappa._stats.planning_models import goodness_of_fit_cells

POWER = 0.8


def main() -> None:
    designs = [
        (raters, prevalence, kappa0, kappa1)
        for raters in (2, 3, 5)
        for prevalence in (0.5, 0.3, 0.1, 0.03)
        for kappa0, kappa1 in ((0.0, 0.25), (0.0, 0.6), (0.2, 0.45), (0.4, 0.65), (0.6, 0.85))
    ]
    print(
        "| raters | prevalence | kappa0 | kappa1 | planned n | power delivered | cell ratio "
        "| warns |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for raters, prevalence, kappa0, kappa1 in designs:
        marginals = [prevalence, 1.0 - prevalence]
        options = {
            "kappa1": kappa1, "kappa0": kappa0, "marginals": marginals,
            "weights": "unweighted", "n_raters": raters,
        }  # fmt: skip
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plan = wk.kappa_sample_size(method="goodness-of-fit", **options)
        delivered = wk.kappa_power(
            plan.n, method="simulation", n_simulations=1000, rng=1, **options
        ).power
        pi = np.asarray(marginals)
        ratio = float(
            (
                goodness_of_fit_cells(pi, kappa1, raters)
                / goodness_of_fit_cells(pi, kappa0, raters)
            ).max()
        )
        warns = any("goodness-of-fit" in str(w.message) for w in caught)
        assert warns == (ratio > GOF_CELL_RATIO)
        print(
            f"| {raters} | {prevalence:g} | {kappa0:g} | {kappa1:g} | {plan.n} | "
            f"{delivered:.3f} | {ratio:.3g} | {'yes' if warns else ''} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
