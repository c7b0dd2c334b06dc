"""Keras 3 integration: TensorFlow Addons' Cohen's kappa metric and weighted kappa loss.

Needs the ``keras`` extra (``pip install 'wkappa[keras]'``) and one Keras backend (JAX,
PyTorch or TensorFlow). Everything is written with ``keras.ops``, so the same objects run on
every backend; the signatures are those of ``tfa.metrics.CohenKappa`` and
``tfa.losses.WeightedKappaLoss``, so a TensorFlow Addons user changes one import. That is why
the weights are called ``weightage`` and the loss's guard ``epsilon`` here, where the rest of
wkappa (:func:`wkappa.weighted_kappa`, :mod:`wkappa.torch`, :mod:`wkappa.jax`) says ``weights``
and ``eps``: the names are TFA's, kept on purpose.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from ._core import (
    LossForm,
    ZeroDivision,
    check_loss_form,
    check_num_classes,
    check_zero_division,
    format_value,
    import_optional,
    kappa_from_table,
    soft_kappa_loss,
)
from .exceptions import WkappaError, WkappaTypeError

import_optional("keras", "keras")

import keras  # noqa: E402
from keras import ops  # noqa: E402

from ._keras_inputs import (  # noqa: E402
    argmax_rows,
    check_weight_rows,
    class_indices,
    classes_hint,
    is_float,
    is_traced,
    loss_weights,
    probability_rows,
    row_tensor,
    to_tensor,
)
from ._keras_messages import REJECTED, loss_index_error, rejected_error  # noqa: E402

__all__ = ["CohenKappa", "WeightedKappaLoss"]

_WEIGHTAGE_NAMES = {None: "unweighted", "linear": "linear", "quadratic": "quadratic"}


def _check_weightage(weightage: Any, allowed: tuple[Any, ...]) -> Any:
    if weightage not in allowed or isinstance(weightage, bool):
        names = ", ".join(repr(w) for w in allowed)
        raise WkappaError(f"`weightage` must be one of {names}; got {format_value(weightage)}.")
    return weightage


def _weight_matrix(weightage: str | None, k: int) -> np.ndarray:
    """TFA's weights: 0/1, |i - j| or (i - j)^2, with the zero diagonal of disagreement weights."""
    i, j = np.indices((k, k))
    if weightage is None:
        distance = (i != j).astype(np.int64)
    elif weightage == "linear":
        distance = np.abs(i - j)
    else:
        distance = (i - j) ** 2
    return np.asarray(distance, dtype=np.float64)


def _numpy(variable: Any) -> np.ndarray:
    """A metric variable's value as numpy, copied to a tensor first: TensorFlow's variable
    objects lack the ``copy`` keyword of ``__array__`` that NumPy 2 asks for (a
    DeprecationWarning at every read)."""
    return np.asarray(ops.convert_to_numpy(ops.copy(variable.value)))


def _count_dtype() -> str:
    """int64 where the backend has it; int32 on JAX unless ``jax_enable_x64`` is set."""
    if keras.backend.backend() == "jax":
        import jax

        return "int64" if getattr(jax.config, "jax_enable_x64", False) else "int32"
    return "int64"


@keras.saving.register_keras_serializable(package="wkappa")
class CohenKappa(keras.metrics.Metric):  # type: ignore[misc]
    """Cohen's (weighted) kappa of a Keras model, counted exactly over batches.

    A drop-in for ``tfa.metrics.CohenKappa`` on every Keras 3 backend: same parameters,
    same values, but an integer count table and strict label checks.

    Parameters
    ----------
    num_classes : int
        K, the number of ordered classes (``>= 2``); classes are ``0..K-1``.
    name : str, default 'cohen_kappa'
        The metric's name in logs and history.
    weightage : {None, 'linear', 'quadratic'}, default None
        Disagreement weights: none (Cohen's kappa), ``|i - j|`` or ``(i - j)^2`` (QWK).
        TFA's name for what the rest of wkappa calls ``weights``.
    sparse_labels : bool, default False
        ``y_true`` holds class indices (N,) or (N, 1); otherwise one-hot rows (N, K) whose
        argmax is the class. With ``num_classes=2``, indices are accepted either way (as TFA).
    regression : bool, default False
        ``y_pred`` is one score per row, rounded (half to even) to the nearest class.
    dtype : str, optional
        The dtype of :meth:`result` (Keras' float type by default).
    clip : bool, default False
        With ``regression=True``, clip the rounded score into ``0..K-1`` instead of rejecting
        an out-of-range prediction (the usual rule for an unbounded regression output).
    zero_division : {'warn', 'raise'} or float, default 'warn'
        What :meth:`result` returns for an undefined kappa, as :func:`wkappa.kappa_from_table`.

    Notes
    -----
    The state is the K x K table ``O`` of (weighted) counts, rows ``y_true`` and columns the
    predicted class, held as an integer variable (int64; int32 on JAX unless
    ``jax_enable_x64`` is on, exact up to 2,147,483,647 per cell: an eager update that
    could pass that raises, a compiled one cannot check it). Each
    :meth:`update_state` adds the batch's counts; Keras sums the variable across replicas
    (``aggregation='sum'``) and :meth:`merge_state` adds other metrics' tables, so any split
    into batches or devices gives the table of all the data. Read eagerly (the value Keras
    logs at the end of an epoch, of ``evaluate`` and of validation), :meth:`result` is the
    exact :func:`wkappa.kappa_from_table` of that table, rounded once to ``dtype``:

    .. math::

        \\kappa = 1 - \\frac{n \\sum_{ij} W_{ij} O_{ij}}{\\sum_{ij} W_{ij} r_i c_j},

    with ``r`` and ``c`` the row and column totals of ``O``. Inside a compiled step (the
    per-batch values of the progress bar) the same formula is evaluated in floating point.

    What a row is turned into: ``y_true`` one-hot → argmax, or the index itself;
    ``y_pred`` of shape (N, K) → argmax; ``regression=True`` → the rounded score; with
    ``num_classes=2`` a single probability per row → ``p > 0.5``; otherwise ``y_pred`` holds
    class indices. ``sample_weight`` must hold non-negative whole numbers (float32 ones are
    fine): kappa does not change when all the weights are scaled, so fractional weights can
    be scaled to integers first.

    Strict checks: a class index outside ``0..K-1`` or not a whole number, a score row
    with NaN, or a negative, fractional or non-finite sample weight is never binned. When
    ``update_state`` runs eagerly (the PyTorch backend, or a call by hand) it raises
    :class:`~wkappa.exceptions.WkappaError` at once. Inside a compiled graph (JAX's
    ``jit``, ``tf.function``) a Python error cannot be raised from the data, so the row is
    left out of the table and counted; the result inside the graph is then NaN, and the
    next eager :meth:`result` (the end of the epoch, of ``evaluate``) raises the error with
    the counts. TFA instead reflects negative regression scores (``abs``) and truncates
    fractional indices.

    Copies keep the counts: ``pickle``, ``copy.copy`` and ``copy.deepcopy`` go
    through Keras' saving library, which writes the table with :meth:`save_own_variables`, so
    a metric sent to another process (to be added up with :meth:`merge_state`) arrives with
    its counts. Keras' own metrics arrive empty (``keras.metrics.Mean`` pickles to a new
    metric). :meth:`get_config` holds the constructor's arguments only, as every Keras
    metric's: ``from_config`` and ``keras.saving.deserialize_keras_object`` build a new,
    empty metric, which is what ``model.compile`` and cloning a model expect.

    Examples
    --------
    TensorFlow Addons' documented example (values 0.61904764 and, weighted, 0.37209308):

    >>> import numpy as np
    >>> from wkappa.keras import CohenKappa
    >>> actuals = np.array([4, 4, 3, 4, 2, 4, 1, 1], dtype=np.int32)
    >>> preds = np.array([4, 4, 3, 4, 4, 2, 1, 1], dtype=np.int32)
    >>> metric = CohenKappa(num_classes=5, sparse_labels=True)
    >>> metric.update_state(actuals, preds)
    >>> round(float(metric.result()), 6)
    0.619048
    >>> metric = CohenKappa(num_classes=5, sparse_labels=True)
    >>> metric.update_state(actuals, preds, sample_weight=np.array([1, 1, 2, 5, 10, 2, 3, 3]))
    >>> round(float(metric.result()), 6)
    0.372093
    """

    def __init__(
        self,
        num_classes: int,
        name: str = "cohen_kappa",
        weightage: Literal["linear", "quadratic"] | None = None,
        sparse_labels: bool = False,
        regression: bool = False,
        dtype: Any = None,
        *,
        clip: bool = False,
        zero_division: ZeroDivision = "warn",
    ) -> None:
        super().__init__(name=name, dtype=dtype)
        self.num_classes = check_num_classes(num_classes)
        self.weightage = _check_weightage(weightage, (None, "linear", "quadratic"))
        self.sparse_labels = bool(sparse_labels)
        self.regression = bool(regression)
        self.clip = bool(clip)
        self.zero_division = check_zero_division(zero_division)
        self._float_scores = False
        k = self.num_classes
        self._weights = _weight_matrix(self.weightage, k)
        self._count_dtype = _count_dtype()
        self._table = self.add_variable(
            shape=(k, k), initializer="zeros", dtype=self._count_dtype, name="table"
        )
        self._rejected = self.add_variable(
            shape=(len(REJECTED) + 1,),
            initializer="zeros",
            dtype=self._count_dtype,
            name="rejected",
        )

    # -- decoding -----------------------------------------------------------------------
    def _true_index(self, y_true: Any) -> tuple[Any, Any, Any]:
        """The class of each row, the rows that are valid, and the rows holding K (the
        index of labels numbered 1..K, counted for the error's hint)."""
        k = self.num_classes
        values = row_tensor(y_true, "y_true", k)
        if len(values.shape) == 2:
            if self.sparse_labels:
                raise WkappaError(
                    f"`y_true` has shape {tuple(values.shape)}, one-hot rows, but "
                    "sparse_labels=True expects class indices (N,). Hint: sparse_labels=False."
                )
            index, ok = argmax_rows(values)
            ok = ops.logical_and(ok, ops.max(values, axis=-1) > 0)
            return index, ok, ops.zeros_like(ok)
        if not self.sparse_labels and k > 2:
            raise WkappaError(
                f"`y_true` has shape {tuple(values.shape)}, class indices, but "
                f"sparse_labels=False expects one-hot rows (N, {k}). Hint: sparse_labels=True."
            )
        index, ok = class_indices(values, k)
        return index, ok, ops.equal(values, k)

    def _pred_index(self, y_pred: Any) -> tuple[Any, Any]:
        k = self.num_classes
        values = row_tensor(y_pred, "y_pred", None if self.regression else k)
        if len(values.shape) == 2:
            return argmax_rows(values)
        if self.regression:
            values = ops.cast(values, "float32") if not is_float(values) else values
            rounded = ops.round(values)
            if self.clip:
                rounded = ops.clip(rounded, 0, k - 1)
            return class_indices(rounded, k)
        if k == 2 and is_float(values):  # TFA's binary rule: one probability per row
            ok = ops.isfinite(values)
            return ops.cast(values > 0.5, "int32"), ok
        # One float per row may be a regression head's score: said in the error, which
        # cannot show the row inside a compiled step.
        self._float_scores = self._float_scores or is_float(values)
        return class_indices(values, k)

    def _sample_weight(self, sample_weight: Any, n: Any) -> tuple[Any, Any]:
        if sample_weight is None:
            weight = ops.ones((n,), dtype=self._count_dtype)
            return weight, ops.ones((n,), dtype="bool")
        values = row_tensor(sample_weight, "sample_weight")
        check_weight_rows(values, n)
        if is_float(values):
            ok = ops.logical_and(ops.isfinite(values), ops.equal(values, ops.floor(values)))
            ok = ops.logical_and(ok, values >= 0)
        else:
            ok = values >= 0
        values = ops.broadcast_to(values, (n,))
        ok = ops.broadcast_to(ok, (n,))
        weight = ops.cast(ops.where(ok, values, ops.zeros_like(values)), self._count_dtype)
        return weight, ok

    # -- the Keras metric API -----------------------------------------------------------
    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Count a batch.

        Parameters
        ----------
        y_true : array-like of shape (N,), (N, 1) or (N, K)
            Class indices (``sparse_labels=True``) or one-hot rows.
        y_pred : array-like of shape (N,), (N, 1) or (N, K)
            Scores or probabilities (N, K), one score per row (``regression=True``; with
            two classes, the probability of class 1) or class indices.
        sample_weight : array-like of shape (N,) or (N, 1), optional
            Non-negative whole-number weights (the count each row adds).
        """
        k = self.num_classes
        true_index, true_ok, true_at_k = self._true_index(y_true)
        pred_index, pred_ok = self._pred_index(y_pred)
        n_true, n_pred = true_index.shape[0], pred_index.shape[0]
        if n_true is not None and n_pred is not None and n_true != n_pred:
            raise WkappaError(
                f"`y_true` and `y_pred` must have the same number of rows; got {n_true} "
                f"and {n_pred}."
            )
        rows = true_index.shape[0]
        weight, weight_ok = self._sample_weight(
            sample_weight, rows if isinstance(rows, int) else ops.shape(true_index)[0]
        )
        bad = [
            ops.logical_not(true_ok),
            ops.logical_and(true_ok, ops.logical_not(pred_ok)),
            ops.logical_and(ops.logical_and(true_ok, pred_ok), ops.logical_not(weight_ok)),
            true_at_k,
        ]
        if not is_traced(true_index):
            self._raise_rejected(
                [int(ops.convert_to_numpy(ops.sum(ops.cast(b, "int32")))) for b in bad],
                (y_true, y_pred, sample_weight),
                [ops.convert_to_numpy(b) for b in bad],
            )
            self._check_capacity(weight)
        valid = ops.logical_and(ops.logical_and(true_ok, pred_ok), weight_ok)
        cells = ops.where(valid, true_index * k + pred_index, ops.zeros_like(true_index))
        weight = ops.where(valid, weight, ops.zeros_like(weight))
        counts = ops.segment_sum(weight, cells, num_segments=k * k)
        self._table.assign(self._table + ops.cast(ops.reshape(counts, (k, k)), self._count_dtype))
        rejected = ops.stack([ops.sum(ops.cast(b, self._count_dtype)) for b in bad])
        self._rejected.assign(self._rejected + rejected)

    def _check_capacity(self, weight: Any) -> None:
        """Refuse (eagerly) a batch whose counts could overflow the integer table."""
        limit = int(np.iinfo(self._count_dtype).max)
        batch = int(np.sum(np.asarray(ops.convert_to_numpy(weight), dtype=np.int64)))
        if int(ops.convert_to_numpy(ops.max(self._table.value))) + batch > limit:
            hint = (
                " Hint: jax.config.update('jax_enable_x64', True) before creating the metric "
                "gives an int64 table."
                if self._count_dtype == "int32"
                else ""
            )
            raise WkappaError(
                f"The {self._count_dtype} count table could overflow: a cell may exceed "
                f"{limit:,} with this batch's total weight {batch:,}.{hint}"
            )

    def _raise_rejected(
        self, counts: list[int], inputs: tuple[Any, ...] | None, masks: list[Any] | None
    ) -> None:
        """Raise the strict-check error for rows that were (or would be) rejected."""
        shown = None
        first = next((i for i, c in enumerate(counts[: len(REJECTED)]) if c), None)
        if first is not None and inputs is not None and masks is not None:
            raw = np.asarray(ops.convert_to_numpy(to_tensor(inputs[first], REJECTED[first])))
            raw = raw.reshape(raw.shape[0], -1) if raw.ndim > 1 else raw.reshape(-1)
            row = int(np.flatnonzero(masks[first])[0])
            shown = (row, raw[row].tolist())
        error = rejected_error(
            counts,
            self.num_classes,
            regression=self.regression,
            clip=self.clip,
            shown=shown,
            float_scores=self._float_scores,
        )
        if error is not None:
            raise error

    def result(self) -> Any:
        """Kappa of everything counted since the last reset.

        Returns
        -------
        float
            A scalar tensor of the backend. Eagerly, the exact
            :func:`wkappa.kappa_from_table` value of the table in ``dtype``; an empty or
            degenerate table follows ``zero_division``. Inside a compiled graph, the same
            formula in floating point (NaN if rows were rejected).
        """
        table = self._table.value
        if not is_traced(table):
            rejected = [int(c) for c in _numpy(self._rejected)]
            self._raise_rejected(rejected, None, None)
            value = kappa_from_table(
                np.asarray(_numpy(self._table), dtype=np.int64),
                weights=_WEIGHTAGE_NAMES[self.weightage],
                zero_division=self.zero_division,
            )
            return ops.convert_to_tensor(value, dtype=self.dtype)
        counts = ops.cast(table, self.dtype)
        weights = ops.convert_to_tensor(self._weights, dtype=self.dtype)
        n = ops.sum(counts)
        observed = ops.sum(weights * counts)
        rows, cols = ops.sum(counts, axis=1), ops.sum(counts, axis=0)
        chance = ops.sum(weights * ops.outer(rows, cols))
        undefined = float(self.zero_division) if isinstance(self.zero_division, float) else math.nan
        kappa = ops.where(
            chance > 0, 1.0 - n * observed / ops.where(chance > 0, chance, 1.0), undefined
        )
        return ops.where(ops.sum(self._rejected.value) > 0, math.nan, kappa)

    def merge_state(self, metrics: list[CohenKappa]) -> None:
        """Add the tables of other ``CohenKappa`` metrics (same classes and weights)."""
        for other in metrics:
            if not isinstance(other, CohenKappa):
                raise WkappaTypeError(
                    f"Can only merge CohenKappa metrics; got {type(other).__name__}."
                )
            if other.num_classes != self.num_classes or other.weightage != self.weightage:
                raise WkappaError(
                    "Can only merge metrics with the same num_classes and weightage; got "
                    f"{self.num_classes}/{self.weightage!r} and "
                    f"{other.num_classes}/{other.weightage!r}."
                )
            self._table.assign(self._table + ops.cast(other._table.value, self._count_dtype))
            self._rejected.assign(
                self._rejected + ops.cast(other._rejected.value, self._count_dtype)
            )

    @property
    def table(self) -> np.ndarray:
        """The (K, K) table of counts as an int64 numpy array (rows ``y_true``)."""
        return np.asarray(_numpy(self._table), dtype=np.int64)

    def save_own_variables(self, store: Any) -> None:
        """Write the counts (the table and the rejected rows) to a Keras weights ``store``.

        Keras' saving library calls it, and so pickling, ``copy.copy`` and
        ``copy.deepcopy`` (which Keras runs through that library) keep the counts.
        """
        store["table"] = _numpy(self._table)
        store["rejected"] = _numpy(self._rejected)

    def load_own_variables(self, store: Any) -> None:
        """Read the counts written by :meth:`save_own_variables` (a store without them,
        written by an older wkappa, leaves the counts as they are)."""
        if "table" not in store:
            return
        table = np.asarray(store["table"])
        if table.shape != (self.num_classes, self.num_classes):
            raise WkappaError(
                f"The saved table of counts has shape {table.shape}, but this metric has "
                f"num_classes = {self.num_classes}. Hint: load it into a CohenKappa built "
                "with the num_classes it was saved with."
            )
        self._table.assign(ops.cast(table, self._count_dtype))
        self._rejected.assign(ops.cast(np.asarray(store["rejected"]), self._count_dtype))

    def get_config(self) -> dict[str, Any]:
        """The constructor's arguments (Keras serialization), not the counts."""
        config: dict[str, Any] = super().get_config()
        config.update(
            num_classes=self.num_classes,
            weightage=self.weightage,
            sparse_labels=self.sparse_labels,
            regression=self.regression,
            clip=self.clip,
            zero_division=self.zero_division,
        )
        return config


@keras.saving.register_keras_serializable(package="wkappa")
class WeightedKappaLoss(keras.losses.Loss):  # type: ignore[misc]
    """Differentiable weighted kappa loss (de la Torre, Puig & Valls 2018), as TFA's.

    A drop-in for ``tfa.losses.WeightedKappaLoss`` on every Keras 3 backend.

    Parameters
    ----------
    num_classes : int
        K, the number of ordered classes (``>= 2``).
    weightage : {'quadratic', 'linear'}, default 'quadratic'
        Disagreement weights ``(i - j)^2`` or ``|i - j|`` (TFA's name; ``weights`` elsewhere
        in wkappa).
    name : str, default 'cohen_kappa_loss'
        The loss's name.
    epsilon : float, default 1e-6
        ``form='log'``: added inside the log, ``log(ΣWO / ΣWE + epsilon)`` (TFA's loss);
        ``form='ratio'``: added to the denominator, ``ΣWO / (ΣWE + epsilon)``. TFA's name
        and default; :class:`wkappa.torch.WeightedKappaLoss` calls its guard ``eps``.
    dtype : str, optional
        The dtype of the computation (Keras' float type by default).
    form : {'log', 'ratio'}, default 'log'
        ``'log'`` is TFA's loss, ``log(1 - κ)``, in ``[-inf, log 2]``; ``'ratio'`` is the
        smooth QWK ``1 - κ`` itself, in ``[0, 2]`` (as ``form='ratio'`` of
        :class:`wkappa.torch.WeightedKappaLoss`).
    from_logits : bool, default False
        ``y_pred`` holds logits (a softmax is applied over the last axis) rather than
        probabilities: non-negative rows summing to 1 (within the rounding of their dtype),
        or all 0 for a padded row (masked by its sample weight 0). Rows that are not
        (logits by mistake) raise :class:`~wkappa.exceptions.WkappaError` eagerly and make
        the loss NaN inside a compiled step, as in :class:`wkappa.torch.WeightedKappaLoss`
        (``mode='probs'``) and :func:`wkappa.jax.kappa_loss`.
    sparse_labels : bool, default False
        ``y_true`` holds class indices (N,) or (N, 1) instead of one-hot rows (N, K).

    Notes
    -----
    For a batch with probabilities ``P`` (N, K), one-hot targets ``Y`` (N, K), sample
    weights ``w`` (ones by default) and ``W`` scaled to a largest weight of 1 (TFA's scale),

    .. math::

        O = Y^T \\operatorname{diag}(w) P, \\qquad
        E = \\frac{(Y^T w)(P^T w)^T}{\\sum_i w_i}, \\qquad
        1 - \\kappa = \\frac{\\sum_{ij} W_{ij} O_{ij}}{\\sum_{ij} W_{ij} E_{ij}}.

    Kappa is a statistic of the whole batch, not a mean over rows, so the loss is one scalar
    per batch and ``sample_weight`` enters the tables (TFA ignored it; there, weighting
    meant scaling ``y_pred``). With unit weights and one-hot targets this is exactly TFA's
    value; TFA scores soft (label-smoothed) targets by their expected class instead.
    A batch whose sample weights are all zero (every row masked or padded out), or that has
    no rows, carries no information: its loss is 0 and its gradient zero, in both forms, so
    it does not disturb training.
    With ``sparse_labels=True`` an index outside ``0..K-1``, a ``y_pred`` row that is not
    probabilities (``from_logits=False``), and a sample weight that is negative, NaN or
    infinite, raises :class:`~wkappa.exceptions.WkappaError` when the loss
    runs eagerly and makes the loss NaN inside a compiled graph (where Python cannot raise;
    the gradient of such a batch is zero), so training stops visibly
    (``keras.callbacks.TerminateOnNaN``) instead of learning from a wrong target or weight.

    Examples
    --------
    TensorFlow Addons' documented example (``Loss: -1.1611923``):

    >>> import numpy as np
    >>> from wkappa.keras import WeightedKappaLoss
    >>> y_true = np.array([[0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]])
    >>> y_pred = np.array([[0.1, 0.2, 0.6, 0.1], [0.1, 0.5, 0.3, 0.1],
    ...                    [0.8, 0.05, 0.05, 0.1], [0.01, 0.09, 0.1, 0.8]])
    >>> round(float(WeightedKappaLoss(num_classes=4)(y_true, y_pred)), 5)
    -1.16119
    """

    def __init__(
        self,
        num_classes: int,
        weightage: Literal["linear", "quadratic"] = "quadratic",
        name: str = "cohen_kappa_loss",
        epsilon: float = 1e-6,
        dtype: Any = None,
        *,
        form: LossForm = "log",
        from_logits: bool = False,
        sparse_labels: bool = False,
    ) -> None:
        super().__init__(name=name, reduction=None, dtype=dtype)
        self.num_classes = check_num_classes(num_classes)
        self.weightage = _check_weightage(weightage, ("linear", "quadratic"))
        self.form, self.epsilon = check_loss_form(form, epsilon, "epsilon")
        self.from_logits = bool(from_logits)
        self.sparse_labels = bool(sparse_labels)
        k = self.num_classes
        self._weights = _weight_matrix(self.weightage, k) / (
            (k - 1) if self.weightage == "linear" else (k - 1) ** 2
        )

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        """The loss of one batch (a scalar); ``sample_weight`` (N,) weights the rows."""
        with keras.name_scope(self.name):
            return self._loss(y_true, y_pred, sample_weight)

    def call(self, y_true: Any, y_pred: Any) -> Any:
        """The unweighted loss of one batch (a scalar)."""
        return self._loss(y_true, y_pred, None)

    def _loss(self, y_true: Any, y_pred: Any, sample_weight: Any) -> Any:
        k = self.num_classes
        raw = to_tensor(y_pred, "y_pred")
        if len(raw.shape) != 2 or raw.shape[-1] != k:
            raise WkappaError(
                f"`y_pred` must have shape (N, {k}), one column per class; "
                f"got {tuple(raw.shape)}."
                + (classes_hint("y_pred", k, raw.shape[-1]) if len(raw.shape) == 2 else "")
            )
        scores = ops.cast(raw, self.dtype)
        if self.from_logits:
            probs, poison = ops.softmax(scores, axis=-1), None
        else:
            probs, poison = scores, probability_rows(scores, raw.dtype)
        if self.sparse_labels:
            values = row_tensor(y_true, "y_true")
            index, ok = class_indices(values, k)
            if not is_traced(index):
                bad = np.flatnonzero(~np.asarray(ops.convert_to_numpy(ok)))
                if bad.size:
                    label = np.asarray(ops.convert_to_numpy(values))[bad[0]].item()
                    raise loss_index_error(int(bad[0]), label, k)
            else:
                bad_index = ops.logical_not(ops.all(ok))
                poison = bad_index if poison is None else ops.logical_or(poison, bad_index)
            onehot = ops.one_hot(index, k, dtype=self.dtype)
        else:
            onehot = ops.cast(to_tensor(y_true, "y_true"), self.dtype)
            if len(onehot.shape) != 2 or onehot.shape[-1] != k:
                raise WkappaError(
                    f"`y_true` must be one-hot rows of shape (N, {k}); got "
                    f"{tuple(onehot.shape)}. Hint: sparse_labels=True for class indices."
                )
        n_true, n_pred = onehot.shape[0], probs.shape[0]
        if isinstance(n_true, int) and isinstance(n_pred, int) and n_true != n_pred:
            raise WkappaError(
                f"`y_true` and `y_pred` must have the same number of rows; got {n_true} "
                f"and {n_pred}."
            )
        if sample_weight is not None:
            raw_weight = row_tensor(sample_weight, "sample_weight")
            row_weight = ops.cast(raw_weight, self.dtype)
            check_weight_rows(row_weight, probs.shape[0])
            row_weight, bad_weight = loss_weights(raw_weight, row_weight)
            if bad_weight is not None:
                poison = bad_weight if poison is None else ops.logical_or(poison, bad_weight)
            row_weight = ops.broadcast_to(row_weight, ops.shape(probs)[:1])
            weighted = onehot * ops.expand_dims(row_weight, -1)
            total = ops.sum(row_weight)
            pred_margin = ops.sum(probs * ops.expand_dims(row_weight, -1), axis=0)
        else:
            weighted = onehot
            total = ops.cast(ops.shape(probs)[0], self.dtype)
            pred_margin = ops.sum(probs, axis=0)
        weights = ops.convert_to_tensor(self._weights, dtype=self.dtype)
        loss = soft_kappa_loss(
            ops, weighted, probs, pred_margin, total, weights, form=self.form,
            eps=self.epsilon, tfa_log=True,
        )  # fmt: skip
        if poison is not None:
            loss = ops.where(poison, math.nan, loss)
        return loss

    def get_config(self) -> dict[str, Any]:
        """The constructor's arguments (Keras serialization)."""
        return {
            "num_classes": self.num_classes,
            "weightage": self.weightage,
            "name": self.name,
            "epsilon": self.epsilon,
            "dtype": self.dtype,
            "form": self.form,
            "from_logits": self.from_logits,
            "sparse_labels": self.sparse_labels,
        }
