"""One rule for ``rng=``: every resampling or simulating entry point takes the seeds of
``numpy.random.default_rng`` and refuses the same bad ones with the same message."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import WkappaError

_A = np.array([0, 1, 2, 1, 0, 2, 1, 1, 0, 2] * 3)
_B = np.array([0, 1, 2, 2, 0, 2, 1, 0, 0, 2] * 3)
_C = np.array([0, 1, 1, 1, 0, 2, 2, 1, 0, 2] * 3)


def _paired(rng: object) -> object:
    return wk.paired_kappa_test(_A, _B, _C, n_resamples=99, rng=rng)  # type: ignore[arg-type]


def _planned(rng: object) -> object:
    return wk.kappa_sample_size(
        kappa1=0.5,
        marginals=[0.5, 0.5],
        method="simulation",
        n_simulations=100,
        rng=rng,  # type: ignore[arg-type]
    )


def _bootstrap(rng: object) -> object:
    return wk.BootstrapMethod(99, rng=rng)  # type: ignore[arg-type]


ENTRY_POINTS = [_paired, _planned, _bootstrap]

GOOD_SEEDS: list[Callable[[], object]] = [
    lambda: None,
    lambda: 0,
    lambda: np.int64(7),
    lambda: [1, 2],
    lambda: np.random.SeedSequence(3),
    lambda: np.random.default_rng(4),
    lambda: np.random.PCG64(5),
    lambda: np.random.RandomState(6),
]

BAD_SEEDS = [-1, True, 1.5, "a", object()]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("seed", GOOD_SEEDS)
def test_every_rng_takes_the_seeds_of_default_rng(
    entry: Callable[[object], object], seed: Callable[[], object]
) -> None:
    entry(seed())


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_every_rng_refuses_the_same_seeds_alike(
    entry: Callable[[object], object], seed: object
) -> None:
    with pytest.raises(WkappaError, match=r"^`rng` must be None, a non-negative integer seed"):
        entry(seed)


def test_a_legacy_random_state_plans_reproducibly() -> None:
    first = _planned(np.random.RandomState(0))
    again = _planned(np.random.RandomState(0))
    assert isinstance(first, wk.KappaPlan) and isinstance(again, wk.KappaPlan)
    assert (first.n, first.power) == (again.n, again.power)
