"""The first result in a fresh environment: wkappa against scikit-learn, side by side.

Every run is a fresh Python process with an empty ``NUMBA_CACHE_DIR`` (as in a new CI job,
container or Kaggle notebook) that times, from before the import to after the first result:

* ``import wkappa`` + ``wk.qwk(a, b)`` on 1e6 int64 pairs, against
  ``from sklearn.metrics import cohen_kappa_score`` + its first call on the same pairs;
* the same for linear weights;
* ``wk.optimize_thresholds`` on 1e5 scores, against the usual "OptimizedRounder" recipe:
  scipy's Nelder-Mead over the cut points, scoring each with ``cohen_kappa_score``.

The data are made before the clock starts. Runs are interleaved (wkappa, peer, wkappa, ...)
and the medians reported with their ratio (peer / wkappa: above 1 means wkappa is first).

Usage::

    python benchmarks/bench_cold_start.py            # 5 runs of each
    python benchmarks/bench_cold_start.py --runs 3
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

DATA = """
import numpy as np
rng = np.random.default_rng(0)
a = rng.integers(0, 5, 1_000_000)
b = np.clip(a + rng.integers(-1, 2, 1_000_000), 0, 4)
truth = rng.integers(0, 5, 100_000)
score = truth + rng.normal(0.0, 0.8, 100_000)
import time
start = time.perf_counter()
"""

CASES = {
    "QWK, 1e6 int64 pairs": (
        "import wkappa as wk\nvalue = wk.qwk(a, b)",
        "from sklearn.metrics import cohen_kappa_score\n"
        "value = cohen_kappa_score(a, b, weights='quadratic')",
    ),
    "linear kappa, 1e6 int64 pairs": (
        "import wkappa as wk\nvalue = wk.weighted_kappa(a, b, weights='linear')",
        "from sklearn.metrics import cohen_kappa_score\n"
        "value = cohen_kappa_score(a, b, weights='linear')",
    ),
    "thresholds, 1e5 scores": (
        "import wkappa as wk\nvalue = wk.optimize_thresholds(truth, score).statistic",
        "from scipy.optimize import minimize\n"
        "from sklearn.metrics import cohen_kappa_score\n"
        "def loss(cuts):\n"
        "    return -cohen_kappa_score(truth, np.digitize(score, np.sort(cuts)), "
        "weights='quadratic')\n"
        "fit = minimize(loss, [0.5, 1.5, 2.5, 3.5], method='Nelder-Mead')\n"
        "value = -fit.fun",
    ),
}

REPORT = "\nprint(time.perf_counter() - start, float(value))\n"


def fresh(code: str) -> tuple[float, float]:
    """(seconds to the first result, the result) in a fresh process and numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", DATA + code + REPORT],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
    seconds, value = out.stdout.split()
    return float(seconds), float(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per case")
    args = parser.parse_args()
    print(f"# bench_cold_start: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(
        f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"# command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"# medians of {args.runs} fresh processes each, interleaved, empty NUMBA_CACHE_DIR")
    print()
    print("| first result, fresh environment | wkappa s | peer s | peer / wkappa | goal | met |")
    print("|---|---|---|---|---|---|")
    for name, (ours, theirs) in CASES.items():
        times: dict[str, list[float]] = {"wkappa": [], "peer": []}
        for _ in range(args.runs):
            t, ours_value = fresh(ours)
            times["wkappa"].append(t)
            t, their_value = fresh(theirs)
            times["peer"].append(t)
        wk_s, peer_s = statistics.median(times["wkappa"]), statistics.median(times["peer"])
        ratio = peer_s / wk_s
        met = "yes" if ratio >= 1 else "NO"
        print(
            f"| {name} (wkappa {ours_value:.6f}, peer {their_value:.6f}) | {wk_s:.2f} | "
            f"{peer_s:.2f} | {ratio:.2f} | >= 1 | {met} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
