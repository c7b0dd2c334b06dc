"""A weight matrix with a non-zero diagonal is refused by every entry point that takes one,
with one message: wkappa's weights are disagreement weights (two equal ratings cost nothing),
and agreement weights A (diagonal 1) passed by mistake would give impossible kappas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError

A = [0, 1, 2, 2, 1, 0, 3, 3]
B = [0, 1, 2, 1, 1, 0, 2, 3]
ROW, COLUMN = np.indices((4, 4))
IDENTITY = np.eye(4)
AGREEMENT = 1 - (ROW - COLUMN) ** 2 / 9  # quadratic *agreement* weights
TABLE = wk.confusion_table(A, B)
MESSAGE = r"`weights` must be disagreement weights with a zero diagonal .* W = 1 - A"


def _frame() -> Any:
    pd = pytest.importorskip("pandas")
    return pd.DataFrame({"a": A, "b": B, "c": A, "g": [0, 0, 0, 0, 1, 1, 1, 1]})


def _sklearn_fit(weights: Any) -> Any:
    sk = pytest.importorskip("wkappa.sklearn")
    linear = pytest.importorskip("sklearn.linear_model")
    x = np.arange(8, dtype=float).reshape(-1, 1)
    return sk.OrdinalThresholdRegressor(linear.LinearRegression(), cv=2, weights=weights).fit(x, A)


def _torch_loss(weights: Any) -> Any:
    torch = pytest.importorskip("wkappa.torch")
    return torch.WeightedKappaLoss(4, weights=weights)


def _torch_metric(weights: Any) -> Any:
    torch = pytest.importorskip("wkappa.torch")
    return torch.KappaMetric(4, weights=weights)


def _jax_loss(weights: Any) -> Any:
    pytest.importorskip("jax")
    from wkappa.jax import kappa_loss

    onehot = np.eye(4)[A]
    return kappa_loss(onehot, np.full((8, 4), 0.25), weights=weights)


def _gbdt(weights: Any) -> Any:
    gbdt = pytest.importorskip("wkappa.gbdt")
    return gbdt.lightgbm_metric(weights=weights, min_rating=0, max_rating=3)


def _frames(name: str) -> Callable[[Any], Any]:
    def call(weights: Any) -> Any:
        frame = _frame()
        frames = pytest.importorskip("wkappa.frames")
        if name == "kappa_by_group":
            return frames.kappa_by_group(frame, y_true="a", y_pred="b", by="g", weights=weights)
        if name == "agreement":
            return frames.agreement(frame, raters=["a", "b"], coefficient="conger", weights=weights)
        if name == "rater_vs_panel":
            return frames.rater_vs_panel(
                frame, candidate="a", raters=["b", "c"], weights=weights, n_resamples=9, rng=0
            )
        return getattr(frames, name)(frame, y_true="a", y_pred="b", weights=weights)

    return call


ENTRY_POINTS: dict[str, Callable[[Any], Any]] = {
    "weighted_kappa": lambda w: wk.weighted_kappa(A, B, weights=w),
    "kappa_from_table": lambda w: wk.kappa_from_table(TABLE, weights=w),
    "kappa_test": lambda w: wk.kappa_test(A, B, weights=w),
    "kappa_test_from_table": lambda w: wk.kappa_test_from_table(TABLE, weights=w),
    "stratified_kappa_test": lambda w: wk.stratified_kappa_test(
        A, B, strata=[0, 0, 0, 0, 1, 1, 1, 1], weights=w
    ),
    "stratified_kappa_test_from_tables": lambda w: wk.stratified_kappa_test_from_tables(
        np.stack([TABLE, TABLE]), weights=w
    ),
    "paired_kappa_test": lambda w: wk.paired_kappa_test(A, B, A, weights=w, n_resamples=9),
    "paired_kappa_test_from_table": lambda w: wk.paired_kappa_test_from_table(
        np.ones((4, 4, 4)), weights=w, n_resamples=9
    ),
    "optimize_thresholds": lambda w: wk.optimize_thresholds(
        A, np.linspace(0, 3, 8), weights=w, labels=range(4)
    ),
    "KappaAccumulator": lambda w: wk.KappaAccumulator(range(4), weights=w),
    "KappaAccumulator without labels": lambda w: wk.KappaAccumulator(weights=w),
    "kappa_sample_size": lambda w: wk.kappa_sample_size(table=TABLE, weights=w),
    "kappa_power": lambda w: wk.kappa_power(50, table=TABLE, weights=w),
    "agreement": lambda w: wk.agreement(np.column_stack([A, B]), coefficient="conger", weights=w),
    "agreement_from_counts": lambda w: wk.agreement_from_counts(
        np.eye(4, dtype=int)[A] + np.eye(4, dtype=int)[B], weights=w
    ),
    "group_agreement": lambda w: wk.group_agreement(
        np.column_stack([A, B]), np.column_stack([B, A]), weights=w
    ),
    "rater_vs_panel": lambda w: wk.rater_vs_panel(
        np.column_stack([A, B]), A, weights=w, n_resamples=9, rng=0
    ),
    "frames.weighted_kappa": _frames("weighted_kappa"),
    "frames.kappa_test": _frames("kappa_test"),
    "frames.kappa_by_group": _frames("kappa_by_group"),
    "frames.agreement": _frames("agreement"),
    "frames.rater_vs_panel": _frames("rater_vs_panel"),
    "sklearn.make_kappa_scorer": lambda w: pytest.importorskip("wkappa.sklearn").make_kappa_scorer(
        w
    ),
    "sklearn.OrdinalThresholdRegressor": _sklearn_fit,
    "torch.WeightedKappaLoss": _torch_loss,
    "torch.KappaMetric": _torch_metric,
    "jax.kappa_loss": _jax_loss,
    "gbdt.lightgbm_metric": _gbdt,
}


@pytest.mark.parametrize("matrix", [IDENTITY, AGREEMENT], ids=["identity", "agreement"])
@pytest.mark.parametrize("entry", list(ENTRY_POINTS), ids=list(ENTRY_POINTS))
def test_a_non_zero_diagonal_is_refused_everywhere(entry: str, matrix: np.ndarray) -> None:
    with pytest.raises(WkappaError, match=MESSAGE):
        ENTRY_POINTS[entry](matrix)


def test_one_diagonal_entry_is_enough_and_the_message_shows_the_diagonal() -> None:
    matrix = (ROW - COLUMN) ** 2 / 9
    matrix[2, 2] = 0.5
    with pytest.raises(WkappaError, match=r"got diagonal \[0\.0, 0\.0, 0\.5, 0\.0\]"):
        wk.weighted_kappa(A, B, weights=matrix)


def test_the_hint_converts_agreement_weights_to_the_named_weights() -> None:
    """Following the hint (W = 1 - A) gives the kappa of the named weights."""
    assert wk.weighted_kappa(A, B, weights=1 - AGREEMENT) == pytest.approx(
        wk.weighted_kappa(A, B, weights="quadratic"), abs=1e-15
    )


def test_asymmetric_zero_diagonal_matrices_are_accepted_on_both_sides() -> None:
    """The rule is the diagonal (and non-negative, finite entries); asymmetric W stays legal
    for two raters and several (where it acts through its symmetric part)."""
    asymmetric = np.array([[0, 1, 3, 4], [2, 0, 1, 3], [3, 2, 0, 1], [4, 3, 1, 0]], dtype=float)
    two = wk.weighted_kappa(A, B, weights=asymmetric)
    several = wk.agreement(np.column_stack([A, B]), coefficient="conger", weights=asymmetric)
    symmetric = (asymmetric + asymmetric.T) / 2
    assert several.statistic == pytest.approx(wk.weighted_kappa(A, B, weights=symmetric), abs=1e-12)
    assert -1 <= two <= 1


@pytest.mark.parametrize(
    "call",
    [
        lambda: wk.weighted_kappa(A, B, weights=-(1 - IDENTITY)),
        lambda: wk.agreement(np.column_stack([A, B]), weights=-(1 - IDENTITY)),
    ],
    ids=["two raters", "several raters"],
)
def test_negative_entries_are_refused_on_both_sides(call: Callable[[], Any]) -> None:
    with pytest.raises(WkappaError, match="non-negative"):
        call()
