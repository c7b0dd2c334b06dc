"""What a reader needs to cite and reproduce an HTML report: the exact command line, the
software and its version, the date, a methods sentence to paste and the references it cites.

The references are those of ``docs/references.bib`` written out (tests/test_report.py checks
each against its entry there), so the report cites them in full without any other file.
"""

from __future__ import annotations

import argparse
import html
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from .. import __version__

__all__ = [
    "REFERENCES",
    "Provenance",
    "command_html",
    "interval_words",
    "methods_html",
    "references_html",
    "resampling_words",
]

# Key of docs/references.bib -> the reference as the report prints it (APA-like).
REFERENCES = {
    "barnhart2002": "Barnhart, H. X., Haber, M., & Song, J. (2002). Overall concordance "
    "correlation coefficient for evaluating agreement among multiple observers. Biometrics, "
    "58(4), 1020-1027.",
    "brennan1981": "Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, "
    "misuses, and alternatives. Educational and Psychological Measurement, 41(3), 687-699. "
    "doi:10.1177/001316448104100307",
    "byrt1993": "Byrt, T., Bishop, J., & Carlin, J. B. (1993). Bias, prevalence and kappa. "
    "Journal of Clinical Epidemiology, 46(5), 423-429. doi:10.1016/0895-4356(93)90018-V",
    "cohen1960": "Cohen, J. (1960). A coefficient of agreement for nominal scales. "
    "Educational and Psychological Measurement, 20(1), 37-46. doi:10.1177/001316446002000104",
    "cohen1968": "Cohen, J. (1968). Weighted kappa: nominal scale agreement provision for "
    "scaled disagreement or partial credit. Psychological Bulletin, 70(4), 213-220. "
    "doi:10.1037/h0026256",
    "conger1980": "Conger, A. J. (1980). Integration and generalization of kappas for multiple "
    "raters. Psychological Bulletin, 88(2), 322-328.",
    "dinkelbach1967": "Dinkelbach, W. (1967). On nonlinear fractional programming. Management "
    "Science, 13(7), 492-498. doi:10.1287/mnsc.13.7.492",
    "donner1992": "Donner, A., & Eliasziw, M. (1992). A goodness-of-fit approach to inference "
    "procedures for the kappa statistic: confidence interval construction, significance-testing "
    "and sample size estimation. Statistics in Medicine, 11(11), 1511-1519. "
    "doi:10.1002/sim.4780111109",
    "donner1996": "Donner, A., Eliasziw, M., & Klar, N. (1996). Testing the homogeneity of "
    "kappa statistics. Biometrics, 52(1), 176-183. doi:10.2307/2533154",
    "efron1979": "Efron, B. (1979). Bootstrap methods: another look at the jackknife. The "
    "Annals of Statistics, 7(1), 1-26. doi:10.1214/aos/1176344552",
    "efron1987": "Efron, B. (1987). Better bootstrap confidence intervals. Journal of the "
    "American Statistical Association, 82(397), 171-185. doi:10.1080/01621459.1987.10478410",
    "fisher1915": "Fisher, R. A. (1915). Frequency distribution of the values of the "
    "correlation coefficient in samples from an indefinitely large population. Biometrika, "
    "10(4), 507-521. doi:10.2307/2331838",
    "flack1988": "Flack, V. F., Afifi, A. A., Lachenbruch, P. A., & Schouten, H. J. A. (1988). "
    "Sample size determinations for the two rater kappa statistic. Psychometrika, 53(3), "
    "321-325. doi:10.1007/BF02294215",
    "fleiss1971": "Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. "
    "Psychological Bulletin, 76(5), 378-382.",
    "fleiss1969": "Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard "
    "errors of kappa and weighted kappa. Psychological Bulletin, 72(5), 323-327. "
    "doi:10.1037/h0028106",
    "gwet2008": "Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the "
    "presence of high agreement. British Journal of Mathematical and Statistical Psychology, "
    "61(1), 29-48.",
    "hesterberg2015": "Hesterberg, T. C. (2015). What teachers should know about the "
    "bootstrap: resampling in the undergraduate statistics curriculum. The American "
    "Statistician, 69(4), 371-386. doi:10.1080/00031305.2015.1089789",
    "gwet2014": "Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.). "
    "Gaithersburg, MD: Advanced Analytics, LLC.",
    "krippendorff2019": "Krippendorff, K. (2019). Content Analysis: An Introduction to Its "
    "Methodology (4th ed.). Thousand Oaks, CA: SAGE Publications. doi:10.4135/9781071878781",
    "landis1977": "Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement "
    "for categorical data. Biometrics, 33(1), 159-174. doi:10.2307/2529310",
    "light1971": "Light, R. J. (1971). Measures of response agreement for qualitative data: "
    "some generalizations and alternatives. Psychological Bulletin, 76(5), 365-377. "
    "doi:10.1037/h0031643",
    "lin1989": "Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate "
    "reproducibility. Biometrics, 45(1), 255-268.",
    "lin2000": "Lin, L. I.-K. (2000). A note on the concordance correlation coefficient. "
    "Biometrics, 56(1), 324-325.",
    "mcgraw1996": "McGraw, K. O., & Wong, S. P. (1996). Forming inferences about some "
    "intraclass correlation coefficients. Psychological Methods, 1(1), 30-46.",
    "obuchowski1998": "Obuchowski, N. A. (1998). On the comparison of correlated proportions "
    "for clustered data. Statistics in Medicine, 17(13), 1495-1507.",
    "patterson1971": "Patterson, H. D., & Thompson, R. (1971). Recovery of inter-block "
    "information when block sizes are unequal. Biometrika, 58(3), 545-554. "
    "doi:10.1093/biomet/58.3.545",
    "sas_freq": "SAS Institute Inc. (2023). SAS/STAT User's Guide: The FREQ Procedure, Tests "
    "and Measures of Agreement. SAS documentation.",
    "shrout1979": "Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in "
    "assessing rater reliability. Psychological Bulletin, 86(2), 420-428.",
    "yang2014": "Yang, Z., & Zhou, M. (2014). Kappa statistic for clustered matched-pair "
    "data. Statistics in Medicine, 33(15), 2612-2633.",
}

# An interval method -> (its words in a methods sentence, the references they cite).
_INTERVALS = {
    "asymptotic": ("the asymptotic (Wald) interval, estimate ± z × standard error", ()),
    "score": (
        "the score-type interval (the variance of Fleiss, Cohen and Everitt (1969) evaluated "
        "at each value tested)",
        ("fleiss1969",),
    ),
    "fisher-z": ("the Fisher (1915) z-transformed interval", ("fisher1915",)),
    "percentile": ("the bootstrap percentile interval (Efron 1979)", ("efron1979",)),
    "bca": (
        "the bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987)",
        ("efron1979", "efron1987"),
    ),
    "expanded-percentile": (
        "the expanded percentile bootstrap interval of Hesterberg (2015) (the percentile "
        "interval of Efron (1979) read at a level widened for the sample size)",
        ("efron1979", "hesterberg2015"),
    ),
    "F": ("the F-based interval of McGraw and Wong (1996)", ("mcgraw1996",)),
}


def interval_words(method: str) -> tuple[str, tuple[str, ...]]:
    """How a methods sentence names an interval ``method`` and the references it cites."""
    return _INTERVALS.get(method, (f"the {method} interval", ()))


def resampling_words(n_resamples: int, seed: int | None, unit: str = "") -> str:
    """``999 resamples of the clusters, random seed 3``: what a reader needs to repeat a
    bootstrap (``unit``: what was resampled, when not the items or pairs)."""
    of = f" of the {unit}" if unit else ""
    if seed is None:
        return f"{n_resamples:,} resamples{of}, no random seed fixed (a rerun draws others)"
    return f"{n_resamples:,} resamples{of}, random seed {seed}"


@dataclass(frozen=True)
class Provenance:
    """The command line that made a report, the software's version and the time (UTC)."""

    command: str
    version: str
    made: datetime

    @classmethod
    def of(cls, args: argparse.Namespace | None) -> Provenance:
        """From a run's parsed options: ``args.command_line`` holds the words after
        ``wkappa`` as typed (set by :func:`wkappa._cli.app.main`)."""
        words: Sequence[str] = getattr(args, "command_line", None) or ()
        command = shlex.join(["wkappa", *map(str, words)])
        return cls(command, __version__, datetime.now(timezone.utc))

    @property
    def date(self) -> str:
        """``2026-11-27``."""
        return self.made.strftime("%Y-%m-%d")

    @property
    def stamp(self) -> str:
        """``2026-11-27 10:31 UTC``."""
        return self.made.strftime("%Y-%m-%d %H:%M UTC")

    @property
    def software(self) -> str:
        """``wkappa 0.1.0``."""
        return f"wkappa {self.version}"

    def html(self) -> str:
        """The section a reader needs to reproduce the report."""
        return (
            '<h2>Reproduce</h2><p class="note">Made by '
            f"{html.escape(self.software)} on {self.stamp} with:</p>"
            f'<pre class="command">{command_html(self.command)}</pre>'
        )


# A word of a command line up to this long is kept on one line of the report: a line broken
# inside "--report" reads "- -report" on paper. A longer one (a path) may break anywhere.
_UNBROKEN_WORD = 40


def command_html(command: str) -> str:
    """A shell ``command`` (as :func:`shlex.join` writes it) as HTML whose lines break only
    between words (but inside a word longer than 40 characters); its text is ``command``.

    Examples
    --------
    >>> print(command_html("wkappa score a.csv"))
    <span class="word">wkappa</span> <span class="word">score</span> <span class="word">a.csv</span>
    """
    words = [shlex.quote(word) for word in shlex.split(command)]
    return " ".join(
        f'<span class="word">{html.escape(w)}</span>'
        if len(w) <= _UNBROKEN_WORD
        else html.escape(w)
        for w in words
    )


def methods_html(sentence: str) -> str:
    """The methods paragraph, in a box a reader selects and pastes (escaped)."""
    return '<h2>Methods (to paste)</h2><p class="methods">' + html.escape(sentence) + "</p>"


def references_html(keys: Iterable[str]) -> str:
    """The references cited, in full, sorted (each key once)."""
    cited = sorted({REFERENCES[key] for key in keys})
    items = "".join(f"<li>{html.escape(text)}</li>" for text in cited)
    return f'<h2>References</h2><ol class="references">{items}</ol>'
