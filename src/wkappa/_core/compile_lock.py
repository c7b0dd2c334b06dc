"""One numba compile at a time on a machine: the lock around every compile of wkappa's kernels.

numba compiles a kernel on its first call with a new kind of argument and keeps the machine
code in its on-disk cache (``cache=True``). That cache is not safe for two processes that
write new overloads of one kernel at the same moment (numba issue #10128): both read the
kernel's index, both pick the same data file, and one signature's index entry can end up
beside the other's machine code; a later call then fails with "can't unbox array from
PyObject", or runs the wrong code. A process that loads from the cache while another writes
it can read such a pair too. Processes that start together on a fresh installation -- a
pool, Dask workers, parallel test workers -- would do exactly that.

So every kernel of wkappa is made by :func:`locked_njit`, which puts
:func:`one_compile_at_a_time` around the dispatcher's ``compile``: numba calls it for a kind
of call the process has not loaded yet (from the caller's thread, from a compile child of
:mod:`wkappa._core.warmup`, from the background loader, or while compiling another kernel
that calls this one), and never for a call of a kernel already loaded, so a warm call costs
nothing more. Within a process the lock is re-entrant (a kernel compiling its callees takes
it once) and threads take turns; across processes it is a file lock (``flock``):

* with ``NUMBA_CACHE_DIR`` set, the file ``wkappa-compile.lock`` in that directory, shared by
  every process that shares the cache (any user, any container mounting it);
* otherwise, or when that directory cannot hold the file (read-only, missing), the per-user
  file ``wkappa-numba-compile-<uid>.lock`` in the temporary directory;
* where neither can be opened, or on a platform without ``flock`` (Windows), compiles run
  without the file lock, as numba alone would.

A compile waits at most :data:`LOCK_WAIT` seconds for another process's compile (a process
that dies releases its lock at once; one stopped in a debugger would otherwise stall the
others), then goes ahead without the lock.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

__all__ = [
    "LOCK_NAME",
    "LOCK_WAIT",
    "is_locked",
    "lock_paths",
    "locked_njit",
    "one_compile_at_a_time",
]

LOCK_NAME = "wkappa-compile.lock"
# Seconds a compile waits for another process's compile before it goes ahead without the lock.
LOCK_WAIT = 900.0
# Threads of this process take turns here; the file lock is held while ``depth`` > 0.
_process = threading.RLock()
_held: dict[str, Any] = {"depth": 0, "handle": None}


def lock_paths() -> list[str]:
    """The lock files to try, in order: the cache directory's, then the per-user one."""
    paths = []
    config = sys.modules.get("numba.core.config")
    cache_dir = getattr(config, "CACHE_DIR", "") if config else os.environ.get("NUMBA_CACHE_DIR")
    if cache_dir:
        paths.append(os.path.join(cache_dir, LOCK_NAME))
    import tempfile

    try:
        temporary = tempfile.gettempdir()
    except OSError:  # no usable temporary directory
        return paths
    user = os.getuid() if hasattr(os, "getuid") else 0
    paths.append(os.path.join(temporary, f"wkappa-numba-compile-{user}.lock"))
    return paths


def _take_file_lock() -> IO[str] | None:
    """An open lock file holding the exclusive lock, or None (no lock to be had)."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock
        return None
    for path in lock_paths():
        try:
            handle = open(path, "a")  # held until the compile ends
        except OSError:
            continue
        try:
            deadline = time.monotonic() + LOCK_WAIT
            pause = 0.005
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return handle
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        handle.close()
                        return None
                    time.sleep(pause)
                    pause = min(2 * pause, 0.1)
        except OSError:  # a file system without flock: try the next place
            handle.close()
    return None


@contextmanager
def one_compile_at_a_time() -> Iterator[None]:
    """Hold the machine-wide compile lock inside the block (see the module docstring).

    Re-entrant: a thread that holds it enters again at no cost, and the file lock is released
    when the outermost block ends.
    """
    with _process:
        if _held["depth"] == 0:
            _held["handle"] = _take_file_lock()
        _held["depth"] += 1
        try:
            yield
        finally:
            _held["depth"] -= 1
            if _held["depth"] == 0:
                handle, _held["handle"] = _held["handle"], None
                if handle is not None:
                    handle.close()  # releases the lock


def locked_njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(**options)`` whose compiles (and cache loads) take the compile lock.

    Parameters
    ----------
    **options
        numba's ``njit`` options (``cache=True, nogil=True``, ...).

    Returns
    -------
    callable
        A decorator making a numba dispatcher of a Python function. numba is imported when it
        is applied, so a module of kernels imports numba and ``import wkappa`` does not.
    """
    import numba
    from numba.core import sigutils

    def decorate(function: Callable[..., Any]) -> Any:
        dispatcher = numba.njit(**options)(function)
        unlocked = dispatcher.compile

        def compile(sig: Any) -> Any:
            args, _ = sigutils.normalize_signature(sig)  # type: ignore[no-untyped-call]
            if tuple(args) in dispatcher.overloads:  # loaded already: nothing to write
                return unlocked(sig)
            with one_compile_at_a_time():
                return unlocked(sig)

        compile.compile_lock = True  # type: ignore[attr-defined]
        # numba calls self.compile for every compile of a dispatcher (a first call, and the
        # typing of a kernel that calls this one): the instance attribute is the one it finds.
        dispatcher.compile = compile
        return dispatcher

    return decorate


def is_locked(dispatcher: Any) -> bool:
    """Whether a numba dispatcher was made by :func:`locked_njit`."""
    return getattr(getattr(dispatcher, "compile", None), "compile_lock", False) is True


def _after_fork_in_child() -> None:
    global _process
    _process = threading.RLock()  # its owner, if any, is not in the child
    handle = _held["handle"]
    _held.update(depth=0, handle=None)
    if handle is not None:
        # The child's copy of the parent's lock file: closing it leaves the parent's lock in
        # place, and keeping it would hold the lock for as long as the child lives.
        handle.close()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
