"""Bootstrap and paired-test speed: the table bootstrap against resampling the pairs.

Run: ``.venv/bin/python benchmarks/bench_bootstrap.py`` (part of ``make bench``).

* 9,999 percentile (and BCa) replicates of QWK for K = 5 at n = 1e6, against the naive way:
  draw n pair indices with replacement and call scikit-learn's ``cohen_kappa_score`` (and, as a
  faster naive baseline, ``wkappa.qwk``) on each replicate. The naive ways are timed on a few
  replicates and scaled to 9,999.
* The same bootstrap at n = 1e3 ... 1e7: its cost does not depend on n.
* ``paired_kappa_test`` with 9,999 replicates for K = 5 (n = 1e6), whole call and bootstrap
  only, against resampling items and calling scikit-learn twice per replicate.

Timings are medians of interleaved repeats in one process; goals are ratios and limits.
"""

from __future__ import annotations

import statistics
import sys

import numpy as np

import wkappa as wk
from _timing import interleaved, timed
from wkappa._stats import bootstrap as _bootstrap

K = 5
N = 1_000_000
B = 9999
REPEATS = 5
NAIVE_REPLICATES = 3


def _data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Truth and two noisy predictions; 10% random ratings make every cell non-empty."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, K, n)
    a = np.clip(truth + rng.integers(-1, 2, n), 0, K - 1)
    b = np.clip(truth + rng.integers(-2, 3, n) * rng.integers(0, 2, n), 0, K - 1)
    a = np.where(rng.random(n) < 0.1, rng.integers(0, K, n), a)
    b = np.where(rng.random(n) < 0.1, rng.integers(0, K, n), b)
    return truth, a, b


def main() -> int:
    from sklearn.metrics import cohen_kappa_score

    truth, a, b = _data(N)
    result = wk.kappa_test(truth, a)
    print(f"# bench_bootstrap  K = {K}, n = {N:,}, B = {B:,}  (numpy {np.__version__})")
    print(
        f"QWK = {result.statistic:.6f}, asymptotic 95% CI = {tuple(result.confidence_interval())}"
    )

    rng_naive = np.random.default_rng(1)

    def naive_sklearn() -> None:
        for _ in range(NAIVE_REPLICATES):
            pick = rng_naive.integers(0, N, N)
            cohen_kappa_score(truth[pick], a[pick], weights="quadratic")

    def naive_wkappa() -> None:
        for _ in range(NAIVE_REPLICATES):
            pick = rng_naive.integers(0, N, N)
            wk.qwk(truth[pick], a[pick])

    percentile = wk.BootstrapMethod(B, "percentile", rng=0)
    bca = wk.BootstrapMethod(B, "bca", rng=0)
    medians = interleaved(
        {
            "table bootstrap, percentile": lambda: result.confidence_interval(method=percentile),
            "table bootstrap, BCa": lambda: result.confidence_interval(method=bca),
            "pairs + sklearn (scaled)": naive_sklearn,
            "pairs + wkappa.qwk (scaled)": naive_wkappa,
        },
        REPEATS,
    )
    for name in ("pairs + sklearn (scaled)", "pairs + wkappa.qwk (scaled)"):
        medians[name] *= B / NAIVE_REPLICATES
    fast = medians["table bootstrap, percentile"]
    print(f"\n9,999 bootstrap replicates of QWK, K = {K}, n = {N:,} (median of {REPEATS})")
    print(f"{'method':34s} {'seconds':>10s} {'x slower than table':>20s}")
    for name, seconds in medians.items():
        print(f"{name:34s} {seconds:10.3f} {seconds / fast:20.0f}")
    speedup = medians["pairs + sklearn (scaled)"] / fast
    ok_time = fast <= 0.5
    ok_speed = speedup >= 1000
    print(f"goal: table bootstrap <= 0.5 s: {fast:.3f} s -> {'PASS' if ok_time else 'FAIL'}")
    verdict = "PASS" if ok_speed else "FAIL"
    print(f"goal: >= 1000x faster than pairs + sklearn: {speedup:,.0f}x -> {verdict}")

    print("\nCost against n (percentile, B = 9,999; counting the table excluded)")
    print(f"{'n':>12s} {'seconds':>10s}")
    for n in (10**3, 10**4, 10**5, 10**6, 10**7):
        table = wk.confusion_table(*_data(n)[:2], labels=range(K))
        per_n = wk.kappa_test_from_table(table)
        seconds = statistics.median(
            timed(lambda r=per_n: r.confidence_interval(method=percentile)) for _ in range(3)
        )
        print(f"{n:12,d} {seconds:10.3f}")

    def paired_bootstrap_only() -> None:
        cube = np.bincount((truth * K + a) * K + b, minlength=K**3).reshape(K, K, K)
        cells = _bootstrap.nonzero_cells(cube)
        t, pa, pb = cells.coords
        replicates = _bootstrap.draw(cells, B, np.random.default_rng(0))
        matrix = result.weight_matrix
        _bootstrap.batch_kappa(replicates, t, pa, matrix) - _bootstrap.batch_kappa(
            replicates, t, pb, matrix
        )

    def naive_paired() -> None:
        for _ in range(NAIVE_REPLICATES):
            pick = rng_naive.integers(0, N, N)
            cohen_kappa_score(truth[pick], a[pick], weights="quadratic") - cohen_kappa_score(
                truth[pick], b[pick], weights="quadratic"
            )

    paired = interleaved(
        {
            "paired_kappa_test (whole call)": lambda: wk.paired_kappa_test(
                truth, a, b, n_resamples=B, rng=0
            ),
            "K^3 table bootstrap only": paired_bootstrap_only,
            "items + 2x sklearn (scaled)": naive_paired,
        },
        3,
    )
    paired["items + 2x sklearn (scaled)"] *= B / NAIVE_REPLICATES
    print(f"\nPaired test, 9,999 replicates, K = {K}, n = {N:,} (median of 3)")
    whole = paired["paired_kappa_test (whole call)"]
    for name, seconds in paired.items():
        print(f"{name:34s} {seconds:10.3f} {seconds / whole:20.1f}")
    ok_paired = whole <= 1.0
    print(f"goal: paired test <= 1 s: {whole:.3f} s -> {'PASS' if ok_paired else 'FAIL'}")
    example = wk.paired_kappa_test(truth, a, b, n_resamples=B, rng=0)
    print(
        f"(difference {example.difference:.5f}, CI {tuple(example.confidence_interval())}, "
        f"p = {example.pvalue:.4g})"
    )
    return 0 if (ok_time and ok_speed and ok_paired) else 1


if __name__ == "__main__":
    sys.exit(main())
