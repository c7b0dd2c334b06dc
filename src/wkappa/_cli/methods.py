"""The methods sentences of the HTML reports (``score``, ``agree``, ``judge``, ``compare``,
``thresholds``, ``plan``): what was computed, on what, with which standard error, interval and
test, by which software on which date, and the result; each with the keys of the references it
cites (:data:`provenance.REFERENCES`)."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Iterable
from typing import Any

from .._core import GWET_WEIGHTS
from .._stats import (
    DECIMALS,
    bound_name,
    level_percent,
    p_phrase,
    probability_text,
    smallest_pvalue,
    statistic_text,
)
from .io import file_name
from .labels import label_text
from .output import (
    ON_A_THRESHOLD,
    TABLE_INTERVALS,
    THRESHOLD_KAPPA_DECIMALS,
    RowCount,
    format_bound,
    format_count,
    format_df,
    format_number,
    weights_text,
)
from .provenance import Provenance, interval_words, resampling_words
from .score_output import (
    ScoreRun,
    goodness_of_fit,
    missing_group,
    pooled,
    pooled_interval,
)

__all__ = [
    "agreement_methods",
    "agreement_table_references",
    "compare_methods",
    "dropped_clause",
    "interval_clause",
    "judge_methods",
    "pairwise_weights",
    "plan_methods",
    "score_methods",
    "thresholds_methods",
    "weights_label",
]

# A coefficient of ``wkappa agree`` -> its name in a sentence and the references it cites.
_COEFFICIENTS = {
    "fleiss": ("Fleiss' kappa (Fleiss 1971)", ("fleiss1971",)),
    "conger": ("Conger's kappa (Conger 1980)", ("conger1980",)),
    "gwet": ("Gwet's AC (Gwet 2008)", ("gwet2008",)),
    "brennan_prediger": (
        "the Brennan-Prediger coefficient (Brennan and Prediger 1981, as defined by Gwet 2014)",
        ("brennan1981",),
    ),
    "krippendorff": ("Krippendorff's alpha (Krippendorff 2019)", ("krippendorff2019",)),
    "percent": ("the percent agreement", ()),
}


def weights_label(result: Any) -> str:
    """The weights of an ``agree`` result in words: Krippendorff's level (``ordinal level``);
    alpha with one of Gwet's weights as its metric ``Gwet's ordinal weights`` (his ordinal
    weights are not Krippendorff's ordinal metric); otherwise ``quadratic weights`` or
    ``unweighted``."""
    if getattr(result, "level", None) is not None:
        return f"{result.level} level"
    if result.coefficient == "krippendorff" and result.weights in GWET_WEIGHTS:
        return f"Gwet's {result.weights} weights"
    return weights_text(result.weights)


def pairwise_weights(result: Any, short: bool = False) -> str:
    """The two-rater kappas of an ``agree`` result's ``pairwise()`` in words: Cohen's kappa
    with the result's weights. Krippendorff's level is alpha's metric, not a weighting of
    kappa: its pairwise kappas take the weights ``1 - delta / max delta`` of that metric
    (the nominal metric's are no weights). ``short``: for a plot's title."""
    level = getattr(result, "level", None)
    if level is None or level == "nominal":
        return f"Cohen's kappa ({weights_text('unweighted' if level else result.weights)})"
    if short:
        return f"Cohen's kappa, weights of Krippendorff's {level} metric"
    return (
        f"Cohen's weighted kappa (weights 1 - δ/max δ, δ Krippendorff's {level} metric as "
        "alpha computes it on these ratings)"
    )


# Why a kappa-type coefficient is undefined, in a methods sentence.
_UNDEFINED = "no disagreement is expected by chance: every rating is in one category"


def _found(name: str, result: Any, level: str, low: float, high: float) -> str:
    """The result in the methods sentence: the estimate, its interval (a one-sided one's
    bound) and p; or why it is undefined."""
    if math.isnan(result.statistic):
        return f"{name} is undefined on these ratings ({_UNDEFINED})."
    interval = format_bound(low, high, result.alternative)
    estimate = format_number(result.statistic)
    return f"{name} = {estimate}, {level} {interval}, {p_phrase(result.pvalue)}."


def interval_clause(level: str, words: str, alternative: str) -> str:
    """``95% confidence interval is <words>``: how the interval named ``level``
    (:func:`wkappa._stats.bound_name`) was computed; a one-sided bound is its end of a
    symmetric interval (``estimate - t(n - 1) × standard error`` for 'greater') or ``is that
    of`` the interval ``words`` name."""
    if alternative == "two-sided":
        return f"{level} is {words}"
    greater = alternative == "greater"  # the bound is one end: estimate - t × SE
    words = words.replace("estimate ±", "estimate -" if greater else "estimate +")
    words = words.replace(", its upper end capped at 1", "" if greater else ", capped at 1")
    if words.startswith("estimate"):
        return f"{level} is {words}"
    return f"{level} is that of {words}"


# An option named in parentheses in a row count's reason: "(--nan-policy omit)".
_OPTION_IN_REASON = re.compile(r"\s*\([^()]*--[a-z][^()]*\)")


def dropped_clause(rows: RowCount | None) -> str:
    """``; 14 of 300 file rows left out: a missing rating``: the rows a methods sentence
    says were left out and why, in a paper's words (without the option that chose it)."""
    if rows is None or not rows.dropped:
        return ""
    reason = _OPTION_IN_REASON.sub("", rows.reason)
    return f"; {rows.dropped:,} of {rows.read:,} file rows left out: {reason}"


def _interval(method: str, n_resamples: int, args: argparse.Namespace) -> tuple[str, list[str]]:
    """The interval's method in words (with its resamples and seed) and its references."""
    cluster = getattr(args, "cluster", None)
    if cluster is not None and method == "asymptotic":
        return "estimate ± t(G - 1) × the cluster-robust standard error", []
    words, cited = interval_words(method)
    if method not in TABLE_INTERVALS and n_resamples:
        unit = f"clusters of {cluster}" if cluster else ""
        kind = "cluster " if cluster else ""
        words = words.replace("bootstrap", f"{kind}bootstrap", 1)
        words += f", with {resampling_words(n_resamples, getattr(args, 'seed', None), unit)}"
    return words, list(cited)


def _kappa_words(weights: str) -> tuple[str, list[str]]:
    """Cohen's (weighted) kappa in a sentence, with ``weights``, and its reference."""
    if weights == "unweighted":
        return "Cohen's kappa (Cohen 1960)", ["cohen1960"]
    return f"Cohen's weighted kappa with {weights} weights (Cohen 1968)", ["cohen1968"]


def _bootstrap_p(pvalue: float, n_resamples: int, units: float, alternative: str) -> str:
    """A bootstrap p-value after its letter; at the smallest value the resamples show, the
    bound ``p <= x`` that the text tables write too (:func:`output.bootstrap_pvalue`)."""
    floor = smallest_pvalue(n_resamples, units, alternative)
    return p_phrase(max(pvalue, floor), bound=pvalue <= floor)


def score_methods(
    run: ScoreRun, args: argparse.Namespace, provenance: Provenance
) -> tuple[str, list[str]]:
    """The methods sentence of a ``score`` report and the references it cites."""
    overall = run.overall
    result = overall.result
    statistic, cited = _kappa_words(result.weights)
    pairs = f"{format_count(result.n)} rated pairs"
    if run.weight_column is not None:
        pairs = (
            f"a weighted total of {format_count(result.n)} pairs (frequency weights from the "
            f"column {run.weight_column})"
        )
    groups = f", overall and within each value of {run.by}" if run.by else ""
    if run.cluster is not None:
        clusters = "" if result.n_clusters is None else f" {result.n_clusters:,}"
        error = (
            f"The standard error is cluster-robust over the{clusters} clusters of {run.cluster} "
            "(Obuchowski 1998; Yang and Zhou 2014)"
        )
        test, against = "the Wald test", ", on t with G - 1 df"
        cited += ["obuchowski1998", "yang2014"]
    else:
        error = "The standard error is that of Fleiss, Cohen and Everitt (1969)"
        test, against = "the z test", ", with the standard error under the null hypothesis"
        cited.append("fleiss1969")
    level = bound_name(overall.level, result.alternative)
    words, more = _interval(overall.method, overall.n_resamples, args)
    interval = interval_clause(level, words, result.alternative)
    sentence = (
        f"Agreement between {run.true} (rater A) and {run.pred} (rater B) was measured with "
        f"{statistic} on {pairs}{groups} (file {run.name}{dropped_clause(run.rows)}). {error}; the "
        f"{interval}; the p-value is that of {test} of kappa = {result.kappa0:g} "
        f"({result.alternative}){against}. Computed with {provenance.software} on "
        f"{provenance.date}."
    )
    found = _found("Kappa", result, level, overall.low, overall.high)
    pooled, pooled_cited = _pooled(run)
    return f"{sentence} {found}{pooled}", [*cited, *more, *pooled_cited]


def _pooled(run: ScoreRun) -> tuple[str, list[str]]:
    """The ``--by`` groups as strata, in the methods sentence: the pooled kappa and the test
    of equal kappas that the console prints under the groups, and the references they
    cite."""
    combined = None if run.by is None else pooled(run)
    if combined is None:
        return "", []
    level = run.overall.level
    left = [
        label_text(v) for v, used in zip(combined.strata, combined.used, strict=True) if not used
    ]
    # the pairs pooling keeps a group whose standard error is 0 (see StratifiedKappaResult.used)
    why = ["an undefined kappa", *([] if run.pooling == "pairs" else ["a standard error of 0"])]
    why += ["a single cluster"] if run.cluster else []
    reason = ", ".join(why[:-1]) + f" or {why[-1]}" if len(why) > 1 else why[0]
    named = ", ".join(left) if len(left) <= 5 else f"{len(left)} groups"
    out = [f"{named} left out: {reason}"] if left else []
    missing = missing_group(run.groups)
    if missing is not None:  # the pairs without a value of --by are not a stratum
        out.append(f"the {format_count(missing.result.n)} pairs without a value left out")
    out_text = f" ({'; '.join(out)})" if out else ""
    variances = " (each group's cluster-robust variance)" if run.cluster else ""
    weights = f"inverse-variance weights{variances}"
    if run.pooling == "pairs":  # SAS's test of equal kappas whatever the pooling
        weights = "each group's number of pairs as weights" + (
            " (each group's cluster-robust variance in its standard error and the test)"
            if run.cluster
            else ""
        )
    sentence = (
        f" Across the values of {run.by}{out_text}, the kappas were pooled with "
        f"{weights} and their equality tested by the chi-square test of "
        "homogeneity (as in SAS PROC FREQ; SAS Institute 2023): pooled kappa = "
        f"{format_number(combined.statistic)}, {pooled_interval(combined, level, 'sentence')} "
        f"({_pooled_distribution(combined.test_df)}); "
        f"chi-square = {statistic_text(combined.homogeneity_statistic)}, "
        f"df = {format_df(combined.homogeneity_df)}, {p_phrase(combined.homogeneity_pvalue)}."
    )
    cited = ["sas_freq"]
    fit = goodness_of_fit(run.groups, combined)
    if fit is not None:  # binary ratings: the console prints this test too
        sentence += (
            " The goodness-of-fit test of equal kappas of Donner, Eliasziw and Klar (1996) "
            f"gave X² = {statistic_text(fit.homogeneity_statistic)}, "
            f"df = {format_df(fit.homogeneity_df)}, {p_phrase(fit.homogeneity_pvalue)}."
        )
        cited.append("donner1996")
    return sentence, cited


def _pooled_distribution(df: int | None) -> str:
    """The reference distribution of the pooled kappa's Wald interval, in a sentence: t on
    the clusters less the groups for the pairs pooling of clustered groups, else normal."""
    if df is None:
        return "Wald, normal"
    return f"Wald, on t with {format_df(df)} df: the clusters less the groups"


def agreement_methods(
    chosen: Any,
    raters: list[str],
    rows: RowCount,
    args: argparse.Namespace,
    provenance: Provenance,
) -> tuple[str, list[str]]:
    """The methods sentence of an ``agree`` report (``chosen``: the report's Coefficient)
    and the references it cites."""
    result = chosen.result
    name, cited = _COEFFICIENTS.get(result.coefficient, (result.name, ()))
    if getattr(result, "level", None) is not None:  # Krippendorff's metric, his reference
        weights = f" at the {result.level} level of measurement"
    elif result.weights == "unweighted":
        weights = ""
    else:
        weights = f" with {weights_label(result)}"
    cluster = getattr(args, "cluster", None)
    if cluster is not None:
        clusters = f" {result.n_clusters:,}" if getattr(result, "n_clusters", None) else ""
        error = f"cluster-robust over the{clusters} clusters of {cluster}"
    else:
        error = "by Gwet's linearisation (Gwet 2014)"
    level = bound_name(chosen.level, result.alternative)
    if chosen.method == "asymptotic":  # t on G - 1 df over clusters, n - 1 over items
        df = "G - 1" if cluster is not None else "n - 1"
        words = f"estimate ± t({df}) × standard error, its upper end capped at 1"
        more = list[str]()
    else:
        words, more = _interval(chosen.method, getattr(args, "bootstrap", 0) or 0, args)
    interval = interval_clause(level, words, result.alternative)
    sentence = (
        f"Agreement among {result.n_raters} raters ({_raters(raters, args)}) was "
        f"measured with {name}{weights} on {result.n_items:,} items ({result.n_ratings:,} "
        f"ratings; file {file_name(args.file)}{dropped_clause(rows)}). The standard error is "
        f"{error}; the {interval}; the p-value tests {result.name} = {result.kappa0:g} "
        f"({result.alternative}). Computed with {provenance.software} on {provenance.date}."
    )
    found = _found(result.name, result, level, chosen.low, chosen.high)
    return f"{sentence} {found}", ["gwet2014", *cited, *more]


def _raters(raters: Iterable[Any], args: argparse.Namespace) -> str:
    """``a1, a2, a3; a3 rated no item``: the raters of a methods sentence, saying which of
    them rated nothing (``args.unrated``, those :func:`.options.warn_unrated` warns of), as
    the count of raters includes them."""
    names = ", ".join(map(str, raters))
    unrated = [str(name) for name in getattr(args, "unrated", ())]
    if not unrated:
        return names
    return f"{names}; {', '.join(unrated)} gave no rating"


def agreement_table_references(chosen: Any, tabulated: Iterable[Any]) -> list[str]:
    """The references of what an ``agree`` report shows beyond its methods sentence: every
    coefficient of its table (``tabulated``: their results, None for one not computed), the
    pairwise Cohen's kappas of the ``chosen`` result (weighted or not) and Light's kappa,
    their mean."""
    cited = [key for r in tabulated if r is not None for key in _COEFFICIENTS[r.coefficient][1]]
    level = getattr(chosen, "level", None)
    plain = level == "nominal" or (level is None and chosen.weights == "unweighted")
    return [*cited, "cohen1960" if plain else "cohen1968", "light1971"]


def judge_methods(
    judged: Any, coefficient: str, args: argparse.Namespace, provenance: Provenance
) -> tuple[str, list[str]]:
    """The methods sentence of a ``judge`` report (``judged``: what ``wkappa judge`` found;
    ``coefficient``: the pairwise coefficient's name with its weights) and its references."""
    ratings, result, ci = judged.ratings, judged.result, judged.ci
    key = getattr(args, "coefficient", "conger")
    if key == "conger":  # Conger's kappa of two raters is Cohen's
        cited = ["cohen1960" if getattr(args, "weights", "") == "unweighted" else "cohen1968"]
    else:
        cited = list(_COEFFICIENTS.get(key, ("", ()))[1])
    level = bound_name(ci.confidence_level, result.alternative)
    words, more = _interval(ci.method, judged.n_resamples, args)
    panel = _raters(ratings.panel, args)
    # At the smallest p-value the resamples show, p is at most that value, as the table says.
    units = result.n_items if result.n_clusters is None else result.n_clusters
    pvalue = _bootstrap_p(float(result.pvalue), judged.n_resamples, units, result.alternative)
    interval = interval_clause(f"{level} of the difference", words, result.alternative)
    sentence = (
        f"The candidate rater {ratings.candidate} was compared with a panel of "
        f"{len(ratings.panel)} raters ({panel}) on {result.n_items:,} items (file "
        f"{ratings.name}{dropped_clause(ratings.rows)}): the mean pairwise agreement "
        f"({coefficient}) of the candidate with each member against the mean agreement among "
        "the members. "
        f"The {interval}; the p-value is that of the bootstrap test "
        f"of no difference ({result.alternative}). Computed with {provenance.software} on "
        f"{provenance.date}. The candidate's mean agreement with the members was "
        f"{format_number(result.candidate_agreement)} and the members' with each other "
        f"{format_number(result.panel_agreement)}: {_difference(result, level, ci, pvalue)}"
    )
    return sentence, [*cited, *more]


def compare_methods(
    compared: Any, args: argparse.Namespace, provenance: Provenance
) -> tuple[str, list[str]]:
    """The methods sentence of a ``compare`` report (``compared``: what ``wkappa compare``
    found, :class:`wkappa._cli.compare_report.Compared`) and the references it cites."""
    result, ci = compared.result, compared.ci
    statistic, cited = _kappa_words(result.weights)
    level = bound_name(ci.confidence_level, result.alternative)
    words, more = _interval(ci.method, result.n_resamples, args)
    interval = interval_clause(f"{level} of the difference", words, result.alternative)
    if result.n_clusters is None:
        units, drawn = result.n, "items"
    else:
        units = result.n_clusters
        drawn = f"whole clusters of {args.cluster} ({result.n_clusters:,} clusters)"
    pvalue = _bootstrap_p(float(result.pvalue), result.n_resamples, units, result.alternative)
    file = f"file {compared.name}{dropped_clause(compared.rows)}"
    items = f"the same {format_count(result.n)} items ({file})"
    weights = getattr(args, "weight_col", None)
    if weights is not None:  # each row counts as its weight says: n is their total
        items = (
            f"the same items, a weighted total of {format_count(result.n)} (frequency weights "
            f"from the column {weights}; {file})"
        )
    sentence = (
        f"Two predictions, {compared.pred_a} (A) and {compared.pred_b} (B), were each compared "
        f"with the truth {compared.true} by {statistic} on {items}, and the difference A - B "
        f"was tested by the paired bootstrap: each resample draws {drawn} with replacement, "
        "keeping each item's truth and both predictions together. The "
        f"{interval}; the p-value is that of the bootstrap test of equal kappas "
        f"({result.alternative}). Computed with {provenance.software} on "
        f"{provenance.date}. Kappa of A = {format_number(result.statistic_a)}, of B = "
        f"{format_number(result.statistic_b)}: {_difference(result, level, ci, pvalue)}"
    )
    return sentence, [*cited, *more]


def _difference(result: Any, level: str, ci: Any, pvalue: str) -> str:
    """How ``judge`` and ``compare`` report a difference: its value, interval and p-value."""
    bound = format_bound(ci.low, ci.high, result.alternative)
    return f"difference = {format_number(result.difference)}, {level} {bound}, {pvalue}."


def thresholds_methods(
    fitted: Any, args: argparse.Namespace, provenance: Provenance
) -> tuple[str, list[str]]:
    """The methods sentence of a ``thresholds`` report (``fitted``: what ``wkappa
    thresholds`` found, :class:`wkappa._cli.thresholds_report.Fitted`) and the references it
    cites."""
    result = fitted.result
    statistic, cited = _kappa_words(result.weights)
    proof = (
        "proved in exact integer arithmetic"
        if result.exact
        else "optimal up to floating-point rounding"
    )
    sentence = (
        f"The {len(result.thresholds)} cut points that turn the scores {args.score} into "
        f"{len(result.labels)} grades were chosen to maximise {statistic} against "
        f"{args.true} on {format_count(fitted.rows.used)} items (file {fitted.name}"
        f"{dropped_clause(fitted.rows)}): Dinkelbach's (1967) method with an exact dynamic program "
        "over the sorted scores, which finds the global optimum over every assignment of "
        f"grades that never falls as the score rises ({proof}; {result.n_iter} iterations); "
        f"{ON_A_THRESHOLD}. Computed with {provenance.software} on {provenance.date}. Kappa "
        "with these thresholds = "
        f"{format_number(result.statistic, THRESHOLD_KAPPA_DECIMALS)} on the items they were "
        "fitted on (higher than the kappa to expect on new data)."
    )
    return sentence, [*cited, "dinkelbach1967"]


# How ``wkappa plan`` computed, in a methods sentence (``--method``), and what it cites.
_PLAN_METHODS = {
    "asymptotic": (
        "the large-sample variance of kappa (Fleiss, Cohen and Everitt 1969)",
        ["fleiss1969"],
    ),
    "goodness-of-fit": (
        "the goodness-of-fit approach of Donner and Eliasziw (1992), as in R's kappaSize",
        ["donner1992"],
    ),
    "max-variance": (
        "the largest variance kappa can have with these marginals (Flack, Afifi, "
        "Lachenbruch and Schouten 1988)",
        ["flack1988"],
    ),
}


def _in_options(text: str) -> str:
    """A plan's words in the command's options (``method='simulation'``: ``--method
    simulation``)."""
    return text.replace("method='simulation'", "--method simulation")


def plan_methods(plan: Any, provenance: Provenance) -> tuple[str, list[str]]:
    """The methods sentence of a ``plan`` report (``plan``: a KappaPlan) and the references
    it cites."""
    method, cited = _PLAN_METHODS.get(plan.method, (plan.method, []))
    if plan.method == "simulation":  # what each simulated study was analysed with
        method = f"simulated studies ({plan.n_simulations:,} per n)"
        if plan.coefficient is None:
            method += (
                ", each analysed with the large-sample variance of kappa (Fleiss, Cohen and "
                "Everitt 1969)"
            )
            cited = ["fleiss1969"]
        else:
            method += ", each analysed with Gwet's linearised standard error (Gwet 2014)"
            cited = ["gwet2014"]
    what = "kappa"
    if plan.coefficient is not None:  # "Fleiss' kappa (Fleiss 1971)" -> "Fleiss' kappa"
        what = _COEFFICIENTS.get(plan.coefficient, (plan.coefficient, ()))[0].split(" (")[0]
    delivers = (
        f"power {probability_text(plan.power, plan.target_power)}"
        + _in_options(plan.approximation_check("power"))
        if plan.power == plan.power
        else ""
    )
    test = (
        ""
        if plan.kappa0 is None  # the interval goals run no test
        else f"{what} = {plan.kappa0:g} ({plan.alternative}, alpha {plan.alpha:g})"
    )
    if plan.goal == "power":
        goal = f"a power of {plan.target_power:g} in the test of {test}"
    elif plan.goal == "ci_width":
        level = level_percent(plan.confidence_level)
        goal = (
            f"an expected width of the {level} {plan.width_interval} interval of {plan.ci_width:g}"
        )
        if plan.method == "goodness-of-fit":  # each limit, not the width (kappaSize's rule)
            goal = f"both expected {level} limits within kappa1 ± {plan.ci_width / 2:g}"
        delivers = f"expected width {plan.expected_width:.{DECIMALS}f}"
    elif plan.goal == "lower_limit":
        level = level_percent(plan.confidence_level)
        goal = (
            f"a probability of {plan.target_assurance:g} that the lower limit of the "
            f"two-sided {level} {plan.limit_interval} interval exceeds {plan.lower_limit:g}"
        )
        delivers = (
            f"that probability {probability_text(plan.assurance, plan.target_assurance)}"
            + _in_options(plan.approximation_check("assurance"))
        )
    design = (
        f"when {what} is {plan.kappa1:g} ({weights_text(plan.weights)}, K = "
        f"{plan.table.shape[0]} categories, {plan.n_raters} raters), by {method}"
    )
    if plan.goal == "n":  # n given: the power it has, not a sample size planned
        sentence = (
            f"The power of the test of {test} was computed for the given n = {plan.n:,} items "
            f"{design}: {delivers}."
        )
    else:
        sentence = (
            f"The sample size was planned for {goal} {design}: n = {plan.n:,} items give "
            f"{delivers}."
        )
    sentence += f" Computed with {provenance.software} on {provenance.date}."
    return sentence, cited
