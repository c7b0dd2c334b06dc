"""The standard errors, score intervals and seeded table bootstraps do not depend on the BLAS
kernel or the layout.

Matrix products go through BLAS, whose kernels (AVX2, AVX-512, ...) round differently, so a
standard error printed on one machine would differ in its last digits on another; the sums
are taken elementwise along fixed axes instead.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk

_COEFFICIENTS = ("fleiss", "gwet", "krippendorff", "conger", "brennan_prediger")


def _ratings(n_raters: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, 400)
    noise = rng.integers(-1, 2, (400, n_raters)) * (rng.random((400, n_raters)) < 0.4)
    return np.clip(truth[:, None] + noise, 1, 5).astype(np.float64)


@pytest.mark.parametrize("n_raters", [2, 4])
@pytest.mark.parametrize("coefficient", _COEFFICIENTS)
def test_agreement_does_not_depend_on_the_layout_of_the_ratings(n_raters, coefficient) -> None:
    ratings = _ratings(n_raters, seed=n_raters)
    ratings[::17, 0] = np.nan
    padded = np.full((2 * len(ratings), n_raters + 3), 9.0)
    padded[::2, 1 : n_raters + 1] = ratings
    first = wk.agreement(ratings, coefficient=coefficient, weights="quadratic")
    for other in (np.asfortranarray(ratings), padded[::2, 1 : n_raters + 1]):
        again = wk.agreement(other, coefficient=coefficient, weights="quadratic")
        assert (again.statistic, again.standard_error) == (first.statistic, first.standard_error)


_PROBE = """
import numpy as np, wkappa as wk
from wkappa._stats import score_limits
rng = np.random.default_rng(5)
out = []
for n_raters in (2, 3, 5):
    truth = rng.integers(1, 6, 500)
    noise = rng.integers(-1, 2, (500, n_raters)) * (rng.random((500, n_raters)) < 0.4)
    ratings = np.clip(truth[:, None] + noise, 1, 5)
    for coefficient in {coefficients!r}:
        for weights in ("quadratic", "linear"):
            result = wk.agreement(ratings, coefficient=coefficient, weights=weights)
            out += [result.statistic, result.standard_error]
    adjusted = result.confidence_interval(0.95, method="fisher-z-adjusted")
    out += [adjusted.low, adjusted.high]
a, b = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
b[:200] = a[:200]
clustered = wk.kappa_test(a, b, weights="quadratic", cluster=np.arange(300) // 7)
out.append(clustered.standard_error)
for k in (3, 6, 12):
    tables = rng.multinomial(150, np.full(k * k, 1 / (k * k)), size=20).reshape(20, k, k)
    tables = tables + np.diag(rng.integers(0, 20, k))
    weights = np.subtract.outer(np.arange(k), np.arange(k)) ** 2 / (k - 1.0) ** 2
    for ends in score_limits(tables, weights, 0.95):
        out += ends.tolist()
    out.append(wk.kappa_test_from_table(tables[0], weights="quadratic").standard_error)
a, b, c = rng.integers(0, 6, (3, 2000))
b[:1500], c[:1200] = a[:1500], a[:1200]
fractional = np.abs(np.subtract.outer(np.arange(6), np.arange(6))) ** 1.5
for weights in ("quadratic", fractional):
    test = wk.kappa_test(a, b, weights=weights)
    for method in ("percentile", "bca"):
        how = wk.BootstrapMethod(n_resamples=499, method=method, rng=3)
        out += list(test.confidence_interval(method=how)[:2])
    paired = wk.paired_kappa_test(a, b, c, weights=weights, n_resamples=499, rng=3)
    out += list(paired.confidence_interval()[:2])
sample_weight = rng.random(2000) + 0.5
weighted = wk.kappa_test(a, b, sample_weight=np.ceil(2 * sample_weight))  # whole, as float
how = wk.BootstrapMethod(n_resamples=499, method="bca", rng=3)
out += list(weighted.confidence_interval(method=how)[:2])
groups = np.arange(2000) // 9
for sample in (None, sample_weight):
    clustered = wk.kappa_test(a, b, cluster=groups, sample_weight=sample)
    out += list(clustered.confidence_interval(method=how)[:2])
paired = wk.paired_kappa_test(a, b, c, cluster=groups, n_resamples=499, rng=3)
out += list(paired.confidence_interval()[:2])
ratings = np.column_stack([a, b, c])
for coefficient in ("fleiss", "krippendorff", "conger"):
    for options in ({{}}, {{"cluster": groups}}):
        result = wk.agreement(ratings, coefficient=coefficient, weights="quadratic", **options)
        out += list(result.confidence_interval(method=how)[:2])
for options in ({{}}, {{"cluster": groups}}):
    versus = wk.rater_vs_panel(ratings[:, :2], c, n_resamples=499, rng=3, **options)
    out += [versus.difference, *versus.confidence_interval()[:2]]
print(" ".join(map(repr, out)))
"""


def _openblas_kernels() -> bool:
    if sys.platform != "linux" or platform.machine() != "x86_64":
        return False
    config = np.show_config(mode="dicts")
    blas = str(config.get("Build Dependencies", {}).get("blas", {}).get("name", ""))
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    return "openblas" in blas.lower() and " avx2" in flags


@pytest.mark.skipif(not _openblas_kernels(), reason="needs OpenBLAS on x86-64 with AVX2")
def test_results_are_the_same_with_every_openblas_kernel() -> None:
    # OPENBLAS_CORETYPE picks OpenBLAS's kernel: Haswell (AVX2) and Prescott (SSE3) round
    # matrix products differently (a Fleiss standard error of the MS data differed).
    src = str(Path(wk.__file__).resolve().parents[1])
    printed = set()
    for kernel in ("Haswell", "Prescott"):
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel, "PYTHONPATH": src}
        probe = _PROBE.format(coefficients=_COEFFICIENTS)
        run = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr
        printed.add(run.stdout)
    assert len(printed) == 1


def test_draw_sums_are_the_correctly_rounded_sums() -> None:
    """Each slice's product is exact, so a bootstrap's sums of drawn units do not depend on
    the order BLAS adds in; here they are even the correctly rounded exact sums."""
    from fractions import Fraction

    from wkappa._stats.resampling import DrawSums

    rng = np.random.default_rng(2)
    values = rng.random((300, 4)) * rng.choice([1e-9, 1.0, 1e7], (300, 4))
    draws = rng.multinomial(300, np.full(300, 1 / 300), size=3).astype(np.float64)
    sums = DrawSums(values, 300)(draws)
    for b in range(3):
        for j in range(4):
            exact = sum(
                Fraction(int(m)) * Fraction(x) for m, x in zip(draws[b], values[:, j], strict=True)
            )
            assert sums[b, j] == float(exact)
    whole = rng.integers(0, 50, (300, 4)).astype(np.float64)
    assert np.array_equal(DrawSums(whole, 300)(draws), draws @ whole)
