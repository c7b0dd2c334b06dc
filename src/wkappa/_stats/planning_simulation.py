"""Planning by simulation: draw whole studies from the anticipated population and run
wkappa's own test and interval on each.

Two raters: a study of n items is one multinomial draw of n over the K x K cells, so
thousands of studies are one ``(B, K, K)`` stack, scored at once by the table-level
machinery (:func:`wkappa._core.kappas`, the variance under H0 of the test with ``kappa0``,
the score interval). Several raters: each study's items are drawn from the common-kappa
model and scored as :func:`wkappa.agreement_from_counts` (or :func:`wkappa.agreement` for
Conger's kappa, which needs the raters' identities) scores them. A large study is drawn as
its table of rating patterns instead, one multinomial draw of n over the patterns an item
can show (count vectors; code rows for Conger): the same distribution as n independent
items, and every coefficient and standard error depends on the items only through that
table, so the cost of a study does not grow with n.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._core import (
    Alternative,
    Coefficient,
    Estimate,
    agreement_weight_matrix,
    check_agreement_weights,
    coefficient_from_sums,
    conger_features,
    features,
    kappas,
    linearized_terms,
    norm_ppf,
    rows_to_counts,
    t_ppf,
    variances,
)
from ..exceptions import WkappaError
from .agreement_build import linearized_standard_error
from .score_interval import hypothesis_variances, score_limits

__all__ = [
    "CHANCE_DIFFERS",
    "PatternModel",
    "SimulatedStudies",
    "StudyQuestion",
    "chance_value",
    "draw_ratings",
    "score_patterns",
    "score_several",
    "simulate_several",
    "simulate_two_raters",
    "study_rng",
]

# Tables scored at once (memory: a few MB for K = 10).
_CHUNK = 4096
# The score interval costs 100 bisection steps: its expected width is averaged over at most
# this many of the simulated studies.
_WIDTH_STUDIES = 2000
# Several raters: ratings per stack of simulated studies (items x raters x studies).
_SEVERAL_ITEMS = 200_000
# Several raters: the most rating patterns (distinct items) a study is drawn over, and the
# most ratings the item-by-item draws of one plan may take (about a minute) when there are
# more patterns than that.
_MAX_PATTERNS = 100_000
_MAX_DRAWN_RATINGS = 2 * 10**9
# The width a study without a coefficient (or an interval) counts with in the expected width:
# that of [-1, 1], the coefficient's whole range, as it tells nothing about it. Left out of
# the mean instead, such studies made a sparse design look precise (a third of the studies
# undefined at the n that met the width).
_NO_INTERVAL_WIDTH = 2.0


@dataclass(frozen=True)
class SimulatedStudies:
    """What B simulated studies of n items showed."""

    power: float  # share rejecting H0: kappa = kappa0 at alpha
    assurance: float  # share whose lower limit clears lower_limit (nan without one)
    expected_width: float  # mean width of the interval at confidence_level
    n_simulations: int
    n_undefined: int  # studies whose coefficient was undefined (counted as not rejecting)

    @classmethod
    def counted(
        cls, question: StudyQuestion, rejected: int, cleared: int, width: float, undefined: int
    ) -> SimulatedStudies:
        """The shares of ``question.n_simulations`` studies that rejected / cleared."""
        b = question.n_simulations
        return cls(
            power=rejected / b,
            assurance=cleared / b if question.lower_limit is not None else math.nan,
            expected_width=width,
            n_simulations=b,
            n_undefined=undefined,
        )


@dataclass(frozen=True)
class StudyQuestion:
    """What each simulated study is asked: wkappa's test of ``kappa0`` against
    ``alternative`` at ``alpha``, whether the lower limit of the interval at
    ``confidence_level`` clears ``lower_limit`` (when given), and (``want_width``) the
    interval's width; over ``n_simulations`` studies."""

    kappa0: float
    alternative: Alternative
    alpha: float
    lower_limit: float | None
    confidence_level: float
    n_simulations: int
    want_width: bool = True


def _reject(z: np.ndarray, alternative: Alternative, alpha: float) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        if alternative == "greater":
            rejected = z > norm_ppf(1.0 - alpha)
        elif alternative == "less":
            rejected = z < -norm_ppf(1.0 - alpha)
        else:
            rejected = np.abs(z) > norm_ppf(1.0 - alpha / 2.0)
    return np.asarray(rejected)


def simulate_two_raters(
    p: np.ndarray,
    weights: np.ndarray,
    n: int,
    question: StudyQuestion,
    rng: np.random.Generator,
) -> SimulatedStudies:
    """Power, assurance and expected score-interval width of wkappa's test at n items."""
    k = p.shape[0]
    cells = p.ravel() / p.sum()
    rejected = cleared = undefined = 0
    widths: list[np.ndarray] = []
    done = 0
    z_level = norm_ppf(0.5 + question.confidence_level / 2.0)
    while done < question.n_simulations:
        size = min(_CHUNK, question.n_simulations - done)
        tables = rng.multinomial(n, cells, size=size).reshape(size, k, k)
        kappa = np.asarray(kappas(tables, weights), dtype=np.float64)
        undefined += int(np.isnan(kappa).sum())
        with np.errstate(invalid="ignore", divide="ignore"):
            if question.kappa0 == 0.0:
                _, variance0 = variances(tables, weights, kappa)
            else:
                variance0 = hypothesis_variances(tables, weights, question.kappa0)
            z = (kappa - question.kappa0) / np.sqrt(variance0)
            rejected += int(_reject(z, question.alternative, question.alpha).sum())
            if question.lower_limit is not None:
                variance_l = hypothesis_variances(tables, weights, question.lower_limit)
                z_l = (kappa - question.lower_limit) / np.sqrt(variance_l)
                cleared += int((z_l > z_level).sum())
        if question.want_width and done < _WIDTH_STUDIES:
            take = min(size, _WIDTH_STUDIES - done)
            low, high = score_limits(
                tables[:take], weights, question.confidence_level, kappa[:take]
            )
            widths.append(np.asarray(high - low))
        done += size
    width = math.nan
    if widths:
        stacked = np.concatenate(widths)
        stacked = np.where(np.isfinite(stacked), stacked, _NO_INTERVAL_WIDTH)
        width = float(stacked.mean())
    return SimulatedStudies.counted(question, rejected, cleared, width, undefined)


def draw_ratings(
    pi: np.ndarray, kappa1: float, shape: tuple[int, int, int], rng: np.random.Generator
) -> np.ndarray:
    """Ratings of ``shape = (studies, items, raters)`` under the common-kappa model: with
    probability kappa1 every rater of an item gives one category drawn from pi, otherwise
    each rater draws independently from pi."""
    together = rng.random(shape[:2]) < kappa1
    shared = rng.choice(pi.size, size=shape[:2], p=pi)
    ratings = rng.choice(pi.size, size=shape, p=pi)
    return np.where(together[:, :, None], shared[:, :, None], ratings)


def score_several(
    ratings: np.ndarray, n_categories: int, coefficient: str, matrix: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The coefficient and its standard error for each of B studies of complete ratings
    ``(B, n, R)`` (codes 0..K-1): what :func:`wkappa.agreement` reports for each, computed
    for the whole stack at once.

    The per-item features of all B n items are one array; their sums per study give the B
    coefficients through :func:`wkappa._core.coefficient_from_sums`, and Gwet's linearised
    terms of each study its standard error, as in :func:`wkappa.agreement` (Conger's kappa
    there is finished in exact rational arithmetic; here it stays the float value, which
    differs in the last bit at most).
    """
    b, n, n_raters = ratings.shape
    rows = ratings.reshape(b * n, n_raters)
    patterns = rows_to_counts(rows, n_categories)
    item_features = _pattern_features(coefficient, rows, patterns, matrix)
    per_study = item_features.reshape(b, n, -1)
    estimate = coefficient_from_sums(coefficient, per_study.sum(axis=1), matrix, n_raters)
    ones = np.ones(n, dtype=np.int64)
    counts = patterns.reshape(b, n, n_categories)
    code_rows = rows.reshape(b, n, n_raters)
    return _with_standard_errors(
        coefficient, matrix, estimate, lambda j: (per_study[j], ones, counts[j], code_rows[j])
    )


def _pattern_features(
    coefficient: str, rows: np.ndarray, patterns: np.ndarray, matrix: np.ndarray
) -> np.ndarray:
    if coefficient == "conger":
        return conger_features(rows, patterns.shape[1], matrix)
    return features(patterns, matrix)


def _with_standard_errors(
    coefficient: str,
    matrix: np.ndarray,
    estimate: Estimate,
    study: Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    """The statistics and Gwet's linearised standard errors of B studies; ``study(j)``:
    study j's feature rows, their multiplicities, count patterns and code rows."""
    se = np.full(len(estimate.statistic), math.nan)
    for j in np.flatnonzero(np.isfinite(estimate.statistic)).tolist():
        one = Estimate(*(np.asarray(part)[j : j + 1] for part in estimate))
        feature_rows, multiplicity, counts, code_rows = study(j)
        linear = linearized_terms(
            coefficient, feature_rows, multiplicity, matrix, one, counts, code_rows
        )
        se[j] = linearized_standard_error(linear)
    return np.asarray(estimate.statistic, dtype=np.float64), se


@dataclass(frozen=True)
class PatternModel:
    """The rating patterns an item can show under the common-kappa model, with their
    probabilities: code rows (one code per rater) for Conger's kappa, whose chance term
    needs the raters' identities, and count vectors for the other coefficients."""

    rows: np.ndarray  # (P, R) codes; for count vectors one row of sorted codes per vector
    counts: np.ndarray  # (P, K) ratings per category
    probability: np.ndarray  # (P,)

    @staticmethod
    def size(n_categories: int, n_raters: int, conger: bool) -> int:
        """How many patterns there are (before those of probability 0 are dropped)."""
        if conger:
            return int(n_categories**n_raters)
        return math.comb(n_raters + n_categories - 1, n_raters)

    @classmethod
    def of(cls, pi: np.ndarray, kappa1: float, n_raters: int, conger: bool) -> PatternModel:
        """With probability kappa1 all R raters give one category drawn from pi, otherwise
        each draws from pi independently (:func:`draw_ratings`): a code row has probability
        ``kappa1 pi_c [all c] + (1 - kappa1) prod_r pi_{c_r}``, a count vector that of its
        ``R! / prod_k c_k!`` code rows."""
        k = pi.size
        if conger:
            rows = np.array(list(itertools.product(range(k), repeat=n_raters)))
        else:
            rows = np.array(list(itertools.combinations_with_replacement(range(k), n_raters)))
        counts = rows_to_counts(rows, k)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_pi = np.log(pi)
            log_independent = np.where(counts > 0, counts * log_pi, 0.0).sum(axis=1)
        if not conger:  # log(R! / prod_k c_k!): the code rows of each count vector
            log_factorial = np.array([math.lgamma(c + 1.0) for c in range(n_raters + 1)])
            log_independent += log_factorial[n_raters] - log_factorial[counts].sum(axis=1)
        probability = (1.0 - kappa1) * np.exp(log_independent)
        together = counts.max(axis=1) == n_raters
        probability[together] += kappa1 * pi[rows[together, 0]]
        keep = probability > 0
        return cls(rows[keep], counts[keep], probability[keep] / probability[keep].sum())


def simulate_several(
    pi: np.ndarray,
    kappa1: float,
    n: int,
    question: StudyQuestion,
    rng: np.random.Generator,
    *,
    n_raters: int,
    coefficient: str,
    weights: Any,
) -> SimulatedStudies:
    """The same for several raters under the common-kappa model (:func:`draw_ratings`;
    pairwise, every two raters then have kappa1 under any weights), scored in stacks of
    studies by :func:`score_several`.

    The test of ``kappa0`` rejects when ``kappa0`` is outside the coefficient's asymptotic
    interval ``statistic ± t(n - 1) SE`` (upper end capped at 1, as
    :meth:`wkappa.AgreementResult.confidence_interval`; two-sided level ``1 - alpha``,
    one-sided: level ``1 - 2 alpha``), which for ``kappa0 = 0`` is its Wald test.
    """
    k = pi.size
    # The categories' values are 1..K, as wkappa.agreement's without labels (Gwet's ratio
    # weights need positive values; his other weights do not depend on the origin).
    labels = tuple(range(1, k + 1))
    _, matrix = agreement_weight_matrix(check_agreement_weights(weights), k, coefficient, labels)
    test_level = (
        1.0 - question.alpha if question.alternative == "two-sided" else 1.0 - 2.0 * question.alpha
    )
    half_test = t_ppf(0.5 + test_level / 2.0, n - 1)
    half_level = t_ppf(0.5 + question.confidence_level / 2.0, n - 1)
    chunk, draw = _several_studies(pi, kappa1, n, n_raters, coefficient, matrix, question, rng)
    rejected = cleared = undefined = 0
    width_total, width_count = 0.0, 0
    done = 0
    while done < question.n_simulations:
        size = min(chunk, question.n_simulations - done)
        statistic, se = draw(size)
        defined = np.isfinite(statistic) & np.isfinite(se)
        undefined += int(size - np.count_nonzero(defined))
        statistic, se = statistic[defined], se[defined]
        low = statistic - half_test * se
        high = np.minimum(1.0, statistic + half_test * se)
        if question.alternative == "greater":
            rejected += int(np.count_nonzero(low > question.kappa0))
        elif question.alternative == "less":
            rejected += int(np.count_nonzero(high < question.kappa0))
        else:
            rejected += int(np.count_nonzero((low > question.kappa0) | (high < question.kappa0)))
        level_low = statistic - half_level * se
        level_high = np.minimum(1.0, statistic + half_level * se)
        if question.lower_limit is not None:
            cleared += int(np.count_nonzero(level_low > question.lower_limit))
        if question.want_width:  # the undefined studies count with the whole range
            width_total += float((level_high - level_low).sum())
            width_total += _NO_INTERVAL_WIDTH * (size - statistic.size)
            width_count += size
        done += size
    width = width_total / width_count if width_count else math.nan
    return SimulatedStudies.counted(question, rejected, cleared, width, undefined)


def _several_studies(
    pi: np.ndarray,
    kappa1: float,
    n: int,
    n_raters: int,
    coefficient: str,
    matrix: np.ndarray,
    question: StudyQuestion,
    rng: np.random.Generator,
) -> tuple[int, Callable[[int], tuple[np.ndarray, np.ndarray]]]:
    """How many studies to draw at once, and the draw: ``draw(size)`` gives the statistics
    and standard errors of ``size`` simulated studies of n items.

    Studies with fewer items than there are rating patterns are drawn item by item
    (:func:`draw_ratings`, :func:`score_several`); from as many items as patterns on, a
    study is one multinomial draw of n over the patterns (:class:`PatternModel`), scored
    from that table (:func:`score_patterns`) at a cost independent of n.
    """
    k = pi.size
    conger = coefficient == "conger"
    n_patterns = PatternModel.size(k, n_raters, conger)
    if n_patterns > min(n, _MAX_PATTERNS):
        if n * n_raters * question.n_simulations > _MAX_DRAWN_RATINGS:
            shape = "code rows (K**R)" if conger else "count vectors"
            raise WkappaError(
                f"Simulating {question.n_simulations:,} studies of `n` = {n:,} items rated by "
                f"`n_raters` = {n_raters} takes {n * n_raters * question.n_simulations:,} "
                f"ratings drawn one by one (there are {n_patterns:,} possible {shape}, too "
                "many to draw the studies' pattern tables). Hint: method='asymptotic' or "
                "method='goodness-of-fit' plans for any n, or give fewer `n_simulations`."
            )

        def by_item(size: int) -> tuple[np.ndarray, np.ndarray]:
            ratings = draw_ratings(pi, kappa1, (size, n, n_raters), rng)
            return score_several(ratings, k, coefficient, matrix)

        return max(1, _SEVERAL_ITEMS // max(n * n_raters, 1)), by_item
    model = PatternModel.of(pi, kappa1, n_raters, conger)

    def by_pattern(size: int) -> tuple[np.ndarray, np.ndarray]:
        multiplicity = rng.multinomial(n, model.probability, size=size)
        return score_patterns(model, multiplicity, coefficient, matrix)

    return max(1, _SEVERAL_ITEMS // len(model.probability)), by_pattern


def score_patterns(
    model: PatternModel, multiplicity: np.ndarray, coefficient: str, matrix: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`score_several` gives for B studies given as their pattern tables:
    ``multiplicity[j, p]`` items of study j show ``model``'s pattern p."""
    feature_rows = _pattern_features(coefficient, model.rows, model.counts, matrix)
    sums = multiplicity.astype(np.float64) @ feature_rows
    estimate = coefficient_from_sums(coefficient, sums, matrix, model.rows.shape[1])

    def study(j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        seen = np.flatnonzero(multiplicity[j])
        return feature_rows[seen], multiplicity[j, seen], model.counts[seen], model.rows[seen]

    return _with_standard_errors(coefficient, matrix, estimate, study)


# The coefficients whose chance agreement is not that of independent raters with the
# items' marginals: under the common-kappa model their population value is not its kappa.
CHANCE_DIFFERS = ("gwet", "brennan_prediger", "percent")
# Items of the sample that estimates such a coefficient's value under independent raters.
_CHANCE_ITEMS = 200_000


def chance_value(pi: np.ndarray, n_raters: int, coefficient: str, weights: Any) -> float:
    """The coefficient's value when the raters are independent with marginals pi (estimated
    on 200,000 simulated items with a fixed seed: within about 0.002).

    Under the common-kappa model with kappa ``m`` every pair's agreement is
    ``pa(m) = pa(0) + m (1 - pa(0))`` while the chance terms depend on the marginals only, so
    the coefficient is ``c0 + m (1 - c0)``: linear in m, from its value c0 at independence to
    1 at perfect agreement.
    """
    from .several import agreement_from_counts

    rng = np.random.default_rng(0)
    k = pi.size
    ratings = rng.choice(k, size=(_CHANCE_ITEMS, n_raters), p=pi)
    counts = np.zeros((_CHANCE_ITEMS, k), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(_CHANCE_ITEMS), n_raters), ratings.ravel()), 1)
    result = agreement_from_counts(  # the categories' values 1..K, as simulate_several's
        counts, coefficient=cast(Coefficient, coefficient), weights=weights, labels=range(1, k + 1)
    )
    return float(result.statistic)


def study_rng(seed: np.random.SeedSequence, n: int) -> np.random.Generator:
    """The generator of the studies of size n: one stream per n from one seed, so that a
    plan is reproducible and the search sees the same draws for the same n."""
    return np.random.default_rng(np.random.SeedSequence(seed.entropy, spawn_key=(n,)))
