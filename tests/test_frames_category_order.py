"""Several raters' ordered categorical ratings (pandas ordered ``Categorical``, polars
``Enum``, pyarrow ordered dictionary, DuckDB ``ENUM``) keep their order, unused categories
included, in both layouts of ``wkappa.frames.agreement`` and ``rater_vs_panel`` on every
frame library: weighted coefficients then need no ``labels``, as for two raters.

The long layout's engine count and pivot pass the ratings through polars, and a DuckDB
relation's rows come back as Arrow: both lost the order (a weighted coefficient was refused,
an unweighted one counted the used categories, sorted as text)."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk

wkf = pytest.importorskip("wkappa.frames")

GRADES = ["low", "mid", "high", "top"]  # "top" is never used; not in text order
ITEMS = 8
CODES = np.array(  # items x raters, NaN: not rated
    [[0, 0, 1], [1, 2, 1], [2, 2, 2], [np.nan, 1, 1], [0, 1, 0], [2, 2, 1], [1, 1, 1], [0, 0, 2]]
)
RATERS = ["ann", "bob", "cid"]


def _grade(code: float) -> str | None:
    return None if np.isnan(code) else GRADES[int(code)]


def _wide() -> dict[str, list]:
    return {name: [_grade(c) for c in CODES[:, j]] for j, name in enumerate(RATERS)}


def _long() -> dict[str, list]:
    rows = [(i, name, _grade(CODES[i, j])) for i in range(ITEMS) for j, name in enumerate(RATERS)]
    return {
        "item": [r[0] for r in rows],
        "who": [r[1] for r in rows],
        "grade": [r[2] for r in rows],
    }


def _labels(frame_library) -> dict:
    return {} if frame_library.ordered_categories else {"labels": GRADES}


@pytest.mark.parametrize("weights", ["unweighted", "quadratic"])
def test_agreement_wide_and_long_keep_the_order(frame_library, weights):
    expected = wk.agreement(CODES, labels=[0, 1, 2, 3], weights=weights)
    wide = frame_library.frame(_wide(), dict.fromkeys(RATERS, GRADES))
    long = frame_library.frame(_long(), {"grade": GRADES})
    found = [
        wkf.agreement(wide, raters=RATERS, weights=weights, **_labels(frame_library)),
        wkf.agreement(
            long, item="item", rater="who", rating="grade", weights=weights,
            **_labels(frame_library),
        ),
    ]  # fmt: skip
    for result in found:
        assert tuple(result.labels) == tuple(GRADES)
        assert result.statistic == pytest.approx(expected.statistic, abs=1e-14)
        assert result.standard_error == pytest.approx(expected.standard_error, abs=1e-14)


def test_rater_vs_panel_long_weighted_without_labels(frame_library):
    panel, candidate = CODES[:, :2], CODES[:, 2]
    expected = wk.rater_vs_panel(
        panel, candidate, labels=[0, 1, 2, 3], weights="quadratic", n_resamples=99, rng=0
    )
    long = frame_library.frame(_long(), {"grade": GRADES})
    result = wkf.rater_vs_panel(
        long, candidate="cid", item="item", rater="who", rating="grade", weights="quadratic",
        n_resamples=99, rng=0, **_labels(frame_library),
    )  # fmt: skip
    assert result.panel_agreement == pytest.approx(expected.panel_agreement, abs=1e-14)
    assert result.candidate_agreement == pytest.approx(expected.candidate_agreement, abs=1e-14)


def test_agreement_long_by_group_keeps_the_order(frame_library):
    columns = _long()
    columns["site"] = [1 if i < ITEMS // 2 else 2 for i in columns["item"]]
    frame = frame_library.frame(columns, {"grade": GRADES})
    results = wkf.agreement(
        frame, item="item", rater="who", rating="grade", by="site", weights="linear",
        **_labels(frame_library),
    )  # fmt: skip
    half = ITEMS // 2
    for site, rows in ((1, CODES[:half]), (2, CODES[half:])):
        expected = wk.agreement(rows, labels=[0, 1, 2, 3], weights="linear")
        assert tuple(results[site].labels) == tuple(GRADES)
        assert results[site].statistic == pytest.approx(expected.statistic, abs=1e-14)
