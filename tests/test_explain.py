"""explain() and plot(): the seed notes' O/W/E story in text and pictures."""

from __future__ import annotations

import glob
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import wkappa as wk
from wkappa._stats.explain import explain_table, seed_steps
from wkappa.exceptions import WkappaError

pytestmark = pytest.mark.filterwarnings("error")

ACTUALS = [4, 4, 3, 4, 4, 0, 1, 1, 2, 1]
PREDS = [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]

# Printed in seed note 000 (../shared/seeds/000_1d8d419f6602d0eb.txt), In [24]-[27], verbatim.
SEED_000_PRINTED = [
    """Matrix O:
[[1 0 0 0 0]
 [0 3 0 0 0]
 [0 0 1 0 0]
 [0 1 0 0 0]
 [2 0 0 0 2]]""",
    """weights matrix:
[[0.     0.0625 0.25   0.5625 1.    ]
 [0.0625 0.     0.0625 0.25   0.5625]
 [0.25   0.0625 0.     0.0625 0.25  ]
 [0.5625 0.25   0.0625 0.     0.0625]
 [1.     0.5625 0.25   0.0625 0.    ]]""",
    """Expected matrix:
[[ 3.  4.  1.  0.  2.]
 [ 9. 12.  3.  0.  6.]
 [ 3.  4.  1.  0.  2.]
 [ 3.  4.  1.  0.  2.]
 [12. 16.  4.  0.  8.]]""",
    """weighted kappa:
0.31818181818181823""",
]


def test_explain_reproduces_every_printout_of_seed_000() -> None:
    text = wk.kappa_test(ACTUALS, PREDS).explain()
    for block in SEED_000_PRINTED:
        assert block in text, block


def test_explain_matches_the_seed_file_when_present() -> None:
    """Reads the matrices and the kappa straight from the seed note if it is on disk."""
    here = pathlib.Path(__file__).resolve()
    candidates = [p for parent in here.parents for p in glob.glob(f"{parent}/shared/seeds/000_*")]
    if not candidates:
        pytest.skip("the worked example's source text (../shared/seeds/) is not beside this clone")
    seed = pathlib.Path(candidates[0]).read_text()
    blocks = re.findall(
        r"^((?:Matrix O|weights matrix|Expected matrix):\n\[\[.*?\]\])$", seed, re.M | re.S
    )
    assert len(blocks) == 3
    kappa = re.search(r"^weighted kappa:\nOut\[27\]:\n(\S+)$", seed, re.M)
    assert kappa is not None
    text = wk.kappa_test(ACTUALS, PREDS).explain()
    for block in blocks:
        assert block in text
    assert f"weighted kappa:\n{kappa.group(1)}\n" in text


def test_numbers_follow_the_seed_double_loop() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        k = int(rng.integers(2, 7))
        table = rng.integers(0, 9, (k, k))
        w = wk.kappa_test_from_table(table, weights="linear").weight_matrix
        o = table / table.sum()
        e = np.outer(table.sum(1), table.sum(0)).astype(float)
        e = e / e.sum()
        num = den = 0.0
        for i in range(k):
            for j in range(k):
                num += w[i][j] * o[i][j]
                den += w[i][j] * e[i][j]
        steps = seed_steps(table, w)
        assert (steps.numerator, steps.denominator) == (num, den)
        assert steps.kappa == 1 - num / den
        text = explain_table(table, w)
        assert f"numerator   sum(W*O) = {float(num)!r}" in text
        assert f"weighted kappa:\n{float(1 - num / den)!r}" in text
        assert steps.contribution.sum() == pytest.approx(num - den)


def test_costly_cells_and_inference_lines() -> None:
    text = wk.kappa_test(ACTUALS, PREDS).explain()
    assert "y_true=4, y_pred=0: +0.080000 (observed 2, expected 1.2; kappa -0.2424)" in text
    assert "standard error = 0.282487" in text
    assert "(fair, Landis & Koch)" in text
    perfect = wk.kappa_test_from_table([[3, 0], [0, 2]]).explain()
    assert "No cell has more weighted disagreement than chance" in perfect


def test_explain_ignores_global_print_options() -> None:
    with np.printoptions(precision=2, suppress=True):
        text = wk.kappa_test(ACTUALS, PREDS).explain()
    assert SEED_000_PRINTED[1] in text


def test_explain_with_string_labels() -> None:
    text = wk.kappa_test(
        ["a", "b", "c", "a"], ["a", "c", "c", "b"], labels=["a", "b", "c"]
    ).explain()
    assert "Categories (K = 3): ['a', 'b', 'c']" in text


def test_demo_still_explains() -> None:
    from wkappa._cli import main

    assert main(["demo"]) == 0


# --------------------------------------------------------------------------- plot


def test_plot_renders_a_png(tmp_path: pathlib.Path) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = wk.kappa_test(ACTUALS, PREDS)
    axes = result.plot()
    assert len(axes) == 3
    texts = [t.get_text() for t in axes[2].texts]
    assert "+0.080" in texts and len(texts) == 25
    assert [t.get_text() for t in axes[0].texts].count("2") == 2
    assert "kappa = 0.3182" in axes[2].get_title()
    path = tmp_path / "kappa.png"
    axes[0].figure.savefig(path, dpi=60)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000
    plt.close(axes[0].figure)


def test_plot_into_given_axes_and_many_categories() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    result = wk.kappa_test_from_table(rng.integers(0, 5, (15, 15)).astype(float) / 2)
    figure, given = plt.subplots(3, 1)
    axes = result.plot(axes=given)
    assert all(a is b for a, b in zip(axes, given, strict=True))
    assert not axes[0].texts  # too many cells to annotate
    with pytest.raises(WkappaError, match="axes"):
        result.plot(axes=given[:2])
    plt.close(figure)


def test_import_does_not_load_matplotlib() -> None:
    code = "import sys, wkappa; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
