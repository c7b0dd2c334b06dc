"""Id columns of a CSV file on the command line (``--cluster``, ``--by``, a long file's
``--item`` and ``--rater``): an id is the file's spelling, so ``007`` and ``7`` are never merged
silently; two spellings of one number are refused in one line naming the option, the
spellings and the fix; ids that are plain numbers stay numbers (order, JSON types, the
library's cluster order); typed files (Parquet) are read as typed."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from cli_calls import json_output, refusal
from wkappa._cli import main
from wkappa.exceptions import FewClustersWarning

pl = pytest.importorskip("polars")


def _ratings(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n)
    return truth, np.clip(truth + rng.integers(-1, 2, n), 0, 3), rng.integers(0, 4, n)


def _wide(tmp_path, ids: list[str], name: str = "wide.csv") -> tuple[str, dict]:
    """A wide file whose column ``site`` cycles through ``ids`` (as written), 48 rows."""
    n = 48
    truth, a, b = _ratings(n)
    site = [ids[i % len(ids)] for i in range(n)]
    lines = ["site,truth,a,b", *(f"{site[i]},{truth[i]},{a[i]},{b[i]}" for i in range(n))]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path), {"site": np.array(site, dtype=object), "truth": truth, "a": a, "b": b}


CLUSTERED = {
    "score": ["--true", "truth", "--pred", "a"],
    "compare": ["--true", "truth", "--pred", "a", "--pred", "b", "--bootstrap", "99"],
    "agree": ["--raters", "truth,a,b"],
    "judge": ["--raters", "a,b", "--candidate", "truth", "--bootstrap", "99"],
}


@pytest.mark.parametrize("command", CLUSTERED)
def test_cluster_ids_007_and_7_are_refused(tmp_path, capsys, command):
    path, _ = _wide(tmp_path, ["007", "7", "8", "9"])
    err = refusal(capsys, [command, path, *CLUSTERED[command], "--cluster", "site"])
    assert "--cluster column 'site' has the ids '007' (row 1) and '7' (row 2)" in err
    assert "the same number written two ways" in err
    assert "Hint: write each id one way, or give the ids a non-digit prefix" in err


@pytest.mark.parametrize(
    ("ids", "pair"),
    [
        (["7", "7.0", "8"], ("'7' (row 1)", "'7.0' (row 2)")),
        (["8", "+8", "9"], ("'8' (row 1)", "'+8' (row 2)")),
        (["1e3", "1000", "9"], ("'1e3' (row 1)", "'1000' (row 2)")),
        (["x", "0.50", "0.5"], ("'0.50' (row 2)", "'0.5' (row 3)")),  # words do not hide it
        (["a", "-0", "0"], ("'-0' (row 2)", "'0' (row 3)")),
    ],
)
def test_any_two_spellings_of_one_number_are_refused(tmp_path, capsys, ids, pair):
    path, _ = _wide(tmp_path, ids)
    err = refusal(capsys, ["score", path, *CLUSTERED["score"], "--cluster", "site"])
    assert f"has the ids {pair[0]} and {pair[1]}, the same number" in err


def test_prefixed_ids_are_distinct_clusters(tmp_path, capsys):
    path, data = _wide(tmp_path, ["p007", "p7", "p8", "p9"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--cluster", "site"])
    with pytest.warns(FewClustersWarning, match="Only 4 clusters"):
        expected = wk.kappa_test(
            data["truth"], data["a"], weights="quadratic", cluster=data["site"]
        )
    assert document["n_clusters"] == 4
    assert document["standard_error"] == pytest.approx(expected.standard_error, rel=1e-12)


@pytest.mark.parametrize("command", CLUSTERED)
def test_zero_padded_ids_alone_are_their_own_clusters(tmp_path, capsys, command):
    path, _ = _wide(tmp_path, ["001", "002"])
    document = json_output(capsys, [command, path, *CLUSTERED[command], "--cluster", "site"])
    assert document["n_clusters"] == 2


def test_zero_padded_cluster_ids_give_the_python_apis_numbers(tmp_path, capsys):
    path, data = _wide(tmp_path, ["001", "002", "003", "010", "011"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--cluster", "site"])
    with pytest.warns(FewClustersWarning, match="Only 5 clusters"):
        expected = wk.kappa_test(
            data["truth"], data["a"], weights="quadratic", cluster=data["site"]
        )
    assert document["n_clusters"] == expected.n_clusters == 5
    assert document["standard_error"] == pytest.approx(expected.standard_error, rel=1e-12)


def test_surrounding_spaces_are_not_part_of_an_id(tmp_path, capsys):
    path, _ = _wide(tmp_path, [" 7", "7", "8 ", "8"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--cluster", "site"])
    assert document["n_clusters"] == 2


def test_plain_integer_cluster_ids_bootstrap_as_the_library_does(tmp_path, capsys):
    """Ids 2 and 10 are ordered as numbers, as the library orders the same integer ids, so a
    seeded cluster bootstrap draws the same clusters."""
    ids = ["2", "10", "3", "30", "4", "5"]
    path, data = _wide(tmp_path, ids)
    argv = ["compare", path, *CLUSTERED["compare"][:6], "--cluster", "site"]
    document = json_output(capsys, [*argv, "--bootstrap", "199", "--seed", "3"])
    clusters = data["site"].astype(np.int64)
    with pytest.warns(FewClustersWarning, match="Only 6 clusters"):
        expected = wk.paired_kappa_test(
            data["truth"], data["a"], data["b"], weights="quadratic", cluster=clusters,
            n_resamples=199, rng=3,
        )  # fmt: skip
    assert document["pvalue"] == expected.pvalue
    assert document["n_clusters"] == 6


def _groups(document: dict) -> list:
    return [group["group"] for group in document["groups"]]


def test_by_numeric_ids_keep_their_order_and_type(tmp_path, capsys):
    path, _ = _wide(tmp_path, ["10", "2", "1"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--by", "site"])
    assert _groups(document) == [1, 2, 10]
    assert main(["score", path, *CLUSTERED["score"], "--by", "site", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["1", "2", "10", "(all)"]


def test_by_decimal_ids_stay_numbers(tmp_path, capsys):
    path, _ = _wide(tmp_path, ["2.5", "1", "10.25"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--by", "site"])
    assert _groups(document) == [1.0, 2.5, 10.25]


def test_by_zero_padded_ids_keep_their_spelling_in_numeric_order(tmp_path, capsys):
    path, _ = _wide(tmp_path, ["010", "002", "9", "001"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--by", "site"])
    assert _groups(document) == ["001", "002", "9", "010"]


def test_by_007_and_7_is_refused(tmp_path, capsys):
    path, _ = _wide(tmp_path, ["007", "7", "8"])
    err = refusal(capsys, ["score", path, *CLUSTERED["score"], "--by", "site"])
    assert "--by column 'site' has the ids '007' (row 1) and '7' (row 2)" in err


def test_by_word_ids_sort_as_text(tmp_path, capsys):
    path, _ = _wide(tmp_path, ["b", "a10", "a2"])
    document = json_output(capsys, ["score", path, *CLUSTERED["score"], "--by", "site"])
    assert _groups(document) == ["a10", "a2", "b"]


def test_by_on_a_rating_column_reads_it_as_ratings(tmp_path, capsys):
    """``--by`` naming the ``--true`` column groups by the ratings as read (01 is 1)."""
    path = tmp_path / "self.csv"
    path.write_text("truth,pred\n01,1\n02,2\n01,2\n02,1\n")
    document = json_output(
        capsys, ["score", str(path), "--true", "truth", "--pred", "pred", "--by", "truth"]
    )
    assert _groups(document) == [1, 2]


# --------------------------------------------------------------------------- long layout


def _long(tmp_path, items: list[str], raters=("r1", "r2", "r3")) -> str:
    """A long file: every item rated by every rater."""
    rng = np.random.default_rng(1)
    lines = ["item,rater,grade"]
    for item in items:
        level = rng.integers(0, 4)
        for rater in raters:
            lines.append(f"{item},{rater},{np.clip(level + rng.integers(-1, 2), 0, 3)}")
    path = tmp_path / "long.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


LONG = ["--item", "item", "--rater", "rater", "--rating", "grade"]


@pytest.mark.parametrize(
    ("command", "extra"),
    [("agree", []), ("icc", []), ("judge", ["--candidate", "r1", "--bootstrap", "99"])],
)
def test_long_item_ids_with_leading_zeros_are_their_own_items(tmp_path, capsys, command, extra):
    items = [f"{i:03d}" for i in range(1, 13)]
    path = _long(tmp_path, items, raters=("r1", "r2", "r3", "r4"))
    document = json_output(capsys, [command, path, *LONG, *extra])
    assert document["n_items"] == 12
    path = _long(tmp_path, [*items, "7"], raters=("r1", "r2", "r3", "r4"))
    err = refusal(capsys, [command, path, *LONG, *extra])
    assert "--item column 'item' has the ids '007' (row 25) and '7' (row 49)" in err


@pytest.mark.parametrize("command", ["agree", "icc"])
def test_long_rater_ids_07_and_7_are_refused(tmp_path, capsys, command):
    path = _long(tmp_path, [str(i) for i in range(10)], raters=("07", "7", "8"))
    err = refusal(capsys, [command, path, *LONG])
    assert "--rater column 'rater' has the ids '07' (row 1) and '7' (row 2)" in err


def test_long_zero_padded_rater_ids_name_the_candidate_as_written(tmp_path, capsys):
    path = _long(tmp_path, [str(i) for i in range(12)], raters=("007", "008", "009"))
    argv = ["judge", path, *LONG, "--candidate", "007", "--bootstrap", "99"]
    assert json_output(capsys, argv)["n_items"] == 12


def test_long_agree_zero_padded_items_match_the_library(tmp_path, capsys):
    items = [f"{i:03d}" for i in range(1, 13)]
    path = _long(tmp_path, items)
    frame = pl.read_csv(path, schema_overrides={"item": pl.String})
    matrix = frame.pivot(on="rater", index="item", values="grade").select("r1", "r2", "r3")
    document = json_output(capsys, ["agree", path, *LONG])
    expected = wk.agreement(matrix.to_numpy())
    assert document["statistic"] == pytest.approx(expected.statistic, abs=1e-15)


# --------------------------------------------------------------------------- typed files


def test_parquet_ids_are_read_as_typed(tmp_path, capsys):
    _, data = _wide(tmp_path, ["007", "7", "8", "9"])
    where = tmp_path / "ids.parquet"
    pl.DataFrame({k: list(v) for k, v in data.items()}).write_parquet(where)
    document = json_output(capsys, ["score", str(where), *CLUSTERED["score"], "--cluster", "site"])
    assert document["n_clusters"] == 4  # text ids: '007' and '7' are two
    as_numbers = pl.read_parquet(where).with_columns(pl.col("site").cast(pl.Int64))
    as_numbers.write_parquet(where)
    document = json_output(capsys, ["score", str(where), *CLUSTERED["score"], "--cluster", "site"])
    assert document["n_clusters"] == 3  # integer ids: 7 is one


@pytest.mark.parametrize("command", ["agree", "icc", "judge"])
def test_long_rater_ids_that_differ_only_by_case_are_refused(tmp_path, capsys, command):
    """'Dr. Jones' and 'dr. jones' were two raters, the second rating a few items only."""
    path = _long(tmp_path, [str(i) for i in range(10)], raters=("Dr. Jones", "dr. jones", "B"))
    extra = ["--candidate", "B", "--bootstrap", "99"] if command == "judge" else []
    err = refusal(capsys, [command, path, *LONG, *extra])
    assert (
        "--rater column 'rater' has the ids 'Dr. Jones' (row 1) and 'dr. jones' (row 2), "
        "which differ only by case: one id or two is ambiguous. Hint: write each id one way "
        "in the file."
    ) in err


def test_by_groups_that_differ_only_by_case_are_refused(tmp_path, capsys):
    path, _ = _wide(tmp_path, ["Lyon", "Paris", "lyon"])
    err = refusal(capsys, ["score", path, "--true", "truth", "--pred", "a", "--by", "site"])
    assert "--by column 'site' has the ids 'Lyon' (row 1) and 'lyon' (row 3)" in err
