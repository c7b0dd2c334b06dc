"""String options: one rule for every keyword that takes one of a few strings.

A value that is not a ``str`` (a number, None, a numpy array, even a 0-d or one-element array
of a valid name) is refused with a WkappaTypeError that names the keyword and lists what it
takes; never numpy's "truth value of an array is ambiguous", and never accepted because
``array == 'name'`` happened to be true.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import wkappa as wk
import wkappa.frames as wkf
from wkappa.exceptions import WkappaError, WkappaTypeError

Y = [0, 1, 2, 1, 0, 2, 1, 2]
P = [0, 2, 2, 1, 0, 1, 1, 2]
C = [0, 1, 2, 2, 0, 1, 1, 2]
STRATA = [0, 0, 0, 0, 1, 1, 1, 1]
R = [[0, 1, 1], [1, 1, 2], [2, 2, 2], [0, 0, 1], [1, 2, 2], [2, 1, 2]]
X = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])
TABLE = [[5, 1, 0], [1, 4, 1], [0, 1, 6]]
COUNTS = [[1, 2, 0], [0, 3, 0], [2, 0, 1]]
FRAME = pd.DataFrame({"y": Y, "p": P, "c": C})


def _quiet(make: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


KAPPA = _quiet(lambda: wk.kappa_test(Y, P))
AGREEMENT = _quiet(lambda: wk.agreement(R))
STRATIFIED = _quiet(lambda: wk.stratified_kappa_test(Y, P, strata=STRATA))
ICC = wk.icc(X)
CCC = wk.ccc(X[:, 0], X[:, 1])
PAIRED = _quiet(lambda: wk.paired_kappa_test(Y, P, C, n_resamples=99, rng=0))
PANEL = _quiet(lambda: wk.rater_vs_panel(R, [0, 1, 2, 0, 1, 2]))
GROUPS = _quiet(lambda: wk.group_agreement(R[:3], R[3:]))
BY_FRAME = pd.DataFrame({"y": Y, "p": P, "g": STRATA})

# Entry point -> (call with one keyword, {keyword: a valid string for it}).
ENTRY_POINTS: dict[str, tuple[Callable[..., Any], dict[str, str]]] = {
    "kappa_test": (
        lambda **kw: wk.kappa_test(Y, P, **kw),
        {"alternative": "less", "nan_policy": "omit", "weights": "linear"},
    ),
    "kappa_test_from_table": (
        lambda **kw: wk.kappa_test_from_table(TABLE, **kw),
        {"alternative": "less", "weights": "linear"},
    ),
    "weighted_kappa": (
        lambda **kw: wk.weighted_kappa(Y, P, **kw),
        {"nan_policy": "omit", "zero_division": "raise", "weights": "linear"},
    ),
    "qwk": (lambda **kw: wk.qwk(Y, P, **kw), {"nan_policy": "omit", "zero_division": "raise"}),
    "kappa_from_table": (
        lambda **kw: wk.kappa_from_table(TABLE, **kw),
        {"zero_division": "raise", "weights": "linear"},
    ),
    "confusion_table": (lambda **kw: wk.confusion_table(Y, P, **kw), {"nan_policy": "omit"}),
    "KappaResult.confidence_interval": (KAPPA.confidence_interval, {"method": "score"}),
    "KappaResult.explain": (KAPPA.explain, {"method": "score"}),
    "BootstrapMethod": (lambda **kw: wk.BootstrapMethod(99, **kw), {"method": "bca"}),
    "agreement": (
        lambda **kw: wk.agreement(R, **kw),
        {
            "coefficient": "gwet",
            "weights": "linear",
            "nan_policy": "raise",
            "zero_division": "raise",
            "alternative": "less",
        },
    ),
    "agreement_from_counts": (
        lambda **kw: wk.agreement_from_counts(COUNTS, **kw),
        {
            "coefficient": "gwet",
            "weights": "linear",
            "zero_division": "raise",
            "alternative": "less",
        },
    ),
    "AgreementResult.confidence_interval": (
        AGREEMENT.confidence_interval,
        {"method": "jackknife"},
    ),
    "AgreementResult.explain": (AGREEMENT.explain, {"method": "jackknife"}),
    "krippendorff_alpha": (
        lambda **kw: wk.krippendorff_alpha(R, **kw),
        {
            "level": "ordinal",
            "nan_policy": "raise",
            "zero_division": "raise",
            "alternative": "less",
        },
    ),
    "rater_vs_panel": (
        lambda **kw: wk.rater_vs_panel(R, [0, 1, 2, 0, 1, 2], **kw),
        {
            "coefficient": "fleiss",
            "weights": "linear",
            "nan_policy": "raise",
            "alternative": "less",
        },
    ),
    "PanelComparison.confidence_interval": (
        PANEL.confidence_interval,
        {"method": "expanded-percentile"},
    ),
    "group_agreement": (
        lambda **kw: wk.group_agreement(R[:3], R[3:], **kw),
        {"weights": "linear", "nan_policy": "raise", "alternative": "less"},
    ),
    "GroupAgreementResult.confidence_interval": (
        GROUPS.confidence_interval,
        {"method": "jackknife-t"},
    ),
    "GroupAgreementResult.explain": (GROUPS.explain, {"method": "percentile"}),
    "paired_kappa_test": (
        lambda **kw: wk.paired_kappa_test(Y, P, C, n_resamples=99, **kw),
        {"weights": "linear", "nan_policy": "omit", "alternative": "less"},
    ),
    "PairedKappaResult.confidence_interval": (
        PAIRED.confidence_interval,
        {"method": "expanded-percentile"},
    ),
    "stratified_kappa_test": (
        lambda **kw: wk.stratified_kappa_test(Y, P, strata=STRATA, **kw),
        {
            "homogeneity": "bootstrap",
            "weights": "linear",
            "nan_policy": "omit",
            "alternative": "less",
            "pooling": "pairs",
        },
    ),
    "stratified_kappa_test_from_tables": (
        lambda **kw: wk.stratified_kappa_test_from_tables([TABLE, TABLE], **kw),
        {"homogeneity": "asymptotic", "alternative": "less", "pooling": "pairs"},
    ),
    "StratifiedKappaResult.confidence_interval": (
        STRATIFIED.confidence_interval,
        {"method": "asymptotic"},
    ),
    "icc": (
        lambda **kw: wk.icc(X, **kw),
        {"form": "C,1", "alternative": "less", "nan_policy": "raise"},
    ),
    "icc_all": (lambda **kw: wk.icc_all(X, **kw), {"alternative": "less", "nan_policy": "raise"}),
    "ICCResult.confidence_interval": (ICC.confidence_interval, {"method": "F"}),
    "ccc": (
        lambda **kw: wk.ccc(X[:, 0], X[:, 1], **kw),
        {"alternative": "less", "nan_policy": "omit"},
    ),
    "CCCResult.confidence_interval": (CCC.confidence_interval, {"method": "lin"}),
    "kappa_sample_size": (
        lambda **kw: wk.kappa_sample_size(kappa1=0.6, marginals=[0.3, 0.7], **kw),
        {"method": "max-variance", "alternative": "greater", "weights": "linear"},
    ),
    "kappa_power": (
        lambda **kw: wk.kappa_power(100, kappa1=0.6, marginals=[0.3, 0.7], **kw),
        {"alternative": "greater", "weights": "linear", "method": "max-variance"},
    ),
    "KappaAccumulator": (lambda **kw: wk.KappaAccumulator([0, 1, 2], **kw), {"weights": "linear"}),
    "KappaAccumulator.update": (
        lambda **kw: wk.KappaAccumulator([0, 1, 2]).update(Y, P, **kw),
        {"nan_policy": "omit"},
    ),
    "KappaAccumulator.kappa": (
        lambda **kw: wk.KappaAccumulator([0, 1, 2]).update(Y, P).kappa(**kw),
        {"zero_division": "raise"},
    ),
    "KappaAccumulator.result": (
        lambda **kw: wk.KappaAccumulator([0, 1, 2]).update(Y, P).result(**kw),
        {"alternative": "less"},
    ),
    "ICCAccumulator.result": (
        lambda **kw: wk.ICCAccumulator().update(X).result(**kw),
        {"form": "C,1", "alternative": "less"},
    ),
    "optimize_thresholds": (
        lambda **kw: wk.optimize_thresholds(Y, [0.1, 1.2, 2.1, 1.0, 0.2, 1.9, 1.1, 2.2], **kw),
        {"nan_policy": "omit", "weights": "linear"},
    ),
    "frames.kappa_test": (
        lambda **kw: wkf.kappa_test(FRAME, y_true="y", y_pred="p", **kw),
        {"alternative": "less", "nan_policy": "omit", "weights": "linear"},
    ),
    "frames.weighted_kappa": (
        lambda **kw: wkf.weighted_kappa(FRAME, y_true="y", y_pred="p", **kw),
        {"zero_division": "raise", "nan_policy": "omit"},
    ),
    "frames.agreement": (
        lambda **kw: wkf.agreement(FRAME, raters=["y", "p", "c"], **kw),
        {"coefficient": "gwet", "alternative": "less"},
    ),
    "frames.kappa_by_group": (
        lambda **kw: wkf.kappa_by_group(BY_FRAME, y_true="y", y_pred="p", by="g", **kw),
        {"method": "score", "weights": "linear", "nan_policy": "omit", "zero_division": "raise"},
    ),
    "frames.icc": (
        lambda **kw: wkf.icc(FRAME, raters=["y", "p", "c"], **kw),
        {"form": "C,1", "alternative": "less"},
    ),
}

CASES = [
    pytest.param(call, keyword, good, id=f"{name}-{keyword}")
    for name, (call, keywords) in ENTRY_POINTS.items()
    for keyword, good in keywords.items()
]


@pytest.mark.parametrize(("call", "keyword", "good"), CASES)
def test_a_valid_string_is_taken(call: Callable[..., Any], keyword: str, good: str) -> None:
    _quiet(lambda: call(**{keyword: good}))


@pytest.mark.parametrize("shape", ["one", "0-d", "two", "empty"])
@pytest.mark.parametrize(("call", "keyword", "good"), CASES)
def test_a_numpy_array_is_refused_naming_the_keyword(
    call: Callable[..., Any], keyword: str, good: str, shape: str
) -> None:
    value = {
        "one": np.array([good]),
        "0-d": np.array(good),
        "two": np.array([good, "x"]),
        "empty": np.array([], dtype=str),
    }[shape]
    if keyword == "weights" and shape == "empty":
        pytest.skip("`weights` also takes a matrix; an empty one is refused for its shape")
    with pytest.raises(WkappaTypeError, match=f"^`{keyword}` must be ") as caught:
        _quiet(lambda: call(**{keyword: value}))
    # The message lists the valid string the call was given above.
    assert repr(good) in str(caught.value) or keyword == "form"


def test_a_one_element_array_is_told_to_pass_the_string() -> None:
    with pytest.raises(WkappaTypeError, match=r"Hint: pass the string itself, method='score'"):
        KAPPA.confidence_interval(method=np.array(["score"]))


def test_an_unknown_string_stays_a_value_error() -> None:
    with pytest.raises(WkappaError) as caught:
        KAPPA.confidence_interval(method="wilson")
    assert not isinstance(caught.value, TypeError)
    assert "Hint: the small-sample interval is 'score'." in str(caught.value)


def test_homogeneity_and_method_read_arrays_alike() -> None:
    """`homogeneity` and `method` refuse a one-element array alike."""
    with pytest.raises(WkappaTypeError, match=r"^`homogeneity`"):
        wk.stratified_kappa_test(Y, P, strata=STRATA, homogeneity=np.array(["asymptotic"]))
    with pytest.raises(WkappaTypeError, match=r"^`method`"):
        KAPPA.confidence_interval(method=np.array(["score"]))


@pytest.mark.parametrize("value", [np.array(["logits"]), np.array(["probs", "x"]), 1])
def test_torch_mode_reads_arrays_as_the_other_options_do(value: Any) -> None:
    torch_module = pytest.importorskip("wkappa.torch")
    with pytest.raises(WkappaTypeError, match=r"^`mode` must be 'logits' or 'probs'; got "):
        torch_module.WeightedKappaLoss(3, mode=value)


def test_kappa_power_checks_method_before_reading_it() -> None:
    """A two-element array of `method` is refused by name, not by numpy's comparison."""
    with pytest.raises(WkappaTypeError, match=r"^`method` must be 'asymptotic', "):
        wk.kappa_power(100, kappa1=0.6, marginals=[0.3, 0.7], method=np.array(["simulation", "x"]))
