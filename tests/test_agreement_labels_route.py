"""Several raters with named categories (``labels=`` of any kind, ordered pandas
categoricals, polars ``Enum``, Arrow dictionaries, strings with ``labels``) take the compiled
pass: the same rows, categories, values and errors as the general route."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa._core import coded_raters, distinct_rows, encode_rating_matrix, raters
from wkappa._stats import several_rows

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

LETTERS = np.array(list("abcde"))


def _ratings(n: int = 12_000, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n)  # category 5 of labels 1..5 unused
    x = np.clip(truth[:, None] + rng.integers(-1, 2, (n, 5)), 1, 4).astype(float)
    x[rng.random((n, 5)) < 0.1] = np.nan
    return x


def _strings(x: np.ndarray) -> np.ndarray:
    """The ratings 1..5 as 'a'..'e' (None where missing), an object matrix."""
    out = LETTERS[np.nan_to_num(x, nan=1).astype(int) - 1].astype(object)
    out[np.isnan(x)] = None
    return out


def _pandas_categorical(x: np.ndarray, ordered: bool = True) -> Any:
    s = _strings(x)
    return pd.DataFrame(
        {
            f"r{g}": pd.Categorical(s[:, g], categories=list("abcde"), ordered=ordered)
            for g in range(x.shape[1])
        }
    )


def _polars(x: np.ndarray, dtype: Any) -> Any:
    s = _strings(x)
    return pl.DataFrame({f"r{g}": pl.Series(s[:, g].tolist(), dtype=dtype) for g in range(5)})


def _arrow_dictionary(x: np.ndarray) -> Any:
    return pa.Table.from_pandas(_pandas_categorical(x), preserve_index=False)


def _arrow_strings(x: np.ndarray) -> Any:
    s = _strings(x)
    return pa.table({f"r{g}": pa.array(s[:, g].tolist(), type=pa.string()) for g in range(5)})


# (name, ratings from x, labels, numeric categories)
CASES: list[tuple[str, Callable[[np.ndarray], Any], Any, bool]] = [
    ("consecutive", lambda x: x, [1, 2, 3, 4, 5], True),
    ("range", lambda x: x, range(1, 6), True),
    ("reversed", lambda x: x, [5, 4, 3, 2, 1], True),
    ("gap", lambda x: x, [1, 2, 3, 4, 5, 7], True),
    ("wide gap", lambda x: x, [1, 2, 3, 4, 100], True),
    ("floats", lambda x: x / 2, [0.5, 1.0, 1.5, 2.0, 2.5], True),
    ("float labels of ints", lambda x: x, [1.0, 2.0, 3.0, 4.0, 5.0], True),
    (
        "int64 F order",
        lambda x: np.asfortranarray(np.nan_to_num(x, nan=3)).astype(np.int64),
        [3, 1, 2, 4, 5],
        True,
    ),
    ("pandas float frame", lambda x: pd.DataFrame(x), [1, 2, 3, 4, 5, 6], True),
    (
        "numpy strings",
        lambda x: _strings(np.nan_to_num(x, nan=2)).astype(str),
        list("abcde"),
        False,
    ),
    ("pandas ordered categorical", _pandas_categorical, None, False),
    ("pandas categorical, labels", lambda x: _pandas_categorical(x, False), list("edcba"), False),
    ("pandas object strings", lambda x: pd.DataFrame(_strings(x)), list("abcde"), False),
    (
        "pandas string dtype",
        lambda x: pd.DataFrame(_strings(x)).astype("string"),
        list("abcde"),
        False,
    ),
    ("polars Enum", lambda x: _polars(x, pl.Enum(list("abcde"))), None, False),
    ("polars Enum, labels", lambda x: _polars(x, pl.Enum(list("abcde"))), list("bacde"), False),
    ("polars String", lambda x: _polars(x, pl.String), list("abcde"), False),
    ("polars Categorical", lambda x: _polars(x, pl.Categorical), list("abcde"), False),
    ("arrow dictionary", _arrow_dictionary, None, False),
    ("arrow strings", _arrow_strings, list("abcde"), False),
]

CALLS: list[Callable[..., Any]] = [
    lambda r, labels: wk.agreement(r, coefficient="fleiss", labels=labels),
    lambda r, labels: wk.agreement(r, coefficient="conger", weights="linear", labels=labels),
    lambda r, labels: wk.agreement(r, coefficient="gwet", weights="quadratic", labels=labels),
    lambda r, labels: wk.krippendorff_alpha(r, level="ordinal", labels=labels),
    lambda r, labels: wk.krippendorff_alpha(r, level="interval", labels=labels),
]


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    taken: list[bool] = []
    real = coded_raters.coded_rows

    def spy(*args: Any) -> Any:
        out = real(*args)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(several_rows, "coded_rows", spy)
    return taken


@pytest.mark.parametrize(("name", "make", "labels", "numeric"), CASES, ids=[c[0] for c in CASES])
def test_named_categories_take_the_compiled_pass_with_the_same_result(
    monkeypatch: pytest.MonkeyPatch, name: str, make: Any, labels: Any, numeric: bool
) -> None:
    ratings = make(_ratings())
    for call in CALLS if numeric else CALLS[:4]:
        taken = _spy(monkeypatch)
        got = call(ratings, labels)
        assert taken == [True], name
        monkeypatch.setattr(several_rows, "coded_rows", lambda *args: None)
        general = call(ratings, labels)
        assert got.statistic == general.statistic
        assert got.standard_error == general.standard_error
        assert got.labels == general.labels
        assert got.n_ratings == general.n_ratings
        assert got.n_items == general.n_items


def test_bad_ratings_keep_the_general_routes_errors() -> None:
    x = _ratings()
    assert coded_raters.coded_rows(x, ["a", "b"], True, "omit") is None
    assert coded_raters.coded_rows(x.tolist(), [1, 2, 3, 4, 5], True, "omit") is None
    assert coded_raters.coded_rows(x, None, True, "omit") is None  # the range pass's work
    for labels in ([1, 2, 3], [1, 2, 4, 5], [1, 2, 3, 5, 50], [0.5, 1, 2, 3]):
        with pytest.raises(wk.WkappaError, match="not in `labels`"):
            wk.agreement(x, labels=labels)  # 3 or 4 is rated: the general route's message
    y = x.copy()
    y[0, 0] = 2.5
    with pytest.raises(wk.WkappaError, match="ratings"):
        wk.agreement(y, labels=[1, 2, 3, 4, 5])
    frame = pd.DataFrame(_strings(x))
    frame.iloc[3, 2] = "z"
    with pytest.raises(wk.WkappaError, match="'z'"):
        wk.agreement(frame, labels=list("abcde"))
    with pytest.raises(wk.WkappaError, match="not in `labels`"):
        wk.agreement(_polars(x, pl.Enum(list("abcde"))), labels=list("abc"))
    with pytest.raises(wk.WkappaError, match="item 0, rater 0"):
        z = x.copy()
        z[0, 0] = np.nan
        wk.agreement(z, labels=[1, 2, 3, 4, 5], nan_policy="raise")


def _general(ratings: Any, labels: Any, ordered: bool) -> Any:
    encoded = encode_rating_matrix(ratings, labels=labels, ordered=ordered, nan_policy="omit")
    assert encoded is not None
    rows, multiplicity = distinct_rows(encoded.codes)
    return rows, multiplicity, tuple(encoded.labels), int(np.count_nonzero(encoded.codes >= 0))


def _as_dict(rows: np.ndarray, multiplicity: np.ndarray) -> dict[tuple[int, ...], int]:
    return {tuple(r): int(m) for r, m in zip(rows.tolist(), multiplicity.tolist(), strict=True)}


KINDS = [
    "numpy",
    "pandas frame",
    "polars frame",
    "pandas categorical",
    "polars Enum",
    "arrow dictionary",
    "pandas strings",
    "polars strings",
    "arrow strings",
]


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    kind=st.sampled_from(KINDS),
    n=st.integers(1, 30),
    n_raters=st.integers(2, 5),
    k=st.integers(1, 5),
)
def test_compiled_codes_equal_the_general_route(
    data: st.DataObject, kind: str, n: int, n_raters: int, k: int
) -> None:
    values = data.draw(
        st.lists(st.integers(-1, k - 1), min_size=n * n_raters, max_size=n * n_raters)
    )
    codes = np.array(values).reshape(n, n_raters)
    if (codes < 0).all():
        codes[0, 0] = 0
    order = data.draw(st.permutations(range(k)))  # labels' order
    spelled = [f"c{j}" for j in range(k)]
    numbers = data.draw(
        st.sampled_from(
            [[3 * j for j in range(k)], [j / 4 for j in range(k)], [10 - j for j in range(k)]]
        )
    )
    # Numbers and strings need labels (without them numbers take the range pass).
    given_labels = data.draw(st.booleans()) or kind not in ("pandas categorical", "polars Enum")
    if kind in ("numpy", "pandas frame", "polars frame"):
        x = np.where(codes >= 0, np.asarray(numbers, dtype=float)[np.maximum(codes, 0)], np.nan)
        ratings: Any = {
            "numpy": x,
            "pandas frame": pd.DataFrame(x),
            "polars frame": pl.DataFrame(x),
        }[kind]
        labels: Any = [numbers[j] for j in order]
    else:
        s = np.where(codes >= 0, np.asarray(spelled, dtype=object)[np.maximum(codes, 0)], None)
        cols = {f"r{g}": s[:, g].tolist() for g in range(n_raters)}
        if kind == "pandas categorical":
            ratings = pd.DataFrame(
                {c: pd.Categorical(v, categories=spelled, ordered=True) for c, v in cols.items()}
            )
        elif kind == "polars Enum":
            ratings = pl.DataFrame(
                {c: pl.Series(v, dtype=pl.Enum(spelled)) for c, v in cols.items()}
            )
        elif kind == "arrow dictionary":
            ratings = pa.table(
                {c: pa.array(v, type=pa.string()).dictionary_encode() for c, v in cols.items()}
            )
        elif kind == "pandas strings":
            ratings = pd.DataFrame(cols)
        elif kind == "polars strings":
            ratings = pl.DataFrame(cols, schema={c: pl.String for c in cols})
        else:
            ratings = pa.table({c: pa.array(v, type=pa.string()) for c, v in cols.items()})
        labels = [spelled[j] for j in order]
    if not given_labels:
        labels = None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(raters, "FAST_MIN_CELLS", 0)
        patch.setattr(coded_raters, "FAST_MIN_CELLS", 0)
        got = coded_raters.coded_rows(ratings, labels, True, "omit")
    expected = _general(ratings, labels, True)
    assert got is not None
    assert _as_dict(got.rows, got.multiplicity) == _as_dict(expected[0], expected[1])
    assert tuple(got.labels) == expected[2]
    assert got.n_ratings == expected[3]
