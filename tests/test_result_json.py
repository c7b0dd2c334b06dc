"""Every result's ``to_dict()`` is strict JSON (nan and infinities become null) with the keys,
in order, that each result wrote before the conversion became one rule
(``wkappa._stats.json_values``); the accumulators' states survive JSON exactly."""

from __future__ import annotations

import datetime
import enum
import json
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa._stats import json_value

# The keys each to_dict() wrote before json_fields (taken from the hand-written dicts).
KAPPA = (
    "statistic standard_error standard_error_null test_statistic test_distribution test_df "
    "pvalue alternative kappa0 n labels "
    "weights weight_matrix table interpretation confidence_interval"
).split()
PAIRED = (
    "statistic_a statistic_b difference confidence_interval pvalue alternative n labels weights"
).split()
STRATIFIED = (
    "statistic standard_error confidence_interval pvalue kappa0 test_df pooling alternative "
    "homogeneity_statistic homogeneity_df "
    "homogeneity_pvalue homogeneity homogeneity_n_resamples n labels weights interpretation "
    "strata"
).split()
AGREEMENT = (
    "coefficient name statistic standard_error pvalue alternative kappa0 percent_agreement "
    "chance_agreement n_items n_raters n_ratings population_size labels weights level "
    "weight_matrix confidence_interval"
).split()
PANEL = (
    "candidate_agreement panel_agreement difference confidence_interval pvalue alternative "
    "candidate_vs_members member_pairs n_items coefficient weights"
).split()
GROUP = (
    "statistic standard_error confidence_interval pvalue bias_corrected observed_agreement "
    "chance_agreement maximum_agreement n_items n_raters_a n_raters_b weights alternative"
).split()
ICC = (
    "form name shrout_fleiss description statistic pvalue f_statistic df1 df2 icc0 alternative "
    "ms_items ms_raters ms_error ms_within df_items df_raters df_error df_within n_items "
    "n_raters n_ratings n_items_omitted method confidence_interval"
).split()
CCC = (
    "statistic pearson bias_correction means variances n_items n_raters n_items_omitted "
    "pvalue ccc0 alternative standard_error_z method confidence_interval"
).split()
PLAN = (
    "n power expected_width assurance goal method kappa1 kappa0 alternative alpha target_power "
    "ci_width lower_limit target_assurance confidence_level width_interval limit_interval "
    "weights n_raters coefficient "
    "standard_deviation standard_deviation_null n_simulations monte_carlo_error model_kappa "
    "simulated_power simulated_assurance check_simulations "
    "table weight_matrix"
).split()
THRESHOLDS = "thresholds statistic labels n_iter weights exact".split()
INTERVAL = "low high confidence_level method n_resamples n_undefined".split()
KAPPA_STATE = "format version min_rating max_rating weights dtype table".split()
ICC_STATE = "format version n_raters n shift unit mean rater_effects row_m2 error_m2".split()

rng = np.random.default_rng(7)
TRUTH = rng.integers(0, 4, 60)
PRED_A = np.clip(TRUTH + rng.integers(-1, 2, 60), 0, 3)
PRED_B = np.clip(TRUTH + rng.integers(-2, 3, 60), 0, 3)
RATERS = np.column_stack([TRUTH, PRED_A, PRED_B, np.clip(TRUTH + rng.integers(-1, 2, 60), 0, 3)])
CLUSTERS = np.arange(60) // 3
SCORES = rng.normal(size=(30, 3)) + rng.normal(size=(30, 1)) * 2
CONSTANT = np.ones((6, 3), dtype=np.int64)


def quiet(make: Callable[[], Any]) -> Any:
    """The result of ``make()`` with the undefined-statistic warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


def strict_json(document: dict[str, Any]) -> dict[str, Any]:
    """Check that ``document`` is strict JSON of plain Python types and round-trips."""

    def leaves(value: Any) -> None:
        if isinstance(value, dict):
            assert all(isinstance(key, str) for key in value)
            for item in value.values():
                leaves(item)
        elif isinstance(value, list):
            for item in value:
                leaves(item)
        else:
            assert type(value) in (type(None), bool, int, float, str), repr(value)
            assert not (isinstance(value, float) and not math.isfinite(value))

    leaves(document)
    assert json.loads(json.dumps(document, allow_nan=False)) == document
    return document


def _icc_batch() -> dict[str, wk.ICCResult]:
    batch = np.stack([SCORES, 2 * SCORES, np.ones_like(SCORES)], axis=2)
    return quiet(lambda: wk.icc_all(batch))


def _kappa_accumulator(update: bool = True) -> wk.KappaAccumulator:
    acc = wk.KappaAccumulator(min_rating=0, max_rating=3)
    if update:
        acc.update(TRUTH, PRED_A)
    return acc


def _icc_accumulator(ratings: np.ndarray) -> wk.ICCAccumulator:
    acc = wk.ICCAccumulator()
    acc.update(ratings)
    return acc


# (name, make the result, keys of to_dict(), degenerate?)
CASES: list[tuple[str, Callable[[], Any], list[str], bool]] = [
    ("kappa", lambda: wk.kappa_test(TRUTH, PRED_A), KAPPA, False),
    ("kappa-labels", lambda: wk.kappa_test(["a", "b", "c"], ["a", "c", "c"],
                                          labels=["a", "b", "c"]), KAPPA, False),
    ("kappa-clustered", lambda: wk.kappa_test(TRUTH, PRED_A, cluster=CLUSTERS),
     ["n_clusters", *KAPPA], False),
    ("kappa-weighted", lambda: wk.kappa_test(TRUTH, PRED_A, sample_weight=np.full(60, 2.0)),
     KAPPA, False),
    ("kappa-undefined", lambda: wk.kappa_test([1, 1, 1], [1, 1, 1]), KAPPA, True),
    ("kappa-table-undefined", lambda: wk.kappa_test_from_table([[5, 0], [0, 0]]), KAPPA, True),
    ("paired", lambda: wk.paired_kappa_test(TRUTH, PRED_A, PRED_B, n_resamples=99, rng=0),
     PAIRED, False),
    ("paired-clustered", lambda: wk.paired_kappa_test(
        TRUTH, PRED_A, PRED_B, n_resamples=99, rng=0, cluster=CLUSTERS),
     [*PAIRED, "n_clusters"], False),
    ("paired-undefined", lambda: wk.paired_kappa_test(
        [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], n_resamples=99, rng=0), PAIRED, True),
    ("stratified", lambda: wk.stratified_kappa_test(TRUTH, PRED_A, strata=np.arange(60) % 3),
     STRATIFIED, False),
    ("stratified-undefined", lambda: wk.stratified_kappa_test_from_tables(
        [[[5, 0], [0, 0]], [[3, 0], [0, 0]]]), STRATIFIED, True),
    ("agreement", lambda: wk.agreement(RATERS), AGREEMENT, False),
    ("agreement-gwet", lambda: wk.agreement(
        RATERS, coefficient="gwet", weights="quadratic", population_size=100), AGREEMENT, False),
    ("agreement-krippendorff", lambda: wk.krippendorff_alpha(RATERS, level="interval"),
     AGREEMENT, False),
    ("agreement-clustered", lambda: wk.agreement(RATERS, cluster=CLUSTERS),
     [*AGREEMENT[:13], "n_clusters", *AGREEMENT[13:]], False),
    ("agreement-undefined", lambda: wk.agreement(CONSTANT), AGREEMENT, True),
    ("panel", lambda: wk.rater_vs_panel(RATERS[:, 1:], TRUTH, n_resamples=99, rng=0),
     PANEL, False),
    ("panel-clustered", lambda: wk.rater_vs_panel(
        RATERS[:, 1:], TRUTH, n_resamples=99, rng=0, cluster=CLUSTERS),
     [*PANEL, "n_clusters"], False),
    ("panel-undefined", lambda: wk.rater_vs_panel(
        CONSTANT, np.ones(6, dtype=np.int64), n_resamples=99, rng=0), PANEL, True),
    ("group", lambda: wk.group_agreement(RATERS[:, :2], RATERS[:, 2:]), GROUP, False),
    ("group-undefined", lambda: wk.group_agreement(CONSTANT[:, :2], CONSTANT[:, 1:]),
     GROUP, True),
    ("icc", lambda: wk.icc(SCORES), ICC, False),
    ("icc-batch", lambda: _icc_batch()["A,1"], ICC, True),
    ("icc-undefined", lambda: wk.icc(np.ones((5, 3))), ICC, True),
    ("ccc", lambda: wk.ccc(SCORES[:, 0], SCORES[:, 1]), CCC, False),
    ("ccc-three", lambda: wk.ccc(SCORES), CCC, False),
    ("ccc-undefined", lambda: wk.ccc(np.ones(5), np.ones(5)), CCC, True),
    ("plan", lambda: wk.kappa_sample_size(kappa1=0.6, lower_limit=0.3, marginals=[0.3, 0.7]),
     PLAN, False),
    ("plan-no-assurance", lambda: wk.kappa_power(50, kappa1=0.4, kappa0=0.4,
                                                 marginals=[0.3, 0.7]), PLAN, True),
    ("thresholds", lambda: wk.optimize_thresholds(TRUTH, TRUTH + rng.normal(size=60)),
     THRESHOLDS, False),
    ("thresholds-undefined", lambda: wk.ThresholdResult(
        np.array([0.5, np.inf]), math.nan, (np.int64(1), 2.5, "x"), 3, exact=np.True_),
     THRESHOLDS, True),
    ("accumulator", lambda: _kappa_accumulator().result(), KAPPA, False),
    ("accumulator-empty", lambda: _kappa_accumulator(update=False).result(), KAPPA, True),
    ("icc-accumulator", lambda: _icc_accumulator(SCORES).result(), ICC, False),
    ("icc-accumulator-undefined", lambda: _icc_accumulator(np.ones((4, 3))).result(), ICC, True),
    ("interval", lambda: wk.kappa_test(TRUTH, PRED_A).confidence_interval(0.9), INTERVAL, False),
    ("interval-undefined", lambda: wk.ConfidenceInterval(math.nan, math.inf), INTERVAL, True),
]  # fmt: skip


@pytest.mark.parametrize(("make", "keys", "degenerate"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_to_dict_is_strict_json_with_the_same_keys(make, keys, degenerate) -> None:
    result = quiet(make)
    document = strict_json(quiet(result.to_dict))
    assert list(document) == keys
    if "confidence_interval" in keys:
        interval = document["confidence_interval"]
        assert list(interval) == INTERVAL
    # The headline value: itself when finite, None where undefined (nan in the degenerate
    # cases; a list for a batch, with None for its constant feature; a plan's assurance is
    # nan unless it plans for one).
    name = next(k for k in ("statistic", "difference", "assurance", "low") if k in keys)
    value = np.ravel(getattr(result, name)).astype(float)
    written = document[name] if isinstance(document[name], list) else [document[name]]
    assert written == [float(v) if math.isfinite(v) else None for v in value]
    assert (None in written) == degenerate


def test_the_strata_keep_their_summaries() -> None:
    result = wk.stratified_kappa_test(TRUTH, PRED_A, strata=np.array(["x", "y"])[np.arange(60) % 2])
    strata = result.to_dict(0.8)["strata"]
    assert [s["stratum"] for s in strata] == ["x", "y"]
    assert [list(s) for s in strata] == [["stratum", "used", *KAPPA]] * 2
    assert all(s["used"] is True for s in strata)
    assert {s["confidence_interval"]["confidence_level"] for s in strata} == {0.8}


def test_the_icc_batch_writes_lists_and_the_interval_without_resamples() -> None:
    document = strict_json(_icc_batch()["C,1"].to_dict(0.9))
    assert len(document["statistic"]) == 3 and document["statistic"][2] is None
    assert document["confidence_interval"]["confidence_level"] == 0.9
    assert len(document["confidence_interval"]["low"]) == 3
    assert document["n_items"] == 30 and document["n_raters"] == 3


@pytest.mark.parametrize(
    "make",
    [
        lambda: wk.kappa_test(TRUTH, PRED_A),
        lambda: wk.paired_kappa_test(TRUTH, PRED_A, PRED_B, n_resamples=99, rng=0),
        lambda: wk.stratified_kappa_test(TRUTH, PRED_A, strata=np.arange(60) % 3),
        lambda: wk.agreement(RATERS),
        lambda: wk.rater_vs_panel(RATERS[:, 1:], TRUTH, n_resamples=99, rng=0),
        lambda: wk.group_agreement(RATERS[:, :2], RATERS[:, 2:]),
        lambda: wk.icc(SCORES),
        lambda: wk.ccc(SCORES),
    ],
    ids=["kappa", "paired", "stratified", "agreement", "panel", "group", "icc", "ccc"],
)
def test_to_dict_writes_the_interval_at_the_callers_level(make) -> None:
    result = make()
    document = result.to_dict(0.8)
    assert document["confidence_interval"]["confidence_level"] == 0.8
    low, high = result.confidence_interval(0.8)
    assert document["confidence_interval"]["low"] == pytest.approx(low, rel=1e-15)
    assert document["confidence_interval"]["high"] == pytest.approx(high, rel=1e-15)


def test_the_paired_result_defaults_to_the_level_it_was_run_at() -> None:
    result = wk.paired_kappa_test(
        TRUTH, PRED_A, PRED_B, n_resamples=99, rng=0, confidence_level=0.9
    )
    assert result.to_dict()["confidence_interval"]["confidence_level"] == 0.9


def test_the_accumulator_states_survive_json_exactly() -> None:
    kappa = _kappa_accumulator()
    state = strict_json(kappa.to_dict())
    assert list(state) == KAPPA_STATE
    assert wk.KappaAccumulator.from_dict(json.loads(json.dumps(state))) == kappa

    labelled = wk.KappaAccumulator(["a", "b"], weights=np.array([[0.0, 1.0], [1.0, 0.0]]))
    labelled.update(["a", "b"], ["a", "a"])
    state = strict_json(labelled.to_dict())
    assert list(state) == ["format", "version", "labels", "weights", "dtype", "table"]
    assert state["weights"] == [[0.0, 1.0], [1.0, 0.0]]
    assert wk.KappaAccumulator.from_dict(json.loads(json.dumps(state))) == labelled

    icc = _icc_accumulator(SCORES)
    state = strict_json(icc.to_dict())
    assert list(state) == ICC_STATE
    restored = wk.ICCAccumulator.from_dict(json.loads(json.dumps(state)))
    assert restored.result().statistic == icc.result().statistic
    empty = strict_json(wk.ICCAccumulator().to_dict())
    assert empty["rater_effects"] is None and empty["n"] == 0


class Grade(enum.IntEnum):
    LOW = 1


def test_json_value_rule() -> None:
    assert json_value(None) is None
    assert json_value(np.True_) is True and json_value(False) is False
    assert type(json_value(np.int64(3))) is int and type(json_value(Grade.LOW)) is int
    assert json_value(np.float32(0.5)) == 0.5 and type(json_value(np.float32(0.5))) is float
    assert json_value(np.str_("a")) == "a" and type(json_value(np.str_("a"))) is str
    assert [json_value(v) for v in (math.nan, math.inf, -np.inf)] == [None, None, None]
    assert json_value(np.arange(4).reshape(2, 2)) == [[0, 1], [2, 3]]
    assert json_value((1, [np.nan, "b"], range(2))) == [1, [None, "b"], [0, 1]]
    assert json_value({"a": np.float64(np.nan)}) == {"a": None}
    assert json_value(datetime.date(2024, 1, 2)) == "2024-01-02"  # labels of any type
    assert json_value(wk.ConfidenceInterval(0.1, math.nan, 0.9)) == {
        "low": 0.1, "high": None, "confidence_level": 0.9, "method": "asymptotic",
        "n_resamples": 0, "n_undefined": 0,
    }  # fmt: skip


@pytest.mark.parametrize(("make", "keys"), [c[1:3] for c in CASES], ids=[c[0] for c in CASES])
def test_to_dict_writes_the_side_of_its_interval(make, keys) -> None:
    # A one-sided interval or p-value must say so in the JSON: the paired, panel and
    # stratified results had `alternative` as an attribute but left it out of to_dict().
    result = quiet(make)
    if hasattr(result, "alternative"):
        assert "alternative" in keys
        assert quiet(result.to_dict)["alternative"] == result.alternative


@pytest.mark.parametrize(
    "array",
    [
        np.array([[1.5, np.nan], [np.inf, -0.0]]),
        np.array([-np.inf, 0.1], dtype=np.float32),
        np.array([1.0, 2.5], dtype=np.float16),
        np.array([2**64 - 1, 0], dtype=np.uint64),
        np.arange(6, dtype=np.int8).reshape(3, 2, 1),
        np.array([True, False]),
        np.zeros((0, 3)),
        np.array(np.nan),
        np.array(["a", "b"]),
        np.array([datetime.date(2024, 1, 2), np.nan, None], dtype=object),
        np.array(["2024-01-02"], dtype="datetime64[D]"),
        np.array([1.5, np.nan], dtype=np.longdouble),
    ],
    ids=lambda array: str(array.dtype),
)
def test_json_value_of_an_array_is_of_its_list(array) -> None:
    # Numeric arrays convert at once; the result is json_value of the elements, type and all.
    expected = json_value(array.tolist())
    got = json_value(array)
    assert repr(got) == repr(expected)
    assert json.dumps(got, allow_nan=False) == json.dumps(expected, allow_nan=False)
