"""One meaning of ``sample_weight`` in inference: frequency weights without ``cluster=``
(non-integer weighted counts are refused, naming the parameter and the fixes), any
non-negative weights with it (the sandwich standard error does not depend on their scale);
point estimates take any weights. Intervals that come out nan say why."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

RNG = np.random.default_rng(1)
N = 40
A = RNG.integers(0, 4, N)
B = np.clip(A + RNG.integers(-1, 2, N), 0, 3)
REFUSED = "`sample_weight` must give whole-number counts"


@pytest.mark.parametrize("weight", [1 / N, 0.1, 0.5, 2.5])
def test_kappa_test_refuses_non_integer_weights_with_the_fixes(weight: float) -> None:
    with pytest.raises(WkappaError, match=REFUSED) as info:
        wk.kappa_test(A, B, sample_weight=np.full(N, weight))
    message = str(info.value)
    assert "frequency weights" in message and "`cluster=`" in message
    assert "integer counts" in message and "\n" not in message
    # the point estimate takes any non-negative weights
    assert wk.weighted_kappa(A, B, sample_weight=np.full(N, weight)) == pytest.approx(
        wk.weighted_kappa(A, B), rel=1e-13
    )


def test_whole_number_weights_are_frequency_weights() -> None:
    for weight in (np.full(N, 3), np.full(N, 3.0)):
        weighted = wk.kappa_test(A, B, sample_weight=weight)
        repeated = wk.kappa_test(np.repeat(A, 3), np.repeat(B, 3))
        assert weighted.n == 3 * N
        assert weighted.standard_error == pytest.approx(repeated.standard_error, rel=1e-12)
        assert weighted.pvalue == pytest.approx(repeated.pvalue, rel=1e-9)


def test_float_sums_of_whole_numbers_pass() -> None:
    # A count summed from ten weights of 0.1 is 0.9999999999999999 in floating point: a
    # rounding error, not a fraction of a pair (the command line's exact sums give 1).
    table = np.array([[sum([0.1] * 10), 5.0], [4.0, 15.0]])
    assert table[0, 0] != 1.0
    result = wk.kappa_test_from_table(table, weights="unweighted")
    assert result.n == pytest.approx(25.0)
    with pytest.raises(WkappaError, match="`table` must give whole-number counts"):
        wk.kappa_test_from_table(table + np.array([[1e-6, 0], [0, 0]]), weights="unweighted")


def test_the_cluster_robust_standard_error_takes_any_weights_at_any_scale() -> None:
    ids = np.arange(N)
    unit = wk.kappa_test(A, B, cluster=ids)
    for scale in (1 / N, 0.37, 10.0, 1e6):
        scaled = wk.kappa_test(A, B, sample_weight=np.full(N, scale), cluster=ids)
        assert scaled.statistic == pytest.approx(unit.statistic, rel=1e-13)
        assert scaled.standard_error == pytest.approx(unit.standard_error, rel=1e-12)
        assert scaled.pvalue == pytest.approx(unit.pvalue, rel=1e-9)


def test_what_one_cluster_per_pair_equals() -> None:
    """The docs' identity: unit weights (or integer weights written out as rows, each its own
    cluster) give the ordinary standard error times sqrt(n / (n - 1)); unexpanded weights
    all equal to c give the frequency standard error times sqrt(c m / (m - 1))."""
    plain = wk.kappa_test(A, B)
    clustered = wk.kappa_test(A, B, cluster=np.arange(N))
    assert clustered.standard_error == pytest.approx(
        plain.standard_error * math.sqrt(N / (N - 1)), rel=1e-12
    )
    frequency = wk.kappa_test(A, B, sample_weight=np.full(N, 10))
    rows = wk.kappa_test(np.repeat(A, 10), np.repeat(B, 10), cluster=np.arange(10 * N))
    assert rows.standard_error == pytest.approx(
        frequency.standard_error * math.sqrt(10 * N / (10 * N - 1)), rel=1e-12
    )
    per_pair = wk.kappa_test(A, B, sample_weight=np.full(N, 10), cluster=np.arange(N))
    assert per_pair.standard_error == pytest.approx(
        frequency.standard_error * math.sqrt(10 * N / (N - 1)), rel=1e-12
    )


def test_tables_of_proportions_are_refused() -> None:
    with pytest.raises(WkappaError, match="`table` must give whole-number counts") as info:
        wk.kappa_test_from_table([[0.4, 0.1], [0.1, 0.4]])
    assert "kappa_from_table" in str(info.value)
    assert wk.kappa_from_table([[0.4, 0.1], [0.1, 0.4]], weights="unweighted") == 0.6
    with pytest.raises(WkappaError, match="`tables` must give whole-number counts"):
        wk.stratified_kappa_test_from_tables([[[0.4, 0.1], [0.1, 0.4]]] * 2)
    with pytest.raises(WkappaError, match="`table` must give whole-number counts"):
        wk.paired_kappa_test_from_table(np.full((2, 2, 2), 0.5), n_resamples=9, rng=0)


def test_stratified_and_the_accumulator_refuse_non_integer_weights() -> None:
    with pytest.raises(WkappaError, match=REFUSED):
        wk.stratified_kappa_test(A, B, strata=A % 2, sample_weight=np.full(N, 0.5))
    whole = wk.stratified_kappa_test(A, B, strata=A % 2, sample_weight=np.full(N, 2.0))
    assert whole.statistic == pytest.approx(wk.stratified_kappa_test(A, B, strata=A % 2).statistic)
    accumulator = wk.KappaAccumulator(range(4)).update(A, B, np.full(N, 0.3))
    assert accumulator.value == pytest.approx(wk.weighted_kappa(A, B), rel=1e-13)
    with pytest.raises(WkappaError, match=r"accumulator's table .*`value`"):
        accumulator.result()
    counted = wk.KappaAccumulator(range(4)).update(A, B, np.full(N, 2.0)).result()
    assert counted.n == 2 * N


def test_frames_follow_the_same_rule() -> None:
    pd = pytest.importorskip("pandas")
    frames = pytest.importorskip("wkappa.frames")
    df = pd.DataFrame({"a": A, "b": B, "w": 0.3, "g": A % 2, "id": np.arange(N)})
    options = {"y_true": "a", "y_pred": "b", "sample_weight": "w"}
    with pytest.raises(WkappaError, match=REFUSED) as info:
        frames.kappa_test(df, **options)
    assert "`cluster=` naming a column" in str(info.value)
    with pytest.raises(WkappaError, match=REFUSED):
        frames.kappa_by_group(df, **options, by="g")
    clustered = frames.kappa_test(df, **options, cluster="id")
    assert clustered.standard_error == pytest.approx(
        wk.kappa_test(A, B, cluster=np.arange(N)).standard_error, rel=1e-12
    )
    by_group = frames.kappa_by_group(df, **options, by="g", cluster="id")
    assert np.isfinite(by_group["standard_error"]).all()


def test_the_command_line_follows_the_same_rule(tmp_path, capsys) -> None:
    path = tmp_path / "weighted.csv"
    rows = "\n".join(f"{a},{b},0.3,{i}" for i, (a, b) in enumerate(zip(A, B, strict=True)))
    path.write_text("a,b,w,id\n" + rows + "\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w"]
    err = refusal(capsys, argv)
    assert "--weight-col must give whole-number counts" in err
    assert "--cluster COL" in err and "`" not in err
    document = json_output(capsys, [*argv, "--cluster", "id"])
    assert document["standard_error"] == pytest.approx(
        wk.kappa_test(A, B, cluster=np.arange(N)).standard_error, rel=1e-12
    )


def test_nan_and_inf_weights_get_one_message() -> None:
    messages = set()
    for bad in (math.nan, math.inf):
        with pytest.raises(WkappaError) as info:
            wk.kappa_test(A, B, sample_weight=np.r_[bad, np.ones(N - 1)])
        messages.add(str(info.value))
    assert len(messages) == 1
    assert "`sample_weight`" in messages.pop()


@pytest.mark.parametrize("method", ["score", "fisher-z"])
def test_an_undefined_interval_says_why_at_the_callers_line(method: str) -> None:
    with pytest.warns(UndefinedKappaWarning, match="and every interval") as caught:
        single = wk.kappa_test_from_table([[0, 1], [0, 0]])  # n = 1, kappa 0
    assert caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once, when built
        interval = single.confidence_interval(method=method)
    assert math.isnan(interval.low) and math.isnan(interval.high)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a defined interval: no warning
        wk.kappa_test_from_table([[20, 5], [4, 15]]).confidence_interval(method=method)


@pytest.mark.parametrize("method", ["score", "fisher-z"])
def test_kappa_by_group_warns_once_for_undefined_intervals(method: str) -> None:
    pd = pytest.importorskip("pandas")
    frames = pytest.importorskip("wkappa.frames")
    df = pd.DataFrame({"a": [0, 1, 2, 1, 0, 0], "b": [0, 1, 2, 2, 0, 1], "g": [1] * 5 + [2]})
    with (
        pytest.warns(UndefinedKappaWarning, match="in 1 of 2 groups .*fewer than 2 pairs"),
        pytest.warns(UndefinedKappaWarning, match="test of kappa = 0 is undefined in 1 of 2"),
    ):
        out = frames.kappa_by_group(df, y_true="a", y_pred="b", by="g", method=method)
    assert out["ci_low"].isna().tolist() == [False, True]


def test_by_group_refusals_name_the_group_and_the_cell(tmp_path, capsys) -> None:
    """Frequency weights must give whole counts in every group's table, as in kappa_test;
    kappa_by_group and score --by refused weights whose groups' counts are not whole with
    the weighted count alone (and n of all groups), not saying which group or cell it was."""
    pd = pytest.importorskip("pandas")
    frames = pytest.importorskip("wkappa.frames")
    # Whole counts over the file (0.5 + 0.5 rated (1, 1)), not within the groups.
    rows = [(1, 1, 0.5, "x"), (1, 1, 0.5, "y"), (2, 2, 1, "x"), (2, 2, 1, "y"), (1, 2, 1, "x"),
            (2, 1, 1, "y"), (1, 1, 1, "x"), (2, 2, 2, "y")]  # fmt: skip
    df = pd.DataFrame(rows, columns=["a", "b", "w", "g"])
    with pytest.raises(WkappaError, match=REFUSED) as info:
        frames.kappa_by_group(df, y_true="a", y_pred="b", sample_weight="w", by="g")
    assert "n = 3.5, the total weight of the group {'g': 'x'}); got the weighted count 1.5 in " \
        "the group {'g': 'x'}." in str(info.value)  # fmt: skip
    path = tmp_path / "groups.csv"
    df.to_csv(path, index=False)
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weight-col", "w", "--by", "g"]
    err = refusal(capsys, argv)
    assert "n = 3.5, the total weight of the group 'x' (--by g)); got the weighted count 1.5 " \
        "of the pairs rated (1, 1) in the group 'x' (--by g). Hint:" in err  # fmt: skip
    assert "the kappa alone takes any non-negative weights" in err
