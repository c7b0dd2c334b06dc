"""Edge cases of the intraclass and concordance correlations: counts under
``nan_policy='propagate'``, degenerate intervals and tests, ratings far from zero."""

from __future__ import annotations

import json
import math

import numpy as np

import wkappa as wk
from wkappa._cli.app import main

# ----------------------------------------------------------------- n_ratings is a count

_WITH_A_HOLE = [[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, math.nan, 5.0], [4.0, 5.0, 7.0]]


def test_icc_n_ratings_is_a_count_under_propagate() -> None:
    """The statistic of 'propagate' is nan, the number of ratings read is not."""
    result = wk.icc(_WITH_A_HOLE, nan_policy="propagate")
    assert math.isnan(result.statistic)
    assert result.n_ratings == 11 and isinstance(result.n_ratings, int)
    assert result.n_ratings == wk.icc(_WITH_A_HOLE, nan_policy="omit").n_ratings
    assert result.to_dict()["n_ratings"] == 11
    assert "11 ratings" in result.explain()
    assert "n_ratings=11" in repr(result)


def test_icc_n_ratings_of_a_propagated_feature_in_a_batch() -> None:
    x = np.asarray(_WITH_A_HOLE)
    batch = np.stack([x, np.nan_to_num(x, nan=2.5)], axis=2)
    result = wk.icc(batch, nan_policy="propagate")
    assert math.isnan(result.statistic[0]) and not math.isnan(result.statistic[1])
    assert list(result.n_ratings) == [11, 12]


def test_cli_icc_n_ratings_under_propagate(tmp_path, capsys) -> None:
    path = tmp_path / "hole.csv"
    path.write_text("a,b,c\n1,2,3\n2,3,4\n3,,5\n4,5,7\n")
    args = ["icc", str(path), "--raters", "a,b,c", "--nan-policy", "propagate"]
    assert main(args) == 0
    assert "4 items x 3 raters (a, b, c), 11 ratings" in capsys.readouterr().out
    assert main([*args, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["n_ratings"] == 11
    assert {form["n_ratings"] for form in document["icc"].values()} == {11}
