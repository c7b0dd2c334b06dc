"""Training-side integrations: array inputs, the streaming metric, the loss, the GBDT metric.

Run: ``.venv/bin/python benchmarks/bench_training.py`` (part of ``make bench``). Everything is
timed in this one process on the same data, interleaved, and reported as medians and ratios.

1. ``wk.qwk`` / ``wk.weighted_kappa(weights="linear")`` of 2e6 pairs (K = 6) given as a numpy
   array, a torch CPU tensor (zero-copy numpy view, the default), a torch CPU tensor on the
   forced on-device path (the code CUDA tensors take), an array-api-strict array, and
   torchmetrics' ``cohen_kappa`` on the tensors (the peer).
2. Streaming: ``KappaMetric`` over 20 batches of 1e5 (update + compute) against torchmetrics'
   ``MulticlassCohenKappa`` (quadratic weights).
3. One training step (forward + backward) of ``WeightedKappaLoss`` against
   ``torch.nn.CrossEntropyLoss``, batch 256, K = 5.
4. One evaluation of ``wkappa.gbdt.lightgbm_metric`` on 1e5 multiclass rows (n, K = 5)
   against a metric built on scikit-learn's ``cohen_kappa_score``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import array_api_strict as xps
import numpy as np
import torch
import torchmetrics
from sklearn.metrics import cohen_kappa_score

import wkappa as wk
from _timing import interleaved
from wkappa._backends import array_api as _array_api
from wkappa.gbdt import lightgbm_metric
from wkappa.torch import KappaMetric, WeightedKappaLoss

K = 6


def _report(title: str, medians: dict[str, float], baseline: str, unit: float = 1e3) -> None:
    label = "ms" if unit == 1e3 else "µs"
    print(f"\n{title}")
    print(f"  {'way':<52}{label:>10}{'ratio':>9}")
    for name, seconds in medians.items():
        ratio = seconds / medians[baseline]
        print(f"  {name:<52}{seconds * unit:10.2f}{ratio:9.2f}x")


def _forced_device(function: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        _array_api.PREFER_HOST_VIEW = False
        try:
            return function()
        finally:
            _array_api.PREFER_HOST_VIEW = True

    return run


def arrays() -> None:
    rng = np.random.default_rng(0)
    n = 2_000_000
    a = rng.integers(0, K, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, K - 1)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    sa, sb = xps.asarray(a), xps.asarray(b)
    for weights in ("quadratic", "linear"):
        peer_weights = weights

        def peer(w: str = peer_weights) -> object:
            return torchmetrics.functional.cohen_kappa(
                tb, ta, task="multiclass", num_classes=K, weights=w
            )

        medians = interleaved(
            {
                "numpy": lambda w=weights: wk.weighted_kappa(a, b, weights=w),
                "torch CPU tensor (zero-copy view)": lambda w=weights: wk.weighted_kappa(
                    ta, tb, weights=w
                ),
                "torch CPU tensor, on-device path (as for CUDA)": _forced_device(
                    lambda w=weights: wk.weighted_kappa(ta, tb, weights=w)
                ),
                "array-api-strict (zero-copy view)": lambda w=weights: wk.weighted_kappa(
                    sa, sb, weights=w
                ),
                "torchmetrics cohen_kappa on the tensors": peer,
            },
            repeats=7,
            warm_up=True,
        )
        _report(f"1. {weights} kappa of 2e6 pairs, K = {K}", medians, "numpy")


def streaming() -> None:
    rng = np.random.default_rng(1)
    batches = []
    for _ in range(20):
        target = torch.from_numpy(rng.integers(0, K, 100_000))
        preds = torch.clamp(target + torch.from_numpy(rng.integers(-1, 2, 100_000)), 0, K - 1)
        batches.append((preds, target))

    def ours() -> float:
        metric = KappaMetric(K)
        for preds, target in batches:
            metric.update(preds, target)
        return metric.compute()

    def peer() -> object:
        metric = torchmetrics.classification.MulticlassCohenKappa(K, weights="quadratic")
        for preds, target in batches:
            metric.update(preds, target)
        return metric.compute()

    assert abs(ours() - float(peer())) < 1e-6  # type: ignore[arg-type]
    medians = interleaved(
        {"KappaMetric": ours, "torchmetrics MulticlassCohenKappa": peer}, 7, warm_up=True
    )
    _report("2. streaming QWK, 20 batches of 1e5 (update + compute)", medians, "KappaMetric")


def loss_step() -> None:
    torch.manual_seed(0)
    logits = torch.randn(256, 5, requires_grad=True)
    target = torch.randint(0, 5, (256,))
    kappa = WeightedKappaLoss(5)
    kappa_unchecked = WeightedKappaLoss(5, validate_args=False)
    cross_entropy = torch.nn.CrossEntropyLoss()

    def step(loss_fn: torch.nn.Module) -> Callable[[], object]:
        def run() -> object:
            logits.grad = None
            loss_fn(logits, target).backward()
            return logits.grad

        return run

    medians = interleaved(
        {
            "CrossEntropyLoss": step(cross_entropy),
            "WeightedKappaLoss": step(kappa),
            "WeightedKappaLoss(validate_args=False)": step(kappa_unchecked),
        },
        repeats=200,
        warm_up=True,
    )
    _report("3. loss forward + backward, batch 256, K = 5", medians, "CrossEntropyLoss", 1e6)


def gbdt_metric() -> None:
    rng = np.random.default_rng(2)
    n = 100_000
    y = rng.integers(0, 5, n).astype(np.float64)
    probabilities = rng.dirichlet(np.ones(5), n)
    metric = lightgbm_metric()

    def sklearn_metric(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[str, float, bool]:
        score = cohen_kappa_score(y_true, y_pred.argmax(axis=1), weights="quadratic")
        return "qwk", float(score), True

    assert abs(metric(y, probabilities)[1] - sklearn_metric(y, probabilities)[1]) < 1e-12
    medians = interleaved(
        {
            "wkappa.gbdt.lightgbm_metric": lambda: metric(y, probabilities),
            "cohen_kappa_score(y, p.argmax(1))": lambda: sklearn_metric(y, probabilities),
        },
        repeats=15,
        warm_up=True,
    )
    _report(
        "4. one GBDT metric evaluation, 1e5 rows x 5 classes",
        medians,
        "wkappa.gbdt.lightgbm_metric",
    )


def main() -> None:
    torch.set_num_threads(2)
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"bench_training.py, {stamp}, torch {torch.__version__}, wkappa {wk.__version__}")
    arrays()
    streaming()
    loss_step()
    gbdt_metric()


if __name__ == "__main__":
    main()
