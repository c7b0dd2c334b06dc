"""Differential fuzzing: every entry point x input kind x option against an exact reference.

Each example draws a small base of rating pairs at an edge of the number line (near 0,
2**24, 2**53, 2**62, 2**63, 2**64), with a range of categories at an edge (a few, around
8192 = the table limit, 2**24), optional missing ratings, sample weights (zeros, 1e-300,
1e300), weights, labels and ``nan_policy``, and tiles the base so that sizes cross the route
thresholds (2048 pairs: the fused numba path). Tiling m times multiplies the table by m, which
changes no kappa, so the exact ``Fraction`` reference of the base is the answer. Every entry
point must return that value (exactly without sample weights; within 1e-12 with them), or
nan with an :class:`~wkappa.exceptions.UndefinedKappaWarning` when it is undefined, or raise
a wkappa error exactly when one is predicted (a rating too large, K too large for a table,
a missing rating under 'raise'). Any other exception fails.

``make test`` runs a fixed budget of examples per entry point (derandomised in CI, see
tests/conftest.py); the ``slow``-marked ``test_deep_*`` tests run the same properties with
ten times the budget and the larger route thresholds (65,536 and 131,072 pairs).
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

import wkappa as wk
from wkappa.exceptions import UndefinedKappaWarning, WkappaError

MAX_TABLE_CELLS = 2**26
# Examples per property in `make test`; the deep run multiplies them.
BUDGET = int(os.environ.get("WKAPPA_FUZZ_EXAMPLES", "200"))
DEEP = int(os.environ.get("WKAPPA_FUZZ_DEEP", "10"))

OFFSETS = [0, -3, 2**24 - 4, 2**53 - 3, 2**62 - 9, 2**62 + 1, 2**63 - 9, 2**64 - 9]
SPANS_SMALL = [0, 1, 2, 3, 4, 5]
SPANS_WIDE = [8190, 8191, 8192, 8193, 2**24]
WEIGHT_VALUES = [0.0, 0.5, 1.0, 1.0, 2.0, 3.0]
# One scale per case: weights that differ by more than float64's range (1e-300 next to 1e300)
# cannot be represented together, but any common scale must change nothing.
WEIGHT_SCALES = [1.0, 1.0, 1e-300, 1e300]


def _kappa_weight(kind: Any, i: int, j: int, k: int) -> Fraction:
    if not isinstance(kind, str):
        return Fraction(float(kind[i][j]))
    scale = max(k - 1, 1)
    if kind == "quadratic":
        return Fraction((i - j) ** 2, scale**2)
    if kind == "linear":
        return Fraction(abs(i - j), scale)
    return Fraction(int(i != j))


def sparse_reference(
    true_index: list[int], pred_index: list[int], k: int, weights: Any, sample_weight: list[Any]
) -> Fraction | None:
    """Exact kappa from the definition, with the table, its margins and E kept sparse (any K):
    ``1 - sum(W*O) / sum(W*E)``, ``E = outer(r, c) / n``; None when undefined."""
    cells: dict[tuple[int, int], Fraction] = {}
    for a, b, w in zip(true_index, pred_index, sample_weight, strict=True):
        cells[(a, b)] = cells.get((a, b), Fraction(0)) + Fraction(w)
    n = sum(cells.values(), Fraction(0))
    if n == 0:
        return None
    rows: dict[int, Fraction] = {}
    cols: dict[int, Fraction] = {}
    for (a, b), o in cells.items():
        rows[a] = rows.get(a, Fraction(0)) + o
        cols[b] = cols.get(b, Fraction(0)) + o
    observed = sum(
        (_kappa_weight(weights, a, b, k) * o for (a, b), o in cells.items()), Fraction(0)
    )
    expected = sum(
        (_kappa_weight(weights, i, j, k) * r * c for i, r in rows.items() for j, c in cols.items()),
        Fraction(0),
    )
    if expected == 0:
        return None
    return 1 - observed * n / expected


@dataclass
class Case:
    a: list[int | None]
    b: list[int | None]
    repeat: int
    weights: Any
    sample_weight: list[float] | None
    labels: str  # "none", "range", "list"
    nan_policy: str
    kind: str
    split: list[int] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.a) * self.repeat

    def tiled(self, values: list[Any]) -> list[Any]:
        return values * self.repeat

    def kept(self) -> list[int]:
        return [
            i for i, (x, y) in enumerate(zip(self.a, self.b, strict=True)) if None not in (x, y)
        ]

    def has_missing(self) -> bool:
        return len(self.kept()) < len(self.a)

    def present_values(self) -> list[int]:
        return [v for v in [*self.a, *self.b] if v is not None]

    def categories(self) -> range | None:
        """The categories wkappa must use (labels, or the observed range of kept ratings)."""
        if self.labels != "none":
            values = self.present_values()
            return range(min(values), max(values) + 1) if values else None
        values = [v for i in self.kept() for v in (self.a[i], self.b[i])]
        if not values:
            return None
        return range(min(values), max(values) + 1)

    def label_argument(self) -> Any:
        cats = self.categories()
        if self.labels == "none" or cats is None:
            return None
        return cats if self.labels == "range" else list(cats)

    def expectation(self, needs_table: bool, max_k: int = 2**62) -> tuple[str, Fraction | None]:
        """("error", None) | ("undefined", None) | ("value", exact)."""
        if self.has_missing() and self.nan_policy == "raise":
            return "error", None
        if any(not -(2**63) <= v < 2**64 for v in self.present_values()):
            return "error", None  # ratings must fit in 64 bits
        kept_values = [v for i in self.kept() for v in (self.a[i], self.b[i])]
        if self.labels == "none" and any(abs(v) >= 2**62 for v in kept_values):  # type: ignore[arg-type]
            return "error", None  # integer ratings are kept exact below 2**62 (omitted: none)
        cats = self.categories()
        if cats is None:
            return "undefined", None
        k = len(cats)
        if k * k > MAX_TABLE_CELLS and (needs_table or self.weights != "quadratic"):
            return "error", None
        if k > max_k:
            return "error", None
        kept = self.kept()
        true_index = [self.a[i] - cats.start for i in kept]  # type: ignore[operator]
        pred_index = [self.b[i] - cats.start for i in kept]  # type: ignore[operator]
        weights = [1.0] * len(self.a) if self.sample_weight is None else self.sample_weight
        value = sparse_reference(
            true_index, pred_index, k, self.weights, [weights[i] for i in kept]
        )
        return ("undefined", None) if value is None else ("value", value)


@st.composite
def cases(draw: st.DrawFn, kinds: list[str], big_sizes: bool = False) -> Case:
    kind = draw(st.sampled_from(kinds))
    offset = draw(st.sampled_from(OFFSETS) | st.integers(-10, 10))
    weights_kind = draw(
        st.sampled_from(["quadratic", "quadratic", "linear", "unweighted", "matrix"])
    )
    wide = draw(st.booleans()) and weights_kind == "quadratic"
    span = draw(st.sampled_from(SPANS_WIDE if wide else SPANS_SMALL))
    base = draw(st.integers(1, 10))
    steps = st.sampled_from(sorted({0, 1, 2, min(span, 3), span}))
    a: list[int | None] = [offset + draw(steps) for _ in range(base)]
    b: list[int | None] = [offset + draw(steps) for _ in range(base)]
    if draw(st.integers(0, 3)) == 0:  # missing ratings, sometimes a whole column
        for values in (a, b):
            if draw(st.integers(0, 4)) == 0:
                values[:] = [None] * base
            else:
                for i in draw(st.lists(st.integers(0, base - 1), max_size=2)):
                    values[i] = None
    thresholds = [1, 1, 2, 2048 // base, 2048 // base + 1]
    if big_sizes:
        thresholds += [65536 // base + 1, 131072 // base + 1]
    repeat = max(1, draw(st.sampled_from(thresholds)))
    sample_weight = None
    if draw(st.booleans()) and span < 8190:
        scale = draw(st.sampled_from(WEIGHT_SCALES))
        sample_weight = [draw(st.sampled_from(WEIGHT_VALUES)) * scale for _ in range(base)]
    k_guess = span + 1
    weights: Any = weights_kind
    if weights_kind == "matrix":
        if k_guess > 6:
            weights = "linear"
        else:
            rng = np.random.default_rng(draw(st.integers(0, 2**16)))
            scale = draw(st.sampled_from([1.0, 1e-200, 1e200]))
            matrix = rng.integers(0, 5, (k_guess, k_guess)) * scale
            np.fill_diagonal(matrix, 0.0)  # disagreement weights: a zero diagonal
            weights = matrix.tolist()
    labels = draw(st.sampled_from(["none", "range"] + (["list"] if span <= 5 else [])))
    nan_policy = draw(st.sampled_from(["omit", "raise"]))
    split = sorted(draw(st.lists(st.integers(0, base * repeat), max_size=3)))
    case = Case(a, b, repeat, weights, sample_weight, labels, nan_policy, kind, split)
    if isinstance(weights, list):  # a user matrix must match K
        cats = case.categories()
        assume(cats is not None and len(cats) == len(weights))
    return case


# --------------------------------------------------------------------------- input kinds


def _int_dtype(values: list[int | None]) -> str | None:
    present = [v for v in values if v is not None]
    if all(-(2**63) <= v < 2**63 for v in present):
        return "int64"
    if all(0 <= v < 2**64 for v in present):
        return "uint64"
    return None


def make_column(values: list[int | None], kind: str, repeat: int) -> Any:
    """The ratings as ``kind``; ``assume`` rejects combinations the kind cannot hold."""
    tiled = values * repeat
    has_none = any(v is None for v in values)
    dtype = _int_dtype(values)
    if kind == "list":
        return tiled
    if kind in ("numpy", "dask", "torch"):
        assume(not has_none and dtype is not None)
        if kind == "torch":
            assume(dtype == "int64")
            torch = pytest.importorskip("torch")
            return torch.tensor(tiled, dtype=torch.int64)
        array = np.array(tiled, dtype=dtype)
        if kind == "dask":
            da = pytest.importorskip("dask.array")
            return da.from_array(array, chunks=max(1, len(tiled) // 3))
        return array
    if kind == "float64":
        assume(all(abs(v) <= 2**53 for v in values if v is not None))
        return np.array([math.nan if v is None else float(v) for v in tiled])
    if kind == "masked":
        assume(dtype is not None)
        data = np.array([7 if v is None else v for v in tiled], dtype=dtype)
        return np.ma.masked_array(data, mask=[v is None for v in tiled])
    if kind == "numpy_scalars":
        assume(dtype is not None)
        scalar = np.int64 if dtype == "int64" else np.uint64
        return [None if v is None else scalar(v) for v in tiled]
    if kind == "fraction":
        return [None if v is None else Fraction(v) for v in tiled]
    if kind == "decimal":
        return [None if v is None else Decimal(v) for v in tiled]
    if kind == "pandas":
        pd = pytest.importorskip("pandas")
        assume(dtype is not None)
        return pd.array(tiled, dtype="Int64" if dtype == "int64" else "UInt64")
    if kind == "polars":
        pl = pytest.importorskip("polars")
        assume(dtype is not None)
        return pl.Series(tiled, dtype=pl.Int64 if dtype == "int64" else pl.UInt64)
    if kind == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        assume(dtype is not None)
        return pa.array(tiled, type=pa.int64() if dtype == "int64" else pa.uint64())
    raise AssertionError(kind)


CORE_KINDS = [
    "list",
    "numpy",
    "float64",
    "masked",
    "numpy_scalars",
    "fraction",
    "decimal",
    "pandas",
    "polars",
    "pyarrow",
]
DEVICE_KINDS = ["torch", "dask"]
FRAME_KINDS = ["pandas_frame", "polars_frame", "polars_lazy", "pyarrow_table", "duckdb"]
COUNTS: dict[tuple[str, str], int] = {}


def _count(entry: str, kind: str) -> None:
    COUNTS[(entry, kind)] = COUNTS.get((entry, kind), 0) + 1


# --------------------------------------------------------------------------- checking


def check(
    case: Case, call: Callable[[], Any], needs_table: bool, entry: str, max_k: int = 2**62
) -> None:
    """Run ``call`` and compare its kappa with the case's expectation."""
    outcome, exact = case.expectation(needs_table, max_k)
    note(f"{case!r}\nexpected {outcome} {exact}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = call()
        except WkappaError as exc:
            assert outcome == "error", f"unexpected wkappa error: {exc}"
            _count(entry, case.kind)
            return
    assert outcome != "error", f"expected a wkappa error, got {got!r}"
    foreign = [w for w in caught if not issubclass(w.category, (UndefinedKappaWarning,))]
    assert not [w for w in foreign if "wkappa" in w.filename or "numpy" in w.filename], [
        str(w.message) for w in foreign
    ]
    if outcome == "undefined":
        assert math.isnan(got), got
        assert any(issubclass(w.category, UndefinedKappaWarning) for w in caught)
    else:
        assert exact is not None
        expected = float(exact)
        exact_route = case.sample_weight is None and not isinstance(case.weights, list)
        if exact_route:
            assert got == expected, (got, expected)
        else:
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (got, expected)
    _count(entry, case.kind)


def options(case: Case) -> dict[str, Any]:
    return {
        "labels": case.label_argument(),
        "sample_weight": None if case.sample_weight is None else case.tiled(case.sample_weight),
        "nan_policy": case.nan_policy,
    }


# --------------------------------------------------------------------------- properties


def _core(case: Case) -> None:
    y_true = make_column(case.a, case.kind, case.repeat)
    y_pred = make_column(case.b, case.kind, case.repeat)
    opts = options(case)
    weights = case.weights
    check(
        case,
        lambda: wk.weighted_kappa(y_true, y_pred, weights=weights, **opts),
        needs_table=False,
        entry="weighted_kappa",
    )
    if weights == "quadratic":
        check(case, lambda: wk.qwk(y_true, y_pred, **opts), needs_table=False, entry="qwk")


def _tables(case: Case) -> None:
    """confusion_table -> kappa_from_table, and kappa_test, all through the K x K table."""
    k = len(case.categories() or ())
    assume(k <= 64 or k * k > MAX_TABLE_CELLS)  # big tables are slow; past the guard: errors
    y_true = make_column(case.a, case.kind, case.repeat)
    y_pred = make_column(case.b, case.kind, case.repeat)
    opts = options(case)

    def via_table() -> float:
        table = wk.confusion_table(y_true, y_pred, **opts)
        return wk.kappa_from_table(table, weights=case.weights)

    def via_test() -> float:
        try:
            return wk.kappa_test(y_true, y_pred, weights=case.weights, **opts).statistic
        except WkappaError as exc:
            # Its standard errors read sample weights as frequencies: refused exactly when a
            # weighted count is not a whole number; the kappa is then the table's.
            if "must give whole-number counts" not in str(exc):
                raise
            table = wk.confusion_table(y_true, y_pred, **opts)
            assert np.any(table != np.floor(table)), str(exc)
            return wk.kappa_from_table(table, weights=case.weights)

    if case.categories() is not None:  # an empty table (every pair omitted) has no kappa
        check(case, via_table, needs_table=True, entry="confusion_table")
    check(case, via_test, needs_table=True, entry="kappa_test")


def _accumulator(case: Case) -> None:
    """Random batches, a JSON round trip per part, merged: the same kappa as the whole."""
    cats = case.categories()
    assume(cats is not None and len(cats) <= 64)
    assert cats is not None
    y_true = case.tiled(case.a)
    y_pred = case.tiled(case.b)
    weight = None if case.sample_weight is None else case.tiled(case.sample_weight)
    cuts = [0, *case.split, len(y_true)]

    def run() -> float:
        if case.labels != "none":
            labels = list(cats) if case.labels == "list" else cats
            make = lambda: wk.KappaAccumulator(labels, weights=case.weights)  # noqa: E731
        else:
            make = lambda: wk.KappaAccumulator(  # noqa: E731
                min_rating=cats.start, max_rating=cats.stop - 1, weights=case.weights
            )
        parts = []
        for lo, hi in itertools.pairwise(cuts):
            part = make()
            part.update(
                make_column(y_true[lo:hi], case.kind, 1) if hi > lo else [],
                make_column(y_pred[lo:hi], case.kind, 1) if hi > lo else [],
                sample_weight=None if weight is None else weight[lo:hi],
                nan_policy=case.nan_policy,
            )
            parts.append(wk.KappaAccumulator.from_dict(json.loads(json.dumps(part.to_dict()))))
        return sum(parts).kappa()  # type: ignore[no-any-return, union-attr]

    assume(case.kind not in ("dask", "torch"))
    assume(not (case.has_missing() and case.nan_policy == "raise"))
    check(case, run, needs_table=True, entry="accumulator")


def _frame(case: Case) -> None:
    from wkappa import frames

    y_true = case.tiled(case.a)
    y_pred = case.tiled(case.b)
    dtype = _int_dtype([*case.a, *case.b])
    assume(dtype is not None)
    data: dict[str, Any] = {"a": y_true, "b": y_pred}
    if case.sample_weight is not None:
        data["w"] = case.tiled(case.sample_weight)
    kind = case.kind
    if kind == "pandas_frame":
        pd = pytest.importorskip("pandas")
        pandas_dtype = "Int64" if dtype == "int64" else "UInt64"
        frame: Any = pd.DataFrame(
            {k: (pd.array(v, dtype=pandas_dtype) if k != "w" else v) for k, v in data.items()}
        )
    else:
        pl = pytest.importorskip("polars")
        schema = {
            k: (pl.Float64 if k == "w" else pl.Int64 if dtype == "int64" else pl.UInt64)
            for k in data
        }
        frame = pl.DataFrame(data, schema=schema)
        if kind == "polars_lazy":
            frame = frame.lazy()
        elif kind == "pyarrow_table":
            frame = frame.to_arrow()
        elif kind == "duckdb":
            duckdb = pytest.importorskip("duckdb")
            frame = duckdb.from_arrow(frame.to_arrow())
    opts = options(case)
    weights = case.weights
    check(
        case,
        lambda: frames.weighted_kappa(
            frame,
            y_true="a",
            y_pred="b",
            weights=weights,
            labels=opts["labels"],
            sample_weight=None if case.sample_weight is None else "w",
            nan_policy=case.nan_policy,
        ),
        needs_table=False,
        entry="frames.weighted_kappa",
    )


def _cli(case: Case, tmp_path: Any) -> None:
    """``wkappa score --format json`` in process on a CSV of the ratings."""
    from contextlib import redirect_stderr, redirect_stdout

    from wkappa._cli import main

    assume(case.sample_weight is None and isinstance(case.weights, str))
    assume(case.labels == "none" and case.n <= 5000)
    assume(case.kept())  # with no complete row the CLI says "nothing is left" (exit 2)
    path = tmp_path / "ratings.csv"
    rows = ["a,b"] + [
        f"{'' if x is None else x},{'' if y is None else y}"
        for x, y in zip(case.tiled(case.a), case.tiled(case.b), strict=True)
    ]
    path.write_text("\n".join(rows) + "\n")
    argv = ["score", str(path), "--true", "a", "--pred", "b", "--weights", case.weights]
    argv += ["--nan-policy", case.nan_policy, "--format", "json", "--quiet"]
    out, err = io.StringIO(), io.StringIO()

    def run() -> float:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
        if code == 2:
            raise WkappaError(err.getvalue())
        assert code == 0, err.getvalue()
        result = json.loads(out.getvalue())
        value = result["kappa"] if "kappa" in result else result["statistic"]
        if value is None or (isinstance(value, float) and math.isnan(value)):
            warnings.warn("undefined", UndefinedKappaWarning, stacklevel=1)
            return math.nan
        return float(value)

    # The CLI reads every rating column as int64 (or as text beyond it).
    assume(all(abs(v) < 2**62 for v in case.present_values()))
    check(case, run, needs_table=True, entry="cli score", max_k=1024)  # the CLI's K limit


FUZZ = settings(
    max_examples=BUDGET,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
DEEP_FUZZ = settings(FUZZ, max_examples=BUDGET * DEEP)
# The deep runs take minutes, which the suite's 300 s timeout (meant for a hang) would cut
# short on a busy machine.
DEEP_TIMEOUT = 1200


@FUZZ
@given(cases(CORE_KINDS))
def test_fuzz_core(case: Case) -> None:
    _core(case)


@FUZZ
@given(cases(CORE_KINDS))
def test_fuzz_tables(case: Case) -> None:
    _tables(case)


@FUZZ
@given(cases(CORE_KINDS))
def test_fuzz_accumulator(case: Case) -> None:
    _accumulator(case)


@settings(FUZZ, max_examples=BUDGET // 2)
@given(cases(DEVICE_KINDS))
def test_fuzz_device_and_dask(case: Case) -> None:
    _core(case)


@settings(FUZZ, max_examples=BUDGET // 2)
@given(cases(FRAME_KINDS))
def test_fuzz_frames(case: Case) -> None:
    _frame(case)


@settings(FUZZ, max_examples=BUDGET // 3)
@given(case=cases(["list"]))
def test_fuzz_cli(case: Case, tmp_path_factory: pytest.TempPathFactory) -> None:
    _cli(case, tmp_path_factory.mktemp("cli"))


@pytest.mark.slow
@pytest.mark.timeout(DEEP_TIMEOUT)
@DEEP_FUZZ
@given(cases(CORE_KINDS + DEVICE_KINDS, big_sizes=True))
def test_deep_core(case: Case) -> None:
    _core(case)


@pytest.mark.slow
@pytest.mark.timeout(DEEP_TIMEOUT)
@DEEP_FUZZ
@given(cases(CORE_KINDS))
def test_deep_tables_and_accumulator(case: Case) -> None:
    _tables(case)
    _accumulator(case)


@pytest.mark.slow
@pytest.mark.timeout(DEEP_TIMEOUT)
@DEEP_FUZZ
@given(cases(FRAME_KINDS))
def test_deep_frames(case: Case) -> None:
    _frame(case)


def test_fuzz_reference_matches_the_table_reference() -> None:
    """The sparse reference agrees with tests/reference.py's dense one (a sanity check)."""
    from reference import reference_kappa

    rng = np.random.default_rng(0)
    for _ in range(50):
        k = int(rng.integers(1, 6))
        a = rng.integers(0, k, 12).tolist()
        b = rng.integers(0, k, 12).tolist()
        w = rng.random(12).tolist()
        for kind in ("quadratic", "linear", "unweighted"):
            assert sparse_reference(a, b, k, kind, w) == reference_kappa(a, b, k, kind, w)


def pytest_terminal_summary() -> None:  # pragma: no cover - reporting only
    pass


@pytest.fixture(scope="module", autouse=True)
def _report_counts() -> Any:
    yield
    if COUNTS:
        lines = [
            f"{entry:24s} {kind:14s} {count:5d}" for (entry, kind), count in sorted(COUNTS.items())
        ]
        print("\nfuzz examples checked (entry point, input kind, count):\n" + "\n".join(lines))
