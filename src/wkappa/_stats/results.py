"""Result objects of the inference functions, in the scipy.stats style.

A :class:`KappaResult` keeps only the sufficient statistic (the K x K table, the weight matrix
and the labels) plus the scalars computed from it; intervals are computed on demand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._core import Alternative, format_value, norm_ppf, t_ppf
from ..exceptions import WkappaError
from . import bootstrap
from .bootstrap_method import BootstrapMethod, make_rng
from .cluster import cluster_bootstrap_kappas, cluster_jackknife
from .fisher_z_interval import fisher_z_limits
from .frozen_arrays import readonly
from .intervals import (
    DIFFERENCE_RANGE,
    KAPPA_RANGE,
    ConfidenceInterval,
    IntervalName,
    check_confidence_level,
    check_method,
    check_only_method,
    collapsed,
    difference_repr,
    interval_repr,
    quiet_interval,
    sided,
    warn_undefined_interval,
)
from .json_values import json_fields
from .score_interval import score_limits
from .text_values import interpretation

__all__ = [
    "BootstrapMethod",
    "ConfidenceInterval",
    "ExpandedPercentile",
    "KappaIntervalMethod",
    "KappaResult",
    "PairedKappaResult",
    "check_confidence_level",
    "check_table_labels",
]

# The methods of KappaResult.confidence_interval (and so of its explain).
KappaIntervalMethod = (
    Literal["asymptotic", "score", "fisher-z", "bootstrap", "percentile", "bca"] | BootstrapMethod
)
# The one method of a bootstrap difference's interval (paired test, panel comparison).
ExpandedPercentile = Literal["expanded-percentile"]

_KAPPA_FIELDS = (  # the keys of to_dict(), in order
    "n_clusters? statistic standard_error standard_error_null test_statistic test_distribution "
    "test_df pvalue alternative "
    "kappa0 n labels weights weight_matrix table interpretation confidence_interval"
)
_PAIRED_FIELDS = (  # the keys of to_dict(), in order
    "statistic_a statistic_b difference confidence_interval pvalue alternative n labels weights "
    "n_clusters?"
)


def check_table_labels(labels: Any, k: int, ndim: int = 2) -> tuple[Any, ...]:
    """The K labels of a K x K (x K) table as a tuple; ``0..K-1`` when None."""
    if labels is None:
        return tuple(range(k))
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise WkappaError(
            f"`labels` must be a sequence of K = {k} categories; got {format_value(labels)}."
        )
    names = tuple(np.asarray(labels).tolist()) if isinstance(labels, np.ndarray) else tuple(labels)
    if len(names) != k:
        size = " x ".join([str(k)] * ndim)
        raise WkappaError(
            f"`labels` has {len(names)} categories but the table is {size}. "
            "Hint: give one label per row of the table."
        )
    return names


@dataclass(frozen=True, eq=False, repr=False)
class KappaResult:
    """Cohen's weighted kappa with its standard errors and test of ``kappa = kappa0``.

    Made by :func:`~wkappa.kappa_test` and :func:`~wkappa.kappa_test_from_table`; it keeps the
    K x K table and weight matrix, not the ratings.

    Attributes
    ----------
    statistic : float
        Kappa, ``1 - sum(W*O) / sum(W*E)``.
    standard_error : float
        Large-sample (non-null) standard error of Fleiss, Cohen & Everitt (1969), SAS's "ASE".
    standard_error_null : float
        Standard error under H0: kappa = ``kappa0`` (under independence of the raters when
        ``kappa0 = 0``; see the Notes of :func:`wkappa.kappa_test_from_table`).
    test_statistic : float
        ``(statistic - kappa0) / standard_error_null``: a z statistic, referred to the normal
        distribution; with ``cluster=``, the Wald t statistic with the cluster-robust standard
        error, referred to Student's t with G - 1 degrees of freedom
        (:attr:`test_distribution` and :attr:`test_df` say which).
    pvalue : float
        P-value of H0: kappa = kappa0 against ``alternative``, from ``test_statistic``.
    n : int or float
        Number of pairs ``sum(O)`` (a float for weighted counts).
    alternative : {'two-sided', 'greater', 'less'}
        The alternative hypothesis of ``pvalue``.
    labels : tuple
        The K categories in order.
    weights : str
        'quadratic', 'linear', 'unweighted' or 'custom'.
    weight_matrix : ndarray of shape (K, K)
        Disagreement weights W (read-only).
    table : ndarray of shape (K, K)
        Observed counts O, rows rater A / ``y_true`` (read-only).
    kappa0 : float
        The kappa of the null hypothesis (default 0).
    n_clusters : int or None
        With ``cluster=``: the number of clusters G the standard error is robust over
        (None otherwise).
    cluster_tables : ndarray or None
        With ``cluster=``: the (G, K, K) stack of one table per cluster (their sum is
        ``table``; read-only), used by the cluster bootstrap.

    Notes
    -----
    As in SAS and statsmodels, the test of kappa = 0 uses ``standard_error_null`` while the
    asymptotic interval uses ``standard_error``; near the boundary a 95% interval can contain
    0 while ``pvalue < 0.05`` (or the reverse). The interval is dual to the Wald test
    ``|kappa - kappa0| / standard_error``. The formulas are in the Notes
    of :func:`wkappa.kappa_test_from_table`.

    **Small samples.** The asymptotic (Wald) interval, the default because it is what SAS, Stata
    and statsmodels print, covers less than its level when n < 100 pairs (a 95% interval covers
    the true kappa 91-93% of the time in a median design at n = 30-50, and 47-92% (median 67%)
    when the population kappa is 0.95 and n = 30), and also up to n = 1000 when kappa >= 0.8.
    There, use ``confidence_interval(method='score')``, which stayed within 93-97% in 1,203
    of the 1,232 non-degenerate designs at n >= 30 of the coverage study in BENCHMARKS.md
    (below it in 2, where a sample holds about one disagreeing pair; conservative, at most
    0.977, in the others); :meth:`explain` says when this applies.

    Examples
    --------
    >>> import wkappa as wk
    >>> result = wk.kappa_test_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], weights="linear")
    >>> round(result.statistic, 4), round(result.standard_error, 4)
    (0.4701, 0.1457)
    >>> round(result.standard_error_null, 4), round(result.test_statistic, 4)
    (0.1426, 3.2971)
    >>> round(result.pvalue, 4), result.test_distribution, result.test_df
    (0.001, 'normal', None)
    >>> result.to_dict()["interpretation"]
    'moderate'
    """

    statistic: float
    standard_error: float
    standard_error_null: float
    test_statistic: float
    pvalue: float
    n: int | float
    alternative: Alternative
    labels: tuple[Any, ...]
    weights: str
    weight_matrix: np.ndarray = field(repr=False)
    table: np.ndarray = field(repr=False)
    kappa0: float = 0.0
    n_clusters: int | None = None
    cluster_tables: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "weight_matrix", readonly(self.weight_matrix))
        object.__setattr__(self, "table", readonly(self.table))
        if self.cluster_tables is not None:
            object.__setattr__(self, "cluster_tables", readonly(self.cluster_tables))

    @property
    def expected_table(self) -> np.ndarray:
        """E = outer(row sums, column sums) / n, shape (K, K) (zeros when n = 0)."""
        counts = self.table.astype(np.float64)
        n = counts.sum()
        if n == 0:
            return np.zeros_like(counts)
        expected: np.ndarray = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / n
        return expected

    @property
    def test_distribution(self) -> Literal["normal", "t"]:
        """The distribution ``pvalue`` refers ``test_statistic`` to: ``'normal'`` (a z
        statistic), or ``'t'`` with ``cluster=`` (Student's t on :attr:`test_df` degrees of
        freedom)."""
        return "normal" if self.n_clusters is None else "t"

    @property
    def test_df(self) -> int | None:
        """The degrees of freedom of the t distribution of the test, G - 1 with ``cluster=``
        (G = ``n_clusters``); None for the normal distribution."""
        return None if self.n_clusters is None else self.n_clusters - 1

    @property
    def interpretation(self) -> str:
        """Landis & Koch (1977) band: poor (< 0), slight, fair, moderate, substantial,
        almost perfect; 'undefined' for nan."""
        return interpretation(self.statistic)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: KappaIntervalMethod = "asymptotic",
    ) -> ConfidenceInterval:
        """A confidence interval for kappa, two-sided or one-sided as ``alternative``.

        With ``alternative='greater'`` the interval is ``(low, 1)``, ``low`` the one-sided
        lower limit at ``confidence_level``; with 'less' it is ``(-inf, high)`` (kappa is at
        most 1 but has no lower bound common to every weight matrix), as scipy.stats does.
        For every method the one-sided limit is the matching limit of the two-sided interval
        at level ``2 * confidence_level - 1``.

        Parameters
        ----------
        confidence_level : float, default 0.95
            Nominal coverage, strictly between 0 and 1 (above 0.5 for a one-sided interval).
        method : str or BootstrapMethod, default 'asymptotic'
            One of 'asymptotic', 'score', 'fisher-z', 'bootstrap', 'percentile', 'bca'.
            'asymptotic': ``statistic ± z * standard_error`` (normal, as SAS and statsmodels;
            not clipped to [-1, 1]). 'score': the small-sample interval (the kappas a
            large-sample test with the variance evaluated under the hypothesised kappa does
            not reject; formula in the Notes), deterministic. 'fisher-z': another
            small-sample interval (half a pair of
            chance agreement, Fisher's z scale, Student's t with n - 1 degrees of freedom;
            formula in the Notes), deterministic and inside (-1, 1). 'bootstrap'
            (= 'percentile') and 'bca' use ``BootstrapMethod()`` defaults (9999 replicates,
            fresh entropy); pass a :class:`BootstrapMethod` to set the replicates or the seed.
            With clustered ratings (``kappa_test(..., cluster=...)``): 'asymptotic' is
            ``statistic ± t_{G-1} * standard_error`` with the cluster-robust standard error,
            the bootstrap resamples whole clusters, and 'score' / 'fisher-z' are refused.

        Returns
        -------
        ConfidenceInterval
            ``low, high`` plus the level, method and bootstrap counts.

        Notes
        -----
        The 'score' interval is the set of kappa0 with

        .. math::

            (\\hat\\kappa - \\kappa_0)^2 \\le z_{(1+\\gamma)/2}^2 \\, V(P_{\\kappa_0}) / n,

        where ``V`` is the Fleiss-Cohen-Everitt variance and ``P_kappa0`` the table with kappa
        ``kappa0`` on the path from the observed proportions towards chance agreement (same
        margins) or towards perfect agreement (the small-samples user guide gives the
        construction). Like Wilson's (1927) interval for a proportion, it does
        not collapse at kappa = 1, and its coverage stays near the level at n = 30-50 where the
        asymptotic interval's does not (BENCHMARKS.md).

        The 'fisher-z' interval of n pairs, with ``kappa_s = kappa * n / (n + 1/2)`` (the kappa
        of the table plus half a pair of chance agreement, ``O + E / (2n)``) and ``s`` that
        table's Fleiss-Cohen-Everitt standard error, is

        .. math::

            \\tanh\\Big(\\operatorname{atanh}(\\kappa_s) \\pm t_{n-1,(1+\\gamma)/2}\\,
            \\frac{s}{1 - \\kappa_s^2}\\Big),

        widened where needed to contain ``statistic`` (the small-samples user guide gives the
        sources). In the coverage study of
        BENCHMARKS.md it keeps its promise at small n where the asymptotic interval does not.

        Examples
        --------
        >>> import wkappa as wk
        >>> result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
        >>> low, high = result.confidence_interval(0.90)
        >>> round(low, 4), round(high, 4)
        (0.3837, 0.7879)
        >>> small = result.confidence_interval(0.90, method="score")
        >>> round(small.low, 4), round(small.high, 4), small.method
        (0.3527, 0.7507, 'score')
        >>> other = result.confidence_interval(0.90, method="fisher-z")
        >>> round(other.low, 4), round(other.high, 4), other.method
        (0.3368, 0.7496, 'fisher-z')

        A one-sided test gives the one-sided interval at the same level:

        >>> greater = wk.kappa_test_from_table([[20, 5], [4, 15]], alternative="greater")
        >>> low, high = greater.confidence_interval(0.95)
        >>> round(low, 4), high
        (0.3837, 1.0)
        """
        how = check_method(method)
        if self.cluster_tables is not None and how in ("score", "fisher-z"):
            raise WkappaError(
                f"`method={how!r}` treats the pairs as independent and cannot be used with "
                f"clustered ratings ({self.n_clusters} clusters). Hint: use 'asymptotic' (the "
                "cluster-robust standard error) or 'bootstrap' / BootstrapMethod(...), which "
                "resamples whole clusters."
            )
        if self._single_pair():  # every interval is nan, as the one warning when built said
            name = how.method if isinstance(how, BootstrapMethod) else how
            return sided(
                lambda level: ConfidenceInterval(math.nan, math.nan, level, name),
                confidence_level,
                self.alternative,
                KAPPA_RANGE,
            )
        undefined: list[bool] = []  # whether the computed two-sided interval is nan

        def two_sided(level: float) -> ConfidenceInterval:
            computed = self._two_sided(level, how)
            undefined.append(math.isnan(computed.low) or math.isnan(computed.high))
            return collapsed(computed, self.statistic)  # (which warns where it collapses)

        interval = sided(two_sided, confidence_level, self.alternative, KAPPA_RANGE)
        if how in ("score", "fisher-z") and math.isfinite(self.statistic) and undefined[0]:
            warn_undefined_interval(how, self.n, self.statistic)
        return interval

    def _single_pair(self) -> bool:
        """One pair, unclustered, of a defined kappa: no interval at all (warned when built,
        by ``kappa_warnings.warn_untestable``)."""
        return self.cluster_tables is None and self.n == 1 and math.isfinite(self.statistic)

    def _two_sided(self, level: float, how: IntervalName | BootstrapMethod) -> ConfidenceInterval:
        if how == "score":
            low, high = score_limits(self.table, self.weight_matrix, level, self.statistic)
            return ConfidenceInterval(float(low), float(high), level, "score")
        if how == "fisher-z":
            low, high = fisher_z_limits(self.table, self.weight_matrix, level, self.statistic)
            return ConfidenceInterval(float(low), float(high), level, "fisher-z")
        if how == "asymptotic":
            quantile = (
                norm_ppf(0.5 + level / 2)
                if self.n_clusters is None
                else t_ppf(0.5 + level / 2, self.n_clusters - 1.0)
            )
            half = quantile * self.standard_error
            return ConfidenceInterval(
                self.statistic - half, self.statistic + half, level, "asymptotic"
            )
        assert isinstance(how, BootstrapMethod)
        if math.isnan(self.statistic):
            return ConfidenceInterval(
                math.nan, math.nan, level, how.method, how.n_resamples, how.n_resamples
            )
        if (
            self.cluster_tables is None
            and bootstrap.too_few_items(self.n, how.n_resamples, pvalue=False) is not None
        ):  # nothing drawn
            return ConfidenceInterval(math.nan, math.nan, level, how.method)
        rng = make_rng(how.rng)
        if self.cluster_tables is None:
            outcome = bootstrap.table_interval(
                self.table, self.weight_matrix, self.statistic, level, how.n_resamples,
                how.method, rng,
            )  # fmt: skip
        else:  # clusters resampled, not pairs; BCa's acceleration from leaving one out
            tables = self.cluster_tables
            outcome = bootstrap.replicate_interval(
                cluster_bootstrap_kappas(tables, self.weight_matrix, how.n_resamples, rng),
                lambda: (self.statistic, *cluster_jackknife(tables, self.weight_matrix)),
                level,
                how.method,
            )
        return ConfidenceInterval(
            outcome.low, outcome.high, level, how.method, how.n_resamples, outcome.n_undefined
        )

    def explain(
        self, confidence_level: float = 0.95, *, method: KappaIntervalMethod = "asymptotic"
    ) -> str:
        """The worked example's story: O, W, E, the weighted sums, kappa and the costly cells.

        Parameters
        ----------
        confidence_level, method : float, str or BootstrapMethod
            Those of :meth:`confidence_interval` (0.95, 'asymptotic'): the inference part
            shows that interval and names a score, Fisher-z or bootstrap one.

        Returns
        -------
        str
            O (counts), W, E = outer(row sums, column sums) as the worked example prints it, both
            normalised to sum 1, numerator ``sum(W*O)``, denominator ``sum(W*E)``, kappa, the
            standard errors, the interval and the cells that lose the most agreement,
            ``W * (O - E) / n``.

        Examples
        --------
        >>> import wkappa as wk
        >>> result = wk.kappa_test_from_table([[20, 5], [4, 15]], weights="unweighted")
        >>> text = result.explain(0.9, method="score")
        >>> print(next(line for line in text.splitlines() if "CI" in line).strip())
        ... # doctest: +NORMALIZE_WHITESPACE
        standard error = 0.122854, 90% CI [0.352739, 0.750668] (score interval, the
        variance under each kappa0)
        >>> low, high = result.confidence_interval(0.9, method="score")
        >>> print(f"[{low:.6g}, {high:.6g}]")
        [0.352739, 0.750668]
        """
        from .explain import explain_result

        return explain_result(self, confidence_level, method)

    def plot(
        self, *, axes: Any = None, cmap: str = "Blues", rater_names: tuple[str, str] | None = None
    ) -> Any:
        """Heatmaps of O, E and the per-cell lost agreement ``W * (O - E) / n``.

        Needs matplotlib (``pip install 'wkappa[plot]'``).

        Parameters
        ----------
        axes : sequence of three matplotlib Axes, optional
            Where to draw; by default a new figure with three panels.
        cmap : str, default 'Blues'
            Colour map of the O and E panels (the contribution panel is diverging).
        rater_names : (str, str), optional
            Axis labels for rater A (rows) and rater B (columns); default
            ``('y_true', 'y_pred')``.

        Returns
        -------
        ndarray of three matplotlib Axes
            ``axes[0].figure`` is the Figure.
        """
        from .plot import plot_result

        return plot_result(
            self, axes=axes, cmap=cmap, rater_names=rater_names or ("y_true", "y_pred")
        )

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the asymptotic interval."""
        ci = self.confidence_interval(confidence_level)
        return json_fields(self, _KAPPA_FIELDS, confidence_interval=ci)

    def __repr__(self) -> str:
        ci = interval_repr(quiet_interval(self.confidence_interval), self.alternative)
        return (
            f"KappaResult(statistic={self.statistic:.6g}, "
            f"standard_error={self.standard_error:.6g}, "
            + (
                f"cluster-robust over {self.n_clusters} clusters, "
                if self.n_clusters is not None
                else ""
            )
            + f"{ci}, test_statistic={self.test_statistic:.6g}, "
            f"pvalue={self.pvalue:.6g}, alternative={self.alternative!r}, "
            + (f"kappa0={self.kappa0:g}, " if self.kappa0 != 0.0 else "")
            + f"n={self.n:g}, "
            f"K={len(self.labels)}, weights={self.weights!r}, "
            f"interpretation={self.interpretation!r})"
        )


@dataclass(frozen=True, eq=False, repr=False)
class PairedKappaResult:
    """Two predictors' kappas against the same truth, and the bootstrap test of their
    difference (made by :func:`~wkappa.paired_kappa_test`).

    Attributes
    ----------
    statistic_a, statistic_b : float
        Kappa of prediction A and of prediction B against the truth.
    difference : float
        ``statistic_a - statistic_b``.
    pvalue : float
        Bootstrap p-value of H0: equal kappas against ``alternative`` (see Notes of
        :func:`~wkappa.paired_kappa_test`).
    n : int or float
        Number of items.
    labels : tuple
        The K categories.
    weights : str
        Weight name ('custom' for a matrix).
    confidence_level : float
        The level :meth:`confidence_interval` uses by default (``confidence_level`` of
        :func:`~wkappa.paired_kappa_test`).
    n_resamples : int
        Bootstrap replicates drawn.
    n_clusters : int or None
        With ``cluster=``: the number of clusters G the bootstrap resampled (None otherwise).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        The side of :meth:`confidence_interval` ('greater': ``(low, inf)``, 'less':
        ``(-inf, high)``; the difference of two kappas has no fixed bound common to every
        weight matrix); also the H1 of ``pvalue``.

    Examples
    --------
    >>> import wkappa as wk
    >>> truth = [0, 1, 2, 3, 4] * 20
    >>> a = [0, 1, 2, 3, 3] * 20
    >>> b = [1, 1, 2, 2, 4] * 20
    >>> result = wk.paired_kappa_test(truth, a, b, n_resamples=999, rng=0)
    >>> result.difference > 0, result.confidence_interval().n_resamples
    (True, 999)

    :meth:`confidence_interval` takes another level (the narrower interval lies inside):

    >>> wide, narrow = result.confidence_interval(), result.confidence_interval(0.5)
    >>> bool(wide.low <= narrow.low <= narrow.high <= wide.high)
    True
    """

    statistic_a: float
    statistic_b: float
    difference: float
    pvalue: float
    n: int | float
    labels: tuple[Any, ...]
    weights: str
    confidence_level: float
    n_resamples: int
    _differences: np.ndarray = field(repr=False)
    n_clusters: int | None = None
    alternative: Alternative = "two-sided"

    def confidence_interval(
        self,
        confidence_level: float | None = None,
        *,
        method: ExpandedPercentile = "expanded-percentile",
    ) -> ConfidenceInterval:
        """The paired bootstrap interval of the difference: the expanded percentile interval.

        The bootstrap differences' quantiles at
        ``Phi(± sqrt(n / (n - 1)) t_{n-1,(1+level)/2})`` (Hesterberg 2015; n is the number of
        items, or of clusters with ``cluster=``; the plain percentile interval undercovers at
        small n), ``method='expanded-percentile'``. Replicates where either kappa is undefined
        are dropped and counted in ``n_undefined``. ``pvalue`` is this interval inverted.

        Parameters
        ----------
        confidence_level : float, optional
            Defaults to the level given to :func:`~wkappa.paired_kappa_test` (0.95).
        method : {'expanded-percentile'}
            The only method (the keyword every result's ``confidence_interval`` takes).

        Returns
        -------
        ConfidenceInterval

        Examples
        --------
        See :class:`~wkappa.PairedKappaResult` (its example ends with this method).
        """
        check_only_method(method, "expanded-percentile", "the interval of a bootstrap difference")
        n = self.n if self.n_clusters is None else self.n_clusters
        return sided(
            lambda level: bootstrap.expanded_interval(
                self._differences, self.difference, level, n, self.n_resamples
            ),
            self.confidence_level if confidence_level is None else confidence_level,
            self.alternative,
            DIFFERENCE_RANGE,
        )

    def explain(
        self,
        confidence_level: float | None = None,
        *,
        method: ExpandedPercentile = "expanded-percentile",
    ) -> str:
        """The comparison in words and numbers.

        Parameters
        ----------
        confidence_level, method : float or None, {'expanded-percentile'}
            As in :meth:`confidence_interval`: the difference's interval at this level (None:
            the test's own) and the reading of the p-value at 1 - level.

        Returns
        -------
        str
            The two kappas with their Landis & Koch bands, the difference, how the bootstrap
            resampled (items or clusters), the interval at ``confidence_level`` with its
            method, the replicates dropped as undefined, and the p-value read at
            ``1 - confidence_level``: a difference shown, or not shown (which is not a
            proof of equal kappas), and whether it is the smallest p-value the resamples
            can show.

        Examples
        --------
        >>> import wkappa as wk
        >>> truth = [0, 1, 2, 3, 4] * 20
        >>> result = wk.paired_kappa_test(
        ...     truth, [0, 1, 2, 3, 3] * 20, [1, 1, 2, 2, 4] * 20, n_resamples=999, rng=0
        ... )
        >>> print(result.explain())  # doctest: +NORMALIZE_WHITESPACE
        Two predictions, A and B, against the same truth: weighted kappa (weights =
          'quadratic'), n = 100 items, K = 5 categories [0, 1, 2, 3, 4]
          kappa of A        0.941176 (almost perfect, Landis & Koch)
          kappa of B        0.875 (almost perfect, Landis & Koch)
          difference A - B  0.0661765  (above 0: A agrees with the truth more than B
            does)
        Paired bootstrap: 999 resamples of the 100 items; a resample keeps each item's
          truth, A and B together, so both kappas come from the same items.
          95% interval [0.0142393, 0.12811] of A - B (expanded percentile, Hesterberg
            2015: the bootstrap quantiles widened for n items, as the plain percentile
            interval is too narrow at small n)
          H0: equal kappas, p = 0.005926 (two-sided; the interval inverted: 0 lies
            outside the level 1 - alpha interval exactly when p < alpha)
          Read: the kappas differ at the 5% level (p < 0.05): A's is higher than B's.
          Items are taken as independent: when they come in groups (patients, tasks),
            pass cluster= to resample whole groups (the interval is too narrow
            otherwise).
        """
        from .explain import explain_paired

        return explain_paired(self, self.confidence_interval(confidence_level, method=method))

    def __repr__(self) -> str:
        ci = quiet_interval(self.confidence_interval)
        return (
            "PairedKappaResult("
            + difference_repr(self, "statistic_a", "statistic_b")
            + f", n={self.n:g}, K={len(self.labels)}, "
            f"weights={self.weights!r}, n_resamples={ci.n_resamples}, "
            f"n_undefined={ci.n_undefined}"
            + (
                f", cluster bootstrap over {self.n_clusters} clusters)"
                if self.n_clusters is not None
                else ")"
            )
        )

    def to_dict(self, confidence_level: float | None = None) -> dict[str, Any]:
        """JSON-ready summary (nan becomes None) with the interval at ``confidence_level``
        (default: the level the test was run at)."""
        ci = self.confidence_interval(confidence_level)
        return json_fields(self, _PAIRED_FIELDS, confidence_interval=ci)
