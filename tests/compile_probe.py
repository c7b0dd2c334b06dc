"""Probes of the compile lock for tests/test_compile_lock.py, importable by the processes those
tests start (the tests directory is on their ``sys.path``)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

_TRY_LOCK = """
import fcntl, sys
with open(sys.argv[1], "a") as handle:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("held")
    else:
        print("free")
"""


def other_process(lock_path: str) -> str:
    """'held' if another process cannot take the lock file's lock right now, else 'free'."""
    proc = subprocess.run(
        [sys.executable, "-c", _TRY_LOCK, lock_path], capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


def probe_compiles(lock_path: str, out_path: str, limit: int = 2) -> None:
    """From now on, when numba starts compiling (type inference of a kernel that is not in
    its cache), ask another process whether it can take the lock, and append the answer as
    a line to ``out_path`` (for the first ``limit`` compiles)."""
    from numba.core import event

    answers: list[str] = []

    class Probe(event.Listener):  # type: ignore[misc]
        def on_start(self, event: Any) -> None:
            if len(answers) < limit:
                answers.append(other_process(lock_path))
                with open(out_path, "a", encoding="utf-8") as out:
                    out.write(answers[-1] + "\n")

        def on_end(self, event: Any) -> None:
            pass

    event.register("numba:compile", Probe())  # type: ignore[no-untyped-call]


def probed_int_sums(lock_path: str, out_path: str, a: Any, b: Any) -> Any:
    """:func:`wkappa._core.fused.int_sums` with its compiles probed (a module-level function:
    a compile child of the warm-up replays it)."""
    from wkappa._core import fused

    probe_compiles(lock_path, out_path)
    return fused.int_sums(a, b)
