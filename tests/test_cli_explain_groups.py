"""``wkappa score --by COL --explain``: the overall kappa's explanation under "All pairs:",
then each group's under "--by COL = VALUE:", in the order of the table's rows; each group's is
what ``score --explain`` prints for that group's rows alone, and explains the interval the
table shows for the group. More groups than ``EXPLAINED_GROUPS`` are refused in one line
(exit 2) before anything is printed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from wkappa._cli import score
from wkappa._cli.app import main

_SITES = ("west", "north", "east", "south")  # not in sorted order: the table decides
_ROW = re.compile(r"^  (\S+) +\d+ .*?\[(-?\d+\.\d+), (-?\d+\.\d+)\]")
_EXPLAINED = re.compile(r"(\d+(?:\.\d+)?)% CI \[([^,\]]+), ([^\]]+)\]")


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20261128)
    n = 160
    truth = rng.integers(0, 4, n)
    return {
        "truth": truth,
        "a": np.clip(truth + rng.integers(-1, 2, n), 0, 3),
        "site": np.array(_SITES)[rng.integers(0, 4, n)],
        "task": rng.integers(0, 10, n),
    }


def _write(path: Path, data: dict[str, np.ndarray], rows: np.ndarray | None = None) -> str:
    names = list(data)
    index = np.arange(len(data["truth"])) if rows is None else np.flatnonzero(rows)
    lines = [",".join(names), *(",".join(str(data[k][i]) for k in names) for i in index)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory: pytest.TempPathFactory, data: dict[str, np.ndarray]) -> str:
    return _write(tmp_path_factory.mktemp("groups") / "ratings.csv", data)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def _blocks(output: str, by: str) -> tuple[str, list[tuple[str, str]]]:
    """The table, and each (heading, explanation) after it."""
    heading = re.compile(rf"\n\n(All pairs|--by {by} = [^\n]*):\n")
    parts = heading.split(output)
    table, rest = parts[0], parts[1:]
    return table, [(rest[i], rest[i + 1].rstrip("\n")) for i in range(0, len(rest), 2)]


def _table_rows(table: str) -> list[tuple[str, str, str]]:
    rows = table[table.index("By site:") :].splitlines()[2:]
    return [m.groups() for line in rows if (m := _ROW.match(line)) and m[1] != "(all)"]


_ARGV = ["--true", "truth", "--pred", "a"]


def test_each_group_is_explained_as_its_rows_alone(capsys, csv_file, data, tmp_path) -> None:
    output = _run(capsys, ["score", csv_file, *_ARGV, "--by", "site", "--explain"])
    table, blocks = _blocks(output, "site")
    order = [value for value, _, _ in _table_rows(table)]
    assert sorted(order) == sorted(_SITES)
    assert [heading for heading, _ in blocks] == [
        "All pairs",
        *(f"--by site = {value}" for value in order),
    ]
    overall = _run(capsys, ["score", csv_file, *_ARGV, "--explain"])
    assert blocks[0][1] == overall[overall.index("\n\nCategories") + 2 :].rstrip("\n")
    for value, (_, explanation) in zip(order, blocks[1:], strict=True):
        alone = _write(tmp_path / f"{value}.csv", data, data["site"] == value)
        # The group's categories are the whole file's: 0 to 3.
        bounds = ["--min-rating", "0", "--max-rating", "3"]
        printed = _run(capsys, ["score", alone, *_ARGV, *bounds, "--explain"])
        assert explanation == printed[printed.index("\n\nCategories") + 2 :].rstrip("\n")


@pytest.mark.parametrize(
    "interval",
    [
        ["--ci", "0.9"],
        ["--ci-method", "score"],
        ["--bootstrap", "99", "--seed", "4"],
        ["--bootstrap", "99"],  # one seed drawn for the run: the table's and the explanation's
        ["--cluster", "task"],
        ["--cluster", "task", "--bootstrap", "99", "--bootstrap-method", "bca"],
    ],
)
def test_each_groups_explanation_shows_its_rows_interval(capsys, csv_file, interval) -> None:
    argv = ["score", csv_file, *_ARGV, "--by", "site", *interval, "--explain", "--quiet"]
    table, blocks = _blocks(_run(capsys, argv), "site")
    rows = _table_rows(table)
    assert len(rows) == 4
    for (value, low, high), (heading, explanation) in zip(rows, blocks[1:], strict=True):
        assert heading == f"--by site = {value}"
        shown = _EXPLAINED.search(explanation)
        assert shown is not None, explanation
        assert shown[1] == ("90" if "0.9" in interval else "95")
        for printed, precise in ((low, shown[2]), (high, shown[3])):
            assert abs(float(printed) - float(precise)) <= 0.5e-4 + 1e-12, (heading, table)


def test_a_group_of_one_cluster_has_no_interval_in_its_explanation(capsys, data, tmp_path) -> None:
    """Its row says the interval is undefined; its explanation too, not a bootstrap of its
    one cluster (which would give the kappa twice)."""
    clustered = dict(data, task=np.where(data["site"] == "east", 99, data["task"]))
    path = _write(tmp_path / "one_cluster.csv", clustered)
    argv = ["score", path, *_ARGV, "--by", "site", "--cluster", "task", "--explain"]
    for interval in ([], ["--bootstrap", "99", "--seed", "1"]):
        _, blocks = _blocks(_run(capsys, [*argv, *interval, "--quiet"]), "site")
        explained = dict(blocks)
        assert "95% CI undefined" in explained["--by site = east"]
        assert "95% CI undefined" not in explained["--by site = west"]


def test_too_many_groups_are_refused_before_anything_is_printed(
    capsys, csv_file, monkeypatch
) -> None:
    argv = ["score", csv_file, *_ARGV, "--by", "site", "--explain"]
    monkeypatch.setattr(score, "EXPLAINED_GROUPS", 3)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(
        "wkappa: error: --explain with --by explains each group's kappa, and --by site has 4 "
        "groups: at most 3 are explained"
    )
    assert "Hint: drop --explain" in err
    # As many groups as the limit, or no --explain: as before.
    assert main(argv[:-1]) == 0
    monkeypatch.setattr(score, "EXPLAINED_GROUPS", 4)
    assert main(argv) == 0


def test_without_by_the_explanation_has_no_heading(capsys, csv_file) -> None:
    output = _run(capsys, ["score", csv_file, *_ARGV, "--explain"])
    assert "All pairs:" not in output and "--by" not in output
