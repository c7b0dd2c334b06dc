"""The Fisher r-to-z mean of several kappas (the ASAP essay-scoring "mean QWK")."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .._core import check_one_dimensional, format_value, refuse_iterator
from ..exceptions import WkappaError, WkappaTypeError

__all__ = ["mean_kappa"]

_CLIP = 0.999


def mean_kappa(kappas: npt.ArrayLike, *, weights: npt.ArrayLike | None = None) -> float:
    """Average kappas through Fisher's r-to-z transform, as in the ASAP competitions.

    Parameters
    ----------
    kappas : array-like of shape (m,)
        Kappa values in [-1, 1], e.g. one QWK per essay set.
    weights : array-like of shape (m,), optional
        Non-negative weights of the kappas (normalised, so only their ratios matter); equal
        by default. These are averaging weights, as in :func:`numpy.average` and the Kaggle
        Metrics package's ``mean_quadratic_weighted_kappa(kappas, weights)``, not the
        disagreement weights that ``weights`` means in :func:`wkappa.weighted_kappa`.

    Returns
    -------
    float
        ``tanh(sum(w * atanh(clip(kappa, -0.999, 0.999))) / sum(w))``.

    Raises
    ------
    WkappaTypeError
        If a kappa or a weight is not a number (a string such as '0.5', a bool).
    WkappaError
        If a kappa is NaN, infinite, above 1 or below -1.

    Notes
    -----
    The Fisher transform ``z = atanh(kappa) = log((1 + kappa) / (1 - kappa)) / 2`` is roughly
    variance-stabilising; it is infinite at ±1, so kappas are clipped to [-0.999, 0.999]
    first, exactly as ``mean_quadratic_weighted_kappa`` in the Kaggle Metrics package
    (benhamner/Metrics), which scored the Automated Student Assessment Prize. The clip only
    touches the ends of the range: a perfect kappa of 1 (and any kappa above 0.999) counts
    as 0.999, -1 (and any below -0.999) as -0.999.

    The result is kept between the smallest and the largest (clipped) kappa of positive
    weight, which the rounding of ``tanh(atanh(kappa))`` could otherwise leave by an ulp;
    so equal kappas average to that kappa exactly (``mean_kappa([0.5, 0.5])`` is 0.5).

    A kappa outside [-1, 1] is an error, not clipped: Fisher's z is defined on (-1, 1), the
    range of a correlation (Fisher 1915), and such a value is usually a mistake upstream (a
    percentage, a z value). No kappa exceeds 1 (``sum(W*O) >= 0``); Cohen's kappa is at
    least -1, its lower limit depending on the margins (Cohen 1960), and quadratic-weighted
    kappa is Lin's concordance correlation of the category indices (Lin 1989), in [-1, 1].
    A user weight matrix can give a kappa below -1, which has no Fisher z.

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
    outside = np.flatnonzero(np.abs(values) > 1)
    if outside.size:
        first = int(outside[0])
        raise WkappaError(
            f"`kappas` must lie in [-1, 1]; kappas[{first}] = {format_value(values[first])}. "
            "No kappa exceeds 1 and Fisher's z = atanh(kappa) is undefined below -1. Hint: "
            "pass kappas as fractions (0.85, not 85%), not their z values."
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
    clipped = np.clip(values, -_CLIP, _CLIP)
    mean = math.tanh(float(share @ np.arctanh(clipped)))
    # A mean lies between the smallest and the largest value averaged; the round trip
    # tanh(atanh(k)) can leave that range by an ulp, so the result is kept inside it (equal
    # kappas return their common value exactly).
    used = clipped[share > 0]
    return min(max(mean, float(used.min())), float(used.max()))


def _vector(values: npt.ArrayLike, name: str) -> np.ndarray:
    """``values`` as a float64 vector; a string ('0.5'), bytes or a bool among them is
    refused (numpy would read '0.5' as 0.5 and True as 1), None stays a missing value."""
    refuse_iterator(values, name)
    try:
        kind = np.asarray(values).dtype.kind
    except (TypeError, ValueError):  # ragged
        kind = "O"
    if kind in "OUSb" or not isinstance(values, np.ndarray):  # [True, 0.5] reads as floats
        try:
            flat = np.asarray(values, dtype=object).reshape(-1).tolist()
        except (TypeError, ValueError):
            flat = []
        bad = [i for i, v in enumerate(flat) if isinstance(v, (str, bytes, bool, np.bool_))]
        if bad:
            raise WkappaTypeError(
                f"`{name}` must be a 1-D sequence of numbers; got {format_value(flat[bad[0]])} "
                f"at {name}[{bad[0]}]."
            )
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise WkappaTypeError(f"`{name}` must be a 1-D sequence of numbers.") from None
    check_one_dimensional(name, array.shape)
    return array
