"""frames.agreement(coefficient='krippendorff', level=...): Krippendorff's own metrics on a
data frame, equal to wkappa.krippendorff_alpha on the same ratings (pandas and polars, wide
and long layouts, by= groups, cluster=)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError

pl = pytest.importorskip("polars")
pd = pytest.importorskip("pandas")
wkf = pytest.importorskip("wkappa.frames")

LEVELS = ["nominal", "ordinal", "interval", "ratio"]

rng = np.random.default_rng(7)
N = 120
TRUTH = rng.integers(1, 6, N)
RATINGS = np.column_stack(
    [np.where(rng.random(N) < 0.7, TRUTH, rng.integers(1, 6, N)) for _ in range(3)]
).astype(float)
RATINGS[rng.random(RATINGS.shape) < 0.1] = np.nan
GROUP = rng.integers(0, 2, N)
CLUSTER = np.arange(N) // 4


def _wide(library: str) -> Any:
    columns: dict[str, list[Any]] = {
        f"r{g}": [None if np.isnan(v) else int(v) for v in RATINGS[:, g]] for g in range(3)
    }
    columns |= {"site": GROUP.tolist(), "task": CLUSTER.tolist()}
    if library == "polars":
        return pl.DataFrame(columns)
    frame = pd.DataFrame(columns)
    return frame.astype({f"r{g}": "Int64" for g in range(3)})


def _long(library: str) -> Any:
    kept = [(i, g) for i in range(N) for g in range(3) if not np.isnan(RATINGS[i, g])]
    columns = {
        "item": [i for i, _ in kept],
        "coder": [f"r{g}" for _, g in kept],
        "grade": [int(RATINGS[i, g]) for i, g in kept],
        "site": [int(GROUP[i]) for i, _ in kept],
        "task": [int(CLUSTER[i]) for i, _ in kept],
    }
    return pl.DataFrame(columns) if library == "polars" else pd.DataFrame(columns)


def _layout(layout: str) -> dict[str, Any]:
    if layout == "wide":
        return {"raters": ["r0", "r1", "r2"]}
    return {"item": "item", "rater": "coder", "rating": "grade"}


def _same(result: wk.AgreementResult, expected: wk.AgreementResult) -> None:
    assert result.coefficient == expected.coefficient == "krippendorff"
    assert result.level == expected.level
    assert result.weights == expected.weights
    assert (result.n_items, result.n_ratings) == (expected.n_items, expected.n_ratings)
    np.testing.assert_allclose(result.statistic, expected.statistic, rtol=1e-12)
    np.testing.assert_allclose(result.standard_error, expected.standard_error, rtol=1e-12)
    np.testing.assert_allclose(result.weight_matrix, expected.weight_matrix, rtol=1e-12)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("layout", ["wide", "long"])
@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_level_equals_krippendorff_alpha(level: str, layout: str, library: str) -> None:
    frame = _wide(library) if layout == "wide" else _long(library)
    result = wkf.agreement(frame, **_layout(layout), coefficient="krippendorff", level=level)
    _same(result, wk.krippendorff_alpha(RATINGS, level=level))


@pytest.mark.parametrize("level", ["ordinal", "interval"])
@pytest.mark.parametrize("layout", ["wide", "long"])
def test_level_by_groups(level: str, layout: str) -> None:
    frame = _wide("polars") if layout == "wide" else _long("polars")
    results = wkf.agreement(
        frame, **_layout(layout), by="site", coefficient="krippendorff", level=level
    )
    assert set(results) == {0, 1}
    for site, result in results.items():
        # One set of categories across the groups: the integer range of all the ratings.
        expected = wk.krippendorff_alpha(RATINGS[GROUP == site], level=level, min_rating=1)
        _same(result, expected)


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_level_with_cluster(layout: str) -> None:
    frame = _wide("pandas") if layout == "wide" else _long("pandas")
    result = wkf.agreement(
        frame, **_layout(layout), cluster="task", coefficient="krippendorff", level="ordinal"
    )
    _same(result, wk.krippendorff_alpha(RATINGS, level="ordinal", cluster=CLUSTER))


def test_level_passes_the_other_options() -> None:
    frame = _wide("polars")
    options = {"labels": [1, 2, 3, 4, 5, 6], "alternative": "greater", "kappa0": 0.2}
    result = wkf.agreement(
        frame, raters=["r0", "r1", "r2"], coefficient="krippendorff", level="ratio", **options
    )
    expected = wk.krippendorff_alpha(RATINGS, level="ratio", **options)
    _same(result, expected)
    np.testing.assert_allclose(result.pvalue, expected.pvalue, rtol=1e-12)
    assert (result.alternative, result.kappa0) == ("greater", 0.2)


def test_default_level_keeps_weights() -> None:
    """Without level, coefficient='krippendorff' is alpha with ``weights`` (Gwet's)."""
    frame = _wide("polars")
    result = wkf.agreement(
        frame, raters=["r0", "r1", "r2"], coefficient="krippendorff", weights="ordinal"
    )
    expected = wk.agreement(RATINGS, coefficient="krippendorff", weights="ordinal")
    assert result.level is None
    np.testing.assert_allclose(result.statistic, expected.statistic, rtol=1e-12)


def test_level_errors() -> None:
    frame = _wide("polars")
    raters = ["r0", "r1", "r2"]
    with pytest.raises(WkappaError, match=r"`level`='ordinal' is Krippendorff's .* not 'fleiss'"):
        wkf.agreement(frame, raters=raters, level="ordinal")
    with pytest.raises(WkappaError, match=r"`weights`='quadratic' both set alpha's metric"):
        wkf.agreement(
            frame, raters=raters, coefficient="krippendorff", weights="quadratic", level="interval"
        )
    with pytest.raises(WkappaError, match="level"):
        wkf.agreement(frame, raters=raters, coefficient="krippendorff", level="ordered")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("layout", ["wide", "long"])
def test_frames_krippendorff_alpha(level: str, layout: str) -> None:
    frame = _wide("pandas") if layout == "wide" else _long("polars")
    result = wkf.krippendorff_alpha(frame, **_layout(layout), level=level)
    _same(result, wk.krippendorff_alpha(RATINGS, level=level))
    grouped = wkf.krippendorff_alpha(frame, **_layout(layout), by="site", level=level)
    expected = wkf.agreement(
        frame, **_layout(layout), by="site", coefficient="krippendorff", level=level
    )
    assert set(grouped) == set(expected) == {0, 1}
    for site, alpha in grouped.items():
        _same(alpha, expected[site])


def test_frames_krippendorff_alpha_errors() -> None:
    frame = _wide("polars")
    with pytest.raises(WkappaError, match="level"):
        wkf.krippendorff_alpha(frame, raters=["r0", "r1", "r2"], level=None)
    with pytest.raises(wk.WkappaTypeError, match=r"frames.krippendorff_alpha\(df, raters="):
        wkf.krippendorff_alpha(frame, ["r0", "r1"])


@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_level_by_groups_on_values_that_are_not_whole(level: str) -> None:
    """At the interval and ratio levels, numbers that are not whole are categories as they
    are, in every group: the sorted distinct values of all the ratings."""
    values = np.array([0.25, 0.95, 1.65, 2.5])
    a, b = values[[0, 1, 2, 0, 1, 3, 2, 3]], values[[0, 1, 1, 0, 2, 3, 3, 2]]
    site = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    frame = pd.DataFrame({"a": a, "b": b, "site": site})
    results = wkf.agreement(
        frame, raters=["a", "b"], by="site", coefficient="krippendorff", level=level
    )
    for group, result in results.items():
        ratings = np.column_stack([a, b])[site == group]
        _same(result, wk.krippendorff_alpha(ratings, level=level, labels=values))
