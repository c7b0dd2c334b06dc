"""Which numba kernels are ready, and compiling the others off the critical path.

numba compiles a kernel the first time it is called with a new kind of argument (and keeps
it in its on-disk cache, ``cache=True``). In a fresh environment -- a new CI job, container
or notebook -- that costs seconds, far more than counting a million pairs with numpy. So the
dispatcher asks :func:`ready` before a numba route: a kind of call the process has not run
yet is declined (the strict numpy route answers it, with the same value) while a background
thread runs the same call once, which compiles or loads its kernels; from then on that kind
of call takes the numba route.

``mode`` 'wait' compiles in the caller's thread instead (the first call waits, as plain
numba does); the tests and benchmarks use it so that every call takes the route they check.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["ready", "set_mode"]

_settings: dict[str, str] = {"mode": os.environ.get("WKAPPA_COMPILE", "background")}
# From this many pairs on, numpy's route costs about what compiling the kernels does.
WAIT_MIN = 1 << 24
_ready: set[Hashable] = set()
_pending: set[Hashable] = set()
_lock = threading.Lock()  # guards _ready and _pending
# Held while a background thread runs a kernel: a fork waits for it, so a child never
# inherits a compile (numba's compiler lock) in progress.
_compiling = threading.Lock()


def set_mode(mode: str) -> None:
    """'background' (the default) or 'wait' (compile in the calling thread)."""
    if mode not in ("background", "wait"):
        raise ValueError(f"mode must be 'background' or 'wait'; got {mode!r}")
    _settings["mode"] = mode


def ready(key: Hashable, run: Callable[[], Any], n: int) -> bool:
    """Whether calls of kind ``key`` (on ``n`` pairs) may take their numba route now.

    If not, ``run`` (the same route on the same inputs, its result discarded) is started once
    in a background thread, and the kind is ready when it returns. From :data:`WAIT_MIN`
    pairs on, the numpy route would take longer than compiling: the call waits for it.
    """
    if key in _ready:
        return True
    if _settings["mode"] == "wait" or n >= WAIT_MIN:
        _ready.add(key)
        return True
    with _lock:
        if key in _ready or key in _pending:
            return key in _ready
        _pending.add(key)
    # Not a daemon: the interpreter waits for it at exit (LLVM aborts the process if it is
    # still compiling when the interpreter shuts down under it).
    threading.Thread(target=_warm, args=(key, run), name="wkappa-compile", daemon=False).start()
    return False


def _warm(key: Hashable, run: Callable[[], Any]) -> None:
    try:
        with _compiling:
            run()
    except BaseException:  # the caller's own call meets the same error, in its thread
        pass
    finally:
        with _lock:
            _pending.discard(key)
            _ready.add(key)


def _after_fork_in_child() -> None:
    global _lock, _compiling
    _lock, _compiling = threading.Lock(), threading.Lock()
    _pending.clear()  # their threads are not in the child


if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=lambda: _compiling.acquire(),
        after_in_parent=lambda: _compiling.release(),
        after_in_child=_after_fork_in_child,
    )
