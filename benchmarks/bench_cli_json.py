"""``wkappa score --by COL --format json`` with many groups, against the text output of the
same run: a 1,000,000-row Parquet file, 5 categories, 1,000, 20,000 and 50,000 groups. The
command runs in this process (``wkappa._cli.main``, its output thrown away); text and JSON
are timed in turn (the order rotated each round, medians of 3 rounds after a warm-up), so
the ratio JSON / text is what writing JSON costs beyond the scoring both do. ``--ci-method``
chooses the interval of every group (``score`` solves each group's on its own).

Run: ``python benchmarks/bench_cli_json.py`` (a few minutes). ``--src DIR`` runs another source
tree (an older commit's ``src``, unpacked with ``git archive``) for a before/after
comparison; ``--groups 1000`` limits the group counts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", help="the src directory to run (default: the installed wkappa)")
    parser.add_argument("--groups", type=int, nargs="*", default=[1_000, 20_000, 50_000])
    parser.add_argument("--ci-method", default="asymptotic")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, args.src)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _timing import rotated
    from bench_cli_by import N_ROWS, groups_file  # the --by benchmark's file
    from wkappa._cli import main as cli

    print(
        f"# bench_cli_json  {N_ROWS:,} rows, 5 categories, --ci-method {args.ci_method}, "
        f"medians of {args.repeats} rotated rounds in one process"
    )
    with tempfile.TemporaryDirectory() as folder, open(os.devnull, "w") as sink:
        for n_groups in args.groups:
            path = Path(folder) / f"g{n_groups}.parquet"
            groups_file(path, n_groups)
            argv = ["score", str(path), "--true", "a", "--pred", "b", "--by", "g", "--quiet"]
            argv += ["--ci-method", args.ci_method]

            def run(fmt: str, argv: list[str] = argv) -> None:
                with contextlib.redirect_stdout(sink):
                    cli([*argv, "--format", fmt])

            took = rotated({"text": lambda: run("text"), "json": lambda: run("json")}, args.repeats)
            print(
                f"{n_groups:>7,} groups  text {took['text']:7.2f} s  json {took['json']:7.2f} s"
                f"  json / text {took['json'] / took['text']:5.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
