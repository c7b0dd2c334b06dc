"""Missing ratings: bias, RMSE and interval coverage of wk.icc's REML estimates, by simulation.

Ratings follow the two-way random-effects model ``x_ij = t_i + r_j + e_ij`` (target, rater
and error variances ``var_t``, ``var_r``, ``var_e``); each rating is then missing
independently with probability ``--missing`` (MCAR; a replicate where a target or a rater lost
every rating is drawn again). Per design and replicate three estimates of ICC(A,1), ICC(C,1)
and ICC(A,k):

* ``complete``: the ANOVA on the data before any rating was removed (the benchmark);
* ``reml``: ``wk.icc(..., nan_policy="omit")`` on the data with missing ratings (REML);
* ``listwise``: the ANOVA on the targets with every rating (what pingouin's and psych's
  ``aov`` path do).

Printed per design: the true value, each estimator's mean bias and RMSE, and the share of
95% intervals covering the true value (REML's intervals come from the implied mean squares with
the observed-rating df; the complete data's are exact).

Usage::

    python benchmarks/icc_missing_study.py                  # the grid of the docs
    python benchmarks/icc_missing_study.py --replicates 50  # quicker
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import wkappa as wk

FORMS = ("A,1", "C,1", "A,k")


def truth(form: str, var_t: float, var_r: float, var_e: float, k: int) -> float:
    if form == "A,1":
        return var_t / (var_t + var_r + var_e)
    if form == "C,1":
        return var_t / (var_t + var_e)
    return var_t / (var_t + (var_r + var_e) / k)


def draw(rng, n, k, var_t, var_r, var_e, missing):
    x = (
        rng.normal(size=(n, 1)) * var_t**0.5
        + rng.normal(size=(1, k)) * var_r**0.5
        + rng.normal(size=(n, k)) * var_e**0.5
    )
    while True:
        gone = rng.random((n, k)) < missing
        if (~gone).any(axis=1).all() and (~gone).any(axis=0).all():
            break
    y = x.copy()
    y[gone] = np.nan
    return x, y


def study(n, k, var_t, var_r, var_e, missing, replicates, seed):
    rng = np.random.default_rng(seed)
    values = {(m, f): [] for m in ("complete", "reml", "listwise") for f in FORMS}
    covered = {(m, f): 0 for m in ("complete", "reml") for f in FORMS}
    for _ in range(replicates):
        x, y = draw(rng, n, k, var_t, var_r, var_e, missing)
        rows = ~np.isnan(y).any(axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits = {"complete": wk.icc_all(x), "reml": wk.icc_all(y)}
            if rows.sum() >= 2:
                fits["listwise"] = wk.icc_all(y[rows])
        for form in FORMS:
            true = truth(form, var_t, var_r, var_e, k)
            for method, fit in fits.items():
                values[method, form].append(fit[form].statistic)
                if (method, form) in covered:
                    low, high = fit[form].confidence_interval(0.95)
                    covered[method, form] += bool(low <= true <= high)
    return values, covered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replicates", type=int, default=200)
    parser.add_argument("--missing", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=2028)
    args = parser.parse_args()
    grid = [
        (30, 3, 1.0, 0.25, 1.0),
        (30, 5, 1.0, 0.0, 0.5),
        (100, 3, 1.0, 0.25, 1.0),
        (100, 5, 1.0, 0.25, 0.5),
    ]
    start = time.perf_counter()
    print(
        f"MCAR missing share {args.missing}, {args.replicates} replicates per design, "
        f"seed {args.seed}"
    )
    print(
        f"{'n':>4}{'k':>3}{'var_r':>6}{'var_e':>6} {'form':<5}{'true':>7}"
        f"{'bias complete':>15}{'bias REML':>11}{'bias listwise':>15}"
        f"{'RMSE REML':>11}{'RMSE listw.':>12}{'cover compl.':>14}{'cover REML':>12}"
    )
    for index, (n, k, var_t, var_r, var_e) in enumerate(grid):
        values, covered = study(
            n, k, var_t, var_r, var_e, args.missing, args.replicates, args.seed + index
        )
        for form in FORMS:
            true = truth(form, var_t, var_r, var_e, k)

            def bias(
                method: str, form: str = form, true: float = true, got: dict = values
            ) -> float:
                return float(np.nanmean(got[method, form]) - true)

            def rmse(
                method: str, form: str = form, true: float = true, got: dict = values
            ) -> float:
                return float(np.sqrt(np.nanmean((np.array(got[method, form]) - true) ** 2)))

            print(
                f"{n:>4}{k:>3}{var_r:>6g}{var_e:>6g} {form:<5}{true:>7.3f}"
                f"{bias('complete'):>15.4f}{bias('reml'):>11.4f}{bias('listwise'):>15.4f}"
                f"{rmse('reml'):>11.4f}{rmse('listwise'):>12.4f}"
                f"{covered['complete', form] / args.replicates:>14.3f}"
                f"{covered['reml', form] / args.replicates:>12.3f}"
            )
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
