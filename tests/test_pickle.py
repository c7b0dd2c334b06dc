"""Every public class pickles under its public name (``wkappa.X``), never under the private
module that defines it, and comes back the same."""

from __future__ import annotations

import doctest
import pickle
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import wkappa as wk
import wkappa.frames
import wkappa.gbdt
from wkappa import exceptions

TRUTH = [0, 1, 2, 3, 4, 2, 1, 0, 3, 4] * 3
PRED = [0, 1, 2, 3, 3, 2, 2, 0, 4, 4] * 3
OTHER = [1, 1, 2, 2, 4, 2, 1, 0, 3, 3] * 3
RATINGS = np.column_stack([TRUTH, PRED, OTHER])


def _gbdt_objective() -> Any:
    from wkappa.gbdt import qwk_objective

    return qwk_objective()


# One instance of every public class, by class name.
MAKERS: dict[str, Callable[[], Any]] = {
    "BootstrapMethod": lambda: wk.BootstrapMethod(99, method="bca", rng=1),
    "ConfidenceInterval": lambda: wk.ConfidenceInterval(0.1, 0.9, 0.9, "score"),
    "KappaAccumulator": lambda: wk.KappaAccumulator(labels=range(5)).update(TRUTH, PRED),
    "KappaResult": lambda: wk.kappa_test(TRUTH, PRED, alternative="greater"),
    "PairedKappaResult": lambda: wk.paired_kappa_test(TRUTH, PRED, OTHER, n_resamples=99, rng=1),
    "ThresholdResult": lambda: wk.optimize_thresholds(TRUTH, np.linspace(0, 4, 30)),
    "AgreementResult": lambda: wk.agreement(RATINGS, coefficient="conger"),
    "PanelComparison": lambda: wk.rater_vs_panel(
        RATINGS[:, :2], RATINGS[:, 2], n_resamples=99, rng=1
    ),
    "StratifiedKappaResult": lambda: wk.stratified_kappa_test(
        TRUTH, PRED, strata=np.arange(30) % 2
    ),
    "KappaPlan": lambda: wk.kappa_sample_size(kappa1=0.8, kappa0=0.6, marginals=[0.5, 0.5]),
    "ICCPlan": lambda: wk.icc_sample_size(icc1=0.8, icc0=0.6, n_raters=3),
    "CCCPlan": lambda: wk.ccc_sample_size(ccc1=0.95, ccc0=0.9, pearson=0.97, scale_shift=1),
    "ICCResult": lambda: wk.icc(RATINGS, form="A,1"),
    "CCCResult": lambda: wk.ccc(TRUTH, PRED),
    "ICCAccumulator": lambda: wk.ICCAccumulator().update(RATINGS),
    "QWKObjective": _gbdt_objective,
    "GroupAgreementResult": lambda: wk.group_agreement(RATINGS[:, :2], RATINGS[:, 1:]),
}


def _public_classes() -> list[tuple[ModuleType, str, type]]:
    found = []
    for module in (wk, wkappa.frames, wkappa.gbdt, exceptions):
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type):
                found.append((module, name, obj))
    return found


@pytest.mark.parametrize(
    "module, name, cls",
    _public_classes(),
    ids=[f"{m.__name__}.{n}" for m, n, _ in _public_classes()],
)
def test_public_classes_live_in_a_public_module(module: ModuleType, name: str, cls: type) -> None:
    assert not cls.__module__.startswith("wkappa._"), (
        f"{name} is {cls.__module__}.{name}: add it above publish(globals()) in {module.__name__}"
    )
    assert getattr(__import__(cls.__module__, fromlist=[name]), cls.__qualname__) is cls


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_pickle_round_trip_names_the_public_module(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        obj = MAKERS[name]()
    assert type(obj).__name__ == name
    data = pickle.dumps(obj)
    assert b"wkappa._" not in data
    again = pickle.loads(data)
    assert type(again) is type(obj)
    assert _state(again) == _state(obj)
    assert b"wkappa._" not in pickle.dumps(again)


def _state(obj: Any) -> Any:
    """What the object holds, comparable with ==."""
    if hasattr(obj, "to_dict"):
        with warnings.catch_warnings():  # (a sample result at kappa = 1 says so; not tested here)
            warnings.simplefilter("ignore", wk.PerfectAgreementWarning)
            return obj.to_dict()
    if not hasattr(obj, "__dict__"):
        return obj

    def plain(value: Any) -> Any:
        return value.tolist() if isinstance(value, np.ndarray) else repr(value)

    return {key: plain(value) for key, value in vars(obj).items()}


def test_every_public_class_has_a_pickle_case() -> None:
    classes = {
        name for _, name, cls in _public_classes() if cls.__module__ in ("wkappa", "wkappa.frames")
    }
    assert classes <= set(MAKERS)


def test_exceptions_pickle() -> None:
    error = pickle.loads(pickle.dumps(exceptions.WkappaError("`x` is bad")))
    assert isinstance(error, exceptions.WkappaError) and str(error) == "`x` is bad"


def test_method_doctests_are_still_found_in_the_defining_module() -> None:
    """publish() lists the class in its defining module's __test__, so doctest still finds
    the examples of its methods there."""
    from wkappa._stats import results

    names = {test.name for test in doctest.DocTestFinder().find(results) if test.examples}
    assert any(name.endswith("KappaResult.confidence_interval") for name in names)
    assert any(name.endswith(".PairedKappaResult") for name in names)  # its class example
