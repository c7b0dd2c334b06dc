"""Regression tests for the defects differential fuzzing found (one test group per class).

Each test is named after its class (``test_class01_...`` .. ``test_class13_...``) and checks the
reproducer against the exact ``Fraction`` reference (tests/reference.py), or checks that a wkappa
error naming the parameter is raised -- never a raw numpy/numba/polars/Python exception.
"""

from __future__ import annotations

import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from reference import reference_kappa, reference_kappa_from_table, reference_qwk_pairs
from wkappa.exceptions import (
    FewClustersWarning,
    UndefinedKappaWarning,
    WkappaError,
    WkappaTypeError,
)

B53 = 2**53


def exact_qwk(a: list[int], b: list[int], sample_weight: list[float] | None = None) -> float:
    lo = min(min(a), min(b))
    k = max(max(a), max(b)) - lo + 1
    value = reference_kappa([x - lo for x in a], [y - lo for y in b], k, "quadratic", sample_weight)
    assert value is not None
    return float(value)


# --------------------------------------------------------------------------- class 1


def test_class01_pyarrow_integers_with_nulls_stay_exact() -> None:
    pa = pytest.importorskip("pyarrow")
    a = [B53 + 1, B53 + 2, B53 + 3, B53 + 1, None]
    b = [B53 + 1, B53 + 3, B53 + 3, B53 + 2, B53 + 1]
    expected = exact_qwk(a[:4], b[:4])  # type: ignore[arg-type]
    assert expected == 0.6923076923076923
    assert wk.qwk(pa.array(a), pa.array(b), nan_policy="omit") == expected
    assert wk.qwk(a, b, nan_policy="omit") == expected
    chunked = pa.chunked_array([a[:2], a[2:]])
    assert wk.qwk(chunked, pa.array(b), nan_policy="omit") == expected


def test_class01_pyarrow_int64_near_2_62_with_a_null_is_read() -> None:
    pa = pytest.importorskip("pyarrow")
    top = 2**62
    a = [top - 5, top - 3, None, top - 4]
    b = [top - 5, top - 4, 1, top - 4]
    expected = exact_qwk([top - 5, top - 3, top - 4], [top - 5, top - 4, top - 4])
    assert wk.qwk(pa.array(a), pa.array(b), nan_policy="omit") == expected
    assert wk.qwk(a, b, nan_policy="omit") == expected


def test_class01_nullable_pandas_polars_and_duckdb_agree() -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    a = [B53 + 1, B53 + 2, B53 + 3, B53 + 1, None]
    b = [B53 + 1, B53 + 3, B53 + 3, B53 + 2, B53 + 1]
    expected = 0.6923076923076923
    assert wk.qwk(pd.array(a, dtype="Int64"), pd.array(b, dtype="Int64"), nan_policy="omit") == (
        expected
    )
    assert wk.qwk(pl.Series(a), pl.Series(b), nan_policy="omit") == expected
    frame = pl.DataFrame({"a": a, "b": b})
    from wkappa import frames

    table = frame.to_arrow()
    assert frames.weighted_kappa(table, y_true="a", y_pred="b", nan_policy="omit") == expected
    duckdb = pytest.importorskip("duckdb")
    relation = duckdb.from_arrow(table)
    assert frames.weighted_kappa(relation, y_true="a", y_pred="b", nan_policy="omit") == expected


# --------------------------------------------------------------------------- class 2


@pytest.mark.parametrize("n_rep", [2, 1000])  # 10 and 5000 pairs: both sides of FAST_MIN
def test_class02_masked_arrays_mean_missing_at_every_size(n_rep: int) -> None:
    a = np.array([0, 1, 2, 3, 4] * n_rep)
    b = np.array([0, 1, 2, 4, 3] * n_rep)
    mask = np.zeros(a.size, dtype=bool)
    mask[::5] = True
    stale = a.copy()
    stale[mask] = 99  # data under the mask must not matter
    masked = np.ma.masked_array(stale, mask=mask)
    expected = wk.qwk(a[~mask], b[~mask])
    assert wk.qwk(masked, b, nan_policy="omit") == expected
    assert wk.weighted_kappa(masked, b, weights="linear", nan_policy="omit") == (
        wk.weighted_kappa(a[~mask], b[~mask], weights="linear")
    )
    assert np.array_equal(
        wk.confusion_table(masked, b, nan_policy="omit"), wk.confusion_table(a[~mask], b[~mask])
    )
    with pytest.raises(WkappaError, match="missing rating"):
        wk.qwk(masked, b)
    assert np.isnan(wk.qwk(masked, b, nan_policy="propagate"))
    # labels= and an unmasked masked array take the same route as plain arrays
    assert wk.qwk(np.ma.masked_array(a), b) == wk.qwk(a, b)
    assert wk.qwk(masked, b, nan_policy="omit", labels=[0, 1, 2, 3, 4]) == expected


# --------------------------------------------------------------------------- class 8


def test_class08_all_missing_column_with_omit_is_undefined_not_strings() -> None:
    with pytest.warns(UndefinedKappaWarning):
        assert np.isnan(wk.qwk([None, 1], [None, None], nan_policy="omit"))
    with pytest.warns(UndefinedKappaWarning):
        assert np.isnan(wk.qwk([np.nan, 1], [np.nan, np.nan], nan_policy="omit"))
    acc = wk.KappaAccumulator(min_rating=0, max_rating=2)
    acc.update([None, 1], [None, None], nan_policy="omit")
    assert acc.n == 0
    with pytest.raises(WkappaError, match="missing rating"):
        wk.qwk([None, 1], [None, None])


# --------------------------------------------------------------------------- class 11


def test_class11_zero_d_inputs_get_the_1d_error_on_every_route() -> None:
    for call in (
        lambda: wk.qwk(np.array(1), np.array(1)),
        lambda: wk.weighted_kappa(np.array(1), np.array(1), weights="linear"),
        lambda: wk.confusion_table(np.array(1), np.array(1)),
        lambda: wk.qwk(np.array(1), [1]),
    ):
        with pytest.raises(WkappaError, match="y_true"):
            call()


# --------------------------------------------------------------------------- class 12


def test_class12_fractions_and_decimals_are_numbers() -> None:
    expected = wk.qwk([1, 2, 0, 2], [1, 2, 1, 0])
    assert wk.qwk([Fraction(1), Fraction(2), Fraction(0), Fraction(4, 2)], [1, 2, 1, 0]) == expected
    assert wk.qwk([Decimal(1), Decimal(2), Decimal(0), Decimal("2.0")], [1, 2, 1, 0]) == expected
    with pytest.raises(WkappaError, match="non-integer"):
        wk.qwk([Fraction(1, 3), Fraction(1)], [0, 1])
    with pytest.raises(WkappaError, match="non-integer"):
        wk.qwk([Decimal("0.5"), Decimal(1)], [0, 1])
    with pytest.warns(UndefinedKappaWarning):
        wk.qwk([Decimal("NaN"), Decimal(1)], [0, 1], nan_policy="omit")


def test_class12_polars_and_pyarrow_decimals_and_int128() -> None:
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    expected = wk.qwk([1, 2, 0], [1, 2, 1])
    decimals = [Decimal(1), Decimal(2), Decimal(0)]
    assert wk.qwk(pl.Series(decimals), [1, 2, 1]) == expected
    assert wk.qwk(pa.array(decimals), [1, 2, 1]) == expected
    assert wk.qwk(pl.Series([1, 2, 0], dtype=pl.Int128), [1, 2, 1]) == expected
    with pytest.raises(WkappaError, match="too large"):
        wk.qwk(pl.Series([2**100, 2, 0], dtype=pl.Int128), [1, 2, 1])


def test_class12_list_typed_columns_are_refused_clearly() -> None:
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    for column in (
        pl.Series([[1], [2], [0]]),
        pa.array([[1], [2], [0]]),
        np.array([[1], [2, 3], [0]], dtype=object),
        [[1], [2, 3], [0]],
    ):
        with pytest.raises((WkappaError, WkappaTypeError), match="y_true"):
            wk.qwk(column, [1, 2, 1])
        with pytest.raises((WkappaError, WkappaTypeError), match="y_true"):
            wk.weighted_kappa(column, [1, 2, 1], weights="unweighted")


def test_class12_accumulator_state_and_categories_are_checked() -> None:
    acc = wk.KappaAccumulator(min_rating=0, max_rating=2).update([0, 1, 2], [0, 2, 2])
    state = acc.to_dict()
    huge = dict(state, table=[[2**70, 0, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(WkappaError, match="too large"):
        wk.KappaAccumulator.from_dict(huge)
    halves = dict(state, table=[[0.5, 0, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(WkappaError, match="non-integer"):
        wk.KappaAccumulator.from_dict(halves)
    whole = dict(state, table=[[1.0, 0, 0], [0, 0, 1], [0, 0, 1.0]])
    assert wk.KappaAccumulator.from_dict(whole) == acc
    floats = dict(state, dtype="float64", table=[[0.5, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert wk.KappaAccumulator.from_dict(floats).n == 2.5
    with pytest.raises(WkappaError, match="empty"):
        wk.KappaAccumulator(range(0))
    with pytest.raises(WkappaError, match="empty"):
        wk.KappaAccumulator([])


def test_class12_strings_against_booleans_say_so() -> None:
    with pytest.raises(WkappaError, match="strings but `y_pred` holds numbers") as info:
        wk.weighted_kappa(["True", "False"], [True, False], weights="unweighted")
    assert "not in `labels`" not in str(info.value)


def test_class12_sample_weight_errors_name_sample_weight() -> None:
    for weight in (["a", "b"], [1 + 1j, 2j], np.array([1 + 1j, 2j]), [[1], [2]], [None, 1]):
        with pytest.raises(WkappaError, match="sample_weight") as info:
            wk.qwk([0, 1], [1, 0], sample_weight=weight)
        assert "ratings" not in str(info.value).split("Hint")[0].replace("there are", "")


# --------------------------------------------------------------------------- class 6


def test_class06_integer_tables_past_int64_do_not_wrap() -> None:
    big = np.array([[2**62, 0], [0, 2**62]])
    assert wk.kappa_from_table(big) == 1.0
    assert wk.kappa_from_table(big, weights="linear") == 1.0
    table = np.array([[2**61, 2**60], [2**60, 2**61]], dtype=np.int64)
    expected = float(reference_kappa_from_table(table.tolist(), "quadratic"))  # type: ignore[arg-type]
    assert wk.kappa_from_table(table) == pytest.approx(expected, rel=1e-15)
    unsigned = np.array([[2**63, 0], [0, 1]], dtype=np.uint64)
    assert wk.kappa_from_table(unsigned) == pytest.approx(
        float(reference_kappa_from_table(unsigned.tolist(), "quadratic")),
        rel=1e-15,  # type: ignore[arg-type]
    )


def test_class06_accumulator_tables_overflow_is_an_error_or_float() -> None:
    acc = wk.KappaAccumulator(min_rating=0, max_rating=3)
    with pytest.raises(WkappaError, match="2\\*\\*63"):
        acc.update_table(np.full((4, 4), 2**60))
    assert acc.n == 0  # the failed update left the table as it was
    acc.update_table(np.full((4, 4), 2**57))
    assert acc.n == 2**61
    acc2 = wk.KappaAccumulator(min_rating=0, max_rating=1)
    acc2.update_table(np.array([[2**63, 0], [0, 1]], dtype=np.uint64))
    assert acc2.n == float(2**63 + 1)
    assert acc2.kappa() == pytest.approx(1.0)
    with pytest.raises(WkappaError, match="2\\*\\*63"):
        acc.merge(acc.merge(acc).merge(acc))


# --------------------------------------------------------------------------- class 9


@pytest.mark.parametrize("n_rep", [2, 2000])
def test_class09_uint64_ratings_beyond_2_53_with_integer_labels(n_rep: int) -> None:
    a = np.array([B53 + 1, B53 + 2, B53 + 3] * n_rep, dtype=np.uint64)
    b = np.array([B53 + 1, B53 + 3, B53 + 3] * n_rep, dtype=np.uint64)
    labels = [B53 + 1, B53 + 2, B53 + 3]
    expected = exact_qwk([1, 2, 3] * n_rep, [1, 3, 3] * n_rep)
    assert wk.qwk(a, b, labels=labels) == expected
    assert wk.qwk(a, b, labels=np.array(labels, dtype=np.uint64)) == expected
    top = np.array([2**64 - 1, 2**64 - 2] * n_rep, dtype=np.uint64)
    assert wk.qwk(top, top[::-1].copy(), labels=[2**64 - 2, 2**64 - 1]) == -1.0
    with pytest.raises(WkappaError, match="not in `labels`"):
        wk.qwk(a, b, labels=[B53 + 1, B53 + 3])


# --------------------------------------------------------------------------- class 10


def test_class10_range_labels_are_never_materialised() -> None:
    import time

    start = time.perf_counter()
    with pytest.raises(WkappaError, match="K = 10000000"):
        wk.weighted_kappa([0, 1], [1, 0], weights="linear", labels=range(10**7))
    with pytest.raises(WkappaError, match="K = 1000000000000"):
        wk.confusion_table([0, 1], [1, 0], labels=range(10**12))
    with pytest.raises(WkappaError, match="K = 1000000000000"):
        wk.kappa_test([0, 1], [1, 0], labels=range(10**12))
    with pytest.raises(WkappaError, match="K = 1000000000000"):
        wk.KappaAccumulator(range(10**12))
    assert time.perf_counter() - start < 5  # the guard comes first (was 10 s / MemoryError)
    # QWK needs no table: a long range of labels is fine, and the same as the plain call.
    assert wk.qwk([0, 1, 5], [1, 0, 5], labels=range(10**12)) == wk.qwk([0, 1, 5], [1, 0, 5])
    assert wk.qwk([10, 8, 0], [8, 10, 0], labels=range(10, -1, -2)) == wk.qwk([0, 1, 5], [1, 0, 5])
    with pytest.raises(WkappaError, match="not in `labels` range"):
        wk.qwk([0, 1], [1, 3], labels=range(1, 10**12))
    with pytest.raises(WkappaError, match="not in `labels`"):
        wk.qwk([0, 1], [1, 3], labels=range(0, 10, 2))


# --------------------------------------------------------------------------- class 11 (torch)


def test_class11_torch_metric_gets_the_k_guard() -> None:
    torch_module = pytest.importorskip("wkappa.torch")
    with pytest.raises(WkappaError, match="num_classes"):
        torch_module.KappaMetric(10**6)
    with pytest.raises(WkappaError, match="num_classes"):
        torch_module.WeightedKappaLoss(10**6)


# --------------------------------------------------------------------------- class 3


def exact_pairs(a: list[int], b: list[int], w: list[float]) -> float:
    value = reference_qwk_pairs(a, b, w)
    assert value is not None
    return float(value)


def test_class03_weighted_qwk_beyond_8192_categories_does_not_cancel() -> None:
    a, b, w = [0, 10**6, 2 * 10**6], [0, 10**6 + 1, 2 * 10**6], [0.0, 1.0, 0.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert wk.qwk(a, b, sample_weight=w) == 0.0  # exact: 0 (was nan with a warning)
    rng = np.random.default_rng(3)
    for offset in (10**6, 3 * 10**6, 2**24, 2**40):
        a = [int(x) for x in rng.integers(0, 5, 40) + offset]
        b = [int(x) for x in rng.integers(0, 5, 40) + offset]
        w = [float(x) for x in rng.random(40)]
        expected = exact_pairs(a, b, w)
        # A zero-weight pair far away widens K past 8192 and must change nothing.
        got = wk.qwk([0, *a], [0, *b], sample_weight=[0.0, *w])
        assert got == pytest.approx(expected, abs=1e-14)
        fast = wk.qwk(np.array([0, *a] * 60), np.array([0, *b] * 60), sample_weight=[0.0, *w] * 60)
        assert fast == pytest.approx(expected, abs=1e-14)


def test_class03_integer_weights_equal_repetition_at_k_2_24() -> None:
    a, b, w = [0, 5, 2**24, 3], [1, 5, 2**24 - 1, 3], [3, 1, 2, 5]
    repeated = wk.qwk(np.repeat(a, w), np.repeat(b, w))
    assert wk.qwk(a, b, sample_weight=w) == pytest.approx(repeated, abs=1e-15)
    assert repeated == exact_pairs(a, b, [float(x) for x in w])


# --------------------------------------------------------------------------- class 7


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1.0, 1e150, 1e300, 1e308])
def test_class07_sample_weight_scale_does_not_matter(scale: float) -> None:
    a, b = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    expected = float(Fraction(9, 14))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no raw RuntimeWarning, no UndefinedKappaWarning
        assert wk.qwk(a, b, sample_weight=[scale] * 5) == pytest.approx(expected, abs=1e-15)
        assert wk.weighted_kappa(a, b, weights="linear", sample_weight=[scale] * 5) == (
            pytest.approx(wk.weighted_kappa(a, b, weights="linear"), abs=1e-15)
        )
        far_a, far_b = [*a, 10**5], [*b, 10**5]  # K > 8192: the sums route
        assert wk.qwk(far_a, far_b, sample_weight=[scale] * 6) == pytest.approx(
            wk.qwk(far_a, far_b), abs=1e-15
        )
        if scale <= 1e300:
            # The cluster-robust standard error does not depend on the weights' scale.
            warnings.simplefilter("ignore", FewClustersWarning)  # 5 clusters
            ids = np.arange(5)
            result = wk.kappa_test(a, b, sample_weight=[scale] * 5, cluster=ids)
            assert result.statistic == pytest.approx(expected, abs=1e-15)
            unit = wk.kappa_test(a, b, cluster=ids).standard_error
            assert result.standard_error == pytest.approx(unit, rel=1e-12)
    if scale < 1:  # frequency weights that are not whole numbers
        with pytest.raises(WkappaError, match="`sample_weight` must give whole-number counts"):
            wk.kappa_test(a, b, sample_weight=[scale] * 5)
    elif scale <= 1e300:  # whole numbers: frequency weights, n = 5 * scale
        result = wk.kappa_test(a, b, sample_weight=[scale] * 5)
        assert result.statistic == pytest.approx(expected, abs=1e-15)
        assert np.isfinite(result.standard_error)


@pytest.mark.parametrize("scale", [1e-160, 1e160, 1e300])
def test_class07_weight_matrix_scale_does_not_matter(scale: float) -> None:
    a, b = [0, 1, 2, 2, 1, 0], [0, 2, 2, 1, 1, 0]
    matrix = np.array([[0, 1, 4], [1, 0, 1], [4, 1, 0]], dtype=float)
    plain = wk.kappa_test(a, b, weights=matrix)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scaled = wk.kappa_test(a, b, weights=matrix * scale)
        assert wk.weighted_kappa(a, b, weights=matrix * scale) == pytest.approx(plain.statistic)
    assert scaled.statistic == pytest.approx(plain.statistic, rel=1e-14)
    assert scaled.standard_error == pytest.approx(plain.standard_error, rel=1e-12)
    assert scaled.standard_error_null == pytest.approx(plain.standard_error_null, rel=1e-12)


def test_class07_one_huge_weight_gives_finite_standard_errors() -> None:
    a, b = [0, 1, 2, 2, 1, 0], [0, 2, 2, 1, 1, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # se_null: mass in one cell
        small = wk.kappa_test(a, b, sample_weight=[1, 1, 1e100, 1, 1, 1])
        huge = wk.kappa_test(a, b, sample_weight=[1, 1, 1e200, 1, 1, 1])
    assert huge.statistic == small.statistic
    assert huge.standard_error == pytest.approx(small.standard_error, rel=1e-12)


# --------------------------------------------------------------------------- class 4


def test_class04_frames_engines_agree_on_qwk_beyond_8192_categories() -> None:
    pl = pytest.importorskip("polars")
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    a, b = [0, 10**5, 3, 4, 7], [1, 10**5, 3, 2, 7]
    w = [1.0, 2.0, 3.0, 0.5, 0.0]
    expected = float(reference_qwk_pairs(a, b) or 0)
    weighted = float(reference_qwk_pairs(a, b, w) or 0)
    eager = pl.DataFrame({"a": a, "b": b, "w": w})
    inputs: list[object] = [eager, eager.lazy(), eager.to_arrow(), eager.to_pandas()]
    duckdb = pytest.importorskip("duckdb")
    inputs.append(duckdb.from_arrow(eager.to_arrow()))
    for frame in inputs:
        assert frames.weighted_kappa(frame, y_true="a", y_pred="b") == expected
        got = frames.weighted_kappa(frame, y_true="a", y_pred="b", sample_weight="w")
        assert got == pytest.approx(weighted, abs=1e-15)
    strings = pd.DataFrame({"a": ["x", "y"], "b": ["y", "x"]})
    assert frames.weighted_kappa(strings, y_true="a", y_pred="b", labels=["x", "y"]) == -1.0


def test_class04_eager_frame_tables_get_the_k_guard() -> None:
    pl = pytest.importorskip("polars")
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    for frame in (
        pl.DataFrame({"a": [0, 10**12], "b": [0, 0]}),
        pd.DataFrame({"a": [0, 10**12], "b": [0, 0]}),
        pl.DataFrame({"a": [0, 10**5], "b": [0, 0]}).lazy(),
    ):
        with pytest.raises(WkappaError, match="K = "):
            frames.confusion_table(frame, y_true="a", y_pred="b")
        with pytest.raises(WkappaError, match="K = "):
            frames.kappa_test(frame, y_true="a", y_pred="b")
        with pytest.raises(WkappaError, match="K = "):
            frames.weighted_kappa(frame, y_true="a", y_pred="b", weights="linear")


# --------------------------------------------------------------------------- class 5 and 13 (CLI)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from wkappa._cli import main

    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("top", [5000, 1_000_000, 10**13])
def test_class05_cli_large_rating_range_is_exit_2_one_line(
    top: int, tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    path = tmp_path / "big.csv"  # type: ignore[operator]
    path.write_text(f"a,b\n0,0\n{top},0\n")
    start = time.perf_counter()
    for command in (["score"], ["score", "--format", "json"]):
        code, out, err = _cli([*command, str(path), "--true", "a", "--pred", "b"], capsys)
        assert code == 2
        assert out == ""
        assert err.count("\n") == 1 and err.startswith("wkappa: error:")
        assert "K = " in err and "Hint:" in err
    assert time.perf_counter() - start < 30  # was 40 s and 200 MB of JSON for top = 5000


def test_class13_cli_labels_hint_speaks_command_line(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.csv"  # type: ignore[operator]
    path.write_text("a,b\nx,y\ny,x\n")
    code, _, err = _cli(["score", str(path), "--true", "a", "--pred", "b"], capsys)
    assert code == 2
    assert "--labels A,B,C" in err and "--weights unweighted" in err
    assert "Categorical" not in err and "labels=" not in err and "--labels[" not in err


def test_class13_cli_negative_labels_need_no_equals_sign(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "n.csv"  # type: ignore[operator]
    path.write_text("a,b\n-3,-2\n-2,-3\n-2,-2\n-3,-3\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--format", "json"]
    code, out, err = _cli([*argv, "--labels", "-3,-2"], capsys)
    assert code == 0, err
    code2, out2, _ = _cli([*argv, "--labels=-3,-2"], capsys)
    assert code2 == 0 and out == out2


def test_class13_cli_thresholds_omit_reports_rows_used(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    rows = ["t,s"]
    used = 0
    for i in range(120):
        truth = "" if i % 17 == 0 else str(i % 4)
        score = "" if i % 23 == 0 else f"{i % 4 + (i % 10) / 10:.1f}"
        used += truth != "" and score != ""
        rows.append(f"{truth},{score}")
    path = tmp_path / "t.csv"  # type: ignore[operator]
    path.write_text("\n".join(rows) + "\n")
    argv = ["thresholds", str(path), "--true", "t", "--score", "s", "--nan-policy", "omit"]
    code, out, err = _cli([*argv, "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["n"] == used < 120
    code, out, err = _cli(argv, capsys)
    assert code == 0 and f"n = {used})" in out


def test_class13_cli_report_without_matplotlib_writes_the_numbers(
    tmp_path: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from wkappa._cli import report

    monkeypatch.setattr(report, "_has_matplotlib", lambda: False)
    path = tmp_path / "r.csv"  # type: ignore[operator]
    path.write_text("a,b\n0,0\n1,2\n2,2\n1,1\n")
    out_file = tmp_path / "r.html"  # type: ignore[operator]
    code, _, err = _cli(
        ["score", str(path), "--true", "a", "--pred", "b", "--report", str(out_file)], capsys
    )
    assert code == 0, err
    text = out_file.read_text()
    assert "Observed O" in text and "wkappa[plot]" in text and "<img" not in text


def test_class13_cli_demo_without_the_cli_extra_fails_before_printing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import wkappa._cli.io as cli_io

    def missing() -> None:
        raise ImportError('polars is needed. Hint: pip install "wkappa[cli]"')

    monkeypatch.setattr(cli_io, "polars", missing)
    code, out, err = _cli(["demo"], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "wkappa[cli]" in err


def test_class13_cli_compare_reports_omitted_rows(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    path = tmp_path / "c.csv"  # type: ignore[operator]
    rows = ["t,a,b"] + [f"{i % 3},{(i + i // 5) % 3},{i % 3}" for i in range(30)]
    rows += ["1,,2", ",1,1"]
    path.write_text("\n".join(rows) + "\n")
    argv = ["compare", str(path), "--true", "t", "--pred", "a", "--pred", "b"]
    argv += ["--nan-policy", "omit", "--bootstrap", "50", "--seed", "1"]
    code, out, err = _cli([*argv, "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["omitted_rows"] == 2
    code, out, err = _cli(argv, capsys)
    assert code == 0 and "32 read, 30 used, 2 dropped" in out


def test_class13_cli_non_integer_error_names_the_first_bad_row(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = ["a,b", "1,1.5"] + [f"{i % 3},{i % 3}" for i in range(2, 1000)]
    rows += [f"{i}.5,1" for i in range(6)]  # many bad values in the first column, later
    path = tmp_path / "n.csv"  # type: ignore[operator]
    path.write_text("\n".join(rows) + "\n")
    code, _, err = _cli(["score", str(path), "--true", "a", "--pred", "b"], capsys)
    assert code == 2
    assert "row 1:" in err and "'b'" in err and "1.5" in err


def _fit_csv(folder: Any) -> Any:
    """A small file to fit thresholds on: truth ``t`` (0..2), score ``s``."""
    fit = folder / "fit.csv"
    fit.write_text("t,s\n0,0.1\n1,1.2\n2,2.3\n1,0.9\n2,1.8\n0,0.4\n")
    return fit


def test_class13_cli_apply_checks_first_and_never_leaves_a_partial_file(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    fit = _fit_csv(tmp_path)
    other = tmp_path / "other.csv"  # type: ignore[operator]
    other.write_text("s\n0.1\n\n2.5\n1.1\n")
    out = tmp_path / "graded.csv"  # type: ignore[operator]
    base = ["thresholds", str(fit), "--true", "t", "--score", "s", "--apply", str(other)]
    # the other file's columns are checked before anything is fitted or printed
    code, printed, err = _cli([*base, "--apply-score", "zz", "--out", str(out)], capsys)
    assert code == 2 and printed == "" and "'zz'" in err
    # a missing score: one line naming the row, before the fit, and no output file at all
    code, printed, err = _cli([*base, "--out", str(out)], capsys)
    assert code == 2 and printed == ""
    assert "row 2" in err and err.count("\n") == 1 and "polars" not in err.lower()
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if "partial" in p.name]  # type: ignore[attr-defined]
    # --nan-policy omit grades the rest and leaves the missing score's grade empty
    code, _, err = _cli([*base, "--out", str(out), "--nan-policy", "omit"], capsys)
    assert code == 0, err
    assert out.read_text().splitlines() == ["s,grade", "0.1,0", ",", "2.5,2", "1.1,1"]


def test_class13_heatmaps_use_short_numbers_and_the_column_names() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from wkappa._stats.plot import short_number

    assert short_number(6690.4, ".3g") == "6.69k"
    assert short_number(12.345, ".3g") == "12.3"
    assert short_number(2.5e6, ".0f") == "2.5M"
    rng = np.random.default_rng(0)
    a = rng.integers(0, 4, 40000)
    b = np.clip(a + rng.integers(-1, 2, 40000), 0, 3)
    axes = wk.kappa_test(a, b).plot(rater_names=("essay_grade", "model"))
    assert axes[0].get_xlabel() == "model (rater B)"
    assert axes[0].get_ylabel() == "essay_grade (rater A)"
    texts = [t.get_text() for t in axes[1].texts]  # E: expected counts in the thousands
    assert texts and all(len(t) <= 5 and "e+" not in t for t in texts)
    import matplotlib.pyplot as plt

    plt.close(axes[0].figure)


def test_class09_python_ints_across_2_63_with_labels_stay_exact() -> None:
    # Found by tests/test_fuzz.py: numpy reads [2**63 - 9, 2**63 + 8181] as float64.
    s = 2**63 - 9
    a, b = [s] * 9 + [s], [s] * 9 + [s + 8190]
    assert wk.qwk(a, b, labels=range(s, s + 8191)) == float(
        reference_qwk_pairs([x - s for x in a], [y - s for y in b]) or 0
    )
    assert wk.qwk([s, s + 2], [s + 1, s + 2], labels=[s, s + 1, s + 2]) == exact_qwk([0, 2], [1, 2])
    with pytest.raises(WkappaError, match="too large"):
        wk.qwk([2**70, 1], [1, 2**70], labels=[1, 2**70])


def test_class09_numpy_integer_scalars_near_2_64_with_a_missing_value_stay_exact() -> None:
    # Found by tests/test_fuzz.py (CI's derandomised deep run): a list of numpy uint64 scalars
    # with a None was filled with a Python 0 and read as float64, so every rating near 2**64
    # was rounded and then refused as too large.
    s = 2**64 - 9
    a = [np.uint64(s)] * 4 + [np.uint64(s - 1)]
    b = [None, np.uint64(s), np.uint64(s - 1), np.uint64(s), np.uint64(s - 1)]
    labels = [s - 1, s]
    table = wk.confusion_table(a, b, labels=labels, nan_policy="omit")
    np.testing.assert_array_equal(table, [[1, 0], [1, 2]])
    assert wk.kappa_from_table(table, weights="linear") == float(
        reference_kappa_from_table([[1, 0], [1, 2]], "linear")
    )
    accumulator = wk.KappaAccumulator(labels, weights="linear")
    accumulator.update(a, b, nan_policy="omit")
    assert accumulator.kappa() == wk.kappa_from_table(table, weights="linear")
    # Mixed int64 and uint64 scalars: numpy would promote them to float64 too.
    mixed_a = [np.int64(1), np.uint64(2**63 + 1), np.int64(3)]
    mixed_b = [np.int64(1), np.uint64(2**63 + 1), np.uint64(2**63 + 1)]
    got = wk.qwk(mixed_a, mixed_b, labels=[1, 3, 2**63 + 1])
    assert got == float(reference_qwk_pairs([0, 2, 1], [0, 2, 2]) or 0)


def test_class13_cli_apply_names_the_row_of_a_text_score_past_type_inference(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    fit = _fit_csv(tmp_path)
    other = tmp_path / "other.csv"  # type: ignore[operator]
    rows = 20_000  # past the rows polars infers the column type from
    other.write_text("s\n" + "0.5\n" * rows + "abc\n1.5\n")
    out = tmp_path / "graded.csv"  # type: ignore[operator]
    argv = ["thresholds", str(fit), "--true", "t", "--score", "s", "--apply", str(other)]
    code, _, err = _cli([*argv, "--out", str(out)], capsys)
    assert code == 2, err
    assert f"row {rows + 1}" in err and "'abc'" in err and err.count("\n") == 1
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if "partial" in p.name]  # type: ignore[attr-defined]
    # A text cell in another column past the inferred rows is written out as it is.
    other.write_text("id,s\n" + "1,0.5\n" * rows + "x7,1.5\n")
    code, _, err = _cli([*argv, "--out", str(out)], capsys)
    assert code == 0, err
    assert out.read_text().splitlines()[-2:] == ["1,0.5,0", "x7,1.5,1"]
