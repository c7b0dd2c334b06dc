"""Differential fuzzing of several raters: every input form against the exact reference.

Random designs (K categories, R raters, n items, missing ratings, a coefficient, named
weights); the same ratings go in as every form the library reads — a list of rows, a float
array with NaN, a masked integer array, pandas (nullable Int64), polars (nulls), a pyarrow
Table, ``agreement(..., multiplicity=)`` of the distinct rows, ``agreement_from_counts``
(not Conger: it needs to know which rater gave which rating), the long layout of
``frames.agreement`` — and each must give the coefficient, pa and pe of
``tests/reference_raters.py`` (exact fractions, written from the formulas with no code shared
with wkappa). The command line is checked on a few designs (it starts the reader of files).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wkappa as wk
from reference_raters import named_weights, reference

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
wkf = pytest.importorskip("wkappa.frames")

COEFFICIENTS = ["fleiss", "conger", "gwet", "brennan_prediger", "krippendorff", "percent"]
WEIGHTS = ["unweighted", "quadratic", "linear"]


@st.composite
def designs(draw):
    k = draw(st.integers(2, 6))
    n_raters = draw(st.integers(2, 6))
    n = draw(st.integers(2, 20))
    missing = draw(st.sampled_from([0.0, 0.2, 0.5]))
    rating = st.integers(0, k - 1)
    cell = st.one_of(rating, st.none()) if missing else rating
    cells = draw(
        st.lists(st.lists(cell, min_size=n_raters, max_size=n_raters), min_size=n, max_size=n)
    )
    cells[0] = [v if v is not None else 0 for v in cells[0]]  # some item has two ratings
    return k, cells


def forms(cells, k):
    """{name: callable(options) -> AgreementResult} for the same ratings."""
    n_raters = len(cells[0])
    names = [f"r{g}" for g in range(n_raters)]
    floats = np.array([[math.nan if v is None else v for v in row] for row in cells])
    mask = np.isnan(floats)
    ints = np.where(mask, 0, floats).astype(np.int64)
    columns = {name: [row[g] for row in cells] for g, name in enumerate(names)}
    bounds = {"min_rating": 0, "max_rating": k - 1}

    def rows_form(options):
        frame = pd.DataFrame(floats).drop_duplicates()
        distinct = frame.to_numpy()
        counts = np.array(
            [
                int(np.all((floats == row) | (mask & np.isnan(row)), axis=1).sum())
                for row in distinct
            ]
        )
        return wk.agreement(distinct, multiplicity=counts, **options, **bounds)

    def long_form(options):
        records = [
            {"item": i, "rater": str(g), "rating": v}
            for i, row in enumerate(cells)
            for g, v in enumerate(row)
            if v is not None
        ]
        return wkf.agreement(
            pl.DataFrame(records), item="item", rater="rater", rating="rating", **options, **bounds
        )

    out = {
        "list of rows": lambda o: wk.agreement(cells, **o, **bounds),
        "float array": lambda o: wk.agreement(floats, **o, **bounds),
        "masked array": lambda o: wk.agreement(np.ma.array(ints, mask=mask), **o, **bounds),
        "pandas Int64": lambda o: wk.agreement(pd.DataFrame(columns, dtype="Int64"), **o, **bounds),
        "polars": lambda o: wk.agreement(
            pl.DataFrame(columns, schema={c: pl.Int64 for c in names}), **o, **bounds
        ),
        "pyarrow Table": lambda o: wk.agreement(
            pa.table({c: pa.array(v, type=pa.int64()) for c, v in columns.items()}), **o, **bounds
        ),
        "polars, frames.agreement": lambda o: wkf.agreement(
            pl.DataFrame(columns, schema={c: pl.Int64 for c in names}), raters=names, **o, **bounds
        ),
        "distinct rows": rows_form,
        "long layout": long_form,
    }
    return out


def _counts_form(cells, k, options):
    counts = [[sum(1 for v in row if v == c) for c in range(k)] for row in cells]
    return wk.agreement_from_counts(counts, **options)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(designs(), st.sampled_from(COEFFICIENTS), st.sampled_from(WEIGHTS))
def test_every_input_form_matches_the_reference(design, coefficient, weights):
    k, cells = design
    coef, pa_exact, pe_exact, _ = reference(cells, k, named_weights(weights, k), coefficient)
    options = {"coefficient": coefficient, "weights": weights, "zero_division": math.nan}
    makers = forms(cells, k)
    if coefficient != "conger":
        makers["counts"] = lambda o: _counts_form(cells, k, o)
    # The long layout has no row for a rater without ratings, so it has fewer raters: the
    # coefficients are the same (Conger's kappa leaves such a rater out of pe).
    for name, make in makers.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = make(options)
        where = f"{name}: {coefficient}, {weights}, K={k}"
        assert result.percent_agreement == pytest.approx(float(pa_exact), abs=1e-12), where
        if coef is None:
            assert math.isnan(result.statistic), where
            continue
        assert result.statistic == pytest.approx(float(coef), abs=1e-10), where
        if name != "counts":
            assert result.chance_agreement == pytest.approx(float(pe_exact), abs=1e-12), where


@pytest.mark.parametrize("seed", range(3))
def test_command_line_matches_the_reference(tmp_path, capsys, seed):
    from wkappa._cli import main

    rng = np.random.default_rng(seed)
    k, n, n_raters = 4, 30, 3
    cells = [
        [None if rng.random() < 0.15 else int(rng.integers(0, k)) for _ in range(n_raters)]
        for _ in range(n)
    ]
    cells[0] = [0, 0, 1]
    path = tmp_path / "ratings.csv"
    lines = ["a,b,c"] + [",".join("" if v is None else str(v) for v in row) for row in cells]
    path.write_text("\n".join(lines) + "\n")
    for coefficient in COEFFICIENTS:
        coef, _, _, _ = reference(cells, k, named_weights("quadratic", k), coefficient)
        argv = ["agree", str(path), "--raters", "a,b,c", "--coefficient", coefficient]
        argv += ["--weights", "quadratic", "--min-rating", "0", "--max-rating", str(k - 1)]
        assert main([*argv, "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["statistic"] == pytest.approx(float(coef), abs=1e-10), coefficient
