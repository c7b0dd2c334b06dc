"""Several raters' inputs and results at their edges: a missing or scalar input, a ragged
`multiplicity`, results whose inference is undefined, values of interval and ratio alpha,
cluster ids."""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa.exceptions import UndefinedKappaWarning, WkappaError, WkappaTypeError

PANEL = [[0, 1], [1, 1], [2, 2]]


@pytest.mark.parametrize("value", [None, 3, 1.0, np.float64(2.0)])
@pytest.mark.parametrize(
    ("call", "name", "expected"),
    [
        (lambda v: wk.rater_vs_panel(PANEL, v), "candidate", "a 1-D array-like of ratings"),
        (lambda v: wk.rater_vs_panel(v, [0, 1, 2]), "ratings", "a 2-D array"),
        (lambda v: wk.group_agreement(v, PANEL), "ratings_a", "a 2-D array"),
        (lambda v: wk.group_agreement(PANEL, v), "ratings_b", "a 2-D array"),
        (lambda v: wk.agreement(v), "ratings", "a 2-D array"),
        (lambda v: wk.krippendorff_alpha(v), "ratings", "a 2-D array"),
    ],
)
def test_none_or_a_scalar_is_refused_naming_the_parameter(
    call: Callable[[Any], Any], name: str, expected: str, value: Any
) -> None:
    got = "NoneType" if value is None else f"the scalar {value}"
    with pytest.raises(WkappaTypeError, match=rf"^`{name}` must be {expected}.*; got ") as info:
        call(value)
    assert str(info.value).endswith(f"; got {got}.")
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------- an undefined standard error


@pytest.mark.parametrize(
    ("call", "what", "why"),
    [
        (lambda: wk.agreement([[0, 1, 1]]), "Fleiss' kappa", "a single item is rated"),
        (
            lambda: wk.agreement([[0, 1, 1]], coefficient="gwet", cluster=["x"]),
            "Gwet's AC1",
            "a single item is rated",
        ),
        (
            lambda: wk.agreement_from_counts([[1, 2]], coefficient="brennan_prediger"),
            "Brennan-Prediger coefficient",
            "a single item is rated",
        ),
        (lambda: wk.krippendorff_alpha([[0, 1, 1]]), "Krippendorff's alpha", "a single item"),
        (
            lambda: wk.krippendorff_alpha([[0, 1, 1], [1, None, None]]),
            "Krippendorff's alpha",
            "at least 2 items with two or more ratings, and 1 of the 2 items has them",
        ),
        (
            lambda: wk.group_agreement([[0, 1], [1, 1]], [[0, 0], [1, 1]]),
            "two groups' kappa",
            "with 1 of the 2 items left out the kappa is undefined",
        ),
    ],
)
def test_a_defined_coefficient_without_a_standard_error_warns_once_at_the_caller(
    call: Callable[[], Any], what: str, why: str
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    assert [w.category for w in caught] == [UndefinedKappaWarning], [str(w.message) for w in caught]
    message = str(caught[0].message)
    assert message.startswith(f"The standard error, interval and p-value of {what} are undefined")
    assert why in message and message.endswith("Returning nan for them. Hint: rate more items.")
    assert caught[0].filename == __file__
    assert math.isfinite(result.statistic)
    assert math.isnan(result.standard_error) and math.isnan(result.pvalue)
    assert all(math.isnan(limit) for limit in result.confidence_interval())


def test_an_undefined_coefficient_warns_once_for_itself() -> None:
    with pytest.warns(UndefinedKappaWarning) as caught:
        wk.agreement([[1, 1, 1]])
    assert len(caught) == 1 and "1 - pe is zero" in str(caught[0].message)
    with warnings.catch_warnings():  # zero_division=<float> is the user's choice
        warnings.simplefilter("error")
        assert wk.agreement([[1, 1, 1]], zero_division=0.0).statistic == 0.0


def test_cli_agree_on_one_item_warns_on_one_line(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "one.csv"
    path.write_text("a,b,c\n0,1,1\n")
    assert main(["agree", str(path), "--raters", "a,b,c"]) == 0
    captured = capsys.readouterr()
    assert "-0.5000" in captured.out and "undefined" in captured.out
    assert captured.err.splitlines() == [
        "wkappa: warning: The standard error, interval and p-value of Fleiss' kappa are "
        "undefined: the standard error needs at least 2 items, and a single item is rated. "
        "They are shown as undefined. Hint: rate more items."
    ]


# ------------------------------------------------------ interval and ratio alpha on values

MEASURED = np.array([[0, 1, 1], [2, 2, 2], [1, 1, 0], [0, 0, 0], [2, 1, 2]]) * 0.7 + 0.25


@pytest.mark.parametrize("level", ["interval", "ratio"])
@pytest.mark.parametrize("library", ["numpy", "list", "pandas", "polars"])
@pytest.mark.parametrize("missing", [False, True])
def test_interval_and_ratio_alpha_take_values_that_are_not_whole(
    level: str, library: str, missing: bool
) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    values = MEASURED.copy()
    if missing:
        values[0, 1] = values[3, 2] = np.nan
    ratings: Any = values
    if library == "list":
        ratings = [[None if np.isnan(v) else float(v) for v in row] for row in values]
    elif library != "numpy":
        frames = pytest.importorskip(library)
        ratings = frames.DataFrame({name: values[:, j] for j, name in enumerate("abc")})
        if library == "polars":
            ratings = ratings.fill_nan(None)
    result = wk.krippendorff_alpha(ratings, level=level)
    expected = krippendorff.alpha(values.T, level_of_measurement=level)
    assert result.statistic == pytest.approx(expected, abs=1e-14)
    assert result.labels == (0.25, 0.95, 1.65)
    labelled = wk.krippendorff_alpha(values, level=level, labels=[0.25, 0.95, 1.65])
    assert result.statistic == labelled.statistic
    assert result.standard_error == labelled.standard_error


def test_whole_numbers_keep_their_integer_range() -> None:
    ratings = np.array([[0, 3, 3], [3, 3, 3], [3, 0, 0]], dtype=np.float64)
    assert wk.krippendorff_alpha(ratings, level="interval").labels == (0, 1, 2, 3)


def test_values_that_are_not_whole_refuse_integer_bounds() -> None:
    pattern = (
        r"^`min_rating` and `max_rating` bound integer ratings, .* \(\[0\.25, 0\.95, 1\.65\]\)\. "
        r"Hint: leave them out: level='ratio' takes the values as they are\.$"
    )
    with pytest.raises(WkappaError, match=pattern):
        wk.krippendorff_alpha(MEASURED, level="ratio", min_rating=0)
    with pytest.raises(WkappaError, match="apply_thresholds"):  # categories: not on values
        wk.krippendorff_alpha(MEASURED, level="ordinal")


def test_values_that_are_not_whole_propagate_a_missing_rating() -> None:
    values = MEASURED.copy()
    values[0, 1] = np.nan
    result = wk.krippendorff_alpha(values, level="interval", nan_policy="propagate")
    assert math.isnan(result.statistic)
    assert (result.n_items, result.labels) == (5, (0.25, 0.95, 1.65))


@pytest.mark.parametrize(
    "call",
    [
        lambda x: wk.krippendorff_alpha(x, level="interval"),
        lambda x: wk.krippendorff_alpha(x, level="ratio", min_rating=0, max_rating=6),
        lambda x: wk.agreement(x, coefficient="gwet", weights="radical"),
    ],
)
def test_whole_numbers_on_values_are_read_by_the_counting_pass_alone(
    call: Callable[[Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole numbers are told from values by the counting pass itself (it declines a
    rating that is not whole): no second pass over every rating looks for such values."""
    from wkappa._core import raters

    rng = np.random.default_rng(5)
    ratings = rng.integers(0, 6, (30_000, 5)).astype(np.float64)
    ratings[rng.random(ratings.shape) < 0.1] = np.nan
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 10**15)  # the general route
    expected = call(ratings)
    monkeypatch.setattr(raters, "FAST_MIN_CELLS", 50_000)
    counted = []
    code_rows = raters._code_rows
    monkeypatch.setattr(raters, "_code_rows", lambda *a: counted.append(1) or code_rows(*a))
    monkeypatch.setattr(raters, "value_categories", lambda read: pytest.fail("read twice"))
    result = call(ratings)
    assert len(counted) == 1
    assert (result.statistic, result.standard_error, result.labels) == (
        pytest.approx(expected.statistic, abs=1e-14),
        pytest.approx(expected.standard_error, abs=1e-14),
        expected.labels,
    )


# ---------------------------------------------------------------- cluster ids

Y_TRUE = [0, 1, 2, 1, 0, 2, 1, 0] * 5
Y_PRED = [0, 1, 2, 2, 0, 2, 1, 1] * 5
PATIENT = [i // 4 for i in range(40)]


@pytest.mark.parametrize(
    "ids",
    [
        [(i // 4, "left" if i % 2 else "right") for i in range(40)],
        np.column_stack([PATIENT, np.arange(40) % 2]),
    ],
)
def test_composite_cluster_ids_get_the_join_hint_not_ravel(ids: Any) -> None:
    pattern = (
        r"^`cluster` must be 1-D, one id per rating pair; got shape \(40, 2\), several parts "
        r"per rating pair\. Hint: join each rating pair's parts into one key"
    )
    with pytest.raises(WkappaError, match=pattern) as info:
        wk.kappa_test(Y_TRUE, Y_PRED, cluster=ids)
    assert "ravel" not in str(info.value)
    with pytest.raises(WkappaError, match=r"one id per item; got shape \(40, 2\)"):
        wk.agreement(np.column_stack([Y_TRUE, Y_PRED, Y_PRED]), cluster=ids)


def test_a_column_vector_of_cluster_ids_keeps_the_ravel_hint() -> None:
    with pytest.raises(WkappaError, match=r"Hint: use \.ravel\(\) for a column vector\."):
        wk.kappa_test(Y_TRUE, Y_PRED, cluster=np.array(PATIENT)[:, None])


def test_the_id_of_a_pair_omitted_for_a_missing_rating_does_not_matter() -> None:
    y_true = [float(v) for v in Y_TRUE]
    y_true[3] = np.nan
    ids: list[Any] = list(PATIENT)
    full = wk.kappa_test(y_true, Y_PRED, cluster=ids, nan_policy="omit")
    ids[3] = None
    dropped = wk.kappa_test(y_true, Y_PRED, cluster=ids, nan_policy="omit")
    assert (dropped.statistic, dropped.standard_error, dropped.n_clusters) == (
        full.statistic,
        full.standard_error,
        full.n_clusters,
    )
    ids[5] = None  # a kept pair's id still must be there
    with pytest.raises(WkappaError, match=r"`cluster` has a missing id .* at position 5"):
        wk.kappa_test(y_true, Y_PRED, cluster=ids, nan_policy="omit")


def test_the_id_of_an_item_without_ratings_does_not_matter() -> None:
    ratings = np.column_stack([Y_TRUE, Y_PRED, Y_PRED]).astype(float)
    ratings[3] = np.nan
    ids: list[Any] = list(PATIENT)
    full = wk.agreement(ratings, cluster=ids)
    panel = wk.rater_vs_panel(ratings[:, :2], ratings[:, 2], cluster=ids, n_resamples=99, rng=0)
    ids[3] = None
    dropped = wk.agreement(ratings, cluster=ids)
    assert (dropped.statistic, dropped.standard_error) == (full.statistic, full.standard_error)
    assert dropped.n_clusters == full.n_clusters
    same = wk.rater_vs_panel(ratings[:, :2], ratings[:, 2], cluster=ids, n_resamples=99, rng=0)
    assert same.confidence_interval() == panel.confidence_interval()
    ids[5] = None
    with pytest.raises(WkappaError, match=r"`cluster` has a missing id .* at position 5"):
        wk.agreement(ratings, cluster=ids)


NOT_WHOLE = np.array(
    [[1.5, 2.0, 2.5], [0.5, 0.5, 1.0], [3.0, 2.5, 3.0], [1.0, 1.5, 1.0], [2.25, 2.0, np.nan]]
)


@pytest.mark.parametrize("coefficient", ["krippendorff", "gwet", "fleiss", "conger"])
@pytest.mark.parametrize("weights", ["radical", "ratio", "bipolar"])
def test_value_weights_take_ratings_that_are_not_whole(coefficient: str, weights: str) -> None:
    """Gwet's weights on the category values take numbers that are not whole as categories,
    as krippendorff_alpha(level='interval') does: the same as labels= the sorted values
    (they were refused with a hint to round them)."""
    values = np.unique(NOT_WHOLE[~np.isnan(NOT_WHOLE)]).tolist()
    got = wk.agreement(NOT_WHOLE, coefficient=coefficient, weights=weights)
    want = wk.agreement(NOT_WHOLE, coefficient=coefficient, weights=weights, labels=values)
    assert got.statistic == want.statistic and got.labels == want.labels


def test_krippendorff_with_ratio_weights_is_the_krippendorff_packages_alpha() -> None:
    krippendorff = pytest.importorskip("krippendorff")
    want = krippendorff.alpha(reliability_data=NOT_WHOLE.T, level_of_measurement="ratio")
    got = wk.agreement(NOT_WHOLE, coefficient="krippendorff", weights="ratio")
    assert got.statistic == pytest.approx(want, rel=1e-12)
    interval = krippendorff.alpha(reliability_data=NOT_WHOLE.T, level_of_measurement="interval")
    assert wk.krippendorff_alpha(NOT_WHOLE, level="interval").statistic == pytest.approx(
        interval, rel=1e-12
    )


def test_value_weights_refuse_min_rating_with_values_that_are_not_whole() -> None:
    with pytest.raises(WkappaError, match=r"Hint: leave them out: weights='ratio' takes"):
        wk.agreement(NOT_WHOLE, weights="ratio", min_rating=0)


@pytest.mark.parametrize("weights", ["radical", "ratio", "bipolar"])
def test_value_weights_take_values_that_are_not_whole_with_multiplicity_too(
    weights, tmp_path, capsys
):
    """Gwet's value weights take ratings that are not whole numbers as categories as they
    are; with `multiplicity` (the distinct rows and their counts, as `wkappa agree` passes
    them) the same ratings were refused as "non-integer", so `wkappa agree --weights ratio`
    refused a file that `wk.agreement(..., weights='ratio')` scores."""
    rows = [[1.5, 2, 2.5], [2, 2, 2], [3, 1, 2], [0.5, 0.5, 1]]
    counts = [2, 1, 3, 1]
    written = [row for row, count in zip(rows, counts, strict=True) for _ in range(count)]
    want = wk.agreement(written, weights=weights, coefficient="gwet")
    found = wk.agreement(rows, weights=weights, coefficient="gwet", multiplicity=counts)
    assert found.statistic == pytest.approx(want.statistic, abs=1e-12)
    assert found.standard_error == pytest.approx(want.standard_error, abs=1e-12)
    assert found.labels == want.labels
    path = tmp_path / "scores.csv"
    path.write_text("item,a,b,c\r\n" + "".join(
        f"{i},{a},{b},{c}\r\n" for i, (a, b, c) in enumerate(written)))  # fmt: skip
    assert main(["agree", str(path), "--raters", "a,b,c", "--weights", weights,
                 "--coefficient", "gwet", "--format", "json"]) == 0  # fmt: skip
    document = json.loads(capsys.readouterr().out)
    assert document["statistic"] == pytest.approx(want.statistic, abs=1e-12)
    assert document["labels"] == [0.5, 1, 1.5, 2, 2.5, 3]


@pytest.mark.parametrize("coefficient", ["conger", "fleiss", "gwet"])
def test_multiplicity_rows_in_any_order_draw_the_same_bootstrap(coefficient, tmp_path, capsys):
    """Conger's bootstrap draws rating rows: given as distinct rows with `multiplicity` (as
    `wkappa agree` passes a file's rows, in the order the reader groups them) they were
    drawn in that order, so the same seed gave another interval than the rows one per item
    (`wkappa agree --coefficient conger --bootstrap 999 --seed 7`: [0.4730, 0.7519] against
    the library's [0.4830, 0.7457] on the same file)."""
    rng = np.random.default_rng(5)
    truth = rng.integers(1, 5, 60)
    ratings = np.column_stack(
        [np.where(rng.random(60) < 0.7, truth, rng.integers(1, 5, 60)) for _ in range(4)]
    ).astype(float)
    ratings[rng.random(ratings.shape) < 0.15] = np.nan
    method = wk.BootstrapMethod(999, rng=7)
    want = wk.agreement(ratings, coefficient=coefficient).confidence_interval(method=method)
    distinct, counts = np.unique(
        np.nan_to_num(ratings, nan=-1), axis=0, return_counts=True
    )  # fmt: skip
    order = rng.permutation(len(distinct))
    rows = np.where(distinct[order] < 0, np.nan, distinct[order])
    split = np.repeat(rows, 2, axis=0)  # each row given twice, its count split in two
    halves = np.column_stack([counts[order] // 2, counts[order] - counts[order] // 2]).ravel()
    found = wk.agreement(split, coefficient=coefficient, multiplicity=halves)
    assert tuple(found.confidence_interval(method=method)) == pytest.approx(tuple(want))
    path = tmp_path / "r.csv"
    path.write_text("a,b,c,d\n" + "".join(
        ",".join("" if np.isnan(v) else str(int(v)) for v in row) + "\n" for row in ratings
    ))  # fmt: skip
    argv = ["agree", str(path), "--raters", "a,b,c,d", "--coefficient", coefficient,
            "--bootstrap", "999", "--seed", "7", "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    document = json.loads(capsys.readouterr().out)["confidence_interval"]
    assert (document["low"], document["high"]) == pytest.approx((want.low, want.high))
