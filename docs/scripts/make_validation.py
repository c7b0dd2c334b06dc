"""Write the tables of the validation page from the test suite's published values.

Reads ``tests/published.py`` (the records ``tests/test_inference.py`` checks), computes
wkappa's value of each printed quantity and writes ``docs/validation.md``,
the validation page. Run by ``docs/conf.py`` at every build.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from published import (  # noqa: E402
    AGREEMENT_PRINTOUTS,
    NOT_REPRODUCED,
    PRINTOUTS,
    compute,
    compute_agreement,
    compute_designs,
    compute_designs_kappagold,
)

INTRO = """# Validation: published values

wkappa is checked three ways: against an exact `fractions.Fraction` reference (hypothesis
property tests, every route), against peer libraries on random data (scikit-learn,
statsmodels, torchmetrics), and against **published printouts**: the numbers other software
and papers printed for a given data set. This page lists every such published value the test
suite reproduces, with wkappa's value next to it. It is generated at each documentation build
by `docs/scripts/make_validation.py` from `tests/published.py`, the same records the tests
check, so it cannot drift from them.

"""
NAMES = {
    "kappa": "kappa",
    "standard_error": "standard error",
    "standard_error_null": "standard error under H0",
    "ci_low": "95% CI, lower",
    "ci_high": "95% CI, upper",
    "zscore": "z",
    "pvalue": "p, two-sided",
    "pvalue_greater": "p, one-sided (greater)",
    "kappa_over_se": "kappa / standard error",
    "statistic": "coefficient",
    "percent_agreement": "percent agreement pa",
    "chance_agreement": "chance agreement pe",
}


def _digits(tolerance: float) -> int:
    """Decimals printed: the tolerance is half a unit of the last one."""
    digits = 0
    while tolerance * 10**digits < 0.5 - 1e-12:
        digits += 1
    return digits


def render() -> str:
    lines: list[str] = []
    total = 0
    for printout in PRINTOUTS:
        computed = compute(printout)
        cite = f" {{cite:p}}`{printout.citation}`" if printout.citation else ""
        lines += [
            f"## {printout.source}",
            "",
            f"{printout.data}; weights: `{printout.weights}`. Source: {printout.where}{cite}."
            + (f" Note: {printout.note}." if printout.note else ""),
            "",
            "| quantity | published | wkappa | wkappa, rounded alike | match |",
            "|---|---:|---:|---:|:---:|",
        ]
        for name, (published, tolerance) in printout.values.items():
            value = computed[name]
            digits = _digits(tolerance)
            ok = abs(value - published) <= tolerance
            total += 1
            lines.append(
                f"| {NAMES[name]} | {published:.{digits}f} | {value:.10g} "
                f"| {value:.{digits}f} | {'yes' if ok else '**NO**'} |"
            )
        lines.append("")
    several: list[str] = [
        "## Several raters",
        "",
        "`wkappa.agreement`, `agreement_from_counts` and `krippendorff_alpha`; checked by "
        "`tests/test_agreement_published.py`.",
        "",
    ]
    for agreement in AGREEMENT_PRINTOUTS:
        computed = compute_agreement(agreement)
        options = ", ".join(_option(k, v) for k, v in agreement.options.items())
        several += [
            f"### {agreement.source}",
            "",
            f"{agreement.data}; `{agreement.call}({options})`. Source: {agreement.where}."
            + (f" Note: {agreement.note}." if agreement.note else ""),
            "",
            "| quantity | published | wkappa | wkappa, rounded alike | match |",
            "|---|---:|---:|---:|:---:|",
        ]
        for name, (published, tolerance) in agreement.values.items():
            value = computed[name]
            digits = _digits(tolerance) if name != "pvalue" else 10
            ok = abs(value - published) <= tolerance
            total += 1
            shown = f"{published:.7g}" if name == "pvalue" else f"{published:.{digits}f}"
            rounded = f"{value:.7g}" if name == "pvalue" else f"{value:.{digits}f}"
            label = "p-value" if name == "pvalue" else NAMES[name]
            several.append(
                f"| {label} | {shown} | {value:.10g} | {rounded} | {'yes' if ok else '**NO**'} |"
            )
        several.append("")
    designs: list[str] = [
        "## Strata and clusters",
        "",
        "Peers' printouts of stratified and clustered analyses; checked by "
        "`tests/test_homogeneity.py`, `tests/test_stratified.py`, "
        "`tests/test_published_multiagree.py` and `tests/test_two_groups.py`.",
        "",
    ]
    for title, where, values in compute_designs() + compute_designs_kappagold():
        designs += [
            f"### {title}",
            "",
            f"Source: {where}.",
            "",
            "| quantity | published | wkappa | match |",
            "|---|---:|---:|:---:|",
        ]
        for name, published, value, tolerance in values:
            total += 1
            ok = abs(value - published) <= tolerance
            designs.append(
                f"| {name} | {published:.12g} | {value:.12g} | {'yes' if ok else '**NO**'} |"
            )
        designs.append("")
    designs += ["## Not reproduced", "", "Published values wkappa does not compute, and why.", ""]
    for item in NOT_REPRODUCED:
        designs += [
            f"* **{item.source}** ({item.where}): {item.printed}. {item.reason}.",
        ]
    designs.append("")
    several += designs
    header = (
        INTRO
        + f"{total} printed values from {len(PRINTOUTS) + len(AGREEMENT_PRINTOUTS)} printouts and "
        f"{len(compute_designs()) + len(compute_designs_kappagold())} stratified, clustered or "
        "paired "
        "printouts; each is checked by the test suite "
        "(`tests/test_inference.py::test_published_printouts` for two raters) within half a "
        "unit of its last printed digit."
    )
    return header + "\n\n" + "\n".join(lines + several)


def _option(name: str, value: object) -> str:
    return f"{name}={value!r}"


def main() -> None:
    out = ROOT / "docs" / "validation.md"
    text = render()
    if not out.exists() or out.read_text() != text:
        out.write_text(text)


if __name__ == "__main__":
    main()
