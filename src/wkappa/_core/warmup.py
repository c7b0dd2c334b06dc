"""Which numba kernels are ready, and compiling the others off the critical path.

numba compiles a kernel the first time it is called with a new kind of argument (and keeps
it in its on-disk cache, ``cache=True``). In a fresh environment -- a new CI job, container
or notebook -- that costs seconds, far more than counting a million pairs with numpy. So the
dispatcher asks :func:`ready` before a numba route: a kind of call the process has not run
yet is declined (the strict numpy route answers it, with the same value) while the kernels
are made ready off the critical path; from then on that kind of call takes the numba route.

Compiling never happens in a thread of this process. numba's type inference enters
``warnings.catch_warnings()`` hundreds of times per kernel, and before Python 3.14 that
context manager swaps the process-wide ``warnings.filters`` and ``showwarning``: a compile
thread would record (and lose) a warning the caller's thread issues meanwhile, or restore
the filters under the caller's own ``catch_warnings`` and leave them wrong. So:

1. a child Python process replays the call on a prefix of the inputs and compiles its
   kernels into numba's on-disk cache;
2. a background thread then loads them from that cache (no type inference: nothing of the
   warnings machinery is touched), with a guard that refuses any compile in that thread
   (a cache miss leaves the load to the caller's own thread, as plain numba would do).
   The first load in a process installs numba's registries, which imports
   ``scipy.linalg`` (scipy enters ``catch_warnings`` at import); while scipy is installed
   but not imported yet, the load is left to the caller's next call instead.

Every compile and cache load of a kernel -- in the child, the loading thread or the caller's
thread -- takes the machine-wide lock of :mod:`wkappa._core.compile_lock`, so processes that
start together on a fresh installation do not write numba's cache at the same moment.

``mode`` 'wait' compiles in the caller's thread instead (the first call waits, as plain
numba does); the tests and benchmarks use it so that every call takes the route they check.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from .compile_lock import one_compile_at_a_time

__all__ = ["compile_mode", "ready", "set_mode"]

_settings: dict[str, str] = {"mode": os.environ.get("WKAPPA_COMPILE", "background")}
# From this many pairs on, numpy's route costs about what compiling the kernels does.
WAIT_MIN = 1 << 24
# A child process that has not compiled within this many seconds is stopped.
_CHILD_TIMEOUT = 900.0
_ready: set[Hashable] = set()
_pending: set[Hashable] = set()
_loaded: set[Hashable] = set()  # kinds a background thread loaded (else the caller's thread)
_lock = threading.Lock()  # guards _ready and _pending
# Held while a background thread loads kernels into this process: a fork waits for it, so a
# child never inherits a load (numba's compiler lock) in progress.
_compiling = threading.Lock()
# The thread that loads kernels (and must not compile them), while it does.
_loader = threading.local()
_guard: list[Any] = []  # the numba event listener, once installed

# From this many pairs on the kernels may run in parallel (wkappa._core.fused uses it).
PARALLEL_MIN = 1 << 17
# Below this many pairs the numba routes decline (wkappa._core.fused and the one-call kernels
# use it): the strict numpy path is about as fast, and a one-off call on a few ratings should
# not pay for importing numba and loading its kernels.
FAST_MIN = 2048
# What the child process runs: the parent's sys.path, then the call to replay with each
# setting of the parallel switch (serial and parallel kernels are separate functions).
_CHILD = (
    "import pickle, sys\n"
    "stream = sys.stdin.buffer\n"
    "sys.path[:0] = pickle.load(stream)\n"
    "from wkappa._core import fused, warmup\n"
    "warmup.set_mode('wait')\n"
    "run, args, modes = pickle.load(stream)\n"
    "for mode in modes:\n"
    "    fused.set_parallel(mode)\n"
    "    run(*args)\n"
)


def set_mode(mode: str) -> None:
    """'background' (the default) or 'wait' (compile in the calling thread)."""
    if mode not in ("background", "wait"):
        raise ValueError(f"mode must be 'background' or 'wait'; got {mode!r}")
    _settings["mode"] = mode


@contextmanager
def compile_mode(mode: str) -> Iterator[None]:
    """:func:`set_mode` inside the block; the mode before it afterwards."""
    saved = _settings["mode"]
    set_mode(mode)
    try:
        yield
    finally:
        _settings["mode"] = saved


def ready(key: Hashable, run: Callable[..., Any], args: tuple[Any, ...], n: int) -> bool:
    """Whether calls of kind ``key`` (on ``n`` pairs) may take their numba route now.

    ``run(*args)`` is the numba route on this call's inputs (a module-level function, so
    that a child process can replay it on a prefix of the inputs). If the kind is not ready,
    its kernels are compiled in a child process and loaded by a background thread
    (see the module docstring), and the kind is ready when that ends. From :data:`WAIT_MIN`
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
    # still loading when the interpreter shuts down under it).
    threading.Thread(
        target=_warm, args=(key, run, args, n), name="wkappa-compile", daemon=False
    ).start()
    return False


def _prefix(obj: Any, m: int) -> Any:
    """The first ``m`` entries of a column (the whole object if it cannot be sliced)."""
    if obj is None or isinstance(obj, (str, bytes)):
        return obj
    try:
        return obj[:m]
    except Exception:
        return obj


def _replay_arguments(args: tuple[Any, ...], n: int) -> tuple[tuple[Any, ...], bool]:
    """The call's arguments cut to the pairs a replay needs, and whether it is parallel
    sized (then the replay runs the parallel and the serial kernels)."""
    m = min(n, PARALLEL_MIN)
    cut = []
    for arg in args:
        if hasattr(arg, "_replace") and hasattr(arg, "sample_weight"):  # a Request
            arg = arg._replace(sample_weight=_prefix(arg.sample_weight, m))
        elif not isinstance(arg, (int, float, bool, str)):
            arg = _prefix(arg, m)
        cut.append(arg)
    return tuple(cut), n >= PARALLEL_MIN


def _compile_in_child(run: Callable[..., Any], args: tuple[Any, ...], both: bool) -> bool:
    """Compile the kernels of ``run(*args)`` in a child Python process; True if it ran."""
    import pickle
    import subprocess

    # An embedded interpreter (uWSGI, a frozen app) has no Python to start: the caller's
    # thread compiles at its next call instead.
    if not os.path.basename(sys.executable or "").lower().startswith("python"):
        return False
    try:
        modes = (True, False) if both else (None,)
        payload = pickle.dumps(list(sys.path)) + pickle.dumps((run, args, modes))
    except Exception:  # an input that does not pickle: the caller's thread compiles
        return False
    env = dict(os.environ, WKAPPA_COMPILE="wait")
    try:
        # The child's compiles take the machine-wide compile lock themselves
        # (wkappa._core.compile_lock); holding it here would make the child wait for it.
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD],
            input=payload,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=_CHILD_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0


def _load_here_is_safe() -> bool:
    """Whether loading cached kernels in a thread of this process leaves the warnings
    machinery alone: numba's registries are in place, or installing them imports no scipy
    (numba imports ``scipy.linalg`` for BLAS then, and scipy enters ``catch_warnings``)."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg.cython_blas" in sys.modules:
        return True
    import importlib.util

    return importlib.util.find_spec("scipy") is None


class CompileRefused(RuntimeError):
    """Raised by the guard when the loading thread would have to compile a kernel."""


def _install_guard() -> None:
    """A numba event listener that stops a compile (before type inference starts) in the
    loading thread; compiles in every other thread go ahead untouched."""
    if _guard:
        return
    from numba.core import event

    class Guard(event.Listener):  # type: ignore[misc]
        def on_start(self, event: Any) -> None:
            if getattr(_loader, "active", False):
                raise CompileRefused("a kernel is not in numba's cache")

        def on_end(self, event: Any) -> None:
            pass

    listener = Guard()
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call]
    _guard.append(listener)


def _warm(key: Hashable, run: Callable[..., Any], args: tuple[Any, ...], n: int) -> None:
    try:
        cut, both = _replay_arguments(args, n)
        if _compile_in_child(run, cut, both) and _load_here_is_safe():
            # The compile lock first: a fork waits for _compiling, and should wait for this
            # load only, not for another process's compile that holds the lock.
            with one_compile_at_a_time(), _compiling:
                _install_guard()
                _loader.active = True
                try:
                    run(*cut)
                finally:
                    _loader.active = False
            _loaded.add(key)
    except Exception:  # a refused compile, or an error the caller's own call meets
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
