"""A progress bar for reading a large rating file, fed by polars' streaming engine."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core import import_optional
from .sniff import compressed

if TYPE_CHECKING:
    from .io import Source

__all__ = ["PROGRESS_MIN_BYTES", "estimate_rows", "progress_bar"]

# Reads of files below this size finish too fast for a progress bar to help.
PROGRESS_MIN_BYTES = 8 * 2**20


@contextmanager
def progress_bar(source: Source, enabled: bool) -> Iterator[Callable[[Any], Any] | None]:
    """A rich progress bar on stderr fed by the streaming engine's batches, or None."""
    if not enabled or source.size is None or source.size < PROGRESS_MIN_BYTES:
        yield None
        return
    rich_progress = import_optional("rich.progress", "cli")
    rich_console = import_optional("rich.console", "cli")
    total = estimate_rows(source)
    bar = rich_progress.Progress(
        rich_progress.TextColumn("reading {task.description}"),
        rich_progress.BarColumn(),
        rich_progress.TextColumn("{task.completed:,} rows"),
        rich_progress.TimeElapsedColumn(),
        console=rich_console.Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(Path(source.name).name, total=total)

    def tick(batch: Any) -> Any:
        bar.update(task, advance=batch.height)
        return batch

    with bar:
        yield tick
        bar.update(task, total=bar.tasks[0].completed)


def estimate_rows(source: Source) -> int | None:
    """Rows in the file: exact from Parquet/IPC metadata, estimated for text files."""
    pl = import_optional("polars", "cli")
    assert source.path is not None and source.size is not None
    if source.fmt in ("parquet", "ipc"):
        return int(source.scan().select(pl.len()).collect().item())
    if compressed(source.path):
        return None
    with open(source.path, "rb") as handle:
        head = handle.read(1 << 16)
    lines = head.count(b"\n")
    return max(int(source.size / (len(head) / lines)), 1) if lines > 1 else None
