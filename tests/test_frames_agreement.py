"""wkappa.frames.agreement: wide and long layouts on every frame library, by= groups."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning

pl = pytest.importorskip("polars")
wkf = pytest.importorskip("wkappa.frames")

rng = np.random.default_rng(12)
N = 300
TRUTH = rng.integers(1, 5, N)
WIDE = np.column_stack(
    [np.where(rng.random(N) < 0.75, TRUTH, rng.integers(1, 5, N)) for _ in range(4)]
).astype(float)
WIDE[rng.random(WIDE.shape) < 0.1] = np.nan
GROUP = rng.integers(0, 3, N)


def wide_columns() -> dict[str, list]:
    columns = {f"r{g}": [None if np.isnan(v) else int(v) for v in WIDE[:, g]] for g in range(4)}
    return {"group": GROUP.tolist(), **columns}


def long_columns() -> dict[str, list]:
    kept = [(i, g) for i in range(N) for g in range(4) if not np.isnan(WIDE[i, g])]
    return {
        "group": [int(GROUP[i]) for i, _ in kept],
        "item": [i for i, _ in kept],
        "coder": [f"c{g}" for _, g in kept],
        "grade": [int(WIDE[i, g]) for i, g in kept],
    }


def wide_polars() -> pl.DataFrame:
    return pl.DataFrame(wide_columns())


RATERS = ["r0", "r1", "r2", "r3"]
INTEGERS = {name: "int64" for name in RATERS}


@pytest.mark.parametrize("coefficient", ["fleiss", "conger", "gwet", "krippendorff"])
def test_wide_matches_arrays(frame_library, coefficient):
    frame = frame_library.frame(wide_columns(), dtypes=INTEGERS)
    expected = wk.agreement(WIDE, coefficient=coefficient, weights="quadratic")
    result = wkf.agreement(frame, raters=RATERS, coefficient=coefficient, weights="quadratic")
    assert result.statistic == pytest.approx(expected.statistic, abs=1e-13)
    assert result.standard_error == pytest.approx(expected.standard_error, abs=1e-13)
    assert result.n_items == expected.n_items


@pytest.mark.parametrize("coefficient", ["fleiss", "conger"])
def test_long_matches_wide_and_by_groups(frame_library, coefficient):
    expected = wk.agreement(WIDE, coefficient=coefficient)
    long = wkf.agreement(
        frame_library.frame(long_columns()),
        item="item",
        rater="coder",
        rating="grade",
        coefficient=coefficient,
    )
    assert long.statistic == pytest.approx(expected.statistic, abs=1e-13)
    wide = frame_library.frame(wide_columns(), dtypes=INTEGERS)
    grouped = wkf.agreement(wide, raters=RATERS, by="group", coefficient=coefficient)
    assert sorted(grouped) == [0, 1, 2]
    for value, result in grouped.items():
        part = wk.agreement(WIDE[GROUP == value], coefficient=coefficient, min_rating=1,
                            max_rating=4)  # fmt: skip
        assert result.statistic == pytest.approx(part.statistic, abs=1e-13)


def test_frame_errors():
    with pytest.raises(wk.WkappaError, match="`raters` names the column 'zz', which is not"):
        wkf.agreement(wide_polars(), raters=["r0", "zz"])
    with pytest.raises(wk.WkappaError, match="Give either"):
        wkf.agreement(wide_polars())
    frame = pl.DataFrame({"item": [1, 1, 2], "coder": ["a", "a", "b"], "grade": [1, 2, 1]})
    with pytest.raises(wk.WkappaError, match="more than once"):
        wkf.agreement(frame, item="item", rater="coder", rating="grade")


def test_long_layout_orders_raters_by_name(frame_library):
    """The long layout's raters (pairwise() rows, leave_one_rater_out() entries) are sorted
    by name, integer names numerically, whatever order the rows come in."""
    names = ["10", "9", "b", "a"]  # sorted: 9, 10, a, b
    order = [1, 0, 3, 2]  # column g of WIDE belongs to names[g]; this is their sorted order
    kept = [(i, g) for i in reversed(range(N)) for g in (2, 0, 3, 1) if not np.isnan(WIDE[i, g])]
    frame = frame_library.frame(
        {
            "item": [i for i, _ in kept],
            "coder": [names[g] for _, g in kept],
            "grade": [int(WIDE[i, g]) for i, g in kept],
        }
    )
    result = wkf.agreement(frame, item="item", rater="coder", rating="grade")
    expected = wk.agreement(WIDE[:, order])
    assert np.allclose(result.pairwise(), expected.pairwise())
    assert np.allclose(result.leave_one_rater_out(), expected.leave_one_rater_out())


@pytest.mark.parametrize(
    ("function", "raters", "extra"),
    [
        ("agreement", ["r0", "r0", "r1"], {}),
        ("rater_vs_panel", ["r0", "r1", "r1"], {"candidate": "r2", "n_resamples": 99}),
        ("icc", ["r0", "r1", "r0"], {}),
        ("ccc", ["r2", "r2"], {}),
    ],
)
def test_a_rater_column_named_twice_is_refused(frame_library, function, raters, extra):
    """`raters` naming one column twice was a raw pandas ValueError or polars DuplicateError
    (wkappa icc / agree: an internal error; wkappa judge counted the column twice)."""
    frame = frame_library.frame(wide_columns(), dtypes=INTEGERS)
    with pytest.raises(wk.WkappaError, match=r"`raters` names the column 'r\d' twice"):
        getattr(wkf, function)(frame, raters=raters, **extra)


@pytest.mark.parametrize("missing", ["item", "coder"])
@pytest.mark.parametrize("function", ["agreement", "icc"])
def test_long_layout_refuses_a_rating_without_item_or_rater(frame_library, missing, function):
    """A null item id made an item of its own, a null rater id a rater named "null" (the
    ICC, Fleiss' kappa and n_raters changed without a word; wkappa judge: AttributeError)."""
    columns = long_columns()
    columns[missing][3] = None
    columns["grade"] = [float(g) for g in columns["grade"]]
    frame = frame_library.frame(columns)
    parameter = "item" if missing == "item" else "rater"
    with pytest.raises(wk.WkappaError, match=f"`{parameter}` column '{missing}' has a missing id"):
        getattr(wkf, function)(frame, item="item", rater="coder", rating="grade")


@pytest.mark.parametrize("layout", ["wide", "long"])
def test_a_missing_by_key_is_a_group_of_its_own_as_in_kappa_by_group(frame_library, layout) -> None:
    """One rule for a missing `by` value in wkappa.frames, that of SQL's and polars' GROUP BY:
    its rows form one more group (keyed None, after the others); agreement refused it."""
    y, p, q = [0, 1, 2, 1, 0, 2, 1, 1], [0, 1, 2, 2, 0, 2, 1, 0], [0, 1, 1, 2, 0, 2, 1, 1]
    groups = ["a", "a", "a", "b", "b", "b", None, None]
    if layout == "wide":
        frame = frame_library.frame({"y": y, "p": p, "q": q, "g": groups})
        found = wkf.agreement(frame, raters=["y", "p", "q"], by="g")
    else:
        long = {"item": [], "who": [], "r": [], "g": []}
        for i, row in enumerate(zip(y, p, q, strict=True)):
            for who, rating in zip("ypq", row, strict=True):
                for key, value in (("item", i), ("who", who), ("r", rating), ("g", groups[i])):
                    long[key].append(value)
        found = wkf.agreement(
            frame_library.frame(long), item="item", rater="who", rating="r", by="g"
        )
    assert list(found) == ["a", "b", None]
    ratings = np.column_stack([y, p, q])
    for key, rows in (("a", slice(0, 3)), ("b", slice(3, 6)), (None, slice(6, 8))):
        expected = wk.agreement(ratings[rows], labels=[0, 1, 2])
        assert found[key].statistic == expected.statistic
        assert found[key].n_items == expected.n_items
    wide = frame_library.frame({"y": y, "p": p, "g": groups})
    # The None group's two pairs have y_true alike: kappa 0 with a standard error of 0.
    with (
        pytest.warns(UndefinedKappaWarning, match="undefined in 1 of 3 groups"),
        pytest.warns(UndefinedKappaWarning, match="test of kappa = 0 is undefined"),
        pytest.warns(wk.PerfectAgreementWarning, match="^by='g' group 'a': "),
    ):
        grouped = wkf.kappa_by_group(wide, y_true="y", y_pred="p", by="g")
    table = frame_library.to_pandas(grouped)
    assert table["g"].tolist()[:2] == ["a", "b"] and table["g"].isna().tolist()[2]
    assert table["n"].tolist() == [3, 3, 2]


def test_a_groups_warning_names_its_group() -> None:
    """Each group's warning (here an undefined Fleiss' kappa: every rating in one category)
    names its group, as `wkappa score --by` names it, at the caller's line."""
    df = pl.DataFrame(
        {
            "a": [1, 1, 1, 0, 1, 2],
            "b": [1, 1, 1, 0, 2, 2],
            "c": [1, 1, 1, 1, 2, 2],
            "site": ["x", "x", "x", "y", "y", "y"],
        }
    )
    with pytest.warns(UndefinedKappaWarning) as caught:
        results = wkf.agreement(df, raters=["a", "b", "c"], by="site")
    messages = [str(warning.message) for warning in caught]
    assert len(messages) == 1
    assert messages[0].startswith("by='site' group 'x': Fleiss' kappa is undefined")
    assert caught[0].filename == __file__
    assert np.isnan(results["x"].statistic) and not np.isnan(results["y"].statistic)


def test_a_one_member_panel_names_the_raters_and_the_fix() -> None:
    frame = pl.DataFrame({"a": [1, 2, 3, 1], "c": [1, 2, 2, 1]})
    said = (
        r"^The panel needs at least two raters besides `candidate` 'c'; `df` has 1 \('a'\)\. Hint"
    )
    with pytest.raises(wk.exceptions.WkappaError, match=said):
        wkf.rater_vs_panel(frame, candidate="c", raters=["a", "c"])


def test_rater_vs_panel_takes_an_integer_rater_id_as_candidate(frame_library):
    """Long layout with integer rater ids: the candidate is named by its id as it is (10) or
    in digits ('10'), with the result of the arrays (the panel's columns in numeric order)."""
    columns = long_columns()
    columns["coder"] = [int(name[1:]) * 10 for name in columns["coder"]]  # 0, 10, 20, 30
    frame = frame_library.frame(columns, dtypes={"grade": "int64"})
    options = {"item": "item", "rater": "coder", "rating": "grade", "n_resamples": 99, "rng": 0}
    expected = wk.rater_vs_panel(WIDE[:, [0, 2, 3]], WIDE[:, 1], n_resamples=99, rng=0)
    for candidate in (10, "10"):
        result = wkf.rater_vs_panel(frame, candidate=candidate, **options)
        assert result.difference == expected.difference
        assert result.confidence_interval() == expected.confidence_interval()


@pytest.mark.parametrize(("spelled", "how"), [("c0 ", "surrounding whitespace"), ("C0", "case")])
@pytest.mark.parametrize("function", ["agreement", "rater_vs_panel", "icc"])
def test_a_rater_id_spelled_two_ways_is_refused(frame_library, spelled, how, function):
    """A long export where an annotator's id has a trailing space or a capital letter on some
    rows ('c0 ' beside 'c0') counted them as two raters, each with part of the items:
    Conger's kappa, pairwise(), the candidate's panel and the ICC changed without a word
    (Fleiss' kappa, which pools the raters, did not)."""
    columns = long_columns()
    first = columns["coder"].index("c0")
    columns["coder"][first] = spelled
    frame = frame_library.frame(columns, dtypes={"grade": "int64"})
    options = {"n_resamples": 9, "candidate": "c3"} if function == "rater_vs_panel" else {}
    said = rf"^The rater ids '\w+ ?' and '\w+ ?' \(column 'coder'\) differ only by {how} and"
    with pytest.raises(wk.WkappaError, match=said):
        getattr(wkf, function)(frame, item="item", rater="coder", rating="grade", **options)


@pytest.mark.parametrize("command", ["agree", "judge"])
def test_the_command_line_refuses_a_rater_id_spelled_two_ways_in_a_typed_file(
    tmp_path, capsys, command
):
    """A CSV's ids are stripped as they are read, a Parquet file's are kept as typed: there
    'c0 ' beside 'c0' made a seventh rater of `wkappa agree` and `wkappa judge`."""
    from cli_calls import refusal

    columns = long_columns()
    columns["coder"][columns["coder"].index("c0")] = "c0 "
    where = tmp_path / "long.parquet"
    pl.DataFrame(columns).write_parquet(where)
    argv = [command, str(where), "--item", "item", "--rater", "coder", "--rating", "grade"]
    if command == "judge":
        argv += ["--candidate", "c3", "--bootstrap", "999", "--seed", "1"]
    said = refusal(capsys, argv)
    assert said.startswith(
        f"wkappa: error: {where}: The rater ids 'c0' and 'c0 ' (column 'coder') differ only by "
        "surrounding whitespace"
    )


@pytest.mark.parametrize(
    ("raters", "hint"),
    [("r0,r1, r2", "raters=['r0', 'r1', 'r2']"), ("r0", "raters=['r0', ...]")],
)
def test_raters_given_as_one_string_are_refused_with_the_list_it_means(raters, hint):
    """`raters='a,b,c'` (the command line's --raters spelling) was told to write
    raters=['a,b,c', ...], a list of one column that does not exist."""
    with pytest.raises(wk.exceptions.WkappaTypeError, match="got the string") as caught:
        wkf.agreement(wide_polars(), raters=raters)
    assert str(caught.value).endswith(f"Hint: {hint}.")


@pytest.mark.parametrize("function", ["agreement", "rater_vs_panel", "icc"])
def test_an_item_id_spelled_two_ways_is_refused(frame_library, function):
    """'T7 ' beside 'T7' (a spreadsheet's trailing space on some rows of an export) made two
    items of one, each with part of its ratings: every coefficient changed without a word.
    Ids padded alike everywhere are one spelling each and give the result of the plain ids."""
    columns = long_columns()
    columns["item"] = [f"T{i}" for i in columns["item"]]
    options = (
        {"n_resamples": 9, "rng": 0, "candidate": "c3"} if function == "rater_vs_panel" else {}
    )
    call = getattr(wkf, function)
    names = {"item": "item", "rater": "coder", "rating": "grade"}
    plain = call(frame_library.frame(columns, dtypes={"grade": "int64"}), **names, **options)
    padded = {**columns, "item": [f" {i}" for i in columns["item"]]}
    same = call(frame_library.frame(padded, dtypes={"grade": "int64"}), **names, **options)
    value = "difference" if function == "rater_vs_panel" else "statistic"
    assert getattr(same, value) == getattr(plain, value)
    columns["item"][columns["item"].index("T7")] = "T7 "
    frame = frame_library.frame(columns, dtypes={"grade": "int64"})
    said = r"^The item ids 'T7' and 'T7 ' \(column 'item'\) differ only by surrounding whitespace"
    with pytest.raises(wk.WkappaError, match=said):
        call(frame, **names, **options)


def test_the_command_line_refuses_an_item_id_spelled_two_ways_in_a_typed_file(tmp_path, capsys):
    from cli_calls import refusal

    columns = long_columns()
    columns["item"] = [f"T{i}" for i in columns["item"]]
    columns["item"][columns["item"].index("T7")] = "T7 "
    where = tmp_path / "long.parquet"
    pl.DataFrame(columns).write_parquet(where)
    argv = ["agree", str(where), "--item", "item", "--rater", "coder", "--rating", "grade"]
    assert refusal(capsys, argv).startswith(
        f"wkappa: error: {where}: The item ids 'T7' and 'T7 ' (column 'item') differ only"
    )


@pytest.mark.filterwarnings("ignore::wkappa.exceptions.FewClustersWarning")  # 3 clusters
@pytest.mark.parametrize("parameter", ["by", "cluster"])
def test_a_group_or_cluster_spelled_two_ways_is_refused(frame_library, parameter):
    """'site 1 ' beside 'site 1' made two `by` groups, or two clusters (a cluster-robust
    standard error over one cluster more, without a word); the command line strips such
    ids as it reads them. Values padded alike everywhere are one group or cluster each."""
    columns = wide_columns()
    columns["group"] = [f"site {g}" for g in columns["group"]]
    options = {parameter: "group"}
    plain = wkf.agreement(frame_library.frame(columns, dtypes=INTEGERS), raters=RATERS, **options)
    padded = {**columns, "group": [f"{g} " for g in columns["group"]]}
    same = wkf.agreement(frame_library.frame(padded, dtypes=INTEGERS), raters=RATERS, **options)
    if parameter == "by":
        assert [r.statistic for r in same.values()] == [r.statistic for r in plain.values()]
    else:
        assert same.standard_error == plain.standard_error
    columns["group"][columns["group"].index("site 1")] = "site 1 "
    frame = frame_library.frame(columns, dtypes=INTEGERS)
    what = "groups" if parameter == "by" else "clusters"
    said = (
        rf"^The values 'site 1' and 'site 1 ' of the `{parameter}` column 'group' differ only "
        rf"by surrounding whitespace and would count as two {what}\."
    )
    with pytest.raises(wk.WkappaError, match=said):
        wkf.agreement(frame, raters=RATERS, **options)
