"""The text of ``--format json`` is what ``json.dumps(indent=2)`` writes with each list of
scalars on one line, value by value; ``json_text`` writes it a column at a time (all the
groups of ``wkappa score --by`` together). These tests hold the two to the same bytes."""

from __future__ import annotations

import datetime
import enum
import json
import math
import re
from typing import Any

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main, output
from wkappa._cli.json_text import json_text
from wkappa._stats import json_value

pytest.importorskip("polars")


def one_by_one(document: Any) -> str:
    """The reference: ``json_value`` of the whole document, each list of scalars written by
    its own ``json.dumps`` call, the rest by ``json.dumps(indent=2)``."""
    leaves: list[str] = []

    def collapse(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: collapse(v) for k, v in value.items()}
        if isinstance(value, list):
            if all(not isinstance(v, (list, dict)) for v in value):
                leaves.append(json.dumps(value, allow_nan=False))
                return f"\0{len(leaves) - 1}\0"
            return [collapse(v) for v in value]
        return value

    text = json.dumps(collapse(json_value(document)), indent=2, allow_nan=False)
    return re.sub(r'"\\u0000(\d+)\\u0000"', lambda m: leaves[int(m.group(1))], text)


class Grade(enum.IntEnum):
    LOW = 1


class Interval:
    def to_dict(self) -> dict[str, Any]:
        return {"low": 0.5, "high": None, "pair": (1, [2, {"a": [3]}]), "rows": [[1], [2.5]]}


def _group(index: int) -> dict[str, Any]:
    table = np.arange(9, dtype=np.int64).reshape(3, 3) + index
    expected = table / 7.0
    if index % 3 == 0:
        expected[0, 1] = np.nan
    return {
        "group": [index, f"g{index}", np.int64(index), 2.5, None, True][index % 6],
        "statistic": np.float64(index / 7) if index % 4 else np.float64(np.nan),
        "pvalue": [np.float64(0.5), math.inf, 1e-300, -0.0][index % 4],
        "n": index if index % 2 else float(index) + 0.5,
        "confidence_interval": {"low": np.float64(-1.0), "high": np.float32(0.25)},
        "labels": ["a", "b", "c"] if index % 5 else [1, 2, 3],
        "table": table,
        "expected_table": expected,
        **({"n_clusters": np.int64(4)} if index % 7 == 0 else {}),
        "notes": [] if index % 2 else [{"x": index}],
    }


DOCUMENTS = [
    {"groups": [_group(i) for i in range(60)]},
    {"a": {}, "b": [], "c": [[]], "d": [{}], "e": [[], [1, 2]], "f": [[1], "x", {"y": []}]},
    {1: "one", False: "false", None: np.float16(1.5), 2.5: [np.nan], 'ü"\n': "é\\ \u2028"},
    {"mixed": [[1, [2]], [3], [[4], [5.5, None]], [{"k": 1}, [True]]]},
    {"arrays": [np.array([1, 2], dtype=np.uint8), np.array([1.0, np.inf]), np.array(["a"])]},
    {"objects": np.array([datetime.date(2024, 1, 2), None, 1.5], dtype=object)},
    {"scalars": [np.array(3.5), np.array(np.nan), np.bool_(True), Grade.LOW, np.str_("s")]},
    {"rows": [{"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": 1}, {1: 1}, {True: 1}, {"a": [1]}]},
    {"to_dict": [Interval(), Interval()], "ci": wk.ConfidenceInterval(0.1, math.nan, 0.9)},
    {"tables": [np.zeros((2, 2)), np.ones((2, 2), dtype=np.int32), np.zeros((3, 2))]},
    {"deep": [[[[1.0, 2.0]], [[3.0]]], [[[np.nan]]]], "empty": np.zeros((0, 3))},
    {"label": datetime.datetime(2024, 5, 6, 7, 8), "range": range(3), "tuple": (1, "a")},
    {
        f"shape {shape}": [
            np.arange(math.prod(shape), dtype=float).reshape(shape) + i for i in (0, 1)
        ]
        for shape in [(3,), (0,), (2, 0), (0, 2), (2, 3, 4), (2, 0, 2), (1, 1, 1, 2)]
    },
    {"rows": [{"t": np.full((2, 2), np.inf), "i": np.eye(2, dtype=np.int64)} for _ in range(3)]},
]


@pytest.mark.parametrize("document", DOCUMENTS, ids=range(len(DOCUMENTS)))
def test_a_column_at_a_time_is_one_value_at_a_time(document) -> None:
    assert json_text(document) == one_by_one(document)


def test_what_json_refuses_is_refused_alike() -> None:
    class Raw:
        def to_dict(self) -> dict[str, Any]:
            return {"nan": math.nan}

    for document in ({"bad": Raw()}, {"key": {(1, 2): 3}}):
        with pytest.raises((ValueError, TypeError)) as expected:
            one_by_one(document)
        with pytest.raises(expected.type):
            json_text(document)


@pytest.fixture(scope="module")
def ratings(tmp_path_factory):
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 4, 400)
    rows = ["g,a,b,c,w"]
    for i, level in enumerate(truth):
        a, b = (min(3, max(0, level + d)) for d in rng.integers(-1, 2, 2))
        rows.append(f"g{i % 23},{a},{b},{i % 37},{1 + i % 4}")
    rows += [f"same,2,2,{i},1" for i in range(6)] + ["single,1,3,0,1"]  # undefined kappas
    rows += [f"half,0,{i % 2},{i},1" for i in range(8)]
    path = tmp_path_factory.mktemp("json_text") / "ratings.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


RUNS = [
    [],
    ["--cluster", "c"],
    ["--alternative", "greater", "--kappa0", "0.2", "--ci-method", "score"],
    ["--bootstrap", "99", "--seed", "1", "--weights", "unweighted"],
    ["--bootstrap", "99", "--seed", "1", "--bootstrap-method", "bca", "--cluster", "c"],
    ["--weight-col", "w", "--ci-method", "fisher-z", "--alternative", "less"],
]


@pytest.mark.parametrize("extra", RUNS, ids=[" ".join(run) or "plain" for run in RUNS])
def test_score_by_json_is_the_one_by_one_text(extra, ratings, capsys, monkeypatch) -> None:
    argv = ["score", str(ratings), "--true", "a", "--pred", "b", "--by", "g", "--quiet"]
    argv += ["--format", "json", *extra]
    assert main(argv) == 0
    batched = capsys.readouterr().out
    monkeypatch.setattr(output, "json_text", one_by_one)
    assert main(argv) == 0
    assert batched == capsys.readouterr().out
    groups = json.loads(batched)["groups"]
    assert len(groups) == 26 and {g["group"] for g in groups} >= {"same", "single", "half"}
    assert any(g["statistic"] is None for g in groups)  # undefined groups are in it
