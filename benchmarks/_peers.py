"""The implementations wkappa is timed against (benchmarks only).

``quad_kappa_afajohn`` and ``qwk3_cpmp`` are retyped from the seed notes
(``shared/seeds/000_*.txt``): the numpy function by afajohn and the numba function by CPMP
(Kaggle Data Science Bowl 2019 discussion 114133), kept as written apart from the arguments
that fix the number of categories.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import jit, njit, prange


def quad_kappa_afajohn(
    act: Any, pred: Any, n: int = 4, hist_range: tuple[int, int] = (0, 3)
) -> float:
    """afajohn's numpy QWK from the seed notes (confusion_matrix + histograms + W)."""
    from sklearn.metrics import confusion_matrix

    O = confusion_matrix(act, pred)  # noqa: E741 - the seed's names
    O = np.divide(O, np.sum(O))  # noqa: E741
    W = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            W[i][j] = ((i - j) ** 2) / ((n - 1) ** 2)
    act_hist = np.histogram(act, bins=n, range=hist_range)[0]
    prd_hist = np.histogram(pred, bins=n, range=hist_range)[0]
    E = np.outer(act_hist, prd_hist)
    E = np.divide(E, np.sum(E))
    num = np.sum(np.multiply(W, O))
    den = np.sum(np.multiply(W, E))
    return float(1 - np.divide(num, den))


@jit(nopython=True)
def qwk3_cpmp(a1: Any, a2: Any, max_rat: int = 3) -> float:
    """CPMP's numba QWK ``qwk3`` from the seed notes (Kaggle DSB 2019, discussion 114133)."""
    assert len(a1) == len(a2)
    a1 = np.asarray(a1, dtype=np.int64)
    a2 = np.asarray(a2, dtype=np.int64)
    hist1 = np.zeros((max_rat + 1,))
    hist2 = np.zeros((max_rat + 1,))
    o = 0
    for k in range(a1.shape[0]):
        i, j = a1[k], a2[k]
        hist1[i] += 1
        hist2[j] += 1
        o += (i - j) * (i - j)
    e = 0
    for i in range(max_rat + 1):
        for j in range(max_rat + 1):
            e += hist1[i] * hist2[j] * (i - j) * (i - j)
    e = e / a1.shape[0]
    return 1 - o / e


def bincount_kappa(a: np.ndarray, b: np.ndarray, k: int, weights: str) -> float:
    """The plain numpy reference: ``np.bincount`` of ``a*K + b``, then the O(K²) formula."""
    table = (
        np.bincount(a.astype(np.int64) * k + b, minlength=k * k).reshape(k, k).astype(np.float64)
    )
    index = np.arange(k)
    distance = np.abs(index[:, None] - index[None, :]).astype(np.float64)
    w = {"quadratic": distance**2, "linear": distance, "unweighted": distance > 0}[weights]
    n = table.sum()
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / n
    return float(1 - (w * table).sum() / (w * expected).sum())


def floor(a: np.ndarray, b: np.ndarray) -> Any:
    """The memory-read floor: read both arrays once, single-threaded numpy."""
    return a.sum() + b.sum()


@njit(nogil=True, parallel=True)
def _parallel_read(a: Any, b: Any, n_blocks: int) -> Any:  # pragma: no cover - numba
    block_len = -(-a.shape[0] // n_blocks)
    partial = np.zeros(n_blocks, dtype=np.int64)
    for k in prange(n_blocks):
        x = a[k * block_len : (k + 1) * block_len]  # slices: the loop vectorises
        y = b[k * block_len : (k + 1) * block_len]
        total = 0
        for i in range(x.shape[0]):
            total += x[i] + y[i]
        partial[k] = total
    return partial.sum()


def parallel_floor(a: np.ndarray, b: np.ndarray) -> Any:
    """The memory-read floor with every core: one numba ``prange`` pass summing both arrays
    (64 blocks handed to the threads one by one, as wkappa does). No implementation that reads
    its input can be much faster."""
    import numba

    with numba.parallel_chunksize(1):
        return _parallel_read(a, b, 64)


def sklearn_kappa(k: int, weights: str) -> Callable[..., float] | None:
    try:
        from sklearn.metrics import cohen_kappa_score
    except ImportError:
        return None
    labels = list(range(k))

    def run(a: np.ndarray, b: np.ndarray, sample_weight: Any = None) -> float:
        return float(
            cohen_kappa_score(a, b, labels=labels, weights=weights, sample_weight=sample_weight)
        )

    return run


def torchmetrics_kappa(k: int, weights: str) -> Callable[[np.ndarray, np.ndarray], float] | None:
    """torchmetrics' functional cohen_kappa on zero-copy CPU tensors, if installed."""
    try:
        import torch
        from torchmetrics.functional import cohen_kappa
    except ImportError:
        return None

    def run(a: np.ndarray, b: np.ndarray) -> float:
        target = torch.from_numpy(a)
        preds = torch.from_numpy(b)
        return float(cohen_kappa(preds, target, task="multiclass", num_classes=k, weights=weights))

    return run
