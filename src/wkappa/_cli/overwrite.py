"""Output files that would overwrite an input: ``--report``, ``--plot`` and ``--out`` are
refused when they name the rating file or ``thresholds --apply``'s, and ``--out -``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exceptions import WkappaError

__all__ = ["check_outputs"]


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (a link or another spelling of it too)."""
    try:
        return Path(a).samefile(b)
    except OSError:  # one does not exist yet
        return Path(a).resolve() == Path(b).resolve()


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse a ``--report``, ``--plot`` or ``--out`` that would overwrite an input file
    (the FILE, or ``thresholds --apply``'s), and ``--out -`` (a file named '-': the
    graded file is written to a file, the command's output is on stdout)."""
    inputs = [
        (option, path)
        for option, path in (
            ("FILE", getattr(args, "file", None)),
            ("--apply", getattr(args, "apply", None)),
        )
        if isinstance(path, str) and path != "-"
    ]
    for name in ("report", "plot", "out"):
        path = getattr(args, name, None)
        if not isinstance(path, str):
            continue
        if name == "out" and path == "-":
            raise WkappaError(
                "--out - would write a file named '-' (the graded file is written to a file; "
                "the fit's output is on stdout). Hint: --out graded.csv."
            )
        for option, source in inputs:
            if _same_file(path, source):
                what = "the input file" if option == "FILE" else "the --apply file"
                raise WkappaError(
                    f"--{name} {path} is {what}, which it would overwrite. Hint: write to "
                    f"another file, such as --{name} {_other_name(path)}."
                )


def _other_name(path: str) -> str:
    """A file name next to ``path`` for the hint: ``r.html`` -> ``r-out.html``."""
    p = Path(path)
    return str(p.with_name(f"{p.stem}-out{p.suffix}"))
