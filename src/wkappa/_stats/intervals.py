"""Confidence intervals and bootstrap settings shared by the inference results."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .._core import check_count, format_value, kappas, norm_ppf, real_number, t_ppf, variances
from ..exceptions import WkappaError
from .json_values import json_fields
from .text_values import level_percent

__all__ = [
    "BootstrapMethod",
    "ConfidenceInterval",
    "SeedLike",
    "check_confidence_level",
    "check_method",
    "check_only_method",
    "check_resamples",
    "estimate_repr",
    "fisher_z_limits",
    "interval_repr",
    "level_text",
    "make_rng",
    "one_sided",
    "readonly",
    "resampled_text",
    "rng_error",
    "score_limits",
    "sided",
    "small_sample_reason",
]

# What every ``rng=`` keyword takes: the seeds of ``numpy.random.default_rng``.
SeedLike = int | np.random.Generator | np.random.SeedSequence | None


def check_confidence_level(confidence_level: Any) -> float:
    """Validate a confidence level: a real number strictly between 0 and 1."""
    level = real_number(confidence_level, "confidence_level", "a number in (0, 1)")
    if not 0.0 < level < 1.0:
        hint = " Hint: 95% is confidence_level=0.95." if 1.0 < level <= 100.0 else ""
        raise WkappaError(
            f"`confidence_level` must be strictly between 0 and 1; got {level!r}.{hint}"
        )
    return level


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval; unpacks as ``low, high = ci``.

    Attributes
    ----------
    low, high : float
        The interval's end points (nan when kappa is undefined).
    confidence_level : float
        The nominal coverage, e.g. 0.95.
    method : str
        'asymptotic', 'score', 'fisher-z', 'percentile' or 'bca'; 'expanded-percentile' for
        the paired difference of :func:`~wkappa.paired_kappa_test`.
    n_resamples : int
        Bootstrap replicates drawn (0 for the asymptotic, score and Fisher-z intervals).
    n_undefined : int
        Bootstrap replicates whose kappa was undefined and were dropped (see
        :class:`BootstrapMethod`).

    Examples
    --------
    >>> import wkappa as wk
    >>> ci = wk.kappa_test_from_table([[20, 5], [4, 15]]).confidence_interval(0.9)
    >>> low, high = ci
    >>> round(low, 4), round(ci[1], 4), ci.method
    (0.3837, 0.7879, 'asymptotic')
    """

    low: float
    high: float
    confidence_level: float = 0.95
    method: str = "asymptotic"
    n_resamples: int = 0
    n_undefined: int = 0

    def __iter__(self) -> Iterator[float]:
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> float:
        return (self.low, self.high)[index]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: nan end points become None."""
        return json_fields(self, _INTERVAL_FIELDS)


_INTERVAL_FIELDS = "low high confidence_level method n_resamples n_undefined"  # to_dict() keys

# The range of each coefficient: the fixed end of a one-sided interval (see `sided`).
# Kappa-type coefficients are at most 1 but have no lower bound common to every weight matrix
# (a custom W can make weighted kappa as low as you like), so 'less' intervals start at -inf.
KAPPA_RANGE = (-math.inf, 1.0)
PROPORTION_RANGE = (0.0, 1.0)
CORRELATION_RANGE = (-1.0, 1.0)
DIFFERENCE_RANGE = (-math.inf, math.inf)


def one_sided(alternative: str) -> str:
    """'one-sided ' for a 'greater' or 'less' result, '' for a two-sided one: the word the
    reprs and explain() put before "CI" / "interval"."""
    return "" if alternative == "two-sided" else "one-sided "


def level_text(ci: ConfidenceInterval, alternative: str) -> str:
    """ "90% " or "90% one-sided ": the level of ``ci`` as the explanations put it before
    "CI" / "interval" (``:g`` digits, so 0.975 is 97.5%, not a rounded 98%)."""
    return f"{level_percent(ci.confidence_level)} {one_sided(alternative)}"


def resampled_text(ci: ConfidenceInterval) -> str:
    """How a bootstrap interval was drawn, for an explanation: "BCa bootstrap, 999
    resamples" (plus the replicates dropped as undefined); '' for an interval computed
    without resampling."""
    if not ci.n_resamples:
        return ""
    name = {"bca": "BCa", "percentile": "percentile"}.get(ci.method, ci.method)
    dropped = f", {ci.n_undefined} undefined and dropped" if ci.n_undefined else ""
    return f"{name} bootstrap, {ci.n_resamples} resamples{dropped}"


def interval_repr(ci: ConfidenceInterval, alternative: str) -> str:
    """The "95% CI=[low, high]" part of a result's repr ("95% one-sided CI=[...]" for a
    one-sided ``alternative``)."""
    return f"{level_text(ci, alternative)}CI=[{ci.low:.6g}, {ci.high:.6g}]"


def estimate_repr(result: Any) -> str:
    """The "statistic=..., standard_error=..., 95% CI=[low, high]" part of a result's repr:
    its ``statistic``, ``standard_error`` and default interval."""
    return (
        f"statistic={result.statistic:.6g}, standard_error={result.standard_error:.6g}, "
        + interval_repr(result.confidence_interval(), result.alternative)
    )


def difference_repr(result: Any, first: str, second: str) -> str:
    """The "first=..., second=..., difference=..., 95% CI=[low, high], pvalue=..." part of a
    comparison's repr: its two estimates (attributes ``first`` and ``second``), their
    ``difference``, default interval and ``pvalue``."""
    ci = result.confidence_interval()
    return (
        f"{first}={getattr(result, first):.6g}, {second}={getattr(result, second):.6g}, "
        f"difference={result.difference:.6g}, {interval_repr(ci, result.alternative)}, "
        f"pvalue={result.pvalue:.6g}"
    )


def sided(
    two_sided: Callable[[float], ConfidenceInterval],
    confidence_level: Any,
    alternative: str,
    bounds: tuple[float, float],
) -> ConfidenceInterval:
    """The interval of a result for its ``alternative``, from its two-sided interval.

    The one rule every result's ``confidence_interval`` follows (as scipy.stats does):

    * 'two-sided': ``two_sided(confidence_level)``;
    * 'greater': ``(low, upper bound)``, with ``low`` the one-sided lower limit at
      ``confidence_level``;
    * 'less': ``(lower bound, high)``, with ``high`` the one-sided upper limit.

    A one-sided limit at level gamma is the matching limit of the two-sided interval at level
    ``2 gamma - 1`` (each method's two tails are ``(1 -/+ level) / 2``, so its lower tail is
    then ``1 - gamma``), which is how it is computed here, for every method alike; gamma must
    be above 0.5. The fixed end is nan where the computed limit is (an undefined coefficient).

    Parameters
    ----------
    two_sided : callable
        ``level -> ConfidenceInterval``, the result's two-sided interval (scalars or arrays).
    confidence_level : float
        The level the user asked for.
    alternative : {'two-sided', 'greater', 'less'}
        The result's alternative.
    bounds : (float, float)
        The coefficient's range: the fixed end of 'less' and of 'greater' intervals.
    """
    level = check_confidence_level(confidence_level)
    if alternative == "two-sided":
        return two_sided(level)
    if level <= 0.5:
        raise WkappaError(
            f"`confidence_level` must be above 0.5 for a one-sided interval "
            f"(alternative={alternative!r}); got {level!r}."
        )
    interval = two_sided(2.0 * level - 1.0)
    lower, upper = bounds
    if alternative == "greater":
        low, high = interval.low, _fixed_end(upper, interval.low)
    else:
        low, high = _fixed_end(lower, interval.high), interval.high
    return dataclasses.replace(interval, low=low, high=high, confidence_level=level)


def _fixed_end(bound: float, limit: Any) -> Any:
    """``bound`` in the shape of ``limit``, nan where the limit is nan."""
    if isinstance(limit, np.ndarray):
        return np.where(np.isnan(limit), np.nan, bound)
    return math.nan if math.isnan(limit) else bound


@dataclass(frozen=True)
class BootstrapMethod:
    """How to bootstrap a kappa: resample the K x K table (multinomial over its cells).

    Parameters
    ----------
    n_resamples : int, default 9999
        Bootstrap replicates B.
    method : {'percentile', 'bca'}, default 'percentile'
        Percentile interval, or bias-corrected and accelerated (BCa; Efron 1987) with the
        acceleration from the table-level jackknife.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Passed to :func:`numpy.random.default_rng`: the same integer seed gives the same
        interval; a Generator is advanced.

    Notes
    -----
    Drawing n pairs with replacement from the data is a multinomial draw of n over the table's
    cells with probabilities ``O / n``, so B replicates cost O(B K²) whatever n is.

    * **Weighted tables.** A table of non-integer (sample-weighted) counts is treated as
      frequency weights, like SAS's WEIGHT statement: replicates draw ``round(sum(O))`` pairs
      with probabilities ``O / sum(O)``. For survey (sampling) weights neither this nor the
      asymptotic standard error is appropriate.
    * **Undefined replicates.** A replicate whose kappa is undefined (``sum(W*E) == 0``, e.g.
      every resampled pair in one category) is dropped and counted in
      :attr:`ConfidenceInterval.n_undefined`; the interval is then conditional on a defined
      kappa. More than 1% dropped gives an :class:`~wkappa.exceptions.UndefinedKappaWarning`;
      if all are undefined the interval is (nan, nan).

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_test_from_table([[20, 5, 1], [4, 15, 6], [0, 3, 16]])
    >>> ci = result.confidence_interval(method=wk.BootstrapMethod(999, method="bca", rng=1))
    >>> ci.method, ci.n_resamples, bool(ci.low < result.statistic < ci.high)
    ('bca', 999, True)
    """

    n_resamples: int = 9999
    method: Literal["percentile", "bca"] = "percentile"
    rng: SeedLike = None

    def __post_init__(self) -> None:
        check_resamples(self.n_resamples)
        if self.method not in ("percentile", "bca"):
            raise WkappaError(
                f"`method` must be 'percentile' or 'bca'; got {format_value(self.method)}."
            )
        make_rng(self.rng)


def readonly(array: np.ndarray) -> np.ndarray:
    """A read-only copy of an array a frozen result keeps (its table, its weights)."""
    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array


def check_resamples(n_resamples: Any) -> int:
    """The number of bootstrap replicates: an integer of at least 2 (one replicate has no
    spread, and its "interval" need not contain the estimate)."""
    return check_count(
        n_resamples,
        "n_resamples",
        2,
        "the number of bootstrap replicates; 999 or more for an interval",
    )


def make_rng(rng: Any) -> np.random.Generator:
    """``numpy.random.default_rng(rng)`` with a WkappaError naming ``rng`` for bad seeds."""
    if isinstance(rng, (bool, float, str)):
        raise rng_error(rng)
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise rng_error(rng) from None


def rng_error(rng: Any) -> WkappaError:
    """The error for a bad ``rng=`` seed."""
    return WkappaError(
        "`rng` must be None, a non-negative integer seed, a numpy SeedSequence or a numpy "
        f"Generator; got {format_value(rng)}."
    )


IntervalName = Literal["asymptotic", "fisher-z", "score"]

# The intervals computed from the table alone (no resampling), in the order the docs list them.
TABLE_INTERVALS = ("asymptotic", "score", "fisher-z")

_METHOD_HINT = (
    "`method` must be 'asymptotic', 'score', 'fisher-z', 'bootstrap', 'percentile', 'bca' or "
    "a BootstrapMethod(...)"
)


def check_method(method: Any) -> IntervalName | BootstrapMethod:
    if isinstance(method, BootstrapMethod):
        return method
    if isinstance(method, str):
        if method in TABLE_INTERVALS:
            return method  # type: ignore[return-value]
        if method == "bootstrap":
            return BootstrapMethod()
        if method == "percentile":
            return BootstrapMethod(method="percentile")
        if method == "bca":
            return BootstrapMethod(method="bca")
    hint = (
        " Hint: the small-sample interval is 'score'."
        if method in ("fisher_z", "wilson", "score-type")
        else ""
    )
    raise WkappaError(f"{_METHOD_HINT}; got {format_value(method)}.{hint}")


# The half pair of chance agreement added by the Fisher-z interval.
PSEUDO_PAIRS = 0.5


def fisher_z_limits(
    tables: np.ndarray, weights: np.ndarray, confidence_level: float, kappa: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """The small-sample (Fisher-z) interval of each table's kappa.

    Parameters
    ----------
    tables : ndarray of shape (..., K, K)
        Counts O (integer or weighted), any number of leading axes.
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    confidence_level : float
        Nominal coverage.
    kappa : float or ndarray of shape (...), optional
        The kappa of each table as the caller reports it (computed if omitted); the interval
        always contains it.

    Returns
    -------
    low, high : ndarray of shape (...)
        nan where kappa is undefined, where ``n <= 1`` or where the adjusted kappa is
        outside (-1, 1).

    Notes
    -----
    Three changes to the large-sample (Wald) interval, each aimed at one cause of its
    undercoverage in small samples:

    1. **Half a pair of chance agreement.** With ``n`` pairs and the independence table
       ``E = outer(row sums, column sums) / n``, the table ``O + E / (2 n)`` has the same
       margins and the shrunken kappa ``kappa_s = kappa * n / (n + 1/2)``; its
       Fleiss-Cohen-Everitt (1969) standard error ``s`` (with ``n + 1/2`` pairs) is positive
       even when every pair agrees, in the spirit of the pseudo-counts of Agresti & Coull
       (1998) for a binomial proportion.
    2. **Fisher's z scale.** ``z = atanh(kappa_s)`` with the delta-method standard error
       ``s / (1 - kappa_s²)`` (Fisher 1921; used for agreement coefficients by Lin 1989),
       which keeps the interval inside (-1, 1) and makes it asymmetric near 1.
    3. **Student's t quantile** with ``n - 1`` degrees of freedom instead of the normal one.

    .. math::

        [\\tanh(z - t_{n-1, (1+\\gamma)/2} \\, s / (1 - \\kappa_s^2)),\\;
         \\tanh(z + t_{n-1, (1+\\gamma)/2} \\, s / (1 - \\kappa_s^2))]

    widened where needed to contain the estimate kappa itself (e.g. kappa = 1).
    The amount of smoothing (half a pair) and the t quantile were chosen by the coverage
    study in ``benchmarks/coverage_study.py`` (see BENCHMARKS.md).
    """
    counts = np.asarray(tables, dtype=np.float64)
    n = counts.sum(axis=(-2, -1))
    if kappa is None:
        kappa = kappas(counts, weights)
    kappa = np.asarray(kappa, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rows, cols = counts.sum(axis=-1), counts.sum(axis=-2)
        total = n[..., None, None]
        smoothed = counts + PSEUDO_PAIRS * rows[..., :, None] * cols[..., None, :] / total**2
        kappa_s = np.asarray(kappas(smoothed, weights), dtype=np.float64)
        variance, _ = variances(smoothed, weights, kappa_s)
        se = np.sqrt(variance)
        quantile = _t_quantiles(0.5 + confidence_level / 2.0, n - 1.0)
        center = np.arctanh(kappa_s)
        half = quantile * se / (1.0 - kappa_s**2)
        low = np.fmin(np.tanh(center - half), kappa)
        high = np.fmax(np.tanh(center + half), kappa)
    bad = np.isnan(kappa) | ~(n > 1.0) | ~(np.abs(kappa_s) < 1.0) | np.isnan(se)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


def _t_quantiles(p: float, df: np.ndarray) -> np.ndarray:
    """``t_ppf(p, df)`` for an array of degrees of freedom (one call per distinct value)."""
    df = np.asarray(df, dtype=np.float64)
    values, inverse = np.unique(df, return_inverse=True)
    quantiles = np.array([t_ppf(p, float(v)) if v > 0 else math.nan for v in values])
    return quantiles[inverse].reshape(df.shape)


def check_only_method(method: Any, only: str, what: str) -> None:
    """The ``method`` keyword of a result with one interval method: only ``only``."""
    if not (isinstance(method, str) and method == only):
        raise WkappaError(f"`method` must be {only!r} ({what}); got {format_value(method)}.")


# Bisection steps along each half of the path: 2**-60 of the path, finer than the limits need.
_SCORE_STEPS = 50
# A kappa this close to 0 takes the path of kappa = 0 (float rounding of an exact 0).
_ZERO_KAPPA = 1e-12


def _score_path(
    tables: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The score interval's path through a stack of tables, flattened to (m, K, K).

    Returns n, each table's kappa, its cell proportions P, the chance table r c', the
    agreement table (diag of (r + c) / 2), the disagreement table (chance weighted by W,
    normalised) and the sign of kappa (0 within rounding of 0, so that float noise -- a
    transposed table, a stack against one table -- cannot pick another path).
    """
    counts = np.asarray(tables, dtype=np.float64)
    k = counts.shape[-1]
    counts = counts.reshape(-1, k, k)
    n = counts.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        own = np.asarray(kappas(counts, weights), dtype=np.float64).reshape(-1)
        p = counts / n[:, None, None]
        rows, cols = p.sum(axis=2), p.sum(axis=1)
        chance = rows[:, :, None] * cols[:, None, :]
        agreement = np.eye(k)[None] * ((rows + cols) / 2.0)[:, None, :]
        against = chance * weights[None]
        against = against / against.sum(axis=(1, 2))[:, None, None]
        sign = np.where(np.abs(own) <= _ZERO_KAPPA, 0.0, np.sign(own))
    return n, own, p, chance, agreement, against, sign


def score_limits(
    tables: np.ndarray, weights: np.ndarray, confidence_level: float, kappa: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """The score-type (profile-variance) interval of each table's kappa.

    Parameters and return values as :func:`fisher_z_limits`, except that only an undefined
    kappa or ``n <= 1`` gives nan limits.

    Notes
    -----
    The interval is the set of kappa0 that the large-sample test of ``H0: kappa = kappa0``
    does not reject when the variance is evaluated under ``H0`` rather than at the estimate
    (the score principle of Wilson (1927) for a proportion; for kappa, Donner & Eliasziw
    (1992) evaluate it under the hypothesised value for K = 2):

    .. math::

        \\{\\kappa_0 : (\\hat\\kappa - \\kappa_0)^2 \\le z_{(1+\\gamma)/2}^2\\,
        V(P_{\\kappa_0}) / n\\}

    with ``V`` the Fleiss-Cohen-Everitt (1969) variance and ``P_kappa0`` a table with kappa
    ``kappa0`` next to the observed proportions ``P = O / n``. The tables ``P_kappa0`` lie on
    a path through ``P`` (so the limits are found by bisection, 50 steps per side):

    * towards chance, ``C = r c'``: ``(1 - s) P + s C`` keeps the margins ``r``, ``c`` and
      has kappa ``(1 - s) kappa`` exactly;
    * towards perfect agreement, ``A = diag((r + c) / 2)`` (kappa 1);
    * towards disagreement, ``N`` proportional to ``r_i c_j W_ij`` (chance weighted by the
      disagreement weights, kappa < 0).

    With kappa > 0 the upper limit lies on the segment P -> A and the lower one on
    P -> C -> N; with kappa < 0 the upper one on P -> C -> A and the lower one on P -> N;
    with kappa = 0 on P -> A and P -> N.

    Mixing with chance lets the variance see disagreements the sample did not show (a
    perfect-agreement table still gets a lower limit below 1, like Wilson's interval at 0 or
    n successes); below the estimate that makes it conservative when the disagreements are
    all between neighbouring categories (ordinal tables). If the test does
    not reject at the end of the disagreement segment, the lower limit is that end's kappa.
    The coverage study in ``benchmarks/coverage_study.py`` (BENCHMARKS.md) measures it.
    """
    shape = np.shape(tables)[:-2]
    n, own, p, chance, agreement, against, sign = _score_path(tables, weights)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        quantile = norm_ppf(0.5 + confidence_level / 2.0)
        positive = (sign > 0.0)[:, None, None]
        negative = (sign < 0.0)[:, None, None]
        # Each side: the first segment from P to `first`, the second from `first` to `second`.
        up_first = np.where(negative, chance, agreement)
        down_first = np.where(positive, chance, against)
        high = _score_end(p, up_first, agreement, n, weights, own, quantile)
        low = _score_end(p, down_first, against, n, weights, own, quantile)
    if kappa is None:
        kappa = own
    else:
        kappa = np.broadcast_to(np.asarray(kappa, dtype=np.float64), shape).reshape(-1)
    bad = np.isnan(own) | np.isnan(kappa) | ~(n > 1.0)
    low = np.where(bad, np.nan, np.fmin(low, kappa))
    high = np.where(bad, np.nan, np.fmax(high, kappa))
    return low.reshape(shape), high.reshape(shape)


def _score_end(
    p: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    n: np.ndarray,
    weights: np.ndarray,
    own: np.ndarray,
    quantile: float,
) -> np.ndarray:
    """Kappa where the score test first rejects along the path P -> first -> second
    (position u in [0, 2]), or at the path's end if it never does."""
    bound = quantile**2 / n
    step_one, step_two = first - p, second - first

    def at(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        one = np.minimum(u, 1.0)[:, None, None]
        two = np.maximum(u - 1.0, 0.0)[:, None, None]
        kappa, spread = _kappa_and_spread(p + one * step_one + two * step_two, weights)
        return kappa, (own - kappa) ** 2 > bound * spread

    low = np.zeros_like(own)
    high = np.full_like(own, 2.0)
    end, rejected = at(high)
    for _ in range(_SCORE_STEPS):
        middle = 0.5 * (low + high)
        _, reject = at(middle)
        high = np.where(reject, middle, high)
        low = np.where(reject, low, middle)
    limit, _ = at(high)
    return np.where(rejected, limit, end)


def _kappa_and_spread(p: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kappa and ``n * Var(kappa)`` (Fleiss-Cohen-Everitt) of proportion tables p (G, K, K).

    The same formula as :func:`wkappa._core.variances`, for tables that already sum to 1.
    """
    rows, cols = p.sum(axis=2), p.sum(axis=1)
    w_row = cols @ weights.T
    w_col = rows @ weights
    d_e = np.einsum("gi,gi->g", rows, w_row)
    kappa = 1.0 - np.einsum("gij,ij->g", p, weights) / d_e
    influence = weights[None] - (1.0 - kappa)[:, None, None] * (
        w_row[:, :, None] + w_col[:, None, :]
    )
    mean = (p * influence).sum(axis=(1, 2))
    centred = influence - mean[:, None, None]
    spread = (p * centred * centred).sum(axis=(1, 2)) / d_e / d_e
    return kappa, spread


def hypothesis_variances(tables: np.ndarray, weights: np.ndarray, kappa0: float) -> np.ndarray:
    """Fleiss-Cohen-Everitt variance of kappa under ``H0: kappa = kappa0``, for each table.

    Parameters
    ----------
    tables : ndarray of shape (..., K, K)
        Counts O.
    weights : ndarray of shape (K, K)
        Disagreement weights W.
    kappa0 : float
        The hypothesised kappa.

    Returns
    -------
    ndarray of shape (...)
        ``V(P_kappa0) / n``: the variance at the table ``P_kappa0`` with kappa ``kappa0`` on
        the path of :func:`score_limits` through the observed proportions (towards chance
        and disagreement below the estimate, towards perfect agreement above it), so that
        the test ``z = (kappa - kappa0) / sqrt(V(P_kappa0) / n)`` rejects exactly the values
        outside the score interval. At ``kappa0 = 0`` the path passes through the
        independence table ``r c'`` and this is the null variance of Fleiss, Cohen & Everitt
        (1969). Past the path's end (a ``kappa0`` below what the disagreement end of the
        path reaches), the end's variance. nan where kappa is undefined.
    """
    shape = np.shape(tables)[:-2]
    n, own, p, chance, agreement, against, sign = _score_path(tables, weights)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        up = (kappa0 > own)[:, None, None]
        # Up: towards chance first when kappa < 0, then agreement. Down: towards chance
        # first when kappa > 0, then disagreement (the segments of score_limits).
        first = np.where(
            up,
            np.where((sign < 0.0)[:, None, None], chance, agreement),
            np.where((sign > 0.0)[:, None, None], chance, against),
        )
        second = np.where(up, agreement, against)
        step_one, step_two = first - p, second - first

        # Between 0 and a positive estimate the table is on the chance segment, where kappa
        # is linear: (1 - u) P + u C has kappa (1 - u) kappa, so u = 1 - kappa0 / kappa.
        linear = (sign > 0.0) & (kappa0 >= 0.0) & (kappa0 <= own)
        position = np.where(linear, 1.0 - kappa0 / np.where(linear, own, 1.0), 2.0)
        rest = np.flatnonzero(~linear)
        if rest.size:
            sub_p, sub_one, sub_two = p[rest], step_one[rest], step_two[rest]
            sub_up = up[rest, 0, 0]

            def at(u: np.ndarray) -> np.ndarray:
                one = np.minimum(u, 1.0)[:, None, None]
                two = np.maximum(u - 1.0, 0.0)[:, None, None]
                value, _ = _kappa_and_spread(sub_p + one * sub_one + two * sub_two, weights)
                return value

            low = np.zeros(rest.size)
            high = np.full(rest.size, 2.0)
            for _ in range(_SCORE_STEPS):
                middle = 0.5 * (low + high)
                value = at(middle)
                beyond = np.where(sub_up, value >= kappa0, value <= kappa0)
                high = np.where(beyond, middle, high)
                low = np.where(beyond, low, middle)
            position[rest] = high
        one = np.minimum(position, 1.0)[:, None, None]
        two = np.maximum(position - 1.0, 0.0)[:, None, None]
        _, spread = _kappa_and_spread(p + one * step_one + two * step_two, weights)
        variance = spread / n
    variance = np.where(np.isnan(own) | ~(n > 0.0), np.nan, variance)
    return variance.reshape(shape)


# Where the large-sample (Wald) interval undercovers, from benchmarks/coverage_study.py: more
# than 5% of the designs below 93% coverage at n < 100 whatever kappa, and up to n = 1000 when
# kappa >= 0.8 (see BENCHMARKS.md, "Interval coverage at small n").
SMALL_N = 100
HIGH_KAPPA = 0.8
HIGH_KAPPA_N = 1000


def small_sample_reason(n: float, kappa: float) -> str | None:
    """Why the asymptotic interval is likely to cover less than its level, or None."""
    if math.isnan(kappa):
        return None
    if n < SMALL_N:
        return f"n = {n:g} < {SMALL_N}"
    if kappa >= HIGH_KAPPA and n < HIGH_KAPPA_N:
        return f"kappa >= {HIGH_KAPPA:g} with n = {n:g} < {HIGH_KAPPA_N}"
    return None
