"""How often a source is read: the counters of the tests that a layout reads its source once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def counted_scan(source: Any) -> tuple[Any, list[int]]:
    """A scan of the polars frame ``source`` and the heights of the batches read from it
    (each read of the scan adds its rows to the list)."""
    read: list[int] = []

    def count(batch: Any) -> Any:
        read.append(batch.height)
        return batch

    return source.lazy().map_batches(count, schema=source.schema, streamable=True), read


def recorded(monkeypatch: Any, owner: Any, name: str, size: Callable[[Any], int]) -> list[int]:
    """``size`` of every result of the method ``owner.name`` called from now on."""
    sizes: list[int] = []
    method = getattr(owner, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        out = method(self, *args, **kwargs)
        sizes.append(size(out))
        return out

    monkeypatch.setattr(owner, name, counted)
    return sizes


def file_scans(monkeypatch: Any, path: Path) -> list[str]:
    """The plans of the polars LazyFrames collected from now on that scan the file ``path``."""
    import polars as pl

    scans: list[str] = []
    collect = pl.LazyFrame.collect

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        plan = self.explain(optimized=False)
        if path.name in plan:
            scans.append(plan)
        return collect(self, *args, **kwargs)

    monkeypatch.setattr(pl.LazyFrame, "collect", counted)
    return scans
