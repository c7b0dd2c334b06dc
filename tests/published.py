"""Published values that wkappa reproduces: one record per printout, with its source.

``tests/test_published.py`` checks every value here; the documentation's validation page
(``docs/scripts/make_validation.py``) is generated from the same records, so the page and
the tests cannot drift apart. Each record names where the printout can be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import wkappa as wk
from wkappa.data.make_data import MS_TABLES


@dataclass(frozen=True)
class Printout:
    """One published analysis: the data, the options and the printed numbers."""

    key: str
    source: str  # who printed it
    where: str  # where the printout can be read
    data: str  # the data, in a few words
    weights: str
    # (published value, absolute tolerance: half a unit of the last printed digit)
    values: dict[str, tuple[float, float]]
    table: list[list[int]] | None = None
    ratings: tuple[list[int], list[int]] | None = None
    labels: list[Any] | None = None
    citation: str = ""  # a key of docs/references.bib, if the method's source is cited
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


# SAS PROC FREQ printouts quoted in statsmodels' test suite (TestUnweightedCohens /
# TestWeightedCohens, "comparison to printout of a SAS example"). SAS's default weighted
# kappa uses Cicchetti-Allison (linear) weights.
SAS_TABLE10 = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
# R irr's `anxiety` data, raters 2 and 3; irr drops the unused level 5.
ANXIETY_RATER2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4]
ANXIETY_RATER3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]
IRR_LABELS = [1, 2, 3, 4, 6]
# vcd's `SexualFun` (husband rows, wife columns).
SEXUAL_FUN = [[7, 7, 2, 3], [2, 8, 3, 7], [1, 5, 4, 9], [2, 8, 9, 14]]
# irrCAC's `cont3x3abstractors` table (Ectopic / AIU / NIU).
ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]

_SAS_WHERE = (
    "SAS PROC FREQ printout quoted in statsmodels' test suite, "
    "statsmodels/stats/tests/test_inter_rater.py (TestUnweightedCohens / TestWeightedCohens)"
)
_IRR_WHERE = (
    "R irr::kappa2 printout quoted in statsmodels' test suite, "
    "statsmodels/stats/tests/test_inter_rater.py (test_cohens_kappa_irr)"
)
_VCD_WHERE = "R vcd::Kappa printout in vcdExtra's documentation, docs/reference/print.Kappa.md"

PRINTOUTS: list[Printout] = [
    Printout(
        key="sas-simple",
        source="SAS PROC FREQ, simple kappa",
        where=_SAS_WHERE,
        data="3 x 3 table, n = 19",
        weights="unweighted",
        table=SAS_TABLE10,
        citation="sas_freq",
        values={
            "kappa": (0.4842, 5e-5),
            "standard_error": (0.1380, 5e-5),
            "ci_low": (0.2137, 5e-5),
            "ci_high": (0.7547, 5e-5),
            "standard_error_null": (0.1484, 5e-5),
            "zscore": (3.2626, 5e-5),
            "pvalue": (0.0011, 5e-5),
            "pvalue_greater": (0.0006, 5e-5),
        },
    ),
    Printout(
        key="sas-weighted",
        source="SAS PROC FREQ, weighted kappa (Cicchetti-Allison weights)",
        where=_SAS_WHERE,
        data="3 x 3 table, n = 19",
        weights="linear",
        table=SAS_TABLE10,
        citation="sas_freq",
        values={
            "kappa": (0.4701, 5e-5),
            "standard_error": (0.1457, 5e-5),
            "ci_low": (0.1845, 5e-5),
            "ci_high": (0.7558, 5e-5),
            "standard_error_null": (0.1426, 5e-5),
            "zscore": (3.2971, 5e-5),
            "pvalue": (0.0010, 5e-5),
        },
    ),
    *[
        Printout(
            key=f"irr-{weights}",
            source=f"R irr::kappa2(anxiety[,2:3]{call})",
            where=_IRR_WHERE,
            data="irr's anxiety data, raters 2 and 3, n = 20",
            weights=weights,
            ratings=(ANXIETY_RATER2, ANXIETY_RATER3),
            labels=IRR_LABELS,
            note="irr drops the unused level 5, so the categories are 1, 2, 3, 4, 6",
            values={"kappa": (kappa, 5e-7), "zscore": (z, 5e-6), "pvalue": (pvalue, 5e-7)},
        )
        for weights, call, kappa, z, pvalue in [
            ("unweighted", "", -0.006289308, -0.0604067, 0.9518317),
            ("linear", ', "equal"', 0.1459075, 1.282472, 0.1996772),
            ("quadratic", ', "squared"', 0.2520325, 1.437451, 0.1505898),
        ]
    ],
    *[
        Printout(
            key=f"vcd-{weights}",
            source=f"R vcd::Kappa(SexualFun), {row}",
            where=_VCD_WHERE,
            data="vcd's SexualFun, 4 x 4 table, n = 91",
            weights=weights,
            table=SEXUAL_FUN,
            note="vcd's z is value / ASE (the non-null standard error)",
            values={
                "kappa": (value, 5e-5),
                "standard_error": (ase, 5e-6),
                "kappa_over_se": (z, 5e-4),
                "ci_low": (lower, 5e-6),
                "ci_high": (upper, 5e-5),
            },
        )
        for weights, row, value, ase, z, lower, upper in [
            ("unweighted", "Unweighted", 0.1293, 0.06860, 1.885, -0.00512, 0.2638),
            ("linear", "Weighted (Equal-Spacing)", 0.2374, 0.07832, 3.031, 0.08388, 0.3909),
        ]
    ],
    Printout(
        key="irrcac",
        source="R irrCAC::kappa2.table(cont3x3abstractors)",
        where="irrCAC's README (kgwet/irrCAC)",
        data="3 x 3 table, n = 100",
        weights="unweighted",
        table=ABSTRACTORS,
        citation="gwet2014",
        note="irrCAC's interval uses a t quantile, so only kappa and the standard error compare",
        values={"kappa": (0.7964094, 5e-8), "standard_error": (0.05891072, 5e-9)},
    ),
    Printout(
        key="landis-koch-winnipeg",
        source="Landis & Koch (1977), multiple sclerosis, Winnipeg patients",
        where="Landis & Koch (1977), from the data of Westlund & Kurland (1953)",
        data="4 x 4 table, n = 149 (the data set bundled as ms_diagnosis.csv)",
        weights="unweighted",
        table=[list(row) for row in MS_TABLES["Winnipeg"]],
        citation="landis1977",
        values={"kappa": (0.208, 5e-4)},
    ),
]


def compute(printout: Printout) -> dict[str, float]:
    """wkappa's values for every quantity the printout shows."""
    if printout.table is not None:
        result = wk.kappa_test_from_table(printout.table, weights=printout.weights)
    else:
        assert printout.ratings is not None
        result = wk.kappa_test(*printout.ratings, weights=printout.weights, labels=printout.labels)
    low, high = result.confidence_interval(0.95)
    values = {
        "kappa": result.statistic,
        "standard_error": result.standard_error,
        "standard_error_null": result.standard_error_null,
        "ci_low": float(low),
        "ci_high": float(high),
        "zscore": result.test_statistic,
        "pvalue": result.pvalue,
        "kappa_over_se": result.statistic / result.standard_error,
    }
    if "pvalue_greater" in printout.values:
        assert printout.table is not None
        greater = wk.kappa_test_from_table(
            printout.table, weights=printout.weights, alternative="greater"
        )
        values["pvalue_greater"] = greater.pvalue
    return {name: values[name] for name in printout.values}


# SAS/STAT User's Guide, The FREQ Procedure, Example "Cochran's Q Test" (Example 36.10 in
# SAS/STAT 9.22, 40.10 in 13.2, 3.10 in the Base SAS procedures guide): the Drugs data
# (Agresti 2002, 46 subjects, favourable / unfavourable response to drugs A, B and C), with
# `tables Drug_A*Drug_B*Drug_C / agree`, i.e. the Drug_B x Drug_C tables in the strata
# Drug_A = Favorable, Unfavorable. Rows Drug_B (F, U), columns Drug_C (F, U).
SAS_DRUGS_WHERE = (
    "SAS/STAT User's Guide, PROC FREQ, Example 36.10 'Cochran's Q Test' (support.sas.com, "
    "statug_freq_sect034.htm), Outputs 36.10.2 and 36.10.3"
)
SAS_DRUGS_STRATA = {"Favorable": [[6, 16], [2, 4]], "Unfavorable": [[2, 4], [6, 6]]}
# Simple kappa, ASE, 95% lower and upper confidence limits, as printed (4 decimals).
SAS_DRUGS_KAPPAS = {
    "Favorable": (-0.0328, 0.1167, -0.2615, 0.1960),
    "Unfavorable": (-0.1538, 0.2230, -0.5909, 0.2832),
}
# The two strata's simple kappas as printouts (the validation page shows them; the overall
# kappa and the test of equal kappas are checked in tests/test_stratified.py).
PRINTOUTS += [
    Printout(
        key=f"sas-drugs-{stratum.lower()}",
        source=f"SAS PROC FREQ, stratified AGREE, stratum Drug_A = {stratum}",
        where=SAS_DRUGS_WHERE,
        data=f"Drugs data (Agresti 2002), Drug_B x Drug_C in stratum Drug_A = {stratum}, "
        f"n = {sum(map(sum, SAS_DRUGS_STRATA[stratum]))}",
        weights="unweighted",
        table=SAS_DRUGS_STRATA[stratum],
        citation="sas_freq",
        values={
            name: (value, 5e-5)
            for name, value in zip(
                ("kappa", "standard_error", "ci_low", "ci_high"),
                SAS_DRUGS_KAPPAS[stratum],
                strict=True,
            )
        },
    )
    for stratum in ("Favorable", "Unfavorable")
]

# kaphom 0.3 (CRAN, Albayrak 2019; github.com/cran/kaphom, R/main.R), donnerhom(pp, pm, mm):
# Donner, Eliasziw & Klar's (1996) goodness-of-fit test of equal kappas for binary ratings.
# Printed by running kaphom's own R source (R 4.2.2, 2026-11-26). donnerhom rounds each
# stratum's prevalence and intraclass kappa to 3 decimals before fitting, so the first three
# analyses use strata whose prevalence and kappa are exact at 3 decimals (the rounding changes
# nothing); the last is its help page's example, where the rounding moves X^2 in the 4th
# digit. Strata as (both positive, discordant, both negative) -> (X^2, p-value, common kappa).
KAPHOM_WHERE = "R kaphom 0.3, donnerhom(): values printed by its R source (R/main.R) under R 4.2.2"
KAPHOM_DONNERHOM = [
    ([(4, 2, 19), (12, 6, 22), (13, 14, 13)], 5.23347157559422, 0.0730408951032577,
     0.529411764705882),
    ([(6, 3, 11), (7, 6, 12), (17, 6, 9)], 0.534696257316454, 0.765406565118304,
     0.587628865979381),
    ([(9, 6, 17), (21, 6, 5)], 0.195528846153846, 0.658354298959382, 0.555555555555556),
]  # fmt: skip
KAPHOM_HELP_EXAMPLE = (
    [(11, 6, 22), (26, 5, 10), (22, 14, 39)], 0.479861716987373, 0.786682251582075,
    0.647167698090535,
)  # fmt: skip

# --------------------------------------------------------------------------- study planning


@dataclass(frozen=True)
class PlanPrintout:
    """A published sample size and the wkappa call that must reproduce it."""

    source: str
    call: dict[str, object]
    n: int


_IRR_N = (
    "R irr 0.84, man/N.cohen.kappa.Rd example, printed output '[1] 96' (rdrr.io / the irr "
    "reference manual); Cantor (1996). irr's comment reads 'H0: kappa = 0.7 vs HA: kappa > "
    "0.7 given kappa = 0.85', but its arguments are (rate1, rate2, k1 = 0.7, k0 = 0.85): the "
    "96 is the n for a true kappa of 0.7 against H0 0.85, one-sided."
)
_IRR_N2 = (
    "R irr 0.84, man/N2.cohen.kappa.Rd examples, printed output '[1] 101 / [1] 136 / [1] 18' "
    "(rdrr.io); Flack, Afifi, Lachenbruch & Schouten (1988)."
)

PLAN_PRINTOUTS: list[PlanPrintout] = [
    PlanPrintout(
        _IRR_N,
        {
            "kappa1": 0.7,
            "kappa0": 0.85,
            "marginals": [0.5, 0.5],
            "weights": "unweighted",
            "alternative": "less",
        },
        96,
    ),
    PlanPrintout(
        "R irr N.cohen.kappa(1/2, 1/2, 0.7, 0.3, alpha = 0.05, power = 0.8, twosided = TRUE)"
        " printed 'Sample size for Cohen's Kappa: 39' in github.com/Mick-R/Master_Thesis "
        "(a notebook's output)",
        {
            "kappa1": 0.7,
            "kappa0": 0.3,
            "marginals": [0.5, 0.5],
            "weights": "unweighted",
            "alternative": "two-sided",
        },
        39,
    ),
    PlanPrintout(
        _IRR_N2,
        {
            "kappa1": 0.6,
            "kappa0": 0.4,
            "marginals": [0.2, 0.25, 0.55],
            "weights": "unweighted",
            "method": "max-variance",
        },
        101,
    ),
    PlanPrintout(
        _IRR_N2,
        {
            "kappa1": 0.6,
            "kappa0": 0.4,
            "marginals": [0.2, 0.25, 0.55],
            "weights": "unweighted",
            "method": "max-variance",
            "power": 0.9,
        },
        136,
    ),
    PlanPrintout(
        _IRR_N2,
        {
            "kappa1": 0.5,
            "kappa0": 0.1,
            "marginals": [0.2, 0.05, 0.2, 0.05, 0.2, 0.3],
            "weights": "unweighted",
            "method": "max-variance",
        },
        18,
    ),
    PlanPrintout(
        "R lrstat, tests/testthat/test-design-agreement-native-lp.R (github.com/kaifenglu/"
        "lrstat): getDesignAgreement(beta = 0.2, ncats = 4, kappaH0 = 0.4, kappa = 0.6, "
        "p1 = c(0.1, 0.2, 0.3, 0.4), p2 = c(0.15, 0.2, 0.24, 0.41), alpha = 0.05) has n = 82 "
        "(one-sided alpha; lrstat's default is 0.025)",
        {
            "kappa1": 0.6,
            "kappa0": 0.4,
            "marginals": [[0.1, 0.2, 0.3, 0.4], [0.15, 0.2, 0.24, 0.41]],
            "weights": "unweighted",
            "method": "max-variance",
            "alpha": 0.05,
        },
        82,
    ),
]


# kappaSize 1.2 (CRAN, Rotondi; github.com/cran/kappaSize) and presize 0.3.7 print their
# sample sizes; their help pages show the calls but not the output, so the printed values
# below were produced by running the packages' own R sources (R 4.2.2, 2026-11-26). The
# examples of the help pages come first, then further calls of the same functions (other
# numbers of raters, alpha, one-sided intervals).
_KS = "kappaSize 1.2 (Rotondi & Donner 2012; Donner & Eliasziw 1992), printed "
_KS_EXAMPLE = "the example of its help page"
_KS_GOF = {"method": "goodness-of-fit", "weights": "unweighted"}
_KS_POWER = {**_KS_GOF, "alternative": "two-sided", "kappa1": 0.6, "kappa0": 0.4}
_KS_PROPS = {
    "PowerBinary": [0.3, 0.7],
    "Power3Cats": [0.3, 0.6, 0.1],
    "Power4Cats": [0.3, 0.3, 0.3, 0.1],
    "Power5Cats": [0.3, 0.2, 0.1, 0.3, 0.1],
}
# n printed for raters = 2 (the example), 3, 4, 5, 6 at kappa0 0.4, kappa1 0.6, alpha 0.05,
# power 0.8 ("A minimum of N subjects are required ...").
_KS_POWER_N = {
    "PowerBinary": (191, 106, 81, 69, 62),
    "Power3Cats": (135, 74, 54, 44, 38),
    "Power4Cats": (92, 51, 38, 31, 27),
    "Power5Cats": (83, 47, 35, 29, 25),
}
KAPPASIZE_PRINTOUTS: list[PlanPrintout] = [
    PlanPrintout(
        f"{_KS}'A minimum of {n} subjects ...' for {name}(kappa0=0.4, kappa1=0.6, props, "
        f"raters={raters}, alpha=0.05, power=0.80)" + (f", {_KS_EXAMPLE}" if raters == 2 else ""),
        {**_KS_POWER, "marginals": _KS_PROPS[name], "n_raters": raters},
        n,
    )
    for name, sizes in _KS_POWER_N.items()
    for raters, n in zip(range(2, 7), sizes, strict=True)
]
KAPPASIZE_PRINTOUTS += [
    PlanPrintout(
        f"{_KS}364 for PowerBinary(kappa0=0.6, kappa1=0.8, props=0.2, alpha=0.01, power=0.9)",
        {
            **_KS_GOF,
            "alternative": "two-sided",
            "kappa1": 0.8,
            "kappa0": 0.6,
            "marginals": [0.2, 0.8],
            "alpha": 0.01,
            "power": 0.9,
        },
        364,
    ),
    # The CI functions: the smallest n (from 11 up) at which the goodness-of-fit statistic
    # of kappa0 against each limit exceeds the critical value: a two-sided interval at
    # level 1 - alpha (kappaU given) whose expected limits are kappaL and kappaU, or a
    # one-sided lower bound at 1 - alpha (kappaU = NA; wkappa: the two-sided level 1 - 2 alpha).
    PlanPrintout(
        f"{_KS}397 for CIBinary(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=0.30, "
        f"alpha=0.05), {_KS_EXAMPLE}",
        {**_KS_GOF, "kappa1": 0.4, "marginals": [0.3, 0.7], "ci_width": 0.2},
        397,
    ),
    PlanPrintout(
        f"{_KS}280 for CIBinary(kappa0=0.4, kappaL=0.3, kappaU=NA, props=0.30, alpha=0.05)",
        {
            **_KS_GOF,
            "kappa1": 0.4,
            "marginals": [0.3, 0.7],
            "lower_limit": 0.3,
            "confidence_level": 0.90,
        },
        280,
    ),
    *(
        PlanPrintout(
            f"{_KS}{n} for CIBinary(kappa0=0.6, kappaL=0.5, kappaU=0.7, props=0.2, "
            f"raters={raters}, alpha=0.05)",
            {
                **_KS_GOF,
                "kappa1": 0.6,
                "marginals": [0.2, 0.8],
                "ci_width": 0.2,
                "n_raters": raters,
            },
            n,
        )
        for raters, n in zip(range(3, 7), (267, 212, 180, 159), strict=True)
    ),
    # CI3Cats' example has limits 0.3 and 0.6 around 0.4: the lower one decides (the upper
    # is further away), so wkappa's lower_limit=0.3 with the default assurance 0.5 (the
    # expected lower limit clears 0.3) is the same plan.
    *(
        PlanPrintout(
            f"{_KS}{n} for CI3Cats(kappa0=0.4, kappaL=0.3, kappaU=0.6, "
            f"props=c(0.30, 0.2, 0.5), raters={raters}, alpha=0.05)"
            + (f", {_KS_EXAMPLE}" if raters == 3 else ""),
            {
                **_KS_GOF,
                "kappa1": 0.4,
                "marginals": [0.3, 0.2, 0.5],
                "lower_limit": 0.3,
                "n_raters": raters,
            },
            n,
        )
        for raters, n in ((3, 125), (2, 232), (4, 92), (5, 77))
    ),
    *(
        PlanPrintout(
            f"{_KS}{n} for {name}(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=c({props}), "
            f"raters={raters}, alpha=0.05)" + (f", {_KS_EXAMPLE}" if raters == 2 else ""),
            {
                **_KS_GOF,
                "kappa1": 0.4,
                "marginals": [float(p) for p in props.split(", ")],
                "ci_width": 0.2,
                "n_raters": raters,
            },
            n,
        )
        for name, props, sizes in (
            ("CI4Cats", "0.30, 0.2, 0.2, 0.3", (174, 107, 90, 84)),
            ("CI5Cats", "0.13, 0.17, 0.2, 0.2, 0.3", (153, 101, 87, 82)),
        )
        for raters, n in zip(range(2, 6), sizes, strict=True)
    ),
]

# presize 0.3.7, man/prec_kappa.Rd examples (two categories 0.3/0.7, four raters), printed
# n: prec_kappa(conf.level = 0.95, conf.width = W) calls kappaSize's CIBinary with
# kappaL/U = kappa -/+ W/2 and alpha = 2 * (1 - conf.level), so its "95%" interval is a
# two-sided 90% one (wkappa: confidence_level=0.90).
_PRESIZE = "presize 0.3.7 prec_kappa example (man/prec_kappa.Rd), printed n = "
PRESIZE_PRINTOUTS: list[PlanPrintout] = [
    PlanPrintout(
        f"{_PRESIZE}{n} for prec_kappa(kappa = {kappa}, conf.width = {width}, raters = 4, "
        "n_category = 2, props = c(.3,.7))",
        {
            **_KS_GOF,
            "kappa1": kappa,
            "marginals": [0.3, 0.7],
            "ci_width": width,
            "n_raters": 4,
            "confidence_level": 0.90,
        },
        n,
    )
    for kappa, width, n in ((0.5, 0.15, 198), (0.75, 0.15, 155), (0.75, 0.3, 44))
]


@dataclass(frozen=True)
class LowerLimitPrintout:
    """A published expected lower limit of kappa for a given n (kappaSize's FixedN*)."""

    source: str
    call: dict[str, object]
    lower: float


# kappaSize's FixedN* functions step kappaL down from kappa0 by 0.001 until the
# goodness-of-fit statistic against kappa0 reaches qchisq(1 - 2 alpha, 1): the printed value
# is the expected lower limit of a two-sided 1 - 2 alpha interval, floored to 0.001. presize's
# prec_kappa(n = ...) prints it as `lwr` (and reflects it, kappa + (kappa - lwr), as `upr`).
LOWER_LIMIT_PRINTOUTS: list[LowerLimitPrintout] = [
    LowerLimitPrintout(
        f"{_KS}'A total of 100 subjects can produce a lower limit for kappa of 0.61' for "
        f"FixedNBinary(kappa0=0.7, n=100, props=0.50, alpha=0.05, raters=4), {_KS_EXAMPLE}",
        {"n": 100, "kappa1": 0.7, "marginals": [0.5, 0.5], "n_raters": 4},
        0.61,
    ),
    LowerLimitPrintout(
        f"{_KS}0.623 for FixedN3Cats(kappa0=0.7, n=80, props=c(0.33, 0.34, 0.33), "
        f"alpha=0.05, raters=5), {_KS_EXAMPLE}",
        {"n": 80, "kappa1": 0.7, "marginals": [0.33, 0.34, 0.33], "n_raters": 5},
        0.623,
    ),
    LowerLimitPrintout(
        f"{_KS}0.623 for FixedN4Cats(kappa0=0.7, n=80, props=c(0.4, 0.4, 0.1, 0.1), "
        f"alpha=0.05, raters=5), {_KS_EXAMPLE}",
        {"n": 80, "kappa1": 0.7, "marginals": [0.4, 0.4, 0.1, 0.1], "n_raters": 5},
        0.623,
    ),
    LowerLimitPrintout(
        f"{_KS}0.513 for FixedN5Cats(kappa0=0.6, n=150, props=c(0.4, 0.2, 0.2, 0.1, 0.1), "
        f"alpha=0.05, raters=2), {_KS_EXAMPLE}",
        {"n": 150, "kappa1": 0.6, "marginals": [0.4, 0.2, 0.2, 0.1, 0.1], "n_raters": 2},
        0.513,
    ),
    LowerLimitPrintout(
        "presize 0.3.7 prec_kappa example (man/prec_kappa.Rd), printed lwr = 0.425 (upr "
        "0.575, conf.width 0.15) for prec_kappa(kappa = .5, n = 200, raters = 4, "
        "n_category = 2, props = c(.3,.7))",
        {"n": 200, "kappa1": 0.5, "marginals": [0.3, 0.7], "n_raters": 4},
        0.425,
    ),
]

# ---------------------------------------------------------------- intraclass correlations
# Shrout & Fleiss (1979), Table 2: six targets rated by four judges; psych::ICC's example
# (`sf`) and pingouin's test data.
SHROUT_FLEISS_RATINGS = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
]
# pingouin's `icc` data set (from real-statistics.com): eight wines scored by four judges
# (rows wines 1-8, columns judges A-D).
WINE_RATINGS = [
    [1, 2, 0, 1],
    [1, 3, 3, 2],
    [3, 8, 1, 4],
    [6, 4, 3, 3],
    [6, 5, 5, 6],
    [7, 5, 6, 2],
    [8, 7, 7, 9],
    [9, 9, 9, 8],
]

# irr 0.84.1's `anxiety` data (data/anxiety.rda; "artificial data", 20 subjects rated 1-6 by
# three raters; irr is GPL >= 2, this is the table of numbers its help page uses).
ANXIETY_RATINGS = [
    [3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1], [3, 4, 6],
    [5, 3, 1], [2, 3, 1], [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3], [2, 2, 1], [2, 2, 1],
    [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2],
]  # fmt: skip


@dataclass(frozen=True)
class IccPrintout:
    """Published ICCs of one data set: per McGraw & Wong form, (value, absolute tolerance)."""

    key: str
    source: str
    where: str
    ratings: list[list[int]]
    # form -> {"icc" | "f" | "df1" | "df2" | "pvalue_greater" | "ci_low" | "ci_high": (v, tol)}
    values: dict[str, dict[str, tuple[float, float]]]


_FORMS = ("1,1", "A,1", "C,1", "1,k", "A,k", "C,k")


def _rows(**columns: tuple[tuple[float, ...], float]) -> dict[str, dict[str, tuple[float, float]]]:
    """Per-form values from columns given in the forms' order, each with its tolerance."""
    out: dict[str, dict[str, tuple[float, float]]] = {form: {} for form in _FORMS}
    for name, (values, tolerance) in columns.items():
        for form, value in zip(_FORMS, values, strict=True):
            out[form][name] = (value, tolerance)
    return out


def _irr(
    icc: float,
    f: float,
    df2: float | None,
    pvalue: float | None,
    low: float | None,
    high: float | None,
) -> dict[str, tuple[float, float]]:
    """One form of irr's printout (12 significant digits; None: another convention)."""
    row = {"icc": icc, "f": f, "df1": 19, "df2": df2, "pvalue_greater": pvalue,
           "ci_low": low, "ci_high": high}  # fmt: skip
    return {name: (value, 1e-11) for name, value in row.items() if value is not None}


ICC_PRINTOUTS: list[IccPrintout] = [
    IccPrintout(
        key="shrout-fleiss-1979",
        source="Shrout & Fleiss (1979), Table 4: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71, "
        "ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91",
        where="Shrout & Fleiss (1979), Psychological Bulletin 86(2): 420-428, Table 4",
        ratings=SHROUT_FLEISS_RATINGS,
        values=_rows(icc=((0.17, 0.29, 0.71, 0.44, 0.62, 0.91), 0.005)),
    ),
    IccPrintout(
        key="psych-sf",
        source="R psych::ICC(sf) as quoted in pingouin's test suite",
        where="pingouin, tests/test_reliability.py (test_intraclass_corr, 'Example from the "
        "R package psych (Shrout and Fleiss 1979)')",
        ratings=SHROUT_FLEISS_RATINGS,
        values=_rows(
            icc=((0.17, 0.29, 0.71, 0.44, 0.62, 0.91), 0.005),
            f=((1.8, 11.0, 11.0, 1.8, 11.0, 11.0), 0.05),
            df1=((5, 5, 5, 5, 5, 5), 0),
            df2=((18, 15, 15, 18, 15, 15), 0),
            pvalue_greater=((0.16472, 0.00013, 0.00013, 0.16472, 0.00013, 0.00013), 5e-5),
            ci_low=((-0.13, 0.02, 0.34, -0.88, 0.07, 0.68), 0.005),
            ci_high=((0.72, 0.76, 0.95, 0.91, 0.93, 0.99), 0.005),
        ),
    ),
    IccPrintout(
        key="real-statistics-wine",
        source="real-statistics.com's wine example as checked in pingouin's test suite",
        where="pingouin, tests/test_reliability.py (test_intraclass_corr, 'Second example "
        "(real-statistics)'); data: pingouin's datasets/icc.csv",
        ratings=WINE_RATINGS,
        values=_rows(
            icc=((0.73, 0.73, 0.73, 0.91, 0.91, 0.92), 0.005),
            f=((12, 12, 12, 12, 12, 12), 0.5),
            df1=((7, 7, 7, 7, 7, 7), 0),
            df2=((24, 21, 21, 24, 21, 21), 0),
            pvalue_greater=((2.2e-06, 5.0e-06, 5.0e-06, 2.2e-06, 5.0e-06, 5.0e-06), 5e-7),
            ci_low=((0.43, 0.43, 0.43, 0.75, 0.75, 0.75), 0.005),
            ci_high=((0.93, 0.93, 0.93, 0.98, 0.98, 0.98), 0.005),
        ),
    ),
    IccPrintout(
        key="irr-anxiety",
        source="R irr 0.84.1 icc(anxiety, model, type, unit) for the six forms (the help "
        "page's example is twoway/agreement/single: ICC(A,1) 0.198, 95% CI -0.039 < "
        "ICC < 0.494, F(19, 39.7) = 1.83, p = 0.0543), printed with 12 significant digits",
        where="irr 0.84.1 (CRAN mirror github.com/cran/irr), R/icc.R and man/icc.Rd run on "
        "data/anxiety.rda under R 4.2; ICC(A,1) and its limits also in tidystats' "
        "tests/data/irr.json. ICC(A,1)/ICC(A,k) df2, p and ICC(A,k)'s limits: see "
        "IRR_ANXIETY_AGREEMENT",
        ratings=ANXIETY_RATINGS,
        values={
            "1,1": _irr(0.175022381379, 1.63646228974, 40, 0.0939307271289,
                        -0.0774465748655, 0.484336093819),
            "C,1": _irr(0.216049382716, 1.82677165354, 38, 0.0562012735475,
                        -0.0462578853236, 0.522259078396),
            "A,1": _irr(0.197998259356, 1.82677165354, None, None,
                        -0.0389106260932, 0.493573945972),
            "1,k": _irr(0.388925729443, 1.63646228974, 40, 0.0939307271289,
                        -0.274923489879, 0.73806512358),
            "C,k": _irr(0.452586206897, 1.82677165354, 38, 0.0562012735475,
                        -0.152921286654, 0.766330800234),
            "A,k": _irr(0.425498753117, 1.82677165354, None, None, None, None),
        },
    ),
]  # fmt: skip

# irr's printout of the absolute-agreement forms where it follows another convention than
# McGraw & Wong (1996): its F test of ICC = 0 takes the Satterthwaite df v evaluated at the
# *estimate* (McGraw & Wong: at icc0, which for icc0 = 0 is (n-1)(k-1) = 38); for ICC(A,k) it
# puts the average-measure estimate into the single-measure a = k rho / (n (1 - rho)), so
# its interval's df is 37.5 where McGraw & Wong's (and psych's, the Spearman-Brown transform
# of ICC(A,1)'s limits) is ICC(A,1)'s 39.7. Form -> quantity -> printed value.
IRR_ANXIETY_AGREEMENT: dict[str, dict[str, float]] = {
    "A,1": {"df2": 39.7460409208, "pvalue_greater": 0.0542656813178},
    "A,k": {
        "df2": 37.5089400717,
        "pvalue_greater": 0.056778218708,
        "ci_low": -0.137308090502,
        "ci_high": 0.746325723571,
    },
}


@dataclass(frozen=True)
class CccPrintout:
    """A published Lin's concordance correlation with its 95% interval (Fisher's z)."""

    key: str
    source: str
    x: list[float]
    y: list[float]
    log10_shift: float | None  # the example's transform log10(v + shift), or None
    statistic: float
    ci_low: float
    ci_high: float


_EPIR = (
    "R epiR 2.0.94 epi.ccc(x, y, ci = 'z-transform', conf.level = 0.95), man/epi.ccc.Rd "
    "(CRAN mirror github.com/cran/epiR) run under R 4.2, rho.c printed with 12 significant "
    "digits: "
)
# epi.ccc's Example 2: peak expiratory flow rate (L/min) by two meters, Bland & Altman (1986).
PEFR_X = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
PEFR_Y = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
# epi.ccc's Example 3 (skewed data, Euser et al. 2008): 64 pairs.
SKEWED_X = [
    0, 210, 15, 90, 0, 0, 15, 0, 0, 0, 15, 0, 15, 0, 0, 0, 0, 15, 0, 0, 15, 135, 0, 0, 15,
    120, 30, 15, 30, 0, 0, 5235, 780, 1275, 10515, 1635, 1905, 1830, 720, 450, 225, 420,
    300, 15, 285, 0, 225, 525, 675, 5280, 465, 270, 0, 1485, 15, 420, 0, 60, 0, 0, 0, 750,
    570, 0,
]  # fmt: skip
SKEWED_Y = [
    0, 70, 0, 0, 0, 0, 35, 0, 0, 0, 0, 0, 0, 35, 0, 0, 0, 0, 0, 0, 35, 35, 70, 0, 0, 140, 35,
    105, 0, 0, 0, 1190, 385, 1190, 6930, 560, 1260, 700, 840, 0, 105, 385, 245, 35, 105, 0,
    140, 350, 350, 3640, 385, 350, 0, 1505, 0, 630, 70, 0, 0, 140, 0, 420, 490, 0,
]  # fmt: skip
CCC_PRINTOUTS: list[CccPrintout] = [
    CccPrintout("epir-pefr", _EPIR + "Example 2 (Bland & Altman 1986 PEFR meters)",
                PEFR_X, PEFR_Y, None, 0.942742431427, 0.850491873169, 0.97872627917),
    CccPrintout("epir-skewed", _EPIR + "Example 3 (skewed data)",
                SKEWED_X, SKEWED_Y, None, 0.843904020927, 0.797981108667, 0.880083981742),
    CccPrintout("epir-skewed-log10", _EPIR + "Example 3 on log10(x + 50), log10(y + 50)",
                SKEWED_X, SKEWED_Y, 50.0, 0.913538687902, 0.865345651405, 0.944991993906),
]  # fmt: skip


def compute_icc(printout: IccPrintout) -> dict[str, dict[str, float]]:
    """wkappa's values for every quantity of an ICC printout (p-values one-sided, as printed)."""
    results = wk.icc_all(printout.ratings, alternative="greater")
    two_sided = wk.icc_all(printout.ratings)
    out: dict[str, dict[str, float]] = {}
    for form, wanted in printout.values.items():
        result = results[form]
        low, high = two_sided[form].confidence_interval(0.95)
        values = {
            "icc": result.statistic,
            "f": result.f_statistic,
            "df1": result.df1,
            "df2": result.df2,
            "pvalue_greater": result.pvalue,
            "ci_low": low,
            "ci_high": high,
        }
        out[form] = {name: float(values[name]) for name in wanted}
    return out


# --------------------------------------------------------------------------- several raters

# irrCAC's cac.raw4raters (Gwet 2014, Handbook of Inter-Rater Reliability, 4th ed.; shipped
# with the R package irrCAC): 12 items, 4 raters, missing ratings (None).
RAW4RATERS = [
    [1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1],
    [None, None, 3, None],
]  # fmt: skip
# irrCAC's distrib.6raters: 15 patients x 5 categories, counts of 6 raters.
DISTRIB_6RATERS = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
]  # fmt: skip
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 12 units (rows) x 4
# observers, missing values (None).
KRIPPENDORFF_UNITS = [
    [1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1],
    [None, 3, None, None],
]  # fmt: skip
# Fleiss, Levin & Paik (2003), section 18.3, Table 18.8: five ratings of each of ten subjects
# into categories A, B, C (counts per subject); printed kappa 0.42 and per-category kappas
# 0.29, 0.67, 0.35.
FLEISS_2003_TABLE_18_8 = [
    [1, 4, 0], [2, 0, 3], [0, 0, 5], [4, 0, 1], [3, 0, 2],
    [1, 4, 0], [5, 0, 0], [0, 4, 1], [1, 0, 4], [3, 0, 2],
]  # fmt: skip
FLEISS_2003_PER_CATEGORY = (0.29, 0.67, 0.35)
# Fleiss (1971): 30 patients x 6 psychiatrists, diagnoses 1-5 (as in statsmodels' tests).
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]  # fmt: skip

_IRRCAC_README = "R package irrCAC (Gwet), README printouts"


@dataclass(frozen=True)
class AgreementPrintout:
    """One published analysis of several raters: the data, the call and the printed numbers.

    ``call`` is 'agreement' (``ratings``: items x raters, None missing),
    'agreement_from_counts' (``ratings``: items x categories counts) or
    'krippendorff_alpha'; ``options`` its keywords. Values: (published, absolute tolerance).
    """

    key: str
    source: str
    where: str
    data: str
    call: str
    ratings: list[list[Any]]
    options: dict[str, Any]
    values: dict[str, tuple[float, float]]
    note: str = ""


def _raw4(coefficient: str, pa: float, pe: float, value: float, se: float, low: float,
          pvalue: float) -> AgreementPrintout:  # fmt: skip
    return AgreementPrintout(
        key=f"irrcac-raw4raters-{coefficient}",
        source=f"irrCAC, cac.raw4raters, {coefficient}",
        where=_IRRCAC_README,
        data="12 items, 4 raters, 5 categories, missing ratings",
        call="agreement",
        ratings=RAW4RATERS,
        options={"coefficient": coefficient, "alternative": "greater"},
        values={
            "percent_agreement": (pa, 5e-8),
            "chance_agreement": (pe, 5e-8),
            "statistic": (value, 5e-6),
            "standard_error": (se, 5e-6),
            "ci_low": (low, 5e-4),
            "pvalue": (pvalue, 5e-6 * pvalue),
        },
        note="intervals (low, 1) and one-sided p-values, as irrCAC prints them",
    )


def _distrib(coefficient: str, value: float, se: float, low: float, high: float,
             pvalue: float, pa: float, pe: float) -> AgreementPrintout:  # fmt: skip
    return AgreementPrintout(
        key=f"irrcac-distrib6raters-{coefficient}",
        source=f"irrCAC, distrib.6raters, {coefficient}",
        where=_IRRCAC_README,
        data="15 patients x 5 categories, counts of 6 raters",
        call="agreement_from_counts",
        ratings=DISTRIB_6RATERS,
        options={"coefficient": coefficient, "alternative": "greater"},
        values={
            "statistic": (value, 5e-8),
            "standard_error": (se, 5e-9),
            "ci_low": (low, 5e-4),
            "ci_high": (high, 5e-4),
            "pvalue": (pvalue, 5e-7 * pvalue),
            "percent_agreement": (pa, 5e-8),
            "chance_agreement": (pe, 5e-8),
        },
    )


AGREEMENT_PRINTOUTS: list[AgreementPrintout] = [
    _raw4("percent", 0.8181818, 0.0, 0.8181818, 0.12561, 0.542, 2.172686e-05),
    _raw4("gwet", 0.8181818, 0.1903212, 0.77544, 0.14295, 0.461, 0.0001043605),
    _raw4("fleiss", 0.8181818, 0.2387153, 0.76117, 0.15302, 0.424, 0.0002095865),
    _raw4("krippendorff", 0.805, 0.24, 0.74342, 0.14548, 0.423, 0.0001693123),
    _raw4("conger", 0.8181818, 0.2334252, 0.76282, 0.14917, 0.435, 0.0001683533),
    _raw4("brennan_prediger", 0.8181818, 0.2, 0.77273, 0.14472, 0.454, 0.0001187804),
    _distrib("gwet", 0.4448007, 0.08418757, 0.264, 0.625, 5.779637e-05, 0.5511111, 0.1914815),
    _distrib("fleiss", 0.4139265, 0.08119291, 0.24, 0.588, 8.113618e-05, 0.5511111, 0.2340741),
    _distrib("brennan_prediger", 0.4388889, 0.08312142, 0.261, 0.617, 5.814998e-05, 0.5511111, 0.2),
    AgreementPrintout(
        key="irrcac-distrib6raters-krippendorff",
        source="irrCAC, distrib.6raters, krippendorff",
        where=_IRRCAC_README,
        data="15 patients x 5 categories, counts of 6 raters",
        call="agreement_from_counts",
        ratings=DISTRIB_6RATERS,
        options={"coefficient": "krippendorff"},
        values={
            "statistic": (0.4204384, 5e-8),
            "percent_agreement": (0.5560988, 5e-8),
            "chance_agreement": (0.2340741, 5e-8),
        },
        note="its standard error (0.08243228) is krippen.alpha.dist's linearisation, not "
        "krippen.alpha.raw's, which wkappa follows (the cac.raw4raters values above)",
    ),
    AgreementPrintout(
        key="fleiss-1971",
        source="Fleiss (1971), diagnoses",
        where="R irr::kappam.fleiss printout quoted in statsmodels' test suite "
        "(statsmodels/stats/tests/test_inter_rater.py, test_fleiss_kappa_irr)",
        data="30 patients x 6 psychiatrists, 5 diagnoses",
        call="agreement",
        ratings=FLEISS_1971,
        options={"coefficient": "fleiss"},
        values={"statistic": (0.4302445, 5e-8)},
    ),
    AgreementPrintout(
        key="fleiss-2003-table-18.8",
        source="Fleiss, Levin & Paik (2003), Table 18.8",
        where="Fleiss, Levin & Paik, Statistical Methods for Rates and Proportions, 3rd ed., "
        "section 18.3, Table 18.8 (kappa 0.42; per category 0.29, 0.67, 0.35), as quoted in "
        "R kappaGold's tests (tests/testthat/test-kappa.R, 'kappam_fleiss')",
        data="10 subjects x 5 ratings, 3 categories (counts per subject)",
        call="agreement_from_counts",
        ratings=FLEISS_2003_TABLE_18_8,
        options={"coefficient": "fleiss"},
        values={"statistic": (0.42, 5e-3)},
        note="the per-category kappas are checked by tests/test_agreement_published.py",
    ),
    AgreementPrintout(
        key="krippendorff-2011-nominal",
        source="Krippendorff (2011), reliability data, nominal",
        where="Krippendorff (2011), 'Computing Krippendorff's alpha-reliability', section C",
        data="12 units x 4 observers, missing values",
        call="krippendorff_alpha",
        ratings=KRIPPENDORFF_UNITS,
        options={"level": "nominal"},
        values={"statistic": (0.743, 5e-4)},
    ),
    AgreementPrintout(
        key="krippendorff-2011-interval",
        source="Krippendorff (2011), reliability data, interval",
        where="Krippendorff (2011), 'Computing Krippendorff's alpha-reliability', section E",
        data="12 units x 4 observers, missing values",
        call="krippendorff_alpha",
        ratings=KRIPPENDORFF_UNITS,
        options={"level": "interval"},
        values={"statistic": (0.849, 5e-4)},
    ),
]


def compute_agreement(printout: AgreementPrintout) -> dict[str, float]:
    """wkappa's values for every quantity the several-raters printout shows."""
    call = {
        "agreement": wk.agreement,
        "agreement_from_counts": wk.agreement_from_counts,
        "krippendorff_alpha": wk.krippendorff_alpha,
    }[printout.call]
    result = call(printout.ratings, **printout.options)
    # The printouts show the two-sided interval next to the (possibly one-sided) p-value.
    two_sided = call(printout.ratings, **{**printout.options, "alternative": "two-sided"})
    low, high = two_sided.confidence_interval()
    values = {
        "statistic": result.statistic,
        "standard_error": result.standard_error,
        "percent_agreement": result.percent_agreement,
        "chance_agreement": result.chance_agreement,
        "pvalue": result.pvalue,
        "ci_low": float(low),
        "ci_high": float(high),
    }
    return {name: values[name] for name in printout.values}


# ------------------------------------------------------------------ multiagree (clustered)
# multiagree 3.01 (Vanbelle; github.com/svanbelle/multiagree, GPL-3): values printed by
# running its R source (R/multiagree.R, R 4.2.2, 2026-11-26) on its own data sets and help
# page examples (man/delta.pair.Rd, man/delta.many1.Rd).
MULTIAGREE_WHERE = (
    "R multiagree 3.01, values printed by its R source (R/multiagree.R) under R 4.2.2"
)
# `depression` (Vanbelle & Albert 2008): 50 patients, binary diagnosis, BDI and GHQ (1 =
# depressed); delta.pair(cbind(diag, BDI, diag, GHQ), ID, 'unweighted', multilevel=FALSE).
DEPRESSION = {
    "diag": [1] * 7 + [0, 0] + [1] * 4 + [0, 0, 1, 1] + [0] * 33,
    "BDI": [1] * 9 + [0] * 41,
    "GHQ": [1] * 8 + [0] + [1] * 6 + [0] * 35,
}
# (kappa, SE) of diag vs BDI and diag vs GHQ: the Fleiss-Cohen-Everitt standard error.
MULTIAGREE_DEPRESSION = {"BDI": (0.538106235566, 0.141051882485),
                         "GHQ": (0.746450304260, 0.106650804947)}  # fmt: skip
# `FEES` (Vanbelle 2017): valleculae scores 0-2 of 20 subjects at two swallows (clusters of
# 2), by consensus (CO) and raters MH and TB, each twice (R: the second occasion). Rows:
# (subject, CO, COR, MH, MHR, TB, TBR), None missing. delta.pair(..., weight='equal') keeps
# the 20 rows complete in all six columns (14 subjects) and prints the linearly weighted
# kappa of each rater with itself and its multilevel (cluster-robust) delta-method SE.
FEES = [
    (1, 0, 0, 0, 0, 0, 0), (1, 0, 0, None, None, None, None), (3, 1, 0, 0, 0, 0, 0),
    (3, 2, 2, None, None, None, None), (4, 1, 1, 1, 1, 1, 1), (4, 1, 1, None, None, None, None),
    (5, 1, 1, 1, 1, 1, 1), (5, 2, 2, 2, 2, 2, 2), (6, 1, 1, 1, 1, 1, 0),
    (6, 0, 0, 1, 1, None, None), (7, 1, 1, 1, 1, 1, 1), (7, 2, 2, 2, 2, 2, 2),
    (10, 0, 0, None, None, None, None), (10, 1, 1, 1, 1, None, 0), (12, 0, 0, 1, 1, 1, 1),
    (12, None, None, 1, 1, 0, None), (13, 2, 2, 2, 2, 1, 1), (13, 2, 2, 2, 2, 2, 2),
    (14, 1, 1, None, None, 0, 1), (14, None, None, None, None, None, None),
    (15, 0, 0, None, None, None, None), (15, 1, 1, 1, 1, None, 1),
    (18, None, None, None, None, None, None), (18, 1, 1, 2, 2, None, 1),
    (23, 1, 1, 1, 1, 1, 1), (23, 0, 0, None, None, None, None),
    (25, 0, 0, None, None, None, None), (25, 0, 0, None, None, None, None),
    (29, 1, 0, 1, 1, 1, 1), (29, 1, 1, 2, 2, 2, 2), (31, 0, None, None, None, None, None),
    (31, 1, 1, 1, 1, 1, None), (34, 0, 0, 0, 0, 0, 0), (34, 1, 2, 2, 1, 1, 2),
    (35, 1, 1, 1, 1, 1, 1), (35, 1, 1, None, None, None, None), (36, 1, 0, 0, 0, 0, 1),
    (36, None, 0, None, 0, 0, 0), (37, 0, 0, 0, 0, 0, 0), (37, 0, 0, 1, 1, 1, 1),
]  # fmt: skip
MULTIAGREE_FEES = {"CO": (0.75, 0.1183571436861), "MH": (0.935483870968, 0.0611458473808),
                   "TB": (0.793103448276, 0.1112228790672)}  # fmt: skip
# `fleiss_psy` is Fleiss (1971) as counts (FLEISS_1971 above); delta.many1(..., ncat=5,
# multilevel=TRUE) with one subject per cluster prints Fleiss' kappa and its delta-method SE
# (multilevel=FALSE prints the SE times sqrt(29/30): a 1/n instead of 1/(n - 1) variance).
MULTIAGREE_FLEISS_PSY = (0.43024452006, 0.0541989355153)

# ------------------------------------------------------------- printouts not reproduced
# Fleiss, Levin & Paik (2003), section 18.3, Table 18.7 (p. 613), as quoted in R kappaGold's
# tests (tests/testthat/test-kappa.R): 25 subjects with 2-5 ratings each (m_i) of which x_i
# are positive. Rows (m_i, x_i). Printed: kappa 0.54, its SE under H0 0.103, z 5.24.
FLEISS_2003_TABLE_18_7 = [
    (2, 2), (2, 0), (3, 2), (4, 3), (3, 3), (4, 1), (3, 0), (5, 0), (2, 0), (4, 4), (5, 5),
    (3, 3), (4, 4), (4, 3), (2, 0), (2, 2), (3, 1), (2, 1), (4, 1), (5, 4), (3, 2), (4, 0),
    (3, 0), (3, 3), (2, 2),
]  # fmt: skip
FLEISS_2003_TABLE_18_7_PRINTED = {"kappa": 0.54, "standard_error_null": 0.103, "zscore": 5.24}


@dataclass(frozen=True)
class NotReproduced:
    """A published value wkappa does not reproduce, and why (checked by
    tests/test_published_not_reproduced.py where wkappa computes a nearby quantity)."""

    source: str
    where: str
    printed: str
    reason: str


NOT_REPRODUCED = [
    NotReproduced(
        source="Fleiss, Levin & Paik (2003), Table 18.7",
        where="section 18.3, p. 613, as quoted in R kappaGold's tests (tests/testthat/"
        "test-kappa.R); data FLEISS_2003_TABLE_18_7",
        printed="kappa 0.54, SE under H0 0.103, z 5.24",
        reason="With varying numbers of ratings per subject the book uses Fleiss & Cuzick's "
        "(1979) estimator, 1 - sum(x_i (m_i - x_i) / m_i) / (N (m - 1) p q) with m the mean "
        "number of ratings (0.5415; its null SE 0.1026), which wkappa does not implement; "
        "wkappa's Fleiss kappa with missing ratings (Gwet's generalisation) gives 0.5620. "
        "With equal numbers of ratings the two estimators coincide",
    ),
    NotReproduced(
        source="R multiagree's delta.pair / boot.pair Hotelling T^2",
        where="multiagree 3.01's help page examples (man/delta.pair.Rd) run with its R source: "
        "depression data T^2 2.248, p 0.140; FEES T^2 3.419, p 0.246",
        printed="T^2 tests of equal dependent kappas and their correlations",
        reason="wkappa compares two dependent kappas by paired_kappa_test's bootstrap, not by "
        "a delta-method Hotelling T^2; the kappas and their (cluster-robust) standard errors "
        "are reproduced (tests/test_published_multiagree.py)",
    ),
]


def compute_designs() -> list[tuple[str, str, list[tuple[str, float, float, float]]]]:
    """The stratified and clustered printouts reproduced (kaphom, multiagree) for the
    validation page: (title, source, [(quantity, published, wkappa, tolerance)])."""
    import numpy as np

    sections = []
    for number, (strata, x2, pvalue, _) in enumerate(KAPHOM_DONNERHOM, 1):
        tables = [[[a, d - d // 2], [d // 2, b]] for b, d, a in strata]
        fit = wk.stratified_kappa_test_from_tables(tables, homogeneity="goodness-of-fit")
        sections.append((
            f"R kaphom::donnerhom, data set {number} ({len(strata)} strata)",
            f"{KAPHOM_WHERE}; strata (both 1, discordant, both 0) {strata}; "
            "`stratified_kappa_test_from_tables(..., homogeneity='goodness-of-fit')`",
            [("X^2", x2, fit.homogeneity_statistic, 5e-12),
             ("p-value", pvalue, fit.homogeneity_pvalue, 5e-12)],
        ))  # fmt: skip

    def multiagree(title: str, call: str, printed: tuple[float, float], result: Any,
                   se_name: str = "standard error") -> None:  # fmt: skip
        sections.append((
            f"R multiagree::{title}", f"{MULTIAGREE_WHERE}; {call}",
            [("kappa", printed[0], result.statistic, 5e-12),
             (se_name, printed[1], result.standard_error, 5e-12)],
        ))  # fmt: skip

    for scale, printed in MULTIAGREE_DEPRESSION.items():
        result = wk.kappa_test(DEPRESSION["diag"], DEPRESSION[scale], weights="unweighted")
        call = f"`kappa_test(diag, {scale}, weights='unweighted')`"
        multiagree(f"delta.pair, depression, diagnosis vs {scale}", call, printed, result)
    rows = np.array([row for row in FEES if None not in row])
    for column, (rater, printed) in zip((1, 3, 5), MULTIAGREE_FEES.items(), strict=True):
        result = wk.kappa_test(rows[:, column], rows[:, column + 1], weights="linear",
                               labels=[0, 1, 2], cluster=rows[:, 0])  # fmt: skip
        call = ("20 complete rows, 14 subjects as clusters; "
                "`kappa_test(..., weights='linear', cluster=subject)`")  # fmt: skip
        multiagree(f"delta.pair, FEES (multilevel), {rater} vs {rater}R", call, printed, result,
                   "cluster-robust standard error")  # fmt: skip
    multiagree("delta.many1, fleiss_psy (Fleiss 1971)",
               "`agreement(ratings, coefficient='fleiss')`", MULTIAGREE_FLEISS_PSY,
               wk.agreement(FLEISS_1971, coefficient="fleiss"))  # fmt: skip
    return sections


# -------------------------------------------------------- kappaGold's inference tests
# R kappaGold 1.0 (github.com/cran/kappaGold), tests/testthat/test-kappaInference.R, quoting
# Fleiss, Levin & Paik (2003), Appendix C, solution to problem 18.3: three independent
# studies, two raters each, binary ratings (kappaGold's `agreem_binary`; rows rater A -, +;
# columns rater B -, +). Printed (2 decimals): kappas 0.39, 0.48, 0.35, SEs 0.21, 0.25,
# 0.17; overall kappa 0.39, 95% CI (0.16, 0.62), homogeneity X^2 0.18.
KAPPAGOLD_WHERE = (
    "Fleiss, Levin & Paik (2003), Appendix C, problem 18.3, as quoted in R kappaGold's tests "
    "(tests/testthat/test-kappaInference.R) on its agreem_binary data"
)
FLEISS_2003_PROBLEM_18_3 = {
    "study1": [[3, 4], [1, 12]],
    "study2": [[2, 1], [2, 15]],
    "study3": [[6, 3], [6, 15]],
}
FLEISS_2003_PROBLEM_18_3_PRINTED = {
    "kappas": (0.39, 0.48, 0.35),
    "standard_errors": (0.21, 0.25, 0.17),
    "overall": 0.39,
    "ci": (0.16, 0.62),
    "homogeneity_statistic": 0.18,
}
# Vanbelle & Albert (2008), section 5.2, as quoted in kappaGold's tests: diagnosis vs BDI
# against diagnosis vs GHQ on the depression data (DEPRESSION above), bootstrap test of equal
# dependent kappas: p 0.14 (T^2 2.19).
VANBELLE_2008_PAIRED_PVALUE = 0.14


def compute_designs_kappagold() -> list[tuple[str, str, list[tuple[str, float, float, float]]]]:
    """kappaGold's quoted printouts (Fleiss 2003 problem 18.3, Vanbelle & Albert 2008 and
    2009) for the validation page, as compute_designs."""
    printed = FLEISS_2003_PROBLEM_18_3_PRINTED
    result = wk.stratified_kappa_test_from_tables(
        list(FLEISS_2003_PROBLEM_18_3.values()), weights="unweighted"
    )
    low, high = result.confidence_interval()
    rows = [(f"kappa, study {h}", printed["kappas"][h - 1], r.statistic, 5e-3)
            for h, r in enumerate(result.results, 1)]  # fmt: skip
    rows += [(f"standard error, study {h}", printed["standard_errors"][h - 1],
              r.standard_error, 5e-3) for h, r in enumerate(result.results, 1)]  # fmt: skip
    rows += [("overall kappa", printed["overall"], result.statistic, 5e-3),
             ("95% CI, lower", printed["ci"][0], low, 5e-3),
             ("95% CI, upper", printed["ci"][1], high, 5e-3)]  # fmt: skip
    paired = wk.paired_kappa_test(DEPRESSION["diag"], DEPRESSION["BDI"], DEPRESSION["GHQ"],
                                  weights="unweighted", rng=20081, n_resamples=9999)  # fmt: skip
    groups = wk.group_agreement(SC_TEST_STUDENTS, SC_TEST_EXPERTS, weights="linear")
    return [
        ("Fleiss, Levin & Paik (2003), problem 18.3: three independent studies",
         f"{KAPPAGOLD_WHERE}; `stratified_kappa_test_from_tables(tables, weights='unweighted')`"
         "; the printed X^2 0.18 is the formula on the printed rounded kappas and SEs "
         f"(wkappa, unrounded: {result.homogeneity_statistic:.3f})", rows),
        ("Vanbelle & Albert (2008), section 5.2: equal dependent kappas, depression data",
         "as quoted in R kappaGold's tests (test-kappaInference.R); `paired_kappa_test(diag, "
         "BDI, GHQ, weights='unweighted', rng=20081)`, 9,999 resamples",
         [("bootstrap p-value", VANBELLE_2008_PAIRED_PVALUE, paired.pvalue, 5e-3)]),
        ("Vanbelle & Albert (2009), Table 5: two independent groups of raters",
         "script concordance test (39 students, 11 experts, 34 items; kappaGold's SC_test), "
         "as quoted in R kappaGold's tests (test-vanbelle.R); `group_agreement(students, "
         f"experts, weights='linear')` (bias-corrected {groups.bias_corrected:.4f}, "
         "kappaGold's value)",
         [("kappa", VANBELLE_2009_PRINTED["kappa"], groups.statistic, 5e-3),
          ("jackknife standard error", VANBELLE_2009_PRINTED["standard_error"],
           groups.standard_error, 5e-4)]),
    ]  # fmt: skip


# ------------------------------------------------ Vanbelle & Albert (2009), two groups
# Vanbelle, S. & Albert, A. (2009). Agreement between two independent groups of raters.
# Psychometrika 74, 477-491: the script concordance test, 34 items rated on -2..2 by 39
# students and 11 experts (R kappaGold 1.0's `SC_test` data, github.com/cran/kappaGold,
# data/SC_test.rda; columns S1-S39 then E1-E11). One string per item: the 39 students' then
# the 11 experts' ratings, each digit the rating + 2.
SC_TEST_ROWS = [
    "222322332232242322232322232222322222222 33342233224",
    "111121112111142211122212221222211222211 21111122211",
    "003100010000000100000101030110101011100 10110112011",
    "222232322232222122212222222222222222222 22201221222",
    "222223320332132222122232322222331222123 20203223213",
    "223232222222222222232222232332221223223 22102322222",
    "334333334334333333333333343333333323332 43333334332",
    "222222222222222222222222222222222232224 22322322222",
    "223332332233322332222222222222322222333 23332222233",
    "100001100000000001011001031000010001010 01100110110",
    "122123221232221222212212222221122223223 22222121222",
    "323333323333233333333333323233433323333 21322332233",
    "010000110010110000130111101121111013132 10001021131",
    "323432333203432322342243433233332243343 23433333224",
    "333433422234304331342333323433333433343 23333333223",
    "211222221231202222102212231111121101221 22121121223",
    "121322221222222121011221212022222222220 22221211222",
    "331413431334343311211443431121334343344 31434434034",
    "010121200030214000000110120310101010020 02020010210",
    "012212421332233222132332241331122232333 23232331132",
    "243413133311232333113431441431332311233 32134131433",
    "121222321203212221211111121222112341213 22123112232",
    "110411030104010340100100001010000020000 00010123010",
    "311121133113224111101312311113211121213 43322410312",
    "331331341434444344344313333311324242141 31013414321",
    "323342123103321331101120211123112132233 13221112022",
    "321301131313131111111010101010111131131 41323333222",
    "100000020000000220220010000020011000000 00000000000",
    "000011000000000410010000302000000110010 01100011100",
    "222132033304131223223322032024332433344 23422434224",
    "211022212112111221112210411112112100220 21121101221",
    "222222222222224222222222432224222232232 23222222222",
    "141011120114000220000010220000001020022 01022012222",
    "223012303321323303003130111013212232243 33320402100",
]
SC_TEST_STUDENTS = [[int(c) - 2 for c in row.split()[0]] for row in SC_TEST_ROWS]
SC_TEST_EXPERTS = [[int(c) - 2 for c in row.split()[1]] for row in SC_TEST_ROWS]
# Table 5, first row ("proposed method"), as quoted in kappaGold's tests/testthat/
# test-vanbelle.R (linear weights): kappa 0.72, SE 0.049.
VANBELLE_2009_PRINTED = {"kappa": 0.72, "standard_error": 0.049}
# R kappaGold 1.0's kappam_vanbelle(SC_test, refIdx = 1:39, ratingScale = -2:2, weights = w)
# run from its R source under R 4.2.2: (value0, value [bias-corrected], se, ci.lo, ci.hi);
# ci is the t_{33} interval around the bias-corrected value.
KAPPAGOLD_VANBELLE = {
    "unweighted": (0.671415677890542, 0.679413200518747, 0.041289718638732,
                   0.595408636320868, 0.763417764716626),
    "linear": (0.715232182661245, 0.725233438846117, 0.048711393820305,
               0.626129362958628, 0.824337514733607),
    "quadratic": (0.717147352139102, 0.729493275066132, 0.057398388731123,
                  0.612715375143718, 0.846271174988546),
}  # fmt: skip


# --------------------------------------------------------------------- ICC study planning
# R ICC.Sample.Size (Rathbone, Shoukri, Donner; github.com/cran/ICC.Sample.Size),
# calculateIccSampleSize: Walter, Eliasziw & Donner's (1998) closed form, rounded up. R
# presize 0.3 (github.com/CTU-Bern/presize), prec_icc: Bonett's (2002) formula, with his
# 5 rho more subjects for k = 2 and rho >= 0.7. Walter et al.'s own table was not found in a
# readable source: the exact power is checked against scipy.stats.f instead
# (tests/test_icc_planning.py).
_ICC_SS = (
    "R ICC.Sample.Size 1.1, calculateIccSampleSize(p = 0.75, p0 = 0.5, k = {k}, alpha = 0.05, "
    "tails = 1, power = 0.8) printed N = {n} (Walter, Eliasziw & Donner 1998's formula), as "
    "quoted with its call in a public sample-size notebook"
)
_PRESIZE_ICC = (
    "R presize, prec_icc(rho = {rho}, k = {k}, conf.width = 0.2) printed n = {n} (Bonett "
    "2002's formula{extra})"
)
ICC_PLAN_PRINTOUTS: list[PlanPrintout] = [
    *(
        PlanPrintout(
            _ICC_SS.format(k=k, n=n),
            {"icc1": 0.75, "icc0": 0.5, "n_raters": k, "method": "approximate"},
            n,
        )
        for k, n in ((3, 24), (2, 36))
    ),
    PlanPrintout(
        "Bonett (2002), Stat Med 21:1331-1335, worked example: rho = 0.85, k = 4, a 95% "
        "interval of width 0.2 needs n = 19.2, i.e. 20 subjects; R presize's tests "
        "(tests/testthat, 'icc (Bonett example)') check prec_icc(0.85, 4, conf.width = 0.2) "
        "gives n = 20",
        {"icc1": 0.85, "n_raters": 4, "ci_width": 0.2, "method": "approximate"},
        20,
    ),
    *(
        PlanPrintout(
            _PRESIZE_ICC.format(
                rho=0.75, k=k, n=n, extra=", plus 5 rho for k = 2" if k == 2 else ""
            ),
            {"icc1": 0.75, "n_raters": k, "ci_width": 0.2, "method": "approximate"},
            n,
        )
        for k, n in ((2, 79), (3, 52))
    ),
]
# R presize's tests (tests/testthat, 'icc'): prec_icc(rho = 0.5, k = 3, n = 50) has
# conf.width 0.3233102 (Bonett's formula solved for the width).
PRESIZE_ICC_WIDTH = ({"icc1": 0.5, "n_raters": 3, "method": "approximate"}, 50, 0.3233102)
