"""Do the ICC study plans keep their promise?

Run: ``python benchmarks/icc_planning_study.py`` (8-10 minutes on one core at the
default 200,000 studies per plan; ``--studies 10000`` for a quick look).

For each design below ``wk.icc_sample_size`` plans the number of subjects by the exact F
method and by the published approximation (Walter, Eliasziw & Donner 1998 for the test of
``icc0``, one-sided 5%, 80% power; Bonett 2002 for an expected 95% interval width). Each
planned n is then checked on fresh studies simulated from the random-effects model
(``x_ij = s_i + e_ij``; the two-way designs add a random offset per rater, which the
consistency ICC removes) and analysed by ``wk.icc`` itself, many studies per call (the
features axis): the share of studies whose test rejects H0 at 5% and the mean width of the
two-sided 95% interval ``wk.icc(...).confidence_interval()`` reports, each with its Monte
Carlo standard error, and the share of intervals at most as wide as asked (the width plans'
``assurance``). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import wkappa as wk

# (form, raters k, icc1, icc0) of the test plans.
TESTS = [
    ("1,1", 2, 0.75, 0.5),
    ("1,1", 2, 0.9, 0.7),
    ("1,1", 3, 0.8, 0.6),
    ("1,1", 5, 0.6, 0.4),
    ("1,1", 3, 0.3, 0.0),
    ("C,1", 3, 0.8, 0.6),
    ("C,1", 4, 0.5, 0.2),
    ("C,k", 3, 0.9, 0.8),
]
# (form, raters k, icc1, width, assurance) of the width plans (assurance None: the expected
# width; else the probability that the width is at most the one asked, exact method only).
WIDTHS = [
    ("1,1", 4, 0.85, 0.2, None),
    ("1,1", 4, 0.85, 0.2, 0.8),
    ("1,1", 3, 0.5, 0.3, None),
    ("1,1", 2, 0.75, 0.2, None),
    ("1,1", 2, 0.9, 0.1, None),
    ("1,1", 2, 0.9, 0.1, 0.9),
    ("C,1", 3, 0.7, 0.2, None),
    ("C,k", 3, 0.7, 0.1, None),
    ("C,k", 3, 0.7, 0.1, 0.8),
]
CHUNK = 5_000  # studies per wk.icc call


def _single(value: float, k: int, form: str) -> float:
    return value / (k - (k - 1) * value) if form[2] == "k" else value


def simulate(
    plan: wk.ICCPlan, studies: int, seed: int, icc0: float | None
) -> tuple[float, float, float, float, float]:
    """Rejection rate (nan without icc0) and mean interval width, with their Monte Carlo
    standard errors, and the share of intervals at most ``plan.ci_width`` wide (nan without
    one), over ``studies`` simulated studies of ``plan.n`` subjects."""
    k, n, form = plan.n_raters, plan.n, plan.form
    rho = _single(plan.icc1, k, form)
    rng = np.random.default_rng(seed)
    rejected, widths = 0, []
    done = 0
    while done < studies:
        size = min(CHUNK, studies - done)
        ratings = rng.normal(size=(n, 1, size)) * math.sqrt(rho)
        ratings = ratings + rng.normal(size=(n, k, size)) * math.sqrt(1.0 - rho)
        if form[0] == "C":
            ratings = ratings + rng.normal(size=(1, k, size))
        if icc0 is not None:
            tested = wk.icc(ratings, form=form, icc0=icc0, alternative="greater")
            rejected += int(np.sum(tested.pvalue < 0.05))
        interval = wk.icc(ratings, form=form).confidence_interval()
        widths.append(np.asarray(interval.high - interval.low))
        done += size
    width = np.concatenate(widths)
    power = rejected / studies if icc0 is not None else math.nan
    power_se = math.sqrt(power * (1.0 - power) / studies) if icc0 is not None else math.nan
    narrow = math.nan if plan.ci_width is None else float(np.mean(width <= plan.ci_width))
    return power, power_se, float(width.mean()), float(width.std() / math.sqrt(studies)), narrow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=200_000, help="studies per plan")
    parser.add_argument("--seed", type=int, default=20261128)
    args = parser.parse_args()
    start = time.perf_counter()
    wk.icc(np.zeros((3, 2)) + np.arange(3)[:, None], form="1,1")  # load the ICC once
    print(f"Test plans: H0 ICC = icc0, one-sided 5%, 80% power; {args.studies:,} studies each.")
    print()
    print("| form | k | icc1 | icc0 | method | n | promised power | wk.icc rejected (MC SE) "
          "| promised width | mean width |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    seed = args.seed
    for form, k, icc1, icc0 in TESTS:
        for method in ("exact", "approximate"):
            if method == "approximate" and form[2] == "k":
                continue
            plan = wk.icc_sample_size(icc1=icc1, icc0=icc0, n_raters=k, form=form, method=method)
            seed += 1
            power, power_se, width, _, _ = simulate(plan, args.studies, seed, icc0)
            print(
                f"| {form} | {k} | {icc1:g} | {icc0:g} | {method} | {plan.n} | "
                f"{plan.power:.3f} | {power:.3f} ({power_se:.3f}) | "
                f"{plan.expected_width:.4f} | {width:.4f} |"
            )
    print()
    print(f"Width plans: expected width of the two-sided 95% interval; {args.studies:,} "
          "studies each.")  # fmt: skip
    print()
    print("| form | k | icc1 | width asked | assurance asked | method | n | promised width "
          "| mean width (MC SE) | promised P(width <= asked) | share of studies |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for form, k, icc1, asked, assurance in WIDTHS:
        for method in ("exact", "approximate"):
            if method == "approximate" and (form[2] == "k" or assurance is not None):
                continue
            plan = wk.icc_sample_size(icc1=icc1, n_raters=k, form=form, ci_width=asked,
                                      assurance=assurance, method=method)  # fmt: skip
            seed += 1
            _, _, width, width_se, narrow = simulate(plan, args.studies, seed, None)
            promised = "" if math.isnan(plan.assurance) else f"{plan.assurance:.3f}"
            print(
                f"| {form} | {k} | {icc1:g} | {asked:g} | "
                f"{'' if assurance is None else f'{assurance:g}'} | {method} | {plan.n} | "
                f"{plan.expected_width:.4f} | {width:.4f} ({width_se:.5f}) | {promised} | "
                f"{narrow:.3f} |"
            )
    print()
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
