"""Coverage of 95% intervals for several raters' coefficients on small panels, by simulation.

Run: ``nice python benchmarks/small_panel_study.py`` (the sampled grid, a few minutes on one
core) or ``--quick`` (a few settings, fewer replications). ``--bootstrap`` adds the
percentile and BCa bootstraps on the settings' n <= 50 designs (about as long again);
``--out DIR`` (default ``benchmarks/results``) receives ``small_panel.csv``.

The grid (the issue's): raters R in 3-8, categories K in 2-6, prevalence balanced (1/K each)
or skewed (proportional to 0.6^k), missing ratings 0, 10 or 30%, rater accuracy 0.5, 0.7 or
0.9, with or without one lenient rater, n in {20, 30, 50, 100, 200} items. The full product
has 2,700 settings x 5 sizes; a fixed random sample of ``--settings`` settings (seeded) is
run at every n, so each n sees the same settings.

Ratings model: item i has a latent grade ``z_i`` drawn from the prevalence; each rater
reports ``z_i`` with probability ``accuracy``, otherwise a grade one step away (half of the
errors, direction at random, clipped to the scale) or a grade drawn from the prevalence (the
other half). A lenient rater (rater 0) moves a rating up one grade with probability 0.3.
Each rating is missing with probability ``missing``; an item left without ratings is not an
item (as in :func:`wkappa.agreement`).

Coefficients: Fleiss' kappa, Gwet's AC1, Conger's kappa (unweighted), and for K >= 3 Gwet's
AC2 and Krippendorff's alpha with quadratic weights. The true value is the coefficient of
400,000 items from the same model (its Monte Carlo error is below 0.002).

Intervals, side by side on the same replications (t quantiles with n - 1 degrees of freedom):

* ``asymptotic``: estimate ± t x Gwet's linearised SE, the upper end capped at 1 (irrCAC's,
  the default of :meth:`wkappa.AgreementResult.confidence_interval`);
* ``jackknife``: the same with the leave-one-item-out jackknife SE;
* ``fisher-z``: ``tanh(atanh(c) ± t x SE / (1 - c²))`` with the linearised SE (the delta
  method on Fisher's z; the interval stays inside (-1, 1) and is asymmetric about c);
* ``fisher-z-jackknife``: the same with the jackknife SE;
* ``bias-corrected`` and ``fisher-z-bias-corrected``: the asymptotic and Fisher-z intervals
  centred on the jackknife's bias-corrected estimate ``n c - (n - 1) mean(c_(i))``;
* ``score-type``: the Wilson-type inversion of ``(c - c0) / se(c0)`` with the variance taken
  proportional to ``1 - c0`` (the disagreement's share, as for a Poisson count);
* ``log-jackknife``: ``1 - (1 - c) exp(± t x SE)`` with the jackknife SE of ``log(1 - c)``
  (the disagreement ratio ``D_o / D_e`` on the log scale);
* ``chance-score``: the Wilson-type inversion of ``(c - c0)² = t² V(c0)`` with V the variance
  of the chance-mixture model at c0 (an item is rated at random from the prevalence with
  probability theta, in full agreement otherwise);
* ``fisher-z-adjusted``: Fisher's z with Gwet's SE widened by t² pseudo-items of the fitted
  chance-mixture model (:meth:`wkappa.AgreementResult.confidence_interval`);
* ``fisher-z-ratio`` and ``fisher-z-ratio-adjusted``: the same two with pa linearised as a
  ratio over the items with two ratings (Gwet's item terms also carry the variation of how
  many items have two ratings, a term that inflates the SE when many items are rated once);
* ``percentile`` and ``bca`` (``--bootstrap``, at n <= 50 only): ``--resamples`` (999)
  resamples of items on ``--boot-replications`` (400) samples per design.

``--ns`` runs only some sizes, ``--weights`` only the unweighted or quadratic coefficients,
``--name`` names the CSV.

Everything is computed in batches of replications with the library's own functions
(``features``/``conger_features``, ``coefficient_from_sums``, ``linearized_terms``); a few
replications per design are checked against the public ``wk.agreement`` result (the
statistic, the SE and the asymptotic, jackknife, Fisher-z and adjusted intervals). Coverage
counts replications whose coefficient is defined; an interval that is nan (SE undefined)
counts as a miss and is reported in ``undefined``. Seeds are fixed: the same command gives
the same numbers.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

import wkappa as wk
from wkappa._core import (
    Estimate,
    agreement_weight_matrix,
    coefficient_from_sums,
    conger_features,
    features,
    linearized_terms,
    rows_to_counts,
    t_ppf,
)
from wkappa._stats import bootstrap as _bootstrap

LEVEL = 0.95
BAND = (0.93, 0.97)
RATERS = (3, 4, 5, 6, 8)
KS = (2, 3, 4, 5, 6)
PREVALENCES = ("balanced", "skewed")
MISSING = (0.0, 0.1, 0.3)
ACCURACY = (0.5, 0.7, 0.9)
LENIENT = (False, True)
NS = (20, 30, 50, 100, 200)
METHODS = (
    "asymptotic",
    "jackknife",
    "fisher-z",
    "fisher-z-jackknife",
    "bias-corrected",
    "fisher-z-bias-corrected",
    "score-type",
    "log-jackknife",
    "chance-score",
    "fisher-z-adjusted",
    "fisher-z-ratio",
    "fisher-z-ratio-adjusted",
)
BOOT_METHODS = ("percentile", "bca")
TRUTH_ITEMS = 400_000


@dataclass(frozen=True)
class Setting:
    raters: int
    k: int
    prevalence: str
    missing: float
    accuracy: float
    lenient: bool


def sample_settings(count: int, seed: int = 27) -> list[Setting]:
    grid = list(itertools.product(RATERS, KS, PREVALENCES, MISSING, ACCURACY, LENIENT))
    rng = np.random.default_rng(seed)
    picked = rng.choice(len(grid), size=min(count, len(grid)), replace=False)
    return [Setting(*grid[i]) for i in sorted(picked)]


def coefficients(k: int) -> list[tuple[str, str]]:
    out = [("fleiss", "unweighted"), ("gwet", "unweighted"), ("conger", "unweighted")]
    if k >= 3:
        out += [("gwet", "quadratic"), ("krippendorff", "quadratic")]
    return out


def prevalence(name: str, k: int) -> np.ndarray:
    shares = np.ones(k) if name == "balanced" else 0.6 ** np.arange(k)
    return shares / shares.sum()


def simulate(setting: Setting, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Codes of shape ``shape + (raters,)``, -1 where a rating is missing."""
    k, r = setting.k, setting.raters
    prev = prevalence(setting.prevalence, k)
    grade = rng.choice(k, size=shape, p=prev)[..., None]
    full = (*shape, r)
    wrong = rng.random(full) >= setting.accuracy
    neighbour = rng.random(full) < 0.5
    step = np.clip(grade + rng.choice(np.array([-1, 1]), size=full), 0, k - 1)
    random_grade = rng.choice(k, size=full, p=prev)
    codes = np.where(wrong, np.where(neighbour, step, random_grade), grade)
    if setting.lenient:
        up = rng.random(shape) < 0.3
        codes[..., 0] = np.where(up, np.minimum(codes[..., 0] + 1, k - 1), codes[..., 0])
    codes[rng.random(full) < setting.missing] = -1
    return codes.astype(np.int64)


def item_features(coefficient: str, codes: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Features of every item of codes (..., R), zero rows for items without a rating."""
    k = matrix.shape[0]
    rows = codes.reshape(-1, codes.shape[-1])
    if coefficient == "conger":
        out = conger_features(rows, k, matrix)
    else:
        out = features(rows_to_counts(rows, k), matrix)
    out[(rows < 0).all(axis=1)] = 0.0
    return out.reshape((*codes.shape[:-1], out.shape[-1]))


def truth(setting: Setting, coefficient: str, matrix: np.ndarray, seed: int) -> float:
    rng = np.random.default_rng(seed)
    sums = np.zeros(0)
    for _ in range(TRUTH_ITEMS // 100_000):
        part = item_features(coefficient, simulate(setting, (100_000,), rng), matrix).sum(0)
        sums = part if sums.size == 0 else sums + part
    return float(coefficient_from_sums(coefficient, sums[None, :], matrix, setting.raters)[0][0])


def linearised_se(
    coefficient: str, codes: np.ndarray, feats: np.ndarray, matrix: np.ndarray, statistic: float
) -> tuple[float, float]:
    """Gwet's linearised SE of one replication (as ``wk.agreement`` computes it), and the
    same with pa linearised as a ratio over the items with two ratings."""
    keep = (codes >= 0).any(axis=1)
    rows, feats = codes[keep], feats[keep]
    ones = np.ones(len(rows), dtype=np.int64)
    estimate = coefficient_from_sums(coefficient, feats.sum(0)[None, :], matrix, codes.shape[1])
    assert math.isclose(float(estimate.statistic[0]), statistic, rel_tol=1e-12, abs_tol=1e-15)
    linear = linearized_terms(
        coefficient,
        feats,
        ones,
        matrix,
        Estimate(*estimate),
        rows_to_counts(rows, matrix.shape[0]),
        rows,
    )
    used = linear.multiplicity.astype(np.float64)
    n_used = float(used.sum())
    if n_used < 2:
        return math.nan, math.nan
    spread = float(used @ (linear.terms - linear.centre) ** 2)
    # pa as a ratio over the items with two ratings: no term for how many items have two.
    if coefficient == "krippendorff":
        ratio = spread
    else:
        has2 = feats[:, 1]
        centre = linear.centre * has2 * n_used / float(used @ has2)
        ratio = float(used @ (linear.terms - centre) ** 2)
    scale = n_used * (n_used - 1.0)
    return math.sqrt(max(0.0, spread / scale)), math.sqrt(max(0.0, ratio / scale))


def fisher_z(statistic: np.ndarray, se: np.ndarray, q: float) -> tuple[np.ndarray, np.ndarray]:
    """``tanh(atanh(c) ± q se / (1 - c²))``; c = 1 gives [1, 1] (as the library)."""
    with np.errstate(all="ignore"):
        z = np.arctanh(statistic)
        half = q * se / (1.0 - statistic**2)
        low, high = np.tanh(z - half), np.tanh(z + half)
    one = (statistic >= 1.0) & ~np.isnan(se)
    low = np.where(one, 1.0, low)
    high = np.where(one, 1.0, high)
    bad = statistic <= -1.0
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


def score_type(
    statistic: np.ndarray, se: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The c0 with ``(c - c0)² = q² se(c0)²`` where the variance is taken proportional to
    ``1 - c0`` (``se(c0)² = se² (1 - c0) / (1 - c)``, a Wilson-type inversion): with
    ``a = q² se² / (1 - c)``, ``c0 = c - a/2 ± sqrt(a (a + 4 (1 - c))) / 2``."""
    with np.errstate(all="ignore"):
        a = q * q * se * se / (1.0 - statistic)
        root = np.sqrt(a * (a + 4.0 * (1.0 - statistic))) / 2.0
        low, high = statistic - a / 2.0 - root, statistic - a / 2.0 + root
    one = statistic >= 1.0
    return np.where(one, 1.0, low), np.where(one, 1.0, high)


def log_disagreement(
    statistic: np.ndarray, se: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``1 - (1 - c) exp(± q se / (1 - c))``: the delta method on log(1 - c)."""
    with np.errstate(all="ignore"):
        rest = 1.0 - statistic
        half = q * se / rest
        low, high = 1.0 - rest * np.exp(half), 1.0 - rest * np.exp(-half)
    one = statistic >= 1.0
    return np.where(one, 1.0, low), np.where(one, 1.0, high)


def chance_moments(
    codes: np.ndarray, sums: np.ndarray, matrix: np.ndarray, coefficient: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per replication: the chance model's mean second moment of an item's disagreement
    ``mean_i E[d_i² | chance, r_i]``, its chance disagreement ``D = pi' W pi``, the
    coefficient's chance disagreement ``1 - pe`` and the items with two ratings or more
    (the batch form of :func:`wkappa._stats.chance_mixture.mixture_disagreement_variance`)."""
    k = matrix.shape[0]
    r = (codes >= 0).sum(axis=2)  # (B, n)
    onehot = (codes[..., None] == np.arange(k)).sum(axis=2)  # (B, n, K)
    pi = (onehot / np.maximum(r, 1)[..., None]).sum(axis=1) / sums[:, 0][:, None]
    d = np.einsum("bk,kl,bl->b", pi, matrix, pi)
    s1 = np.einsum("bk,bk->b", pi, (pi @ matrix) ** 2)
    s2 = np.einsum("bk,kl,bl->b", pi, matrix**2, pi)
    two = r >= 2
    pairs = np.where(two, r * (r - 1) / 2.0, 1.0)
    second = (
        s2[:, None] + 2 * (r - 2) * s1[:, None] + (r - 2) * (r - 3) / 2.0 * d[:, None] ** 2
    ) / pairs
    n2 = two.sum(axis=1)
    mean_second = np.where(two, second, 0.0).sum(axis=1) / n2
    dc = coefficient_from_sums(coefficient, sums, matrix, codes.shape[-1]).chance_disagreement
    return mean_second, d, dc, n2


def chance_score(
    statistic: np.ndarray,
    moments: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    q: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson-type inversion of ``(c - c0)² = q² V(c0)`` with the chance-mixture model's
    variance at c0 (an item is rated at random from the prevalence with probability theta,
    in full agreement otherwise): with ``x = 1 - c0``, ``V = (x A - x²) / n2`` and
    ``A = mean E[d²] / (D (1 - pe))``."""
    second, d, dc, n2 = moments
    with np.errstate(all="ignore"):
        a = second / (d * dc)
        rest = 1.0 - statistic
        g = q * q / n2
        bb = 2.0 * rest + g * a
        disc = np.sqrt(np.maximum(bb * bb - 4.0 * (1.0 + g) * rest * rest, 0.0))
        x_low, x_high = (bb - disc) / (2 * (1.0 + g)), (bb + disc) / (2 * (1.0 + g))
    return 1.0 - x_high, 1.0 - x_low


def run_design(
    setting: Setting,
    n: int,
    coefficient: str,
    weights: str,
    true_value: float,
    replications: int,
    resamples: int,
    seed: int,
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    _, matrix = agreement_weight_matrix(weights, setting.k, coefficient)
    codes = simulate(setting, (replications, n), rng)
    feats = item_features(coefficient, codes, matrix)  # (B, n, p)
    sums = feats.sum(axis=1)
    with np.errstate(all="ignore"):
        statistic = coefficient_from_sums(coefficient, sums, matrix, setting.raters).statistic
    items = (codes >= 0).any(axis=2)  # (B, n)
    n_items = items.sum(axis=1)
    defined = ~np.isnan(statistic)
    se = np.full(replications, np.nan)
    se_ratio = np.full(replications, np.nan)
    for b in np.flatnonzero(defined):
        se[b], se_ratio[b] = linearised_se(
            coefficient, codes[b], feats[b], matrix, float(statistic[b])
        )
    # Leave-one-item-out values of every item at once.
    left_out = (sums[:, None, :] - feats).reshape(-1, feats.shape[-1])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        jack = coefficient_from_sums(coefficient, left_out, matrix, setting.raters).statistic
    jack = jack.reshape(replications, n)
    counts = items.astype(np.float64)
    jack_filled = np.where(items, jack, 0.0)
    mean = jack_filled.sum(axis=1) / n_items
    spread = np.sum(counts * (jack_filled - mean[:, None]) ** 2, axis=1)
    se_jack = np.sqrt((n_items - 1) / n_items * spread)
    se_jack[np.isnan(np.where(items, jack, 0.0)).any(axis=1)] = np.nan
    limits: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    # t with the items' n - 1 degrees of freedom (n_items can be a little below n).
    qs = np.array([t_ppf(0.5 + LEVEL / 2.0, max(int(m) - 1, 1)) for m in n_items])
    for name, s in (("", se), ("jackknife", se_jack)):
        low, high = statistic - qs * s, np.minimum(1.0, statistic + qs * s)
        limits[name or "asymptotic"] = (low, high)
        limits["fisher-z" + (f"-{name}" if name else "")] = fisher_z(statistic, s, qs)
    limits["score-type"] = score_type(statistic, se, qs)
    with np.errstate(all="ignore"):
        log_jack = np.log(1.0 - np.where(items, jack, 0.0))
        log_mean = np.where(items, log_jack, 0.0).sum(axis=1) / n_items
        log_spread = np.sum(counts * (np.where(items, log_jack, 0.0) - log_mean[:, None]) ** 2, 1)
        se_log_jack = np.sqrt((n_items - 1) / n_items * log_spread)
    limits["log-jackknife"] = log_disagreement(statistic, se_log_jack * (1.0 - statistic), qs)
    moments = chance_moments(codes, sums, matrix, coefficient)
    limits["chance-score"] = chance_score(statistic, moments, qs)
    m2c, dch, dc, n2 = moments
    with np.errstate(all="ignore"):
        # q² pseudo-items of the fitted chance-mixture model added to the items' spread.
        d_obs = sums[:, 2] / sums[:, 1]
        theta = np.minimum(d_obs / dch, 1.0)
        spread = (n_items / n2) ** 2 * np.maximum(theta * m2c - d_obs**2, 0.0) / dc**2
        se_adjusted = np.sqrt(se**2 + qs**2 * spread / (n_items * (n_items - 1)))
    limits["fisher-z-adjusted"] = fisher_z(statistic, se_adjusted, qs)
    with np.errstate(all="ignore"):
        se_ratio_adjusted = np.sqrt(se_ratio**2 + qs**2 * spread / (n_items * (n_items - 1)))
    limits["fisher-z-ratio"] = fisher_z(statistic, se_ratio, qs)
    limits["fisher-z-ratio-adjusted"] = fisher_z(statistic, se_ratio_adjusted, qs)
    # The jackknife's bias-corrected estimate n c - (n - 1) mean(c_(i)) as the centre.
    corrected = np.minimum(n_items * statistic - (n_items - 1) * mean, 1.0)
    limits["bias-corrected"] = (corrected - qs * se, np.minimum(1.0, corrected + qs * se))
    limits["fisher-z-bias-corrected"] = fisher_z(corrected, se, qs)
    # The batch is the public API's, replication by replication.
    for b in rng.choice(np.flatnonzero(defined), size=min(3, int(defined.sum())), replace=False):
        ratings = np.where(codes[b] >= 0, codes[b], np.nan).astype(float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = wk.agreement(
                ratings,
                coefficient=coefficient,
                weights=weights,
                min_rating=0,
                max_rating=setting.k - 1,
            )
        assert math.isclose(result.statistic, statistic[b], rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(result.standard_error, se[b], rel_tol=1e-7, abs_tol=1e-12), (
            result.standard_error,
            se[b],
        )
        for method in ("asymptotic", "jackknife", "fisher-z", "fisher-z-adjusted"):
            ci = result.confidence_interval(LEVEL, method=method)
            assert np.allclose(
                [ci.low, ci.high],
                [limits[method][0][b], limits[method][1][b]],
                rtol=1e-7,
                atol=1e-10,
                equal_nan=True,
            ), (setting, n, coefficient, method)
    row: dict[str, Any] = {
        **asdict(setting),
        "n": n,
        "coefficient": coefficient,
        "weights": weights,
        "truth": true_value,
        "replications": replications,
        "undefined_statistic": float(1.0 - defined.mean()),
        "mean_estimate": float(np.nanmean(statistic)),
    }
    if resamples:
        limits.update(
            bootstrap_limits(
                coefficient, feats, items, statistic, jack, rng, resamples, setting.raters, matrix
            )
        )
    for method, (low, high) in limits.items():
        ok = defined & ~np.isnan(low) & ~np.isnan(high)
        hits = ok & (low <= true_value) & (true_value <= high)
        row[f"{method}_coverage"] = float(hits[defined].mean()) if defined.any() else math.nan
        row[f"{method}_below"] = float((ok & (high < true_value))[defined].mean())
        row[f"{method}_above"] = float((ok & (low > true_value))[defined].mean())
        row[f"{method}_width"] = float((high - low)[ok].mean()) if ok.any() else math.nan
        row[f"{method}_undefined"] = float(1.0 - ok[defined].mean()) if defined.any() else 0.0
    return row


def bootstrap_limits(
    coefficient: str,
    feats: np.ndarray,
    items: np.ndarray,
    statistic: np.ndarray,
    jack: np.ndarray,
    rng: np.random.Generator,
    resamples: int,
    raters: int,
    matrix: np.ndarray,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Percentile and BCa limits of each replication (items resampled with replacement)."""
    b_count = feats.shape[0]
    out = {m: (np.full(b_count, np.nan), np.full(b_count, np.nan)) for m in BOOT_METHODS}
    for b in np.flatnonzero(~np.isnan(statistic)):
        kept = np.flatnonzero(items[b])
        draws = rng.multinomial(len(kept), np.full(len(kept), 1.0 / len(kept)), size=resamples)
        with np.errstate(all="ignore"):
            values = coefficient_from_sums(
                coefficient, draws @ feats[b, kept], matrix, raters
            ).statistic
        values, _ = _bootstrap.drop_undefined(values)
        if values.size == 0:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out["percentile"][0][b], out["percentile"][1][b] = _bootstrap.percentile_interval(
                values, LEVEL
            )
            out["bca"][0][b], out["bca"][1][b] = _bootstrap.bca_interval(
                values, float(statistic[b]), jack[b, kept], np.ones(len(kept)), LEVEL
            )
    return out


def summary(rows: list[dict[str, Any]], methods: tuple[str, ...]) -> list[str]:
    """Markdown: per method and n, the share of designs in 93-97%, median and minimum."""
    lines = [
        "| method | n | designs | in 93-97% | below 93% | median | min | mean width |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for method in methods:
        for n in sorted({int(r["n"]) for r in rows}):
            cov = np.array(
                [r.get(f"{method}_coverage", math.nan) for r in rows if r["n"] == n], float
            )
            width = np.array(
                [r.get(f"{method}_width", math.nan) for r in rows if r["n"] == n], float
            )
            keep = ~np.isnan(cov)
            if not keep.any():
                continue
            cov, width = cov[keep], width[keep]
            inside = np.mean((cov >= BAND[0]) & (cov <= BAND[1]))
            lines.append(
                f"| {method} | {n} | {cov.size} | {inside:.0%} | {np.mean(cov < BAND[0]):.0%} "
                f"| {np.median(cov):.3f} | {cov.min():.3f} | {np.nanmean(width):.3f} |"
            )
    return lines


def by_coefficient(rows: list[dict[str, Any]], methods: tuple[str, ...], n_max: int) -> list[str]:
    """Markdown: per coefficient at n <= n_max, minimum and share in the band."""
    names = sorted({(str(r["coefficient"]), str(r["weights"])) for r in rows})
    lines = [
        "| coefficient | " + " | ".join(methods) + " |",
        "|---|" + "---:|" * len(methods),
    ]
    for coef, weights in names:
        cells = []
        for method in methods:
            cov = np.array(
                [
                    r.get(f"{method}_coverage", math.nan)
                    for r in rows
                    if r["coefficient"] == coef and r["weights"] == weights and int(r["n"]) <= n_max
                ],
                float,
            )
            cov = cov[~np.isnan(cov)]
            if cov.size == 0:
                cells.append("")
                continue
            inside = np.mean((cov >= BAND[0]) & (cov <= BAND[1]))
            cells.append(f"{inside:.0%} in band, min {cov.min():.3f}")
        lines.append(f"| {coef} {weights} | " + " | ".join(cells) + " |")
    return lines


def worst(rows: list[dict[str, Any]], method: str, n_min: int, count: int = 10) -> list[str]:
    chosen = sorted(
        (
            r
            for r in rows
            if int(r["n"]) >= n_min and not math.isnan(float(r.get(f"{method}_coverage", math.nan)))
        ),
        key=lambda r: float(r[f"{method}_coverage"]),
    )[:count]
    lines = []
    for r in chosen:
        coverage, below, above = (
            float(r[f"{method}_{key}"]) for key in ("coverage", "below", "above")
        )
        lines.append(
            f"  {method} {coverage:.3f} (below {below:.3f}, above {above:.3f}): "
            f"{r['coefficient']} {r['weights']} R={r['raters']} K={r['k']} {r['prevalence']} "
            f"missing={r['missing']} accuracy={r['accuracy']} lenient={r['lenient']} "
            f"n={r['n']} truth={float(r['truth']):.3f} "
            f"undefined={float(r['undefined_statistic']):.3f}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 settings, 400 replications")
    parser.add_argument("--settings", type=int, default=24, help="settings sampled from the grid")
    parser.add_argument("--replications", type=int, default=1000)
    parser.add_argument("--bootstrap", action="store_true", help="percentile and BCa, n <= 50")
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--boot-replications", type=int, default=400)
    parser.add_argument("--ns", type=int, nargs="*", default=list(NS))
    parser.add_argument(
        "--weights",
        choices=("all", "unweighted", "quadratic"),
        default="all",
        help="run only the unweighted or only the quadratic coefficients",
    )
    parser.add_argument("--name", default="", help="CSV file name (default by mode)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args()
    settings = sample_settings(4 if args.quick else args.settings)
    replications = 400 if args.quick else args.replications
    rows: list[dict[str, Any]] = []
    start = time.process_time()
    for index, setting in enumerate(settings):
        for c_index, (coefficient, weights) in enumerate(coefficients(setting.k)):
            if args.weights not in ("all", weights):
                continue
            _, matrix = agreement_weight_matrix(weights, setting.k, coefficient)
            value = truth(setting, coefficient, matrix, seed=1000 * index + c_index)
            for n in args.ns:
                seed = 1_000_000 * index + 1000 * c_index + n
                boot = args.bootstrap and n <= 50
                reps = args.boot_replications if boot else replications
                row = run_design(
                    setting,
                    n,
                    coefficient,
                    weights,
                    value,
                    reps,
                    args.resamples if boot else 0,
                    seed,
                )
                rows.append(row)
        print(
            f"setting {index + 1}/{len(settings)} {setting} cpu {time.process_time() - start:.0f}s",
            flush=True,
        )
    methods = METHODS + (BOOT_METHODS if args.bootstrap else ())
    args.out.mkdir(parents=True, exist_ok=True)
    name = args.name or ("small_panel_bootstrap.csv" if args.bootstrap else "small_panel.csv")
    with open(args.out / name, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list({k: None for r in rows for k in r}))
        writer.writeheader()
        writer.writerows(rows)
    print("\n".join(summary(rows, methods)))
    print()
    print("n <= 50:")
    print("\n".join(by_coefficient(rows, methods, 50)))
    for method in methods:
        print("\n".join(worst(rows, method, 30, 6)))
    print(f"cpu {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
