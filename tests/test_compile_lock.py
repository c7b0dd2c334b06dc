"""Every compile of a wkappa kernel takes one machine-wide lock (numba issue #10128: numba's
on-disk cache is not safe for two processes writing new overloads of one kernel at once):
compiles in the caller's thread and in the warm-up's child alike; re-entrant in a thread,
threads taking turns, released in a forked child; a cache directory that cannot hold the lock
file falls back to the per-user one, and no place at all to no lock; a warm call takes no
lock; and several processes compiling at once on a fresh cache all get the right values."""

from __future__ import annotations

import ast
import importlib
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import wkappa as wk
from compile_probe import other_process, probed_int_sums
from wkappa._core import compile_lock, warmup

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")

TESTS = str(Path(__file__).resolve().parent)
SRC = Path(__file__).resolve().parents[1] / "src" / "wkappa"
KERNEL_MODULES = [
    "wkappa._core.kernels.numba_sums",
    "wkappa._core.kernels.numba_table",
    "wkappa._core.kernels.numba_raters",
    "wkappa._core.kernels.numba_icc",
    "wkappa._frames.grouped_kernels",
    "wkappa._stats.threshold_dp",
]


def _env(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "WKAPPA_COMPILE"}
    env["NUMBA_CACHE_DIR"] = str(cache)  # empty: every kernel compiles
    env["PYTHONPATH"] = os.pathsep.join([str(SRC.parent), TESTS])
    env.update(extra)
    return env


@pytest.fixture
def own_lock_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Lock files of this test only: a cache directory and a temporary directory of its own
    (the per-user lock file is shared with every other process of the user)."""
    import numba.core.config

    cache = tmp_path / "cache"
    cache.mkdir()
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", str(cache))
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    return cache / compile_lock.LOCK_NAME


def test_every_kernel_of_wkappa_compiles_under_the_lock() -> None:
    from numba.core.dispatcher import Dispatcher

    kernels = {}
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, Dispatcher):
                kernels[f"{name}.{attribute}"] = value
    assert len(kernels) > 50
    assert [name for name, kernel in kernels.items() if not compile_lock.is_locked(kernel)] == []

    # No module makes a numba dispatcher any other way.
    direct = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "compile_lock.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("numba"):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                names = [node.attr] if node.value.id == "numba" else []
            if {"jit", "njit", "generated_jit", "vectorize", "guvectorize"} & set(names):
                direct.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert direct == []


def test_the_lock_file_is_in_the_cache_directory_else_per_user(
    own_lock_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numba.core.config

    per_user = str(tmp_path / "tmp" / f"wkappa-numba-compile-{os.getuid()}.lock")
    assert compile_lock.lock_paths() == [str(own_lock_files), per_user]
    with compile_lock.one_compile_at_a_time():
        assert other_process(str(own_lock_files)) == "held"
        assert other_process(per_user) == "free"
    assert other_process(str(own_lock_files)) == "free"

    # A cache directory that cannot hold the file (missing, read-only): the per-user file.
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", str(tmp_path / "missing" / "cache"))
    with compile_lock.one_compile_at_a_time():
        assert other_process(per_user) == "held"
    assert other_process(per_user) == "free"
    assert not (tmp_path / "missing").exists()

    # Without NUMBA_CACHE_DIR: the per-user file.
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", "")
    assert compile_lock.lock_paths() == [per_user]

    # Nowhere to put a lock file: the compile goes ahead without one, quietly.
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "missing" / "tmp"))
    with compile_lock.one_compile_at_a_time():
        pass
    assert not (tmp_path / "missing").exists()


def test_the_lock_is_reentrant_and_threads_take_turns(own_lock_files: Path) -> None:
    path = str(own_lock_files)
    with compile_lock.one_compile_at_a_time():
        with compile_lock.one_compile_at_a_time():  # a kernel compiling its callees
            pass
        assert other_process(path) == "held"  # until the outermost block ends
    assert other_process(path) == "free"

    events: list[str] = []
    first_in = threading.Event()

    def first() -> None:
        with compile_lock.one_compile_at_a_time():
            events.append("first in")
            first_in.set()
            time.sleep(0.3)
            events.append("first out")

    def second() -> None:
        first_in.wait()
        with compile_lock.one_compile_at_a_time():
            events.append("second in")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert events == ["first in", "first out", "second in"]


FORK = """
import os, sys
from compile_probe import other_process
from wkappa._core import compile_lock
path = os.path.join(os.environ["NUMBA_CACHE_DIR"], compile_lock.LOCK_NAME)
read, write = os.pipe()
with compile_lock.one_compile_at_a_time():
    pid = os.fork()
    if pid == 0:  # lives on after the parent's compile, and can compile itself
        os.read(read, 1)
        with compile_lock.one_compile_at_a_time():
            pass
        os._exit(0)
print(other_process(path))  # the child's copy of the lock file does not hold the lock
os.write(write, b"x")
print(os.waitpid(pid, 0)[1])
"""


@pytest.mark.integration
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_does_not_keep_the_lock(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", FORK],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["free", "0"]


def test_a_warm_call_takes_no_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 5, 5000)
    b = np.clip(a + rng.integers(-1, 2, 5000), 0, 4)
    calls = [
        lambda: wk.qwk(a, b),
        lambda: wk.weighted_kappa(a, b, weights="linear"),
        lambda: wk.qwk(a.astype(float), b.astype(float)),
        lambda: wk.agreement(np.stack([a, b, b], axis=1).astype(float)),
    ]
    for call in calls:
        call()  # compiles or loads (tests run in 'wait' mode)
    taken: list[bool] = []
    real = compile_lock._take_file_lock
    monkeypatch.setattr(compile_lock, "_take_file_lock", lambda: taken.append(True) or real())
    for call in calls:
        call()
        call()
    assert taken == []


CALLER = """
import sys, threading
import numpy as np
import compile_probe
import wkappa as wk
from wkappa._core import warmup
lock, out, how = sys.argv[1:]
if how == "wait":
    warmup.set_mode("wait")  # WKAPPA_COMPILE=wait
else:
    warmup.WAIT_MIN = 4096  # a call this large compiles in the caller's thread
compile_probe.probe_compiles(lock, out)
rng = np.random.default_rng(1)
a = rng.integers(0, 5, 5000)
b = np.clip(a + rng.integers(-1, 2, 5000), 0, 4)
print(repr(wk.qwk(a, b)))
print(threading.active_count())  # no compile thread: the caller's thread compiled
print(compile_probe.other_process(lock))
"""


def _exact_kappa(a: np.ndarray, b: np.ndarray, weights: str) -> Fraction:
    k = 5
    table = np.bincount(a * k + b, minlength=k * k).reshape(k, k).tolist()
    power = 2 if weights == "quadratic" else 1
    d = [[abs(i - j) ** power for j in range(k)] for i in range(k)]
    rows = [sum(row) for row in table]
    cols = [sum(col) for col in zip(*table, strict=True)]
    n = sum(rows)
    observed = sum(d[i][j] * table[i][j] for i in range(k) for j in range(k))
    expected = sum(d[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k))
    return 1 - Fraction(n * observed, expected)


@pytest.mark.integration
@pytest.mark.parametrize("how", ["wait", "big call"])
def test_a_compile_in_the_callers_thread_holds_the_lock(tmp_path: Path, how: str) -> None:
    """While the caller's thread compiles (WKAPPA_COMPILE=wait, or a call large enough to
    wait for the compiler), another process cannot take the lock; afterwards it can."""
    cache = tmp_path / "cache"
    lock, out = cache / compile_lock.LOCK_NAME, tmp_path / "probes.txt"
    proc = subprocess.run(
        [sys.executable, "-c", CALLER, str(lock), str(out), how],
        env=_env(cache),
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    value, threads, after = proc.stdout.split()
    rng = np.random.default_rng(1)
    a = rng.integers(0, 5, 5000)
    b = np.clip(a + rng.integers(-1, 2, 5000), 0, 4)
    assert float(value) == float(_exact_kappa(a, b, "quadratic"))
    assert threads == "1"
    assert out.read_text().split() == ["held", "held"]
    assert after == "free"


@pytest.mark.integration
def test_a_compile_child_takes_the_lock_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warm-up's child compiles under the lock, and its parent does not hold the lock
    for it (the child would wait for its parent)."""
    cache = tmp_path / "cache"
    for name, value in _env(cache).items():
        monkeypatch.setenv(name, value)
    lock, out = cache / compile_lock.LOCK_NAME, tmp_path / "probes.txt"
    a = np.arange(5000) % 5
    assert warmup._compile_in_child(probed_int_sums, (str(lock), str(out), a, a), False)
    assert out.read_text().split() == ["held", "held"]
    assert other_process(str(lock)) == "free"


MANY = """
import os, sys, time
import numpy as np
import wkappa as wk
from wkappa._core import warmup
warmup.set_mode("wait")
go, seed = sys.argv[1], int(sys.argv[2])
kinds = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.float64]
rng = np.random.default_rng(1)
a = rng.integers(0, 5, 5000)
b = np.clip(a + rng.integers(-1, 2, 5000), 0, 4)
while not os.path.exists(go):  # every process has imported wkappa and numba: start together
    time.sleep(0.005)
for i in np.random.default_rng(seed).permutation(len(kinds)):
    x, y = a.astype(kinds[i]), b.astype(kinds[i])
    print(np.dtype(kinds[i]).name, repr(wk.qwk(x, y)),
          repr(wk.weighted_kappa(x, y, weights="linear")))
"""


@pytest.mark.integration
@pytest.mark.timeout(900)
def test_processes_compiling_at_once_on_a_fresh_cache_get_the_right_values(
    tmp_path: Path,
) -> None:
    """Three processes start compiling new overloads of the same kernels at the same moment
    into one empty cache, each in its own order; then a fourth loads them all from it. Every
    value is the exact one (a cache that paired one overload's index entry with another's
    code would fail to unbox the arrays, or compute a wrong value)."""
    cache, go = tmp_path / "cache", tmp_path / "go"
    env = _env(cache)

    def start(seed: int) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", MANY, str(go), str(seed)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    together = [start(seed) for seed in range(3)]
    time.sleep(3.0)  # their imports
    go.touch()
    outputs = [proc.communicate(timeout=800) for proc in together]
    outputs.append(start(3).communicate(timeout=300))  # everything from the cache now
    rng = np.random.default_rng(1)
    a = rng.integers(0, 5, 5000)
    b = np.clip(a + rng.integers(-1, 2, 5000), 0, 4)
    quadratic = float(_exact_kappa(a, b, "quadratic"))
    linear = float(_exact_kappa(a, b, "linear"))
    for stdout, stderr in outputs:
        lines = stdout.split("\n")[:-1]
        assert len(lines) == 6, stderr
        for line in lines:
            kind, q, lin = line.split()
            assert float(q) == quadratic, kind
            assert math.isclose(float(lin), linear, rel_tol=1e-14), kind
    assert (cache / compile_lock.LOCK_NAME).exists()
