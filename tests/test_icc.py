"""wk.icc / wk.icc_all: published values, an exact ANOVA reference, the F formulas, peers,
inputs, missing ratings (REML) and bad input."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import wkappa as wk
from published import (
    ANXIETY_RATINGS,
    ICC_PRINTOUTS,
    IRR_ANXIETY_AGREEMENT,
    SHROUT_FLEISS_RATINGS,
    WINE_RATINGS,
    compute_icc,
)
from wkappa._core import anova_sums, f_cdf, f_ppf, f_sf
from wkappa.exceptions import UndefinedReliabilityWarning, WkappaError, WkappaTypeError

FORMS = ("1,1", "A,1", "C,1", "1,k", "A,k", "C,k")
stats = pytest.importorskip("scipy.stats")


# ----------------------------------------------------------------- published values


@pytest.mark.parametrize("printout", ICC_PRINTOUTS, ids=lambda p: p.key)
def test_published_values(printout) -> None:
    got = compute_icc(printout)
    for form, wanted in printout.values.items():
        for name, (value, tolerance) in wanted.items():
            assert abs(got[form][name] - value) <= tolerance + 1e-12, (form, name, got[form])


def irr_agreement_df(ms_raters: float, ms_error: float, rho: float, n: int, k: int) -> float:
    """irr 0.84.1's Satterthwaite df for the agreement forms: McGraw & Wong's v with the
    single-measure a = k rho / (n (1 - rho)), b = 1 + k rho (n - 1) / (n (1 - rho)), rho the
    printed estimate (ICC(A,1) or ICC(A,k))."""
    a = k * rho / (n * (1 - rho))
    b = 1 + k * rho * (n - 1) / (n * (1 - rho))
    return (a * ms_raters + b * ms_error) ** 2 / (
        (a * ms_raters) ** 2 / (k - 1) + (b * ms_error) ** 2 / ((n - 1) * (k - 1))
    )


def test_irr_anxiety_agreement_forms_differ_only_by_irr_s_df() -> None:
    """irr's ICC(A,1)/ICC(A,k) df2, p and ICC(A,k) limits on its anxiety data differ from
    wkappa's (McGraw & Wong's): wkappa's own mean squares with irr's df rule reproduce every
    printed digit, and ICC(A,k)'s limits are ICC(A,1)'s under Spearman-Brown (as psych's)."""
    results = wk.icc_all(ANXIETY_RATINGS, alternative="greater")
    n, k = 20, 3
    for form, printed in IRR_ANXIETY_AGREEMENT.items():
        result = results[form]
        assert result.df2 == 38.0  # McGraw & Wong: (n-1)(k-1) for the test of ICC = 0
        v = irr_agreement_df(result.ms_raters, result.ms_error, result.statistic, n, k)
        assert v == pytest.approx(printed["df2"], abs=1e-9)
        assert float(f_sf(result.f_statistic, n - 1, v)) == pytest.approx(
            printed["pvalue_greater"], abs=1e-11
        )
        assert result.pvalue != pytest.approx(printed["pvalue_greater"], abs=1e-4)
    a_k = results["A,k"]
    msr, msc, mse = a_k.ms_items, a_k.ms_raters, a_k.ms_error
    v = irr_agreement_df(msc, mse, a_k.statistic, n, k)
    fl, fu = float(f_ppf(0.975, n - 1, v)), float(f_ppf(0.975, v, n - 1))
    irr_low = n * (msr - fl * mse) / (fl * (msc - mse) + n * msr)
    irr_high = n * (fu * msr - mse) / (msc - mse + n * fu * msr)
    printed = IRR_ANXIETY_AGREEMENT["A,k"]
    assert irr_low == pytest.approx(printed["ci_low"], abs=1e-11)
    assert irr_high == pytest.approx(printed["ci_high"], abs=1e-11)
    low1, high1 = wk.icc(ANXIETY_RATINGS, form="A,1").confidence_interval(0.95)
    low, high = wk.icc(ANXIETY_RATINGS, form="A,k").confidence_interval(0.95)
    assert low == pytest.approx(k * low1 / (1 + (k - 1) * low1), abs=1e-12)
    assert high == pytest.approx(k * high1 / (1 + (k - 1) * high1), abs=1e-12)
    assert abs(low - printed["ci_low"]) > 0.01


# ----------------------------------------------------------------- exact reference


def exact_mean_squares(rows: list[list[int]]) -> dict[str, Fraction]:
    """The two-way ANOVA mean squares in exact rational arithmetic, from the definitions."""
    n, k = len(rows), len(rows[0])
    x = [[Fraction(v) for v in row] for row in rows]
    grand = sum(sum(row) for row in x) / (n * k)
    row_means = [sum(row) / k for row in x]
    col_means = [sum(x[i][j] for i in range(n)) / n for j in range(k)]
    ss_rows = k * sum((m - grand) ** 2 for m in row_means)
    ss_cols = n * sum((m - grand) ** 2 for m in col_means)
    ss_total = sum((x[i][j] - grand) ** 2 for i in range(n) for j in range(k))
    ss_error = ss_total - ss_rows - ss_cols
    return {
        "msr": ss_rows / (n - 1),
        "msc": ss_cols / (k - 1),
        "mse": ss_error / ((n - 1) * (k - 1)),
        "msw": (ss_total - ss_rows) / (n * (k - 1)),
    }


def exact_iccs(rows: list[list[int]]) -> dict[str, Fraction | None]:
    ms = exact_mean_squares(rows)
    n, k = len(rows), len(rows[0])
    msr, msc, mse, msw = ms["msr"], ms["msc"], ms["mse"], ms["msw"]
    fractions = {
        "1,1": (msr - msw, msr + (k - 1) * msw),
        "1,k": (msr - msw, msr),
        "C,1": (msr - mse, msr + (k - 1) * mse),
        "C,k": (msr - mse, msr),
        "A,1": (msr - mse, msr + (k - 1) * mse + Fraction(k) * (msc - mse) / n),
        "A,k": (msr - mse, msr + (msc - mse) / n),
    }
    # Undefined where the denominator (an estimated variance) is not above 0: A,k's can be
    # negative (its value would exceed 1), the others are 0 at worst.
    return {form: (num / den if den > 0 else None) for form, (num, den) in fractions.items()}


designs = st.integers(2, 9).flatmap(
    lambda n: st.integers(2, 6).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(-20, 20), min_size=k, max_size=k), min_size=n, max_size=n
        )
    )
)


@settings(max_examples=60, deadline=None)
@given(designs, st.integers(-(10**6), 10**6))
def test_all_forms_equal_the_exact_anova(rows: list[list[int]], offset: int) -> None:
    exact = exact_iccs(rows)
    shifted = [[v + offset for v in row] for row in rows]  # location never matters
    ms = exact_mean_squares(rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        results = wk.icc_all(shifted)
    scale = float(max(ms.values())) or 1.0
    for form in FORMS:
        got = results[form].statistic
        if exact[form] is None:
            # A denominator not above 0 (e.g. equal target means for the ',k' forms, with
            # float rounding residue after the offset): nan, never a huge number.
            assert np.isnan(got), (form, got)
            assert np.isnan(results[form].confidence_interval()).all()
            continue
        assert got == pytest.approx(float(exact[form]), rel=1e-9, abs=1e-9 * (1 + 1 / scale))
    a1 = results["A,1"]
    for name, key in (("ms_raters", "msc"), ("ms_error", "mse"), ("ms_within", "msw")):
        assert getattr(a1, name) == pytest.approx(float(ms[key]), rel=1e-9, abs=1e-9)
    assert a1.ms_items == pytest.approx(float(ms["msr"]), rel=1e-9, abs=1e-9)


def far_apart(
    effects: list[int], residuals: list[list[int]], offset: float, raters_far: bool
) -> np.ndarray:
    """Integer effects times ``offset`` (the targets', or with ``raters_far`` the raters')
    plus small residuals in steps of 2**-10 (each sum rounded once to a float)."""
    base = np.array(effects, dtype=np.float64) * offset
    small = np.array(residuals, dtype=np.float64) * 2.0**-10
    if raters_far:
        return base[None, : small.shape[1]] + small
    return base[: small.shape[0], None] + small


far_designs = st.integers(3, 10).flatmap(
    lambda n: st.integers(2, 5).flatmap(
        lambda k: st.tuples(
            st.lists(st.integers(-1000, 1000), min_size=max(n, k), max_size=max(n, k)),
            st.lists(st.lists(st.integers(-8, 8), min_size=k, max_size=k), min_size=n, max_size=n),
        )
    )
)


@settings(max_examples=60, deadline=None)
@given(far_designs, st.sampled_from([1e6, 1e8, 1e10, 1e12]), st.booleans())
def test_mean_squares_exact_when_effects_dwarf_the_residuals(
    design: tuple[list[int], list[list[int]]], offset: float, raters_far: bool
) -> None:
    """Targets (or raters) up to 1e15 apart and residuals near 2**-10: wk.icc took the
    raters' means first, and rounding ratings near 1e9 relative to themselves lost the
    residuals' digits (targets 1e8 apart: MSE 2.3e-10 off, 1e12: every digit). The larger
    effects are now removed first, and what their means' rounding missed is put back: every
    mean square is the exact one of the float ratings to 1e-12."""
    x = far_apart(*design, offset, raters_far)
    ms = exact_mean_squares([[Fraction(v) for v in row] for row in x.tolist()])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        result = wk.icc(x, form="C,1")
    floor = (1e-15 * offset) ** 2  # (an exact 0: what rounding at the ratings' size leaves)
    for name, key in (
        ("ms_items", "msr"), ("ms_raters", "msc"), ("ms_error", "mse"), ("ms_within", "msw")
    ):  # fmt: skip
        assert getattr(result, name) == pytest.approx(float(ms[key]), rel=1e-12, abs=floor)


def exact_sums_on_a_grid(x: np.ndarray, step: float) -> tuple[float, float, float]:
    """(SS targets, SS raters, SS error) of ratings that are multiples of ``step`` (a power
    of two), in integer arithmetic: fast enough for the compiled route's sizes."""
    n, k = x.shape
    values = [[int(v) for v in row] for row in (x / step).tolist()]
    rows = [sum(row) for row in values]
    columns = [sum(row[j] for row in values) for j in range(k)]
    grand = sum(rows)
    # n k (x_ij - r_i - c_j + g) = n k x_ij - n R_i - k C_j + G, in units of step
    error = sum(
        (n * k * v - n * rows[i] - k * columns[j] + grand) ** 2
        for i, row in enumerate(values)
        for j, v in enumerate(row)
    )
    targets = sum((n * r - grand) ** 2 for r in rows)  # k sum (R_i/k - G/nk)² times (nk)²/k
    raters = sum((k * c - grand) ** 2 for c in columns)
    scale = step * step
    return (
        float(Fraction(targets, n * n * k) * Fraction(scale)),
        float(Fraction(raters, k * k * n) * Fraction(scale)),
        float(Fraction(error, (n * k) ** 2) * Fraction(scale)),
    )


@pytest.mark.parametrize("offset", [1e6, 1e9, 1e12])
@pytest.mark.parametrize("raters_far", [False, True])
@pytest.mark.parametrize("features", [False, True])
def test_compiled_sums_exact_when_effects_dwarf_the_residuals(
    offset: float, raters_far: bool, features: bool
) -> None:
    """The compiled passes (2-D four rows at a time, 3-D with features) take the sums in the
    numpy route's order: equal to the exact sums to 1e-12, and to the numpy route's."""
    from wkappa._core.icc_sums import _numpy_sums, _plain_sums

    rng = np.random.default_rng(int(math.log10(offset)) + 2 * raters_far)
    n, k = 16_387, 4  # n % 4 == 3: the 2-D pass's tail rows too
    effects = rng.integers(-1000, 1000, size=max(n, k)).tolist()
    residuals = rng.integers(-8, 9, size=(n, k)).tolist()
    x = far_apart(effects, residuals, offset, raters_far)
    exact = exact_sums_on_a_grid(x, 2.0**-10)
    values = np.stack([x, x[::-1]], axis=2) if features else x
    assert values.size >= 1 << 16  # the compiled route
    fast = _plain_sums(values)
    slow = _numpy_sums(values if features else values[:, :, None])
    for got, want, expected in zip(
        (fast.ss_targets, fast.ss_raters, fast.ss_error), slow[1:], exact, strict=True
    ):
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        np.testing.assert_allclose(want, expected, rtol=1e-12)


# ----------------------------------------------------------------- the F formulas


def scipy_limits(form: str, msr, msc, mse, msw, n: int, k: int, alpha: float):
    """McGraw & Wong's Table 7 with scipy's F quantiles; v in pingouin's algebraic form."""
    f = stats.f
    if form[0] in "1C":
        fo, df2 = (msr / msw, n * (k - 1)) if form[0] == "1" else (msr / mse, (n - 1) * (k - 1))
        fl = fo / f.ppf(1 - alpha / 2, n - 1, df2)
        fu = fo * f.ppf(1 - alpha / 2, df2, n - 1)
        if form[2] == "1":
            # An infinite quantile (df far below 1): the limit's limiting value 1.
            return (fl - 1) / (fl + k - 1), 1.0 if np.isinf(fu) else (fu - 1) / (fu + k - 1)
        return 1 - 1 / fl, 1 - 1 / fu
    icc2 = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
    fc = msc / mse
    vn = (k - 1) * (n - 1) * (k * icc2 * fc + n * (1 + (k - 1) * icc2) - k * icc2) ** 2
    vd = (n - 1) * k**2 * icc2**2 * fc**2 + (n * (1 + (k - 1) * icc2) - k * icc2) ** 2
    v = vn / vd
    fs, fi = f.ppf(1 - alpha / 2, n - 1, v), f.ppf(1 - alpha / 2, v, n - 1)
    c = k * msc + (k * n - k - n) * mse
    # An infinite quantile (Satterthwaite's df far below 1): each limit's limiting value.
    low = -n * mse / c if np.isinf(fs) else n * (msr - fs * mse) / (fs * c + n * msr)
    high = 1.0 if np.isinf(fi) else n * (fi * msr - mse) / (c + n * fi * msr)
    if form == "A,k":  # Spearman-Brown of the single-rater limits (pingouin, psych)
        if msr + (msc - mse) / n <= 0:  # A,1 below -1/(k-1): A,k undefined, so its limits
            return np.nan, np.nan
        # (A,1's lower limit at or below -1/(k-1): the step-up's lower limit is -inf)
        low = low * k / (1 + low * (k - 1)) if 1 + low * (k - 1) > 0 else -np.inf
        return low, high * k / (1 + high * (k - 1))
    return low, high


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 40),
    st.integers(2, 6),
    st.floats(0.0, 3.0),
    st.floats(0.0, 2.0),
    st.integers(0, 2**32 - 1),
    st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
# Satterthwaite's df 0.016: the F quantile (4.6e277 in scipy) overflows to inf here, and the
# absolute-agreement lower limit is then its limiting value, not nan.
@example(3, 2, 0.5, 0.5, 2, 0.99)
@example(3, 2, 0.0, 0.0, 14, 0.8)  # v = 0.002: scipy's quantile is inf too
def test_intervals_and_pvalues_equal_the_f_formulas(n, k, sd_t, sd_r, seed, level) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 1)) * sd_t + rng.normal(size=(1, k)) * sd_r + rng.normal(size=(n, k))
    with warnings.catch_warnings():  # A,k undefined (A,1 below -1/(k-1)) warns
        warnings.simplefilter("ignore", UndefinedReliabilityWarning)
        results = wk.icc_all(x, alternative="greater")
    a1 = results["A,1"]
    msr, msc, mse, msw = a1.ms_items, a1.ms_raters, a1.ms_error, a1.ms_within
    for form in FORMS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedReliabilityWarning)
            result = wk.icc(x, form=form)
        low, high = result.confidence_interval(level)
        ref_low, ref_high = scipy_limits(form, msr, msc, mse, msw, n, k, 1 - level)
        # (nan where McGraw & Wong's df is far below 1 and an F quantile overflows)
        assert low == pytest.approx(ref_low, rel=1e-7, abs=1e-9, nan_ok=True)
        assert high == pytest.approx(ref_high, rel=1e-7, abs=1e-9, nan_ok=True)
        greater = results[form]
        ratio = msr / (msw if form[0] == "1" else mse)
        df2 = n * (k - 1) if form[0] == "1" else (n - 1) * (k - 1)
        assert greater.f_statistic == pytest.approx(ratio, rel=1e-12)
        assert greater.pvalue == pytest.approx(stats.f.sf(ratio, n - 1, df2), rel=1e-7, abs=1e-300)
        assert result.pvalue == pytest.approx(
            min(1.0, 2 * min(stats.f.sf(ratio, n - 1, df2), stats.f.cdf(ratio, n - 1, df2))),
            rel=1e-7,
            abs=1e-300,
        )


@pytest.mark.parametrize("form", FORMS)
def test_test_of_a_nonzero_icc0_is_mcgraw_wong_table_8(form: str) -> None:
    x = np.asarray(WINE_RATINGS, dtype=float)
    n, k = x.shape
    r0 = 0.3
    result = wk.icc(x, form=form, icc0=r0, alternative="greater")
    msr, msc, mse, msw = result.ms_items, result.ms_raters, result.ms_error, result.ms_within
    if form[0] in "1C":
        denominator = msw if form[0] == "1" else mse
        scale = (1 - r0) / (1 + (k - 1) * r0) if form[2] == "1" else 1 - r0
        f_obs = msr / denominator * scale
        df2 = n * (k - 1) if form[0] == "1" else (n - 1) * (k - 1)
    else:
        kk = k if form == "A,1" else 1
        a = kk * r0 / (n * (1 - r0))
        b = 1 + kk * r0 * (n - 1) / (n * (1 - r0))
        f_obs = msr / (a * msc + b * mse)
        df2 = (a * msc + b * mse) ** 2 / (
            (a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1))
        )
    assert result.f_statistic == pytest.approx(f_obs, rel=1e-12)
    assert result.df2 == pytest.approx(df2, rel=1e-12)
    assert result.pvalue == pytest.approx(stats.f.sf(f_obs, n - 1, df2), rel=1e-8)


def test_one_sided_intervals() -> None:
    greater = wk.icc(WINE_RATINGS, form="C,1", alternative="greater").confidence_interval(0.95)
    two = wk.icc(WINE_RATINGS, form="C,1").confidence_interval(0.90)
    assert greater.low == pytest.approx(two.low, rel=1e-12) and greater.high == 1.0
    less = wk.icc(WINE_RATINGS, form="C,1", alternative="less").confidence_interval(0.95)
    assert less.low == -math.inf and less.high == pytest.approx(two.high, rel=1e-12)


@pytest.mark.parametrize(
    ("form", "missing", "says"),
    [
        ("C,1", False, "exact F limits"),
        ("1,k", False, "exact F limits"),
        ("A,1", False, "approximate F limits with Satterthwaite's df"),
        ("A,k", False, "approximate F limits with Satterthwaite's df"),
        (
            "C,1",
            True,
            "approximate F limits from the REML mean squares, df of the observed ratings",
        ),
    ],
)
def test_the_method_error_says_whether_the_f_limits_are_exact(
    form: str, missing: bool, says: str
) -> None:
    """Only the one-way and consistency forms of a complete table have exact F limits."""
    ratings = np.array(WINE_RATINGS, dtype=float)
    if missing:
        ratings[0, 1] = np.nan
    result = wk.icc(ratings, form=form)
    with pytest.raises(WkappaError, match=r"^`method` must be 'F' \(") as caught:
        result.confidence_interval(method="asymptotic")
    assert says in str(caught.value)
    assert ("exact" in str(caught.value)) == (says == "exact F limits")
    assert says in result.explain()


# ----------------------------------------------------------------- F distribution


@pytest.mark.parametrize("d1", [1, 2.5, 5, 59_999, 1e6])
@pytest.mark.parametrize("d2", [1, 4, 15.3, 399_996, 1e6])
def test_f_distribution_equals_scipy(d1: float, d2: float) -> None:
    q = np.array([1e-6, 0.001, 0.025, 0.5, 0.975, 0.999])
    assert f_ppf(0.9, 2, 0.0016) == np.inf == stats.f.ppf(0.9, 2, 0.0016)
    x = stats.f.ppf(q, d1, d2)
    np.testing.assert_allclose(f_ppf(q, d1, d2), x, rtol=1e-9)
    np.testing.assert_allclose(f_cdf(x, d1, d2), stats.f.cdf(x, d1, d2), rtol=1e-8)
    np.testing.assert_allclose(f_sf(x, d1, d2), stats.f.sf(x, d1, d2), rtol=1e-8)


@pytest.mark.parametrize(("x", "d1", "d2"), [(1e30, 20, 20), (1e-30, 20, 20), (1e20, 40, 60)])
def test_f_far_tails_with_large_df(x: float, d1: float, d2: float) -> None:
    """Before: a raw ``ValueError: math domain error`` (log1p of -1 in the prefactor when
    both df are >= 20 and x is far in a tail), raised by wk.icc where the targets differ
    far more than the raters (ICC near 1)."""
    for ours, theirs in ((f_sf, stats.f.sf), (f_cdf, stats.f.cdf)):
        assert ours(x, d1, d2) == pytest.approx(theirs(x, d1, d2), rel=1e-10, abs=1e-300)
        many = ours(np.full(3, x), d1, d2)
        np.testing.assert_allclose(many, theirs(x, d1, d2), rtol=1e-10, atol=1e-300)
    ratings = np.zeros((21, 2))
    ratings[9:] += 1e14
    ratings[-1, 1] += 0.25
    result = wk.icc(ratings, alternative="greater")
    want = stats.f.sf(result.f_statistic, result.df1, result.df2)
    assert 0.0 < result.pvalue == pytest.approx(want, rel=1e-10)


# ----------------------------------------------------------------- peers


def test_pingouin_agrees_to_full_precision() -> None:
    pg = pytest.importorskip("pingouin")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(7)
    x = rng.normal(size=(25, 1)) + rng.normal(size=(1, 4)) * 0.5 + rng.normal(size=(25, 4))
    frame = pd.DataFrame(x).reset_index().melt(id_vars="index")
    table = pg.intraclass_corr(frame, targets="index", raters="variable", ratings="value")
    ours = wk.icc_all(x, alternative="greater")
    for form, row in zip(FORMS, table.itertuples(), strict=True):
        assert row.Type == f"ICC({form})"
        result = ours[form]
        assert result.statistic == pytest.approx(row.ICC, rel=1e-10)
        assert result.f_statistic == pytest.approx(row.F, rel=1e-10)
        assert result.pvalue == pytest.approx(row.pval, rel=1e-6)
        # pingouin rounds its interval to two decimals.
        low, high = wk.icc(x, form=form).confidence_interval()
        assert (round(low, 2), round(high, 2)) == tuple(row.CI95)


# ----------------------------------------------------------------- batches and kernels


def test_features_axis_equals_one_feature_at_a_time() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(40, 3, 1)) + rng.normal(size=(40, 3, 7))
    batch = wk.icc_all(x)
    for form in FORMS:
        lows, highs = batch[form].confidence_interval(0.9)
        assert batch[form].statistic.shape == (7,)
        for f in range(7):
            single = wk.icc(x[:, :, f], form=form)
            assert batch[form].statistic[f] == pytest.approx(single.statistic, rel=1e-12)
            assert batch[form].pvalue[f] == pytest.approx(single.pvalue, rel=1e-9)
            low, high = single.confidence_interval(0.9)
            assert lows[f] == pytest.approx(low, rel=1e-9) and highs[f] == pytest.approx(high)
    assert len(batch["A,1"].to_dict()["statistic"]) == 7
    assert "features" in batch["A,1"].explain() and "n_features=7" in repr(batch["A,1"])


def test_numba_kernel_equals_numpy_sums() -> None:
    rng = np.random.default_rng(11)
    x = 1e6 + rng.normal(size=(30_000, 3, 1)) + rng.normal(size=(30_000, 1, 1))
    assert x.size >= 1 << 16  # the compiled route
    from wkappa._core.icc_sums import _numpy_sums, _plain_sums

    fast = _plain_sums(x)
    slow = _numpy_sums(x)
    for got, want in zip(
        (fast.grand_mean, fast.ss_targets, fast.ss_raters, fast.ss_error), slow, strict=True
    ):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # Far from zero the sums keep their digits: SS_error / df is the unit variance, and
    # SS_raters is the exact one (the rater means' rounding is corrected in the second pass).
    assert fast.ss_error[0] / (2 * 29_999) == pytest.approx(1.0, rel=0.05)
    columns = [sum(map(Fraction, x[:, j, 0].tolist())) / len(x) for j in range(3)]
    grand = sum(columns) / 3
    exact = len(x) * sum((c - grand) ** 2 for c in columns)
    assert slow[2][0] == pytest.approx(float(exact), rel=1e-12)
    assert fast.ss_raters[0] == pytest.approx(float(exact), rel=1e-12)
    # 1e6 is 2**10 standard deviations from zero: anova_sums centres and scales first.
    scaled = anova_sums(x)
    assert scaled.unit[0] != 1.0
    unit2 = scaled.unit**2
    np.testing.assert_allclose(scaled.ss_targets * unit2, slow[1], rtol=1e-12)
    np.testing.assert_allclose(scaled.ss_error * unit2, slow[3], rtol=1e-12)
    assert scaled.ss_raters[0] * unit2[0] == pytest.approx(float(exact), rel=1e-12)


# ----------------------------------------------------------------- inputs


def test_input_kinds_agree() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    want = wk.icc(SHROUT_FLEISS_RATINGS).statistic
    array = np.asarray(SHROUT_FLEISS_RATINGS)
    frame = pd.DataFrame(array, columns=list("ABCD"))
    inputs = [
        array,
        array.astype(np.float32),
        np.asfortranarray(array),
        np.ma.MaskedArray(array),
        frame,
        frame.astype("Int64"),
        pl.from_pandas(frame),
        pl.from_pandas(frame).to_arrow(),  # a pyarrow Table, as wk.agreement reads it
        [tuple(row) for row in SHROUT_FLEISS_RATINGS],
    ]
    for value in inputs:
        assert wk.icc(value).statistic == pytest.approx(want, rel=1e-12)
    with pytest.raises(WkappaTypeError, match="`ratings` is a polars LazyFrame"):
        wk.icc(pl.from_pandas(frame).lazy())


def test_missing_ratings_as_none_nan_null_and_mask_agree() -> None:
    pd = pytest.importorskip("pandas")
    rows = [list(map(float, row)) for row in WINE_RATINGS]
    rows[2][1] = math.nan
    with_none = [[None if math.isnan(v) else v for v in row] for row in rows]
    array = np.asarray(rows)
    masked = np.ma.MaskedArray(np.nan_to_num(array), mask=np.isnan(array))
    frame = pd.DataFrame(array).astype("Float64")
    values = [wk.icc(value).statistic for value in (rows, with_none, masked, frame)]
    assert values == pytest.approx([values[0]] * 4, rel=1e-12)
    assert wk.icc(rows).method == "reml"
    # The one missing-rating message of every entry point, with ICC's own 'omit'.
    with pytest.raises(WkappaError, match=r"missing rating \(NaN/None/NA\) at item 2, rater 1"):
        wk.icc(rows, nan_policy="raise")
    propagated = wk.icc(rows, nan_policy="propagate")
    assert math.isnan(propagated.statistic) and math.isnan(propagated.pvalue)


# ----------------------------------------------------------------- missing ratings: REML


def test_reml_on_complete_data_equals_the_anova() -> None:
    from wkappa._stats.intraclass_reml import reml_fit

    rng = np.random.default_rng(5)
    for _ in range(5):
        n, k = 30, 4
        x = rng.normal(size=(n, 1)) * 1.5 + rng.normal(size=(1, k)) * 0.7 + rng.normal(size=(n, k))
        ms = wk.icc(x)
        msr, msc, mse, msw = ms.ms_items, ms.ms_raters, ms.ms_error, ms.ms_within
        if min(msr - mse, msc - mse, msr - msw) <= 0:
            continue
        fit = reml_fit(x)
        assert fit.var_targets == pytest.approx((msr - mse) / k, rel=1e-6)
        assert fit.var_raters == pytest.approx((msc - mse) / n, rel=1e-6)
        assert fit.var_error == pytest.approx(mse, rel=1e-6)
        assert fit.var_targets_oneway == pytest.approx((msr - msw) / k, rel=1e-6)
        assert fit.var_within == pytest.approx(msw, rel=1e-6)


def test_reml_with_missing_ratings_equals_statsmodels_mixedlm() -> None:
    sm = pytest.importorskip("statsmodels.api")
    pd = pytest.importorskip("pandas")
    from wkappa._stats.intraclass_reml import _prepare, _profile, reml_fit

    rng = np.random.default_rng(3)
    n, k = 15, 4
    x = rng.normal(size=(n, 1)) * 1.2 + rng.normal(size=(1, k)) * 0.8 + rng.normal(size=(n, k))
    x[rng.random(x.shape) < 0.25] = np.nan
    rows, cols = np.nonzero(~np.isnan(x))
    frame = pd.DataFrame({"y": x[rows, cols], "t": rows, "r": cols, "g": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        crossed = sm.MixedLM.from_formula(
            "y ~ 1", groups="g", vc_formula={"t": "0 + C(t)", "r": "0 + C(r)"}, data=frame
        ).fit(reml=True)
        oneway = sm.MixedLM.from_formula("y ~ 1", groups="t", data=frame).fit(reml=True)
    fit = reml_fit(x)
    var_r, var_t = crossed.vcomp  # statsmodels orders the components by name: r, t
    # statsmodels stops within ~1e-4 of the optimum along the flat rater direction; ours
    # reaches a restricted likelihood at least as high.
    assert fit.var_targets == pytest.approx(var_t, rel=1e-3)
    assert fit.var_raters == pytest.approx(var_r, rel=1e-3)
    assert fit.var_error == pytest.approx(crossed.scale, rel=1e-3)
    assert fit.var_targets_oneway == pytest.approx(float(oneway.cov_re.iloc[0, 0]), rel=1e-4)
    assert fit.var_within == pytest.approx(oneway.scale, rel=1e-4)
    data = _prepare(x)
    scale = crossed.scale
    theirs, _ = _profile(data, math.log(var_t / scale), math.log(var_r / scale))
    ours, _ = _profile(
        data, math.log(fit.var_targets / fit.var_error), math.log(fit.var_raters / fit.var_error)
    )
    assert ours <= theirs + 1e-12
    result = wk.icc(x, form="A,1")
    assert result.statistic == pytest.approx(var_t / (var_t + var_r + crossed.scale), rel=1e-3)
    assert result.n_ratings == int((~np.isnan(x)).sum())


def test_reml_component_at_zero_is_zero_not_a_rounding_above_it() -> None:
    """Shrout & Fleiss's first three judges with two ratings missing: the one-way REML item
    component sits on its bound (the restricted likelihood falls from 0 on, checked by a
    dense N x N evaluation below), so ICC(1,1) and ICC(1,k) are 0 and MSR = MSW (F = 1);
    the search stopped on the flat stretch near 0 and reported 6.9e-13."""
    rows = [[9, 2, 5], [6, None, 3], [8, 4, 6], [7, 1, 2], [10, 5, None], [6, 2, 4]]
    for form in ("1,1", "1,k"):
        result = wk.icc(rows, form=form)
        assert result.method == "reml"
        assert result.statistic == 0.0
        assert result.ms_items == result.ms_within
    # the dense restricted log-likelihood of the one-way model falls from var_t = 0 on
    y = np.array([v for row in rows for v in row if v is not None], dtype=float)
    z = np.zeros((len(y), len(rows)))
    start = 0
    for i, row in enumerate(rows):
        m = sum(v is not None for v in row)
        z[start : start + m, i] = 1.0
        start += m

    def profiled(var_t: float) -> float:
        best = -math.inf
        for var_e in np.linspace(6.5, 7.5, 201):
            v = var_t * z @ z.T + var_e * np.eye(len(y))
            vi = np.linalg.inv(v)
            one = vi.sum()
            p = vi - np.outer(vi.sum(axis=1), vi.sum(axis=0)) / one
            loglik = -0.5 * (np.linalg.slogdet(v)[1] + math.log(one) + y @ p @ y)
            best = max(best, loglik)
        return best

    assert profiled(0.0) > profiled(0.01) > profiled(0.05)


@pytest.mark.parametrize(
    ("rows", "undefined_forms"),
    [
        # every item rated once: no within-item df, no residual df (N - n - k + 1 = -1)
        ([[1, None], [None, 2], [3, None], [None, 5]], ["1,1", "A,1", "C,1", "1,k", "A,k", "C,k"]),
        # 2 items x 3 raters, 4 ratings: N - n - k + 1 = 0, the two-way forms only
        ([[1, 2, None], [3, None, 4]], ["A,1", "C,1", "A,k", "C,k"]),
    ],
)
def test_missing_ratings_that_leave_the_error_no_df_make_the_forms_undefined(
    rows: list[list[float | None]], undefined_forms: list[str]
) -> None:
    """REML's ratio of the item and error variances is arbitrary when the model's error has
    no degrees of freedom: ICC(A,1) was 0.99999999 on four items rated once each."""
    with pytest.warns(UndefinedReliabilityWarning, match="error has no degrees of freedom"):
        results = wk.icc_all(rows)
    for form, result in results.items():
        assert result.method == "reml"
        undefined = math.isnan(result.statistic)
        assert undefined == (form in undefined_forms), form
        if undefined:  # no error mean square to divide by: F and p too
            assert all(math.isnan(limit) for limit in result.confidence_interval())
            assert math.isnan(result.f_statistic) and math.isnan(result.pvalue)
            assert result.df2 >= 0  # no negative count of degrees of freedom
    if "1,1" not in undefined_forms:
        assert 0.0 < results["1,1"].statistic < 1.0 and results["1,1"].df2 == 2


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("ratings", "error", "match"),
    [
        ([[1], [2], [3]], WkappaError, "1 rater column"),
        ([[1, 2, 3]], WkappaError, "1 item"),
        ([[1, 2], [3, math.inf]], WkappaError, "infinite rating"),
        ([["a", "b"], ["c", "d"]], WkappaTypeError, "must hold numbers"),
        ([[1, "b"], [2, 3]], WkappaTypeError, "must hold numbers"),
        ("ratings", WkappaTypeError, "2-D array"),
        ([1, 2, 3], WkappaError, "shape"),
        ([[1, 2], [3]], WkappaError, "different lengths"),
        # an item without any rating is left out under 'omit' (test_icc_unrated_items.py):
        # one rated item is too few
        ([[1, np.nan], [np.nan, np.nan], [np.nan, np.nan]], WkappaError, "1 item with a rating"),
        ([[np.nan, np.nan], [np.nan, np.nan]], WkappaError, "has no rating at all"),
    ],
)
def test_bad_ratings(ratings, error, match) -> None:
    with pytest.raises(error, match=match):
        wk.icc(ratings)


def test_categorical_frame_is_refused() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": pd.Categorical([1, 2, 3]), "b": pd.Categorical([1, 2, 2])})
    with pytest.raises(WkappaTypeError, match="categorical"):
        wk.icc(frame)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"form": "ICC4"}, "`form` must be"),
        ({"form": 2}, "`form` must be"),
        ({"icc0": 1.0}, "`icc0` must be"),
        ({"icc0": "0"}, "`icc0` must be"),
        ({"alternative": "bigger"}, "`alternative`"),
        ({"nan_policy": "drop"}, "`nan_policy`"),
    ],
)
def test_bad_options(options, match) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.icc(SHROUT_FLEISS_RATINGS, **options)


def test_constant_ratings_give_nan_with_a_warning() -> None:
    with pytest.warns(UndefinedReliabilityWarning, match="ICC is undefined"):
        result = wk.icc([[3, 3], [3, 3], [3, 3]])
    assert math.isnan(result.statistic) and math.isnan(result.pvalue)
    assert math.isnan(result.confidence_interval().low)


@pytest.mark.parametrize(
    ("spelling", "form"),
    [
        ("ICC1", "1,1"),
        ("ICC2", "A,1"),
        ("ICC3", "C,1"),
        ("ICC1k", "1,k"),
        ("ICC2k", "A,k"),
        ("ICC3k", "C,k"),
        ("ICC(2,1)", "A,1"),
        ("ICC(A,1)", "A,1"),
        ("icc(c, k)", "C,k"),
        ("a,1", "A,1"),
        ("3,k", "C,k"),
    ],
)
def test_form_spellings(spelling: str, form: str) -> None:
    assert wk.icc(SHROUT_FLEISS_RATINGS, form=spelling).form == form


def test_result_surface() -> None:
    result = wk.icc(SHROUT_FLEISS_RATINGS, form="ICC2")
    assert result.name == "ICC(A,1)" and result.shrout_fleiss == "ICC2"
    data = result.to_dict()
    assert data["statistic"] == pytest.approx(0.28976, abs=1e-5)
    assert data["confidence_interval"]["method"] == "F"
    assert "MSC (raters)" in result.explain() and "ICCResult(form='A,1'" in repr(result)
    with pytest.raises(AttributeError):
        result.statistic = 0.0  # type: ignore[misc]


@pytest.mark.slow
def test_reml_with_missing_ratings_is_unbiased_where_listwise_deletion_loses_targets() -> None:
    """benchmarks/icc_missing_study.py in small: 20% of ratings missing at random, REML's
    ICC(A,1) and ICC(C,1) are as unbiased as the complete data's ANOVA (within simulation
    error), and use every target."""
    rng = np.random.default_rng(2028)
    n, k, var_r = 60, 4, 0.25
    true_a1, true_c1 = 1 / (1 + var_r + 1), 1 / (1 + 1)
    reml_a1, reml_c1, full_a1 = [], [], []
    for _ in range(40):
        x = rng.normal(size=(n, 1)) + rng.normal(size=(1, k)) * var_r**0.5 + rng.normal(size=(n, k))
        y = x.copy()
        y[rng.random((n, k)) < 0.2] = np.nan
        y[np.isnan(y).all(axis=1), 0] = x[np.isnan(y).all(axis=1), 0]
        fits = wk.icc_all(y)
        assert fits["A,1"].method == "reml" and fits["A,1"].n_items == n
        reml_a1.append(fits["A,1"].statistic)
        reml_c1.append(fits["C,1"].statistic)
        full_a1.append(wk.icc(x, form="A,1").statistic)
    # Simulation standard error of a mean of 40 estimates is ~0.015 here.
    assert abs(np.mean(reml_a1) - true_a1) < 0.05
    assert abs(np.mean(reml_c1) - true_c1) < 0.05
    assert abs(np.mean(reml_a1) - np.mean(full_a1)) < 0.03


def test_accumulator_splits_merged_equal_the_whole() -> None:
    rng = np.random.default_rng(9)
    x = 50 + rng.normal(size=(200, 1)) + rng.normal(size=(1, 3)) + rng.normal(size=(200, 3))
    whole = wk.icc_all(x)
    parts = [wk.ICCAccumulator().update(x[a:b]) for a, b in ((0, 1), (1, 70), (70, 200))]
    merged = parts[0] + parts[1] + parts[2]
    streamed = wk.ICCAccumulator(3)
    for start in range(0, 200, 33):
        streamed.update(x[start : start + 33])
    assert merged.n == streamed.n == 200
    for form in FORMS:
        for acc in (merged, streamed):
            result = acc.result(form=form, icc0=0.2, alternative="greater")
            want = wk.icc(x, form=form, icc0=0.2, alternative="greater")
            assert result.statistic == pytest.approx(want.statistic, rel=1e-10)
            assert result.pvalue == pytest.approx(want.pvalue, rel=1e-8)
            assert result.confidence_interval().low == pytest.approx(
                want.confidence_interval().low, rel=1e-8
            )
    assert whole["A,1"].statistic == pytest.approx(merged.result().statistic, rel=1e-10)


def test_accumulator_bad_input() -> None:
    acc = wk.ICCAccumulator().update([[1, 2, 3]])
    with pytest.raises(WkappaError, match="2 rater columns but the accumulator has 3"):
        acc.update([[1, 2]])
    with pytest.raises(WkappaError, match="at least two items"):
        acc.result()
    with pytest.raises(WkappaError, match="missing rating"):
        acc.update([[1, np.nan, 3]])
    with pytest.raises(WkappaError, match="`n_raters`"):
        wk.ICCAccumulator(1)
    with pytest.raises(WkappaError, match="Can only merge an ICCAccumulator"):
        acc.merge(3)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 5),
    st.lists(st.integers(1, 40), min_size=1, max_size=4),
    st.integers(0, 2**32 - 1),
)
def test_accumulator_state_survives_json_exactly_and_merges(k, sizes, seed) -> None:
    import json

    rng = np.random.default_rng(seed)
    parts = []
    for size in sizes:
        x = rng.normal(size=(size, 1)) * 3 + rng.normal(size=(size, k)) + 1e3 * rng.random()
        parts.append(wk.ICCAccumulator().update(x))
    restored = [wk.ICCAccumulator.from_dict(json.loads(json.dumps(p.to_dict()))) for p in parts]
    for part, back in zip(parts, restored, strict=True):
        assert back.to_dict() == part.to_dict()
    merged, merged_back = parts[0], restored[0]
    for part, back in zip(parts[1:], restored[1:], strict=True):
        merged, merged_back = merged + part, merged_back + back
    assert merged_back.to_dict() == merged.to_dict()  # bit for bit
    if merged.n >= 2:
        for form in FORMS:
            with warnings.catch_warnings():  # (A,k undefined on two items, say)
                warnings.simplefilter("ignore", UndefinedReliabilityWarning)
                want, got = merged.result(form=form), merged_back.result(form=form)
            assert got.statistic == want.statistic or (
                math.isnan(got.statistic) and math.isnan(want.statistic)
            )


def test_accumulator_state_empty_and_bad() -> None:
    empty = wk.ICCAccumulator.from_dict(wk.ICCAccumulator().to_dict())
    assert empty.n == 0 and empty.to_dict()["n_raters"] is None
    three = wk.ICCAccumulator.from_dict(wk.ICCAccumulator(3).to_dict())
    with pytest.raises(WkappaError, match="2 rater columns but the accumulator has 3"):
        three.update([[1, 2]])
    state = wk.ICCAccumulator().update(SHROUT_FLEISS_RATINGS).to_dict()
    assert state["format"] == "wkappa.ICCAccumulator" and state["version"] == 4
    assert wk.ICCAccumulator.from_dict(state).result(form="ICC2").statistic == pytest.approx(
        0.2898, abs=1e-4
    )
    with pytest.raises(WkappaError, match="not an ICCAccumulator dict"):
        wk.ICCAccumulator.from_dict(wk.KappaAccumulator(min_rating=0, max_rating=2).to_dict())
    with pytest.raises(WkappaError, match="version 99"):
        wk.ICCAccumulator.from_dict({**state, "version": 99})
    with pytest.raises(WkappaError, match=r"state\['n'\]"):
        wk.ICCAccumulator.from_dict({**state, "n": -1})
    with pytest.raises(WkappaError, match="list of 4 finite numbers"):
        wk.ICCAccumulator.from_dict({**state, "rater_effects": [1.0, 2.0]})
    with pytest.raises(WkappaError, match="list of 4 finite numbers"):
        wk.ICCAccumulator.from_dict({**state, "rater_effects": ["a", 1, 2, 3]})
    with pytest.raises(WkappaError, match="row_m2"):
        wk.ICCAccumulator.from_dict({**state, "row_m2": "1"})
    with pytest.raises(WkappaError, match="negative sum"):
        wk.ICCAccumulator.from_dict({**state, "row_m2": -1.0})
    with pytest.raises(WkappaError, match="error_m2"):
        wk.ICCAccumulator.from_dict({**state, "error_m2": None})
    with pytest.raises(WkappaError, match="error_m2"):
        wk.ICCAccumulator.from_dict({**state, "error_m2": float("inf")})
    with pytest.raises(WkappaError, match="n_raters"):
        wk.ICCAccumulator.from_dict({**state, "n_raters": None})
    with pytest.raises(WkappaError, match="`n_raters`"):
        wk.ICCAccumulator.from_dict({**state, "n_raters": 1})


def test_large_float_table_skips_the_reading_pass_with_the_same_answers() -> None:
    # A 2-D float64 array of >= 2**16 ratings goes straight to the compiled pass; its
    # finite column sums vouch for every rating. Anything non-finite takes the reader's route.
    rng = np.random.default_rng(3)
    x = 50 + rng.normal(size=(40_000, 1)) * 2 + rng.normal(size=(40_000, 2))
    for form, result in wk.icc_all(x).items():
        batch = wk.icc(x[:, :, None], form=form)  # the reader's route and the 3-D pass
        assert result.statistic == pytest.approx(batch.statistic[0], rel=1e-10)
        assert result.pvalue == pytest.approx(batch.pvalue[0], rel=1e-8, abs=1e-300)
        low, high = result.confidence_interval()
        batch_low, batch_high = batch.confidence_interval()
        assert (low, high) == pytest.approx((batch_low[0], batch_high[0]), rel=1e-9)
    assert isinstance(wk.icc(x).statistic, float) and wk.icc(x).n_ratings == 80_000
    bad = x.copy()
    bad[123, 1] = np.inf
    with pytest.raises(WkappaError, match="infinite rating at item 123, rater 1\\."):
        wk.icc(bad)
    bad[123, 1] = np.nan
    with pytest.raises(WkappaError, match="missing rating"):
        wk.icc(bad, nan_policy="raise")
    assert np.isnan(wk.icc(bad, nan_policy="propagate").statistic)
    with pytest.raises(WkappaError, match="nan_policy"):
        wk.icc(x, nan_policy="drop")


@pytest.mark.parametrize("n", [32_769, 32_770, 32_771, 32_772])
def test_two_dimensional_kernel_equals_numpy_sums_for_every_remainder(n: int) -> None:
    # The 2-D pass runs four rows at a time; n % 4 rows are left for the tail loop.
    from wkappa._core.icc_sums import _numpy_sums

    rng = np.random.default_rng(n)
    # (rater effects of order 1: with none, SS_raters is ~1e-5 of the sums and both passes
    # keep only ~8 of its digits at ratings near 1e3)
    x = 1e3 + rng.normal(size=(n, 1)) + rng.normal(size=(1, 2)) + rng.normal(size=(n, 2))
    fast = anova_sums(x)
    slow = _numpy_sums(x[:, :, None])
    for got, want in zip(
        (fast.grand_mean, fast.ss_targets, fast.ss_raters, fast.ss_error), slow, strict=True
    ):
        np.testing.assert_allclose(got, want, rtol=1e-9)


F_WARMUP_SCRIPT = """
import sys, threading
import numpy as np
import wkappa as wk
from wkappa._core import warmup

rng = np.random.default_rng(5)
x = rng.normal(size=(6000, 1)) + rng.normal(size=(6000, 2))  # df 5999 + 5999: compiled F
first = wk.icc_all(x)
kernels = sys.modules.get("wkappa._core.kernels.numba_icc")
compiled = [] if kernels is None else [
    f.signatures for f in (kernels.tail, kernels.quantile, kernels.beta_fraction)
]
assert not any(compiled), compiled  # nothing compiled in the caller's thread
for thread in threading.enumerate():
    if thread.name == "wkappa-compile":
        thread.join(timeout=280)
assert "F distribution" in warmup._ready, warmup._ready
x[0, 0] += 1e-3  # new values: the compiled route answers now
for form, result in wk.icc_all(x).items():
    low, high = result.confidence_interval(0.9)
    want = first[form]
    assert abs(result.statistic - want.statistic) < 1e-5
    py = want.confidence_interval(0.9)
    assert abs(low - py.low) < 1e-5 and abs(high - py.high) < 1e-5, (form, low, py)
kernels = sys.modules["wkappa._core.kernels.numba_icc"]
for f in (kernels.tail, kernels.quantile):
    # loaded from the cache the child process wrote (the cache directory started empty)
    assert f.signatures and f.stats.cache_hits and not f.stats.cache_misses, f.stats
"""


@pytest.mark.integration
def test_large_df_f_kernels_compile_off_the_callers_thread(tmp_path) -> None:
    """The first ICC with df in the compiled range is answered by the Python F functions
    while a child process compiles the kernels (fresh interpreter, empty numba cache)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "WKAPPA_COMPILE"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(os.path.dirname(os.path.dirname(__file__)), "src")]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    proc = subprocess.run(
        [sys.executable, "-c", F_WARMUP_SCRIPT], env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize(
    "ratings",
    [
        [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]],  # identical raters: every form is 1
        [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]],  # a constant offset: the consistency forms are 1
    ],
)
def test_no_error_variance_gives_p_0_and_limits_at_1(ratings: list[list[float]]) -> None:
    """MSE = 0 (F = inf): the ',1' forms' lower limit was nan ((inf - 1) / (inf + k - 1)),
    the absolute forms' p-value and limits nan (Satterthwaite's df 0/0), without a warning.
    pingouin gives p = 0 there; every limit is 1 as F -> inf."""
    for form, result in wk.icc_all(ratings).items():
        interval = result.confidence_interval()
        if result.f_statistic != np.inf:  # the one-way forms of the offset raters
            continue
        assert result.pvalue == 0.0, form
        assert interval.low <= result.statistic <= interval.high, (form, interval)
        if result.statistic == 1.0:
            assert (interval.low, interval.high) == (1.0, 1.0), form
        assert wk.icc(ratings, form=form, alternative="less").pvalue == 1.0


def test_accumulators_sum_like_kappa_accumulators() -> None:
    """sum(ICCAccumulators) was a raw TypeError (int + ICCAccumulator); KappaAccumulator
    has always merged under sum()."""
    x = np.random.default_rng(5).normal(size=(30, 3))
    parts = [wk.ICCAccumulator().update(x[a:b]) for a, b in ((0, 10), (10, 30))]
    assert sum(parts).result().statistic == pytest.approx(wk.icc(x).statistic, abs=1e-12)


@pytest.mark.parametrize("call", ["icc", "icc_all", "ccc", "accumulator"])
def test_a_long_layout_frame_is_refused_as_agreement_refuses_it(call: str) -> None:
    """wk.icc(df) of an (item, rater, rating) frame took the three columns as three raters
    and returned a number; wk.agreement refuses it and points to wkappa.frames."""
    pd = pytest.importorskip("pandas")
    long = pd.DataFrame({"item": [1, 1, 2, 2], "rater": [1, 2, 1, 2], "rating": [1.0, 2, 3, 4]})
    with pytest.raises(WkappaError, match="looks like the long layout"):
        if call == "accumulator":
            wk.ICCAccumulator().update(long)
        else:
            getattr(wk, call)(long)


def test_counts_are_checked_by_one_rule_everywhere():
    """ICCAccumulator refused numpy integers for ``n_raters`` (and its state's ``n``), which
    kappa_power, n_resamples and n_simulations accepted."""
    from wkappa.exceptions import WkappaError

    ratings = np.array([[1.0, 2.0, 2.5], [3.0, 3.5, 4.0], [5.0, 4.0, 6.0]])
    acc = wk.ICCAccumulator(n_raters=np.int64(3))
    acc.update(ratings)
    state = acc.to_dict()
    assert state["n_raters"] == 3 and type(state["n_raters"]) is int
    state["n"] = np.int64(state["n"])
    assert wk.ICCAccumulator.from_dict(state).result().statistic == acc.result().statistic
    for call, said in (
        (lambda: wk.ICCAccumulator(n_raters=True), "`n_raters` must be an integer >= 2; got True"),
        (lambda: wk.ICCAccumulator(n_raters=1), "`n_raters` must be an integer >= 2; got 1"),
        (lambda: wk.kappa_power(30, kappa1=0.6, n_raters=1.0), "`n_raters` must be an integer"),
    ):
        with pytest.raises(WkappaError, match=said):
            call()


def test_propagate_with_a_missing_rating_estimates_nothing_and_says_so() -> None:
    """method was 'reml' although nothing was fitted under nan_policy='propagate'."""
    gap = np.array([[1.0, 2.0], [2.0, np.nan], [3.0, 3.0], [4.0, 5.0]])
    result = wk.icc(gap, nan_policy="propagate")  # nan asked for: no warning
    assert result.method == "none" and result.to_dict()["method"] == "none"
    assert math.isnan(result.statistic) and result.n_ratings == 7
    assert "nan_policy='propagate' makes every value nan" in result.explain()
    assert wk.icc(gap).method == "reml"  # 'omit' fits the REML components
    complete = np.array([[1.0, 2.0], [2.0, 3.0], [3.0, 3.0], [4.0, 5.0]])
    batch = np.stack([complete, gap], axis=2)  # one complete feature, one with a gap
    both = wk.icc(batch, nan_policy="propagate")
    assert both.method == "anova" and not math.isnan(both.statistic[0])
    assert math.isnan(both.statistic[1])


def test_reml_does_not_depend_on_the_order_of_the_raters() -> None:
    """REML's search on the likelihood's values stopped where it is flat to rounding, 1e-8
    from its maximum, with the order of the rater columns deciding where (A,1 0.60274676104
    or 0.60274676946 on this table): Newton steps on its gradient find the maximum itself."""
    nan = math.nan
    rows = np.array(
        [
            [1.3, 1.8, 1.2, 2.8],
            [1.1, 0.7, -0.1, nan],
            [-2.2, -2.6, -1.3, nan],
            [-0.5, nan, nan, 1.9],
            [1.5, 1.4, 3.0, 0.3],
            [-1.1, 1.3, -0.4, 0.1],
            [1.0, -0.2, 1.4, 1.8],
        ]
    )
    values = np.array(
        [
            [result.statistic for result in wk.icc_all(rows[:, list(order)]).values()]
            for order in itertools.permutations(range(4))
        ]
    )
    assert wk.icc(rows, form="A,1").method == "reml"
    assert np.all(np.isfinite(values))
    np.testing.assert_allclose(values, np.broadcast_to(values[0], values.shape), rtol=1e-11)
