"""Sphinx configuration of the wkappa documentation (``make docs``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import wkappa  # noqa: E402

project = "wkappa"
author = "wkappa developers"
copyright = "2026, wkappa developers"
release = wkappa.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # MathJax 3 shipped in the wheel and copied into _static/mathjax: formulas render offline
    # (no CDN), where clinical and enterprise readers often read.
    "sphinx-mathjax-offline",
    "numpydoc",
    "myst_parser",
    "sphinx_copybutton",
    "sphinxarg.ext",
    "sphinxcontrib.bibtex",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "scripts", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]
html_static_path = ["_static"]

# Strict: every cross-reference must resolve (make docs runs with -W --keep-going -n).
nitpicky = True
# No network: intersphinx is not used, so names of other libraries stay plain text.
nitpick_ignore_regex = [
    # numpydoc links Python's and numpy's own types to their documentation through
    # intersphinx names (python:float, numpy:array_like), which stay plain text offline.
    (r"py:.*|std:term|term|std:ref|ref", r"(python|numpy):.*"),
    (
        "py:.*",
        r"(numpy|np|pandas|pd|polars|pl|pyarrow|pa|narwhals|nw|dask|distributed"
        r"|pyspark|duckdb|torch|sklearn|scipy|matplotlib|lightgbm|lgb|xgboost|xgb|catboost|cb"
        r"|jax|cupy|typing|collections|numpy\.typing|npt)\..*",
    ),
]
nitpick_ignore = [
    ("py:class", t)
    for t in (
        # Python built-ins and standard types, written as numpydoc type strings.
        "optional",
        "callable",
        "iterable",
        "sequence",
        "mapping",
        "array-like",
        "array_like",
        "ndarray",
        "DataFrame",
        "Series",
        "LazyFrame",
        "Tensor",
        "Booster",
        "DMatrix",
        "Dataset",
        "Generator",
        "RandomState",
        "SeedSequence",
        "Figure",
        "Axes",
        "torch.Tensor",
        "nn.Module",
        "BaseEstimator",
        "Pool",
    )
]
# External classes named in type strings without their module.
nitpick_ignore += [
    ("py:obj", t)
    for t in ("Tensor", "Axes", "ProcessGroup", "matplotlib", "DataFrame", "SeedSequence")
]

# autodoc / autosummary / numpydoc
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"
autodoc_default_options = {"inherited-members": False}
add_module_names = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = True
numpydoc_xref_ignore = {
    "of",
    "or",
    "and",
    "optional",
    "default",
    "shape",
    "the",
    "a",
    "an",
    "with",
    "as",
    "in",
    "same",
    "length",
    "n",
    "K",
    "k",
    "B",
    "m",
    "dtype",
    "type",
    "one",
    "each",
    "per",
    "like",
    "to",
    "from",
    "on",
    "any",
    "if",
    "is",
    "by",
    "for",
    "at",
    "not",
    "None",
    "True",
    "False",
    "*",
    "x",
}
# Words of the docstrings' type strings that are not names ("sequence of K categories").
numpydoc_xref_ignore |= {
    "p", "N", "categories", "three", "regressor", "frame", "data", "self", "scorer", "library",
    "grades", "float64", "n_items", "n_raters", "P", "R",
}  # fmt: skip
numpydoc_xref_aliases = {
    "ArrayLike": "numpy.typing.ArrayLike",
    "KappaResult": "wkappa.KappaResult",
    "PairedKappaResult": "wkappa.PairedKappaResult",
    "ThresholdResult": "wkappa.ThresholdResult",
    "ConfidenceInterval": "wkappa.ConfidenceInterval",
    "BootstrapMethod": "wkappa.BootstrapMethod",
    "KappaAccumulator": "wkappa.KappaAccumulator",
    "WkappaError": "wkappa.exceptions.WkappaError",
    "WkappaTypeError": "wkappa.exceptions.WkappaTypeError",
    "UndefinedKappaWarning": "wkappa.exceptions.UndefinedKappaWarning",
}
numpydoc_validation_checks: set[str] = set()

# MyST
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

# Bibliography
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "plain"
bibtex_reference_style = "author_year"

# HTML
html_theme = "pydata_sphinx_theme"
html_title = f"wkappa {release}"
html_favicon = "_static/favicon.svg"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# Without it a first visit logs "Got invalid theme mode" on the console.
html_context = {"default_mode": "auto"}
# Pages without sub-pages get no (empty) navigation column.
html_sidebars: dict[str, list[str]] = {
    page: []
    for page in (
        "bibliography",
        "changelog",
        "citing",
        "contributing",
        "getting-started",
        "validation",
    )
}
# Long console lines and code wrap inside the text column instead of overflowing it.
html_css_files = ["wkappa.css"]
html_show_sourcelink = False

copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True


# The pages and figures drawn from the project's own data, written before Sphinx looks for
# source files: the API page (from each module's __all__), the validation tables (from the
# tests' published values) and the performance figures (from BENCHMARKS.md).
for _script in ("make_api.py", "make_validation.py", "plot_performance.py"):
    subprocess.run([sys.executable, str(HERE / "scripts" / _script)], check=True, env=os.environ)


def _skip_foreign_member(
    app: object, what: str, name: str, obj: object, skip: bool, options: object
) -> bool | None:
    """Document only what wkappa defines: not the request methods scikit-learn generates."""
    module = getattr(obj, "__module__", None)
    if what == "class" and isinstance(module, str) and not module.startswith("wkappa"):
        return True
    return None


def setup(app: object) -> None:
    app.connect("autodoc-skip-member", _skip_foreign_member)  # type: ignore[attr-defined]
