"""The Fisher r-to-z mean of several kappas (the ASAP essay-scoring "mean QWK")."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .._core import check_one_dimensional, refuse_iterator
from ..exceptions import WkappaError

__all__ = ["mean_kappa"]

_CLIP = 0.999


def mean_kappa(kappas: npt.ArrayLike, *, weights: npt.ArrayLike | None = None) -> float:
    """Average kappas through Fisher's r-to-z transform, as in the ASAP competitions.

    Parameters
    ----------
    kappas : array-like of shape (m,)
        Kappa values, e.g. one QWK per essay set.
    weights : array-like of shape (m,), optional
        Non-negative weights of the kappas (normalised, so only their ratios matter); equal
        by default. These are averaging weights, as in :func:`numpy.average` and the Kaggle
        Metrics package's ``mean_quadratic_weighted_kappa(kappas, weights)``, not the
        disagreement weights that ``weights`` means in :func:`wkappa.weighted_kappa`.

    Returns
    -------
    float
        ``tanh(sum(w * atanh(clip(kappa, -0.999, 0.999))) / sum(w))``.

    Notes
    -----
    The Fisher transform ``z = atanh(kappa) = log((1 + kappa) / (1 - kappa)) / 2`` is roughly
    variance-stabilising; it is infinite at ±1, so kappas are clipped to [-0.999, 0.999]
    first, exactly as ``mean_quadratic_weighted_kappa`` in the Kaggle Metrics package
    (benhamner/Metrics), which scored the Automated Student Assessment Prize.

    Examples
    --------
    >>> import wkappa as wk
    >>> round(wk.mean_kappa([0.8, 0.6, 1.0]), 6)
    0.953046
    >>> round(wk.mean_kappa([0.8, 0.6], weights=[3, 1]), 6)
    0.760435
    """
    values = _vector(kappas, "kappas")
    if values.size == 0:
        raise WkappaError("`kappas` is empty; there is nothing to average.")
    if not np.isfinite(values).all():
        raise WkappaError(
            "`kappas` must be finite; it contains NaN or inf. Hint: drop undefined kappas "
            "(nan) before averaging."
        )
    if weights is None:
        share = np.full(values.size, 1.0 / values.size)
    else:
        w = _vector(weights, "weights")
        if w.shape != values.shape:
            raise WkappaError(
                f"`weights` has {w.size} entries but `kappas` has {values.size}; "
                "give one weight per kappa."
            )
        if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise WkappaError("`weights` must be finite, non-negative and not all zero.")
        share = w / w.sum()
    z = np.arctanh(np.clip(values, -_CLIP, _CLIP))
    return math.tanh(float(share @ z))


def _vector(values: npt.ArrayLike, name: str) -> np.ndarray:
    refuse_iterator(values, name)
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise WkappaError(f"`{name}` must be a 1-D sequence of numbers.") from None
    check_one_dimensional(name, array.shape)
    return array
