"""Several raters: wkappa.agreement, agreement_from_counts and krippendorff_alpha.

Exact Fraction reference (tests/reference_raters.py), published values (each test names its
source), identities with the two-rater statistic, and cross-checks against peers.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import FewClustersWarning, UndefinedKappaWarning, WkappaError

from .reference_raters import named_weights, reference

COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]
nan = np.nan

# irrCAC's cac.raw4raters (Gwet 2014, Handbook of Inter-Rater Reliability, 4th ed.; shipped
# with the R package irrCAC): 12 items, 4 raters, missing ratings.
RAW4RATERS = np.array(
    [
        [1, 1, nan, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [nan, 5, 5, 5],
        [nan, nan, 1, 1],
        [nan, nan, 3, nan],
    ]
)

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", reliability data:
# 4 observers (rows) x 12 units, missing values.
KRIPPENDORFF_DATA = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
).T


# --------------------------------------------------------------------------- published values


@pytest.mark.parametrize(
    ("coefficient", "pa", "pe", "value", "se", "low", "pvalue"),
    [
        # irrCAC README (R package irrCAC 1.0, Gwet), cac.raw4raters, unweighted:
        # pa.coeff.raw, gwet.ac1.raw, fleiss.kappa.raw, krippen.alpha.raw,
        # conger.kappa.raw, bp.coeff.raw. Intervals are (low, 1); p-values one-sided.
        ("percent", 0.8181818, 0.0, 0.8181818, 0.12561, 0.542, 2.172686e-05),
        ("gwet", 0.8181818, 0.1903212, 0.77544, 0.14295, 0.461, 0.0001043605),
        ("fleiss", 0.8181818, 0.2387153, 0.76117, 0.15302, 0.424, 0.0002095865),
        ("krippendorff", 0.805, 0.24, 0.74342, 0.14548, 0.423, 0.0001693123),
        ("conger", 0.8181818, 0.2334252, 0.76282, 0.14917, 0.435, 0.0001683533),
        ("brennan_prediger", 0.8181818, 0.2, 0.77273, 0.14472, 0.454, 0.0001187804),
    ],
)
def test_irrcac_readme_raw4raters(coefficient, pa, pe, value, se, low, pvalue):
    result = wk.agreement(RAW4RATERS, coefficient=coefficient, alternative="greater")
    assert result.percent_agreement == pytest.approx(pa, abs=5e-8)
    assert result.chance_agreement == pytest.approx(pe, abs=5e-8)
    assert result.statistic == pytest.approx(value, abs=5e-6)
    assert result.standard_error == pytest.approx(se, abs=5e-6)
    # irrCAC prints the two-sided interval next to the one-sided p-value.
    two = wk.agreement(RAW4RATERS, coefficient=coefficient)
    ci = two.confidence_interval()
    assert round(ci.low, 3) == low
    assert ci.high == 1.0
    assert result.pvalue == pytest.approx(pvalue, rel=1e-6)
    assert result.n_items == 12 and result.n_raters == 4 and result.n_ratings == 41
    # Two-sided (the default) is twice the one-sided value here.
    assert two.pvalue == pytest.approx(2 * pvalue, rel=1e-6)


def test_fleiss_1971_diagnoses():
    """Fleiss (1971) diagnoses, 30 patients x 6 psychiatrists, 5 categories: 0.4302445
    (R irr::kappam.fleiss, quoted in statsmodels' test_fleiss_kappa_irr)."""
    module = pytest.importorskip("statsmodels.stats.tests.test_inter_rater")
    result = wk.agreement(module.diagnoses, coefficient="fleiss")
    assert result.statistic == pytest.approx(0.4302445, abs=5e-8)


def test_krippendorff_reliability_data():
    """Krippendorff (2011): alpha nominal 0.743, interval 0.849."""
    nominal = wk.krippendorff_alpha(KRIPPENDORFF_DATA, level="nominal")
    interval = wk.krippendorff_alpha(KRIPPENDORFF_DATA, level="interval")
    assert round(nominal.statistic, 3) == 0.743
    assert round(interval.statistic, 3) == 0.849
    quadratic = wk.agreement(KRIPPENDORFF_DATA, coefficient="krippendorff", weights="quadratic")
    assert quadratic.statistic == pytest.approx(interval.statistic, abs=1e-14)
    assert quadratic.standard_error == pytest.approx(interval.standard_error, abs=1e-14)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_level_has_its_own_field(level):
    """`weights` holds only weights; the level is `level` (None for the other functions)."""
    result = wk.krippendorff_alpha(KRIPPENDORFF_DATA, level=level)
    assert result.level == level
    assert result.weights == ("unweighted" if level == "nominal" else "custom")
    assert result.to_dict()["level"] == level and result.to_dict()["weights"] == result.weights
    assert f"level={level!r}" in repr(result)
    assert f"({level} level)" in result.explain().splitlines()[0]
    with pytest.warns(FewClustersWarning, match="Only 6 clusters"):
        clustered = wk.krippendorff_alpha(
            KRIPPENDORFF_DATA, level=level, cluster=np.arange(len(KRIPPENDORFF_DATA)) // 2
        )
    assert clustered.level == level
    missing = np.array([[1.0, np.nan], [2.0, 2.0]])
    assert wk.krippendorff_alpha(missing, level=level, nan_policy="propagate").level == level
    other = wk.agreement(KRIPPENDORFF_DATA, coefficient="krippendorff", weights="quadratic")
    assert other.level is None and other.to_dict()["level"] is None
    assert "level=" not in repr(other) and "(quadratic weights)" in other.explain()


# --------------------------------------------------------------------------- exact reference


@st.composite
def designs(draw):
    k = draw(st.integers(2, 10))
    n_raters = draw(st.integers(2, 12))
    n = draw(st.integers(2, 25))
    missing = draw(st.floats(0.0, 0.5))
    cells = draw(
        st.lists(
            st.lists(
                st.one_of(st.integers(0, k - 1), st.none())
                if missing > 0
                else st.integers(0, k - 1),
                min_size=n_raters,
                max_size=n_raters,
            ),
            min_size=n,
            max_size=n,
        )
    )
    # Every rater rates at least one item and some item has two ratings (Conger needs the
    # first; every coefficient needs the second).
    cells[0] = [v if v is not None else 0 for v in cells[0]]
    return k, cells


def _as_matrix(cells):
    return np.array([[nan if v is None else v for v in row] for row in cells], dtype=float)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    designs(),
    st.sampled_from(COEFFICIENTS),
    st.sampled_from(["unweighted", "quadratic", "linear", "custom"]),
)
def test_matches_exact_reference(design, coefficient, weights_kind):
    k, cells = design
    if weights_kind == "custom":
        rng = np.random.default_rng(k)
        upper = np.triu(rng.integers(1, 5, size=(k, k)), 1) / 4
        matrix = upper + upper.T
        exact = [[Fraction(float(x)).limit_denominator(8) for x in row] for row in matrix]
        weights = matrix
    else:
        exact = named_weights(weights_kind, k)
        weights = weights_kind
    coef, pa, pe, variance = reference(cells, k, exact, coefficient)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedKappaWarning)
        result = wk.agreement(
            _as_matrix(cells),
            coefficient=coefficient,
            weights=weights,
            min_rating=0,
            max_rating=k - 1,
            zero_division=math.nan,
        )
    # The one warning left with zero_division=nan: a defined coefficient whose standard
    # error is undefined (a single item) says so.
    if caught:
        assert not math.isnan(result.statistic) and math.isnan(result.standard_error)
        assert "standard error" in str(caught[0].message)
    assert result.percent_agreement == pytest.approx(float(pa), abs=1e-12)
    assert result.chance_agreement == pytest.approx(float(pe), abs=1e-12)
    if coef is None:
        assert math.isnan(result.statistic)
        return
    assert result.statistic == pytest.approx(float(coef), abs=1e-10)
    if variance is not None and variance == 0 and coef < 1:
        # Every item adds the same term: a variance of 0 below perfect agreement measures
        # nothing, and the standard error is nan (with the warning checked above).
        assert math.isnan(result.standard_error)
    elif variance is not None:
        assert result.standard_error == pytest.approx(math.sqrt(float(variance)), abs=1e-9)


def test_finite_population_correction_matches_reference():
    k = 5
    cells = [[None if np.isnan(v) else int(v) - 1 for v in row] for row in RAW4RATERS]
    for coefficient in COEFFICIENTS:
        _, _, _, variance = reference(cells, k, named_weights("unweighted", k), coefficient, 40)
        result = wk.agreement(RAW4RATERS, coefficient=coefficient, population_size=40)
        assert result.standard_error == pytest.approx(math.sqrt(float(variance)), abs=1e-12)


# --------------------------------------------------------------------------- identities


# Two items of the same Gwet term (e.g. (0, 0) and (0, 1)) have no standard error: the point
# estimate is under test here, not that warning.
@pytest.mark.filterwarnings("ignore:.*adds the same term to Gwet's variance")
@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 10),
    st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=2, max_size=200),
    st.sampled_from(["unweighted", "quadratic", "linear", "linear matrix"]),
    st.booleans(),
)
def test_conger_two_complete_raters_is_cohen(k, pairs, weights, as_float):
    """Conger's kappa of two raters without missing ratings is Cohen's, bit for bit."""
    pairs = [(a % k, b % k) for a, b in pairs]
    ratings = np.array(pairs)
    if as_float:
        ratings = ratings.astype(np.float64)
    if weights == "linear matrix":  # weight_matrix('linear') as a matrix
        weights = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / (k - 1)
    cohen = wk.weighted_kappa(
        ratings[:, 0], ratings[:, 1], weights=weights, min_rating=0, max_rating=k - 1,
        zero_division=math.nan,
    )  # fmt: skip
    conger = wk.agreement(
        ratings, coefficient="conger", weights=weights, min_rating=0, max_rating=k - 1,
        zero_division=math.nan,
    )  # fmt: skip
    if math.isnan(cohen):
        assert math.isnan(conger.statistic)
    else:
        assert conger.statistic == cohen


# Two items of the same Gwet term (e.g. (0, 0) and (0, 1)) have no standard error: the point
# estimate is under test here, not that warning.
@pytest.mark.filterwarnings("ignore:.*adds the same term to Gwet's variance")
@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 8),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=2, max_size=120),
    st.integers(0, 2**32 - 1),
)
def test_conger_two_raters_custom_matrix_is_cohen(k, pairs, seed):
    """With any symmetric matrix Conger's kappa (exact, rounded once) is Cohen's up to
    weighted_kappa's own float rounding; with an asymmetric W it is Cohen's with the
    symmetric part (W + W') / 2, since every pair of raters counts in both orders."""
    ratings = np.array([(a % k, b % k) for a, b in pairs])
    rng = np.random.default_rng(seed)
    weights = rng.random((k, k))
    np.fill_diagonal(weights, 0.0)
    symmetric = (weights + weights.T) / 2
    for matrix in (weights, symmetric):
        halves = [
            [(Fraction(matrix[a, b]) + Fraction(matrix[b, a])) / 2 for b in range(k)]
            for a in range(k)
        ]
        exact = reference(ratings.tolist(), k, halves, "conger", None)[0]
        conger = wk.agreement(
            ratings, coefficient="conger", weights=matrix, min_rating=0, max_rating=k - 1,
            zero_division=math.nan,
        ).statistic  # fmt: skip
        if exact is None:
            assert math.isnan(conger)
        else:
            assert conger == float(exact)  # the exact value, correctly rounded
    cohen = wk.weighted_kappa(
        ratings[:, 0], ratings[:, 1], weights=symmetric, min_rating=0, max_rating=k - 1,
        zero_division=math.nan,
    )  # fmt: skip
    if exact is not None:
        assert cohen == pytest.approx(float(exact), rel=4e-15, abs=1e-15)


# A design with a single rated item has a defined coefficient and an undefined standard error,
# which warns even with zero_division=nan; these properties compare the values only.
_ONE_RATED_ITEM = pytest.mark.filterwarnings(
    "ignore:The standard error, interval and p-value:wkappa.exceptions.UndefinedKappaWarning"
)


@_ONE_RATED_ITEM
@settings(max_examples=25, deadline=None)
@given(designs(), st.sampled_from(COEFFICIENTS), st.integers(0, 2**32 - 1))
def test_invariant_under_permutations(design, coefficient, seed):
    k, cells = design
    matrix = _as_matrix(cells)
    rng = np.random.default_rng(seed)
    base = wk.agreement(
        matrix, coefficient=coefficient, min_rating=0, max_rating=k - 1, zero_division=math.nan
    )
    shuffled = matrix[rng.permutation(len(matrix))][:, rng.permutation(matrix.shape[1])]
    other = wk.agreement(
        shuffled, coefficient=coefficient, min_rating=0, max_rating=k - 1, zero_division=math.nan
    )
    relabel = rng.permutation(k)
    renamed = np.where(np.isnan(matrix), nan, relabel[np.nan_to_num(matrix).astype(int)])
    third = wk.agreement(
        renamed, coefficient=coefficient, min_rating=0, max_rating=k - 1, zero_division=math.nan
    )
    for result in (other, third):
        if math.isnan(base.statistic):
            assert math.isnan(result.statistic)
            continue
        assert result.statistic == pytest.approx(base.statistic, abs=1e-12)
        if not math.isnan(base.standard_error):
            assert result.standard_error == pytest.approx(base.standard_error, abs=1e-12)


@_ONE_RATED_ITEM
@settings(max_examples=25, deadline=None)
@given(
    designs(),
    st.sampled_from([c for c in COEFFICIENTS if c != "conger"]),
    st.sampled_from(["unweighted", "quadratic", "linear"]),
)
def test_counts_input_equals_ratings_input(design, coefficient, weights):
    k, cells = design
    counts = [[sum(1 for v in row if v == c) for c in range(k)] for row in cells]
    a = wk.agreement(
        _as_matrix(cells), coefficient=coefficient, weights=weights, min_rating=0,
        max_rating=k - 1, zero_division=math.nan,
    )  # fmt: skip
    b = wk.agreement_from_counts(
        counts, coefficient=coefficient, weights=weights, zero_division=math.nan
    )
    if math.isnan(a.statistic):
        assert math.isnan(b.statistic)
        return
    assert b.statistic == pytest.approx(a.statistic, abs=1e-13)
    assert b.n_items == a.n_items and b.n_ratings == a.n_ratings
    if not math.isnan(a.standard_error):
        assert b.standard_error == pytest.approx(a.standard_error, abs=1e-13)


def test_gwet_paradox_skewed_prevalence():
    """High agreement on a rare category: Fleiss' kappa collapses, AC1 does not (Gwet 2008)."""
    ratings = np.zeros((100, 3), dtype=int)
    ratings[:1] = 1  # one item all raters call positive
    ratings[1:5, 0] = 1  # four items one rater calls positive
    fleiss = wk.agreement(ratings, coefficient="fleiss").statistic
    ac1 = wk.agreement(ratings, coefficient="gwet").statistic
    pa = wk.agreement(ratings, coefficient="percent").statistic
    assert pa > 0.97
    assert fleiss < 0.5 < 0.95 < ac1


# --------------------------------------------------------------------------- intervals


def test_interval_methods():
    result = wk.agreement(RAW4RATERS, coefficient="fleiss")
    jack = result.confidence_interval(method="jackknife")
    assert jack.method == "jackknife" and jack.low < result.statistic <= jack.high <= 1
    boot = result.confidence_interval(method=wk.BootstrapMethod(2000, rng=1))
    assert boot.low < result.statistic < boot.high
    again = result.confidence_interval(method=wk.BootstrapMethod(2000, rng=1))
    assert (again.low, again.high) == (boot.low, boot.high)
    bca = result.confidence_interval(method=wk.BootstrapMethod(2000, method="bca", rng=1))
    assert bca.method == "bca" and bca.low < bca.high
    conger = wk.agreement(RAW4RATERS, coefficient="conger")
    assert conger.confidence_interval(method=wk.BootstrapMethod(500, rng=2)).n_resamples == 500


def test_jackknife_matches_brute_force():
    """Leave-one-item-out over the distinct patterns equals deleting each row."""
    result = wk.agreement(RAW4RATERS, coefficient="gwet", weights="quadratic")
    values = [
        wk.agreement(
            np.delete(RAW4RATERS, i, axis=0), coefficient="gwet", weights="quadratic",
            min_rating=1, max_rating=5,
        ).statistic
        for i in range(len(RAW4RATERS))
    ]  # fmt: skip
    n = len(values)
    mean = sum(values) / n
    se = math.sqrt((n - 1) / n * sum((v - mean) ** 2 for v in values))
    assert result._jackknife_se() == pytest.approx(se, abs=1e-12)


def test_to_dict_and_explain():
    result = wk.agreement(RAW4RATERS, coefficient="gwet", weights="quadratic")
    data = result.to_dict()
    assert data["name"] == "Gwet's AC2" and data["n_items"] == 12
    assert data["confidence_interval"]["high"] == 1.0
    text = result.explain()
    assert "pa = " in text and "pe = " in text and "AC2" in text
    assert "AgreementResult(coefficient='gwet'" in repr(result)
    # "Fleiss' kappa (unweighted weights)" read as a stutter; the other results and the
    # command line say "unweighted".
    first = wk.agreement(RAW4RATERS).explain().splitlines()[0]
    assert first.startswith("Fleiss' kappa (unweighted), 12 items"), first


# --------------------------------------------------------------------------- peers


def test_krippendorff_package_all_levels():
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(5)
    data = rng.integers(1, 6, size=(60, 5)).astype(float)
    data[rng.random(data.shape) < 0.2] = nan
    data[:, 0] = np.where(rng.random(60) < 0.7, data[:, 1], data[:, 0])
    for level in ("nominal", "ordinal", "interval", "ratio"):
        ours = wk.krippendorff_alpha(data, level=level).statistic
        theirs = krippendorff.alpha(reliability_data=data.T, level_of_measurement=level)
        assert ours == pytest.approx(theirs, abs=1e-12), level
    for level in ("nominal", "interval"):
        theirs = krippendorff.alpha(
            reliability_data=KRIPPENDORFF_DATA.T, level_of_measurement=level
        )
        ours = wk.krippendorff_alpha(KRIPPENDORFF_DATA, level=level).statistic
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_statsmodels_fleiss_kappa():
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(3)
    data = rng.integers(0, 4, size=(80, 6))
    table, _ = inter_rater.aggregate_raters(data)
    theirs = inter_rater.fleiss_kappa(table)
    assert wk.agreement(data, coefficient="fleiss").statistic == pytest.approx(theirs, abs=1e-13)
    assert wk.agreement_from_counts(table).statistic == pytest.approx(theirs, abs=1e-13)
    theirs_unif = inter_rater.fleiss_kappa(table, method="randolph")
    ours_bp = wk.agreement(data, coefficient="brennan_prediger").statistic
    assert ours_bp == pytest.approx(theirs_unif, abs=1e-13)


def test_irrcac_python_port_complete_data():
    """The irrCAC port (pip irrcac) on complete data; it prints 5 digits. (With missing
    ratings under pandas 3 it counts NaN as a category, so the comparison is on complete
    data.)"""
    raw = pytest.importorskip("irrCAC.raw")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(11)
    data = rng.integers(1, 5, size=(40, 4))
    data[:, 1] = np.where(rng.random(40) < 0.6, data[:, 0], data[:, 1])
    frame = pd.DataFrame(data)
    for weights in ("identity", "quadratic"):
        cac = raw.CAC(frame, weights=weights)
        ours_weights = "unweighted" if weights == "identity" else weights
        for name, coefficient in [
            ("fleiss", "fleiss"), ("gwet", "gwet"), ("bp", "brennan_prediger"),
            ("conger", "conger"), ("krippendorff", "krippendorff"),
        ]:  # fmt: skip
            est = getattr(cac, name)()["est"]
            ours = wk.agreement(data, coefficient=coefficient, weights=ours_weights)
            assert ours.statistic == pytest.approx(est["coefficient_value"], abs=6e-6), name
            if name != "krippendorff":
                assert ours.standard_error == pytest.approx(est["se"], abs=6e-6), name


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: wk.agreement([1, 2, 3]), "must be 2-D"),
        (lambda: wk.agreement([[1], [2], [3]]), "at least two raters"),
        (lambda: wk.agreement(np.full((3, 3), nan)), "no ratings at all"),
        (lambda: wk.agreement([[1, nan], [2, nan], [nan, 3]]), "No item has two ratings"),
        (lambda: wk.agreement([[1, 2], [2, 3]], labels=[1, 2]), "not in `labels`"),
        (lambda: wk.agreement_from_counts([[2, 0], [1, 1]], coefficient="conger"), "Conger"),
        (lambda: wk.agreement([[1.5, 2.0], [2.0, 2.0]]), "non-integer rating"),
        (lambda: wk.agreement([[1, 2], [2, 2]], weights=1 - np.eye(3)), "shape"),
        (lambda: wk.agreement([[1, 2], [2, 2]], weights=[[1, 1], [1, 0]]), "zero diagonal"),
        (lambda: wk.agreement([[1, 2], [2, 2]], weights=[[0, -1], [1, 0]]), "non-negative"),
        (lambda: wk.agreement([[1, 2], [2, 2]], coefficient="cohen"), "`coefficient`"),
        (lambda: wk.agreement([[1, nan], [2, 2]], nan_policy="raise"), "item 0, rater 1"),
        (lambda: wk.agreement([["a", "b"], ["b", "b"]], weights="linear"), "labels="),
        (lambda: wk.agreement([[1, 2], [2, 2]], population_size=1), "population_size"),
        (lambda: wk.agreement([[1, 2], [2, 2]], alternative="bigger"), "alternative"),
        (lambda: wk.agreement_from_counts([[1, -1]]), "non-negative"),
        (lambda: wk.agreement_from_counts([[0.5, 1]]), "whole numbers"),
        (lambda: wk.krippendorff_alpha([[1, 2], [2, 2]], level="cardinal"), "`level`"),
        (lambda: wk.krippendorff_alpha([[0, 1], [-1, 1]], level="ratio"), "non-negative"),
        (
            lambda: wk.krippendorff_alpha(
                [["a", "b"], ["b", "b"]], level="interval", labels=["a", "b"]
            ),
            "numeric",
        ),
        (
            lambda: wk.agreement([[0, 1], [1, 1]], coefficient="gwet", weights=[[0, 2], [2, 0]]),
            r"\[0, 1\]",
        ),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(WkappaError, match=match):
        call()


def test_one_category_follows_zero_division():
    ratings = np.ones((5, 3))
    with pytest.warns(UndefinedKappaWarning):
        assert math.isnan(wk.agreement(ratings).statistic)
    with pytest.raises(WkappaError, match="undefined"):
        wk.agreement(ratings, zero_division="raise")
    assert wk.agreement(ratings, zero_division=0.0).statistic == 0.0
    # Percent agreement is defined (1), and so is AC1 when K >= 2 categories exist.
    assert wk.agreement(ratings, coefficient="percent").statistic == 1.0
    assert wk.agreement(ratings, coefficient="gwet", labels=[1, 2]).statistic == 1.0


def test_items_without_ratings_are_dropped():
    extra = np.vstack([RAW4RATERS, np.full((2, 4), nan)])
    for coefficient in COEFFICIENTS:
        a = wk.agreement(RAW4RATERS, coefficient=coefficient)
        b = wk.agreement(extra, coefficient=coefficient)
        assert (b.statistic, b.standard_error, b.n_items) == (
            a.statistic,
            a.standard_error,
            a.n_items,
        )


def test_inputs_lists_strings_frames():
    rows = [["a", "a", None], ["b", "b", "b"], ["a", "b", "b"], ["c", "c", "c"]]
    result = wk.agreement(rows)
    assert result.labels == ("a", "b", "c")
    same = wk.agreement([[0, 0, nan], [1, 1, 1], [0, 1, 1], [2, 2, 2]])
    assert result.statistic == pytest.approx(same.statistic, abs=1e-15)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(RAW4RATERS, columns=["r1", "r2", "r3", "r4"]).astype("Int64")
    a = wk.agreement(frame, coefficient="conger")
    assert a.statistic == pytest.approx(wk.agreement(RAW4RATERS, coefficient="conger").statistic)
    assert math.isnan(wk.agreement(RAW4RATERS, nan_policy="propagate").statistic)


@pytest.mark.parametrize("order", ["F", "C"])
@pytest.mark.parametrize(
    "dtype", [np.float64, np.float32, np.int64, np.uint64, np.int32, np.uint8, np.int8]
)
def test_numba_route_matches_numpy_route(monkeypatch, dtype, order):
    """The numba route (large numeric arrays; C-ordered floats by blocks) equals the numpy
    route."""
    import wkappa._core.raters as raters

    rng = np.random.default_rng(8)
    data = rng.integers(0 if np.issubdtype(dtype, np.unsignedinteger) else -2, 4, (3000, 6))
    data = data.astype(dtype)
    if np.issubdtype(dtype, np.floating):
        data[rng.random(data.shape) < 0.15] = np.nan
    data = np.asarray(data, order=order)
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 0)
    fast = {c: wk.agreement(data, coefficient=c, weights="linear") for c in COEFFICIENTS}
    fast_alpha = wk.krippendorff_alpha(data, level="ordinal")
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 10**15)
    for c in COEFFICIENTS:
        slow = wk.agreement(data, coefficient=c, weights="linear")
        assert fast[c].statistic == pytest.approx(slow.statistic, abs=1e-14)
        assert fast[c].standard_error == pytest.approx(slow.standard_error, abs=1e-14)
        assert (fast[c].n_items, fast[c].n_ratings, fast[c].labels) == (
            slow.n_items,
            slow.n_ratings,
            slow.labels,
        )
    slow_alpha = wk.krippendorff_alpha(data, level="ordinal")
    assert fast_alpha.statistic == pytest.approx(slow_alpha.statistic, abs=1e-14)


def test_numba_route_range_wider_than_first_rows(monkeypatch):
    """The range guessed from the first rows is too narrow: the route scans and counts again."""
    import wkappa._core.raters as raters

    rng = np.random.default_rng(9)
    data = rng.integers(2, 4, size=(6000, 4)).astype(float)
    data[5000:] = rng.integers(0, 7, size=(1000, 4))
    data[rng.random(data.shape) < 0.1] = np.nan
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 0)
    fast = [wk.agreement(data, coefficient=c, weights="quadratic") for c in COEFFICIENTS]
    bounded = wk.agreement(data, coefficient="conger", min_rating=-1, max_rating=8)
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 10**15)
    for c, result in zip(COEFFICIENTS, fast, strict=True):
        slow = wk.agreement(data, coefficient=c, weights="quadratic")
        assert result.labels == slow.labels == tuple(range(7))
        assert result.statistic == pytest.approx(slow.statistic, abs=1e-14)
        assert result.standard_error == pytest.approx(slow.standard_error, abs=1e-14)
    slow = wk.agreement(data, coefficient="conger", min_rating=-1, max_rating=8)
    assert bounded.statistic == pytest.approx(slow.statistic, abs=1e-14)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_chunked_kernel_equals_per_rating_kernel(dtype, data):
    """The block-wise passes (C and F order, serial and in parallel blocks) give the
    per-rating pass's histogram, missing count, status and position of the first bad rating
    (out of range, fraction, inf), wherever it lies."""
    from wkappa._core.kernels import numba_raters

    n = data.draw(st.integers(1, 2600))
    r = data.draw(st.integers(2, 6))
    k = data.draw(st.integers(1, 6))
    lo = data.draw(st.integers(-3, 3))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = rng.integers(lo, lo + k, size=(n, r)).astype(dtype)
    x[rng.random(x.shape) < data.draw(st.sampled_from([0.0, 0.1, 0.9]))] = np.nan
    for _ in range(data.draw(st.integers(0, 2))):
        bad = data.draw(st.sampled_from([lo - 1, lo + k, lo + 0.5, lo - 0.5, np.inf, -np.inf]))
        x[rng.integers(n), rng.integers(r)] = bad
    powers = (k + 1) ** np.arange(r, dtype=np.int64)
    size = int(powers[-1]) * (k + 1)
    no_codes = np.zeros(0, dtype=np.int64)
    hist, missing, status, where = numba_raters.rows_in_range(x, lo, k, powers, size, no_codes)
    f_order = np.asfortranarray(x)
    empty1, empty2 = np.empty(0, dtype=dtype), np.empty((0, 0), dtype=dtype)
    for got in (
        numba_raters.rows_in_range_chunked(x, x.reshape(-1), lo, k, powers, size),
        numba_raters.rows_in_range_columns(f_order, f_order.T, lo, k, powers, size),
    ):
        assert (got[2], got[3]) == (status, where)
        if status == 0:
            assert got[1] == missing
            assert np.array_equal(got[0], hist)
    blocks = data.draw(st.integers(1, 5))
    for mode, array, flat, columns in (
        (0, f_order, empty1, empty2),
        (1, x, x.reshape(-1), empty2),
        (2, f_order, empty1, f_order.T),
    ):
        hists, missings, statuses, wheres = numba_raters.rows_in_range_parallel(
            array, lo, k, powers, size, blocks, mode, flat, columns
        )
        stopped = np.flatnonzero(statuses)
        if status:
            assert stopped.size and (statuses[stopped[0]], wheres[stopped[0]]) == (status, where)
        else:
            assert not stopped.size and missings.sum() == missing
            assert np.array_equal(hists.sum(axis=0), hist)


@pytest.mark.parametrize("big", [2**53 + 1, 2**62, -(2**63), 2**64 - 1])
def test_numba_route_huge_integers(monkeypatch, big):
    """64-bit ratings beyond 2**53 leave the numba route (its range scan is in float64) for
    the general one: the same result or error either way."""
    import wkappa._core.raters as raters

    dtype = np.uint64 if big >= 2**63 else np.int64
    data = np.ones((3000, 3), dtype=dtype)
    data[::7, 1] = 2
    data[2500, 2] = big
    outcomes = []
    for cells in (0, 10**15):
        monkeypatch.setattr(raters, "FAST_MIN_CELLS", cells)
        try:
            outcomes.append(wk.agreement(data).statistic)
        except WkappaError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]


def test_numba_route_errors(monkeypatch):
    import wkappa._core.raters as raters

    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 0)
    with pytest.raises(WkappaError, match=r"non-integer rating 2\.5"):
        wk.agreement(np.array([[1.0, 2.5], [1.0, 1.0]]))
    with pytest.raises(WkappaError, match="item 1, rater 0"):
        wk.agreement(np.array([[1.0, 2.0], [nan, 1.0]]), nan_policy="raise")
    with pytest.raises(WkappaError, match="above `max_rating`"):
        wk.agreement(np.array([[1.0, 2.0], [3.0, 1.0]]), max_rating=2)


# --------------------------------------------------------------------------- rater diagnostics


def test_per_category_is_fleiss_1971():
    """Fleiss (1971) per-category kappa: 1 - sum x(m - x) / (n m (m - 1) p q)."""
    module = pytest.importorskip("statsmodels.stats.tests.test_inter_rater")
    data = module.diagnoses
    result = wk.agreement(data)
    n, m = data.shape
    for label, value in result.per_category().items():
        x = (data == label).sum(axis=1)
        p = x.sum() / (n * m)
        expected = 1 - (x * (m - x)).sum() / (n * m * (m - 1) * p * (1 - p))
        assert value == pytest.approx(expected, abs=1e-13)
    counts = wk.agreement_from_counts([[3, 0], [1, 2], [0, 3]])
    assert list(counts.per_category()) == [0, 1]


def test_pairwise_is_weighted_kappa_of_each_pair():
    result = wk.agreement(RAW4RATERS, coefficient="fleiss", weights="quadratic")
    matrix = result.pairwise()
    assert matrix.shape == (4, 4) and np.allclose(np.diag(matrix), 1)
    for g in range(4):
        for h in range(g + 1, 4):
            both = ~np.isnan(RAW4RATERS[:, g]) & ~np.isnan(RAW4RATERS[:, h])
            expected = wk.weighted_kappa(
                RAW4RATERS[both, g], RAW4RATERS[both, h], weights="quadratic",
                min_rating=1, max_rating=5, zero_division=math.nan,
            )  # fmt: skip
            if math.isnan(expected):
                assert math.isnan(matrix[g, h])
            else:
                assert matrix[g, h] == pytest.approx(expected, abs=1e-14)
            assert matrix[h, g] == matrix[g, h]
    with pytest.raises(WkappaError, match="from counts"):
        wk.agreement_from_counts([[3, 0], [1, 2]]).pairwise()


def test_leave_one_rater_out_matches_dropping_the_column():
    for coefficient in COEFFICIENTS:
        result = wk.agreement(RAW4RATERS, coefficient=coefficient)
        values = result.leave_one_rater_out()
        for g in range(4):
            rest = np.delete(RAW4RATERS, g, axis=1)
            expected = wk.agreement(
                rest, coefficient=coefficient, min_rating=1, max_rating=5, zero_division=math.nan
            ).statistic
            assert values[g] == pytest.approx(expected, abs=1e-14)


def test_rater_vs_panel():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 4, 400)
    panel = np.column_stack(
        [np.where(rng.random(400) < 0.8, truth, rng.integers(0, 4, 400)) for _ in range(3)]
    )
    good = np.where(rng.random(400) < 0.8, truth, rng.integers(0, 4, 400))
    poor = np.where(rng.random(400) < 0.4, truth, rng.integers(0, 4, 400))
    same = wk.rater_vs_panel(panel, good, n_resamples=999, rng=3)
    worse = wk.rater_vs_panel(panel, poor, n_resamples=999, rng=3)
    assert same.confidence_interval().low < 0 < same.confidence_interval().high
    assert same.pvalue > 0.05
    assert worse.difference < 0 and worse.confidence_interval().high < 0 and worse.pvalue < 0.01
    # The point values are the pairwise Cohen kappas.
    for j in range(3):
        expected = wk.weighted_kappa(poor, panel[:, j], weights="unweighted")
        assert worse.candidate_vs_members[j] == pytest.approx(expected, abs=1e-14)
    among = [wk.weighted_kappa(panel[:, a], panel[:, b], weights="unweighted")
             for a, b in [(0, 1), (0, 2), (1, 2)]]  # fmt: skip
    assert worse.panel_agreement == pytest.approx(np.mean(among), abs=1e-14)
    again = wk.rater_vs_panel(panel, poor, n_resamples=999, rng=3)
    assert again.confidence_interval() == worse.confidence_interval()
    assert worse.to_dict()["coefficient"] == "conger"
    assert worse.confidence_interval().method == "expanded-percentile"
    gwet = wk.rater_vs_panel(panel, poor, coefficient="gwet", weights="linear", n_resamples=99)
    assert gwet.weights == "linear"
    with pytest.raises(
        WkappaError, match=r"^`ratings` \(the panel\) has 1 rater column; .*two members"
    ):
        wk.rater_vs_panel(panel[:, :1], poor)
    with pytest.raises(WkappaError, match="must match"):
        wk.rater_vs_panel(panel, poor[:-1])


def test_rater_vs_panel_one_sided():
    """alternative='less'/'greater': half the two-sided p-value on the alternative's side,
    dual to the one-sided interval of the same result; the same through frames."""
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 4, 150)
    panel = np.column_stack(
        [np.where(rng.random(150) < 0.8, truth, rng.integers(0, 4, 150)) for _ in range(3)]
    )
    poor = np.where(rng.random(150) < 0.6, truth, rng.integers(0, 4, 150))
    two = wk.rater_vs_panel(panel, poor, n_resamples=999, rng=5)
    less = wk.rater_vs_panel(panel, poor, n_resamples=999, rng=5, alternative="less")
    greater = wk.rater_vs_panel(panel, poor, n_resamples=999, rng=5, alternative="greater")
    assert two.difference < 0 and less.alternative == "less"
    assert less.pvalue == pytest.approx(two.pvalue / 2, rel=1e-12)
    assert greater.pvalue == pytest.approx(1 - two.pvalue / 2, rel=1e-12)
    for alpha in (0.01, 0.05, 0.2):
        if abs(less.pvalue - alpha) > 0.005:
            low, high = less.confidence_interval(1 - alpha)
            assert low == -math.inf
            assert (high < 0) == (less.pvalue < alpha)
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": panel[:, 0], "b": panel[:, 1], "c": panel[:, 2], "judge": poor})
    from wkappa import frames

    framed = frames.rater_vs_panel(
        df, candidate="judge", raters=["a", "b", "c"], n_resamples=999, rng=5, alternative="less"
    )
    assert framed.pvalue == less.pvalue
    with pytest.raises(WkappaError, match="alternative"):
        wk.rater_vs_panel(panel, poor, alternative="lower")


@pytest.mark.parametrize("name", ["ordinal", "radical", "ratio", "circular", "bipolar"])
def test_gwet_named_weights_match_irrcac(name):
    """Gwet's named weights are irrCAC's agreement weights A, here as W = 1 - A."""
    weights_module = pytest.importorskip("irrCAC.weights")
    for categories in ([1, 2, 3, 4, 5], [1, 2, 4, 7], ["a", "b", "c"]):
        agreement = np.asarray(weights_module.Weights(categories)[name], dtype=float)
        labels = categories
        k = len(categories)
        # Pairs at several distances, so that Gwet's variance is defined for every weighting.
        ratings = np.array(
            [[labels[i % k], labels[(i + i // 2) % k]] for i in range(6)], dtype=object
        )
        result = wk.agreement(ratings, coefficient="gwet", weights=name, labels=labels)
        np.testing.assert_allclose(result.weight_matrix, 1 - agreement, atol=1e-14)


def test_gwet_named_weights_irrcac_port_ac2():
    raw = pytest.importorskip("irrCAC.raw")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(4)
    data = rng.integers(1, 6, size=(50, 3))
    data[:, 1] = np.where(rng.random(50) < 0.6, data[:, 0], data[:, 1])
    for name in ("ordinal", "radical", "circular", "bipolar"):
        est = raw.CAC(pd.DataFrame(data), weights=name).gwet()["est"]
        ours = wk.agreement(data, coefficient="gwet", weights=name)
        assert ours.statistic == pytest.approx(est["coefficient_value"], abs=6e-6), name
        assert ours.standard_error == pytest.approx(est["se"], abs=6e-6), name


# irrCAC README (R package irrCAC), distrib.6raters: 15 patients x 5 categories, 6 raters.
DISTRIB_6RATERS = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
]  # fmt: skip


@pytest.mark.parametrize(
    ("coefficient", "value", "se", "low", "high", "pvalue", "pa", "pe"),
    [
        # gwet.ac1.dist, fleiss.kappa.dist, bp.coeff.dist (irrCAC README).
        ("gwet", 0.4448007, 0.08418757, 0.264, 0.625, 5.779637e-05, 0.5511111, 0.1914815),
        ("fleiss", 0.4139265, 0.08119291, 0.24, 0.588, 8.113618e-05, 0.5511111, 0.2340741),
        ("brennan_prediger", 0.4388889, 0.08312142, 0.261, 0.617, 5.814998e-05, 0.5511111, 0.2),
    ],
)
def test_irrcac_readme_distrib_6raters(coefficient, value, se, low, high, pvalue, pa, pe):
    result = wk.agreement_from_counts(
        DISTRIB_6RATERS, coefficient=coefficient, alternative="greater"
    )
    assert result.statistic == pytest.approx(value, abs=5e-8)
    assert result.standard_error == pytest.approx(se, abs=5e-9)
    # irrCAC prints the two-sided interval next to the one-sided p-value.
    ci = wk.agreement_from_counts(DISTRIB_6RATERS, coefficient=coefficient).confidence_interval()
    assert (round(ci.low, 3), round(ci.high, 3)) == (low, high)
    assert result.pvalue == pytest.approx(pvalue, rel=1e-6)
    assert result.percent_agreement == pytest.approx(pa, abs=5e-8)
    assert result.chance_agreement == pytest.approx(pe, abs=5e-8)


def test_irrcac_readme_distrib_6raters_krippendorff():
    """krippen.alpha.dist: alpha 0.4204384, pa 0.5560988, pe 0.2340741 reproduce. Its
    standard error (0.08243228) does not: irrCAC's krippen.alpha.dist linearises differently
    from its krippen.alpha.raw (factor 1 - alpha instead of 2 (1 - alpha')), and wkappa follows
    krippen.alpha.raw, whose README values (cac.raw4raters) reproduce above."""
    result = wk.agreement_from_counts(DISTRIB_6RATERS, coefficient="krippendorff")
    assert result.statistic == pytest.approx(0.4204384, abs=5e-8)
    assert result.percent_agreement == pytest.approx(0.5560988, abs=5e-8)
    assert result.chance_agreement == pytest.approx(0.2340741, abs=5e-8)


@pytest.mark.parametrize(
    ("coefficient", "value", "se"),
    [
        # irrCAC README, cont3x3abstractors (2 raters, 100 items): kappa2.table, scott2.table,
        # gwet.ac1.table, bp2.table, krippen2.table, pa2.table.
        ("conger", 0.7964094, 0.05891072),
        ("fleiss", 0.7962397, 0.05905473),
        ("gwet", 0.8493305, 0.04321747),
        ("brennan_prediger", 0.835, 0.04693346),
        ("krippendorff", 0.7972585, 0.05905473),
        ("percent", 0.89, 0.03128898),
    ],
)
def test_irrcac_readme_cont3x3abstractors(coefficient, value, se):
    """Two raters as a raw matrix. The coefficients reproduce; irrCAC's *.table functions
    divide the variance by n² where the raw functions (and wkappa) divide by n (n - 1), so
    their standard errors are wkappa's times sqrt((n - 1) / n). (Krippendorff's alpha:
    krippen2.table prints Scott's pi's standard error, 0.05905473, which is what this
    reproduces.)"""
    table = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    rows = np.array([(i, j) for i in range(3) for j in range(3) for _ in range(table[i, j])])
    result = wk.agreement(rows, coefficient=coefficient)
    assert result.statistic == pytest.approx(value, abs=5e-8)
    n = len(rows)
    scaled = result.standard_error * math.sqrt((n - 1) / n)
    if coefficient == "krippendorff":
        scaled = wk.agreement(rows, coefficient="fleiss").standard_error * math.sqrt((n - 1) / n)
    assert scaled == pytest.approx(se, abs=5e-9)


@pytest.mark.parametrize("parallel", [True, False])
def test_numba_route_parallel_equals_serial(monkeypatch, parallel):
    """The parallel row-coding pass (blocks with their own histograms) gives the serial
    pass's result, including where it stops (a rating outside the guessed range, a bad
    value)."""
    import wkappa._core.raters as raters
    from wkappa._core.fused import PARALLEL_MIN, set_parallel

    rng = np.random.default_rng(21)
    n = max(PARALLEL_MIN // 4 + 1, 20_000)
    data = rng.integers(1, 4, size=(n, 4)).astype(float)
    data[rng.random(data.shape) < 0.1] = np.nan
    data[n - 5, 2] = 5.0  # outside the range of the first rows: a second pass
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 0)
    monkeypatch.setattr(raters, "_PARALLEL_MIN_CELLS", 0)
    set_parallel(parallel)
    try:
        fast = wk.agreement(data, coefficient="conger", weights="linear")
        with pytest.raises(WkappaError, match=r"non-integer rating 2\.5"):
            bad = data.copy()
            bad[n // 2, 1] = 2.5
            wk.agreement(bad)
    finally:
        set_parallel(None)
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 10**15)
    slow = wk.agreement(data, coefficient="conger", weights="linear")
    assert fast.labels == slow.labels == (1, 2, 3, 4, 5)
    assert fast.statistic == pytest.approx(slow.statistic, abs=1e-14)
    assert fast.standard_error == pytest.approx(slow.standard_error, abs=1e-14)


def _frame_cases():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(33)
    values = rng.integers(1, 6, size=(2000, 4)).astype(float)
    values[rng.random(values.shape) < 0.1] = np.nan
    names = ["a", "b", "c", "d"]
    frame = pd.DataFrame(values, columns=names)
    complete = frame.fillna(3).astype("int64")
    mixed = complete.astype({"a": "float64"})
    big = frame.astype("Int64")
    big.iloc[5, 1] = 2**60
    polars_big = pl.from_pandas(frame.astype("Int64")).with_columns(
        pl.when(pl.int_range(pl.len()) == 5).then(2**60).otherwise(pl.col("b")).alias("b")
    )
    return {
        "pandas float64": frame,
        "pandas int64": complete,
        "pandas int8": complete.astype("int8"),
        "pandas Int64 with NA": frame.astype("Int64"),
        "pandas Float64 with NA": frame.astype("Float64"),
        "pandas mixed int and float": mixed,
        "pandas categorical": complete.astype("category"),
        "pandas Int64 beyond 2**53": big,
        "polars Float64 null and NaN": pl.from_pandas(frame).with_columns(
            pl.col("a").fill_nan(None)
        ),
        "polars Int64 with nulls": pl.from_pandas(frame.astype("Int64")),
        "polars Int8": pl.from_pandas(complete.astype("int8")),
        "polars Int64 beyond 2**53": polars_big,
    }


@pytest.mark.parametrize("case", list(_frame_cases()))
def test_frame_input_fast_route_equals_general_route(monkeypatch, case):
    """pandas and polars DataFrames of one numeric dtype take the numba route as one 2-D
    array (nullable columns as float64 with NaN while exact); others stay on the column by
    column route. Both give the same result or the same error."""
    import wkappa._core.raters as raters

    frame = _frame_cases()[case]
    general = ("mixed", "categorical", "beyond")
    assert (raters.frame_array(frame) is None) == any(word in case for word in general)
    outcomes = []
    for cells in (0, 10**15):
        monkeypatch.setattr(raters, "FAST_MIN_CELLS", cells)
        try:
            r = wk.agreement(frame, coefficient="conger", weights="quadratic")
            outcomes.append((r.statistic, r.standard_error, r.n_items, r.n_ratings, r.labels))
        except WkappaError as error:
            outcomes.append(type(error).__name__ + str(error).split(":")[-1])
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_multiplicity_is_the_rows_repeated(coefficient):
    """Distinct rows with counts give the result of the rows repeated by their counts."""
    rows = np.array([[1, 1, 2], [2, 2, 2], [1, np.nan, 3], [3, 3, 3]])
    counts = np.array([3, 0, 2, 4])
    counted = wk.agreement(rows, coefficient=coefficient, multiplicity=counts, min_rating=1)
    repeated = wk.agreement(np.repeat(rows, counts, axis=0), coefficient=coefficient, min_rating=1)
    assert counted.statistic == pytest.approx(repeated.statistic, abs=1e-14)
    assert counted.standard_error == pytest.approx(repeated.standard_error, abs=1e-14)
    assert (counted.n_items, counted.n_ratings) == (repeated.n_items, repeated.n_ratings)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"multiplicity": [1, 2], "cluster": [0, 1]}, "`cluster` and `multiplicity`"),
        ({"multiplicity": [1.5, 2]}, "`multiplicity` must be a 1-D array"),
        ({"multiplicity": [1, -2]}, "`multiplicity` must be a 1-D array"),
        ({"multiplicity": [1, [2]]}, "`multiplicity` must be a 1-D array"),
        ({"multiplicity": [[1], [2, 3]]}, "`multiplicity` must be a 1-D array"),
        ({"multiplicity": [1, 2, 3]}, "`multiplicity` has 3 counts for 2 rows"),
    ],
)
def test_bad_multiplicity_names_the_parameter(options, match):
    with pytest.raises(WkappaError, match=match):
        wk.agreement([[1, 2, 2], [2, 2, 1]], **options)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "krippendorff"])
def test_propagate_keeps_the_counts_of_the_design(coefficient: str) -> None:
    # nan_policy='propagate' returned n_items = n_raters = n_ratings = 0, no labels, kappa0 0
    # and no population size: the nan result now counts the design as 'omit' would.
    rows = [[1, 2, nan], [2, 2, 2], [1, 1, 1], [nan, nan, nan]]
    result = wk.agreement(
        rows, coefficient=coefficient, nan_policy="propagate", kappa0=0.2, population_size=100
    )
    omitted = wk.agreement(rows, coefficient=coefficient)
    assert math.isnan(result.statistic)
    assert (result.n_items, result.n_raters, result.n_ratings) == (3, 3, 8)
    assert (result.n_items, result.n_raters, result.n_ratings, result.labels) == (
        omitted.n_items, omitted.n_raters, omitted.n_ratings, omitted.labels
    )  # fmt: skip
    assert (result.kappa0, result.population_size) == (0.2, 100)
    counted = wk.agreement(rows[:3], nan_policy="propagate", multiplicity=np.array([2, 3, 0]))
    assert (counted.n_items, counted.n_ratings) == (5, 13)
    alpha = wk.krippendorff_alpha(rows, level="interval", nan_policy="propagate")
    assert (alpha.n_items, alpha.labels, alpha.weights) == (3, (1, 2), "custom")
    assert wk.agreement([[nan, nan], [nan, nan]], nan_policy="propagate").n_items == 0


def test_conger_with_a_missing_rating_is_not_cohen_but_pairwise_is() -> None:
    # The docs said Conger = Cohen for two raters without qualification. With a missing
    # rating each rater's shares use all its ratings (irrCAC): pa = 4/5, rater shares
    # (1/2, 1/2) and (2/5, 3/5), pe = 0.45² + 0.55² - 2 * 0.005 / 2 = 1/2, kappa = 3/5;
    # Cohen's on the 5 complete pairs is (4/5 - 12/25) / (13/25) = 8/13, as pairwise() gives.
    first, second = [1, 2, 1, 2, 1, 2], [1, 2, 2, 2, 1, nan]
    result = wk.agreement(np.c_[first, second], coefficient="conger")
    assert result.statistic == pytest.approx(3 / 5, abs=1e-15)
    cohen = wk.weighted_kappa(first, second, weights="unweighted", nan_policy="omit")
    assert cohen == pytest.approx(8 / 13, abs=1e-15)
    assert result.pairwise()[0, 1] == cohen


def test_counts_frame_names_its_categories() -> None:
    # agreement_from_counts ignored a frame's column names: labels (0, 1) for 'no', 'yes',
    # and value-based weights computed on 0..K-1 instead of the columns' values.
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    counts = [[1, 2], [3, 0], [0, 3], [2, 1]]
    plain = wk.agreement_from_counts(counts, labels=["no", "yes"])
    frames = [
        pd.DataFrame(counts, columns=["no", "yes"]),
        pl.DataFrame(counts, schema=["no", "yes"], orient="row"),
        pa.table({"no": [1, 3, 0, 2], "yes": [2, 0, 3, 1]}),
    ]
    for frame in frames:
        result = wk.agreement_from_counts(frame)
        assert result.labels == ("no", "yes")
        assert result.statistic == plain.statistic
        assert list(result.per_category()) == ["no", "yes"]
    three = [[1, 2, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]]
    valued = wk.agreement_from_counts(pd.DataFrame(three, columns=[1, 2, 10]), weights="ratio")
    assert valued.labels == (1, 2, 10)
    expected = wk.agreement_from_counts(three, labels=[1, 2, 10], weights="ratio")
    assert valued.statistic == expected.statistic
    assert wk.agreement_from_counts(pd.DataFrame(three)).labels == (0, 1, 2)
    assert wk.agreement_from_counts(frames[0], labels=["n", "y"]).labels == ("n", "y")
