"""wkappa.torch.KappaMetric.update(..., sample_weight=): the count each row adds, as the
Keras metric's sample_weight, so the kappa is wk.weighted_kappa's with the same weights."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError, WkappaTypeError

torch = pytest.importorskip("torch")
from wkappa.torch import KappaMetric  # noqa: E402


@pytest.mark.parametrize("weights", ["quadratic", "linear", "unweighted"])
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.float32, torch.float64])
def test_weighted_metric_is_weighted_kappa(weights: str, dtype: Any) -> None:
    rng = np.random.default_rng(7)
    target = rng.integers(0, 5, 300)
    pred = np.clip(target + rng.integers(-2, 3, 300), 0, 4)
    count = rng.integers(0, 6, 300)
    metric = KappaMetric(5, weights=weights)  # type: ignore[arg-type]
    for start in range(0, 300, 70):
        rows = slice(start, start + 70)
        metric.update(
            torch.tensor(pred[rows]),
            torch.tensor(target[rows]),
            sample_weight=torch.tensor(count[rows], dtype=dtype),
        )
    expected = wk.weighted_kappa(
        target, pred, weights=weights, sample_weight=count, min_rating=0, max_rating=4
    )
    assert metric.compute() == pytest.approx(expected, rel=1e-12)
    # ... and exactly the kappa of the rows written out that many times.
    written = wk.weighted_kappa(
        np.repeat(target, count), np.repeat(pred, count), weights=weights, min_rating=0,
        max_rating=4,
    )  # fmt: skip
    assert metric.compute() == written
    assert metric.n == int(count.sum())
    assert metric.table.dtype == np.int64


def test_update_compute_reset_cycle_of_a_model_without_backward() -> None:
    """An evaluation loop: logits of a model under no_grad, weighted batches, compute, then a
    torchmetrics-style reset before the next epoch, which counts afresh."""
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3)
    features = torch.randn(120, 4)
    target = torch.randint(0, 3, (120,))
    count = torch.randint(1, 4, (120,)).float()
    metric = KappaMetric(3)
    for _epoch in range(2):
        predicted = []
        with torch.no_grad():
            for start in range(0, 120, 32):
                logits = model(features[start : start + 32])
                assert not logits.requires_grad
                metric.update(
                    logits, target[start : start + 32], sample_weight=count[start : start + 32]
                )
                predicted.append(logits.argmax(dim=1))
        preds = torch.cat(predicted).numpy()
        expected = wk.weighted_kappa(
            target.numpy(), preds, sample_weight=count.numpy(), min_rating=0, max_rating=2
        )
        assert metric.compute() == pytest.approx(expected, rel=1e-12)
        assert metric.n == int(count.sum())  # the epoch's rows only, after the reset
        metric.reset()
        assert metric.n == 0
    # Unweighted batches and weights of 1 count alike.
    ones, plain = KappaMetric(3), KappaMetric(3)
    ones.update(features[:, :3], target, sample_weight=torch.ones(120))
    plain.update(features[:, :3], target)
    np.testing.assert_array_equal(ones.table, plain.table)


@pytest.mark.parametrize(
    ("weight", "error", "match"),
    [
        (torch.tensor([1.0, 0.5]), WkappaError, r"non-negative whole numbers.*row 1 holds 0\.5"),
        (torch.tensor([1, -2]), WkappaError, "row 1 holds -2"),
        (torch.tensor([1.0, float("nan")]), WkappaError, "row 1 holds nan"),
        (torch.tensor([1.0, float("inf")]), WkappaError, "row 1 holds inf"),
        (torch.tensor([1, 2, 3]), WkappaError, r"`sample_weight` must have shape \(2,\)"),
        (torch.ones(2, 1), WkappaError, r"`sample_weight` must have shape \(2,\)"),
        ([1, 1], WkappaTypeError, "`sample_weight` must be a torch.Tensor"),
        (torch.ones(2, dtype=torch.complex64), WkappaTypeError, "`sample_weight` must be real"),
    ],
)
def test_bad_sample_weight_is_refused_and_counts_nothing(
    weight: Any, error: type[Exception], match: str
) -> None:
    metric = KappaMetric(4)
    with pytest.raises(error, match=match):
        metric.update(torch.tensor([0, 1]), torch.tensor([0, 1]), sample_weight=weight)
    assert metric.n == 0


def test_weighted_counts_with_the_deterministic_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sort-based count (CUDA in deterministic mode) weighs the rows alike."""
    from wkappa._backends import torch_count

    rng = np.random.default_rng(2)
    target, pred, count = rng.integers(0, 4, 200), rng.integers(0, 4, 200), rng.integers(0, 9, 200)
    fast = KappaMetric(4)
    fast.update(torch.tensor(pred), torch.tensor(target), sample_weight=torch.tensor(count))
    monkeypatch.setattr(
        "wkappa.torch.torch_count",
        lambda cells, size, weights=None: torch_count(cells, size, weights, deterministic=True),
    )
    sure = KappaMetric(4)
    sure.update(torch.tensor(pred), torch.tensor(target), sample_weight=torch.tensor(count))
    np.testing.assert_array_equal(fast.table, sure.table)
