"""Coverage of the 95% kappa intervals by simulation from known population tables.

Run: ``python benchmarks/coverage_study.py`` (full grid, about 20 minutes on one core) or
``python benchmarks/coverage_study.py --quick`` (a smaller grid and fewer replications).
Options: ``--out DIR`` for the CSV and the plot (default ``benchmarks/results``),
``--no-bootstrap`` to skip the (slow) percentile and BCa intervals. Three more studies:

* ``--confirm`` (about 4 minutes, after a full run): the designs that run put outside 93-97%
  are drawn again with 20,000 replications and new seeds, which tells a real miss from the
  Monte Carlo noise of 2,000 replications (1,200 designs at SE 0.005 put some outside by
  chance); for the score interval it shows how coverage depends on the number of disagreeing
  pairs where the sample holds only a few.
* ``--lower-paths`` (about 4 minutes): the score interval with its lower limit on another path
  (the observed disagreements scaled up) against the library's (towards chance agreement).
* ``--paired``: the paired difference of ``paired_kappa_test`` (``run_paired`` below).

Design grid (the issue's): n in {20, 30, 50, 100, 200, 1000}; K in {2, 3, 5, 10}; weights
quadratic, linear, unweighted (one for K = 2, where they coincide); population kappa 0, 0.2,
0.4, 0.6, 0.8, 0.9, 0.95; balanced prevalence (1/K each) or skewed (proportional to 0.6^i);
two families of population tables:

* ``chance``: ``P = (1 - kappa) r r' + kappa diag(r)``, a mixture of perfect agreement and
  chance; its kappa is exactly ``kappa`` for every weight matrix.
* ``ordinal``: rater B is rater A plus discretised normal noise
  (``P(B = j | A = i)`` proportional to ``exp(-(j - i)² / (2 s²))``), ``s`` solved by bisection
  so that the population kappa (with the design's weights) is the target.

For each design, R replicate tables are multinomial draws of n pairs from P (the K x K table
is the sufficient statistic: no raw data needed). Every interval is computed by the library:
the asymptotic (Wald) interval by the grouped code of ``frames.kappa_by_group``, 'score' and
'fisher-z' by the functions behind ``KappaResult.confidence_interval(method=...)``, all over
all R tables at once; a random subset of replicates is checked against the public API
(``wk.kappa_test_from_table(table, weights=...).confidence_interval(method=...)``). The
percentile and BCa bootstraps (``BootstrapMethod``) go through the public API, on a smaller
sub-grid (they cost ~1 ms per replicate).

Reported per design and method: coverage of the population kappa among replicates whose
kappa is defined, mean width, and the share of undefined replicates (kappa undefined, or the
method returns nan). Seeds are fixed: the same command gives the same numbers.

**Degenerate designs** (the one definition; the summaries are printed with and without them):
a design is degenerate at its n when some category of the population is expected fewer than
once in the sample (``n * min(row and column margins) < 1``: with skewed prevalence, K = 10
at n <= 200), or when more than 1% of its replicate tables have an undefined kappa. A category
that is usually absent from the sample cannot enter any interval computed from the observed
table, yet with quadratic weights its rare pairs move kappa the most.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import wkappa as wk
from wkappa._core import cell_kappas, kappas, norm_ppf
from wkappa._frames import group_statistics
from wkappa._stats import bootstrap as _bootstrap
from wkappa._stats import fisher_z_limits, score_limits
from wkappa._stats.bootstrap import expanded_level
from wkappa._stats.score_interval import _score_end

LEVEL = 0.95
BAND = (0.93, 0.97)
NS = (20, 30, 50, 100, 200, 1000)
KS = (2, 3, 5, 10)
KAPPAS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95)
WEIGHTS = ("quadratic", "linear", "unweighted")
PREVALENCES = ("balanced", "skewed")
FAMILIES = ("chance", "ordinal")
FAST_METHODS = ("asymptotic", "score", "fisher-z")
BOOT_METHODS = ("percentile", "bca")
# The bootstrap sub-grid.
BOOT_NS = (30, 50, 100)
BOOT_KS = (2, 5)
BOOT_KAPPAS = (0.2, 0.6, 0.9)


@dataclass(frozen=True)
class Design:
    k: int
    weights: str
    prevalence: str
    family: str
    target: float
    n: int


def weight_matrix(name: str, k: int) -> np.ndarray:
    return np.asarray(wk.kappa_test_from_table(np.ones((k, k)), weights=name).weight_matrix)


def population_kappa(joint: np.ndarray, weights: np.ndarray) -> float:
    rows, cols = joint.sum(axis=1), joint.sum(axis=0)
    return float(1.0 - np.sum(weights * joint) / (rows @ weights @ cols))


def prevalence(name: str, k: int) -> np.ndarray:
    shares = np.ones(k) if name == "balanced" else 0.6 ** np.arange(k)
    return shares / shares.sum()


def population(k: int, weights: np.ndarray, prev: str, family: str, target: float) -> np.ndarray:
    """The K x K joint distribution of a design (sums to 1)."""
    r = prevalence(prev, k)
    if family == "chance":
        return (1.0 - target) * np.outer(r, r) + target * np.diag(r)
    steps = np.arange(k)

    def joint(spread: float) -> np.ndarray:
        conditional = np.exp(-0.5 * ((steps[None, :] - steps[:, None]) / spread) ** 2)
        return r[:, None] * conditional / conditional.sum(axis=1, keepdims=True)

    low, high = 1e-3, 1e3  # kappa falls as the noise grows
    for _ in range(100):
        middle = math.sqrt(low * high)
        if population_kappa(joint(middle), weights) > target:
            low = middle
        else:
            high = middle
    return joint(math.sqrt(low * high))


def designs(quick: bool) -> list[Design]:
    ns = (30, 50, 100) if quick else NS
    ks = (2, 5) if quick else KS
    kappas = (0.0, 0.6, 0.9) if quick else KAPPAS
    out = []
    for k in ks:
        for weights in ("unweighted",) if k == 2 else WEIGHTS:
            for prev in PREVALENCES:
                for family in FAMILIES:
                    for target in kappas:
                        out += [Design(k, weights, prev, family, target, n) for n in ns]
    return out


def expected_rarest(joint: np.ndarray, n: int) -> float:
    """How often the rarest category of either rater is expected in a sample of n pairs."""
    return n * float(min(joint.sum(axis=0).min(), joint.sum(axis=1).min()))


def defined_kappa(tables: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Which replicate tables have a defined kappa (coverage counts only those)."""
    with np.errstate(all="ignore"):
        return ~np.isnan(np.asarray(kappas(tables.astype(np.float64), weights)))


def degenerate(min_expected: float, undefined_share: float) -> bool:
    """The design is degenerate at its n (see the module docstring)."""
    return min_expected < 1.0 or undefined_share > 0.01


def _cover(low: np.ndarray, high: np.ndarray, truth: float, defined: np.ndarray) -> dict:
    ok = defined & ~np.isnan(low) & ~np.isnan(high)
    hits = (low <= truth) & (truth <= high)
    return {
        "coverage": float(hits[defined].mean()) if defined.any() else math.nan,
        "width": float((high - low)[ok].mean()) if ok.any() else math.nan,
        "undefined": float(1.0 - ok.mean()),
    }


def replicate_tables(
    design: Design, replications: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The design's replicate tables (R, K, K), weight matrix, population table and kappa."""
    matrix = weight_matrix(design.weights, design.k)
    joint = population(design.k, matrix, design.prevalence, design.family, design.target)
    tables = rng.multinomial(design.n, joint.ravel(), size=replications)
    tables = tables.reshape(replications, design.k, design.k)
    return tables, matrix, joint, population_kappa(joint, matrix)


def run_design(
    design: Design, replications: int, boot_replications: int, resamples: int, seed: int
) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    tables, matrix, joint, truth = replicate_tables(design, replications, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wald = group_statistics(tables, design.weights, matrix, LEVEL)
        fisher = fisher_z_limits(tables, matrix, LEVEL)
        score = score_limits(tables, matrix, LEVEL)
    defined = ~np.isnan(wald.kappa)
    min_expected = expected_rarest(joint, design.n)
    row: dict[str, object] = {
        **design.__dict__,
        "kappa": truth,
        "replications": replications,
        "kappa_undefined": float(1.0 - defined.mean()),
        "min_expected": min_expected,
        "degenerate": degenerate(min_expected, float(1.0 - defined.mean())),
    }
    limits = {
        "asymptotic": (wald.ci_low, wald.ci_high),
        "score": score,
        "fisher-z": fisher,
    }
    # The vectorised limits are the public API's, replicate by replicate.
    for index in rng.choice(
        np.flatnonzero(defined), size=min(5, int(defined.sum())), replace=False
    ):
        result = wk.kappa_test_from_table(tables[index], weights=design.weights)
        for method, (low, high) in limits.items():
            ci = result.confidence_interval(LEVEL, method=method)
            assert np.allclose(
                [ci.low, ci.high], [low[index], high[index]], rtol=1e-9, atol=1e-12, equal_nan=True
            ), (design, method)
    for method, (low, high) in limits.items():
        for key, value in _cover(low, high, truth, defined).items():
            row[f"{method}_{key}"] = value
    boot = (
        boot_replications > 0
        and design.n in BOOT_NS
        and design.k in BOOT_KS
        and design.target in BOOT_KAPPAS
        and design.weights in ("quadratic", "unweighted")
    )
    for method in BOOT_METHODS:
        if not boot:
            for key in ("coverage", "width", "undefined"):
                row[f"{method}_{key}"] = math.nan
            continue
        low = np.full(boot_replications, np.nan)
        high = np.full(boot_replications, np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for index in range(boot_replications):
                if not defined[index]:
                    continue
                result = wk.kappa_test_from_table(tables[index], weights=design.weights)
                how = wk.BootstrapMethod(resamples, method, rng=seed * 100_003 + index)
                low[index], high[index] = result.confidence_interval(LEVEL, method=how)
        for key, value in _cover(low, high, truth, defined[:boot_replications]).items():
            row[f"{method}_{key}"] = value
    return row


def summarise(rows: list[dict[str, object]], methods: tuple[str, ...]) -> list[str]:
    """Markdown tables: by n, the share of designs inside 93-97% and the worst coverage."""
    lines = [
        "| method | n | designs | in 93-97% | median | min | min (K <= 5) | mean width "
        "| undefined |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for method in methods:
        for n in sorted({int(row["n"]) for row in rows}):  # type: ignore[call-overload]
            cov = np.array([row[f"{method}_coverage"] for row in rows if row["n"] == n], float)
            ks = np.array([row["k"] for row in rows if row["n"] == n])
            width = np.array([row[f"{method}_width"] for row in rows if row["n"] == n], float)
            undef = np.array([row[f"{method}_undefined"] for row in rows if row["n"] == n], float)
            keep = ~np.isnan(cov)
            if not keep.any():
                continue
            cov, ks, width, undef = cov[keep], ks[keep], width[keep], undef[keep]
            inside = np.mean((cov >= BAND[0]) & (cov <= BAND[1]))
            small_k = cov[ks <= 5]
            lines.append(
                f"| {method} | {n} | {cov.size} | {inside:.0%} | {np.median(cov):.3f} | "
                f"{cov.min():.3f} | {small_k.min() if small_k.size else math.nan:.3f} | "
                f"{np.nanmean(width):.3f} | {np.mean(undef):.3f} |"
            )
    return lines


def by_k(rows: list[dict[str, object]], methods: tuple[str, ...]) -> list[str]:
    """Markdown: per method and K, the share of designs below 93% / inside / above 97%."""
    ns = sorted({int(row["n"]) for row in rows})  # type: ignore[call-overload]
    lines = [
        "| method | K | " + " | ".join(f"n = {n}" for n in ns) + " |",
        "|---|---:|" + "---:|" * len(ns),
    ]
    for method in methods:
        for k in sorted({int(row["k"]) for row in rows}):  # type: ignore[call-overload]
            cells = []
            for n in ns:
                cov = np.array(
                    [row[f"{method}_coverage"] for row in rows if row["k"] == k and row["n"] == n],
                    float,
                )
                cov = cov[~np.isnan(cov)]
                if not cov.size:
                    cells.append("")
                    continue
                below, above = np.mean(cov < BAND[0]), np.mean(cov > BAND[1])
                cells.append(f"{below:.0%} / {1 - below - above:.0%} / {above:.0%}")
            lines.append(f"| {method} | {k} | " + " | ".join(cells) + " |")
    return lines


def worst(rows: list[dict[str, object]], method: str, n_min: int, count: int = 8) -> list[str]:
    chosen = [
        row
        for row in rows
        if int(row["n"]) >= n_min and not math.isnan(float(row[f"{method}_coverage"]))
    ]  # type: ignore[arg-type]
    chosen.sort(key=lambda row: float(row[f"{method}_coverage"]))  # type: ignore[arg-type]
    return [
        f"  {method} {float(row[f'{method}_coverage']):.3f}: K={row['k']} {row['weights']} "  # type: ignore[arg-type]
        f"{row['prevalence']} {row['family']} kappa={float(row['kappa']):.2f} n={row['n']}"  # type: ignore[arg-type]
        for row in chosen[:count]
    ]


def plot(rows: list[dict[str, object]], methods: tuple[str, ...], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = sorted({int(row["k"]) for row in rows})  # type: ignore[call-overload]
    fig, axes = plt.subplots(1, len(ks), figsize=(3.2 * len(ks), 3.2), sharey=True)
    axes = np.atleast_1d(axes)
    colours = {
        "asymptotic": "C0",
        "score": "C4",
        "fisher-z": "C3",
        "percentile": "C2",
        "bca": "C1",
    }
    for ax, k in zip(axes, ks, strict=True):
        ax.axhspan(*BAND, color="0.85", zorder=0)
        for method in methods:
            ns, median, low = [], [], []
            for n in sorted({int(row["n"]) for row in rows}):  # type: ignore[call-overload]
                cov = np.array(
                    [row[f"{method}_coverage"] for row in rows if row["k"] == k and row["n"] == n],
                    float,
                )
                cov = cov[~np.isnan(cov)]
                if cov.size:
                    ns.append(n)
                    median.append(np.median(cov))
                    low.append(np.quantile(cov, 0.1))
            if ns:
                ax.plot(ns, median, "-o", ms=3, color=colours[method], label=f"{method} (median)")
                ax.plot(ns, low, "--", color=colours[method], lw=1, label=f"{method} (10th pct)")
        ax.set_xscale("log")
        ax.set_title(f"K = {k}")
        ax.set_xlabel("n (pairs)")
        ax.set_ylim(0.6, 1.0)
    axes[0].set_ylabel("coverage of the 95% interval")
    handles, labels = axes[0].get_legend_handles_labels()
    axes[-1].legend(handles, labels, fontsize=6, loc="lower right")
    fig.suptitle(
        "Coverage of 95% intervals over the design grid, median and 10th percentile over the "
        "designs (shaded: 93-97%; percentile and BCa on a sub-grid)",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=90)


# --------------------------------------------------------------------------- confirmation

CONFIRM_REPLICATIONS = 20_000  # Monte Carlo SE of a coverage near 0.95: 0.0015


def read_grid(path: Path) -> list[dict[str, Any]]:
    """The rows of a main run's CSV, with the design's fields typed."""
    with open(path, newline="") as handle:
        rows: list[dict[str, Any]] = list(csv.DictReader(handle))
    for row in rows:
        row["k"], row["n"], row["target"] = int(row["k"]), int(row["n"]), float(row["target"])
        row["degenerate"] = row["degenerate"] == "True"
    return rows


# Expected disagreeing pairs up to which the confirmation shows coverage by their number.
FEW_DISAGREEMENTS = 5.0


def confirm(rows: list[dict[str, Any]], method: str, replications: int) -> list[str]:
    """Rerun, with more replications and new seeds, every design at n >= 30 that is not
    degenerate and whose coverage by `method` left the band in the main run; report whether it
    is still outside (a real miss) or back inside (Monte Carlo noise of the main run), and on
    which side the misses fall (the lower limit above the true kappa, or the upper one below
    it; 2.5% each is nominal).

    For the score interval, and designs still outside whose sample is expected to hold at most
    FEW_DISAGREEMENTS disagreeing pairs, coverage by the number of disagreeing pairs: there an
    interval computed from the sample is nearly a function of that number, so its coverage can
    take only a few values (the share of samples with at most d disagreements, for some d).
    """
    limits_of = {"score": score_limits, "fisher-z": fisher_z_limits}[method]
    candidates = [row for row in rows if not row["degenerate"] and row["n"] >= 30]
    flagged = [
        row for row in candidates if not BAND[0] <= float(row[f"{method}_coverage"]) <= BAND[1]
    ]
    se = math.sqrt(0.95 * 0.05 / replications)
    lines = [
        f"{len(flagged)} of the {len(candidates):,} designs at n >= 30 (not degenerate) "
        f"outside 93-97%, rerun with {replications:,} replications (Monte Carlo SE ~{se:.4f}):",
        "",
        "| K | weights | prevalence | family | kappa | n | main run | confirmation "
        "| low > kappa | high < kappa | verdict |",
        "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    verdicts = {"below": 0, "noise": 0, "above": 0}
    lattice: list[str] = []
    for index, row in enumerate(flagged):
        design = Design(
            row["k"], row["weights"], row["prevalence"], row["family"], row["target"], row["n"]
        )
        rng = np.random.default_rng([2_000_000, index])
        tables, matrix, joint, truth = replicate_tables(design, replications, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            low, high = limits_of(tables, matrix, LEVEL)
        defined = defined_kappa(tables, matrix)
        hits = (low <= truth) & (truth <= high)
        coverage = _cover(low, high, truth, defined)["coverage"]
        verdict = "below" if coverage < BAND[0] else "above" if coverage > BAND[1] else "noise"
        verdicts[verdict] += 1
        lines.append(
            f"| {design.k} | {design.weights} | {design.prevalence} | {design.family} | "
            f"{truth:.2f} | {design.n} | {float(row[f'{method}_coverage']):.3f} | "
            f"{coverage:.3f} | {np.mean(low[defined] > truth):.3f} | "
            f"{np.mean(high[defined] < truth):.3f} | {verdict} |"
        )
        share_off = 1.0 - float(np.trace(joint))
        if method != "score" or verdict == "noise" or design.n * share_off > FEW_DISAGREEMENTS:
            continue
        disagreements = tables.sum(axis=(1, 2)) - np.trace(tables, axis1=1, axis2=2)
        cells = []
        for count in range(int(disagreements.max()) + 1):
            chosen = defined & (disagreements == count)
            if chosen.mean() >= 0.001:
                cells.append(
                    f"{count}: {chosen.mean():.3f} ({hits[chosen].mean():.0%}; "
                    f"{low[chosen].min():.3f}-{low[chosen].max():.3f} / "
                    f"{high[chosen].min():.3f}-{high[chosen].max():.3f})"
                )
        lattice.append(
            f"  K={design.k} {design.weights} {design.prevalence} {design.family} "
            f"kappa={truth:.2f} n={design.n} (coverage {coverage:.3f}): " + ", ".join(cells)
        )
    lines += ["", "Verdicts: " + ", ".join(f"{k} {v}" for k, v in verdicts.items())]
    if lattice:
        lines += [
            "",
            "Disagreeing pairs in the sample: share of samples (share of them covered; range of "
            f"their lower / upper limits), for the designs still outside with at most "
            f"{FEW_DISAGREEMENTS:g} expected:",
            *lattice,
        ]
    return lines


# --------------------------------------------------------------------------- lower paths

LOWER_PATH_KS = (3, 5, 10)
LOWER_PATH_NS = (30, 100, 1000)
LOWER_PATH_KAPPAS = (0.0, 0.4, 0.8, 0.9, 0.95)
LOWER_PATH_REPLICATIONS = 2000


def pattern_lower_limits(tables: np.ndarray, weights: np.ndarray, level: float) -> np.ndarray:
    """The lower score limit on another path below a positive kappa: the observed
    disagreements scaled up (their pattern kept, the diagonal shrunk), smoothed by half a pair
    of chance disagreement; past that table's kappa, on to the library's disagreement table.
    Below a kappa <= 0 the library's path. Compared with the library's path by
    ``--lower-paths``; not part of the library."""
    k = tables.shape[-1]
    counts = tables.astype(np.float64)
    n = counts.sum(axis=(1, 2))
    with np.errstate(all="ignore"):
        own = np.asarray(kappas(counts, weights), dtype=np.float64)
        p = counts / n[:, None, None]
        off = 1.0 - np.eye(k)[None]
        chance = p.sum(axis=2)[:, :, None] * p.sum(axis=1)[:, None, :]
        against = chance * weights[None]
        against /= against.sum(axis=(1, 2))[:, None, None]
        pseudo = chance * off
        pseudo *= (0.5 / n / pseudo.sum(axis=(1, 2)))[:, None, None]
        pattern = p * off + pseudo
        pattern /= pattern.sum(axis=(1, 2))[:, None, None]
        first = np.where((own > 1e-12)[:, None, None], pattern, against)
        low = _score_end(p, first, against, n, weights, own, norm_ppf(0.5 + level / 2.0))
    return np.where(np.isnan(own), np.nan, np.fmin(low, own))


def compare_lower_paths(replications: int) -> list[str]:
    """Coverage of the score interval with the library's lower path (through chance) and with
    the observed-pattern path, the same upper limit, on weighted designs (for unweighted kappa
    the two paths nearly coincide)."""
    counts: dict[tuple[str, str], list[float]] = {}
    above_kappa: dict[tuple[str, str], list[float]] = {}
    worst_rows: list[tuple[float, str, str]] = []
    for index, design in enumerate(
        Design(k, weights, prev, family, target, n)
        for k in LOWER_PATH_KS
        for weights in ("quadratic", "linear")
        for prev in PREVALENCES
        for family in FAMILIES
        for target in LOWER_PATH_KAPPAS
        for n in LOWER_PATH_NS
    ):
        rng = np.random.default_rng([3_000_000, index])
        tables, matrix, joint, truth = replicate_tables(design, replications, rng)
        defined = defined_kappa(tables, matrix)
        if degenerate(expected_rarest(joint, design.n), float(1.0 - defined.mean())):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            low, high = score_limits(tables, matrix, LEVEL)
            other = pattern_lower_limits(tables, matrix, LEVEL)
        for path, lower in (("chance (library)", low), ("observed pattern", other)):
            coverage = _cover(lower, high, truth, defined)["coverage"]
            counts.setdefault((path, design.family), []).append(coverage)
            above_kappa.setdefault((path, design.family), []).append(
                float((lower > truth)[defined].mean())
            )
            worst_rows.append(
                (
                    coverage,
                    path,
                    f"K={design.k} {design.weights} {design.prevalence} {design.family} "
                    f"kappa={truth:.2f} n={design.n}",
                )
            )
    lines = [
        "| lower path | family | designs | below 93% | within 93-97% | above 97% | min | max "
        "| lower limit above kappa: median (min-max) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for (path, family), values in counts.items():
        cov, misses = np.array(values), np.array(above_kappa[path, family])
        below, above = np.mean(cov < BAND[0]), np.mean(cov > BAND[1])
        lines.append(
            f"| {path} | {family} | {cov.size} | {below:.0%} | {1 - below - above:.0%} | "
            f"{above:.0%} | {cov.min():.3f} | {cov.max():.3f} | {np.median(misses):.3f} "
            f"({misses.min():.3f}-{misses.max():.3f}) |"
        )
    for path in ("chance (library)", "observed pattern"):
        chosen = sorted(row for row in worst_rows if row[1] == path)
        lines.append(f"worst designs, {path}:")
        lines += [f"  {coverage:.3f}: {name}" for coverage, _, name in chosen[:5]]
        lines.append(f"most conservative designs, {path}:")
        lines += [f"  {coverage:.3f}: {name}" for coverage, _, name in chosen[-3:]]
    return lines


# --------------------------------------------------------------------------- paired


def paired_population(k: int, prev: str, spread_a: float, spread_b: float) -> np.ndarray:
    """(truth, A, B) cube: the truth from the prevalence, A and B independent given the truth,
    each the truth plus discretised normal noise of the given spread."""
    steps = np.arange(k)

    def rater(spread: float) -> np.ndarray:
        conditional = np.exp(-0.5 * ((steps[None, :] - steps[:, None]) / spread) ** 2)
        return conditional / conditional.sum(axis=1, keepdims=True)

    r = prevalence(prev, k)
    return r[:, None, None] * rater(spread_a)[:, :, None] * rater(spread_b)[:, None, :]


PAIRED_NS = (30, 50, 100, 200)
PAIRED_SPREADS = ((0.5, 0.5), (0.4, 0.7), (0.3, 1.0), (0.8, 1.2))


def run_paired(replications: int, resamples: int, quick: bool) -> list[dict[str, object]]:
    rows = []
    seed = 50_000
    for k in (2, 5):
        for weights in ("unweighted",) if k == 2 else ("quadratic", "unweighted"):
            matrix = weight_matrix(weights, k)
            for prev in PREVALENCES:
                for spread_a, spread_b in PAIRED_SPREADS[:2] if quick else PAIRED_SPREADS:
                    cube = paired_population(k, prev, spread_a, spread_b)
                    truth = population_kappa(cube.sum(axis=2), matrix) - population_kappa(
                        cube.sum(axis=1), matrix
                    )
                    for n in PAIRED_NS[:2] if quick else PAIRED_NS:
                        seed += 1
                        rng = np.random.default_rng(seed)
                        cubes = rng.multinomial(n, cube.ravel(), size=replications)
                        cubes = cubes.reshape(replications, k, k, k)
                        hits = {"percentile": [], "expanded": []}
                        widths = {"percentile": [], "expanded": []}
                        for index, counts in enumerate(cubes):
                            coords = np.nonzero(counts)
                            cells = _bootstrap.Cells(counts[coords].astype(float), coords, n)
                            t, a, b = coords
                            generator = np.random.default_rng(index)
                            replicates = _bootstrap.draw(cells, resamples, generator)
                            with np.errstate(all="ignore"):
                                diffs = cell_kappas(replicates, t, a, matrix) - cell_kappas(
                                    replicates, t, b, matrix
                                )
                            diffs = diffs[~np.isnan(diffs)]
                            if diffs.size == 0:
                                continue
                            for method, level in (
                                ("percentile", LEVEL),
                                ("expanded", expanded_level(LEVEL, n)),
                            ):
                                low, high = _bootstrap.percentile_interval(diffs, level)
                                hits[method].append(low <= truth <= high)
                                widths[method].append(high - low)
                            # The public API draws the same replicates; its interval is the
                            # expanded one.
                            if index < 3:
                                with warnings.catch_warnings():
                                    warnings.simplefilter("ignore")
                                    api = wk.paired_kappa_test_from_table(
                                        counts, weights=weights, n_resamples=resamples, rng=index
                                    ).confidence_interval()
                                level = expanded_level(LEVEL, n)
                                low, high = _bootstrap.percentile_interval(diffs, level)
                                assert np.allclose([api.low, api.high], [low, high]), (k, n)
                        row: dict[str, object] = {
                            "k": k, "weights": weights, "prevalence": prev,
                            "spread_a": spread_a, "spread_b": spread_b, "difference": truth,
                            "n": n, "replications": replications,
                        }  # fmt: skip
                        for method in hits:
                            row[f"{method}_coverage"] = float(np.mean(hits[method]))
                            row[f"{method}_width"] = float(np.mean(widths[method]))
                            row[f"{method}_undefined"] = 1.0 - len(hits[method]) / replications
                        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small grid, fewer replications")
    parser.add_argument("--no-bootstrap", action="store_true", help="skip percentile and BCa")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument(
        "--paired", action="store_true", help="the paired difference (paired_kappa_test) instead"
    )
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="rerun the designs a main run (its coverage.csv in --out) put outside the band, "
        f"with {CONFIRM_REPLICATIONS:,} replications",
    )
    parser.add_argument(
        "--lower-paths",
        action="store_true",
        help="compare the score interval's lower path with the observed-pattern path",
    )
    args = parser.parse_args()
    if args.confirm:
        start = time.perf_counter()
        rows = read_grid(args.out / "coverage.csv")
        lines = []
        for method in ("score", "fisher-z"):
            lines += ["", f"{method}:", *confirm(rows, method, CONFIRM_REPLICATIONS)]
        print(
            f"# coverage_study --confirm: {time.perf_counter() - start:.0f} s; "
            f"numpy {np.__version__}"
        )
        print("\n".join(lines))
        return
    if args.lower_paths:
        start = time.perf_counter()
        lines = compare_lower_paths(LOWER_PATH_REPLICATIONS)
        print(
            f"# coverage_study --lower-paths: {LOWER_PATH_REPLICATIONS} replications per design; "
            f"{time.perf_counter() - start:.0f} s; numpy {np.__version__}"
        )
        print("\n".join(lines))
        return
    if args.paired:
        replications = 300 if args.quick else 1000
        start = time.perf_counter()
        rows = run_paired(replications, 999, args.quick)
        print(
            f"# coverage_study --paired: {len(rows)} designs, {replications} replications x "
            f"999 resamples; {time.perf_counter() - start:.0f} s; numpy {np.__version__}"
        )
        print("\n".join(summarise(rows, ("percentile", "expanded"))))
        for method in ("percentile", "expanded"):
            print(f"worst designs, {method}:")
            chosen = sorted(rows, key=lambda row: float(row[f"{method}_coverage"]))[:6]  # type: ignore[arg-type]
            for row in chosen:
                print(
                    f"  {float(row[f'{method}_coverage']):.3f}: K={row['k']} {row['weights']} "  # type: ignore[arg-type]
                    f"{row['prevalence']} spreads {row['spread_a']}/{row['spread_b']} "
                    f"difference={float(row['difference']):+.3f} n={row['n']}"  # type: ignore[arg-type]
                )
        return
    replications = 500 if args.quick else 2000
    boot_replications = 0 if args.no_bootstrap else (100 if args.quick else 300)
    resamples = 499
    grid = designs(args.quick)
    start = time.perf_counter()
    rows = []
    for seed, design in enumerate(grid):
        rows.append(run_design(design, replications, boot_replications, resamples, 1000 + seed))
    elapsed = time.perf_counter() - start
    methods = FAST_METHODS + (() if args.no_bootstrap else BOOT_METHODS)
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "_quick" if args.quick else ""
    with open(args.out / f"coverage{suffix}.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: f"{v:.4f}" if isinstance(v, float) else v for k, v in row.items()})
    plot(rows, methods, args.out / f"coverage{suffix}.png")
    print(
        f"# coverage_study: {len(grid)} designs, {replications} replications each "
        f"(bootstrap: {boot_replications} replications x {resamples} resamples on "
        f"n in {BOOT_NS}, K in {BOOT_KS}, kappa in {BOOT_KAPPAS}); {elapsed:.0f} s; "
        f"numpy {np.__version__}"
    )
    print("\nAll designs:")
    print("\n".join(summarise(rows, methods)))
    kept = [row for row in rows if not row["degenerate"]]
    print(f"\nWithout the {len(rows) - len(kept)} degenerate designs (see the docstring):")
    print("\n".join(summarise(kept, methods)))
    print("\nShare of designs below 93% / within 93-97% / above 97%, by K (all designs):")
    print("\n".join(by_k(rows, FAST_METHODS)))
    print("\nThe same without the degenerate designs:")
    print("\n".join(by_k(kept, FAST_METHODS)))
    for method in methods:
        print(f"worst designs at n >= 30, {method} (all / not degenerate):")
        print("\n".join(worst(rows, method, 30)))
        print("\n".join(worst(kept, method, 30)))


if __name__ == "__main__":
    main()
