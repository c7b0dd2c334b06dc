"""A test of a ``kappa0`` that the observed margins cannot reach warns, with the range, at
every entry point (kappa_test, kappa_test_from_table, the accumulator, frames.kappa_test,
``wkappa score --kappa0``): it was accepted in silence, and the test then rejected H0 for
the margins (z = 70 for kappa0 = -0.8 where the margins allow no kappa below -0.5).

The range is computed in closed form (unweighted; a Monge matrix such as the quadratic and
linear weights) and checked against the linear program of the study planner."""

from __future__ import annotations

import io
import sys
import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa._core import kappas, weight_matrix
from wkappa._stats.kappa_range import kappa_reach
from wkappa._stats.planning_models import agreement_extremes

pytestmark = pytest.mark.filterwarnings("error")

TABLE = np.array([[10, 3, 1], [2, 8, 4], [0, 3, 9]])  # unweighted range -0.498 to 0.925
TRUTH, PRED = (np.repeat(axis, TABLE.ravel()) for axis in np.indices(TABLE.shape).reshape(2, -1))
MESSAGE = r"`kappa0` = -0\.8 is outside the kappas that tables with the observed margins allow"


def test_the_range_is_that_of_the_linear_program() -> None:
    rng = np.random.default_rng(1)
    custom = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 1.0], [3.0, 5.0, 0.0]])  # not Monge
    for _ in range(200):
        k = int(rng.integers(2, 8))
        table = rng.integers(0, 6, (k, k)).astype(float)
        p = table / max(table.sum(), 1.0)
        rows, cols = p.sum(axis=1), p.sum(axis=0)
        choices = ["quadratic", "linear", "unweighted"] + (["custom"] if k == 3 else [])
        for name in choices:
            matrix = custom if name == "custom" else weight_matrix(name, k)
            if not rows @ matrix @ cols > 0:
                continue
            most, least = agreement_extremes(rows, cols, matrix)
            expected = (kappas(least[None], matrix)[0], kappas(most[None], matrix)[0])
            assert kappa_reach(table, matrix) == pytest.approx(expected, abs=1e-12)


def test_the_range_of_a_table() -> None:
    low, high = kappa_reach(TABLE, weight_matrix("unweighted", 3))
    assert (round(low, 4), round(high, 4)) == (-0.4981, 0.9251)
    assert kappa_reach(np.eye(3) * 5, weight_matrix("quadratic", 3)) == pytest.approx((-1.0, 1))


@pytest.mark.parametrize(
    "call",
    [
        lambda k0: wk.kappa_test(TRUTH, PRED, weights="unweighted", kappa0=k0),
        lambda k0: wk.kappa_test_from_table(TABLE, weights="unweighted", kappa0=k0),
        lambda k0: (
            wk.KappaAccumulator([0, 1, 2], weights="unweighted")
            .update(TRUTH, PRED)
            .result(kappa0=k0)
        ),
        lambda k0: wk.kappa_test(
            TRUTH, PRED, weights="unweighted", kappa0=k0, cluster=np.arange(TRUTH.size) % 12
        ),
    ],
    ids=["kappa_test", "from_table", "accumulator", "clustered"],
)
def test_a_kappa0_the_margins_cannot_reach_warns(call: object) -> None:
    with pytest.warns(UserWarning, match=MESSAGE + r" under these weights \(-0\.4981 to 0\.9251"):
        call(-0.8)  # type: ignore[operator]
    with pytest.warns(UserWarning, match=r"`kappa0` = 0\.95 is outside"):
        call(0.95)  # type: ignore[operator]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for inside in (-0.45, 0.0, 0.6, 0.92):
            call(inside)  # type: ignore[operator]


def test_frames_kappa_test_warns() -> None:
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    df = pd.DataFrame({"t": TRUTH, "p": PRED})
    with pytest.warns(UserWarning, match=MESSAGE):
        frames.kappa_test(df, y_true="t", y_pred="p", weights="unweighted", kappa0=-0.8)


def test_cli_score_kappa0_warns(tmp_path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text("t,p\n" + "".join(f"{t},{p}\n" for t, p in zip(TRUTH, PRED, strict=True)))
    err = io.StringIO()
    stderr, sys.stderr = sys.stderr, err
    try:
        code = main(["score", str(path), "--true", "t", "--pred", "p", "--weights",
                     "unweighted", "--kappa0", "-0.8", "--format", "json"])  # fmt: skip
    finally:
        sys.stderr = stderr
    assert code == 0
    assert "wkappa: warning: --kappa0 = -0.8 is outside the kappas" in err.getvalue()
