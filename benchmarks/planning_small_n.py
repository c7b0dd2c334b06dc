"""Where do the large-sample plans of two raters keep their promise?

Run: ``python benchmarks/planning_small_n.py`` (about 15 seconds on one core).

``kappa_sample_size(method="asymptotic")`` (and ``"max-variance"``) plan with the normal
approximation of kappa at the planned n. With ``kappa0 = 0`` (the default) and a high kappa1
or a rare category the planned n is small, and few ratings fall in the rarest category: kappa
is then skewed, and a study whose pairs all land in one category has no kappa at all (its test
cannot reject). For binary ratings at five prevalences and for three- and five-category
populations with one rare category, each plan of 80% power (one-sided 5% test of kappa0), and
a few of assurance 0.8 for a lower limit, is run through wkappa's own test on fresh studies
(``kappa_power(n, method="simulation")``, 10,000 studies, a fixed seed) and printed beside the
expected number of ratings in the rarest category (n times the smallest marginal probability,
the smaller rater's), the share of studies with an undefined kappa (all pairs in one
category), and whether the plan warns. A plan checks itself where the rarest category expects
fewer than ``SMALL_CATEGORY_RATINGS`` ratings: it simulates 2,000 studies of its n (its own
fixed seed, not the one used here) and warns when the share meeting the goal is more than
0.05 below it. Prints a Markdown table.
"""

from __future__ import annotations

import warnings

import numpy as np

import wkappa as wk
from wkappa._stats.planning_methods import SMALL_CATEGORY_RATINGS

STUDIES = 10_000


Design = tuple[list[float], str, float, float, str, float | None]


def _designs() -> list[Design]:
    binary = [
        ([prevalence, 1.0 - prevalence], "unweighted", kappa0, kappa1, "asymptotic", None)
        for prevalence in (0.5, 0.3, 0.1, 0.05, 0.03)
        for kappa0, kappa1 in ((0.0, 0.4), (0.0, 0.6), (0.0, 0.8), (0.2, 0.5), (0.4, 0.7),
                               (0.6, 0.85))
    ]  # fmt: skip
    several = [
        (marginals, weights, kappa0, kappa1, method, None)
        for marginals in ([0.05, 0.35, 0.6], [0.05, 0.15, 0.3, 0.3, 0.2])
        for weights in ("unweighted", "quadratic")
        for kappa0, kappa1 in ((0.0, 0.6), (0.0, 0.8), (0.4, 0.7), (0.6, 0.85))
        for method in ("asymptotic", "max-variance")
    ]
    # The lower-limit goal (assurance 0.8 that the 95% score interval's lower limit clears L).
    limits = [
        ([prevalence, 1.0 - prevalence], "unweighted", 0.0, kappa1, "asymptotic", limit)
        for prevalence in (0.5, 0.1, 0.05)
        for limit, kappa1 in ((0.2, 0.8), (0.5, 0.85))
    ]
    return binary + several + limits


def main() -> None:
    print(
        "| marginals | weights | goal | kappa1 | method | planned n | expected ratings in the "
        "rarest category | power (assurance) delivered | undefined | warns |"
    )
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---|")
    for marginals, weights, kappa0, kappa1, method, limit in _designs():
        options: dict[str, object] = {"kappa1": kappa1, "marginals": marginals,
                                      "weights": weights}  # fmt: skip
        if limit is None:
            options["kappa0"] = kappa0
            goal = f"power, kappa0 = {kappa0:g}"
        else:
            options.update(lower_limit=limit, assurance=0.8)
            goal = f"assurance, L = {limit:g}"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plan = wk.kappa_sample_size(method=method, **options)
        given = {key: value for key, value in options.items() if key != "assurance"}
        checked = wk.kappa_power(plan.n, method="simulation", n_simulations=STUDIES, rng=1, **given)
        delivered = checked.power if limit is None else checked.assurance
        # A study is undefined when all its pairs fall in one diagonal cell.
        undefined = float(np.sum(np.diag(plan.table) ** plan.n))
        rarest = plan.n * min(plan.table.sum(axis=0).min(), plan.table.sum(axis=1).min())
        warns = any("normal approximation" in str(w.message) for w in caught)
        assert not warns or rarest < SMALL_CATEGORY_RATINGS
        print(
            f"| {'/'.join(f'{p:g}' for p in marginals)} | {weights} | {goal} | {kappa1:g} "
            f"| {method} | {plan.n} | {rarest:.1f} | {delivered:.3f} | {undefined:.3f} "
            f"| {'yes' if warns else ''} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
