"""wkappa.frames.paired_kappa_test on every frame library against wk.paired_kappa_test on the
same values: the same result for the same seed, bit for bit (the distinct (truth, A, B) rows
counted in the engine are the items, their counts frequency weights)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import wkappa as wk
from frames_data import GRADES, make_case
from wkappa import WkappaError

pytest.importorskip("narwhals")
frames = pytest.importorskip("wkappa.frames")

OPTIONS = {"n_resamples": 299, "rng": 4}


def _columns(kind: str, seed: int = 0) -> tuple[dict[str, list[Any]], Any]:
    """A truth ``t``, predictions ``a`` and ``b`` (with nulls), integer counts ``n``, dyadic
    weights ``w`` and a cluster ``c`` (of 12)."""
    case = make_case(kind, n=300, seed=seed)
    other = make_case(kind, n=300, seed=seed + 1)
    rng = np.random.default_rng(seed)
    columns = {
        "t": case.true,
        "a": case.pred,
        "b": other.pred,
        "n": rng.integers(0, 4, 300).tolist(),
        "w": case.weight,
        "c": [f"c{i}" for i in rng.integers(0, 12, 300)],
    }
    return columns, case


def _frame(frame_library: Any, columns: dict[str, list[Any]], kind: str) -> Any:
    categories = dict.fromkeys("tab", GRADES) if kind == "enum" else None
    return frame_library.frame(columns, categories)


def _labels(frame_library: Any, case: Any) -> dict[str, Any]:
    return frame_library.labels(case)


def _arrays(case: Any) -> dict[str, Any]:
    return {} if case.labels is None else {"labels": case.labels}


@pytest.mark.parametrize("kind", ["int", "str", "enum"])
@pytest.mark.parametrize("weights", ["quadratic", "unweighted"])
def test_matches_numpy_bit_for_bit(frame_library, kind, weights):
    columns, case = _columns(kind, seed=len(frame_library.name))
    df = _frame(frame_library, columns, kind)
    got = frames.paired_kappa_test(
        df, y_true="t", y_pred_a="a", y_pred_b="b", weights=weights, nan_policy="omit",
        **_labels(frame_library, case), **OPTIONS,
    )  # fmt: skip
    expected = wk.paired_kappa_test(
        columns["t"], columns["a"], columns["b"], weights=weights, nan_policy="omit",
        **_arrays(case), **OPTIONS,
    )  # fmt: skip
    assert got.to_dict() == expected.to_dict()
    np.testing.assert_array_equal(got._differences, expected._differences)


def test_sample_weight_and_cluster_match_numpy(frame_library):
    columns, _ = _columns("int", seed=3)
    df = _frame(frame_library, columns, "int")
    arrays = (columns["t"], columns["a"], columns["b"])
    common = {"y_true": "t", "y_pred_a": "a", "y_pred_b": "b", "nan_policy": "omit", **OPTIONS}
    counted = frames.paired_kappa_test(df, sample_weight="n", **common)
    expected = wk.paired_kappa_test(*arrays, sample_weight=columns["n"], nan_policy="omit",
                                    **OPTIONS)  # fmt: skip
    assert counted.to_dict() == expected.to_dict()
    assert counted.n == sum(n for n, t, a, b in zip(columns["n"], *arrays, strict=True)
                            if None not in (t, a, b))  # fmt: skip
    # dyadic weights (exact sums in any order) with the cluster bootstrap
    clustered = frames.paired_kappa_test(df, sample_weight="w", cluster="c", **common)
    expected = wk.paired_kappa_test(*arrays, sample_weight=columns["w"], cluster=columns["c"],
                                    nan_policy="omit", **OPTIONS)  # fmt: skip
    assert clustered.to_dict() == expected.to_dict()
    assert clustered.n_clusters == len(set(columns["c"])) == 12


def test_non_whole_weighted_counts_are_refused_naming_a_column(frame_library):
    columns, _ = _columns("int", seed=5)
    df = _frame(frame_library, columns, "int")
    with pytest.raises(WkappaError, match="`sample_weight` must give whole-number counts") as info:
        frames.paired_kappa_test(
            df, y_true="t", y_pred_a="a", y_pred_b="b", sample_weight="w", nan_policy="omit"
        )
    message = str(info.value)
    assert "a column of integer counts" in message and "naming a column of ids" in message
    assert "cluster bootstrap" in message


def test_missing_ratings_are_refused_with_their_rows(frame_library):
    columns, _ = _columns("int", seed=6)
    df = _frame(frame_library, columns, "int")
    missing = sum(None in row for row in zip(columns["t"], columns["a"], columns["b"], strict=True))
    with pytest.raises(WkappaError, match=f"have {missing} row\\(s\\) with a missing rating"):
        frames.paired_kappa_test(df, y_true="t", y_pred_a="a", y_pred_b="b")
    with pytest.raises(WkappaError, match="'propagate'"):
        frames.paired_kappa_test(df, y_true="t", y_pred_a="a", y_pred_b="b",
                                 nan_policy="propagate")  # fmt: skip


def test_names_and_ids_are_checked():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"t": [0, 1, 2, 1], "a": [0, 1, 1, 1], "b": [0, 2, 2, 1],
                       "g": [1, 1, None, 2]})  # fmt: skip
    with pytest.raises(WkappaError, match="`y_pred_b` names the column 'x'"):
        frames.paired_kappa_test(df, y_true="t", y_pred_a="a", y_pred_b="x")
    with pytest.raises(WkappaError, match="`cluster` names the `y_pred_a` column 'a'"):
        frames.paired_kappa_test(df, y_true="t", y_pred_a="a", y_pred_b="b", cluster="a")
    with pytest.raises(WkappaError, match="`cluster` column 'g' has a missing id"):
        frames.paired_kappa_test(df, y_true="t", y_pred_a="a", y_pred_b="b", cluster="g")
    with pytest.raises(WkappaError, match="keywords only"):
        frames.paired_kappa_test(df, "t", "a", "b")
    with pytest.raises(WkappaError, match="no rows"):
        frames.paired_kappa_test(df.head(0), y_true="t", y_pred_a="a", y_pred_b="b")


def test_two_spellings_are_named_by_their_column():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"t": ["mild", "severe"] * 3, "a": ["Mild", "severe"] * 3,
                       "b": ["mild", "severe"] * 3})  # fmt: skip
    with pytest.raises(WkappaError, match=r"'Mild' first in column 'a'\)"):
        frames.paired_kappa_test(df.lazy(), y_true="t", y_pred_a="a", y_pred_b="b",
                                 weights="unweighted")  # fmt: skip


def test_the_engine_counts_distinct_rows_only(monkeypatch):
    """polars lazy: one group-by; no row of the frame is collected."""
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 4, 5000)
    df = pl.DataFrame({"t": truth, "a": np.clip(truth + rng.integers(-1, 2, 5000), 0, 3),
                       "b": rng.integers(0, 4, 5000)})  # fmt: skip
    collected = []
    original = pl.LazyFrame.collect

    def spy(self, *args, **kwargs):
        out = original(self, *args, **kwargs)
        collected.append(out.height)
        return out

    monkeypatch.setattr(pl.LazyFrame, "collect", spy)
    result = frames.paired_kappa_test(df.lazy(), y_true="t", y_pred_a="a", y_pred_b="b",
                                      **OPTIONS)  # fmt: skip
    assert collected and max(collected) <= 4**3
    expected = wk.paired_kappa_test(df["t"], df["a"], df["b"], **OPTIONS)
    assert result.to_dict() == expected.to_dict()
