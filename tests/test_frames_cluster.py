"""cluster= on the frames functions: a column of cluster ids gives the same result as the
array functions with the ids."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wkappa as wk
from wkappa import frames
from wkappa.exceptions import WkappaError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")


def _pairs(seed: int = 0, n: int = 90):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n)
    pred = np.where(rng.random(n) < 0.6, truth, rng.integers(0, 4, n))
    return pd.DataFrame({"t": truth, "p": pred, "patient": np.arange(n) // 2})


def _panel(seed: int = 1, n: int = 60):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    ratings = np.column_stack(
        [np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n)) for _ in range(4)]
    ).astype(float)
    ratings[rng.random((n, 4)) < 0.1] = np.nan
    df = pd.DataFrame(ratings, columns=["a", "b", "c", "d"])
    df["task"] = [f"task{i // 3}" for i in range(n)]
    return ratings, df


@pytest.mark.parametrize("lazy", [False, True])
def test_kappa_test_cluster_column(lazy: bool) -> None:
    df = _pairs()
    expected = wk.kappa_test(df["t"], df["p"], cluster=df["patient"])
    frame = pl.from_pandas(df).lazy() if lazy else df
    result = frames.kappa_test(frame, y_true="t", y_pred="p", cluster="patient")
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
    assert result.n_clusters == expected.n_clusters == 45
    assert result.confidence_interval() == pytest.approx(expected.confidence_interval())
    assert "cluster-robust over 45 clusters" in repr(result)


def test_kappa_test_cluster_column_errors() -> None:
    df = _pairs().astype({"patient": float})
    df.loc[4, "patient"] = np.nan
    with pytest.raises(WkappaError, match="`cluster` column 'patient' has a missing id"):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="patient")
    df["patient"] = 1.0
    with pytest.raises(WkappaError, match="at least 2 clusters"):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="patient")
    with pytest.raises(WkappaError, match=r"`cluster` names the column .nope."):
        frames.kappa_test(df, y_true="t", y_pred="p", cluster="nope")


def test_kappa_test_cluster_every_pair_omitted() -> None:
    df = pd.DataFrame({"t": [np.nan, 1.0], "p": [1.0, np.nan], "c": [1, 2]})
    with pytest.warns(wk.UndefinedKappaWarning):
        result = frames.kappa_test(df, y_true="t", y_pred="p", cluster="c", nan_policy="omit")
    assert math.isnan(result.statistic)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "krippendorff"])
def test_agreement_cluster_column_wide_and_long(coefficient: str) -> None:
    ratings, df = _panel()
    ids = df["task"].to_numpy()
    expected = wk.agreement(ratings, coefficient=coefficient, cluster=ids)
    wide = frames.agreement(
        df, raters=["a", "b", "c", "d"], coefficient=coefficient, cluster="task"
    )
    long = df.reset_index().melt(
        id_vars=["index", "task"], value_vars=["a", "b", "c", "d"], var_name="who", value_name="r"
    )
    from_long = frames.agreement(
        pl.from_pandas(long), item="index", rater="who", rating="r", coefficient=coefficient,
        cluster="task",
    )  # fmt: skip
    for result in (wide, from_long):
        assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
        assert result.standard_error == pytest.approx(expected.standard_error, rel=1e-12)
        assert result.n_clusters == 20


def test_agreement_cluster_column_errors() -> None:
    _, df = _panel()
    with pytest.raises(WkappaError, match="`cluster` cannot be combined with `by`"):
        frames.agreement(df, raters=["a", "b"], by="c", cluster="task")
    df.loc[2, "task"] = None
    with pytest.raises(WkappaError, match="`cluster` column 'task' has missing values"):
        frames.agreement(df, raters=["a", "b", "c", "d"], cluster="task")
    df["task"] = "one"
    with pytest.raises(WkappaError, match="at least 2 clusters"):
        frames.agreement(df, raters=["a", "b", "c", "d"], cluster="task")


def test_agreement_cluster_column_long_item_in_two_clusters() -> None:
    # Before: the item's rows in another cluster became a second item (a silent wrong value).
    _, df = _panel()
    long = df.reset_index().melt(
        id_vars=["index", "task"], value_vars=["a", "b", "c", "d"], var_name="who", value_name="r"
    )
    long.loc[0, "task"] = "elsewhere"
    with pytest.raises(WkappaError, match="Item 0 has ratings in two clusters of the `cluster`"):
        frames.agreement(long, item="index", rater="who", rating="r", cluster="task")
