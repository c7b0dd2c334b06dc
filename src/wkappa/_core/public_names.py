"""The public home of the classes: pickles and reprs name ``wkappa.X``, not the private module
that defines X."""

from __future__ import annotations

import inspect
import sys
from typing import Any, ForwardRef

__all__ = ["pin_loaded", "publish"]

# Public names that were not loaded yet when their public module was published (the subjects
# ``wkappa._stats`` loads on first use): name -> the public module's name.
_PENDING: dict[str, str] = {}


def _pin(obj: type, public_module: str) -> None:
    home = sys.modules[obj.__module__]
    tests = home.__dict__.setdefault("__test__", {})
    tests[obj.__qualname__] = obj
    # ``typing.get_type_hints`` reads a class's string annotations in the module its
    # ``__module__`` names: they become forward references to the defining module, resolved
    # (as before) only when someone asks for them.
    obj.__annotations__ = {
        field: ForwardRef(hint, is_argument=False, module=home.__name__)
        if isinstance(hint, str)
        else hint
        for field, hint in inspect.get_annotations(obj).items()
    }
    obj.__module__ = public_module


def publish(namespace: dict[str, Any]) -> None:
    """Give every class in a public module's ``__all__`` that module as its ``__module__``.

    Call it at the end of the public module (``publish(globals())``), after its last import.
    A pickle stores a class as ``module.qualname``, so ``wkappa.KappaResult`` pickles keep
    loading whichever private module defines the class. The defining module lists the class
    in its ``__test__`` so that doctest still finds the docstrings of its methods there
    (doctest only looks at objects whose ``__module__`` is the module it searches). A name
    the module does not hold yet (loaded on first use) is pinned by :func:`pin_loaded` when
    its defining module loads.
    """
    name = namespace["__name__"]
    for public in namespace["__all__"]:
        if public not in namespace:
            _PENDING[public] = name
            continue
        obj = namespace[public]
        if isinstance(obj, type) and obj.__module__.startswith("wkappa._"):
            _pin(obj, name)


def pin_loaded(namespace: dict[str, Any]) -> None:
    """:func:`publish` the classes of a module just loaded on first use (its ``vars()``)."""
    for public, public_module in _PENDING.items():
        obj = namespace.get(public)
        if isinstance(obj, type) and obj.__module__.startswith("wkappa._"):
            _pin(obj, public_module)
