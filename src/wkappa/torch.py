"""PyTorch integration: a differentiable kappa loss and a streaming kappa metric.

Needs the ``torch`` extra (``pip install 'wkappa[torch]'``). PyTorch conventions: a loss is
called ``loss(input, target)``, a metric ``metric.update(preds, target)``.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from ._backends import torch_count
from ._core import (
    LossForm,
    WeightsLike,
    ZeroDivision,
    check_choice,
    check_loss_form,
    check_num_classes,
    check_weights,
    check_zero_division,
    count_weight_error,
    exact_total,
    import_optional,
    kappa_from_table,
    loss_weight_error,
    one_based_hint,
    probability_rows_error,
    probability_tolerance,
    soft_kappa_loss,
    weight_exponent_limit,
    weight_matrix,
    weights_name,
)
from .exceptions import WkappaError, WkappaTypeError

import_optional("torch", "torch")

import torch  # noqa: E402
from torch import nn  # noqa: E402

__all__ = ["KappaMetric", "WeightedKappaLoss"]

_MODES = ("logits", "probs")


def _weights_tensor(weights: WeightsLike, k: int) -> tuple[str | np.ndarray, torch.Tensor]:
    checked = check_weights(weights.detach().cpu().numpy() if torch.is_tensor(weights) else weights)
    return checked, torch.tensor(np.array(weight_matrix(checked, k)), dtype=torch.float64)


def _check_target(
    target: Any, n: int, k: int, validate: bool, soft_ok: bool = False
) -> torch.Tensor:
    """Class indices 0..k-1 of shape (n,); ``soft_ok``: the loss, which also takes floating
    (n, k) rows of class probabilities (said in the hint for other (n, k) targets)."""
    if not torch.is_tensor(target):
        raise WkappaTypeError(f"`target` must be a torch.Tensor; got {type(target).__name__}.")
    if target.ndim != 1 or target.shape[0] != n:
        hint = ""
        if target.ndim == 2 and target.shape[0] == n and target.shape[1] == 1:
            hint = " Hint: target.squeeze(1) for a column of class indices."
        elif target.ndim == 2 and target.shape[0] == n and target.shape[1] == k:
            hint = (
                " Hint: one-hot or soft targets (N, K) must be floating point, "
                "target.float(); or pass the class indices, target.argmax(1)."
                if soft_ok
                else " Hint: for one-hot rows, pass the class indices, target.argmax(1)."
            )
        raise WkappaError(
            f"`target` must have shape ({n},) to match the predictions; got "
            f"{tuple(target.shape)}.{hint}"
        )
    # Booleans are the classes False/True, 0 and 1, as wkappa.weighted_kappa reads them.
    if target.is_floating_point() or target.is_complex():
        raise WkappaTypeError(
            f"`target` must hold integer class indices 0..{k - 1}; got dtype {target.dtype}. "
            "Hint: target.long()."
        )
    indices: torch.Tensor = target.detach().long()
    if validate:
        _check_range(indices, k, "target")
    return indices


def _check_range(indices: torch.Tensor, k: int, name: str) -> None:
    """Class indices in 0..k-1: one min/max pass (and one sync) on the device."""
    if indices.numel() == 0:
        return
    low, high = (int(v) for v in torch.aminmax(indices))
    if low < 0 or high >= k:
        bad = low if low < 0 else high
        raise WkappaError(
            f"`{name}` contains the class index {bad}, outside 0..{k - 1} "
            f"(num_classes = {k}).{one_based_hint(bad, k)}"
        )


def _weight_tensor(sample_weight: Any, n: int, rows: str) -> torch.Tensor:
    """``sample_weight`` checked as the metric and the loss both take it: a real tensor of
    shape (N,); ``rows`` says what it must match, in the message."""
    if not torch.is_tensor(sample_weight):
        raise WkappaTypeError(
            f"`sample_weight` must be a torch.Tensor; got {type(sample_weight).__name__}."
        )
    if sample_weight.ndim != 1 or sample_weight.shape[0] != n:
        raise WkappaError(
            f"`sample_weight` must have shape ({n},){rows}; got {tuple(sample_weight.shape)}."
        )
    if sample_weight.is_complex():
        raise WkappaTypeError(f"`sample_weight` must be real; got dtype {sample_weight.dtype}.")
    return sample_weight


def _row_weights(sample_weight: Any, n: int, probs: torch.Tensor, validate: bool) -> torch.Tensor:
    """The loss's row weights as ``probs``' dtype and device: real, shape (N,), and (with
    ``validate``) finite and non-negative."""
    checked = _weight_tensor(sample_weight, n, ", one weight per row of `input`")
    weight = checked.to(device=probs.device, dtype=probs.dtype)
    if validate:
        bad = ~torch.isfinite(weight) | (weight < 0)
        if bool(bad.any()):
            row = int(torch.nonzero(bad)[0, 0])
            raise loss_weight_error(row, sample_weight[row].item())
    # Scaled by a power of two as every wkappa loss scales them (weight_exponent_limit);
    # the exponent is read in the weight's own dtype (float64 weights pass float32's range).
    if not weight.numel():
        return weight
    top = weight_exponent_limit(math.frexp(torch.finfo(weight.dtype).max)[1])
    shift = (torch.frexp(weight.detach().max())[1] - top).clamp(min=0)
    return torch.ldexp(weight, -shift.to(weight.device))


def _input_shape_hint(input: Any, target: Any, k: int) -> str:
    """The likely mistake behind an ``input`` that is not (N, K) class scores."""
    if not torch.is_tensor(input):
        return ""
    if torch.is_tensor(target) and target.ndim == 2 and input.ndim == 1:
        return (
            " Hint: the loss is called loss(input, target), the (N, K) class scores first "
            "and the class indices second; were they swapped?"
        )
    if input.ndim == 1 or (input.ndim == 2 and input.shape[1] == 1):
        return (
            f" Hint: the loss needs one score per class (a last layer of {k} outputs); for "
            "a regression head with one output, train it with a regression loss and cut "
            "its scores into grades with wkappa.optimize_thresholds."
        )
    if input.ndim == 2:
        return (
            f" Hint: the model outputs {input.shape[1]} class scores per row but "
            f"num_classes = {k}; make them agree."
        )
    return ""


def _check_probabilities(probs: torch.Tensor) -> None:
    """Rows of class probabilities: non-negative, each summing to 1 (within the rounding of
    the dtype) or all 0 (a padded row); NaN is left to give a NaN loss, as documented."""
    with torch.no_grad():
        sums = probs.sum(dim=1)
        tol = probability_tolerance(probs.shape[1], torch.finfo(probs.dtype).eps)
        bad = (probs < 0).any(dim=1) | (((sums - 1).abs() > tol) & (sums != 0))
        if bool(bad.any()):
            row = int(torch.nonzero(bad)[0, 0])
            error = probability_rows_error(  # the first bad row alone, on the host
                probs[row : row + 1].detach().cpu().double().numpy(),
                "input",
                "mode='logits' for raw scores (a softmax is applied)",
                first_row=row,
            )
            assert error is not None
            raise error


class WeightedKappaLoss(nn.Module):
    """Differentiable (soft) weighted kappa loss of de la Torre, Puig & Valls (2018).

    Parameters
    ----------
    num_classes : int
        K, the number of ordered classes (``>= 2``); targets are class indices ``0..K-1``.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights ``W`` (zero diagonal), as in :func:`wkappa.weighted_kappa`.
    mode : {'logits', 'probs'}, default 'logits'
        Whether ``input`` holds raw scores (a softmax is applied over dim 1) or class
        probabilities (rows summing to 1).
    form : {'ratio', 'log'}, default 'ratio'
        ``'ratio'`` minimises ``1 - κ = ΣWO / ΣWE``; ``'log'`` minimises
        ``log(1 - κ) = log ΣWO - log ΣWE``, the form of the paper.
    eps : float, default 1e-7
        Added to ``ΣWO`` (log form) and ``ΣWE`` (both forms) so that a batch whose expected
        disagreement vanishes (every target and nearly all probability mass in one class)
        gives a finite loss and gradient instead of 0/0. ``ΣWE`` grows with the batch size,
        so the bias is negligible for any informative batch.
    validate_args : bool, default True
        Check that class-index targets lie in ``0..K-1``, sample weights are finite and
        non-negative, and (``mode='probs'``) that ``input`` rows are non-negative and sum to
        1, or are all 0 for a padded row (masked by its ``sample_weight`` 0; a device-to-host
        sync per call). ``False`` skips
        these checks, as torchmetrics' ``validate_args=False`` does, for input known to be
        valid: bad input is then not refused. A NaN or negative weight gives a wrong loss
        (0, or NaN) without any error, a target outside ``0..K-1`` fails inside torch, with
        torch's message, and logits given with ``mode='probs'`` give a wrong loss. Soft
        targets are used as given either way, and NaN in ``input`` gives a NaN loss.

    Notes
    -----
    For a batch of N rows with probabilities ``P`` (N, K) and one-hot targets ``Y`` (N, K),

    .. math::

        O = Y^T P, \\qquad E = \\frac{(Y^T 1)(P^T 1)^T}{N}, \\qquad
        1 - \\kappa = \\frac{\\sum_{ij} W_{ij} O_{ij}}{\\sum_{ij} W_{ij} E_{ij}}.

    ``O`` is the soft confusion table (expected counts under the predicted distribution),
    ``E`` the table expected from the marginals. With ``sample_weight`` ``w`` each row counts
    ``w_i`` times: ``O = Y^T diag(w) P`` and ``E = (Y^T w)(P^T w)^T / sum(w)``, as in
    :class:`wkappa.keras.WeightedKappaLoss`. Kappa is not a mean over samples, so the
    loss is a batch statistic with no ``reduction``; use batches large enough to hold several
    classes (it works down to N = 2). Works on any device and floating dtype.

    Examples
    --------
    >>> import torch
    >>> from wkappa.torch import WeightedKappaLoss
    >>> loss_fn = WeightedKappaLoss(3)
    >>> logits = torch.tensor([[4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 4.0]])
    >>> target = torch.tensor([0, 1, 2])
    >>> round(loss_fn(logits, target).item(), 4)
    0.053
    >>> round(WeightedKappaLoss(3, form="log")(logits, target).item(), 3)
    -2.937
    """

    weight_matrix: torch.Tensor

    def __init__(
        self,
        num_classes: int,
        *,
        weights: WeightsLike = "quadratic",
        mode: Literal["logits", "probs"] = "logits",
        form: LossForm = "ratio",
        eps: float = 1e-7,
        validate_args: bool = True,
    ) -> None:
        super().__init__()
        self.num_classes = check_num_classes(num_classes)
        self.mode: Literal["logits", "probs"] = check_choice(mode, "mode", _MODES)
        self.form, self.eps = check_loss_form(form, eps, "eps")
        self.validate_args = validate_args
        checked, matrix = _weights_tensor(weights, self.num_classes)
        self.weights_name = weights_name(checked)
        self.register_buffer("weight_matrix", matrix)

    def extra_repr(self) -> str:
        return (
            f"num_classes={self.num_classes}, weights={self.weights_name!r}, "
            f"mode={self.mode!r}, form={self.form!r}, eps={self.eps}"
        )

    def forward(
        self, input: torch.Tensor, target: torch.Tensor, sample_weight: torch.Tensor | None = None
    ) -> torch.Tensor:
        """The loss of one batch.

        Parameters
        ----------
        input : Tensor of shape (N, K)
            Logits or probabilities (see ``mode``), floating dtype.
        target : Tensor of shape (N,) or (N, K)
            Integer class indices in ``0..K-1`` (booleans are the classes 0 and 1, as in
            :func:`wkappa.weighted_kappa`), or soft targets: floating rows of class
            probabilities (label smoothing, a teacher's distribution), which take the place
            of the one-hot rows ``Y`` (as in :func:`wkappa.jax.kappa_loss` and the Keras
            loss).
        sample_weight : Tensor of shape (N,), optional
            Non-negative row weights (any real values, fractional included): row ``i``
            enters the tables ``w_i`` times, as in :class:`wkappa.keras.WeightedKappaLoss`.
            0 masks a row out (padding). A batch whose weights are all 0 has loss 0 and a
            zero gradient.

        Returns
        -------
        Tensor of shape ()
            ``1 - κ`` (``form='ratio'``) or ``log(1 - κ)`` (``form='log'``), differentiable
            with respect to ``input``.
        """
        k = self.num_classes
        if not torch.is_tensor(input) or input.ndim != 2 or input.shape[1] != k:
            shape = tuple(input.shape) if torch.is_tensor(input) else type(input).__name__
            raise WkappaError(
                f"`input` must be a tensor of shape (N, {k}); got {shape}."
                f"{_input_shape_hint(input, target, k)}"
            )
        if not input.is_floating_point():
            raise WkappaTypeError(f"`input` must be floating point; got dtype {input.dtype}.")
        probs = torch.softmax(input, dim=1) if self.mode == "logits" else input
        if self.mode == "probs" and self.validate_args:
            _check_probabilities(input)
        if torch.is_tensor(target) and target.ndim == 2 and target.is_floating_point():
            if tuple(target.shape) != tuple(input.shape):
                column = tuple(target.shape) == (input.shape[0], 1)
                raise WkappaError(
                    f"`target` as class probabilities must have the shape of `input`, "
                    f"{tuple(input.shape)}; got {tuple(target.shape)}."
                    + (
                        " Hint: target.squeeze(1).long() for a column of class indices."
                        if column
                        else ""
                    )
                )
            onehot = target.to(probs.dtype)  # soft targets: rows of class probabilities
        else:
            target = _check_target(target, input.shape[0], k, self.validate_args, soft_ok=True)
            onehot = nn.functional.one_hot(target, k).to(probs.dtype)
        weights = self.weight_matrix.to(device=probs.device, dtype=probs.dtype)
        if sample_weight is None:
            rows = onehot
            pred_margin = probs.sum(dim=0)
            total = torch.tensor(float(input.shape[0]), dtype=probs.dtype, device=probs.device)
        else:
            row_weight = _row_weights(sample_weight, input.shape[0], probs, self.validate_args)
            rows = onehot * row_weight[:, None]
            pred_margin = (probs * row_weight[:, None]).sum(dim=0)
            total = row_weight.sum()
        loss: torch.Tensor = soft_kappa_loss(
            torch, rows, probs, pred_margin, total, weights, form=self.form, eps=self.eps
        )
        return loss


class KappaMetric:
    """Streaming weighted kappa over batches, counted on the tensors' device.

    Parameters
    ----------
    num_classes : int
        K, the number of classes; predictions and targets are indices ``0..K-1``.
    weights : {'quadratic', 'linear', 'unweighted'} or array-like of shape (K, K)
        Disagreement weights, as in :func:`wkappa.weighted_kappa`.
    zero_division : {'warn', 'raise'} or float, default 'warn'
        What :meth:`compute` returns for an undefined kappa (see :func:`wkappa.kappa_from_table`).
    validate_args : bool, default True
        Check in :meth:`update` that indices lie in ``0..K-1`` and are whole numbers, that
        scores hold no NaN and that weights are non-negative whole numbers that cannot take a
        cell of the int64 table past 2**63 - 1 (a device-to-host sync per call). ``False``
        skips these checks, as torchmetrics' ``validate_args=False`` does, for input known
        to be valid: bad input is then not refused where it enters. A NaN score is taken by
        ``argmax`` (torch picks the NaN's column) and a fractional index is truncated, both
        counted without any error into a wrong kappa; an index outside ``0..K-1`` fails
        inside torch, with torch's message, and a negative or NaN weight only at
        :meth:`compute`, as a table that is not counts.

    Notes
    -----
    The state is the K x K int64 table ``O`` (rows target, columns prediction), kept on the
    device of the first batch. Each :meth:`update` adds ``histogram(target * K + pred)``
    (each row counted ``sample_weight`` times):
    ``torch.bincount``, or a sort-based count when
    ``torch.are_deterministic_algorithms_enabled()`` on CUDA, where ``bincount`` is not
    deterministic. :meth:`compute` copies only the K² counts to the host and returns the
    exact kappa of :func:`wkappa.kappa_from_table`, so any split of the data into batches,
    metrics merged with :meth:`merge`, or processes synced with :meth:`sync` give the same
    value as :func:`wkappa.weighted_kappa` on all the data.

    Examples
    --------
    >>> import torch
    >>> from wkappa.torch import KappaMetric
    >>> metric = KappaMetric(5)
    >>> metric.update(torch.tensor([0, 4, 1, 0, 4]), torch.tensor([4, 4, 3, 4, 4]))
    >>> metric.update(torch.tensor([0, 1, 1, 2, 1]), torch.tensor([0, 1, 1, 2, 1]))
    >>> metric.compute()
    0.3181818181818182
    """

    def __init__(
        self,
        num_classes: int,
        *,
        weights: WeightsLike = "quadratic",
        zero_division: ZeroDivision = "warn",
        validate_args: bool = True,
    ) -> None:
        self.num_classes = check_num_classes(num_classes)
        self._weights, _ = _weights_tensor(weights, self.num_classes)
        self.zero_division = check_zero_division(zero_division)
        self.validate_args = validate_args
        self._table: torch.Tensor | None = None
        self._synced: torch.Tensor | None = None

    def __repr__(self) -> str:
        return (
            f"KappaMetric(num_classes={self.num_classes}, "
            f"weights={weights_name(self._weights)!r}, n={self.n})"
        )

    def _preds(self, preds: Any) -> torch.Tensor:
        k = self.num_classes
        if not torch.is_tensor(preds):
            raise WkappaTypeError(f"`preds` must be a torch.Tensor; got {type(preds).__name__}.")
        preds = preds.detach()
        if preds.ndim == 2:
            if preds.is_complex():
                raise WkappaTypeError(f"`preds` as scores must be real; got dtype {preds.dtype}.")
            # One-hot rows of booleans: torch's argmax takes no bool, so as 0/1.
            scores: torch.Tensor = preds.to(torch.uint8) if preds.dtype == torch.bool else preds
            if preds.shape[1] != k:
                hint = (
                    " Hint: preds.squeeze(1) for a column of class indices."
                    if preds.shape[1] == 1
                    else ""
                )
                raise WkappaError(
                    f"`preds` as scores must have shape (N, {k}); got {tuple(preds.shape)}.{hint}"
                )
            if self.validate_args and scores.is_floating_point():
                if bool(torch.isnan(scores).any()):
                    raise WkappaError("`preds` scores contain NaN; argmax would be meaningless.")
            return scores.argmax(dim=1)
        if preds.ndim != 1:
            raise WkappaError(
                f"`preds` must be class indices (N,) or scores (N, {k}); "
                f"got shape {tuple(preds.shape)}."
            )
        # Booleans are the classes False/True, 0 and 1, as wkappa.weighted_kappa reads them.
        if preds.is_complex():
            raise WkappaTypeError(f"`preds` must hold class indices; got dtype {preds.dtype}.")
        if preds.is_floating_point() and self.validate_args:
            fractional = ~torch.isfinite(preds) | (preds != torch.floor(preds))
            if bool(fractional.any()):
                bad = float(preds[fractional][0])
                raise WkappaError(
                    f"`preds` contains {bad!r}, not a class index. Hint: pass (N, K) scores, "
                    "round regression outputs, or use wkappa.apply_thresholds."
                )
        index: torch.Tensor = preds.long()
        if self.validate_args:
            _check_range(index, k, "preds")
        return index

    def _sample_weight(self, sample_weight: Any, n: int, device: torch.device) -> torch.Tensor:
        """The count each row adds: non-negative whole numbers, as the Keras metric's."""
        weight = _weight_tensor(sample_weight, n, " to match the predictions").detach()
        if self.validate_args:
            bad = weight < 0
            if weight.is_floating_point():
                bad |= ~torch.isfinite(weight) | (weight != torch.floor(weight))
            if bool(bad.any()):
                row = int(torch.nonzero(bad)[0, 0])
                raise count_weight_error(row, weight[row].item())
            self._check_capacity(weight)
        return weight.to(device=device, dtype=torch.int64)

    def update(
        self, preds: torch.Tensor, target: torch.Tensor, sample_weight: torch.Tensor | None = None
    ) -> None:
        """Add a batch.

        Parameters
        ----------
        preds : Tensor of shape (N,) or (N, K)
            Predicted class indices (integer, integral floats, or booleans, read as the
            classes 0 and 1 as :func:`wkappa.weighted_kappa` reads them), or
            scores/probabilities/logits (or one-hot rows, boolean included) whose argmax over
            dim 1 is the predicted class.
        target : Tensor of shape (N,)
            True class indices ``0..K-1`` (integers, or booleans as the classes 0 and 1).
        sample_weight : Tensor of shape (N,), optional
            Non-negative whole-number weights, the count each row adds (as the ``sample_weight``
            of :class:`wkappa.keras.CohenKappa`): the kappa is that of
            :func:`wkappa.weighted_kappa` with these weights, and of the rows written out that
            many times. Kappa does not change when every weight is scaled, so fractional
            weights can be scaled to whole numbers first.
        """
        k = self.num_classes
        pred_index = self._preds(preds)
        true_index = _check_target(target, pred_index.shape[0], k, self.validate_args)
        cells = true_index.to(pred_index.device) * k + pred_index
        weight = (
            None
            if sample_weight is None
            else self._sample_weight(sample_weight, pred_index.shape[0], cells.device)
        )
        counts = torch_count(cells, k * k, weight).reshape(k, k).to(torch.int64)
        if self._table is None:
            self._table = counts
        else:
            self._table += counts.to(self._table.device)
        self._synced = None

    def _check_capacity(self, weight: torch.Tensor) -> None:
        """Refuse a batch whose weights could take a cell of the int64 table past
        2**63 - 1 (torch's sum would wrap around without an error)."""
        total = float(weight.double().sum())
        if self._table is not None and self._table.numel():
            total += float(self._table.max())
        if total >= 2.0**63:
            raise WkappaError(
                "`sample_weight` could take a cell of the int64 count table past 2**63 - 1 "
                f"(this batch's weights sum to {float(weight.double().sum()):.4g}). Hint: "
                "kappa does not change when every weight is scaled by one constant, so "
                "divide the weights."
            )

    @property
    def table(self) -> np.ndarray:
        """The (K, K) int64 table ``O`` (global after :meth:`sync`), as a numpy array."""
        table = self._synced if self._synced is not None else self._table
        if table is None:
            return np.zeros((self.num_classes, self.num_classes), dtype=np.int64)
        return np.asarray(table.detach().cpu().numpy(), dtype=np.int64)

    @property
    def n(self) -> int:
        """Number of pairs counted (globally after :meth:`sync`), exact as a Python int."""
        return exact_total(self.table)

    def compute(self) -> float:
        """Kappa of everything counted so far (globally after :meth:`sync`).

        Returns
        -------
        float
            ``1 - sum(W*O) / sum(W*E)``; an empty metric is undefined (``zero_division``).
        """
        return kappa_from_table(self.table, weights=self._weights, zero_division=self.zero_division)

    def reset(self) -> None:
        """Forget every batch (the device is chosen again by the next update)."""
        self._table = None
        self._synced = None

    def merge(self, other: KappaMetric) -> KappaMetric:
        """Add another metric's counts to this one (in place) and return ``self``."""
        if not isinstance(other, KappaMetric):
            raise WkappaTypeError(f"Can only merge a KappaMetric; got {type(other).__name__}.")
        same_weights = weights_name(self._weights) == weights_name(other._weights) and (
            not isinstance(self._weights, np.ndarray)
            or np.array_equal(self._weights, other._weights)
        )
        if other.num_classes != self.num_classes or not same_weights:
            raise WkappaError(
                "Can only merge metrics with the same num_classes and weights; got "
                f"{self!r} and {other!r}."
            )
        if other._table is not None:
            if self._table is None:
                self._table = other._table.clone()
            else:
                self._table += other._table.to(self._table.device)
        self._synced = None
        return self

    def sync(self, group: Any = None) -> KappaMetric:
        """Sum the tables of every process in ``torch.distributed`` (all-reduce).

        The summed table is what :meth:`compute` and :attr:`table` use until the next
        :meth:`update`, :meth:`merge` or :meth:`reset`; the local counts are kept, so
        calling ``sync()`` again never double-counts. Every process must call it (a
        collective); a process with no batches contributes zeros. Without an initialised
        process group it does nothing.

        Parameters
        ----------
        group : ProcessGroup, optional
            The process group (default: the world).

        Returns
        -------
        KappaMetric
            ``self``, so ``metric.sync().compute()`` reads the global value.
        """
        distributed = torch.distributed
        if not (distributed.is_available() and distributed.is_initialized()):
            return self
        k = self.num_classes
        if self._table is not None:
            table = self._table.clone()
        else:
            backend = distributed.get_backend(group)
            device = (
                torch.device("cuda", torch.cuda.current_device()) if backend == "nccl" else None
            )
            table = torch.zeros((k, k), dtype=torch.int64, device=device)
        distributed.all_reduce(table, op=distributed.ReduceOp.SUM, group=group)
        self._synced = table
        return self
