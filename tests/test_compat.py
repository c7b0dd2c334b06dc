"""The accumulator's JSON of format version 1, written before the package moved into
subpackages and pasted here, still loads (pickles: tests/test_pickle.py)."""

from __future__ import annotations

import wkappa as wk

ACCUMULATOR_JSON = [
    {"format": "wkappa.KappaAccumulator", "version": 1, "min_rating": 1, "max_rating": 5,
     "weights": "linear", "dtype": "int64",
     "table": [[1, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 1],
               [0, 0, 0, 1, 1]]},
    {"format": "wkappa.KappaAccumulator", "version": 1, "labels": ["lo", "mid", "hi"],
     "weights": "quadratic", "dtype": "float64",
     "table": [[1.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 2.0, 0.0]]},
]  # fmt: skip


def test_accumulator_json_of_the_first_release_loads() -> None:
    linear = wk.KappaAccumulator.from_dict(ACCUMULATOR_JSON[0])
    assert linear.value == 0.6896551724137931
    assert linear.value == wk.weighted_kappa(
        [1, 2, 3, 5, 5, 4], [1, 3, 3, 4, 5, 5], weights="linear"
    )
    weighted = wk.KappaAccumulator.from_dict(ACCUMULATOR_JSON[1])
    assert weighted.value == 0.627906976744186
    assert weighted.to_dict() == ACCUMULATOR_JSON[1]
