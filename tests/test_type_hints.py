"""``typing.get_type_hints`` resolves on every public function, class and method: pydantic,
typer, beartype and sphinx-autodoc-typehints read the annotations at run time, and a name
imported only for the type checker (or a class whose ``__module__`` is the public module,
not the one defining it) makes that a NameError."""

from __future__ import annotations

import importlib.util
import inspect
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_MAKE_API = Path(__file__).resolve().parents[1] / "docs" / "scripts" / "make_api.py"


def _public_modules() -> list[str]:
    """The modules of the API reference (``docs/scripts/make_api.py``), so that a new public
    module is checked without editing this test."""
    spec = importlib.util.spec_from_file_location("make_api", _MAKE_API)
    assert spec is not None and spec.loader is not None
    make_api = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_api)
    return list(make_api.MODULES)


def _annotated(module: Any) -> Iterator[tuple[str, Any]]:
    """Every public function, class and method (wkappa's own, inherited ones included) of a
    module's ``__all__``."""
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isroutine(obj):
            yield name, obj
        if not isinstance(obj, type):
            continue
        yield name, obj
        for klass in obj.__mro__:
            if not klass.__module__.startswith("wkappa"):
                continue
            for attr, value in vars(klass).items():
                if attr.startswith("_") and attr not in {"__init__", "__new__", "__call__"}:
                    continue
                if isinstance(value, staticmethod | classmethod):
                    value = value.__func__
                if isinstance(value, property):
                    value = value.fget
                if inspect.isfunction(value):
                    yield f"{name}.{attr}", value


@pytest.mark.parametrize("module_name", _public_modules())
def test_get_type_hints_resolves_on_every_public_name(module_name: str) -> None:
    module = pytest.importorskip(module_name)
    failures = []
    checked = 0
    for name, obj in _annotated(module):
        try:
            typing.get_type_hints(obj)
        except Exception as exc:  # a NameError names what is missing at run time
            failures.append(f"{module_name}.{name}: {exc!r}")
        checked += 1
    assert checked > 0
    assert failures == [], "\n".join(failures)


def test_hints_name_the_classes_they_mean() -> None:
    import wkappa

    hints = typing.get_type_hints(wkappa.kappa_power)
    assert hints["return"] is wkappa.KappaPlan
    rng = typing.get_args(hints["rng"])
    assert int in rng and type(None) in rng
    assert {"Generator", "SeedSequence", "BitGenerator", "RandomState"} <= {
        getattr(t, "__name__", "") for t in rng
    }
    fields = typing.get_type_hints(wkappa.KappaResult)
    assert typing.get_args(fields["alternative"]) == ("two-sided", "greater", "less")


def test_the_hints_do_not_import_numpy_random_with_wkappa() -> None:
    """The ``rng=`` hint names numpy.random's classes without importing numpy.random."""
    script = "import sys, wkappa; print('numpy.random' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "False"


def test_the_frames_hints_load_the_subjects_on_first_use() -> None:
    """``import wkappa.frames`` does not load the ICC, CCC and panel modules its hints name;
    resolving the hints does."""
    pytest.importorskip("wkappa.frames")
    script = """
import sys, typing
import wkappa, wkappa.frames as wkf
subjects = ("intraclass", "concordance", "panel")
def loaded():
    return sorted(m for m in sys.modules if m.split(".")[-1].startswith(subjects))
print(loaded())
hints = [typing.get_type_hints(f)["return"] for f in (wkf.icc, wkf.ccc, wkf.rater_vs_panel)]
assert hints == [wkappa.ICCResult, wkappa.CCCResult, wkappa.PanelComparison], hints
print(len(loaded()) > 0)
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.split("\n")[:2] == ["[]", "True"], result.stdout
