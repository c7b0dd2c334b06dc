"""One API grammar: every keyword of an array function exists, with the same default, on its
:mod:`wkappa.frames` counterpart (apart from the few listed below, each with its reason)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import wkappa as wk

wkf = pytest.importorskip("wkappa.frames")

# frames function -> its array counterpart(s).
COUNTERPARTS: dict[str, list[str]] = {
    "weighted_kappa": ["weighted_kappa"],
    "confusion_table": ["confusion_table"],
    "kappa_test": ["kappa_test"],
    "paired_kappa_test": ["paired_kappa_test"],
    "kappa_by_group": ["kappa_test"],
    "agreement": ["agreement", "krippendorff_alpha"],
    "krippendorff_alpha": ["krippendorff_alpha"],
    "rater_vs_panel": ["rater_vs_panel"],
    "icc": ["icc"],
    "icc_all": ["icc_all"],
    "ccc": ["ccc"],
}

# (frames function, array function, array parameter) -> why the frames side has no such
# keyword. The data arguments are the frame's columns, named by the frames keywords.
EXCLUDED: dict[tuple[str, str, str], str] = {
    ("agreement", "agreement", "ratings"): "the rater columns: raters= or item/rater/rating=",
    ("agreement", "agreement", "multiplicity"): (
        "the engine counts the frame's repeated rows itself: they are the multiplicities"
    ),
    ("agreement", "krippendorff_alpha", "ratings"): (
        "the rater columns: raters= or item/rater/rating="
    ),
    ("krippendorff_alpha", "krippendorff_alpha", "ratings"): (
        "the rater columns: raters= or item/rater/rating="
    ),
    ("rater_vs_panel", "rater_vs_panel", "ratings"): (
        "the panel's columns: raters= or item/rater/rating="
    ),
    ("icc", "icc", "ratings"): "the rater columns: raters= or item/rater/rating=",
    ("icc_all", "icc_all", "ratings"): "the rater columns: raters= or item/rater/rating=",
    ("ccc", "ccc", "x"): "the two rater columns: raters= or item/rater/rating=",
    ("ccc", "ccc", "y"): "the two rater columns: raters= or item/rater/rating=",
}

# (frames function, array function, parameter) -> why the defaults differ.
DEFAULTS_DIFFER: dict[tuple[str, str, str], str] = {
    ("agreement", "krippendorff_alpha", "level"): (
        "frames.agreement serves every coefficient: level=None is the coefficient with "
        "`weights`; coefficient='krippendorff', level='nominal' is krippendorff_alpha's default"
    ),
}


def _parameters(function: Callable[..., Any]) -> dict[str, inspect.Parameter]:
    return dict(inspect.signature(function).parameters)


def _pairs() -> list[tuple[str, str]]:
    return [(name, array) for name, arrays in COUNTERPARTS.items() for array in arrays]


def test_every_frames_function_is_paired() -> None:
    """A new frames function gets its array counterpart listed here."""
    assert set(wkf.__all__) == set(COUNTERPARTS)


@pytest.mark.parametrize(("name", "array"), _pairs())
def test_frames_takes_every_array_keyword(name: str, array: str) -> None:
    frames_side = _parameters(getattr(wkf, name))
    missing = []
    for parameter in _parameters(getattr(wk, array)).values():
        if (name, array, parameter.name) in EXCLUDED:
            assert parameter.name not in frames_side, "an excluded keyword exists: unlist it"
            continue
        if parameter.name not in frames_side:
            missing.append(parameter.name)
            continue
        frames_parameter = frames_side[parameter.name]
        assert frames_parameter.kind is inspect.Parameter.KEYWORD_ONLY, parameter.name
        if (name, array, parameter.name) in DEFAULTS_DIFFER:
            continue
        assert frames_parameter.default == parameter.default, (
            f"frames.{name}({parameter.name}=) defaults to {frames_parameter.default!r}, "
            f"wkappa.{array} to {parameter.default!r}"
        )
    assert not missing, f"frames.{name} lacks wkappa.{array}'s {missing}"


def test_frames_agreement_level_is_krippendorff_alpha_level() -> None:
    """frames.agreement(coefficient='krippendorff', level=...) takes the levels of
    wkappa.krippendorff_alpha; None (the default) is the coefficient's ``weights``."""
    frames_level = _parameters(wkf.agreement)["level"]
    assert frames_level.kind is inspect.Parameter.KEYWORD_ONLY
    assert frames_level.default is None
    alpha_level = _parameters(wk.krippendorff_alpha)["level"]
    assert str(alpha_level.annotation) in str(frames_level.annotation)


def test_exclusions_name_real_parameters() -> None:
    for name, array, parameter in [*EXCLUDED, *DEFAULTS_DIFFER]:
        assert parameter in _parameters(getattr(wk, array)), (name, array, parameter)
        assert array in COUNTERPARTS[name]
