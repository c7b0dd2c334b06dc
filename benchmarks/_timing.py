"""Interleaved timing shared by the benchmark scripts (benchmarks only).

Each repetition times every contender once, in turn, so a slow spell of the shared machine
hits all of them alike; the medians are reported.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Collection

from wkappa._core import warmup

# The benchmarks time the kernels: each first call compiles them in its own thread (rather
# than answering with numpy while they compile in the background, as a fresh process does;
# bench_cold_start.py measures that).
warmup.set_mode("wait")


def timed(function: Callable[[], object]) -> float:
    """Seconds one call of ``function`` takes."""
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def interleaved(
    functions: dict[str, Callable[[], object]],
    repeats: int,
    *,
    warm_up: bool = False,
    slow: Collection[str] = (),
    slow_repeats: int = 0,
) -> dict[str, float]:
    """Median seconds per contender over ``repeats`` interleaved repetitions.

    ``warm_up`` calls each contender once first (compilation, caches). A contender named in
    ``slow`` is timed in the first ``slow_repeats`` repetitions only.
    """
    if warm_up:
        for function in functions.values():
            function()
    times: dict[str, list[float]] = {name: [] for name in functions}
    for repeat in range(repeats):
        for name, function in functions.items():
            if name in slow and repeat >= slow_repeats:
                continue
            times[name].append(timed(function))
    return {name: statistics.median(values) for name, values in times.items()}


def rotated(
    calls: dict[str, Callable[[], object]], repeats: int, slow: dict[str, int] | None = None
) -> dict[str, float]:
    """Median seconds per call over ``repeats`` interleaved rounds, the order rotated every
    round (a call right after a parallel pass shares the cores with its workers while they
    still spin, so no contender should always come first), after one warm-up call each. A
    call named in ``slow`` runs in its first ``slow[name]`` rounds only."""
    names = list(calls)
    for function in calls.values():
        function()
    times: dict[str, list[float]] = {name: [] for name in names}
    for repeat in range(repeats):
        for i in range(len(names)):
            name = names[(repeat + i) % len(names)]
            if slow is not None and repeat >= slow.get(name, repeats):
                continue
            times[name].append(timed(calls[name]))
    return {name: statistics.median(values) for name, values in times.items()}
