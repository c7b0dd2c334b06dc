"""ICC at 1e6 x 5 on ratings near zero, offset by 1e9 and times 1e300: the plain compiled
pass against the pass repeated on centred and scaled ratings (only where the plain sums cannot
be trusted). Median and minimum of 11 calls after a warm-up; run it once per code version."""

import statistics
import time

import numpy as np

import wkappa as wk

rng = np.random.default_rng(0)
x = rng.normal(size=(1_000_000, 1)) + rng.normal(size=(1_000_000, 5)) + np.arange(5) * 0.1
for name, data in [("plain", x), ("offset 1e9", x + 1e9), ("x 1e300", x * 1e300)]:
    wk.icc(data)
    times = []
    for _ in range(11):
        start = time.perf_counter()
        result = wk.icc(data)
        times.append(time.perf_counter() - start)
    print(
        f"icc {name:11s} median {statistics.median(times) * 1e3:7.2f} ms  "
        f"min {min(times) * 1e3:7.2f} ms  ICC {result.statistic!r}"
    )
