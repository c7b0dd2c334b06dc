"""The warnings a single result gives reach the grouped results, once, naming the groups.

A single result warns when its 'asymptotic' interval is [1, 1] at kappa = 1
(PerfectAgreementWarning) and when ``kappa0`` lies outside the kappas the observed margins
allow (a UserWarning with the range). ``frames.kappa_by_group`` (with and without
``cluster``) returned a group's [1, 1] in silence, and ``wkappa score --by --kappa0`` tested
each group against a kappa0 its margins could not reach in silence (only the clustered
groups, each alone, were warned about).
"""

from __future__ import annotations

import io
import re
import sys
import warnings

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main

pytestmark = pytest.mark.filterwarnings("error")

LABELS = [0, 1, 2, 3]
# Group 'a' agrees well, 'b' and 'd' perfectly, 'c' has margins far apart (its quadratic
# kappas run from -0.5616 to 0.3425 only).
GROUPS = {
    "a": [(0, 0)] * 6 + [(1, 1)] * 4 + [(2, 2)] * 5 + [(3, 3)] * 6 + [(0, 1), (1, 2), (2, 1)] * 2,
    "b": [(t, t) for t in LABELS] * 5,
    "c": [(0, 3)] * 8 + [(0, 0)] * 2 + [(3, 3)] * 2 + [(1, 2)] * 3 + [(2, 1)] * 3,
    "d": [(0, 0), (2, 2)] * 6,
}
PERFECT = r"The 'asymptotic' interval is \[1, 1\]: kappa is 1 \(no pair disagrees\)"


def _columns(groups: tuple[str, ...] = ("a", "b", "c")) -> dict[str, list]:
    rows = [(g, t, p) for g in groups for t, p in GROUPS[g]]
    return {
        "g": [g for g, _, _ in rows],
        "t": [t for _, t, _ in rows],
        "p": [p for _, _, p in rows],
        "cl": [i // 2 for i in range(len(rows))],  # two pairs per cluster, within a group
    }


def _table(group: str) -> np.ndarray:
    truth, pred = zip(*GROUPS[group], strict=True)
    return np.asarray(wk.confusion_table(truth, pred, labels=LABELS))


def _only(caught: list[warnings.WarningMessage], category: type[Warning]) -> str:
    """The one warning of ``category`` among ``caught`` (it points at this file)."""
    found = [w for w in caught if issubclass(w.category, category)]
    assert len(found) == 1, [str(w.message) for w in caught]
    assert found[0].filename == __file__
    return str(found[0].message)


def _single_message(group: str, **options: object) -> str:
    """The warning ``wk.kappa_test(..., **options)`` gives for the pairs of ``group`` alone."""
    truth, pred = zip(*GROUPS[group], strict=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wk.kappa_test(truth, pred, labels=LABELS, **options).confidence_interval()
    (warning,) = caught
    return str(warning.message)


# --------------------------------------------------------------------------- frames


@pytest.mark.parametrize(
    "frame_library", ["pandas", "polars", "polars-lazy", "pyarrow", "duckdb"], indirect=True
)
@pytest.mark.parametrize("cluster", [None, "cl"])
def test_kappa_by_group_warns_once_naming_the_perfect_groups(frame_library, cluster) -> None:
    from wkappa import frames

    df = frame_library.frame(_columns(("a", "b", "c", "d")))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=wk.FewClustersWarning)
        result = frames.kappa_by_group(df, y_true="t", y_pred="p", by="g", cluster=cluster)
    message = _only(caught, wk.PerfectAgreementWarning)
    assert message == "by='g' groups 'b', 'd': " + _single_message("b")
    assert re.search(PERFECT, message)
    if frame_library.name in ("pandas", "polars"):  # kept, as the single result keeps it
        assert (result["ci_low"][1], result["ci_high"][1]) == (1.0, 1.0)


@pytest.mark.parametrize("frame_library", ["pandas", "polars"], indirect=True)
def test_one_perfect_group_is_named_alone(frame_library) -> None:
    from wkappa import frames

    df = frame_library.frame(_columns())
    with pytest.warns(wk.PerfectAgreementWarning, match="^by='g' group 'b': " + PERFECT):
        frames.kappa_by_group(df, y_true="t", y_pred="p", by="g")


@pytest.mark.parametrize("frame_library", ["pandas", "polars"], indirect=True)
def test_several_by_columns_name_each_group_by_its_keys(frame_library) -> None:
    from wkappa import frames

    columns = _columns()
    columns["h"] = [1] * len(columns["g"])
    df = frame_library.frame(columns)
    with pytest.warns(wk.PerfectAgreementWarning, match=r"^by=\['g', 'h'\] group \('b', 1\): "):
        frames.kappa_by_group(df, y_true="t", y_pred="p", by=["g", "h"])


@pytest.mark.parametrize("method", ["score", "fisher-z"])
def test_the_small_sample_intervals_do_not_warn_as_alone(method: str) -> None:
    """Their lower limit is below 1 at kappa = 1: the single result does not warn there."""
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    result = frames.kappa_by_group(
        pd.DataFrame(_columns()), y_true="t", y_pred="p", by="g", method=method
    )
    assert result["ci_low"][1] < 1.0


def test_clustered_groups_of_zero_width_below_one_are_undefined_as_alone() -> None:
    """The cluster-robust interval of a group whose clusters all have the same table has a
    standard error of 0 below kappa = 1: nan with a warning, as ``wk.kappa_test(...,
    cluster=...)`` gives it (it was kept as a zero-width interval)."""
    pd = pytest.importorskip("pandas")
    from wkappa import frames

    same = [(0, 0), (0, 0), (1, 1), (1, 1), (0, 1), (1, 0)]
    rows = [(c, t, p) for c in range(10) for t, p in same]
    df = pd.DataFrame(rows, columns=["cl", "t", "p"]).assign(g="z")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wk.UndefinedKappaWarning)
        alone = wk.kappa_test(df.t, df.p, cluster=df.cl).confidence_interval()
    named = r"^The 'asymptotic' interval is undefined in 1 of 1 groups \(by='g' group 'z'\): "
    with pytest.warns(wk.UndefinedKappaWarning, match=named):
        result = frames.kappa_by_group(df, y_true="t", y_pred="p", by="g", cluster="cl")
    assert np.isnan(alone.low) and np.isnan(result["ci_low"][0])
    assert np.isnan(result["ci_high"][0]) and result["kappa"][0] == pytest.approx(1 / 3)


# --------------------------------------------------------------------------- wkappa score --by


def _score(tmp_path, groups: tuple[str, ...], *extra: str) -> str:
    """The stderr of ``wkappa score`` on the pairs of ``groups`` (with ``--by g`` when there
    are several)."""
    columns = _columns(groups)
    path = tmp_path / ("-".join(groups) + ".csv")
    lines = zip(columns["g"], columns["t"], columns["p"], columns["cl"], strict=True)
    path.write_text("g,t,p,cl\n" + "".join(f"{g},{t},{p},{c}\n" for g, t, p, c in lines))
    by = ["--by", "g"] if len(groups) > 1 else []
    err = io.StringIO()
    stderr, sys.stderr = sys.stderr, err
    try:
        code = main(["score", str(path), "--true", "t", "--pred", "p", *by, *extra,
                     "--format", "json"])  # fmt: skip
    finally:
        sys.stderr = stderr
    assert code == 0
    return err.getvalue()


def _reach_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "is outside the kappas" in line]


@pytest.mark.parametrize("cluster", [[], ["--cluster", "cl"]])
def test_score_by_names_the_group_kappa0_cannot_be_reached_in(tmp_path, cluster) -> None:
    (alone,) = _reach_lines(_score(tmp_path, ("c",), "--kappa0", "0.6", *cluster))
    assert alone.startswith("wkappa: warning: --kappa0 = 0.6 is outside the kappas")
    stderr = _score(tmp_path, ("a", "b", "c"), "--kappa0", "0.6", *cluster)
    (grouped,) = _reach_lines(stderr)  # the overall table reaches 0.6: group 'c' alone
    assert grouped == alone.replace("warning: ", "warning: --by g group 'c': ")


@pytest.mark.parametrize("cluster", [[], ["--cluster", "cl"]])
def test_score_by_warns_once_for_several_groups_with_each_range(tmp_path, cluster) -> None:
    from wkappa._core import weight_matrix
    from wkappa._stats.kappa_range import kappa_reach

    ranges = {g: kappa_reach(_table(g), weight_matrix("quadratic", 4)) for g in ("a", "c")}
    assert ranges["a"][1] < 0.975 and ranges["c"][1] < 0.975
    stderr = _score(tmp_path, ("a", "b", "c"), "--kappa0", "0.975", *cluster)
    lines = _reach_lines(stderr)
    grouped = [line for line in lines if "--by g" in line]
    assert len(grouped) == 1, lines
    (line,) = grouped
    assert line.startswith("wkappa: warning: --by g groups 'a', 'c': --kappa0 = 0.975 is outside")
    shown = "; ".join(f"'{g}': {low:.4g} to {high:.4g}" for g, (low, high) in ranges.items())
    assert f"under these weights ({shown}): a population" in line
    assert line.endswith("Hint: test a kappa0 inside those ranges.")


def test_score_by_a_single_pair_group_is_warned_about_once(tmp_path) -> None:
    """A group of a single pair cannot reach kappa0 (its table is the only one with its
    margins): one warning, naming it."""
    GROUPS["e"] = [(0, 1)]
    try:
        stderr = _score(tmp_path, ("a", "e"), "--kappa0", "0.6")
    finally:
        del GROUPS["e"]
    lines = _reach_lines(stderr)
    assert lines == [
        "wkappa: warning: --by g group 'e': --kappa0 = 0.6 is outside the kappas that tables "
        "with the observed margins allow under these weights (0 to 0): a population with these "
        "margins cannot have kappa 0.6, so the test rejects H0 for the margins as much as for "
        "the agreement. Hint: test a kappa0 inside that range."
    ]


def test_score_by_notes_perfect_groups_as_the_single_score_notes_it(tmp_path) -> None:
    (alone,) = [line for line in _score(tmp_path, ("b",)).splitlines() if "zero width" in line]
    (grouped,) = [line for line in _score(tmp_path, ("a", "b", "c", "d")).splitlines()
                  if "zero width" in line]  # fmt: skip
    assert grouped == alone.replace("zero width:", "zero width (--by g: b, d):")
    assert "PerfectAgreementWarning" not in grouped


# --------------------------------------------------------------------------- the statistics


def test_results_out_of_reach_name_only_defined_groups() -> None:
    from wkappa._stats import kappa_results, warn_results_out_of_reach
    from wkappa._stats.kappa_range import kappa_reach

    tables = np.stack([_table("a"), _table("c"), np.zeros((4, 4), dtype=np.int64)])
    with pytest.warns(wk.UndefinedKappaWarning):
        results = kappa_results(tables, "quadratic", tuple(LABELS), "two-sided", 0.975)
    matrix = results[0].weight_matrix
    low, high = kappa_reach(tables[1], matrix)
    with pytest.warns(UserWarning) as caught:
        warn_results_out_of_reach(results, ["'a'", "'c'", "'empty'"], "by='g'")
    (warning,) = caught
    assert warning.filename == __file__
    assert str(warning.message).startswith("by='g' groups 'a', 'c': `kappa0` = 0.975 is outside")
    assert f"'c': {low:.4g} to {high:.4g})" in str(warning.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        at_zero = kappa_results(tables[:2], "quadratic", tuple(LABELS), "two-sided", 0.0)
        warn_results_out_of_reach(at_zero, ["'a'", "'c'"], "by='g'")


@pytest.mark.parametrize("frame_library", ["pandas", "polars"], indirect=True)
def test_groups_of_zero_width_below_one_are_named(frame_library) -> None:
    """A group whose pairs all fall in one cell has a standard error of 0 below kappa = 1:
    nan limits, and the one warning names it."""
    from wkappa import frames

    columns = _columns(("a",))
    columns["g"] += ["z"] * 3
    columns["t"] += [1, 1, 1]
    columns["p"] += [2, 2, 2]
    del columns["cl"]
    df = frame_library.frame(columns)
    named = r"undefined in 1 of 2 groups \(by='g' group 'z'\): "
    with (
        pytest.warns(wk.UndefinedKappaWarning, match="The test of kappa = 0 is " + named),
        pytest.warns(wk.UndefinedKappaWarning, match="The 'asymptotic' interval is " + named),
    ):
        frames.kappa_by_group(df, y_true="t", y_pred="p", by="g")


@pytest.mark.parametrize("method", ["score", "fisher-z"])
@pytest.mark.parametrize("frame_library", ["pandas", "polars"], indirect=True)
def test_groups_without_a_small_sample_interval_are_named(frame_library, method) -> None:
    """A group of one pair (kappa 0) has no score or Fisher-z interval: the one warning of
    such groups names it, in ``frames.kappa_by_group`` and ``wkappa score --by``."""
    from wkappa import frames

    GROUPS["e"] = [(0, 1)]
    try:
        df = frame_library.frame({k: v for k, v in _columns(("a", "e")).items() if k != "cl"})
        named = r"1 of 2 groups whose kappa is defined \(by='g' group 'e'; 1 of them have fewer"
        with (
            pytest.warns(wk.UndefinedKappaWarning, match=named),
            pytest.warns(wk.UndefinedKappaWarning, match=r"test .* in 1 of 2 groups \(by='g'"),
        ):
            frames.kappa_by_group(df, y_true="t", y_pred="p", by="g", method=method)
    finally:
        del GROUPS["e"]


@pytest.mark.parametrize("method", ["score", "fisher-z"])
def test_score_by_names_the_groups_without_a_small_sample_interval(tmp_path, method) -> None:
    GROUPS["e"] = [(0, 1)]
    try:
        stderr = _score(tmp_path, ("a", "e"), "--ci-method", method)
    finally:
        del GROUPS["e"]
    assert (
        f"wkappa: warning: The {method!r} interval is undefined in 1 of 2 groups whose kappa is "
        "defined (--by g group 'e'; 1 of them have fewer than 2 pairs)"
    ) in stderr
