"""Coverage of the overall kappa's 95% interval, for both poolings, and size of the test of
equal kappas of ``stratified_kappa_test(..., strata=site, cluster=patient)``: clusters nested
in strata.

Run: ``PYTHONPATH=src python benchmarks/stratified_cluster_study.py`` (a few minutes on
a shared core); ``--replicates N`` sets the studies per design (default 500), ``--cases 0 3``
runs some designs only (their numbers in the table). Seeds are fixed: the same command gives
the same numbers.

**Model.** Each stratum (a site) has G clusters (patients) of 1 to 4 items (eyes, lesions)
each, the size drawn uniformly. As in ``benchmarks/cluster_study.py``, a cluster has a latent
grade (K ordered grades, skewed prevalence ``(1, 2, ..., K) / sum``) and a difficulty shared
by its items: each item's true grade is the cluster's with probability 0.8, else one grade
off (clipped); the cluster is *hard* with probability 0.3; both readers rate an item right
with probability ``accuracy`` (0.85) on an easy cluster and 0.4 on a hard one, else one grade
off, and on a hard cluster reader B errs upwards on all its items. Every other stratum is
the mirror image: prevalence ``(K, ..., 2, 1) / sum`` and reader B erring downwards on a hard
cluster. Mirroring the grades of both readers leaves quadratic and unweighted kappa
unchanged, so the strata differ in their margins but share one population kappa, the
*truth*: the mean of the first strata's kappas of 2 million simulated items each (the table's
last line says by how much they differ, that sample's error). In the power designs the first
stratum's readers have ``accuracy`` 0.55 instead (its kappa shown beside the others').

For each design, R studies are drawn and each is scored three times: with ``cluster=`` and
``pooling="inverse-variance"`` (SAS's), with ``cluster=`` and ``pooling="pairs"``, and
without ``cluster=`` (SAS's); the columns are:

* ``bias`` and ``SE/SD``: the mean overall kappa (SAS's, with ``cluster=``) minus the truth,
  and the mean overall standard error over the standard deviation of the overall kappa
  across the R studies (below 1: the standard error is too small);
* ``cover``, ``cover plain``: the share of ``result.confidence_interval()`` (95%, the normal
  interval SAS prints) covering the truth, with ``cluster=`` and without it (pairs taken as
  independent);
* ``cover-t``: SAS's interval with the t quantile on ``sum(G_h) - S`` degrees of freedom
  (the clusters less the strata) in place of the normal one; a candidate, not what the
  library prints;
* ``bias pairs``, ``SE/SD pairs``, ``cover pairs``: the same for ``pooling="pairs"`` with
  ``cluster=``: the strata's kappas weighted by their numbers of pairs ``n_h``,
  ``sum(n_h k_h) / N``, standard error ``sqrt(sum(n_h^2 V_h)) / N`` with the cluster-robust
  ``V_h``, its interval on t with ``sum(G_h) - S`` df (``result.confidence_interval()``);
* ``stratum``: the share of the strata's own intervals (``result.results``, t on G_h - 1 df)
  covering the truth (the power designs: the strata sharing it);
* ``size``, ``size plain``: the share with ``homogeneity_pvalue < 0.05``, with and without
  ``cluster=`` (in parentheses: the power, in the power designs);
* ``dropped``: strata left out over all studies (a kappa or standard error undefined: all
  their items in one grade, all their clusters alike; the library warns and leaves them out).
"""

from __future__ import annotations

import argparse
import math
import time
import warnings
from dataclasses import dataclass, replace

import numpy as np

import wkappa as wk
from wkappa._core import kappas, t_ppf, weight_matrix


@dataclass(frozen=True)
class Design:
    strata: int  # S
    clusters: int  # G per stratum
    k: int  # grades
    weights: str
    unequal: bool = False  # the first stratum's readers less accurate


DESIGNS = (
    Design(3, 10, 4, "quadratic"),
    Design(3, 20, 4, "quadratic"),
    Design(3, 40, 4, "quadratic"),
    Design(3, 60, 4, "quadratic"),
    Design(2, 10, 3, "unweighted"),
    Design(2, 20, 3, "unweighted"),
    Design(2, 40, 3, "unweighted"),
    Design(6, 10, 5, "quadratic"),
    Design(6, 30, 5, "quadratic"),
    Design(4, 20, 5, "unweighted"),
    Design(3, 120, 4, "quadratic"),
    Design(3, 20, 4, "quadratic", unequal=True),
    Design(3, 60, 4, "quadratic", unequal=True),
)
EASY, HARD, LOW = 0.85, 0.4, 0.55
POPULATION_CLUSTERS = 800_000  # per stratum: about 2 million items


def simulate(
    design: Design, rng: np.random.Generator, clusters: int | None = None
) -> tuple[np.ndarray, ...]:
    """Readers A and B, the items' strata and clusters (ids unique across strata)."""
    k, s = design.k, design.strata
    g = design.clusters if clusters is None else clusters
    stratum_of_cluster = np.repeat(np.arange(s), g)
    sizes = rng.integers(1, 5, s * g)
    ids = np.repeat(np.arange(s * g), sizes)
    strata = stratum_of_cluster[ids]
    skewed = np.arange(1, k + 1) / (k * (k + 1) / 2)
    grade = rng.choice(k, s * g, p=skewed)
    grade = np.where(stratum_of_cluster % 2 == 1, k - 1 - grade, grade)  # mirrored
    n = ids.size
    item = grade[ids]
    item = np.clip(item + (rng.random(n) >= 0.8) * rng.choice([-1, 1], n), 0, k - 1)
    hard = (rng.random(s * g) < 0.3)[ids]
    easy = np.where(design.unequal & (strata == 0), LOW, EASY)

    shared = np.where(strata % 2 == 1, -1, 1)  # B's bias on a hard cluster, mirrored too

    def reader(biased: bool) -> np.ndarray:
        right = rng.random(n) < np.where(hard, HARD, easy)
        either = rng.choice([-1, 1], n)
        step = np.where(hard, shared, either) if biased else either
        return np.where(right, item, np.clip(item + step, 0, k - 1))

    return reader(False), reader(True), strata, ids


def population(design: Design) -> list[float]:
    """The population kappa of the first three strata (their first is the less accurate one
    in the power designs, their second mirrored): of 2 million simulated items each."""
    k, matrix = design.k, weight_matrix(design.weights, design.k)
    three = replace(design, strata=min(design.strata, 3))  # the kinds of strata there are
    a, b, strata, _ = simulate(three, np.random.default_rng(99), clusters=POPULATION_CLUSTERS)
    out = []
    for h in range(three.strata):
        keep = strata == h
        table = np.bincount(a[keep] * k + b[keep], minlength=k * k).reshape(k, k)
        out.append(float(kappas(table, matrix)))
    return out


def run(design: Design, replicates: int, seed: int, truth: float) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    labels = range(design.k)
    t_crit = t_ppf(0.975, float(design.strata * (design.clusters - 1)))
    cover = dict.fromkeys(("cluster", "cluster-t", "plain", "pairs", "stratum"), 0)
    reject = {"cluster": 0, "plain": 0}
    estimates, errors, dropped = [], [], 0
    pooled, pooled_errors = [], []
    for _ in range(replicates):
        a, b, strata, ids = simulate(design, rng)
        options = {"strata": strata, "weights": design.weights, "labels": labels}
        clustered = wk.stratified_kappa_test(
            a, b, cluster=ids, pooling="inverse-variance", **options
        )
        pairs = wk.stratified_kappa_test(a, b, cluster=ids, pooling="pairs", **options)
        plain = wk.stratified_kappa_test(a, b, **options)
        dropped += len(clustered.used) - sum(clustered.used)
        for name, result in (("cluster", clustered), ("plain", plain), ("pairs", pairs)):
            low, high = result.confidence_interval()
            cover[name] += bool(low <= truth <= high)
        for name, result in (("cluster", clustered), ("plain", plain)):
            reject[name] += bool(result.homogeneity_pvalue < 0.05)
        kappa, se = clustered.statistic, clustered.standard_error
        cover["cluster-t"] += bool(abs(kappa - truth) <= t_crit * se)
        pooled.append(pairs.statistic)
        pooled_errors.append(pairs.standard_error)
        kept = [r for r, u in zip(clustered.results, clustered.used, strict=True) if u]
        if design.unequal:
            kept = kept[1:]
        cover["stratum"] += sum(
            bool(r.confidence_interval()[0] <= truth <= r.confidence_interval()[1]) for r in kept
        ) / max(len(kept), 1)
        estimates.append(kappa)
        errors.append(se)
    out = {f"cover {m}": cover[m] / replicates for m in cover}
    out.update({f"reject {m}": reject[m] / replicates for m in reject})
    out["se/sd"] = float(np.mean(errors) / np.std(estimates, ddof=1))
    out["bias"] = float(np.mean(estimates)) - truth
    out["se/sd pairs"] = float(np.mean(pooled_errors) / np.std(pooled, ddof=1))
    out["bias pairs"] = float(np.mean(pooled)) - truth
    out["dropped"] = dropped
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=500, help="studies per design")
    parser.add_argument(
        "--cases", type=int, nargs="+", default=list(range(len(DESIGNS))), help="designs to run"
    )
    args = parser.parse_args(argv)
    r = args.replicates
    print(
        f"stratified_kappa_test(..., strata=, cluster=): {r} studies per design (Monte Carlo "
        f"SE ~{math.sqrt(0.95 * 0.05 / r):.3f} at 0.95 or 0.05)"
    )
    print(
        "| S | G | K | weights | kappa | bias | SE/SD | cover | cover-t | cover plain | "
        "bias pairs | SE/SD pairs | cover pairs | stratum | size | size plain | dropped |"
    )
    print("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    warnings.simplefilter("ignore")  # undefined strata, few clusters
    started, worst = time.perf_counter(), 0.0
    for case in args.cases:
        design = DESIGNS[case]
        truths = population(design)
        equal = truths[1:] if design.unequal else truths
        worst = max(worst, max(equal) - min(equal))
        truth = truths[1] if design.unequal else float(np.mean(truths))
        out = run(design, r, 3000 + case, truth)
        cells = [
            f"{out['bias']:+.3f}",
            f"{out['se/sd']:.2f}",
            *(f"{out[f'cover {m}']:.3f}" for m in ("cluster", "cluster-t", "plain")),
            f"{out['bias pairs']:+.3f}",
            f"{out['se/sd pairs']:.2f}",
            f"{out['cover pairs']:.3f}",
            f"{out['cover stratum']:.3f}",
        ]
        if design.unequal:  # the overall kappa has no single truth there
            cells = [*([""] * 8), f"{out['cover stratum']:.3f}"]
            shown = f"{truths[0]:.3f} vs {truth:.3f}"
            tests = [f"({out['reject cluster']:.3f})", f"({out['reject plain']:.3f})"]
        else:
            shown = f"{truth:.3f}"
            tests = [f"{out['reject cluster']:.3f}", f"{out['reject plain']:.3f}"]
        print(
            f"| {design.strata} | {design.clusters} | {design.k} | {design.weights} | {shown} | "
            + " | ".join([*cells, *tests, str(out["dropped"])])
            + " |",
            flush=True,
        )
    print(
        f"(the truths of strata meant to be equal differ by {worst:.4f} at most; "
        f"{time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
