"""The public home of the classes: pickles and reprs name ``wkappa.X``, not the private module
that defines X."""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["publish"]


def publish(namespace: dict[str, Any]) -> None:
    """Give every class in a public module's ``__all__`` that module as its ``__module__``.

    Call it at the end of the public module (``publish(globals())``), after its last import.
    A pickle stores a class as ``module.qualname``, so ``wkappa.KappaResult`` pickles keep
    loading whichever private module defines the class. The defining module lists the class
    in its ``__test__`` so that doctest still finds the docstrings of its methods there
    (doctest only looks at objects whose ``__module__`` is the module it searches).
    """
    name = namespace["__name__"]
    for public in namespace["__all__"]:
        obj = namespace[public]
        if isinstance(obj, type) and obj.__module__.startswith("wkappa._"):
            home = sys.modules[obj.__module__]
            tests = home.__dict__.setdefault("__test__", {})
            tests[obj.__qualname__] = obj
            obj.__module__ = name
