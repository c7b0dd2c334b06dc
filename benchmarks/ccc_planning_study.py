"""Do the CCC study plans keep their promise?

Run: ``python benchmarks/ccc_planning_study.py`` (about 5 minutes on one core at the default
20,000 studies per plan; ``--studies 2000`` for a quick look). Writes
``benchmarks/results/ccc_planning.csv`` (``--out`` to change) and prints Markdown tables.

For each design below ``wk.ccc_sample_size`` plans the number of subjects (Lin's variance of
Fisher's z at the design's Pearson r and location shift): for the test of ``ccc0``
(one-sided 5%, 80% power), for an expected 95% interval width, for that width with
probability 0.8, and for the interval's lower limit to clear a value with probability 0.8.
Each planned n is then checked on fresh bivariate-normal studies with the design's means,
standard deviations and correlation, analysed by ``wk.ccc`` itself: the share of studies
whose test rejects H0 at 5%, the mean width of the two-sided 95% interval
``wk.ccc(...).confidence_interval()`` reports, the share of intervals at most as wide as
asked and the share whose lower limit clears the value, each beside what the plan promised.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

import numpy as np

import wkappa as wk

# (ccc1, ccc0, location shift u, scale shift v) of the test plans: u in units of
# sqrt(sigma1 sigma2), v = sigma1 / sigma2; Pearson's r follows (r = ccc1 / C_b).
TESTS = [
    (0.95, 0.90, 0.0, 1.0),
    (0.95, 0.90, 0.2, 1.0),
    (0.90, 0.80, 0.3, 1.2),
    (0.85, 0.70, 0.5, 1.0),
    (0.80, 0.60, 0.0, 1.5),
    (0.70, 0.50, 0.5, 1.5),
    (0.70, 0.40, 0.25, 1.25),
]
# (ccc1, u, v, width) of the width plans (each planned for the expected width and for the
# width with probability 0.8) and (ccc1, u, v, lower limit) of the lower-limit plans.
WIDTHS = [
    (0.95, 0.0, 1.0, 0.05),
    (0.90, 0.3, 1.2, 0.1),
    (0.80, 0.5, 1.5, 0.2),
    (0.70, 0.0, 1.0, 0.2),
]
LIMITS = [
    (0.95, 0.0, 1.0, 0.9),
    (0.90, 0.3, 1.2, 0.8),
    (0.80, 0.5, 1.5, 0.6),
    (0.70, 0.25, 1.25, 0.5),
]
FIELDS = (
    "goal ccc1 ccc0 location_shift scale_shift pearson ci_width lower_limit assurance_asked "
    "n studies promised_power simulated_power promised_width mean_width width_se "
    "promised_assurance simulated_assurance"
).split()


def simulate(plan: wk.CCCPlan, studies: int, seed: int) -> dict[str, float]:
    """What ``studies`` bivariate-normal studies of ``plan.n`` subjects, analysed by wk.ccc,
    deliver: rejection rate of the test of ``plan.ccc0`` (nan without one), mean width of
    the two-sided interval and its Monte Carlo SE, share of intervals at most
    ``plan.ci_width`` wide or whose lower limit clears ``plan.lower_limit`` (nan without)."""
    rng = np.random.default_rng(seed)
    s1, s2 = math.sqrt(plan.scale_shift), 1.0 / math.sqrt(plan.scale_shift)
    r = plan.pearson
    root = np.linalg.cholesky(np.array([[s1 * s1, r * s1 * s2], [r * s1 * s2, s2 * s2]]))
    data = rng.standard_normal((studies, plan.n, 2)) @ root.T
    data[:, :, 0] += plan.location_shift
    rejected = 0
    lows, widths = np.empty(studies), np.empty(studies)
    for i, study in enumerate(data):
        result = wk.ccc(study[:, 0], study[:, 1])
        low, high = result.confidence_interval(plan.confidence_level)
        lows[i], widths[i] = low, high - low
        if plan.ccc0 is not None:
            tested = wk.ccc(study[:, 0], study[:, 1], ccc0=plan.ccc0, alternative="greater")
            rejected += tested.pvalue < 0.05
    share = math.nan
    if plan.ci_width is not None:
        share = float(np.mean(widths <= plan.ci_width))
    elif plan.lower_limit is not None:
        share = float(np.mean(lows > plan.lower_limit))
    return {
        "simulated_power": rejected / studies if plan.ccc0 is not None else math.nan,
        "mean_width": float(widths.mean()),
        "width_se": float(widths.std() / math.sqrt(studies)),
        "simulated_assurance": share,
    }


def _row(plan: wk.CCCPlan, studies: int, seed: int, assurance: float | None) -> dict[str, object]:
    found = simulate(plan, studies, seed)
    return {
        "goal": plan.goal,
        "ccc1": plan.ccc1,
        "ccc0": plan.ccc0,
        "location_shift": round(plan.location_shift, 6),
        "scale_shift": round(plan.scale_shift, 6),
        "pearson": round(plan.pearson, 6),
        "ci_width": plan.ci_width,
        "lower_limit": plan.lower_limit,
        "assurance_asked": assurance,
        "n": plan.n,
        "studies": studies,
        "promised_power": round(plan.power, 6),
        "promised_width": round(plan.expected_width, 6),
        "promised_assurance": round(plan.assurance, 6),
        **{key: round(value, 6) for key, value in found.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=20_000, help="studies per plan")
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "ccc_planning.csv"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    rows = []
    seed = args.seed
    for ccc1, ccc0, u, v in TESTS:
        plan = wk.ccc_sample_size(ccc1=ccc1, ccc0=ccc0, location_shift=u, scale_shift=v)
        seed += 1
        rows.append(_row(plan, args.studies, seed, None))
    for ccc1, u, v, width in WIDTHS:
        for assurance in (None, 0.8):
            plan = wk.ccc_sample_size(ccc1=ccc1, location_shift=u, scale_shift=v,
                                      ci_width=width, assurance=assurance)  # fmt: skip
            seed += 1
            rows.append(_row(plan, args.studies, seed, assurance))
    for ccc1, u, v, limit in LIMITS:
        plan = wk.ccc_sample_size(ccc1=ccc1, location_shift=u, scale_shift=v,
                                  lower_limit=limit, assurance=0.8)  # fmt: skip
        seed += 1
        rows.append(_row(plan, args.studies, seed, 0.8))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    _print(rows, args.studies)
    print()
    print(f"{time.perf_counter() - start:.0f} s")


def _print(rows: list[dict[str, object]], studies: int) -> None:
    def g(value: object) -> str:
        return "" if value is None else f"{value:g}"

    se = 1.0 / math.sqrt(studies)
    print(f"Test plans: H0 CCC = ccc0, one-sided 5%, 80% power; {studies:,} studies each "
          f"(Monte Carlo SE of a share about {0.4 * se:.3f}).")  # fmt: skip
    print()
    print("| ccc1 | ccc0 | u | v | r | n | promised power | wk.ccc rejected "
          "| promised width | mean width |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        if row["goal"] != "power":
            continue
        print(
            f"| {g(row['ccc1'])} | {g(row['ccc0'])} | {g(row['location_shift'])} | "
            f"{g(row['scale_shift'])} | {row['pearson']:.4f} | {row['n']} | "
            f"{row['promised_power']:.3f} | {row['simulated_power']:.3f} | "
            f"{row['promised_width']:.4f} | {row['mean_width']:.4f} |"
        )
    print()
    print("Interval plans: two-sided 95% interval; assurance = P(width <= asked) for the width "
          "plans, P(lower limit > asked) for the lower-limit plans.")  # fmt: skip
    print()
    print("| ccc1 | u | v | goal | asked | assurance asked | n | promised width "
          "| mean width (MC SE) | promised assurance | share of studies |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        if row["goal"] == "power":
            continue
        asked = row["ci_width"] if row["goal"] == "ci_width" else row["lower_limit"]
        print(
            f"| {g(row['ccc1'])} | {g(row['location_shift'])} | {g(row['scale_shift'])} | "
            f"{row['goal']} | {g(asked)} | {g(row['assurance_asked'])} | {row['n']} | "
            f"{row['promised_width']:.4f} | {row['mean_width']:.4f} "
            f"({row['width_se']:.5f}) | {row['promised_assurance']:.3f} | "
            f"{row['simulated_assurance']:.3f} |"
        )


if __name__ == "__main__":
    main()
