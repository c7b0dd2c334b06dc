"""mean_kappa: the Fisher r-to-z average of the ASAP competitions (Kaggle Metrics package)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from budget import examples
from wkappa.exceptions import WkappaError, WkappaTypeError


def metrics_mean_quadratic_weighted_kappa(kappas, weights=None):  # type: ignore[no-untyped-def]
    """benhamner/Metrics, Python/ml_metrics/quadratic_weighted_kappa.py (commit 51bfade),
    mean_quadratic_weighted_kappa, transcribed (the Python 2 original; weights as an array)."""
    kappas = np.array(kappas, dtype=float)
    if weights is None:
        weights = np.ones(np.shape(kappas))
    else:
        weights = np.asarray(weights, dtype=float) / np.mean(weights)
    kappas = np.array([min(x, 0.999) for x in kappas])
    kappas = np.array([max(x, -0.999) for x in kappas])
    z = 0.5 * np.log((1 + kappas) / (1 - kappas)) * weights
    z = np.mean(z)
    return (np.exp(2 * z) - 1) / (np.exp(2 * z) + 1)


kappa_values = st.floats(-1.0, 1.0, allow_nan=False)


@settings(max_examples=examples(300), deadline=None)
@given(
    kappas=st.lists(kappa_values, min_size=1, max_size=12),
    data=st.data(),
)
def test_matches_metrics_package(kappas: list[float], data: st.DataObject) -> None:
    weighted = data.draw(st.booleans())
    weights = (
        data.draw(st.lists(st.floats(0.01, 100), min_size=len(kappas), max_size=len(kappas)))
        if weighted
        else None
    )
    expected = metrics_mean_quadratic_weighted_kappa(kappas, weights)
    assert wk.mean_kappa(kappas, weights=weights) == pytest.approx(expected, rel=1e-12, abs=1e-13)


def test_values() -> None:
    assert wk.mean_kappa([0.5]) == pytest.approx(0.5, rel=1e-15)
    assert wk.mean_kappa([0.5, 0.5, 0.5], weights=[1, 5, 2]) == pytest.approx(0.5, rel=1e-15)
    assert wk.mean_kappa([1.0]) == pytest.approx(0.999)
    assert wk.mean_kappa([-1.0, 1.0]) == pytest.approx(0.0, abs=1e-15)
    z = (math.atanh(0.8) * 3 + math.atanh(0.2)) / 4
    assert wk.mean_kappa([0.8, 0.2], weights=[3, 1]) == pytest.approx(math.tanh(z), rel=1e-15)
    assert wk.mean_kappa([0.8, 0.2, 0.9], weights=[3, 1, 0]) == pytest.approx(math.tanh(z))
    assert isinstance(wk.mean_kappa(np.array([0.3, 0.4])), float)


def test_only_the_ends_of_the_range_are_clipped() -> None:
    """Kappas above 0.999 (1 included) count as 0.999, as in the Metrics package; inside
    [-0.999, 0.999] nothing changes."""
    assert wk.mean_kappa([1.0, 0.5]) == wk.mean_kappa([0.999, 0.5])
    assert wk.mean_kappa([0.9995, 0.5]) == wk.mean_kappa([0.999, 0.5])
    assert wk.mean_kappa([-1.0, 0.5]) == wk.mean_kappa([-0.999, 0.5])
    assert wk.mean_kappa([0.998, 0.5]) != wk.mean_kappa([0.999, 0.5])


@pytest.mark.parametrize(
    ("kappas", "weights", "match"),
    [
        ([], None, "empty"),
        ([0.5, float("nan")], None, "finite"),
        ([1.5, 0.5], None, r"`kappas` must lie in \[-1, 1\]; kappas\[0\] = 1\.5"),
        ([-3.0, 0.5], None, r"`kappas` must lie in \[-1, 1\]; kappas\[0\] = -3\.0"),
        ([0.5, 85], None, r"kappas\[1\] = 85\.0\. .* Hint: pass kappas as fractions"),
        ([0.5, 1 + 2**-52], None, r"`kappas` must lie in \[-1, 1\]"),
        ([0.5, -1 - 2**-52], [1.0, 1.0], r"`kappas` must lie in \[-1, 1\]"),
        ([[0.5]], None, "1-D"),
        (["a"], None, "numbers"),
        ([0.5, 0.6], [1.0], "weights"),
        ([0.5, 0.6], [1.0, -1.0], "weights"),
        ([0.5, 0.6], [0.0, 0.0], "weights"),
    ],
)
def test_bad_input(kappas: object, weights: object, match: str) -> None:
    with pytest.raises(WkappaError, match=match):
        wk.mean_kappa(kappas, weights=weights)  # type: ignore[arg-type]


@settings(max_examples=examples(300), deadline=None)
@given(
    kappa=st.floats(-1.0, 1.0, allow_nan=False, exclude_min=True, exclude_max=True),
    count=st.integers(1, 9),
    weights=st.none() | st.lists(st.floats(0.01, 100), min_size=9, max_size=9),
)
def test_equal_kappas_average_to_that_kappa_exactly(
    kappa: float, count: int, weights: list[float] | None
) -> None:
    """tanh(atanh(k)) is not always k in floating point (0.5 gave 0.5000000000000001); the
    mean of equal kappas is the kappa itself (clipped to [-0.999, 0.999] as always)."""
    chosen = None if weights is None else weights[:count]
    expected = min(max(kappa, -0.999), 0.999)
    assert wk.mean_kappa([kappa] * count, weights=chosen) == expected


@settings(max_examples=examples(300), deadline=None)
@given(kappas=st.lists(kappa_values, min_size=1, max_size=12))
def test_the_mean_lies_between_the_smallest_and_largest_kappa(kappas: list[float]) -> None:
    clipped = np.clip(kappas, -0.999, 0.999)
    assert clipped.min() <= wk.mean_kappa(kappas) <= clipped.max()


def test_exact_values() -> None:
    assert wk.mean_kappa([0.5, 0.5]) == 0.5
    assert wk.mean_kappa([1.0, 1.0]) == 0.999
    assert wk.mean_kappa([0.8, 0.8, 0.2], weights=[1, 1, 0]) == 0.8


@pytest.mark.parametrize(
    ("kappas", "weights", "shown"),
    [
        (["0.5"], None, "got '0.5' at kappas[0]"),
        ([0.5, "0.4"], None, "got '0.4' at kappas[1]"),
        (np.array(["0.5", "0.6"]), None, "got '0.5' at kappas[0]"),
        ([True, 0.5], None, "got True at kappas[0]"),
        ([0.5, 0.6], ["1", "2"], "got '1' at weights[0]"),
    ],
)
def test_strings_and_bools_are_not_numbers(kappas: object, weights: object, shown: str) -> None:
    """numpy reads '0.5' as 0.5 and True as 1; mean_kappa refuses them, naming the value."""
    with pytest.raises(WkappaTypeError, match="must be a 1-D sequence of numbers") as caught:
        wk.mean_kappa(kappas, weights=weights)  # type: ignore[arg-type]
    assert shown in str(caught.value)
