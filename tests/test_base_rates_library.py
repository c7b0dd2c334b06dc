"""The base-rate indices' kappa, observed agreement and PABAK are the library's own numbers:
``_stats.base_rates`` computed them from the table's proportions by its own formulas, and
``wkappa demo`` and ``wkappa judge`` showed those, which differed from ``wk.weighted_kappa``
and ``wk.agreement`` on the same pairs in the last bits. The pooled kappa (judge's
``members_pooled``), which has no library function, is checked against exact fractions."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output
from wkappa._core import confusion_table
from wkappa._stats import base_rate_indices, pooled_base_rate_indices


def _ratings(seed: int, n: int, raters: int, k: int, missing: float) -> np.ndarray:
    """Items x raters of categories 0..k-1 that agree more than chance, with missing ratings."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    noisy = np.where(rng.random((n, raters)) < 0.6, truth[:, None], rng.integers(0, k, (n, raters)))
    matrix = noisy.astype(np.float64)
    matrix[rng.random(matrix.shape) < missing] = np.nan
    return matrix


def _both(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return ~np.isnan(a) & ~np.isnan(b)


@pytest.mark.parametrize("seed", range(40))
def test_a_pairs_indices_are_the_librarys_bit_for_bit(seed):
    rng = np.random.default_rng(1000 + seed)
    k = int(rng.integers(2, 7))
    matrix = _ratings(seed, int(rng.integers(3, 600)), 2, k, missing=0.15)
    a, b = matrix[:, 0], matrix[:, 1]
    both = _both(a, b)
    labels = list(range(k))
    table = confusion_table(a[both], b[both], labels=labels)
    found = base_rate_indices(table)
    nan = float("nan")
    with warnings.catch_warnings():  # a few items: their standard errors may be undefined
        warnings.simplefilter("ignore", wk.UndefinedKappaWarning)
        kappa = wk.weighted_kappa(a[both], b[both], weights="unweighted", labels=labels,
                                  zero_division=nan)  # fmt: skip
        percent = wk.agreement(matrix, coefficient="percent", labels=labels, zero_division=nan)
        pabak = wk.agreement(matrix, coefficient="brennan_prediger", labels=labels,
                             zero_division=nan)  # fmt: skip
    assert found["kappa"] == kappa or (np.isnan(kappa) and np.isnan(found["kappa"]))
    assert found["observed_agreement"] == percent.statistic
    assert found["pabak"] == pabak.statistic
    # The indices of the table's own formulas (module docstring), exactly.
    total = int(table.sum())
    rows = [Fraction(int(table[i].sum()), total) for i in range(k)]
    cols = [Fraction(int(table[:, j].sum()), total) for j in range(k)]
    share = [(r + c) / 2 for r, c in zip(rows, cols, strict=True)]
    prevalence = Fraction(k, k - 1) * sum(abs(m - Fraction(1, k)) for m in share) / 2
    bias = sum(abs(r - c) for r, c in zip(rows, cols, strict=True)) / 2
    assert found["prevalence_index"] == pytest.approx(float(prevalence), abs=1e-15)
    assert found["bias_index"] == pytest.approx(float(bias), abs=1e-15)


def test_undefined_indices_are_nan():
    assert all(np.isnan(v) for v in base_rate_indices(np.zeros((3, 3))).values())
    one = base_rate_indices(np.array([[5]]))  # one category: agreement, nothing else
    assert one["observed_agreement"] == 1.0
    assert all(np.isnan(one[name]) for name in ("kappa", "pabak", "prevalence_index"))
    constant = base_rate_indices(np.array([[5, 0], [0, 0]]))  # kappa's chance agreement is 1
    assert np.isnan(constant["kappa"]) and constant["pabak"] == 1.0


def _pooled_reference(tables: list[np.ndarray]) -> dict[str, Fraction]:
    """Exact pooled indices: p_o of the summed table; p_e each pair's sum_k r_k c_k weighted
    by its count; kappa (p_o - p_e) / (1 - p_e); PABAK (K p_o - 1) / (K - 1)."""
    tables = [t for t in tables if t.sum() > 0]
    k = tables[0].shape[0]
    total = sum(int(t.sum()) for t in tables)
    po = Fraction(sum(int(np.trace(t)) for t in tables), total)
    pe = Fraction(0)
    for t in tables:
        n = int(t.sum())
        pe += sum(Fraction(int(t[i].sum()) * int(t[:, i].sum()), n) for i in range(k))
    pe /= total
    return {
        "observed_agreement": po,
        "kappa": (po - pe) / (1 - pe),
        "pabak": (k * po - 1) / (k - 1),
    }


def _pooled_pairs(panel: np.ndarray) -> np.ndarray:
    """Every pair of raters' both-rated items stacked as one pair of columns."""
    pairs = []
    for j in range(panel.shape[1]):
        for h in range(j + 1, panel.shape[1]):
            both = _both(panel[:, j], panel[:, h])
            pairs.append(panel[both][:, [j, h]])
    return np.vstack(pairs)


@pytest.mark.parametrize(("seed", "missing"), [(s, m) for s in range(12) for m in (0.0, 0.2)])
def test_pooled_indices_are_the_librarys_and_the_exact_pooled_kappa(seed, missing):
    """The pooled observed agreement and PABAK are wk.agreement's percent and
    Brennan-Prediger of every pair's ratings pooled, bit for bit (of the panel itself only
    without missing ratings, up to rounding); the pooled kappa is the exact fraction's float
    and, without missing ratings, Conger's kappa (up to rounding)."""
    k = 3 + seed % 3
    panel = _ratings(seed, 150 + 20 * seed, 4, k, missing)
    labels = list(range(k))
    tables = []
    for j in range(4):
        for h in range(j + 1, 4):
            both = _both(panel[:, j], panel[:, h])
            tables.append(confusion_table(panel[both, j], panel[both, h], labels=labels))
    found = pooled_base_rate_indices(tables)
    pooled = _pooled_pairs(panel)
    for coefficient, name in (("percent", "observed_agreement"), ("brennan_prediger", "pabak")):
        assert found[name] == wk.agreement(pooled, coefficient=coefficient, labels=labels).statistic
        of_panel = wk.agreement(panel, coefficient=coefficient, labels=labels).statistic
        if missing == 0.0:
            assert found[name] == pytest.approx(of_panel, abs=1e-13)
        else:  # the panel's averages each item's share of agreeing pairs
            assert abs(found[name] - of_panel) > 1e-6
    exact = _pooled_reference(tables)
    for name, value in exact.items():
        assert found[name] == pytest.approx(float(value), rel=1e-13, abs=1e-15), name
    if missing == 0.0:
        conger = wk.agreement(panel, coefficient="conger", labels=labels).statistic
        assert found["kappa"] == pytest.approx(conger, abs=1e-13)


@pytest.mark.parametrize("missing", [0.0, 0.15])
def test_judge_json_is_the_librarys_bit_for_bit(tmp_path, capsys, missing):
    """Every member's kappa, observed agreement and PABAK, and the pooled observed agreement
    and PABAK of the members' pairs, in judge's JSON, are the library's numbers on the same
    ratings."""
    matrix = _ratings(3, 320, 5, 5, missing)
    names = ["llm", "a", "b", "c", "d"]
    path = tmp_path / "panel.csv"
    cells = [",".join("" if np.isnan(v) else str(int(v)) for v in row) for row in matrix]
    path.write_text(",".join(names) + "\n" + "\n".join(cells) + "\n")
    argv = ["judge", str(path), "--candidate", "llm", "--raters", "a,b,c,d"]
    document = json_output(capsys, [*argv, "--bootstrap", "99", "--seed", "0"])
    labels = document["labels"]
    assert labels == [0, 1, 2, 3, 4]
    nan = float("nan")
    for j, member in enumerate(document["members"], start=1):
        pair = matrix[:, [0, j]]
        both = _both(pair[:, 0], pair[:, 1])
        kappa = wk.weighted_kappa(pair[both, 0], pair[both, 1], weights="unweighted", labels=labels)
        assert member["kappa"] == kappa
        for coefficient, name in (("percent", "observed_agreement"), ("brennan_prediger", "pabak")):
            expected = wk.agreement(pair, coefficient=coefficient, labels=labels, zero_division=nan)
            assert member[name] == expected.statistic, (j, name)
    pooled = document["members_pooled"]
    pairs = _pooled_pairs(matrix[:, 1:])
    for coefficient, name in (("percent", "observed_agreement"), ("brennan_prediger", "pabak")):
        assert pooled[name] == wk.agreement(pairs, coefficient=coefficient, labels=labels).statistic


def test_demo_prints_the_librarys_base_rates(capsys):
    """The demo's judge-vs-annotator line shows the library's raw agreement, kappa and PABAK
    of the judge and the first annotator (wk.agreement, wk.weighted_kappa)."""
    from wkappa._cli import main
    from wkappa._cli.demo import simulated_panel
    from wkappa._cli.output import format_number

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    line = next(s for s in out.splitlines() if "judge vs the first annotator" in s)
    labels, panel, judge = simulated_panel()
    pair = np.column_stack([judge, panel[:, 0]])
    percent = wk.agreement(pair, coefficient="percent", labels=labels).statistic
    kappa = wk.weighted_kappa(judge, panel[:, 0], weights="unweighted", labels=labels)
    pabak = wk.agreement(pair, coefficient="brennan_prediger", labels=labels).statistic
    shown = (
        f"raw agreement {format_number(percent)}, kappa {format_number(kappa)}, "
        f"PABAK {format_number(pabak)},"
    )
    assert shown in line, (shown, line)
