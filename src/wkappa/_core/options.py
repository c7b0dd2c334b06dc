"""Checks of the keyword options shared by every public function.

Each check names the parameter and the bad value; data checks live in :mod:`wkappa._core.encode`.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from ..exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError

__all__ = [
    "UNDEFINED_REASON",
    "AgreementWeightsLike",
    "Alternative",
    "Coefficient",
    "GwetWeights",
    "KrippendorffLevel",
    "LossForm",
    "NanPolicy",
    "RatingMatrixLike",
    "ZeroDivision",
    "check_alternative",
    "check_choice",
    "check_count",
    "check_loss_form",
    "check_nan_policy",
    "check_table_nan_policy",
    "check_zero_division",
    "choice_error",
    "choice_list",
    "float_array",
    "format_value",
    "missing_id_error",
    "missing_rating_error",
    "one_based_hint",
    "real_number",
    "undefined_kappa",
    "warn_at_caller",
]

NanPolicy = Literal["raise", "omit", "propagate"]
LossForm = Literal["ratio", "log"]
ZeroDivision = Literal["warn", "raise"] | float
Alternative = Literal["two-sided", "greater", "less"]

# The option types of the several-raters signatures (agreement, krippendorff_alpha,
# rater_vs_panel and their frames versions).
Coefficient = Literal["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]
KrippendorffLevel = Literal["nominal", "ordinal", "interval", "ratio"]
# The named weights of several raters: Cohen's and Gwet's (irrCAC's), or a (K, K) matrix.
GwetWeights = Literal["ordinal", "radical", "ratio", "circular", "bipolar"]
AgreementWeightsLike = Literal["unweighted", "quadratic", "linear"] | GwetWeights | npt.ArrayLike
# A rating matrix of shape (n_items, n_raters): a numpy array (masked arrays too), nested
# sequences, or a table numpy can read (pandas, polars, pyarrow); None / nan are missing.
RatingMatrixLike = npt.ArrayLike


def format_value(value: Any, limit: int = 60) -> str:
    """A short ``repr`` for error messages (numpy scalars shown as the Python values)."""
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def real_number(value: Any, name: str, expected: str) -> float:
    """``value`` as a float if it is a real number (not a bool or a string); otherwise an error
    saying "`name` must be ``expected``" and what came. Range checks are the caller's."""
    if isinstance(value, (bool, str)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise WkappaError(f"`{name}` must be {expected}; got {format_value(value)}.")
    return float(value)


def float_array(value: Any, expected: str, *, copy: bool = False) -> np.ndarray:
    """``value`` as a float64 array (a copy with ``copy=True``); a value numpy cannot read
    as numbers is an error saying what was ``expected`` (its first words name the
    parameter, as in "`table` must be a K x K array ...") and what came."""
    try:
        if copy:
            return np.array(value, dtype=np.float64)
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise WkappaError(f"{expected}; got {format_value(value)}.") from None


def choice_list(choices: Sequence[str]) -> str:
    """``'a', 'b' or 'c'``: the strings an option takes, as its messages list them."""
    if len(choices) == 1:
        return repr(choices[0])
    return ", ".join(map(repr, choices[:-1])) + f" or {choices[-1]!r}"


def choice_error(value: Any, name: str, listed: str, hint: str = "") -> WkappaError:
    """The error for a bad value of the string option ``name``, which takes ``listed``.

    The one rule of every string option: a value that is not a ``str`` (a number, None, a
    numpy array even of one string) is a :class:`WkappaTypeError`, an unknown string a
    :class:`WkappaError`; both name the option and list what it takes. ``hint`` (a sentence
    starting "Hint:") is added for a string only.
    """
    if isinstance(value, str):
        tail = f" {hint}" if hint else ""
        return WkappaError(f"`{name}` must be {listed}; got {format_value(value)}.{tail}")
    kind = f"{type(value).__module__}.{type(value).__qualname__}".removeprefix("builtins.")
    found = f"{format_value(value)} (type {kind})"
    if isinstance(value, np.ndarray) and value.size == 1 and isinstance(value.item(), str):
        found += f". Hint: pass the string itself, {name}={value.item()!r}"
    return WkappaTypeError(f"`{name}` must be {listed}; got {found}.")


def check_choice(
    value: Any, name: str, choices: Sequence[str], *, listed: str = "", hint: str = ""
) -> Any:
    """``value`` if it is one of the strings ``choices``; else :func:`choice_error`.

    ``listed`` replaces the list of ``choices`` in the message, for an option that takes
    more than these strings (a ``BootstrapMethod``, a matrix), checked by the caller first.
    The membership test runs on strings only, so an array never reaches ``in``.
    """
    if isinstance(value, str) and value in choices:
        return value
    raise choice_error(value, name, listed or choice_list(choices), hint)


def check_count(value: Any, name: str, minimum: int, note: str = "") -> int:
    """``value`` as an int if it is a whole number (a Python or numpy integer, not a bool) of
    at least ``minimum``; else an error naming ``name`` (``note``: what the number counts)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        what = f" ({note})" if note else ""
        raise WkappaError(
            f"`{name}` must be an integer >= {minimum}{what}; got {format_value(value)}."
        )
    return int(value)


def one_based_hint(index: Any, k: int) -> str:
    """The hint of a class index refused by a training metric or loss: `` Hint: ...`` when it
    is K (labels numbered 1..K), else nothing."""
    if index != k:
        return ""
    return f" Hint: class indices start at 0; for labels 1..{k}, pass labels - 1."


def check_loss_form(form: Any, guard: Any, guard_name: str) -> tuple[LossForm, float]:
    """A kappa loss's ``form`` ('ratio' or 'log') and its guard against 0/0 (``eps``; Keras:
    ``epsilon``), a finite non-negative number; the same rule for Keras, PyTorch and JAX."""
    checked = check_choice(form, "form", get_args(LossForm))
    value = real_number(guard, guard_name, "a non-negative float")
    if not 0.0 <= value < math.inf:
        raise WkappaError(
            f"`{guard_name}` must be a non-negative float; got {format_value(guard)}."
        )
    return checked, value  # type: ignore[return-value]


def check_nan_policy(nan_policy: Any) -> NanPolicy:
    """Validate ``nan_policy``: one of 'raise', 'omit', 'propagate'."""
    return check_choice(nan_policy, "nan_policy", get_args(NanPolicy))  # type: ignore[no-any-return]


def check_alternative(alternative: Any) -> Alternative:
    """Validate ``alternative``: one of 'two-sided', 'greater', 'less'."""
    return check_choice(alternative, "alternative", get_args(Alternative))  # type: ignore[no-any-return]


def check_table_nan_policy(nan_policy: Any, what: str) -> NanPolicy:
    """Validate ``nan_policy`` for a result that cannot be nan (a table, a test result...):
    'raise' or 'omit'. ``what`` names the result in the message."""
    policy = check_nan_policy(nan_policy)
    if policy == "propagate":
        raise WkappaError(
            f"`nan_policy`='propagate' has no meaning for {what}. Hint: use 'raise' or 'omit'."
        )
    return policy


def missing_rating_error(
    which: str, position: int | str, omit: str | None = "", *, propagate: bool = True
) -> WkappaError:
    """The error for a missing rating under ``nan_policy='raise'`` (every route raises it).

    ``position``: the index of a rating, or where it is in words ("item 3, rater 1");
    ``omit``: what ``nan_policy='omit'`` would do instead (two raters: drop the pair), None
    for a caller without ``nan_policy`` (complete rows only); ``propagate``: whether the
    caller takes ``nan_policy='propagate'`` (a test result does not).
    """
    where = f"position {position}" if isinstance(position, int) else position
    if omit is None:
        return WkappaError(
            f"`{which}` has a missing rating (NaN/None/NA) at {where}; only complete rows "
            "are taken here. Hint: drop the rows with a missing rating."
        )
    omit = omit or "drops incomplete pairs"
    nan = "; nan_policy='propagate' returns nan" if propagate else ""
    return WkappaError(
        f"`{which}` has a missing rating (NaN/None/NA) at {where}. "
        f"Hint: nan_policy='omit' {omit}{nan}."
    )


def missing_id_error(
    parameter: str, column: Any = None, *, position: int | None = None, unit: str = "rating pair"
) -> WkappaError:
    """The error for a missing id (None or NaN) of a cluster, a stratum, a ``by`` group, an
    item or a rater, which every reader of ids raises.

    ``parameter`` is named as the caller knows it (```cluster```, ``--cluster``); ``column``
    is the frame's or file's column, ``position`` the first missing id's index, ``unit``
    what carries the ids.
    """
    where = "" if column is None else f" column {column!r}"
    at = "" if position is None else f" at position {position}"
    if parameter.startswith("--"):  # a file's column, named by its command-line option
        return WkappaError(
            f"{parameter}{where} has a missing id (an empty cell){at}. Hint: every {unit} "
            f"needs its id; fill it in, or delete the rows without one."
        )
    return WkappaError(
        f"{parameter}{where} has a missing id (None/NaN){at}. Hint: every {unit} needs its "
        f"id; drop those {unit}s or give them an id of their own."
    )


def check_zero_division(zero_division: Any) -> ZeroDivision:
    """Validate ``zero_division``: 'warn', 'raise' or a float in [-1, 1]."""
    if isinstance(zero_division, str):
        if zero_division in ("warn", "raise"):
            return zero_division  # type: ignore[return-value]
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        value = float(zero_division)
        if math.isnan(value) or -1.0 <= value <= 1.0:
            return value
    kind = isinstance(zero_division, (str, numbers.Real)) and not isinstance(zero_division, bool)
    listed = "'warn', 'raise' or a float in [-1, 1] (or nan)"
    if kind:
        raise WkappaError(f"`zero_division` must be {listed}; got {format_value(zero_division)}.")
    raise choice_error(zero_division, "zero_division", listed)


# The package's directory: warnings point at the first frame outside it.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _user_stacklevel() -> int:
    """The ``stacklevel``, counted from the caller of this function, of the first frame
    outside wkappa, so that a warning points at the user's line."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _PACKAGE_DIR
    ):
        frame = frame.f_back
        level += 1
    return level


def warn_at_caller(message: str, category: type[Warning]) -> None:
    """Warn with ``category``, pointing at the user's line (the first frame outside
    wkappa), however deep inside the package the warning is raised."""
    warnings.warn(message, category, stacklevel=_user_stacklevel())


def undefined_kappa(zero_division: ZeroDivision, reason: str) -> float:
    """What an undefined kappa returns under ``zero_division``.

    'warn' returns nan with an :class:`UndefinedKappaWarning`, 'raise' raises a
    :class:`WkappaError` that names ``zero_division``, a float is returned as is.
    """
    if zero_division == "raise":
        raise WkappaError(
            f"Kappa is undefined: {reason}. Hint: zero_division='warn' returns nan instead "
            "(or zero_division=<float> returns that value)."
        )
    if zero_division == "warn":
        warnings.warn(
            f"Kappa is undefined: {reason}. Returning nan (set zero_division to choose).",
            UndefinedKappaWarning,
            stacklevel=_user_stacklevel(),
        )
        return float("nan")
    return float(zero_division)


UNDEFINED_REASON = (
    "the expected weighted disagreement sum(W*E) is 0 (both raters use one and the same "
    "category, or no rating is left)"
)
