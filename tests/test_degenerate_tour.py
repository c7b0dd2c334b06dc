"""A tour of degenerate samples: every public result with an interval or a p-value, every
interval method, on 0 to 3 items, identical items, ratings all in one category, a rater
whose ratings are all missing and weights that leave kappa undefined. Each call either
refuses the input with a WkappaError or returns, with at most one warning, pointing at the
caller's line; an interval is nan or has two distinct ends; a p-value is nan or in (0, 1];
and a nan interval or p-value beside a defined estimate has been warned about.

Two zero-width intervals are the statistic's own: [1, 1] at perfect agreement (standard
error exactly 0, as SAS gives it), and [0, 0] with p = 1 for a paired difference that is 0 on
every resample (two predictions that agree with each other on every item). So is the p-value
0 of perfect agreement for the coefficients whose test uses that standard error. The rule for too
few items and for items without spread is in the small-samples user guide."""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk

N = None  # a missing rating
BOOT = wk.BootstrapMethod(n_resamples=199, rng=0)
BCA = wk.BootstrapMethod(method="bca", n_resamples=199, rng=0)
KAPPA_METHODS = ["asymptotic", "score", "fisher-z", BOOT, BCA]
AGREEMENT_METHODS = ["asymptotic", "fisher-z", "fisher-z-adjusted", "jackknife", BOOT, BCA]
GROUP_METHODS = ["jackknife-t", BOOT, BCA]
ZERO_WEIGHTS = np.zeros((3, 3))  # no disagreement costs anything: kappa is 0 / 0

# Two raters: (y_true, y_pred, extra keywords).
PAIRS: dict[str, tuple[list[Any], list[Any], dict[str, Any]]] = {
    "n0": ([], [], {}),
    "n1": ([1], [2], {}),
    "n2": ([1, 2], [1, 3], {}),
    "n3": ([1, 2, 3], [1, 3, 3], {}),
    "identical_items": ([1, 1, 1, 1], [2, 2, 2, 2], {}),
    "one_category": ([2, 2, 2, 2], [2, 2, 2, 2], {}),
    "perfect": ([1, 2, 3, 1], [1, 2, 3, 1], {}),
    "rater_missing": ([1, 2, 3, 1], [math.nan] * 4, {"nan_policy": "omit"}),
    "undefined_weights": ([1, 2, 3, 1], [1, 3, 3, 2], {"weights": ZERO_WEIGHTS}),
}
# Several raters: (ratings, extra keywords).
PANELS: dict[str, tuple[list[list[Any]], dict[str, Any]]] = {
    "n0": ([], {}),
    "n1": ([[1, 2, 2]], {}),
    "n2": ([[1, 2, 2], [3, 3, 1]], {}),
    "n3": ([[1, 2, 2], [3, 3, 1], [2, 2, 2]], {}),
    "identical_items": ([[1, 2, 2]] * 4, {}),
    "one_category": ([[2, 2, 2]] * 4, {}),
    "perfect": ([[1, 1, 1], [2, 2, 2], [3, 3, 3], [1, 1, 1]], {}),
    "rater_missing": ([[1, 2, N], [3, 3, N], [2, 2, N], [1, 1, N]], {}),
    "undefined_weights": ([[1, 2, 2], [3, 3, 1], [2, 2, 2], [1, 1, 3]], {"weights": ZERO_WEIGHTS}),
}
CASES = list(PAIRS)


def _table(y_true: list[Any], y_pred: list[Any]) -> np.ndarray:
    table = np.zeros((3, 3), dtype=np.int64)
    for t, p in zip(y_true, y_pred, strict=True):
        if not (isinstance(p, float) and math.isnan(p)):
            table[t - 1, p - 1] += 1
    return table


def _counts(ratings: list[list[Any]]) -> np.ndarray:
    return np.array(
        [[sum(r == k for r in row) for k in (1, 2, 3)] for row in ratings], dtype=np.int64
    ).reshape(-1, 3)


def _table3(y_true: list[Any], a: list[Any], b: list[Any]) -> np.ndarray:
    table = np.zeros((3, 3, 3), dtype=np.int64)
    for t, x, y in zip(y_true, a, b, strict=True):
        if not (isinstance(x, float) and math.isnan(x)):
            table[t - 1, x - 1, y - 1] += 1
    return table


def _keep(extra: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in extra.items() if k in names}


def _accumulated(y_true: list[Any], y_pred: list[Any], extra: dict[str, Any]) -> Any:
    acc = wk.KappaAccumulator(labels=[1, 2, 3], **_keep(extra, "weights"))
    keep = [not (isinstance(p, float) and math.isnan(p)) for p in y_pred]
    acc.update(
        [t for t, k in zip(y_true, keep, strict=True) if k],
        [p for p, k in zip(y_pred, keep, strict=True) if k],
    )
    return acc.result()


def _icc_accumulated(ratings: list[list[Any]]) -> Any:
    acc = wk.ICCAccumulator()
    if ratings:
        acc.update(np.array(ratings, dtype=float))
    return acc.result()


def _pair_b(y_pred: list[Any]) -> list[Any]:
    return [3 if isinstance(p, float) else (p % 3) + 1 for p in y_pred]


# entry point -> (build(case) -> result, interval methods)
ENTRIES: dict[str, tuple[Callable[[str], Any], list[Any]]] = {
    "kappa_test": (
        lambda c: wk.kappa_test(PAIRS[c][0], PAIRS[c][1], labels=[1, 2, 3], **PAIRS[c][2]),
        KAPPA_METHODS,
    ),
    "kappa_test_from_table": (
        lambda c: wk.kappa_test_from_table(
            _table(*PAIRS[c][:2]), **_keep(PAIRS[c][2], "weights")
        ),
        KAPPA_METHODS,
    ),
    "KappaAccumulator": (lambda c: _accumulated(*PAIRS[c]), KAPPA_METHODS),
    "paired_kappa_test": (
        lambda c: wk.paired_kappa_test(
            PAIRS[c][0], PAIRS[c][1], _pair_b(PAIRS[c][1]), labels=[1, 2, 3],
            n_resamples=199, rng=0, **PAIRS[c][2],
        ),
        ["expanded-percentile"],
    ),
    "paired_kappa_test_from_table": (
        lambda c: wk.paired_kappa_test_from_table(
            _table3(PAIRS[c][0], PAIRS[c][1], _pair_b(PAIRS[c][1])), n_resamples=199, rng=0,
            **_keep(PAIRS[c][2], "weights"),
        ),
        ["expanded-percentile"],
    ),
    "stratified_kappa_test_from_tables": (
        lambda c: wk.stratified_kappa_test_from_tables(
            [_table(*PAIRS[c][:2]), _table(*PAIRS["n3"][:2])], **_keep(PAIRS[c][2], "weights")
        ),
        ["asymptotic"],
    ),
    "stratified_kappa_test_bootstrap": (
        lambda c: wk.stratified_kappa_test_from_tables(
            [_table(*PAIRS[c][:2])] * 2, homogeneity=BOOT, **_keep(PAIRS[c][2], "weights")
        ),
        ["asymptotic"],
    ),
    "stratified_one_stratum": (
        lambda c: wk.stratified_kappa_test_from_tables(
            [_table(*PAIRS[c][:2])], **_keep(PAIRS[c][2], "weights")
        ),
        ["asymptotic"],
    ),
    "stratified_kappa_test": (
        lambda c: wk.stratified_kappa_test(
            PAIRS[c][0] * 2, PAIRS[c][1] * 2, strata=sorted([0, 1] * len(PAIRS[c][0])),
            labels=[1, 2, 3], **PAIRS[c][2],
        ),
        ["asymptotic"],
    ),
    "ccc": (
        lambda c: wk.ccc(PAIRS[c][0], PAIRS[c][1], **_keep(PAIRS[c][2], "nan_policy")),
        [None],
    ),
    "agreement_fleiss": (
        lambda c: wk.agreement(PANELS[c][0], labels=[1, 2, 3], **PANELS[c][1]), AGREEMENT_METHODS
    ),
    "agreement_conger": (
        lambda c: wk.agreement(
            PANELS[c][0], coefficient="conger", labels=[1, 2, 3], **PANELS[c][1]
        ),
        AGREEMENT_METHODS,
    ),
    "agreement_gwet": (
        lambda c: wk.agreement(PANELS[c][0], coefficient="gwet", labels=[1, 2, 3], **PANELS[c][1]),
        AGREEMENT_METHODS,
    ),
    "agreement_from_counts": (
        lambda c: wk.agreement_from_counts(_counts(PANELS[c][0]), **PANELS[c][1]),
        AGREEMENT_METHODS,
    ),
    "krippendorff_alpha": (
        lambda c: wk.krippendorff_alpha(PANELS[c][0], labels=[1, 2, 3]), AGREEMENT_METHODS
    ),
    "group_agreement": (
        lambda c: wk.group_agreement(
            PANELS[c][0], [[r[0], r[0], r[1]] for r in PANELS[c][0]], labels=[1, 2, 3],
            **PANELS[c][1],
        ),
        GROUP_METHODS,
    ),
    "rater_vs_panel": (
        lambda c: wk.rater_vs_panel(
            PANELS[c][0], [r[0] for r in PANELS[c][0]], labels=[1, 2, 3], n_resamples=199,
            rng=0, **PANELS[c][1],
        ),
        ["expanded-percentile"],
    ),
    **{
        f"icc_{form}": (lambda c, form=form: wk.icc(PANELS[c][0], form=form), ["F"])
        for form in ("1,1", "A,1", "C,1", "1,k", "A,k", "C,k")
    },
    "icc_all_1,1": (lambda c: wk.icc_all(PANELS[c][0])["1,1"], ["F"]),
    "ICCAccumulator": (lambda c: _icc_accumulated(PANELS[c][0]), ["F"]),
    "ccc_several": (lambda c: wk.ccc(PANELS[c][0]), [None]),
}  # fmt: skip


def _call(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """The call's value (or its WkappaError) and its warnings; at most one, at this file."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = call()
        except wk.WkappaError as error:
            value = error
    messages = [f"{w.category.__name__}: {w.message}" for w in caught]
    assert all(w.filename == __file__ for w in caught), [w.filename for w in caught]
    assert len(caught) <= 1, messages
    return value, messages


def _estimate(result: Any) -> float:
    for name in ("statistic", "difference"):
        if hasattr(result, name):
            return float(getattr(result, name))
    raise AssertionError(type(result))


def _pvalues(result: Any) -> list[float]:
    names = ("pvalue", "homogeneity_pvalue")
    return [float(getattr(result, n)) for n in names if hasattr(result, n)]


def _own_zero_width(result: Any, estimate: float, low: float, high: float) -> bool:
    if estimate == 1.0 and low == high == 1.0:  # perfect agreement
        return True
    return low == high == estimate == 0.0 and getattr(result, "pvalue", None) == 1.0


# Found by this tour and not fixed yet (each xfail is strict: fixing it fails the tour).
KNOWN: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_degenerate_sample(entry: str, case: str, request: pytest.FixtureRequest) -> None:
    if (entry, case) in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[entry, case], strict=True))
    build, methods = ENTRIES[entry]
    result, built_warnings = _call(lambda: build(case))
    if isinstance(result, wk.WkappaError):
        assert "\n" not in str(result).strip()
        return
    estimate = _estimate(result)
    if math.isnan(estimate):
        assert built_warnings, f"a nan estimate, unannounced: {result!r}"
    for pvalue in _pvalues(result):
        perfect = estimate == 1.0 and pvalue == 0.0  # a standard error of exactly 0 at 1
        assert math.isnan(pvalue) or 0 < pvalue <= 1 or perfect, pvalue
        if math.isnan(pvalue) and not math.isnan(estimate):
            assert built_warnings, "a nan p-value beside a defined estimate, unannounced"
    for method in methods:
        kwargs = {} if method is None else {"method": method}
        ci, ci_warnings = _call(lambda kw=kwargs: result.confidence_interval(**kw))
        assert not isinstance(ci, wk.WkappaError), ci
        low, high = ci
        if math.isnan(low) or math.isnan(high):
            assert math.isnan(low) and math.isnan(high), (low, high)
            if not math.isnan(estimate):
                assert built_warnings or ci_warnings, f"{method}: a silent nan interval"
        elif not _own_zero_width(result, estimate, low, high):
            assert low < high, f"{method}: a zero-width interval [{low}, {high}]"


@pytest.mark.parametrize("level", [0.0, 1.0, math.nan, 1.5, -0.5, 95, "0.95", True])
@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_confidence_level_out_of_range_is_refused(entry: str, level: Any) -> None:
    """Every result's confidence_interval, with every method: a level outside (0, 1), or not a
    number, is a one-line WkappaError naming `confidence_level`."""
    build, methods = ENTRIES[entry]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the tour above checks the warnings)
        result = build("n3")
    for method in methods:
        kwargs = {} if method is None else {"method": method}
        with pytest.raises(wk.WkappaError, match=r"^`confidence_level`") as caught:
            result.confidence_interval(level, **kwargs)
        assert "\n" not in str(caught.value).strip()


def _scores(y_pred: list[Any]) -> list[float]:
    return [float(p) for p in y_pred]


# The scores without an interval: (y_true, y_pred, extra) -> a number or an array.
SCORES: dict[str, Callable[[list[Any], list[Any], dict[str, Any]], Any]] = {
    "weighted_kappa": lambda t, p, x: wk.weighted_kappa(t, p, labels=[1, 2, 3], **x),
    "qwk": lambda t, p, x: wk.qwk(t, p, labels=[1, 2, 3], **_keep(x, "nan_policy")),
    "qwk_zero_weights": lambda t, p, x: wk.qwk(
        t, p, labels=[1, 2, 3], sample_weight=[0] * len(t), **_keep(x, "nan_policy")
    ),
    "confusion_table": lambda t, p, x: wk.confusion_table(
        t, p, labels=[1, 2, 3], **_keep(x, "nan_policy")
    ),
    "kappa_from_table": lambda t, p, x: wk.kappa_from_table(_table(t, p), **_keep(x, "weights")),
    "optimize_thresholds": lambda t, p, x: (
        wk.optimize_thresholds(t, _scores(p), labels=[1, 2, 3], **x).statistic
    ),
    "apply_thresholds": lambda t, p, x: wk.apply_thresholds(_scores(p), [1.5, 2.5]),
    "mean_kappa": lambda t, p, x: wk.mean_kappa(
        [wk.weighted_kappa(t, p, labels=[1, 2, 3], zero_division=0.0, **x)] * 2
    ),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("score", sorted(SCORES))
def test_degenerate_score(score: str, case: str) -> None:
    """The scores of two raters without an interval: a value, or a one-line WkappaError; a nan
    value has been warned about, once, at the caller's line."""
    value, messages = _call(lambda: SCORES[score](*PAIRS[case]))
    if isinstance(value, wk.WkappaError):
        assert "\n" not in str(value).strip()
        return
    values = np.asarray(value, dtype=np.float64)
    if np.isnan(values).any():
        assert messages, f"a nan {score}, unannounced"


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_degenerate_rater_diagnostics(coefficient: str, case: str) -> None:
    """pairwise() and leave_one_rater_out() of an agreement result: arrays of the raters'
    shape (nan where a pair or a leave-one-out is undefined, as documented), without an error
    or a warning of their own."""
    ratings, extra = PANELS[case]
    result, _ = _call(
        lambda: wk.agreement(ratings, coefficient=coefficient, labels=[1, 2, 3], **extra)
    )
    if isinstance(result, wk.WkappaError):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pairs = result.pairwise()
        left_out = result.leave_one_rater_out()
    assert pairs.shape == (result.n_raters, result.n_raters)
    assert left_out.shape == (result.n_raters,)
    defined = pairs[~np.isnan(pairs)]
    assert np.all((defined >= -1 - 1e-12) & (defined <= 1 + 1e-12))


def _sided(name: str, alternative: str) -> Any:
    function = getattr(wk, name)
    return lambda *args, **kwargs: function(*args, alternative=alternative, **kwargs)


SIDED = sorted(  # the public functions that take an alternative
    name
    for name in wk.__all__
    if inspect.isfunction(getattr(wk, name))
    and "alternative" in inspect.signature(getattr(wk, name)).parameters
)


@pytest.mark.parametrize("alternative", ["greater", "less"])
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_degenerate_sample_one_sided(
    entry: str, case: str, alternative: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, with every result built for a one-sided alternative (its intervals one-sided:
    an infinite or range end is not a zero width)."""
    for name in SIDED:
        monkeypatch.setattr(wk, name, _sided(name, alternative))
    for accumulator in (wk.KappaAccumulator, wk.ICCAccumulator):
        result = accumulator.result
        monkeypatch.setattr(
            accumulator, "result", lambda self, r=result: r(self, alternative=alternative)
        )
    test_degenerate_sample(entry, case, _NoMarker())


class _NoMarker:
    def applymarker(self, marker: Any) -> None:  # KNOWN is empty for the one-sided runs too
        raise AssertionError(f"a KNOWN case in the one-sided tour: {marker}")


# Planning on boundary inputs: kappa0 == kappa1, kappa at -1 and 1, one category only (a
# prevalence of 0 or 1), power and alpha at or beyond 0 and 1, n at its smallest.
_M = [0.5, 0.5]
PLANS: dict[str, Callable[[], Any]] = {
    "kappa0_is_kappa1": lambda: wk.kappa_sample_size(kappa1=0.5, kappa0=0.5, marginals=_M),
    "power_kappa0_is_kappa1": lambda: wk.kappa_power(50, kappa1=0.5, kappa0=0.5, marginals=_M),
    "power_kappa0_is_kappa1_gof": lambda: wk.kappa_power(
        50, kappa1=0.5, kappa0=0.5, marginals=_M, method="goodness-of-fit"
    ),
    "power_kappa0_is_kappa1_simulation": lambda: wk.kappa_power(
        50, kappa1=0.5, kappa0=0.5, marginals=_M, method="simulation", n_simulations=100, rng=0
    ),
    "kappa1_1": lambda: wk.kappa_sample_size(kappa1=1.0, kappa0=0.5, marginals=_M),
    "kappa1_minus_1": lambda: wk.kappa_sample_size(
        kappa1=-1.0, kappa0=0.0, marginals=_M, alternative="less"
    ),
    "kappa1_minus_1_width": lambda: wk.kappa_sample_size(kappa1=-1.0, marginals=_M, ci_width=0.3),
    "power_kappa1_minus_1": lambda: wk.kappa_power(
        50, kappa1=-1.0, marginals=_M, alternative="two-sided"
    ),
    "power_table_all_disagree": lambda: wk.kappa_power(
        30, table=[[0, 5], [5, 0]], alternative="less"
    ),
    "kappa0_1": lambda: wk.kappa_sample_size(kappa1=0.5, kappa0=1.0, marginals=_M),
    "kappa0_minus_1": lambda: wk.kappa_sample_size(kappa1=0.5, kappa0=-1.0, marginals=_M),
    "prevalence_0": lambda: wk.kappa_sample_size(kappa1=0.6, kappa0=0.2, marginals=[0, 1]),
    "prevalence_1": lambda: wk.kappa_power(50, kappa1=0.6, marginals=[1, 0]),
    "one_category_table": lambda: wk.kappa_power(50, table=[[5, 0], [0, 0]]),
    "perfect_table": lambda: wk.kappa_sample_size(table=[[5, 0], [0, 5]], kappa0=0.2),
    "power_0": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, power=0.0),
    "power_1": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, power=1.0),
    "power_below_alpha": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, power=0.01),
    "alpha_0": lambda: wk.kappa_power(50, kappa1=0.6, marginals=_M, alpha=0.0),
    "alpha_1": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, alpha=1.0),
    "alpha_negative": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, alpha=-0.1),
    "alpha_nan": lambda: wk.kappa_power(50, kappa1=0.6, marginals=_M, alpha=math.nan),
    "n_0": lambda: wk.kappa_power(0, kappa1=0.6, marginals=_M),
    "n_2": lambda: wk.kappa_power(2, kappa1=0.6, marginals=_M),
    "n_2_simulation": lambda: wk.kappa_power(
        2, kappa1=0.6, marginals=_M, method="simulation", n_simulations=100, rng=0
    ),
    "ci_width_plan": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, ci_width=0.3),
    "ci_width_0": lambda: wk.kappa_sample_size(kappa1=0.6, marginals=_M, ci_width=0.0),
    "assurance_1": lambda: wk.kappa_sample_size(
        kappa1=0.6, marginals=_M, lower_limit=0.3, assurance=1.0
    ),
    "lower_limit_at_kappa1": lambda: wk.kappa_power(50, kappa1=0.6, marginals=_M, lower_limit=0.6),
}


@pytest.mark.parametrize("name", sorted(PLANS))
def test_planning_boundary(name: str) -> None:
    plan, messages = _call(PLANS[name])
    if isinstance(plan, wk.WkappaError):
        assert "\n" not in str(plan).strip()
        return
    for value in (plan.power, plan.expected_width, plan.assurance):
        assert math.isnan(value) or value >= 0, value
    assert math.isnan(plan.power) or plan.power <= 1
    if math.isnan(plan.power) and plan.kappa0 is not None:  # (an interval goal tests nothing)
        assert messages, f"a nan power, unannounced: {plan!r}"
