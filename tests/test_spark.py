"""wkappa.frames on a real local PySpark session against the numpy result on the same data."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wkappa as wk
from frames_data import make_case
from wkappa import WkappaError

pyspark_sql = pytest.importorskip("pyspark.sql")

# A Spark session takes seconds to start; the module shares one (and CI runs these too).
pytestmark = pytest.mark.slow
frames = pytest.importorskip("wkappa.frames")


@pytest.fixture(scope="module")
def spark():
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("wkappa-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.memory", "1g")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        # Small test data: a quick-starting JIT and no whole-stage code generation make the
        # first queries seconds faster; adaptive execution has nothing to adapt here.
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def to_spark(spark, case):
    """A Spark DataFrame made from Arrow data (no Python worker processes needed)."""
    import pyarrow as pa

    rating = pa.int64() if case.kind == "int" else pa.string()
    table = pa.table(
        {
            "a": pa.array(case.true, rating),
            "b": pa.array(case.pred, rating),
            "g": pa.array(case.group, pa.string()),
            "w": pa.array(case.weight, pa.float64()),
        }
    )
    return spark.createDataFrame(table)


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
