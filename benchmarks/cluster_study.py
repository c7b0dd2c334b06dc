"""Coverage of the 95% kappa intervals on clustered ratings, and the size of the test of equal
kappas across strata.

Run: ``python benchmarks/cluster_study.py`` (about 10 minutes on one core; ``--design N``
runs one design, 1-2 minutes) or ``--quick`` (fewer replications). ``--strata`` runs the size
study of ``stratified_kappa_test``'s tests of equal kappas instead (SAS's chi-square, and the
goodness-of-fit test for two categories; about 6 minutes on a shared core); ``--several``
the coverage of ``agreement(..., cluster=ids)`` for several raters (Fleiss, Gwet: the
cluster-robust, Fisher-z-jackknife and cluster-bootstrap intervals; see :func:`run_several`),
``--panel`` that of ``rater_vs_panel(..., cluster=ids)`` (:func:`run_panel`); ``--replicates
N`` sets their replicates per design (about 0.25 s each on one core). Seeds are fixed: the
same command gives the same numbers.

**Clustered designs.** Each cluster (a patient, a scan, an LLM-evaluation task) has a latent
grade and a difficulty shared by its items (eyes, lesions, prompts):

* cluster grade ``c ~ prevalence`` over K ordered grades; each item's true grade is ``c``
  with probability 0.8, else ``c ± 1`` (clipped);
* the cluster is *hard* with probability 0.3; both readers rate an item right with
  probability 0.85 on an easy cluster and 0.4 on a hard one; a wrong rating is one grade off,
  and on a hard cluster reader B errs upwards on all its items (a shared bias).

So the items of a cluster agree or disagree together, which the ordinary interval (pairs
independent) ignores. The population kappa (the kappa of the items' joint distribution) is
computed from 4 million simulated items. For each design, R replicate studies of G clusters
x m items are drawn; reported is the share of replicates whose interval covers the
population kappa, and the mean width, for:

* ``ordinary``: the Fleiss-Cohen-Everitt Wald interval (``kappa_test(...)``, pairs independent);
* ``ordinary-score``: the small-sample score interval, still pairs independent;
* ``cluster``: the cluster-robust interval ``kappa ± t_{G-1} SE``
  (``kappa_test(..., cluster=ids)``);
* ``cluster-boot``: the cluster bootstrap percentile interval (999 resamples of clusters);
* ``cluster-bca``: the cluster bootstrap BCa interval.

The intervals are computed by the functions behind ``kappa_test(..., cluster=...)`` on the
per-cluster tables; the first replicates are checked against the public API.
"""

from __future__ import annotations

import argparse
import math
import time
import warnings
from dataclasses import dataclass

import numpy as np

import wkappa as wk
from wkappa._core import kappas, norm_ppf, t_ppf, variances, weight_matrix
from wkappa._stats import bootstrap
from wkappa._stats.cluster import cluster_bootstrap_kappas, cluster_jackknife, cluster_variance
from wkappa._stats.score_interval import score_limits

Z95 = norm_ppf(0.975)


@dataclass(frozen=True)
class Design:
    name: str
    clusters: int  # G
    items: int  # m items per cluster
    k: int
    weights: str
    skewed: bool = True


DESIGNS = [
    Design("eyes (60 patients x 2 eyes)", 60, 2, 5, "quadratic"),
    Design("eyes (120 patients x 2 eyes)", 120, 2, 5, "quadratic"),
    Design("eyes, unweighted (60 x 2)", 60, 2, 5, "unweighted"),
    Design("lesions (40 scans x 4)", 40, 4, 3, "linear", skewed=False),
    Design("LLM tasks (30 tasks x 5 prompts)", 30, 5, 5, "quadratic", skewed=False),
    Design("LLM tasks (50 tasks x 3 prompts)", 50, 3, 5, "quadratic", skewed=False),
    Design("no clustering (120 x 1)", 120, 1, 5, "quadratic"),
]
METHODS = ("ordinary", "ordinary-score", "cluster", "cluster-boot", "cluster-bca")


def prevalence(k: int, skewed: bool) -> np.ndarray:
    p = 0.6 ** np.arange(k) if skewed else np.ones(k)
    return p / p.sum()


def simulate(design: Design, n_clusters: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Ratings of two readers on n_clusters x m items: (truth-reader A, reader B, cluster)."""
    k, m = design.k, design.items
    grade = rng.choice(k, n_clusters, p=prevalence(k, design.skewed))
    hard = rng.random(n_clusters) < 0.3
    item_grade = np.repeat(grade, m)
    jitter = rng.random(n_clusters * m) >= 0.8
    item_grade = np.clip(item_grade + jitter * rng.choice([-1, 1], n_clusters * m), 0, k - 1)
    hard_items = np.repeat(hard, m)
    right = np.where(hard_items, 0.4, 0.85)
    a = np.where(
        rng.random(item_grade.size) < right,
        item_grade,
        np.clip(item_grade + rng.choice([-1, 1], item_grade.size), 0, k - 1),
    )
    up = np.where(hard_items, 1, rng.choice([-1, 1], item_grade.size))
    b = np.where(
        rng.random(item_grade.size) < right, item_grade, np.clip(item_grade + up, 0, k - 1)
    )
    return a, b, np.repeat(np.arange(n_clusters), m)


def cluster_tables(a: np.ndarray, b: np.ndarray, ids: np.ndarray, g: int, k: int) -> np.ndarray:
    return np.bincount((ids * k + a) * k + b, minlength=g * k * k).reshape(g, k, k)


def population_kappa(design: Design, seed: int = 99) -> float:
    rng = np.random.default_rng(seed)
    n_clusters = 4_000_000 // design.items
    a, b, _ = simulate(design, n_clusters, rng)
    table = np.bincount(a * design.k + b, minlength=design.k**2).reshape(design.k, design.k)
    return float(kappas(table, weight_matrix(design.weights, design.k)))


def run_design(
    design: Design, replicates: int, resamples: int, seed: int, check: int = 3
) -> dict[str, tuple[float, float]]:
    rng = np.random.default_rng(seed)
    boot_rng = np.random.default_rng(seed + 1)
    truth = population_kappa(design)
    matrix = weight_matrix(design.weights, design.k)
    t_crit = t_ppf(0.975, design.clusters - 1.0)
    hits = {m: 0 for m in METHODS}
    widths: dict[str, list[float]] = {m: [] for m in METHODS}
    defined = 0
    for r in range(replicates):
        a, b, ids = simulate(design, design.clusters, rng)
        tables = cluster_tables(a, b, ids, design.clusters, design.k)
        table = tables.sum(axis=0)
        kappa, cluster_var, _ = cluster_variance(tables, matrix)
        if not math.isfinite(kappa) or not cluster_var > 0:
            continue
        defined += 1
        variance, _ = variances(table, matrix, kappa)
        limits = {
            "ordinary": (kappa - Z95 * math.sqrt(variance), kappa + Z95 * math.sqrt(variance)),
            "ordinary-score": tuple(float(x) for x in score_limits(table, matrix, 0.95, kappa)),
            "cluster": (
                kappa - t_crit * math.sqrt(cluster_var),
                kappa + t_crit * math.sqrt(cluster_var),
            ),
        }
        # Percentile and BCa from the same cluster resamples (as KappaResult draws them).
        values, _ = bootstrap.drop_undefined(
            cluster_bootstrap_kappas(tables, matrix, resamples, boot_rng)
        )
        limits["cluster-boot"] = bootstrap.percentile_interval(values, 0.95)
        jack, _ = cluster_jackknife(tables, matrix)
        limits["cluster-bca"] = bootstrap.bca_interval(
            values, kappa, jack, np.ones_like(jack), 0.95
        )
        if r < check:  # the public API gives the same cluster interval
            public = wk.kappa_test(
                a, b, weights=design.weights, cluster=ids, labels=range(design.k)
            )
            low, high = public.confidence_interval()
            assert np.allclose((low, high), limits["cluster"], rtol=1e-10, atol=1e-12)
        for name, (low, high) in limits.items():
            hits[name] += bool(low <= truth <= high)
            widths[name].append(high - low)
    return {
        "truth": (truth, float("nan")),
        "defined": (defined / replicates, float("nan")),
        **{m: (hits[m] / defined, float(np.mean(widths[m]))) for m in METHODS},
    }


def run_clusters(replicates: int, resamples: int, only: int | None = None) -> None:
    print(
        f"Coverage of 95% intervals, {replicates} replicates per design (Monte Carlo SE ~"
        f"{math.sqrt(0.95 * 0.05 / replicates):.3f}); coverage / mean width"
    )
    header = f"{'design':34s} {'kappa':>6s} " + " ".join(f"{m:>16s}" for m in METHODS)
    print(header)
    for number, design in enumerate(DESIGNS):
        if only is not None and number != only:
            continue
        started = time.perf_counter()
        out = run_design(design, replicates, resamples, seed=1000 + number)
        cells = " ".join(f"{out[m][0]:7.3f} / {out[m][1]:6.3f}" for m in METHODS)
        print(
            f"{design.name:34s} {out['truth'][0]:6.3f} {cells}"
            f"   ({time.perf_counter() - started:.0f} s)"
        )


def strata_size(
    per_stratum: int, n_strata: int, k: int, rho: float, replicates: int, seed: int
) -> tuple[float, float]:
    """Rejection rates at 5% of the tests of equal kappas when every stratum has kappa rho
    (a mixture of perfect agreement and chance with stratum-specific prevalences, whose kappa
    is rho for every weight matrix): SAS's chi-square, for K = 2 the goodness-of-fit test on
    the same tables (nan for K > 2), and the Fisher-z bootstrap test (199 replicates)."""
    rng = np.random.default_rng(seed)
    prevalences = [np.roll(prevalence(k, True), s) for s in range(n_strata)]
    rejected = used = 0
    gof_rejected = gof_used = 0
    boot_rejected = boot_used = 0
    for _ in range(replicates):
        tables = []
        for prev in prevalences:
            truth = rng.choice(k, per_stratum, p=prev)
            pred = np.where(
                rng.random(per_stratum) < rho, truth, rng.choice(k, per_stratum, p=prev)
            )
            tables.append(np.bincount(truth * k + pred, minlength=k * k).reshape(k, k))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", wk.UndefinedKappaWarning)
            result = wk.stratified_kappa_test_from_tables(np.array(tables))
            if k == 2:
                fit = wk.stratified_kappa_test_from_tables(
                    np.array(tables), homogeneity="goodness-of-fit"
                )
                if math.isfinite(fit.homogeneity_pvalue):
                    gof_used += 1
                    gof_rejected += fit.homogeneity_pvalue < 0.05
            boot = wk.stratified_kappa_test_from_tables(
                np.array(tables), homogeneity=wk.BootstrapMethod(199, rng=rng)
            )
            if math.isfinite(boot.homogeneity_pvalue):
                boot_used += 1
                boot_rejected += boot.homogeneity_pvalue < 0.05
        if math.isfinite(result.homogeneity_pvalue):
            used += 1
            rejected += result.homogeneity_pvalue < 0.05
    return (
        rejected / used,
        gof_rejected / gof_used if gof_used else math.nan,
        boot_rejected / boot_used,
    )


def run_strata(replicates: int) -> None:
    print(
        f"Size of the 5% tests of equal kappas (quadratic weights), {replicates} replicates "
        f"(Monte Carlo SE ~{math.sqrt(0.05 * 0.95 / replicates):.3f}); 'gof': the "
        "goodness-of-fit test (K = 2 only); 'boot': the Fisher-z bootstrap test "
        "(homogeneity='bootstrap', 199 replicates)"
    )
    print(
        f"{'pairs per stratum':>18s} {'strata':>7s} {'K':>3s} {'kappa':>6s} {'size':>6s} "
        f"{'gof':>6s} {'boot':>6s}"
    )
    for number, (per, strata, k, rho) in enumerate(
        [
            (50, 3, 4, 0.6),
            (100, 3, 4, 0.6),
            (200, 3, 4, 0.6),
            (100, 5, 4, 0.6),
            (100, 3, 4, 0.8),
            (200, 3, 4, 0.8),
            (100, 3, 2, 0.6),
            (400, 3, 2, 0.6),
            (30, 3, 2, 0.6),
            (50, 3, 2, 0.6),
            (50, 5, 2, 0.6),
            (50, 3, 2, 0.8),
            (100, 3, 2, 0.8),
        ]
    ):
        size, gof, boot = strata_size(per, strata, k, rho, replicates, seed=2000 + number)
        print(f"{per:18d} {strata:7d} {k:3d} {rho:6.1f} {size:6.3f} {gof:6.3f} {boot:6.3f}")


def simulate_raters(
    n_clusters: int,
    items: int,
    raters: int,
    k: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratings (n_clusters * items, raters) and cluster ids, the mechanism of :func:`simulate`
    for R raters: each rater rates an item right with probability 0.85 (easy cluster) or 0.4
    (hard, probability 0.3); a wrong rating is one grade off, on a hard cluster in the
    cluster's own direction for every rater and item (a shared bias), else at random.
    Also returns the items' true grades."""
    n = n_clusters * items
    grade = rng.choice(k, n_clusters, p=prevalence(k, True))
    hard = np.repeat(rng.random(n_clusters) < 0.3, items)
    direction = np.repeat(rng.choice([-1, 1], n_clusters), items)
    jitter = rng.random(n) >= 0.8
    truth = np.clip(np.repeat(grade, items) + jitter * rng.choice([-1, 1], n), 0, k - 1)
    right = rng.random((n, raters)) < np.where(hard, 0.4, 0.85)[:, None]
    step = np.where(hard[:, None], direction[:, None], rng.choice([-1, 1], (n, raters)))
    ratings = np.where(right, truth[:, None], np.clip(truth[:, None] + step, 0, k - 1))
    return ratings.astype(np.float64), np.repeat(np.arange(n_clusters), items), truth


# (clusters, items per cluster); 4 raters, K = 4. The last design has no clustering.
SEVERAL = [(50, 3), (30, 5), (150, 1)]
SEVERAL_METHODS = ("ordinary", "cluster", "cluster-fz-jack", "cluster-boot", "cluster-bca")


def several_intervals(
    ratings: np.ndarray, ids: np.ndarray, coefficient: str, resamples: int, seed: int, check: bool
) -> dict[str, tuple[float, float]]:
    """The several-raters intervals of one sample: ``ordinary`` (items independent),
    ``cluster`` (``agreement(..., cluster=ids)``, t(G - 1)), ``cluster-fz-jack`` (its
    ``method='fisher-z-jackknife'``, the leave-one-cluster-out SE, recommended by
    ``explain()`` below 200 clusters), and the cluster bootstrap's percentile and BCa
    intervals, both from the same ``resamples`` cluster draws (the public
    ``BootstrapMethod(resamples, method=..., rng=seed)`` draws these; ``check`` asserts it)."""
    ordinary = wk.agreement(ratings, coefficient=coefficient)
    clustered = wk.agreement(ratings, coefficient=coefficient, cluster=ids)
    limits = {
        "ordinary": tuple(ordinary.confidence_interval()),
        "cluster": tuple(clustered.confidence_interval()),
        "cluster-fz-jack": tuple(clustered.confidence_interval(method="fisher-z-jackknife")),
    }
    values, _ = bootstrap.drop_undefined(
        clustered._bootstrap(resamples, np.random.default_rng(seed))
    )
    limits["cluster-boot"] = bootstrap.percentile_interval(values, 0.95)
    jack, counts = clustered._jackknife_values()
    limits["cluster-bca"] = bootstrap.bca_interval(values, clustered.statistic, jack, counts, 0.95)
    if check:
        for method in ("percentile", "bca"):
            public = clustered.confidence_interval(
                method=wk.BootstrapMethod(resamples, method=method, rng=seed)
            )
            name = "cluster-boot" if method == "percentile" else "cluster-bca"
            assert np.allclose(tuple(public), limits[name], rtol=1e-12, atol=1e-12)
    return {name: (float(low), float(high)) for name, (low, high) in limits.items()}


def run_several(
    replicates: int, resamples: int, only: int | None = None, raters: int = 4, k: int = 4
) -> None:
    """Coverage of the 95% intervals of Fleiss' kappa and Gwet's AC1 (unweighted) of R = 4
    raters on G clusters x m items (:func:`several_intervals`). The population values are
    the coefficients of 1.2 million simulated items."""
    print(
        f"Several raters ({raters} raters, K = {k}, unweighted): coverage of 95% intervals, "
        f"{replicates} replicates, {resamples} cluster resamples (Monte Carlo SE "
        f"~{math.sqrt(0.95 * 0.05 / replicates):.3f}); coverage / mean width"
    )
    coefficients = ("fleiss", "gwet")
    print(f"{'design':16s} {'coef':>7s} {'value':>6s} " + " ".join(
        f"{m:>16s}" for m in SEVERAL_METHODS
    ))  # fmt: skip
    for number, (clusters, items) in enumerate(SEVERAL):
        if only is not None and number != only:
            continue
        started = time.perf_counter()
        big, *_ = simulate_raters(1_200_000 // items, items, raters, k, np.random.default_rng(77))
        truth = {c: wk.agreement(big, coefficient=c).statistic for c in coefficients}
        rng = np.random.default_rng(3000 + number)
        hits = {(c, m): 0 for c in coefficients for m in SEVERAL_METHODS}
        widths: dict[tuple[str, str], list[float]] = {key: [] for key in hits}
        for r in range(replicates):
            ratings, ids, _ = simulate_raters(clusters, items, raters, k, rng)
            for c in coefficients:
                limits = several_intervals(ratings, ids, c, resamples, 10 * r, r < 2)
                for method, (low, high) in limits.items():
                    hits[c, method] += low <= truth[c] <= high
                    widths[c, method].append(high - low)
        name = f"{clusters} x {items} items"
        for c in coefficients:
            cells = " ".join(
                f"{hits[c, m] / replicates:7.3f} / {np.mean(widths[c, m]):6.3f}"
                for m in SEVERAL_METHODS
            )
            print(f"{name:16s} {c:>7s} {truth[c]:6.3f} {cells}", flush=True)
        print(f"{'':16s} ({time.perf_counter() - started:.0f} s)", flush=True)


# The panel of rater_vs_panel: 3 members as in run_several (right with probability 0.85 on an
# easy cluster, 0.4 on a hard one); the candidate (an LLM judge) has blind spots of its own:
# on a share 0.3 of the clusters, drawn apart from the hard ones, it is right with probability
# 0.3 (else 0.85), erring one grade in that cluster's direction. K = 4, Conger's kappa.
BLIND_SPOTS = 0.3


def simulate_panel(
    n_clusters: int, items: int, k: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The panel's and the candidate's ratings (n_clusters * items, 4) and the cluster ids."""
    ratings, ids, truth = simulate_raters(n_clusters, items, 3, k, rng)
    grade = rng.choice(k, n_clusters, p=prevalence(k, True))
    blind = np.repeat(rng.random(n_clusters) < BLIND_SPOTS, items)
    direction = np.repeat(np.where(grade < k / 2, 1, -1), items)
    right = rng.random(len(ids)) < np.where(blind, 0.3, 0.85)
    step = np.where(blind, direction, rng.choice([-1, 1], len(ids)))
    candidate = np.where(right, truth, np.clip(truth + step, 0, k - 1))
    return np.column_stack([ratings, candidate]), ids


def run_panel(replicates: int, resamples: int, only: int | None = None, k: int = 4) -> None:
    """Coverage of ``rater_vs_panel``'s 95% expanded percentile interval of the difference D
    (candidate's mean agreement with the members minus the members' with each other):
    ``ordinary`` resamples items, ``cluster`` (``cluster=ids``) whole clusters. The
    population D is that of 1.2 million simulated items."""
    print(
        f"rater_vs_panel (3 members + a candidate with blind spots, K = {k}, Conger): "
        f"coverage of 95% intervals of D, {replicates} replicates, {resamples} resamples "
        f"(Monte Carlo SE ~{math.sqrt(0.95 * 0.05 / replicates):.3f}); coverage / mean width"
    )
    print(f"{'design':16s} {'D':>7s} {'ordinary':>16s} {'cluster':>16s}")
    for number, (clusters, items) in enumerate(SEVERAL):
        if only is not None and number != only:
            continue
        started = time.perf_counter()
        big, _ = simulate_panel(1_200_000 // items, items, k, np.random.default_rng(78))
        truth = wk.rater_vs_panel(big[:, :3], big[:, 3], n_resamples=2, rng=0).difference
        rng = np.random.default_rng(4000 + number)
        hits = {"ordinary": 0, "cluster": 0}
        widths: dict[str, list[float]] = {key: [] for key in hits}
        for r in range(replicates):
            ratings, ids = simulate_panel(clusters, items, k, rng)
            for method, cluster in (("ordinary", None), ("cluster", ids)):
                result = wk.rater_vs_panel(
                    ratings[:, :3], ratings[:, 3], n_resamples=resamples, rng=r, cluster=cluster
                )
                low, high = result.confidence_interval()
                hits[method] += low <= truth <= high
                widths[method].append(high - low)
        cells = " ".join(f"{hits[m] / replicates:7.3f} / {np.mean(widths[m]):6.3f}" for m in hits)
        name = f"{clusters} x {items} items"
        print(f"{name:16s} {truth:7.3f} {cells}   ({time.perf_counter() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer replications")
    parser.add_argument("--strata", action="store_true", help="the stratified test's size")
    parser.add_argument("--design", type=int, help="run only this design (0-based)")
    parser.add_argument("--several", action="store_true", help="several raters (Fleiss, Gwet)")
    parser.add_argument("--panel", action="store_true", help="rater_vs_panel(cluster=)")
    parser.add_argument("--replicates", type=int, help="replicates per design (--several, --panel)")
    args = parser.parse_args()
    if args.several:
        replicates = args.replicates or (300 if args.quick else 1000)
        run_several(replicates, 499 if args.quick else 999, args.design)
    elif args.panel:
        run_panel(args.replicates or (200 if args.quick else 500), 499, args.design)
    elif args.strata:
        run_strata(500 if args.quick else 2000)
    else:
        run_clusters(300 if args.quick else 1000, 499 if args.quick else 999, args.design)


if __name__ == "__main__":
    main()
