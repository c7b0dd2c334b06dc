"""Run a call with every fast route switched off, to compare it with the strict path.

The fused kernels (:mod:`wkappa._core.fused` and the shortest QWK route of
:mod:`wkappa._core.kappa`) take inputs from ``FAST_MIN`` pairs on; raising that bound sends every
input to the strict encoding path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wkappa._core import fused as _fastpath


def strict(call: Callable[[], Any]) -> Any:
    """``call()`` with every input on the strict encoding path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_fastpath, "FAST_MIN", 1 << 62)
        return call()


def outcome(call: Callable[[], Any]) -> tuple[type[BaseException] | None, str]:
    """``(exception type, message)`` of a failing call, ``(None, repr(value))`` otherwise."""
    try:
        value = call()
    except Exception as exc:
        return type(exc), str(exc)
    return None, repr(value)


def fast_and_strict(call: Callable[[], Any]) -> tuple[tuple[Any, str], tuple[Any, str]]:
    """The :func:`outcome` of ``call`` as it runs, and on the strict path."""
    return outcome(call), strict(lambda: outcome(call))
