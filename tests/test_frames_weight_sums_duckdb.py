"""``frames`` on DuckDB relations with ``sample_weight``: weights that are not whole numbers
give the same digits with any number of DuckDB threads, and the array functions' numbers, also
for weights outside the decimals' range."""

from __future__ import annotations

import pytest

import wkappa as wk
from frames_data import weighted_ratings
from wkappa import frames

duckdb = pytest.importorskip("duckdb")
pl = pytest.importorskip("polars")


def _relation(data, threads: int = 2):
    connection = duckdb.connect(config={"threads": threads})
    return connection.from_arrow(data.to_arrow())


def _kappa(data) -> float:
    return wk.weighted_kappa(data["a"], data["b"], sample_weight=data["w"].to_numpy())


def _results(relation) -> tuple[str, list[tuple]]:
    kappa = frames.weighted_kappa(relation, y_true="a", y_pred="b", sample_weight="w")
    by_group = frames.kappa_by_group(relation, y_true="a", y_pred="b", by="g", sample_weight="w")
    return repr(kappa), by_group.fetchall()


@pytest.mark.integration
def test_duckdb_weighted_kappa_is_the_same_with_any_number_of_threads():
    data = weighted_ratings(300_000, 2, groups=5)
    outputs = {repr(_results(_relation(data, threads))) for threads in (1, 2, 4)}
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("weight", "group"),
    [
        (1.0, None),
        (1e-30, None),  # one tiny weight among ordinary ones: below the decimals
        (1e-30, 1),  # a whole group of tiny weights: summed in floating point
        (1e30, None),  # one weight too large for the decimals
        (1e12, 1),  # large weights, summed as decimals
    ],
)
def test_duckdb_weights_give_the_array_functions_numbers(weight, group):
    data = weighted_ratings(3_000, 4)
    if group is None:
        scaled = pl.when(pl.int_range(pl.len()) == 10).then(weight).otherwise("w")
    else:
        scaled = pl.when(pl.col("g") == group).then(pl.col("w") * weight).otherwise("w")
    data = data.with_columns(w=scaled)
    relation = _relation(data)
    kappa = frames.weighted_kappa(relation, y_true="a", y_pred="b", sample_weight="w")
    assert kappa == pytest.approx(_kappa(data), rel=1e-12)
    by_group = frames.kappa_by_group(relation, y_true="a", y_pred="b", by="g", sample_weight="w")
    columns = by_group.columns
    for values in by_group.fetchall():
        row = dict(zip(columns, values, strict=True))
        part = data.filter(pl.col("g") == row["g"])
        assert row["kappa"] == pytest.approx(_kappa(part), rel=1e-12)
        assert row["n"] == pytest.approx(part["w"].sum(), rel=1e-12)


def test_a_duckdb_decimal_sum_that_does_not_fit_counts_again(monkeypatch):
    from wkappa._frames import count

    calls = []
    counted = count._counted

    def spy(*args, fixed_point, **kwargs):
        calls.append(fixed_point)
        return counted(*args, fixed_point=fixed_point, **kwargs)

    monkeypatch.setattr(count, "_counted", spy)
    # Each weight fits the decimals (below 1e13); a pair's sum of about 600 does not (1e14).
    data = weighted_ratings(3_000, 5).with_columns(w=(pl.col("w") + 1.0) * 5e12)
    kappa = frames.weighted_kappa(_relation(data), y_true="a", y_pred="b", sample_weight="w")
    assert kappa == pytest.approx(_kappa(data), rel=1e-12)
    assert calls == [True, False]
