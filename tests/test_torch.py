"""wkappa.torch: the soft kappa loss (gradients, values, edge cases) and the streaming metric."""

from __future__ import annotations

import os
import socket
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError
from wkappa.torch import KappaMetric, WeightedKappaLoss

CUSTOM = np.array([[0.0, 1.0, 3.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
WEIGHTS: list[Any] = ["quadratic", "linear", "unweighted", CUSTOM]


def soft_kappa_reference(probs: np.ndarray, target: np.ndarray, weights: np.ndarray) -> float:
    """1 - kappa from the definitions, with explicit loops (float64)."""
    n, k = probs.shape
    observed = np.zeros((k, k))
    for row in range(n):
        for j in range(k):
            observed[target[row], j] += probs[row, j]
    rows = np.array([(target == i).sum() for i in range(k)], dtype=float)
    cols = probs.sum(axis=0)
    expected = np.array([[rows[i] * cols[j] / n for j in range(k)] for i in range(k)])
    return float((weights * observed).sum() / (weights * expected).sum())


def _matrix(weights: Any, k: int) -> np.ndarray:
    index = np.arange(k)
    distance = np.abs(index[:, None] - index[None, :]).astype(float)
    if isinstance(weights, np.ndarray):
        return weights
    return {
        "quadratic": distance**2 / (k - 1) ** 2,
        "linear": distance / (k - 1),
        "unweighted": (distance > 0).astype(float),
    }[weights]


# --------------------------------------------------------------------------- the loss


@pytest.mark.parametrize("mode", ["logits", "probs"])
@pytest.mark.parametrize("form", ["ratio", "log"])
@pytest.mark.parametrize("weights", ["quadratic", CUSTOM], ids=["quadratic", "custom"])
def test_gradcheck(mode: str, form: str, weights: Any) -> None:
    generator = torch.Generator().manual_seed(0)
    loss_fn = WeightedKappaLoss(3, weights=weights, mode=mode, form=form)  # type: ignore[arg-type]
    for n in (2, 9):
        logits = torch.randn(n, 3, dtype=torch.float64, generator=generator)
        target = torch.randint(0, 3, (n,), generator=generator)
        target[0], target[1] = 0, 2  # two classes present: kappa is defined
        if mode == "probs":
            logits = torch.softmax(logits, dim=1)
        inputs = logits.clone().requires_grad_(True)
        assert torch.autograd.gradcheck(
            lambda z, t=target: loss_fn(z, t), (inputs,), eps=1e-6, atol=1e-5
        )


@pytest.mark.parametrize("weights", WEIGHTS, ids=["quadratic", "linear", "unweighted", "custom"])
def test_value_matches_loop_reference(weights: Any) -> None:
    rng = np.random.default_rng(1)
    for n in (2, 5, 40):
        logits = rng.normal(size=(n, 3))
        target = rng.integers(0, 3, n)
        probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        expected = soft_kappa_reference(probs, target, _matrix(weights, 3))
        for form in ("ratio", "log"):
            loss_fn = WeightedKappaLoss(3, weights=weights, form=form, eps=0.0)  # type: ignore[arg-type]
            got = loss_fn(torch.tensor(logits), torch.tensor(target)).item()
            assert got == pytest.approx(
                expected if form == "ratio" else np.log(expected), rel=1e-12
            )
            probs_fn = WeightedKappaLoss(3, weights=weights, form=form, mode="probs", eps=0.0)  # type: ignore[arg-type]
            assert probs_fn(torch.tensor(probs), torch.tensor(target)).item() == pytest.approx(got)


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=40),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_one_hot_probabilities_give_exact_kappa(pairs: list[tuple[int, int]], weights: str) -> None:
    """With hard (one-hot) predictions the soft kappa is the ordinary kappa: loss = 1 - κ."""
    target = torch.tensor([t for t, _ in pairs])
    pred = torch.tensor([p for _, p in pairs])
    probs = torch.nn.functional.one_hot(pred, 5).double()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        kappa = wk.weighted_kappa(target, pred, weights=weights, min_rating=0, max_rating=4)
    loss = WeightedKappaLoss(5, weights=weights, mode="probs", eps=0.0)(probs, target).item()  # type: ignore[arg-type]
    if np.isnan(kappa):
        assert np.isnan(loss) or loss == 0.0 or np.isinf(loss)
    else:
        assert loss == pytest.approx(1 - kappa, abs=1e-12)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("form", ["ratio", "log"])
def test_dtypes_tiny_and_degenerate_batches(dtype: torch.dtype, form: str) -> None:
    loss_fn = WeightedKappaLoss(4, form=form)  # type: ignore[arg-type]
    cases = [
        (torch.randn(2, 4, dtype=dtype), torch.tensor([0, 3])),  # batch of 2
        (torch.randn(6, 4, dtype=dtype), torch.full((6,), 2)),  # one class only
        (torch.tensor([[-30.0, -30.0, 30.0, -30.0]] * 3, dtype=dtype), torch.full((3,), 2)),
        (torch.randn(1, 4, dtype=dtype), torch.tensor([1])),  # a single row
    ]
    for logits, target in cases:
        logits.requires_grad_(True)
        loss = loss_fn(logits, target)
        loss.backward()
        assert loss.dtype == dtype and loss.shape == ()
        assert torch.isfinite(loss) and torch.isfinite(logits.grad).all()  # type: ignore[arg-type]


def test_loss_module_behaviour() -> None:
    loss_fn = WeightedKappaLoss(3, weights="linear", form="log")
    assert "weights='linear'" in repr(loss_fn) and "form='log'" in repr(loss_fn)
    assert loss_fn.weight_matrix.dtype == torch.float64
    state = loss_fn.state_dict()
    assert torch.equal(state["weight_matrix"], torch.tensor(_matrix("linear", 3)))
    custom = WeightedKappaLoss(3, weights=torch.tensor(CUSTOM))
    assert torch.equal(custom.weight_matrix, torch.tensor(CUSTOM))
    logits = torch.randn(8, 3, dtype=torch.float32)
    assert loss_fn.double()(logits.double(), torch.arange(8) % 3).dtype == torch.float64


LONG = torch.zeros(4, dtype=torch.long)
LOSS_ERRORS: list[tuple[Any, Any, type[Exception], str]] = [
    (lambda: WeightedKappaLoss(1), None, WkappaError, "num_classes"),
    (lambda: WeightedKappaLoss(2.5), None, WkappaTypeError, "num_classes"),  # type: ignore[arg-type]
    (lambda: WeightedKappaLoss(3, mode="softmax"), None, WkappaError, "mode"),  # type: ignore[arg-type]
    (lambda: WeightedKappaLoss(3, form="exp"), None, WkappaError, "form"),  # type: ignore[arg-type]
    (lambda: WeightedKappaLoss(3, weights="quadratc"), None, WkappaError, "weights"),
    (lambda: WeightedKappaLoss(3, weights=1 - np.eye(2)), None, WkappaError, "shape"),
    (lambda: WeightedKappaLoss(3, eps=-1.0), None, WkappaError, "eps"),
    (lambda: WeightedKappaLoss(3), (torch.randn(4, 2), LONG), WkappaError, r"\(N, 3\)"),
    (lambda: WeightedKappaLoss(3), (torch.randn(4, 3), LONG[:3]), WkappaError, "target"),
    (lambda: WeightedKappaLoss(3), (torch.randn(4, 3), torch.zeros(4)), WkappaTypeError, "target"),
    (lambda: WeightedKappaLoss(3), (torch.randn(4, 3), LONG + 3), WkappaError, "class index 3"),
    (
        lambda: WeightedKappaLoss(3),
        (LONG.reshape(4, 1).repeat(1, 3), LONG),
        WkappaTypeError,
        "float",
    ),
]


@pytest.mark.parametrize(("make", "call", "error", "match"), LOSS_ERRORS)
def test_loss_errors(make: Any, call: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        loss_fn = make()
        loss_fn(*call)


@pytest.mark.integration  # a real training run
def test_training_step_reduces_the_loss() -> None:
    torch.manual_seed(0)
    x = torch.randn(64, 4)
    y = torch.bucketize(x[:, 0].contiguous(), torch.tensor([-0.5, 0.5]))
    model = torch.nn.Linear(4, 3)
    loss_fn = WeightedKappaLoss(3)
    optimiser = torch.optim.SGD(model.parameters(), lr=0.5)
    first = loss_fn(model(x), y).item()
    for _ in range(20):
        optimiser.zero_grad()
        loss_fn(model(x), y).backward()
        optimiser.step()
    assert loss_fn(model(x), y).item() < 0.5 * first


# --------------------------------------------------------------------------- the metric


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    k=st.integers(2, 6),
    weights=st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_metric_equals_qwk_for_any_split(data: Any, k: int, weights: str) -> None:
    n = data.draw(st.integers(1, 60))
    target = data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    pred = data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=5)))
    as_scores = data.draw(st.booleans())
    metric = KappaMetric(k, weights=weights, zero_division=-0.5)  # type: ignore[arg-type]
    for start, stop in zip([0, *cuts], [*cuts, n], strict=True):
        batch_pred = torch.tensor(pred[start:stop], dtype=torch.long)
        if as_scores:  # (N, K) scores whose argmax is the prediction
            batch_pred = torch.nn.functional.one_hot(batch_pred, k).float() * 3 - 1
        metric.update(batch_pred, torch.tensor(target[start:stop], dtype=torch.long))
    expected = wk.weighted_kappa(
        target, pred, weights=weights, min_rating=0, max_rating=k - 1, zero_division=-0.5
    )
    assert metric.compute() == expected
    assert metric.n == n
    np.testing.assert_array_equal(
        metric.table, wk.confusion_table(target, pred, min_rating=0, max_rating=k - 1)
    )


def test_metric_merge_reset_and_floats() -> None:
    rng = np.random.default_rng(3)
    target = rng.integers(0, 4, 200)
    pred = np.clip(target + rng.integers(-1, 2, 200), 0, 3)
    whole = KappaMetric(4, weights="linear")
    whole.update(torch.tensor(pred).double(), torch.tensor(target))  # integral floats are fine
    left, right = KappaMetric(4, weights="linear"), KappaMetric(4, weights="linear")
    empty = KappaMetric(4, weights="linear")
    left.update(torch.tensor(pred[:70]), torch.tensor(target[:70]))
    right.update(torch.tensor(pred[70:]), torch.tensor(target[70:]))
    assert left.merge(right) is left
    assert left.compute() == whole.compute() == wk.weighted_kappa(target, pred, weights="linear")
    assert empty.merge(left).n == 200  # merging into an empty metric
    left.reset()
    assert left.n == 0
    with pytest.warns(UndefinedKappaWarning):
        assert np.isnan(left.compute())
    with pytest.raises(WkappaError, match="same num_classes"):
        whole.merge(KappaMetric(5, weights="linear"))
    with pytest.raises(WkappaError, match="same num_classes"):
        whole.merge(KappaMetric(4))
    assert "n=200" in repr(whole)


@pytest.mark.parametrize(
    ("preds", "target", "error", "match"),
    [
        (torch.tensor([0.0, 1.5]), torch.tensor([0, 1]), WkappaError, "1.5"),
        (torch.tensor([0.0, float("nan")]), torch.tensor([0, 1]), WkappaError, "nan"),
        (torch.tensor([0.0, float("inf")]), torch.tensor([0, 1]), WkappaError, "inf"),
        (torch.full((2, 4), float("nan")), torch.tensor([0, 1]), WkappaError, "NaN"),
        (torch.tensor([0, 4]), torch.tensor([0, 1]), WkappaError, "class index 4"),
        (torch.tensor([0, 1]), torch.tensor([0, -1]), WkappaError, "class index -1"),
        (torch.tensor([0, 1]), torch.tensor([0, 1, 2]), WkappaError, "shape"),
        (torch.randn(2, 3), torch.tensor([0, 1]), WkappaError, r"\(N, 4\)"),
        (torch.zeros(2, 2, 2), torch.tensor([0, 1]), WkappaError, "shape"),
        (torch.tensor([0.0, 1.0]), torch.tensor([0.0, 1.0]), WkappaTypeError, "target"),
        ([0, 1], torch.tensor([0, 1]), WkappaTypeError, "preds"),
        (torch.tensor([0, 1]), [0, 1], WkappaTypeError, "target"),
        (torch.tensor([0j, 1j]), torch.tensor([0, 1]), WkappaTypeError, "preds"),
    ],
)
def test_metric_errors(preds: Any, target: Any, error: type[Exception], match: str) -> None:
    metric = KappaMetric(4)
    with pytest.raises(error, match=match):
        metric.update(preds, target)
    assert metric.n == 0


def test_metric_deterministic_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sort-based count (used on CUDA in deterministic mode) gives the same table."""
    from wkappa._backends import torch_count

    rng = np.random.default_rng(5)
    target, pred = rng.integers(0, 6, 500), rng.integers(0, 6, 500)
    fast = KappaMetric(6)
    fast.update(torch.tensor(pred), torch.tensor(target))
    original = torch_count
    monkeypatch.setattr(
        "wkappa.torch.torch_count",
        lambda cells, size, weights=None: original(cells, size, weights, deterministic=True),
    )
    sure = KappaMetric(6)
    sure.update(torch.tensor(pred), torch.tensor(target))
    np.testing.assert_array_equal(fast.table, sure.table)
    assert sure.compute() == wk.qwk(target, pred, min_rating=0, max_rating=5)


def test_sync_without_process_group_is_a_no_op() -> None:
    metric = KappaMetric(3)
    metric.update(torch.tensor([0, 1, 2]), torch.tensor([0, 1, 1]))
    assert metric.sync() is metric
    assert metric.compute() == wk.qwk([0, 1, 1], [0, 1, 2])


# --------------------------------------------------------------------------- torch.distributed


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _distributed_worker(rank: int, world: int, port: int, shards: list[Any], out: Any) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.distributed.init_process_group("gloo", rank=rank, world_size=world)
    try:
        metric = KappaMetric(5)
        target, pred = shards[rank]
        for start in range(0, len(target), 7):
            metric.update(
                torch.tensor(pred[start : start + 7]), torch.tensor(target[start : start + 7])
            )
        local = metric.compute() if len(target) else float("nan")
        first = metric.sync().compute()
        second = metric.sync().compute()  # idempotent: never double-counts
        out.put((rank, local, first, second, metric.n))
    finally:
        torch.distributed.destroy_process_group()


@pytest.mark.integration  # spawns two processes
def test_two_process_sync_gives_the_global_value() -> None:
    mp = torch.multiprocessing.get_context("spawn")
    rng = np.random.default_rng(11)
    target = rng.integers(0, 5, 300)
    pred = np.clip(target + rng.integers(-2, 3, 300), 0, 4)
    shards = [
        (target[:120].tolist(), pred[:120].tolist()),
        (target[120:].tolist(), pred[120:].tolist()),
    ]
    queue = mp.Queue()
    port = _free_port()
    processes = [
        mp.Process(target=_distributed_worker, args=(rank, 2, port, shards, queue))
        for rank in range(2)
    ]
    for process in processes:
        process.start()
    results = sorted(queue.get(timeout=120) for _ in processes)
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    expected = wk.qwk(target, pred, min_rating=0, max_rating=4)
    for rank, local, first, second, n in results:
        shard_target, shard_pred = shards[rank]
        assert local == wk.qwk(shard_target, shard_pred, min_rating=0, max_rating=4)
        assert local != expected
        assert first == second == expected
        assert n == 300


def test_validate_args_false_skips_the_checks_as_documented() -> None:
    """validate_args=False (torchmetrics' contract) refuses nothing where input enters: the
    docstrings say what bad input then does; validate_args=True refuses each case."""
    from wkappa.exceptions import WkappaError
    from wkappa.torch import KappaMetric, WeightedKappaLoss

    nan_scores = torch.tensor([[0.1, float("nan"), 0.2], [0.9, 0.0, 0.0], [0.0, 0.0, 1.0]])
    target = torch.tensor([0, 0, 2])
    unchecked = KappaMetric(3, validate_args=False)
    unchecked.update(nan_scores, target)  # the NaN's column is the argmax: counted silently
    assert unchecked.table[0, 1] == 1
    fractional = KappaMetric(3, validate_args=False)
    fractional.update(torch.tensor([0.0, 1.5, 2.0]), torch.tensor([0, 1, 2]))
    assert fractional.compute() == 1.0  # 1.5 truncated to 1
    for preds in (nan_scores, torch.tensor([0.0, 1.5, 2.0])):
        with pytest.raises(WkappaError):
            KappaMetric(3).update(preds, torch.tensor([0, 1, 2]))
    logits = torch.zeros(3, 3)
    nan_weight = torch.tensor([1.0, float("nan"), 1.0])
    loss = WeightedKappaLoss(3, validate_args=False)(logits, torch.tensor([0, 1, 2]), nan_weight)
    assert float(loss) == 0.0  # a wrong loss, no error
    with pytest.raises(WkappaError, match="sample_weight"):
        WeightedKappaLoss(3)(logits, torch.tensor([0, 1, 2]), nan_weight)
    with pytest.raises(RuntimeError):  # torch's own error, not wkappa's
        WeightedKappaLoss(3, validate_args=False)(logits, torch.tensor([0, 1, 3]))


@pytest.mark.parametrize(
    ("call", "hint"),
    [
        (lambda: KappaMetric(3).update(torch.tensor([[0], [2]]), LONG[:2]), r"preds\.squeeze\(1\)"),
        (
            lambda: KappaMetric(3).update(LONG[:2], torch.tensor([[0], [2]])),
            r"target\.squeeze\(1\)",
        ),
        (lambda: KappaMetric(3).update(LONG[:2], torch.eye(3)[:2].long()), r"target\.argmax\(1\)"),
        (
            lambda: WeightedKappaLoss(3)(torch.randn(2, 3), torch.eye(3)[:2].long()),
            r"must be floating point, target\.float\(\); or pass the class indices",
        ),
        (
            lambda: WeightedKappaLoss(3)(torch.randn(2, 3), torch.tensor([[0], [2]])),
            r"target\.squeeze\(1\)",
        ),
        (  # a float column (a DataFrame's y.values[:, None]) read as soft targets
            lambda: WeightedKappaLoss(3)(torch.randn(2, 3), torch.tensor([[0.0], [2.0]])),
            r"target\.squeeze\(1\)\.long\(\) for a column of class indices",
        ),
    ],
)
def test_a_column_or_one_hot_integers_get_the_fix(call: Any, hint: str) -> None:
    """(N, 1) columns and integer one-hot rows were refused without a way out ("`target` must
    have shape (2,) to match the predictions; got (2, 3).")."""
    with pytest.raises(WkappaError, match=r"\. Hint: .*" + hint):
        call()


def test_boolean_class_indices_are_the_classes_0_and_1() -> None:
    """A boolean (N,) preds or target was refused, while wk.weighted_kappa (and the Keras
    metric) read False/True as the classes 0 and 1: now the metric and the loss read them so."""
    true = torch.tensor([True, False, True, True, False, False])
    pred = torch.tensor([True, True, False, True, False, False])
    metric = KappaMetric(3, weights="linear")
    metric.update(pred, true)
    expected = wk.weighted_kappa(true.numpy(), pred.numpy(), weights="linear", labels=range(3))
    assert metric.compute() == expected
    assert metric.compute() == wk.weighted_kappa(
        true.long().numpy(), pred.long().numpy(), weights="linear", labels=range(3)
    )
    assert np.array_equal(
        metric.table, wk.confusion_table(true.long(), pred.long(), labels=range(3))
    )
    logits = torch.randn(6, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    loss = WeightedKappaLoss(3)
    assert torch.equal(loss(logits, true), loss(logits, true.long()))


def test_boolean_one_hot_predictions_count_and_complex_scores_are_refused() -> None:
    """(N, K) bool or complex predictions failed inside torch ("argmax(): does not support
    bool input"); one-hot booleans now count as their argmax, as numpy's argmax reads them."""
    metric = KappaMetric(3)
    metric.update(torch.eye(3, dtype=torch.bool)[[0, 1, 2, 2]], torch.tensor([0, 1, 1, 2]))
    assert metric.compute() == wk.qwk([0, 1, 1, 2], [0, 1, 2, 2], labels=range(3))
    with pytest.raises(WkappaTypeError, match=r"^`preds` as scores must be real"):
        metric.update(torch.eye(3, dtype=torch.complex64)[:2], torch.tensor([0, 1]))
    assert metric.n == 4


def test_huge_weights_keep_n_exact_and_cannot_wrap_a_cell() -> None:
    """n summed the table in int64 and wrapped past 2**63 - 1 (-2**63 for two cells of 2**62),
    and a batch could take a cell past it without an error."""
    metric = KappaMetric(3)
    for cls, weight in ((0, 2**62), (1, 2**62 - 2**12), (2, 2**13)):
        metric.update(torch.tensor([cls]), torch.tensor([cls]), torch.tensor([weight]))
    assert metric.n == 2**63 + 2**12
    assert metric.compute() == 1.0
    with pytest.raises(WkappaError, match=r"^`sample_weight` could take a cell of the int64"):
        metric.update(torch.tensor([0]), torch.tensor([0]), torch.tensor([2.0**62]))
    assert metric.n == 2**63 + 2**12


@pytest.mark.parametrize(
    ("input", "target", "hint"),
    [
        # A regression head (one output per row, or a flat vector of them).
        (torch.randn(4, 1), LONG, r"a last layer of 3 outputs.*optimize_thresholds"),
        (torch.randn(4), LONG, r"a last layer of 3 outputs.*optimize_thresholds"),
        # The arguments swapped: class indices first, the scores second.
        (LONG, torch.randn(4, 3), r"loss\(input, target\).*were they swapped\?"),
        # A model with more (or fewer) classes than the loss.
        (torch.randn(4, 5), LONG, r"outputs 5 class scores per row but num_classes = 3"),
    ],
)
def test_input_that_is_not_class_scores_gets_the_likely_fix(
    input: torch.Tensor, target: torch.Tensor, hint: str
) -> None:
    """Each was "`input` must be a tensor of shape (N, 3); got (4, 1)." and no more."""
    with pytest.raises(
        WkappaError,
        match=r"^`input` must be a tensor of shape \(N, 3\); got .*" + r"\. Hint: .*" + hint,
    ):
        WeightedKappaLoss(3)(input, target)
