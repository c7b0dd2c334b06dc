"""JAX bfloat16 arrays (a mixed-precision model's outputs) in wkappa's NumPy-side functions.

numpy has no bfloat16: JAX hands such arrays over with ml_dtypes' extended dtype, which
``wk.qwk``, ``KappaAccumulator`` and ``optimize_thresholds`` refused ("must hold integer,
boolean, float or string ratings; got dtype bfloat16") or reached through a JAX warning
(turned into an error here). They are read as float32, which holds every bfloat16 exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk

jax = pytest.importorskip("jax")
jnp = jax.numpy

RNG = np.random.default_rng(4)
Y_TRUE = RNG.integers(0, 5, 300)
SCORE = Y_TRUE + RNG.normal(scale=0.7, size=300)
# The scores a bfloat16 model gives: bfloat16 values, held exactly by float32.
SCORE_BF16 = np.asarray(jnp.asarray(SCORE, dtype=jnp.bfloat16).astype(jnp.float32))
GRADES = np.clip(np.rint(SCORE_BF16), 0, 4).astype(int)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_jax_half_precision_grades_are_read_as_their_values(dtype: str) -> None:
    truth = jnp.asarray(Y_TRUE, dtype=dtype)
    grades = jnp.asarray(GRADES, dtype=dtype)
    expected = wk.qwk(Y_TRUE, GRADES)
    assert wk.qwk(truth, grades) == expected
    accumulator = wk.KappaAccumulator(min_rating=0, max_rating=4)
    assert accumulator.update(truth, grades).value == expected


def test_jax_bfloat16_scores_get_the_thresholds_of_their_float32_values() -> None:
    scores = jnp.asarray(SCORE, dtype=jnp.bfloat16)
    expected = wk.optimize_thresholds(Y_TRUE, SCORE_BF16)
    result = wk.optimize_thresholds(jnp.asarray(Y_TRUE), scores)
    np.testing.assert_array_equal(result.thresholds, expected.thresholds)
    assert result.statistic == expected.statistic
    np.testing.assert_array_equal(
        wk.apply_thresholds(scores, expected.thresholds),
        wk.apply_thresholds(SCORE_BF16, expected.thresholds),
    )
