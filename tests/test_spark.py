"""wkappa.frames on a real local PySpark session against the numpy result on the same data."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wkappa as wk
from frames_data import frame_library, make_case
from wkappa import WkappaError

pyspark_sql = pytest.importorskip("pyspark.sql")

# A Spark session takes seconds to start; the run shares one (conftest's `spark` fixture; CI
# runs these too). Under pytest-xdist (make test) the module stays on the one worker that
# holds the session (the Spark frames of the other frame tests are in the same group).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]
frames = pytest.importorskip("wkappa.frames")


def to_spark(spark, case):
    """The case as a Spark DataFrame (the session is conftest's `spark` fixture)."""
    return frame_library("spark", spark).case(case)


def test_spark_integer_ratings_with_nulls_and_weights(spark):
    case = make_case("int", seed=13)
    sdf = to_spark(spark, case)
    expected = wk.qwk(case.true, case.pred, nan_policy="omit")
    assert frames.weighted_kappa(sdf, y_true="a", y_pred="b", nan_policy="omit") == expected
    table = frames.confusion_table(
        sdf, y_true="a", y_pred="b", sample_weight="w", nan_policy="omit"
    )
    expected_table = wk.confusion_table(
        case.true, case.pred, sample_weight=case.weight, nan_policy="omit"
    )
    assert np.array_equal(table, expected_table)
    assert math.isnan(frames.weighted_kappa(sdf, y_true="a", y_pred="b", nan_policy="propagate"))


def test_spark_string_labels_with_nulls(spark):
    case = make_case("str", seed=14)
    sdf = to_spark(spark, case)
    for weights in ("linear", "unweighted"):
        expected = wk.weighted_kappa(
            case.true, case.pred, weights=weights, labels=case.labels, nan_policy="omit"
        )
        got = frames.weighted_kappa(
            sdf, y_true="a", y_pred="b", weights=weights, labels=case.labels, nan_policy="omit"
        )
        assert got == expected
    with pytest.raises(WkappaError, match="missing rating"):
        frames.weighted_kappa(sdf, y_true="a", y_pred="b", labels=case.labels)


def test_spark_kappa_by_group_and_kappa_test(spark):
    case = make_case("int", seed=17)
    sdf = to_spark(spark, case)
    groups = frames.kappa_by_group(sdf, y_true="a", y_pred="b", by="g", nan_policy="omit")
    assert isinstance(groups, pyspark_sql.DataFrame)
    rows = groups.collect()
    assert [row["g"] for row in rows] == sorted(set(case.group))
    for row in rows:
        idx = [i for i, g in enumerate(case.group) if g == row["g"]]
        expected = wk.kappa_test(
            [case.true[i] for i in idx], [case.pred[i] for i in idx], nan_policy="omit"
        )
        assert row["n"] == expected.n
        assert row["kappa"] == pytest.approx(expected.statistic, rel=1e-12)
        assert row["standard_error"] == pytest.approx(expected.standard_error, rel=1e-9)
    result = frames.kappa_test(sdf, y_true="a", y_pred="b", weights="linear", nan_policy="omit")
    expected = wk.kappa_test(case.true, case.pred, weights="linear", nan_policy="omit")
    assert result.statistic == expected.statistic
    assert np.array_equal(result.table, expected.table)


# --------------------------------------------------------------------------- several raters


def _raters_data(seed: int = 31) -> tuple[np.ndarray, np.ndarray]:
    """300 items x 4 raters, grades 1-5, 10% missing, and a group per item."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, 300)
    wide = np.column_stack(
        [np.where(rng.random(300) < 0.7, truth, rng.integers(1, 6, 300)) for _ in range(4)]
    ).astype(float)
    wide[rng.random(wide.shape) < 0.1] = np.nan
    return wide, rng.integers(0, 3, 300)


def _spark_wide(spark, wide, group, kind="int"):
    columns: dict[str, list] = {}
    for g in range(wide.shape[1]):
        values = [None if np.isnan(v) else int(v) for v in wide[:, g]]
        columns[f"r{g}"] = (
            values if kind != "str" else [None if v is None else f"g{v}" for v in values]
        )
    columns["grp"] = group.astype(np.int64).tolist()
    dtypes = {name: "string" if kind == "str" else "int64" for name in columns}
    return frame_library("spark", spark).frame(columns, dtypes={**dtypes, "grp": "int64"})


def _spark_long(spark, wide, group):
    cells = [(i, g) for i in range(wide.shape[0]) for g in range(wide.shape[1])]
    cells = [(i, g) for i, g in cells if not np.isnan(wide[i, g])]
    columns = {
        "item": [i for i, _ in cells],
        "coder": [f"r{g}" for _, g in cells],
        "grade": [int(wide[i, g]) for i, g in cells],
        "grp": [int(group[i]) for i, _ in cells],
    }
    return frame_library("spark", spark).frame(columns)


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_spark_agreement_wide_and_long(spark, coefficient):
    """frames.agreement on Spark (wide and long) equals wkappa.agreement on the array."""
    wide, group = _raters_data()
    expected = wk.agreement(wide, coefficient=coefficient, weights="quadratic")
    raters = ["r0", "r1", "r2", "r3"]
    for result in (
        frames.agreement(
            _spark_wide(spark, wide, group), raters=raters, coefficient=coefficient,
            weights="quadratic",
        ),
        frames.agreement(
            _spark_long(spark, wide, group), item="item", rater="coder", rating="grade",
            coefficient=coefficient, weights="quadratic",
        ),
    ):  # fmt: skip
        assert result.statistic == pytest.approx(expected.statistic, abs=1e-14)
        assert result.standard_error == pytest.approx(expected.standard_error, abs=1e-14)
        assert (result.n_items, result.n_ratings, result.labels) == (
            expected.n_items,
            expected.n_ratings,
            expected.labels,
        )
        # The long layout's rater columns come back sorted by name: r0..r3, as in `wide`.
        assert np.allclose(result.pairwise(), expected.pairwise(), equal_nan=True)


def test_spark_agreement_by_group_and_string_labels(spark):
    wide, group = _raters_data(seed=32)
    raters = ["r0", "r1", "r2", "r3"]
    sdf = _spark_wide(spark, wide, group)
    grouped = frames.agreement(sdf, raters=raters, by="grp", coefficient="gwet")
    assert sorted(grouped) == [0, 1, 2]
    for value, result in grouped.items():
        part = wide[group == value]
        expected = wk.agreement(part, coefficient="gwet", min_rating=1, max_rating=5)
        assert result.statistic == pytest.approx(expected.statistic, abs=1e-14)
    long = frames.agreement(
        _spark_long(spark, wide, group), item="item", rater="coder", rating="grade", by="grp"
    )
    assert {k: v.statistic for k, v in long.items()} == pytest.approx(
        {k: v.statistic for k, v in frames.agreement(sdf, raters=raters, by="grp").items()},
        abs=1e-14,
    )
    labels = ["g1", "g2", "g3", "g4", "g5"]
    strings = _spark_wide(spark, wide, group, kind="str")
    result = frames.agreement(strings, raters=raters, weights="linear", labels=labels)
    expected = wk.agreement(wide, weights="linear")
    assert result.statistic == pytest.approx(expected.statistic, abs=1e-14)
    assert result.labels == tuple(labels)
    with pytest.raises(WkappaError, match="`raters` names the column 'rX', which is not"):
        frames.agreement(sdf, raters=["r0", "rX"])


def test_accumulators_in_map_partitions_and_reduce(spark, monkeypatch):
    """Spark's Python workers count each partition (some empty) into a state, and reduce()
    merges the states: the whole data's kappa and ICC. The workers run this Python (the
    session of the other tests needs none)."""
    import sys

    monkeypatch.setattr(spark.sparkContext, "pythonExec", sys.executable)

    # Defined here, so that Spark sends them by value (the workers cannot import this module).
    def _kappa_partition(pairs):
        rows = list(pairs)
        acc = wk.KappaAccumulator(min_rating=0, max_rating=4)
        if rows:
            acc.update([a for a, _ in rows], [b for _, b in rows])
        yield acc

    def _icc_partition(rows):
        acc = wk.ICCAccumulator(3)
        batch = list(rows)
        if batch:
            acc.update(batch)
        yield acc

    rng = np.random.default_rng(41)
    a = rng.integers(0, 5, 3_000)
    b = np.clip(a + rng.integers(-1, 2, 3_000), 0, 4)
    pairs = spark.sparkContext.parallelize(list(zip(a.tolist(), b.tolist(), strict=True)), 6)
    total = pairs.mapPartitions(_kappa_partition).reduce(lambda x, y: x + y)
    assert total.value == wk.weighted_kappa(a, b)
    assert np.array_equal(total.table, wk.confusion_table(a, b, min_rating=0, max_rating=4))
    few = spark.sparkContext.parallelize(list(zip(a[:3].tolist(), b[:3].tolist(), strict=True)), 5)
    assert few.mapPartitions(_kappa_partition).reduce(lambda x, y: x + y).n == 3

    ratings = rng.normal(size=(400, 3)) + rng.normal(size=(400, 1))
    rows = spark.sparkContext.parallelize(ratings.tolist(), 4)
    state = rows.mapPartitions(_icc_partition).reduce(lambda x, y: x + y)
    assert state.n == 400
    expected = wk.icc(ratings, form="A,1").statistic
    assert state.result(form="A,1").statistic == pytest.approx(expected, rel=1e-12)
