"""Several raters with ``labels=`` consecutive integers take the compiled pass: the same
values, categories and errors as the general route."""

from __future__ import annotations

import numpy as np
import pytest

import wkappa as wk
from wkappa._stats import several


def _ratings(n: int = 12_000, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n)  # category 5 of labels 1..5 unused
    x = np.clip(truth[:, None] + rng.integers(-1, 2, (n, 5)), 1, 4).astype(float)
    x[rng.random((n, 5)) < 0.1] = np.nan
    return x


@pytest.mark.parametrize(
    "call",
    [
        lambda x, labels: wk.agreement(x, coefficient="fleiss", labels=labels),
        lambda x, labels: wk.agreement(x, coefficient="conger", weights="linear", labels=labels),
        lambda x, labels: wk.agreement(x, coefficient="gwet", weights="quadratic", labels=labels),
        lambda x, labels: wk.krippendorff_alpha(x, level="ordinal", labels=labels),
        lambda x, labels: wk.krippendorff_alpha(x, level="interval", labels=labels),
    ],
)
def test_labels_take_the_compiled_pass_with_the_same_result(
    monkeypatch: pytest.MonkeyPatch, call: object
) -> None:
    x = _ratings()
    taken: list[bool] = []
    fast = several._fast_rows_with_labels

    def spy(*args: object) -> object:
        out = fast(*args)  # type: ignore[arg-type]
        taken.append(out is not None)
        return out

    monkeypatch.setattr(several, "_fast_rows_with_labels", spy)
    for labels in ([1, 2, 3, 4, 5], range(1, 6)):
        got = call(x, labels)  # type: ignore[operator]
        assert taken[-1] is True
        monkeypatch.setattr(several, "_fast_rows_with_labels", lambda *args: None)
        general = call(x, labels)  # type: ignore[operator]
        monkeypatch.setattr(several, "_fast_rows_with_labels", spy)
        assert got.statistic == general.statistic
        assert got.labels == general.labels == (1, 2, 3, 4, 5)
        assert got.n_ratings == general.n_ratings


def test_other_labels_and_bad_ratings_keep_the_general_route() -> None:
    x = _ratings()
    assert several._fast_rows_with_labels(x, [1, 3, 2, 4, 5], "omit") is None  # not in order
    assert several._fast_rows_with_labels(x, [1, 2, 4, 5], "omit") is None  # a gap; 3 not in
    assert several._fast_rows_with_labels(x, ["a", "b"], "omit") is None
    assert several._fast_rows_with_labels(x.tolist(), [1, 2, 3, 4, 5], "omit") is None
    with pytest.raises(wk.WkappaError, match="not in `labels`"):
        wk.agreement(x, labels=[1, 2, 3])  # 4 is rated: the general route's message
    y = x.copy()
    y[0, 0] = 2.5
    with pytest.raises(wk.WkappaError, match="ratings"):
        wk.agreement(y, labels=[1, 2, 3, 4, 5])
