"""A user's tour of several raters on messy data: an annotation team (string categories in
a declared order, NA spellings, a rater who rated six items, items rated by one to five
raters) and an LLM judge against a panel of four humans (one of whom joined late).

Every entry point is held to the same numbers on the same data: arrays, pandas and polars
frames in the wide and the long layout, counts, the command line, and the independent
computations (the exact ``Fraction`` reference, irrCAC's Python port, the ``krippendorff``
package, :func:`wkappa.weighted_kappa` pair by pair).
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import wkappa as wk
from wkappa._cli import main
from wkappa.exceptions import WkappaError

from .reference_raters import named_weights, reference

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
frames = pytest.importorskip("wkappa.frames")

CATEGORIES = ["low", "mid", "high", "critical"]
TEAM = ["ann", "bo", "cy", "dee", "eve"]
PANEL = ["h0", "h1", "h2", "h3"]
COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]


def _team() -> pd.DataFrame:
    """40 items, 5 raters; ``eve`` rated 6 items, the others about 80%; strings."""
    rng = np.random.default_rng(7)
    n = 40
    truth = rng.integers(0, 4, n)
    columns = {}
    for name, noise in zip(TEAM, [0.2, 0.3, 0.35, 0.5, 0.3], strict=True):
        codes = np.clip(truth + rng.choice([-1, 0, 0, 1], n) * (rng.random(n) < noise), 0, 3)
        missing = rng.random(n) < 0.2
        if name == "eve":
            missing = np.ones(n, dtype=bool)
            missing[[1, 5, 9, 13, 22, 30]] = False
        columns[name] = [None if m else CATEGORIES[c] for c, m in zip(codes, missing, strict=True)]
    frame = pd.DataFrame(columns)
    frame.insert(0, "item", [f"it{i:02d}" for i in range(n)])
    frame.insert(1, "doc", np.repeat(np.arange(10), 4))
    return frame


def _judged() -> pd.DataFrame:
    """60 prompts of 12 tasks scored 1-5 by 4 humans (h3 rated the last 20 at most) and a
    judge that misses two."""
    rng = np.random.default_rng(11)
    n = 60
    truth = rng.integers(1, 6, n)

    def noisy(p: float) -> np.ndarray:
        step = rng.choice([-1, 1], n) * (rng.random(n) < p)
        jump = rng.choice([-2, 2], n) * (rng.random(n) < p / 4)
        return np.clip(truth + step + jump, 1, 5).astype(float)

    humans = {f"h{i}": noisy(p) for i, p in enumerate([0.25, 0.3, 0.35, 0.4])}
    for scores in humans.values():
        scores[rng.random(n) < 0.15] = np.nan
    humans["h3"][:40] = np.nan
    judge = noisy(0.45)
    judge[[3, 17]] = np.nan
    task = np.repeat([f"task{i}" for i in range(12)], 5)
    prompts = [f"p{i:03d}" for i in range(n)]
    return pd.DataFrame({"prompt": prompts, "task": task, **humans, "judge": judge})


TEAM_DF = _team()
JUDGED = _judged()


def _long(frame: pd.DataFrame, ids: list[str], raters: list[str]) -> pd.DataFrame:
    return frame.melt(id_vars=ids, value_vars=raters, var_name="rater", value_name="rating")


def _team_codes() -> list[list[int | None]]:
    return [
        [None if pd.isna(v) else CATEGORIES.index(v) for v in row]
        for row in TEAM_DF[TEAM].itertuples(index=False)
    ]


# --------------------------------------------------------------------------- the team


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
@pytest.mark.parametrize("weights", ["unweighted", "quadratic", "linear"])
def test_team_every_entry_point_gives_the_exact_reference(coefficient, weights):
    """Arrays, pandas and polars (wide), the long layout with its NaN rows, and the counts
    (except Conger's, which needs rater identity) give the exact Fraction value and Gwet's
    variance on the team's incomplete data."""
    value, _, _, variance = reference(_team_codes(), 4, named_weights(weights, 4), coefficient)
    assert value is not None and variance is not None
    ratings = TEAM_DF[TEAM].to_numpy(dtype=object)
    options = {"coefficient": coefficient, "weights": weights, "labels": CATEGORIES}
    long = _long(TEAM_DF, ["item"], TEAM)
    results = [
        wk.agreement(ratings, **options),
        frames.agreement(TEAM_DF, raters=TEAM, **options),
        frames.agreement(pl.from_pandas(TEAM_DF), raters=TEAM, **options),
        frames.agreement(long, item="item", rater="rater", rating="rating", **options),
        frames.agreement(
            pl.from_pandas(long.dropna()), item="item", rater="rater", rating="rating", **options
        ),
    ]
    if coefficient != "conger":
        counts = [[sum(1 for x in row if x == c) for c in CATEGORIES] for row in ratings]
        results.append(wk.agreement_from_counts(counts, **options))
    for result in results:
        assert result.statistic == pytest.approx(float(value), rel=1e-12, abs=1e-15)
        assert result.standard_error == pytest.approx(math.sqrt(variance), rel=1e-9)
        assert (result.n_items, result.n_ratings) == (40, 132)
        for method in ("asymptotic", "jackknife", "fisher-z-adjusted"):
            assert tuple(result.confidence_interval(method=method)) == pytest.approx(
                tuple(results[0].confidence_interval(method=method)), rel=1e-9
            )


@pytest.mark.parametrize(
    ("weights", "theirs"),
    [("unweighted", "identity"), ("quadratic", "quadratic"), ("linear", "linear")],
)
def test_team_matches_the_irrcac_port_with_missing_ratings(weights, theirs):
    """irrCAC's Python port, given its categories, on the team's incomplete data (it prints
    5 digits): coefficient, standard error and (but for Krippendorff's alpha, whose t
    quantile the port takes on the pairable items and R's irrCAC, as wkappa, on all rated
    items) the interval."""
    raw = pytest.importorskip("irrCAC.raw")
    numbers = TEAM_DF[TEAM].apply(lambda c: c.map({v: i + 1 for i, v in enumerate(CATEGORIES)}))
    cac = raw.CAC(numbers.astype(float), weights=theirs, categories=[1, 2, 3, 4])
    for name, coefficient in [
        ("fleiss", "fleiss"),
        ("conger", "conger"),
        ("gwet", "gwet"),
        ("bp", "brennan_prediger"),
        ("krippendorff", "krippendorff"),
    ]:
        est = getattr(cac, name)()["est"]
        ours = wk.agreement(
            TEAM_DF[TEAM].to_numpy(dtype=object),
            coefficient=coefficient,
            weights=weights,
            labels=CATEGORIES,
        )
        assert ours.statistic == pytest.approx(est["coefficient_value"], abs=6e-6), name
        assert ours.standard_error == pytest.approx(est["se"], abs=6e-6), name
        if name != "krippendorff":
            low, high = est["confidence_interval"]
            assert tuple(ours.confidence_interval()) == pytest.approx((low, high), abs=6e-6)


def test_team_krippendorff_levels_match_the_krippendorff_package():
    krippendorff = pytest.importorskip("krippendorff")
    codes = np.array([[np.nan if x is None else x + 1 for x in row] for row in _team_codes()])
    ordinal = wk.krippendorff_alpha(
        TEAM_DF[TEAM].to_numpy(dtype=object), level="ordinal", labels=CATEGORIES
    )
    assert ordinal.statistic == pytest.approx(
        krippendorff.alpha(reliability_data=codes.T, level_of_measurement="ordinal"), abs=1e-12
    )
    for level in ("nominal", "interval"):
        ours = wk.krippendorff_alpha(codes, level=level).statistic
        theirs = krippendorff.alpha(reliability_data=codes.T, level_of_measurement=level)
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_team_declared_orders_give_the_labels_result():
    """An ordered pandas Categorical and a polars Enum give the categories (and so the
    weighted result) that labels= gives."""
    expected = wk.agreement(
        TEAM_DF[TEAM].to_numpy(dtype=object),
        coefficient="gwet",
        weights="quadratic",
        labels=CATEGORIES,
    )
    ordered = TEAM_DF.copy()
    for name in TEAM:
        ordered[name] = pd.Categorical(ordered[name], categories=CATEGORIES, ordered=True)
    enum = pl.from_pandas(TEAM_DF).with_columns(pl.col(TEAM).cast(pl.Enum(CATEGORIES)))
    for frame in (ordered, enum):
        result = frames.agreement(frame, raters=TEAM, coefficient="gwet", weights="quadratic")
        assert result.labels == tuple(CATEGORIES)
        assert result.statistic == pytest.approx(expected.statistic, rel=1e-14)


def test_team_diagnostics_are_what_they_say():
    """pairwise() is weighted_kappa of each pair's common items; leave_one_rater_out() is
    the coefficient without that column."""
    ratings = TEAM_DF[TEAM].to_numpy(dtype=object)
    result = wk.agreement(ratings, coefficient="gwet", weights="quadratic", labels=CATEGORIES)
    pairs = result.pairwise()
    dropped = result.leave_one_rater_out()
    for i in range(5):
        keep = [j for j in range(5) if j != i]
        without = wk.agreement(
            ratings[:, keep], coefficient="gwet", weights="quadratic", labels=CATEGORIES
        )
        assert dropped[i] == pytest.approx(without.statistic, rel=1e-12)
        for j in range(i + 1, 5):
            both = ~(pd.isna(ratings[:, i]) | pd.isna(ratings[:, j]))
            kappa = wk.weighted_kappa(
                list(ratings[both, i]),
                list(ratings[both, j]),
                labels=CATEGORIES,
                weights="quadratic",
            )
            assert pairs[i, j] == pytest.approx(kappa, rel=1e-12)
    assert json.loads(json.dumps(result.to_dict()))["n_ratings"] == 132


def test_team_clusters_agree_across_entry_points():
    """cluster= on arrays, on the wide frame and on the long frame: one standard error;
    one item per cluster is the unclustered standard error."""
    ratings = TEAM_DF[TEAM].to_numpy(dtype=object)
    options = {"coefficient": "conger", "weights": "quadratic", "labels": CATEGORIES}
    array = wk.agreement(ratings, cluster=TEAM_DF["doc"], **options)
    wide = frames.agreement(TEAM_DF, raters=TEAM, cluster="doc", **options)
    long = frames.agreement(
        _long(TEAM_DF, ["item", "doc"], TEAM),
        item="item",
        rater="rater",
        rating="rating",
        cluster="doc",
        **options,
    )
    for result in (wide, long):
        assert result.standard_error == pytest.approx(array.standard_error, rel=1e-12)
        assert result.n_clusters == array.n_clusters == 10
    single = wk.agreement(ratings, cluster=np.arange(40), **options)
    plain = wk.agreement(ratings, **options)
    assert single.standard_error == pytest.approx(plain.standard_error, rel=1e-12)


def test_team_cli_agrees_with_the_api(tmp_path, capsys):
    """The CLI's reading of NA spellings (declared with --na-values) and its numbers."""
    numbers = TEAM_DF[TEAM].apply(lambda c: c.map({v: i + 1 for i, v in enumerate(CATEGORIES)}))
    spellings = ["NA", "", "-", "."]
    lines = ["item," + ",".join(TEAM)]
    k = 0
    for item, row in zip(TEAM_DF["item"], numbers.itertuples(index=False), strict=True):
        cells = []
        for value in row:
            if pd.isna(value):
                cells.append(spellings[k % len(spellings)])
                k += 1
            else:
                cells.append(str(int(value)))
        lines.append(item + "," + ",".join(cells))
    path = tmp_path / "team.csv"
    path.write_text("\n".join(lines) + "\n")
    argv = ["agree", str(path), "--raters", ",".join(TEAM), "--na-values=-,."]
    assert main([*argv, "--coefficient", "gwet", "--weights", "quadratic", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    api = wk.agreement(
        TEAM_DF[TEAM].to_numpy(dtype=object),
        coefficient="gwet",
        weights="quadratic",
        labels=CATEGORIES,
    )
    assert printed["statistic"] == pytest.approx(api.statistic, rel=1e-14)
    assert printed["standard_error"] == pytest.approx(api.standard_error, rel=1e-12)
    assert printed["n_ratings"] == 132


# --------------------------------------------------------------------------- the LLM judge


def _pair_value(ratings: np.ndarray, a: int, b: int, coefficient: str, weights: str) -> float:
    both = ~np.isnan(ratings[:, a]) & ~np.isnan(ratings[:, b])
    return wk.agreement(
        ratings[both][:, [a, b]],
        coefficient=coefficient,
        weights=weights,
        min_rating=1,
        max_rating=5,
    ).statistic


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
def test_judge_difference_is_the_mean_of_the_pairs(coefficient):
    """D is the mean of the candidate's pair coefficients (each on the pair's common items)
    minus the mean of the members'; the wide frame and the long frame give the same D and,
    with the same seed, the same p-value."""
    ratings = JUDGED[[*PANEL, "judge"]].to_numpy()
    options = {"coefficient": coefficient, "weights": "linear", "min_rating": 1, "max_rating": 5}
    seeded = {"n_resamples": 199, "rng": 5, **options}
    result = wk.rater_vs_panel(JUDGED[PANEL].to_numpy(), JUDGED["judge"].to_numpy(), **seeded)
    versus = [_pair_value(ratings, 4, j, coefficient, "linear") for j in range(4)]
    among = [
        _pair_value(ratings, a, b, coefficient, "linear") for a in range(4) for b in range(a + 1, 4)
    ]
    assert result.candidate_vs_members == pytest.approx(versus, rel=1e-12)
    assert result.difference == pytest.approx(np.mean(versus) - np.mean(among), rel=1e-10)
    wide = frames.rater_vs_panel(JUDGED, candidate="judge", raters=PANEL, **seeded)
    long = frames.rater_vs_panel(
        _long(JUDGED, ["prompt"], [*PANEL, "judge"]),
        candidate="judge",
        item="prompt",
        rater="rater",
        rating="rating",
        **seeded,
    )
    for other in (wide, long):
        assert other.difference == pytest.approx(result.difference, rel=1e-12)
        assert other.pvalue == result.pvalue


def test_judge_conger_pairs_are_cohens_kappa():
    ratings = JUDGED[[*PANEL, "judge"]].to_numpy()
    result = wk.rater_vs_panel(
        JUDGED[PANEL], JUDGED["judge"], weights="quadratic", n_resamples=99, rng=0
    )
    for j in range(4):
        both = ~np.isnan(ratings[:, 4]) & ~np.isnan(ratings[:, j])
        kappa = wk.weighted_kappa(ratings[both, 4], ratings[both, j], weights="quadratic")
        assert result.candidate_vs_members[j] == pytest.approx(kappa, rel=1e-14)


def test_judge_sides_add_up_and_the_interval_is_dual():
    """The one-sided p-values add to 1, the two-sided one is twice the smaller, and the
    two-sided interval at level 1 - p ends at 0."""
    results = {
        side: wk.rater_vs_panel(
            JUDGED[PANEL],
            JUDGED["judge"],
            weights="linear",
            n_resamples=999,
            rng=3,
            alternative=side,
        )
        for side in ("two-sided", "greater", "less")
    }
    greater, less = results["greater"].pvalue, results["less"].pvalue
    assert greater + less == pytest.approx(1.0)
    assert results["two-sided"].pvalue == pytest.approx(2 * min(greater, less))
    two = results["two-sided"]
    low, high = two.confidence_interval(1 - two.pvalue)
    assert min(abs(low), abs(high)) < 1e-12


def test_judge_string_scores_in_every_container_give_one_answer():
    scale = ["bad", "poor", "ok", "good", "great"]
    words = JUDGED.copy()
    for name in [*PANEL, "judge"]:
        words[name] = words[name].map(lambda v: None if pd.isna(v) else scale[int(v) - 1])
    seeded = {"weights": "quadratic", "n_resamples": 199, "rng": 2}
    expected = wk.rater_vs_panel(
        JUDGED[PANEL], JUDGED["judge"], min_rating=1, max_rating=5, **seeded
    )
    enum = pl.from_pandas(words).with_columns(pl.col([*PANEL, "judge"]).cast(pl.Enum(scale)))
    results = [
        wk.rater_vs_panel(words[PANEL], words["judge"], labels=scale, **seeded),
        frames.rater_vs_panel(words, candidate="judge", raters=PANEL, labels=scale, **seeded),
        frames.rater_vs_panel(enum, candidate="judge", raters=PANEL, **seeded),
        frames.rater_vs_panel(enum.lazy(), candidate="judge", raters=PANEL, **seeded),
    ]
    for result in results:
        assert result.difference == pytest.approx(expected.difference, rel=1e-12)
        assert result.pvalue == expected.pvalue


def test_judge_cli_agrees_with_the_api(tmp_path, capsys):
    path = tmp_path / "judged.csv"
    JUDGED.to_csv(path, index=False)
    argv = ["judge", str(path), "--candidate", "judge", "--raters", ",".join(PANEL)]
    argv += ["--weights", "quadratic", "--bootstrap", "499", "--seed", "4", "--cluster", "task"]
    assert main([*argv, "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    api = frames.rater_vs_panel(
        JUDGED,
        candidate="judge",
        raters=PANEL,
        weights="quadratic",
        n_resamples=499,
        rng=4,
        cluster="task",
    )
    assert printed["difference"] == pytest.approx(api.difference, rel=1e-14)
    assert printed["pvalue"] == pytest.approx(api.pvalue, rel=1e-14)
    low, high = api.confidence_interval()
    assert printed["confidence_interval"]["low"] == pytest.approx(low, rel=1e-14)
    assert printed["confidence_interval"]["high"] == pytest.approx(high, rel=1e-14)


# --------------------------------------------------------------------------- messages


@pytest.mark.parametrize("make", [pd.DataFrame, pl.DataFrame])
def test_a_candidate_column_missing_from_the_frame_is_named_as_the_candidate(make):
    """It said "`raters` names the column 'gpt'" though the user named it as `candidate`."""
    frame = make({"a": [1, 2, 3], "b": [1, 2, 2], "judge": [1, 2, 3]})
    with pytest.raises(WkappaError, match=r"^`candidate` names the column 'Judge'.*'judge'"):
        frames.rater_vs_panel(frame, candidate="Judge", raters=["a", "b"], n_resamples=99)
    with pytest.raises(WkappaError, match=r"^`raters` names the column 'c'"):
        frames.rater_vs_panel(frame, candidate="judge", raters=["a", "c"], n_resamples=99)


@pytest.mark.parametrize("as_series", [False, True])
def test_a_candidate_label_spelled_otherwise_gets_the_spelling_hint(as_series):
    """With labels=, a candidate's 'Great' beside the label 'great' was refused as not in
    `labels` without the case hint that a panel member's gets."""
    scale = ["bad", "ok", "great"]
    panel = pd.DataFrame({"x": ["bad", "ok", "great"], "y": ["bad", "ok", "great"]})
    candidate = ["bad", "ok", "Great"]
    if as_series:
        candidate = pd.Series(candidate, name="judge")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(WkappaError) as info:
            wk.rater_vs_panel(panel, candidate, labels=scale, n_resamples=99)
    message = str(info.value)
    assert message.startswith("'Great' of `candidate` at item 2")
    assert "only by case" in message and "--fold-case" in message
    member = pd.DataFrame({"x": ["bad", "ok", "great"], "y": ["bad", "ok", "Great"]})
    with pytest.raises(WkappaError, match="only by case"):
        wk.rater_vs_panel(member, ["bad", "ok", "great"], labels=scale, n_resamples=99)


def test_fraction_reference_is_exact_here():
    """The reference's value on the team is a Fraction (not a float in disguise)."""
    value, *_ = reference(_team_codes(), 4, named_weights("quadratic", 4), "fleiss")
    assert isinstance(value, Fraction)


# --------------------------------------------------------------------------- an id column


@pytest.mark.parametrize("make", [lambda f: f, pl.from_pandas])
def test_a_frame_passed_whole_with_its_id_column_warns(make):
    """wk.agreement(df) of the frame as read, its `item` column of ids included, counted the
    ids as a rater's ratings (one category per item, a rater agreeing with no one) and gave
    0.24 for the team's Fleiss kappa of 0.59, without a word."""
    whole = make(TEAM_DF.drop(columns="doc"))
    with pytest.warns(UserWarning, match=r"`ratings` column 'item' looks like item ids"):
        wrong = wk.agreement(whole)
    assert wrong.statistic < 0.3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right = wk.agreement(TEAM_DF[TEAM])
    assert right.statistic == pytest.approx(0.5895447754942198, rel=1e-12)
    with pytest.warns(UserWarning, match=r"`ratings` column 'item' looks like item ids"):
        wk.rater_vs_panel(
            whole.drop(["dee", "eve"])
            if isinstance(whole, pl.DataFrame)
            else whole.drop(columns=["dee", "eve"]),
            TEAM_DF["dee"],
            n_resamples=99,
            rng=0,
        )


def test_text_ratings_that_look_alike_do_not_warn():
    """Fewer than ten items, two columns, a column whose values repeat, or all-different
    values that another rater uses too: ratings, not ids."""
    words = [f"w{i}" for i in range(12)]
    cases = [
        pd.DataFrame({"id": words[:9], "a": ["x"] * 9, "b": ["y"] * 9}),
        pd.DataFrame({"a": words, "b": ["x"] * 12}),
        pd.DataFrame({"a": words, "b": words[::-1], "c": ["x"] * 12}),
        pd.DataFrame({"a": words[:6] * 2, "b": ["x"] * 12, "c": ["y"] * 12}),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        warnings.simplefilter("ignore", wk.exceptions.UndefinedKappaWarning)
        for frame in cases:
            wk.agreement(frame)


def test_the_panel_explanation_names_the_pair_coefficient_and_its_dropped_replicates():
    """explain() said "conger (quadratic)" for what the command line calls Cohen's kappa,
    "the 1 pairs", and nothing of the replicates its interval left out."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wk.exceptions.UndefinedKappaWarning)
        result = wk.rater_vs_panel(
            JUDGED[PANEL],
            JUDGED["judge"],
            weights="quadratic",
            n_resamples=999,
            rng=5,
            cluster=JUDGED["task"],
        )
        two = wk.rater_vs_panel(JUDGED[PANEL[:2]], JUDGED["judge"], n_resamples=99, rng=0)
        text = result.explain()
    dropped = result.confidence_interval().n_undefined
    assert dropped > 0
    assert "Cohen's kappa of each pair of raters (quadratic)" in text
    assert f"{dropped} with an undefined coefficient left out" in text
    assert "mean over the 1 pair of members" in two.explain()


def test_an_asymmetric_weight_matrix_is_one_coefficient_in_the_point_and_the_bootstrap():
    """With a (K, K) matrix that is not symmetric, rater_vs_panel's Cohen's kappas (and
    pairwise()) used W as given, in the orientation (lower column, higher column), while its
    bootstrap replicates, like agreement(), use (W + W') / 2: the point difference (-0.097)
    lay outside the bulk of its own bootstrap distribution (median -0.016)."""
    w = np.array([[0, 1, 2, 3, 4], [0, 0, 1, 2, 3], [0, 0, 0, 1, 2], [0, 0, 0, 0, 1], [0] * 5])
    w = (w + 0.25 * w.T) / 4
    symmetric = (w + w.T) / 2
    options = {"min_rating": 1, "max_rating": 5, "n_resamples": 999, "rng": 1}
    asked = wk.rater_vs_panel(JUDGED[PANEL], JUDGED["judge"], weights=w, **options)
    same = wk.rater_vs_panel(JUDGED[PANEL], JUDGED["judge"], weights=symmetric, **options)
    assert asked.difference == pytest.approx(same.difference, rel=1e-12)
    assert asked.pvalue == pytest.approx(same.pvalue, rel=1e-9)
    ratings = JUDGED[[*PANEL, "judge"]].to_numpy()
    for j in range(4):
        both = ~np.isnan(ratings[:, 4]) & ~np.isnan(ratings[:, j])
        kappa = wk.weighted_kappa(ratings[both, j], ratings[both, 4], weights=symmetric)
        assert asked.candidate_vs_members[j] == pytest.approx(kappa, rel=1e-12)
    result = wk.agreement(ratings, weights=w, min_rating=1, max_rating=5)
    pairs = result.pairwise()
    assert np.array_equal(pairs, pairs.T, equal_nan=True)
    both = ~np.isnan(ratings[:, 0]) & ~np.isnan(ratings[:, 1])
    assert pairs[1, 0] == pytest.approx(
        wk.agreement(ratings[both][:, [1, 0]], coefficient="conger", weights=w).statistic,
        rel=1e-12,
    )
