"""torch tensors and array-api-strict arrays: same values and errors as numpy, counted on device."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import array_api_strict as xps
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from reference import reference_kappa
from wkappa._backends import array_api as _array_api
from wkappa._backends import torch_count
from wkappa._core import columns
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

Converter = Callable[[Any], Any]

CONVERTERS: dict[str, Converter] = {
    "torch": lambda values: torch.tensor(np.asarray(values)),
    "strict": lambda values: xps.asarray(np.asarray(values)),
}
WEIGHTS = ["quadratic", "linear", "unweighted"]


def _call(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """('ok', value) or ('error', (type, message)); undefined-kappa warnings are silenced."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedKappaWarning)
            result = func(*args, **kwargs)
    except (WkappaError, TypeError) as exc:
        return "error", (type(exc), str(exc))
    if isinstance(result, np.ndarray):
        return "ok", (result.dtype, result.tolist())
    return "ok", "nan" if math.isnan(result) else result


@pytest.fixture(autouse=True, scope="module", params=["view", "device"])
def mode(request: pytest.FixtureRequest) -> Any:
    """Every test runs twice: CPU arrays read through zero-copy numpy views (the default), and
    with the on-device code path forced, as it runs for CUDA tensors or CuPy arrays."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_array_api, "PREFER_HOST_VIEW", request.param == "view")
        yield request.param


@pytest.fixture(autouse=True)
def _no_full_host_copy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fail if more than a K x K table (+1 spill cell) is copied back, unless labels force it."""
    sizes: list[int] = []
    original = _array_api.to_host

    def recording(obj: Any) -> Any:
        host = original(obj)
        if columns.is_device_array(obj):
            sizes.append(int(np.asarray(host).size))
        return host

    monkeypatch.setattr(_array_api, "to_host", recording)  # the device route's copies
    monkeypatch.setattr(columns, "to_host", recording)  # the strict route's
    return sizes


ratings = st.lists(st.integers(-2, 5), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(), weights=st.sampled_from(WEIGHTS), library=st.sampled_from(["torch", "strict"])
)
def test_same_value_as_numpy_and_reference(data: Any, weights: str, library: str) -> None:
    y_true = data.draw(ratings)
    y_pred = data.draw(st.lists(st.integers(-2, 5), min_size=len(y_true), max_size=len(y_true)))
    convert = CONVERTERS[library]
    expected = _call(wk.weighted_kappa, np.array(y_true), np.array(y_pred), weights=weights)
    got = _call(wk.weighted_kappa, convert(y_true), convert(y_pred), weights=weights)
    assert got == expected
    lo = min(y_true + y_pred)
    k = max(y_true + y_pred) - lo + 1
    exact = reference_kappa([a - lo for a in y_true], [b - lo for b in y_pred], k, weights)
    assert got[1] == ("nan" if exact is None else pytest.approx(float(exact), abs=1e-12))
    table = _call(wk.confusion_table, convert(y_true), convert(y_pred))
    assert table == _call(wk.confusion_table, np.array(y_true), np.array(y_pred))


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    weights=st.sampled_from(WEIGHTS),
    library=st.sampled_from(["torch", "strict"]),
    nan_policy=st.sampled_from(["raise", "omit", "propagate"]),
)
def test_float_ratings_nan_and_sample_weights(
    data: Any, weights: str, library: str, nan_policy: str
) -> None:
    n = data.draw(st.integers(1, 25))
    values = st.one_of(st.integers(0, 4).map(float), st.just(math.nan))
    y_true = data.draw(st.lists(values, min_size=n, max_size=n))
    y_pred = data.draw(st.lists(values, min_size=n, max_size=n))
    weight = data.draw(st.lists(st.floats(0, 5), min_size=n, max_size=n))
    convert = CONVERTERS[library]
    for sample_weight in (None, weight):
        kwargs = {"weights": weights, "nan_policy": nan_policy}
        expected = _call(
            wk.weighted_kappa,
            np.array(y_true),
            np.array(y_pred),
            sample_weight=None if sample_weight is None else np.array(sample_weight),
            **kwargs,
        )
        got = _call(
            wk.weighted_kappa,
            convert(y_true),
            convert(y_pred),
            sample_weight=None if sample_weight is None else convert(sample_weight),
            **kwargs,
        )
        if expected[0] == "ok" and expected[1] != "nan" and sample_weight is not None:
            # float sums in another order: equal up to rounding
            assert got[0] == "ok" and got[1] == pytest.approx(expected[1], abs=1e-9)
        else:
            assert got == expected
        if nan_policy != "propagate":
            table_args = (np.array(y_true), np.array(y_pred))
            host = _call(wk.confusion_table, *table_args, nan_policy=nan_policy)
            device = _call(
                wk.confusion_table, convert(y_true), convert(y_pred), nan_policy=nan_policy
            )
            if host[0] == "ok" and sample_weight is None:
                assert device == host
            else:
                assert device[0] == host[0]


BAD_CASES: list[tuple[str, list[Any], list[Any], dict[str, Any]]] = [
    ("non-integer", [0.0, 1.5, 2.0], [0.0, 1.0, 2.0], {}),
    ("non-integer pred", [0.0, 1.0, 2.0], [0.0, 1.0, 2.25], {}),
    ("inf", [0.0, math.inf, 2.0], [0.0, 1.0, 2.0], {}),
    ("-inf pred", [0.0, 1.0, 2.0], [0.0, -math.inf, 2.0], {}),
    ("nan raise", [0.0, 1.0, math.nan], [0.0, 1.0, 2.0], {}),
    ("nan pred raise", [0.0, 1.0, 2.0], [math.nan, 1.0, 2.0], {}),
    ("too large", [0.0, 2.0**63, 2.0], [0.0, 1.0, 2.0], {}),
    ("length", [0, 1, 2], [0, 1], {}),
    ("empty", [], [], {}),
    ("2-D", [[0, 1], [1, 2]], [[0, 1], [1, 2]], {}),
    ("below min", [0, 1, 2], [0, 1, 2], {"min_rating": 1}),
    ("above max", [0, 1, 2], [0, 1, 3], {"max_rating": 2}),
    ("min > max", [0, 1, 2], [0, 1, 2], {"min_rating": 3, "max_rating": 1}),
    ("bad bound", [0, 1, 2], [0, 1, 2], {"min_rating": 0.5}),
    ("labels and bounds", [0, 1, 2], [0, 1, 2], {"labels": [0, 1, 2], "min_rating": 0}),
    ("unknown label", [0, 1, 2], [0, 1, 7], {"labels": [0, 1, 2]}),
    ("unknown label float", [0.0, 1.0, 2.0], [0.0, 1.0, 7.0], {"labels": [0, 1, 2]}),
    ("non-integer with labels", [0.0, 1.5], [0.0, 1.0], {"labels": [0, 1, 2]}),
    ("repeated labels", [0, 1], [0, 1], {"labels": [0, 1, 1]}),
    ("bad nan_policy", [0, 1], [0, 1], {"nan_policy": "drop"}),
    ("weights shape", [0, 1, 2], [0, 1, 2], {"weights": 1 - np.eye(2)}),
    ("huge table", [0, 10**5], [0, 1], {"weights": "linear"}),
    ("weight length", [0, 1, 2], [0, 1, 2], {"sample_weight": [1.0, 2.0]}),
    ("weight negative", [0, 1, 2], [0, 1, 2], {"sample_weight": [1.0, -2.0, 1.0]}),
    ("weight nan", [0, 1, 2], [0, 1, 2], {"sample_weight": [1.0, math.nan, 1.0]}),
    ("weight inf", [0, 1, 2], [0, 1, 2], {"sample_weight": [1.0, math.inf, 1.0]}),
    ("undefined", [1, 1, 1], [1, 1, 1], {"zero_division": "raise"}),
]


@pytest.mark.parametrize("library", ["torch", "strict"])
@pytest.mark.parametrize(
    ("case", "y_true", "y_pred", "kwargs"), BAD_CASES, ids=[c[0] for c in BAD_CASES]
)
def test_errors_match_numpy(
    library: str, case: str, y_true: list[Any], y_pred: list[Any], kwargs: dict[str, Any]
) -> None:
    convert = CONVERTERS[library]
    device_kwargs = dict(kwargs)
    if "sample_weight" in kwargs:
        device_kwargs["sample_weight"] = convert(kwargs["sample_weight"])
    for func in (wk.weighted_kappa, wk.qwk):
        expected = _call(func, np.array(y_true), np.array(y_pred), **kwargs)
        assert expected[0] == "error", case
        got = _call(func, convert(y_true), convert(y_pred), **device_kwargs)
        assert got == expected, case


@pytest.mark.parametrize("library", ["torch", "strict"])
def test_labels(library: str) -> None:
    convert = CONVERTERS[library]
    y_true, y_pred = [0, 0, 0, 1, 1, 1, 3, 3, 3, 3], [0, 0, 1, 0, 1, 1, 1, 3, 3, 3]
    for labels in ([0, 1, 3], [3, 1, 0], [0, 1, 2, 3, 4], np.array([0, 1, 3])):
        for weights in WEIGHTS:
            expected = wk.weighted_kappa(y_true, y_pred, weights=weights, labels=labels)
            got = wk.weighted_kappa(
                convert(y_true), convert(y_pred), weights=weights, labels=labels
            )
            assert got == expected
        np.testing.assert_array_equal(
            wk.confusion_table(convert(y_true), convert(y_pred), labels=labels),
            wk.confusion_table(y_true, y_pred, labels=labels),
        )
    assert wk.qwk(convert(y_true), convert(y_pred), labels=[0, 1, 3]) == 0.7692307692307693


def test_string_or_float_labels_fall_back_to_host(_no_full_host_copy: list[int]) -> None:
    y = torch.tensor([0.5, 1.5, 2.5, 1.5])
    assert wk.qwk(y, y, labels=[0.5, 1.5, 2.5]) == 1.0
    assert max(_no_full_host_copy) == 4  # the host path copied the data: allowed for labels


def test_device_path_copies_only_the_table(mode: str, _no_full_host_copy: list[int]) -> None:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, 10_000)
    y_pred = np.clip(y_true + rng.integers(-1, 2, 10_000), 0, 4)
    for convert in CONVERTERS.values():
        for weights in WEIGHTS:
            got = wk.weighted_kappa(convert(y_true), convert(y_pred), weights=weights)
            assert got == wk.weighted_kappa(y_true, y_pred, weights=weights)
        table = wk.confusion_table(convert(y_true), convert(y_pred))
        np.testing.assert_array_equal(table, wk.confusion_table(y_true, y_pred))
        assert table.dtype == np.int64
    if mode == "device":
        assert max(_no_full_host_copy, default=0) <= 26  # K² + 1 at most, never n


def test_cpu_arrays_are_read_in_place(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tensor = torch.arange(6) % 3
    strict = xps.asarray(np.arange(6) % 3)
    for array in (tensor, strict):
        view = columns.host_view(array)
        assert view is not None and np.shares_memory(view, columns.to_host(array))
    assert np.shares_memory(columns.host_view(tensor), tensor.numpy())
    assert columns.host_view(tensor.to(torch.bfloat16)) is None  # no numpy bfloat16
    if mode == "view":  # the on-device encoder is not used at all
        monkeypatch.setattr(_array_api, "_encode", lambda *a, **k: pytest.fail("device path"))
    assert wk.qwk(tensor, tensor) == wk.qwk(strict, strict) == 1.0


def test_torch_details() -> None:
    y = torch.tensor([0.0, 1.0, 2.0, 2.0], requires_grad=True)
    assert wk.qwk(y, torch.tensor([0, 1, 2, 1])) == wk.qwk([0, 1, 2, 2], [0, 1, 2, 1])
    assert wk.qwk(torch.tensor([True, False, True]), torch.tensor([True, False, False])) == 0.4
    mixed = wk.qwk(torch.tensor([0, 1, 2]), [0, 1, 1])  # mixed kinds: the host path
    assert mixed == wk.qwk([0, 1, 2], [0, 1, 1])
    small = torch.tensor([0, 1, 2], dtype=torch.uint8), torch.tensor([0, 2, 2], dtype=torch.int16)
    assert wk.qwk(*small) == wk.qwk([0, 1, 2], [0, 2, 2])
    half = torch.tensor([0, 1, 2], dtype=torch.float16)
    assert wk.weighted_kappa(half, half, weights="linear") == 1.0
    brain = torch.tensor([0.0, 1.0, 2.0, 1.5], dtype=torch.bfloat16)
    assert wk.qwk(brain, brain, labels=[0.0, 1.0, 1.5, 2.0]) == 1.0  # host fallback of bfloat16
    assert wk.qwk(brain[:3], brain[:3]) == 1.0


def test_deterministic_count_matches_bincount() -> None:
    cells = torch.tensor([3, 0, 3, 8, 8, 8, 1])
    weights = torch.tensor([1.0, 2.0, 0.5, 1.0, 1.0, 1.0, 4.0], dtype=torch.float64)
    for w in (None, weights):
        fast = torch_count(cells, 9, w)
        sure = torch_count(cells, 9, w, deterministic=True)
        assert torch.equal(fast, sure)


def test_import_wkappa_imports_no_array_library() -> None:
    code = (
        "import sys, wkappa; "
        "bad = [m for m in ('torch', 'jax', 'cupy', 'array_api_strict') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("library", ["torch", "strict"])
def test_a_tiny_weight_is_not_lost_on_the_device(library: str) -> None:
    # Without a scatter-add the device table took each weighted cell as a difference of
    # prefix sums, which lost a weight of 4.5e-166 beside one of 1 (kappa nan, not 0).
    convert = CONVERTERS[library]
    y_true, y_pred, weight = [0.0, 0.0], [1.0, 0.0], [4.489230965438133e-166, 1.0]
    expected = wk.confusion_table(np.array(y_true), np.array(y_pred), sample_weight=weight)
    got = wk.confusion_table(convert(y_true), convert(y_pred), sample_weight=convert(weight))
    np.testing.assert_array_equal(got, expected)
    assert wk.weighted_kappa(convert(y_true), convert(y_pred), sample_weight=convert(weight)) == 0
