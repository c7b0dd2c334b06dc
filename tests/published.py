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
        "zscore": result.zscore,
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
]
