"""One column given as both raters (a sanity check: kappa 1) works in every frame function of
two rating columns, on every frame library, text or numbers."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import FewClustersWarning

TEXT = ["lo", "hi", "mid", "hi", "lo", "mid", "hi", "lo"]
NUMBERS = [0, 2, 1, 2, 0, 1, 2, 0]
GROUP = [1, 1, 1, 1, 2, 2, 2, 2]
LABELS = ["lo", "mid", "hi"]


@pytest.mark.parametrize(("column", "values"), [("s", TEXT), ("n", NUMBERS)])
def test_one_column_against_itself(frame_library: Any, column: str, values: list[Any]) -> None:
    from wkappa import frames

    frame = frame_library.frame({"s": TEXT, "n": NUMBERS, "g": GROUP})
    labels = {"labels": LABELS} if column == "s" else {}
    same = {"y_true": column, "y_pred": column, **labels}
    expected = wk.confusion_table(values, values, **labels)
    assert np.array_equal(frames.confusion_table(frame, **same), expected)
    assert frames.weighted_kappa(frame, **same) == 1.0
    assert frames.weighted_kappa(frame, weights="unweighted", **same) == 1.0
    result = frames.kappa_test(frame, **same)
    assert result.statistic == 1.0 and np.array_equal(result.table, expected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewClustersWarning)
        clustered = frames.kappa_test(frame, cluster="g", **same)
    assert clustered.statistic == 1.0 and clustered.n_clusters == 2
    with pytest.warns(wk.PerfectAgreementWarning, match="^by='g' groups 1, 2: "):
        grouped = frame_library.to_pandas(frames.kappa_by_group(frame, by="g", **same))
    assert grouped["kappa"].tolist() == [1.0, 1.0] and grouped["n"].tolist() == [4, 4]
