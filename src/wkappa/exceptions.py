"""Exceptions and warnings raised by wkappa.

Every error wkappa raises for bad input is a :class:`WkappaError`, a subclass of
:class:`ValueError`, so ``except ValueError`` keeps working. Errors about the *kind* of an
argument (a dict where an array was expected, anything but a ``str`` for a string option
such as ``method``) are :class:`WkappaTypeError`, which is also a :class:`TypeError`.
Messages name the parameter and, where a fix is likely, end in a ``Hint:``.
"""

from __future__ import annotations

__all__ = [
    "FewClustersWarning",
    "PerfectAgreementWarning",
    "PlanApproximationWarning",
    "UndefinedKappaWarning",
    "UndefinedReliabilityWarning",
    "WkappaError",
    "WkappaTypeError",
]


class WkappaError(ValueError):
    """Bad input or options: the message names the parameter and, where possible, the fix."""


class WkappaTypeError(WkappaError, TypeError):
    """An argument of the wrong kind (for example a dict where ratings were expected)."""


class UndefinedKappaWarning(RuntimeWarning):
    """Kappa is undefined because the expected weighted disagreement is zero.

    This happens when both raters use a single category (the same one), when no rating is left
    (``n = 0``), or when the weight matrix is zero wherever the expected table is not. What is
    returned then is set by ``zero_division``.
    """


class UndefinedReliabilityWarning(UndefinedKappaWarning):
    """An intraclass or concordance correlation is undefined (0 / 0).

    This happens when every rating is the same (no variance at all), so that the mean squares
    of the ICC, or the variances of the concordance correlation, are all zero; nan is
    returned. The concordance correlation also warns when it is defined but its interval and
    test are not (for example with two items), and returns nan for those. It subclasses
    :class:`UndefinedKappaWarning`, so one warnings filter covers every undefined statistic
    of wkappa.
    """


class FewClustersWarning(UserWarning):
    """A clustered analysis (``cluster=``) has fewer than 8 clusters.

    With G clusters the cluster-robust standard error has G - 1 degrees of freedom, and a
    cluster bootstrap has only ``C(2G - 1, G)`` distinct resamples (3 with 2 clusters, 35 with
    4), so the intervals and p-values of ``kappa_test``, ``agreement``, ``paired_kappa_test``
    and ``rater_vs_panel`` with ``cluster=`` cover less than their level says. The estimate
    itself is unaffected. The remedy is more clusters; otherwise report the number of clusters
    beside the interval. The threshold comes from a coverage study (the user guide's
    "Clustered and stratified designs", ``benchmarks/few_clusters_study.py``).
    """


class PerfectAgreementWarning(UserWarning):
    """Kappa is 1 (no pair disagrees) and the default 'asymptotic' interval is [1, 1].

    The asymptotic standard error is 0 at perfect agreement (as SAS, statsmodels and R's irr
    give it), so the interval states a certainty that a sample of pairs cannot give: at true
    kappas of 0.97-0.99 and 20-50 pairs, such intervals covered the truth 13-63% of the time
    (the user guide's "Small samples", ``benchmarks/near_perfect_study.py``). The interval is
    still returned; the remedy is ``confidence_interval(method='score')``, whose lower limit
    is below 1.
    """


class PlanApproximationWarning(UserWarning):
    """A study plan lies outside the range where its formula's approximation holds.

    ``kappa_sample_size`` and ``kappa_power`` with ``method='goodness-of-fit'`` (Donner &
    Eliasziw's chi-square formulas) warn when a cell of the common-kappa model is more than 3
    times as likely under ``kappa1`` as under ``kappa0`` (``kappa0 = 0`` with several raters
    or a rare category). There the formula's n and power are too optimistic: such plans gave
    wkappa's test 0.02-0.69 power where 0.8 was asked (the reference page "Study planning
    methods", ``benchmarks/planning_gof_range.py``). The remedy is ``method='simulation'``
    (or ``method='asymptotic'`` for two raters). ``kappa_sample_size`` with
    ``method='asymptotic'`` or ``'max-variance'`` warns when its n, at which the rarest category
    expects fewer than 15 ratings, meets the power (or assurance) asked in a share of 2,000
    simulated studies more than 0.05 below it: with ``kappa0 = 0`` and a rare category such
    plans gave 0.33-0.75 where 0.8 was asked (``benchmarks/planning_small_n.py``); the remedy
    is ``method='simulation'``. ``kappa_power`` runs the same check on the power (and
    assurance) its formula states for the given n. ``wkappa plan`` prints the warning on
    stderr.
    """
