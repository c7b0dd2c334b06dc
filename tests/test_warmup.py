"""No compile wait on the critical path: in a fresh process with an empty numba cache, the
first calls are answered by the numpy route (the same values) while the kernels compile in a
child process and a background thread loads them, which the later calls then use; a fork
waits for a load in progress; and none of it touches the caller's warnings."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration  # fresh interpreters

SCRIPT = textwrap.dedent(
    """
    import os, sys, threading, time
    import numpy as np
    import wkappa as wk
    from wkappa._core import dispatch, warmup
    from fractions import Fraction

    rng = np.random.default_rng(0)
    a = rng.integers(0, 5, 200_000)
    b = np.clip(a + rng.integers(-1, 2, 200_000), 0, 4)

    def exact(x, y, weights):
        # 1 - n sum(D*O) / (r' D c) from the table, in Fractions
        k = 5
        t = np.bincount(x * k + y, minlength=k * k).reshape(k, k).tolist()
        d = [[(i - j) ** 2 if weights == "quadratic" else abs(i - j) for j in range(k)]
             for i in range(k)]
        n = sum(map(sum, t))
        r = [sum(row) for row in t]
        c = [sum(col) for col in zip(*t)]
        obs = sum(d[i][j] * t[i][j] for i in range(k) for j in range(k))
        exp = sum(d[i][j] * r[i] * c[j] for i in range(k) for j in range(k))
        return float(1 - Fraction(n * obs, exp))

    with dispatch.routes_taken() as answered:
        start = time.perf_counter()
        first = wk.qwk(a, b)
        elapsed = time.perf_counter() - start
        assert first == exact(a, b, "quadratic"), first
        assert answered == ["strict"], answered  # numpy answered while the kernels compile
        linear = wk.weighted_kappa(a, b, weights="linear")
        assert linear == exact(a, b, "linear"), linear
        assert answered[-1] == "strict"
        if sys.argv[1] == "fork":
            pid = os.fork()  # waits for a compile in progress; the child can compile its own
            if pid == 0:
                # serial sizes: numba's OpenMP pool cannot be used again in a forked child
                x, y = a[:5000], b[:5000]
                ok = wk.weighted_kappa(x, y, weights="linear") == exact(x, y, "linear")
                os._exit(0 if ok else 1)
            assert os.waitpid(pid, 0)[1] == 0
        for thread in threading.enumerate():
            if thread.name == "wkappa-compile":
                thread.join(timeout=240)
        answered.clear()
        assert wk.qwk(a, b) == first and answered == [], answered  # the shortest route
        assert dispatch.plain_kappa(a, b, "quadratic") == first
        assert wk.weighted_kappa(a, b, weights="linear") == linear and answered[-1] == "fused"
        print(f"{elapsed:.3f}")
    """
)


@pytest.mark.parametrize("fork", ["no fork", "fork"])
def test_first_calls_do_not_wait_for_the_compiler(tmp_path, fork):
    if fork == "fork" and not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    env = {k: v for k, v in os.environ.items() if k != "WKAPPA_COMPILE"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)  # empty: nothing compiled yet
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, fork], env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_big_calls_wait_for_the_compiler() -> None:
    """From WAIT_MIN pairs on, numpy's route would cost more than compiling."""
    from wkappa._core import warmup

    calls: list[int] = []
    with warmup.compile_mode("background"):
        assert warmup.ready(("test", "big"), calls.append, (1,), warmup.WAIT_MIN)
        assert calls == []  # nothing ran in the background: the caller compiles
    with pytest.raises(ValueError, match="mode"):
        warmup.set_mode("later")


WARNINGS_SCRIPT = textwrap.dedent(
    """
    import sys, threading, warnings
    from collections import Counter

    # Every use of the warnings machinery, by thread (numba's type inference and scipy's
    # import enter catch_warnings; none of it may run outside the caller's thread).
    used = Counter()
    original_catch = warnings.catch_warnings
    class Counting(original_catch):
        def __enter__(self):
            used[threading.current_thread().name] += 1
            return super().__enter__()
    warnings.catch_warnings = Counting
    for name in ("filterwarnings", "simplefilter", "resetwarnings"):
        def spy(*args, _f=getattr(warnings, name), **kwargs):
            used[threading.current_thread().name] += 1
            return _f(*args, **kwargs)
        setattr(warnings, name, spy)

    import numpy as np
    if sys.argv[1] == "scipy imported":
        import scipy.linalg  # the kernels then load in the background thread
    import wkappa as wk
    from wkappa._core import dispatch
    from wkappa.exceptions import UndefinedKappaWarning

    with dispatch.routes_taken() as answered:
        warnings.filterwarnings("error", message="wkappa-sentinel")
        filters = list(warnings.filters)
        showwarning = warnings.showwarning

        rng = np.random.default_rng(1)
        big = rng.integers(0, 5, 300_000)
        inputs = [
            (big[:5000], big[5000:10000], "quadratic"),  # plain, serial
            (big, big[::-1].copy(), "quadratic"),  # plain, parallel sized
            (big[:5000].astype(float), big[5000:10000].astype(float), "quadratic"),  # fused float
            (big[:5000], big[5000:10000], "linear"),  # plain table
            (big, big[::-1].copy(), "linear"),  # fused table, parallel sized
        ]
        expected = [wk.weighted_kappa(x, y, weights=w) for x, y, w in inputs]
        assert set(answered) == {"strict"}, answered  # the kernels are compiling elsewhere
        constant = np.full(5000, 3)

        def check_round():
            # A warning issued here is recorded here, by the caller's own catch_warnings ...
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                value = wk.qwk(constant, constant)
                warnings.warn("mine", UserWarning)
            assert value != value, value  # undefined: nan
            kinds = [w.category for w in seen]
            assert kinds == [UndefinedKappaWarning, UserWarning], kinds
            # ... and the filters and hook are the caller's when it leaves.
            assert warnings.filters == filters and warnings.showwarning is showwarning
            for (x, y, w), value in zip(inputs, expected):
                assert wk.weighted_kappa(x, y, weights=w) == value

        rounds = 0
        while any(t.name == "wkappa-compile" for t in threading.enumerate()):
            check_round()
            rounds += 1
        for thread in threading.enumerate():
            if thread.name == "wkappa-compile":
                thread.join(timeout=300)
        answered.clear()
        check_round()
        assert "strict" not in answered[1:], answered  # every kind now takes a numba route
        try:
            warnings.warn("wkappa-sentinel")
            raise AssertionError("the caller's filter is gone")
        except UserWarning:
            pass
        others = {name: count for name, count in used.items() if name != "MainThread"}
        assert not others, others
        assert rounds > 0  # the caller did work while the kernels compiled
        from wkappa._core import warmup
        # With scipy imported, a background thread loads the kernels; without, the caller's
        # thread loads the first ones (numba's registries would import scipy in the thread).
        if sys.argv[1] == "scipy imported":
            assert warmup._loaded
    """
)


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("scipy_state", ["scipy imported", "scipy not imported"])
def test_background_compile_leaves_the_callers_warnings_alone(tmp_path, scipy_state):
    """While kernels compile for a fresh process, the caller records warnings and sets
    filters in its own thread: every warning reaches the caller's recorder, its filters stay
    as set, and no other thread of the process uses the warnings machinery at all."""
    pytest.importorskip("scipy")
    env = {k: v for k, v in os.environ.items() if k != "WKAPPA_COMPILE"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)  # empty: nothing compiled yet
    proc = subprocess.run(
        [sys.executable, "-c", WARNINGS_SCRIPT, scipy_state], env=env, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_without_a_python_to_start_the_caller_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """An embedded interpreter (sys.executable is not a Python) starts no child process and
    runs nothing in the background thread: the kind becomes ready, and the caller's own
    thread compiles at its next call, as plain numba does."""
    import threading

    from wkappa._core import warmup

    monkeypatch.setattr(warmup.sys, "executable", "/usr/bin/uwsgi")
    ran: list[int] = []
    key = ("test", "no python")
    with warmup.compile_mode("background"):
        assert warmup.ready(key, ran.append, (1,), 10) is False
        for thread in threading.enumerate():
            if thread.name == "wkappa-compile":
                thread.join(timeout=60)
        assert ran == []
        assert warmup.ready(key, ran.append, (1,), 10) is True
