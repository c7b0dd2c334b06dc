"""Train a small MLP on a synthetic ordinal task with cross-entropy vs the soft kappa loss.

Run: ``.venv/bin/python examples/torch_kappa_loss.py [n_seeds]``. Same model, data, optimiser,
epochs and batch size for every loss; the held-out QWK of the argmax predictions is printed.
The test suite runs one seed of this (tests/test_torch_training.py); the README quotes the table.
"""

from __future__ import annotations

import statistics
import sys
import time

import torch

import wkappa as wk
from wkappa.torch import KappaMetric, WeightedKappaLoss

N_CLASSES = 5
N_FEATURES = 10


def ordinal_data(seed: int, n: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Features x and grades 0..4: a noisy, slightly non-linear latent score, cut into five."""
    direction = torch.randn(N_FEATURES, generator=torch.Generator().manual_seed(1234))
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(n, N_FEATURES, generator=generator)
    noise = 0.5 * torch.randn(n, generator=generator)
    latent = x @ direction / direction.norm() + 0.2 * torch.sin(3 * x[:, 0]) + noise
    grades = torch.bucketize(latent, torch.tensor([-1.2, -0.4, 0.4, 1.2]))
    return x, grades


def train(loss_fn: torch.nn.Module, seed: int, *, epochs: int = 20, batch_size: int = 128) -> float:
    """Held-out QWK of an MLP trained with ``loss_fn`` (fixed seeds, CPU)."""
    x, y = ordinal_data(seed, 2000)
    x_test, y_test = ordinal_data(seed + 100, 2000)
    torch.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(N_FEATURES, 32), torch.nn.ReLU(), torch.nn.Linear(32, N_CLASSES)
    )
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(epochs):
        order = torch.randperm(len(x))
        for start in range(0, len(x), batch_size):
            batch = order[start : start + batch_size]
            optimiser.zero_grad()
            loss_fn(model(x[batch]), y[batch]).backward()
            optimiser.step()
    metric = KappaMetric(N_CLASSES)
    with torch.no_grad():
        metric.update(model(x_test), y_test)
    return metric.compute()


LOSSES = {
    "cross-entropy": lambda: torch.nn.CrossEntropyLoss(),
    "kappa, form='log'": lambda: WeightedKappaLoss(N_CLASSES, form="log"),
    "kappa, form='ratio'": lambda: WeightedKappaLoss(N_CLASSES, form="ratio"),
}


def main(n_seeds: int = 5) -> None:
    torch.set_num_threads(1)
    print(f"held-out QWK, {n_seeds} seeds, MLP 10-32-5, Adam lr 3e-3, 20 epochs, batch 128")
    print(f"{'loss':<22}{'mean':>8}{'min':>8}{'max':>8}   per seed")
    for name, make in LOSSES.items():
        start = time.perf_counter()
        scores = [train(make(), seed) for seed in range(n_seeds)]
        per_seed = " ".join(f"{s:.3f}" for s in scores)
        print(
            f"{name:<22}{statistics.mean(scores):8.3f}{min(scores):8.3f}{max(scores):8.3f}"
            f"   {per_seed}   ({time.perf_counter() - start:.1f} s)"
        )
    print(f"wkappa {wk.__version__}, torch {torch.__version__}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
