"""The methods sentence of ``wkappa plan --report`` names each planning method with its
reference, and the report lists that reference in full."""

from __future__ import annotations

import html
import re

import pytest

from wkappa._cli.app import main

_DESIGN = ["plan", "--kappa1", "0.75", "--kappa0", "0.6", "--marginals", "0.4,0.3,0.2,0.1"]


def _methods_and_references(page: str) -> tuple[str, str]:
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    methods = text[text.index("Methods (to paste)") :]
    methods = methods[: methods.index("Computed with")]
    references = text[text.index("References") :] if "References" in text else ""
    return methods, references


@pytest.mark.parametrize(
    ("options", "named", "reference"),
    [
        (
            ["--weights", "linear"],
            "(Fleiss, Cohen and Everitt 1969)",
            "Psychological Bulletin, 72(5)",
        ),
        (
            ["--weights", "linear", "--method", "max-variance"],
            "(Flack, Afifi, Lachenbruch and Schouten 1988)",
            "Psychometrika, 53(3), 321-325",
        ),
        (
            ["--weights", "unweighted", "--method", "goodness-of-fit", "--raters", "3"],
            "the goodness-of-fit approach of Donner and Eliasziw (1992)",
            "Statistics in Medicine, 11(11), 1511-1519",
        ),
        (
            [
                "--weights",
                "linear",
                "--method",
                "simulation",
                "--simulations",
                "200",
                "--seed",
                "1",
            ],
            "each analysed with the large-sample variance of kappa (Fleiss, Cohen and Everitt "
            "1969)",
            "Psychological Bulletin, 72(5)",
        ),
    ],
)
def test_plan_methods_sentence_cites_its_method(options, named, reference, tmp_path, capsys):
    """The max-variance and goodness-of-fit sentences named no source ('the largest variance
    kappa can have', 'the formulas of R's kappaSize') and the report had no References."""
    out = tmp_path / "plan.html"
    assert main([*_DESIGN, *options, "--report", str(out), "--quiet"]) == 0, capsys.readouterr().err
    methods, references = _methods_and_references(out.read_text(encoding="utf-8"))
    assert named in methods, methods
    assert reference in references, references
